/// What Wayland's presentation-time protocol (`wp_presentation`) says of a frame: the
/// compositor answers each commit's feedback request once, either "presented" (when the
/// frame's first pixel left for the screen, in the clock it named with `clock_id`; the
/// output's refresh; flags) or "discarded" (a newer commit replaced it before it was shown).
/// Only the conversion lives here; `WlShmChain` hears the answers. No SDL, no Wayland.
public struct PresentationFeedback: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case presented(seconds: UInt64, nanoseconds: UInt32, refreshNs: UInt32, flags: PresentationFlags)
        case discarded
    }

    /// The commit's number, as the chain gave it (`Presentation.sequence`).
    public var sequence: Int
    public var outcome: Outcome

    public init(sequence: Int, outcome: Outcome) {
        self.sequence = sequence
        self.outcome = outcome
    }

    /// The frame's presentation on CLOCK_MONOTONIC seconds (the clock the program's input
    /// times are on); nil for a frame never shown, or when the compositor's clock is
    /// another (the times cannot be put beside the input's: never guessed).
    public func presentation(clock: PresentationClock) -> Presentation? {
        guard clock.isMonotonic, case let .presented(seconds, nanoseconds, _, flags) = outcome else { return nil }
        return Presentation(sequence: sequence, time: Double(seconds) + Double(nanoseconds) / 1e9, flags: flags)
    }
}

/// The clock a compositor stamps presentations with (`wp_presentation.clock_id`, a
/// Linux `clockid_t`). Only CLOCK_MONOTONIC is taken: it is the one input times are on
/// (libinput's, `MonotonicClock`). Another (CLOCK_REALTIME steps with NTP;
/// CLOCK_MONOTONIC_RAW and CLOCK_BOOTTIME drift or jump from it) would need a sampled
/// offset, an estimate: its presentations stay not known.
public struct PresentationClock: Sendable, Equatable {
    /// The compositor's clock id; nil where it offers no wp_presentation.
    public var id: Int32?

    public init(id: Int32?) { self.id = id }

    public static let monotonicID: Int32 = 1

    public var isMonotonic: Bool { id == Self.monotonicID }

    /// summary.json's scanout_clock for the Wayland path.
    public var description: String {
        guard let id else { return "not known: the compositor offers no wp_presentation" }
        if isMonotonic { return "wp_presentation feedback: the time the compositor says the frame was presented (CLOCK_MONOTONIC)" }
        return "not known: the compositor's wp_presentation clock is \(Self.name(id)), not CLOCK_MONOTONIC"
    }

    static func name(_ id: Int32) -> String {
        switch id {
        case 0: "CLOCK_REALTIME"
        case 4: "CLOCK_MONOTONIC_RAW"
        case 7: "CLOCK_BOOTTIME"
        default: "clock \(id)"
        }
    }
}

/// `wp_presentation_feedback.kind`: how the compositor knows the time it gave.
public struct PresentationFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Presented in step with the display's refresh (no tearing).
    public static let vsync = PresentationFlags(rawValue: 1)
    /// The time is the display hardware's clock (a vblank stamp), not a reading the
    /// compositor took.
    public static let hwClock = PresentationFlags(rawValue: 2)
    /// The hardware said the presentation happened (a flip event), not a guess.
    public static let hwCompletion = PresentationFlags(rawValue: 4)
    /// The client's buffer itself was scanned out, not a copy the compositor made.
    public static let zeroCopy = PresentationFlags(rawValue: 8)

    /// The four, in the protocol's order, with summary.json's names.
    public static let named: [(PresentationFlags, String)] = [
        (.vsync, "vsync"), (.hwClock, "hw_clock"), (.hwCompletion, "hw_completion"), (.zeroCopy, "zero_copy"),
    ]
}
