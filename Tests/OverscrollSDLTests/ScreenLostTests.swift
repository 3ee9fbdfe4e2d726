import CSDL
import Testing
@testable import OverscrollSDL

/// A chain of plain memory that keeps what is written (never fresh after its first
/// hand-out), as a console's dumb buffers keep theirs while another VT is shown.
private final class MemoryChain: BufferChain {
    let width: Int32, height: Int32
    var buffers: [[UInt32]]
    var handedOut: [Bool]
    var next = 0
    init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
        buffers = Array(repeating: Array(repeating: 0, count: Int(width * height)), count: 2)
        handedOut = [false, false]
    }
    var most: Int { 2 }
    func waitFrame(timeoutMs: Int32) -> Bool { true }
    var showsFromAnyPixel: Bool { false }
    func acquire(_ shape: BufferShape, most: Int32, timeoutMs: Int32) -> ChainBuffer? {
        let index = next
        next = (next + 1) % 2
        let fresh = !handedOut[index]
        handedOut[index] = true
        return buffers[index].withUnsafeMutableBufferPointer { ChainBuffer(pixels: $0.baseAddress!, stride: Int(shape.columns), index: index, fresh: fresh) }
    }
    func damage(x: Int32, y: Int32, width: Int32, height: Int32) {}
    func commit() -> Bool { true }
    var broken: Bool { false }
}

extension SDLSuite {
    @Suite struct ScreenLostTests {
        /// What another VT's program showed is not in the buffers' record: after
        /// `screenLost`, the next present writes every pixel of the buffer it shows, not
        /// only the rectangle the frame changed.
        @Test func afterTheScreenIsLostAPresentBringsTheBufferUpWhole() throws {
            let chain = MemoryChain(width: 16, height: 8)
            var why = ""
            let presenter = try #require(SharedMemoryPresenter(chain: chain, capacity: 16 * 8 * 4, currentSize: { (16, 8) },
                                                               reason: "test", bufferName: "a buffer", why: &why))
            let surface = presenter.surface
            func fill(_ value: UInt32) {
                let pixels = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
                for i in 0..<(16 * 8) { pixels[i] = value }
            }
            // Both buffers shown whole, then each brought up to date (nothing stale).
            fill(0x111111)
            for rects in [nil, nil, [SDL_Rect(x: 0, y: 0, w: 1, h: 1)], [SDL_Rect(x: 0, y: 0, w: 1, h: 1)]] { presenter.present(PresentedFrame(kind: .rects, damage: rects)) }
            // Another program drew over them (the record does not know).
            for i in chain.buffers.indices { for p in chain.buffers[i].indices { chain.buffers[i][p] = 0xdead } }
            fill(0x222222)
            presenter.screenLost()
            let shownIndex = chain.next
            presenter.present(PresentedFrame(kind: .rects, damage: [SDL_Rect(x: 0, y: 0, w: 1, h: 1)]))
            #expect(chain.buffers[shownIndex].allSatisfy { $0 == 0x222222 })
        }

        /// Without it, the same present writes only what changed (the record is kept).
        @Test func otherwiseOnlyWhatChangedIsWritten() throws {
            let chain = MemoryChain(width: 16, height: 8)
            var why = ""
            let presenter = try #require(SharedMemoryPresenter(chain: chain, capacity: 16 * 8 * 4, currentSize: { (16, 8) },
                                                               reason: "test", bufferName: "a buffer", why: &why))
            let pixels = presenter.surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
            for i in 0..<(16 * 8) { pixels[i] = 0x111111 }
            for rects in [nil, nil, [SDL_Rect(x: 0, y: 0, w: 1, h: 1)], [SDL_Rect(x: 0, y: 0, w: 1, h: 1)]] { presenter.present(PresentedFrame(kind: .rects, damage: rects)) }
            for i in chain.buffers.indices { for p in chain.buffers[i].indices { chain.buffers[i][p] = 0xdead } }
            for i in 0..<(16 * 8) { pixels[i] = 0x222222 }
            let shownIndex = chain.next
            presenter.present(PresentedFrame(kind: .rects, damage: [SDL_Rect(x: 0, y: 0, w: 1, h: 1)]))
            #expect(chain.buffers[shownIndex][0] == 0x222222)
            #expect(chain.buffers[shownIndex].filter { $0 == 0xdead }.count == 16 * 8 - 1)
        }
    }
}
