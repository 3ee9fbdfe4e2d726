import CInput
import CSDL
import Foundation
import OverscrollKit
import Testing
@testable import OverscrollSDL

/// The console's input through libinput, fed recorded events (this machine has no
/// /dev/uinput to make a panel with; the VM test drives real ones): every kind of panel
/// lands where the finger is on the screen, at the kernel's times.
@Suite struct DeviceInputTranslationTests {
    let screen = (width: 400.0, height: 640.0)

    private func event(_ kind: ovs_input_kind, slot: Int32 = 0, x: Double = 0, y: Double = 0, usec: UInt64 = 0,
                       code: Int32 = 0, pressed: Bool = false) -> ovs_input_event {
        var e = ovs_input_event()
        e.kind = kind
        e.slot = slot
        e.x = x
        e.y = y
        e.time_usec = usec
        e.code = UInt32(code)
        e.pressed = pressed ? 1 : 0
        return e
    }

    /// A single-touch panel (ABS_X/ABS_Y + BTN_TOUCH, no ABS_MT_*): libinput reports it as
    /// a panel with one slot; its moves are moves (SDL 2's evdev code dropped them).
    @Test func aSingleTouchPanelsMovesArePointerMovesInPoints() {
        var translator = DeviceInputTranslator()
        let down = translator.translate(event(OVS_INPUT_TOUCH_DOWN, x: 0.5, y: 0.25), screen: screen)
        let move = translator.translate(event(OVS_INPUT_TOUCH_MOTION, x: 0.5, y: 0.75), screen: screen)
        let up = translator.translate(event(OVS_INPUT_TOUCH_UP), screen: screen)
        let finger = DeviceInputTranslator.finger(0)
        #expect(down == .input(.pointerDown(finger, x: 200, y: 160)))
        #expect(move == .input(.pointerMove(finger, x: 200, y: 480)))
        #expect(up == .input(.pointerUp(finger)))
        #expect(finger != .mouse)
    }

    /// Two fingers of a multitouch panel are two pointers.
    @Test func twoSlotsAreTwoPointers() {
        var translator = DeviceInputTranslator()
        guard case .input(.pointerDown(let a, _, _)) = translator.translate(event(OVS_INPUT_TOUCH_DOWN, slot: 0, x: 0.1, y: 0.1), screen: screen),
              case .input(.pointerDown(let b, _, _)) = translator.translate(event(OVS_INPUT_TOUCH_DOWN, slot: 1, x: 0.9, y: 0.9), screen: screen)
        else { Issue.record("no pointers"); return }
        #expect(a != b)
    }

    /// An absolute pointer (QEMU's usb-tablet, range 0–32767) over the whole screen: its
    /// middle is the screen's middle, not 41 times off.
    @Test func anAbsolutePointerIsScaledToTheScreen() {
        var translator = DeviceInputTranslator()
        #expect(translator.translate(event(OVS_INPUT_POINTER_ABSOLUTE, x: 0.5, y: 0.5), screen: screen)
                == .input(.pointerMove(.mouse, x: 200, y: 320)))
        #expect(translator.translate(event(OVS_INPUT_POINTER_BUTTON, code: BTN_LEFT, pressed: true), screen: screen)
                == .input(.pointerDown(.mouse, x: 200, y: 320)))
        #expect(translator.translate(event(OVS_INPUT_POINTER_BUTTON, code: BTN_LEFT), screen: screen) == .input(.pointerUp(.mouse)))
        #expect(translator.translate(event(OVS_INPUT_POINTER_BUTTON, code: BTN_RIGHT, pressed: true), screen: screen) == .ignored)
    }

    /// A pull on an absolute pointer as libinput reports QEMU's usb-tablet (the VM test's
    /// USB HID panel): the position, the button, positions along the pull, a hold, the
    /// button let go where the pointer is (a report whose position did not change has no
    /// motion event). Armed while held; the release starts the refresh, and only the
    /// release: where the release comes after a jump back to the top (the VM's driver once
    /// sent its release at 0,0), the pull is undone and nothing refreshes.
    @Test(arguments: [false, true]) func anAbsolutePointersPullRefreshesOnItsRelease(jumpsToTheTopFirst: Bool) {
        var translator = DeviceInputTranslator()
        var model = OverscrollModel(configuration: .init(viewportWidth: screen.width, viewportHeight: screen.height),
                                    rows: (0..<40).map { "Row \($0)" })
        var recorded = [event(OVS_INPUT_POINTER_ABSOLUTE, x: 0.5, y: 100 / screen.height, usec: 1_000_000),
                        event(OVS_INPUT_POINTER_BUTTON, usec: 1_000_000, code: BTN_LEFT, pressed: true)]
        for k in 1...40 {
            recorded.append(event(OVS_INPUT_POINTER_ABSOLUTE, x: 0.5, y: (100 + 10 * Double(k)) / screen.height,
                                  usec: 1_000_000 + UInt64(k) * 10_000))
        }
        if jumpsToTheTopFirst { recorded.append(event(OVS_INPUT_POINTER_ABSOLUTE, x: 0, y: 0, usec: 2_900_000)) }
        recorded.append(event(OVS_INPUT_POINTER_BUTTON, usec: 2_900_000, code: BTN_LEFT))
        var pending = recorded[...]
        var armedWhileHeld = false
        var requested = false
        for frame in stride(from: 1.1, through: 3.5, by: 0.1) {
            var batch: [TimedInput] = []
            while let next = pending.first, Double(next.time_usec) / 1e6 <= frame {
                if case .input(let input) = translator.translate(next, screen: screen) {
                    batch.append(TimedInput(time: Double(next.time_usec) / 1e6, event: input, deviceTime: Double(next.time_usec) / 1e6))
                }
                pending = pending.dropFirst()
            }
            let effects = model.frame(&batch, completions: [], to: frame)
            if frame > 2.5 && frame < 2.85 && model.refresh.state == .armed { armedWhileHeld = true }
            if effects.refreshRequest != nil { requested = true }
        }
        #expect(pending.isEmpty)
        #expect(armedWhileHeld)
        #expect(requested == !jumpsToTheTopFirst)
    }

    /// A relative mouse moves a pointer of its own from mid-screen, kept on the screen.
    @Test func aRelativeMouseStaysOnTheScreen() {
        var translator = DeviceInputTranslator()
        #expect(translator.translate(event(OVS_INPUT_POINTER_MOTION, x: 20, y: -40), screen: screen, pixelsPerPoint: 2)
                == .input(.pointerMove(.mouse, x: 210, y: 300)))
        #expect(translator.translate(event(OVS_INPUT_POINTER_MOTION, x: -5000, y: 5000), screen: screen, pixelsPerPoint: 2)
                == .input(.pointerMove(.mouse, x: 0, y: 639.5)))
    }

    /// A pen display (libinput's tablet tool, screen-mapped): the stylus on the glass is a
    /// finger where it touches, its own pointer, taken by a touch-only kiosk; a pen lifted
    /// and put down elsewhere starts a new press there.
    @Test func aPenOnTheGlassIsAFingerOfItsOwn() {
        var translator = DeviceInputTranslator()
        func pen(_ kind: ovs_input_kind, x: Double = 0, y: Double = 0) -> InputTranslator.Output {
            var e = event(kind, x: x, y: y)
            e.device = 3
            return translator.translate(e, screen: screen)
        }
        let id = DeviceInputTranslator.pen(3)
        #expect(pen(OVS_INPUT_PEN_DOWN, x: 0.25, y: 0.5) == .input(.pointerDown(id, x: 100, y: 320)))
        #expect(pen(OVS_INPUT_PEN_MOTION, x: 0.25, y: 0.75) == .input(.pointerMove(id, x: 100, y: 480)))
        #expect(pen(OVS_INPUT_PEN_UP) == .input(.pointerUp(id)))
        #expect(pen(OVS_INPUT_PEN_DOWN, x: 1, y: 0) == .input(.pointerDown(id, x: 400, y: 0)))
        #expect(id != .mouse && id != DeviceInputTranslator.finger(0) && id != DeviceInputTranslator.pen(4))
        #expect(!InputEvent.pointerDown(id, x: 0, y: 0).isMouse)
    }

    /// A pen pulled down the list and lifted: the model pulls, arms and refreshes, as for
    /// a finger, in a kiosk that takes no mouse.
    @Test func aPenPullRefreshesInATouchOnlyKiosk() {
        var configuration = OverscrollModel.Configuration(viewportWidth: screen.width, viewportHeight: screen.height)
        configuration.acceptsMouse = false
        var model = OverscrollModel(configuration: configuration, rows: (0..<100).map { "Row \($0)" })
        var translator = DeviceInputTranslator()
        func pen(_ kind: ovs_input_kind, y: Double, at t: Double) -> [TimedInput] {
            var e = event(kind, x: 0.5, y: y)
            e.device = 1
            guard case .input(let input) = translator.translate(e, screen: screen), model.admits(input) else { return [] }
            return [TimedInput(time: t, event: input)]
        }
        model.step(pen(OVS_INPUT_PEN_DOWN, y: 0.1, at: 0), to: 0)
        for step in 1...30 {
            let t = Double(step) / 60
            model.step(pen(OVS_INPUT_PEN_MOTION, y: 0.1 + Double(step) * 0.025, at: t), to: t)
        }
        #expect(model.scroll.isDragging && model.scroll.offset < 0)
        model.step(pen(OVS_INPUT_PEN_UP, y: 0, at: 0.6), to: 0.7)
        #expect(model.refresh.isRefreshing)
    }

    @Test func theWheelScrollsIntoTheContentTowardsTheUser() {
        var translator = DeviceInputTranslator()
        #expect(translator.translate(event(OVS_INPUT_POINTER_WHEEL, y: 1), screen: screen) == .input(.wheel(dy: 48)))
        #expect(translator.translate(event(OVS_INPUT_POINTER_WHEEL, y: -2), screen: screen) == .input(.wheel(dy: -96)))
    }

    @Test func keysWithTheirModifiers() {
        var translator = DeviceInputTranslator()
        #expect(translator.translate(event(OVS_INPUT_KEY, code: KEY_ESC, pressed: true), screen: screen) == .quit)
        #expect(translator.translate(event(OVS_INPUT_KEY, code: KEY_F2, pressed: true), screen: screen) == .toggleHUD)
        #expect(translator.translate(event(OVS_INPUT_KEY, code: KEY_RIGHTSHIFT, pressed: true), screen: screen) == .ignored)
        #expect(translator.translate(event(OVS_INPUT_KEY, code: KEY_PAGEDOWN, pressed: true), screen: screen) == .input(.key(.pageDown, [.shift])))
        #expect(translator.translate(event(OVS_INPUT_KEY, code: KEY_PAGEDOWN), screen: screen) == .ignored)
        _ = translator.translate(event(OVS_INPUT_KEY, code: KEY_RIGHTSHIFT), screen: screen)
        _ = translator.translate(event(OVS_INPUT_KEY, code: KEY_LEFTCTRL, pressed: true), screen: screen)
        #expect(translator.translate(event(OVS_INPUT_KEY, code: KEY_R, pressed: true), screen: screen) == .input(.key(.r, [.ctrl])))
    }

    /// A flick on a single-touch panel read at 5 fps (a GPU-less kiosk's worst): each move
    /// at the kernel's time, as the loop places them, flings the list — no spreading guessed.
    @Test func aFlickAtTheKernelsTimesFlingsAtFiveFps() {
        var translator = DeviceInputTranslator()
        var model = OverscrollModel(configuration: .init(viewportWidth: screen.width, viewportHeight: screen.height),
                                    rows: (0..<200).map { "Row \($0)" })
        var warm = [TimedInput(time: 0, event: .wheel(dy: 2000))]
        _ = model.frame(&warm, completions: [], to: 0)
        // Kernel microseconds: down at 1.03 s, a move every 8 ms for 150 ms, 2000 pt/s upwards.
        var recorded = [event(OVS_INPUT_TOUCH_DOWN, x: 0.5, y: 0.9, usec: 1_030_000)]
        for k in 1...19 {
            recorded.append(event(OVS_INPUT_TOUCH_MOTION, x: 0.5, y: (576 - 2000 * 0.008 * Double(k)) / screen.height,
                                  usec: 1_030_000 + UInt64(k) * 8_000))
        }
        recorded.append(event(OVS_INPUT_TOUCH_UP, usec: 1_185_000))
        var speed = 0.0
        var pending = recorded[...]
        for frame in stride(from: 1.2, through: 2.2, by: 0.2) {
            var batch: [TimedInput] = []
            while let next = pending.first, Double(next.time_usec) / 1e6 <= frame {
                if case .input(let input) = translator.translate(next, screen: screen) {
                    batch.append(TimedInput(time: Double(next.time_usec) / 1e6, event: input, deviceTime: Double(next.time_usec) / 1e6))
                }
                pending = pending.dropFirst()
            }
            _ = model.frame(&batch, completions: [], to: frame)
            if pending.isEmpty { speed = max(speed, abs(model.scroll.velocity)) }
        }
        #expect(speed > 1500, "\(speed) pt/s")
    }
}

/// The one journal line each device gets.
@Suite struct InputDeviceLineTests {
    @Test func anAbsolutePointerInATouchOnlyKioskIsNamedWithTheSettingThatTakesIt() {
        let tablet = DeviceDescription(name: "QEMU QEMU USB Tablet", node: "/dev/input/event4", kinds: [.absolutePointer],
                                       range: (0...32767, 0...32767))
        let line = tablet.line(mouse: false, keyboard: false)
        #expect(line == "input: /dev/input/event4 \"QEMU QEMU USB Tablet\": absolute pointer (scaled to the screen), "
                + "range 0–32767 x 0–32767; not used; ignored a pointer: a touch-only kiosk; set mouse = true to use it")
        #expect(tablet.line(mouse: true, keyboard: false).hasSuffix("; used (pointer)"))
    }

    @Test func aPenDisplayIsUsedAsTouchAndSaysSo() {
        let pen = DeviceDescription(name: "Wacom One Pen Display", node: "/dev/input/event7", kinds: [.pen],
                                    range: (0...29434, 0...16556))
        #expect(pen.line(mouse: false, keyboard: false)
                == "input: /dev/input/event7 \"Wacom One Pen Display\": pen display (a stylus on the screen), "
                + "range 0–29434 x 0–16556; used (pen)")
    }

    @Test func aSingleTouchPanelIsUsedAndSaysSo() {
        let panel = DeviceDescription(name: "eGalax", node: "/dev/input/event2", kinds: [.touch(points: 1)],
                                      range: (0...4095, 0...4095), size: (154.2, 86), calibrated: true)
        #expect(panel.line(mouse: false, keyboard: false)
                == "input: /dev/input/event2 \"eGalax\": single-touch panel, range 0–4095 x 0–4095, 154x86 mm, "
                + "udev calibration matrix applied; used (touch)")
    }
}

/// The console's sleep until input: on libinput's descriptor and the wake pipe. What SDL's
/// own wait returns, it returns — an event queued already, one pushed from another thread
/// while it sleeps (a refresh finished, a stop), and nothing when nothing comes.
extension SDLSuite { @Suite struct ConsoleInputWaitTests {
    init() { SDL_InitSubSystem(SDL_INIT_EVENTS) }

    /// Over libinput with no device (the path backend given none).
    private func made() throws -> ConsoleInput {
        var why = [CChar](repeating: 0, count: 200)
        let input = try #require(ovs_input_open_paths(nil, 0, &why, why.count))
        return try #require(ConsoleInput(input))
    }

    private func drain() {
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {}
    }

    @Test func anEventPushedFromAnotherThreadWakesIt() throws {
        drain()
        let type = SDL_RegisterEvents(1)
        let wait = try made()
        let pusher = Thread {
            Thread.sleep(forTimeInterval: 0.1)
            var event = SDL_Event()
            event.type = type
            SDL_PushEvent(&event)
        }
        pusher.start()
        var event = SDL_Event()
        // Far longer than the push takes: the wait ends with the event, not the timeout.
        #expect(wait.wait(&event, timeoutMs: 20_000))
        #expect(event.type == type)
    }

    @Test func anEventQueuedAlreadyIsTakenAtOnce() throws {
        drain()
        let type = SDL_RegisterEvents(1)
        let wait = try made()
        var queued = SDL_Event()
        queued.type = type
        SDL_PushEvent(&queued)
        var event = SDL_Event()
        #expect(wait.wait(&event, timeoutMs: 20_000))
        #expect(event.type == type)
    }

    @Test func nothingComingIsATimeoutSlept() throws {
        drain()
        let wait = try made()
        var event = SDL_Event()
        #expect(!wait.wait(&event, timeoutMs: 300))
        #expect(wait.wakeups <= 1, "\(wait.wakeups) wake-ups")
    }

    /// The devices are let go while the screen is another's, and taken again once, when
    /// it comes back.
    @Test func theDevicesFollowTheScreen() throws {
        let input = try made()
        #expect(!input.suspended)
        input.follow(terminalIsOurs: false)
        #expect(input.suspended)
        input.follow(terminalIsOurs: false)
        #expect(input.suspended)
        input.follow(terminalIsOurs: true)
        #expect(!input.suspended)
    }

    /// A device libinput cannot open is a clear refusal, not a crash.
    @Test func aPathThatIsNoDeviceIsRefusedWithItsName() {
        var why = [CChar](repeating: 0, count: 200)
        let path = strdup("/nonexistent/event9")
        defer { free(path) }
        var paths: [UnsafePointer<CChar>?] = [UnsafePointer(path)]
        #expect(ovs_input_open_paths(&paths, 1, &why, why.count) == nil)
        #expect(String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).contains("/nonexistent/event9"))
    }
} }
