import CSDL
#if canImport(Glibc)
import Glibc
#endif

/// The display server under SDL's window: which one it is, its connection's socket, and
/// the screen's real size. SDL brings libX11 and libwayland-client (Debian's libSDL2 links
/// both, so both are loaded in every run); their functions are looked up in the copies it
/// loaded (RTLD_NOLOAD), so the program links neither and calls the copy SDL's window uses.
struct NativeDisplay {
    enum Kind: Equatable {
        case x11, wayland, other
    }

    let kind: Kind
    let connection: OpaquePointer?
    /// The connection's socket, watched for the server hanging up; -1 when unknown.
    let socket: Int32
    private let x11: X11Functions?

    init(window: OpaquePointer) {
        var subsystem: Int32 = 0
        var raw: UnsafeMutableRawPointer?
        guard CSDL_NativeConnection(window, &subsystem, &raw) != 0, let raw else {
            (kind, connection, socket, x11) = (.other, nil, -1, nil)
            return
        }
        connection = OpaquePointer(raw)
        switch subsystem {
        case CSDL_SYSWM_X11:
            kind = .x11
            x11 = X11Functions()
            socket = x11?.connectionNumber(connection) ?? -1
        case CSDL_SYSWM_WAYLAND:
            kind = .wayland
            x11 = nil
            typealias GetFD = @convention(c) (OpaquePointer?) -> Int32
            socket = Self.symbol("libwayland-client.so.0", "wl_display_get_fd", as: GetFD.self)?(connection) ?? -1
        default:
            (kind, socket, x11) = (.other, -1, nil)
        }
    }

    /// A name for messages: "X server :1" or "Wayland compositor wayland-0".
    var serverName: String {
        switch kind {
        case .x11: "X server \(getenv("DISPLAY").map { String(cString: $0) } ?? "")"
        case .wayland: "Wayland compositor \(getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0")"
        case .other: "display"
        }
    }

    /// The X screen's size as the server has it now (one round trip). SDL keeps the size it
    /// saw at start, so a screen resized under it (xrandr, a monitor swapped) is only seen
    /// here. nil on other servers, where the compositor resizes the window itself.
    func screenSize() -> (width: Int, height: Int)? {
        guard kind == .x11, let x11, let connection else { return nil }
        return x11.rootSize(connection)
    }

    /// Whether the server may have sent something not yet handled: on X11, events Xlib
    /// already read (XEventsQueued with QueuedAlready reads nothing) or bytes waiting on the
    /// socket (one poll); elsewhere always true. Pumping SDL's events costs a handful of
    /// reads that find nothing on most frames of an animation.
    func mayHaveInput() -> Bool {
        guard kind == .x11, let x11, let connection, socket >= 0 else { return true }
        if x11.eventsQueued(connection, 0) > 0 { return true }      // 0: QueuedAlready
        var fd = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) != 0
    }

    /// Whether the Wayland connection has failed (the compositor hung up, or refused a
    /// request): SDL then turns its next pump into SDL_QUIT, which must not pass for a stop.
    /// Always false on X11, whose loss Xlib reports itself (`onXConnectionLost`).
    var connectionBroken: Bool {
        guard kind == .wayland, let connection else { return false }
        typealias GetError = @convention(c) (OpaquePointer?) -> Int32
        return (Self.symbol("libwayland-client.so.0", "wl_display_get_error", as: GetError.self)?(connection) ?? 0) != 0
    }

    /// Replaces Xlib's fatal I/O error handler (which prints and exits 1) with `handler`,
    /// which must not return.
    func onXConnectionLost(_ handler: @convention(c) (OpaquePointer?) -> Int32) {
        x11?.setIOErrorHandler(handler)
    }

    static func symbol<T>(_ library: String, _ name: String, as: T.Type) -> T? {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD) else { return nil }
        defer { dlclose(handle) }    // SDL holds its own reference: the library stays loaded
        guard let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
}

/// The few Xlib calls needed, from the libX11 SDL loaded.
private struct X11Functions {
    typealias ConnectionNumber = @convention(c) (OpaquePointer?) -> Int32
    typealias DefaultRootWindow = @convention(c) (OpaquePointer?) -> UInt
    typealias GetGeometry = @convention(c) (OpaquePointer?, UInt, UnsafeMutablePointer<UInt>?,
                                            UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
                                            UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?,
                                            UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?) -> Int32
    typealias EventsQueued = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias IOErrorHandler = @convention(c) (OpaquePointer?) -> Int32
    typealias SetIOErrorHandler = @convention(c) (IOErrorHandler?) -> IOErrorHandler?

    let connectionNumber: ConnectionNumber
    let defaultRootWindow: DefaultRootWindow
    let getGeometry: GetGeometry
    let setIOErrorHandlerFunction: SetIOErrorHandler
    let eventsQueued: EventsQueued

    init?() {
        let lib = "libX11.so.6"
        guard let a = NativeDisplay.symbol(lib, "XConnectionNumber", as: ConnectionNumber.self),
              let b = NativeDisplay.symbol(lib, "XDefaultRootWindow", as: DefaultRootWindow.self),
              let c = NativeDisplay.symbol(lib, "XGetGeometry", as: GetGeometry.self),
              let d = NativeDisplay.symbol(lib, "XSetIOErrorHandler", as: SetIOErrorHandler.self),
              let e = NativeDisplay.symbol(lib, "XEventsQueued", as: EventsQueued.self) else { return nil }
        (connectionNumber, defaultRootWindow, getGeometry, setIOErrorHandlerFunction, eventsQueued) = (a, b, c, d, e)
    }

    func rootSize(_ display: OpaquePointer) -> (width: Int, height: Int)? {
        var root: UInt = 0, x: Int32 = 0, y: Int32 = 0
        var width: UInt32 = 0, height: UInt32 = 0, border: UInt32 = 0, depth: UInt32 = 0
        guard getGeometry(display, defaultRootWindow(display), &root, &x, &y, &width, &height, &border, &depth) != 0,
              width > 0, height > 0 else { return nil }
        return (Int(width), Int(height))
    }

    func setIOErrorHandler(_ handler: IOErrorHandler) { _ = setIOErrorHandlerFunction(handler) }
}
