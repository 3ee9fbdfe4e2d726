/// TOML's four kinds of string, and the escapes of the basic ones: what `TOMLReader`
/// reads where a value or a key opens with a quote.
extension TOMLReader {
    mutating func basicString() throws(Failure) -> String {
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

    mutating func literalString() throws(Failure) -> String {
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
    mutating func quoteRun(_ quote: Unicode.Scalar, into out: inout String.UnicodeScalarView) throws(Failure) -> Bool {
        var n = 0
        while peek(n) == quote { n += 1 }
        if n > 5 { throw failure("\(n) quotes in a row at the end of a multi-line string: at most 5 (two in the text, three to close)", .syntax) }
        for _ in 0..<(n >= 3 ? n - 3 : n) { out.append(quote) }
        advance(n)
        return n >= 3
    }

    mutating func multilineBasicString() throws(Failure) -> String {
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

    mutating func multilineLiteralString() throws(Failure) -> String {
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

    mutating func escape() throws(Failure) -> Unicode.Scalar {
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
}
