import CSDL
import Testing
import OverscrollKit
@testable import OverscrollSDL

/// A buffer written turned (`WindowCanvas`'s turn; at 90° and 270° gathered in a
/// `TurnStrip` and written a band at a time) equals the same writes made unturned and the
/// result turned, pixel for pixel, for random fills and copies: rows out of order, ranges
/// that overlap, touch or lie apart on one row, past the edges; sizes that are not whole
/// bands, memory rows longer than the canvas's, memory on a cache line and off one. The
/// memory's pixels outside the canvas are never written.
extension SDLSuite { @Suite struct TurnedCanvasTests {
    /// The same numbers on every run (splitmix64).
    struct Numbers {
        var state: UInt64
        mutating func next(_ below: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(below))
        }
    }

    enum Write {
        case fill(row: Int32, from: Int32, to: Int32, pixel: UInt32)
        case copy(row: Int32, x: Int32, count: Int32, source: Int)
    }

    /// `count` writes over a canvas `width` × `height`: runs of rows in order with one
    /// range (as the ring's lines are written), then rows anywhere, ranges anywhere (some
    /// past the edges), several on one row.
    static func writes(_ numbers: inout Numbers, width: Int32, height: Int32, count: Int) -> [Write] {
        var out: [Write] = []
        func range() -> (Int32, Int32) {
            let a = Int32(numbers.next(Int(width) + 8)) - 4, b = Int32(numbers.next(Int(width) + 8)) - 4
            return (min(a, b), max(a, b) + 1)
        }
        func write(_ row: Int32, _ r: (Int32, Int32)) -> Write {
            numbers.next(2) == 0
                ? .fill(row: row, from: r.0, to: r.1, pixel: UInt32(numbers.next(1 << 24)))
                : .copy(row: row, x: r.0, count: r.1 - r.0, source: numbers.next(8))
        }
        while out.count < count {
            switch numbers.next(4) {
            case 0:
                // A run of rows, up or down, one range: whole bands and the edges of others.
                let first = Int32(numbers.next(Int(height))), length = Int32(1 + numbers.next(40)), r = range()
                let up = numbers.next(2) == 0
                for i in 0..<length {
                    let row = up ? first + i : first - i
                    guard row >= 0, row < height else { break }
                    out.append(write(row, r))
                }
            case 1:
                // Pieces of one row, apart, then between them.
                let row = Int32(numbers.next(Int(height)))
                for _ in 0..<(1 + numbers.next(4)) { out.append(write(row, range())) }
            default:
                out.append(write(Int32(numbers.next(Int(height) + 4)) - 2, range()))
            }
        }
        return out
    }

    static let sentinel: UInt32 = 0xDEAD_BEEF

    /// Applies `writes` to a canvas `width` × `height` over memory `stride` pixels a row,
    /// turned by `turn`, its first pixel `shift` pixels past a 64-byte boundary; returns the
    /// memory.
    static func written(_ writes: [Write], width: Int32, height: Int32, stride: Int, shift: Int, turn: ScreenRotation,
                        strip: TurnStrip, source: [UInt32]) -> [UInt32] {
        let rows = turn.crosswise ? Int(width) : Int(height)
        let count = stride * rows
        let raw = UnsafeMutableRawPointer.allocate(byteCount: (count + shift) * 4, alignment: 64)
        defer { raw.deallocate() }
        let memory = raw.bindMemory(to: UInt32.self, capacity: count + shift) + shift
        memory.initialize(repeating: sentinel, count: count)
        var format = SDL_PixelFormat()
        format.format = SDL_PIXELFORMAT_RGB888.rawValue
        withUnsafeMutablePointer(to: &format) { format in
            source.withUnsafeBufferPointer { source in
                let canvas = WindowCanvas(pixels: memory, stride: stride, width: width, height: height, format: format,
                                          turn: turn, strip: strip)
                for write in writes {
                    switch write {
                    case let .fill(row, from, to, pixel): canvas.fill(row: row, from: from, to: to, pixel: pixel)
                    case let .copy(row, x, count, at): canvas.copy(row: row, x: x, from: source.baseAddress! + at, count: count)
                    }
                }
                canvas.finish()
            }
        }
        return Array(UnsafeBufferPointer(start: memory, count: count))
    }

    /// Where canvas pixel (`x`, `y`) of a canvas `width` × `height` lies in the memory
    /// turned by `turn`: (column, memory row).
    static func turned(x: Int, y: Int, width: Int, height: Int, _ turn: ScreenRotation) -> (Int, Int) {
        switch turn {
        case .none: (x, y)
        case .half: (width - 1 - x, height - 1 - y)
        case .quarter: (height - 1 - y, x)
        case .threeQuarters: (y, width - 1 - x)
        }
    }

    @Test(arguments: [ScreenRotation.quarter, .half, .threeQuarters], [
        // width, height, pixels more in a memory row than the canvas needs, pixels past a 64-byte boundary
        (64, 48, 0, 0), (37, 45, 3, 0), (33, 16, 16, 0), (50, 33, 0, 4), (1, 17, 0, 0), (20, 1, 2, 1), (130, 70, 10, 0),
    ])
    func aTurnedBufferEqualsTheFrameWrittenUnturnedAndTurned(turn: ScreenRotation, size: (Int, Int, Int, Int)) {
        let (width, height, spare, shift) = size
        let source = (0..<(width + 20)).map { UInt32($0 &* 2_654_435_761 >> 8) }
        let columns = turn.crosswise ? height : width
        let strip = TurnStrip(width: width)
        for seed in 0..<20 {
            var numbers = Numbers(state: UInt64(seed) &* 7919 &+ UInt64(width * 131 + height))
            let writes = Self.writes(&numbers, width: Int32(width), height: Int32(height), count: 60 + numbers.next(400))
            let unturned = Self.written(writes, width: Int32(width), height: Int32(height), stride: width, shift: 0, turn: .none,
                                        strip: strip, source: source)
            let memory = Self.written(writes, width: Int32(width), height: Int32(height), stride: columns + spare, shift: shift,
                                      turn: turn, strip: strip, source: source)
            var wrong: String?
            outer: for y in 0..<height {
                for x in 0..<width {
                    let (column, row) = Self.turned(x: x, y: y, width: width, height: height, turn)
                    let got = memory[row * (columns + spare) + column], want = unturned[y * width + x]
                    if got != want {
                        wrong = "canvas pixel (\(x), \(y)) is \(String(got, radix: 16)) at memory (\(column), \(row)), "
                            + "written unturned \(String(want, radix: 16))"
                        break outer
                    }
                }
            }
            let outside = (0..<memory.count).filter { $0 % (columns + spare) >= columns && memory[$0] != Self.sentinel }
            #expect(wrong == nil, "\(turn) \(width)x\(height), seed \(seed), \(writes.count) writes: \(wrong ?? "")")
            #expect(outside.isEmpty, "\(turn) \(width)x\(height), seed \(seed): \(outside.count) pixels written past the canvas")
            if wrong != nil || !outside.isEmpty { return }
        }
    }

    /// The strip holds a turned canvas's last rows until `finish`: before it, the memory
    /// lacks them (what a presenter that forgot it would show); after it, it has them.
    @Test(arguments: [ScreenRotation.quarter, .threeQuarters])
    func aTurnedCanvasWritesItsLastRowsOnlyAtFinish(turn: ScreenRotation) {
        let (width, height) = (24, 40)
        var memory = [UInt32](repeating: Self.sentinel, count: width * height)
        var format = SDL_PixelFormat()
        format.format = SDL_PIXELFORMAT_RGB888.rawValue
        let strip = TurnStrip(width: width)
        memory.withUnsafeMutableBufferPointer { memory in
            withUnsafeMutablePointer(to: &format) { format in
                let canvas = WindowCanvas(pixels: memory.baseAddress!, stride: height, width: Int32(width), height: Int32(height),
                                          format: format, turn: turn, strip: strip)
                canvas.fill(row: 5, from: 0, to: Int32(width), pixel: 0x123456)
                #expect(!memory.contains(0x123456))
                canvas.finish()
                #expect(memory.filter { $0 == 0x123456 }.count == width)
            }
        }
    }
} }
