import CSDL

/// The list's pixels as a ring of pixel rows that the display shows from any row on: a
/// scroll moves which ring row the window's top shows instead of moving the pixels, so a
/// scrolling frame writes only the rows it brings into view (`ListLines.writeRing`). The
/// overlays are not in it: they are drawn in the window surface over the list written
/// again under them, and only their rectangles are taken from there. What a frame did to
/// the ring goes to the presenter in the present's value (`RingFrame`): a ring with
/// pixels (X11's) puts the rows that changed from them; a ring kept as lines
/// (`ChainListRing`) has its presenter write the rows its buffers lack from the lines.
/// Nothing reaches the display before that present, which waits, where it must, until
/// the display has read the ring: only then may rows it shows be written again.
///
/// Why: on the CPU path a scrolling frame rewrote most of the window's pixels (the text of
/// every row moved) only for the display server to copy them again; the server copies the
/// window's rows out of shared memory either way, and from any row on at the same cost.
protocol ListRing: AnyObject {
    /// The ring's size: as wide and as tall as the window.
    var bounds: SDL_Rect { get }
    /// The ring's pixels, in the window surface's format; nil for a ring kept as lines
    /// only (`ListLines.ringRows`), whose display writes the rows it shows from them
    /// (the shared-memory presenter's, `ChainListRing`).
    var canvas: WindowCanvas? { get }
    /// Rows beyond each of the window's top and bottom edges the ring holds too (lines
    /// `ahead` + y are window row y): a display that writes rows in blocks (a turned
    /// screen's buffer, 16 rows to a memory row's cache line) writes the rows about to
    /// scroll in with those on screen, once, instead of the block again each frame. 0 for
    /// the window's rows only.
    var ahead: Int32 { get }
}

extension ListRing {
    var bounds: SDL_Rect { canvas?.bounds ?? SDL_Rect() }
    var ahead: Int32 { 0 }
}
