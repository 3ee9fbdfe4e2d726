import OverscrollKit

/// Buffers in memory shown as DRM dumb buffers are, on a display that scans out at every
/// vblank of `FixedVblank`: a commit queues a page flip that completes at the first vblank
/// after it, one flip pending at a time (a commit while one is pending waits for it, as
/// `ovs_drm_commit` does on EBUSY), each flip numbered and its vblank told as the flip
/// event tells it (`lastShown`: every flip once, oldest first, as `ovs_drm_next_shown`
/// tells a DRM device's). Where there is no screen — `overscroll-bench latency`,
/// tests — it gives the shared-memory presenter the DRM path's waits, with times known
/// exactly. Nothing is read back; the memory is `MemoryBufferChain`'s.
final class VblankMemoryChain: BufferChain {
    let vblank: FixedVblank
    private let memory = MemoryBufferChain()
    /// The pending flip: its number and the vblank it completes at.
    private var pending: (sequence: Int, at: Double)?
    private var flips = 0
    private var commitSequence = 0
    private var shown: Presentation?
    /// Flips done and not yet told (`lastShown`), oldest first: a commit completes the
    /// pending flip, so two can be done between two looks.
    private var heard: [Presentation] = []
    /// Seconds spent waiting for a pending flip (in `waitFrame` and `commit`) since
    /// `takeFlipWait`: the part of a frame's present that is the frame before's vblank.
    private var flipWait = 0.0

    init(vblank: FixedVblank) {
        self.vblank = vblank
        heard.reserveCapacity(4)
    }

    var most: Int { memory.most }
    var showsFromAnyPixel: Bool { true }
    var broken: Bool { false }

    /// The pending flip is done once its vblank has passed: no event is missed.
    private func complete(now: Double) {
        guard let p = pending, p.at <= now else { return }
        shown = Presentation(sequence: p.sequence, time: p.at)
        heard.append(Presentation(sequence: p.sequence, time: p.at))
        pending = nil
    }

    /// Sleeps until the pending flip's vblank, at most `timeoutMs`.
    private func waitPending(timeoutMs: Int32, counted: Bool) {
        let start = MonotonicClock.now()
        complete(now: start)
        guard let p = pending else { return }
        MonotonicClock.sleep(min(p.at, start + Double(max(0, timeoutMs)) / 1000) - start)
        let end = MonotonicClock.now()
        complete(now: end)
        if counted { flipWait += end - start }
    }

    func waitFrame(timeoutMs: Int32) -> Bool {
        waitPending(timeoutMs: timeoutMs, counted: true)
        return true
    }

    func acquire(_ shape: BufferShape, most: Int32, timeoutMs: Int32) -> ChainBuffer? {
        memory.acquire(shape, most: most, timeoutMs: timeoutMs)
    }

    func damage(x: Int32, y: Int32, width: Int32, height: Int32) {}

    func commit() -> Bool {
        waitPending(timeoutMs: 100, counted: true)
        flips += 1
        commitSequence = flips
        pending = (flips, vblank.next(after: MonotonicClock.now()))
        return true
    }

    var scanoutSequence: Int { commitSequence }

    /// The oldest flip done and not told yet; once all were told, the last one again.
    func lastShown(waitingMs: Int32) -> Presentation? {
        waitPending(timeoutMs: waitingMs, counted: false)
        return heard.isEmpty ? shown : heard.removeFirst()
    }

    var scanoutClock: String? { "a fixed vblank (FixedVblank, no screen): a flip at the first vblank after its commit" }

    /// The flip waits since the last call, and none from then on.
    func takeFlipWait() -> Double {
        defer { flipWait = 0 }
        return flipWait
    }
}
