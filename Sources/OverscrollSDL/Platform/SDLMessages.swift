import CSDL
import CWayland
#if canImport(Glibc)
import Glibc
#endif

/// What SDL and the libraries it loads would print on stderr themselves. A window that
/// cannot open says so in one line of ours ("no display to open a window on…"); without
/// this, libwayland-client's "error: XDG_RUNTIME_DIR is invalid or not set in the
/// environment." came first, and SDL's own log lines could too. `--verbose` keeps them
/// (they are then diagnostics worth having).
public enum SDLMessages {
    /// Sends SDL's log and libwayland-client's to nowhere. Called once, before SDL starts.
    public static func silence() {
        SDL_LogSetOutputFunction({ _, _, _, _ in }, nil)
        // libwayland-client is linked, so its log handler is set before its first message.
        ovs_wl_silence_log()
    }
}
