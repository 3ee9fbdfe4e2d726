/// The model's settings, and the small values it hands out: what a refresh does with its
/// rows, the refresh work it asks for, the banner a failed refresh leaves.
extension OverscrollModel {
    public struct Configuration: Sendable {
        public var viewportWidth: Double
        public var viewportHeight: Double
        /// nil: resolution-aware default, recomputed when the window resizes.
        public var threshold: Double?
        public var refreshTimeout: Double = 10
        public var physics: any ScrollPhysics = PhysicsProfile.ios
        public var layout = ListLayout()
        /// Whether crossing the threshold flashes the screen (`--no-flash`).
        public var flashes = true
        /// How long the threshold flash lasts.
        public var flashDuration: Double = 0.12
        /// At most one flash starts in any window this long, whatever the finger does: a
        /// finger wiggling across the threshold would otherwise strobe the screen (WCAG 2.3.1
        /// allows no more than three flashes a second; one is well inside it). The tick still
        /// sounds on every crossing.
        public var flashInterval: Double = 1
        /// How long a refresh error stays on screen: its twelve words read at a glance's
        /// pace (about 4 words a second) with time to spare (it was 2.5 s, gone mid-sentence).
        public var bannerDuration: Double = 6
        /// What a successful refresh does with its rows.
        public var refreshMerge = RefreshMerge.insertAtTop
        /// The list never holds more rows than this (a kiosk refreshing for days must not
        /// grow without bound); the oldest rows at the bottom go first.
        public var maxRows = 5000
        /// Take the mouse and its wheel as well as touch (a touch-only kiosk does not).
        public var acceptsMouse = true
        /// Take keys (a kiosk does not unless asked: a stray keyboard must not scroll it).
        public var acceptsKeys = true
        /// Show the status line under the refresh arc ("Release to refresh").
        public var showsStatusText = true
        /// The words the list shows.
        public var strings = ListStrings.english
        /// What time of day model time 0 is, for "Updated HH:MM".
        public var wallClock = WallClock.replay
        /// Touch slop and press/tap timing.
        public var press = PressRecognizer.Configuration()
        /// Refresh on a timer this long after the last refresh ended (nil: only on a pull).
        public var refreshEvery: Double?
        /// After this long with no touch, glide back to the top and clear the banner.
        public var idleReset: Double?

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
}
