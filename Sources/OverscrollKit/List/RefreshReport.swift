/// How a refresh ended, for the operator's log: one short, greppable line per refresh.
///
///     refreshed: 12 rows in 0.84 s
///     refresh failed: 'sh' exited 2: server unreachable (kept 100 rows)
///     refresh timed out after 10 s (kept 100 rows)
public struct RefreshReport: Sendable, Equatable {
    public enum Ending: Sendable, Equatable {
        /// The work brought this many rows.
        case success(rows: Int)
        /// The work failed with this message (for the log; the banner says it in words for people).
        case failure(String)
        /// The model's watchdog gave up after this many seconds.
        case timedOut(after: Double)
    }

    public var ending: Ending
    /// Seconds from the start of the refresh to its end, on the model's clock.
    public var duration: Double
    /// Rows in the list afterwards.
    public var rows: Int

    public init(ending: Ending, duration: Double, rows: Int) {
        self.ending = ending
        self.duration = duration
        self.rows = rows
    }

    public var logLine: String {
        switch ending {
        case .success(let count):
            "refreshed: \(count) row\(count == 1 ? "" : "s") in \(Self.seconds(duration))"
        case .failure(let message):
            "refresh failed: \(message) (kept \(rows) row\(rows == 1 ? "" : "s"))"
        case .timedOut(let after):
            "refresh timed out after \(DurationFormat.describe(after)) (kept \(rows) row\(rows == 1 ? "" : "s"))"
        }
    }

    /// `0.84 s`: two decimals, enough to see a slow server, short enough to scan.
    static func seconds(_ value: Double) -> String {
        let hundredths = Int((max(0, value) * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}
