import Foundation

/// The demo's rows, from `Assets/content/sample.txt`, found next to the executable (as
/// built in `.build/…` or installed under `share/overscroll`) or in the working directory.
enum SampleContent {
    static func rows() -> [String] {
        for path in candidates() {
            if let text = try? String(contentsOfFile: path, encoding: .utf8) {
                let rows = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
                if !rows.isEmpty { return rows }
            }
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
