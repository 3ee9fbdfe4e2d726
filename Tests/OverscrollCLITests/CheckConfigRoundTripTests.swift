import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 41 item 6: `check-config` prints TOML that reads back to the same settings.
@Suite struct CheckConfigRoundTripTests {
    /// The `key = value` part of each setting's line (the origin comment after it dropped).
    func values(_ listing: String) -> [String] {
        listing.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            String(line[..<(line.range(of: "  # ", options: .backwards)?.lowerBound ?? line.endIndex)]).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Issue 41 item 6: raw newlines and control characters passed through (a value could forge
    /// `kiosk = false`), and durations printed as "1e-07s" and "1e+20s", which the program
    /// itself refused when read back. Every setting here has a value, odd where it can be.
    @Test func theListingReadsBackToTheSameSettings() throws {
        let dir = "/tmp/o41-" + UUID().uuidString.prefix(8) + "/odd \"dir\" \\ \u{202E}"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let odd = "line\nkiosk = false\n\u{1B}[2J 'single' \"double\" back\\slash\ttab é"
        let font = dir + "/font\n\(odd).ttf"
        #expect(symlink("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", font) == 0)
        let content = dir + "/rows \(odd).txt"
        try "one\ntwo\n".write(toFile: content, atomically: true, encoding: .utf8)
        func q(_ s: String) -> String { "\"" + s.unicodeScalars.map { c -> String in
            switch c {
            case "\"": "\\\""
            case "\\": "\\\\"
            case _ where c.value < 0x20 || c.value == 0x7F: String(format: "\\u%04X", c.value)
            default: String(c)
            }
        }.joined() + "\"" }
        let text = """
            font = \(q(font))
            threshold = 100.5
            refresh-duration = 1e-7
            refresh-timeout = 1e20
            content = \(q(content))
            refresh-command = ["sh", "-c", \(q("echo \(odd)")), \(q("\u{7F}\u{85}\u{2028}"))]
            flash = false
            sound = "off"
            rotate = 270
            kiosk = true
            mouse = true
            keyboard = true
            status-text = "OFF"
            size = "1024x600"
            report = \(q(dir + "/report \(odd)"))
            report-keep = 30
            renderer = "cpu"
            verbose = true
            fullscreen = true
            display = 1
            output = "HDMI-A-1"
            refresh-every = 1.25
            idle-reset = 1e20
            metrics = \(q(dir + "/m \(odd).prom"))
            scale = 2.5

            """
        let first = dir + "/first.toml"
        try text.write(toFile: first, atomically: true, encoding: .utf8)
        let r1 = try CLI.run(["check-config", first])
        #expect(r1.status == 0, "\(r1.stderr)")
        // One line a setting, all with values, none of them raw controls.
        let listed = values(r1.stdout)
        #expect(listed.count == 25 && r1.stdout.split(separator: "\n").count == 26, "\(r1.stdout)")
        #expect(!r1.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0 == "\u{1B}" || $0 == "\u{202E}" }, "\(r1.stdout)")
        #expect(listed.contains("refresh-duration = 1e-07") && listed.contains("refresh-timeout = 1e+20"), "\(listed)")
        #expect(listed.filter { $0.hasPrefix("kiosk = ") } == ["kiosk = true"])
        // Read back: the same settings.
        let second = dir + "/second.toml"
        try r1.stdout.write(toFile: second, atomically: true, encoding: .utf8)
        let r2 = try CLI.run(["check-config", second])
        #expect(r2.status == 0, "\(r2.stderr)")
        #expect(values(r2.stdout) == listed)
        // And an independent reader reads the same strings from it.
        if let python = Python.tomllib {
            let check = try CLI.run([python, "-c", """
                import sys, tomllib
                d = tomllib.load(open(sys.argv[1], 'rb'))
                print(repr(d['refresh-command'][2]), repr(d['content']), d['refresh-duration'], d['refresh-timeout'], len(d))
                """, second], through: python)
            #expect(check.status == 0, "\(check.stderr)")
            let expected = "'echo \(odd.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\u{1B}", with: "\\x1b").replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\\slash", with: "\\\\slash").replacingOccurrences(of: "'single'", with: "\\'single\\'"))'"
            #expect(check.stdout.hasPrefix(expected), "\(check.stdout) against \(expected)")
            #expect(check.stdout.hasSuffix(" 1e-07 1e+20 25\n"), "\(check.stdout)")
        }
    }
}

/// python3 with tomllib, for the tests that check output with an independent reader.
enum Python {
    static let tomllib: String? = {
        for path in ["/usr/bin/python3", "/usr/local/bin/python3"] where FileManager.default.isExecutableFile(atPath: path) {
            if let r = try? CLI.run([path, "-c", "import tomllib"], through: path), r.status == 0 { return path }
        }
        return nil
    }()
}
