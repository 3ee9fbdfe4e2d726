import CSDL
import Testing
import OverscrollKit
@testable import OverscrollSDL

/// The refresh-failed banner in pixels, in a 480 and a 320 pt wide window: an opaque box
/// with rounded corners, its sentence on two or more lines inside it, nothing cut.
extension SDLSuite { @Suite struct BannerRenderTests {
    /// A `width` × 800 pt list whose refresh failed 1 s ago.
    static func failed(width: Double) throws -> OverscrollModel {
        var model = OverscrollModel(configuration: .init(viewportWidth: width, viewportHeight: 800, threshold: 100),
                                    rows: (0..<100).map { "Row \($0)" })
        let finger = PointerID(1)
        var t = 0.0
        model.step([TimedInput(time: t, event: .pointerDown(finger, x: width / 2, y: 100))], to: t)
        for i in 1...40 {
            t += 1.0 / 60
            model.step([TimedInput(time: t, event: .pointerMove(finger, x: width / 2, y: 100 + Double(i) * 12))], to: t)
        }
        model.step([TimedInput(time: t, event: .pointerUp(finger))], to: t)
        let request = try #require(model.refreshRequest)
        model.step([TimedInput(time: t + 1, event: .refreshCompleted(generation: request.generation, result: .failure("'sh' exited 2: oops")))], to: t + 2)
        return model
    }

    @Test(arguments: [1.0, 2.0], [480, 320])
    func anOpaqueRoundedBoxWithTheWholeSentenceOnItsLines(scale: Double, width: Int) throws {
        let headless = try Headless(width: width, height: 800, scale: scale)
        let model = try Self.failed(width: Double(width))
        let scene = Scene(model: model)
        #expect(scene.indicator == nil && scene.banner?.opacity == 1)
        let picture = headless.render(model)
        let red = RGB(Palette.errorBanner), s = Int(scale)
        let x0 = 12 * s, y0 = 12 * s, x1 = picture.width - 12 * s - 1
        // The box's bottom: the last pixel row of red down its left edge, 12 pt in.
        let bottom = try #require((y0..<picture.height / 2).last { picture.at(x0 + 12 * s, $0) == red })
        // Opaque: the padding is the banner's colour exactly, whatever is under it.
        for (x, y) in [(x0 + 2 * s, y0 + 12 * s), (x1 - 2 * s, y0 + 12 * s), (x0 + 12 * s, y0 + 2 * s), (x0 + 12 * s, bottom - 2 * s)] {
            #expect(picture.at(x, y) == red, "(\(x), \(y)): \(picture.at(x, y))")
        }
        // Rounded: the corners' outermost pixels are not the banner's.
        for (x, y) in [(x0, y0), (x1, y0), (x0, bottom), (x1, bottom)] {
            #expect(picture.at(x, y) != red, "corner (\(x), \(y)) is square")
        }
        // Its lines: bands of white ink inside the box (an i's dot, 1 or 2 px above it, is
        // its line's), at least two, none touching its edges.
        var bands: [ClosedRange<Int>] = []
        for y in y0...bottom where (x0...x1).contains(where: { picture.at($0, y).brightness > 200 }) {
            if let last = bands.last, last.upperBound >= y - 1 - 2 * s { bands[bands.count - 1] = last.lowerBound...y } else { bands.append(y...y) }
        }
        #expect(bands.count >= 2 && bands.count <= 3, "\(bands)")
        #expect((bands.first?.lowerBound ?? 0) > y0 + 4 * s && (bands.last?.upperBound ?? .max) < bottom - 4 * s)
        let inkColumns = (x0...x1).filter { x in (y0...bottom).contains { picture.at(x, $0).brightness > 200 } }
        #expect((inkColumns.min() ?? 0) >= x0 + 8 * s && (inkColumns.max() ?? .max) <= x1 - 8 * s)
        // The words the box holds, as the layout broke them.
        let lines = headless.painter.frame.banner?.lines ?? []
        #expect(lines.joined(separator: " ") == "Couldn't refresh — showing rows from 12:00. Pull to try again.", "\(lines)")
        #expect(lines.count == bands.count)
        if width == 320 { picture.writePPM("/tmp/banner-320-\(scale).ppm") }
    }
} }

extension SDLSuite { @Suite struct BannerRoomTests {
    /// After a failed refresh, at 320, 480 and 720 pt and 1x and 2x: the list makes room
    /// for the banner, as the app's frame does (the banner drawn, its lines measured, the
    /// model told, the list settled): its box ends above the first row with a margin, the
    /// first row's text shows whole under it, and its lines are balanced.
    @Test(arguments: [1.0, 2.0], [320, 480, 720])
    func theBannerCoversNoRowsText(scale: Double, width: Int) throws {
        let headless = try Headless(width: width, height: 800, scale: scale)
        var model = try BannerRenderTests.failed(width: Double(width))
        _ = headless.render(model)
        let room = try #require(headless.painter.bannerRoom)
        var t = model.now
        model.setBannerRoom(room, at: t)
        for _ in 0..<60 {             // a second: the list settles at its new room
            t += 1.0 / 60
            model.step([], to: t)
        }
        #expect(model.banner != nil && model.scroll.isAtRest)
        let picture = headless.render(model)
        let frame = headless.painter.frame
        let banner = try #require(frame.banner)
        let first = try #require(frame.rows.first)
        // Layout: the box ends a margin above the first row, which is row 0, whole.
        #expect(banner.box.y + banner.box.h + Int32(12 * scale) <= first.top, "box ends \(banner.box.y + banner.box.h), row at \(first.top)")
        #expect(first.text == "Row 0" && abs(Double(first.top) - room * scale) <= 1)
        // Pixels: the banner's red stops above the row; the row's text (light ink in its band) shows.
        let red = RGB(Palette.errorBanner)
        let rowBand = Int(first.top)..<Int(first.top + first.height)
        #expect(!rowBand.contains { y in (0..<picture.width).contains { picture.at($0, y) == red } }, "red inside row 0")
        #expect(rowBand.contains { y in (0..<picture.width / 2).contains { picture.at($0, y).brightness > 200 } }, "no text in row 0")
        // Lines: as few as fit, balanced (no line under half the longest).
        let lines = banner.lines
        let widths = lines.map { Double(headless.painter.text.label($0)?.width ?? 0) }
        #expect(lines.count >= 1 && lines.count <= 3)
        if lines.count > 1 { #expect(widths.min()! >= widths.max()! / 2, "\(lines)") }
        #expect(lines.last.map { !["to try again.", "again."].contains($0) } ?? false, "\(lines)")
    }
}
}
