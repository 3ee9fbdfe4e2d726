/// Durations as people write them: `250ms`, `1.5s`, or a bare number of seconds.
public enum DurationFormat {
    /// Seconds, or nil when `text` is not a non-negative finite duration.
    public static func parse(_ text: Substring) -> Double? {
        var number = text
        var scale = 1.0
        if number.hasSuffix("ms") {
            number = number.dropLast(2); scale = 0.001
        } else if number.hasSuffix("s") {
            number = number.dropLast(1)
        } else if number.hasSuffix("m") {
            // Minutes and hours: a kiosk's timers (`--refresh-every 10m`) are that long.
            number = number.dropLast(1); scale = 60
        } else if number.hasSuffix("h") {
            number = number.dropLast(1); scale = 3600
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }),
              let value = Double(number), value.isFinite, value >= 0 else { return nil }
        return value * scale
    }

    public static func parse(_ text: String) -> Double? { parse(Substring(text)) }

    /// `1.5 s`, `500 ms`: for messages.
    public static func describe(_ seconds: Double) -> String {
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        let tenths = (seconds * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths)) s" : "\(tenths) s"
    }
}
