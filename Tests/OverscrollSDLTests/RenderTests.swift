import CSDL
import Foundation
import OverscrollKit
import Testing
@testable import OverscrollSDL

extension SDLSuite { @Suite struct RenderTests {
    @Test func rowsAreDrawnWhereTheLayoutSaysOnTheRightBackground() throws {
        let headless = try Headless()
        var config = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
        config.refreshTimeout = 10
        let model = OverscrollModel(configuration: config, rows: ["First row", "Second row", "Third"])
        let image = headless.render(model)
        let layout = ListLayout()
        // Right of the text, each row is its own background colour.
        #expect(image.at(460, 10) == RGB(Palette.rowEven))
        #expect(image.at(460, Int(layout.rowHeight) + 10) == RGB(Palette.rowOdd))
        // Below three rows the list's background shows.
        #expect(image.at(240, 700) == RGB(Palette.background))
        // Text: bright pixels inside each row's band, starting at the text inset.
        for row in 0..<3 {
            let top = Int(Double(row) * layout.rowHeight)
            var bright: [(Int, Int)] = []
            for y in top..<(top + Int(layout.rowHeight)) {
                for x in 0..<300 where image.at(x, y).brightness > 150 { bright.append((x, y)) }
            }
            #expect(bright.count > 50, "row \(row) has no text")
            let minX = bright.map(\.0).min() ?? 0
            #expect(minX >= Int(layout.textInset) && minX <= Int(layout.textInset) + 3)
            let ys = bright.map(\.1)
            let middle = Double(ys.min()! + ys.max()!) / 2
            #expect(abs(middle - (Double(top) + layout.rowHeight / 2)) < 6)
        }
        // Nothing bright in the empty area.
        #expect((0..<480).allSatisfy { image.at($0, 400).brightness < 60 })
    }

    @Test func scrollingMovesTheRows() throws {
        let headless = try Headless()
        var model = pulledModel(fingerTravel: 0)
        // Cancelled, not lifted: a still finger lifted is a tap, which would select row 1.
        model.step([TimedInput(time: 1, event: .pointerCancel), TimedInput(time: 1, event: .wheel(dy: 28))], to: 1)
        let image = headless.render(model)
        // Row 0's band now ends at y = 56 − 28; row 1 (odd colour) starts there.
        #expect(image.at(460, 30) == RGB(Palette.rowOdd))
        #expect(image.at(460, 20) == RGB(Palette.rowEven))
    }

    @Test func theGapAboveAPulledListIsTheGapColour() throws {
        let headless = try Headless()
        let model = pulledModel(fingerTravel: 200)
        let pull = model.scroll.pull
        #expect(pull > 80)
        let image = headless.render(model)
        #expect(image.at(10, 5) == RGB(Palette.gap))
        #expect(image.at(460, Int(pull) + 10) == RGB(Palette.rowEven))
    }
}
}
