import CSDL
import Glibc

/// The threshold "tick": 80 ms of a 1.2 kHz sine with a fast exponential decay,
/// synthesized once and queued on SDL's push-model audio device. No device (a kiosk with
/// no sound card, a CI box) means one warning and silence; rendering never waits on it.
public final class FeedbackSound {
    private var device: SDL_AudioDeviceID = 0
    private var samples: [Float] = []
    public private(set) var isAvailable = false

    /// `warn` receives at most one line, when sound was wanted but cannot be played.
    public init(enabled: Bool, warn: (String) -> Void) {
        guard enabled else { return }
        if SDL_InitSubSystem(SDL_INIT_AUDIO) != 0 {
            warn("warning: no sound (\(String(cString: SDL_GetError()))); running silently. Pass --no-sound to hide this.")
            return
        }
        // Asking ALSA to open a device that is not there makes libasound print a page of
        // errors; when SDL already counts no output device, don't ask.
        if SDL_GetNumAudioDevices(0) == 0 && String(cString: SDL_GetCurrentAudioDriver()) == "alsa" {
            warn("warning: no audio output device found; running silently. Pass --no-sound to hide this.")
            SDL_QuitSubSystem(SDL_INIT_AUDIO)
            return
        }
        var want = SDL_AudioSpec()
        want.freq = 48_000
        want.format = SDL_AudioFormat(CSDL_AUDIO_F32SYS)
        want.channels = 1
        want.samples = 512
        want.callback = nil
        var have = SDL_AudioSpec()
        device = SDL_OpenAudioDevice(nil, 0, &want, &have, 0)
        guard device != 0 else {
            warn("warning: no audio device (\(String(cString: SDL_GetError()))); running silently. Pass --no-sound to hide this.")
            SDL_QuitSubSystem(SDL_INIT_AUDIO)
            return
        }
        samples = Self.tick(sampleRate: Double(want.freq))
        isAvailable = true
        SDL_PauseAudioDevice(device, 0)
    }

    deinit {
        if device != 0 {
            SDL_CloseAudioDevice(device)
            SDL_QuitSubSystem(SDL_INIT_AUDIO)
        }
    }

    /// Start the tick now, cutting off any tick still playing.
    public func play() {
        guard isAvailable else { return }
        SDL_ClearQueuedAudio(device)
        samples.withUnsafeBytes { raw in
            _ = SDL_QueueAudio(device, raw.baseAddress, UInt32(raw.count))
        }
    }

    /// Lets a tick still playing end instead of cutting it off: a run that stops right after
    /// crossing the threshold (a short replay, a quit) still sounds it whole. That takes
    /// the rest of the tick's 80 ms; a device that stopped taking samples holds the exit
    /// for a second at most.
    public func finish() {
        guard isAvailable else { return }
        let deadline = SDL_GetTicks64() + 1000
        while SDL_GetQueuedAudioSize(device) > 0 && SDL_GetTicks64() < deadline { SDL_Delay(5) }
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
