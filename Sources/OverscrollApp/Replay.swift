import ArgumentParser
import FrameReports
import FoundationEssentials
import Glibc
import OverscrollKit
import OverscrollSDL

/// `overscroll replay SCRIPT`: the app driven by a gesture script on a virtual clock.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a gesture script headless on a virtual clock and write a per-frame trace.",
        usage: "overscroll replay <script> [--fps <n>] [--trace <file>] [--window] [--repeat <n>] [<settings>]",
        discussion: """
        Script commands, one a line ('#' starts a comment; points; durations like 250ms):
          wait D
          down X Y | move X Y [D] | up
          finger N down X Y | finger N move X Y [D] | finger N up
          mouse down X Y | mouse move X Y [D] | mouse up
          wheel DY
          key NAME [shift|ctrl]…
        The settings are the window's (a replay is the live program on a virtual clock), less those that need a display.
        """
    )

    @Argument(help: "The gesture script.")
    var script: String

    @Option(help: ArgumentHelp("Virtual frames per second, 1…1000.", valueName: "n"))
    var fps = 60

    @Option(help: ArgumentHelp("Write the per-frame trace (CSV) here.", valueName: "file"))
    var trace: String?

    @Flag(help: "Show the replay in a real window at real speed instead of running headless (exit 69 without a display).")
    var window = false

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Play the script this many times in a row (a soak).", valueName: "n"))
    var repeatCount = 1

    @OptionGroup(title: "Settings (also config keys, without the --)") var settings: SettingFlags
    @ParentCommand var program: Overscroll

    func validate() throws {
        let given = program.givenFlags()
        if let flag = given.windowOnly.first {
            throw ValidationError("replay has no display; remove \(flag)")
        }
        let mine = Set(settingsGiven())
        if let flag = given.shared.first(where: { !mine.contains($0) }) {
            throw ValidationError("\(flag) goes after 'replay <script>': the flags before 'replay' are the window's")
        }
        guard (1...1000).contains(fps) else { throw ValidationError("--fps must be a whole number from 1 to 1000, e.g. --fps 60") }
        guard repeatCount >= 1 else { throw ValidationError("--repeat must be 1 or more, e.g. --repeat 100") }
    }

    func run() throws {
        do {
            let parsed = try loadScript()
            let file = try settings.configFile()
            try file?.refuseWindowOnlySettings()
            let resolved = ResolvedSettings(flags: settings, window: nil, file: file)
            try ThresholdBound.check(resolved, flag: settings.threshold, file: file, fillsScreen: false)
            let app = try resolved.appSettings()
            resolved.describeRows(app)
            var options = ReplayRunner.Options(script: parsed)
            let size = resolved.size(.size) ?? (480, 800)
            options.fps = fps
            options.width = size.width
            options.height = size.height
            options.tracePath = trace
            options.window = window
            options.renderer = window ? resolved.renderer : .cpu
            options.scale = resolved.number(.scale)
            options.report = Overscroll.reportTarget(resolved, flag: settings.report, file: file)
            options.programVersion = Version.string
            options.logLinesDropped = { standardErrorLog.dropped }
            options.scriptName = script
            options.repeatCount = repeatCount
            if window, !resolved.bool(.verbose) { SDLMessages.silence() }
            let runner: ReplayRunner
            do { runner = try ReplayRunner(settings: app, options: options, warn: warn) } catch {
                throw Failure(error.description, code: ExitStatus.of(error).rawValue)
            }
            resolved.describe(runner.display)
            let result = runner.run()
            if resolved.bool(.verbose) {
                let s = result.summary
                func ms(_ seconds: Double) -> String { String(Int((seconds * 1000).rounded())) }
                warn("process CPU: \(ms(s.startupCPU)) ms start-up, \(ms(s.loopCPU)) ms over \(s.frames) frames, of which the frames' cpu_ms add up to \(ms(s.framesCPU)) ms (the rest runs between frames: recording each frame in the profiler and the report, the trace row, the script's next step)")
            }
            if let traceError = result.summary.traceError {
                throw Failure("\(traceError); the replay stopped there", code: ExitStatus.cannotCreate.rawValue)
            }
            if let reportError = result.reportError { throw Failure(reportError, code: ExitStatus.writeFailed.rawValue) }
            if let metricsError = result.summary.metricsError { throw Failure(metricsError, code: ExitStatus.writeFailed.rawValue) }
            if let signal = result.summary.stoppedBy {
                throw Failure("replay stopped by \(SignalHandling.name(signal)) after \(result.summary.frames) frames; the trace and report hold those frames", code: 128 + signal)
            }
        } catch let failure as Failure {
            fail(failure)
        }
    }

    /// This command's own setting flags, as `Overscroll.givenFlags` names them.
    private func settingsGiven() -> [String] {
        var flags = settings.config == nil ? [] : ["--config"]
        for setting in Setting.allCases {
            if case .shared(let ref) = setting.spec.source, FlagInput(settings, ref) != nil { flags.append(setting.flag) }
        }
        return flags
    }

    private func loadScript() throws -> GestureScript {
        let bytes = try InputFile.read(script, what: "gesture script", fix: "pass the path of a gesture script (a text file)")
        let parsed: GestureScript
        do { parsed = try GestureScript(parsing: bytes) } catch {
            throw Failure("\(TextLines.cut(script)):\(error.line):\(error.column): \(error.message)", code: 65)
        }
        // A finger left down would hold the replay for its whole settle limit: lift it
        // at the end, and say so.
        for (pointer, line) in parsed.pointersLeftDown {
            warn("\(TextLines.cut(script)):\(line): \(pointer) is still down when the script ends; lifting it there (end the gesture with '\(pointer == .finger(1) ? "" : "\(pointer) ")up')")
        }
        return parsed.liftingPointersLeftDown()
    }
}
