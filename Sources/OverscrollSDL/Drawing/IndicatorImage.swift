import CSDL
import OverscrollKit

/// The refresh indicator — a disc with a 1 px feathered rim and an anti-aliased arc over
/// it — rasterized by the CPU into one small texture and blended once.
///
/// SDL's software renderer blends each triangle of a mesh through a temporary surface of
/// its own (a malloc, a fill and a blit per triangle): a turning spinner cost more than
/// repainting the whole list. Here each pixel's distance and angle from the centre are
/// worked out once per size and position; while the spinner turns, a frame copies the
/// disc and shades the few hundred pixels of the ring that the arc covers.
final class IndicatorImage {
    /// What the per-pixel tables were made for; they are rebuilt when it changes.
    private struct Geometry: Equatable {
        var side: Int32
        var centerX: Double, centerY: Double     // inside the square, in pixels
        var discRadius: Double, ringRadius: Double, halfThickness: Double, rimWidth: Double

        init(_ indicator: IndicatorLayout) {
            side = indicator.side
            (centerX, centerY) = indicator.centerInSquare
            discRadius = indicator.discRadius
            ringRadius = indicator.ringRadius
            halfThickness = indicator.halfThickness
            rimWidth = indicator.rimWidth
        }
    }

    private let display: Display
    private var texture: OpaquePointer?
    private var textureSide: Int32 = 0
    private var geometry: Geometry?
    /// The disc's coverage of each pixel, 0…1.
    private var disc: [Float] = []
    /// How much of each pixel the rim covers, 0…1 (inside the disc, at its edge).
    private var rim: [Float] = []
    /// The disc alone (ARGB8888, non-premultiplied), at the opacity it was made for.
    private var base: [UInt32] = []
    private var baseAlpha: UInt8 = 0
    private var pixels: [UInt32] = []
    /// The pixels the ring touches: index into `pixels`, its x and y, radial coverage,
    /// angle in turns. Sorted by angle, so `turn` finds an arc's ends by bisection.
    private var ring: [RingPixel] = []
    /// The arc last shaded into `pixels` (unchanged: only the copy is done again).
    private var shaded: (start: Double, sweep: Double, alpha: UInt8)?
    /// `pixels` changed since the texture was last filled from them.
    private var textureStale = false
    /// Each ring pixel's colour under the arc, for `arcColoursAlpha` (see `colourArc`).
    private var arcColours: [UInt32] = []
    private var arcColoursAlpha: UInt8 = 0

    init(display: Display) { self.display = display }

    deinit { if let texture { SDL_DestroyTexture(texture) } }

    /// Draws `indicator` where its layout puts it: on the CPU path straight into `canvas`
    /// (inside its clip), else through the renderer.
    func draw(_ indicator: IndicatorLayout, on canvas: WindowCanvas?) {
        let wanted = Geometry(indicator), left = indicator.left, top = indicator.top
        let side = wanted.side
        guard side > 0, side < 4096 else { return }
        if geometry != wanted { layOut(wanted) }
        let alpha = Self.alpha(indicator)
        guard alpha > 0 else { return }
        if baseAlpha != alpha { shadeDisc(alpha: alpha) }
        if shaded == nil || shaded!.start != indicator.arc.start || shaded!.sweep != indicator.arc.sweep || shaded!.alpha != alpha {
            shadeArc(start: indicator.arc.start, sweep: indicator.arc.sweep, alpha: alpha)
            textureStale = true
        }
        if let canvas, Self.windowLayouts.contains(canvas.pixelFormat) {
            // SDL's blend, done in place; the texture, made only for the renderer's path,
            // stays stale until that path draws.
            pixels.withUnsafeBufferPointer { canvas.blend(image: $0.baseAddress!, width: side, height: side, left: left, top: top) }
            return
        }
        guard let texture = texture(side: side) else { return }
        if textureStale {
            var area = SDL_Rect(x: 0, y: 0, w: side, h: side)
            pixels.withUnsafeBytes { raw in _ = SDL_UpdateTexture(texture, &area, raw.baseAddress, side * 4) }
            textureStale = false
        }
        var destination = SDL_Rect(x: left, y: top, w: side, h: side)
        var source = SDL_Rect(x: 0, y: 0, w: side, h: side)
        SDL_RenderCopy(display.renderer, texture, &source, &destination)
    }

    /// The spinner turning in place: when the indicator drawn last frame (`before`, what the
    /// window shows) had this one's size, place and opacity and its disc is opaque, only
    /// ring pixels change and none of them lets the list show through. Only those the arc
    /// newly covers or uncovers are written, straight into the window: a few dozen stores
    /// at its two ends instead of restoring the list under the square and blending it all
    /// again. Returns the rectangle written in (empty when the arc did not move on the
    /// pixels), or nil when that does not hold (then `draw` as usual).
    func turn(_ indicator: IndicatorLayout, from before: IndicatorLayout, on canvas: WindowCanvas) -> SDL_Rect? {
        let wanted = Geometry(indicator), x0 = indicator.left, y0 = indicator.top
        let alpha = Self.alpha(indicator)
        guard geometry == wanted, alpha == 255, baseAlpha == 255, Self.alpha(before) == alpha,
              Self.windowLayouts.contains(canvas.pixelFormat) else { return nil }
        colourArc(alpha: alpha)
        let now = Cover(indicator.arc), was = Cover(before.arc)
        var left = Int16.max, top = Int16.max, right = Int16.min, bottom = Int16.min
        ring.withUnsafeBufferPointer { ring in
            arcColours.withUnsafeBufferPointer { colours in
                base.withUnsafeBufferPointer { disc in
                    // The ring is sorted by angle, so which pixels an arc covers changes only
                    // at the cuts of its ranges: between two cuts a pixel's fate is its
                    // neighbours'. Only runs the two arcs disagree on are written.
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: 8) { cuts in
                        let a = now.ranges(ring), b = was.ranges(ring)
                        cuts.initialize(repeating: 0)
                        (cuts[1], cuts[2], cuts[3]) = a
                        (cuts[4], cuts[5], cuts[6]) = b
                        cuts[7] = ring.count
                        // Eight numbers: sorted by insertion, in place (no array, no allocation).
                        for i in 1..<8 {
                            var k = i
                            while k > 0, cuts[k - 1] > cuts[k] { cuts.swapAt(k - 1, k); k -= 1 }
                        }
                        for k in 0..<7 where cuts[k] < cuts[k + 1] {
                            let covered = now.covers(ring[cuts[k]].angle)
                            guard covered != was.covers(ring[cuts[k]].angle) else { continue }
                            for j in cuts[k]..<cuts[k + 1] {
                                let pixel = ring[j]
                                // Over an opaque disc every ring pixel is opaque: SDL's blend would copy it.
                                canvas.set(x: x0 + Int32(pixel.x), y: y0 + Int32(pixel.y),
                                           pixel: covered ? colours[j] : disc[Int(pixel.index)])
                                left = min(left, pixel.x); right = max(right, pixel.x)
                                top = min(top, pixel.y); bottom = max(bottom, pixel.y)
                            }
                        }
                    }
                }
            }
        }
        // `pixels` and the texture still hold the last arc `draw` shaded.
        guard left <= right else { return SDL_Rect() }
        return SDL_Rect(x: x0 + Int32(left), y: y0 + Int32(top), w: Int32(right - left) + 1, h: Int32(bottom - top) + 1)
    }

    /// The window layouts `turn` and `draw` write in: only in these is the texture's ARGB
    /// the window's pixel as is.
    private static let windowLayouts = [SDL_PIXELFORMAT_ARGB8888.rawValue, SDL_PIXELFORMAT_RGB888.rawValue]

    private typealias RingPixel = (index: Int32, x: Int16, y: Int16, coverage: Float, angle: Float)

    /// Which ring pixels an arc covers: those whose angle lies in `span` turns clockwise
    /// from `from`. One definition for shading the arc and for turning it.
    private struct Cover {
        var from: Float, span: Float
        init(start: Double, sweep: Double) {
            from = Float(start - start.rounded(.down))
            span = sweep > 0 ? Float(min(1, sweep)) : -1
        }
        init(_ arc: ArcShape) { self.init(start: arc.start, sweep: arc.sweep) }

        func covers(_ angle: Float) -> Bool {
            var offset = angle - from
            if offset < 0 { offset += 1 }
            return offset <= span
        }

        /// On a ring sorted by angle, the pixels covered are `0..<wrapped` (angles below
        /// `from`, reached past a full turn) and `first..<last`. Found by bisection with
        /// `covers`' own arithmetic, so they agree to the pixel: below `first` the offset
        /// is `angle - from + 1`, from it on `angle - from`, and each only grows along the ring.
        func ranges(_ ring: UnsafeBufferPointer<RingPixel>) -> (wrapped: Int, first: Int, last: Int) {
            let first = Self.partition(ring, 0, ring.count) { $0 < from }
            let wrapped = Self.partition(ring, 0, first) { covers($0) }
            let last = Self.partition(ring, first, ring.count) { covers($0) }
            return (wrapped, first, last)
        }

        /// The first index in `lo..<hi` where `holds` stops holding (it holds on a prefix).
        private static func partition(_ ring: UnsafeBufferPointer<RingPixel>, _ lo: Int, _ hi: Int,
                                      _ holds: (Float) -> Bool) -> Int {
            var lo = lo, hi = hi
            while lo < hi {
                let mid = (lo + hi) / 2
                if holds(ring[mid].angle) { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
    }

    private static func alpha(_ indicator: IndicatorLayout) -> UInt8 {
        UInt8(max(0, min(255, (255 * indicator.arc.opacity).rounded())))
    }

    /// Distances and angles of every pixel; the ring's pixels listed apart. A pixel is
    /// sampled at its integer coordinates, as SDL's triangle rasterizer did, so the
    /// indicator sits where it always did.
    private func layOut(_ g: Geometry) {
        geometry = g
        // Storage is kept: while the indicator shrinks away after a refresh this runs every frame.
        let count = Int(g.side) * Int(g.side)
        base.removeAll(keepingCapacity: true)
        base.append(contentsOf: repeatElement(0, count: count))
        pixels.removeAll(keepingCapacity: true)
        pixels.append(contentsOf: repeatElement(0, count: count))
        disc.removeAll(keepingCapacity: true)
        disc.append(contentsOf: repeatElement(0, count: count))
        rim.removeAll(keepingCapacity: true)
        rim.append(contentsOf: repeatElement(0, count: count))
        ring.removeAll(keepingCapacity: true)
        arcColours.removeAll(keepingCapacity: true)
        baseAlpha = 0
        shaded = nil
        let inner = max(0, g.ringRadius - g.halfThickness), outer = g.ringRadius + g.halfThickness
        let side = Int(g.side)
        // Filled through local storage: appending to the stored property pays an
        // exclusivity check per pixel.
        var ring = self.ring
        self.ring = []
        rim.withUnsafeMutableBufferPointer { rim in
        disc.withUnsafeMutableBufferPointer { disc in
            for y in 0..<side {
                let dy = Double(y) - g.centerY
                for x in 0..<side {
                    let dx = Double(x) - g.centerX
                    let d = (dx * dx + dy * dy).squareRoot()
                    let index = y * side + x
                    // The disc: coverage 1 to its radius, 0 a pixel further out.
                    disc[index] = Float(min(1, max(0, g.discRadius + 1 - d)))
                    // The rim: the disc's outer `rimWidth`, fading in over a pixel inward.
                    rim[index] = Float(min(1, max(0, d - (g.discRadius - g.rimWidth - 1))))
                    // The ring: full inside its edges, fading to nothing over one pixel on either side.
                    let coverage = min(1, max(0, min(d - (inner - 1), (outer + 1) - d)))
                    guard coverage > 0 else { continue }
                    ring.append((Int32(index), Int16(x), Int16(y), Float(coverage), Self.turns(dy: dy, dx: dx)))
                }
            }
        }
        }
        ring.sort { $0.angle < $1.angle }
        self.ring = ring
    }

    /// `x` (≥ 0) to the nearest whole number, halves away from zero: what `x.rounded()`
    /// gives, without its call into libm for every pixel (x86-64's baseline has no
    /// instruction for it). In a Double, x + ½ is exact, so its integer part is the answer.
    @inline(__always)
    static func nearest(_ x: Float) -> UInt32 { UInt32(Double(x) + 0.5) }

    /// The disc at `alpha`, from the coverage worked out in `layOut`.
    private func shadeDisc(alpha: UInt8) {
        baseAlpha = alpha
        shaded = nil
        arcColours.removeAll(keepingCapacity: true)
        let c = Palette.indicatorDisc, e = Palette.indicatorRim
        let fill = (Float(c.r), Float(c.g), Float(c.b)), edge = (Float(e.r), Float(e.g), Float(e.b))
        let scale = Float(alpha)
        base.withUnsafeMutableBufferPointer { out in
            disc.withUnsafeBufferPointer { coverage in
                rim.withUnsafeBufferPointer { rim in
                    for i in out.indices {
                        let a = Self.nearest(coverage[i] * scale)
                        guard a > 0 else { out[i] = 0; continue }
                        // The fill, mixed towards the rim's colour by the rim's coverage.
                        let k = rim[i]
                        out[i] = a << 24 | Self.nearest(fill.0 + (edge.0 - fill.0) * k) << 16
                            | Self.nearest(fill.1 + (edge.1 - fill.1) * k) << 8 | Self.nearest(fill.2 + (edge.2 - fill.2) * k)
                    }
                }
            }
        }
    }

    /// The angle of (dx, dy) in turns, 0…1 clockwise from 3 o'clock (y points down), to
    /// within 1e-5 turn (a hundredth of a pixel on the ring): a polynomial, not `atan2`,
    /// because this runs for every ring pixel whenever the indicator moves.
    static func turns(dy: Double, dx: Double) -> Float {
        let ax = abs(dx), ay = abs(dy)
        guard ax > 0 || ay > 0 else { return 0 }
        let a = min(ax, ay) / max(ax, ay), s = a * a
        // atan on 0…1 (Abramowitz–Stegun 4.4.49, |error| < 1e-5 rad).
        var r = ((((0.0208351 * s - 0.0851330) * s + 0.1801410) * s - 0.3302995) * s + 0.9998660) * a
        if ay > ax { r = Double.pi / 2 - r }
        if dx < 0 { r = Double.pi - r }
        if dy < 0 { r = 2 * Double.pi - r }
        let t = r / (2 * Double.pi)
        return Float(t >= 1 ? t - 1 : t)
    }

    /// The disc, then the arc over it (`start`, `sweep` in turns, clockwise from 3 o'clock).
    private func shadeArc(start: Double, sweep: Double, alpha: UInt8) {
        shaded = (start, sweep, alpha)
        pixels.withUnsafeMutableBufferPointer { out in
            base.withUnsafeBufferPointer { disc in _ = out.initialize(from: disc) }
        }
        var out = pixels
        pixels = []              // written through `out`, uniquely referenced: no copy
        forEachRingPixel(start: start, sweep: sweep, alpha: alpha) { pixel, value in out[Int(pixel.index)] = value }
        pixels = out
    }

    /// Calls `body` with each ring pixel and its colour under the arc (`start`, `sweep` in
    /// turns, clockwise from 3 o'clock): the arc over the disc where it covers the pixel,
    /// the disc elsewhere. The arc's ends are cut square, so a covered pixel's colour
    /// depends only on its coverage: worked out once a size and opacity (`colourArc`), a
    /// turning spinner only tests angles.
    private func forEachRingPixel(start: Double, sweep: Double, alpha: UInt8,
                                  _ body: (RingPixel, UInt32) -> Void) {
        colourArc(alpha: alpha)
        let cover = Cover(start: start, sweep: sweep)
        ring.withUnsafeBufferPointer { ring in
            arcColours.withUnsafeBufferPointer { colours in
                base.withUnsafeBufferPointer { disc in
                    for j in ring.indices {
                        body(ring[j], cover.covers(ring[j].angle) ? colours[j] : disc[Int(ring[j].index)])
                    }
                }
            }
        }
    }

    /// Each ring pixel covered by the arc at `alpha`, over the disc, non-premultiplied: what
    /// SDL's blend of the two would give (the disc's own pixel where the arc adds nothing).
    private func colourArc(alpha: UInt8) {
        // Made once a size and opacity: `layOut` and `shadeDisc` empty the table.
        guard arcColoursAlpha != alpha || arcColours.count != ring.count else { return }
        arcColoursAlpha = alpha
        let accent = Palette.accent
        let ar = Float(accent.r), ag = Float(accent.g), ab = Float(accent.b)
        let arcAlpha = Float(alpha) / 255
        var colours = arcColours
        arcColours = []
        colours.removeAll(keepingCapacity: true)
        base.withUnsafeBufferPointer { disc in
            for pixel in ring {
                let below = disc[Int(pixel.index)]
                let a = pixel.coverage * arcAlpha
                let da = Float(below >> 24) / 255 * (1 - a)
                let outA = a + da
                guard outA > 0 else { colours.append(below); continue }
                let r = (ar * a + Float((below >> 16) & 0xFF) * da) / outA
                let gg = (ag * a + Float((below >> 8) & 0xFF) * da) / outA
                let b = (ab * a + Float(below & 0xFF) * da) / outA
                colours.append(Self.nearest(outA * 255) << 24 | Self.nearest(r) << 16
                               | Self.nearest(gg) << 8 | Self.nearest(b))
            }
        }
        arcColours = colours
    }

    /// A streaming texture at least `side` square, made again only when it must grow.
    private func texture(side: Int32) -> OpaquePointer? {
        if let texture, textureSide >= side { return texture }
        if let texture { SDL_DestroyTexture(texture) }
        texture = SDL_CreateTexture(display.renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                    Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), side, side)
        textureSide = texture == nil ? 0 : side
        if let texture { SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND) }
        return texture
    }
}
