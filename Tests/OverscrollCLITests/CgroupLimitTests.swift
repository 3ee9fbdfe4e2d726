import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A memory cgroup of the test's own, with a limit, for the program to run in (as a kiosk
/// unit's `MemoryMax=` puts it in one): a child of this process's memory cgroup (v1's
/// memory hierarchy, or v2's where the memory controller is on). nil where none can be
/// made here (not root, no writable cgroup file system).
final class MemoryCgroup {
    let directory: String
    private let version: Int

    init?(limitMiB: Int) {
        guard let cgroups = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
        var made: (String, Int)?
        for line in cgroups.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { continue }
            if parts[1].split(separator: ",").contains("memory") {
                made = ("/sys/fs/cgroup/memory" + parts[2], 1)
            } else if parts[0] == "0", parts[1].isEmpty, made == nil,
                      (try? String(contentsOfFile: "/sys/fs/cgroup\(parts[2])/cgroup.subtree_control", encoding: .utf8))?.contains("memory") == true {
                made = ("/sys/fs/cgroup" + parts[2], 2)
            }
        }
        guard let (parent, version) = made else { return nil }
        directory = parent + (parent.hasSuffix("/") ? "" : "/") + "overscroll-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        self.version = version
        guard mkdir(directory, 0o755) == 0 else { return nil }
        let file = version == 1 ? "/memory.limit_in_bytes" : "/memory.max"
        guard (try? String(limitMiB << 20).write(toFile: directory + file, atomically: false, encoding: .utf8)) != nil else {
            rmdir(directory)
            return nil
        }
    }

    /// The command line that runs `arguments` (a program and its own) inside the cgroup.
    func running(_ arguments: [String]) -> [String] {
        ["/bin/sh", "-c", "echo $$ > \"$0/cgroup.procs\" && exec \"$@\"", directory] + arguments
    }

    deinit { rmdir(directory) }
}

@Suite struct CgroupLimitTests {
    /// Content that the cgroup's limit cannot hold is refused in words before it is read
    /// (past the limit the kernel's OOM killer would end the app, report and all): 69 at
    /// start, naming the limit. The same content loads outside the cgroup.
    @Test(.enabled(if: MemoryCgroup(limitMiB: 48) != nil, "needs a memory cgroup this test can make (root)"))
    func contentTheCgroupCannotHoldIsRefusedAtStartWith69() throws {
        let cgroup = try #require(MemoryCgroup(limitMiB: 48))
        let content = CLI.temporaryPath("big.txt")
        // 16 MiB of text: rows cost up to 3x their bytes, more than 48 MiB leaves.
        let line = String(repeating: "x", count: 99) + "\n"
        try String(repeating: line, count: (16 << 20) / 100).write(toFile: content, atomically: false, encoding: .utf8)
        let arguments = [CLI.executable, "replay", "Assets/gestures/fling.txt", "--content", content, "--no-sound"]
        let refused = try CLI.run(cgroup.running(arguments), through: "/bin/sh")
        #expect(refused.status == 69, "\(refused.stderr)")
        #expect(refused.stderr.contains("not enough memory") && refused.stderr.contains("MemoryMax="), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        let loaded = try CLI.run(Array(arguments.dropFirst()))
        #expect(loaded.status == 0, "\(loaded.stderr)")
    }
}
