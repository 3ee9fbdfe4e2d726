import Foundation
import Testing
@testable import OverscrollKit
@testable import RowSources

/// Nothing a refresh command starts outlives the refresh, and a finished command is never
/// reported as timed out. Real processes, found by a unique marker in their argv.
@Suite(.serialized)
struct ProcessHygieneTests {
    @Test func aDetachedGrandchildIsEndedWhenTheRefreshEnds() throws {
        let marker = uniqueSleep()
        // setsid puts the sleep in a session (and group) of its own: a group kill misses it.
        let source = CommandRefreshSource(arguments: ["sh", "-c", "setsid sleep \(marker) </dev/null >/dev/null 2>&1 & echo row"],
                                          timeout: 10)
        let inbox = RefreshInbox()
        source.start(RefreshJob(generation: 1, startTime: 0, inbox: inbox))
        let completion = waitFor(inbox)
        #expect(completion?.result == .success(["row"]))
        #expect(poll { processes(withArgument: marker).isEmpty },
                "the detached sleep outlived its refresh: \(processes(withArgument: marker))")
    }

    @Test func aDetachedGrandchildIsEndedOnTimeoutToo() throws {
        let marker = uniqueSleep()
        // 1.5 s, not less: the look at /proc below must see the sleep before the timeout ends
        // it, and on a loaded machine (CI beside other builds) 300 ms was not always enough.
        let source = CommandRefreshSource(arguments: ["sh", "-c", "setsid sleep \(marker) & sleep 30"], timeout: 1.5)
        let inbox = RefreshInbox()
        source.start(RefreshJob(generation: 1, startTime: 0, inbox: inbox))
        #expect(poll { !processes(withArgument: marker).isEmpty }, "the detached sleep never started")
        let completion = waitFor(inbox)
        #expect(completion?.result == .failure("'sh' timed out after \(DurationFormat.describe(1.5))"))
        #expect(poll { processes(withArgument: marker).isEmpty })
    }

    @Test func quittingEndsDetachedGrandchildren() throws {
        let marker = uniqueSleep()
        let source = CommandRefreshSource(arguments: ["sh", "-c", "setsid sleep \(marker) & sleep 30"], timeout: 60)
        let inbox = RefreshInbox()
        source.start(RefreshJob(generation: 1, startTime: 0, inbox: inbox))
        #expect(poll { !processes(withArgument: marker).isEmpty })
        source.cancelAll()
        // cancelAll joined the command's thread, which completes the job before it ends:
        // the completion is there already, with no wait.
        #expect(inbox.take(dueBy: .infinity).count == 1)
        #expect(poll { processes(withArgument: marker).isEmpty })
    }

    @Test func aCommandThatFinishedWhileTheWatcherSleptIsNotTimedOut() throws {
        // The watcher thread stalls in the output callback (as the whole app does under
        // SIGSTOP or a suspend) until well past the deadline; the command meanwhile
        // finishes with all its output. Its result must be taken, not discarded.
        // It stalls until the command has written its last line and its marker (and past
        // the deadline), however long the loaded machine takes: a time-out then would be
        // the bug, never the machine.
        let done = try writeTemporaryFile([]) + ".done"
        defer { try? FileManager.default.removeItem(atPath: done) }
        var output: [UInt8] = []
        var stalled = false
        let deadline = MonotonicClock.now() + 0.4
        // The command's last act is to write its pid; it has ended when /proc shows it a
        // zombie (not yet reaped: the watcher is the one stalled) or not at all.
        func ended() -> Bool {
            guard let pid = (try? String(contentsOfFile: done, encoding: .utf8))?.split(separator: "\n").first else { return false }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
        }
        let outcome = try Subprocess.run(["sh", "-c", "echo first; sleep 0.1; echo second; echo $$ > \"$0\"", done],
                                         deadline: deadline) { chunk in
            output.append(contentsOf: chunk)
            if !stalled {
                stalled = true
                _ = poll(within: 600) { ended() && MonotonicClock.now() > deadline }
            }
            return true
        }
        #expect(outcome.ending == .exited(status: 0))
        #expect(String(decoding: output, as: UTF8.self) == "first\nsecond\n")
    }

    @Test func aCommandStillRunningAtTheDeadlineIsTimedOut() throws {
        let outcome = try Subprocess.run(["sleep", "5"], deadline: MonotonicClock.now() + 0.2) { _ in true }
        #expect(outcome.ending == .timedOut)
    }

    @Test func aMissingCommandIsStillReportedAsNotFound() {
        let source = CommandRefreshSource(arguments: ["no-such-command-\(UUID().uuidString.prefix(8))"], timeout: 5)
        let inbox = RefreshInbox()
        source.start(RefreshJob(generation: 1, startTime: 0, inbox: inbox))
        guard case .failure(let message)? = waitFor(inbox)?.result else { Issue.record("no failure"); return }
        #expect(message.hasSuffix("not found"))
    }

    @Test func theExitStatusAndSignalOfTheCommandComeThrough() throws {
        let exited = try Subprocess.run(["sh", "-c", "exit 7"], deadline: MonotonicClock.now() + 5) { _ in true }
        #expect(exited.ending == .exited(status: 7))
        let killed = try Subprocess.run(["sh", "-c", "kill -SEGV $$"], deadline: MonotonicClock.now() + 5) { _ in true }
        #expect(killed.ending == .signaled(SIGSEGV))
    }
}

/// The refresh's completion, once the worker thread has posted it.
private func waitFor(_ inbox: RefreshInbox, within: Double = 60) -> RefreshCompletion? {
    pollFor(within: within) { inbox.take(generation: 1, dueBy: .infinity) }
}
