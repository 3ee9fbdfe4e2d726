/// Waiting for an outcome in a test: poll for it, with a deadline on the monotonic clock
/// far longer than it should ever take. A test asserts what happened, never how fast: a
/// loaded CI machine may be many times slower, and a clock stepped under it (a test that
/// moves the wall clock) must not end the wait.
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// Whether `condition` became true within `within` seconds (checked every 10 ms).
public func poll(within: Double = 10, _ condition: () -> Bool) -> Bool {
    pollFor(within: within) { condition() ? true : nil } ?? false
}

/// The first non-nil value `body` gives within `within` seconds, or nil.
public func pollFor<T>(within: Double = 10, _ body: () -> T?) -> T? {
    let deadline = MonotonicClock.now() + within
    repeat {
        if let value = body() { return value }
        usleep(10_000)
    } while MonotonicClock.now() < deadline
    return body()
}
