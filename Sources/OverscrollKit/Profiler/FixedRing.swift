/// The last `capacity` values, in storage allocated once: appending overwrites the oldest
/// and never allocates, so a ring can run for days.
public struct FixedRing<Element: Sendable>: Sendable {
    private var storage: [Element]
    private var next = 0
    public private(set) var count = 0
    public var capacity: Int { storage.count }

    public init(capacity: Int, filler: Element) {
        precondition(capacity > 0, "a ring needs room for at least one element")
        storage = Array(repeating: filler, count: capacity)
    }

    public mutating func append(_ element: Element) {
        storage[next] = element
        next += 1
        if next == storage.count { next = 0 }
        if count < storage.count { count += 1 }
    }

    public mutating func removeAll() {
        next = 0
        count = 0
    }

    /// Visits the elements oldest first, without copying the storage.
    public func forEach(_ body: (Element) throws -> Void) rethrows {
        var i = count < storage.count ? 0 : next
        for _ in 0..<count {
            try body(storage[i])
            i += 1
            if i == storage.count { i = 0 }
        }
    }

    /// The element `offset` places after the oldest.
    public subscript(offset: Int) -> Element {
        precondition(offset >= 0 && offset < count, "ring index out of range")
        let start = count < storage.count ? 0 : next
        return storage[(start + offset) % storage.count]
    }

    /// Changes the element `offset` places after the oldest, in place.
    public mutating func modify(_ offset: Int, _ body: (inout Element) -> Void) {
        precondition(offset >= 0 && offset < count, "ring index out of range")
        let start = count < storage.count ? 0 : next
        body(&storage[(start + offset) % storage.count])
    }

    /// Oldest first, into `buffer` (reusing its capacity, so a HUD redrawn every frame
    /// allocates only the first time).
    public func copy(into buffer: inout [Element]) {
        buffer.removeAll(keepingCapacity: true)
        forEach { buffer.append($0) }
    }
}
