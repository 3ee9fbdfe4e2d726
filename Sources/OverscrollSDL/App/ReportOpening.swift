import FrameReports
import OverscrollKit

/// Opening a run's frame-timing report: first, before the display, so a bad directory
/// fails before a window opens; then, once the display is up, its drivers and sizes.
enum ReportOpening {
    static func open(in directory: String?, programVersion: String, mode: String,
                     fps: Int? = nil, script: String? = nil,
                     logLinesDropped: @escaping @Sendable () -> Int = { 0 }) throws(LaunchError) -> ReportWriter? {
        guard let directory else { return nil }
        let provisional = ReportMetadata(
            programVersion: programVersion, videoDriver: "unknown", renderDriver: "unknown",
            windowPoints: .init(width: 0, height: 0), windowPixels: .init(width: 0, height: 0),
            refreshPeriodMs: 0, vsync: false, startTime: ReportMetadata.timestamp(), mode: mode, fps: fps, script: script)
        do {
            let report = try ReportWriter(directory: directory, metadata: provisional)
            report.logLinesDropped = logLinesDropped
            return report
        } catch {
            throw .output(error.description)
        }
    }
}

extension Display {
    /// Fills in what only the open display knows; `refreshPeriod` is the run's budget.
    func describe(in report: ReportWriter?, refreshPeriod: Double, vsync: Bool) {
        guard let report else { return }
        report.metadata.videoDriver = videoDriver
        report.metadata.renderDriver = renderDriver
        report.metadata.renderPath = path.rawValue
        report.metadata.renderPathReason = pathReason
        report.metadata.presenter = presenterName
        report.metadata.windowPoints = .init(width: Int(sizeInPoints.width), height: Int(sizeInPoints.height))
        report.metadata.windowPixels = .init(width: sizeInPixels.width, height: sizeInPixels.height)
        report.metadata.refreshPeriodMs = refreshPeriod * 1000
        report.metadata.vsync = vsync
    }
}
