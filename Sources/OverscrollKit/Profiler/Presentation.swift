/// A frame's trip to the screen that the presenter heard end: its number (the presenter's
/// `scanoutSequence` for the frame) and the vblank it was scanned out at, CLOCK_MONOTONIC
/// seconds (`MonotonicClock`'s clock).
public struct Presentation: Sendable, Equatable {
    public var sequence: Int
    public var time: Double
    /// What the compositor said of how it knows (`PresentationFlags`, Wayland's
    /// wp_presentation); nil where the path has no such word (DRM's flip event).
    public var flags: PresentationFlags?
    /// Commits the compositor said it discarded (never shown) since the presentation
    /// heard before this one.
    public var discardedBefore: Int

    public init(sequence: Int, time: Double, flags: PresentationFlags? = nil, discardedBefore: Int = 0) {
        self.sequence = sequence
        self.time = time
        self.flags = flags
        self.discardedBefore = discardedBefore
    }
}
