import Foundation
import Testing

/// What docs/reference.md, docs/performance.md and docs/replay.md list is what the program's help lists and what it
/// does: script commands, benchmark modes, what a replay does with each setting.
@Suite struct DocumentedHelpTests {
    static let replayDoc = (try? String(contentsOfFile: CLI.packageRoot + "/docs/replay.md", encoding: .utf8)) ?? ""
    static let bench = (CLI.executable as NSString).deletingLastPathComponent + "/overscroll-bench"

    /// The command words of a grammar written `wait D | down X Y | finger N down …`.
    static func commandWords(_ grammar: String) -> Set<String> {
        let alternatives = grammar.components(separatedBy: "|")
        let words = alternatives.compactMap { alternative -> String? in
            alternative.split(separator: " ").first.map(String.init)
        }
        return Set(words.filter { $0.allSatisfy(\.isLetter) && $0 == $0.lowercased() })
    }

    @Test func replaysHelpListsEveryScriptCommandTheDocsListAndTheParserTakes() throws {
        // docs/replay.md: the grammar block under "Gesture scripts".
        let doc = Self.replayDoc
        let section = try #require(doc.range(of: "## Gesture scripts"))
        let open = try #require(doc.range(of: "```\n", range: section.upperBound..<doc.endIndex))
        let close = try #require(doc.range(of: "```", range: open.upperBound..<doc.endIndex))
        let block = doc[open.upperBound..<close.lowerBound].split(separator: "\n")
            .map { String($0.split(separator: "#").first ?? "") }
        let documented = Self.commandWords(block.joined(separator: " | "))
        #expect(documented.count >= 8, "\(documented)")

        let help = try CLI.run(["replay", "--help"]).stdout
        let helpLines = help.split(separator: "\n").map(String.init)
        let first = try #require(helpLines.firstIndex { $0.hasPrefix("Script commands") })
        // The indented lines after the heading (which the help may wrap).
        let grammar = helpLines[(first + 1)...].drop { !$0.hasPrefix("  ") }.prefix { $0.hasPrefix("  ") }
        let listed = Self.commandWords(grammar.joined(separator: " | "))
        #expect(listed == documented, "replay --help: \(listed.sorted()), docs/replay.md: \(documented.sorted())")

        // The parser takes each one; a word it does not know is a malformed script.
        let script = try CLI.write("""
            wait 50ms
            down 100 300
            move 100 400 100ms
            up
            finger 2 down 50 50
            finger 2 up
            mouse down 10 10
            mouse up
            wheel 20
            key Down
            """, to: "every-command.txt")
        let words = Set(script.isEmpty ? [] : try String(contentsOfFile: script, encoding: .utf8)
            .split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(words == listed, "the test's script covers \(words.sorted())")
        let r = try CLI.run(["replay", script, "--no-sound"])
        #expect(r.status == 0, "\(r.stderr)")
        let unknown = try CLI.write("hop 1 2\n", to: "unknown-command.txt")
        #expect(try CLI.run(["replay", unknown, "--no-sound"]).status == 65)
    }

    @Test func benchsOverviewAndThePerformancePageNameEveryMode() throws {
        let help = try CLI.run([Self.bench, "--help"], through: Self.bench).stdout
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == "SUBCOMMANDS:" })
        // "  name   abstract" lines, up to the blank line before "See '… help'".
        let modes = Set(lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }.filter { $0 != "help" })
        #expect(modes.count >= 8, "\(modes)")

        // The overview: the names in its parentheses.
        let overview = help[..<(help.range(of: "\n\n")?.lowerBound ?? help.endIndex)].replacingOccurrences(of: "\n", with: " ")
        #expect(Self.parenthesized(overview) == modes, "overview: \(overview)")

        // docs/performance.md: "`overscroll-bench --help` lists every mode (…)".
        let doc = Docs.performance.replacingOccurrences(of: "\n", with: " ")
        let sentence = try #require(doc.range(of: "`overscroll-bench --help` lists every mode"))
        let rest = String(doc[sentence.upperBound...].prefix { $0 != ")" }) + ")"
        #expect(Self.parenthesized(rest) == modes, "docs/performance.md: \(rest)")
    }

    /// The words inside every "(…)" of `text`, split at commas.
    static func parenthesized(_ text: some StringProtocol) -> Set<String> {
        var words = Set<String>()
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") {
            for word in rest[rest.index(after: open)..<close].split(separator: ",") {
                words.insert(word.trimmingCharacters(in: .whitespaces))
            }
            rest = rest[rest.index(after: close)...]
        }
        return words
    }

    /// The table's "in a replay" column is in `--help`: a setting a replay treats in its
    /// own way says how; a window-only one sits in the section that says a replay refuses it.
    @Test func theHelpCarriesTheInAReplayColumn() throws {
        let table = try MarkdownTable(in: Docs.reference, header: ["flag", "config key", "meaning", "default", "in a replay"])
        let help = try HelpText(try CLI.run(["--help"]).stdout)
        let windowTitle = try #require(help.titles.first { $0.hasPrefix("WINDOW") })
        #expect(windowTitle.contains("REPLAY REFUSES"), "\(windowTitle)")
        for row in table.rows {
            let option = try DocumentedOption(cell: row[0], defaultText: row[3])
            let inReplay = row[4].replacingOccurrences(of: "`", with: "")
            if inReplay.hasPrefix("refused") {
                #expect(help.options(in: ["WINDOW"]).contains { $0.flags == option.flags }, "\(option.flags)")
                continue
            }
            let shown = try #require(help.options(in: ["SETTINGS"]).first { $0.flags == option.flags }, "\(option.flags)")
            if inReplay == "honoured" {
                #expect(!shown.text.contains("In a replay"), "\(option.flags): \(shown.text)")
            } else {
                #expect(shown.text.contains("In a replay: \(inReplay) (default:"), "\(option.flags): docs/reference.md '\(inReplay)', --help '\(shown.text)'")
            }
            // A range the table's meaning gives (64…16384) is in the help too.
            if let range = row[2].range(of: #"\d+…\d+"#, options: .regularExpression) {
                #expect(shown.text.contains(row[2][range]), "\(option.flags): \(shown.text)")
            }
        }
    }
}

/// "A token it echoes is cut to 80 characters", and every message is one line:
/// a 200-character token in each place a message echoes one.
@Suite struct EchoLimitTests {
    static let long = String(repeating: "x", count: 200)

    /// Refused, and the token shown cut: most of its 80 characters, then "…", never more.
    static func check(_ r: CLIResult, _ what: String) {
        #expect(r.status != 0, "\(what) was accepted")
        #expect(!r.stderr.contains(String(repeating: "x", count: 81)), "\(what): \(r.stderr)")
        #expect(r.stderr.range(of: "x{70,80}…", options: .regularExpression) != nil, "\(what): \(r.stderr)")
    }

    @Test func everyValueFlagEchoesAtMost80Characters() throws {
        let table = try MarkdownTable(in: Docs.reference, header: ["flag", "config key", "meaning", "default", "in a replay"])
        // Values the program checks before it reads any file: numbers, durations, words, sizes.
        for row in table.rows {
            let option = try DocumentedOption(cell: row[0], defaultText: row[3])
            guard let value = option.valueName, !["FILE", "PATH", "DIR", "CMD"].contains(value) else { continue }
            let r = try CLI.run([option.flags[0], Self.long])
            Self.check(r, option.flags[0])
            #expect(r.status == 64, "\(option.flags[0]): \(r.status)")
        }
    }

    @Test func aLongThresholdGivesAnErrorLineOfAtMost200Characters() throws {
        for arguments in [["--threshold", Self.long], ["replay", "Assets/gestures/drag.txt", "--threshold", Self.long]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 64)
            let first = try #require(r.stderr.split(separator: "\n").first)
            #expect(first.count <= 200, "\(first.count): \(first)")
        }
    }

    @Test func unknownOptionsConfigKeysPathsAndToleranceAreCut() throws {
        Self.check(try CLI.run(["--" + Self.long]), "an unknown option")
        Self.check(try CLI.run(["replay", "Assets/gestures/drag.txt", "--" + Self.long]), "an unknown replay option")
        let config = try CLI.write("\(Self.long) = 1\n", to: "long-key.toml")
        Self.check(try CLI.run(["replay", "Assets/gestures/drag.txt", "--config", config]), "a config key")
        let badLine = try CLI.write("threshold = \"\(Self.long)\n", to: "long-line.toml")
        let r = try CLI.run(["replay", "Assets/gestures/drag.txt", "--config", badLine])
        #expect(r.status == 78 && !r.stderr.contains(String(repeating: "x", count: 81)), "\(r.stderr)")
        Self.check(try CLI.run(["replay", "/tmp/" + Self.long]), "a script path")
        Self.check(try CLI.run(["replay", "Assets/gestures/drag.txt", "--config", "/tmp/" + Self.long]), "a config path")
        // A report's path is shown whole (issue 52): it names the file.
        let report = try CLI.run(["report", "/tmp/" + Self.long])
        #expect(report.status == 66 && report.stderr.contains("/tmp/" + Self.long + " is not a report directory"), "\(report.stderr)")
        Self.check(try CLI.run(["report", "/tmp/a", "/tmp/b", "--tolerance", Self.long]), "--tolerance")
    }

    @Test func aValueWithALineEndStaysOnOneLine() throws {
        let plain = try CLI.run(["--threshold", "abc"])
        let broken = try CLI.run(["--threshold", "a\nb\u{1B}[2Jc"])
        #expect(plain.status == 64 && broken.status == 64)
        let lines = broken.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == plain.stderr.split(separator: "\n", omittingEmptySubsequences: false).count, "\(broken.stderr)")
        #expect(lines[0].contains("a\\u{A}b\\u{1B}[2Jc") && !broken.stderr.contains("\u{1B}"), "\(broken.stderr)")
    }

    @Test func aReplaysSettingErrorShowsReplaysUsageAndTheToleranceIsNamed() throws {
        let r = try CLI.run(["replay", "Assets/gestures/drag.txt", "--threshold", "-1"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("Usage: overscroll replay <script>") && !r.stderr.contains("--fullscreen"), "\(r.stderr)")
        let t = try CLI.run(["report", "/tmp/a", "/tmp/b", "--tolerance", "-5"])
        #expect(t.status == 64)
        #expect(t.stderr.contains("--tolerance -5 is out of range") && t.stderr.contains("Usage: overscroll report"), "\(t.stderr)")
    }

    @Test func statusTextTakesAnyCaseAndTheThresholdHasAnUpperBound() throws {
        let off = try CLI.run(["replay", "Assets/gestures/drag.txt", "--status-text", "OFF", "--no-sound"])
        #expect(off.status == 0, "\(off.stderr)")
        for arguments in [["--threshold", "1e9"], ["replay", "Assets/gestures/drag.txt", "--threshold", "1e9"],
                          ["replay", "Assets/gestures/drag.txt", "--threshold", "800", "--size", "480x800"]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("out of range"), "\(r.stderr)")
        }
        // Below the list's height it is taken; turned a quarter, the height is the width.
        #expect(try CLI.run(["replay", "Assets/gestures/drag.txt", "--threshold", "700", "--no-sound"]).status == 0)
        #expect(try CLI.run(["replay", "Assets/gestures/drag.txt", "--threshold", "700", "--rotate", "90", "--no-sound"]).status == 64)
        let config = try CLI.write("\nthreshold = 900\n", to: "high-threshold.toml")
        let r = try CLI.run(["replay", "Assets/gestures/drag.txt", "--config", config])
        #expect(r.status == 78 && r.stderr.contains("\(config):2: 'threshold' is out of range"), "\(r.stderr)")
    }
}
