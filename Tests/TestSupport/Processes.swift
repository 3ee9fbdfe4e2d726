/// Looking for processes in the process table: what a test checks where it asks whether
/// something a program started is still alive.
import Foundation

/// A `sleep` argument no other process has.
public func uniqueSleep() -> String { "1003.\(UInt32.random(in: 100_000...999_999))" }

/// The pids of living processes (not zombies) with `argument` in their argv.
public func processes(withArgument argument: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { Int32($0) }.filter { pid in
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
              let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        guard state != "Z" && state != "X" else { return false }
        return data.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == argument }
    }
}
