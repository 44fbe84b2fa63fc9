/* partitions/addrmap.c: the GTX480 address mapping. See addrmap.h. */
#include "partitions/addrmap.h"

#include "sim/common.h"

#define ADDRMAP_LOCAL_BITS 28 /* R bits 0..27 are used: 4096 rows x 16 banks x 4 KB */

void addrmap_init(struct addrmap *m, uint32_t n_ch, uint32_t n_sub_per_ch, uint32_t banks,
                  uint32_t rows, uint32_t l2_sets)
{
    if (n_ch < 1 || n_sub_per_ch != 2 || banks != 16 || rows != 4096 || !is_pow2_u64(l2_sets) ||
        l2_sets > (1u << 19))
        sim_panic("addrmap: unsupported geometry n_ch %u, sub/ch %u, banks %u, rows %u, l2 sets %u "
                  "(the GTX480 map needs 2 sub-partitions, 16 banks, 4096 rows, 2^k sets)",
                  n_ch, n_sub_per_ch, banks, rows, l2_sets);
    m->n_ch = n_ch;
    m->n_sub_per_ch = n_sub_per_ch;
    m->l2_sets = l2_sets;
    m->local_bytes = 1ull << ADDRMAP_LOCAL_BITS;
}

uint64_t addrmap_capacity(const struct addrmap *m) { return m->local_bytes * m->n_ch; }

uint32_t addrmap_local_bank(uint64_t r) { return (uint32_t)(((r >> 8) & 1) | (((r >> 13) & 7) << 1)); }

uint32_t addrmap_local_row(uint64_t r) { return (uint32_t)((r >> 16) & 0xFFF); }

uint32_t addrmap_local_col(uint64_t r) { return (uint32_t)((r & 0xFF) | (((r >> 9) & 0xF) << 8)); }

uint32_t addrmap_local_l2_set(const struct addrmap *m, uint64_t r)
{
    uint64_t r2 = (r & 0xFF) | ((r >> 9) << 8); /* R without the sub-partition bit 8 */
    return (uint32_t)((r2 >> 7) & (m->l2_sets - 1));
}

bool addrmap_decode(const struct addrmap *m, uint64_t a, struct addrmap_loc *out)
{
    if (a >= addrmap_capacity(m))
        return false;
    uint64_t chunk = a >> 8;
    uint64_t r = ((chunk / m->n_ch) << 8) | (a & 0xFF);
    out->channel = (uint32_t)(chunk % m->n_ch);
    out->local = r;
    out->bank = addrmap_local_bank(r);
    out->row = addrmap_local_row(r);
    out->col = addrmap_local_col(r);
    out->sub = out->channel * m->n_sub_per_ch + (uint32_t)((r >> 8) & 1);
    out->l2_set = addrmap_local_l2_set(m, r);
    return true;
}

uint64_t addrmap_encode(const struct addrmap *m, uint32_t channel, uint64_t local)
{
    SIM_ASSERT(channel < m->n_ch && local < m->local_bytes,
               "addrmap: channel %u / local 0x%llx out of range", channel, (unsigned long long)local);
    return ((((local >> 8) * m->n_ch) + channel) << 8) | (local & 0xFF);
}
