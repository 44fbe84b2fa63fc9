/* sim/func/fpu.c: scalar PTX arithmetic (see fpu.h).
 *
 * NOTE(fp-rounding): non-default rounding modes (.rz/.rm/.rp) switch the
 * host FPU's mode with fesetround around one operation on volatile
 * operands, so the compiler cannot move the arithmetic across the switch.
 * fp32 add/sub/mul/div/sqrt are computed exactly enough in double and
 * rounded once to float: double has >= 2p+2 bits for p = 24, so this double
 * rounding is innocuous; directed modes nest correctly too.
 */
#include "sim/func/fpu.h"

#include "sim/base/common.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ bit helpers */
static inline float as_f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t from_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double as_f64(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}
static inline uint64_t from_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static inline unsigned tbits(enum ptx_type t) { return fpu_type_bits(t); }
static inline uint64_t wmask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }


/* ------------------------------------------------------------- f16 / bf16 */
static float h2f(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 0x3ff, u;
    if (e == 31)
        u = s | 0x7f800000u | (m << 13) | (m ? 0x400000u : 0);
    else if (e == 0) {
        if (m == 0)
            u = s;
        else {
            float f = ldexpf((float)m, -24);
            return s ? -f : f;
        }
    } else
        u = s | ((e + 112) << 23) | (m << 13);
    return as_f32(u);
}

/* Round d to a binary format with p significant bits, normal exponents
 * [emin, emax] and gradual underflow, in the host's current rounding mode.
 * The result is a double exactly representable in the format, or an
 * infinity. Overflow follows IEEE 754: to infinity when rounding away from
 * zero (.rn, .rp for positive, .rm for negative values), else to the
 * largest finite value of d's sign. */
static double round_fmt(double d, int p, int emin, int emax)
{
    if (d == 0.0 || !isfinite(d))
        return d;
    int e;
    frexp(d, &e); /* |d| in [2^(e-1), 2^e) */
    int q = MAX(MIN(e - p, emax - p + 1), emin - p + 1); /* exponent of one ulp */
    double r = ldexp(nearbyint(ldexp(d, -q)), q);        /* exact scaling, one rounding */
    double maxf = ldexp(2.0 - ldexp(1.0, 1 - p), emax);
    if (fabs(r) <= maxf)
        return r;
    int mode = fegetround();
    bool away = mode == FE_TONEAREST || (mode == FE_UPWARD && d > 0) || (mode == FE_DOWNWARD && d < 0);
    return copysign(away ? INFINITY : maxf, d);
}

/* Round a double to f16 in the host's current rounding mode. */
static uint16_t d2h(double d)
{
    if (isnan(d))
        return 0x7fff;
    uint16_t s = signbit(d) ? 0x8000 : 0;
    double r = fabs(round_fmt(d, 11, -14, 15));
    if (isinf(r))
        return s | 0x7c00;
    if (r < ldexp(1.0, -14)) /* subnormal or zero: a multiple of 2^-24 */
        return s | (uint16_t)ldexp(r, 24);
    int e;
    double m = frexp(r, &e); /* m in [0.5, 1): 11 significant bits */
    return s | (uint16_t)((uint32_t)(e - 1 + 15) << 10) | ((uint16_t)ldexp(m, 11) & 0x3ff);
}

static float bf2f(uint16_t h) { return as_f32((uint64_t)h << 16); }
/* Round a double to bf16 in the host's current rounding mode (bf16 is the
 * top half of an f32, whose exponent range it shares). */
static uint16_t d2bf(double d)
{
    if (isnan(d))
        return 0x7fff;
    return (uint16_t)(from_f32((float)round_fmt(d, 8, -126, 127)) >> 16);
}

/* ---------------------------------------------------------- float helpers */
static inline bool is_fp(enum ptx_type t) { return ptx_type_is_float(t); }

static double unpack(enum ptx_type t, uint64_t v, bool ftz)
{
    switch (t) {
    case PTX_T_F64: return as_f64(v);
    case PTX_T_F16:
        if (ftz && (v & 0x7c00) == 0) /* subnormal (or zero): sign-preserving zero */
            v &= 0x8000;
        return h2f((uint16_t)v);
    case PTX_T_BF16: return bf2f((uint16_t)v);
    default: {
        float f = as_f32(v);
        if (ftz && fpclassify(f) == FP_SUBNORMAL)
            f = copysignf(0.0f, f);
        return f;
    }
    }
}

/* Round d to type t (current host rounding mode), apply .ftz and .sat. */
static uint64_t pack(enum ptx_type t, double d, bool ftz, bool sat)
{
    if (sat) {
        if (isnan(d))
            d = 0.0;
        else if (d < 0.0)
            d = 0.0;
        else if (d > 1.0)
            d = 1.0;
    }
    switch (t) {
    case PTX_T_F64:
        if (ftz && fpclassify(d) == FP_SUBNORMAL)
            d = copysign(0.0, d);
        return from_f64(d);
    case PTX_T_F16: {
        uint16_t h = d2h(d);
        if (ftz && (h & 0x7c00) == 0)
            h &= 0x8000;
        return h;
    }
    case PTX_T_BF16: return d2bf(d);
    default: {
        volatile double vd = d;
        float f = (float)vd;
        if (isnan(f))
            return 0x7fffffffu; /* canonical fp32 NaN of NVIDIA GPUs */
        if (ftz && fpclassify(f) == FP_SUBNORMAL)
            f = copysignf(0.0f, f);
        return from_f32(f);
    }
    }
}

static int host_mode(enum ptx_rnd r)
{
    switch (r) {
    case PTX_RND_RZ: case PTX_RND_RZI: return FE_TOWARDZERO;
    case PTX_RND_RM: case PTX_RND_RMI: return FE_DOWNWARD;
    case PTX_RND_RP: case PTX_RND_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

static double round_int(double d, enum ptx_rnd r)
{
    switch (r) {
    case PTX_RND_RZI: return trunc(d);
    case PTX_RND_RMI: return floor(d);
    case PTX_RND_RPI: return ceil(d);
    case PTX_RND_RNA: return round(d);
    default: return nearbyint(d); /* RNI: current mode is nearest-even */
    }
}

/* ------------------------------------------------------------ comparisons */
bool fpu_compare(enum ptx_cmp cmp, enum ptx_type t, uint64_t a, uint64_t b, bool ftz)
{
    if (is_fp(t)) {
        double x = unpack(t, a, ftz), y = unpack(t, b, ftz);
        bool un = isnan(x) || isnan(y);
        switch (cmp) {
        case PTX_CMP_EQ: return !un && x == y;
        case PTX_CMP_NE: return !un && x != y;
        case PTX_CMP_LT: case PTX_CMP_LO: return !un && x < y;
        case PTX_CMP_LE: case PTX_CMP_LS: return !un && x <= y;
        case PTX_CMP_GT: case PTX_CMP_HI: return !un && x > y;
        case PTX_CMP_GE: case PTX_CMP_HS: return !un && x >= y;
        case PTX_CMP_EQU: return un || x == y;
        case PTX_CMP_NEU: return un || x != y;
        case PTX_CMP_LTU: return un || x < y;
        case PTX_CMP_LEU: return un || x <= y;
        case PTX_CMP_GTU: return un || x > y;
        case PTX_CMP_GEU: return un || x >= y;
        case PTX_CMP_NUM: return !un;
        case PTX_CMP_NAN: return un;
        default: return false;
        }
    }
    unsigned w = tbits(t);
    if (t == PTX_T_PRED) {
        a &= 1;
        b &= 1;
    }
    uint64_t ua = a & wmask(w), ub = b & wmask(w);
    int64_t sa = (int64_t)fpu_extend(a, t), sb = (int64_t)fpu_extend(b, t);
    bool sgn = ptx_type_is_signed(t);
    switch (cmp) {
    case PTX_CMP_EQ: return ua == ub;
    case PTX_CMP_NE: return ua != ub;
    case PTX_CMP_LT: return sgn ? sa < sb : ua < ub;
    case PTX_CMP_LE: return sgn ? sa <= sb : ua <= ub;
    case PTX_CMP_GT: return sgn ? sa > sb : ua > ub;
    case PTX_CMP_GE: return sgn ? sa >= sb : ua >= ub;
    case PTX_CMP_LO: return ua < ub;
    case PTX_CMP_LS: return ua <= ub;
    case PTX_CMP_HI: return ua > ub;
    case PTX_CMP_HS: return ua >= ub;
    default: return false;
    }
}

/* ------------------------------------------------------------ conversions */
/* .relu: a negative result (or -0) becomes +0; NaN stays NaN (canonical
 * when packed). */
static double relu(double d) { return !isnan(d) && signbit(d) ? 0.0 : d; }

static uint64_t cvt(const struct ptx_insn *in, const uint64_t *s, bool *bad)
{
    uint64_t a = s[0];
    enum ptx_type dt = in->type, st = in->type2;
    bool ftz = in->flags & PTX_F_FTZ, sat = in->flags & PTX_F_SAT;
    unsigned dw = tbits(dt);
    if (!is_fp(dt) && !is_fp(st)) { /* int -> int */
        uint64_t v = fpu_extend(a, st);
        if (sat) {
            bool ss = ptx_type_is_signed(st), ds = ptx_type_is_signed(dt);
            if (ds) {
                int64_t lo = dw >= 64 ? INT64_MIN : -(int64_t)(1ull << (dw - 1));
                int64_t hi = dw >= 64 ? INT64_MAX : (int64_t)((1ull << (dw - 1)) - 1);
                if (ss) {
                    int64_t x = (int64_t)v;
                    v = (uint64_t)(x < lo ? lo : x > hi ? hi : x);
                } else
                    v = v > (uint64_t)hi ? (uint64_t)hi : v;
            } else {
                uint64_t hi = wmask(dw);
                if (ss && (int64_t)v < 0)
                    v = 0;
                else if (v > hi)
                    v = hi;
            }
        }
        return fpu_extend(v, dt);
    }
    if (is_fp(st) && !is_fp(dt)) { /* float -> int: saturating, NaN -> 0 */
        double d = unpack(st, a, ftz);
        if (isnan(d))
            return 0;
        d = round_int(d, in->rnd == PTX_RND_NONE ? PTX_RND_RZI : (enum ptx_rnd)in->rnd);
        if (ptx_type_is_signed(dt)) {
            double lo = -ldexp(1.0, (int)dw - 1), hi = ldexp(1.0, (int)dw - 1);
            int64_t r = d <= lo ? (int64_t)lo : d >= hi ? (dw >= 64 ? INT64_MAX : (int64_t)hi - 1)
                                                          : (int64_t)d;
            return fpu_extend((uint64_t)r, dt);
        }
        double hi = ldexp(1.0, (int)dw);
        uint64_t r = d <= 0 ? 0 : d >= hi ? wmask(dw) : (uint64_t)d;
        return r;
    }
    int mode = host_mode((enum ptx_rnd)in->rnd);
    if (!is_fp(st)) { /* int -> float */
        uint64_t v = fpu_extend(a, st);
        bool sg = ptx_type_is_signed(st);
        volatile int64_t vs = (int64_t)v;
        volatile uint64_t vu = v;
        uint64_t r;
        if (mode != FE_TONEAREST)
            fesetround(mode);
        if (dt == PTX_T_F64) {
            volatile double d = sg ? (double)vs : (double)vu;
            r = from_f64(d);
        } else {
            volatile float f = sg ? (float)vs : (float)vu;
            r = dt == PTX_T_F32 ? pack(dt, f, ftz, sat) : pack(dt, (double)f, ftz, sat);
        }
        if (mode != FE_TONEAREST)
            fesetround(FE_TONEAREST);
        return r;
    }
    /* float -> float */
    if (st == PTX_T_F16X2 || st == PTX_T_BF16X2 ||
        ((dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) && st != PTX_T_F32)) {
        *bad = true;
        return 0;
    }
    bool rl = in->flags & PTX_F_RELU;
    double d = unpack(st, a, ftz);
    if (in->rnd >= PTX_RND_RNI && in->rnd <= PTX_RND_RPI)
        d = round_int(d, (enum ptx_rnd)in->rnd);
    if (rl)
        d = relu(d);
    if (mode != FE_TONEAREST)
        fesetround(mode);
    uint64_t r;
    if (dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) {
        /* cvt.f16x2.f32 d, a, b: d[31:16] = cvt(a), d[15:0] = cvt(b). */
        enum ptx_type h = dt == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
        double lo = unpack(st, s[1], ftz);
        r = pack(h, d, ftz, sat) << 16 | pack(h, rl ? relu(lo) : lo, ftz, sat);
    } else
        r = pack(dt, d, ftz, sat);
    if (mode != FE_TONEAREST)
        fesetround(FE_TONEAREST);
    return r;
}

/* ----------------------------------------------------------- float ops */
/* min/max of two values: a NaN operand is ignored unless both are NaN or
 * nan (.NaN) is set; +0.0 is greater than -0.0. */
static double fminmax(bool mx, double a, double b, bool nan)
{
    if (isnan(a) || isnan(b))
        return nan || (isnan(a) && isnan(b)) ? NAN : isnan(a) ? b : a;
    if (a == b) /* equal, or zeros of either sign */
        return (signbit(a) != 0) == mx ? b : a;
    return (a > b) == mx ? a : b;
}

/* a * b + c rounded once to f16/bf16 (p <= 24 bits): the exact result is
 * rounded to double toward zero with the inexact flag ORed into the last
 * bit (round to odd), which keeps enough information (53 >= p + 2 bits) for
 * pack() to round it once more correctly in any mode. */
static double fma_odd(double a, double b, double c)
{
    int mode = fegetround();
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_INEXACT);
    volatile double r = fma(a, b, c);
    bool inexact = fetestexcept(FE_INEXACT);
    fesetround(mode);
    return inexact ? as_f64(from_f64(r) | 1) : r;
}

static uint64_t fop1(const struct ptx_insn *in, enum ptx_type t, uint64_t ra, uint64_t rb,
                     uint64_t rc, bool *bad)
{
    bool ftz = in->flags & PTX_F_FTZ, sat = in->flags & PTX_F_SAT;
    volatile double a = unpack(t, ra, ftz), b = unpack(t, rb, ftz), c = unpack(t, rc, ftz);
    volatile double r = 0;
    bool f32 = t != PTX_T_F64;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_ADD: r = a + b; break;
    case PTX_OP_SUB: r = a - b; break;
    case PTX_OP_MUL: r = a * b; break;
    case PTX_OP_FMA:
    case PTX_OP_MAD:
        r = t == PTX_T_F64 ? fma(a, b, c)
            : t == PTX_T_F32 ? (double)fmaf((float)a, (float)b, (float)c)
                             : fma_odd(a, b, c);
        break;
    case PTX_OP_DIV: r = a / b; break;
    case PTX_OP_ABS: /* sign-bit operations: exact, NaN payload kept */
    case PTX_OP_NEG: {
        if (t == PTX_T_F64)
            return in->op == PTX_OP_ABS ? ra & ~(1ull << 63) : ra ^ (1ull << 63);
        uint64_t sb = t == PTX_T_F32 ? 1ull << 31 : 1ull << 15;
        uint64_t v = ra;
        if (ftz && t == PTX_T_F32 && fpclassify(as_f32(v)) == FP_SUBNORMAL)
            v &= sb;
        return (in->op == PTX_OP_ABS ? v & ~sb : v ^ sb) & wmask(tbits(t));
    }
    case PTX_OP_MIN:
    case PTX_OP_MAX:
        if (in->flags & PTX_F_XORSIGN) { /* |a| vs |b|, sign of a ^ b; a NaN result keeps its own */
            r = fminmax(in->op == PTX_OP_MAX, fabs(a), fabs(b), in->flags & PTX_F_NAN);
            if (!isnan(r))
                r = (signbit(a) != 0) != (signbit(b) != 0) ? -r : r;
        } else
            r = fminmax(in->op == PTX_OP_MAX, a, b, in->flags & PTX_F_NAN);
        break;
    case PTX_OP_RCP: r = 1.0 / a; break;
    case PTX_OP_SQRT: r = sqrt(a); break;
    case PTX_OP_RSQRT: r = 1.0 / sqrt(a); break;
    case PTX_OP_SIN: r = f32 ? sinf((float)a) : sin(a); break;
    case PTX_OP_COS: r = f32 ? cosf((float)a) : cos(a); break;
    case PTX_OP_LG2: r = f32 ? log2f((float)a) : log2(a); break;
    case PTX_OP_EX2: r = f32 ? exp2f((float)a) : exp2(a); break;
    case PTX_OP_TANH: r = f32 ? tanhf((float)a) : tanh(a); break;
    case PTX_OP_COPYSIGN: r = copysign(b, a); break;
    default: *bad = true; return 0;
    }
    if (in->flags & PTX_F_RELU)
        r = relu(r);
    return pack(t, r, ftz, sat);
}

static uint64_t fop(const struct ptx_insn *in, const uint64_t *s, bool *bad)
{
    enum ptx_type t = in->type;
    int mode = host_mode((enum ptx_rnd)in->rnd);
    if (mode != FE_TONEAREST)
        fesetround(mode);
    uint64_t r;
    if (t == PTX_T_F16X2 || t == PTX_T_BF16X2) {
        enum ptx_type h = t == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
        uint64_t lo = fop1(in, h, s[0] & 0xffff, s[1] & 0xffff, s[2] & 0xffff, bad);
        uint64_t hi = fop1(in, h, (s[0] >> 16) & 0xffff, (s[1] >> 16) & 0xffff,
                           (s[2] >> 16) & 0xffff, bad);
        r = (lo & 0xffff) | (hi & 0xffff) << 16;
    } else
        r = fop1(in, t, s[0], s[1], s[2], bad);
    if (mode != FE_TONEAREST)
        fesetround(FE_TONEAREST);
    return r;
}

/* ---------------------------------------------------------- integer ops */
static uint64_t mulhi_u64(uint64_t a, uint64_t b)
{
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}
static uint64_t mulhi_s64(int64_t a, int64_t b)
{
    return (uint64_t)(((__int128)a * b) >> 64);
}

static uint64_t sat_s32(int64_t v)
{
    return (uint64_t)(int64_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

static uint64_t imul(const struct ptx_insn *in, uint64_t a, uint64_t b, unsigned w, bool sg)
{
    uint64_t sa = fpu_extend(a, in->type), sb = fpu_extend(b, in->type);
    switch (in->mode) {
    case PTX_MODE_HI:
        if (w == 64)
            return sg ? mulhi_s64((int64_t)sa, (int64_t)sb) : mulhi_u64(sa, sb);
        return sg ? (uint64_t)(((int64_t)sa * (int64_t)sb) >> w)
                  : (sa * sb) >> w; /* w <= 32: exact in 64 bits */
    case PTX_MODE_WIDE:
        return sa * sb; /* w <= 32: exact 2w-bit product */
    default:
        return sa * sb;
    }
}

static uint64_t bfe(uint64_t a, uint64_t b, uint64_t c, enum ptx_type t)
{
    unsigned w = tbits(t), pos = (unsigned)(b & 0xff), len = (unsigned)(c & 0xff);
    bool sg = ptx_type_is_signed(t);
    a &= wmask(w);
    if (len == 0)
        return 0;
    bool msb = (a >> (w - 1)) & 1;
    if (pos >= w)
        return sg && msb ? wmask(w) : 0;
    unsigned l = MIN(len, w - pos);
    uint64_t x = (a >> pos) & wmask(l);
    if (sg) {
        bool sbit = pos + len - 1 >= w ? msb : (a >> (pos + len - 1)) & 1;
        if (sbit)
            x |= ~wmask(l) & wmask(w);
    }
    return fpu_extend(x, t);
}

static uint64_t bfi(uint64_t a, uint64_t b, uint64_t c, uint64_t d, unsigned w)
{
    unsigned pos = (unsigned)(c & 0xff), len = (unsigned)(d & 0xff);
    if (len == 0 || pos >= w)
        return b;
    unsigned l = MIN(len, w - pos);
    uint64_t m = wmask(l) << pos;
    return (b & ~m) | ((a << pos) & m);
}

static uint64_t prmt(const struct ptx_insn *in, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t bytes = (a & 0xffffffffu) | (b & 0xffffffffu) << 32;
    unsigned sel[4];
    unsigned cs = (unsigned)c & 3;
    switch (in->mode) {
    case PTX_MODE_F4E: for (int i = 0; i < 4; i++) sel[i] = (cs + (unsigned)i) & 7; break;
    case PTX_MODE_B4E: for (int i = 0; i < 4; i++) sel[i] = (cs + 8u - (unsigned)i) & 7; break;
    case PTX_MODE_RC8: for (int i = 0; i < 4; i++) sel[i] = cs; break;
    case PTX_MODE_ECL: for (int i = 0; i < 4; i++) sel[i] = (unsigned)i < cs ? cs : (unsigned)i; break;
    case PTX_MODE_ECR: for (int i = 0; i < 4; i++) sel[i] = (unsigned)i > cs ? cs : (unsigned)i; break;
    case PTX_MODE_RC16: sel[0] = sel[2] = (cs & 1) * 2; sel[1] = sel[3] = (cs & 1) * 2 + 1; break;
    default:
        for (int i = 0; i < 4; i++)
            sel[i] = (unsigned)(c >> (4 * i)) & 0xf;
        break;
    }
    uint64_t r = 0;
    for (int i = 0; i < 4; i++) {
        unsigned s = sel[i];
        uint64_t byte = (bytes >> (8 * (s & 7))) & 0xff;
        if (in->mode == PTX_MODE_NONE && (s & 8))
            byte = (byte & 0x80) ? 0xff : 0; /* sign replicate */
        r |= byte << (8 * i);
    }
    return r;
}

static uint64_t ialu(const struct ptx_insn *in, const uint64_t *s, bool *bad)
{
    enum ptx_type t = in->type;
    unsigned w = tbits(t);
    bool sg = ptx_type_is_signed(t), sat = in->flags & PTX_F_SAT;
    uint64_t a = s[0], b = s[1], c = s[2], m = wmask(w);
    int64_t sa = (int64_t)fpu_extend(a, t), sb = (int64_t)fpu_extend(b, t);
    switch ((enum ptx_op)in->op) {
    case PTX_OP_MOV: return a;
    case PTX_OP_ADD:
        if (sat && w == 32)
            return sat_s32((int64_t)(int32_t)a + (int32_t)b);
        return (a + b) & m;
    case PTX_OP_SUB:
        if (sat && w == 32)
            return sat_s32((int64_t)(int32_t)a - (int32_t)b);
        return (a - b) & m;
    case PTX_OP_MUL: return imul(in, a, b, w, sg);
    case PTX_OP_MAD: {
        uint64_t p = imul(in, a, b, w, sg);
        if (in->mode == PTX_MODE_HI && sat && t == PTX_T_S32)
            return sat_s32((int64_t)(int32_t)p + (int32_t)c);
        return p + c;
    }
    case PTX_OP_MUL24:
    case PTX_OP_MAD24: {
        int64_t x = sg ? (int64_t)((int32_t)((uint32_t)a << 8) >> 8) : (int64_t)(a & 0xffffff);
        int64_t y = sg ? (int64_t)((int32_t)((uint32_t)b << 8) >> 8) : (int64_t)(b & 0xffffff);
        uint64_t p = (uint64_t)(x * y);
        p = in->mode == PTX_MODE_HI ? (p >> 16) & 0xffffffffu : p & 0xffffffffu;
        return in->op == PTX_OP_MAD24 ? p + c : p;
    }
    case PTX_OP_SAD: {
        uint64_t d = sg ? (uint64_t)(sa > sb ? sa - sb : sb - sa)
                        : ((a & m) > (b & m) ? (a & m) - (b & m) : (b & m) - (a & m));
        return d + c;
    }
    case PTX_OP_DIV:
        /* Division by zero: PTX leaves the value unspecified; we return all
         * ones (unsigned) and -1 (signed), as NVIDIA hardware does for the
         * unsigned case. INT_MIN / -1 wraps to INT_MIN. */
        if ((b & m) == 0)
            return m;
        if (sg) {
            if (sb == -1)
                return (uint64_t)(0 - (uint64_t)sa) & m;
            return (uint64_t)(sa / sb) & m;
        }
        return (a & m) / (b & m);
    case PTX_OP_REM:
        /* x rem 0 = x (unspecified in PTX); INT_MIN rem -1 = 0. */
        if ((b & m) == 0)
            return a & m;
        if (sg)
            return sb == -1 ? 0 : (uint64_t)(sa % sb) & m;
        return (a & m) % (b & m);
    case PTX_OP_ABS: return (uint64_t)(sa < 0 ? 0 - (uint64_t)sa : (uint64_t)sa) & m;
    case PTX_OP_NEG: return (0 - a) & m;
    case PTX_OP_MIN:
    case PTX_OP_MAX: {
        if (!sg)
            return in->op == PTX_OP_MIN ? MIN(a & m, b & m) : MAX(a & m, b & m);
        int64_t r = (in->op == PTX_OP_MIN) == (sa < sb) ? sa : sb;
        if ((in->flags & PTX_F_RELU) && r < 0) /* .relu: negative results clamp to 0 */
            r = 0;
        return (uint64_t)r & m;
    }
    case PTX_OP_AND: return a & b & (t == PTX_T_PRED ? 1 : m);
    case PTX_OP_OR: return (a | b) & (t == PTX_T_PRED ? 1 : m);
    case PTX_OP_XOR: return (a ^ b) & (t == PTX_T_PRED ? 1 : m);
    case PTX_OP_NOT: return t == PTX_T_PRED ? (a & 1) ^ 1 : ~a & m;
    case PTX_OP_CNOT: return (a & m) == 0;
    case PTX_OP_SHL: {
        uint32_t n = (uint32_t)b;
        return n >= w ? 0 : (a << n) & m;
    }
    case PTX_OP_SHR: {
        uint32_t n = (uint32_t)b;
        if (sg)
            return (uint64_t)(sa >> (n >= w ? w - 1 : n)) & m;
        return n >= w ? 0 : (a & m) >> n;
    }
    case PTX_OP_SHF: {
        uint32_t n = (uint32_t)c;
        n = (in->flags & PTX_F_WRAP) ? n & 31 : MIN(n, 32u);
        uint64_t v = (a & 0xffffffffu) | (b & 0xffffffffu) << 32;
        if (in->mode == PTX_MODE_SHF_L)
            return ((v << n) >> 32) & 0xffffffffu;
        return (v >> n) & 0xffffffffu;
    }
    case PTX_OP_BFE: return bfe(a, b, c, t);
    case PTX_OP_BFI: return bfi(a, b, c, s[3], w);
    case PTX_OP_BREV: {
        uint64_t r = 0;
        for (unsigned i = 0; i < w; i++)
            r |= ((a >> i) & 1) << (w - 1 - i);
        return r;
    }
    case PTX_OP_POPC: return (uint64_t)__builtin_popcountll(a & m);
    case PTX_OP_CLZ: return (a & m) == 0 ? w : (uint64_t)__builtin_clzll(a & m) - (64 - w);
    case PTX_OP_BFIND: {
        uint64_t v = a & m;
        if (sg && ((v >> (w - 1)) & 1))
            v = ~v & m;
        if (v == 0)
            return 0xffffffffu;
        unsigned idx = 63 - (unsigned)__builtin_clzll(v);
        return (in->flags & PTX_F_SHIFTAMT) ? w - 1 - idx : idx;
    }
    case PTX_OP_PRMT: return prmt(in, a, b, c);
    case PTX_OP_LOP3: {
        uint64_t r = 0, lut = s[3];
        for (unsigned k = 0; k < 8; k++)
            if ((lut >> k) & 1)
                r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
        return r & 0xffffffffu;
    }
    case PTX_OP_DP4A: {
        bool as = ptx_type_is_signed(t), bs = ptx_type_is_signed(in->type2);
        int64_t acc = (int64_t)(as || bs ? (int64_t)(int32_t)c : (int64_t)(uint32_t)c);
        for (int i = 0; i < 4; i++) {
            int64_t x = as ? (int8_t)(a >> (8 * i)) : (int64_t)((a >> (8 * i)) & 0xff);
            int64_t y = bs ? (int8_t)(b >> (8 * i)) : (int64_t)((b >> (8 * i)) & 0xff);
            acc += x * y;
        }
        return (uint64_t)acc & 0xffffffffu;
    }
    case PTX_OP_DP2A: {
        bool as = ptx_type_is_signed(t), bs = ptx_type_is_signed(in->type2);
        int64_t acc = (int64_t)(as || bs ? (int64_t)(int32_t)c : (int64_t)(uint32_t)c);
        int off = in->mode == PTX_MODE_HI ? 2 : 0;
        for (int i = 0; i < 2; i++) {
            int64_t x = as ? (int16_t)(a >> (16 * i)) : (int64_t)((a >> (16 * i)) & 0xffff);
            int64_t y = bs ? (int8_t)(b >> (8 * (i + off))) : (int64_t)((b >> (8 * (i + off))) & 0xff);
            acc += x * y;
        }
        return (uint64_t)acc & 0xffffffffu;
    }
    default: *bad = true; return 0;
    }
}

uint64_t fpu_eval(const struct ptx_insn *in, const uint64_t *s, bool *bad)
{
    switch ((enum ptx_op)in->op) {
    case PTX_OP_CVT: return cvt(in, s, bad);
    case PTX_OP_SELP: return (s[2] & 1) ? s[0] : s[1];
    case PTX_OP_SLCT: {
        /* c >= 0 selects a; a NaN c selects b (unordered). */
        bool ge = in->type2 == PTX_T_F32 ? as_f32(s[2]) >= 0.0f : (int32_t)s[2] >= 0;
        return ge ? s[0] : s[1];
    }
    case PTX_OP_TESTP: {
        double d = unpack(in->type, s[0], false);
        switch (in->mode) {
        case PTX_MODE_FINITE: return isfinite(d);
        case PTX_MODE_INFINITE: return isinf(d) != 0;
        case PTX_MODE_NUMBER: return !isnan(d);
        case PTX_MODE_NOTANUMBER: return isnan(d) != 0;
        /* ISA: "positive and negative zero are considered normal numbers". */
        case PTX_MODE_NORMAL:
            return d == 0.0 || (in->type == PTX_T_F32 ? isnormal(as_f32(s[0])) : isnormal(d));
        case PTX_MODE_SUBNORMAL:
            return in->type == PTX_T_F32 ? fpclassify(as_f32(s[0])) == FP_SUBNORMAL
                                         : fpclassify(d) == FP_SUBNORMAL;
        default: *bad = true; return 0;
        }
    }
    case PTX_OP_MOV: return s[0];
    default: break;
    }
    if (is_fp(in->type))
        return fop(in, s, bad);
    /* Integer results are truncated to the destination type (zero-extended
     * in the 64-bit slot), so no product or carry bits above the type leak
     * into readers of the whole slot (addresses, mov.b64 packs); .wide
     * results are twice the type's width. */
    uint64_t r = ialu(in, s, bad);
    return in->mode == PTX_MODE_WIDE ? r : r & wmask(tbits(in->type));
}

uint64_t fpu_atomic(enum ptx_aop op, enum ptx_type t, uint64_t old, uint64_t b, uint64_t c,
                    bool ftz, bool *bad)
{
    unsigned w = tbits(t);
    uint64_t m = wmask(w);
    if ((t == PTX_T_F16X2 || t == PTX_T_BF16X2) && op != PTX_AOP_EXCH && op != PTX_AOP_CAS) {
        /* Two independent halves. */
        enum ptx_type h = t == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
        uint64_t lo = fpu_atomic(op, h, old & 0xffff, b & 0xffff, 0, ftz, bad);
        uint64_t hi = fpu_atomic(op, h, (old >> 16) & 0xffff, (b >> 16) & 0xffff, 0, ftz, bad);
        return lo | hi << 16;
    }
    if (is_fp(t)) {
        double x = unpack(t, old, ftz), y = unpack(t, b, ftz);
        switch (op) {
        case PTX_AOP_ADD: return pack(t, x + y, ftz, false);
        case PTX_AOP_MIN: return pack(t, fminmax(false, x, y, false), ftz, false);
        case PTX_AOP_MAX: return pack(t, fminmax(true, x, y, false), ftz, false);
        case PTX_AOP_EXCH: return b & m;
        case PTX_AOP_CAS: return (old & m) == (b & m) ? c & m : old & m;
        default: *bad = true; return old;
        }
    }
    int64_t so = (int64_t)fpu_extend(old, t), sb = (int64_t)fpu_extend(b, t);
    bool sg = ptx_type_is_signed(t);
    old &= m;
    b &= m;
    switch (op) {
    case PTX_AOP_ADD: return (old + b) & m;
    case PTX_AOP_MIN: return sg ? (uint64_t)(so < sb ? so : sb) & m : MIN(old, b);
    case PTX_AOP_MAX: return sg ? (uint64_t)(so > sb ? so : sb) & m : MAX(old, b);
    case PTX_AOP_INC: return old >= b ? 0 : old + 1;
    case PTX_AOP_DEC: return (old == 0 || old > b) ? b : old - 1;
    case PTX_AOP_CAS: return old == b ? c & m : old;
    case PTX_AOP_EXCH: return b;
    case PTX_AOP_AND: return old & b;
    case PTX_AOP_OR: return old | b;
    case PTX_AOP_XOR: return old ^ b;
    default: *bad = true; return old;
    }
}
