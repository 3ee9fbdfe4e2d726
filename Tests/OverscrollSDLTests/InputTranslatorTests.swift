import CSDL
import OverscrollKit
import Testing
@testable import OverscrollSDL

extension SDLSuite {
    /// Touch and mouse through SDL's own queue: events are pushed with SDL_PushEvent and
    /// read back with SDL_PollEvent, as the live loop reads them.
    @Suite struct InputTranslatorTests {
        let window = (width: 480.0, height: 800.0)

        func roundTrip(_ events: [SDL_Event], translator: InputTranslator = InputTranslator()) throws -> [InputTranslator.Output] {
            let headless = try Headless()
            _ = headless
            var event = SDL_Event()
            while SDL_PollEvent(&event) != 0 {}          // drain window events from opening
            for var e in events { #expect(SDL_PushEvent(&e) == 1) }
            var out: [InputTranslator.Output] = []
            while SDL_PollEvent(&event) != 0 { out.append(translator.translate(event, windowSize: window)) }
            return out
        }

        func finger(_ type: SDL_EventType, id: Int64, x: Float, y: Float, touch: Int64 = 7) -> SDL_Event {
            var e = SDL_Event()
            e.tfinger.type = type.rawValue
            e.tfinger.touchId = touch
            e.tfinger.fingerId = id
            e.tfinger.x = x
            e.tfinger.y = y
            return e
        }

        func mouse(_ type: SDL_EventType, x: Int32, y: Int32, which: UInt32 = 0) -> SDL_Event {
            var e = SDL_Event()
            if type == SDL_MOUSEMOTION {
                e.motion.type = type.rawValue
                e.motion.which = which
                e.motion.x = x
                e.motion.y = y
            } else {
                e.button.type = type.rawValue
                e.button.which = which
                e.button.button = UInt8(SDL_BUTTON_LEFT)
                e.button.x = x
                e.button.y = y
            }
            return e
        }

        @Test func fingersBecomePointerEventsInWindowPoints() throws {
            let out = try roundTrip([finger(SDL_FINGERDOWN, id: 3, x: 0.5, y: 0.25),
                                     finger(SDL_FINGERMOTION, id: 3, x: 0.5, y: 0.5),
                                     finger(SDL_FINGERUP, id: 3, x: 0.5, y: 0.5)])
            let id = InputTranslator.pointer(touch: 7, finger: 3)
            #expect(out == [.input(.pointerDown(id, x: 240, y: 200)), .input(.pointerMove(id, x: 240, y: 400)),
                            .input(.pointerUp(id))])
        }

        @Test func sdlsSynthesizedDuplicatesAreDropped() throws {
            // A mouse event made from a touch, and a touch made from the mouse.
            let out = try roundTrip([mouse(SDL_MOUSEBUTTONDOWN, x: 10, y: 10, which: CSDL_TOUCH_MOUSEID),
                                     mouse(SDL_MOUSEMOTION, x: 10, y: 50, which: CSDL_TOUCH_MOUSEID),
                                     finger(SDL_FINGERDOWN, id: 1, x: 0.1, y: 0.1, touch: CSDL_MOUSE_TOUCHID)])
            #expect(out.allSatisfy { $0 == .ignored })
        }

        @Test func theRealMouseDrivesTheSamePath() throws {
            let out = try roundTrip([mouse(SDL_MOUSEBUTTONDOWN, x: 100, y: 600), mouse(SDL_MOUSEMOTION, x: 100, y: 300),
                                     mouse(SDL_MOUSEBUTTONUP, x: 100, y: 300)])
            #expect(out == [.input(.pointerDown(.mouse, x: 100, y: 600)), .input(.pointerMove(.mouse, x: 100, y: 300)),
                            .input(.pointerUp(.mouse))])
        }

        @Test func aTouchOnlyKioskIgnoresTheMouse() throws {
            let out = try roundTrip([mouse(SDL_MOUSEBUTTONDOWN, x: 100, y: 600), finger(SDL_FINGERDOWN, id: 1, x: 0.5, y: 0.5)])
            // The translator only translates; the model (configured touch-only) admits.
            var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
            c.acceptsMouse = false
            let model = OverscrollModel(configuration: c, rows: ["a"])
            let admitted = out.filter { if case .input(let e) = $0 { model.admits(e) } else { false } }
            #expect(admitted == [.input(.pointerDown(InputTranslator.pointer(touch: 7, finger: 1), x: 240, y: 400))])
        }

        @Test func wheelAndKeys() throws {
            var wheel = SDL_Event()
            wheel.wheel.type = SDL_MOUSEWHEEL.rawValue
            wheel.wheel.y = 1
            wheel.wheel.preciseY = 1
            var escape = SDL_Event()
            escape.key.type = SDL_KEYDOWN.rawValue
            escape.key.keysym.sym = Int32(SDLK_ESCAPE.rawValue)
            var f2 = SDL_Event()
            f2.key.type = SDL_KEYDOWN.rawValue
            f2.key.keysym.sym = Int32(SDLK_F2.rawValue)
            let out = try roundTrip([wheel, escape, f2])
            #expect(out == [.input(.wheel(dy: -48)), .quit, .toggleHUD])
        }
    }
}
