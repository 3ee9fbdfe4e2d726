import FoundationEssentials
import FrameReports
import OverscrollKit

/// Opening a run's frame-timing report: first, before the display, so a bad directory
/// shows first; then, once the display is up, its drivers and sizes. A replay's report is
/// what it is run for: one that cannot be made is its error (73). A window's is a
/// diagnostic: one warning, and the screen comes up without it (issue 52).
enum ReportOpening {
    static func open(_ target: ReportTarget?, programVersion: String, mode: String,
                     fps: Int? = nil, script: String? = nil,
                     logLinesDropped: @escaping @Sendable () -> Int = { 0 }, wall: WallTime = .system) throws(LaunchError) -> ReportWriter? {
        guard let target else { return nil }
        let provisional = ReportMetadata(
            programVersion: programVersion, videoDriver: "unknown", renderDriver: "unknown",
            windowPoints: .init(width: 0, height: 0), windowPixels: .init(width: 0, height: 0),
            refreshPeriodMs: 0, vsync: false, startTime: ReportMetadata.timestamp(wall.now()), mode: mode, fps: fps, script: script)
        var directory: String?
        do {
            let made = try target.makeRunDirectory(startTime: wall.now())
            directory = made
            let report = try ReportWriter(directory: made, metadata: provisional, wall: wall)
            report.logLinesDropped = logLinesDropped
            return report
        } catch {
            // A numbered run that could not be written is taken back: it holds no report.
            if case .runs = target, let directory { ReportRuns.removeRun(directory) }
            throw .output(error.description)
        }
    }

    /// The window's report: as `open`, but one that cannot be made is a warning, once.
    static func openDiagnostic(_ target: ReportTarget?, programVersion: String,
                               logLinesDropped: @escaping @Sendable () -> Int, wall: WallTime, warn: (String) -> Void) -> ReportWriter? {
        do {
            return try open(target, programVersion: programVersion, mode: "live", logLinesDropped: logLinesDropped, wall: wall)
        } catch {
            warn(ReportWriterError(error.description).windowWarning)
            return nil
        }
    }
}

extension Display {
    /// Fills in what only the open display knows; `refreshPeriod` is the run's budget.
    func describe(in report: ReportWriter?, refreshPeriod: Double, vsync: Bool) {
        guard let report else { return }
        report.metadata.videoDriver = videoDriver
        report.metadata.renderDriver = renderDriver
        report.metadata.renderPath = presenting.path.rawValue
        report.metadata.renderPathReason = presenting.reason
        report.metadata.presenter = presenting.name
        report.metadata.windowPoints = .init(width: Int(sizeInPoints.width), height: Int(sizeInPoints.height))
        report.metadata.windowPixels = .init(width: sizeInPixels.width, height: sizeInPixels.height)
        report.metadata.refreshPeriodMs = refreshPeriod * 1000
        report.metadata.vsync = vsync
    }
}
