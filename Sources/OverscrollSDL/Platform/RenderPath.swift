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

    /// The renderer for `window` on the path `choice` leads to, and why that path.
    static func createRenderer(for window: OpaquePointer, choice: RendererChoice, videoDriver: String,
                               vsync: Bool) throws(SDLError) -> (renderer: OpaquePointer, path: RenderPath, reason: String) {
        let forced = SDL_GetHint(SDL_HINT_RENDER_DRIVER).map { String(cString: $0) }
        switch choice {
        case .cpu:
            guard let renderer = software(window) else { throw SDLError("cannot draw into the window surface (--renderer cpu); try --renderer gpu") }
            return (renderer, .cpu, "asked for (--renderer cpu)")
        case .gpu:
            guard let renderer = accelerated(window, vsync: vsync) else { throw SDLError("cannot create a renderer") }
            return finish(renderer, reason: "asked for (--renderer gpu)")
        case .auto:
            break
        }
        if let forced, !forced.isEmpty {
            // SDL_RENDER_DRIVER names a renderer: take it as the user's choice.
            let renderer = forced.lowercased() == "software" ? software(window) : accelerated(window, vsync: vsync)
            guard let renderer else { throw SDLError("cannot create the '\(forced)' renderer SDL_RENDER_DRIVER asks for") }
            return finish(renderer, reason: "SDL_RENDER_DRIVER=\(forced)")
        }
        switch videoDriver {
        case "offscreen", "dummy":
            if let renderer = software(window) { return (renderer, .cpu, "no display hardware (\(videoDriver) driver)") }
        case "x11":
            // Without a DRI device Mesa can only rasterize in software: do not even load it.
            guard hasDRIDevice() else {
                if let renderer = software(window) { return (renderer, .cpu, "X11 without a DRI device: OpenGL would be a software rasterizer") }
                break
            }
            guard let renderer = accelerated(window, vsync: vsync) else { break }
            let name = glRendererName()
            let lower = name.lowercased()
            if ["llvmpipe", "softpipe", "swrast", "software rasterizer"].contains(where: lower.contains) {
                SDL_DestroyRenderer(renderer)
                if let cpu = software(window) { return (cpu, .cpu, "OpenGL is \(name), a software rasterizer") }
                guard let again = accelerated(window, vsync: vsync) else { break }
                return finish(again, reason: "OpenGL is \(name), but the window surface is unavailable")
            }
            return finish(renderer, reason: "OpenGL on \(name)")
        default:
            break
        }
        // Wayland and KMSDRM show frames through the GPU anyway: use it to draw.
        guard let renderer = accelerated(window, vsync: vsync) ?? software(window) else { throw SDLError("cannot create a renderer") }
        return finish(renderer, reason: "\(videoDriver) shows frames through the GPU")
    }

    /// The path a renderer actually is: SDL may fall back to its software renderer.
    private static func finish(_ renderer: OpaquePointer, reason: String) -> (renderer: OpaquePointer, path: RenderPath, reason: String) {
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        let name = info.name.map { String(cString: $0) } ?? ""
        return (renderer, name == "software" ? .cpu : .gpu, reason)
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

    /// The first accelerated renderer SDL offers, with vsync if it can.
    private static func accelerated(_ window: OpaquePointer, vsync: Bool) -> OpaquePointer? {
        let flags = SDL_RENDERER_ACCELERATED.rawValue
        if vsync, let renderer = SDL_CreateRenderer(window, -1, flags | SDL_RENDERER_PRESENTVSYNC.rawValue) { return renderer }
        return SDL_CreateRenderer(window, -1, flags)
    }

    /// GL_RENDERER of the current OpenGL context ("llvmpipe (LLVM 15.0.6, 256 bits)", …).
    private static func glRendererName() -> String {
        typealias GetString = @convention(c) (UInt32) -> UnsafePointer<UInt8>?
        guard SDL_GL_GetCurrentContext() != nil, let address = SDL_GL_GetProcAddress("glGetString") else { return "unknown" }
        let getString = unsafeBitCast(address, to: GetString.self)
        let glRenderer: UInt32 = 0x1F01
        return getString(glRenderer).map { String(cString: $0) } ?? "unknown"
    }

    /// Whether /dev/dri has a device node: without one there is no GPU to draw with.
    private static func hasDRIDevice() -> Bool {
        guard let directory = opendir("/dev/dri") else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("renderD") || name.hasPrefix("card") { return true }
        }
        return false
    }
}
