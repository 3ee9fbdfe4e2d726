import CSDL
import OverscrollKit

/// Each row's text composed once onto the row's background into an opaque image, so a
/// frame copies it without blending, the way a toolkit keeps a layer per item; the rest of
/// the row is plain fills around it (a fill only writes memory, a copy also reads it, and
/// most of a row is background). Images are kept for the rows on screen and about as many
/// again (a scroll back finds them); beyond that the least recently used one is dropped.
/// A row keeps one image per background: a tap highlights it and lets go, and that
/// should not compose it again (rows inserted above it keep its shade: `SceneRow.stripe`).
final class RowImages {
    /// A row's image is found by the row and its background.
    private struct Key: Hashable {
        var id: Int
        var shade: RowShade
    }

    /// A kept image and the frame it was last asked for, updated in place: a frame looks
    /// each row up once.
    private final class Entry {
        let image: RowImage
        var lastUsed: Int

        init(_ image: RowImage, lastUsed: Int) {
            self.image = image
            self.lastUsed = lastUsed
        }
    }

    private let display: Display
    private let text: TextCache
    private var images: [Key: Entry] = [:]
    /// The density and window width every image was made for (rows are cut to the
    /// width); a new one drops them all.
    private var scale = 0.0
    private var width: Int32 = 0
    private var frame = 0
    /// Images composed so far (each has its own serial).
    private(set) var serials = 0
    /// The status lines' images and the opacity each was made at, most recently used last.
    /// A pull goes through the same few lines ("Pull to refresh", "Release to refresh",
    /// "Refreshing…"), every pull: each is composed once, not once a pull.
    private var statuses: [(image: RowImage, opacity: Double)] = []
    private static let statusesKept = 6
    /// The window's own pixel format where the renderer can draw into it, so a copy onto
    /// the window surface is a `memcpy` per line, not a conversion.
    let format: UInt32

    init(display: Display, text: TextCache) {
        self.display = display
        self.text = text
        format = Self.format(for: display)
        images.reserveCapacity(128)
        statuses.reserveCapacity(Self.statusesKept)
    }

    /// Called once a frame before `image`: the density, the window's width in pixels, and
    /// how many rows are on screen.
    func beginFrame(scale: Double, width: Int32, visible: Int) {
        frame += 1
        if self.scale != scale || self.width != width {
            drop()
            self.scale = scale
            self.width = width
        }
        let limit = 2 * visible + 8
        while images.count > limit, let oldest = images.min(by: { $0.value.lastUsed < $1.value.lastUsed }), oldest.value.lastUsed < frame {
            // Dropped from here; freed when the last frame that shows it lets it go.
            images.removeValue(forKey: oldest.key)
        }
    }

    /// The images of `frame`'s rows, in its order, into `images` (nil: a row without text).
    /// Must not be called while drawing into another target (composing switches targets).
    func images(for frame: FrameLayout, into images: inout [RowImage?]) {
        images.removeAll(keepingCapacity: true)
        for row in frame.rows { images.append(image(for: row)) }
    }

    /// The opaque image of `row`'s text on its background, composed if it is new or its
    /// text or shade changed; nil for a row without text.
    /// Must not be called while drawing into another target (it switches targets).
    func image(for row: RowBand) -> RowImage? {
        let key = Key(id: row.id, shade: row.shade)
        if let hit = images[key] {
            if hit.image.text == row.text {
                hit.lastUsed = frame
                return hit.image
            }
            images.removeValue(forKey: key)
        }
        // Rows are rasterized in their colour already (emoji keep theirs): no tint.
        guard let label = text.row(row.id, text: row.text),
              let image = makeImage(label, tint: SDL_Color(r: 255, g: 255, b: 255, a: 255), alpha: 255,
                                    background: Palette.row(row.shade), text: row.text) else { return nil }
        images[key] = Entry(image, lastUsed: frame)
        return image
    }

    /// The status line under the refresh arc composed onto the gap, as a row's text is onto
    /// its row: the CPU path shows it as part of the list (`ListLines`), not blended over
    /// it every frame. Nil for a status that cannot be drawn.
    func statusImage(_ line: String, color: SDL_Color, opacity: Double, background: SDL_Color) -> RowImage? {
        if let last = statuses.last, last.image.text == line, last.opacity == opacity { return last.image }
        if let kept = statuses.firstIndex(where: { $0.image.text == line && $0.opacity == opacity }) {
            let status = statuses.remove(at: kept)
            statuses.append(status)
            return status.image
        }
        let alpha = UInt8(max(0, min(255, (255 * opacity).rounded())))
        guard let label = text.label(line),
              let image = makeImage(label, tint: color, alpha: alpha, background: background, text: line) else { return nil }
        if statuses.count >= Self.statusesKept { statuses.removeFirst() }
        statuses.append((image, opacity))
        return image
    }

    /// `label` composed into a new opaque image, with a serial of its own: on the CPU path
    /// as pixels, on the GPU path as a texture.
    private func makeImage(_ label: TextCache.Entry, tint: SDL_Color, alpha: UInt8, background: SDL_Color,
                           text: String) -> RowImage? {
        var texture: OpaquePointer?, raster: RowImage.Raster?
        if let line = label.surface {
            guard let pixels = compose(line, tint: tint, alpha: alpha, background: background) else { return nil }
            raster = pixels
        } else {
            guard let composed = composeTexture(label, tint: tint, alpha: alpha, background: background) else { return nil }
            texture = composed
        }
        serials += 1
        return RowImage(display: display, texture: texture, width: label.width, height: label.height,
                        alignment: label.alignment, raster: raster, serial: serials, text: text)
    }

    /// The background, then the line (white glyphs `tint`ed, at `alpha`) blended once, here,
    /// instead of every frame: into memory of the window's pixel format, by the same blit
    /// SDL's software renderer does for a texture copied onto a target (no target texture,
    /// no read back). The part of each line that is not background is found on the way.
    private func compose(_ line: UnsafeMutablePointer<SDL_Surface>, tint: SDL_Color, alpha: UInt8,
                         background: SDL_Color) -> RowImage.Raster? {
        let width = Int(line.pointee.w), height = Int(line.pointee.h)
        let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        guard let target = SDL_CreateRGBSurfaceWithFormatFrom(pixels, line.pointee.w, line.pointee.h, 32, line.pointee.w * 4, format) else {
            pixels.deallocate()
            return nil
        }
        defer { SDL_FreeSurface(target) }
        let layout = target.pointee.format!
        SDL_FillRect(target, nil, SDL_MapRGBA(layout, background.r, background.g, background.b, 255))
        SDL_SetSurfaceBlendMode(line, SDL_BLENDMODE_BLEND)
        SDL_SetSurfaceColorMod(line, tint.r, tint.g, tint.b)
        SDL_SetSurfaceAlphaMod(line, alpha)
        var all = SDL_Rect(x: 0, y: 0, w: line.pointee.w, h: line.pointee.h)
        _ = SDL_UpperBlit(line, nil, target, &all)
        let ink = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * height)
        // Colour bits only: a format's unused byte may hold anything.
        let colour = layout.pointee.Rmask | layout.pointee.Gmask | layout.pointee.Bmask
        let paper = SDL_MapRGB(layout, background.r, background.g, background.b) & colour
        for y in 0..<height {
            let row = pixels + y * width
            var from = 0, to = width
            while from < to, row[from] & colour == paper { from += 1 }
            while to > from, row[to - 1] & colour == paper { to -= 1 }
            ink[2 * y] = Int32(from)
            ink[2 * y + 1] = Int32(to)
        }
        return RowImage.Raster(pixels: pixels, ink: ink)
    }

    /// The same composition on the GPU path, into a target texture, by the renderer.
    private func composeTexture(_ label: TextCache.Entry, tint: SDL_Color, alpha: UInt8, background: SDL_Color) -> OpaquePointer? {
        let renderer = display.renderer
        guard let source = label.texture,
              let texture = SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_TARGET.rawValue), label.width, label.height)
        else { return nil }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
        let previous = SDL_GetRenderTarget(renderer)
        SDL_SetRenderTarget(renderer, texture)
        defer { SDL_SetRenderTarget(renderer, previous) }
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
        SDL_SetRenderDrawColor(renderer, background.r, background.g, background.b, 255)
        var all = SDL_Rect(x: 0, y: 0, w: label.width, h: label.height)
        SDL_RenderFillRect(renderer, &all)
        SDL_SetTextureColorMod(source, tint.r, tint.g, tint.b)
        SDL_SetTextureAlphaMod(source, alpha)
        SDL_RenderCopy(renderer, source, nil, &all)
        return texture
    }

    /// `image` as a texture, for the renderer's path on the CPU path (a rotated screen draws
    /// the list into a texture): made from its pixels the first time, then kept with it.
    func texture(of image: RowImage) -> OpaquePointer? {
        if let texture = image.texture { return texture }
        guard let raster = image.raster,
              let texture = SDL_CreateTexture(display.renderer, format, Int32(SDL_TEXTUREACCESS_STATIC.rawValue), image.width, image.height)
        else { return nil }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
        SDL_UpdateTexture(texture, nil, raster.pixels, image.width * 4)
        image.texture = texture
        return texture
    }

    private func drop() {
        statuses.removeAll(keepingCapacity: true)
        images.removeAll(keepingCapacity: true)
    }

    private static func format(for display: Display) -> UInt32 {
        let window = SDL_GetWindowPixelFormat(display.window)
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(display.renderer, &info)
        let supported = withUnsafeBytes(of: info.texture_formats) { Array($0.bindMemory(to: UInt32.self).prefix(Int(info.num_texture_formats))) }
        return display.path == .cpu && supported.contains(window) ? window : SDL_PIXELFORMAT_ARGB8888.rawValue
    }
}

/// A composed text image (a row's, the status line's): its pixels or texture, owned here
/// and freed when the last holder lets it go. Whoever draws from it holds it — `RowImages`
/// while it is kept, a frame's list (`ListLines`) while that list is on screen — so no
/// pointer into it outlives it, by construction rather than by a rule about frames.
final class RowImage {
    /// An image's pixels in `RowImages.format`, and the part of each line that is not
    /// background (most lines of a row's text are mostly background; many are all of it).
    struct Raster {
        let pixels: UnsafeMutablePointer<UInt32>
        /// Per line, two entries: the first pixel that is not the background and one past
        /// the last (the same number when the line is all background).
        let ink: UnsafeMutablePointer<Int32>

        func ink(line: Int32) -> (from: Int32, to: Int32) { (ink[2 * Int(line)], ink[2 * Int(line) + 1]) }
    }

    /// For the renderer: made with the image on the GPU path, on the CPU path only when
    /// the renderer draws rows (a rotated screen: `RowImages.texture(of:)`).
    fileprivate(set) var texture: OpaquePointer?
    /// Size in pixels: the text's.
    let width: Int32
    let height: Int32
    let alignment: TextAlignment
    /// The same image as pixels, on the CPU path (copied straight into the window surface).
    let raster: Raster?
    /// Tells this composition apart from every other, even one that reuses its memory.
    let serial: Int
    let text: String
    /// Held so the renderer that made `texture` is destroyed after it.
    private let display: Display

    fileprivate init(display: Display, texture: OpaquePointer?, width: Int32, height: Int32, alignment: TextAlignment,
                     raster: Raster?, serial: Int, text: String) {
        self.display = display
        self.texture = texture
        self.width = width
        self.height = height
        self.alignment = alignment
        self.raster = raster
        self.serial = serial
        self.text = text
    }

    deinit {
        if let texture { SDL_DestroyTexture(texture) }
        raster?.pixels.deallocate()
        raster?.ink.deallocate()
    }
}
