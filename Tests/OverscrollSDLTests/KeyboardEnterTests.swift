import CWayland
import Testing

/// SDL's wl_keyboard listener behind the program's (CWayland/keyboardenter.c): what SDL's
/// handlers are given. SDL 2.32 with libxkbcommon 1.7 dies of SIGSEGV looking up a key
/// held at a virtual keyboard's first enter; the program gives SDL that enter without
/// the keys until a modifiers event has told SDL the layout. Serialized: the count of
/// enters withheld is the process's.
@Suite(.serialized) struct KeyboardEnterTests {
    /// What the stand-in for SDL's listener heard; its `data`.
    final class Heard {
        var keymaps: [(format: UInt32, fd: Int32, size: UInt32)] = []
        var enters: [[UInt32]] = []
        var leaves = 0
        var keys: [(code: UInt32, state: UInt32)] = []
        var groups: [UInt32] = []
        var repeats: [(rate: Int32, delay: Int32)] = []
    }

    static func heard(_ data: UnsafeMutableRawPointer?) -> Heard {
        Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue()
    }

    /// SDL's listener, as SDL's own would take each event.
    static let sdl = wl_keyboard_listener(
        keymap: { data, _, format, fd, size in heard(data).keymaps.append((format, fd, size)) },
        enter: { data, _, _, _, keys in
            let array = keys!.pointee
            let codes = array.data.map { Array(UnsafeBufferPointer(start: $0.assumingMemoryBound(to: UInt32.self), count: array.size / 4)) }
            heard(data).enters.append(codes ?? [])
        },
        leave: { data, _, _, _ in heard(data).leaves += 1 },
        key: { data, _, _, _, code, state in heard(data).keys.append((code, state)) },
        modifiers: { data, _, _, _, _, _, group in heard(data).groups.append(group) },
        repeat_info: { data, _, rate, delay in heard(data).repeats.append((rate, delay)) }
    )

    /// SDL's listener where it stays, as SDL's static one does: the C side keeps its address.
    nonisolated(unsafe) static let sdlTable: UnsafeMutablePointer<wl_keyboard_listener> = {
        let table = UnsafeMutablePointer<wl_keyboard_listener>.allocate(capacity: 1)
        table.initialize(to: sdl)
        return table
    }()

    /// A keyboard SDL listens on for the seat `heard` stands for: the listener libwayland
    /// would be given.
    func listen(_ heard: Heard) -> wl_keyboard_listener {
        ovs_wl_keyboard_listener(Self.sdlTable, Unmanaged.passUnretained(heard).toOpaque(), 6)!.pointee
    }

    /// An enter with `codes` held.
    func enter(_ listener: wl_keyboard_listener, _ heard: Heard, _ codes: [UInt32]) {
        var held = codes
        held.withUnsafeMutableBytes { bytes in
            var array = wl_array(size: bytes.count, alloc: bytes.count, data: bytes.baseAddress)
            listener.enter(Unmanaged.passUnretained(heard).toOpaque(), nil, 1, nil, &array)
        }
    }

    func keymap(_ listener: wl_keyboard_listener, _ heard: Heard) {
        listener.keymap(Unmanaged.passUnretained(heard).toOpaque(), nil, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, -1, 100)
    }

    func modifiers(_ listener: wl_keyboard_listener, _ heard: Heard, group: UInt32 = 0) {
        listener.modifiers(Unmanaged.passUnretained(heard).toOpaque(), nil, 2, 0, 0, 0, group)
    }

    @Test func aKeyHeldAtTheFirstEnterIsWithheldUntilTheLayoutIsKnown() {
        let heard = Heard()
        let listener = listen(heard)
        let before = ovs_wl_keyboard_keys_withheld()
        keymap(listener, heard)
        enter(listener, heard, [1])
        #expect(heard.enters == [[]])
        #expect(ovs_wl_keyboard_keys_withheld() == before + 1)
        modifiers(listener, heard)
        listener.leave(Unmanaged.passUnretained(heard).toOpaque(), nil, 3, nil)
        enter(listener, heard, [1, 42])
        #expect(heard.enters == [[], [1, 42]])
        #expect(heard.groups == [0] && heard.leaves == 1)
        #expect(ovs_wl_keyboard_keys_withheld() == before + 1)
    }

    @Test func anEnterWithNoKeysIsNotCounted() {
        let heard = Heard()
        let listener = listen(heard)
        let before = ovs_wl_keyboard_keys_withheld()
        keymap(listener, heard)
        enter(listener, heard, [])
        #expect(heard.enters == [[]])
        #expect(ovs_wl_keyboard_keys_withheld() == before)
    }

    /// SDL sets no layout from modifiers that come before any keymap (it has no state yet).
    @Test func modifiersBeforeAKeymapTellSDLNoLayout() {
        let heard = Heard()
        let listener = listen(heard)
        modifiers(listener, heard)
        keymap(listener, heard)
        enter(listener, heard, [1])
        #expect(heard.enters == [[]])
    }

    /// A keyboard made again for a seat starts unknown: SDL may have made a new input at
    /// the address of one it freed. Each Heard here may be at a freed one's address too.
    @Test func aKeyboardMadeAgainStartsUnknown() {
        let heard = Heard()
        let first = listen(heard)
        keymap(first, heard)
        enter(first, heard, [])
        modifiers(first, heard, group: 1)
        enter(first, heard, [7])
        let again = listen(heard)
        keymap(again, heard)
        enter(again, heard, [7])
        modifiers(again, heard)
        enter(again, heard, [7])
        #expect(heard.enters == [[], [7], [], [7]])
        #expect(heard.groups == [1, 0])
    }

    @Test func everyOtherEventReachesSDLAsSent() {
        let heard = Heard()
        let listener = listen(heard)
        let data = Unmanaged.passUnretained(heard).toOpaque()
        listener.keymap(data, nil, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, 9, 22573)
        listener.key(data, nil, 4, 1000, 30, 1)
        listener.key(data, nil, 5, 1001, 30, 0)
        listener.repeat_info(data, nil, 25, 600)
        #expect(heard.keymaps.map { [$0.format, UInt32($0.fd), $0.size] } == [[1, 9, 22573]])
        #expect(heard.keys.map { [$0.code, $0.state] } == [[30, 1], [30, 0]])
        #expect(heard.repeats.map { [$0.rate, $0.delay] } == [[25, 600]])
    }

    /// A wl_keyboard with events the program's listener does not have keeps SDL's alone.
    @Test func aKeyboardOfMoreEventsKeepsSDLsListener() {
        let heard = Heard()
        let sdl = UnsafePointer(Self.sdlTable)
        #expect(ovs_wl_keyboard_listener(sdl, Unmanaged.passUnretained(heard).toOpaque(), 7) == sdl)
        #expect(ovs_wl_keyboard_listener(sdl, nil, 6) == sdl)
    }
}
