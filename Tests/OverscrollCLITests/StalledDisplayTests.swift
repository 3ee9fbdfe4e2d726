import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 41 item 12: a display server that accepts the connection and never answers.
@Suite struct StalledDisplayTests {
    /// A unix socket that accepts every connection and never writes: an X server or a
    /// Wayland compositor stuck before its first reply. `accepted` counts connections.
    final class SilentServer {
        let process = Process()
        private let output = Pipe()
        private var said = ""

        init(at path: String) throws {
            unlink(path)
            process.executableURL = URL(fileURLWithPath: try #require(Python.tomllib ?? Tools.find("python3")))
            process.arguments = ["-c", """
                import socket, sys
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.bind(sys.argv[1]); s.listen(16)
                print('listening', flush=True)
                held = []
                while True:
                    c, _ = s.accept(); held.append(c); print('accepted', flush=True)
                """, path]
            process.standardOutput = output
            try process.run()
            #expect(poll { self.lines.contains("listening") })
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        /// What the server has said so far.
        var lines: String {
            let fd = output.fileHandleForReading.fileDescriptor
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                said += String(decoding: buffer[..<n], as: UTF8.self)
            }
            return said
        }
    }

    /// Issue 41 item 12: SIGTERM was ignored while the window opened on such a server (alive after
    /// 5 s, no summary.json). Now it ends the process (the watch's grace is 0.5 s: the
    /// deadline polled here is generous) with status 0 and the report whole.
    @Test(arguments: ["x11", "wayland"])
    func sigtermWhileTheWindowOpensOnASilentServerEndsItWithItsReport(server kind: String) throws {
        let number = 90 + Int.random(in: 0..<9_000)
        let runtime = "/tmp/o41-xdg-\(number)"
        var environment = ["SDL_VIDEODRIVER": "", "DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_RUNTIME_DIR": runtime]
        let socket: String
        if kind == "x11" {
            try FileManager.default.createDirectory(atPath: "/tmp/.X11-unix", withIntermediateDirectories: true)
            socket = "/tmp/.X11-unix/X\(number)"
            environment["DISPLAY"] = ":\(number)"
        } else {
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
            socket = runtime + "/wayland-o41"
            environment["WAYLAND_DISPLAY"] = "wayland-o41"
        }
        let server = try SilentServer(at: socket)
        defer { unlink(socket) }
        let report = CLI.temporaryPath("report")
        let app = Process()
        app.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Unset rather than empty: SDL reads an empty DISPLAY as a display to try.
        app.arguments = environment.filter { $0.value.isEmpty }.flatMap { ["-u", $0.key] }
            + environment.filter { !$0.value.isEmpty }.map { "\($0.key)=\($0.value)" }
            + ["SDL_AUDIODRIVER=dummy", CLI.executable, "--no-sound", "--report", report]
        app.currentDirectoryURL = URL(fileURLWithPath: CLI.packageRoot)
        let errors = Pipe()
        app.standardError = errors
        try app.run()
        defer { if app.isRunning { kill(app.processIdentifier, SIGKILL) } }
        // The program is waiting on the server's answer.
        #expect(poll(within: 30) { server.lines.contains("accepted") }, "the program never connected")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(app.isRunning)
        kill(app.processIdentifier, SIGTERM)
        #expect(poll(within: 10) { !app.isRunning }, "SIGTERM did not end a window opening on a silent \(kind) server")
        guard !app.isRunning else { return }
        #expect(app.terminationStatus == 0)
        for file in ["frames.csv", "summary.json", "trace.json", "frames.svg"] {
            #expect(FileManager.default.fileExists(atPath: report + "/" + file), "\(file) missing")
        }
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("SIGTERM while the window was opening: the display did not answer within 500 ms; report written to"), "\(said)")
    }
}
