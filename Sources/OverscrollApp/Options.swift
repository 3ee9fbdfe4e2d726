import ArgumentParser
import FrameReports
import Glibc
import OverscrollKit
import RowSources
import OverscrollSDL

extension ResolvedSettings {
    /// The app's settings: files resolved and read; failures are one-line user errors.
    /// The one builder: the window's start, every reload, a replay and `check-config`.
    func appSettings() throws(Failure) -> AppSettings {
        let fontPath: String
        do { fontPath = try FontLocator.locate(explicit: text(.font)) } catch {
            throw Failure(error.description, code: 66)
        }
        var rows = SampleRows.rows
        if let path = contentPath {
            do { rows = try ContentFile.rows(fromFile: path) } catch {
                // Memory the process cannot get is the machine's state (69), not the file's (66).
                if case .noMemory = error.reason { throw Failure(error.description, code: 69) }
                throw Failure(error.description, code: 66)
            }
        }
        var s = AppSettings(rows: rows, fontPath: fontPath)
        s.threshold = number(.threshold)
        s.refreshTimeout = number(.refreshTimeout) ?? 10
        s.refreshSource = DemoRefreshSource(duration: number(.refreshDuration) ?? 1.5)
        if let command = words(.refreshCommand) {
            // The model's watchdog is the one judge of a timeout (its banner and log line);
            // the command is killed a moment later, so the two never race.
            s.refreshSource = CommandRefreshSource(arguments: command, timeout: s.refreshTimeout + 0.5)
            s.refreshCommand = command
            s.refreshIsRealTime = true
            s.refreshMerge = .replace
        }
        s.flash = bool(.flash)
        s.sound = bool(.sound)
        s.rotation = number(.rotate).flatMap { ScreenRotation(rawValue: Int($0)) } ?? .none
        s.acceptMouse = !bool(.kiosk) || bool(.mouse)
        s.acceptKeys = !bool(.kiosk) || bool(.keyboard)
        s.statusText = text(.statusText) != "off"
        s.refreshEvery = number(.refreshEvery)
        s.idleReset = number(.idleReset)
        s.metricsPath = text(.metrics)
        return s
    }
}

/// A failure to report as one line on stderr with its own exit status.
struct Failure: Error, CustomStringConvertible {
    var message: String
    var code: Int32
    init(_ message: String, code: Int32 = 1) {
        self.message = message
        self.code = code
    }
    var description: String { message }
}

/// The program's one log, standard error: every line written through it, checked, none
/// able to end the program (see `LogWriter`). A constant made once, for the whole process,
/// as standard error itself is.
let standardErrorLog = LogWriter()

/// Prints `overscroll: message` and exits with the failure's status (a log that cannot
/// be written changes neither).
func fail(_ failure: Failure) -> Never {
    // A 64 is a usage error wherever it was found (a threshold past the window's
    // height is known only once the size is): printed as one, with the usage.
    if failure.code == ExitStatus.usage.rawValue { UsageError.exit(ValidationError(failure.message)) }
    standardErrorLog.line(failure.message)
    exit(failure.code)
}

@Sendable func warn(_ line: String) {
    standardErrorLog.line(line)
}

/// Text the program wrote itself (the usage), unescaped, through the same checked writer:
/// a stderr that cannot take it loses the text, never the run.
func writeStandardError(_ text: String) {
    standardErrorLog.raw(text)
}


extension ResolvedSettings {
    /// The drawing path `--renderer` (or the config file) asks for.
    var renderer: RendererChoice { text(.renderer).flatMap(RendererChoice.init(rawValue:)) ?? .auto }

    /// The `--verbose` line about the display.
    func describe(_ display: Display) {
        guard bool(.verbose) else { return }
        // Which platform row SDL's driver is, and why (`Platforms.rows`).
        warn(display.platformLine)
        let presenting = display.presenting
        warn("drawing on the \(presenting.path.rawValue) path (\(display.videoDriver) / \(display.renderDriver)) through \(presenting.name): \(presenting.reason)")
        // Each trick played on SDL, whether it is in effect, and why not where it is not.
        for trick in display.tricks { warn(trick.line) }
    }

    /// The rows' file: `--content`, else `$OVERSCROLL_ASSETS/content/sample.txt` where that
    /// folder has one (new sample rows tried without a rebuild), else none: the built-in sample.
    var contentPath: String? {
        if let path = text(.content) { return path }
        guard let folder = getenv("OVERSCROLL_ASSETS").map({ String(cString: $0) }), !folder.isEmpty else { return nil }
        let path = folder + "/content/sample.txt"
        return access(path, F_OK) == 0 ? path : nil
    }

    /// Where the rows came from, in words: the `--content` file, the assets folder's
    /// sample or the built-in sample.
    var rowsOrigin: String {
        if text(.content) == nil, let path = contentPath { return "\(TextLines.cut(path)) ($OVERSCROLL_ASSETS)" }
        return contentPath.map { TextLines.cut($0) } ?? SampleRows.origin
    }

    /// The `--verbose` line about the rows, so a list that is not the expected one says why.
    func describeRows(_ settings: AppSettings) {
        guard bool(.verbose) else { return }
        warn("rows: \(settings.rows.count) from \(rowsOrigin)")
    }
}
