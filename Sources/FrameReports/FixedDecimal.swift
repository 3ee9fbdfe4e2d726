import Glibc

/// A number with a fixed count of decimals, as printf's "%.Nf" writes it (C locale).
/// String(format:) would need Foundation's full internationalization layer (ICU, tens of
/// megabytes in the program); the C library's formatter gives the same digits.
public enum FixedDecimal {
    public static func format(_ value: Double, decimals: Int) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let written = withVaList([value]) { vsnprintf(buffer.baseAddress, 64, "%.\(decimals)f", $0) }
            guard written > 0 else { return String(value) }
            return String(cString: buffer.baseAddress!)
        }
    }
}
