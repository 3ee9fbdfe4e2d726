import Testing
@testable import OverscrollSDL

/// The scale a display's density gives: a point is 1/96 inch, to the nearest quarter, never
/// a row under 7 mm, within 0.5…4.
@Suite struct DisplayScaleFactorTests {
    @Test(arguments: [(96.0, 1.0), (192, 2), (144, 1.5), (120, 1.25), (110, 1.25), (100, 1), (400, 4), (2000, 4), (30, 0.5)])
    func densityGivesQuarterSteps(dpi: Double, expected: Double) {
        #expect(DisplayScale.factor(dpi: dpi) == expected)
    }

    @Test(arguments: [60.0, 96, 140, 192, 250, 330, 400])
    func aRowIsAtLeastSevenMillimetres(dpi: Double) {
        let rowPixels = 56 * DisplayScale.factor(dpi: dpi)
        #expect(rowPixels / dpi * 25.4 >= 7, "\(dpi) dpi")
    }

    @Test func aTinyRowHeightIsRaisedToSevenMillimetres() {
        // 20 pt rows at 96 dpi would be 5.3 mm: the scale rises to the quarter above 7 mm.
        let factor = DisplayScale.factor(dpi: 96, rowHeight: 20)
        #expect(factor == 1.5)
        #expect(20 * factor / 96 * 25.4 >= 7)
    }

    @Test func implausibleDensitiesAreNotBelieved() {
        #expect(!DisplayScale.plausible(0) && !DisplayScale.plausible(.nan) && !DisplayScale.plausible(4000))
        #expect(DisplayScale.plausible(96) && DisplayScale.plausible(400))
    }
}
