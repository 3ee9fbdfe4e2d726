import OverscrollKit

/// frames.csv rows waiting for their frame's presentation: a frame with a touch on a path
/// that says when frames reach the screen (`FrameTiming.scanoutSequence`) is written once
/// the presenter has said (`ReportWriter.presented`), and every later row waits behind it
/// so the file stays in frame order. Fixed storage, warmed once: at most `capacity` rows
/// wait; past that the oldest goes out with its presentation not known. The delay is thus
/// bounded (normally one frame: DRM's flip event arrives before the next frame's commit).
struct ScanoutHold {
    struct Row {
        /// The trace columns, formatted when the frame was appended (the model moves on).
        var head: [UInt8]
        var timing: FrameTiming
        var verdict: FrameVerdict
        var modelNow: Double
        var waiting: Bool
    }

    private var slots: [Row]
    private var first = 0
    private(set) var count = 0

    init(capacity: Int = 8) {
        let blank = Row(head: [], timing: TraceRecord.empty.timing, verdict: TraceRecord.empty.verdict, modelNow: 0, waiting: false)
        slots = (0..<max(1, capacity)).map { _ in
            var row = blank
            row.head.reserveCapacity(1024)
            return row
        }
    }

    var isFull: Bool { count == slots.count }

    /// Queues a row (the caller releases the oldest first when full).
    mutating func add(head: ArraySlice<UInt8>, timing: FrameTiming, verdict: FrameVerdict, modelNow: Double) {
        precondition(!isFull, "release a row before adding one")
        let i = (first + count) % slots.count
        slots[i].head.removeAll(keepingCapacity: true)
        slots[i].head.append(contentsOf: head)
        slots[i].timing = timing
        slots[i].verdict = verdict
        slots[i].modelNow = modelNow
        slots[i].waiting = timing.touchTime != nil && timing.scanoutSequence > 0
        count += 1
    }

    /// Presentation `sequence` reached the screen at `time`: its row gets the time; rows
    /// numbered before it that still wait had their event missed and stay not known.
    mutating func presented(sequence: Int, at time: Double) {
        for k in 0..<count {
            let i = (first + k) % slots.count
            guard slots[i].waiting, slots[i].timing.scanoutSequence <= sequence else { continue }
            if slots[i].timing.scanoutSequence == sequence { slots[i].timing.scanoutTime = time }
            slots[i].waiting = false
        }
    }

    /// Hands out rows from the oldest while they wait for nothing; `all` empties the hold
    /// (the run's end, or room needed), what still waits going out as not known.
    mutating func release(all: Bool = false, _ body: (borrowing Row) -> Void) {
        while count > 0, all || !slots[first].waiting {
            body(slots[first])
            first = (first + 1) % slots.count
            count -= 1
        }
    }

    /// The oldest row goes out whatever it waits for (room for a new one).
    mutating func releaseOldest(_ body: (borrowing Row) -> Void) {
        guard count > 0 else { return }
        body(slots[first])
        first = (first + 1) % slots.count
        count -= 1
    }
}
