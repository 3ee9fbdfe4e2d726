import CSDL
import OverscrollKit

/// The console's CPU path: the shared presenter (`SharedMemoryPresenter`) over a screen
/// the program drives itself (`ConsoleScreen`: DRM dumb buffers, a framebuffer device),
/// and what the console adds to it: the mode's refresh rate, the VT's switches answered
/// between frames, the VT and the screen given back at the run's end, and a device that
/// went away seen even at rest.
final class ConsoleScreenPresenter: Presenter {
    private let shared: SharedMemoryPresenter
    private let screen: any ConsoleScreen

    private init(shared: SharedMemoryPresenter, screen: any ConsoleScreen) {
        self.shared = shared
        self.screen = screen
    }

    /// The screen `ConsoleStart` takes for `choice` before SDL starts, if it takes one.
    static func prepare(choice: RendererChoice, videoDriver: String?, output: String?, note: inout String?) throws(SDLError) -> PreparedScreen? {
        guard let console = try ConsoleStart.begin(choice: choice, videoDriver: videoDriver, output: output, note: &note) else { return nil }
        let screen = console.screen
        return PreparedScreen(
            width: screen.width, height: screen.height,
            scale: DisplayScale.connector(pixels: (screen.width, screen.height), millimetres: screen.millimetres)
                ?? DisplayScale(factor: 1, origin: "the screen reports no physical size"),
            make: { why in make(console.screen, reason: console.reason, why: &why) })
    }

    static func make(_ screen: any ConsoleScreen, reason: String, why: inout String) -> ConsoleScreenPresenter? {
        let width = screen.width, height = screen.height
        // The mode's size, which never changes while the program runs: a rotated frame is
        // written turned into it where the screen shows a buffer from any pixel (DRM).
        guard let shared = SharedMemoryPresenter(chain: screen, capacity: Int(width) * Int(height) * 4,
                                                 currentSize: { (width, height) }, name: screen.presenterName, reason: reason,
                                                 bufferName: screen.bufferName, why: &why) else { return nil }
        return ConsoleScreenPresenter(shared: shared, screen: screen)
    }

    var described: PresenterDescription { shared.described }
    var renderer: OpaquePointer { shared.renderer }
    var keepsPixels: Bool { shared.keepsPixels }
    func canvas() -> WindowCanvas? { shared.canvas() }
    func present(_ rects: [SDL_Rect]?) { shared.present(rects) }
    var sizeInPixels: (width: Int, height: Int) { shared.sizeInPixels }
    func makeListRing(note: inout String) -> (any ListRing)? { shared.makeListRing(note: &note) }
    var turned: TurnedTarget { shared.turned }
    func beginTurned(_ rotation: ScreenRotation) -> Bool { shared.beginTurned(rotation) }

    /// A present that failed, or (at rest, when nothing presents) the device asked.
    var displayLost: Bool { shared.displayLost || screen.broken }
    var lossReason: String { screen.lossReason }
    var refreshPeriod: Double? { screen.refreshPeriod }
    func serviceScreen() -> Bool {
        guard screen.serviceTerminal() else { return false }
        shared.screenLost()
        return true
    }
    var screenIsOurs: Bool { screen.active }
    func releaseScreen() { screen.close() }
    var scanoutSequence: Int { shared.scanoutSequence }
    func lastShown(waitingMs: Int32) -> Presentation? { shared.lastShown(waitingMs: waitingMs) }
}
