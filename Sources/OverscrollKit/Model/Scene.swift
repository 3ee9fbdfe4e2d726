import Foundation

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

/// What to draw this frame, derived from the model; data only, so it is testable and the
/// SDL layer stays a plain painter.
public struct Scene: Sendable {
    public var width: Double
    public var height: Double
    /// y of row 0's top edge, in points (negative when scrolled into the content).
    public var contentTop: Double
    public var visibleRows: Range<Int>
    public var indicator: IndicatorScene?
    /// 0…1 white overlay over the whole window (the threshold flash).
    public var flash: Double
    public var banner: BannerScene?

    public init(model: OverscrollModel, flashEnabled: Bool = true) {
        let scroll = model.scroll
        let layout = model.configuration.layout
        width = model.viewportWidth
        height = scroll.viewportHeight
        contentTop = -scroll.offset
        visibleRows = layout.visibleRows(offset: scroll.offset, height: scroll.viewportHeight, count: model.rows.count)
        let age = model.now - model.lastFeedback
        let duration = model.configuration.flashDuration
        flash = flashEnabled && age >= 0 && age < duration ? 0.45 * (1 - age / duration) : 0
        indicator = Self.indicator(model)
        if let b = model.banner {
            let left = model.configuration.bannerDuration - (model.now - b.since)
            banner = BannerScene(message: b.message, opacity: min(1, max(0, left / 0.3)))
        }
    }

    static func indicator(_ model: OverscrollModel) -> IndicatorScene? {
        let c = model.refresh.configuration
        let pull = model.scroll.pull
        // Centred in the gap while the gap is small, then riding just above the content.
        let centerY = max(pull / 2, pull - c.indicatorExtent / 2)
        let radius = 14.0, thickness = 3.5
        switch model.refresh.state {
        case .idle, .pulling, .armed:
            guard pull >= c.minimumPull else { return nil }
            let arc = ArcShape.pulling(pull: pull, configuration: c, armed: model.refresh.state == .armed)
            return IndicatorScene(centerY: centerY, radius: radius, thickness: thickness, arc: arc, scale: 1)
        case .refreshing, .finishing:
            guard let origin = model.spinnerOrigin else { return nil }
            var scale = 1.0
            if case .finishing(_, let since) = model.refresh.state {
                scale = 1 - (model.now - since) / c.finishDuration
                guard scale > 0 else { return nil }
            }
            let arc = ArcShape.spinning(from: origin.arc, elapsed: model.now - origin.time)
            return IndicatorScene(centerY: centerY, radius: radius, thickness: thickness, arc: arc, scale: scale)
        }
    }
}
