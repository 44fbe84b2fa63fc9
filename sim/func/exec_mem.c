/* sim/func/exec_mem.c: the functional executor's memory access paths:
 * resolution of an address in its space (mem_at: generic windows, bounds
 * and live-allocation checks for global/const, shared, local, param and
 * call-site param), ld/st/atom/red for the active lanes (performed at once
 * in functional mode; global lanes recorded in the issuing memop and
 * deferred in timing mode), the access counters and the observer hook, and
 * the generic-address conversions cvta/isspacep (layout in func.h).
 */
#include <inttypes.h>
#include <string.h>

#include "sim/mem/devmem.h"
#include "sim/func/exec_internal.h"
#include "sim/func/fpu.h"
#include "sim/func/func.h"
#include "sim/ptx/ir.h"
#include "sim/func/memop.h"

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
                exec_fault(x, w, lane, pc, "store to kernel parameter space through generic address 0x%" PRIx64, addr);
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
                exec_fault(x, w, lane, pc, "store to kernel parameter space at offset %" PRIu64, a);
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
        exec_fault(x, w, lane, pc, "out-of-bounds %s %s of %u bytes at address 0x%" PRIx64 "%s",
              space_word(sp), write ? "store" : "load", size, addr,
              sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_CONST ? " (no live allocation holds it)" : "");
    return p;
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

/* The lanes of m of a 4-byte scalar .shared load (NOTE(ld-shared-fast)),
 * lowest first, until one is misaligned or past top (shared bytes - 4):
 * the value into dp[lane] (sign-extended when sx), the offset into ma[lane]
 * (timing mode) and *last. Returns the lanes not done (the failing one and
 * those after it). has_ar and has_mo are constants in each instance. A
 * lane reads its own address register before it writes its destination,
 * so ld.shared %r, [%r] is right. */
static inline __attribute__((always_inline)) uint32_t ld_shared4(uint32_t m, const uint64_t *ar, uint64_t add,
                                                                 uint64_t top, const uint8_t *base, uint64_t *dp,
                                                                 uint64_t *ma, bool sx, uint64_t *last, bool has_ar,
                                                                 bool has_mo)
{
    uint64_t l = *last;
    for (; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctz(m);
        uint64_t a = (uint32_t)((has_ar ? ar[lane] : 0) + add);
        if (UNLIKELY((a & 3) != 0 || a > top))
            break;
        l = a;
        if (has_mo)
            ma[lane] = a;
        uint32_t v;
        memcpy(&v, base + a, 4);
        dp[lane] = sx ? (uint64_t)(int64_t)(int32_t)v : v;
    }
    *last = l;
    return m;
}

void exec_ld(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                    uint32_t pc, uint32_t g)
{
    const struct ptx_operand *ao = &in->opnd[in->n_dst];
    unsigned sp = access_space(in, ao), eff = sp;
    unsigned es = ptx_type_bytes((enum ptx_type)in->type), nv = in->vec ? in->vec : 1;
    unsigned tot = es * nv;
    uint32_t m = g;
    /* NOTE(ld-shared-fast): a .shared load (the commonest load of tiled
     * kernels) resolves each lane inline: the same wrap to 32 bits,
     * alignment and bounds checks as mem_at, no observer (it sees global
     * accesses only); the address register, the symbol offset and, for a
     * 4-byte scalar, the destination and its extension are looked up once
     * per instruction instead of once per lane. The first lane that fails a
     * check leaves the loop and the general one below reports it exactly as
     * before. Session 36: the 4-byte scalar form runs in ld_shared4, one
     * instance per (address register, timing memop), with the bounds as one
     * comparison and the last offset kept in a register; sgemm's lanes went
     * from 38 host instructions to about 14. */
    if (sp == PTX_SPACE_SHARED && (tot & (tot - 1)) == 0 && x->shared_bytes >= tot) { /* power-of-two size */
        uint8_t *base = w->cta->shared;
        const uint64_t lim = x->shared_bytes;
        const uint64_t *ar = ao->reg >= 0 ? R + (size_t)ao->reg * FUNC_WARP : NULL;
        const uint64_t add = ao->base == PTX_BASE_NONE ? ao->imm : sym_base(x, w, ao);
        const struct ptx_operand *d = &in->opnd[0];
        struct memop *mo = x->mo;
        const uint32_t m0 = m;
        uint64_t last = 0;
        if (d->kind == PTX_OPND_REG && tot == 4) {
            uint64_t *dp = R + (size_t)d->reg * FUNC_WARP;
            const bool sx = ptx_type_is_signed((enum ptx_type)in->type);
            uint64_t *ma = mo ? mo->addr : NULL;
            m = ar ? (mo ? ld_shared4(m, ar, add, lim - 4, base, dp, ma, sx, &last, true, true)
                         : ld_shared4(m, ar, add, lim - 4, base, dp, ma, sx, &last, true, false))
                   : (mo ? ld_shared4(m, ar, add, lim - 4, base, dp, ma, sx, &last, false, true)
                         : ld_shared4(m, ar, add, lim - 4, base, dp, ma, sx, &last, false, false));
        } else {
            for (; m; m &= m - 1) {
                int lane = __builtin_ctz(m);
                uint64_t a = (uint32_t)((ar ? ar[lane] : 0) + add);
                if (UNLIKELY((a & (tot - 1)) != 0 || a > lim - tot))
                    break;
                last = a;
                if (mo)
                    mo->addr[lane] = a;
                ld_write(R, in, lane, base + a);
            }
        }
        uint32_t done = m0 ^ m; /* the lanes before the first that failed (m keeps it and those after) */
        if (done) {
            x->last_off = last;
            if (mo) { /* mo_note for the lanes done (not deferred: shared) */
                x->mo_other |= done;
                x->mo_other_space = PTX_SPACE_SHARED;
            }
        }
    }
    /* NOTE(ld-param-fast): a kernel-parameter load whose address has no
     * register (ld.param [name+imm], the form nvcc emits) reads the same
     * bytes in every lane: bounds are checked once and the lanes written
     * from one pointer; the memop notes and counters are those of the
     * general loop (param space is performed at issue). A scalar register
     * destination gets the value read and extended once (session 36). */
    if (sp == PTX_SPACE_PARAM && m && ao->reg < 0 && w->depth == 0) {
        const uint64_t a = ao->base == PTX_BASE_NONE ? ao->imm : sym_base(x, w, ao);
        const uint64_t lim = x->kfn->param_bytes;
        if (a < lim && tot <= lim - a) {
            const uint8_t *p = (const uint8_t *)(uintptr_t)x->l->params + a;
            struct memop *mo = x->mo;
            x->last_off = a;
            if (mo) { /* every lane reads a: one address (NOTE(param-uniform) in memop.h) */
                x->mo_other |= m;
                x->mo_other_space = PTX_SPACE_PARAM;
                x->mo_uniform = true;
                mo->addr[0] = a;
            }
            const struct ptx_operand *d = &in->opnd[0];
            if (d->kind == PTX_OPND_REG) { /* one value for every lane: read and extended once */
                const enum ptx_type t = (enum ptx_type)in->type;
                const uint64_t v = fpu_extend(load_bytes(p, ptx_type_bytes(t)), t);
                uint64_t *dp = R + (size_t)d->reg * FUNC_WARP;
                for (; m; m &= m - 1)
                    dp[__builtin_ctz(m)] = v;
            }
            for (; m; m &= m - 1) {
                int lane = __builtin_ctz(m);
                ld_write(R, in, lane, p);
            }
        }
    }
    /* NOTE(ld-global-fast): an ld.global without an observer resolves its
     * lanes inline, with the address register and the offset looked up
     * once per instruction: a lane inside the device block of the last
     * global access (x->gcache) costs an add and the alignment and bounds
     * checks; another block is looked up as mem_at does (devmem_find) and
     * becomes the cached one. In timing mode a global lane is only
     * recorded (deferred to the LD/ST unit, as mo_note does); in
     * functional mode its value is copied. A misaligned lane or one that
     * no live block holds leaves the loop, and the general one below
     * reports it exactly as before. */
    if (sp == PTX_SPACE_GLOBAL && m && (tot & (tot - 1)) == 0 && !x->obs) {
        const struct devmem *dm = x->l->mem;
        const struct devmem_block *b =
            x->gcache >= 0 && (size_t)x->gcache < dm->n ? &dm->blocks[x->gcache] : NULL;
        const uint64_t *ar = ao->reg >= 0 ? R + (size_t)ao->reg * FUNC_WARP : NULL;
        const uint64_t add = ao->base == PTX_BASE_NONE ? ao->imm : sym_base(x, w, ao);
        struct memop *mo = x->mo;
        uint32_t done = 0;
        for (; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            uint64_t a = (ar ? ar[lane] : 0) + add;
            if (UNLIKELY((a & (tot - 1)) != 0))
                break;
            uint64_t off = b ? a - b->addr : 0;
            if (UNLIKELY(!b || a < b->addr || off >= b->size || tot > b->size - off)) {
                long i = devmem_find(dm, a, tot);
                if (i < 0)
                    break;
                x->gcache = i;
                b = &dm->blocks[i];
                off = a - b->addr;
            }
            x->last_off = a;
            done |= 1u << lane;
            if (mo)
                mo->addr[lane] = a;
            else
                ld_write(R, in, lane, b->data + off);
        }
        if (mo)
            x->mo_glob |= done;
    }
    for (; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t a = addr_of(x, w, R, ao, lane);
        if (UNLIKELY(a % tot != 0 && sp != PTX_SPACE_PARAM && sp != PTX_SPACE_ARGS)) {
            exec_fault(x, w, lane, pc, "misaligned %s load of %u bytes at address 0x%" PRIx64,
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

void exec_st(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
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
            exec_fault(x, w, lane, pc, "misaligned %s store of %u bytes at address 0x%" PRIx64,
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

void exec_atom(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
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
            exec_fault(x, w, lane, pc, "misaligned atomic of %u bytes at address 0x%" PRIx64, es, a);
            return;
        }
        uint8_t *p = mem_at(x, w, lane, pc, in->space, a, es, true, &eff);
        if (!p)
            return;
        if (eff == PTX_SPACE_LOCAL || eff == PTX_SPACE_PARAM) {
            exec_fault(x, w, lane, pc, "atomic on %s space address 0x%" PRIx64, space_word(eff), a);
            return;
        }
        if (UNLIKELY(x->obs != NULL) && eff == PTX_SPACE_GLOBAL)
            obs_access(x, w, lane, a, es, FUNC_OBS_ATOMIC);
        if (x->mo && mo_note(x, eff, lane)) { /* deferred: performed at L2 in lane order */
            bool bad = false;
            fpu_atomic((enum ptx_aop)in->aop, (enum ptx_type)in->type, 0, 0, 0, false, &bad);
            if (bad) {
                exec_fault(x, w, lane, pc, "unsupported atomic operation %s on type %s",
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
            exec_fault(x, w, lane, pc, "unsupported atomic operation %s on type %s",
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

/* ------------------------------------------------- generic address windows */
void exec_cvta(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
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

void exec_isspacep(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
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
