/* sim/func/exec.c: the functional executor's warp interpreter and CTA
 * scheduler (model description and address layout in func.h).
 *
 * Per warp: registers as reg-major arrays regs[vreg * 32 + lane] of 64-bit
 * slots (one array per call frame, carved from a per-warp arena), a SIMT
 * stack of {pc, reconvergence pc, mask} entries shared by all frames (each
 * frame owns the entries from its stack_base up), and a carry bit per lane
 * for add.cc/addc.
 *
 * SIMT stack rules (spec/baseline-gpu.md 2.3): a divergent branch sets the
 * top entry's pc to the reconvergence pc and pushes the fall-through and the
 * taken path with that reconvergence pc; an entry whose pc reaches its
 * reconvergence pc is popped. Lanes that exit (or ret from a .func) are
 * removed from every entry of the affected frames; empty entries are
 * popped; a frame whose entries are all gone returns to its caller.
 *
 * Hot path: the instruction is a pre-decoded struct, operands are read by
 * kind with a switch that predicts well across the 32 lanes, and nothing is
 * allocated except when a call frame needs more arena than any before it.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpusim.h"
#include "sim/mem/devmem.h"
#include "sim/func/fpu.h"
#include "sim/func/func.h"
#include "sim/ptx/ir.h"
#include "sim/ptx/memorder.h"
#include "sim/sm/coalesce.h"
#include "sim/sm/memop.h"

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

struct warp {
    struct cta *cta;           /* owning CTA slot */
    uint32_t wid;              /* warp index in the CTA */
    uint32_t valid;            /* lanes that hold a thread */
    uint32_t exited;           /* lanes that executed exit */
    int state;                 /* enum wstate */
    uint32_t bar_id;           /* barrier waited at (W_BAR) */
    int32_t bar_dst;           /* bar.red destination vreg, -1 none */
    uint32_t bar_mask;         /* lanes that arrived at bar.red */
    uint32_t carry;            /* carry flag per lane (bit = lane) */
    bool bar_release;          /* timing mode: released from a barrier, not yet settled */
    uint64_t n_insts;          /* warp instructions executed (for %clock) */
    uint32_t depth;            /* current frame index */
    struct frame fr[FUNC_MAX_CALL_DEPTH + 1];
    struct simt_ent *stk;      /* SIMT stack */
    uint32_t sp, stk_cap;      /* entries used, allocated */
    uint64_t *arena;           /* register slots of all frames */
    size_t arena_used, arena_cap; /* slots */
    uint8_t *bytes;            /* per-lane param/args buffers of all frames */
    size_t bytes_used, bytes_cap; /* bytes */
};

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
    uint64_t total_insts;        /* warp instructions in this launch (for %globaltimer) */
    bool progress;               /* something happened in this scheduling round */
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
    const uint64_t *cycle;       /* the SM's core cycle (%clock) */
    uint32_t sm_id;              /* the SM (%smid) */
    uint32_t *ev;                /* warps whose state or pc changed outside their own issue */
    uint8_t *ev_mark;            /* [n_slots * n_warps] 1 = already in ev */
    uint32_t n_ev;               /* entries in ev */
    struct func_launch lcopy;    /* per-SM copy of the launch (own error buffer) */
    char errbuf[512];            /* its error text */
};

/* --------------------------------------------------------------- errors */
static void fault(struct exec *x, const struct warp *w, int lane, uint32_t pc, const char *fmt, ...)
    PRINTF_LIKE(5, 6);

static void fault(struct exec *x, const struct warp *w, int lane, uint32_t pc, const char *fmt, ...)
{
    if (x->err)
        return;
    x->err = GS_ERR_EXEC;
    const struct func_launch *l = x->l;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!w) {
        snprintf(l->err, l->err_len, "kernel '%s': %s", x->kfn->name, msg);
        return;
    }
    const struct cta *c = w->cta;
    uint32_t lin = w->wid * FUNC_WARP + (uint32_t)(lane < 0 ? 0 : lane);
    uint32_t tx = lin % l->block[0], ty = lin / l->block[0] % l->block[1],
             tz = lin / (l->block[0] * l->block[1]);
    const struct ptx_func *fn = w->fr[w->depth].fn;
    uint32_t line = pc < fn->n_insns ? fn->insns[pc].line : 0;
    char fnpart[160] = "", srcpart[128] = "";
    if (fn != x->kfn)
        snprintf(fnpart, sizeof fnpart, " in .func '%s'", fn->name);
    if (pc < fn->n_insns && fn->insns[pc].src_file) /* CUDA position from .loc (nvcc -lineinfo) */
        snprintf(srcpart, sizeof srcpart, ", %s:%u", x->mod->src_files[fn->insns[pc].src_file - 1].base,
                 fn->insns[pc].src_line);
    snprintf(l->err, l->err_len,
             "kernel '%s': CTA (%u,%u,%u) thread (%u,%u,%u) (warp %u lane %d) pc %u (line %u%s)%s: %s",
             x->kfn->name, c->id[0], c->id[1], c->id[2], tx, ty, tz, w->wid, lane, pc, line, srcpart,
             fnpart, msg);
}

/* ------------------------------------------------------------- operands */
static inline uint32_t lane_lin(const struct warp *w, int lane)
{
    return w->wid * FUNC_WARP + (uint32_t)lane;
}

static uint64_t sreg_value(struct exec *x, struct warp *w, unsigned s, int lane)
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
static uint64_t sym_base(struct exec *x, struct warp *w, const struct ptx_operand *o)
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

/* ---------------------------------------------------------------- memory */
static const char *space_word(unsigned sp)
{
    switch (sp) {
    case PTX_SPACE_GLOBAL: return "global";
    case PTX_SPACE_SHARED: return "shared";
    case PTX_SPACE_LOCAL: return "local";
    case PTX_SPACE_PARAM: return "param";
    case PTX_SPACE_CONST: return "const";
    case PTX_SPACE_ARGS: return "call-param";
    default: return "generic";
    }
}

/* Host pointer for `size` bytes at `addr` in space `sp` for one lane, or
 * NULL after reporting a fault. *eff receives the resolved space. */
static uint8_t *mem_at(struct exec *x, struct warp *w, int lane, uint32_t pc, unsigned sp,
                       uint64_t addr, unsigned size, bool write, unsigned *eff)
{
    uint64_t a = addr;
    /* Shared and local state-space addresses are 32-bit offsets into their
     * window and the hardware adds register and immediate modulo 2^32: nvcc
     * strength-reduces loops into a register "below" an array plus a
     * positive immediate ([%r2+68] with %r2 = base - 64). Wrapping cannot
     * hide a bad access: a negative offset wraps to near 4 GiB, far outside
     * any window. */
    if (sp == PTX_SPACE_SHARED || sp == PTX_SPACE_LOCAL)
        a = (uint32_t)a;
    if (sp == PTX_SPACE_GENERIC) {
        if (a >= FUNC_GEN_SHARED_BASE && a - FUNC_GEN_SHARED_BASE < FUNC_GEN_WINDOW) {
            sp = PTX_SPACE_SHARED;
            a -= FUNC_GEN_SHARED_BASE;
        } else if (a >= FUNC_GEN_LOCAL_BASE && a - FUNC_GEN_LOCAL_BASE < FUNC_GEN_WINDOW) {
            sp = PTX_SPACE_LOCAL;
            a -= FUNC_GEN_LOCAL_BASE;
        } else if (a >= FUNC_GEN_PARAM_BASE && a - FUNC_GEN_PARAM_BASE < FUNC_GEN_WINDOW) {
            sp = PTX_SPACE_PARAM;
            a -= FUNC_GEN_PARAM_BASE;
            if (write) {
                fault(x, w, lane, pc, "store to kernel parameter space through generic address 0x%" PRIx64, addr);
                return NULL;
            }
        } else
            sp = PTX_SPACE_GLOBAL;
    }
    *eff = sp;
    x->last_off = a;
    uint8_t *p = NULL;
    struct cta *c = w->cta;
    struct frame *f = &w->fr[w->depth];
    switch (sp) {
    case PTX_SPACE_GLOBAL:
    case PTX_SPACE_CONST: {
        const struct devmem *m = x->l->mem;
        long i = x->gcache;
        if (i >= 0 && (size_t)i < m->n) {
            const struct devmem_block *b = &m->blocks[i];
            if (a >= b->addr && a - b->addr < b->size && size <= b->size - (a - b->addr))
                return b->data + (a - b->addr);
        }
        i = devmem_find(m, a, size);
        if (i >= 0) {
            x->gcache = i;
            const struct devmem_block *b = &m->blocks[i];
            return b->data + (a - b->addr);
        }
        break;
    }
    case PTX_SPACE_SHARED:
        if (a < x->shared_bytes && size <= x->shared_bytes - a)
            p = c->shared + a;
        break;
    case PTX_SPACE_LOCAL:
        if (a < x->local_per_thread && size <= x->local_per_thread - a)
            p = c->local + (size_t)lane_lin(w, lane) * x->local_per_thread + a;
        break;
    case PTX_SPACE_PARAM:
        if (w->depth == 0) {
            if (a < x->kfn->param_bytes && size <= x->kfn->param_bytes - a)
                p = (uint8_t *)(uintptr_t)x->l->params + a;
            if (p && write) {
                fault(x, w, lane, pc, "store to kernel parameter space at offset %" PRIu64, a);
                return NULL;
            }
        } else if (a < f->fn->param_bytes && size <= f->fn->param_bytes - a)
            p = w->bytes + f->param_off + (size_t)lane * f->fn->param_bytes + a;
        break;
    case PTX_SPACE_ARGS:
        if (a < f->fn->args_bytes && size <= f->fn->args_bytes - a)
            p = w->bytes + f->args_off + (size_t)lane * f->fn->args_bytes + a;
        break;
    default: break;
    }
    if (!p)
        fault(x, w, lane, pc, "out-of-bounds %s %s of %u bytes at address 0x%" PRIx64 "%s",
              space_word(sp), write ? "store" : "load", size, addr,
              sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_CONST ? " (no live allocation holds it)" : "");
    return p;
}

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

static void count_access(struct func_stats *st, unsigned sp, bool write, uint64_t n)
{
    switch (sp) {
    case PTX_SPACE_SHARED: *(write ? &st->st_shared : &st->ld_shared) += n; break;
    case PTX_SPACE_LOCAL: *(write ? &st->st_local : &st->ld_local) += n; break;
    case PTX_SPACE_PARAM:
    case PTX_SPACE_ARGS: *(write ? &st->st_param : &st->ld_param) += n; break;
    case PTX_SPACE_CONST: st->ld_const += n; break;
    default: *(write ? &st->st_global : &st->ld_global) += n; break;
    }
}

/* Effective address of an ADDR operand for one lane (in the space the
 * operand names; generic for a register-only generic access). */
static inline uint64_t addr_of(struct exec *x, struct warp *w, const uint64_t *R,
                               const struct ptx_operand *o, int lane)
{
    uint64_t a = o->reg >= 0 ? R[(size_t)o->reg * FUNC_WARP + (unsigned)lane] : 0;
    if (o->base == PTX_BASE_NONE)
        return a + o->imm;
    return a + sym_base(x, w, o);
}

/* Tell the observer about one lane's global access (x->obs != NULL). */
static void obs_access(struct exec *x, const struct warp *w, int lane, uint64_t a, unsigned bytes, int kind)
{
    const struct func_launch *l = x->l;
    const uint32_t *id = w->cta->id;
    uint64_t cta = id[0] + (uint64_t)l->grid[0] * (id[1] + (uint64_t)l->grid[1] * id[2]);
    x->obs->on_access(x->obs->ctx, cta, w->wid, (uint32_t)lane, a, bytes, kind);
}

/* The space an ld/st/atom accesses: the instruction's, except that a
 * call-site .param variable is named by the operand. */
static inline unsigned access_space(const struct ptx_insn *in, const struct ptx_operand *ao)
{
    if (in->space == PTX_SPACE_PARAM && ao->space == PTX_SPACE_ARGS)
        return PTX_SPACE_ARGS;
    return in->space;
}

/* Timing mode: note lane `lane`'s access (resolved by the mem_at just
 * before, in space eff) in x->mo. Global lanes are deferred: the caller
 * must not touch memory for them, the LD/ST unit performs them and
 * func_sm_mem_complete writes the registers. Other spaces (shared, local,
 * param, const) are private to the SM or read-only during a kernel: they
 * are performed at issue and noted for their timing only. Returns true
 * when the lane is deferred. */
static inline bool mo_note(struct exec *x, unsigned eff, int lane)
{
    struct memop *mo = x->mo;
    uint32_t bit = 1u << lane;
    mo->addr[lane] = x->last_off;
    if (eff == PTX_SPACE_GLOBAL) {
        x->mo_glob |= bit;
        return true;
    }
    x->mo_other |= bit;
    x->mo_other_space = (uint8_t)eff;
    return false;
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

/* The bytes one lane of st instruction `in` stores (tot bytes) into buf. */
static inline void st_gather(struct exec *x, struct warp *w, const uint64_t *R, const struct ptx_insn *in,
                             int lane, uint8_t *buf)
{
    const struct ptx_operand *s = &in->opnd[1];
    unsigned es = ptx_type_bytes((enum ptx_type)in->type);
    if (s->kind == PTX_OPND_VEC) {
        for (unsigned i = 0; i < s->n; i++)
            store_bytes(buf + i * es, es, s->vec[i] >= 0 ? R[(size_t)s->vec[i] * FUNC_WARP + (unsigned)lane] : 0);
    } else
        store_bytes(buf, es, opv(x, w, R, s, lane));
}

static void exec_ld(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                    uint32_t pc, uint32_t g)
{
    const struct ptx_operand *ao = &in->opnd[in->n_dst];
    unsigned sp = access_space(in, ao), eff = sp;
    unsigned es = ptx_type_bytes((enum ptx_type)in->type), nv = in->vec ? in->vec : 1;
    unsigned tot = es * nv;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t a = addr_of(x, w, R, ao, lane);
        if (UNLIKELY(a % tot != 0 && sp != PTX_SPACE_PARAM && sp != PTX_SPACE_ARGS)) {
            fault(x, w, lane, pc, "misaligned %s load of %u bytes at address 0x%" PRIx64,
                  space_word(sp), tot, a);
            return;
        }
        uint8_t *p = mem_at(x, w, lane, pc, sp, a, tot, false, &eff);
        if (!p)
            return;
        if (UNLIKELY(x->obs != NULL) && eff == PTX_SPACE_GLOBAL)
            obs_access(x, w, lane, a, tot, FUNC_OBS_LOAD);
        if (x->mo && mo_note(x, eff, lane))
            continue;
        ld_write(R, in, lane, p);
    }
    count_access(x->st, eff, false, (uint64_t)__builtin_popcount(g));
}

static void exec_st(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                    uint32_t pc, uint32_t g)
{
    const struct ptx_operand *ao = &in->opnd[0];
    unsigned sp = access_space(in, ao), eff = sp;
    unsigned es = ptx_type_bytes((enum ptx_type)in->type), nv = in->vec ? in->vec : 1;
    unsigned tot = es * nv;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t a = addr_of(x, w, R, ao, lane);
        if (UNLIKELY(a % tot != 0 && sp != PTX_SPACE_PARAM && sp != PTX_SPACE_ARGS)) {
            fault(x, w, lane, pc, "misaligned %s store of %u bytes at address 0x%" PRIx64,
                  space_word(sp), tot, a);
            return;
        }
        uint8_t *p = mem_at(x, w, lane, pc, sp, a, tot, true, &eff);
        if (!p)
            return;
        if (UNLIKELY(x->obs != NULL) && eff == PTX_SPACE_GLOBAL)
            obs_access(x, w, lane, a, tot, FUNC_OBS_STORE);
        if (x->mo && mo_note(x, eff, lane)) { /* deferred: the bytes travel with the request */
            st_gather(x, w, R, in, lane, x->mo->data[lane]);
            continue;
        }
        uint8_t buf[16];
        st_gather(x, w, R, in, lane, buf);
        if (memcmp(p, buf, tot) != 0) { /* progress for the watchdog: memory changed */
            memcpy(p, buf, tot);
            x->change_mark = x->total_insts;
        }
    }
    count_access(x->st, eff, true, (uint64_t)__builtin_popcount(g));
}

static void exec_atom(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                      uint32_t pc, uint32_t g)
{
    bool has_d = in->n_dst > 0;
    const struct ptx_operand *d = has_d ? &in->opnd[0] : NULL;
    const struct ptx_operand *ao = &in->opnd[in->n_dst];
    const struct ptx_operand *bo = &in->opnd[in->n_dst + 1];
    const struct ptx_operand *co = in->n_src > 2 ? &in->opnd[in->n_dst + 2] : NULL;
    unsigned es = ptx_type_bytes((enum ptx_type)in->type), eff = in->space;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t a = addr_of(x, w, R, ao, lane);
        if (UNLIKELY(a % es)) {
            fault(x, w, lane, pc, "misaligned atomic of %u bytes at address 0x%" PRIx64, es, a);
            return;
        }
        uint8_t *p = mem_at(x, w, lane, pc, in->space, a, es, true, &eff);
        if (!p)
            return;
        if (eff == PTX_SPACE_LOCAL || eff == PTX_SPACE_PARAM) {
            fault(x, w, lane, pc, "atomic on %s space address 0x%" PRIx64, space_word(eff), a);
            return;
        }
        if (UNLIKELY(x->obs != NULL) && eff == PTX_SPACE_GLOBAL)
            obs_access(x, w, lane, a, es, FUNC_OBS_ATOMIC);
        if (x->mo && mo_note(x, eff, lane)) { /* deferred: performed at L2 in lane order */
            bool bad = false;
            fpu_atomic((enum ptx_aop)in->aop, (enum ptx_type)in->type, 0, 0, 0, false, &bad);
            if (bad) {
                fault(x, w, lane, pc, "unsupported atomic operation %s on type %s",
                      ptx_aop_name((enum ptx_aop)in->aop), ptx_type_name((enum ptx_type)in->type));
                return;
            }
            store_bytes(x->mo->data[lane], es, opv(x, w, R, bo, lane));
            if (co)
                store_bytes(x->mo->data[lane] + es, es, opv(x, w, R, co, lane));
            continue;
        }
        uint64_t old = load_bytes(p, es);
        bool bad = false;
        /* atom/red.add.f32 on global memory flushes subnormal inputs and
         * results to sign-preserving zero; on shared memory it keeps them
         * (PTX ISA, sm_75-era text, and measured on hardware). */
        bool ftz = in->type == PTX_T_F32 && in->aop == PTX_AOP_ADD && eff == PTX_SPACE_GLOBAL;
        uint64_t nv = fpu_atomic((enum ptx_aop)in->aop, (enum ptx_type)in->type, old,
                                 opv(x, w, R, bo, lane), co ? opv(x, w, R, co, lane) : 0, ftz, &bad);
        if (bad) {
            fault(x, w, lane, pc, "unsupported atomic operation %s on type %s",
                  ptx_aop_name((enum ptx_aop)in->aop), ptx_type_name((enum ptx_type)in->type));
            return;
        }
        if (nv != old) {
            store_bytes(p, es, nv);
            x->change_mark = x->total_insts;
        }
        if (d)
            setv(R, d, lane, fpu_extend(old, (enum ptx_type)in->type));
    }
    x->st->atomics += (uint64_t)__builtin_popcount(g);
}

/* -------------------------------------------------------------- control */
static bool stk_push(struct exec *x, struct warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    if (w->sp == w->stk_cap) {
        uint32_t nc = w->stk_cap * 2;
        struct simt_ent *ns = realloc(w->stk, nc * sizeof *ns);
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

static void cta_barrier_check(struct exec *x, struct cta *c);

/* Copy .func return values of lanes `mask` to the caller's call-site
 * params, then drop the frame. */
static void frame_return(struct warp *w, uint32_t mask)
{
    struct frame *f = &w->fr[w->depth], *cf = &w->fr[w->depth - 1];
    const struct ptx_func *fn = f->fn, *cfn = cf->fn;
    const struct ptx_insn *ci = &cfn->insns[f->call_pc];
    uint64_t *CR = w->arena + cf->reg_off;
    for (uint32_t j = 0; j < ci->call_n_ret && j < fn->n_rets; j++) {
        const struct ptx_param *pp = &fn->params[fn->n_params - fn->n_rets + j];
        const struct ptx_operand *o = &cfn->call_args[ci->call_first + j];
        for (uint32_t m = mask; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            const uint8_t *src = w->bytes + f->param_off + (size_t)lane * fn->param_bytes + pp->offset;
            if (o->kind == PTX_OPND_REG)
                CR[(size_t)o->reg * FUNC_WARP + (unsigned)lane] = load_bytes(src, MIN(pp->size, 8u));
            else if (cfn->args_bytes >= o->imm + pp->size)
                memcpy(w->bytes + cf->args_off + (size_t)lane * cfn->args_bytes + o->imm, src, pp->size);
        }
    }
    w->arena_used = f->reg_off;
    w->bytes_used = f->param_off;
    w->depth--;
}

/* Timing mode: remember that warp w changed state (exit, barrier release)
 * or pc outside its own issue, for the SM to pick up (func_sm_take_events). */
static void note_ev(struct exec *x, const struct warp *w)
{
    if (!x->ev)
        return;
    uint32_t id = w->cta->slot * x->n_warps + w->wid;
    if (!x->ev_mark[id]) {
        x->ev_mark[id] = 1;
        x->ev[x->n_ev++] = id;
    }
}

/* Pop empty entries; finish frames and the warp when nothing is left. */
static void settle(struct exec *x, struct warp *w)
{
    for (;;) {
        struct frame *f = &w->fr[w->depth];
        while (w->sp > f->stack_base && w->stk[w->sp - 1].mask == 0)
            w->sp--;
        if (w->sp > f->stack_base)
            return;
        if (w->depth == 0) {
            w->state = W_DONE;
            w->cta->n_done++;
            note_ev(x, w);
            x->progress = true;
            x->change_mark = x->total_insts;
            cta_barrier_check(x, w->cta);
            return;
        }
        uint32_t call_pc = f->call_pc;
        /* The caller's top entry holds the lanes that made the call. */
        uint32_t mask = w->sp > 0 ? w->stk[w->sp - 1].mask : 0;
        frame_return(w, mask);
        if (w->sp > 0)
            w->stk[w->sp - 1].pc = call_pc + 1;
    }
}

/* Lanes `lanes` leave the current frame (ret) or the kernel (exit). */
static void lanes_leave(struct exec *x, struct warp *w, uint32_t lanes, bool is_exit)
{
    uint32_t from = is_exit ? 0 : w->fr[w->depth].stack_base;
    for (uint32_t i = from; i < w->sp; i++)
        w->stk[i].mask &= ~lanes;
    if (is_exit)
        w->exited |= lanes;
    settle(x, w);
}

static void do_call(struct exec *x, struct warp *w, const struct ptx_insn *in, uint32_t pc,
                    uint32_t mask)
{
    if (w->depth >= FUNC_MAX_CALL_DEPTH) {
        fault(x, w, __builtin_ctz(mask), pc,
              "call depth exceeds %d frames (deep recursion is not supported)", FUNC_MAX_CALL_DEPTH);
        return;
    }
    const struct ptx_module *mod = x->mod;
    if (in->target >= mod->n_funcs || !mod->funcs[in->target].has_body) {
        fault(x, w, __builtin_ctz(mask), pc, "call to a function without a body");
        return;
    }
    const struct ptx_func *fn = &mod->funcs[in->target];
    struct frame *cf = &w->fr[w->depth];
    const struct ptx_func *cfn = cf->fn;
    size_t nslots = (size_t)fn->n_regs * FUNC_WARP;
    size_t nbytes = ((size_t)fn->param_bytes + fn->args_bytes) * FUNC_WARP;
    if (w->arena_used + nslots > w->arena_cap) {
        size_t nc = (w->arena_used + nslots) * 2;
        uint64_t *na = realloc(w->arena, nc * sizeof *na);
        if (!na)
            goto oom;
        w->arena = na;
        w->arena_cap = nc;
    }
    if (w->bytes_used + nbytes > w->bytes_cap) {
        size_t nc = (w->bytes_used + nbytes) * 2 + 64;
        uint8_t *nb = realloc(w->bytes, nc);
        if (!nb)
            goto oom;
        w->bytes = nb;
        w->bytes_cap = nc;
    }
    uint64_t lb = cf->local_base + u64_round_up(cfn->local_bytes, 16);
    if (lb + fn->local_bytes > x->local_per_thread) {
        fault(x, w, __builtin_ctz(mask), pc, "local memory of nested calls exceeds %" PRIu64 " bytes per thread",
              x->local_per_thread);
        return;
    }
    struct frame *f = &w->fr[w->depth + 1];
    f->fn = fn;
    f->reg_off = w->arena_used;
    f->param_off = w->bytes_used;
    f->args_off = w->bytes_used + (size_t)fn->param_bytes * FUNC_WARP;
    f->local_base = lb;
    f->call_pc = pc;
    memset(w->arena + f->reg_off, 0, nslots * sizeof(uint64_t));
    memset(w->bytes + f->param_off, 0, nbytes);
    w->arena_used += nslots;
    w->bytes_used += nbytes;
    /* Input arguments: call_args[call_first + n_ret + i] -> params[i]. */
    const uint64_t *CR = w->arena + cf->reg_off;
    uint32_t n_in = fn->n_params - fn->n_rets;
    for (uint32_t i = 0; i < in->call_n_arg && i < n_in; i++) {
        const struct ptx_param *pp = &fn->params[i];
        const struct ptx_operand *o = &cfn->call_args[in->call_first + in->call_n_ret + i];
        for (uint32_t m = mask; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            uint8_t *dst = w->bytes + f->param_off + (size_t)lane * fn->param_bytes + pp->offset;
            if (o->kind == PTX_OPND_REG || o->kind == PTX_OPND_IMM)
                store_bytes(dst, MIN(pp->size, 8u), o->kind == PTX_OPND_REG
                                                        ? CR[(size_t)o->reg * FUNC_WARP + (unsigned)lane]
                                                        : o->imm);
            else if (cfn->args_bytes >= o->imm + pp->size)
                memcpy(dst, w->bytes + cf->args_off + (size_t)lane * cfn->args_bytes + o->imm, pp->size);
        }
    }
    w->depth++;
    f->stack_base = w->sp;
    stk_push(x, w, 0, UINT32_MAX, mask);
    x->st->calls++;
    return;
oom:
    x->err = GS_ERR_OUT_OF_MEMORY;
    snprintf(x->l->err, x->l->err_len, "out of host memory for a call frame");
}

/* ------------------------------------------------------------- barriers */
/* Outcome of one warp step. */
enum step_result {
    STEP_CONT,  /* the warp may go on (an instruction ran, or the SIMT stack settled) */
    STEP_YIELD, /* stop this warp's turn: it reached a barrier, or an error was raised */
};
static enum step_result warp_step(struct exec *x, struct warp *w);

/* Timing mode: run the SIMT bookkeeping steps (reconvergence pops, the
 * implicit ret/exit at the end of a function) until the top of the stack
 * names a real instruction or the warp is no longer runnable. */
static void settle_top(struct exec *x, struct warp *w)
{
    while (!x->err && w->state == W_RUN) {
        const struct simt_ent *t = &w->stk[w->sp - 1];
        if (t->pc != t->rpc && t->pc < w->fr[w->depth].fn->n_insns)
            return;
        warp_step(x, w);
    }
}

static void cta_barrier_check(struct exec *x, struct cta *c)
{
    for (uint32_t b = 0; b < FUNC_MAX_BARRIERS; b++) {
        if (!c->bar_arrived[b])
            continue;
        uint32_t need = c->bar_expect[b] ? c->bar_expect[b] : x->n_warps - c->n_done;
        if (c->bar_arrived[b] < need)
            continue;
        for (uint32_t i = 0; i < x->n_warps; i++) {
            struct warp *w = &c->warps[i];
            if (w->state != W_BAR || w->bar_id != b)
                continue;
            w->state = W_RUN;
            w->bar_release = true;
            if (w->bar_dst >= 0) {
                const struct ptx_insn *in = &w->fr[w->depth].fn->insns[w->stk[w->sp - 1].pc - 1];
                uint64_t v = in->aop == PTX_AOP_POPC ? c->bar_popc[b]
                             : in->aop == PTX_AOP_AND ? c->bar_and[b]
                                                      : c->bar_or[b];
                uint64_t *R = w->arena + w->fr[w->depth].reg_off;
                for (uint32_t m = w->bar_mask; m; m &= m - 1)
                    R[(size_t)w->bar_dst * FUNC_WARP + (unsigned)__builtin_ctz(m)] = v;
            }
        }
        if (x->ev) /* timing mode: bring released warps to their next instruction */
            for (uint32_t i = 0; i < x->n_warps; i++)
                if (c->warps[i].state == W_RUN && c->warps[i].bar_release) {
                    c->warps[i].bar_release = false;
                    settle_top(x, &c->warps[i]);
                    note_ev(x, &c->warps[i]);
                }
        c->bar_arrived[b] = 0;
        c->bar_expect[b] = 0;
        c->bar_popc[b] = 0;
        c->bar_and[b] = 1;
        c->bar_or[b] = 0;
        x->progress = true;
        x->change_mark = x->total_insts;
    }
}

static void exec_bar(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                     uint32_t pc, uint32_t mask, uint32_t g)
{
    struct cta *c = w->cta;
    const struct ptx_operand *src = &in->opnd[in->n_dst];
    int lane0 = __builtin_ctz(mask);
    uint64_t id = opv(x, w, R, &src[0], lane0);
    if (id >= FUNC_MAX_BARRIERS) {
        fault(x, w, lane0, pc, "barrier id %" PRIu64 " out of range (0..%d)", id, FUNC_MAX_BARRIERS - 1);
        return;
    }
    uint32_t expect = 0;
    if (in->flags & PTX_F_BAR_COUNT) {
        uint64_t cnt = opv(x, w, R, &src[1], lane0);
        expect = (uint32_t)((cnt + FUNC_WARP - 1) / FUNC_WARP);
    }
    x->st->barriers++;
    if (!g) {
        w->stk[w->sp - 1].pc = pc + 1;
        return;
    }
    c->bar_expect[id] = expect;
    c->bar_arrived[id]++;
    w->stk[w->sp - 1].pc = pc + 1;
    w->bar_dst = -1;
    if (in->mode == PTX_MODE_RED) {
        const struct ptx_operand *po = &src[in->n_src - 1];
        uint32_t t = 0;
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            if (opv(x, w, R, po, lane) & 1)
                t |= 1u << lane;
        }
        c->bar_popc[id] += (uint32_t)__builtin_popcount(t);
        if (t != g)
            c->bar_and[id] = 0;
        if (t)
            c->bar_or[id] = 1;
        w->bar_dst = in->opnd[0].kind == PTX_OPND_REG ? in->opnd[0].reg : -1;
        w->bar_mask = g;
    }
    if (in->mode != PTX_MODE_ARRIVE) {
        w->state = W_BAR;
        w->bar_id = (uint32_t)id;
    }
    cta_barrier_check(x, c);
}

/* ---------------------------------------------------------- warp-level */
static void exec_shfl(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                      uint32_t g)
{
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    uint64_t av[FUNC_WARP];
    /* Source values of every lane (inactive lanes' registers are read as
     * they are: PTX leaves that result undefined). */
    for (int lane = 0; lane < FUNC_WARP; lane++)
        av[lane] = opv(x, w, R, &s[0], lane);
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint32_t b = (uint32_t)opv(x, w, R, &s[1], lane) & 31;
        uint32_t c = (uint32_t)opv(x, w, R, &s[2], lane);
        uint32_t segmask = (c >> 8) & 31, cval = c & 31;
        int maxl = (int)(((uint32_t)lane & segmask) | (cval & ~segmask));
        int minl = (int)((uint32_t)lane & segmask);
        int j;
        bool pv;
        switch (in->mode) {
        case PTX_MODE_UP: j = lane - (int)b; pv = j >= maxl; break;
        case PTX_MODE_DOWN: j = lane + (int)b; pv = j <= maxl; break;
        case PTX_MODE_BFLY: j = lane ^ (int)b; pv = j <= maxl; break;
        default: j = minl | (int)(b & ~segmask); pv = j <= maxl; break;
        }
        if (!pv)
            j = lane;
        setv(R, &in->opnd[0], lane, av[j & 31]);
        if (in->n_dst > 1)
            setv(R, &in->opnd[1], lane, pv);
    }
}

static void exec_vote(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                      uint32_t g)
{
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    uint32_t t = 0;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        if (opv(x, w, R, &s[0], lane) & 1)
            t |= 1u << lane;
    }
    uint64_t v;
    switch (in->mode) {
    case PTX_MODE_ALL: v = t == g; break;
    case PTX_MODE_ANY: v = t != 0; break;
    case PTX_MODE_UNI: v = t == 0 || t == g; break;
    default: v = t; break;
    }
    for (uint32_t m = g; m; m &= m - 1)
        setv(R, &in->opnd[0], __builtin_ctz(m), v);
}

static void exec_match(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                       uint32_t g)
{
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    uint64_t v[FUNC_WARP];
    uint64_t wm = in->type == PTX_T_B64 ? ~0ull : 0xffffffffull;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        v[lane] = opv(x, w, R, &s[0], lane) & wm;
    }
    bool all = true;
    for (uint32_t m = g; m; m &= m - 1)
        if (v[__builtin_ctz(m)] != v[__builtin_ctz(g)])
            all = false;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint32_t same = 0;
        for (uint32_t k = g; k; k &= k - 1)
            if (v[__builtin_ctz(k)] == v[lane])
                same |= 1u << __builtin_ctz(k);
        if (in->mode == PTX_MODE_ALL) {
            setv(R, &in->opnd[0], lane, all ? g : 0);
            if (in->n_dst > 1)
                setv(R, &in->opnd[1], lane, all);
        } else
            setv(R, &in->opnd[0], lane, same);
    }
}

static void exec_redux(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                       uint32_t pc, uint32_t g)
{
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    bool first = true, bad = false;
    uint64_t acc = 0;
    for (uint32_t m = g; m; m &= m - 1) {
        uint64_t v = opv(x, w, R, &s[0], __builtin_ctz(m));
        acc = first ? fpu_extend(v, (enum ptx_type)in->type)
                    : fpu_atomic((enum ptx_aop)in->aop, (enum ptx_type)in->type, acc, v, 0, false, &bad);
        first = false;
    }
    if (bad) {
        fault(x, w, __builtin_ctz(g), pc, "unsupported redux operation");
        return;
    }
    for (uint32_t m = g; m; m &= m - 1)
        setv(R, &in->opnd[0], __builtin_ctz(m), acc);
}

/* ------------------------------------------------------------ ALU paths */
static void exec_setp(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                      uint32_t g)
{
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    bool ftz = in->flags & PTX_F_FTZ;
    enum ptx_type t = in->op == PTX_OP_SET ? (enum ptx_type)in->type2 : (enum ptx_type)in->type;
    bool fdst = in->op == PTX_OP_SET && ptx_type_is_float((enum ptx_type)in->type);
    /* setp.f16x2 p|q, a, b: p compares the low halves, q the high halves. */
    bool x2 = in->op == PTX_OP_SETP && (t == PTX_T_F16X2 || t == PTX_T_BF16X2);
    enum ptx_type ht = t == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t a = opv(x, w, R, &s[0], lane), b = opv(x, w, R, &s[1], lane);
        bool r, q;
        if (x2) {
            r = fpu_compare((enum ptx_cmp)in->cmp, ht, a & 0xffff, b & 0xffff, ftz);
            q = fpu_compare((enum ptx_cmp)in->cmp, ht, (a >> 16) & 0xffff, (b >> 16) & 0xffff, ftz);
        } else {
            r = fpu_compare((enum ptx_cmp)in->cmp, t, a, b, ftz);
            q = !r;
        }
        if (in->bop != PTX_BOOL_NONE) {
            bool c = opv(x, w, R, &s[in->n_src - 1], lane) & 1;
            switch (in->bop) {
            case PTX_BOOL_AND: r = r && c; q = q && c; break;
            case PTX_BOOL_OR: r = r || c; q = q || c; break;
            default: r = r != c; q = q != c; break;
            }
        }
        if (in->op == PTX_OP_SET) {
            setv(R, &in->opnd[0], lane, r ? (fdst ? 0x3f800000u : 0xffffffffu) : 0);
        } else {
            setv(R, &in->opnd[0], lane, r);
            if (in->n_dst > 1)
                setv(R, &in->opnd[1], lane, q);
        }
    }
}

/* add.cc / addc / sub.cc / subc / mad.cc / madc on 32- or 64-bit values. */
static void exec_carry(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                       uint32_t g)
{
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    bool w64 = ptx_type_bytes((enum ptx_type)in->type) == 8;
    bool use_c = in->op == PTX_OP_ADDC || in->op == PTX_OP_SUBC || in->op == PTX_OP_MADC;
    bool set_c = in->flags & PTX_F_CC;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t a = opv(x, w, R, &s[0], lane), b = opv(x, w, R, &s[1], lane);
        unsigned cin = use_c ? (w->carry >> lane) & 1 : 0;
        bool sub = in->op == PTX_OP_SUB || in->op == PTX_OP_SUBC;
        bool mad = in->op == PTX_OP_MAD || in->op == PTX_OP_MADC;
        if (mad) {
            /* The product of the instruction's type: signed for .s32/.s64
             * (only the high half differs). */
            uint64_t c = opv(x, w, R, &s[2], lane);
            bool sg = ptx_type_is_signed((enum ptx_type)in->type);
            unsigned __int128 p;
            if (w64)
                p = sg ? (unsigned __int128)((__int128)(int64_t)a * (int64_t)b) : (unsigned __int128)a * b;
            else
                p = sg ? (unsigned __int128)(uint64_t)((int64_t)(int32_t)a * (int32_t)b)
                       : (unsigned __int128)((a & 0xffffffffu) * (b & 0xffffffffu));
            uint64_t part = in->mode == PTX_MODE_HI ? (uint64_t)(w64 ? p >> 64 : (p >> 32) & 0xffffffffu)
                                                    : (uint64_t)(w64 ? (uint64_t)p : (uint64_t)p & 0xffffffffu);
            a = part;
            b = c;
        }
        unsigned __int128 r;
        unsigned cout;
        if (w64) {
            if (sub) {
                r = (unsigned __int128)a - b - cin;
                cout = (unsigned)((r >> 64) & 1); /* borrow */
            } else {
                r = (unsigned __int128)a + b + cin;
                cout = (unsigned)(r >> 64) & 1;
            }
            setv(R, &in->opnd[0], lane, (uint64_t)r);
        } else {
            uint64_t a32 = a & 0xffffffffu, b32 = b & 0xffffffffu, r32;
            if (sub) {
                r32 = a32 - b32 - cin;
                cout = (unsigned)(r32 >> 63) & 1;
            } else {
                r32 = a32 + b32 + cin;
                cout = (unsigned)(r32 >> 32) & 1;
            }
            setv(R, &in->opnd[0], lane, r32 & 0xffffffffu);
        }
        if (set_c)
            w->carry = (w->carry & ~(1u << lane)) | (cout << lane);
    }
}

static void exec_mov(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                     uint32_t g)
{
    const struct ptx_operand *d = &in->opnd[0], *s = &in->opnd[in->n_dst];
    unsigned tb = ptx_type_bytes((enum ptx_type)in->type);
    if (d->kind == PTX_OPND_VEC) { /* unpack: mov.b64 {a,b}, x */
        unsigned eb = tb / d->n * 8;
        uint64_t em = eb >= 64 ? ~0ull : (1ull << eb) - 1;
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            uint64_t v = opv(x, w, R, s, lane);
            for (unsigned i = 0; i < d->n; i++)
                if (d->vec[i] >= 0)
                    R[(size_t)d->vec[i] * FUNC_WARP + (unsigned)lane] = (v >> (i * eb)) & em;
        }
        return;
    }
    if (s->kind == PTX_OPND_VEC) { /* pack: mov.b64 x, {a,b} */
        unsigned eb = tb / s->n * 8;
        uint64_t em = eb >= 64 ? ~0ull : (1ull << eb) - 1;
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            uint64_t v = 0;
            for (unsigned i = 0; i < s->n; i++)
                if (s->vec[i] >= 0)
                    v |= (R[(size_t)s->vec[i] * FUNC_WARP + (unsigned)lane] & em) << (i * eb);
            setv(R, d, lane, v);
        }
        return;
    }
    if (s->kind == PTX_OPND_REG && d->kind == PTX_OPND_REG) {
        const uint64_t *sp = R + (size_t)s->reg * FUNC_WARP;
        uint64_t *dp = R + (size_t)d->reg * FUNC_WARP;
        bool notf = s->flags & PTX_OF_NOT;
        for (uint32_t m = g; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctz(m);
            dp[lane] = notf ? !sp[lane] : sp[lane];
        }
        return;
    }
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        setv(R, d, lane, opv(x, w, R, s, lane));
    }
}

static void exec_cvta(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                      uint32_t g)
{
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    uint64_t base = 0;
    switch (in->space) {
    case PTX_SPACE_SHARED: base = FUNC_GEN_SHARED_BASE; break;
    case PTX_SPACE_LOCAL: base = FUNC_GEN_LOCAL_BASE; break;
    case PTX_SPACE_PARAM: base = FUNC_GEN_PARAM_BASE; break;
    default: base = 0; break; /* global, const: identity */
    }
    bool to = in->flags & PTX_F_CVTA_TO;
    unsigned tb = ptx_type_bytes((enum ptx_type)in->type);
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t v = opv(x, w, R, s, lane);
        v = to ? v - base : v + base;
        if (tb == 4)
            v &= 0xffffffffu;
        setv(R, &in->opnd[0], lane, v);
    }
}

static void exec_isspacep(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                          uint32_t g)
{
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t a = opv(x, w, R, s, lane);
        bool sh = a >= FUNC_GEN_SHARED_BASE && a - FUNC_GEN_SHARED_BASE < FUNC_GEN_WINDOW;
        bool lo = a >= FUNC_GEN_LOCAL_BASE && a - FUNC_GEN_LOCAL_BASE < FUNC_GEN_WINDOW;
        bool pa = a >= FUNC_GEN_PARAM_BASE && a - FUNC_GEN_PARAM_BASE < FUNC_GEN_WINDOW;
        bool r;
        switch (in->space) {
        case PTX_SPACE_SHARED: r = sh; break;
        case PTX_SPACE_LOCAL: r = lo; break;
        case PTX_SPACE_PARAM: r = pa; break;
        case PTX_SPACE_CONST: r = false; break;
        default: r = !sh && !lo && !pa; break;
        }
        setv(R, &in->opnd[0], lane, r);
    }
}

static void exec_alu(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                     uint32_t pc, uint32_t g)
{
    const struct ptx_operand *d = &in->opnd[0], *s = &in->opnd[in->n_dst];
    unsigned ns = in->n_src > 4 ? 4 : in->n_src;
    uint64_t v[4] = {0, 0, 0, 0};
    bool bad = false;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        for (unsigned k = 0; k < ns; k++)
            v[k] = opv(x, w, R, &s[k], lane);
        uint64_t r = fpu_eval(in, v, &bad);
        if (UNLIKELY(bad)) {
            fault(x, w, lane, pc, "unsupported instruction %s%s", ptx_op_name((enum ptx_op)in->op),
                  ptx_type_name((enum ptx_type)in->type));
            return;
        }
        setv(R, d, lane, r);
    }
}

/* Fast paths for the commonest integer/fp32 ALU forms: same semantics as
 * fpu_eval, specialised loops. Returns false when not applicable. */
static bool exec_fast(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                      uint32_t g)
{
    const struct ptx_operand *d = &in->opnd[0], *s = &in->opnd[in->n_dst];
    if (d->kind != PTX_OPND_REG || in->flags & ~(uint32_t)PTX_F_HINT)
        return false;
    uint64_t *dp = R + (size_t)d->reg * FUNC_WARP;
    unsigned tb = ptx_type_bytes((enum ptx_type)in->type);
    bool isf = ptx_type_is_float((enum ptx_type)in->type);
    if (isf && (in->type != PTX_T_F32 || (in->rnd != PTX_RND_NONE && in->rnd != PTX_RND_RN)))
        return false;
    switch (in->op) {
    case PTX_OP_ADD:
    case PTX_OP_SUB:
    case PTX_OP_AND:
    case PTX_OP_OR:
    case PTX_OP_XOR:
        if (isf && in->op != PTX_OP_ADD && in->op != PTX_OP_SUB)
            return false;
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            uint64_t a = opv(x, w, R, &s[0], lane), b = opv(x, w, R, &s[1], lane), r;
            if (isf) {
                float fa, fb, fr;
                uint32_t ua = (uint32_t)a, ub = (uint32_t)b, ur;
                memcpy(&fa, &ua, 4);
                memcpy(&fb, &ub, 4);
                fr = in->op == PTX_OP_ADD ? fa + fb : fa - fb;
                memcpy(&ur, &fr, 4);
                r = fr != fr ? 0x7fffffffu : ur;
            } else {
                switch (in->op) {
                case PTX_OP_ADD: r = a + b; break;
                case PTX_OP_SUB: r = a - b; break;
                case PTX_OP_AND: r = a & b; break;
                case PTX_OP_OR: r = a | b; break;
                default: r = a ^ b; break;
                }
                if (tb == 4)
                    r &= 0xffffffffu;
                else if (tb == 1 && in->type == PTX_T_PRED)
                    r &= 1;
                else if (tb < 4)
                    return false;
            }
            dp[lane] = r;
        }
        return true;
    case PTX_OP_FMA:
    case PTX_OP_MUL:
        if (!isf)
            return false;
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            uint32_t ua = (uint32_t)opv(x, w, R, &s[0], lane), ub = (uint32_t)opv(x, w, R, &s[1], lane), ur;
            float fa, fb, fr;
            memcpy(&fa, &ua, 4);
            memcpy(&fb, &ub, 4);
            if (in->op == PTX_OP_FMA) {
                uint32_t uc = (uint32_t)opv(x, w, R, &s[2], lane);
                float fc;
                memcpy(&fc, &uc, 4);
                fr = fmaf(fa, fb, fc);
            } else
                fr = fa * fb;
            memcpy(&ur, &fr, 4);
            dp[lane] = fr != fr ? 0x7fffffffu : ur;
        }
        return true;
    case PTX_OP_SHL:
        if (tb != 4 && tb != 8)
            return false;
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            uint64_t a = opv(x, w, R, &s[0], lane);
            uint32_t n = (uint32_t)opv(x, w, R, &s[1], lane);
            uint64_t r = n >= tb * 8 ? 0 : a << n;
            dp[lane] = tb == 4 ? r & 0xffffffffu : r;
        }
        return true;
    default:
        return false;
    }
}

/* ------------------------------------------------------------- the warp */
static void count_class(struct func_stats *st, uint8_t cls, uint64_t n)
{
    switch (cls) {
    case C_INT: st->int_insts += n; break;
    case C_FP32: st->fp32_insts += n; break;
    case C_FP64: st->fp64_insts += n; break;
    case C_SFU: st->sfu_insts += n; break;
    default: break;
    }
}


/* One step of warp w: pop a reconverged SIMT entry, leave at the end of a
 * function, or execute the instruction at the top of the SIMT stack for its
 * active lanes. The unit of work a timing model issues per warp instruction;
 * the functional scheduler calls it FUNC_SLICE times per turn. */
static inline enum step_result warp_step(struct exec *x, struct warp *w)
{
    struct func_stats *st = x->st;
    struct frame *f = &w->fr[w->depth];
    struct simt_ent *top = &w->stk[w->sp - 1];
    uint32_t pc = top->pc;
    if (pc == top->rpc) {
        w->sp--;
        settle(x, w);
        return STEP_CONT;
    }
    const struct ptx_func *fn = f->fn;
    if (UNLIKELY(pc >= fn->n_insns)) { /* fell off the end: implicit ret/exit */
        lanes_leave(x, w, top->mask, w->depth == 0);
        return STEP_CONT;
    }
    const struct ptx_insn *in = &fn->insns[pc];
    uint32_t mask = top->mask;
    uint64_t *R = w->arena + f->reg_off;
    uint32_t g = mask;
    if (in->guard >= 0) {
        const uint64_t *p = R + (size_t)in->guard * FUNC_WARP;
        uint32_t t = 0;
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctz(m);
            t |= (uint32_t)(p[lane] & 1) << lane;
        }
        g = in->guard_neg ? mask & ~t : t;
    }
    uint64_t na = (uint64_t)__builtin_popcount(g);
    w->n_insts++;
    x->total_insts++;
    st->warp_insts++;
    st->thread_insts += na;
    stat_avg_add(&st->active_lanes, (uint64_t)__builtin_popcount(mask));
    count_class(st, x->cls[fn->index][pc], na);
    if (UNLIKELY(x->obs != NULL) && x->obs->on_insn) {
        const uint32_t *id = w->cta->id;
        x->obs->on_insn(x->obs->ctx, id[0] + (uint64_t)x->l->grid[0] * (id[1] + (uint64_t)x->l->grid[1] * id[2]),
                        w->wid, fn, pc, mask, g);
    }
    top->pc = pc + 1; /* default; control flow overrides */
    switch ((enum ptx_op)in->op) {
    case PTX_OP_BRA: {
        st->branches++;
        if (g == mask) {
            top->pc = in->target;
        } else if (g != 0) {
            st->divergent_branches++;
            uint32_t rpc = in->reconv;
            top->pc = rpc;
            if (!stk_push(x, w, pc + 1, rpc, mask & ~g) || !stk_push(x, w, in->target, rpc, g))
                return STEP_YIELD;
        }
        break;
    }
    case PTX_OP_EXIT:
        if (g)
            lanes_leave(x, w, g, true);
        break;
    case PTX_OP_RET:
        if (g)
            lanes_leave(x, w, g, w->depth == 0);
        break;
    case PTX_OP_CALL:
        if (!g)
            break;
        if (g != mask) { /* guarded call: run it on a sub-entry */
            if (!stk_push(x, w, pc, pc + 1, g))
                return STEP_YIELD;
            break;
        }
        do_call(x, w, in, pc, g);
        break;
    case PTX_OP_LD:
    case PTX_OP_LDU:
        exec_ld(x, w, R, in, pc, g);
        break;
    case PTX_OP_ST:
        exec_st(x, w, R, in, pc, g);
        break;
    case PTX_OP_ATOM:
    case PTX_OP_RED:
        exec_atom(x, w, R, in, pc, g);
        break;
    case PTX_OP_MOV:
        exec_mov(x, w, R, in, g);
        break;
    case PTX_OP_SETP:
    case PTX_OP_SET:
        exec_setp(x, w, R, in, g);
        break;
    case PTX_OP_CVTA:
        exec_cvta(x, w, R, in, g);
        break;
    case PTX_OP_ISSPACEP:
        exec_isspacep(x, w, R, in, g);
        break;
    case PTX_OP_ADDC:
    case PTX_OP_SUBC:
    case PTX_OP_MADC:
        exec_carry(x, w, R, in, g);
        break;
    case PTX_OP_ADD:
    case PTX_OP_SUB:
    case PTX_OP_MAD:
        if (in->flags & PTX_F_CC) {
            exec_carry(x, w, R, in, g);
            break;
        }
        if (!exec_fast(x, w, R, in, g))
            exec_alu(x, w, R, in, pc, g);
        break;
    case PTX_OP_BAR:
        exec_bar(x, w, R, in, pc, mask, g);
        return STEP_YIELD; /* let the scheduler look at the barrier */
    case PTX_OP_BAR_WARP:
    case PTX_OP_MEMBAR:
    case PTX_OP_NANOSLEEP:
        break; /* lanes of a warp are always converged here; memory is SC */
    case PTX_OP_VOTE:
        exec_vote(x, w, R, in, g);
        break;
    case PTX_OP_ACTIVEMASK:
        for (uint32_t m = g; m; m &= m - 1)
            setv(R, &in->opnd[0], __builtin_ctz(m), mask);
        break;
    case PTX_OP_SHFL:
        exec_shfl(x, w, R, in, g);
        break;
    case PTX_OP_MATCH:
        exec_match(x, w, R, in, g);
        break;
    case PTX_OP_REDUX:
        exec_redux(x, w, R, in, pc, g);
        break;
    case PTX_OP_TRAP:
        if (g)
            fault(x, w, __builtin_ctz(g), pc, "trap instruction executed");
        break;
    case PTX_OP_BRKPT:
        if (g)
            fault(x, w, __builtin_ctz(g), pc, "brkpt instruction executed");
        break;
    default:
        if (!exec_fast(x, w, R, in, g))
            exec_alu(x, w, R, in, pc, g);
        break;
    }
    return STEP_CONT;
}

static void run_warp(struct exec *x, struct warp *w, int budget)
{
    while (budget-- > 0 && w->state == W_RUN && !x->err)
        if (warp_step(x, w) == STEP_YIELD)
            return;
}

/* ------------------------------------------------------------ scheduling */
static uint8_t classify(const struct ptx_insn *in)
{
    enum ptx_op op = (enum ptx_op)in->op;
    switch (ptx_op_unit(op)) {
    case PTX_UNIT_MEM: return C_MEM;
    case PTX_UNIT_CTRL:
    case PTX_UNIT_SYNC: return C_CTRL;
    case PTX_UNIT_SFU:
        if (!ptx_type_is_float((enum ptx_type)in->type))
            return C_INT;
        return C_SFU;
    default: break;
    }
    enum ptx_type t = (enum ptx_type)in->type;
    if (op == PTX_OP_CVT && ptx_type_is_float((enum ptx_type)in->type2) && !ptx_type_is_float(t))
        t = (enum ptx_type)in->type2;
    if (t == PTX_T_F64)
        return C_FP64;
    if (ptx_type_is_float(t))
        return C_FP32;
    return C_INT;
}

static void warp_start(struct exec *x, struct cta *c, struct warp *w, uint32_t wid)
{
    w->cta = c;
    w->wid = wid;
    uint32_t first = wid * FUNC_WARP;
    uint32_t n = x->n_threads - first < FUNC_WARP ? x->n_threads - first : FUNC_WARP;
    w->valid = n == 32 ? 0xffffffffu : (1u << n) - 1;
    w->exited = 0;
    w->state = W_RUN;
    w->bar_dst = -1;
    w->carry = 0;
    w->n_insts = 0;
    w->depth = 0;
    w->sp = 0;
    w->arena_used = (size_t)x->kfn->n_regs * FUNC_WARP;
    w->bytes_used = (size_t)x->kfn->args_bytes * FUNC_WARP;
    memset(w->arena, 0, w->arena_used * sizeof(uint64_t));
    memset(w->bytes, 0, w->bytes_used);
    struct frame *f = &w->fr[0];
    f->fn = x->kfn;
    f->reg_off = 0;
    f->param_off = 0;
    f->args_off = 0;
    f->local_base = u64_round_up(x->mod->local_module_bytes, 16);
    f->stack_base = 0;
    f->call_pc = 0;
    w->stk[w->sp++] = (struct simt_ent){0, UINT32_MAX, w->valid};
}

static void cta_start(struct exec *x, struct cta *c, uint64_t lin)
{
    const struct func_launch *l = x->l;
    c->live = true;
    c->id[0] = (uint32_t)(lin % l->grid[0]);
    c->id[1] = (uint32_t)(lin / l->grid[0] % l->grid[1]);
    c->id[2] = (uint32_t)(lin / ((uint64_t)l->grid[0] * l->grid[1]));
    c->n_done = 0;
    for (int b = 0; b < FUNC_MAX_BARRIERS; b++) {
        c->bar_arrived[b] = c->bar_expect[b] = c->bar_popc[b] = c->bar_or[b] = 0;
        c->bar_and[b] = 1;
    }
    /* Shared memory starts zeroed (hardware leaves it undefined; zero keeps
     * runs deterministic). Module shared variables with initialisers are
     * not allowed by PTX. */
    memset(c->shared, 0, x->shared_bytes);
    memset(c->local, 0, (size_t)x->n_threads * x->local_per_thread);
    for (uint32_t i = 0; i < x->n_warps; i++)
        warp_start(x, c, &c->warps[i], i);
}

static void exec_free(struct exec *x)
{
    if (x->ctas) {
        for (uint32_t s = 0; s < x->n_slots; s++) {
            struct cta *c = &x->ctas[s];
            if (c->warps)
                for (uint32_t i = 0; i < x->n_warps; i++) {
                    free(c->warps[i].stk);
                    free(c->warps[i].arena);
                    free(c->warps[i].bytes);
                }
            free(c->warps);
            free(c->shared);
            free(c->local);
        }
        free(x->ctas);
    }
    if (x->cls) {
        for (uint32_t i = 0; i < x->mod->n_funcs; i++)
            free(x->cls[i]);
        free(x->cls);
    }
}

/* Local bytes of the deepest chain of .func frames called from function
 * i (its own frame excluded), following the direct calls; -1 when a call
 * cycle (recursion) is reachable. state[]: 0 unvisited, 1 on the DFS path,
 * 2 done with need[] set. */
static int64_t call_local(const struct ptx_module *mod, uint32_t i, uint8_t *state, int64_t *need)
{
    if (state[i] == 2)
        return need[i];
    if (state[i] == 1)
        return -1;
    state[i] = 1;
    const struct ptx_func *fn = &mod->funcs[i];
    int64_t deepest = 0;
    for (uint32_t p = 0; p < fn->n_insns; p++) {
        const struct ptx_insn *in = &fn->insns[p];
        if (in->op != PTX_OP_CALL || in->target >= mod->n_funcs || !mod->funcs[in->target].has_body)
            continue; /* a call without a body faults when executed */
        int64_t sub = call_local(mod, in->target, state, need);
        if (sub < 0)
            return -1;
        deepest = MAX(deepest, (int64_t)u64_round_up(mod->funcs[in->target].local_bytes, 16) + sub);
    }
    state[i] = 2;
    need[i] = deepest;
    return deepest;
}

uint64_t func_local_per_thread(const struct ptx_module *mod, const struct ptx_func *kfn)
{
    uint64_t max_func_local = 0;
    for (uint32_t i = 0; i < mod->n_funcs; i++)
        if (!mod->funcs[i].is_entry)
            max_func_local = MAX(max_func_local, u64_round_up(mod->funcs[i].local_bytes, 16));
    /* Local frames of nested calls: the deepest call chain of the kernel
     * when the call graph is acyclic, else (recursion) the largest .func
     * frame times the call depth limit, so the depth limit is what stops a
     * recursion. */
    uint8_t *state = xcalloc(mod->n_funcs + 1, 1);
    int64_t *need = xcalloc(mod->n_funcs + 1, sizeof *need);
    int64_t calls = call_local(mod, (uint32_t)(kfn - mod->funcs), state, need);
    free(state);
    free(need);
    return u64_round_up(mod->local_module_bytes, 16) + u64_round_up(kfn->local_bytes, 16) +
           (calls >= 0 ? (uint64_t)calls : max_func_local * FUNC_MAX_CALL_DEPTH);
}

static int exec_alloc(struct exec *x)
{
    const struct ptx_module *mod = x->mod;
    x->cls = calloc(mod->n_funcs, sizeof *x->cls);
    if (!x->cls)
        return -1;
    for (uint32_t i = 0; i < mod->n_funcs; i++) {
        const struct ptx_func *fn = &mod->funcs[i];
        x->cls[i] = malloc(fn->n_insns + 1);
        if (!x->cls[i])
            return -1;
        for (uint32_t p = 0; p < fn->n_insns; p++)
            x->cls[i][p] = classify(&fn->insns[p]);
    }
    x->local_per_thread = func_local_per_thread(mod, x->kfn);
    x->ctas = calloc(x->n_slots, sizeof *x->ctas);
    if (!x->ctas)
        return -1;
    for (uint32_t s = 0; s < x->n_slots; s++) {
        struct cta *c = &x->ctas[s];
        c->slot = s;
        c->shared = malloc(x->shared_bytes ? x->shared_bytes : 1);
        c->local = malloc(x->n_threads * x->local_per_thread + 1);
        c->warps = calloc(x->n_warps, sizeof *c->warps);
        if (!c->shared || !c->local || !c->warps)
            return -1;
        for (uint32_t i = 0; i < x->n_warps; i++) {
            struct warp *w = &c->warps[i];
            w->stk_cap = 16;
            w->stk = malloc(w->stk_cap * sizeof *w->stk);
            w->arena_cap = (size_t)x->kfn->n_regs * FUNC_WARP + 1;
            w->arena = malloc(w->arena_cap * sizeof *w->arena);
            w->bytes_cap = (size_t)x->kfn->args_bytes * FUNC_WARP + 64;
            w->bytes = malloc(w->bytes_cap);
            if (!w->stk || !w->arena || !w->bytes)
                return -1;
        }
    }
    return 0;
}

/* The functional watchdog fired: every resident warp has had its share of
 * x->watchdog_insts warp instructions and none changed memory, passed a
 * barrier or finished. Report the warps (CTA, warp, PC, line, state). */
static void watchdog_fire(struct exec *x)
{
    const struct func_launch *l = x->l;
    char *p = l->err, *end = l->err + l->err_len;
    p += snprintf(p, (size_t)(end - p),
                  "kernel '%s': watchdog: %" PRIu64 " warp instructions without any warp changing memory, "
                  "passing a barrier or finishing (a spin-wait that never ends? raise sim.func_watchdog if "
                  "the kernel legitimately computes this long in registers). Resident warps:",
                  x->kfn->name, x->total_insts - x->change_mark);
    unsigned shown = 0, total = 0;
    for (uint32_t s = 0; s < x->n_slots; s++) {
        const struct cta *c = &x->ctas[s];
        if (!c->live)
            continue;
        for (uint32_t i = 0; i < x->n_warps; i++) {
            const struct warp *w = &c->warps[i];
            if (w->state == W_DONE)
                continue;
            total++;
            if (shown == 8 || p >= end - 1)
                continue;
            shown++;
            const struct ptx_func *fn = w->fr[w->depth].fn;
            uint32_t pc = w->sp ? w->stk[w->sp - 1].pc : 0;
            char src[128] = "";
            if (pc < fn->n_insns && fn->insns[pc].src_file)
                snprintf(src, sizeof src, " (%s:%u)", x->mod->src_files[fn->insns[pc].src_file - 1].base,
                         fn->insns[pc].src_line);
            p += snprintf(p, (size_t)(end - p), " [CTA (%u,%u,%u) warp %u: pc %u line %u%s%s%s, mask 0x%08x, stack %u]",
                          c->id[0], c->id[1], c->id[2], w->wid, pc, pc < fn->n_insns ? fn->insns[pc].line : 0, src,
                          fn != x->kfn ? " in " : "", fn != x->kfn ? fn->name : "",
                          w->sp ? w->stk[w->sp - 1].mask : 0, w->sp);
            if (p > end)
                p = end;
        }
    }
    if (total > shown && p < end - 1)
        snprintf(p, (size_t)(end - p), " ... %u warps in all", total);
    x->err = GS_ERR_WATCHDOG;
}

/* The launch-derived fields of an executor (functional run or one SM). */
static void exec_setup(struct exec *x, const struct func_launch *l)
{
    x->l = l;
    x->mod = l->mod;
    x->kfn = l->fn;
    x->st = l->st;
    x->gcache = -1;
    x->n_threads = l->block[0] * l->block[1] * l->block[2];
    x->n_warps = (x->n_threads + FUNC_WARP - 1) / FUNC_WARP;
    x->n_ctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    x->shared_bytes = l->fn->dyn_shared_offset > l->fn->shared_static_bytes ? l->fn->dyn_shared_offset
                                                                             : l->fn->shared_static_bytes;
    x->shared_bytes += l->dyn_shared_bytes;
}

int func_run(const struct func_launch *l)
{
    struct exec xs;
    struct exec *x = &xs;
    memset(x, 0, sizeof *x);
    exec_setup(x, l);
    x->obs = l->observer && l->observer->on_access ? l->observer : NULL;
    uint64_t slots = l->max_resident_ctas ? l->max_resident_ctas : 1;
    x->n_slots = (uint32_t)MIN(slots, x->n_ctas);
    if (exec_alloc(x) != 0) {
        exec_free(x);
        snprintf(l->err, l->err_len, "kernel '%s': out of host memory for %u resident CTAs",
                 l->fn->name, x->n_slots);
        return GS_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t s = 0; s < x->n_slots; s++)
        cta_start(x, &x->ctas[s], x->next_cta++);
    uint32_t live = x->n_slots;
    x->watchdog_insts = l->watchdog_per_warp * (uint64_t)x->n_slots * x->n_warps;
    while (live > 0 && !x->err) {
        x->progress = false;
        uint64_t before = x->total_insts;
        for (uint32_t s = 0; s < x->n_slots && !x->err; s++) {
            struct cta *c = &x->ctas[s];
            if (!c->live)
                continue;
            for (uint32_t i = 0; i < x->n_warps && !x->err; i++)
                if (c->warps[i].state == W_RUN)
                    run_warp(x, &c->warps[i], FUNC_SLICE);
            if (c->n_done == x->n_warps) {
                l->st->ctas++;
                x->progress = true;
                x->change_mark = x->total_insts;
                if (x->next_cta < x->n_ctas)
                    cta_start(x, c, x->next_cta++);
                else {
                    c->live = false;
                    live--;
                }
            }
        }
        if (!x->err && x->watchdog_insts && x->total_insts - x->change_mark > x->watchdog_insts)
            watchdog_fire(x);
        if (!x->err && !x->progress && x->total_insts == before) {
            /* Every live warp waits at a barrier that can never complete. */
            for (uint32_t s = 0; s < x->n_slots; s++) {
                struct cta *c = &x->ctas[s];
                if (!c->live)
                    continue;
                for (uint32_t i = 0; i < x->n_warps; i++)
                    if (c->warps[i].state == W_BAR) {
                        struct warp *w = &c->warps[i];
                        fault(x, w, __builtin_ctz(w->stk[w->sp - 1].mask | 1u),
                              w->stk[w->sp - 1].pc - 1,
                              "deadlock: warp waits at barrier %u that the other warps of its CTA never reach",
                              w->bar_id);
                        break;
                    }
                if (x->err)
                    break;
            }
            if (!x->err)
                fault(x, NULL, 0, 0, "deadlock: no warp can make progress");
        }
    }
    if (!x->err)
        l->st->kernels++;
    int err = x->err;
    exec_free(x);
    return err;
}


/* ------------------------------------------------- timing-mode interface */
/* The per-SM executor of timing mode is a struct exec whose CTA slots are
 * the SM's; CTAs come from the dispatcher (func_sm_cta_start) instead of
 * the linear order of func_run, and instructions are issued one at a time
 * by the SM's schedulers. */
struct func_sm *func_sm_create(const struct func_launch *l, uint32_t n_slots, uint32_t sm_id, const uint64_t *cycle)
{
    struct exec *x = xcalloc(1, sizeof *x);
    x->lcopy = *l;
    x->lcopy.err = x->errbuf;
    x->lcopy.err_len = sizeof x->errbuf;
    exec_setup(x, &x->lcopy);
    x->n_slots = n_slots ? n_slots : 1;
    x->cycle = cycle;
    x->sm_id = sm_id;
    if (exec_alloc(x) != 0) {
        exec_free(x);
        free(x);
        return NULL;
    }
    x->ev = xcalloc((size_t)x->n_slots * x->n_warps, sizeof *x->ev);
    x->ev_mark = xcalloc((size_t)x->n_slots * x->n_warps, 1);
    return (struct func_sm *)x;
}

void func_sm_destroy(struct func_sm *s)
{
    struct exec *x = (struct exec *)s;
    if (!x)
        return;
    exec_free(x);
    free(x->ev);
    free(x->ev_mark);
    free(x);
}

uint32_t func_sm_warps_per_cta(const struct func_sm *s) { return ((const struct exec *)s)->n_warps; }
int func_sm_error(const struct func_sm *s) { return ((const struct exec *)s)->err; }
const char *func_sm_error_text(const struct func_sm *s) { return ((const struct exec *)s)->errbuf; }

void func_sm_cta_start(struct func_sm *s, uint32_t slot, uint64_t lin)
{
    struct exec *x = (struct exec *)s;
    SIM_ASSERT(slot < x->n_slots && !x->ctas[slot].live, "func_sm: CTA slot %u busy", slot);
    cta_start(x, &x->ctas[slot], lin);
}

bool func_sm_cta_finished(const struct func_sm *s, uint32_t slot)
{
    const struct exec *x = (const struct exec *)s;
    return x->ctas[slot].live && x->ctas[slot].n_done == x->n_warps;
}

void func_sm_cta_release(struct func_sm *s, uint32_t slot)
{
    struct exec *x = (struct exec *)s;
    x->ctas[slot].live = false;
    x->st->ctas++;
}

uint32_t func_sm_warp_valid(const struct func_sm *s, uint32_t slot, uint32_t wid)
{
    const struct exec *x = (const struct exec *)s;
    return x->ctas[slot].warps[wid].valid;
}

int func_sm_warp_state(const struct func_sm *s, uint32_t slot, uint32_t wid)
{
    const struct exec *x = (const struct exec *)s;
    switch (x->ctas[slot].warps[wid].state) {
    case W_RUN: return FUNC_W_RUN;
    case W_BAR: return FUNC_W_BAR;
    default: return FUNC_W_DONE;
    }
}

void func_sm_warp_pc(const struct func_sm *s, uint32_t slot, uint32_t wid, uint32_t *func, uint32_t *pc)
{
    const struct exec *x = (const struct exec *)s;
    const struct warp *w = &x->ctas[slot].warps[wid];
    *func = w->fr[w->depth].fn->index;
    *pc = w->sp ? w->stk[w->sp - 1].pc : 0;
}

uint32_t func_sm_take_events(struct func_sm *s, uint32_t *out, uint32_t max)
{
    struct exec *x = (struct exec *)s;
    uint32_t n = x->n_ev < max ? x->n_ev : max;
    for (uint32_t i = 0; i < n; i++) {
        out[i] = x->ev[i];
        x->ev_mark[x->ev[i]] = 0;
    }
    memmove(x->ev, x->ev + n, (x->n_ev - n) * sizeof *x->ev);
    x->n_ev -= n;
    return n;
}

static uint8_t memop_space_of(unsigned sp)
{
    switch (sp) {
    case PTX_SPACE_SHARED: return MEMOP_SHARED;
    case PTX_SPACE_LOCAL: return MEMOP_LOCAL;
    case PTX_SPACE_CONST: return MEMOP_CONST;
    case PTX_SPACE_PARAM:
    case PTX_SPACE_ARGS: return MEMOP_PARAM;
    default: return MEMOP_GLOBAL;
    }
}

static uint8_t cache_op_of(const struct ptx_insn *in, uint32_t order)
{
    if (in->flags & PTX_F_VOLATILE)
        return COAL_CO_VOLATILE;
    if (order & MO_ORD_BYPASS_L1) /* .relaxed/.acquire at gpu scope read the L2 (docs/memmodel.md) */
        return COAL_CO_CV;
    switch (in->cache) {
    case PTX_CACHE_CG: return COAL_CO_CG;
    case PTX_CACHE_CS: return COAL_CO_CS;
    case PTX_CACHE_LU: return COAL_CO_LU;
    case PTX_CACHE_CV: return COAL_CO_CV;
    case PTX_CACHE_WT: return COAL_CO_WT;
    default: return COAL_CO_CA;
    }
}

int func_sm_issue(struct func_sm *s, uint32_t slot, uint32_t wid, struct memop *mo, struct func_issue *out)
{
    struct exec *x = (struct exec *)s;
    struct warp *w = &x->ctas[slot].warps[wid];
    SIM_ASSERT(w->state == W_RUN, "func_sm: issue of a warp that cannot run");
    const struct ptx_func *fn = w->fr[w->depth].fn;
    uint32_t pc = w->stk[w->sp - 1].pc;
    const struct ptx_insn *in = &fn->insns[pc];
    enum ptx_op op = (enum ptx_op)in->op;
    bool is_mem = op == PTX_OP_LD || op == PTX_OP_LDU || op == PTX_OP_ST || op == PTX_OP_ATOM || op == PTX_OP_RED;
    out->func = fn->index;
    out->pc = pc;
    out->mem = false;
    out->deferred = false;
    out->fence = op == PTX_OP_MEMBAR;
    if (is_mem) {
        x->mo = mo;
        x->mo_glob = x->mo_other = 0;
        x->mo_other_space = PTX_SPACE_GLOBAL;
    }
    warp_step(x, w);
    x->mo = NULL;
    if (is_mem && !x->err && (x->mo_glob | x->mo_other)) {
        bool glob = x->mo_glob != 0;
        unsigned es = ptx_type_bytes((enum ptx_type)in->type), nv = in->vec ? in->vec : 1;
        mo->warp = slot * x->n_warps + wid;
        mo->pc = pc;
        mo->space = glob ? MEMOP_GLOBAL : memop_space_of(x->mo_other_space);
        mo->active = glob ? x->mo_glob : x->mo_other;
        uint32_t order = glob ? ptx_insn_mem_order(in) : 0;
        mo->order = (uint8_t)order;
        mo->cache_op = cache_op_of(in, order);
        mo->aop = in->aop;
        mo->atype = in->type;
        mo->n_dst = 0;
        if (op == PTX_OP_ATOM || op == PTX_OP_RED) {
            mo->size = (uint8_t)es;
            mo->kind = glob ? (op == PTX_OP_ATOM ? MEMOP_ATOMIC : MEMOP_RED) : MEMOP_LOAD;
        } else {
            mo->size = (uint8_t)(es * nv);
            mo->kind = op == PTX_OP_ST ? MEMOP_STORE : MEMOP_LOAD;
        }
        out->mem = true;
        out->deferred = glob;
    }
    settle_top(x, w);
    return x->err;
}

void func_sm_mem_complete(struct func_sm *s, uint32_t func, const struct memop *op, const struct memop_result *res)
{
    struct exec *x = (struct exec *)s;
    uint32_t slot = op->warp / x->n_warps, wid = op->warp % x->n_warps;
    struct warp *w = &x->ctas[slot].warps[wid];
    /* The SM holds calls and returns until the warp's loads are back, so the
     * frame that issued the load is still the current one (an exited warp
     * keeps its registers until its CTA is released). */
    const struct frame *f = &w->fr[w->depth];
    SIM_ASSERT(f->fn->index == func, "func_sm: load completes in another frame");
    const struct ptx_insn *in = &f->fn->insns[op->pc];
    uint64_t *R = w->arena + f->reg_off;
    enum ptx_type t = (enum ptx_type)in->type;
    unsigned es = ptx_type_bytes(t);
    if (op->kind == MEMOP_ATOMIC) {
        if (in->n_dst == 0)
            return;
        for (uint32_t m = op->active; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            setv(R, &in->opnd[0], lane, fpu_extend(load_bytes(res->data[lane], es), t));
        }
        return;
    }
    if (op->kind != MEMOP_LOAD)
        return;
    for (uint32_t m = op->active; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        ld_write(R, in, lane, res->data[lane]);
    }
}

int func_sm_describe_warp(const struct func_sm *s, uint32_t slot, uint32_t wid, char *buf, size_t n)
{
    const struct exec *x = (const struct exec *)s;
    const struct cta *c = &x->ctas[slot];
    const struct warp *w = &c->warps[wid];
    const struct ptx_func *fn = w->fr[w->depth].fn;
    uint32_t pc = w->sp ? w->stk[w->sp - 1].pc : 0;
    char src[128] = "";
    if (pc < fn->n_insns && fn->insns[pc].src_file)
        snprintf(src, sizeof src, " (%s:%u)", x->mod->src_files[fn->insns[pc].src_file - 1].base,
                 fn->insns[pc].src_line);
    int k = snprintf(buf, n, "CTA (%u,%u,%u) warp %u: %s, pc %u line %u%s%s%s, SIMT stack [", c->id[0], c->id[1],
                     c->id[2], w->wid, w->state == W_RUN ? "running" : w->state == W_BAR ? "at barrier" : "exited",
                     pc, pc < fn->n_insns ? fn->insns[pc].line : 0, src, fn != x->kfn ? " in " : "",
                     fn != x->kfn ? fn->name : "");
    for (uint32_t i = 0; i < w->sp && k > 0 && (size_t)k < n; i++)
        k += snprintf(buf + k, n - (size_t)k, "%s{pc %u, rpc %d, mask 0x%08x}", i ? " " : "", w->stk[i].pc,
                      w->stk[i].rpc == UINT32_MAX ? -1 : (int)w->stk[i].rpc, w->stk[i].mask);
    if (k > 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k, "]");
    return k;
}

/* --------------------------------------------------------------- stats */
void func_stats_register(struct func_stats *s, struct stats *reg)
{
    const char *g = "func";
    stats_counter(reg, g, -1, "kernels", &s->kernels, "kernel launches completed");
    stats_counter(reg, g, -1, "ctas", &s->ctas, "CTAs completed");
    stats_counter(reg, g, -1, "warp_insts", &s->warp_insts, "warp instructions issued");
    stats_counter(reg, g, -1, "thread_insts", &s->thread_insts,
                  "thread instructions executed (active lanes with a true guard)");
    stats_counter(reg, g, -1, "int_insts", &s->int_insts, "thread instructions: integer/bit/predicate ALU");
    stats_counter(reg, g, -1, "fp32_insts", &s->fp32_insts, "thread instructions: fp32/f16 ALU");
    stats_counter(reg, g, -1, "fp64_insts", &s->fp64_insts, "thread instructions: fp64 ALU");
    stats_counter(reg, g, -1, "sfu_insts", &s->sfu_insts, "thread instructions: special-function (rcp, sqrt, ex2, div.f ...)");
    stats_counter(reg, g, -1, "ld_global", &s->ld_global, "thread loads from global memory");
    stats_counter(reg, g, -1, "st_global", &s->st_global, "thread stores to global memory");
    stats_counter(reg, g, -1, "ld_shared", &s->ld_shared, "thread loads from shared memory");
    stats_counter(reg, g, -1, "st_shared", &s->st_shared, "thread stores to shared memory");
    stats_counter(reg, g, -1, "ld_local", &s->ld_local, "thread loads from local memory");
    stats_counter(reg, g, -1, "st_local", &s->st_local, "thread stores to local memory");
    stats_counter(reg, g, -1, "ld_param", &s->ld_param, "thread loads from param space");
    stats_counter(reg, g, -1, "st_param", &s->st_param, "thread stores to param space");
    stats_counter(reg, g, -1, "ld_const", &s->ld_const, "thread loads from const space");
    stats_counter(reg, g, -1, "atomics", &s->atomics, "thread atomic and reduction operations");
    stats_counter(reg, g, -1, "branches", &s->branches, "warp branch instructions");
    stats_counter(reg, g, -1, "divergent_branches", &s->divergent_branches,
                  "warp branches that split the active mask");
    stats_counter(reg, g, -1, "barriers", &s->barriers, "warp barrier instructions");
    stats_counter(reg, g, -1, "calls", &s->calls, "warp calls to .func");
    stats_avg(reg, g, -1, "active_lanes", &s->active_lanes, "active lanes per warp instruction");
}
