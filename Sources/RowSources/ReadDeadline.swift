import Workers

/// Reading an input file with a deadline. Opening without blocking (`InputOpening`) keeps
/// a FIFO from holding the program, but a regular file can block too: `read` on a file of
/// a network mount whose server went away waits with no timeout of its own (a hard NFS
/// mount: for ever). So the read runs on a thread of its own and the caller waits for it
/// at most `seconds`: past that the input is refused in words (at start: 66; on reload:
/// refused, the running settings stay) and the stuck thread is left to end with the
/// process, holding nothing the program needs.
public enum ReadDeadline {
    /// How long reading one input may take. A local file of the largest size any input
    /// accepts (16 MiB) reads in well under a second even on a loaded kiosk.
    public static let seconds = 5.0

    /// `body`'s result, or nil when it has not returned within `seconds`. When no thread
    /// can be started, `body` runs on the caller's thread (without the deadline).
    public static func run<T: Sendable>(_ name: String, within seconds: Double = ReadDeadline.seconds,
                                        _ body: @escaping @Sendable () -> T) -> T? {
        let box = Box<T>()
        guard let worker = Worker(name: name, { _ in
            let value = body()
            box.value.withLock { $0 = value }
        }) else { return body() }
        guard worker.join(within: seconds) else { return nil }
        return box.value.withLock { $0 }
    }

    private final class Box<T: Sendable>: Sendable {
        let value = Locked<T?>(nil)
    }
}
