/* sim/sm/front/fetch.c: instruction fetch, decode and I-buffer of one SM. See
 * fetch.h for the model and calling convention, docs/fetch.md for the
 * choices.
 *
 * NOTE(fetch-decode-latency): spec 3.x names no fetch or decode latency.
 * GPGPU-Sim runs issue -> decode -> fetch each cycle with a one-entry fetch
 * buffer between fetch and decode, so a hit fetched at t is decoded at t + 1
 * and issues at t + 2. Here the I-cache hit latency (l1i.hit_latency = 1)
 * plays the fetch buffer: hit at t, completion and decode at t + 1, issue at
 * t + 2. A fill (reply pushed at r) completes and is decoded at r + 1, issue
 * at r + 2; GPGPU-Sim spends one more cycle there (fill -> fetch buffer ->
 * decode), which we do not copy.
 *
 * NOTE(fetch-rr-on-fail): as GPGPU-Sim's fetch(), the round-robin pointer
 * moves to the warp that attempted the access whether the cache accepted it
 * or not, and only one access is attempted per cycle. A refused warp stays
 * eligible and retries when its turn comes again.
 *
 * NOTE(fetch-redirect-eager): spec 2.2 "a taken branch or reconvergence
 * flushes the warp's I-buffer". GPGPU-Sim flushes lazily, when the
 * scheduler next finds the I-buffer head's PC different from the SIMT
 * stack's; we flush at the issue of the instruction that changed the PC
 * (one cycle earlier), so the refetch can start in the same cycle's fetch.
 *
 * NOTE(fetch-stale-drop): a flushed in-flight fetch is not cancelled (the
 * I-cache miss still fills the line); its completion is dropped, and the
 * warp cannot start another fetch before it arrives (GPGPU-Sim: imiss
 * pending until the fill), so each warp has at most one fetch in flight and
 * a one-bit stale flag identifies it. The same holds across exit and
 * relaunch of the warp slot.
 */
#include "sim/sm/front/fetch.h"

#include <stdlib.h>
#include <string.h>

#include "sim/mem/memreq.h"
#include "sim/ptx/ir.h"
#include "sim/sm/lsu/l1ro.h"

/* ------------------------------------------------------------ code layout */

static uint64_t func_bytes(uint32_t n_insns)
{
    uint64_t b = (uint64_t)n_insns * FETCH_INSN_BYTES;
    return (b + MEM_LINE_BYTES - 1) & ~(uint64_t)(MEM_LINE_BYTES - 1);
}

uint64_t fetch_code_bytes(const struct ptx_module *m)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < m->n_funcs; i++)
        total += func_bytes(m->funcs[i].has_body ? m->funcs[i].n_insns : 0);
    return total;
}

uint64_t fetch_code_seg_base(uint64_t window_end, uint64_t code_bytes)
{
    SIM_ASSERT(code_bytes <= window_end, "fetch: code segment of %llu bytes above window end 0x%llx",
               (unsigned long long)code_bytes, (unsigned long long)window_end);
    return (window_end - code_bytes) & ~(uint64_t)(MEM_LINE_BYTES - 1);
}

void fetch_code_layout(const struct ptx_module *m, uint64_t seg_base, uint64_t *base, uint32_t *n_insns)
{
    SIM_ASSERT(seg_base % MEM_LINE_BYTES == 0, "fetch: code segment base 0x%llx not line aligned",
               (unsigned long long)seg_base);
    uint64_t off = 0;
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        uint32_t n = m->funcs[i].has_body ? m->funcs[i].n_insns : 0;
        base[i] = seg_base + off;
        n_insns[i] = n;
        off += func_bytes(n);
    }
}

/* ------------------------------------------------------------ eligibility */

static inline bool can_fetch(const struct fetch_warp *x)
{
    return x->resident && !x->pending && !x->ib_valid[0] && !x->ib_valid[1] && x->fetch_pc < x->n_insns;
}

static inline void want_update(struct fetch_unit *f, uint32_t w)
{
    uint64_t bit = 1ull << (w & 63);
    if (can_fetch(&f->w[w]))
        f->want[w >> 6] |= bit;
    else
        f->want[w >> 6] &= ~bit;
}

/* First warp with its want bit set, in round-robin order starting after
 * f->last; FETCH_PC_NONE when none. */
static uint32_t rr_pick(const struct fetch_unit *f)
{
    uint32_t start = f->last + 1 >= f->max_warps ? 0 : f->last + 1;
    uint32_t wi = start >> 6;
    uint64_t m = f->want[wi] & (~0ull << (start & 63));
    for (uint32_t k = 0; k <= f->n_words; k++) {
        if (m)
            return (wi << 6) + (uint32_t)__builtin_ctzll(m);
        wi = wi + 1 == f->n_words ? 0 : wi + 1;
        m = f->want[wi];
    }
    return FETCH_PC_NONE;
}

/* ------------------------------------------------------------ lifecycle */

void fetch_init(struct fetch_unit *f, uint32_t max_warps, struct l1ro *ic, int sm_id)
{
    SIM_ASSERT(max_warps >= 1 && max_warps <= FETCH_MAX_WARPS, "fetch[%d]: %u warp slots", sm_id, max_warps);
    SIM_ASSERT(ic != NULL, "fetch[%d]: no instruction cache", sm_id);
    memset(f, 0, sizeof *f);
    f->sm_id = sm_id;
    f->max_warps = max_warps;
    f->n_words = (max_warps + 63) / 64;
    f->last = max_warps - 1; /* the first pick starts at warp 0 */
    f->ic = ic;
    f->line = ic->line;
    SIM_ASSERT(f->line >= FETCH_BYTES && f->line % FETCH_INSN_BYTES == 0, "fetch[%d]: I-cache line %u B", sm_id,
               f->line);
    f->w = xcalloc(max_warps, sizeof *f->w);
    f->want = xcalloc(f->n_words, sizeof *f->want);
    f->decoded = xcalloc(f->n_words, sizeof *f->decoded);
}

void fetch_fini(struct fetch_unit *f)
{
    free(f->w);
    free(f->want);
    free(f->decoded);
    memset(f, 0, sizeof *f);
}

void fetch_set_code(struct fetch_unit *f, const struct fetch_code *code)
{
    SIM_ASSERT(f->n_resident == 0, "fetch[%d]: code table changed with %u warps resident", f->sm_id,
               f->n_resident);
    f->code = *code;
}

void fetch_warp_launch(struct fetch_unit *f, uint32_t w, uint32_t func, uint32_t pc, uint64_t t)
{
    SIM_ASSERT(w < f->max_warps && !f->w[w].resident, "fetch[%d]: launch of warp %u (resident or out of range)",
               f->sm_id, w);
    SIM_ASSERT(func < f->code.n_funcs, "fetch[%d]: warp %u launched in function %u of %u", f->sm_id, w, func,
               f->code.n_funcs);
    struct fetch_warp *x = &f->w[w];
    /* pending/stale/pend_* survive: an exited slot's dropped fetch may still be in flight */
    x->func = func;
    x->base = f->code.base[func];
    x->n_insns = f->code.n_insns[func];
    x->fetch_pc = pc;
    x->ib_valid[0] = x->ib_valid[1] = 0;
    x->ib_head = 0;
    x->resident = 1;
    x->empty_since = t;
    x->empty_cycles = 0;
    x->launch_cycle = t;
    f->n_resident++;
    want_update(f, w);
}

static uint32_t drop_ibuf(struct fetch_warp *x)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < FETCH_IBUF_ENTRIES; k++) {
        n += x->ib_valid[k];
        x->ib_valid[k] = 0;
    }
    x->ib_head = 0;
    return n;
}

void fetch_warp_exit(struct fetch_unit *f, uint32_t w, uint64_t t)
{
    SIM_ASSERT(w < f->max_warps && f->w[w].resident, "fetch[%d]: exit of warp %u that is not resident", f->sm_id,
               w);
    struct fetch_warp *x = &f->w[w];
    if (fetch_ibuf_head(f, w) == FETCH_PC_NONE && t + 1 > x->empty_since)
        x->empty_cycles += t + 1 - x->empty_since;
    f->st.flushed_insts += drop_ibuf(x);
    if (x->pending)
        x->stale = 1;
    x->resident = 0;
    f->n_resident--;
    f->st.ibuf_empty_total += x->empty_cycles;
    f->st.warp_cycles += t + 1 - x->launch_cycle;
    stat_avg_add(&f->st.ibuf_empty, x->empty_cycles);
    want_update(f, w);
}

/* ------------------------------------------------------------ issue side */

uint32_t fetch_ibuf_count(const struct fetch_unit *f, uint32_t w)
{
    return (uint32_t)f->w[w].ib_valid[0] + f->w[w].ib_valid[1];
}

uint32_t fetch_consume(struct fetch_unit *f, uint32_t w, uint64_t t)
{
    struct fetch_warp *x = &f->w[w];
    SIM_ASSERT(w < f->max_warps && x->resident && x->ib_valid[x->ib_head],
               "fetch[%d]: consume from warp %u with an empty I-buffer", f->sm_id, w);
    uint32_t pc = x->ib_pc[x->ib_head];
    x->ib_valid[x->ib_head] = 0;
    x->ib_head = (uint8_t)((x->ib_head + 1) % FETCH_IBUF_ENTRIES);
    bool empty = !x->ib_valid[x->ib_head];
    if (empty) {
        x->ib_head = 0;
        x->empty_since = t + 1; /* the scheduler of t + 1 finds it empty */
    }
    f->st.consumed++;
    /* want_update with the buffer's state known: can_fetch's two-byte load
     * of ib_valid, just after the byte store above, could not be forwarded
     * from the store buffer (NOTE(issue-as) in sim/sm/rf/opcoll.c). */
    bool want = empty && x->resident && !x->pending && x->fetch_pc < x->n_insns;
    SIM_DEBUG_ASSERT(want == can_fetch(x), "fetch[%d]: warp %u want bit", f->sm_id, w);
    uint64_t bit = 1ull << (w & 63);
    if (want)
        f->want[w >> 6] |= bit;
    else
        f->want[w >> 6] &= ~bit;
    return pc;
}

/* The instruction the front end would deliver next. */
static uint32_t expected_pc(const struct fetch_warp *x)
{
    if (x->ib_valid[x->ib_head])
        return x->ib_pc[x->ib_head];
    if (x->pending && !x->stale)
        return x->pend_pc;
    return x->fetch_pc;
}

bool fetch_redirect_func(struct fetch_unit *f, uint32_t w, uint32_t func, uint32_t next_pc, uint64_t t)
{
    struct fetch_warp *x = &f->w[w];
    SIM_ASSERT(w < f->max_warps && x->resident, "fetch[%d]: redirect of warp %u that is not resident", f->sm_id, w);
    SIM_ASSERT(func < f->code.n_funcs, "fetch[%d]: warp %u redirected to function %u of %u", f->sm_id, w, func,
               f->code.n_funcs);
    if (func == x->func && next_pc == expected_pc(x))
        return false;
    uint32_t n = drop_ibuf(x);
    if (n)
        x->empty_since = t + 1;
    f->st.flushed_insts += n;
    if (x->pending)
        x->stale = 1;
    x->func = func;
    x->base = f->code.base[func];
    x->n_insns = f->code.n_insns[func];
    x->fetch_pc = next_pc;
    f->st.flushes++;
    want_update(f, w);
    return true;
}

bool fetch_redirect(struct fetch_unit *f, uint32_t w, uint32_t next_pc, uint64_t t)
{
    return fetch_redirect_func(f, w, f->w[w].func, next_pc, t);
}

/* ------------------------------------------------------------ the cycle */

/* An I-cache completion for warp w at cycle t: decode into the I-buffer, or
 * drop it when the fetch was flushed. */
static void decode(struct fetch_unit *f, uint32_t w, uint64_t t)
{
    SIM_ASSERT(w < f->max_warps && f->w[w].pending, "fetch[%d]: I-cache completion for warp %u with no fetch",
               f->sm_id, w);
    struct fetch_warp *x = &f->w[w];
    x->pending = 0;
    if (x->stale) {
        x->stale = 0;
        f->st.dropped++;
    } else {
        SIM_ASSERT(!x->ib_valid[0] && !x->ib_valid[1], "fetch[%d]: warp %u decode into a non-empty I-buffer",
                   f->sm_id, w);
        for (uint32_t k = 0; k < x->pend_n; k++) {
            x->ib_pc[k] = x->pend_pc + k;
            x->ib_valid[k] = 1;
        }
        x->ib_head = 0;
        f->decoded[w / 64] |= 1ull << (w % 64);
        f->st.decoded += x->pend_n;
        if (t + 1 > x->empty_since)
            x->empty_cycles += t + 1 - x->empty_since; /* visible to the scheduler of t + 1 */
    }
    want_update(f, w);
}

void fetch_clear_decoded(struct fetch_unit *f)
{
    for (uint32_t i = 0; i < f->n_words; i++)
        f->decoded[i] = 0;
}

uint64_t fetch_tick(struct fetch_unit *f, uint64_t t)
{
    uint64_t next = l1ro_tick(f->ic, t);

    /* Decode first: a completion frees its warp for this cycle's fetch. */
    struct l1ro_done d;
    while (l1ro_pop_done(f->ic, &d, t))
        decode(f, d.token, t);

    uint32_t w = rr_pick(f);
    if (w != FETCH_PC_NONE) {
        struct fetch_warp *x = &f->w[w];
        uint64_t addr = x->base + (uint64_t)x->fetch_pc * FETCH_INSN_BYTES;
        uint32_t to_line_end = (f->line - (uint32_t)(addr % f->line)) / FETCH_INSN_BYTES;
        uint32_t n = MIN(FETCH_IBUF_ENTRIES, MIN(to_line_end, x->n_insns - x->fetch_pc));
        enum l1ro_rf_cause cause;
        enum l1ro_result r = l1ro_access(f->ic, addr, w, t, &cause);
        f->last = w;
        if (r == L1RO_FAIL) {
            f->st.rf++;
        } else {
            x->pending = 1;
            x->pend_pc = x->fetch_pc;
            x->pend_n = (uint8_t)n;
            x->fetch_pc += n;
            f->st.fetches++;
            if (r == L1RO_HIT)
                f->st.hits++;
            else if (r == L1RO_MISS)
                f->st.misses++;
            else
                f->st.merges++;
            want_update(f, w);
            next = MIN(next, t + 1); /* the I-cache has a completion or request coming */
        }
    }
    for (uint32_t i = 0; i < f->n_words; i++)
        if (f->want[i])
            return MIN(next, t + 1);
    return next;
}

bool fetch_idle(const struct fetch_unit *f)
{
    for (uint32_t i = 0; i < f->max_warps; i++)
        if (f->w[i].pending)
            return false;
    for (uint32_t i = 0; i < f->n_words; i++)
        if (f->want[i])
            return false;
    return true;
}

void fetch_check(const struct fetch_unit *f)
{
    uint32_t n_res = 0;
    for (uint32_t w = 0; w < f->max_warps; w++) {
        const struct fetch_warp *x = &f->w[w];
        n_res += x->resident;
        bool bit = (f->want[w >> 6] >> (w & 63)) & 1;
        SIM_ASSERT(bit == can_fetch(x), "fetch[%d]: warp %u eligibility bit %d, state says %d", f->sm_id, w, bit,
                   can_fetch(x));
        SIM_ASSERT(!x->stale || x->pending, "fetch[%d]: warp %u stale without a fetch in flight", f->sm_id, w);
        SIM_ASSERT(x->resident || (!x->ib_valid[0] && !x->ib_valid[1]),
                   "fetch[%d]: warp %u holds instructions but is not resident", f->sm_id, w);
        if (x->ib_valid[0] && x->ib_valid[1]) {
            uint32_t h = x->ib_head, o = 1 - h;
            SIM_ASSERT(x->ib_pc[o] == x->ib_pc[h] + 1, "fetch[%d]: warp %u I-buffer out of order (%u, %u)",
                       f->sm_id, w, x->ib_pc[h], x->ib_pc[o]);
        }
        SIM_ASSERT(x->ib_valid[x->ib_head] || !x->ib_valid[1 - x->ib_head],
                   "fetch[%d]: warp %u I-buffer head not valid but the other entry is", f->sm_id, w);
        SIM_ASSERT(!x->pending || x->stale || (!x->ib_valid[0] && !x->ib_valid[1]),
                   "fetch[%d]: warp %u fetch in flight into a non-empty I-buffer", f->sm_id, w);
    }
    SIM_ASSERT(n_res == f->n_resident, "fetch[%d]: %u resident warps, counter says %u", f->sm_id, n_res,
               f->n_resident);
    SIM_ASSERT(f->st.fetches == f->st.hits + f->st.misses + f->st.merges, "fetch[%d]: fetch counters disagree",
               f->sm_id);
}

/* ------------------------------------------------------------ statistics */

void fetch_stats_register(struct fetch_unit *f, struct stats *s)
{
    const char *g = "fetch";
    int i = f->sm_id;
    stats_counter(s, g, i, "fetches", &f->st.fetches, "I-cache accesses accepted (hit + miss + merge)");
    stats_counter(s, g, i, "icache_hits", &f->st.hits, "fetch accesses that hit in the I-cache");
    stats_counter(s, g, i, "icache_misses", &f->st.misses, "fetch accesses that opened an I-cache MSHR entry");
    stats_counter(s, g, i, "icache_merges", &f->st.merges, "fetch accesses merged into an open I-cache MSHR entry");
    stats_counter(s, g, i, "icache_rf", &f->st.rf, "fetch attempts refused by the I-cache (reservation fails)");
    stats_counter(s, g, i, "decoded", &f->st.decoded, "instructions written into I-buffers");
    stats_counter(s, g, i, "consumed", &f->st.consumed, "instructions taken from I-buffers at issue");
    stats_counter(s, g, i, "flushes", &f->st.flushes, "redirects that changed a warp's fetch stream");
    stats_counter(s, g, i, "flushed_insts", &f->st.flushed_insts, "valid I-buffer entries discarded");
    stats_counter(s, g, i, "dropped", &f->st.dropped, "in-flight fetches dropped on arrival (flushed or exited)");
    stats_counter(s, g, i, "ibuf_empty_total", &f->st.ibuf_empty_total,
                  "pipeline cycles with an empty I-buffer, summed over exited warps");
    stats_counter(s, g, i, "warp_cycles", &f->st.warp_cycles, "resident pipeline cycles, summed over exited warps");
    stats_avg(s, g, i, "ibuf_empty_cycles", &f->st.ibuf_empty,
              "pipeline cycles with an empty I-buffer per warp (sampled at exit)");
}

void fetch_stats_dump(const struct fetch_unit *f, FILE *out)
{
    const struct fetch_stats *s = &f->st;
    fprintf(out,
            "fetch[%d]: fetches %llu hits %llu misses %llu merges %llu rf %llu decoded %llu consumed %llu "
            "flushes %llu flushed_insts %llu dropped %llu ibuf_empty %llu/%llu warp cycles\n",
            f->sm_id, (unsigned long long)s->fetches, (unsigned long long)s->hits, (unsigned long long)s->misses,
            (unsigned long long)s->merges, (unsigned long long)s->rf, (unsigned long long)s->decoded,
            (unsigned long long)s->consumed, (unsigned long long)s->flushes, (unsigned long long)s->flushed_insts,
            (unsigned long long)s->dropped, (unsigned long long)s->ibuf_empty_total,
            (unsigned long long)s->warp_cycles);
}
