import CSDL
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// Sleeping until input under SDL's `evdev` driver (the console with DRM dumb buffers).
/// That driver has no wait of its own, so SDL 2's `SDL_WaitEventTimeout` pumps and sleeps
/// a millisecond in turn: a still kiosk spent 0.15 s of CPU a second (measured in the VM)
/// only looking. This sleeps in `poll` instead, on the input devices themselves (each
/// open of an evdev node gets its own copy of the events, drained here and never
/// interpreted: SDL reads its own) and on a pipe that every event pushed into SDL's
/// queue writes to (a refresh finished, a stop, a reload: `SDL_AddEventWatch`).
final class EvdevInputWait {
    /// The pipe's ends: the watch writes a byte, the wait reads them all.
    private let wakeFD: Int32
    private let wakeWriteFD: Int32
    /// The open input devices, and /dev/input's change time when they were listed: a
    /// device plugged in later is found at the next wait that times out.
    private var devices: [Int32] = []
    private var listed = timespec()
    private var polled: [pollfd] = []
    private var drain = [UInt8](repeating: 0, count: 4096)
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

    /// Nil where a pipe cannot be had; then SDL's own wait is used.
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        (wakeFD, wakeWriteFD) = (ends[0], ends[1])
        SDL_AddEventWatch(watch, UnsafeMutableRawPointer(bitPattern: Int(wakeWriteFD)))
        polled.reserveCapacity(32)
        list()
    }

    deinit {
        SDL_DelEventWatch(watch, UnsafeMutableRawPointer(bitPattern: Int(wakeWriteFD)))
        for fd in devices { close(fd) }
        close(wakeFD)
        close(wakeWriteFD)
    }

    /// Waits at most `timeoutMs` for an event; true with it in `event`, as
    /// `SDL_WaitEventTimeout` does.
    func wait(_ event: inout SDL_Event, timeoutMs: Int32) -> Bool {
        if SDL_PollEvent(&event) != 0 { return true }
        let deadline = MonotonicClock.now() + Double(timeoutMs) / 1000
        while true {
            let left = deadline - MonotonicClock.now()
            guard left > 0 else {
                relist()
                return false
            }
            polled.removeAll(keepingCapacity: true)
            polled.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0))
            for fd in devices { polled.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&polled, nfds_t(polled.count), Int32((left * 1000).rounded(.up)))
            if ready < 0 && errno != EINTR { return SDL_WaitEventTimeout(&event, Int32(left * 1000)) != 0 }
            if ready > 0 { wakeups += 1 }
            var gone = false
            for entry in polled where entry.revents != 0 {
                if entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { gone = true; continue }
                while drain.withUnsafeMutableBytes({ read(entry.fd, $0.baseAddress, $0.count) }) > 0 {}
            }
            if gone { relist(force: true) }
            // What woke it may be on its way into SDL's queue still (a watch is called
            // before the event is queued; SDL reads the device at its pump): a short wait
            // of SDL's own takes it.
            if ready > 0, SDL_WaitEventTimeout(&event, 10) != 0 { return true }
        }
    }

    /// Opens /dev/input's event devices again if the folder changed (a device came or
    /// went), or `force`.
    private func relist(force: Bool = false) {
        var now = stat()
        guard stat("/dev/input", &now) == 0 else { return }
        if !force, now.st_mtim.tv_sec == listed.tv_sec, now.st_mtim.tv_nsec == listed.tv_nsec { return }
        list()
    }

    private func list() {
        for fd in devices { close(fd) }
        devices.removeAll(keepingCapacity: true)
        var now = stat()
        if stat("/dev/input", &now) == 0 { listed = now.st_mtim }
        guard let folder = opendir("/dev/input") else { return }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("event") else { continue }
            let fd = open("/dev/input/" + name, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 { devices.append(fd) }
        }
    }
}
