import FrameReports
import OverscrollKit
import Workers

/// What a run leaves behind — the profiler and the report — behind one lock, so the run
/// can be finished from another thread while the frame loop is stuck (a frozen X server,
/// a stop that the loop never reaches): `RunWatch` finishes it through this and nothing
/// else. The frame loop holds the lock only to record a frame (no I/O, no allocation
/// once warm); a finish holds it to the end, and once finished nothing more is recorded.
final class RunRecord: Sendable {
    /// Unchecked because `ReportWriter` is a class: it is reached only through `state`, a
    /// lock, in every method below, so no two threads ever touch it at once.
    private struct State: @unchecked Sendable {
        /// Made when the first frame is recorded, after it is on screen: its histograms
        /// are some 3 MB of counts set to zero, which the first frame does not need.
        var profiler: FrameProfiler?
        let report: ReportWriter?
        var outcome: Result<Void, ReportWriterError>?
    }

    private let state: Locked<State>
    let refreshPeriod: Double
    /// The report's directory, for the line that says where it was written.
    let reportDirectory: String?

    init(report: ReportWriter?, refreshPeriod: Double) {
        self.refreshPeriod = refreshPeriod
        reportDirectory = report?.directory
        state = Locked(State(profiler: nil, report: report, outcome: nil))
    }

    /// One finished frame: the profiler always, the report when there is one. Does
    /// nothing once the run is finished.
    func record(_ timing: FrameTiming, model: OverscrollModel, events: FrameEvents) {
        state.withLock { s in
            guard s.outcome == nil else { return }
            if s.profiler == nil { s.profiler = FrameProfiler(refreshPeriod: refreshPeriod) }
            let verdict = s.profiler!.record(timing)
            s.report?.append(timing, verdict, model: model, events: events)
        }
    }

    /// A frame recorded earlier reached the screen (`Presentation`): its touch-to-scanout
    /// completes in the profiler and the report. Returns it (seconds) when a frame with a
    /// touch waited for it. Allocates nothing.
    func presented(_ shown: Presentation) -> Double? {
        state.withLock { s in
            guard s.outcome == nil else { return nil }
            let completed = s.profiler?.presented(sequence: shown.sequence, at: shown.time)
            s.report?.presented(sequence: shown.sequence, at: shown.time, flags: shown.flags,
                               discardedBefore: shown.discardedBefore)
            return completed?.touchToScanout
        }
    }

    /// A still stretch with no frame after it (the end of a live run): wall time the
    /// run's duration counts. Nothing once the run is finished.
    func recordIdle(_ seconds: Double) {
        state.withLock { s in
            guard s.outcome == nil else { return }
            s.profiler?.recordIdle(seconds)
        }
    }

    /// The profiler as recorded so far (an empty one before the first frame).
    var profiler: FrameProfiler {
        state.withLock { $0.profiler } ?? FrameProfiler(refreshPeriod: refreshPeriod)
    }

    /// The run never started: the report's frames.csv taken back.
    func discard() {
        state.withLock { $0.report?.discard() }
    }

    /// Writes the report's closing files once; later calls rethrow the first outcome.
    func finish() throws(ReportWriterError) {
        let outcome = state.withLock { s -> Result<Void, ReportWriterError> in
            if let outcome = s.outcome { return outcome }
            let profiler = s.profiler ?? FrameProfiler(refreshPeriod: refreshPeriod)
            let result = Result<Void, ReportWriterError> { () throws(ReportWriterError) in
                try s.report?.finish(profiler: profiler)
            }
            s.outcome = result
            return result
        }
        try outcome.get()
    }
}
