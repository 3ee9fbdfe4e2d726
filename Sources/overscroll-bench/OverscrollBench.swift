// overscroll-bench: prints the figures docs/performance.md and the closing notes quote, and fuzzes
// the model. Each measuring mode runs several times and prints medians; machines are noisy.
import ArgumentParser
import CSDL
import Foundation
import FrameReports
import MallocInterposerSwift
import OverscrollKit
import OverscrollSDL
import RowSources

@main
struct OverscrollBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overscroll-bench",
        abstract: "Figures (frames, allocations, arc, profiler, physics, soak, text, flick, rotation, latency), a fuzzer (fuzz) and a headless frame (picture) for Overscroll.",
        discussion: "The rows are the program's built-in sample; gesture scripts are found next to the executable (or in $OVERSCROLL_ASSETS), so it runs from any directory.",
        subcommands: [Frames.self, Allocations.self, Arc.self, Profiler.self, Physics.self, Soak.self, Text.self, Fuzz.self, Picture.self, Flick.self, Rotation.self, Latency.self]
    )

    static func main() {
        setenv("SDL_AUDIODRIVER", "dummy", 0)
        main(nil)
    }
}

/// `WxH` in points, each side 64 or more.
struct SizeOption: ExpressibleByArgument {
    var width: Int
    var height: Int
    init(width: Int, height: Int) { self.width = width; self.height = height }
    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ (64...16384).contains($0) }) else { return nil }
        (width, height) = (parts[0], parts[1])
    }
    var description: String { "\(width)x\(height)" }
}

struct Frames: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "CPU ms per frame of a headless replay (p50, p99) and frames/s.",
        discussion: """
            Back to back, a replay's frames find their code and data in the caches. A live frame \
            does not: during its 16 ms sleep the display server and other processes run. \
            --evict-mib writes that much scratch memory before each frame, outside the frame's \
            CPU time, so the figures are those of frames that start cold. Use more than the \
            last-level cache (lscpu: L3).
            """)
    @Option(help: ArgumentHelp("Window size.", valueName: "WxH")) var size = SizeOption(width: 480, height: 800)
    @Option(help: "Runs (the median is printed).") var runs = 5
    @Option(help: ArgumentHelp("Gesture script (default: the package's benchmark.txt).", valueName: "file")) var script: String?
    @Option(help: ArgumentHelp("MiB of memory written before each frame (0: frames run warm).", valueName: "MiB"))
    var evictMib = 0

    func validate() throws {
        guard runs > 0 else { throw ValidationError("--runs must be a positive whole number") }
        guard (0...4096).contains(evictMib) else { throw ValidationError("--evict-mib must be 0…4096 (MiB written before each frame)") }
    }

    func run() {
        let (path, parsed) = Bench.script(script, default: "benchmark.txt")
        let scratch = CacheEvictor(bytes: evictMib << 20)
        var p50s: [Double] = [], p99s: [Double] = [], fps: [Double] = []
        for _ in 0..<runs {
            let r = Bench.runner(script: parsed, size: size, beforeFrame: evictMib > 0 ? scratch.evict : nil)
            let start = MonotonicClock.now()
            let result = r.run()
            let elapsed = MonotonicClock.now() - start
            guard let cpu = r.profiler.overall.cpuPercentiles else { Bench.fail("no frames were recorded", code: 70) }
            p50s.append(cpu.p50)
            p99s.append(cpu.p99)
            fps.append(Double(result.summary.frames) / elapsed)
        }
        let cold = evictMib > 0 ? ", each frame after \(evictMib) MiB written (cold caches)" : ""
        print("frames: \(path) at \(size.description), \(runs) runs (median of runs)\(cold)")
        print("  cpu ms/frame p50 \(Bench.format(Bench.median(p50s)))  p99 \(Bench.format(Bench.median(p99s)))  headless replay \(Int(Bench.median(fps))) frames/s")
    }
}

/// Scratch memory written in full on each `evict`: whatever the caches held before is gone.
final class CacheEvictor {
    private let memory: UnsafeMutableRawPointer
    private let bytes: Int
    private var value: UInt8 = 0

    init(bytes: Int) {
        self.bytes = bytes
        memory = .allocate(byteCount: max(bytes, 1), alignment: 64)
    }

    deinit { memory.deallocate() }

    func evict() {
        value &+= 1        // a new value each time, so no write can be skipped
        memory.initializeMemory(as: UInt8.self, repeating: value, count: bytes)
    }
}

struct Allocations: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Heap allocations per steady-state frame (re-runs itself with the malloc interposer preloaded).")
    @Option(help: ArgumentHelp("Gesture script (default: the package's bounce-bottom.txt).", valueName: "file")) var script: String?
    @Option(help: "Extra playthroughs in the long run.") var repeats = 4
    @Option(name: .customLong("at-most"), help: ArgumentHelp("Exit 1 if a steady frame allocates more than this on average (script/test: 0.05, on the release build).", valueName: "n"))
    var atMost: Double?
    @Flag(help: "Draw in a window (needs a display): on X11 the list goes through its shared-memory ring.") var window = false

    func validate() throws {
        guard repeats > 0 else { throw ValidationError("--repeats must be a positive whole number") }
        if let atMost, !(atMost >= 0) { throw ValidationError("--at-most must be a number of allocations, 0 or more") }
    }

    func run() {
        // Steady state: the same gestures (no refresh, which adds rows) replayed again and
        // again, so every text texture is already cached after the first playthrough. The
        // difference between a long and a short run divides out the setup's allocations.
        let parsed = Bench.script(script, default: "bounce-bottom.txt").script
        let extra = repeats
        func measure(_ repeats: Int) -> (frames: Int, mallocs: Int, bytes: Int) {
            let r = Bench.runner(script: parsed, size: SizeOption(width: 480, height: 800), repeats: repeats, window: window)
            MallocInterposerSwift.reset()
            MallocInterposerSwift.hook()
            let result = r.run()
            MallocInterposerSwift.unhook()
            let stats = MallocInterposerSwift.getStatistics()
            return (result.summary.frames, stats.mallocCount, stats.mallocBytesCount)
        }
        guard ProcessInfo.processInfo.environment["LD_PRELOAD"]?.contains("MallocInterposer") == true else {
            // The interposer counts only when preloaded: run again with it.
            let library = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
                .deletingLastPathComponent().appendingPathComponent("libMallocInterposerSwift.so").path
            guard FileManager.default.fileExists(atPath: library) else { Bench.fail("\(library) is missing; build the package first", code: 69) }
            setenv("LD_PRELOAD", library, 1)
            let argv = CommandLine.arguments.map { strdup($0) } + [nil]
            execv(CommandLine.arguments[0], argv)
            Bench.fail("cannot re-run with the malloc interposer: \(String(cString: strerror(errno)))", code: 71)
        }
        MallocInterposerSwift.initialize()
        // The model alone (input → model → scene), without SDL, over the same gestures.
        func modelOnly(_ repeats: Int) -> (frames: Int, mallocs: Int) {
            var model = Bench.settings().makeModel(width: 480, height: 800)
            var driver = ReplayDriver(script: parsed, fps: 60, repeats: repeats)
            var sink = 0.0
            var scene = Scene()
            MallocInterposerSwift.reset()
            MallocInterposerSwift.hook()
            driver.play(&model) { _, model in
                scene.update(model: model)
                sink += scene.contentTop + Double(UIState(model: model).rawValue.count)
                return true
            }
            MallocInterposerSwift.unhook()
            if sink.isNaN { print(sink) }
            return (driver.frame, MallocInterposerSwift.getStatistics().mallocCount)
        }
        let m1 = modelOnly(1), m2 = modelOnly(1 + extra)
        print("allocations, model + scene only: \(Bench.format(Double(m2.mallocs - m1.mallocs) / Double(m2.frames - m1.frames), 4)) per frame")
        var perFrame: [Double] = []
        for _ in 0..<3 {
            let short = measure(1), long = measure(1 + extra)
            perFrame.append(Double(long.mallocs - short.mallocs) / Double(long.frames - short.frames))
        }
        let median = Bench.median(perFrame)
        print("allocations: \(Bench.format(median, 4)) heap allocations per steady-state frame (median of 3; whole frame: model, scene, SDL drawing, profiler)")
        if let atMost, median > atMost {
            Bench.fail("a steady frame allocates \(Bench.format(median, 4)) times on average, more than --at-most \(atMost): something on a frame's path allocates (a breakpoint on malloc after the first playthrough finds it)", code: 1)
        }
    }
}

struct Arc: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Cost of building and drawing the indicator arc, software renderer.")
    @Option(help: "Runs (the median is printed).") var runs = 7

    func validate() throws { guard runs > 0 else { throw ValidationError("--runs must be a positive whole number") } }

    func run() {
        let display: Display
        do { display = try Display(.headless(width: 480, height: 800)) } catch { Bench.fail(error.description, code: 69) }
        var mesh = ArcMesh()
        var perFrame: [Double] = []
        for _ in 0..<runs {
            let n = 2000
            let start = MonotonicClock.now()
            for i in 0..<n {
                // The refresh indicator at 1x: disc, then the arc, as the painter draws them.
                mesh.buildDisc(cx: 240, cy: 40, radius: 20, color: Palette.indicatorDisc, opacity: 1)
                mesh.draw(display.renderer)
                mesh.build(cx: 240, cy: 40, radius: 12, thickness: 3, startTurns: Double(i) * 0.01, sweepTurns: 0.8,
                           color: Palette.accent, opacity: 1)
                mesh.draw(display.renderer)
                SDL_RenderFlush(display.renderer)
            }
            perFrame.append((MonotonicClock.now() - start) / Double(n) * 1e6)
        }
        print("arc: \(Bench.format(Bench.median(perFrame), 1)) µs per frame to build, submit and rasterize the indicator (disc + arc), software renderer, median of \(runs)")
    }
}

struct Profiler: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Cost of the always-on profiler per frame and per clock mark.")

    func run() {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        var perFrame: [Double] = [], perMark: [Double] = []
        for _ in 0..<7 {
            let n = 200_000
            var start = MonotonicClock.now()
            var sink = 0.0
            for _ in 0..<n { sink += MonotonicClock.now() }
            perMark.append((MonotonicClock.now() - start) / Double(n) * 1e9)
            start = MonotonicClock.now()
            for i in 0..<n {
                let t = Double(i) / 60
                profiler.record(FrameTiming(frame: i, frameStart: t, inputDone: t + 0.0001, updateDone: t + 0.0002,
                                            renderDone: t + 0.001, presentStart: t + 0.001, presentDone: t + 0.002,
                                            interval: 1.0 / 60, latency: i % 3 == 0 ? 0.01 : nil, state: .idle))
            }
            perFrame.append((MonotonicClock.now() - start) / Double(n) * 1e9)
            if sink < 0 { print(sink) }
        }
        print("profiler: \(Int(Bench.median(perMark))) ns per clock mark, \(Int(Bench.median(perFrame))) ns per frame to record (histograms, counts, HUD ring); median of 7")
    }
}

struct Physics: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Fling distance, spring-back settle time, bounce overshoot.")

    func run() {
        // The feel's headline numbers, from the same types the app runs.
        let profile = PhysicsProfile.ios
        let fling = FrictionSimulation(position: 0, velocity: 3000, decelerationRate: profile.decelerationRate,
                                       tolerance: profile.tolerance)
        let spring = SpringSimulation(spring: profile.spring, start: -100, end: 0, velocity: 0, tolerance: profile.tolerance)
        let bounce = BallisticSimulation(position: 4700, velocity: 3000, range: 0...4800, profile: profile)
        let overshoot = stride(from: 0.0, to: 5, by: 0.0005).map { bounce.x($0) }.max()! - 4800
        print("physics: a 3000 pt/s fling travels \(Bench.format(fling.finalX, 1)) pt and stops after \(Bench.format(fling.duration, 2)) s")
        print("  spring-back from 100 pt of overscroll settles (within 0.25 pt, under 5 pt/s) in \(Bench.format(spring.settleTime, 3)) s")
        print("  a 3000 pt/s fling 100 pt from the bottom overshoots it by \(Bench.format(overshoot, 1)) pt and rests on it")
    }
}

struct Soak: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "RSS at the start and end of a long uncapped replay.")
    @Option(help: "Frames to run.") var frames = 1_000_000
    @Option(help: ArgumentHelp("Window size.", valueName: "WxH")) var size = SizeOption(width: 240, height: 400)
    @Option(help: ArgumentHelp("Gesture script (default: the package's benchmark.txt).", valueName: "file")) var script: String?

    func validate() throws { guard frames > 0 else { throw ValidationError("--frames must be a positive whole number") } }

    func run() {
        // Uncapped and headless on the dummy driver (no EGL copy per frame) unless the
        // environment says otherwise: the point is memory over a million frames.
        setenv("SDL_VIDEODRIVER", "dummy", 0)
        let parsed = Bench.script(script, default: "benchmark.txt").script
        // Each playthrough is about 1 300 frames at 60 fps.
        let perPlay = max(1, Int(parsed.duration * 60) + 120)
        let startRSS = Bench.rssKiB()
        let r = Bench.runner(script: parsed, size: size, repeats: max(1, (frames + perPlay - 1) / perPlay)) { frame in
            print("  frame \(frame): RSS \(Bench.rssKiB() / 1024) MiB")
        }
        let start = MonotonicClock.now()
        let result = r.run()
        let elapsed = MonotonicClock.now() - start
        print("soak: \(result.summary.frames) frames at \(size.description) in \(Int(elapsed)) s (\(Int(Double(result.summary.frames) / elapsed)) frames/s)")
        print("  RSS before the display opened \(startRSS / 1024) MiB, at the end \(Bench.rssKiB() / 1024) MiB; rows \(r.rowCount) (capped at 5000)")
    }
}

struct Flick: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The fling a quick flick gets at each frame rate when SDL stamps touch by the pump (KMSDRM).",
        discussion: """
            A 150 ms flick at 2000 pt/s, a move every 8 ms, started at ten points within a frame; \
            SDL 2's KMSDRM driver reads touch only when the loop pumps, once a frame, and stamps \
            every event with the pump's time. Prints, per frame rate, the slowest and the median \
            fling after the lift with the pumped events placed in time (the program) and as \
            stamped (0: the fling is lost). Model only: the same on every machine.
            """)
    @Option(help: ArgumentHelp("Flick duration in ms.", valueName: "ms")) var duration = 150.0

    func run() {
        print("fps    placed: min  median   as stamped: min  median   (pt/s after the lift)")
        for fps in [60.0, 30, 20, 15, 10, 7.5, 5, 4, 3, 2.5, 2] {
            func speeds(_ spreading: Bool) -> [Double] {
                (0..<10).map { PumpedInputTimes.flingSpeed(fps: fps, phase: Double($0) / 10, duration: duration / 1000,
                                                           spreading: spreading) }.sorted()
            }
            let placed = speeds(true), stamped = speeds(false)
            func f(_ v: Double) -> String { String(format: "%6.0f", v) }
            print(String(format: "%-5.1f", fps) + "  " + f(placed[0]) + "  " + f(placed[5]) + "           "
                  + f(stamped[0]) + "  " + f(stamped[5]))
        }
    }
}
