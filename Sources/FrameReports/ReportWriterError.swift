import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif
/// A report that cannot be written; `description` is one line naming the file and the fix.
public struct ReportWriterError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// A path as a message shows it: whole, so the message says which file (issue 52: a
    /// path cut to 80 characters named none), with controls and bidi overrides escaped.
    public static func shown(_ path: String) -> String { OutsideText.escaped(path) }

    /// A report directory `mkdir` refused (`code`), with the true reason and the fix. On
    /// the kernel's own filesystems (/proc, /sys) mkdir says ENOENT or EACCES for a
    /// directory whose parent is right there: the reason is the filesystem, so that is
    /// what is said.
    public static func cannotCreate(_ directory: String, _ code: Int32) -> ReportWriterError {
        let fix = "pass a writable new or empty directory"
        if let (ancestor, filesystem) = kernelFilesystem(holding: directory) {
            return ReportWriterError("cannot create the report directory \(shown(directory)): \(shown(ancestor)) is on \(filesystem), where no files can be made; \(fix)")
        }
        return ReportWriterError("cannot create the report directory \(shown(directory)): \(FileErrors.posix(code)); \(fix)")
    }

    /// The nearest existing directory above `path`, when it is on one of the kernel's
    /// pseudo filesystems, and that filesystem's name.
    static func kernelFilesystem(holding path: String) -> (String, String)? {
        var ancestor = path
        while true {
            var info = stat()
            if stat(ancestor, &info) == 0 { break }
            guard let slash = ancestor.lastIndex(of: "/") else { ancestor = "."; break }
            ancestor = slash == ancestor.startIndex ? "/" : String(ancestor[..<slash])
        }
        // The filesystem is the one mounted on the longest mount point above it
        // (/proc/self/mounts: device, mount point, type, …; spaces written \040).
        guard let fd = Optional(open("/proc/self/mounts", O_RDONLY | O_CLOEXEC)), fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while bytes.count < 4 << 20 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        var best: (point: String, type: String)?
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2 else { continue }
            let point = String(fields[1]).replacing("\\040", with: " ")
            let inside = point == "/" || ancestor == point || ancestor.hasPrefix(point + "/")
            if inside, point.count >= (best?.point.count ?? 0) { best = (point, String(fields[2])) }
        }
        let kernel: Set = ["proc", "sysfs", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs", "configfs", "bpf", "pstore", "efivarfs", "nsfs"]
        guard let best, kernel.contains(best.type) else { return nil }
        return (ancestor, "the kernel's \(best.type) filesystem")
    }
}
