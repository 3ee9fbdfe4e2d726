/// The scroll indicator (iOS's and Flutter's thin bar at the right edge): when it shows,
/// and where. Two small parts: `ScrollBarFade` says how opaque it is over time, and
/// `ScrollBarGeometry` where it sits for an offset. Neither touches the motion.

/// How opaque the bar is: it fades in while the content moves and fades out a moment
/// after it comes to rest. Closed form in time (a level and the time it was taken), so
/// the opacity at a frame does not depend on how often it was looked at in between.
public struct ScrollBarFade: Sendable, Equatable {
    public struct Timing: Sendable, Equatable {
        /// From hidden to fully shown: short, so the bar is there within a frame of the
        /// content moving, but does not pop.
        public var fadeIn = 0.1
        /// How long the bar stays after the content came to rest (iOS: about half a second).
        public var hold = 0.5
        /// From shown to hidden once the hold is over.
        public var fadeOut = 0.3

        public init() {}
    }

    public var timing = Timing()
    /// The fade-in ramp passes through 0 at this time (the level rises from there).
    private var risingFrom = -Double.infinity
    /// The last time the content was seen moving.
    private var lastActive = -Double.infinity
    /// Where the content was at the last look, and when.
    private var lastOffset = 0.0
    private var lastLook = 0.0

    public init() {}

    /// Look at the content at `time`: it is active when it moved since the last look, or is
    /// held by a finger while the bar shows (a finger resting on a moving list keeps it).
    public mutating func observe(offset: Double, held: Bool, at time: Double) {
        guard time.isFinite, time >= lastLook else { return }
        let moved = offset != lastOffset
        if moved || (held && opacity(at: time) > 0) {
            if lastActive < lastLook {
                // It started moving some time after the last look: rise from the level it
                // had then, so a bar that was fading comes back without a jump, and one
                // that was hidden is already partly in at this frame.
                risingFrom = lastLook - opacity(at: lastLook) * timing.fadeIn
            }
            lastActive = time
        }
        lastOffset = offset
        lastLook = time
    }

    /// The content changed without moving on screen (rows inserted above, the list
    /// replaced): take the new offset as the resting one.
    public mutating func rebase(offset: Double) { lastOffset = offset }

    /// 0…1 at `time` (not before the last look).
    public func opacity(at time: Double) -> Double {
        guard lastActive > -.infinity else { return 0 }
        let rising = (time - risingFrom) / timing.fadeIn
        let falling = 1 - (time - lastActive - timing.hold) / timing.fadeOut
        return min(1, max(0, min(rising, falling)))
    }

    /// Whether the bar has faded out for good by `time` (nothing left to animate).
    public func isHidden(at time: Double) -> Bool { opacity(at: time) == 0 }
}

/// Where the bar is, in points, for a viewport over content (UIKit offsets: 0 at the top,
/// positive into the content, negative pulled past the top).
public struct ScrollBarGeometry: Sendable, Equatable {
    /// Bar width, and the gap to the right edge and to the top and bottom.
    public var thickness = 3.0
    public var margin = 3.0
    /// Shortest bar in the track (a long list still gets something to see)...
    public var minLength = 36.0
    /// ...and while overscrolled it may shrink further, down to this.
    public var minShrunkLength = 6.0

    public init() {}

    /// The bar's rectangle, or nil when the content fits (there is nothing to scroll).
    public func frame(offset: Double, viewportWidth: Double, viewportHeight: Double,
                      contentHeight: Double) -> (x: Double, y: Double, width: Double, height: Double)? {
        guard contentHeight > viewportHeight, viewportHeight > 2 * margin else { return nil }
        let track = viewportHeight - 2 * margin
        let maxOffset = contentHeight - viewportHeight
        let natural = min(track, max(minLength, track * viewportHeight / contentHeight))
        // Past an edge the bar shrinks by as much as the content is pulled past it (as
        // UIScrollView's does), pinned to that end of the track, instead of leaving it.
        let over = offset < 0 ? -offset : max(0, offset - maxOffset)
        let length = max(min(natural, minShrunkLength), natural - over)
        let fraction = min(1, max(0, offset / maxOffset))
        let y = margin + fraction * (track - length)
        return (viewportWidth - margin - thickness, y, thickness, length)
    }
}
