import CSDL

/// `ListRing` where the shared-memory presenter shows the list (`SharedMemoryPresenter`),
/// kept as lines only (`ListLines`' ring): its rows are written from those straight into
/// the chain's buffers that each hold the ring from some row on (`RingBuffers`), so a
/// scroll moves which row a buffer starts from and writes into it only the rows that
/// differ, as the X server copies only those from X11's ring. Pixels of the ring of its
/// own as well would be a window's worth of memory more (3.5 MiB at 720x1280) for rows
/// the buffers hold anyway. The ring's frames reach the presenter in the present's value
/// (`RingFrame`), with the overlays.
final class ChainListRing: ListRing {
    let bounds: SDL_Rect
    var canvas: WindowCanvas? { nil }
    var width: Int32 { bounds.w }
    var height: Int32 { bounds.h }
    /// A turned screen's presenter writes rows in bands (`TurnStrip`): the ring holds the
    /// rows about to scroll in too (`ListRing.ahead`, `SharedMemoryPresenter.ringAhead`).
    var ahead: Int32 { presenter?.ringAhead ?? 0 }
    /// Not held: the display owns it and lets it go before the screen's connection.
    private weak var presenter: SharedMemoryPresenter?

    /// A ring for `presenter`'s `width` × `height` pixels; nil for an empty window.
    init?(presenter: SharedMemoryPresenter, width: Int32, height: Int32) {
        guard width > 0, height > 0 else { return nil }
        bounds = SDL_Rect(x: 0, y: 0, w: width, h: height)
        self.presenter = presenter
        presenter.attach(self)
    }
}
