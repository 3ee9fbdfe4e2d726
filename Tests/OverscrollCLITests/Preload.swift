import Foundation

/// A small C library compiled for a test and put in the program's LD_PRELOAD: it makes a
/// moment or a fault exact from outside the program (a signal sent while the loader
/// starts it, a `read` that never returns as on a stalled network mount) without any
/// hook in the program itself.
enum Preload {
    /// The library's path, or nil when no C compiler is found or the source fails to build.
    static func build(_ source: String, named name: String) -> String? {
        let compilers = ["cc", "gcc", "clang"].compactMap(Tools.find) + ["/opt/swift/usr/bin/clang"]
        guard let compiler = compilers.first(where: { FileManager.default.isExecutableFile(atPath: $0) }),
              let file = try? CLI.write(source, to: name + ".c") else { return nil }
        let library = CLI.temporaryPath(name + ".so")
        let r = try? CLI.run([compiler, "-shared", "-fPIC", "-o", library, file, "-ldl"], through: compiler)
        return r?.status == 0 ? library : nil
    }

    /// `read` that never returns for a descriptor whose path contains "stalled-mount"
    /// (as on a hard NFS mount whose server is gone); every other read is the system's.
    static let stalledMount: String? = build("""
    #define _GNU_SOURCE
    #include <stdio.h>
    #include <string.h>
    #include <sys/syscall.h>
    #include <unistd.h>
    ssize_t read(int fd, void *buf, size_t n) {
        char link[64], target[4096];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t len = readlink(link, target, sizeof target - 1);
        if (len > 0) {
            target[len] = 0;
            if (strstr(target, "stalled-mount")) for (;;) pause();
        }
        return syscall(SYS_read, fd, buf, n);
    }
    """, named: "stalled-mount")
}
