import CSDL

/// Which installed font draws a character the UI font lacks, asked of fontconfig once per
/// character and remembered. fontconfig is started on the first miss only, so content the
/// UI font covers never pays for loading the font list.
final class FontFallback {
    /// One font file (and face inside a collection) as fontconfig describes it.
    struct Face: Hashable {
        let path: String
        let index: Int32
        /// Bitmap-only fonts (Noto Color Emoji) come in fixed sizes and are scaled after drawing.
        let scalable: Bool
    }

    private enum Fonts {
        case notLoaded
        /// fontconfig could not start: every lookup answers "none" (the UI font's boxes).
        case unavailable
        case loaded(config: OpaquePointer, text: UnsafeMutablePointer<FcFontSet>, emoji: UnsafeMutablePointer<FcFontSet>)
    }

    private var fonts = Fonts.notLoaded
    private struct Key: Hashable { let scalar: UInt32; let emoji: Bool }
    private var answers: [Key: Face?] = [:]

    deinit {
        if case .loaded(let config, let text, let emoji) = fonts {
            FcFontSetDestroy(text)
            FcFontSetDestroy(emoji)
            FcConfigDestroy(config)
        }
    }

    /// The best installed font with a glyph for `scalar`: for emoji the colour emoji font
    /// first (fontconfig's "emoji" family), for the rest the fonts closest to "sans-serif".
    func face(for scalar: Unicode.Scalar, emoji: Bool) -> Face? {
        let key = Key(scalar: scalar.value, emoji: emoji)
        if let known = answers[key] { return known }
        let found = search(scalar.value, emoji: emoji)
        answers[key] = found
        return found
    }

    private func search(_ scalar: UInt32, emoji: Bool) -> Face? {
        load()
        guard case .loaded(_, let text, let emojiSet) = fonts else { return nil }
        if emoji, let face = first(in: emojiSet, having: scalar) { return face }
        return first(in: text, having: scalar)
    }

    private func first(in set: UnsafeMutablePointer<FcFontSet>, having scalar: UInt32) -> Face? {
        let count = Int(set.pointee.nfont)
        guard let patterns = set.pointee.fonts else { return nil }
        for i in 0..<count {
            guard let pattern = patterns[i] else { continue }
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(pattern, FC_CHARSET, 0, &charset) == FcResultMatch,
                  FcCharSetHasChar(charset, scalar) != 0 else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
            var index: Int32 = 0
            _ = FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
            // fontconfig calls colour bitmap fonts "scalable" (FreeType scales them); they
            // have no outlines, and SDL_ttf opens them only at their fixed strikes.
            var outline: FcBool = FcTrue
            _ = FcPatternGetBool(pattern, FC_OUTLINE, 0, &outline)
            let path = String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
            return Face(path: path, index: index, scalable: outline != 0)
        }
        return nil
    }

    /// Every font, sorted once by closeness to a family; the lookups walk these lists.
    private func load() {
        guard case .notLoaded = fonts else { return }
        guard let config = FcInitLoadConfigAndFonts() else { fonts = .unavailable; return }
        guard let text = sorted(config, family: "sans-serif") else { FcConfigDestroy(config); fonts = .unavailable; return }
        guard let emoji = sorted(config, family: "emoji") else {
            FcFontSetDestroy(text); FcConfigDestroy(config); fonts = .unavailable; return
        }
        fonts = .loaded(config: config, text: text, emoji: emoji)
    }

    private func sorted(_ config: OpaquePointer, family: String) -> UnsafeMutablePointer<FcFontSet>? {
        FontLocator.withPattern(family: family, config: config) { pattern in
            var result = FcResultMatch
            return FcFontSort(config, pattern, FcFalse, nil, &result)
        }
    }
}
