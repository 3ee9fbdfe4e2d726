import CSDL
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// SDL's video side: initialisation, the window and its renderer. Created once, freed in
/// `deinit`, in the order SDL wants.
public final class Display {
    public struct Options {
        public var title = "Overscroll"
        public var width = 480
        public var height = 800
        public var resizable = true
        public var fullscreen = false
        public var hidden = false
        /// Forced video driver ("offscreen" for headless replay); nil lets SDL choose.
        public var videoDriver: String?
        /// Which drawing path: the CPU (SDL's window surface, buffers of ours) or the GPU
        /// (an accelerated SDL renderer); `.auto` decides from what the machine has
        /// (`PresenterTable.choose`, from the platform's row).
        public var renderer: RendererChoice = .auto
        /// Refuse SDL's headless drivers unless asked for by name: with no X, Wayland or
        /// KMSDRM display SDL falls back to "offscreen", and a window nobody can see
        /// would run for ever.
        public var requireVisibleDisplay = false
        public var vsync = true
        /// Which display to open on (kiosks with several outputs).
        public var displayIndex = 0
        /// On the console's own screen, the output (connector name, "HDMI-A-1") to show
        /// on; nil: the first connected.
        public var output: String?
        /// Hide the pointer (a touch kiosk has none).
        public var hideCursor = false
        /// A kiosk: the pointer shows exactly while the mouse is taken, also after a reload
        /// turns `mouse` on or off (`mouseTaken`).
        public var pointerFollowsMouse = false
        /// Why the path was taken, when the caller decided it rather than the machine
        /// (a headless run always draws on the CPU, whatever `--renderer` says).
        public var pathReason: String?
        /// Pixels per point (`--scale`); nil: from the display's physical size.
        public var scale: Double?
        /// Where `scale` came from, for the start-up line.
        public var scaleOrigin = "--scale"

        /// A presenter made by the caller for the window instead of the table's choice:
        /// tests show frames through buffers in memory (a `BufferChain` of their own).
        var presenter: ((OpaquePointer) -> (any Presenter)?)?

        public init() {}

        /// Headless: SDL's offscreen driver with the software renderer, hidden, unpaced.
        /// Replay, the benchmarks and the pixel tests all draw this way, so their pixels
        /// are the same on every machine. (`SDL_VIDEODRIVER` still wins, e.g. `dummy`.)
        public static func headless(width: Int, height: Int) -> Options {
            var options = Options()
            options.width = width
            options.height = height
            options.resizable = false
            options.videoDriver = Platforms.offscreen.sdlNames[0]
            options.renderer = .cpu
            options.pathReason = "headless: a run with no window always draws on the CPU (--renderer applies to a window)"
            options.hidden = true
            options.vsync = false
            return options
        }
    }

    public let window: OpaquePointer
    public let renderer: OpaquePointer
    public let videoDriver: String
    /// The platform SDL started on (`Platforms.rows`): what the rest of the program reads
    /// instead of SDL's driver name.
    let platform: Platform
    /// Which row, and why, for `--verbose`.
    public let platformLine: String
    public let renderDriver: String
    public let vsync: Bool
    /// The drawing path taken (`presenting.path`): what the painter and the text draw for.
    public var path: RenderPath { presenting.path }
    /// How many presents put the first frame on the screen (`Platform.firstFramePresents`):
    /// READY=1 waits for the last of them.
    public let firstFramePresents: Int
    /// The window is still hidden until the first frame is presented.
    private var revealOnPresent: Bool
    /// What frames are shown through, on which path, why, and what the scanout times are
    /// (`PresenterDescription`), for `--verbose`, the start line and the report: the
    /// presenter's, its reason with what the window and the list's ring made of it.
    public let presenting: PresenterDescription
    /// Pixels per point, and why.
    public let scale: DisplayScale
    /// The list's ring (`ListRing`), where the display can show one; the painter takes it.
    private(set) var listRing: (any ListRing)?
    /// How frames reach the screen (`Presenter`, chosen by `PresenterTable`). Optional
    /// only so that `deinit` lets it go before the window.
    private var shownBy: (any Presenter)?
    private var presenter: any Presenter { shownBy! }
    /// The stand-in SDL made the window without OpenGL with, if it did (`GLFreeWindow`).
    private var glFree: GLFreeWindow?
    /// The tricks played on SDL, each with whether it is in effect (for `--verbose`).
    public let tricks: [SDLTrick]

    public init(_ options: Options) throws(SDLError) {
        // The signal mask is not touched here: the program clears it at start
        // (`SignalHandling.installProcessDefaults`) and keeps SIGINT/SIGTERM blocked while
        // SDL starts (`SignalHandling.openingSDL`); unblocking them here let one sent in
        // those milliseconds end the process by its default action.
        pointerFollowsMouse = options.pointerFollowsMouse
        WindowOpening.setHints(videoDriver: options.videoDriver)
        // The program takes no text input, yet the input method SDL's X11 driver opens
        // would first parse the locale's Compose table (thousands of lines, a cost to every
        // start: docs/performance.md, "Figures behind the code's comments"): an empty one
        // while SDL starts, unless the operator chose a file.
        let compose = StartVariable("XCOMPOSEFILE", "/dev/null")
        defer { compose.restore() }
        // A screen a presenter takes itself (the console's, without a GPU Mesa draws
        // with) is taken before SDL starts: SDL then starts for input only.
        var note: String?
        let prepared = options.requireVisibleDisplay
            ? try Platforms.prepare(choice: options.renderer, videoDriver: options.videoDriver, output: options.output, note: &note) : nil
        // Mesa's shader cache writes from a thread of its own at the lowest priority
        // (SCHED_BATCH, nice 19), and whichever thread of a process exits last tears its
        // memory down: on a busy machine a run whose compositor died was seconds slower to
        // end with it (docs/performance.md, "Figures behind the code's comments"). The
        // renderer's few shaders compile in a moment; the operator's own setting wins. Set
        // before SDL starts: on KMSDRM, SDL starts Mesa (GBM, EGL) with the window.
        let shaderCache = StartVariable("MESA_SHADER_CACHE_DISABLE", "true")
        defer { shaderCache.restore() }
        let (chosen, platform, asked) = try WindowOpening.startVideo(options, prepared: prepared, note: note)
        let placement = try WindowOpening.Placement(options, platform: platform, chosen: chosen, prepared: prepared)
        revealOnPresent = placement.revealOnPresent
        let sdl = SDLBuild.current()
        // What --renderer (or SDL_RENDER_DRIVER) asks, decided once for the window and the presenter.
        let askedPath = PresenterTable.Asked.current(options.renderer)
        let made = try WindowOpening.makeWindow(title: options.title, placement,
                                                withoutGL: PresenterTable.drawsWithoutGL(platform, asked: askedPath), sdl: sdl)
        let request = PresenterRequest(window: made.window, platform: platform, videoDriver: chosen, vsync: options.vsync,
                                       prepared: prepared)
        let presenter = try WindowOpening.presenter(for: made, options, request: request, asked: askedPath, placement: placement)
        let renderer = presenter.renderer
        self.window = made.window
        self.renderer = renderer
        shownBy = presenter
        self.glFree = made.glFree
        self.scale = placement.scale
        videoDriver = chosen.isEmpty ? "unknown" : chosen
        self.platform = platform
        platformLine = Platforms.why(platform, sdlName: videoDriver, asked: asked, prepared: prepared != nil)
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        renderDriver = info.name.map { String(cString: $0) } ?? "unknown"
        vsync = info.flags & SDL_RENDERER_PRESENTVSYNC.rawValue != 0
        var presenting = presenter.described
        firstFramePresents = platform.firstFramePresents(on: presenting.path)
        if let reason = options.pathReason { presenting.reason = reason }
        if let note { presenting.reason += "; the console: \(note)" }
        let damageCut = presenting.frameDamageCut ?? .notApplied("not the CPU path on Wayland")
        tricks = [SDLTrick(kind: .standInVulkanLoader, state: made.standIn), SDLTrick(kind: .frameDamageCut, state: damageCut)]
        if presenting.frameDamageCut != nil {
            presenting.reason += made.loaded.isEmpty ? "; the window is made without OpenGL" : "; the window loaded OpenGL"
            // What each trick did, in a word (--verbose says more): the report keeps it.
            presenting.reason += "; on \(sdl.description): stand-in Vulkan loader \(Self.word(made.standIn)), SDL's frame-callback damage cut \(Self.word(damageCut))"
        }
        var ringNote = ""
        listRing = presenter.makeListRing(note: &ringNote)
        presenting.reason += ringNote
        self.presenting = presenting
        if options.hideCursor { SDL_ShowCursor(SDL_DISABLE) }
        // A kiosk must not blank while people are looking at it; SDL already inhibits the
        // screen saver by default, say so explicitly.
        SDL_DisableScreenSaver()
    }

    /// A trick's state in a word or two, for the path reason.
    private static func word(_ state: SDLTrick.State) -> String {
        switch state {
        case .inEffect: return "in effect"
        case .notApplied: return "not applied"
        case .failed: return "not in effect"
        }
    }

    /// Whether the pointer follows the mouse setting (a kiosk's).
    public let pointerFollowsMouse: Bool

    /// The mouse is taken now, or no longer: a kiosk shows or hides its pointer.
    public func mouseTaken(_ taken: Bool) {
        guard pointerFollowsMouse else { return }
        SDL_ShowCursor(taken ? SDL_ENABLE : SDL_DISABLE)
    }

    deinit {
        // The ring detaches from the X server through SDL's connection: before SDL closes it.
        listRing = nil
        // The renderer, and any buffers of the presenter's, go before SDL closes the
        // connection and the window.
        shownBy = nil
        SDL_DestroyWindow(window)
        glFree?.release()
        SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
    }

    /// Whether what was drawn last frame is still there to draw over (`Presenter`): then a
    /// frame repaints only what changed.
    public var keepsPixels: Bool { presenter.keepsPixels }
    /// A present is shown when it comes, at no refresh (`Presenter.showsAtOnce`).
    public var showsAtOnce: Bool { presenter.showsAtOnce }

    /// Shows what was drawn: the frame's value (`PresentedFrame`: its damage, its ring's
    /// frame) goes to the presenter as it is; where it can, only what changed reaches the
    /// display.
    func present(_ frame: PresentedFrame) {
        reveal()
        presenter.present(frame)
    }

    /// The pixels where the CPU path draws this frame (as large as the window now); nil
    /// on the GPU path, or where they are not 32-bit pixels.
    func windowCanvas() -> WindowCanvas? { presenter.canvas() }

    /// Why the display is gone (the compositor hung up or refused a request of ours, the
    /// console's device went), as the presenter's present found; nil while it is there.
    var loss: String? { presenter.loss }

    /// Why no frame can be shown at all (`Presenter.cannotShow`).
    var cannotShow: String? { presenter.cannotShow }

    /// The presenter's lines for the journal since the last call (`Presenter.takeNotes`).
    func takeNotes() -> [String] { presenter.takeNotes() }

    /// The console's VT, where the presenter holds one (`Presenter.terminal`).
    var terminal: (any PresenterTerminal)? { presenter.terminal }

    /// When frames reach the screen, where the presenter hears it (`Presenter.lastShown`).
    var scanoutSequence: Int { presenter.scanoutSequence }
    func lastShown(waitingMs: Int32) -> Presentation? { presenter.lastShown(waitingMs: waitingMs) }

    /// The window's size in points (layout units): its pixels over the scale.
    public var sizeInPoints: (width: Double, height: Double) {
        let pixels = sizeInPixels
        return (Double(max(1, pixels.width)) / scale.factor, Double(max(1, pixels.height)) / scale.factor)
    }

    /// Points per unit of SDL's window coordinates (the mouse's): 1 / scale where the two
    /// are pixels, less where a compositor scales the window itself.
    public var pointsPerWindowUnit: Double {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(window, &w, &h)
        return w > 0 ? sizeInPoints.width / Double(w) : 1 / scale.factor
    }

    /// Maps the window if it waits for its first frame (`Platform.revealsOnFirstPresent`).
    private func reveal() {
        guard revealOnPresent else { return }
        revealOnPresent = false
        SDL_ShowWindow(window)
    }

    /// A new ring for the window's new size (the old one goes first), or none: where the
    /// presenter can show one (`Presenter.makeListRing`).
    func remakeListRing() -> (any ListRing)? {
        listRing = nil
        var note = ""
        listRing = presenter.makeListRing(note: &note)
        return listRing
    }

    /// Starts a frame for a screen turned by `rotation` (`Presenter.beginTurned`): drawn
    /// at the app's own size until `finishTurned`; false where it is drawn unturned.
    func beginTurned(_ rotation: ScreenRotation) -> Bool { presenter.beginTurned(rotation) }

    /// Turns the frame drawn since `beginTurned` onto the screen.
    func finishTurned(_ rotation: ScreenRotation) { presenter.finishTurned(rotation) }

    /// The frame's size in pixels.
    public var sizeInPixels: (width: Int, height: Int) { presenter.sizeInPixels }

    /// Pixels per point (`scale`'s factor): what the painter and the text draw at.
    public var pixelScale: Double { scale.factor }

    /// The display's refresh period, measured from the mode SDL reports; 60 Hz if unknown.
    public var refreshPeriod: Double {
        if let period = presenter.refreshPeriod { return period }
        var mode = SDL_DisplayMode()
        let index = SDL_GetWindowDisplayIndex(window)
        if index >= 0, SDL_GetCurrentDisplayMode(index, &mode) == 0, mode.refresh_rate > 0 {
            return 1 / Double(mode.refresh_rate)
        }
        return 1.0 / 60
    }
}
