/// The replay's virtual clock and script feed, without any drawing: frame n is at exactly
/// n/fps seconds, and each frame receives the script's inputs due by then (carrying their
/// own timestamps). Runs at different frame rates share the timestamps k/gcd, where the
/// model's state is the same whatever the rate.
public struct ReplayDriver: Sendable {
    public let fps: Int
    public private(set) var frame = 0
    private var player: ScriptPlayer
    /// Stop this long after the script's end even if something never settles.
    public let settleLimit: Double
    /// Playthroughs left after the current one (a soak plays the script many times).
    public private(set) var repeatsLeft: Int

    public init(script: GestureScript, fps: Int, settleLimit: Double = 60, repeats: Int = 1) {
        precondition(fps > 0, "fps must be positive")
        self.fps = fps
        self.player = ScriptPlayer(script: script)
        self.settleLimit = settleLimit
        self.repeatsLeft = max(1, repeats) - 1
    }

    /// This frame's virtual time in seconds.
    public var time: Double { Double(frame) / Double(fps) }

    /// Appends the inputs due by this frame's time, in order.
    public mutating func collectInputs(into buffer: inout [TimedInput]) {
        let now = time
        while let input = player.next(dueBy: now) { buffer.append(input) }
    }

    /// Moves the clock on by whole frames without drawing them: a replay that follows
    /// real time (while real work runs) catches up after slow frames. Inputs due in the
    /// skipped frames arrive with the next one, still at their own times.
    public mutating func skip(frames: Int) {
        frame += max(0, frames)
    }

    /// Ends the frame; true when the replay is over: the script has ended and the model's
    /// motion has come to rest (or the settle limit ran out).
    public mutating func endFrame(model: OverscrollModel) -> Bool {
        let now = time
        frame += 1
        let scriptDone = player.isFinished && now >= player.currentEnd
        // The motion, not the fade of the scroll indicator on top of it, ends a replay:
        // a trace keeps its length (and its rows) whatever is drawn over the list.
        let over = (scriptDone && model.isMotionSettled && !model.isWaitingForIdleReset) || now >= player.currentEnd + settleLimit
        guard over, repeatsLeft > 0 else { return over }
        // Each playthrough starts from rest, on the next frame.
        repeatsLeft -= 1
        player.restart(at: time)
        return false
    }
}

/// One frame of a played script, as `ReplayDriver.play` hands it on.
public struct PlayedFrame: Sendable {
    public var frame: Int
    /// The frame's time on the virtual clock.
    public var time: Double
    /// What the frame asked of the world.
    public var effects: FrameEffects
}

extension ReplayDriver {
    /// Plays the script through `model` the way a headless replay does, frame by frame:
    /// the script's inputs and the refresh work due (`completions`, asked with the frame's
    /// time) go through the model's frame (`OverscrollModel.frame`), then `each` sees the
    /// frame and the model as it left it, and stops the run early by returning false.
    /// Ends where `endFrame` says. The tests, the fuzzer and the bench run scripts here.
    public mutating func play(_ model: inout OverscrollModel,
                              completions: (Double) -> [RefreshCompletion] = { _ in [] },
                              each: (PlayedFrame, inout OverscrollModel) -> Bool) {
        var inputs: [TimedInput] = []
        inputs.reserveCapacity(64)
        var finished = false
        while !finished {
            inputs.removeAll(keepingCapacity: true)
            collectInputs(into: &inputs)
            let effects = model.frame(&inputs, completions: completions(time), to: time)
            guard each(PlayedFrame(frame: frame, time: time, effects: effects), &model) else { return }
            finished = endFrame(model: model)
        }
    }
}
