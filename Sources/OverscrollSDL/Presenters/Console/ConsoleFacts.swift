import CDRM
import OverscrollKit

/// The facts `ConsoleChoice` judges from, gathered through `CDRM` without loading Mesa:
/// each render node's kernel driver (and virtio-gpu's 3D), and whether libEGL and libgbm
/// are installed.
enum ConsoleFacts {
    static func gather(directory: String = "/dev/dri") -> ConsoleGraphics {
        var nodes = [ovs_drm_render_node](repeating: ovs_drm_render_node(), count: 16)
        let count = max(0, Int(ovs_drm_render_nodes(directory, &nodes, Int32(nodes.count))))
        let found = nodes.prefix(count).map { node in
            ConsoleGraphics.RenderNode(node: DRMDevice.text(node.node), driver: DRMDevice.text(node.driver),
                                       has3D: node.has_3d < 0 ? nil : node.has_3d != 0)
        }
        return ConsoleGraphics(renderNodes: Array(found), eglInstalled: ovs_drm_library_installed("libEGL.so.1") != 0,
                               gbmInstalled: ovs_drm_library_installed("libgbm.so.1") != 0)
    }
}
