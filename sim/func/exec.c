/* sim/func/exec.c: the functional executor's instruction dispatcher
 * (exec_warp_step: one warp instruction for its active lanes) and the ALU
 * paths (setp/set, carry chains, mov pack/unpack, the fpu_eval fallback and
 * the specialised fast loops), plus the registration of the func.* counters.
 * Model description and address layout in func.h; the other parts of the
 * executor are listed in exec_internal.h.
 *
 * Per warp: registers as slot-major arrays regs[slot * 32 + lane] of 64-bit
 * values (one array per call frame, carved from a per-warp arena; the
 * instructions run are the front end's copy renamed to slots, fn->xinsns,
 * NOTE(reg-slots) in sim/ptx/passes/slots.c), a SIMT
 * stack of {pc, reconvergence pc, mask} entries shared by all frames (each
 * frame owns the entries from its stack_base up), and a carry bit per lane
 * for add.cc/addc.
 *
 * SIMT stack rules (spec/baseline-gpu.md 2.3): a divergent branch sets the
 * top entry's pc to the reconvergence pc and pushes the fall-through and the
 * taken path with that reconvergence pc; an entry whose pc reaches its
 * reconvergence pc is popped. Lanes that exit (or ret from a .func) are
 * removed from every entry of the affected frames; empty entries are
 * popped; a frame whose entries are all gone returns to its caller
 * (exec_simt.c).
 *
 * Hot path: the instruction is a pre-decoded struct, operands are read by
 * kind with a switch that predicts well across the 32 lanes (opv/setv,
 * inline in exec_internal.h), and nothing is allocated except when a call
 * frame needs more arena than any before it.
 */
#include <math.h>
#include <string.h>

#include "sim/func/exec_internal.h"
#include "sim/func/fpu.h"
#include "sim/func/func.h"
#include "sim/ptx/ir.h"
#include "sim/base/stats.h"

/* ------------------------------------------------------------ ALU paths */
/* The values of source operand o for the lanes of g, as an array indexed
 * by lane: the register's own row when o is a plain register, else tmp
 * filled lane by lane. NOTE(exec-src-rows): the fast paths below index rows
 * instead of switching on the operand kind for every lane and operand.
 * Lanes are independent (each reads its own sources before its own
 * destination is written), so a destination that is also a source is
 * read and written lane by lane exactly as before. */
static inline const uint64_t *src_row(struct exec *x, struct warp *w, const uint64_t *R,
                                      const struct ptx_operand *o, uint32_t g, uint64_t *tmp)
{
    if (o->kind == PTX_OPND_REG && !(o->flags & PTX_OF_NOT))
        return R + (size_t)o->reg * FUNC_WARP;
    if (o->kind == PTX_OPND_IMM) { /* every lane (the inactive ones are never read): no lane search */
        for (unsigned lane = 0; lane < FUNC_WARP; lane++)
            tmp[lane] = o->imm;
        return tmp;
    }
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        tmp[lane] = opv(x, w, R, o, lane);
    }
    return tmp;
}

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
    /* NOTE(setp-int-fast): an integer setp without a boolean operand
     * compares keys per lane with the comparison picked once per
     * instruction instead of calling fpu_compare: the value masked to its
     * width, or, for .lt/.le/.gt/.ge of a signed type, sign-extended with
     * the sign bit flipped, so that one unsigned comparison gives the
     * signed order (fpu_compare: .lo/.ls/.hi/.hs are unsigned for any
     * type, .eq/.ne compare the masked values). */
    if (in->op == PTX_OP_SETP && in->bop == PTX_BOOL_NONE && t >= PTX_T_B8 && t <= PTX_T_S64) {
        enum ptx_cmp c = (enum ptx_cmp)in->cmp;
        int k = c == PTX_CMP_EQ ? 0 : c == PTX_CMP_NE ? 1
              : c == PTX_CMP_LT || c == PTX_CMP_LO ? 2 : c == PTX_CMP_LE || c == PTX_CMP_LS ? 3
              : c == PTX_CMP_GT || c == PTX_CMP_HI ? 4 : c == PTX_CMP_GE || c == PTX_CMP_HS ? 5 : -1;
        if (k >= 0) {
            const bool sk = ptx_type_is_signed(t) && c >= PTX_CMP_LT && c <= PTX_CMP_GE;
            const unsigned bits = ptx_type_bytes(t) * 8u;
            const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
            const uint64_t flip = 1ull << 63;
            /* source rows read once (src_row), one loop per comparison;
             * a destination that is not a register (the sink) writes to
             * scratch. The second destination gets the negation. */
            uint64_t t0[FUNC_WARP], t1[FUNC_WARP], sink[FUNC_WARP];
            const uint64_t *pa = src_row(x, w, R, &s[0], g, t0), *pb = src_row(x, w, R, &s[1], g, t1);
            uint64_t *r0 = in->opnd[0].kind == PTX_OPND_REG ? R + (size_t)in->opnd[0].reg * FUNC_WARP : sink;
#define SETP_INT_LOOP(OP)                                                            \
    for (uint32_t m = g; m; m &= m - 1) {                                            \
        int lane = __builtin_ctz(m);                                                 \
        uint64_t ka = sk ? fpu_extend(pa[lane], t) ^ flip : pa[lane] & mask;         \
        uint64_t kb = sk ? fpu_extend(pb[lane], t) ^ flip : pb[lane] & mask;         \
        r0[lane] = ka OP kb;                                                         \
    }
            switch (k) {
            case 0: SETP_INT_LOOP(==) break;
            case 1: SETP_INT_LOOP(!=) break;
            case 2: SETP_INT_LOOP(<) break;
            case 3: SETP_INT_LOOP(<=) break;
            case 4: SETP_INT_LOOP(>) break;
            default: SETP_INT_LOOP(>=) break;
            }
#undef SETP_INT_LOOP
            if (in->n_dst > 1 && in->opnd[1].kind == PTX_OPND_REG) {
                uint64_t *r1 = R + (size_t)in->opnd[1].reg * FUNC_WARP;
                for (uint32_t m = g; m; m &= m - 1) {
                    int lane = __builtin_ctz(m);
                    r1[lane] = !r0[lane];
                }
            }
            return;
        }
    }
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

/* NOTE(mov-sreg): mov of a special register into a register, the
 * prologue of nearly every kernel (tid, ntid, ctaid): the per-lane path
 * switched on the operand kind and the special register for every lane,
 * and divided for the thread index. Values that are the same in every
 * lane are computed once; the thread index components walk the warp's
 * linear thread ids with a carry (x wraps at ntid.x into y, y at ntid.y
 * into z), the values sreg_value gives. Others (lane masks) take the
 * per-lane path: false. */
static bool exec_mov_sreg(struct exec *x, struct warp *w, uint64_t *dp, unsigned sr, uint32_t g)
{
    switch (sr) {
    case PTX_SREG_TID_X:
    case PTX_SREG_TID_Y:
    case PTX_SREG_TID_Z: {
        const struct func_launch *l = x->l;
        const uint32_t bx = l->block[0], by = l->block[1];
        uint32_t lin = lane_lin(w, 0);
        uint32_t tx = lin % bx, ty = lin / bx % by, tz = lin / (bx * by);
        uint64_t row[FUNC_WARP];
        for (unsigned lane = 0; lane < FUNC_WARP; lane++) {
            row[lane] = sr == PTX_SREG_TID_X ? tx : sr == PTX_SREG_TID_Y ? ty : tz;
            if (++tx == bx) {
                tx = 0;
                if (++ty == by) {
                    ty = 0;
                    tz++;
                }
            }
        }
        for (uint32_t m = g; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctz(m);
            dp[lane] = row[lane];
        }
        return true;
    }
    case PTX_SREG_LANEID:
        for (uint32_t m = g; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctz(m);
            dp[lane] = lane;
        }
        return true;
    case PTX_SREG_LANEMASK_EQ:
    case PTX_SREG_LANEMASK_LE:
    case PTX_SREG_LANEMASK_LT:
    case PTX_SREG_LANEMASK_GE:
    case PTX_SREG_LANEMASK_GT:
        return false;
    default: { /* the same in every lane */
        const uint64_t v = sreg_value(x, w, sr, 0);
        for (uint32_t m = g; m; m &= m - 1)
            dp[__builtin_ctz(m)] = v;
        return true;
    }
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
    if (s->kind == PTX_OPND_SREG && d->kind == PTX_OPND_REG && exec_mov_sreg(x, w, R + (size_t)d->reg * FUNC_WARP,
                                                                           s->sreg, g))
        return;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        setv(R, d, lane, opv(x, w, R, s, lane));
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
            exec_fault(x, w, lane, pc, "unsupported instruction %s%s", ptx_op_name((enum ptx_op)in->op),
                  ptx_type_name((enum ptx_type)in->type));
            return;
        }
        setv(R, d, lane, r);
    }
}

/* NOTE(hw-fma): fmaf() is a library call per lane (through the PLT; glibc
 * then picks its FMA version). On hosts with the FMA extension the fp32
 * fma loop is compiled for it instead: one vfmadd per lane, no call. A
 * fused multiply-add is exactly rounded (IEEE 754), so both give the same
 * bits on every host; only the speed differs. */
static inline __attribute__((always_inline)) uint64_t fma_lane(uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b, uc = (uint32_t)c, ur;
    float fa, fb, fc, fr;
    memcpy(&fa, &ua, 4);
    memcpy(&fb, &ub, 4);
    memcpy(&fc, &uc, 4);
    fr = __builtin_fmaf(fa, fb, fc);
    memcpy(&ur, &fr, 4);
    return fr != fr ? 0x7fffffffu : ur;
}

static inline __attribute__((always_inline)) void fma_lanes(uint64_t *dp, const uint64_t *pa, const uint64_t *pb,
                                                           const uint64_t *pc, uint32_t g)
{
    if (g == ~0u) { /* every lane (the common case): no lane search, a loop the compiler can unroll */
        for (unsigned lane = 0; lane < 32; lane++)
            dp[lane] = fma_lane(pa[lane], pb[lane], pc[lane]);
        return;
    }
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        dp[lane] = fma_lane(pa[lane], pb[lane], pc[lane]);
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
/* the same loop, inlined into a function compiled for the FMA extension */
__attribute__((target("fma"))) static void fma_lanes_hw(uint64_t *dp, const uint64_t *pa, const uint64_t *pb,
                                                         const uint64_t *pc, uint32_t g)
{
    fma_lanes(dp, pa, pb, pc, g);
}

bool exec_host_fma(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma");
}
#else
/* never called (exec_host_fma is false), but correct if it were */
static void fma_lanes_hw(uint64_t *dp, const uint64_t *pa, const uint64_t *pb, const uint64_t *pc, uint32_t g)
{
    fma_lanes(dp, pa, pb, pc, g);
}

bool exec_host_fma(void)
{
    return false;
}
#endif

/* NOTE(exec-int-fast): the integer forms that compilers emit around
 * address arithmetic (mul/mad .lo and .wide, min/max, not, shr, selp and
 * integer-to-integer cvt) with fpu_eval's semantics, one loop over operand
 * rows per instruction instead of a generic evaluation per lane (in bfs
 * about one warp instruction in ten took the generic path, at some 150
 * host instructions per lane). Same values as fpu_eval bit for bit: the
 * sources are the raw 64-bit slots, sign- or zero-extended with
 * fpu_extend where fpu_eval does, and an integer result is cut to the
 * type's width unless .wide; selp and cvt return as fpu_eval does. The
 * caller has checked a register destination and no flags but a hint, so
 * .sat, .relu, .hi and the carry forms never come here. Returns false when
 * the form is not one of these. */
static bool exec_fast_int_lanes(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                                uint32_t g, uint64_t *dp)
{
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    enum ptx_type t = (enum ptx_type)in->type;
    uint64_t t0[FUNC_WARP], t1[FUNC_WARP], t2[FUNC_WARP];
    if (in->op == PTX_OP_SELP) { /* any type: fpu_eval returns the chosen slot as it is */
        if (in->n_src != 3)
            return false;
        const uint64_t *pa = src_row(x, w, R, &s[0], g, t0), *pb = src_row(x, w, R, &s[1], g, t1);
        const uint64_t *pc = src_row(x, w, R, &s[2], g, t2);
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            dp[lane] = (pc[lane] & 1) ? pa[lane] : pb[lane];
        }
        return true;
    }
    /* scalar integer types only (packed and float forms keep fpu_eval);
     * a predicate only for not */
    bool scalar = t >= PTX_T_B8 && t <= PTX_T_S64;
    if (!(scalar || (t == PTX_T_PRED && in->op == PTX_OP_NOT)))
        return false;
    static const uint8_t n_src_of[PTX_OP_COUNT] = {[PTX_OP_CVT] = 1, [PTX_OP_NOT] = 1, [PTX_OP_MUL] = 2,
                                                   [PTX_OP_MIN] = 2, [PTX_OP_MAX] = 2, [PTX_OP_SHR] = 2,
                                                   [PTX_OP_MAD] = 3};
    if (in->n_src != n_src_of[in->op])
        return false;
    const unsigned wb = fpu_type_bits(t);
    const uint64_t msk = wb >= 64 ? ~0ull : (1ull << wb) - 1;
    const bool sg = ptx_type_is_signed(t);
    switch (in->op) {
    case PTX_OP_CVT: {
        enum ptx_type st = (enum ptx_type)in->type2;
        if (st < PTX_T_B8 || st > PTX_T_S64)
            return false;
        const uint64_t *pa = src_row(x, w, R, &s[0], g, t0);
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            dp[lane] = fpu_extend(fpu_extend(pa[lane], st), t);
        }
        return true;
    }
    case PTX_OP_MUL:
    case PTX_OP_MAD: {
        if (in->mode != PTX_MODE_NONE && in->mode != PTX_MODE_LO && in->mode != PTX_MODE_WIDE)
            return false;
        const uint64_t fin = in->mode == PTX_MODE_WIDE ? ~0ull : msk;
        const uint64_t *pa = src_row(x, w, R, &s[0], g, t0), *pb = src_row(x, w, R, &s[1], g, t1);
        if (in->op == PTX_OP_MUL) {
            for (uint32_t m = g; m; m &= m - 1) {
                int lane = __builtin_ctz(m);
                dp[lane] = (fpu_extend(pa[lane], t) * fpu_extend(pb[lane], t)) & fin;
            }
        } else {
            const uint64_t *pc = src_row(x, w, R, &s[2], g, t2);
            for (uint32_t m = g; m; m &= m - 1) {
                int lane = __builtin_ctz(m);
                dp[lane] = (fpu_extend(pa[lane], t) * fpu_extend(pb[lane], t) + pc[lane]) & fin;
            }
        }
        return true;
    }
    case PTX_OP_MIN:
    case PTX_OP_MAX: {
        const bool mn = in->op == PTX_OP_MIN;
        const uint64_t *pa = src_row(x, w, R, &s[0], g, t0), *pb = src_row(x, w, R, &s[1], g, t1);
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            uint64_t r;
            if (sg) {
                int64_t sa = (int64_t)fpu_extend(pa[lane], t), sb = (int64_t)fpu_extend(pb[lane], t);
                r = (uint64_t)(mn == (sa < sb) ? sa : sb);
            } else {
                uint64_t a = pa[lane] & msk, b = pb[lane] & msk;
                r = mn == (a < b) ? a : b;
            }
            dp[lane] = r & msk;
        }
        return true;
    }
    case PTX_OP_NOT: {
        const uint64_t *pa = src_row(x, w, R, &s[0], g, t0);
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            dp[lane] = t == PTX_T_PRED ? (pa[lane] & 1) ^ 1 : ~pa[lane] & msk;
        }
        return true;
    }
    case PTX_OP_SHR: {
        const uint64_t *pa = src_row(x, w, R, &s[0], g, t0), *pb = src_row(x, w, R, &s[1], g, t1);
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            uint32_t n = (uint32_t)pb[lane];
            uint64_t r;
            if (sg)
                r = (uint64_t)((int64_t)fpu_extend(pa[lane], t) >> (n >= wb ? wb - 1 : n));
            else
                r = n >= wb ? 0 : (pa[lane] & msk) >> n;
            dp[lane] = r & msk;
        }
        return true;
    }
    default:
        return false;
    }
}

static bool exec_fast_int(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in, uint32_t g,
                          uint64_t *dp)
{
#ifdef GPUSIM_PARANOID
    /* every lane against fpu_eval, from the sources before the write (the
     * destination may be a source) */
    uint64_t want[FUNC_WARP];
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t v[4] = {0, 0, 0, 0};
        bool bad = false;
        for (unsigned k = 0; k < in->n_src && k < 4; k++)
            v[k] = opv(x, w, R, &s[k], lane);
        want[lane] = fpu_eval(in, v, &bad);
    }
    if (!exec_fast_int_lanes(x, w, R, in, g, dp))
        return false;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        if (dp[lane] != want[lane])
            sim_panic("exec: fast %s%s lane %d gives 0x%llx, fpu_eval 0x%llx (NOTE(exec-int-fast))",
                      ptx_op_name((enum ptx_op)in->op), ptx_type_name((enum ptx_type)in->type), lane,
                      (unsigned long long)dp[lane], (unsigned long long)want[lane]);
    }
    return true;
#else
    return exec_fast_int_lanes(x, w, R, in, g, dp);
#endif
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
    switch (in->op) {
    case PTX_OP_CVT:
    case PTX_OP_MIN:
    case PTX_OP_MAX:
    case PTX_OP_NOT:
    case PTX_OP_SHR:
    case PTX_OP_SELP:
        return exec_fast_int(x, w, R, in, g, dp);
    case PTX_OP_MUL:
    case PTX_OP_MAD:
        if (!ptx_type_is_float((enum ptx_type)in->type))
            return exec_fast_int(x, w, R, in, g, dp);
        break;
    default:
        break;
    }
    unsigned tb = ptx_type_bytes((enum ptx_type)in->type);
    bool isf = ptx_type_is_float((enum ptx_type)in->type);
    if (isf && (in->type != PTX_T_F32 || (in->rnd != PTX_RND_NONE && in->rnd != PTX_RND_RN)))
        return false;
    uint64_t t0[FUNC_WARP], t1[FUNC_WARP], t2[FUNC_WARP];
    switch (in->op) {
    case PTX_OP_ADD:
    case PTX_OP_SUB:
    case PTX_OP_AND:
    case PTX_OP_OR:
    case PTX_OP_XOR: {
        if (isf && in->op != PTX_OP_ADD && in->op != PTX_OP_SUB)
            return false;
        if (!isf && tb < 4 && !(tb == 1 && in->type == PTX_T_PRED))
            return false;
        const uint64_t *pa = src_row(x, w, R, &s[0], g, t0), *pb = src_row(x, w, R, &s[1], g, t1);
        if (isf) {
            const bool add = in->op == PTX_OP_ADD;
            for (uint32_t m = g; m; m &= m - 1) {
                int lane = __builtin_ctz(m);
                float fa, fb, fr;
                uint32_t ua = (uint32_t)pa[lane], ub = (uint32_t)pb[lane], ur;
                memcpy(&fa, &ua, 4);
                memcpy(&fb, &ub, 4);
                fr = add ? fa + fb : fa - fb;
                memcpy(&ur, &fr, 4);
                dp[lane] = fr != fr ? 0x7fffffffu : ur;
            }
            return true;
        }
        /* integer: one loop per operation, the result cut to the type's
         * width (a predicate to its bit); with every lane active no lane
         * search (session 36) */
        const uint64_t wm = tb == 4 ? 0xffffffffu : tb == 1 ? 1u : ~0ull;
#define INT2_LOOP(expr)                                                                                      \
    do {                                                                                                     \
        if (g == ~0u) {                                                                                      \
            for (unsigned lane = 0; lane < FUNC_WARP; lane++) {                                              \
                uint64_t a = pa[lane], b = pb[lane];                                                         \
                dp[lane] = (expr) & wm;                                                                      \
            }                                                                                                \
        } else {                                                                                             \
            for (uint32_t m = g; m; m &= m - 1) {                                                            \
                int lane = __builtin_ctz(m);                                                                 \
                uint64_t a = pa[lane], b = pb[lane];                                                         \
                dp[lane] = (expr) & wm;                                                                      \
            }                                                                                                \
        }                                                                                                    \
    } while (0)
        switch (in->op) {
        case PTX_OP_ADD: INT2_LOOP(a + b); break;
        case PTX_OP_SUB: INT2_LOOP(a - b); break;
        case PTX_OP_AND: INT2_LOOP(a & b); break;
        case PTX_OP_OR: INT2_LOOP(a | b); break;
        default: INT2_LOOP(a ^ b); break;
        }
#undef INT2_LOOP
        return true;
    }
    case PTX_OP_FMA:
    case PTX_OP_MUL: {
        if (!isf)
            return false;
        const uint64_t *pa = src_row(x, w, R, &s[0], g, t0), *pb = src_row(x, w, R, &s[1], g, t1);
        const uint64_t *pc = in->op == PTX_OP_FMA ? src_row(x, w, R, &s[2], g, t2) : NULL;
        if (pc && x->hw_fma) {
            fma_lanes_hw(dp, pa, pb, pc, g);
            return true;
        }
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            uint32_t ua = (uint32_t)pa[lane], ub = (uint32_t)pb[lane], ur;
            float fa, fb, fr;
            memcpy(&fa, &ua, 4);
            memcpy(&fb, &ub, 4);
            if (pc) {
                uint32_t uc = (uint32_t)pc[lane];
                float fc;
                memcpy(&fc, &uc, 4);
                fr = fmaf(fa, fb, fc);
            } else
                fr = fa * fb;
            memcpy(&ur, &fr, 4);
            dp[lane] = fr != fr ? 0x7fffffffu : ur;
        }
        return true;
    }
    case PTX_OP_SHL: {
        if (tb != 4 && tb != 8)
            return false;
        const uint64_t *pa = src_row(x, w, R, &s[0], g, t0), *pb = src_row(x, w, R, &s[1], g, t1);
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            uint64_t a = pa[lane];
            uint32_t n = (uint32_t)pb[lane];
            uint64_t r = n >= tb * 8 ? 0 : a << n;
            dp[lane] = tb == 4 ? r & 0xffffffffu : r;
        }
        return true;
    }
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
/* NOTE(reg-prefetch): the register rows of the warp's next instruction
 * (its guard, sources and destinations, 256 bytes each) are asked into the
 * host cache as soon as this instruction is done, since the warp often
 * issues again within a few cycles (gto) and its rows are otherwise cold:
 * 15 SMs' warps keep megabytes of registers (sgemm small: 14 warps an SM
 * at about 70 registers, some 3.8 MB), more than a core's L2; perf had
 * 72 % of fma_lanes_hw's samples on the load of a source row.
 * A hint only: no value depends on it. */
static inline void prefetch_next(const struct warp *w)
{
    if (w->sp == 0)
        return;
    const struct frame *f = &w->fr[w->depth];
    uint32_t pc = w->stk[w->sp - 1].pc;
    if (pc >= f->fn->n_insns)
        return;
    const struct ptx_insn *in = &f->fn->xinsns[pc]; /* NOTE(reg-slots) */
    const uint64_t *R = w->arena + f->reg_off;
    if (in->guard >= 0)
        __builtin_prefetch(R + (size_t)in->guard * FUNC_WARP);
    unsigned n = (unsigned)in->n_dst + in->n_src;
    for (unsigned i = 0; i < n && i < PTX_MAX_OPNDS; i++) {
        const struct ptx_operand *o = &in->opnd[i];
        if (o->kind != PTX_OPND_REG)
            continue;
        const char *row = (const char *)(R + (size_t)o->reg * FUNC_WARP);
        for (unsigned b = 0; b < FUNC_WARP * sizeof(uint64_t); b += 64)
            __builtin_prefetch(row + b);
    }
}

enum step_result exec_warp_step(struct exec *x, struct warp *w)
{
    struct func_stats *st = x->st;
    struct frame *f = &w->fr[w->depth];
    struct simt_ent *top = &w->stk[w->sp - 1];
    uint32_t pc = top->pc;
    if (pc == top->rpc) {
        w->sp--;
        exec_settle(x, w);
        return STEP_CONT;
    }
    const struct ptx_func *fn = f->fn;
    if (UNLIKELY(pc >= fn->n_insns)) { /* fell off the end: implicit ret/exit */
        exec_lanes_leave(x, w, top->mask, w->depth == 0);
        return STEP_CONT;
    }
    const struct ptx_insn *in = &fn->xinsns[pc]; /* NOTE(reg-slots) */
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
            exec_lanes_leave(x, w, g, true);
        break;
    case PTX_OP_RET:
        if (g)
            exec_lanes_leave(x, w, g, w->depth == 0);
        break;
    case PTX_OP_CALL:
        if (!g)
            break;
        if (g != mask) { /* guarded call: run it on a sub-entry */
            if (!stk_push(x, w, pc, pc + 1, g))
                return STEP_YIELD;
            break;
        }
        exec_do_call(x, w, in, pc, g);
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
            exec_fault(x, w, __builtin_ctz(g), pc, "trap instruction executed");
        break;
    case PTX_OP_BRKPT:
        if (g)
            exec_fault(x, w, __builtin_ctz(g), pc, "brkpt instruction executed");
        break;
    default:
        if (!exec_fast(x, w, R, in, g))
            exec_alu(x, w, R, in, pc, g);
        break;
    }
    prefetch_next(w);
    return STEP_CONT;
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
