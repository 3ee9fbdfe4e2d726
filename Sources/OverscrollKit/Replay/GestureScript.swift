/// A gesture script: one command a line, `#` starts a comment, coordinates in window
/// points, durations like `250ms` or `1.5s`.
///
///     wait DURATION
///     down X Y | move X Y [DURATION] | up                 finger 1
///     finger N down X Y | finger N move X Y [DURATION] | finger N up
///     mouse down X Y | mouse move X Y [DURATION] | mouse up
///     wheel DY
///     key NAME [shift|ctrl]…                              SDL key names: Up, PageDown, F5…
public struct GestureScript: Sendable, Equatable {
    public enum Pointer: Sendable, Hashable {
        case finger(Int)
        case mouse
    }

    public enum Command: Sendable, Equatable {
        case wait(Double)
        case down(Pointer, x: Double, y: Double)
        case move(Pointer, x: Double, y: Double, duration: Double)
        case up(Pointer)
        case wheel(Double)
        case key(Key, KeyModifiers)
    }

    public struct Line: Sendable, Equatable {
        public var number: Int
        public var command: Command
    }

    public var lines: [Line]

    /// No single command may take longer than this: a replay runs the whole script, and a
    /// `move` is sampled every 8 ms.
    public static let maxCommandDuration = 3600.0

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var message: String
        public var description: String { "\(line):\(column): \(message)" }
    }

    /// Parses the whole script, or throws the first error with its line and column.
    public init(parsing text: String) throws(ParseError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// Parses a script file's bytes. Lines are `LineSplitter`'s (LF, CRLF or lone CR; a
    /// BOM dropped). A script is text: a NUL byte or bytes that are not UTF-8 are an error
    /// at their line and column (a binary file fails on its first line with one).
    public init(parsing bytes: [UInt8]) throws(ParseError) {
        var lines: [Line] = []
        for raw in TextLines.lines(of: bytes) {
            let number = raw.number
            if let nul = raw.bytes.firstIndex(of: 0) {
                throw ParseError(line: number, column: String(decoding: raw.bytes[..<nul], as: UTF8.self).count + 1,
                                 message: "a NUL byte; a gesture script is a plain text file (is this the right file?)")
            }
            guard let text = String(validating: raw.bytes, as: UTF8.self) else {
                let decoded = String(decoding: raw.bytes, as: UTF8.self)
                let column = decoded.firstIndex(of: "\u{FFFD}").map { decoded[..<$0].count + 1 } ?? 1
                throw ParseError(line: number, column: column,
                                 message: "bytes that are not UTF-8 text; a gesture script is a plain text file (is this the right file?)")
            }
            var line = Substring(text)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let tokens = Self.tokens(line)
            guard !tokens.isEmpty else { continue }
            lines.append(Line(number: number, command: try Self.command(tokens, line: number)))
        }
        self.lines = lines
    }

    /// A token as messages echo it: cut to 80 characters.
    private static func shown(_ text: Substring) -> String { TextLines.cut(text) }

    struct Token { var text: Substring; var column: Int }

    static func tokens(_ line: Substring) -> [Token] {
        var tokens: [Token] = []
        var column = 1
        var start: Substring.Index?
        var startColumn = 1
        for index in line.indices {
            let isSpace = line[index] == " " || line[index] == "\t"
            if isSpace, let s = start {
                tokens.append(Token(text: line[s..<index], column: startColumn))
                start = nil
            } else if !isSpace, start == nil {
                start = index
                startColumn = column
            }
            column += 1
        }
        if let s = start { tokens.append(Token(text: line[s...], column: startColumn)) }
        return tokens
    }

    private static func command(_ tokens: [Token], line: Int) throws(ParseError) -> Command {
        func fail(_ token: Token, _ message: String) -> ParseError {
            ParseError(line: line, column: token.column, message: message)
        }
        var rest = tokens[...]
        let head = rest.removeFirst()
        let pointer: Pointer
        let verb: Token
        switch head.text {
        case "wait":
            guard let d = rest.first else { throw ParseError(line: line, column: head.column + 4, message: "'wait' needs a duration, like 250ms or 1.5s") }
            guard let seconds = DurationFormat.parse(d.text) else { throw fail(d, "'\(shown(d.text))' is not a duration; write it like 250ms or 1.5s") }
            guard seconds <= maxCommandDuration else { throw fail(d, "'\(shown(d.text))' is too long; a command lasts at most 1 hour") }
            try expectEnd(rest.dropFirst(), line: line)
            return .wait(seconds)
        case "wheel":
            guard let d = rest.first else { throw ParseError(line: line, column: head.column + 5, message: "'wheel' needs a distance in points, like 120 or -40") }
            guard let dy = Double(d.text), dy.isFinite else { throw fail(d, "'\(shown(d.text))' is not a number of points") }
            try expectEnd(rest.dropFirst(), line: line)
            return .wheel(dy)
        case "key":
            guard let name = rest.first else { throw ParseError(line: line, column: head.column + 3, message: "'key' needs a key name, like 'key Down' or 'key Space shift'") }
            guard let key = Key(name: name.text) else {
                throw fail(name, "unknown key '\(shown(name.text))'; expected one of \(Key.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            var modifiers: KeyModifiers = []
            for token in rest.dropFirst() {
                switch token.text.lowercased() {
                case "shift": modifiers.insert(.shift)
                case "ctrl": modifiers.insert(.ctrl)
                default: throw fail(token, "unknown modifier '\(shown(token.text))'; expected shift or ctrl")
                }
            }
            return .key(key, modifiers)
        case "down", "move", "up":
            pointer = .finger(1)
            verb = head
        case "finger":
            guard let n = rest.first else { throw ParseError(line: line, column: head.column + 6, message: "'finger' needs a finger number, like 'finger 2 down 100 200'") }
            guard let id = Int(n.text), id >= 1, id <= 10 else { throw fail(n, "'\(shown(n.text))' is not a finger number from 1 to 10") }
            rest = rest.dropFirst()
            guard let v = rest.first else { throw ParseError(line: line, column: n.column + n.text.count, message: "'finger \(id)' needs down, move or up") }
            pointer = .finger(id)
            verb = v
        case "mouse":
            guard let v = rest.first else { throw ParseError(line: line, column: head.column + 5, message: "'mouse' needs down, move or up") }
            pointer = .mouse
            verb = v
        default:
            throw fail(head, "unknown command '\(shown(head.text))'; expected wait, down, move, up, finger, mouse, wheel or key")
        }
        if verb.text != head.text { rest = rest.dropFirst() }
        switch verb.text {
        case "down":
            let (x, y) = try point(&rest, after: verb, line: line)
            try expectEnd(rest, line: line)
            return .down(pointer, x: x, y: y)
        case "move":
            let (x, y) = try point(&rest, after: verb, line: line)
            var duration = 0.0
            if let d = rest.first {
                guard let seconds = DurationFormat.parse(d.text) else { throw fail(d, "'\(shown(d.text))' is not a duration; write it like 250ms or 1.5s") }
                guard seconds <= maxCommandDuration else { throw fail(d, "'\(shown(d.text))' is too long; a command lasts at most 1 hour") }
                duration = seconds
                rest = rest.dropFirst()
            }
            try expectEnd(rest, line: line)
            return .move(pointer, x: x, y: y, duration: duration)
        case "up":
            try expectEnd(rest, line: line)
            return .up(pointer)
        default:
            throw fail(verb, "unknown action '\(shown(verb.text))'; expected down, move or up")
        }
    }

    private static func point(_ rest: inout ArraySlice<Token>, after verb: Token, line: Int) throws(ParseError) -> (Double, Double) {
        var values: [Double] = []
        var lastEnd = verb.column + verb.text.count
        for name in ["X", "Y"] {
            guard let token = rest.first else {
                throw ParseError(line: line, column: lastEnd, message: "'\(shown(verb.text))' needs \(name) coordinate (points)")
            }
            guard let value = Double(token.text), value.isFinite else {
                throw ParseError(line: line, column: token.column, message: "'\(shown(token.text))' is not a number for \(name)")
            }
            values.append(value)
            lastEnd = token.column + token.text.count
            rest = rest.dropFirst()
        }
        return (values[0], values[1])
    }

    private static func expectEnd(_ rest: ArraySlice<Token>, line: Int) throws(ParseError) {
        if let extra = rest.first {
            throw ParseError(line: line, column: extra.column, message: "unexpected '\(shown(extra.text))' at the end of the command")
        }
    }

    /// Total time the script spans.
    public var duration: Double {
        lines.reduce(0) { total, line in
            switch line.command {
            case .wait(let d): total + d
            case .move(_, _, _, let d): total + d
            case .down, .up, .wheel, .key: total
            }
        }
    }
}
