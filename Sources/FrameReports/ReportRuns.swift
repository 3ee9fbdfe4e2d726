import FoundationEssentials
import Glibc
import OverscrollKit

/// A report directory configured for a service (the config file's `report`): every run
/// writes into a subdirectory of its own, named by its start time, and only the newest
/// `keep` are kept — so a restart (after a crash, a display loss, an upgrade) never finds
/// its directory taken and never fails. `--report` on a command line is a person's one
/// run and keeps the refusal of a directory that is not empty.
public enum ReportRuns {
    /// Creates `directory` if needed and a new, empty subdirectory for this run in it;
    /// removes the oldest run subdirectories beyond `keep` (this one counted). Only
    /// subdirectories named as runs are ever removed, and only the files a report holds.
    public static func newRun(in directory: String, keep: Int, startTime: Double) throws(ReportWriterError) -> String {
        if let code = FileDescriptorIO.makeDirectories(directory) {
            throw ReportWriterError.cannotCreate(directory, code)
        }
        prune(directory, keeping: max(1, keep) - 1)
        let base = runName(startTime)
        for attempt in 1...100 {
            let name = attempt == 1 ? base : "\(base)-\(attempt)"
            let path = ReportWriter.path(directory, name)
            if mkdir(path, 0o755) == 0 { return path }
            let code = errno
            guard code == EEXIST else {
                throw ReportWriterError("cannot create the run's report directory in \(shown(directory)): \(FileErrors.posix(code))")
            }
        }
        throw ReportWriterError("cannot create the run's report directory in \(shown(directory)): 100 runs started in the same second")
    }

    /// `2026-11-25T15-04-05Z`: UTC, sorts by time, no colon (a path list separator).
    public static func runName(_ time: Double) -> String {
        var seconds = time_t(time.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))-\(two(parts.tm_min))-\(two(parts.tm_sec))Z"
    }

    /// Whether `name` is one `newRun` made.
    public static func isRunName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count >= 20 else { return false }
        let pattern = Array("dddd-dd-ddTdd-dd-ddZ".utf8)
        for (b, p) in zip(bytes, pattern) {
            if p == UInt8(ascii: "d") ? !(0x30...0x39).contains(b) : b != p { return false }
        }
        let rest = bytes.dropFirst(20)
        return rest.isEmpty || (rest.first == UInt8(ascii: "-") && rest.dropFirst().allSatisfy { (0x30...0x39).contains($0) } && rest.count > 1)
    }

    private static func prune(_ directory: String, keeping: Int) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return }
        // Names sort as times; a "-2" for the same second sorts after its first.
        let runs = names.filter(isRunName).sorted { order($0) < order($1) }
        for name in runs.dropLast(keeping) {
            let run = ReportWriter.path(directory, name)
            guard let files = try? fm.contentsOfDirectory(atPath: run) else { continue }
            // Only what a report writes (and its temporary files); anything else stays.
            for file in files where ReportWriter.runFiles.contains(file) || ReportWriter.runFiles.contains(where: { file == $0 + ".tmp" }) {
                unlink(ReportWriter.path(run, file))
            }
            rmdir(run)
        }
    }

    private static func order(_ name: String) -> (String, Int) {
        let base = String(name.prefix(20))
        return (base, Int(name.dropFirst(21)) ?? 1)
    }

    private static func shown(_ path: String) -> String { ReportWriterError.shown(path) }
}
