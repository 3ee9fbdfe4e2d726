import ArgumentParser
import Glibc
import OverscrollKit
import RowSources
import OverscrollSDL

extension ResolvedSettings {
    /// The app's settings: files resolved and read; failures are one-line user errors.
    func appSettings() throws(Failure) -> AppSettings {
        let fontPath: String
        do { fontPath = try FontLocator.locate(explicit: text(.font)) } catch {
            throw Failure(error.description, code: 66)
        }
        var rows = SampleRows.rows
        if let path = text(.content) {
            do { rows = try ContentFile.rows(fromFile: path) } catch { throw Failure(error.description, code: 66) }
        }
        var s = AppSettings(rows: rows, fontPath: fontPath)
        s.threshold = number(.threshold)
        s.refreshTimeout = number(.refreshTimeout) ?? 10
        s.refreshSource = DemoRefreshSource(duration: number(.refreshDuration) ?? 1.5)
        if let command = words(.refreshCommand) {
            // The model's watchdog is the one judge of a timeout (its banner and log line);
            // the command is killed a moment later, so the two never race.
            s.refreshSource = CommandRefreshSource(arguments: command, timeout: s.refreshTimeout + 0.5)
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

/// Prints `overscroll: message` and exits with the failure's status.
func fail(_ failure: Failure) -> Never {
    warn(failure.message)
    exit(failure.code)
}

func warn(_ line: String) { writeStandardError("overscroll: \(line)\n") }

/// One write(2) of the text, retried where it was cut short; a stderr that cannot take it
/// loses the text, never the run.
func writeStandardError(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return }
        offset += n
    }
}


extension ResolvedSettings {
    /// The drawing path `--renderer` (or the config file) asks for.
    var renderer: RendererChoice { text(.renderer).flatMap(RendererChoice.init(rawValue:)) ?? .auto }

    /// The `--verbose` line about the display.
    func describe(_ display: Display) {
        guard bool(.verbose) else { return }
        warn("drawing on the \(display.path.rawValue) path (\(display.videoDriver) / \(display.renderDriver)): \(display.pathReason)")
    }

    /// Where the rows came from, in words: the `--content` file or the built-in sample.
    var rowsOrigin: String { text(.content).map { TextLines.cut($0) } ?? SampleRows.origin }

    /// The `--verbose` line about the rows, so a list that is not the expected one says why.
    func describeRows(_ settings: AppSettings) {
        guard bool(.verbose) else { return }
        warn("rows: \(settings.rows.count) from \(rowsOrigin)")
    }
}
