/* sim/sm/lsu/coalesce.c: global/local memory coalescer. See coalesce.h.
 *
 * NOTE(one-txn-per-line): GPGPU-Sim 3.x coalesces each half-warp separately
 * with the compute-1.3 segment rules (32 B segments for 1 B accesses, 64 B
 * for 2 B, 128 B for 4 B and larger). The spec (baseline-gpu.md 2.6,
 * [proposal]) keeps one transaction per 128 B line for the whole warp and
 * every access size, and uses the shrunk segment only as the payload size of
 * stores, atomics and L1-bypassing reads. So 32 lanes reading 4 B inside one
 * line give 1 transaction here (GPGPU-Sim: 2, one per half-warp).
 *
 * NOTE(atomic-grouping): GPGPU-Sim 3.x (later 3.x releases and 4.x,
 * memory_coalescing_arch_atomic) splits an atomic line into several
 * transactions when two lanes touch the same bytes: a lane joins the first
 * transaction of its line that does not hold its bytes yet, else starts a
 * new one. coalesce.atomic_split = overlap (gtx480 and every preset but
 * gtx480-gpgpusim42) does the same; `sector` (GPGPU-Sim 4.x for Fermi, whose
 * atomics are CACHE_GLOBAL and so use 32-byte segments) also keeps a
 * transaction inside one coalesce.sector. It is how same-address atomics of one warp serialise: each
 * round is its own request, L2 access and reply, as on the hardware, where
 * the L2's atomic unit applies conflicting lanes one after another. Lane
 * order is kept: a later lane on the same bytes always lands in a later
 * transaction, the transactions of a line leave in creation order (the sort
 * below is stable) and reach the L2 in that order (one FIFO per source and
 * destination), which applies each one's lanes in lane order (spec 2.8), so
 * the values are those of one transaction per line. `line` keeps one
 * transaction per line (the spec's reading before the atomic micro-kernels
 * of docs/correlation.md showed what it misses: a warp of 32 lanes on one
 * word cost no more than 32 lanes on 32 words, 149 against GPGPU-Sim's 512
 * cycles per step).
 *
 * NOTE(cache-ops): L1 bypass per spec 2.6: .cg loads and all atomics (as
 * GPGPU-Sim 3.x), plus .cv and .volatile loads [spec proposal]. .cs and .lu
 * are hints GPGPU-Sim 3.x ignores; we treat them as .ca. For stores the L1
 * write policy (l1d.write_policy) decides; we set l1_bypass for .cg, .cv and
 * .volatile stores as a hint (under the default policy every global store
 * goes to L2 anyway).
 *
 * NOTE(volatile-l1): ld.volatile must read the L2: Fermi compiles it to
 * LD.CV, and in gpusim a load's value comes from the cache that answers it,
 * so a volatile spin on an L1D copy would never see another SM's write.
 * coalesce.volatile_l1 says what else it costs. bypass (default, every
 * preset but gtx480-gpgpusim42): the rule above, a segment-sized read that
 * needs only a miss-queue slot. mshr: as close to GPGPU-Sim 3.2.2 and 4.2 as
 * fresh values allow. Their PTX lexer reads `ld.volatile` as `ld` (cache
 * operator .ca; only .cg and atomics bypass their L1D, whose data is timing
 * only there), so a volatile load that misses takes an MSHR entry and
 * brings the line in, and one that finds the line hits. Here a volatile
 * load that would miss is that same ordinary miss (the L1D opens an entry,
 * reads the line and installs it, l1d.c NOTE(vol-mshr)); one that would hit
 * or merge reads the L2 as a bypassing read instead, since the copy may be
 * stale. So GPGPU-Sim's MSHR bound on volatile misses is modelled, and its
 * fast hits are not (a spin on a flag costs an L2 round trip per iteration
 * here, an L1D hit there). graphshare, bound by those MSHRs in GPGPU-Sim,
 * goes from 0.41 to 0.96 of its cycles (docs/correlation.md, session 16).
 * Stores are not concerned (a global store goes to L2 under every write
 * policy); .cv, .cg and the gpu-scope .relaxed/.acquire loads keep the plain
 * bypass.
 */
#include "sim/sm/lsu/coalesce.h"

#include <stddef.h>

#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"

/* ------------------------------------------------------------------ config */


static const char *const atomic_split_names[] = {"line", "overlap", "sector", NULL};

static const char *const volatile_l1_names[] = {"bypass", "mshr", NULL};

static const struct cfg_key coalesce_keys[] = {
    {"line", CFG_SIZE, offsetof(struct coalesce_cfg, line), 32, COAL_MAX_LINE, "128", NULL,
     "coalescing granularity (bytes): one transaction per line touched; equals the L1D line (GPGPU-Sim dl1 128 B)"},
    {"sector", CFG_SIZE, offsetof(struct coalesce_cfg, sector), 4, COAL_MAX_LINE, "32", NULL,
     "sector (bytes): sector-mask unit and smallest store/atomic/bypass-read segment (spec 2.7)"},
    {"atomic_split", CFG_ENUM, offsetof(struct coalesce_cfg, atomic_split), 0, 0, "overlap", atomic_split_names,
     "atomics: overlap = lanes on bytes a transaction already has go to the next one (GPGPU-Sim; same-word lanes "
     "serialise); line = one transaction per line; sector = overlap within one coalesce.sector (GPGPU-Sim 4.x)"},
    {"volatile_l1", CFG_ENUM, offsetof(struct coalesce_cfg, volatile_l1), 0, 0, "bypass", volatile_l1_names,
     "ld.volatile: bypass = an L2 read that skips the L1D (Fermi LD.CV); mshr = one that would miss is an ordinary "
     "L1D miss (MSHR, line fill), as in GPGPU-Sim, whose lexer drops .volatile; one that would hit still reads L2"},
};

static void coalesce_cfg_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    const struct coalesce_cfg *c = sec;
    (void)all;
    if (!is_pow2_u64(c->line))
        cfg_check_fail(ck, "coalesce.line", "line %llu is not a power of two",
                       (unsigned long long)c->line);
    if (!is_pow2_u64(c->sector) || c->sector > c->line)
        cfg_check_fail(ck, "coalesce.sector", "sector %llu must be a power of two no larger than coalesce.line %llu",
                       (unsigned long long)c->sector, (unsigned long long)c->line);
    if (c->line / (c->sector ? c->sector : 1) > 32)
        cfg_check_fail(ck, "coalesce.sector", "at most 32 sectors per line (line %llu / sector %llu)",
                       (unsigned long long)c->line, (unsigned long long)c->sector);
}

const struct cfg_section coalesce_cfg_section = {
    "coalesce", "LD/ST coalescer: transaction granularity and packet sizing", offsetof(struct sim_cfg, coalesce),
    coalesce_keys, ARRAY_LEN(coalesce_keys), coalesce_cfg_check};

const struct cfg_key *const coalesce_cfg_keys = coalesce_keys;
const unsigned coalesce_cfg_n_keys = ARRAY_LEN(coalesce_keys);

void coalesce_cfg_defaults(struct coalesce_cfg *cfg)
{
    /* Same values as the "def" column above; tests/test_coalesce.c parses the
     * table's defaults and checks they agree. */
    cfg->line = 128;  /* GPGPU-Sim 3.x GTX480 -gpgpu_cache:dl1 32:128:4 */
    cfg->sector = 32; /* spec 2.7 segments 32/64/128 B; GPGPU-Sim chunk */
    cfg->atomic_split = COAL_ATOM_SPLIT_OVERLAP; /* GPGPU-Sim memory_coalescing_arch_atomic */
    cfg->volatile_l1 = COAL_VOLATILE_BYPASS;     /* spec 2.6 [spec proposal]; NOTE(volatile-l1) */
    cfg->flit = 32;   /* spec 1.3, config_fermi_islip.icnt flit_size 32 */
    cfg->header = 8;  /* spec 2.7 "8 B header" (GPGPU-Sim packet header) */
}

/* --------------------------------------------------------------- geometry */

static uint32_t log2_u32(uint64_t v)
{
    uint32_t s = 0;
    while ((1ull << s) < v)
        s++;
    return s;
}

unsigned coalescer_flits(const struct coalescer *c, unsigned payload)
{
    return (c->header_bytes + payload + c->flit_bytes - 1) / c->flit_bytes;
}

void coalescer_init(struct coalescer *c, const struct coalesce_cfg *cfg)
{
    SIM_ASSERT(is_pow2_u64(cfg->line) && cfg->line >= 32 && cfg->line <= COAL_MAX_LINE,
               "coalesce.line %llu", (unsigned long long)cfg->line);
    SIM_ASSERT(is_pow2_u64(cfg->sector) && cfg->sector <= cfg->line && cfg->line / cfg->sector <= 32,
               "coalesce.sector %llu", (unsigned long long)cfg->sector);
    SIM_ASSERT(cfg->flit >= 1 && (cfg->header + cfg->line + cfg->flit - 1) / cfg->flit <= 255,
               "flit %llu (icnt.flit)", (unsigned long long)cfg->flit);
    c->line_bytes = (uint32_t)cfg->line;
    c->line_shift = log2_u32(cfg->line);
    c->sector_bytes = (uint32_t)cfg->sector;
    c->sector_shift = log2_u32(cfg->sector);
    c->n_sectors = c->line_bytes >> c->sector_shift;
    c->flit_bytes = (uint32_t)cfg->flit;
    c->header_bytes = (uint32_t)cfg->header;
    c->hdr_flits = (uint8_t)coalescer_flits(c, 0);
    c->line_flits = (uint8_t)coalescer_flits(c, c->line_bytes);
    if (c->hdr_flits == 0) /* header 0: a request still occupies one flit */
        c->hdr_flits = 1;
    c->atomic_split = cfg->atomic_split != COAL_ATOM_SPLIT_LINE;
    c->atomic_group = cfg->atomic_split == COAL_ATOM_SPLIT_SECTOR ? (uint32_t)cfg->sector : c->line_bytes;
    c->volatile_mshr = cfg->volatile_l1 == COAL_VOLATILE_MSHR;
}

/* ----------------------------------------------------------------- coalesce */

/* Bits [off, off + len) of a 128-bit mask, len <= 64, not crossing bit 64
 * when len divides 64 and off is a multiple of len (natural alignment). */
static inline void mask_set(uint64_t m[2], unsigned off, unsigned len)
{
    uint64_t bits = len >= 64 ? ~0ull : ((1ull << len) - 1);
    m[off >> 6] |= bits << (off & 63);
}

/* No bit outside [off, off + len)? len is a power of two <= 64 and off a
 * multiple of len. */
static inline bool mask_only(const uint64_t m[2], unsigned off, unsigned len)
{
    uint64_t keep = (len >= 64 ? ~0ull : ((1ull << len) - 1)) << (off & 63);
    return (m[off >> 6] & ~keep) == 0 && m[(off >> 6) ^ 1] == 0;
}

/* Any bit in [off, off + len) set? len is a power of two <= 128 and off a
 * multiple of len. */
static inline bool mask_any(const uint64_t m[2], unsigned off, unsigned len)
{
    if (len >= 64) {
        bool any = m[off >> 6] != 0;
        if (len == 128)
            any = any || m[1] != 0;
        return any;
    }
    return ((m[off >> 6] >> (off & 63)) & ((1ull << len) - 1)) != 0;
}

static inline unsigned lowest_byte(const uint64_t m[2])
{
    return m[0] ? (unsigned)__builtin_ctzll(m[0]) : 64u + (unsigned)__builtin_ctzll(m[1]);
}

static inline unsigned highest_byte(const uint64_t m[2])
{
    return m[1] ? 127u - (unsigned)__builtin_clzll(m[1]) : 63u - (unsigned)__builtin_clzll(m[0]);
}

static bool is_bypass(unsigned op, unsigned cache_op)
{
    if (op == COAL_ATOMIC)
        return true;
    return cache_op == MEMOP_CO_CG || cache_op == MEMOP_CO_CV || cache_op == MEMOP_CO_VOLATILE;
}

/* Sector mask, segment and packet sizes of a transaction whose line, lanes
 * and byte mask are set. */
static void finish_txn(const struct coalescer *c, struct coal_txn *t, unsigned op, bool bypass)
{
    uint32_t sectors = 0;
    for (unsigned s = 0; s < c->n_sectors; s++)
        if (mask_any(t->bytes, s << c->sector_shift, c->sector_bytes))
            sectors |= 1u << s;
    t->sectors = sectors;

    /* Segment: the smallest aligned power-of-two piece (>= one sector) that
     * holds the lowest and the highest touched byte (spec 2.7). */
    unsigned lo = lowest_byte(t->bytes), hi = highest_byte(t->bytes);
    unsigned seg = c->sector_bytes;
    while ((lo & ~(seg - 1)) != (hi & ~(seg - 1)))
        seg <<= 1;
    t->seg_size = (uint16_t)seg;
    t->seg_offset = (uint16_t)(lo & ~(seg - 1));

    unsigned seg_flits = coalescer_flits(c, seg);
    t->op = (uint8_t)op;
    t->l1_bypass = bypass;
    t->vol_mshr = false;
    switch (op) {
    case COAL_LOAD:
        t->req_flits = c->hdr_flits;                                  /* read request: no payload */
        t->reply_flits = (uint8_t)(bypass ? seg_flits : c->line_flits); /* L1 miss asks for the line */
        break;
    case COAL_STORE:
        t->req_flits = (uint8_t)seg_flits; /* header + segment */
        t->reply_flits = c->hdr_flits;     /* acknowledgement */
        break;
    default: /* COAL_ATOMIC: operands out, old values back, both sized like a store */
        t->req_flits = (uint8_t)seg_flits;
        t->reply_flits = (uint8_t)seg_flits;
        break;
    }
}

unsigned coalescer_run(const struct coalescer *c, const struct coal_req *req,
                       struct coal_txn out[COAL_MAX_TXN])
{
    const unsigned size = req->size;
    SIM_ASSERT(size == 1 || size == 2 || size == 4 || size == 8 || size == 16,
               "coalescer: access size %u", size);
    /* Debug builds only: read together, op and cache_op made a two-byte load
     * of two one-byte stores the caller had just made, which the store
     * buffer cannot forward (NOTE(issue-as) in sim/sm/rf/opcoll.c); the
     * LD/ST unit derives both from enums. */
    SIM_DEBUG_ASSERT(req->op <= COAL_ATOMIC && req->cache_op < MEMOP_N_CACHE_OPS, "coalescer: op %u cache_op %u",
                     (unsigned)req->op, (unsigned)req->cache_op);
    const uint64_t line_mask = ~(uint64_t)(c->line_bytes - 1);
    unsigned n = 0;
    unsigned last = 0; /* index of the transaction the previous lane joined */
    const bool split = req->op == COAL_ATOMIC && c->atomic_split;

    /* Pass 1: group lanes by line. Consecutive lanes usually share the line
     * of the previous lane (fast path); otherwise a linear probe over the
     * transactions found so far (<= 32). */
    for (uint32_t m = req->active; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctz(m);
        uint64_t a = req->addr[lane];
        /* GPGPU-Sim rule: the access belongs to the line of its first byte and
         * must end in the same line; natural alignment guarantees it. */
        if (UNLIKELY(a & (size - 1)))
            sim_panic("coalescer: lane %u address 0x%llx is not aligned to its size %u "
                      "(the functional model should have faulted)",
                      lane, (unsigned long long)a, size);
        uint64_t line = a & line_mask;
        unsigned t;
        if (split) {
            /* NOTE(atomic-grouping): first transaction of the line without these
             * bytes (and, with atomic_split = sector, holding only bytes of
             * this lane's sector: the group is checked as a whole) */
            unsigned off = (unsigned)(a & ~line_mask);
            unsigned g = c->atomic_group, goff = off & ~(g - 1);
            for (t = 0; t < n; t++)
                if (out[t].line_addr == line && !mask_any(out[t].bytes, off, size) &&
                    (g == c->line_bytes || mask_only(out[t].bytes, goff, g)))
                    break;
        } else if (n && out[last].line_addr == line) {
            t = last;
        } else {
            for (t = 0; t < n && out[t].line_addr != line; t++)
                ;
            last = t;
        }
        if (t == n) {
            out[n].line_addr = line;
            out[n].bytes[0] = out[n].bytes[1] = 0;
            out[n].lanes = 0;
            n++;
        }
        out[t].lanes |= 1u << lane;
        mask_set(out[t].bytes, (unsigned)(a & ~line_mask), size);
    }

    /* Pass 2: ascending line address (insertion sort, n <= 32, usually
     * already sorted). */
    for (unsigned i = 1; i < n; i++) {
        struct coal_txn x = out[i];
        unsigned j = i;
        while (j > 0 && out[j - 1].line_addr > x.line_addr) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = x;
    }

    bool bypass = is_bypass(req->op, req->cache_op);
    for (unsigned i = 0; i < n; i++)
        finish_txn(c, &out[i], req->op, bypass);
    if (UNLIKELY(c->volatile_mshr) && req->op == COAL_LOAD && req->cache_op == MEMOP_CO_VOLATILE)
        for (unsigned i = 0; i < n; i++) /* NOTE(volatile-l1): the L1D treats a would-be miss as a miss */
            out[i].vol_mshr = true;
    return n;
}

/* -------------------------------------------------------------- statistics */

void coal_stats_init(struct coal_stats *s)
{
    s->insts = s->txns = s->sectors = s->bypass_txns = s->req_flits = s->reply_flits = 0;
    stat_hist_init(&s->txns_per_inst, COAL_MAX_TXN + 1, 1);
}

void coal_stats_fini(struct coal_stats *s) { stat_hist_fini(&s->txns_per_inst); }

void coal_stats_add(struct coal_stats *s, const struct coal_txn *txn, unsigned n)
{
    if (n == 0)
        return;
    s->insts++;
    s->txns += n;
    for (unsigned i = 0; i < n; i++) {
        s->sectors += (uint64_t)__builtin_popcount(txn[i].sectors);
        s->bypass_txns += txn[i].l1_bypass;
        s->req_flits += txn[i].req_flits;
        s->reply_flits += txn[i].reply_flits;
    }
    stat_hist_add(&s->txns_per_inst, n);
}

void coal_stats_register(struct coal_stats *s, struct stats *reg, const char *group, int instance)
{
    stats_counter(reg, group, instance, "insts", &s->insts, "global/local warp memory instructions coalesced");
    stats_counter(reg, group, instance, "txns", &s->txns, "memory transactions (one per line touched)");
    stats_counter(reg, group, instance, "sectors", &s->sectors, "32 B sectors touched, summed over transactions");
    stats_counter(reg, group, instance, "bypass_txns", &s->bypass_txns,
                  "transactions bypassing the L1D (cg/cv/volatile loads, atomics)");
    stats_counter(reg, group, instance, "req_flits", &s->req_flits,
                  "request-packet flits if every transaction went to L2");
    stats_counter(reg, group, instance, "reply_flits", &s->reply_flits,
                  "reply-packet flits if every transaction went to L2");
    stats_hist(reg, group, instance, "txns_per_inst", &s->txns_per_inst,
               "transactions per warp memory instruction");
}
