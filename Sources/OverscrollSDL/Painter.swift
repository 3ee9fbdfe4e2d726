import CSDL
import OverscrollKit

/// Draws a `Scene` with an SDL renderer. Layout is in points; the painter multiplies by
/// the pixel density once, here, so the model never knows about pixels.
///
/// Each element is drawn by a small function and, if it can change on its own, has a
/// rectangle (`overlayRect`): when only overlays changed since the last frame and the
/// display keeps its pixels (the CPU path), only their rectangles are repainted — the
/// list under them, then the overlays, clipped — and only those reach the screen.
public final class Painter {
    private static let overlayOrder: [SceneOverlays] = [.indicator, .scrollBar, .banner, .hud]

    /// What a frame drew, and so what to present.
    public enum Painted: Equatable {
        case nothing
        /// The rectangles in `damage`.
        case rects
        case whole
    }

    private let display: Display
    private var renderer: OpaquePointer { display.renderer }
    public let text: TextCache
    private let rowImages: RowImages
    private let indicator: IndicatorImage
    private let hud: HUDPainter
    /// The banner's message cut to fit, worked out once per message and width.
    private var bannerFit: (message: String, width: Double, text: String)?
    public private(set) var scale: Double
    /// This frame's repainted rectangles in pixels, when it repainted parts.
    public private(set) var damage: [SDL_Rect] = []
    /// What is on screen is not the last scene (nothing yet, a new surface, an expose):
    /// the next frame repaints everything.
    private var invalid = true
    /// On the CPU path the list is written straight into the window surface
    /// (`WindowCanvas`); overlays still go through the renderer, which draws there too.
    private var canvas: WindowCanvas?
    private var direct = true

    public init(display: Display, text: TextCache, scale: Double) {
        self.display = display
        self.text = text
        self.scale = scale
        rowImages = RowImages(display: display, text: text)
        indicator = IndicatorImage(display: display)
        hud = HUDPainter(display: display)
        damage.reserveCapacity(8)
    }

    public func setScale(_ newScale: Double) throws(SDLError) {
        scale = newScale
        invalid = true
        try text.setScale(newScale)
    }

    /// The picture on screen was lost or resized: repaint all of it next frame.
    public func invalidate() { invalid = true }

    /// Draws the whole picture. The scene is everything there is to draw: the painter
    /// reads nothing else.
    public func draw(_ scene: Scene) {
        _ = draw(scene, since: nil)
    }

    /// Draws the whole picture into the current render target (a texture: a rotated
    /// picture), through the renderer only.
    func drawIntoTarget(_ scene: Scene) {
        direct = false
        defer { direct = true }
        _ = draw(scene, since: nil)
    }

    /// Draws what differs from `previous`, the scene drawn last frame (nil: everything).
    /// Returns what to present (`present`).
    public func draw(_ scene: Scene, since previous: Scene?) -> Painted {
        let change = invalid || !display.keepsPixels ? .full : scene.damage(since: previous, pixelScale: scale)
        invalid = false
        damage.removeAll(keepingCapacity: true)
        // Only a changed list can bring new rows; they are composed before drawing starts.
        if change == .full {
            // Rows are cut to the window's width, less the insets.
            text.fit(width: Int((scene.width - 2 * scene.textInset) * scale))
            prepareRows(scene)
        }
        canvas = direct && display.path == .cpu ? WindowCanvas(window: display.window) : nil
        if let c = canvas, c.pixelFormat != rowImages.format { canvas = nil }
        switch change {
        case .none:
            return .nothing
        case .full:
            drawList(scene)
            drawOverlays(scene)
            return .whole
        case .overlays(let parts):
            let bounds = SDL_Rect(x: 0, y: 0, w: Int32((scene.width * scale).rounded()), h: Int32((scene.height * scale).rounded()))
            for part in Self.overlayOrder where parts.contains(part) {
                var area = SDL_Rect()
                let old = previous.flatMap { overlayRect(part, of: $0) }, new = overlayRect(part, of: scene)
                switch (old, new) {
                case let (a?, b?): var a = a, b = b; SDL_UnionRect(&a, &b, &area)
                case let (a?, nil): area = a
                case let (nil, b?): area = b
                case (nil, nil): continue
                }
                var clipped = SDL_Rect(), window = bounds
                guard SDL_IntersectRect(&area, &window, &clipped) == SDL_TRUE else { continue }
                damage.append(clipped)
            }
            for var area in damage {
                SDL_RenderSetClipRect(renderer, &area)
                canvas?.clip = area
                drawList(scene, within: area)
                drawOverlays(scene)
            }
            SDL_RenderSetClipRect(renderer, nil)
            return damage.isEmpty ? .nothing : .rects
        }
    }

    /// Shows what `draw` returned: only the damaged rectangles where the display allows.
    public func present(_ painted: Painted) {
        switch painted {
        case .nothing: display.present(damage)       // flushes; an empty list shows nothing
        case .rects: display.present(damage)
        case .whole: display.present(nil)
        }
    }

    // MARK: Elements

    /// Composes the images of rows new on screen, before any drawing (it switches targets).
    private func prepareRows(_ scene: Scene) {
        rowImages.beginFrame(scale: scale, width: Int32((scene.width * scale).rounded()), visible: scene.rows.count)
        for row in scene.rows { _ = rowImages.image(for: row) }
    }

    /// The list: the gap above a pulled list, the rows, the list's own background below
    /// its last row. Each pixel is painted once.
    private func drawList(_ scene: Scene, within area: SDL_Rect? = nil) {
        let s = scale
        let width = Int32((scene.width * s).rounded()), height = Int32((scene.height * s).rounded())
        // The renderer draws into the same surface: what it has queued goes first.
        if canvas != nil { SDL_RenderFlush(renderer) }
        let top = Int32(min(Double(height), max(0, (scene.contentTop * s).rounded(.down))))
        if top > 0 { fill(SDL_Rect(x: 0, y: 0, w: width, h: top), Palette.gap) }
        // Behind the rows: the list uncovers it as the gap opens. Blended by the renderer,
        // so it is flushed before the rows are written over it.
        if let status = scene.status {
            drawStatus(status, width: scene.width * s)
            if canvas != nil { SDL_RenderFlush(renderer) }
        }
        let rowHeight = Int32((scene.rowHeight * s).rounded())
        let inset = Int32((scene.textInset * s).rounded())
        for row in scene.rows {
            var band = SDL_Rect(x: 0, y: Int32(Scene.pixel(row.y, s)), w: width, h: rowHeight)
            if var area, SDL_HasIntersection(&area, &band) != SDL_TRUE { continue }
            drawRow(row, in: band, inset: inset)
        }
        let bottom = Int32(max(0, (scene.contentBottom * s).rounded(.down)))
        if bottom < height { fill(SDL_Rect(x: 0, y: max(top, bottom), w: width, h: height - max(top, bottom)), Palette.background) }
    }

    /// One row in `band`: the text's opaque image, the background around it, the
    /// separator (the bottom pixel row, at least 1 px). Nothing is painted twice.
    private func drawRow(_ row: SceneRow, in band: SDL_Rect, inset: Int32) {
        let line = Int32(max(1, scale.rounded(.down)))
        let background = Self.rowColor(row)
        let bottom = band.y + band.h - line
        fill(SDL_Rect(x: 0, y: bottom, w: band.w, h: line), Palette.separator)
        guard let image = rowImages.image(for: row) else {
            fill(SDL_Rect(x: 0, y: band.y, w: band.w, h: bottom - band.y), background)
            return
        }
        let top = band.y + Int32(((Double(band.h) - Double(image.height)) / 2).rounded())
        // Right-to-left rows end at the right inset.
        let left = image.alignment == .right ? max(inset, band.w - inset - image.width) : inset
        let width = max(0, min(image.width, band.w - left))
        let height = max(0, min(image.height, bottom - top))
        fill(SDL_Rect(x: 0, y: band.y, w: band.w, h: top - band.y), background)
        fill(SDL_Rect(x: 0, y: top, w: left, h: height), background)
        if let canvas, !image.pixels.isEmpty {
            image.pixels.withUnsafeBufferPointer { p in
                canvas.copy(p.baseAddress!, imageStride: image.width, width: width, height: height, x: left, y: top)
            }
        } else {
            var source = SDL_Rect(x: 0, y: 0, w: width, h: height)
            var destination = SDL_Rect(x: left, y: top, w: width, h: height)
            SDL_RenderCopy(renderer, image.texture, &source, &destination)
        }
        fill(SDL_Rect(x: left + width, y: top, w: band.w - left - width, h: height), background)
        fill(SDL_Rect(x: 0, y: top + height, w: band.w, h: bottom - top - height), background)
    }

    /// What is drawn over the list, blended, in this order.
    private func drawOverlays(_ scene: Scene) {
        let width = scene.width * scale, height = scene.height * scale
        if let indicator = scene.indicator { drawIndicator(indicator, width: scene.width) }
        if let bar = scene.scrollBar { drawScrollBar(bar) }
        if let banner = scene.banner { drawBanner(banner, width: width) }
        if scene.flash > 0 {
            if let canvas {
                SDL_RenderFlush(renderer)          // the indicator and banner lie under it
                canvas.blend(Palette.flash, alpha: scene.flash)
            } else {
                fill(x: 0, y: 0, w: width, h: height, Palette.flash, alpha: scene.flash)
            }
        }
        if let graph = scene.hud { hud.draw(graph, text: text, scale: scale, width: scene.width, height: scene.height) }
    }

    /// Where an overlay of `scene` draws, in pixels, rounded out; nil when it is not shown.
    private func overlayRect(_ part: SceneOverlays, of scene: Scene) -> SDL_Rect? {
        let s = scale
        switch part {
        case .indicator:
            guard let indicator = scene.indicator else { return nil }
            // The disc's radius, its 1 px feather, and a pixel for rounding.
            let r = (indicator.radius + 8) * s * indicator.scale + 2
            return pixelRect(x: scene.width / 2 * s - r, y: indicator.centerY * s - r, w: 2 * r, h: 2 * r)
        case .banner:
            guard scene.banner != nil else { return nil }
            let margin = 12 * s
            return pixelRect(x: margin, y: margin, w: scene.width * s - 2 * margin, h: 40 * s)
        case .scrollBar:
            guard let bar = scene.scrollBar else { return nil }
            return pixelRect(x: bar.x * s, y: bar.y * s, w: bar.width * s, h: bar.height * s)
        case .hud:
            guard scene.hud != nil else { return nil }
            let frame = HUDPainter.panel(scale: s, width: scene.width, height: scene.height)
            return pixelRect(x: frame.x, y: frame.y, w: frame.w, h: frame.h)
        default:
            return nil
        }
    }

    private func pixelRect(x: Double, y: Double, w: Double, h: Double) -> SDL_Rect {
        let left = (x - 1).rounded(.down), top = (y - 1).rounded(.down)
        let right = (x + w + 1).rounded(.up), bottom = (y + h + 1).rounded(.up)
        return SDL_Rect(x: Int32(left), y: Int32(top), w: Int32(right - left), h: Int32(bottom - top))
    }

    private func drawIndicator(_ indicator: IndicatorScene, width: Double) {
        self.indicator.draw(indicator, centerX: width / 2 * scale, scale: scale)
    }

    static func rowColor(_ row: SceneRow) -> SDL_Color {
        switch row.emphasis {
        case .none: row.index % 2 == 0 ? Palette.rowEven : Palette.rowOdd
        case .highlighted: Palette.rowHighlighted
        case .selected: Palette.rowSelected
        }
    }

    /// The bar as a capsule of plain fills: a rectangle, and rounded ends one pixel row
    /// at a time. Fills, not geometry: SDL's software renderer allocates for blended
    /// triangles, and this bar is on screen whenever the list moves.
    private func drawScrollBar(_ bar: ScrollBarScene) {
        let s = scale
        let x = bar.x * s, y = (bar.y * s).rounded(), w = bar.width * s, h = (bar.height * s).rounded()
        let r = min(w, h) / 2
        let capRows = min(Int(r.rounded(.up)), Int(h / 2))
        let cap = Double(capRows)
        fill(x: x, y: y + cap, w: w, h: h - 2 * cap, Palette.scrollBar, alpha: bar.opacity)
        for i in 0..<capRows {
            let d = r - (Double(i) + 0.5)            // from the end's centre to this row's middle
            let inset = r - max(0, r * r - d * d).squareRoot()
            fill(x: x + inset, y: y + Double(i), w: w - 2 * inset, h: 1, Palette.scrollBar, alpha: bar.opacity)
            fill(x: x + inset, y: y + h - Double(i) - 1, w: w - 2 * inset, h: 1, Palette.scrollBar, alpha: bar.opacity)
        }
    }

    private func drawStatus(_ status: StatusScene, width: Double) {
        guard status.opacity > 0, let label = text.label(status.text) else { return }
        let x = (width - Double(label.width)) / 2
        blit(label, x: x, y: status.centerY * scale - Double(label.height) / 2, color: Palette.statusText, alpha: status.opacity)
    }

    private func drawBanner(_ banner: BannerScene, width: Double) {
        let s = scale
        let margin = 12 * s, h = 40 * s
        fill(x: margin, y: margin, w: width - 2 * margin, h: h, Palette.errorBanner, alpha: 0.95 * banner.opacity)
        if let label = text.label(fitted(banner.message, width: width - 2 * margin - 16 * s)) {
            let x = max(margin + 8 * s, (width - Double(label.width)) / 2)
            blit(label, x: x, y: margin + (h - Double(label.height)) / 2, color: Palette.flash, alpha: banner.opacity)
        }
    }

    /// `message`, cut with an ellipsis so it fits in `width` pixels. Rasterizes a few
    /// candidates when a new message appears; afterwards it is a comparison per frame.
    private func fitted(_ message: String, width: Double) -> String {
        if let fit = bannerFit, fit.message == message, fit.width == width { return fit.text }
        var result = message
        if let full = text.label(message), Double(full.width) > width {
            var characters = Array(message)
            var low = 0, high = characters.count
            while low < high {        // the longest prefix that fits, with "…"
                let mid = (low + high + 1) / 2
                let candidate = String(characters[..<mid]) + "…"
                if let entry = text.label(candidate), Double(entry.width) <= width { low = mid } else { high = mid - 1 }
            }
            characters = Array(characters[..<low])
            result = String(characters) + "…"
        }
        bannerFit = (message, width, result)
        return result
    }

    // MARK: Primitives

    private func setColor(_ c: SDL_Color, alpha: Double = 1) {
        let a = UInt8(max(0, min(255, (Double(c.a) * alpha).rounded())))
        // Opaque fills skip blending: on the software renderer that is most of a frame.
        SDL_SetRenderDrawBlendMode(renderer, a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, a)
    }

    private func fill(_ rect: SDL_Rect, _ color: SDL_Color) {
        guard rect.w > 0, rect.h > 0 else { return }
        if let canvas { return canvas.fill(rect, color) }
        setColor(color)
        var rect = rect
        SDL_RenderFillRect(renderer, &rect)
    }

    private func fill(x: Double, y: Double, w: Double, h: Double, _ color: SDL_Color, alpha: Double = 1) {
        setColor(color, alpha: alpha)
        var rect = SDL_FRect(x: Float(x), y: Float(y), w: Float(w), h: Float(h))
        SDL_RenderFillRectF(renderer, &rect)
    }

    private func blit(_ entry: TextCache.Entry, x: Double, y: Double, color: SDL_Color, alpha: Double) {
        SDL_SetTextureColorMod(entry.texture, color.r, color.g, color.b)
        SDL_SetTextureAlphaMod(entry.texture, UInt8(max(0, min(255, (255 * alpha).rounded()))))
        var dst = SDL_FRect(x: Float(x.rounded()), y: Float(y.rounded()), w: Float(entry.width), h: Float(entry.height))
        SDL_RenderCopyF(renderer, entry.texture, nil, &dst)
    }
}
