import CSDL
import OverscrollKit

/// How frames reach the screen: the one thing the display holds that differs from one
/// kind of screen to another. The core (`Display`, `Painter`, `Session`) draws a frame,
/// into the canvas this gives where the CPU draws (`canvas`) or through its renderer, and
/// hands it the rectangles that changed (`present`); it never asks which presenter it is
/// (it names no presenter type: `DocumentedArchitectureTests` reads Sources/ for one).
/// What it says of itself is one value (`PresenterDescription`), read, not asked.
///
/// The shape is SDL_Renderer's own (SDL's `src/render/`: one table of functions a
/// backend fills in, chosen once from a list of drivers): here `PresenterTable` lists
/// the presenters and chooses one at start, each in a folder of its own — `Renderer`
/// (SDL_Renderer on OpenGL/GLES), `X11` (SDL's window surface, with the list's ring in
/// MIT-SHM), `Wayland` (wl_shm buffers, over `Shared`'s `SharedMemoryPresenter`), `DRM`.
protocol Presenter: AnyObject {
    /// The SDL renderer that draws frames (the painter's, the text's and the images').
    var renderer: OpaquePointer { get }
    /// What it is, why it was chosen and what it hears of the screen, said once at its
    /// making: `--verbose`, the start line and summary.json read this, nothing else.
    var described: PresenterDescription { get }
    /// Whether what was drawn last frame is still there to draw over: a window surface or
    /// a buffer of ours keeps its pixels, so a frame repaints only what changed; a GPU
    /// back buffer is undefined after a present.
    var keepsPixels: Bool { get }
    /// Whether a present is shown when it comes, at no refresh (SDL's window surface: the
    /// X server copies a put at once): the live loop presents such a frame once it is
    /// drawn, not held to a deadline (`FramePacer.presentNotBeforeUnsynced`).
    var showsAtOnce: Bool { get }
    /// The pixels this frame is drawn into where the CPU draws them, as large as the
    /// screen now; nil where there are none (the GPU) or they are not 32-bit.
    func canvas() -> WindowCanvas?
    /// Shows what was drawn: the frame's damage (pixels; nil, all of it) and the list's
    /// ring's frame, if any (`PresentedFrame`). Where it can, only those reach the screen.
    func present(_ frame: PresentedFrame)
    /// The frame's size in pixels.
    var sizeInPixels: (width: Int, height: Int) { get }
    /// A ring for the list (`ListRing`) as large as the canvas, where this presenter can
    /// show one; nil elsewhere. `note` is set to what the ring made (or its absence)
    /// changes in how a frame is shown, said for the reason (`"; a scroll changes …"`);
    /// empty when nothing is worth saying.
    func makeListRing(note: inout String) -> (any ListRing)?
    /// Why the display is gone (the compositor hung up, the device was removed), as a
    /// present found, for the lost-display line; nil while it is there. The run ends as
    /// for a lost display.
    var loss: String? { get }
    /// How a screen turned by `--rotate` is drawn (`TurnedTarget`): the core draws the
    /// frame at the app's own size, between `beginTurned` and `finishTurned`.
    var turned: TurnedTarget { get }
    /// Starts a frame for a screen turned by `rotation`: the renderer draws at the app's
    /// own size until `finishTurned`. False where the frame is drawn unturned: where that
    /// cannot be had, or where the presenter turns it itself (`SharedMemoryPresenter`
    /// over DRM), its canvas then being the app's size.
    func beginTurned(_ rotation: ScreenRotation) -> Bool
    /// Why no frame can be shown at all (the driver refused even the least memory the
    /// buffers ask for): the run ends with this line, and a restart would meet the same
    /// refusal; nil while frames can be shown.
    var cannotShow: String? { get }
    /// Lines for the journal about what the presenter changed of itself since the last
    /// call (asked for less memory, `SharedMemoryPresenter`); after one, the whole frame
    /// is drawn again, the one refused having shown nothing.
    func takeNotes() -> [String]
    /// The screen's refresh period where the presenter knows it better than SDL (a DRM
    /// mode it set itself); nil: SDL's display mode says.
    var refreshPeriod: Double? { get }
    /// The console's terminal, where the presenter shows frames on a VT it holds itself
    /// (`ConsolePresenter`); nil elsewhere.
    var terminal: (any PresenterTerminal)? { get }
    /// The number the last present's trip to the screen got, whose time `lastShown` will
    /// tell; 0 where this presenter hears nothing of when a frame is shown.
    var scanoutSequence: Int { get }
    /// The last trip heard to reach the screen, reading what arrived and waiting at most
    /// `waitingMs` for one still on its way; nil before any, or where nothing is heard.
    /// A presenter that can hear two between looks tells the older first (DRM dumb
    /// buffers): ask again while the number grows.
    func lastShown(waitingMs: Int32) -> Presentation?
}

extension Presenter {
    var showsAtOnce: Bool { false }
    var loss: String? { nil }
    var cannotShow: String? { nil }
    func takeNotes() -> [String] { [] }
    var refreshPeriod: Double? { nil }
    var terminal: (any PresenterTerminal)? { nil }
    var scanoutSequence: Int { 0 }
    func lastShown(waitingMs: Int32) -> Presentation? { nil }

    func beginTurned(_ rotation: ScreenRotation) -> Bool { turned.begin(rotation, screen: sizeInPixels) }

    /// Turns what was drawn since `beginTurned` onto the screen, as a whole.
    func finishTurned(_ rotation: ScreenRotation) { turned.finish(rotation) { sizeInPixels } }
}

/// A console's VT, as a presenter that holds one answers for it (`Presenter.terminal`).
protocol PresenterTerminal: AnyObject {
    /// Answers the VT's switches asked between frames; true when the screen shows nothing
    /// of ours until the whole frame is drawn again.
    func answerSwitches() -> Bool
    /// Whether the VT is the program's now: false while it is another's, when what is
    /// touched is meant for that VT's program, not for the list.
    var isOurs: Bool { get }
    /// Gives the console back at the run's end, before the report (its VT in text mode,
    /// the CRTC as it was): the run ends by `_exit`, which runs no deinit. Nothing is
    /// shown after.
    func giveBack()
}

/// What a presenter says of itself, one value made with it: what it shows frames through,
/// on which path, why it was chosen, what its scanout times are, and the trick it plays
/// on SDL if any. `--verbose`, the start line and summary.json (`presenter`,
/// `render_path`, `render_path_reason`, `scanout_clock`) read it; presenting never does.
public struct PresenterDescription: Sendable {
    /// What frames are shown through, in a few words ("wl_shm buffers"): summary.json's
    /// `presenter`.
    public let name: String
    /// The CPU or the GPU: the start line's and summary.json's `render_path`.
    public let path: RenderPath
    /// Why it was chosen, and how it presents: `--verbose`'s and summary.json's
    /// `render_path_reason` (`Display` adds what the window and the ring changed).
    public internal(set) var reason: String
    /// What `Presenter.lastShown`'s times are, or why there are none: summary.json's
    /// `scanout_clock`.
    public let scanoutClock: String
    /// The cut of SDL's frame-callback damage (`SDLTrick`), where this presenter plays it
    /// (Wayland's wl_shm); nil where it does not.
    let frameDamageCut: SDLTrick.State?

    /// `scanoutClock` nil: the presenter hears nothing of when a frame is shown, said so.
    init(name: String, path: RenderPath, reason: String, scanoutClock: String? = nil,
         frameDamageCut: SDLTrick.State? = nil, plural: Bool = false) {
        self.name = name
        self.path = path
        self.reason = reason
        self.scanoutClock = scanoutClock
            ?? "not known: \(name) \(plural ? "say" : "says") nothing of when a frame reaches the screen"
        self.frameDamageCut = frameDamageCut
    }
}
