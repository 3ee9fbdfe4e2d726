import CSDL
import Testing
import OverscrollKit
@testable import OverscrollSDL

/// SDL is one global state per process: every suite that touches it is nested in this
/// one, so they run one test at a time, never two SDL sessions at once.
@Suite(.serialized) struct SDLSuite {}

/// Draws models headless (SDL's offscreen driver, software renderer) and reads the pixels
/// back. `scale` 2 draws a 2x-density frame: the same points, twice the pixels.
final class Headless {
    let display: Display
    let painter: Painter
    let scale: Double

    /// `presenter`, where given, shows the frames instead of SDL's window surface.
    init(width: Int = 480, height: Int = 800, scale: Double = 1, presenter: ((OpaquePointer) -> (any Presenter)?)? = nil) throws {
        var options = Display.Options.headless(width: Int(Double(width) * scale), height: Int(Double(height) * scale))
        options.presenter = presenter
        display = try Display(options)
        let font = try FontLocator.locate(explicit: nil)
        let text = try TextCache(display: display, font: try FontFile.read(font), pointSize: ListLayout().fontSize, scale: scale)
        painter = Painter(display: display, text: text, scale: scale)
        self.scale = scale
    }

    func render(_ model: OverscrollModel, flash: Bool = true) -> Image {
        painter.draw(Scene(model: flash ? model : withoutFlash(model)))
        return readPixels()
    }

    /// What is on the render target now.
    func readPixels() -> Image {
        SDL_RenderFlush(display.renderer)
        let (w, h) = display.sizeInPixels
        var pixels = [UInt32](repeating: 0, count: w * h)
        pixels.withUnsafeMutableBytes { raw in
            _ = SDL_RenderReadPixels(display.renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, raw.baseAddress, Int32(w * 4))
        }
        return Image(width: w, height: h, pixels: pixels)
    }
}

struct RGB: Equatable, CustomStringConvertible {
    var r: Int, g: Int, b: Int
    init(_ c: SDL_Color) { r = Int(c.r); g = Int(c.g); b = Int(c.b) }
    init(r: Int, g: Int, b: Int) { self.r = r; self.g = g; self.b = b }
    var brightness: Double { Double(r + g + b) / 3 }
    func distance(_ o: RGB) -> Int { abs(r - o.r) + abs(g - o.g) + abs(b - o.b) }
    var description: String { "(\(r),\(g),\(b))" }
}

struct Image {
    var width: Int, height: Int
    var pixels: [UInt32]

    func at(_ x: Int, _ y: Int) -> RGB {
        let p = pixels[y * width + x]
        return RGB(r: Int((p >> 16) & 0xFF), g: Int((p >> 8) & 0xFF), b: Int(p & 0xFF))
    }

    var meanBrightness: Double {
        var sum = 0.0
        for y in stride(from: 0, to: height, by: 4) { for x in stride(from: 0, to: width, by: 4) { sum += at(x, y).brightness } }
        return sum / Double(((height + 3) / 4) * ((width + 3) / 4))
    }
}

/// A model pulled down by `pull` points of finger travel and held there.
/// `model` as `--no-flash` has it: the threshold's crossing shows no flash.
func withoutFlash(_ model: OverscrollModel) -> OverscrollModel {
    var model = model
    var configuration = model.configuration
    configuration.flashes = false
    model.reconfigure(configuration)
    return model
}

func pulledModel(fingerTravel: Double, threshold: Double? = nil) -> OverscrollModel {
    var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800, threshold: threshold)
    c.refreshTimeout = 10
    var model = OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0)" })
    let finger = PointerID(1)
    model.step([TimedInput(time: 0, event: .pointerDown(finger, x: 240, y: 100))], to: 0)
    var inputs: [TimedInput] = []
    for i in 1...50 {
        inputs.append(TimedInput(time: Double(i) * 0.008, event: .pointerMove(finger, x: 240, y: 100 + fingerTravel * Double(i) / 50)))
    }
    model.step(inputs, to: 0.4)
    return model
}

import Foundation
extension Image {
    /// Writes a binary PPM, for looking at a failing frame (`convert x.ppm x.png`).
    func writePPM(_ path: String) {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        for p in pixels { data.append(contentsOf: [UInt8((p >> 16) & 0xFF), UInt8((p >> 8) & 0xFF), UInt8(p & 0xFF)]) }
        try? data.write(to: URL(fileURLWithPath: path))
    }
}
