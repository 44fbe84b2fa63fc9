/* tests/test_fetch.c: instruction fetch, decode and I-buffer of an SM
 * (sim/sm/front/fetch.c) on top of the instruction cache (sim/sm/lsu/l1ro.c).
 *
 * Every timing value is in simulated pipeline cycles, computed by hand from
 * the gtx480 l1i defaults (2 KB, 4-way, 128 B lines, MSHR 2 x 32, miss queue
 * 4, hit latency 1; spec baseline-gpu.md 1.2, 2.2, docs/l1.md) and the
 * calling convention of fetch.h. Per cycle t the test driver (a stand-in
 * SM) runs, in this order:
 *   1. issue: at most one warp (loose round-robin after the last issued warp
 *      among warps whose I-buffer head is valid): fetch_consume, then
 *      fetch_warp_exit at the function's last instruction, else
 *      fetch_redirect to the program's next PC (branch table);
 *   2. fetch_tick(t) and fetch_check;
 *   3. fake memory: pops one I-cache request (unless blocked) and replies to
 *      it `delay` cycles later (reply pushed at pop + delay).
 * Rules used in the arithmetic: miss at t -> request poppable at t + 1;
 * reply pushed at r -> fill and decode at r + 1; hit at t -> decode at
 * t + 1; decoded at d -> first issue at d + 1. So a cold miss at 0 with
 * delay D decodes at D + 2 and issues at D + 3, and a warp alone on a warm
 * line issues 2 instructions every 3 cycles.
 *
 * Reference model: a naive fetch unit (per-warp plain fields, linear
 * round-robin scan, I-buffer as a shifting array) with its own l1ro is
 * driven by the same random action stream as the real one; I-buffer heads,
 * requests and statistics must agree every cycle. Fault checks run the same
 * comparison against a deliberately wrong naive model, and the hand-computed
 * trace checker against a deliberately wrong expected trace.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/mem/memreq.h"
#include "sim/ptx/ir.h"
#include "sim/sm/front/fetch.h"
#include "sim/sm/lsu/l1ro.h"
#include "sim/base/stats.h"
#include "tap.h"

#define MAXW 48u   /* sm.max_warps (gtx480) */
#define NF 4u      /* functions in the test module */
#define MAXI 64u   /* instructions per function at most */
#define LOGN 4096u /* issue log entries per rig */
#define SEG 0x15FFFF000ull /* code segment base used by the rigs (line aligned) */

/* ------------------------------------------------------------- the rig */

struct rig {
    struct l1ro ic;
    struct fetch_unit f;
    struct ptx_func funcs[NF];
    struct ptx_module mod;
    uint64_t base[NF];
    uint32_t n_insns[NF];
    struct fetch_code code;
    int32_t br[NF][MAXI];      /* taken-branch target of each pc, -1 = sequential */
    /* fake memory */
    struct mem_reply q[64];
    uint64_t due[64];
    bool busy[64];
    uint32_t delay;            /* cycles from pop to reply push */
    uint64_t block_until;      /* no request is popped before this cycle */
    uint64_t popped[256];      /* address of each request popped, in order */
    uint32_t n_popped;
    /* driver */
    uint32_t last_issued;
    uint64_t log_t[LOGN];      /* issue cycle */
    uint32_t log_w[LOGN];      /* warp */
    uint32_t log_pc[LOGN];     /* instruction index */
    uint32_t n_log;
};

static void rig_init(struct rig *r, const struct l1ro_cfg *ccfg, const uint32_t *sizes, uint32_t delay)
{
    memset(r, 0, sizeof *r);
    struct l1ro_cfg def;
    l1i_cfg_defaults(&def);
    l1ro_init(&r->ic, ccfg ? ccfg : &def, "l1i", 0);
    fetch_init(&r->f, MAXW, &r->ic, 0);
    for (uint32_t i = 0; i < NF; i++) {
        r->funcs[i].index = i;
        r->funcs[i].has_body = sizes[i] > 0;
        r->funcs[i].n_insns = sizes[i];
    }
    r->mod.funcs = r->funcs;
    r->mod.n_funcs = NF;
    fetch_code_layout(&r->mod, SEG, r->base, r->n_insns);
    r->code.n_funcs = NF;
    r->code.base = r->base;
    r->code.n_insns = r->n_insns;
    fetch_set_code(&r->f, &r->code);
    memset(r->br, 0xff, sizeof r->br);
    r->delay = delay;
    r->last_issued = MAXW - 1;
}

static void rig_fini(struct rig *r)
{
    fetch_fini(&r->f);
    l1ro_fini(&r->ic);
}

static void mem_cycle(struct rig *r, uint64_t t)
{
    struct mem_req q;
    if (t >= r->block_until && l1ro_pop_req(&r->ic, &q, t)) {
        if (r->n_popped < ARRAY_LEN(r->popped))
            r->popped[r->n_popped++] = q.addr;
        uint32_t k = 0;
        while (r->busy[k])
            k++;
        SIM_ASSERT(k < 64, "fake memory full");
        memset(&r->q[k], 0, sizeof r->q[k]);
        r->q[k].addr = q.addr;
        r->q[k].id = q.id;
        r->q[k].src = q.src;
        r->q[k].op = q.op;
        r->q[k].size = q.size;
        r->due[k] = t + r->delay;
        r->busy[k] = true;
    }
    for (uint32_t k = 0; k < 64; k++)
        if (r->busy[k] && r->due[k] <= t && l1ro_push_reply(&r->ic, &r->q[k], t))
            r->busy[k] = false;
}

/* One driver cycle (see the header comment). */
static void rig_cycle(struct rig *r, uint64_t t)
{
    for (uint32_t k = 1; k <= MAXW; k++) {
        uint32_t w = (r->last_issued + k) % MAXW;
        if (!r->f.w[w].resident || fetch_ibuf_head(&r->f, w) == FETCH_PC_NONE)
            continue;
        uint32_t fn = fetch_warp_func(&r->f, w);
        uint32_t pc = fetch_consume(&r->f, w, t);
        if (r->n_log < LOGN) {
            r->log_t[r->n_log] = t;
            r->log_w[r->n_log] = w;
            r->log_pc[r->n_log] = pc;
            r->n_log++;
        }
        r->last_issued = w;
        if (pc == r->n_insns[fn] - 1)
            fetch_warp_exit(&r->f, w, t);
        else
            fetch_redirect(&r->f, w, r->br[fn][pc] >= 0 ? (uint32_t)r->br[fn][pc] : pc + 1, t);
        break;
    }
    fetch_tick(&r->f, t);
    fetch_check(&r->f);
    mem_cycle(r, t);
}

static void rig_run(struct rig *r, uint64_t from, uint64_t to)
{
    for (uint64_t t = from; t < to; t++)
        rig_cycle(r, t);
}

/* Compare the issue log of warp w with expected (cycle, pc) pairs; returns
 * the number of mismatches (the trace checker; also run against a wrong
 * expectation to show it catches errors). */
static uint32_t trace_mismatch(const struct rig *r, uint32_t w, const uint64_t *et, const uint32_t *epc, uint32_t n)
{
    uint32_t bad = 0, k = 0;
    for (uint32_t i = 0; i < r->n_log; i++) {
        if (r->log_w[i] != w)
            continue;
        if (k >= n || r->log_t[i] != et[k] || r->log_pc[i] != epc[k]) {
            if (k < n)
                tap_diag("warp %u issue %u: got (t %llu, pc %u), want (t %llu, pc %u)", w, k,
                         (unsigned long long)r->log_t[i], r->log_pc[i], (unsigned long long)et[k], epc[k]);
            bad++;
        }
        k++;
    }
    return bad + (k < n ? n - k : 0);
}

static const uint32_t SIZES8[NF] = {8, 8, 8, 8};

/* ------------------------------------------------------------- tests */

static void test_code_layout(void)
{
    struct ptx_func fn[3];
    memset(fn, 0, sizeof fn);
    fn[0].has_body = true, fn[0].n_insns = 20; /* 160 B -> 256 B (2 lines) */
    fn[1].has_body = false;                    /* declaration: 0 B */
    fn[2].has_body = true, fn[2].n_insns = 5;  /* 40 B -> 128 B */
    struct ptx_module m;
    memset(&m, 0, sizeof m);
    m.funcs = fn;
    m.n_funcs = 3;
    TAP_EQ_U64(fetch_code_bytes(&m), 384, "code bytes = 256 + 0 + 128");
    /* window end 4 GiB + 1.5 GiB = 0x160000000; 0x160000000 - 384 = 0x15FFFFE80 (a multiple of 128) */
    uint64_t seg = fetch_code_seg_base(0x160000000ull, 384);
    TAP_EQ_U64(seg, 0x15FFFFE80ull, "segment at the top of the window");
    TAP_EQ_U64(fetch_code_seg_base(0x160000000ull, 100), 0x15FFFFF80ull, "0x160000000 - 100 aligned down to 128");
    uint64_t base[3];
    uint32_t n[3];
    fetch_code_layout(&m, seg, base, n);
    TAP_EQ_U64(base[0], seg, "func 0 at the segment base");
    TAP_EQ_U64(base[1], seg + 256, "declaration after func 0's 2 lines");
    TAP_EQ_U64(base[2], seg + 256, "func 2 right after (the declaration takes no space)");
    TAP_OK(n[0] == 20 && n[1] == 0 && n[2] == 5, "instruction counts copied, 0 for a declaration");
}

/* One warp, 8 straight-line instructions (pc 7 exits), cold I-cache, D = 10. */
static void test_one_warp_straight(void)
{
    struct rig r;
    rig_init(&r, NULL, SIZES8, 10);
    fetch_warp_launch(&r.f, 0, 0, 0, 0);
    TAP_EQ_U64(fetch_ibuf_head(&r.f, 0), FETCH_PC_NONE, "empty I-buffer at launch");
    rig_run(&r, 0, 12);
    /* miss at 0, request popped at 1, reply pushed at 1 + 10 = 11, fill + decode at 12 */
    TAP_EQ_U64(fetch_ibuf_count(&r.f, 0), 0, "nothing decoded before cycle 12");
    rig_cycle(&r, 12);
    TAP_EQ_U64(fetch_ibuf_count(&r.f, 0), 2, "2 instructions decoded at 12 (16 B fetch)");
    TAP_EQ_U64(fetch_ibuf_head(&r.f, 0), 0, "head is pc 0");
    rig_run(&r, 13, 40);
    /* issue 13 pc0, 14 pc1 (empties; fetch hit at 14, decode 15), 16 pc2, 17 pc3 (fetch 17, decode 18),
     * 19 pc4, 20 pc5 (fetch 20, decode 21), 22 pc6, 23 pc7 = exit */
    static const uint64_t et[8] = {13, 14, 16, 17, 19, 20, 22, 23};
    static const uint32_t epc[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    TAP_EQ_U64(trace_mismatch(&r, 0, et, epc, 8), 0, "issue cycles 13,14,16,17,19,20,22,23");
    TAP_EQ_U64(r.f.st.fetches, 4, "4 fetches of 2 instructions");
    TAP_EQ_U64(r.f.st.misses, 1, "1 miss (all 8 instructions share one 128 B line)");
    TAP_EQ_U64(r.f.st.hits, 3, "3 hits");
    TAP_EQ_U64(r.f.st.decoded, 8, "8 decoded");
    TAP_EQ_U64(r.f.st.consumed, 8, "8 consumed");
    TAP_EQ_U64(r.f.st.flushes, 0, "straight-line code never flushes");
    /* empty: cycles 0..12 (13), then 15, 18, 21 (1 each) = 16; resident 0..23 = 24 */
    TAP_EQ_U64(r.f.st.ibuf_empty_total, 16, "I-buffer empty 13 + 3 = 16 cycles");
    TAP_EQ_U64(r.f.st.warp_cycles, 24, "resident 24 cycles");
    TAP_EQ_U64(r.f.st.ibuf_empty.count, 1, "one warp sample");
    TAP_OK(fetch_idle(&r.f), "idle after exit");
    TAP_EQ_U64(fetch_tick(&r.f, 40), CYCLE_NEVER, "tick reports no work after exit");
    TAP_EQ_U64(r.n_popped, 1, "one I-cache request");
    TAP_EQ_U64(r.popped[0], SEG, "the request is the function's first line");

    /* Injected fault: the trace checker against a wrong expectation (first issue one cycle early). */
    static const uint64_t bad_t[8] = {12, 14, 16, 17, 19, 20, 22, 23};
    TAP_OK(trace_mismatch(&r, 0, bad_t, epc, 8) == 1, "trace checker reports the wrong expected cycle");
    rig_fini(&r);
}

/* Warm vs cold: the same warp run again hits the whole way. */
static void test_hit_vs_miss(void)
{
    struct rig r;
    rig_init(&r, NULL, SIZES8, 10);
    fetch_warp_launch(&r.f, 0, 0, 0, 0);
    rig_run(&r, 0, 30); /* cold run as above: exits at 23 */
    r.n_log = 0;
    fetch_warp_launch(&r.f, 3, 0, 0, 30);
    rig_run(&r, 30, 60);
    /* hit at 30 -> decode 31 -> issue 32, 33; fetch 33 -> decode 34 -> 35, 36; 38, 39; 41, 42 */
    static const uint64_t et[8] = {32, 33, 35, 36, 38, 39, 41, 42};
    static const uint32_t epc[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    TAP_EQ_U64(trace_mismatch(&r, 3, et, epc, 8), 0, "warm: first issue at 30 + 2 = 32 (cold: 0 + 10 + 3 = 13)");
    TAP_EQ_U64(r.f.st.misses, 1, "still only the cold miss");
    TAP_EQ_U64(r.f.st.hits, 3 + 4, "3 + 4 hits");
    /* warp 3 empty: 30 and 31 (launched at 30, decoded at 31, visible at 32), then 34, 37, 40:
     * 5 cycles; total 16 + 5 */
    TAP_EQ_U64(r.f.st.ibuf_empty_total, 21, "empty cycles 16 + 5");
    TAP_EQ_U64(r.f.st.ibuf_empty.sum, 21, "average: (16 + 5) / 2 warps");
    rig_fini(&r);
}

/* Two warps, same function: the second merges into the first's miss, then
 * round-robin fetch and issue interleave them. */
static void test_two_warps_rr_merge(void)
{
    struct rig r;
    rig_init(&r, NULL, SIZES8, 10);
    fetch_warp_launch(&r.f, 0, 0, 0, 0);
    fetch_warp_launch(&r.f, 1, 0, 0, 0);
    rig_run(&r, 0, 40);
    /* fetch 0: w0 miss; fetch 1: w1 MSHR merge; pop 1 -> push 11 -> both decoded at 12.
     * issue: 13 w0 pc0, 14 w1 pc0, 15 w0 pc1 (fetch 15 hit, decode 16), 16 w1 pc1 (fetch 16, decode 17),
     * 17 w0 pc2, 18 w1 pc2, 19 w0 pc3, 20 w1 pc3, ... each warp issues every 2 cycles up to 27 / 28. */
    static const uint64_t e0[8] = {13, 15, 17, 19, 21, 23, 25, 27};
    static const uint64_t e1[8] = {14, 16, 18, 20, 22, 24, 26, 28};
    static const uint32_t epc[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    TAP_EQ_U64(trace_mismatch(&r, 0, e0, epc, 8), 0, "warp 0 issues at 13, 15, ..., 27");
    TAP_EQ_U64(trace_mismatch(&r, 1, e1, epc, 8), 0, "warp 1 issues at 14, 16, ..., 28");
    TAP_EQ_U64(r.f.st.misses, 1, "one miss");
    TAP_EQ_U64(r.f.st.merges, 1, "warp 1 merged into warp 0's MSHR entry");
    TAP_EQ_U64(r.ic.st.mshr_merges, 1, "l1i counts the merge too");
    TAP_EQ_U64(r.n_popped, 1, "one request for the two warps");
    TAP_EQ_U64(r.f.st.fetches, 8, "4 fetches per warp");
    rig_fini(&r);
}

/* Fetch order among three warps with a warm cache and no issue. */
static void test_rr_order(void)
{
    struct rig r;
    rig_init(&r, NULL, SIZES8, 10);
    fetch_warp_launch(&r.f, 0, 0, 0, 0);
    rig_run(&r, 0, 30); /* warm line 0 of function 0 */
    fetch_warp_launch(&r.f, 5, 0, 0, 30);
    fetch_warp_launch(&r.f, 2, 0, 0, 30);
    fetch_warp_launch(&r.f, 9, 0, 0, 30);
    /* last fetcher was warp 0 (its final fetch at 20): order after 0 is 2 (t 30), 5 (t 31), 9 (t 32);
     * each decodes one cycle after its hit. Ticks without the issuing driver. */
    uint64_t dec[3] = {0, 0, 0};
    const uint32_t ws[3] = {2, 5, 9};
    for (uint64_t t = 30; t < 36; t++) {
        fetch_tick(&r.f, t);
        fetch_check(&r.f);
        for (int i = 0; i < 3; i++)
            if (!dec[i] && fetch_ibuf_count(&r.f, ws[i]) == 2)
                dec[i] = t;
    }
    TAP_EQ_U64(dec[0], 31, "warp 2 fetched at 30, decoded at 31");
    TAP_EQ_U64(dec[1], 32, "warp 5 fetched at 31, decoded at 32");
    TAP_EQ_U64(dec[2], 33, "warp 9 fetched at 32, decoded at 33");
    TAP_EQ_U64(fetch_tick(&r.f, 36), CYCLE_NEVER, "all I-buffers full: no fetch work");
    rig_fini(&r);
}

/* Taken branch: pc 2 branches to pc 16 (next line); pc 3 is flushed. */
static void test_branch_redirect(void)
{
    static const uint32_t sz[NF] = {20, 8, 8, 8};
    struct rig r;
    rig_init(&r, NULL, sz, 10);
    r.br[0][2] = 16;
    fetch_warp_launch(&r.f, 0, 0, 0, 0);
    rig_run(&r, 0, 50);
    /* 13 pc0, 14 pc1 (fetch 14 hit {2,3}, decode 15), 16 pc2 = branch: flush pc3, fetch 16 pc16 at
     * base + 128 misses, popped 17, pushed 27, decoded 28; 29 pc16, 30 pc17 (fetch 30 hit, decode 31),
     * 32 pc18, 33 pc19 = exit. */
    static const uint64_t et[7] = {13, 14, 16, 29, 30, 32, 33};
    static const uint32_t epc[7] = {0, 1, 2, 16, 17, 18, 19};
    TAP_EQ_U64(trace_mismatch(&r, 0, et, epc, 7), 0, "refetch after the branch issues at 16 + 10 + 3 = 29");
    TAP_EQ_U64(r.f.st.flushes, 1, "one flush");
    TAP_EQ_U64(r.f.st.flushed_insts, 1, "pc 3 discarded");
    TAP_EQ_U64(r.f.st.misses, 2, "line 0 and line 1 missed");
    TAP_EQ_U64(r.n_popped, 2, "two requests");
    TAP_EQ_U64(r.popped[1], SEG + 128, "second request is the target's line");
    rig_fini(&r);
}

/* A redirect while the warp's fetch is in flight: the completion is dropped
 * and fetch restarts at the new PC when it arrives. */
static void test_redirect_inflight(void)
{
    static const uint32_t sz[NF] = {40, 8, 8, 8};
    struct rig r;
    rig_init(&r, NULL, sz, 10);
    fetch_warp_launch(&r.f, 0, 0, 0, 0);
    fetch_tick(&r.f, 0); /* miss on line 0 */
    TAP_OK(!fetch_redirect(&r.f, 0, 0, 0), "redirect to the PC in flight is no flush");
    TAP_OK(fetch_redirect(&r.f, 0, 32, 0), "redirect to pc 32 (line 2) flushes the in-flight fetch");
    uint64_t t = 1, first = 0;
    for (; t < 60 && !first; t++) {
        fetch_tick(&r.f, t);
        fetch_check(&r.f);
        mem_cycle(&r, t);
        if (fetch_ibuf_head(&r.f, 0) == 32)
            first = t;
    }
    /* line 0: popped 1, pushed 11, completes at 12 and is dropped; fetch pc 32 at 12 misses, popped 13,
     * pushed 23, decoded 24 */
    TAP_EQ_U64(first, 24, "pc 32 decoded at 24");
    TAP_EQ_U64(r.f.st.dropped, 1, "stale completion dropped");
    TAP_EQ_U64(r.f.st.decoded, 2, "only the new fetch decoded");
    rig_fini(&r);
}

/* Miss-queue backpressure: l1i with 8 MSHRs and a 2-entry miss queue, memory
 * blocked until cycle 10; four warps in four functions (four lines). */
static void test_miss_queue_backpressure(void)
{
    struct l1ro_cfg c;
    l1i_cfg_defaults(&c);
    c.mshr = 8;
    c.miss_queue = 2;
    struct rig r;
    rig_init(&r, &c, SIZES8, 10);
    r.block_until = 10;
    for (uint32_t w = 0; w < 4; w++)
        fetch_warp_launch(&r.f, w, w, 0, 0);
    rig_run(&r, 0, 80);
    /* 0: w0 miss, 1: w1 miss (queue full), 2..10: w2 / w3 alternate and are refused (9 fails),
     * pops at 10 (w0), 11 (w1); 11: w3 accepted, 12: w2 accepted; pops 12 (w3), 13 (w2);
     * decodes at pop + 10 + 1: w0 21, w1 22, w3 23, w2 24. The driver issues one warp per cycle,
     * loose round-robin after the last issued: 22 w0, 23 w1, 24 w3 (w2 not yet visible), 25 w0 (pc1),
     * 26 w1 (pc1), 27 w2. */
    TAP_EQ_U64(r.f.st.rf, 9, "9 refused attempts (cycles 2..10)");
    TAP_EQ_U64(r.ic.st.rf[L1RO_RF_MISS_QUEUE], 9, "all refused by the full miss queue");
    TAP_EQ_U64(r.f.st.misses, 4, "4 misses in the end");
    static const uint32_t order[4] = {0, 1, 3, 2};
    bool ok = r.n_popped == 4;
    for (uint32_t i = 0; i < 4 && ok; i++)
        ok = r.popped[i] == SEG + 128ull * order[i];
    TAP_OK(ok, "requests in order w0, w1, w3, w2");
    uint64_t first[4] = {0, 0, 0, 0};
    uint32_t per[4] = {0, 0, 0, 0};
    for (uint32_t i = 0; i < r.n_log; i++) {
        if (!per[r.log_w[i]])
            first[r.log_w[i]] = r.log_t[i];
        per[r.log_w[i]]++;
    }
    TAP_OK(first[0] == 22 && first[1] == 23 && first[3] == 24 && first[2] == 27,
           "first issues 22 (w0), 23 (w1), 24 (w3), 27 (w2): got %llu %llu %llu %llu", (unsigned long long)first[0],
           (unsigned long long)first[1], (unsigned long long)first[2], (unsigned long long)first[3]);
    TAP_OK(per[0] == 8 && per[1] == 8 && per[2] == 8 && per[3] == 8, "nothing lost: 8 instructions per warp");
    TAP_OK(fetch_idle(&r.f) && l1ro_idle(&r.ic), "drained");
    rig_fini(&r);

    /* Default l1i (MSHR 2): a third line is refused for MSHR space. */
    rig_init(&r, NULL, SIZES8, 10);
    for (uint32_t w = 0; w < 3; w++)
        fetch_warp_launch(&r.f, w, w, 0, 0);
    rig_run(&r, 0, 3);
    TAP_EQ_U64(r.ic.st.rf[L1RO_RF_MSHR_FULL], 1, "third miss at cycle 2 refused: MSHR full");
    rig_run(&r, 3, 80);
    TAP_EQ_U64(r.n_log, 24, "all 24 instructions issued after the retries");
    rig_fini(&r);
}

/* Exit stops fetching: a warp exiting with one instruction still buffered,
 * and an exit with a fetch in flight (the slot's relaunch waits for it). */
static void test_exit(void)
{
    static const uint32_t sz[NF] = {3, 8, 8, 8};
    struct rig r;
    rig_init(&r, NULL, sz, 10);
    fetch_warp_launch(&r.f, 0, 0, 0, 0);
    rig_run(&r, 0, 20);
    /* decode {0,1} at 12; 13 pc0, 14 pc1, fetch pc2 only (function end) at 14, decode 15, 16 pc2 = exit */
    static const uint64_t et[3] = {13, 14, 16};
    static const uint32_t epc[3] = {0, 1, 2};
    TAP_EQ_U64(trace_mismatch(&r, 0, et, epc, 3), 0, "3 instructions at 13, 14, 16");
    TAP_EQ_U64(r.f.st.decoded, 3, "the last fetch covers 1 instruction (function end)");
    uint64_t f0 = r.f.st.fetches;
    rig_run(&r, 20, 40);
    TAP_EQ_U64(r.f.st.fetches, f0, "no fetch after exit");

    /* exit with a buffered instruction: warp 1 in function 1, exits at pc 0 (forced) */
    fetch_warp_launch(&r.f, 1, 1, 0, 40);
    for (uint64_t t = 40; t < 60; t++) {
        fetch_tick(&r.f, t);
        mem_cycle(&r, t);
    }
    TAP_EQ_U64(fetch_ibuf_count(&r.f, 1), 2, "warp 1 holds 2 instructions");
    fetch_consume(&r.f, 1, 60);
    fetch_warp_exit(&r.f, 1, 60);
    TAP_EQ_U64(r.f.st.flushed_insts, 1, "exit discards the buffered pc 1");
    TAP_EQ_U64(fetch_ibuf_head(&r.f, 1), FETCH_PC_NONE, "exited warp has no head");

    /* exit with a fetch in flight, relaunch the slot at once */
    fetch_warp_launch(&r.f, 2, 2, 0, 61);
    fetch_tick(&r.f, 61); /* miss on function 2's line */
    fetch_warp_exit(&r.f, 2, 61);
    fetch_warp_launch(&r.f, 2, 3, 0, 62);
    uint64_t t = 62, first = 0;
    for (; t < 100 && !first; t++) {
        fetch_tick(&r.f, t);
        fetch_check(&r.f);
        mem_cycle(&r, t);
        if (fetch_ibuf_count(&r.f, 2))
            first = t;
    }
    /* old miss: popped 62, pushed 72, dropped at 73; new warp fetches at 73 (miss, function 3),
     * popped 74, pushed 84, decoded 85 */
    TAP_EQ_U64(first, 85, "relaunched slot waits for the dropped fetch: decode at 85");
    TAP_EQ_U64(r.f.st.dropped, 1, "one dropped completion");
    rig_fini(&r);
}

/* ------------------------------------------------------------- naive model */

struct nwarp {
    bool res, pend, stale;
    uint32_t func, fpc, ppc, pn;
    uint32_t ib[2], ibn; /* I-buffer: ib[0 .. ibn), oldest first */
};

struct naive {
    struct l1ro ic;
    const struct fetch_code *code;
    struct nwarp w[MAXW];
    uint32_t last;
    uint64_t fetches, hits, misses, merges, rf, decoded, flushes, flushed, dropped;
    int fault; /* 1: round-robin starts AT the last warp; 2: decode 1 instruction only */
};

static void naive_init(struct naive *n, const struct fetch_code *code, int fault)
{
    memset(n, 0, sizeof *n);
    struct l1ro_cfg c;
    l1i_cfg_defaults(&c);
    l1ro_init(&n->ic, &c, "l1i", 0);
    n->code = code;
    n->last = MAXW - 1;
    n->fault = fault;
}

static uint32_t naive_head(const struct naive *n, uint32_t w)
{
    return n->w[w].ibn ? n->w[w].ib[0] : FETCH_PC_NONE;
}

static void naive_tick(struct naive *n, uint64_t t)
{
    l1ro_tick(&n->ic, t);
    struct l1ro_done d;
    while (l1ro_pop_done(&n->ic, &d, t)) {
        struct nwarp *x = &n->w[d.token];
        x->pend = false;
        if (x->stale) {
            x->stale = false;
            n->dropped++;
            continue;
        }
        uint32_t k = n->fault == 2 ? 1 : x->pn;
        for (uint32_t i = 0; i < k; i++)
            x->ib[i] = x->ppc + i;
        x->ibn = k;
        n->decoded += k;
    }
    for (uint32_t k = n->fault == 1 ? 0 : 1; k <= MAXW; k++) {
        uint32_t w = (n->last + k) % MAXW;
        struct nwarp *x = &n->w[w];
        if (!x->res || x->pend || x->ibn || x->fpc >= n->code->n_insns[x->func])
            continue;
        uint64_t a = n->code->base[x->func] + 8ull * x->fpc;
        uint32_t cnt = 2;
        if ((a % 128) == 120)
            cnt = 1; /* last 8 B of the line */
        if (x->fpc + cnt > n->code->n_insns[x->func])
            cnt = n->code->n_insns[x->func] - x->fpc;
        enum l1ro_result r = l1ro_access(&n->ic, a, w, t, NULL);
        n->last = w;
        if (r == L1RO_FAIL) {
            n->rf++;
        } else {
            x->pend = true;
            x->ppc = x->fpc;
            x->pn = cnt;
            x->fpc += cnt;
            n->fetches++;
            n->hits += r == L1RO_HIT;
            n->misses += r == L1RO_MISS;
            n->merges += r == L1RO_MERGED;
        }
        break;
    }
}

static bool naive_redirect(struct naive *n, uint32_t w, uint32_t func, uint32_t pc)
{
    struct nwarp *x = &n->w[w];
    uint32_t exp = x->ibn ? x->ib[0] : (x->pend && !x->stale) ? x->ppc : x->fpc;
    if (func == x->func && pc == exp)
        return false;
    n->flushed += x->ibn;
    x->ibn = 0;
    if (x->pend)
        x->stale = true;
    x->func = func;
    x->fpc = pc;
    n->flushes++;
    return true;
}

/* ------------------------------------------------------------- random runs */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Both models with their own fake memories (replies out of order: delay
 * 4 + (request number * 7) mod 23). */
struct fmem {
    struct mem_reply q[64];
    uint64_t due[64];
    bool busy[64];
    uint32_t seq;
};

static uint64_t fmem_cycle(struct fmem *m, struct l1ro *ic, uint64_t t)
{
    struct mem_req q;
    uint64_t got = 0;
    if (l1ro_pop_req(ic, &q, t)) {
        uint32_t k = 0;
        while (m->busy[k])
            k++;
        memset(&m->q[k], 0, sizeof m->q[k]);
        m->q[k].addr = q.addr;
        m->q[k].id = q.id;
        m->q[k].op = q.op;
        m->q[k].size = q.size;
        m->due[k] = t + 4 + (m->seq++ * 7u) % 23u;
        m->busy[k] = true;
        got = q.addr | 1; /* nonzero marker */
    }
    for (uint32_t k = 0; k < 64; k++)
        if (m->busy[k] && m->due[k] <= t && l1ro_push_reply(ic, &m->q[k], t))
            m->busy[k] = false;
    return got;
}

struct rand_out {
    uint64_t mismatches; /* cycles x warps where the models disagreed, plus request/stat mismatches */
    uint64_t hash;       /* FNV hash of the real model's issue trace and statistics */
    uint64_t issued;
    uint64_t dropped, merges, rf, flushes; /* real model's counters (coverage) */
};

static uint64_t fnv(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= 1099511628211ull;
    }
    return h;
}

static struct rand_out random_run(uint64_t seed, int fault, uint64_t cycles)
{
    static const uint32_t sz[NF] = {40, 17, 60, 5};
    struct rig r;
    rig_init(&r, NULL, sz, 0);
    struct naive n;
    naive_init(&n, &r.code, fault);
    struct fmem ma, mb;
    memset(&ma, 0, sizeof ma);
    memset(&mb, 0, sizeof mb);
    struct rand_out o;
    memset(&o, 0, sizeof o);
    o.hash = 1469598103934665603ull;
    uint64_t s = seed;
    uint32_t nw = 12; /* warps used */
    for (uint64_t t = 0; t < cycles; t++) {
        /* launches */
        for (uint32_t w = 0; w < nw; w++)
            if (!r.f.w[w].resident && rng_next(&s) % 16 == 0) {
                uint32_t fn = (uint32_t)(rng_next(&s) % NF);
                uint32_t pc = (uint32_t)(rng_next(&s) % r.n_insns[fn]);
                fetch_warp_launch(&r.f, w, fn, pc, t);
                struct nwarp *x = &n.w[w];
                x->res = true, x->func = fn, x->fpc = pc, x->ibn = 0;
            }
        /* compare heads */
        for (uint32_t w = 0; w < nw; w++)
            if (fetch_ibuf_head(&r.f, w) != naive_head(&n, w) ||
                (r.f.w[w].resident && fetch_ibuf_count(&r.f, w) != n.w[w].ibn))
                o.mismatches++;
        /* issue one warp (decided on the real model) */
        uint32_t start = (uint32_t)(rng_next(&s) % nw);
        for (uint32_t k = 0; k < nw; k++) {
            uint32_t w = (start + k) % nw;
            if (!r.f.w[w].resident || fetch_ibuf_head(&r.f, w) == FETCH_PC_NONE || naive_head(&n, w) == FETCH_PC_NONE)
                continue;
            uint32_t fn = fetch_warp_func(&r.f, w);
            uint32_t pc = fetch_consume(&r.f, w, t);
            struct nwarp *x = &n.w[w];
            x->ib[0] = x->ib[1];
            x->ibn--;
            o.issued++;
            o.hash = fnv(o.hash, t << 16 | w << 8 | pc);
            uint64_t d = rng_next(&s) % 100;
            if (pc + 1 >= r.n_insns[fn] || d < 2) {
                fetch_warp_exit(&r.f, w, t);
                n.flushed += x->ibn;
                x->ibn = 0;
                x->res = false;
                if (x->pend)
                    x->stale = true;
            } else {
                uint32_t nfn = fn, npc = pc + 1;
                if (d < 12)
                    npc = (uint32_t)(rng_next(&s) % r.n_insns[fn]); /* branch */
                else if (d < 15) {
                    nfn = (uint32_t)(rng_next(&s) % NF); /* call / return */
                    npc = (uint32_t)(rng_next(&s) % r.n_insns[nfn]);
                }
                bool a = fetch_redirect_func(&r.f, w, nfn, npc, t);
                bool b = naive_redirect(&n, w, nfn, npc);
                o.mismatches += a != b;
            }
            break;
        }
        /* occasional late redirect of a random warp (may hit an in-flight fetch) */
        if (rng_next(&s) % 50 == 0) {
            uint32_t w = (uint32_t)(rng_next(&s) % nw);
            if (r.f.w[w].resident) {
                uint32_t npc = (uint32_t)(rng_next(&s) % r.n_insns[r.f.w[w].func]);
                bool a = fetch_redirect(&r.f, w, npc, t);
                bool b = naive_redirect(&n, w, n.w[w].func, npc);
                o.mismatches += a != b;
            }
        }
        fetch_tick(&r.f, t);
        fetch_check(&r.f);
        naive_tick(&n, t);
        uint64_t ra = fmem_cycle(&ma, &r.ic, t), rb = fmem_cycle(&mb, &n.ic, t);
        o.mismatches += ra != rb;
        o.hash = fnv(o.hash, ra);
    }
    const struct fetch_stats *st = &r.f.st;
    o.mismatches += (st->fetches != n.fetches) + (st->hits != n.hits) + (st->misses != n.misses) +
                    (st->merges != n.merges) + (st->rf != n.rf) + (st->decoded != n.decoded) +
                    (st->flushes != n.flushes) + (st->flushed_insts != n.flushed) + (st->dropped != n.dropped);
    o.dropped = st->dropped, o.merges = st->merges, o.rf = st->rf, o.flushes = st->flushes;
    o.hash = fnv(o.hash, st->fetches);
    o.hash = fnv(o.hash, st->misses);
    o.hash = fnv(o.hash, st->decoded);
    o.hash = fnv(o.hash, st->ibuf_empty_total);
    l1ro_fini(&n.ic);
    rig_fini(&r);
    return o;
}

static void test_random_vs_naive(void)
{
    uint64_t total = 0, issued = 0, dropped = 0, merges = 0, rf = 0, flushes = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        struct rand_out o = random_run(seed * 0x9E3779B97F4A7C15ull, 0, 4000);
        total += o.mismatches;
        issued += o.issued;
        dropped += o.dropped, merges += o.merges, rf += o.rf, flushes += o.flushes;
    }
    TAP_OK(dropped > 0 && merges > 0 && rf > 0 && flushes > 0,
           "random runs cover drops (%llu), merges (%llu), refusals (%llu), flushes (%llu)",
           (unsigned long long)dropped, (unsigned long long)merges, (unsigned long long)rf,
           (unsigned long long)flushes);
    TAP_EQ_U64(total, 0, "real and naive fetch agree every cycle over 8 x 4000 cycles");
    TAP_OK(issued > 8000, "the random runs issue enough instructions (%llu)", (unsigned long long)issued);
}

static void test_random_fault(void)
{
    struct rand_out a = random_run(0x1234567ull, 1, 4000);
    TAP_OK(a.mismatches > 0, "fault 1 (round-robin starts at the last warp) detected: %llu mismatches",
           (unsigned long long)a.mismatches);
    struct rand_out b = random_run(0x1234567ull, 2, 4000);
    TAP_OK(b.mismatches > 0, "fault 2 (decode 1 instruction per fetch) detected: %llu mismatches",
           (unsigned long long)b.mismatches);
}

static void test_determinism(void)
{
    struct rand_out a = random_run(42, 0, 3000), b = random_run(42, 0, 3000), c = random_run(43, 0, 3000);
    TAP_EQ_U64(a.hash, b.hash, "same seed, same trace and statistics");
    TAP_OK(a.hash != c.hash, "a different seed gives a different trace (the hash is sensitive)");
}

static void test_stats_registry(void)
{
    struct rig r;
    rig_init(&r, NULL, SIZES8, 10);
    struct stats *s = stats_create();
    fetch_stats_register(&r.f, s);
    fetch_warp_launch(&r.f, 0, 0, 0, 0);
    rig_run(&r, 0, 30);
    uint64_t v = 0;
    TAP_OK(stats_get_u64(s, "fetch.fetches", &v) && v == 4, "fetch.fetches = 4");
    TAP_OK(stats_get_u64(s, "fetch.icache_misses", &v) && v == 1, "fetch.icache_misses = 1");
    TAP_OK(stats_get_u64(s, "fetch.ibuf_empty_cycles", &v) && v == 16, "fetch.ibuf_empty_cycles sum = 16");
    stats_destroy(s);
    rig_fini(&r);
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"code_layout", test_code_layout},
        {"one_warp_straight", test_one_warp_straight},
        {"hit_vs_miss", test_hit_vs_miss},
        {"two_warps_rr_merge", test_two_warps_rr_merge},
        {"rr_order", test_rr_order},
        {"branch_redirect", test_branch_redirect},
        {"redirect_inflight", test_redirect_inflight},
        {"miss_queue_backpressure", test_miss_queue_backpressure},
        {"exit", test_exit},
        {"random_vs_naive", test_random_vs_naive},
        {"random_fault", test_random_fault},
        {"determinism", test_determinism},
        {"stats_registry", test_stats_registry},
    };
    return tap_run(tests, ARRAY_LEN(tests));
}
