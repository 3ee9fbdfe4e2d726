import ArgumentParser
import OverscrollKit
import OverscrollSDL

/// Touch to glass on the console's DRM path, headless: touches injected at known kernel
/// times, frames flipped on a fixed vblank, and where the time went (issue #51).
struct Latency: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Touch to scanout on the DRM path over a fixed vblank: its distribution, by phase, and the rest-then-touch bar.",
        discussion: """
            A fake input source injects touches with known kernel times (CLOCK_MONOTONIC) into \
            the live loop's console path (TouchLatencyRunner: asleep on input at rest, woken at \
            the event's time; paced by the present in motion), drawn by the DRM path's presenter \
            (SharedMemoryPresenter) into buffers in memory that a fixed vblank page-flips as DRM \
            does (a flip at the first vblank after its commit, one pending at a time). Each \
            frame that showed a touch is timed from the touch to the vblank that showed it, \
            split into input wait (touch to the frame's start), pump, model, draw, held (for \
            the pacer's deadline), flip wait (the present waiting for the frame before's flip), \
            commit (the copy and the flip queued) and vblank wait (to the flip); the means add \
            up to the mean total. "Rest then touch": --trials times, the list at rest and the \
            loop asleep, a finger lands at a random phase of the vblank and drags (its first \
            motion 4 ms after, a move every 8 ms: a 125 Hz panel); the first frame that shows \
            it is the sample. "In motion": every later frame of the drags. The bar (#51): \
            rest-then-touch p95 at most 1.5 refresh periods plus the frame's own draw time \
            (frame start to drawn, p95). Each figure is the median over --runs; the product's \
            own figure (the profiler's touch_to_scanout_ms) is printed beside the injected-to-flip \
            time it must equal. Exit 1 with --gate when the bar is missed.
            """)
    @Option(help: ArgumentHelp("The refresh period.", valueName: "ms")) var periodMs = 1000.0 / 60
    @Option(help: "Runs (the median is printed).") var runs = 3
    @Option(help: "Rest-then-touch trials per run.") var trials = 20
    @Option(help: ArgumentHelp("Window size.", valueName: "WxH")) var size = SizeOption(width: 480, height: 800)
    @Option(help: "Seed of the touches' phases.") var seed: UInt64 = 51
    @Flag(help: "Exit 1 if the rest-then-touch bar is missed.") var gate = false
    @Flag(help: "Print each rest-then-touch sample's phases (ms).") var verbose = false

    func validate() throws {
        guard runs > 0 else { throw ValidationError("--runs must be a positive whole number") }
        guard trials > 0 else { throw ValidationError("--trials must be a positive whole number") }
        guard periodMs >= 2 && periodMs <= 100 else { throw ValidationError("--period-ms must be 2…100") }
    }

    /// One figure per run, the median printed.
    struct Figures {
        var values: [String: [Double]] = [:]
        mutating func add(_ key: String, _ v: Double) { values[key, default: []].append(v) }
        func median(_ key: String) -> Double { Bench.median(values[key] ?? []) }
    }

    static let phases: [(name: String, value: @Sendable (TouchLatencyRunner.Shown) -> Double)] = [
        ("input wait", { $0.inputWait }), ("pump", { $0.pump }), ("model", { $0.model }), ("draw", { $0.draw }),
        ("held", { $0.held }), ("flip wait", { $0.flipWait }), ("commit", { $0.commit }), ("vblank wait", { $0.vblankWait }),
    ]

    func run() {
        let period = periodMs / 1000
        var figures = Figures()
        var counts = (rest: 0, motion: 0, profiler: 0)
        for run in 0..<runs {
            var options = TouchLatencyRunner.Options(touches: Self.touches(trials: trials, period: period, size: size, seed: seed &+ UInt64(run)))
            options.vblank = FixedVblank(period: period, phase: 0)
            options.width = size.width
            options.height = size.height
            let runner: TouchLatencyRunner
            do { runner = try TouchLatencyRunner(settings: Bench.settings(), options: options) } catch {
                Bench.fail(error.description, code: 69)
            }
            runner.run()
            let rest = runner.shown.filter(\.afterRest), motion = runner.shown.filter { !$0.afterRest }
            guard !rest.isEmpty, !motion.isEmpty else { Bench.fail("no frame showed a touch (\(runner.shown.count) shown)", code: 70) }
            counts = (rest.count, motion.count, runner.profiler.overall.touchToScanoutPercentiles?.count ?? 0)
            if verbose {
                for s in rest {
                    print("  run \(run + 1) rest then touch: " + Self.phases.map { "\($0.name) \(Bench.format($0.value(s) * 1000, 2))" }
                        .joined(separator: ", ") + ", total \(Bench.format(s.total * 1000, 2)) ms")
                }
            }
            for (name, set) in [("rest", rest), ("motion", motion)] {
                let totals = set.map { $0.total * 1000 }.sorted()
                figures.add("\(name).p50", Self.rank(totals, 0.50))
                figures.add("\(name).p95", Self.rank(totals, 0.95))
                figures.add("\(name).p99", Self.rank(totals, 0.99))
                figures.add("\(name).max", totals.last!)
                figures.add("\(name).mean", totals.reduce(0, +) / Double(totals.count))
                for phase in Self.phases {
                    figures.add("\(name).\(phase.name)", set.map { phase.value($0) * 1000 }.reduce(0, +) / Double(set.count))
                }
            }
            figures.add("rest.work.p95", Self.rank(rest.map { $0.work * 1000 }.sorted(), 0.95))
            let all = runner.shown.map { $0.total * 1000 }.sorted()
            figures.add("all.p95", Self.rank(all, 0.95))
            figures.add("all.max", all.last!)
            if let p = runner.profiler.overall.touchToScanoutPercentiles {
                figures.add("profiler.p95", p.p95)
                figures.add("profiler.max", p.max)
            }
        }
        let f = { (key: String) in Bench.format(figures.median(key), 2) }
        print("latency: touch to scanout, DRM path (SharedMemoryPresenter) over buffers in memory flipped on a fixed vblank "
              + "every \(Bench.format(periodMs, 2)) ms, \(size.description), \(trials) rest-then-touch trials, \(runs) runs (median of runs)")
        print("                    count  p50 ms  p95 ms  p99 ms  max ms")
        for (label, name, count) in [("rest then touch", "rest", counts.rest), ("in motion", "motion", counts.motion)] {
            print("  " + pad(label, 16, left: true) + pad(String(count), 7) + pad(f("\(name).p50"), 8) + pad(f("\(name).p95"), 8)
                  + pad(f("\(name).p99"), 8) + pad(f("\(name).max"), 8))
        }
        print("  where it went (mean ms per frame; the phases add up to the total):")
        print("  " + pad("", 16, left: true) + Self.phases.map { pad($0.name, max(7, $0.name.count + 2)) }.joined() + pad("total", 8))
        for (label, name) in [("rest then touch", "rest"), ("in motion", "motion")] {
            print("  " + pad(label, 16, left: true) + Self.phases.map { pad(f("\(name).\($0.name)"), max(7, $0.name.count + 2)) }.joined()
                  + pad(f("\(name).mean"), 8))
        }
        print("  the profiler's own touch_to_scanout_ms (what reports say): count \(counts.profiler) (frames shown: "
              + "\(counts.rest + counts.motion)), p95 \(f("profiler.p95")) ms, max \(f("profiler.max")) ms; "
              + "injected to flip: p95 \(f("all.p95")) ms, max \(f("all.max")) ms")
        let bar = 1.5 * periodMs + figures.median("rest.work.p95")
        let met = figures.median("rest.p95") <= bar
        print("  bar (#51): rest-then-touch p95 \(f("rest.p95")) ms <= 1.5 periods (\(Bench.format(1.5 * periodMs, 2)) ms) "
              + "+ the frame's draw, p95 \(f("rest.work.p95")) ms (start to drawn) = \(Bench.format(bar, 2)) ms: \(met ? "met" : "NOT met")")
        if gate && !met { Bench.fail("rest-then-touch p95 \(f("rest.p95")) ms is over the bar \(Bench.format(bar, 2)) ms", code: 1) }
    }

    private func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return left ? s + fill : fill + s
    }

    /// Nearest rank.
    static func rank(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
    }

    /// `trials` drags, each from rest: a finger lands at a random phase of the vblank, its
    /// first motion 4 ms later and a move every 8 ms for 240 ms (200 pt, up and down in
    /// turn, so the list stays inside its content), held still 120 ms (no fling), lifted;
    /// then 1.2 s for the list to come to rest (the scroll bar's hold and fade) before the
    /// next. Times are seconds after the run's origin.
    static func touches(trials: Int, period: Double, size: SizeOption, seed: UInt64) -> [TouchLatencyRunner.Touch] {
        var rng = SplitMix64(seed: seed)
        var out: [TouchLatencyRunner.Touch] = []
        var t = 0.0
        let finger = PointerID(1)
        let x = Double(size.width) / 2
        for trial in 0..<trials {
            t += Double(rng.next() % 10_000) / 10_000 * period
            let up = trial % 2 == 0
            let y0 = Double(size.height) * (up ? 0.7 : 0.3)
            out.append(.init(at: t, event: .pointerDown(finger, x: x, y: y0)))
            for k in 0..<31 {
                let y = y0 + (up ? -1 : 1) * 200 * Double(k + 1) / 31
                out.append(.init(at: t + 0.004 + Double(k) * 0.008, event: .pointerMove(finger, x: x, y: y)))
            }
            t += 0.004 + 30 * 0.008 + 0.120
            out.append(.init(at: t, event: .pointerUp(finger)))
            t += 1.2
        }
        return out
    }
}
