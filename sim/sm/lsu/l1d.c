/* sim/sm/lsu/l1d.c: the SM's L1 data cache. See l1d.h for the model and the
 * calling convention, docs/l1.md for the parameters and the open-question
 * choices.
 *
 * NOTE(l1d-one-fifo): every request toward L2 (read misses, bypassing reads,
 * writes, atomics, local write-backs) goes through one FIFO miss queue in L1
 * access order (spec 2.6 "Order toward L2"). With in-order delivery per
 * (SM, sub-partition) pair this keeps a warp's same-address accesses in
 * program order at L2, which the data-correctness rules below rely on.
 *
 * NOTE(l1d-mq-slots): slots a transaction needs in the miss queue, checked
 * before anything changes: new read miss 2 (the read plus a possible dirty
 * victim write-back, spec 2.6 "two free miss-queue slots"); bypass read,
 * store, atomic 1, plus 1 when it evicts a MODIFIED line; global
 * write-through write miss that allocates 3 (write + read miss), as
 * GPGPU-Sim's wr_miss_wa checks miss_queue_full(2).
 *
 * NOTE(l1d-stale): a store or atomic that finds its line with an open MSHR
 * entry marks the entry stale (spec 2.6 proposal). Loads merged before the
 * mark are answered from the fill; the line is then not installed (a
 * RESERVED way is invalidated); loads after the mark fail with
 * L1D_RF_STALE until the fill frees the entry, then miss again behind the
 * store.
 *
 * NOTE(l1d-off): with l1d.enable = false the LD/ST unit marks every load
 * as an L1 bypass (ldst.c), and stores never allocate, so no line is ever
 * installed: every access goes to L2 as a bypass read, a write or an
 * atomic, with no tag check and no MSHR (the coherence papers' "no L1"
 * normalisation point).
 *
 * NOTE(l1d-perfect): l1d.perfect = true makes the L1D contention-free: a
 * line that leaves the tag array by replacement or by a global store's
 * write-evict is kept as a clean copy in a side store of unlimited size
 * (l1d_perfect.h), outside the protocol table. A load that misses the tag
 * array and finds its line there is a hit (hit latency, data from the
 * copy); a store to such a line updates the copy and still goes to L2 as a
 * write (one miss-queue slot); a store evicting its line from the tag array
 * leaves the copy with the store's bytes applied; an atomic drops the copy
 * (its result is made at L2); a gpu-scope acquire or fence
 * (l1d_invalidate_clean) and a kernel launch drop every copy, as they drop
 * the tag array's clean lines. So only a line's first touch in a kernel
 * (and its first touch after an acquire or an atomic) misses, and every
 * load still returns bytes a legal L1 of unlimited size would hold: values
 * travel with timing here (DESIGN.md 4), so a load whose line was never
 * fetched cannot hit - there are no bytes to return. Off (ps == NULL) the
 * cost is one predictable branch on the miss, store, atomic and
 * invalidation paths.
 */
#include "sim/sm/lsu/l1d.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sm/lsu/l1d_internal.h"
#include "sim/sm/lsu/l1d_perfect.h"

/* ------------------------------------------------------------- set index */

uint32_t l1d_fermi_set(uint64_t addr, uint32_t n_sets)
{
    uint32_t lower = (uint32_t)(addr >> 7) & 31u;
    uint32_t upper = (uint32_t)(((addr >> 13) & 7u) | (((addr >> 17) & 1u) << 3) | (((addr >> 19) & 1u) << 4));
    uint32_t set = lower ^ upper;
    if (n_sets == 64)
        set |= (uint32_t)((addr >> 12) & 1u) << 5;
    return set;
}

static uint32_t l1d_set_fn(void *ctx, uint64_t line_addr)
{
    const struct l1d *l = ctx;
    if (l->set_index == L1D_SET_FERMI)
        return l1d_fermi_set(line_addr, l->n_sets);
    return (uint32_t)((line_addr / l->line) % l->n_sets);
}

uint32_t l1d_set_of(const struct l1d *l, uint64_t line_addr) { return l1d_set_fn((void *)l, line_addr); }

/* ------------------------------------------------------------- init */

static const coh_action_fn l1d_coh_fns[COH_L1A_N_ACTIONS]; /* the protocol actions (below) */

void l1d_init(struct l1d *l, const struct l1d_cfg *cfg, int sm_id)
{
    const char *key;
    const char *why = l1d_cfg_invalid(cfg, &key);
    SIM_ASSERT(!why, "l1d[%d]: %s %s", sm_id, key, why);
    memset(l, 0, sizeof *l);
    l->sm_id = sm_id;
    l->line = (uint32_t)cfg->line;
    l->n_sets = (uint32_t)(cfg->size / (cfg->assoc * cfg->line));
    l->hit_lat = (uint32_t)cfg->hit_latency;
    l->write_policy = cfg->write_policy;
    l->alloc = cfg->alloc;
    l->set_index = cfg->set_index;
    l->enabled = cfg->enable;
    l->ta_o = (struct ta_opts){.repl = ta_repl_of(cfg->repl),
                               .vt_entries = (uint32_t)cfg->victim_tags,
                               .vt_assoc = (uint32_t)cfg->victim_tags_assoc};
    ta_init_opts(&l->tags, l->n_sets, (uint32_t)cfg->assoc, l->line, l1d_set_fn, l, &l->ta_o);
    coh_table_init(&l->coh,
                   l->write_policy == L1D_WP_GLOBAL_WT_ALLOC_LOCAL_WB && l->enabled ? &coh_noncoh_l1_wt
                                                                                   : &coh_noncoh_l1_we,
                   l1d_coh_fns, "l1d", sm_id);
    l->cache_stats = cfg->repl != TA_REPL_LRU || cfg->victim_tags != 0;
    if (cfg->locality_stats) {
        l->loc = xcalloc(1, sizeof *l->loc);
        lastacc_init(l->loc, 4096);
    }
    l->data = xcalloc(ta_n_lines(&l->tags), l->line);
    mshr_init(&l->mshr, (uint32_t)cfg->mshr, (uint32_t)cfg->mshr_merge, sizeof(struct l1d_pend));
    l->mshr_line = xcalloc(cfg->mshr, sizeof *l->mshr_line);
    l->mshr_stale = xcalloc(cfg->mshr, sizeof *l->mshr_stale);
    l->mshr_t = xcalloc(cfg->mshr, sizeof *l->mshr_t);
    l->mshr_warp = xcalloc(cfg->mshr, sizeof *l->mshr_warp);
    l->mshr_cta = xcalloc(cfg->mshr, sizeof *l->mshr_cta);
    l->cur_warp = MEM_WARP_NONE;
    l->cur_cta = MEM_CTA_NONE;
    l->cur_space = MEM_SPACE_LOCAL;
    reqq_init(&l->mq, (uint32_t)cfg->miss_queue);
    l->rx_r.cap = (uint32_t)cfg->resp_fifo;
    l->rx = xcalloc(l->rx_r.cap, sizeof *l->rx);
    /* NOTE(l1d-done-cap): at most one access per cycle, each hit ready H
     * cycles later, so H + 2 hit completions cover a caller that pops every
     * cycle; one fill yields up to mshr_merge completions, and 2 x merge lets
     * a new fill proceed while the last one's are still being popped. */
    l->hq_r.cap = l->hit_lat + 2;
    l->hq = xcalloc(l->hq_r.cap, sizeof *l->hq);
    l->fq_r.cap = (uint32_t)cfg->mshr_merge * 2;
    l->fq = xcalloc(l->fq_r.cap, sizeof *l->fq);
    l->flush_pos = ta_n_lines(&l->tags);
    if (cfg->perfect) {
        l->ps = xcalloc(1, sizeof *l->ps);
        l1d_ps_init(l->ps, l->line);
    }
    if (cfg->coh.protocol == COH_PROTO_GTSC && l->enabled) /* its own table and paths (l1d_gtsc.c) */
        l1d_gtsc_init(l, cfg);
    else if (cfg->coh.protocol == COH_PROTO_TC && l->enabled) /* (l1d_tc.c) */
        l1d_tc_init(l, cfg);
    if (l1d_coherent(l)) {
        l->seen = xcalloc(1, sizeof *l->seen);
        lastacc_init(l->seen, 4096);
    }
}

void l1d_fini(struct l1d *l)
{
    if (l->loc) {
        lastacc_fini(l->loc);
        free(l->loc);
        l->loc = NULL;
    }
    if (l->ps) {
        l1d_ps_fini(l->ps);
        free(l->ps);
    }
    l1d_gtsc_fini(l);
    l1d_tc_fini(l);
    if (l->seen) {
        lastacc_fini(l->seen);
        free(l->seen);
    }
    ta_fini(&l->tags);
    mshr_fini(&l->mshr);
    free(l->data);
    free(l->mshr_line);
    free(l->mshr_stale);
    free(l->mshr_t);
    free(l->mshr_warp);
    free(l->mshr_cta);
    reqq_fini(&l->mq);
    free(l->rx);
    free(l->hq);
    free(l->fq);
    memset(l, 0, sizeof *l);
}

/* ------------------------------------------------------------- event hook */

static void on_evict(void *ctx, const struct ta_evict *ev)
{
    struct l1d *l = ctx;
    uint16_t w = MEM_WARP_NONE;
    if (ev->meta)
        memcpy(&w, ev->meta, sizeof w);
    l->ev_fn(l->ev_ctx, w, L1D_EV_EVICT, ev->line_addr);
}

void l1d_set_event_hook(struct l1d *l, l1d_event_fn fn, void *ctx)
{
    SIM_ASSERT(l1d_idle(l), "l1d[%d]: event hook set with accesses outstanding", l->sm_id);
    l->gen++;
    struct ta_opts o = l->ta_o;
    if (fn) {
        o.meta_bytes = sizeof(uint16_t);
        o.evict_fn = on_evict;
        o.evict_ctx = l;
    }
    uint32_t assoc = l->tags.assoc;
    ta_fini(&l->tags);
    ta_init_opts(&l->tags, l->n_sets, assoc, l->line, l1d_set_fn, l, &o);
    l->ev_fn = fn;
    l->ev_ctx = ctx;
}

/* ------------------------------------------------------------- helpers */

struct mem_req *l1d_mq_push(struct l1d *l, uint8_t op, uint64_t addr, uint32_t id, uint8_t size, cycle_t cycle)
{
    struct mem_req *r = reqq_push(&l->mq, cycle + 1);
    r->addr = addr;
    r->id = id;
    r->src = (uint16_t)l->sm_id;
    r->op = op;
    r->size = size;
    r->warp = l->cur_warp;
    r->cta = l->cur_cta;
    r->space = op == MEM_OP_WRITEBACK ? MEM_SPACE_LOCAL : l->cur_space;
    r->t_create = cycle;
    return r;
}

/* Queue the write-back of MODIFIED line li (the caller checked room). */
void l1d_writeback_line(struct l1d *l, uint32_t li, cycle_t cycle)
{
    struct mem_req *r = l1d_mq_push(l, MEM_OP_WRITEBACK, ta_tag_of(&l->tags, li), 0, (uint8_t)l->line, cycle);
    r->mask[0] = r->mask[1] = UINT64_MAX;
    memcpy(r->data, l1d_line_data(l, li), l->line);
    l->st.writebacks++;
}

void l1d_push_hit_done(struct l1d *l, uint64_t line_addr, uint32_t token, uint8_t kind, const uint8_t *data,
                          cycle_t cycle)
{
    struct l1d_dq *q = &l->hq[idx_ring_push(&l->hq_r)];
    memset(&q->d, 0, offsetof(struct l1d_done, data));
    q->d.line_addr = line_addr;
    q->d.token = token;
    q->d.latency = l->hit_lat;
    q->d.kind = kind;
    q->d.src = L1D_SRC_HIT;
    if (data)
        memcpy(q->d.data, data, l->line);
    else
        memset(q->d.data, 0, sizeof q->d.data);
    q->ready = cycle + l->hit_lat;
}

enum l1d_result l1d_fail(struct l1d *l, enum l1d_rf_cause c, enum l1d_rf_cause *out)
{
    l->st.rf[c]++;
    if (out)
        *out = c;
    return L1D_FAIL;
}

/* ------------------------------------------------------------- protocol actions
 *
 * NOTE(l1d-coh): the line control is the (state x event) table of
 * sim/mem/coh_noncoh_l1.c (docs/coherence.md). Each path below checks its
 * resources first (a reservation fail changes nothing), derives the line's
 * state (a way's state byte is the protocol state; with allocate-on-fill an
 * open MSHR entry without a way is R), then l1_step runs the row's actions
 * and writes the next state into the line's way. I is reached only through
 * an action that frees the way (evict, drop_clean, drop_reserved, the
 * install after Replace, the bulk invalidation after InvAll). */


static inline void l1_step(struct l1d_step *s, unsigned state, unsigned ev)
{
    unsigned next = coh_step(&s->l->coh, s->line, state, ev, s);
    if (next != COH_L1_I && s->li >= 0 && ta_state_of(&s->l->tags, (uint32_t)s->li) != (enum ta_state)next)
        ta_set_state(&s->l->tags, (uint32_t)s->li, (enum ta_state)next);
}

/* Protocol state of a line from its way and MSHR entry. */
static inline unsigned l1_state(const struct l1d *l, int32_t li, int32_t e)
{
    if (li >= 0)
        return ta_state_of(&l->tags, (uint32_t)li);
    return e >= 0 ? COH_L1_R : COH_L1_I;
}

/* Replace step on victim way v (before the install of a new line). */
static void replace_way(struct l1d *l, int32_t v, cycle_t cycle)
{
    struct l1d_step r = {.l = l, .line = ta_tag_of(&l->tags, (uint32_t)v), .cycle = cycle, .li = v, .e = -1,
                         .victim = -1};
    enum ta_state st = ta_state_of(&l->tags, (uint32_t)v);
    if (UNLIKELY(l->ps != NULL) && st >= TA_VALID) /* NOTE(l1d-perfect): keep the replaced line */
        l1d_ps_put(l->ps, r.line, l1d_line_data(l, (uint32_t)v));
    l1_step(&r, st, COH_L1_REPLACE);
}

void l1d_act_touch(void *ctx)
{
    struct l1d_step *s = ctx;
    ta_touch(&s->l->tags, (uint32_t)s->li);
}

static void act_hit_done(void *ctx)
{
    struct l1d_step *s = ctx;
    struct l1d *l = s->l;
    if (s->a->txn.op == COAL_LOAD)
        l1d_push_hit_done(l, s->line, s->a->token, L1D_DONE_LOAD, l1d_line_data(l, (uint32_t)s->li), s->cycle);
    else
        l1d_push_hit_done(l, s->line, s->a->token, L1D_DONE_STORE, NULL, s->cycle);
}

int32_t l1d_open_entry(struct l1d *l, uint64_t line, bool probe, cycle_t cycle)
{
    int32_t e = mshr_alloc(&l->mshr, line);
    SIM_ASSERT(e >= 0, "l1d[%d]: MSHR full after check", l->sm_id);
    if (probe)
        ta_victim_probe(&l->tags, line); /* an allocating miss: would it have hit? (docs/cache.md) */
    l->mshr_line[e] = -1;
    l->mshr_stale[e] = 0;
    l->mshr_t[e] = cycle;
    l->mshr_warp[e] = l->cur_warp;
    l->mshr_cta[e] = l->cur_cta;
    return e;
}

static void act_open_mshr(void *ctx)
{
    struct l1d_step *s = ctx;
    struct l1d *l = s->l;
    int32_t e = l1d_open_entry(l, s->line, true, s->cycle);
    if (l->alloc == L1D_ALLOC_ON_MISS)
        l->mshr_line[e] = s->victim;
    l1d_mq_push(l, MEM_OP_READ, s->line, L1D_ID_FILL | (uint32_t)e, (uint8_t)l->line, s->cycle);
    s->e = e;
}

static void act_reserve_way(void *ctx)
{
    struct l1d_step *s = ctx;
    struct l1d *l = s->l;
    if (l->alloc != L1D_ALLOC_ON_MISS)
        return;
    /* the dirty victim's write-back goes right behind the read */
    replace_way(l, s->victim, s->cycle);
    ta_install(&l->tags, (uint32_t)s->victim, s->line, TA_RESERVED);
    l1d_set_inserter(l, (uint32_t)s->victim, l->cur_warp);
    s->li = s->victim;
}

static void act_add_request(void *ctx)
{
    struct l1d_step *s = ctx;
    struct l1d_pend *p = mshr_add(&s->l->mshr, (uint32_t)s->e);
    SIM_ASSERT(p, "l1d[%d]: MSHR merge after check", s->l->sm_id);
    p->token = s->a->token;
    p->t_acc = s->cycle;
}

struct mem_req *l1d_queue_write(struct l1d *l, const struct l1d_acc *a, cycle_t cycle)
{
    const struct coal_txn *t = &a->txn;
    struct mem_req *r = l1d_mq_push(l, MEM_OP_WRITE, t->line_addr | t->seg_offset, a->token, (uint8_t)t->seg_size, cycle);
    r->mask[0] = t->bytes[0];
    r->mask[1] = t->bytes[1];
    l1d_write_bytes(r->data, a->data, t->bytes);
    return r;
}

struct mem_req *l1d_queue_atomic(struct l1d *l, const struct l1d_acc *a, cycle_t cycle)
{
    const struct coal_txn *t = &a->txn;
    struct mem_req *r =
        l1d_mq_push(l, MEM_OP_ATOMIC, t->line_addr | t->seg_offset, a->token, (uint8_t)t->seg_size, cycle);
    r->atom = a->atom;
    memcpy(r->data, a->data, MEM_LINE_BYTES);
    return r;
}

void l1d_act_send_write(void *ctx)
{
    struct l1d_step *s = ctx;
    l1d_queue_write(s->l, s->a, s->cycle);
}

void l1d_act_send_atomic(void *ctx)
{
    struct l1d_step *s = ctx;
    l1d_queue_atomic(s->l, s->a, s->cycle);
}

void l1d_act_write_data(void *ctx)
{
    struct l1d_step *s = ctx;
    l1d_write_bytes(l1d_line_data(s->l, (uint32_t)s->li), s->a->data, s->a->txn.bytes);
}

static void act_evict(void *ctx)
{
    struct l1d_step *s = ctx;
    if (UNLIKELY(s->l->ps != NULL) && s->a->txn.op == COAL_STORE) /* NOTE(l1d-perfect): the store updates it */
        l1d_ps_put(s->l->ps, s->line, l1d_line_data(s->l, (uint32_t)s->li));
    ta_invalidate(&s->l->tags, (uint32_t)s->li);
    s->l->st.evictions++;
    s->li = -1;
}

void l1d_act_writeback(void *ctx)
{
    struct l1d_step *s = ctx;
    l1d_writeback_line(s->l, (uint32_t)s->li, s->cycle);
}

static void act_mark_stale(void *ctx)
{
    struct l1d_step *s = ctx;
    struct l1d *l = s->l;
    SIM_ASSERT(s->e >= 0, "l1d[%d]: line 0x%llx in R without an MSHR entry", l->sm_id, (unsigned long long)s->line);
    if (!l->mshr_stale[s->e]) {
        l->mshr_stale[s->e] = 1;
        l->st.stale_marks++;
    }
}

static void act_fill_line(void *ctx)
{
    struct l1d_step *s = ctx;
    struct l1d *l = s->l;
    if (UNLIKELY(l->ps != NULL)) /* a line lives in the tag array or the side store, not both */
        l1d_ps_remove(l->ps, s->line);
    if (l->alloc == L1D_ALLOC_ON_MISS) {
        uint32_t li = (uint32_t)s->li;
        SIM_ASSERT(s->li >= 0 && ta_state_of(&l->tags, li) == TA_RESERVED && ta_tag_of(&l->tags, li) == s->line,
                   "l1d[%d]: reserved line of MSHR entry %d lost", l->sm_id, s->e);
        memcpy(l1d_line_data(l, li), s->rep->data, l->line);
        return;
    }
    /* on_fill: the victim was chosen (and its write-back room checked) before the step */
    uint32_t v = (uint32_t)s->victim;
    replace_way(l, s->victim, s->cycle);
    ta_install(&l->tags, v, s->line, TA_VALID);
    l1d_set_inserter(l, v, l->mshr_warp[s->e]);
    memcpy(l1d_line_data(l, v), s->rep->data, l->line);
    s->li = s->victim;
}

void l1d_complete_entry(struct l1d *l, uint32_t e, uint64_t line, const uint8_t *data, cycle_t cycle)
{
    uint32_t n = mshr_count(&l->mshr, e);
    for (uint32_t k = 0; k < n; k++) {
        const struct l1d_pend *p = mshr_slot(&l->mshr, e, k);
        struct l1d_done *d = l1d_push_fill_done(l, line, p->token, L1D_DONE_LOAD, L1D_SRC_FILL, p->t_acc, cycle);
        memcpy(d->data, data, MEM_LINE_BYTES);
        stat_avg_add(&l->st.miss_lat, cycle - p->t_acc);
    }
}

void l1d_act_complete(void *ctx)
{
    struct l1d_step *s = ctx;
    l1d_complete_entry(s->l, (uint32_t)s->e, s->line, s->rep->data, s->cycle);
}

void l1d_act_release_mshr(void *ctx)
{
    struct l1d_step *s = ctx;
    mshr_close(&s->l->mshr, (uint32_t)s->e);
    mshr_release(&s->l->mshr, (uint32_t)s->e);
}

static void act_drop_reserved(void *ctx)
{
    struct l1d_step *s = ctx;
    if (s->li >= 0)
        ta_invalidate(&s->l->tags, (uint32_t)s->li);
    s->l->st.stale_fills++;
    s->li = -1;
}

static void act_drop_clean(void *ctx)
{
    struct l1d_step *s = ctx;
    ta_invalidate(&s->l->tags, (uint32_t)s->li);
    s->l->st.inval_lines++;
    s->li = -1;
}

static const coh_action_fn l1d_coh_fns[COH_L1A_N_ACTIONS] = {
    [COH_L1A_TOUCH] = l1d_act_touch,
    [COH_L1A_HIT_DONE] = act_hit_done,
    [COH_L1A_OPEN_MSHR] = act_open_mshr,
    [COH_L1A_RESERVE_WAY] = act_reserve_way,
    [COH_L1A_ADD_REQUEST] = act_add_request,
    [COH_L1A_SEND_WRITE] = l1d_act_send_write,
    [COH_L1A_SEND_ATOMIC] = l1d_act_send_atomic,
    [COH_L1A_WRITE_DATA] = l1d_act_write_data,
    [COH_L1A_EVICT] = act_evict,
    [COH_L1A_WRITEBACK] = l1d_act_writeback,
    [COH_L1A_MARK_STALE] = act_mark_stale,
    [COH_L1A_FILL_LINE] = act_fill_line,
    [COH_L1A_COMPLETE] = l1d_act_complete,
    [COH_L1A_RELEASE_MSHR] = l1d_act_release_mshr,
    [COH_L1A_DROP_RESERVED] = act_drop_reserved,
    [COH_L1A_DROP_CLEAN] = act_drop_clean,
};

/* ------------------------------------------------------------- access */

/* NOTE(vol-mshr): under coalesce.volatile_l1 = mshr (NOTE(volatile-l1) in
 * coalesce.c) a volatile load that finds neither its line nor an open MSHR
 * entry for it is an ordinary read miss: it opens an entry, reads the
 * line, completes with the fill and installs the line, which it asked the
 * L2 for after it was issued, so its value is as fresh as a bypass read's.
 * One that finds the line (valid or reserved) reads the L2 as a bypassing
 * read, because the copy or the fill under way may be older than the load;
 * so does every volatile load with l1d.perfect, whose side store is not
 * fresh either. */
static enum l1d_result access_load(struct l1d *l, const struct l1d_acc *a, cycle_t cycle, enum l1d_rf_cause *cause)
{
    const struct coal_txn *t = &a->txn;
    uint64_t line = t->line_addr;
    int32_t li = -1;
    if (t->l1_bypass) { /* no lookup, no line state: not a protocol event */
        if (UNLIKELY(t->vol_mshr) && l->ps == NULL) { /* NOTE(vol-mshr): a would-be miss is a miss */
            li = ta_probe(&l->tags, line);
            if (li < 0 && mshr_lookup(&l->mshr, line) < 0)
                goto cached;
        }
        if (reqq_free(&l->mq) < 1)
            return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
        l1d_mq_push(l, MEM_OP_READ, line | t->seg_offset, a->token, (uint8_t)t->seg_size, cycle);
        l->st.loads++;
        l->st.bypass_loads++;
        return L1D_SENT;
    }
    li = ta_probe(&l->tags, line);
cached:;
    struct l1d_step s = {.l = l, .a = a, .line = line, .cycle = cycle, .li = li, .e = -1, .victim = -1};
    if (s.li >= 0 && ta_state_of(&l->tags, (uint32_t)s.li) != TA_RESERVED) { /* V or M: hit */
        if (idx_ring_full(&l->hq_r))
            return l1d_fail(l, L1D_RF_DONE_FULL, cause);
        l1_step(&s, ta_state_of(&l->tags, (uint32_t)s.li), COH_L1_LOAD);
        l->st.loads++;
        l->st.load_hits++;
        return L1D_HIT;
    }
    if (UNLIKELY(l->ps != NULL) && s.li < 0) { /* NOTE(l1d-perfect): the side store holds it */
        const uint8_t *d = l1d_ps_find(l->ps, line);
        if (d) {
            if (idx_ring_full(&l->hq_r))
                return l1d_fail(l, L1D_RF_DONE_FULL, cause);
            l1d_push_hit_done(l, line, a->token, L1D_DONE_LOAD, d, cycle);
            l->st.loads++;
            l->st.load_hits++;
            l->st.perfect_hits++;
            return L1D_HIT;
        }
    }
    s.e = mshr_lookup(&l->mshr, line);
    if (s.e >= 0) { /* R: merge */
        if (l->mshr_stale[s.e])
            return l1d_fail(l, L1D_RF_STALE, cause);
        if (!mshr_can_merge(&l->mshr, (uint32_t)s.e))
            return l1d_fail(l, L1D_RF_MERGE_LIMIT, cause);
        l1_step(&s, COH_L1_R, COH_L1_LOAD);
        l->st.loads++;
        l->st.mshr_merges++;
        return L1D_MERGED;
    }
    SIM_ASSERT(s.li < 0, "l1d[%d]: line 0x%llx RESERVED without an open MSHR entry", l->sm_id,
               (unsigned long long)line);
    if (mshr_full(&l->mshr))
        return l1d_fail(l, L1D_RF_MSHR_FULL, cause);
    if (reqq_free(&l->mq) < 2)
        return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
    if (l->alloc == L1D_ALLOC_ON_MISS) {
        s.victim = ta_victim(&l->tags, ta_set_of(&l->tags, line));
        if (s.victim < 0)
            return l1d_fail(l, L1D_RF_SET_RESERVED, cause);
    }
    l1_step(&s, COH_L1_I, COH_L1_LOAD);
    l->st.loads++;
    l->st.load_misses++;
    return L1D_MISS;
}

static enum l1d_result access_store(struct l1d *l, const struct l1d_acc *a, cycle_t cycle, enum l1d_rf_cause *cause)
{
    const struct coal_txn *t = &a->txn;
    uint64_t line = t->line_addr;
    struct l1d_step s = {.l = l, .a = a, .line = line, .cycle = cycle, .li = ta_probe(&l->tags, line),
                         .e = mshr_lookup(&l->mshr, line), .victim = -1};
    unsigned st = l1_state(l, s.li, s.e);
    bool hit = st >= COH_L1_V;
    if (UNLIKELY(l->ps != NULL) && st == COH_L1_I) { /* NOTE(l1d-perfect) */
        uint8_t *d = l1d_ps_find(l->ps, line);
        if (d) { /* a hit in the side store: update the copy, write through */
            if (reqq_free(&l->mq) < 1)
                return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
            struct mem_req *r = l1d_mq_push(l, MEM_OP_WRITE, line | t->seg_offset, a->token, (uint8_t)t->seg_size, cycle);
            r->mask[0] = t->bytes[0];
            r->mask[1] = t->bytes[1];
            l1d_write_bytes(r->data, a->data, t->bytes);
            l1d_write_bytes(d, a->data, t->bytes);
            l->st.stores++;
            l->st.store_hits++;
            return L1D_SENT;
        }
    }
    /* resources, by the row the step will take */
    if (a->is_local && hit) { /* LocalStore in V/M: the line absorbs it */
        if (idx_ring_full(&l->hq_r))
            return l1d_fail(l, L1D_RF_DONE_FULL, cause);
    } else if (!a->is_local && l->coh.p == &coh_noncoh_l1_wt && st != COH_L1_R) {
        if (hit) { /* write-through hit */
            if (reqq_free(&l->mq) < 1)
                return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
        } else { /* write-through write miss: write, then allocate and read the line */
            if (mshr_full(&l->mshr))
                return l1d_fail(l, L1D_RF_MSHR_FULL, cause);
            if (reqq_free(&l->mq) < 3)
                return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
            if (l->alloc == L1D_ALLOC_ON_MISS) {
                s.victim = ta_victim(&l->tags, ta_set_of(&l->tags, line));
                if (s.victim < 0)
                    return l1d_fail(l, L1D_RF_SET_RESERVED, cause);
            }
            l->st.store_allocs++;
        }
    } else { /* the write goes to L2 without allocating; a dirty line is written back first */
        if (reqq_free(&l->mq) < 1u + (st == COH_L1_M ? 1u : 0u))
            return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
    }
    l1_step(&s, st, a->is_local ? COH_L1_LOCAL_STORE : COH_L1_STORE);
    if (UNLIKELY(l->ps != NULL)) { /* a copy the store evicted takes its bytes */
        uint8_t *d = l1d_ps_find(l->ps, line);
        if (d)
            l1d_write_bytes(d, a->data, t->bytes);
    }
    l->st.stores++;
    if (hit)
        l->st.store_hits++;
    else
        l->st.store_misses++;
    return a->is_local && hit ? L1D_HIT : L1D_SENT;
}

static enum l1d_result access_atomic(struct l1d *l, const struct l1d_acc *a, cycle_t cycle, enum l1d_rf_cause *cause)
{
    uint64_t line = a->txn.line_addr;
    struct l1d_step s = {.l = l, .a = a, .line = line, .cycle = cycle, .li = ta_probe(&l->tags, line),
                         .e = mshr_lookup(&l->mshr, line), .victim = -1};
    unsigned st = l1_state(l, s.li, s.e);
    if (reqq_free(&l->mq) < 1u + (st == COH_L1_M ? 1u : 0u))
        return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
    if (UNLIKELY(l->ps != NULL)) /* NOTE(l1d-perfect): the result is made at L2 */
        l1d_ps_remove(l->ps, line);
    l1_step(&s, st, COH_L1_ATOMIC); /* spec 2.6 Atomics: evict a valid L1 copy [proposal] */
    l->st.atomics++;
    return L1D_SENT;
}

/* NOTE(l1d-locality): l1d.locality_stats classifies every accepted L1D
 * load (hit, allocating miss, MSHR merge = miss; bypassing loads excluded)
 * by the last load of its line in this SM since kernel launch: the same
 * warp (same CTA and warp slot), another warp of the same CTA, a warp of
 * another CTA, or none (cold). Stores do not update the map (the L1D is
 * write-evict for global data). Simulation-only; off by default. */
static void loc_classify(struct l1d *l, const struct l1d_acc *a, bool hit)
{
    uint64_t me = (uint64_t)a->cta << 16 | a->warp;
    uint64_t prev = lastacc_swap(l->loc, a->txn.line_addr, me);
    enum l1d_loc c = prev == LASTACC_NONE        ? L1D_LOC_COLD
                     : prev == me                 ? L1D_LOC_INTRA_WARP
                     : prev >> 16 == me >> 16     ? L1D_LOC_INTRA_CTA
                                                  : L1D_LOC_INTER_CTA;
    l->st.loc[c][hit ? 0 : 1]++;
}

enum l1d_result l1d_access(struct l1d *l, const struct l1d_acc *a, cycle_t cycle, enum l1d_rf_cause *cause)
{
    if (l->last_acc == cycle + 1)
        return l1d_fail(l, L1D_RF_PORT, cause);
    const struct coal_txn *t = &a->txn;
    SIM_ASSERT(mem_line_off(t->line_addr) == 0, "l1d[%d]: unaligned line 0x%llx", l->sm_id,
               (unsigned long long)t->line_addr);
    SIM_ASSERT(a->token < L1D_ID_FILL, "l1d[%d]: token 0x%x uses the fill bit", l->sm_id, a->token);
    enum l1d_result r;
    l->cur_warp = a->warp;
    l->cur_cta = a->cta;
    l->cur_space = a->is_local ? MEM_SPACE_LOCAL : MEM_SPACE_GLOBAL;
    if (UNLIKELY(l->g != NULL)) {
        r = l1d_gtsc_access(l, a, cycle, cause);
    } else if (UNLIKELY(l->tc != NULL)) {
        r = l1d_tc_access(l, a, cycle, cause);
    } else {
        switch (t->op) {
        case COAL_LOAD: r = access_load(l, a, cycle, cause); break;
        case COAL_STORE: r = access_store(l, a, cycle, cause); break;
        case COAL_ATOMIC: r = access_atomic(l, a, cycle, cause); break;
        default: sim_panic("l1d[%d]: bad op %u", l->sm_id, t->op);
        }
    }
    l->cur_warp = MEM_WARP_NONE;
    l->cur_cta = MEM_CTA_NONE;
    if (r != L1D_FAIL) {
        l->last_acc = cycle + 1;
        l->gen++;
        if (UNLIKELY(l->ev_fn != NULL)) {
            static const uint8_t load_ev[4] = {L1D_EV_HIT, L1D_EV_MISS, L1D_EV_MERGE, L1D_EV_OTHER};
            enum l1d_event ev = t->op == COAL_LOAD    ? (enum l1d_event)load_ev[r]
                                : t->op == COAL_STORE ? L1D_EV_STORE
                                                      : L1D_EV_OTHER;
            l->ev_fn(l->ev_ctx, a->warp, ev, t->line_addr);
        }
        if (UNLIKELY(l->loc != NULL) && t->op == COAL_LOAD && r != L1D_SENT)
            loc_classify(l, a, r == L1D_HIT);
    }
    return r;
}

/* ------------------------------------------------------------- queues */

bool l1d_pop_req(struct l1d *l, struct mem_req *out, cycle_t cycle)
{
    if (!reqq_pop(&l->mq, out, cycle))
        return false;
    l->gen++;
    l->st.req_sent++;
    stat_avg_add(&l->st.mq_wait, cycle - out->t_create);
    if (UNLIKELY(l1d_coherent(l))) { /* NOTE(coh-traffic) */
        static const uint8_t kind[MEM_OP_COUNT] = {L1D_MSG_REQ_READ, L1D_MSG_REQ_WRITE, L1D_MSG_REQ_ATOMIC,
                                                   L1D_MSG_REQ_WB};
        unsigned k = out->op == MEM_OP_READ && l->g && out->coh.l1_wts ? L1D_MSG_REQ_RENEW : kind[out->op];
        l->st.msgs[k]++;
        l->st.msg_bytes[k] += mem_kind_of(out->op)->req_payload(out);
    }
    return true;
}

/* Count a reply by kind (NOTE(coh-traffic)). */
static void count_reply(struct l1d *l, const struct mem_reply *rep)
{
    unsigned k = rep->op == MEM_OP_WRITE    ? L1D_MSG_REP_ACK
                 : rep->op == MEM_OP_ATOMIC ? L1D_MSG_REP_ATOMIC
                 : rep->cflags & MEM_RF_RENEW ? L1D_MSG_REP_RENEW
                                              : L1D_MSG_REP_DATA;
    l->st.msgs[k]++;
    const struct mem_kind *mk = mem_kind_of(rep->op);
    l->st.msg_bytes[k] += mk->rep_payload ? mk->rep_payload(rep) : 0;
}

bool l1d_can_accept_reply(const struct l1d *l) { return !idx_ring_full(&l->rx_r); }

bool l1d_push_reply(struct l1d *l, const struct mem_reply *rep, cycle_t cycle)
{
    if (idx_ring_full(&l->rx_r))
        return false;
    SIM_ASSERT(rep->op != MEM_OP_WRITEBACK, "l1d[%d]: reply to a write-back", l->sm_id);
    struct l1d_rx *x = &l->rx[idx_ring_push(&l->rx_r)];
    x->rep = *rep;
    x->ready = cycle + 1;
    l->gen++;
    return true;
}

bool l1d_pop_done(struct l1d *l, struct l1d_done *out, cycle_t cycle)
{
    struct l1d_dq *h = l->hq_r.n ? &l->hq[l->hq_r.head] : NULL;
    struct l1d_dq *f = l->fq_r.n ? &l->fq[l->fq_r.head] : NULL;
    if (h && h->ready > cycle)
        h = NULL;
    if (f && f->ready > cycle)
        f = NULL;
    if (!h && !f)
        return false;
    /* Oldest ready first; on a tie the hit (it was accessed earlier). */
    if (h && (!f || h->ready <= f->ready)) {
        *out = h->d;
        idx_ring_pop(&l->hq_r);
    } else {
        *out = f->d;
        idx_ring_pop(&l->fq_r);
    }
    l->gen++;
    return true;
}

/* ------------------------------------------------------------- tick */

struct l1d_done *l1d_push_fill_done(struct l1d *l, uint64_t line_addr, uint32_t token, uint8_t kind,
                                       uint8_t src, uint64_t t_acc, cycle_t cycle)
{
    struct l1d_dq *q = &l->fq[idx_ring_push(&l->fq_r)];
    memset(&q->d, 0, offsetof(struct l1d_done, data));
    q->d.line_addr = line_addr;
    q->d.token = token;
    q->d.latency = (uint32_t)(cycle - t_acc);
    q->d.kind = kind;
    q->d.src = src;
    q->ready = cycle;
    return &q->d;
}

/* Process the head reply; false when it must wait (nothing changed). */
static bool process_reply(struct l1d *l, const struct mem_reply *rep, cycle_t cycle)
{
    if (UNLIKELY(l->g != NULL) || UNLIKELY(l->tc != NULL)) {
        bool done = l->g ? l1d_gtsc_reply(l, rep, cycle) : l1d_tc_reply(l, rep, cycle);
        if (done)
            count_reply(l, rep);
        return done;
    }
    if (rep->op == MEM_OP_READ && (rep->id & L1D_ID_FILL)) {
        uint32_t e = rep->id & ~L1D_ID_FILL;
        SIM_ASSERT(e < l->mshr.n_entries && l->mshr.state[e] == MSHR_OPEN &&
                       mshr_line(&l->mshr, e) == mem_line_of(rep->addr),
                   "l1d[%d]: fill 0x%llx for MSHR entry %u that does not expect it", l->sm_id,
                   (unsigned long long)rep->addr, e);
        uint64_t line = mshr_line(&l->mshr, e);
        uint32_t n = mshr_count(&l->mshr, e);
        if (idx_ring_free(&l->fq_r) < n)
            return false;
        struct l1d_step s = {.l = l, .rep = rep, .line = line, .cycle = cycle, .li = l->mshr_line[e],
                             .e = (int32_t)e, .victim = -1};
        if (!l->mshr_stale[e] && l->alloc == L1D_ALLOC_ON_FILL) {
            /* on_fill: choose the victim now; a dirty one needs a miss-queue slot */
            s.victim = ta_victim(&l->tags, ta_set_of(&l->tags, line));
            SIM_ASSERT(s.victim >= 0, "l1d[%d]: no victim with allocate-on-fill", l->sm_id);
            if (ta_state_of(&l->tags, (uint32_t)s.victim) == TA_MODIFIED && reqq_full(&l->mq))
                return false;
        }
        l->cur_warp = l->mshr_warp[e]; /* a victim's write-back is the filling miss's doing */
        l->cur_cta = l->mshr_cta[e];
        l1_step(&s, COH_L1_R, l->mshr_stale[e] ? COH_L1_STALE_FILL : COH_L1_FILL);
        l->cur_warp = MEM_WARP_NONE;
        l->cur_cta = MEM_CTA_NONE;
        l->st.fills++;
        return true;
    }
    if (idx_ring_full(&l->fq_r))
        return false;
    l1d_pass_through(l, rep, cycle);
    return true;
}

void l1d_pass_through(struct l1d *l, const struct mem_reply *rep, cycle_t cycle)
{
    uint8_t kind = rep->op == MEM_OP_READ ? L1D_DONE_LOAD : rep->op == MEM_OP_WRITE ? L1D_DONE_STORE : L1D_DONE_ATOMIC;
    SIM_ASSERT(rep->op == MEM_OP_READ || rep->op == MEM_OP_WRITE || rep->op == MEM_OP_ATOMIC,
               "l1d[%d]: reply with op %u", l->sm_id, rep->op);
    /* Pass-through replies carry no access time; latency is left 0 (the
     * LD/ST unit that issued the token measures it). */
    struct l1d_done *d = l1d_push_fill_done(l, mem_line_of(rep->addr), rep->id, kind, L1D_SRC_L2, cycle, cycle);
    d->n_lanes = rep->n_lanes;
    if (kind != L1D_DONE_STORE)
        memcpy(d->data, rep->data, MEM_LINE_BYTES);
}

#ifndef NDEBUG /* invariant checks every cycle in debug builds (STYLE.md item 4) */
static void check_invariants(const struct l1d *l)
{
    SIM_ASSERT(l->mq.r.n <= l->mq.r.cap && l->rx_r.n <= l->rx_r.cap && l->hq_r.n <= l->hq_r.cap &&
                   l->fq_r.n <= l->fq_r.cap,
               "l1d[%d]: ring count above capacity", l->sm_id);
    SIM_ASSERT(l->mshr.n_free <= l->mshr.n_entries, "l1d[%d]: MSHR free count %u > %u", l->sm_id, l->mshr.n_free,
               l->mshr.n_entries);
}
#endif

uint64_t l1d_tick(struct l1d *l, cycle_t cycle)
{
#ifndef NDEBUG
    check_invariants(l);
#endif
    /* One reply per cycle: completions and fills happen in arrival order. */
    if (l->rx_r.n && l->rx[l->rx_r.head].ready <= cycle) {
        l->gen++; /* NOTE(fail-memo): whether or not it can be taken */
        if (process_reply(l, &l->rx[l->rx_r.head].rep, cycle)) {
            idx_ring_pop(&l->rx_r);
            l->st.replies++;
        } else {
            l->st.stall_resp++;
        }
    }
    /* Kernel-end flush: one dirty line per cycle into the miss queue. */
    uint32_t n_lines = ta_n_lines(&l->tags);
    while (l->flush_pos < n_lines && !reqq_full(&l->mq)) {
        uint32_t li = l->flush_pos++;
        l->gen++;
        if (ta_state_of(&l->tags, li) == TA_MODIFIED) { /* I, V: no-op rows, not stepped */
            if (UNLIKELY(l->g != NULL)) {
                l1d_gtsc_flush_line(l, li, cycle);
                break;
            }
            if (UNLIKELY(l->tc != NULL)) {
                l1d_tc_flush_line(l, li, cycle);
                break;
            }
            struct l1d_step s = {.l = l, .line = ta_tag_of(&l->tags, li), .cycle = cycle, .li = (int32_t)li,
                                 .e = -1, .victim = -1};
            l1_step(&s, COH_L1_M, COH_L1_FLUSH);
            break;
        }
    }
    uint64_t next = CYCLE_NEVER;
    if (l->rx_r.n || l->flush_pos < n_lines)
        next = cycle + 1;
    next = MIN(next, reqq_next(&l->mq, cycle));
    if (l->hq_r.n)
        next = MIN(next, MAX(l->hq[l->hq_r.head].ready, cycle + 1));
    if (l->fq_r.n)
        next = MIN(next, cycle + 1);
    return next;
}

/* ------------------------------------------------------------- kernel boundary */

void l1d_invalidate_clean(struct l1d *l, cycle_t cycle)
{
    SIM_ASSERT(!l1d_coherent(l), "l1d[%d]: acquire invalidation of a coherent L1D (ldst must skip it)", l->sm_id);
    l->gen++;
    /* Lines in V or M step here; R is stepped per open MSHR entry below (with
     * allocate-on-fill it has no way). */
    uint32_t n = ta_n_lines(&l->tags);
    for (uint32_t i = 0; i < n; i++) {
        enum ta_state st = ta_state_of(&l->tags, i);
        if (st >= TA_VALID) {
            struct l1d_step s = {.l = l, .line = ta_tag_of(&l->tags, i), .cycle = cycle, .li = (int32_t)i,
                                 .e = -1, .victim = -1};
            l1_step(&s, st, COH_L1_INV_CLEAN);
        }
    }
    for (uint32_t e = 0; e < l->mshr.n_entries; e++)
        if (l->mshr.state[e] == MSHR_OPEN) {
            struct l1d_step s = {.l = l, .line = mshr_line(&l->mshr, e), .cycle = cycle, .li = l->mshr_line[e],
                                 .e = (int32_t)e, .victim = -1};
            l1_step(&s, COH_L1_R, COH_L1_INV_CLEAN);
        }
    if (UNLIKELY(l->ps != NULL)) /* NOTE(l1d-perfect): the side store holds clean lines only */
        l1d_ps_clear(l->ps);
    l->st.inval_clean++;
}

void l1d_invalidate_all(struct l1d *l)
{
    SIM_ASSERT(l1d_idle(l), "l1d[%d]: invalidate with accesses outstanding", l->sm_id);
    l->gen++;
    /* Per-line steps check every line against the table (M, a dirty line that
     * kernel end did not flush, has no InvAll row and panics); the rows' I is
     * then reached by one bulk invalidation (TA_EV_FLUSH accounting). */
    if (UNLIKELY(l->g != NULL)) {
        l1d_gtsc_invalidate_all(l); /* on its own table; every warp_ts back to 1 */
    } else if (UNLIKELY(l->tc != NULL)) {
        l1d_tc_invalidate_all(l);
    } else {
        for (uint32_t i = 0; i < ta_n_lines(&l->tags); i++) {
            struct l1d_step s = {.l = l, .line = ta_tag_of(&l->tags, i), .li = -1, .e = -1, .victim = -1};
            l1_step(&s, ta_state_of(&l->tags, i), COH_L1_INV_ALL);
        }
    }
    ta_invalidate_all(&l->tags);
    if (l->ps)
        l1d_ps_clear(l->ps);
    if (l->loc) /* kernel launch: the locality map starts empty (NOTE(l1d-locality)) */
        lastacc_clear(l->loc);
    if (l->seen)
        lastacc_clear(l->seen);
}

void l1d_flush_dirty(struct l1d *l)
{
    l->flush_pos = 0;
    l->gen++;
}

bool l1d_idle(const struct l1d *l)
{
    return reqq_empty(&l->mq) && l->rx_r.n == 0 && l->hq_r.n == 0 && l->fq_r.n == 0 && mshr_in_use(&l->mshr) == 0 &&
           l->flush_pos >= ta_n_lines(&l->tags);
}

enum ta_state l1d_probe_line(const struct l1d *l, uint64_t line_addr, uint8_t out[MEM_LINE_BYTES])
{
    int32_t li = ta_probe(&l->tags, line_addr);
    if (li < 0)
        return TA_INVALID;
    if (out)
        memcpy(out, l->data + (uint64_t)li * l->line, l->line);
    return ta_state_of(&l->tags, (uint32_t)li);
}

/* ------------------------------------------------------------- statistics */

static const char *const l1d_rf_names[L1D_RF_COUNT] = {"rf_mshr_full", "rf_merge_limit", "rf_miss_queue",
                                                       "rf_set_reserved", "rf_stale", "rf_done_full", "rf_port"};
static const char *const l1d_rf_docs[L1D_RF_COUNT] = {
    "reservation fails: no free MSHR entry (per attempt)",
    "reservation fails: MSHR entry at its merge limit (per attempt)",
    "reservation fails: miss queue lacks the slots needed (per attempt)",
    "reservation fails: every way of the set RESERVED (per attempt)",
    "reservation fails: load to a line whose MSHR entry is stale (per attempt)",
    "reservation fails: hit completion queue full (per attempt)",
    "second access in one cycle refused (per attempt)"};

void l1d_stats_register(struct l1d *l, struct stats *s)
{
    int i = l->sm_id;
    const char *g = "l1d";
    stats_counter(s, g, i, "loads", &l->st.loads, "load transactions accepted (bypass included)");
    stats_counter(s, g, i, "stores", &l->st.stores, "store transactions accepted");
    stats_counter(s, g, i, "atomics", &l->st.atomics, "atomic transactions accepted (sent to L2)");
    stats_counter(s, g, i, "load_hits", &l->st.load_hits, "loads served from the L1");
    stats_counter(s, g, i, "load_misses", &l->st.load_misses, "loads that opened an MSHR entry");
    stats_counter(s, g, i, "mshr_merges", &l->st.mshr_merges, "loads merged into an open MSHR entry (MSHR hits)");
    stats_counter(s, g, i, "bypass_loads", &l->st.bypass_loads, ".cg/.cv/volatile loads sent to L2");
    stats_counter(s, g, i, "store_hits", &l->st.store_hits, "stores that found their line valid");
    stats_counter(s, g, i, "store_misses", &l->st.store_misses, "stores that did not find their line valid");
    stats_counter(s, g, i, "store_allocs", &l->st.store_allocs, "write-through write misses that allocated");
    stats_counter(s, g, i, "evictions", &l->st.evictions, "lines evicted by a global store or an atomic");
    for (int k = 0; k < L1D_RF_COUNT; k++)
        stats_counter(s, g, i, l1d_rf_names[k], &l->st.rf[k], l1d_rf_docs[k]);
    stats_counter(s, g, i, "writebacks", &l->st.writebacks, "dirty local lines written back to L2");
    stats_counter(s, g, i, "fills", &l->st.fills, "line fills processed");
    stats_counter(s, g, i, "stale_marks", &l->st.stale_marks, "MSHR entries marked stale by a store, an atomic or an acquire invalidation");
    stats_counter(s, g, i, "stale_fills", &l->st.stale_fills, "fills not installed because the entry was stale");
    stats_counter(s, g, i, "inval_clean", &l->st.inval_clean,
                  "clean-line invalidations by gpu-scope acquires and fences (docs/memmodel.md)");
    stats_counter(s, g, i, "inval_lines", &l->st.inval_lines, "VALID lines dropped by those invalidations");
    stats_counter(s, g, i, "replies", &l->st.replies, "replies processed");
    stats_counter(s, g, i, "req_sent", &l->st.req_sent, "requests sent toward L2");
    stats_counter(s, g, i, "stall_resp", &l->st.stall_resp, "core cycles the reply-FIFO head waited");
    stats_avg(s, g, i, "miss_latency", &l->st.miss_lat, "core cycles from access to completion, loads served by a fill");
    stats_avg(s, g, i, "mq_wait", &l->st.mq_wait,
              "core cycles a request waited in the miss queue before entering the network (with icnt.req.rx_latency: "
              "GPGPU-Sim's avg_icnt2mem_latency)");
    if (l->cache_stats) /* only when not default, so the default output is unchanged */
        ta_stats_register(&l->tags, s, g, i);
    if (l->g) /* coh.protocol = gtsc only */
        l1d_gtsc_stats_register(l, s);
    if (l->tc) /* coh.protocol = tc only */
        l1d_tc_stats_register(l, s);
    if (l1d_coherent(l)) { /* NOTE(coh-traffic) */
        stats_counter(s, g, i, "coh_miss_cold", &l->st.miss_cold,
                      "read misses of a line not requested by this L1D since kernel launch");
        stats_counter(s, g, i, "coh_miss_evicted", &l->st.miss_evicted,
                      "read misses of an absent line requested before (capacity, conflict, or dropped by an atomic "
                      "or a stale ack); lease misses are gtsc_lease_misses / tc_expired");
        static const char *const nm[L1D_MSG_COUNT] = {"req_read", "req_renew", "req_write", "req_atomic",
                                                      "req_writeback", "rep_data", "rep_renew", "rep_ack",
                                                      "rep_atomic"};
        static const char *const dc[L1D_MSG_COUNT] = {
            "line reads (and bypassing reads) sent", "G-TSC renewal reads sent (a copy's wts attached)",
            "writes sent", "atomics sent", "local write-backs sent", "replies with data received",
            "G-TSC data-less renewals (BusRnw) received", "write acks received", "atomic replies received"};
        char n1[48], d1[160];
        for (int k = 0; k < L1D_MSG_COUNT; k++) {
            snprintf(n1, sizeof n1, "coh_%s", nm[k]);
            stats_counter(s, g, i, n1, &l->st.msgs[k], dc[k]);
            snprintf(n1, sizeof n1, "coh_%s_bytes", nm[k]);
            snprintf(d1, sizeof d1, "payload bytes of those (%s)", nm[k]);
            stats_counter(s, g, i, n1, &l->st.msg_bytes[k], d1);
        }
    }
    if (l->ps) /* l1d.perfect only, so the default output is unchanged */
        stats_counter(s, g, i, "perfect_hits", &l->st.perfect_hits,
                      "l1d.perfect: loads served from the side store of lines the tag array no longer holds");
    if (l->loc) { /* l1d.locality_stats only (NOTE(l1d-locality)) */
        static const char *const nm[4][2] = {{"loc_intra_warp_hits", "loc_intra_warp_misses"},
                                             {"loc_intra_cta_hits", "loc_intra_cta_misses"},
                                             {"loc_inter_cta_hits", "loc_inter_cta_misses"},
                                             {"loc_cold_hits", "loc_cold_misses"}};
        static const char *const dc[4] = {"last loaded by the same warp", "last loaded by another warp of the CTA",
                                          "last loaded by a warp of another CTA", "not loaded in this SM since launch"};
        char doc[160];
        for (int c = 0; c < 4; c++)
            for (int h = 0; h < 2; h++) {
                snprintf(doc, sizeof doc, "loads that %s (miss: allocating or merged), line %s", h ? "missed" : "hit",
                         dc[c]);
                stats_counter(s, g, i, nm[c][h], &l->st.loc[c][h], doc);
            }
    }
}

void l1d_stats_dump(const struct l1d *l, FILE *out)
{
    const struct l1d_stats *s = &l->st;
    fprintf(out, "l1d[%d]: loads %llu (hits %llu, misses %llu, merges %llu, bypass %llu) stores %llu atomics %llu "
                 "writebacks %llu fills %llu stale %llu/%llu\n",
            l->sm_id, (unsigned long long)s->loads, (unsigned long long)s->load_hits,
            (unsigned long long)s->load_misses, (unsigned long long)s->mshr_merges,
            (unsigned long long)s->bypass_loads, (unsigned long long)s->stores, (unsigned long long)s->atomics,
            (unsigned long long)s->writebacks, (unsigned long long)s->fills, (unsigned long long)s->stale_marks,
            (unsigned long long)s->stale_fills);
    for (int k = 0; k < L1D_RF_COUNT; k++)
        fprintf(out, "  %s %llu\n", l1d_rf_names[k], (unsigned long long)s->rf[k]);
}
