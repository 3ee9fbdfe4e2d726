/// Recognizes a three-finger tap: three fingers down together, hardly moving, all lifted
/// within a short time. A kiosk has no keyboard, so this is how the HUD is toggled there.
/// It only watches; the events still go to the model (a second and third finger never
/// move the list anyway).
public struct ThreeFingerTap: Sendable {
    public var maxDuration = 0.5
    public var slop = 24.0

    private struct Finger: Sendable { var id: PointerID; var x: Double; var y: Double }
    private var fingers: [Finger] = []
    private var start = 0.0
    private var peak = 0
    private var moved = false

    public init() { fingers.reserveCapacity(8) }

    /// Feed every input; returns true on the event that completes a tap.
    public mutating func observe(_ input: TimedInput) -> Bool {
        switch input.event {
        case let .pointerDown(id, x, y):
            guard id != .mouse, !fingers.contains(where: { $0.id == id }) else { return false }
            // A lost "up" must not wedge it: more than a hand's worth of fingers starts over.
            if fingers.count >= 5 { fingers.removeAll(keepingCapacity: true) }
            if fingers.isEmpty { start = input.time; peak = 0; moved = false }
            fingers.append(Finger(id: id, x: x, y: y))
            peak = max(peak, fingers.count)
        case let .pointerMove(id, x, y):
            if let f = fingers.first(where: { $0.id == id }), abs(f.x - x) > slop || abs(f.y - y) > slop { moved = true }
        case let .pointerUp(id):
            guard let index = fingers.firstIndex(where: { $0.id == id }) else { return false }
            fingers.remove(at: index)
            if fingers.isEmpty {
                return peak == 3 && !moved && input.time - start <= maxDuration
            }
        case .pointerCancel:
            fingers.removeAll(keepingCapacity: true)
        case .wheel, .resize, .key, .refreshCompleted:
            break
        }
        return false
    }
}
