import CSDL
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
        // libwayland-client is loaded here (SDL would load it while looking for a
        // compositor) so that its log handler is set before its first message; SDL's own
        // dlopen then finds this copy, handler and all.
        // wl_log_func_t is (const char *format, va_list): a handler that reads neither
        // argument may take them as two pointers (a va_list parameter is passed as one).
        typealias Handler = @convention(c) (UnsafeRawPointer?, UnsafeRawPointer?) -> Void
        typealias SetHandler = @convention(c) (Handler) -> Void
        guard let library = dlopen("libwayland-client.so.0", RTLD_NOW),
              let set = dlsym(library, "wl_log_set_handler_client") else { return }
        unsafeBitCast(set, to: SetHandler.self)({ _, _ in })
    }
}
