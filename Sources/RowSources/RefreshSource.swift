import OverscrollKit
import Workers

/// The work behind a refresh. The view does not care what it is; it only waits for it to
/// end. `start` must return at once: long work belongs on another thread, which calls
/// `job.complete` when done. Completing twice, or after the timeout, changes nothing.
public protocol RefreshSource: Sendable {
    func start(_ job: RefreshJob)
    /// The app is quitting: stop any work still running. Most sources have none.
    func cancelAll()
}

extension RefreshSource {
    public func cancelAll() {}

    /// Starts the work a frame asked for (`FrameEffects.refreshRequest`), if it asked.
    public func start(_ effects: FrameEffects, inbox: RefreshInbox) {
        if let request = effects.refreshRequest { start(RefreshJob(request, inbox: inbox)) }
    }
}

/// One run of the refresh work, and the only way to report its end.
public struct RefreshJob: Sendable {
    public let generation: Int
    /// When the refresh started, on the model's clock.
    public let startTime: Double
    let inbox: RefreshInbox

    public init(generation: Int, startTime: Double, inbox: RefreshInbox) {
        self.generation = generation
        self.startTime = startTime
        self.inbox = inbox
    }

    /// The work `request` asked for, reported to `inbox`.
    public init(_ request: OverscrollModel.RefreshRequest, inbox: RefreshInbox) {
        self.init(generation: request.generation, startTime: request.startTime, inbox: inbox)
    }

    /// Report the result. `at` is the model time it happened, for work that is simulated
    /// on the model's clock (the demo's delay); real work leaves it nil and the completion
    /// takes effect at the first frame that sees it.
    public func complete(_ result: RefreshResult, at time: Double? = nil) {
        inbox.post(RefreshCompletion(generation: generation, result: result, time: time))
    }
}

/// Completions cross from worker threads to the frame loop here. The loop only ever
/// takes the lock briefly to look; it never waits on the work.
public final class RefreshInbox: Sendable {
    private let pending = Locked<[RefreshCompletion]>([])
    private let wake: @Sendable () -> Void

    /// `wake` is called after each post, so a loop sleeping on input can wake up.
    public init(wake: @escaping @Sendable () -> Void = {}) { self.wake = wake }

    func post(_ completion: RefreshCompletion) {
        pending.withLock { $0.append(completion) }
        wake()
    }

    /// Removes and returns the completions due by `time`, in the order they were posted
    /// (real work, with no time of its own, is always due), for the model's frame
    /// (`OverscrollModel.frame`).
    public func take(dueBy time: Double) -> [RefreshCompletion] {
        pending.withLock { list in
            guard !list.isEmpty else { return [] }
            let due = list.filter { ($0.time ?? -.infinity) <= time }
            list.removeAll { ($0.time ?? -.infinity) <= time }
            return due
        }
    }
}

/// The demo's refresh: waits `duration` on the model's clock, then yields a few new rows.
/// Completing on the model's clock keeps replays identical at every frame rate.
public struct DemoRefreshSource: RefreshSource {
    public var duration: Double
    public var rowsPerRefresh: Int

    public init(duration: Double = 1.5, rowsPerRefresh: Int = 3) {
        self.duration = duration
        self.rowsPerRefresh = rowsPerRefresh
    }

    public func start(_ job: RefreshJob) {
        let rows = (1...max(1, rowsPerRefresh)).map { "New item \(job.generation).\($0) — pulled fresh" }
        job.complete(.success(rows), at: job.startTime + duration)
    }
}
