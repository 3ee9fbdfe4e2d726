/// What one reload (SIGHUP) produced, as the loop and the service manager need it.
public enum ReloadOutcome: Sendable {
    /// New settings to apply between frames (the log line has said what changed).
    case apply(AppSettings)
    /// The config means what is running already (or only names settings that need a
    /// restart): nothing to apply, no frame to draw.
    case unchanged
    /// The config was refused; the running settings stay. The reason, in one line, for
    /// the service manager's STATUS=.
    case refused(String)
}
