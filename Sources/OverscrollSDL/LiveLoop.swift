import CSDL
import FrameReports
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// The interactive program: real clock, real input, paced to the display.
public final class LiveApp {
    public struct Options {
        /// Kiosk: no key quits or toggles anything; it stops on SIGTERM/SIGINT.
        public var kiosk = false
        public var environment: [String: String] = [:]
        /// Write a frame-timing report into this directory.
        public var reportDirectory: String?
        public var programVersion = "unknown"
        public init() {}
    }

    private let session: Session
    private let options: Options
    private var clock = LiveClock()
    private let notifier: SystemdNotifier
    private var inputs: [TimedInput] = []
    private var presentAverage = 0.0
    /// Monotonic time the oldest input handled this frame was drained.
    private var oldestArrival: Double?

    public init(settings: AppSettings, display displayOptions: Display.Options, options: Options,
                warn: @escaping (String) -> Void) throws(LaunchError) {
        let report = try ReportOpening.open(in: options.reportDirectory, programVersion: options.programVersion, mode: "live")
        let display: Display
        do { display = try Display(displayOptions) } catch {
            report?.discard()
            throw .display(error)
        }
        display.describe(in: report, refreshPeriod: display.refreshPeriod, vsync: display.vsync)
        // A refresh that completes on another thread wakes a loop that sleeps on input.
        let inbox = RefreshInbox(wake: {
            var event = SDL_Event()
            event.type = SDL_USEREVENT.rawValue
            SDL_PushEvent(&event)
        })
        do {
            session = try Session(display: display, settings: settings, inbox: inbox, refreshPeriod: display.refreshPeriod,
                                  report: report, warn: warn)
        } catch {
            report?.discard()
            throw .display(error)
        }
        self.options = options
        notifier = SystemdNotifier(environment: options.environment)
        inputs.reserveCapacity(256)
    }

    /// Runs until Esc, the window closing, or SIGINT/SIGTERM (SDL turns those into
    /// SDL_QUIT); then writes the report. Returns the report's error, if any.
    public func run() -> String? {
        let period = session.display.refreshPeriod
        var nextDeadline = clock.now()
        var running = true
        var event = SDL_Event()
        var frame = 0
        var lastPresent: Double?
        while running {
            inputs.removeAll(keepingCapacity: true)
            oldestArrival = nil
            var slept = false
            if session.model.isSettled && frame > 0 {
                // Nothing moves and the still screen is drawn: sleep until input arrives.
                // The timeout only keeps the watchdog fed; it draws nothing.
                let timeout = Int32(min(1000, (notifier.watchdogInterval ?? 1) * 1000))
                guard SDL_WaitEventTimeout(&event, timeout) != 0 else {
                    notifier.frame(now: MonotonicClock.now())
                    continue
                }
                running = handle(event)
                clock.resume()
                nextDeadline = clock.now()
                slept = true
            }
            let frameStart = MonotonicClock.now()
            let cpuStart = ThreadCPUClock.now()
            while running && SDL_PollEvent(&event) != 0 {
                running = handle(event)
            }
            // Only now is the frame's model time known (a stall is cut out of it): place the
            // events, stamped on the real clock, inside this frame's span of model time.
            let frameTime = clock.frame()
            for i in inputs.indices { inputs[i].time = clock.modelTime(ofStamp: inputs[i].time) }
            let inputDone = MonotonicClock.now()
            session.update(inputs, to: frameTime)
            let updateDone = MonotonicClock.now()
            session.render()
            let renderDone = MonotonicClock.now()
            SDL_RenderPresent(session.display.renderer)
            let presentDone = MonotonicClock.now()
            presentAverage += (presentDone - renderDone - presentAverage) * 0.1
            // After sleeping on input no frame was due, so that gap is not jank.
            let interval = slept || lastPresent == nil ? period : presentDone - lastPresent!
            lastPresent = presentDone
            session.record(FrameTiming(
                frame: frame, frameStart: frameStart, inputDone: inputDone, updateDone: updateDone,
                renderDone: renderDone, presentStart: renderDone, presentDone: presentDone,
                interval: interval, latency: oldestArrival.map { presentDone - $0 }, state: UIState(model: session.model),
                threadCPUTime: ThreadCPUClock.now() - cpuStart))
            if frame == 0 { notifier.ready(status: "showing \(session.model.rows.count) rows") }
            notifier.frame(now: presentDone)
            frame += 1
            nextDeadline = pace(after: nextDeadline, period: period)
        }
        notifier.stopping()
        // A refresh command still running would outlive us otherwise.
        session.settings.refreshSource.cancelAll()
        do { try session.finishReport() } catch { return error.description }
        return nil
    }

    /// Sleep until the next frame is due unless vsync already blocked in present. Never spins.
    private func pace(after deadline: Double, period: Double) -> Double {
        var next = deadline + period
        let now = clock.now()
        if presentAverage > period * 0.25 { return now }      // vsync paces us
        if next < now - period { next = now }                 // fell behind: don't try to catch up
        let remaining = next - now
        if remaining > 0.0002 { MonotonicClock.sleep(remaining) }
        return next
    }

    /// Returns false when the app should quit.
    private func handle(_ event: SDL_Event) -> Bool {
        // Real seconds for now; `run` turns them into model time once the frame's is known.
        let time = clock.stamp(of: event)
        switch session.translator.translate(event, windowSize: session.display.sizeInPoints) {
        case .quit:
            // SIGINT/SIGTERM and the window closing always quit; Esc only outside a kiosk,
            // where only the service manager stops the app.
            return options.kiosk && event.type != SDL_QUIT.rawValue
        case .toggleHUD:
            if !options.kiosk { session.hudVisible.toggle() }
        case .input(let input):
            if oldestArrival == nil { oldestArrival = MonotonicClock.now() }
            inputs.append(session.logical(TimedInput(time: time, event: input)))
        case .windowChanged:
            inputs.append(session.logical(session.windowChanged(at: time)))
        case .ignored:
            break
        }
        return true
    }
}

/// Model time for the live program: seconds on SDL's performance counter, in the same
/// epoch as SDL's millisecond event timestamps, so each event is placed at its own time
/// rather than the frame's. A stall (suspend, debugger, a starved kiosk) is cut out of
/// model time, as in "Fix Your Timestep": a frame never advances the model by more than
/// `maxStep`, so motion resumes where it was instead of jumping to its end.
struct LiveClock {
    private let frequency = Double(SDL_GetPerformanceFrequency())
    private let counterAtStart = SDL_GetPerformanceCounter()
    private let ticksAtStart = Double(SDL_GetTicks64()) / 1000
    /// Real time cut out of model time so far.
    private var skipped = 0.0
    private var lastFrame: Double?
    /// Model time of the previous and the current frame: events land between them.
    private var previousFrameTime = -Double.infinity
    private var frameTime = -Double.infinity
    static let maxStep = 0.25

    /// Real seconds in SDL's epoch.
    func now() -> Double {
        ticksAtStart + Double(SDL_GetPerformanceCounter() &- counterAtStart) / frequency
    }

    /// Model time for a new frame, with any stall since the last frame cut out.
    mutating func frame() -> Double {
        let real = now()
        if let last = lastFrame, real - last > Self.maxStep { skipped += real - last - Self.maxStep }
        lastFrame = real
        previousFrameTime = frameTime
        frameTime = real - skipped
        return frameTime
    }

    /// After sleeping on input while nothing moved, the gap is not a stall.
    mutating func resume() { lastFrame = nil }

    /// The event's own time on the real clock, from SDL's millisecond timestamp. That
    /// stamp is 32 bits and wraps after 49.7 days (a kiosk gets there): unwrap it against
    /// the 64-bit tick count.
    func stamp(of event: SDL_Event) -> Double {
        let ticks = SDL_GetTicks64()
        let age = UInt32(truncatingIfNeeded: ticks) &- event.common.timestamp
        return min(Double(ticks &- UInt64(age)) / 1000, now())
    }

    /// A real-clock stamp as model time, kept within the current frame's span so a stall
    /// cut out of model time cannot push an event past the frame that handles it.
    func modelTime(ofStamp stamp: Double) -> Double {
        min(max(stamp - skipped, previousFrameTime), frameTime)
    }
}
