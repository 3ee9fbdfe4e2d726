import CSDL
import OverscrollKit
import RowSources
import Testing
@testable import OverscrollSDL

extension SDLSuite {
    /// A kiosk hides the pointer when it does not take the mouse; a reload that turns
    /// `mouse` on shows it, and off hides it again.
    @Suite struct KioskPointerTests {
        @Test func aReloadThatTakesTheMouseShowsThePointer() throws {
            var options = Display.Options.headless(width: 480, height: 800)
            options.hideCursor = true
            options.pointerFollowsMouse = true
            let display = try Display(options)
            defer { SDL_ShowCursor(SDL_ENABLE) }
            var settings = AppSettings(rows: (0..<30).map { "Row \($0)" }, fontPath: try FontLocator.locate(explicit: nil))
            settings.sound = false
            settings.acceptMouse = false
            let session = try Session(display: display, font: try FontFile.read(settings.fontPath), settings: settings, inbox: RefreshInbox(),
                                      refreshPeriod: 1.0 / 60, report: nil, warn: { _ in })
            #expect(SDL_ShowCursor(SDL_QUERY) == SDL_DISABLE)
            var reloaded = settings
            reloaded.acceptMouse = true
            session.apply(reloaded, at: 1, warn: { _ in })
            #expect(SDL_ShowCursor(SDL_QUERY) == SDL_ENABLE)
            session.apply(settings, at: 2, warn: { _ in })
            #expect(SDL_ShowCursor(SDL_QUERY) == SDL_DISABLE)
        }
    }
}
