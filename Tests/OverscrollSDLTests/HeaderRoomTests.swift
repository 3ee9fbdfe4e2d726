import CSDL
import Testing
import OverscrollKit
@testable import OverscrollSDL

/// The header a refresh holds open, measured in pixels: the pixel rows above the list are
/// the gap's colour except where the disc and the status text are, and each has 8 pt clear
/// around it.
extension SDLSuite { @Suite struct HeaderRoomTests {
    @Test(arguments: [1.0, 2.0])
    func atRestWhileRefreshingDiscTextAndRowsHave8PointsBetweenThem(scale: Double) throws {
        let headless = try Headless(scale: scale)
        let model = spinningModel()
        #expect(model.refresh.state.name == "refreshing" && model.scroll.isAtRest)
        let picture = headless.render(model)
        let listTop = Int((-model.scroll.offset * scale).rounded(.down))
        let gap = RGB(Palette.gap)
        // Runs of pixel rows above the list that hold anything but the gap's colour (left of
        // the scroll bar, which runs down the right edge).
        let columns = 0..<(picture.width - Int(12 * scale))
        var runs: [(first: Int, last: Int)] = []
        for y in 0..<listTop {
            let marked = columns.contains { picture.at($0, y) != gap }
            guard marked else { continue }
            if let last = runs.last, last.last == y - 1 { runs[runs.count - 1].last = y } else { runs.append((y, y)) }
        }
        try #require(runs.count == 2, "expected the disc and the text above the list, found rows \(runs)")
        let disc = runs[0], text = runs[1], room = Int(8 * scale)
        #expect(disc.first >= room, "above the disc: \(disc.first) px")
        #expect(text.first - disc.last - 1 >= room, "between disc and text: \(text.first - disc.last - 1) px")
        #expect(listTop - text.last - 1 >= room, "between text and the first row: \(listTop - text.last - 1) px")
        // What the runs are: the disc's colour at its middle, the text's light ink.
        #expect(picture.at(picture.width / 2, (disc.first + disc.last) / 2 - Int(11 * scale)) == RGB(Palette.indicatorDisc))
        #expect((text.first...text.last).contains { y in (0..<picture.width).contains { picture.at($0, y).brightness > 100 } })
        #expect(Double(listTop) == RefreshController.Configuration.restingExtent * scale)
    }
} }
