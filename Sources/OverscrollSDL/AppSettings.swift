import OverscrollKit

/// Everything that changes how the app behaves, shared by the live program and replay
/// so a replay is the live program on a virtual clock.
public struct AppSettings: Sendable {
    public var rows: [String]
    public var fontPath: String
    /// nil: resolution-aware default.
    public var threshold: Double?
    public var refreshDuration: Double = 1.5
    public var refreshTimeout: Double = 10
    public var flash = true
    public var sound = true

    public init(rows: [String], fontPath: String) {
        self.rows = rows
        self.fontPath = fontPath
    }

    func modelConfiguration(width: Double, height: Double) -> OverscrollModel.Configuration {
        var c = OverscrollModel.Configuration(viewportWidth: width, viewportHeight: height, threshold: threshold)
        c.refreshTimeout = refreshTimeout
        return c
    }

    func makeModel(width: Double, height: Double, inbox: RefreshInbox) -> OverscrollModel {
        OverscrollModel(configuration: modelConfiguration(width: width, height: height), rows: rows,
                        source: DemoRefreshSource(duration: refreshDuration), inbox: inbox)
    }
}
