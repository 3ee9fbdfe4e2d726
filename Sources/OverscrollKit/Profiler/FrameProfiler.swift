/// The always-on profiler: per-frame verdicts, whole-run and per-state statistics, and a
/// short history for an on-screen graph. Memory is fixed at init (histograms with a fixed
/// range, a fixed ring), so `record` allocates nothing and a run can last days.
///
/// It is a value type: keep one `var` in the loop and mutate it in place. Copying it (for
/// example to hand a snapshot to another thread) is fine, but recording into the original
/// afterwards then pays one copy-on-write of every histogram.
public struct FrameProfiler: Sendable {
    /// One point of the HUD graph.
    public struct HUDSample: Sendable, Equatable {
        public var interval: Double
        public var cpu: Double
        public var janky: Bool
        public var state: UIState
        /// The frame's phases, in seconds: the HUD stacks them against the budget.
        public var input = 0.0, update = 0.0, render = 0.0, present = 0.0
        /// The frame's number (`FrameTiming.frame`), which a late presentation finds it by.
        public var frame = -1
        /// Its touch's time to the vblank that showed it, seconds, once the presenter has
        /// said (`presented`); nil: no touch, not heard yet, or not known.
        public var touchToScanout: Double?

        public init(interval: Double, cpu: Double, janky: Bool, state: UIState,
                    input: Double = 0, update: Double = 0, render: Double = 0, present: Double = 0,
                    frame: Int = -1, touchToScanout: Double? = nil) {
            self.frame = frame
            self.touchToScanout = touchToScanout
            self.interval = interval
            self.cpu = cpu
            self.janky = janky
            self.state = state
            self.input = input
            self.update = update
            self.render = render
            self.present = present
        }
    }

    public let refreshPeriod: Double
    public private(set) var overall = FrameStatistics()
    private var perState: [FrameStatistics]
    private var hud: FixedRing<HUDSample>
    private var awaitingScanout = ScanoutWait()
    /// The last touch-to-scanout heard, seconds, for the HUD; nil before the first.
    public private(set) var lastTouchToScanout: Double?
    /// Whether the path numbers its trips to the screen (`FrameTiming.scanoutSequence`),
    /// so it hears when frames are shown: the HUD says "not known" until it does.
    public private(set) var hearsScanout = false

    /// - Parameters:
    ///   - refreshPeriod: seconds per refresh (the frame budget), e.g. 1/60.
    ///   - hudSeconds: how much history the HUD ring holds, at one frame per refresh.
    public init(refreshPeriod: Double, hudSeconds: Double = 2) {
        precondition(refreshPeriod > 0 && refreshPeriod.isFinite, "the refresh period must be a positive number of seconds")
        self.refreshPeriod = refreshPeriod
        // One fresh value each, not `Array(repeating:)`: copies of one value would share
        // histogram storage, and the first frame in each state would pay a copy-on-write.
        perState = UIState.allCases.map { _ in FrameStatistics() }
        // Sized for the refresh rate; an unsynced loop running faster shows a shorter span.
        let frames = Int((max(0, hudSeconds) / refreshPeriod).rounded(.up))
        hud = FixedRing(capacity: min(max(frames, 2), 16_384),
                        filler: HUDSample(interval: 0, cpu: 0, janky: false, state: .idle))
    }

    /// Judges and records one frame; returns the verdict so the loop can log or show it.
    @discardableResult
    public mutating func record(_ t: FrameTiming) -> FrameVerdict {
        let verdict = FrameVerdict(timing: t, refreshPeriod: refreshPeriod)
        overall.record(t, verdict)
        perState[t.state.index].record(t, verdict)
        hud.append(HUDSample(interval: t.interval, cpu: t.cpuTime, janky: verdict.janky, state: t.state,
                             input: t.inputTime, update: t.updateTime, render: t.renderTime, present: t.presentTime,
                             frame: t.frame))
        if t.scanoutSequence > 0 { hearsScanout = true }
        if let touch = t.touchTime, t.scanoutSequence > 0 {
            awaitingScanout.add(.init(sequence: t.scanoutSequence, frame: t.frame, touchTime: touch, state: t.state))
        }
        return verdict
    }

    /// The presenter heard that its trip `sequence` reached the screen at `time`
    /// (CLOCK_MONOTONIC seconds): completes the touch-to-scanout of the frame it showed,
    /// which `record` saw earlier. Returns that frame and its value, seconds; nil when no
    /// frame with a touch waited for it.
    @discardableResult
    public mutating func presented(sequence: Int, at time: Double) -> (frame: Int, touchToScanout: Double)? {
        guard let e = awaitingScanout.take(sequence) else { return nil }
        let value = time - e.touchTime
        overall.recordTouchToScanout(value)
        perState[e.state.index].recordTouchToScanout(value)
        lastTouchToScanout = value
        // On the HUD's graph, at the frame that showed it (normally the newest but one).
        var k = hud.count - 1
        while k >= 0, hud[k].frame > e.frame { k -= 1 }
        if k >= 0, hud[k].frame == e.frame { hud.modify(k) { $0.touchToScanout = value } }
        return (e.frame, value)
    }

    public func statistics(for state: UIState) -> FrameStatistics { perState[state.index] }

    /// A still stretch with no frame after it (a live run's end after the last frame).
    public mutating func recordIdle(_ seconds: Double) { overall.recordIdle(seconds) }

    /// The HUD history, oldest first. Allocates the array: for a per-frame HUD use
    /// `copyHUDSamples(into:)` with a buffer kept across frames.
    public var hudSamples: [HUDSample] {
        var out: [HUDSample] = []
        out.reserveCapacity(hud.count)
        hud.forEach { out.append($0) }
        return out
    }

    public func copyHUDSamples(into buffer: inout [HUDSample]) { hud.copy(into: &buffer) }
    public var hudCapacity: Int { hud.capacity }
    public var hudCount: Int { hud.count }
}
