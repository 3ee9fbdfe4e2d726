import CSDL

/// An accelerated SDL renderer on the window (OpenGL, OpenGL ES 2: `AcceleratedRenderer`),
/// presenting the whole frame each time: a GPU back buffer is undefined after a present,
/// so every frame is drawn whole. The renderer was seen to draw (`DrawProbe`) where that
/// was in doubt.
final class RendererPresenter: Presenter {
    let renderer: OpaquePointer
    let reason: String
    let turned: TurnedTarget
    var name: String { "SDL's accelerated renderer" }
    var path: RenderPath { .gpu }
    var keepsPixels: Bool { false }

    /// `renderer`, which this now owns.
    init(renderer: OpaquePointer, reason: String) {
        self.renderer = renderer
        turned = TurnedTarget(renderer: renderer)
        self.reason = reason
    }

    deinit {
        turned.release()
        SDL_DestroyRenderer(renderer)
    }

    /// The GPU draws: no pixels of the CPU's.
    func canvas() -> WindowCanvas? { nil }

    func present(_ rects: [SDL_Rect]?) { SDL_RenderPresent(renderer) }

    var sizeInPixels: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        return (Int(w), Int(h))
    }

    func makeListRing(why: inout String) -> (any ListRing)? {
        why = "not the CPU path on X11"
        return nil
    }

    func ringNote(_ ring: (any ListRing)?, why: String) -> String { "" }
}
