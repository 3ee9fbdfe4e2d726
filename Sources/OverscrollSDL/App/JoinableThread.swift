#if canImport(Glibc)
import Glibc
#endif

/// A thread the program waits for before it exits (nothing it starts may outlive it).
/// Unchecked Sendable, and safe: `thread` is written only in `init`, before the object is
/// shared; `joined` only in `join`, which every owner calls under its own Mutex (one caller).
final class JoinableThread: @unchecked Sendable {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    private var thread = pthread_t()
    private var joined = false

    /// nil when the system cannot start a thread.
    init?(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        guard pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context) == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
    }

    func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }
}
