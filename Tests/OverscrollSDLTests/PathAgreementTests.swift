import CSDL
import Testing
import OverscrollKit
@testable import OverscrollSDL

/// The CPU path writes the list, the indicator and the scroll bar straight into the window
/// surface with arithmetic of its own; the renderer's path (a rotated screen, and the GPU
/// path's code) draws the same scene with SDL. The two pictures must be the same pixels:
/// a text span copied a pixel off, or a blend rounded the other way, shows here.
extension SDLSuite { @Suite struct PathAgreementTests {
    @Test(arguments: [1.0, 2.0])
    func theCPUPathDrawsWhatTheRendererDraws(scale: Double) throws {
        let headless = try Headless(scale: scale)
        var scrolled = pulledModel(fingerTravel: 0)
        scrolled.step([TimedInput(time: 1, event: .pointerUp(PointerID(1))), TimedInput(time: 1, event: .wheel(dy: 613))], to: 1.1)
        let scenes = [
            ("pulled past the threshold", Scene(model: pulledModel(fingerTravel: 260), flashEnabled: false)),
            ("refreshing", Scene(model: spinningModel())),
            ("scrolled, scroll bar showing", Scene(model: scrolled)),
        ]
        for (name, scene) in scenes {
            headless.painter.draw(scene)
            let direct = headless.readPixels()
            let drawn = try throughRenderer(scene, on: headless)
            let differ = zip(direct.pixels, drawn).filter { ($0 ^ $1) & 0xFF_FFFF != 0 }.count
            #expect(differ == 0, "\(name): \(differ) pixels differ")
            // Not vacuous: text, the indicator or the bar are in the picture.
            #expect(Set(direct.pixels.prefix(direct.width * 200)).count > 20, "\(name)")
        }
        #expect(Scene(model: scrolled).scrollBar != nil)
    }

    /// `scene` drawn by the renderer into a target texture, read back.
    private func throughRenderer(_ scene: Scene, on headless: Headless) throws -> [UInt32] {
        let renderer = headless.display.renderer
        let (w, h) = headless.display.sizeInPixels
        let target = try #require(SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                                    Int32(SDL_TEXTUREACCESS_TARGET.rawValue), Int32(w), Int32(h)))
        defer { SDL_DestroyTexture(target) }
        SDL_SetRenderTarget(renderer, target)
        defer { SDL_SetRenderTarget(renderer, nil) }
        headless.painter.drawIntoTarget(scene)
        SDL_RenderFlush(renderer)
        var pixels = [UInt32](repeating: 0, count: w * h)
        _ = pixels.withUnsafeMutableBytes { SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, $0.baseAddress, Int32(w * 4)) }
        return pixels
    }
} }
