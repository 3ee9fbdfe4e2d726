import CSDL
import RowSources
#if canImport(Glibc)
import Glibc
#endif

/// The largest window the renderer and the memory can keep. `--size` accepts up to
/// 16384×16384 points, but a size inside that range can still be too much for this
/// machine: Mesa's software path segfaults when a buffer cannot be allocated (a 4 GB
/// address-space limit, as a unit's MemoryMax= imposes, and 16384×16384). So a size is
/// checked before the window exists, and refused with words and exit 69 instead.
enum RenderLimits {
    /// Whole-window pixel buffers the app and SDL's drivers keep at once (window surface,
    /// EGL buffers, the renderer's target): measured ≈ 3.6 on the offscreen driver
    /// (RSS +230 MB at 4096×4096, +920 MB at 8192×8192), rounded up.
    static let windowBuffers = 4

    /// Throws when `width`×`height` pixels would not fit the memory this process may use.
    static func checkMemory(width: Int, height: Int) throws(SDLError) {
        let need = width * height * 4 * windowBuffers
        guard let (available, why) = availableBytes(), need > available else { return }
        throw SDLError(message: "a \(width)x\(height) window needs about \(need >> 20) MiB for its pixels, but \(why) leaves \(max(0, available) >> 20) MiB; pass a smaller --size")
    }

    /// Throws when the renderer cannot make a texture the window's size (rotation draws
    /// into one).
    static func checkRenderer(_ renderer: OpaquePointer, width: Int32, height: Int32) throws(SDLError) {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0 else { return }
        let maxW = info.max_texture_width, maxH = info.max_texture_height
        // 0 means no limit (the software renderer).
        if (maxW > 0 && width > maxW) || (maxH > 0 && height > maxH) {
            let name = info.name.map { String(cString: $0) } ?? "renderer"
            throw SDLError(message: "the \(name) renderer draws at most \(maxW)x\(maxH) pixels, not \(width)x\(height); pass a smaller --size")
        }
    }

    /// The least memory left under each limit that applies, and which one it is.
    private static func availableBytes() -> (Int, String)? {
        var candidates: [(Int, String)] = []
        let status = SystemFile.read("/proc/self/status") ?? ""
        let used = kiB(status, "VmSize:") * 1024
        var limit = rlimit()
        if getrlimit(RLIMIT_AS_VALUE, &limit) == 0, limit.rlim_cur != rlim_t.max {
            candidates.append((Int(clamping: limit.rlim_cur) - used, "the address-space limit (ulimit -v)"))
        }
        if let meminfo = SystemFile.read("/proc/meminfo") {
            let free = kiB(meminfo, "MemAvailable:") + kiB(meminfo, "SwapFree:")
            if free > 0 { candidates.append((free * 1024, "the machine's free memory")) }
        }
        if let cgroup = CgroupMemory.current() { candidates.append((cgroup.headroom, "the cgroup's memory limit (MemoryMax=)")) }
        return candidates.min { $0.0 < $1.0 }
    }

    private static func kiB(_ text: String, _ key: String) -> Int {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return 0 }
        return Int(line.dropFirst(key.count).split(separator: " ").first ?? "") ?? 0
    }

}

/// RLIMIT_AS as getrlimit wants it (an enum in glibc's headers, a plain Int32 elsewhere).
#if canImport(Glibc)
private let RLIMIT_AS_VALUE = __rlimit_resource_t(RLIMIT_AS.rawValue)
#else
private let RLIMIT_AS_VALUE = RLIMIT_AS
#endif
