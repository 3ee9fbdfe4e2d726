// overscroll-bench: prints the figures the README and the closing notes quote.
// Each mode runs its measurement several times and prints medians; the machines are noisy.
import CSDL
import Foundation
import MallocInterposerSwift
import FrameReports
import OverscrollKit
import RowSources
import OverscrollSDL

let usage = """
    usage: overscroll-bench MODE [options]
      frames [--size WxH] [--runs N] [--script FILE]   CPU ms per frame of a headless replay (p50, p99)
      allocations [--frames N]                          heap allocations per steady-state frame
      arc [--runs N]                                    cost of building and drawing the indicator arc
      profiler                                          cost of the always-on profiler per frame and per mark
      physics                                           fling distance, spring-back settle time, bounce overshoot
      soak [--frames N] [--size WxH]                    RSS at start and end of a long uncapped replay
      text [--runs N] [--size WxH]                      first paint, worst fling frame and peak RSS: plain rows,
                                                        rows in many scripts (with and without fallback fonts),
                                                        one multi-megabyte row
    """

func fail(_ message: String, code: Int32 = 64) -> Never {
    FileHandle.standardError.write(Data("overscroll-bench: \(message)\n".utf8))
    exit(code)
}

let mode = CommandLine.arguments.dropFirst().first ?? ""
if mode.isEmpty { fail("no mode given\n\(usage)") }

func option(_ name: String) -> String? {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard let i = arguments.firstIndex(of: name) else { return nil }
    guard i + 1 < arguments.count else { fail("\(name) needs a value\n\(usage)") }
    return arguments[i + 1]
}

func intOption(_ name: String, _ fallback: Int) -> Int {
    guard let text = option(name) else { return fallback }
    guard let value = Int(text), value > 0 else { fail("\(name) must be a positive whole number, not '\(text)'") }
    return value
}

func sizeOption(_ fallback: (Int, Int)) -> (Int, Int) {
    guard let text = option("--size") else { return fallback }
    let parts = text.split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2, parts.allSatisfy({ $0 >= 64 }) else { fail("--size must look like 480x800, not '\(text)'") }
    return (parts[0], parts[1])
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

func format(_ value: Double, _ decimals: Int = 3) -> String { String(format: "%.\(decimals)f", value) }

func rows() -> [String] {
    let text = (try? String(contentsOfFile: "Assets/content/sample.txt", encoding: .utf8)) ?? ""
    let lines = text.split(separator: "\n").map(String.init)
    return lines.isEmpty ? (1...100).map { "Item \($0)" } : lines
}

func settings() -> AppSettings {
    let font: String
    do { font = try FontLocator.locate(explicit: nil) } catch { fail(error.description, code: 66) }
    var s = AppSettings(rows: rows(), fontPath: font)
    s.sound = false
    return s
}

func script(_ path: String) -> GestureScript {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("\(path): cannot read the script", code: 66) }
    do { return try GestureScript(parsing: text) } catch { fail("\(path):\(error.line):\(error.column): \(error.message)", code: 65) }
}

func runner(script: GestureScript, size: (Int, Int), repeats: Int = 1,
            checkpoint: ((Int) -> Void)? = nil) -> ReplayRunner {
    var options = ReplayRunner.Options(script: script)
    options.checkpoint = checkpoint
    options.checkpointInterval = checkpoint == nil ? 0 : 100_000
    options.width = size.0
    options.height = size.1
    options.repeatCount = repeats
    do { return try ReplayRunner(settings: settings(), options: options, warn: { _ in }) } catch {
        fail(error.description, code: 69)
    }
}

/// Resident set size in KiB, from /proc.
func rssKiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

setenv("SDL_AUDIODRIVER", "dummy", 0)

switch mode {
case "frames":
    let size = sizeOption((480, 800))
    let runs = intOption("--runs", 5)
    let path = option("--script") ?? "Assets/gestures/benchmark.txt"
    let parsed = script(path)
    var p50s: [Double] = [], p99s: [Double] = [], fps: [Double] = []
    for _ in 0..<runs {
        let r = runner(script: parsed, size: size)
        let start = MonotonicClock.now()
        let result = r.run()
        let elapsed = MonotonicClock.now() - start
        guard let cpu = r.profiler.overall.cpuPercentiles else { fail("no frames were recorded", code: 70) }
        p50s.append(cpu.p50)
        p99s.append(cpu.p99)
        fps.append(Double(result.summary.frames) / elapsed)
    }
    print("frames: \(path) at \(size.0)x\(size.1), \(runs) runs (median of runs)")
    print("  cpu ms/frame p50 \(format(median(p50s)))  p99 \(format(median(p99s)))  headless replay \(Int(median(fps))) frames/s")

case "allocations":
    // Steady state: the same gestures (no refresh, which adds rows) replayed again and
    // again, so every text texture is already cached after the first playthrough. The
    // difference between a long and a short run divides out the setup's allocations.
    let parsed = script(option("--script") ?? "Assets/gestures/bounce-bottom.txt")
    let extra = intOption("--repeats", 4)
    func measure(_ repeats: Int) -> (frames: Int, mallocs: Int, bytes: Int) {
        let r = runner(script: parsed, size: (480, 800), repeats: repeats)
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
        guard FileManager.default.fileExists(atPath: library) else { fail("\(library) is missing; build the package first", code: 69) }
        setenv("LD_PRELOAD", library, 1)
        let argv = CommandLine.arguments.map { strdup($0) } + [nil]
        execv(CommandLine.arguments[0], argv)
        fail("cannot re-run with the malloc interposer: \(String(cString: strerror(errno)))", code: 71)
    }
    MallocInterposerSwift.initialize()
    // The model alone (input → model → scene), without SDL, over the same gestures.
    func modelOnly(_ repeats: Int) -> (frames: Int, mallocs: Int) {
        var model = settings().makeModel(width: 480, height: 800)
        var driver = ReplayDriver(script: parsed, fps: 60, repeats: repeats)
        var inputs: [TimedInput] = []
        inputs.reserveCapacity(64)
        var done = false
        var sink = 0.0
        var scene = Scene()
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        while !done {
            inputs.removeAll(keepingCapacity: true)
            driver.collectInputs(into: &inputs)
            model.step(inputs, to: driver.time)
            scene.update(model: model)
            sink += scene.contentTop + Double(UIState(model: model).rawValue.count)
            done = driver.endFrame(model: model)
        }
        MallocInterposerSwift.unhook()
        if sink.isNaN { print(sink) }
        return (driver.frame, MallocInterposerSwift.getStatistics().mallocCount)
    }
    let m1 = modelOnly(1), m2 = modelOnly(1 + extra)
    print("allocations, model + scene only: \(format(Double(m2.mallocs - m1.mallocs) / Double(m2.frames - m1.frames), 4)) per frame")
    var perFrame: [Double] = []
    for _ in 0..<3 {
        let short = measure(1), long = measure(1 + extra)
        perFrame.append(Double(long.mallocs - short.mallocs) / Double(long.frames - short.frames))
    }
    print("allocations: \(format(median(perFrame), 4)) heap allocations per steady-state frame (median of 3; whole frame: model, scene, SDL drawing, profiler)")

case "arc":
    let runs = intOption("--runs", 7)
    let display: Display
    do { display = try Display(.headless(width: 480, height: 800)) } catch { fail(error.description, code: 69) }
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
    print("arc: \(format(median(perFrame), 1)) µs per frame to build, submit and rasterize the indicator (disc + arc), software renderer, median of \(runs)")

case "profiler":
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
    print("profiler: \(Int(median(perMark))) ns per clock mark, \(Int(median(perFrame))) ns per frame to record (histograms, counts, HUD ring); median of 7")

case "physics":
    // The feel's headline numbers, from the same types the app runs.
    let profile = PhysicsProfile.ios
    let fling = FrictionSimulation(position: 0, velocity: 3000, decelerationRate: profile.decelerationRate,
                                   tolerance: profile.tolerance)
    let spring = SpringSimulation(spring: profile.spring, start: -100, end: 0, velocity: 0, tolerance: profile.tolerance)
    let bounce = BallisticSimulation(position: 4700, velocity: 3000, range: 0...4800, profile: profile)
    let overshoot = stride(from: 0.0, to: 5, by: 0.0005).map { bounce.x($0) }.max()! - 4800
    print("physics: a 3000 pt/s fling travels \(format(fling.finalX, 1)) pt and stops after \(format(fling.duration, 2)) s")
    print("  spring-back from 100 pt of overscroll settles (within 0.25 pt, under 5 pt/s) in \(format(spring.settleTime, 3)) s")
    print("  a 3000 pt/s fling 100 pt from the bottom overshoots it by \(format(overshoot, 1)) pt and rests on it")

case "soak":
    // Uncapped and headless on the dummy driver (no EGL copy per frame) unless the
    // environment says otherwise: the point is memory over a million frames.
    setenv("SDL_VIDEODRIVER", "dummy", 0)
    let frames = intOption("--frames", 1_000_000)
    let size = sizeOption((240, 400))
    let parsed = script(option("--script") ?? "Assets/gestures/benchmark.txt")
    // Each playthrough is about 1 300 frames at 60 fps.
    let perPlay = max(1, Int(parsed.duration * 60) + 120)
    let startRSS = rssKiB()
    let r = runner(script: parsed, size: size, repeats: max(1, (frames + perPlay - 1) / perPlay)) { frame in
        print("  frame \(frame): RSS \(rssKiB() / 1024) MiB")
    }
    let start = MonotonicClock.now()
    let result = r.run()
    let elapsed = MonotonicClock.now() - start
    print("soak: \(result.summary.frames) frames at \(size.0)x\(size.1) in \(Int(elapsed)) s (\(Int(Double(result.summary.frames) / elapsed)) frames/s)")
    print("  RSS before the display opened \(startRSS / 1024) MiB, at the end \(rssKiB() / 1024) MiB; rows \(r.rowCount) (capped at 5000)")

case "text":
    // Each figure comes from a fresh child process, so fonts, caches and the peak RSS
    // start clean: first paint = opening the display until the first frame is presented.
    let size = sizeOption((480, 800))
    if let kind = option("--child") {
        let fling = script("Assets/gestures/fling.txt")
        var rows = rows()
        switch kind {
        case "plain": break
        case "scripts":
            let text = (try? String(contentsOfFile: "Assets/content/scripts.txt", encoding: .utf8)) ?? ""
            rows = text.split(separator: "\n").map(String.init)
        case "long":
            // One 4 MiB row among plain ones, on screen for the whole fling.
            rows[2] = "A long row " + String(repeating: "0123456789abcdef", count: 256 * 1024)
        default: fail("unknown --child '\(kind)'")
        }
        var s = settings()
        s.rows = rows
        var options = ReplayRunner.Options(script: fling)
        options.width = size.0
        options.height = size.1
        var firstPaint = 0.0
        let start = MonotonicClock.now()
        options.checkpointInterval = 1
        options.checkpoint = { frame in if frame == 0 { firstPaint = MonotonicClock.now() - start } }
        let r: ReplayRunner
        do { r = try ReplayRunner(settings: s, options: options, warn: { _ in }) } catch { fail(error.description, code: 69) }
        _ = r.run()
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?.split(separator: " ").dropFirst().first
        print(firstPaint * 1000, r.profiler.overall.cpuPercentiles?.max ?? .nan, Int(peak ?? "") ?? -1)
        exit(0)
    }
    let runs = intOption("--runs", 5)
    // "Without fallback fonts": fontconfig sees DejaVu's directory only.
    let font: String
    do { font = try FontLocator.locate(explicit: nil) } catch { fail(error.description, code: 66) }
    let bare = FileManager.default.temporaryDirectory.appendingPathComponent("overscroll-bench-fonts-\(getpid())")
    defer { try? FileManager.default.removeItem(at: bare) }
    do {
        try FileManager.default.createDirectory(at: bare, withIntermediateDirectories: true)
        let dir = URL(fileURLWithPath: font).deletingLastPathComponent().path
        try Data("""
            <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
            <fontconfig><dir>\(dir)</dir><cachedir>\(bare.path)/cache</cachedir></fontconfig>
            """.utf8).write(to: bare.appendingPathComponent("fonts.conf"))
    } catch { fail("cannot write a fontconfig file in \(bare.path): \(error)", code: 73) }
    func child(_ kind: String, bareFonts: Bool) -> (paint: Double, worst: Double, peakMiB: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["text", "--child", kind, "--size", "\(size.0)x\(size.1)"]
        var environment = ProcessInfo.processInfo.environment
        if bareFonts { environment["FONTCONFIG_FILE"] = bare.appendingPathComponent("fonts.conf").path }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { fail("cannot start \(CommandLine.arguments[0]): \(error)", code: 71) }
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let v = out.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard process.terminationStatus == 0, v.count == 3 else { fail("the \(kind) run failed (exit \(process.terminationStatus))", code: 70) }
        return (v[0], v[1], v[2] / 1024)
    }
    _ = child("scripts", bareFonts: true)      // builds the bare font list's cache
    print("text: a fling at \(size.0)x\(size.1), median of \(runs) fresh processes each")
    print("  content                                first paint ms  worst frame cpu ms  peak RSS MiB")
    for (kind, bareFonts, label) in [("plain", false, "plain rows"), ("scripts", false, "six scripts, fallback fonts installed"),
                                     ("scripts", true, "six scripts, DejaVu only"), ("long", false, "plain + one 4 MiB row")] {
        let results = (0..<runs).map { _ in child(kind, bareFonts: bareFonts) }
        let pad = String(repeating: " ", count: max(0, 38 - label.count))
        print("  \(label)\(pad) \(format(median(results.map(\.paint)), 1))  \(format(median(results.map(\.worst)), 2))  \(format(median(results.map(\.peakMiB)), 1))")
    }

default:
    fail("unknown mode '\(mode)'\n\(usage)")
}
