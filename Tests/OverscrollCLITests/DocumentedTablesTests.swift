import Foundation
import Testing

/// docs/reference.md's tables of settings, replay options and exit statuses are the program's:
/// each is compared with what the built program prints (`--help`) and does, and any
/// difference, either way, fails.
@Suite struct DocumentedTablesTests {
    @Test func theSettingsTableIsTheWindowsHelp() throws {
        let table = try MarkdownTable(in: Docs.reference, header: ["flag", "config key", "meaning", "default", "in a replay"])
        let help = try HelpText(try CLI.run(["--help"]).stdout)
        let documented = try table.rows.map { try DocumentedOption(cell: $0[0], defaultText: $0[3]) }
        let shown = help.options(in: ["SETTINGS", "WINDOW"])
        #expect(Set(documented.flatMap(\.flags)) == Set(shown.flatMap(\.flags)),
                "docs/reference.md: \(documented.flatMap(\.flags).sorted())\n--help: \(shown.flatMap(\.flags).sorted())")
        for option in documented {
            let match = try #require(shown.first { $0.flags == option.flags }, "\(option.flags) is not in --help")
            #expect(match.valueName == option.valueName, "\(option.flags): docs/reference.md \(option.valueName ?? "-"), --help \(match.valueName ?? "-")")
            #expect((match.defaultText ?? "none") == option.defaultText, "\(option.flags): docs/reference.md '\(option.defaultText)', --help '\(match.defaultText ?? "none")'")
        }
    }

    @Test func theConfigKeysAreTheProgramsAndTheFlagNames() throws {
        let table = try MarkdownTable(in: Docs.reference, header: ["flag", "config key", "meaning", "default", "in a replay"])
        var documented: [String] = []
        for row in table.rows where row[1] != "—" {
            let key = row[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            documented.append(key)
            // The key is the flag without its "--".
            #expect(row[0].hasPrefix("`--\(key)"), "\(row[0]) vs key \(key)")
        }
        // The program lists every key it takes when it meets one it does not.
        let config = try CLI.write("no-such-key = 1\n", to: "unknown.toml")
        let r = try CLI.run(["replay", "Assets/gestures/drag.txt", "--config", config])
        #expect(r.status == 78)
        let list = try #require(r.stderr.range(of: "allowed keys: ").map { r.stderr[$0.upperBound...] })
        let keys = list.trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: ", ")
        #expect(Set(keys) == Set(documented), "program: \(keys.sorted()), docs/reference.md: \(documented.sorted())")
    }

    @Test func replayHonoursOrRefusesEachSettingAsTheTableSays() throws {
        let table = try MarkdownTable(in: Docs.reference, header: ["flag", "config key", "meaning", "default", "in a replay"])
        let replayHelp = try HelpText(try CLI.run(["replay", "--help"]).stdout)
        let replayFlags = Set(replayHelp.options(in: ["SETTINGS", "OPTIONS"]).flatMap(\.flags))
        for row in table.rows {
            let option = try DocumentedOption(cell: row[0], defaultText: row[3])
            if row[4].hasPrefix("honoured") {
                #expect(option.flags.allSatisfy { replayFlags.contains($0) }, "\(option.flags) missing from replay --help")
            } else {
                #expect(row[4].hasPrefix("refused"), "\(row[0]): '\(row[4])' is neither honoured nor refused")
                #expect(!option.flags.contains { replayFlags.contains($0) }, "\(option.flags) in replay --help")
                var flagRun = ["replay", "Assets/gestures/drag.txt", option.flags[0]]
                if option.valueName != nil { flagRun.append("1") }
                let byFlag = try CLI.run(flagRun)
                #expect(byFlag.status == 64 && byFlag.stderr.contains("replay has no display"), "\(flagRun): \(byFlag.stderr)")
                let key = row[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                // A value of the key's own type, so it is refused for being window-only.
                let value = option.valueName == nil ? "true" : option.valueName == "FILE" ? "\"x.prom\""
                    : option.valueName == "NAME" ? "\"HDMI-A-1\"" : "1"
                let config = try CLI.write("\n\(key) = \(value)\n", to: "window-only.toml")
                let byKey = try CLI.run(["replay", "Assets/gestures/drag.txt", "--config", config])
                #expect(byKey.status == 78, "\(key): \(byKey.stderr)")
                #expect(byKey.stderr.contains("replay has no display; remove '\(key)' from \(config):2"), "\(byKey.stderr)")
            }
        }
    }

    @Test func replaysOwnOptionsTableIsReplaysHelp() throws {
        let table = try MarkdownTable(in: Docs.reference, header: ["replay option", "meaning", "default"])
        let documented = try table.rows.map { try DocumentedOption(cell: $0[0], defaultText: $0[2]) }
        let shown = try HelpText(try CLI.run(["replay", "--help"]).stdout).options(in: ["OPTIONS"])
            .filter { !$0.flags.contains("--help") && !$0.flags.contains("--version") }
        #expect(Set(documented.flatMap(\.flags)) == Set(shown.flatMap(\.flags)))
        for option in documented {
            let match = try #require(shown.first { $0.flags == option.flags })
            #expect(match.valueName == option.valueName, "\(option.flags)")
            if let shownDefault = match.defaultText { #expect(shownDefault == option.defaultText, "\(option.flags)") }
        }
    }

    @Test func theExitStatusTableIsTheProgramsOwn() throws {
        let table = try MarkdownTable(in: Docs.reference, header: ["status", "meaning"])
        var documented: [Int: String] = [:]
        for row in table.rows { documented[Int(row[0]) ?? -1] = row[1].replacingOccurrences(of: "`", with: "") }
        let help = try CLI.run(["--help"]).stdout
        var shown: [Int: String] = [:]
        var inSection = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "EXIT STATUS:" { inSection = true; continue }
            guard inSection else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { break }
            let parts = trimmed.split(separator: " ", maxSplits: 1)
            shown[Int(parts[0]) ?? -1] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        }
        #expect(!shown.isEmpty)
        #expect(documented == shown, "docs/reference.md: \(documented)\n--help: \(shown)")
    }

    @Test func helpShowsTheWindowsOptionsSubcommandsAndVersion() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--size <WxH>") && help.stdout.contains("--fullscreen"))
        #expect(help.stdout.contains("SUBCOMMANDS:") && help.stdout.contains("  replay") && help.stdout.contains("  report"))
        let version = try CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(version.stdout)")
    }

    @Test(arguments: [["--threshold", "-1"], ["replay", "Assets/gestures/drag.txt", "--threshold", "-1"],
                      ["--display", "-1"], ["--refresh-timeout", "-2s"], ["--size", "10x20"], ["--rotate", "-90"]])
    func negativeAndTooSmallNumbersAreOutOfRangeInWords(arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 64)
        let flag = arguments[arguments.count - 2], value = arguments[arguments.count - 1]
        #expect(r.stderr.contains("\(flag) \(value) is out of range: it must be"), "\(r.stderr)")
        #expect(!r.stderr.contains("Missing value"))
    }
}

/// The Markdown files the `Documented*Tests` read, from the package root.
enum Docs {
    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: CLI.packageRoot + "/" + path, encoding: .utf8)) ?? ""
    }

    /// The tables of settings, options, statuses and signals, and the gated rows.
    static let reference = read("docs/reference.md")
    /// "What was measured".
    static let performance = read("docs/performance.md")
}

/// A Markdown table found by its header row.
struct MarkdownTable {
    struct NotFound: Error, CustomStringConvertible {
        var header: [String]
        var description: String { "no table in docs/reference.md with the header \(header)" }
    }

    var rows: [[String]]

    init(in text: String, header: [String]) throws {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { Self.cells($0) == header }) else { throw NotFound(header: header) }
        rows = lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map(Self.cells)
    }

    static func cells(_ line: String) -> [String] {
        guard line.hasPrefix("|") else { return [] }
        return line.dropFirst().dropLast(line.hasSuffix("|") ? 1 : 0)
            .components(separatedBy: " | ").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}

/// An option as docs/reference.md writes it: "`--threshold PT`" or "`--flash`, `--no-flash`".
struct DocumentedOption {
    struct Malformed: Error { var cell: String }
    var flags: [String]
    var valueName: String?
    var defaultText: String

    init(cell: String, defaultText: String) throws {
        let spans = cell.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        guard let first = spans.first else { throw Malformed(cell: cell) }
        let words = first.split(separator: " ").map(String.init)
        flags = spans.compactMap { $0.split(separator: " ").first.map(String.init) }
        valueName = words.count > 1 ? words[1].uppercased() : nil
        self.defaultText = defaultText
    }
}

/// ArgumentParser's help, read back: the options of each section with their value names
/// and the "(default: …)" their help ends with.
struct HelpText {
    struct Option {
        var flags: [String]
        var valueName: String?
        var defaultText: String?
        /// The whole help text, its lines joined.
        var text = ""
    }

    private var sections: [(title: String, options: [Option])] = []

    init(_ text: String) throws {
        var current: (flags: String, help: String)?
        func close() {
            guard let c = current, !sections.isEmpty else { return }
            let words = c.flags.split(separator: " ")
            let flags = words[0].split(separator: "/").map(String.init).filter { $0.hasPrefix("--") }
            let value = words.count > 1 ? words[1].trimmingCharacters(in: CharacterSet(charactersIn: "<>")).uppercased() : nil
            var defaultText: String?
            if let r = c.help.range(of: #"\(default: (.*)\)\.?$"#, options: .regularExpression) {
                defaultText = String(c.help[r].dropFirst("(default: ".count)).trimmingCharacters(in: CharacterSet(charactersIn: "."))
                defaultText = defaultText.map { String($0.dropLast()) }
            }
            sections[sections.count - 1].options.append(Option(flags: flags, valueName: value, defaultText: defaultText, text: c.help))
            current = nil
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if !line.hasPrefix(" "), line.hasSuffix(":"), !line.isEmpty {
                close()
                sections.append((String(line.dropLast()), []))
            } else if line.hasPrefix("  -") {
                close()
                let body = line.dropFirst(2)
                if let gap = body.range(of: "  ") {
                    current = (String(body[..<gap.lowerBound]), body[gap.upperBound...].trimmingCharacters(in: .whitespaces))
                } else {
                    current = (String(body), "")
                }
            } else if line.hasPrefix("          "), current != nil {
                current!.help += (current!.help.isEmpty ? "" : " ") + line.trimmingCharacters(in: .whitespaces)
            } else {
                close()
            }
        }
        close()
    }

    /// The sections' titles, as printed (without the colon).
    var titles: [String] { sections.map(\.title) }

    /// The options of the sections whose titles start with one of `prefixes`.
    func options(in prefixes: [String]) -> [Option] {
        sections.filter { s in prefixes.contains { s.title.hasPrefix($0) } }.flatMap(\.options)
    }
}

/// docs/reference.md names the metrics `report BASE NEW` gates on; the comparison it prints
/// marks every other row `(info)`. The two lists are the same.
@Suite struct DocumentedGateTests {
    @Test func theGatedRowsAreTheOnesTheReferenceNames() throws {
        let doc = Docs.reference.replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "   ", with: " ").replacingOccurrences(of: "  ", with: " ")
        let start = try #require(doc.range(of: "The gated rows are "))
        let sentence = doc[start.upperBound...].prefix { $0 != ";" }
        let documented = sentence.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        #expect(documented.count >= 5)

        let base = CLI.temporaryPath("gate-base"), new = CLI.temporaryPath("gate-new")
        for dir in [base, new] {
            let r = try CLI.run(["replay", "Assets/gestures/drag.txt", "--report", dir, "--no-sound"])
            try #require(r.status == 0, "\(r.stderr)")
        }
        let r = try CLI.run(["report", base, new, "--tolerance", "1000000"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("metric") })
        let rows = lines[(header + 1)...].prefix { !$0.isEmpty }
        // A row is "name  unit  base  new  change [(info)]": its name ends at the first gap of two spaces.
        let gated = rows.filter { !$0.hasSuffix("(info)") }.map { String($0[..<($0.range(of: "  ")?.lowerBound ?? $0.endIndex)]) }
        #expect(Set(gated) == Set(documented), "program gates \(gated), docs/reference.md names \(documented)")
    }
}
