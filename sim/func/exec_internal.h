/* sim/func/exec_internal.h: what the files of the functional executor share
 * (private to sim/func/exec*.c; the public interface is func.h).
 *
 * Holds the executor's state (struct exec: one launch in functional mode,
 * one SM in timing mode; struct cta; struct warp with its call frames and
 * SIMT stack), the small per-lane helpers of the hot path as static inline
 * functions (operand read/write, special registers, byte loads/stores,
 * SIMT push, timing-mode event note), and the declarations of the functions
 * that cross files. The files:
 *   exec.c        instruction dispatcher (exec_warp_step) and ALU paths
 *   exec_mem.c    ld/st/atom, address resolution, generic-address windows
 *   exec_sync.c   CTA barriers and warp-level collectives (vote/shfl/match/redux)
 *   exec_simt.c   SIMT stack settling, exit/ret, calls and frames
 *   exec_state.c  per-launch state: allocate, start CTAs and warps, free; faults
 *   exec_run.c    functional mode: scheduler (func_run) and watchdog
 *   exec_sm.c     timing mode: the per-SM executor (func_sm_*)
 * The model itself (SIMT stack rules, register layout) is described in
 * exec.c and func.h.
 */
#ifndef GPUSIM_SIM_FUNC_EXEC_INTERNAL_H
#define GPUSIM_SIM_FUNC_EXEC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpusim.h"
#include "sim/base/common.h"
#include "sim/func/fpu.h"
#include "sim/func/func.h"
#include "sim/ptx/ir.h"

struct memop;

/* Statistic class of an instruction (precomputed per launch). */
enum icls { C_INT, C_FP32, C_FP64, C_SFU, C_MEM, C_CTRL, C_OTHER };

enum wstate { W_RUN, W_BAR, W_DONE };

struct simt_ent {
    uint32_t pc;   /* next instruction of this path */
    uint32_t rpc;  /* reconvergence pc: pop when pc reaches it (UINT32_MAX: never) */
    uint32_t mask; /* lanes on this path */
};

struct frame {
    const struct ptx_func *fn; /* function executing in this frame */
    size_t reg_off;            /* offset of its registers in warp->arena (slots) */
    size_t param_off;          /* per-lane param buffer in warp->bytes (bytes); frame 0: unused */
    size_t args_off;           /* per-lane call-site scratch in warp->bytes (bytes) */
    uint64_t local_base;       /* offset of the frame in each thread's local window (bytes) */
    uint32_t stack_base;       /* first SIMT entry owned by this frame */
    uint32_t call_pc;          /* caller's pc of the call instruction (frames > 0) */
};

struct cta;

/* NOTE(warp-layout): what every issue reads (state, the frame index, the
 * SIMT stack's pointer and depth, the register arena, the current frame's
 * function and register offset) sits in the struct's first 64 bytes, and
 * warps are 64-byte aligned, so an issue touches one line of its warp
 * here (the timing model issues from a different warp almost every time,
 * and these loads missed: about a third of port_issue's samples). */
struct warp {
    /* hot: 48 bytes, then fr[0].fn and fr[0].reg_off complete the line */
    struct simt_ent *stk;      /* SIMT stack */
    uint64_t *arena;           /* register slots of all frames */
    struct cta *cta;           /* owning CTA slot */
    uint64_t n_insts;          /* warp instructions executed (for %clock) */
    int state;                 /* enum wstate */
    uint32_t depth;            /* current frame index */
    uint32_t sp;               /* SIMT stack entries used */
    uint32_t wid;              /* warp index in the CTA */
    struct frame fr[FUNC_MAX_CALL_DEPTH + 1];
    /* cold */
    uint32_t valid;            /* lanes that hold a thread */
    uint32_t exited;           /* lanes that executed exit */
    uint32_t bar_id;           /* barrier waited at (W_BAR) */
    int32_t bar_dst;           /* bar.red destination slot (NOTE(reg-slots)), -1 none */
    uint32_t bar_mask;         /* lanes that arrived at bar.red */
    uint32_t carry;            /* carry flag per lane (bit = lane) */
    bool bar_release;          /* timing mode: released from a barrier, not yet settled */
    uint32_t stk_cap;          /* SIMT stack entries allocated */
    size_t arena_used, arena_cap; /* slots */
    uint8_t *bytes;            /* per-lane param/args buffers of all frames */
    size_t bytes_used, bytes_cap; /* bytes */
} __attribute__((aligned(64)));

struct cta {
    bool live;                 /* slot holds a running CTA */
    uint32_t slot;             /* slot index (used as %smid source) */
    uint32_t id[3];            /* %ctaid */
    uint8_t *shared;           /* shared window (shared_bytes) */
    uint8_t *local;            /* n_threads * local_per_thread bytes */
    struct warp *warps;        /* n_warps */
    uint32_t n_done;           /* warps finished */
    uint32_t bar_arrived[FUNC_MAX_BARRIERS]; /* warps arrived per barrier */
    uint32_t bar_expect[FUNC_MAX_BARRIERS];  /* warps expected (0 = all live) */
    uint32_t bar_popc[FUNC_MAX_BARRIERS];    /* bar.red.popc accumulator (threads) */
    uint32_t bar_and[FUNC_MAX_BARRIERS];     /* bar.red.and accumulator (0/1) */
    uint32_t bar_or[FUNC_MAX_BARRIERS];      /* bar.red.or accumulator (0/1) */
};

struct exec {
    const struct func_launch *l;
    const struct ptx_module *mod;
    const struct ptx_func *kfn;  /* the kernel */
    struct func_stats *st;
    uint8_t **cls;               /* per function: enum icls per instruction */
    struct cta *ctas;            /* n_slots resident CTA slots */
    uint32_t n_slots;
    uint64_t n_ctas, next_cta;   /* CTAs in the grid, next to dispatch */
    uint32_t n_threads, n_warps; /* per CTA */
    uint64_t shared_bytes;       /* shared window per CTA (bytes) */
    uint64_t local_per_thread;   /* local window per thread (bytes) */
    long gcache;                 /* last device block hit, -1 none */
    uint32_t *zero_regs;         /* kernel register slots zeroed at warp start (NOTE(zero-live-in)), NULL = all */
    uint32_t n_zero_regs;        /* entries in zero_regs */
    uint64_t total_insts;        /* warp instructions in this launch (for %globaltimer) */
    bool progress;               /* something happened in this scheduling round */
    bool hw_fma;                 /* the host has fused multiply-add instructions (NOTE(hw-fma) in exec.c) */
    uint64_t change_mark;        /* total_insts at the last visible progress (watchdog) */
    uint64_t watchdog_insts;     /* warp instructions allowed without progress (0 off) */
    int err;                     /* first error code, 0 none */
    const struct func_observer *obs; /* functional mode: l->observer (NULL none) */
    /* Timing mode (func_sm_*, NULL / 0 in functional mode): */
    struct memop *mo;            /* memory access of the issuing instruction, recorded instead of
                                    performed for global lanes (deferred) and for timing otherwise */
    uint64_t last_off;           /* offset / address mem_at resolved last (its space's) */
    uint32_t mo_glob;            /* lanes of the issuing instruction deferred (global) */
    uint32_t mo_other;           /* lanes performed at issue in another space */
    uint8_t mo_other_space;      /* enum ptx_space of those */
    bool mo_uniform;             /* every lane's address is mo->addr[0] (NOTE(param-uniform) in memop.h) */
    const uint64_t *cycle;       /* the SM's core cycle (%clock) */
    uint32_t sm_id;              /* the SM (%smid) */
    uint32_t *ev;                /* warps whose state or pc changed outside their own issue */
    uint8_t *ev_mark;            /* [n_slots * n_warps] 1 = already in ev */
    uint32_t n_ev;               /* entries in ev */
    struct func_launch lcopy;    /* per-SM copy of the launch (own error buffer) */
    char errbuf[512];            /* its error text */
};

/* Outcome of one warp step. */
enum step_result {
    STEP_CONT,  /* the warp may go on (an instruction ran, or the SIMT stack settled) */
    STEP_YIELD, /* stop this warp's turn: it reached a barrier, or an error was raised */
};

/* ------------------------------------------------- cross-file functions */
/* exec_state.c: record the first error of the launch (GS_ERR_EXEC) with a
 * message naming kernel, CTA, thread, warp/lane, pc and source line (w NULL:
 * the kernel only). Later faults are ignored. */
void exec_fault(struct exec *x, const struct warp *w, int lane, uint32_t pc, const char *fmt, ...)
    PRINTF_LIKE(5, 6);
/* exec_state.c: launch-derived fields, allocation of x->n_slots CTA slots
 * (-1 out of memory), release, and the start of CTA `lin` in slot c. */
void exec_setup(struct exec *x, const struct func_launch *l);
int exec_alloc(struct exec *x);
/* true when the host CPU has fused multiply-add instructions (NOTE(hw-fma) in exec.c) */
bool exec_host_fma(void);
void exec_free(struct exec *x);
void exec_cta_start(struct exec *x, struct cta *c, uint64_t lin);

/* exec.c: one step of warp w (used by the functional scheduler, by the
 * timing-mode issue and by exec_settle_top). */
enum step_result exec_warp_step(struct exec *x, struct warp *w);

/* exec_mem.c: memory instructions and generic-address conversions of the
 * lanes g of the instruction `in` at pc (called by exec_warp_step). */
void exec_ld(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in, uint32_t pc, uint32_t g);
void exec_st(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in, uint32_t pc, uint32_t g);
void exec_atom(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in, uint32_t pc, uint32_t g);
void exec_cvta(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in, uint32_t g);
void exec_isspacep(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in, uint32_t g);

/* exec_sync.c: barriers (exec_cta_barrier_check releases the warps of CTA
 * c whose barrier completed; called after an arrival or a warp's exit) and
 * warp-level collectives (called by exec_warp_step). */
void exec_cta_barrier_check(struct exec *x, struct cta *c);
void exec_bar(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in, uint32_t pc, uint32_t mask,
              uint32_t g);
void exec_shfl(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in, uint32_t g);
void exec_vote(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in, uint32_t g);
void exec_match(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in, uint32_t g);
void exec_redux(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in, uint32_t pc, uint32_t g);

/* exec_simt.c: SIMT stack and frames (called by exec_warp_step; settle_top
 * also by the timing-mode issue and barrier release). */
void exec_settle(struct exec *x, struct warp *w);
void exec_lanes_leave(struct exec *x, struct warp *w, uint32_t lanes, bool is_exit);
void exec_do_call(struct exec *x, struct warp *w, const struct ptx_insn *in, uint32_t pc, uint32_t mask);
void exec_settle_top(struct exec *x, struct warp *w);

/* ---------------------------------- hot helpers, used by several files */
/* Operands: read a source value / write a destination of one lane. */
static inline uint32_t lane_lin(const struct warp *w, int lane)
{
    return w->wid * FUNC_WARP + (uint32_t)lane;
}

static inline uint64_t sreg_value(struct exec *x, struct warp *w, unsigned s, int lane)
{
    const struct func_launch *l = x->l;
    uint32_t lin = lane_lin(w, lane);
    switch (s) {
    case PTX_SREG_TID_X: return lin % l->block[0];
    case PTX_SREG_TID_Y: return lin / l->block[0] % l->block[1];
    case PTX_SREG_TID_Z: return lin / (l->block[0] * l->block[1]);
    case PTX_SREG_NTID_X: return l->block[0];
    case PTX_SREG_NTID_Y: return l->block[1];
    case PTX_SREG_NTID_Z: return l->block[2];
    case PTX_SREG_CTAID_X: return w->cta->id[0];
    case PTX_SREG_CTAID_Y: return w->cta->id[1];
    case PTX_SREG_CTAID_Z: return w->cta->id[2];
    case PTX_SREG_NCTAID_X: return l->grid[0];
    case PTX_SREG_NCTAID_Y: return l->grid[1];
    case PTX_SREG_NCTAID_Z: return l->grid[2];
    case PTX_SREG_LANEID: return (uint64_t)lane;
    case PTX_SREG_WARPID: return w->wid;
    case PTX_SREG_NWARPID: return x->n_warps;
    case PTX_SREG_SMID: return x->cycle ? x->sm_id : w->cta->slot % (l->n_sm ? l->n_sm : 1);
    case PTX_SREG_NSMID: return l->n_sm;
    case PTX_SREG_GRIDID: return 0;
    case PTX_SREG_CLOCK: return (uint32_t)(x->cycle ? *x->cycle : w->n_insts);
    case PTX_SREG_CLOCK_HI: return (uint32_t)((x->cycle ? *x->cycle : w->n_insts) >> 32);
    case PTX_SREG_CLOCK64: return x->cycle ? *x->cycle : w->n_insts;
    case PTX_SREG_GLOBALTIMER: return x->total_insts;
    case PTX_SREG_GLOBALTIMER_LO: return (uint32_t)x->total_insts;
    case PTX_SREG_GLOBALTIMER_HI: return (uint32_t)(x->total_insts >> 32);
    case PTX_SREG_LANEMASK_EQ: return 1u << lane;
    case PTX_SREG_LANEMASK_LE: return (uint32_t)((2ull << lane) - 1);
    case PTX_SREG_LANEMASK_LT: return (1u << lane) - 1;
    case PTX_SREG_LANEMASK_GE: return ~((1u << lane) - 1);
    case PTX_SREG_LANEMASK_GT: return (uint32_t)~((2ull << lane) - 1);
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return l->dyn_shared_bytes;
    case PTX_SREG_TOTAL_SMEM_SIZE: return x->shared_bytes;
    default: return 0;
    }
}

/* Value of an address-of-symbol (mov r, var) or the symbol part of an ADDR:
 * an address in the symbol's own space (shared/local/param offset, or a
 * device address for global/const). */
static inline uint64_t sym_base(struct exec *x, struct warp *w, const struct ptx_operand *o)
{
    switch (o->base) {
    case PTX_BASE_MODVAR: return x->l->modvar_addr[o->sym] + o->imm;
    case PTX_BASE_DYNSHARED: return x->kfn->dyn_shared_offset + o->imm;
    case PTX_BASE_STATIC:
        if (o->space == PTX_SPACE_LOCAL && !(o->flags & PTX_OF_MODSYM))
            return w->fr[w->depth].local_base + o->imm;
        return o->imm;
    default: return o->imm;
    }
}

static inline uint64_t opv(struct exec *x, struct warp *w, const uint64_t *R,
                           const struct ptx_operand *o, int lane)
{
    uint64_t v;
    switch (o->kind) {
    case PTX_OPND_REG: v = R[(size_t)o->reg * FUNC_WARP + (unsigned)lane]; break;
    case PTX_OPND_IMM: return o->imm;
    case PTX_OPND_SREG: return sreg_value(x, w, o->sreg, lane);
    case PTX_OPND_SYM: return sym_base(x, w, o);
    default: return 0;
    }
    if (UNLIKELY(o->flags & PTX_OF_NOT))
        v = !v;
    return v;
}

static inline void setv(uint64_t *R, const struct ptx_operand *o, int lane, uint64_t v)
{
    if (o->kind == PTX_OPND_REG)
        R[(size_t)o->reg * FUNC_WARP + (unsigned)lane] = v;
}

/* Host-order loads and stores of 1, 2, 4 or 8 bytes at any alignment. */
static inline uint64_t load_bytes(const uint8_t *p, unsigned size)
{
    switch (size) {
    case 1: return *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}
static inline void store_bytes(uint8_t *p, unsigned size, uint64_t v)
{
    switch (size) {
    case 1: *p = (uint8_t)v; break;
    case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
    case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

/* Loaded bytes of one lane (element after element) into the destination
 * register(s) of ld instruction `in`. */
static inline void ld_write(uint64_t *R, const struct ptx_insn *in, int lane, const uint8_t *p)
{
    const struct ptx_operand *d = &in->opnd[0];
    enum ptx_type t = (enum ptx_type)in->type;
    unsigned es = ptx_type_bytes(t);
    if (d->kind == PTX_OPND_VEC) {
        for (unsigned i = 0; i < d->n; i++)
            if (d->vec[i] >= 0)
                R[(size_t)d->vec[i] * FUNC_WARP + (unsigned)lane] = fpu_extend(load_bytes(p + i * es, es), t);
    } else
        setv(R, d, lane, fpu_extend(load_bytes(p, es), t));
}

/* Push a SIMT entry, growing the stack; false (error recorded) when out of
 * host memory. */
static inline bool stk_push(struct exec *x, struct warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    if (w->sp == w->stk_cap) {
        uint32_t nc = w->stk_cap * 2;
        struct simt_ent *ns = line_grow(w->stk, w->stk_cap * sizeof *ns, nc * sizeof *ns); /* NOTE(line-alloc) */
        if (!ns) {
            x->err = GS_ERR_OUT_OF_MEMORY;
            snprintf(x->l->err, x->l->err_len, "out of host memory for a SIMT stack");
            return false;
        }
        w->stk = ns;
        w->stk_cap = nc;
    }
    w->stk[w->sp++] = (struct simt_ent){pc, rpc, mask};
    return true;
}

/* Timing mode: remember that warp w changed state (exit, barrier release)
 * or pc outside its own issue, for the SM to pick up (func_sm_take_events). */
static inline void note_ev(struct exec *x, const struct warp *w)
{
    if (!x->ev)
        return;
    uint32_t id = w->cta->slot * x->n_warps + w->wid;
    if (!x->ev_mark[id]) {
        x->ev_mark[id] = 1;
        x->ev[x->n_ev++] = id;
    }
}

#endif /* GPUSIM_SIM_FUNC_EXEC_INTERNAL_H */
