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

    /// `rename` onto a report file that is slow (1.5 s, a loaded kiosk's disk) or never
    /// returns (a stalled one): `SLOW_RENAME` names the file's end ("trace.json"),
    /// `SLOW_RENAME_FOREVER` set makes it stall.
    static let slowRename: String? = build("""
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <stdlib.h>
    #include <string.h>
    #include <unistd.h>
    int rename(const char *from, const char *to) {
        static int (*real)(const char *, const char *);
        if (!real) real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
        const char *end = getenv("SLOW_RENAME");
        size_t n = end ? strlen(end) : 0, m = strlen(to);
        if (n && m >= n && strcmp(to + m - n, end) == 0) {
            if (getenv("SLOW_RENAME_FOREVER")) for (;;) pause();
            usleep(1500000);
        }
        return real(from, to);
    }
    """, named: "slow-rename")
}
