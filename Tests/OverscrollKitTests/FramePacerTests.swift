import Testing
import TestSupport
@testable import OverscrollKit

/// The live loop's deadlines (`FramePacer`), driven by a simulated loop: a frame starts
/// when the pacer says, works, waits for `presentNotBefore`, and its present takes a while.
@Suite struct FramePacerTests {
    static let period = 1.0 / 60

    /// One simulated frame: returns its present time (the end of the present call).
    /// `vblank`: present blocks until the next multiple of the period (vsync), and the
    /// loop does not sleep to the frame's start. `unsynced`: presented once drawn
    /// (`presentNotBeforeUnsynced`), not held to the deadline.
    static func frame(_ pacer: inout FramePacer, now: inout Double, work: Double, present: Double,
                      vblank: Bool = false, unsynced: Bool = false) -> Double {
        if !vblank, let start = pacer.nextStart { now = max(now, start) }
        now += work
        now = max(now, unsynced ? pacer.presentNotBeforeUnsynced : pacer.presentNotBefore)
        now += present
        if vblank { now = (now / period).rounded(.up) * period + 0.0002 }
        pacer.presented(at: now, work: work, vsyncBlocks: vblank)
        return now
    }

    @Test func framesOnTimePresentOnePeriodApart() {
        var pacer = FramePacer(period: Self.period), now = 10.0
        var presents: [Double] = []
        for _ in 0..<120 { presents.append(Self.frame(&pacer, now: &now, work: 0.004, present: 0.0005)) }
        let intervals = zip(presents.dropFirst(), presents).map { $0 - $1 }
        // After the first few frames (the work estimate settles), every interval is the period.
        for interval in intervals.dropFirst(3) { #expect(abs(interval - Self.period) < 1e-9) }
    }

    /// Presented once drawn (SDL's window surface on X11), frames started on the grid are
    /// still a period apart, each presented before its deadline: no wait for it.
    @Test func framesPresentedOnceDrawnStayOnePeriodApart() {
        var pacer = FramePacer(period: Self.period), now = 10.0
        var presents: [Double] = []
        for _ in 0..<120 {
            let deadline = pacer.deadline
            let presented = Self.frame(&pacer, now: &now, work: 0.004, present: 0.0005, unsynced: true)
            if let deadline { #expect(presented < deadline) }
            presents.append(presented)
        }
        let intervals = zip(presents.dropFirst(), presents).map { $0 - $1 }
        for interval in intervals.dropFirst(3) { #expect(abs(interval - Self.period) < 1e-9) }
    }

    /// A late frame is one long interval, and the frame after it is a whole period later,
    /// not at once (no catch-up burst).
    @Test func aLateFrameIsOneLongIntervalNotABurst() {
        var pacer = FramePacer(period: Self.period), now = 10.0
        var presents: [Double] = []
        for k in 0..<40 {
            let work = k == 20 ? 0.040 : 0.004
            presents.append(Self.frame(&pacer, now: &now, work: work, present: 0.0005))
        }
        let intervals = zip(presents.dropFirst(), presents).map { $0 - $1 }
        let long = intervals.enumerated().filter { $0.element > 1.5 * Self.period }
        #expect(long.count == 1, "\(intervals)")
        let late = try! #require(long.first).offset
        #expect(intervals[late] > 2 * Self.period)
        // The next frames: a period apart each, none sooner.
        for interval in intervals[(late + 1)...] { #expect(interval >= Self.period - 1e-9, "\(intervals)") }
        #expect(FrameVerdict.missedVsyncs(interval: intervals[late], refreshPeriod: Self.period) >= 2)
    }

    /// Whatever the work and the present cost (a starved X server takes tens of ms to take
    /// a frame), no two presents are less than three quarters of a period apart.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func noTwoPresentsWithinThreeQuartersOfAPeriod(seed: UInt64) {
        var rng = ProfilerTestRandom(seed: seed)
        var pacer = FramePacer(period: Self.period), now = 10.0
        var last: Double?
        for k in 0..<3000 {
            let work = Double.random(in: 0...0.03, using: &rng) * (Bool.random(using: &rng) ? 1 : 0.1)
            let present = Double.random(in: 0...0.02, using: &rng) * (Int.random(in: 0..<10, using: &rng) == 0 ? 3 : 0.05)
            if k % 500 == 499 {
                // The loop slept on input: no grid, but a period after the last present at least.
                now += Double.random(in: 0...0.05, using: &rng)
                pacer.woke()
            }
            let presented = Self.frame(&pacer, now: &now, work: work, present: present, vblank: seed == 3 || seed == 4, unsynced: seed > 4)
            if let last { #expect(presented - last >= Self.period * 0.75 - 1e-9, "frame \(k)") }
            last = presented
        }
    }

    /// Present blocks until a vblank: every frame makes the next one (a deadline just
    /// after a vblank would hold each frame back a whole refresh, halving the rate).
    @Test func onAVsyncedDisplayEveryRefreshGetsAFrame() {
        var pacer = FramePacer(period: Self.period), now = 10.003
        var presents: [Double] = []
        for _ in 0..<120 { presents.append(Self.frame(&pacer, now: &now, work: 0.004, present: 0.0003, vblank: true)) }
        let intervals = zip(presents.dropFirst(), presents).map { $0 - $1 }
        for interval in intervals { #expect(abs(interval - Self.period) < 1e-6, "\(intervals)") }
    }

    @Test func theLeadFollowsTheSlowestRecentWorkAndStaysUnderAPeriod() {
        var pacer = FramePacer(period: Self.period)
        pacer.presented(at: 1, work: 0.002)
        let small = pacer.lead
        pacer.presented(at: 1 + Self.period, work: 0.008)
        #expect(pacer.lead > small)
        #expect(pacer.lead >= 0.008)
        pacer.presented(at: 1 + 2 * Self.period, work: 0.2)
        #expect(pacer.lead <= 0.75 * Self.period)
    }
}
