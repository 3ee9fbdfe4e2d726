/// Reads the TOML a config file is: top-level `key = value` lines, in file order, each with
/// its line. Strings (basic, literal, multi-line), integers (decimal, hex, octal, binary,
/// `_` separators), floats, booleans and arrays of them are read as TOML 1.0 defines them;
/// a date, a time or an inline table is read as "another kind of value" (every setting
/// refuses it, naming what it takes). A `[table]` header, a dotted key or a key set twice
/// is an error with its line: no setting lives in a table.
///
/// Why not a TOML library: the one at hand (TOMLKit) imports Foundation for its date
/// types, and that links Foundation's internationalization data (ICU, some 40 MB) into
/// the program. A config needs none of it.
enum TOMLValue: Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    case array([TOMLValue])
    /// A date, time or inline table: valid TOML, but no setting's kind.
    case other(String)

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var int: Int? { if case .integer(let n) = self { n } else { nil } }
    var double: Double? { if case .float(let n) = self { n } else { nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    var array: [TOMLValue]? { if case .array(let a) = self { a } else { nil } }
}

struct TOMLReader {
    struct Entry: Equatable {
        let key: String
        let value: TOMLValue
        let line: Int
    }

    struct Failure: Error, Equatable {
        let line: Int
        let message: String
    }

    /// The file's top-level keys in order, or the first error with its line.
    static func entries(_ text: String) throws(Failure) -> [Entry] {
        var reader = TOMLReader(text)
        var entries: [Entry] = []
        var firstLine: [String: Int] = [:]
        while true {
            reader.skipBlankLinesAndComments()
            guard let c = reader.peek else { return entries }
            let line = reader.line
            if c == "[" { throw Failure(line: line, message: "a [table] header; every setting is a top-level key = value") }
            let key = try reader.key()
            reader.skipSpaces()
            if reader.peek == "." { throw Failure(line: line, message: "unknown key '\(key).…' (a dotted key); every setting is a top-level key") }
            guard reader.peek == "=" else { throw Failure(line: line, message: "expected '=' after the key '\(key)'") }
            reader.advance()
            reader.skipSpaces()
            let value = try reader.value()
            try reader.endOfLine()
            if let first = firstLine[key] { throw Failure(line: line, message: "'\(key)' is set twice (first on line \(first))") }
            firstLine[key] = line
            entries.append(Entry(key: key, value: value, line: line))
        }
    }

    private var scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1

    private init(_ text: String) { scalars = Array(text.unicodeScalars) }

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

    private mutating func skipComment() { if peek == "#" { while let c = peek, c != "\n" { advance() } } }

    private mutating func skipBlankLinesAndComments() {
        while true {
            skipSpaces()
            skipComment()
            guard peek == "\n" || peek == "\r" else { return }
            advance()
        }
    }

    /// After a value: spaces, an optional comment, then the end of the line or file.
    private mutating func endOfLine() throws(Failure) {
        skipSpaces()
        skipComment()
        if peek == "\r" { advance() }
        guard peek == nil || peek == "\n" else {
            throw Failure(line: line, message: "unexpected '\(peek!)' after the value; one key = value a line")
        }
    }

    private static func isBare(_ c: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(c) || ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-"
    }

    private mutating func key() throws(Failure) -> String {
        switch peek {
        case "\"": return try basicString()
        case "'": return try literalString()
        case let c? where Self.isBare(c):
            var key = ""
            while let c = peek, Self.isBare(c) { key.unicodeScalars.append(c); advance() }
            return key
        case let c?: throw Failure(line: line, message: "unexpected '\(c)' where a key should start")
        case nil: throw Failure(line: line, message: "a key expected")
        }
    }

    private mutating func value() throws(Failure) -> TOMLValue {
        switch peek {
        case nil, "\n"?, "\r"?, "#"?: throw Failure(line: line, message: "a value expected after '='")
        case "\"": return .string(try starts(with: "\"\"\"") ? multilineBasicString() : basicString())
        case "'": return .string(try starts(with: "'''") ? multilineLiteralString() : literalString())
        case "[": return .array(try array())
        case "{": return .other(try inlineTable())
        default: return try bareValue()
        }
    }

    private mutating func array() throws(Failure) -> [TOMLValue] {
        let opened = line
        advance()
        var items: [TOMLValue] = []
        while true {
            skipBlankLinesAndComments()
            guard let c = peek else { throw Failure(line: opened, message: "an array '[' that is never closed") }
            if c == "]" { advance(); return items }
            items.append(try value())
            skipBlankLinesAndComments()
            if peek == nil { throw Failure(line: opened, message: "an array '[' that is never closed") }
            if peek == "," { advance(); continue }
            guard peek == "]" else { throw Failure(line: line, message: "expected ',' or ']' in the array") }
        }
    }

    /// `{ … }` kept as text: no setting takes a table, so its inside only has to be skipped.
    private mutating func inlineTable() throws(Failure) -> String {
        let opened = line, start = index
        var depth = 0
        while let c = peek {
            switch c {
            case "\"": _ = try starts(with: "\"\"\"") ? multilineBasicString() : basicString(); continue
            case "'": _ = try starts(with: "'''") ? multilineLiteralString() : literalString(); continue
            case "{", "[": depth += 1
            case "}", "]":
                depth -= 1
                if depth == 0 { advance(); return String(String.UnicodeScalarView(scalars[start..<index])) }
            default: break
            }
            advance()
        }
        throw Failure(line: opened, message: "an inline table '{' that is never closed")
    }

    private mutating func basicString() throws(Failure) -> String {
        advance()
        var out = String.UnicodeScalarView()
        while let c = peek {
            switch c {
            case "\"": advance(); return String(out)
            case "\n": throw Failure(line: line, message: "a string that does not end on its line (a '\"' is missing)")
            case "\\": out.append(try escape())
            default: out.append(c); advance()
            }
        }
        throw Failure(line: line, message: "a string that never ends (a '\"' is missing)")
    }

    private mutating func literalString() throws(Failure) -> String {
        advance()
        var out = String.UnicodeScalarView()
        while let c = peek {
            if c == "'" { advance(); return String(out) }
            if c == "\n" { throw Failure(line: line, message: "a string that does not end on its line (a \"'\" is missing)") }
            out.append(c)
            advance()
        }
        throw Failure(line: line, message: "a string that never ends (a \"'\" is missing)")
    }

    private mutating func multilineBasicString() throws(Failure) -> String {
        let opened = line
        advance(3)
        if peek == "\r" { advance() }
        if peek == "\n" { advance() }  // a newline right after the opening quotes is trimmed
        var out = String.UnicodeScalarView()
        while let c = peek {
            if starts(with: "\"\"\"") {
                advance(3)
                // Up to two more quotes belong to the content ("""a""""" is a"").
                while peek == "\"" { out.append("\""); advance() }
                return String(out)
            }
            if c == "\\" {
                // A backslash at the end of a line trims the newline and the blanks after it.
                var ahead = 1
                while peek(ahead) == " " || peek(ahead) == "\t" || peek(ahead) == "\r" { ahead += 1 }
                if peek(ahead) == "\n" {
                    advance(ahead)
                    while let w = peek, w == " " || w == "\t" || w == "\n" || w == "\r" { advance() }
                    continue
                }
                out.append(try escape())
                continue
            }
            out.append(c)
            advance()
        }
        throw Failure(line: opened, message: "a multi-line string that never ends (a '\"\"\"' is missing)")
    }

    private mutating func multilineLiteralString() throws(Failure) -> String {
        let opened = line
        advance(3)
        if peek == "\r" { advance() }
        if peek == "\n" { advance() }
        var out = String.UnicodeScalarView()
        while let c = peek {
            if starts(with: "'''") {
                advance(3)
                while peek == "'" { out.append("'"); advance() }
                return String(out)
            }
            out.append(c)
            advance()
        }
        throw Failure(line: opened, message: "a multi-line string that never ends (a \"'''\" is missing)")
    }

    private mutating func escape() throws(Failure) -> Unicode.Scalar {
        advance()
        guard let c = peek else { throw Failure(line: line, message: "a '\\' at the end of the file") }
        advance()
        switch c {
        case "b": return "\u{08}"
        case "t": return "\t"
        case "n": return "\n"
        case "f": return "\u{0C}"
        case "r": return "\r"
        case "e": return "\u{1B}"
        case "\"": return "\""
        case "\\": return "\\"
        case "u", "U":
            let digits = c == "u" ? 4 : 8
            var hex = ""
            for _ in 0..<digits {
                guard let h = peek, h.properties.isASCIIHexDigit else {
                    throw Failure(line: line, message: "'\\\(c)' needs \(digits) hex digits")
                }
                hex.unicodeScalars.append(h)
                advance()
            }
            guard let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else {
                throw Failure(line: line, message: "'\\\(c)\(hex)' is not a Unicode character")
            }
            return scalar
        default:
            throw Failure(line: line, message: "unknown escape '\\\(c)' in a string (write '\\\\' for a backslash)")
        }
    }

    /// true/false, a number, or a date/time; the token runs to a blank, ',', ']', '}' or '#'
    /// (a date may hold one space: "1979-05-27 07:32:00").
    private mutating func bareValue() throws(Failure) -> TOMLValue {
        var token = ""
        while let c = peek, !(c == " " || c == "\t" || c == "\n" || c == "\r" || c == "," || c == "]" || c == "}" || c == "#") {
            token.unicodeScalars.append(c)
            advance()
        }
        if Self.isDate(token), peek == " ", let next = peek(1), ("0"..."9").contains(next) {
            advance()
            while let c = peek, ("0"..."9").contains(c) || c == ":" || c == "." || c == "Z" || c == "z" || c == "+" || c == "-" {
                token.unicodeScalars.append(c)
                advance()
            }
        }
        switch token {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        case "": throw Failure(line: line, message: "a value expected after '='")
        default: break
        }
        if let n = Self.integer(token) { return .integer(n) }
        if let x = Self.float(token) { return .float(x) }
        if Self.isDate(token) || Self.isTime(token) { return .other(token) }
        throw Failure(line: line, message: "'\(token)' is not a TOML value (a string needs quotes)")
    }

    /// Underscores only between digits, as TOML allows; nil when misplaced.
    private static func digits(_ s: Substring, allowed: (Unicode.Scalar) -> Bool) -> String? {
        guard let first = s.unicodeScalars.first, let last = s.unicodeScalars.last, first != "_", last != "_",
              !s.contains("__") else { return nil }
        var out = ""
        for c in s.unicodeScalars where c != "_" {
            guard allowed(c) else { return nil }
            out.unicodeScalars.append(c)
        }
        return out.isEmpty ? nil : out
    }

    private static func isDecimal(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

    private static func integer(_ token: String) -> Int? {
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where token.hasPrefix(prefix) {
            let body = token.dropFirst(2)
            guard let d = digits(body, allowed: { $0.properties.isASCIIHexDigit && Int(String($0), radix: radix) != nil }) else { return nil }
            return Int(d, radix: radix)
        }
        var body = Substring(token)
        var sign = ""
        if let f = body.first, f == "+" || f == "-" { sign = f == "-" ? "-" : ""; body = body.dropFirst() }
        guard let d = digits(body, allowed: isDecimal) else { return nil }
        if d.count > 1 && d.hasPrefix("0") { return nil }  // no leading zeros in TOML
        return Int(sign + d)
    }

    private static func float(_ token: String) -> Double? {
        var body = Substring(token)
        var sign = ""
        if let f = body.first, f == "+" || f == "-" { sign = f == "-" ? "-" : ""; body = body.dropFirst() }
        let exponentAt = body.firstIndex { $0 == "e" || $0 == "E" }
        let mantissa = body[..<(exponentAt ?? body.endIndex)]
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, exponentAt != nil || parts.count == 2 else { return nil }
        guard let whole = digits(parts[0], allowed: isDecimal), !(whole.count > 1 && whole.hasPrefix("0")) else { return nil }
        var text = sign + whole
        if parts.count == 2 {
            guard let fraction = digits(parts[1], allowed: isDecimal) else { return nil }
            text += "." + fraction
        }
        if let e = exponentAt {
            var exponent = body[body.index(after: e)...]
            var eSign = ""
            if let f = exponent.first, f == "+" || f == "-" { eSign = String(f); exponent = exponent.dropFirst() }
            guard let d = digits(exponent, allowed: isDecimal) else { return nil }
            text += "e" + eSign + d
        }
        return Double(text)
    }

    private static func isDate(_ token: String) -> Bool {
        let s = Array(token.unicodeScalars)
        return s.count >= 10 && s[4] == "-" && s[7] == "-" && s[..<4].allSatisfy(isDecimal)
    }

    private static func isTime(_ token: String) -> Bool {
        let s = Array(token.unicodeScalars)
        return s.count >= 8 && s[2] == ":" && s[5] == ":" && s[..<2].allSatisfy(isDecimal)
    }
}
