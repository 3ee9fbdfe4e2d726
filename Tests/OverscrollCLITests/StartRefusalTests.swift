import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A start that cannot go on says why in one line of ours, with the fix: a usage error with
/// the usage, no display, a driver that shows nothing, a font that cannot be drawn, a path
/// too long to show.
@Suite struct StartRefusalTests {
    static let script = "Assets/gestures/pull-to-refresh.txt"

    /// Issue 41 item 11: `--threshold 800` (past a 480x800 window's height) exited 64 without the
    /// usage docs/reference.md says a 64 prints.
    @Test(arguments: [(["--threshold", "800"], "Usage: overscroll [<settings>]"),
                      (["replay", "Assets/gestures/drag.txt", "--threshold", "900"], "Usage: overscroll replay <script>")])
    func aThresholdPastTheWindowsHeightIsAUsageErrorWithTheUsage(arguments: [String], usage: String) throws {
        let r = try CLI.run(arguments + ["--no-sound"])
        #expect(r.status == 64)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix("Error: --threshold \(arguments[arguments.count - 1]) is out of range: it must be less than the list's height") == true, "\(r.stderr)")
        #expect(lines.count > 1 && lines[1].hasPrefix(usage), "\(r.stderr)")
    }

    /// Issue 41 item 11: with no display, libwayland's "error: XDG_RUNTIME_DIR is invalid or not
    /// set in the environment." came before our line: the error was two lines.
    @Test func withNoDisplayTheErrorIsOurOneLine() throws {
        let r = try CLI.run(["/usr/bin/env", "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", "-u", "XDG_RUNTIME_DIR", "-u", "SDL_VIDEODRIVER",
                             CLI.executable, "--no-sound"], through: "/usr/bin/env")
        #expect(r.status == 69)
        #expect(r.stderr.hasPrefix("overscroll: no display to open a window on"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    /// SDL's evdev driver is its dummy one with input: asked for by name where no DRM
    /// screen was taken, the window was shown nowhere, and the run looked healthy.
    @Test(arguments: ["evdev", "offscreen", "dummy"])
    func aDriverThatShowsNothingIsRefusedByName(driver: String) throws {
        let r = try CLI.run(["/usr/bin/env", "SDL_VIDEODRIVER=\(driver)", CLI.executable, "--no-sound"], through: "/usr/bin/env")
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr == "overscroll: SDL_VIDEODRIVER=\(driver) shows no window; unset it (or set x11, wayland or kmsdrm), or use 'overscroll replay' headless\n",
                "\(r.stderr)")
    }

    @Test func aColourEmojiFontIsRefusedWith66AndTheReason() throws {
        let emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
        try #require(FileManager.default.fileExists(atPath: emoji), "fonts-noto-color-emoji is needed")
        let r = try CLI.run(["replay", Self.script, "--font", emoji])
        #expect(r.status == 66)
        #expect(r.stderr.contains("no outline glyphs for Latin text"))
    }

    @Test func aPathLongerThan80IsCutInTheMessage() throws {
        let long = "/nonexistent/" + String(repeating: "d", count: 5000) + "/script.txt"
        let r = try CLI.run(["replay", long])
        #expect(r.status == 66)
        let line = try #require(r.stderr.split(separator: "\n").first)
        #expect(line.count < 300, "\(line.count) characters")
    }
}
