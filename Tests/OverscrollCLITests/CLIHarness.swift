import Foundation

/// Runs the built `overscroll` executable, as a user would, and captures what it says.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum CLI {
    static let packageRoot: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// The executable next to the test bundle (same build configuration).
    static let executable: String = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("overscroll").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return packageRoot + "/.build/debug/overscroll"
    }()

    /// Runs the app (or `through` another program, e.g. /bin/sh with `arguments` as its
    /// own) in `directory` (the package root by default).
    static func run(_ arguments: [String], environment: [String: String] = [:], through program: String? = nil,
                    in directory: String? = nil) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program ?? executable)
        process.arguments = program == nil ? arguments : Array(arguments.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? packageRoot)
        var env = ProcessInfo.processInfo.environment
        env["SDL_AUDIODRIVER"] = "dummy"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes concurrently so a chatty child cannot block on a full pipe.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus,
                         stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
    }

    static func temporaryPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("overscroll-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    static func write(_ text: String, to name: String) throws -> String {
        let path = temporaryPath(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// A trace file, parsed: the header and one dictionary per frame.
struct Trace {
    var header: [String]
    var rows: [[String: String]]

    init(path: String) throws {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        self.header = header
        rows = lines.dropFirst().filter { !$0.isEmpty }.map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, cells))
        }
    }

    func double(_ row: Int, _ column: String) -> Double { Double(rows[row][column]!)! }
}
