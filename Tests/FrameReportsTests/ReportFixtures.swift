import Foundation
@testable import FrameReports
import OverscrollKit

func sampleReportMetadata(mode: String = "replay", refreshPeriodMs: Double = 1000.0 / 60) -> ReportMetadata {
    ReportMetadata(programVersion: "0.1.0-test", videoDriver: "dummy", renderDriver: "software",
                   windowPoints: .init(width: 480, height: 800), windowPixels: .init(width: 960, height: 1600),
                   refreshPeriodMs: refreshPeriodMs, vsync: true, startTime: "2026-01-02T03:04:05Z",
                   mode: mode, fps: mode == "replay" ? 60 : nil, script: mode == "replay" ? "Assets/gestures/pull.txt" : nil)
}

/// A fresh, unique directory path under the system temporary folder (not created).
func reportScratchDirectory(_ name: String = #function) -> String {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    return NSTemporaryDirectory() + "overscroll-profiler-tests/" + safe + "-" + UUID().uuidString
}

func removeReportScratch(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

/// frames.csv as header + rows of cells.
func readFramesCSV(_ path: String) throws -> (header: [String], rows: [[String]]) {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    let header = lines.first.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
    let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    return (header, rows)
}


func makeModel(height: Double = 800, rows: Int = 100) -> OverscrollModel {
    let c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: height)
    return OverscrollModel(configuration: c, rows: (0..<rows).map { "Row \($0)" })
}
