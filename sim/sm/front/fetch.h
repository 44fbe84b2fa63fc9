/* sim/sm/front/fetch.h: instruction fetch, decode and the per-warp I-buffer of one
 * SM; cycle-driven in the SM pipeline clock (spec baseline-gpu.md 1.2
 * "Fetch / I-cache" and "I-buffer", 2.2, 2.3, 2.10, 3.1; docs/fetch.md).
 *
 * What is modelled:
 *  - Per warp slot: the fetch PC (function index + instruction index), an
 *    I-buffer of FETCH_IBUF_ENTRIES (2) decoded instructions with valid bits
 *    ([GPGPU-Sim]), refilled only when it is completely empty, and at most
 *    one fetch in flight.
 *  - Fetch arbitration: each cycle one warp, round-robin starting after the
 *    last warp that attempted a fetch, among resident warps whose I-buffer is
 *    empty, that have no fetch in flight (no pending I-cache miss, no hit on
 *    its way to decode) and whose fetch PC is inside their function.
 *  - The access: FETCH_BYTES (16 B = 2 instructions of FETCH_INSN_BYTES 8 B)
 *    at base(function) + pc x 8 through the instruction cache (sim/sm/lsu/l1ro.h,
 *    section l1i), stopping at the end of the cache line and at the end of
 *    the function. Hit, miss, MSHR merge and reservation fail are the
 *    cache's; a refused access leaves the warp eligible (it retries when the
 *    round-robin reaches it again).
 *  - Decode: a completion popped from the I-cache at cycle t writes the
 *    fetched instructions into the I-buffer at t; the scheduler, which runs
 *    before fetch in a cycle (STYLE.md 2), sees them from t + 1. No extra
 *    decode latency: the cache hit latency (l1i.hit_latency = 1) is the
 *    fetch -> decode latch of GPGPU-Sim (NOTE(fetch-decode-latency)).
 *  - Control flow: fetch runs ahead sequentially; when the SIMT stack's next
 *    PC differs from the next PC the front end would deliver (taken branch,
 *    divergence, reconvergence, call, return), fetch_redirect flushes the
 *    I-buffer and an in-flight fetch (its completion is dropped on arrival).
 *  - Warp launch and exit; statistics.
 *
 * What is not modelled: the instruction bytes (the IR is pre-decoded; an
 * instruction line carries whatever the backing store holds), branch
 * prediction, prefetching of the next line, a separate decode stage with its
 * own width (decode is bounded by the fetch width of 2), fetch of more than
 * one warp per cycle. Barriers do not stop fetch (GPGPU-Sim does not
 * either): a waiting warp simply keeps a full I-buffer.
 *
 * Ownership: the SM owns the l1ro instance (it wires the cache's miss queue
 * to the interconnect and pushes replies into it, and registers its l1i.*
 * statistics); the fetch unit is its only client and ticks it.
 *
 * Calling convention, per pipeline cycle t (cycle numbers of the l1ro are
 * the same numbers):
 *   1. scheduler issue (back-to-front order): for an issued warp w the SM
 *      calls fetch_ibuf_head (via the wsched_port check), then
 *      fetch_consume(f, w, t), executes the instruction functionally, and
 *      calls fetch_redirect(f, w, next_pc, t) with the SIMT stack's next PC
 *      (a no-op when it is the sequential one), or fetch_warp_exit(f, w, t).
 *   2. fetch_tick(f, t): ticks the I-cache (fills), decodes every completion
 *      due at t, then makes at most one fetch access.
 *   3. the SM pops I-cache requests (l1ro_pop_req) and pushes replies
 *      (l1ro_push_reply) at any point of the cycle.
 * fetch_tick returns the next cycle with fetch or I-cache work, or
 * CYCLE_NEVER; after fetch_consume / fetch_redirect / fetch_warp_launch at t
 * or l1ro_push_reply at t the SM must tick fetch again at t + 1 (those calls
 * are SM events that create fetch work).
 *
 * Code layout (NOTE(fetch-code-layout)): every instruction occupies 8 B of
 * instruction address space (spec 2.2 [proposal]); the functions of a module
 * are laid out consecutively in a code segment, in module order, each
 * starting on a 128 B line boundary; the segment is placed at the top of the
 * device window (spec 2.2 [proposal]). fetch_code_layout computes the table.
 *
 * Hot path: no allocation, no strings; the eligible-warp set is a bitmask,
 * so arbitration costs O(max_warps / 64) per cycle.
 */
#ifndef GPUSIM_SIM_SM_FRONT_FETCH_H
#define GPUSIM_SIM_SM_FRONT_FETCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/base/common.h"
#include "sim/base/stats.h"

struct l1ro;
struct ptx_module;

#define FETCH_IBUF_ENTRIES 2u  /* I-buffer entries per warp ([GPGPU-Sim]) */
#define FETCH_INSN_BYTES 8u    /* instruction address space per instruction (bytes) */
#define FETCH_BYTES (FETCH_IBUF_ENTRIES * FETCH_INSN_BYTES) /* bytes per fetch access (16) */
#define FETCH_MAX_WARPS 256u   /* largest warp-slot count per SM (as WSCHED_MAX_WARPS) */
#define FETCH_PC_NONE UINT32_MAX /* "no instruction" (empty I-buffer) */

/* Code-segment table of the running kernel's module: function i's
 * instruction k is at byte address base[i] + k * FETCH_INSN_BYTES. The
 * arrays belong to the caller and must outlive the kernel. */
struct fetch_code {
    uint32_t n_funcs;        /* functions (module order) */
    const uint64_t *base;    /* [n_funcs] device byte address of instruction 0 */
    const uint32_t *n_insns; /* [n_funcs] instructions (0 for a declaration) */
};

/* Bytes of the code segment of module m: the sum over functions of
 * n_insns x 8 rounded up to a 128 B line. */
uint64_t fetch_code_bytes(const struct ptx_module *m);
/* Base of a segment of code_bytes placed at the top of the device window
 * ending at window_end (exclusive), aligned down to a 128 B line. */
uint64_t fetch_code_seg_base(uint64_t window_end, uint64_t code_bytes);
/* Fill base[] and n_insns[] (m->n_funcs entries each) for a segment at
 * seg_base (a multiple of 128). */
void fetch_code_layout(const struct ptx_module *m, uint64_t seg_base, uint64_t *base, uint32_t *n_insns);

/* Per-warp front-end state. */
struct fetch_warp {
    uint64_t base;       /* byte address of instruction 0 of the current function */
    uint32_t n_insns;    /* instructions of the current function */
    uint32_t func;       /* current function index */
    uint32_t fetch_pc;   /* next instruction index to fetch */
    uint32_t ib_pc[FETCH_IBUF_ENTRIES]; /* instruction index held by each I-buffer entry */
    uint8_t ib_valid[FETCH_IBUF_ENTRIES]; /* valid bit of each entry */
    uint8_t ib_head;     /* entry holding the oldest valid instruction */
    uint8_t resident;    /* 1 = slot holds a live warp */
    uint8_t pending;     /* 1 = a fetch is in flight (miss, merge, or hit not yet decoded) */
    uint8_t stale;       /* 1 = the in-flight fetch was flushed; drop it on arrival */
    uint8_t pend_n;      /* instructions the in-flight fetch covers (1 or 2) */
    uint8_t pad_[2];
    uint32_t pend_pc;    /* instruction index of the in-flight fetch */
    uint64_t empty_since;  /* first pipeline cycle of the current empty I-buffer period */
    uint64_t empty_cycles; /* pipeline cycles with an empty I-buffer, this warp's lifetime */
    uint64_t launch_cycle; /* pipeline cycle of launch */
};

struct fetch_stats {
    uint64_t fetches;       /* I-cache accesses accepted (hit + miss + merge) */
    uint64_t hits;          /* accesses that hit in the I-cache (l1ro result) */
    uint64_t misses;        /* accesses that opened an I-cache MSHR entry */
    uint64_t merges;        /* accesses merged into an open I-cache MSHR entry */
    uint64_t rf;            /* access attempts refused by the I-cache (reservation fails) */
    uint64_t decoded;       /* instructions written into I-buffers */
    uint64_t consumed;      /* instructions taken from I-buffers at issue */
    uint64_t flushes;       /* redirects that changed the fetch stream */
    uint64_t flushed_insts; /* valid I-buffer entries discarded by redirects and exits */
    uint64_t dropped;       /* in-flight fetches dropped on arrival (flushed or exited warp) */
    uint64_t ibuf_empty_total; /* pipeline cycles with an empty I-buffer, summed over exited warps */
    uint64_t warp_cycles;   /* resident pipeline cycles, summed over exited warps */
    struct stat_avg ibuf_empty; /* pipeline cycles with an empty I-buffer per warp (one sample per exit) */
};

struct fetch_unit {
    int sm_id;                /* SM id: statistics instance and messages */
    uint32_t max_warps;       /* warp slots (warps) */
    uint32_t n_words;         /* 64-bit words of the eligibility mask */
    uint32_t last;            /* warp that last attempted a fetch (round-robin pointer) */
    uint32_t line;            /* I-cache line size (bytes) */
    uint32_t n_resident;      /* resident warps (warps) */
    struct l1ro *ic;          /* the instruction cache (owned by the SM) */
    struct fetch_code code;   /* code table of the running kernel */
    struct fetch_warp *w;     /* [max_warps] */
    uint64_t *want;           /* [n_words] bit w = warp w may fetch now */
    uint64_t *decoded;        /* [n_words] bit w = warp w's I-buffer was filled since fetch_clear_decoded */
    struct fetch_stats st;
};

/* max_warps <= FETCH_MAX_WARPS; ic: an initialised l1ro (section l1i). */
void fetch_init(struct fetch_unit *f, uint32_t max_warps, struct l1ro *ic, int sm_id);
void fetch_fini(struct fetch_unit *f);

/* Kernel launch: install the code table (no warp may be resident). */
void fetch_set_code(struct fetch_unit *f, const struct fetch_code *code);

/* Warp slot w starts at instruction pc of function func at cycle t (its
 * I-buffer is empty; it is eligible from fetch_tick(t)). */
void fetch_warp_launch(struct fetch_unit *f, uint32_t w, uint32_t func, uint32_t pc, uint64_t t);
/* Warp w finished at cycle t (its exit issued): stop fetching, drop its
 * I-buffer; an in-flight fetch is dropped on arrival, and the slot cannot
 * fetch again until then. */
void fetch_warp_exit(struct fetch_unit *f, uint32_t w, uint64_t t);

/* Instruction index at the head of w's I-buffer, or FETCH_PC_NONE when the
 * I-buffer is empty (the scheduler's WSCHED_IBUF_EMPTY). */
static inline uint32_t fetch_ibuf_head(const struct fetch_unit *f, uint32_t w)
{
    const struct fetch_warp *x = &f->w[w];
    return x->ib_valid[x->ib_head] ? x->ib_pc[x->ib_head] : FETCH_PC_NONE;
}
/* Function of w's I-buffer head (its current function). */
static inline uint32_t fetch_warp_func(const struct fetch_unit *f, uint32_t w) { return f->w[w].func; }
/* Forget which I-buffers were filled (the SM reads f->decoded after each
 * fetch_tick to wake the schedulers of those warps). */
void fetch_clear_decoded(struct fetch_unit *f);
/* Instructions valid in w's I-buffer (0 .. FETCH_IBUF_ENTRIES). */
uint32_t fetch_ibuf_count(const struct fetch_unit *f, uint32_t w);

/* The head of w's I-buffer issued at cycle t; returns its instruction index
 * (panics when the I-buffer is empty). */
uint32_t fetch_consume(struct fetch_unit *f, uint32_t w, uint64_t t);
/* The SIMT stack says w's next instruction is next_pc of its current
 * function (call after every issue, or at least after every control-flow
 * instruction). When next_pc is the instruction the front end would deliver
 * next, nothing happens (false); otherwise the I-buffer and any in-flight
 * fetch are flushed, fetch restarts at next_pc, and true is returned. */
bool fetch_redirect(struct fetch_unit *f, uint32_t w, uint32_t next_pc, uint64_t t);
/* As fetch_redirect, but into function func (call / return). */
bool fetch_redirect_func(struct fetch_unit *f, uint32_t w, uint32_t func, uint32_t next_pc, uint64_t t);

/* One pipeline cycle t (strictly increasing across calls): I-cache tick,
 * decode, fetch. Returns the next cycle with work or CYCLE_NEVER. */
uint64_t fetch_tick(struct fetch_unit *f, uint64_t t);

/* No fetch in flight and no warp that could fetch (the I-cache may still
 * hold queued requests: see l1ro_idle). */
bool fetch_idle(const struct fetch_unit *f);

/* Check invariants (eligibility mask, I-buffer order, counters); panics
 * naming the SM and warp. Cheap enough for every cycle in tests. */
void fetch_check(const struct fetch_unit *f);

/* Statistics under group "fetch", instance sm_id. The I-cache's own l1i.*
 * statistics are registered by its owner with l1ro_stats_register. */
void fetch_stats_register(struct fetch_unit *f, struct stats *s);
void fetch_stats_dump(const struct fetch_unit *f, FILE *out);

#endif /* GPUSIM_SIM_SM_FRONT_FETCH_H */
