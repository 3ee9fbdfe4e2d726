import CSDL
import OverscrollKit
import RowSources
#if canImport(Glibc)
import Glibc
#endif

/// The UI font's bytes, read once at start and held in memory for as long as a font is
/// open from them. SDL_ttf opening the path itself read it on the main thread with no
/// limit (a font on a stalled network mount held the start for ever) and FreeType goes on
/// reading glyphs from the file as rows need them, inside frames: a mount that stalls
/// later would stall a frame. From memory, no frame reads a file, and the one read is
/// made off the main thread with a deadline, as content and config are (`ReadDeadline`).
public final class FontFile: Sendable {
    /// A font file larger than this is refused: the largest common ones (Noto CJK
    /// collections) are about 20 MB.
    public static let maxBytes = 64 << 20

    public let path: String
    /// Owned: freed in deinit; nothing writes it after `read`.
    nonisolated(unsafe) private let bytes: UnsafeMutableRawPointer
    public let count: Int

    private init(path: String, bytes: UnsafeMutableRawPointer, count: Int) {
        self.path = path
        self.bytes = bytes
        self.count = count
    }

    deinit { free(bytes) }

    /// The font at `path`: opened without waiting (a FIFO or device is refused), read
    /// whole within `deadline` seconds. Refusals are `.input` (exit 66), one line naming
    /// the file and the fix.
    public static func read(_ path: String, deadline: Double = ReadDeadline.seconds) throws(LaunchError) -> FontFile {
        let shown = "'\(OutsideText.escaped(TextLines.cut(path)))'"
        let outcome = ReadDeadline.run("font-read", within: deadline) { () -> Result<FontFile, LaunchError> in
            Result { () throws(LaunchError) in try readWhole(path, shown: shown) }
        }
        guard let outcome else {
            throw .input("font \(shown) was not read: no answer within \(Int(deadline)) s (a stalled network mount?); "
                         + "pass --font a file on a disk that answers")
        }
        return try outcome.get()
    }

    /// An SDL_ttf font from the bytes at `pixelSize` (face `index` of a collection); nil
    /// with SDL's error set. The font reads these bytes: it must not outlive this object.
    func open(pixelSize: Int32, index: Int = 0) -> OpaquePointer? {
        guard let stream = SDL_RWFromConstMem(bytes, Int32(count)) else { return nil }
        return TTF_OpenFontIndexRW(stream, 1, pixelSize, index)
    }

    private static func readWhole(_ path: String, shown: String) throws(LaunchError) -> FontFile {
        let fix = "pass --font with a .ttf or .otf file"
        let fd: Int32
        do { fd = try InputOpening.open(path, what: "font", fix: fix) } catch { throw .input(error.message) }
        defer { close(fd) }
        var info = stat()
        let size = fstat(fd, &info) == 0 ? Int(info.st_size) : 0
        guard size <= maxBytes else {
            throw .input("font \(shown) is \(size >> 20) MiB, more than a font file may be (\(maxBytes >> 20) MiB); \(fix)")
        }
        // One byte more than the size says: a file that grew is read to its end or refused.
        let capacity = max(1, size + 1)
        guard let bytes = malloc(capacity) else {
            throw .input("font \(shown) was not loaded: not enough memory for its \(size >> 10) KiB; raise the limit or \(fix)")
        }
        var count = 0
        while true {
            if count == capacity {
                free(bytes)
                throw .input("font \(shown) changed while it was read; \(fix)")
            }
            let n = Glibc.read(fd, bytes + count, capacity - count)
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                free(bytes)
                throw .input("font \(shown) cannot be read: \(reason); \(fix)")
            }
            count += n
        }
        return FontFile(path: path, bytes: bytes, count: count)
    }
}
