import CDRM

/// A Linux framebuffer device (/dev/fb0) opened for showing frames (`CDRM`'s fbdev.c):
/// its mode as the firmware or the kernel set it (efifb, vesafb: nothing to choose), its
/// memory mapped. Only 32 bpp XRGB8888 is drawn; any other format is refused by name.
final class FBDevice {
    let handle: OpaquePointer
    let info: ovs_fb_info
    /// Given back (`close`): the handle is no longer to be used.
    private(set) var closed = false
    /// What `context` points to, kept as long as the device: `close` (from `deinit` too)
    /// still asks its ioctls to pan back, and an optimized caller may drop its own
    /// reference at its last use, before the device is gone.
    private let contextOwner: AnyObject?

    /// The device at `path`; its ioctls through `ioctl` (nil: the kernel's; a test's fake
    /// device gives its own, with `context`, which `owner` keeps alive). The error names
    /// the device and the fix.
    init(path: String, ioctl: ovs_fb_ioctl_fn? = nil, context: UnsafeMutableRawPointer? = nil,
         owner: AnyObject? = nil) throws(SDLError) {
        contextOwner = owner
        var why = [CChar](repeating: 0, count: 320)
        guard let opened = ovs_fb_open(path, ioctl, context, &why, Int32(why.count)) else {
            throw SDLError(message: String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        handle = opened
        var info = ovs_fb_info()
        ovs_fb_get_info(opened, &info)
        self.info = info
    }

    deinit { close() }

    /// Pans back to where it was, unmaps and closes; once.
    func close() {
        guard !closed else { return }
        closed = true
        ovs_fb_destroy(handle)
    }

    var width: Int32 { info.width }
    var height: Int32 { info.height }
    var path: String { DRMDevice.text(info.path) }
    var id: String { DRMDevice.text(info.id) }
    var canPan: Bool { info.can_pan != 0 }
    var millimetres: (width: Int, height: Int)? {
        info.mm_width > 0 && info.mm_height > 0 ? (Int(info.mm_width), Int(info.mm_height)) : nil
    }

    /// The device's words for `--verbose`: "/dev/fb0 (EFI VGA) 1280x800, no pan: only the pixels that changed written".
    var description: String {
        let how = canPan ? "panned (\(info.virtual_height) rows of memory): a scroll is a pan"
                         : "no pan: only the pixels that changed written, where the screen shows them"
        return "\(path) (\(id)) \(width)x\(height), \(how)"
    }
}
