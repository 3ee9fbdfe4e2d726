import CSDL
import OverscrollKit

/// Draws a frame layout through SDL's renderer: the GPU path, a turned screen (drawn at
/// the app's size, turned by the presenter), and a CPU-path frame the surface backend
/// does not take. The banner and the frame-time graph are drawn by `RendererOverlays`,
/// which the surface backend draws its own with too.
///
/// The list is painted once a pixel: the gap above a pulled list, the status line in it,
/// each row's background around its text's opaque image, the separators, the list's own
/// background below its last row. Then the overlays, blended, in `FrameLayout.overlayOrder`,
/// the flash under the graph.
final class RendererBackend: DrawingBackend {
    private let display: Display
    private var renderer: OpaquePointer { display.renderer }
    private let text: TextCache
    private let rowImages: RowImages
    private let indicator: IndicatorImage
    private let overlays: RendererOverlays
    /// This frame's row images, in the order of its rows (`drawList`).
    private var rowImage: [RowImage?] = []

    init(display: Display, text: TextCache, rowImages: RowImages, overlays: RendererOverlays) {
        self.display = display
        self.text = text
        self.rowImages = rowImages
        self.overlays = overlays
        indicator = IndicatorImage(display: display)
        rowImage.reserveCapacity(64)
    }

    func takesFrame(_ contents: inout WindowContents) -> Bool { true }

    /// Whatever is on screen, the renderer can paint a rectangle of it again.
    func canAmend(_ contents: WindowContents) -> Bool { contents != .unknown }

    func draw(_ frame: FrameLayout, previous: FrameLayout?, change: SceneDamage,
              contents: inout WindowContents, damage: inout [SDL_Rect]) -> PaintedFrame {
        switch change {
        case .none:
            return .nothing
        case .full:
            prepareRows(frame)
            drawList(frame)
            drawOverlays(frame)
            contents = .rendered
            return .whole
        case .overlays(let parts):
            frame.overlayDamage(parts, since: previous, into: &damage)
            if !damage.isEmpty { prepareRows(frame) }
            for var area in damage {
                SDL_RenderSetClipRect(renderer, &area)
                drawList(frame, within: area)
                SDL_RenderSetClipRect(renderer, &area)
                drawOverlays(frame)
            }
            SDL_RenderSetClipRect(renderer, nil)
            contents = .rendered
            return damage.isEmpty ? .nothing : .rects
        }
    }

    // MARK: The list

    /// Looks up (composing if new) the images of the frame's rows before any drawing:
    /// composing switches render targets.
    private func prepareRows(_ frame: FrameLayout) {
        rowImages.images(for: frame, into: &rowImage)
    }

    /// The list, within `area` when given (the rest is clipped away anyway; rows outside
    /// it are skipped).
    private func drawList(_ frame: FrameLayout, within area: SDL_Rect? = nil) {
        let width = frame.width, top = frame.listTop
        if top > 0 { fill(SDL_Rect(x: 0, y: 0, w: width, h: top), Palette.gap) }
        // Behind the rows: the list uncovers it as the gap opens.
        drawStatus(frame, within: area ?? SDL_Rect(frame.bounds))
        for (row, image) in zip(frame.rows, rowImage) {
            var band = SDL_Rect(row.rect)
            if var area, SDL_HasIntersection(&area, &band) != SDL_TRUE { continue }
            drawRow(row, image: image)
        }
        let bottom = frame.backgroundTop
        if bottom < frame.height { fill(SDL_Rect(x: 0, y: bottom, w: width, h: frame.height - bottom), Palette.background) }
    }

    /// One row in its band: the text's opaque image, the background around it, the
    /// separator (the bottom pixel row, at least 1 px). Nothing is painted twice.
    private func drawRow(_ row: RowBand, image: RowImage?) {
        let background = Palette.row(row.shade)
        let band = row.rect
        let at = image.map { row.place(imageWidth: $0.width, imageHeight: $0.height, rightAligned: $0.alignment == .right) }
            ?? row.withoutText
        fill(SDL_Rect(x: 0, y: at.separator, w: band.w, h: at.line), Palette.separator)
        guard let image else {
            fill(SDL_Rect(x: 0, y: band.y, w: band.w, h: at.separator - band.y), background)
            return
        }
        fill(SDL_Rect(x: 0, y: band.y, w: band.w, h: at.top - band.y), background)
        fill(SDL_Rect(x: 0, y: at.top, w: at.left, h: at.height), background)
        var source = SDL_Rect(x: 0, y: 0, w: at.width, h: at.height)
        var destination = SDL_Rect(x: at.left, y: at.top, w: at.width, h: at.height)
        if let texture = rowImages.texture(of: image) {
            SDL_RenderCopy(renderer, texture, &source, &destination)
        } else {
            fill(destination, background)
        }
        fill(SDL_Rect(x: at.left + at.width, y: at.top, w: band.w - at.left - at.width, h: at.height), background)
        fill(SDL_Rect(x: 0, y: at.top + at.height, w: band.w, h: at.separator - at.top - at.height), background)
    }

    /// The status line, in the gap above the list (rows drawn after it would cover the
    /// rest), clipped to `area`.
    private func drawStatus(_ frame: FrameLayout, within area: SDL_Rect) {
        guard let status = frame.status, let label = text.label(status.text),
              let shown = status.rect(labelWidth: label.width, labelHeight: label.height) else { return }
        var clip = SDL_Rect(shown), area = area, visible = SDL_Rect()
        guard SDL_IntersectRect(&clip, &area, &visible) == SDL_TRUE else { return }
        var previous = SDL_Rect()
        let clipped = SDL_RenderIsClipEnabled(renderer) == SDL_TRUE
        SDL_RenderGetClipRect(renderer, &previous)
        SDL_RenderSetClipRect(renderer, &visible)
        blit(label, x: Double(clip.x), y: Double(clip.y), color: Palette.statusText, alpha: status.opacity)
        if clipped { SDL_RenderSetClipRect(renderer, &previous) } else { SDL_RenderSetClipRect(renderer, nil) }
    }

    // MARK: Overlays

    /// What is drawn over the list, blended, in this order.
    private func drawOverlays(_ frame: FrameLayout) {
        if let indicator = frame.indicator { self.indicator.draw(indicator, on: nil) }
        if let bar = frame.scrollBar {
            for part in bar.fills { fill(part, Palette.scrollBar, alpha: bar.opacity) }
        }
        if let banner = frame.banner { overlays.drawBanner(banner) }
        if frame.flash > 0 {
            fill(FillRect(x: 0, y: 0, w: frame.exactWidth, h: frame.exactHeight), Palette.flash, alpha: frame.flash)
        }
        if let graph = frame.hud { overlays.drawHUD(graph) }
    }

    // MARK: Primitives (`RendererOverlays`, which the surface backend draws its text with too)

    private func fill(_ rect: SDL_Rect, _ color: SDL_Color) { overlays.fill(rect, color) }

    private func fill(_ r: FillRect, _ color: SDL_Color, alpha: Double = 1) { overlays.fill(r, color, alpha: alpha) }

    private func blit(_ entry: TextCache.Entry, x: Double, y: Double, color: SDL_Color, alpha: Double) {
        overlays.blit(entry, x: x, y: y, color: color, alpha: alpha)
    }
}
