import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Text from outside (a refresh command's stderr, a summary.json's strings) reaches the
/// terminal escaped: no escape sequence or bidi override passes through.
@Suite struct EscapedTextTests {
    static let script = "Assets/gestures/pull-to-refresh.txt"

    @Test func bidiOverridesAndEscapesFromARefreshCommandAreShownEscaped() throws {
        let r = try CLI.run(["replay", Self.script, "--refresh-command", "sh -c 'printf \"evil\\342\\200\\256txt\\033[31m\\n\" >&2; exit 2'"])
        #expect(r.stderr.contains("\\u{202E}"), "\(r.stderr)")
        #expect(!r.stderr.unicodeScalars.contains("\u{202E}"))
        #expect(!r.stderr.unicodeScalars.contains("\u{1B}"))
    }

    /// Issue 41 item 10: an ESC in a refresh command's stderr became a plain space.
    @Test func anEscapeInARefreshCommandsStderrIsShownAsOne() throws {
        let r = try CLI.run(["replay", Self.script, "--refresh-command", "sh -c 'printf \"red \\033[31mtext\\n\" >&2; exit 2'"])
        #expect(r.stderr.contains("red \\u{1B}[31mtext"), "\(r.stderr)")
        #expect(!r.stderr.unicodeScalars.contains("\u{1B}"))
    }

    /// Issue 41 item 7: escape and bidi characters from a summary.json went straight to the terminal.
    @Test func reportPrintsTheStringsOfASummaryEscaped() throws {
        let report = try editedReport { top in
            var metadata = top["metadata"] as? [String: Any] ?? [:]
            metadata["script"] = "evil\u{1B}]0;pwned\u{7}\u{202E}txt\nforged row"
            metadata["video_driver"] = "x11\u{1B}[2J"
            top["metadata"] = metadata
        }
        let r = try CLI.run(["report", report])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{202E}" }, "\(r.stdout)")
        #expect(r.stdout.contains("evil\\u{1B}]0;pwned\\u{7}\\u{202E}txt\\u{A}forged row"), "\(r.stdout)")
        #expect(r.stdout.contains("x11\\u{1B}[2J"))
        let compared = try CLI.run(["report", report, report])
        #expect(!compared.stdout.unicodeScalars.contains("\u{1B}"), "\(compared.stdout)")
    }
}
