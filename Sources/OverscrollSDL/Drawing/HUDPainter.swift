import CSDL
import OverscrollKit

/// The on-screen frame-time HUD (F2, or a three-finger tap on a kiosk), drawn where its
/// layout (`HUDLayout`) puts the panel, the figures, the phase bars, the interval strip,
/// the budget line, the labels and the legend. The bars go to SDL as arrays of rectangles
/// kept here: they grow once to the graph's capacity, then drawing a frame allocates nothing.
final class HUDPainter {
    private var phaseBars: [[SDL_FRect]] = [[], [], [], []]
    private var clipMarks: [SDL_FRect] = []
    private var intervalBars: [SDL_FRect] = []
    private var jankBars: [SDL_FRect] = []

    func draw(_ graph: HUDLayout, text: TextCache, renderer: OpaquePointer) {
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 240)
        var panel = Self.rect(graph.panel)
        SDL_RenderFillRectF(renderer, &panel)
        // Each frame's phases, stacked, in frames.svg's colours; a mark where one is cut.
        for (k, phase) in HUDLayout.phases.enumerated() {
            Self.convert(graph.phaseBars[k], into: &phaseBars[k])
            let c = Self.color(phase.rgb)
            SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, 235)
            SDL_RenderFillRectsF(renderer, phaseBars[k], Int32(phaseBars[k].count))
        }
        Self.convert(graph.clipMarks, into: &clipMarks)
        SDL_SetRenderDrawColor(renderer, Self.clipped.r, Self.clipped.g, Self.clipped.b, 255)
        SDL_RenderFillRectsF(renderer, clipMarks, Int32(clipMarks.count))
        // The intervals, late ones orange.
        Self.convert(graph.intervalBars, into: &intervalBars)
        Self.convert(graph.jankBars, into: &jankBars)
        SDL_SetRenderDrawColor(renderer, Self.interval.r, Self.interval.g, Self.interval.b, 220)
        SDL_RenderFillRectsF(renderer, intervalBars, Int32(intervalBars.count))
        SDL_SetRenderDrawColor(renderer, 0xFF, 0x6E, 0x40, 240)
        SDL_RenderFillRectsF(renderer, jankBars, Int32(jankBars.count))
        // The budget: the measured refresh period.
        SDL_SetRenderDrawColor(renderer, 0xFF, 0xFF, 0xFF, 200)
        var line = Self.rect(graph.budgetLine)
        SDL_RenderFillRectF(renderer, &line)
        draw(graph.lines.0, at: graph.lineOrigin(0), text: text, renderer: renderer)
        draw(graph.lines.1, at: graph.lineOrigin(1), text: text, renderer: renderer)
        draw(graph.lines.2, at: graph.lineOrigin(2), text: text, renderer: renderer)
        draw(graph.lines.3, at: graph.lineOrigin(3), text: text, renderer: renderer)
        if let budget = text.label(graph.budgetLabel) {
            draw(budget, at: graph.budgetLabelOrigin(labelHeight: budget.height), renderer: renderer)
        }
        draw(graph.stripLabel, at: graph.stripLabelOrigin(0), text: text, renderer: renderer, color: Self.interval)
        draw(graph.stripScaleLabel, at: graph.stripLabelOrigin(1), text: text, renderer: renderer, color: Self.interval)
        for (k, phase) in HUDLayout.phases.enumerated() where k < graph.legendSwatches.count {
            let c = Self.color(phase.rgb)
            SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, 255)
            var swatch = Self.rect(graph.legendSwatches[k])
            SDL_RenderFillRectF(renderer, &swatch)
            draw(phase.phase.rawValue, at: graph.legendOrigin(k), text: text, renderer: renderer, color: c)
        }
    }

    /// The interval bars' colour, and their labels'; the mark of a cut spike.
    private static let interval = SDL_Color(r: 0xA8, g: 0xB8, b: 0xC8, a: 0xFF)
    private static let clipped = SDL_Color(r: 0xFF, g: 0x52, b: 0x52, a: 0xFF)

    private static func color(_ rgb: UInt32) -> SDL_Color {
        SDL_Color(r: UInt8(rgb >> 16 & 0xFF), g: UInt8(rgb >> 8 & 0xFF), b: UInt8(rgb & 0xFF), a: 0xFF)
    }

    private func draw(_ line: String, at origin: (x: Double, y: Double), text: TextCache, renderer: OpaquePointer,
                      color: SDL_Color = Palette.flash) {
        guard let entry = text.label(line) else { return }
        draw(entry, at: origin, renderer: renderer, color: color)
    }

    private func draw(_ entry: TextCache.Entry, at origin: (x: Double, y: Double), renderer: OpaquePointer,
                      color: SDL_Color = Palette.flash) {
        guard let texture = entry.texture else { return }
        var dst = SDL_FRect(x: Float(origin.x.rounded()), y: Float(origin.y.rounded()), w: Float(entry.width), h: Float(entry.height))
        SDL_SetTextureColorMod(texture, color.r, color.g, color.b)
        SDL_SetTextureAlphaMod(texture, 255)
        SDL_RenderCopyF(renderer, texture, nil, &dst)
    }

    private static func rect(_ r: FillRect) -> SDL_FRect {
        SDL_FRect(x: Float(r.x), y: Float(r.y), w: Float(r.w), h: Float(r.h))
    }

    private static func convert(_ bars: [FillRect], into out: inout [SDL_FRect]) {
        out.removeAll(keepingCapacity: true)
        for bar in bars { out.append(rect(bar)) }
    }
}
