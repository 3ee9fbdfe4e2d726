#if canImport(Glibc)
import Glibc
#endif

/// A thread the program waits for before it exits (nothing it starts may outlive it).
/// Sendable so its owner can keep it behind a lock; `join` is called from one thread.
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
