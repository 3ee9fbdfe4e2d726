import CSDL
import CWayland

/// The SDL 2 the program runs on: SDL 2 itself (Debian 12's 2.26, Debian 13's 2.32), or
/// sdl2-compat over SDL 3 (Debian 13's `libsdl2-compat-shim`, what Fedora and Arch ship
/// as SDL 2). The two tricks the program plays on SDL (`SDLTrick`) were written for SDL
/// 2's own Wayland driver and are played only there.
public struct SDLBuild: Sendable, Equatable {
    /// What SDL_GetVersion says: sdl2-compat's own number (2.32.50 and later) under it.
    public let version: String
    /// SDL 3's version (major * 1000000 + minor * 1000 + micro) where sdl2-compat runs
    /// over it, else nil.
    public let sdl3Version: Int?

    public init(version: String, sdl3Version: Int?) {
        self.version = version
        self.sdl3Version = sdl3Version
    }

    /// The SDL loaded in this process (sdl2-compat loads SDL 3 before main).
    public static func current() -> SDLBuild {
        var linked = SDL_version()
        SDL_GetVersion(&linked)
        let three = Int(ovs_sdl3_version())
        return SDLBuild(version: "\(linked.major).\(linked.minor).\(linked.patch)", sdl3Version: three > 0 ? three : nil)
    }

    /// SDL 3's version as text ("3.2.10"), where it is underneath.
    public var sdl3: String? {
        sdl3Version.map { "\($0 / 1_000_000).\($0 / 1000 % 1000).\($0 % 1000)" }
    }

    /// "SDL 2.26.5", or "sdl2-compat 2.32.54 over SDL 3.2.10".
    public var description: String {
        sdl3.map { "sdl2-compat \(version) over SDL \($0)" } ?? "SDL \(version)"
    }

    /// Whether this SDL's Wayland driver damages the whole window at each of its frame
    /// callbacks and arms the next from there, which the cut was written against: SDL 2's
    /// own (surface_damage_frame_done, 2.0.22 on) and SDL 3 up to 3.2 (surface_frame_done,
    /// which also marks the window shown at its first callback: one armed before the cut
    /// starts, so it fires as SDL wrote it). A later SDL 3 is not assumed to be the same.
    public var frameCallbacksDamage: Bool {
        guard let sdl3Version else { return true }
        return sdl3Version < 3_003_000
    }
}

/// A trick the program plays on SDL 2's Wayland driver, and whether it is in effect.
public struct SDLTrick: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// SDL 2 loads OpenGL (Mesa, libLLVM) for every Wayland window not made for
        /// Vulkan; the CPU path's window is made for Vulkan with a stand-in loader that only
        /// answers SDL's one question (`GLFreeWindow`, CWayland/surfaceonly.c).
        case standInVulkanLoader = "the stand-in Vulkan loader (a window without OpenGL)"
        /// SDL 2 damages the whole surface at each of its frame callbacks; the program's
        /// wl_proxy_add_listener gives the CPU path window's callbacks a listener that does
        /// nothing (CWayland/sdldamage.c).
        case frameDamageCut = "the cut of SDL's frame-callback damage (wl_proxy_add_listener)"
    }

    public enum State: Sendable, Equatable {
        /// Played, and seen to work: how that was seen.
        case inEffect(String)
        /// Not played: why (another path, another SDL).
        case notApplied(String)
        /// Played, and it did not work: what was seen; the program runs without it.
        case failed(String)
    }

    public let kind: Kind
    public let state: State

    /// The `--verbose` line.
    public var line: String {
        switch state {
        case .inEffect(let how): return "\(kind.rawValue): in effect: \(how)"
        case .notApplied(let why): return "\(kind.rawValue): not applied: \(why)"
        case .failed(let what): return "\(kind.rawValue): did not take effect, running without it: \(what)"
        }
    }

    public var inEffect: Bool {
        if case .inEffect = state { return true }
        return false
    }

    /// The OpenGL (and Vulkan) libraries loaded in this process; empty where none is. The
    /// stand-in took effect only where SDL made the window and loaded none of them.
    static func graphicsLibrariesLoaded() -> [String] {
        ["libEGL.so.1", "libGL.so.1", "libGLX.so.0", "libOpenGL.so.0", "libGLESv2.so.2", "libvulkan.so.1"]
            .filter { ovs_library_loaded($0) != 0 }
    }
}
