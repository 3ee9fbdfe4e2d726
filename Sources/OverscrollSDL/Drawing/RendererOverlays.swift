import CSDL
import OverscrollKit

/// What is blended over the list through SDL's renderer, on either drawing path: the
/// banner's box and its lines of text, the frame-time graph, fills at fractional pixels,
/// text images. The renderer backend paints with it on the GPU (and a turned screen); the
/// surface backend draws its text overlays with it into its own pixels, which on the CPU
/// path are the renderer's target (SDL's software renderer over the presenter's canvas).
/// One for both, so the two paths draw the same pixels with the same arithmetic.
final class RendererOverlays {
    private let display: Display
    private var renderer: OpaquePointer { display.renderer }
    private let text: TextCache
    private let hud = HUDPainter()

    init(display: Display, text: TextCache) {
        self.display = display
        self.text = text
    }

    /// The refresh-failed banner: its rounded box, then its lines (`BannerLayout`), both
    /// at the banner's opacity.
    func drawBanner(_ banner: BannerLayout) {
        for part in banner.fills { fill(part, Palette.errorBanner, alpha: banner.opacity) }
        for index in banner.lines.indices {
            guard let label = text.label(banner.lines[index]) else { continue }
            let at = banner.lineOrigin(index, labelWidth: label.width)
            blit(label, x: Double(at.x), y: Double(at.y), color: Palette.flash, alpha: banner.opacity)
        }
    }

    /// The frame-time graph.
    func drawHUD(_ graph: HUDLayout) {
        hud.draw(graph, text: text, renderer: renderer)
    }

    private func setColor(_ c: SDL_Color, alpha: Double = 1) {
        let a = Self.alpha(c, alpha)
        // Opaque fills skip blending: on the software renderer that is most of a frame.
        SDL_SetRenderDrawBlendMode(renderer, a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, a)
    }

    /// An opaque fill of whole pixels.
    func fill(_ rect: SDL_Rect, _ color: SDL_Color) {
        guard rect.w > 0, rect.h > 0 else { return }
        setColor(color)
        var rect = rect
        SDL_RenderFillRect(renderer, &rect)
    }

    /// A fill at fractional pixels, blended at `alpha` (the renderer cuts it to pixels).
    func fill(_ r: FillRect, _ color: SDL_Color, alpha: Double = 1) {
        setColor(color, alpha: alpha)
        var rect = SDL_FRect(x: Float(r.x), y: Float(r.y), w: Float(r.w), h: Float(r.h))
        SDL_RenderFillRectF(renderer, &rect)
    }

    /// The renderer's draw alpha for `c` at opacity `alpha`.
    static func alpha(_ c: SDL_Color, _ alpha: Double) -> UInt8 {
        UInt8(max(0, min(255, (Double(c.a) * alpha).rounded())))
    }

    /// A text image at (`x`, `y`), tinted `color`, at opacity `alpha`.
    func blit(_ entry: TextCache.Entry, x: Double, y: Double, color: SDL_Color, alpha: Double) {
        guard let texture = entry.texture else { return }
        SDL_SetTextureColorMod(texture, color.r, color.g, color.b)
        SDL_SetTextureAlphaMod(texture, UInt8(max(0, min(255, (255 * alpha).rounded()))))
        var dst = SDL_FRect(x: Float(x.rounded()), y: Float(y.rounded()), w: Float(entry.width), h: Float(entry.height))
        SDL_RenderCopyF(renderer, texture, nil, &dst)
    }
}
