/// `--idle-reset`: a kiosk nobody touches goes back to how a passer-by should find it.
/// After `delay` with no touch the list glides back to the top with the normal physics and
/// any banner is cleared. Counted on the model's clock, from the last touch, so a replay
/// honours it on its virtual clock; it never fires under a finger.
public struct IdleReset: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Nothing to do: no touch since the last reset (or since the start).
        case done
        /// Touched last at this time; the reset comes `delay` later.
        case pending(lastTouch: Double)
    }

    public enum Input: Sendable, Equatable {
        /// A touch (or, where admitted, the mouse or wheel) at this time.
        case touched(at: Double)
        /// The reset was carried out.
        case reset
    }

    public let delay: Double
    public private(set) var state: State = .done

    public init(delay: Double) { self.delay = max(0, delay) }

    /// When the reset is due; nil when there is none to come.
    public var due: Double? {
        if case .pending(let lastTouch) = state { return lastTouch + delay }
        return nil
    }

    public mutating func handle(_ input: Input) {
        switch input {
        case .touched(let time):
            state = .pending(lastTouch: time)
        case .reset:
            state = .done
        }
    }
}
