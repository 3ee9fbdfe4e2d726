import Foundation
import Testing

/// Every figure docs/performance.md's "What was measured" table quotes comes from a command in the
/// repository that prints it: each row's command exists, and run (shortened: fewer runs,
/// a smaller window, fewer frames — the figures' values are the machine's, their words
/// are the program's) it prints a line of the quoted shape, numbers aside. Figures that
/// do not depend on the machine (the physics, a fuzz run's failures, the allocation
/// gate) must be the same.
@Suite struct DocumentedFiguresTests {
    struct Row {
        var command: [String]
        var quotes: [String]
    }

    static func rows() throws -> [Row] {
        let table = try MarkdownTable(in: Docs.performance, header: ["figure", "command that prints it", "what it printed"])
        return table.rows.map { cells in
            let command = Self.spans(cells[1]).first ?? ""
            return Row(command: command.split(separator: " ").map(String.init), quotes: Self.quotes(cells[2]))
        }
    }

    /// The output a cell quotes: its leading code spans, up to the first remark in
    /// parentheses or after a semicolon (whose code spans are flags and paths).
    static func quotes(_ cell: String) -> [String] {
        var quotes: [String] = []
        for (index, part) in cell.components(separatedBy: "`").enumerated() {
            if index % 2 == 1 { quotes.append(part) } else if part.contains("(") || part.contains(";") { break }
        }
        return quotes
    }

    /// The `code spans` of a Markdown cell.
    static func spans(_ cell: String) -> [String] {
        cell.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }

    /// A regular expression for `quote` with every number free.
    static func shape(_ quote: String) -> String {
        var pattern = ""
        var number = false
        for c in quote {
            if c.isNumber || (number && c == ".") {
                if !number { pattern += #"[0-9][0-9.]*"# }
                number = true
                continue
            }
            number = false
            // Columns are padded: any run of spaces matches any other.
            if c == " " {
                if !pattern.hasSuffix(" +") { pattern += " +" }
                continue
            }
            pattern += NSRegularExpression.escapedPattern(for: String(c))
        }
        return pattern
    }

    /// The command as the test runs it: the built products, fewer runs and frames.
    static func shortened(_ command: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < command.count {
            let word = command[i]
            switch word {
            case "--count": out += [word, "20"]; i += 2
            case "--frames": out += [word, "3000"]; i += 2
            case "--size": out += [word, "240x400"]; i += 2
            case "--runs": i += 2
            default: out.append(word); i += 1
            }
        }
        if out.first == "overscroll-bench", let mode = out.dropFirst().first, ["frames", "text"].contains(mode) {
            out += ["--runs", "1"]
        }
        return out
    }

    @Test func theTableHasRowsAndSaysWhere() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 8)
        #expect(rows.allSatisfy { !$0.command.isEmpty && !$0.quotes.isEmpty })
        // The paragraph above the table names the machine and the build.
        let doc = Docs.performance
        let section = try #require(doc.range(of: "## What was measured"))
        let intro = doc[section.upperBound...].prefix(1200)
        for word in ["2-core", "load average", "swift build -c release --static-swift-stdlib", "2026-"] {
            #expect(intro.contains(word), "the introduction does not say '\(word)'")
        }
    }

    @Test func eachQuotedFigureIsPrintedByItsCommand() throws {
        let bench = DocumentedHelpTests.bench
        let benchModes = try CLI.run([bench, "--help"], through: bench).stdout
        for row in try Self.rows() {
            let command = Self.shortened(row.command)
            let program = command[0]
            if program.hasPrefix("script/") {
                // Needs Xvfb, cage, root or a peer toolkit, and minutes: no test reruns it, and
                // docs/performance.md says its figures are measured by hand. That its source
                // holds the quote's words proved nothing (a stale figure passed): only that the
                // command is there to run is checked.
                let path = CLI.packageRoot + "/" + program
                #expect(FileManager.default.isExecutableFile(atPath: path), "\(program)")
                continue
            }
            let executable: String
            switch program {
            case "overscroll": executable = CLI.executable
            case "overscroll-bench":
                executable = bench
                #expect(benchModes.contains("\n  \(command[1]) "), "overscroll-bench has no mode \(command[1])")
            default:
                Issue.record("\(row.command.joined(separator: " ")): not a command of this repository")
                continue
            }
            let r = try CLI.run([executable] + command.dropFirst(), environment: ["SDL_VIDEODRIVER": "offscreen"], through: executable)
            #expect(r.status == 0, "\(command): \(r.stderr)")
            let printed = r.stdout + r.stderr
            for quote in row.quotes {
                #expect(printed.range(of: Self.shape(quote), options: .regularExpression) != nil,
                        "\(command.joined(separator: " ")) printed nothing like '\(quote)':\n\(printed)")
            }
            // What does not depend on the machine is the same here.
            if command.dropFirst().first == "physics" {
                for quote in row.quotes { #expect(printed.contains(quote), "'\(quote)' vs\n\(printed)") }
            }
            if command.dropFirst().first == "fuzz" {
                #expect(printed.contains(" 0 failures"), "\(printed)")
                #expect(row.quotes.contains { $0.contains(" 0 failures") })
            }
        }
    }

    @Test func theAllocationGateThePerformancePageQuotesIsTheOneScriptTestRuns() throws {
        let doc = Docs.performance
        let gate = try #require(doc.range(of: #"`script/test` fails above ([0-9.]+)"#, options: .regularExpression))
        let value = doc[gate].split(separator: " ").last.map(String.init) ?? ""
        let script = try String(contentsOfFile: CLI.packageRoot + "/script/test", encoding: .utf8)
        #expect(script.contains("allocations") && script.contains("--at-most \(value)"), "script/test does not gate at \(value)")
    }
}
