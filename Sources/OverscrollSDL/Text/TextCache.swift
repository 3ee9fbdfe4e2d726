import CSDL

/// Rasterizes each distinct text once and keeps the texture, so a frame only copies
/// textures. Rows are keyed by their stable id; other labels by their string. Text in any
/// script: fallback fonts, shaping and right-to-left order come from the `Text/` layer,
/// and nothing is drawn wider than the window (`fit(width:)`), so a row of any length
/// costs what a screen-wide row costs. A row that cannot be drawn is remembered as such,
/// not retried every frame.
/// The fonts are opened at the pixel size for the current density and reopened when the
/// density changes (the cache is dropped then).
///
/// It holds the `Display` so the renderer outlives every texture made with it.
public final class TextCache {
    public struct Entry {
        /// For the renderer: a label's always, a row's on the GPU path only.
        public let texture: OpaquePointer?
        /// The line itself (ARGB8888, non-premultiplied) on the CPU path, where rows and the
        /// status line are composed onto their backgrounds without the renderer.
        public let surface: UnsafeMutablePointer<SDL_Surface>?
        /// Size in pixels.
        public let width: Int32
        public let height: Int32
        /// Right for a row whose first strong character is right-to-left.
        public let alignment: TextAlignment
    }

    private let display: Display
    private var renderer: OpaquePointer { display.renderer }
    private let font: FontFile
    private let pointSize: Double
    /// Answers about installed fonts outlive a density change; opened fonts do not.
    private let fallback = FontFallback()
    private var faces: FontFaces?
    private var rasterizer: LineRasterizer?
    public private(set) var scale: Double = 0
    /// Widest text drawn, in pixels; the window's width until told otherwise.
    public private(set) var maxWidth: Int
    /// Rows are drawn in this colour (they may hold colour emoji, so they are not tinted
    /// when copied); labels are white, tinted by the painter.
    public let rowColor: SDL_Color
    private var rows: [Int: Entry?] = [:]
    /// Labels with the frame count they were last asked for: the HUD's words change twice a
    /// second, and evicting the least recently used keeps the status line's and the banner's
    /// textures (asked for every frame) instead of rasterizing them again.
    private var labels: [String: (entry: Entry?, used: UInt64)] = [:]
    private var labelUses: UInt64 = 0
    let labelLimit = 32
    /// Keep at most this many row textures; beyond it, rows far off screen are dropped.
    let rowLimit = 512
    /// How many rasterizations were attempted, to show a failed one is not retried.
    private(set) var rasterizations = 0

    public init(display: Display, font: FontFile, pointSize: Double, scale: Double,
                rowColor: SDL_Color = Palette.text) throws(SDLError) {
        self.display = display
        self.font = font
        self.pointSize = pointSize
        self.rowColor = rowColor
        maxWidth = max(1, display.sizeInPixels.width)
        guard TTF_Init() == 0 else { throw SDLError("cannot start SDL_ttf") }
        do { try setScale(scale) } catch {
            TTF_Quit()
            throw error
        }
    }

    deinit {
        purge()
        rasterizer = nil
        faces = nil
        TTF_Quit()
    }

    public func setScale(_ newScale: Double) throws(SDLError) {
        guard newScale != scale else { return }
        purge()
        rasterizer = nil
        faces = nil
        let pixels = Int32((pointSize * newScale).rounded())
        let opened = try FontFaces(primary: font, pixelSize: pixels)
        faces = opened
        rasterizer = LineRasterizer(faces: opened, fallback: fallback)
        scale = newScale
    }

    /// Text is cut (with "…") to `width` pixels; a new width redraws what is cached.
    public func fit(width: Int) {
        let width = max(1, width)
        guard width != maxWidth else { return }
        purge()
        maxWidth = width
    }

    /// Drops every texture: for when row ids start again (new content).
    public func forget() { purge() }

    /// The texture for row `id`, rasterized on first use; nil (also remembered) if the row
    /// has nothing to draw or could not be drawn.
    public func row(_ id: Int, text: String) -> Entry? {
        if let hit = rows[id] { return hit }
        let cpu = display.path == .cpu
        let entry = rasterize(text, color: rowColor, padding: rowPadding, texture: !cpu, surface: cpu)
        if rows.count >= rowLimit { evictRows(keeping: id) }
        rows[id] = entry
        return entry
    }

    public func label(_ text: String) -> Entry? {
        labelUses &+= 1
        if let hit = labels[text] {
            labels[text]?.used = labelUses
            return hit.entry
        }
        let entry = rasterize(text, color: SDL_Color(r: 255, g: 255, b: 255, a: 255), padding: 0,
                              texture: true, surface: display.path == .cpu)
        if labels.count >= labelLimit, let oldest = labels.min(by: { $0.value.used < $1.value.used }) {
            if let e = oldest.value.entry { Self.free(e) }
            labels.removeValue(forKey: oldest.key)
        }
        labels[text] = (entry, labelUses)
        return entry
    }

    /// `text` drawn in `color` into a surface at most `maxWidth` pixels wide, with its
    /// alignment; the caller frees the surface. For painters that compose rows themselves.
    public func render(_ text: String, maxWidth: Int, color: SDL_Color) -> RenderedLine? {
        rasterizer?.render(text, maxWidth: maxWidth, color: color, padding: rowPadding)
    }

    /// Room above and below a row's line for the tall marks of Devanagari, Thai or Arabic;
    /// every row gets the same, so centred rows share one baseline.
    private var rowPadding: Int32 { (faces?.lineHeight ?? 0) / 4 }

    /// `text` rasterized, kept as a texture, as the line's own surface, or both.
    private func rasterize(_ text: String, color: SDL_Color, padding: Int32, texture wantsTexture: Bool,
                           surface keepsSurface: Bool) -> Entry? {
        rasterizations += 1
        guard let rasterizer, !text.isEmpty,
              let line = rasterizer.render(text, maxWidth: maxWidth, color: color, padding: padding) else { return nil }
        var texture: OpaquePointer?
        if wantsTexture {
            texture = SDL_CreateTextureFromSurface(renderer, line.surface)
            guard let texture else {
                SDL_FreeSurface(line.surface)
                return nil
            }
            SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        }
        if !keepsSurface { SDL_FreeSurface(line.surface) }
        return Entry(texture: texture, surface: keepsSurface ? line.surface : nil, width: line.width, height: line.height,
                     alignment: line.alignment)
    }

    private static func free(_ entry: Entry) {
        if let texture = entry.texture { SDL_DestroyTexture(texture) }
        if let surface = entry.surface { SDL_FreeSurface(surface) }
    }

    private func evictRows(keeping id: Int) {
        // Ids grow as rows are inserted; drop the half furthest from the one in use.
        let sorted = rows.keys.sorted { abs($0 - id) > abs($1 - id) }
        for key in sorted.prefix(rows.count / 2) {
            if let e = rows.removeValue(forKey: key) ?? nil { Self.free(e) }
        }
    }

    private func purge() {
        for case let e? in rows.values { Self.free(e) }
        for case let e? in labels.values.map(\.entry) { Self.free(e) }
        rows.removeAll()
        labels.removeAll()
    }
}
