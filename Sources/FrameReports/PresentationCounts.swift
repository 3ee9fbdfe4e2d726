import OverscrollKit

/// summary.json's `presentation_feedback`: of the frames a Wayland compositor said it
/// presented (wp_presentation), how many carried each flag, and how many commits it said
/// it discarded (never shown). Null on every other path: DRM's flip event has no flags.
public struct PresentationCounts: Sendable, Codable, Equatable {
    public var presented = 0
    public var discarded = 0
    public var vsync = 0
    public var hwClock = 0
    public var hwCompletion = 0
    public var zeroCopy = 0

    public init() {}

    /// One presentation heard, with its flags, after `discardedBefore` discarded commits.
    public mutating func add(_ flags: PresentationFlags, discardedBefore: Int) {
        presented += 1
        discarded += discardedBefore
        if flags.contains(.vsync) { vsync += 1 }
        if flags.contains(.hwClock) { hwClock += 1 }
        if flags.contains(.hwCompletion) { hwCompletion += 1 }
        if flags.contains(.zeroCopy) { zeroCopy += 1 }
    }

    enum CodingKeys: String, CodingKey {
        case presented, discarded, vsync
        case hwClock = "hw_clock"
        case hwCompletion = "hw_completion"
        case zeroCopy = "zero_copy"
    }
}
