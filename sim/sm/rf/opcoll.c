/* sim/sm/rf/opcoll.c: operand collectors and the bank arbiter (the banks are oc->rf, sim/sm/rf/rf.c).
 * See opcoll.h for what is modelled; docs/pipes.md for the choices.
 *
 * NOTE(reads-per-unit): GPGPU-Sim 3.x's arbiter (opndcoll_rfu_t::arbiter_t::
 * allocate_reads) matches banks to collector units, so a unit receives at
 * most one operand per cycle even when its operands sit in different banks.
 * GPGPU-Sim 4.x dropped the unit side of that match (commit 3633eac, March
 * 2020: "allow OC to read multiple reg banks at the same cycle"), so there a
 * unit gets one operand per bank per cycle. The spec (2.4) only says "each
 * bank serves one access per cycle"; gtx480, the seeds' 3.2.2 model, keeps
 * 3.x's rule (rf.reads_per_unit = 1, the default), gtx480-gpgpusim42 4.x's
 * (0 = unlimited, the pure one-access-per-bank model); docs/correlation.md,
 * session 11, for the micro-kernels that show it.
 * NOTE(rotating-start): the grant order is a deterministic rotation that
 * starts at bank (tick mod n_banks), tick = the RF tick (= the pipeline
 * cycle with rf.clock_mult 1). It depends only on the tick number, so
 * skipped idle cycles cannot change it (a counter would).
 * NOTE(rf-unit): bank mapping, bank busy state, the per-tick access limit,
 * the access latency and the read/write counts belong to the register-file
 * unit oc->rf (sim/sm/rf/rf.c) and its policy; this file keeps the request
 * queues, the arbitration order and the collector units.
 * NOTE(alloc-delay): with oc.alloc_delay d > 0 an issued instruction waits
 * in its set's latch (GPGPU-Sim's ID_OC pipeline register, in_ports wide)
 * and takes a free collector unit d cycles after issue, after that cycle's
 * arbitration (opndcoll_rfu_t::step allocates reads before units), so its
 * reads compete from issue + d + 1 on. Issue needs a free latch entry, not a
 * free unit: a latch entry that finds no free unit waits (oldest first).
 * Timeline of a one-source fp32 add issued at 0 with d = 1: unit at 1,
 * read granted at 2, dispatch at 3. With d = 0 the unit is taken at issue.
 * NOTE(front-only): only the front request of each bank FIFO competes, as in
 * GPGPU-Sim; a front blocked by its unit's read limit blocks its bank for the
 * cycle (counted as a conflict cycle).
 */
#include "sim/sm/rf/opcoll.h"

#include <stdlib.h>
#include <string.h>

#include "sim/mem/ring.h"

/* The front request of a bank's queue, for register-file policies that
 * look ahead (racetrack preshifting). */
static bool queue_front(void *ctx, uint32_t bank, bool back, uint32_t *warp, uint32_t *reg, cycle_t *since)
{
    const struct opcoll *oc = ctx;
    if (bank >= oc->n_banks || !oc->banks[bank].n)
        return false;
    const struct oc_bankq *bq = &oc->banks[bank];
    uint32_t cap = oc->n_units * PIPE_MAX_SRC;
    const struct oc_read *rq = &bq->q[back ? ring_wrap(bq->head + bq->n - 1, cap) : bq->head];
    const struct oc_unit *cu = &oc->units[rq->unit];
    *warp = cu->op.warp;
    *reg = rq->reg;
    *since = cu->read_from - 1; /* the cycle the unit was taken and its reads queued */
    return true;
}

/* Start-of-cycle bookkeeping: per-cycle counters belong to cycle `now`. */
/* NOTE(open-mask): oc->open has bit k set when set k can take an
 * instruction in cycle cyc: its issue width is not used up (in_now) and it
 * has a free unit, or with oc.alloc_delay a free latch entry. It is
 * recomputed for set k wherever in_now[k], n_busy[k] or latch_n[k] changes;
 * when a cycle starts (in_now all 0) it is room & ports, where room (bit k:
 * a free unit or latch entry) changes only with n_busy and latch_n and
 * ports (in_ports > 0) is fixed. So opcoll_can_accept, asked
 * for every candidate warp of every scheduler, is one AND; the sets are
 * still tried SP first (lowest bit). GPUSIM_PARANOID builds compare it with
 * the counters on every choice. */
static inline void open_update(struct opcoll *oc, uint32_t k)
{
    bool room = oc->cfg.alloc_delay ? oc->latch_n[k] < oc->latch_cap[k] : oc->n_busy[k] < oc->cfg.units[k];
    uint8_t bit = (uint8_t)(1u << k);
    oc->room = room ? oc->room | bit : oc->room & (uint8_t)~bit;
    oc->open = room && oc->in_now[k] < oc->cfg.in_ports[k] ? oc->open | bit : oc->open & (uint8_t)~bit;
}

void opcoll_new_cycle(struct opcoll *oc, cycle_t now)
{
    SIM_ASSERT(oc->cyc == CYCLE_NEVER || now > oc->cyc, "opcoll: cycle %llu after %llu",
               (unsigned long long)now, (unsigned long long)oc->cyc);
    oc->cyc = now;
    for (uint32_t k = 0; k < PIPE_N_KINDS; k++)
        oc->in_now[k] = 0;
    oc->open = oc->room & oc->ports;
}

static inline void new_cycle(struct opcoll *oc, cycle_t now)
{
    if (oc->cyc != now)
        opcoll_new_cycle(oc, now);
}

void opcoll_stats_sync(struct opcoll *oc, cycle_t now)
{
    if (now <= oc->occ_mark)
        return;
    for (int k = 0; k < PIPE_N_KINDS; k++)
        oc->busy_unit_cycles[k] += (uint64_t)oc->n_busy[k] * (now - oc->occ_mark);
    oc->occ_mark = now;
}

void opcoll_init(struct opcoll *oc, const struct rf_cfg *rf, const struct oc_cfg *cfg,
                 const struct rf_policy_ops *pol, void *pol_arg)
{
    if (opcoll_cfg_validate(rf, cfg, NULL, NULL))
        sim_panic("opcoll_init: invalid rf/oc configuration");
    memset(oc, 0, sizeof *oc);
    oc->cfg = *cfg;
    oc->reads_per_unit = (uint32_t)rf->reads_per_unit;
    oc->n_banks = (uint32_t)rf->n_banks;
    uint32_t n = 0;
    for (int k = 0; k < PIPE_N_KINDS; k++) {
        oc->first[k] = n;
        n += (uint32_t)cfg->units[k];
    }
    oc->first[PIPE_N_KINDS] = n;
    oc->n_units = n;
    for (int c = 0; c < PIPE_C_COUNT; c++)
        oc->cls_pipes[c] = pipes_class_pipes((enum pipe_class)c, (enum pipes_unit_map)cfg->unit_map);
    oc->units = xcalloc(n, sizeof *oc->units);
    for (uint32_t k = 0; k < PIPE_N_KINDS; k++)
        for (uint32_t u = oc->first[k]; u < oc->first[k + 1]; u++) {
            oc->units[u].set = (uint8_t)k;
            oc->set_units[k] |= 1ull << u;
        }
    /* NOTE(bank-queue-size): every queued read belongs to a busy unit, so a
     * bank never holds more than units x PIPE_MAX_SRC requests; the rings
     * are sized for that and cannot overflow. */
    for (uint32_t b = 0; b < oc->n_banks; b++)
        oc->banks[b].q = xcalloc((size_t)n * PIPE_MAX_SRC, sizeof *oc->banks[b].q);
    for (int k = 0; k < PIPE_N_KINDS; k++)
        oc->latch_cap[k] = (uint32_t)(cfg->in_ports[k] * cfg->alloc_delay);
    oc->cyc = CYCLE_NEVER;
    for (uint32_t k = 0; k < PIPE_N_KINDS; k++) {
        if (cfg->in_ports[k] > 0)
            oc->ports |= (uint8_t)(1u << k);
        open_update(oc, k); /* everything free */
    }
    stat_hist_init(&oc->conflicts_by_bank, oc->n_banks, 1);
    rf_init(&oc->rf, rf, pol, pol_arg);
    rf_set_queue_front(&oc->rf, queue_front, oc);
}

void opcoll_kernel_start(struct opcoll *oc, const struct rf_kernel_info *ki) { rf_kernel_start(&oc->rf, ki); }

void opcoll_fini(struct opcoll *oc)
{
    for (uint32_t b = 0; b < oc->n_banks; b++)
        free(oc->banks[b].q);
    free(oc->units);
    rf_fini(&oc->rf);
    stat_hist_fini(&oc->conflicts_by_bank);
    memset(oc, 0, sizeof *oc);
}

/* A free unit of set k, or OC_UNIT_NONE. Lowest index first (deterministic). */
static uint32_t free_unit(const struct opcoll *oc, uint32_t k)
{
    for (uint32_t u = oc->first[k]; u < oc->first[k + 1]; u++)
        if (!oc->units[u].busy)
            return u;
    return OC_UNIT_NONE;
}

/* The set an instruction of class cls would enter now, or -1. */
static int choose_set(struct opcoll *oc, enum pipe_class cls, cycle_t now)
{
    new_cycle(oc, now);
    uint32_t m = oc->cls_pipes[cls] & oc->open; /* NOTE(open-mask) */
#ifdef GPUSIM_PARANOID
    int want = -1;
    bool latched = oc->cfg.alloc_delay != 0;
    for (int k = 0; k < PIPE_N_KINDS && want < 0; k++) /* SP first: "SP preferred" */
        if ((oc->cls_pipes[cls] & (1u << k)) && oc->in_now[k] < oc->cfg.in_ports[k] &&
            (latched ? oc->latch_n[k] < oc->latch_cap[k] : oc->n_busy[k] < oc->cfg.units[k]))
            want = k;
    if (want != (m ? (int)__builtin_ctz(m) : -1))
        sim_panic("opcoll: open mask 0x%x disagrees with the counters (set %d)", oc->open, want);
#endif
    return m ? (int)__builtin_ctz(m) : -1; /* SP first: "SP preferred" */
}

uint64_t opcoll_res_sig(const struct opcoll *oc, cycle_t now)
{
    uint64_t sig = 0;
    for (int k = 0; k < PIPE_N_KINDS; k++) {
        uint32_t in = oc->cyc == now ? oc->in_now[k] : 0;
        sig = sig << 20 | (uint64_t)oc->latch_n[k] << 14 | (uint64_t)oc->n_busy[k] << 7 | in;
    }
    return sig;
}


static uint32_t take_unit(struct opcoll *oc, uint32_t k, const struct pipe_op *op, uint32_t warp, uint64_t tag,
                          cycle_t now);

uint32_t opcoll_issue(struct opcoll *oc, const struct pipe_op *op, cycle_t now)
{
    return opcoll_issue_as(oc, op, op->warp, op->tag, now);
}

/* NOTE(issue-as): the SM issues from the kernel's pre-decoded op and
 * gives the warp and the tag apart. Filling them into a stack copy first
 * made the copy into the collector load 16 bytes that two narrower stores
 * had just written, which the store buffer cannot forward (about 20 % of
 * port_issue's samples sat on that copy in bfs small). */
uint32_t opcoll_issue_as(struct opcoll *oc, const struct pipe_op *op, uint32_t warp, uint64_t tag, cycle_t now)
{
    SIM_ASSERT(op->cls < PIPE_C_COUNT && op->n_src <= PIPE_MAX_SRC && op->n_dst <= PIPE_MAX_DST,
               "opcoll_issue: malformed op (class %u, %u sources, %u destinations)", op->cls, op->n_src,
               op->n_dst);
    int k = choose_set(oc, (enum pipe_class)op->cls, now);
    if (k < 0)
        sim_panic("opcoll_issue: warp %u class %s issued at cycle %llu with no free collector unit",
                  warp, pipes_class_info((enum pipe_class)op->cls)->name, (unsigned long long)now);
    oc->in_now[k]++;
    oc->issued[k]++;
    if (oc->cfg.alloc_delay) { /* NOTE(alloc-delay) */
        struct oc_latched *l = &oc->latch[k][(oc->latch_head[k] + oc->latch_n[k]) % OC_LATCH_MAX];
        pipe_op_as(&l->op, op, warp, tag);
        l->op.kind = (uint8_t)k;
        l->since = now;
        oc->latch_n[k]++;
        open_update(oc, (uint32_t)k);
        rf_on_issue(&oc->rf, &l->op, now);
        return OC_UNIT_NONE;
    }
    uint32_t u = take_unit(oc, (uint32_t)k, op, warp, tag, now);
    rf_on_issue(&oc->rf, &oc->units[u].op, now);
    return u;
}

/* Queue source i of op (unit u) at its bank. */
static inline void queue_read(struct opcoll *oc, uint32_t u, const struct pipe_op *op, uint32_t i)
{
    uint32_t bank = rf_bank_of(&oc->rf, op->warp, op->src[i]);
    SIM_DEBUG_ASSERT(bank < oc->n_banks, "rf policy %s: bank %u of %u", oc->rf.ops->name, bank, oc->n_banks);
    struct oc_bankq *b = &oc->banks[bank];
    uint32_t cap = oc->n_units * PIPE_MAX_SRC;
    SIM_ASSERT(b->n < cap, "opcoll: bank queue overflow");
    b->q[ring_wrap(b->head + b->n, cap)] = (struct oc_read){(uint16_t)u, op->src[i]};
    b->n++;
    oc->bank_mask |= 1ull << bank;
}

/* NOTE(read-forward): with a policy that serves some reads elsewhere (a
 * racetrack write buffer), those get no bank request and count as read,
 * ready at now + 1. Kept out of the SRAM path. */
static __attribute__((noinline)) void queue_reads_fwd(struct opcoll *oc, uint32_t u, const struct pipe_op *op,
                                                      cycle_t now)
{
    struct oc_unit *cu = &oc->units[u];
    for (uint32_t i = 0; i < op->n_src; i++) {
        if (!oc->rf.fwd_fn(oc->rf.ps, op->warp, op->src[i], now)) {
            queue_read(oc, u, op, i);
            continue;
        }
        if (--cu->n_pending == 0)
            oc->collected |= 1ull << u;
        if (cu->ready_at < now + 1)
            cu->ready_at = now + 1;
    }
}

/* Allocate a free unit of set k at cycle now to tmpl with its warp and tag
 * replaced by warp and tag (NOTE(issue-as)), and queue its reads. */
static uint32_t take_unit(struct opcoll *oc, uint32_t k, const struct pipe_op *tmpl, uint32_t warp, uint64_t tag,
                          cycle_t now)
{
    uint32_t u = free_unit(oc, k);
    opcoll_stats_sync(oc, now);
    struct oc_unit *cu = &oc->units[u];
    cu->busy = true;
    pipe_op_as(&cu->op, tmpl, warp, tag);
    cu->op.kind = (uint8_t)k;
    const struct pipe_op *op = &cu->op;
    cu->n_pending = op->n_src;
    /* NOTE(no-source): an op without register sources (e.g. mov from a
     * special register, bra) is ready the cycle after issue, like one whose
     * reads were all granted at once. */
    cu->ready_at = op->n_src ? 0 : now + 1;
    cu->issued_at = now;
    cu->read_from = now + 1;
    cu->grant_tick = CYCLE_NEVER;
    cu->grants_now = 0;
    cu->seq = oc->seq++;
    if (!op->n_src)
        oc->collected |= 1ull << u;
    if (__builtin_expect(oc->rf.fwd_fn != NULL, 0))
        queue_reads_fwd(oc, u, op, now);
    else
        for (uint32_t i = 0; i < op->n_src; i++)
            queue_read(oc, u, op, i);
    oc->reads_queued += cu->n_pending;
    oc->n_busy[k]++;
    open_update(oc, k);
    return u;
}

/* Latched instructions whose delay has passed take free units, oldest
 * first per set (NOTE(alloc-delay)). */
static void latch_advance(struct opcoll *oc, cycle_t now)
{
    for (uint32_t k = 0; k < PIPE_N_KINDS; k++)
        /* the counters first: the latch entry is on a cache line of its own */
        while (oc->latch_n[k] && oc->n_busy[k] < oc->cfg.units[k] &&
               oc->latch[k][oc->latch_head[k]].since + oc->cfg.alloc_delay <= now) {
            const struct pipe_op *l = &oc->latch[k][oc->latch_head[k]].op;
            take_unit(oc, k, l, l->warp, l->tag, now);
            oc->latch_head[k] = (oc->latch_head[k] + 1) % OC_LATCH_MAX;
            oc->latch_n[k]--;
            open_update(oc, k);
        }
}

/* NOTE(mem-in-order): memory instructions of one warp leave the MEM
 * collectors in issue order. Their values are read or written when the
 * LD/ST unit performs them (DESIGN.md 4), so a younger load that gathered
 * its operands first must not pass an older store of the same warp to the
 * same address (program order within a thread). Other warps may pass. */
static bool older_same_warp(const struct opcoll *oc, enum pipe_kind set, const struct oc_unit *cu)
{
    for (uint32_t v = oc->first[set]; v < oc->first[set + 1]; v++) {
        const struct oc_unit *o = &oc->units[v];
        if (o != cu && o->busy && o->op.warp == cu->op.warp && o->seq < cu->seq)
            return true;
    }
    return false;
}

uint32_t opcoll_ready_work(struct opcoll *oc, enum pipe_kind set, cycle_t now, uint32_t *out, uint32_t max)
{
    uint32_t n = 0;
    /* NOTE(collected-mask): only units whose reads are all granted can be
     * ready; visiting the set's bits of `collected` in ascending order is
     * the full scan of the set with the others skipped. */
    for (uint64_t mk = oc->collected & oc->set_units[set]; mk; mk &= mk - 1) {
        uint32_t u = (uint32_t)__builtin_ctzll(mk);
        const struct oc_unit *cu = &oc->units[u];
        if (cu->ready_at > now)
            continue;
        if (set == PIPE_MEM && oc->n_busy[PIPE_MEM] > 1 && older_same_warp(oc, set, cu))
            continue; /* NOTE(mem-in-order) */
        /* insert by age (seq); sets hold few units */
        uint32_t i = n < max ? n : max;
        while (i > 0 && oc->units[out[i - 1]].seq > cu->seq) {
            if (i < max)
                out[i] = out[i - 1];
            i--;
        }
        if (i < max) {
            out[i] = u;
            if (n < max)
                n++;
        }
    }
    return n;
}

void opcoll_release(struct opcoll *oc, uint32_t unit, cycle_t now)
{
    struct oc_unit *cu = &oc->units[unit];
    SIM_ASSERT(cu->busy && cu->n_pending == 0 && cu->ready_at <= now,
               "opcoll_release: collector unit %u is not ready at cycle %llu", unit, (unsigned long long)now);
    opcoll_stats_sync(oc, now);
    cu->busy = false;
    oc->collected &= ~(1ull << unit);
    oc->n_busy[cu->set]--;
    open_update(oc, cu->set);
}

bool opcoll_write(struct opcoll *oc, uint32_t warp, const uint16_t *regs, uint32_t n, cycle_t now)
{
    new_cycle(oc, now);
    return rf_write(&oc->rf, warp, regs, n, now);
}

/* Grant or refuse the front read of bank b at RF tick `tick` of cycle now. */
static inline void arbitrate_bank(struct opcoll *oc, uint32_t b, cycle_t now, cycle_t tick)
{
    struct rf *rf = &oc->rf;
    struct oc_bankq *bk = &oc->banks[b];
    struct oc_read *rq = &bk->q[bk->head];
    struct oc_unit *cu = &oc->units[rq->unit];
    uint32_t limit = oc->reads_per_unit;
    /* NOTE(alloc-delay): a unit's reads compete from read_from on (the cycle
     * after issue plus oc.alloc_delay); bank queues are in issue order, so a
     * front read not yet competing has none competing behind it. */
    bool ok = rf_bank_free(rf, b, tick) && rf_port_free(rf, tick) && cu->read_from <= now &&
              (!limit || cu->grant_tick != tick || cu->grants_now < limit);
    if (!ok) {
        if (cu->read_from <= now) { /* a request not yet competing is no conflict */
            oc->conflict_cycles++;
            stat_hist_add(&oc->conflicts_by_bank, b);
        }
        return;
    }
    /* NOTE(conflict-cycles): a bank-tick counts as a conflict when a read
     * is left waiting at the bank after arbitration (bank busy, access
     * limit, the unit's read limit, or more than one request queued). */
    cycle_t ready = rf_cycle_ceil(rf, rf_read(rf, b, cu->op.warp, rq->reg, tick));
    if (cu->grant_tick != tick) {
        cu->grant_tick = tick;
        cu->grants_now = 0;
    }
    cu->grants_now++;
    if (--cu->n_pending == 0)
        oc->collected |= 1ull << rq->unit;
    if (cu->ready_at < ready)
        cu->ready_at = ready;
    uint32_t cap = oc->n_units * PIPE_MAX_SRC;
    bk->head = ring_wrap(bk->head + 1, cap);
    bk->n--;
    if (bk->n) {
        oc->conflict_cycles++;
        stat_hist_add(&oc->conflicts_by_bank, b);
    } else {
        oc->bank_mask &= ~(1ull << b);
    }
    oc->reads_queued--;
}

/* Arbitration at RF tick `tick` of pipeline cycle now: the banks with
 * queued reads in rotating order from bank (tick mod n_banks).
 * NOTE(bank-mask): visiting only the banks whose bit is set in bank_mask
 * (ascending from the start bank, then from 0) is the order of a full
 * rotation with empty banks skipped. Measured with callgrind on sgemm tiny
 * (timing, 1 thread), instructions in opcoll_read_tick: 17.6M before the
 * register-file unit, 20.3M with it and the full rotation, 10.5M with the
 * mask. */
static void arbitrate(struct opcoll *oc, cycle_t now, cycle_t tick)
{
    uint32_t start = oc->rf.banks_pow2 ? (uint32_t)tick & (oc->n_banks - 1) : (uint32_t)(tick % oc->n_banks);
    uint64_t m = oc->bank_mask, up = m & (~0ull << start);
    for (uint64_t x = up; x; x &= x - 1)
        arbitrate_bank(oc, (uint32_t)__builtin_ctzll(x), now, tick);
    for (uint64_t x = m & ~up; x; x &= x - 1)
        arbitrate_bank(oc, (uint32_t)__builtin_ctzll(x), now, tick);
}

cycle_t opcoll_read_tick(struct opcoll *oc, cycle_t now, uint32_t blocked)
{
    new_cycle(oc, now);
    opcoll_stats_sync(oc, now);
    /* NOTE(rf-clock): one arbitration per RF tick of the cycle (rf.c). */
    if (oc->reads_queued) {
        if (oc->rf.mult == 1)
            arbitrate(oc, now, now);
        else
            for (uint32_t s = 0; s < oc->rf.mult && oc->reads_queued; s++)
                arbitrate(oc, now, rf_tick_of(&oc->rf, now) + s);
    }
    cycle_t next = oc->reads_queued ? now + 1 : CYCLE_NEVER;
    if (oc->latch_n[PIPE_SP] + oc->latch_n[PIPE_SFU] + oc->latch_n[PIPE_MEM]) {
        latch_advance(oc, now);
        for (uint32_t k = 0; k < PIPE_N_KINDS; k++)
            if (oc->latch_n[k]) { /* waiting for its delay, or for a unit */
                cycle_t t = oc->latch[k][oc->latch_head[k]].since + oc->cfg.alloc_delay;
                /* NOTE(mem-backpressure): a matured entry waits for a unit
                 * of its set, which only a dispatch frees, in pipes_tick
                 * before this call: that tick's latch_advance takes it */
                if (t <= now && oc->n_busy[k] >= oc->cfg.units[k])
                    continue;
                t = t > now ? t : now + 1;
                if (t < next)
                    next = t;
            }
        if (oc->reads_queued && next > now + 1)
            next = now + 1;
    }
    cycle_t rn = rf_tick(&oc->rf, now); /* the policy's own work (preshifting while idle) */
    SIM_DEBUG_ASSERT(rn > now, "rf policy %s: tick at %llu asked for cycle %llu", oc->rf.ops->name,
                     (unsigned long long)now, (unsigned long long)rn);
    if (rn < next)
        next = rn;
    if (next == now + 1 || oc->n_busy[PIPE_SP] + oc->n_busy[PIPE_SFU] + oc->n_busy[PIPE_MEM] == 0)
        return next; /* nothing below can be earlier than now + 1 */
    uint64_t wake = oc->collected; /* NOTE(collected-mask) */
    for (uint32_t k = 0; k < PIPE_N_KINDS; k++)
        if (blocked >> k & 1) /* NOTE(mem-backpressure): they wait for room the SM's pop makes */
            wake &= ~oc->set_units[k];
    for (uint64_t mk = wake; mk; mk &= mk - 1) {
        const struct oc_unit *cu = &oc->units[__builtin_ctzll(mk)];
        cycle_t t = cu->ready_at > now ? cu->ready_at : now + 1;
        if (t < next)
            next = t;
    }
    return next;
}

void opcoll_stats_register(struct opcoll *oc, struct stats *reg, const char *group, int instance)
{
    static const char *const busy_names[PIPE_N_KINDS] = {"busy_unit_cycles_sp", "busy_unit_cycles_sfu",
                                                          "busy_unit_cycles_mem"};
    static const char *const issued_names[PIPE_N_KINDS] = {"issued_sp", "issued_sfu", "issued_mem"};
    for (int k = 0; k < PIPE_N_KINDS; k++) {
        stats_counter(reg, group, instance, busy_names[k], &oc->busy_unit_cycles[k],
                      "sum over pipeline cycles of busy collector units of the set (occupancy x cycles)");
        stats_counter(reg, group, instance, issued_names[k], &oc->issued[k],
                      "instructions that entered a collector unit of the set");
    }
    stats_counter(reg, group, instance, "bank_conflict_cycles", &oc->conflict_cycles,
                  "bank-cycles that left a read waiting after arbitration (bank conflicts)");
    stats_hist(reg, group, instance, "conflicts_by_bank", &oc->conflicts_by_bank,
               "conflict cycles per bank (bin = bank)");
    rf_stats_register(&oc->rf, reg, group, instance);
}

void opcoll_check(const struct opcoll *oc)
{
    uint32_t cap = oc->n_units * PIPE_MAX_SRC;
    uint32_t queued = 0, pend = 0;
    for (uint32_t b = 0; b < oc->n_banks; b++) {
        SIM_ASSERT(oc->banks[b].n <= cap && oc->banks[b].head < cap, "opcoll: bank %u ring corrupt", b);
        SIM_ASSERT(!!oc->banks[b].n == !!(oc->bank_mask & (1ull << b)), "opcoll: bank %u mask bit wrong", b);
        queued += oc->banks[b].n;
    }
    uint32_t busy[PIPE_N_KINDS] = {0};
    for (uint32_t u = 0; u < oc->n_units; u++) {
        bool coll = oc->units[u].busy && oc->units[u].n_pending == 0;
        SIM_ASSERT(coll == !!(oc->collected & (1ull << u)), "opcoll: unit %u collected bit wrong", u);
        if (oc->units[u].busy) {
            busy[oc->units[u].set]++;
            pend += oc->units[u].n_pending;
        } else {
            SIM_ASSERT(oc->units[u].n_pending == 0, "opcoll: free unit %u has pending reads", u);
        }
    }
    SIM_ASSERT(queued == oc->reads_queued && pend == queued,
               "opcoll: read conservation broken (banks %u, counter %u, units %u)", queued, oc->reads_queued, pend);
    for (int k = 0; k < PIPE_N_KINDS; k++)
        SIM_ASSERT(busy[k] == oc->n_busy[k], "opcoll: set %d busy count %u != %u", k, oc->n_busy[k], busy[k]);
    rf_check(&oc->rf);
}
