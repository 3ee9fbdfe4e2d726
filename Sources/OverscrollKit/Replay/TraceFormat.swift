/// The replay trace: one CSV row per frame. The motion columns come first and never move,
/// so traces from different versions can be compared column by column; new columns go last.
public enum TraceFormat {
    public static let header = "frame,t_ms,content_offset,velocity,state,progress,rows,events,scrollbar,highlight,selected\n"

    /// One frame's row: the model as the frame left it, and what the frame did (`events`,
    /// from its `FrameEffects`).
    public static func appendRow(_ row: inout CSVRowBuffer, frame: Int, model: OverscrollModel, events: FrameEvents) {
        row.append(frame); row.comma()
        row.append(model.now * 1000, decimals: 3); row.comma()
        row.append(model.scroll.offset, decimals: 3); row.comma()
        row.append(model.scroll.velocity, decimals: 3); row.comma()
        row.append(model.refresh.state.name); row.comma()
        row.append(model.progress, decimals: 4); row.comma()
        row.append(model.rows.count); row.comma()
        // A fixed sequence, not a loop over an array of (event, name) pairs: iterating
        // one allocates in debug builds, and this runs every frame.
        var first = true
        func add(_ event: FrameEvents, _ name: StaticString) {
            guard events.contains(event) else { return }
            if !first { row.append(";" as StaticString) }
            row.append(name)
            first = false
        }
        add(.feedback, "feedback")
        add(.refreshStart, "refresh-start")
        add(.refreshEnd, "refresh-end")
        add(.refreshError, "refresh-error")
        add(.tap, "tap")
        add(.key, "key")
        add(.flash, "flash")
        row.comma()
        row.append(model.scrollBarOpacity, decimals: 3); row.comma()
        row.append(model.highlightedRow); row.comma()
        row.append(model.selectedRow)
        row.newline()
    }
}
