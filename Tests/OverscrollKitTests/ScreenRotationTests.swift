import Testing
@testable import OverscrollKit

@Suite struct ScreenRotationTests {
    @Test(arguments: ScreenRotation.allCases)
    func logicalAndWindowPointsRoundTrip(rotation: ScreenRotation) {
        for (x, y) in [(0.0, 0.0), (10, 470), (799, 1), (400, 240), (800, 480)] {
            let p = rotation.toLogical(x: x, y: y, windowWidth: 800, windowHeight: 480)
            let size = rotation.logicalSize(width: 800, height: 480)
            #expect(p.x >= 0 && p.x <= size.width && p.y >= 0 && p.y <= size.height)
            let back = rotation.toWindow(x: p.x, y: p.y, windowWidth: 800, windowHeight: 480)
            #expect(abs(back.x - x) < 1e-9 && abs(back.y - y) < 1e-9)
        }
    }

    @Test func aQuarterTurnPutsTheAppsTopOnTheWindowsRight() {
        // The app's top-left corner is drawn at the window's top-right (clockwise turn).
        let corner = ScreenRotation.quarter.toWindow(x: 0, y: 0, windowWidth: 800, windowHeight: 480)
        #expect(corner.x == 800 && corner.y == 0)
        // A finger moving left across the window moves down the app's list.
        let a = ScreenRotation.quarter.toLogical(x: 700, y: 240, windowWidth: 800, windowHeight: 480)
        let b = ScreenRotation.quarter.toLogical(x: 500, y: 240, windowWidth: 800, windowHeight: 480)
        #expect(b.y - a.y == 200 && a.x == b.x)
    }

    @Test func resizeEventsAreTurnedToo() {
        #expect(ScreenRotation.threeQuarters.toLogical(.resize(width: 1920, height: 1080), windowWidth: 1920, windowHeight: 1080)
                == .resize(width: 1080, height: 1920))
    }
}
