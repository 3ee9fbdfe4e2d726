import CSDL

/// A kiosk's window covers the screen, and keeps covering it when the screen changes size
/// under it (a monitor swapped, `xrandr --fb`, a rotated output). Under X without a window
/// manager nobody else resizes it, and SDL keeps the screen size it saw at start, so the
/// server is asked (at most once a second); Wayland compositors resize the window
/// themselves, which arrives as an ordinary size change.
struct ScreenFollower {
    private let native: NativeDisplay
    private var lastCheck = -Double.infinity
    static let checkInterval = 1.0

    init(native: NativeDisplay) { self.native = native }

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
