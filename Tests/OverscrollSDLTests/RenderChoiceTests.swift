import Testing
@testable import OverscrollSDL

/// Which renderer KMSDRM asks for first, by the name SDL gives the driver: SDL 2 says
/// "KMSDRM" (the VM's journal: "started: video KMSDRM, renderer opengl" while the choice
/// compared with "kmsdrm" and never matched), SDL 3 "kmsdrm".
@Suite struct RenderChoiceTests {
    @Test(arguments: ["KMSDRM", "kmsdrm"])
    func kmsdrmAsksForGLES2First(driver: String) {
        let preferred = Platforms.row(for: driver).preferredRenderer
        #expect(preferred == "opengles2")
        #expect(AcceleratedRenderer.candidates(preferring: preferred).first == "opengles2")
    }

    @Test(arguments: ["x11", "wayland", "offscreen"])
    func otherDriversTakeSDLsOrder(driver: String) {
        #expect(Platforms.row(for: driver).preferredRenderer == nil)
    }

    /// SDL_RENDER_DRIVER overrides only `--renderer auto`, and the window is made without
    /// OpenGL exactly where the presenter chosen will not ask for it (Wayland's CPU path).
    @Test func theRenderDriverIsTheOneOverrideOfAuto() {
        #expect(PresenterTable.Asked(.auto, renderDriver: "opengl") == .renderDriver("opengl"))
        #expect(PresenterTable.Asked(.auto, renderDriver: "") == .auto)
        #expect(PresenterTable.Asked(.auto, renderDriver: nil) == .auto)
        #expect(PresenterTable.Asked(.cpu, renderDriver: "opengl") == .cpu)
        #expect(PresenterTable.Asked(.gpu, renderDriver: "software") == .gpu)
        let wayland = Platforms.row(for: "Wayland")
        #expect(PresenterTable.drawsWithoutGL(wayland, asked: .cpu))
        #expect(!PresenterTable.drawsWithoutGL(wayland, asked: .gpu))
        #expect(PresenterTable.drawsWithoutGL(wayland, asked: .renderDriver("SOFTWARE")))
        #expect(!PresenterTable.drawsWithoutGL(wayland, asked: .renderDriver("opengles2")))
        for row in Platforms.rows where row.name != wayland.name {
            #expect(!PresenterTable.drawsWithoutGL(row, asked: .cpu), "\(row.name)")
        }
    }
}
