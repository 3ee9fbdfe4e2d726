import OverscrollKit
import FoundationEssentials
import Glibc

/// Writes one run's report into a directory of its own:
///
/// - `frames.csv`, streamed while the run goes on (see `FrameStreamSink`), so a killed run
///   keeps everything up to its last second;
/// - at `finish`: `trace.json` (the last `traceCapacity` frames, Chrome trace events),
///   `frames.svg` (the whole run, downsampled) and `summary.json`, each written atomically.
///   summary.json comes last: its presence means the report is complete.
///
/// Threading: `append`, `flushNow` and `finish` are for the frame loop's thread. The only
/// other thread is the sink's flusher, which touches nothing here. `append` allocates
/// nothing once the buffers are warm and never touches the disk.
public final class ReportWriter {
    /// Files that mark a directory as holding a run: one is never mixed with another.
    public static let runFiles = [ReportSummary.fileName, FrameRowFormat.fileName,
                                  TraceEventWriter.fileName, FrameChartSVG.fileName]

    public let directory: String
    /// Settable until `finish`: a run opens its report before its display (so a bad
    /// directory fails first), then fills in the drivers and sizes.
    public var metadata: ReportMetadata
    /// The log's count of lines it could not write, read as the summary is written.
    public var logLinesDropped: @Sendable () -> Int = { 0 }
    private let sink: FrameStreamSink
    private var traceColumns = CSVRowBuffer(capacity: 512)
    private var timingColumns = CSVRowBuffer(capacity: 256)
    private var trace: FixedRing<TraceRecord>
    private var timeline: TimelineDownsampler
    private var origin: Double?
    public private(set) var framesAppended = 0
    private var outcome: Result<Void, ReportWriterError>?
    /// The wall clock, and the monotonic time the run started: summary.json's start time
    /// is told at the end on the clock as it is then (a step since is followed).
    private let wall: WallTime
    private let monotonicStart = MonotonicClock.now()
    /// Rows waiting for their frame's presentation (`ScanoutHold`).
    private var hold = ScanoutHold()

    /// Creates `directory` (and its parents) and frames.csv, and starts streaming.
    ///
    /// - Throws: `ReportWriterError` at once if the directory cannot be created or written,
    ///   or if it already holds a run.
    /// - Parameters:
    ///   - traceCapacity: frames trace.json keeps (the last ones); 36 000 is 10 min at 60 Hz.
    ///   - timelineBuckets: resolution of frames.svg.
    ///   - flushInterval: seconds between writes of frames.csv.
    public init(directory: String, metadata: ReportMetadata, traceCapacity: Int = 36_000,
                timelineBuckets: Int = 512, flushInterval: Double = 0.25, wall: WallTime = .system) throws(ReportWriterError) {
        self.directory = directory
        self.wall = wall
        self.metadata = metadata
        try Self.checkLength(directory)
        let fm = FileManager.default
        var isDirectory = false
        if fm.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory else {
                throw ReportWriterError("cannot write the report to \(ReportWriterError.shown(directory)): it is a file; pass an empty or new directory")
            }
            if let existing = Self.runFiles.first(where: { fm.fileExists(atPath: Self.path(directory, $0)) }) {
                throw ReportWriterError("\(ReportWriterError.shown(directory)) already holds a report (\(existing)); pass an empty or new directory")
            }
            // New or empty, as documented: a run's files never mix with anything else.
            if let other = (try? fm.contentsOfDirectory(atPath: directory))?.sorted().first {
                throw ReportWriterError("\(ReportWriterError.shown(directory)) is not empty (it holds '\(other)'); pass an empty or new directory")
            }
        } else {
            if let code = FileDescriptorIO.makeDirectories(directory) {
                throw ReportWriterError.cannotCreate(directory, code)
            }
        }
        sink = try FrameStreamSink(path: Self.path(directory, FrameRowFormat.fileName),
                                   header: FrameRowFormat.header, interval: flushInterval)
        trace = FixedRing(capacity: max(1, traceCapacity), filler: .empty)
        timeline = TimelineDownsampler(capacity: timelineBuckets)
    }

    /// The longest path a report writes: its summary's temporary file.
    public static func longestPath(in directory: String) -> String {
        path(directory, (runFiles.max { $0.utf8.count < $1.utf8.count } ?? "") + ".tmp")
    }

    /// Refuses, before the run, a directory whose files' paths would be past the system's
    /// limit (PATH_MAX with its NUL): the run would play to its end and then fail to write
    /// summary.json (issue 52).
    static func checkLength(_ directory: String) throws(ReportWriterError) {
        let longest = longestPath(in: directory)
        let limit = Int(PATH_MAX) - 1
        guard longest.utf8.count > limit else { return }
        throw ReportWriterError("cannot write the report: its longest file would be a path of \(longest.utf8.count) bytes, past the system's limit of \(limit) (PATH_MAX); pass a shorter directory than \(ReportWriterError.shown(directory))")
    }

    /// The run never started (its display could not open): take back the frames.csv this
    /// writer created, so the directory is not left looking like it holds a run.
    public func discard() {
        guard framesAppended == 0, outcome == nil else { return }
        sink.close()
        unlink(Self.path(directory, FrameRowFormat.fileName))
        outcome = .failure(ReportWriterError("discarded"))
    }

    deinit {
        // A writer dropped without finish (a crash path) still leaves its rows on disk,
        // those waiting for a presentation too (not known).
        if outcome == nil { releaseHeld(all: true) }
        sink.close()
    }

    /// Hot path, once per frame after the profiler's `record`: queues the frames.csv row
    /// and keeps what trace.json and frames.svg need.
    public func append(_ timing: FrameTiming, _ verdict: FrameVerdict, model: OverscrollModel, events: FrameEvents) {
        guard outcome == nil else { return }
        traceColumns.clear()
        TraceFormat.appendRow(&traceColumns, frame: timing.frame, model: model, events: events)
        // TraceFormat ends its row; the timing columns continue it.
        // (Indexing, not `.last`: unspecialised generic code in debug builds allocates.)
        let traceBytes = traceColumns.bytes
        let n = traceBytes.count
        let head = n > 0 && traceBytes[n - 1] == UInt8(ascii: "\n") ? traceBytes[0..<(n - 1)] : traceBytes[0..<n]
        if origin == nil { origin = timing.frameStart }
        framesAppended += 1
        let waits = timing.touchTime != nil && timing.scanoutSequence > 0
        guard waits || hold.count > 0 else {
            emit(head, timing, verdict, modelNow: model.now)
            return
        }
        if hold.isFull { hold.releaseOldest { emit($0.head[...], $0.timing, $0.verdict, modelNow: $0.modelNow) } }
        hold.add(head: head, timing: timing, verdict: verdict, modelNow: model.now)
        releaseHeld()
    }

    /// The presenter heard that its trip `sequence` reached the screen at `time`
    /// (CLOCK_MONOTONIC seconds): the frame it showed gets its touch-to-scanout, and the
    /// rows that waited for it are queued for frames.csv. Allocates nothing.
    /// `flags`: the compositor's word on it (Wayland), counted in summary.json's
    /// presentation_feedback with the commits it discarded before it.
    public func presented(sequence: Int, at time: Double, flags: PresentationFlags? = nil, discardedBefore: Int = 0) {
        guard outcome == nil else { return }
        if let flags {
            if metadata.presentationFeedback == nil { metadata.presentationFeedback = PresentationCounts() }
            metadata.presentationFeedback?.add(flags, discardedBefore: discardedBefore)
        }
        hold.presented(sequence: sequence, at: time)
        releaseHeld()
    }

    private func releaseHeld(all: Bool = false) {
        hold.release(all: all) { emit($0.head[...], $0.timing, $0.verdict, modelNow: $0.modelNow) }
    }

    /// One finished row: frames.csv, trace.json's ring, frames.svg's timeline.
    private func emit(_ head: ArraySlice<UInt8>, _ timing: FrameTiming, _ verdict: FrameVerdict, modelNow: Double) {
        timingColumns.clear()
        FrameRowFormat.appendTimingColumns(&timingColumns, timing, verdict)
        sink.append(head, timingColumns.bytes)
        trace.append(TraceRecord(timing: timing, verdict: verdict))
        timeline.add(time: modelNow, interval: timing.interval, cpu: timing.cpuTime, janky: verdict.janky, state: timing.state,
                     phases: SIMD4(timing.inputTime, timing.updateTime, timing.renderTime, timing.presentTime))
    }

    /// Writes the queued rows of frames.csv now and syncs them, e.g. when a quit signal
    /// arrives. Blocks on the disk: not for every frame. Not async-signal-safe: call it
    /// from the loop after the handler has set a flag.
    public func flushNow() {
        sink.flush(forceSync: true)
    }

    /// Completes the report. Idempotent: later calls (a signal-initiated quit racing the
    /// normal one) do nothing, or rethrow the first call's error.
    public func finish(profiler: FrameProfiler) throws(ReportWriterError) {
        if let outcome { return try outcome.get() }
        let result = Result<Void, ReportWriterError> { () throws(ReportWriterError) in try complete(profiler) }
        outcome = result
        try result.get()
    }

    /// Writes trace.json and frames.svg, then summary.json last, and throws the first
    /// failure. summary.json is what marks a report complete (`overscroll report` reads
    /// it): it is written only when frames.csv and the other files were, so a full disk
    /// never leaves a report that looks whole but lacks rows or files.
    private func complete(_ profiler: FrameProfiler) throws(ReportWriterError) {
        metadata.startTime = ReportMetadata.timestamp(wall.start(monotonicStart: monotonicStart))
        // Rows still waiting go out now: their presentation is not known.
        releaseHeld(all: true)
        var firstError = sink.close()
        func attempt(_ step: () throws(ReportWriterError) -> Void) {
            do { try step() } catch { if firstError == nil { firstError = error } }
        }
        attempt { () throws(ReportWriterError) in
            var file = try AtomicFile(path: Self.path(directory, TraceEventWriter.fileName))
            try TraceEventWriter.write(trace, origin: origin ?? 0, metadata: metadata,
                                       framesTotal: framesAppended, to: &file)
            try file.commit()
        }
        attempt { () throws(ReportWriterError) in
            let overall = profiler.overall, interval = overall.intervalPercentiles
            let numbers = FrameChartSVG.Numbers(frames: overall.frames, p50: interval?.p50, p99: interval?.p99,
                                                janky: overall.jankyFrames)
            let svg = FrameChartSVG.render(timeline, refreshPeriod: profiler.refreshPeriod, title: chartTitle(profiler),
                                           subtitle: chartSubtitle(profiler), numbers: numbers,
                                           fixedIntervals: metadata.fps != nil && Self.intervalsFixed(interval))
            try AtomicFile.write(Array(svg.utf8), to: Self.path(directory, FrameChartSVG.fileName))
        }
        if let firstError { throw firstError }
        attempt { () throws(ReportWriterError) in
            let summary = ReportSummary(metadata: metadata, profiler: profiler,
                                        traceFramesKept: trace.count, csvRowsDropped: sink.droppedRows,
                                        logLinesDropped: logLinesDropped())
            let json: Data
            do { json = try summary.jsonData() } catch {
                throw ReportWriterError("cannot encode summary.json: \(error)")
            }
            try AtomicFile.write(Array(json), to: Self.path(directory, ReportSummary.fileName))
        }
        if let firstError { throw firstError }
    }

    /// Every interval the same (to within a microsecond): with a replay's frame rate, its
    /// virtual clock, where a chart of intervals is a flat line and the phases vary.
    static func intervalsFixed(_ interval: MetricPercentiles?) -> Bool {
        guard let interval, interval.count > 1 else { return false }
        return interval.max - interval.min < 1e-3
    }

    /// What ran: program, mode, script and frame rate.
    private func chartTitle(_ profiler: FrameProfiler) -> String {
        var title = "overscroll \(metadata.programVersion), \(metadata.mode)"
        if let script = metadata.script { title += " of \(script)" }
        if let fps = metadata.fps { title += " at \(fps) fps" }
        return title
    }

    /// On what: window size, drivers, budget and frames.
    private func chartSubtitle(_ profiler: FrameProfiler) -> String {
        let points = metadata.windowPoints, pixels = metadata.windowPixels
        var line = "window \(points.width)x\(points.height) pt"
        if pixels != points { line += " (\(pixels.width)x\(pixels.height) px)" }
        line += ", video \(metadata.videoDriver), renderer \(metadata.renderDriver), \(vsyncMeasured(profiler))"
        line += ", \(FixedDecimal.format(1 / profiler.refreshPeriod, decimals: 1)) Hz budget"
        line += ", \(profiler.overall.frames) frames"
        return line
    }

    /// Whether the frames kept the display's pace, from what they did rather than what was
    /// asked: the median interval against the refresh period.
    private func vsyncMeasured(_ profiler: FrameProfiler) -> String {
        let asked = "vsync \(metadata.vsync ? "asked" : "not asked")"
        guard let p50 = profiler.overall.intervalPercentiles?.p50 else { return asked }
        let periods = p50 / (profiler.refreshPeriod * 1000)
        let paced = abs(periods - periods.rounded()) < 0.05 && periods.rounded() >= 1
        return "\(asked), measured: median interval \(FixedDecimal.format(p50, decimals: 1)) ms"
            + (paced ? " = \(Int(periods.rounded())) refresh period\(periods.rounded() == 1 ? "" : "s")" : ", not on the refresh period")
    }

    // MARK: Introspection (tests, the HUD)

    /// Frames trace.json will hold (at most `traceCapacity`).
    public var traceFramesKept: Int { trace.count }
    public var traceCapacity: Int { trace.capacity }
    /// frames.svg's buckets in use, and how many it can hold.
    public var timelineBucketCount: Int { timeline.count }
    public var timelineCapacity: Int { timeline.capacity }
    /// Seconds each of frames.svg's buckets covers.
    public var timelineBucketSeconds: Double { timeline.bucketSeconds }
    /// Rows frames.csv lost to a disk that could not keep up.
    public var droppedRows: Int { sink.droppedRows }

    static func path(_ directory: String, _ name: String) -> String {
        directory.isEmpty || directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
