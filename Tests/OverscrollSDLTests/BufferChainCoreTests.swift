import CBufferChain
import Testing

/// CBufferChain's state machine (chain.h), driven as dumb.c and wlshm.c drive it but
/// through a table of fake functions: the other side's answers (a release, a flip) are
/// scripted, and its clock is one of its own that a wait moves on by what it asked for,
/// so a wait that runs out does so at once and the test reads what came of it.
@Suite struct BufferChainCoreTests {
    /// What the other side will do when the chain next reads it (`pump`).
    enum Answer { case release(Int32), flip, lose }

    /// The owner a chain drives: buffers are numbers, made and dropped into lists.
    final class FakeSide {
        let chain = UnsafeMutablePointer<ovs_chain>.allocate(capacity: 1)
        let ops = UnsafeMutablePointer<ovs_chain_ops>.allocate(capacity: 1)
        var answers: [Answer] = []
        var clock = 0.0
        var waited: [Int32] = []        // every wait `pump` was asked for, in ms
        var sizes: [Int32: Int32] = [:] // a made buffer's size, by slot
        var made: [Int32] = []
        var dropped: [Int32] = []
        var makes = true
        var lost = false
        var gone = false                // what `silent` answers
        var silentAsked = 0

        init(oneQueued: Bool, stallMs: Int32 = 0) {
            ops.initialize(to: ovs_chain_ops(
                pump: { FakeSide.of($0).pump($1) },
                make: { owner, slot, want in FakeSide.of(owner).make(slot, want!.load(as: Int32.self)) },
                fits: { owner, slot, want in FakeSide.of(owner).sizes[slot] == want!.load(as: Int32.self) ? 1 : 0 },
                drop: { owner, slot in FakeSide.of(owner).dropped.append(slot) },
                silent: { owner in
                    let side = FakeSide.of(owner)
                    side.silentAsked += 1
                    return side.gone ? -1 : 0
                },
                now_ms: { FakeSide.of($0).clock },
                one_queued: oneQueued ? 1 : 0, stall_ms: stallMs))
            ovs_chain_init(chain, ops, Unmanaged.passUnretained(self).toOpaque())
        }

        deinit {
            chain.deallocate()
            ops.deallocate()
        }

        static func of(_ owner: UnsafeMutableRawPointer?) -> FakeSide {
            Unmanaged<FakeSide>.fromOpaque(owner!).takeUnretainedValue()
        }

        /// The next scripted answer, or else nothing all the time asked for.
        func pump(_ timeoutMs: Int32) -> Int32 {
            if lost { return -1 }
            waited.append(timeoutMs)
            guard !answers.isEmpty else {
                clock += Double(timeoutMs)
                return 0
            }
            switch answers.removeFirst() {
            case .release(let slot): ovs_chain_released(chain, slot)
            case .flip: _ = ovs_chain_flipped(chain)
            case .lose:
                lost = true
                return -1
            }
            return 0
        }

        func make(_ slot: Int32, _ size: Int32) -> Int32 {
            guard makes else { return 0 }
            made.append(slot)
            sizes[slot] = size
            return 1
        }

        func acquire(size: Int32 = 100, most: Int32 = 3, timeoutMs: Int32 = 50) -> Int32 {
            var want = size
            _ = ovs_chain_reshape(chain, &want)
            return ovs_chain_acquire(chain, &want, most, timeoutMs)
        }

        /// Acquires and commits, as wlshm.c does: the buffer queued until released.
        func draw(most: Int32 = 3) -> Int32 {
            let slot = acquire(most: most)
            if slot >= 0 { ovs_chain_queue(chain, ovs_chain_cancel(chain)) }
            return slot
        }

        func state(_ slot: Int32) -> ovs_chain_state {
            withUnsafeBytes(of: chain.pointee.state) { ovs_chain_state(UInt32($0[Int(slot)])) }
        }
    }

    @Test func aBufferNeverReleasedEndsTheWaitTimedOutAfterAskingTheOtherSide() {
        let side = FakeSide(oneQueued: false)
        #expect(side.draw(most: 2) == 0)
        #expect(side.draw(most: 2) == 1)
        side.waited = []
        #expect(side.acquire(most: 2, timeoutMs: 50) == Int32(ovs_chain_timed_out))
        // It waited the whole time given, and no longer: a look, then the rest of 50 ms (and
        // one for poll's rounding), then a look that found the time gone.
        #expect(side.waited == [0, 51, 0])
        #expect(side.silentAsked == 1)
        #expect(side.made == [0, 1])
        #expect(side.chain.pointee.current == -1)
        #expect(ovs_chain_count(side.chain, ovs_chain_queued) == 2)
    }

    @Test func buffersComeFreeInTheOrderTheOtherSideReleasesThem() {
        let side = FakeSide(oneQueued: false)
        for slot: Int32 in 0..<3 { #expect(side.draw() == slot) }
        side.answers = [.release(2), .release(0), .release(1)]
        #expect(side.draw() == 2)
        #expect(side.draw() == 0)
        #expect(side.draw() == 1)
        #expect(side.made == [0, 1, 2])
        // A release of a buffer the other side does not hold (drawn, not yet committed)
        // leaves it drawn.
        side.answers = [.release(0)]
        #expect(side.acquire() == 0)
        side.answers = [.release(0)]
        #expect(ovs_chain_wait(side.chain, { _ in 1 }, nil, 0) == 1)
        #expect(side.state(0) == ovs_chain_drawn && side.chain.pointee.current == 0)
    }

    @Test func aBufferDrawnAndNeverCommittedIsTheNextOneHandedOut() {
        let side = FakeSide(oneQueued: false)
        #expect(side.acquire() == 0)
        #expect(side.acquire() == 0)
        #expect(side.made == [0])
        #expect(side.state(0) == ovs_chain_drawn)
        #expect(ovs_chain_cancel(side.chain) == 0)
        #expect(side.state(0) == ovs_chain_free)
        #expect(ovs_chain_cancel(side.chain) == -1)
    }

    @Test func aFlipFreesTheBufferShownBeforeItAndShowsTheOneQueued() {
        let side = FakeSide(oneQueued: true)
        // The mode set: shown at once.
        #expect(side.acquire(most: 2) == 0)
        ovs_chain_show(side.chain, ovs_chain_cancel(side.chain))
        #expect(side.acquire(most: 2) == 1)
        ovs_chain_queue(side.chain, ovs_chain_cancel(side.chain))
        // Both taken until the flip's event: the wait reads it and 0 comes free.
        side.answers = [.flip]
        #expect(side.acquire(most: 2) == 0)
        #expect(side.state(1) == ovs_chain_shown)
        // A flip event with none queued (one from before a VT switch) changes nothing.
        #expect(ovs_chain_flipped(side.chain) == 0)
        #expect(side.state(1) == ovs_chain_shown && side.state(0) == ovs_chain_drawn)
    }

    @Test func oneFlipAtATimeAQueuedBufferPutsTheOneBeforeBack() {
        let side = FakeSide(oneQueued: true)
        for _ in 0..<2 {
            _ = side.acquire()
            ovs_chain_queue(side.chain, ovs_chain_cancel(side.chain))
        }
        #expect(side.state(0) == ovs_chain_free && side.state(1) == ovs_chain_queued)
        let many = FakeSide(oneQueued: false)
        for _ in 0..<2 { _ = many.draw() }
        #expect(ovs_chain_count(many.chain, ovs_chain_queued) == 2)
    }

    /// One buffer only (DRM's driver had memory for no second): the one on the screen is
    /// handed out again once its flip is done, never while one is pending; more buffers
    /// made before go, unless one of them is on the screen.
    @Test func oneBufferIsDrawnWhereItIsShownOnceItsFlipIsDone() {
        let side = FakeSide(oneQueued: true, stallMs: 5000)
        #expect(side.acquire(most: 2) == 0)
        ovs_chain_show(side.chain, ovs_chain_cancel(side.chain))
        #expect(side.acquire(most: 2) == 1)
        ovs_chain_queue(side.chain, ovs_chain_cancel(side.chain))
        // Buffer 1's flip pending: it may not go; buffer 0, shown, is not handed out.
        #expect(ovs_chain_trim(side.chain, 1) == 0 && side.dropped.isEmpty)
        side.answers = [.flip]
        #expect(side.acquire(most: 2) == 0)
        ovs_chain_queue(side.chain, ovs_chain_cancel(side.chain))
        side.answers = [.flip]
        _ = ovs_chain_wait(side.chain, { _ in 0 }, nil, 0)
        #expect(side.state(0) == ovs_chain_shown && side.state(1) == ovs_chain_free)
        #expect(ovs_chain_trim(side.chain, 1) == 1 && side.dropped == [1] && side.chain.pointee.count == 1)
        // Shown: handed out at once, and again after each flip of it, never before.
        #expect(side.acquire(most: 1) == 0)
        ovs_chain_queue(side.chain, ovs_chain_cancel(side.chain))
        #expect(side.acquire(most: 1, timeoutMs: 50) == Int32(ovs_chain_timed_out))
        side.answers = [.flip]
        #expect(side.acquire(most: 1) == 0)
        #expect(side.made == [0, 1])
        // Wayland's buffers are never asked so: with two allowed, a shown one is not drawn.
        let two = FakeSide(oneQueued: true)
        #expect(two.acquire(most: 1) == 0)
        ovs_chain_show(two.chain, ovs_chain_cancel(two.chain))
        #expect(two.acquire(most: 2) == 1)
    }

    @Test func aLostOtherSideEndsEveryWait() {
        let side = FakeSide(oneQueued: false)
        #expect(side.draw(most: 1) == 0)
        side.answers = [.lose]
        #expect(side.acquire(most: 1, timeoutMs: 1000) == Int32(ovs_chain_lost))
        #expect(ovs_chain_wait(side.chain, { _ in 1 }, nil, 1000) == -1)
        #expect(side.silentAsked == 0)
        #expect(side.clock == 0)
    }

    /// A flip that never completes (a DRM driver that kept it pending): frames are
    /// skipped while it is late, and past the limit every wait says so, the other side
    /// not asked; a flip that comes ends it. Without a limit (a compositor keeps a hidden
    /// window's buffers as long as it likes) a wait runs out as ever.
    @Test func aFlipNeverDoneEndsTheWaitsAsStalledPastTheLimit() {
        let side = FakeSide(oneQueued: true, stallMs: 5000)
        #expect(side.acquire(most: 2) == 0)
        ovs_chain_show(side.chain, ovs_chain_cancel(side.chain))
        #expect(side.acquire(most: 2) == 1)
        ovs_chain_queue(side.chain, ovs_chain_cancel(side.chain))
        var answers: [Int32] = []
        while side.clock < 6000 { answers.append(side.acquire(most: 2, timeoutMs: 100)) }
        // Each acquire waits 101 ms: 49 of them end at 4949 ms, the 50th past 5000.
        #expect(answers.prefix(49).allSatisfy { $0 == Int32(ovs_chain_timed_out) })
        #expect(answers.count > 49 && answers.dropFirst(49).allSatisfy { $0 == Int32(ovs_chain_stalled) }, "\(answers)")
        #expect(side.silentAsked == 49)
        #expect(ovs_chain_is_stalled(side.chain) == 1)
        #expect(ovs_chain_wait(side.chain, { _ in 0 }, nil, 100) == Int32(ovs_chain_stalled))
        side.answers = [.flip]
        #expect(side.acquire(most: 2) == 0)
        #expect(ovs_chain_is_stalled(side.chain) == 0)

        let patient = FakeSide(oneQueued: true)
        #expect(patient.acquire(most: 2) == 0)
        ovs_chain_show(patient.chain, ovs_chain_cancel(patient.chain))
        #expect(patient.acquire(most: 2) == 1)
        ovs_chain_queue(patient.chain, ovs_chain_cancel(patient.chain))
        #expect(patient.acquire(most: 2, timeoutMs: 60000) == Int32(ovs_chain_timed_out))
        #expect(ovs_chain_wait(patient.chain, { _ in 0 }, nil, 100) == 0)
    }

    @Test func aWaitThatRunsOutSaysWhatTheSilentSideAnswered() {
        let side = FakeSide(oneQueued: true)
        #expect(ovs_chain_wait(side.chain, { _ in 0 }, nil, 30) == 0)
        side.gone = true
        #expect(ovs_chain_wait(side.chain, { _ in 0 }, nil, 30) == -1)
        #expect(side.silentAsked == 2)
        // Done at once, or told to stop: neither waits nor asks.
        side.waited = []
        #expect(ovs_chain_wait(side.chain, { _ in 1 }, nil, 30) == 1)
        #expect(ovs_chain_wait(side.chain, { _ in -1 }, nil, 30) == 0)
        #expect(side.waited == [0, 0])
        #expect(side.silentAsked == 2)
    }

    @Test func anotherSizeDropsEveryBufferAndMakesThemAnew() {
        let side = FakeSide(oneQueued: false)
        #expect(side.draw() == 0)
        #expect(side.acquire() == 1)
        #expect(ovs_chain_take_fresh(side.chain, 1) == 1)
        #expect(ovs_chain_take_fresh(side.chain, 1) == 0)
        var other: Int32 = 200
        #expect(ovs_chain_reshape(side.chain, &other) == 1)
        #expect(side.dropped == [0, 1])
        #expect(side.chain.pointee.count == 0 && side.chain.pointee.current == -1)
        #expect(ovs_chain_reshape(side.chain, &other) == 0)
        #expect(side.acquire(size: 200) == 0)
        #expect(ovs_chain_take_fresh(side.chain, 0) == 1)
        #expect(side.made == [0, 1, 0])
    }

    @Test func aBufferThatCannotBeMadeIsSaidSoAndNotCounted() {
        let side = FakeSide(oneQueued: false)
        side.makes = false
        #expect(side.acquire() == Int32(ovs_chain_unmade))
        #expect(side.chain.pointee.count == 0)
    }

    @Test func spoiledBuffersAreFreshAgainAndForgottenOnesFree() {
        let side = FakeSide(oneQueued: true)
        _ = side.acquire()
        ovs_chain_show(side.chain, ovs_chain_cancel(side.chain))
        _ = side.acquire()
        ovs_chain_queue(side.chain, ovs_chain_cancel(side.chain))
        for slot: Int32 in 0..<2 { _ = ovs_chain_take_fresh(side.chain, slot) }
        ovs_chain_spoil(side.chain, 1)
        #expect(ovs_chain_take_fresh(side.chain, 0) == 0 && ovs_chain_take_fresh(side.chain, 1) == 1)
        // Another program had the screen: nothing of ours on it or queued, every buffer fresh.
        ovs_chain_forget(side.chain)
        ovs_chain_spoil(side.chain, -1)
        #expect(ovs_chain_count(side.chain, ovs_chain_free) == 2)
        #expect(side.acquire(most: 2) == 0)
        #expect(ovs_chain_take_fresh(side.chain, 0) == 1)
    }
}
