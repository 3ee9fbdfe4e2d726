import CSDL
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// Model time for the live program: seconds on SDL's performance counter, in the same
/// epoch as SDL's millisecond event timestamps, so each event is placed at its own time
/// rather than the frame's. A stall (suspend, debugger, a starved kiosk) is cut out of
/// model time, as in "Fix Your Timestep": a frame never advances the model by more than
/// `maxStep`, so motion resumes where it was instead of jumping to its end.
struct LiveClock {
    private let frequency = Double(SDL_GetPerformanceFrequency())
    private let counterAtStart = SDL_GetPerformanceCounter()
    private let ticksAtStart = Double(SDL_GetTicks64()) / 1000
    /// Real time cut out of model time so far.
    private var skipped = 0.0
    private var lastFrame: Double?
    /// Model time of the previous and the current frame: events land between them.
    private var previousFrameTime = -Double.infinity
    private var frameTime = -Double.infinity
    static let maxStep = 0.25

    /// Real seconds in SDL's epoch.
    func now() -> Double {
        ticksAtStart + Double(SDL_GetPerformanceCounter() &- counterAtStart) / frequency
    }

    /// Model time for a new frame, with any stall since the last frame cut out.
    mutating func frame() -> Double {
        let real = now()
        if let last = lastFrame, real - last > Self.maxStep { skipped += real - last - Self.maxStep }
        lastFrame = real
        previousFrameTime = frameTime
        frameTime = real - skipped
        return frameTime
    }

    /// The wall clock as the model sees it: what time of day model time 0 was, read once
    /// now, in the local time zone. A stall cut out of model time later (a suspend)
    /// makes "Updated HH:MM" early by that stall.
    func wallClock() -> WallClock {
        var real = timespec()
        clock_gettime(CLOCK_REALTIME, &real)
        var seconds = real.tv_sec
        var local = tm()
        localtime_r(&seconds, &local)
        let wall = Double(real.tv_sec) + Double(real.tv_nsec) / 1e9
        return WallClock(start: wall - now(), utcOffset: Double(local.tm_gmtoff))
    }

    /// Whether the system clock was stepped since `clock` was read (by NTP, most often: a
    /// board without a battery-backed clock boots behind): the same clock with the new
    /// start, or nil. Two clock reads, no time-zone lookup (no file is read in a frame);
    /// a drift under `tolerance` seconds is left to NTP's slewing.
    func stepped(from clock: WallClock, tolerance: Double = 2) -> WallClock? {
        var real = timespec()
        clock_gettime(CLOCK_REALTIME, &real)
        let start = Double(real.tv_sec) + Double(real.tv_nsec) / 1e9 - now()
        guard abs(start - clock.start) > tolerance else { return nil }
        return WallClock(start: start, utcOffset: clock.utcOffset)
    }

    /// When model time `t` comes on the real clock (for sleeping until a timer is due).
    func realTime(ofModel t: Double) -> Double { t + skipped }

    /// After sleeping on input while nothing moved, the gap is not a stall.
    mutating func resume() { lastFrame = nil }

    /// The event's own time on the real clock, from SDL's millisecond timestamp. That
    /// stamp is 32 bits and wraps after 49.7 days (a kiosk gets there): unwrap it against
    /// the 64-bit tick count.
    func stamp(of event: SDL_Event) -> Double {
        let ticks = SDL_GetTicks64()
        let age = UInt32(truncatingIfNeeded: ticks) &- event.common.timestamp
        return min(Double(ticks &- UInt64(age)) / 1000, now())
    }

    /// A real-clock stamp as model time, kept within the current frame's span so a stall
    /// cut out of model time cannot push an event past the frame that handles it.
    func modelTime(ofStamp stamp: Double) -> Double {
        min(max(stamp - skipped, previousFrameTime), frameTime)
    }
}
