import CSDL
import OverscrollKit

/// Turns SDL events into the model's `InputEvent`s, or into app commands. This is the
/// only place that knows SDL's event layout. Touch and mouse share one path; SDL's
/// synthesized duplicates (mouse events made from touches, touches made from the mouse)
/// are dropped here so a touch never moves the list twice.
public struct InputTranslator {
    public enum Output: Equatable {
        case input(InputEvent)
        case quit
        case toggleHUD
        /// The window's size or pixel density may have changed.
        case windowChanged
        case ignored
    }

    /// Points per wheel notch.
    public var wheelStep = 48.0

    /// Which input the app takes (a touch-only kiosk) is the model's decision
    /// (`OverscrollModel.admits`): this only translates.
    public init() {}

    /// `windowSize` in points, for touch coordinates, which SDL normalizes to 0…1;
    /// `pointsPerUnit` turns the mouse's window coordinates into points (`--scale`).
    public func translate(_ event: SDL_Event, windowSize: (width: Double, height: Double),
                          pointsPerUnit: Double = 1) -> Output {
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return .quit
        case SDL_KEYDOWN:
            switch event.key.keysym.sym {
            case Int32(SDLK_ESCAPE.rawValue): return .quit
            case Int32(SDLK_F2.rawValue): return event.key.repeat == 0 ? .toggleHUD : .ignored
            default: return Self.key(event.key)
            }
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED, SDL_WINDOWEVENT_RESIZED, SDL_WINDOWEVENT_DISPLAY_CHANGED:
                return .windowChanged
            case SDL_WINDOWEVENT_FOCUS_LOST, SDL_WINDOWEVENT_MINIMIZED:
                return .input(.pointerCancel)
            default:
                return .ignored
            }
        case SDL_FINGERDOWN, SDL_FINGERMOTION, SDL_FINGERUP:
            let f = event.tfinger
            guard f.touchId != CSDL_MOUSE_TOUCHID else { return .ignored }
            let id = Self.pointer(touch: f.touchId, finger: f.fingerId)
            let x = Double(f.x) * windowSize.width, y = Double(f.y) * windowSize.height
            switch SDL_EventType(event.type) {
            case SDL_FINGERDOWN: return .input(.pointerDown(id, x: x, y: y))
            case SDL_FINGERMOTION: return .input(.pointerMove(id, x: x, y: y))
            default: return .input(.pointerUp(id))
            }
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
            let b = event.button
            guard b.which != CSDL_TOUCH_MOUSEID, b.button == UInt8(SDL_BUTTON_LEFT) else { return .ignored }
            return SDL_EventType(event.type) == SDL_MOUSEBUTTONDOWN
                ? .input(.pointerDown(.mouse, x: Double(b.x) * pointsPerUnit, y: Double(b.y) * pointsPerUnit))
                : .input(.pointerUp(.mouse))
        case SDL_MOUSEMOTION:
            let m = event.motion
            guard m.which != CSDL_TOUCH_MOUSEID else { return .ignored }
            return .input(.pointerMove(.mouse, x: Double(m.x) * pointsPerUnit, y: Double(m.y) * pointsPerUnit))
        case SDL_MOUSEWHEEL:
            let w = event.wheel
            guard w.which != CSDL_TOUCH_MOUSEID else { return .ignored }
            var notches = Double(w.preciseY)
            if w.direction == UInt32(SDL_MOUSEWHEEL_FLIPPED.rawValue) { notches = -notches }
            // Wheel up (positive) moves towards the top, i.e. a smaller offset.
            return notches == 0 ? .ignored : .input(.wheel(dy: -notches * wheelStep))
        default:
            return .ignored
        }
    }

    /// A key the list uses, with its modifiers. Held arrows and pages repeat (holding Down
    /// keeps scrolling); a held F5 or Ctrl+R starts one refresh, not one per repeat.
    static func key(_ key: SDL_KeyboardEvent) -> Output {
        let found: Key
        switch SDL_KeyCode(UInt32(bitPattern: key.keysym.sym)) {
        case SDLK_UP: found = .up
        case SDLK_DOWN: found = .down
        case SDLK_PAGEUP: found = .pageUp
        case SDLK_PAGEDOWN: found = .pageDown
        case SDLK_SPACE: found = .space
        case SDLK_HOME: found = .home
        case SDLK_END: found = .end
        case SDLK_F5: found = .f5
        case SDLK_r: found = .r
        default: return .ignored
        }
        if key.repeat != 0 && (found == .f5 || found == .r) { return .ignored }
        var modifiers: KeyModifiers = []
        let mod = UInt32(key.keysym.mod)
        if mod & UInt32(KMOD_SHIFT.rawValue) != 0 { modifiers.insert(.shift) }
        if mod & UInt32(KMOD_CTRL.rawValue) != 0 { modifiers.insert(.ctrl) }
        return .input(.key(found, modifiers))
    }

    /// Finger ids are unique per touch device only while down; fold the device in.
    static func pointer(touch: SDL_TouchID, finger: SDL_FingerID) -> PointerID {
        PointerID(finger &+ touch &* 1_000_003)
    }
}
