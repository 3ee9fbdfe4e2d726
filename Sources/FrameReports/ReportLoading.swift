import OverscrollKit
import FoundationEssentials
import Glibc

/// Why a report directory could not be read back; each description is one line for a user.
public enum ReportLoadError: Error, Equatable, CustomStringConvertible {
    /// No summary.json: not a report, or a run that never finished.
    case notAReport(directory: String, hint: String)
    case unreadable(path: String, reason: String)
    case incompatible(path: String, found: Int, supported: Int)
    case corrupt(path: String, detail: String)

    /// Paths are whole, escaped: the message must say which file.
    public var description: String {
        switch self {
        case let .notAReport(directory, hint):
            "\(OutsideText.escaped(directory)) is not a report directory: \(hint)"
        case let .unreadable(path, reason):
            "cannot read \(OutsideText.escaped(path)): \(reason)"
        case let .incompatible(path, found, supported):
            "\(OutsideText.escaped(path)) was made by an incompatible version of overscroll (report format \(found); this build reads format \(supported))"
        case let .corrupt(path, detail):
            "\(OutsideText.escaped(path)) is corrupt: \(TextLines.cut(detail, to: 200))"
        }
    }

    /// Missing or unreadable input, as opposed to input that is there but wrong.
    public var isMissing: Bool {
        switch self {
        case .notAReport, .unreadable: true
        case .incompatible, .corrupt: false
        }
    }
}

extension ReportSummary {
    /// Reads `directory/summary.json` back, checking the format version before the shape,
    /// so a newer report says "incompatible" rather than "corrupt".
    public static func load(directory: String) throws(ReportLoadError) -> ReportSummary {
        // stat, not "exists": a directory the user may not enter (a kiosk's 0750 state
        // directory) is "Permission denied" and its path, never "no such directory".
        var info = stat()
        guard stat(directory, &info) == 0 else {
            let code = errno
            if code == ENOENT { throw .notAReport(directory: directory, hint: "no such directory") }
            throw .unreadable(path: directory, reason: FileErrors.posix(code))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .notAReport(directory: directory, hint: "it is a file")
        }
        let path = ReportWriter.path(directory, fileName)
        guard stat(path, &info) == 0 else {
            let code = errno
            guard code == ENOENT else { throw .unreadable(path: path, reason: FileErrors.posix(code)) }
            let started = FileManager.default.fileExists(atPath: ReportWriter.path(directory, FrameRowFormat.fileName))
            throw .notAReport(directory: directory, hint: started
                ? "it has frames.csv but no summary.json (the run did not finish)"
                : "it has no summary.json")
        }
        let data = try readSummary(path)
        // The version first, read on its own: a newer format is "incompatible", not "corrupt".
        let version: Int
        do { version = try JSONDecoder().decode(FormatVersionProbe.self, from: data).version } catch let error as FormatVersionProbe.Missing {
            throw .corrupt(path: path, detail: error.detail)
        } catch {
            throw .corrupt(path: path, detail: "not valid JSON")
        }
        guard version == formatVersion else {
            throw .incompatible(path: path, found: version, supported: formatVersion)
        }
        let summary: ReportSummary
        do { summary = try JSONDecoder().decode(ReportSummary.self, from: data) } catch let error as DecodingError {
            throw .corrupt(path: path, detail: Self.describe(error))
        } catch {
            throw .corrupt(path: path, detail: "\(error)")
        }
        if let problem = summary.inconsistency { throw .corrupt(path: path, detail: problem) }
        return summary
    }

    /// A summary.json is a few kilobytes; anything past this is not one, and is refused
    /// before it is read (a 200 MB file once took 607 MB to load).
    public static let maxFileBytes = 4 << 20

    /// The file's bytes, opened without blocking (a FIFO named summary.json is refused in
    /// words, not waited on or called "permission denied") and refused past `maxFileBytes`.
    private static func readSummary(_ path: String) throws(ReportLoadError) -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw .unreadable(path: path, reason: FileErrors.posix(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: FileErrors.posix(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFIFO: throw .unreadable(path: path, reason: "it is a FIFO (named pipe), not a file")
        case S_IFDIR: throw .unreadable(path: path, reason: "it is a directory, not a file")
        default: throw .unreadable(path: path, reason: "it is a device or socket, not a file")
        }
        guard Int(info.st_size) <= maxFileBytes else {
            throw .corrupt(path: path, detail: "\(Int(info.st_size) >> 20) MiB, far more than a summary holds (at most \(maxFileBytes >> 20) MiB)")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw .unreadable(path: path, reason: FileErrors.posix(errno)) }
            if n == 0 { break }
            count += n
        }
        guard count <= maxFileBytes else { throw .corrupt(path: path, detail: "it grew past \(maxFileBytes >> 20) MiB while being read") }
        return Data(bytes[..<count])
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case let .keyNotFound(key, context):
            let at = path(context)
            return "missing \(at.isEmpty ? "" : at + ".")\(key.stringValue)"
        case let .typeMismatch(_, context), let .valueNotFound(_, context):
            return "unexpected value at \(path(context))"
        case let .dataCorrupted(context):
            return "bad data at \(path(context))"
        @unknown default:
            return "\(error)"
        }
    }
}

/// summary.json's `format_version` alone, decoded before the rest.
private struct FormatVersionProbe: Decodable {
    struct Missing: Error { let detail: String }
    let version: Int

    private enum Keys: String, CodingKey { case formatVersion = "format_version" }

    init(from decoder: Decoder) throws {
        let container: KeyedDecodingContainer<Keys>
        do { container = try decoder.container(keyedBy: Keys.self) } catch DecodingError.typeMismatch {
            throw Missing(detail: "not a JSON object")
        }
        guard let version = try? container.decode(Int.self, forKey: .formatVersion) else {
            throw Missing(detail: "no format_version")
        }
        self.version = version
    }
}

/// Turns Foundation and POSIX errors into the short reason a user can act on.
public enum FileErrors {
    public static func reason(_ error: Error) -> String {
        if let error = error as? POSIXError { return posix(error.code.rawValue) }
        if let cocoa = error as? CocoaError {
            if let underlying = cocoa.underlying as? POSIXError { return posix(underlying.code.rawValue) }
            switch cocoa.code {
            case .fileReadNoSuchFile, .fileNoSuchFile: return posix(ENOENT)
            case .fileReadNoPermission, .fileWriteNoPermission: return posix(EACCES)
            default: break
            }
        }
        return "\(error)"
    }

    public static func posix(_ code: Int32) -> String { String(cString: strerror(code)) }
}
