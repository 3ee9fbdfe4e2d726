#if canImport(Glibc)
import Glibc
#endif

/// A value behind a lock, for what the program's threads share: `withLock` is the only
/// way to it, as with `Synchronization.Mutex`.
///
/// A pthread mutex rather than `Mutex`: ThreadSanitizer sees pthread_mutex_lock (it
/// intercepts it), but not `Mutex`, whose futex and atomics live in the Swift runtime's
/// Synchronization library, built without it; the sanitizer run in script/test reported
/// every access under a `Mutex` as a race. Uncontended, both cost an atomic or two.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    // Unchecked, and safe: `value` is read and written only inside `withLock`, between
    // pthread_mutex_lock and unlock of `mutex`, which lives from init to deinit.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held. Not reentrant: `body` must not take
    /// this lock again.
    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
