/* tests/test_memmask.c: the byte-mask helpers of sim/mem/memreq.h.
 *
 * mem_mask_range, mem_mask_set_range, mem_mask_all, mem_mask_any_range and
 * mem_mask_copy work a word or an 8-byte group at a time; each is checked
 * against the byte-by-byte definition on every (off, n) pair that matters
 * and on random masks with the patterns the caches produce (empty, full,
 * 4-byte words, single bytes, runs crossing the 64-bit boundary), for every
 * length 0..128.
 */
#include <stdint.h>
#include <string.h>

#include "sim/mem/memreq.h"
#include "tap.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void ref_set_range(uint64_t m[2], uint32_t off, uint32_t n)
{
    for (uint32_t i = off; i < off + n && i < MEM_LINE_BYTES; i++)
        mem_mask_set(m, i);
}

static bool ref_all(const uint64_t m[2], uint32_t off, uint32_t n)
{
    for (uint32_t i = off; i < off + n && i < MEM_LINE_BYTES; i++)
        if (!mem_mask_test(m, i))
            return false;
    return true;
}

static bool ref_any(const uint64_t m[2], uint32_t off, uint32_t n)
{
    for (uint32_t i = off; i < off + n && i < MEM_LINE_BYTES; i++)
        if (mem_mask_test(m, i))
            return true;
    return false;
}

/* A mask of one of the shapes the L1/L2 produce. */
static void random_mask(uint64_t m[2], int shape)
{
    switch (shape) {
    case 0: m[0] = m[1] = 0; break;
    case 1: m[0] = m[1] = ~0ull; break;
    case 2: { /* scattered 4-byte words (stores of 32-bit values) */
        m[0] = m[1] = 0;
        uint64_t r = next_u64();
        for (uint32_t k = 0; k < 32; k++)
            if (r >> k & 1)
                ref_set_range(m, 4 * k, 4);
        break;
    }
    case 3: { /* one run, possibly across the word boundary */
        m[0] = m[1] = 0;
        uint32_t off = (uint32_t)(next_u64() % 128), n = (uint32_t)(next_u64() % 129);
        ref_set_range(m, off, n);
        break;
    }
    default: m[0] = next_u64() & next_u64(); m[1] = next_u64() | next_u64(); break;
    }
}

static void test_ranges(void)
{
    uint32_t bad = 0;
    for (uint32_t off = 0; off <= 130; off++)
        for (uint32_t n = 0; n <= 130; n++) {
            uint64_t a[2] = {0, 0}, b[2] = {0, 0};
            mem_mask_set_range(a, off, n);
            ref_set_range(b, off, n);
            bad += a[0] != b[0] || a[1] != b[1];
            for (int shape = 0; shape < 5; shape++) {
                uint64_t m[2];
                random_mask(m, shape);
                bad += mem_mask_all(m, off, n) != ref_all(m, off, n);
                bad += mem_mask_any_range(m, off, n) != ref_any(m, off, n);
            }
        }
    TAP_EQ_U64(bad, 0, "set_range, all and any_range agree with the byte loops for off, n in 0..130");
}

static void test_copy(void)
{
    uint32_t bad = 0, cases = 0;
    for (int rep = 0; rep < 400; rep++)
        for (int shape = 0; shape < 5; shape++)
            for (uint32_t n = 0; n <= MEM_LINE_BYTES; n += (rep % 4 == 0) ? 1 : 8) {
                uint64_t m[2];
                random_mask(m, shape);
                uint8_t src[MEM_LINE_BYTES], a[MEM_LINE_BYTES + 8], b[MEM_LINE_BYTES + 8];
                for (uint32_t i = 0; i < MEM_LINE_BYTES; i++)
                    src[i] = (uint8_t)next_u64();
                for (uint32_t i = 0; i < sizeof a; i++)
                    a[i] = b[i] = (uint8_t)(0xA5 ^ i);
                mem_mask_copy(a, src, m, n);
                for (uint32_t i = 0; i < n; i++)
                    if (mem_mask_test(m, i))
                        b[i] = src[i];
                bad += memcmp(a, b, sizeof a) != 0;
                cases++;
            }
    TAP_OK(cases > 10000, "%u copy cases", cases);
    TAP_EQ_U64(bad, 0, "mem_mask_copy equals the byte loop (bytes past n and unmasked bytes untouched)");
}

int main(void)
{
    tap_no_plan();
    test_ranges();
    test_copy();
    return tap_exit();
}
