/// The parts of a scene that are drawn over the list and can be repainted on their own,
/// each inside its own rectangle.
public struct SceneOverlays: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let indicator = SceneOverlays(rawValue: 1 << 0)
    public static let banner = SceneOverlays(rawValue: 1 << 1)
    public static let hud = SceneOverlays(rawValue: 1 << 2)
    public static let scrollBar = SceneOverlays(rawValue: 1 << 3)
}

/// What must be repainted to turn the last frame's picture into this one's.
public enum SceneDamage: Sendable, Equatable {
    /// The same picture: nothing to draw or present.
    case none
    /// Only these overlays changed: repaint their old and new rectangles.
    case overlays(SceneOverlays)
    /// Anything else changed (a scroll, the rows, the size, the flash): repaint it all.
    case full
}

extension Scene {
    /// What changed since `previous` (nil: nothing is on screen yet, so everything), as
    /// seen at `pixelScale` pixels per point: rows are drawn on whole pixels, so a list
    /// that moved less than a pixel (the long tail of a spring settling) looks the same
    /// and is not drawn again.
    ///
    /// Everything but the overlays is compared as a whole, so a scene element added later
    /// repaints the whole window when it changes until it is given a rectangle of its own:
    /// correct first, cheap where it was made cheap.
    public func damage(since previous: Scene?, pixelScale: Double = 1) -> SceneDamage {
        guard let previous else { return .full }
        var overlays: SceneOverlays = []
        if indicator != previous.indicator { overlays.insert(.indicator) }
        if banner != previous.banner { overlays.insert(.banner) }
        if hud != previous.hud { overlays.insert(.hud) }
        // The bar fades after the list stops: its own rectangle, not the whole window. Like
        // the rows it is drawn on whole pixels, so while the list settles by fractions of a
        // pixel it is left alone (and a turning spinner is all a frame draws).
        if !Self.sameOnPixels(scrollBar, previous.scrollBar, pixelScale) { overlays.insert(.scrollBar) }
        // Copies share the rows' storage; clearing the overlays on them allocates nothing.
        var now = self, before = previous
        now.indicator = nil; before.indicator = nil
        now.banner = nil; before.banner = nil
        now.hud = nil; before.hud = nil
        now.scrollBar = nil; before.scrollBar = nil
        if Self.sameOnPixels(rows, previous.rows, pixelScale) {
            now.rows = before.rows              // shares storage: no copy
            now.contentTop = Self.pixel(contentTop, pixelScale); before.contentTop = Self.pixel(previous.contentTop, pixelScale)
            now.contentBottom = Self.pixel(contentBottom, pixelScale); before.contentBottom = Self.pixel(previous.contentBottom, pixelScale)
        }
        // The status line is centred on a whole pixel, as the indicator over it.
        if let a = status, let b = previous.status, Self.nearestPixel(a.centerY, pixelScale) == Self.nearestPixel(b.centerY, pixelScale) {
            now.status?.centerY = b.centerY
        }
        if now != before { return .full }
        return overlays.isEmpty ? .none : .overlays(overlays)
    }

    /// The pixel row a y in points is drawn on.
    public static func pixel(_ y: Double, _ scale: Double) -> Double { (y * scale).rounded(.down) }

    /// The pixel boundary nearest a y (or a height) in points: where what is centred (the
    /// indicator, the status line) or rounded (the scroll bar's ends) is drawn.
    public static func nearestPixel(_ y: Double, _ scale: Double) -> Double { (y * scale).rounded() }

    /// Whether the two bars cover the same pixels alike: the painter draws a bar from its
    /// top and height rounded to pixels, and from the rest as they are.
    private static func sameOnPixels(_ a: ScrollBarScene?, _ b: ScrollBarScene?, _ scale: Double) -> Bool {
        guard var a, let b else { return a == nil && b == nil }
        guard nearestPixel(a.y, scale) == nearestPixel(b.y, scale),
              nearestPixel(a.height, scale) == nearestPixel(b.height, scale) else { return false }
        a.y = b.y; a.height = b.height
        return a == b
    }

    private static func sameOnPixels(_ a: [SceneRow], _ b: [SceneRow], _ scale: Double) -> Bool {
        guard a.count == b.count else { return false }
        for i in a.indices {
            // Everything of a row but where it is exactly (its emphasis, and whatever a row
            // gains later) must be the same; its position only to the pixel.
            var x = a[i]
            let y = b[i]
            guard pixel(x.y, scale) == pixel(y.y, scale) else { return false }
            x.y = y.y
            guard x == y else { return false }
        }
        return true
    }
}
