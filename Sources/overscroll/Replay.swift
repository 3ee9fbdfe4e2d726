import ArgumentParser
import FrameReports
import Foundation
import OverscrollKit
import OverscrollSDL

/// `overscroll replay SCRIPT`: the app driven by a gesture script on a virtual clock.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a gesture script headless on a virtual clock and write a per-frame trace.",
        discussion: """
        Script commands, one a line ('#' starts a comment; points; durations like 250ms):
          wait D | down X Y | move X Y [D] | up | finger N down|move|up … | mouse down|move|up … | wheel DY
        Exit status: 65 for a malformed script, 66 for one that cannot be read, 64 for bad options.
        """
    )

    @Argument(help: "The gesture script.")
    var script: String

    @Option(help: "Virtual frames per second.")
    var fps = 60

    @Option(help: ArgumentHelp("Window size in points (default 480x800).", valueName: "WxH"))
    var size = SizeArgument(width: 480, height: 800)

    @Option(help: "Write the per-frame trace (CSV) here.")
    var trace: String?

    @Flag(help: "Show the replay in a real window instead of running headless.")
    var window = false

    @Option(help: ArgumentHelp("Write a frame-timing report into this new or empty directory.", valueName: "dir"))
    var report: String?

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Play the script this many times in a row (a soak).", valueName: "n"))
    var repeatCount = 1

    @OptionGroup var behaviour: BehaviourOptions

    func validate() throws {
        guard (1...1000).contains(fps) else { throw ValidationError("--fps must be a whole number from 1 to 1000, e.g. --fps 60") }
        guard repeatCount >= 1 else { throw ValidationError("--repeat must be 1 or more, e.g. --repeat 100") }
    }

    func run() throws {
        do {
            let parsed = try loadScript()
            let settings = try behaviour.settings(config: try behaviour.configFile())
            var options = ReplayRunner.Options(script: parsed)
            options.fps = fps
            options.width = size.width
            options.height = size.height
            options.tracePath = trace
            options.window = window
            options.reportDirectory = report
            options.programVersion = Version.string
            options.scriptName = script
            options.repeatCount = repeatCount
            let runner: ReplayRunner
            do { runner = try ReplayRunner(settings: settings, options: options, warn: warn) } catch {
                throw Failure(error.description, code: Run.status(error))
            }
            let result = runner.run()
            if let reportError = result.reportError { throw Failure(reportError, code: 74) }
        } catch let failure as Failure {
            fail(failure)
        }
    }

    private func loadScript() throws -> GestureScript {
        let text: String
        do { text = try String(contentsOfFile: script, encoding: .utf8) } catch {
            throw Failure("\(script): cannot read the gesture script (\(FileErrors.reason(error))); check the path", code: 66)
        }
        do { return try GestureScript(parsing: text) } catch {
            throw Failure("\(script):\(error.line):\(error.column): \(error.message)", code: 65)
        }
    }
}
