import CSDL
import OverscrollKit
import RowSources
import Testing
@testable import OverscrollSDL

extension SDLSuite {
    /// `--rotate`: the picture is turned on the window, and touch is turned back.
    @Suite struct RotationRenderTests {
        @Test func aQuarterTurnDrawsTheListTopDownTheWindowsRightEdge() throws {
            let headless = try Headless(width: 800, height: 480)
            var settings = AppSettings(rows: (0..<30).map { "Row \($0)" }, fontPath: try FontLocator.locate(explicit: nil))
            settings.rotation = .quarter
            settings.sound = false
            let session = try Session(display: headless.display, font: try FontFile.read(settings.fontPath), settings: settings, inbox: RefreshInbox(),
                                      refreshPeriod: 1.0 / 60, report: nil, warn: { _ in })
            // The app is portrait: 480 wide, 800 tall.
            #expect(session.model.viewportWidth == 480 && session.model.scroll.viewportHeight == 800)
            session.render()
            let image = headless.readPixels()
            func windowPixel(appX: Double, appY: Double) -> RGB {
                let p = ScreenRotation.quarter.toWindow(x: appX, y: appY, windowWidth: 800, windowHeight: 480)
                return image.at(Int(p.x.rounded()), Int(p.y.rounded()))
            }
            #expect(windowPixel(appX: 470, appY: 20) == RGB(Palette.rowEven))
            #expect(windowPixel(appX: 470, appY: 76) == RGB(Palette.rowOdd))
            #expect(windowPixel(appX: 470, appY: 132) == RGB(Palette.rowEven))
            // A finger moving left across the window (down the app) pulls the list down.
            let down = TimedInput(time: 0, event: .pointerDown(PointerID(1), x: 600, y: 240))
            let move = TimedInput(time: 0.1, event: .pointerMove(PointerID(1), x: 500, y: 240))
            var inputs = [down, move]
            _ = session.frame(&inputs, to: 0.1, startedAt: 0, cpuStart: 0)
            #expect(session.model.scroll.offset < 0)
        }
    }
}
