import CSDL
import OverscrollKit

/// The demo's colours, in one place so tests can assert against them.
public enum Palette {
    public static let background = SDL_Color(r: 0x12, g: 0x14, b: 0x18, a: 0xFF)
    public static let gap = SDL_Color(r: 0x0B, g: 0x0D, b: 0x10, a: 0xFF)
    public static let rowEven = SDL_Color(r: 0x1B, g: 0x1E, b: 0x24, a: 0xFF)
    public static let rowOdd = SDL_Color(r: 0x20, g: 0x24, b: 0x2B, a: 0xFF)
    public static let separator = SDL_Color(r: 0x2C, g: 0x31, b: 0x39, a: 0xFF)
    public static let text = SDL_Color(r: 0xE8, g: 0xEA, b: 0xED, a: 0xFF)
    public static let accent = SDL_Color(r: 0x4F, g: 0xC3, b: 0xF7, a: 0xFF)
    public static let indicatorDisc = SDL_Color(r: 0x2A, g: 0x2F, b: 0x38, a: 0xFF)
    /// The disc's rim: 4.2:1 against the background, where the disc's fill is 1.4:1
    /// (WCAG 1.4.11 asks 3:1 of a component's edge).
    public static let indicatorRim = SDL_Color(r: 0x6E, g: 0x78, b: 0x86, a: 0xFF)
    public static let errorBanner = SDL_Color(r: 0xB3, g: 0x26, b: 0x1E, a: 0xFF)
    /// A row under a press, and the row a tap selected.
    public static let rowHighlighted = SDL_Color(r: 0x33, g: 0x3A, b: 0x45, a: 0xFF)
    public static let rowSelected = SDL_Color(r: 0x1E, g: 0x3A, b: 0x4C, a: 0xFF)
    /// The status line under the refresh arc, quieter than the rows' text.
    public static let statusText = SDL_Color(r: 0x9A, g: 0xA0, b: 0xA6, a: 0xFF)
    /// The scroll indicator, at full opacity (it is drawn translucent over the rows).
    public static let scrollBar = SDL_Color(r: 0xC8, g: 0xCC, b: 0xD2, a: 0xB0)
    public static let flash = SDL_Color(r: 0xFF, g: 0xFF, b: 0xFF, a: 0xFF)

    /// A row's background.
    public static func row(_ shade: RowShade) -> SDL_Color {
        switch shade {
        case .even: rowEven
        case .odd: rowOdd
        case .highlighted: rowHighlighted
        case .selected: rowSelected
        }
    }
}
