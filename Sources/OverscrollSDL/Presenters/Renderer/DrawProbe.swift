import CSDL

/// Whether a renderer really draws. SDL can create a renderer whose drawing goes nowhere:
/// on KMSDRM its desktop OpenGL renderer without libGL installed clears the screen and
/// draws nothing else, and presents all the same. A kiosk that took it would report itself
/// ready over a black screen. So, once at start, the renderer draws what the list is made
/// of — a clear, a filled rectangle and a texture copied — into a small target texture
/// (not the window: a hidden window's pixels are undefined to read back), and reads it back.
enum DrawProbe {
    static let clear: UInt32 = 0xFF10_2030
    static let fill: UInt32 = 0xFFCC_6633
    static let texel: UInt32 = 0xFF33_66CC

    /// Why `renderer` cannot draw, or nil when it drew what it was asked to. A renderer
    /// without target textures cannot be asked: it is taken at its word (nil).
    static func cannotDraw(_ renderer: OpaquePointer) -> String? {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0, info.flags & SDL_RENDERER_TARGETTEXTURE.rawValue != 0 else { return nil }
        let format = SDL_PIXELFORMAT_ARGB8888.rawValue
        guard let target = SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_TARGET.rawValue), 16, 4) else {
            return "cannot make a target texture: \(String(cString: SDL_GetError()))"
        }
        defer { SDL_DestroyTexture(target) }
        guard let source = SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_STATIC.rawValue), 4, 4) else {
            return "cannot make a texture: \(String(cString: SDL_GetError()))"
        }
        defer { SDL_DestroyTexture(source) }
        let texels = [UInt32](repeating: texel, count: 16)
        _ = texels.withUnsafeBytes { SDL_UpdateTexture(source, nil, $0.baseAddress, 16) }
        guard SDL_SetRenderTarget(renderer, target) == 0 else { return "cannot draw into a texture: \(String(cString: SDL_GetError()))" }
        defer {
            SDL_SetRenderTarget(renderer, nil)
            SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        }
        func channels(_ c: UInt32) -> (UInt8, UInt8, UInt8) { (UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)) }
        let (cr, cg, cb) = channels(clear), (fr, fg, fb) = channels(fill)
        SDL_SetRenderDrawColor(renderer, cr, cg, cb, 255)
        SDL_RenderClear(renderer)
        SDL_SetRenderDrawColor(renderer, fr, fg, fb, 255)
        var filled = SDL_Rect(x: 8, y: 0, w: 4, h: 4)
        SDL_RenderFillRect(renderer, &filled)
        var copied = SDL_Rect(x: 0, y: 0, w: 4, h: 4)
        SDL_RenderCopy(renderer, source, nil, &copied)
        // Anything but what was drawn: a read that writes nothing must not pass.
        var pixels = [UInt32](repeating: 0x0000_0000, count: 16 * 4)
        var area = SDL_Rect(x: 0, y: 0, w: 16, h: 4)
        let read = pixels.withUnsafeMutableBytes { SDL_RenderReadPixels(renderer, &area, format, $0.baseAddress, 16 * 4) }
        guard read == 0 else { return "cannot read its pixels back: \(String(cString: SDL_GetError()))" }
        let row = 16 * 1
        let seen = (texture: pixels[row + 1], clear: pixels[row + 5], fill: pixels[row + 9])
        guard close(seen.texture, texel), close(seen.clear, clear), close(seen.fill, fill) else {
            return "asked for a texture, a clear and a fill, it drew " + [seen.texture, seen.clear, seen.fill].map(hex).joined(separator: ", ")
        }
        return nil
    }

    /// Equal within 2 in each colour channel (a GPU may round a blend); alpha is not asked.
    static func close(_ a: UInt32, _ b: UInt32) -> Bool {
        [16, 8, 0].allSatisfy { shift in abs(Int(a >> UInt32(shift) & 0xFF) - Int(b >> UInt32(shift) & 0xFF)) <= 2 }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value & 0xFF_FFFF, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
}
