import CSDL
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// The steps `Display.init` takes to open the window, in its order: SDL's hints, SDL's
/// video started on a platform (refused where nobody would see the window), where the
/// window goes and how large, the window made (without OpenGL where the CPU path draws on
/// Wayland), and the presenter that shows its frames. Each step that fails undoes what
/// SDL did before it.
enum WindowOpening {
    /// How SDL is to behave, told before it starts.
    static func setHints(videoDriver: String?) {
        if let driver = videoDriver { SDL_SetHint(SDL_HINT_VIDEODRIVER, driver) }
        // The window surface is plain memory (XShm on X11), never an OpenGL texture: on a
        // machine without a GPU that texture is Mesa's llvmpipe, which costs more CPU than
        // the drawing itself, and maps libLLVM.
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        // Touch and mouse are handled separately; never let SDL turn one into the other.
        SDL_SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0")
        SDL_SetHint(SDL_HINT_MOUSE_TOUCH_EVENTS, "0")
        SDL_SetHint(SDL_HINT_VIDEO_MINIMIZE_ON_FOCUS_LOSS, "0")
    }

    /// SDL's video started, and the platform whose row names the driver it started;
    /// `asked` is the driver asked for, by the caller or SDL_VIDEODRIVER.
    static func startVideo(_ options: Display.Options, prepared: PreparedScreen?,
                           note: String?) throws(SDLError) -> (chosen: String, platform: Platform, asked: String?) {
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
        return (chosen, platform, asked)
    }

    /// Where the window goes, how large, with which flags, and its pixels per point.
    struct Placement {
        var flags: UInt32
        var x: Int32, y: Int32, width: Int32, height: Int32
        let scale: DisplayScale
        /// The window stays hidden until its first frame is presented.
        let revealOnPresent: Bool

        init(_ options: Display.Options, platform: Platform, chosen: String, prepared: PreparedScreen?) throws(SDLError) {
            flags = SDL_WINDOW_ALLOW_HIGHDPI.rawValue
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
            scale = options.scale.map { DisplayScale(factor: $0, origin: options.scaleOrigin) } ?? prepared?.scale
                ?? DisplayScale.measure(displayIndex: Int32(options.displayIndex), platform: platform, videoDriver: chosen)
            x = CSDL_WindowPosCenteredDisplay(Int32(options.displayIndex))
            y = x
            width = Int32((Double(options.width) * scale.factor).rounded())
            height = Int32((Double(options.height) * scale.factor).rounded())
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
        }
    }

    /// The window SDL made, and whether it was made without OpenGL (the stand-in trick),
    /// with the graphics libraries loaded once it was.
    struct MadeWindow {
        let window: OpaquePointer
        let glFree: GLFreeWindow?
        let standIn: SDLTrick.State
        let loaded: [String]
    }

    /// The CPU path on Wayland: a window without OpenGL, so Mesa is never loaded. SDL 2
    /// loads it for every window not made for Vulkan: the window is made for Vulkan
    /// with a stand-in loader (GLFreeWindow). SDL 3 under sdl2-compat loads OpenGL only
    /// for a window made for it: no stand-in there.
    static func makeWindow(title: String, _ at: Placement, withoutGL: Bool, sdl: SDLBuild) throws(SDLError) -> MadeWindow {
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
        var made = SDL_CreateWindow(title, at.x, at.y, at.width, at.height, at.flags | (glFree?.flag ?? 0))
        if made == nil, let refused = glFree {
            // A window SDL refuses with the stand-in (another SDL, a Vulkan check of its
            // own) is made again without it: with OpenGL, but made.
            let error = SDL_GetError().map { String(cString: $0) } ?? "unknown error"
            refused.release()
            glFree = nil
            standIn = .failed("SDL refused the window made with it (\(error)); made again without it, with OpenGL")
            made = SDL_CreateWindow(title, at.x, at.y, at.width, at.height, at.flags)
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
        return MadeWindow(window: window, glFree: glFree, standIn: standIn, loaded: loaded)
    }

    /// The presenter for the window (the caller's, or the table's choice), once its
    /// renderer's output fits the limits; the window is undone if none can be had.
    static func presenter(for made: MadeWindow, _ options: Display.Options, request: PresenterRequest,
                          asked: PresenterTable.Asked, placement: Placement) throws(SDLError) -> any Presenter {
        let window = made.window
        let presenter: any Presenter
        do {
            if let made = options.presenter?(window) {
                presenter = made
            } else {
                presenter = try PresenterTable.choose(request, asked: asked)
            }
        } catch {
            SDL_DestroyWindow(window)
            made.glFree?.release()
            SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
            throw error
        }
        let renderer = presenter.renderer
        var outputW: Int32 = 0, outputH: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &outputW, &outputH)
        // A compositor that scales windows itself (a Wayland output of scale 2) gives more
        // pixels than window units: the window shrinks by that much, so a point is still
        // `scale` pixels, not `scale` times the compositor's.
        var unitsW: Int32 = 0, unitsH: Int32 = 0
        SDL_GetWindowSize(window, &unitsW, &unitsH)
        if !options.fullscreen, unitsW > 0, outputW > unitsW {
            let density = Double(outputW) / Double(unitsW)
            SDL_SetWindowSize(window, Int32((Double(placement.width) / density).rounded()),
                              Int32((Double(placement.height) / density).rounded()))
            SDL_GetRendererOutputSize(renderer, &outputW, &outputH)
        }
        do { try RenderLimits.checkRenderer(renderer, width: outputW, height: outputH) } catch {
            _ = consume presenter
            SDL_DestroyWindow(window)
            made.glFree?.release()
            SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
            throw error
        }
        return presenter
    }
}

/// An environment variable set for SDL's start only, and only where the operator set
/// none (their own setting wins); `restore` takes it away again.
struct StartVariable {
    let name: String
    let applied: Bool

    init(_ name: String, _ value: String) {
        self.name = name
        applied = getenv(name) == nil
        if applied { setenv(name, value, 1) }
    }

    func restore() { if applied { unsetenv(name) } }
}
