/// `--refresh-every`: when the next timed refresh is due, counted from the end of the last
/// refresh (pulled or timed), on the model's clock so a replay honours it on its virtual
/// clock. The timer only says when one is due; the model decides whether one may start
/// now (never under a finger, never on top of a running refresh) and starts it through
/// the same `RefreshController` as a pull, so the work and its result take the same path.
public struct RefreshTimer: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// The model's clock has not started: the first tick anchors the timer.
        case unanchored
        /// The next refresh is due at this time.
        case waiting(due: Double)
        /// A refresh is running: nothing is due until it ends.
        case suspended
    }

    public enum Input: Sendable, Equatable {
        /// The model's clock reached `now`.
        case tick(now: Double)
        /// A refresh (pulled or timed) started.
        case refreshStarted
        /// A refresh (pulled or timed) ended at this time, with rows or an error.
        case refreshEnded(at: Double)
    }

    /// Seconds between the end of one refresh and the start of the next.
    public let interval: Double
    public private(set) var state: State = .unanchored

    public init(interval: Double) { self.interval = max(0, interval) }

    /// When the next refresh is due; nil while one runs.
    public var due: Double? {
        if case .waiting(let due) = state { return due }
        return nil
    }

    public mutating func handle(_ input: Input) {
        switch (state, input) {
        case (.unanchored, .tick(let now)):
            state = .waiting(due: now + interval)
        case (_, .refreshStarted):
            state = .suspended
        case (_, .refreshEnded(let time)):
            state = .waiting(due: time + interval)
        case (.waiting, .tick), (.suspended, .tick):
            break
        }
    }
}
