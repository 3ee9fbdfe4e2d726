import Foundation
import OverscrollKit
import OverscrollSDL
import RowSources

/// What every mode shares: failing with a status, figures, and the package's assets,
/// found from the executable (so the bench runs from any directory).
enum Bench {
    static func fail(_ message: String, code: Int32 = 64) -> Never {
        FileHandle.standardError.write(Data("overscroll-bench: \(message)\n".utf8))
        exit(code)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    static func format(_ value: Double, _ decimals: Int = 3) -> String { String(format: "%.\(decimals)f", value) }

    /// `Assets/<relative>`: $OVERSCROLL_ASSETS, next to the executable as built
    /// (.build/<config>/) or installed (share/overscroll), else the working directory.
    static func asset(_ relative: String) -> String {
        var dirs: [String] = []
        if let dir = ProcessInfo.processInfo.environment["OVERSCROLL_ASSETS"] { dirs.append(dir) }
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for up in ["../../Assets", "../../../Assets", "../share/overscroll"] {
            dirs.append(exe.appendingPathComponent(up).standardized.path)
        }
        dirs.append(FileManager.default.currentDirectoryPath + "/Assets")
        for dir in dirs where FileManager.default.fileExists(atPath: dir + "/" + relative) { return dir + "/" + relative }
        return dirs.last! + "/" + relative
    }

    static func rows() -> [String] {
        SampleRows.rows
    }

    /// The rows of a plain content file (one per line, UTF-8; the kiosk's own loader, BOM
    /// and CR included, is the program's business), or the built-in sample.
    static func rows(file: String?) -> [String] {
        guard let file else { return rows() }
        guard let data = FileManager.default.contents(atPath: file) else { fail("\(file): cannot read the content file", code: 66) }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast(data.last == UInt8(ascii: "\n") ? 1 : 0).map(String.init)
    }

    static func settings(rows: [String] = rows()) -> AppSettings {
        let font: String
        do { font = try FontLocator.locate(explicit: nil) } catch { fail(error.description, code: 66) }
        var s = AppSettings(rows: rows, fontPath: font)
        s.sound = false
        return s
    }

    /// A script given on the command line (relative to the working directory), or one of
    /// the package's by name.
    static func script(_ path: String?, default name: String) -> (path: String, script: GestureScript) {
        let path = path ?? asset("gestures/\(name)")
        guard let data = FileManager.default.contents(atPath: path) else { fail("\(path): cannot read the script", code: 66) }
        do { return (path, try GestureScript(parsing: Array(data))) } catch {
            fail("\(path):\(error.line):\(error.column): \(error.message)", code: 65)
        }
    }

    static func runner(script: GestureScript, size: SizeOption, rows: [String] = rows(), repeats: Int = 1, window: Bool = false,
                       checkpoint: ((Int) -> Void)? = nil, beforeFrame: (() -> Void)? = nil) -> ReplayRunner {
        var options = ReplayRunner.Options(script: script)
        options.window = window
        options.checkpoint = checkpoint
        options.beforeFrame = beforeFrame
        options.checkpointInterval = checkpoint == nil ? 0 : 100_000
        options.width = size.width
        options.height = size.height
        options.repeatCount = repeats
        do { return try ReplayRunner(settings: settings(rows: rows), options: options, warn: { _ in }) } catch {
            fail(error.description, code: 69)
        }
    }

    /// Resident set size in KiB, from /proc.
    static func rssKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
}
