#ifndef OVERSCROLL_FAILURE_H
#define OVERSCROLL_FAILURE_H

// How the C edge says why it failed: a function that cannot do its work returns its
// failure value (NULL, -1) and writes one line for the Swift side into the caller's
// buffer `why` of `why_size` bytes, cut to fit. `why` may be NULL, or `why_size` 0: the
// caller does not want the reason.
void ovs_fail(char *why, int why_size, const char *format, ...) __attribute__((format(printf, 3, 4)));

#endif
