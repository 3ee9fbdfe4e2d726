import ArgumentParser
import ConfigReader
import FoundationEssentials
import FrameReports
import Glibc
import OverscrollKit
import OverscrollSDL
import RowSources

/// `overscroll check-config FILE`: loads a config (with its `FILE.d/*.toml` drop-ins)
/// exactly as the window would — every key checked, the settings built by the window's
/// own builder, the content file read, the font opened as a font, the refresh command
/// looked up on `PATH` — and prints the effective settings, each with where it came
/// from. Exit 0, or 78 with FILE:LINE naming the key at fault. Opens no display.
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a config file (and FILE.d/*.toml) as the window would load it; print the effective settings.",
        discussion: "Exit 0 when the window would start with it (a report or metrics file it cannot write is a warning, as in the window), 78 with FILE:LINE when not."
    )

    @Argument(help: ArgumentHelp("The config file.", valueName: "file"))
    var file: String

    func run() throws {
        let text: String
        do {
            let config = try ConfigFile(path: file)
            let resolved = ResolvedSettings(flags: try SettingFlags.parse([]), window: try WindowFlags.parse([]), file: config)
            try check(resolved, config)
            text = Self.effective(resolved, config)
        } catch let failure as Failure {
            fail(Failure(failure.message, code: ExitStatus.badConfig.rawValue))
        }
        do { try StandardOutput.write(text) } catch { fail(error) }
    }

    /// The checks the window's start makes, each failure turned into FILE:LINE of the key.
    private func check(_ resolved: ResolvedSettings, _ config: ConfigFile) throws(Failure) {
        func at(_ setting: Setting, _ message: String) -> Failure {
            let origin = config.origins[setting].map { "\(TextLines.cut($0.path)):\($0.line): " } ?? ""
            return Failure("\(origin)\(message)", code: ExitStatus.badConfig.rawValue)
        }
        let font: String
        do { font = try FontLocator.locate(explicit: resolved.text(.font)) } catch { throw at(.font, error.description) }
        do { _ = try FontCheck.verify(font) } catch { throw at(.font, error.description) }
        if let content = resolved.text(.content) {
            do { _ = try ContentFile.rows(fromFile: content) } catch { throw at(.content, error.description) }
        }
        if let command = resolved.words(.refreshCommand), let program = command.first, Self.findProgram(program) == nil {
            throw at(.refreshCommand, "refresh-command '\(TextLines.cut(program))' is not an executable file"
                     + (program.contains("/") ? "" : " on PATH") + "; give its full path or install it")
        }
        // The report and the metrics are diagnostics: the window starts without them, with
        // one warning each, and so this says the same warning and exits 0 (issue 52). Their
        // folders are made as the run would make them, and a file written in each.
        if let target = Overscroll.reportTarget(resolved, flag: nil, file: config), let problem = target.probe(now: Date().timeIntervalSince1970) {
            warn(problem.windowWarning)
        }
        if let metrics = resolved.text(.metrics) {
            let probe = Self.parent(of: metrics) + "/.overscroll-check-\(getpid())"
            if let code = ReportTarget.writeProbe(probe) {
                warn("warning: cannot write the metrics: cannot write \(OutsideText.escaped(metrics + ".tmp")): \(String(cString: strerror(code)))")
            }
        }
        try ThresholdBound.check(resolved, flag: nil, file: config, fillsScreen: resolved.bool(.kiosk) || resolved.bool(.fullscreen))
        // Everything else the builder reads (durations, rotation, choices) was checked by
        // the config's own parse; the builder runs here too, so nothing it refuses passes.
        do { _ = try resolved.appSettings() } catch { throw Failure(error.message, code: ExitStatus.badConfig.rawValue) }
    }

    /// One line a setting, as TOML that reads back to the same settings (a test reads it
    /// back), with where its value came from. Values are written by the reader's own
    /// writer (`TOMLValue.toml`: every control and bidi character escaped, so no value
    /// can forge a line); file names in comments are escaped as all outside text is.
    static func effective(_ resolved: ResolvedSettings, _ config: ConfigFile) -> String {
        // Whole paths: this is the listing an operator reads, not a one-line message.
        var out = "# effective settings of \(OutsideText.escaped(config.files.joined(separator: " + ")))\n"
        for setting in Setting.allCases {
            let value = resolved.value(setting)
            let origin = config.origins[setting].map { "\(OutsideText.escaped($0.path)):\($0.line)" } ?? "default"
            // No value (a default worked out at start): a comment, so the listing stays TOML.
            let line = value.map { "\(setting.key) = \(toml($0, setting).toml)" } ?? "# \(setting.key): \(setting.defaultDescription)"
            out += line + String(repeating: " ", count: max(0, 40 - line.count)) + "  # \(origin)\n"
        }
        return out
    }

    /// The TOML value a setting's value is written as.
    static func toml(_ value: SettingValue, _ setting: Setting) -> TOMLValue {
        switch value {
        case .text(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .words(let w): return .array(w.map { .string($0) })
        case .size: return .string(setting.spec.kind.describe(value))
        case .number(let n):
            switch setting.spec.kind {
            case .duration, .positiveDuration, .period:
                // "1.5s" where it reads back to the same seconds; else the seconds as a
                // TOML float (1e-07, 1e+20), which a duration takes too.
                let words = setting.spec.kind.describe(value)
                return DurationFormat.parse(words) == n ? .string(words) : .float(n)
            case .rotation, .displayIndex, .runCount:
                return .integer(Int(n))
            default:
                return n == n.rounded() && abs(n) < 1e15 ? .integer(Int(n)) : .float(n)
            }
        }
    }

    /// `program` as execvp would find it: a path as given, a bare name on `PATH`.
    static func findProgram(_ program: String) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (dir.isEmpty ? "." : String(dir)) + "/" + program
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
