import ArgumentParser
import OverscrollKit
import OverscrollSDL

/// What a turned screen costs on the console's CPU path: the same gestures replayed at
/// rotate 0, 90, 180 and 270 through the DRM path's presenter over buffers in memory.
struct Rotation: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "CPU per frame at rotate 0/90/180/270 on the DRM (shared-memory) path, and each over rotate 0.",
        discussion: """
            A headless replay shown through the console's CPU presenter (the DRM path's, \
            SharedMemoryPresenter) over two buffers in plain memory instead of dumb buffers: \
            everything a frame does on the console but the ioctls. The panel is --size at each \
            rotation (the app's frame turned onto it); the script's touches, written for the app \
            unturned, are turned onto the panel, so each rotation plays the same gestures. CPU per \
            frame is the process's CPU time (CLOCK_PROCESS_CPUTIME_ID: every thread, user + system) \
            from a frame's start to its present done, each frame's as measured (to the nanosecond; \
            printed to a tenth of a microsecond); the runs are interleaved (0, 90, 180, 270, \
            then again) and each figure is the median over --runs of that run's median frame (p50) \
            and mean frame. At 90 and 270 the app is the panel's other way round (portrait on a \
            landscape panel), which costs more to draw unturned too: so the same app unturned, on a \
            panel that size (rotate 0 on HxW), is played in each run as well and printed last, with \
            90 and 270 over it: what the turn itself costs. Exit 1 when --at-most is given and a rotation's p50 or mean is more \
            than that many times rotate 0's.
            """)
    @Option(help: ArgumentHelp("The panel's size in pixels.", valueName: "WxH")) var size = SizeOption(width: 1280, height: 800)
    @Option(help: "Runs per rotation (the median is printed).") var runs = 5
    @Option(help: ArgumentHelp("Gesture script (default: the package's benchmark.txt: flings both ways, pulls, refreshes).", valueName: "file"))
    var script: String?
    @Option(help: ArgumentHelp("The driver's video memory for the two buffers, in MB (bochs-drm at 1280x800: 12.6, its 16 MiB less "
        + "fbcon's console); buffers that would pass it are refused and the list's ring asks for less, as there (default: any).",
        valueName: "MB")) var memory: Double?
    @Flag(help: "Buffers shown from their first row only, as a framebuffer that does not pan (efifb) and qxl: the list's ring pinned to the top.")
    var pinned = false
    @Option(help: ArgumentHelp("The rotations played, comma-separated (default: 0,90,180,270); the app unturned on the "
        + "turned panel's size is played where 90 or 270 is.", valueName: "list")) var rotations = "0,90,180,270"
    @Option(name: .customLong("at-most"), help: ArgumentHelp("Exit 1 if a rotation costs more than this many times rotate 0.", valueName: "ratio"))
    var atMost: Double?

    func validate() throws {
        guard runs > 0 else { throw ValidationError("--runs must be a positive whole number") }
        if let atMost, !(atMost >= 1) { throw ValidationError("--at-most must be a ratio of 1 or more (e.g. 1.3)") }
        if let memory, !(memory > 0) { throw ValidationError("--memory must be a positive number of MB") }
        guard let list = played, !list.isEmpty else { throw ValidationError("--rotations: a list of 0, 90, 180 and 270") }
    }

    /// `--rotations`, in the order given; nil where one is not a rotation.
    private var played: [ScreenRotation]? {
        let list = rotations.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)).flatMap(ScreenRotation.init) }
        return list.contains { $0 == nil } ? nil : list.compactMap { $0 }
    }

    func run() {
        let (path, parsed) = Bench.script(script, default: "benchmark.txt")
        let rotations = played ?? ScreenRotation.allCases
        let crosswise = rotations.contains { $0 == .quarter || $0 == .threeQuarters }
        var p50: [ScreenRotation: [Double]] = [:], mean: [ScreenRotation: [Double]] = [:], frames: [ScreenRotation: Int] = [:]
        // The app 90° and 270° draw, unturned on a panel its size.
        let across = SizeOption(width: size.height, height: size.width)
        var acrossP50: [Double] = [], acrossMean: [Double] = []
        for _ in 0..<runs {
            for rotation in rotations {
                let cpu = play(parsed, rotation, panel: size)
                p50[rotation, default: []].append(cpu.p50)
                mean[rotation, default: []].append(cpu.mean)
                frames[rotation] = cpu.frames
            }
            guard crosswise else { continue }
            let cpu = play(parsed, .none, panel: across)
            acrossP50.append(cpu.p50)
            acrossMean.append(cpu.mean)
        }
        print("rotation: \(path) on a \(size.description) panel, DRM path (SharedMemoryPresenter) over buffers in memory, "
              + "\(runs) runs each, interleaved; CPU ms per frame = process CPU (every thread) from frame start to present done")
        if let memory { print("  the buffers' memory: \(memory) MB (larger buffers refused, as a driver's video memory)") }
        if pinned { print("  the buffers shown from their first row only (efifb, qxl): the ring pinned to the top") }
        print("  rotate  frames   p50 ms   mean ms  p50 / rotate 0  mean / rotate 0")
        let base = (Bench.median(p50[.none] ?? []), Bench.median(mean[.none] ?? []))
        var worst = 0.0
        for rotation in rotations {
            let m = (Bench.median(p50[rotation] ?? []), Bench.median(mean[rotation] ?? []))
            let ratio = (m.0 / base.0, m.1 / base.1)
            worst = max(worst, ratio.0, ratio.1)
            print("  " + [String(rotation.rawValue), String(frames[rotation] ?? 0), Bench.format(m.0, 4), Bench.format(m.1, 4),
                          Bench.format(ratio.0, 2) + "x", Bench.format(ratio.1, 2) + "x"]
                .enumerated().map { pad($1, [6, 6, 7, 8, 14, 15][$0]) }.joined(separator: "  "))
        }
        guard crosswise else { return check(worst) }
        let app = (Bench.median(acrossP50), Bench.median(acrossMean))
        func turn(_ r: ScreenRotation) -> String {
            Bench.format(Bench.median(p50[r] ?? []) / app.0, 2) + "x p50, " + Bench.format(Bench.median(mean[r] ?? []) / app.1, 2) + "x mean"
        }
        print("  0 on \(across.description) (the app 90 and 270 draw, unturned): p50 \(Bench.format(app.0, 4)) ms, mean "
              + "\(Bench.format(app.1, 4)) ms; over it, "
              + [ScreenRotation.quarter, .threeQuarters].filter(rotations.contains).map { "\($0.rawValue): " + turn($0) }.joined(separator: ", "))
        check(worst)
    }

    private func check(_ worst: Double) {
        if let atMost, worst > atMost {
            Bench.fail("a turned screen costs \(Bench.format(worst, 2))x rotate 0, more than --at-most \(atMost)", code: 1)
        }
    }

    /// One replay of `script` on `panel` turned by `rotation`: CPU per frame, p50 and mean.
    private func play(_ script: GestureScript, _ rotation: ScreenRotation, panel: SizeOption) -> (p50: Double, mean: Double, frames: Int) {
        var settings = Bench.settings()
        settings.rotation = rotation
        var options = ReplayRunner.Options(script: Self.turned(script, rotation, panel: panel))
        options.width = panel.width
        options.height = panel.height
        options.memoryBuffers = true
        options.memoryLimit = memory.map { Int($0 * 1e6) }
        options.memoryPinned = pinned
        // Each frame's CPU as measured (seconds, a double), not the profiler's microseconds:
        // a frame here takes 10-40 µs, and a step of one moved the ratios by a tenth.
        let cpu = FrameCPU()
        options.afterFrame = { cpu.seconds.append($0.cpuTime) }
        let runner: ReplayRunner
        do { runner = try ReplayRunner(settings: settings, options: options, warn: { _ in }) } catch {
            Bench.fail(error.description, code: 69)
        }
        let result = runner.run()
        guard !cpu.seconds.isEmpty else { Bench.fail("no frames were recorded", code: 70) }
        let mean = cpu.seconds.reduce(0, +) / Double(cpu.seconds.count)
        return (Bench.median(cpu.seconds) * 1000, mean * 1000, result.summary.frames)
    }

    /// The frames' CPU times, filled by the replay's `afterFrame`.
    private final class FrameCPU {
        var seconds: [Double] = []
        init() { seconds.reserveCapacity(1 << 14) }
    }

    private func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }

    /// `script`, written for the app's frame unturned, with its touches where they land on
    /// a `panel` (points) turned by `rotation`: the same gestures at every rotation.
    static func turned(_ script: GestureScript, _ rotation: ScreenRotation, panel: SizeOption) -> GestureScript {
        var out = script
        let (w, h) = (Double(panel.width), Double(panel.height))
        for i in out.lines.indices {
            switch out.lines[i].command {
            case let .down(pointer, x, y):
                let p = rotation.toWindow(x: x, y: y, windowWidth: w, windowHeight: h)
                out.lines[i].command = .down(pointer, x: p.x, y: p.y)
            case let .move(pointer, x, y, duration):
                let p = rotation.toWindow(x: x, y: y, windowWidth: w, windowHeight: h)
                out.lines[i].command = .move(pointer, x: p.x, y: p.y, duration: duration)
            case .wait, .up, .wheel, .key: break
            }
        }
        return out
    }
}
