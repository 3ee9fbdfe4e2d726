import CDRM
import OverscrollKit

/// DRM dumb buffers as a `BufferChain`: the display controller scans out memory the CPU
/// wrote, two or three buffers page-flipped on vblank (`CDRM`). The shared-memory
/// presenter writes into a buffer only what it lacks, and never reads one back (dumb
/// buffers may be write-combined: reads are uncached).
///
/// A buffer taller than the screen (a ring, `RingBuffers`) is shown from a row offset,
/// one wider than the screen (a turned screen's ring) from a column: a framebuffer over
/// the same memory with that offset, or (virtio-gpu, which ignores framebuffer offsets)
/// the plane's source rectangle moved; either costs an ioctl, no pixels.
final class DumbBufferChain: ConsoleChain {
    let device: DRMDevice
    /// The virtual terminal the screen belongs to, when the program runs on one.
    private let terminal: VirtualTerminal?

    init(device: DRMDevice, terminal: VirtualTerminal?) {
        self.device = device
        self.terminal = terminal
    }

    var most: Int { Int(ovs_drm_most) }

    func waitFrame(timeoutMs: Int32) -> Bool {
        !device.closed && ovs_drm_wait_frame(device.handle, timeoutMs) >= 0
    }

    /// A framebuffer's offset (4 bytes a pixel on) or the plane's source rectangle starts
    /// anywhere: a turned screen's ring of columns is shown as the unturned ring of rows.
    var showsFromAnyPixel: Bool { true }

    /// qxl shows a buffer from its first pixel only (`ovs_drm_info.from_start`): no ring
    /// there; a turned frame is still turned as it is written, into a buffer the panel's size.
    var showsFromAnyRow: Bool { !device.showsFromStartOnly }

    /// The display controller reads the buffer at every scan-out; written between, a
    /// frame may show torn, never stale for good (`ovs_chain_acquire`'s `most` 1).
    var drawsWhereShown: Bool { true }

    func acquire(_ shape: BufferShape, most: Int32, timeoutMs: Int32) -> ChainBuffer? {
        var stride: Int32 = 0, index: Int32 = 0, fresh: Int32 = 0
        guard !device.closed,
              let pixels = ovs_drm_acquire(device.handle, shape.width, shape.height, shape.columns, shape.rows, shape.x, shape.y,
                                           most, timeoutMs, &stride, &index, &fresh) else {
            return nil
        }
        return ChainBuffer(pixels: pixels, stride: Int(stride), index: Int(index), fresh: fresh != 0)
    }

    /// Sent with the flip as FB_DAMAGE_CLIPS, so a driver that copies to the screen
    /// (simpledrm, udl, gud) copies only that; not to virtio-gpu before the kernel that
    /// fixed its clips across a change of buffer (`ovs_drm_damage_clips_trusted`: 6.1's
    /// showed stale rows), which then updates the whole plane, as before.
    func damage(x: Int32, y: Int32, width: Int32, height: Int32) {
        guard !device.closed else { return }
        ovs_drm_damage(device.handle, x, y, width, height)
    }

    /// False also when the driver had no memory to show the buffer (`takeMemoryRefusal`).
    func commit() -> Bool { !device.closed && ovs_drm_commit(device.handle) == 0 }

    func takeMemoryRefusal() -> String? {
        guard !device.closed, let words = ovs_drm_take_no_memory(device.handle) else { return nil }
        return String(cString: words)
    }

    var scanoutSequence: Int { device.closed ? 0 : ovs_drm_commit_sequence(device.handle) }

    /// The flip events that came are read (waiting for a pending one at most
    /// `waitingMs`): the oldest flip not told yet, its vblank as the kernel stamped it;
    /// once all were told, the last one again. Asked until the number stops growing, it
    /// tells every flip: two can end between two looks where the driver has no vblank.
    func lastShown(waitingMs: Int32) -> Presentation? {
        guard !device.closed else { return nil }
        _ = ovs_drm_wait_frame(device.handle, waitingMs)
        var usec: Int64 = 0
        let sequence = ovs_drm_next_shown(device.handle, &usec)
        return sequence > 0 ? Presentation(sequence: sequence, time: Double(usec) / 1e6) : nil
    }

    /// Asked of the CRTC when read (once, for the report's metadata at the start, while
    /// the CRTC is still fbcon's and on): the event's time is a vblank's only where the
    /// driver counts them (`FlipClock`).
    var scanoutClock: String? {
        guard !device.closed else { return nil }
        return FlipClock(device: device).description(driver: device.driver)
    }

    var broken: Bool { !device.closed && ovs_drm_broken(device.handle) != 0 }

    /// Whether frames reach the screen now (not while another VT is shown, nor after `close`).
    var active: Bool { !device.closed && ovs_drm_active(device.handle) != 0 }

    /// The console given back now, not when the process ends: the run ends by `_exit`
    /// (RunWatch), which runs no deinit. The VT goes back to text mode and automatic
    /// switching, the CRTC to what it showed before; nothing is shown after.
    func close() {
        terminal?.giveBack()
        device.close()
    }

    /// Answers the VT switches asked since the last call (`VirtualTerminal`): on a
    /// release the DRM master goes (another VT's program may take it), on an acquire it
    /// is taken back. True when the screen came back and must be drawn whole again.
    func serviceTerminal() -> Bool {
        guard let terminal, !device.closed else { return false }
        let handle = device.handle
        return terminal.service(release: { _ = ovs_drm_release(handle) }, acquire: { ovs_drm_reacquire(handle) == 0 })
    }

    // MARK: ConsoleChain

    var presenterName: String { "DRM dumb buffers" }
    var bufferName: String { "a dumb buffer" }
    var width: Int32 { device.width }
    var height: Int32 { device.height }
    var millimetres: (width: Int, height: Int)? { device.millimetres }
    var refreshPeriod: Double? { device.refreshPeriod }
    var description: String { device.description }
    var lossReason: String {
        if !device.closed, case let ms = ovs_drm_stalled(device.handle), ms > 0 {
            return ChainStall.line(limitMs: Int(ms), driver: device.driver)
        }
        guard !device.closed, ovs_drm_refused(device.handle) != 0 else { return "the DRM device is gone" }
        return "the screen was never ours: another program became the DRM master of \(device.path) and refused the mode set (EACCES); "
            + "stop it (a compositor, an X server, another kiosk) or run this one under it"
    }

    /// Flips done (the mode set counts as one), for tests and `--verbose`.
    var flips: Int { device.closed ? 0 : ovs_drm_flips(device.handle) }
    var buffers: Int { device.closed ? 0 : Int(ovs_drm_buffers(device.handle)) }
}
