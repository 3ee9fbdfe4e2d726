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
    /// The drawing path taken, and why (for `--verbose` and the report).
    public let path: RenderPath
    /// How many presents put the first frame on the screen (`Platform.firstFramePresents`):
    /// READY=1 waits for the last of them.
    public let firstFramePresents: Int
    /// The window is still hidden until the first frame is presented.
    private var revealOnPresent: Bool
    public private(set) var pathReason: String
    /// What frames are shown through (`Presenter.name`), for `--verbose` and the report.
    public let presenterName: String
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
        if let driver = options.videoDriver { SDL_SetHint(SDL_HINT_VIDEODRIVER, driver) }
        // The window surface is plain memory (XShm on X11), never an OpenGL texture: on a
        // machine without a GPU that texture is Mesa's llvmpipe, which costs more CPU than
        // the drawing itself and 60 MiB of libLLVM.
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        // Touch and mouse are handled separately; never let SDL turn one into the other.
        SDL_SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0")
        SDL_SetHint(SDL_HINT_MOUSE_TOUCH_EVENTS, "0")
        SDL_SetHint(SDL_HINT_VIDEO_MINIMIZE_ON_FOCUS_LOSS, "0")
        // The program takes no text input, yet the input method SDL's X11 driver opens
        // would first parse the locale's Compose table (thousands of lines, 5–10 ms of
        // every start): an empty one while SDL starts, unless the operator chose a file.
        let skipCompose = getenv("XCOMPOSEFILE") == nil
        if skipCompose { setenv("XCOMPOSEFILE", "/dev/null", 1) }
        defer { if skipCompose { unsetenv("XCOMPOSEFILE") } }
        // A screen a presenter takes itself (the console's, without a GPU Mesa draws
        // with) is taken before SDL starts: SDL then starts for input only.
        var note: String?
        let prepared = options.requireVisibleDisplay
            ? try Platforms.prepare(choice: options.renderer, videoDriver: options.videoDriver, output: options.output, note: &note) : nil
        // Mesa's shader cache writes from a thread of its own at the lowest priority
        // (SCHED_BATCH, nice 19). Whichever thread of a process exits last tears its memory
        // down, and on a busy machine that was this one: a run whose compositor died took
        // 1.3-11 s to end after its report was written, 0.7-1.4 s without it (load 22). The
        // renderer's few shaders compile in a moment; the operator's own setting wins. Set
        // before SDL starts: on KMSDRM, SDL starts Mesa (GBM, EGL) with the window, not the renderer.
        let skipShaderCache = getenv("MESA_SHADER_CACHE_DISABLE") == nil
        if skipShaderCache { setenv("MESA_SHADER_CACHE_DISABLE", "true", 1) }
        defer { if skipShaderCache { unsetenv("MESA_SHADER_CACHE_DISABLE") } }
        guard SDL_InitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 else {
            // SDL's words ("kmsdrm not available") say neither why nor the fix: the
            // console's own reason goes with them.
            var error = SDLError("cannot start SDL video")
            if let note { error.description += "; the console: \(note)" }
            throw error
        }
        // SDL's name for the driver it started, read once: its row is what is asked from here on.
        let chosen = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        let platform = Platforms.row(for: chosen)
        let asked = options.videoDriver ?? SDL_GetHint(SDL_HINT_VIDEODRIVER).map { String(cString: $0) }
        // A window nobody can see is refused whether SDL fell back to it or it was asked
        // for (SDL_VIDEODRIVER=offscreen): a kiosk running invisibly looks healthy to
        // systemd while the screen stays dark. Headless work is `replay`'s, which does
        // not require a visible display. A stand-in window (SDL's evdev driver, its dummy
        // one with input) shows frames only through the screen prepared before SDL.
        let shown = switch platform.window {
        case .shown: true
        case .standIn: prepared != nil
        case .headless: false
        }
        if options.requireVisibleDisplay, !shown {
            SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
            if let asked, platform.names(asked) {
                throw SDLError(message: "SDL_VIDEODRIVER=\(chosen) shows no window; unset it (or set \(Platforms.shownNames)), or use 'overscroll replay' headless")
            }
            throw SDLError(message: "no display to open a window on (no X11, Wayland or KMSDRM found\(note.map { "; the console: \($0)" } ?? "")); set DISPLAY, run it on the console with SDL_VIDEODRIVER=kmsdrm, or use 'overscroll replay' headless")
        }
        var flags = SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if options.resizable { flags |= SDL_WINDOW_RESIZABLE.rawValue }
        // A prepared screen's window is its size (SDL's evdev driver has a stand-in display
        // of 1024x768), so that touch (normalized) and the mouse map onto the screen.
        if options.fullscreen && prepared == nil { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        // Where the row says (X11), the window is mapped only with its first frame ready (`present`).
        revealOnPresent = !options.hidden && platform.revealsOnFirstPresent
        flags |= options.hidden || revealOnPresent ? SDL_WINDOW_HIDDEN.rawValue : SDL_WINDOW_SHOWN.rawValue
        let displays = SDL_GetNumVideoDisplays()
        guard options.displayIndex == 0 || options.displayIndex < displays else {
            SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
            throw SDLError(message: "display \(options.displayIndex) does not exist (this machine has \(displays)); pass --display 0…\(max(0, displays - 1))")
        }
        // Before the window: its size in pixels is the size in points times the scale.
        let scale = options.scale.map { DisplayScale(factor: $0, origin: options.scaleOrigin) } ?? prepared?.scale
            ?? DisplayScale.measure(displayIndex: Int32(options.displayIndex), platform: platform, videoDriver: chosen)
        var x = CSDL_WindowPosCenteredDisplay(Int32(options.displayIndex)), y = x
        var width = Int32((Double(options.width) * scale.factor).rounded())
        var height = Int32((Double(options.height) * scale.factor).rounded())
        var bounds = SDL_Rect()
        if let prepared {
            (width, height) = (prepared.width, prepared.height)
        } else if options.fullscreen, SDL_GetDisplayBounds(Int32(options.displayIndex), &bounds) == 0 {
            // Also cover the display ourselves: under a bare X server (a kiosk started
            // with xinit) there is no window manager to honour the fullscreen request.
            (x, y, width, height) = (bounds.x, bounds.y, bounds.w, bounds.h)
            flags |= SDL_WINDOW_BORDERLESS.rawValue
        }
        do { try RenderLimits.checkMemory(width: Int(width), height: Int(height)) } catch {
            SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
            throw error
        }
        // The CPU path on Wayland: a window without OpenGL, so Mesa is never loaded. SDL 2
        // loads it for every window not made for Vulkan: the window is made for Vulkan
        // with a stand-in loader (GLFreeWindow). SDL 3 under sdl2-compat loads OpenGL only
        // for a window made for it: no stand-in there.
        let sdl = SDLBuild.current()
        // What --renderer (or SDL_RENDER_DRIVER) asks, decided once for the window and the presenter.
        let askedPath = PresenterTable.Asked.current(options.renderer)
        let withoutGL = PresenterTable.drawsWithoutGL(platform, asked: askedPath)
        var standIn = SDLTrick.State.notApplied(withoutGL ? "" : "not the CPU path on Wayland")
        var glFree: GLFreeWindow?
        if withoutGL {
            if sdl.sdl3 != nil {
                standIn = .notApplied("\(sdl.description) makes a window without OpenGL by itself")
            } else {
                var why = ""
                glFree = GLFreeWindow(why: &why)
                if glFree == nil { standIn = .failed("no stand-in (\(why)): the window loads OpenGL") }
            }
        }
        var made = SDL_CreateWindow(options.title, x, y, width, height, flags | (glFree?.flag ?? 0))
        if made == nil, let refused = glFree {
            // A window SDL refuses with the stand-in (another SDL, a Vulkan check of its
            // own) is made again without it: with OpenGL, but made.
            let error = SDL_GetError().map { String(cString: $0) } ?? "unknown error"
            refused.release()
            glFree = nil
            standIn = .failed("SDL refused the window made with it (\(error)); made again without it, with OpenGL")
            made = SDL_CreateWindow(options.title, x, y, width, height, flags)
        }
        guard let window = made else {
            let error = SDLError("cannot open a window")
            glFree?.release()
            SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
            throw error
        }
        // Whether it took effect: no OpenGL library loaded by the window.
        let loaded = SDLTrick.graphicsLibrariesLoaded()
        if withoutGL {
            switch (glFree != nil, loaded.isEmpty) {
            case (true, true):
                standIn = .inEffect("SDL made the window with it (\(sdl.description)); no OpenGL library is loaded")
            case (true, false):
                standIn = .failed("SDL made the window with it, yet loaded \(loaded.joined(separator: ", "))")
            case (false, _):
                if case .notApplied(let why) = standIn {
                    standIn = .notApplied(why + (loaded.isEmpty ? "; no OpenGL library is loaded"
                                                                 : ", yet it loaded \(loaded.joined(separator: ", "))"))
                }
            }
        }
        let presenter: any Presenter
        do {
            if let made = options.presenter?(window) {
                presenter = made
            } else {
                let request = PresenterRequest(window: window, platform: platform, videoDriver: chosen, vsync: options.vsync,
                                               prepared: prepared)
                presenter = try PresenterTable.choose(request, asked: askedPath)
            }
        } catch {
            SDL_DestroyWindow(window)
            glFree?.release()
            SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
            throw error
        }
        let renderer = presenter.renderer
        path = presenter.path
        var outputW: Int32 = 0, outputH: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &outputW, &outputH)
        // A compositor that scales windows itself (a Wayland output of scale 2) gives more
        // pixels than window units: the window shrinks by that much, so a point is still
        // `scale` pixels, not `scale` times the compositor's.
        var unitsW: Int32 = 0, unitsH: Int32 = 0
        SDL_GetWindowSize(window, &unitsW, &unitsH)
        if !options.fullscreen, unitsW > 0, outputW > unitsW {
            let density = Double(outputW) / Double(unitsW)
            SDL_SetWindowSize(window, Int32((Double(width) / density).rounded()), Int32((Double(height) / density).rounded()))
            SDL_GetRendererOutputSize(renderer, &outputW, &outputH)
        }
        do { try RenderLimits.checkRenderer(renderer, width: outputW, height: outputH) } catch {
            _ = consume presenter
            SDL_DestroyWindow(window)
            glFree?.release()
            SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
            throw error
        }
        self.window = window
        self.renderer = renderer
        shownBy = presenter
        self.glFree = glFree
        self.scale = scale
        videoDriver = chosen.isEmpty ? "unknown" : chosen
        self.platform = platform
        platformLine = Platforms.why(platform, sdlName: videoDriver, asked: asked, prepared: prepared != nil)
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        renderDriver = info.name.map { String(cString: $0) } ?? "unknown"
        vsync = info.flags & SDL_RENDERER_PRESENTVSYNC.rawValue != 0
        firstFramePresents = platform.firstFramePresents(on: path)
        presenterName = presenter.name
        pathReason = options.pathReason ?? presenter.reason
        if let note { pathReason += "; the console: \(note)" }
        let damageCut = presenter.frameDamageCut ?? .notApplied("not the CPU path on Wayland")
        tricks = [SDLTrick(kind: .standInVulkanLoader, state: standIn), SDLTrick(kind: .frameDamageCut, state: damageCut)]
        if presenter.frameDamageCut != nil {
            pathReason += loaded.isEmpty ? "; the window is made without OpenGL" : "; the window loaded OpenGL"
            // What each trick did, in a word (--verbose says more): the report keeps it.
            pathReason += "; on \(sdl.description): stand-in Vulkan loader \(Self.word(standIn)), SDL's frame-callback damage cut \(Self.word(damageCut))"
        }
        var why = ""
        listRing = presenter.makeListRing(why: &why)
        pathReason += presenter.ringNote(listRing, why: why)
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

    /// Shows what was drawn: `rects` (pixels; nil for the whole window) changed; where
    /// the presenter can, only those reach the display.
    public func present(_ rects: [SDL_Rect]?) {
        reveal()
        presenter.present(rects)
    }

    /// The pixels where the CPU path draws this frame (as large as the window now); nil
    /// on the GPU path, or where they are not 32-bit pixels.
    func windowCanvas() -> WindowCanvas? { presenter.canvas() }

    /// Whether the display is gone (the compositor hung up or refused a request of ours,
    /// the console's device went), as the presenter's present found.
    var connectionBroken: Bool { presenter.displayLost }

    /// What went with the display, for the lost-display line.
    var lossReason: String { presenter.lossReason }

    /// Answers what the screen asked between frames (`Presenter.serviceScreen`); true
    /// when the whole frame is to be drawn again.
    func serviceScreen() -> Bool { presenter.serviceScreen() }

    /// Whether the screen is the program's now (`Presenter.screenIsOurs`).
    var screenIsOurs: Bool { presenter.screenIsOurs }

    /// Gives the screen back at the run's end (`Presenter.releaseScreen`).
    func releaseScreen() { presenter.releaseScreen() }

    /// When frames reach the screen, where the presenter hears it (`Presenter.lastShown`).
    var scanoutSequence: Int { presenter.scanoutSequence }
    func lastShown(waitingMs: Int32) -> Presentation? { presenter.lastShown(waitingMs: waitingMs) }
    public var scanoutClock: String { presenter.scanoutClock }

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
    func reveal() {
        guard revealOnPresent else { return }
        revealOnPresent = false
        SDL_ShowWindow(window)
    }

    /// A new ring for the window's new size (the old one goes first), or none: where the
    /// presenter can show one (`Presenter.makeListRing`).
    func remakeListRing() -> (any ListRing)? {
        listRing = nil
        var why = ""
        listRing = presenter.makeListRing(why: &why)
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
