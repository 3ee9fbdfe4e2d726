/// What the model does on its own, with nobody touching it: the timed refresh
/// (`refreshEvery`) and the idle reset (`idleReset`), and settings changed while it runs
/// (a kiosk's reload). Everything here happens on the model's clock.
extension OverscrollModel {
    /// The next time the model will change by itself with no input (a timed refresh or an
    /// idle reset due), so a loop sleeping on input knows when to wake; nil if never.
    public var nextTimer: Double? {
        let refreshDue = refresh.state == .idle ? refreshTimer?.due : nil
        switch (refreshDue, idleReset?.due) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }

    /// Whether an idle reset is still to come (a replay waits for it before it ends).
    public var isWaitingForIdleReset: Bool { idleReset?.due != nil }

    /// Fires the timers due by `time`, each at its own time (or as soon after as it may:
    /// never under a finger, a timed refresh never on a running one).
    mutating func runTimers(upTo time: Double) {
        refreshTimer?.handle(.tick(now: time))
        if let due = idleReset?.due, due <= time, !scroll.isDragging {
            let at = max(due, now)
            scroll.advance(to: at)
            resetToTop(at: at)
        }
        if let due = refreshTimer?.due, due <= time, refresh.state == .idle, !scroll.isDragging {
            let at = max(due, now)
            scroll.advance(to: at)
            startTimedRefresh(at: at)
        }
    }

    /// Back to how a passer-by should find the kiosk: at the top, no banner, nothing selected.
    private mutating func resetToTop(at t: Double) {
        idleReset?.handle(.reset)
        dismissBanner(at: t)
        selectedRow = -1
        scroll.glide(to: scroll.minOffset, at: t)
    }

    /// A timed refresh takes the pull's path through the controller. At the top the list
    /// glides open so the spinner shows, as after a pull; scrolled into the list it stays
    /// put and only the rows change.
    private mutating func startTimedRefresh(at t: Double) {
        let atTop = scroll.offset <= 0
        apply(refresh.handle(.timer(at: t)), at: t)
        guard refresh.isRefreshing else { return }
        spinnerOrigin = (ArcShape.pulling(pull: refresh.configuration.threshold, configuration: refresh.configuration, armed: true), t)
        if atTop { scroll.glide(to: scroll.minOffset, at: t) }
    }

    /// New settings while running (a kiosk's reload): the refresh threshold and timeout,
    /// the timers. The viewport, the rows and the motion in progress are kept; a timer
    /// whose interval changed starts counting again from now.
    public mutating func reconfigure(_ new: Configuration) {
        var c = new
        c.viewportWidth = viewportWidth
        c.viewportHeight = scroll.viewportHeight
        // Built as `init` builds it, so a reloaded setting means what it means at start.
        refresh.configuration = RefreshController.Configuration(
            threshold: c.threshold ?? RefreshController.Configuration.defaultThreshold(viewportHeight: c.viewportHeight),
            timeout: c.refreshTimeout)
        if c.refreshEvery != configuration.refreshEvery {
            var timer = c.refreshEvery.map(RefreshTimer.init(interval:))
            timer?.handle(refresh.isRefreshing ? .refreshStarted : .tick(now: now))
            refreshTimer = timer
        }
        if c.idleReset != configuration.idleReset {
            var reset = c.idleReset.map(IdleReset.init(delay:))
            reset?.handle(.touched(at: now))
            idleReset = reset
        }
        configuration = c
    }

    /// The wall clock moved: model time 0 is `clock.start` from now on. `step` seconds of
    /// the move are the system clock being stepped (NTP setting a clock that booted behind,
    /// an operator's `date -s`): the last update's time, told on the old clock, moves with
    /// it; the rest (stalls cut out of model time) moves nothing already told. Model time
    /// itself never jumps.
    public mutating func wallClockChanged(to clock: WallClock, step: Double) {
        configuration.wallClock = clock
        status.set(clock: clock, step: step)
    }

    /// New content while running (a kiosk's reload): the list is replaced and shown from
    /// the top, as a refresh command's output replaces it.
    public mutating func replaceContent(_ texts: [String], at t: Double) {
        advance(to: t)
        insert(texts, merge: .replace, at: t)
    }
}

extension InputEvent {
    /// Whether a person did this (a touch, the mouse or wheel, a key): what keeps a kiosk
    /// from counting as idle.
    public var isTouch: Bool {
        switch self {
        case .pointerDown, .pointerMove, .pointerUp, .pointerCancel, .wheel, .key: true
        case .resize, .refreshCompleted: false
        }
    }
}
