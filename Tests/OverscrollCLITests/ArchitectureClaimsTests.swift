import Foundation
import Testing

/// What docs/architecture.md claims of the code, each checked against Sources/: the page
/// is read for the claim's words (reworded, the check here is looked at again), and the
/// source for what they say. `DocumentedArchitectureTests` checks that the names it uses
/// exist; this, that what it says of them is true.
@Suite struct ArchitectureClaimsTests {
    static let root = CLI.packageRoot
    static let architecture = Docs.read("docs/architecture.md")

    /// The Swift files under `folder` (from the package root), as paths from the root.
    static func swiftFiles(under folder: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: root + "/" + folder) else { return [] }
        var files: [String] = []
        while let path = walk.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append(folder + "/" + path) }
        }
        return files.sorted()
    }

    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: root + "/" + path, encoding: .utf8)) ?? ""
    }

    /// `source`'s lines of code, numbered from 1: comment lines and trailing `// …` left out.
    static func code(_ source: String) -> [(number: Int, text: String)] {
        source.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            var text = String(line)
            if text.trimmingCharacters(in: .whitespaces).hasPrefix("//") { return nil }
            if let comment = text.range(of: " // ") { text = String(text[..<comment.lowerBound]) }
            return (index + 1, text)
        }
    }

    /// Where `source`'s code matches `pattern`, as "line: text".
    static func offences(_ pattern: String, in source: String, caseInsensitive: Bool = false) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
        return code(source).filter { regex.firstMatch(in: $0.text, range: NSRange($0.text.startIndex..., in: $0.text)) != nil }
            .map { "\($0.number): \($0.text.trimmingCharacters(in: .whitespaces))" }
    }

    /// The claim's words, as the page has them (its lines joined: a claim may break a line).
    static func says(_ claim: String) -> Bool {
        let flowing = architecture.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return flowing.contains(claim)
    }

    // MARK: Presenters are named inside Presenters/ only

    /// The presenter types: every class under Presenters/ that conforms to `Presenter`, or
    /// to a protocol that refines it, and every type there that only makes one (a name
    /// ending in "Presenter" that is not a protocol).
    static func presenterTypes() -> Set<String> {
        let sources = swiftFiles(under: "Sources/OverscrollSDL/Presenters").map(read).joined(separator: "\n")
        func declared(_ pattern: String) -> [(name: String, conforms: String)] {
            let regex = try! NSRegularExpression(pattern: pattern)
            let ns = sources as NSString
            return regex.matches(in: sources, range: NSRange(location: 0, length: ns.length)).map {
                (ns.substring(with: $0.range(at: 1)), $0.range(at: 2).location == NSNotFound ? "" : ns.substring(with: $0.range(at: 2)))
            }
        }
        let refining = Set(["Presenter"] + declared(#"protocol\s+(\w+)\s*:\s*([^{]*)\{"#)
            .filter { $0.conforms.range(of: #"\bPresenter\b"#, options: .regularExpression) != nil }.map(\.name))
        var types = Set<String>()
        for type in declared(#"\b(?:class|struct|enum)\s+(\w+)(?:\s*:\s*([^{]*))?\{"#) {
            let conforms = type.conforms.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if conforms.contains(where: refining.contains) || type.name.hasSuffix("Presenter") { types.insert(type.name) }
        }
        return types
    }

    /// The files that must not name one: the SDL edge outside Presenters/, and the app.
    static var outsidePresenters: [String] {
        swiftFiles(under: "Sources/OverscrollSDL").filter { !$0.hasPrefix("Sources/OverscrollSDL/Presenters/") }
            + swiftFiles(under: "Sources/OverscrollApp")
    }

    @Test func thePresenterTypesAreFoundAndANameOfOneIsCaught() {
        let types = Self.presenterTypes()
        for known in ["SharedMemoryPresenter", "WindowSurfacePresenter", "RendererPresenter"] {
            #expect(types.contains(known), "\(known) not found among \(types.sorted())")
        }
        #expect(!types.contains("Presenter") && !types.contains("PresenterTable"))
        let pattern = #"\b(\#(types.sorted().joined(separator: "|")))\b"#
        #expect(Self.offences(pattern, in: "let p = SharedMemoryPresenter(chain: chain)").count == 1)
        #expect(Self.offences(pattern, in: "    /// shown by the `SharedMemoryPresenter`").isEmpty)
        #expect(Self.offences(pattern, in: "display.presenter = PresenterTable.inMemory(chain, width: 1, height: 1, reason: \"\")").isEmpty)
    }

    @Test func nothingOutsidePresentersNamesAPresenterType() {
        #expect(Self.says("nothing in OverscrollSDL outside `Presenters/`, nor the app, names a presenter type"))
        let files = Self.outsidePresenters
        #expect(files.contains("Sources/OverscrollSDL/Platform/Display.swift") && files.contains("Sources/OverscrollApp/Options.swift"))
        let pattern = #"\b(\#(Self.presenterTypes().sorted().joined(separator: "|")))\b"#
        for file in files {
            let found = Self.offences(pattern, in: Self.read(file))
            #expect(found.isEmpty, "\(file) names a presenter type; go through PresenterTable or the Presenter protocol:\n\(found.joined(separator: "\n"))")
        }
    }

    // MARK: The core compares no platform's name

    /// The files the page says compare no driver or platform name.
    static let core = ["Platform/Display.swift", "App/LiveApp.swift", "App/LiveApp+Input.swift", "App/RunWatch.swift",
                       "App/Session.swift", "Drawing/Painter.swift", "Drawing/DrawingBackend.swift",
                       "Drawing/SurfaceBackend.swift", "Drawing/RendererBackend.swift", "Drawing/RendererOverlays.swift"]
        .map { "Sources/OverscrollSDL/" + $0 }

    /// A driver's name as a string, or a case of that name: `"x11"`, `.wayland`.
    static let platformName = #"("(x11|wayland|kmsdrm|evdev|offscreen|dummy|fbdev)")|(?<![A-Za-z0-9_])\.(x11|wayland|kmsdrm|evdev|offscreen|dummy|fbdev)\b"#

    @Test func theCoreComparesNoDriverOrPlatformName() {
        #expect(Self.says("`Display`, `LiveApp`, `RunWatch`, `Session`, the painter and the drawing backends read the row's fields and compare no driver name"))
        #expect(Self.offences(Self.platformName, in: #"if videoDriver == "KMSDRM" { }"#, caseInsensitive: true).count == 1)
        #expect(Self.offences(Self.platformName, in: "guard platform.kind == .x11 else { return }", caseInsensitive: true).count == 1)
        #expect(Self.offences(Self.platformName, in: "guard platform.revealsOnFirstPresent else { return }", caseInsensitive: true).isEmpty)
        for file in Self.core {
            let source = Self.read(file)
            #expect(!source.isEmpty, "\(file) is not there to read")
            let found = Self.offences(Self.platformName, in: source, caseInsensitive: true)
            #expect(found.isEmpty, "\(file) compares a driver or platform name; read the platform's row:\n\(found.joined(separator: "\n"))")
        }
    }

    // MARK: The model imports no SDL

    @Test func theModelImportsNothingButTheCLibraryAndItsHistogram() {
        #expect(Self.says("nothing in it imports SDL"))
        let files = Self.swiftFiles(under: "Sources/OverscrollKit")
        #expect(files.count > 40)
        for file in files {
            for line in Self.offences(#"^\s*(@testable\s+)?import\s+"#, in: Self.read(file)) {
                let module = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(["Glibc", "Darwin", "Histogram"].contains(module), "\(file) imports \(module): \(line)")
            }
        }
    }

    // MARK: The console's touch, traced

    /// The layers a touch passes on the console, in order, by where their files are (the
    /// display's file before the rest of Platform/, whose files are the input's).
    static let layers: [(prefix: String, name: String)] = [
        ("Sources/CInput/", "C's input"),
        ("Sources/OverscrollSDL/Platform/Display.swift", "the display"),
        ("Sources/OverscrollSDL/Platform/", "the platform's input"),
        ("Sources/OverscrollSDL/App/", "the app's loop"),
        ("Sources/OverscrollKit/", "the model"),
        ("Sources/OverscrollSDL/Drawing/", "the drawing"),
        ("Sources/OverscrollSDL/Presenters/", "the presenter"),
        ("Sources/CDRM/", "C's DRM"),
    ]
    static let order = ["C's input", "the platform's input", "the app's loop", "the model", "the drawing",
                        "the display", "the presenter", "C's DRM"]

    /// The files the console's traced touch links to, in order.
    static func consoleTrace() -> [String] {
        let sections = architecture.components(separatedBy: "\n## ")
        guard let section = sections.first(where: { $0.hasPrefix("A touch on the console") }) else { return [] }
        return DocumentedArchitectureTests.links(in: section).filter { $0.hasPrefix("../Sources/") }.map { String($0.dropFirst(3)) }
    }

    @Test func theConsolesTouchCrossesEachFileOnceAndNoLayerBackwards() {
        #expect(Self.says(Self.order.joined(separator: ", ")), "the page does not name the layers in their order")
        let trace = Self.consoleTrace()
        #expect(trace.first == "Sources/CInput/input.c" && trace.last == "Sources/CDRM/dumb.c", "\(trace)")
        #expect(trace.count >= 12, "\(trace)")
        var seen = Set<String>()
        var reached = 0
        for file in trace {
            #expect(seen.insert(file).inserted, "the trace crosses \(file) twice")
            guard let layer = Self.layers.first(where: { file.hasPrefix($0.prefix) }), let rank = Self.order.firstIndex(of: layer.name) else {
                Issue.record("\(file) is in no layer the trace passes")
                continue
            }
            #expect(rank >= reached, "\(file) goes back to \(layer.name) after \(Self.order[reached])")
            reached = max(reached, rank)
        }
    }
}
