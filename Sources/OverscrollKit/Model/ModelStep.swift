/// Refresh work that finished: its generation, its result, and when it happened on the
/// model's clock (nil: real work, which finished while the last frame was shown).
public struct RefreshCompletion: Sendable, Equatable {
    public var generation: Int
    public var result: RefreshResult
    public var time: Double?

    public init(generation: Int, result: RefreshResult, time: Double?) {
        self.generation = generation
        self.result = result
        self.time = time
    }
}

/// What one frame of the model asks of the world, as one value: the events (a sound, a
/// flash, a tap), refresh work to start, and how a refresh that ended went (for the log
/// and the metrics). The app, the trace, the metrics and the tests read it from here.
public struct FrameEffects: Sendable, Equatable {
    public var events: FrameEvents = []
    /// Refresh work to start now; its result comes back as a completion.
    public var refreshRequest: OverscrollModel.RefreshRequest?
    /// How the refresh that ended this frame went; nil when none ended.
    public var refreshEnded: RefreshReport?

    public init() {}
}

extension OverscrollModel {
    /// The model half of a frame, the one place it is written: finished refresh work
    /// (`completions`, in the order it was posted) joins the frame's `inputs` in time order
    /// — ahead of an input at the same instant; work with no time of its own at the start of
    /// the frame's span, `now` — the model moves to `time`, and what it asks of the world
    /// comes back. Every loop that runs the model (the app, replay, the tests, the fuzzer,
    /// the bench) goes through here, so they all see the same model.
    public mutating func frame(_ inputs: inout [TimedInput], completions: [RefreshCompletion], to time: Double) -> FrameEffects {
        for completion in completions {
            let at = completion.time ?? now
            let input = TimedInput(time: at, event: .refreshCompleted(generation: completion.generation, result: completion.result))
            inputs.insert(input, at: inputs.firstIndex { $0.time >= at } ?? inputs.endIndex)
        }
        step(inputs, to: time)
        var effects = FrameEffects()
        effects.events = events
        effects.refreshRequest = refreshRequest
        if events.contains(.refreshEnd) || events.contains(.refreshError) { effects.refreshEnded = lastRefresh }
        return effects
    }

    /// One frame of model time: this frame's inputs at their own times, then `time`.
    /// Takes an array, not any Sequence: a generic called across modules is not
    /// specialized, and its boxed iterator allocated on every frame.
    public mutating func step(_ inputs: [TimedInput], to time: Double) {
        beginFrame()
        for index in inputs.indices { handle(inputs[index]) }
        advance(to: time)
    }
}
