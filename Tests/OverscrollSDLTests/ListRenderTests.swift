import CSDL
import Testing
import OverscrollKit
@testable import OverscrollSDL

/// A 100-row model, stepped through `inputs` (times in seconds) to `time`.
func listModel(_ inputs: [TimedInput], to time: Double, statusText: Bool = true, threshold: Double? = nil) -> OverscrollModel {
    var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800, threshold: threshold)
    c.showsStatusText = statusText
    var model = OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0)" })
    model.step(inputs, to: time)
    return model
}

/// A pull of `travel` points of finger movement, held.
func pullInputs(_ travel: Double) -> [TimedInput] {
    let finger = PointerID(1)
    var inputs = [TimedInput(time: 0, event: .pointerDown(finger, x: 240, y: 100))]
    for i in 1...50 {
        inputs.append(TimedInput(time: Double(i) * 0.008, event: .pointerMove(finger, x: 240, y: 100 + travel * Double(i) / 50)))
    }
    return inputs
}

extension SDLSuite { @Suite struct ListRenderTests {
    @Test(arguments: [1.0, 2.0])
    func theScrollIndicatorIsDrawnWhereTheSceneSaysAndGoesWhenFaded(scale: Double) throws {
        let headless = try Headless(scale: scale)
        let model = listModel([TimedInput(time: 0, event: .wheel(dy: 2400))], to: 0.2)
        let bar = try #require(Scene(model: model).scrollBar)
        let image = headless.render(model)
        // Down the bar's middle: bright where the bar is, row colours above and below.
        let x = Int(((bar.x + bar.width / 2) * scale).rounded(.down))
        let rows = [RGB(Palette.rowEven), RGB(Palette.rowOdd), RGB(Palette.separator)]
        let lit = (0..<image.height).filter { y in rows.allSatisfy { image.at(x, y).distance($0) > 120 } }
        let top = try #require(lit.first), bottom = try #require(lit.last)
        #expect(abs(Double(top) - bar.y * scale) <= 1.5, "top \(top) vs \(bar.y * scale)")
        #expect(abs(Double(bottom + 1) - (bar.y + bar.height) * scale) <= 1.5, "bottom \(bottom) vs \((bar.y + bar.height) * scale)")
        #expect(lit.count == bottom - top + 1)             // one solid bar
        // A thin bar at the edge: 6 pt to its left is plain row.
        let left = Int((bar.x - 6) * scale)
        #expect((top...bottom).allSatisfy { y in rows.contains { image.at(left, y).distance($0) < 4 } })
        // Long after rest it is gone from the pixels too.
        var later = model
        later.step([], to: 3)
        #expect(Scene(model: later).scrollBar == nil)
        let faded = headless.render(later)
        #expect((0..<faded.height).allSatisfy { y in rows.contains { faded.at(x, y).distance($0) < 4 } })
    }

    @Test(arguments: [1.0, 2.0])
    func theStatusLineIsDrawnCentredUnderTheArcAndCanBeTurnedOff(scale: Double) throws {
        let headless = try Headless(scale: scale)
        let on = listModel(pullInputs(400), to: 0.5, threshold: 100)
        #expect(on.refresh.state == .armed)
        let status = try #require(Scene(model: on).status)
        #expect(status.text == "Release to refresh")
        let indicator = try #require(Scene(model: on).indicator)
        #expect(status.centerY > indicator.centerY + indicator.radius + 8)   // under the disc
        #expect(status.centerY < on.scroll.pull)                              // in the open gap

        func textPixels(_ model: OverscrollModel) -> [(x: Int, y: Int)] {
            let image = headless.render(model, flash: false)
            let gap = RGB(Palette.gap)
            var found: [(x: Int, y: Int)] = []
            let y0 = Int((status.centerY - 8) * scale), y1 = Int((status.centerY + 8) * scale)
            for y in y0...y1 { for x in 0..<image.width where image.at(x, y).distance(gap) > 150 { found.append((x, y)) } }
            return found
        }
        let lit = textPixels(on)
        #expect(lit.count > Int(150 * scale * scale), "\(lit.count) text pixels")
        let meanX = Double(lit.map(\.x).reduce(0, +)) / Double(lit.count)
        #expect(abs(meanX - 240 * scale) < 12 * scale, "centred: \(meanX)")
        // Grey, not the row text's white nor the accent: the quieter colour.
        let image = headless.render(on, flash: false)
        let brightest = lit.map { image.at($0.x, $0.y) }.max { $0.brightness < $1.brightness }!
        #expect(brightest.distance(RGB(Palette.statusText)) < 40, "\(brightest)")

        let off = listModel(pullInputs(400), to: 0.5, statusText: false, threshold: 100)
        #expect(Scene(model: off).status == nil)
        let outside = textPixels(off).filter { abs(Double($0.x) - 240 * scale) > 30 * scale }
        #expect(outside.isEmpty, "\(outside.count) pixels where the text would be")
    }

    @Test(arguments: [1.0, 2.0])
    func pressedAndSelectedRowsStandOut(scale: Double) throws {
        let headless = try Headless(scale: scale)
        let finger = PointerID(1)
        // Row 5 (y 280…336) held 150 ms, row 1 tapped before.
        let model = listModel([TimedInput(time: 0, event: .pointerDown(finger, x: 240, y: 80)),
                               TimedInput(time: 0.05, event: .pointerUp(finger)),
                               TimedInput(time: 0.1, event: .pointerDown(finger, x: 240, y: 300))], to: 0.25)
        #expect(model.selectedRow == 1 && model.highlightedRow == 5)
        let image = headless.render(model)
        let x = Int(400 * scale)
        #expect(image.at(x, Int(60 * scale)).distance(RGB(Palette.rowSelected)) < 4)
        #expect(image.at(x, Int(300 * scale)).distance(RGB(Palette.rowHighlighted)) < 4)
        #expect(image.at(x, Int(200 * scale)).distance(RGB(Palette.rowOdd)) < 4)       // row 3: as before
    }
} }
