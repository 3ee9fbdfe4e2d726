import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The kiosk unit's start (SDL_VIDEODRIVER=kmsdrm) where no screen can be had: the
/// program's own reasons and the fix, one line, exit 69 — which the unit does not restart
/// every 2 s (Assets/kiosk/overscroll-kiosk.service) — not SDL's "kmsdrm not available".
@Suite struct ConsoleWithoutAScreenTests {
    @Test func neitherADRMCardNorAFramebufferSaysEachReasonAndTheFix() throws {
        try #require(access("/dev/dri", F_OK) != 0, "this machine has /dev/dri")
        let r = try CLI.run(["/usr/bin/env", "SDL_VIDEODRIVER=kmsdrm", "OVERSCROLL_FB_DEVICE=/nonexistent/fb0", CLI.executable,
                             "--kiosk", "--no-sound", "--verbose"], through: "/usr/bin/env")
        #expect(r.status == 69, "\(r.stderr)")
        // --verbose says where the rows came from first; the error is the last line.
        #expect(r.stderr.hasSuffix("\noverscroll: no screen to show frames on: no DRM device in /dev/dri (no display driver loaded?); "
                + "cannot open /nonexistent/fb0: No such file or directory; load the display's driver (a DRM card in /dev/dri, "
                + "or a framebuffer /dev/fb0), check the unit's groups (video), or run it under cage or X11\n"), "\(r.stderr)")
    }

    /// A framebuffer in a format the program does not draw (here: a file that is none) is
    /// named, after the DRM card that is not there.
    @Test func aFramebufferThatCannotBeUsedIsNamed() throws {
        try #require(access("/dev/dri", F_OK) != 0, "this machine has /dev/dri")
        let r = try CLI.run(["/usr/bin/env", "SDL_VIDEODRIVER=kmsdrm", "OVERSCROLL_FB_DEVICE=/dev/null", CLI.executable,
                             "--kiosk", "--no-sound"], through: "/usr/bin/env")
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("overscroll: no screen to show frames on: no DRM device in /dev/dri (no display driver loaded?); "
                + "/dev/null is not a framebuffer device ("), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
}
