// `overscroll` as it is run: a launcher that blocks every signal and execs the program
// (`overscroll-app`) in the same process, so no signal can end it before its handlers are
// in place.
//
// Why: the program loads some 75 shared libraries (SDL's audio, X11 and Wayland stacks,
// the Swift runtime) before any of its code runs, 5-50 ms, and a signal in that window
// takes its default action: a SIGHUP from `systemctl reload` or a SIGTERM just after the
// start killed it. A blocked signal stays pending across exec instead; the program's
// first code (`.preinit_array`, CProcessStart/early_signals.c) installs its handlers and
// unblocks, and the pending signal is handled the defined way (SignalHandling). This file
// is linked static (Package.swift: no loader, no libraries, about 0.1 ms to main), so
// the window left is the launcher's own first instructions.
//
// The program is looked for beside the launcher (a build: .build/release/) and then in
// ../libexec/overscroll/ (the package: /usr/bin/overscroll, /usr/libexec/overscroll/).
// The launcher's own place is never taken from argv[0], which whoever runs it chooses
// (`exec -a`): from /proc/self/exe, else from the path the kernel exec'd (AT_EXECFN),
// else the package's folder (/usr/libexec/overscroll/). argv goes through unchanged, argv[0] too: the
// program names itself by it.
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

static const char *const places[] = {"overscroll-app", "../libexec/overscroll/overscroll-app"};

// Where the package puts the launcher: taken as its folder when it cannot tell where it
// is itself (then only the package's place for the program is looked at).
#define PACKAGE_BIN "/usr/bin/"

// Exit statuses as a shell gives them: not found, found but not runnable.
enum { not_found = 127, not_runnable = 126 };

// The launcher's own directory, with a trailing slash, symlinks resolved (a link to
// /usr/bin/overscroll still finds /usr/libexec): /proc/self/exe, or where /proc is not
// mounted the path execve was given, which the kernel keeps for the program (AT_EXECFN;
// relative to the directory it was run from, which the launcher has not left). Never
// argv[0]: `exec -a /tmp/x/overscroll` would make the launcher run /tmp/x/overscroll-app.
static int own_directory(char *dir, size_t size) {
    ssize_t n = readlink("/proc/self/exe", dir, size - 1);
    if (n > 0) {
        dir[n] = 0;
    } else {
        const char *executed = (const char *)getauxval(AT_EXECFN);
        char resolved[PATH_MAX];
        if (executed == NULL || realpath(executed, resolved) == NULL || strlen(resolved) >= size) return -1;
        memcpy(dir, resolved, strlen(resolved) + 1);
    }
    char *slash = strrchr(dir, '/');
    if (slash == NULL) return -1;
    slash[1] = 0;
    return 0;
}

// One line on stderr; a path over 80 bytes keeps its last 79 after "…" (docs/reference.md's rule
// for echoed paths). Nothing else to do if the write fails.
static void say_cannot_run(const char *path, int error) {
    size_t length = strlen(path);
    const char *shown = length > 80 ? path + length - 79 : path;
    dprintf(STDERR_FILENO,
            "overscroll: cannot run the program %s%s: %s (an incomplete build or install: build with "
            "`swift build`, or reinstall the package)\n",
            length > 80 ? "…" : "", shown, strerror(error));
}

// Before libc's own start-up is done: `.preinit_array` runs first of all the program's
// code, even in a static program.
static void block_every_signal(int argc, char **argv, char **envp) {
    (void)argc, (void)argv, (void)envp;
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, NULL);
}
__attribute__((section(".preinit_array"), used))
static void (*const block_every_signal_entry)(int, char **, char **) = block_every_signal;

int main(int argc, char **argv) {
    (void)argc;

    char dir[PATH_MAX], path[PATH_MAX + 64];
    const size_t first = own_directory(dir, sizeof dir) == 0 ? 0 : 1;
    if (first == 1) snprintf(dir, sizeof dir, "%s", PACKAGE_BIN);
    // The first place that exists and cannot be run is the one to tell; when none
    // exists, the first looked at.
    int error = ENOENT;
    char reported[sizeof path];
    snprintf(reported, sizeof reported, "%s%s", dir, places[first]);
    for (size_t i = first; i < sizeof places / sizeof places[0]; i++) {
        snprintf(path, sizeof path, "%s%s", dir, places[i]);
        execv(path, argv);
        if (errno != ENOENT && error == ENOENT) {
            error = errno;
            memcpy(reported, path, sizeof reported);
        }
    }
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_UNBLOCK, &all, NULL);
    say_cannot_run(reported, error);
    return error == ENOENT ? not_found : not_runnable;
}
