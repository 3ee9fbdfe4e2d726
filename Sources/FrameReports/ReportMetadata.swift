import OverscrollKit
import FoundationEssentials
import Glibc

/// Who made a report, on what, and how: the header a reader needs before trusting numbers
/// (MangoHud's system-info rows; MangoHud issue #287).
public struct ReportMetadata: Sendable, Codable, Equatable {
    public struct Size: Sendable, Codable, Equatable {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) { self.width = width; self.height = height }
    }

    public var programVersion: String
    /// SDL's video driver: x11, wayland, kmsdrm, dummy, …
    public var videoDriver: String
    /// SDL's renderer: opengl, opengles2, software, …
    public var renderDriver: String
    /// "cpu" (the window surface, drawn by the CPU) or "gpu" (an accelerated renderer).
    public var renderPath: String?
    /// Why that path was taken, e.g. "X11 without a DRI device: OpenGL would be a software rasterizer".
    public var renderPathReason: String?
    /// What frames were shown through: "wl_shm buffers", "SDL's window surface", …
    public var presenter: String?
    public var windowPoints: Size
    public var windowPixels: Size
    /// The frame budget the verdicts used.
    public var refreshPeriodMs: Double
    public var vsync: Bool
    /// ISO-8601, e.g. 2026-05-01T12:00:00Z.
    public var startTime: String
    /// "live" or "replay".
    public var mode: String
    /// Replay only: the virtual frame rate.
    public var fps: Int?
    /// Replay only: the gesture script's path.
    public var script: String?
    /// Where `touch_to_scanout_ms` ends: the presenter's word for when a frame reached the
    /// screen ("DRM page-flip event: the vblank's time", or the commit's end where the
    /// driver counts no vblanks), or why it cannot be known
    /// ("not known: SDL's window surface says nothing of when a frame is shown").
    public var scanoutClock: String?
    /// Where it starts: "kernel" (the input device's own stamp), or "read" (when the
    /// program read the input: the kernel's stamp was not given it).
    public var touchTimeSource: String?
    /// Wayland's wp_presentation: frames presented, commits discarded, and how many
    /// presentations carried each flag (`PresentationCounts`); nil on other paths.
    public var presentationFeedback: PresentationCounts?

    /// Every text as a terminal may be shown it: the strings come from a summary.json,
    /// which anyone may have written (an escape sequence, a bidi override, a newline that
    /// forges a row), so they are escaped as every outside text is (`OutsideText`).
    public var escaped: ReportMetadata {
        var m = self
        for key in [\ReportMetadata.programVersion, \.videoDriver, \.renderDriver, \.startTime, \.mode] {
            m[keyPath: key] = OutsideText.escaped(m[keyPath: key])
        }
        m.renderPath = renderPath.map(OutsideText.escaped)
        m.renderPathReason = renderPathReason.map(OutsideText.escaped)
        m.presenter = presenter.map(OutsideText.escaped)
        m.script = script.map(OutsideText.escaped)
        m.scanoutClock = scanoutClock.map(OutsideText.escaped)
        m.touchTimeSource = touchTimeSource.map(OutsideText.escaped)
        return m
    }

    public init(programVersion: String, videoDriver: String, renderDriver: String,
                windowPoints: Size, windowPixels: Size, refreshPeriodMs: Double, vsync: Bool,
                startTime: String, mode: String, fps: Int? = nil, script: String? = nil) {
        self.programVersion = programVersion
        self.videoDriver = videoDriver
        self.renderDriver = renderDriver
        self.windowPoints = windowPoints
        self.windowPixels = windowPixels
        self.refreshPeriodMs = refreshPeriodMs
        self.vsync = vsync
        self.startTime = startTime
        self.mode = mode
        self.fps = fps
        self.script = script
    }

    /// `date` as ISO-8601 in UTC with milliseconds, the form `startTime` expects
    /// ("2026-11-25T15:04:05.123Z"), from the C library's calendar: no ICU needed.
    public static func timestamp(_ seconds: Double = WallTime.system.now()) -> String {
        var whole = time_t(seconds.rounded(.down))
        let millis = min(999, Int(((seconds - Double(whole)) * 1000).rounded(.down)))
        var parts = tm()
        guard gmtime_r(&whole, &parts) != nil else { return "1970-01-01T00:00:00.000Z" }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }

    enum CodingKeys: String, CodingKey {
        case programVersion = "program_version"
        case videoDriver = "video_driver"
        case renderDriver = "render_driver"
        case renderPath = "render_path"
        case renderPathReason = "render_path_reason"
        case presenter
        case windowPoints = "window_points"
        case windowPixels = "window_pixels"
        case refreshPeriodMs = "refresh_period_ms"
        case vsync
        case startTime = "start_time"
        case mode, fps, script
        case scanoutClock = "scanout_clock"
        case touchTimeSource = "touch_time_source"
        case presentationFeedback = "presentation_feedback"
    }

    // Optional keys are written as null rather than left out, so every summary.json has
    // the same shape for scripts that read it.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(programVersion, forKey: .programVersion)
        try c.encode(videoDriver, forKey: .videoDriver)
        try c.encode(renderDriver, forKey: .renderDriver)
        try c.encode(renderPath, forKey: .renderPath)
        try c.encode(renderPathReason, forKey: .renderPathReason)
        try c.encode(presenter, forKey: .presenter)
        try c.encode(windowPoints, forKey: .windowPoints)
        try c.encode(windowPixels, forKey: .windowPixels)
        try c.encode(refreshPeriodMs, forKey: .refreshPeriodMs)
        try c.encode(vsync, forKey: .vsync)
        try c.encode(startTime, forKey: .startTime)
        try c.encode(mode, forKey: .mode)
        try c.encode(fps, forKey: .fps)
        try c.encode(script, forKey: .script)
        try c.encode(scanoutClock, forKey: .scanoutClock)
        try c.encode(touchTimeSource, forKey: .touchTimeSource)
        try c.encode(presentationFeedback, forKey: .presentationFeedback)
    }
}
