import CSDL
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// The console's start, before SDL's: whether this run shows its frames through DRM dumb
/// buffers of its own (`ConsoleChoice`), and if so the device opened, the VT taken and SDL
/// told to start its `evdev` driver (input only, no GL, no GBM) instead of KMSDRM.
struct ConsoleStart {
    let chain: DumbBufferChain
    /// Why dumb buffers, and what the device and the VT are, for `--verbose` and the report.
    let reason: String

    /// The dumb-buffer presenter's start for `choice`, or nil where SDL's own driver is to
    /// show frames as before (not the console, a GPU Mesa draws with, or no DRM device
    /// that could be opened under `--renderer auto`; `note` then says why, if there is
    /// something to say). Throws where `--renderer cpu` asks for it on the console and
    /// it cannot be had.
    static func begin(choice: RendererChoice, videoDriver: String?, note: inout String?,
                      environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) throws(SDLError) -> ConsoleStart? {
        let driver = videoDriver ?? environment("SDL_VIDEODRIVER")
        guard ConsoleGraphics.onConsole(videoDriver: driver, display: environment("DISPLAY"),
                                        waylandDisplay: environment("WAYLAND_DISPLAY")) else { return nil }
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
        // OVERSCROLL_DRM_DEVICE names the card where a machine has several with a display.
        let device: DRMDevice
        do { device = try DRMDevice(path: environment("OVERSCROLL_DRM_DEVICE")) } catch {
            // Asked for by name on a console named as one (SDL_VIDEODRIVER=kmsdrm): an
            // error. A console guessed from no X or Wayland display may be no display at
            // all (a container, ssh): SDL then says what it finds.
            if asked == .cpu, driver?.lowercased() == "kmsdrm" {
                throw SDLError(message: "cannot show frames through DRM dumb buffers (--renderer cpu on the console): \(error.description); "
                               + "check the device and the unit's groups (video), or try --renderer gpu")
            }
            note = "\(decided.reason), but DRM dumb buffers cannot be had (\(error.description))"
            return nil
        }
        var why = ""
        let terminal = VirtualTerminal(why: &why)
        let vt = terminal.map { "VT \($0.number) taken (switches answered, text mode given back at exit)" }
            ?? "no VT switching: \(why)"
        // SDL_VIDEODRIVER=kmsdrm (the kiosk unit's) would otherwise win over a plain hint.
        SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, "evdev", SDL_HINT_OVERRIDE)
        let chain = DumbBufferChain(device: device, terminal: terminal)
        return ConsoleStart(chain: chain, reason: "\(decided.reason); frames are drawn by the CPU and page-flipped in DRM dumb buffers "
                            + "on \(device.description); input from SDL's evdev driver; \(vt)")
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
