/* sim/mem/repl_srrip.c: static re-reference interval prediction (SRRIP-HP,
 * Jaleel et al., ISCA 2010), the usual baseline of cache-replacement papers.
 *
 * Per-line word rp[line]: the re-reference prediction value (RRPV, 2 bits:
 * 0 = near re-reference .. 3 = distant). A new line gets 2 ("long"), a hit
 * sets 0. The paper's victim search takes the first way with RRPV 3 and,
 * when there is none, adds 1 to every way and looks again. Equivalently
 * (and without changing state in victim, as struct ta_repl_ops requires):
 *   victim: lowest INVALID way, else the first non-RESERVED way with the
 *           largest RRPV m;
 *   on_insert over a valid line: add 3 - m to every other valid way of the
 *           set (the ageing the search would have done), then give the new
 *           line 2.
 * RESERVED lines (fills outstanding) are neither candidates nor aged; an
 * install into an INVALID way ages nothing, as in the paper.
 */
#include "sim/mem/tagarray.h"

#define RRPV_MAX 3u    /* 2-bit RRPV: distant re-reference */
#define RRPV_INSERT 2u /* a new line: long re-reference interval */

static void srrip_hit(struct tagarray *t, uint32_t line) { t->rp[line] = 0; }

static void srrip_insert(struct tagarray *t, uint32_t line, enum ta_state prev)
{
    if (prev >= TA_VALID) {
        uint32_t base = line / t->assoc * t->assoc;
        uint64_t m = t->rp[line]; /* the replaced line's RRPV, still there */
        for (uint32_t i = base; i < base + t->assoc; i++)
            if (i != line && t->state[i] >= TA_VALID && t->rp[i] > m)
                m = t->rp[i];
        uint64_t d = RRPV_MAX - m;
        if (d)
            for (uint32_t i = base; i < base + t->assoc; i++)
                if (i != line && t->state[i] >= TA_VALID)
                    t->rp[i] += d;
    }
    t->rp[line] = RRPV_INSERT;
}

static int32_t srrip_victim(const struct tagarray *t, uint32_t set)
{
    uint32_t base = set * t->assoc;
    int32_t best = -1;
    uint64_t best_rp = 0;
    for (uint32_t w = 0; w < t->assoc; w++) {
        uint32_t i = base + w;
        uint8_t s = t->state[i];
        if (s == TA_INVALID)
            return (int32_t)i;
        if (s != TA_RESERVED && (best < 0 || t->rp[i] > best_rp)) {
            best_rp = t->rp[i];
            best = (int32_t)i;
        }
    }
    return best;
}

const struct ta_repl_ops ta_repl_srrip = {
    .name = "srrip",
    .on_hit = srrip_hit,
    .on_insert = srrip_insert,
    .victim = srrip_victim,
};
