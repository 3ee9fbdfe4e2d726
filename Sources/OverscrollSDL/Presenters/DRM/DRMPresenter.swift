import CSDL

/// The console's CPU path: the shared presenter (`SharedMemoryPresenter`) over DRM dumb
/// buffers (`DumbBufferChain`), and what the console adds to it: the mode's refresh
/// rate, the VT's switches answered between frames, the VT and the CRTC given back at the
/// run's end, and a device that went away seen even at rest.
final class DRMPresenter: Presenter {
    private let shared: SharedMemoryPresenter
    private let chain: DumbBufferChain

    private init(shared: SharedMemoryPresenter, chain: DumbBufferChain) {
        self.shared = shared
        self.chain = chain
    }

    /// The screen `ConsoleStart` takes for `choice` before SDL starts, if it takes one.
    static func prepare(choice: RendererChoice, videoDriver: String?, note: inout String?) throws(SDLError) -> PreparedScreen? {
        guard let console = try ConsoleStart.begin(choice: choice, videoDriver: videoDriver, note: &note) else { return nil }
        let device = console.chain.device
        return PreparedScreen(
            width: device.width, height: device.height,
            scale: DisplayScale.connector(pixels: (device.width, device.height), millimetres: device.millimetres)
                ?? DisplayScale(factor: 1, origin: "the DRM connector reports no physical size"),
            make: { why in make(console, why: &why) })
    }

    private static func make(_ console: ConsoleStart, why: inout String) -> DRMPresenter? {
        let width = console.chain.device.width, height = console.chain.device.height
        // The mode's size, which never changes while the program runs: a rotated frame is
        // drawn turned inside it.
        guard let shared = SharedMemoryPresenter(chain: console.chain, capacity: Int(width) * Int(height) * 4,
                                                 currentSize: { (width, height) }, reason: console.reason,
                                                 bufferName: "a dumb buffer", why: &why) else { return nil }
        return DRMPresenter(shared: shared, chain: console.chain)
    }

    var name: String { "DRM dumb buffers" }
    var renderer: OpaquePointer { shared.renderer }
    var path: RenderPath { shared.path }
    var reason: String { shared.reason }
    var keepsPixels: Bool { shared.keepsPixels }
    func canvas() -> WindowCanvas? { shared.canvas() }
    func present(_ rects: [SDL_Rect]?) { shared.present(rects) }
    var sizeInPixels: (width: Int, height: Int) { shared.sizeInPixels }
    func makeListRing(why: inout String) -> (any ListRing)? { shared.makeListRing(why: &why) }
    func ringNote(_ ring: (any ListRing)?, why: String) -> String { shared.ringNote(ring, why: why) }
    var turned: TurnedTarget { shared.turned }

    /// A present that failed, or (at rest, when nothing presents) the device asked.
    var displayLost: Bool { shared.displayLost || chain.broken }
    var lossReason: String { "the DRM device is gone" }
    var refreshPeriod: Double? { chain.device.refreshPeriod }
    func serviceScreen() -> Bool {
        guard chain.serviceTerminal() else { return false }
        shared.screenLost()
        return true
    }
    func releaseScreen() { chain.close() }
}
