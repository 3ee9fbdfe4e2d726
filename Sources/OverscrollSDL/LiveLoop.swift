import CSDL
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// The interactive program: real clock, real input, paced to the display.
public final class LiveApp {
    private let session: Session
    private let clock = LiveClock()
    private var inputs: [TimedInput] = []
    private var presentAverage = 0.0

    public init(settings: AppSettings, display options: Display.Options, warn: @escaping (String) -> Void) throws(SDLError) {
        let display = try Display(options)
        // A refresh that completes on another thread wakes a loop that sleeps on input.
        let inbox = RefreshInbox(wake: {
            var event = SDL_Event()
            event.type = SDL_USEREVENT.rawValue
            SDL_PushEvent(&event)
        })
        session = try Session(display: display, settings: settings, inbox: inbox, warn: warn)
        inputs.reserveCapacity(256)
    }

    public var displayDescription: String {
        "video \(session.display.videoDriver), renderer \(session.display.renderDriver), vsync \(session.display.vsync ? "on" : "off")"
    }

    /// Runs until Esc, the window closing, or SIGINT/SIGTERM (SDL turns those into SDL_QUIT).
    public func run() {
        let period = session.display.refreshPeriod
        var nextDeadline = clock.now()
        var running = true
        var event = SDL_Event()
        while running {
            inputs.removeAll(keepingCapacity: true)
            var waited = false
            if session.model.isSettled {
                // Nothing moves: sleep until input arrives instead of redrawing a still
                // screen. The timeout keeps periodic work (timeouts, watchdogs) alive.
                if SDL_WaitEventTimeout(&event, 1000) != 0 {
                    waited = true
                    running = handle(event)
                }
                nextDeadline = clock.now()
            }
            while running && SDL_PollEvent(&event) != 0 {
                running = handle(event)
            }
            _ = waited
            let now = clock.now()
            session.update(inputs, to: now)
            session.render()
            let beforePresent = clock.now()
            SDL_RenderPresent(session.display.renderer)
            let presentTime = clock.now() - beforePresent
            presentAverage += (presentTime - presentAverage) * 0.1
            nextDeadline = pace(after: nextDeadline, period: period)
        }
    }

    /// Sleep until the next frame is due unless vsync already blocked in present. Never spins.
    private func pace(after deadline: Double, period: Double) -> Double {
        var next = deadline + period
        let now = clock.now()
        if presentAverage > period * 0.25 { return now }      // vsync paces us
        if next < now - period { next = now }                 // fell behind: don't try to catch up
        let remaining = next - now
        if remaining > 0.0002 {
            var request = timespec(tv_sec: Int(remaining), tv_nsec: Int((remaining - Double(Int(remaining))) * 1e9))
            nanosleep(&request, nil)
        }
        return next
    }

    /// Returns false when the app should quit.
    private func handle(_ event: SDL_Event) -> Bool {
        let time = clock.eventTime(event)
        switch session.translator.translate(event, windowSize: session.display.sizeInPoints) {
        case .quit: return false
        case .input(let input): inputs.append(TimedInput(time: time, event: input))
        case .windowChanged: inputs.append(session.windowChanged(at: time))
        case .toggleHUD, .ignored: break
        }
        return true
    }
}

/// Model time for the live program: seconds on SDL's performance counter, in the same
/// epoch as SDL's millisecond event timestamps, so each event can be placed at its own
/// time rather than the frame's.
struct LiveClock {
    private let frequency = Double(SDL_GetPerformanceFrequency())
    private let counterAtStart = SDL_GetPerformanceCounter()
    private let ticksAtStart = Double(SDL_GetTicks64()) / 1000

    func now() -> Double {
        ticksAtStart + Double(SDL_GetPerformanceCounter() &- counterAtStart) / frequency
    }

    /// The event's own time (SDL's ms timestamp), never later than now.
    func eventTime(_ event: SDL_Event) -> Double {
        let stamp = Double(event.common.timestamp) / 1000
        return min(stamp, now())
    }
}
