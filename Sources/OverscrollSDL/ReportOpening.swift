import OverscrollKit

extension Display {
    /// Opens a frame-timing report for a run on this display, before its first frame, so
    /// a bad directory fails at start. `refreshPeriod` is the budget the run is judged by.
    func openReport(in directory: String?, programVersion: String, mode: String, refreshPeriod: Double,
                    vsync: Bool, fps: Int? = nil, script: String? = nil) throws(LaunchError) -> ReportWriter? {
        guard let directory else { return nil }
        let metadata = ReportMetadata(
            programVersion: programVersion, videoDriver: videoDriver, renderDriver: renderDriver,
            windowPoints: .init(width: Int(sizeInPoints.width), height: Int(sizeInPoints.height)),
            windowPixels: .init(width: sizeInPixels.width, height: sizeInPixels.height),
            refreshPeriodMs: refreshPeriod * 1000, vsync: vsync, startTime: ReportMetadata.timestamp(),
            mode: mode, fps: fps, script: script)
        do { return try ReportWriter(directory: directory, metadata: metadata) } catch {
            throw .output(error.description)
        }
    }
}
