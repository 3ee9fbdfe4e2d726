import CSDL
import OverscrollKit
import RowSources
#if canImport(Glibc)
import Glibc
#endif

/// Reads and opens the font once before a run creates any output, so a file that is not a
/// font is refused as bad input (exit 66, like an unreadable one) rather than as a display
/// failure, and leaves no empty trace or report behind. The bytes it read are the ones
/// the run draws with (`FontFile`).
public enum FontCheck {
    public static func verify(_ path: String) throws(LaunchError) -> FontFile {
        let fix = "pass --font with a .ttf or .otf file"
        let file = try FontFile.read(path)
        let shown = OutsideText.escaped(TextLines.cut(path))
        // SDL_ttf failing to start is the font library, not the display: the input's
        // fault as far as the operator can tell (too many open files, say).
        guard TTF_Init() == 0 else {
            throw .input("font '\(shown)' cannot be used: SDL_ttf cannot start (\(OutsideText.escaped(String(cString: SDL_GetError())))); \(fix)")
        }
        defer { TTF_Quit() }
        guard let font = file.open(pixelSize: 16) else {
            throw .input("font '\(shown)' is not a font SDL_ttf can open (\(OutsideText.escaped(String(cString: SDL_GetError())))); \(fix)")
        }
        defer { TTF_CloseFont(font) }
        // A colour emoji font (bitmaps only, no Latin letters) opens fine and draws every
        // row blank: the UI font must draw ordinary Latin text as outlines.
        guard drawsLatin(font) else {
            throw .input("font '\(shown)' has no outline glyphs for Latin text (a colour emoji or symbol font?); pass --font with a text font such as DejaVuSans.ttf")
        }
        return file
    }

    /// Whether "A", "a" and "0" are in the font and draw something.
    private static func drawsLatin(_ font: OpaquePointer) -> Bool {
        for letter in ["A", "a", "0"] {
            let code = letter.unicodeScalars.first!.value
            guard TTF_GlyphIsProvided32(font, code) != 0,
                  let surface = TTF_RenderGlyph32_Blended(font, code, SDL_Color(r: 255, g: 255, b: 255, a: 255)) else { return false }
            defer { SDL_FreeSurface(surface) }
            var inked = false
            SDL_LockSurface(surface)
            let pitch = Int(surface.pointee.pitch), height = Int(surface.pointee.h), width = Int(surface.pointee.w)
            if let pixels = surface.pointee.pixels?.assumingMemoryBound(to: UInt32.self), surface.pointee.format.pointee.BytesPerPixel == 4 {
                for y in 0..<height where !inked {
                    for x in 0..<width where pixels[y * pitch / 4 + x] >> 24 != 0 { inked = true; break }
                }
            }
            SDL_UnlockSurface(surface)
            guard inked else { return false }
        }
        return true
    }
}
