import OverscrollKit
import Workers
#if canImport(Glibc)
import Glibc
#endif

/// The process groups a refresh source has running, and the worker threads that run
/// them, shared between those threads and the loop that may quit while they do.
final class RunningGroups: Sendable {
    private let groups = Locked<Set<pid_t>>([])
    private let workers = Locked<[Worker]>([])

    /// Keeps a command's thread, to be joined when it has ended (at the next `adopt`) or
    /// at `killAll`.
    func adopt(_ worker: Worker) {
        workers.withLock { list in
            list.removeAll { w in
                guard w.isFinished else { return false }
                w.join()
                return true
            }
            list.append(worker)
        }
    }

    func insert(_ pid: pid_t) { groups.withLock { _ = $0.insert(pid) } }

    func remove(_ pid: pid_t) { groups.withLock { _ = $0.remove(pid) } }

    /// Quitting cannot wait for a grace period: SIGUSR1 tells each command's supervisor to
    /// SIGKILL its whole tree at once (detached descendants included). The worker threads
    /// then see the supervisor gone and reap it.
    ///
    /// Then every thread is joined: nothing outlives the program. A thread still spawning
    /// when the kill went out inserts its group after it, so the kill is repeated while any
    /// thread runs, for a second at most; past that, what is left ends with the process
    /// (each supervisor has the parent's death as its signal to kill its tree).
    func killAll() {
        let deadline = MonotonicClock.now() + 1
        repeat {
            for pid in groups.withLock({ Array($0) }) { kill(pid, SIGUSR1) }
            let left = workers.withLock { list in
                list.removeAll { $0.join(within: 0.05) }
                return list.count
            }
            if left == 0 { return }
        } while MonotonicClock.now() < deadline
    }

    var count: Int { groups.withLock { $0.count } }
}
