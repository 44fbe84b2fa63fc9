/* sim/mem/coh_cfg.c: key table of the coh.* section (the coherence protocol
 * of the L1Ds and L2 slices; spec coherence-gtsc.md 5) and its cross-section
 * rules. See coh.h and docs/coherence.md. */
#include <stddef.h>

#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/mem/coh.h"

static const char *const coh_proto_names[] = {"none", "gtsc", "tc", NULL};
static const char *const coh_tc_names[] = {"weak", "strong", NULL};
static const char *const coh_rd_names[] = {"tardis", "min_cover", NULL};

static const struct cfg_key coh_keys[] = {
    {"protocol", CFG_ENUM, offsetof(struct coh_cfg, protocol), 0, 0, "none", coh_proto_names,
     "none: non-coherent L1 (fences and acquires invalidate it); gtsc: G-TSC timestamp coherence with "
     "leases in L1 and L2 (docs/coherence.md)"},
    {"gtsc_lease", CFG_UINT, offsetof(struct coh_cfg, gtsc_lease), 1, 1000000, "10", NULL,
     "G-TSC lease length in logical time (spec OQ-2: 001 sweeps 8-20, default 10)"},
    {"gtsc_rd_extend", CFG_ENUM, offsetof(struct coh_cfg, gtsc_rd_extend), 0, 0, "tardis", coh_rd_names,
     "G-TSC L2 read rule: tardis rts = max(rts, wts+lease, warp_ts+lease); min_cover rts = max(rts, warp_ts) "
     "(spec OQ-1)"},
    {"gtsc_ts_bits", CFG_UINT, offsetof(struct coh_cfg, gtsc_ts_bits), 12, 32, "16", NULL,
     "G-TSC timestamp width in bits; near the top all L2 slices reset their timestamps at once and each L1 "
     "follows when a reply tells it (spec 2.11, docs/coherence.md)"},
    {"tc_lease", CFG_UINT, offsetof(struct coh_cfg, tc_lease), 1, 100000000, "500", NULL,
     "TC lease in SM pipeline cycles: a copy is readable until it expires (spec OQ-10: 001 gives none; "
     "500 is the spec's starting point)"},
    {"tc_variant", CFG_ENUM, offsetof(struct coh_cfg, tc_variant), 0, 0, "weak", coh_tc_names,
     "weak: TC-Weak, stores performed at once, a fence waits until the stores' leases expired (RC); strong: "
     "TC-Strong, a store waits at L2 until every lease on its line expired (with "
     "sched.max_outstanding_mem_per_warp = 1: SC)"},
};

void coh_cfg_defaults(struct coh_cfg *c)
{
    *c = (struct coh_cfg){.protocol = COH_PROTO_NONE,
                          .gtsc_lease = 10,
                          .gtsc_rd_extend = COH_RD_TARDIS,
                          .gtsc_ts_bits = 16,
                          .tc_lease = 500,
                          .tc_variant = COH_TC_WEAK};
}

static void coh_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    const struct coh_cfg *c = sec;
    if (c->protocol == COH_PROTO_NONE)
        return;
    const char *nm = c->protocol == COH_PROTO_GTSC ? "gtsc" : "tc";
    if (!all->l1d.enable)
        cfg_check_fail(ck, "coh.protocol",
                       "%s needs l1d.enable = true (with no L1 there is nothing to keep coherent: use "
                       "coh.protocol = none)", nm);
    if (all->l2.write_miss == L2_WRITE_MISS_BYTE_MASK)
        cfg_check_fail(ck, "coh.protocol",
                       "%s needs l2.write_miss = fetch or fetch_write (a byte_mask line has no single "
                       "version for its missing bytes)", nm);
    if (c->protocol == COH_PROTO_GTSC && (1ull << (c->gtsc_ts_bits - 2)) < 64 * (c->gtsc_lease + 1))
        cfg_check_fail(ck, "coh.gtsc_ts_bits",
                       "%llu bits leave too little room above the reset point for coh.gtsc_lease = %llu: the "
                       "quarter of the range kept free must hold 64 leases (2^(bits-2) >= 64 x (lease + 1), "
                       "NOTE(gtsc-reset))",
                       (unsigned long long)c->gtsc_ts_bits, (unsigned long long)c->gtsc_lease);
    if (all->l1d.perfect)
        cfg_check_fail(ck, "coh.protocol", "%s cannot be combined with l1d.perfect (its side store has no leases)",
                       nm);
    if (all->coalesce.volatile_l1 == COAL_VOLATILE_MSHR)
        cfg_check_fail(ck, "coh.protocol",
                       "%s cannot be combined with coalesce.volatile_l1 = mshr (GPGPU-Sim's timing of ld.volatile, "
                       "NOTE(volatile-l1), is built for the non-coherent L1D only)",
                       nm);
}

const struct cfg_section coh_cfg_section = {"coh", "coherence protocol of the L1Ds and L2 slices",
                                           offsetof(struct sim_cfg, coh), coh_keys, ARRAY_LEN(coh_keys), coh_check};
