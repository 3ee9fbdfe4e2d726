import Testing
@testable import OverscrollSDL
#if canImport(Glibc)
import Glibc
#endif

/// The console's start where no DRM device can be had (this build machine): what each
/// `--renderer` leads to, and what is said.
@Suite struct ConsoleStartTests {
    private func begin(_ choice: RendererChoice, _ driver: String?, _ environment: [String: String] = [:])
        -> (started: Bool, note: String?, error: String?) {
        var note: String?
        do {
            let started = try ConsoleStart.begin(choice: choice, videoDriver: driver, note: &note, environment: { environment[$0] })
            return (started != nil, note, nil)
        } catch {
            return (false, note, error.description)
        }
    }

    /// What the kiosk unit (SDL_VIDEODRIVER=kmsdrm) prints on a machine with neither a
    /// DRM card nor a framebuffer: its own reason for each and the fix, not SDL's
    /// "kmsdrm not available".
    static let noScreen = "no DRM device in /dev/dri (no display driver loaded?); cannot open /nonexistent/fb0: No such file or directory; "
        + "load the display's driver (a DRM card in /dev/dri, or a framebuffer /dev/fb0), check the unit's groups (video), or run it under cage or X11"

    @Test(arguments: [RendererChoice.auto, .cpu])
    func aNamedConsoleWithoutAScreenIsAnErrorWithEachReason(choice: RendererChoice) throws {
        try #require(access("/dev/dri", F_OK) != 0, "this machine has /dev/dri")
        let got = begin(choice, "KMSDRM", ["OVERSCROLL_FB_DEVICE": "/nonexistent/fb0"])
        #expect(!got.started)
        #expect(got.error == "no screen to show frames on\(choice == .cpu ? " (--renderer cpu on the console)" : ""): \(Self.noScreen)")
    }

    @Test func aNamedDRMCardThatCannotBeHadIsNotPassedOverForTheFramebuffer() {
        let got = begin(.cpu, "kmsdrm", ["OVERSCROLL_DRM_DEVICE": "/nonexistent/card7", "OVERSCROLL_FB_DEVICE": "/dev/null"])
        #expect(got.error?.hasPrefix("no screen to show frames on (--renderer cpu on the console): cannot open /nonexistent/card7: No such file or directory; load") == true,
                "\(got.error ?? "no error")")
    }

    /// A DRM card that is there but cannot be had (another program is its master) is
    /// the error: the framebuffer is never tried, as a DRM driver's /dev/fb0 is its fbdev
    /// emulation, which would show nothing while the other program holds the screen
    /// (seen in the VM: modetest on bochs-drm, and the kiosk "ready" behind it).
    @Test func aDRMCardThatIsThereButRefusedIsTheErrorNotTheFramebuffer() {
        var tried: [String] = []
        let refusing = ConsoleChains.Row(how: "DRM", named: "X_DRM", present: { true }) { _, _ throws(SDLError) in
            tried.append("drm")
            throw SDLError(message: "another program is the DRM master of /dev/dri/card0 (bochs-drm)")
        }
        let fallback = ConsoleChains.Row(how: "fbdev", named: "X_FB") { _, _ throws(SDLError) in
            tried.append("fbdev")
            throw SDLError(message: "not reached")
        }
        do {
            _ = try ConsoleChains.open(rows: [refusing, fallback], environment: { _ in nil })
            Issue.record("opened")
        } catch {
            #expect(error.description == "another program is the DRM master of /dev/dri/card0 (bochs-drm)")
        }
        #expect(tried == ["drm"])
        // Without a card, the next row is tried.
        tried.removeAll()
        let absent = ConsoleChains.Row(how: "DRM", named: "X_DRM") { _, _ throws(SDLError) in
            tried.append("drm")
            throw SDLError(message: "no DRM device in /dev/dri (no display driver loaded?)")
        }
        _ = try? ConsoleChains.open(rows: [absent, fallback], environment: { _ in nil })
        #expect(tried == ["drm", "fbdev"])
    }

    @Test func aFileThatIsNotAFramebufferIsNamedAfterNoDRMDevice() throws {
        try #require(access("/dev/dri", F_OK) != 0, "this machine has /dev/dri")
        let got = begin(.auto, "kmsdrm", ["OVERSCROLL_FB_DEVICE": "/dev/null"])
        #expect(got.error?.contains("no DRM device in /dev/dri (no display driver loaded?); /dev/null is not a framebuffer device (") == true,
                "\(got.error ?? "no error")")
    }

    /// No X or Wayland display and no SDL_VIDEODRIVER may be no display at all (a
    /// container, ssh): it is left to SDL, which says what it finds, with this reason.
    @Test func aGuessedConsoleWithoutAScreenLeavesItToSDLAndSaysWhy() throws {
        try #require(access("/dev/dri", F_OK) != 0, "this machine has /dev/dri")
        let got = begin(.cpu, nil, ["OVERSCROLL_FB_DEVICE": "/nonexistent/fb0"])
        #expect(!got.started && got.error == nil)
        #expect(got.note == "asked for (--renderer cpu), but no screen of its own can be had (no DRM device in /dev/dri "
                + "(no display driver loaded?); cannot open /nonexistent/fb0: No such file or directory)")
        // SDL_VIDEODRIVER=kmsdrm from the environment names the console as much as the option.
        #expect(begin(.cpu, nil, ["SDL_VIDEODRIVER": "kmsdrm", "OVERSCROLL_FB_DEVICE": "/nonexistent/fb0"]).error != nil)
        // A display in the environment is not the console.
        #expect(begin(.cpu, nil, ["DISPLAY": ":0"]) == (false, nil, nil))
    }

    @Test(arguments: [RendererChoice.auto, .cpu, .gpu])
    func notTheConsoleIsNotTouched(choice: RendererChoice) {
        let got = begin(choice, "x11")
        #expect(!got.started && got.note == nil && got.error == nil)
    }

    @Test func gpuOnTheConsoleIsSDLsKMSDRM() {
        let got = begin(.gpu, "kmsdrm")
        #expect(!got.started && got.note == nil && got.error == nil)
    }
}
