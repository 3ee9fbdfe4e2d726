import Testing
@testable import OverscrollSDL

/// Which renderer KMSDRM asks for first, by the name SDL gives the driver: SDL 2 says
/// "KMSDRM" (the VM's journal: "started: video KMSDRM, renderer opengl" while the choice
/// compared with "kmsdrm" and never matched), SDL 3 "kmsdrm".
@Suite struct RenderChoiceTests {
    @Test(arguments: ["KMSDRM", "kmsdrm"])
    func kmsdrmAsksForGLES2First(driver: String) {
        #expect(AcceleratedRenderer.preferred(driver) == "opengles2")
    }

    @Test(arguments: ["x11", "wayland", "offscreen"])
    func otherDriversTakeSDLsOrder(driver: String) {
        #expect(AcceleratedRenderer.preferred(driver) == nil)
    }
}
