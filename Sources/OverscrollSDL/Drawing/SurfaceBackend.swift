import CSDL
import OverscrollKit

/// The CPU path: the frame written straight into the window surface (`WindowCanvas`),
/// which this backend alone owns, with the list described a pixel row at a time
/// (`ListLines`) so a frame writes only the pixels that differ from what is shown; on X11
/// with shared memory the list goes into a ring of pixel rows instead (`ListRing`), and a
/// scroll changes which ring row the window's top shows. The indicator, the scroll bar and
/// the flash are blended into the surface with SDL's own arithmetic; the text that is
/// blended over the list (banner, frame-time graph) is drawn by `RendererOverlays`
/// through SDL's software renderer, whose target is this same canvas.
final class SurfaceBackend: DrawingBackend {
    private let display: Display
    private var renderer: OpaquePointer { display.renderer }
    private let rowImages: RowImages
    /// Draws the banner and the graph: text through the renderer, into this surface.
    private let overlays: RendererOverlays
    private let indicator: IndicatorImage
    /// The window surface, made again each frame (a resize replaces it).
    private var canvas: WindowCanvas?
    /// What the list shows on screen, a pixel row at a time.
    private var lines = ListLines()
    /// Where last frame's overlays lie over the list, in pixels: not list pixels, so the
    /// next frame writes the list there again before drawing its own overlays.
    private var covered: [SDL_Rect] = []
    /// The ring of pixel rows the list is drawn into, where the display can show one
    /// (X11 with shared memory). A test puts its own here.
    var ring: (any ListRing)?
    /// This frame's row images, in the order of its rows (`describeList`).
    private var rowImage: [RowImage?] = []
    /// The window rows this frame sends from the ring.
    private var ringRows: Range<Int32> = 0..<0
    /// The ring row the window's top shows, and the pixels the last frame wrote into the
    /// ring (`ListLines.writeRing`), for tests and the benchmark.
    var ringFirst: Int32 { lines.ringFirst }
    var ringPixelsWritten: Int { lines.ringPixelsWritten }

    init(display: Display, rowImages: RowImages, overlays: RendererOverlays) {
        self.display = display
        self.rowImages = rowImages
        self.overlays = overlays
        indicator = IndicatorImage(display: display)
        covered.reserveCapacity(8)
        rowImage.reserveCapacity(64)
        ring = display.listRing
    }

    deinit {
        // Before `display` goes, which may be the last hold on SDL's X connection: the ring
        // detaches from the server through it.
        ring = nil
    }

    func takesFrame(_ contents: inout WindowContents) -> Bool {
        canvas = display.windowCanvas()
        if let c = canvas, c.pixelFormat != rowImages.format { canvas = nil }
        guard let canvas else { return false }
        if let r = ring, r.bounds.w != canvas.bounds.w || r.bounds.h != canvas.bounds.h {
            // A new window size: a new ring, or none if the display cannot take one now.
            ring = nil
            ring = display.remakeListRing()
            contents = .unknown
        }
        return true
    }

    /// Only over the list this backend wrote: anything else is written whole.
    func canAmend(_ contents: WindowContents) -> Bool {
        switch contents {
        case .surface, .ring: true
        case .unknown, .rendered, .flashed: false
        }
    }

    func draw(_ frame: FrameLayout, previous: FrameLayout?, change: SceneDamage,
              contents: inout WindowContents, damage: inout [SDL_Rect]) -> PaintedFrame {
        guard let canvas else { return .nothing }
        switch change {
        case .none:
            return .nothing
        case .full:
            return drawChanges(frame, on: canvas, contents: &contents, damage: &damage)
        case .overlays(let parts):
            if parts == .indicator, let area = turnSpinner(frame, since: previous, on: canvas) {
                // An arc that moved less than a pixel's angle changed no pixel.
                guard area.w > 0, area.h > 0 else { return .nothing }
                damage.append(area)
                return .rects
            }
            frame.overlayDamage(parts, since: previous, into: &damage)
            for var area in damage {
                self.canvas?.clip = area
                lines.rewrite(area, into: canvas)
                SDL_RenderSetClipRect(renderer, &area)
                drawOverlays(frame)
            }
            SDL_RenderSetClipRect(renderer, nil)
            noteCovered(frame)
            return damage.isEmpty ? .nothing : .rects
        }
    }

    /// The ring as this frame leaves it, for the present's value (`RingFrame`): `drawn`,
    /// the list was drawn into it this frame; nil without a ring.
    func ringFrame(drawn: Bool) -> RingFrame? {
        guard let ring else { return nil }
        return RingFrame(drawn: drawn, rows: drawn ? ringRows : 0..<0, first: lines.ringFirst,
                         written: drawn ? lines.ringRowsWritten : [], lines: ring.canvas == nil ? lines.ringRows : nil)
    }

    /// The whole frame: the list's pixel rows that changed, what last frame's overlays
    /// covered, then the overlays. Presents the band of rows written and the overlays.
    private func drawChanges(_ frame: FrameLayout, on canvas: WindowCanvas, contents: inout WindowContents,
                             damage: inout [SDL_Rect]) -> PaintedFrame {
        let resized = describeList(frame, on: canvas)
        SDL_RenderFlush(renderer)           // composing rows queued work for this surface
        let flash = frame.flash > 0 ? canvas.tint(Palette.flash, alpha: frame.flash) : nil
        // The flash is blended over every pixel: that frame is drawn whole in the surface.
        if flash == nil, let ring { return drawRing(frame, on: canvas, ring: ring, contents: &contents, damage: &damage) }
        // Every line, unless the surface holds the list this frame changes.
        let everything = resized || contents != .surface
        let written = lines.write(to: canvas, everything: everything, uncovering: covered, flash: flash)
        var area = written.map { SDL_Rect(x: 0, y: $0.top, w: canvas.bounds.w, h: $0.bottom - $0.top + 1) }
        for rect in covered { area = Self.union(area, rect) }
        if flash != nil {
            // The list took the flash as it was written. What is drawn over it under the
            // flash lies in one rectangle: the list goes back there unflashed, the overlays
            // over it, and the flash over them (`drawOverlays`, inside the canvas's clip; the
            // canvas is made again next frame).
            var under = PixelRect(x: 0, y: 0, w: 0, h: 0)
            for part in FrameLayout.flashedOverlays { if let rect = frame.overlayRect(part) { under = under.union(rect) } }
            lines.rewrite(SDL_Rect(under), into: canvas)
            self.canvas?.clip = SDL_Rect(under)
        }
        drawOverlays(frame)
        noteCovered(frame)
        for rect in covered { area = Self.union(area, rect) }
        if flash != nil {
            contents = .flashed
            return .whole
        }
        contents = .surface
        guard var area else { return .nothing }
        var window = canvas.bounds, shown = SDL_Rect()
        guard SDL_IntersectRect(&area, &window, &shown) == SDL_TRUE else { return .nothing }
        if shown.y == 0, shown.h == window.h { return .whole }
        damage.append(SDL_Rect(x: 0, y: shown.y, w: window.w, h: shown.h))
        return .rects
    }

    /// The frame with a ring: the list into the ring, shown from the row that keeps the
    /// most of it (`ListLines.writeRing`), the overlays into the window surface over the
    /// list written again under them. Sends the ring's rows that changed (all of them when
    /// the list moved), then the overlays' rectangles.
    private func drawRing(_ frame: FrameLayout, on canvas: WindowCanvas, ring: any ListRing, contents: inout WindowContents,
                          damage: inout [SDL_Rect]) -> PaintedFrame {
        let before = lines.ringFirst
        let written = lines.writeRing(into: ring.canvas)
        let height = canvas.bounds.h
        let presented = contents == .ring(presented: true)
        if !presented || lines.ringFirst != before {
            ringRows = 0..<height
        } else {
            // The same rows where they were: those written, and where last frame's overlays
            // covered the list.
            var top = written?.top ?? height, bottom = written.map { $0.bottom + 1 } ?? 0
            for rect in covered { top = min(top, rect.y); bottom = max(bottom, rect.y + rect.h) }
            ringRows = max(0, top)..<max(max(0, top), min(height, bottom))
        }
        noteCovered(frame)
        for rect in covered { lines.rewrite(rect, into: canvas) }
        drawOverlays(frame)
        contents = .ring(presented: presented)
        var window = canvas.bounds
        for var rect in covered {
            var shown = SDL_Rect()
            if SDL_IntersectRect(&rect, &window, &shown) == SDL_TRUE { damage.append(shown) }
        }
        return .ring
    }

    /// Only the spinner turned, in place, with nothing drawn over it: the pixels its arc
    /// moved over are written straight into the window (`IndicatorImage.turn`; the window
    /// shows `previous`). Nil when that does not apply.
    private func turnSpinner(_ frame: FrameLayout, since previous: FrameLayout?, on canvas: WindowCanvas) -> SDL_Rect? {
        guard let now = frame.indicator, let before = previous?.indicator, frame.flash == 0,
              now.samePlace(before) else { return nil }
        let square = now.bounds
        for part in FrameLayout.overlayOrder where part != .indicator {
            if let other = frame.overlayRect(part), square.intersection(other) != nil { return nil }
        }
        guard var written = indicator.turn(now, from: before, on: canvas) else { return nil }
        // Cut to the window: SDL 2.26's X11 present moves a rectangle that starts above the
        // window instead of cutting it, and shows the wrong rows.
        var window = canvas.bounds, shown = SDL_Rect()
        return SDL_IntersectRect(&written, &window, &shown) == SDL_TRUE ? shown : SDL_Rect()
    }

    /// The list described a pixel row at a time: the same parts, in the same order, as the
    /// renderer paints (`RendererBackend.drawList`), so where two rows overlap the later
    /// one shows. Composes images on the way: call it before anything is drawn. Returns
    /// whether the window's size changed (then every line is written).
    private func describeList(_ frame: FrameLayout, on canvas: WindowCanvas) -> Bool {
        rowImages.images(for: frame, into: &rowImage)
        let height = canvas.bounds.h
        // Rows beyond the window's edges too where the ring's display writes them before
        // they show (`ListRing.ahead`; the scene holds them, `Scene.rowMargin`).
        let ahead = ring?.ahead ?? 0
        let resized = lines.begin(width: canvas.bounds.w, height: height, fill: canvas.pixel(Palette.background), ahead: ahead)
        let top = frame.listTop
        let gap = canvas.pixel(Palette.gap)
        lines.set(from: -ahead, to: top, ListLines.Line(fill: gap))
        // The status line is part of the gap, composed onto it once; rows cover the rest.
        if let status = frame.status,
           let image = rowImages.statusImage(status.text, color: Palette.statusText, opacity: status.opacity, background: Palette.gap) {
            let y = status.top(labelHeight: image.height)
            lines.setImage(from: y, to: min(y + image.height, top), fill: gap, left: status.left(labelWidth: image.width),
                           width: image.width, image: image)
        }
        let separator = ListLines.Line(fill: canvas.pixel(Palette.separator))
        for (row, image) in zip(frame.rows, rowImage) {
            guard row.top < height + ahead, row.top + row.height > -ahead else { continue }
            let at = image.map { row.place(imageWidth: $0.width, imageHeight: $0.height, rightAligned: $0.alignment == .right) }
                ?? row.withoutText
            let background = ListLines.Line(fill: canvas.pixel(Palette.row(row.shade)))
            lines.set(from: at.separator, to: at.separator + at.line, separator)
            if let image, image.raster != nil, at.width > 0 {
                lines.set(from: row.top, to: at.top, background)
                lines.setImage(from: at.top, to: at.top + at.height, fill: background.fill, left: at.left,
                               width: at.width, image: image)
                lines.set(from: at.top + at.height, to: at.separator, background)
            } else {
                lines.set(from: row.top, to: at.separator, background)
            }
        }
        if frame.backgroundTop < height {
            lines.set(from: frame.backgroundTop, to: height + ahead, ListLines.Line(fill: canvas.pixel(Palette.background)))
        }
        return resized
    }

    /// What is drawn over the list, blended, in this order: the indicator, the scroll bar
    /// and the flash straight into the surface, the banner and the graph by the renderer.
    private func drawOverlays(_ frame: FrameLayout) {
        if let indicator = frame.indicator { self.indicator.draw(indicator, on: canvas) }
        if let bar = frame.scrollBar {
            for part in bar.fills { overlayFill(part, Palette.scrollBar, alpha: bar.opacity) }
        }
        if let banner = frame.banner { overlays.drawBanner(banner) }
        if frame.flash > 0, let canvas {
            SDL_RenderFlush(renderer)          // the indicator and banner lie under it
            canvas.blend(canvas.tint(Palette.flash, alpha: frame.flash))
        }
        if let graph = frame.hud { overlays.drawHUD(graph) }
    }

    /// A blended fill over the list, straight into the window surface with the renderer's
    /// own arithmetic (`WindowCanvas.fill`). Nothing queued in the renderer lies under it:
    /// the list and the indicator below it are written directly too, and what the renderer
    /// still draws (banner, graph) lies over it.
    private func overlayFill(_ r: FillRect, _ color: SDL_Color, alpha: Double) {
        if let canvas, canvas.fill(x: Float(r.x), y: Float(r.y), w: Float(r.w), h: Float(r.h), color: color,
                                   alpha: RendererOverlays.alpha(color, alpha)) { return }
        overlays.fill(r, color, alpha: alpha)
    }

    /// Remembers where this frame drew over the list.
    private func noteCovered(_ frame: FrameLayout) {
        covered.removeAll(keepingCapacity: true)
        for part in FrameLayout.overlayOrder { if let rect = frame.overlayRect(part) { covered.append(SDL_Rect(rect)) } }
    }

    private static func union(_ a: SDL_Rect?, _ b: SDL_Rect) -> SDL_Rect {
        guard var a else { return b }
        var b = b, r = SDL_Rect()
        SDL_UnionRect(&a, &b, &r)
        return r
    }
}
