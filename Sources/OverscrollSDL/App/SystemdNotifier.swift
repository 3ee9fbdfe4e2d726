#if canImport(Glibc)
import Glibc
#endif

/// Talks to systemd's service manager through `$NOTIFY_SOCKET` (sd_notify's protocol, no
/// libsystemd needed): READY=1 once the first frame is on screen, RELOADING=1 and READY=1
/// again around a reload, WATCHDOG=1 from the render loop so a frozen loop gets the
/// service restarted, STOPPING=1 on the way out. Sends are non-blocking datagrams: a
/// missing or slow manager never holds up a frame.
public final class SystemdNotifier {
    private let channel: Channel?
    /// Ping at half the watchdog period, as sd_watchdog_enabled(3) recommends.
    public let watchdogInterval: Double?
    private var lastPing = -Double.infinity

    public init(environment: [String: String]) {
        if let usec = environment["WATCHDOG_USEC"].flatMap(Double.init), usec > 0,
           environment["WATCHDOG_PID"].flatMap(Int32.init).map({ $0 == getpid() }) ?? true {
            watchdogInterval = usec / 1_000_000 / 2
        } else {
            watchdogInterval = nil
        }
        channel = environment["NOTIFY_SOCKET"].flatMap(Channel.init(path:))
    }

    public var isActive: Bool { channel != nil }

    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }

    public func stopping() { send("STOPPING=1") }

    /// Call every frame; pings only as often as the watchdog needs.
    public func frame(now: Double) {
        guard let interval = watchdogInterval, now - lastPing >= interval else { return }
        lastPing = now
        send("WATCHDOG=1")
    }

    /// Sends one message; usable from any thread (the reload thread's RELOADING=1).
    public var sender: @Sendable (String) -> Void { { [channel] in channel?.send($0) } }

    private func send(_ message: String) { channel?.send(message) }

    /// The socket and its address: set once, then only sent on, from any thread.
    private final class Channel: Sendable {
        private let socket: Int32
        private let address: sockaddr_un
        private let addressLength: socklen_t

        init?(path: String) {
            guard !path.isEmpty else { return nil }
            var path = path
            // A leading '@' names a socket in the abstract namespace.
            let abstract = path.hasPrefix("@")
            if abstract { path.removeFirst() }
            let bytes = Array(path.utf8)
            var address = sockaddr_un()
            let capacity = MemoryLayout.size(ofValue: address.sun_path)
            guard bytes.count + (abstract ? 1 : 0) < capacity else { return nil }
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                let offset = abstract ? 1 : 0      // abstract: first byte stays NUL
                for (i, b) in bytes.enumerated() { raw[offset + i] = b }
            }
            self.address = address
            // One byte more either way: the leading NUL of an abstract name, or the trailing NUL of a path.
            addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
            socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else { return nil }
        }

        deinit { close(socket) }

        func send(_ message: String) {
            var text = message
            var address = address
            text.withUTF8 { buffer in
                withUnsafePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                        _ = sendto(socket, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL), sa, addressLength)
                    }
                }
            }
        }
    }
}
