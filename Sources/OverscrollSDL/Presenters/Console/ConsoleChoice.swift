/// How frames reach a console's screen: the path the console takes (not a `Presenter`:
/// the dumb buffers' is `ConsolePresenter`, SDL's KMSDRM's the accelerated renderer's).
public enum ConsolePath: String, Sendable, Equatable {
    /// SDL's KMSDRM driver: GBM, EGL and GLES2.
    case gl
    /// Dumb buffers the CPU draws into, page-flipped by the program itself.
    case dumbBuffers = "dumb-buffers"
}

/// What `--renderer` asks of a console, and the judgement with its reason.
public struct ConsoleChoice: Sendable, Equatable {
    public enum Asked: Sendable, Equatable { case auto, gpu, cpu }

    public var presenter: ConsolePath
    /// Why, in words for `--verbose` and summary.json.
    public var reason: String

    public init(presenter: ConsolePath, reason: String) {
        self.presenter = presenter
        self.reason = reason
    }

    /// The presenter for `asked` on a console with `graphics`.
    public static func decide(_ asked: Asked, _ graphics: ConsoleGraphics) -> ConsoleChoice {
        switch asked {
        case .gpu: return ConsoleChoice(presenter: .gl, reason: "asked for (--renderer gpu)")
        case .cpu: return ConsoleChoice(presenter: .dumbBuffers, reason: "asked for (--renderer cpu)")
        case .auto: break
        }
        let nodes = graphics.renderNodes
        let listed = nodes.map(describe).joined(separator: ", ")
        guard let gpu = nodes.first(where: ConsoleGraphics.isGPU) else {
            let what = nodes.isEmpty ? "no DRM render node" : "no GPU Mesa draws with (\(listed))"
            return ConsoleChoice(presenter: .dumbBuffers, reason: "\(what): OpenGL would be a software rasterizer")
        }
        let missing = [graphics.eglInstalled ? nil : "libEGL.so.1", graphics.gbmInstalled ? nil : "libgbm.so.1"].compactMap { $0 }
        guard missing.isEmpty else {
            return ConsoleChoice(presenter: .dumbBuffers,
                                 reason: "\(describe(gpu)) is a GPU, but \(missing.joined(separator: " and ")) not installed: OpenGL cannot start")
        }
        return ConsoleChoice(presenter: .gl, reason: "\(describe(gpu)) is a GPU Mesa draws with")
    }

    private static func describe(_ node: ConsoleGraphics.RenderNode) -> String {
        let name = node.node.split(separator: "/").last.map(String.init) ?? node.node
        let driver = node.driver.isEmpty ? "an unknown driver" : node.driver
        guard node.driver == "virtio_gpu" else { return "\(driver) on \(name)" }
        let threeD = node.has3D.map { $0 ? " with 3D" : " without 3D" } ?? " (3D unknown)"
        return "\(driver)\(threeD) on \(name)"
    }
}
