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

/// `output`: a connector name, checked as one where it is read (a flag: 64; a config
/// file: 78 with FILE:LINE), before any display is asked.
@Suite struct OutputSettingTests {
    @Test(arguments: ["HDMI A 1", "", "Virtual-1;rm", String(repeating: "A", count: 40)])
    func aValueThatIsNoConnectorNameIsRefused(value: String) throws {
        let r = try CLI.run(["--output", value, "--no-sound"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("must be a connector name like HDMI-A-1"), "\(r.stderr)")
        let config = try CLI.write("output = \"\(value)\"\n", to: "output.toml")
        let c = try CLI.run(["check-config", config])
        #expect(c.status == 78, "\(c.stderr)")
        #expect(c.stderr.contains("\(config):1:") && c.stderr.contains("'output'"), "\(c.stderr)")
    }

    @Test func aConnectorNameIsTaken() throws {
        let config = try CLI.write("output = \"HDMI-A-1\"\n", to: "output-ok.toml")
        let c = try CLI.run(["check-config", config])
        #expect(c.status == 0, "\(c.stderr)")
    }
}
