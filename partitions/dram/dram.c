/* partitions/dram/dram.c: DRAM controller and GDDR5 channel. See dram.h for what
 * is and is not modelled.
 *
 * One tick = one DRAM command cycle, stages in this order:
 *   1. retire:   in-flight requests whose data is done leave (reads into the
 *                return queue, writes complete);
 *   2. schedule: the policy hands at most one waiting request to a free bank;
 *   3. issue:    at most one command, banks tried in rotating priority;
 *   4. admit:    the head of the delay line enters the scheduler queue.
 * NOTE(stage-order): stages run back to front so that a request moves at
 * most one step per cycle, except schedule->issue, which run in the same
 * cycle on purpose: GPGPU-Sim 3.x (dram_t::cycle) hands a request to a bank
 * and issues that bank's first command in one DRAM cycle, so a request that
 * entered the queue in cycle c can ACT in c+1. Splitting them would add one
 * DRAM cycle to every access.
 *
 * Timing: every constraint of spec §3.3 is one row of dram_constraints[]
 * {scope, preceding commands, following commands, latency in named
 * parameters}. dram_init evaluates the latencies once into
 * lat[scope][prev][next]; issuing command C at cycle t raises the
 * earliest-issue cycle of each following command in C's bank, bank group and
 * channel. The per-cycle legality test is then three compares (plus the data
 * bus and the return-queue reservation).
 */
#include "partitions/dram/dram.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partitions/dram/dram_sched.h"
#include "sim/mem/ring.h"

/* --------------------------------------------------------- constraint table */

enum dram_scope { DRAM_SCOPE_BANK = 0, DRAM_SCOPE_GROUP = 1, DRAM_SCOPE_CHAN = 2 };

/* Latency expressions, in named configuration parameters (spec §3.3). */
enum dram_lat_expr {
    LAT_tRCD,   /* tRCD */
    LAT_tRCDWR, /* tRCD - (tWL + 1): ACT -> WR, GPGPU-Sim's tRCDWR */
    LAT_tRAS,   /* tRAS */
    LAT_tRC,    /* tRC */
    LAT_tRP,    /* tRP */
    LAT_tRTP,   /* BL / data_cmd_ratio: RD -> PRE in the same bank (2) */
    LAT_tWTP,   /* tWL + BL/ratio + tWR: WR -> PRE in the same bank (18) */
    LAT_tCCDL,  /* tCCDL */
    LAT_tRTPL,  /* tRTPL */
    LAT_tCCDS,  /* tCCDS */
    LAT_tRRD,   /* tRRD */
    LAT_tRTW,   /* tCL + BL/ratio + 2 - tWL: RD -> WR anywhere in the channel (12) */
    LAT_tWTR,   /* tWL + BL/ratio + tCDLR: WR -> RD anywhere in the channel (11) */
};

#define CMDM(c) (1u << (c))
#define COLM (CMDM(DRAM_CMD_RD) | CMDM(DRAM_CMD_WR))

struct dram_constraint {
    enum dram_scope scope;   /* which instances share the constraint */
    unsigned prev;           /* mask of preceding commands */
    unsigned next;           /* mask of following commands */
    enum dram_lat_expr lat;  /* minimum distance prev -> next (cycles) */
};

/* NOTE(no-window): GDDR5 as specified has no tFAW-style window constraint,
 * so the table has no window column; add one with a per-scope history if a
 * DDR preset needs tFAW. */
static const struct dram_constraint dram_constraints[] = {
    /* per bank */
    {.scope = DRAM_SCOPE_BANK, .prev = CMDM(DRAM_CMD_ACT), .next = CMDM(DRAM_CMD_RD), .lat = LAT_tRCD},
    {.scope = DRAM_SCOPE_BANK, .prev = CMDM(DRAM_CMD_ACT), .next = CMDM(DRAM_CMD_WR), .lat = LAT_tRCDWR},
    {.scope = DRAM_SCOPE_BANK, .prev = CMDM(DRAM_CMD_ACT), .next = CMDM(DRAM_CMD_PRE), .lat = LAT_tRAS},
    {.scope = DRAM_SCOPE_BANK, .prev = CMDM(DRAM_CMD_ACT), .next = CMDM(DRAM_CMD_ACT), .lat = LAT_tRC},
    {.scope = DRAM_SCOPE_BANK, .prev = CMDM(DRAM_CMD_PRE), .next = CMDM(DRAM_CMD_ACT), .lat = LAT_tRP},
    {.scope = DRAM_SCOPE_BANK, .prev = CMDM(DRAM_CMD_RD), .next = CMDM(DRAM_CMD_PRE), .lat = LAT_tRTP},
    {.scope = DRAM_SCOPE_BANK, .prev = CMDM(DRAM_CMD_WR), .next = CMDM(DRAM_CMD_PRE), .lat = LAT_tWTP},
    /* per bank group */
    {.scope = DRAM_SCOPE_GROUP, .prev = COLM, .next = COLM, .lat = LAT_tCCDL},
    {.scope = DRAM_SCOPE_GROUP, .prev = CMDM(DRAM_CMD_RD), .next = CMDM(DRAM_CMD_PRE), .lat = LAT_tRTPL},
    /* per channel */
    {.scope = DRAM_SCOPE_CHAN, .prev = COLM, .next = COLM, .lat = LAT_tCCDS},
    {.scope = DRAM_SCOPE_CHAN, .prev = CMDM(DRAM_CMD_ACT), .next = CMDM(DRAM_CMD_ACT), .lat = LAT_tRRD},
    {.scope = DRAM_SCOPE_CHAN, .prev = CMDM(DRAM_CMD_RD), .next = CMDM(DRAM_CMD_WR), .lat = LAT_tRTW},
    {.scope = DRAM_SCOPE_CHAN, .prev = CMDM(DRAM_CMD_WR), .next = CMDM(DRAM_CMD_RD), .lat = LAT_tWTR},
};

static uint64_t lat_eval(const struct dram_cfg *c, enum dram_lat_expr e)
{
    uint64_t bl = c->burst / c->data_cmd_ratio; /* command cycles per burst */
    switch (e) {
    case LAT_tRCD: return c->tRCD;
    case LAT_tRCDWR: return c->tRCD - (c->tWL + 1); /* validated >= 0 */
    case LAT_tRAS: return c->tRAS;
    case LAT_tRC: return c->tRC;
    case LAT_tRP: return c->tRP;
    case LAT_tRTP: return bl;
    case LAT_tWTP: return c->tWL + bl + c->tWR;
    case LAT_tCCDL: return c->tCCDL;
    case LAT_tRTPL: return c->tRTPL;
    case LAT_tCCDS: return c->tCCDS;
    case LAT_tRRD: return c->tRRD;
    case LAT_tRTW: return c->tCL + bl + 2 - c->tWL; /* validated >= 0 */
    case LAT_tWTR: return c->tWL + bl + c->tCDLR;
    }
    sim_panic("dram: bad latency expression %d", (int)e);
}

const char *dram_cmd_name(enum dram_cmd c)
{
    static const char *const names[DRAM_N_CMD] = {"ACT", "PRE", "RD", "WR"};
    return (unsigned)c < DRAM_N_CMD ? names[c] : "?";
}

/* ------------------------------------------------------------------- init */

static void dram_init_report(void *ctx, const char *key, const char *msg)
{
    fprintf(stderr, "gpusim: dram %u: %s: %s\n", *(const unsigned *)ctx, key, msg);
}

void dram_init(struct dram *d, const struct dram_cfg *cfg, unsigned channel_id)
{
    if (dram_cfg_validate(cfg, dram_init_report, &channel_id) != 0)
        sim_panic("dram %u: invalid configuration reached dram_init", channel_id);
    memset(d, 0, sizeof *d);
    d->tb_pipe_ps = d->tb_dram_ps = 1;
    d->cfg = *cfg;
    d->channel_id = channel_id;
    /* NOTE(mask-words): the bank masks' loops stop at the words in use */
    d->mask_words = (uint32_t)((cfg->banks + 63) / 64);
    SIM_ASSERT(d->mask_words <= DRAM_BANK_WORDS, "dram %u: %u banks", channel_id, (unsigned)cfg->banks);
    switch (cfg->sched) {
    case DRAM_SCHED_FCFS: d->sched = &dram_sched_fcfs; break;
    case DRAM_SCHED_MSHR_M: d->sched = &dram_sched_mshr_m; break;
    case DRAM_SCHED_MSHR_S: d->sched = &dram_sched_mshr_s; break;
    case DRAM_SCHED_MSHR_SA: d->sched = &dram_sched_mshr_sa; break;
    default: d->sched = &dram_sched_frfcfs; break;
    }
    if (d->sched->init)
        d->sched->init(d);
    /* The configured policy decides (a policy set later by dram_set_sched,
     * in tests, keeps the oracle path unless dram.sched named an MSHR one). */
    d->mib_on = cfg->icl_exact_hw && (cfg->sched == DRAM_SCHED_MSHR_M || cfg->sched == DRAM_SCHED_MSHR_S ||
                                      cfg->sched == DRAM_SCHED_MSHR_SA);
    d->burst_cycles = (uint32_t)(cfg->burst / cfg->data_cmd_ratio);
    d->col_bytes = (uint32_t)(cfg->bus_bytes * cfg->burst);
    d->banks_per_group = (uint32_t)(cfg->banks / cfg->bank_groups);

    for (size_t i = 0; i < ARRAY_LEN(dram_constraints); i++) {
        const struct dram_constraint *k = &dram_constraints[i];
        uint64_t v = lat_eval(cfg, k->lat);
        SIM_ASSERT(v < UINT32_MAX, "dram %u: latency overflow", channel_id);
        for (unsigned p = 0; p < DRAM_N_CMD; p++)
            for (unsigned n = 0; n < DRAM_N_CMD; n++)
                if ((k->prev & CMDM(p)) && (k->next & CMDM(n)) && v > d->lat[k->scope][p][n])
                    d->lat[k->scope][p][n] = (uint32_t)v;
    }

    uint32_t nb = (uint32_t)cfg->banks;
    d->bank_next = xcalloc((size_t)nb * DRAM_N_CMD, sizeof *d->bank_next);
    d->group_next = xcalloc((size_t)cfg->bank_groups * DRAM_N_CMD, sizeof *d->group_next);
    d->bank = xcalloc(nb, sizeof *d->bank);
    for (uint32_t b = 0; b < nb; b++) {
        d->bank[b].open_row = DRAM_NONE;
        d->bank[b].sched_row = DRAM_NONE;
        d->bank[b].serving = DRAM_NONE;
        d->bank[b].head = d->bank[b].tail = DRAM_NONE;
        d->bank[b].group = cfg->bank_group_index == DRAM_BG_LOW ? b % (uint32_t)cfg->bank_groups
                                                                : b / d->banks_per_group;
        d->bank[b].cmd = DRAM_N_CMD;
    }

    uint64_t qcap = cfg->separate_rw ? cfg->rdq + cfg->wrq : cfg->queue;
    /* Pool bound: waiting (qcap) + in service (one per bank) + reads in
     * flight or returned (return-queue reservations) + writes in flight (at
     * most one per cycle for tWL cycles, plus the one issued now). */
    d->n_slots = (uint32_t)(qcap + nb + cfg->return_queue + cfg->tWL + 1);
    d->slot = xcalloc(d->n_slots, sizeof *d->slot);
    for (uint32_t s = 0; s < d->n_slots; s++)
        d->slot[s].next = s + 1 < d->n_slots ? s + 1 : DRAM_NONE;
    d->free_head = 0;
    d->arr_head = d->arr_tail = DRAM_NONE;
    d->inflight = xcalloc(d->n_slots, sizeof *d->inflight);

    /* NOTE(delay-cap): the partition bounds requests in the controller by
     * its credits, dram.queue + dram.return_queue - 1 shared plus 1 per
     * sub-partition (§2.8 point 4) = queue + return_queue + 1 for two
     * sub-partitions; the delay line gets one more than that so that it is
     * never the limiting structure under the partition's credit rule. */
    d->delay_cap = (uint32_t)(qcap + cfg->return_queue + 2);
    d->delay = xcalloc(d->delay_cap, sizeof *d->delay);
    /* NOTE(dummy-ring): dummies travel the same fixed-latency link as
     * requests but in their own ring of the same capacity: a dummy never
     * enters a queue, so it cannot block behind a request waiting for
     * queue room; the order a single pipe gives is kept by delivering a
     * dummy only after every request pushed before it (stage_admit). */
    d->dummy = xcalloc(d->delay_cap, sizeof *d->dummy);

    d->retq_cap = (uint32_t)cfg->return_queue;
    d->retq = xcalloc(d->retq_cap, sizeof *d->retq);
    d->retq_cycle = xcalloc(d->retq_cap, sizeof *d->retq_cycle);

    d->last_col_dir = -1;
    d->last_cycle = CYCLE_NEVER;
    d->scan_gen = UINT64_MAX; /* NOTE(scan-memo): no scan yet */
    stat_hist_init(&d->st.read_latency_hist, 64, 16);
    stat_hist_init(&d->st.hand_merges, 17, 1);
}

void dram_fini(struct dram *d)
{
    if (d->sched && d->sched->fini)
        d->sched->fini(d);
    free(d->bank_next);
    free(d->group_next);
    free(d->bank);
    free(d->slot);
    free(d->inflight);
    free(d->delay);
    free(d->dummy);
    free(d->retq);
    free(d->retq_cycle);
    stat_hist_fini(&d->st.read_latency_hist);
    stat_hist_fini(&d->st.hand_merges);
    memset(d, 0, sizeof *d);
}

void dram_set_sched(struct dram *d, const struct dram_sched_ops *ops)
{
    SIM_ASSERT(ops && ops->pick, "dram %u: scheduler policy without pick", d->channel_id);
    if (d->sched->fini)
        d->sched->fini(d);
    d->sched_state = NULL;
    d->sched = ops;
    if (ops->init)
        ops->init(d);
}

bool dram_sched_wants_update(const struct dram *d) { return d->sched->on_update != NULL; }

void dram_set_time_base(struct dram *d, uint64_t pipe_ps, uint64_t dram_ps)
{
    SIM_ASSERT(pipe_ps > 0 && dram_ps > 0, "dram %u: time base %llu/%llu ps", d->channel_id,
               (unsigned long long)pipe_ps, (unsigned long long)dram_ps);
    d->tb_pipe_ps = pipe_ps;
    d->tb_dram_ps = dram_ps;
}

bool dram_update(struct dram *d, uint64_t addr, uint16_t merges, uint64_t t_create, cycle_t cycle)
{
    for (uint32_t k = 0; k < d->delay_count; k++) {
        struct dram_req *r = &d->delay[ring_wrap(d->delay_head + k, d->delay_cap)].req;
        if (!r->is_write && r->addr == addr) {
            uint16_t old = r->merges;
            r->merges_live = merges;
            if (!d->mib_on) { /* exact path: the scheduler sees the count only through its MIB */
                r->merges = merges;
                r->t_create_sum += t_create;
            }
            if (d->sched->on_update)
                d->sched->on_update(d, DRAM_NONE, old, cycle);
            return true;
        }
    }
    for (uint32_t s = d->arr_head; s != DRAM_NONE; s = d->slot[s].next) {
        struct dram_req *r = &d->slot[s].req;
        if (!r->is_write && r->addr == addr) {
            uint16_t old = r->merges;
            r->merges_live = merges;
            if (!d->mib_on) {
                r->merges = merges;
                r->t_create_sum += t_create;
            }
            if (d->sched->on_update)
                d->sched->on_update(d, s, old, cycle);
            return true;
        }
    }
    return false;
}

void dram_set_trace(struct dram *d, dram_trace_fn fn, void *ctx)
{
    d->trace = fn;
    d->trace_ctx = ctx;
}

/* ------------------------------------------------------------- admission */

static bool queue_has_room(const struct dram *d, bool is_write)
{
    if (!d->cfg.separate_rw)
        return d->n_wait < d->cfg.queue;
    return is_write ? d->n_wait_wr < d->cfg.wrq : d->n_wait_rd < d->cfg.rdq;
}

bool dram_can_accept(const struct dram *d, bool is_write)
{
    return d->delay_count < d->delay_cap && queue_has_room(d, is_write);
}

bool dram_push(struct dram *d, const struct dram_req *req, cycle_t ready_cycle)
{
    if (!dram_can_accept(d, req->is_write)) {
        d->st.refused++;
        return false;
    }
    SIM_ASSERT(req->bank < d->cfg.banks && req->row < d->cfg.rows,
               "dram %u: request tag %llu bank %u row %u out of range", d->channel_id,
               (unsigned long long)req->tag, req->bank, req->row);
    uint32_t i = ring_wrap(d->delay_head + d->delay_count, d->delay_cap);
    d->delay[i].req = *req;
    if (!req->is_write && req->merges_live == 0)
        d->delay[i].req.merges_live = req->merges ? req->merges : 1;
    d->delay[i].ready_cycle = ready_cycle;
    d->delay_count++;
    return true;
}

bool dram_can_accept_dummy(const struct dram *d) { return d->dummy_count < d->delay_cap; }

bool dram_push_dummy(struct dram *d, const struct dram_dummy *m)
{
    SIM_ASSERT(d->mib_on, "dram %u: dummy message without the exact-hardware path", d->channel_id);
    if (!dram_can_accept_dummy(d))
        return false;
    d->dummy[ring_wrap(d->dummy_head + d->dummy_count, d->delay_cap)] = *m;
    d->dummy_count++;
    return true;
}

uint32_t dram_pending(const struct dram *d)
{
    uint32_t serving = 0;
    for (uint32_t w = 0; w < d->mask_words; w++) /* NOTE(bank-masks) */
        serving += (uint32_t)__builtin_popcountll(d->busy[w]);
    return d->delay_count + d->n_wait + serving + d->n_inflight + d->retq_count;
}

/* --------------------------------------------------------- slot lists */

static uint32_t slot_alloc(struct dram *d)
{
    uint32_t s = d->free_head;
    SIM_ASSERT(s != DRAM_NONE, "dram %u: request pool of %u exhausted", d->channel_id, d->n_slots);
    d->free_head = d->slot[s].next;
    return s;
}

static void slot_free(struct dram *d, uint32_t s)
{
    d->slot[s].next = d->free_head;
    d->free_head = s;
}

/* Append a waiting slot to the arrival list and its bank's list. */
static void wait_insert(struct dram *d, uint32_t s)
{
    struct dram_slot *x = &d->slot[s];
    struct dram_bank *bk = &d->bank[x->req.bank];
    x->next = DRAM_NONE;
    x->prev = d->arr_tail;
    if (d->arr_tail != DRAM_NONE)
        d->slot[d->arr_tail].next = s;
    else
        d->arr_head = s;
    d->arr_tail = s;
    x->bnext = DRAM_NONE;
    x->bprev = bk->tail;
    if (bk->tail != DRAM_NONE)
        d->slot[bk->tail].bnext = s;
    else
        bk->head = s;
    bk->tail = s;
    dram_mask_put(d->queued, x->req.bank, true);
    d->n_wait++;
    if (x->req.is_write)
        d->n_wait_wr++;
    else
        d->n_wait_rd++;
}

static void wait_remove(struct dram *d, uint32_t s)
{
    struct dram_slot *x = &d->slot[s];
    struct dram_bank *bk = &d->bank[x->req.bank];
    if (x->prev != DRAM_NONE)
        d->slot[x->prev].next = x->next;
    else
        d->arr_head = x->next;
    if (x->next != DRAM_NONE)
        d->slot[x->next].prev = x->prev;
    else
        d->arr_tail = x->prev;
    if (x->bprev != DRAM_NONE)
        d->slot[x->bprev].bnext = x->bnext;
    else
        bk->head = x->bnext;
    if (x->bnext != DRAM_NONE)
        d->slot[x->bnext].bprev = x->bprev;
    else
        bk->tail = x->bprev;
    if (bk->head == DRAM_NONE)
        dram_mask_put(d->queued, x->req.bank, false);
    d->n_wait--;
    if (x->req.is_write)
        d->n_wait_wr--;
    else
        d->n_wait_rd--;
}

static void bank_cmd_update(struct dram *d, uint32_t b);

void dram_sched_hand(struct dram *d, uint32_t s, cycle_t cycle)
{
    struct dram_slot *x = &d->slot[s];
    struct dram_bank *bk = &d->bank[x->req.bank];
    SIM_ASSERT(bk->serving == DRAM_NONE, "dram %u: bank %u handed a request while busy",
               d->channel_id, x->req.bank);
    wait_remove(d, s);
    d->bank_gen++; /* NOTE(scan-memo): a bank becomes busy */
    bk->serving = s;
    bk->serving_row = x->req.row;
    bk->serving_write = x->req.is_write;
    dram_mask_put(d->busy, x->req.bank, true);
    bk->sched_row = x->req.row;
    uint32_t cols = (x->req.bytes + d->col_bytes - 1) / d->col_bytes;
    x->cols_left = cols ? cols : 1;
    x->ret_reserved = false;
    bank_cmd_update(d, x->req.bank); /* NOTE(bank-cmd-local) */
    if (d->sched->on_update && !x->req.is_write) {
        /* MSHR policies: the read's live count, and (exact path) what the
         * scheduler knew of it */
        uint32_t live = x->req.merges_live ? x->req.merges_live : 1;
        stat_hist_add(&d->st.hand_merges, live);
        if (d->mib_on) {
            uint32_t enc = live > DRAM_MIB_MERGE_MAX ? DRAM_MIB_MERGE_MAX : live;
            d->st.icl_stale_picks += x->mib_m <= 1 && live > 1;
            d->st.icl_lag_picks += x->mib_m < enc;
            d->st.icl_sat_picks += dram_mib_age(d, s, cycle) >= DRAM_MIB_AGE_MAX;
        }
    }
    if (bk->open_row == x->req.row)
        d->st.row_hits++;
    else if (bk->open_row == DRAM_NONE)
        d->st.row_misses++;
    else
        d->st.row_conflicts++;
}

/* ----------------------------------------------------------------- stages */

static void retq_push(struct dram *d, const struct dram_req *r, cycle_t cycle)
{
    SIM_ASSERT(d->retq_count < d->retq_cap, "dram %u: return queue overflow", d->channel_id);
    uint32_t i = ring_wrap(d->retq_head + d->retq_count, d->retq_cap);
    d->retq[i] = *r;
    d->retq_cycle[i] = cycle;
    d->retq_count++;
}

/* Stage 1: in-flight requests whose last data has arrived. Kept in issue
 * order (small array, order-preserving removal) so returns are
 * deterministic and in data order. */
static void stage_retire(struct dram *d, cycle_t cycle)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < d->n_inflight; i++) {
        uint32_t s = d->inflight[i];
        struct dram_slot *x = &d->slot[s];
        if (x->done_cycle > cycle) {
            d->inflight[k++] = s;
            continue;
        }
        if (x->req.is_write) {
            d->st.writes++;
        } else {
            SIM_ASSERT(x->ret_reserved && d->ret_reserved > 0,
                       "dram %u: read tag %llu completes without a return-queue place",
                       d->channel_id, (unsigned long long)x->req.tag);
            d->ret_reserved--;
            retq_push(d, &x->req, x->done_cycle);
            d->st.reads++;
            uint64_t lat = x->done_cycle - x->enter_cycle;
            stat_avg_add(&d->st.read_latency, lat);
            stat_hist_add(&d->st.read_latency_hist, lat);
            if (d->sched->on_update) /* MSHR policies: by merge class */
                stat_avg_add(x->req.merges_live > 1 ? &d->st.read_latency_merged : &d->st.read_latency_single, lat);
        }
        slot_free(d, s);
    }
    d->n_inflight = k;
}

static void stage_schedule(struct dram *d, cycle_t cycle)
{
    if (d->cfg.separate_rw) {
        /* dram-intercore-locality.md §2.2 step 2. */
        if (!d->write_mode) {
            if (d->n_wait_wr >= d->cfg.wm_hi || (d->n_wait_rd == 0 && d->n_wait_wr > 0)) {
                d->write_mode = true;
                d->st.write_drains++;
            }
        } else if (d->n_wait_wr == 0 || (d->n_wait_wr <= d->cfg.wm_lo && d->n_wait_rd > 0)) {
            d->write_mode = false;
        }
    }
    if (d->n_wait > 0)
        d->sched->pick(d, cycle);
}

/* The next command bank b's request needs, or DRAM_N_CMD when idle.
 * NOTE(bank-cmd-local): the row and direction of the request in service are
 * copied into the bank when it is handed over (dram_sched_hand), and the
 * bank keeps its next command (cmd) and whether its read still needs a
 * return-queue place (wants_place), both set by bank_cmd_update at the
 * hand-over and after each command issued to the bank; the channel-wide
 * part of a command's earliest cycle is taken once per scan (struct
 * issue_view). So the per-tick scans of the busy banks (issue, wake-up)
 * read the bank and its timing entries, not the request's slot. Debug
 * builds recompute and compare. */
static enum dram_cmd bank_next_cmd(const struct dram *d, uint32_t b)
{
    const struct dram_bank *bk = &d->bank[b];
    if (bk->serving == DRAM_NONE)
        return DRAM_N_CMD;
    SIM_DEBUG_ASSERT(bk->serving_row == d->slot[bk->serving].req.row &&
                         bk->serving_write == d->slot[bk->serving].req.is_write,
                     "dram %u: bank %u's copy of its request is stale", d->channel_id, b);
    if (bk->open_row != bk->serving_row)
        return bk->open_row != DRAM_NONE ? DRAM_CMD_PRE : DRAM_CMD_ACT;
    return bk->serving_write ? DRAM_CMD_WR : DRAM_CMD_RD;
}

static void bank_cmd_update(struct dram *d, uint32_t b)
{
    struct dram_bank *bk = &d->bank[b];
    bk->cmd = (uint8_t)bank_next_cmd(d, b);
    bk->wants_place = bk->serving != DRAM_NONE && !bk->serving_write && !d->slot[bk->serving].ret_reserved;
}

#ifndef NDEBUG
/* Reference forms of what bank_ready_at computes from cached and per-scan
 * values; debug builds compare. */
/* Earliest cycle command c may issue in bank b by the timing table and the
 * data bus, ignoring the one-command-per-cycle rule. */
static cycle_t cmd_earliest(const struct dram *d, uint32_t b, enum dram_cmd c)
{
    uint32_t g = d->bank[b].group;
    cycle_t t = d->bank_next[b * DRAM_N_CMD + c];
    t = MAX(t, d->group_next[g * DRAM_N_CMD + c]);
    t = MAX(t, d->chan_next[c]);
    if (c == DRAM_CMD_RD || c == DRAM_CMD_WR) {
        uint64_t dl = c == DRAM_CMD_RD ? d->cfg.tCL : d->cfg.tWL;
        if (d->bus_free > dl)
            t = MAX(t, d->bus_free - dl);
    }
    return t;
}

static bool read_needs_place(const struct dram *d, uint32_t s)
{
    return !d->slot[s].req.is_write && !d->slot[s].ret_reserved;
}
#endif

static bool ret_place_free(const struct dram *d)
{
    return d->retq_count + d->ret_reserved < d->retq_cap;
}

static void issue(struct dram *d, uint32_t b, enum dram_cmd c, cycle_t cycle)
{
    struct dram_bank *bk = &d->bank[b];
    uint32_t s = bk->serving;
    struct dram_slot *x = &d->slot[s];
    uint32_t g = bk->group;

    d->bank_gen++; /* NOTE(scan-memo): timing, bus, bank and return-queue state change */
    for (unsigned n = 0; n < DRAM_N_CMD; n++) {
        cycle_t *pb = &d->bank_next[b * DRAM_N_CMD + n];
        cycle_t *pg = &d->group_next[g * DRAM_N_CMD + n];
        *pb = MAX(*pb, cycle + d->lat[DRAM_SCOPE_BANK][c][n]);
        *pg = MAX(*pg, cycle + d->lat[DRAM_SCOPE_GROUP][c][n]);
        d->chan_next[n] = MAX(d->chan_next[n], cycle + d->lat[DRAM_SCOPE_CHAN][c][n]);
    }

    switch (c) {
    case DRAM_CMD_PRE:
        bk->open_row = DRAM_NONE;
        d->st.precharges++;
        break;
    case DRAM_CMD_ACT:
        bk->open_row = x->req.row;
        d->st.activates++;
        break;
    case DRAM_CMD_RD:
    case DRAM_CMD_WR: {
        bool w = c == DRAM_CMD_WR;
        uint64_t dl = w ? d->cfg.tWL : d->cfg.tCL;
        SIM_DEBUG_ASSERT(cycle + dl >= d->bus_free, "dram %u: data-bus overlap at cycle %llu",
                         d->channel_id, (unsigned long long)cycle);
        d->bus_free = cycle + dl + d->burst_cycles;
        d->st.bus_busy_cycles += d->burst_cycles;
        if (w)
            d->st.wr_cmds++;
        else
            d->st.rd_cmds++;
        if (d->last_col_dir >= 0 && d->last_col_dir != (int)w)
            d->st.turnarounds++;
        d->last_col_dir = (int)w;
        if (!w && !x->ret_reserved) {
            x->ret_reserved = true;
            d->ret_reserved++;
        }
        if (--x->cols_left == 0) {
            /* Last column command: the bank is free for its next request
             * ([GPGPU-Sim]); the data finishes tCL (read) or, per §2.9,
             * the write completes tWL after this command. */
            x->done_cycle = cycle + dl;
            d->inflight[d->n_inflight++] = s;
            bk->serving = DRAM_NONE;
            dram_mask_put(d->busy, b, false);
        }
        break;
    }
    case DRAM_N_CMD:
        sim_panic("dram %u: bad command", d->channel_id);
    }
    bank_cmd_update(d, b); /* NOTE(bank-cmd-local) */

    if (d->trace) {
        struct dram_cmd_rec r = {cycle, c, b, x->req.row, x->req.tag};
        d->trace(d->trace_ctx, &r);
    }
}

/* The channel-wide part of cmd_earliest and the return-queue test, taken
 * once per scan of the busy banks. */
struct issue_view {
    cycle_t chan[DRAM_N_CMD]; /* earliest cycle per command by channel timing and the data bus */
    bool place;               /* a return-queue place is free */
};

static void issue_view(const struct dram *d, struct issue_view *v)
{
    for (unsigned c = 0; c < DRAM_N_CMD; c++) {
        cycle_t t = d->chan_next[c];
        if (c == DRAM_CMD_RD || c == DRAM_CMD_WR) {
            /* NOTE(data-bus): the bus is an explicit resource: a column
             * command may not put data on it before the previous burst
             * ends. With the §3.3 table (tCCDS >= burst, tRTW, tWTR) this
             * never binds; it guards hand-made configurations. */
            uint64_t dl = c == DRAM_CMD_RD ? d->cfg.tCL : d->cfg.tWL;
            if (d->bus_free > dl)
                t = MAX(t, d->bus_free - dl);
        }
        v->chan[c] = t;
    }
    v->place = ret_place_free(d);
}

/* Busy bank b's next command in *c and the earliest cycle it may issue;
 * CYCLE_NEVER for a read that waits for a return-queue place (woken by
 * dram_pop_read). One test for the issuer and the wake-up scan. */
static cycle_t bank_ready_at(const struct dram *d, const struct issue_view *v, uint32_t b, enum dram_cmd *c)
{
    const struct dram_bank *bk = &d->bank[b];
    *c = (enum dram_cmd)bk->cmd;
    SIM_DEBUG_ASSERT(*c != DRAM_N_CMD, "dram %u: busy bank %u has no command", d->channel_id, b);
    SIM_DEBUG_ASSERT(*c == bank_next_cmd(d, b) && bk->wants_place == read_needs_place(d, bk->serving),
                     "dram %u: bank %u's cached command is stale (NOTE(bank-cmd-local))", d->channel_id, b);
    if (*c == DRAM_CMD_RD && bk->wants_place && !v->place)
        return CYCLE_NEVER;
    cycle_t t = MAX(d->bank_next[b * DRAM_N_CMD + *c], d->group_next[bk->group * DRAM_N_CMD + *c]);
    t = MAX(t, v->chan[*c]);
    SIM_DEBUG_ASSERT(t == cmd_earliest(d, b, *c), "dram %u: bank %u's readiness differs from cmd_earliest",
                     d->channel_id, b);
    return t;
}

static cycle_t busy_banks_soonest(const struct dram *d);

/* NOTE(scan-memo): a busy bank's readiness (bank_ready_at) does not depend
 * on the cycle; it changes only with the state bank_gen counts: a command
 * issued (bank, group and channel timing, the data bus, the bank's row and
 * request, return-queue reservations), a request handed to a bank
 * (dram_sched_hand) and a return-queue place freed (dram_pop_read). A
 * completing read (stage_retire) turns its reservation into an entry, which
 * leaves retq_count + ret_reserved, and so ret_place_free, unchanged; the
 * perfect model has no banks. So while bank_gen equals the gen of the last
 * full scan, that scan's soonest still holds, and before it no bank can
 * issue: the issuer and the wake-up scan take it without walking the
 * banks. GPUSIM_PARANOID builds walk anyway and compare. */
static bool scan_memo_holds(const struct dram *d)
{
    if (d->scan_gen != d->bank_gen)
        return false;
#ifdef GPUSIM_PARANOID
    if (busy_banks_soonest(d) != d->scan_soonest)
        sim_panic("dram %u: memoised soonest %llu, a rescan %llu (NOTE(scan-memo))", d->channel_id,
                  (unsigned long long)d->scan_soonest, (unsigned long long)busy_banks_soonest(d));
#endif
    return true;
}

/* Stage 3: at most one command per cycle; banks in rotating priority, the
 * first bank with a legal command issues, and priority moves past it.
 * Returns whether a command issued. When none did, every busy bank was
 * visited and *soonest is the earliest cycle one of them may issue (banks
 * whose read waits for a return-queue place left out): next_work's scan of
 * the busy banks (NOTE(issue-scan) there), or the memoised one
 * (NOTE(scan-memo)). */
static bool stage_issue(struct dram *d, cycle_t cycle, cycle_t *soonest)
{
    uint32_t nb = (uint32_t)d->cfg.banks;
    if (cycle < d->scan_soonest && scan_memo_holds(d)) {
        *soonest = d->scan_soonest;
        return false;
    }
    *soonest = CYCLE_NEVER;
    struct issue_view v;
    issue_view(d, &v);
    /* NOTE(bank-masks): only banks with a request in service have a command */
    for (uint32_t b = dram_mask_rot(d->busy, d->mask_words, d->issue_rr, UINT32_MAX); b != UINT32_MAX;
         b = dram_mask_rot(d->busy, d->mask_words, d->issue_rr, b)) {
        enum dram_cmd c;
        cycle_t t = bank_ready_at(d, &v, b, &c); /* CYCLE_NEVER: the read waits for a return-queue place */
        if (t > cycle) {
            *soonest = MIN(*soonest, t);
            continue;
        }
        issue(d, b, c, cycle);
        d->issue_rr = ring_wrap(b + 1, nb);
        return true;
    }
    d->scan_gen = d->bank_gen;
    d->scan_soonest = *soonest;
    return false;
}

static void stage_admit_req(struct dram *d, cycle_t cycle);

/* NOTE(mib-lazy): the DRAM-side MIB of a waiting read is (mib_m, mib_age at
 * mib_c0); the spec's per-cycle age += merge_len over the 15-bit field is
 * the closed form min(2^15 - 1, mib_age + mib_m x (now - mib_c0))
 * (dram_mib_age), materialised only when a dummy changes mib_m. Nothing is
 * updated per cycle, so idle skipping is exact. */
static void apply_dummy(struct dram *d, const struct dram_dummy *m, cycle_t cycle)
{
    uint32_t s = d->arr_head;
    while (s != DRAM_NONE && (d->slot[s].req.is_write || d->slot[s].req.addr != m->addr))
        s = d->slot[s].next;
    if (s == DRAM_NONE) { /* already handed to a bank, or (dummy_after_original off) not here yet */
        d->st.icl_late_dummies++;
        return;
    }
    struct dram_slot *x = &d->slot[s];
    uint64_t a = dram_mib_age(d, s, cycle);
    if (d->cfg.icl_age_mode == DRAM_ICL_AGE_TOTAL)
        a = (uint64_t)m->age + (uint64_t)m->merges * (cycle > m->sent_cycle ? cycle - m->sent_cycle : 0);
    else
        a += m->age;
    x->mib_age = (uint16_t)(a > DRAM_MIB_AGE_MAX ? DRAM_MIB_AGE_MAX : a);
    x->mib_c0 = cycle;
    x->mib_m = (uint8_t)(m->merges > DRAM_MIB_MERGE_MAX ? DRAM_MIB_MERGE_MAX : m->merges < 1 ? 1 : m->merges);
    d->st.icl_dummies++;
}

/* Stage 4: the delay-line head enters the queue; then the dummies that have
 * reached the controller, each only after every request pushed before it
 * (same link, NOTE(dummy-ring)). */
static void stage_admit(struct dram *d, cycle_t cycle)
{
    stage_admit_req(d, cycle);
    while (d->dummy_count) {
        const struct dram_dummy *m = &d->dummy[d->dummy_head];
        if (m->ready_cycle > cycle || (d->delay_count && d->delay[d->delay_head].ready_cycle <= m->ready_cycle))
            break;
        apply_dummy(d, m, cycle);
        d->dummy_head = ring_wrap(d->dummy_head + 1, d->delay_cap);
        d->dummy_count--;
    }
}

/* The delay-line head enters the scheduler queue (normal model) or
 * completes at once (perfect model). One per cycle. */
static void stage_admit_req(struct dram *d, cycle_t cycle)
{
    if (d->delay_count == 0)
        return;
    struct dram_delay_ent *e = &d->delay[d->delay_head];
    if (e->ready_cycle > cycle)
        return;
    if (d->cfg.model == DRAM_MODEL_PERFECT) {
        if (e->req.is_write) {
            d->st.writes++;
        } else {
            if (!ret_place_free(d))
                return;
            retq_push(d, &e->req, cycle);
            d->st.reads++;
            stat_avg_add(&d->st.read_latency, 0);
            stat_hist_add(&d->st.read_latency_hist, 0);
        }
    } else {
        if (!queue_has_room(d, e->req.is_write))
            return;
        uint32_t s = slot_alloc(d);
        d->slot[s].req = e->req;
        d->slot[s].enter_cycle = cycle;
        if (d->mib_on && !e->req.is_write) {
            /* the merge information copied into the original as it left the L2 */
            uint32_t m = e->req.merges ? e->req.merges : 1;
            d->slot[s].mib_m = (uint8_t)(m > DRAM_MIB_MERGE_MAX ? DRAM_MIB_MERGE_MAX : m);
            d->slot[s].mib_age = e->req.mib_age > DRAM_MIB_AGE_MAX ? DRAM_MIB_AGE_MAX : e->req.mib_age;
            d->slot[s].mib_c0 = e->req.mib_cycle;
        }
        wait_insert(d, s);
        if (d->sched->on_enqueue)
            d->sched->on_enqueue(d, s, cycle);
    }
    d->delay_head = ring_wrap(d->delay_head + 1, d->delay_cap);
    d->delay_count--;
}

/* Debug invariants (STYLE.md item 4): list and counter consistency. */
static void check_invariants(const struct dram *d)
{
#ifndef NDEBUG
    uint32_t n = 0, nr = 0;
    for (uint32_t s = d->arr_head; s != DRAM_NONE; s = d->slot[s].next) {
        n++;
        nr += !d->slot[s].req.is_write;
        SIM_ASSERT(n <= d->n_slots, "dram %u: arrival list loops", d->channel_id);
    }
    SIM_ASSERT(n == d->n_wait && nr == d->n_wait_rd && n - nr == d->n_wait_wr,
               "dram %u: queue count %u (rd %u wr %u) but list holds %u (rd %u)", d->channel_id,
               d->n_wait, d->n_wait_rd, d->n_wait_wr, n, nr);
    SIM_ASSERT(d->retq_count + d->ret_reserved <= d->retq_cap,
               "dram %u: return queue %u + reserved %u > %u", d->channel_id, d->retq_count,
               d->ret_reserved, d->retq_cap);
    SIM_ASSERT(d->delay_count <= d->delay_cap, "dram %u: delay line overfull", d->channel_id);
    for (uint32_t b = 0; b < d->cfg.banks; b++) /* NOTE(bank-masks) */
        SIM_ASSERT(((d->busy[b >> 6] >> (b & 63) & 1) != 0) == (d->bank[b].serving != DRAM_NONE) &&
                       ((d->queued[b >> 6] >> (b & 63) & 1) != 0) == (d->bank[b].head != DRAM_NONE),
                   "dram %u: bank masks disagree with bank %u", d->channel_id, b);
#else
    (void)d;
#endif
}

/* The earliest cycle a busy bank may issue its next command, banks whose
 * read waits for a return-queue place left out (woken by dram_pop_read). */
static cycle_t busy_banks_soonest(const struct dram *d)
{
    cycle_t next = CYCLE_NEVER;
    struct issue_view v;
    issue_view(d, &v);
    for (uint32_t b = dram_mask_next(d->busy, d->mask_words, 0); b != UINT32_MAX;
         b = dram_mask_next(d->busy, d->mask_words, b + 1)) {
        enum dram_cmd c;
        next = MIN(next, bank_ready_at(d, &v, b, &c));
    }
    return next;
}

/* NOTE(issue-scan): `scanned` says stage_issue ran this tick and issued
 * nothing; it then visited every busy bank with the state this scan would
 * see, and `soonest` is its answer. The stages after it (admission of the
 * delay-line head and of dummies) touch only the waiting lists, not a busy
 * bank, its timing, the data bus or the return queue. Paranoid builds scan
 * anyway and compare. */
static cycle_t next_work(struct dram *d, cycle_t cycle, bool scanned, cycle_t soonest)
{
    cycle_t next = CYCLE_NEVER;
    for (uint32_t i = 0; i < d->n_inflight; i++)
        next = MIN(next, d->slot[d->inflight[i]].done_cycle);
    bool schedulable = false;
    for (uint32_t w = 0; w < d->mask_words; w++) /* NOTE(bank-masks) */
        schedulable |= (d->queued[w] & ~d->busy[w]) != 0;
    if (!scanned) {
        if (!scan_memo_holds(d)) {
            d->scan_gen = d->bank_gen;
            d->scan_soonest = busy_banks_soonest(d);
        }
        next = MIN(next, d->scan_soonest);
    } else {
#ifdef GPUSIM_PARANOID
        if (soonest != busy_banks_soonest(d))
            sim_panic("dram %u: the issue scan's soonest %llu, a rescan %llu (NOTE(issue-scan))", d->channel_id,
                      (unsigned long long)soonest, (unsigned long long)busy_banks_soonest(d));
#endif
        next = MIN(next, soonest);
    }
    if (schedulable)
        next = cycle + 1;
    if (d->delay_count) {
        const struct dram_delay_ent *e = &d->delay[d->delay_head];
        bool can = d->cfg.model == DRAM_MODEL_PERFECT ? (e->req.is_write || ret_place_free(d))
                                                      : queue_has_room(d, e->req.is_write);
        if (can)
            next = MIN(next, e->ready_cycle);
    }
    if (d->dummy_count) {
        const struct dram_dummy *m = &d->dummy[d->dummy_head];
        if (!d->delay_count || d->delay[d->delay_head].ready_cycle > m->ready_cycle)
            next = MIN(next, m->ready_cycle); /* else it follows the delay-line head */
    }
    return next == CYCLE_NEVER ? next : MAX(next, cycle + 1);
}

cycle_t dram_tick(struct dram *d, cycle_t cycle)
{
    if (d->last_cycle != CYCLE_NEVER) {
        SIM_ASSERT(cycle > d->last_cycle, "dram %u: tick at cycle %llu after %llu", d->channel_id,
                   (unsigned long long)cycle, (unsigned long long)d->last_cycle);
        /* State held constant over [last_cycle, cycle): account it. */
        uint64_t dt = cycle - d->last_cycle;
        d->st.cycles += dt;
        d->st.queue_occ.sum += (uint64_t)d->n_wait * dt;
        d->st.queue_occ.count += dt;
        uint32_t busy = 0;
        for (uint32_t w = 0; w < d->mask_words; w++) /* NOTE(bank-masks) */
            busy += (uint32_t)__builtin_popcountll(d->busy[w]);
        if (busy) {
            d->st.blp.sum += (uint64_t)busy * dt;
            d->st.blp.count += dt;
        }
    }
    d->last_cycle = cycle;
    check_invariants(d);

    stage_retire(d, cycle);
    cycle_t pol_next = CYCLE_NEVER;
    if (d->sched->tick)
        pol_next = d->sched->tick(d, cycle);
    bool scanned = false;
    cycle_t soonest = CYCLE_NEVER;
    if (d->cfg.model == DRAM_MODEL_NORMAL) {
        stage_schedule(d, cycle);
        scanned = !stage_issue(d, cycle, &soonest);
    }
    stage_admit(d, cycle);
    cycle_t next = next_work(d, cycle, scanned, soonest);
    if (pol_next != CYCLE_NEVER)
        next = MIN(next, MAX(pol_next, cycle + 1));
    return next;
}

bool dram_pop_read(struct dram *d, struct dram_req *out, cycle_t cycle)
{
    if (d->retq_count == 0)
        return false;
    SIM_ASSERT(d->retq_cycle[d->retq_head] <= cycle,
               "dram %u: pop at cycle %llu of a read that returns at %llu", d->channel_id,
               (unsigned long long)cycle, (unsigned long long)d->retq_cycle[d->retq_head]);
    *out = d->retq[d->retq_head];
    d->retq_head = ring_wrap(d->retq_head + 1, d->retq_cap);
    d->retq_count--;
    d->bank_gen++; /* NOTE(scan-memo): a return-queue place is free */
    return true;
}

/* ------------------------------------------------------------- statistics */

void dram_stats_register(struct dram *d, struct stats *s, int instance)
{
    const char *g = "dram";
    struct dram_stats *t = &d->st;
    stats_counter(s, g, instance, "reads", &t->reads, "read requests completed (entered the return queue)");
    stats_counter(s, g, instance, "writes", &t->writes, "write requests completed");
    stats_counter(s, g, instance, "activates", &t->activates, "ACT commands");
    stats_counter(s, g, instance, "precharges", &t->precharges, "PRE commands");
    stats_counter(s, g, instance, "rd_cmds", &t->rd_cmds, "RD column commands (64 B each)");
    stats_counter(s, g, instance, "wr_cmds", &t->wr_cmds, "WR column commands (64 B each)");
    stats_counter(s, g, instance, "row_hits", &t->row_hits,
                  "requests that found their row open when handed to the bank");
    stats_counter(s, g, instance, "row_misses", &t->row_misses,
                  "requests that found their bank precharged (ACT)");
    stats_counter(s, g, instance, "row_conflicts", &t->row_conflicts,
                  "requests that found another row open (PRE + ACT)");
    stats_counter(s, g, instance, "bus_busy_cycles", &t->bus_busy_cycles,
                  "DRAM cycles the data bus carried data (utilisation = this / cycles)");
    stats_counter(s, g, instance, "cycles", &t->cycles, "DRAM cycles elapsed since the first tick");
    stats_counter(s, g, instance, "turnarounds", &t->turnarounds,
                  "column commands whose direction (read/write) differs from the previous one");
    stats_counter(s, g, instance, "refused", &t->refused, "pushes refused because the controller was full");
    stats_counter(s, g, instance, "write_drains", &t->write_drains,
                  "separate_rw: entries into write-drain mode");
    stats_avg(s, g, instance, "read_latency", &t->read_latency,
              "read latency from scheduler-queue entry to return queue (DRAM cycles)");
    stats_hist(s, g, instance, "read_latency_hist", &t->read_latency_hist,
               "read latency histogram (DRAM cycles, 16-cycle bins)");
    stats_avg(s, g, instance, "queue_occupancy", &t->queue_occ,
              "scheduler-queue occupancy per DRAM cycle (entries)");
    stats_avg(s, g, instance, "bank_parallelism", &t->blp,
              "banks with a request in service, averaged over cycles with at least one");
    if (d->sched == &dram_sched_mshr_m || d->sched == &dram_sched_mshr_s || d->sched == &dram_sched_mshr_sa) {
        /* only with an MSHR policy, so the default output is unchanged */
        stats_counter(s, g, instance, "reorders", &t->reorders,
                      "MSHR policies: hand-offs where FR-FCFS would have handed another request");
        stats_counter(s, g, instance, "row_switch_score", &t->row_switch_score,
                      "MSHR policies: rows opened by score when FR-FCFS would have opened the oldest request's row");
        stats_hist(s, g, instance, "hand_merges", &t->hand_merges,
                   "MSHR policies: live L2 MSHR request count of each read handed to a bank (bins of 1)");
        stats_avg(s, g, instance, "read_latency_single", &t->read_latency_single,
                  "MSHR policies: read_latency of reads whose MSHR entry held one request (DRAM cycles)");
        stats_avg(s, g, instance, "read_latency_merged", &t->read_latency_merged,
                  "MSHR policies: read_latency of reads whose MSHR entry held more than one (DRAM cycles)");
    }
    if (d->mib_on) {
        stats_counter(s, g, instance, "icl_dummies", &t->icl_dummies,
                      "exact hw: dummy messages that reached the controller and updated a waiting read");
        stats_counter(s, g, instance, "icl_late_dummies", &t->icl_late_dummies,
                      "exact hw: dummy messages dropped because no matching read was waiting");
        stats_counter(s, g, instance, "icl_stale_picks", &t->icl_stale_picks,
                      "exact hw: reads handed with no merge information while their MSHR entry held > 1 request");
        stats_counter(s, g, instance, "icl_lag_picks", &t->icl_lag_picks,
                      "exact hw: reads handed with a merge count below their live MSHR count (4-bit saturated)");
        stats_counter(s, g, instance, "icl_sat_picks", &t->icl_sat_picks,
                      "exact hw: reads handed with a saturated (2^15 - 1) age sum");
    }
}
