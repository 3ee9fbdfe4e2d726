/// Reads the TOML a config file is: top-level `key = value` lines, in file order, each
/// with its line. What it reads, it reads as TOML 1.0 defines it, and what TOML 1.0
/// refuses it refuses (raw control characters anywhere, a lone CR, `\e`, a sixth quote
/// closing a multi-line string, leading zeros, misplaced `_`): a config a stricter tool
/// would reject must not work here by accident. A test runs a corpus through this reader
/// and Python's `tomllib` and requires the same verdict and the same values.
///
/// The subset: strings (basic, literal, multi-line), integers (decimal, hex, octal,
/// binary, 64-bit), floats (inf, nan), booleans and arrays of them. Valid TOML past it is
/// refused as "not supported" with its line: a `[table]` or `[[array of tables]]`
/// header, a dotted key, an inline table, a date or time (no setting takes one), an
/// integer past 64 bits, and a NUL character in a string (`"\u0000"`), which a path or an
/// argument would be cut at.
///
/// Bounded, so no file can crash or stall it: the document's size, each line's length
/// and the arrays' nesting have limits (`Limits`), each an error with its line; the
/// recursion into nested arrays stops at the depth limit, far inside any stack.
///
/// Why not a TOML library: the one at hand (TOMLKit) imports Foundation for its date
/// types, and that links Foundation's internationalization data (ICU, some 40 MB) into
/// the program. A config needs none of it.
public struct TOMLReader {
    public struct Limits: Sendable {
        public var documentBytes = 1 << 20
        public var lineBytes = 64 << 10
        /// Arrays inside arrays; a setting needs one level.
        public var depth = 32
        public init() {}
    }

    public struct Entry: Equatable, Sendable {
        public let key: String
        public let value: TOMLValue
        public let line: Int
    }

    public struct Failure: Error, Equatable, Sendable {
        public enum Kind: Sendable {
            /// Not TOML.
            case syntax
            /// Not a value TOML has (`maybe`, `050`).
            case value
            /// Valid TOML that the reader does not take (a table, a date, a NUL).
            case unsupported
            /// Past a size, length or depth limit.
            case limit
        }
        public let line: Int
        public let message: String
        public let kind: Kind
        /// The key whose value is at fault, when the fault is in a value.
        public let key: String?
    }

    /// The file's top-level keys in order, or the first error with its line.
    public static func entries(_ bytes: some Collection<UInt8>, limits: Limits = Limits()) throws(Failure) -> [Entry] {
        var reader = TOMLReader(scalars: try text(Array(bytes), limits: limits), limits: limits)
        var entries: [Entry] = []
        var firstLine: [[UInt8]: Int] = [:]
        while true {
            reader.skipBlankLinesAndComments()
            guard let c = reader.peek else { return entries }
            let line = reader.line
            if c == "[" {
                throw reader.failure(reader.peek(1) == "[" ? "an array of tables '[[…]]' is not supported: every setting is a top-level key = value"
                                     : "a [table] header is not supported: every setting is a top-level key = value", .unsupported)
            }
            let key = try reader.key()
            reader.skipSpaces()
            if reader.peek == "." {
                throw reader.failure("a dotted key ('\(key).…') is not supported: every setting is a top-level key", .unsupported)
            }
            guard reader.peek == "=" else { throw reader.failure("expected '=' after the key '\(key)'", .syntax) }
            reader.advance()
            reader.skipSpaces()
            reader.valueKey = key
            let value = try reader.value(depth: 0)
            try reader.endOfLine()
            reader.valueKey = nil
            // Keys compare as their bytes, as TOML's do ("é" and "e\u0301" are two keys).
            if let first = firstLine[Array(key.utf8)] {
                throw Failure(line: line, message: "'\(key)' is set twice (first on line \(first))", kind: .syntax, key: key)
            }
            firstLine[Array(key.utf8)] = line
            entries.append(Entry(key: key, value: value, line: line))
        }
    }

    // MARK: The text

    /// The document as scalars with LF line ends, once its bytes are known to be TOML's:
    /// within the limits, UTF-8, no control character but tab, LF and CR before LF.
    private static func text(_ bytes: [UInt8], limits: Limits) throws(Failure) -> [Unicode.Scalar] {
        func fail(_ line: Int, _ message: String, _ kind: Failure.Kind = .syntax) -> Failure {
            Failure(line: line, message: message, kind: kind, key: nil)
        }
        var line = 1, lineStart = 0, carriageReturns = 0
        for (i, byte) in bytes.enumerated() {
            if i == limits.documentBytes {
                throw fail(line, "the file is larger than \(limits.documentBytes >> 10) KiB: a config is short (is this the right file?)", .limit)
            }
            if i - lineStart == limits.lineBytes, byte != 0x0A {
                throw fail(line, "a line longer than \(limits.lineBytes >> 10) KiB: a config's lines are short (is this the right file?)", .limit)
            }
            switch byte {
            case 0x0A:
                line += 1
                lineStart = i + 1
            case 0x0D:
                guard i + 1 < bytes.count, bytes[i + 1] == 0x0A else {
                    throw fail(line, "a carriage return (CR) not followed by a line feed: TOML lines end with LF or CRLF; save the file with those line ends")
                }
                carriageReturns += 1
            case 0x00:
                throw fail(line, "a NUL byte: a config is a TOML text file (is this the right file?)")
            case 0x01...0x08, 0x0B, 0x0C, 0x0E...0x1F, 0x7F:
                let hex = String(byte, radix: 16, uppercase: true)
                let code = String(repeating: "0", count: 4 - hex.count) + hex
                throw fail(line, "a raw control character U+\(code): TOML allows none but tab (in a \"string\" write it as \\u\(code))")
            default: break
            }
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw fail(1, "a byte-order mark (U+FEFF) before the first key: TOML has none; save the file as UTF-8 without a BOM")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            // The first line that is not UTF-8, for the message.
            var start = 0, number = 1
            for (i, byte) in bytes.enumerated() where byte == 0x0A {
                if String(validating: bytes[start..<i], as: UTF8.self) == nil { break }
                start = i + 1
                number += 1
            }
            throw fail(number, "not UTF-8 text; save the config as UTF-8 TOML")
        }
        // Every CR is one before LF now: a line end, and TOML lets a reader make it LF
        // (in a multi-line string too, as tomllib does).
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(bytes.count - carriageReturns)
        for scalar in text.unicodeScalars where scalar != "\r" { scalars.append(scalar) }
        return scalars
    }

    private let scalars: [Unicode.Scalar]
    private let limits: Limits
    private var index = 0
    private var line = 1
    /// The key whose value is being read, for the failures in it.
    private var valueKey: String?

    private init(scalars: [Unicode.Scalar], limits: Limits) {
        self.scalars = scalars
        self.limits = limits
    }

    private func failure(_ message: String, _ kind: Failure.Kind, line: Int? = nil) -> Failure {
        Failure(line: line ?? self.line, message: message, kind: kind, key: valueKey)
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    private func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
    private func starts(with s: String) -> Bool {
        var i = index
        for c in s.unicodeScalars {
            guard i < scalars.count, scalars[i] == c else { return false }
            i += 1
        }
        return true
    }

    private mutating func advance(_ n: Int = 1) {
        for _ in 0..<n where index < scalars.count {
            if scalars[index] == "\n" { line += 1 }
            index += 1
        }
    }

    private mutating func skipSpaces() { while peek == " " || peek == "\t" { advance() } }

    /// Control characters were refused in the whole text, comments included.
    private mutating func skipComment() { if peek == "#" { while let c = peek, c != "\n" { advance() } } }

    private mutating func skipBlankLinesAndComments() {
        while true {
            skipSpaces()
            skipComment()
            guard peek == "\n" else { return }
            advance()
        }
    }

    /// After a value: spaces, an optional comment, then the end of the line or file.
    private mutating func endOfLine() throws(Failure) {
        skipSpaces()
        skipComment()
        guard let c = peek, c != "\n" else { return }
        throw failure("unexpected '\(Self.shown(c))' after the value of '\(valueKey ?? "")'; one key = value a line", .syntax)
    }

    private static func shown(_ c: Unicode.Scalar) -> String {
        TOMLValue.quoted(String(c)).dropFirst().dropLast().description
    }

    // MARK: Keys

    private static func isBare(_ c: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(c) || ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-"
    }

    private mutating func key() throws(Failure) -> String {
        switch peek {
        case "\"":
            if starts(with: "\"\"\"") { throw failure("a multi-line string cannot be a key", .syntax) }
            return try basicString()
        case "'":
            if starts(with: "'''") { throw failure("a multi-line string cannot be a key", .syntax) }
            return try literalString()
        case let c? where Self.isBare(c):
            var key = ""
            while let c = peek, Self.isBare(c) { key.unicodeScalars.append(c); advance() }
            return key
        case let c?: throw failure("unexpected '\(Self.shown(c))' where a key should start (a bare key is A-Z a-z 0-9 _ -; quote others)", .syntax)
        case nil: throw failure("a key expected", .syntax)
        }
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(Failure) -> TOMLValue {
        switch peek {
        case nil, "\n"?, "#"?: throw failure("a value expected after '\(valueKey ?? "") ='", .syntax)
        case "\"": return .string(try starts(with: "\"\"\"") ? multilineBasicString() : basicString())
        case "'": return .string(try starts(with: "'''") ? multilineLiteralString() : literalString())
        case "[": return .array(try array(depth: depth + 1))
        case "{": throw failure("an inline table { … } is not supported: no setting takes a table", .unsupported)
        default: return try bareValue()
        }
    }

    /// Recursion, one level an array, stopped at `limits.depth`.
    private mutating func array(depth: Int) throws(Failure) -> [TOMLValue] {
        if depth > limits.depth {
            throw failure("arrays nested more than \(limits.depth) deep: a setting takes at most an array of strings", .limit)
        }
        let opened = line
        advance()
        var items: [TOMLValue] = []
        while true {
            skipBlankLinesAndComments()
            guard let c = peek else { throw failure("an array '[' that is never closed", .syntax, line: opened) }
            if c == "]" { advance(); return items }
            items.append(try value(depth: depth))
            skipBlankLinesAndComments()
            switch peek {
            case nil: throw failure("an array '[' that is never closed", .syntax, line: opened)
            case ","?: advance()
            case "]"?: advance(); return items
            case let c?: throw failure("expected ',' or ']' in the array, found '\(Self.shown(c))'", .syntax)
            }
        }
    }

    private mutating func basicString() throws(Failure) -> String {
        advance()
        var out = String.UnicodeScalarView()
        while let c = peek {
            switch c {
            case "\"": advance(); return String(out)
            case "\n": throw failure("a string that does not end on its line (a '\"' is missing)", .syntax)
            case "\\": out.append(try escape())
            default: out.append(c); advance()
            }
        }
        throw failure("a string that never ends (a '\"' is missing)", .syntax)
    }

    private mutating func literalString() throws(Failure) -> String {
        advance()
        var out = String.UnicodeScalarView()
        while let c = peek {
            if c == "'" { advance(); return String(out) }
            if c == "\n" { throw failure("a string that does not end on its line (a \"'\" is missing)", .syntax) }
            out.append(c)
            advance()
        }
        throw failure("a string that never ends (a \"'\" is missing)", .syntax)
    }

    /// At a run of `quote`s inside a multi-line string: the run's length, and whether it
    /// closes the string. Three close it, and one or two more before them belong to the
    /// text (`"""a"""""` is `a""`); a sixth is TOML's error.
    private mutating func quoteRun(_ quote: Unicode.Scalar, into out: inout String.UnicodeScalarView) throws(Failure) -> Bool {
        var n = 0
        while peek(n) == quote { n += 1 }
        if n > 5 { throw failure("\(n) quotes in a row at the end of a multi-line string: at most 5 (two in the text, three to close)", .syntax) }
        for _ in 0..<(n >= 3 ? n - 3 : n) { out.append(quote) }
        advance(n)
        return n >= 3
    }

    private mutating func multilineBasicString() throws(Failure) -> String {
        let opened = line
        advance(3)
        if peek == "\n" { advance() }  // a newline right after the opening quotes is trimmed
        var out = String.UnicodeScalarView()
        while let c = peek {
            switch c {
            case "\"":
                if try quoteRun("\"", into: &out) { return String(out) }
            case "\\":
                // A backslash ending a line trims the line end and the blanks after it.
                var ahead = 1
                while peek(ahead) == " " || peek(ahead) == "\t" { ahead += 1 }
                if peek(ahead) == "\n" {
                    advance(ahead)
                    while let w = peek, w == " " || w == "\t" || w == "\n" { advance() }
                } else {
                    out.append(try escape())
                }
            default:
                out.append(c)
                advance()
            }
        }
        throw failure("a multi-line string that never ends (a '\"\"\"' is missing)", .syntax, line: opened)
    }

    private mutating func multilineLiteralString() throws(Failure) -> String {
        let opened = line
        advance(3)
        if peek == "\n" { advance() }
        var out = String.UnicodeScalarView()
        while let c = peek {
            if c == "'" {
                if try quoteRun("'", into: &out) { return String(out) }
            } else {
                out.append(c)
                advance()
            }
        }
        throw failure("a multi-line string that never ends (a \"'''\" is missing)", .syntax, line: opened)
    }

    private mutating func escape() throws(Failure) -> Unicode.Scalar {
        advance()
        guard let c = peek else { throw failure("a '\\' at the end of the file", .syntax) }
        advance()
        switch c {
        case "b": return "\u{08}"
        case "t": return "\t"
        case "n": return "\n"
        case "f": return "\u{0C}"
        case "r": return "\r"
        case "\"": return "\""
        case "\\": return "\\"
        case "u", "U":
            let digits = c == "u" ? 4 : 8
            var value: UInt32 = 0
            for _ in 0..<digits {
                guard let h = peek, h.properties.isASCIIHexDigit, let d = UInt32(String(h), radix: 16) else {
                    throw failure("'\\\(c)' needs \(digits) hex digits", .syntax)
                }
                value = value << 4 | d
                advance()
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw failure("'\\\(c)\(String(value, radix: 16, uppercase: true))' is not a Unicode character", .syntax)
            }
            if value == 0 {
                throw failure("a NUL character (\\\(c)\(String(repeating: "0", count: digits))) in a string is not supported: a path or an argument would end at it", .unsupported)
            }
            return scalar
        default:
            throw failure("unknown escape '\\\(Self.shown(c))' in a string (TOML has \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX; write '\\\\' for a backslash)", .syntax)
        }
    }

    /// true/false, a number, or a date/time: the token runs to a blank, ',', ']', '#' or
    /// the line's end.
    private mutating func bareValue() throws(Failure) -> TOMLValue {
        var token = ""
        while let c = peek, !(c == " " || c == "\t" || c == "\n" || c == "," || c == "]" || c == "#") {
            token.unicodeScalars.append(c)
            advance()
        }
        let shown = "'\(TOMLValue.quoted(String(token.prefix(80))).dropFirst().dropLast())'"
        switch token {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        case "": throw failure("a value expected after '\(valueKey ?? "") ='", .syntax)
        default: break
        }
        if Self.isDateOrTime(token) {
            throw failure("a date or time (\(shown)) is not supported: no setting takes one", .unsupported)
        }
        switch Self.integer(token) {
        case .value(let n): return .integer(n)
        case .tooLarge: throw failure("\(shown) is past the 64-bit integers: larger integers are not supported", .unsupported)
        case .notOne: break
        }
        if let x = Self.float(token) { return .float(x) }
        let why = token.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "-" || $0 == "_" })
            ? "text needs quotes" : "TOML numbers have no leading zeros, '_' only between digits"
        throw failure("\(shown) is not a TOML value (\(why))", .value)
    }

    private static func isDecimal(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

    /// Digits with `_` only between two of them, as TOML allows; nil when misplaced or not
    /// `allowed`.
    private static func digits(_ s: Substring.UnicodeScalarView, allowed: (Unicode.Scalar) -> Bool) -> String? {
        var out = ""
        var previousWasDigit = false
        for c in s {
            if c == "_" {
                guard previousWasDigit else { return nil }
                previousWasDigit = false
                continue
            }
            guard allowed(c) else { return nil }
            out.unicodeScalars.append(c)
            previousWasDigit = true
        }
        return previousWasDigit ? out : nil
    }

    private enum IntegerToken { case value(Int), tooLarge, notOne }

    private static func integer(_ token: String) -> IntegerToken {
        let s = Substring(token).unicodeScalars
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where token.hasPrefix(prefix) {
            guard let d = digits(s.dropFirst(2), allowed: { $0.properties.isASCIIHexDigit && Int(String($0), radix: radix) != nil }) else {
                return .notOne
            }
            guard let n = UInt64(d, radix: radix) else { return .tooLarge }
            return n <= UInt64(Int.max) ? .value(Int(n)) : .tooLarge
        }
        var body = s[...]
        var negative = false
        if let f = body.first, f == "+" || f == "-" { negative = f == "-"; body = body.dropFirst() }
        guard let d = digits(body, allowed: isDecimal), !(d.count > 1 && d.hasPrefix("0")) else { return .notOne }
        return Int((negative ? "-" : "") + d).map { .value($0) } ?? .tooLarge
    }

    private static func float(_ token: String) -> Double? {
        var body = Substring(token).unicodeScalars[...]
        var text = ""
        if let f = body.first, f == "+" || f == "-" { text = f == "-" ? "-" : ""; body = body.dropFirst() }
        let exponentAt = body.firstIndex { $0 == "e" || $0 == "E" }
        let mantissa = body[..<(exponentAt ?? body.endIndex)]
        let dot = mantissa.firstIndex(of: ".")
        guard exponentAt != nil || dot != nil else { return nil }
        guard let whole = digits(mantissa[..<(dot ?? mantissa.endIndex)], allowed: isDecimal),
              !(whole.count > 1 && whole.hasPrefix("0")) else { return nil }
        text += whole
        if let dot {
            guard let fraction = digits(mantissa[mantissa.index(after: dot)...], allowed: isDecimal) else { return nil }
            text += "." + fraction
        }
        if let e = exponentAt {
            var exponent = body[body.index(after: e)...]
            var sign = ""
            if let f = exponent.first, f == "+" || f == "-" { sign = String(f); exponent = exponent.dropFirst() }
            guard let d = digits(exponent, allowed: isDecimal) else { return nil }
            text += "e" + sign + d
        }
        return Double(text)
    }

    /// `1979-05-27…` or `07:32…`: the shapes TOML's dates and times start with.
    private static func isDateOrTime(_ token: String) -> Bool {
        let s = Array(token.unicodeScalars)
        if s.count >= 5, s[..<4].allSatisfy(isDecimal), s[4] == "-" { return true }
        return s.count >= 3 && s[..<2].allSatisfy(isDecimal) && s[2] == ":"
    }
}
