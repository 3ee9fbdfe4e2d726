import ArgumentParser
import Foundation
import OverscrollKit
import RowSources
import OverscrollSDL

/// A duration written as `1.5s`, `500ms`, or a bare number of seconds.
struct DurationArgument: ExpressibleByArgument {
    var seconds: Double
    init?(argument: String) {
        guard let s = DurationFormat.parse(argument) else { return nil }
        seconds = s
    }
}

/// Window size in points, `WxH`.
struct SizeArgument: ExpressibleByArgument {
    var width: Int
    var height: Int
    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (64...16384).contains(w), (64...16384).contains(h) else { return nil }
        width = w
        height = h
    }
    init(width: Int, height: Int) { self.width = width; self.height = height }
}

extension ScreenRotation: ExpressibleByArgument {
    public init?(argument: String) {
        guard let degrees = Int(argument) else { return nil }
        self.init(rawValue: degrees)
    }
    public static var allValueStrings: [String] { allCases.map { String($0.rawValue) } }
}

/// Every option that changes behaviour; the live program and `replay` share them, so a
/// replay is the live program on a virtual clock. Flags win over `--config`; unset ones
/// fall back to the file, then to the defaults.
struct BehaviourOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Read settings from this TOML file (same names as the flags; flags win).", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("TrueType font for the list (default: DejaVu Sans, found via fontconfig).", valueName: "path"))
    var font: String?

    @Option(help: ArgumentHelp("Visible pull in points that arms the refresh (default: 15% of the height, 64…140).", valueName: "pt"))
    var threshold: Double?

    @Option(help: ArgumentHelp("How long the demo refresh takes (default 1.5s).", valueName: "duration"))
    var refreshDuration: DurationArgument?

    @Option(help: ArgumentHelp("Give up on a refresh after this long, e.g. 10s or 500ms (default 10s).", valueName: "duration"))
    var refreshTimeout: DurationArgument?

    @Option(help: ArgumentHelp("Show these rows, one per line (UTF-8).", valueName: "file"))
    var content: String?

    @Option(help: ArgumentHelp("On refresh run this command (argv, no shell; write sh -c '…' for one); its output lines become the rows.", valueName: "cmd"))
    var refreshCommand: String?

    @Flag(inversion: .prefixedNo, help: "Flash the screen when the refresh arms (--no-flash for photosensitive users; default on).")
    var flash: Bool?

    @Flag(inversion: .prefixedNo, help: "Tick when the refresh arms (default on).")
    var sound: Bool?

    @Option(help: ArgumentHelp("Turn the picture and touch by 0, 90, 180 or 270 degrees clockwise.", valueName: "degrees"))
    var rotate: ScreenRotation?

    @Flag(help: "Kiosk: fullscreen, cursor hidden, touch only, no key quits; stop it with SIGTERM.")
    var kiosk = false

    @Flag(help: "In a kiosk, accept the mouse (and wheel) as well as touch.")
    var mouse = false

    func validate() throws {
        if let threshold, !(threshold.isFinite && threshold > 0) {
            throw ValidationError("--threshold must be a positive number of points, e.g. --threshold 100")
        }
        if let timeout = refreshTimeout, timeout.seconds <= 0 {
            throw ValidationError("--refresh-timeout must be longer than zero, e.g. --refresh-timeout 10s")
        }
        if let refreshCommand {
            guard let words = try? ShellWords.split(refreshCommand), !words.isEmpty else {
                throw ValidationError("--refresh-command needs a command, with balanced quotes, e.g. --refresh-command 'fetch-rows --json'")
            }
        }
    }

    /// Kiosk mode, from the flag or the config file.
    func isKiosk(_ file: ConfigFile?) -> Bool { kiosk || file?.bool("kiosk") == true }

    /// The config file named by --config, if any.
    func configFile() throws -> ConfigFile? {
        try config.map { path throws(Failure) in try ConfigFile(path: path) }
    }

    /// Resolves files and builds the settings; failures are one-line user errors.
    func settings(config file: ConfigFile?) throws -> AppSettings {
        let fontPath: String
        do { fontPath = try FontLocator.locate(explicit: font ?? file?.string("font")) } catch {
            throw Failure(error.description, code: 66)
        }
        var rows = SampleContent.rows()
        if let path = content ?? file?.string("content") {
            do { rows = try ContentFile.rows(fromFile: path) } catch { throw Failure(error.description, code: 66) }
        }
        var s = AppSettings(rows: rows, fontPath: fontPath)
        s.threshold = threshold ?? file?.number("threshold")
        s.refreshTimeout = refreshTimeout?.seconds ?? file?.number("refresh-timeout") ?? 10
        let duration = refreshDuration?.seconds ?? file?.number("refresh-duration") ?? 1.5
        s.refreshSource = DemoRefreshSource(duration: duration)
        let command = try refreshCommand.map { try ShellWords.split($0) } ?? file?.strings("refresh-command")
        if let command {
            s.refreshSource = CommandRefreshSource(arguments: command, timeout: s.refreshTimeout)
            s.refreshIsRealTime = true
            s.refreshMerge = .replace
        }
        s.flash = flash ?? file?.bool("flash") ?? true
        s.sound = sound ?? file?.bool("sound") ?? true
        s.rotation = rotate ?? file?.number("rotate").flatMap { ScreenRotation(rawValue: Int($0)) } ?? .none
        s.acceptMouse = !isKiosk(file) || mouse || file?.bool("mouse") == true
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
    FileHandle.standardError.write(Data("overscroll: \(failure.message)\n".utf8))
    Foundation.exit(failure.code)
}

func warn(_ line: String) {
    FileHandle.standardError.write(Data("overscroll: \(line)\n".utf8))
}

