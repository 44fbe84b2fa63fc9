/* sim/base/common.c: the panic channel for simulator bugs and the setup-path allocators. */
#include "sim/base/common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void *sim_xmalloc_at(const char *file, int line, size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        sim_panic_at(file, line, "out of memory (%zu bytes)", n);
    return p;
}

void *sim_xcalloc_at(const char *file, int line, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        sim_panic_at(file, line, "out of memory (%zu x %zu bytes)", n, size);
    return p;
}

void *sim_xrealloc_at(const char *file, int line, void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        sim_panic_at(file, line, "out of memory (%zu bytes)", n);
    return q;
}

void *line_alloc(size_t n)
{
    return aligned_alloc(CACHE_LINE, u64_round_up(n ? n : 1, CACHE_LINE));
}

void *line_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    void *p = line_alloc(n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

void *line_grow(void *p, size_t old, size_t n)
{
    void *q = line_alloc(n);
    if (!q)
        return NULL;
    if (p)
        memcpy(q, p, old < n ? old : n);
    free(p);
    return q;
}

char *sim_xstrdup_at(const char *file, int line, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = sim_xmalloc_at(file, line, n);
    memcpy(p, s, n);
    return p;
}
