import Glibc

/// Everything the drawing code needs about the indicator this frame, in points.
public struct IndicatorScene: Sendable, Equatable {
    public var centerY: Double
    public var radius: Double
    public var thickness: Double
    public var arc: ArcShape
    /// 1 normally; shrinks to 0 as the refresh finishes.
    public var scale: Double
}

/// A banner (the refresh error) near the top.
public struct BannerScene: Sendable, Equatable {
    public var message: String
    public var opacity: Double
}

/// The scroll indicator: a thin rounded bar at the right edge, in points.
public struct ScrollBarScene: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var opacity: Double

    public init(x: Double, y: Double, width: Double, height: Double, opacity: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height; self.opacity = opacity
    }
}

/// The status line under the refresh arc ("Release to refresh"), centred at `centerY`.
/// It is drawn behind the rows, so the list covers it until the gap is open enough.
public struct StatusScene: Sendable, Equatable {
    public var text: String
    public var centerY: Double
    public var opacity: Double
}

/// How a row stands out: held by a press, or chosen by a tap.
public enum RowEmphasis: Sendable, Equatable {
    case none, highlighted, selected
}

/// One list row as drawn: its stable id (text is rasterized once per id), its text, and
/// the y of its top edge in points.
public struct SceneRow: Sendable, Equatable {
    public var id: Int
    public var text: String
    public var y: Double
    /// 0 for the first row of the list.
    public var index: Int
    public var emphasis: RowEmphasis = .none
    /// Which of the two zebra shades the row has, 0 or 1: neighbours differ, and a row
    /// keeps its shade when rows are inserted above it.
    public var stripe = 0
}

/// The frame-time graph, when it is shown: the last seconds of frames and the budget.
public struct HUDScene: Sendable, Equatable {
    public var samples: [FrameProfiler.HUDSample] = []
    /// How many samples the graph spans when full.
    public var capacity = 0
    public var refreshPeriod = 1.0 / 60
    public var jankyFrames = 0
    /// Whether the loop sleeps after this frame (nothing moves): the HUD says "idle".
    public var idle = false
    /// When the frame is, in seconds (the HUD's words change at most twice a second).
    public var time = 0.0
    /// Whether the path hears when frames reach the screen (`FrameProfiler.hearsScanout`):
    /// otherwise touch-to-scanout is "not known", never guessed.
    public var scanoutKnown = false

    public init() {}
}

/// What to draw this frame: the whole picture as data, so it is testable, can be compared
/// with the last frame's, and the SDL layer stays a plain painter that sees nothing else.
/// Built once and updated in place each frame (`update`), so a frame allocates nothing.
public struct Scene: Sendable, Equatable {
    public var width: Double = 0
    public var height: Double = 0
    public var rowHeight: Double = 0
    public var textInset: Double = 0
    /// y of row 0's top edge, in points (negative when scrolled into the content).
    public var contentTop: Double = 0
    /// y where the list's rows end (its background continues below).
    public var contentBottom: Double = 0
    /// The rows that intersect the window, top to bottom, and those within `rowMargin`
    /// of its top or bottom edge.
    public var rows: [SceneRow] = []
    /// How far beyond the window's top and bottom edges rows are in `rows` too, in points
    /// (0: the window's rows only). A display that writes rows before they show sets it:
    /// a turned screen's buffer takes 16 rows at a time (its memory's cache line), and the
    /// rows beyond the edge it writes with them are the ones about to scroll in.
    public var rowMargin: Double = 0
    public var indicator: IndicatorScene?
    /// The line under the arc; nil when there is none or it is turned off.
    public var status: StatusScene?
    /// The scroll indicator; nil while hidden.
    public var scrollBar: ScrollBarScene?
    /// 0…1 white overlay over the whole window (the threshold flash).
    public var flash: Double = 0
    public var banner: BannerScene?
    /// The frame-time graph; nil when hidden.
    public var hud: HUDScene?

    public init() { rows.reserveCapacity(64) }

    /// The scene for `model` as it is now, without the HUD.
    public init(model: OverscrollModel) {
        self.init()
        update(model: model)
    }

    /// Rebuilds the scene from `model`, reusing its storage. The HUD is set apart
    /// (`showHUD`/`hideHUD`): it shows the profiler, which is not the model.
    public mutating func update(model: OverscrollModel) {
        let scroll = model.scroll
        let layout = model.configuration.layout
        width = model.viewportWidth
        height = scroll.viewportHeight
        rowHeight = layout.rowHeight
        textInset = layout.textInset
        contentTop = -scroll.offset
        contentBottom = contentTop + layout.contentHeight(rows: model.rows.count)
        rows.removeAll(keepingCapacity: true)
        let margin = max(0, rowMargin)
        let visible = layout.visibleRows(offset: scroll.offset - margin, height: scroll.viewportHeight + 2 * margin,
                                         count: model.rows.count)
        let highlighted = model.highlightedRow
        for index in visible {
            let row = model.rows[index]
            // A held press shows over the selection: it is what the finger is doing now.
            let emphasis: RowEmphasis = index == highlighted ? .highlighted : index == model.selectedRow ? .selected : .none
            rows.append(SceneRow(id: row.id, text: row.text, y: contentTop + Double(index) * layout.rowHeight,
                                 index: index, emphasis: emphasis, stripe: (index + model.firstStripe) % 2))
        }
        let age = model.now - model.lastFlash
        let duration = model.configuration.flashDuration
        // `flashes` too, not only `lastFlash`: a reload that turns the flash off ends one
        // already fading.
        flash = model.configuration.flashes && age >= 0 && age < duration ? Self.flashPeak * (1 - age / duration) : 0
        indicator = Self.indicator(model)
        status = Self.status(model)
        scrollBar = Self.scrollBar(model)
        banner = nil
        // Never over the spinner's disc: the banner waits for it to scale out, and a new
        // pull (which the banner asks for) puts it away.
        if let b = model.banner, indicator == nil {
            let left = model.configuration.bannerDuration - (model.now - b.since)
            banner = BannerScene(message: b.message, opacity: min(1, max(0, left / 0.3)))
        }
    }

    /// The flash's white at its start. A flash is feedback, not an alarm: WCAG 2.3.1 counts
    /// a change of relative luminance of 10 % or more (the darker state under 0.80) as a
    /// general flash. White blended at α over a channel value c changes a grey pixel's
    /// relative luminance most near c = 133 of 255; at α = 0.16 that change is 0.082, at
    /// any colour (FlashLuminanceTests measures it on the drawn frames).
    public static let flashPeak = 0.16

    /// Shows the frame-time graph with the profiler's latest samples (copied into storage
    /// the scene keeps, so this allocates nothing once the graph has been shown).
    public mutating func showHUD(_ profiler: FrameProfiler, idle: Bool = false, at time: Double = 0) {
        var graph = hud ?? HUDScene()
        hud = nil    // keep `graph.samples` uniquely referenced while it is refilled
        profiler.copyHUDSamples(into: &graph.samples)
        graph.capacity = profiler.hudCapacity
        graph.refreshPeriod = profiler.refreshPeriod
        graph.jankyFrames = profiler.overall.jankyFrames
        graph.scanoutKnown = profiler.hearsScanout
        graph.idle = idle
        graph.time = time
        hud = graph
    }

    public mutating func hideHUD() { hud = nil }

    /// The header a pull uncovers, top to bottom, in points: `margin` clear, the disc
    /// (the arc's radius plus `IndicatorLayout.discMargin` around it), `margin`, the status
    /// line, `margin`, then the first row. `RefreshController.Configuration.restingExtent`
    /// is its height, so at rest while refreshing every part has room.
    enum Header {
        static let margin = 8.0
        static let arcRadius = 14.0, arcThickness = 3.5
        /// Armed, and while the spinner turns: bolder, so arming shows at a glance.
        static let armedArcThickness = 5.0
        static let discRadius = arcRadius + IndicatorLayout.discMargin
        /// Height of the status line under the arc.
        static let statusLineHeight = 20.0
        /// The arc's centre below the header's top, and the status line's below the arc's.
        static let arcCenter = margin + discRadius
        static let statusBelowArc = discRadius + margin + statusLineHeight / 2
        static let height = arcCenter + statusBelowArc + statusLineHeight / 2 + margin
    }

    /// Where the arc's centre is for `pull`: moving down with the opening at the rate that
    /// puts it at its place in the header when the list is `Header.height` open, then
    /// riding that far above the content. Without a status line, centred in the resting gap.
    static func arcCenterY(_ model: OverscrollModel) -> Double {
        let c = model.refresh.configuration
        let pull = model.scroll.pull
        guard model.configuration.showsStatusText else { return max(pull / 2, pull - c.indicatorExtent / 2) }
        return max(pull * Header.arcCenter / Header.height, pull - Header.height + Header.arcCenter)
    }

    static func indicator(_ model: OverscrollModel) -> IndicatorScene? {
        let c = model.refresh.configuration
        let pull = model.scroll.pull
        let centerY = arcCenterY(model)
        let radius = Header.arcRadius, thickness = Header.arcThickness
        // The disc grows in from the window's top edge rather than being cut by it: at any
        // pull it is scaled to fit between the edge and its centre (a pixel to spare).
        let fits = min(1, max(0, (centerY - 1) / (Header.discRadius + 1)))
        switch model.refresh.state {
        case .idle, .pulling, .armed:
            // Held open for the banner is not a pull: no arc under it (a touch puts the
            // banner away, and the pull then shows).
            guard pull >= c.minimumPull, fits > 0, !(model.banner != nil && model.refresh.state == .idle) else { return nil }
            let armed = model.refresh.state == .armed
            let arc = ArcShape.pulling(pull: pull, configuration: c, armed: armed)
            return IndicatorScene(centerY: centerY, radius: radius, thickness: armed ? Header.armedArcThickness : thickness,
                                  arc: arc, scale: fits)
        case .refreshing, .finishing:
            guard let origin = model.spinnerOrigin else { return nil }
            var scale = fits
            if case .finishing(_, let since) = model.refresh.state {
                scale = min(scale, 1 - (model.now - since) / c.finishDuration)
            }
            guard scale > 0 else { return nil }
            let arc = ArcShape.spinning(from: origin.arc, elapsed: model.now - origin.time)
            return IndicatorScene(centerY: centerY, radius: radius, thickness: Header.armedArcThickness, arc: arc, scale: scale)
        }
    }

    /// The status line sits under the arc, behind the rows. It is never cut by the list's
    /// edge: it shows only once the whole line fits above the list, fading in over the
    /// last `Header.margin` of room, so at rest while refreshing it is fully there. It is
    /// not shown while the list collapses after a refresh: "Updated 12:04" would be on
    /// screen for a fraction of a second, half cut; the next pull says how fresh the rows are.
    static func status(_ model: OverscrollModel) -> StatusScene? {
        let c = model.refresh.configuration
        guard model.configuration.showsStatusText, model.scroll.pull >= c.minimumPull,
              !(model.banner != nil && model.refresh.state == .idle),
              let text = model.status.line(for: model.refresh.state) else { return nil }
        let centerY = arcCenterY(model) + Header.statusBelowArc
        let room = model.scroll.pull - (centerY + Header.statusLineHeight / 2)
        guard room > 0 else { return nil }
        return StatusScene(text: text, centerY: centerY, opacity: min(1, room / Header.margin))
    }

    static func scrollBar(_ model: OverscrollModel) -> ScrollBarScene? {
        let opacity = model.scrollBarOpacity
        guard opacity > 0 else { return nil }
        let scroll = model.scroll
        guard let bar = ScrollBarGeometry().frame(offset: scroll.offset, viewportWidth: model.viewportWidth,
                                                  viewportHeight: scroll.viewportHeight,
                                                  contentHeight: scroll.contentHeight) else { return nil }
        return ScrollBarScene(x: bar.x, y: bar.y, width: bar.width, height: bar.height, opacity: opacity)
    }
}
