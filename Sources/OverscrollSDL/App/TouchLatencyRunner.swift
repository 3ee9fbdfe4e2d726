import OverscrollKit
import RowSources

/// Touch to glass with no touchscreen and no screen (`overscroll-bench latency`): touches
/// injected at known kernel times through a fake input source, drawn on the console's CPU
/// path (`SharedMemoryPresenter`, the DRM path's presenter) over buffers in memory that a
/// fixed vblank page-flips (`VblankMemoryChain`), on the real clock. The loop is the live
/// loop's on the console (`LiveApp`): it sleeps on input when nothing moves and wakes when
/// the device has an event (here: at the event's kernel time, as a poll on the device
/// would); in motion it is paced by the present, which waits for the frame before's flip;
/// the `FramePacer`'s deadlines as live. Each frame that showed a touch comes back with its
/// phases, from the touch's kernel time to the vblank that showed it.
public final class TouchLatencyRunner {
    /// One input event as the device gives it: `at` seconds after the run's origin (its
    /// kernel time), in window points.
    public struct Touch: Sendable {
        public var at: Double
        public var event: InputEvent
        public init(at: Double, event: InputEvent) {
            self.at = at
            self.event = event
        }
    }

    public struct Options {
        /// In time order.
        public var touches: [Touch]
        public var vblank = FixedVblank(period: 1.0 / 60)
        public var width = 480
        public var height = 800
        public init(touches: [Touch]) { self.touches = touches }
    }

    /// A frame that showed a touch: where the time from the touch to the glass went.
    /// Times are CLOCK_MONOTONIC seconds.
    public struct Shown: Sendable {
        /// The oldest touch the frame handled, at its kernel time.
        public var touch: Double
        /// The frame's phases (`FrameTiming`: start, input done, …, present done).
        public var timing: FrameTiming
        /// The part of the present spent waiting for the frame before's flip.
        public var flipWait: Double
        /// The vblank the frame was scanned out at (the flip's, as the event tells it).
        public var scanout: Double
        /// The loop had slept on input (nothing moved) since it last showed a frame: the
        /// first frame after rest.
        public var afterRest: Bool

        /// Touch to the frame's start: the loop asleep until woken, or busy with the frame
        /// before (or sleeping to a pacer's start) while the touch waited in the device.
        public var inputWait: Double { timing.frameStart - touch }
        /// Frame start to the input taken (the pump, the device's events).
        public var pump: Double { timing.inputTime }
        public var model: Double { timing.updateTime }
        public var draw: Double { timing.renderTime }
        /// Drawn, held back for the pacer's deadline.
        public var held: Double { timing.presentStart - timing.renderDone }
        /// The present: the copy into a buffer and the commit, less `flipWait`.
        public var commit: Double { timing.presentTime - flipWait }
        /// Committed to the vblank that showed it.
        public var vblankWait: Double { scanout - timing.presentDone }
        public var total: Double { scanout - touch }
        /// The frame's own work, start to drawn (what `FramePacer` estimates).
        public var work: Double { timing.renderDone - timing.frameStart }
    }

    private let session: Session
    private let chain: VblankMemoryChain
    private let options: Options
    /// Frames with a touch waiting for their flip, oldest first.
    private var waiting: [Shown] = []
    private var waitingSequence: [Int] = []
    private var lastHeard = 0
    public private(set) var shown: [Shown] = []
    /// The time the touches' `at` counts from (CLOCK_MONOTONIC seconds): `lead` after
    /// the first frame was shown.
    public private(set) var origin = 0.0

    public init(settings: AppSettings, options: Options) throws(LaunchError) {
        let font = try FontCheck.verify(settings.fontPath)
        var display = Display.Options.headless(width: options.width, height: options.height)
        let chain = VblankMemoryChain(vblank: options.vblank)
        let (width, height) = (Int32(options.width), Int32(options.height))
        display.presenter = PresenterTable.inMemory(chain, width: width, height: height,
                                                    name: "buffers in memory flipped on a fixed vblank",
                                                    reason: "overscroll-bench latency: the console's DRM path, its flips on a fixed vblank")
        let shown: Display
        do { shown = try Display(display) } catch { throw .display(error) }
        do {
            session = try Session(display: shown, font: font, settings: settings, inbox: RefreshInbox(),
                                  refreshPeriod: options.vblank.period, report: nil, warn: { _ in })
        } catch {
            throw .display(error)
        }
        self.chain = chain
        self.options = options
        self.shown.reserveCapacity(options.touches.count)
    }

    /// The profiler's view of the run: its touch-to-scanout is the product's own figure.
    public var profiler: FrameProfiler { session.profiler }

    /// Shows the list, then plays the touches on the real clock from `lead` seconds after
    /// the first frame; returns when they are all played and nothing moves.
    public func run(lead: Double = 0.2) {
        let period = options.vblank.period
        var pacer = FramePacer(period: period)
        var presentAverage = 0.0
        var inputs: [TimedInput] = []
        inputs.reserveCapacity(64)
        var frame = 0
        var next = 0
        var lastPresent: Double?
        origin = MonotonicClock.now() + lead
        var rested = false
        var idled = false
        let touches = options.touches
        while true {
            var slept = idled
            idled = false
            if session.isSettled && frame > 0 {
                guard next < touches.count else { break }
                // As live: the last frame's flip first, then asleep until the device has
                // an event (a poll on its descriptor: woken at the event's time).
                if lastHeard < session.display.scanoutSequence { hear(waitingMs: Int32((period * 2000).rounded(.up))) }
                MonotonicClock.sleep(origin + touches[next].at - MonotonicClock.now())
                pacer.woke()
                slept = true
                rested = true
            }
            let frameStart = MonotonicClock.now()
            let cpuStart = ProcessCPUClock.now()
            // The pump: what the device holds by now, each event at its kernel time.
            let pumped = MonotonicClock.now()
            inputs.removeAll(keepingCapacity: true)
            var oldestTouch: Double?
            while next < touches.count, origin + touches[next].at <= pumped {
                let kernel = origin + touches[next].at
                let input = TimedInput(time: kernel - origin, event: touches[next].event, deviceTime: kernel)
                if session.model.admits(input.event) { oldestTouch = min(oldestTouch ?? kernel, kernel) }
                inputs.append(input)
                next += 1
            }
            _ = chain.takeFlipWait()
            var timing = session.frame(&inputs, to: pumped - origin, startedAt: frameStart, cpuStart: cpuStart,
                                       presentNotBefore: pacer.presentNotBefore)
            let flipWait = chain.takeFlipWait()
            let presentDone = timing.presentDone
            if session.lastPainted == .nothing && frame > 0 {
                // As live: nothing new shown, no frame counted; waiting on input, woken at
                // once, a period at most.
                let due = next < touches.count ? origin + touches[next].at : .infinity
                MonotonicClock.sleep(min(due, MonotonicClock.now() + period) - MonotonicClock.now())
                idled = true
                continue
            }
            presentAverage += (presentDone - timing.presentStart - presentAverage) * 0.1
            let vsyncPaces = presentAverage > period * 0.25
            pacer.presented(at: presentDone, work: timing.renderDone - frameStart, vsyncBlocks: vsyncPaces)
            timing.frame = frame
            timing.interval = slept || lastPresent == nil ? period : presentDone - lastPresent!
            timing.touchTime = oldestTouch
            lastPresent = presentDone
            session.record(timing)
            if let oldestTouch, timing.scanoutSequence > 0 {
                waiting.append(Shown(touch: oldestTouch, timing: timing, flipWait: flipWait, scanout: 0, afterRest: rested))
                waitingSequence.append(timing.scanoutSequence)
            }
            if timing.scanoutSequence > 0 { rested = false }
            hear(waitingMs: 0)
            if frame == 0 { origin = MonotonicClock.now() + lead }
            frame += 1
            if !vsyncPaces, let start = pacer.nextStart { MonotonicClock.sleep(start - MonotonicClock.now()) }
        }
        hear(waitingMs: Int32((period * 2000).rounded(.up)))
    }

    /// Every flip the display heard since the last look, oldest first, as the live loop
    /// takes them (`LiveApp.hearPresentation`): each completes its frame's touch (in the
    /// profiler too). Frames numbered before a flip that still wait were not heard (none
    /// here: the fixed vblank misses no event).
    private func hear(waitingMs: Int32) {
        var wait = waitingMs
        while let p = session.display.lastShown(waitingMs: wait), p.sequence > lastHeard {
            lastHeard = p.sequence
            wait = 0
            _ = session.runRecord.presented(p)
            while let first = waitingSequence.first, first <= p.sequence {
                var s = waiting.removeFirst()
                waitingSequence.removeFirst()
                if first == p.sequence {
                    s.scanout = p.time
                    shown.append(s)
                }
            }
        }
    }
}
