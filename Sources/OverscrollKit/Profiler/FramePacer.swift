/// When the live loop starts a frame and when it may present it. Frames are presented on
/// a grid of refresh deadlines, at most one a deadline:
///
/// - a frame starts `lead` before its deadline (the work it is likely to take, learnt
///   from the frames before) and, if it is done early, waits for its deadline to present;
/// - a frame presented within `slack` after its deadline is on time: the next deadline is
///   a period later;
/// - a frame that misses its deadline is presented when it is done, and the grid moves
///   to it: the next deadline is a period after that present, never the missed deadline
///   plus one (that would present the next frame at once, a burst of catch-up frames that
///   a display paced by vsync never shows). A late frame is one long interval.
///
/// So no two presents are less than `period − slack` apart. A display that blocks in
/// present until vsync (`vsyncBlocks`) paces the loop itself; there the grid is anchored a
/// `slack` earlier than the present that returned at a vblank, so that a deadline falls
/// before the next vblank, never just after it (which would hold every frame back a
/// whole refresh). Pure: the caller reads the clock and sleeps.
public struct FramePacer: Sendable {
    public let period: Double
    /// When the next frame is to be presented; nil before the first frame and after the
    /// loop slept on input.
    public private(set) var deadline: Double?
    /// When the last frame was presented; nil before the first frame.
    public private(set) var lastPresent: Double?
    /// The work of a frame (start to render done), rising at once to a slow frame and
    /// falling slowly, so a frame that is as slow as the recent worst still makes it.
    public private(set) var workEstimate = 0.0

    public init(period: Double) {
        self.period = period
    }

    /// How late a present may be and still count as on its deadline (the present call
    /// itself, the sleep's overshoot): a quarter period.
    public var slack: Double { period / 4 }

    /// How long before its deadline a frame starts: the work it is likely to take and a
    /// margin, at most three quarters of a period.
    public var lead: Double {
        min(period * 0.75, workEstimate * 1.25 + 0.0015)
    }

    /// When the next frame should start; nil: at once (no deadline).
    public var nextStart: Double? {
        deadline.map { $0 - lead }
    }

    /// The earliest time this frame may be presented (it waits when it is ready earlier).
    /// After the loop slept there is no grid to keep, but no two presents are ever less
    /// than a period apart.
    public var presentNotBefore: Double {
        if let deadline { return deadline }
        return lastPresent.map { $0 + period } ?? -.infinity
    }

    /// `presentNotBefore` for a display that shows a present at once and meets no refresh
    /// (SDL's window surface on X11): a frame, its start paced to the grid (`nextStart`),
    /// is presented as soon as it is drawn, not held to its deadline (a second sleep a
    /// frame), and no two presents are less than `period − slack` apart.
    public var presentNotBeforeUnsynced: Double {
        lastPresent.map { $0 + period - slack } ?? -.infinity
    }

    /// The loop slept on input: the grid is gone. The next frame presents as soon as it
    /// is drawn, and a period after the last present at the soonest.
    public mutating func woke() {
        deadline = nil
    }

    /// A frame was presented at `time` after `work` seconds of work (start to render
    /// done): the deadline moves on by a period, or, when the frame was late, to a period
    /// after it (less `slack` when the present blocked until a vblank).
    public mutating func presented(at time: Double, work: Double, vsyncBlocks: Bool = false) {
        if work.isFinite, work >= 0 {
            workEstimate = work > workEstimate ? work : workEstimate + (work - workEstimate) * 0.05
        }
        lastPresent = time
        if let deadline, time <= deadline + slack {
            self.deadline = deadline + period
        } else {
            self.deadline = time + period - (vsyncBlocks ? slack : 0)
        }
    }
}
