/// Appends CSV rows into a reusable byte buffer, formatting numbers itself: fixed decimals,
/// no locale, no allocation per row, and the same bytes on every machine.
public struct CSVRowBuffer: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    public mutating func clear() { bytes.removeAll(keepingCapacity: true) }

    public mutating func comma() { bytes.append(UInt8(ascii: ",")) }
    public mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func append(_ text: String) {
        var t = text
        t.withUTF8 { bytes.append(contentsOf: $0) }
    }

    public mutating func append(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(UInt64(value.magnitude))
    }

    /// `value` with exactly `decimals` digits after the point, rounded half away from zero.
    /// Non-finite values are written as `nan`/`inf` so a broken row is visible, not hidden.
    public mutating func append(_ value: Double, decimals: Int) {
        guard value.isFinite else {
            append(value.isNaN ? "nan" : value < 0 ? "-inf" : "inf")
            return
        }
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded()
        guard scaled < 9e18 else { append(value < 0 ? "-inf" : "inf"); return }
        let fixed = UInt64(scaled)
        if value < 0 && fixed != 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(fixed / scale)
        if decimals > 0 {
            bytes.append(UInt8(ascii: "."))
            var fraction = fixed % scale
            var divisor = scale / 10
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
                fraction %= divisor
                divisor /= 10
            }
        }
    }

    private mutating func appendDigits(_ value: UInt64) {
        if value >= 10 { appendDigits(value / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
