import ArgumentParser
import OverscrollSDL

/// `overscroll` with no subcommand: the interactive window.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open the window (the default).")

    @OptionGroup var behaviour: BehaviourOptions

    @Option(help: "Window size in points, WxH.")
    var size = SizeArgument(width: 480, height: 800)

    @Flag(help: "Fill the screen.")
    var fullscreen = false

    func run() throws {
        do {
            let settings = try behaviour.settings()
            var display = Display.Options()
            display.width = size.width
            display.height = size.height
            display.fullscreen = fullscreen
            let app = try LiveApp(settings: settings, display: display, warn: warn)
            app.run()
        } catch let failure as Failure {
            fail(failure)
        } catch let error as SDLError {
            fail(Failure(error.description, code: 69))
        }
    }
}
