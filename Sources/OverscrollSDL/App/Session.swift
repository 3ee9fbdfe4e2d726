import CSDL
import FrameReports
import OverscrollKit
import RowSources

/// One running app: the display, the model, the painter, the sound and the refresh work,
/// and `frame`, the one function that turns a frame's input into a drawn frame. The live
/// loop and replay differ only in where time and input come from and how they wait.
final class Session {
    let display: Display
    let painter: Painter
    private(set) var sound: FeedbackSound
    private(set) var settings: AppSettings
    /// The source the latest refresh was started on: a reload may have replaced it since,
    /// and work it still runs is stopped at the end. One at most, whatever the reloads:
    /// only one refresh runs at a time.
    private var refreshingOn: (any RefreshSource)?
    /// What the last frame drew: live, a frame that drew nothing (a wake-up with nothing
    /// to show, a finger landing or held still) is not a frame to count.
    private(set) var lastPainted = PaintedFrame.whole
    private(set) var model: OverscrollModel
    /// What the last frame of the model asked of the world (`OverscrollModel.frame`): the
    /// one value the sound, the log, the refresh work, the metrics and the trace read.
    private(set) var effects = FrameEffects()
    let translator = InputTranslator()
    /// Always on: every frame is timed by phase and judged against the refresh period.
    /// Before the first frame is recorded there is none yet: an empty one stands in.
    var profiler: FrameProfiler { runRecord.profiler }
    /// The profiler and the report, which another thread may have to finish (`RunWatch`).
    let runRecord: RunRecord
    /// Where refresh work reports back; drained into each frame's input.
    private let inbox: RefreshInbox
    /// This frame's picture and the last one's, rebuilt in place in turn (swapped, never
    /// copied, so neither is shared when it is rebuilt): the painter repaints what differs.
    private var scene = Scene()
    private var previous = Scene()
    private var drawnFrames = 0
    /// The presenter's number for the last trip to the screen a frame made.
    private var lastTrip = 0
    var hudVisible = false
    private var tap = ThreeFingerTap()
    /// The operator's log: one line per refresh outcome, nothing per frame.
    private let log: (String) -> Void

    /// Takes the report over: if the session cannot start, it discards the report's
    /// frames.csv itself (the directory is not left looking like it holds a run).
    init(display: Display, font: FontFile, settings: AppSettings, inbox: RefreshInbox, refreshPeriod: Double,
         report: ReportWriter?, warn: @escaping (String) -> Void) throws(SDLError) {
        self.display = display
        let runRecord = RunRecord(report: report, refreshPeriod: refreshPeriod)
        self.runRecord = runRecord
        self.inbox = inbox
        self.settings = settings
        let window = display.sizeInPoints
        let size = settings.rotation.logicalSize(width: window.width, height: window.height)
        let layout = ListLayout()
        let text: TextCache
        do {
            text = try TextCache(display: display, font: font,
                                 pointSize: layout.fontSize, scale: display.pixelScale)
        } catch {
            runRecord.discard()
            throw error
        }
        painter = Painter(display: display, text: text, scale: display.pixelScale)
        // The app is drawn at its own size; the presenter turns it onto the screen.
        painter.rotation = settings.rotation
        sound = FeedbackSound(enabled: settings.sound, warn: warn)
        log = warn
        model = settings.makeModel(width: size.width, height: size.height)
    }

    /// An event in window points, turned into the app's frame, at the frame that takes it
    /// (`frame`). A three-finger tap also toggles the HUD (a kiosk has no F2).
    private func logical(_ input: TimedInput) -> TimedInput {
        let window = display.sizeInPoints
        let turned = TimedInput(time: input.time,
                                event: settings.rotation.toLogical(input.event, windowWidth: window.width, windowHeight: window.height),
                                deviceTime: input.deviceTime)
        if tap.observe(turned) { hudVisible.toggle() }
        return turned
    }

    /// One frame: this frame's `inputs` (in window points, on the model's clock), turned
    /// into the app's frame (`logical`), and any refresh work that finished join the model
    /// at their own times; the model moves to `time`; what it asked for starts (sound,
    /// refresh work); the scene is drawn and presented (`Painter.show`), not before
    /// `presentNotBefore` (monotonic seconds: the live loop's
    /// deadline, `FramePacer`; a frame that drew nothing waits too: a replay counts it, and
    /// its interval is the one it shows; the live loop does not). Returns the frame's
    /// phase times; the caller fills in what only it knows (the interval since the last
    /// frame, the input latency) and `record`s it.
    func frame(_ inputs: inout [TimedInput], to time: Double, startedAt frameStart: Double,
               cpuStart: Double, presentNotBefore: Double = -.infinity) -> FrameTiming {
        for i in inputs.indices { inputs[i] = logical(inputs[i]) }
        // A touch may be on its way to the threshold: the sound device opens off the loop.
        if !inputs.isEmpty { sound.prepare(touchBegan: inputs.contains { $0.event.beginsTouch }) }
        let completions = inbox.take(dueBy: time)
        let inputDone = MonotonicClock.now()
        effects = model.frame(&inputs, completions: completions, to: time)
        if effects.events.contains(.feedback) { sound.play() }
        if let outcome = effects.refreshEnded { log(outcome.logLine) }
        if effects.refreshRequest != nil { refreshingOn = settings.refreshSource }
        settings.refreshSource.start(effects, inbox: inbox)
        let updateDone = MonotonicClock.now()
        let shown = render(notBefore: presentNotBefore)
        let presentDone = MonotonicClock.now()
        lastPainted = shown.kind
        // The banner as drawn (its lines measured): the list makes that much room for it.
        if model.banner != nil, let room = painter.bannerRoom { model.setBannerRoom(room, at: time) }
        var timing = FrameTiming(
            frame: 0, frameStart: frameStart, inputDone: inputDone, updateDone: updateDone,
            renderDone: shown.drawn, presentStart: shown.presentStart, presentDone: presentDone,
            interval: 0, latency: nil, state: Self.inPlace(&model) { UIState(model: $0) },
            processCPUTime: ProcessCPUClock.now() - cpuStart)
        // This frame's trip to the screen, if it made one. A frame that committed nothing
        // (nothing new to show) finds the presenter still holding the frame before's
        // number: given it, its touch would be timed to that frame's flip, a picture that
        // does not show it.
        let trip = display.scanoutSequence
        timing.scanoutSequence = trip != lastTrip ? trip : 0
        lastTrip = trip
        return timing
    }

    /// Whether nothing moves and nothing is due to be drawn (`OverscrollModel.isSettled`),
    /// for the loop, which asks every frame.
    var isSettled: Bool { Self.inPlace(&model) { $0.isSettled } }

    /// Reads the model where it is stored. A getter called on `model` through this class
    /// copies the whole model first (a retain and a release of each reference in it); on
    /// an `inout` model it reads in place.
    private static func inPlace<T>(_ model: inout OverscrollModel, _ read: (inout OverscrollModel) -> T) -> T {
        read(&model)
    }

    /// Record a finished frame: profiler always, report when asked for.
    func record(_ timing: FrameTiming) {
        Self.inPlace(&model) { runRecord.record(timing, model: $0, events: effects.events) }
    }

    /// The still end of a live run, from the last frame to now: wall time with no frame.
    func recordIdle(_ seconds: Double) { runRecord.recordIdle(seconds) }

    /// Stop refresh work still running (a command would outlive us otherwise), then write
    /// the report's closing files; safe to call more than once.
    func finish() throws(ReportWriterError) {
        settings.refreshSource.cancelAll()
        refreshingOn?.cancelAll()
        sound.finish()
        try runRecord.finish()
    }

    /// The wall clock moved (`LiveClock.drifted`; `step` of it the system clock's own): the
    /// status line tells times on `clock` from now on, and a reload keeps it (see `apply`).
    func wallClockChanged(to clock: WallClock, step: Double) {
        settings.wallClock = clock
        model.wallClockChanged(to: clock, step: step)
    }

    /// New settings while running (a reload): timers, threshold and timeouts, the refresh
    /// work, flash, sound and status text, and the rows if they changed; the next frame
    /// shows them. What a reload keeps is carried over here, by name: the wall clock read
    /// at start (a reload builds settings with the replay's fixed one), and what the
    /// window and its text cache were made with (rotation, font), which need a restart.
    /// The report and the list's position stay; a refresh already running finishes with
    /// its old work, or goes on on the same source when the command did not change.
    func apply(_ reloaded: AppSettings, at time: Double, warn: (String) -> Void) {
        let old = settings
        var new = reloaded
        new.wallClock = old.wallClock
        new.rotation = old.rotation
        new.fontPath = old.fontPath
        if new.refreshCommand != nil, new.refreshCommand == old.refreshCommand, new.refreshTimeout == old.refreshTimeout {
            new.refreshSource = old.refreshSource
        }
        settings = new
        // The size the model has now, not the window's at start.
        model.reconfigure(new.modelConfiguration(width: model.viewportWidth, height: model.scroll.viewportHeight))
        if new.rows != old.rows { model.replaceContent(new.rows, at: time) }
        if new.sound != old.sound { sound = FeedbackSound(enabled: new.sound, warn: warn) }
        // `mouse = true` on a kiosk: the pointer it hid at start shows again (and hides again).
        if new.acceptMouse != old.acceptMouse { display.mouseTaken(new.acceptMouse) }
        // Flash, status text: drawn from the settings and the model; the whole picture is
        // drawn again so that nothing waits for a touch to show them.
        painter.invalidate()
    }

    /// The scene made from the model, then drawn and shown by the painter in one call
    /// (`Painter.show`), not before `notBefore`.
    @discardableResult
    func render(notBefore: Double = -.infinity) -> Painter.Shown {
        swap(&scene, &previous)
        scene.rowMargin = painter.rowMargin
        Self.inPlace(&model) { scene.update(model: $0) }
        if hudVisible {
            // Settled: nothing moves, and the loop sleeps after this frame until input.
            let idle = Self.inPlace(&model) { $0.isSettled }
            scene.showHUD(profiler, idle: idle, at: MonotonicClock.now())
        } else {
            scene.hideHUD()
        }
        drawnFrames += 1
        return painter.show(scene, since: drawnFrames > 1 ? previous : nil, notBefore: notBefore)
    }

    /// The window's size or density changed: resize the model and re-rasterize text.
    func windowChanged(at time: Double) -> TimedInput {
        painter.invalidate()
        try? painter.setScale(display.pixelScale)
        let size = display.sizeInPoints
        return TimedInput(time: time, event: .resize(width: size.width, height: size.height))
    }
}
