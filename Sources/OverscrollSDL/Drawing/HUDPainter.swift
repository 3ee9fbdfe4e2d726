import CSDL
import OverscrollKit

/// The on-screen frame-time graph (F2, or a three-finger tap on a kiosk), drawn where
/// its layout (`HUDLayout`) puts the panel, the bars, the budget line and the label. The
/// bars go to SDL as arrays of rectangles kept here: they grow once to the graph's
/// capacity, then drawing a frame allocates nothing.
final class HUDPainter {
    private var intervalBars: [SDL_FRect] = []
    private var cpuBars: [SDL_FRect] = []
    private var jankBars: [SDL_FRect] = []

    func draw(_ graph: HUDLayout, text: TextCache, renderer: OpaquePointer) {
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 190)
        var panel = Self.rect(graph.panel)
        SDL_RenderFillRectF(renderer, &panel)
        Self.convert(graph.intervalBars, into: &intervalBars)
        Self.convert(graph.jankBars, into: &jankBars)
        Self.convert(graph.cpuBars, into: &cpuBars)
        SDL_SetRenderDrawColor(renderer, 0x4F, 0xC3, 0xF7, 220)
        SDL_RenderFillRectsF(renderer, intervalBars, Int32(intervalBars.count))
        SDL_SetRenderDrawColor(renderer, 0xFF, 0x6E, 0x40, 240)
        SDL_RenderFillRectsF(renderer, jankBars, Int32(jankBars.count))
        SDL_SetRenderDrawColor(renderer, 0xB3, 0xE5, 0x7C, 230)
        SDL_RenderFillRectsF(renderer, cpuBars, Int32(cpuBars.count))
        // The budget: the measured refresh period.
        SDL_SetRenderDrawColor(renderer, 0xFF, 0xFF, 0xFF, 200)
        var line = Self.rect(graph.budgetLine)
        SDL_RenderFillRectF(renderer, &line)
        if let entry = text.label(graph.label), let texture = entry.texture {
            var dst = SDL_FRect(x: Float(graph.labelOrigin.x), y: Float(graph.labelOrigin.y), w: Float(entry.width), h: Float(entry.height))
            SDL_SetTextureColorMod(texture, 255, 255, 255)
            SDL_SetTextureAlphaMod(texture, 255)
            SDL_RenderCopyF(renderer, texture, nil, &dst)
        }
    }

    private static func rect(_ r: FillRect) -> SDL_FRect {
        SDL_FRect(x: Float(r.x), y: Float(r.y), w: Float(r.w), h: Float(r.h))
    }

    private static func convert(_ bars: [FillRect], into out: inout [SDL_FRect]) {
        out.removeAll(keepingCapacity: true)
        for bar in bars { out.append(rect(bar)) }
    }
}
