/// The values that are not quoted: booleans, integers, floats, and the dates and times a
/// config refuses, read as TOML 1.0 spells them.
extension TOMLReader {
    /// true/false, a number, or a date/time: the token runs to a blank, ',', ']', '#' or
    /// the line's end.
    mutating func bareValue() throws(Failure) -> TOMLValue {
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

    static func isDecimal(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

    /// Digits with `_` only between two of them, as TOML allows; nil when misplaced or not
    /// `allowed`.
    static func digits(_ s: Substring.UnicodeScalarView, allowed: (Unicode.Scalar) -> Bool) -> String? {
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

    enum IntegerToken { case value(Int), tooLarge, notOne }

    static func integer(_ token: String) -> IntegerToken {
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

    static func float(_ token: String) -> Double? {
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
    static func isDateOrTime(_ token: String) -> Bool {
        let s = Array(token.unicodeScalars)
        if s.count >= 5, s[..<4].allSatisfy(isDecimal), s[4] == "-" { return true }
        return s.count >= 3 && s[..<2].allSatisfy(isDecimal) && s[2] == ":"
    }
}
