import CSDL
import CWayland
import FrameReports
import OverscrollKit
import RowSources
#if canImport(Glibc)
import Glibc
#endif

/// The interactive program: real clock, real input, paced to the display.
public final class LiveApp {
    public struct Options {
        /// Kiosk: no key quits or toggles anything; it stops on SIGTERM/SIGINT.
        public var kiosk = false
        public var environment: [String: String] = [:]
        /// Write a frame-timing report there: a diagnostic, never what keeps the screen dark.
        public var report: ReportTarget?
        public var programVersion = "unknown"
        /// Where `--verbose` lines go (nil: nowhere).
        public var verbose: ((String) -> Void)?
        /// Keep the window covering the screen when the screen changes size.
        public var followScreen = false
        /// SIGHUP: builds the settings anew and says what it made of them.
        public var reload: (@Sendable () -> ReloadOutcome)?
        /// How many log lines could not be written so far (`LogWriter.dropped`), for the metrics.
        public var logLinesDropped: @Sendable () -> Int = { 0 }
        /// The one wall clock the run tells every time of day and start time by.
        public var wall = WallTime.system
        public init() {}
    }

    let session: Session
    let options: Options
    /// This run's report, for pruning the older runs once the first frame is shown.
    private let report: ReportWriter?
    var clock = LiveClock()
    private let notifier: SystemdNotifier
    private let metrics: MetricsWriter?
    private let runWatch: RunWatch
    /// The stop watch of the opening, until `runWatch` takes over.
    private let opening: OpeningWatch
    var screen: ScreenFollower
    let native: NativeDisplay
    /// The display's platform row: where input comes from, how a loss shows.
    let platform: Platform
    /// The console's devices read through libinput (SDL's console drivers read them badly
    /// and cannot sleep until input): also the loop's sleep there.
    let consoleInput: ConsoleInput?
    /// When SDL last pumped the display's events (monotonic seconds).
    var lastPump = -Double.infinity
    private var reload: ReloadSignal?
    let warn: (String) -> Void
    /// Keep drawing until then (monotonic seconds), though nothing moves: the window was
    /// just resized to a new screen and the server catches up over a few frames.
    private var redrawUntil = -Double.infinity
    var inputs: [TimedInput] = []
    private var presentAverage = 0.0
    /// Deadlines for a display that does not block in present (`FramePacer`).
    private var pacer: FramePacer
    /// SDL's window surface (X11's CPU path): a present is shown at once, at no refresh,
    /// so a frame is presented once drawn, not held to its deadline: one sleep a frame,
    /// not two (docs/performance.md, the X11 CPU path).
    private let presentsOnceDrawn: Bool
    /// Monotonic time the oldest input handled this frame was drained.
    var oldestArrival: Double?
    /// The oldest admitted input's own time this frame (`FrameTiming.touchTime`).
    var oldestTouch: Double?
    /// The last presentation handed to the report (`hearPresentation`).
    private var lastHeardScanout = 0
    /// SDL's stamp of the last pump (`LiveClock` seconds): what the next pump reads happened
    /// after it. A sleep on input pumps as it waits, so waking moves it too.
    var previousPumpStamp = -Double.infinity
    /// Frames shown so far (the number of the next).
    private var frame = 0
    /// When the last frame shown was presented (monotonic seconds).
    private var lastPresent: Double?

    public init(settings: AppSettings, display displayOptions: Display.Options, options: Options,
                warn: @escaping @Sendable (String) -> Void) throws(LaunchError) {
        let font = try FontCheck.verify(settings.fontPath)
        clock.wall = options.wall
        let report = ReportOpening.openDiagnostic(options.report, programVersion: options.programVersion,
                                                  logLinesDropped: options.logLinesDropped, wall: options.wall, warn: warn)
        // From here until the frame loop's RunWatch starts, a stop ends the process
        // within a second even if the display server never answers.
        let opening = OpeningWatch(report: report, log: warn)
        let display: Display
        do { display = try SignalHandling.openingSDL { () throws(SDLError) in try Display(displayOptions) } } catch {
            opening.end()
            if let report { options.report?.abandon(report) }
            throw .display(error)
        }
        opening.withReport {
            display.describe(in: $0, refreshPeriod: display.refreshPeriod, vsync: display.vsync)
            // A live run says what its scanout times are; a replay's stay null (no screen).
            $0?.metadata.scanoutClock = display.presenting.scanoutClock
        }
        // A refresh that completes on another thread wakes a loop that sleeps on input.
        let inbox = RefreshInbox(wake: {
            var event = SDL_Event()
            event.type = SDL_USEREVENT.rawValue
            SDL_PushEvent(&event)
        })
        // "Updated HH:MM" tells the real time of day.
        var settings = settings
        settings.wallClock = clock.wallClock()
        do {
            session = try Session(display: display, font: font, settings: settings, inbox: inbox, refreshPeriod: display.refreshPeriod,
                                  report: report, warn: warn)
        } catch {
            opening.end()
            if let report { options.report?.abandon(report) }
            throw .display(error)
        }
        self.report = report
        self.opening = opening
        self.options = options
        self.warn = warn
        pacer = FramePacer(period: display.refreshPeriod)
        notifier = SystemdNotifier(environment: options.environment)
        warn(Self.startLine(display))
        inputs.reserveCapacity(256)
        metrics = settings.metricsPath.map {
            MetricsWriter(path: $0, refreshPeriod: display.refreshPeriod, version: options.programVersion,
                          logLinesDropped: options.logLinesDropped, wall: options.wall, warn: { warn($0) })
        }
        let native = NativeDisplay(window: display.window)
        self.native = native
        platform = display.platform
        presentsOnceDrawn = display.showsAtOnce
        var why = ""
        consoleInput = ConsoleInput.open(for: display.platform, why: &why)
        if consoleInput == nil, !why.isEmpty { warn("input: libinput cannot be had (\(why)); SDL reads the devices itself") }
        // libinput gives the kernel's stamp of each event; SDL's input has none, and the
        // time the loop read it stands in (summary.json says which).
        let touchTimeSource = consoleInput != nil ? "kernel" : "read"
        opening.withReport { $0?.metadata.touchTimeSource = touchTimeSource }
        screen = ScreenFollower(native: native, watch: options.followScreen)
        let wake: @Sendable () -> Void = {
            var event = SDL_Event()
            event.type = SDL_USEREVENT.rawValue
            SDL_PushEvent(&event)
        }
        runWatch = RunWatch(record: session.runRecord, metrics: metrics, native: native, log: { warn($0) }, wake: wake)
        if let load = options.reload { reload = ReloadSignal(load: load, wake: wake, notify: notifier.sender) }
    }

    public var display: Display { session.display }

    /// Runs until Esc, the window closing, or SIGINT/SIGTERM (SDL turns those into
    /// SDL_QUIT); then writes the report. Returns the report's error, if any.
    public func run() -> String? {
        defer { opening.end() }
        let period = session.display.refreshPeriod
        var running = true
        var event = SDL_Event()
        /// The loop waited on input after a frame that showed nothing (`awaitInput`).
        var idled = false
        metrics?.start()
        runWatch.start(native, loss: platform.loss)
        opening.handOver()
        while running {
            inputs.removeAll(keepingCapacity: true)
            oldestArrival = nil
            oldestTouch = nil
            var slept = idled
            idled = false
            running = watchBeforeFrame()
            // Settings a reload left are applied below, before this frame: never sleep on them.
            // A stop (above) is never slept on: this frame is the last.
            if running && session.isSettled && frame >= firstFrameShownBy && MonotonicClock.now() >= redrawUntil && reload?.isPending != true {
                guard sleepOnInput(&event, running: &running) else { continue }
                slept = true
            }
            // Taken after the sleep: the reload that woke the loop is shown by this frame.
            let reloaded = applyReload()
            let frameStart = MonotonicClock.now()
            let cpuStart = ProcessCPUClock.now()
            running = readInput(&event, frameStart: frameStart, running: running)
            // Only now is the frame's model time known (a stall is cut out of it): place the
            // events, stamped on the real clock, inside this frame's span of model time.
            let frameTime = clock.frame()
            // The time of day model time stands for, kept true to the system clock: a step
            // (NTP, at last) or the stalls a slow frame cuts out of model time.
            if let drifted = clock.drifted(from: session.settings.wallClock) { session.wallClockChanged(to: drifted.clock, step: drifted.step) }
            for i in inputs.indices { inputs[i].time = clock.modelTime(ofStamp: inputs[i].time) }
            var timing = session.frame(&inputs, to: frameTime, startedAt: frameStart, cpuStart: cpuStart,
                                       presentNotBefore: presentsOnceDrawn ? pacer.presentNotBeforeUnsynced : pacer.presentNotBefore)
            if !reloaded && session.lastPainted == .nothing && frame >= firstFrameShownBy {
                // Nothing new to show (woken by an event that changed nothing, a finger
                // landing or held still): no frame was presented that anyone could see, so
                // none is counted, and none paces the next. Until the next frame is due the
                // loop waits on input, woken at once: a landing's first motion is shown at
                // the next vblank, not a period after an empty present
                // (`overscroll-bench latency`). The wait is idle time, as a sleep is.
                notifier.frame(now: timing.presentDone)
                // A flip that ended meanwhile is heard now, not at the next frame that
                // shows something (a finger held still makes none for as long as it rests).
                hearPresentation(waitingMs: 0)
                awaitInput(seconds: period)
                idled = true
                continue
            }
            record(&timing, frameStart: frameStart, slept: slept, reloaded: reloaded)
            // Sleep until the next frame is due, unless vsync already blocked in present.
            if !vsyncPaces, let start = pacer.nextStart { MonotonicClock.sleep(start - MonotonicClock.now()) }
        }
        return finishRun()
    }

    /// How many frames put the first picture on the screen (`Platform.firstFramePresents`:
    /// a swap chain may show a frame only when the next one is presented); READY=1 waits
    /// for the last.
    private var firstFrameShownBy: Int { session.display.firstFramePresents }

    /// Before a frame: a display lost, the console's VT given back or taken, a stop asked
    /// for, the screen resized (`ScreenFollower`). Returns false when this frame is the last.
    private func watchBeforeFrame() -> Bool {
        var running = true
        if let lost = runWatch.lost { runWatch.lose(lost) }
        if let why = session.display.cannotShow {
            session.display.terminal?.giveBack()
            runWatch.cannotShow(why)
        }
        // The presenter asked for less memory: the frame refused showed nothing.
        let notes = session.display.takeNotes()
        for note in notes { warn(note) }
        if !notes.isEmpty {
            session.painter.invalidate()
            redrawUntil = MonotonicClock.now() + 0.5
        }
        if let loss = session.display.loss {
            session.display.terminal?.giveBack()
            runWatch.lose(loss)
        }
        // The console's VT came back: its screen shows nothing of ours until drawn whole.
        if session.display.terminal?.answerSwitches() == true {
            session.painter.invalidate()
            redrawUntil = MonotonicClock.now() + 0.5
        }
        consoleInput?.follow(terminalIsOurs: session.display.terminal?.isOurs ?? true)
        // SIGTERM and the other stopping signals (SignalHandling): their handler set
        // the flag, and RunWatch woke a loop asleep on input. This frame is the last.
        if SignalHandling.stopRequested != nil { running = false }
        if options.followScreen, screen.follow(session.display, now: MonotonicClock.now()) {
            redrawUntil = MonotonicClock.now() + 0.5
        }
        return running
    }

    /// Nothing moves and the still screen is drawn: sleeps until input arrives, or until
    /// the model's next timer (a timed refresh, an idle reset). The timeout also keeps the
    /// watchdog fed and the screen size looked at; it draws nothing unless a timer is due.
    /// Returns false to sleep on (nothing happened, no timer due).
    private func sleepOnInput(_ event: inout SDL_Event, running: inout Bool) -> Bool {
        // The last frame's flip first (within a refresh period): its touch-to-scanout
        // is known before the sleep, and a touch in this wait could not be shown
        // sooner anyway (no flip is queued while one is pending).
        if lastHeardScanout < session.display.scanoutSequence {
            hearPresentation(waitingMs: Int32((pacer.period * 2000).rounded(.up)))
        }
        var timeout = min(1000, (notifier.watchdogInterval ?? 1) * 1000)
        if let due = session.model.nextTimer {
            timeout = min(timeout, max(0, (clock.realTime(ofModel: due) - clock.now()) * 1000))
        }
        let woken = consoleInput?.wait(&event, timeoutMs: Int32(timeout.rounded(.up)))
            ?? (SDL_WaitEventTimeout(&event, Int32(timeout.rounded(.up))) != 0)
        if let lost = runWatch.lost { runWatch.lose(lost) }
        if SignalHandling.stopRequested != nil { running = false }
        if woken && running {
            running = handle(event)
        } else {
            notifier.frame(now: MonotonicClock.now())
            // Nothing happened: sleep on, unless a timer is due, which needs a frame.
            guard let due = session.model.nextTimer, clock.realTime(ofModel: due) <= clock.now() else { return false }
        }
        clock.resume()
        pacer.woke()
        previousPumpStamp = (clock.now() * 1000).rounded(.down) / 1000
        return true
    }

    /// Settings a reload left, applied; true when there were some.
    private func applyReload() -> Bool {
        guard let reload, reload.isPending, let settings = reload.take() else { return false }
        session.apply(settings, at: session.model.now, warn: warn)
        if let metrics, let path = session.settings.metricsPath { metrics.retarget(to: path) }
        return true
    }

    /// A frame that was shown: its timing completed and recorded, the presentations heard,
    /// and the first frame (or a reload's) told to systemd.
    private func record(_ timing: inout FrameTiming, frameStart: Double, slept: Bool, reloaded: Bool) {
        let period = session.display.refreshPeriod
        let presentDone = timing.presentDone
        presentAverage += (presentDone - timing.presentStart - presentAverage) * 0.1
        pacer.presented(at: presentDone, work: timing.renderDone - frameStart, vsyncBlocks: vsyncPaces)
        // After sleeping on input no frame was due, so that gap is not jank.
        timing.frame = frame
        timing.interval = slept || lastPresent == nil ? period : presentDone - lastPresent!
        // The sleep is wall time all the same: the run's duration counts it as idle.
        if slept, let lastPresent { timing.idleBefore = max(0, presentDone - lastPresent - period) }
        timing.latency = oldestArrival.map { presentDone - $0 }
        timing.touchTime = oldestTouch
        lastPresent = presentDone
        session.record(timing)
        // The flip events that came (the frame before's, normally): late, and never waited for here.
        hearPresentation(waitingMs: 0)
        metrics?.record(timing, model: session.model)
        if frame + 1 < firstFrameShownBy {
            // The GPU path: the same picture once more, so the first one is on the screen.
            session.painter.invalidate()
        }
        // A frame the screen refused (another program holds it) was not shown: no
        // READY=1 for it; the loop ends at its next turn as for a lost display.
        if frame + 1 == firstFrameShownBy, session.display.loss == nil {
            notifier.ready(status: "showing \(session.model.rows.count) rows")
            // Only a run that showed a frame counts as one: now the older runs beyond
            // `report-keep` go (once; a start that failed removed nothing).
            if let report { options.report?.settle(report) }
            // A benchmark reads the monotonic stamp; people read the milliseconds.
            let since = ProcessStart.secondsAgo().map { " \(Int(($0 * 1000).rounded())) ms after the process started," } ?? ""
            options.verbose?("first frame shown\(since) at monotonic \(presentDone) s")
        }
        if reloaded { notifier.ready(status: "showing \(session.model.rows.count) rows (reloaded)") }
        notifier.frame(now: presentDone)
        frame += 1
    }

    /// After the loop: the loss said, the screen given back, the report and the metrics
    /// written. Returns the report's error, if any.
    private func finishRun() -> String? {
        // SDL ends the loop with SDL_QUIT when it finds the connection in error (Wayland's).
        let broken = platform.loss == .connectionError && native.connectionBroken
        if let lost = runWatch.lost ?? (broken ? "connection closed" : nil) { runWatch.lose(lost) }
        notifier.stopping()
        session.display.terminal?.giveBack()
        if let lastPresent { session.recordIdle(MonotonicClock.now() - lastPresent) }
        // Keys SDL may crash on (CWayland/keyboardenter.c), withheld: said before the
        // report, as RunWatch may end the process once the loop has finished.
        let withheld = ovs_wl_keyboard_keys_withheld()
        if withheld > 0 { options.verbose?("keys held at a keyboard's first enter, before SDL knew its layout: withheld from SDL \(withheld) time(s)") }
        // The report and the metrics first, while RunWatch stands by: if anything after
        // a stop signal hangs (stopping refresh work, joining the reload thread), it
        // ends the process with the report already whole.
        runWatch.loopFinishing()
        var failure: String?
        let writing = MonotonicClock.now()
        do { try session.runRecord.finish() } catch { failure = error.description }
        // How a stop's second went: the loop acted on the signal (RunWatch says so when it
        // does not within its grace), then the report took this long (its files synced:
        // on a busy disk, a second or more; RunWatch gives it `reportBudget`).
        if let sig = SignalHandling.stopRequested, let directory = session.runRecord.reportDirectory, failure == nil {
            let ms = Int(((MonotonicClock.now() - writing) * 1000).rounded())
            options.verbose?("\(SignalHandling.name(sig)): the loop ended; the report written to \(ReportWriterError.shown(directory)) in \(ms) ms")
        }
        metrics?.finish()
        runWatch.loopFinished(status: failure == nil ? SignalHandling.liveExitStatus(SignalHandling.stopRequested) : 74)
        try? session.finish()
        reload?.stop()
        return failure
    }

    /// The one line at start: what the operator needs to tell one deployment from another.
    static func startLine(_ display: Display) -> String {
        let points = display.sizeInPoints, pixels = display.sizeInPixels
        let hz = (10 / display.refreshPeriod).rounded() / 10
        return "started: video \(display.videoDriver), renderer \(display.renderDriver), "
            + "window \(Int(points.width))x\(Int(points.height)) pt (\(pixels.width)x\(pixels.height) px), "
            + "scale \(DisplayScale.describe(display.scale.factor)) (\(display.scale.origin)), refresh \(hz) Hz"
    }

    /// Present blocks until vsync (it takes a good part of a period): the display paces the
    /// loop, which does not sleep to a frame's start (its present still waits for its
    /// deadline: no two presents within three quarters of a period).
    private var vsyncPaces: Bool { presentAverage > pacer.period * 0.25 }

    /// Hands the report and the profiler the last presentation the display heard, once.
    /// Every one heard since the last call, oldest first: a path that hears each frame
    /// (Wayland's wp_presentation) may have answered for two commits at once, and DRM's
    /// dumb buffers two flips where the driver has no vblank; once all were told the
    /// display says the last again, which ends the loop.
    private func hearPresentation(waitingMs: Int32) {
        var wait = waitingMs
        while let shown = session.display.lastShown(waitingMs: wait), shown.sequence > lastHeardScanout {
            lastHeardScanout = shown.sequence
            if let value = session.runRecord.presented(shown) { metrics?.recordTouchToScanout(value) }
            wait = 0
        }
    }
}
