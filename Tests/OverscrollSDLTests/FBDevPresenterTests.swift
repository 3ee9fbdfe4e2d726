import CDRM
import CSDL
import Testing
import OverscrollKit
@testable import OverscrollSDL
#if canImport(Glibc)
import Glibc
#endif

/// A framebuffer device (`FBDevChain`) faked by a regular file, its ioctls answered by
/// the test (`FakeFramebuffer`): frame after frame of a pull, a refresh and flings both
/// ways, what the screen's memory shows equals the scene drawn whole — the pixels that
/// changed written where it is shown where the driver cannot pan (efifb), panned over
/// the ring where it can — and
/// a format other than 32 bpp XRGB8888 is refused by name.
extension SDLSuite { @Suite struct FBDevPresenterTests {
    /// /dev/fb0 as a file of `stride` × `virtualRows` pixels, with the screen infos a
    /// driver would give and the pans asked of it.
    final class FakeFramebuffer {
        let path: String
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        private(set) var pans = 0
        var refusePans = false

        init(width: Int, height: Int, stride: Int, virtualRows: Int, pans: Bool, bitsPerPixel: UInt32 = 32) throws {
            var template = Array("/tmp/ovs-fb-XXXXXX".utf8CString)
            let fd = mkstemp(&template)
            try #require(fd >= 0)
            path = String(cString: template)
            let bytes = stride * 4 * virtualRows
            try #require(ftruncate(fd, off_t(bytes)) == 0)
            close(fd)
            variable.xres = UInt32(width)
            variable.yres = UInt32(height)
            variable.xres_virtual = UInt32(width)
            variable.yres_virtual = UInt32(virtualRows)
            variable.bits_per_pixel = bitsPerPixel
            if bitsPerPixel == 32 {
                variable.red = fb_bitfield(offset: 16, length: 8, msb_right: 0)
                variable.green = fb_bitfield(offset: 8, length: 8, msb_right: 0)
                variable.blue = fb_bitfield(offset: 0, length: 8, msb_right: 0)
            } else {
                variable.red = fb_bitfield(offset: 11, length: 5, msb_right: 0)
                variable.green = fb_bitfield(offset: 5, length: 6, msb_right: 0)
                variable.blue = fb_bitfield(offset: 0, length: 5, msb_right: 0)
            }
            variable.width = UInt32.max     // efifb: no physical size
            variable.height = UInt32.max
            fixed.smem_len = UInt32(bytes)
            fixed.line_length = UInt32(stride * Int(bitsPerPixel) / 8)
            fixed.type = UInt32(FB_TYPE_PACKED_PIXELS)
            fixed.visual = UInt32(FB_VISUAL_TRUECOLOR)
            fixed.ypanstep = pans ? 1 : 0
            withUnsafeMutableBytes(of: &fixed.id) { id in
                for (i, c) in "Fake FB".utf8.enumerated() { id[i] = c }
            }
        }

        deinit { unlink(path) }

        /// The ioctls fbdev.c asks, answered from `variable` and `fixed`.
        static let ioctl: ovs_fb_ioctl_fn = { context, _, request, argument in
            let fake = Unmanaged<FakeFramebuffer>.fromOpaque(context!).takeUnretainedValue()
            switch request {
            case UInt(FBIOGET_VSCREENINFO):
                argument!.assumingMemoryBound(to: fb_var_screeninfo.self).pointee = fake.variable
            case UInt(FBIOGET_FSCREENINFO):
                argument!.assumingMemoryBound(to: fb_fix_screeninfo.self).pointee = fake.fixed
            case UInt(FBIOPAN_DISPLAY):
                let asked = argument!.assumingMemoryBound(to: fb_var_screeninfo.self).pointee
                guard !fake.refusePans, fake.fixed.ypanstep > 0,
                      asked.yoffset + fake.variable.yres <= fake.variable.yres_virtual else {
                    errno = EINVAL
                    return -1
                }
                fake.variable.yoffset = asked.yoffset
                fake.pans += 1
            default:
                errno = ENOTTY
                return -1
            }
            return 0
        }

        func open() throws(SDLError) -> FBDevice {
            try FBDevice(path: path, ioctl: Self.ioctl, context: Unmanaged.passUnretained(self).toOpaque(), owner: self)
        }

        /// What the screen shows: the visible rows from the pan's offset, as the file holds them.
        func screen() -> [UInt32] {
            let width = Int(variable.xres), height = Int(variable.yres), stride = Int(fixed.line_length) / 4
            var file = [UInt32](repeating: 0, count: stride * Int(variable.yres_virtual))
            let fd = Glibc.open(path, O_RDONLY)
            defer { close(fd) }
            _ = file.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            var shown = [UInt32](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width { shown[y * width + x] = file[(Int(variable.yoffset) + y) * stride + x] }
            }
            return shown
        }
    }

    /// Turned too, written turned by the presenter (not drawn whole and turned by SDL,
    /// 123 ms a frame in the VM at 720x1280): at 90° and 270° the ring, which would lie
    /// along the screen's columns, is pinned to its top even where the driver pans (by
    /// rows only); at 180° it pans as unturned.
    @Test(arguments: [false, true], [ScreenRotation.none, .quarter, .half, .threeQuarters])
    func theScreenEqualsTheSceneDrawnWhole(pans: Bool, rotation: ScreenRotation) throws {
        let (appWidth, appHeight) = (480, 800)
        let (width, height) = rotation.crosswise ? (appHeight, appWidth) : (appWidth, appHeight)
        // Rows padded past the width, as drivers pad them; twice the rows where it pans.
        let fake = try FakeFramebuffer(width: width, height: height, stride: width + 16,
                                       virtualRows: pans ? height * 2 : height, pans: pans)
        let chain = FBDevChain(device: try fake.open(), terminal: nil)
        #expect(chain.device.canPan == pans)
        var presenter: ConsolePresenter?
        let drawn = try Headless(width: width, height: height) { _ in
            var why = ""
            presenter = ConsolePresenter.make(chain, reason: "a test", why: &why)
            return presenter
        }
        drawn.painter.rotation = rotation
        #expect(drawn.display.presenting.name == "fbdev")
        let reference = try Headless(width: appWidth, height: appHeight)
        let whole = try #require(SDL_GetWindowSurface(reference.display.window))
        var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
        c.refreshTimeout = 10
        var model = OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0) · a list you touch" })
        var driver = ReplayDriver(script: try GestureScript(parsing: ListRingTests.script), fps: 60)
        var scene = Scene(), previous: Scene?
        var wrong: String?
        var frames = 0, ringFrames = 0, restingCopies = 0, moved = 0, movedWrites = 0, offset: Double?
        // Pixels copied from a shadow, or written by the ring's frames where the screen shows them.
        func written() -> Int { chain.copied + (presenter?.shared.ringPixelsWritten ?? 0) }
        driver.play(&model, source: ScriptedRefreshes()) { played, model in
            scene.update(model: model)
            let writtenBefore = written()
            let painted = drawn.painter.draw(scene, since: previous)
            drawn.painter.present(painted)
            if painted.kind == .ring { ringFrames += 1 }
            if previous == scene { restingCopies += written() - writtenBefore }
            if painted.kind == .ring, offset != nil, offset != model.scroll.offset {
                moved += 1
                movedWrites += written() - writtenBefore
            }
            offset = model.scroll.offset
            reference.painter.draw(scene)
            SDL_RenderFlush(reference.display.renderer)
            let screen = fake.screen()
            let pixels = whole.pointee.pixels.assumingMemoryBound(to: UInt32.self)
            let stride = Int(whole.pointee.pitch) / 4
            for y in 0..<height {
                for x in 0..<width {
                    let at = SharedMemoryPresenterTests.unturned(x: x, y: y, width: appWidth, height: appHeight, rotation)
                    let want = pixels[at.y * stride + at.x] & 0xFF_FFFF
                    guard screen[y * width + x] & 0xFF_FFFF == want else {
                        wrong = "frame \(played.frame) at \(played.time) s (\(painted.kind)): pixel (\(x), \(y)) is "
                            + "\(String(screen[y * width + x] & 0xFF_FFFF, radix: 16)), drawn whole \(String(want, radix: 16)) at (\(at.x), \(at.y))"
                        return false
                    }
                }
            }
            frames += 1
            previous = scene
            return true
        }
        #expect(wrong == nil, "\(wrong ?? "")")
        #expect(frames > 300, "\(frames) frames")
        #expect(ringFrames > 100, "\(ringFrames) frames from the ring")
        // A frame that changes nothing copies nothing to the screen.
        #expect(restingCopies == 0, "\(restingCopies) pixels copied by frames that changed nothing")
        if pans && !rotation.crosswise {
            // The ring is shown by panning: scrolls moved the screen, not the pixels.
            #expect(fake.pans > 50, "\(fake.pans) pans")
            #expect(chain.copied == 0)
        } else {
            // The ring pinned to the screen's top: a frame that moves the list writes the
            // pixels that changed, where the screen shows them (no shadow, nothing copied),
            // not the window (0.38 of it a frame measured; a copy of the changed box was
            // nearly all of it).
            #expect(fake.pans == 0)
            #expect(chain.copied == 0)
            #expect(moved > 100, "\(moved) frames moved the list")
            // Written by the ring's frames, turned or not (drawn whole and turned by SDL,
            // nothing went through the ring).
            #expect(movedWrites > moved * width, "\(movedWrites) pixels written by \(moved) frames that moved the list")
            // Turned 90° or 270°: 9/10 (a band of 16 rows written across the union of its
            // rows' changes), as `SharedMemoryPresenterTests` has it.
            #expect(movedWrites * (rotation.crosswise ? 10 : 5) <= moved * width * height * (rotation.crosswise ? 9 : 3),
                    "\(movedWrites) pixels written by \(moved) frames that moved the list")
        }
    }

    @Test func aFormatOtherThanXRGB8888IsRefusedByName() throws {
        let fake = try FakeFramebuffer(width: 640, height: 480, stride: 640, virtualRows: 480, pans: false, bitsPerPixel: 16)
        #expect(throws: SDLError.self) { try fake.open() }
        do { _ = try fake.open() } catch {
            #expect(error.description == "\(fake.path) (Fake FB) is 16 bpp with red at bit 11 (5 bits), green at 5 (6), blue at 0 (5); "
                    + "only 32 bpp XRGB8888 is drawn: set a 32-bit mode (video=efifb or vga= on the kernel line, or fbset -depth 32)")
        }
    }

    @Test func aFileThatIsNotAFramebufferIsNamedAsSuch() {
        do {
            _ = try FBDevice(path: "/dev/null")
            Issue.record("/dev/null opened as a framebuffer")
        } catch {
            #expect(error.description.hasPrefix("/dev/null is not a framebuffer device ("), "\(error.description)")
        }
    }

    /// Another VT shown: nothing is written to the screen; back: the whole frame again.
    /// A buffer as tall as the screen of a device that cannot pan is the screen's memory
    /// (written where it is shown); a taller one (a ring, where pans stopped working) is
    /// a shadow, and only its damage is copied.
    @Test(arguments: [32, 40])
    func aVTAwayWritesNothingAndBackWritesTheWholeFrame(rows: Int32) throws {
        let fake = try FakeFramebuffer(width: 64, height: 32, stride: 64, virtualRows: 32, pans: false)
        let chain = FBDevChain(device: try fake.open(), terminal: nil)
        let handle = chain.device.handle
        func frame(_ colour: UInt32, damage: (Int32, Int32, Int32, Int32)?) -> ChainBuffer? {
            let shape = BufferShape(columns: 64, rows: rows, width: 64, height: 32, x: 0, y: 0)
            guard let got = chain.acquire(shape, most: 1, timeoutMs: 0) else { return nil }
            for row in 0..<Int(rows) {
                for x in 0..<64 { got.pixels[row * got.stride + x] = colour }
            }
            if let d = damage { chain.damage(x: d.0, y: d.1, width: d.2, height: d.3) }
            #expect(chain.commit())
            return got
        }
        #expect(frame(0x11_1111, damage: nil)?.fresh == true)
        #expect(fake.screen().allSatisfy { $0 == 0x11_1111 })
        _ = frame(0x22_2222, damage: (0, 0, 8, 4))
        #expect(fake.screen().filter { $0 == 0x22_2222 }.count == (rows == 32 ? 64 * 32 : 32))
        #expect(chain.copied == (rows == 32 ? 0 : 64 * 32 + 32))
        ovs_fb_release(handle)
        #expect(frame(0x33_3333, damage: (0, 0, 64, 32)) == nil)
        #expect(fake.screen().filter { $0 == 0x33_3333 }.isEmpty)
        ovs_fb_reacquire(handle)
        #expect(frame(0x44_4444, damage: nil)?.fresh == true)
        #expect(fake.screen().allSatisfy { $0 == 0x44_4444 })
    }
} }
