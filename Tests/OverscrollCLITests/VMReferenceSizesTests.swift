import Foundation
import Testing

/// script/vm-test draws each boot's headless references at the app sizes drive.py names
/// (`--ref-sizes`): a boot's screen turned by its `rotate`. A boot added to the matrix at
/// a size the list did not have (qxl turned by 90, 1024x1280) stopped its checks with
/// FileNotFoundError before, for a reference nobody drew.
@Suite struct VMReferenceSizesTests {
    func sizes(_ args: [String]) throws -> CLIResult {
        try CLI.run(["env", "python3", "script/vm/drive.py", "--ref-sizes"] + args, through: "/usr/bin/env")
    }

    @Test func eachBootIsComparedAtItsScreenTurnedByItsRotation() throws {
        let all = try sizes(["all"])
        #expect(all.status == 0, "\(all.stderr)")
        let lines = all.stdout.split(separator: "\n").map(String.init)
        // bochs-single-rot90: 1280x800 turned by 90; fbdev-rot270: 720x1280 turned by 270;
        // bochs-1920x1080 unturned.
        #expect(lines.contains("800x1280") && lines.contains("1280x720") && lines.contains("1920x1080"), "\(all.stdout)")
        // 720x1280 (the first boot's and every unturned 720x1280 panel's) is always drawn.
        #expect(!lines.contains("720x1280"), "\(all.stdout)")
        #expect(Set(lines).count == lines.count, "\(all.stdout)")
    }

    @Test func onlyTheChosenBootsSizesAndAnUnknownBootIsAUsageError() throws {
        let two = try sizes(["fbdev bochs-single-rot90"])
        #expect(two.status == 0 && two.stdout == "800x1280\n", "\(two.stdout)\(two.stderr)")
        let none = try sizes([""])
        #expect(none.status == 0 && none.stdout.isEmpty, "\(none.stdout)\(none.stderr)")
        let bad = try sizes(["bochs-single-rot90 nope"])
        #expect(bad.status == 64 && bad.stderr.contains("no boot named nope"), "\(bad.stderr)")
    }
}
