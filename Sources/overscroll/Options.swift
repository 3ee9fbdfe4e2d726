import ArgumentParser
import Foundation
import OverscrollKit
import OverscrollSDL

/// A duration written as `1.5s`, `500ms`, or a bare number of seconds.
struct DurationArgument: ExpressibleByArgument {
    var seconds: Double
    init?(argument: String) {
        guard let s = DurationFormat.parse(argument) else { return nil }
        seconds = s
    }
    init(seconds: Double) { self.seconds = seconds }
    var defaultValueDescription: String { DurationFormat.describe(seconds).replacingOccurrences(of: " ", with: "") }
}

/// Window size in points, `WxH`.
struct SizeArgument: ExpressibleByArgument {
    var width: Int
    var height: Int
    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (64...16384).contains(w), (64...16384).contains(h) else { return nil }
        width = w
        height = h
    }
    init(width: Int, height: Int) { self.width = width; self.height = height }
    var defaultValueDescription: String { "\(width)x\(height)" }
}

/// Every option that changes behaviour; the live program and `replay` share them, so a
/// replay is the live program on a virtual clock.
struct BehaviourOptions: ParsableArguments {
    @Option(help: "TrueType font for the list (default: DejaVu Sans, found via fontconfig).")
    var font: String?

    @Option(help: ArgumentHelp("Pull distance in points that arms the refresh (default: 15% of the window height, 64…140).", valueName: "pt"))
    var threshold: Double?

    @Option(help: "How long the demo refresh takes, e.g. 1.5s or 800ms.")
    var refreshDuration = DurationArgument(seconds: 1.5)

    @Option(help: "Give up on a refresh after this long, e.g. 10s or 500ms.")
    var refreshTimeout = DurationArgument(seconds: 10)

    @Flag(help: "Do not flash the screen when the refresh arms (for photosensitive users).")
    var noFlash = false

    @Flag(help: "Do not play the tick when the refresh arms.")
    var noSound = false

    func validate() throws {
        if let threshold, !(threshold.isFinite && threshold > 0) {
            throw ValidationError("--threshold must be a positive number of points, e.g. --threshold 100")
        }
        if refreshTimeout.seconds <= 0 {
            throw ValidationError("--refresh-timeout must be longer than zero, e.g. --refresh-timeout 10s")
        }
    }

    /// Resolves files and builds the settings; failures are one-line user errors.
    func settings() throws -> AppSettings {
        let fontPath: String
        do { fontPath = try FontLocator.locate(explicit: font) } catch { throw Failure(error.description, code: 66) }
        var s = AppSettings(rows: SampleContent.rows(), fontPath: fontPath)
        s.threshold = threshold
        s.refreshDuration = refreshDuration.seconds
        s.refreshTimeout = refreshTimeout.seconds
        s.flash = !noFlash
        s.sound = !noSound
        return s
    }
}

/// A failure to report as one line on stderr with its own exit status.
struct Failure: Error {
    var message: String
    var code: Int32
    init(_ message: String, code: Int32 = 1) {
        self.message = message
        self.code = code
    }
}

/// Prints `overscroll: message` and exits with the failure's status.
func fail(_ failure: Failure) -> Never {
    FileHandle.standardError.write(Data("overscroll: \(failure.message)\n".utf8))
    Foundation.exit(failure.code)
}

func warn(_ line: String) {
    FileHandle.standardError.write(Data("overscroll: \(line)\n".utf8))
}
