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

    init(_ played: PlayedFrame, _ model: OverscrollModel) {
        frame = played.frame
        time = played.time
        offset = model.scroll.offset
        velocity = model.scroll.velocity
        state = model.refresh.state.name
        progress = model.progress
        rows = model.rows.count
        events = played.effects.events
    }
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
    try play(text, fps: fps, model: model, source: source, sample: FrameSample.init).samples
}

/// Runs a script through the model and its refresh work (`ReplayDriver.play`), keeping
/// what `sample` makes of every frame, and the model as the run left it.
func play<Sample>(_ text: String, fps: Int, model: OverscrollModel, source: any RefreshSource,
                  sample: (PlayedFrame, OverscrollModel) -> Sample) throws -> (samples: [Sample], model: OverscrollModel) {
    var driver = ReplayDriver(script: try GestureScript(parsing: text), fps: fps)
    var model = model
    var samples: [Sample] = []
    driver.play(&model, source: source) { played, model in
        samples.append(sample(played, model))
        return true
    }
    return (samples, model)
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
