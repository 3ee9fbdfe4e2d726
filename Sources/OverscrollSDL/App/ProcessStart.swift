#if canImport(Glibc)
import Glibc
#endif

/// When this process started, for `--verbose`'s time to the first frame: the kernel's
/// start time (in clock ticks since boot, /proc/self/stat) against CLOCK_BOOTTIME, so
/// the dynamic loader's and the runtime's start-up count too. Resolution: one tick (10 ms).
enum ProcessStart {
    static func secondsAgo() -> Double? {
        guard let file = fopen("/proc/self/stat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Fields after the command name (which may hold spaces) start after the last ')'.
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        // starttime is field 22; after ')' the first field is 3 (state).
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        let boot = Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
        return boot - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
