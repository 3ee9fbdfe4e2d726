import CSDL

/// A kiosk's window covers the screen, and keeps covering it when the screen changes size
/// under it (a monitor swapped, `xrandr --fb`, a rotated output). Under X without a window
/// manager nobody else resizes it, and SDL keeps the screen size it saw at start, so the
/// server tells of the root window's new size as an event, which wakes the loop and has
/// the size looked at on its next turn (SDL drops the event: a loop that only asked once
/// a second, asleep on input up to that second, followed 1.1-1.25 s late). The size is
/// still asked once a second, in case the event never comes. Wayland compositors resize
/// the window themselves, which arrives as an ordinary size change.
struct ScreenFollower {
    private let native: NativeDisplay
    private var lastCheck = -Double.infinity
    /// The root window, whose ConfigureNotify says the screen changed; 0 when not watched.
    private let root: UInt
    static let checkInterval = 1.0

    init(native: NativeDisplay, watch: Bool) {
        self.init(native: native, root: watch ? native.watchScreenSize() : 0)
    }

    init(native: NativeDisplay, root: UInt) {
        self.native = native
        self.root = root
    }

    /// Whether `event` says the screen changed size; if so the next `follow` looks at once.
    mutating func noticed(_ event: SDL_Event) -> Bool {
        guard root != 0, withUnsafePointer(to: event, { CSDL_X11RootConfigured($0, root) }) != 0 else { return false }
        lastCheck = -.infinity
        return true
    }

    /// Resizes the window to the screen if they differ; true when it did. The loop then
    /// redraws for a moment: the server applies the new size (and exposes the window)
    /// after this returns.
    mutating func follow(_ display: Display, now: Double) -> Bool {
        guard now - lastCheck >= Self.checkInterval else { return false }
        lastCheck = now
        guard let screen = native.screenSize() else { return false }
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(display.window, &w, &h)
        guard Int(w) != screen.width || Int(h) != screen.height else { return false }
        // SDL ignores a new size for a fullscreen window and would put back the size it
        // remembers: cover the screen as a plain borderless window instead.
        SDL_SetWindowFullscreen(display.window, 0)
        SDL_SetWindowPosition(display.window, 0, 0)
        SDL_SetWindowSize(display.window, Int32(screen.width), Int32(screen.height))
        return true
    }
}
