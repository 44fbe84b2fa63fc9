/* sim/app/sweep_file.c: the sweep file, its validation, the job grid and
 * the job ids.
 *
 * Syntax: the configuration syntax (sim/cfg/config.h): `key = value` lines,
 * `#` comments to end of line, blank lines. The keys are declared once, in
 * sweep_keys[] below, with kind, default, range and doc (`gpusim sweep
 * --keys` prints them). List-valued keys take whitespace-separated words
 * and further lines of the same key append to the list; a scalar key set
 * twice is an error. `variant.NAME` declares a variant; its words are
 * `key=value` overrides exactly as `gpusim run -o` takes them (a value
 * cannot contain whitespace), or `none`.
 *
 * Validation runs before anything is started and reports every problem as
 * "file:line: key 'k': what is wrong" (the configuration's own messages for
 * an override: unknown key with a "did you mean", bad value with the rule):
 * unknown keys, unknown preset, unknown workloads or tags matching nothing,
 * unknown sizes, bad seeds, a variant whose configuration does not load,
 * an unknown baseline and an empty grid.
 *
 * Job id: "<workload>-<size>-s<seed>-<hash>", hash = FNV-1a 64 (16 hex) of
 * "gpusim-job-1\n<workload>\n<size>\n<seed>\n<config hash>\n", where the
 * config hash is the FNV-1a 64 (16 hex) of the effective configuration as
 * the statistics JSON writes its "config" object (cfg_write_json). The
 * variant's name and the way the configuration was reached (preset, file
 * or overrides) do not enter it, so the same job in two sweeps has the same
 * id, and any change of an effective value gives a new one. Two variants
 * of one sweep with the same configuration are refused (they would be the
 * same jobs), so ids are unique within a sweep.
 *
 * NOTE(sweep-lexer): the line splitter (comment, trim, '=') is the
 * configuration's, restated here in a few lines because sim/cfg keeps its
 * reader private to configuration keys; values reuse cfg_parse_value (numbers
 * and ranges) and cfg_load/cfg_set/cfg_finish (variants), so a value that
 * is wrong in a sweep is reported with the same words as in a .cfg file.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/app/sweep_internal.h"
#include "sim/base/common.h"
#include "sim/base/json.h"
#include "sim/cfg/config.h"

/* ------------------------------------------------------------------ keys */

enum sweep_kind {
    SK_TEXT,      /* one word */
    SK_UINT,      /* unsigned integer with a range (cfg_parse_value) */
    SK_SECONDS,   /* duration: 90, 90s, 15m, 2h */
    SK_WORDS,     /* words; lines append */
    SK_OVERRIDES, /* key=value words or `none`; lines append */
};

struct sweep_key {
    const char *name;      /* key; a name ending in '.' is a prefix (variant.NAME) */
    enum sweep_kind kind;
    bool required;         /* must appear at least once */
    const char *def;       /* default as written in a file (for --keys); NULL = none */
    double min, max;       /* SK_UINT, SK_SECONDS: inclusive range */
    const char *doc;       /* one line */
};

enum {
    K_PRESET, K_OVERRIDES, K_VARIANT, K_BASELINE, K_WORKLOADS, K_SIZES, K_SEEDS, K_THREADS, K_TIMEOUT,
    K_COUNT
};

static const struct sweep_key sweep_keys[K_COUNT] = {
    [K_PRESET] = {"preset", SK_TEXT, true, NULL, 0, 0,
                  "base configuration: a preset name (gpusim presets) or a .cfg file, relative to the sweep file"},
    [K_OVERRIDES] = {"overrides", SK_OVERRIDES, false, "none", 0, 0,
                     "key=value overrides applied to every variant, before the variant's own"},
    [K_VARIANT] = {"variant.", SK_OVERRIDES, true, NULL, 0, 0,
                   "variant.NAME = key=value ... (or none): one variant; at least one; NAME is [A-Za-z0-9_.+-]"},
    [K_BASELINE] = {"baseline", SK_TEXT, false, "(the first variant)", 0, 0,
                    "the variant the report normalises to"},
    [K_WORKLOADS] = {"workloads", SK_WORDS, true, NULL, 0, 0,
                     "workload names, [tag] (every workload with that tag, e.g. [register-heavy]) or all"},
    [K_SIZES] = {"sizes", SK_WORDS, false, "small", 0, 0, "size classes: tiny small medium large"},
    [K_SEEDS] = {"seeds", SK_WORDS, false, "1", 0, 0, "input seeds: numbers or ranges a..b"},
    [K_THREADS] = {"threads", SK_UINT, false, "1", 1, 256, "host threads per job (gpusim run --threads)"},
    [K_TIMEOUT] = {"timeout", SK_SECONDS, false, "0", 0, 30 * 86400,
                   "wall-clock limit per job: 90, 90s, 15m or 2h; 0 = none; a job over it is stopped and "
                   "recorded as failed"},
};

static const char *kind_name(enum sweep_kind k)
{
    switch (k) {
    case SK_TEXT: return "word";
    case SK_UINT: return "uint";
    case SK_SECONDS: return "duration";
    case SK_WORDS: return "words";
    case SK_OVERRIDES: return "overrides";
    }
    return "?";
}

void sweep_print_keys(FILE *out)
{
    fprintf(out, "sweep-file keys (docs/experiments.md):\n");
    for (int i = 0; i < K_COUNT; i++) {
        const struct sweep_key *k = &sweep_keys[i];
        char name[32];
        snprintf(name, sizeof name, "%s%s", k->name, i == K_VARIANT ? "NAME" : "");
        fprintf(out, "  %-12s %-9s %-8s %s\n", name, kind_name(k->kind), k->required ? "required" : "", k->doc);
        if (k->def)
            fprintf(out, "  %-12s %-9s %-8s default: %s\n", "", "", "", k->def);
    }
}

/* ---------------------------------------------------------------- helpers */

void sweep_strv_push(struct sweep_strv *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 8;
        l->v = xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = xstrdup(s);
}

void sweep_strv_free(struct sweep_strv *l)
{
    for (unsigned i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

uint64_t sweep_fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* The closest of `n` names to `word`, if close enough for a hint. */
static const char *closest(const char *word, const char *const *names, unsigned n)
{
    const char *best = NULL;
    size_t best_d = strlen(word) / 3 + 2;
    for (unsigned i = 0; i < n; i++) {
        size_t d = diag_edit_distance(word, names[i]);
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

/* ----------------------------------------------------------------- reading */

/* Per-file reading state. */
struct reader {
    struct sweep *s;
    struct diag *d;
    const char *file;          /* path for messages */
    int line;                  /* current line */
    int set_at[K_COUNT];       /* first line each key appeared on (0 = not yet) */
    struct sweep_strv words[K_COUNT]; /* SK_WORDS values, with their lines below */
    int *word_line[K_COUNT];   /* line of each word in words[] */
    char *text[K_COUNT];       /* SK_TEXT values */
    uint64_t num[K_COUNT];     /* SK_UINT, SK_SECONDS values */
};

static void rd_error(struct reader *r, const char *key, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void rd_error(struct reader *r, const char *key, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_add(r->d, r->file, r->line, 0, "key '%s': %s", key, msg);
}

static bool valid_variant_name(const char *n)
{
    if (!n[0])
        return false;
    for (const char *p = n; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("_.+-", *p))
            return false;
    return true;
}

static struct sweep_variant *find_variant(struct sweep *s, const char *name)
{
    for (unsigned i = 0; i < s->n_var; i++)
        if (!strcmp(s->var[i].name, name))
            return &s->var[i];
    return NULL;
}

/* Words of an override list: each "key=value" with a key, or one `none`. */
static void add_overrides(struct reader *r, const char *key, char *value, struct sweep_strv *into)
{
    char *save = NULL;
    unsigned n = 0;
    bool none = false;
    for (char *w = strtok_r(value, " \t", &save); w; w = strtok_r(NULL, " \t", &save), n++) {
        if (!strcmp(w, "none")) {
            none = true;
            continue;
        }
        char *eq = strchr(w, '=');
        if (!eq || eq == w || !eq[1]) {
            rd_error(r, key, "'%s' is not an override (write key=value, e.g. sched.policy=gto, or none)", w);
            continue;
        }
        sweep_strv_push(into, w);
    }
    if (none && n > 1)
        rd_error(r, key, "'none' stands alone (it means: no overrides)");
}

static bool parse_seconds(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)v[0]))
        return false;
    unsigned long long n = strtoull(v, &end, 10);
    if (errno)
        return false;
    uint64_t mul = 1;
    if (!strcmp(end, "") || !strcmp(end, "s"))
        mul = 1;
    else if (!strcmp(end, "m"))
        mul = 60;
    else if (!strcmp(end, "h"))
        mul = 3600;
    else
        return false;
    *out = (uint64_t)n * mul;
    return n < UINT64_MAX / 3600;
}

static void handle_line(struct reader *r, char *key, char *value)
{
    struct sweep *s = r->s;
    int k = -1;
    for (int i = 0; i < K_COUNT; i++)
        if (i == K_VARIANT ? !strncmp(key, "variant.", 8) : !strcmp(key, sweep_keys[i].name))
            k = i;
    if (k < 0) {
        const char *names[K_COUNT];
        for (int i = 0; i < K_COUNT; i++)
            names[i] = sweep_keys[i].name;
        const char *hint = closest(key, names, K_COUNT);
        if (!strcmp(key, "variant"))
            hint = "variant.NAME";
        diag_add(r->d, r->file, r->line, 0, "unknown key '%s'%s%s%s", key, hint ? " (did you mean '" : "",
                 hint ? hint : "", hint ? "'?)" : "");
        return;
    }
    const struct sweep_key *sk = &sweep_keys[k];
    bool list = sk->kind == SK_WORDS || sk->kind == SK_OVERRIDES;
    if (r->set_at[k] && !list) {
        rd_error(r, key, "set twice, first at line %d", r->set_at[k]);
        return;
    }
    if (!r->set_at[k])
        r->set_at[k] = r->line;
    if (!value[0]) {
        rd_error(r, key, "empty value%s", list && sk->kind == SK_OVERRIDES ? " (write none for no overrides)" : "");
        return;
    }
    switch (sk->kind) {
    case SK_TEXT:
        if (strpbrk(value, " \t")) {
            rd_error(r, key, "value '%s' must be one word", value);
            return;
        }
        r->text[k] = xstrdup(value);
        return;
    case SK_UINT: {
        struct cfg_key ck = {sk->name, CFG_UINT, 0, sk->min, sk->max, sk->def, NULL, sk->doc};
        char why[256];
        if (!cfg_parse_value(&ck, value, &r->num[k], why, sizeof why))
            rd_error(r, key, "value '%s' %s", value, why);
        return;
    }
    case SK_SECONDS:
        if (!parse_seconds(value, &r->num[k]) || (double)r->num[k] > sk->max)
            rd_error(r, key, "value '%s' is not a duration of at most 30 days (examples: 90, 90s, 15m, 2h; 0 = none)",
                     value);
        return;
    case SK_OVERRIDES:
        if (k == K_VARIANT) {
            const char *name = key + 8;
            if (!valid_variant_name(name)) {
                rd_error(r, key, "variant name '%s' must be letters, digits and _ . + -", name);
                return;
            }
            struct sweep_variant *v = find_variant(s, name);
            if (!v) {
                s->var = xrealloc(s->var, (s->n_var + 1) * sizeof *s->var);
                v = &s->var[s->n_var++];
                memset(v, 0, sizeof *v);
                v->name = xstrdup(name);
                v->line = r->line;
            }
            add_overrides(r, key, value, &v->ov);
        } else {
            add_overrides(r, key, value, &s->ov);
        }
        return;
    case SK_WORDS: {
        char *save = NULL;
        for (char *w = strtok_r(value, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
            sweep_strv_push(&r->words[k], w);
            r->word_line[k] = xrealloc(r->word_line[k], r->words[k].n * sizeof(int));
            r->word_line[k][r->words[k].n - 1] = r->line;
        }
        return;
    }
    }
}

static void read_file(struct reader *r, FILE *fp)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, fp)) >= 0) {
        r->line++;
        if ((size_t)got != strlen(line)) {
            diag_add(r->d, r->file, r->line, 0, "line contains a NUL byte (not a text file?)");
            continue;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *t = trim(line);
        if (!t[0])
            continue;
        char *eq = strchr(t, '=');
        if (!eq) {
            diag_add(r->d, r->file, r->line, 0, "malformed line '%s' (expected 'key = value')", t);
            continue;
        }
        *eq = '\0';
        char *key = trim(t), *value = trim(eq + 1);
        if (!key[0]) {
            diag_add(r->d, r->file, r->line, 0, "malformed line: no key before '=' (value '%s')", value);
            continue;
        }
        handle_line(r, key, value);
    }
    free(line);
}

/* ------------------------------------------------------------- validation */

static void resolve_preset(struct reader *r)
{
    struct sweep *s = r->s;
    const char *p = r->text[K_PRESET];
    r->line = r->set_at[K_PRESET];
    if (!p)
        return;
    s->preset = xstrdup(p);
    size_t len = strlen(p);
    if (strchr(p, '/') || (len > 4 && !strcmp(p + len - 4, ".cfg"))) {
        char *joined = NULL;
        const char *slash = strrchr(s->path, '/');
        if (p[0] == '/' || !slash)
            joined = xstrdup(p);
        else {
            size_t n = (size_t)(slash - s->path) + strlen(p) + 2;
            joined = xmalloc(n);
            snprintf(joined, n, "%.*s/%s", (int)(slash - s->path), s->path, p);
        }
        char *real = realpath(joined, NULL);
        if (!real)
            rd_error(r, "preset", "cannot open '%s': %s", joined, strerror(errno));
        else
            s->preset_arg = xstrdup(real);
        free(real);
        free(joined);
        return;
    }
    char path[PATH_MAX];
    if (cfg_find_preset(p, path, sizeof path)) {
        s->preset_arg = xstrdup(p);
        return;
    }
    char **names = cfg_list_presets();
    unsigned n = 0;
    char avail[1024] = "";
    size_t pos = 0;
    for (char **q = names; q && *q; q++, n++)
        if (pos < sizeof avail)
            pos += (size_t)snprintf(avail + pos, sizeof avail - pos, "%s%s", q == names ? "" : ", ", *q);
    const char *hint = closest(p, (const char *const *)names, n);
    rd_error(r, "preset", "unknown preset '%s'%s%s%s (available: %s; a file path must contain '/' or end in .cfg)",
             p, hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "", avail[0] ? avail : "none");
    cfg_free_list(names);
}

static bool has_tag(const struct sweep_workload *w, const char *tag)
{
    for (unsigned i = 0; i < SWEEP_MAX_TAGS && w->tags[i]; i++)
        if (!strcmp(w->tags[i], tag))
            return true;
    return false;
}

static void select_workload(struct sweep *s, unsigned i)
{
    for (unsigned k = 0; k < s->n_wl; k++)
        if (s->wl[k] == i)
            return;
    s->wl = xrealloc(s->wl, (s->n_wl + 1) * sizeof *s->wl);
    s->wl[s->n_wl++] = i;
}

static void resolve_workloads(struct reader *r)
{
    struct sweep *s = r->s;
    const struct sweep_catalog *cat = s->cat;
    const char **names = xcalloc(cat->n_wl + 1, sizeof *names);
    for (unsigned i = 0; i < cat->n_wl; i++)
        names[i] = cat->wl[i].name;
    for (unsigned k = 0; k < r->words[K_WORKLOADS].n; k++) {
        const char *w = r->words[K_WORKLOADS].v[k];
        r->line = r->word_line[K_WORKLOADS][k];
        size_t len = strlen(w);
        if (!strcmp(w, "all")) {
            for (unsigned i = 0; i < cat->n_wl; i++)
                select_workload(s, i);
        } else if (w[0] == '[') {
            if (len < 3 || w[len - 1] != ']') {
                rd_error(r, "workloads", "'%s' is not a tag (write [tag], e.g. [register-heavy])", w);
                continue;
            }
            char tag[128];
            snprintf(tag, sizeof tag, "%.*s", (int)(len - 2), w + 1);
            unsigned hits = 0;
            for (unsigned i = 0; i < cat->n_wl; i++)
                if (has_tag(&cat->wl[i], tag)) {
                    select_workload(s, i);
                    hits++;
                }
            if (!hits) {
                char known[512] = "";
                size_t pos = 0;
                for (unsigned i = 0; i < cat->n_wl; i++)
                    for (unsigned t = 0; t < SWEEP_MAX_TAGS && cat->wl[i].tags[t]; t++) {
                        char q[80];
                        snprintf(q, sizeof q, "[%s]", cat->wl[i].tags[t]);
                        if (!strstr(known, q) && pos < sizeof known)
                            pos += (size_t)snprintf(known + pos, sizeof known - pos, "%s%s", pos ? " " : "", q);
                    }
                rd_error(r, "workloads", "tag %s matches no workload (tags: %s)", w, known[0] ? known : "none");
            }
        } else {
            unsigned i = 0;
            while (i < cat->n_wl && strcmp(cat->wl[i].name, w))
                i++;
            if (i < cat->n_wl) {
                select_workload(s, i);
                continue;
            }
            const char *hint = closest(w, names, cat->n_wl);
            if (hint)
                rd_error(r, "workloads", "unknown workload '%s' (did you mean '%s'?)", w, hint);
            else
                rd_error(r, "workloads", "unknown workload '%s' (gpusim list shows them)", w);
        }
    }
    free(names);
}

static void resolve_sizes(struct reader *r)
{
    struct sweep *s = r->s;
    const struct sweep_catalog *cat = s->cat;
    struct sweep_strv *w = &r->words[K_SIZES];
    if (!w->n) {
        for (unsigned i = 0; i < cat->n_sizes; i++)
            if (!strcmp(cat->sizes[i], "small"))
                s->sizes[s->n_sizes++] = i;
        return;
    }
    for (unsigned k = 0; k < w->n; k++) {
        r->line = r->word_line[K_SIZES][k];
        unsigned i = 0;
        while (i < cat->n_sizes && strcmp(cat->sizes[i], w->v[k]))
            i++;
        if (i == cat->n_sizes) {
            char known[128] = "";
            size_t pos = 0;
            for (unsigned j = 0; j < cat->n_sizes; j++)
                pos += (size_t)snprintf(known + pos, sizeof known - pos, "%s%s", j ? ", " : "", cat->sizes[j]);
            rd_error(r, "sizes", "unknown size '%s' (sizes: %s)", w->v[k], known);
            continue;
        }
        bool dup = false;
        for (unsigned j = 0; j < s->n_sizes; j++)
            dup |= s->sizes[j] == i;
        if (!dup && s->n_sizes < ARRAY_LEN(s->sizes))
            s->sizes[s->n_sizes++] = i;
    }
}

#define SWEEP_MAX_SEEDS 10000

static bool parse_u64(const char *t, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)t[0]))
        return false;
    unsigned long long v = strtoull(t, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

static void add_seed(struct sweep *s, uint64_t v)
{
    for (unsigned i = 0; i < s->n_seeds; i++)
        if (s->seeds[i] == v)
            return;
    s->seeds = xrealloc(s->seeds, (s->n_seeds + 1) * sizeof *s->seeds);
    s->seeds[s->n_seeds++] = v;
}

static void resolve_seeds(struct reader *r)
{
    struct sweep *s = r->s;
    struct sweep_strv *w = &r->words[K_SEEDS];
    if (!w->n) {
        add_seed(s, 1);
        return;
    }
    for (unsigned k = 0; k < w->n; k++) {
        r->line = r->word_line[K_SEEDS][k];
        char buf[128];
        snprintf(buf, sizeof buf, "%s", w->v[k]);
        char *dots = strstr(buf, "..");
        uint64_t a, b;
        if (dots) {
            *dots = '\0';
            if (!parse_u64(buf, &a) || !parse_u64(dots + 2, &b) || b < a) {
                rd_error(r, "seeds", "'%s' is not a range a..b of seeds with a <= b", w->v[k]);
                continue;
            }
        } else if (!parse_u64(buf, &a)) {
            rd_error(r, "seeds", "'%s' is not a seed (a non-negative integer or a range a..b)", w->v[k]);
            continue;
        } else {
            b = a;
        }
        if (b - a >= SWEEP_MAX_SEEDS || s->n_seeds + (b - a) >= SWEEP_MAX_SEEDS) {
            rd_error(r, "seeds", "more than %d seeds", SWEEP_MAX_SEEDS);
            continue;
        }
        for (uint64_t v = a;; v++) {
            add_seed(s, v);
            if (v == b)
                break;
        }
    }
}

void sweep_variant_overrides(const struct sweep *s, unsigned v, struct sweep_strv *out)
{
    for (unsigned i = 0; i < s->ov.n; i++)
        sweep_strv_push(out, s->ov.v[i]);
    for (unsigned i = 0; i < s->var[v].ov.n; i++)
        sweep_strv_push(out, s->var[v].ov.v[i]);
}

/* Move the variant's errors into `into`, once each. A message that does not
 * point into the sweep file (a cross-field rule reported at the preset's
 * line) is prefixed with the variant's line, so every message names it. */
static void add_unique(struct diag *into, const struct diag *from, const char *file, const char *prefix)
{
    size_t fl = strlen(file);
    for (size_t i = 0; i < from->n; i++) {
        const char *m = from->msgs[i];
        size_t n = strlen(prefix) + strlen(m) + 3;
        char *msg = xmalloc(n);
        if (strncmp(m, file, fl) || m[fl] != ':')
            snprintf(msg, n, "%s: %s", prefix, m);
        else
            snprintf(msg, n, "%s", m);
        bool seen = false;
        for (size_t k = 0; k < into->n && !seen; k++)
            seen = !strcmp(into->msgs[k], msg);
        if (!seen)
            diag_add(into, NULL, 0, 0, "%s", msg);
        free(msg);
    }
}

/* Load the variant's configuration as a job will, and hash it. */
static void check_variant(struct reader *r, unsigned v)
{
    struct sweep *s = r->s;
    struct sweep_variant *var = &s->var[v];
    struct diag vd;
    diag_init(&vd);
    struct cfg cfg;
    cfg_init(&cfg);
    cfg_load(&cfg, s->preset_arg, &vd);
    char origin[PATH_MAX + 64];
    snprintf(origin, sizeof origin, "%s:%d: key 'overrides'", r->file, r->set_at[K_OVERRIDES]);
    for (unsigned i = 0; i < s->ov.n; i++)
        cfg_set(&cfg, s->ov.v[i], origin, &vd);
    snprintf(origin, sizeof origin, "%s:%d: key 'variant.%s'", r->file, var->line, var->name);
    for (unsigned i = 0; i < var->ov.n; i++)
        cfg_set(&cfg, var->ov.v[i], origin, &vd);
    if (!diag_count(&vd))
        cfg_finish(&cfg, &vd);
    add_unique(r->d, &vd, r->file, origin);
    if (!diag_count(&vd)) {
        char *text = NULL;
        size_t len = 0;
        FILE *mf = open_memstream(&text, &len);
        if (!mf)
            sim_panic("open_memstream failed: %s", strerror(errno));
        struct json_writer w;
        jw_init(&w, mf);
        cfg_write_json(&cfg, &w, NULL);
        jw_finish(&w);
        fclose(mf);
        snprintf(var->hash, sizeof var->hash, "%016" PRIx64, sweep_fnv1a(SWEEP_FNV_INIT, text, len));
        free(text);
    }
    cfg_fini(&cfg);
    diag_fini(&vd);
}

static void build_grid(struct sweep *s)
{
    const struct sweep_catalog *cat = s->cat;
    s->n_jobs = s->n_wl * s->n_sizes * s->n_seeds * s->n_var;
    s->jobs = xcalloc(s->n_jobs ? s->n_jobs : 1, sizeof *s->jobs);
    /* Open-addressed set of job hashes (value = job index + 1) to find
     * repeated ids: variants that resolve to the same configuration. */
    size_t cap = 16;
    while (cap < 2 * (size_t)s->n_jobs)
        cap *= 2;
    unsigned *seen = xcalloc(cap, sizeof *seen);
    uint64_t *hashes = xcalloc(s->n_jobs ? s->n_jobs : 1, sizeof *hashes);
    unsigned n = 0;
    uint64_t digest = SWEEP_FNV_INIT;
    for (unsigned a = 0; a < s->n_wl; a++)
        for (unsigned b = 0; b < s->n_sizes; b++)
            for (unsigned c = 0; c < s->n_seeds; c++)
                for (unsigned v = 0; v < s->n_var; v++) {
                    struct sweep_job *j = &s->jobs[n];
                    j->wl = s->wl[a];
                    j->size = s->sizes[b];
                    j->seed = s->seeds[c];
                    j->variant = v;
                    const char *wn = cat->wl[j->wl].name, *sn = cat->sizes[j->size];
                    char key[512];
                    int kl = snprintf(key, sizeof key, "gpusim-job-1\n%s\n%s\n%" PRIu64 "\n%s\n", wn, sn, j->seed,
                                      s->var[v].hash);
                    uint64_t h = sweep_fnv1a(SWEEP_FNV_INIT, key, (size_t)kl);
                    hashes[n] = h;
                    snprintf(j->id, sizeof j->id, "%.40s-%.16s-s%" PRIu64 "-%016" PRIx64, wn, sn, j->seed, h);
                    j->first = true;
                    size_t slot = (size_t)h & (cap - 1);
                    for (; seen[slot]; slot = (slot + 1) & (cap - 1)) {
                        const struct sweep_job *o = &s->jobs[seen[slot] - 1];
                        if (hashes[seen[slot] - 1] == h && !strcmp(o->id, j->id)) {
                            j->first = false;
                            j->distinct = o->distinct;
                            break;
                        }
                    }
                    if (j->first) {
                        seen[slot] = n + 1;
                        j->distinct = s->n_distinct++;
                        digest = sweep_fnv1a(digest, j->id, strlen(j->id) + 1);
                    }
                    n++;
                }
    free(seen);
    free(hashes);
    snprintf(s->digest, sizeof s->digest, "%016" PRIx64, digest);
}

#define SWEEP_MAX_JOBS 100000

int sweep_load(struct sweep *s, const char *path, const struct sweep_catalog *cat, struct diag *d)
{
    memset(s, 0, sizeof *s);
    s->cat = cat;
    s->path = xstrdup(path);
    s->threads = 1;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    s->name = xstrdup(base);
    size_t bl = strlen(s->name);
    if (bl > 6 && !strcmp(s->name + bl - 6, ".sweep"))
        s->name[bl - 6] = '\0';
    size_t before = diag_count(d);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        diag_add(d, path, 0, 0, "cannot open sweep file: %s", strerror(errno));
        return (int)(diag_count(d) - before);
    }
    char *real = realpath(path, NULL);
    s->abs_path = xstrdup(real ? real : path);
    free(real);
    struct reader r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.d = d;
    r.file = path;
    read_file(&r, fp);
    fclose(fp);

    for (int k = 0; k < K_COUNT; k++)
        if (sweep_keys[k].required && !r.set_at[k])
            diag_add(d, path, 0, 0, "key '%s%s': required key not set (%s)", sweep_keys[k].name,
                     k == K_VARIANT ? "NAME" : "", sweep_keys[k].doc);
    if (r.set_at[K_THREADS])
        s->threads = (unsigned)r.num[K_THREADS];
    s->timeout_s = (unsigned)r.num[K_TIMEOUT];
    resolve_preset(&r);
    resolve_workloads(&r);
    resolve_sizes(&r);
    resolve_seeds(&r);
    if (r.text[K_BASELINE]) {
        r.line = r.set_at[K_BASELINE];
        struct sweep_variant *b = find_variant(s, r.text[K_BASELINE]);
        if (b) {
            s->baseline = (unsigned)(b - s->var);
        } else if (s->n_var) {
            const char **names = xcalloc(s->n_var, sizeof *names);
            for (unsigned i = 0; i < s->n_var; i++)
                names[i] = s->var[i].name;
            const char *hint = closest(r.text[K_BASELINE], names, s->n_var);
            rd_error(&r, "baseline", "'%s' is not a variant of this sweep%s%s%s", r.text[K_BASELINE],
                     hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
            free(names);
        }
    }
    /* Variants load only on a preset that exists (its own errors, if any, are
     * reported once: add_unique). */
    if (s->preset_arg)
        for (unsigned v = 0; v < s->n_var; v++)
            check_variant(&r, v);
    /* Two variants with one configuration would be the same jobs under two
     * names; job ids in OUT/sweep.json are unique, so this is refused. */
    for (unsigned v = 1; v < s->n_var; v++)
        for (unsigned u = 0; u < v; u++)
            if (s->var[v].hash[0] && !strcmp(s->var[u].hash, s->var[v].hash)) {
                char key[160];
                snprintf(key, sizeof key, "variant.%s", s->var[v].name);
                r.line = s->var[v].line;
                rd_error(&r, key,
                         "the same configuration as variant '%s' (line %d), so the same jobs; drop one or make "
                         "them differ",
                         s->var[u].name, s->var[u].line);
                break;
            }
    uint64_t n = (uint64_t)s->n_wl * s->n_sizes * s->n_seeds * s->n_var;
    if (n == 0) {
        r.line = r.set_at[K_WORKLOADS];
        rd_error(&r, "workloads", "the grid is empty (%u workloads x %u sizes x %u seeds x %u variants)", s->n_wl,
                 s->n_sizes, s->n_seeds, s->n_var);
    } else if (diag_count(d) == before) {
        if (n > SWEEP_MAX_JOBS) {
            r.line = r.set_at[K_WORKLOADS];
            rd_error(&r, "workloads", "the grid has %" PRIu64 " jobs, more than %d (split the sweep)", n,
                     SWEEP_MAX_JOBS);
        } else {
            build_grid(s);
        }
    }
    for (int k = 0; k < K_COUNT; k++) {
        sweep_strv_free(&r.words[k]);
        free(r.word_line[k]);
        free(r.text[k]);
    }
    return (int)(diag_count(d) - before);
}

void sweep_free(struct sweep *s)
{
    free(s->path);
    free(s->abs_path);
    free(s->name);
    free(s->preset);
    free(s->preset_arg);
    sweep_strv_free(&s->ov);
    for (unsigned v = 0; v < s->n_var; v++) {
        free(s->var[v].name);
        sweep_strv_free(&s->var[v].ov);
    }
    free(s->var);
    free(s->wl);
    free(s->seeds);
    free(s->jobs);
    memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------ job command */

char **sweep_job_argv(const struct sweep *s, const struct sweep_job *j, const char *stats)
{
    struct sweep_strv a = {0};
    char num[32];
    sweep_strv_push(&a, s->cat->exe);
    sweep_strv_push(&a, "run");
    sweep_strv_push(&a, s->cat->wl[j->wl].name);
    sweep_strv_push(&a, "--size");
    sweep_strv_push(&a, s->cat->sizes[j->size]);
    sweep_strv_push(&a, "--seed");
    snprintf(num, sizeof num, "%" PRIu64, j->seed);
    sweep_strv_push(&a, num);
    sweep_strv_push(&a, "-c");
    sweep_strv_push(&a, s->preset_arg);
    struct sweep_strv ov = {0};
    sweep_variant_overrides(s, j->variant, &ov);
    for (unsigned i = 0; i < ov.n; i++) {
        sweep_strv_push(&a, "-o");
        sweep_strv_push(&a, ov.v[i]);
    }
    sweep_strv_free(&ov);
    sweep_strv_push(&a, "--threads");
    snprintf(num, sizeof num, "%u", s->threads);
    sweep_strv_push(&a, num);
    /* Jobs run side by side: pinning each to "the first core" would stack them. */
    sweep_strv_push(&a, "--pin");
    sweep_strv_push(&a, "none");
    sweep_strv_push(&a, "-q");
    sweep_strv_push(&a, "--stats");
    sweep_strv_push(&a, stats);
    a.v = xrealloc(a.v, (a.n + 1) * sizeof *a.v);
    a.v[a.n] = NULL;
    return a.v;
}

void sweep_argv_free(char **argv)
{
    if (!argv)
        return;
    for (char **p = argv; *p; p++)
        free(*p);
    free(argv);
}
