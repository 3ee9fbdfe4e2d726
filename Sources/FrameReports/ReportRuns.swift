import FoundationEssentials
import Glibc
import OverscrollKit

/// A report directory configured for a service (the config file's `report`): every run
/// writes into a subdirectory of its own and only the newest `keep` are kept — so a
/// restart (after a crash, a display loss, an upgrade) never finds its directory taken
/// and never fails. `--report` on a command line is a person's one run and keeps the
/// refusal of a directory that is not empty.
///
/// A run's name is its place in the order runs started, then the time the clock said:
/// `000042-2026-11-25T15-04-05Z`. Runs are pruned by that number, never by the time: a
/// kiosk without a battery-backed clock boots years behind and steps forward when NTP
/// answers, and pruning by a name that a wrong clock wrote would delete the run before
/// this one (its "future" name sorts last). Names an earlier version wrote (the time
/// alone) count as older than every numbered run, in the order of their names.
public enum ReportRuns {
    /// Creates `directory` if needed and a new, empty subdirectory for this run in it, then
    /// prunes (`prune`) with this run counted: for a run that writes its report at once (a
    /// replay). The window creates its run with `newRun(in:startTime:)` and prunes once its
    /// first frame is shown, so a start that fails removes nothing.
    public static func newRun(in directory: String, keep: Int, startTime: Double) throws(ReportWriterError) -> String {
        let run = try newRun(in: directory, startTime: startTime)
        prune(directory, keep: keep, current: run)
        return run
    }

    /// Creates `directory` if needed and a new, empty subdirectory for this run in it,
    /// numbered after every run there. Removes nothing.
    public static func newRun(in directory: String, startTime: Double) throws(ReportWriterError) -> String {
        if let code = FileDescriptorIO.makeDirectories(directory) {
            throw ReportWriterError.cannotCreate(directory, code)
        }
        var sequence = (existingRuns(in: directory).compactMap(\.sequence).max() ?? 0) + 1
        // Another start racing this one for the same number: take the next.
        for _ in 1...100 {
            let path = ReportWriter.path(directory, runName(sequence: sequence, time: startTime))
            if mkdir(path, 0o755) == 0 { return path }
            let code = errno
            guard code == EEXIST else {
                throw ReportWriterError("cannot create the run's report directory in \(shown(directory)): \(FileErrors.posix(code))")
            }
            sequence += 1
        }
        throw ReportWriterError("cannot create the run's report directory in \(shown(directory)): 100 runs started at once")
    }

    /// Keeps the newest `keep` runs that hold a report (any file a report writes; `current`,
    /// the run being written, is one), by the order they started, and removes the report
    /// files of older ones and their directories. A run directory that holds nothing (a
    /// start an earlier version left before its first frame) is not a report: it counts
    /// for nothing and is removed when it is older than `current`.
    public static func prune(_ directory: String, keep: Int, current: String? = nil) {
        let currentName = current.map { String($0.split(separator: "/").last ?? "") }
        let runs = existingRuns(in: directory)
        let currentRun = currentName.flatMap(run(named:))
        let fm = FileManager.default
        var reports: [Run] = []
        for run in runs {
            let path = ReportWriter.path(directory, run.name)
            let holdsReport = run.name == currentName || ((try? fm.contentsOfDirectory(atPath: path)) ?? []).contains(where: isReportFile)
            if holdsReport {
                reports.append(run)
            } else if let currentRun, run < currentRun {
                rmdir(path)    // only ever removes an empty directory
            }
        }
        for run in reports.dropLast(max(1, keep)) where run.name != currentName {
            removeRun(ReportWriter.path(directory, run.name))
        }
    }

    /// Removes a run's report files (and their temporary files) and then its directory,
    /// if that leaves it empty: anything else in it stays, and so does the directory.
    public static func removeRun(_ path: String) {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for file in files where isReportFile(file) { unlink(ReportWriter.path(path, file)) }
        rmdir(path)
    }

    /// A file a report writes, or its temporary file.
    static func isReportFile(_ file: String) -> Bool {
        ReportWriter.runFiles.contains(file) || ReportWriter.runFiles.contains(where: { file == $0 + ".tmp" })
    }

    /// `000042-2026-11-25T15-04-05Z`: the run's number (six digits or more), then the
    /// time in UTC as the clock said at start, with no colon (a path list separator).
    public static func runName(sequence: Int, time: Double) -> String {
        let number = String(sequence)
        return String(repeating: "0", count: max(0, 6 - number.count)) + number + "-" + timeName(time)
    }

    /// `2026-11-25T15-04-05Z`: UTC, no colon.
    static func timeName(_ time: Double) -> String {
        var seconds = time_t(time.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))-\(two(parts.tm_min))-\(two(parts.tm_sec))Z"
    }

    /// A run subdirectory and where it stands in the order runs started.
    struct Run: Comparable {
        var name: String
        /// The start number; nil for a name an earlier version wrote (the time alone, and
        /// `-2` for a second run in the same second), which sorts before every number.
        var sequence: Int?

        static func < (a: Run, b: Run) -> Bool {
            switch (a.sequence, b.sequence) {
            case let (x?, y?): return x < y
            case (nil, _?): return true
            case (_?, nil): return false
            case (nil, nil): return legacyOrder(a.name) < legacyOrder(b.name)
            }
        }

        private static func legacyOrder(_ name: String) -> (String, Int) {
            (String(name.prefix(20)), Int(name.dropFirst(21)) ?? 1)
        }
    }

    /// What `name` is as a run: a numbered one `newRun` makes, or one an earlier version
    /// made; nil for anything else (never removed).
    static func run(named name: String) -> Run? {
        let bytes = Array(name.utf8)
        let digits = bytes.prefix { (0x30...0x39).contains($0) }.count
        if digits >= 6, bytes.count > digits, bytes[digits] == UInt8(ascii: "-"),
           isTimeName(bytes[(digits + 1)...], allowingSuffix: false), let number = Int(String(decoding: bytes.prefix(digits), as: UTF8.self)) {
            return Run(name: name, sequence: number)
        }
        return isTimeName(bytes[...], allowingSuffix: true) ? Run(name: name, sequence: nil) : nil
    }

    /// Whether `name` is one `newRun` (of this version or an earlier one) made.
    public static func isRunName(_ name: String) -> Bool { run(named: name) != nil }

    private static func isTimeName(_ bytes: ArraySlice<UInt8>, allowingSuffix: Bool) -> Bool {
        guard bytes.count >= 20 else { return false }
        let pattern = Array("dddd-dd-ddTdd-dd-ddZ".utf8)
        for (b, p) in zip(bytes, pattern) {
            if p == UInt8(ascii: "d") ? !(0x30...0x39).contains(b) : b != p { return false }
        }
        let rest = bytes.dropFirst(20)
        if rest.isEmpty { return true }
        return allowingSuffix && rest.first == UInt8(ascii: "-") && rest.count > 1 && rest.dropFirst().allSatisfy { (0x30...0x39).contains($0) }
    }

    private static func existingRuns(in directory: String) -> [Run] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.compactMap(run(named:)).sorted()
    }

    private static func shown(_ path: String) -> String { ReportWriterError.shown(path) }
}
