import Testing
@testable import OverscrollKit

/// The header a pull uncovers, frame by frame through the model: the status line is never
/// cut by the list's edge, and nothing flickers past during the collapse.
@Suite struct HeaderLayoutTests {
    /// A 480x800 pt list pulled by a finger moving `travel` pt over `frames` frames at 60 Hz,
    /// each frame's scene handed to `look`.
    func pull(travel: Double, frames: Int, look: (OverscrollModel, Scene) -> Void) -> OverscrollModel {
        var model = OverscrollModel(configuration: .init(viewportWidth: 480, viewportHeight: 800),
                                    rows: (0..<100).map { "Row \($0)" })
        let finger = PointerID(1)
        model.step([TimedInput(time: 0, event: .pointerDown(finger, x: 240, y: 100))], to: 0)
        for i in 1...frames {
            let t = Double(i) / 60
            model.step([TimedInput(time: t, event: .pointerMove(finger, x: 240, y: 100 + travel * Double(i) / Double(frames)))], to: t)
            look(model, Scene(model: model))
        }
        return model
    }

    @Test func theStatusLineIsWhollyAboveTheListOrNotShownAtAnyPull() {
        var shown = 0, pulls: [Double] = []
        _ = pull(travel: 700, frames: 120) { model, scene in
            pulls.append(model.scroll.pull)
            guard let status = scene.status else { return }
            shown += 1
            // The line's box ends above the list's edge: nothing of it is cut.
            #expect(status.centerY + Scene.Header.statusLineHeight / 2 <= model.scroll.pull + 1e-9,
                    "pull \(model.scroll.pull): line ends at \(status.centerY + 10)")
            // And it is below the disc with room between them.
            if let disc = scene.indicator {
                #expect(status.centerY - 10 - (disc.centerY + Scene.Header.discRadius) >= 8 - 1e-9)
            }
        }
        // Not vacuous: the pull went from nothing to well past the threshold, the line showed.
        #expect(pulls.min()! < 20 && pulls.max()! > 150 && shown > 30)
    }

    @Test func atRestWhileRefreshingEveryPartHasEightPointsOfRoom() throws {
        var model = pull(travel: 600, frames: 60) { _, _ in }
        let t = model.now
        model.step([TimedInput(time: t, event: .pointerUp(PointerID(1)))], to: t)
        model.step([], to: t + 2)
        #expect(model.refresh.isRefreshing && model.scroll.isAtRest)
        let scene = Scene(model: model)
        let disc = try #require(scene.indicator), status = try #require(scene.status)
        let discRadius = (disc.radius + IndicatorLayout.discMargin) * disc.scale
        #expect(disc.centerY - discRadius >= 8)
        #expect(status.centerY - 10 - (disc.centerY + discRadius) >= 8)
        #expect(scene.contentTop - (status.centerY + 10) >= 8)
        #expect(status.opacity == 1 && status.text == "Refreshing…")
        #expect(scene.contentTop == RefreshController.Configuration.restingExtent)
    }

    @Test func nothingIsSaidWhileTheListCollapsesAfterARefresh() throws {
        var model = pull(travel: 600, frames: 60) { _, _ in }
        var t = model.now
        model.step([TimedInput(time: t, event: .pointerUp(PointerID(1)))], to: t)
        let request = try #require(model.refreshRequest)
        t += 1
        model.step([TimedInput(time: t, event: .refreshCompleted(generation: request.generation, result: .success(["New"])))], to: t)
        var collapsing = 0
        while model.refresh.state != .idle || !model.scroll.isAtRest {
            t += 1.0 / 60
            model.step([], to: t)
            if model.scroll.pull > 1 { collapsing += 1 }
            #expect(Scene(model: model).status == nil, "at \(t): \(Scene(model: model).status?.text ?? "")")
        }
        #expect(collapsing > 5)
    }
}
