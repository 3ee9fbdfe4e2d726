import Foundation

/// Finds the UI font: an explicit `--font`, else DejaVu Sans at Debian's path, else
/// whatever fontconfig's `fc-match` suggests for "DejaVu Sans" / "sans-serif".
public enum FontLocator {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    static let knownPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/local/share/fonts/DejaVuSans.ttf",
    ]

    public static func locate(explicit: String?) throws(Missing) -> String {
        if let explicit {
            guard FileManager.default.isReadableFile(atPath: explicit) else {
                let shown = explicit.count > 80 ? String(explicit.prefix(79)) + "…" : explicit
                throw Missing(description: "font '\(shown)' cannot be read; pass --font with the path of a readable .ttf file")
            }
            return explicit
        }
        for path in knownPaths where FileManager.default.isReadableFile(atPath: path) { return path }
        for pattern in ["DejaVu Sans", "sans-serif"] {
            if let path = fcMatch(pattern), path.hasSuffix(".ttf") || path.hasSuffix(".otf"),
               FileManager.default.isReadableFile(atPath: path) {
                return path
            }
        }
        throw Missing(description: "no UI font found; install one with 'apt-get install fonts-dejavu-core' or pass --font PATH")
    }

    private static func fcMatch(_ pattern: String) -> String? {
        let candidates = ["/usr/bin/fc-match", "/usr/local/bin/fc-match"]
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-f", "%{file}", pattern]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
