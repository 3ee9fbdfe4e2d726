import OverscrollKit
/// frames.csv: the replay trace's columns (so the same tools read both), then the timing.
public enum FrameRowFormat {
    public static let fileName = "frames.csv"

    public static let timingColumns = [
        "interval_ms", "cpu_ms", "input_ms", "update_ms", "render_ms", "present_ms", "latency_ms", "touch_to_scanout_ms",
        "missed_vsyncs", "janky", "over_budget", "dominant_phase", "ui_state",
    ]

    /// The header line, newline included: the trace's columns, its `state` named
    /// `refresh_state` here, where `ui_state` stands beside it (the trace keeps `state`: the
    /// motion reference and every earlier trace are compared by that name).
    public static let header: String = {
        var trace = TraceFormat.header
        if trace.hasSuffix("\n") { trace.removeLast() }
        let columns = trace.split(separator: ",").map { $0 == "state" ? "refresh_state" : String($0) }
        return (columns + timingColumns).joined(separator: ",") + "\n"
    }()

    /// Appends `,interval_ms,…,ui_state\n`: the part of a row after the trace columns.
    /// Milliseconds with 3 decimals (µs, the histograms' unit); latency empty when there
    /// was no input; booleans as 1/0 so a spreadsheet can sum them.
    public static func appendTimingColumns(_ row: inout CSVRowBuffer, _ t: FrameTiming, _ v: FrameVerdict) {
        row.comma(); row.append(t.interval * 1000, decimals: 3)
        row.comma(); row.append(t.cpuTime * 1000, decimals: 3)
        row.comma(); row.append(t.inputTime * 1000, decimals: 3)
        row.comma(); row.append(t.updateTime * 1000, decimals: 3)
        row.comma(); row.append(t.renderTime * 1000, decimals: 3)
        row.comma(); row.append(t.presentTime * 1000, decimals: 3)
        row.comma(); if let l = t.latency { row.append(l * 1000, decimals: 3) }
        // Empty: no input, or a path that cannot know when the frame was shown.
        row.comma(); if let s = t.touchToScanout { row.append(s * 1000, decimals: 3) }
        row.comma(); row.append(v.missedVsyncs)
        row.comma(); row.append(v.janky ? "1" as StaticString : "0")
        row.comma(); row.append(v.overBudget ? "1" as StaticString : "0")
        row.comma(); row.append(name(v.dominantPhase))
        row.comma(); row.append(name(t.state))
        row.newline()
    }

    // StaticString names: appending them copies bytes and nothing else.
    static func name(_ phase: FramePhase) -> StaticString {
        switch phase {
        case .input: "input"
        case .update: "update"
        case .render: "render"
        case .present: "present"
        }
    }

    static func name(_ state: UIState) -> StaticString {
        switch state {
        case .idle: "idle"
        case .dragging: "dragging"
        case .overscrolled: "overscrolled"
        case .momentum: "momentum"
        case .refreshing: "refreshing"
        }
    }
}
