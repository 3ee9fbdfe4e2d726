import Foundation
import Testing

/// The docs as files: every relative link in README.md and docs/*.md reaches a file (and
/// a heading, where it names one), and docs/architecture.md names only files, folders,
/// types and members that exist, and every target and source folder there is.
@Suite struct DocumentedArchitectureTests {
    static let root = CLI.packageRoot
    static let architecture = Docs.read("docs/architecture.md")

    /// README.md and every Markdown file in docs/, as paths from the package root.
    static func markdownFiles() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs")
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs
    }

    /// The targets of `link` (`[text](target)` and `![alt](target)`) in `text`.
    static func links(in text: String) -> [String] {
        matches(#"\]\(([^)\s]+)\)"#, in: withoutFencedCode(text))
    }

    /// The first group of every match of `pattern`.
    static func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map {
            ns.substring(with: $0.numberOfRanges > 1 ? $0.range(at: 1) : $0.range)
        }
    }

    /// The text with its ``` blocks taken out (their contents are not Markdown).
    static func withoutFencedCode(_ text: String) -> String {
        text.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: "\n")
    }

    /// The anchors GitHub gives a file's headings: lower case, spaces as hyphens, other
    /// punctuation dropped; a repeated heading gets -1, -2, ….
    static func anchors(of markdown: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors = Set<String>()
        for line in withoutFencedCode(markdown).split(separator: "\n") where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            var slug = ""
            for c in title {
                if c == " " { slug.append("-") } else if c.isLetter || c.isNumber || c == "-" || c == "_" { slug.append(c) }
            }
            let n = seen[slug, default: 0]
            seen[slug] = n + 1
            anchors.insert(n == 0 ? slug : "\(slug)-\(n)")
        }
        return anchors
    }

    @Test func everyRelativeLinkReachesAFileAndItsHeading() throws {
        let files = try Self.markdownFiles()
        #expect(files.contains("docs/reference.md") && files.contains("docs/architecture.md"))
        var checked = 0
        for file in files {
            let text = Docs.read(file)
            let directory = (file as NSString).deletingLastPathComponent
            for link in Self.links(in: text) where !link.contains("://") && !link.hasPrefix("mailto:") {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? file : ((directory as NSString).appendingPathComponent(parts[0]) as NSString).standardizingPath
                #expect(FileManager.default.fileExists(atPath: Self.root + "/" + target), "\(file): the link \(link) reaches no file")
                if parts.count > 1, target.hasSuffix(".md") {
                    #expect(Self.anchors(of: Docs.read(target)).contains(parts[1]), "\(file): \(target) has no heading #\(parts[1])")
                }
                checked += 1
            }
        }
        #expect(checked >= 40, "only \(checked) links found: is the pattern still right?")
    }

    /// The README is for users: short, and the two commands that set everything up come
    /// first, before any other block.
    @Test func theReadmeIsShortAndOpensWithTheTwoCommands() throws {
        let readme = Docs.read("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count - (readme.hasSuffix("\n") ? 1 : 0)
        // 170: the newcomer's lines (#47: where the program is, the test's times) joined a full page.
        #expect(lines > 20 && lines <= 170, "README.md has \(lines) lines; reference detail goes in docs/")
        let blocks = readme.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        let first = blocks.prefix(2).map { $0.split(separator: "\n").dropFirst().first.map(String.init) ?? "" }
        #expect(first.count == 2 && first[0].hasPrefix("script/run ") && first[1].hasPrefix("script/test "), "\(first)")
    }

    @Test func theAnchorsAreGitHubs() {
        #expect(Self.anchors(of: "# A\n## Why a frame is cheap: the drawing\n## A\n```\n# not a heading\n```\n")
                == ["a", "why-a-frame-is-cheap-the-drawing", "a-1"])
    }

    /// Every file below the package root's own folders, by name.
    static func fileNames() -> Set<String> {
        var names = Set((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
        for folder in ["Sources", "Tests", "docs", "Assets", "script", "packaging"] {
            let enumerator = FileManager.default.enumerator(atPath: root + "/" + folder)
            while let path = enumerator?.nextObject() as? String { names.insert((path as NSString).lastPathComponent) }
        }
        return names
    }

    /// The Swift source of the targets and the tests, as one text to look declarations up in.
    static let swiftSource: String = {
        var text = ""
        for folder in ["Sources", "Tests"] {
            let enumerator = FileManager.default.enumerator(atPath: root + "/" + folder)
            while let path = enumerator?.nextObject() as? String {
                guard path.hasSuffix(".swift") else { continue }
                text += (try? String(contentsOfFile: root + "/" + folder + "/" + path, encoding: .utf8)) ?? ""
                text += "\n"
            }
        }
        return text
    }()

    /// Every name declared in Sources/ and Tests/, by the keyword that declares it.
    static let declared: [String: Set<String>] = {
        let regex = try! NSRegularExpression(pattern: #"\b(struct|class|enum|protocol|typealias|actor|func|var|let|case)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
        let ns = swiftSource as NSString
        var names: [String: Set<String>] = [:]
        for m in regex.matches(in: swiftSource, range: NSRange(location: 0, length: ns.length)) {
            names[ns.substring(with: m.range(at: 1)), default: []].insert(ns.substring(with: m.range(at: 2)))
        }
        return names
    }()

    /// Whether one of `kinds` ("struct|class") declares `name`.
    static func declares(_ kinds: String, _ name: String) -> Bool {
        kinds.split(separator: "|").contains { declared[String($0)]?.contains(name) ?? false }
    }

    @Test func theArchitectureNamesOnlyFilesTypesAndMembersThatExist() throws {
        let names = Self.fileNames()
        let spans = Self.withoutFencedCode(Self.architecture).components(separatedBy: "`").enumerated()
            .filter { $0.offset % 2 == 1 }.map(\.element)
        var files = 0, symbols = 0
        for span in spans {
            if span.range(of: #"^[A-Za-z0-9_+-]+\.(swift|c|h|md|toml|service|rules)$"#, options: .regularExpression) != nil {
                let exists = names.contains(span)
                #expect(exists, "docs/architecture.md names \(span), which is no file here")
                files += 1
            } else if span.range(of: #"^(Sources|Tests|Assets|script|packaging|docs)/"#, options: .regularExpression) != nil {
                #expect(FileManager.default.fileExists(atPath: Self.root + "/" + span), "docs/architecture.md names \(span), which is not here")
                files += 1
            } else if span.range(of: #"^[A-Z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)?(\(.*\))?$"#, options: .regularExpression) != nil {
                // `Type`, `Type.member` or `Type.member(.case)`.
                let path = span.split(separator: "(").first.map(String.init) ?? span
                let parts = path.split(separator: ".").map(String.init)
                #expect(Self.declares("struct|class|enum|protocol|typealias|actor", parts[0]),
                        "docs/architecture.md names the type \(parts[0]), which Sources/ and Tests/ do not declare")
                if parts.count > 1 {
                    #expect(Self.declares("func|var|let|case|struct|class|enum", parts[1]),
                            "docs/architecture.md names \(path), and nothing declares \(parts[1])")
                }
                symbols += 1
            }
        }
        // The files it links to are checked as links (above).
        files += Self.links(in: Self.architecture).filter { $0.hasPrefix("../Sources/") }.count
        #expect(files >= 40 && symbols >= 40, "\(files) file names and \(symbols) names checked: is the reading still right?")
        // A name that does not exist is caught (the check can fail).
        #expect(!Self.declares("struct|class|enum|protocol|typealias|actor", "NoSuchTypeAnywhere"))
    }

    /// Package@swift-6.0.swift (Debian 13's Swift 6.0.3 reads it: the arm64 package) builds
    /// the same targets as Package.swift, less only what it says 6.0 cannot have: a target
    /// added to one manifest and not the other fails here, not in the arm64 build.
    @Test func theSwift60ManifestHasEveryTargetButTheOnesItSaysItLeavesOut() throws {
        let pattern = #"\.(?:target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([^"]+)""#
        let current = Self.matches(pattern, in: try String(contentsOfFile: Self.root + "/Package.swift", encoding: .utf8))
        let older = try String(contentsOfFile: Self.root + "/Package@swift-6.0.swift", encoding: .utf8)
        #expect(older.hasPrefix("// swift-tools-version:6.0\n"))
        let leftOut = ["OverscrollKitTests"]
        #expect(Self.matches(pattern, in: older) == current.filter { !leftOut.contains($0) })
        for name in leftOut { #expect(older.contains(name), "Package@swift-6.0.swift does not say why it leaves out \(name)") }
    }

    @Test func theBuildMapNamesEveryTargetAndEverySourceFolder() throws {
        let package = try String(contentsOfFile: Self.root + "/Package.swift", encoding: .utf8)
        let targets = Self.matches(#"\.(?:target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([^"]+)""#, in: package)
        #expect(targets.count >= 20, "\(targets)")
        for target in targets {
            #expect(Self.architecture.contains(target), "docs/architecture.md does not name the target \(target)")
        }
        let map = try #require(Self.architecture.components(separatedBy: "```").dropFirst().first, "no build map block")
        let manager = FileManager.default
        for folder in try manager.contentsOfDirectory(atPath: Self.root + "/Sources").sorted() {
            #expect(map.contains("Sources/\(folder)/"), "the build map has no line for Sources/\(folder)/")
            // The folders inside a target (OverscrollKit's Physics/, …), headers aside.
            let inner = (try? manager.contentsOfDirectory(atPath: Self.root + "/Sources/" + folder)) ?? []
            for sub in inner.sorted() where sub != "include" {
                var isDirectory: ObjCBool = false
                guard manager.fileExists(atPath: "\(Self.root)/Sources/\(folder)/\(sub)", isDirectory: &isDirectory), isDirectory.boolValue else { continue }
                #expect(map.contains("\n  \(sub)/"), "the build map has no line for Sources/\(folder)/\(sub)/")
            }
        }
        // And names no folder that is gone.
        for line in map.split(separator: "\n") where line.hasPrefix("Sources/") || line.hasPrefix("Tests/T") {
            let path = String(line.split(separator: " ").first ?? "")
            #expect(manager.fileExists(atPath: Self.root + "/" + path), "the build map names \(path), which is not here")
        }
    }
}
