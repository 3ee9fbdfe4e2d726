import Foundation
import Testing
@testable import RowSources
@testable import OverscrollKit

/// Real processes, real pipes: each test is bounded by a deadline of a few seconds and
/// polls instead of sleeping. Serialized, so the fd and process checks see only their own.
@Suite(.serialized)
struct CommandRefreshSourceTests {
    @Test func successGivesTheOutputLinesAsRows() {
        let inbox = RefreshInbox()
        let source = CommandRefreshSource(arguments: ["printf", "a\\nb\\n"], timeout: 5)
        source.start(RefreshJob(generation: 7, startTime: 0, inbox: inbox))
        let completion = waitForCompletion(inbox, generation: 7)
        #expect(completion?.result == .success(["a", "b"]))
        #expect(completion?.time == nil, "real work is stamped by the model, not the source")
        // Exactly once: nothing else arrives after the run has ended.
        #expect(inbox.take(generation: 7, dueBy: .infinity) == nil)
    }

    @Test func quittingKillsACommandStillRunning() {
        let inbox = RefreshInbox()
        // A 300 s command with a 600 s timeout: a completion within waitForCompletion's
        // minute can only come from cancelAll ending it.
        let source = CommandRefreshSource(arguments: ["sleep", "300"], timeout: 600)
        source.start(RefreshJob(generation: 1, startTime: 0, inbox: inbox))
        #expect(poll { source.running.count == 1 })
        source.cancelAll()
        let completion = waitForCompletion(inbox, generation: 1)
        guard case .failure(let message)? = completion?.result else {
            Issue.record("expected a failure, got \(String(describing: completion))")
            return
        }
        #expect(message.contains("signal 9"))
        #expect(source.running.count == 0)
    }

    @Test func crlfAndEmptyLinesAndAMissingFinalNewline() {
        let result = run(["printf", "a\\r\\n\\r\\n\\nb\\r\\nlast"])
        #expect(result == .success(["a", "b", "last"]))
    }

    @Test func exitingCleanlyWithNoOutputKeepsTheOldRows() {
        // The output replaces the list, so "no rows" is reported instead of emptying it.
        #expect(run(["true"]) == .failure("'true' printed no rows"))
    }

    @Test func nonZeroExitNamesTheStatusAndTheFirstStderrLine() {
        // Blank lines skipped, tabs made spaces, outer whitespace trimmed, later lines dropped.
        let script = "echo out; printf ' \\t\\n\\n  \\too\\tps \\n' >&2; echo second >&2; exit 3"
        #expect(run(["sh", "-c", script]) == .failure("'sh' exited 3: oo ps"))
    }

    @Test func onlyTheHeadOfStderrIsKept() {
        let result = run(["sh", "-c", "printf '%0500d' 0 >&2; exit 1"])
        guard case .failure(let message) = result else { Issue.record("\(result)"); return }
        #expect(message == "'sh' exited 1: " + String(repeating: "0", count: 200))
    }

    @Test func aFloodOnStderrDoesNotBlockTheCommand() {
        // Far more than a pipe holds: it must be drained, not left to fill (a full pipe
        // would hold the command until its timeout, a failure).
        #expect(run(["sh", "-c", "head -c 3000000 /dev/zero >&2; echo ok"], timeout: 30) == .success(["ok"]))
    }

    @Test func runsOverlapIndependently() throws {
        // The slow command waits for a file the test makes only once the fast one is done,
        // so which finishes first is decided by the code, not by the machine's load.
        let gate = try writeTemporaryFile([]) + ".open"
        defer { try? FileManager.default.removeItem(atPath: gate) }
        let (slow, fast) = (RefreshInbox(), RefreshInbox())
        CommandRefreshSource(arguments: ["sh", "-c", "while [ ! -e \"$0\" ]; do sleep 0.01; done; echo slow", gate], timeout: 600)
            .start(RefreshJob(generation: 1, startTime: 0, inbox: slow))
        CommandRefreshSource(arguments: ["echo", "fast"], timeout: 600)
            .start(RefreshJob(generation: 2, startTime: 0, inbox: fast))
        let first = waitForCompletion(fast, generation: 2)
        #expect(first?.result == .success(["fast"]), "the fast one waited for the slow one")
        #expect(slow.take(generation: 1, dueBy: .infinity) == nil, "the slow one finished without its gate")
        FileManager.default.createFile(atPath: gate, contents: nil)
        #expect(waitForCompletion(slow, generation: 1)?.result == .success(["slow"]))
    }

    @Test func nonZeroExitWithoutStderr() {
        #expect(run(["false"]) == .failure("'false' exited 1"))
    }

    @Test func deathBySignalIsAFailure() throws {
        let result = run(["sh", "-c", "kill -9 $$"])
        guard case .failure(let message) = result else { Issue.record("\(result)"); return }
        #expect(message.hasPrefix("'sh' was killed by signal 9"))
    }

    @Test func missingCommand() {
        #expect(run(["overscroll-no-such-command", "x"]) == .failure("'overscroll-no-such-command' not found"))
    }

    @Test func fileThatIsNotExecutable() throws {
        let path = try writeTemporaryFile(Array("echo hi\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard case .failure(let message) = run([path]) else { Issue.record("ran a non-executable file"); return }
        #expect(message.hasPrefix("'\(path)' is not executable"))
    }

    @Test func emptyArgumentList() {
        #expect(run([]) == .failure("no refresh command given (the argument list is empty)"))
    }

    @Test func argumentsAreNotInterpretedByAShell() {
        #expect(run(["echo", "$HOME", "*", ";", "ls"]) == .success(["$HOME * ; ls"]))
    }

    @Test func stdinIsDevNull() {
        // A command reading the kiosk's terminal or the test runner's stdin could hang.
        #expect(run(["sh", "-c", "readlink /proc/$$/fd/0; cat"]) == .success(["/dev/null"]))
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        let result = run(["printf", "ok\\n\\377\\376bad\\n\\303\\n"])
        #expect(result == .success(["ok", "\u{FFFD}\u{FFFD}bad", "\u{FFFD}"]))
    }

    @Test func startReturnsAtOnce() throws {
        // The command ends only when the test makes its file, after start returned: had
        // start waited for the command, it would never have returned (the test would hang
        // until the 600 s timeout, then fail on the result below).
        let gate = try writeTemporaryFile([]) + ".open"
        defer { try? FileManager.default.removeItem(atPath: gate) }
        let inbox = RefreshInbox()
        let source = CommandRefreshSource(arguments: ["sh", "-c", "while [ ! -e \"$0\" ]; do sleep 0.01; done; echo done", gate], timeout: 600)
        source.start(RefreshJob(generation: 1, startTime: 0, inbox: inbox))
        #expect(inbox.take(generation: 1, dueBy: .infinity) == nil, "it completed before its gate opened")
        FileManager.default.createFile(atPath: gate, contents: nil)
        #expect(waitForCompletion(inbox, generation: 1)?.result == .success(["done"]))
    }

    @Test func timeoutKillsTheWholeProcessGroup() throws {
        let pidFile = try writeTemporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        // The shell and a grandchild that would outlive it; both ignore nothing, but only
        // a group kill reaches the grandchild.
        let script = "sleep 30 & echo $$ $! > '\(pidFile)'; sleep 30"
        let result = run(["sh", "-c", script], timeout: 0.5)
        #expect(result == .failure("'sh' timed out after 500 ms"))

        let pids = try String(contentsOfFile: pidFile, encoding: .utf8).split(separator: " ")
            .compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(pids.count == 2, "the script did not record its pids")
        let (group, grandchild) = (pids[0], pids[1])
        #expect(poll { !isRunning(grandchild) }, "the grandchild sleep survived")
        #expect(poll { livingMembers(ofGroup: group).isEmpty },
                "still running in the group: \(livingMembers(ofGroup: group))")
    }

    @Test func timeoutAlsoKillsChildrenThatIgnoreSIGTERM() throws {
        // The result comes only once the group is gone: a sleep that outlived the kill
        // would hold it past waitForCompletion's minute (nil, not the failure).
        let result = run(["sh", "-c", "trap '' TERM; sleep 300 & wait"], timeout: 0.3)
        #expect(result == .failure("'sh' timed out after 300 ms"))
    }

    @Test func aStrayChildHoldingTheOutputDoesNotHoldTheRefresh() throws {
        let pidFile = try writeTemporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        // The command exits at once, but a background sleep keeps its stdout open.
        // Waiting for the stray sleep would end in the timeout (a failure), not a success.
        let result = run(["sh", "-c", "sleep 300 & echo $! > '\(pidFile)'; echo done"], timeout: 30)
        #expect(result == .success(["done"]), "it waited for the stray sleep")
        let stray = Int32(try String(contentsOfFile: pidFile, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines))
        try #require(stray != nil)
        #expect(poll { !isRunning(stray!) }, "the stray sleep survived")
    }

    @Test func endlessOutputIsCutAtMaxRows() {
        // Only cutting the output and ending `yes` makes this a success, not a timeout.
        let result = run(["yes"], timeout: 30)
        guard case .success(let rows) = result else { Issue.record("\(result)"); return }
        #expect(rows.count == 5000, "the notice is one of the 5000 rows")
        #expect(rows.dropLast().allSatisfy { $0 == "y" })
        #expect(rows.last == "… output cut at 5000 rows")
    }

    @Test func endlessOutputIsCutAtMaxBytesAndTheCommandEnded() {
        // One line that never ends: only cutting it and ending the command makes this a
        // success; waiting for the output's end would run into the timeout (a failure).
        let result = run(["sh", "-c", "tr '\\0' x < /dev/zero"], timeout: 30)
        guard case .success(let rows) = result else { Issue.record("\(result)"); return }
        // One line, cut through at 1 MiB, then the notice; the row holds what a row can
        // show of it (RowText).
        #expect(rows.count == 2)
        #expect(rows.first?.utf8.count == RowText.maxBytes)
        #expect(rows.last == "… output cut at 1 MiB")
    }

    @Test func byteLimitWithManyLines() {
        let source = CommandRefreshSource(arguments: ["yes", "abcdefghi"], timeout: 10,
                                          maxOutputBytes: 1000, maxRows: 1_000_000)
        let result = complete(source)
        // 1000 bytes: 100 whole lines of 10 bytes.
        #expect(result == .success(Array(repeating: "abcdefghi", count: 100) + ["… output cut at 1000 bytes"]))
    }

    @Test func noDescriptorsLeakAcrossRuns() throws {
        let before = openDescriptors()
        let commands: [[String]] = [
            ["printf", "a\\n"], ["false"], ["no-such-command-x"], ["yes"],
            ["sh", "-c", "sleep 30 & echo x"], ["sleep", "5"],
        ]
        for arguments in commands { _ = run(arguments, timeout: 0.3) }
        #expect(poll { openDescriptors().count <= before.count },
                "open before: \(before.sorted()), after: \(openDescriptors().sorted())")
    }

    @Test func theCommandInheritsOnlyItsStandardStreams() throws {
        let before = openDescriptors()
        // The shell lists its own open descriptors (ls opens its directory, not the shell).
        let result = run(["sh", "-c", "ls /proc/$$/fd"])
        guard case .success(let rows) = result else { Issue.record("\(result)"); return }
        let inherited = Set(rows.compactMap { Int32($0) }).subtracting([0, 1, 2])
        // Anything else it has, this process had before the run: none of the run's pipes.
        #expect(inherited.isSubset(of: before), "inherited \(inherited), ours were \(before)")
    }

    @Test func descriptionQuotesWhatAShellWould() {
        let source = CommandRefreshSource(arguments: ["sh", "-c", "echo 'hi'; ls"], timeout: 1)
        #expect(source.description == #"sh -c 'echo '\''hi'\''; ls'"#)
    }

    // MARK: Helpers

    private func run(_ arguments: [String], timeout: Double = 5) -> RefreshResult? {
        complete(CommandRefreshSource(arguments: arguments, timeout: timeout))
    }

    private func complete(_ source: CommandRefreshSource) -> RefreshResult? {
        let inbox = RefreshInbox()
        source.start(RefreshJob(generation: 1, startTime: 0, inbox: inbox))
        return waitForCompletion(inbox, generation: 1)?.result
    }
}

/// The completion, once the worker thread has posted it (nil after `within` seconds).
private func waitForCompletion(_ inbox: RefreshInbox, generation: Int, within: Double = 60) -> RefreshCompletion? {
    pollFor(within: within) { inbox.take(generation: generation, dueBy: .infinity) }
}
/// (state, process group) from /proc/PID/stat; nil once the process is gone.
private func processStatus(_ pid: Int32) -> (state: Character, group: Int32)? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return nil }
    // After "pid (comm) ": state ppid pgrp …
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 2, let state = fields[0].first, let group = Int32(fields[2]) else { return nil }
    return (state, group)
}

/// Gone, or a zombie nobody has reaped yet (PID 1 in a container may never reap it).
private func isRunning(_ pid: Int32) -> Bool {
    guard let status = processStatus(pid) else { return false }
    return status.state != "Z" && status.state != "X"
}

private func livingMembers(ofGroup group: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { Int32($0) }.filter { pid in
        guard let status = processStatus(pid) else { return false }
        return status.group == group && isRunning(pid)
    }
}

private func openDescriptors() -> Set<Int32> {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return Set(entries.compactMap { Int32($0) })
}

extension RefreshInbox {
    /// The first completion for `generation` posted so far (others are dropped).
    func take(generation: Int, dueBy time: Double) -> RefreshCompletion? {
        take(dueBy: time).first { $0.generation == generation }
    }
}
