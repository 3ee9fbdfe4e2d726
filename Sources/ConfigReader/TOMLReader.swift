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

    let scalars: [Unicode.Scalar]
    let limits: Limits
    var index = 0
    var line = 1
    /// The key whose value is being read, for the failures in it.
    var valueKey: String?

    private init(scalars: [Unicode.Scalar], limits: Limits) {
        self.scalars = scalars
        self.limits = limits
    }

    func failure(_ message: String, _ kind: Failure.Kind, line: Int? = nil) -> Failure {
        Failure(line: line ?? self.line, message: message, kind: kind, key: valueKey)
    }

    var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
    func starts(with s: String) -> Bool {
        var i = index
        for c in s.unicodeScalars {
            guard i < scalars.count, scalars[i] == c else { return false }
            i += 1
        }
        return true
    }

    mutating func advance(_ n: Int = 1) {
        for _ in 0..<n where index < scalars.count {
            if scalars[index] == "\n" { line += 1 }
            index += 1
        }
    }

    mutating func skipSpaces() { while peek == " " || peek == "\t" { advance() } }

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

    static func shown(_ c: Unicode.Scalar) -> String {
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
}
