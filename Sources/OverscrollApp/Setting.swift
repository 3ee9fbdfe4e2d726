import ArgumentParser
import OverscrollSDL
import RowSources

/// Every setting of the window and of `replay`: one entry each, and from it come the
/// flag (its help, value name and default), the `--config` key (its name and what it
/// allows) and whether a replay honours it. docs/reference.md's settings table is checked
/// against `--help` by a test, so a new setting is an entry here, a one-line property in
/// `SettingFlags` (or `WindowFlags`), and the code that uses the value.
enum Setting: String, CaseIterable {
    case font
    case threshold
    case refreshDuration = "refresh-duration"
    case refreshTimeout = "refresh-timeout"
    case content
    case refreshCommand = "refresh-command"
    case flash
    case sound
    case rotate
    case kiosk
    case mouse
    case keyboard
    case statusText = "status-text"
    case size
    case report
    case reportKeep = "report-keep"
    case renderer
    case verbose
    case fullscreen
    case display
    case output
    case refreshEvery = "refresh-every"
    case idleReset = "idle-reset"
    case metrics
    case scale

    /// The config key, and the flag without its `--`.
    var key: String { rawValue }
    var flag: String { "--\(rawValue)" }

    struct Spec {
        /// What the value is and how it is checked, on the command line and in TOML.
        var kind: SettingKind
        /// Where the flag is declared: the window and replay, or the window only.
        var source: Source
        /// The help line, without the default.
        var meaning: String
        /// Used when neither a flag nor the config file sets it; nil when the default is
        /// computed (`defaultText` says how).
        var defaultValue: SettingValue? = nil
        /// The default in words, when there is no `defaultValue` to print.
        var defaultText: String? = nil
        /// The value in `--help` (`<pt>`); nil for on/off switches.
        var valueName: String? = nil
        /// An example value for error messages.
        var example: String
        /// What a replay does with it, as docs/reference.md's table says ("honoured" needs no
        /// word in `--help`; the window-only section says they are refused).
        var inReplay = "honoured"
    }

    /// A window-only setting means nothing to a replay, which has no display; a replay
    /// refuses it in a config file rather than ignoring it.
    enum Source {
        case shared(FlagRef<SettingFlags>)
        case windowOnly(FlagRef<WindowFlags>)
    }

    var spec: Spec {
        switch self {
        case .font:
            Spec(kind: .path, source: .shared(.option(\.font)),
                 meaning: "TrueType font for the list", defaultText: "DejaVu Sans, found via fontconfig",
                 valueName: "path", example: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        case .threshold:
            Spec(kind: .positiveNumber, source: .shared(.option(\.threshold)),
                 meaning: "Visible pull in points that arms the refresh",
                 defaultText: "15% of the height, within 64…140", valueName: "pt", example: "100")
        case .refreshDuration:
            Spec(kind: .duration, source: .shared(.option(\.refreshDuration)),
                 meaning: "How long the demo refresh takes", defaultValue: .number(1.5),
                 valueName: "duration", example: "1.5s")
        case .refreshTimeout:
            Spec(kind: .positiveDuration, source: .shared(.option(\.refreshTimeout)),
                 meaning: "Give up on a refresh after this long", defaultValue: .number(10),
                 valueName: "duration", example: "10s")
        case .content:
            Spec(kind: .path, source: .shared(.option(\.content)),
                 meaning: "Show these rows, one per line (UTF-8)", defaultText: SampleRows.origin,
                 valueName: "file", example: "rows.txt")
        case .refreshCommand:
            Spec(kind: .command, source: .shared(.option(\.refreshCommand)),
                 meaning: "On refresh run this command (argv, no shell; write sh -c '…' for one); its output lines become the rows",
                 defaultText: "the demo's timed refresh", valueName: "cmd", example: "'fetch-rows --json'")
        case .flash:
            Spec(kind: .bool, source: .shared(.onOff(\.flash)),
                 meaning: "Flash the screen when the refresh arms (--no-flash for photosensitive users)",
                 defaultValue: .bool(true), example: "false")
        case .sound:
            Spec(kind: .bool, source: .shared(.onOff(\.sound)),
                 meaning: "Tick when the refresh arms", defaultValue: .bool(true), example: "false")
        case .rotate:
            Spec(kind: .rotation, source: .shared(.option(\.rotate)),
                 meaning: "Turn the picture and touch clockwise by 0, 90, 180 or 270 degrees",
                 defaultValue: .number(0), valueName: "degrees", example: "90")
        case .kiosk:
            Spec(kind: .bool, source: .shared(.on(\.kiosk)),
                 meaning: "Kiosk: fullscreen, cursor hidden, touch only, no key quits; stop it with SIGTERM",
                 defaultValue: .bool(false), example: "true", inReplay: "honoured: touch only")
        case .mouse:
            Spec(kind: .bool, source: .shared(.on(\.mouse)),
                 meaning: "In a kiosk, accept the mouse (and wheel) as well as touch",
                 defaultValue: .bool(false), example: "true")
        case .keyboard:
            Spec(kind: .bool, source: .shared(.on(\.keyboard)),
                 meaning: "In a kiosk, accept keys (arrows, pages, Home/End, F5) as the window does",
                 defaultValue: .bool(false), example: "true")
        case .statusText:
            Spec(kind: .choice(["on", "off"]), source: .shared(.option(\.statusText)),
                 meaning: "The status line under the refresh arc (\"Release to refresh\", \"Refreshing…\")",
                 defaultValue: .text("on"), valueName: "on/off", example: "off")
        case .size:
            Spec(kind: .size, source: .shared(.option(\.size)),
                 meaning: "Window size in points, each side 64…\(SettingKind.largestSide)", defaultValue: .size(width: 480, height: 800),
                 valueName: "WxH", example: "480x800")
        case .report:
            Spec(kind: .path, source: .shared(.option(\.report)),
                 meaning: "Write a frame-timing report into this new or empty directory (a live run on quit, SIGINT or SIGTERM; frames.csv streams as it runs)",
                 defaultText: "none", valueName: "dir", example: "out/run1")
        case .reportKeep:
            Spec(kind: .runCount, source: .shared(.option(\.reportKeep)),
                 meaning: "With `report` set in a config file (a service), each run writes into a subdirectory of it numbered in the order runs started; keep this many, the last started (1…1000)",
                 defaultValue: .number(10), valueName: "n", example: "30")
        case .renderer:
            Spec(kind: .choice(RendererChoice.allCases.map(\.rawValue)), source: .shared(.option(\.renderer)),
                 meaning: "cpu: draw with the CPU into the window surface; gpu: with the GPU (OpenGL); auto: the GPU only where OpenGL is not a software rasterizer",
                 defaultValue: .text("auto"), valueName: "mode", example: "cpu",
                 inReplay: "honoured with --window; headless draws on the CPU")
        case .verbose:
            Spec(kind: .bool, source: .shared(.on(\.verbose)),
                 meaning: "Say on stderr which platform and drawing path were taken and why; the window also when its first frame was shown, a replay how its CPU time divides",
                 defaultValue: .bool(false), example: "true")
        case .fullscreen:
            Spec(kind: .bool, source: .windowOnly(.on(\.fullscreen)),
                 meaning: "Fill the screen", defaultValue: .bool(false), example: "true")
        case .display:
            Spec(kind: .displayIndex, source: .windowOnly(.option(\.display)),
                 meaning: "Open on this display (0 is the first)", defaultValue: .number(0),
                 valueName: "n", example: "1")
        case .output:
            Spec(kind: .outputName, source: .windowOnly(.option(\.output)),
                 meaning: "On the console, show on this output (a connector name like HDMI-A-1; --verbose lists them)",
                 defaultText: "the first connected", valueName: "name", example: "HDMI-A-1")
        case .refreshEvery:
            Spec(kind: .period, source: .shared(.option(\.refreshEvery)),
                 meaning: "Refresh on a timer, this long after the last refresh ended (pulled or timed; at least 1s)",
                 defaultText: "only on a pull", valueName: "duration", example: "10m",
                 inReplay: "honoured, on the virtual clock")
        case .idleReset:
            Spec(kind: .positiveDuration, source: .shared(.option(\.idleReset)),
                 meaning: "After this long with no touch, glide back to the top and clear any banner",
                 defaultText: "never", valueName: "duration", example: "2m",
                 inReplay: "honoured, on the virtual clock")
        case .metrics:
            Spec(kind: .path, source: .shared(.option(\.metrics)),
                 meaning: "Write Prometheus metrics here every few seconds and at exit (a replay: at its end), for node_exporter's textfile collector (name it *.prom)",
                 defaultText: "none", valueName: "file", example: "/var/lib/prometheus/node-exporter/overscroll.prom")
        case .scale:
            Spec(kind: .scale, source: .shared(.option(\.scale)),
                 meaning: "Pixels per point, 0.5…4 (the start-up line says which was taken and why)",
                 defaultText: "from the display's physical size (a point 1/96 inch, a row at least 7 mm), else 1",
                 valueName: "factor", example: "2", inReplay: "honoured: the pictures, not the trace (points)")
        }
    }

    /// Whether a reload applies it to the running window. The others were used to make
    /// the window, its text or its report, or say how the program runs: a reload names
    /// them as needing a restart and keeps them as they are.
    var appliesLive: Bool {
        switch self {
        case .threshold, .refreshDuration, .refreshTimeout, .content, .refreshCommand, .flash, .sound,
             .mouse, .keyboard, .statusText, .refreshEvery, .idleReset, .metrics:
            true
        case .font, .rotate, .kiosk, .size, .report, .reportKeep, .renderer, .verbose, .fullscreen, .display, .output, .scale:
            false
        }
    }

    var isWindowOnly: Bool {
        if case .windowOnly = spec.source { return true }
        return false
    }

    /// The default as `--help` and docs/reference.md print it.
    var defaultDescription: String {
        let spec = spec
        if let value = spec.defaultValue { return spec.kind.describe(value) }
        return spec.defaultText ?? "none"
    }

    /// `--help`'s line for this setting: the meaning, then the default.
    var help: ArgumentHelp {
        let replay = isWindowOnly || spec.inReplay == "honoured" ? "" : ". In a replay: \(spec.inReplay)"
        return ArgumentHelp("\(spec.meaning)\(replay) (default: \(defaultDescription)).", valueName: spec.valueName)
    }
}

/// How a setting's flag is declared: an option with a value, an on/off pair
/// (`--flash/--no-flash`), or a switch that can only turn something on (`--kiosk`).
enum FlagRef<Root> {
    case option(KeyPath<Root, String?>)
    case onOff(KeyPath<Root, Bool?>)
    case on(KeyPath<Root, Bool>)
}
