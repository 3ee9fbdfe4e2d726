#ifndef OVERSCROLL_CWORKER_H
#define OVERSCROLL_CWORKER_H

#include <pthread.h>

/// Names a thread (at most 15 bytes are kept): what `top -H` and /proc/PID/task/*/comm
/// show. Glibc declares pthread_setname_np only under _GNU_SOURCE, which Swift's Glibc
/// module does not set.
int ovs_thread_name(pthread_t thread, const char *name);

/// Waits up to `seconds` for `thread` to end and joins it: 0 when joined, ETIMEDOUT when it
/// still runs (then it is not joined). For the same reason as above.
int ovs_thread_join_within(pthread_t thread, double seconds);

#endif
