import CSDL

/// A stretch of a row drawn with one font, shaped with one script in one direction.
struct TextRun {
    /// Characters `range` of the row, in logical order.
    var range: Range<Int>
    var text: String
    var font: Int
    /// ISO 15924 tag for HarfBuzz ("Arab", "Deva", …).
    var script: String
    var level: Int8
    var rightToLeft: Bool { level & 1 == 1 }
}

/// Splits a row into runs of one script, one font and one direction, in logical order,
/// with the paragraph's direction. Characters the UI font lacks go to a fallback font;
/// emoji to the colour emoji font when there is one.
struct TextItemizer {
    let faces: FontFaces
    let fallback: FontFallback

    func runs(_ characters: [Character]) -> (runs: [TextRun], rightToLeft: Bool) {
        var scalars: [UInt32] = []
        var firstScalar: [Int] = []       // each character's first scalar in `scalars`
        scalars.reserveCapacity(characters.count)
        firstScalar.reserveCapacity(characters.count)
        for c in characters {
            firstScalar.append(scalars.count)
            for s in c.unicodeScalars { scalars.append(s.value) }
        }
        let bidi = BidiParagraph(scalars)
        let scripts = resolvedScripts(characters)

        var runs: [TextRun] = []
        var previousFont = FontFaces.primary
        for (i, c) in characters.enumerated() {
            let font = self.font(for: c, previous: previousFont)
            previousFont = font
            let level = bidi.levels[firstScalar[i]]
            if var last = runs.last, last.font == font, last.script == scripts[i], last.level == level {
                last.range = last.range.lowerBound..<(i + 1)
                last.text.append(c)
                runs[runs.count - 1] = last
            } else {
                runs.append(TextRun(range: i..<(i + 1), text: String(c), font: font, script: scripts[i], level: level))
            }
        }
        return (runs, bidi.rightToLeft)
    }

    private func font(for c: Character, previous: Int) -> Int {
        guard let first = c.unicodeScalars.first else { return previous }
        if Self.isEmoji(c), let face = fallback.face(for: first, emoji: true), let index = faces.index(of: face) {
            return index
        }
        // Controls and joiners are invisible; punctuation and spaces stay in the font of
        // what they follow when it has them, so "東京、大阪" is one run.
        if first.properties.isDefaultIgnorableCodePoint { return previous }
        // (Not after emoji: a bitmap emoji font's space is far wider than the text's.)
        if Self.isCommon(first), faces.fonts[previous].scale == 1, faces.provides(previous, first) { return previous }
        if faces.provides(FontFaces.primary, first) { return FontFaces.primary }
        if let face = fallback.face(for: first, emoji: false), let index = faces.index(of: face) { return index }
        return FontFaces.primary
    }

    /// Emoji drawn as pictures: those shown as emoji by default, and any with VS16.
    static func isEmoji(_ c: Character) -> Bool {
        guard let first = c.unicodeScalars.first else { return false }
        return first.properties.isEmojiPresentation || c.unicodeScalars.contains("\u{FE0F}")
    }

    private static let common = HB_SCRIPT_COMMON, inherited = HB_SCRIPT_INHERITED, unknown = HB_SCRIPT_UNKNOWN

    static func isCommon(_ s: Unicode.Scalar) -> Bool {
        let script = hb_unicode_script(hb_unicode_funcs_get_default(), s.value)
        return script == common || script == inherited || script == unknown
    }

    /// Each character's script; spaces, digits and marks (Common, Inherited) take the
    /// script of the text before them, or after them at the start of the row.
    private func resolvedScripts(_ characters: [Character]) -> [String] {
        let funcs = hb_unicode_funcs_get_default()
        var scripts = [hb_script_t?](repeating: nil, count: characters.count)
        for (i, c) in characters.enumerated() {
            guard let first = c.unicodeScalars.first else { continue }
            let script = hb_unicode_script(funcs, first.value)
            if script != Self.common && script != Self.inherited && script != Self.unknown { scripts[i] = script }
        }
        var current = scripts.first { $0 != nil } ?? nil
        return scripts.map { script in
            if let script { current = script }
            return Self.name(current ?? Self.common)
        }
    }

    private static func name(_ script: hb_script_t) -> String {
        let t = script.rawValue
        return String(decoding: [UInt8(t >> 24), UInt8(t >> 16 & 0xFF), UInt8(t >> 8 & 0xFF), UInt8(t & 0xFF)], as: UTF8.self)
    }
}
