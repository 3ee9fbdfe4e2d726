#if canImport(Glibc)
import Glibc
#endif

/// The platforms, one row each (`Platform`), and the one place SDL's video driver name is
/// read: a new platform is a new row here (and its presenter's folder under Presenters/).
enum Platforms {
    static var rows: [Platform] { [x11, wayland, kmsdrm, console, offscreen, dummy, other] }

    /// The row for the video driver SDL started (or one asked for by name), compared without
    /// case; a driver no row names is `other`'s.
    static func row(for sdlName: String) -> Platform {
        rows.first { $0.names(sdlName) } ?? other
    }

    /// The row whose preparation runs before SDL starts, for the video driver asked for
    /// (SDL_VIDEODRIVER; nil or empty: none), with whether it was asked for by name. With
    /// none asked and neither an X nor a Wayland display set, SDL's first driver to start
    /// is KMSDRM's: that row. nil where nothing is prepared.
    static func preparing(asked: String?, display: String?, waylandDisplay: String?) -> (row: Platform, named: Bool)? {
        if let asked, !asked.isEmpty {
            let row = row(for: asked)
            return row.preparation == .nothing ? nil : (row, true)
        }
        guard (display ?? "").isEmpty && (waylandDisplay ?? "").isEmpty else { return nil }
        return (kmsdrm, false)
    }

    /// The screen taken before SDL starts, where the row this run is headed for prepares
    /// one (`Platform.Preparation`): `note` says why none was, where that is worth saying.
    /// `videoDriver`: the driver asked for by the caller (else SDL_VIDEODRIVER's).
    static func prepare(choice: RendererChoice, videoDriver: String?, output: String?, note: inout String?) throws(SDLError) -> PreparedScreen? {
        let environment = { (name: String) in getenv(name).map { String(cString: $0) } }
        guard let headed = preparing(asked: videoDriver ?? environment("SDL_VIDEODRIVER"), display: environment("DISPLAY"),
                                     waylandDisplay: environment("WAYLAND_DISPLAY")) else { return nil }
        switch headed.row.preparation {
        case .nothing: return nil
        case .consoleScreen: return try PresenterTable.prepareConsole(choice: choice, videoDriver: videoDriver, output: output, note: &note)
        }
    }

    /// The row chosen and why, for `--verbose`: "platform: X11, SDL's video driver x11
    /// (SDL_VIDEODRIVER=x11)".
    static func why(_ row: Platform, sdlName: String, asked: String?, prepared: Bool) -> String {
        let how = prepared ? "told to SDL once the screen was taken before SDL started"
            : asked.flatMap { $0.isEmpty ? nil : "SDL_VIDEODRIVER=\($0)" } ?? "the first driver SDL could start"
        let match = row.sdlNames.isEmpty ? "; no other row names it" : ""
        return "platform: \(row.name), SDL's video driver \(sdlName) (\(how)\(match))"
    }

    /// The names of the drivers whose rows show a window, for the message that says which
    /// to set ("x11, wayland or kmsdrm").
    static var shownNames: String {
        let names = rows.filter { $0.window == .shown }.compactMap(\.sdlNames.first)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }

    // The rows. Every row offers the accelerated renderer last: `--renderer gpu`, and
    // auto where the CPU presenter is not taken.

    /// A GPU path's swap chain (Mesa's software path on KMSDRM, seen in a VM) shows a frame
    /// only when the next one is presented: a kiosk at rest presents one frame and would
    /// stay black, so the first frame is presented twice there and READY=1 waits for it.
    private static let swapChainFirstFrame = (cpu: 1, gpu: 2)

    static var x11: Platform {
        Platform(name: "X11", sdlNames: ["x11"], preparation: .nothing, window: .shown,
                 presenters: [PresenterTable.x11WindowSurface, PresenterTable.accelerated], preferredRenderer: nil,
                 input: .sdlQueueWhenSent, loss: .serverIOError,
                 scale: .init(sdlSource: "X11 RandR", xScreenMillimetres: true),
                 // Mapped with its first frame ready: mapped at once, it would show black
                 // while the fonts open and the first rows are laid out.
                 revealsOnFirstPresent: true, firstFramePresents: swapChainFirstFrame)
    }

    static var wayland: Platform {
        Platform(name: "Wayland", sdlNames: ["wayland"], preparation: .nothing, window: .shown,
                 presenters: [PresenterTable.wlShm, PresenterTable.accelerated], preferredRenderer: nil,
                 input: .sdlQueue, loss: .connectionError,
                 scale: .init(sdlSource: "Wayland wl_output", xScreenMillimetres: false),
                 revealsOnFirstPresent: false, firstFramePresents: swapChainFirstFrame)
    }

    /// SDL's KMSDRM: GBM, EGL, GLES2 on a console with a GPU Mesa draws with. GLES2 first:
    /// SDL's desktop OpenGL renderer there needs libGL as well as EGL, which Debian does not
    /// pull in with the EGL/GBM packages a console kiosk installs; without it SDL creates
    /// it all the same and it draws nothing (a black screen that looked healthy, in a VM).
    static var kmsdrm: Platform {
        Platform(name: "the console through SDL's KMSDRM (GBM, EGL)", sdlNames: ["kmsdrm"], preparation: .consoleScreen,
                 window: .shown, presenters: [PresenterTable.windowSurface, PresenterTable.accelerated],
                 preferredRenderer: "opengles2", input: .libinput, loss: .presentFails,
                 scale: .init(sdlSource: "the KMSDRM connector", xScreenMillimetres: false),
                 revealsOnFirstPresent: false, firstFramePresents: swapChainFirstFrame)
    }

    /// The console's own screen, taken before SDL (`Preparation.consoleScreen`): SDL's
    /// `evdev` driver, its dummy one with input, never loads GBM or EGL.
    static var console: Platform {
        Platform(name: "the console's own screen (SDL's evdev driver, for input only)", sdlNames: ["evdev"], preparation: .nothing,
                 window: .standIn, presenters: [PresenterTable.consoleScreen, PresenterTable.accelerated],
                 preferredRenderer: nil, input: .libinput, loss: .presentFails,
                 scale: .init(sdlSource: nil, xScreenMillimetres: false),
                 revealsOnFirstPresent: false, firstFramePresents: swapChainFirstFrame)
    }

    static var offscreen: Platform { headless("offscreen") }
    static var dummy: Platform { headless("dummy") }

    private static func headless(_ driver: String) -> Platform {
        Platform(name: "headless (SDL's \(driver) driver)", sdlNames: [driver], preparation: .nothing, window: .headless,
                 presenters: [PresenterTable.headlessWindowSurface, PresenterTable.accelerated], preferredRenderer: nil,
                 input: .sdlQueue, loss: .presentFails, scale: .init(sdlSource: nil, xScreenMillimetres: false),
                 revealsOnFirstPresent: false, firstFramePresents: swapChainFirstFrame)
    }

    /// Any other driver SDL has: its window surface where asked for, else the GPU.
    static var other: Platform {
        Platform(name: "another SDL video driver", sdlNames: [], preparation: .nothing, window: .shown,
                 presenters: [PresenterTable.windowSurface, PresenterTable.accelerated], preferredRenderer: nil,
                 input: .sdlQueue, loss: .presentFails, scale: .init(sdlSource: nil, xScreenMillimetres: false),
                 revealsOnFirstPresent: false, firstFramePresents: swapChainFirstFrame)
    }
}
