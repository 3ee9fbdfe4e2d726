/// Every word the list shows, in one place, ready for translation: a translation is
/// another value of this type. `{time}` stands for the wall-clock time, `HH:MM`.
public struct ListStrings: Sendable, Equatable {
    public var pullToRefresh = "Pull to refresh · updated {time}"
    public var releaseToRefresh = "Release to refresh"
    public var refreshing = "Refreshing…"
    /// The banner after a failed refresh: what happened, that the rows shown are kept and
    /// how old they are, and what to do. The reason (a command's exit status, a timeout) is
    /// for the operator: it goes to the log, not to the screen.
    public var refreshFailed = "Couldn't refresh — showing rows from {time}. Pull to try again."

    public init() {}

    public static let english = ListStrings()
}

/// The wall clock, injected: the model's own clock starts at 0, and this says what time
/// of day that was. Live, it is read at start and kept true to the system clock every frame
/// (a kiosk without a battery-backed clock boots behind and is set by NTP later; a starved
/// one cuts stalls out of model time: `OverscrollModel.wallClockChanged`); a replay uses
/// `replay`, a fixed
/// instant, so its status text (and trace) is the same on every run and machine.
public struct WallClock: Sendable, Equatable {
    /// Seconds since 1970-01-01 UTC at model time 0.
    public var start: Double
    /// The local time zone's offset from UTC, in seconds (east positive).
    public var utcOffset: Double

    public init(start: Double, utcOffset: Double) {
        self.start = start
        self.utcOffset = utcOffset
    }

    /// 2026-01-01 12:00:00 UTC, shown as UTC: replays say "updated 12:00".
    public static let replay = WallClock(start: 1_767_268_800, utcOffset: 0)

    /// The local minute (since 1970) of `seconds` since 1970 UTC.
    public static func minute(of seconds: Double, utcOffset: Double) -> Int {
        Int(((seconds + utcOffset) / 60).rounded(.down))
    }

    /// Local `HH:MM` at `modelTime`. Plain arithmetic on the offset: no time-zone database
    /// in the model; the live program keeps the offset the one in force (`LiveClock`).
    public func clockTime(at modelTime: Double) -> String {
        Self.clockTime(ofWall: start + modelTime, utcOffset: utcOffset)
    }

    /// Local `HH:MM` of `seconds` since 1970 UTC.
    public static func clockTime(ofWall seconds: Double, utcOffset: Double) -> String {
        let minuteOfDay = ((minute(of: seconds, utcOffset: utcOffset) % 1440) + 1440) % 1440
        let h = minuteOfDay / 60, m = minuteOfDay % 60
        return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
    }
}

/// The short line under the refresh arc, following the refresh state, and how fresh the
/// rows are. Freshness is shown as a time of day ("updated 12:04"), not an age ("3 min
/// ago"): a still screen is not redrawn (the loop sleeps on input), so an age would go
/// stale on screen, while a time stays true; it also needs no redraw each minute and is
/// the same in every replay. Until a refresh succeeds, the rows are as fresh as the launch.
public struct RefreshStatus: Sendable {
    public let strings: ListStrings
    public private(set) var clock: WallClock
    /// When the last successful refresh was (the launch until there is one), in seconds
    /// since 1970 as the clock told it then: later corrections of the clock for stalls cut
    /// out of model time do not move it; a step of the system clock does (see `set`).
    public private(set) var updatedWall: Double
    /// The zone's offset when the rows came: their time is told as it was then (a refresh
    /// at 00:30 UTC in Berlin was 01:30, also after the clocks go forward at 01:00).
    public private(set) var updatedOffset: Double
    /// The lines with the time filled in, made when it changes, so drawing a frame
    /// copies a string and formats nothing.
    public private(set) var pullLine: String
    public private(set) var failedLine: String

    public init(strings: ListStrings = .english, clock: WallClock = .replay, launchedAt: Double = 0) {
        self.strings = strings
        self.clock = clock
        updatedWall = clock.start + launchedAt
        updatedOffset = clock.utcOffset
        pullLine = ""
        failedLine = ""
        fill()
    }

    /// A refresh brought rows at model time `time`.
    public mutating func refreshed(at time: Double) {
        updatedWall = clock.start + time
        updatedOffset = clock.utcOffset
        fill()
    }

    /// The clock now says model time 0 was `new.start`. `step` is how much of that change is
    /// the system clock itself being stepped (NTP setting a board that booted behind, an
    /// operator's `date -s`): the last update, told on the old clock, moves with it. The
    /// rest is model time's own (stalls cut out of it) and moves nothing already told.
    public mutating func set(clock new: WallClock, step: Double) {
        let minute = WallClock.minute(of: updatedWall, utcOffset: updatedOffset)
        clock = new
        updatedWall += step
        // A step moves the time told to the clock as it is now, and so to the offset now
        // (a board that booted in January 1970 and was set in July).
        if step != 0 { updatedOffset = new.utcOffset }
        // Only a new HH:MM makes new lines: small corrections come every few frames on a
        // slow kiosk, and a frame makes no strings.
        if WallClock.minute(of: updatedWall, utcOffset: updatedOffset) != minute { fill() }
    }

    /// The line for the refresh state, or nil when there is none: nothing while the list
    /// collapses after a refresh (a failure shows the banner; freshness shows on the next pull).
    public func line(for state: RefreshController.State) -> String? {
        switch state {
        case .idle, .pulling: pullLine
        case .armed: strings.releaseToRefresh
        case .refreshing: strings.refreshing
        case .finishing: nil
        }
    }

    private mutating func fill() {
        let time = WallClock.clockTime(ofWall: updatedWall, utcOffset: updatedOffset)
        pullLine = strings.pullToRefresh.replacing("{time}", with: time)
        failedLine = strings.refreshFailed.replacing("{time}", with: time)
    }
}
