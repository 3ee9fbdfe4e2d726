import ArgumentParser
import OverscrollKit

/// The flags of the settings both the window and `replay` honour, declared from the
/// `Setting` table (help, value name, default). Values stay text here and are checked by
/// the setting's kind, the same check a config file's value gets.
struct SettingFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Read settings from this TOML file; its keys are the flag names without -- (flags win).", valueName: "file"))
    var config: String?

    @Option(help: Setting.font.help) var font: String?
    // `.unconditional`: "-1" is a value to refuse in words, not an option.
    @Option(parsing: .unconditional, help: Setting.threshold.help) var threshold: String?
    @Option(parsing: .unconditional, help: Setting.refreshDuration.help) var refreshDuration: String?
    @Option(parsing: .unconditional, help: Setting.refreshTimeout.help) var refreshTimeout: String?
    @Option(help: Setting.content.help) var content: String?
    @Option(help: Setting.refreshCommand.help) var refreshCommand: String?
    @Flag(inversion: .prefixedNo, help: Setting.flash.help) var flash: Bool?
    @Flag(inversion: .prefixedNo, help: Setting.sound.help) var sound: Bool?
    @Option(parsing: .unconditional, help: Setting.rotate.help) var rotate: String?
    @Flag(help: Setting.kiosk.help) var kiosk = false
    @Flag(help: Setting.mouse.help) var mouse = false
    @Flag(help: Setting.keyboard.help) var keyboard = false
    @Option(help: Setting.statusText.help) var statusText: String?
    @Option(help: Setting.size.help) var size: String?
    @Option(help: Setting.report.help) var report: String?
    @Option(parsing: .unconditional, help: Setting.reportKeep.help) var reportKeep: String?
    @Option(help: Setting.renderer.help) var renderer: String?
    @Flag(help: Setting.verbose.help) var verbose = false
    @Option(parsing: .unconditional, help: Setting.refreshEvery.help) var refreshEvery: String?
    @Option(parsing: .unconditional, help: Setting.idleReset.help) var idleReset: String?
    @Option(help: Setting.metrics.help) var metrics: String?
    @Option(parsing: .unconditional, help: Setting.scale.help) var scale: String?

    func validate() throws {
        for setting in Setting.allCases {
            guard case .shared(let ref) = setting.spec.source else { continue }
            try FlagInput(self, ref)?.check(setting)
        }
    }

    /// The config file named by `--config`, if any.
    func configFile() throws(Failure) -> ConfigFile? {
        try config.map { path throws(Failure) in try ConfigFile(path: path) }
    }
}

/// The flags of the settings only a window has: a replay refuses them.
struct WindowFlags: ParsableArguments {
    @Flag(help: Setting.fullscreen.help) var fullscreen = false
    @Option(parsing: .unconditional, help: Setting.display.help) var display: String?
    @Option(parsing: .unconditional, help: Setting.output.help) var output: String?

    func validate() throws {
        for setting in Setting.allCases {
            guard case .windowOnly(let ref) = setting.spec.source else { continue }
            try FlagInput(self, ref)?.check(setting)
        }
    }
}

/// What the command line said about one setting, when it said anything.
enum FlagInput {
    case text(String)
    case switched(Bool)

    init?<Root>(_ root: Root, _ ref: FlagRef<Root>) {
        switch ref {
        case .option(let path):
            guard let text = root[keyPath: path] else { return nil }
            self = .text(text)
        case .onOff(let path):
            guard let on = root[keyPath: path] else { return nil }
            self = .switched(on)
        case .on(let path):
            // A switch that is absent said nothing: the file or the default decides.
            guard root[keyPath: path] else { return nil }
            self = .switched(true)
        }
    }

    func value(for setting: Setting) -> Result<SettingValue, SettingKind.Problem> {
        switch self {
        case .text(let text): setting.spec.kind.parse(text)
        case .switched(let on): .success(.bool(on))
        }
    }

    /// Throws the usage error (exit 64) for a value the setting does not allow.
    func check(_ setting: Setting) throws {
        guard case .failure(let problem) = value(for: setting), case .text(let text) = self else { return }
        let spec = setting.spec
        let what = problem == .outOfRange ? "is out of range" : "is not valid"
        throw ValidationError("\(setting.flag) \(TextLines.cut(text)) \(what): it must be \(spec.kind.allowed), e.g. \(setting.flag) \(spec.example)")
    }
}

/// Every setting's value: the flag if given, else the config file, else the default.
struct ResolvedSettings: Sendable {
    private var values: [Setting: SettingValue] = [:]

    /// - Parameter window: nil for a replay, which has no window-only flags.
    init(flags: SettingFlags, window: WindowFlags?, file: ConfigFile?) {
        for setting in Setting.allCases {
            var input: FlagInput?
            switch setting.spec.source {
            case .shared(let ref): input = FlagInput(flags, ref)
            case .windowOnly(let ref): input = window.flatMap { FlagInput($0, ref) }
            }
            // Flags were checked by `validate`; a value they refused never gets here.
            if let input, case .success(let value) = input.value(for: setting) {
                values[setting] = value
            } else if let value = file?.values[setting] {
                values[setting] = value
            }
        }
    }

    func value(_ setting: Setting) -> SettingValue? { values[setting] ?? setting.spec.defaultValue }

    /// These settings as `running` has them, the rest as these: what a reload applies when
    /// some settings need a restart.
    func keeping(_ kept: some Sequence<Setting>, from running: ResolvedSettings) -> ResolvedSettings {
        var out = self
        for setting in kept { out.values[setting] = running.values[setting] }
        return out
    }

    func text(_ setting: Setting) -> String? {
        if case .text(let s) = value(setting) { return s }
        return nil
    }

    func number(_ setting: Setting) -> Double? {
        if case .number(let n) = value(setting) { return n }
        return nil
    }

    func bool(_ setting: Setting) -> Bool {
        if case .bool(let b) = value(setting) { return b }
        return false
    }

    func words(_ setting: Setting) -> [String]? {
        if case .words(let w) = value(setting) { return w }
        return nil
    }

    func size(_ setting: Setting) -> (width: Int, height: Int)? {
        if case .size(let w, let h) = value(setting) { return (w, h) }
        return nil
    }
}
