import CSDL
#if canImport(Glibc)
import Glibc
#endif

/// What `--renderer` asks for.
public enum RendererChoice: String, CaseIterable, Sendable {
    /// The GPU where there is a real one, else the CPU.
    case auto
    /// An accelerated SDL renderer (OpenGL, GLES2), whatever rasterizes it.
    case gpu
    /// SDL's window surface, drawn by the CPU: no OpenGL, no Mesa loaded.
    case cpu
}

/// How frames reach the screen. On a machine without a GPU, OpenGL is Mesa's llvmpipe:
/// it spends more CPU than the drawing itself, on threads of its own, and maps 60 MiB of
/// libLLVM. Drawing into the window surface (XShm on X11) costs a fraction of that and
/// lets a frame present only the rectangles that changed.
public enum RenderPath: String, Sendable {
    case cpu
    case gpu

    /// What `createRenderer` made: the renderer, its path and why, and on Wayland's CPU
    /// path the surface it draws into (`WaylandSurface`).
    struct Made {
        var renderer: OpaquePointer
        var path: RenderPath
        var reason: String
        var wayland: WaylandSurface? = nil
    }

    /// The renderer for `window` on the path `choice` leads to, and why that path.
    static func createRenderer(for window: OpaquePointer, choice: RendererChoice, videoDriver: String,
                               vsync: Bool) throws(SDLError) -> Made {
        let forced = SDL_GetHint(SDL_HINT_RENDER_DRIVER).map { String(cString: $0) }
        var why = ""
        switch choice {
        case .cpu:
            if videoDriver == "wayland" {
                guard let made = wayland(window, reason: "asked for (--renderer cpu)", why: &why) else {
                    throw SDLError(message: "cannot draw into wl_shm buffers on Wayland (--renderer cpu): \(why); try --renderer gpu")
                }
                return made
            }
            guard let renderer = software(window) else { throw SDLError("cannot draw into the window surface (--renderer cpu); try --renderer gpu") }
            return Made(renderer: renderer, path: .cpu, reason: "asked for (--renderer cpu)")
        case .gpu:
            guard let renderer = accelerated(window, vsync: vsync, preferring: preferred(videoDriver)) else { throw SDLError("cannot create a renderer") }
            return try drawing(finish(renderer, reason: "asked for (--renderer gpu)"), "--renderer gpu")
        case .auto:
            break
        }
        if let forced, !forced.isEmpty {
            // SDL_RENDER_DRIVER names a renderer: take it as the user's choice.
            if forced.lowercased() == "software", videoDriver == "wayland",
               let made = wayland(window, reason: "SDL_RENDER_DRIVER=\(forced)", why: &why) { return made }
            let renderer = forced.lowercased() == "software" ? software(window) : accelerated(window, vsync: vsync)
            guard let renderer else { throw SDLError("cannot create the '\(forced)' renderer SDL_RENDER_DRIVER asks for") }
            return try drawing(finish(renderer, reason: "SDL_RENDER_DRIVER=\(forced)"), "SDL_RENDER_DRIVER=\(forced)")
        }
        switch videoDriver {
        case "offscreen", "dummy":
            if let renderer = software(window) { return Made(renderer: renderer, path: .cpu, reason: "no display hardware (\(videoDriver) driver)") }
        case "wayland":
            // Without a render node Mesa's EGL can only rasterize in software: do not load it.
            guard hasDRIDevice(renderNodeOnly: true) else {
                if let made = wayland(window, reason: "Wayland without a DRM render node: OpenGL would be a software rasterizer", why: &why) { return made }
                break
            }
            guard let renderer = accelerated(window, vsync: vsync) else {
                // A compositor that draws with pixman offers no EGL to its clients ("EGL not
                // initialized", seen under cage in a VM): the CPU path, not an exit 69.
                let failure = String(cString: SDL_GetError())
                if let made = wayland(window, reason: "OpenGL cannot start (\(failure))", why: &why) { return made }
                break
            }
            let name = glRendererName()
            if isSoftwareRasterizer(name) {
                SDL_DestroyRenderer(renderer)
                if let made = wayland(window, reason: "OpenGL is \(name), a software rasterizer", why: &why) { return made }
                guard let again = accelerated(window, vsync: vsync) else { break }
                return finish(again, reason: "OpenGL is \(name), but wl_shm buffers are unavailable (\(why))")
            }
            return finish(renderer, reason: "OpenGL on \(name)")
        case "x11":
            // Without a DRI device Mesa can only rasterize in software: do not even load it.
            guard hasDRIDevice() else {
                if let renderer = software(window) { return Made(renderer: renderer, path: .cpu, reason: "X11 without a DRI device: OpenGL would be a software rasterizer") }
                break
            }
            guard let renderer = accelerated(window, vsync: vsync) else {
                let failure = String(cString: SDL_GetError())
                if let cpu = software(window) { return Made(renderer: cpu, path: .cpu, reason: "OpenGL cannot start (\(failure))") }
                break
            }
            let name = glRendererName()
            if isSoftwareRasterizer(name) {
                SDL_DestroyRenderer(renderer)
                if let cpu = software(window) { return Made(renderer: cpu, path: .cpu, reason: "OpenGL is \(name), a software rasterizer") }
                guard let again = accelerated(window, vsync: vsync) else { break }
                return finish(again, reason: "OpenGL is \(name), but the window surface is unavailable")
            }
            return finish(renderer, reason: "OpenGL on \(name)")
        default:
            break
        }
        // KMSDRM shows frames through the GPU anyway: use it to draw, with GLES2 first
        // (`preferred`). A renderer that draws nothing is passed over for the next one.
        var refused: [String] = []
        for name in candidates(videoDriver) {
            guard let renderer = name == "software" ? software(window) : accelerated(window, vsync: vsync, only: name) else { continue }
            let made = finish(renderer, reason: "\(videoDriver) shows frames through the GPU" + (name == "opengles2" ? "; OpenGL ES 2 (libEGL and libGLESv2 only)" : ""))
            guard let why = DrawProbe.cannotDraw(made.renderer) else {
                return refused.isEmpty ? made : Made(renderer: made.renderer, path: made.path, reason: made.reason + " (\(refused.joined(separator: "; ")))")
            }
            SDL_DestroyRenderer(made.renderer)
            refused.append("\(name) draws nothing: \(why)")
        }
        guard refused.isEmpty else {
            throw SDLError(message: "no renderer can draw on \(videoDriver) (\(refused.joined(separator: "; "))); "
                + "install Mesa's libgles2, libegl1 and libgbm1, or run it under cage")
        }
        throw SDLError("cannot create a renderer")
    }

    /// Which accelerated renderer to ask for first. On KMSDRM, GLES2: SDL's desktop OpenGL
    /// renderer there needs libGL as well as EGL, which Debian does not pull in with the
    /// EGL/GBM packages a console kiosk installs; without it SDL creates it all the same
    /// and it draws nothing (a black screen that looked healthy, found in a VM).
    static func preferred(_ videoDriver: String) -> String? {
        // SDL 2 names it "KMSDRM" (upper case), SDL 3 "kmsdrm".
        videoDriver.lowercased() == "kmsdrm" ? "opengles2" : nil
    }

    /// The renderers to try in turn on a driver without a CPU path of ours.
    private static func candidates(_ videoDriver: String) -> [String] {
        var names: [String] = []
        if let first = preferred(videoDriver) { names.append(first) }
        for index in 0..<SDL_GetNumRenderDrivers() {
            var info = SDL_RendererInfo()
            guard SDL_GetRenderDriverInfo(index, &info) == 0, let name = info.name.map({ String(cString: $0) }),
                  !names.contains(name) else { continue }
            names.append(name)
        }
        return names
    }

    /// `made`, once it is seen to draw; a renderer someone asked for by name that draws
    /// nothing is an error naming it, never a black screen that reports itself ready.
    private static func drawing(_ made: Made, _ asked: String) throws(SDLError) -> Made {
        guard made.path == .gpu, let why = DrawProbe.cannotDraw(made.renderer) else { return made }
        SDL_DestroyRenderer(made.renderer)
        throw SDLError(message: "the renderer \(asked) asks for draws nothing (\(why)); unset it or choose another (--renderer)")
    }

    /// Whether `createRenderer` will take the wl_shm CPU path on Wayland for `choice`
    /// without asking OpenGL anything: then the window is made without it (`GLFreeWindow`).
    static func drawsWithoutGL(choice: RendererChoice, videoDriver: String) -> Bool {
        guard videoDriver == "wayland" else { return false }
        switch choice {
        case .cpu: return true
        case .gpu: return false
        case .auto:
            if let forced = SDL_GetHint(SDL_HINT_RENDER_DRIVER).map({ String(cString: $0) }), !forced.isEmpty {
                return forced.lowercased() == "software"
            }
            return !hasDRIDevice(renderNodeOnly: true)
        }
    }

    /// The path a renderer actually is: SDL may fall back to its software renderer.
    private static func finish(_ renderer: OpaquePointer, reason: String) -> Made {
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        let name = info.name.map { String(cString: $0) } ?? ""
        return Made(renderer: renderer, path: name == "software" ? .cpu : .gpu, reason: reason)
    }

    /// The CPU path on Wayland: SDL's software renderer drawing into a surface of ours,
    /// shown through wl_shm buffers (`WaylandSurface`); nil, with `why`, where it cannot be.
    private static func wayland(_ window: OpaquePointer, reason: String, why: inout String) -> Made? {
        guard let surface = WaylandSurface(window: window, why: &why) else { return nil }
        guard let renderer = SDL_CreateSoftwareRenderer(surface.surface) else {
            why = "SDL's software renderer refused the surface"
            return nil
        }
        // A window made with OpenGL (where `GLFreeWindow` could not be had, or the GL
        // renderer was asked first) started Mesa: its threads, libGL, libEGL and swrast.
        // Nothing here draws with it, so it is let go at once; libLLVM stays mapped (it
        // cannot be unloaded). A window made without it has nothing to let go.
        SDL_GL_UnloadLibrary()
        return Made(renderer: renderer, path: .cpu,
                    reason: reason + "; frames are drawn by the CPU and shown through wl_shm buffers", wayland: surface)
    }

    private static func isSoftwareRasterizer(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["llvmpipe", "softpipe", "swrast", "software rasterizer"].contains(where: lower.contains)
    }

    /// SDL's software renderer on the window surface (with framebuffer acceleration off,
    /// a plain surface, never a texture).
    private static func software(_ window: OpaquePointer) -> OpaquePointer? {
        for index in 0..<SDL_GetNumRenderDrivers() {
            var info = SDL_RendererInfo()
            guard SDL_GetRenderDriverInfo(index, &info) == 0, let name = info.name, String(cString: name) == "software" else { continue }
            return SDL_CreateRenderer(window, index, SDL_RENDERER_SOFTWARE.rawValue)
        }
        return nil
    }

    /// An accelerated renderer, with vsync if it can: the driver named `only`, else the
    /// one `preferring` names if SDL has it and it starts, else the first SDL offers.
    private static func accelerated(_ window: OpaquePointer, vsync: Bool, preferring: String? = nil, only: String? = nil) -> OpaquePointer? {
        let flags = SDL_RENDERER_ACCELERATED.rawValue
        func create(_ index: Int32) -> OpaquePointer? {
            if vsync, let renderer = SDL_CreateRenderer(window, index, flags | SDL_RENDERER_PRESENTVSYNC.rawValue) { return renderer }
            return SDL_CreateRenderer(window, index, flags)
        }
        if let name = only ?? preferring, let index = driverIndex(name), let renderer = create(index) { return renderer }
        return only == nil ? create(-1) : nil
    }

    private static func driverIndex(_ name: String) -> Int32? {
        for index in 0..<SDL_GetNumRenderDrivers() {
            var info = SDL_RendererInfo()
            if SDL_GetRenderDriverInfo(index, &info) == 0, info.name.map({ String(cString: $0) }) == name { return index }
        }
        return nil
    }

    /// GL_RENDERER of the current OpenGL context ("llvmpipe (LLVM 15.0.6, 256 bits)", …).
    private static func glRendererName() -> String {
        typealias GetString = @convention(c) (UInt32) -> UnsafePointer<UInt8>?
        guard SDL_GL_GetCurrentContext() != nil, let address = SDL_GL_GetProcAddress("glGetString") else { return "unknown" }
        let getString = unsafeBitCast(address, to: GetString.self)
        let glRenderer: UInt32 = 0x1F01
        return getString(glRenderer).map { String(cString: $0) } ?? "unknown"
    }

    /// Whether /dev/dri has a device node (a render node, `renderNodeOnly`): without one
    /// there is no GPU to draw with.
    private static func hasDRIDevice(renderNodeOnly: Bool = false) -> Bool {
        guard let directory = opendir("/dev/dri") else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("renderD") || (!renderNodeOnly && name.hasPrefix("card")) { return true }
        }
        return false
    }
}
