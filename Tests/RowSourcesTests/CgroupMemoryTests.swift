import Testing
@testable import RowSources

/// Reading a cgroup's memory limit from its files' text (v2 and v1 as the kernel writes them).
@Suite struct CgroupMemoryTests {
    @Test func v2WithALimitCountsReclaimablePageCacheAsFree() throws {
        let stat = "anon 30000000\nfile 25000000\nkernel 1000000\ninactive_file 15000000\nactive_file 5000000\nshmem 0\n"
        let memory = try #require(CgroupMemory.parse(limit: "104857600\n", usage: "60000000\n", stat: stat))
        #expect(memory.limit == 104_857_600)
        #expect(memory.used == 40_000_000)
        #expect(memory.headroom == 104_857_600 - 40_000_000)
        #expect(memory.words == "the cgroup's memory limit (MemoryMax=) of 100 MiB leaves 61 MiB")
    }

    @Test func noLimitIsNil() {
        #expect(CgroupMemory.parse(limit: "max\n", usage: "60000000\n", stat: nil) == nil)
        // v1 without a limit: 2^63 rounded down to a page.
        #expect(CgroupMemory.parse(limit: "9223372036854771712\n", usage: "1000\n", stat: nil) == nil)
        #expect(CgroupMemory.parse(limit: nil, usage: nil, stat: nil) == nil)
    }

    @Test func overTheLimitLeavesNothing() throws {
        let memory = try #require(CgroupMemory.parse(limit: "1048576", usage: "2097152", stat: "inactive_file 0\n"))
        #expect(memory.headroom == 0)
    }
}
