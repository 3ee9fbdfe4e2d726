import ConfigReader
import Glibc
import OverscrollKit
import OverscrollSDL

/// A setting's value once checked.
enum SettingValue: Equatable, Sendable {
    case text(String)
    case number(Double)
    case bool(Bool)
    case words([String])
    case size(width: Int, height: Int)
}

/// What a setting takes, and how it is read from a flag's text or a TOML value: the same
/// check, and the same words for what is allowed, on the command line and in the file.
enum SettingKind: Equatable {
    case path, positiveNumber, duration, positiveDuration, bool, command, rotation, displayIndex, size
    /// The period of work done again and again (`refresh-every`): at least
    /// `shortestPeriod`. "10ms" for "10m" ran the command twice a second, a log line each
    /// time, and the loop never slept (issue 52).
    case period
    /// Pixels per point, `DisplayScale.range`.
    case scale
    /// `report-keep`: a count of runs, `runsToKeep`.
    case runCount
    /// One of these words (e.g. a renderer's name).
    case choice([String])
    /// A display output's connector name as DRM names it ("HDMI-A-1", "Virtual-1").
    case outputName

    var allowed: String {
        switch self {
        case .path: "a path"
        case .positiveNumber: "points above 0 and below the window's height"
        case .duration: "a duration of 0 or more, like 1.5s, 800ms or 2 (seconds)"
        case .positiveDuration: "a duration greater than 0, like 10s or 500ms"
        case .period: "a duration of at least \(Self.plain(Self.shortestPeriod))s, like 10m or 30s"
        case .bool: "true or false (or \"on\"/\"off\")"
        case .command: "a command, as a string (\"fetch-rows --json\") or, in a config file, an array ([\"fetch-rows\", \"--json\"])"
        case .rotation: "0, 90, 180 or 270"
        case .displayIndex: "a display number from 0 to 63"
        case .size: "a size like 480x800, each side 64…\(Self.largestSide)"
        case .scale: "a number of pixels per point from 0.5 to 4"
        case .runCount: "a whole number of runs from 1 to \(Self.runsToKeep.upperBound) (the run being written is one)"
        case .choice(let words): "one of \(words.joined(separator: ", "))"
        case .outputName: "a connector name like HDMI-A-1, DP-2 or Virtual-1 (`--verbose` lists the machine's)"
        }
    }

    /// Why a value was refused: it is the right sort of thing but too big or small, or
    /// it is not that sort of thing at all.
    enum Problem: Error { case outOfRange, malformed }

    /// Reads a flag's text (also a TOML string where the kind takes words).
    func parse(_ text: String) -> Result<SettingValue, Problem> {
        switch self {
        case .path:
            return text.isEmpty ? .failure(.malformed) : .success(.text(text))
        case .positiveNumber:
            guard let n = Double(text), n.isFinite else { return .failure(.malformed) }
            return checkPoints(n)
        case .scale:
            guard let n = Double(text), n.isFinite else { return .failure(.malformed) }
            return checkScale(n)
        case .duration, .positiveDuration, .period:
            guard let s = DurationFormat.parse(text) ?? Self.signedSeconds(text) else { return .failure(.malformed) }
            return checkDuration(s)
        case .bool:
            switch text.lowercased() {
            case "true": return .success(.bool(true))
            case "false": return .success(.bool(false))
            default: return .failure(.malformed)
            }
        case .command:
            guard let words = try? ShellWords.split(text), !words.isEmpty else { return .failure(.malformed) }
            return .success(.words(words))
        case .rotation:
            guard let n = Int(text) else { return .failure(.malformed) }
            return checkRotation(n)
        case .displayIndex:
            guard let n = Int(text) else { return .failure(.malformed) }
            return checkDisplay(n)
        case .runCount:
            guard let n = Int(text) else { return .failure(.malformed) }
            return checkRunCount(n)
        case .size:
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return .failure(.malformed) }
            guard (64...Self.largestSide).contains(w), (64...Self.largestSide).contains(h) else { return .failure(.outOfRange) }
            return .success(.size(width: w, height: h))
        case .choice(let words):
            // Any case, as `true`/`false` are: `--status-text OFF` means off.
            return words.first { $0 == text.lowercased() }.map { .success(.text($0)) } ?? .failure(.malformed)
        case .outputName:
            // DRM's names: a connector type and a number, letters, digits and hyphens.
            let ok = !text.isEmpty && text.count <= 31 && text.unicodeScalars.allSatisfy {
                ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
            }
            return ok ? .success(.text(text)) : .failure(.malformed)
        }
    }

    /// Reads a TOML value: strings as on the command line, and the TOML types where the
    /// kind takes them (numbers, booleans, arrays of words).
    func parse(toml raw: TOMLValue) -> Result<SettingValue, Problem> {
        if let s = raw.string, self != .rotation, self != .displayIndex, self != .bool,
           self != .positiveNumber, self != .scale, self != .runCount {
            return parse(s)
        }
        switch self {
        case .positiveNumber:
            guard let n = raw.double ?? raw.int.map(Double.init), n.isFinite else { return .failure(.malformed) }
            return checkPoints(n)
        case .scale:
            guard let n = raw.double ?? raw.int.map(Double.init), n.isFinite else { return .failure(.malformed) }
            return checkScale(n)
        case .duration, .positiveDuration, .period:
            guard let s = raw.double ?? raw.int.map(Double.init), s.isFinite else { return .failure(.malformed) }
            return checkDuration(s)
        case .bool:
            if let b = raw.bool { return .success(.bool(b)) }
            // docs/reference.md's words for these settings' defaults, in any case as all words.
            switch raw.string?.lowercased() {
            case "on": return .success(.bool(true))
            case "off": return .success(.bool(false))
            default: return .failure(.malformed)
            }
        case .command:
            guard let a = raw.array else { return .failure(.malformed) }
            let words = a.compactMap { $0.string }
            return words.count == a.count && !words.isEmpty ? .success(.words(words)) : .failure(.malformed)
        case .rotation:
            return raw.int.map(checkRotation) ?? .failure(.malformed)
        case .displayIndex:
            return raw.int.map(checkDisplay) ?? .failure(.malformed)
        case .runCount:
            return raw.int.map(checkRunCount) ?? .failure(.malformed)
        case .path, .size, .choice, .outputName:
            return .failure(.malformed)
        }
    }

    /// The value as `--help` and docs/reference.md print it.
    func describe(_ value: SettingValue) -> String {
        switch value {
        case .text(let s): s
        case .number(let n):
            switch self {
            case .duration, .positiveDuration, .period: "\(Self.plain(n))s"
            default: Self.plain(n)
            }
        case .bool(let b): b ? "on" : "off"
        case .words(let w): w.joined(separator: " ")
        case .size(let w, let h): "\(w)x\(h)"
        }
    }

    /// The largest side of a window in points, and so the largest pull there can be.
    static let largestSide = 16384

    /// A distance on screen: more than 0, and less than the largest window's height (a
    /// pull never reaches the window's height; `ThresholdBound` checks the window's own).
    private func checkPoints(_ n: Double) -> Result<SettingValue, Problem> {
        n > 0 && n < Double(Self.largestSide) ? .success(.number(n)) : .failure(.outOfRange)
    }

    private func checkScale(_ n: Double) -> Result<SettingValue, Problem> {
        DisplayScale.range.contains(n) ? .success(.number(n)) : .failure(.outOfRange)
    }

    private func checkDuration(_ s: Double) -> Result<SettingValue, Problem> {
        guard s.isFinite else { return .failure(.malformed) }
        let ok = switch self {
        case .positiveDuration: s > 0
        case .period: s >= Self.shortestPeriod
        default: s >= 0
        }
        return ok ? .success(.number(s)) : .failure(.outOfRange)
    }

    private func checkRotation(_ n: Int) -> Result<SettingValue, Problem> {
        ScreenRotation(rawValue: n) != nil ? .success(.number(Double(n))) : .failure(.outOfRange)
    }

    /// The shortest period of repeated work, in seconds.
    static let shortestPeriod = 1.0

    /// Runs `report-keep` may keep: at least the one being written (0 would delete it
    /// as it starts), at most 1000 (each is a directory a start lists and prunes).
    static let runsToKeep = 1...1000

    private func checkRunCount(_ n: Int) -> Result<SettingValue, Problem> {
        Self.runsToKeep.contains(n) ? .success(.number(Double(n))) : .failure(.outOfRange)
    }

    private func checkDisplay(_ n: Int) -> Result<SettingValue, Problem> {
        (0..<64).contains(n) ? .success(.number(Double(n))) : .failure(.outOfRange)
    }

    /// "-1", "-0.5s": a number that DurationFormat (which reads only what it allows) does
    /// not, so that it is refused as out of range rather than as gibberish.
    private static func signedSeconds(_ text: String) -> Double? {
        guard text.hasPrefix("-") else { return nil }
        return DurationFormat.parse(String(text.dropFirst())).map { -$0 }
    }

    private static func plain(_ n: Double) -> String {
        n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
    }
}
