import Foundation
import Testing

@Suite struct ConfigFileTests {
    @Test func settingsComeFromTheFileAndFlagsWin() throws {
        let config = try CLI.write("""
            # kiosk settings
            threshold = 50
            refresh-duration = "300ms"
            flash = false
            """, to: "ok.toml")
        let trace = CLI.temporaryPath("cfg.csv")
        let script = try CLI.write("down 240 100\nmove 240 220 300ms\nwait 100ms\nup\nwait 2s\n", to: "pull.txt")
        // 120 pt of finger travel is ~63 pt visible: past 50, short of the default 120.
        var r = try CLI.run(["replay", script, "--config", config, "--trace", trace])
        #expect(r.status == 0, "\(r.stderr)")
        var t = try Trace(path: trace)
        let start = try #require(t.rows.firstIndex { $0["events"] == "refresh-start" })
        let end = try #require(t.rows.firstIndex { $0["events"] == "refresh-end" })
        #expect(abs(t.double(end, "t_ms") - t.double(start, "t_ms") - 300) <= 16.667)
        // The flag wins over the file.
        r = try CLI.run(["replay", script, "--config", config, "--threshold", "120", "--trace", trace])
        #expect(r.status == 0)
        t = try Trace(path: trace)
        #expect(!t.rows.contains { $0["events"] == "refresh-start" })
    }

    @Test(arguments: [
        ("threshold = 50\ncolour = \"red\"\n", ":2: unknown key 'colour'"),
        ("\n\nthreshold = -3\n", ":3: 'threshold' must be points above 0 and below the window's height"),
        ("rotate = 45\n", ":1: 'rotate' must be 0, 90, 180 or 270"),
        ("refresh-timeout = \"soon\"\n", ":1: 'refresh-timeout' must be a duration greater than 0"),
        ("flash = \"no\"\n", ":1: 'flash' must be true or false"),
        ("renderer = \"fast\"\n", ":1: 'renderer' must be one of auto, gpu, cpu"),
        ("threshold = = 3\n", ":1:"),
        // TOML the reader takes but no setting is, and TOML it refuses, each on its line.
        ("\n[kiosk]\nthreshold = 50\n", ":2: a [table] header"),
        ("threshold = 50\n# again\nthreshold = 60\n", ":3: 'threshold' is set twice (first on line 1)"),
        ("flash = 1979-05-27 07:32:00\n", ":1: 'flash' must be true or false"),
        ("flash = { on = true }\n", ":1: 'flash' must be true or false"),
        ("kiosk.flash = true\n", ":1: a dotted key ('kiosk.…') is not supported"),
        ("threshold = 050\n", ":1: 'threshold' must be points above 0 and below the window's height: '050' is not a TOML value"),
        ("content = \"rows.txt\n", ":1: a string that does not end on its line"),
        ("refresh-command = [\"a\",\n  \"b\"\n", ":1: an array '[' that is never closed"),
        ("flash = true false\n", ":1: unexpected 'f' after the value"),
    ])
    func badFilesNameTheFileLineKeyAndWhatIsAllowed(text: String, expected: String) throws {
        let config = try CLI.write(text, to: "bad.toml")
        let r = try CLI.run(["replay", "Assets/gestures/drag.txt", "--config", config])
        #expect(r.status == 78, "\(r.stderr)")
        #expect(r.stderr.contains(config + expected), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test func tomlsOtherSpellingsOfTheSameSettingsLoad() throws {
        // Quoted keys, '_' in numbers, literal and multi-line strings, escapes: the TOML 1.0
        // a hand-edited file may use.
        let config = try CLI.write("""
            "threshold" = 5_0          # points
            'refresh-duration' = \'\'\'300ms\'\'\'
            flash = false
            content = "Assets/content/s\\u0061mple.txt"
            """, to: "spellings.toml")
        let trace = CLI.temporaryPath("spellings.csv")
        let script = try CLI.write("down 240 100\nmove 240 220 300ms\nwait 100ms\nup\nwait 2s\n", to: "pull.txt")
        let r = try CLI.run(["replay", script, "--config", config, "--trace", trace])
        #expect(r.status == 0, "\(r.stderr)")
        let t = try Trace(path: trace)
        let start = try #require(t.rows.firstIndex { $0["events"] == "refresh-start" })
        let end = try #require(t.rows.firstIndex { $0["events"] == "refresh-end" })
        #expect(abs(t.double(end, "t_ms") - t.double(start, "t_ms") - 300) <= 16.667)
        // A multi-line array with comments and a trailing comma is read, then refused by the
        // setting that takes no array, on the line it starts.
        let array = try CLI.write("flash = true\nsound = [\n  false,  # no\n  true,\n]\n", to: "array.toml")
        let refused = try CLI.run(["replay", script, "--config", array])
        #expect(refused.status == 78 && refused.stderr.contains(array + ":2: 'sound' must be true or false"), "\(refused.stderr)")
    }

    @Test func aMissingConfigFileIsAClearError() throws {
        let r = try CLI.run(["replay", "Assets/gestures/drag.txt", "--config", "/nonexistent.toml"])
        #expect(r.status == 66)
        #expect(r.stderr.contains("/nonexistent.toml"))
        let directory = try CLI.run(["replay", "Assets/gestures/drag.txt", "--config", CLI.packageRoot + "/Assets"])
        #expect(directory.status == 66 && directory.stderr.contains("is a directory"))
    }
}
