/* workloads/prodcons/host.c: driver for prodcons (producer and consumer
 * blocks of one launch exchanging items through a ring of slots).
 *
 * Input: one random 32-bit parameter per item from --seed. Launch: blocks
 * of 128 threads, as many as can be resident at once (wl_max_resident_ctas,
 * capped per size class), half producers and half consumers; the ring has
 * fewer slots than items so every slot is reused over several laps, and
 * consuming costs 3x producing, so producers also wait for free slots.
 * Check (all exact, integers): the checksum of every item (so every item
 * was produced, delivered intact and consumed exactly once), the 64-bit
 * grand total, the final ticket counters (n_items plus one failed claim per
 * block of each role) and every slot's final sequence number (empty after
 * its last lap). */
#include <stdlib.h>

#include "wl.h"

#define ITEM_WORDS 128 /* as in kernel.cu: words per item = threads per block */

/* Payload word and checksum contribution, as in kernel.cu. */
static uint32_t produce_word(uint32_t p, uint32_t k, int rounds)
{
    uint32_t x = p ^ (k * 0x9E3779B9u);
    for (int r = 0; r < rounds; r++) {
        x = x * 1664525u + 1013904223u;
        x ^= x >> 13;
    }
    return x;
}

static uint32_t consume_word(uint32_t v, uint32_t k, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        v = (v ^ (v >> 7)) * 0x2C1B3C6Du;
        v += 0x297A2D39u;
    }
    return v * (2u * k + 1u);
}

static int run(struct wl *w)
{
    int n_items = (int)wl_pick(w, 96, 8192, 81920, 491520);
    int n_slots = (int)wl_pick(w, 8, 64, 128, 256);
    unsigned max_grid = (unsigned)wl_pick(w, 8, 1024, 1024, 1024);
    int prod_rounds = 8, cons_rounds = 24; /* mixing rounds per payload word */
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    uint32_t *param = wl_host_alloc(w, (size_t)n_items * sizeof(uint32_t));
    uint32_t *want = wl_host_alloc(w, (size_t)n_items * sizeof(uint32_t));
    uint32_t *got = wl_host_alloc(w, (size_t)n_items * sizeof(uint32_t));
    uint32_t *seq = wl_host_alloc(w, (size_t)n_slots * sizeof(uint32_t));
    uint32_t *want_seq = wl_host_alloc(w, (size_t)n_slots * sizeof(uint32_t));
    uint64_t want_total = 0;
    for (int i = 0; i < n_items; i++) {
        param[i] = wl_rng_u32(&r);
        uint32_t sum = 0;
        for (uint32_t k = 0; k < ITEM_WORDS; k++)
            sum += consume_word(produce_word(param[i], k, prod_rounds), k, cons_rounds);
        want[i] = sum;
        want_total += sum;
    }
    /* Slot s was used by items s, s + n_slots, ...; after the last one (lap
     * L) its consumer left 2L + 2. Slots never used keep 0. */
    for (int s = 0; s < n_slots; s++)
        want_seq[s] = s < n_items ? 2u * (uint32_t)((n_items - 1 - s) / n_slots) + 2u : 0u;

    gs_function *k = wl_kernel(w, "prodcons");
    unsigned grid = wl_max_resident_ctas(w, k, ITEM_WORDS, 0);
    if (grid > max_grid)
        grid = max_grid;
    if (wl_ok(w) && grid < 2)
        wl_fail(w, WL_INPUT_ERROR, "prodcons needs 2 resident CTAs, the GPU holds %u", grid);
    int n_prod = (int)grid / 2;
    uint64_t dparam = wl_alloc_copy(w, param, (size_t)n_items * sizeof(uint32_t));
    uint64_t dring = wl_alloc(w, (size_t)n_slots * ITEM_WORDS * sizeof(uint32_t));
    uint64_t dseq = wl_alloc(w, (size_t)n_slots * sizeof(uint32_t));
    uint64_t dtickets = wl_alloc(w, 2 * sizeof(uint32_t));
    uint64_t dout = wl_alloc(w, (size_t)n_items * sizeof(uint32_t));
    uint64_t dtotal = wl_alloc(w, sizeof(uint64_t));
    if (wl_ok(w))
        wl_note(w, "%d producer and %u consumer CTAs, %d items, %d slots", n_prod, grid - (unsigned)n_prod, n_items,
                n_slots);
    void *params[] = {&dparam, &dring, &dseq, &dtickets, &dout, &dtotal, &n_items, &n_slots, &n_prod,
                      &prod_rounds, &cons_rounds};
    wl_launch(w, k, grid, 1, 1, ITEM_WORDS, 1, 1, 0, params);
    uint32_t tickets[2] = {0, 0};
    uint64_t total = 0;
    wl_dtoh(w, got, dout, (size_t)n_items * sizeof(uint32_t));
    wl_dtoh(w, seq, dseq, (size_t)n_slots * sizeof(uint32_t));
    wl_dtoh(w, tickets, dtickets, sizeof tickets);
    wl_dtoh(w, &total, dtotal, sizeof total);
    if (wl_ok(w)) {
        wl_check_u32(w, "out", got, want, (size_t)n_items);
        wl_check_u32(w, "seq", seq, want_seq, (size_t)n_slots);
        wl_check(w, total == want_total, "total: got %llu, expected %llu", (unsigned long long)total,
                 (unsigned long long)want_total);
        uint32_t want_p = (uint32_t)(n_items + n_prod), want_c = (uint32_t)n_items + grid - (uint32_t)n_prod;
        wl_check(w, tickets[0] == want_p && tickets[1] == want_c, "tickets: got %u/%u, expected %u/%u", tickets[0],
                 tickets[1], want_p, want_c);
    }
    free(param);
    free(want);
    free(got);
    free(seq);
    free(want_seq);
    return wl_finish(w);
}

WL_REGISTER(prodcons) = {
    .name = "prodcons",
    .summary = "producer and consumer blocks of one launch passing items through a ring of flagged slots",
    .mirrors = "GPU producer/consumer queue (sequence-numbered MPMC ring buffer, persistent-kernel pipelines)",
    .stresses = "inter-block flag/data handoff, fences, spinning, atomic ticket counters",
    .flags = WL_SHARING,
    .sizes = {"96 items, 8 slots, 8 CTAs", "8192 items, 64 slots", "81920 items, 128 slots",
              "491520 items, 256 slots"},
    .run = run,
};
