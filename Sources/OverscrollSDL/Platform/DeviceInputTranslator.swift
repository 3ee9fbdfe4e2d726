import CInput
import OverscrollKit

/// Turns the console's device events (libinput's, flattened by CInput) into the model's
/// inputs in window points, as `InputTranslator` does for SDL's: every touch panel (a
/// single-touch one is a panel with one slot), absolute pointers (a USB HID panel, QEMU's
/// usb-tablet) over the whole screen, a relative mouse moving a pointer of its own, a pen
/// display's stylus (as a finger), the wheel and the list's keys. Pure: the tests feed it
/// recorded events.
struct DeviceInputTranslator {
    /// Points per wheel notch, as `InputTranslator.wheelStep`.
    var wheelStep = 48.0
    /// Where the pointer is, in window points: a relative mouse moves it from mid-screen.
    private var cursor: (x: Double, y: Double)?
    /// The modifier keys held, each side apart (a left and a right Shift held, one let go).
    private var held: Set<UInt32> = []

    init() { held.reserveCapacity(8) }

    /// `screen` in points; `pixelsPerPoint` turns a relative mouse's pixel-like moves into points.
    mutating func translate(_ event: ovs_input_event, screen: (width: Double, height: Double),
                            pixelsPerPoint: Double = 1) -> InputTranslator.Output {
        switch event.kind {
        case OVS_INPUT_TOUCH_DOWN:
            return .input(.pointerDown(Self.finger(event.slot), x: event.x * screen.width, y: event.y * screen.height))
        case OVS_INPUT_TOUCH_MOTION:
            return .input(.pointerMove(Self.finger(event.slot), x: event.x * screen.width, y: event.y * screen.height))
        case OVS_INPUT_TOUCH_UP:
            return .input(.pointerUp(Self.finger(event.slot)))
        case OVS_INPUT_TOUCH_CANCEL:
            return .input(.pointerCancel)
        case OVS_INPUT_PEN_DOWN:
            return .input(.pointerDown(Self.pen(event.device), x: event.x * screen.width, y: event.y * screen.height))
        case OVS_INPUT_PEN_MOTION:
            return .input(.pointerMove(Self.pen(event.device), x: event.x * screen.width, y: event.y * screen.height))
        case OVS_INPUT_PEN_UP:
            return .input(.pointerUp(Self.pen(event.device)))
        case OVS_INPUT_POINTER_ABSOLUTE:
            let at = (x: event.x * screen.width, y: event.y * screen.height)
            cursor = at
            return .input(.pointerMove(.mouse, x: at.x, y: at.y))
        case OVS_INPUT_POINTER_MOTION:
            let from = cursor ?? (screen.width / 2, screen.height / 2)
            let at = (x: min(max(from.x + event.x / pixelsPerPoint, 0), screen.width - 1 / pixelsPerPoint),
                      y: min(max(from.y + event.y / pixelsPerPoint, 0), screen.height - 1 / pixelsPerPoint))
            cursor = at
            return .input(.pointerMove(.mouse, x: at.x, y: at.y))
        case OVS_INPUT_POINTER_BUTTON:
            guard event.code == UInt32(BTN_LEFT) else { return .ignored }
            guard event.pressed != 0 else { return .input(.pointerUp(.mouse)) }
            let at = cursor ?? (screen.width / 2, screen.height / 2)
            return .input(.pointerDown(.mouse, x: at.x, y: at.y))
        case OVS_INPUT_POINTER_WHEEL:
            // libinput's notches are positive towards the user: down into the content.
            return event.y == 0 ? .ignored : .input(.wheel(dy: event.y * wheelStep))
        case OVS_INPUT_KEY:
            return key(event.code, pressed: event.pressed != 0)
        default:
            return .ignored
        }
    }

    /// Touch slots are unique on the seat while down (libinput's seat slot); never the mouse's id.
    static func finger(_ slot: Int32) -> PointerID { PointerID(Int64(slot) + 1) }

    /// A pen display's stylus, one per device (a tablet has one tool on the glass at a
    /// time): below zero, so never a finger's id, and never the mouse's.
    static func pen(_ device: UInt32) -> PointerID { PointerID(-1 - Int64(device)) }

    private static let shifts: [UInt32] = [UInt32(KEY_LEFTSHIFT), UInt32(KEY_RIGHTSHIFT)]
    private static let controls: [UInt32] = [UInt32(KEY_LEFTCTRL), UInt32(KEY_RIGHTCTRL)]

    /// A key the list uses, as `InputTranslator.key` reads SDL's. libinput passes the
    /// kernel's repeats over, so a held key acts once.
    private mutating func key(_ code: UInt32, pressed: Bool) -> InputTranslator.Output {
        if Self.shifts.contains(code) || Self.controls.contains(code) {
            if pressed { held.insert(code) } else { held.remove(code) }
            return .ignored
        }
        guard pressed else { return .ignored }
        let found: Key
        switch Int32(code) {
        case KEY_ESC: return .quit
        case KEY_F2: return .toggleHUD
        case KEY_UP: found = .up
        case KEY_DOWN: found = .down
        case KEY_PAGEUP: found = .pageUp
        case KEY_PAGEDOWN: found = .pageDown
        case KEY_SPACE: found = .space
        case KEY_HOME: found = .home
        case KEY_END: found = .end
        case KEY_F5: found = .f5
        case KEY_R: found = .r
        default: return .ignored
        }
        var modifiers: KeyModifiers = []
        if Self.shifts.contains(where: held.contains) { modifiers.insert(.shift) }
        if Self.controls.contains(where: held.contains) { modifiers.insert(.ctrl) }
        return .input(.key(found, modifiers))
    }
}
