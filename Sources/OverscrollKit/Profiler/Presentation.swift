/// A frame's trip to the screen that the presenter heard end: its number (the presenter's
/// `scanoutSequence` for the frame) and the vblank it was scanned out at, CLOCK_MONOTONIC
/// seconds (`MonotonicClock`'s clock).
public struct Presentation: Sendable, Equatable {
    public var sequence: Int
    public var time: Double

    public init(sequence: Int, time: Double) {
        self.sequence = sequence
        self.time = time
    }
}
