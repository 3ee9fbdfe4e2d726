import CSDL
#if canImport(Glibc)
import Glibc
#endif

/// Making SDL's accelerated renderers (OpenGL, OpenGL ES 2) and asking what rasterizes
/// them: what `PresenterTable` needs to choose between the GPU and a CPU presenter.
enum AcceleratedRenderer {
    /// The renderers to try in turn on a platform without a CPU path of ours: the one its
    /// row prefers (`Platform.preferredRenderer`) first, then SDL's order.
    static func candidates(preferring first: String?) -> [String] {
        var names: [String] = []
        if let first { names.append(first) }
        for index in 0..<SDL_GetNumRenderDrivers() {
            var info = SDL_RendererInfo()
            guard SDL_GetRenderDriverInfo(index, &info) == 0, let name = info.name.map({ String(cString: $0) }),
                  !names.contains(name) else { continue }
            names.append(name)
        }
        return names
    }

    /// An accelerated renderer, with vsync if it can: the driver named `only`, else the
    /// one `preferring` names if SDL has it and it starts, else the first SDL offers.
    static func make(_ window: OpaquePointer, vsync: Bool, preferring: String? = nil, only: String? = nil) -> OpaquePointer? {
        let flags = SDL_RENDERER_ACCELERATED.rawValue
        func create(_ index: Int32) -> OpaquePointer? {
            if vsync, let renderer = SDL_CreateRenderer(window, index, flags | SDL_RENDERER_PRESENTVSYNC.rawValue) { return renderer }
            return SDL_CreateRenderer(window, index, flags)
        }
        if let name = only ?? preferring, let index = driverIndex(name), let renderer = create(index) { return renderer }
        return only == nil ? create(-1) : nil
    }

    /// SDL's software renderer on the window surface (with framebuffer acceleration off,
    /// a plain surface, never a texture).
    static func software(_ window: OpaquePointer) -> OpaquePointer? {
        for index in 0..<SDL_GetNumRenderDrivers() {
            var info = SDL_RendererInfo()
            guard SDL_GetRenderDriverInfo(index, &info) == 0, let name = info.name, String(cString: name) == "software" else { continue }
            return SDL_CreateRenderer(window, index, SDL_RENDERER_SOFTWARE.rawValue)
        }
        return nil
    }

    private static func driverIndex(_ name: String) -> Int32? {
        for index in 0..<SDL_GetNumRenderDrivers() {
            var info = SDL_RendererInfo()
            if SDL_GetRenderDriverInfo(index, &info) == 0, info.name.map({ String(cString: $0) }) == name { return index }
        }
        return nil
    }

    /// The renderer's name as SDL gives it ("opengl", "opengles2", "software").
    static func name(_ renderer: OpaquePointer) -> String {
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        return info.name.map { String(cString: $0) } ?? ""
    }

    static func isSoftwareRasterizer(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["llvmpipe", "softpipe", "swrast", "software rasterizer"].contains(where: lower.contains)
    }

    /// GL_RENDERER of the current OpenGL context ("llvmpipe (LLVM 15.0.6, 256 bits)", …).
    static func glRendererName() -> String {
        typealias GetString = @convention(c) (UInt32) -> UnsafePointer<UInt8>?
        guard SDL_GL_GetCurrentContext() != nil, let address = SDL_GL_GetProcAddress("glGetString") else { return "unknown" }
        let getString = unsafeBitCast(address, to: GetString.self)
        let glRenderer: UInt32 = 0x1F01
        return getString(glRenderer).map { String(cString: $0) } ?? "unknown"
    }

    /// Whether /dev/dri has a device node (a render node, `renderNodeOnly`): without one
    /// there is no GPU to draw with.
    static func hasDRIDevice(renderNodeOnly: Bool = false) -> Bool {
        guard let directory = opendir("/dev/dri") else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("renderD") || (!renderNodeOnly && name.hasPrefix("card")) { return true }
        }
        return false
    }
}
