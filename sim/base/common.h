/* sim/base/common.h: types and error macros shared by every gpusim module.
 *
 * Time: one global time base in picoseconds (ps_t). Cycle counts of a clock
 * domain are cycle_t. Both are uint64_t; PS_NEVER / CYCLE_NEVER mean "no
 * future work".
 *
 * Error channels (STYLE.md item 13):
 *  (a) user errors (config, workload) are collected in a struct diag (see
 *      sim/base/diag.h) and reported with file:line:key; the CLI exits 2.
 *  (b) simulator bugs: sim_panic() / SIM_ASSERT print file:line and abort.
 *  (c) library calls return negative enum gs_err codes (include/gpusim.h).
 */
#ifndef GPUSIM_SIM_BASE_COMMON_H
#define GPUSIM_SIM_BASE_COMMON_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t ps_t;    /* picoseconds since simulation start */
typedef uint64_t cycle_t; /* cycles of one clock domain */

#define PS_NEVER UINT64_MAX
#define CYCLE_NEVER UINT64_MAX

/* Host cache line; per-thread domains are padded to it. */
#define CACHE_LINE 64
#define CACHE_ALIGNED _Alignas(CACHE_LINE)

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#if defined(__GNUC__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define NORETURN __attribute__((noreturn))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#define NORETURN
#define PRINTF_LIKE(f, a)
#endif

/* Simulator bug: print "gpusim: panic at file:line: message" and abort. */
NORETURN void sim_panic_at(const char *file, int line, const char *fmt, ...) PRINTF_LIKE(3, 4);
#define sim_panic(...) sim_panic_at(__FILE__, __LINE__, __VA_ARGS__)

/* Failed assertion: "gpusim: panic at file:line: assertion 'cond' failed: message". */
NORETURN void sim_assert_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    PRINTF_LIKE(4, 5);

/* Always-on invariant check (cheap checks only; these stay in release). */
#define SIM_ASSERT(cond, ...)                                                                  \
    do {                                                                                       \
        if (UNLIKELY(!(cond)))                                                                 \
            sim_assert_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                           \
    } while (0)

/* Debug-only invariant check (per-cycle structure checks, STYLE.md item 4). */
#ifdef NDEBUG
#define SIM_DEBUG_ASSERT(cond, ...) ((void)0)
#else
#define SIM_DEBUG_ASSERT(cond, ...) SIM_ASSERT(cond, __VA_ARGS__)
#endif

/* Defensive "cannot happen" branches: ALWAYS(x) / NEVER(x) evaluate to x in
 * release builds and panic in debug builds when the claim is false. */
#ifdef NDEBUG
#define ALWAYS(x) (x)
#define NEVER(x) (x)
#else
#define ALWAYS(x) ((x) ? 1 : (sim_panic("ALWAYS(%s) was false", #x), 0))
#define NEVER(x) ((x) ? (sim_panic("NEVER(%s) was true", #x), 1) : 0)
#endif

/* Allocation for setup paths (configuration, statistics, engine and model
 * construction), never the per-cycle hot path: on failure they panic with
 * the caller's file:line, since there is no way to continue. n or size 0
 * allocate 1 byte so the result is never NULL. */
void *sim_xmalloc_at(const char *file, int line, size_t n);
void *sim_xcalloc_at(const char *file, int line, size_t n, size_t size);
void *sim_xrealloc_at(const char *file, int line, void *p, size_t n);
char *sim_xstrdup_at(const char *file, int line, const char *s);
#define xmalloc(n) sim_xmalloc_at(__FILE__, __LINE__, (n))
#define xcalloc(n, size) sim_xcalloc_at(__FILE__, __LINE__, (n), (size))
#define xrealloc(p, n) sim_xrealloc_at(__FILE__, __LINE__, (p), (n))
#define xstrdup(s) sim_xstrdup_at(__FILE__, __LINE__, (s))

static inline uint64_t u64_round_up(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }

/* NOTE(line-alloc): blocks of whole cache lines, aligned to a line, or
 * NULL (free() releases them). For per-SM state that the serial step
 * allocates at kernel start: from one thread, consecutive allocations of
 * different SMs would otherwise share lines, and SMs run on different host
 * threads write them (false sharing). line_calloc zeroes; line_grow copies
 * the first `old` bytes into a new block of n bytes and frees p (realloc
 * keeps neither alignment nor rounding). */
void *line_alloc(size_t n);
void *line_calloc(size_t n, size_t size);
void *line_grow(void *p, size_t old, size_t n);
static inline int is_pow2_u64(uint64_t v) { return v && !(v & (v - 1)); }

/* NOTE(divq): x / d for a divisor fixed at set-up (a clock period in ps)
 * without a divide instruction: the SM's tick and the memory partition's
 * steps turn the engine's picosecond time into cycles with a 64-bit
 * division, tens of cycles on many x86 cores, about 40 per GPU cycle on
 * gtx480. m = floor((2^64 - 1) / d); the high half of x * m is floor(x / d)
 * or at most two less (x * m / 2^64 > x / d - (1 + d) / d), and r * d <= x
 * always, so two steps of "one more while the remainder is >= d" are exact
 * for every 64-bit x and d >= 1. tests/test_divq.c compares with the division. */
struct divq {
    uint64_t d; /* divisor */
    uint64_t m; /* floor((2^64 - 1) / d) */
};
static inline struct divq divq_make(uint64_t d) { return (struct divq){d, d ? UINT64_MAX / d : 0}; }
static inline uint64_t divq(const struct divq *q, uint64_t x)
{
    uint64_t r = (uint64_t)(((unsigned __int128)x * q->m) >> 64);
    r += x - r * q->d >= q->d; /* two steps, without branches: how many it */
    r += x - r * q->d >= q->d; /* takes depends on x, a loop would mispredict */
    return r;
}

#endif /* GPUSIM_SIM_BASE_COMMON_H */
