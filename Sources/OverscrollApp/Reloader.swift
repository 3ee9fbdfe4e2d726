import OverscrollSDL
import Workers

/// SIGHUP: the `--config` file (and its drop-ins) read again and turned into settings by
/// the builder the start used (`ResolvedSettings.appSettings`), so a reloaded file means
/// exactly what it means at start, flags still winning. Settings a running window cannot
/// take (`Setting.appliesLive`) are named in the log line as needing a restart and kept
/// as they run. A file with an error is refused with its FILE:LINE message and the running
/// settings stay. Runs on the reload thread, never the frame loop; one log line a reload.
final class Reloader: Sendable {
    private struct Running {
        /// Every setting as the window runs it now.
        var resolved: ResolvedSettings
        /// The rows' fingerprint, to tell a content file whose text changed under the same
        /// name (the rows themselves are not kept twice).
        var rows: Int
    }

    private let flags: SettingFlags
    private let window: WindowFlags
    private let running: Locked<Running>
    private let log: @Sendable (String) -> Void

    init(flags: SettingFlags, window: WindowFlags, running: ResolvedSettings, rows: [String],
         log: @escaping @Sendable (String) -> Void = { warn($0) }) {
        self.flags = flags
        self.window = window
        self.log = log
        self.running = Locked(Running(resolved: running, rows: Self.fingerprint(rows)))
    }

    func load() -> ReloadOutcome {
        guard let path = flags.config else {
            log("SIGHUP: there is no --config file to read again; nothing changed")
            return .unchanged
        }
        do {
            return try running.withLock { (r) throws(Failure) -> ReloadOutcome in
                let file = try ConfigFile(path: path)
                let fresh = ResolvedSettings(flags: flags, window: window, file: file)
                let changed = Setting.allCases.filter { r.resolved.value($0) != fresh.value($0) }
                // Metrics move to a new file live; turning them on or off needs a restart
                // (their writer and its counts are made at start).
                let restart = changed.filter {
                    !$0.appliesLive || ($0 == .metrics && (r.resolved.text(.metrics) == nil) != (fresh.text(.metrics) == nil))
                }
                let applied = fresh.keeping(restart, from: r.resolved)
                try ThresholdBound.check(applied, flag: flags.threshold, file: file,
                                         fillsScreen: applied.bool(.kiosk) || applied.bool(.fullscreen))
                let settings = try applied.appSettings()
                var live = changed.filter { !restart.contains($0) }.map(\.key)
                let rows = Self.fingerprint(settings.rows)
                if rows != r.rows, !live.contains(Setting.content.key) { live.append("the rows of \(Setting.content.key)") }
                r.resolved = applied
                r.rows = rows
                var parts: [String] = []
                if !live.isEmpty { parts.append("changed " + live.joined(separator: ", ")) }
                if !restart.isEmpty {
                    parts.append(restart.map(\.key).joined(separator: ", ") + (restart.count == 1 ? ": needs" : ": need")
                                 + " a restart; kept")
                }
                log("reloaded \(path): " + (parts.isEmpty ? "nothing changed" : parts.joined(separator: "; ")))
                return live.isEmpty ? .unchanged : .apply(settings)
            }
        } catch {
            log("reload refused, the running settings stay: \(error)")
            return .refused(error.description)
        }
    }

    private static func fingerprint(_ rows: [String]) -> Int {
        var hasher = Hasher()
        hasher.combine(rows)
        return hasher.finalize()
    }
}
