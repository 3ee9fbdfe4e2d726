import CSDL

/// An accelerated SDL renderer on the window (OpenGL, OpenGL ES 2: `AcceleratedRenderer`),
/// presenting the whole frame each time: a GPU back buffer is undefined after a present,
/// so every frame is drawn whole. The renderer was seen to draw (`DrawProbe`) where that
/// was in doubt.
final class RendererPresenter: DrawsWithOwnRenderer {
    let drawing: PresenterRenderer
    let reason: String
    var name: String { "SDL's accelerated renderer" }
    var path: RenderPath { .gpu }
    var keepsPixels: Bool { false }

    /// `renderer`, which this now owns.
    init(renderer: OpaquePointer, reason: String) {
        drawing = PresenterRenderer(renderer)
        self.reason = reason
    }

    /// The GPU draws: no pixels of the CPU's.
    func canvas() -> WindowCanvas? { nil }

    func present(_ rects: [SDL_Rect]?) { SDL_RenderPresent(renderer) }

    func makeListRing(why: inout String) -> (any ListRing)? {
        why = "not the CPU path on X11"
        return nil
    }

    func ringNote(_ ring: (any ListRing)?, why: String) -> String { "" }
}
