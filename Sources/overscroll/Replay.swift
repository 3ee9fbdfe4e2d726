import ArgumentParser
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

    @Option(help: "Window size in points, WxH.")
    var size = SizeArgument(width: 480, height: 800)

    @Option(help: "Write the per-frame trace (CSV) here.")
    var trace: String?

    @Flag(help: "Show the replay in a real window instead of running headless.")
    var window = false

    @OptionGroup var behaviour: BehaviourOptions

    func validate() throws {
        guard (1...1000).contains(fps) else { throw ValidationError("--fps must be a whole number from 1 to 1000, e.g. --fps 60") }
    }

    func run() throws {
        do {
            let parsed = try loadScript()
            let settings = try behaviour.settings()
            var options = ReplayRunner.Options(script: parsed)
            options.fps = fps
            options.width = size.width
            options.height = size.height
            options.tracePath = trace
            options.window = window
            let runner: ReplayRunner
            do { runner = try ReplayRunner(settings: settings, options: options, warn: warn) } catch {
                throw Failure(error.description, code: error.description.hasPrefix("cannot write") ? 73 : 69)
            }
            _ = runner.run()
        } catch let failure as Failure {
            fail(failure)
        }
    }

    private func loadScript() throws -> GestureScript {
        let text: String
        do { text = try String(contentsOfFile: script, encoding: .utf8) } catch {
            throw Failure("\(script): cannot read the gesture script (\(Self.reason(error))); check the path", code: 66)
        }
        do { return try GestureScript(parsing: text) } catch {
            throw Failure("\(script):\(error.line):\(error.column): \(error.message)", code: 65)
        }
    }

    private static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return nsError.localizedDescription
    }
}
