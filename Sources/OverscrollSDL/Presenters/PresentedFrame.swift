import CSDL

/// What one frame changed, handed from the painter to the presenter once, as one value
/// (`Painter.draw` makes it, `Display.present` and `Presenter.present` take it): nothing
/// reaches a presenter about a frame beside it, and it is not kept past the present (its
/// arrays are the painter's, written again in place next frame).
public struct PresentedFrame {
    /// What was drawn (`PaintedFrame`): the loop and the tests read it.
    public internal(set) var kind: PaintedFrame
    /// The rectangles (pixels) of the presenter's canvas that changed since the last
    /// present; nil: all of it. Where it can, a presenter sends only those.
    var damage: [SDL_Rect]?
    /// The list's ring where the painter keeps the list in one (`ListRing`): this frame's
    /// if the list was drawn into it (`RingFrame.drawn`), else the ring as it stands, whose
    /// lines a presenter bringing a buffer up to date still reads. Nil without a ring.
    var ring: RingFrame?
}

/// A frame of the list's ring (`ListRing`): which ring row the window's top shows and
/// what was written. A ring with pixels (X11's) puts `rows` from them; a ring kept as lines
/// (`ChainListRing`) has its presenter write the rows it lacks from `lines`.
struct RingFrame {
    /// Whether this frame drew the list into the ring (`PaintedFrame.ring`): then the
    /// overlays too were drawn anew, and `rows` and `written` are this frame's; else they
    /// are empty and the ring is as the last frame left it.
    var drawn: Bool
    /// The window rows to show from the ring: those that changed, all of them when the
    /// list moved.
    var rows: Range<Int32>
    /// The ring row the window's top shows: window row y shows ring row (first + y) mod
    /// the ring's rows.
    var first: Int32
    /// The lines (window row y is line `ListRing.ahead` + y) whose ring rows this frame
    /// wrote, as bands in order.
    var written: [Range<Int32>]
    /// What each ring row shows (`RingRows`), read only: the painter's, handed forward;
    /// a presenter reads it during the present and keeps none of it. Nil for a ring with
    /// pixels (X11's), whose rows need no lines.
    var lines: RingRows?
}
