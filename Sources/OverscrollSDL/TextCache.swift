import CSDL

/// Rasterizes each distinct text once with SDL_ttf and keeps the texture, so a frame only
/// copies textures. Rows are keyed by their stable id; other labels by their string.
/// The font is opened at the pixel size for the current density and reopened when the
/// density changes (the cache is dropped then).
///
/// It holds the `Display` so the renderer outlives every texture made with it.
public final class TextCache {
    public struct Entry {
        public let texture: OpaquePointer
        /// Size in pixels.
        public let width: Int32
        public let height: Int32
    }

    private let display: Display
    private var renderer: OpaquePointer { display.renderer }
    private let fontPath: String
    private let pointSize: Double
    private var font: OpaquePointer?
    public private(set) var scale: Double = 0
    private var rows: [Int: Entry] = [:]
    private var labels: [String: Entry] = [:]
    /// Keep at most this many row textures; beyond it, rows far off screen are dropped.
    let rowLimit = 512

    public init(display: Display, fontPath: String, pointSize: Double, scale: Double) throws(SDLError) {
        self.display = display
        self.fontPath = fontPath
        self.pointSize = pointSize
        guard TTF_Init() == 0 else { throw SDLError("cannot start SDL_ttf") }
        do { try setScale(scale) } catch {
            TTF_Quit()
            throw error
        }
    }

    deinit {
        purge()
        if let font { TTF_CloseFont(font) }
        TTF_Quit()
    }

    public func setScale(_ newScale: Double) throws(SDLError) {
        guard newScale != scale else { return }
        purge()
        if let font { TTF_CloseFont(font) }
        let pixels = Int32((pointSize * newScale).rounded())
        guard let opened = TTF_OpenFont(fontPath, pixels) else { throw SDLError("cannot open font '\(fontPath)'") }
        font = opened
        scale = newScale
    }

    /// The texture for row `id`, rasterized on first use.
    public func row(_ id: Int, text: String) -> Entry? {
        if let hit = rows[id] { return hit }
        guard let entry = rasterize(text) else { return nil }
        if rows.count >= rowLimit { evictRows(keeping: id) }
        rows[id] = entry
        return entry
    }

    public func label(_ text: String) -> Entry? {
        if let hit = labels[text] { return hit }
        guard let entry = rasterize(text) else { return nil }
        if labels.count >= 32 { for e in labels.values { SDL_DestroyTexture(e.texture) }; labels.removeAll() }
        labels[text] = entry
        return entry
    }


    private func rasterize(_ text: String) -> Entry? {
        guard let font, !text.isEmpty else { return nil }
        guard let surface = TTF_RenderUTF8_Blended(font, text, SDL_Color(r: 255, g: 255, b: 255, a: 255)) else { return nil }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        return Entry(texture: texture, width: surface.pointee.w, height: surface.pointee.h)
    }

    private func evictRows(keeping id: Int) {
        // Ids grow as rows are inserted; drop the half furthest from the one in use.
        let sorted = rows.keys.sorted { abs($0 - id) > abs($1 - id) }
        for key in sorted.prefix(rows.count / 2) {
            if let e = rows.removeValue(forKey: key) { SDL_DestroyTexture(e.texture) }
        }
    }

    private func purge() {
        for e in rows.values { SDL_DestroyTexture(e.texture) }
        for e in labels.values { SDL_DestroyTexture(e.texture) }
        rows.removeAll()
        labels.removeAll()
    }
}
