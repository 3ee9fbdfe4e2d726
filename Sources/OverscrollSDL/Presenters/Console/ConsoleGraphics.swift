/// What a console (no X server, no compositor) offers for drawing, and the judgement
/// between OpenGL through SDL's KMSDRM driver and DRM dumb buffers drawn by the CPU.
/// Platform policy (which kernel drivers mean a GPU), so it lives by the console's
/// presenter, not in the model.
///
/// The facts are gathered without loading Mesa (the program's CDRM layer asks each
/// render node's kernel driver its name, virtio-gpu whether it has 3D, and looks for the
/// EGL and GBM library files): loading Mesa to ask GL_RENDERER is what costs 60 MiB of
/// libLLVM and its threads on a machine where the answer is "llvmpipe".
public struct ConsoleGraphics: Sendable, Equatable {
    /// A DRM render node and the kernel driver behind it.
    public struct RenderNode: Sendable, Equatable {
        public var node: String
        public var driver: String
        /// virtio-gpu only: whether the host gives it 3D (virgl, venus); nil elsewhere or unknown.
        public var has3D: Bool?

        public init(node: String, driver: String, has3D: Bool? = nil) {
            self.node = node
            self.driver = driver
            self.has3D = has3D
        }
    }

    public var renderNodes: [RenderNode]
    /// libEGL.so.1 and libgbm.so.1 are installed (SDL's KMSDRM driver needs both).
    public var eglInstalled: Bool
    public var gbmInstalled: Bool

    public init(renderNodes: [RenderNode], eglInstalled: Bool, gbmInstalled: Bool) {
        self.renderNodes = renderNodes
        self.eglInstalled = eglInstalled
        self.gbmInstalled = gbmInstalled
    }

    /// Kernel drivers of GPUs Mesa draws with in hardware. virtio_gpu is one only with 3D;
    /// any other driver (display-only ones: simpledrm, bochs-drm, cirrus, vkms, udl, ast,
    /// mgag200, hyperv_drm, qxl, vgem, ...; or one this list does not know) leaves Mesa
    /// nothing but its software rasterizer.
    public static let gpuDrivers: Set<String> = [
        "i915", "xe", "amdgpu", "radeon", "nouveau", "msm", "vc4", "v3d", "panfrost", "panthor", "lima",
        "etnaviv", "tegra", "vmwgfx", "asahi", "virtio_gpu",
    ]

    /// Whether `node` is a GPU Mesa draws with in hardware.
    public static func isGPU(_ node: RenderNode) -> Bool {
        guard gpuDrivers.contains(node.driver) else { return false }
        return node.driver != "virtio_gpu" || node.has3D == true
    }
}
