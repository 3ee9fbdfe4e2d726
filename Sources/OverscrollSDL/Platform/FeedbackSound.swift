import CSDL
import Glibc
import OverscrollKit
import Synchronization
import Workers

/// The threshold "tick": 80 ms of a 1.2 kHz sine with a fast exponential decay,
/// synthesized once and queued on SDL's push-model audio device. No device (a kiosk with
/// no sound card, a CI box) means one warning and silence; rendering never waits on it.
///
/// The device is open only around touches. An open SDL 2.26 device has a thread that
/// wakes every buffer (about 100 times a second), paused or not (`SDL_RunAudio` plays
/// silence while paused), and ALSA's hot-plug thread polls ten times a second while the
/// audio subsystem is up: an idle kiosk must not wake for either. So a worker of its own
/// ("sound") starts the subsystem and opens the device when a touch begins (`prepare`:
/// the finger needs well over 100 ms to pull to the threshold, the device opens in a few
/// ms), queues the tick (`play`), and closes both `idleClose` seconds after the last
/// input event (its time, stored by the frame loop: a release the worker only noticed when
/// it woke at the press's deadline once counted from then, closing after 10 s, not 5). The frame loop only bumps counters and, when the device is closed, wakes the
/// worker: it never waits on an open or a close.
public final class FeedbackSound {
    /// Seconds without input before the device closes.
    static let idleClose = 5.0
    /// A device stays open at least this long (two of its buffers): a run that ends right
    /// after a touch still plays through the device.
    static let minimumOpen = 0.05

    /// The frame loop's requests to the worker.
    private final class Requests: Sendable {
        /// Bumped for every frame in which a touch began (or a key went down): the worker
        /// opens the device.
        let touches = Atomic<Int>(0)
        /// The monotonic time (`Double.bitPattern`) of the last frame with input (a finger
        /// moving, a hovering mouse too): the worker closes `idleClose` seconds after it.
        let lastInput = Atomic<UInt64>(0)
        /// Bumped for every tick.
        let plays = Atomic<Int>(0)
        /// Whether the device is open or being opened: while it is, input need not wake
        /// the worker (it looks at `lastInput` before it closes).
        let open = Atomic<Bool>(false)
    }

    private let requests = Requests()
    private let worker: Worker?

    /// `warn` receives at most one line, when sound was wanted but cannot be played. The
    /// device is opened once here, to say so at start, and closed again.
    public init(enabled: Bool, warn: (String) -> Void) {
        guard enabled, Self.check(warn: warn) else {
            worker = nil
            return
        }
        let requests = requests
        let samples = Self.tick(sampleRate: Double(Self.spec.freq))
        worker = Worker(name: "sound") { signal in
            Self.serve(requests, samples: samples, signal: signal)
        }
        if worker == nil { warn("warning: no sound (no thread for it); running silently. Pass --no-sound to hide this.") }
    }

    deinit { worker?.stopAndJoin() }

    /// A frame's input: a touch that began (or a key) has the device opened for a tick;
    /// any input keeps an open one open. An atomic operation or two; a wake-up only when a
    /// touch begins with the device closed.
    public func prepare(touchBegan: Bool) {
        guard let worker else { return }
        requests.lastInput.store(MonotonicClock.now().bitPattern, ordering: .sequentiallyConsistent)
        guard touchBegan else { return }
        requests.touches.add(1, ordering: .sequentiallyConsistent)
        if !requests.open.load(ordering: .sequentiallyConsistent) { worker.wake() }
    }

    /// Start the tick now, cutting off any tick still playing.
    public func play() {
        guard let worker else { return }
        requests.plays.add(1, ordering: .sequentiallyConsistent)
        worker.wake()
    }

    /// Lets a tick still playing end instead of cutting it off: a run that stops right after
    /// crossing the threshold (a short replay, a quit) still sounds it whole. That takes
    /// the rest of the tick's 80 ms; a device that stopped taking samples holds the exit
    /// for a second at most. Sound stops here.
    public func finish() { worker?.stopAndJoin() }

    /// 48 kHz mono floats, 512-sample buffers, pushed (no callback).
    private static var spec: SDL_AudioSpec {
        var want = SDL_AudioSpec()
        want.freq = 48_000
        want.format = SDL_AudioFormat(CSDL_AUDIO_F32SYS)
        want.channels = 1
        want.samples = 512
        want.callback = nil
        return want
    }

    /// Whether there is a device at start (if not, one warning).
    private static func check(warn: (String) -> Void) -> Bool {
        if SDL_InitSubSystem(SDL_INIT_AUDIO) != 0 {
            warn("warning: no sound (\(String(cString: SDL_GetError()))); running silently. Pass --no-sound to hide this.")
            return false
        }
        defer { SDL_QuitSubSystem(SDL_INIT_AUDIO) }
        // Asking ALSA to open a device that is not there makes libasound print a page of
        // errors; when SDL already counts no output device, don't ask.
        if SDL_GetNumAudioDevices(0) == 0 && String(cString: SDL_GetCurrentAudioDriver()) == "alsa" {
            warn("warning: no audio output device found; running silently. Pass --no-sound to hide this.")
            return false
        }
        var want = spec
        let device = SDL_OpenAudioDevice(nil, 0, &want, nil, 0)
        guard device != 0 else {
            warn("warning: no audio device (\(String(cString: SDL_GetError()))); running silently. Pass --no-sound to hide this.")
            return false
        }
        SDL_CloseAudioDevice(device)
        return true
    }

    /// The worker: opens on input, queues ticks, closes when idle, and at a stop lets the
    /// tick end (a second at most) and closes.
    private static func serve(_ requests: Requests, samples: [Float], signal: Worker.Signal) {
        var device: SDL_AudioDeviceID = 0
        var openedAt = 0.0, lastUse = 0.0
        var seenTouches = 0, seenPlays = 0
        while true {
            let stopping = signal.isStopping
            let touches = requests.touches.load(ordering: .sequentiallyConsistent)
            let lastInput = Double(bitPattern: requests.lastInput.load(ordering: .sequentiallyConsistent))
            let plays = requests.plays.load(ordering: .sequentiallyConsistent)
            lastUse = max(lastUse, lastInput)
            if plays != seenPlays { lastUse = max(lastUse, MonotonicClock.now()) }
            if touches != seenTouches || plays != seenPlays {
                seenTouches = touches
                if device == 0 {
                    requests.open.store(true, ordering: .sequentiallyConsistent)
                    device = open()
                    openedAt = MonotonicClock.now()
                    // No device now (unplugged): the next input tries again.
                    if device == 0 { requests.open.store(false, ordering: .sequentiallyConsistent) }
                }
            }
            if plays != seenPlays {
                seenPlays = plays
                if device != 0 {
                    SDL_ClearQueuedAudio(device)
                    samples.withUnsafeBytes { _ = SDL_QueueAudio(device, $0.baseAddress, UInt32($0.count)) }
                }
            }
            let now = MonotonicClock.now()
            if stopping {
                if device != 0 {
                    let deadline = now + 1
                    while SDL_GetQueuedAudioSize(device) > 0 && MonotonicClock.now() < deadline { SDL_Delay(5) }
                    let open = MonotonicClock.now() - openedAt
                    if open < minimumOpen { MonotonicClock.sleep(minimumOpen - open) }
                    close(device)
                    requests.open.store(false, ordering: .sequentiallyConsistent)
                }
                return
            }
            guard device != 0 else {
                signal.sleep(3600)
                continue
            }
            let closeAt = max(lastUse + idleClose, openedAt + minimumOpen)
            if now >= closeAt && SDL_GetQueuedAudioSize(device) == 0 {
                close(device)
                device = 0
                // A touch that began while closing saw the device open and did not wake
                // this thread: the next turn finds it in `touches` and opens again.
                requests.open.store(false, ordering: .sequentiallyConsistent)
                continue
            }
            signal.sleep(max(closeAt - now, 0.01))
        }
    }

    private static func open() -> SDL_AudioDeviceID {
        guard SDL_InitSubSystem(SDL_INIT_AUDIO) == 0 else { return 0 }
        var want = spec
        let device = SDL_OpenAudioDevice(nil, 0, &want, nil, 0)
        if device == 0 {
            SDL_QuitSubSystem(SDL_INIT_AUDIO)
            return 0
        }
        SDL_PauseAudioDevice(device, 0)
        return device
    }

    private static func close(_ device: SDL_AudioDeviceID) {
        SDL_CloseAudioDevice(device)
        SDL_QuitSubSystem(SDL_INIT_AUDIO)
    }

    static func tick(sampleRate: Double, duration: Double = 0.08, frequency: Double = 1200) -> [Float] {
        let count = Int(sampleRate * duration)
        return (0..<count).map { i in
            let t = Double(i) / sampleRate
            // 2 ms attack so the start does not click; exp(-40 t) decay.
            let envelope = min(1, t / 0.002) * exp(-40 * t)
            return Float(0.4 * envelope * sin(2 * Double.pi * frequency * t))
        }
    }
}

extension InputEvent {
    /// A touch that may be on its way to the threshold, or a key that may refresh: the
    /// sound device is opened for it.
    var beginsTouch: Bool {
        switch self {
        case .pointerDown, .key: true
        case .pointerMove, .wheel, .pointerUp, .pointerCancel, .resize, .refreshCompleted: false
        }
    }
}
