import CInput
import CSDL
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// The console's input (SDL's `evdev` and `kmsdrm` drivers) read through libinput, as Qt's
/// libinput plugin and Wayland compositors read it, instead of SDL 2's evdev code (which
/// loses a single-touch panel's moves and takes an absolute pointer's raw units as pixels):
/// udev's seat with its hot-plug and calibration matrix, the kernel's time on every event.
/// It is also the loop's sleep until input: `poll` on libinput's descriptor and on a pipe
/// that every event pushed into SDL's queue writes to (a refresh finished, a stop, a reload).
final class ConsoleInput {
    private let input: OpaquePointer
    private var translator = DeviceInputTranslator()
    /// The pipe's ends: the watch writes a byte, the wait reads them all.
    private let wakeFD: Int32
    private let wakeWriteFD: Int32
    private var polled = [pollfd](repeating: pollfd(), count: 2)
    private var drain = [UInt8](repeating: 0, count: 256)
    private var event = ovs_input_event()
    /// How many times `poll` returned with something to read (tests: a still wait wakes
    /// for nothing).
    private(set) var wakeups = 0
    private let watch: SDL_EventFilter = { userdata, event in
        // SDL pushes a sentinel at each of its pumps (a wait's own among them): waking for
        // it would turn the sleep into SDL's busy one again.
        if event?.pointee.type == SDL_POLLSENTINEL.rawValue { return 1 }
        // Any thread, any other event: one write, no allocation; a full pipe is awake already.
        var one: UInt8 = 1
        _ = write(Int32(Int(bitPattern: userdata)), &one, 1)
        return 1
    }

    /// The console's input where the platform's row reads input through libinput
    /// (`Platform.Input`), or nil where SDL reads input itself (a window under X11 or
    /// Wayland) or libinput cannot be had (`why` says).
    static func open(for platform: Platform, why: inout String) -> ConsoleInput? {
        guard platform.input == .libinput else { return nil }
        var text = [CChar](repeating: 0, count: 256)
        guard let made = ovs_input_open_udev("seat0", &text, text.count) else {
            why = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return nil
        }
        guard let input = ConsoleInput(made) else {
            ovs_input_close(made)
            why = "no pipe for the wait: \(String(cString: strerror(errno)))"
            return nil
        }
        return input
    }

    /// Over an opened libinput (the tests' path backend); nil where a pipe cannot be had.
    init?(_ input: OpaquePointer) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        (wakeFD, wakeWriteFD) = (ends[0], ends[1])
        self.input = input
        SDL_AddEventWatch(watch, UnsafeMutableRawPointer(bitPattern: Int(wakeWriteFD)))
    }

    deinit {
        SDL_DelEventWatch(watch, UnsafeMutableRawPointer(bitPattern: Int(wakeWriteFD)))
        ovs_input_close(input)
        close(wakeFD)
        close(wakeWriteFD)
    }

    /// Whether `event` is SDL's reading of a device this reads too (SDL's KMSDRM driver
    /// starts its evdev code whatever the program wants): dropped, or each touch counts twice.
    static func readsAlso(_ event: SDL_Event) -> Bool {
        switch SDL_EventType(event.type) {
        case SDL_FINGERDOWN, SDL_FINGERMOTION, SDL_FINGERUP, SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP,
             SDL_MOUSEMOTION, SDL_MOUSEWHEEL, SDL_KEYDOWN, SDL_KEYUP, SDL_TEXTINPUT:
            return true
        default:
            return false
        }
    }

    /// Waits at most `timeoutMs` for input; true when woken, as `SDL_WaitEventTimeout`:
    /// with SDL's event in `event`, or with `event.type` 0 (none of SDL's: the devices
    /// have something, which `take` reads).
    func wait(_ event: inout SDL_Event, timeoutMs: Int32) -> Bool {
        if SDL_PollEvent(&event) != 0 { return true }
        let deadline = MonotonicClock.now() + Double(timeoutMs) / 1000
        while true {
            let left = deadline - MonotonicClock.now()
            guard left > 0 else { return false }
            polled[0] = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
            polled[1] = pollfd(fd: ovs_input_fd(input), events: Int16(POLLIN), revents: 0)
            let ready = poll(&polled, nfds_t(polled.count), Int32((left * 1000).rounded(.up)))
            if ready < 0 && errno != EINTR { return SDL_WaitEventTimeout(&event, Int32(left * 1000)) != 0 }
            guard ready > 0 else { continue }
            wakeups += 1
            if polled[1].revents != 0 {
                event = SDL_Event()
                return true
            }
            while drain.withUnsafeMutableBytes({ read(wakeFD, $0.baseAddress, $0.count) }) > 0 {}
            // The watch is called before the event is queued: a short wait of SDL's takes it.
            if SDL_WaitEventTimeout(&event, 10) != 0 { return true }
        }
    }

    /// Reads what the devices sent since the last call (never blocks) and hands each input
    /// to `body` with its time on the kernel's clock (CLOCK_MONOTONIC seconds); a device
    /// that came is described to `describe` once. Allocates nothing for touch, pointer or key.
    func take(screen: (width: Double, height: Double), pixelsPerPoint: Double,
              describe: (DeviceDescription) -> Void, _ body: (InputTranslator.Output, Double) -> Void) {
        _ = ovs_input_dispatch(input)
        while ovs_input_next(input, &event) != 0 {
            switch event.kind {
            case OVS_INPUT_DEVICE_ADDED:
                var device = ovs_input_device()
                ovs_input_added_device(input, &device)
                describe(DeviceDescription(device))
            case OVS_INPUT_DEVICE_REMOVED:
                break
            default:
                body(translator.translate(event, screen: screen, pixelsPerPoint: pixelsPerPoint), Double(event.time_usec) / 1e6)
            }
        }
    }

    /// Whether the devices are let go (`follow`).
    private(set) var suspended = false

    /// Reads the devices only while the screen is ours: while another VT is shown, a
    /// touch is meant for that VT's program (a getty, a compositor), and the list must not
    /// move under it unseen. libinput lets go of the devices (a finger down is lifted:
    /// its neutral state) and takes them again, as they are then, when the VT comes back.
    func follow(terminalIsOurs: Bool) {
        guard suspended == terminalIsOurs else { return }
        suspended = !terminalIsOurs
        ovs_input_suspend(input, suspended ? 1 : 0)
    }
}
