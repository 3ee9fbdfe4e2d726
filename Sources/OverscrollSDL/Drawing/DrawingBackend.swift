import CSDL
import OverscrollKit

/// One way of putting a frame on screen. The painter lays the scene out in pixels
/// (`FrameLayout`), works out what changed since the picture on screen (`SceneDamage`),
/// and hands both to the backend that draws this frame; the backend draws, says what it
/// drew, and keeps `contents` saying what the window then holds. The painter, not the
/// backend, hands the frame on (`PresentedFrame`).
///
/// Two: `RendererBackend` (SDL_Renderer: a GPU, a rotated screen, and what only the
/// renderer draws on the CPU path) and `SurfaceBackend` (the CPU path, straight into the
/// presenter's pixels and the list's ring). A backend is a way of drawing; a kind of
/// screen is a presenter (`Presenter`: SDL's window surface on X11, wl_shm buffers on
/// Wayland, …), which the backends draw into without knowing which it is.
protocol DrawingBackend: AnyObject {
    /// Whether this backend can draw the next frame now (the CPU path needs the window
    /// surface in the images' pixel format); may change `contents` (a new window size).
    func takesFrame(_ contents: inout WindowContents) -> Bool
    /// Whether a change can be drawn over what `contents` says is there; otherwise the
    /// painter asks for the whole frame.
    func canAmend(_ contents: WindowContents) -> Bool
    /// Draws `frame`, which differs from the picture on screen (`previous`, laid out, when
    /// `change` is `.overlays`) by `change`. Puts the rectangles to present in `damage`
    /// (empty on entry) and what the window holds afterwards in `contents`.
    func draw(_ frame: FrameLayout, previous: FrameLayout?, change: SceneDamage,
              contents: inout WindowContents, damage: inout [SDL_Rect]) -> PaintedFrame
}

/// What a frame drew, and so what to present.
public enum PaintedFrame: Equatable, Sendable {
    case nothing
    /// The rectangles in `damage`.
    case rects
    case whole
    /// The list from the ring (`ListRing`), then the rectangles in `damage` (the overlays)
    /// from the window surface.
    case ring
}

/// What the window's pixels hold, as far as the painter knows: one value, set by the
/// backend that drew last. (Not the screen: that is the display people look at, whose
/// size and turn `ScreenRotation` and `ScreenFollower` follow.)
enum WindowContents: Equatable {
    /// Not known to be the last frame (nothing yet, a new surface, size or scale, an
    /// expose): the next frame repaints everything.
    case unknown
    /// The last frame as the renderer drew it (or a frame drawn into a target, which
    /// left the window alone but is not the surface backend's list either).
    case rendered
    /// The last frame with the flash blended over every pixel: nothing of it is a list
    /// pixel any more, so any change repaints it all.
    case flashed
    /// The last frame as the surface backend wrote it: its list (`ListLines`) in the
    /// window surface, the overlays over it.
    case surface
    /// The last frame's list in the ring (`ListRing`), shown from `ListLines.ringFirst`
    /// once `presented`; the window surface holds the list only under the overlays.
    case ring(presented: Bool)
}

extension SDL_Rect {
    init(_ r: PixelRect) { self.init(x: r.x, y: r.y, w: r.w, h: r.h) }
}

extension PixelRect {
    init(_ r: SDL_Rect) { self.init(x: r.x, y: r.y, w: r.w, h: r.h) }
}

extension FrameLayout {
    /// The rectangles to repaint when only `parts` changed since `previous`: each part's
    /// old and new rectangles together, cut to the window, in drawing order.
    func overlayDamage(_ parts: SceneOverlays, since previous: FrameLayout?, into damage: inout [SDL_Rect]) {
        for part in Self.overlayOrder where parts.contains(part) {
            let old = previous?.overlayRect(part), new = overlayRect(part)
            let area: PixelRect
            switch (old, new) {
            case let (a?, b?): area = a.union(b)
            case let (a?, nil): area = a
            case let (nil, b?): area = b
            case (nil, nil): continue
            }
            if let shown = area.intersection(bounds) { damage.append(SDL_Rect(shown)) }
        }
    }
}
