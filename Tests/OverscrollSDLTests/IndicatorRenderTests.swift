import CSDL
import Foundation
import OverscrollKit
import Testing
@testable import OverscrollSDL

/// A model pulled with finger moves one frame apart, stopped at the frame where the
/// threshold is crossed (feedback), or after `travel` points.
func pullUntilCrossing(threshold: Double = 100, travel: Double = 600) -> OverscrollModel {
    var model = pulledModel(fingerTravel: 0, threshold: threshold)
    let finger = PointerID(1)
    var t = 0.4
    var y = 100.0
    while y < 100 + travel {
        t += 1.0 / 60; y += 4
        model.step([TimedInput(time: t, event: .pointerMove(finger, x: 240, y: y))], to: t)
        if model.events.contains(.feedback) { break }
    }
    return model
}

/// Measures the arc from pixels: the fraction of a circle, sampled at the stroke's middle
/// radius, whose colour differs clearly from the disc behind it.
func measuredSweep(_ image: Image, indicator: IndicatorScene, width: Double, scale: Double) -> Double {
    let cx = width / 2 * scale, cy = indicator.centerY * scale
    let r = indicator.radius * indicator.scale * scale      // a disc still growing in is smaller
    let disc = RGB(Palette.indicatorDisc)
    var covered = 0
    let steps = 720
    for i in 0..<steps {
        let a = 2 * Double.pi * Double(i) / Double(steps)
        let x = Int((cx + r * cos(a)).rounded()), y = Int((cy + r * sin(a)).rounded())
        if image.at(x, y).distance(disc) > 90 { covered += 1 }
    }
    return Double(covered) / Double(steps)
}

extension SDLSuite { @Suite struct IndicatorRenderTests {
    /// The indicator's shading rounds a pixel's value without libm; it must round exactly as
    /// `rounded()` does, at every half and the floats either side of it, and in between.
    @Test func theIndicatorsRoundingIsRoundedsOwn() {
        var checked = 0
        for k in 0...300 {
            var x = Float(k) + 0.5
            for _ in 0..<6 { x = x.nextDown }
            for _ in 0..<13 {
                #expect(IndicatorImage.nearest(x) == UInt32(x.rounded()), "\(x)")
                x = x.nextUp
                checked += 1
            }
        }
        var y: Float = 0
        while y < 256 {
            if IndicatorImage.nearest(y) != UInt32(y.rounded()) { Issue.record("\(y)") }
            y += 0.000_173
            checked += 1
        }
        #expect(checked > 1_000_000)
    }

    @Test(arguments: [1.0, 2.0])
    func theArcSweepFollowsThePull(scale: Double) throws {
        let headless = try Headless(scale: scale)
        var previous = -1.0
        for travel in [110.0, 150, 190, 230] {
            let model = pulledModel(fingerTravel: travel, threshold: 100)
            let scene = Scene(model: model)
            let indicator = try #require(scene.indicator, "no indicator at \(travel)")
            let image = headless.render(model, flash: false)   // the flash would cover the disc
            let measured = measuredSweep(image, indicator: indicator, width: 480, scale: scale)
            // What the pixels show is what the pull asks for (1 px feathering aside).
            #expect(abs(measured - indicator.arc.sweep) < 0.04, "travel \(travel): \(measured) vs \(indicator.arc.sweep)")
            #expect(measured > previous)
            previous = measured
        }
    }

    /// Armed, the arc closes: a full circle, not Android's 0.8 turn, so arming shows in the arc.
    @Test func theArcMappingStartsAtFortyPercentStopsAtEightTenthsAndClosesWhenArmed() {
        let c = RefreshController.Configuration(threshold: 100)
        #expect(ArcShape.pulling(pull: 40, configuration: c, armed: false).sweep <= 0.01)
        #expect(abs(ArcShape.pulling(pull: 70, configuration: c, armed: false).sweep - 0.4) < 1e-9)
        #expect(ArcShape.pulling(pull: 100, configuration: c, armed: false).sweep == 0.8)
        #expect(ArcShape.pulling(pull: 300, configuration: c, armed: false).sweep == 0.8)
        #expect(ArcShape.pulling(pull: 100, configuration: c, armed: true).sweep == 1)
        #expect(ArcShape.pulling(pull: 300, configuration: c, armed: true).sweep == 1)
        #expect(ArcShape.pulling(pull: 99, configuration: c, armed: false).opacity < 0.9)
        #expect(ArcShape.pulling(pull: 99, configuration: c, armed: true).opacity == 1)
        #expect(ArcShape.pulling(pull: 10, configuration: c, armed: false).opacity == 0)
    }

    @Test(arguments: [1.0, 2.0])
    func theArcEdgesAreAntiAliased(scale: Double) throws {
        let headless = try Headless(scale: scale)
        let model = pullUntilCrossing()
        #expect(model.refresh.state == .armed)
        let indicator = try #require(Scene(model: model).indicator)
        let image = headless.render(model, flash: false)
        let mid = 2 * Double.pi * (indicator.arc.start + indicator.arc.sweep / 2)
        let cx = 240 * scale, cy = indicator.centerY * scale
        let accent = RGB(Palette.accent), disc = RGB(Palette.indicatorDisc)
        var profile: [RGB] = []
        for step in stride(from: -8.0, through: 8.0, by: 0.5) {     // pixels across the stroke
            let r = (indicator.radius + step / scale * 1) * scale
            profile.append(image.at(Int((cx + r * cos(mid)).rounded()), Int((cy + r * sin(mid)).rounded())))
        }
        #expect(profile.contains { $0.distance(accent) < 12 }, "\(profile)")
        // Between the solid stroke and the disc there are partly covered pixels.
        let partial = profile.filter { $0.distance(accent) > 30 && $0.distance(disc) > 30 }
        #expect(!partial.isEmpty, "\(profile)")
    }

    @Test func theSpinnerTakesOverWithoutAJump() throws {
        var model = pullUntilCrossing()
        let before = try #require(Scene(model: model).indicator)
        let t = model.now
        model.step([TimedInput(time: t, event: .pointerUp(PointerID(1)))], to: t)
        #expect(model.refresh.state.name == "refreshing")
        let after = try #require(Scene(model: model).indicator)
        #expect(abs(after.arc.start - before.arc.start) < 1e-9 && abs(after.arc.sweep - before.arc.sweep) < 1e-9)
        #expect(abs(after.centerY - before.centerY) < 1e-9)
        model.step([], to: t + 0.5)
        let spinning = try #require(Scene(model: model).indicator)
        #expect(spinning.arc.start != before.arc.start)
    }

    @Test func theFlashBrightensTheFrameBrieflyAndCanBeTurnedOff() throws {
        let headless = try Headless()
        var model = pullUntilCrossing()
        #expect(model.events.contains(.feedback))
        let flashed = headless.render(model).meanBrightness
        let unflashed = headless.render(model, flash: false).meanBrightness
        #expect(flashed > unflashed + 20)
        model.step([], to: model.now + 0.2)
        let later = headless.render(model).meanBrightness
        #expect(abs(later - unflashed) < 5)
    }

    /// The flash is white blended over the finished picture — rows, status line, arc and
    /// scroll bar alike — whichever way the painter gets there: each pixel of a flashed
    /// frame is the unflashed frame's pixel p + (white − p)·a, per channel, a in 256ths.
    /// A small threshold flashes with the indicator still growing in.
    @Test(arguments: [1.0, 2.0], [100.0, 24.0])
    func theFlashIsTheUnflashedPictureBlendedWithWhite(scale: Double, threshold: Double) throws {
        let headless = try Headless(scale: scale)
        let model = pullUntilCrossing(threshold: threshold)
        let scene = Scene(model: model)
        #expect(scene.flash > 0 && scene.indicator != nil && scene.scrollBar != nil)
        // The status line shows once it fits above the list: at 100 pt, not at 24.
        #expect((scene.status != nil) == (threshold > 50))
        if threshold < 50, let indicator = scene.indicator {
            // Early in the pull the disc is still growing in, whole inside the window.
            #expect(indicator.scale < 1)
            #expect(indicator.centerY >= (indicator.radius + IndicatorLayout.discMargin) * indicator.scale,
                    "the indicator's disc reaches above the window")
        }
        let plain = headless.render(model, flash: false)
        let flashed = headless.render(model)
        let a = UInt32((scene.flash * 256).rounded())
        var wrong: (x: Int, y: Int, got: UInt32, wanted: UInt32)?
        for i in plain.pixels.indices where wrong == nil {
            let p = plain.pixels[i]
            var wanted: UInt32 = 0
            for shift: UInt32 in [0, 8, 16] {
                let c = (p >> shift) & 0xFF
                wanted |= ((c * (256 - a) + 0xFF * a) >> 8) << shift
            }
            if flashed.pixels[i] & 0xFF_FFFF != wanted {
                wrong = (i % plain.width, i / plain.width, flashed.pixels[i] & 0xFF_FFFF, wanted)
            }
        }
        #expect(wrong == nil, "pixel \(wrong.map { "(\($0.x), \($0.y)): \(String($0.got, radix: 16)), wanted \(String($0.wanted, radix: 16))" } ?? "")")
    }
}
}
