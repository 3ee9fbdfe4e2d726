#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered output file opened up front, so a bad path fails before a run starts
/// rather than at its end.
public final class OutputFile {
    private let handle: UnsafeMutablePointer<FILE>
    public let path: String

    public init(path: String) throws(SDLError) {
        guard let handle = fopen(path, "w") else {
            throw SDLError(message: "cannot write '\(path)': \(String(cString: strerror(errno))); choose a writable path")
        }
        self.handle = handle
        self.path = path
    }

    deinit { fclose(handle) }

    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 1, $0.count, handle) }
    }

    public func write(_ text: String) { write(Array(text.utf8)) }

    public func flush() { fflush(handle) }
}
