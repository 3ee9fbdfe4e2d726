import ArgumentParser
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
        discussion: "Exit 0 when the window would start with it, 78 with FILE:LINE when not."
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
        for setting in [Setting.metrics, .report] {
            guard let path = resolved.text(setting) else { continue }
            let dir = setting == .report ? Self.parent(of: path.hasSuffix("/") ? String(path.dropLast()) : path) : Self.parent(of: path)
            if access(dir, W_OK) != 0 {
                throw at(setting, "\(setting.key) '\(TextLines.cut(path))': its directory \(TextLines.cut(dir)) is not writable (\(String(cString: strerror(errno))))")
            }
        }
        try ThresholdBound.check(resolved, flag: nil, file: config, fillsScreen: resolved.bool(.kiosk) || resolved.bool(.fullscreen))
        // Everything else the builder reads (durations, rotation, choices) was checked by
        // the config's own parse; the builder runs here too, so nothing it refuses passes.
        do { _ = try resolved.appSettings() } catch { throw Failure(error.message, code: ExitStatus.badConfig.rawValue) }
    }

    /// One line a setting, as TOML, with where its value came from.
    static func effective(_ resolved: ResolvedSettings, _ config: ConfigFile) -> String {
        // Whole paths: this is the listing an operator reads, not a one-line message.
        var out = "# effective settings of \(config.files.joined(separator: " + "))\n"
        for setting in Setting.allCases {
            let value = resolved.value(setting)
            let origin = config.origins[setting].map { "\($0.path):\($0.line)" } ?? "default"
            // No value (a default worked out at start): a comment, so the listing stays TOML.
            let line = value.map { "\(setting.key) = \(toml($0, setting))" } ?? "# \(setting.key): \(setting.defaultDescription)"
            out += line + String(repeating: " ", count: max(0, 40 - line.count)) + "  # \(origin)\n"
        }
        return out
    }

    private static func toml(_ value: SettingValue, _ setting: Setting) -> String {
        func quoted(_ s: String) -> String {
            var out = "\""
            for c in s {
                if c == "\\" || c == "\"" { out.append("\\") }
                out.append(c)
            }
            return out + "\""
        }
        switch value {
        case .text(let s): return quoted(s)
        case .bool(let b): return b ? "true" : "false"
        case .words(let w): return "[" + w.map(quoted).joined(separator: ", ") + "]"
        case .size: return quoted(setting.spec.kind.describe(value))
        case .number(let n):
            switch setting.spec.kind {
            case .duration, .positiveDuration: return quoted(setting.spec.kind.describe(value))
            default: return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
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
