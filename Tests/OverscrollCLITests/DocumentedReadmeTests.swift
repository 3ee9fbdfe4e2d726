import Foundation
import Testing

/// What the README tells a newcomer, checked against what the scripts and the program do:
/// where `script/run` puts the program, what `script/test` says it will run and how to
/// skip its slow stages, and that the usage section's commands run as written.
@Suite struct DocumentedReadmeTests {
    static let readme = Docs.read("README.md")

    /// `script/test`'s up-front plan, run on its own (the stages themselves are not run).
    static func plan(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> String {
        let script = "eval \"$(sed -n '/^planned()/,/^plan \"/p' script/test)\""
        let r = try CLI.run(["/bin/bash", "-c", script, "test"] + arguments, environment: environment, through: "/bin/bash")
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    @Test func scriptTestSaysWhatItRunsHowLongAndHowToSkipAsTheReadmeDoes() throws {
        let plan = try Self.plan(environment: ["OVERSCROLL_SKIP_PACKAGE_TEST": "", "OVERSCROLL_SKIP_VM_TEST": ""])
        // Each stage of a whole run is announced with its estimate.
        for stage in ["debug build", "swift test", "ThreadSanitizer", "cage-test", "test-package", "test-debian13", "vm-test"] {
            let line = plan.split(separator: "\n").first { $0.contains(stage) }
            #expect(line.map { $0.contains("min") || $0.contains("skipped") } == true, "\(stage): \(plan)")
        }
        // The README's two lines: the same switches, the same totals.
        for word in ["OVERSCROLL_SKIP_PACKAGE_TEST=1", "OVERSCROLL_SKIP_VM_TEST=1", "--filter PATTERN"] {
            #expect(plan.contains(word), "script/test does not name \(word)")
            #expect(Self.readme.contains(word), "README.md does not name \(word)")
        }
        let totals = try #require(plan.split(separator: "\n").first { $0.contains("In all") }, "\(plan)")
        for total in totals.matches(of: /~\d+ min/).map({ String($0.output) }) {
            #expect(Self.readme.contains(total), "README.md does not give script/test's total \(total)")
        }
        // The switches are the ones the scripts honour.
        for (variable, script) in [("OVERSCROLL_SKIP_PACKAGE_TEST", "script/test-package"), ("OVERSCROLL_SKIP_VM_TEST", "script/vm-test")] {
            #expect(Docs.read(script).contains("${\(variable):-}"), "\(script) does not read \(variable)")
            #expect(try Self.plan(environment: [variable: "1"]).contains("skipped: \(variable) is set"))
        }
        // With a filter only the swift tests run, and the plan says so.
        let filtered = try Self.plan(["--filter", "X"])
        #expect(filtered.contains("swift test --filter X") && !filtered.contains("vm-test"), "\(filtered)")
    }

    @Test func theReadmeSaysWhereScriptRunPutsTheProgramAndThatItPassesArgumentsOn() throws {
        let run = Docs.read("script/run")
        let exec = try #require(run.split(separator: "\n").last { $0.hasPrefix("exec ") }, "script/run ends in no exec")
        #expect(exec == "exec .build/release/overscroll \"$@\"", "\(exec)")
        #expect(Self.readme.contains("`.build/release/overscroll`"))
        #expect(Self.readme.contains("export PATH=\"$PWD/.build/release:$PATH\""))
        #expect(Self.readme.contains("`script/run ARGS` passes its arguments on"))
    }

    /// The usage section's example block: the lines without placeholders (words in
    /// capitals) run as written, from a folder holding only Assets; the window's line as a
    /// replay of a pull with the same settings (no display here).
    @Test func theUsageExamplesWithoutPlaceholdersRunAsWritten() throws {
        let usage = try #require(Self.readme.components(separatedBy: "## Using it").dropFirst().first)
        let blocks = usage.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        let examples = try #require(blocks.first { $0.contains("--refresh-command") }, "no example block")
        let lines = examples.split(separator: "\n").dropFirst().map { line in
            String(line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]).trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        let placeholder = /\b[A-Z][A-Z-]{2,}\b/
        let placeholders = lines.filter { $0.contains(placeholder) }
        let runnable = lines.filter { !$0.contains(placeholder) }
        #expect(!placeholders.isEmpty && runnable.count >= 3, "\(lines)")
        #expect(Self.readme.contains("In capitals, yours to fill in (first line); the other three run as written"))
        #expect(placeholders.count == 1 && runnable.count == 3, "\(lines)")
        let folder = CLI.temporaryPath("readme")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/Assets", withDestinationPath: CLI.packageRoot + "/Assets")
        let bin = (CLI.executable as NSString).deletingLastPathComponent
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for line in runnable {
            #expect(line.hasPrefix("overscroll "), "\(line)")
            let command = line.hasPrefix("overscroll --")
                ? "overscroll replay Assets/gestures/pull-to-refresh.txt " + line.dropFirst("overscroll ".count)
                : line
            let r = try CLI.run(["/bin/sh", "-c", command], environment: ["PATH": path], through: "/bin/sh", in: folder)
            #expect(r.status == 0, "\(command): \(r.stderr)")
            if command.contains("--refresh-command") {
                #expect(r.stderr.contains("refreshed: 41 rows"), "\(command): \(r.stderr)")
            }
        }
    }
}

/// Words a setting takes, and the names of `report`'s arguments, said the same everywhere.
@Suite struct DocumentedWordsTests {
    /// The words the program takes for `--renderer`, from its own refusal of one it does not.
    @Test func theRendererWordsAreInTheSettingsTableAndTheHelp() throws {
        let refused = try CLI.run(["replay", "Assets/gestures/drag.txt", "--renderer", "bogus"])
        #expect(refused.status == 64)
        let list = try #require(refused.stderr.firstMatch(of: /must be one of ([a-z, ]+), e\.g\./)?.output.1, "\(refused.stderr)")
        let words = list.components(separatedBy: ", ")
        #expect(words.count >= 3, "\(words)")
        let table = try MarkdownTable(in: Docs.reference, header: ["flag", "config key", "meaning", "default", "in a replay"])
        let row = try #require(table.rows.first { $0[0].hasPrefix("`--renderer") })
        let help = try CLI.run(["--help"]).stdout
        let helpText = try #require(help.components(separatedBy: "--renderer <mode>").dropFirst().first?
            .components(separatedBy: "\n  --").first)
        for word in words {
            #expect(row[2].contains("`\(word)`:"), "docs/reference.md's --renderer row does not say what \(word) does: \(row[2])")
            #expect(helpText.contains("\(word):"), "--help's --renderer does not say what \(word) does: \(helpText)")
        }
    }

    /// `report --help` names its first argument in USAGE as in ARGUMENTS.
    @Test func reportsHelpNamesItsArgumentsOneWay() throws {
        let help = try CLI.run(["report", "--help"]).stdout
        let usage = try #require(help.split(separator: "\n").first { $0.hasPrefix("USAGE:") })
        let names = usage.matches(of: /<([a-z]+)>/).map { String($0.output.1) }.filter { $0 != "pct" }
        #expect(names.count == 2, "\(usage)")
        let arguments = try #require(help.components(separatedBy: "ARGUMENTS:").dropFirst().first?.components(separatedBy: "OPTIONS:").first)
        let listed = arguments.matches(of: /^\s+<([a-z]+)>/.anchorsMatchLineEndings()).map { String($0.output.1) }
        #expect(listed == names, "USAGE \(names), ARGUMENTS \(listed)")
    }

    /// The shipped kiosk.toml's comments quote the screen's words as the program has them.
    @Test func theKioskTomlQuotesTheScreensWords() throws {
        let toml = Docs.read("Assets/kiosk/kiosk.toml")
        let status = Docs.read("Sources/OverscrollKit/List/RefreshStatus.swift")
        let line = try #require(toml.split(separator: "\n").first { $0.contains("status-text") })
        let quoted = line.split(separator: "#", maxSplits: 1)[1].matches(of: /"([^"]+)"/).map { String($0.output.1) }
        #expect(quoted.count == 2, "\(line)")
        for phrase in quoted {
            let shape = phrase.replacing(/\d\d:\d\d/, with: "{time}")
            #expect(status.contains(shape), "kiosk.toml quotes \"\(phrase)\"; the screen's words are in RefreshStatus.swift")
        }
    }

    /// The run folder kiosk.toml's comment shows is shaped as a kiosk's own: a kiosk with
    /// `report =` in its config runs and stops, and its folder's name is compared digit
    /// for digit in shape.
    @Test func theKioskTomlsRunFolderIsShapedAsAKiosksOwn() throws {
        let toml = Docs.read("Assets/kiosk/kiosk.toml")
        let comment = try #require(toml.split(separator: "\n").first { $0.hasPrefix("# report =") })
        let example = try #require(comment.firstMatch(of: /\d[\dTZ:-]+Z/).map { String($0.output) }, "\(comment)")
        let server = try #require(try XServer())
        let dir = CLI.temporaryPath("reports")
        let config = try CLI.write("report = \"\(dir)\"\n", to: "kiosk.toml")
        let app = try LiveApp(["--kiosk", "--no-sound", "--config", config], on: server)
        var runs: [String] = []
        for _ in 0..<100 where runs.isEmpty {
            Thread.sleep(forTimeInterval: 0.1)
            runs = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        }
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 10) == 0)
        let run = try #require(runs.first, "no run folder in \(dir)")
        func shape(_ name: String) -> String { String(name.map { $0.isNumber ? "9" : $0 }) }
        #expect(shape(run) == shape(example), "kiosk.toml shows \(example); a kiosk made \(run)")
    }
}
