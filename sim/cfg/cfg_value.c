/* sim/cfg/cfg_value.c: configuration values: parsing text with units into the
 * stored type, range checks, and the normalised text of a value.
 *
 * Types and units are those of sim/cfg/config.h: size (bytes; K/M/G are powers
 * of 1024), freq (Hz; a bare number is MHz), time (ps; a bare number is ps),
 * int/uint (decimal or 0x hex, optional K/M/G), bool, enum (choice index),
 * double and string. Fractions are accepted only when they give a whole
 * number in the stored unit ("1.5us" yes, "1.5ps" no): values are exact
 * integers, never rounded. No arithmetic, quoting or expansion.
 *
 * Operation mix: a few hundred values per run, at load and when printing.
 * No file-scope mutable state.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sim/cfg/cfg_internal.h"

/* Types whose range fields are meaningful. */
bool cfg_has_range(const struct cfg_key *k)
{
    switch (k->type) {
    case CFG_INT:
    case CFG_UINT:
    case CFG_SIZE:
    case CFG_FREQ:
    case CFG_TIME:
    case CFG_DOUBLE:
        return !(k->min > k->max);
    default:
        return false;
    }
}

/* A unit suffix and the factor to the stored unit. */
struct unit {
    const char *suffix; /* matched case-insensitively; "" = bare number */
    uint64_t factor;
};

#define KIB ((uint64_t)1024)
#define MIB (KIB * KIB)
#define GIB (KIB * MIB)

static const struct unit int_units[] = {
    {"", 1}, {"K", KIB}, {"M", MIB}, {"G", GIB}, {NULL, 0},
};
static const struct unit size_units[] = {
    {"", 1},     {"B", 1},      {"K", KIB},   {"KB", KIB},     {"KiB", KIB}, {"M", MIB},
    {"MB", MIB}, {"MiB", MIB},  {"G", GIB},   {"GB", GIB},     {"GiB", GIB}, {NULL, 0},
};
/* A bare frequency is MHz. */
static const struct unit freq_units[] = {
    {"", 1000000ull},  {"Hz", 1},  {"kHz", 1000ull}, {"MHz", 1000000ull},
    {"GHz", 1000000000ull}, {NULL, 0},
};
/* A bare time is ps. */
static const struct unit time_units[] = {
    {"", 1},           {"ps", 1}, {"ns", 1000ull}, {"us", 1000000ull}, {"ms", 1000000000ull},
    {"s", 1000000000000ull}, {NULL, 0},
};

/* A scanned decimal or hex literal: value = ip + frac / den. */
struct num {
    bool neg;      /* leading '-' */
    uint64_t ip;   /* integer part */
    uint64_t frac; /* fractional digits, trailing zeros removed */
    uint64_t den;  /* 10^(number of fractional digits kept) */
    bool overflow; /* integer part or fraction does not fit */
};

/* Scan [-+]digits[.digits] or 0x<hex>; returns the end, or NULL without digits. */
static const char *scan_number(const char *s, struct num *n, bool allow_hex)
{
    memset(n, 0, sizeof *n);
    n->den = 1;
    if (*s == '-' || *s == '+')
        n->neg = *s++ == '-';
    if (allow_hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        const char *p = s + 2;
        if (!isxdigit((unsigned char)*p))
            return NULL;
        for (; isxdigit((unsigned char)*p); p++) {
            int ch = tolower((unsigned char)*p);
            unsigned dgt = isdigit(ch) ? (unsigned)(ch - '0') : (unsigned)(ch - 'a' + 10);
            if (n->ip > (UINT64_MAX - dgt) / 16)
                n->overflow = true;
            else
                n->ip = n->ip * 16 + dgt;
        }
        return p;
    }
    const char *p = s;
    bool any = false;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned dgt = (unsigned)(*p - '0');
        any = true;
        if (n->ip > (UINT64_MAX - dgt) / 10)
            n->overflow = true;
        else
            n->ip = n->ip * 10 + dgt;
    }
    if (*p == '.') {
        p++;
        const char *f = p;
        while (isdigit((unsigned char)*p))
            p++;
        any = any || p > f;
        const char *last = p; /* drop trailing zeros: "1.50" == "1.5" */
        while (last > f && last[-1] == '0')
            last--;
        if (last - f > 19) /* 10^19 is the largest power of ten in a uint64_t */
            n->overflow = true;
        else
            for (const char *q = f; q < last; q++) {
                n->frac = n->frac * 10 + (uint64_t)(*q - '0');
                n->den *= 10;
            }
    }
    return any ? p : NULL;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

enum scale_result { SCALE_OK, SCALE_NOT_WHOLE, SCALE_OVERFLOW };

/* n * factor as an exact integer. The fraction is reduced by gcd(factor, den)
 * first so that no intermediate product can overflow. */
static enum scale_result scale_num(const struct num *n, uint64_t factor, uint64_t *out)
{
    if (n->overflow || (factor && n->ip > UINT64_MAX / factor))
        return SCALE_OVERFLOW;
    uint64_t v = n->ip * factor;
    if (n->frac) {
        uint64_t g = gcd_u64(factor, n->den);
        uint64_t f2 = factor / g, d2 = n->den / g;
        if (n->frac % d2 != 0)
            return SCALE_NOT_WHOLE;
        uint64_t q = n->frac / d2;
        if (q > UINT64_MAX / f2 || q * f2 > UINT64_MAX - v)
            return SCALE_OVERFLOW;
        v += q * f2;
    }
    *out = v;
    return SCALE_OK;
}

/* Match the text after a number against a unit table (spaces allowed between). */
static const struct unit *match_unit(const char *rest, const struct unit *units)
{
    while (*rest == ' ' || *rest == '\t')
        rest++;
    for (const struct unit *u = units; u->suffix; u++)
        if (strcasecmp(rest, u->suffix) == 0)
            return u;
    return NULL;
}

static const char *type_hint(const struct cfg_key *k)
{
    switch (k->type) {
    case CFG_BOOL: return "is not a boolean (true/false, yes/no, on/off, 1/0)";
    case CFG_INT: return "is not an integer (examples: 42, -3, 0x10, 4K)";
    case CFG_UINT: return "is not a non-negative integer (examples: 42, 0x10, 4K)";
    case CFG_SIZE: return "is not a size (examples: 128, 16K, 16KB, 16KiB, 2M)";
    case CFG_FREQ: return "is not a frequency (examples: 700MHz, 1.4GHz)";
    case CFG_TIME: return "is not a time (examples: 10ns, 11432ps, 1.5us)";
    case CFG_DOUBLE: return "is not a number (examples: 0.5, 3, 1e-3)";
    case CFG_ENUM: return "is not one of the choices";
    case CFG_STRING: return "is not a string";
    }
    sim_panic("bad cfg_type %d", (int)k->type);
}

static const char *stored_unit_name(const struct cfg_key *k)
{
    switch (k->type) {
    case CFG_SIZE: return "bytes";
    case CFG_FREQ: return "Hz";
    case CFG_TIME: return "ps";
    default: return "units";
    }
}

/* Unsigned kinds: uint, size, freq, time (optionally with unit suffixes). */
static bool parse_unsigned(const struct cfg_key *k, const char *text, uint64_t *out, char *why,
                           size_t why_len)
{
    const struct unit *units = k->type == CFG_SIZE   ? size_units
                               : k->type == CFG_FREQ ? freq_units
                               : k->type == CFG_TIME ? time_units
                                                     : int_units;
    bool hex_ok = k->type == CFG_UINT || k->type == CFG_SIZE;
    struct num n;
    const char *end = scan_number(text, &n, hex_ok);
    const struct unit *u = end ? match_unit(end, units) : NULL;
    if (!u || n.neg) {
        snprintf(why, why_len, "%s", type_hint(k));
        return false;
    }
    switch (scale_num(&n, u->factor, out)) {
    case SCALE_OK:
        return true;
    case SCALE_NOT_WHOLE:
        if (k->type == CFG_UINT)
            snprintf(why, why_len, "%s", type_hint(k));
        else
            snprintf(why, why_len, "is not a whole number of %s", stored_unit_name(k));
        return false;
    case SCALE_OVERFLOW:
        snprintf(why, why_len, "is too large (more than 64 bits)");
        return false;
    }
    return false;
}

static bool parse_int(const struct cfg_key *k, const char *text, int64_t *out, char *why,
                      size_t why_len)
{
    struct num n;
    const char *end = scan_number(text, &n, true);
    const struct unit *u = end ? match_unit(end, int_units) : NULL;
    uint64_t mag;
    if (!u) {
        snprintf(why, why_len, "%s", type_hint(k));
        return false;
    }
    switch (scale_num(&n, u->factor, &mag)) {
    case SCALE_OK:
        break;
    case SCALE_NOT_WHOLE:
        snprintf(why, why_len, "%s", type_hint(k));
        return false;
    case SCALE_OVERFLOW:
        snprintf(why, why_len, "is too large (more than 64 bits)");
        return false;
    }
    if (n.neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX) {
        snprintf(why, why_len, "does not fit a signed 64-bit integer");
        return false;
    }
    if (n.neg)
        *out = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    else
        *out = (int64_t)mag;
    return true;
}

static bool parse_bool(const char *text, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < ARRAY_LEN(yes); i++) {
        if (strcasecmp(text, yes[i]) == 0) {
            *out = true;
            return true;
        }
        if (strcasecmp(text, no[i]) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

static bool parse_double(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

static size_t choice_count(const struct cfg_key *k)
{
    size_t n = 0;
    while (k->choices[n])
        n++;
    return n;
}

/* "a, b, c" for an enum's choices. */
void cfg_join_choices(const struct cfg_key *k, const char *sep, char *buf, size_t len)
{
    size_t pos = 0;
    buf[0] = '\0';
    for (size_t i = 0; k->choices[i]; i++) {
        int w = snprintf(buf + pos, len - pos, "%s%s", i ? sep : "", k->choices[i]);
        if (w < 0 || (size_t)w >= len - pos)
            break;
        pos += (size_t)w;
    }
}

static bool parse_enum(const struct cfg_key *k, const char *text, int *out, char *why,
                       size_t why_len)
{
    size_t best_d = SIZE_MAX;
    int best = -1;
    for (int i = 0; k->choices[i]; i++) {
        if (strcasecmp(text, k->choices[i]) == 0) {
            *out = i;
            return true;
        }
        size_t dist = diag_edit_distance(text, k->choices[i]);
        if (dist < best_d) {
            best_d = dist;
            best = i;
        }
    }
    char list[CFG_WHY_MAX / 2];
    cfg_join_choices(k, ", ", list, sizeof list);
    if (best >= 0 && best_d <= 2 && best_d * 3 <= strlen(k->choices[best]))
        snprintf(why, why_len, "is not one of %s (did you mean '%s'?)", list, k->choices[best]);
    else
        snprintf(why, why_len, "is not one of %s", list);
    return false;
}

/* Parse text for key k into *v. On failure writes "<what is wrong>" to why.
 * Range is not checked here (see cfg_val_check_range). */
bool cfg_val_parse(const struct cfg_key *k, const char *text, union cfg_val *v, char *why,
                   size_t why_len)
{
    memset(v, 0, sizeof *v);
    switch (k->type) {
    case CFG_BOOL:
        if (parse_bool(text, &v->b))
            return true;
        break;
    case CFG_INT:
        return parse_int(k, text, &v->i, why, why_len);
    case CFG_UINT:
    case CFG_SIZE:
    case CFG_FREQ:
    case CFG_TIME:
        return parse_unsigned(k, text, &v->u, why, why_len);
    case CFG_DOUBLE:
        if (parse_double(text, &v->d))
            return true;
        break;
    case CFG_ENUM:
        return parse_enum(k, text, &v->e, why, why_len);
    case CFG_STRING:
        v->s = xstrdup(text);
        return true;
    }
    snprintf(why, why_len, "%s", type_hint(k));
    return false;
}

/* ---- normalised text of a value */

/* ip.frac in a decimal unit of 10^digits, trailing zeros dropped. */
static void fmt_decimal(char *buf, size_t len, uint64_t v, uint64_t unit, int digits,
                        const char *suffix)
{
    uint64_t ip = v / unit, fr = v % unit;
    if (fr == 0) {
        snprintf(buf, len, "%" PRIu64 "%s", ip, suffix);
        return;
    }
    char f[32];
    snprintf(f, sizeof f, "%0*" PRIu64, digits, fr);
    size_t n = strlen(f);
    while (n > 0 && f[n - 1] == '0')
        f[--n] = '\0';
    snprintf(buf, len, "%" PRIu64 ".%s%s", ip, f, suffix);
}

static void fmt_size(char *buf, size_t len, uint64_t b)
{
    if (b != 0 && b % GIB == 0)
        snprintf(buf, len, "%" PRIu64 "G", b / GIB);
    else if (b != 0 && b % MIB == 0)
        snprintf(buf, len, "%" PRIu64 "M", b / MIB);
    else if (b != 0 && b % KIB == 0)
        snprintf(buf, len, "%" PRIu64 "K", b / KIB);
    else
        snprintf(buf, len, "%" PRIu64, b);
}

/* Largest unit not above the value, with an exact decimal fraction:
 * 700MHz, 1.4GHz, 924MHz. */
static void fmt_freq(char *buf, size_t len, uint64_t hz)
{
    if (hz >= 1000000000ull)
        fmt_decimal(buf, len, hz, 1000000000ull, 9, "GHz");
    else if (hz >= 1000000ull)
        fmt_decimal(buf, len, hz, 1000000ull, 6, "MHz");
    else if (hz >= 1000ull)
        fmt_decimal(buf, len, hz, 1000ull, 3, "kHz");
    else
        snprintf(buf, len, "%" PRIu64 "Hz", hz);
}

/* Largest unit that divides the value exactly: 11432ps, 10ns, 2us. */
static void fmt_time(char *buf, size_t len, uint64_t ps)
{
    static const struct unit order[] = {
        {"s", 1000000000000ull}, {"ms", 1000000000ull}, {"us", 1000000ull}, {"ns", 1000ull},
    };
    for (size_t i = 0; ps != 0 && i < ARRAY_LEN(order); i++) {
        if (ps % order[i].factor == 0) {
            snprintf(buf, len, "%" PRIu64 "%s", ps / order[i].factor, order[i].suffix);
            return;
        }
    }
    snprintf(buf, len, "%" PRIu64 "ps", ps);
}

/* Shortest "%g" text that reads back as the same double. */
static void fmt_double(char *buf, size_t len, double d)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            return;
    }
}

/* Normalised text of v (heap string). */
char *cfg_val_format(const struct cfg_key *k, const union cfg_val *v)
{
    char buf[64];
    switch (k->type) {
    case CFG_BOOL: return xstrdup(v->b ? "true" : "false");
    case CFG_INT: snprintf(buf, sizeof buf, "%" PRId64, v->i); break;
    case CFG_UINT: snprintf(buf, sizeof buf, "%" PRIu64, v->u); break;
    case CFG_SIZE: fmt_size(buf, sizeof buf, v->u); break;
    case CFG_FREQ: fmt_freq(buf, sizeof buf, v->u); break;
    case CFG_TIME: fmt_time(buf, sizeof buf, v->u); break;
    case CFG_DOUBLE: fmt_double(buf, sizeof buf, v->d); break;
    case CFG_ENUM: return xstrdup(k->choices[v->e]);
    case CFG_STRING: return xstrdup(v->s ? v->s : "");
    }
    return xstrdup(buf);
}

/* ---- range */

/* Table bounds are doubles; convert them to the stored integer type with
 * saturation (a min is rounded up, a max down), so comparisons are exact. */
static uint64_t bound_u64(double d, bool is_min)
{
    if (!(d > 0))
        return 0;
    if (d >= 18446744073709551616.0)
        return UINT64_MAX;
    uint64_t v = (uint64_t)d;
    if (is_min && (double)v < d)
        v++;
    return v;
}

static int64_t bound_i64(double d, bool is_min)
{
    if (d <= -9223372036854775808.0)
        return INT64_MIN;
    if (d >= 9223372036854775808.0)
        return INT64_MAX;
    double r = is_min ? ceil(d) : floor(d);
    return (int64_t)r;
}

/* The key's range as "lo .. hi" in its own units, e.g. "100MHz .. 10GHz". */
void cfg_format_range(const struct cfg_key *k, char *buf, size_t len)
{
    union cfg_val lo, hi;
    memset(&lo, 0, sizeof lo);
    memset(&hi, 0, sizeof hi);
    switch (k->type) {
    case CFG_INT:
        lo.i = bound_i64(k->min, true);
        hi.i = bound_i64(k->max, false);
        break;
    case CFG_DOUBLE:
        lo.d = k->min;
        hi.d = k->max;
        break;
    default:
        lo.u = bound_u64(k->min, true);
        hi.u = bound_u64(k->max, false);
        break;
    }
    char *a = cfg_val_format(k, &lo), *b = cfg_val_format(k, &hi);
    snprintf(buf, len, "%s .. %s", a, b);
    free(a);
    free(b);
}

bool cfg_val_check_range(const struct cfg_key *k, const union cfg_val *v, char *why,
                         size_t why_len)
{
    if (!cfg_has_range(k))
        return true;
    bool ok;
    switch (k->type) {
    case CFG_INT:
        ok = v->i >= bound_i64(k->min, true) && v->i <= bound_i64(k->max, false);
        break;
    case CFG_DOUBLE:
        ok = v->d >= k->min && v->d <= k->max;
        break;
    default:
        ok = v->u >= bound_u64(k->min, true) && v->u <= bound_u64(k->max, false);
        break;
    }
    if (!ok) {
        char r[160];
        cfg_format_range(k, r, sizeof r);
        snprintf(why, why_len, "is out of range (allowed %s)", r);
    }
    return ok;
}

void cfg_val_free(const struct cfg_key *k, union cfg_val *v)
{
    if (k->type == CFG_STRING) {
        free(v->s);
        v->s = NULL;
    }
}

/* Write v into a field of k's type; takes ownership of a string and frees
 * the field's old string only when free_old is set. */
void cfg_val_store(const struct cfg_key *k, void *field, union cfg_val *v, bool free_old)
{
    switch (k->type) {
    case CFG_BOOL: *(bool *)field = v->b; break;
    case CFG_INT: *(int64_t *)field = v->i; break;
    case CFG_UINT:
    case CFG_SIZE:
    case CFG_FREQ:
    case CFG_TIME: *(uint64_t *)field = v->u; break;
    case CFG_DOUBLE: *(double *)field = v->d; break;
    case CFG_ENUM: *(int *)field = v->e; break;
    case CFG_STRING:
        if (free_old)
            free(*(char **)field);
        *(char **)field = v->s;
        v->s = NULL;
        break;
    }
}

/* Read a field of k's type (a string is borrowed, not copied). */
static union cfg_val load_field(const struct cfg_key *k, const void *field)
{
    union cfg_val v;
    memset(&v, 0, sizeof v);
    switch (k->type) {
    case CFG_BOOL: v.b = *(const bool *)field; break;
    case CFG_INT: v.i = *(const int64_t *)field; break;
    case CFG_UINT:
    case CFG_SIZE:
    case CFG_FREQ:
    case CFG_TIME: v.u = *(const uint64_t *)field; break;
    case CFG_DOUBLE: v.d = *(const double *)field; break;
    case CFG_ENUM: v.e = *(const int *)field; break;
    case CFG_STRING: v.s = *(char *const *)field; break;
    }
    return v;
}

bool cfg_parse_value(const struct cfg_key *k, const char *text, void *field, char *why,
                     size_t why_len)
{
    union cfg_val v;
    char tmp[CFG_WHY_MAX];
    if (!why || !why_len) {
        why = tmp;
        why_len = sizeof tmp;
    }
    why[0] = '\0';
    if (!cfg_val_parse(k, text, &v, why, why_len))
        return false;
    if (!cfg_val_check_range(k, &v, why, why_len)) {
        cfg_val_free(k, &v);
        return false;
    }
    cfg_val_store(k, field, &v, false);
    return true;
}

void cfg_format_value(const struct cfg_key *k, const void *field, char *buf, size_t len)
{
    union cfg_val v = load_field(k, field);
    if (k->type == CFG_ENUM && (v.e < 0 || (size_t)v.e >= choice_count(k))) {
        /* Not a valid choice index: show the number rather than read past the list. */
        snprintf(buf, len, "%d", v.e);
        return;
    }
    char *t = cfg_val_format(k, &v);
    snprintf(buf, len, "%s", t);
    free(t);
}
