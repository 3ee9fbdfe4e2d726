/// Identifies one finger or the mouse. Touch fingers are only unique while down, per
/// touch device, so the SDL layer folds device and finger into one value.
public struct PointerID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int64
    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// The mouse drives the same path as a finger, under its own id.
    public static let mouse = PointerID(Int64.min)

    public var description: String { self == .mouse ? "mouse" : "finger \(rawValue)" }
}

/// The pointers currently down, in the order they went down. Fixed capacity: touch panels
/// report at most ten fingers, and the storage is allocated once.
struct PointerSet: Sendable {
    struct Entry: Sendable { var id: PointerID; var y: Double }
    private(set) var entries: [Entry]
    static let capacity = 16

    init() { entries = []; entries.reserveCapacity(Self.capacity) }

    var isEmpty: Bool { entries.isEmpty }
    var first: Entry? { entries.first }

    func y(of id: PointerID) -> Double? {
        for entry in entries where entry.id == id { return entry.y }
        return nil
    }

    /// Returns false when the pointer is already down or the set is full.
    mutating func insert(_ id: PointerID, y: Double) -> Bool {
        guard self.y(of: id) == nil, entries.count < Self.capacity else { return false }
        entries.append(Entry(id: id, y: y))
        return true
    }

    mutating func update(_ id: PointerID, y: Double) -> Bool {
        for i in entries.indices where entries[i].id == id {
            entries[i].y = y
            return true
        }
        return false
    }

    mutating func remove(_ id: PointerID) -> Bool {
        guard let i = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.remove(at: i)
        return true
    }

    mutating func removeAll() { entries.removeAll(keepingCapacity: true) }
}
