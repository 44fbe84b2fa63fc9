/* sim/sm/rf/rf_rm.c: the racetrack-memory (RM) register-file policy
 * (rf.policy = rm; specs rf-racetrack-mao.md and rf-racetrack-liang.md;
 * docs/racetrack.md).
 *
 * What is modelled:
 *  - Each bank is a set of racetrack tracks that shift together, so a bank
 *    has one position `pos` (0 .. seg-1, seg = rf.rm_domains / rf.rm_ports):
 *    the row offset under every port. A warp register sits at (port
 *    segment, offset); reaching it costs |offset - pos| shift steps of
 *    rf.rm_shift_ticks RF ticks each, then rf.rm_read_ticks or
 *    rf.rm_write_ticks. The bank stays busy for all of it (one shift-then-
 *    access at a time), and the track stays where the access left it (no
 *    return to a home position).
 *  - Layouts (rf.rm_layout, computed at kernel start from the resident
 *    warps and the register count): original (warp-major rows from row 0),
 *    remap (Mao Eq. 3.1-3.3, centred in the segment; the general
 *    interleaved layout of the spec when Eq. 3.3 does not fit), warp-
 *    register remap (each scheduler owns n_banks / n_sched banks), liang
 *    (profile-guided grouping and arrangement, rm_map.c, from the move
 *    counts of an earlier run) and ideal (no shift cost).
 *  - Liang's preshifting (rf.rm_preshift): a bank that is not busy moves
 *    one step per rf.rm_shift_ticks toward the row of the next request of
 *    its queue (the write buffer's oldest entry first under the priority
 *    policy). It costs no access slot.
 *  - A write buffer of rf.rm_wb_entries entries per bank: a writeback is
 *    stored (RF_WB_TAKEN) unless its bank is idle, has no queued read and
 *    has the row under the ports (then it is written directly, Mao Q8). Entries go to the bank later:
 *    piggyback (Mao: an entry whose row is under the ports is written with
 *    no shift whenever the bank is free) or priority (Liang: the oldest
 *    entry whenever the bank is free, shifting to it). Full: piggyback
 *    forces the entry nearest the track out through the bank (an overflow,
 *    paying the shift) and stores the new value; priority refuses the
 *    writeback (a writeback stall). A warp's buffered values are dropped
 *    when it exits (dead registers). Options: reads of a buffered register
 *    served by the buffer (rf.rm_wb_forward, Mao's RAW forwarding) and a
 *    newer write replacing the buffered one (rf.rm_wb_void, Mao's WAW
 *    voiding).
 *  - The RMWS score (score hook): the largest |offset - ref| over the
 *    instruction's RF-read operands, ref = the offset of the newest queued
 *    read of the bank (the position the track will have when this request
 *    reaches the head of the FIFO), or pos when the queue is empty.
 *  - Statistics: shift operations and steps (demand and preshift), the
 *    shift distance of every bank access (histogram), the score of every
 *    issued instruction (histogram, whatever the scheduler), write-buffer
 *    stores, direct writes, piggybacks, drains, overflows, voided writes,
 *    forwarded reads and full stalls, the layout used.
 *
 * What is deliberately not modelled:
 *  - Guard (overhead) domains at the track ends (area only).
 *  - The write buffer's read counter F (Mao 2.4): a forwarded read takes
 *    its value when its collector unit is allocated, so no read of an entry
 *    is ever in flight when the entry is drained or replaced.
 *  - Allocation of a write-buffer entry at issue (Mao Q7 default): entries
 *    are taken at writeback (Mao's option wb_alloc_loads_at_issue = 0 for
 *    every instruction), so the buffer never stalls issue; see
 *    NOTE(rm-wb-alloc).
 *  - (Liang's "a shifting bank holds one of the K arbiter slots every
 *    cycle" is the unit's rf.busy_holds_slot, rf.c, not this file's.)
 *
 * Hot path: per access one table look-up and an abs; the preshift catch-up
 * and the queue peeks only when preshifting is on; no allocation after
 * kernel start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/energy/energy.h"
#include "sim/sm/exec/pipes.h"
#include "sim/sm/rf/rf.h"
#include "sim/sm/rf/rm_map.h"
#include "sim/sm/rf/rm_prof.h"

#define RM_WB_MAX 64 /* largest rf.rm_wb_entries */
#define RM_SEG_MAX 1024 /* largest segment (histogram bins) */

struct rm_wbe {
    uint16_t warp, reg; /* the buffered register */
    uint32_t off;       /* its row offset */
    cycle_t since;      /* RF tick it was stored (preshift target from then) */
};

struct rm_bank {
    uint32_t pos;       /* row offset under the ports (0 .. seg-1) */
    cycle_t synced;     /* RF tick up to which preshifting has been applied */
    uint32_t wb_n;      /* buffered entries (entries) */
    struct rm_wbe wb[RM_WB_MAX]; /* oldest first */
};

struct rm_stats {
    uint64_t shift_ops;      /* bank accesses that needed a demand shift */
    uint64_t shift_steps;    /* demand shift steps (one domain each, a whole bank) */
    uint64_t preshift_steps; /* preshift steps of idle banks */
    uint64_t all_steps;      /* shift_steps + preshift_steps (energy) */
    uint64_t aligned_reads;  /* reads that found their row under the ports */
    uint64_t preshift_aligned; /* reads aligned because a preshift moved the track */
    uint64_t wb_stores;      /* values stored into the write buffer (registers) */
    uint64_t wb_direct;      /* writebacks written straight to an idle aligned bank (registers) */
    uint64_t wb_piggyback;   /* buffered values written with no shift */
    uint64_t wb_drains;      /* buffered values written after a shift */
    uint64_t wb_overflow;    /* writebacks written through the bank because the buffer was full (registers) */
    uint64_t wb_voided;      /* buffered values replaced by a newer write of the register */
    uint64_t wb_reads;       /* operand reads served by the write buffer */
    uint64_t wb_drain_reads; /* buffer reads to write an entry to its bank */
    uint64_t wb_all_reads;   /* wb_reads + wb_drain_reads (energy) */
    uint64_t wb_full;        /* writebacks refused because the buffer was full (result-cycles) */
    uint64_t wb_dead;        /* buffered values dropped at their warp's exit (never written) */
    uint64_t wait_ticks;     /* RF ticks reads waited from competing to their access, shift included */
    uint64_t waits;          /* reads counted in wait_ticks */
    uint64_t wb_peak;        /* most entries buffered in one bank (entries) */
    uint64_t layout_eq33;    /* kernel starts laid out by Mao Eq. 3.3 */
    uint64_t layout_general; /* kernel starts laid out by the general interleave (Eq. 3.3 did not fit) */
    uint64_t rows_used;      /* most rows (warp registers) of one bank in use (entries) */
    uint64_t overfull;       /* kernel starts with more warp registers in a bank than rows (they alias) */
    uint64_t pred_direct;    /* liang: profile's eq. 3 shift cost under the DIRECT layout (steps) */
    uint64_t pred_liang;     /* liang: the same under the computed layout (steps) */
    struct stat_hist dist;   /* demand shift distance of every bank access (bin = steps) */
    struct stat_hist score;  /* RMWS score of every issued instruction (bin = steps) */
};

struct rm {
    struct rf *rf;
    uint32_t B;            /* banks */
    uint32_t P;            /* ports per track */
    uint32_t L;            /* domains per track */
    uint32_t seg;          /* L / P: rows per port segment */
    uint32_t tr, tw, ts;   /* read, write, shift-step ticks */
    int layout;            /* enum rf_rm_layout */
    bool preshift;
    uint32_t wb_cap;       /* entries per bank (0 = no buffer) */
    int wb_pol;            /* enum rf_rm_wb_policy */
    bool fwd, voidw;
    bool ideal;            /* no shift cost */
    /* per kernel */
    uint32_t S;            /* schedulers (bank subsets under warp_reg_remap) */
    uint32_t W, R;         /* warp slots and registers mapped */
    uint32_t *off;         /* [W * R] row offset of (warp, reg) */
    uint8_t *btab;         /* [W * R] bank of (warp, reg) */
    uint32_t cap_off;      /* allocated entries of off */
    uint32_t init_pos[RF_MAX_BANKS]; /* position of each bank at kernel start */
    bool direct_next;      /* the writeback in progress is a direct write (stats) */
    bool through_next;     /* the writeback in progress goes through the banks as an overflow (stats) */
    uint32_t n_launch;     /* kernel starts on this SM so far (profile record index) */
    struct rm_bank bank[RF_MAX_BANKS];
    uint64_t wb_mask;      /* banks with buffered entries (bit b) */
    uint64_t chk_mask;     /* piggyback: banks whose track moved or got an entry since rm_tick found
                              nothing aligned there (NOTE(rm-chk)) */
    /* NOTE(rm-snapshot): RMWS reference rows of every bank for the issue
     * stage of cycle snap_cycle (spec 3.8: all schedulers score from the
     * state at the start of the cycle's issue) */
    uint32_t ref[RF_MAX_BANKS];
    bool snap_valid;
    struct rm_prof *prof;  /* move-count recorder (rf.rm_profile_out), or NULL */
    struct rm_stats st;
};

/* ------------------------------------------------------------ mapping */

/* NOTE(rm-bank-table): the bank of every (warp, register) of the kernel is
 * tabulated at kernel start (the formula divides by the bank count). */
static inline uint32_t rm_bank(const struct rm *m, uint32_t w, uint32_t r)
{
    if (w < m->W && r < m->R)
        return m->btab[(size_t)w * m->R + r];
    return rm_bank_fn(m->B, m->S, w, r);
}

static uint32_t rm_bank_of(void *ps, uint32_t warp, uint32_t reg) { return rm_bank(ps, warp, reg); }

/* NOTE(rm-unmapped): a register outside the kernel-start table (a warp
 * slot beyond the occupancy, or a number beyond the allocator's count)
 * cannot occur with the SM's slot assignment; it is given a fixed row
 * rather than a panic so that a policy test with hand-made warps works. */
static inline uint32_t rm_off(const struct rm *m, uint32_t w, uint32_t r)
{
    if (w < m->W && r < m->R)
        return m->off[(size_t)w * m->R + r];
    return (w * 7u + r) % m->seg;
}

/* Index of register r among warp w's registers in its bank (k of the spec). */
static inline uint32_t rm_k(const struct rm *m, uint32_t r) { return r / (m->B / (m->S ? m->S : 1)); }

/* Build the per-kernel table off[] for the configured layout. */
static void rm_layout_build(struct rm *m, const struct rf_kernel_info *ki)
{
    uint32_t B = m->B, S = m->S, bs = B / S, seg = m->seg, P = m->P;
    uint32_t W = m->W, R = m->R;
    uint32_t n_b[RF_MAX_BANKS] = {0}; /* (warp, reg) pairs per bank */
    for (uint32_t w = 0; w < W; w++)
        for (uint32_t r = 0; r < R; r++)
            n_b[rm_bank(m, w, r)]++;
    uint32_t rows = 0;
    for (uint32_t b = 0; b < B; b++)
        rows = n_b[b] > rows ? n_b[b] : rows;
    if (rows > m->st.rows_used)
        m->st.rows_used = rows;
    if (rows > m->L)
        m->st.overfull++; /* NOTE(rm-overfull) in rm_prof.c: rows alias */
    memset(m->init_pos, 0, sizeof m->init_pos);
    uint32_t idx[RF_MAX_BANKS] = {0};
    if (m->layout == RF_RM_IDEAL) {
        memset(m->off, 0, (size_t)W * R * sizeof *m->off);
        return;
    }
    if (m->layout == RF_RM_LIANG) {
        struct rm_prof_cost pc = rm_prof_map(&m->rf->cfg, ki, m->n_launch, m->S, m->off, W, R, m->init_pos);
        m->st.pred_direct += pc.direct;
        m->st.pred_liang += pc.liang;
        return;
    }
    if (m->layout == RF_RM_ORIGINAL) {
        /* rows in (warp, k) order from row 0; segment = row / seg, offset =
         * row mod seg; rows beyond the track wrap (NOTE(rm-overfull)). */
        for (uint32_t w = 0; w < W; w++)
            for (uint32_t r = 0; r < R; r++) {
                uint32_t b = rm_bank(m, w, r);
                m->off[(size_t)w * R + r] = (idx[b]++ % m->L) % seg;
            }
        return;
    }
    /* remap / warp_reg_remap: Eq. 3.1-3.3 with B -> B/S, W -> W/S, w -> w/S */
    uint32_t rpb = (R + bs - 1) / bs;           /* (3.1) regs_per_bank */
    uint32_t nps = (rpb + P - 1) / P;           /* (3.2) rows per warp in a segment */
    uint32_t wl = (W + S - 1) / S;              /* warps per scheduler */
    if ((uint64_t)wl * nps <= seg) {
        uint32_t offset = (seg - wl * nps) / 2; /* centring: our reading of the document (spec 3.2) */
        for (uint32_t w = 0; w < W; w++)
            for (uint32_t r = 0; r < R; r++)
                m->off[(size_t)w * R + r] = nps * (w / S) + (rm_k(m, r) % nps) + offset;
        for (uint32_t b = 0; b < B; b++)
            m->init_pos[b] = offset;
        m->st.layout_eq33++;
        return;
    }
    /* General layout (spec 3.2, Q2): bank b's pairs in (warp, k) order get
     * i = 0..N_b-1, segment i mod P, offset offset_b + i / P, centred. */
    uint32_t ob[RF_MAX_BANKS];
    for (uint32_t b = 0; b < B; b++) {
        uint32_t used = (n_b[b] + P - 1) / P;
        ob[b] = used <= seg ? (seg - used) / 2 : 0;
        m->init_pos[b] = ob[b];
    }
    for (uint32_t w = 0; w < W; w++)
        for (uint32_t r = 0; r < R; r++) {
            uint32_t b = rm_bank(m, w, r);
            uint32_t i = idx[b]++;
            m->off[(size_t)w * R + r] = (ob[b] + i / P) % seg;
        }
    m->st.layout_general++;
}

/* ------------------------------------------------------------ preshift */

/* NOTE(rm-preshift-sync): preshifting is applied lazily, at every access of
 * the bank and at the policy's tick, up to RF tick `upto`: the bank moves
 * one step per rf.rm_shift_ticks of the idle ticks since max(last sync,
 * end of its last access, the time its target appeared) toward the target
 * (the queue front, or under priority the oldest buffered write). Targets
 * change only at events the policy sees (an access pops the front and
 * syncs; a write is buffered or drained here), and the time a queued read
 * appeared comes with it, so the result does not depend on when the sync
 * is called: idle skipping and sim.tick_every_cycle give the same state. */
static void rm_sync(struct rm *m, uint32_t b, cycle_t upto)
{
    struct rm_bank *bk = &m->bank[b];
    cycle_t from = bk->synced;
    if (m->rf->bank[b].busy_until > from)
        from = m->rf->bank[b].busy_until;
    if (from >= upto) {
        return;
    }
    uint32_t tgt;
    cycle_t since;
    uint32_t qw, qr;
    if (m->wb_pol == RF_RM_WB_PRIORITY && bk->wb_n) {
        tgt = bk->wb[0].off;
        since = bk->wb[0].since;
    } else if (rf_queue_peek(m->rf, b, false, &qw, &qr, &since)) {
        tgt = rm_off(m, qw, qr);
        since = rf_tick_of(m->rf, since);
    } else {
        bk->synced = upto; /* no target: nothing moves */
        return;
    }
    if (since > from)
        from = since;
    if (from < upto && tgt != bk->pos) {
        uint64_t steps = (upto - from) / m->ts;
        uint32_t d = tgt > bk->pos ? tgt - bk->pos : bk->pos - tgt;
        uint32_t mv = steps < d ? (uint32_t)steps : d;
        bk->pos = tgt > bk->pos ? bk->pos + mv : bk->pos - mv;
        m->chk_mask |= 1ull << b;
        m->st.preshift_steps += mv;
        m->st.all_steps += mv;
        /* whole steps only: the remainder of a partial step is kept */
        bk->synced = mv == d ? upto : from + (cycle_t)mv * m->ts;
        return;
    }
    bk->synced = upto;
}

/* ------------------------------------------------------------ hooks */

static uint32_t rm_access(void *ps, uint32_t b, uint32_t warp, uint32_t reg, bool is_write, cycle_t tick)
{
    struct rm *m = ps;
    struct rm_bank *bk = &m->bank[b];
    uint32_t before = bk->pos;
    if (m->preshift)
        rm_sync(m, b, tick);
    uint32_t o = rm_off(m, warp, reg);
    uint32_t d = m->ideal ? 0 : (o > bk->pos ? o - bk->pos : bk->pos - o);
    if (m->prof)
        rm_prof_move(m->prof, b, warp, reg);
    if (!m->ideal)
        bk->pos = o;
    m->chk_mask |= 1ull << b;
    uint32_t k = d * m->ts + (is_write ? m->tw : m->tr);
    bk->synced = tick + k;
    m->st.shift_steps += d;
    m->st.all_steps += d;
    if (d)
        m->st.shift_ops++;
    else if (!is_write) {
        m->st.aligned_reads++;
        if (before != o && !m->ideal)
            m->st.preshift_aligned++;
    }
    stat_hist_add(&m->st.dist, d);
    if (!is_write) {
        /* Mao's waiting cycles (Fig. 15): enqueue to the start of the read's
         * own access, shift included; the request being granted is still the
         * front of its queue */
        uint32_t qw, qr;
        cycle_t since;
        if (rf_queue_peek(m->rf, b, false, &qw, &qr, &since) && qw == warp && qr == reg) {
            cycle_t t_enq = rf_tick_of(m->rf, since + 1); /* reads compete from the cycle after queueing */
            m->st.wait_ticks += (tick > t_enq ? tick - t_enq : 0) + (uint64_t)d * m->ts;
            m->st.waits++;
        }
    }
    if (is_write && m->direct_next)
        m->st.wb_direct++;
    else if (is_write && m->through_next)
        m->st.wb_overflow++;
    return k;
}

static int rm_wb_find(const struct rm_bank *bk, uint32_t w, uint32_t r)
{
    for (uint32_t i = 0; i < bk->wb_n; i++)
        if (bk->wb[i].warp == w && bk->wb[i].reg == r)
            return (int)i;
    return -1;
}

static void rm_wb_remove(struct rm *m, uint32_t b, uint32_t i)
{
    struct rm_bank *bk = &m->bank[b];
    memmove(&bk->wb[i], &bk->wb[i + 1], (bk->wb_n - i - 1) * sizeof bk->wb[0]);
    if (--bk->wb_n == 0)
        m->wb_mask &= ~(1ull << b);
}

/* Write buffered entry e of bank b to the bank at RF tick t (free bank,
 * slot available); returns the shift steps it needed. */
static uint32_t rm_write_entry(struct rm *m, uint32_t b, uint32_t e, cycle_t t)
{
    struct rm_bank *bk = &m->bank[b];
    struct rm_wbe x = bk->wb[e];
    uint32_t d = m->ideal ? 0 : (x.off > bk->pos ? x.off - bk->pos : bk->pos - x.off);
    uint32_t k = d * m->ts + m->tw;
    if (m->prof)
        rm_prof_move(m->prof, b, x.warp, x.reg);
    if (!m->ideal)
        bk->pos = x.off;
    m->chk_mask |= 1ull << b;
    rm_wb_remove(m, b, e);
    rf_policy_write(m->rf, b, t, k);
    bk->synced = t + k;
    m->st.shift_steps += d;
    m->st.all_steps += d;
    if (d)
        m->st.shift_ops++;
    stat_hist_add(&m->st.dist, d);
    m->st.wb_drain_reads++;
    m->st.wb_all_reads++;
    return d;
}

/* NOTE(rm-wb-alloc): entries are taken at writeback, all registers of a
 * result or none. Direct write (Mao Q8): every destination bank free at
 * the cycle's first tick, no read queued there, the row under the ports
 * (whatever else the buffer holds). */
static enum rf_wb_action rm_on_writeback(void *ps, uint32_t warp, const uint16_t *regs, uint32_t n, cycle_t now)
{
    struct rm *m = ps;
    m->direct_next = false;
    m->through_next = false;
    if (!m->wb_cap)
        return RF_WB_BANKS;
    cycle_t t0 = rf_tick_of(m->rf, now);
    bool direct = true;
    uint32_t need[RF_MAX_BANKS] = {0};
    bool fits = true;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = rm_bank(m, warp, regs[i]);
        struct rm_bank *bk = &m->bank[b];
        uint32_t qw, qr;
        cycle_t since;
        if (m->preshift)
            rm_sync(m, b, t0);
        if (!(rf_bank_free(m->rf, b, t0) && !rf_queue_peek(m->rf, b, false, &qw, &qr, &since) &&
              (m->ideal || bk->pos == rm_off(m, warp, regs[i]))))
            direct = false;
        if (!(m->voidw && rm_wb_find(bk, warp, regs[i]) >= 0))
            need[b]++;
        if (bk->wb_n + need[b] > m->wb_cap)
            fits = false;
    }
    if (direct) {
        /* an older buffered value of the same register is overwritten by
         * this one: it is voided, never written (with or without
         * rf.rm_wb_void: the bank now holds the newer value) */
        for (uint32_t i = 0; i < n; i++) {
            uint32_t b = rm_bank(m, warp, regs[i]);
            int e = (m->wb_mask >> b & 1) ? rm_wb_find(&m->bank[b], warp, regs[i]) : -1;
            if (e >= 0) {
                rm_wb_remove(m, b, (uint32_t)e);
                m->st.wb_voided++;
            }
        }
        m->direct_next = true;
        return RF_WB_BANKS;
    }
    if (!fits) {
        /* NOTE(rm-through): a result with more registers for one bank than
         * forcing one entry out can make room for (wide loads, tiny
         * buffers) is written through the banks, as an overflow; so is any
         * result that can never fit. Without it such a writeback would wait
         * forever. */
        bool through = false;
        for (uint32_t b = 0; b < m->B; b++)
            if (need[b] > m->wb_cap || (m->wb_pol == RF_RM_WB_PIGGYBACK && need[b] > 1 &&
                                        m->bank[b].wb_n + need[b] > m->wb_cap))
                through = true;
        if (through) {
            m->through_next = true;
            return RF_WB_BANKS;
        }
        if (m->wb_pol == RF_RM_WB_PRIORITY) {
            m->st.wb_full++;
            return RF_WB_REFUSE;
        }
        /* NOTE(rm-overflow): Mao's overflow (spec 3.6 step 1, Q9): each full
         * bank forces one entry out, the nearest to the track then the
         * oldest, written through the bank now (paying its shift), and the
         * new value takes its place. A bank busy at the first tick of the
         * cycle, or no access slot there, refuses the writeback (retried the
         * next cycle). */
        for (uint32_t b = 0; b < m->B; b++)
            if (need[b] && m->bank[b].wb_n + need[b] > m->wb_cap &&
                (!rf_bank_free(m->rf, b, t0) || !rf_port_free(m->rf, t0))) {
                m->st.wb_full++;
                return RF_WB_REFUSE;
            }
        for (uint32_t b = 0; b < m->B; b++) {
            struct rm_bank *bk = &m->bank[b];
            if (!(need[b] && bk->wb_n + need[b] > m->wb_cap))
                continue;
            uint32_t best = 0, bd = UINT32_MAX;
            for (uint32_t i = 0; i < bk->wb_n; i++) {
                uint32_t o = bk->wb[i].off, d = o > bk->pos ? o - bk->pos : bk->pos - o;
                if (d < bd) {
                    bd = d;
                    best = i;
                }
            }
            rm_write_entry(m, b, best, t0);
            m->st.wb_overflow++;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = rm_bank(m, warp, regs[i]);
        struct rm_bank *bk = &m->bank[b];
        int e = m->voidw ? rm_wb_find(bk, warp, regs[i]) : -1;
        if (e >= 0) {
            /* the older value is never written; the entry keeps its place
             * (priority: age of the first write) */
            m->st.wb_voided++;
        } else {
            bk->wb[bk->wb_n++] = (struct rm_wbe){(uint16_t)warp, regs[i], rm_off(m, warp, regs[i]), t0};
            m->wb_mask |= 1ull << b;
            m->chk_mask |= 1ull << b;
            if (bk->wb_n > m->st.wb_peak)
                m->st.wb_peak = bk->wb_n;
        }
        m->st.wb_stores++;
    }
    return RF_WB_TAKEN;
}

static bool rm_read_forward(void *ps, uint32_t warp, uint32_t reg, cycle_t now)
{
    (void)now;
    struct rm *m = ps;
    if (!m->fwd)
        return false;
    uint32_t b = rm_bank(m, warp, reg);
    if (!(m->wb_mask >> b & 1) || rm_wb_find(&m->bank[b], warp, reg) < 0)
        return false;
    m->st.wb_reads++;
    m->st.wb_all_reads++;
    return true;
}

/* Which buffered entry bank b writes now, or -1 (NOTE(rm-drain)):
 * priority, the oldest; piggyback (Mao 3.7), the oldest whose row is under
 * the ports, else none. */
static int rm_drain_pick(struct rm *m, uint32_t b)
{
    struct rm_bank *bk = &m->bank[b];
    if (!bk->wb_n)
        return -1;
    if (m->wb_pol == RF_RM_WB_PRIORITY)
        return 0;
    for (uint32_t i = 0; i < bk->wb_n; i++)
        if (m->ideal || bk->wb[i].off == bk->pos)
            return (int)i; /* piggyback: the oldest aligned entry */
    return -1;             /* the others wait for the track, an overflow or their warp's exit */
}

/* NOTE(rm-drain): buffered writes go to the banks from the policy's tick,
 * which runs at the end of pipeline cycle `now` (after its writebacks and
 * reads). Piggyback fills what the cycle left: a bank free at some tick of
 * cycle now, with an access slot left at that tick, writes one entry
 * (rm_drain_pick). Priority (Liang: writes before reads) reserves the bank
 * at the first ticks of cycle now + 1, before that cycle's writebacks and
 * reads are arbitrated, so a buffered write is never overtaken by a read
 * that arrives while the bank is free. The tick returns the cycle at which
 * the next drain may be placed, so idle skipping sees every drain. */
static cycle_t rm_tick(void *ps, cycle_t now)
{
    struct rm *m = ps;
    struct rf *rf = m->rf;
    m->snap_valid = false; /* NOTE(rm-snapshot): the issue stage of cycle now comes next */
    if (!m->wb_cap)
        return CYCLE_NEVER;
    bool ahead = m->wb_pol == RF_RM_WB_PRIORITY;
    cycle_t w0 = rf_tick_of(rf, ahead ? now + 1 : now), w1 = w0 + rf->mult;
    cycle_t next = CYCLE_NEVER;
    /* NOTE(rm-chk): under piggyback a bank whose entries are all off the
     * track stays so until an access moves the track (rm_access) or an
     * entry arrives (or a preshift moves it, rm_sync); rm_tick skips it
     * until then. */
    uint64_t visit = ahead ? m->wb_mask : m->wb_mask & m->chk_mask;
    for (uint64_t mk = visit; mk; mk &= mk - 1) {
        uint32_t b = (uint32_t)__builtin_ctzll(mk);
        struct rm_bank *bk = &m->bank[b];
        while (bk->wb_n) {
            cycle_t t = rf->bank[b].busy_until > w0 ? rf->bank[b].busy_until : w0;
            if (t >= w1) { /* busy past the window: come back for the window holding t */
                cycle_t c = t / rf->mult - (ahead ? 1 : 0);
                if (c < next)
                    next = c;
                break;
            }
            while (t < w1 && !rf_port_free(rf, t))
                t++;
            if (t >= w1) { /* every slot of the window taken: next cycle */
                if (now + 1 < next)
                    next = now + 1;
                break;
            }
            if (m->preshift)
                rm_sync(m, b, t);
            int e = rm_drain_pick(m, b);
            if (e < 0) {
                m->chk_mask &= ~(1ull << b); /* nothing aligned: wait for the track (NOTE(rm-chk)) */
                break;
            }
            if (rm_write_entry(m, b, (uint32_t)e, t))
                m->st.wb_drains++;
            else
                m->st.wb_piggyback++;
        }
    }
    return next;
}

/* RMWS score (Mao 3.4): the worst |offset - ref(bank)| over the operands
 * read from the banks; ref = the newest queued read's row, else pos. Two
 * operands in one bank are both compared with the same ref (the document's
 * simplification). Operands the write buffer will serve do not count. */
static uint32_t rm_score(void *ps, uint32_t warp, const struct pipe_op *op)
{
    struct rm *m = ps;
    if (m->ideal)
        return 0;
    if (!m->snap_valid) {
        for (uint32_t b = 0; b < m->B; b++) {
            uint32_t qw, qr;
            cycle_t since;
            m->ref[b] = rf_queue_peek(m->rf, b, true, &qw, &qr, &since) ? rm_off(m, qw, qr) : m->bank[b].pos;
        }
        m->snap_valid = true;
    }
    uint32_t best = 0;
    for (uint32_t i = 0; i < op->n_src; i++) {
        uint32_t r = op->src[i], b = rm_bank(m, warp, r);
        if (m->fwd && (m->wb_mask >> b & 1) && rm_wb_find(&m->bank[b], warp, r) >= 0)
            continue;
        uint32_t o = rm_off(m, warp, r), ref = m->ref[b], d = o > ref ? o - ref : ref - o;
        if (d > best)
            best = d;
    }
    return best;
}

static void rm_on_issue(void *ps, const struct pipe_op *op, cycle_t now)
{
    (void)now;
    struct rm *m = ps;
    stat_hist_add(&m->st.score, rm_score(ps, op->warp, op));
}

/* NOTE(rm-dead): a warp's registers are dead once it exits, so its
 * buffered values are dropped, not written (no bank access, no energy);
 * the slot's next warp starts with an empty share of the buffer. */
static void rm_warp_exit(void *ps, uint32_t warp, cycle_t now)
{
    (void)now;
    struct rm *m = ps;
    if (!m->wb_cap)
        return;
    for (uint32_t b = 0; b < m->B; b++) {
        struct rm_bank *bk = &m->bank[b];
        for (uint32_t i = 0; i < bk->wb_n;)
            if (bk->wb[i].warp == warp) {
                rm_wb_remove(m, b, i);
                m->st.wb_dead++;
            } else {
                i++;
            }
    }
}

static void rm_kernel_start(void *ps, const struct rf_kernel_info *ki)
{
    struct rm *m = ps;
    m->S = m->layout == RF_RM_WARP_REG_REMAP && ki->n_sched > 1 ? ki->n_sched : 1;
    m->W = ki->n_warps;
    m->R = ki->regs_alloc > ki->regs_per_thread ? ki->regs_alloc : ki->regs_per_thread;
    if (!m->R)
        m->R = 1;
    size_t need = (size_t)m->W * m->R;
    if (need > m->cap_off) {
        free(m->off);
        free(m->btab);
        m->off = xcalloc(need ? need : 1, sizeof *m->off);
        m->btab = xcalloc(need ? need : 1, sizeof *m->btab);
        m->cap_off = (uint32_t)need;
    }
    for (uint32_t w = 0; w < m->W; w++)
        for (uint32_t r = 0; r < m->R; r++)
            m->btab[(size_t)w * m->R + r] = (uint8_t)rm_bank_fn(m->B, m->S, w, r);
    if (m->prof)
        rm_prof_kernel(m->prof, ki, m->B, m->S);
    rm_layout_build(m, ki);
    m->n_launch++;
    m->snap_valid = false;
    for (uint32_t b = 0; b < m->B; b++) {
        SIM_ASSERT(m->bank[b].wb_n == 0, "rf rm: bank %u starts a kernel with %u buffered writes", b,
                   m->bank[b].wb_n);
        m->bank[b].pos = m->init_pos[b];
        m->bank[b].synced = 0;
    }
}

static void *rm_create(struct rf *rf, void *arg)
{
    (void)arg;
    const struct rf_cfg *c = &rf->cfg;
    struct rm *m = xcalloc(1, sizeof *m);
    m->rf = rf;
    m->B = rf->n_banks;
    m->P = (uint32_t)c->rm_ports;
    m->L = (uint32_t)(c->rm_domains ? c->rm_domains : c->entries_per_bank);
    m->seg = m->L / m->P;
    SIM_ASSERT(m->seg >= 1 && m->seg <= RM_SEG_MAX && m->L % m->P == 0, "rf rm: %u domains, %u ports", m->L, m->P);
    m->tr = (uint32_t)c->rm_read_ticks;
    m->tw = (uint32_t)c->rm_write_ticks;
    m->ts = (uint32_t)c->rm_shift_ticks;
    m->layout = c->rm_layout;
    m->ideal = c->rm_layout == RF_RM_IDEAL;
    m->preshift = c->rm_preshift && !m->ideal;
    m->wb_cap = (uint32_t)c->rm_wb_entries;
    SIM_ASSERT(m->wb_cap <= RM_WB_MAX, "rf rm: %u write-buffer entries per bank", m->wb_cap);
    m->wb_pol = c->rm_wb_policy;
    m->fwd = c->rm_wb_forward && m->wb_cap;
    m->voidw = c->rm_wb_void && m->wb_cap;
    m->S = 1;
    m->prof = rm_prof_create(c, m->B, m->L);
    stat_hist_init(&m->st.dist, m->seg, 1);
    stat_hist_init(&m->st.score, m->seg, 1);
    return m;
}

static void rm_destroy(void *ps)
{
    struct rm *m = ps;
    if (m->prof)
        rm_prof_destroy(m->prof);
    stat_hist_fini(&m->st.dist);
    stat_hist_fini(&m->st.score);
    free(m->off);
    free(m->btab);
    free(m);
}

static void rm_stats_register(void *ps, struct stats *reg, const char *g, int i)
{
    struct rm *m = ps;
    struct rm_stats *st = &m->st;
    stats_counter(reg, g, i, "rm_shift_ops", &st->shift_ops, "racetrack bank accesses that needed a demand shift");
    stats_counter(reg, g, i, "rm_shift_steps", &st->shift_steps,
                  "racetrack demand shift steps (one domain, the whole bank)");
    stats_counter(reg, g, i, "rm_preshift_steps", &st->preshift_steps, "racetrack preshift steps of idle banks");
    stats_counter(reg, g, i, "rm_steps", &st->all_steps, "racetrack shift steps, demand + preshift (energy)");
    stats_counter(reg, g, i, "rm_aligned_reads", &st->aligned_reads, "reads that found their row under the ports");
    stats_counter(reg, g, i, "rm_preshift_aligned", &st->preshift_aligned,
                  "reads aligned on arrival because a preshift had moved the track");
    stats_counter(reg, g, i, "rm_wb_stores", &st->wb_stores, "registers stored into the write buffer");
    stats_counter(reg, g, i, "rm_wb_direct", &st->wb_direct,
                  "written registers that went straight to an idle, aligned bank");
    stats_counter(reg, g, i, "rm_wb_piggyback", &st->wb_piggyback, "buffered registers written with no shift");
    stats_counter(reg, g, i, "rm_wb_drains", &st->wb_drains, "buffered registers written after a shift");
    stats_counter(reg, g, i, "rm_wb_overflow", &st->wb_overflow,
                  "buffered registers forced to their bank to make room (write buffer full, piggyback)");
    stats_counter(reg, g, i, "rm_wb_voided", &st->wb_voided,
                  "buffered registers replaced by a newer write before reaching the bank");
    stats_counter(reg, g, i, "rm_wb_reads", &st->wb_reads, "operand reads served by the write buffer");
    stats_counter(reg, g, i, "rm_wb_drain_reads", &st->wb_drain_reads,
                  "write-buffer reads that move an entry to its bank");
    stats_counter(reg, g, i, "rm_wb_all_reads", &st->wb_all_reads, "write-buffer reads, operands + drains (energy)");
    stats_counter(reg, g, i, "rm_wb_full", &st->wb_full, "writebacks refused: write buffer full (result-cycles)");
    stats_counter(reg, g, i, "rm_wait_ticks", &st->wait_ticks,
                  "RF ticks reads waited from the tick they could compete to the end of their shift (Mao Fig. 15)");
    stats_counter(reg, g, i, "rm_waits", &st->waits, "bank reads counted in rm_wait_ticks");
    stats_counter(reg, g, i, "rm_wb_dead", &st->wb_dead,
                  "buffered registers dropped at their warp's exit (dead values, never written)");
    stats_max(reg, g, i, "rm_wb_peak", &st->wb_peak, "most entries buffered in one bank");
    stats_counter(reg, g, i, "rm_layout_eq33", &st->layout_eq33, "kernel starts laid out by Mao Eq. 3.3");
    stats_counter(reg, g, i, "rm_layout_general", &st->layout_general,
                  "kernel starts laid out by the general interleave (Eq. 3.3 did not fit)");
    stats_counter(reg, g, i, "rm_overfull", &st->overfull,
                  "kernel starts with more warp registers in a bank than rows (allocator numbers above the ptxas "
                  "count): rows alias, NOTE(rm-overfull)");
    stats_max(reg, g, i, "rm_rows_used", &st->rows_used, "most warp registers mapped to one bank (entries)");
    stats_counter(reg, g, i, "rm_pred_direct", &st->pred_direct,
                  "liang layout: the profile's predicted shift steps (Liang eq. 3) under the DIRECT layout");
    stats_counter(reg, g, i, "rm_pred_liang", &st->pred_liang,
                  "liang layout: the profile's predicted shift steps under the computed layout");
    stats_hist(reg, g, i, "rm_shift_dist", &st->dist, "demand shift steps of each bank access (bin = steps)");
    stats_hist(reg, g, i, "rm_issue_score", &st->score,
               "RMWS score (worst operand shift distance) of each issued instruction (bin = steps)");
    energy_event_register(reg, "rf", "shift", &st->all_steps, "energy.rf.shift_pj");
    energy_event_register(reg, "rf", "wb_write", &st->wb_stores, "energy.rf.wb_write_pj");
    energy_event_register(reg, "rf", "wb_read", &st->wb_all_reads, "energy.rf.wb_read_pj");
}

const struct rf_policy_ops rf_policy_rm = {
    .name = "rm",
    .create = rm_create,
    .destroy = rm_destroy,
    .bank_of = rm_bank_of,
    .access = rm_access,
    .tick = rm_tick,
    .on_writeback = rm_on_writeback,
    .can_issue = NULL,
    .on_issue = rm_on_issue,
    .kernel_start = rm_kernel_start,
    .stats_register = rm_stats_register,
    .read_forward = rm_read_forward,
    .score = rm_score,
    .warp_exit = rm_warp_exit,
};
