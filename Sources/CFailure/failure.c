// failure.h says what this is for.
#include "failure.h"
#include <stdarg.h>
#include <stdio.h>

void ovs_fail(char *why, int why_size, const char *format, ...) {
    if (!why || why_size <= 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(why, (size_t)why_size, format, args);
    va_end(args);
}
