/// A rectangle of whole pixels, as the screen is addressed: what a frame repaints and
/// presents, and where an overlay lies.
public struct PixelRect: Sendable, Equatable {
    public var x: Int32, y: Int32, w: Int32, h: Int32

    public init(x: Int32, y: Int32, w: Int32, h: Int32) {
        self.x = x; self.y = y; self.w = w; self.h = h
    }

    public var isEmpty: Bool { w <= 0 || h <= 0 }

    /// The smallest rectangle holding both (an empty one adds nothing).
    public func union(_ other: PixelRect) -> PixelRect {
        if other.isEmpty { return self }
        if isEmpty { return other }
        let left = min(x, other.x), top = min(y, other.y)
        let right = max(x + w, other.x + other.w), bottom = max(y + h, other.y + other.h)
        return PixelRect(x: left, y: top, w: right - left, h: bottom - top)
    }

    /// Where the two overlap; nil when they do not.
    public func intersection(_ other: PixelRect) -> PixelRect? {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(x + w, other.x + other.w), bottom = min(y + h, other.y + other.h)
        guard !isEmpty, !other.isEmpty, left < right, top < bottom else { return nil }
        return PixelRect(x: left, y: top, w: right - left, h: bottom - top)
    }

    /// The whole pixels a rectangle in fractional pixels touches, and one more on each
    /// side: what an anti-aliased or rounded shape drawn there can change.
    public static func around(x: Double, y: Double, w: Double, h: Double) -> PixelRect {
        let left = (x - 1).rounded(.down), top = (y - 1).rounded(.down)
        let right = (x + w + 1).rounded(.up), bottom = (y + h + 1).rounded(.up)
        return PixelRect(x: Int32(left), y: Int32(top), w: Int32(right - left), h: Int32(bottom - top))
    }
}

/// A rectangle in pixels that may start and end between them: a blended fill, which the
/// drawing code cuts to whole pixels its own way (SDL's renderer, toward zero).
public struct FillRect: Sendable, Equatable {
    public var x: Double, y: Double, w: Double, h: Double

    public init(x: Double, y: Double, w: Double, h: Double) {
        self.x = x; self.y = y; self.w = w; self.h = h
    }
}
