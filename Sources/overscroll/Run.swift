import ArgumentParser
import Foundation
import OverscrollKit
import OverscrollSDL

/// `overscroll` with no subcommand: the interactive window, or a kiosk.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open the window (the default).")

    @OptionGroup var behaviour: BehaviourOptions

    @Option(help: ArgumentHelp("Window size in points (default 480x800).", valueName: "WxH"))
    var size: SizeArgument?

    @Flag(help: "Fill the screen.")
    var fullscreen = false

    @Option(help: ArgumentHelp("Open on this display (0 is the first).", valueName: "n"))
    var display: Int?

    @Option(help: ArgumentHelp("Write a frame-timing report into this new or empty directory (on quit, SIGINT or SIGTERM; frames.csv streams as it runs).", valueName: "dir"))
    var report: String?

    /// sysexits: 73 for an output that can't be created, 69 for a display that can't open.
    static func status(_ error: LaunchError) -> Int32 {
        switch error {
        case .display: 69
        case .output: 73
        }
    }

    func validate() throws {
        if let display, display < 0 { throw ValidationError("--display must be 0 or more, e.g. --display 1") }
    }

    func run() throws {
        do {
            let file = try behaviour.configFile()
            let settings = try behaviour.settings(config: file)
            let isKiosk = behaviour.isKiosk(file)
            var options = Display.Options()
            let windowSize = size ?? file?.string("size").flatMap(SizeArgument.init(argument:)) ?? SizeArgument(width: 480, height: 800)
            options.width = windowSize.width
            options.height = windowSize.height
            options.fullscreen = isKiosk || fullscreen || file?.bool("fullscreen") == true
            options.hideCursor = isKiosk && !settings.acceptMouse
            options.requireVisibleDisplay = true
            options.displayIndex = display ?? file?.number("display").map { Int($0) } ?? 0
            var live = LiveApp.Options()
            live.kiosk = isKiosk
            live.environment = ProcessInfo.processInfo.environment
            live.reportDirectory = report ?? file?.string("report")
            live.programVersion = Version.string
            let app: LiveApp
            do { app = try LiveApp(settings: settings, display: options, options: live, warn: warn) } catch {
                throw Failure(error.description, code: Self.status(error))
            }
            if let reportError = app.run() { throw Failure(reportError, code: 74) }
        } catch let failure as Failure {
            fail(failure)
        }
    }
}
