import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A private X server (Xvfb) for tests that need the real window, and helpers to drive it
/// with xdotool. Each test gets its own display number, so they can run in parallel.
final class XServer {
    let display: String
    private let process: Process

    /// nil when Xvfb is not installed (the test then records an issue instead of passing).
    /// `dpi`: the screen's size in millimetres follows from it (Xvfb -dpi). `tcp`: it
    /// listens on TCP too, where a client reaching it that way takes it for a remote one.
    init?(width: Int = 800, height: Int = 900, dpi: Int? = nil, tcp: Bool = false) throws {
        guard let xvfb = Tools.find("Xvfb") else { return nil }
        let pipe = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: xvfb)
        // -displayfd: Xvfb picks a free display and writes its number to the pipe.
        process.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", tcp ? "-listen" : "-nolisten", "tcp"]
            + (dpi.map { ["-dpi", "\($0)"] } ?? [])
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var number = ""
        let handle = pipe.fileHandleForReading
        while !number.hasSuffix("\n") {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty { break }
            number += String(decoding: byte, as: UTF8.self)
        }
        display = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit { stop() }

    /// Kills the server (SIGKILL: a test runner's worker thread may hand its children a
    /// blocked SIGTERM), as a crash would; safe to call again.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Sends the server a signal (SIGSTOP: a frozen server; SIGCONT to thaw it).
    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Runs a tool (xdotool, xwininfo) against this display and returns its output.
    @discardableResult
    func tool(_ name: String, _ arguments: [String]) throws -> String {
        guard let path = Tools.find(name) else { throw ToolMissing(name: name) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.environment = ["DISPLAY": display, "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits for a window titled `name` and returns its id.
    // 90 s, not 30: a bound on a failure only. Under ThreadSanitizer, with a dozen such
    // apps starting at once on 2 loaded cores, a window once took over 30 s to map.
    func window(named name: String, timeout: Double = 90) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            // Only once it is mapped: SDL names the window before it shows it, and input
            // sent to a window not yet viewable goes to the root (a drag then moved nothing).
            let ids = try tool("xdotool", ["search", "--onlyvisible", "--name", "^\(name)$"]).split(separator: "\n")
            if let id = ids.first { return String(id) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    /// The size of the window titled `name`, looked up afresh (SDL may replace its first
    /// window while going fullscreen), retried for up to `timeout`.
    func size(ofWindowNamed name: String, timeout: Double = 3) throws -> (width: Int, height: Int) {
        let deadline = Date().addingTimeInterval(timeout)
        var size = (width: -1, height: -1)
        while Date() < deadline {
            if let window = try window(named: name, timeout: 1) {
                size = try geometry(of: window)
                if size.width > 0 { return size }
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return size
    }

    /// Window geometry (x, y, width, height) from xwininfo.
    func geometry(of window: String) throws -> (width: Int, height: Int) {
        let info = try tool("xwininfo", ["-id", window])
        func value(_ key: String) -> Int {
            let line = info.split(separator: "\n").first { $0.contains(key) } ?? ""
            return Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1
        }
        return (value("Width:"), value("Height:"))
    }
}

struct ToolMissing: Error { var name: String }

enum Tools {
    static func find(_ name: String) -> String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        return nil
    }
}

/// The app running live on an X server.
final class LiveApp {
    let process = Process()
    private let stderrPipe = Pipe()

    /// `through`: run another program (a shell) with `arguments` as its argv, as CLI.run does.
    init(_ arguments: [String], on server: XServer, environment: [String: String] = [:], through program: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: program ?? CLI.executable)
        process.arguments = program == nil ? arguments : Array(arguments.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: CLI.packageRoot)
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = server.display
        env["SDL_AUDIODRIVER"] = "dummy"
        env["SDL_VIDEODRIVER"] = "x11"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderrPipe
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Waits for the process to end; nil if it is still running after `timeout`.
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return process.isRunning ? nil : process.terminationStatus
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// CPU seconds (user + system) the process has used, from /proc.
    var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return -1 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Fields after the command: state is [0], utime [11], stime [12] (in clock ticks).
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (Double(fields[11])! + Double(fields[12])!) / ticks
    }

    /// How many times the process's threads have gone to sleep and been woken (voluntary
    /// context switches, every thread, from /proc).
    var wakeUps: Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/task")) ?? []
        return tasks.reduce(0) { sum, task in
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/task/\(task)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            return sum + (line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0)
        }
    }

    /// What the app wrote to stderr since the last look: every byte waiting in the pipe
    /// (`availableData` alone returns one read's worth, 8 KiB at most), without waiting.
    var stderr: String {
        let fd = stderrPipe.fileHandleForReading.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The `rows` column of every frame that frames.csv in `report` holds so far.
func rowCounts(_ report: String) -> [Substring] {
    let text = (try? String(contentsOfFile: report + "/frames.csv", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").dropFirst().compactMap {
        let fields = $0.split(separator: ",", omittingEmptySubsequences: false)
        return fields.count > 6 ? fields[6] : nil
    }
}

/// A kiosk showing three rows from its config file, with a report, once its first frame
/// is in the report: where the reload tests start. `otherRows` holds five rows for a
/// reload to switch to.
struct ReloadableKiosk {
    let app: LiveApp
    let config: String
    let otherRows: String
    let report: String

    init(on server: XServer) throws {
        let rows = try CLI.write("alpha\nbeta\ngamma\n", to: "a.txt")
        otherRows = try CLI.write("one\ntwo\nthree\nfour\nfive\n", to: "b.txt")
        config = try CLI.write("content = \"\(rows)\"\n", to: "kiosk.toml")
        report = CLI.temporaryPath("report")
        app = try LiveApp(["--kiosk", "--no-sound", "--config", config, "--report", report], on: server)
        let report = report
        #expect(poll(within: 30) { !rowCounts(report).isEmpty }, "the kiosk drew no frame")
    }
}
