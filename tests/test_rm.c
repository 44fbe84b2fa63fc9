/* tests/test_rm.c: the racetrack register-file policy (sim/sm/rf/rf_rm.c),
 * its profile (rm_prof.c) and the RMWS scheduler (sim/sm/sched/sched_rmws.c);
 * docs/racetrack.md.
 *
 * Every expected tick is computed by hand next to the check. Conventions:
 * 16 banks of 64 rows, 4 ports (segments of 16 rows), bank of register r of
 * warp w = (r + w) mod 16; an access at RF tick T that needs d shift steps
 * keeps the bank busy d x shift_ticks + read/write ticks and its value is
 * ready at the end. The collector's queues are replaced by a fake (front
 * and newest request per bank) so that preshifting and RMWS scores can be
 * driven exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/base/stats.h"
#include "sim/sm/exec/pipes.h"
#include "sim/sm/rf/rf.h"
#include "sim/sm/rf/opcoll.h"
#include "sim/sm/rf/rm_prof.h"
#include "sim/sm/sched/sched.h"
#include "tap.h"

/* ------------------------------------------------------------ a fake queue */

struct fq {
    bool has[RF_MAX_BANKS];
    uint32_t fw[RF_MAX_BANKS], fr[RF_MAX_BANKS]; /* front */
    uint32_t bw[RF_MAX_BANKS], br[RF_MAX_BANKS]; /* newest */
    cycle_t since[RF_MAX_BANKS];
};

static bool fq_peek(void *ctx, uint32_t b, bool back, uint32_t *w, uint32_t *r, cycle_t *since)
{
    struct fq *q = ctx;
    if (!q->has[b])
        return false;
    *w = back ? q->bw[b] : q->fw[b];
    *r = back ? q->br[b] : q->fr[b];
    *since = q->since[b];
    return true;
}

static void fq_set(struct fq *q, uint32_t b, uint32_t w, uint32_t r, cycle_t since)
{
    q->has[b] = true;
    q->fw[b] = q->bw[b] = w;
    q->fr[b] = q->br[b] = r;
    q->since[b] = since;
}

static struct rf_cfg rm_cfg(int layout, uint64_t wb)
{
    struct rf_cfg c;
    rf_cfg_defaults(&c);
    c.policy = RF_POLICY_RM;
    c.rm_layout = layout;
    c.rm_wb_entries = wb;
    c.rm_profile_out = (char *)"none";
    c.rm_profile_in = (char *)"none";
    return c;
}

static void kstart(struct rf *rf, uint32_t W, uint32_t R, uint32_t n_sched)
{
    struct rf_kernel_info ki = {W, 1, W, R, 32768, NULL, R, n_sched, 0, "k"};
    rf_kernel_start(rf, &ki);
}

static uint64_t stat_of(struct rf *rf, const char *name)
{
    struct stats *reg = stats_create();
    rf_stats_register(rf, reg, "rf", 0);
    char full[64];
    snprintf(full, sizeof full, "rf.%s", name);
    uint64_t v = UINT64_MAX;
    stats_get_u64(reg, full, &v);
    stats_destroy(reg);
    return v;
}

/* ------------------------------------------------------------ layouts and shift cost */

static void t_original(void)
{
    struct rf_cfg c = rm_cfg(RF_RM_ORIGINAL, 0);
    struct rf rf;
    rf_init(&rf, &c, NULL, NULL);
    TAP_STREQ(rf.ops->name, "rm", "rf.policy = rm selects the racetrack policy");
    kstart(&rf, 2, 20, 1);
    /* Bank 0 holds (w0, r0), (w0, r16), (w1, r15): rows 0, 1, 2 in
     * warp-major order; the track starts at row 0. */
    TAP_EQ_U64(rf_bank_of(&rf, 1, 15), 0, "warp 1 reg 15 in bank (15 + 1) mod 16 = 0");
    TAP_EQ_U64(rf_read(&rf, 0, 1, 15, 0), 3, "w1 r15 at row 2: 2 shifts + 1 read, ready at tick 3");
    TAP_EQ_U64(rf_read(&rf, 0, 0, 0, 3), 6, "w0 r0 at row 0 from row 2: 2 + 1, ready at 6");
    TAP_EQ_U64(rf_read(&rf, 0, 0, 16, 6), 8, "w0 r16 at row 1: 1 + 1, ready at 8");
    TAP_EQ_U64(rf_read(&rf, 0, 0, 16, 8), 9, "the same row again: no shift, ready at 9");
    /* A write costs rf.rm_write_ticks = 2 after its shift: row 1 -> row 2 */
    uint16_t r15 = 15;
    TAP_OK(rf_write(&rf, 1, &r15, 1, 9), "write of w1 r15 at tick 9");
    TAP_OK(!rf_bank_free(&rf, 0, 11) && rf_bank_free(&rf, 0, 12), "bank 0 busy 9..11 (1 shift + 2 write ticks)");
    TAP_EQ_U64(stat_of(&rf, "rm_shift_steps"), 2 + 2 + 1 + 1, "shift steps 2 + 2 + 1 + 1");
    TAP_EQ_U64(stat_of(&rf, "rm_shift_ops"), 4, "4 accesses needed a shift");
    TAP_EQ_U64(stat_of(&rf, "rm_aligned_reads"), 1, "1 read was aligned");
    rf_check(&rf);
    rf_fini(&rf);
}

static void t_remap(void)
{
    struct rf_cfg c = rm_cfg(RF_RM_REMAP, 0);
    struct rf rf;
    rf_init(&rf, &c, NULL, NULL);
    /* W = 2, R = 20: regs_per_bank = ceil(20/16) = 2, nps = ceil(2/4) = 1,
     * W x nps = 2 <= 16, offset = (16 - 2) / 2 = 7: warp w at row 7 + w of
     * every segment; every bank starts at row 7. */
    kstart(&rf, 2, 20, 1);
    TAP_EQ_U64(rf_read(&rf, 0, 0, 0, 0), 1, "Eq. 3.3: w0 r0 at row 7 = start: ready at tick 1");
    TAP_EQ_U64(rf_read(&rf, 0, 0, 16, 1), 2, "w0 r16 (k = 1, segment 1) also row 7: ready at 2");
    TAP_EQ_U64(rf_read(&rf, 0, 1, 15, 2), 4, "w1 r15 at row 8: 1 shift + 1, ready at 4");
    TAP_EQ_U64(stat_of(&rf, "rm_layout_eq33"), 1, "laid out by Eq. 3.3");
    /* W = 24, R = 34 (Mao's HOT): 24 x ceil(ceil(34/16)/4) = 24 > 16 rows,
     * so the general layout: bank 0 holds 2 x 3 (w0, w16) + 3 (w15) + 21 x 2
     * = 51 pairs, ceil(51/4) = 13 rows, offset (16 - 13) / 2 = 1; pair i at
     * row 1 + i / 4. w0 r0, r16, r32 are i = 0..2, w1 r15, r31 are i = 3, 4:
     * w1 r31 at row 2. */
    kstart(&rf, 24, 34, 1);
    TAP_EQ_U64(stat_of(&rf, "rm_layout_general"), 1, "HOT-like kernel: general layout");
    /* banks 1..7 hold one more: w mod 16 in {b - 1, b} are 4 warps with 3
     * registers there: 4 x 3 + 20 x 2 = 52 */
    TAP_EQ_U64(stat_of(&rf, "rm_rows_used"), 52, "52 warp registers in the fullest bank (banks 1..7)");
    TAP_EQ_U64(rf_read(&rf, 0, 1, 31, 10), 12, "w1 r31 at row 2 from row 1: 1 + 1, ready at 12");
    TAP_EQ_U64(rf_read(&rf, 0, 0, 32, 12), 14, "w0 r32 (i = 2) at row 1, the track at row 2: 1 + 1, ready at 14");
    rf_fini(&rf);
}

static void t_warp_reg_remap(void)
{
    struct rf_cfg c = rm_cfg(RF_RM_WARP_REG_REMAP, 0);
    struct rf rf;
    rf_init(&rf, &c, NULL, NULL);
    kstart(&rf, 4, 8, 2);
    /* S = 2: scheduler w mod 2 owns banks 8 (w mod 2) .. + 7; bank =
     * 8 (w mod 2) + (r + w / 2) mod 8 */
    TAP_EQ_U64(rf_bank_of(&rf, 3, 5), 8 + (5 + 1) % 8, "warp 3 reg 5 -> bank 8 + 6 = 14");
    TAP_EQ_U64(rf_bank_of(&rf, 2, 7), (7 + 1) % 8, "warp 2 reg 7 -> bank 0");
    bool split = true;
    for (uint32_t w = 0; w < 4; w++)
        for (uint32_t r = 0; r < 8; r++)
            split = split && rf_bank_of(&rf, w, r) / 8 == w % 2;
    TAP_OK(split, "every register of a scheduler's warp is in its scheduler's banks");
    rf_fini(&rf);
}

static void t_ideal(void)
{
    struct rf_cfg c = rm_cfg(RF_RM_IDEAL, 0);
    struct rf rf;
    rf_init(&rf, &c, NULL, NULL);
    kstart(&rf, 2, 20, 1);
    TAP_EQ_U64(rf_read(&rf, 0, 1, 15, 0), 1, "ideal: no shift, 1 read tick");
    uint16_t r0 = 0;
    TAP_OK(rf_write(&rf, 0, &r0, 1, 1) && !rf_bank_free(&rf, 0, 2) && rf_bank_free(&rf, 0, 3),
           "ideal: a write is 2 ticks");
    TAP_EQ_U64(stat_of(&rf, "rm_shift_steps"), 0, "no shift steps");
    rf_fini(&rf);
}

/* ------------------------------------------------------------ access slots */

static void t_hold(void)
{
    for (int hold = 0; hold < 2; hold++) {
        struct rf_cfg c = rm_cfg(RF_RM_ORIGINAL, 0);
        c.max_bank_accesses_per_cycle = 2;
        c.busy_holds_slot = hold;
        struct rf rf;
        rf_init(&rf, &c, NULL, NULL);
        kstart(&rf, 2, 20, 1);
        /* tick 0: bank 0 reads w1 r15 (row 2): busy 0..2 (2 shifts + 1) */
        TAP_OK(rf_port_free(&rf, 0), "tick 0: a slot");
        TAP_EQ_U64(rf_read(&rf, 0, 1, 15, 0), 3, "bank 0 busy to 3");
        /* tick 1: bank 1 reads w0 r1 (row 0, aligned) */
        TAP_OK(rf_port_free(&rf, 1), hold ? "tick 1: bank 0 holds 1 of 2 slots, one left" : "tick 1: 2 slots free");
        rf_read(&rf, 1, 0, 1, 1);
        TAP_EQ_U64(rf_port_free(&rf, 1), !hold,
                   hold ? "tick 1: bank 0 (held) + bank 1 (started): no slot" : "tick 1: one start, a slot left");
        TAP_OK(rf_port_free(&rf, 2), "tick 2: bank 1 done, bank 0 holds at most one slot");
        rf_fini(&rf);
    }
}

/* ------------------------------------------------------------ write buffer */

static void t_write_buffer(void)
{
    struct rf_cfg c = rm_cfg(RF_RM_ORIGINAL, 2);
    struct rf rf;
    rf_init(&rf, &c, NULL, NULL);
    kstart(&rf, 2, 20, 1);
    /* bank 0: w0 r0 row 0, w0 r16 row 1, w1 r15 row 2; track at row 0. */
    uint16_t r0 = 0, r16 = 16, r15 = 15;
    /* Direct write: bank idle, no queued read, row under the ports. */
    TAP_OK(rf_write(&rf, 0, &r0, 1, 0), "w0 r0 written at cycle 0");
    TAP_EQ_U64(rf.st.writes, 1, "aligned idle bank: a direct bank write");
    TAP_EQ_U64(stat_of(&rf, "rm_wb_direct"), 1, "counted as direct");
    /* Not aligned: buffered, no bank access. */
    TAP_OK(rf_write(&rf, 1, &r15, 1, 5), "w1 r15 at cycle 5");
    TAP_OK(rf.st.writes == 1 && rf.st.wb_taken == 1, "row 2 is not under the ports: buffered");
    TAP_OK(rf.fwd_fn(rf.ps, 1, 15, 5), "a read of w1 r15 is served by the buffer (RAW forwarding)");
    TAP_OK(!rf.fwd_fn(rf.ps, 0, 16, 5), "w0 r16 is not buffered");
    /* WAW voiding: the same register again replaces the entry. */
    TAP_OK(rf_write(&rf, 1, &r15, 1, 6), "w1 r15 again at cycle 6");
    TAP_EQ_U64(stat_of(&rf, "rm_wb_voided"), 1, "the older value is voided");
    TAP_OK(rf_write(&rf, 0, &r16, 1, 6), "w0 r16 at cycle 6: buffered (row 1)");
    /* Piggyback (Mao 3.7): entries wait until their row passes the ports. */
    TAP_EQ_U64(rf_tick(&rf, 7), CYCLE_NEVER, "cycle 7: no entry under the ports (track at row 0), no tick needed");
    TAP_EQ_U64(rf.st.writes, 1, "nothing drained");
    TAP_EQ_U64(rf_read(&rf, 0, 0, 16, 8), 10, "a read of w0 r16 (row 1) at tick 8 moves the track: ready at 10");
    rf_tick(&rf, 10);
    TAP_EQ_U64(rf.st.writes, 2, "cycle 10: the buffered w0 r16 (row 1, now under the ports) is written");
    TAP_EQ_U64(stat_of(&rf, "rm_wb_piggyback"), 1, "... as a piggyback (no shift)");
    TAP_OK(!rf_bank_free(&rf, 0, 11) && rf_bank_free(&rf, 0, 12), "bank busy 10..11 (2 write ticks)");
    /* warp exit: its buffered values are dead */
    rf_warp_exit(&rf, 1, 12);
    TAP_EQ_U64(stat_of(&rf, "rm_wb_dead"), 1, "warp 1 exits: w1 r15 dropped, never written");
    TAP_EQ_U64(rf_tick(&rf, 13), CYCLE_NEVER, "empty buffer: no tick needed");
    TAP_EQ_U64(stat_of(&rf, "rm_wb_stores"), 3, "3 values were stored (one voided)");
    rf_check(&rf);
    rf_fini(&rf);

    /* A direct write (aligned, idle, empty queue) while the buffer holds an
     * older value of the same register: the older one is voided. */
    rf_init(&rf, &c, NULL, NULL);
    kstart(&rf, 2, 20, 1);
    TAP_OK(rf_write(&rf, 0, &r16, 1, 0) && rf.st.writes == 0, "w0 r16 (row 1) buffered at cycle 0");
    TAP_EQ_U64(rf_read(&rf, 0, 0, 16, 1), 3, "a read of w0 r16 moves the track to row 1: ready at 3");
    TAP_OK(rf_write(&rf, 0, &r16, 1, 5) && rf.st.writes == 1, "w0 r16 again at cycle 5: aligned, written directly");
    TAP_EQ_U64(stat_of(&rf, "rm_wb_voided"), 1, "the buffered older value is voided");
    TAP_OK(!rf.fwd_fn(rf.ps, 0, 16, 5), "the buffer no longer holds w0 r16");
    rf_fini(&rf);

    /* A result with more registers for one bank than the buffer has
     * entries (NOTE(rm-through)) goes through the bank as overflows. */
    rf_init(&rf, &c, NULL, NULL);
    kstart(&rf, 2, 40, 1);
    uint16_t wide[3] = {0, 16, 32}; /* w0: all bank 0, rows 0, 1, 2 */
    TAP_OK(rf_write(&rf, 0, wide, 3, 0), "a 3-register result for bank 0 (2 entries) is accepted");
    TAP_EQ_U64(rf.st.writes, 3, "... written through the bank");
    TAP_EQ_U64(stat_of(&rf, "rm_wb_overflow"), 3, "... as 3 overflows");
    TAP_EQ_U64(rf.bank[0].busy_until, 2 + (1 + 2) + (1 + 2), "rows 0, 1, 2 one after the other: 2 + 3 + 3 ticks");
    rf_fini(&rf);

    /* Piggyback with a queued read: only an aligned entry is written. */
    struct fq q;
    memset(&q, 0, sizeof q);
    rf_init(&rf, &c, NULL, NULL);
    rf_set_queue_front(&rf, fq_peek, &q);
    kstart(&rf, 2, 20, 1);
    TAP_OK(rf_write(&rf, 0, &r16, 1, 0), "w0 r16 buffered (row 1)");
    fq_set(&q, 0, 1, 15, 0); /* a read of w1 r15 (row 2) waits in bank 0 */
    rf_tick(&rf, 0);
    TAP_EQ_U64(rf.st.writes, 0, "queued read, entry not aligned: the entry waits");
    TAP_EQ_U64(rf_read(&rf, 0, 1, 15, 1), 4, "the read shifts 0 -> 2: ready at 1 + 2 + 1");
    q.has[0] = false;
    TAP_OK(rf_write(&rf, 1, &r15, 1, 2), "w1 r15 written at cycle 2 (bank busy: buffered)");
    rf_tick(&rf, 4);
    TAP_EQ_U64(stat_of(&rf, "rm_wb_piggyback"), 1, "cycle 4: w1 r15 (row 2, under the ports) piggybacks");
    rf_fini(&rf);

    /* Overflow (piggyback) and full stall (priority). */
    rf_init(&rf, &c, NULL, NULL);
    kstart(&rf, 3, 20, 1);
    /* W = 3: bank 0 rows w0 r0 0, w0 r16 1, w1 r15 2, w2 r14 3 */
    uint16_t a[3] = {16, 15, 14}; /* w0 r16 (row 1), w1 r15 (row 2), w2 r14 (row 3): all bank 0 */
    TAP_OK(rf_write(&rf, 0, &a[0], 1, 0) && rf_write(&rf, 1, &a[1], 1, 0), "two entries in bank 0");
    TAP_OK(rf_write(&rf, 2, &a[2], 1, 1), "a third value for bank 0 at cycle 1 (row 3, not aligned)");
    TAP_EQ_U64(stat_of(&rf, "rm_wb_overflow"), 1, "piggyback, buffer full: the entry nearest the track is forced out");
    TAP_EQ_U64(rf.st.writes, 1, "... one bank write: w0 r16 (row 1, 1 step from row 0)");
    TAP_OK(rf.bank[0].busy_until == 1 + 1 + 2, "forced at tick 1: 1 shift + 2 write ticks, busy to 4");
    TAP_EQ_U64(rf.st.wb_taken, 3, "the new value took the freed entry");
    TAP_OK(rf.fwd_fn(rf.ps, 2, 14, 1) && !rf.fwd_fn(rf.ps, 0, 16, 1), "buffer now holds w2 r14, not w0 r16");
    rf_fini(&rf);
    c.rm_wb_policy = RF_RM_WB_PRIORITY;
    rf_init(&rf, &c, NULL, NULL);
    kstart(&rf, 3, 20, 1);
    TAP_OK(rf_write(&rf, 0, &a[0], 1, 0) && rf_write(&rf, 1, &a[1], 1, 0), "priority: two entries in bank 0");
    TAP_OK(!rf_write(&rf, 2, &a[2], 1, 0), "priority, buffer full: the writeback is refused");
    TAP_EQ_U64(stat_of(&rf, "rm_wb_full"), 1, "counted as a full stall");
    /* Priority drains the oldest first, shifting: w0 r16 (row 1), then w1
     * r15 (row 2). The tick at the end of cycle 0 reserves the bank at the
     * first tick of cycle 1, ahead of that cycle's reads. */
    TAP_EQ_U64(rf_tick(&rf, 0), 3, "tick at 0: next drain placed at the end of cycle 3");
    TAP_OK(rf.bank[0].busy_until == 4 && rf.acc_cycle == 1 && rf.acc[0] == 1,
           "oldest entry (row 1) drains from tick 1 (a slot of cycle 1): 1 shift + 2, busy to 4");
    TAP_EQ_U64(rf.st.writes, 1, "one drain so far");
    rf_tick(&rf, 3);
    TAP_OK(!rf_bank_free(&rf, 0, 6) && rf_bank_free(&rf, 0, 7), "second entry (row 2) from tick 4: 1 + 2, busy to 7");
    TAP_EQ_U64(stat_of(&rf, "rm_wb_drains"), 2, "two drains with a shift");
    rf_fini(&rf);
}

/* ------------------------------------------------------------ preshift */

static void t_preshift(void)
{
    struct rf_cfg c = rm_cfg(RF_RM_ORIGINAL, 0);
    c.rm_ports = 8; /* rows of 8: w r at row i mod 8 */
    struct fq q;
    memset(&q, 0, sizeof q);
    /* Bank 0 rows (original, W = 8, R = 16): warp w's register (16 - w) mod 16
     * is the pair i = w: w0 r0 row 0, w1 r15 row 1, ..., w5 r11 row 5. */
    for (int pre = 0; pre < 2; pre++) {
        c.rm_preshift = pre;
        struct rf rf;
        rf_init(&rf, &c, NULL, NULL);
        rf_set_queue_front(&rf, fq_peek, &q);
        kstart(&rf, 8, 16, 1);
        fq_set(&q, 0, 5, 11, 0); /* queued at cycle 0, the bank idle at row 0 */
        /* granted at tick 3 (e.g. the access limit held it): without
         * preshift 5 shifts + 1 read; with it 3 idle ticks moved the track to
         * row 3, then 2 + 1 */
        cycle_t ready = rf_read(&rf, 0, 5, 11, 3);
        TAP_EQ_U64(ready, pre ? 3 + 2 + 1 : 3 + 5 + 1, pre ? "preshift: ready at 3 + 2 + 1" : "no preshift: 3 + 5 + 1");
        TAP_EQ_U64(stat_of(&rf, "rm_preshift_steps"), pre ? 3 : 0, "preshift steps");
        TAP_EQ_U64(stat_of(&rf, "rm_shift_steps"), pre ? 2 : 5, "demand steps");
        /* queued at cycle 0, competing from tick 1, granted at 3: 2 ticks of
         * queueing + the demand shift */
        TAP_EQ_U64(stat_of(&rf, "rm_wait_ticks"), pre ? 2 + 2 : 2 + 5, "waiting ticks: 2 queued + the shift");
        /* a target that appears later: preshift starts then, not before */
        fq_set(&q, 0, 0, 0, 10); /* w0 r0 at row 0, queued at cycle 10 */
        ready = rf_read(&rf, 0, 0, 0, 12);
        TAP_EQ_U64(ready, pre ? 12 + 3 + 1 : 12 + 5 + 1,
                   pre ? "queued at 10, granted at 12: 2 preshift, 3 demand" : "no preshift: 5 demand");
        rf_fini(&rf);
    }
}

/* ------------------------------------------------------------ RMWS score and order */

static void t_score(void)
{
    struct rf_cfg c = rm_cfg(RF_RM_ORIGINAL, 0);
    c.rm_ports = 8;
    struct fq q;
    memset(&q, 0, sizeof q);
    struct rf rf;
    rf_init(&rf, &c, NULL, NULL);
    rf_set_queue_front(&rf, fq_peek, &q);
    kstart(&rf, 8, 16, 1);
    struct pipe_op op;
    memset(&op, 0, sizeof op);
    op.n_src = 2;
    op.src[0] = 11; /* warp 5: bank 0, row 5 */
    op.src[1] = 1;  /* warp 5: bank 6: pairs w0 r6, w1 r5, ..., w5 r1: i = 5, row 5 */
    TAP_EQ_U64(rf_score(&rf, 5, &op), 5, "both operands 5 rows from the tracks at row 0: score 5");
    fq_set(&q, 0, 3, 13, 0); /* newest queued read of bank 0: w3 r13 at row 3 */
    TAP_EQ_U64(rf_score(&rf, 5, &op), 5, "the snapshot of this cycle's issue stage is kept until the next tick");
    rf_tick(&rf, 1); /* next cycle: a new snapshot */
    TAP_EQ_U64(rf_score(&rf, 5, &op), 5, "bank 0 will be at row 3 (2 away), bank 6 still 5: score 5");
    fq_set(&q, 6, 4, 2, 0); /* bank 6 newest: w4 r2 at row 4 */
    rf_tick(&rf, 2);
    TAP_EQ_U64(rf_score(&rf, 5, &op), 2, "now max(2, 1) = 2");
    op.n_src = 0;
    TAP_EQ_U64(rf_score(&rf, 5, &op), 0, "no register operand: score 0");
    rf_fini(&rf);
}

struct fake_sm {
    uint32_t score[8];
    bool ready[8];
    uint32_t issued[16];
    uint32_t n;
};

static enum wsched_why f_check(void *ctx, uint32_t w)
{
    struct fake_sm *f = ctx;
    return f->ready[w] ? WSCHED_READY : WSCHED_SCOREBOARD;
}
static uint32_t f_issue(void *ctx, uint32_t w)
{
    struct fake_sm *f = ctx;
    f->issued[f->n++] = w;
    return 0;
}
static uint32_t f_score(void *ctx, uint32_t w) { return ((struct fake_sm *)ctx)->score[w]; }

static void t_rmws_order(void)
{
    struct wsched_cfg sc;
    wsched_cfg_defaults(&sc);
    sc.policy = WSCHED_RMWS;
    sc.n_sched = 1;
    struct wsched s;
    wsched_init(&s, &sc, 8);
    struct fake_sm f;
    memset(&f, 0, sizeof f);
    struct wsched_port port = {&f, f_check, f_issue, NULL, NULL, f_score, NULL, false, NULL};
    for (uint32_t w = 0; w < 4; w++) {
        wsched_warp_launch(&s, w, w);
        f.ready[w] = true;
    }
    uint32_t sco[4] = {3, 1, 1, 0};
    memcpy(f.score, sco, sizeof sco);
    wsched_tick(&s, 0, &port);
    TAP_EQ_U64(f.issued[0], 3, "scores {3,1,1,0}: warp 3 (score 0) issues");
    f.ready[3] = false;
    wsched_touch(&s, 3);
    wsched_tick(&s, 1, &port);
    TAP_EQ_U64(f.issued[1], 1, "warp 3 blocked: scores 1 tie, GTO oldest (warp 1) issues");
    f.score[1] = 1;
    f.score[2] = 1;
    wsched_tick(&s, 2, &port);
    TAP_EQ_U64(f.issued[2], 1, "tie again: the greedy warp (1) keeps issuing");
    f.score[1] = 2;
    wsched_tick(&s, 3, &port);
    TAP_EQ_U64(f.issued[3], 2, "warp 1 now scores 2: warp 2 (score 1) issues");
    f.ready[0] = f.ready[1] = f.ready[2] = false;
    wsched_tick(&s, 4, &port);
    TAP_EQ_U64(f.n, 4, "no ready warp: nothing issues");
    TAP_EQ_U64(s.units[0].st.stall[WSCHED_SCOREBOARD], 1, "the cycle is charged to the scoreboard, as GTO");
    wsched_check(&s);
    wsched_fini(&s);
}

/* ------------------------------------------------------------ profile */

static void t_profile(void)
{
    char prefix[256];
    snprintf(prefix, sizeof prefix, "/tmp/test_rm_prof_%d", (int)getpid());
    struct rf_cfg c = rm_cfg(RF_RM_ORIGINAL, 0);
    c.rm_profile_out = prefix;
    struct rf rf;
    rf_init(&rf, &c, NULL, NULL);
    kstart(&rf, 2, 20, 1);
    /* bank 0 slots: 0 = w0 r0, 1 = w0 r16, 2 = w1 r15; serve 0,2,0,2,1,1 */
    rf_read(&rf, 0, 0, 0, 0);
    rf_read(&rf, 0, 1, 15, 10);
    rf_read(&rf, 0, 0, 0, 20);
    rf_read(&rf, 0, 1, 15, 30);
    rf_read(&rf, 0, 0, 16, 40);
    rf_read(&rf, 0, 0, 16, 50);
    rf_fini(&rf); /* writes <prefix>.sm0 */
    char path[300];
    snprintf(path, sizeof path, "%s.sm0", prefix);
    FILE *fp = fopen(path, "r");
    TAP_OK(fp != NULL, "the profile file was written at teardown");
    char buf[4096] = {0};
    size_t nr = fp ? fread(buf, 1, sizeof buf - 1, fp) : 0;
    if (fp)
        fclose(fp);
    (void)nr;
    TAP_OK(strstr(buf, "kernel 0 k W 2 R 20 S 1 B 16") != NULL, "record header");
    TAP_OK(strstr(buf, "bank 0 n 3\n0 2 2\n2 0 1\n2 1 1\n") != NULL,
           "bank 0 moves: 0->2 twice, 2->0 once, 2->1 once (self-move 1->1 dropped)");
    /* Map from it: slots 0 and 2 move most and share a row (a group of 4
     * ports), so the liang layout puts w0 r0 and w1 r15 at the same row. */
    struct rf_cfg l = rm_cfg(RF_RM_LIANG, 0);
    l.rm_profile_in = prefix;
    rf_init(&rf, &l, NULL, NULL);
    kstart(&rf, 2, 20, 1);
    TAP_EQ_U64(rf_read(&rf, 0, 0, 0, 0), 1, "liang: w0 r0 at row 0");
    TAP_EQ_U64(rf_read(&rf, 0, 1, 15, 1), 2, "liang: w1 r15 in the same row (another port): no shift");
    TAP_EQ_U64(stat_of(&rf, "rm_pred_direct"), 2 * 2 + 1 * 2 + 1 * 1, "predicted DIRECT cost 2x2 + 1x2 + 1x1 = 7");
    rf_fini(&rf);
    remove(path);
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"original layout and shift cost", t_original},
        {"remap layout (Eq. 3.3 and general)", t_remap},
        {"warp-register remapping", t_warp_reg_remap},
        {"ideal", t_ideal},
        {"busy banks hold access slots (rf.busy_holds_slot)", t_hold},
        {"write buffer", t_write_buffer},
        {"preshift", t_preshift},
        {"RMWS score", t_score},
        {"RMWS order", t_rmws_order},
        {"profile and liang layout", t_profile},
    };
    return tap_run(tests, ARRAY_LEN(tests));
}
