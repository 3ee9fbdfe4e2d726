import CSDL
import FrameReports
import OverscrollKit

/// One running app: the display, the model, the painter and the sound, and the one
/// function that turns a frame's input into a drawn frame. The live loop and replay
/// differ only in where time and input come from.
final class Session {
    let display: Display
    let painter: Painter
    let sound: FeedbackSound
    let settings: AppSettings
    var model: OverscrollModel
    var translator: InputTranslator
    /// Always on: every frame is timed by phase and judged against the refresh period.
    private(set) var profiler: FrameProfiler
    /// Frame-timing report, when one was asked for.
    let report: ReportWriter?
    private let hud: HUDPainter
    var hudVisible = false
    private var tap = ThreeFingerTap()
    /// With a rotation the list is drawn into this texture, then turned onto the window.
    private var rotated: (texture: OpaquePointer, width: Int32, height: Int32)?

    init(display: Display, settings: AppSettings, inbox: RefreshInbox, refreshPeriod: Double,
         report: ReportWriter?, warn: (String) -> Void) throws(SDLError) {
        self.display = display
        self.report = report
        profiler = FrameProfiler(refreshPeriod: refreshPeriod)
        hud = HUDPainter(display: display, capacity: profiler.hudCapacity)
        self.settings = settings
        let window = display.sizeInPoints
        let size = settings.rotation.logicalSize(width: window.width, height: window.height)
        let layout = ListLayout()
        let text = try TextCache(display: display, fontPath: settings.fontPath,
                                 pointSize: layout.fontSize, scale: display.pixelScale)
        painter = Painter(display: display, text: text, scale: display.pixelScale)
        sound = FeedbackSound(enabled: settings.sound, warn: warn)
        model = settings.makeModel(width: size.width, height: size.height, inbox: inbox)
        translator = InputTranslator(acceptMouse: settings.acceptMouse)
    }

    deinit {
        if let rotated { SDL_DestroyTexture(rotated.texture) }
    }

    /// An event in window points, turned into the app's frame. A three-finger tap also
    /// toggles the HUD (a kiosk has no F2).
    func logical(_ input: TimedInput) -> TimedInput {
        let window = display.sizeInPoints
        let turned = TimedInput(time: input.time,
                                event: settings.rotation.toLogical(input.event, windowWidth: window.width, windowHeight: window.height))
        if tap.observe(turned) { hudVisible.toggle() }
        return turned
    }

    /// Whether the app takes this input at all: a touch-only kiosk ignores the mouse and
    /// its wheel. (Live, the translator already drops them; replay feeds events directly.)
    func admits(_ input: TimedInput) -> Bool {
        guard !settings.acceptMouse else { return true }
        switch input.event {
        case .pointerDown(let id, _, _), .pointerMove(let id, _, _), .pointerUp(let id): return id != .mouse
        case .wheel: return false
        case .pointerCancel, .resize: return true
        }
    }

    /// Record a finished frame: profiler always, report when asked for.
    func record(_ timing: FrameTiming) {
        let verdict = profiler.record(timing)
        report?.append(timing, verdict, model: model)
    }

    /// Write the report's closing files; safe to call more than once.
    func finishReport() throws(ReportWriterError) {
        try report?.finish(profiler: profiler)
    }

    /// Apply this frame's inputs (already in the app's frame) at their own times, then
    /// move the model to `time`.
    func update(_ inputs: [TimedInput], to time: Double) {
        model.step(inputs, to: time)
        if model.events.contains(.feedback) { sound.play() }
    }

    func render() {
        let scene = Scene(model: model, flashEnabled: settings.flash)
        guard settings.rotation != .none, let target = rotationTarget() else {
            painter.draw(scene, rows: model.rows, layout: model.configuration.layout)
            drawHUD(width: scene.width, height: scene.height)
            return
        }
        let renderer = display.renderer
        SDL_SetRenderTarget(renderer, target.texture)
        painter.draw(scene, rows: model.rows, layout: model.configuration.layout)
        drawHUD(width: scene.width, height: scene.height)
        SDL_SetRenderTarget(renderer, nil)
        let (w, h) = display.sizeInPixels
        var destination = SDL_Rect(x: Int32(w / 2) - target.width / 2, y: Int32(h / 2) - target.height / 2,
                                   w: target.width, h: target.height)
        SDL_RenderCopyEx(renderer, target.texture, nil, &destination, Double(settings.rotation.rawValue), nil, SDL_FLIP_NONE)
    }

    private func drawHUD(width: Double, height: Double) {
        guard hudVisible else { return }
        hud.draw(profiler: profiler, text: painter.text, scale: painter.scale, width: width, height: height)
    }

    /// The window's size or density changed: resize the model and re-rasterize text.
    func windowChanged(at time: Double) -> TimedInput {
        try? painter.setScale(display.pixelScale)
        let size = display.sizeInPoints
        return TimedInput(time: time, event: .resize(width: size.width, height: size.height))
    }

    /// The off-screen target for a rotated picture, (re)made at the logical pixel size.
    private func rotationTarget() -> (texture: OpaquePointer, width: Int32, height: Int32)? {
        let (w, h) = display.sizeInPixels
        let logical = settings.rotation.logicalSize(width: Double(w), height: Double(h))
        let width = Int32(logical.width), height = Int32(logical.height)
        if let rotated, rotated.width == width, rotated.height == height { return rotated }
        if let rotated { SDL_DestroyTexture(rotated.texture) }
        guard let texture = SDL_CreateTexture(display.renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                              Int32(SDL_TEXTUREACCESS_TARGET.rawValue), width, height) else {
            rotated = nil
            return nil
        }
        rotated = (texture, width, height)
        return rotated
    }
}
