/* sim/ptx/insn.c: decoding of one PTX instruction into a struct ptx_insn.
 *
 * Does: split the opcode word into base mnemonic and modifiers, map every
 * modifier to its enum field (type, space, comparison, boolean combine,
 * atomic op, op-specific mode, rounding, memory semantics/scope, cache
 * operator, vector width, flags), parse operands (registers, '!p',
 * 'd|p' pairs, vectors, immediates including 0f/0d and negatives, special
 * registers, variables, address expressions, labels, call lists), check
 * the operand count and kind for the instruction's shape, and convert
 * immediates to 64-bit bit patterns of the operand's type.
 * Does not: check register widths against the instruction type (PTX lets
 * ld/st/cvt use wider registers; nvcc relies on it), check every
 * modifier combination the ISA forbids, lay out variables (module.c adds
 * their offsets afterwards) or resolve call targets (module.c).
 */
#include <math.h>
#include <string.h>

#include "sim/ptx/internal.h"

/* --------------------------------------------------------- word tables */
enum ptx_type ptx_type_from_word(const char *s, uint32_t len)
{
    for (int t = PTX_T_PRED; t < PTX_T_COUNT; t++) {
        const char *n = ptx_type_name((enum ptx_type)t);
        if (strlen(n) == len && memcmp(n, s, len) == 0)
            return (enum ptx_type)t;
    }
    return PTX_T_NONE;
}

enum ptx_space ptx_space_from_word(const char *s, uint32_t len)
{
    static const struct {
        const char *w;
        enum ptx_space sp;
    } tab[] = {
        {".global", PTX_SPACE_GLOBAL},         {".shared", PTX_SPACE_SHARED},
        {".shared::cta", PTX_SPACE_SHARED},    {".local", PTX_SPACE_LOCAL},
        {".param", PTX_SPACE_PARAM},           {".param::entry", PTX_SPACE_PARAM},
        {".param::func", PTX_SPACE_PARAM},     {".const", PTX_SPACE_CONST},
    };
    for (size_t i = 0; i < ARRAY_LEN(tab); i++)
        if (strlen(tab[i].w) == len && memcmp(tab[i].w, s, len) == 0)
            return tab[i].sp;
    return PTX_SPACE_GENERIC;
}

/* ------------------------------------------------------ opcode table */
/* Operand shapes. */
enum shape {
    SH_NONE,   /* no operands */
    SH_D,      /* d */
    SH_A,      /* a */
    SH_DA,     /* d, a */
    SH_DAB,    /* d, a, b */
    SH_DABC,   /* d, a, b, c */
    SH_DABCD,  /* d, a, b, c, e */
    SH_MOV,    /* d, a (vectors, sregs, symbols allowed) */
    SH_CVT,    /* d, a [, b] */
    SH_CVTA,   /* d, a (a may be a symbol) */
    SH_LD,     /* d, [a] */
    SH_ST,     /* [a], b */
    SH_ATOM,   /* d, [a], b [, c] */
    SH_RED,    /* [a], b */
    SH_SETP,   /* p[|q], a, b [, c] */
    SH_SET,    /* d, a, b [, c] */
    SH_TESTP,  /* p, a */
    SH_BAR,    /* a [, b] | d, a [, b], c */
    SH_VOTE,   /* d, a [, mask] */
    SH_SHFL,   /* d[|p], a, b, c [, mask] */
    SH_MATCH,  /* d[|p], a, mask */
    SH_REDUX,  /* d, a, mask */
    SH_BRA,    /* label */
    SH_CALL,   /* call lists */
};

/* Modifier categories an opcode accepts. */
enum {
    C_TYPE = 1u << 0,
    C_SPACE = 1u << 1,
    C_CMP = 1u << 2,
    C_BOOL = 1u << 3,
    C_AOP = 1u << 4,
    C_MODE = 1u << 5,
    C_RND = 1u << 6,
    C_SEM = 1u << 7,
    C_CACHE = 1u << 8,
    C_VEC = 1u << 9,
    C_HINT = 1u << 10,
};

struct op_desc {
    const char *name;  /* base mnemonic */
    uint8_t op;        /* enum ptx_op */
    uint8_t shape;     /* enum shape */
    uint8_t tmin, tmax; /* number of type modifiers */
    uint16_t cats;     /* C_* */
    uint32_t flags_ok; /* PTX_F_* accepted */
};

#define FP_FL (PTX_F_FTZ | PTX_F_SAT)
static const struct op_desc op_table[] = {
    {"mov", PTX_OP_MOV, SH_MOV, 1, 1, C_TYPE, 0},
    {"ld", PTX_OP_LD, SH_LD, 1, 1, C_TYPE | C_SPACE | C_SEM | C_CACHE | C_VEC | C_HINT,
     PTX_F_VOLATILE | PTX_F_NC},
    {"ldu", PTX_OP_LDU, SH_LD, 1, 1, C_TYPE | C_SPACE | C_VEC, 0},
    {"st", PTX_OP_ST, SH_ST, 1, 1, C_TYPE | C_SPACE | C_SEM | C_CACHE | C_VEC | C_HINT,
     PTX_F_VOLATILE},
    {"cvta", PTX_OP_CVTA, SH_CVTA, 1, 1, C_TYPE | C_SPACE, PTX_F_CVTA_TO},
    {"cvt", PTX_OP_CVT, SH_CVT, 2, 2, C_TYPE | C_RND, FP_FL | PTX_F_RELU},
    {"add", PTX_OP_ADD, SH_DAB, 1, 1, C_TYPE | C_RND, FP_FL | PTX_F_CC},
    {"sub", PTX_OP_SUB, SH_DAB, 1, 1, C_TYPE | C_RND, FP_FL | PTX_F_CC},
    {"mul", PTX_OP_MUL, SH_DAB, 1, 1, C_TYPE | C_RND | C_MODE, FP_FL},
    {"mad", PTX_OP_MAD, SH_DABC, 1, 1, C_TYPE | C_RND | C_MODE, FP_FL | PTX_F_CC},
    {"mul24", PTX_OP_MUL24, SH_DAB, 1, 1, C_TYPE | C_MODE, 0},
    {"mad24", PTX_OP_MAD24, SH_DABC, 1, 1, C_TYPE | C_MODE, PTX_F_SAT},
    {"sad", PTX_OP_SAD, SH_DABC, 1, 1, C_TYPE, 0},
    {"div", PTX_OP_DIV, SH_DAB, 1, 1, C_TYPE | C_RND, PTX_F_FTZ | PTX_F_APPROX | PTX_F_FULL},
    {"rem", PTX_OP_REM, SH_DAB, 1, 1, C_TYPE, 0},
    {"abs", PTX_OP_ABS, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ},
    {"neg", PTX_OP_NEG, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ},
    {"min", PTX_OP_MIN, SH_DAB, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_RELU | PTX_F_NAN | PTX_F_XORSIGN},
    {"max", PTX_OP_MAX, SH_DAB, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_RELU | PTX_F_NAN | PTX_F_XORSIGN},
    {"addc", PTX_OP_ADDC, SH_DAB, 1, 1, C_TYPE, PTX_F_CC},
    {"subc", PTX_OP_SUBC, SH_DAB, 1, 1, C_TYPE, PTX_F_CC},
    {"madc", PTX_OP_MADC, SH_DABC, 1, 1, C_TYPE | C_MODE, PTX_F_CC},
    {"and", PTX_OP_AND, SH_DAB, 1, 1, C_TYPE, 0},
    {"or", PTX_OP_OR, SH_DAB, 1, 1, C_TYPE, 0},
    {"xor", PTX_OP_XOR, SH_DAB, 1, 1, C_TYPE, 0},
    {"not", PTX_OP_NOT, SH_DA, 1, 1, C_TYPE, 0},
    {"cnot", PTX_OP_CNOT, SH_DA, 1, 1, C_TYPE, 0},
    {"shl", PTX_OP_SHL, SH_DAB, 1, 1, C_TYPE, 0},
    {"shr", PTX_OP_SHR, SH_DAB, 1, 1, C_TYPE, 0},
    {"shf", PTX_OP_SHF, SH_DABC, 1, 1, C_TYPE | C_MODE, PTX_F_WRAP},
    {"bfe", PTX_OP_BFE, SH_DABC, 1, 1, C_TYPE, 0},
    {"bfi", PTX_OP_BFI, SH_DABCD, 1, 1, C_TYPE, 0},
    {"brev", PTX_OP_BREV, SH_DA, 1, 1, C_TYPE, 0},
    {"popc", PTX_OP_POPC, SH_DA, 1, 1, C_TYPE, 0},
    {"clz", PTX_OP_CLZ, SH_DA, 1, 1, C_TYPE, 0},
    {"bfind", PTX_OP_BFIND, SH_DA, 1, 1, C_TYPE, PTX_F_SHIFTAMT},
    {"prmt", PTX_OP_PRMT, SH_DABC, 1, 1, C_TYPE | C_MODE, 0},
    {"lop3", PTX_OP_LOP3, SH_DABCD, 1, 1, C_TYPE, 0},
    {"dp4a", PTX_OP_DP4A, SH_DABC, 2, 2, C_TYPE, 0},
    {"dp2a", PTX_OP_DP2A, SH_DABC, 2, 2, C_TYPE | C_MODE, 0},
    {"setp", PTX_OP_SETP, SH_SETP, 1, 1, C_TYPE | C_CMP | C_BOOL, PTX_F_FTZ},
    {"selp", PTX_OP_SELP, SH_DABC, 1, 1, C_TYPE, 0},
    {"set", PTX_OP_SET, SH_SET, 2, 2, C_TYPE | C_CMP | C_BOOL, PTX_F_FTZ},
    {"slct", PTX_OP_SLCT, SH_DABC, 2, 2, C_TYPE, PTX_F_FTZ},
    {"fma", PTX_OP_FMA, SH_DABC, 1, 1, C_TYPE | C_RND, FP_FL | PTX_F_RELU},
    {"rcp", PTX_OP_RCP, SH_DA, 1, 1, C_TYPE | C_RND, PTX_F_FTZ | PTX_F_APPROX},
    {"sqrt", PTX_OP_SQRT, SH_DA, 1, 1, C_TYPE | C_RND, PTX_F_FTZ | PTX_F_APPROX},
    {"rsqrt", PTX_OP_RSQRT, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_APPROX},
    {"sin", PTX_OP_SIN, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_APPROX},
    {"cos", PTX_OP_COS, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_APPROX},
    {"lg2", PTX_OP_LG2, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_APPROX},
    {"ex2", PTX_OP_EX2, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_APPROX},
    {"tanh", PTX_OP_TANH, SH_DA, 1, 1, C_TYPE, PTX_F_APPROX},
    {"testp", PTX_OP_TESTP, SH_TESTP, 1, 1, C_TYPE | C_MODE, 0},
    {"copysign", PTX_OP_COPYSIGN, SH_DAB, 1, 1, C_TYPE, 0},
    {"bar", PTX_OP_BAR, SH_BAR, 0, 1, C_TYPE | C_MODE | C_AOP, PTX_F_ALIGNED},
    {"barrier", PTX_OP_BAR, SH_BAR, 0, 1, C_TYPE | C_MODE | C_AOP, PTX_F_ALIGNED},
    {"membar", PTX_OP_MEMBAR, SH_NONE, 0, 0, C_SEM, 0},
    {"fence", PTX_OP_MEMBAR, SH_NONE, 0, 0, C_SEM, 0},
    {"atom", PTX_OP_ATOM, SH_ATOM, 1, 1, C_TYPE | C_SPACE | C_AOP | C_SEM | C_HINT, PTX_F_NOFTZ},
    {"red", PTX_OP_RED, SH_RED, 1, 1, C_TYPE | C_SPACE | C_AOP | C_SEM | C_HINT, PTX_F_NOFTZ},
    {"vote", PTX_OP_VOTE, SH_VOTE, 1, 1, C_TYPE | C_MODE, PTX_F_SYNC},
    {"shfl", PTX_OP_SHFL, SH_SHFL, 1, 1, C_TYPE | C_MODE, PTX_F_SYNC},
    {"activemask", PTX_OP_ACTIVEMASK, SH_D, 1, 1, C_TYPE, 0},
    {"match", PTX_OP_MATCH, SH_MATCH, 1, 1, C_TYPE | C_MODE, PTX_F_SYNC},
    {"redux", PTX_OP_REDUX, SH_REDUX, 1, 1, C_TYPE | C_AOP, PTX_F_SYNC},
    {"isspacep", PTX_OP_ISSPACEP, SH_TESTP, 0, 0, C_SPACE, 0},
    {"nanosleep", PTX_OP_NANOSLEEP, SH_A, 1, 1, C_TYPE, 0},
    {"bra", PTX_OP_BRA, SH_BRA, 0, 0, 0, PTX_F_UNI},
    {"call", PTX_OP_CALL, SH_CALL, 0, 0, 0, PTX_F_UNI},
    {"ret", PTX_OP_RET, SH_NONE, 0, 0, 0, PTX_F_UNI},
    {"exit", PTX_OP_EXIT, SH_NONE, 0, 0, 0, 0},
    {"trap", PTX_OP_TRAP, SH_NONE, 0, 0, 0, 0},
    {"brkpt", PTX_OP_BRKPT, SH_NONE, 0, 0, 0, 0},
};

/* Valid PTX instructions this front-end does not decode. */
static const char *const unsupported_ops[] = {
    "tex", "tld4", "txq", "suld", "sust", "sured", "suq", "mma", "wmma", "ldmatrix", "stmatrix",
    "cp", "brx", "prefetch", "prefetchu", "applypriority", "discard", "createpolicy", "mbarrier",
    "griddepcontrol", "elect", "setmaxnreg", "multimem", "tensormap", "istypep", "alloca",
    "stacksave", "stackrestore", "getctarank", "mapa", "pmevent", "fns", "szext", "bmsk", "cvt.pack",
    "wgmma", "tcgen05", "clusterlaunchcontrol", "st.async", "red.async", "movmatrix", "ldu.v8",
    "vabsdiff", "vadd", "vsub", "vmad", "vmin", "vmax", "vset", "vshl", "vshr", "vavrg2", "vabsdiff2",
    "vabsdiff4", "vadd2", "vadd4", "vsub2", "vsub4", "vset2", "vset4", "vmin2", "vmax2",
};

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

/* ------------------------------------------------------ raw operands */
enum raw_kind { RAW_REG, RAW_VEC, RAW_IMM, RAW_SREG, RAW_ADDR, RAW_SYM, RAW_NAME, RAW_SINK };

struct raw_opnd {
    uint8_t kind;     /* enum raw_kind */
    bool neg;         /* '!' on a register, '-' on an immediate */
    bool piped;       /* second half of 'a|b' */
    uint8_t n;        /* vector elements */
    int32_t reg;      /* RAW_REG / ADDR base, -1 none */
    int32_t vec[4];
    int32_t psym;     /* RAW_SYM / ADDR symbol: index into ps->syms, -1 none */
    uint8_t sreg;
    int64_t off;      /* ADDR offset */
    struct ptx_tok tok; /* first token (position, literal) */
};

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
static bool parse_name(struct ptx_parser *ps, struct raw_opnd *r)
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

static bool parse_address(struct ptx_parser *ps, struct raw_opnd *r)
{
    r->tok = ptx_take(ps); /* '[' */
    r->kind = RAW_ADDR;
    r->reg = -1;
    r->psym = -1;
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (t->kind == TK_IDENT) {
        struct raw_opnd b;
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

static bool parse_vector(struct ptx_parser *ps, struct raw_opnd *r)
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

static bool parse_operand(struct ptx_parser *ps, struct raw_opnd *r)
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

/* ------------------------------------------------------ modifiers */
struct word_val {
    const char *w;
    uint8_t v;
};

static int word_lookup(const struct word_val *tab, size_t n, const char *s, uint32_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(tab[i].w) == len && memcmp(tab[i].w, s, len) == 0)
            return tab[i].v;
    return -1;
}
#define LOOKUP(tab, s, len) word_lookup(tab, ARRAY_LEN(tab), s, len)

static const struct word_val cmp_words[] = {
    {".eq", PTX_CMP_EQ},   {".ne", PTX_CMP_NE},   {".lt", PTX_CMP_LT},   {".le", PTX_CMP_LE},
    {".gt", PTX_CMP_GT},   {".ge", PTX_CMP_GE},   {".lo", PTX_CMP_LO},   {".ls", PTX_CMP_LS},
    {".hi", PTX_CMP_HI},   {".hs", PTX_CMP_HS},   {".equ", PTX_CMP_EQU}, {".neu", PTX_CMP_NEU},
    {".ltu", PTX_CMP_LTU}, {".leu", PTX_CMP_LEU}, {".gtu", PTX_CMP_GTU}, {".geu", PTX_CMP_GEU},
    {".num", PTX_CMP_NUM}, {".nan", PTX_CMP_NAN},
};
static const struct word_val bool_words[] = {
    {".and", PTX_BOOL_AND}, {".or", PTX_BOOL_OR}, {".xor", PTX_BOOL_XOR}};
static const struct word_val aop_words[] = {
    {".add", PTX_AOP_ADD}, {".min", PTX_AOP_MIN},   {".max", PTX_AOP_MAX}, {".inc", PTX_AOP_INC},
    {".dec", PTX_AOP_DEC}, {".cas", PTX_AOP_CAS},   {".exch", PTX_AOP_EXCH}, {".and", PTX_AOP_AND},
    {".or", PTX_AOP_OR},   {".xor", PTX_AOP_XOR},   {".popc", PTX_AOP_POPC},
};
static const struct word_val rnd_words[] = {
    {".rn", PTX_RND_RN},   {".rz", PTX_RND_RZ},   {".rm", PTX_RND_RM},   {".rp", PTX_RND_RP},
    {".rni", PTX_RND_RNI}, {".rzi", PTX_RND_RZI}, {".rmi", PTX_RND_RMI}, {".rpi", PTX_RND_RPI},
    {".rna", PTX_RND_RNA},
};
static const struct word_val sem_words[] = {
    {".relaxed", PTX_SEM_RELAXED}, {".acquire", PTX_SEM_ACQUIRE}, {".release", PTX_SEM_RELEASE},
    {".acq_rel", PTX_SEM_ACQ_REL}, {".sc", PTX_SEM_SC},           {".weak", PTX_SEM_NONE},
};
static const struct word_val scope_words[] = {
    {".cta", PTX_SCOPE_CTA}, {".cluster", PTX_SCOPE_CLUSTER}, {".gpu", PTX_SCOPE_GPU},
    {".sys", PTX_SCOPE_SYS}, {".gl", PTX_SCOPE_GPU},
};
static const struct word_val cache_words[] = {
    {".ca", PTX_CACHE_CA}, {".cg", PTX_CACHE_CG}, {".cs", PTX_CACHE_CS}, {".lu", PTX_CACHE_LU},
    {".cv", PTX_CACHE_CV}, {".wb", PTX_CACHE_WB}, {".wt", PTX_CACHE_WT},
};
static const struct word_val mul_modes[] = {
    {".lo", PTX_MODE_LO}, {".hi", PTX_MODE_HI}, {".wide", PTX_MODE_WIDE}};
static const struct word_val vote_modes[] = {
    {".all", PTX_MODE_ALL}, {".any", PTX_MODE_ANY}, {".uni", PTX_MODE_UNI}, {".ballot", PTX_MODE_BALLOT}};
static const struct word_val shfl_modes[] = {
    {".up", PTX_MODE_UP}, {".down", PTX_MODE_DOWN}, {".bfly", PTX_MODE_BFLY}, {".idx", PTX_MODE_IDX}};
static const struct word_val bar_modes[] = {
    {".sync", PTX_MODE_SYNC}, {".arrive", PTX_MODE_ARRIVE}, {".red", PTX_MODE_RED}};
static const struct word_val testp_modes[] = {
    {".finite", PTX_MODE_FINITE},         {".infinite", PTX_MODE_INFINITE},
    {".number", PTX_MODE_NUMBER},         {".notanumber", PTX_MODE_NOTANUMBER},
    {".normal", PTX_MODE_NORMAL},         {".subnormal", PTX_MODE_SUBNORMAL},
};
static const struct word_val prmt_modes[] = {
    {".f4e", PTX_MODE_F4E}, {".b4e", PTX_MODE_B4E}, {".rc8", PTX_MODE_RC8},
    {".ecl", PTX_MODE_ECL}, {".ecr", PTX_MODE_ECR}, {".rc16", PTX_MODE_RC16}};
static const struct word_val match_modes[] = {{".any", PTX_MODE_ANY}, {".all", PTX_MODE_ALL}};
static const struct word_val shf_modes[] = {{".l", PTX_MODE_SHF_L}, {".r", PTX_MODE_SHF_R}};
static const struct word_val flag_words[] = {
    {".ftz", 0}, {".sat", 1}, {".approx", 2}, {".full", 3}, {".volatile", 4}, {".nc", 5},
    {".uni", 6}, {".sync", 7}, {".cc", 8}, {".aligned", 9}, {".shiftamt", 10}, {".wrap", 11},
    {".to", 12}, {".noftz", 14}, {".relu", 15}, {".NaN", 18}, {".xorsign", 19},
};

/* Apply one modifier word to in; false and an error when invalid. */
static bool apply_modifier(struct ptx_parser *ps, struct ptx_insn *in, const struct op_desc *od,
                           const char *w, uint32_t len, unsigned *ntypes, const struct ptx_tok *optok)
{
    int v;
    enum ptx_type ty = ptx_type_from_word(w, len);
    if (ty != PTX_T_NONE && (od->cats & C_TYPE)) {
        if (*ntypes >= 2 || *ntypes >= od->tmax)
            goto bad;
        if ((*ntypes)++ == 0)
            in->type = (uint8_t)ty;
        else
            in->type2 = (uint8_t)ty;
        return true;
    }
    if (od->cats & C_SPACE) {
        enum ptx_space sp = ptx_space_from_word(w, len);
        if (sp != PTX_SPACE_GENERIC) {
            if (in->space)
                goto bad;
            in->space = (uint8_t)sp;
            return true;
        }
    }
    if ((od->cats & C_CMP) && !in->cmp && (v = LOOKUP(cmp_words, w, len)) >= 0) {
        in->cmp = (uint8_t)v;
        return true;
    }
    if ((od->cats & C_BOOL) && (v = LOOKUP(bool_words, w, len)) >= 0) {
        in->bop = (uint8_t)v;
        return true;
    }
    if ((od->cats & C_AOP) && !in->aop && (v = LOOKUP(aop_words, w, len)) >= 0) {
        in->aop = (uint8_t)v;
        return true;
    }
    if ((od->cats & C_MODE) && !in->mode) {
        v = -1;
        switch (od->op) {
        case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24: case PTX_OP_MADC:
        case PTX_OP_DP2A:
            v = LOOKUP(mul_modes, w, len);
            break;
        case PTX_OP_VOTE: v = LOOKUP(vote_modes, w, len); break;
        case PTX_OP_SHFL: v = LOOKUP(shfl_modes, w, len); break;
        case PTX_OP_BAR: v = LOOKUP(bar_modes, w, len); break;
        case PTX_OP_TESTP: v = LOOKUP(testp_modes, w, len); break;
        case PTX_OP_PRMT: v = LOOKUP(prmt_modes, w, len); break;
        case PTX_OP_MATCH: v = LOOKUP(match_modes, w, len); break;
        case PTX_OP_SHF: v = LOOKUP(shf_modes, w, len); break;
        default: break;
        }
        if (v >= 0) {
            in->mode = (uint8_t)v;
            return true;
        }
    }
    if ((od->cats & C_RND) && !in->rnd && (v = LOOKUP(rnd_words, w, len)) >= 0) {
        in->rnd = (uint8_t)v;
        return true;
    }
    if (od->cats & C_SEM) {
        if (!in->sem && (v = LOOKUP(sem_words, w, len)) >= 0) {
            in->sem = (uint8_t)v;
            return true;
        }
        if (!in->scope && (v = LOOKUP(scope_words, w, len)) >= 0) {
            if (v == PTX_SCOPE_GPU && w[2] == 'l' && od->op != PTX_OP_MEMBAR)
                goto bad; /* .gl is membar-only */
            in->scope = (uint8_t)v;
            return true;
        }
    }
    if ((od->cats & C_CACHE) && !in->cache && (v = LOOKUP(cache_words, w, len)) >= 0) {
        in->cache = (uint8_t)v;
        return true;
    }
    if ((od->cats & C_VEC) && in->vec == 1 && (len == 3 && w[1] == 'v' && (w[2] == '2' || w[2] == '4'))) {
        in->vec = (uint8_t)(w[2] - '0');
        return true;
    }
    if (od->op == PTX_OP_SHF && len == 6 && memcmp(w, ".clamp", 6) == 0)
        return true; /* the default; PTX_F_WRAP clear */
    if (od->op == PTX_OP_BAR && len == 4 && memcmp(w, ".cta", 4) == 0 && !in->scope) {
        in->scope = PTX_SCOPE_CTA; /* bar.cta / barrier.cta (PTX 7.8): the only scope, the default */
        return true;
    }
    if ((in->flags & PTX_F_XORSIGN) && len == 4 && memcmp(w, ".abs", 4) == 0)
        return true; /* .xorsign is only valid as .xorsign.abs */
    if ((v = LOOKUP(flag_words, w, len)) >= 0 && (od->flags_ok & (1u << v))) {
        in->flags |= 1u << v;
        return true;
    }
    if ((od->cats & C_HINT) && memmem(w, len, "::", 2)) {
        in->flags |= PTX_F_HINT;
        return true;
    }
bad:
    ptx_error(ps, optok->line, optok->col + (uint32_t)(w - optok->s),
              "invalid modifier '%.*s' for '%s'", (int)len, w, od->name);
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

struct slot {
    uint8_t cls;  /* enum slot_cls */
    uint8_t type; /* operand type for immediates and predicate checks */
};

struct layout {
    struct slot s[PTX_MAX_OPNDS];
    unsigned n;      /* positions */
    unsigned n_dst;  /* of which destinations (leading) */
};

static void lay(struct layout *l, uint8_t cls, enum ptx_type type)
{
    if (ALWAYS(l->n < PTX_MAX_OPNDS)) {
        l->s[l->n].cls = cls;
        l->s[l->n].type = (uint8_t)type;
        l->n++;
    }
}

/* Build the expected layout for nraw raw operands (pipe pairs flattened;
 * piped1 = the second raw operand is the piped half). Returns false with
 * *why set when the count is impossible for the shape. */
static bool build_layout(const struct ptx_insn *in, const struct op_desc *od, unsigned nraw, bool piped1,
                         struct layout *l, const char **why)
{
    enum ptx_type t = (enum ptx_type)in->type, t2 = (enum ptx_type)in->type2;
    memset(l, 0, sizeof *l);
    *why = NULL;
    switch (od->shape) {
    case SH_NONE:
        break;
    case SH_D:
        lay(l, K_DST, t);
        l->n_dst = 1;
        break;
    case SH_A:
        lay(l, K_SRC, od->op == PTX_OP_BAR_WARP ? PTX_T_U32 : t);
        break;
    case SH_DA:
        lay(l, K_DST, (od->op == PTX_OP_POPC || od->op == PTX_OP_CLZ || od->op == PTX_OP_BFIND) ? PTX_T_U32 : t);
        lay(l, K_SRC, t);
        l->n_dst = 1;
        break;
    case SH_MOV:
        lay(l, K_DSTV, t);
        lay(l, K_MOVSRC, t);
        l->n_dst = 1;
        break;
    case SH_CVT:
        lay(l, K_DST, t);
        lay(l, K_SRC, t2);
        if (nraw == 3)
            lay(l, K_SRC, t2);
        l->n_dst = 1;
        break;
    case SH_CVTA:
        lay(l, K_DST, t);
        lay(l, K_SYMSRC, t);
        l->n_dst = 1;
        break;
    case SH_DAB:
        lay(l, K_DST, t);
        lay(l, K_SRC, t);
        lay(l, K_SRC, (od->op == PTX_OP_SHL || od->op == PTX_OP_SHR) ? PTX_T_U32 : t);
        l->n_dst = 1;
        break;
    case SH_DABC:
        lay(l, K_DST, t);
        if (od->op == PTX_OP_SELP) {
            lay(l, K_SRC, t);
            lay(l, K_SRC, t);
            lay(l, K_PRED, PTX_T_PRED);
        } else if (od->op == PTX_OP_SLCT) {
            lay(l, K_SRC, t);
            lay(l, K_SRC, t);
            lay(l, K_SRC, t2);
        } else if (od->op == PTX_OP_BFE) {
            lay(l, K_SRC, t);
            lay(l, K_SRC, PTX_T_U32);
            lay(l, K_SRC, PTX_T_U32);
        } else if (od->op == PTX_OP_SHF) {
            lay(l, K_SRC, PTX_T_B32);
            lay(l, K_SRC, PTX_T_B32);
            lay(l, K_SRC, PTX_T_U32);
        } else if (od->op == PTX_OP_DP4A || od->op == PTX_OP_DP2A) {
            lay(l, K_SRC, t);
            lay(l, K_SRC, t2);
            lay(l, K_SRC, t);
        } else {
            lay(l, K_SRC, t);
            lay(l, K_SRC, t);
            lay(l, K_SRC, t);
        }
        l->n_dst = 1;
        break;
    case SH_DABCD:
        lay(l, K_DST, t);
        lay(l, K_SRC, t);
        lay(l, K_SRC, t);
        if (od->op == PTX_OP_LOP3) {
            lay(l, K_SRC, t);
            lay(l, K_IMM, PTX_T_U32);
        } else { /* bfi */
            lay(l, K_SRC, PTX_T_U32);
            lay(l, K_SRC, PTX_T_U32);
        }
        l->n_dst = 1;
        break;
    case SH_LD:
        lay(l, K_DSTV, t);
        lay(l, K_ADDR, PTX_T_U64);
        l->n_dst = 1;
        break;
    case SH_ST:
        lay(l, K_ADDR, PTX_T_U64);
        lay(l, K_SRCV, t);
        break;
    case SH_ATOM:
        lay(l, K_DST, t);
        lay(l, K_ADDR, PTX_T_U64);
        lay(l, K_SRC, t);
        if (in->aop == PTX_AOP_CAS)
            lay(l, K_SRC, t);
        l->n_dst = 1;
        break;
    case SH_RED:
        lay(l, K_ADDR, PTX_T_U64);
        lay(l, K_SRC, t);
        break;
    case SH_SETP:
        lay(l, K_DPRED, PTX_T_PRED);
        if (piped1) {
            lay(l, K_DPRED, PTX_T_PRED);
            l->n_dst = 2;
        } else {
            l->n_dst = 1;
        }
        lay(l, K_SRC, t);
        lay(l, K_SRC, t);
        if (in->bop)
            lay(l, K_PRED, PTX_T_PRED);
        break;
    case SH_SET:
        lay(l, K_DST, t);
        lay(l, K_SRC, t2);
        lay(l, K_SRC, t2);
        if (in->bop)
            lay(l, K_PRED, PTX_T_PRED);
        l->n_dst = 1;
        break;
    case SH_TESTP:
        lay(l, K_DPRED, PTX_T_PRED);
        lay(l, K_SRC, od->op == PTX_OP_ISSPACEP ? PTX_T_U64 : t);
        l->n_dst = 1;
        break;
    case SH_BAR:
        if (in->mode == PTX_MODE_RED) {
            lay(l, in->type == PTX_T_PRED ? K_DPRED : K_DST, t);
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
        break;
    case SH_VOTE:
        lay(l, in->type == PTX_T_PRED ? K_DPRED : K_DST, t);
        lay(l, K_PRED, PTX_T_PRED);
        if (in->flags & PTX_F_SYNC)
            lay(l, K_SRC, PTX_T_U32);
        l->n_dst = 1;
        break;
    case SH_SHFL:
        lay(l, K_DST, t);
        l->n_dst = 1;
        if (piped1) {
            lay(l, K_DPRED, PTX_T_PRED);
            l->n_dst = 2;
        }
        lay(l, K_SRC, t);
        lay(l, K_SRC, PTX_T_U32);
        lay(l, K_SRC, PTX_T_U32);
        if (in->flags & PTX_F_SYNC)
            lay(l, K_SRC, PTX_T_U32);
        break;
    case SH_MATCH:
        lay(l, K_DST, PTX_T_B32);
        l->n_dst = 1;
        if (piped1) {
            lay(l, K_DPRED, PTX_T_PRED);
            l->n_dst = 2;
        }
        lay(l, K_SRC, t);
        lay(l, K_SRC, PTX_T_U32);
        break;
    case SH_REDUX:
        lay(l, K_DST, t);
        lay(l, K_SRC, t);
        lay(l, K_SRC, PTX_T_U32);
        l->n_dst = 1;
        break;
    case SH_BRA:
        lay(l, K_LABEL, PTX_T_NONE);
        break;
    default:
        *why = "internal: no layout";
        return false;
    }
    return true;
}

/* Convert a raw operand into the IR operand for slot s. */
static bool place_operand(struct ptx_parser *ps, struct ptx_insn *in, const struct raw_opnd *r,
                          const struct slot *s, struct ptx_operand *o, const char *opname)
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
        struct raw_opnd r;
        if (t->kind != TK_IDENT) {
            ptx_error(ps, t->line, t->col, "expected a parameter name in call list, found '%.*s'",
                      (int)t->len, t->s);
            return false;
        }
        if (!parse_operand(ps, &r))
            return false;
        if (r.kind != RAW_SYM || (ps->syms[r.psym].kind != PSYM_PARAM &&
                                  fn->vars[ps->syms[r.psym].idx].space != PTX_SPACE_ARGS)) {
            ptx_error(ps, r.tok.line, r.tok.col,
                      "unsupported call argument '%.*s' (only .param variables)", (int)r.tok.len,
                      r.tok.s);
            return false;
        }
        struct ptx_operand o;
        struct slot s = {K_SYMSRC, PTX_T_NONE};
        if (!place_operand(ps, in, &r, &s, &o, opname))
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

static bool parse_call(struct ptx_parser *ps, struct ptx_insn *in, const char *opname)
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

/* ------------------------------------------------------ instruction */
static const struct op_desc *find_op(const char *s, uint32_t len)
{
    for (size_t i = 0; i < ARRAY_LEN(op_table); i++)
        if (strlen(op_table[i].name) == len && memcmp(op_table[i].name, s, len) == 0)
            return &op_table[i];
    return NULL;
}

static bool is_unsupported_op(const char *s, uint32_t base_len, uint32_t full_len)
{
    for (size_t i = 0; i < ARRAY_LEN(unsupported_ops); i++) {
        size_t n = strlen(unsupported_ops[i]);
        if ((n == base_len || (n <= full_len && (n == full_len || s[n] == '.'))) &&
            memcmp(unsupported_ops[i], s, n) == 0)
            return true;
    }
    return false;
}

static const struct op_desc bar_warp_desc = {"bar.warp.sync", PTX_OP_BAR_WARP, SH_A, 0, 0, 0, 0};

void ptx_parse_insn(struct ptx_parser *ps, int32_t guard, bool guard_neg, uint32_t gline, uint32_t gcol)
{
    struct ptx_tok optok = ptx_take(ps);
    const char *w = optok.s, *wend = optok.s + optok.len;
    const char *dot = memchr(w, '.', optok.len);
    uint32_t base_len = dot ? (uint32_t)(dot - w) : optok.len;
    const struct op_desc *od = find_op(w, base_len);
    const char *mods = w + base_len;
    char opname[48];
    snprintf(opname, sizeof opname, "%.*s", (int)MIN(optok.len, 47u), w);

    if (od && od->op == PTX_OP_BAR && optok.len >= 13 && memcmp(w, "bar.warp.sync", 13) == 0 &&
        optok.len == 13) {
        od = &bar_warp_desc;
        mods = wend;
    }
    if (!od || (od->op == PTX_OP_CVT && optok.len >= 8 && memcmp(w, "cvt.pack", 8) == 0)) {
        if (is_unsupported_op(w, base_len, optok.len) || od)
            ptx_error(ps, optok.line, optok.col, "unsupported instruction '%.*s'", (int)optok.len, w);
        else
            ptx_error(ps, optok.line, optok.col, "unknown instruction '%.*s'", (int)optok.len, w);
        ptx_sync_stmt(ps);
        return;
    }

    struct ptx_insn in;
    memset(&in, 0, sizeof in);
    in.op = od->op;
    in.vec = 1;
    in.guard = guard;
    in.guard_neg = guard_neg;
    in.target = PTX_PC_NONE;
    in.reconv = PTX_PC_NONE;
    in.line = gline ? gline : optok.line;
    in.col = gline ? gcol : optok.col;

    /* modifiers */
    unsigned ntypes = 0;
    bool ok = true;
    while (mods < wend && ok) {
        const char *m = mods; /* at '.' */
        const char *q = m + 1;
        while (q < wend && *q != '.') {
            if (*q == ':' && q + 1 < wend && q[1] == ':')
                q++;
            q++;
        }
        ok = apply_modifier(ps, &in, od, m, (uint32_t)(q - m), &ntypes, &optok);
        mods = q;
    }
    if (!ok) {
        ptx_sync_stmt(ps);
        return;
    }
    if (od->op == PTX_OP_MEMBAR) {
        bool is_membar = optok.s[0] == 'm';
        if (is_membar) {
            if (in.sem || !in.scope) {
                ptx_error(ps, optok.line, optok.col, "'%s' needs exactly one of .cta/.gl/.sys", opname);
                ok = false;
            }
            in.sem = PTX_SEM_SC;
        } else if (in.sem != PTX_SEM_SC && in.sem != PTX_SEM_ACQ_REL) {
            ptx_error(ps, optok.line, optok.col, "unsupported fence '%s' (fence.sc or fence.acq_rel)",
                      opname);
            ok = false;
        } else if (!in.scope) {
            ptx_error(ps, optok.line, optok.col, "'%s' needs a scope", opname);
            ok = false;
        }
    }
    if (ok && ntypes < od->tmin) {
        ptx_error(ps, optok.line, optok.col, "'%s' needs %u type modifier%s", opname, od->tmin,
                  od->tmin > 1 ? "s" : "");
        ok = false;
    }
    if (ok) {
        const char *need = NULL;
        switch (od->op) {
        case PTX_OP_SETP: case PTX_OP_SET:
            if (!in.cmp) need = "a comparison (.eq, .lt, ...)";
            break;
        case PTX_OP_ATOM: case PTX_OP_RED: case PTX_OP_REDUX:
            if (!in.aop || in.aop == PTX_AOP_POPC) need = "an operation (.add, .cas, ...)";
            break;
        case PTX_OP_VOTE:
            if (!in.mode) need = "a mode (.all, .any, .uni, .ballot)";
            break;
        case PTX_OP_SHFL:
            if (!in.mode) need = "a mode (.up, .down, .bfly, .idx)";
            break;
        case PTX_OP_MATCH:
            if (!in.mode) need = "a mode (.any, .all)";
            break;
        case PTX_OP_BAR:
            if (!in.mode) need = "a mode (.sync, .arrive, .red)";
            else if (in.mode == PTX_MODE_RED && (!in.aop || !ntypes)) need = "an operation and a type";
            else if (in.mode != PTX_MODE_RED && (in.aop || ntypes)) need = "no operation or type";
            break;
        case PTX_OP_TESTP:
            if (!in.mode) need = "a class (.finite, .nan, ...)";
            break;
        case PTX_OP_SHF:
            if (!in.mode) need = ".l or .r";
            break;
        case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24:
            if (!in.mode && !ptx_type_is_float((enum ptx_type)in.type))
                need = ".lo, .hi or .wide";
            break;
        case PTX_OP_CVTA: case PTX_OP_ISSPACEP:
            if (!in.space) need = "a state space";
            break;
        default:
            break;
        }
        if (need) {
            ptx_error(ps, optok.line, optok.col, "'%s' needs %s", opname, need);
            ok = false;
        }
    }
    if (!ok) {
        ptx_sync_stmt(ps);
        return;
    }
    if (od->op == PTX_OP_VOTE && in.mode == PTX_MODE_BALLOT && in.type == PTX_T_PRED)
        in.type = PTX_T_B32;

    /* operands */
    if (od->shape == SH_CALL) {
        if (!parse_call(ps, &in, opname)) {
            ptx_sync_stmt(ps);
            return;
        }
    } else {
        struct raw_opnd raw[PTX_MAX_OPNDS + 1];
        unsigned nraw = 0;
        bool piped1 = false, err = false;
        const struct ptx_tok *t = ptx_peek(ps, 0);
        if (!ptx_is_punct(t, ';')) {
            for (;;) {
                if (nraw >= PTX_MAX_OPNDS + 1) {
                    t = ptx_peek(ps, 0);
                    ptx_error(ps, t->line, t->col, "too many operands for '%s'", opname);
                    err = true;
                    break;
                }
                if (od->shape == SH_BRA && ptx_peek(ps, 0)->kind == TK_IDENT) {
                    memset(&raw[nraw], 0, sizeof raw[nraw]);
                    raw[nraw].tok = ptx_take(ps);
                    raw[nraw].kind = RAW_NAME;
                    nraw++;
                } else if (!parse_operand(ps, &raw[nraw++])) {
                    err = true;
                    break;
                }
                t = ptx_peek(ps, 0);
                if (ptx_is_punct(t, '|')) {
                    ptx_take(ps);
                    if (nraw != 1) {
                        ptx_error(ps, t->line, t->col, "'|' only joins the first two destinations");
                        err = true;
                        break;
                    }
                    piped1 = true;
                    if (!parse_operand(ps, &raw[nraw++])) {
                        err = true;
                        break;
                    }
                    raw[nraw - 1].piped = true;
                    t = ptx_peek(ps, 0);
                }
                if (ptx_is_punct(t, ',')) {
                    ptx_take(ps);
                    continue;
                }
                break;
            }
        }
        if (err) {
            ptx_sync_stmt(ps);
            return;
        }
        struct layout l;
        const char *why;
        if (!build_layout(&in, od, nraw, piped1, &l, &why) || l.n != nraw) {
            if (piped1 && od->shape != SH_SETP && od->shape != SH_SHFL && od->shape != SH_MATCH)
                ptx_error(ps, optok.line, optok.col, "'%s' does not take a 'd|p' destination pair", opname);
            else
                ptx_error(ps, optok.line, optok.col,
                          "wrong number of operands for '%s': expected %u, found %u", opname, l.n, nraw);
            ptx_sync_stmt(ps);
            return;
        }
        for (unsigned i = 0; i < nraw; i++) {
            if (!place_operand(ps, &in, &raw[i], &l.s[i], &in.opnd[i], opname)) {
                ptx_sync_stmt(ps);
                return;
            }
        }
        in.n_dst = (uint8_t)l.n_dst;
        in.n_src = (uint8_t)(nraw - l.n_dst);
        if (od->shape == SH_SHFL && piped1)
            in.flags |= PTX_F_PRED_OUT;
        if (od->shape == SH_MATCH && piped1)
            in.flags |= PTX_F_PRED_OUT;
        if (od->shape == SH_BAR && ((in.mode == PTX_MODE_RED && nraw == 4) ||
                                    (in.mode != PTX_MODE_RED && nraw == 2)))
            in.flags |= PTX_F_BAR_COUNT;
        if (od->shape == SH_BRA) {
            struct plabel_ref *lr = PTX_PUSH(ps->lrefs, ps->n_lrefs, ps->lrefs_cap);
            lr->insn = ps->fn->n_insns;
            lr->scope = ps->cur_scope;
            lr->name = raw[0].tok.s;
            lr->len = raw[0].tok.len;
            lr->line = raw[0].tok.line;
            lr->col = raw[0].tok.col;
        }
    }
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (!ptx_is_punct(t, ';')) {
        if (t->kind == TK_EOF)
            ptx_error(ps, t->line, t->col, "expected ';' after '%s', found end of file", opname);
        else
            ptx_error(ps, t->line, t->col, "expected ';' after '%s' operands, found '%.*s'", opname,
                      (int)t->len, t->s);
        /* drop references recorded for this instruction */
        if (od->shape == SH_BRA && ps->n_lrefs && ps->lrefs[ps->n_lrefs - 1].insn == ps->fn->n_insns)
            ps->n_lrefs--;
        if (od->shape == SH_CALL && ps->n_crefs && ps->crefs[ps->n_crefs - 1].insn == ps->fn->n_insns &&
            ps->crefs[ps->n_crefs - 1].func == ps->fn->index)
            ps->n_crefs--;
        ptx_sync_stmt(ps);
        return;
    }
    ptx_take(ps);
    *PTX_PUSH(ps->fn->insns, ps->fn->n_insns, ps->insns_cap) = in;
}
