// The refresh command's supervisor. Everything after fork() runs in a copy of a
// multithreaded process, so it uses only async-signal-safe system calls: no malloc, no
// stdio, no locks (Swift's runtime included).
#define _GNU_SOURCE
#include "supervisor.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int parse_int(const char *s, const char *end, long *out) {
    long v = 0;
    int any = 0;
    while (s < end && *s == ' ') s++;
    while (s < end && *s >= '0' && *s <= '9') { v = v * 10 + (*s - '0'); s++; any = 1; }
    *out = v;
    return any;
}

/// The parent pid from /proc/PID/stat ("pid (comm) state ppid …"); comm may hold spaces
/// and parentheses, so parse from the last ')'.
static pid_t parent_of(const char *pid_text) {
    char path[64];
    size_t n = strlen(pid_text);
    if (n > 20) return -1;
    memcpy(path, "/proc/", 6);
    memcpy(path + 6, pid_text, n);
    memcpy(path + 6 + n, "/stat", 6);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buf[512];
    ssize_t got = read(fd, buf, sizeof buf);
    close(fd);
    if (got <= 0) return -1;
    char *close_paren = NULL;
    for (ssize_t i = got - 1; i >= 0; i--) if (buf[i] == ')') { close_paren = buf + i; break; }
    if (!close_paren || close_paren + 4 >= buf + got) return -1;
    // ") S ppid"
    long ppid;
    if (!parse_int(close_paren + 4, buf + got, &ppid)) return -1;
    return (pid_t)ppid;
}

struct linux_dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

int ovs_children_of(pid_t parent, pid_t *pids, int capacity) {
    int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return 0;
    int found = 0;
    char buf[4096] __attribute__((aligned(8)));
    for (;;) {
        long n = syscall(SYS_getdents64, dir, buf, sizeof buf);
        if (n <= 0) break;
        for (long off = 0; off < n;) {
            struct linux_dirent64 *entry = (struct linux_dirent64 *)(buf + off);
            off += entry->d_reclen;
            const char *name = entry->d_name;
            if (name[0] < '1' || name[0] > '9') continue;
            if (parent_of(name) != parent) continue;
            long pid;
            if (!parse_int(name, name + strlen(name), &pid)) continue;
            if (found < capacity) pids[found] = (pid_t)pid;
            found++;
        }
    }
    close(dir);
    return found;
}

/// Closes every descriptor except those in `keep` (ascending, -1 entries ignored): the
/// supervisor never execs, so close-on-exec descriptors (other refreshes' pipes, the
/// report) would otherwise stay open in it for the command's lifetime.
static void close_all_except(const int *keep, int count) {
    unsigned int from = 3;
    for (int i = 0; i < count; i++) {
        if (keep[i] < (int)from) continue;
        if ((unsigned int)keep[i] > from) {
            if (syscall(SYS_close_range, from, (unsigned int)keep[i] - 1, 0) != 0) {
                for (unsigned int fd = from; fd < (unsigned int)keep[i]; fd++) close((int)fd);
            }
        }
        from = (unsigned int)keep[i] + 1;
    }
    if (syscall(SYS_close_range, from, ~0U, 0) != 0) {
        for (unsigned int fd = from; fd < 65536; fd++) close((int)fd);
    }
}

static void sort3(int *a) {
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (a[j] < a[i]) { int t = a[i]; a[i] = a[j]; a[j] = t; }
}

static void note_exit(pid_t pid, int status, pid_t command, int *command_status, int *command_done) {
    if (pid == command) { *command_status = status; *command_done = 1; }
}

/// SIGKILL to the command's group and to every descendant, round after round (a killed
/// process's own children are reparented to us), until no child is left.
static void kill_everything(pid_t command, int *command_status, int *command_done) {
    pid_t children[256];
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    for (int round = 0; round < 10000; round++) {
        kill(-command, SIGKILL);
        int n = ovs_children_of(getpid(), children, 256);
        for (int i = 0; i < n && i < 256; i++) kill(children[i], SIGKILL);
        int status;
        pid_t pid;
        int reaped = 0;
        while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
            note_exit(pid, status, command, command_status, command_done);
            reaped = 1;
        }
        if (pid < 0 && errno == ECHILD) {
            // No child left; members of the group that were not our children die with
            // SIGKILL already sent, and any orphans among them come back to us.
            if (kill(-command, 0) != 0) return;
        }
        if (!reaped) {
            struct timespec wait = {0, 5 * 1000 * 1000};
            sigtimedwait(&chld, NULL, &wait);
        }
    }
}

/// Ends the supervisor with the command's status: the same exit code, or the same signal.
static void mirror_and_exit(int status) {
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        // No core file of the supervisor for the command's crash.
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, NULL);
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, sig);
        kill(getpid(), sig);
        sigprocmask(SIG_UNBLOCK, &only, NULL);
        _exit(128 + sig);
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

static void supervise(pid_t command, double stray_grace, double termination_grace) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGUSR1);
    int command_status = 0, command_done = 0;
    double terminate_by = -1, strays_until = -1;
    for (;;) {
        int status;
        pid_t pid;
        while ((pid = waitpid(-1, &status, WNOHANG)) > 0) note_exit(pid, status, command, &command_status, &command_done);
        double now = now_seconds();
        if (terminate_by >= 0 && (command_done || now >= terminate_by)) break;
        if (command_done && terminate_by < 0) {
            if (strays_until < 0) strays_until = now + stray_grace;
            // Nothing left in the group and no child (detached ones are our children by
            // now, or still the children of a living member): done.
            if (kill(-command, 0) != 0 && ovs_children_of(getpid(), NULL, 0) == 0) break;
            if (now >= strays_until) break;
        }
        double wait = 0.05;
        if (terminate_by >= 0 && terminate_by - now < wait) wait = terminate_by - now;
        if (strays_until >= 0 && strays_until - now < wait) wait = strays_until - now;
        if (command_done && wait > 0.01) wait = 0.01;  // orphans give no SIGCHLD until they end
        if (wait < 0) wait = 0;
        struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
        int sig = sigtimedwait(&set, NULL, &ts);
        if (sig == SIGUSR1) break;
        if ((sig == SIGTERM || sig == SIGINT || sig == SIGHUP) && terminate_by < 0) {
            kill(-command, SIGTERM);
            terminate_by = now_seconds() + termination_grace;
        }
    }
    kill_everything(command, &command_status, &command_done);
    mirror_and_exit(command_done ? command_status : (SIGKILL & 0x7f));
}

/// The command, in the child the supervisor forked: its own group, stdin on /dev/null,
/// the given outputs, no signal blocked; an exec that fails reports its errno on `report`.
__attribute__((noreturn))
static void become_command(const char *file, char *const argv[], int stdout_fd, int stderr_fd, int report) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    setpgid(0, 0);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0 && null != 0) { dup2(null, 0); close(null); }
    dup2(stdout_fd, 1);
    dup2(stderr_fd, 2);
    if (stdout_fd > 2) close(stdout_fd);
    if (stderr_fd > 2 && stderr_fd != stdout_fd) close(stderr_fd);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execvp(file, argv);
    int code = errno;
    (void)!write(report, &code, sizeof code);
    _exit(127);
}

/// The supervisor, in the child the app forked. Dies (gracefully: it ends the tree) with
/// the calling thread of `app`; starts the command and supervises it to the end.
__attribute__((noreturn))
static void become_supervisor(pid_t app, int report, const char *file, char *const argv[], int stdout_fd, int stderr_fd,
                              double stray_grace, double termination_grace) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != app) _exit(127);  // the app died before the line above
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    setpgid(0, 0);
    // Its own signals: only what sigtimedwait takes stays blocked; the rest default.
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, NULL);
    }
    int keep[3] = {report, stdout_fd, stderr_fd};
    sort3(keep);
    close_all_except(keep, 3);
    sigset_t waited;
    sigemptyset(&waited);
    sigaddset(&waited, SIGCHLD);
    sigaddset(&waited, SIGTERM);
    sigaddset(&waited, SIGINT);
    sigaddset(&waited, SIGHUP);
    sigaddset(&waited, SIGUSR1);
    sigprocmask(SIG_SETMASK, &waited, NULL);

    pid_t command = fork();
    if (command < 0) {
        int code = errno;
        (void)!write(report, &code, sizeof code);
        _exit(127);
    }
    if (command == 0) become_command(file, argv, stdout_fd, stderr_fd, report);
    setpgid(command, command);  // also done by the child; whichever runs first wins the race
    close(report);
    close(stdout_fd);
    close(stderr_fd);
    supervise(command, stray_grace, termination_grace);
    _exit(127);
}

pid_t ovs_supervised_spawn(const char *file, char *const argv[], int stdout_fd, int stderr_fd,
                           double stray_grace, double termination_grace) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -errno;
    pid_t app = getpid();

    sigset_t all, old;
    sigfillset(&all);
    // No handler of the app's may run in the child between fork and the mask reset.
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t supervisor = fork();
    if (supervisor < 0) {
        int code = errno;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        close(report[0]);
        close(report[1]);
        return -code;
    }
    if (supervisor == 0) {
        become_supervisor(app, report[1], file, argv, stdout_fd, stderr_fd, stray_grace, termination_grace);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(report[1]);
    int code = 0;
    ssize_t got;
    do { got = read(report[0], &code, sizeof code); } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof code) {
        int status;
        while (waitpid(supervisor, &status, 0) < 0 && errno == EINTR) {}
        return -(code ? code : ECHILD);
    }
    return supervisor;
}
