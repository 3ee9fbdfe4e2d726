#if canImport(Glibc)
import Glibc
#endif

/// Whether the process can still get some memory, asked before a load that would need it
/// rather than found out by an allocation that fails: Swift ends the process on a failed
/// allocation, so a reload under `ulimit -v` that needed more than was left aborted the
/// running window. The probe maps the amount (no access, nothing reserved from RAM) and
/// unmaps it at once: the address-space limit (RLIMIT_AS) counts such a mapping as it
/// counts the heap, so the answer is the kernel's own. A cgroup's memory limit cannot be
/// probed this way (it counts pages used, not mapped; past it the kernel's OOM killer
/// acts, not a failed allocation): `bytes` is compared with what it leaves.
enum AddressSpace {
    /// nil when `bytes` can be had now; else what the limit leaves, in words.
    static func shortfall(for bytes: Int) -> String? {
        guard bytes > 0 else { return nil }
        if let cgroup = CgroupMemory.current(), bytes > cgroup.headroom { return cgroup.words }
        let probe = mmap(nil, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        if probe != MAP_FAILED {
            munmap(probe, bytes)
            return nil
        }
        var limit = rlimit()
        guard getrlimit(RLIMIT_AS_VALUE, &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return "the system has no address space left"
        }
        let allowed = Int(clamping: limit.rlim_cur)
        return "the address-space limit (ulimit -v) of \(allowed >> 20) MiB leaves \(max(0, allowed - inUse()) >> 20) MiB"
    }

    /// The process's mapped bytes (/proc/self/statm's first field, in pages).
    private static func inUse() -> Int {
        let pages = SystemFile.read("/proc/self/statm", limit: 4096)?.split(separator: " ").first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// RLIMIT_AS as getrlimit wants it (an enum in glibc's headers).
private let RLIMIT_AS_VALUE = __rlimit_resource_t(RLIMIT_AS.rawValue)
