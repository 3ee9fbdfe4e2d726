import CSDL
import Foundation
import OverscrollKit
import Testing
@testable import OverscrollSDL

/// A refreshing model whose list has come to rest at the held pull: only the spinner turns.
func spinningModel() -> OverscrollModel {
    var model = pullUntilCrossing()
    let t = model.now
    model.step([TimedInput(time: t, event: .pointerUp(PointerID(1)))], to: t)
    model.step([], to: t + 2)
    return model
}

extension SDLSuite { @Suite struct DamageRenderTests {
    @Test(arguments: [1.0, 2.0])
    func aTurningSpinnerRepaintsOnlyItsSquareAndLooksLikeAFullDraw(scale: Double) throws {
        let headless = try Headless(scale: scale)
        var model = spinningModel()
        #expect(model.refresh.state.name == "refreshing")
        let first = Scene(model: model)
        #expect(headless.painter.draw(first, since: nil).kind == .whole)
        model.step([], to: model.now + 0.1)
        let second = Scene(model: model)
        #expect(second.indicator != first.indicator && second.rows == first.rows)

        #expect(headless.painter.draw(second, since: first).kind == .rects)
        // Inside the window: SDL's X11 present shows the wrong rows for a rectangle above it.
        let window = (w: Int32(480 * scale), h: Int32(800 * scale))
        #expect(headless.painter.damage.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x + $0.w <= window.w && $0.y + $0.h <= window.h },
                "\(headless.painter.damage)")
        let repainted = headless.painter.damage.reduce(0) { $0 + Int($1.w) * Int($1.h) }
        #expect(repainted > 0 && Double(repainted) < 480 * 800 * scale * scale / 50, "\(headless.painter.damage)")
        let partial = headless.readPixels()
        headless.painter.draw(second)
        let whole = headless.readPixels()
        let differing = zip(partial.pixels, whole.pixels).filter { $0 != $1 }.count
        #expect(differing == 0)
    }

    /// A turning frame writes only the ring pixels the arc moved over, found by bisection on
    /// the ring sorted by angle. Whatever the arc does — wraps past 3 o'clock, grows,
    /// shrinks, vanishes, closes to a full turn, jumps or barely moves — each frame drawn
    /// on the last must be the picture drawn whole.
    @Test(arguments: [1.0, 2.0])
    func anArcTurnedAnyWayLooksLikeAFullDraw(scale: Double) throws {
        let headless = try Headless(scale: scale)
        let model = spinningModel()
        var scene = Scene(model: model)
        #expect(scene.indicator != nil)
        headless.painter.draw(scene)
        var arcs: [(start: Double, sweep: Double)] = [
            (0.95, 0.1), (0.99, 0.3), (-0.02, 0.3), (0.5, 0), (0.5, 0.8), (0.5000001, 0.8), (0.2, 1),
            (0.7, 0.999), (3.25, 0.4), (-1.6, 0.05), (0.25, 0.4), (0.26, 0.41),
        ]
        // Spread evenly over starts and sweeps (fractional parts of multiples of irrationals).
        for k in 1...24 {
            let u = (Double(k) * 0.6180339887).truncatingRemainder(dividingBy: 1)
            let v = (Double(k) * 0.4142135624).truncatingRemainder(dividingBy: 1)
            arcs.append((u * 4 - 2, v * 0.9))
        }
        var changed = 0
        for arc in arcs {
            let previous = scene
            scene.indicator?.arc.start = arc.start
            scene.indicator?.arc.sweep = arc.sweep
            let painted = headless.painter.draw(scene, since: previous)
            #expect(painted.kind == .rects || painted.kind == .nothing, "\(arc)")
            let repainted = headless.painter.damage.reduce(0) { $0 + Int($1.w) * Int($1.h) }
            #expect(Double(repainted) < 480 * 800 * scale * scale / 50, "\(arc): \(headless.painter.damage)")
            if painted.kind == .rects { changed += 1 }
            let partial = headless.readPixels()
            headless.painter.draw(scene)
            let whole = headless.readPixels()
            #expect(zip(partial.pixels, whole.pixels).filter { $0 != $1 }.count == 0, "\(arc)")
        }
        #expect(changed > arcs.count / 2)
    }

    /// The bar is drawn on whole pixel rows, so one that moved or shrank by less than a
    /// pixel as the list settles is the same picture, and the frame draws nothing.
    @Test(arguments: [1.0, 2.0])
    func aScrollBarMovedByLessThanAPixelDrawsNothing(scale: Double) throws {
        let headless = try Headless(scale: scale)
        var scene = Scene(model: spinningModel())
        scene.scrollBar = ScrollBarScene(x: 474, y: 300.1, width: 3, height: 80.05, opacity: 1)
        headless.painter.draw(scene)
        let before = headless.readPixels()
        var moved = scene
        moved.scrollBar?.y += 0.2 / scale
        moved.scrollBar?.height -= 0.1 / scale
        #expect(headless.painter.draw(moved, since: scene).kind == .nothing)
        headless.painter.draw(moved)
        let whole = headless.readPixels()
        #expect(zip(before.pixels, whole.pixels).filter { $0 != $1 }.isEmpty)
        // A whole pixel lower is another picture, repainted in the bar's rectangle only.
        var lower = moved
        lower.scrollBar?.y += 1 / scale
        #expect(headless.painter.draw(lower, since: moved).kind == .rects)
        #expect(zip(before.pixels, headless.readPixels().pixels).filter { $0 != $1 }.count > 0)
    }

    /// A pull goes through the same few status lines every time: each is composed once,
    /// and a line shown again is the same picture as before.
    @Test func aStatusLineShownAgainIsNotComposedAgain() throws {
        let headless = try Headless()
        let scene = Scene(model: spinningModel())
        let status = try #require(scene.status)
        headless.painter.draw(scene)
        let first = headless.readPixels()
        var other = scene
        other.status?.text = status.text + " again"
        let composed = headless.painter.imagesComposed
        headless.painter.draw(other)
        #expect(headless.painter.imagesComposed == composed + 1)
        #expect(headless.readPixels().pixels != first.pixels)
        headless.painter.draw(scene)
        #expect(headless.painter.imagesComposed == composed + 1)
        #expect(headless.readPixels().pixels == first.pixels)
    }

    /// The status line under the spinner is centred on a whole pixel, like the spinner: a
    /// line moved by less than that is the same picture, and only the spinner is drawn.
    @Test(arguments: [1.0, 2.0])
    func aStatusLineMovedByLessThanAPixelIsTheSamePicture(scale: Double) throws {
        let headless = try Headless(scale: scale)
        let scene = Scene(model: spinningModel())
        let status = try #require(scene.status)
        headless.painter.draw(scene)
        let before = headless.readPixels()
        var moved = scene
        let centre = status.centerY * scale
        moved.status?.centerY += (centre - centre.rounded() >= 0 ? -0.2 : 0.2) / scale
        #expect(headless.painter.draw(moved, since: scene).kind == .nothing)
        headless.painter.draw(moved)
        #expect(zip(before.pixels, headless.readPixels().pixels).filter { $0 != $1 }.isEmpty)
        var lower = scene
        lower.status?.centerY += 1 / scale
        #expect(headless.painter.draw(lower, since: scene).kind == .whole || headless.painter.damage.count > 0)
        #expect(zip(before.pixels, headless.readPixels().pixels).filter { $0 != $1 }.count > 0)
    }


    /// pixel; it is drawn on a whole pixel, so such a frame only turns the spinner.
    @Test(arguments: [1.0, 2.0])
    func aSpinnerMovedByAFractionOfAPixelOnlyTurns(scale: Double) throws {
        let headless = try Headless(scale: scale)
        var model = spinningModel()
        let first = Scene(model: model)
        model.step([], to: model.now + 0.1)
        let turned = Scene(model: model)
        var moved = turned
        let centre = try #require(first.indicator).centerY * scale
        // A fifth of a pixel towards the nearest whole pixel: the same pixel either way.
        moved.indicator?.centerY += (centre - centre.rounded() >= 0 ? -0.2 : 0.2) / scale
        #expect(moved.indicator?.centerY != first.indicator?.centerY && moved.rows == first.rows)

        headless.painter.draw(turned)
        let unmoved = headless.readPixels()
        headless.painter.draw(first)
        #expect(headless.painter.draw(moved, since: first).kind == .rects)
        let repainted = headless.painter.damage.reduce(0) { $0 + Int($1.w) * Int($1.h) }
        #expect(repainted > 0 && Double(repainted) < 480 * 800 * scale * scale / 50, "\(headless.painter.damage)")
        // The same pixels as the spinner turned in place, drawn in part or whole.
        let partial = headless.readPixels()
        headless.painter.draw(moved)
        let whole = headless.readPixels()
        #expect(zip(partial.pixels, whole.pixels).filter { $0 != $1 }.isEmpty)
        #expect(zip(unmoved.pixels, whole.pixels).filter { $0 != $1 }.isEmpty)
    }

    /// A row's shade can change (a highlight, a selection, new content); a row keeps its
    /// image for each shade, so changing back composes nothing.
    @Test func aRowIsComposedOncePerShade() throws {
        let headless = try Headless()
        let scene = Scene(model: pulledModel(fingerTravel: 0))
        headless.painter.draw(scene)
        let original = headless.readPixels()
        let composed = headless.painter.imagesComposed
        var flipped = scene
        for i in flipped.rows.indices { flipped.rows[i].stripe = 1 - flipped.rows[i].stripe }
        headless.painter.draw(flipped)
        #expect(headless.painter.imagesComposed > composed)
        let both = headless.painter.imagesComposed
        _ = headless.painter.draw(scene, since: flipped)
        #expect(headless.painter.imagesComposed == both)
        #expect(headless.readPixels().pixels == original.pixels)
    }

    @Test func anUnchangedSceneDrawsNothingAndAScrollPresentsTheRowsThatMoved() throws {
        let headless = try Headless()
        var model = pulledModel(fingerTravel: 0)
        model.step([TimedInput(time: 1, event: .pointerUp(PointerID(1)))], to: 1)
        let still = Scene(model: model)
        #expect(headless.painter.draw(still, since: nil).kind == .whole)
        #expect(headless.painter.draw(still, since: still).kind == .nothing)
        model.step([TimedInput(time: 1.1, event: .wheel(dy: 28))], to: 1.1)
        let scrolled = headless.painter.draw(Scene(model: model), since: still)
        // Every row moved: from the first row's text to the last's, the window is presented.
        let band = headless.painter.damage.first.map { ($0.y, $0.y + $0.h) } ?? (0, 800)
        #expect(scrolled.kind != .nothing && band.0 <= 20 && band.1 >= 780, "\(scrolled.kind) \(headless.painter.damage)")
    }

    @Test func aTapHighlightPresentsOnlyItsRow() throws {
        let headless = try Headless()
        var model = pulledModel(fingerTravel: 0)
        model.step([TimedInput(time: 1, event: .pointerUp(PointerID(1)))], to: 1)
        model.step([], to: 3)
        let still = Scene(model: model)
        #expect(headless.painter.draw(still, since: nil).kind == .whole)
        model.step([TimedInput(time: 3, event: .pointerDown(PointerID(2), x: 100, y: 130))], to: 3.2)
        let pressed = Scene(model: model)
        #expect(pressed.rows.contains { $0.emphasis == .highlighted })
        // The row (48 points) and what else changed with the press, not the window.
        #expect(headless.painter.draw(pressed, since: still).kind == .rects)
        let area = try #require(headless.painter.damage.first)
        #expect(headless.painter.damage.count == 1 && area.h < 100 && area.y <= 130 && area.y + area.h >= 130, "\(area)")
    }
}
}
