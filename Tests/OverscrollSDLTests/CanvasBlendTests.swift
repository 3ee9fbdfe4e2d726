import CSDL
import Testing
@testable import OverscrollSDL

/// The indicator is blended straight into the window surface on the CPU path; its pixels
/// must be the ones SDL's own blit gave when it went through the renderer.
extension SDLSuite { @Suite struct CanvasBlendTests {
    @Test func blendingAnImageEqualsSDLsBlitEveryAlphaOnEveryBackground() throws {
        // 256 columns (one alpha each) by 64 rows of arbitrary colours, over arbitrary pixels.
        let width: Int32 = 256, height: Int32 = 64
        // Colours scattered by a multiplicative hash of the index: the same on every run.
        func scattered(_ i: Int, _ salt: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: (UInt64(i) &+ salt) &* 0x9E37_79B9_7F4A_7C15 >> 29) }
        let image = (0..<Int(width * height)).map { i in UInt32(i % 256) << 24 | scattered(i, 1) & 0xFF_FFFF }
        let under = (0..<Int(width * height)).map { i in scattered(i, 7) | 0xFF00_0000 }

        let source = try #require(SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, SDL_PIXELFORMAT_ARGB8888.rawValue))
        let bySDL = try #require(SDL_CreateRGBSurfaceWithFormat(0, width + 8, height + 8, 32, SDL_PIXELFORMAT_RGB888.rawValue))
        let byCanvas = try #require(SDL_CreateRGBSurfaceWithFormat(0, width + 8, height + 8, 32, SDL_PIXELFORMAT_RGB888.rawValue))
        defer { SDL_FreeSurface(source); SDL_FreeSurface(bySDL); SDL_FreeSurface(byCanvas) }
        copy(image, into: source, width: width, at: (0, 0))
        for surface in [bySDL, byCanvas] { copy(under, into: surface, width: width, at: (5, 3)) }

        SDL_SetSurfaceBlendMode(source, SDL_BLENDMODE_BLEND)
        var to = SDL_Rect(x: 5, y: 3, w: width, h: height)
        #expect(SDL_UpperBlit(source, nil, bySDL, &to) == 0)
        let canvas = try #require(WindowCanvas(surface: byCanvas))
        image.withUnsafeBufferPointer { canvas.blend(image: $0.baseAddress!, width: width, height: height, left: 5, top: 3) }

        var differences = 0, first: (x: Int, y: Int)?
        for y in 0..<Int(height + 8) {
            for x in 0..<Int(width + 8) {
                let a = pixel(bySDL, x, y) & 0xFF_FFFF, b = pixel(byCanvas, x, y) & 0xFF_FFFF
                if a != b { differences += 1; first = first ?? (x, y) }
            }
        }
        #expect(differences == 0, "\(differences) pixels differ from SDL's blit, the first at \(String(describing: first))")
    }

    /// A row fill stores each pixel's exact 32 bits, the top bit set or not: the fill goes
    /// through `wchar_t`, signed on x86_64 and unsigned on aarch64 (a conversion that
    /// assumed either sign traps or changes pixels on the other). Guards around it stay.
    @Test func fillingARowStoresEveryBitOfThePixelAndNothingPastIt() throws {
        for pixel: UInt32 in [0xFFFF_FFFF, 0x8000_0000, 0xFF80_4020, 0x7FFF_FFFF, 0x0000_0080, 0] {
            var buffer = [UInt32](repeating: 0x1234_5678, count: 4 * 40)
            buffer.withUnsafeMutableBufferPointer { all in
                var format = SDL_PixelFormat()
                format.format = SDL_PIXELFORMAT_RGB888.rawValue
                withUnsafeMutablePointer(to: &format) { format in
                    let canvas = WindowCanvas(pixels: all.baseAddress! + 40, stride: 40, width: 33, height: 2, format: format)
                    canvas.fill(row: 1, from: -2, to: 50, pixel: pixel)
                }
            }
            #expect(buffer[80..<113].allSatisfy { $0 == pixel }, "pixel \(String(pixel, radix: 16)): \(buffer[80..<113].map { String($0, radix: 16) })")
            #expect(buffer[0..<80].allSatisfy { $0 == 0x1234_5678 } && buffer[113...].allSatisfy { $0 == 0x1234_5678 },
                    "pixel \(String(pixel, radix: 16)) written outside row 1's 33 pixels")
        }
    }

    /// An image half off the surface, blended with a clip that reaches past the surface
    /// too (as the overlays' rectangle under a flash can), writes only inside the surface.
    @Test func blendingPastTheEdgeWritesOnlyTheSurface() throws {
        // A 16×16 surface in the middle of a 48×48 buffer: the pixels around it are guards.
        var buffer = [UInt32](repeating: 0xFF12_3456, count: 48 * 48)
        let opaque = [UInt32](repeating: 0xFFFF_FFFF, count: 20 * 20)
        try buffer.withUnsafeMutableBufferPointer { all in
            let surface = try #require(SDL_CreateRGBSurfaceWithFormatFrom(all.baseAddress! + 16 * 48 + 16, 16, 16, 32, 48 * 4,
                                                                          SDL_PIXELFORMAT_RGB888.rawValue))
            defer { SDL_FreeSurface(surface) }
            var canvas = try #require(WindowCanvas(surface: surface))
            canvas.clip = SDL_Rect(x: -30, y: -30, w: 100, h: 100)
            opaque.withUnsafeBufferPointer { canvas.blend(image: $0.baseAddress!, width: 20, height: 20, left: -10, top: -10) }
        }
        for y in 0..<48 {
            for x in 0..<48 {
                let inside = (16..<32).contains(x) && (16..<32).contains(y)
                // The image covers the surface's first 10 × 10 pixels.
                let covered = inside && x < 26 && y < 26
                #expect(buffer[y * 48 + x] == (covered ? 0xFFFF_FFFF : 0xFF12_3456), "pixel (\(x), \(y))")
            }
        }
    }

    /// The scroll bar is filled straight into the window surface on the CPU path: every
    /// pixel must be the one SDL's software renderer gave for the same fractional rectangle,
    /// colour and opacity, on both 32-bit window layouts.
    @Test(arguments: [SDL_PIXELFORMAT_RGB888.rawValue, SDL_PIXELFORMAT_ARGB8888.rawValue])
    func fillingARectangleEqualsSDLsRenderer(format: UInt32) throws {
        let width: Int32 = 64, height: Int32 = 48
        func scattered(_ i: Int, _ salt: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: (UInt64(i) &+ salt) &* 0x9E37_79B9_7F4A_7C15 >> 29) }
        let under = (0..<Int(width * height)).map { i in scattered(i, 3) }
        let bySDL = try #require(SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, format))
        let byCanvas = try #require(SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, format))
        defer { SDL_FreeSurface(bySDL); SDL_FreeSurface(byCanvas) }
        let renderer = try #require(SDL_CreateSoftwareRenderer(bySDL))
        defer { SDL_DestroyRenderer(renderer) }
        let canvas = try #require(WindowCanvas(surface: byCanvas))
        // Every alpha, each with its own colour and a rectangle with fractional (and
        // negative, and past the edge) corners and sizes, drawn one over another.
        for surface in [bySDL, byCanvas] { copy(under, into: surface, width: width, at: (0, 0)) }
        for alpha in 0...255 {
            let c = scattered(alpha, 11)
            let color = SDL_Color(r: UInt8(c & 0xFF), g: UInt8(c >> 8 & 0xFF), b: UInt8(c >> 16 & 0xFF), a: 255)
            let x = Float(Int(c >> 3 % 97) % 80) / 1.3 - 8, y = Float(Int(c >> 9) % 70) / 1.7 - 6
            let w = Float(Int(c >> 15) % 300) / 10, h = Float(Int(c >> 21) % 200) / 10
            SDL_SetRenderDrawBlendMode(renderer, alpha == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
            SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, UInt8(alpha))
            var rect = SDL_FRect(x: x, y: y, w: w, h: h)
            SDL_RenderFillRectF(renderer, &rect)
            SDL_RenderFlush(renderer)
            #expect(canvas.fill(x: x, y: y, w: w, h: h, color: color, alpha: UInt8(alpha)))
        }
        var differences = 0, first: (x: Int, y: Int)?
        for y in 0..<Int(height) {
            for x in 0..<Int(width) where pixel(bySDL, x, y) != pixel(byCanvas, x, y) {
                differences += 1
                first = first ?? (x, y)
            }
        }
        #expect(differences == 0, "\(differences) pixels differ from SDL's renderer, the first at \(String(describing: first))")
        // Not vacuous: the fills changed most of the surface.
        let changed = (0..<Int(width * height)).filter { pixel(byCanvas, $0 % Int(width), $0 / Int(width)) != under[$0] }.count
        #expect(changed > Int(width * height) / 2)
    }

    private func copy(_ pixels: [UInt32], into surface: UnsafeMutablePointer<SDL_Surface>, width: Int32, at origin: (x: Int, y: Int)) {
        let pitch = Int(surface.pointee.pitch) / 4
        let base = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        for (i, p) in pixels.enumerated() { base[(origin.y + i / Int(width)) * pitch + origin.x + i % Int(width)] = p }
    }

    private func pixel(_ surface: UnsafeMutablePointer<SDL_Surface>, _ x: Int, _ y: Int) -> UInt32 {
        surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)[y * Int(surface.pointee.pitch) / 4 + x]
    }
}
}
