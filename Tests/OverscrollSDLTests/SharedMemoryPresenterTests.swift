import CSDL
import Testing
import OverscrollKit
@testable import OverscrollSDL

/// The presenter Wayland's wl_shm buffers and the console's DRM dumb buffers share
/// (`SharedMemoryPresenter`), over buffers in memory (`MemoryChain`): frame after frame of
/// a pull, a refresh and flings both ways, the buffer shown — from the row it is shown
/// from, as a ring — equals the scene drawn whole.
extension SDLSuite { @Suite struct SharedMemoryPresenterTests {
    /// `BufferChain` in plain memory: `most` buffers, taken in turn; the one committed
    /// last is "on screen".
    final class MemoryChain: BufferChain {
        let most: Int
        private(set) var buffers: [[UInt32]] = []
        private var shape: (width: Int32, rows: Int32) = (0, 0)
        private var offsets: [Int32] = []
        private var next = 0
        private var acquired: Int?
        private(set) var shown: Int?
        var broken: Bool { false }

        init(most: Int) { self.most = most }

        func waitFrame(timeoutMs: Int32) -> Bool { true }

        func acquire(width: Int32, height: Int32, rows: Int32, offset: Int32, most: Int32, timeoutMs: Int32) -> ChainBuffer? {
            if shape != (width, rows) {
                shape = (width, rows)
                buffers = []
                offsets = []
                next = 0
                shown = nil
            }
            let fresh = next >= buffers.count
            if fresh {
                buffers.append([UInt32](repeating: 0xDEAD_BEEF, count: Int(width) * Int(rows)))
                offsets.append(offset)
            }
            let index = next
            next = (next + 1) % max(1, min(Int(most), self.most))
            offsets[index] = offset
            acquired = index
            let pixels = buffers[index].withUnsafeMutableBufferPointer { $0.baseAddress! }
            return ChainBuffer(pixels: pixels, stride: Int(width), index: index, fresh: fresh)
        }

        func damage(x: Int32, y: Int32, width: Int32, height: Int32) {}

        func commit() -> Bool {
            shown = acquired
            return true
        }

        /// The screen: the shown buffer's `height` rows from its offset on.
        func screen(width: Int, height: Int) -> [UInt32]? {
            guard let shown else { return nil }
            let from = Int(offsets[shown]) * width
            return Array(buffers[shown][from..<(from + width * height)])
        }
    }

    @Test(arguments: [1.0, 2.0])
    func theBufferShownEqualsTheSceneDrawnWhole(scale: Double) throws {
        let chain = MemoryChain(most: 2)
        let (width, height) = (Int(480 * scale), Int(800 * scale))
        let drawn = try Headless(scale: scale) { window in
            var why = ""
            return SharedMemoryPresenter(chain: chain, capacity: width * height * 4,
                                         currentSize: { (Int32(width), Int32(height)) },
                                         reason: "a test", bufferName: "a buffer in memory", why: &why)
        }
        let reference = try Headless(scale: scale)
        let whole = try #require(SDL_GetWindowSurface(reference.display.window))
        let script = try GestureScript(parsing: ListRingTests.script)
        var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
        c.refreshTimeout = 10
        var model = OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0) · a list you touch" })
        var driver = ReplayDriver(script: script, fps: 60)
        var scene = Scene(), previous: Scene?
        var wrong: String?
        var frames = 0, ringFrames = 0
        driver.play(&model, source: ScriptedRefreshes()) { played, model in
            scene.update(model: model)
            let painted = drawn.painter.draw(scene, since: previous)
            drawn.painter.present(painted)
            if painted == .ring { ringFrames += 1 }
            reference.painter.draw(scene)
            SDL_RenderFlush(reference.display.renderer)
            guard let screen = chain.screen(width: width, height: height) else {
                wrong = "frame \(played.frame): nothing shown"
                return false
            }
            let pixels = whole.pointee.pixels.assumingMemoryBound(to: UInt32.self)
            let stride = Int(whole.pointee.pitch) / 4
            for y in 0..<height {
                for x in 0..<width where screen[y * width + x] & 0xFF_FFFF != pixels[y * stride + x] & 0xFF_FFFF {
                    wrong = "frame \(played.frame) at \(played.time) s (\(painted)): pixel (\(x), \(y)) is "
                        + "\(String(screen[y * width + x] & 0xFF_FFFF, radix: 16)), drawn whole \(String(pixels[y * stride + x] & 0xFF_FFFF, radix: 16))"
                    return false
                }
            }
            frames += 1
            previous = scene
            return true
        }
        #expect(wrong == nil, "\(wrong ?? "")")
        #expect(frames > 300, "\(frames) frames")
        // The list went through the ring, shown from other rows as it scrolled.
        #expect(ringFrames > 100, "\(ringFrames) frames from the ring")
    }
} }
