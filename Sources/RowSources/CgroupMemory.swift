#if canImport(Glibc)
import Glibc
#endif

/// What the memory limit of this process's cgroup still lets it have: a kiosk unit's
/// `MemoryMax=` (cgroup v2 `memory.max`) or a v1 `memory.limit_in_bytes`. Past that limit
/// no allocation fails: the kernel's OOM killer ends the process, report and all. So a
/// load that would cross it (a reload of large content, a window size) is asked about
/// first and refused in words.
public struct CgroupMemory: Equatable, Sendable {
    /// The limit, in bytes.
    public let limit: Int
    /// What the cgroup is charged now, less the page cache the kernel takes back before
    /// it kills anything (inactive and active file pages).
    public let used: Int

    /// Bytes left under the limit.
    public var headroom: Int { max(0, limit - used) }

    /// This process's cgroup's limit; nil where there is none (or no cgroup to read).
    public static func current() -> CgroupMemory? {
        for line in (SystemFile.read("/proc/self/cgroup") ?? "").split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            let path = String(parts[2])
            if parts[0] == "0" && parts[1].isEmpty {
                let dir = "/sys/fs/cgroup\(path)"
                if let found = parse(limit: SystemFile.read(dir + "/memory.max"), usage: SystemFile.read(dir + "/memory.current"),
                                     stat: SystemFile.read(dir + "/memory.stat")) { return found }
            } else if parts[1].split(separator: ",").contains("memory") {
                let dir = "/sys/fs/cgroup/memory\(path)"
                if let found = parse(limit: SystemFile.read(dir + "/memory.limit_in_bytes"), usage: SystemFile.read(dir + "/memory.usage_in_bytes"),
                                     stat: SystemFile.read(dir + "/memory.stat")) { return found }
            }
        }
        return nil
    }

    /// From the files' text: v2's "max" and v1's page-rounded 2^63 mean no limit.
    static func parse(limit: String?, usage: String?, stat: String?) -> CgroupMemory? {
        guard let limit = number(limit), limit < 1 << 60 else { return nil }
        var reclaimable = 0
        for line in (stat ?? "").split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, ["inactive_file", "active_file"].contains(fields[0]) else { continue }
            reclaimable += Int(fields[1]) ?? 0
        }
        let charged = number(usage) ?? 0
        return CgroupMemory(limit: limit, used: max(0, charged - reclaimable))
    }

    /// "the cgroup's memory limit (MemoryMax=) of 512 MiB leaves 40 MiB"
    public var words: String {
        "the cgroup's memory limit (MemoryMax=) of \(limit >> 20) MiB leaves \(headroom >> 20) MiB"
    }

    private static func number(_ text: String?) -> Int? {
        text.flatMap { Int($0.split(whereSeparator: \.isWhitespace).first ?? "") }
    }
}
