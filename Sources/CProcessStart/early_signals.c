// The window between exec and Swift's main: loading the libraries takes tens of
// milliseconds, and a SIGHUP (a reload sent just after `systemctl start`) or a SIGTERM
// in that window ended the process by its default action. The catcher is registered in
// `.preinit_array`: in a dynamically linked program the loader runs it right after
// relocation, before any shared library's initialisers (a constructor ran only after all
// of them: SDL's, libstdc++'s, the Swift runtime's, some milliseconds later). It catches
// the signals the program defines and keeps them for `SignalHandling`, which takes over
// in main. Only in the overscroll program itself: test runners and the bench link this
// code too and keep their own dispositions.
//
// The `overscroll` launcher (OverscrollLauncher/launcher.c) closes the window before this:
// it execs this program with every signal blocked, so a signal sent while the loader
// works waits, pending, for the unblocking below (the rest stay blocked until main sets
// their dispositions and clears the mask: SignalHandling.installProcessDefaults).
//
// What runs this early may use only what the loader has already set up: libc is
// relocated, but its own initialiser has not run (program_invocation_short_name is not
// set yet), so the name comes from argv, which the loader passes here.
#define _GNU_SOURCE
#include "early_signals.h"
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>

static volatile sig_atomic_t early_stop = 0;
static volatile sig_atomic_t early_hangup = 0;

static void early_handler(int sig) {
    if (sig == SIGHUP) early_hangup = 1;
    else if (early_stop == 0) early_stop = sig;
}

// 1: run as `overscroll` (through the launcher, which passes its argv[0] on); 2: as
// `overscroll-app` itself; 0: another program that links this code.
static int run_as(const char *path) {
    if (path == NULL) return 0;
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    return strcmp(name, "overscroll") == 0 ? 1 : strcmp(name, "overscroll-app") == 0 ? 2 : 0;
}

static void catch_early_signals(int argc, char **argv, char **envp) {
    (void)envp;
    int named = argc < 1 ? 0 : run_as(argv[0]);
    if (named == 0) return;
    // The process table shows the name that was run (ps -C overscroll, pgrep -x,
    // top), not the file the launcher exec'd.
    if (named == 1) prctl(PR_SET_NAME, "overscroll", 0, 0, 0);
    static const int caught[] = {SIGHUP, SIGTERM, SIGINT, SIGALRM, SIGXCPU, SIGPWR};
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = early_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigset_t unblock;
    sigemptyset(&unblock);
    for (unsigned i = 0; i < sizeof caught / sizeof caught[0]; i++) {
        sigaction(caught[i], &action, NULL);
        sigaddset(&unblock, caught[i]);
    }
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
}

// `used`: nothing refers to the entry, and the optimiser must keep it.
__attribute__((section(".preinit_array"), used))
static void (*const catch_early_signals_entry)(int, char **, char **) = catch_early_signals;

int ovs_early_stop_signal(void) { return early_stop; }
int ovs_early_hangup(void) { return early_hangup; }
