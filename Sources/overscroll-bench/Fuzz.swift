import ArgumentParser
import Foundation
import OverscrollKit
import OverscrollSDL
import RowSources
import Synchronization

/// `overscroll-bench fuzz`: random valid gesture scripts — every verb, fingers 1…10, the
/// mouse, the wheel, keys, waits, CRLF/CR/LF line ends, comments — played on the model at a
/// random frame rate and size, checking on every frame that every number is finite and in
/// range and every state is a known one; that motion comes to rest after the script ends;
/// and that a second run gives a byte-identical trace. Script k of a run uses seed S+k, so
/// a failure prints the one seed that reproduces it (`--seed S+k --count 1`). A crash
/// (a signal) prints the seed it happened on before the process dies of it.
struct Fuzz: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play random valid gesture scripts on the model and check its invariants; prints the seed of any failure.",
        discussion: "Exit status: 0 all scripts passed; 1 a script broke an invariant (its seed is printed); killed by a signal: the seed is printed first."
    )

    @Option(help: "Seed of the first script; script k uses seed+k.") var seed: UInt64 = 1
    @Option(help: "How many scripts.") var count = 1000
    @Option(help: "Commands per script, at most.") var maxCommands = 16
    @Flag(help: "Print each script and its result.") var verbose = false

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be a positive whole number") }
        guard maxCommands > 0 else { throw ValidationError("--max-commands must be a positive whole number") }
    }

    func run() throws {
        FuzzCrash.install()
        let start = MonotonicClock.now()
        var failures = 0, frames = 0
        for k in 0..<UInt64(count) {
            let caseSeed = seed &+ k
            FuzzCrash.current.store(caseSeed, ordering: .relaxed)
            let fuzzCase = FuzzCase(seed: caseSeed, maxCommands: maxCommands)
            if verbose { print("seed \(caseSeed): \(fuzzCase.fps) fps, \(fuzzCase.width)x\(fuzzCase.height)\n\(fuzzCase.text)") }
            switch fuzzCase.check() {
            case .passed(let n):
                frames += n
            case .failed(let why):
                failures += 1
                print("fuzz: seed \(caseSeed): \(why) (rerun: overscroll-bench fuzz --seed \(caseSeed) --count 1 --verbose)")
            }
        }
        let elapsed = MonotonicClock.now() - start
        print("fuzz: \(count) scripts (seeds \(seed)…\(seed &+ UInt64(count) &- 1)), \(frames) frames checked twice, \(failures) failure\(failures == 1 ? "" : "s"), \(Int(elapsed)) s")
        if failures > 0 { throw ExitCode(1) }
    }
}

/// One random script with its frame rate, window size and rows.
struct FuzzCase {
    let seed: UInt64
    let fps: Int
    let width: Double
    let height: Double
    let rowCount: Int
    let text: String

    init(seed: UInt64, maxCommands: Int) {
        self.seed = seed
        var random = SplitMix64(seed: seed)
        fps = Int.random(in: 1...144, using: &random)
        width = Double(Int.random(in: 64...1600, using: &random))
        height = Double(Int.random(in: 64...2000, using: &random))
        rowCount = [1, 3, 20, 100, 400].randomElement(using: &random)!
        text = FuzzCase.script(commands: Int.random(in: 1...maxCommands, using: &random),
                               width: width, height: height, using: &random)
    }

    /// A valid script: parsing it must succeed.
    static func script(commands: Int, width: Double, height: Double, using random: inout SplitMix64) -> String {
        let ending = ["\n", "\r\n", "\r"].randomElement(using: &random)!
        var lines: [String] = []
        var down: Set<String> = []
        func coordinate(_ size: Double) -> String {
            // Mostly inside the window, sometimes well outside it.
            let value = Double.random(in: -0.5...1.5, using: &random) * size
            return Bool.random(using: &random) ? String(Int(value)) : String(format: "%.2f", value)
        }
        func duration(max: Int) -> String {
            let ms = Int.random(in: 0...max, using: &random)
            return Bool.random(using: &random) ? "\(ms)ms" : String(format: "%.3fs", Double(ms) / 1000)
        }
        if Int.random(in: 0..<4, using: &random) == 0 { lines.append("# fuzz script") }
        for _ in 0..<commands {
            let pointer = [0, 1, 2, 3, 10].randomElement(using: &random)!
            let prefix: String
            switch pointer {
            case 0: prefix = "mouse "
            case 1 where Bool.random(using: &random): prefix = ""
            default: prefix = "finger \(pointer) "
            }
            let key = pointer == 0 ? "mouse" : "finger \(pointer)"
            let space = Int.random(in: 0..<8, using: &random) == 0 ? "\t " : " "
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1:
                lines.append("wait\(space)\(duration(max: 1500))")
            case 2 where Bool.random(using: &random):
                lines.append("wheel \(Int.random(in: -800...800, using: &random))")
            case 2:
                let name = Key.allCases.randomElement(using: &random)!.rawValue
                let modifier = ["", " shift", " ctrl", " ctrl shift"].randomElement(using: &random)!
                lines.append("key\(space)\(Bool.random(using: &random) ? name : name.lowercased())\(modifier)")
            case 3, 4:
                lines.append("\(prefix)down\(space)\(coordinate(width)) \(coordinate(height))")
                down.insert(key)
            case 5, 6, 7:
                let timed = Bool.random(using: &random) ? " " + duration(max: 800) : ""
                lines.append("\(prefix)move \(coordinate(width))\(space)\(coordinate(height))\(timed)")
            default:
                lines.append("\(prefix)up")
                down.remove(key)
            }
            if Int.random(in: 0..<10, using: &random) == 0 { lines.append(Bool.random(using: &random) ? "" : "  # note") }
        }
        return lines.joined(separator: ending) + ending
    }

    enum Result {
        case passed(frames: Int)
        case failed(String)
    }

    func check() -> Result {
        let parsed: GestureScript
        do { parsed = try GestureScript(parsing: text).liftingPointersLeftDown() } catch {
            return .failed("the generated script did not parse: \(error)")
        }
        let first = play(parsed)
        guard case .success(let a) = first else { return first.failure }
        let second = play(parsed)
        guard case .success(let b) = second else { return second.failure }
        guard a.trace == b.trace else { return .failed("a second run gave a different trace (\(a.frames) vs \(b.frames) frames)") }
        return .passed(frames: a.frames)
    }

    private struct Played {
        var frames: Int
        var trace: [UInt8]
    }

    private enum PlayResult {
        case success(Played)
        case failure(String)
        var failure: Result { if case .failure(let why) = self { .failed(why) } else { .passed(frames: 0) } }
    }

    private func play(_ script: GestureScript) -> PlayResult {
        let rows = (0..<rowCount).map { "Row \($0)" }
        let settings = AppSettings(rows: rows, fontPath: "")
        // The demo's refresh, on the model's clock (as a replay runs it): deterministic.
        let source = DemoRefreshSource(duration: 1.5)
        var model = settings.makeModel(width: width, height: height)
        var scene = Scene()
        var driver = ReplayDriver(script: script, fps: fps, settleLimit: 60)
        var row = CSVRowBuffer()
        var trace: [UInt8] = []
        let knownStates: Set<String> = ["idle", "pulling", "armed", "refreshing", "finishing"]
        var failure: String?
        driver.play(&model, source: source) { played, model in
            let frame = played.frame
            scene.update(model: model)
            failure = Self.check(model, scene, frame: frame, knownStates: knownStates)
            guard failure == nil else { return false }
            row.clear()
            TraceFormat.appendRow(&row, frame: frame, model: model, events: played.effects.events)
            trace.append(contentsOf: row.bytes)
            return true
        }
        if let failure { return .failure(failure) }
        if !model.isMotionSettled {
            return .failure("still moving \(driver.settleLimit) s after the script's end (state \(model.refresh.state.name), velocity \(model.scroll.velocity))")
        }
        return .success(Played(frames: driver.frame, trace: trace))
    }

    /// What is wrong with a frame (a number not finite, a state unknown, rows lost), if anything.
    private static func check(_ model: OverscrollModel, _ scene: Scene, frame: Int, knownStates: Set<String>) -> String? {
        let numbers: [(String, Double)] = [
            ("time", model.now), ("offset", model.scroll.offset), ("velocity", model.scroll.velocity),
            ("progress", model.progress), ("content top", scene.contentTop), ("flash", scene.flash),
            ("indicator", scene.indicator.map { $0.centerY + $0.radius + $0.arc.sweep + $0.arc.start + $0.scale } ?? 0),
        ]
        for (name, value) in numbers where !value.isFinite { return "frame \(frame): \(name) is \(value)" }
        guard (0...1).contains(model.progress) else { return "frame \(frame): progress \(model.progress) outside 0…1" }
        guard knownStates.contains(model.refresh.state.name) else { return "frame \(frame): unknown state \(model.refresh.state.name)" }
        guard !model.rows.isEmpty else { return "frame \(frame): no rows" }
        for shown in scene.rows where !(shown.y.isFinite && (0..<model.rows.count).contains(shown.index)) {
            return "frame \(frame): scene row \(shown.index) at y \(shown.y) (the list has \(model.rows.count))"
        }
        guard scene.contentBottom.isFinite else { return "frame \(frame): content bottom is \(scene.contentBottom)" }
        return nil
    }
}

/// A small, fast, seedable generator (Steele, Lea & Flood's SplitMix64): the same seed
/// gives the same script on every machine.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// On a crash, say which seed was running. The handler sees only this global (a signal
/// handler gets no context); it writes with write(2) and dies of the same signal.
enum FuzzCrash {
    static let current = Atomic<UInt64>(0)

    static func install() {
        for sig in [SIGSEGV, SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGABRT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                let head: StaticString = "overscroll-bench fuzz: crashed by a signal on seed "
                _ = write(STDERR_FILENO, head.utf8Start, head.utf8CodeUnitCount)
                var digits: (UInt64, UInt8) = (FuzzCrash.current.load(ordering: .relaxed), 0)
                var text: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                           UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                withUnsafeMutableBytes(of: &text) { out in
                    var n = 0
                    repeat {
                        out[19 - n] = UInt8(ascii: "0") + UInt8(digits.0 % 10)
                        digits.0 /= 10
                        n += 1
                    } while digits.0 > 0 && n < 20
                    _ = write(STDERR_FILENO, out.baseAddress! + (20 - n), n)
                }
                let tail: StaticString = "\n"
                _ = write(STDERR_FILENO, tail.utf8Start, tail.utf8CodeUnitCount)
                signal(sig, SIG_DFL)
                raise(sig)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(sig, &action, nil)
        }
    }
}
