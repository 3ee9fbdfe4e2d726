import CSDL
import Testing
@testable import OverscrollSDL

/// A new base (the list moved past a buffer's spare rows, `RingBuffers.begin`) moves the
/// ring row each buffer row holds, and a row is written again where its new line differs.
/// A list's colours repeat (striped rows): the base is moved by a whole period where the
/// spare rows allow, so the stripes land on themselves, not by half of one, which
/// rewrote every row whole (a portrait window's new base, 85–100 % of its pixels).
extension SDLSuite { @Suite struct RingBuffersNewBaseTests {
    /// Scrolls a striped list 10 rows a frame through two buffers with 40 spare rows: a new
    /// base every five frames, 50 rows on, half a period of its 20-row stripes. Returns
    /// the pixels written, and whether each buffer showed the list's stripes right.
    private func scroll(choosingTheBase: Bool) throws -> (written: Int, wrong: String?) {
        let width: Int32 = 32, height: Int32 = 120, count = height
        let stripes: (UInt32, UInt32) = (0x0011_2233, 0x0044_5566)
        func line(_ content: Int32) -> PixelLine { PixelLine(fill: (content / 10) % 2 == 0 ? stripes.0 : stripes.1) }
        var buffers = RingBuffers(width: width, height: height, buffers: 2, extra: 40)
        let format = try #require(SDL_AllocFormat(SDL_PIXELFORMAT_ARGB8888.rawValue))
        defer { SDL_FreeFormat(format) }
        var memory = [[UInt32]](repeating: [UInt32](repeating: 0, count: Int(width * buffers.rows)), count: 2)
        let surface = [UInt32](repeating: 0, count: Int(width * height))
        var written = 0, wrong: String?
        for frame in 0..<60 {
            // The window shows list rows s..<s + height; list row c lies in ring row c mod count.
            let s = Int32(frame) * 10, first = s % count
            var ring = [PixelLine](repeating: PixelLine(fill: 0), count: Int(count))
            for c in s..<(s + height) { ring[Int(c % count)] = line(c) }
            let rows = RingRows(lines: ring, images: [])
            // The ring rows the frame wrote: all at first, then the 10 that scrolled in.
            let into = frame == 0 ? [0..<count] : [((first + height - 10) % count)..<((first + height - 10) % count + 10)]
            let begun = buffers.begin(first: first, written: into, changed: [], ringFrame: true,
                                      lines: choosingTheBase ? rows : nil)
            let offset = try #require(begun)
            let index = frame % 2
            written += memory[index].withUnsafeMutableBufferPointer { memory in
                surface.withUnsafeBufferPointer { surface in
                    let buffer = WindowCanvas(pixels: memory.baseAddress!, stride: Int(width), width: width,
                                              height: buffers.rows, format: format)
                    return buffers.fill(index, fresh: frame < 2, buffer: buffer, offset: offset, first: first,
                                        written: into, lines: rows, surface: surface.baseAddress!) { _ in }
                }
            }
            for y in 0..<height where wrong == nil && memory[index][Int((offset + y) * width)] != line(s + y).fill {
                wrong = "frame \(frame): window row \(y) shows \(memory[index][Int((offset + y) * width)])"
            }
        }
        return (written, wrong)
    }

    @Test func aNewBaseLandsTheStripesOnThemselves() throws {
        let chosen = try scroll(choosingTheBase: true), atTheEdge = try scroll(choosingTheBase: false)
        #expect(chosen.wrong == nil && atTheEdge.wrong == nil, "\(chosen.wrong ?? "") \(atTheEdge.wrong ?? "")")
        // At the edge of the spare rows each new base rewrites the window whole; moved by a
        // whole period, only the rows that scrolled in are written.
        #expect(Double(chosen.written) < 0.5 * Double(atTheEdge.written),
                "pixels written: \(chosen.written) choosing the base, \(atTheEdge.written) at the spare rows' edge")
    }
} }
