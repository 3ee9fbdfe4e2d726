import CSDL
import OverscrollKit
import Testing
@testable import OverscrollSDL

/// SDL key events become the model's key events; Esc and F2 stay the app's.
@Suite struct KeyTranslationTests {
    func keyDown(_ code: SDL_KeyCode, _ mod: SDL_Keymod = KMOD_NONE, repeats: Bool = false) -> SDL_Event {
        var e = SDL_Event()
        e.key.type = SDL_KEYDOWN.rawValue
        e.key.keysym.sym = Int32(bitPattern: code.rawValue)
        e.key.keysym.mod = UInt16(mod.rawValue)
        e.key.repeat = repeats ? 1 : 0
        return e
    }

    func translate(_ e: SDL_Event) -> InputTranslator.Output {
        InputTranslator().translate(e, windowSize: (480, 800))
    }

    @Test func listKeysCarryTheirModifiers() {
        #expect(translate(keyDown(SDLK_DOWN)) == .input(.key(.down, [])))
        #expect(translate(keyDown(SDLK_PAGEUP)) == .input(.key(.pageUp, [])))
        #expect(translate(keyDown(SDLK_SPACE, KMOD_LSHIFT)) == .input(.key(.space, .shift)))
        #expect(translate(keyDown(SDLK_r, KMOD_RCTRL)) == .input(.key(.r, .ctrl)))
        #expect(translate(keyDown(SDLK_HOME)) == .input(.key(.home, [])))
        #expect(translate(keyDown(SDLK_END)) == .input(.key(.end, [])))
        #expect(translate(keyDown(SDLK_F5)) == .input(.key(.f5, [])))
    }

    @Test func heldArrowsRepeatButAHeldRefreshKeyDoesNot() {
        #expect(translate(keyDown(SDLK_DOWN, repeats: true)) == .input(.key(.down, [])))
        #expect(translate(keyDown(SDLK_F5, repeats: true)) == .ignored)
        #expect(translate(keyDown(SDLK_r, KMOD_LCTRL, repeats: true)) == .ignored)
    }

    @Test func otherKeysAreIgnoredAndTheAppKeysStay() {
        #expect(translate(keyDown(SDLK_TAB)) == .ignored)
        #expect(translate(keyDown(SDLK_ESCAPE)) == .quit)
        #expect(translate(keyDown(SDLK_F2)) == .toggleHUD)
    }
}
