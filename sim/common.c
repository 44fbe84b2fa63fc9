/* sim/common.c: the panic channel for simulator bugs. */
#include "sim/common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void sim_panic_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "gpusim: panic at %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

void sim_assert_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "gpusim: panic at %s:%d: assertion '%s' failed: ", file, line, cond);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}
