/// Frames with a touch whose presentation has not been heard yet: the presenter numbers
/// each trip to the screen (`FrameTiming.scanoutSequence`) and says later when one was
/// shown (DRM's page-flip event carries the vblank's time). Fixed storage: a frame waits
/// here at most until `capacity` newer ones do, so nothing grows and nothing allocates.
struct ScanoutWait: Sendable {
    struct Entry: Sendable {
        var sequence: Int
        var frame: Int
        var touchTime: Double
        var state: UIState
    }

    private var slots: [Entry]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int = 16) {
        slots = Array(repeating: Entry(sequence: 0, frame: 0, touchTime: 0, state: .idle), count: max(1, capacity))
    }

    /// Added in sequence order. The oldest waiting frame falls out when full: its
    /// presentation stays not known.
    mutating func add(_ e: Entry) {
        if count == slots.count { head = (head + 1) % slots.count; count -= 1 }
        slots[(head + count) % slots.count] = e
        count += 1
    }

    /// The frame shown by presentation `sequence`, if one waits. Every entry numbered up
    /// to it leaves: an older one whose event was missed stays not known, never guessed.
    mutating func take(_ sequence: Int) -> Entry? {
        var found: Entry?
        while count > 0, slots[head].sequence <= sequence {
            if slots[head].sequence == sequence { found = slots[head] }
            head = (head + 1) % slots.count
            count -= 1
        }
        return found
    }
}
