import Foundation
import Testing
import Workers

/// The one way the program starts a thread: named, stopped through its signal, joined.
struct WorkerTests {
    /// Linux keeps 15 bytes of a thread's name.
    @Test(arguments: [("metrics", "metrics"), ("a-name-longer-than-fifteen", "a-name-longer-t")])
    func aWorkerRunsUnderItsName(name: String, shown: String) throws {
        let seen = Locked<String?>(nil)
        let worker = try #require(Worker(name: name) { _ in
            let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            seen.withLock { $0 = comm?.trimmingCharacters(in: .whitespacesAndNewlines) }
        })
        worker.join()
        #expect(seen.withLock { $0 } == shown)
        #expect(worker.isFinished)
    }

    @Test func stopEndsAnHourLongSleep() throws {
        let answer = Locked<Bool?>(nil)
        let worker = try #require(Worker(name: "sleeper") { signal in
            answer.withLock { $0 = signal.sleep(3600) }
        })
        worker.stopAndJoin()
        #expect(answer.withLock { $0 } == true)
    }

    @Test func wakeEndsTheSleepWithoutStopping() throws {
        let answers = Locked<[Bool]>([])
        let worker = try #require(Worker(name: "sleeper") { signal in
            // Woken once (not stopping), then stopped.
            while true {
                let stopping = signal.sleep(3600)
                answers.withLock { $0.append(stopping) }
                if stopping { return }
            }
        })
        worker.wake()
        #expect(poll(within: 15) { answers.withLock { $0 } == [false] })
        worker.stopAndJoin()
        #expect(answers.withLock { $0 } == [false, true])
    }

    @Test func aBodyThatWaitsInItsOwnPollSeesTheStop() throws {
        let (readEnd, writeEnd) = try makePipe()
        defer { close(readEnd); close(writeEnd) }
        let worker = try #require(Worker(name: "poller") { signal in
            var entries = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: signal.fd, events: Int16(POLLIN), revents: 0)]
            while !signal.isStopping { _ = poll(&entries, 2, -1); signal.drain() }
        })
        worker.stopAndJoin()
        #expect(worker.isFinished)
    }

    @Test func aStuckBodyIsNotWaitedForPastTheLimit() throws {
        let (readEnd, writeEnd) = try makePipe()
        defer { close(readEnd); close(writeEnd) }
        // Blocked in read(), as a reload on a hung network mount would be: a stop cannot reach it.
        let worker = try #require(Worker(name: "stuck") { _ in
            var byte: UInt8 = 0
            _ = read(readEnd, &byte, 1)
        })
        worker.stop()
        #expect(worker.join(within: 0.05) == false)
        #expect(!worker.isFinished)
        var byte: UInt8 = 1
        #expect(write(writeEnd, &byte, 1) == 1)
        #expect(worker.join(within: 60) == true)
        #expect(worker.isFinished)
    }

    private func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }
}
