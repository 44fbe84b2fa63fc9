/* tests/tap.h: a small TAP (Test Anything Protocol) producer for gpusim tests.
 *
 * Each test program prints a plan ("1..N", or at the end with tap_exit()),
 * one "ok N - name" / "not ok N - name" line per check, with "# file:line"
 * diagnostics that show both operands on failure, "# SKIP" and "Bail out!".
 * The checks never depend on NDEBUG. Output is line-buffered so that ctest
 * and prove see partial output if a test dies.
 *
 * Usage:
 *   int main(void) {
 *       tap_plan(3);                 // or tap_no_plan() ... tap_exit()
 *       TAP_OK(x == 1, "x is one");
 *       TAP_EQ_U64(a, b, "counters match");
 *       TAP_STREQ(s, "abc", "string");
 *       return tap_exit();
 *   }
 */
#ifndef GPUSIM_TESTS_TAP_H
#define GPUSIM_TESTS_TAP_H

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* State of one test program. A test binary is single-threaded at the TAP
 * level: only the main thread reports. Kept in one static instance per
 * translation unit because a test program is one translation unit plus
 * support files that do not report. */
struct tap_state {
    int planned;   /* number of planned checks, -1 = plan printed at end */
    int run;       /* checks reported so far */
    int failed;    /* checks that failed */
};

static struct tap_state tap_st = {-1, 0, 0};

static inline void tap_plan(int n)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    tap_st.planned = n;
    printf("1..%d\n", n);
}

static inline void tap_no_plan(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    tap_st.planned = -1;
}

static inline void tap_diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("# ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
}

static inline int tap_result(int ok, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    tap_st.run++;
    if (!ok)
        tap_st.failed++;
    printf("%sok %d - ", ok ? "" : "not ", tap_st.run);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    if (!ok)
        printf("#   failed at %s:%d\n", file, line);
    return ok;
}

static inline void tap_skip(int n, const char *why)
{
    for (int i = 0; i < n; i++) {
        tap_st.run++;
        printf("ok %d # SKIP %s\n", tap_st.run, why);
    }
}

static inline void tap_bail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("Bail out! ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    fflush(stdout);
    exit(255);
}

/* Print the trailing plan if none was given; returns the exit status. */
static inline int tap_exit(void)
{
    if (tap_st.planned < 0)
        printf("1..%d\n", tap_st.run);
    else if (tap_st.planned != tap_st.run) {
        printf("# planned %d checks but ran %d\n", tap_st.planned, tap_st.run);
        return 1;
    }
    if (tap_st.failed)
        printf("# %d of %d checks failed\n", tap_st.failed, tap_st.run);
    return tap_st.failed ? 1 : 0;
}

/* A registry of named test functions run in order, each announced with a
 * diagnostic line: `static const struct tap_test tests[] = {{"name", fn}, ...};`
 * then `return tap_run(tests, ARRAY_LEN(tests));` from main. */
struct tap_test {
    const char *name;
    void (*fn)(void);
};

static inline int tap_run(const struct tap_test *tests, size_t n)
{
    tap_no_plan();
    for (size_t i = 0; i < n; i++) {
        tap_diag("--- %s", tests[i].name);
        tests[i].fn();
    }
    return tap_exit();
}

#define TAP_OK(cond, ...) tap_result(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define TAP_EQ_U64(got, want, ...)                                                        \
    do {                                                                                  \
        uint64_t tap_g_ = (uint64_t)(got), tap_w_ = (uint64_t)(want);                     \
        if (!tap_result(tap_g_ == tap_w_, __FILE__, __LINE__, __VA_ARGS__))               \
            printf("#   got:  %" PRIu64 " (%s)\n#   want: %" PRIu64 " (%s)\n", tap_g_,    \
                   #got, tap_w_, #want);                                                  \
    } while (0)

#define TAP_EQ_I64(got, want, ...)                                                        \
    do {                                                                                  \
        int64_t tap_g_ = (int64_t)(got), tap_w_ = (int64_t)(want);                        \
        if (!tap_result(tap_g_ == tap_w_, __FILE__, __LINE__, __VA_ARGS__))               \
            printf("#   got:  %" PRId64 " (%s)\n#   want: %" PRId64 " (%s)\n", tap_g_,    \
                   #got, tap_w_, #want);                                                  \
    } while (0)

#define TAP_NEAR(got, want, tol, ...)                                                     \
    do {                                                                                  \
        double tap_g_ = (double)(got), tap_w_ = (double)(want);                           \
        if (!tap_result(fabs(tap_g_ - tap_w_) <= (double)(tol), __FILE__, __LINE__,       \
                        __VA_ARGS__))                                                     \
            printf("#   got:  %.17g (%s)\n#   want: %.17g +- %g\n", tap_g_, #got, tap_w_, \
                   (double)(tol));                                                        \
    } while (0)

#define TAP_STREQ(got, want, ...)                                                         \
    do {                                                                                  \
        const char *tap_g_ = (got), *tap_w_ = (want);                                     \
        int tap_eq_ = (tap_g_ && tap_w_) ? strcmp(tap_g_, tap_w_) == 0 : tap_g_ == tap_w_; \
        if (!tap_result(tap_eq_, __FILE__, __LINE__, __VA_ARGS__))                        \
            printf("#   got:  \"%s\"\n#   want: \"%s\"\n", tap_g_ ? tap_g_ : "(null)",    \
                   tap_w_ ? tap_w_ : "(null)");                                           \
    } while (0)

/* got contains the substring want */
#define TAP_CONTAINS(got, want, ...)                                                      \
    do {                                                                                  \
        const char *tap_g_ = (got), *tap_w_ = (want);                                     \
        if (!tap_result(tap_g_ && tap_w_ && strstr(tap_g_, tap_w_) != NULL, __FILE__,     \
                        __LINE__, __VA_ARGS__))                                           \
            printf("#   text: \"%s\"\n#   lacks: \"%s\"\n", tap_g_ ? tap_g_ : "(null)",  \
                   tap_w_ ? tap_w_ : "(null)");                                           \
    } while (0)

#endif /* GPUSIM_TESTS_TAP_H */
