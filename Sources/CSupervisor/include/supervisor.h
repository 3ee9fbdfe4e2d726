#ifndef OVERSCROLL_SUPERVISOR_H
#define OVERSCROLL_SUPERVISOR_H
#include <sys/types.h>

/// Starts `argv` (PATH lookup for argv[0]) under a small supervisor process, so that
/// nothing the command starts outlives its refresh or the app:
///
/// - the supervisor dies with the thread that called this (PR_SET_PDEATHSIG), even when the
///   app is SIGKILLed, and then ends the command's whole tree;
/// - it is a child subreaper (PR_SET_CHILD_SUBREAPER): descendants that detach (`setsid`,
///   double fork) are reparented to it instead of init, so it can find and end them;
/// - the command runs in its own process group (pgid = its pid), stdin on /dev/null,
///   stdout and stderr on the given descriptors, signal mask and dispositions reset.
///
/// The supervisor's own exit status mirrors the command's (same exit code, or killed by the
/// same signal). Signals to the supervisor:
///   SIGTERM, SIGINT, SIGHUP  end the command: SIGTERM to its group, `termination_grace`
///                            seconds, then SIGKILL to every descendant;
///   SIGUSR1                  SIGKILL to every descendant at once (the app is quitting).
/// When the command exits by itself, processes it left behind get `stray_grace` seconds to
/// finish (and close the output), then every remaining descendant is killed.
///
/// Returns the supervisor's pid, or -errno when the command could not be started (ENOENT:
/// not found; the supervisor has then been reaped already).
pid_t ovs_supervised_spawn(const char *file, char *const argv[], int stdout_fd, int stderr_fd,
                           double stray_grace, double termination_grace);

/// Test hook: the pids whose parent is `parent`, scanned from /proc. Returns how many were
/// found (at most `capacity` are stored).
int ovs_children_of(pid_t parent, pid_t *pids, int capacity);

#endif
