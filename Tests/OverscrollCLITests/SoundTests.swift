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
        let samples = Self.samples(raw)
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

    /// The live window keeps the device closed while idle (the disk driver's file does not
    /// grow), opens it when a touch begins, and the pull that touch makes past the
    /// threshold is heard.
    @Test func aTouchOpensTheDeviceInTimeForTheTick() throws {
        let server = try #require(try XServer())
        let raw = CLI.temporaryPath("live-audio.raw")
        let app = try LiveApp([], on: server, environment: ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": raw])
        let window = try #require(try server.window(named: "Overscroll"))
        Thread.sleep(forTimeInterval: 0.5)
        let idleSize = Self.samples(raw).count
        Thread.sleep(forTimeInterval: 1)
        #expect(Self.samples(raw).count == idleSize, "the device ran while the window was idle")
        try server.tool("xdotool", ["mousemove", "--window", window, "240", "150", "mousedown", "1"])
        for y in stride(from: 160, through: 700, by: 20) {
            try server.tool("xdotool", ["mousemove", "--window", window, "240", "\(y)"])
        }
        var loud = 0
        for _ in 0..<400 where loud <= 1000 {
            Thread.sleep(forTimeInterval: 0.05)
            loud = Self.samples(raw).filter { abs($0) > 0.01 }.count
        }
        #expect(loud > 1000, "no tick in the file after a pull past the threshold: \(app.stderr)")
        try server.tool("xdotool", ["mouseup", "1"])
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 5) == 0)
    }

    /// The device closes 5 s after the last input event, however the worker learnt of it:
    /// a press (which opens the device) and a release sent as two events once kept it
    /// open 10 s, the release noticed only at the press's deadline and counted from then.
    /// SDL's disk driver writes 512 samples per 10 ms or slower while the device is open,
    /// so the file's length bounds how long it was: 7.5 s at most (10 s is 480 000 or more).
    @Test func theDeviceClosesFiveSecondsAfterTheLastInputEvent() throws {
        let server = try #require(try XServer())
        let raw = CLI.temporaryPath("close-audio.raw")
        let app = try LiveApp([], on: server, environment: ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": raw])
        let window = try #require(try server.window(named: "Overscroll"))
        try server.tool("xdotool", ["mousemove", "--window", window, "240", "300"])
        Thread.sleep(forTimeInterval: 1)
        let before = Self.samples(raw).count
        try server.tool("xdotool", ["mousedown", "1"])
        Thread.sleep(forTimeInterval: 0.3)
        try server.tool("xdotool", ["mouseup", "1"])
        // Poll until the file has stopped growing for 1.5 s: the device closed.
        var count = Self.samples(raw).count, stillSince = Date()
        let giveUp = Date().addingTimeInterval(40)
        while Date().timeIntervalSince(stillSince) < 1.5 && Date() < giveUp {
            Thread.sleep(forTimeInterval: 0.1)
            let now = Self.samples(raw).count
            if now != count { count = now; stillSince = Date() }
        }
        let written = count - before
        #expect(written > 0, "the press did not open the device: \(app.stderr)")
        #expect(written <= 384_000, "\(written) samples: the device stayed open about \(written / 48_000) s after the press")
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 5) == 0)
    }

    static func samples(_ path: String) -> [Float] {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
