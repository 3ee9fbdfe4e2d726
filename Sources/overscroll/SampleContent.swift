import Foundation
import OverscrollKit
import RowSources

/// The demo's rows, from `Assets/content/sample.txt`, found next to the executable (as
/// built in `.build/…` or installed under `share/overscroll`) or in the working directory.
enum SampleContent {
    static func rows() -> [String] {
        for path in candidates() {
            // The same rules as any content file (CRLF, BOM, limits): one row reader.
            if let rows = try? ContentFile.rows(fromFile: path) { return rows }
        }
        // The app still works without its assets; it says what it shows instead.
        return (1...100).map { "Item \($0)" }
    }

    static func candidates() -> [String] {
        let relative = "content/sample.txt"
        var paths: [String] = []
        if let dir = ProcessInfo.processInfo.environment["OVERSCROLL_ASSETS"] { paths.append("\(dir)/\(relative)") }
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for up in ["../../Assets", "../../../Assets", "../share/overscroll"] {
            paths.append(exe.appendingPathComponent(up).appendingPathComponent(relative).standardized.path)
        }
        paths.append(FileManager.default.currentDirectoryPath + "/Assets/" + relative)
        return paths
    }
}
