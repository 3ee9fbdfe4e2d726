import CSDL
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// The console's start, before SDL's: whether this run shows its frames on a screen of
/// its own (`ConsoleChoice`), and if so the screen opened (`ConsoleChains`: DRM dumb
/// buffers, else a framebuffer device), the VT taken and SDL told to start its `evdev`
/// driver (no GL, no GBM) instead of KMSDRM; the input is read through libinput
/// (`ConsoleInput`), SDL's copy of it dropped.
struct ConsoleStart {
    let chain: any ConsoleChain
    /// Why this screen, and what the device and the VT are, for `--verbose` and the report.
    let reason: String

    /// The console screen's start for `choice`, or nil where SDL's own driver is to show
    /// frames as before (not the console, or a GPU Mesa draws with; `note` then says why,
    /// if there is something to say). Throws where no screen can be had on a console
    /// named as one (SDL_VIDEODRIVER=kmsdrm, the kiosk unit's): SDL's KMSDRM would find
    /// no more, and its "kmsdrm not available" says neither why nor the fix.
    static func begin(choice: RendererChoice, videoDriver: String?, output: String? = nil, note: inout String?,
                      environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) throws(SDLError) -> ConsoleStart? {
        let driver = videoDriver ?? environment("SDL_VIDEODRIVER")
        guard let headed = Platforms.preparing(asked: driver, display: environment("DISPLAY"),
                                               waylandDisplay: environment("WAYLAND_DISPLAY")),
              headed.row.preparation == .consoleScreen else { return nil }
        let asked: ConsoleChoice.Asked
        switch choice {
        case .auto: asked = .auto
        case .gpu: return nil
        case .cpu: asked = .cpu
        }
        let decided = ConsoleChoice.decide(asked, asked == .auto ? ConsoleFacts.gather() : ConsoleGraphics(renderNodes: [], eglInstalled: false, gbmInstalled: false))
        guard decided.presenter == .dumbBuffers else {
            note = decided.reason
            return nil
        }
        let opened: ConsoleChains.Opened
        do { opened = try ConsoleChains.open(output: output, environment: environment) } catch {
            // On a console named as one (SDL_VIDEODRIVER=kmsdrm): an error with the reason
            // and the fix. A console guessed from no X or Wayland display may be no
            // display at all (a container, ssh): SDL then says what it finds.
            if headed.named {
                let how = asked == .cpu ? " (--renderer cpu on the console)" : ""
                throw SDLError(message: "no screen to show frames on\(how): \(error.description); "
                               + "load the display's driver (a DRM card in /dev/dri, or a framebuffer /dev/fb0), "
                               + "check the unit's groups (video), or run it under cage or X11")
            }
            note = "\(decided.reason), but no screen of its own can be had (\(error.description))"
            return nil
        }
        var why = ""
        let terminal = VirtualTerminal(why: &why)
        let vt = terminal.map { "VT \($0.number) taken (switches answered, text mode given back at exit)" }
            ?? "no VT switching: \(why)"
        // The run goes on as the console's own screen's row: SDL_VIDEODRIVER=kmsdrm (the
        // kiosk unit's) would otherwise win over a plain hint.
        SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, Platforms.console.sdlNames[0], SDL_HINT_OVERRIDE)
        let chain = opened.make(terminal)
        return ConsoleStart(chain: chain, reason: "\(decided.reason); frames are drawn by the CPU and shown through "
                            + "\(opened.how) on \(chain.description)\(opened.passedOver); input through libinput (ConsoleInput); \(vt)")
    }
}

/// The screens the console's program can drive itself, one row each, in the order
/// tried: DRM dumb buffers (the card in OVERSCROLL_DRM_DEVICE, else the first with a
/// connected display), then the framebuffer device (OVERSCROLL_FB_DEVICE, else
/// /dev/fb0: a machine whose kernel has no DRM driver for its display, as Debian 12's
/// has none for an EFI or VESA framebuffer). A device that is there (or named) but
/// cannot be had is an error, not a reason to try the next: a DRM driver's /dev/fb0 is
/// its fbdev emulation, which shows nothing while another program is DRM master.
enum ConsoleChains {
    struct Row {
        /// How frames are shown, for the reason ("page-flipped DRM dumb buffers").
        let how: String
        /// The environment variable that names its device, if set.
        let named: String
        /// Whether its kind of device is on this machine at all (a DRM card).
        var present: () -> Bool = { false }
        /// Opens the device on `output` (nil: the first connected); the screen is made
        /// once the VT is taken.
        let open: (_ output: String?, _ environment: (String) -> String?) throws(SDLError) -> (VirtualTerminal?) -> any ConsoleChain
    }

    static var rows: [Row] { [
        Row(how: "page-flipped DRM dumb buffers", named: "OVERSCROLL_DRM_DEVICE", present: { DRMDevice.anyCard() }) { output, environment throws(SDLError) in
            let device = try DRMDevice(path: environment("OVERSCROLL_DRM_DEVICE"), output: output)
            return { DumbBufferChain(device: device, terminal: $0) }
        },
        // A framebuffer device has one output, whatever it is called: `output` is DRM's.
        Row(how: "the framebuffer device (fbdev)", named: "OVERSCROLL_FB_DEVICE") { _, environment throws(SDLError) in
            let device = try FBDevice(path: environment("OVERSCROLL_FB_DEVICE") ?? "/dev/fb0")
            return { FBDevChain(device: device, terminal: $0) }
        },
    ] }

    struct Opened {
        let how: String
        let make: (VirtualTerminal?) -> any ConsoleChain
        /// The rows tried before it and why they were passed over ("; no DRM device …").
        let passedOver: String
    }

    /// The first row's screen that opens; the error says why each could not.
    static func open(output: String? = nil, rows: [Row] = rows, environment: (String) -> String?) throws(SDLError) -> Opened {
        var refused: [String] = []
        for row in rows {
            do {
                let make = try row.open(output, environment)
                let passed = refused.isEmpty ? "" : " (\(refused.joined(separator: "; ")))"
                return Opened(how: row.how, make: make, passedOver: passed)
            } catch {
                refused.append(error.description)
                if environment(row.named) != nil || row.present() { break }
            }
        }
        throw SDLError(message: refused.joined(separator: "; "))
    }
}

extension DisplayScale {
    /// The scale for a DRM connector of `millimetres` showing `pixels`; nil where the
    /// connector reports no plausible size.
    static func connector(pixels: (width: Int32, height: Int32), millimetres: (width: Int, height: Int)?) -> DisplayScale? {
        guard let mm = millimetres else { return nil }
        let dpi = max(Double(pixels.width) * 25.4 / Double(mm.width), Double(pixels.height) * 25.4 / Double(mm.height))
        guard plausible(dpi) else { return nil }
        return DisplayScale(factor: factor(dpi: dpi), origin: "\(Int(dpi.rounded())) dpi from the DRM connector's size in mm")
    }
}
