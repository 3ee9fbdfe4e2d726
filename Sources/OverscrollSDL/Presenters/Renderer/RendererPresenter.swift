import CSDL

/// An accelerated SDL renderer on the window (OpenGL, OpenGL ES 2: `AcceleratedRenderer`),
/// presenting the whole frame each time: a GPU back buffer is undefined after a present,
/// so every frame is drawn whole. The renderer was seen to draw (`DrawProbe`) where that
/// was in doubt.
final class RendererPresenter: DrawsWithOwnRenderer {
    let drawing: PresenterRenderer
    let described: PresenterDescription
    var keepsPixels: Bool { false }

    /// `renderer`, which this now owns.
    init(renderer: OpaquePointer, reason: String) {
        drawing = PresenterRenderer(renderer)
        described = PresenterDescription(name: "SDL's accelerated renderer", path: .gpu, reason: reason)
    }

    /// The GPU draws: no pixels of the CPU's.
    func canvas() -> WindowCanvas? { nil }

    func present(_ frame: PresentedFrame) { SDL_RenderPresent(renderer) }

    func makeListRing(note: inout String) -> (any ListRing)? {
        note = ""
        return nil
    }
}
