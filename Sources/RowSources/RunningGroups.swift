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

    /// SIGKILL to each whole group: quitting cannot wait for a grace period. The worker
    /// threads then see their child gone and reap it.
    func killAll() {
        for pid in groups.withLock({ Array($0) }) { kill(-pid, SIGKILL) }
    }

    var count: Int { groups.withLock { $0.count } }
}
