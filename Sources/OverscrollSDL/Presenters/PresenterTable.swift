import CSDL

/// What a presenter is made for: the window, the platform (`Platform`) and SDL's name for
/// its driver (for words only: the row is what is asked), whether to wait for vblank, and
/// the screen taken before SDL started, if one was (`Platforms.prepare`).
struct PresenterRequest {
    let window: OpaquePointer
    let platform: Platform
    let videoDriver: String
    let vsync: Bool
    var prepared: PreparedScreen? = nil
}

/// One presenter as the table knows it: whether it draws with OpenGL, when `--renderer
/// auto` takes it, and how it is made. Which platforms offer it is their rows'
/// (`Platform.presenters`).
struct PresenterEntry {
    /// When `--renderer auto` takes a presenter that does not need OpenGL.
    enum Auto {
        /// Always (SDL's headless drivers: there is no display hardware to ask); the
        /// reason, given the video driver.
        case always((String) -> String)
        /// Where OpenGL would be a software rasterizer: at once where /dev/dri has no
        /// device node (only a render node counts with `renderNodeOnly`), said as
        /// `noDevice`; else where OpenGL cannot start or names llvmpipe, softpipe, swrast.
        case whereGLIsSoftware(renderNodeOnly: Bool, noDevice: String)
        /// Never: auto takes the GPU (the accelerated renderers in turn, each seen to draw).
        case never
    }

    /// What it is, for the reader of the table.
    let name: String
    /// Whether it draws with OpenGL (the GPU); one that does not never asks OpenGL anything.
    let needsGL: Bool
    let auto: Auto
    /// Whether the window is made without OpenGL when this is taken without asking
    /// OpenGL first (`GLFreeWindow`: SDL 2 loads Mesa for every Wayland window otherwise).
    let windowWithoutGL: Bool
    /// Makes it, saying `reason` why; nil with `why` where it cannot be had.
    let make: (PresenterRequest, _ reason: String, _ why: inout String) -> (any Presenter)?
    /// The error when `--renderer cpu` (or `gpu`, for one that needs OpenGL) asks for it
    /// and it cannot be had, given `why`.
    let refusal: (String) -> SDLError
    /// How its absence is said where OpenGL was a software rasterizer all the same
    /// ("OpenGL is llvmpipe, but …"), given `why`.
    let unavailable: (String) -> String
}

/// Which presenter shows the frames, chosen once at start from the platform's row
/// (`Platform.presenters`, `Platforms.rows`): its first without OpenGL for the CPU path,
/// its first with it for the GPU's, as `--renderer` asks (`Asked`, with SDL_RENDER_DRIVER
/// its one override). A new presenter is an entry here, a folder of its own under
/// Presenters/ and a place in the rows that offer it. Outside Presenters/ this table is
/// what is named, never a presenter type (`ArchitectureClaimsTests` reads Sources/ for one):
/// the rows name its entries, `Display` asks it to choose, the console's preparation and
/// the runners that show frames in memory go through it.
enum PresenterTable {
    /// What `--renderer` asks for, decided once, with SDL_RENDER_DRIVER as its one
    /// override: `choose` and `drawsWithoutGL` both follow from it, so the window made
    /// without OpenGL and the presenter chosen can never disagree.
    enum Asked: Equatable {
        case cpu, gpu
        /// SDL_RENDER_DRIVER names a renderer under `--renderer auto`: the user's choice.
        case renderDriver(String)
        case auto

        init(_ choice: RendererChoice, renderDriver: String?) {
            switch choice {
            case .cpu: self = .cpu
            case .gpu: self = .gpu
            case .auto:
                if let forced = renderDriver, !forced.isEmpty { self = .renderDriver(forced) } else { self = .auto }
            }
        }

        /// As asked of this process: `choice`, and SDL's hint SDL_RENDER_DRIVER.
        static func current(_ choice: RendererChoice) -> Asked {
            Asked(choice, renderDriver: SDL_GetHint(SDL_HINT_RENDER_DRIVER).map { String(cString: $0) })
        }
    }

    // The presenters the rows offer.

    static var consoleScreen: PresenterEntry {
        PresenterEntry(
            name: "the console's own screen: DRM dumb buffers, else fbdev (without a GPU Mesa draws with; SDL for input only)",
            needsGL: false, auto: .always { _ in "" }, windowWithoutGL: false,
            make: { request, _, why in
                guard let prepared = request.prepared else {
                    why = "SDL_VIDEODRIVER=\(request.videoDriver) shows nothing by itself; unset it on the console"
                    return nil
                }
                return prepared.make(&why)
            },
            refusal: { SDLError(message: "cannot show frames through DRM dumb buffers: \($0)") },
            unavailable: { "DRM dumb buffers are unavailable (\($0))" })
    }

    static var wlShm: PresenterEntry {
        PresenterEntry(
            name: "wl_shm buffers", needsGL: false,
            auto: .whereGLIsSoftware(renderNodeOnly: true,
                                     noDevice: "Wayland without a DRM render node: OpenGL would be a software rasterizer"),
            windowWithoutGL: true,
            make: { request, reason, why in SharedMemoryPresenter.onWayland(window: request.window, reason: reason, why: &why) },
            refusal: { SDLError(message: "cannot draw into wl_shm buffers on Wayland (--renderer cpu): \($0); try --renderer gpu") },
            unavailable: { "wl_shm buffers are unavailable (\($0))" })
    }

    static var x11WindowSurface: PresenterEntry {
        PresenterEntry(
            name: "X11's window surface (MIT-SHM, with the list's ring)", needsGL: false,
            auto: .whereGLIsSoftware(renderNodeOnly: false,
                                     noDevice: "X11 without a DRI device: OpenGL would be a software rasterizer"),
            windowWithoutGL: false, make: windowSurface, refusal: windowSurfaceRefusal,
            unavailable: { _ in "the window surface is unavailable" })
    }

    static var headlessWindowSurface: PresenterEntry {
        PresenterEntry(
            name: "SDL's headless window surface", needsGL: false,
            auto: .always { "no display hardware (\($0) driver)" },
            windowWithoutGL: false, make: windowSurface, refusal: windowSurfaceRefusal,
            unavailable: { _ in "the window surface is unavailable" })
    }

    static var windowSurface: PresenterEntry {
        PresenterEntry(
            name: "SDL's window surface", needsGL: false, auto: .never,
            windowWithoutGL: false, make: windowSurface, refusal: windowSurfaceRefusal,
            unavailable: { _ in "the window surface is unavailable" })
    }

    static var accelerated: PresenterEntry {
        PresenterEntry(
            name: "SDL's accelerated renderer (OpenGL, OpenGL ES 2)", needsGL: true, auto: .never,
            windowWithoutGL: false,
            make: { request, reason, _ in
                AcceleratedRenderer.make(request.window, vsync: request.vsync, preferring: request.platform.preferredRenderer)
                    .map { finish($0, request, reason: reason) }
            },
            refusal: { _ in SDLError("cannot create a renderer") }, unavailable: { _ in "OpenGL is unavailable" })
    }

    /// The console's screen taken before SDL starts (`Platform.Preparation.consoleScreen`),
    /// where `choice` and the machine lead to one; `note` says why not, where worth saying.
    static func prepareConsole(choice: RendererChoice, videoDriver: String?, output: String?,
                               note: inout String?) throws(SDLError) -> PreparedScreen? {
        try ConsolePresenter.prepare(choice: choice, videoDriver: videoDriver, output: output, note: &note)
    }

    /// Frames shown through buffers in plain memory (`chain`) at `width` × `height` instead
    /// of a screen's, as the console's DRM path shows them: replay's memory buffers and
    /// overscroll-bench latency. `name` says what they are (nil: "buffers in shared memory").
    static func inMemory(_ chain: any BufferChain, width: Int32, height: Int32, name: String? = nil,
                         reason: String) -> (OpaquePointer) -> (any Presenter)? {
        { _ in
            var why = ""
            return SharedMemoryPresenter(chain: chain, capacity: Int(width) * Int(height) * 4, currentSize: { (width, height) },
                                         name: name ?? "buffers in shared memory", reason: reason,
                                         bufferName: "a buffer in memory", why: &why)
        }
    }

    /// The platform's presenter that draws on the CPU (every row offers one).
    static func cpu(_ platform: Platform) -> PresenterEntry {
        platform.presenters.first { !$0.needsGL }!
    }

    /// The platform's presenter that draws with OpenGL.
    static func gpu(_ platform: Platform) -> PresenterEntry {
        platform.presenters.first { $0.needsGL }!
    }

    /// The presenter for `request` that `asked` leads to, saying why.
    static func choose(_ request: PresenterRequest, asked: Asked) throws(SDLError) -> any Presenter {
        let window = request.window, vsync = request.vsync, videoDriver = request.videoDriver
        let cpu = cpu(request.platform)
        var why = ""
        switch asked {
        case .cpu:
            guard let made = cpu.make(request, "asked for (--renderer cpu)", &why) else { throw cpu.refusal(why) }
            return made
        case .gpu:
            let gpu = gpu(request.platform)
            guard let made = gpu.make(request, "asked for (--renderer gpu)", &why) else { throw gpu.refusal(why) }
            return try drawing(made, "--renderer gpu")
        case .renderDriver(let forced):
            // SDL_RENDER_DRIVER names a renderer: take it as the user's choice.
            let reason = "SDL_RENDER_DRIVER=\(forced)"
            if forced.lowercased() == "software" {
                if let made = cpu.make(request, reason, &why) { return made }
                guard let renderer = AcceleratedRenderer.software(window) else {
                    throw SDLError("cannot create the '\(forced)' renderer SDL_RENDER_DRIVER asks for")
                }
                return finish(renderer, request, reason: reason)
            }
            guard let renderer = AcceleratedRenderer.make(window, vsync: vsync) else {
                throw SDLError("cannot create the '\(forced)' renderer SDL_RENDER_DRIVER asks for")
            }
            return try drawing(finish(renderer, request, reason: reason), reason)
        case .auto:
            break
        }
        switch cpu.auto {
        case .always(let reason):
            if let made = cpu.make(request, reason(videoDriver), &why) { return made }
        case .whereGLIsSoftware(let renderNodeOnly, let noDevice):
            if let made = glUnlessSoftware(request, cpu: cpu, renderNodeOnly: renderNodeOnly, noDevice: noDevice) { return made }
        case .never:
            break
        }
        return try firstThatDraws(request)
    }

    /// OpenGL where it is a GPU's, else the CPU presenter `cpu`; nil where neither can be
    /// had (the accelerated renderers are tried in turn then).
    private static func glUnlessSoftware(_ request: PresenterRequest, cpu: PresenterEntry, renderNodeOnly: Bool,
                                         noDevice: String) -> (any Presenter)? {
        var why = ""
        // Without a device node Mesa can only rasterize in software: do not even load it.
        guard AcceleratedRenderer.hasDRIDevice(renderNodeOnly: renderNodeOnly) else {
            return cpu.make(request, noDevice, &why)
        }
        guard let renderer = AcceleratedRenderer.make(request.window, vsync: request.vsync) else {
            // A compositor that draws with pixman offers no EGL to its clients ("EGL not
            // initialized", seen under cage in a VM): the CPU path, not an exit 69.
            let failure = String(cString: SDL_GetError())
            return cpu.make(request, "OpenGL cannot start (\(failure))", &why)
        }
        let name = AcceleratedRenderer.glRendererName()
        guard AcceleratedRenderer.isSoftwareRasterizer(name) else { return finish(renderer, request, reason: "OpenGL on \(name)") }
        SDL_DestroyRenderer(renderer)
        if let made = cpu.make(request, "OpenGL is \(name), a software rasterizer", &why) { return made }
        guard let again = AcceleratedRenderer.make(request.window, vsync: request.vsync) else { return nil }
        return finish(again, request, reason: "OpenGL is \(name), but \(cpu.unavailable(why))")
    }

    /// A platform whose CPU presenter auto never takes (KMSDRM) shows frames through the
    /// GPU anyway: use it to draw, the row's `preferredRenderer` first (GLES2 on KMSDRM).
    /// A renderer that draws nothing is passed over for
    /// the next one.
    private static func firstThatDraws(_ request: PresenterRequest) throws(SDLError) -> any Presenter {
        let videoDriver = request.videoDriver
        var refused: [String] = []
        for name in AcceleratedRenderer.candidates(preferring: request.platform.preferredRenderer) {
            guard let renderer = name == "software" ? AcceleratedRenderer.software(request.window)
                    : AcceleratedRenderer.make(request.window, vsync: request.vsync, only: name) else { continue }
            if let why = DrawProbe.cannotDraw(renderer) {
                SDL_DestroyRenderer(renderer)
                refused.append("\(name) draws nothing: \(why)")
                continue
            }
            let reason = "\(videoDriver) shows frames through the GPU" + (name == "opengles2" ? "; OpenGL ES 2 (libEGL and libGLESv2 only)" : "")
            return finish(renderer, request, reason: refused.isEmpty ? reason : reason + " (\(refused.joined(separator: "; ")))")
        }
        guard refused.isEmpty else {
            throw SDLError(message: "no renderer can draw on \(videoDriver) (\(refused.joined(separator: "; "))); "
                + "install Mesa's libgles2, libegl1 and libgbm1, or run it under cage")
        }
        throw SDLError("cannot create a renderer")
    }

    /// `made`, once it is seen to draw; a renderer someone asked for by name that draws
    /// nothing is an error naming it, never a black screen that reports itself ready.
    private static func drawing(_ made: any Presenter, _ asked: String) throws(SDLError) -> any Presenter {
        guard made.described.path == .gpu, let why = DrawProbe.cannotDraw(made.renderer) else { return made }
        throw SDLError(message: "the renderer \(asked) asks for draws nothing (\(why)); unset it or choose another (--renderer)")
    }

    /// Whether `choose` will take a presenter whose window is made without OpenGL for
    /// `asked`, without asking OpenGL anything: then the window is made without it
    /// (`GLFreeWindow`).
    static func drawsWithoutGL(_ platform: Platform, asked: Asked) -> Bool {
        let cpu = cpu(platform)
        guard cpu.windowWithoutGL else { return false }
        switch asked {
        case .cpu: return true
        case .gpu: return false
        case .renderDriver(let forced): return forced.lowercased() == "software"
        case .auto:
            switch cpu.auto {
            case .always: return true
            case .whereGLIsSoftware(let renderNodeOnly, _): return !AcceleratedRenderer.hasDRIDevice(renderNodeOnly: renderNodeOnly)
            case .never: return false
            }
        }
    }

    /// The presenter a renderer on the window makes: SDL may fall back to its software
    /// renderer, which draws into the window surface.
    private static func finish(_ renderer: OpaquePointer, _ request: PresenterRequest, reason: String) -> any Presenter {
        AcceleratedRenderer.name(renderer) == "software"
            ? WindowSurfacePresenter(window: request.window, renderer: renderer, reason: reason)
            : RendererPresenter(renderer: renderer, reason: reason)
    }

    /// SDL's window surface, drawn by its software renderer.
    private static func windowSurface(_ request: PresenterRequest, reason: String, why: inout String) -> (any Presenter)? {
        AcceleratedRenderer.software(request.window).map {
            WindowSurfacePresenter(window: request.window, renderer: $0, reason: reason)
        }
    }

    private static func windowSurfaceRefusal(_ why: String) -> SDLError {
        SDLError("cannot draw into the window surface (--renderer cpu); try --renderer gpu")
    }
}
