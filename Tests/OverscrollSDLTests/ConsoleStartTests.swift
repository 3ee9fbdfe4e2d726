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

    @Test func cpuOnANamedConsoleWithoutADeviceIsAnError() throws {
        try #require(access("/dev/dri", F_OK) != 0, "this machine has /dev/dri")
        let got = begin(.cpu, "kmsdrm")
        #expect(got.error == "cannot show frames through DRM dumb buffers (--renderer cpu on the console): "
                + "no DRM device in /dev/dri (no display driver loaded?); check the device and the unit's groups (video), or try --renderer gpu")
    }

    @Test func autoWithoutADeviceLeavesItToSDLAndSaysWhy() throws {
        try #require(access("/dev/dri", F_OK) != 0, "this machine has /dev/dri")
        let got = begin(.auto, "KMSDRM")
        #expect(!got.started && got.error == nil)
        #expect(got.note == "no DRM render node: OpenGL would be a software rasterizer, but DRM dumb buffers cannot be had "
                + "(no DRM device in /dev/dri (no display driver loaded?))")
    }

    /// No X or Wayland display and no SDL_VIDEODRIVER may be no display at all (a
    /// container, ssh): `--renderer cpu` leaves it to SDL, which says what it finds.
    @Test func cpuOnAGuessedConsoleWithoutADeviceLeavesItToSDL() throws {
        try #require(access("/dev/dri", F_OK) != 0, "this machine has /dev/dri")
        let got = begin(.cpu, nil)
        #expect(!got.started && got.error == nil)
        #expect(got.note?.hasPrefix("asked for (--renderer cpu), but DRM dumb buffers cannot be had") == true)
        // SDL_VIDEODRIVER=kmsdrm from the environment names the console as much as the option.
        #expect(begin(.cpu, nil, ["SDL_VIDEODRIVER": "kmsdrm"]).error != nil)
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
