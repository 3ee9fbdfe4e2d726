import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// SIGHUP on the built program under Xvfb, as a service manager sends it: what a reload
/// shows with nobody touching the screen, what it names as needing a restart, that a
/// flood of them costs nothing, and what the service manager is told.
@Suite struct ReloadTests {
    /// frames.csv's rows-shown column, frame by frame.
    /// (resident KiB, open fds) of a process, from /proc.
    func usage(_ pid: Int32) -> (rssKiB: Int, fds: Int) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? -1
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
        return (rss, fds)
    }

    /// `usage(pid)` once its descriptors hold still for a fifth of a second: the reloads
    /// signalled so far have run (a loaded machine runs them late).
    func settled(_ pid: Int32) -> (rssKiB: Int, fds: Int) {
        pollFor(within: 30) {
            let first = usage(pid)
            usleep(200_000)
            let second = usage(pid)
            return first.fds == second.fds ? second : nil
        } ?? usage(pid)
    }

    /// The rows a column of the screen crosses: each row is a band of its own shade with a
    /// separator line after it, so the shade changes twice a row down to the list's end.
    func rowBands(_ server: XServer) throws -> Int {
        let column = try server.tool("convert", ["x:root", "-crop", "1x900+300+0", "txt:-"])
        let shades = column.split(separator: "\n").dropFirst().compactMap { $0.split(separator: "#").last.map { String($0.prefix(12)) } }
        return shades.indices.dropFirst().filter { shades[$0] != shades[$0 - 1] }.count / 2
    }

    @Test func aReloadIsShownWithoutATouch() throws {
        let server = try #require(try XServer())
        let kiosk = try ReloadableKiosk(on: server)
        let (app, dir) = (kiosk.app, kiosk.report)
        // Settled: the still screen is drawn and the loop sleeps.
        #expect(poll { let n = rowCounts(dir).count; Thread.sleep(forTimeInterval: 0.5); return rowCounts(dir).count == n })
        let before = try rowBands(server)
        try "content = \"\(kiosk.otherRows)\"\nflash = false\n".write(toFile: kiosk.config, atomically: false, encoding: .utf8)
        app.signal(SIGHUP)
        // No input at all: the reload wakes the loop and a frame shows the five rows.
        #expect(poll { rowCounts(dir).last == "5" }, "\(rowCounts(dir).suffix(3))")
        // On the screen too: a column of pixels down the window crosses two more rows.
        var after = before
        #expect(poll { after = (try? rowBands(server)) ?? -1; return after == before + 2 }, "\(before) → \(after)")
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 5) == 0)
        let log = app.stderr
        let reloads = log.split(separator: "\n").filter { $0.contains("reloaded") }
        #expect(reloads.count == 1 && reloads[0].contains("changed content, flash"), "\(log)")
    }

    @Test func aSettingThatNeedsARestartIsNamedAndKept() throws {
        let server = try #require(try XServer())
        let config = try CLI.write("rotate = 0\n", to: "kiosk.toml")
        let dir = CLI.temporaryPath("report")
        let app = try LiveApp(["--kiosk", "--no-sound", "--config", config, "--report", dir], on: server)
        #expect(poll { rowCounts(dir).count >= 1 })
        #expect(poll { let n = rowCounts(dir).count; Thread.sleep(forTimeInterval: 0.5); return rowCounts(dir).count == n })
        let before = try server.tool("convert", ["x:root", "-crop", "1x400+200+0", "txt:-"])
        let frames = rowCounts(dir).count
        // The scale (from the X screen's dpi at start) is what the window was made at, as its size.
        try "rotate = 90\nsize = \"600x600\"\nscale = 2\n".write(toFile: config, atomically: false, encoding: .utf8)
        app.signal(SIGHUP)
        Thread.sleep(forTimeInterval: 1)
        // Nothing applied: no frame drawn, the picture as it was (not turned).
        #expect(rowCounts(dir).count == frames)
        #expect(try server.tool("convert", ["x:root", "-crop", "1x400+200+0", "txt:-"]) == before)
        app.signal(SIGHUP)
        Thread.sleep(forTimeInterval: 0.5)
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 5) == 0)
        let lines = app.stderr.split(separator: "\n").filter { $0.contains("reload") }
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.allSatisfy { $0.hasSuffix("reloaded \(config): rotate, size, scale: need a restart; kept") }, "\(lines)")
    }

    @Test func aReloadMovesTheMetricsToTheNewFile() throws {
        let server = try #require(try XServer())
        let first = CLI.temporaryPath("a.prom"), second = CLI.temporaryPath("b.prom")
        let config = try CLI.write("metrics = \"\(first)\"\n", to: "kiosk.toml")
        let app = try LiveApp(["--kiosk", "--no-sound", "--config", config], on: server)
        #expect(poll { FileManager.default.fileExists(atPath: first) })
        try "metrics = \"\(second)\"\n".write(toFile: config, atomically: false, encoding: .utf8)
        app.signal(SIGHUP)
        #expect(poll { FileManager.default.fileExists(atPath: second) })
        // The old file is gone: node_exporter would go on serving it.
        #expect(poll { !FileManager.default.fileExists(atPath: first) })
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 5) == 0)
        #expect(try String(contentsOfFile: second, encoding: .utf8).contains("overscroll_frames_total "))
        #expect(!FileManager.default.fileExists(atPath: first))
    }

    @Test func aThousandReloadsCostNoMemoryNorDescriptorsAndCoalesce() throws {
        let server = try #require(try XServer())
        let rows = try CLI.write("alpha\nbeta\n", to: "a.txt")
        let config = try CLI.write("content = \"\(rows)\"\n", to: "kiosk.toml")
        let dir = CLI.temporaryPath("report")
        let app = try LiveApp(["--kiosk", "--no-sound", "--config", config, "--report", dir], on: server)
        let pid = app.process.processIdentifier
        #expect(poll { rowCounts(dir).count >= 1 })
        // A first round settles what a first reload allocates once.
        let firstSignal = Date()
        for _ in 0..<100 { app.signal(SIGHUP); usleep(500) }
        let before = settled(pid)
        for _ in 0..<1000 { app.signal(SIGHUP); usleep(500) }
        // A reload still running holds its file open: a leak is a count that never comes back.
        #expect(poll(within: 30) { usage(pid).fds == before.fds }, "\(before) → \(usage(pid))")
        let after = settled(pid)
        // A ThreadSanitizer build's RSS grows with the sanitizer's own history of accesses:
        // the bound is the product's (script/test's race run sets OVERSCROLL_TSAN).
        if ProcessInfo.processInfo.environment["OVERSCROLL_TSAN"] == nil {
            #expect(after.rssKiB - before.rssKiB < 1024, "\(before) → \(after)")
        }
        // Nothing changed, so nothing was drawn: the reloads drew no frame.
        let frames = rowCounts(dir).count
        Thread.sleep(forTimeInterval: 0.3)
        #expect(rowCounts(dir).count == frames)
        // Every signal was sent between these two instants, so every reload line is: a rate
        // over the whole span, which a slow machine can only make lower.
        let seconds = Date().timeIntervalSince(firstSignal)
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 30) == 0)
        // Signals that arrive while a reload runs, or within a second of the last one,
        // fold into one more: a line a second at most (and the one the first signal
        // started at once, and the last fold, which a loaded machine may start late), each
        // a reload done.
        let lines = app.stderr.split(separator: "\n").filter { $0.contains("reloaded") }
        #expect(lines.count >= 2 && Double(lines.count) <= seconds + 2, "\(lines.count) lines in \(seconds) s")
        #expect(lines.allSatisfy { $0.hasSuffix(": nothing changed") }, "\(lines.filter { !$0.hasSuffix(": nothing changed") }) \(lines.count)")
    }

    @Test func aSIGHUPRightAfterExecDoesNotKill() throws {
        let server = try #require(try XServer())
        let config = try CLI.write("flash = true\n", to: "kiosk.toml")
        let dir = CLI.temporaryPath("report")
        let app = try LiveApp(["--kiosk", "--no-sound", "--config", config, "--report", dir], on: server)
        usleep(5_000)
        app.signal(SIGHUP)
        #expect(poll { rowCounts(dir).count >= 1 })
        #expect(app.process.isRunning)
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 5) == 0)
    }

    @Test func aReloadOfAFIFOIsRefusedAndSIGTERMStillEndsTheRun() throws {
        let server = try #require(try XServer())
        let fifo = CLI.temporaryPath("rows.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let config = try CLI.write("flash = true\n", to: "kiosk.toml")
        let dir = CLI.temporaryPath("report")
        let app = try LiveApp(["--kiosk", "--no-sound", "--config", config, "--report", dir], on: server)
        #expect(poll { rowCounts(dir).count >= 1 })
        try "content = \"\(fifo)\"\n".write(toFile: config, atomically: false, encoding: .utf8)
        app.signal(SIGHUP)
        Thread.sleep(forTimeInterval: 0.3)
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 5) == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/summary.json"))
        #expect(app.stderr.contains("is a FIFO"))
    }

    @Test func theServiceManagerIsToldOfEachReloadAndOfARefusal() throws {
        let server = try #require(try XServer())
        let socketPath = CLI.temporaryPath("notify.sock")
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in socketPath.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        func next() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
        }
        let rows = try CLI.write("one\ntwo\n", to: "b.txt")
        let config = try CLI.write("flash = true\n", to: "kiosk.toml")
        let app = try LiveApp(["--kiosk", "--no-sound", "--config", config], on: server, environment: ["NOTIFY_SOCKET": socketPath])
        #expect(next()?.hasPrefix("READY=1") == true)
        try "content = \"\(rows)\"\n".write(toFile: config, atomically: false, encoding: .utf8)
        app.signal(SIGHUP)
        let reloading = next() ?? ""
        #expect(reloading.hasPrefix("RELOADING=1\nMONOTONIC_USEC="), "\(reloading)")
        #expect(UInt64(reloading.split(separator: "=").last ?? "").map { $0 > 0 } == true)
        let ready = next() ?? ""
        #expect(ready.hasPrefix("READY=1") && ready.contains("showing 2 rows"), "\(ready)")
        try "threshold = \"far\"\n".write(toFile: config, atomically: false, encoding: .utf8)
        app.signal(SIGHUP)
        #expect(next()?.hasPrefix("RELOADING=1") == true)
        let refused = next() ?? ""
        #expect(refused.hasPrefix("READY=1\nSTATUS=reload refused") && refused.contains("\(config):1:"), "\(refused)")
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 5) == 0)
    }
}
