import OverscrollSDL

/// Every exit status the program can end with, and what it means: `--help` prints this
/// table and a test checks docs/reference.md's against it.
enum ExitStatus: Int32, CaseIterable {
    case success = 0
    case regression = 1
    case usage = 64
    case badInput = 65
    case cannotRead = 66
    case noDisplay = 69
    case cannotCreate = 73
    case writeFailed = 74
    case displayLost = 75
    case badConfig = 78
    /// The `overscroll` launcher's own (OverscrollLauncher/launcher.c), as a shell's.
    case programNotRunnable = 126
    case programMissing = 127
    case stoppedBySIGINT = 130
    case stoppedBySIGTERM = 143

    /// One line each, short enough for `--help` to print unwrapped.
    var meaning: String {
        switch self {
        case .success: "success"
        case .regression: "`report BASE NEW` found a gated metric regressed or missing"
        case .usage: "a bad option or value (printed with the usage)"
        case .badInput: "a malformed script (FILE:LINE:COLUMN; binary too) or report"
        case .cannotRead: "a file cannot be read, or is not of its kind (a font that is not one)"
        case .noDisplay: "no display, SDL cannot open one, `--size` too large, or no buffer memory"
        case .cannotCreate: "a replay's trace or report cannot be made at start, or its trace fails"
        case .writeFailed: "the report fails at the end, or `report` cannot write its output"
        case .displayLost: "the display went away (X server or compositor died); report written"
        case .badConfig: "a bad config file (FILE:LINE), or a window-only key in replay's"
        case .programNotRunnable: "the launcher cannot run the program (overscroll-app): its reason"
        case .programMissing: "the launcher finds no program (overscroll-app) to run"
        case .stoppedBySIGINT: "a replay stopped by SIGINT (its trace and report kept)"
        case .stoppedBySIGTERM: "a replay stopped by SIGTERM (its trace and report kept)"
        }
    }

    /// The table as `--help` prints it.
    static var helpText: String {
        "EXIT STATUS:\n" + allCases.map { status in
            let code = String(status.rawValue)
            return "  " + code + String(repeating: " ", count: 4 - code.count) + String(status.meaning.filter { $0 != "`" })
        }.joined(separator: "\n")
    }

    /// sysexits: 73 for an output that can't be created, 69 for a display that can't open.
    static func of(_ error: LaunchError) -> ExitStatus {
        switch error {
        case .display: .noDisplay
        case .output: .cannotCreate
        case .input: .cannotRead
        }
    }
}
