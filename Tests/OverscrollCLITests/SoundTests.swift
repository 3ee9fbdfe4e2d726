import Foundation
import Testing

/// The tick on SDL's `disk` audio driver, which writes the device's samples to a file.
@Suite struct SoundTests {
    /// Float32 samples the run wrote, and how many are not silence.
    func record(_ script: String, extra: [String] = []) throws -> (samples: Int, loud: Int) {
        let raw = CLI.temporaryPath("audio.raw")
        let result = try CLI.run(["replay", script] + extra,
                                 environment: ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": raw])
        #expect(result.status == 0, "\(result.stderr)")
        let data = (try? Data(contentsOf: URL(fileURLWithPath: raw))) ?? Data()
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return (samples.count, samples.filter { abs($0) > 0.01 }.count)
    }

    @Test func crossingTheThresholdTicks() throws {
        let (samples, loud) = try record("Assets/gestures/pull-to-refresh.txt")
        // However fast the replay runs, the tick is heard to its end before the device closes.
        #expect(samples >= 3840)         // the device ran at least the tick's 80 ms at 48 kHz
        #expect(loud > 1000)             // an 80 ms tick at 48 kHz, decaying
    }

    @Test func noCrossingMeansSilence() throws {
        let (samples, loud) = try record("Assets/gestures/pull-release.txt")
        #expect(samples > 0)
        #expect(loud == 0)
    }

    @Test func noSoundMeansSilenceEvenWhenCrossing() throws {
        let (_, loud) = try record("Assets/gestures/pull-to-refresh.txt", extra: ["--no-sound"])
        #expect(loud == 0)
    }

    @Test func noAudioDeviceIsOneWarningAndTheRunGoesOn() throws {
        let result = try CLI.run(["replay", "Assets/gestures/pull-to-refresh.txt"],
                                 environment: ["SDL_AUDIODRIVER": "nosuchdriver"])
        #expect(result.status == 0)
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("sound") || $0.contains("audio") }
        #expect(warnings.count == 1, "\(result.stderr)")
    }
}
