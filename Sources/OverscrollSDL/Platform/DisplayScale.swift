import CSDL
import CXShm
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// Pixels per point, and where the number came from (the start-up line says both).
///
/// Layout is in points; a point is 1/96 inch, X11's and CSS's reference pixel, so a
/// 56 pt row is 14.8 mm tall at any density the display reports. A 1080x1920 panel of
/// 5.5" (about 400 dpi) drawn at one pixel per point would give 3.6 mm rows, under the
/// 7-9 mm a finger needs. The scale comes from the display's physical size where it reports
/// one, rounded to quarter steps (a whole number of pixels per four points keeps lines
/// crisp), never so small that a row is under 7 mm, within 0.5…4.
public struct DisplayScale: Sendable, Equatable {
    public var factor: Double
    /// Why this factor, for the start-up line: "--scale", "192 dpi from X11 RandR", ….
    public var origin: String

    public init(factor: Double, origin: String) {
        self.factor = factor
        self.origin = origin
    }

    public static let range = 0.5...4.0

    /// "2", "1.25": as people write it.
    public static func describe(_ factor: Double) -> String {
        factor == factor.rounded() ? String(Int(factor)) : String(factor)
    }
    /// The smallest row a finger hits reliably, in millimetres.
    static let smallestRow = 7.0

    /// The factor for a display of `dpi` pixels per inch: dpi/96 to the nearest quarter,
    /// raised (to the next quarter) if a row of `rowHeight` points would be under 7 mm.
    public static func factor(dpi: Double, rowHeight: Double = ListLayout().rowHeight) -> Double {
        let reference = (dpi / 96 * 4).rounded() / 4
        let finger = (smallestRow / 25.4 * dpi / rowHeight * 4).rounded(.up) / 4
        return min(range.upperBound, max(range.lowerBound, max(reference, finger)))
    }

    /// A reported density believed: some panels report nonsense (0, or their aspect ratio
    /// as centimetres: 16x9 mm), which would make rows tiny or huge.
    static func plausible(_ dpi: Double) -> Bool { dpi.isFinite && dpi >= 40 && dpi <= 1000 }

    /// The scale for display `index` as SDL (video started, no window yet) and the server
    /// report it, where the platform's row says (`Platform.Scale`): SDL's own DPI (X11 RandR
    /// output size, Wayland wl_output geometry, the KMSDRM connector's size), then on X11
    /// the screen's size in millimetres (which `Xvfb -dpi` sets while its RandR output says
    /// 0 mm). 1 when nothing is reported. `videoDriver`: SDL's name, for words only.
    static func measure(displayIndex: Int32, platform: Platform, videoDriver: String) -> DisplayScale {
        var diagonal: Float = 0, horizontal: Float = 0, vertical: Float = 0
        if SDL_GetDisplayDPI(displayIndex, &diagonal, &horizontal, &vertical) == 0 {
            // The denser direction, so a row is tall enough whichever way the panel is turned.
            let dpi = Double(max(horizontal, vertical))
            if plausible(dpi) {
                let source = platform.scale.sdlSource ?? videoDriver
                return DisplayScale(factor: factor(dpi: dpi), origin: "\(Int(dpi.rounded())) dpi from \(source)")
            }
        }
        if platform.scale.xScreenMillimetres, let dpi = X11ScreenDensity.dpi(), plausible(dpi) {
            return DisplayScale(factor: factor(dpi: dpi), origin: "\(Int(dpi.rounded())) dpi from the X screen's size in mm")
        }
        return DisplayScale(factor: 1, origin: "the display reports no physical size")
    }
}

/// The X screen's density from its size in pixels and millimetres, on a connection of
/// our own (SDL's is not reachable before a window exists).
private enum X11ScreenDensity {
    static func dpi() -> Double? {
        let dpi = ovs_x11_screen_dpi()
        return dpi > 0 ? dpi : nil
    }
}
