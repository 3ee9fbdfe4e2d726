import Testing
@testable import OverscrollSDL

@Suite struct ConsoleChoiceTests {
    typealias Node = ConsoleGraphics.RenderNode

    private func graphics(_ nodes: [Node], egl: Bool = true, gbm: Bool = true) -> ConsoleGraphics {
        ConsoleGraphics(renderNodes: nodes, eglInstalled: egl, gbmInstalled: gbm)
    }

    /// Machines with a GPU Mesa draws with (and EGL and GBM installed): OpenGL.
    @Test(arguments: [
        [Node(node: "/dev/dri/renderD128", driver: "i915")],
        [Node(node: "/dev/dri/renderD128", driver: "amdgpu")],
        [Node(node: "/dev/dri/renderD128", driver: "v3d")],                      // Raspberry Pi 4 (vc4 has the display)
        [Node(node: "/dev/dri/renderD128", driver: "panfrost")],
        [Node(node: "/dev/dri/renderD128", driver: "etnaviv")],
        [Node(node: "/dev/dri/renderD128", driver: "virtio_gpu", has3D: true)], // QEMU with virgl
        [Node(node: "/dev/dri/renderD128", driver: "vgem"), Node(node: "/dev/dri/renderD129", driver: "nouveau")],
    ])
    func aGPUMesaDrivesIsOpenGL(nodes: [Node]) {
        let choice = ConsoleChoice.decide(.auto, graphics(nodes))
        #expect(choice.presenter == .gl)
        #expect(choice.reason.contains("is a GPU Mesa draws with"))
    }

    /// Display-only drivers, a virtio-gpu without 3D, unknown ones, none: dumb buffers,
    /// and the reason names what was found.
    @Test(arguments: [
        ([Node(node: "/dev/dri/renderD128", driver: "virtio_gpu", has3D: false)], "virtio_gpu without 3D on renderD128"),
        ([Node(node: "/dev/dri/renderD128", driver: "virtio_gpu", has3D: nil)], "virtio_gpu (3D unknown) on renderD128"),
        ([Node(node: "/dev/dri/renderD128", driver: "vgem")], "vgem on renderD128"),
        ([Node(node: "/dev/dri/renderD128", driver: "some_new_gpu")], "some_new_gpu on renderD128"),
        ([Node(node: "/dev/dri/renderD128", driver: "")], "an unknown driver on renderD128"),
        ([], "no DRM render node"),
    ])
    func noGPUMesaDrivesIsDumbBuffers(nodes: [Node], named: String) {
        let choice = ConsoleChoice.decide(.auto, graphics(nodes))
        #expect(choice.presenter == .dumbBuffers)
        #expect(choice.reason.contains(named))
        #expect(choice.reason.contains("software rasterizer"))
    }

    @Test(arguments: [(false, true, "libEGL.so.1 not installed"), (true, false, "libgbm.so.1 not installed"),
                      (false, false, "libEGL.so.1 and libgbm.so.1 not installed")])
    func aGPUWithoutEGLOrGBMIsDumbBuffers(egl: Bool, gbm: Bool, named: String) {
        let choice = ConsoleChoice.decide(.auto, graphics([Node(node: "/dev/dri/renderD128", driver: "i915")], egl: egl, gbm: gbm))
        #expect(choice.presenter == .dumbBuffers)
        #expect(choice.reason == "i915 on renderD128 is a GPU, but \(named): OpenGL cannot start")
    }

    @Test func theOperatorsChoiceWinsWhateverTheMachine() {
        let gpu = graphics([Node(node: "/dev/dri/renderD128", driver: "amdgpu")])
        let none = graphics([])
        #expect(ConsoleChoice.decide(.cpu, gpu) == ConsoleChoice(presenter: .dumbBuffers, reason: "asked for (--renderer cpu)"))
        #expect(ConsoleChoice.decide(.gpu, none) == ConsoleChoice(presenter: .gl, reason: "asked for (--renderer gpu)"))
    }

    @Test func virtioGPUIsAGPUOnlyWith3D() {
        #expect(ConsoleGraphics.isGPU(Node(node: "n", driver: "virtio_gpu", has3D: true)))
        #expect(!ConsoleGraphics.isGPU(Node(node: "n", driver: "virtio_gpu", has3D: false)))
        #expect(!ConsoleGraphics.isGPU(Node(node: "n", driver: "virtio_gpu")))
        for driver in ["simpledrm", "bochs-drm", "cirrus", "vkms", "udl", "ast", "mgag200", "hyperv_drm", "qxl"] {
            #expect(!ConsoleGraphics.isGPU(Node(node: "n", driver: driver, has3D: true)), "\(driver)")
        }
    }

    /// The console is prepared for where SDL_VIDEODRIVER names KMSDRM (any case), or
    /// nothing names a driver and there is neither an X nor a Wayland display.
    @Test(arguments: [
        ("kmsdrm", nil, nil, true), ("KMSDRM", ":0", nil, true), ("x11", nil, nil, false), ("wayland", nil, nil, false),
        ("evdev", nil, nil, false), (nil, nil, nil, true), ("", nil, nil, true), (nil, ":0", nil, false),
        (nil, nil, "wayland-0", false), (nil, "", "", true),
    ] as [(String?, String?, String?, Bool)])
    func theConsoleIsKMSDRMOrNoDisplayAtAll(driver: String?, display: String?, wayland: String?, console: Bool) {
        let headed = Platforms.preparing(asked: driver, display: display, waylandDisplay: wayland)
        #expect((headed?.row.preparation == .consoleScreen) == console)
        #expect(headed?.named == (console ? !(driver ?? "").isEmpty : nil))
    }
}
