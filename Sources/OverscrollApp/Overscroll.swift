import ArgumentParser
import FoundationEssentials
import FrameReports
import Glibc
import OverscrollKit
import OverscrollSDL

/// `overscroll [options]`: the interactive window, or a kiosk. The window is the root
/// command itself (not a default subcommand), so `overscroll --help` shows its options.
@main
struct Overscroll: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overscroll",
        abstract: "A scrollable list with touch overscroll and pull-to-refresh, on SDL2: opens the window.",
        usage: """
            overscroll [<settings>] [--fullscreen] [--display <n>]
            overscroll replay <script> [--fps <n>] [--trace <file>] [--window] [--repeat <n>] [<settings>]
            overscroll report <dir> [<new>] [--tolerance <pct>]
            overscroll check-config <file>
            """,
        discussion: ExitStatus.helpText,
        version: Version.string,
        subcommands: [Replay.self, Report.self, CheckConfig.self]
    )

    @OptionGroup(title: "Settings (also config keys, without the --)") var settings: SettingFlags
    @OptionGroup(title: "Window (a replay refuses these: it has no display)") var window: WindowFlags

    /// The setting flags this command parsed: those before a subcommand's name, and
    /// (ArgumentParser gives a parent's options to it wherever they stand) those after
    /// it. A subcommand checks them so that none is silently dropped.
    func givenFlags() -> (shared: [String], windowOnly: [String]) {
        var shared = settings.config == nil ? [] : ["--config"], windowOnly: [String] = []
        for setting in Setting.allCases {
            switch setting.spec.source {
            case .shared(let ref): if FlagInput(settings, ref) != nil { shared.append(setting.flag) }
            case .windowOnly(let ref): if FlagInput(window, ref) != nil { windowOnly.append(setting.flag) }
            }
        }
        return (shared, windowOnly)
    }

    func run() throws {
        do {
            let file = try settings.configFile()
            let resolved = ResolvedSettings(flags: settings, window: window, file: file)
            let isKiosk = resolved.bool(.kiosk)
            try ThresholdBound.check(resolved, flag: settings.threshold, file: file,
                                     fillsScreen: isKiosk || resolved.bool(.fullscreen))
            let app = try resolved.appSettings()
            resolved.describeRows(app)
            var options = Display.Options()
            let size = resolved.size(.size) ?? (480, 800)
            options.width = size.width
            options.height = size.height
            options.fullscreen = isKiosk || resolved.bool(.fullscreen)
            options.hideCursor = isKiosk && !app.acceptMouse
            options.pointerFollowsMouse = isKiosk
            options.requireVisibleDisplay = true
            options.displayIndex = resolved.number(.display).map { Int($0) } ?? 0
            options.output = resolved.text(.output)
            options.renderer = resolved.renderer
            options.scale = resolved.number(.scale)
            options.scaleOrigin = settings.scale != nil ? "--scale" : "scale in the config file"
            var live = LiveApp.Options()
            live.kiosk = isKiosk
            live.environment = ProcessInfo.processInfo.environment
            live.report = Self.reportTarget(resolved, flag: settings.report, file: file)
            live.programVersion = Version.string
            live.logLinesDropped = { standardErrorLog.dropped }
            if resolved.bool(.verbose) { live.verbose = warn }
            live.followScreen = options.fullscreen
            live.reload = Reloader(flags: settings, window: window, running: resolved, rows: app.rows).load
            // Our one line says why a window cannot open; SDL's and libwayland's own lines
            // came before it (issue 41). `--verbose` keeps theirs.
            if !resolved.bool(.verbose) { SDLMessages.silence() }
            let liveApp: LiveApp
            do { liveApp = try LiveApp(settings: app, display: options, options: live, warn: warn) } catch {
                throw Failure(error.description, code: ExitStatus.of(error).rawValue)
            }
            resolved.describe(liveApp.display)
            if let reportError = liveApp.run() { throw Failure(reportError, code: ExitStatus.writeFailed.rawValue) }
            // SIGTERM and SIGINT end a window as it is meant to end (0); another stopping
            // signal (SIGALRM, SIGXCPU, SIGPWR) is told apart by its status.
            let status = SignalHandling.liveExitStatus(SignalHandling.stopRequested)
            if status != 0, let signal = SignalHandling.stopRequested {
                throw Failure("stopped by \(SignalHandling.name(signal)); the report is written", code: status)
            }
        } catch let failure as Failure {
            fail(failure)
        }
    }

    /// `--report DIR` is one run into a new or empty directory; `report` in a config file
    /// is a service's: each run gets a subdirectory numbered in start order, the last
    /// `report-keep` kept, so a restart never finds its directory taken. The replay too.
    static func reportTarget(_ resolved: ResolvedSettings, flag: String?, file: ConfigFile?) -> ReportTarget? {
        guard let directory = resolved.text(.report) else { return nil }
        guard flag == nil, file?.values[.report] != nil else { return .directory(directory) }
        return .runs(in: directory, keep: Int(resolved.number(.reportKeep) ?? 10))
    }

    static func main() {
        // Before anything else: fds 0-2 open, every signal's disposition set (see the table).
        SignalHandling.installProcessDefaults()
        do {
            // The process's own argv, not the runtime's guess (ProcessArguments says why).
            var command = try parseAsRoot(ProcessArguments.afterName)
            try command.run()
        } catch {
            UsageError.exit(error)
        }
    }
}

enum Version {
    static let string = "0.1.0"
}
