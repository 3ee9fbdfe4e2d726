#if canImport(Glibc)
import Glibc
#endif

/// A `BufferChain` of plain memory, shown nowhere: two buffers handed out in turn, the one
/// committed last "on screen", shown from any pixel (as DRM's dumb buffers are). The
/// console's CPU path without a DRM device, for a benchmark (`ReplayRunner.Options`'s
/// `memoryBuffers`): the presenter does all it does on the console but the ioctls. With a
/// `limit`, the bytes a driver has for the buffers (bochs-drm's 16 MiB less fbcon's),
/// buffers that would pass it are refused (ENOMEM), so the ring steps down (`RingRoom`) as
/// it does on that driver. `pinned`: shown from the first row only, as a framebuffer that
/// does not pan and qxl are (the presenter pins the list's ring to the buffer's top).
final class MemoryBufferChain: BufferChain {
    var most: Int { 2 }
    private let limit: Int
    private let pinned: Bool
    private var refusal: String?
    var showsFromAnyPixel: Bool { true }
    var showsFromAnyRow: Bool { !pinned }
    var broken: Bool { false }
    private var memory: [UnsafeMutablePointer<UInt32>] = []
    private var shape: BufferShape?
    private var handedOut = 0
    private var next = 0

    init(limit: Int = .max, pinned: Bool = false) { (self.limit, self.pinned) = (limit, pinned) }

    deinit { for buffer in memory { buffer.deallocate() } }

    func waitFrame(timeoutMs: Int32) -> Bool { true }

    func acquire(_ shape: BufferShape, most: Int32, timeoutMs: Int32) -> ChainBuffer? {
        // Another size of memory: new buffers, as a driver's (made once a size, not a frame).
        if shape.columns != self.shape?.columns || shape.rows != self.shape?.rows {
            for buffer in memory { buffer.deallocate() }
            memory = []
            self.shape = nil
            let count = Int(shape.columns) * Int(shape.rows)
            guard count * 4 * self.most <= limit else {
                refusal = "a buffer of \(shape.columns)x\(shape.rows) in memory: Cannot allocate memory"
                return nil
            }
            // On a page, as a dumb buffer's mapping is (malloc's would start 16 bytes into
            // one: every cache line of a turned buffer's band cut in two).
            memory = (0..<self.most).map { _ in
                UnsafeMutableRawPointer.allocate(byteCount: count * 4, alignment: 4096).bindMemory(to: UInt32.self, capacity: count)
            }
            handedOut = 0
            next = 0
        }
        self.shape = shape
        let index = next
        next = (next + 1) % max(1, min(Int(most), self.most))
        let fresh = index >= handedOut
        handedOut = max(handedOut, index + 1)
        return ChainBuffer(pixels: memory[index], stride: Int(shape.columns), index: index, fresh: fresh)
    }

    func takeMemoryRefusal() -> String? {
        defer { refusal = nil }
        return refusal
    }

    func damage(x: Int32, y: Int32, width: Int32, height: Int32) {}
    func commit() -> Bool { true }
}
