import CDRM

/// A framebuffer device as a `BufferChain` (`CDRM`'s fbdev.c) for the shared-memory
/// presenter: one buffer, the screen's memory, shown as soon as it is written. Where the
/// driver pans, it holds the list's ring, and showing it from another row is a pan (no
/// pixels); elsewhere (efifb: no pan) it is shown from its first row only, so the
/// presenter pins the ring to it (`showsFromAnyRow`) and writes only the pixels that
/// changed. Before, a shadow held the ring and each scroll copied the window's changed
/// box, nearly all of it, to the screen: fbdev cost 1.15–1.34x DRM's CPU a frame in the
/// VM, where DRM writes only the rows scrolled in.
/// There is no flip event: the frame loop's pacer paces it (`FramePacer`), as it paces a
/// display that does not block in present.
final class FBDevChain: ConsoleChain {
    let device: FBDevice
    private let terminal: VirtualTerminal?

    init(device: FBDevice, terminal: VirtualTerminal?) {
        self.device = device
        self.terminal = terminal
    }

    var most: Int { 1 }

    func waitFrame(timeoutMs: Int32) -> Bool { !device.closed }

    /// A framebuffer device pans by rows only: a screen turned by 90° or 270°, whose
    /// ring would lie along its columns, has the ring pinned to its top and is written
    /// turned where it changed (`turnsPinned`). Drawn whole and turned by SDL instead, a
    /// frame at efifb's 720x1280 turned by 270 took 123 ms of CPU in the VM (TCG), against
    /// 3.8 ms unturned, and a flick got 22 frames of momentum.
    var showsFromAnyPixel: Bool { false }
    var turnsPinned: Bool { true }

    /// Only a device that pans shows its memory from another row.
    var showsFromAnyRow: Bool { device.canPan }

    func acquire(_ shape: BufferShape, most: Int32, timeoutMs: Int32) -> ChainBuffer? {
        var stride: Int32 = 0, fresh: Int32 = 0
        guard !device.closed, shape.x == 0, shape.columns == shape.width,
              let pixels = ovs_fb_acquire(device.handle, shape.width, shape.height, shape.rows, shape.y, &stride, &fresh) else {
            return nil
        }
        return ChainBuffer(pixels: pixels, stride: Int(stride), index: 0, fresh: fresh != 0)
    }

    func damage(x: Int32, y: Int32, width: Int32, height: Int32) {
        guard !device.closed else { return }
        ovs_fb_damage(device.handle, x, y, width, height)
    }

    func commit() -> Bool { !device.closed && ovs_fb_commit(device.handle) == 0 }

    /// A framebuffer device is not unplugged (it is the firmware's, or the board's).
    var broken: Bool { false }

    // MARK: ConsoleChain

    var presenterName: String { "fbdev" }
    var bufferName: String { "the framebuffer's memory" }
    var width: Int32 { device.width }
    var height: Int32 { device.height }
    var millimetres: (width: Int, height: Int)? { device.millimetres }
    /// A firmware framebuffer's timings are made up (efifb's, vesafb's): none is said.
    var refreshPeriod: Double? { nil }
    var description: String { device.description }
    var lossReason: String { "the framebuffer device failed" }

    var active: Bool { !device.closed && ovs_fb_active(device.handle) != 0 }

    func serviceTerminal() -> Bool {
        guard let terminal, !device.closed else { return false }
        let handle = device.handle
        return terminal.service(release: { ovs_fb_release(handle) }, acquire: { ovs_fb_reacquire(handle); return true })
    }

    func close() {
        terminal?.giveBack()
        device.close()
    }

    /// Commits shown, pans among them and pixels copied to the screen (tests, `--verbose`).
    var commits: Int { device.closed ? 0 : ovs_fb_commits(device.handle) }
    var pans: Int { device.closed ? 0 : ovs_fb_pans(device.handle) }
    var copied: Int { device.closed ? 0 : ovs_fb_copied(device.handle) }
}
