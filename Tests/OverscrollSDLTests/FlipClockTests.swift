import CDRM
import Testing
@testable import OverscrollSDL
#if canImport(Glibc)
import Glibc
#endif

/// summary.json's `scanout_clock` on the DRM dumb-buffer path says what the page-flip
/// event's time is: a vblank's only where the driver counts vblanks (`FlipClock`). No
/// DRM device is needed: the words come from the probe's answer, and the probe itself
/// is asked of a file that is no DRM device. (A device with vblanks and virtio-gpu's
/// without are met in script/vm-test.)
@Suite struct FlipClockTests {
    @Test func aCRTCThatCountsVblanksGivesTheVblanksTime() {
        let clock = FlipClock(probe: Int32(ovs_drm_vblank_counted), error: 0)
        #expect(clock == .vblank)
        #expect(clock.description(driver: "i915") == "DRM page-flip event: the vblank's time (CLOCK_MONOTONIC)")
    }

    /// virtio-gpu on Linux 6.1: DRM answers the vblank query with EOPNOTSUPP and sends the
    /// flip event as the commit ends. The words say so, and never "the vblank's time".
    @Test func aDriverWithoutVblanksGivesTheCommitsEnd() {
        let clock = FlipClock(probe: Int32(ovs_drm_vblank_none), error: EOPNOTSUPP)
        #expect(clock == .commitEnd)
        let words = clock.description(driver: "virtio_gpu")
        #expect(words == "DRM page-flip event: the time the commit ended (CLOCK_MONOTONIC); virtio_gpu counts no vblanks, "
            + "so no vblank's time and no wait for one is in it")
        // Still a clock (the report compare gate compares such runs): not "not known".
        #expect(!words.hasPrefix("not known"))
    }

    /// A file that is no DRM device answers the probe ENOTTY: not known, and the reason said.
    @Test func aFailedQueryIsNotKnownAndSaysWhy() throws {
        let fd = open("/dev/null", O_RDWR)
        try #require(fd >= 0)
        defer { close(fd) }
        var error: Int32 = 0
        let probe = ovs_drm_crtc_vblank(fd, 1, &error)
        #expect(probe == Int32(ovs_drm_vblank_unknown))
        #expect(error == ENOTTY)
        let clock = FlipClock(probe: probe, error: error)
        #expect(clock == .unknown(ENOTTY))
        let words = clock.description(driver: "simpledrm")
        #expect(words.hasPrefix("DRM page-flip event (CLOCK_MONOTONIC): "))
        #expect(words.hasSuffix("whether simpledrm does is not known (its CRTC's vblank counter could not be read: Inappropriate ioctl for device)"))
    }
}
