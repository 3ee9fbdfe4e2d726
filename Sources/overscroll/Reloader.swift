import OverscrollSDL
import Synchronization

/// SIGHUP: the `--config` file read again and turned into settings by the very path the
/// start used (`BehaviourOptions.settings`), so a reloaded file means exactly what it means
/// at start, flags still winning. A file with an error is refused with its FILE:LINE
/// message and the running settings stay. Runs on the reload thread, never the frame loop.
final class Reloader: Sendable {
    private let flags: SettingFlags
    private let window: WindowFlags
    /// The file as last applied, to say what a reload changed.
    private let applied: Mutex<[Setting: SettingValue]>

    init(flags: SettingFlags, window: WindowFlags, file: ConfigFile?) {
        self.flags = flags
        self.window = window
        applied = Mutex(file?.values ?? [:])
    }

    func load() -> AppSettings? {
        guard let path = flags.config else {
            warn("SIGHUP: there is no --config file to read again; nothing changed")
            return nil
        }
        do {
            let file = try ConfigFile(path: path)
            let settings = try ResolvedSettings(flags: flags, window: window, file: file).appSettings()
            let changed = applied.withLock { old in
                defer { old = file.values }
                return Set(old.keys).union(file.values.keys).filter { old[$0] != file.values[$0] }.map(\.key).sorted()
            }
            warn("reloaded \(path): " + (changed.isEmpty ? "nothing changed" : "changed \(changed.joined(separator: ", "))"))
            return settings
        } catch {
            warn("reload refused, the running settings stay: \(error)")
            return nil
        }
    }
}
