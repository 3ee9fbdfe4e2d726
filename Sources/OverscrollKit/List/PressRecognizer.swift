/// Press and tap on a row, as iOS and Android tell them from the start of a scroll:
///
///     idle → pressing → (held 100 ms: highlighted) → released: tap
///                     ↘ moved past the slop, a second finger, cancelled: ignoring
///
/// A release is a tap however long the press was held: a table view on iOS selects on
/// release whatever the duration, and there is no long-press action here for a slow press
/// to mean instead (a slow, careful finger at a kiosk is the one most likely to be lost).
/// It only watches the pointers: the content follows the finger exactly as it would
/// without it (no dead zone, no jump), so the slop decides what the touch *means*, never
/// where the content is. A touch on content that is moving only stops it (the scroll view
/// does that), and the recognizer ignores it: the user was catching the list, not a row.
public struct PressRecognizer: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Movement in points that makes a touch a drag (Android's touch slop is 8 dp).
        public var slop = 8.0
        /// A touch held this long without moving highlights its row (Android's tap
        /// timeout, iOS's delaysContentTouches): a quicker move is a scroll, not a press.
        public var highlightDelay = 0.1

        public init() {}
    }

    public struct Press: Sendable, Equatable {
        public var pointer: PointerID
        public var x: Double
        public var y: Double
        public var since: Double
        /// The row under the touch when it went down (-1: none, e.g. the gap above the list).
        public var row: Int
    }

    public enum State: Sendable, Equatable {
        case idle
        case pressing(Press)
        /// This touch is not a press (it stopped a moving list, moved past the slop, or a
        /// second finger joined): nothing until every pointer is up.
        case ignoring
    }

    public enum Input: Sendable, Equatable {
        /// A pointer went down on `row`; `contentMoving` says the list was in motion.
        case down(PointerID, x: Double, y: Double, row: Int, contentMoving: Bool, at: Double)
        case move(PointerID, x: Double, y: Double)
        case up(PointerID, at: Double)
        /// Every pointer is gone, or the rows changed under the finger.
        case cancel
    }

    public private(set) var state: State = .idle
    public let configuration: Configuration
    /// Pointers down, so a second finger is seen even when the first is not pressing.
    private var pointers = PointerSet()

    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    /// Apply one input; returns the row tapped, if this input completed a tap.
    public mutating func handle(_ input: Input) -> Int? {
        let c = configuration
        switch (state, input) {
        case (_, .down(let id, let x, let y, let row, let moving, let time)):
            guard pointers.insert(id, y: y) else { return nil }
            // Only a lone touch on a still list can be a press.
            if case .idle = state, pointers.entries.count == 1, !moving {
                state = .pressing(Press(pointer: id, x: x, y: y, since: time, row: row))
            } else {
                state = .ignoring
            }
            return nil
        case (.pressing(let press), .move(let id, let x, let y)):
            _ = pointers.update(id, y: y)
            let dx = x - press.x, dy = y - press.y
            if id == press.pointer && dx * dx + dy * dy > c.slop * c.slop { state = .ignoring }
            return nil
        case (.pressing(let press), .up(let id, _)):
            guard pointers.remove(id) else { return nil }
            guard id == press.pointer else { state = .ignoring; return nil }
            state = pointers.isEmpty ? .idle : .ignoring
            return press.row >= 0 ? press.row : nil
        case (.idle, .move(let id, _, let y)), (.ignoring, .move(let id, _, let y)):
            _ = pointers.update(id, y: y)
            return nil
        case (.idle, .up(let id, _)), (.ignoring, .up(let id, _)):
            _ = pointers.remove(id)
            if pointers.isEmpty { state = .idle }
            return nil
        case (_, .cancel):
            // A cancelled gesture was not meant; the fingers still down stay ignored.
            state = pointers.isEmpty ? .idle : .ignoring
            return nil
        }
    }

    /// Every pointer vanished (focus lost, device reset).
    public mutating func reset() {
        pointers.removeAll()
        state = .idle
    }

    /// The row to highlight at `time` (-1 for none): a press held still past the delay.
    public func highlightedRow(at time: Double) -> Int {
        guard case .pressing(let press) = state, time - press.since >= configuration.highlightDelay else { return -1 }
        return press.row
    }
}
