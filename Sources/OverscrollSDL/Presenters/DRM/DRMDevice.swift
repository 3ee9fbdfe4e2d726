import CDRM
#if canImport(Glibc)
import Glibc
#endif

/// A DRM device opened for showing frames from dumb buffers (`CDRM`): its connected
/// connector's preferred mode on a CRTC, given back as it was when this goes.
final class DRMDevice {
    let handle: OpaquePointer
    /// Given back (`close`): the handle is no longer to be used.
    private(set) var closed = false
    /// The mode, the connector, the driver and how flips are made.
    let info: ovs_drm_info

    /// The device at `path`, or (nil) the first card with a connected display; its
    /// output `output` (a connector name, any case), or (nil) the first connected. The
    /// error names the device and what is wrong with it; for an output not found, the
    /// outputs seen.
    init(path: String?, output: String? = nil) throws(SDLError) {
        var why = [CChar](repeating: 0, count: 640)
        let opened = ovs_drm_open(path, output, &why, Int32(why.count))
        guard let opened else {
            throw SDLError(message: String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        handle = opened
        var info = ovs_drm_info()
        ovs_drm_get_info(opened, &info)
        self.info = info
    }

    deinit { close() }

    /// Whether `directory` holds a DRM card node (card0 …): a display driver is loaded.
    static func anyCard(in directory: String = "/dev/dri") -> Bool {
        (0..<16).contains { access("\(directory)/card\($0)", F_OK) == 0 }
    }

    /// Gives the CRTC back as it was and closes the device; once.
    func close() {
        guard !closed else { return }
        closed = true
        ovs_drm_destroy(handle)
    }

    var width: Int32 { info.width }
    var height: Int32 { info.height }
    var path: String { Self.text(info.path) }
    var driver: String { Self.text(info.driver) }
    var connector: String { Self.text(info.connector) }
    /// Seconds a frame; nil when the mode does not say.
    var refreshPeriod: Double? { info.refresh_mhz > 0 ? 1000 / Double(info.refresh_mhz) : nil }
    /// The panel's size in millimetres; nil when the connector does not report one.
    var millimetres: (width: Int, height: Int)? {
        info.mm_width > 0 && info.mm_height > 0 ? (Int(info.mm_width), Int(info.mm_height)) : nil
    }

    /// Whether the driver shows a buffer from its first pixel only (qxl: no ring offsets).
    var showsFromStartOnly: Bool { info.from_start != 0 }

    /// The device's words for `--verbose`: "/dev/dri/card0 (virtio_gpu), Virtual-1 720x1280 at 60 Hz".
    var description: String {
        let hz = info.refresh_mhz > 0 ? " at \(FixedHz.text(info.refresh_mhz)) Hz" : ""
        let flips = info.atomic != 0 ? (info.source_offset != 0 ? "atomic flips moving the plane's source" : "atomic flips")
                                     : "legacy page flips"
        let start = info.from_start != 0 ? ", each buffer shown from its first row" : ""
        let damage = info.atomic == 0 ? "" : info.damage_clips != 0 ? " with damage clips" : " without damage clips"
        let seen = Self.text(info.seen)
        return "\(path) (\(driver)), \(connector) \(width)x\(height)\(hz), \(flips)\(start)\(damage)"
            + (seen.isEmpty ? "" : "; outputs seen: \(seen)")
    }

    static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// Millihertz as people write a refresh rate: "60", "59.94".
enum FixedHz {
    static func text(_ mhz: Int32) -> String {
        let hundredths = (Int(mhz) + 5) / 10
        let whole = hundredths / 100, rest = hundredths % 100
        guard rest != 0 else { return String(whole) }
        return rest % 10 == 0 ? "\(whole).\(rest / 10)" : "\(whole).\(rest < 10 ? "0" : "")\(rest)"
    }
}
