import ArgumentParser
import FoundationEssentials
import Glibc
import FrameReports
import OverscrollKit

/// `overscroll report DIR [NEW]`: prints a run's report, or compares two and exits 1 on a
/// regression, so a CI job can gate on it.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a frame-timing report, or compare two and flag regressions.",
        usage: "overscroll report <dir> [<new>] [--tolerance <pct>]",
        discussion: """
        With one directory, prints its summary.json as tables. With two, compares NEW against the first (BASE) metric by metric; a regression is p50/p95/p99 of interval, cpu or latency, the janky share, or the 1% low fps getting worse by more than --tolerance percent. A gated metric missing from either report fails the comparison too.

        Exit status: 0 no regression; 1 a regression or a gated metric missing; 74 standard output cannot be written; 65 a report that is corrupt or from an incompatible version; 66 a directory that is missing or not a report; 64 bad options.
        """
    )

    @Argument(help: ArgumentHelp("A report directory; when comparing, the BASE.", valueName: "dir"))
    var base: String

    @Argument(help: "A second report directory to compare against the first.")
    var new: String?

    // Text and `.unconditional`, as the settings' numbers: "-5" is a value to refuse in
    // words, not a missing one, and "abc" is named in the message.
    @Option(parsing: .unconditional, help: ArgumentHelp("How much worse (in percent) a metric may get before it counts as a regression (default: 10).", valueName: "pct"))
    var tolerance: String?

    @ParentCommand var program: Overscroll

    func validate() throws {
        let given = program.givenFlags()
        if let flag = (given.shared + given.windowOnly).first {
            throw ValidationError("report takes no settings; remove \(flag)")
        }
        _ = try tolerancePercent()
    }

    /// `--tolerance` as a number: 10 when not given.
    private func tolerancePercent() throws(ValidationError) -> Double {
        guard let tolerance else { return 10 }
        let allowed = "it must be a percentage of 0 or more, e.g. --tolerance 10"
        guard let n = Double(tolerance), n.isFinite else {
            throw ValidationError("--tolerance \(TextLines.cut(tolerance)) is not valid: \(allowed)")
        }
        guard n >= 0 else { throw ValidationError("--tolerance \(TextLines.cut(tolerance)) is out of range: \(allowed)") }
        return n
    }

    func run() throws {
        let baseSummary = load(base)
        guard let new else {
            output(ReportText.summary(baseSummary, directory: base))
            return
        }
        let newSummary = load(new)
        let comparison = ReportComparison(base: baseSummary, new: newSummary, tolerancePercent: (try? tolerancePercent()) ?? 10)
        output(ReportText.comparison(comparison, base: base, new: new))
        if comparison.fails { throw ExitCode(1) }
    }

    private func output(_ text: String) {
        do { try StandardOutput.write(text) } catch { fail(error) }
    }

    private func load(_ directory: String) -> ReportSummary {
        do { return try ReportSummary.load(directory: directory) } catch {
            fail(Failure(error.description, code: error.isMissing ? 66 : 65))
        }
    }
}
