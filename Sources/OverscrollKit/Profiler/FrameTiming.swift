/// One frame's timestamps as the loop measured them; all times in seconds.
///
/// The absolute times are CLOCK_MONOTONIC (`MonotonicClock.now()`), real time in both live
/// and replay runs, because the work a frame costs is real even on a virtual clock.
public struct FrameTiming: Sendable, Equatable {
    public var frame: Int
    public var frameStart: Double
    public var inputDone: Double
    public var updateDone: Double
    public var renderDone: Double
    public var presentStart: Double
    public var presentDone: Double
    /// Present-to-present interval: real in live runs, the virtual 1/fps in replay.
    public var interval: Double
    /// Input-to-present latency of the oldest input handled this frame; nil when none.
    public var latency: Double?
    public var state: UIState
    /// CPU time the whole process spent while the frame ran, every thread
    /// (CLOCK_PROCESS_CPUTIME_ID), when the loop measured it: a renderer's worker threads
    /// are the frame's cost too. A present that blocks for vsync is waiting, not working:
    /// wall-clock phases would count the wait as CPU.
    public var processCPUTime: Double?
    /// Seconds a live loop slept before this frame with nothing to show (waiting for
    /// input): part of the run's wall time, not of the frame's interval, so a still kiosk
    /// woken now and then is neither janky nor counted at 60 fps.
    public var idleBefore = 0.0
    /// When the oldest input handled this frame happened, CLOCK_MONOTONIC seconds, as its
    /// source stamped it (the kernel's stamp where the input gives one; otherwise when the
    /// program read it: `ReportMetadata.touchTimeSource` says which); nil when none.
    public var touchTime: Double?
    /// The presenter's number for this frame's trip to the screen, whose presentation time
    /// arrives later (`FrameProfiler.presented`): 0 where the path tells nothing (X11's
    /// window surface, offscreen, SDL's GPU path), so touch-to-scanout is not known.
    public var scanoutSequence = 0
    /// When the frame reached the screen (the vblank it was scanned out at, CLOCK_MONOTONIC
    /// seconds): filled in late, by the report, once the presenter says; nil: not known.
    public var scanoutTime: Double?

    public init(frame: Int, frameStart: Double, inputDone: Double, updateDone: Double,
                renderDone: Double, presentStart: Double, presentDone: Double,
                interval: Double, latency: Double? = nil, state: UIState, processCPUTime: Double? = nil) {
        self.processCPUTime = processCPUTime
        self.frame = frame
        self.frameStart = frameStart
        self.inputDone = inputDone
        self.updateDone = updateDone
        self.renderDone = renderDone
        self.presentStart = presentStart
        self.presentDone = presentDone
        self.interval = interval
        self.latency = latency
        self.state = state
    }

    /// The oldest input's time to the vblank that showed the frame; nil when there was no
    /// input or the presentation is not known.
    public var touchToScanout: Double? {
        guard let touchTime, let scanoutTime else { return nil }
        return scanoutTime - touchTime
    }

    public var inputTime: Double { inputDone - frameStart }
    public var updateTime: Double { updateDone - inputDone }
    public var renderTime: Double { renderDone - updateDone }
    public var presentTime: Double { presentDone - presentStart }
    /// The CPU's part of the frame: the process's measured CPU time when there is one;
    /// otherwise the work up to the draw plus the present call. The gap between draw and
    /// present (if the loop has one) is not work, so it is left out.
    public var cpuTime: Double { processCPUTime ?? (renderDone - frameStart) + (presentDone - presentStart) }

    public func duration(of phase: FramePhase) -> Double {
        switch phase {
        case .input: inputTime
        case .update: updateTime
        case .render: renderTime
        case .present: presentTime
        }
    }
}

/// The parts of a frame, in the order they run.
public enum FramePhase: String, CaseIterable, Sendable, Codable {
    case input, update, render, present
}
