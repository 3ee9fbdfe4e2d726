import CSDL
import OverscrollKit

/// The console's CPU path: the shared presenter (`SharedMemoryPresenter`) over buffers
/// the program shows itself (`ConsoleChain`: DRM dumb buffers, a framebuffer device),
/// and what the console adds to it: the mode's refresh rate, the VT's switches answered
/// between frames, the VT and the screen given back at the run's end, and a device that
/// went away seen even at rest.
final class ConsolePresenter: Presenter {
    let shared: SharedMemoryPresenter
    private let chain: any ConsoleChain

    private init(shared: SharedMemoryPresenter, chain: any ConsoleChain) {
        self.shared = shared
        self.chain = chain
    }

    /// The screen `ConsoleStart` takes for `choice` before SDL starts, if it takes one.
    static func prepare(choice: RendererChoice, videoDriver: String?, output: String?, note: inout String?) throws(SDLError) -> PreparedScreen? {
        guard let console = try ConsoleStart.begin(choice: choice, videoDriver: videoDriver, output: output, note: &note) else { return nil }
        let chain = console.chain
        return PreparedScreen(
            width: chain.width, height: chain.height,
            scale: DisplayScale.connector(pixels: (chain.width, chain.height), millimetres: chain.millimetres)
                ?? DisplayScale(factor: 1, origin: "the screen reports no physical size"),
            make: { why in make(console.chain, reason: console.reason, why: &why) })
    }

    static func make(_ chain: any ConsoleChain, reason: String, why: inout String) -> ConsolePresenter? {
        let width = chain.width, height = chain.height
        // The mode's size, which never changes while the program runs: a rotated frame is
        // written turned into it where the screen shows a buffer from any pixel (DRM).
        guard let shared = SharedMemoryPresenter(chain: chain, capacity: Int(width) * Int(height) * 4,
                                                 currentSize: { (width, height) }, name: chain.presenterName, reason: reason,
                                                 bufferName: chain.bufferName, why: &why) else { return nil }
        return ConsolePresenter(shared: shared, chain: chain)
    }

    var described: PresenterDescription { shared.described }
    var renderer: OpaquePointer { shared.renderer }
    var keepsPixels: Bool { shared.keepsPixels }
    func canvas() -> WindowCanvas? { shared.canvas() }
    func present(_ frame: PresentedFrame) { shared.present(frame) }
    var sizeInPixels: (width: Int, height: Int) { shared.sizeInPixels }
    func makeListRing(note: inout String) -> (any ListRing)? { shared.makeListRing(note: &note) }
    var turned: TurnedTarget { shared.turned }
    func beginTurned(_ rotation: ScreenRotation) -> Bool { shared.beginTurned(rotation) }

    /// A present that failed, or (at rest, when nothing presents) the device asked.
    var loss: String? { shared.loss != nil || chain.broken ? chain.lossReason : nil }
    var cannotShow: String? { shared.cannotShow }
    func takeNotes() -> [String] { shared.takeNotes() }
    var refreshPeriod: Double? { chain.refreshPeriod }
    var terminal: (any PresenterTerminal)? { self }
    var scanoutSequence: Int { shared.scanoutSequence }
    func lastShown(waitingMs: Int32) -> Presentation? { shared.lastShown(waitingMs: waitingMs) }
}

extension ConsolePresenter: PresenterTerminal {
    func answerSwitches() -> Bool {
        guard chain.serviceTerminal() else { return false }
        shared.screenLost()
        return true
    }
    var isOurs: Bool { chain.active }
    func giveBack() { chain.close() }
}
