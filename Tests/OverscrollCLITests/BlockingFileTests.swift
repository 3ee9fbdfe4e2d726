import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Files that would block (a FIFO given for content, a config or a font, at start or by a
/// reload) are refused by name, never opened and waited on.
@Suite struct BlockingFileTests: ReportFolderChecks {
    static let script = "Assets/gestures/pull-to-refresh.txt"

    /// Content, a config reached through a symlink (it read as empty), and a font: each a
    /// FIFO given at start is refused in words with 66, not opened and waited on.
    @Test(arguments: [("--content", false), ("--config", true), ("--font", false)])
    func aFifoGivenAtStartIsRefusedWith66(flag: String, throughSymlink: Bool) throws {
        let fifo = CLI.temporaryPath("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        var path = fifo
        if throughSymlink {
            path = CLI.temporaryPath("link")
            #expect(symlink(fifo, path) == 0)
        }
        let r = try CLI.run(["replay", Self.script, flag, path])
        #expect(r.status == 66)
        #expect(r.stderr.contains("is a FIFO"))
    }

    @Test func aReloadWhoseContentBecameAFifoIsRefusedAndSigtermStillEndsTheWindow() throws {
        let server = try #require(try XServer())
        let content = try CLI.write("one\ntwo\n", to: "content.txt")
        let config = try CLI.write("content = \"\(content)\"\n", to: "kiosk.toml")
        let report = CLI.temporaryPath("report")
        let app = try LiveApp(["--no-sound", "--config", config, "--report", report], on: server)
        #expect(poll { frames(report) > 0 })
        try FileManager.default.removeItem(atPath: content)
        #expect(mkfifo(content, 0o600) == 0)
        app.signal(SIGHUP)
        var log = ""
        #expect(poll { log += app.stderr; return log.contains("is a FIFO") }, "\(log)")
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 10) == 0)
        #expect(isWhole(report))
    }
}
