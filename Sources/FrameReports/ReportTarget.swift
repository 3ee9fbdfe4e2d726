import Glibc

/// Where a run's report goes: a directory of its own (`--report DIR`, a person's one run),
/// or a numbered subdirectory of a service's folder (`report` in a config file; see
/// `ReportRuns`). The window, the replay and `check-config` all go through here, so the
/// check says what the run would.
public enum ReportTarget: Sendable, Equatable {
    case directory(String)
    case runs(in: String, keep: Int)

    /// The directory the setting names.
    public var folder: String {
        switch self {
        case .directory(let d), .runs(let d, _): d
        }
    }

    /// Makes the directory this run writes into: the one given, or a new numbered run in
    /// the folder (removing nothing: `settle` prunes once the run has a report to count).
    public func makeRunDirectory(startTime: Double) throws(ReportWriterError) -> String {
        switch self {
        case .directory(let d): return d
        case .runs(let folder, _): return try ReportRuns.newRun(in: folder, startTime: startTime)
        }
    }

    /// The report exists: prune the folder's older runs (a numbered run), counting this one.
    public func settle(_ report: ReportWriter) {
        guard case .runs(let folder, let keep) = self else { return }
        ReportRuns.prune(folder, keep: keep, current: report.directory)
    }

    /// The run never drew a frame: take back what it made, so a failing start leaves
    /// nothing behind (a numbered run's directory too).
    public func abandon(_ report: ReportWriter) {
        report.discard()
        if case .runs = self { ReportRuns.removeRun(report.directory) }
    }

    /// What the run would find, checked beforehand and leaving nothing behind but the
    /// folders the run would create too (`check-config`): the folder created as the caller
    /// would, a file made and written in it, the longest path the report writes within
    /// PATH_MAX. nil when the run could write its report.
    public func probe(now: Double) -> ReportWriterError? {
        let folder = self.folder
        if let code = FileDescriptorIO.makeDirectories(folder) { return ReportWriterError.cannotCreate(folder, code) }
        let runDirectory: String
        switch self {
        case .directory(let d): runDirectory = d
        case .runs(let folder, _): runDirectory = ReportWriter.path(folder, ReportRuns.runName(sequence: 999_999, time: now))
        }
        do { try ReportWriter.checkLength(runDirectory) } catch { return error }
        let probe = ReportWriter.path(folder, ".overscroll-check-\(getpid())")
        if let code = Self.writeProbe(probe) {
            return ReportWriterError("cannot write a file in the report directory \(ReportWriterError.shown(folder)): \(FileErrors.posix(code))")
        }
        return nil
    }

    /// Makes `path`, writes a page into it and syncs it (a full disk says so only then),
    /// and removes it. The OS's error code, or nil.
    public static func writeProbe(_ path: String) -> Int32? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return errno }
        defer { unlink(path) }
        var code = FileDescriptorIO.writeAll(fd, [UInt8](repeating: UInt8(ascii: "\n"), count: 4096))
        if code == nil, fsync(fd) != 0 { code = errno }
        if close(fd) != 0, code == nil { code = errno }
        return code
    }
}

extension ReportWriterError {
    /// The one line the window gives when its report cannot be made or written: the report
    /// is a diagnostic, and the screen comes up without it. `check-config` says the same.
    public var windowWarning: String { "warning: no frame-timing report this run: \(message); the window runs on without it" }
}
