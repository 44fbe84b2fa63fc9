/* sim/ptx/operand.c: the operands of one PTX instruction: literals
 * (including 0f/0d forms and negatives) as 64-bit bit patterns of the
 * operand's type, raw operands (registers, '!p', vectors, immediates,
 * special registers, variables, address expressions), the layout of
 * operand positions each shape expects, placing raw operands into IR
 * operands with their checks, and call argument and return lists.
 * Does not: check register widths against the instruction type (PTX lets
 * ld/st/cvt use wider registers; nvcc relies on it) or resolve call
 * targets (module.c).
 */
#include <math.h>
#include <string.h>

#include "sim/ptx/internal.h"

/* ------------------------------------------------------ literals */
static uint16_t f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xff);
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xff) /* inf / nan */
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
    int32_t e = exp - 127 + 15;
    if (e >= 0x1f)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) { /* subnormal or zero */
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13);
    uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++; /* may carry into the exponent, which is the correct rounding */
    return (uint16_t)(sign | h);
}

static uint64_t float_bits_for(double v, enum ptx_type type)
{
    if (type == PTX_T_F64) {
        uint64_t b;
        memcpy(&b, &v, 8);
        return b;
    }
    float f = (float)v;
    if (type == PTX_T_F16)
        return f32_to_f16(f);
    if (type == PTX_T_BF16) {
        uint32_t b;
        memcpy(&b, &f, 4);
        return (b + 0x7fffu + ((b >> 16) & 1)) >> 16;
    }
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

bool ptx_literal_bits(struct ptx_parser *ps, const struct ptx_tok *t, bool neg, enum ptx_type type,
                      uint64_t *bits)
{
    bool fl = ptx_type_is_float(type) && type != PTX_T_F16X2 && type != PTX_T_BF16X2;
    if (t->kind == TK_INT) {
        if (fl) {
            double v = (double)t->ival;
            *bits = float_bits_for(neg ? -v : v, type);
        } else {
            *bits = neg ? (uint64_t)0 - t->ival : t->ival;
        }
        return true;
    }
    if (t->kind != TK_FLOAT)
        return false;
    if (t->fwidth == 4) {
        uint32_t b = (uint32_t)t->ival ^ (neg ? 0x80000000u : 0);
        float f;
        memcpy(&f, &b, 4);
        *bits = (fl && type != PTX_T_F32) ? float_bits_for(f, type) : b;
        return true;
    }
    if (t->fwidth == 8) {
        uint64_t b = t->ival ^ (neg ? 0x8000000000000000ull : 0);
        double v;
        memcpy(&v, &b, 8);
        *bits = (fl && type != PTX_T_F64) ? float_bits_for(v, type) : b;
        return true;
    }
    if (!fl) {
        ptx_error(ps, t->line, t->col, "floating-point literal '%.*s' for a non-float operand",
                  (int)t->len, t->s);
        return false;
    }
    *bits = float_bits_for(neg ? -t->fval : t->fval, type);
    return true;
}

static int32_t sreg_lookup(const struct ptx_tok *t)
{
    for (int i = 0; i < PTX_SREG_COUNT; i++) {
        const char *n = ptx_sreg_name((enum ptx_sreg)i);
        if (strlen(n) == t->len && memcmp(n, t->s, t->len) == 0)
            return i;
    }
    return -1;
}

/* A name operand: register, variable/param, or something else (label,
 * function) returned as RAW_NAME. */
static bool parse_name(struct ptx_parser *ps, struct ptx_raw_opnd *r)
{
    struct ptx_tok t = ptx_take(ps);
    r->tok = t;
    if (t.len == 1 && t.s[0] == '_') {
        r->kind = RAW_SINK;
        return true;
    }
    if (t.s[0] == '%') {
        int32_t s = sreg_lookup(&t);
        if (s >= 0) {
            r->kind = RAW_SREG;
            r->sreg = (uint8_t)s;
            return true;
        }
    }
    int32_t si = ptx_sym_lookup(ps, t.s, t.len);
    if (si >= 0) {
        const struct psym *e = &ps->syms[si];
        if (e->kind == PSYM_MODVAR || e->kind == PSYM_FVAR || e->kind == PSYM_PARAM) {
            r->kind = RAW_SYM;
            r->psym = si;
            return true;
        }
        if (e->kind == PSYM_FUNC) {
            r->kind = RAW_NAME;
            return true;
        }
    }
    r->reg = ptx_reg_ref(ps, &t);
    r->kind = RAW_REG;
    return r->reg >= 0;
}

static bool parse_address(struct ptx_parser *ps, struct ptx_raw_opnd *r)
{
    r->tok = ptx_take(ps); /* '[' */
    r->kind = RAW_ADDR;
    r->reg = -1;
    r->psym = -1;
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (t->kind == TK_IDENT) {
        struct ptx_raw_opnd b;
        memset(&b, 0, sizeof b);
        if (!parse_name(ps, &b))
            return false;
        r->tok = b.tok; /* messages point at the register or variable */
        if (b.kind == RAW_REG) {
            r->reg = b.reg;
            if (ps->fn->regs[b.reg].is_pred) {
                ptx_error(ps, b.tok.line, b.tok.col, "predicate '%.*s' used as an address",
                          (int)b.tok.len, b.tok.s);
                return false;
            }
        } else if (b.kind == RAW_SYM) {
            r->psym = b.psym;
        } else {
            ptx_error(ps, b.tok.line, b.tok.col, "'%.*s' cannot be used as an address", (int)b.tok.len,
                      b.tok.s);
            return false;
        }
        t = ptx_peek(ps, 0);
        if (ptx_is_punct(t, '+') || ptx_is_punct(t, '-')) {
            bool neg = ptx_is_punct(t, '-');
            ptx_take(ps);
            if (ptx_is_punct(ptx_peek(ps, 0), '-')) {
                ptx_take(ps);
                neg = !neg;
            }
            t = ptx_peek(ps, 0);
            if (t->kind != TK_INT) {
                ptx_error(ps, t->line, t->col, "expected an integer offset in address, found '%.*s'",
                          (int)t->len, t->s);
                return false;
            }
            if (t->ival > (1ull << 62)) {
                ptx_error(ps, t->line, t->col, "address offset '%.*s' too large", (int)t->len, t->s);
                return false;
            }
            r->off = neg ? -(int64_t)t->ival : (int64_t)t->ival;
            ptx_take(ps);
        }
    } else if (t->kind == TK_INT || ptx_is_punct(t, '-')) {
        bool neg = false;
        if (ptx_is_punct(t, '-')) {
            ptx_take(ps);
            neg = true;
            t = ptx_peek(ps, 0);
        }
        if (t->kind != TK_INT || t->ival > (1ull << 62)) {
            ptx_error(ps, t->line, t->col, "bad absolute address '%.*s'", (int)t->len, t->s);
            return false;
        }
        r->off = neg ? -(int64_t)t->ival : (int64_t)t->ival;
        ptx_take(ps);
    } else {
        ptx_error(ps, t->line, t->col, "expected a register or variable in address, found '%.*s'",
                  (int)t->len, t->s);
        return false;
    }
    t = ptx_peek(ps, 0);
    if (!ptx_is_punct(t, ']')) {
        ptx_error(ps, t->line, t->col, "expected ']' to close address, found '%.*s'", (int)t->len, t->s);
        return false;
    }
    ptx_take(ps);
    return true;
}

static bool parse_vector(struct ptx_parser *ps, struct ptx_raw_opnd *r)
{
    r->tok = ptx_take(ps); /* '{' */
    r->kind = RAW_VEC;
    r->n = 0;
    for (;;) {
        const struct ptx_tok *t = ptx_peek(ps, 0);
        if (t->kind != TK_IDENT) {
            ptx_error(ps, t->line, t->col, "expected a register in vector operand, found '%.*s'",
                      (int)t->len, t->s);
            return false;
        }
        if (r->n == 4) {
            ptx_error(ps, t->line, t->col, "vector operand has more than 4 elements");
            return false;
        }
        struct ptx_tok e = ptx_take(ps);
        if (e.len == 1 && e.s[0] == '_') {
            r->vec[r->n++] = -1;
        } else {
            int32_t v = ptx_reg_ref(ps, &e);
            if (v < 0)
                return false;
            r->vec[r->n++] = v;
        }
        t = ptx_peek(ps, 0);
        if (ptx_is_punct(t, ',')) {
            ptx_take(ps);
            continue;
        }
        if (ptx_is_punct(t, '}')) {
            ptx_take(ps);
            break;
        }
        ptx_error(ps, t->line, t->col, "expected ',' or '}' in vector operand, found '%.*s'",
                  (int)t->len, t->s);
        return false;
    }
    if (r->n != 2 && r->n != 4) {
        ptx_error(ps, r->tok.line, r->tok.col, "vector operand must have 2 or 4 elements, has %u", r->n);
        return false;
    }
    return true;
}

bool ptx_parse_operand(struct ptx_parser *ps, struct ptx_raw_opnd *r)
{
    memset(r, 0, sizeof *r);
    r->reg = -1;
    r->psym = -1;
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (ptx_is_punct(t, '[')) {
        return parse_address(ps, r);
    }
    if (ptx_is_punct(t, '{'))
        return parse_vector(ps, r);
    if (ptx_is_punct(t, '!')) {
        ptx_take(ps);
        if (ptx_peek(ps, 0)->kind != TK_IDENT) {
            t = ptx_peek(ps, 0);
            ptx_error(ps, t->line, t->col, "expected a predicate after '!', found '%.*s'", (int)t->len,
                      t->s);
            return false;
        }
        if (!parse_name(ps, r))
            return false;
        if (r->kind != RAW_REG || !ps->fn->regs[r->reg].is_pred) {
            ptx_error(ps, r->tok.line, r->tok.col, "'!' applied to non-predicate '%.*s'",
                      (int)r->tok.len, r->tok.s);
            return false;
        }
        r->neg = true;
        return true;
    }
    if (ptx_is_punct(t, '-')) {
        ptx_take(ps);
        t = ptx_peek(ps, 0);
        if (t->kind != TK_INT && t->kind != TK_FLOAT) {
            ptx_error(ps, t->line, t->col, "expected a number after '-', found '%.*s'", (int)t->len, t->s);
            return false;
        }
        r->tok = ptx_take(ps);
        r->kind = RAW_IMM;
        r->neg = true;
        return true;
    }
    if (t->kind == TK_INT || t->kind == TK_FLOAT) {
        r->tok = ptx_take(ps);
        r->kind = RAW_IMM;
        return true;
    }
    if (t->kind == TK_IDENT)
        return parse_name(ps, r);
    if (t->kind == TK_EOF)
        ptx_error(ps, t->line, t->col, "expected an operand, found end of file");
    else if (t->kind != TK_ERROR)
        ptx_error(ps, t->line, t->col, "expected an operand, found '%.*s'", (int)t->len, t->s);
    return false;
}

/* ------------------------------------------------------ operand layout */
/* What one operand position accepts. */
enum slot_cls {
    K_DST,     /* register or '_' */
    K_DSTV,    /* register, vector, '_' (ld, mov) */
    K_SRC,     /* register, special register, immediate */
    K_SRCV,    /* register, vector, immediate (st, mov) */
    K_MOVSRC,  /* K_SRCV plus special registers and variables */
    K_SYMSRC,  /* register or variable (cvta) */
    K_PRED,    /* predicate source, '!' allowed */
    K_DPRED,   /* predicate destination or '_' */
    K_ADDR,    /* [address] */
    K_IMM,     /* immediate only */
    K_LABEL,   /* branch target */
};

static void lay(struct ptx_layout *l, uint8_t cls, enum ptx_type type)
{
    if (ALWAYS(l->n < PTX_MAX_OPNDS)) {
        l->s[l->n].cls = cls;
        l->s[l->n].type = (uint8_t)type;
        l->n++;
    }
}

/* The type of a layout position in lay_rules: the instruction's first or
 * second type modifier, or (any other value) that enum ptx_type itself. */
#define LT_T 0xfe
#define LT_T2 0xff

/* The operand positions that every instruction of a shape (or of one op of
 * it) expects, destinations first. ptx_build_layout adds the optional ones:
 * the predicate of a 'd|p' pair after the destinations (setp, shfl, match),
 * cvt's third operand, the swap value of atom.cas, the predicate combined
 * by setp/set with a boolean op, and the member mask of vote/shfl.sync.
 * SH_BAR depends on the mode and is laid out in code. */
struct lay_rule {
    uint8_t shape;           /* enum ptx_shape */
    int16_t op;              /* enum ptx_op this row is for; -1 = every op of the shape */
    uint8_t n_dst;           /* leading destinations */
    uint8_t n;               /* positions */
    struct ptx_slot s[5];    /* cls: enum slot_cls; type: LT_T, LT_T2 or enum ptx_type */
};

static const struct lay_rule lay_rules[] = {
    {SH_NONE, -1, 0, 0, {{0, 0}}},
    {SH_D, -1, 1, 1, {{K_DST, LT_T}}},
    {SH_A, PTX_OP_BAR_WARP, 0, 1, {{K_SRC, PTX_T_U32}}},
    {SH_A, -1, 0, 1, {{K_SRC, LT_T}}},
    {SH_DA, PTX_OP_POPC, 1, 2, {{K_DST, PTX_T_U32}, {K_SRC, LT_T}}},
    {SH_DA, PTX_OP_CLZ, 1, 2, {{K_DST, PTX_T_U32}, {K_SRC, LT_T}}},
    {SH_DA, PTX_OP_BFIND, 1, 2, {{K_DST, PTX_T_U32}, {K_SRC, LT_T}}},
    {SH_DA, -1, 1, 2, {{K_DST, LT_T}, {K_SRC, LT_T}}},
    {SH_MOV, -1, 1, 2, {{K_DSTV, LT_T}, {K_MOVSRC, LT_T}}},
    {SH_CVT, -1, 1, 2, {{K_DST, LT_T}, {K_SRC, LT_T2}}},
    {SH_CVTA, -1, 1, 2, {{K_DST, LT_T}, {K_SYMSRC, LT_T}}},
    {SH_DAB, PTX_OP_SHL, 1, 3, {{K_DST, LT_T}, {K_SRC, LT_T}, {K_SRC, PTX_T_U32}}},
    {SH_DAB, PTX_OP_SHR, 1, 3, {{K_DST, LT_T}, {K_SRC, LT_T}, {K_SRC, PTX_T_U32}}},
    {SH_DAB, -1, 1, 3, {{K_DST, LT_T}, {K_SRC, LT_T}, {K_SRC, LT_T}}},
    {SH_DABC, PTX_OP_SELP, 1, 4, {{K_DST, LT_T}, {K_SRC, LT_T}, {K_SRC, LT_T}, {K_PRED, PTX_T_PRED}}},
    {SH_DABC, PTX_OP_SLCT, 1, 4, {{K_DST, LT_T}, {K_SRC, LT_T}, {K_SRC, LT_T}, {K_SRC, LT_T2}}},
    {SH_DABC, PTX_OP_BFE, 1, 4, {{K_DST, LT_T}, {K_SRC, LT_T}, {K_SRC, PTX_T_U32}, {K_SRC, PTX_T_U32}}},
    {SH_DABC, PTX_OP_SHF, 1, 4, {{K_DST, LT_T}, {K_SRC, PTX_T_B32}, {K_SRC, PTX_T_B32}, {K_SRC, PTX_T_U32}}},
    {SH_DABC, PTX_OP_DP4A, 1, 4, {{K_DST, LT_T}, {K_SRC, LT_T}, {K_SRC, LT_T2}, {K_SRC, LT_T}}},
    {SH_DABC, PTX_OP_DP2A, 1, 4, {{K_DST, LT_T}, {K_SRC, LT_T}, {K_SRC, LT_T2}, {K_SRC, LT_T}}},
    {SH_DABC, -1, 1, 4, {{K_DST, LT_T}, {K_SRC, LT_T}, {K_SRC, LT_T}, {K_SRC, LT_T}}},
    {SH_DABCD, PTX_OP_LOP3, 1, 5,
     {{K_DST, LT_T}, {K_SRC, LT_T}, {K_SRC, LT_T}, {K_SRC, LT_T}, {K_IMM, PTX_T_U32}}},
    {SH_DABCD, -1, 1, 5, /* bfi */
     {{K_DST, LT_T}, {K_SRC, LT_T}, {K_SRC, LT_T}, {K_SRC, PTX_T_U32}, {K_SRC, PTX_T_U32}}},
    {SH_LD, -1, 1, 2, {{K_DSTV, LT_T}, {K_ADDR, PTX_T_U64}}},
    {SH_ST, -1, 0, 2, {{K_ADDR, PTX_T_U64}, {K_SRCV, LT_T}}},
    {SH_ATOM, -1, 1, 3, {{K_DST, LT_T}, {K_ADDR, PTX_T_U64}, {K_SRC, LT_T}}},
    {SH_RED, -1, 0, 2, {{K_ADDR, PTX_T_U64}, {K_SRC, LT_T}}},
    {SH_SETP, -1, 1, 3, {{K_DPRED, PTX_T_PRED}, {K_SRC, LT_T}, {K_SRC, LT_T}}},
    {SH_SET, -1, 1, 3, {{K_DST, LT_T}, {K_SRC, LT_T2}, {K_SRC, LT_T2}}},
    {SH_TESTP, PTX_OP_ISSPACEP, 1, 2, {{K_DPRED, PTX_T_PRED}, {K_SRC, PTX_T_U64}}},
    {SH_TESTP, -1, 1, 2, {{K_DPRED, PTX_T_PRED}, {K_SRC, LT_T}}},
    {SH_VOTE, -1, 1, 2, {{K_DST, LT_T}, {K_PRED, PTX_T_PRED}}}, /* d: K_DPRED for .pred */
    {SH_SHFL, -1, 1, 4, {{K_DST, LT_T}, {K_SRC, LT_T}, {K_SRC, PTX_T_U32}, {K_SRC, PTX_T_U32}}},
    {SH_MATCH, -1, 1, 3, {{K_DST, PTX_T_B32}, {K_SRC, LT_T}, {K_SRC, PTX_T_U32}}},
    {SH_REDUX, -1, 1, 3, {{K_DST, LT_T}, {K_SRC, LT_T}, {K_SRC, PTX_T_U32}}},
    {SH_BRA, -1, 0, 1, {{K_LABEL, PTX_T_NONE}}},
};

static const struct lay_rule *find_lay_rule(const struct ptx_op_desc *od)
{
    for (size_t i = 0; i < ARRAY_LEN(lay_rules); i++)
        if (lay_rules[i].shape == od->shape && (lay_rules[i].op < 0 || lay_rules[i].op == od->op))
            return &lay_rules[i];
    return NULL;
}

/* bar/barrier: a a[, b] for .sync/.arrive (b always for .arrive), and
 * d, a[, b], c for .red (d is a predicate for .pred). */
static void lay_bar(const struct ptx_insn *in, unsigned nraw, struct ptx_layout *l)
{
    if (in->mode == PTX_MODE_RED) {
        lay(l, in->type == PTX_T_PRED ? K_DPRED : K_DST, (enum ptx_type)in->type);
        lay(l, K_SRC, PTX_T_U32);
        if (nraw == 4)
            lay(l, K_SRC, PTX_T_U32);
        lay(l, K_PRED, PTX_T_PRED);
        l->n_dst = 1;
    } else {
        lay(l, K_SRC, PTX_T_U32);
        if (nraw == 2 || in->mode == PTX_MODE_ARRIVE)
            lay(l, K_SRC, PTX_T_U32);
    }
}

/* Build the expected layout for nraw raw operands (pipe pairs flattened;
 * piped1 = the second raw operand is the piped half). Returns false with
 * *why set when the count is impossible for the shape. */
bool ptx_build_layout(const struct ptx_insn *in, const struct ptx_op_desc *od, unsigned nraw,
                      bool piped1, struct ptx_layout *l, const char **why)
{
    enum ptx_type t = (enum ptx_type)in->type, t2 = (enum ptx_type)in->type2;
    memset(l, 0, sizeof *l);
    *why = NULL;
    if (od->shape == SH_BAR) {
        lay_bar(in, nraw, l);
        return true;
    }
    const struct lay_rule *r = find_lay_rule(od);
    if (!r) {
        *why = "internal: no layout";
        return false;
    }
    bool pipe = piped1 && (od->shape == SH_SETP || od->shape == SH_SHFL || od->shape == SH_MATCH);
    for (unsigned i = 0; i < r->n; i++) {
        if (pipe && i == r->n_dst)
            lay(l, K_DPRED, PTX_T_PRED); /* the 'p' of 'd|p' */
        uint8_t cls = r->s[i].cls;
        if (i == 0 && od->shape == SH_VOTE && in->type == PTX_T_PRED)
            cls = K_DPRED;
        uint8_t ty = r->s[i].type;
        lay(l, cls, ty == LT_T ? t : ty == LT_T2 ? t2 : (enum ptx_type)ty);
    }
    l->n_dst = r->n_dst + (pipe ? 1u : 0u);
    switch (od->shape) { /* optional trailing operands */
    case SH_CVT:
        if (nraw == 3)
            lay(l, K_SRC, t2);
        break;
    case SH_ATOM:
        if (in->aop == PTX_AOP_CAS)
            lay(l, K_SRC, t);
        break;
    case SH_SETP:
    case SH_SET:
        if (in->bop)
            lay(l, K_PRED, PTX_T_PRED);
        break;
    case SH_VOTE:
    case SH_SHFL:
        if (in->flags & PTX_F_SYNC)
            lay(l, K_SRC, PTX_T_U32);
        break;
    default:
        break;
    }
    return true;
}

/* Convert a raw operand into the IR operand for slot s. */
bool ptx_place_operand(struct ptx_parser *ps, struct ptx_insn *in, const struct ptx_raw_opnd *r,
                       const struct ptx_slot *s, struct ptx_operand *o, const char *opname)
{
    const struct ptx_func *fn = ps->fn;
    const struct ptx_tok *t = &r->tok;
    memset(o, 0, sizeof *o);
    o->reg = -1;
    o->sym = -1;
    bool want_pred = s->type == PTX_T_PRED; /* K_PRED/K_DPRED slots always have it */
    switch (r->kind) {
    case RAW_REG:
        if (s->cls == K_ADDR || s->cls == K_IMM || s->cls == K_LABEL)
            break;
        if (fn->regs[r->reg].is_pred != want_pred) {
            ptx_error(ps, t->line, t->col, "operand '%.*s' of '%s' must %sbe a predicate", (int)t->len,
                      t->s, opname, want_pred ? "" : "not ");
            return false;
        }
        if (r->neg && s->cls != K_PRED) {
            ptx_error(ps, t->line, t->col, "'!' not allowed on operand '%.*s'", (int)t->len, t->s);
            return false;
        }
        o->kind = PTX_OPND_REG;
        o->reg = r->reg;
        o->flags = r->neg ? PTX_OF_NOT : 0;
        return true;
    case RAW_SINK:
        if (s->cls != K_DST && s->cls != K_DSTV && s->cls != K_DPRED)
            break;
        o->kind = PTX_OPND_SINK;
        return true;
    case RAW_VEC:
        if (s->cls != K_DSTV && s->cls != K_SRCV && s->cls != K_MOVSRC)
            break;
        if (in->op != PTX_OP_MOV && r->n != in->vec) {
            ptx_error(ps, t->line, t->col, "vector operand has %u elements, '%s' needs %u", r->n, opname,
                      in->vec);
            return false;
        }
        for (unsigned i = 0; i < r->n; i++) {
            if (r->vec[i] >= 0 && fn->regs[r->vec[i]].is_pred) {
                ptx_error(ps, t->line, t->col, "predicate in vector operand of '%s'", opname);
                return false;
            }
            if (r->vec[i] < 0 && s->cls != K_DSTV) {
                ptx_error(ps, t->line, t->col, "'_' in a source vector of '%s'", opname);
                return false;
            }
        }
        o->kind = PTX_OPND_VEC;
        o->n = r->n;
        for (unsigned i = 0; i < 4; i++)
            o->vec[i] = i < r->n ? r->vec[i] : -1;
        return true;
    case RAW_IMM:
        if (s->cls != K_SRC && s->cls != K_SRCV && s->cls != K_MOVSRC && s->cls != K_IMM &&
            s->cls != K_PRED)
            break;
        if (s->cls == K_PRED && (t->kind != TK_INT || t->ival > 1 || r->neg))
            break;
        o->kind = PTX_OPND_IMM;
        return ptx_literal_bits(ps, t, r->neg, (enum ptx_type)s->type, &o->imm);
    case RAW_SREG:
        if (s->cls != K_SRC && s->cls != K_MOVSRC)
            break;
        o->kind = PTX_OPND_SREG;
        o->sreg = r->sreg;
        return true;
    case RAW_SYM:
    case RAW_ADDR: {
        if (r->kind == RAW_SYM && s->cls != K_MOVSRC && s->cls != K_SYMSRC)
            break;
        if (r->kind == RAW_ADDR && s->cls != K_ADDR)
            break;
        o->kind = r->kind == RAW_SYM ? PTX_OPND_SYM : PTX_OPND_ADDR;
        o->reg = r->reg;
        o->imm = (uint64_t)r->off;
        o->space = in->space;
        o->base = PTX_BASE_NONE;
        if (r->psym >= 0) {
            const struct psym *e = &ps->syms[r->psym];
            const struct ptx_var *var = NULL;
            o->sym = e->idx;
            if (e->kind == PSYM_PARAM) {
                o->space = PTX_SPACE_PARAM;
                o->base = PTX_BASE_STATIC;
            } else {
                if (e->kind == PSYM_MODVAR) {
                    var = &ps->m->vars[e->idx];
                    o->flags |= PTX_OF_MODSYM;
                } else {
                    var = &fn->vars[e->idx];
                }
                o->space = var->space;
                if (var->is_extern_array) {
                    o->base = PTX_BASE_DYNSHARED;
                    ps->fn->uses_dyn_shared = true;
                } else if (var->space == PTX_SPACE_GLOBAL || var->space == PTX_SPACE_CONST) {
                    o->base = PTX_BASE_MODVAR;
                } else {
                    o->base = PTX_BASE_STATIC;
                }
            }
            /* the instruction's space must match the symbol's (generic may
             * name any variable; .param covers call-site params too) */
            enum ptx_space is = (enum ptx_space)in->space;
            enum ptx_space vs = (enum ptx_space)o->space;
            bool ok = r->kind == RAW_SYM || is == PTX_SPACE_GENERIC || is == vs ||
                      (is == PTX_SPACE_PARAM && vs == PTX_SPACE_ARGS);
            if (!ok) {
                ptx_error(ps, t->line, t->col, "'%.*s' is a %s variable, but '%s' accesses %s",
                          (int)e->len, e->name, ptx_space_name(vs), opname, ptx_space_name(is));
                return false;
            }
        }
        return true;
    }
    case RAW_NAME:
        if (s->cls == K_LABEL) {
            o->kind = PTX_OPND_LABEL;
            return true;
        }
        break;
    default:
        break;
    }
    static const char *const cls_names[] = {
        [K_DST] = "a destination register", [K_DSTV] = "a destination register or vector",
        [K_SRC] = "a register or immediate", [K_SRCV] = "a register, vector or immediate",
        [K_MOVSRC] = "a register, immediate or variable", [K_SYMSRC] = "a register or variable",
        [K_PRED] = "a predicate", [K_DPRED] = "a destination predicate", [K_ADDR] = "an address",
        [K_IMM] = "an immediate", [K_LABEL] = "a label",
    };
    ptx_error(ps, t->line, t->col, "operand '%.*s' of '%s' must be %s", (int)t->len, t->s, opname,
              cls_names[s->cls]);
    return false;
}

/* ------------------------------------------------------ calls */
static bool parse_call_list(struct ptx_parser *ps, struct ptx_insn *in, bool rets, const char *opname)
{
    struct ptx_func *fn = ps->fn;
    ptx_take(ps); /* '(' */
    if (ptx_is_punct(ptx_peek(ps, 0), ')')) {
        ptx_take(ps);
        return true;
    }
    for (;;) {
        const struct ptx_tok *t = ptx_peek(ps, 0);
        struct ptx_raw_opnd r;
        if (t->kind != TK_IDENT) {
            ptx_error(ps, t->line, t->col, "expected a parameter name in call list, found '%.*s'",
                      (int)t->len, t->s);
            return false;
        }
        if (!ptx_parse_operand(ps, &r))
            return false;
        if (r.kind != RAW_SYM || (ps->syms[r.psym].kind != PSYM_PARAM &&
                                  fn->vars[ps->syms[r.psym].idx].space != PTX_SPACE_ARGS)) {
            ptx_error(ps, r.tok.line, r.tok.col,
                      "unsupported call argument '%.*s' (only .param variables)", (int)r.tok.len,
                      r.tok.s);
            return false;
        }
        struct ptx_operand o;
        struct ptx_slot s = {K_SYMSRC, PTX_T_NONE};
        if (!ptx_place_operand(ps, in, &r, &s, &o, opname))
            return false;
        *PTX_PUSH(fn->call_args, fn->n_call_args, ps->cargs_cap) = o;
        if (rets)
            in->call_n_ret++;
        else
            in->call_n_arg++;
        t = ptx_peek(ps, 0);
        if (ptx_is_punct(t, ',')) {
            ptx_take(ps);
            continue;
        }
        if (ptx_is_punct(t, ')')) {
            ptx_take(ps);
            return true;
        }
        ptx_error(ps, t->line, t->col, "expected ',' or ')' in call list, found '%.*s'", (int)t->len, t->s);
        return false;
    }
}

bool ptx_parse_call(struct ptx_parser *ps, struct ptx_insn *in, const char *opname)
{
    struct ptx_func *fn = ps->fn;
    in->call_first = fn->n_call_args;
    if (ptx_is_punct(ptx_peek(ps, 0), '(')) {
        if (!parse_call_list(ps, in, true, opname))
            return false;
        if (!ptx_is_punct(ptx_peek(ps, 0), ',')) {
            const struct ptx_tok *t = ptx_peek(ps, 0);
            ptx_error(ps, t->line, t->col, "expected ',' after call return list, found '%.*s'",
                      (int)t->len, t->s);
            return false;
        }
        ptx_take(ps);
    }
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (t->kind != TK_IDENT) {
        ptx_error(ps, t->line, t->col, "expected a function name in call, found '%.*s'", (int)t->len, t->s);
        return false;
    }
    struct ptx_tok name = ptx_take(ps);
    int32_t si = ptx_sym_lookup(ps, name.s, name.len);
    if (si >= 0 && ps->syms[si].kind != PSYM_FUNC) {
        ptx_error(ps, name.line, name.col, "unsupported indirect call through '%.*s'", (int)name.len,
                  name.s);
        return false;
    }
    if (ptx_is_punct(ptx_peek(ps, 0), ',')) {
        ptx_take(ps);
        if (!ptx_is_punct(ptx_peek(ps, 0), '(')) {
            t = ptx_peek(ps, 0);
            ptx_error(ps, t->line, t->col, "unsupported call form at '%.*s' (prototype or jump table)",
                      (int)t->len, t->s);
            return false;
        }
        if (!parse_call_list(ps, in, false, opname))
            return false;
        if (ptx_is_punct(ptx_peek(ps, 0), ',')) {
            t = ptx_peek(ps, 0);
            ptx_error(ps, t->line, t->col, "unsupported call form (prototype after arguments)");
            return false;
        }
    }
    struct pcall_ref *cr = PTX_PUSH(ps->crefs, ps->n_crefs, ps->crefs_cap);
    cr->func = fn->index;
    cr->insn = fn->n_insns; /* the index this instruction will get */
    cr->name = name.s;
    cr->len = name.len;
    cr->line = name.line;
    cr->col = name.col;
    return true;
}
