#define _GNU_SOURCE
#include "cworker.h"
#include <errno.h>
#include <string.h>
#include <time.h>

int overscroll_thread_name(pthread_t thread, const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = 0;
    return pthread_setname_np(thread, shortened);
}

int overscroll_thread_join_within(pthread_t thread, double seconds) {
    // pthread_clockjoin_np (CLOCK_MONOTONIC) would not jump with the wall clock, but
    // ThreadSanitizer does not intercept it; a wait this short does not care.
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    if (seconds < 0) seconds = 0;
    long long nanoseconds = until.tv_nsec + (long long)((seconds - (long long)seconds) * 1e9);
    until.tv_sec += (time_t)seconds + (time_t)(nanoseconds / 1000000000);
    until.tv_nsec = (long)(nanoseconds % 1000000000);
    return pthread_timedjoin_np(thread, NULL, &until);
}
