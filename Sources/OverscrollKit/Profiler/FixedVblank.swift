/// A display that scans out at every multiple of `period` after `phase`, the stand-in for
/// a presenter's flip events where there is no screen (tests, `overscroll-bench latency`):
/// a frame committed at `t` is shown at the first vblank after `t`, as a page flip is.
public struct FixedVblank: Sendable, Equatable {
    public let period: Double
    public let phase: Double

    public init(period: Double, phase: Double = 0) {
        precondition(period > 0 && period.isFinite, "a vblank period must be a positive number of seconds")
        self.period = period
        self.phase = phase
    }

    /// The first vblank strictly after `t`: a flip queued on a vblank waits for the next.
    public func next(after t: Double) -> Double {
        let n = ((t - phase) / period).rounded(.down) + 1
        return phase + n * period
    }
}
