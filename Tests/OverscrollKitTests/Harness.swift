@testable import OverscrollKit
import RowSources

/// One frame of a model run, as the trace would record it.
struct FrameSample: Equatable {
    var frame: Int
    var time: Double
    var offset: Double
    var velocity: Double
    var state: String
    var progress: Double
    var rows: Int
    var events: FrameEvents
}

/// A source that never completes: the watchdog must end the refresh.
struct HangingSource: RefreshSource {
    func start(_ job: RefreshJob) {}
}

/// A source that fails at once.
struct FailingSource: RefreshSource {
    var message = "Server unreachable"
    func start(_ job: RefreshJob) { job.complete(.failure(message), at: job.startTime + 0.5) }
}

/// A source that completes twice (and once more, late).
struct DoubleSource: RefreshSource {
    func start(_ job: RefreshJob) {
        job.complete(.success(["first"]), at: job.startTime + 0.5)
        job.complete(.success(["second", "extra"]), at: job.startTime + 0.6)
        job.complete(.failure("late"), at: job.startTime + 0.7)
    }
}

func makeModel(height: Double = 800, rows: Int = 100, threshold: Double? = nil,
               timeout: Double = 10) -> OverscrollModel {
    var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: height, threshold: threshold)
    c.refreshTimeout = timeout
    return OverscrollModel(configuration: c, rows: (0..<rows).map { "Row \($0)" })
}

/// Runs a script through the model and its refresh work, the way `overscroll replay`
/// does without drawing, and records every frame.
func replay(_ text: String, fps: Int, model: OverscrollModel = makeModel(),
            source: any RefreshSource = DemoRefreshSource()) throws -> [FrameSample] {
    let script = try GestureScript(parsing: text)
    var driver = ReplayDriver(script: script, fps: fps)
    var model = model
    let inbox = RefreshInbox()
    var samples: [FrameSample] = []
    driver.play(&model, completions: inbox.take) { played, model in
        source.start(played.effects, inbox: inbox)
        samples.append(FrameSample(frame: played.frame, time: played.time, offset: model.scroll.offset,
                                   velocity: model.scroll.velocity, state: model.refresh.state.name,
                                   progress: model.progress, rows: model.rows.count, events: played.effects.events))
        return true
    }
    return samples
}

/// The shipped gesture scripts, read from the package's Assets folder.
func shippedScripts() throws -> [(name: String, text: String)] {
    let dir = packageRoot + "/Assets/gestures"
    let names = try FileManagerShim.list(dir).filter { $0.hasSuffix(".txt") }.sorted()
    return try names.map { ($0, try FileManagerShim.read(dir + "/" + $0)) }
}

let packageRoot: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path
}()

import Foundation
enum FileManagerShim {
    static func list(_ dir: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir) }
    static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
}
