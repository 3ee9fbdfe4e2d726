import CDRM
#if canImport(Glibc)
import Glibc
#endif

/// What a DRM page-flip event's time is, as summary.json's `scanout_clock` says it. DRM
/// stamps the event with the vblank the flip happened at only where the driver counts
/// vblanks; virtio-gpu, bochs, simpledrm and the other simple KMS drivers have none, and
/// DRM sends their event as the commit ends, stamped then: a time that holds no wait for
/// a vblank, so saying "vblank" there would be a claim the device never made.
enum FlipClock: Equatable {
    /// The CRTC's vblank counter answered: the event carries that vblank's time.
    case vblank
    /// DRM said the driver counts no vblanks (EOPNOTSUPP).
    case commitEnd
    /// The question failed otherwise (a CRTC that is off answers EINVAL): the errno.
    case unknown(Int32)

    /// `ovs_drm_crtc_vblank`'s answer and its errno.
    init(probe: Int32, error: Int32) {
        switch probe {
        case Int32(ovs_drm_vblank_counted): self = .vblank
        case Int32(ovs_drm_vblank_none): self = .commitEnd
        default: self = .unknown(error)
        }
    }

    /// Asks the CRTC `device` shows on (one ioctl, no wait).
    init(device: DRMDevice) {
        var error: Int32 = 0
        let probe = ovs_drm_vblank(device.handle, &error)
        self.init(probe: probe, error: error)
    }

    /// The words for `scanout_clock`; `driver` is the kernel driver's name. Every case
    /// names a clock (CLOCK_MONOTONIC), so the compare gate still compares two runs.
    func description(driver: String) -> String {
        switch self {
        case .vblank:
            return "DRM page-flip event: the vblank's time (CLOCK_MONOTONIC)"
        case .commitEnd:
            return "DRM page-flip event: the time the commit ended (CLOCK_MONOTONIC); \(driver) counts no vblanks, "
                + "so no vblank's time and no wait for one is in it"
        case .unknown(let error):
            return "DRM page-flip event (CLOCK_MONOTONIC): the vblank's time where the driver counts vblanks; "
                + "whether \(driver) does is not known (its CRTC's vblank counter could not be read: \(String(cString: strerror(error))))"
        }
    }
}
