import CSDL
import OverscrollKit

/// What the live loop reads: SDL's events and the console's devices, each turned into a
/// timed input for the frame (or a quit, the HUD toggled, the window redrawn).
extension LiveApp {
    /// What came since the last frame: SDL's events (pumped only when the display may
    /// have sent something) and the console's devices, into `inputs`. Returns false when
    /// the app should quit.
    func readInput(_ event: inout SDL_Event, frameStart: Double, running: Bool) -> Bool {
        var running = running
        // SDL reads the display only when it may have sent something, and at least
        // four times a second: pumping is also where SDL turns SIGTERM into SDL_QUIT
        // (a stop must take well under a second), and a pump that finds nothing still
        // costs system calls (docs/performance.md, "Figures behind the code's comments").
        // Events other threads pushed (a finished refresh) are in SDL's queue already.
        var pumpStamp: Double?
        if frameStart - lastPump >= 0.25 || platform.input != .sdlQueueWhenSent || native.mayHaveInput() {
            // SDL's stamp for what this pump reads: its millisecond or later (less one:
            // SDL's tick count and the clock's counter may differ by a part of one).
            pumpStamp = (clock.now() * 1000).rounded(.down) / 1000 - 0.001
            SDL_PumpEvents()
            lastPump = frameStart
        }
        while running && SDL_PeepEvents(&event, 1, SDL_GETEVENT, SDL_FIRSTEVENT.rawValue, SDL_LASTEVENT.rawValue) > 0 {
            running = handle(event)
        }
        // What the pump read has SDL's stamp of the pump, not times of its own (evdev on
        // KMSDRM): spread it over the time since the previous pump, or a slow frame
        // rate loses a flick's momentum (PumpedInputTimes).
        if let pumpStamp {
            PumpedInputTimes.spread(&inputs, pumpedAt: pumpStamp, previousPump: previousPumpStamp)
            previousPumpStamp = pumpStamp
        }
        // The console's devices, each event at the kernel's time (after the spread,
        // which is for SDL's pumped ones only).
        if running, let consoleInput { running = takeDevices(consoleInput) }
        return running
    }

    /// Waits at most `seconds` for input and leaves it for the next frame's pump: the
    /// devices' events stay in libinput; an event of SDL's the wait took goes back.
    func awaitInput(seconds: Double) {
        var event = SDL_Event()
        let ms = Int32((seconds * 1000).rounded(.up))
        if let consoleInput {
            if consoleInput.wait(&event, timeoutMs: ms), event.type != 0 { SDL_PushEvent(&event) }
        } else if platform.input == .sdlQueueWhenSent, SDL_HasEvents(SDL_FIRSTEVENT.rawValue, SDL_LASTEVENT.rawValue) == SDL_FALSE,
                  native.waitForInput(timeoutMs: ms) != nil {
            // X11: one poll on the server's socket. SDL's wait pumps before and after its
            // own poll, some 18 reads that find nothing a wait (docs/performance.md, the X11
            // CPU path); an event another thread pushes meanwhile waits at most `seconds`.
        } else {
            _ = SDL_WaitEventTimeout(nil, ms)
        }
    }

    /// Returns false when the app should quit.
    func handle(_ event: SDL_Event) -> Bool {
        // What the console's devices send is read through libinput: SDL's copy goes.
        if consoleInput != nil, ConsoleInput.readsAlso(event) { return true }
        // Real seconds for now; `run` turns them into model time once the frame's is known.
        let time = clock.stamp(of: event)
        // The screen changed size: the window follows on the loop's next turn.
        if screen.noticed(event) { return true }
        // The window's pixels were lost (uncovered without a compositor): show them again.
        if event.type == SDL_WINDOWEVENT.rawValue, event.window.event == UInt8(SDL_WINDOWEVENT_EXPOSED.rawValue) {
            session.painter.invalidate()
        }
        let output = session.translator.translate(event, windowSize: session.display.sizeInPoints,
                                                  pointsPerUnit: session.display.pointsPerWindowUnit)
        return take(output, at: time, deviceTime: nil, quit: event.type == SDL_QUIT.rawValue)
    }

    /// What the console's devices sent since the last frame; false when the app should quit.
    func takeDevices(_ input: ConsoleInput) -> Bool {
        // The kernel's times (CLOCK_MONOTONIC) on this loop's clock: the two read together.
        let offset = clock.now() - MonotonicClock.now()
        var running = true
        input.take(screen: session.display.sizeInPoints, pixelsPerPoint: session.display.pixelScale,
                   describe: { warn($0.line(mouse: session.model.admits(.wheel(dy: 1)), keyboard: session.model.admits(.key(.down, [])))) }) { output, kernel in
            if running { running = take(output, at: kernel + offset, deviceTime: kernel, quit: false) }
        }
        return running
    }

    /// One translated event at real time `time`; `quit`: SDL_QUIT (a signal, the window
    /// closed), which always quits. Returns false when the app should quit.
    func take(_ output: InputTranslator.Output, at time: Double, deviceTime: Double?, quit: Bool) -> Bool {
        switch output {
        case .quit:
            // SIGINT/SIGTERM and the window closing always quit; Esc only outside a kiosk,
            // where only the service manager stops the app.
            return options.kiosk && !quit
        case .toggleHUD:
            if !options.kiosk { session.hudVisible.toggle() }
        case .input(let input):
            if session.model.admits(input) {
                let read = MonotonicClock.now()
                if oldestArrival == nil { oldestArrival = read }
                // The device's own stamp where libinput gave one (the kernel's); else the read.
                let touched = deviceTime ?? read
                oldestTouch = min(oldestTouch ?? touched, touched)
            }
            inputs.append(TimedInput(time: time, event: input, deviceTime: deviceTime))
        case .windowChanged:
            inputs.append(session.windowChanged(at: time))
        case .ignored:
            break
        }
        return true
    }
}
