import CSDL

/// Where a line of text sits in its row: at the edge its first strong character reads from.
public enum TextAlignment: Sendable {
    case left, right
}

/// A line of text drawn into a surface no wider than was asked; the caller owns `surface`
/// (free it with `SDL_FreeSurface`).
public struct RenderedLine {
    public let surface: UnsafeMutablePointer<SDL_Surface>
    public let alignment: TextAlignment
    public var width: Int32 { surface.pointee.w }
    public var height: Int32 { surface.pointee.h }
}

/// Lays out one line — runs in display order, each shaped with its script and direction —
/// and draws it only as far as `maxWidth` shows: a longer line is cut in logical order and
/// ends with "…", so a row of any length costs what a screen-wide row costs.
final class LineRasterizer {
    private let faces: FontFaces
    private let itemizer: TextItemizer

    init(faces: FontFaces, fallback: FontFallback) {
        self.faces = faces
        itemizer = TextItemizer(faces: faces, fallback: fallback)
    }

    /// `text` in `color` on transparent pixels, at most `maxWidth` wide, with `padding`
    /// pixels above and below the line for the marks of taller scripts. Nil when nothing
    /// visible is left to draw.
    func render(_ text: String, maxWidth: Int, color: SDL_Color, padding: Int32 = 0) -> RenderedLine? {
        guard maxWidth > 0 else { return nil }
        var (characters, cut) = Self.head(of: text, limit: maxWidth)
        var (runs, rightToLeft) = itemizer.runs(characters)
        let alignment: TextAlignment = rightToLeft ? .right : .left
        var widths = runs.map(width)
        if cut || widths.reduce(0, +) > maxWidth {
            characters = fitted(characters, runs: runs, widths: widths, maxWidth: maxWidth)
            characters.append("…")
            (runs, _) = itemizer.runs(characters)
            widths = runs.map(width)
        }
        let total = min(maxWidth, widths.reduce(0, +))
        guard total > 0 else { return nil }
        guard let line = SDL_CreateRGBSurfaceWithFormat(0, Int32(total), faces.lineHeight + 2 * padding, 32,
                                                        SDL_PIXELFORMAT_ARGB8888.rawValue) else { return nil }
        // Transparent pixels of the text's own colour: blending a glyph's edge onto them
        // keeps the colour, only the coverage goes into alpha.
        SDL_FillRect(line, nil, SDL_MapRGBA(line.pointee.format, color.r, color.g, color.b, 0))
        let baseline = padding + faces.ascent
        var x: Int32 = 0
        for i in BidiParagraph.visualOrder(runs.map(\.level)) {
            draw(runs[i], into: line, x: x, baseline: baseline, color: color)
            x += Int32(widths[i])
        }
        return RenderedLine(surface: line, alignment: alignment)
    }

    /// At most `limit` characters from the start (a visible glyph is at least a pixel wide),
    /// reading no more of a long row than that; and whether the row went on.
    private static func head(of text: String, limit: Int) -> ([Character], Bool) {
        // Bound the scalars first, so one character with a million marks stays cheap.
        let scalars = text.unicodeScalars
        let end = scalars.index(scalars.startIndex, offsetBy: 4 * limit, limitedBy: scalars.endIndex) ?? scalars.endIndex
        var characters: [Character] = []
        characters.reserveCapacity(min(limit, 256))
        for c in text[..<end] {
            if characters.count == limit { return (characters, true) }
            characters.append(c)
        }
        return (characters, end != scalars.endIndex)
    }

    /// The longest logical prefix that fits in `maxWidth` with an ellipsis after it.
    private func fitted(_ characters: [Character], runs: [TextRun], widths: [Int], maxWidth: Int) -> [Character] {
        let budget = maxWidth - width(of: "…", font: FontFaces.primary)
        var used = 0
        for (run, w) in zip(runs, widths) {
            if used + w <= budget { used += w; continue }
            var low = 0, high = run.range.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                var part = run
                part.text = String(characters[run.range.lowerBound..<(run.range.lowerBound + mid)])
                if width(part) <= budget - used { low = mid } else { high = mid - 1 }
            }
            return Array(characters[..<(run.range.lowerBound + low)])
        }
        return characters
    }

    private func configure(_ run: TextRun) -> FontFaces.Font {
        let font = faces.fonts[run.font]
        TTF_SetFontDirection(font.handle, run.rightToLeft ? TTF_DIRECTION_RTL : TTF_DIRECTION_LTR)
        TTF_SetFontScriptName(font.handle, run.script)
        return font
    }

    /// A run's advance in pixels, as drawn.
    private func width(_ run: TextRun) -> Int {
        let font = configure(run)
        var w: Int32 = 0, h: Int32 = 0
        guard TTF_SizeUTF8(font.handle, run.text, &w, &h) == 0 else { return 0 }
        return Int((Double(w) * font.scale).rounded())
    }

    private func width(of text: String, font: Int) -> Int {
        width(TextRun(range: 0..<1, text: text, font: font, script: "Zyyy", level: 0))
    }

    private func draw(_ run: TextRun, into line: UnsafeMutablePointer<SDL_Surface>, x: Int32, baseline: Int32, color: SDL_Color) {
        let font = configure(run)
        if font.scale != 1 && run.text.count > 1 {
            // Bitmap glyphs are drawn one cluster at a time, so no surface of unscaled
            // 109-pixel emoji is ever wider than a few glyphs.
            var x = x
            let clusters = run.rightToLeft ? Array(run.text).reversed() : Array(run.text)
            for c in clusters {
                var one = run
                one.text = String(c)
                draw(one, into: line, x: x, baseline: baseline, color: color)
                x += Int32(width(one))
            }
            return
        }
        guard let drawn = TTF_RenderUTF8_Blended(font.handle, run.text, color) else { return }
        var glyphs = drawn
        if font.scale != 1, let scaled = Self.scaled(drawn, by: font.scale) {
            SDL_FreeSurface(drawn)
            glyphs = scaled
        }
        defer { SDL_FreeSurface(glyphs) }
        SDL_SetSurfaceBlendMode(glyphs, SDL_BLENDMODE_BLEND)
        let top = baseline - Int32((Double(font.ascent) * font.scale).rounded()) - rise(of: run, font: font)
        var target = SDL_Rect(x: x, y: top, w: glyphs.pointee.w, h: glyphs.pointee.h)
        SDL_UpperBlit(glyphs, nil, line, &target)
    }

    /// How far SDL_ttf moved the run's baseline down in its surface: when a glyph reaches
    /// above the font's ascent (a stack of combining marks), the surface grows upward by
    /// that much and everything in it sits lower. Blitting it at the ascent then drew the
    /// whole row's text shifted down and cut at the bottom (3 px for a letter with three
    /// acute accents, more with more). The rise is the run's height less its height
    /// without the marks that stack above (those below a letter only grow the surface
    /// downward); the marks that do not fit the line are cut at its top instead.
    private func rise(of run: TextRun, font: FontFaces.Font) -> Int32 {
        guard run.text.unicodeScalars.contains(where: Self.stacksAbove) else { return 0 }
        var w: Int32 = 0, tall: Int32 = 0, plain: Int32 = 0
        guard TTF_SizeUTF8(font.handle, run.text, &w, &tall) == 0 else { return 0 }
        let base = String(String.UnicodeScalarView(run.text.unicodeScalars.filter { !Self.stacksAbove($0) }))
        if base.isEmpty || TTF_SizeUTF8(font.handle, base, &w, &plain) != 0 { plain = TTF_FontHeight(font.handle) }
        return Int32((Double(max(0, tall - plain)) * font.scale).rounded())
    }

    /// A mark that is not placed below its letter (nor overlaid on it).
    private static func stacksAbove(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x300 else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark:
            // Overlay (1), attached below (202), below left/right (218, 220, 222), double below (233).
            return ![1, 202, 218, 220, 222, 233].contains(scalar.properties.canonicalCombiningClass.rawValue)
        default:
            return false
        }
    }

    /// A bitmap font's glyphs (colour emoji at 109 px) shrunk to the line: halved while
    /// more than twice too big, so each step averages whole pixels, then one linear step.
    private static func scaled(_ surface: UnsafeMutablePointer<SDL_Surface>, by factor: Double) -> UnsafeMutablePointer<SDL_Surface>? {
        let targetW = max(1, Int32((Double(surface.pointee.w) * factor).rounded()))
        let targetH = max(1, Int32((Double(surface.pointee.h) * factor).rounded()))
        var current = surface
        var owned = false
        while true {
            let halve = current.pointee.w >= 2 * targetW && current.pointee.h >= 2 * targetH
            let w = halve ? current.pointee.w / 2 : targetW, h = halve ? current.pointee.h / 2 : targetH
            guard let next = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888.rawValue) else {
                if owned { SDL_FreeSurface(current) }
                return nil
            }
            SDL_SoftStretchLinear(current, nil, next, nil)
            if owned { SDL_FreeSurface(current) }
            current = next
            owned = true
            if !halve { return current }
        }
    }
}
