import CSDL
import Testing
@testable import OverscrollSDL

/// Where a buffer showed the window surface (an overlay: the scroll bar), the list goes back
/// before it is shown again (`RingBuffers.listBack`) — but not on rows this frame copies the
/// surface onto anyway: a scroll bar that moved two rows has only those two rows of list to
/// write back, not its whole height.
extension SDLSuite { @Suite struct RingBuffersListBackTests {
    @Test func rowsTheSurfaceCoversAgainAreNotWrittenBack() throws {
        let width: Int32 = 16, height: Int32 = 40, listPixel: UInt32 = 0x0011_2233, barPixel: UInt32 = 0x00AA_BBCC
        var buffers = RingBuffers(width: width, height: height, buffers: 1)
        let format = try #require(SDL_AllocFormat(SDL_PIXELFORMAT_ARGB8888.rawValue))
        defer { SDL_FreeFormat(format) }
        var memory = [UInt32](repeating: 0, count: Int(width * buffers.rows))
        let surface = [UInt32](repeating: barPixel, count: Int(width * height))
        let lines = [PixelLine](repeating: PixelLine(fill: listPixel), count: Int(height))
        let ring = RingRows(lines: lines, images: [])
        // The bar, 4 pixels wide and 20 rows tall, then 2 rows lower.
        let bar = SDL_Rect(x: 10, y: 5, w: 4, h: 20), lower = SDL_Rect(x: 10, y: 7, w: 4, h: 20)
        var copied: [Int] = []
        var offset: Int32 = 0
        for (frame, rect) in [bar, lower].enumerated() {
            let written: [Range<Int32>] = frame == 0 ? [0..<height] : []
            let begun = buffers.begin(first: 0, written: written, changed: [rect], ringFrame: true)
            offset = try #require(begun)
            copied.append(memory.withUnsafeMutableBufferPointer { memory in
                surface.withUnsafeBufferPointer { surface in
                    let buffer = WindowCanvas(pixels: memory.baseAddress!, stride: Int(width), width: width,
                                              height: buffers.rows, format: format)
                    return buffers.fill(0, fresh: frame == 0, buffer: buffer, offset: offset, first: 0, written: written,
                                        lines: ring, surface: surface.baseAddress!) { _ in }
                }
            })
        }
        // The second frame: the two rows the bar left (4 pixels each), then the bar.
        #expect(copied[1] == 2 * 4 + 4 * 20, "pixels written: \(copied)")
        // And the buffer shows the list where the bar was, the bar where it is.
        for y in 0..<height {
            for x in 0..<width {
                let shown = memory[Int((offset + y) * width + x)]
                let onBar = x >= lower.x && x < lower.x + lower.w && y >= lower.y && y < lower.y + lower.h
                #expect(shown == (onBar ? barPixel : listPixel), "pixel (\(x), \(y))")
            }
        }
    }
} }
