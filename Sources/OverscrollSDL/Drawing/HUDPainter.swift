import CSDL
import OverscrollKit

/// The on-screen frame-time graph (F2, or a three-finger tap on a kiosk): the last ~2 s
/// of present-to-present intervals as bars, CPU time over them, and the budget line at
/// the measured refresh period. Bar buffers grow once to the graph's capacity; drawing a
/// frame then allocates nothing (the label is re-rasterized only when its text changes).
final class HUDPainter {
    private let display: Display
    private var intervalBars: [SDL_FRect] = []
    private var cpuBars: [SDL_FRect] = []
    private var jankBars: [SDL_FRect] = []
    private var label = ""
    private var shownJank = -1

    init(display: Display) {
        self.display = display
    }

    /// The panel in pixels: everything the graph draws is inside it.
    static func panel(scale s: Double, width: Double, height: Double) -> (x: Double, y: Double, w: Double, h: Double) {
        let w = min(width - 16, 240) * s, h = 96 * s
        return (width * s - w - 8 * s, height * s - h - 8 * s, w, h)
    }

    /// Drawn at the bottom right, away from the refresh indicator and the error banner.
    func draw(_ graph: HUDScene, text: TextCache, scale: Double, width: Double, height: Double) {
        let renderer = display.renderer
        let samples = graph.samples
        let s = scale
        let frame = Self.panel(scale: s, width: width, height: height)
        let panelW = frame.w, panelH = frame.h, left = frame.x, top = frame.y
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 190)
        var panel = SDL_FRect(x: Float(left), y: Float(top), w: Float(panelW), h: Float(panelH))
        SDL_RenderFillRectF(renderer, &panel)

        // 0…50 ms on the vertical axis, as MangoHud's frame-time graph.
        let graphTop = top + 24 * s, graphH = panelH - 30 * s
        let maxMs = 50.0
        let count = max(1, graph.capacity)
        let barW = panelW / Double(count)
        intervalBars.removeAll(keepingCapacity: true)
        cpuBars.removeAll(keepingCapacity: true)
        jankBars.removeAll(keepingCapacity: true)
        for (i, sample) in samples.enumerated() {
            let x = left + Double(i) * barW
            let hi = min(1, sample.interval * 1000 / maxMs) * graphH
            let hc = min(1, sample.cpu * 1000 / maxMs) * graphH
            let bar = SDL_FRect(x: Float(x), y: Float(graphTop + graphH - hi), w: Float(max(1, barW)), h: Float(hi))
            if sample.janky { jankBars.append(bar) } else { intervalBars.append(bar) }
            cpuBars.append(SDL_FRect(x: Float(x), y: Float(graphTop + graphH - hc), w: Float(max(1, barW)), h: Float(hc)))
        }
        SDL_SetRenderDrawColor(renderer, 0x4F, 0xC3, 0xF7, 220)
        SDL_RenderFillRectsF(renderer, intervalBars, Int32(intervalBars.count))
        SDL_SetRenderDrawColor(renderer, 0xFF, 0x6E, 0x40, 240)
        SDL_RenderFillRectsF(renderer, jankBars, Int32(jankBars.count))
        SDL_SetRenderDrawColor(renderer, 0xB3, 0xE5, 0x7C, 230)
        SDL_RenderFillRectsF(renderer, cpuBars, Int32(cpuBars.count))
        // The budget: the measured refresh period.
        let budgetY = graphTop + graphH - min(1, graph.refreshPeriod * 1000 / maxMs) * graphH
        SDL_SetRenderDrawColor(renderer, 0xFF, 0xFF, 0xFF, 200)
        var line = SDL_FRect(x: Float(left), y: Float(budgetY), w: Float(panelW), h: Float(max(1, s)))
        SDL_RenderFillRectF(renderer, &line)

        let jank = graph.jankyFrames
        if jank != shownJank {
            shownJank = jank
            // Rebuilt only when the count changes, so not a per-frame allocation.
            let budget = (graph.refreshPeriod * 10000).rounded() / 10
            label = "budget \(budget) ms · janky \(jank)"
        }
        if let entry = text.label(label), let texture = entry.texture {
            var dst = SDL_FRect(x: Float(left + 8 * s), y: Float(top + 2 * s), w: Float(entry.width), h: Float(entry.height))
            SDL_SetTextureColorMod(texture, 255, 255, 255)
            SDL_SetTextureAlphaMod(texture, 255)
            SDL_RenderCopyF(renderer, texture, nil, &dst)
        }
    }
}
