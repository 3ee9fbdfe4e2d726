/// How much memory the list's ring asks of a chain's buffers (`RingBuffers`), on a ladder
/// the shared-memory presenter steps down when the driver refuses it (ENOMEM,
/// `BufferChain.takeMemoryRefusal`). A turned screen's ring holds rows ahead of each edge
/// and spare rows for half the window (`SharedMemoryPresenter.ringAhead`): at 1280x800,
/// two buffers of 6.35 MB each, and bochs-drm's 16 MiB of video memory, with fbcon's 4 MB
/// in it, has room for one (issue 48: the kiosk took the refused flip as a lost display
/// and was restarted for ever). Each step asks for less and costs only speed:
///
/// - `full`: the rows ahead, and spare rows for half the window (a new base, which writes
///   the text that moved, a quarter as often as with an eighth);
/// - `threeEighths`, `quarter`: the rows ahead, and spare rows for 3/8 or 1/4 of the
///   window: a driver a little short of the full room keeps most of it (bochs-drm at
///   1280x800 refuses the full 12.70 MB by 16 KB; with an eighth at once, the turned
///   frame's turn cost 2.2x the instructions it does with the full room, callgrind of
///   `overscroll-bench rotation --memory 12.6`: docs/performance.md);
/// - `spare`: the rows ahead, and the eighth of the window an unturned ring keeps;
/// - `bare`: no rows ahead (a band at the window's edge is written again as it scrolls
///   in), the eighth;
/// - `least`: no rows ahead and one spare row (a band, turned): a buffer is hardly more
///   than the screen, and a scroll writes the whole window anew, as a framebuffer's copy
///   does.
///
/// An unturned ring has no rows ahead: its one step down is the eighth to `least`. QEMU's
/// standard VGA (bochs-drm: 16 MiB, fbcon's console in it) needs it at 1280x1024: two
/// buffers with the eighth (5.9 MB each) do not fit beside fbcon's 5.2 MB, two of one
/// spare row (5.25 MB) do. At 1920x1080 not even those do: the mode set takes one, the
/// first flip is refused, and the presenter keeps that one buffer, drawn while it is
/// shown (`SharedMemoryPresenter.oneBuffer`).
struct RingRoom: Equatable {
    enum Step: Int, CaseIterable {
        case full, threeEighths, quarter, spare, bare, least

        /// The spare rows, in eighths of the window (`least`: one row, none here).
        var eighths: Int32 {
            switch self {
            case .full: 4
            case .threeEighths: 3
            case .quarter: 2
            case .spare, .bare: 1
            case .least: 0
            }
        }
        /// Whether a turned ring keeps its rows ahead at this step.
        var ahead: Bool { rawValue < Step.bare.rawValue }
    }

    private(set) var step = Step.full

    /// The rows a ring `height` rows tall holds beyond each of the window's edges, and the
    /// rows it holds twice (`RingBuffers.extra`; nil: `RingBuffers`' own eighth). `bands`:
    /// the buffer is turned 90° or 270° and takes rows 16 at a time (`TurnStrip`), so the
    /// rows come in whole bands; `ahead`: it writes rows ahead at all.
    func layout(height: Int32, bands: Bool, ahead: Bool) -> (ahead: Int32, extra: Int32?) {
        guard bands else { return (0, step == .least ? 1 : nil) }
        let n = Int32(TurnStrip.rows)
        // Two bands: a scroll of up to 16 rows a frame writes no band twice.
        let rowsAhead = ahead && step.ahead ? 2 * n : 0
        let lines = height + 2 * rowsAhead
        let spare = max(1, height * step.eighths / 8)
        return (rowsAhead, (lines + spare + n - 1) / n * n - lines)
    }

    /// Rows of memory a buffer takes for a ring `height` rows tall at this step.
    func rows(height: Int32, bands: Bool, ahead: Bool) -> Int32 {
        let (rowsAhead, extra) = layout(height: height, bands: bands, ahead: ahead)
        return height + 2 * rowsAhead + RingBuffers.spareRows(height: height, extra: extra)
    }

    /// The next step down that asks for fewer rows, or nil when none does: the least is
    /// asked already.
    func lower(height: Int32, bands: Bool, ahead: Bool) -> RingRoom? {
        let now = rows(height: height, bands: bands, ahead: ahead)
        for step in Step.allCases where step.rawValue > self.step.rawValue {
            let next = RingRoom(step: step)
            if next.rows(height: height, bands: bands, ahead: ahead) < now { return next }
        }
        return nil
    }

    /// The step in a few words, for the journal: "32 rows ahead, 160 spare".
    func describe(height: Int32, bands: Bool, ahead: Bool) -> String {
        let (rowsAhead, extra) = layout(height: height, bands: bands, ahead: ahead)
        let spare = RingBuffers.spareRows(height: height, extra: extra)
        return rowsAhead > 0 ? "\(rowsAhead) rows ahead, \(spare) spare" : "no rows ahead, \(spare) spare"
    }

    /// A buffer of `shape` in pixels and megabytes (at 4 bytes a pixel), for the journal.
    static func describe(_ shape: BufferShape) -> String {
        let megabytes = (Double(shape.columns) * Double(shape.rows) * 4 / 1e4).rounded() / 100
        return "\(shape.columns)x\(shape.rows) (\(megabytes) MB)"
    }
}
