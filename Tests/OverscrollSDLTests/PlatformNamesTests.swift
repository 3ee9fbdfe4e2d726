import Foundation
import Testing
@testable import OverscrollSDL

/// SDL's video driver names are read in one place, the platform table
/// (`Platforms.row(for:)`): `Display`, `LiveApp`, `RunWatch`, `Session`, the painter, the
/// drawing backends, the presenters and the app read the row's fields. This reads their
/// source for a name coming back: a string that is a driver's name ("x11"), or a
/// platform's enum case compared (`.wayland`).
@Suite struct PlatformNamesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Files that may name platforms, and why.
    static let allowed: [String: String] = [
        // The table: the one place the names are.
        "Sources/OverscrollSDL/Platform/Platforms.swift": "the rows",
        // What is left of #49 here: the kind of SDL's native connection handle (SysWM's
        // subsystem: which C functions its pointer may be passed to), not the driver's
        // name; its guards could become the row's fields.
        "Sources/OverscrollSDL/Platform/NativeDisplay.swift": "the native handle's type",
    ]

    /// The names: every row's, and those the program ever compared.
    static var names: Set<String> {
        Set(Platforms.rows.flatMap(\.sdlNames).map { $0.lowercased() } + ["x11", "wayland", "kmsdrm", "evdev", "offscreen", "dummy"])
    }

    /// Where `source` names a platform, as "line: text" (comments left out).
    static func offences(in source: String) -> [String] {
        let alternatives = names.sorted().joined(separator: "|")
        let regex = try! NSRegularExpression(pattern: #""(\#(alternatives))"|(?<![A-Za-z0-9_])\.(\#(alternatives))\b"#, options: [.caseInsensitive])
        var found: [String] = []
        for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var code = String(line)
            if code.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
            if let comment = code.range(of: " // ") { code = String(code[..<comment.lowerBound]) }
            if regex.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil {
                found.append("\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    /// The check finds what it is for, and passes over prose.
    @Test func theCheckFindsANameCompared() {
        #expect(Self.offences(in: #"if chosen == "x11" { reveal() }"#).count == 1)
        #expect(Self.offences(in: "guard kind == .wayland else { return }").count == 1)
        #expect(Self.offences(in: #"driver.lowercased() == "KMSDRM""#).count == 1)
        #expect(Self.offences(in: #"let x = ["offscreen", "dummy"].contains(chosen)"#).count == 1)
        #expect(Self.offences(in: #"throw SDLError("set SDL_VIDEODRIVER=kmsdrm on the console")"#).isEmpty)
        #expect(Self.offences(in: "    // on X11 the window is \"x11\"").isEmpty)
        #expect(Self.offences(in: "case .x11: return 1").count == 1)
        #expect(Self.offences(in: "let p = PresenterTable.x11WindowSurface").isEmpty)
        // A row by its name is the table's, read: not a name compared.
        #expect(Self.offences(in: "options.videoDriver = Platforms.offscreen.sdlNames[0]").isEmpty)
    }

    @Test func noFileOutsideTheTableNamesAPlatform() throws {
        var files: [String] = []
        for folder in ["Sources/OverscrollSDL", "Sources/OverscrollApp"] {
            let enumerator = try #require(FileManager.default.enumerator(atPath: Self.root + "/" + folder))
            while let path = enumerator.nextObject() as? String {
                if path.hasSuffix(".swift") { files.append(folder + "/" + path) }
            }
        }
        // Those #49 names: the check must see them.
        for named in ["Platform/Display.swift", "App/LiveApp.swift", "App/RunWatch.swift", "App/Session.swift",
                      "Drawing/Painter.swift", "Drawing/SurfaceBackend.swift", "Drawing/RendererBackend.swift"] {
            #expect(files.contains("Sources/OverscrollSDL/" + named), "\(named) not read")
        }
        for file in files where Self.allowed[file] == nil {
            let source = try String(contentsOfFile: Self.root + "/" + file, encoding: .utf8)
            let found = Self.offences(in: source)
            #expect(found.isEmpty, "\(file) names a platform; read the row's fields (Platform) instead:\n\(found.joined(separator: "\n"))")
        }
    }
}
