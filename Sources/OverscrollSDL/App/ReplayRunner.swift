import CSDL
import FrameReports
import OverscrollKit
import RowSources
#if canImport(Glibc)
import Glibc
#endif

/// Runs the app against a gesture script on a virtual clock that advances exactly 1/fps
/// per frame, headless on SDL's offscreen driver unless a window is asked for. The same
/// script and options give byte-identical traces.
public final class ReplayRunner {
    public struct Options {
        public var script: GestureScript
        public var fps = 60
        public var width = 480
        public var height = 800
        public var tracePath: String?
        public var window = false
        /// The drawing path in a window; headless always draws on the CPU.
        public var renderer: RendererChoice = .cpu
        /// Pixels per point (nil: the display's, which headless is 1); the trace is in points.
        public var scale: Double?
        /// Stop after this much virtual time past the script's end, whatever happens.
        public var settleLimit = 60.0
        /// Write a frame-timing report there (a numbered run of a config's `report` too).
        public var report: ReportTarget?
        public var programVersion = "unknown"
        /// How many log lines could not be written so far (`LogWriter.dropped`), for the metrics.
        public var logLinesDropped: @Sendable () -> Int = { 0 }
        /// The script's path, for the report.
        public var scriptName: String?
        /// Play the script this many times in a row (a soak).
        public var repeatCount = 1
        /// Called every `checkpointInterval` frames with the frame number (a soak's RSS log).
        public var checkpointInterval = 0
        public var checkpoint: ((Int) -> Void)?
        /// Called before each frame, outside its CPU time (a benchmark evicting the caches,
        /// as the display server and other processes do while a live frame sleeps).
        public var beforeFrame: (() -> Void)?
        /// Called after each frame with its timing, outside its CPU time (a benchmark's own
        /// figures at the nanosecond: the profiler keeps microseconds, a step of a tenth
        /// of a frame on a fast machine's CPU path).
        public var afterFrame: ((FrameTiming) -> Void)?
        /// Shown through the console's CPU presenter (`SharedMemoryPresenter`, the DRM
        /// path's, turned screens included) over buffers in plain memory instead of the
        /// headless window's surface: the DRM path's work without a DRM device (the
        /// rotation benchmark).
        public var memoryBuffers = false
        /// The bytes those buffers may take together (nil: any): a driver's video memory,
        /// as bochs-drm's, where the list's ring steps down (`RingRoom`).
        public var memoryLimit: Int?
        /// Those buffers shown from their first row only (efifb, qxl): the ring pinned.
        public var memoryPinned = false

        public init(script: GestureScript) { self.script = script }
    }

    public struct Summary {
        public var frames: Int
        public var virtualSeconds: Double
        /// The trace could not be written (the run stopped there); one line naming it.
        public var traceError: String?
        /// The SIGINT or SIGTERM that stopped the replay early.
        public var stoppedBy: Int32?
        /// Process CPU seconds (every thread) used before the first frame: start-up.
        public var startupCPU = 0.0
        /// Process CPU seconds from the first frame's start to the last frame's end.
        public var loopCPU = 0.0
        /// The frames' own CPU (`cpu_ms`) added up: `loopCPU` less what runs between
        /// frames (writing the trace and the report's rows).
        public var framesCPU = 0.0
        /// `metrics` could not be written at the end; one line naming it.
        public var metricsError: String?
    }

    private let session: Session
    private let options: Options
    private let trace: OutputFile?

    public init(settings: AppSettings, options: Options, warn: @escaping (String) -> Void) throws(LaunchError) {
        let font = try FontCheck.verify(settings.fontPath)
        // Open outputs first: a bad path fails before anything runs.
        do { trace = try options.tracePath.map { path throws(SDLError) in try OutputFile(path: path) } } catch {
            throw .output(error.description)
        }
        var display = Display.Options.headless(width: options.width, height: options.height)
        if options.window {
            // A person is watching: a real window, as the live program would open it.
            display = Display.Options()
            display.width = options.width
            display.height = options.height
            display.vsync = false
            // `--window` promises a window someone sees: no display is exit 69, as live.
            display.requireVisibleDisplay = true
            display.renderer = options.renderer
        }
        display.scale = options.scale
        if options.memoryBuffers {
            let (width, height) = (Int32((Double(options.width) * (options.scale ?? 1)).rounded()),
                                   Int32((Double(options.height) * (options.scale ?? 1)).rounded()))
            display.presenter = PresenterTable.inMemory(MemoryBufferChain(limit: options.memoryLimit ?? .max, pinned: options.memoryPinned), width: width, height: height,
                                                        reason: "buffers in memory, as the console's DRM path")
        }
        self.options = options
        let report: ReportWriter?
        do {
            report = try ReportOpening.open(options.report, programVersion: options.programVersion,
                                            mode: "replay", fps: options.fps, script: options.scriptName,
                                            logLinesDropped: options.logLinesDropped)
        } catch {
            trace?.discard()
            throw error
        }
        let shown: Display
        do { shown = try Display(display) } catch {
            if let report { options.report?.abandon(report) }
            trace?.discard()
            throw .display(error)
        }
        // A replay writes its report from here on: a numbered run counts now.
        if let report { options.report?.settle(report) }
        let period = 1 / Double(options.fps)
        shown.describe(in: report, refreshPeriod: period, vsync: false)
        // The budget is the virtual frame period: replay paces the model at exactly 1/fps.
        do {
            session = try Session(display: shown, font: font, settings: settings, inbox: RefreshInbox(), refreshPeriod: period,
                                  report: report, warn: warn)
        } catch {
            trace?.discard()
            throw .display(error)
        }
    }

    /// Plays the script; returns what ran and the report's error, if writing it failed.
    public func run() -> (summary: Summary, reportError: String?) {
        var driver = ReplayDriver(script: options.script, fps: options.fps, settleLimit: options.settleLimit,
                                  repeats: options.repeatCount)
        var row = CSVRowBuffer()
        trace?.write(TraceFormat.header)
        var inputs: [TimedInput] = []
        inputs.reserveCapacity(64)
        var event = SDL_Event()
        var finished = false
        let period = 1 / Double(options.fps)
        let shownFrom = MonotonicClock.now()
        SignalHandling.installReplayStop()
        let loopStart = ProcessCPUClock.now()
        var framesCPU = 0.0
        /// Where real and virtual time were when the virtual clock began following real time.
        var following: (real: Double, virtual: Double)?
        // `metrics`: counted frame by frame as the window counts them, written at the end.
        var fleet = session.settings.metricsPath.map { _ in FleetMetrics(refreshPeriod: period) }
        let monotonicStart = MonotonicClock.now()
        fleet?.version = options.programVersion
        while !finished {
            options.beforeFrame?()
            let frameStart = MonotonicClock.now()
            let cpuStart = ProcessCPUClock.now()
            var quit = false
            while SDL_PollEvent(&event) != 0 {
                if session.translator.translate(event, windowSize: session.display.sizeInPoints,
                                               pointsPerUnit: session.display.pointsPerWindowUnit) == .quit { quit = true }
            }
            let frame = driver.frame
            let time = driver.time
            inputs.removeAll(keepingCapacity: true)
            driver.collectInputs(into: &inputs)
            var oldest = Double.infinity
            for input in inputs where session.model.admits(input.event) { oldest = min(oldest, input.time) }
            var timing = session.frame(&inputs, to: time, startedAt: frameStart, cpuStart: cpuStart)
            // Interval and latency on the virtual clock (the pacing the model saw); CPU
            // and phase times are real.
            timing.frame = frame
            timing.interval = period
            timing.latency = oldest.isFinite ? time - oldest : nil
            framesCPU += timing.cpuTime
            session.record(timing)
            options.afterFrame?(timing)
            if fleet != nil { fleet!.record(timing, model: session.model, now: FleetMetrics.endsRefresh(session.model) ? WallTime.system.now() : 0) }
            if let trace {
                row.clear()
                TraceFormat.appendRow(&row, frame: frame, model: session.model, events: session.effects.events)
                trace.write(row.bytes)
            }
            finished = driver.endFrame(model: session.model) || quit
                || trace?.error != nil || SignalHandling.replayStopRequested != nil
            if options.checkpointInterval > 0, frame % options.checkpointInterval == 0 { options.checkpoint?(frame) }
            pace(&driver, frameTime: time, shownFrom: shownFrom, following: &following)
        }
        let summary = Summary(frames: driver.frame, virtualSeconds: Double(driver.frame - 1) / Double(options.fps),
                              traceError: trace?.commit(), stoppedBy: SignalHandling.replayStopRequested,
                              startupCPU: loopStart, loopCPU: ProcessCPUClock.now() - loopStart, framesCPU: framesCPU)
        return finish(summary, fleet: fleet, monotonicStart: monotonicStart)
    }

    /// Waits, after a frame at `frameTime`, for when the next one is due in real time: in
    /// a window, and while real work runs.
    private func pace(_ driver: inout ReplayDriver, frameTime time: Double, shownFrom: Double,
                      following: inout (real: Double, virtual: Double)?) {
        let period = 1 / Double(options.fps)
        // In a window a person is watching: show it at the speed it happens (the
        // trace is the same, the virtual clock still steps exactly 1/fps).
        if options.window {
            let wait = shownFrom + driver.time - MonotonicClock.now()
            if wait > 0 {
                MonotonicClock.sleep(wait)
            }
        }
        // Real work (a refresh command) runs on the wall clock: while it runs, the
        // virtual clock follows real time — each frame waits until real time has
        // caught up with it — so its duration and timeout mean what they mean live.
        if session.settings.refreshIsRealTime && session.model.refresh.isRefreshing {
            let anchor = following ?? (real: MonotonicClock.now(), virtual: time)
            following = anchor
            let due = anchor.real + (driver.time - anchor.virtual)
            let wait = due - MonotonicClock.now()
            if wait > 0 {
                MonotonicClock.sleep(wait)
            } else if -wait >= period {
                // Frames are slower than real time: skip ahead on the frame grid.
                driver.skip(frames: Int(-wait / period))
            }
        } else {
            following = nil
        }
    }

    /// Writes the metrics and closes the session: the summary, with what could not be written.
    private func finish(_ summary: Summary, fleet: FleetMetrics?, monotonicStart: Double) -> (summary: Summary, reportError: String?) {
        var summary = summary
        if var fleet, let path = session.settings.metricsPath {
            fleet.logLinesDropped = options.logLinesDropped()
            fleet.startTime = WallTime.system.start(monotonicStart: monotonicStart)
            do { try fleet.write(to: path) } catch { summary.metricsError = "cannot write the metrics: \(error.description)" }
        }
        do { try session.finish() } catch { return (summary, error.description) }
        return (summary, nil)
    }

    /// The profiler's view of the run, for a benchmark's figures.
    public var profiler: FrameProfiler { session.profiler }

    public var display: Display { session.display }

    /// How many rows the list holds now.
    public var rowCount: Int { session.model.rows.count }
}
