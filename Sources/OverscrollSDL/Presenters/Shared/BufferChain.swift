import OverscrollKit

/// Buffers in memory shared with whatever shows them — a Wayland compositor (wl_shm) or
/// the display controller itself (DRM dumb buffers) — one shown at a time. The CPU
/// presenters draw a frame in plain memory and copy into a buffer of the chain only what
/// that buffer lacks: the same idea whoever reads the buffer, so it is written once
/// (the shared-memory presenter) and each chain says only how its buffers are had,
/// damaged and shown.
protocol BufferChain: AnyObject {
    /// The most buffers the chain will have at once.
    var most: Int { get }
    /// Waits until what was last committed is on screen (Wayland: the compositor's frame
    /// callback; DRM: the page flip's event), at most `timeoutMs`; a screen that shows
    /// nothing (a hidden window) sends no event, and the wait simply ends. False once the
    /// chain broke (`broken`).
    func waitFrame(timeoutMs: Int32) -> Bool
    /// A buffer nobody reads now, of `shape` (its memory, and the part of it the screen
    /// shows once it is committed: a buffer taller than the screen holds a ring of rows,
    /// `RingBuffers`; wider, a turned screen's ring of columns). Nil when none came free
    /// within `timeoutMs` (the frame is skipped; each buffer remembers what it lacks) or
    /// the chain broke. At most `most` buffers (≤ `self.most`) are used.
    func acquire(_ shape: BufferShape, most: Int32, timeoutMs: Int32) -> ChainBuffer?
    /// Whether a buffer can be shown from any pixel on (`BufferShape.x` too, not only a
    /// row): then a turned screen's ring lies along the panel's columns and the presenter
    /// turns the frame as it writes it (`SharedMemoryPresenter`); otherwise a turned frame
    /// is drawn whole and turned by SDL (`TurnedTarget`), unless `turnsPinned`.
    var showsFromAnyPixel: Bool { get }
    /// Where a buffer is not shown from any pixel: whether the presenter still turns the
    /// frame as it writes it, the list's ring pinned to the buffer's top wherever a turned
    /// screen would need a column to show from (fbdev pans by rows only, efifb not at
    /// all). False: drawn whole and turned by SDL (`TurnedTarget`).
    var turnsPinned: Bool { get }
    /// Window pixels in `rect` differ in the acquired buffer from what is shown now.
    func damage(x: Int32, y: Int32, width: Int32, height: Int32)
    /// Shows the acquired buffer. False once the chain broke, or when the driver had no
    /// memory to show it (`takeMemoryRefusal`): that frame is not shown.
    func commit() -> Bool
    /// Why the last `acquire` or `commit` failed for want of memory (a driver whose video
    /// memory is full: ENOMEM), in the driver's words with what was asked; said once, nil
    /// when it did not. The chain is not broken: asked for less, it may show.
    func takeMemoryRefusal() -> String?
    /// The display is gone (the compositor hung up, the DRM device was removed): nothing
    /// will be shown again, and the run ends as for a lost display.
    var broken: Bool { get }
    /// The number the last commit's trip to the screen got (`Presenter.scanoutSequence`);
    /// 0 where the chain hears nothing of when a buffer is shown.
    var scanoutSequence: Int { get }
    /// The last trip heard to reach the screen (`Presenter.lastShown`).
    func lastShown(waitingMs: Int32) -> Presentation?
    /// What those times are, or why there are none; nil: the presenter's default.
    var scanoutClock: String? { get }
    /// Whether `acquire` with `most` 1 hands out the one buffer while it is shown, once
    /// its flip is done (DRM: a scan-out buffer may be written, and may tear), so a driver
    /// with memory for one buffer still shows frames. Wayland's compositor reads a buffer
    /// it holds: never there.
    var drawsWhereShown: Bool { get }
    /// Whether a buffer taller than the screen is shown from the row `BufferShape.y`
    /// says; false where the driver shows every buffer from its first row (qxl): then
    /// there is no ring, and each frame's changes are written where the screen shows them.
    var showsFromAnyRow: Bool { get }
}

extension BufferChain {
    func takeMemoryRefusal() -> String? { nil }
    var scanoutSequence: Int { 0 }
    func lastShown(waitingMs: Int32) -> Presentation? { nil }
    var scanoutClock: String? { nil }
    var drawsWhereShown: Bool { false }
    var showsFromAnyRow: Bool { true }
    var turnsPinned: Bool { false }
}

/// A buffer `BufferChain.acquire` handed out.
struct ChainBuffer {
    /// Its first pixel row (32-bit XRGB8888 pixels).
    var pixels: UnsafeMutablePointer<UInt32>
    /// Pixels from one row to the next.
    var stride: Int
    /// Which of the chain's buffers it is (0..<most), so a caller can remember per buffer
    /// what it lacks.
    var index: Int
    /// New (or its contents lost): every pixel must be written.
    var fresh: Bool
}

/// A buffer's memory (`columns` × `rows` pixels) and the `width` × `height` pixels of it
/// the screen shows, from pixel (`x`, `y`) on.
struct BufferShape: Equatable {
    var columns: Int32, rows: Int32
    var width: Int32, height: Int32
    var x: Int32 = 0, y: Int32 = 0

    /// A buffer of `width` × `height` shown whole.
    init(width: Int32, height: Int32) {
        (columns, rows, self.width, self.height) = (width, height, width, height)
    }

    init(columns: Int32, rows: Int32, width: Int32, height: Int32, x: Int32, y: Int32) {
        (self.columns, self.rows, self.width, self.height, self.x, self.y) = (columns, rows, width, height, x, y)
    }
}

/// What a chain says when a buffer it queued was never shown (CBufferChain's
/// `ovs_chain_stalled`: a DRM driver that kept a page flip pending): the run ends with it,
/// rather than skipping every frame for ever, silently.
enum ChainStall {
    static func line(limitMs: Int, driver: String) -> String {
        "a page flip pending for more than \(limitMs / 1000) s: the driver (\(driver)) never completed it; nothing was shown since"
    }
}
