import CSDL
import OverscrollKit

/// Draws a `Scene`: lays it out in pixels (`FrameLayout`; the model never knows about
/// pixels), works out what changed since the picture on screen, and hands the frame to
/// the backend that draws it — the surface backend on the CPU path when the window surface
/// can take it, else the renderer backend. `contents` says what the window holds.
///
/// Each overlay has a rectangle (`FrameLayout.overlayRect`): when only overlays changed
/// and the display keeps its pixels, only their rectangles are repainted — the list under
/// them, then the overlays, clipped — and only those reach the screen.
public final class Painter {
    public typealias Painted = PresentedFrame

    private let display: Display
    public let text: TextCache
    private let rowImages: RowImages
    private let bannerLines: BannerLines
    private let renderer: RendererBackend
    /// The CPU path's backend; nil on the GPU path.
    private let surface: SurfaceBackend?
    public private(set) var scale: Double
    /// This frame's repainted rectangles in pixels, when it repainted parts.
    public private(set) var damage: [SDL_Rect] = []
    private var contents = WindowContents.unknown
    /// This frame laid out, and the last one when only overlays changed.
    private(set) var frame = FrameLayout()
    private var previousFrame = FrameLayout()
    /// How the screen is turned (`--rotate`): a turned frame is drawn whole at the app's
    /// size and turned by the presenter (`Display.beginTurned`).
    var rotation = ScreenRotation.none

    /// The surface backend's ring (`ListRing`); a test puts its own here.
    var ring: (any ListRing)? {
        get { surface?.ring }
        set { surface?.ring = newValue }
    }
    var ringFirst: Int32 { surface?.ringFirst ?? 0 }
    /// How far beyond the window's edges the scene should hold rows, in points: the rows
    /// the ring's display writes before they show (`ListRing.ahead`); 0 for most.
    public var rowMargin: Double { Double(surface?.ring?.ahead ?? 0) / scale }
    var ringPixelsWritten: Int { surface?.ringPixelsWritten ?? 0 }
    /// How many row and status images have been composed, to show one is not composed again.
    var imagesComposed: Int { rowImages.serials }

    public init(display: Display, text: TextCache, scale: Double) {
        self.display = display
        self.text = text
        self.scale = scale
        rowImages = RowImages(display: display, text: text)
        bannerLines = BannerLines(text: text)
        let overlays = RendererOverlays(display: display, text: text)
        renderer = RendererBackend(display: display, text: text, rowImages: rowImages, overlays: overlays)
        surface = display.keepsPixels ? SurfaceBackend(display: display, rowImages: rowImages, overlays: overlays) : nil
        damage.reserveCapacity(8)
    }

    public func setScale(_ newScale: Double) throws(SDLError) {
        scale = newScale
        contents = .unknown
        try text.setScale(newScale)
    }

    /// The room the last frame's banner takes above the first row, in points; nil when it
    /// showed none.
    var bannerRoom: Double? { frame.banner?.room }

    /// The picture on screen was lost or resized: repaint all of it next frame.
    public func invalidate() { contents = .unknown }

    /// Draws the whole picture. The scene is everything there is to draw: the painter
    /// reads nothing else.
    public func draw(_ scene: Scene) {
        contents = .unknown
        _ = draw(scene, since: nil)
    }

    /// Draws the whole picture into the current render target (a texture: the
    /// presenter's for a turned screen, `TurnedTarget`), through the renderer only.
    func drawIntoTarget(_ scene: Scene) {
        _ = paint(scene, since: nil, by: renderer)
    }

    /// Draws what differs from `previous`, the scene drawn last frame (nil: everything).
    /// Returns what to present (`present`): the frame's one value for the presenter.
    public func draw(_ scene: Scene, since previous: Scene?) -> Painted {
        if rotation != .none, display.beginTurned(rotation) {
            // Turned onto the screen as a whole: always the whole picture, by the renderer.
            drawIntoTarget(scene)
            display.finishTurned(rotation)
            return presented(.whole)
        }
        if let surface, surface.takesFrame(&contents) { return presented(paint(scene, since: previous, by: surface)) }
        return presented(paint(scene, since: previous, by: renderer))
    }

    private func paint(_ scene: Scene, since previous: Scene?, by backend: any DrawingBackend) -> PaintedFrame {
        frame.update(scene, scale: scale) { bannerLines.wrap($0, width: $1, scale: $2) }
        var change = contents == .unknown || !display.keepsPixels ? .full : scene.damage(since: previous, pixelScale: scale)
        if change != .none, !backend.canAmend(contents) { change = .full }
        damage.removeAll(keepingCapacity: true)
        var before: FrameLayout?
        switch change {
        case .none: break
        case .full:
            // Rows are cut to the window's width, less the insets; only a changed list can
            // bring new rows.
            text.fit(width: frame.textWidth)
            rowImages.beginFrame(scale: scale, width: frame.width, visible: frame.rows.count)
        case .overlays:
            if let previous {
                previousFrame.update(previous, scale: scale) { bannerLines.wrap($0, width: $1, scale: $2) }
                before = previousFrame
            }
        }
        return backend.draw(frame, previous: before, change: change, contents: &contents, damage: &damage)
    }

    /// The frame's value for the presenter: what was drawn, its rectangles (`damage`; all
    /// of it for `.whole`), and the list's ring, where there is one, as this frame left it.
    private func presented(_ kind: PaintedFrame) -> Painted {
        PresentedFrame(kind: kind, damage: kind == .whole ? nil : damage, ring: surface?.ringFrame(drawn: kind == .ring))
    }

    /// What `show` did, for the profiler's phases (`FrameTiming`): what was drawn, when
    /// the drawing ended and when the present started (monotonic seconds).
    public struct Shown {
        public let kind: PaintedFrame
        public let drawn: Double
        public let presentStart: Double
    }

    /// A frame, the loop's one call: draws what differs from `previous` (`draw`) and shows
    /// it (`present`), not before `notBefore` (monotonic seconds). Early for its deadline,
    /// it waits: the wait is no phase's work (the present starts after it), and it is time
    /// the frame was ready, so it is not CPU.
    public func show(_ scene: Scene, since previous: Scene?, notBefore: Double = -.infinity) -> Shown {
        let frame = draw(scene, since: previous)
        let drawn = MonotonicClock.now()
        if notBefore > drawn { MonotonicClock.sleep(notBefore - drawn) }
        let presentStart = max(drawn, MonotonicClock.now())
        present(frame)
        return Shown(kind: frame.kind, drawn: drawn, presentStart: presentStart)
    }

    /// Shows what `draw` returned (`Display.present`): only what changed where the display
    /// allows. The value is not kept: its arrays are written again in place next frame.
    public func present(_ painted: Painted) {
        display.present(painted)
        // The ring's frame is on its way: the next frame may show the ring from another row.
        if painted.kind == .ring { contents = .ring(presented: true) }
    }
}
