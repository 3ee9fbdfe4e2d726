import CSDL
import OverscrollKit

/// The banner's message broken into lines that fit its box (`LineBreaker`), measured with
/// the text the backends draw: worked out when the message, the width or the density is
/// new, then handed back as kept, so a frame with the banner allocates nothing.
final class BannerLines {
    private let text: TextCache
    private var last: (message: String, width: Double, scale: Double, text: BannerText)?

    init(text: TextCache) { self.text = text }

    func wrap(_ message: String, width: Double, scale: Double) -> BannerText {
        if let last, last.message == message, last.width == width, last.scale == scale { return last.text }
        // Measured whole, not as a label: labels are cut at the rows' width, so a cut
        // candidate could pass for one that fits.
        let lines = LineBreaker.lines(of: message, width: width, maxLines: BannerLayout.maxLines) { candidate in
            guard let line = text.render(candidate, maxWidth: 1 << 15, color: Palette.flash) else { return .infinity }
            defer { SDL_FreeSurface(line.surface) }
            return Double(line.width)
        }
        let height = lines.first.flatMap { text.label($0)?.height } ?? Int32((BannerLayout.lineHeight * scale).rounded())
        let result = BannerText(lines: lines, lineHeight: height)
        last = (message, width, scale, result)
        return result
    }
}
