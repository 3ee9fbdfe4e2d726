import Foundation
import OverscrollKit
import TOMLKit

/// `--config FILE`: the same settings as the flags, in TOML, for a kiosk's unit file to
/// point at. Every key is checked here, where the file's line is known, so an unknown key
/// or a bad value is an error naming the file, the line, the key and what is allowed.
struct ConfigFile {
    enum Value: Equatable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case strings([String])
    }

    /// What each key takes; the same names as the command-line flags.
    enum Kind {
        case path, positiveNumber, duration, positiveDuration, bool, command, rotation, displayIndex, size

        var allowed: String {
            switch self {
            case .path: "a file path in quotes"
            case .positiveNumber: "a number of points greater than 0"
            case .duration: "a duration like \"1.5s\" or \"800ms\", or a number of seconds"
            case .positiveDuration: "a duration greater than 0, like \"10s\" or \"500ms\""
            case .bool: "true or false"
            case .command: "a command as a string (\"fetch-rows --json\") or an array ([\"fetch-rows\", \"--json\"])"
            case .rotation: "0, 90, 180 or 270"
            case .displayIndex: "a display number from 0"
            case .size: "a size like \"480x800\""
            }
        }
    }

    static let keys: [String: Kind] = [
        "font": .path, "threshold": .positiveNumber, "refresh-duration": .duration,
        "refresh-timeout": .positiveDuration, "content": .path, "refresh-command": .command,
        "flash": .bool, "sound": .bool, "rotate": .rotation, "kiosk": .bool, "display": .displayIndex,
        "mouse": .bool, "fullscreen": .bool, "size": .size, "report": .path,
    ]

    let path: String
    private(set) var values: [String: Value] = [:]

    init(path: String) throws(Failure) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure("config file '\(path)' does not exist; check the path given to --config", code: 66)
        }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
            let what = isDirectory.boolValue ? "is a directory" : "cannot be read (permissions?)"
            throw Failure("config file '\(path)' \(what); pass --config the path of a TOML file", code: 66)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Failure("config file '\(path)' is not UTF-8 text; save it as UTF-8 TOML", code: 78)
        }
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw Failure("\(path):\(error.source.begin.line): \(error.description)", code: 78)
        } catch {
            throw Failure("\(path): not valid TOML (\(error))", code: 78)
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (key, raw) in table {
            let line = Self.line(of: key, in: lines)
            guard let kind = Self.keys[key] else {
                let allowed = Self.keys.keys.sorted().joined(separator: ", ")
                throw Failure("\(path):\(line): unknown key '\(key)'; allowed keys: \(allowed)", code: 78)
            }
            guard let value = Self.value(raw, kind: kind) else {
                throw Failure("\(path):\(line): '\(key)' must be \(kind.allowed)", code: 78)
            }
            values[key] = value
        }
    }

    func string(_ key: String) -> String? {
        if case .string(let s) = values[key] { return s }
        return nil
    }

    func number(_ key: String) -> Double? {
        if case .number(let n) = values[key] { return n }
        return nil
    }

    func bool(_ key: String) -> Bool? {
        if case .bool(let b) = values[key] { return b }
        return nil
    }

    func strings(_ key: String) -> [String]? {
        if case .strings(let s) = values[key] { return s }
        return nil
    }

    /// Converts and checks one value; nil when it is not what the key allows.
    private static func value(_ raw: TOMLValueConvertible, kind: Kind) -> Value? {
        switch kind {
        case .path:
            guard let s = raw.string, !s.isEmpty else { return nil }
            return .string(s)
        case .positiveNumber:
            guard let n = raw.double ?? raw.int.map(Double.init), n.isFinite, n > 0 else { return nil }
            return .number(n)
        case .duration, .positiveDuration:
            let seconds = raw.string.flatMap { DurationFormat.parse($0) } ?? raw.double ?? raw.int.map(Double.init)
            guard let seconds, seconds.isFinite, seconds >= 0, kind == .duration || seconds > 0 else { return nil }
            return .number(seconds)
        case .bool:
            return raw.bool.map(Value.bool)
        case .command:
            if let s = raw.string, let words = try? ShellWords.split(s), !words.isEmpty { return .strings(words) }
            if let a = raw.array {
                let words = a.compactMap { $0.string }
                return words.count == a.count && !words.isEmpty ? .strings(words) : nil
            }
            return nil
        case .rotation:
            guard let n = raw.int, ScreenRotation(rawValue: n) != nil else { return nil }
            return .number(Double(n))
        case .displayIndex:
            guard let n = raw.int, n >= 0, n < 64 else { return nil }
            return .number(Double(n))
        case .size:
            guard let s = raw.string, SizeArgument(argument: s) != nil else { return nil }
            return .string(s)
        }
    }

    /// The line a top-level key is set on (1-based), for messages.
    private static func line(of key: String, in lines: [Substring]) -> Int {
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            for spelling in [key, "\"\(key)\"", "'\(key)'"] where trimmed.hasPrefix(spelling) {
                let rest = trimmed.dropFirst(spelling.count).drop { $0 == " " || $0 == "\t" }
                if rest.first == "=" { return index + 1 }
            }
        }
        return 1
    }
}

/// Splits a command line into words the way a POSIX shell would for simple cases:
/// whitespace separates, '…' and "…" quote, backslash escapes. No expansion of any kind:
/// the words become argv as they are.
enum ShellWords {
    struct Unbalanced: Error {}

    static func split(_ text: String) throws(Unbalanced) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for c in text {
            if escaped { current.append(c); escaped = false; inWord = true; continue }
            if let q = quote {
                if c == q { quote = nil } else if c == "\\" && q == "\"" { escaped = true } else { current.append(c) }
                continue
            }
            switch c {
            case "\\": escaped = true; inWord = true
            case "'", "\"": quote = c; inWord = true
            case " ", "\t", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            default: current.append(c); inWord = true
            }
        }
        guard quote == nil, !escaped else { throw Unbalanced() }
        if inWord { words.append(current) }
        return words
    }
}
