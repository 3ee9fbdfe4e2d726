import CSDL
import OverscrollKit

/// The on-screen frame-time HUD (F2, or a three-finger tap on a kiosk), drawn where its
/// layout (`HUDLayout`) puts the panel, the figures, the bars, the budget line and the labels. The
/// bars go to SDL as arrays of rectangles kept here: they grow once to the graph's
/// capacity, then drawing a frame allocates nothing.
final class HUDPainter {
    private var intervalBars: [SDL_FRect] = []
    private var cpuBars: [SDL_FRect] = []
    private var jankBars: [SDL_FRect] = []

    func draw(_ graph: HUDLayout, text: TextCache, renderer: OpaquePointer) {
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 240)
        var panel = Self.rect(graph.panel)
        SDL_RenderFillRectF(renderer, &panel)
        Self.convert(graph.intervalBars, into: &intervalBars)
        Self.convert(graph.jankBars, into: &jankBars)
        Self.convert(graph.cpuBars, into: &cpuBars)
        SDL_SetRenderDrawColor(renderer, 0x4F, 0xC3, 0xF7, 220)
        SDL_RenderFillRectsF(renderer, intervalBars, Int32(intervalBars.count))
        SDL_SetRenderDrawColor(renderer, 0xFF, 0x6E, 0x40, 240)
        SDL_RenderFillRectsF(renderer, jankBars, Int32(jankBars.count))
        SDL_SetRenderDrawColor(renderer, Self.cpu.r, Self.cpu.g, Self.cpu.b, 230)
        SDL_RenderFillRectsF(renderer, cpuBars, Int32(cpuBars.count))
        // The budget: the measured refresh period.
        SDL_SetRenderDrawColor(renderer, 0xFF, 0xFF, 0xFF, 200)
        var line = Self.rect(graph.budgetLine)
        SDL_RenderFillRectF(renderer, &line)
        draw(graph.lines.0, at: graph.lineOrigin(0), text: text, renderer: renderer)
        draw(graph.lines.1, at: graph.lineOrigin(1), text: text, renderer: renderer)
        draw(graph.lines.2, at: graph.lineOrigin(2), text: text, renderer: renderer)
        if let budget = text.label(graph.budgetLabel) {
            draw(budget, at: graph.budgetLabelOrigin(labelHeight: budget.height), renderer: renderer)
        }
        draw(graph.cpuLabel, at: graph.cpuLabelOrigin(0), text: text, renderer: renderer, color: Self.cpu)
        draw(graph.cpuScaleLabel, at: graph.cpuLabelOrigin(1), text: text, renderer: renderer, color: Self.cpu)
    }

    /// The CPU bars' colour, and their labels'.
    private static let cpu = SDL_Color(r: 0xB3, g: 0xE5, b: 0x7C, a: 0xFF)

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
