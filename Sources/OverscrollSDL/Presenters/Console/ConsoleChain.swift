/// The buffers the console's program shows frames through itself, without SDL's video
/// (`ConsoleStart`): DRM dumb buffers (`DumbBufferChain`) or a framebuffer device
/// (`FBDevChain`). Each is a `BufferChain` for the shared-memory presenter and says the
/// rest here: the screen's size, what it is called, and how the VT's switches and the
/// run's end reach it. (A chain, not "a screen": the screen is the display people look at.)
protocol ConsoleChain: BufferChain {
    /// What frames are shown through, for `--verbose` and summary.json's `presenter`.
    var presenterName: String { get }
    /// What one of its buffers is called ("a dumb buffer"), for the reason.
    var bufferName: String { get }
    /// The mode's size in pixels, which never changes while the program runs.
    var width: Int32 { get }
    var height: Int32 { get }
    /// The panel's size; nil where it reports none.
    var millimetres: (width: Int, height: Int)? { get }
    /// Seconds a frame; nil where the screen does not say.
    var refreshPeriod: Double? { get }
    /// The device in a few words for `--verbose`.
    var description: String { get }
    /// What went with the screen when the chain broke, for the lost-display line.
    var lossReason: String { get }
    /// Whether the screen is ours now: false while another VT is shown (and after `close`).
    var active: Bool { get }
    /// Answers the VT switches asked since the last call. True when the screen came back
    /// and must be drawn whole again.
    func serviceTerminal() -> Bool
    /// The console given back now (text mode, the CRTC or the pan as they were): the run
    /// ends by `_exit`, which runs no deinit. Nothing is shown after.
    func close()
}
