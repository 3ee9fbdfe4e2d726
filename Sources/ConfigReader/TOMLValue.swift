import OverscrollKit

/// A value of the TOML a config file is: the kinds a setting can take. Tables, inline
/// tables and dates are valid TOML that no setting takes; `TOMLReader` refuses them as
/// "not supported" rather than read them into kinds nothing uses.
public enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    case array([TOMLValue])

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var int: Int? { if case .integer(let n) = self { n } else { nil } }
    public var double: Double? { if case .float(let n) = self { n } else { nil } }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var array: [TOMLValue]? { if case .array(let a) = self { a } else { nil } }

    /// The value written as TOML that reads back to it: what `check-config` prints and
    /// messages show. One line, whatever the value holds (see `quoted`).
    public var toml: String {
        switch self {
        case .string(let s): Self.quoted(s)
        case .integer(let n): String(n)
        case .float(let x): Self.float(x)
        case .bool(let b): b ? "true" : "false"
        case .array(let items): "[" + items.map(\.toml).joined(separator: ", ") + "]"
        }
    }

    /// `s` as a TOML basic string: quote and backslash escaped, and every character a
    /// terminal or a reader of the line could be fooled by (C0 and C1 controls, DEL, line
    /// and paragraph separators, bidi controls) written as `\uXXXX`, so the string is one
    /// line and shows what it holds.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case _ where OutsideText.isEscaped(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A float as TOML writes it, reading back to the same bits: Swift's shortest
    /// round-trip form ("1e-07", "1e+20", "0.1") is TOML's float syntax too.
    public static func float(_ x: Double) -> String {
        if x.isNaN { return "nan" }
        if x.isInfinite { return x < 0 ? "-inf" : "inf" }
        return x.description
    }
}
