/* tests/test_divq.c: NOTE(divq) in sim/base/common.h, the division by a
 * divisor fixed at set-up, against the division instruction: the clock
 * periods of every preset's domains (ps), small and large divisors, edge
 * dividends (0, multiples and their neighbours, the top of the range) and
 * a million random pairs. */
#include <stdint.h>

#include "sim/base/common.h"
#include "tap.h"

static uint64_t xs(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Every dividend near 0, near multiples k*d for a spread of k, and near
 * the top of the 64-bit range. */
static int check_divisor(uint64_t d)
{
    struct divq q = divq_make(d);
    int bad = 0;
    for (uint64_t x = 0; x < 4 * d + 8 && x < 100000; x++)
        bad += divq(&q, x) != x / d;
    for (uint64_t k = 1; k <= (UINT64_MAX / d - 1) / 3; k = k * 3 + 1) /* no wrap-around: k * 3 + 1 < max / d */
        for (int e = -2; e <= 2; e++) {
            uint64_t x = k * d + (uint64_t)(int64_t)e;
            bad += divq(&q, x) != x / d;
        }
    for (uint64_t i = 0, x = UINT64_MAX; i < 100000 && (d > UINT64_MAX / 4 || i < 3 * d + 8); i++, x--)
        bad += divq(&q, x) != x / d;
    return bad;
}

int main(void)
{
    tap_no_plan();
    /* periods of 700 MHz, 924 MHz, 1.4 GHz, 1 GHz, 1.2 GHz, 3.5 GHz and odd ones */
    static const uint64_t periods[] = {1429, 1082, 714, 1000, 833, 286, 1, 2, 3, 7, 64, 1023, 1024, 1025};
    int bad = 0;
    for (unsigned i = 0; i < sizeof periods / sizeof periods[0]; i++)
        bad += check_divisor(periods[i]);
    TAP_OK(bad == 0, "clock periods and small divisors: exact at edges (%d wrong)", bad);

    bad = 0;
    static const uint64_t big[] = {(1ull << 32) - 1, 1ull << 32, (1ull << 32) + 1, 1ull << 63, (1ull << 63) + 1,
                                   UINT64_MAX - 1, UINT64_MAX};
    for (unsigned i = 0; i < sizeof big / sizeof big[0]; i++)
        bad += check_divisor(big[i]);
    TAP_OK(bad == 0, "divisors near 2^32, 2^63 and 2^64: exact (%d wrong)", bad);

    uint64_t s = 0x9E3779B97F4A7C15ull;
    bad = 0;
    for (int i = 0; i < 1000000; i++) {
        uint64_t x = xs(&s), d = xs(&s) >> (xs(&s) % 64);
        if (!d)
            d = 1;
        struct divq q = divq_make(d);
        bad += divq(&q, x) != x / d;
        uint64_t y = x >> (i % 64); /* small dividends too: simulated times start at 0 */
        bad += divq(&q, y) != y / d;
    }
    TAP_OK(bad == 0, "a million random dividends and divisors: exact (%d wrong)", bad);
    return tap_exit();
}
