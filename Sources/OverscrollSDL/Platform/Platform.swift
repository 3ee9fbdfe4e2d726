/// One platform the program runs on under SDL, as SDL's own `VideoBootStrap` is one video
/// driver: everything the program would otherwise learn by comparing SDL's driver name,
/// declared once, in one row of `Platforms.rows`. `Display`, `LiveApp`, `RunWatch`,
/// `Session`, the painter and the drawing backends read these fields and never a name
/// (`PlatformNamesTests` greps them); the name is read in one place, `Platforms.row(for:)`.
struct Platform {
    /// What it is, for `--verbose` ("X11", "the console's own screen").
    let name: String
    /// The names SDL gives its video driver here, compared without case (SDL 2 says
    /// "KMSDRM", SDL 3 "kmsdrm"); empty: any driver no other row names.
    let sdlNames: [String]
    /// What is done before SDL starts.
    let preparation: Preparation
    /// What the window is.
    let window: Window
    /// The presenters it offers, in order: the first without OpenGL is the CPU path's, the
    /// first with it the GPU's (`PresenterTable.choose`).
    let presenters: [PresenterEntry]
    /// The accelerated renderer asked for first, where SDL's own order draws nothing.
    let preferredRenderer: String?
    /// Where input comes from and what the loop sleeps on.
    let input: Input
    /// How a lost display shows, beyond a present that fails (which every presenter reports).
    let loss: Loss
    /// Where pixels per point come from when `--scale` does not say.
    let scale: Scale
    /// Whether the window is made hidden and shown with its first frame.
    let revealsOnFirstPresent: Bool
    /// How many presents put the first frame on the screen, on each path.
    let firstFramePresents: (cpu: Int, gpu: Int)

    enum Preparation: Equatable {
        case nothing
        /// The console: a screen of the program's own (DRM dumb buffers, fbdev) is taken
        /// before SDL where no GPU Mesa draws with is there (`ConsoleStart`); SDL is then
        /// told to start `evdev` instead, whose row (`window == .standIn`) shows frames
        /// only through that screen.
        case consoleScreen
    }

    enum Window: Equatable {
        /// A window people see (fullscreen, resized, mapped as asked).
        case shown
        /// A window of the prepared screen's size that nobody sees: only the screen taken
        /// before SDL shows frames; without one the row shows nothing.
        case standIn
        /// SDL's headless drivers: nobody sees it, ever (refused where a visible display is
        /// required, as a kiosk that ran invisibly would look healthy to systemd).
        case headless
    }

    enum Input: Equatable {
        /// SDL's event queue, pumped every frame; the loop sleeps in SDL_WaitEventTimeout.
        case sdlQueue
        /// SDL's queue, pumped only when the server may have sent something (`NativeDisplay
        /// .mayHaveInput`: one poll instead of SDL's handful of reads) or every quarter second.
        case sdlQueueWhenSent
        /// The devices through libinput (`ConsoleInput`), each event at the kernel's time;
        /// SDL's copy of them dropped; the loop sleeps in `poll` on libinput and a pipe.
        case libinput
    }

    enum Loss: Equatable {
        /// The server's socket hangs up, and Xlib calls its fatal I/O error handler (which
        /// would exit 1 without the report): replaced by `RunWatch`.
        case serverIOError
        /// The socket hangs up, or the connection is in error (SDL then turns its next pump
        /// into SDL_QUIT, which must not pass for a stop).
        case connectionError
        /// Only a present (or the device asked at rest) fails: the presenter says so.
        case presentFails
    }

    struct Scale {
        /// Whose DPI SDL reports ("X11 RandR"); nil: the driver's own name.
        let sdlSource: String?
        /// After SDL's DPI, the X screen's size in millimetres (which `Xvfb -dpi` sets
        /// while its RandR output says 0 mm).
        let xScreenMillimetres: Bool
    }

    /// Whether SDL's `driver` is this row's (any case).
    func names(_ driver: String) -> Bool {
        let lowered = driver.lowercased()
        return sdlNames.contains { $0.lowercased() == lowered }
    }

    /// How many presents put the first frame on the screen on `path`.
    func firstFramePresents(on path: RenderPath) -> Int {
        switch path {
        case .cpu: firstFramePresents.cpu
        case .gpu: firstFramePresents.gpu
        }
    }
}
