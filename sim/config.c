/* sim/config.c: loading, validating and printing the declared configuration.
 *
 * What it does: walks the section tables listed in sim/cfg_registry.c (the
 * only declaration of keys), parses `key = value` files and "key=value"
 * overrides into a heap-allocated struct sim_cfg, and remembers for every key
 * the normalised value text and where it was set. Every problem is appended
 * to a struct diag and loading carries on, so one run reports all of them.
 *
 * What it deliberately does not do: no `[section]` headers (full names carry
 * the section), no quoting or escapes (a string value is the rest of the
 * line, so it cannot contain '#'), no environment-variable expansion and no
 * arithmetic in values. Fractions are accepted only when they give a whole
 * number in the stored unit ("1.5us" yes, "1.5ps" no): values are exact
 * integers, never rounded.
 *
 * Operation mix: a few hundred keys, a few files, once per run. Lookups are
 * linear scans over the tables; nothing here is on the simulation hot path.
 * There is no file-scope mutable state: everything lives in struct cfg or on
 * the stack, so independent struct cfg instances never interact.
 */
#include "sim/config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/json.h"
#include "sim/sim_cfg.h"

#define CFG_NAME_MAX 128       /* longest full key name "<section>.<key>", with NUL */
#define CFG_MAX_INCLUDE_DEPTH 16
#define CFG_WHY_MAX 512        /* longest "what is wrong with this value" text */

/* ------------------------------------------------------------ small helpers */

static char *xasprintf(const char *fmt, ...) PRINTF_LIKE(1, 2);
static char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        sim_panic("vsnprintf failed in config");
    char *p = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

/* Trim ASCII whitespace in place at both ends; returns the new start. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

static bool file_readable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

static bool dir_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ------------------------------------------------------------ key tables */

/* One key resolved against the registry. */
struct key_ref {
    const struct cfg_section *sec;
    const struct cfg_key *key;
    int index; /* global index: sections in registry order, keys in table order */
};

static size_t total_keys(void)
{
    size_t n = 0;
    for (unsigned s = 0; s < cfg_n_sections; s++)
        n += cfg_sections[s]->n_keys;
    return n;
}

/* The key with global index `index`; an index out of range is a bug. */
static struct key_ref key_at(int index)
{
    int base = 0;
    for (unsigned s = 0; s < cfg_n_sections; s++) {
        const struct cfg_section *sec = cfg_sections[s];
        if (index >= base && index < base + (int)sec->n_keys)
            return (struct key_ref){sec, &sec->keys[index - base], index};
        base += (int)sec->n_keys;
    }
    sim_panic("config key index %d out of range", index);
}

/* Full names are "<section>.<key>"; a key name may itself contain dots
 * ("sched.two_level.n_active" is key "two_level.n_active" of "sched"). */
static bool find_key(const char *full, struct key_ref *out)
{
    int base = 0;
    for (unsigned s = 0; s < cfg_n_sections; s++) {
        const struct cfg_section *sec = cfg_sections[s];
        size_t ln = strlen(sec->name);
        if (strncmp(full, sec->name, ln) == 0 && full[ln] == '.') {
            for (size_t k = 0; k < sec->n_keys; k++) {
                if (strcmp(full + ln + 1, sec->keys[k].name) == 0) {
                    out->sec = sec;
                    out->key = &sec->keys[k];
                    out->index = base + (int)k;
                    return true;
                }
            }
        }
        base += (int)sec->n_keys;
    }
    return false;
}

static void full_name(const struct key_ref *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s.%s", r->sec->name, r->key->name);
}

/* Registry entry s continues the section of entry s - 1: a section may be
 * declared in parts, adjacent entries with the same name (sim/config.h). */
static bool same_section_as_previous(unsigned s)
{
    return s > 0 && strcmp(cfg_sections[s - 1]->name, cfg_sections[s]->name) == 0;
}

/* The current name of a renamed key (sim/cfg_registry.c), or NULL. */
static const char *renamed_to(const char *old_name)
{
    for (unsigned i = 0; i < cfg_n_renamed_keys; i++)
        if (strcmp(cfg_renamed_keys[i].old_name, old_name) == 0)
            return cfg_renamed_keys[i].new_name;
    return NULL;
}

static const char *type_name(enum cfg_type t)
{
    switch (t) {
    case CFG_BOOL: return "bool";
    case CFG_INT: return "int";
    case CFG_UINT: return "uint";
    case CFG_SIZE: return "size";
    case CFG_FREQ: return "freq";
    case CFG_TIME: return "time";
    case CFG_DOUBLE: return "double";
    case CFG_ENUM: return "enum";
    case CFG_STRING: return "string";
    }
    sim_panic("bad cfg_type %d", (int)t);
}

/* Types whose range fields are meaningful. */
static bool has_range(const struct cfg_key *k)
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

/* ------------------------------------------------------------ values */

/* A parsed value before it is stored; which member is live follows the type. */
union cfg_val {
    bool b;     /* CFG_BOOL */
    int64_t i;  /* CFG_INT */
    uint64_t u; /* CFG_UINT, CFG_SIZE (bytes), CFG_FREQ (Hz), CFG_TIME (ps) */
    double d;   /* CFG_DOUBLE */
    int e;      /* CFG_ENUM: choice index */
    char *s;    /* CFG_STRING: owned by whoever holds the union */
};

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
static void join_choices(const struct cfg_key *k, const char *sep, char *buf, size_t len)
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
    join_choices(k, ", ", list, sizeof list);
    if (best >= 0 && best_d <= 2 && best_d * 3 <= strlen(k->choices[best]))
        snprintf(why, why_len, "is not one of %s (did you mean '%s'?)", list, k->choices[best]);
    else
        snprintf(why, why_len, "is not one of %s", list);
    return false;
}

/* Parse text for key k into *v. On failure writes "<what is wrong>" to why.
 * Range is not checked here (see check_range). */
static bool parse_value(const struct cfg_key *k, const char *text, union cfg_val *v, char *why,
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
static char *format_value(const struct cfg_key *k, const union cfg_val *v)
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
static void format_range(const struct cfg_key *k, char *buf, size_t len)
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
    char *a = format_value(k, &lo), *b = format_value(k, &hi);
    snprintf(buf, len, "%s .. %s", a, b);
    free(a);
    free(b);
}

static bool check_range(const struct cfg_key *k, const union cfg_val *v, char *why,
                        size_t why_len)
{
    if (!has_range(k))
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
        format_range(k, r, sizeof r);
        snprintf(why, why_len, "is out of range (allowed %s)", r);
    }
    return ok;
}

static void free_val(const struct cfg_key *k, union cfg_val *v)
{
    if (k->type == CFG_STRING) {
        free(v->s);
        v->s = NULL;
    }
}

/* Write v into a field of k's type; takes ownership of a string and frees
 * the field's old string only when free_old is set. */
static void store_field(const struct cfg_key *k, void *field, union cfg_val *v, bool free_old)
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

static void *field_of(struct cfg *c, const struct key_ref *r)
{
    return (char *)c->values + r->sec->offset + r->key->offset;
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
    if (!parse_value(k, text, &v, why, why_len))
        return false;
    if (!check_range(k, &v, why, why_len)) {
        free_val(k, &v);
        return false;
    }
    store_field(k, field, &v, false);
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
    char *t = format_value(k, &v);
    snprintf(buf, len, "%s", t);
    free(t);
}

/* ------------------------------------------------------------ did you mean */

/* Small enough relative to the length to be a likely typo. */
static bool close_enough(size_t dist, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t longer = la > lb ? la : lb;
    return dist <= 3 && dist * 3 <= longer;
}

/* " (did you mean 'x'?)", " (did you mean 'x' or 'y'?)" or "" for an unknown
 * full name. Compares the whole name, and also the part after the first '.'
 * against every key's own name, which catches a key put in the wrong section
 * ("gpu.min_latency" -> "icnt.min_latency") and a missing section ("n_sm"). */
static void suggest_key(const char *name, char *out, size_t len)
{
    enum { MAX_HINTS = 3 };
    const char *dot = strchr(name, '.');
    const char *tail = dot ? dot + 1 : name;
    size_t best = SIZE_MAX;
    int hints[MAX_HINTS];
    int n_hints = 0;
    int n = (int)total_keys();
    for (int i = 0; i < n; i++) {
        struct key_ref r = key_at(i);
        char full[CFG_NAME_MAX];
        full_name(&r, full, sizeof full);
        size_t d1 = diag_edit_distance(name, full);
        size_t d2 = diag_edit_distance(tail, r.key->name);
        size_t d = SIZE_MAX;
        if (close_enough(d1, name, full))
            d = d1;
        if (close_enough(d2, tail, r.key->name) && d2 < d)
            d = d2;
        if (d == SIZE_MAX || d > best)
            continue;
        if (d < best) {
            best = d;
            n_hints = 0;
        }
        if (n_hints < MAX_HINTS)
            hints[n_hints++] = i;
    }
    out[0] = '\0';
    if (n_hints == 0)
        return;
    size_t pos = (size_t)snprintf(out, len, " (did you mean ");
    for (int h = 0; h < n_hints && pos < len; h++) {
        struct key_ref r = key_at(hints[h]);
        char full[CFG_NAME_MAX];
        full_name(&r, full, sizeof full);
        const char *sep = h == 0 ? "" : h + 1 == n_hints ? " or " : ", ";
        pos += (size_t)snprintf(out + pos, len - pos, "%s'%s'", sep, full);
    }
    if (pos < len)
        snprintf(out + pos, len - pos, "?)");
}

/* ------------------------------------------------------------ struct cfg */

/* Panic on table mistakes: they are simulator bugs, not user errors. */
static void validate_tables(void)
{
    for (unsigned s = 0; s < cfg_n_sections; s++) {
        const struct cfg_section *sec = cfg_sections[s];
        if (!sec->name || !sec->name[0] || strchr(sec->name, '.'))
            sim_panic("config section %u has a bad name", s);
        /* Parts of one section are adjacent (same_section_as_previous). */
        for (unsigned t = 0; t + 1 < s; t++)
            if (strcmp(cfg_sections[t]->name, sec->name) == 0 && !same_section_as_previous(s))
                sim_panic("config section '%s' is registered twice, not in adjacent parts",
                          sec->name);
        for (size_t k = 0; k < sec->n_keys; k++) {
            const struct cfg_key *key = &sec->keys[k];
            if (!key->name || !key->name[0] || !key->doc)
                sim_panic("config key %zu of section '%s' lacks a name or doc", k, sec->name);
            if (strlen(sec->name) + 1 + strlen(key->name) >= CFG_NAME_MAX)
                sim_panic("config key '%s.%s' is longer than %d", sec->name, key->name,
                          CFG_NAME_MAX - 1);
            if (key->type == CFG_ENUM && (!key->choices || !key->choices[0]))
                sim_panic("config key '%s.%s' is an enum without choices", sec->name, key->name);
            /* Unique across every part of the section. */
            for (unsigned t = 0; t <= s; t++) {
                const struct cfg_section *o = cfg_sections[t];
                if (strcmp(o->name, sec->name) != 0)
                    continue;
                size_t end = t == s ? k : o->n_keys;
                for (size_t j = 0; j < end; j++)
                    if (strcmp(o->keys[j].name, key->name) == 0)
                        sim_panic("config key '%s.%s' is declared twice", sec->name, key->name);
            }
        }
    }
    /* The renamed-keys table: an old name is no longer declared (else it would
     * never be refused), its new name is, and each old name appears once. */
    for (unsigned i = 0; i < cfg_n_renamed_keys; i++) {
        const struct cfg_renamed_key *rk = &cfg_renamed_keys[i];
        struct key_ref r;
        if (!rk->old_name || !rk->new_name || find_key(rk->old_name, &r) ||
            !find_key(rk->new_name, &r))
            sim_panic("renamed config key %u ('%s' -> '%s') is inconsistent with the tables", i,
                      rk->old_name ? rk->old_name : "(null)",
                      rk->new_name ? rk->new_name : "(null)");
        for (unsigned j = 0; j < i; j++)
            if (strcmp(cfg_renamed_keys[j].old_name, rk->old_name) == 0)
                sim_panic("renamed config key '%s' is listed twice", rk->old_name);
    }
}

void cfg_init(struct cfg *c)
{
    validate_tables();
    size_t n = total_keys();
    memset(c, 0, sizeof *c);
    c->values = xcalloc(1, sizeof *c->values);
    c->origin = xcalloc(n, sizeof *c->origin);
    c->text = xcalloc(n, sizeof *c->text);
    for (int i = 0; i < (int)n; i++) {
        struct key_ref r = key_at(i);
        
        if (!r.key->def)
            continue; /* required: origin and text stay NULL until set */
        union cfg_val v;
        char why[CFG_WHY_MAX];
        if (!parse_value(r.key, r.key->def, &v, why, sizeof why) ||
            !check_range(r.key, &v, why, sizeof why))
            sim_panic("default '%s' of config key '%s.%s' %s", r.key->def, r.sec->name,
                      r.key->name, why);
        c->text[i] = format_value(r.key, &v);
        c->origin[i] = xstrdup("default");
        store_field(r.key, field_of(c, &r), &v, true);
    }
}

void cfg_fini(struct cfg *c)
{
    if (!c->values)
        return;
    int n = (int)total_keys();
    for (int i = 0; i < n; i++) {
        struct key_ref r = key_at(i);
        
        if (r.key->type == CFG_STRING)
            free(*(char **)field_of(c, &r));
        free(c->origin[i]);
        free(c->text[i]);
    }
    free(c->values);
    free(c->origin);
    free(c->text);
    free(c->source);
    memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------------ assignments */

/* Where a line came from: file and line, or an override origin with line 0. */
struct loc {
    const char *file; /* path as opened, or the origin string ("-o") */
    int line;         /* 1-based; 0 for overrides */
};

static char *loc_string(const struct loc *l)
{
    return l->line > 0 ? xasprintf("%s:%d", l->file, l->line) : xstrdup(l->file);
}

/* Per-file state of one file being read. */
struct file_state {
    int *first_line; /* per global key index: line where this file set it, 0 = not yet */
};

/* Apply one `key = value`. Reports problems and leaves the old value when the
 * new one is bad. */
static void assign(struct cfg *c, const char *key, const char *value, const struct loc *l,
                   struct file_state *fs, struct diag *d)
{
    struct key_ref r;
    if (!find_key(key, &r)) {
        const char *now = renamed_to(key);
        if (now) {
            diag_add(d, l->file, l->line, 0, "unknown key '%s' (renamed to '%s')", key, now);
            return;
        }
        char hint[CFG_NAME_MAX * 4];
        suggest_key(key, hint, sizeof hint);
        diag_add(d, l->file, l->line, 0, "unknown key '%s'%s", key, hint);
        return;
    }
    if (fs) {
        if (fs->first_line[r.index]) {
            /* Last one still wins below; the duplicate itself is the error. */
            diag_add(d, l->file, l->line, 0, "key '%s': set twice, first at line %d", key,
                     fs->first_line[r.index]);
        } else {
            fs->first_line[r.index] = l->line;
        }
    }
    if (!value[0]) {
        diag_add(d, l->file, l->line, 0, "key '%s': empty value", key);
        return;
    }
    union cfg_val v;
    char why[CFG_WHY_MAX];
    if (!parse_value(r.key, value, &v, why, sizeof why)) {
        diag_add(d, l->file, l->line, 0, "key '%s': value '%s' %s", key, value, why);
        return;
    }
    if (!check_range(r.key, &v, why, sizeof why)) {
        diag_add(d, l->file, l->line, 0, "key '%s': value '%s' %s", key, value, why);
        free_val(r.key, &v);
        return;
    }
    free(c->text[r.index]);
    free(c->origin[r.index]);
    c->text[r.index] = format_value(r.key, &v);
    c->origin[r.index] = loc_string(l);
    store_field(r.key, field_of(c, &r), &v, true);
}

/* ------------------------------------------------------------ files */

/* The chain of files being read, innermost first; lives on the C stack. */
struct frame {
    const char *real;          /* realpath() of the file, for cycle detection */
    const char *path;          /* path as opened, for messages */
    const struct frame *parent;
};

static void load_file(struct cfg *c, const char *path, const struct frame *parent,
                      const struct loc *site, struct diag *d);

/* "a.cfg -> b.cfg -> a.cfg" for a cycle that closes at `again`. */
static void report_cycle(const struct frame *top, const char *again, const struct loc *site,
                         struct diag *d)
{
    const char *chain[CFG_MAX_INCLUDE_DEPTH + 2];
    int n = 0;
    for (const struct frame *f = top; f && n < (int)ARRAY_LEN(chain); f = f->parent)
        chain[n++] = f->path;
    char buf[2048];
    size_t pos = 0;
    buf[0] = '\0';
    for (int i = n - 1; i >= 0 && pos < sizeof buf; i--)
        pos += (size_t)snprintf(buf + pos, sizeof buf - pos, "%s -> ", chain[i]);
    if (pos < sizeof buf)
        snprintf(buf + pos, sizeof buf - pos, "%s", again);
    diag_add(d, site->file, site->line, 0, "include cycle: %s", buf);
}

/* `include = name`: a path relative to the including file's directory (or to
 * the working directory for an override), else a preset name. */
static void do_include(struct cfg *c, const char *name, const char *including,
                       const struct frame *parent, const struct loc *site, struct diag *d)
{
    if (c->include_depth >= CFG_MAX_INCLUDE_DEPTH) {
        diag_add(d, site->file, site->line, 0,
                 "include '%s': includes nested deeper than %d levels", name,
                 CFG_MAX_INCLUDE_DEPTH);
        return;
    }
    char *path = NULL;
    if (name[0] == '/' || !including) {
        path = xstrdup(name);
    } else {
        const char *slash = strrchr(including, '/');
        if (slash)
            path = xasprintf("%.*s/%s", (int)(slash - including), including, name);
        else
            path = xstrdup(name);
    }
    if (!file_readable(path) && !strchr(name, '/')) {
        /* Not next to the including file: try it as a preset name. */
        char preset[PATH_MAX];
        char *base = xstrdup(name);
        if (ends_with(base, ".cfg"))
            base[strlen(base) - 4] = '\0';
        if (base[0] && cfg_find_preset(base, preset, sizeof preset) && file_readable(preset)) {
            free(path);
            path = xstrdup(preset);
        }
        free(base);
    }
    if (!file_readable(path) && access(path, F_OK) != 0) {
        diag_add(d, site->file, site->line, 0,
                 "include '%s': file not found (looked for '%s' and for a preset of that name)",
                 name, path);
        free(path);
        return;
    }
    c->include_depth++;
    load_file(c, path, parent, site, d);
    c->include_depth--;
    free(path);
}

/* One line of a file, comment already removed and trimmed. */
static void handle_line(struct cfg *c, char *s, const struct loc *l, const struct frame *self,
                        struct file_state *fs, struct diag *d)
{
    char *eq = strchr(s, '=');
    if (!eq) {
        if (s[0] == '[')
            diag_add(d, l->file, l->line, 0,
                     "malformed line '%s' (no [section] headers: write 'section.key = value')", s);
        else
            diag_add(d, l->file, l->line, 0, "malformed line '%s' (expected 'key = value')", s);
        return;
    }
    *eq = '\0';
    char *key = trim(s);
    char *value = trim(eq + 1);
    if (!key[0]) {
        diag_add(d, l->file, l->line, 0, "malformed line: no key before '=' (value '%s')", value);
        return;
    }
    if (strcmp(key, "include") == 0) {
        if (!value[0])
            diag_add(d, l->file, l->line, 0, "include: empty file name");
        else
            do_include(c, value, self->path, self, l, d);
        return;
    }
    assign(c, key, value, l, fs, d);
}

/* Read one file. `site` is where it was named (include line or NULL for the
 * top level); open errors are reported there. */
static void load_file(struct cfg *c, const char *path, const struct frame *parent,
                      const struct loc *site, struct diag *d)
{
    struct loc top = {path, 0};
    const struct loc *where = site ? site : &top;
    char *real = realpath(path, NULL);
    if (real) {
        for (const struct frame *f = parent; f; f = f->parent) {
            if (strcmp(f->real, real) == 0) {
                report_cycle(parent, path, where, d);
                free(real);
                return;
            }
        }
    }
    FILE *fp = fopen(path, "r");
    if (!fp) {
        if (site)
            diag_add(d, site->file, site->line, 0, "include '%s': cannot open: %s", path,
                     strerror(errno));
        else
            diag_add(d, path, 0, 0, "cannot open config file: %s", strerror(errno));
        free(real);
        return;
    }
    struct frame self = {real ? real : path, path, parent};
    struct file_state fs = {xcalloc(total_keys(), sizeof(int))};
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int lineno = 0;
    errno = 0;
    while ((got = getline(&line, &cap, fp)) >= 0) {
        struct loc l = {path, ++lineno};
        if ((size_t)got != strlen(line)) {
            diag_add(d, path, lineno, 0, "line contains a NUL byte (not a text file?)");
            continue;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = trim(line);
        if (s[0])
            handle_line(c, s, &l, &self, &fs, d);
        errno = 0;
    }
    if (ferror(fp))
        diag_add(d, path, lineno > 0 ? lineno + 1 : 0, 0, "read error: %s",
                 strerror(errno ? errno : EIO));
    free(line);
    free(fs.first_line);
    fclose(fp);
    free(real);
}

/* ------------------------------------------------------------ presets */

/* Candidate preset directories, in lookup order; returns how many. */
static int preset_dirs(const char *dirs[3])
{
    int n = 0;
    const char *env = getenv("GPUSIM_CONFIG_DIR");
    if (env && env[0])
        dirs[n++] = env;
#ifdef GPUSIM_SOURCE_DIR
    dirs[n++] = GPUSIM_SOURCE_DIR "/configs";
#endif
#ifdef GPUSIM_INSTALL_DATADIR
    dirs[n++] = GPUSIM_INSTALL_DATADIR "/configs";
#endif
    return n;
}

bool cfg_find_preset(const char *name, char *out, size_t out_len)
{
    if (out_len)
        out[0] = '\0';
    if (!name || !name[0] || !out_len)
        return false;
    if (strchr(name, '/') || ends_with(name, ".cfg")) {
        /* A path: returned unchanged; opening it reports a missing file. */
        if (strlen(name) >= out_len)
            return false;
        memcpy(out, name, strlen(name) + 1);
        return true;
    }
    const char *dirs[3];
    int n = preset_dirs(dirs);
    for (int i = 0; i < n; i++) {
        int w = snprintf(out, out_len, "%s/%s.cfg", dirs[i], name);
        if (w > 0 && (size_t)w < out_len && file_readable(out))
            return true;
    }
    out[0] = '\0';
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **cfg_list_presets(void)
{
    const char *dirs[3];
    int nd = preset_dirs(dirs);
    size_t n = 0, cap = 8;
    char **list = xcalloc(cap, sizeof *list);
    for (int i = 0; i < nd; i++) {
        if (!dir_exists(dirs[i]))
            continue;
        DIR *dp = opendir(dirs[i]);
        if (!dp)
            continue;
        struct dirent *e;
        while ((e = readdir(dp)) != NULL) {
            size_t len = strlen(e->d_name);
            if (e->d_name[0] == '.' || len <= 4 || !ends_with(e->d_name, ".cfg"))
                continue;
            if (n + 1 >= cap) {
                cap *= 2;
                char **nl = realloc(list, cap * sizeof *nl);
                if (!nl)
                    sim_panic("out of memory listing presets");
                list = nl;
            }
            list[n] = xmalloc(len - 3);
            memcpy(list[n], e->d_name, len - 4);
            list[n][len - 4] = '\0';
            n++;
        }
        closedir(dp);
        break; /* only the first directory that exists */
    }
    qsort(list, n, sizeof *list, cmp_str);
    list[n] = NULL;
    return list;
}

void cfg_free_list(char **list)
{
    if (!list)
        return;
    for (char **p = list; *p; p++)
        free(*p);
    free(list);
}

/* ------------------------------------------------------------ public API */

int cfg_load(struct cfg *c, const char *preset_or_path, struct diag *d)
{
    size_t before = diag_count(d);
    char path[PATH_MAX];
    free(c->source);
    c->source = xstrdup(preset_or_path ? preset_or_path : "");
    if (!preset_or_path || !cfg_find_preset(preset_or_path, path, sizeof path)) {
        char **names = cfg_list_presets();
        char avail[1024] = "";
        size_t pos = 0;
        const char *hint = NULL;
        for (char **p = names; *p && pos < sizeof avail; p++) {
            pos += (size_t)snprintf(avail + pos, sizeof avail - pos, "%s%s",
                                    p == names ? "" : ", ", *p);
            if (preset_or_path &&
                close_enough(diag_edit_distance(preset_or_path, *p), preset_or_path, *p))
                hint = *p;
        }
        diag_add(d, NULL, 0, 0,
                 "unknown preset '%s'%s%s%s (available: %s; a file path must contain '/' or "
                 "end in .cfg)",
                 preset_or_path ? preset_or_path : "(null)", hint ? " (did you mean '" : "",
                 hint ? hint : "", hint ? "'?)" : "", avail[0] ? avail : "none");
        cfg_free_list(names);
        return (int)(diag_count(d) - before);
    }
    c->include_depth = 0;
    load_file(c, path, NULL, NULL, d);
    return (int)(diag_count(d) - before);
}

int cfg_set(struct cfg *c, const char *key_eq_value, const char *origin, struct diag *d)
{
    size_t before = diag_count(d);
    struct loc l = {origin ? origin : "-o", 0};
    char *buf = xstrdup(key_eq_value ? key_eq_value : "");
    char *eq = strchr(buf, '=');
    if (!eq) {
        diag_add(d, l.file, 0, 0, "malformed override '%s' (expected key=value)", buf);
    } else {
        *eq = '\0';
        char *key = trim(buf);
        char *value = trim(eq + 1); /* no comment stripping: '#' is literal here */
        if (!key[0])
            diag_add(d, l.file, 0, 0, "malformed override '%s=%s': no key before '='", key,
                     value);
        else if (strcmp(key, "include") == 0 && value[0])
            do_include(c, value, NULL, NULL, &l, d);
        else
            assign(c, key, value, &l, NULL, d);
    }
    free(buf);
    return (int)(diag_count(d) - before);
}

void cfg_check_fail(struct cfg_checker *ck, const char *key, const char *fmt, ...)
{
    int i = cfg_key_index(key);
    if (i < 0)
        sim_panic("cfg_check_fail: unknown key '%s'", key);
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *origin = ck->cfg->origin[i] ? ck->cfg->origin[i] : "unset";
    const char *text = ck->cfg->text[i] ? ck->cfg->text[i] : "(unset)";
    diag_add(ck->diag, origin, 0, 0, "key '%s' = %s: %s", key, text, msg);
}

int cfg_finish(struct cfg *c, struct diag *d)
{
    size_t before = diag_count(d);
    struct cfg_checker ck = {c, d};
    int base = 0;
    for (unsigned s = 0; s < cfg_n_sections; s++) {
        const struct cfg_section *sec = cfg_sections[s];
        bool complete = true;
        for (size_t k = 0; k < sec->n_keys; k++) {
            if (c->origin[base + (int)k])
                continue;
            complete = false;
            diag_add(d, c->source, 0, 0,
                     "required key '%s.%s' is not set (add '%s.%s = ...' to the config or "
                     "use -o %s.%s=...): %s",
                     sec->name, sec->keys[k].name, sec->name, sec->keys[k].name, sec->name,
                     sec->keys[k].name, sec->keys[k].doc);
        }
        /* A section with unset required keys would check zeros: skip its rules. */
        if (sec->check && complete)
            sec->check((const char *)c->values + sec->offset, c->values, &ck);
        base += (int)sec->n_keys;
    }
    return (int)(diag_count(d) - before);
}

int cfg_key_index(const char *full_name)
{
    struct key_ref r;
    return full_name && find_key(full_name, &r) ? r.index : -1;
}

const char *cfg_value_text(const struct cfg *c, const char *full_name)
{
    int i = cfg_key_index(full_name);
    return i < 0 ? NULL : c->text[i];
}

const char *cfg_value_origin(const struct cfg *c, const char *full_name)
{
    int i = cfg_key_index(full_name);
    return i < 0 ? NULL : c->origin[i];
}

/* ------------------------------------------------------------ printing */

/* Columns of one row of `config --list`. */
struct key_row {
    char name[CFG_NAME_MAX];
    char def[96];
    char range[256];
};

static void key_row(const struct key_ref *r, struct key_row *row)
{
    full_name(r, row->name, sizeof row->name);
    if (!r->key->def) {
        snprintf(row->def, sizeof row->def, "(required)");
    } else {
        union cfg_val v;
        char why[CFG_WHY_MAX];
        if (!parse_value(r->key, r->key->def, &v, why, sizeof why))
            sim_panic("default '%s' of config key '%s' %s", r->key->def, row->name, why);
        char *t = format_value(r->key, &v);
        snprintf(row->def, sizeof row->def, "%s", t);
        free(t);
        free_val(r->key, &v);
    }
    if (r->key->type == CFG_ENUM)
        join_choices(r->key, "|", row->range, sizeof row->range);
    else if (r->key->type == CFG_BOOL)
        snprintf(row->range, sizeof row->range, "true|false");
    else if (has_range(r->key))
        format_range(r->key, row->range, sizeof row->range);
    else
        snprintf(row->range, sizeof row->range, "-");
}

void cfg_print_keys(FILE *out)
{
    int n = (int)total_keys();
    int wn = 3, wt = 4, wd = 7, wr = 5; /* header widths: KEY TYPE DEFAULT RANGE */
    for (int i = 0; i < n; i++) {
        struct key_ref r = key_at(i);
        struct key_row row;
        key_row(&r, &row);
        wn = MAX(wn, (int)strlen(row.name));
        wt = MAX(wt, (int)strlen(type_name(r.key->type)));
        wd = MAX(wd, (int)strlen(row.def));
        wr = MAX(wr, (int)strlen(row.range));
    }
    fprintf(out, "  %-*s  %-*s  %-*s  %-*s  %s\n", wn, "KEY", wt, "TYPE", wd, "DEFAULT", wr,
            "RANGE", "DESCRIPTION");
    const struct cfg_section *cur = NULL;
    for (int i = 0; i < n; i++) {
        struct key_ref r = key_at(i);
        struct key_row row;
        
        if (!cur || strcmp(r.sec->name, cur->name) != 0) { /* parts share one heading */
            cur = r.sec;
            fprintf(out, "\n[%s] %s\n", cur->name, cur->doc ? cur->doc : "");
        }
        key_row(&r, &row);
        fprintf(out, "  %-*s  %-*s  %-*s  %-*s  %s\n", wn, row.name, wt, type_name(r.key->type),
                wd, row.def, wr, row.range, r.key->doc);
    }
}

/* The output is itself a valid config file: headings are comments, and a
 * required key that was never set is written commented out. */
void cfg_print_resolved(const struct cfg *c, FILE *out)
{
    int n = (int)total_keys();
    int w = 0;
    for (int i = 0; i < n; i++) {
        struct key_ref r = key_at(i);
        char full[CFG_NAME_MAX];
        full_name(&r, full, sizeof full);
        int len = (int)(strlen(full) + 3 + strlen(c->text[i] ? c->text[i] : "(not set)"));
        w = MAX(w, len);
    }
    const struct cfg_section *cur = NULL;
    for (int i = 0; i < n; i++) {
        struct key_ref r = key_at(i);
        char full[CFG_NAME_MAX];
        full_name(&r, full, sizeof full);
        if (!cur || strcmp(r.sec->name, cur->name) != 0) { /* parts share one heading */
            fprintf(out, "%s# [%s] %s\n", cur ? "\n" : "", r.sec->name,
                    r.sec->doc ? r.sec->doc : "");
            cur = r.sec;
        }
        if (c->text[i]) {
            int len = (int)(strlen(full) + 3 + strlen(c->text[i]));
            fprintf(out, "%s = %s%*s   # %s\n", full, c->text[i], w - len, "", c->origin[i]);
        } else {
            fprintf(out, "# %s = (not set)%*s # required\n", full,
                    w - (int)(strlen(full) + 12), "");
        }
    }
}

void cfg_write_json(const struct cfg *c, struct json_writer *w, const char *key)
{
    int n = (int)total_keys();
    jw_obj_begin(w, key);
    for (int i = 0; i < n; i++) {
        struct key_ref r = key_at(i);
        char full[CFG_NAME_MAX];
        full_name(&r, full, sizeof full);
        if (c->text[i])
            jw_str(w, full, c->text[i]);
        else
            jw_null(w, full); /* required key never set (cfg_finish reported it) */
    }
    jw_obj_end(w);
}
