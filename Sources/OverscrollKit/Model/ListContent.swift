/// One row of the list. The id is stable for the row's life, so caches (rasterized text)
/// can key on it while rows are inserted above.
public struct ListRow: Sendable, Equatable {
    public var id: Int
    public var text: String
}

/// Geometry of the list in points.
public struct ListLayout: Sendable, Equatable {
    public var rowHeight: Double = 56
    public var textInset: Double = 20
    public var fontSize: Double = 17

    public init() {}

    public func contentHeight(rows: Int) -> Double { Double(rows) * rowHeight }

    /// Rows that intersect a viewport of `height` at `offset`.
    public func visibleRows(offset: Double, height: Double, count: Int) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        let first = max(0, Int((offset / rowHeight).rounded(.down)))
        let last = min(count, Int(((offset + height) / rowHeight).rounded(.up)))
        return first < last ? first..<last : 0..<0
    }
}
