import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A config's files found by their bytes: a drop-in whose name is not UTF-8 is read, and a
/// symlink loop, a permission error and a missing file each say what they are.
@Suite struct ConfigPathTests {
    static let script = "Assets/gestures/pull-to-refresh.txt"

    func directory() throws -> String {
        let dir = "/tmp/o41-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Issue 41 item 5: a drop-in whose name is not UTF-8 was looked up under another name (its
    /// bytes decoded with U+FFFD), so its value was lost.
    @Test func aDropInWhoseNameIsNotUTF8IsRead() throws {
        let dir = try directory()
        let path = dir + "/kiosk.toml"
        try "threshold = 90\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(mkdir(path + ".d", 0o755) == 0)
        let name = Array((path + ".d/10-").utf8) + [0xFF, 0xFE] + Array(".toml".utf8)
        let fd = (name + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
        #expect(fd >= 0)
        _ = "\nthreshold = 77\n".withCString { write(fd, $0, 16) }
        close(fd)
        let r = try CLI.run(["check-config", path])
        #expect(r.status == 0, "\(r.stderr)")
        let line = r.stdout.split(separator: "\n").first { $0.hasPrefix("threshold = ") } ?? ""
        #expect(line.hasPrefix("threshold = 77 ") && line.hasSuffix("kiosk.toml.d/10-\\xFF\\xFE.toml:2"), "\(r.stdout)")
    }

    /// Issue 41 item 5: a drop-in directory that is a symlink loop was "no drop-ins"; a config
    /// behind a loop or a permission error was "does not exist".
    @Test func aLoopAPermissionErrorAndAMissingFileEachSayWhatTheyAre() throws {
        let dir = try directory()
        let path = dir + "/kiosk.toml"
        try "flash = false\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(symlink(path + ".d", path + ".d") == 0)
        let loopedDropIns = try CLI.run(["replay", Self.script, "--config", path])
        #expect(loopedDropIns.status == 66, "\(loopedDropIns.stderr)")
        #expect(loopedDropIns.stderr.contains("drop-in directory \(path).d cannot be read: Too many levels of symbolic links (a symlink loop)"), "\(loopedDropIns.stderr)")

        let loop = dir + "/loop.toml"
        #expect(symlink(loop, loop) == 0)
        let looped = try CLI.run(["replay", Self.script, "--config", loop])
        #expect(looped.status == 66 && looped.stderr.contains("Too many levels of symbolic links") && !looped.stderr.contains("does not exist"), "\(looped.stderr)")

        let missing = try CLI.run(["replay", Self.script, "--config", dir + "/none.toml"])
        #expect(missing.status == 66 && missing.stderr.contains("'\(dir)/none.toml' does not exist"), "\(missing.stderr)")

        // Root reads any file: without its capabilities to override file modes, a file
        // of mode 000 is refused as it is for anyone.
        let setpriv = try #require(Tools.find("setpriv"), "setpriv (util-linux) is needed")
        let locked = dir + "/locked.toml"
        try "flash = false\n".write(toFile: locked, atomically: true, encoding: .utf8)
        #expect(chmod(locked, 0) == 0)
        let denied = try CLI.run([setpriv, "--bounding-set=-dac_override,-dac_read_search", CLI.executable, "replay", Self.script, "--config", locked], through: setpriv)
        #expect(denied.status == 66 && denied.stderr.contains("Permission denied") && !denied.stderr.contains("does not exist"), "\(denied.stderr)")
    }
}
