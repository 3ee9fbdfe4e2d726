/// A frame laid out in pixels: where each part of a `Scene` (in points) lands at a pixel
/// density, worked out once, here, for every way of drawing it. Every layout number — the
/// banner's margin, the indicator's disc, the HUD's panel, the separator's thickness, how
/// each is rounded to pixels — is in this file; a drawing backend only fills, copies and
/// blends where it says. Pure and without SDL, so it is tested like the model.
///
/// Updated in place each frame (`update`), reusing its storage: a frame allocates nothing.
/// What depends on a text's rasterized size (a row's text, the status line, a banner
/// line) is a function of that size (`RowBand.place`, `StatusLayout.rect`,
/// `BannerLayout.lineOrigin`); the banner's lines come from the rasterizing side (`wrap`).
/// The banner is in `BannerLayout.swift`, the graph in `HUDLayout.swift`.
public struct FrameLayout: Sendable {
    /// Pixels per point.
    public private(set) var scale = 1.0
    /// The window in whole pixels.
    public private(set) var width: Int32 = 0
    public private(set) var height: Int32 = 0
    /// The window's size in pixels before rounding: what is centred is centred on it.
    public private(set) var exactWidth = 0.0
    public private(set) var exactHeight = 0.0
    /// The pixel row where the list's first row begins: the gap above a pulled list ends there.
    public private(set) var listTop: Int32 = 0
    /// The pixel row where the list's own background below its last row begins (at the
    /// window's height when the rows reach the bottom).
    public private(set) var backgroundTop: Int32 = 0
    /// The rows on screen, top to bottom, in the scene's order (a later row covers an
    /// earlier one where they overlap).
    public private(set) var rows: [RowBand] = []
    /// How wide a row's text may be, in pixels: the window less the insets on both sides.
    public private(set) var textWidth = 0
    public private(set) var status: StatusLayout?
    public private(set) var indicator: IndicatorLayout?
    public private(set) var scrollBar: ScrollBarLayout?
    /// The bar's layout while it is hidden: its fills keep their storage for the next
    /// time it shows (a new one allocated once per gesture, in steady state).
    private var parkedScrollBar: ScrollBarLayout?
    public private(set) var banner: BannerLayout?
    public private(set) var hud: HUDLayout?
    /// The white blended over the whole window, 0…1 (the threshold flash).
    public private(set) var flash = 0.0

    /// The overlays in the order they are drawn over the list.
    public static let overlayOrder: [SceneOverlays] = [.indicator, .scrollBar, .banner, .hud]
    /// The overlays drawn under the flash (the HUD is drawn over it).
    public static let flashedOverlays: [SceneOverlays] = [.indicator, .scrollBar, .banner]

    public init() {
        rows.reserveCapacity(64)
    }

    public init(_ scene: Scene, scale: Double) {
        self.init()
        update(scene, scale: scale)
    }

    /// Lays `scene` out at `scale` pixels per point, reusing this layout's storage; the
    /// banner's message on one line of `BannerLayout.lineHeight` points (what a drawing
    /// side that rasterizes text passes as `wrap` instead).
    public mutating func update(_ scene: Scene, scale s: Double) {
        update(scene, scale: s) { message, _, scale in
            BannerText(lines: [message], lineHeight: Int32((BannerLayout.lineHeight * scale).rounded()))
        }
    }

    /// Lays `scene` out, the banner's message broken into lines by `wrap`, which is given
    /// the message, the width its lines may take in pixels and the scale (and should keep
    /// what it worked out: it is asked every frame the banner shows).
    public mutating func update(_ scene: Scene, scale s: Double,
                                wrap: (_ message: String, _ width: Double, _ scale: Double) -> BannerText) {
        scale = s
        exactWidth = scene.width * s
        exactHeight = scene.height * s
        width = Int32(exactWidth.rounded())
        height = Int32(exactHeight.rounded())
        listTop = Int32(min(Double(height), max(0, (scene.contentTop * s).rounded(.down))))
        let bottom = Int32(max(0, (scene.contentBottom * s).rounded(.down)))
        backgroundTop = bottom < height ? max(listTop, bottom) : height
        textWidth = Int((scene.width - 2 * scene.textInset) * s)
        let rowHeight = Int32((scene.rowHeight * s).rounded())
        let inset = Int32((scene.textInset * s).rounded())
        // The separator: a row's bottom pixel rows, at least one.
        let line = Int32(max(1, s.rounded(.down)))
        rows.removeAll(keepingCapacity: true)
        for row in scene.rows {
            rows.append(RowBand(id: row.id, text: row.text, shade: RowShade(row), top: Int32(Scene.pixel(row.y, s)),
                                width: width, height: rowHeight, inset: inset, line: line))
        }
        flash = scene.flash
        status = scene.status.flatMap { $0.opacity > 0 ? StatusLayout($0, scale: s, exactWidth: exactWidth, listTop: listTop) : nil }
        indicator = scene.indicator.map { IndicatorLayout($0, centerX: exactWidth / 2, scale: s) }
        updateScrollBar(scene.scrollBar)
        updateBanner(scene.banner, wrap: wrap)
        updateHUD(scene.hud, scene: scene)
    }

    /// Where an overlay draws, in pixels, rounded out; nil when it is not shown.
    public func overlayRect(_ part: SceneOverlays) -> PixelRect? {
        switch part {
        case .indicator: indicator?.bounds
        case .banner: banner?.box
        case .scrollBar: scrollBar?.bounds
        case .hud: hud.map { PixelRect.around(x: $0.panel.x, y: $0.panel.y, w: $0.panel.w, h: $0.panel.h) }
        default: nil
        }
    }

    /// The window's rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, w: width, h: height) }

    private mutating func updateScrollBar(_ bar: ScrollBarScene?) {
        guard let bar else {
            if scrollBar != nil { parkedScrollBar = scrollBar }
            scrollBar = nil
            return
        }
        var layout = scrollBar ?? parkedScrollBar ?? ScrollBarLayout()
        // Keep `layout.fills` uniquely referenced while it is refilled.
        scrollBar = nil
        parkedScrollBar = nil
        layout.update(bar, scale: scale)
        scrollBar = layout
    }

    private mutating func updateBanner(_ scene: BannerScene?, wrap: (String, Double, Double) -> BannerText) {
        guard let scene else { banner = nil; return }
        var layout = banner ?? BannerLayout()
        banner = nil         // as for the scroll bar
        layout.update(scene, scale: scale, exactWidth: exactWidth, wrap: wrap)
        banner = layout
    }

    private mutating func updateHUD(_ graph: HUDScene?, scene: Scene) {
        guard let graph else { hud = nil; return }
        var layout = hud ?? HUDLayout()
        hud = nil            // as for the scroll bar
        layout.update(graph, scale: scale, width: scene.width, height: scene.height)
        hud = layout
    }
}

/// A row's background: which zebra shade, or the emphasis that replaces it.
public enum RowShade: Sendable, Equatable, Hashable {
    case even, odd, highlighted, selected

    public init(_ row: SceneRow) {
        switch row.emphasis {
        case .none: self = row.stripe == 0 ? .even : .odd
        case .highlighted: self = .highlighted
        case .selected: self = .selected
        }
    }
}

/// One row's band of pixel rows: its background, its text's image in it, its separator.
public struct RowBand: Sendable, Equatable {
    public var id: Int
    public var text: String
    public var shade: RowShade
    /// The band's first pixel row and its height; it spans the window's width.
    public var top: Int32
    public var width: Int32
    public var height: Int32
    /// The text's distance from the window's edges.
    public var inset: Int32
    /// The separator's thickness, the band's last pixel rows.
    public var line: Int32

    public var separator: Int32 { top + height - line }
    public var rect: PixelRect { PixelRect(x: 0, y: top, w: width, h: height) }

    /// Where the parts of the row lie with a text image `imageWidth` × `imageHeight`
    /// pixels (none: nil), right-aligned or not.
    public func place(imageWidth: Int32, imageHeight: Int32, rightAligned: Bool) -> RowParts {
        let top = self.top + Int32(((Double(height) - Double(imageHeight)) / 2).rounded())
        // Right-to-left rows end at the right inset.
        let left = rightAligned ? max(inset, width - inset - imageWidth) : inset
        return RowParts(separator: separator, line: line, top: top, left: left,
                        width: max(0, min(imageWidth, width - left)), height: max(0, min(imageHeight, separator - top)))
    }

    /// The parts of a row without text.
    public var withoutText: RowParts {
        RowParts(separator: separator, line: line, top: top, left: 0, width: 0, height: 0)
    }
}

/// Where a row's parts lie in its band, in pixels.
public struct RowParts: Sendable, Equatable {
    /// The separator's first pixel row (it is `line` rows tall, the band's last).
    public var separator: Int32
    public var line: Int32
    /// The text image's top-left corner and the part of it shown.
    public var top: Int32, left: Int32, width: Int32, height: Int32
}

/// The status line under the refresh arc: centred on a whole pixel, like the indicator
/// above it, behind the rows (cut off where the list begins).
public struct StatusLayout: Sendable, Equatable {
    public var text: String
    public var opacity: Double
    /// The pixel row its middle lies on.
    public var centerRow: Int32
    public var exactWidth: Double
    /// The list's top: the line is cut off there.
    public var bottomLimit: Int32

    init(_ status: StatusScene, scale s: Double, exactWidth: Double, listTop: Int32) {
        text = status.text
        opacity = status.opacity
        centerRow = Int32(Scene.nearestPixel(status.centerY, s))
        self.exactWidth = exactWidth
        bottomLimit = listTop
    }

    /// The top pixel row of a line `labelHeight` pixels tall.
    public func top(labelHeight: Int32) -> Int32 { centerRow - labelHeight / 2 }

    /// The left pixel of a line `labelWidth` pixels wide.
    public func left(labelWidth: Int32) -> Int32 { Int32(((exactWidth - Double(labelWidth)) / 2).rounded()) }

    /// Where a line of that size shows: its image's top-left corner and the part of it
    /// above the list; nil when the list covers all of it.
    public func rect(labelWidth: Int32, labelHeight: Int32) -> PixelRect? {
        let y = top(labelHeight: labelHeight)
        let bottom = min(y + labelHeight, bottomLimit)
        guard bottom > y else { return nil }
        return PixelRect(x: left(labelWidth: labelWidth), y: y, w: labelWidth, h: bottom - y)
    }
}

/// The refresh indicator's disc and arc in pixels, centred on a whole pixel, as the rows
/// are: while the list settles by fractions of a pixel it does not shimmer against it.
public struct IndicatorLayout: Sendable, Equatable {
    /// Around the arc, a disc this many points wider than the arc's radius.
    public static let discMargin = 8.0

    public var arc: ArcShape
    public var centerX: Double, centerY: Double
    public var discRadius: Double
    public var ringRadius: Double
    public var halfThickness: Double
    /// The disc's rim, a lighter ring just inside its edge, in pixels: what sets the disc
    /// off from the dark background (the disc's own fill barely does).
    public var rimWidth: Double
    /// The square the indicator is drawn in: its top-left pixel and side.
    public var left: Int32, top: Int32, side: Int32

    public init(_ indicator: IndicatorScene, centerX: Double, scale s: Double) {
        let k = indicator.scale
        arc = indicator.arc
        self.centerX = centerX.rounded()
        centerY = Scene.nearestPixel(indicator.centerY, s)
        discRadius = (indicator.radius + Self.discMargin) * s * k
        ringRadius = indicator.radius * s * k
        halfThickness = indicator.thickness * s * k / 2
        rimWidth = 1.5 * s * k
        // The disc, its 1 px feather and a pixel for rounding.
        let reach = discRadius + 2
        let left = (self.centerX - reach).rounded(.down), top = (centerY - reach).rounded(.down)
        side = Int32((2 * reach).rounded(.up)) + 2
        self.left = Int32(left)
        self.top = Int32(top)
    }

    /// Everything it can change, rounded out.
    public var bounds: PixelRect {
        let r = discRadius + 2
        return PixelRect.around(x: centerX - r, y: centerY - r, w: 2 * r, h: 2 * r)
    }

    /// The centre inside its square.
    public var centerInSquare: (x: Double, y: Double) { (centerX - Double(left), centerY - Double(top)) }

    /// Whether the two are drawn over the same pixels at the same size (a spinner that only turns).
    public func samePlace(_ other: IndicatorLayout) -> Bool {
        left == other.left && top == other.top && side == other.side && centerX == other.centerX && centerY == other.centerY
            && discRadius == other.discRadius && ringRadius == other.ringRadius && halfThickness == other.halfThickness
            && rimWidth == other.rimWidth
    }
}

/// The scroll bar as a capsule of plain fills: a rectangle, and rounded ends one pixel row
/// at a time, from its top and height rounded to whole pixels (`Scene.damage` leaves a bar
/// alone that moved less than that). Fills, not geometry: SDL's software renderer
/// allocates for blended triangles, and this bar is on screen whenever the list moves.
public struct ScrollBarLayout: Sendable, Equatable {
    /// The fills, in the order drawn, all at `opacity`.
    public private(set) var fills: [FillRect] = []
    public private(set) var opacity = 0.0
    public private(set) var bounds = PixelRect(x: 0, y: 0, w: 0, h: 0)

    init() { fills.reserveCapacity(32) }

    mutating func update(_ bar: ScrollBarScene, scale s: Double) {
        opacity = bar.opacity
        bounds = PixelRect.around(x: bar.x * s, y: bar.y * s, w: bar.width * s, h: bar.height * s)
        let x = bar.x * s, y = Scene.nearestPixel(bar.y, s), w = bar.width * s, h = Scene.nearestPixel(bar.height, s)
        let r = min(w, h) / 2
        let capRows = min(Int(r.rounded(.up)), Int(h / 2))
        let cap = Double(capRows)
        fills.removeAll(keepingCapacity: true)
        fills.append(FillRect(x: x, y: y + cap, w: w, h: h - 2 * cap))
        for i in 0..<max(0, capRows) {
            let d = r - (Double(i) + 0.5)            // from the end's centre to this row's middle
            let inset = r - max(0, r * r - d * d).squareRoot()
            fills.append(FillRect(x: x + inset, y: y + Double(i), w: w - 2 * inset, h: 1))
            fills.append(FillRect(x: x + inset, y: y + h - Double(i) - 1, w: w - 2 * inset, h: 1))
        }
    }
}
