import CSDL
import CWayland
import CXShm
#if canImport(Glibc)
import Glibc
#endif

/// The display server under SDL's window: which one it is, its connection's socket, and
/// the screen's real size. libX11 and libwayland-client are linked (Debian's libSDL2 links
/// both, so the program's calls reach the very copies SDL's window uses).
struct NativeDisplay {
    enum Kind: Equatable {
        case x11, wayland, other
    }

    let kind: Kind
    let connection: OpaquePointer?
    /// The connection's socket, watched for the server hanging up; -1 when unknown.
    let socket: Int32

    init(window: OpaquePointer) {
        var subsystem: Int32 = 0
        var raw: UnsafeMutableRawPointer?
        guard CSDL_NativeConnection(window, &subsystem, &raw) != 0, let raw else {
            (kind, connection, socket) = (.other, nil, -1)
            return
        }
        connection = OpaquePointer(raw)
        switch subsystem {
        case CSDL_SYSWM_X11:
            kind = .x11
            socket = ovs_x11_connection_number(raw)
        case CSDL_SYSWM_WAYLAND:
            kind = .wayland
            socket = ovs_wl_display_fd(raw)
        default:
            (kind, socket) = (.other, -1)
        }
    }

    /// Has the X server send the root window's size changes as events (SDL hands them on
    /// as SDL_SYSWMEVENT, which this turns on), so a loop asleep on input wakes for one.
    /// The root window's XID, for `isScreenResize`; 0 on other servers.
    func watchScreenSize() -> UInt {
        guard kind == .x11, let connection else { return 0 }
        let root = ovs_x11_watch_root_size(UnsafeMutableRawPointer(connection))
        if root != 0 { SDL_EventState(SDL_SYSWMEVENT.rawValue, SDL_ENABLE) }
        return root
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
        guard kind == .x11, let connection else { return nil }
        var width: Int32 = 0, height: Int32 = 0
        guard ovs_x11_root_size(UnsafeMutableRawPointer(connection), &width, &height) != 0 else { return nil }
        return (Int(width), Int(height))
    }

    /// Whether the server may have sent something not yet handled: on X11, events Xlib
    /// already read (XEventsQueued with QueuedAlready reads nothing) or bytes waiting on the
    /// socket (one poll); elsewhere always true. Pumping SDL's events costs a handful of
    /// reads that find nothing on most frames of an animation.
    func mayHaveInput() -> Bool {
        guard kind == .x11, let connection, socket >= 0 else { return true }
        if ovs_x11_events_already_queued(UnsafeMutableRawPointer(connection)) > 0 { return true }
        var fd = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) != 0
    }

    /// `mayHaveInput` waiting up to `timeoutMs` for the server to send something: one
    /// poll. nil where there is no X11 socket to wait on.
    func waitForInput(timeoutMs: Int32) -> Bool? {
        guard kind == .x11, let connection, socket >= 0 else { return nil }
        if ovs_x11_events_already_queued(UnsafeMutableRawPointer(connection)) > 0 { return true }
        var fd = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, timeoutMs) > 0
    }

    /// Whether the Wayland connection has failed (the compositor hung up, or refused a
    /// request): SDL then turns its next pump into SDL_QUIT, which must not pass for a stop.
    /// Always false on X11, whose loss Xlib reports itself (`onXConnectionLost`).
    var connectionBroken: Bool {
        guard kind == .wayland, let connection else { return false }
        return ovs_wl_display_error(UnsafeMutableRawPointer(connection)) != 0
    }

    /// Replaces Xlib's fatal I/O error handler (which prints and exits 1) with `handler`,
    /// which must not return.
    func onXConnectionLost(_ handler: @convention(c) (UnsafeMutableRawPointer?) -> Int32) {
        guard kind == .x11 else { return }
        ovs_x11_on_connection_lost(handler)
    }
}
