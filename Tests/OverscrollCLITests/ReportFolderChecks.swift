import Foundation

/// What the suites that end runs on purpose (signals, unwritable output, blocking files)
/// ask of the report folder a run left behind.
protocol ReportFolderChecks {}

extension ReportFolderChecks {
    /// All four report files are there: the run ended by writing its report whole.
    func isWhole(_ report: String) -> Bool {
        ["frames.csv", "summary.json", "trace.json", "frames.svg"].allSatisfy {
            FileManager.default.fileExists(atPath: report + "/" + $0)
        }
    }

    /// The frames frames.csv holds (its rows less the header; 0 with no file).
    func frames(_ report: String) -> Int {
        ((try? String(contentsOfFile: report + "/frames.csv", encoding: .utf8))?.split(separator: "\n").count ?? 1) - 1
    }
}
