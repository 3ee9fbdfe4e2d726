import Foundation
import Testing

/// The C edge speaks one way: every function the C targets export is named `ovs_…`, and a
/// C file says why it failed through CFailure's `ovs_fail` (failure.h), not a `fail` of its
/// own. Read off the tree, as SourceSizeTests reads sizes.
@Suite struct CEdgeNamesTests {
    static let root = CLI.packageRoot

    /// Exported names that cannot be `ovs_…`, and why.
    static let unprefixed: [String: String] = [
        // sdldamage.c: libSDL2's calls bind to it by this name (Package.swift exports it).
        "wl_proxy_add_listener": "it takes the place of libwayland-client's",
        "main": "the launcher's entry",
    ]

    /// Files that still define their own error helper, and why (none now: dumb.c's and
    /// wlshm.c's went with CBufferChain, #49).
    static let ownHelper: [String: String] = [:]

    /// The C files of the C targets and the launcher, as paths from the package root.
    static func cFiles() throws -> [String] {
        try SourceSizeTests.sourceFiles().filter { $0.hasSuffix(".c") }
    }

    /// Whether `source` defines an error helper of its own named `fail`.
    static func definesOwnFail(_ source: String) -> Bool {
        CFunctions.find(in: CodeOnly.blanked(source, swift: false)).contains { $0.name == "fail" }
    }

    @Test func theCheckFindsAnUnprefixedExportAndAnOwnFail() {
        let c = """
            static void fail(char *why, int why_size, const char *reason) { (void)why; }
            int overscroll_thing(void) { return 0; }
            static int helper(void) { return 1; }
            int ovs_thing(void) { return 2; }
            __attribute__((noreturn))
            static void leave(int code) { _exit(code); }
            """
        let found = CFunctions.find(in: CodeOnly.blanked(c, swift: false))
        #expect(found.filter(\.exported).map(\.name) == ["overscroll_thing", "ovs_thing"])
        #expect(found.map(\.name).last == "leave")
        #expect(Self.definesOwnFail(c))
        #expect(!Self.definesOwnFail("int ovs_x(void) { ovs_fail(0, 0, \"x\"); return 0; }"))
    }

    @Test func everyExportedCFunctionIsNamedOvs() throws {
        let files = try Self.cFiles()
        #expect(files.contains("Sources/CSupervisor/supervisor.c") && files.contains("Sources/OverscrollLauncher/launcher.c"))
        for file in files {
            let source = try String(contentsOfFile: Self.root + "/" + file, encoding: .utf8)
            for function in CFunctions.find(in: CodeOnly.blanked(source, swift: false))
            where function.exported && !function.name.hasPrefix("ovs_") && Self.unprefixed[function.name] == nil {
                Issue.record("\(file): \(function.name) is exported: name it ovs_\(function.name), or make it static")
            }
        }
    }

    @Test func cFilesSayWhyTheyFailedThroughFailureH() throws {
        for file in try Self.cFiles() {
            let source = try String(contentsOfFile: Self.root + "/" + file, encoding: .utf8)
            let own = Self.definesOwnFail(source)
            if Self.ownHelper[file] == nil {
                #expect(!own, "\(file) defines its own fail(): use ovs_fail (CFailure's failure.h)")
            } else {
                #expect(own, "\(file) no longer defines fail(): take it off CEdgeNamesTests.ownHelper")
            }
        }
    }
}
