/* tests/support/ubench_expect.c: expected values of the microbenchmarks in
 * tests/ptx/ubench.cu (see ubench_expect.h and docs/ubench.md).
 *
 * Every function documents its formula with the spec section and the hand
 * arithmetic for gtx480: clocks core/icnt/L2 700 MHz (1429 ps), DRAM 924 MHz
 * (1082 ps); icnt.min_latency 8; l2.rop_latency 120 pipeline cycles;
 * l2_to_dram.latency 100 pipeline cycles; tRP = tRCD = tCL = 12, tCCDL 3;
 * 32 B flits with an 8 B header; l2.data_port 32 B; l1d.hit_latency 1.
 */
#include "tests/support/ubench_expect.h"

#include <stdbool.h>

#include "partitions/addrmap/addrmap.h"
#include "sim/mem/devmem.h"

/* Clock-domain ranks of the spec 3.1 tie order (DRAM, L2, icnt, core). */
enum { RANK_DRAM = 0, RANK_L2 = 1, RANK_ICNT = 2, RANK_CORE = 3 };

/* First edge (cycle number) of a domain with period p that sees a hand-off
 * made at time t_ps by a unit of rank from_rank. A receiver ranked before
 * the sender has already ticked at an equal time, so it sees the hand-off
 * at its first edge strictly after t; one ranked after sees it at its first
 * edge at or after t (spec 3.1; docs/mempart.md choice 6). */
static uint64_t cross(ps_t t_ps, ps_t p, int from_rank, int to_rank)
{
    if (to_rank < from_rank)
        return t_ps / p + 1;
    return (t_ps + p - 1) / p;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

struct clock_periods ubench_periods(const struct sim_cfg *c)
{
    struct clock_periods per;
    clock_periods_compute(&c->clock, &per);
    return per;
}

/* NOTE(pipe-div): the SM pipeline period is core period x sm.pipe_clock_div
 * (spec 3.1). The key does not exist yet (every preset runs with 1), so the
 * pipeline period is the core period here; the ROP and l2_to_dram delays are
 * converted from it exactly as mempart does. */
static ps_t pipe_period(const struct clock_periods *per) { return per->core; }

/* L1 hit (spec 3.3 "1 cycle after the LD/ST stage"; docs/l1.md: access at t
 * completes at t + l1d.hit_latency). gtx480: 1 core cycle. */
uint64_t ubench_l1_hit_cycles(const struct sim_cfg *c) { return c->l1d.hit_latency; }

/* Partition side (spec 2.8, 2.9, 3.3; docs/l2.md timing table, docs/mempart.md,
 * docs/dram.md), starting from the L2 push cycle p:
 *   lookup a = p + max(R, 1), R = l2_rop_cycles (gtx480 120);
 *   L2 hit: reply poppable a + 1 + ceil(bytes / data_port);
 *   miss: DRAM read poppable a + 1 -> admitted at the first DRAM edge strictly
 *     after (DRAM ranks before L2) -> ready = admit + D, D = l2_to_dram delay
 *     in DRAM cycles (gtx480 round(100 x 1429 / 1082) = 132) -> first command
 *     ready + 1 (the scheduler picks it the cycle after it enters the queue);
 *     row miss: PRE, ACT tRP later; closed/miss: ACT, RD tRCD later; row hit:
 *     RD; line / 64 column commands spaced max(tCCDL, tCCDS, burst/ratio)
 *     (same bank, so the bank-group tCCDL 3 rules); data = last RD + tCL;
 *     fill port from f = first L2 edge at or after data x Pdram; reply
 *     poppable f + line / data_port (4);
 *   reply: head leaves at the first icnt edge at or after the reply time
 *     (icnt ranks after L2), tail (flits - 1) later, arrives min_latency
 *     after it leaves (xbar; a mesh adds hops, not modelled here).
 * No queueing: the read is alone in the machine. */
uint64_t ubench_partition_read(const struct sim_cfg *c, uint32_t req_bytes, enum ubench_level lv,
                               struct ubench_timeline *t)
{
    struct clock_periods per = ubench_periods(c);
    ps_t pp = pipe_period(&per);
    uint64_t rop = l2_rop_cycles(&c->l2, pp, per.l2);
    uint64_t port = c->l2.data_port;
    t->l2_lookup = t->l2_push + max_u64(rop, 1);
    t->dram_admit = t->dram_ready = t->dram_pre = t->dram_act = 0;
    t->dram_rd_first = t->dram_rd_last = t->dram_data = t->l2_fill = 0;
    if (lv == UBENCH_L2_HIT) {
        t->l2_reply = t->l2_lookup + 1 + (req_bytes + port - 1) / port;
    } else {
        const struct dram_cfg *d = &c->dram;
        uint64_t l2_out = t->l2_lookup + 1;
        t->dram_admit = cross(l2_out * per.l2, per.dram, RANK_L2, RANK_DRAM);
        t->dram_ready = t->dram_admit + mempart_l2_to_dram_cycles(&c->l2_to_dram, pp, per.dram);
        uint64_t cmd = t->dram_ready + 1;
        if (lv == UBENCH_DRAM_ROW_MISS) {
            t->dram_pre = cmd;
            cmd += d->tRP;
        }
        if (lv != UBENCH_DRAM_ROW_HIT) {
            t->dram_act = cmd;
            cmd += d->tRCD;
        }
        uint64_t col_bytes = d->bus_bytes * d->burst; /* 8 x 8 = 64 B per column command */
        uint64_t n_col = (c->l2.line + col_bytes - 1) / col_bytes;
        uint64_t gap = max_u64(max_u64(d->tCCDL, d->tCCDS), d->burst / d->data_cmd_ratio);
        t->dram_rd_first = cmd;
        t->dram_rd_last = cmd + (n_col - 1) * gap;
        t->dram_data = t->dram_rd_last + d->tCL;
        t->l2_fill = cross(t->dram_data * per.dram, per.l2, RANK_DRAM, RANK_L2);
        t->l2_reply = t->l2_fill + (c->l2.line + port - 1) / port;
    }
    t->reply_flits = icnt_flits(&c->icnt_net, req_bytes);
    t->reply_head = cross(t->l2_reply * per.l2, per.icnt, RANK_L2, RANK_ICNT);
    t->reply_tail = t->reply_head + (t->reply_flits - 1) + c->icnt.min_latency;
    return t->reply_tail;
}

/* Whole read (spec 2.6, 2.7; docs/l1.md, docs/icnt.md): L1 access at core 0,
 * request poppable at 1; it enters the SM sender at the first icnt edge
 * strictly after (icnt ranks before core); a 1-flit read request (8 B
 * header, no payload) is delivered min_latency later; the L2 push cycle is
 * the last L2 edge at or before the delivery (L2 ranks before icnt, so its
 * tick at that time already ran: first used by the next tick). The reply
 * tail reaches the SM receiver, which hands it to the L1 at the first core
 * edge at or after (core ranks last); the load completes one cycle later. */
uint64_t ubench_read_timeline(const struct sim_cfg *c, uint32_t req_bytes, enum ubench_level lv,
                              struct ubench_timeline *t)
{
    struct clock_periods per = ubench_periods(c);
    t->l1_access = 0;
    t->req_pop = t->l1_access + 1;
    t->req_flits = icnt_flits(&c->icnt_net, 0);
    t->req_head = cross(t->req_pop * per.core, per.icnt, RANK_CORE, RANK_ICNT);
    t->req_deliver = t->req_head + (t->req_flits - 1) + c->icnt.min_latency;
    t->l2_push = cross(t->req_deliver * per.icnt, per.l2, RANK_ICNT, RANK_L2) - 1;
    ubench_partition_read(c, req_bytes, lv, t);
    t->l1_reply = cross(t->reply_tail * per.icnt, per.core, RANK_ICNT, RANK_CORE);
    t->done = t->l1_reply + 1;
    return t->done;
}

/* gtx480, 32 B (.cg chase): access 0, pop 1, icnt 2 -> delivered 10, L2 push
 * 10, lookup 130, reply 130 + 1 + 1 = 132, flits 132..133, tail arrives
 * 133 + 8 = 141, L1 141, done 142. 128 B (L1 miss): reply 130 + 1 + 4 = 135,
 * 5 flits 135..139, tail 147, done 148. */
uint64_t ubench_l2_hit_cycles(const struct sim_cfg *c, uint32_t req_bytes)
{
    struct ubench_timeline t;
    return ubench_read_timeline(c, req_bytes, UBENCH_L2_HIT, &t);
}

/* gtx480, 32 B (.cg chase), L2 push 10, lookup 130, L2->DRAM 131 (187199 ps)
 * -> admitted DRAM 174 (173 x 1082 = 187186 < 187199), ready 174 + 132 = 306,
 * first command 307:
 *   row hit:    RD 307, 310, data 322 (348404 ps) -> fill L2 244 (243.8),
 *               reply 248, flits 248..249, tail 257, done 258;
 *   row closed: ACT 307, RD 319, 322, data 334 (361388 ps) -> fill 253
 *               (252.9), reply 257, tail 266, done 267;
 *   row miss:   PRE 307, ACT 319, RD 331, 334, data 346 (374372 ps) -> fill
 *               262 (261.98), reply 266, tail 275, done 276. */
uint64_t ubench_dram_cycles(const struct sim_cfg *c, uint32_t req_bytes, enum ubench_level lv)
{
    struct ubench_timeline t;
    return ubench_read_timeline(c, req_bytes, lv, &t);
}

/* Bank of a byte address and its word index (spec 2.6: bank = word mod banks). */
static unsigned smem_parts(const struct sim_cfg *c)
{
    unsigned parts = (unsigned)c->smem_banks.warp_parts;
    return parts ? parts : 1u;
}

/* Naive reference: per warp part, list the distinct words each bank gets and
 * take the largest count; parts add (spec 2.6, smem_banks.warp_parts). */
unsigned ubench_smem_cycles_naive(const struct sim_cfg *c, unsigned stride_words)
{
    unsigned nb = (unsigned)c->smem_banks.n_banks, width = (unsigned)c->smem_banks.width;
    unsigned parts = smem_parts(c), per_part = 32u / parts, total = 0;
    for (unsigned p = 0; p < parts; p++) {
        uint64_t words[32];
        unsigned n = 0, worst = 0;
        for (unsigned l = p * per_part; l < (p + 1) * per_part; l++) {
            uint64_t w = (uint64_t)l * stride_words * 4u / width;
            bool seen = false;
            for (unsigned k = 0; k < n; k++)
                seen |= words[k] == w;
            if (!seen)
                words[n++] = w;
        }
        for (unsigned b = 0; b < nb; b++) {
            unsigned cnt = 0;
            for (unsigned k = 0; k < n; k++)
                cnt += (unsigned)(words[k] % nb) == b;
            worst = cnt > worst ? cnt : worst;
        }
        total += worst;
    }
    return total;
}

static unsigned gcd_u(unsigned a, unsigned b)
{
    while (b) {
        unsigned r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Closed form for 4-byte banks: lane l hits bank (l x s) mod B; the banks
 * repeat every B / g lanes, g = gcd(s, B), and the words are distinct for
 * s > 0, so a part of P lanes has degree ceil(P / (B / g)); s = 0 is a
 * broadcast (1). gtx480 (B 32, one part of 32 lanes): stride 1 -> g 1 -> 1;
 * stride 2 -> g 2 -> 32 / 16 = 2; stride 32 -> g 32 -> 32 / 1 = 32;
 * stride 3 -> 1; stride 48 -> g 16 -> 16. Other bank widths use the naive
 * count. */
unsigned ubench_smem_cycles(const struct sim_cfg *c, unsigned stride_words)
{
    if (c->smem_banks.width != 4)
        return ubench_smem_cycles_naive(c, stride_words);
    unsigned nb = (unsigned)c->smem_banks.n_banks, parts = smem_parts(c), per_part = 32u / parts;
    if (stride_words == 0)
        return parts;
    unsigned period = nb / gcd_u(stride_words, nb);
    return parts * ((per_part + period - 1) / period);
}

/* Spec 3.3: 8 B per beat x 4 beats per command cycle = 32 B per DRAM cycle
 * per channel. gtx480: 6 x 32 = 192 B per DRAM cycle = 192 x 1429 / 1082 =
 * 253.575 B per core cycle (177.4 GB/s at 924 MHz). */
double ubench_dram_peak_bytes_per_core_cycle(const struct sim_cfg *c)
{
    struct clock_periods per = ubench_periods(c);
    double per_dram = (double)c->mem.n_partitions * (double)c->dram.bus_bytes * (double)c->dram.data_cmd_ratio;
    return per_dram * (double)per.core / (double)per.dram;
}

size_t ubench_chain_select(const struct sim_cfg *c, uint64_t dev_base, uint64_t bytes, int same_row,
                           uint64_t *off, size_t max)
{
    struct addrmap m;
    uint32_t l2_sets = (uint32_t)(c->l2.size_per_sub / (c->l2.assoc * c->l2.line));
    addrmap_init_spec(&m, c->dram.addr_map, (uint32_t)c->mem.n_partitions, (uint32_t)c->mem.sub_per_partition,
                      (uint32_t)c->dram.banks, (uint32_t)c->dram.rows, l2_sets);
    uint64_t line = c->l2.line, first = (dev_base + line - 1) / line * line;
    struct addrmap_loc ref = {0}, loc;
    bool have_ref = false;
    size_t n = 0;
    int64_t last_row = -1;
    for (uint64_t a = first; a + line <= dev_base + bytes && n < max; a += line) {
        if (!addrmap_decode(&m, a - DEVMEM_BASE, &loc))
            break;
        if (!have_ref) {
            if (loc.col != 0) /* start at the first line of a row */
                continue;
            ref = loc;
            have_ref = true;
        }
        if (loc.channel != ref.channel || loc.bank != ref.bank)
            continue;
        if (same_row ? loc.row != ref.row : (int64_t)loc.row <= last_row)
            continue;
        last_row = loc.row;
        off[n++] = a - dev_base;
    }
    return n;
}
