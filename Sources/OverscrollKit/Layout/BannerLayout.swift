/// A banner's message broken into lines that fit, and their height in pixels: worked out
/// by the side that rasterizes text (`FrameLayout.update(_:scale:wrap:)`).
public struct BannerText: Sendable, Equatable {
    public var lines: [String]
    public var lineHeight: Int32

    public init(lines: [String], lineHeight: Int32) {
        self.lines = lines
        self.lineHeight = lineHeight
    }
}

/// The room the banner takes above the first row, in points: a margin, its box (padding,
/// lines, padding), a margin. The model holds the list open by it while the banner shows.
public enum BannerRoom {
    public static func points(lines: Int, lineHeight: Double = BannerLayout.lineHeight) -> Double {
        2 * BannerLayout.margin + 2 * BannerLayout.padding + Double(max(1, lines)) * lineHeight
    }
    /// Before the drawing side has measured the message.
    public static let twoLines = points(lines: 2)
}

/// The refresh-failed banner near the top: an opaque box with rounded corners, inset from
/// the window's edges, as tall as its lines (two or three in a narrow window), each line
/// centred in it. All in whole pixels, so every backend fills the same ones.
public struct BannerLayout: Sendable, Equatable {
    public static let margin = 12.0, padding = 10.0, cornerRadius = 10.0
    /// The line height `FrameLayout.update(_:scale:)` assumes without a rasterizer.
    public static let lineHeight = 20.0
    /// A longer message ends its last line with "…".
    public static let maxLines = 3

    public private(set) var message = ""
    public private(set) var lines: [String] = []
    public private(set) var lineHeight: Int32 = 0
    /// The box and its text at this opacity: 1 (opaque) until it fades out.
    public private(set) var opacity = 0.0
    public private(set) var box = PixelRect(x: 0, y: 0, w: 0, h: 0)
    /// The box as fills that do not overlap: its middle, then its rounded ends one pixel
    /// row at a time.
    public private(set) var fills: [FillRect] = []
    /// How wide a line may be, in pixels.
    public private(set) var textWidth = 0.0
    private var padding: Int32 = 0
    private var exactWidth = 0.0

    init() { fills.reserveCapacity(48) }

    mutating func update(_ banner: BannerScene, scale s: Double, exactWidth: Double,
                         wrap: (String, Double, Double) -> BannerText) {
        let margin = Int32((Self.margin * s).rounded())
        scale = s
        padding = Int32((Self.padding * s).rounded())
        self.exactWidth = exactWidth
        let width = Int32(exactWidth.rounded()) - 2 * margin
        textWidth = Double(width - 2 * padding)
        message = banner.message
        opacity = banner.opacity
        let text = wrap(banner.message, textWidth, s)
        lines = text.lines
        lineHeight = text.lineHeight
        box = PixelRect(x: margin, y: margin, w: width, h: 2 * padding + Int32(max(1, lines.count)) * lineHeight)
        let r = min(Int32((Self.cornerRadius * s).rounded()), box.h / 2)
        fills.removeAll(keepingCapacity: true)
        fills.append(FillRect(x: Double(box.x), y: Double(box.y + r), w: Double(box.w), h: Double(box.h - 2 * r)))
        for i in 0..<r {
            let d = Double(r) - (Double(i) + 0.5)            // from the corner's centre to this row's middle
            let inset = Int32((Double(r) - (Double(r * r) - d * d).squareRoot()).rounded())
            let w = Double(box.w - 2 * inset), x = Double(box.x + inset)
            fills.append(FillRect(x: x, y: Double(box.y + i), w: w, h: 1))
            fills.append(FillRect(x: x, y: Double(box.y + box.h - 1 - i), w: w, h: 1))
        }
    }

    /// The room it takes above the first row, in points (`BannerRoom`): its box's bottom
    /// and a margin below it.
    public var room: Double { (Double(box.y + box.h) + Self.margin * scale) / scale }
    private var scale = 1.0

    /// Where line `index`, `labelWidth` pixels wide, goes: centred on the window, but not
    /// closer to the box's edge than its padding.
    public func lineOrigin(_ index: Int, labelWidth: Int32) -> (x: Int32, y: Int32) {
        let centred = Int32(((exactWidth - Double(labelWidth)) / 2).rounded())
        return (max(box.x + padding, centred), box.y + padding + Int32(index) * lineHeight)
    }
}
