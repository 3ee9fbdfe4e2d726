#define _GNU_SOURCE
#include "cworker.h"
#include <errno.h>
#include <string.h>
#include <time.h>

int ovs_thread_name(pthread_t thread, const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = 0;
    return pthread_setname_np(thread, shortened);
}

int ovs_thread_join_within(pthread_t thread, double seconds) {
    // The deadline is on the monotonic clock: a kiosk without a battery-backed clock
    // steps its wall clock forward when NTP answers, and a deadline on CLOCK_REALTIME
    // (pthread_timedjoin_np's) would then expire at once, refusing a read that was fine.
    // pthread_clockjoin_np would do, but ThreadSanitizer does not intercept it; it does
    // intercept pthread_tryjoin_np, so poll that, backing off from 50 µs to 2 ms.
    if (seconds < 0) seconds = 0;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    long pause = 50000;
    for (;;) {
        int status = pthread_tryjoin_np(thread, NULL);
        if (status != EBUSY) return status;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double elapsed = (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
        if (elapsed >= seconds) return ETIMEDOUT;
        struct timespec nap = { 0, pause };
        nanosleep(&nap, NULL);
        if (pause < 2000000) pause *= 2;
    }
}
