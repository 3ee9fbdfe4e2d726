import OverscrollKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process groups a refresh source has running, shared between the threads that
/// run them and the loop that may quit while they do.
final class RunningGroups: Sendable {
    private let groups = Mutex<Set<pid_t>>([])

    func insert(_ pid: pid_t) { groups.withLock { _ = $0.insert(pid) } }

    func remove(_ pid: pid_t) { groups.withLock { _ = $0.remove(pid) } }

    /// Quitting cannot wait for a grace period: SIGUSR1 tells each command's supervisor to
    /// SIGKILL its whole tree at once (detached descendants included). The worker threads
    /// then see the supervisor gone and reap it.
    func killAll() {
        for pid in groups.withLock({ Array($0) }) { kill(pid, SIGUSR1) }
    }

    var count: Int { groups.withLock { $0.count } }
}
