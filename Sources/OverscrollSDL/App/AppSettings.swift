import OverscrollKit
import RowSources

/// Everything that changes how the app behaves, shared by the live program and replay
/// so a replay is the live program on a virtual clock. Built by one builder, for start-up
/// and for every reload alike; what a reload keeps is carried over by `Session.apply`.
public struct AppSettings: Sendable {
    public var rows: [String]
    public var fontPath: String
    /// nil: resolution-aware default.
    public var threshold: Double?
    public var refreshTimeout: Double = 10
    /// The work behind a refresh.
    public var refreshSource: any RefreshSource = DemoRefreshSource()
    /// The command behind `refreshSource`, when it runs one: a reload that names the same
    /// command keeps the running source (and a refresh it is running) instead of a new one.
    public var refreshCommand: [String]?
    /// `metrics`: where the fleet's figures are written (the window every few seconds and
    /// at exit, a replay at its end); nil for none.
    public var metricsPath: String?
    /// True when the refresh is real work on the wall clock (a command), which replay must
    /// wait for in real time; false for work simulated on the model's clock.
    public var refreshIsRealTime = false
    public var refreshMerge = OverscrollModel.RefreshMerge.insertAtTop
    public var flash = true
    public var sound = true
    public var rotation = ScreenRotation.none
    /// Accept mouse input (a kiosk may take touch only).
    public var acceptMouse = true
    /// Accept keys (a kiosk does not unless asked).
    public var acceptKeys = true
    /// Show the status line under the refresh arc.
    public var statusText = true
    /// What time of day model time 0 is: the fixed `WallClock.replay` unless the live
    /// program sets the real one.
    public var wallClock = WallClock.replay
    /// Refresh on a timer, this long after the last refresh ended.
    public var refreshEvery: Double?
    /// Glide back to the top after this long with no touch.
    public var idleReset: Double?

    public init(rows: [String], fontPath: String) {
        self.rows = rows
        self.fontPath = fontPath
    }

    /// The model these settings describe.
    public func makeModel(width: Double, height: Double) -> OverscrollModel {
        OverscrollModel(configuration: modelConfiguration(width: width, height: height), rows: rows)
    }

    /// The model's configuration these settings describe (a reload applies it in place).
    public func modelConfiguration(width: Double, height: Double) -> OverscrollModel.Configuration {
        var c = OverscrollModel.Configuration(viewportWidth: width, viewportHeight: height, threshold: threshold)
        c.refreshTimeout = refreshTimeout
        c.refreshMerge = refreshMerge
        c.acceptsMouse = acceptMouse
        c.acceptsKeys = acceptKeys
        c.showsStatusText = statusText
        c.flashes = flash
        c.wallClock = wallClock
        c.refreshEvery = refreshEvery
        c.idleReset = idleReset
        return c
    }
}
