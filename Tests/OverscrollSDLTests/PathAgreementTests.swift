import CSDL
import Testing
import OverscrollKit
@testable import OverscrollSDL

/// The CPU path writes the list, the indicator and the scroll bar straight into the window
/// surface with arithmetic of its own; the renderer's path (a rotated screen, and the GPU
/// path's code) draws the same scene with SDL. The two pictures must be the same pixels:
/// a text span copied a pixel off, or a blend rounded the other way, shows here. The scenes
/// cover the list, the status line, the indicator, the scroll bar, the error banner, the
/// frame-time graph and the flash, alone and together, at 1x and 2x.
extension SDLSuite { @Suite struct PathAgreementTests {
    @Test(arguments: [1.0, 2.0])
    func theCPUPathDrawsWhatTheRendererDraws(scale: Double) throws {
        let headless = try Headless(scale: scale)
        var scrolled = pulledModel(fingerTravel: 0)
        scrolled.step([TimedInput(time: 1, event: .pointerUp(PointerID(1))), TimedInput(time: 1, event: .wheel(dy: 613))], to: 1.1)
        let flashed = Scene(model: pullUntilCrossing())
        let failed = Scene(model: try failedRefreshModel())
        var withHUD = Scene(model: scrolled)
        withHUD.showHUD(Self.profiler())
        var everything = flashed
        everything.banner = failed.banner
        everything.hud = withHUD.hud
        let scenes = [
            ("pulled past the threshold", Scene(model: withoutFlash(pulledModel(fingerTravel: 260)))),
            ("refreshing", Scene(model: spinningModel())),
            ("scrolled, scroll bar showing", Scene(model: scrolled)),
            ("the flash over arc, status line and scroll bar", flashed),
            ("the error banner", failed),
            ("the frame-time graph over a scrolled list", withHUD),
            ("banner and graph under and over the flash", everything),
        ]
        // Each scene shows what it is named for.
        #expect(flashed.flash > 0 && flashed.indicator != nil && flashed.scrollBar != nil)
        #expect(failed.banner != nil && failed.banner!.opacity == 1 && failed.flash == 0)
        headless.painter.draw(failed)
        #expect(headless.painter.frame.banner?.lines.count == 2)
        #expect(withHUD.hud.map { $0.samples.count > 50 } == true && withHUD.scrollBar != nil)
        #expect(Scene(model: scrolled).scrollBar != nil)
        for (name, scene) in scenes {
            headless.painter.draw(scene)
            let direct = headless.readPixels()
            let drawn = try throughRenderer(scene, on: headless)
            let worst = zip(direct.pixels, drawn).map { Self.channelDistance($0, $1) }.max() ?? 0
            if scene.flash > 0 {
                // The flash is white blended over every pixel: the CPU path in 256ths of a
                // level (`WindowCanvas.Tint`, fast enough for a whole window), SDL's renderer
                // in 255ths. The two round apart by at most one level, and by no more.
                #expect(worst <= 1, "\(name) at \(scale)x: pixels differ by up to \(worst) levels")
            } else {
                let differ = zip(direct.pixels, drawn).filter { ($0 ^ $1) & 0xFF_FFFF != 0 }.count
                #expect(differ == 0, "\(name) at \(scale)x: \(differ) pixels differ, by up to \(worst) levels")
            }
            // Not vacuous: text, the indicator or the bar are in the picture.
            #expect(Set(direct.pixels.prefix(direct.width * 200)).count > 20, "\(name)")
        }
        // The banner and the graph are in the picture where they should be: the banner's red
        // near the top, the graph's dark panel at the bottom right.
        headless.painter.draw(everything)
        let picture = headless.readPixels()
        let bannerPixel = picture.at(Int(30 * scale), Int(20 * scale))
        #expect(bannerPixel.r > bannerPixel.g + 60, "banner: \(bannerPixel)")
        headless.painter.draw(withHUD)
        let hudPixel = headless.readPixels().at(Int(470 * scale), Int(790 * scale))
        let plain = headless.render(scrolled).at(Int(470 * scale), Int(790 * scale))
        #expect(hudPixel.brightness < plain.brightness, "graph \(hudPixel), list \(plain)")
    }

    /// The largest difference of one colour channel between two pixels.
    private static func channelDistance(_ a: UInt32, _ b: UInt32) -> Int {
        [0, 8, 16].map { abs(Int((a >> $0) & 0xFF) - Int((b >> $0) & 0xFF)) }.max()!
    }

    /// A model whose refresh failed a moment ago: the banner shows, fully opaque, on two lines.
    private func failedRefreshModel() throws -> OverscrollModel {
        var model = pullUntilCrossing()
        let t = model.now
        model.step([TimedInput(time: t, event: .pointerUp(PointerID(1)))], to: t)
        let request = try #require(model.refreshRequest)
        let failure = RefreshResult.failure("server unreachable: a long message, cut with an ellipsis to the banner's width")
        model.step([TimedInput(time: t + 1, event: .refreshCompleted(generation: request.generation, result: failure))], to: t + 1.1)
        // The banner shows once the spinner has scaled out.
        model.step([], to: t + 1.5)
        return model
    }

    /// A profiler with a few seconds of frames, some of them janky.
    private static func profiler() -> FrameProfiler {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        for frame in 0..<240 {
            let t = Double(frame) / 60
            let render = frame % 37 == 0 ? 0.030 : 0.004 + 0.002 * sin(t * 7)
            _ = profiler.record(FrameTiming(frame: frame, frameStart: t, inputDone: t + 0.001, updateDone: t + 0.002,
                                            renderDone: t + 0.002 + render, presentStart: t + 0.002 + render,
                                            presentDone: t + 0.003 + render, interval: 1.0 / 60 + (frame % 37 == 0 ? 0.02 : 0),
                                            latency: nil, state: .idle))
        }
        return profiler
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
