/// Pull-to-refresh as one state machine:
///
///     idle → pulling(progress) → armed → refreshing → finishing → idle
///
/// Every transition happens in `handle(_:)`. The controller knows nothing of pointers or
/// SDL: it is told how far the content is pulled, whether a finger drives it, when the
/// gesture ends, and when the work ends; it answers with effects for the model to apply.
public struct RefreshController: Sendable {
    public enum State: Sendable, Equatable {
        case idle
        case pulling(progress: Double)
        case armed
        case refreshing(generation: Int, since: Double)
        case finishing(Outcome, since: Double)

        public var name: String {
            switch self {
            case .idle: "idle"
            case .pulling: "pulling"
            case .armed: "armed"
            case .refreshing: "refreshing"
            case .finishing: "finishing"
            }
        }
    }

    public enum Outcome: Sendable, Equatable {
        case success(rows: Int)
        case failure(String)
    }

    public enum Input: Sendable, Equatable {
        /// A finger or the mouse took hold of the content, which was pulled `pull` points
        /// past the top (a bounce caught mid-flight can already be past the threshold).
        case dragBegan(pull: Double)
        /// The content is pulled `pull` points past the top by a finger or the mouse.
        case drag(pull: Double)
        /// The last pointer lifted at this time.
        case release(at: Double)
        /// The refresh work ended at this time.
        case completed(RefreshResult, at: Double)
        /// A refresh asked for without a pull (F5, Ctrl+R): as if pulled and released armed.
        case requested(at: Double)
        /// Time passed; `collapsed` says whether the list is back at rest.
        case tick(now: Double, collapsed: Bool)
        /// A timed refresh (`--refresh-every`) is due at this time: it starts only when
        /// nothing else is going on, exactly as a released pull would.
        case timer(at: Double)
    }

    public enum Effect: Sendable, Equatable {
        /// Flash and tick: the threshold was crossed upward during a drag.
        case feedback
        /// Start the work and hold the list open.
        case startRefresh(generation: Int)
        /// The work succeeded: insert these rows, let the list collapse.
        case insertRows([String])
        /// The work failed or timed out: show this, let the list collapse.
        case showError(String)
    }

    public struct Configuration: Sendable, Equatable {
        /// Visible pull (points, after the rubber band) that arms the refresh.
        public var threshold: Double
        /// Pull below which no indicator shows.
        public var minimumPull: Double
        /// Falling back below `threshold · (1 − hysteresis)` disarms.
        public var hysteresis: Double
        /// How far the list rests open while refreshing.
        public var indicatorExtent: Double

        /// The list rests this far open while refreshing: the header it uncovers holds, top
        /// to bottom, 8 pt clear, the spinner's 44 pt disc, 8 pt, the 20 pt status line and
        /// 8 pt before the first row (`Scene.header`). It was 64 pt, where the disc touched
        /// the window's top and the text the rows. The one change to motion issue #31 made:
        /// only the resting height while refreshing (and the collapse from it) moved.
        public static let restingExtent = 88.0
        /// The work is abandoned after this long.
        public var timeout: Double
        /// How long the indicator takes to scale out once the work ends.
        public var finishDuration: Double

        public init(threshold: Double, minimumPull: Double = 12, hysteresis: Double = 0.15,
                    indicatorExtent: Double = restingExtent, timeout: Double = 10, finishDuration: Double = 0.25) {
            self.threshold = threshold
            self.minimumPull = min(minimumPull, threshold * 0.5)
            self.hysteresis = hysteresis
            // Not capped at the threshold: a low threshold (a landscape window's 72 pt) would
            // squeeze the header again; released there, the list opens the rest of the way.
            self.indicatorExtent = indicatorExtent
            self.timeout = timeout
            self.finishDuration = finishDuration
        }

        /// The resolution-aware default: 15 % of the viewport, within 64…140 pt, so it
        /// is reachable in landscape and not accidental on a tall screen.
        public static func defaultThreshold(viewportHeight: Double) -> Double {
            min(max(0.15 * viewportHeight, 64), 140)
        }
    }

    public private(set) var state: State = .idle
    public var configuration: Configuration
    private var nextGeneration = 1
    /// Whether this drag has been below the threshold: only a crossing from below arms,
    /// so catching a fling's bounce past the line never gives feedback or a refresh.
    private var belowThresholdThisDrag = true

    public init(configuration: Configuration) { self.configuration = configuration }

    /// Pull progress 0…1 for display and the trace.
    public func progress(pull: Double) -> Double {
        switch state {
        case .idle, .pulling, .armed: min(1, max(0, pull / configuration.threshold))
        case .refreshing: 1
        case .finishing: 0
        }
    }

    public var isRefreshing: Bool {
        if case .refreshing = state { return true }
        return false
    }

    /// Where the list should rest open: the indicator's extent while the work runs.
    public var restingInset: Double { isRefreshing ? configuration.indicatorExtent : 0 }

    /// Apply one input; returns what the model must do. Unlisted pairs change nothing:
    /// that is how a pull during a refresh, a release while idle, or a second completion
    /// are ignored.
    public mutating func handle(_ input: Input) -> Effect? {
        let c = configuration
        switch (state, input) {
        case (_, .dragBegan(let pull)):
            belowThresholdThisDrag = pull < c.threshold
            return nil
        case (.idle, .drag(let pull)), (.pulling, .drag(let pull)):
            if pull < c.threshold { belowThresholdThisDrag = true }
            if pull >= c.threshold && belowThresholdThisDrag {
                state = .armed
                return .feedback
            }
            state = pull >= c.minimumPull ? .pulling(progress: pull / c.threshold) : .idle
            return nil
        case (.armed, .drag(let pull)):
            if pull < c.threshold * (1 - c.hysteresis) {
                state = pull >= c.minimumPull ? .pulling(progress: pull / c.threshold) : .idle
            }
            return nil
        case (.armed, .release(let time)), (.idle, .requested(let time)), (.idle, .timer(let time)):
            let generation = nextGeneration
            nextGeneration += 1
            state = .refreshing(generation: generation, since: time)
            return .startRefresh(generation: generation)
        case (.pulling, .release):
            state = .idle
            return nil
        case (.refreshing, .completed(let result, let time)):
            return finish(result, at: time)
        case (.refreshing(_, let since), .tick(let now, _)):
            // The watchdog: work that has not ended by the deadline has failed. Compared as
            // `since + timeout`, the very expression `deadline` is built from, so a tick at
            // the deadline always fires (`now - since` can round just below the timeout).
            if now >= since + c.timeout {
                return finish(.failure(Self.timeoutMessage(c.timeout)), at: since + c.timeout)
            }
            return nil
        case (.finishing(_, let since), .tick(let now, let collapsed)):
            if collapsed && now - since >= c.finishDuration { state = .idle }
            return nil
        case (.idle, _), (.pulling, _), (.armed, _), (.refreshing, _), (.finishing, _):
            return nil
        }
    }

    /// The generation of the running refresh, if any.
    public var runningGeneration: Int? {
        if case .refreshing(let generation, _) = state { return generation }
        return nil
    }

    /// When the running refresh times out.
    public var deadline: Double? {
        if case .refreshing(_, let since) = state { return since + configuration.timeout }
        return nil
    }

    private mutating func finish(_ result: RefreshResult, at time: Double) -> Effect {
        switch result {
        case .success(let rows):
            state = .finishing(.success(rows: rows.count), since: time)
            return .insertRows(rows)
        case .failure(let message):
            state = .finishing(.failure(message), since: time)
            return .showError(message)
        }
    }

    static func timeoutMessage(_ timeout: Double) -> String {
        "Refresh timed out after \(DurationFormat.describe(timeout))"
    }
}
