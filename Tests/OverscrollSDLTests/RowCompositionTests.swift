import CSDL
import Testing
@testable import OverscrollKit
@testable import OverscrollSDL

/// On the CPU path a row's text is composed onto its background by a blit into memory;
/// every pixel must be the one the renderer gave when it composed rows on a target
/// texture (and still does on the GPU path).
extension SDLSuite { @Suite struct RowCompositionTests {
    @Test(arguments: [1.0, 2.0])
    func composingWithoutTheRendererGivesTheRenderersPixels(scale: Double) throws {
        let headless = try Headless(scale: scale)
        let text = headless.painter.text
        let images = RowImages(display: headless.display, text: text)
        images.beginFrame(scale: scale, width: Int32(480 * scale), visible: 8)
        let texts = ["Row 12 — Ünïcødé ✓", "مرحبا بالعالم 42", "Emoji 😀 in a row", "हिन्दी पाठ", "Ελληνικά και 日本語"]
        var checked = 0
        for (i, line) in texts.enumerated() {
            for emphasis in [RowEmphasis.none, .selected] {
                let scene = SceneRow(id: i, text: line, y: 0, index: i, emphasis: emphasis, stripe: i % 2)
                let row = RowBand(id: i, text: line, shade: RowShade(scene), top: 0, width: Int32(480 * scale),
                                  height: Int32(56 * scale), inset: Int32(16 * scale), line: 1)
                let image = try #require(images.image(for: row))
                let raster = try #require(image.raster)
                let entry = try #require(text.row(i, text: line))
                let expected = try rendererComposition(entry, tint: SDL_Color(r: 255, g: 255, b: 255, a: 255), alpha: 255,
                                                       background: Palette.row(row.shade), format: images.format, on: headless)
                #expect(compare(raster.pixels, expected, format: images.format) == 0, "\(line) \(emphasis)")
                checked += 1
            }
        }
        // The status line: white glyphs tinted, half transparent, onto the gap.
        let status = try #require(images.statusImage("Release to refresh", color: Palette.statusText, opacity: 0.5, background: Palette.gap))
        let label = try #require(text.label("Release to refresh"))
        let expected = try rendererComposition(label, tint: Palette.statusText, alpha: 128, background: Palette.gap,
                                               format: images.format, on: headless)
        #expect(compare(try #require(status.raster).pixels, expected, format: images.format) == 0)
        #expect(checked == 2 * texts.count)
    }

    /// What the renderer composed: a target texture filled with the background, the line's
    /// texture copied over it with the tint and alpha, read back.
    private func rendererComposition(_ entry: TextCache.Entry, tint: SDL_Color, alpha: UInt8, background: SDL_Color,
                                     format: UInt32, on headless: Headless) throws -> [UInt32] {
        let renderer = headless.display.renderer
        let line = try #require(entry.surface)
        let source = try #require(SDL_CreateTextureFromSurface(renderer, line))
        let target = try #require(SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_TARGET.rawValue), entry.width, entry.height))
        defer { SDL_DestroyTexture(source); SDL_DestroyTexture(target) }
        SDL_SetTextureBlendMode(source, SDL_BLENDMODE_BLEND)
        let previous = SDL_GetRenderTarget(renderer)
        SDL_SetRenderTarget(renderer, target)
        defer { SDL_SetRenderTarget(renderer, previous) }
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
        SDL_SetRenderDrawColor(renderer, background.r, background.g, background.b, 255)
        var all = SDL_Rect(x: 0, y: 0, w: entry.width, h: entry.height)
        SDL_RenderFillRect(renderer, &all)
        SDL_SetTextureColorMod(source, tint.r, tint.g, tint.b)
        SDL_SetTextureAlphaMod(source, alpha)
        SDL_RenderCopy(renderer, source, nil, &all)
        var pixels = [UInt32](repeating: 0, count: Int(entry.width * entry.height))
        _ = pixels.withUnsafeMutableBytes { SDL_RenderReadPixels(renderer, &all, format, $0.baseAddress, entry.width * 4) }
        return pixels
    }

    /// How many pixels differ in their colour bits (a format's unused byte may hold anything).
    private func compare(_ pixels: UnsafePointer<UInt32>, _ expected: [UInt32], format: UInt32) -> Int {
        let layout = SDL_AllocFormat(format)!
        defer { SDL_FreeFormat(layout) }
        let colour = layout.pointee.Rmask | layout.pointee.Gmask | layout.pointee.Bmask
        var differ = 0, ink = 0
        for i in expected.indices {
            if pixels[i] & colour != expected[i] & colour { differ += 1 }
            if expected[i] & colour != expected[0] & colour { ink += 1 }
        }
        // Not vacuous: there is text in the picture.
        return ink > 20 ? differ : -1
    }
} }
