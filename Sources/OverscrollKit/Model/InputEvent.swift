/// What the model is told, already stripped of SDL: pointer motion in window points,
/// the wheel, window changes, and the end of refresh work it asked for. Every event
/// carries its own time (seconds on the model's clock), and the model applies it at that
/// time, not at the frame that drains it.
public enum InputEvent: Sendable, Equatable {
    case pointerDown(PointerID, x: Double, y: Double)
    case pointerMove(PointerID, x: Double, y: Double)
    case pointerUp(PointerID)
    /// Every pointer is gone (focus lost, device reset): end the drag without a fling.
    case pointerCancel
    /// Positive scrolls down into the content, in points.
    case wheel(dy: Double)
    /// The window's size in points.
    case resize(width: Double, height: Double)
    /// A key went down (a repeat counts: holding Down keeps scrolling).
    case key(Key, KeyModifiers)
    /// The refresh work started for `generation` (a `RefreshRequest`) ended. Results for a
    /// refresh that already ended (timed out, or a duplicate) change nothing.
    case refreshCompleted(generation: Int, result: RefreshResult)

    /// Whether the event comes from the mouse or its wheel (a touch-only kiosk ignores it).
    public var isMouse: Bool {
        switch self {
        case .pointerDown(let id, _, _), .pointerMove(let id, _, _), .pointerUp(let id): id == .mouse
        case .wheel: true
        case .pointerCancel, .resize, .key, .refreshCompleted: false
        }
    }

    /// Whether the event comes from the keyboard (a kiosk ignores it unless asked).
    public var isKey: Bool {
        if case .key = self { return true }
        return false
    }
}

public struct TimedInput: Sendable, Equatable {
    public var time: Double
    public var event: InputEvent
    /// When the device said it happened, where it said (the console's devices: the
    /// kernel's stamp of the event, seconds on CLOCK_MONOTONIC, as `MonotonicClock`);
    /// nil where only the time it was read is known. `time` is derived from it; this keeps
    /// the original for measuring touch-to-screen latency.
    public var deviceTime: Double?

    public init(time: Double, event: InputEvent, deviceTime: Double? = nil) {
        self.time = time
        self.event = event
        self.deviceTime = deviceTime
    }
}

/// What happened during one frame, for the trace and for feedback.
public struct FrameEvents: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let feedback = FrameEvents(rawValue: 1 << 0)
    public static let refreshStart = FrameEvents(rawValue: 1 << 1)
    public static let refreshEnd = FrameEvents(rawValue: 1 << 2)
    public static let refreshError = FrameEvents(rawValue: 1 << 3)
    /// A tap selected a row.
    public static let tap = FrameEvents(rawValue: 1 << 4)
    /// A key did something (scrolled, or started a refresh).
    public static let key = FrameEvents(rawValue: 1 << 5)
    /// The screen flashed (a `feedback` does, unless the last flash was under
    /// `flashInterval` ago or flashes are off).
    public static let flash = FrameEvents(rawValue: 1 << 6)
}
