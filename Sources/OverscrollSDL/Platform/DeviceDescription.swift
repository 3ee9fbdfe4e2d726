import CInput
import OverscrollKit

/// What an input device of the console is, and the one line the journal gets for it:
/// its node and name, what kind (touch panel, single-touch panel, absolute or relative
/// pointer, keyboard), its size or range, and whether this run uses it, with the setting
/// that would where it does not.
struct DeviceDescription {
    enum Kind: Equatable {
        case touch(points: Int)
        /// A pen display: a stylus on the screen (libinput's tablet tool).
        case pen
        case absolutePointer
        case pointer
        case keyboard
        case other
    }

    var name: String
    var node: String
    var kinds: [Kind]
    /// The axes' ranges, where it has absolute ones.
    var range: (x: ClosedRange<Int>, y: ClosedRange<Int>)?
    /// Millimetres, where the kernel knows them.
    var size: (width: Double, height: Double)?
    /// A calibration matrix from udev is applied.
    var calibrated: Bool

    init(name: String, node: String, kinds: [Kind], range: (x: ClosedRange<Int>, y: ClosedRange<Int>)? = nil,
         size: (width: Double, height: Double)? = nil, calibrated: Bool = false) {
        self.name = name
        self.node = node
        self.kinds = kinds
        self.range = range
        self.size = size
        self.calibrated = calibrated
    }

    init(_ device: ovs_input_device) {
        var device = device
        let name = withUnsafeBytes(of: &device.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let node = withUnsafeBytes(of: &device.node) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var kinds: [Kind] = []
        if device.touch != 0 { kinds.append(.touch(points: Int(device.touch_count))) }
        if device.pen != 0 { kinds.append(.pen) }
        if device.pointer != 0 { kinds.append(device.absolute != 0 && device.touch == 0 && device.pen == 0 ? .absolutePointer : .pointer) }
        if device.keyboard != 0 { kinds.append(.keyboard) }
        if kinds.isEmpty { kinds.append(.other) }
        self.init(name: name, node: node, kinds: kinds,
                  range: device.absolute != 0 ? (Int(device.min_x)...Int(max(device.min_x, device.max_x)),
                                                 Int(device.min_y)...Int(max(device.min_y, device.max_y))) : nil,
                  size: device.width_mm > 0 && device.height_mm > 0 ? (device.width_mm, device.height_mm) : nil,
                  calibrated: device.calibrated != 0)
    }

    /// The journal's line, given whether the run takes the mouse (`mouse`) and keys (`keyboard`).
    func line(mouse: Bool, keyboard: Bool) -> String {
        var what: [String] = []
        var used: [String] = []
        var ignored: [String] = []
        for kind in kinds {
            switch kind {
            case .touch(let points):
                what.append(points == 1 ? "single-touch panel" : points > 1 ? "touch panel (\(points) points)" : "touch panel")
                used.append("touch")
            case .pen:
                // On the glass, where the finger would be: a touch, not a pointer to opt into.
                what.append("pen display (a stylus on the screen)")
                used.append("pen")
            case .absolutePointer, .pointer:
                let name = kind == .absolutePointer ? "absolute pointer (scaled to the screen)" : "pointer"
                what.append(name)
                if mouse { used.append("pointer") } else { ignored.append("a pointer: a touch-only kiosk; set mouse = true to use it") }
            case .keyboard:
                what.append("keyboard")
                if keyboard { used.append("keys") } else { ignored.append("keys: set keyboard = true to use them") }
            case .other:
                what.append("no touch, pointer or keys")
                ignored.append("nothing the list uses")
            }
        }
        var facts: [String] = []
        if let range { facts.append("range \(range.x.lowerBound)–\(range.x.upperBound) x \(range.y.lowerBound)–\(range.y.upperBound)") }
        if let size { facts.append("\(Int(size.width.rounded()))x\(Int(size.height.rounded())) mm") }
        if calibrated { facts.append("udev calibration matrix applied") }
        let verdict = used.isEmpty ? "not used" : "used (\(used.joined(separator: ", ")))"
        return "input: \(node.isEmpty ? "?" : node) \"\(name)\": \(what.joined(separator: ", "))"
            + (facts.isEmpty ? "" : ", \(facts.joined(separator: ", "))")
            + "; \(verdict)" + (ignored.isEmpty ? "" : "; ignored \(ignored.joined(separator: "; "))")
    }
}
