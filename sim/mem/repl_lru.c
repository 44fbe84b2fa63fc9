/* sim/mem/repl_lru.c: true LRU replacement, the caches' default.
 *
 * Per-line word rp[line]: the tag array's use stamp at the line's last use
 * (install or hit); larger = more recent. Victim: the lowest INVALID way,
 * else the non-RESERVED way with the smallest stamp; none when every way is
 * RESERVED. The tag array inlines on_hit and on_insert for this policy
 * (NOTE(lru-inline) in tagarray.h): keep them identical to the code there.
 */
#include "sim/mem/tagarray.h"

int32_t ta_victim_oldest(const struct tagarray *t, uint32_t set)
{
    uint32_t base = set * t->assoc;
    int32_t best = -1;
    uint64_t best_rp = UINT64_MAX;
    for (uint32_t w = 0; w < t->assoc; w++) {
        uint32_t i = base + w;
        uint8_t s = t->state[i];
        if (s == TA_INVALID)
            return (int32_t)i;
        if (s != TA_RESERVED && t->rp[i] < best_rp) {
            best_rp = t->rp[i];
            best = (int32_t)i;
        }
    }
    return best;
}

static void lru_use(struct tagarray *t, uint32_t line) { t->rp[line] = ++t->stamp; }

static void lru_insert(struct tagarray *t, uint32_t line, enum ta_state prev)
{
    (void)prev;
    lru_use(t, line);
}

const struct ta_repl_ops ta_repl_lru = {
    .name = "lru",
    .on_hit = lru_use,
    .on_insert = lru_insert,
    .victim = ta_victim_oldest,
};
