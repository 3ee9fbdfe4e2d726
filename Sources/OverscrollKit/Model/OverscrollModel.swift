/// The whole app's state, without SDL: the scroll view, the refresh state machine, the
/// rows, and the transient feedback. Input events go in, `advance(to:)` moves time on,
/// and the drawing code reads it back. Nothing here calls out: what the model wants done
/// (a sound, refresh work) leaves it as data (`events`, `refreshRequest`), and the work's
/// result comes back as an input (`.refreshCompleted`).
public struct OverscrollModel: Sendable {
    public internal(set) var scroll: ScrollView
    public internal(set) var refresh: RefreshController
    public private(set) var rows: [ListRow]
    public private(set) var viewportWidth: Double
    /// What happened since `beginFrame()`.
    public private(set) var events: FrameEvents = []
    /// Refresh work to start, asked for since `beginFrame()`.
    public private(set) var refreshRequest: RefreshRequest?
    public private(set) var lastFeedback: Double = -.infinity
    /// When the screen last flashed (at most once per `flashInterval`; never without `flashes`).
    public private(set) var lastFlash: Double = -.infinity
    public internal(set) var banner: Banner?
    /// Points the banner takes above the first row (its box and a margin above and below):
    /// while it shows, the list is held open by this much, so it covers no row. The
    /// drawing side measures its lines and says (`setBannerRoom`); until then, two lines.
    public private(set) var bannerRoom = BannerRoom.twoLines
    /// The arc as it was when the refresh started, and when, so the spinner continues
    /// from it without a jump.
    public internal(set) var spinnerOrigin: (arc: ArcShape, time: Double)?
    public internal(set) var configuration: Configuration
    /// `refreshEvery` and `idleReset` as running timers (nil when not configured).
    public internal(set) var refreshTimer: RefreshTimer?
    public internal(set) var idleReset: IdleReset?
    private var nextRowID: Int
    /// The zebra shade of the first row (0 or 1): rows inserted above keep every row below
    /// its shade, so a refresh recolours nothing on screen (and nothing is composed again).
    public private(set) var firstStripe = 0
    /// The scroll indicator's fade.
    public private(set) var scrollBar = ScrollBarFade()
    /// Press and tap on rows.
    public private(set) var press: PressRecognizer
    /// The row a tap selected (index into `rows`), or -1.
    public internal(set) var selectedRow = -1
    /// The status line's words and the rows' freshness.
    public internal(set) var status: RefreshStatus
    /// How the last refresh ended (set on the frame it ends: `events` has
    /// `.refreshEnd` or `.refreshError`), for the log.
    public private(set) var lastRefresh: RefreshReport?
    /// When the running refresh started, for its report.
    private var refreshStartedAt = 0.0

    public init(configuration: Configuration, rows: [String]) {
        self.configuration = configuration
        self.viewportWidth = configuration.viewportWidth
        self.rows = rows.enumerated().map { ListRow(id: $0.offset, text: $0.element) }
        self.nextRowID = rows.count
        let layout = configuration.layout
        self.scroll = ScrollView(viewportHeight: configuration.viewportHeight,
                                 contentHeight: layout.contentHeight(rows: rows.count),
                                 physics: configuration.physics)
        self.refresh = RefreshController(configuration: .init(
            threshold: configuration.threshold
                ?? RefreshController.Configuration.defaultThreshold(viewportHeight: configuration.viewportHeight),
            timeout: configuration.refreshTimeout))
        self.press = PressRecognizer(configuration: configuration.press)
        self.status = RefreshStatus(strings: configuration.strings, clock: configuration.wallClock)
        self.refreshTimer = configuration.refreshEvery.map(RefreshTimer.init(interval:))
        self.idleReset = configuration.idleReset.map(IdleReset.init(delay:))
    }

    public var now: Double { scroll.now }

    /// Progress of the pull 0…1, as the trace reports it.
    public var progress: Double { refresh.progress(pull: scroll.pull) }

    /// Whether nothing would change on screen if time moved on with no input (the live
    /// loop sleeps then): the motion has settled and the scroll indicator has faded.
    public var isSettled: Bool {
        isMotionSettled && scrollBar.isHidden(at: now)
    }

    /// Whether the content, the refresh and its feedback are at rest. A replay ends on
    /// this, not on `isSettled`: the indicator's fade is cosmetic, and a script's trace
    /// keeps its length whatever is drawn on top (add a `wait` to watch a fade).
    public var isMotionSettled: Bool {
        scroll.isAtRest && refresh.state == .idle
            && now - lastFeedback >= configuration.flashDuration
            && banner == nil
    }

    /// The scroll indicator's opacity now, 0 when the content fits (there is no bar).
    public var scrollBarOpacity: Double {
        scroll.contentHeight > scroll.viewportHeight ? scrollBar.opacity(at: now) : 0
    }

    /// The row a press highlights now, or -1.
    public var highlightedRow: Int { press.highlightedRow(at: now) }

    public mutating func beginFrame() {
        events = []
        refreshRequest = nil
    }

    // MARK: Input

    /// Whether the model takes this input at all: the one place input is admitted.
    public func admits(_ event: InputEvent) -> Bool {
        (configuration.acceptsMouse || !event.isMouse) && (configuration.acceptsKeys || !event.isKey)
    }

    public mutating func handle(_ input: TimedInput) {
        // Refused input never moves time on: the model sees exactly what it would without it.
        guard admits(input.event) else { return }
        if case .refreshCompleted = input.event {
            // A result and the timeout at the same instant: the result wins.
            advance(to: input.time, timeoutAt: .strictlyBefore)
        } else {
            advance(to: input.time)
        }
        // A broken timestamp (NaN) happens "now", never at an undefined time.
        let t = input.time.isFinite ? max(input.time, now) : now
        if input.event.isTouch { idleReset?.handle(.touched(at: t)) }
        // The banner holds the list open at the top; a touch, the wheel or a key that moves
        // the list puts it away first (a pull is what it asks for), so it never ends up over
        // rows scrolled under it.
        bannerGivesWay(to: input.event, at: t)
        switch input.event {
        case let .pointerDown(id, x, y):
            let wasDragging = scroll.isDragging
            // Asked before the touch stops it: a touch on a moving list only catches it.
            let moving = !scroll.isAtRest && !wasDragging
            _ = press.handle(.down(id, x: x, y: y, row: row(atY: y), contentMoving: moving, at: t))
            scroll.pointerDown(id, y: y, at: t)
            if !wasDragging && scroll.isDragging { apply(refresh.handle(.dragBegan(pull: scroll.pull)), at: t) }
        case let .pointerMove(id, x, y):
            _ = press.handle(.move(id, x: x, y: y))
            scroll.pointerMove(id, y: y, at: t)
            if scroll.isDragging { apply(refresh.handle(.drag(pull: scroll.pull)), at: t) }
        case let .pointerUp(id):
            if let row = press.handle(.up(id, at: t)) {
                selectedRow = row
                events.insert(.tap)
            }
            let wasDragging = scroll.isDragging
            scroll.pointerUp(id, at: t)
            if wasDragging && !scroll.isDragging { endGesture(at: t) }
        case .pointerCancel:
            press.reset()
            let wasDragging = scroll.isDragging
            scroll.cancelPointers(at: t)
            if wasDragging {
                // A cancelled gesture was not meant: disarm before it ends.
                apply(refresh.handle(.drag(pull: 0)), at: t)
                endGesture(at: t)
            }
        case let .wheel(dy):
            scroll.scroll(by: dy, at: t)
        case let .key(key, modifiers):
            handleKey(key, modifiers, at: t)
        case let .resize(width, height):
            viewportWidth = max(1, width)
            scroll.setViewportHeight(height, at: t)
            if configuration.threshold == nil {
                refresh.configuration.threshold = RefreshController.Configuration.defaultThreshold(viewportHeight: height)
            }
        case let .refreshCompleted(generation, result):
            // Only the running refresh's own result counts: a late one, after its timeout or
            // a duplicate, belongs to a refresh that already ended.
            guard generation == refresh.runningGeneration else { return }
            apply(refresh.handle(.completed(result, at: t)), at: t)
        }
    }

    /// How much room the banner takes above the first row, in points, as drawn (its lines
    /// measured by the rasterizer): the list, held open for it, follows.
    public mutating func setBannerRoom(_ points: Double, at t: Double) {
        guard points.isFinite, points >= 0, points != bannerRoom else { return }
        bannerRoom = points
        if banner != nil && refresh.state == .idle { holdOpenForBanner(at: max(t, now)) }
    }

    /// The list open by the banner's room: a wider range alone would leave the content
    /// where it is, so at the top it glides to the new top.
    private mutating func holdOpenForBanner(at t: Double) {
        scroll.setTopInset(bannerRoom, at: t)
        if scroll.offset <= 0 && !scroll.isDragging { scroll.glide(to: scroll.minOffset, at: t) }
    }

    /// Input that may move the list puts the banner away first. Its own function, not
    /// inlined: written inside `handle`, Swift 6.3's release optimizer crashes on `handle`
    /// (CopyPropagation: "Found ownership error").
    @inline(never)
    private mutating func bannerGivesWay(to event: InputEvent, at t: Double) {
        guard banner != nil, event.putsBannerAway else { return }
        dismissBanner(at: t)
    }

    /// The banner goes, and the room it was held open for (unless a refresh holds it).
    mutating func dismissBanner(at t: Double) {
        banner = nil
        scroll.setTopInset(refresh.restingInset, at: t)
    }

    /// The row under window point `y`, or -1 (the gap above the list, or below its end).
    private func row(atY y: Double) -> Int {
        let contentY = y + scroll.offset
        guard y >= 0, y < scroll.viewportHeight, contentY >= 0 else { return -1 }
        let index = Int(contentY / configuration.layout.rowHeight)
        return index < rows.count ? index : -1
    }

    /// Home, End and F5's glide come to rest within this, whatever the distance (iOS's
    /// scroll-to-top takes about 0.3–0.5 s; the spring alone took 1.3 s from row 100): a
    /// little under half a second, so that the frame that shows it at rest, up to a
    /// frame later at 30 fps, is within 0.5 s of the key.
    public static let longJumpDuration = 0.45

    private mutating func handleKey(_ key: Key, _ modifiers: KeyModifiers, at t: Double) {
        guard let command = KeyCommand.command(for: key, modifiers: modifiers, rowHeight: configuration.layout.rowHeight,
                                               viewportHeight: scroll.viewportHeight) else { return }
        // A finger on the list owns it: a key never moves the content from under it.
        guard !scroll.isDragging else { return }
        if command == .refresh {
            // As if pulled past the threshold and released: the spinner starts from the
            // armed arc, and the list glides open to show it.
            let c = refresh.configuration
            let arc = ArcShape.pulling(pull: c.threshold, configuration: c, armed: true)
            apply(refresh.handle(.requested(at: t)), at: t)
            guard refresh.isRefreshing else { return }
            spinnerOrigin = (arc, t)
            scroll.glide(to: scroll.minOffset, at: t, within: Self.longJumpDuration)
            events.insert(.key)
            return
        }
        let r = scroll.range
        let base = scroll.glideTarget ?? min(max(scroll.offset, r.lowerBound), r.upperBound)
        guard let target = command.target(from: base, range: r) else { return }
        // To an end, from however far: at most `longJumpDuration`. A row or a page keeps
        // the spring's own pace.
        let long = command == .toTop || command == .toBottom
        scroll.glide(to: target, at: t, within: long ? Self.longJumpDuration : nil)
        events.insert(.key)
    }

    private mutating func endGesture(at t: Double) {
        let arc = ArcShape.pulling(pull: scroll.pull, configuration: refresh.configuration,
                                   armed: refresh.state == .armed)
        apply(refresh.handle(.release(at: t)), at: t)
        if refresh.isRefreshing { spinnerOrigin = (arc, t) }
    }

    // MARK: Time

    /// When a refresh's deadline falls exactly on the time being advanced to, does it fire?
    enum DeadlineRule { case atOrBefore, strictlyBefore }

    /// Move the model to `time`: a refresh deadline due by then takes effect at its own
    /// time, then the motion is evaluated at `time`. (Refresh results arrive as inputs,
    /// at their own times, before this.)
    public mutating func advance(to time: Double) { advance(to: time, timeoutAt: .atOrBefore) }

    private mutating func advance(to time: Double, timeoutAt rule: DeadlineRule) {
        guard time.isFinite else { return }
        // At most one deadline can fall inside one advance: a refresh starts only on an
        // input or on the refresh timer, which is looked at after the deadline.
        if let deadline = refresh.deadline, deadline < time || (rule == .atOrBefore && deadline == time) {
            scroll.advance(to: deadline)
            apply(refresh.handle(.tick(now: deadline, collapsed: false)), at: deadline, watchdog: true)
        }
        // The banner goes at its own time, and the list it held open collapses from then,
        // however long a step (a long step must not leave the collapse to its end).
        if let b = banner, time - b.since >= configuration.bannerDuration {
            let due = max(scroll.now, b.since + configuration.bannerDuration)
            scroll.advance(to: due)
            dismissBanner(at: due)
        }
        runTimers(upTo: time)
        scroll.advance(to: time)
        let collapsed = scroll.isAtRest
        apply(refresh.handle(.tick(now: now, collapsed: collapsed)), at: now, watchdog: true)
        scrollBar.observe(offset: scroll.offset, held: scroll.isDragging, at: now)
    }

    // MARK: Effects

    /// `watchdog`: the effect came from time passing, so a failure is the timeout.
    mutating func apply(_ effect: RefreshController.Effect?, at t: Double, watchdog: Bool = false) {
        guard let effect else { return }
        switch effect {
        case .feedback:
            events.insert(.feedback)
            lastFeedback = t
            if configuration.flashes && t - lastFlash >= configuration.flashInterval {
                events.insert(.flash)
                lastFlash = t
            }
        case .startRefresh(let generation):
            events.insert(.refreshStart)
            scroll.setTopInset(refresh.restingInset, at: t)
            refreshRequest = RefreshRequest(generation: generation, startTime: t)
            refreshStartedAt = t
            refreshTimer?.handle(.refreshStarted)
        case .insertRows(let texts):
            events.insert(.refreshEnd)
            insert(texts, at: t)
            scroll.setTopInset(0, at: t)
            status.refreshed(at: t)
            lastRefresh = RefreshReport(ending: .success(rows: texts.count), duration: t - refreshStartedAt, rows: rows.count)
            refreshTimer?.handle(.refreshEnded(at: t))
        case .showError(let message):
            events.insert(.refreshError)
            // The screen says what it means for the person in front of it; `message` (the
            // reason) stays in `lastRefresh`, which the log prints.
            banner = Banner(message: status.failedLine, since: t)
            // The spinner's room becomes the banner's: the list stays open under it.
            holdOpenForBanner(at: t)
            lastRefresh = RefreshReport(ending: watchdog ? .timedOut(after: refresh.configuration.timeout) : .failure(message),
                                        duration: t - refreshStartedAt, rows: rows.count)
            refreshTimer?.handle(.refreshEnded(at: t))
        }
    }

    mutating func insert(_ texts: [String], merge: RefreshMerge? = nil, at t: Double) {
        // The rows moved under a finger that was pressing one: that press means nothing now.
        _ = press.handle(.cancel)
        defer { scrollBar.rebase(offset: scroll.offset) }
        var fresh: [ListRow] = []
        fresh.reserveCapacity(texts.count)
        for text in texts.prefix(configuration.maxRows) {
            fresh.append(ListRow(id: nextRowID, text: text))
            nextRowID += 1
        }
        let layout = configuration.layout
        switch merge ?? configuration.refreshMerge {
        case .replace:
            // The list is new: it is revealed from the top, and nothing in it is selected.
            rows = fresh
            firstStripe = 0
            selectedRow = -1
            scroll.setContentHeight(layout.contentHeight(rows: rows.count), at: t)
            // Not under a finger: the content would be yanked away mid-drag.
            if scroll.offset > 0 && !scroll.isDragging { scroll.shift(by: -scroll.offset, at: t) }
        case .insertAtTop:
            guard !fresh.isEmpty else { return }
            rows.insert(contentsOf: fresh, at: 0)
            firstStripe = (firstStripe + fresh.count) % 2
            if rows.count > configuration.maxRows { rows.removeLast(rows.count - configuration.maxRows) }
            // The selection stays on its row, wherever that row now is.
            if selectedRow >= 0 { selectedRow = selectedRow + fresh.count < rows.count ? selectedRow + fresh.count : -1 }
            scroll.setContentHeight(layout.contentHeight(rows: rows.count), at: t)
            // At the top the new rows are revealed; scrolled into the list, what the user is
            // reading stays where it is.
            if scroll.offset > 0 { scroll.shift(by: layout.contentHeight(rows: fresh.count), at: t) }
        }
    }
}

extension InputEvent {
    /// A touch, the wheel or a key: input that may move the list, which the banner (held
    /// open at the top) gives way to.
    var putsBannerAway: Bool {
        switch self {
        case .pointerDown, .wheel, .key: true
        default: false
        }
    }
}
