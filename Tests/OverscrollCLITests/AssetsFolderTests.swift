import Foundation
import Testing

/// `OVERSCROLL_ASSETS=DIR`: `DIR/content/sample.txt`, where it exists, is the default rows
/// (the man page said so, and the program showed the built-in sample regardless).
@Suite struct AssetsFolderTests {
    @Test func theAssetsFoldersSampleIsTheDefaultRows() throws {
        let folder = CLI.temporaryPath("assets")
        try FileManager.default.createDirectory(atPath: folder + "/content", withIntermediateDirectories: true)
        try "first of two\nsecond of two\n".write(toFile: folder + "/content/sample.txt", atomically: true, encoding: .utf8)
        let trace = CLI.temporaryPath("trace.csv")
        let r = try CLI.run(["replay", "Assets/gestures/drag.txt", "--verbose", "--trace", trace],
                            environment: ["OVERSCROLL_ASSETS": folder])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("rows: 2 from /") && r.stderr.contains("($OVERSCROLL_ASSETS)"), "\(r.stderr)")
        // The list the replay drew holds those two rows.
        let frames = try Trace(path: trace).rows
        #expect(!frames.isEmpty && frames.allSatisfy { $0["rows"] == "2" }, "\(frames.first ?? [:])")
        // --content still wins over it.
        let content = try CLI.write("only row\n", to: "rows.txt")
        let chosen = try CLI.run(["replay", "Assets/gestures/drag.txt", "--verbose", "--content", content],
                                 environment: ["OVERSCROLL_ASSETS": folder])
        #expect(chosen.stderr.contains("rows: 1 from \(content)"), "\(chosen.stderr)")
    }

    @Test func aFolderWithoutASampleLeavesTheBuiltInOne() throws {
        let folder = CLI.temporaryPath("empty-assets")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let r = try CLI.run(["replay", "Assets/gestures/drag.txt", "--verbose"], environment: ["OVERSCROLL_ASSETS": folder])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("rows: 100 from the built-in sample"), "\(r.stderr)")
    }
}
