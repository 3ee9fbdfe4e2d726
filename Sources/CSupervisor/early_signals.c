// The window between exec and Swift's main: loading the libraries takes tens of
// milliseconds, and a SIGHUP (a reload sent just after `systemctl start`) or a SIGTERM
// in that window ended the process by its default action. A constructor runs as soon as
// the program's own code can; it catches the signals the program defines and keeps them
// for `SignalHandling`, which takes over in main. Only in the overscroll program itself:
// test runners and the bench link this code too and keep their own dispositions.
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t early_stop = 0;
static volatile sig_atomic_t early_hangup = 0;

static void early_handler(int sig) {
    if (sig == SIGHUP) early_hangup = 1;
    else if (early_stop == 0) early_stop = sig;
}

__attribute__((constructor)) static void overscroll_catch_early_signals(void) {
    if (strcmp(program_invocation_short_name, "overscroll") != 0) return;
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

int overscroll_early_stop_signal(void) { return early_stop; }
int overscroll_early_hangup(void) { return early_hangup; }
