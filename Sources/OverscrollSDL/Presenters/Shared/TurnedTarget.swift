import CSDL
import OverscrollKit

/// A screen turned by `--rotate`, the way every presenter here turns it: the frame is
/// drawn at the app's own (logical) size into a texture of the presenter's renderer,
/// then copied onto the screen turned (`SDL_RenderCopyEx`), centred, as a whole. Every
/// presenter draws with an SDL renderer (the GPU's, or SDL's software renderer on the
/// CPU's pixels), so one way serves them all, and the picture is the same on each.
final class TurnedTarget {
    private let renderer: OpaquePointer
    private var texture: OpaquePointer?
    private var width: Int32 = 0, height: Int32 = 0

    init(renderer: OpaquePointer) { self.renderer = renderer }

    /// Lets the texture go: before the renderer that made it (which would free it, and
    /// this after it).
    func release() {
        if let texture { SDL_DestroyTexture(texture) }
        texture = nil
    }

    /// Points the renderer at the target for a frame turned by `rotation` on a screen of
    /// `size` pixels, (re)made at the logical size; false where it cannot be had (the
    /// frame is then drawn unturned).
    func begin(_ rotation: ScreenRotation, screen size: (width: Int, height: Int)) -> Bool {
        let logical = rotation.logicalSize(width: Double(size.width), height: Double(size.height))
        let w = Int32(logical.width), h = Int32(logical.height)
        if texture == nil || w != width || h != height {
            release()
            texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                        Int32(SDL_TEXTUREACCESS_TARGET.rawValue), w, h)
            (width, height) = (w, h)
        }
        guard let texture else { return false }
        SDL_SetRenderTarget(renderer, texture)
        return true
    }

    /// Turns what was drawn since `begin` onto the screen of `size` pixels (asked once
    /// the renderer draws on the screen again: before, its output is the target).
    func finish(_ rotation: ScreenRotation, screen: () -> (width: Int, height: Int)) {
        SDL_SetRenderTarget(renderer, nil)
        let size = screen()
        var destination = SDL_Rect(x: Int32(size.width / 2) - width / 2, y: Int32(size.height / 2) - height / 2,
                                   w: width, h: height)
        SDL_RenderCopyEx(renderer, texture, nil, &destination, Double(rotation.rawValue), nil, SDL_FLIP_NONE)
    }
}
