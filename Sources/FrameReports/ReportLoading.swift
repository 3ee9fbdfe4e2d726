import OverscrollKit
import Foundation

/// Why a report directory could not be read back; each description is one line for a user.
public enum ReportLoadError: Error, Equatable, CustomStringConvertible {
    /// No summary.json: not a report, or a run that never finished.
    case notAReport(directory: String, hint: String)
    case unreadable(path: String, reason: String)
    case incompatible(path: String, found: Int, supported: Int)
    case corrupt(path: String, detail: String)

    public var description: String {
        switch self {
        case let .notAReport(directory, hint):
            "\(directory) is not a report directory: \(hint)"
        case let .unreadable(path, reason):
            "cannot read \(path): \(reason)"
        case let .incompatible(path, found, supported):
            "\(path) was made by an incompatible version of overscroll (report format \(found); this build reads format \(supported))"
        case let .corrupt(path, detail):
            "\(path) is corrupt: \(detail)"
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
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw .notAReport(directory: directory, hint: "no such directory")
        }
        guard isDirectory.boolValue else {
            throw .notAReport(directory: directory, hint: "it is a file")
        }
        let path = (directory as NSString).appendingPathComponent(fileName)
        guard fm.fileExists(atPath: path) else {
            let started = fm.fileExists(atPath: (directory as NSString).appendingPathComponent(FrameRowFormat.fileName))
            throw .notAReport(directory: directory, hint: started
                ? "it has frames.csv but no summary.json (the run did not finish)"
                : "it has no summary.json")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, reason: FileErrors.reason(error))
        }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw .corrupt(path: path, detail: "not valid JSON")
        }
        guard let top = object as? [String: Any] else {
            throw .corrupt(path: path, detail: "not a JSON object")
        }
        guard let version = top["format_version"] as? Int else {
            throw .corrupt(path: path, detail: "no format_version")
        }
        guard version == formatVersion else {
            throw .incompatible(path: path, found: version, supported: formatVersion)
        }
        do { return try JSONDecoder().decode(ReportSummary.self, from: data) } catch let error as DecodingError {
            throw .corrupt(path: path, detail: Self.describe(error))
        } catch {
            throw .corrupt(path: path, detail: "\(error)")
        }
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

/// Turns Foundation and POSIX errors into the short reason a user can act on.
public enum FileErrors {
    public static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }

    static func posix(_ code: Int32) -> String { String(cString: strerror(code)) }
}
