/// A screen a presenter took itself before SDL started (`Platforms.prepare`: the
/// console's DRM device): SDL then starts only for input, the window is made at the
/// screen's size, and the presenter is made from it once the window exists.
struct PreparedScreen {
    /// The screen's size in pixels: the window's.
    let width: Int32
    let height: Int32
    /// Pixels per point from the screen's physical size; nil where it reports none.
    let scale: DisplayScale?
    /// The presenter, once SDL and the window are there; nil with `why`.
    let make: (inout String) -> (any Presenter)?
}
