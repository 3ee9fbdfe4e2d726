import Testing
@testable import OverscrollKit

@Suite struct SceneDamageTests {
    func model() -> OverscrollModel {
        var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
        c.refreshTimeout = 10
        return OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0)" })
    }

    @Test func nothingOnScreenMeansEverything() {
        #expect(Scene(model: model()).damage(since: nil) == .full)
    }

    @Test func theSameSceneNeedsNothing() {
        let scene = Scene(model: model())
        #expect(scene.damage(since: scene) == .none)
    }

    @Test func aScrollRepaintsAllButLessThanAPixelRepaintsNothing() {
        let before = Scene(model: model())
        var moved = before
        for i in moved.rows.indices { moved.rows[i].y -= 0.3 }
        moved.contentTop -= 0.3
        moved.contentBottom -= 0.3
        // Row 0 at y 0 moves to -0.3: drawn from pixel -1 instead of 0.
        #expect(moved.damage(since: before, pixelScale: 1) == .full)
        var shifted = before
        for i in shifted.rows.indices { shifted.rows[i].y += 0.3 }
        shifted.contentTop += 0.3
        shifted.contentBottom += 0.3
        #expect(shifted.damage(since: before, pixelScale: 1) == .none)
        #expect(shifted.damage(since: before, pixelScale: 4) == .full)
    }

    @Test func overlaysAloneRepaintOnlyThemselves() {
        let before = Scene(model: model())
        var after = before
        after.banner = BannerScene(message: "refresh failed", opacity: 1)
        #expect(after.damage(since: before) == .overlays(.banner))
        after.indicator = IndicatorScene(centerY: 30, radius: 14, thickness: 3.5,
                                         arc: ArcShape(start: 0, sweep: 0.5, opacity: 1), scale: 1)
        #expect(after.damage(since: before) == .overlays([.banner, .indicator]))
        var fading = before
        fading.scrollBar = ScrollBarScene(x: 470, y: 10, width: 4, height: 80, opacity: 0.5)
        var faded = fading
        faded.scrollBar?.opacity = 0.25
        #expect(faded.damage(since: fading) == .overlays(.scrollBar))
        after.flash = 0.2
        #expect(after.damage(since: before) == .full)
    }

    /// The status line is centred on a whole pixel: one that moved less than that with the
    /// pull (the list settling) is the same picture; a pixel further, or new text, is not.
    @Test(arguments: [1.0, 2.0])
    func aStatusLineMovedByLessThanAPixelIsLeftAlone(scale: Double) {
        var before = Scene(model: model())
        before.status = StatusScene(text: "Refreshing…", centerY: 60.05, opacity: 1)
        var after = before
        after.status?.centerY += 0.2 / scale
        #expect(after.damage(since: before, pixelScale: scale) == .none)
        after.status?.centerY += 0.3 / scale        // half a pixel on: rounds to the next one
        #expect(after.damage(since: before, pixelScale: scale) == .full)
        after = before
        after.status?.text = "Updated 12:04"
        #expect(after.damage(since: before, pixelScale: scale) == .full)
    }

    /// The bar is drawn from its top and height rounded to pixels: one that moved or grew
    /// by less than a pixel (the list settling) is the same picture; a pixel, a change of
    /// opacity, or appearing at all is not.
    @Test(arguments: [1.0, 2.0])
    func aScrollBarMovedByLessThanAPixelIsLeftAlone(scale: Double) {
        var before = Scene(model: model())
        before.scrollBar = ScrollBarScene(x: 474, y: 10.1, width: 3, height: 80.05, opacity: 1)
        var after = before
        after.scrollBar?.y += 0.2 / scale
        after.scrollBar?.height -= 0.1 / scale
        #expect(after.damage(since: before, pixelScale: scale) == .none)
        after.scrollBar?.y += 0.3 / scale      // 10.6: the next pixel row
        #expect(after.damage(since: before, pixelScale: scale) == .overlays(.scrollBar))
        after = before
        after.scrollBar?.height += 0.5 / scale
        #expect(after.damage(since: before, pixelScale: scale) == .overlays(.scrollBar))
        after = before
        after.scrollBar?.opacity = 0.999
        #expect(after.damage(since: before, pixelScale: scale) == .overlays(.scrollBar))
        after.scrollBar = nil
        #expect(after.damage(since: before, pixelScale: scale) == .overlays(.scrollBar))
        #expect(before.damage(since: after, pixelScale: scale) == .overlays(.scrollBar))
    }
}
