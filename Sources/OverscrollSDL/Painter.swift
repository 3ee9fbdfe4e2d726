import CSDL
import OverscrollKit

/// Draws a `Scene` with an SDL renderer. Layout is in points; the painter multiplies by
/// the pixel density once, here, so the model never knows about pixels.
public final class Painter {
    private let display: Display
    private var renderer: OpaquePointer { display.renderer }
    public let text: TextCache
    private var mesh = ArcMesh()
    private let hud: HUDPainter
    /// The banner's message cut to fit, worked out once per message and width.
    private var bannerFit: (message: String, width: Double, text: String)?
    public private(set) var scale: Double

    public init(display: Display, text: TextCache, scale: Double) {
        self.display = display
        self.text = text
        self.scale = scale
        hud = HUDPainter(display: display)
    }

    public func setScale(_ newScale: Double) throws(SDLError) {
        scale = newScale
        try text.setScale(newScale)
    }

    /// Draws the whole picture. The scene is everything there is to draw: the painter
    /// reads nothing else.
    public func draw(_ scene: Scene) {
        let s = scale
        let width = scene.width * s, height = scene.height * s
        setColor(Palette.gap)
        SDL_RenderClear(renderer)

        // The list's own background below its last row (short content, or a bounce past
        // the bottom); rows paint the rest, so nothing is filled twice.
        let bottom = max(0, scene.contentBottom * s)
        if bottom < height { fill(x: 0, y: bottom, w: width, h: height - bottom, Palette.background) }
        // Behind the rows: the list uncovers it as the gap opens.
        if let status = scene.status { drawStatus(status, width: width) }

        let rowHeight = scene.rowHeight * s
        let inset = scene.textInset * s
        text.fit(width: Int(width - 2 * inset))
        for row in scene.rows {
            let y = row.y * s
            fill(x: 0, y: y, w: width, h: rowHeight, Self.rowColor(row))
            fill(x: 0, y: y + rowHeight - max(1, s.rounded(.down)), w: width, h: max(1, s.rounded(.down)), Palette.separator)
            if let label = text.row(row.id, text: row.text) {
                let ty = y + (rowHeight - Double(label.height)) / 2
                // Rows are drawn in their colour already (emoji keep theirs): no tint.
                let tx = label.alignment == .right ? width - inset - Double(label.width) : inset
                blit(label, x: tx, y: ty, color: Palette.flash, alpha: 1)
            }
        }

        if let indicator = scene.indicator { drawIndicator(indicator, width: scene.width) }
        if let bar = scene.scrollBar { drawScrollBar(bar) }
        if let banner = scene.banner { drawBanner(banner, width: width) }
        if scene.flash > 0 {
            fill(x: 0, y: 0, w: width, h: height, Palette.flash, alpha: scene.flash)
        }
        if let graph = scene.hud { hud.draw(graph, text: text, scale: s, width: scene.width, height: scene.height) }
    }

    private func drawIndicator(_ indicator: IndicatorScene, width: Double) {
        let s = scale
        let cx = width / 2 * s, cy = indicator.centerY * s
        let k = indicator.scale
        mesh.buildDisc(cx: cx, cy: cy, radius: (indicator.radius + 8) * s * k,
                       color: Palette.indicatorDisc, opacity: indicator.arc.opacity)
        mesh.draw(renderer)
        mesh.build(cx: cx, cy: cy, radius: indicator.radius * s * k, thickness: indicator.thickness * s * k,
                   startTurns: indicator.arc.start, sweepTurns: indicator.arc.sweep,
                   color: Palette.accent, opacity: indicator.arc.opacity)
        mesh.draw(renderer)
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
