/// A panel mounted turned: the picture is drawn rotated clockwise by this much, and touch
/// coordinates (which the panel reports in its own, unrotated frame) are turned back.
/// KMSDRM rotates neither, so the app does both.
public enum ScreenRotation: Int, Sendable, CaseIterable {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270

    /// The app's own (logical) size for a window of `width × height`.
    public func logicalSize(width: Double, height: Double) -> (width: Double, height: Double) {
        switch self {
        case .none, .half: (width, height)
        case .quarter, .threeQuarters: (height, width)
        }
    }

    /// A point in the window (as the panel reports it) → the same spot in the app's frame.
    public func toLogical(x: Double, y: Double, windowWidth w: Double, windowHeight h: Double) -> (x: Double, y: Double) {
        switch self {
        case .none: (x, y)
        case .quarter: (y, w - x)
        case .half: (w - x, h - y)
        case .threeQuarters: (h - y, x)
        }
    }

    /// The inverse: where a logical point appears in the window.
    public func toWindow(x: Double, y: Double, windowWidth w: Double, windowHeight h: Double) -> (x: Double, y: Double) {
        switch self {
        case .none: (x, y)
        case .quarter: (w - y, x)
        case .half: (w - x, h - y)
        case .threeQuarters: (y, h - x)
        }
    }

    /// Applies the rotation to a pointer event's coordinates.
    public func toLogical(_ event: InputEvent, windowWidth w: Double, windowHeight h: Double) -> InputEvent {
        guard self != .none else { return event }
        switch event {
        case let .pointerDown(id, x, y):
            let p = toLogical(x: x, y: y, windowWidth: w, windowHeight: h)
            return .pointerDown(id, x: p.x, y: p.y)
        case let .pointerMove(id, x, y):
            let p = toLogical(x: x, y: y, windowWidth: w, windowHeight: h)
            return .pointerMove(id, x: p.x, y: p.y)
        case let .resize(width, height):
            let s = logicalSize(width: width, height: height)
            return .resize(width: s.width, height: s.height)
        case .pointerUp, .pointerCancel, .wheel, .key, .refreshCompleted:
            return event
        }
    }
}
