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
    /// A buffer nobody reads now: `rows` pixel rows of `width` pixels, of which the
    /// `height` from row `offset` on are what the screen shows once it is committed (a
    /// buffer taller than the screen holds a ring of rows, `RingBuffers`). Nil when none
    /// came free within `timeoutMs` (the frame is skipped; each buffer remembers what it
    /// lacks) or the chain broke. At most `most` buffers (≤ `self.most`) are used.
    func acquire(width: Int32, height: Int32, rows: Int32, offset: Int32, most: Int32, timeoutMs: Int32) -> ChainBuffer?
    /// Window pixels in `rect` differ in the acquired buffer from what is shown now.
    func damage(x: Int32, y: Int32, width: Int32, height: Int32)
    /// Shows the acquired buffer. False once the chain broke.
    func commit() -> Bool
    /// The display is gone (the compositor hung up, the DRM device was removed): nothing
    /// will be shown again, and the run ends as for a lost display.
    var broken: Bool { get }
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
