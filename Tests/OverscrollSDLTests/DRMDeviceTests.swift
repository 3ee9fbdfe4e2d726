import CDRM
import OverscrollKit
import Testing
@testable import OverscrollSDL
#if canImport(Glibc)
import Glibc
#endif

/// The DRM layer where no DRM device is needed: what it says of paths that are not one,
/// and the facts the console's choice is made from. (The device itself is checked in the
/// virtual machine: script/vm-test.)
@Suite struct DRMDeviceTests {
    private func message(_ path: String?) -> String? {
        do {
            _ = try DRMDevice(path: path)
            return nil
        } catch {
            return error.description
        }
    }

    /// FB_DAMAGE_CLIPS go to every driver but the ones that applied them to the wrong
    /// buffer across a flip: virtio-gpu before the fix (6.8; 6.7.3 and 6.6.15 stable),
    /// vmwgfx before 6.8. Debian 12's 6.1 and a 6.6.14 are not trusted.
    @Test(arguments: [
        ("simpledrm", "6.1.0-28-amd64", true), ("bochs-drm", "6.1.0-28-amd64", true), ("udl", "5.10.0", true),
        ("virtio_gpu", "6.1.0-28-amd64", false), ("virtio_gpu", "6.6.14", false), ("virtio_gpu", "6.6.15", true),
        ("virtio_gpu", "6.7.2", false), ("virtio_gpu", "6.7.3-arch1", true), ("virtio_gpu", "6.8.0", true),
        ("virtio_gpu", "6.12.9+bpo-amd64", true), ("virtio_gpu", "7.0", true), ("virtio_gpu", "garbage", false),
        ("vmwgfx", "6.7.3", false), ("vmwgfx", "6.8.1", true),
    ])
    func damageClipsGoToEveryDriverButTheOnesKnownWrong(driver: String, release: String, trusted: Bool) {
        #expect((ovs_drm_damage_clips_trusted(driver, release) != 0) == trusted)
    }

    @Test func aFileThatIsNotADRMDeviceIsNamedAsSuch() {
        #expect(message("/dev/null")?.hasPrefix("/dev/null is not a DRM display device (") == true)
    }

    @Test func aMissingDeviceSaysItCannotBeOpened() {
        #expect(message("/nonexistent/card7") == "cannot open /nonexistent/card7: No such file or directory")
    }

    @Test func noCardAtAllSaysSo() throws {
        // Only where this machine has no DRM card (the build host): the message for none.
        try #require(access("/dev/dri", F_OK) != 0, "this machine has /dev/dri")
        #expect(message(nil) == "no DRM device in /dev/dri (no display driver loaded?)")
    }

    @Test func renderNodesOfADirectoryWithoutThemAreNone() throws {
        var template = Array("/tmp/ovs-dri-XXXXXX".utf8CString)
        let made = try #require(mkdtemp(&template))
        let directory = String(cString: made)
        defer { rmdir(directory) }
        #expect(ConsoleFacts.gather(directory: directory).renderNodes.isEmpty)
        #expect(ConsoleFacts.gather(directory: directory + "/missing").renderNodes.isEmpty)
        var nodes = [ovs_drm_render_node](repeating: ovs_drm_render_node(), count: 2)
        #expect(ovs_drm_render_nodes(directory + "/missing", &nodes, 2) == -1)
        #expect(ovs_drm_render_nodes(directory, &nodes, 2) == 0)
    }

    @Test func aRenderNodeThatAnswersNoVersionHasNoDriverAndIsNoGPU() throws {
        var template = Array("/tmp/ovs-dri-XXXXXX".utf8CString)
        let made = try #require(mkdtemp(&template))
        let directory = String(cString: made)
        let node = directory + "/renderD128"
        let fd = open(node, O_CREAT | O_WRONLY, 0o600)
        try #require(fd >= 0)
        close(fd)
        defer { unlink(node); rmdir(directory) }
        let facts = ConsoleFacts.gather(directory: directory)
        #expect(facts.renderNodes == [.init(node: node, driver: "", has3D: nil)])
        #expect(ConsoleChoice.decide(.auto, facts).presenter == .dumbBuffers)
    }

    @Test func librariesAreLookedForNotLoaded() {
        #expect(ovs_drm_library_installed("libc.so.6") != 0)
        #expect(ovs_drm_library_installed("libovs-no-such-library.so.1") == 0)
    }

    @Test func aPipeIsNoVirtualTerminal() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var why = [CChar](repeating: 0, count: 100)
        #expect(ovs_vt_take(fds[0], &why, Int32(why.count)) == nil)
        #expect(String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == "not on a virtual console")
    }

    @Test(arguments: [(Int32(60000), "60"), (59940, "59.94"), (75000, "75"), (50500, "50.5"), (60004, "60"), (29970, "29.97")])
    func refreshRatesAsPeopleWriteThem(mhz: Int32, text: String) {
        #expect(FixedHz.text(mhz) == text)
    }
}
