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
    /// What the system clock said real time 0 was when the model's wall clock was last set:
    /// a change of it is the system clock being stepped.
    private var realStartTold: Double?
    private var lastFrame: Double?
    /// Model time of the previous and the current frame: events land between them.
    private var previousFrameTime = -Double.infinity
    private var frameTime = -Double.infinity
    static let maxStep = 0.25
    /// The calendar's "now" (injected: a test steps it) and the zone it is told in.
    var wall = WallTime.system
    private var zone = LocalZone()

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

    /// The wall clock as the model sees it: what time of day model time 0 was, and the local
    /// time zone's offset now (`drifted` keeps both true).
    mutating func wallClock() -> WallClock {
        let real = wall.now()
        realStartTold = real - now()
        return WallClock(start: real - modelNow(), utcOffset: zone.offset(at: real, monotonic: now()))
    }

    /// `clock` with its start moved, when the time of day it gives for model time has moved
    /// off the system clock by more than `tolerance` seconds, and how much of that move is
    /// the system clock's own step; else nil. Two things move it: the system clock stepped
    /// (NTP setting a board that booted without a battery-backed clock, an operator's
    /// `date -s`), and stalls cut out of model time (a starved kiosk at 5 fps cuts a little
    /// from most frames). Two clock reads; the caller asks every frame, before the model
    /// steps, so the time a refresh ends is told on the clock as it is then.
    /// The zone's offset is looked at too (a DST change, a new zone): a new one is a new
    /// clock with no step.
    mutating func drifted(from clock: WallClock, tolerance: Double = 0.05) -> (clock: WallClock, step: Double)? {
        let real = wall.now()
        let offset = zone.offset(at: real, monotonic: now())
        let start = real - modelNow()
        guard abs(start - clock.start) > tolerance else {
            return offset == clock.utcOffset ? nil : (WallClock(start: clock.start, utcOffset: offset), 0)
        }
        let realStart = real - now()
        let step = realStartTold.map { realStart - $0 } ?? 0
        realStartTold = realStart
        return (WallClock(start: start, utcOffset: offset), step)
    }

    /// Model time now: real time less the stalls cut out so far.
    private func modelNow() -> Double { now() - skipped }

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
