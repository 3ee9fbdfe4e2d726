/// The whole app's state, without SDL: the scroll view, the refresh state machine, the
/// rows, and the transient feedback. Input events go in, `advance(to:)` moves time on,
/// and the drawing code reads it back. Nothing here calls out: what the model wants done
/// (a sound, refresh work) leaves it as data (`events`, `refreshRequest`), and the work's
/// result comes back as an input (`.refreshCompleted`).
public struct OverscrollModel: Sendable {
    public struct Configuration: Sendable {
        public var viewportWidth: Double
        public var viewportHeight: Double
        /// nil: resolution-aware default, recomputed when the window resizes.
        public var threshold: Double?
        public var refreshTimeout: Double = 10
        public var physics: any ScrollPhysics = PhysicsProfile.ios
        public var layout = ListLayout()
        /// How long the threshold flash lasts.
        public var flashDuration: Double = 0.12
        /// How long a refresh error stays on screen.
        public var bannerDuration: Double = 2.5
        /// What a successful refresh does with its rows.
        public var refreshMerge = RefreshMerge.insertAtTop
        /// The list never holds more rows than this (a kiosk refreshing for days must not
        /// grow without bound); the oldest rows at the bottom go first.
        public var maxRows = 5000
        /// Take the mouse and its wheel as well as touch (a touch-only kiosk does not).
        public var acceptsMouse = true

        public init(viewportWidth: Double, viewportHeight: Double, threshold: Double? = nil) {
            self.viewportWidth = viewportWidth
            self.viewportHeight = viewportHeight
            self.threshold = threshold
        }
    }

    /// New rows go on top (a feed), or replace the list (a command's output).
    public enum RefreshMerge: Sendable {
        case insertAtTop
        case replace
    }

    /// Refresh work the model asks the app to start: its result comes back as a
    /// `.refreshCompleted` input carrying the same generation.
    public struct RefreshRequest: Sendable, Equatable {
        public var generation: Int
        /// When the refresh started, on the model's clock.
        public var startTime: Double
    }

    public struct Banner: Sendable, Equatable {
        public var message: String
        public var since: Double
    }

    public private(set) var scroll: ScrollView
    public private(set) var refresh: RefreshController
    public private(set) var rows: [ListRow]
    public private(set) var viewportWidth: Double
    /// What happened since `beginFrame()`.
    public private(set) var events: FrameEvents = []
    /// Refresh work to start, asked for since `beginFrame()`.
    public private(set) var refreshRequest: RefreshRequest?
    public private(set) var lastFeedback: Double = -.infinity
    public private(set) var banner: Banner?
    /// The arc as it was when the refresh started, and when, so the spinner continues
    /// from it without a jump.
    public private(set) var spinnerOrigin: (arc: ArcShape, time: Double)?
    public let configuration: Configuration
    private var nextRowID: Int

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
    }

    public var now: Double { scroll.now }

    /// Progress of the pull 0…1, as the trace reports it.
    public var progress: Double { refresh.progress(pull: scroll.pull) }

    /// Whether nothing would change on screen if time moved on with no input.
    public var isSettled: Bool {
        scroll.isAtRest && refresh.state == .idle
            && now - lastFeedback >= configuration.flashDuration
            && banner == nil
    }

    public mutating func beginFrame() {
        events = []
        refreshRequest = nil
    }

    // MARK: Input

    /// Whether the model takes this input at all: the one place input is admitted.
    public func admits(_ event: InputEvent) -> Bool {
        configuration.acceptsMouse || !event.isMouse
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
        switch input.event {
        case let .pointerDown(id, _, y):
            let wasDragging = scroll.isDragging
            scroll.pointerDown(id, y: y, at: t)
            if !wasDragging && scroll.isDragging { apply(refresh.handle(.dragBegan(pull: scroll.pull)), at: t) }
        case let .pointerMove(id, _, y):
            scroll.pointerMove(id, y: y, at: t)
            if scroll.isDragging { apply(refresh.handle(.drag(pull: scroll.pull)), at: t) }
        case let .pointerUp(id):
            let wasDragging = scroll.isDragging
            scroll.pointerUp(id, at: t)
            if wasDragging && !scroll.isDragging { endGesture(at: t) }
        case .pointerCancel:
            let wasDragging = scroll.isDragging
            scroll.cancelPointers(at: t)
            if wasDragging {
                // A cancelled gesture was not meant: disarm before it ends.
                apply(refresh.handle(.drag(pull: 0)), at: t)
                endGesture(at: t)
            }
        case let .wheel(dy):
            scroll.scroll(by: dy, at: t)
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
        // At most one deadline can fall inside one advance: a refresh starts only on an input.
        if let deadline = refresh.deadline, deadline < time || (rule == .atOrBefore && deadline == time) {
            scroll.advance(to: deadline)
            apply(refresh.handle(.tick(now: deadline, collapsed: false)), at: deadline)
        }
        scroll.advance(to: time)
        let collapsed = scroll.isAtRest
        apply(refresh.handle(.tick(now: now, collapsed: collapsed)), at: now)
        if let b = banner, now - b.since >= configuration.bannerDuration { banner = nil }
    }

    // MARK: Effects

    private mutating func apply(_ effect: RefreshController.Effect?, at t: Double) {
        guard let effect else { return }
        switch effect {
        case .feedback:
            events.insert(.feedback)
            lastFeedback = t
        case .startRefresh(let generation):
            events.insert(.refreshStart)
            scroll.setTopInset(refresh.restingInset, at: t)
            refreshRequest = RefreshRequest(generation: generation, startTime: t)
        case .insertRows(let texts):
            events.insert(.refreshEnd)
            insert(texts, at: t)
            scroll.setTopInset(0, at: t)
        case .showError(let message):
            events.insert(.refreshError)
            banner = Banner(message: message, since: t)
            scroll.setTopInset(0, at: t)
        }
    }

    private mutating func insert(_ texts: [String], at t: Double) {
        var fresh: [ListRow] = []
        fresh.reserveCapacity(texts.count)
        for text in texts.prefix(configuration.maxRows) {
            fresh.append(ListRow(id: nextRowID, text: text))
            nextRowID += 1
        }
        let layout = configuration.layout
        switch configuration.refreshMerge {
        case .replace:
            // The list is new: it is revealed from the top.
            rows = fresh
            scroll.setContentHeight(layout.contentHeight(rows: rows.count), at: t)
            // Not under a finger: the content would be yanked away mid-drag.
            if scroll.offset > 0 && !scroll.isDragging { scroll.shift(by: -scroll.offset, at: t) }
        case .insertAtTop:
            guard !fresh.isEmpty else { return }
            rows.insert(contentsOf: fresh, at: 0)
            if rows.count > configuration.maxRows { rows.removeLast(rows.count - configuration.maxRows) }
            scroll.setContentHeight(layout.contentHeight(rows: rows.count), at: t)
            // At the top the new rows are revealed; scrolled into the list, what the user is
            // reading stays where it is.
            if scroll.offset > 0 { scroll.shift(by: layout.contentHeight(rows: fresh.count), at: t) }
        }
    }
}
