import ArgumentParser
import Foundation
import OverscrollKit
import OverscrollSDL

struct Text: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "First paint, worst fling frame and peak RSS: plain rows, rows in many scripts (with and without fallback fonts), one multi-megabyte row.")
    @Option(help: "Fresh processes per figure (the median is printed).") var runs = 5
    @Option(help: ArgumentHelp("Window size.", valueName: "WxH")) var size = SizeOption(width: 480, height: 800)
    @Option(name: .customLong("child"), help: .hidden) var childKind: String?

    func validate() throws { guard runs > 0 else { throw ValidationError("--runs must be a positive whole number") } }

    func run() {
        // Each figure comes from a fresh child process, so fonts, caches and the peak RSS
        // start clean: first paint = opening the display until the first frame is presented.
        if let kind = childKind { runChild(kind) }
        // "Without fallback fonts": fontconfig sees DejaVu's directory only.
        let font: String
        do { font = try FontLocator.locate(explicit: nil) } catch { Bench.fail(error.description, code: 66) }
        let bare = FileManager.default.temporaryDirectory.appendingPathComponent("overscroll-bench-fonts-\(getpid())")
        defer { try? FileManager.default.removeItem(at: bare) }
        do {
            try FileManager.default.createDirectory(at: bare, withIntermediateDirectories: true)
            let dir = URL(fileURLWithPath: font).deletingLastPathComponent().path
            try Data("""
                <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
                <fontconfig><dir>\(dir)</dir><cachedir>\(bare.path)/cache</cachedir></fontconfig>
                """.utf8).write(to: bare.appendingPathComponent("fonts.conf"))
        } catch { Bench.fail("cannot write a fontconfig file in \(bare.path): \(error)", code: 73) }
        func child(_ kind: String, bareFonts: Bool) -> (paint: Double, worst: Double, peakMiB: Double) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            process.arguments = ["text", "--child", kind, "--size", size.description]
            var environment = ProcessInfo.processInfo.environment
            if bareFonts { environment["FONTCONFIG_FILE"] = bare.appendingPathComponent("fonts.conf").path }
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            do { try process.run() } catch { Bench.fail("cannot start \(CommandLine.arguments[0]): \(error)", code: 71) }
            let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let v = out.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
            guard process.terminationStatus == 0, v.count == 3 else { Bench.fail("the \(kind) run failed (exit \(process.terminationStatus))", code: 70) }
            return (v[0], v[1], v[2] / 1024)
        }
        _ = child("scripts", bareFonts: true)      // builds the bare font list's cache
        print("text: a fling at \(size.description), median of \(runs) fresh processes each")
        print("  content                                first paint ms  worst frame cpu ms  peak RSS MiB")
        for (kind, bareFonts, label) in [("plain", false, "plain rows"), ("scripts", false, "six scripts, fallback fonts installed"),
                                         ("scripts", true, "six scripts, DejaVu only"), ("long", false, "plain + one 4 MiB row")] {
            let results = (0..<runs).map { _ in child(kind, bareFonts: bareFonts) }
            let pad = String(repeating: " ", count: max(0, 38 - label.count))
            print("  \(label)\(pad) \(Bench.format(Bench.median(results.map(\.paint)), 1))  \(Bench.format(Bench.median(results.map(\.worst)), 2))  \(Bench.format(Bench.median(results.map(\.peakMiB)), 1))")
        }
    }

    private func runChild(_ kind: String) -> Never {
        let fling = Bench.script(nil, default: "fling.txt").script
        var rows = Bench.rows()
        switch kind {
        case "plain": break
        case "scripts":
            let text = (try? String(contentsOfFile: Bench.asset("content/scripts.txt"), encoding: .utf8)) ?? ""
            rows = text.split(separator: "\n").map(String.init)
        case "long":
            // One 4 MiB row among plain ones, on screen for the whole fling.
            rows[2] = "A long row " + String(repeating: "0123456789abcdef", count: 256 * 1024)
        default: Bench.fail("unknown --child '\(kind)'")
        }
        var s = Bench.settings()
        s.rows = rows
        var options = ReplayRunner.Options(script: fling)
        options.width = size.width
        options.height = size.height
        var firstPaint = 0.0
        let start = MonotonicClock.now()
        options.checkpointInterval = 1
        options.checkpoint = { frame in if frame == 0 { firstPaint = MonotonicClock.now() - start } }
        let r: ReplayRunner
        do { r = try ReplayRunner(settings: s, options: options, warn: { _ in }) } catch { Bench.fail(error.description, code: 69) }
        _ = r.run()
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?.split(separator: " ").dropFirst().first
        print(firstPaint * 1000, r.profiler.overall.cpuPercentiles?.max ?? .nan, Int(peak ?? "") ?? -1)
        Foundation.exit(0)
    }
}
