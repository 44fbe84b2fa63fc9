/* partitions/l2/l2_mib.c: L2-side Merge Information Buffer (see l2_mib.h).
 *
 * NOTE(oq3-merge-len): spec OQ-3 (4 bits for up to 16 merges): the field
 * saturates at 15, so 15 and 16 requests look alike to the controller; the
 * exact count is never needed by the scheduler, only an order. Stored as
 * the plain count (1..15), not count - 1, so 0 never appears in hardware.
 */
#include "partitions/l2/l2_mib.h"

#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"

void l2_mib_init(struct l2_mib *m, uint32_t n_entries, bool after_original)
{
    memset(m, 0, sizeof *m);
    m->n = n_entries;
    m->after_original = after_original;
    m->valid = xcalloc(n_entries, 1);
    m->merge_len = xcalloc(n_entries, 1);
    m->departed = xcalloc(n_entries, 1);
    m->age = xcalloc(n_entries, sizeof *m->age);
}

void l2_mib_fini(struct l2_mib *m)
{
    free(m->valid);
    free(m->merge_len);
    free(m->departed);
    free(m->age);
    memset(m, 0, sizeof *m);
}

static bool ready(const struct l2_mib *m, uint32_t e)
{
    return m->valid[e] && (m->departed[e] || !m->after_original);
}

/* Apply a change to entry e keeping n_ready exact. */
#define MIB_CHANGE(m, e, body)                                                                     \
    do {                                                                                           \
        bool was_ = ready(m, e);                                                                   \
        body;                                                                                      \
        bool is_ = ready(m, e);                                                                    \
        (m)->n_ready += (uint32_t)is_ - (uint32_t)was_;                                            \
    } while (0)

void l2_mib_merge(struct l2_mib *m, uint32_t e, uint32_t count, uint64_t age_in, bool total)
{
    SIM_ASSERT(e < m->n, "l2_mib: entry %u of %u", e, m->n);
    /* NOTE(mib-reuse): the first merge of an entry's life (count 2) starts
     * from age 0: a merge that arrived after the entry's fill left the
     * controller (its MIB entry already freed) must not leak into the next
     * miss that reuses the MSHR entry. */
    uint64_t base = count <= 2 ? 0 : m->age[e];
    MIB_CHANGE(m, e, {
        m->merge_len[e] = l2_mib_enc_merge(count);
        m->age[e] = total ? l2_mib_sat15(age_in) : l2_mib_sat15(base + age_in);
        m->valid[e] = 1;
    });
}

void l2_mib_depart(struct l2_mib *m, uint32_t e)
{
    SIM_ASSERT(e < m->n, "l2_mib: entry %u of %u", e, m->n);
    MIB_CHANGE(m, e, {
        m->departed[e] = 1;
        m->valid[e] = 0;
        m->age[e] = 0;
    });
}

void l2_mib_free(struct l2_mib *m, uint32_t e)
{
    SIM_ASSERT(e < m->n, "l2_mib: entry %u of %u", e, m->n);
    MIB_CHANGE(m, e, {
        m->departed[e] = 0;
        m->valid[e] = 0;
        m->age[e] = 0;
        m->merge_len[e] = 0;
    });
}

int32_t l2_mib_pick(const struct l2_mib *m, bool by_age)
{
    if (m->n_ready == 0)
        return -1;
    int32_t best = -1;
    uint32_t best_sc = 0;
    for (uint32_t e = 0; e < m->n; e++) {
        if (!ready(m, e))
            continue;
        uint32_t sc = by_age ? m->age[e] : m->merge_len[e];
        if (best < 0 || sc > best_sc) { /* strictly larger: ties keep the lowest index */
            best = (int32_t)e;
            best_sc = sc;
        }
    }
    return best;
}

void l2_mib_sent(struct l2_mib *m, uint32_t e)
{
    SIM_ASSERT(e < m->n, "l2_mib: entry %u of %u", e, m->n);
    MIB_CHANGE(m, e, {
        m->valid[e] = 0;
        m->age[e] = 0;
    });
}
