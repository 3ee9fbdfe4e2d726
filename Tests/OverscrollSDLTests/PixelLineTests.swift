import Testing
@testable import OverscrollSDL

/// A pixel line is compared as two 64-bit words with `slot`'s bytes masked (`PixelLine.shows`,
/// `same`): that holds only while the fields lie where the mask says, and must say what the
/// fields say, one by one.
extension SDLSuite { @Suite struct PixelLineTests {
    @Test func theFieldsLieWhereTheWordsAreReadFrom() {
        #expect(MemoryLayout<PixelLine>.size == 16)
        #expect(MemoryLayout<PixelLine>.offset(of: \.fill) == 0)
        #expect(MemoryLayout<PixelLine>.offset(of: \.left) == 4)
        #expect(MemoryLayout<PixelLine>.offset(of: \.right) == 6)
        #expect(MemoryLayout<PixelLine>.offset(of: \.imageLine) == 8)
        #expect(MemoryLayout<PixelLine>.offset(of: \.slot) == 10)
        #expect(MemoryLayout<PixelLine>.offset(of: \.image) == 12)
    }

    @Test func twoWordsSayWhatTheFieldsSay() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ n: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % n
        }
        // Few values a field, so that lines often agree in all but one.
        func line() -> PixelLine {
            var l = PixelLine(fill: UInt32(next(2)))
            l.left = Int16(next(2)); l.right = Int16(next(2) + 1)
            l.imageLine = UInt16(next(2)); l.slot = UInt16(next(2)); l.image = UInt32(next(2))
            return l
        }
        var agreed = 0
        for _ in 0..<4000 {
            var a = line(), b = line()
            let fields = a.fill == b.fill && a.left == b.left && a.right == b.right && a.imageLine == b.imageLine
                && a.image == b.image
            #expect(a.shows(b) == fields)
            #expect(PixelLine.same(&a, &b) == fields)
            if fields { agreed += 1 }
        }
        #expect(agreed > 50)
    }

    @Test func agreeingStopsAtTheFirstLineThatShowsOtherPixels() {
        var a = (0..<40).map { PixelLine(fill: UInt32($0)) }, b = a
        // A slot of its own (another frame's images) is not a difference.
        b[5].slot = 9
        #expect(PixelLine.agreeing(&a, &b, count: 40) == 40)
        b[17].imageLine = 1
        #expect(PixelLine.agreeing(&a, &b, count: 40) == 17)
        #expect(PixelLine.agreeing(&a, &b, count: 10) == 10)
        #expect(PixelLine.agreeing(&a, &b, count: 0) == 0)
    }

    @Test func aLineNotKnownShowsNoneAndChangesEveryPixel() {
        var line = PixelLine(fill: 0)
        #expect(!PixelLine.unknown.shows(line))
        #expect(PixelLine.change(from: .unknown, to: line, width: 40) == (0, 40))
        line.left = 3; line.right = 9; line.image = 7
        #expect(PixelLine.change(from: .unknown, to: line, width: 40) == (0, 40))
        #expect(PixelLine.change(from: PixelLine(fill: 0), to: line, width: 40) == (3, 9))
    }
} }
