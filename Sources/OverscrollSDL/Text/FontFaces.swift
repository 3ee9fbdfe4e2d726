import CSDL

/// The fonts open at one pixel size: the UI font (index 0) and each fallback font the
/// first time a row needs it. Reopened as a whole when the density changes.
final class FontFaces {
    struct Font {
        let handle: OpaquePointer
        /// Drawn size ÷ the font's own size: 1, except for bitmap fonts with fixed strikes
        /// (colour emoji are 109 px) which are scaled to the UI font's line height.
        let scale: Double
        /// In the font's own pixels (before `scale`).
        let ascent: Int32
    }

    static let primary = 0
    private(set) var fonts: [Font] = []
    private var opened: [FontFallback.Face: Int?] = [:]
    private let pixelSize: Int32
    /// The UI font's bytes, which its SDL_ttf font reads: held as long as it is open.
    private let primary: FontFile
    let lineHeight: Int32
    let ascent: Int32

    init(primary: FontFile, pixelSize: Int32) throws(SDLError) {
        guard let font = primary.open(pixelSize: pixelSize) else { throw SDLError("cannot open font '\(primary.path)'") }
        self.primary = primary
        self.pixelSize = pixelSize
        lineHeight = TTF_FontHeight(font)
        ascent = TTF_FontAscent(font)
        fonts.append(Font(handle: font, scale: 1, ascent: ascent))
    }

    deinit {
        for font in fonts { TTF_CloseFont(font.handle) }
    }

    func provides(_ index: Int, _ scalar: Unicode.Scalar) -> Bool {
        TTF_GlyphIsProvided32(fonts[index].handle, scalar.value) != 0
    }

    /// The index of `face`, opened on first use; nil if it cannot be opened (then the UI
    /// font draws its box, and the file is not tried again).
    func index(of face: FontFallback.Face) -> Int? {
        if let known = opened[face] { return known }
        // A bitmap font's "size" selects a strike; 0 is its only (or first) one.
        let size = face.scalable ? pixelSize : 0
        var result: Int?
        if let handle = TTF_OpenFontIndex(face.path, size, Int(face.index)) {
            let scale = face.scalable ? 1 : Double(lineHeight) / Double(max(1, TTF_FontHeight(handle)))
            fonts.append(Font(handle: handle, scale: scale, ascent: TTF_FontAscent(handle)))
            result = fonts.count - 1
        }
        opened[face] = result
        return result
    }
}
