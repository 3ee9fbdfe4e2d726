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
    /// The overlays drawn under the flash (the HUD is drawn over it).
    private static let flashedOverlays: [SceneOverlays] = [.indicator, .scrollBar, .banner]

    /// What a frame drew, and so what to present.
    public enum Painted: Equatable {
        case nothing
        /// The rectangles in `damage`.
        case rects
        case whole
        /// The list from the ring (`ListRing`), then the rectangles in `damage` (the
        /// overlays) from the window surface.
        case ring
    }

    private let display: Display
    private var renderer: OpaquePointer { display.renderer }
    public let text: TextCache
    private let rowImages: RowImages
    /// The ring row the window's top shows, and the pixels the last frame wrote into the
    /// ring (`ListLines.writeRing`), for tests and the benchmark.
    var ringFirst: Int32 { lines.ringFirst }
    var ringPixelsWritten: Int { lines.ringPixelsWritten }
    /// How many row and status images have been composed, to show one is not composed again.
    var imagesComposed: Int { rowImages.serials }
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
    /// On the CPU path: what the list shows on screen, a pixel row at a time.
    private var lines = ListLines()
    /// Where last frame's overlays lie over the list, in pixels.
    private var covered: [SDL_Rect] = []
    /// The image of each of the scene's rows, looked up once a frame (`prepareRows`).
    private var rowImage: [RowImages.Image?] = []
    /// On the CPU path where the display can show it (X11 with shared memory): the list's
    /// ring of pixel rows (`ListRing`), drawn into instead of the window surface. A test
    /// puts its own here.
    var ring: (any ListRing)?
    /// Whether the screen's list is the ring's, from `lines.ringFirst`, as last presented:
    /// then a frame that keeps that first row sends only the rows it changed.
    private var ringOnScreen = false
    /// The window rows this frame sends from the ring.
    private var ringRows: Range<Int32> = 0..<0
    /// Whether the window surface holds the list outside the overlays; after a frame drawn
    /// into the ring it holds it only under them.
    private var surfaceHoldsList = true

    public init(display: Display, text: TextCache, scale: Double) {
        self.display = display
        self.text = text
        self.scale = scale
        rowImages = RowImages(display: display, text: text)
        indicator = IndicatorImage(display: display)
        hud = HUDPainter(display: display)
        damage.reserveCapacity(8)
        covered.reserveCapacity(8)
        rowImage.reserveCapacity(64)
        ring = display.listRing
    }

    deinit {
        // Before `display` goes, which may be the last hold on SDL's X connection: the ring
        // detaches from the server through it.
        ring = nil
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
        invalid = true
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
        canvas = direct && display.path == .cpu ? display.windowCanvas() : nil
        if let c = canvas, c.pixelFormat != rowImages.format { canvas = nil }
        if invalid || canvas == nil { lines.valid = false }
        if invalid { ringOnScreen = false }
        if let c = canvas, let r = ring, r.canvas.bounds.w != c.bounds.w || r.canvas.bounds.h != c.bounds.h {
            // A new window size: a new ring, or none if the display cannot take one now.
            ring = nil
            ring = display.remakeListRing()
            ringOnScreen = false
        }
        var change = invalid || !display.keepsPixels ? .full : scene.damage(since: previous, pixelScale: scale)
        // Lines not known to be on screen (after the flash) are all written again.
        if change != .none, canvas != nil, !lines.valid { change = .full }
        invalid = false
        damage.removeAll(keepingCapacity: true)
        // Only a changed list can bring new rows; they are composed before drawing starts.
        if change == .full {
            // Rows are cut to the window's width, less the insets.
            text.fit(width: Int((scene.width - 2 * scene.textInset) * scale))
            prepareRows(scene)
        }
        switch change {
        case .none:
            return .nothing
        case .full:
            if let canvas { return drawChanges(scene, on: canvas) }
            drawList(scene)
            drawOverlays(scene)
            return .whole
        case .overlays(let parts):
            if parts == .indicator, let canvas, let area = turnSpinner(scene, since: previous, on: canvas) {
                // An arc that moved less than a pixel's angle changed no pixel.
                guard area.w > 0, area.h > 0 else { return .nothing }
                damage.append(area)
                return .rects
            }
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
                canvas?.clip = area
                if let canvas {
                    lines.rewrite(area, into: canvas)
                } else {
                    SDL_RenderSetClipRect(renderer, &area)
                    drawList(scene, within: area)
                }
                SDL_RenderSetClipRect(renderer, &area)
                drawOverlays(scene)
            }
            SDL_RenderSetClipRect(renderer, nil)
            if canvas != nil { noteCovered(scene) }
            return damage.isEmpty ? .nothing : .rects
        }
    }

    /// The CPU path's frame: the list's pixel rows that changed, what last frame's overlays
    /// covered, then the overlays. Presents the band of rows written and the overlays.
    private func drawChanges(_ scene: Scene, on canvas: WindowCanvas) -> Painted {
        describeList(scene, on: canvas)
        SDL_RenderFlush(renderer)           // composing rows queued work for this surface
        let flash = scene.flash > 0 ? canvas.tint(Palette.flash, alpha: scene.flash) : nil
        // The flash is blended over every pixel: that frame is drawn whole in the surface.
        if flash == nil, let ring { return drawRing(scene, on: canvas, ring: ring) }
        if !surfaceHoldsList { lines.valid = false }
        surfaceHoldsList = true
        let written = lines.write(to: canvas, uncovering: covered, flash: flash)
        var area = written.map { SDL_Rect(x: 0, y: $0.top, w: canvas.bounds.w, h: $0.bottom - $0.top + 1) }
        for rect in covered { area = Self.union(area, rect) }
        if flash != nil {
            // The list took the flash as it was written. What is drawn over it under the
            // flash lies in one rectangle: the list goes back there unflashed, the overlays
            // over it, and the flash over them (`drawOverlays`, inside the canvas's clip; the
            // canvas is made again next frame).
            var under = SDL_Rect()
            for part in Self.flashedOverlays { if let rect = overlayRect(part, of: scene) { under = Self.union(under, rect) } }
            lines.rewrite(under, into: canvas)
            self.canvas?.clip = under
        }
        drawOverlays(scene)
        noteCovered(scene)
        for rect in covered { area = Self.union(area, rect) }
        if flash != nil {
            // Blended over every pixel: none of them is a list pixel any more.
            lines.valid = false
            return .whole
        }
        guard var area else { return .nothing }
        var window = canvas.bounds, shown = SDL_Rect()
        guard SDL_IntersectRect(&area, &window, &shown) == SDL_TRUE else { return .nothing }
        if shown.y == 0, shown.h == window.h { return .whole }
        damage.append(SDL_Rect(x: 0, y: shown.y, w: window.w, h: shown.h))
        return .rects
    }

    /// The CPU path's frame with a ring: the list into the ring, shown from the row that
    /// keeps the most of it (`ListLines.writeRing`), the overlays into the window surface
    /// over the list written again under them. Sends the ring's rows that changed (all of
    /// them when the list moved), then the overlays' rectangles.
    private func drawRing(_ scene: Scene, on canvas: WindowCanvas, ring: any ListRing) -> Painted {
        let before = lines.ringFirst
        let written = lines.writeRing(into: ring.canvas)
        let height = canvas.bounds.h
        if !ringOnScreen || lines.ringFirst != before {
            ringRows = 0..<height
        } else {
            // The same rows where they were: those written, and where last frame's overlays
            // covered the list.
            var top = written?.top ?? height, bottom = written.map { $0.bottom + 1 } ?? 0
            for rect in covered { top = min(top, rect.y); bottom = max(bottom, rect.y + rect.h) }
            ringRows = max(0, top)..<max(max(0, top), min(height, bottom))
        }
        noteCovered(scene)
        for rect in covered { lines.rewrite(rect, into: canvas) }
        drawOverlays(scene)
        surfaceHoldsList = false
        var window = canvas.bounds
        for var rect in covered {
            var shown = SDL_Rect()
            if SDL_IntersectRect(&rect, &window, &shown) == SDL_TRUE { damage.append(shown) }
        }
        return .ring
    }

    /// Only the spinner turned, in place, with nothing drawn over it: the ring pixels its
    /// arc moved over are written straight into the window (`IndicatorImage.turn`; the
    /// window shows `previous`). Nil when that does not apply.
    private func turnSpinner(_ scene: Scene, since previous: Scene?, on canvas: WindowCanvas) -> SDL_Rect? {
        let centerX = scene.width / 2 * scale
        guard let now = scene.indicator, let before = previous?.indicator, scene.flash == 0,
              IndicatorImage.samePlace(now, before, centerX: centerX, scale: scale),
              var square = overlayRect(.indicator, of: scene) else { return nil }
        for part in Self.overlayOrder where part != .indicator {
            if var other = overlayRect(part, of: scene), SDL_HasIntersection(&square, &other) == SDL_TRUE { return nil }
        }
        guard var written = indicator.turn(now, from: before, centerX: centerX, scale: scale, on: canvas) else { return nil }
        // Cut to the window: SDL 2.26's X11 present moves a rectangle that starts above the
        // window instead of cutting it, and shows the wrong rows.
        var window = canvas.bounds, shown = SDL_Rect()
        return SDL_IntersectRect(&written, &window, &shown) == SDL_TRUE ? shown : SDL_Rect()
    }

    private static func union(_ a: SDL_Rect?, _ b: SDL_Rect) -> SDL_Rect {
        guard var a else { return b }
        var b = b, r = SDL_Rect()
        SDL_UnionRect(&a, &b, &r)
        return r
    }

    /// Remembers where this frame drew over the list (blended, so not list pixels): the
    /// next frame writes the list there again before drawing its own overlays.
    private func noteCovered(_ scene: Scene) {
        covered.removeAll(keepingCapacity: true)
        for part in Self.overlayOrder { if let rect = overlayRect(part, of: scene) { covered.append(rect) } }
    }

    /// Shows what `draw` returned: only the damaged rectangles where the display allows.
    public func present(_ painted: Painted) {
        switch painted {
        case .nothing: display.present(damage)       // flushes; an empty list shows nothing
        case .rects: display.present(damage)
        case .whole:
            display.present(nil)
            ringOnScreen = false
        case .ring:
            guard let ring else { return display.present(nil) }
            // Mapped first: what is put on a window not yet shown is lost.
            display.reveal()
            ring.show(ringRows, first: lines.ringFirst)
            // The surface's present ends in a wait for the server; without one, wait here.
            display.present(damage)
            if damage.isEmpty { ring.sync() }
            ringOnScreen = true
        }
    }

    // MARK: Elements

    /// Composes the images of rows new on screen, before any drawing (it switches targets),
    /// and keeps this frame's in `rowImage`, in the order of `scene.rows`.
    private func prepareRows(_ scene: Scene) {
        rowImages.beginFrame(scale: scale, width: Int32((scene.width * scale).rounded()), visible: scene.rows.count)
        rowImage.removeAll(keepingCapacity: true)
        for row in scene.rows { rowImage.append(rowImages.image(for: row)) }
    }

    /// The pixel row where the list's first row begins: the gap above a pulled list ends there.
    private func listTop(_ scene: Scene) -> Int32 {
        let height = Int32((scene.height * scale).rounded())
        return Int32(min(Double(height), max(0, (scene.contentTop * scale).rounded(.down))))
    }

    /// Where a row's parts lie in its band, in pixels; one definition for both paths.
    private struct RowLayout {
        /// The separator's first pixel row (it is `line` rows tall, the band's last).
        var separator: Int32
        var line: Int32
        /// The text image's top-left corner and the part of it shown.
        var top: Int32, left: Int32, width: Int32, height: Int32
    }

    private func layOut(_ band: SDL_Rect, image: RowImages.Image?, inset: Int32) -> RowLayout {
        let line = Int32(max(1, scale.rounded(.down)))
        let separator = band.y + band.h - line
        guard let image else { return RowLayout(separator: separator, line: line, top: band.y, left: 0, width: 0, height: 0) }
        let top = band.y + Int32(((Double(band.h) - Double(image.height)) / 2).rounded())
        // Right-to-left rows end at the right inset.
        let left = image.alignment == .right ? max(inset, band.w - inset - image.width) : inset
        return RowLayout(separator: separator, line: line, top: top, left: left,
                         width: max(0, min(image.width, band.w - left)), height: max(0, min(image.height, separator - top)))
    }

    /// The list on the renderer (the GPU path, a rotated picture): the gap above a pulled
    /// list, the rows, the list's own background below its last row. Each pixel is painted once.
    private func drawList(_ scene: Scene, within area: SDL_Rect? = nil) {
        let s = scale
        let width = Int32((scene.width * s).rounded()), height = Int32((scene.height * s).rounded())
        let top = listTop(scene)
        if top > 0 { fill(SDL_Rect(x: 0, y: 0, w: width, h: top), Palette.gap) }
        // Behind the rows: the list uncovers it as the gap opens.
        drawStatus(scene, within: area ?? SDL_Rect(x: 0, y: 0, w: width, h: height))
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
        let background = Self.rowColor(row)
        let image = rowImages.image(for: row)
        let at = layOut(band, image: image, inset: inset)
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

    /// The same list as `drawList`, described a pixel row at a time for the CPU path
    /// (`ListLines`); rows are laid out in the same order, so where two overlap the later
    /// one shows, as it would painted.
    /// Composes images (the status line's) on the way: call it before anything is drawn,
    /// after `prepareRows` for the same scene.
    private func describeList(_ scene: Scene, on canvas: WindowCanvas) {
        let s = scale
        let width = canvas.bounds.w, height = canvas.bounds.h
        lines.begin(width: width, height: height, fill: canvas.pixel(Palette.background))
        let top = listTop(scene)
        let gap = canvas.pixel(Palette.gap)
        lines.set(from: 0, to: top, ListLines.Line(fill: gap))
        // The status line is part of the gap, composed onto it once; rows cover the rest.
        if let status = scene.status, status.opacity > 0,
           let image = rowImages.statusImage(status.text, color: Palette.statusText, opacity: status.opacity, background: Palette.gap),
           let raster = image.raster {
            let x = Int32(((scene.width * s - Double(image.width)) / 2).rounded())
            let y = Self.statusTop(status, height: image.height, scale: s)
            lines.setImage(from: y, to: min(y + image.height, top), fill: gap, left: x, width: image.width,
                           serial: image.serial, raster: raster, stride: image.width)
        }
        let rowHeight = Int32((scene.rowHeight * s).rounded())
        let inset = Int32((scene.textInset * s).rounded())
        let separator = ListLines.Line(fill: canvas.pixel(Palette.separator))
        for (row, image) in zip(scene.rows, rowImage) {
            let band = SDL_Rect(x: 0, y: Int32(Scene.pixel(row.y, s)), w: width, h: rowHeight)
            guard band.y < height, band.y + band.h > 0 else { continue }
            let at = layOut(band, image: image, inset: inset)
            let background = ListLines.Line(fill: canvas.pixel(Self.rowColor(row)))
            lines.set(from: at.separator, to: at.separator + at.line, separator)
            if let image, let raster = image.raster, at.width > 0 {
                lines.set(from: band.y, to: at.top, background)
                lines.setImage(from: at.top, to: at.top + at.height, fill: background.fill, left: at.left,
                               width: at.width, serial: image.serial, raster: raster, stride: image.width)
                lines.set(from: at.top + at.height, to: at.separator, background)
            } else {
                lines.set(from: band.y, to: at.separator, background)
            }
        }
        let bottom = Int32(max(0, (scene.contentBottom * s).rounded(.down)))
        if bottom < height { lines.set(from: max(top, bottom), to: height, ListLines.Line(fill: canvas.pixel(Palette.background))) }
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
                canvas.blend(canvas.tint(Palette.flash, alpha: scene.flash))
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
            // The disc's radius, its 1 px feather, and a pixel for rounding, around the
            // whole pixel the indicator is centred on.
            let r = (indicator.radius + 8) * s * indicator.scale + 2
            let c = IndicatorImage.center(indicator, centerX: scene.width / 2 * s, scale: s)
            return pixelRect(x: c.x - r, y: c.y - r, w: 2 * r, h: 2 * r)
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
        self.indicator.draw(indicator, centerX: width / 2 * scale, scale: scale, on: canvas)
    }

    static func rowColor(_ row: SceneRow) -> SDL_Color {
        switch row.emphasis {
        case .none: row.stripe == 0 ? Palette.rowEven : Palette.rowOdd
        case .highlighted: Palette.rowHighlighted
        case .selected: Palette.rowSelected
        }
    }

    /// The bar as a capsule of plain fills: a rectangle, and rounded ends one pixel row
    /// at a time, from its top and height rounded to whole pixels (`Scene.damage` leaves a
    /// bar alone that moved less than that). Fills, not geometry: SDL's software renderer allocates for blended
    /// triangles, and this bar is on screen whenever the list moves.
    private func drawScrollBar(_ bar: ScrollBarScene) {
        let s = scale
        let x = bar.x * s, y = Scene.nearestPixel(bar.y, s), w = bar.width * s, h = Scene.nearestPixel(bar.height, s)
        let r = min(w, h) / 2
        let capRows = min(Int(r.rounded(.up)), Int(h / 2))
        let cap = Double(capRows)
        overlayFill(x: x, y: y + cap, w: w, h: h - 2 * cap, Palette.scrollBar, alpha: bar.opacity)
        for i in 0..<capRows {
            let d = r - (Double(i) + 0.5)            // from the end's centre to this row's middle
            let inset = r - max(0, r * r - d * d).squareRoot()
            overlayFill(x: x + inset, y: y + Double(i), w: w - 2 * inset, h: 1, Palette.scrollBar, alpha: bar.opacity)
            overlayFill(x: x + inset, y: y + h - Double(i) - 1, w: w - 2 * inset, h: 1, Palette.scrollBar, alpha: bar.opacity)
        }
    }

    /// The status line, in the gap above the list (rows drawn after it would cover the
    /// rest), clipped to `area`.
    private func drawStatus(_ scene: Scene, within area: SDL_Rect) {
        guard let status = scene.status, status.opacity > 0, let label = text.label(status.text),
              var clip = statusRect(scene, label: label) else { return }
        var area = area, visible = SDL_Rect()
        guard SDL_IntersectRect(&clip, &area, &visible) == SDL_TRUE else { return }
        var previous = SDL_Rect()
        let clipped = SDL_RenderIsClipEnabled(renderer) == SDL_TRUE
        SDL_RenderGetClipRect(renderer, &previous)
        SDL_RenderSetClipRect(renderer, &visible)
        blit(label, x: Double(clip.x), y: Double(clip.y), color: Palette.statusText, alpha: status.opacity)
        if clipped { SDL_RenderSetClipRect(renderer, &previous) } else { SDL_RenderSetClipRect(renderer, nil) }
    }

    /// Where the status line shows, in pixels: its label, cut off where the rows begin.
    private func statusRect(_ scene: Scene, label known: TextCache.Entry? = nil) -> SDL_Rect? {
        guard let status = scene.status, status.opacity > 0, let label = known ?? text.label(status.text) else { return nil }
        let x = ((scene.width * scale - Double(label.width)) / 2).rounded()
        let y = Self.statusTop(status, height: label.height, scale: scale)
        let bottom = min(y + label.height, listTop(scene))
        guard bottom > y else { return nil }
        return SDL_Rect(x: Int32(x), y: y, w: label.width, h: bottom - y)
    }

    /// The status line's top pixel row: centred on a whole pixel, like the indicator above
    /// it (`Scene.damage` leaves a line alone that moved less than that).
    private static func statusTop(_ status: StatusScene, height: Int32, scale: Double) -> Int32 {
        Int32(Scene.nearestPixel(status.centerY, scale)) - height / 2
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
        let a = Self.alpha(c, alpha)
        // Opaque fills skip blending: on the software renderer that is most of a frame.
        SDL_SetRenderDrawBlendMode(renderer, a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, a)
    }

    private func fill(_ rect: SDL_Rect, _ color: SDL_Color) {
        guard rect.w > 0, rect.h > 0 else { return }
        setColor(color)
        var rect = rect
        SDL_RenderFillRect(renderer, &rect)
    }

    private func fill(x: Double, y: Double, w: Double, h: Double, _ color: SDL_Color, alpha: Double = 1) {
        setColor(color, alpha: alpha)
        var rect = SDL_FRect(x: Float(x), y: Float(y), w: Float(w), h: Float(h))
        SDL_RenderFillRectF(renderer, &rect)
    }

    /// A blended fill over the list: on the CPU path straight into the window surface, with
    /// the renderer's own arithmetic (`WindowCanvas.fill`). Nothing queued in the renderer
    /// lies under it: the list and the indicator below it are written directly too, and
    /// what the renderer still draws (banner, flash, HUD) lies over it.
    private func overlayFill(x: Double, y: Double, w: Double, h: Double, _ color: SDL_Color, alpha: Double) {
        if let canvas, canvas.fill(x: Float(x), y: Float(y), w: Float(w), h: Float(h), color: color, alpha: Self.alpha(color, alpha)) { return }
        fill(x: x, y: y, w: w, h: h, color, alpha: alpha)
    }

    /// The renderer's draw alpha for `c` at opacity `alpha`.
    private static func alpha(_ c: SDL_Color, _ alpha: Double) -> UInt8 {
        UInt8(max(0, min(255, (Double(c.a) * alpha).rounded())))
    }

    private func blit(_ entry: TextCache.Entry, x: Double, y: Double, color: SDL_Color, alpha: Double) {
        guard let texture = entry.texture else { return }
        SDL_SetTextureColorMod(texture, color.r, color.g, color.b)
        SDL_SetTextureAlphaMod(texture, UInt8(max(0, min(255, (255 * alpha).rounded()))))
        var dst = SDL_FRect(x: Float(x.rounded()), y: Float(y.rounded()), w: Float(entry.width), h: Float(entry.height))
        SDL_RenderCopyF(renderer, texture, nil, &dst)
    }
}
