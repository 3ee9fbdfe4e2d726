import CSDL
import OverscrollKit

/// How frames reach the screen: the one thing the display holds that differs from one
/// kind of screen to another. The core (`Display`, `Painter`, `Session`) draws a frame,
/// into the canvas this gives where the CPU draws (`canvas`) or through its renderer, and
/// hands it the rectangles that changed (`present`); it never asks which presenter it is.
///
/// The shape is SDL_Renderer's own (SDL's `src/render/`: one table of functions a
/// backend fills in, chosen once from a list of drivers): here `PresenterTable` lists
/// the presenters and chooses one at start, each in a folder of its own — `Renderer`
/// (SDL_Renderer on OpenGL/GLES), `X11` (SDL's window surface, with the list's ring in
/// MIT-SHM), `Wayland` (wl_shm buffers, over `Shared`'s `SharedMemoryPresenter`), `DRM`.
protocol Presenter: AnyObject {
    /// The SDL renderer that draws frames (the painter's, the text's and the images').
    var renderer: OpaquePointer { get }
    /// What it shows frames through, in a few words ("wl_shm buffers"), for `--verbose`
    /// and the report (summary.json's `presenter`).
    var name: String { get }
    /// The CPU or the GPU, for the start line and the report.
    var path: RenderPath { get }
    /// Why it was chosen, and how it presents (for `--verbose` and summary.json).
    var reason: String { get }
    /// Whether what was drawn last frame is still there to draw over: a window surface or
    /// a buffer of ours keeps its pixels, so a frame repaints only what changed; a GPU
    /// back buffer is undefined after a present.
    var keepsPixels: Bool { get }
    /// The pixels this frame is drawn into where the CPU draws them, as large as the
    /// screen now; nil where there are none (the GPU) or they are not 32-bit.
    func canvas() -> WindowCanvas?
    /// Shows what was drawn: `rects` (pixels) changed since the last present; nil, all of
    /// it. Where it can, only those reach the screen.
    func present(_ rects: [SDL_Rect]?)
    /// The frame's size in pixels.
    var sizeInPixels: (width: Int, height: Int) { get }
    /// A ring for the list (`ListRing`) as large as the canvas, where this presenter can
    /// show one; nil elsewhere, `why` saying why.
    func makeListRing(why: inout String) -> (any ListRing)?
    /// What the ring made (or not made, `why`) changes in how a frame is shown, said for
    /// the reason (`"; a scroll changes …"`); empty when nothing is worth saying.
    func ringNote(_ ring: (any ListRing)?, why: String) -> String
    /// The display is gone (the compositor hung up, the device was removed), as a
    /// present found: the run ends as for a lost display.
    var displayLost: Bool { get }
    /// How a screen turned by `--rotate` is drawn (`TurnedTarget`): the core draws the
    /// frame at the app's own size, between `beginTurned` and `finishTurned`.
    var turned: TurnedTarget { get }
    /// Starts a frame for a screen turned by `rotation`: the renderer draws at the app's
    /// own size until `finishTurned`. False where the frame is drawn unturned: where that
    /// cannot be had, or where the presenter turns it itself (`SharedMemoryPresenter`
    /// over DRM), its canvas then being the app's size.
    func beginTurned(_ rotation: ScreenRotation) -> Bool
    /// The cut of SDL's frame-callback damage (`SDLTrick`), where this presenter plays
    /// it (Wayland's wl_shm); nil where it does not.
    var frameDamageCut: SDLTrick.State? { get }
    /// What went with the display when `displayLost`, for the lost-display line.
    var lossReason: String { get }
    /// The screen's refresh period where the presenter knows it better than SDL (a DRM
    /// mode it set itself); nil: SDL's display mode says.
    var refreshPeriod: Double? { get }
    /// Answers what the screen asked between frames (a console's VT switches, `DRM`);
    /// true when the screen shows nothing of ours until the whole frame is drawn again.
    func serviceScreen() -> Bool
    /// Whether the screen is the program's now: false while a console's VT is another's,
    /// when what is touched is meant for that VT's program, not for the list.
    var screenIsOurs: Bool { get }
    /// Gives the screen back at the run's end, before the report (a console's VT and
    /// CRTC): the run ends by `_exit`, which runs no deinit. Nothing is shown after.
    func releaseScreen()
    /// The number the last present's trip to the screen got, whose time `lastShown` will
    /// tell; 0 where this presenter hears nothing of when a frame is shown.
    var scanoutSequence: Int { get }
    /// The last trip heard to reach the screen, reading what arrived and waiting at most
    /// `waitingMs` for one still on its way; nil before any, or where nothing is heard.
    /// A presenter that can hear two between looks tells the older first (DRM dumb
    /// buffers): ask again while the number grows.
    func lastShown(waitingMs: Int32) -> Presentation?
    /// What `lastShown`'s times are, or why there are none (summary.json's scanout_clock).
    var scanoutClock: String { get }
}

extension Presenter {
    var frameDamageCut: SDLTrick.State? { nil }
    var displayLost: Bool { false }
    var lossReason: String { "connection closed" }
    var refreshPeriod: Double? { nil }
    func serviceScreen() -> Bool { false }
    var screenIsOurs: Bool { true }
    func releaseScreen() {}
    var scanoutSequence: Int { 0 }
    func lastShown(waitingMs: Int32) -> Presentation? { nil }
    var scanoutClock: String { "not known: \(name) says nothing of when a frame reaches the screen" }

    func beginTurned(_ rotation: ScreenRotation) -> Bool { turned.begin(rotation, screen: sizeInPixels) }

    /// Turns what was drawn since `beginTurned` onto the screen, as a whole.
    func finishTurned(_ rotation: ScreenRotation) { turned.finish(rotation) { sizeInPixels } }
}
