import CSDL

/// The SDL renderer a presenter draws with, and its turned target (`TurnedTarget`), owned
/// together: the target's texture goes first, then the renderer that made it.
final class PresenterRenderer {
    let renderer: OpaquePointer
    let turned: TurnedTarget

    /// Takes `renderer` over.
    init(_ renderer: OpaquePointer) {
        self.renderer = renderer
        turned = TurnedTarget(renderer: renderer)
    }

    deinit {
        turned.release()
        SDL_DestroyRenderer(renderer)
    }

    /// What the renderer draws on now, in pixels.
    var outputSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        return (Int(w), Int(h))
    }
}

/// A presenter that draws with a renderer of its own on the window (`PresenterRenderer`):
/// its renderer, its turned target and its size are that renderer's.
protocol DrawsWithOwnRenderer: Presenter {
    var drawing: PresenterRenderer { get }
}

extension DrawsWithOwnRenderer {
    var renderer: OpaquePointer { drawing.renderer }
    var turned: TurnedTarget { drawing.turned }
    var sizeInPixels: (width: Int, height: Int) { drawing.outputSize }
}
