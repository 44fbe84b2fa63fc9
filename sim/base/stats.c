/* sim/base/stats.c: the statistics registry; see stats.h for the interface and
 * docs/stats.md for the user-facing description.
 *
 * What it models: nothing in hardware. It is a table of where each unit keeps
 * its statistics, grouped into families that share one full name
 * "<group>.<name>" (one family = one line of "total", with one member per
 * instance). It aggregates those on demand, keeps per-kernel records and
 * writes them as JSON.
 *
 * What it deliberately does not do: update values (units increment their own
 * plain fields, stats.h has the inline helpers), lock, or use atomics.
 *
 * Threading contract:
 *  - Registration is serialised by the caller (one thread at a time, e.g.
 *    unit inits run one after another, or registration is done in the serial
 *    step). Nothing here takes a lock.
 *  - Values are read only by stats_kernel_begin/_end, stats_get_* and
 *    stats_write_json, which run in the serial step of the quantum barrier or
 *    after the run. The barrier release/acquire gives the happens-before from
 *    every unit's last plain write to these reads; no other synchronisation
 *    is needed.
 *
 * Operation mix: registration is thousands of calls once at init (binary
 * search over families, allocation is fine); snapshots are a few per kernel
 * (one copy of every value, including histogram bins); the dump is once per
 * run. Nothing here is on the per-cycle path.
 */
#include "sim/base/stats.h"

#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/base/json.h"

static const char *const kind_names[] = {
    [STAT_COUNTER] = "counter",
    [STAT_MAX] = "max",
    [STAT_AVG] = "average",
    [STAT_HIST] = "histogram",
};

/* All statistics sharing one full name: the singleton, or instances 0..n-1. */
struct stat_family {
    char *full;          /* "<group>.<name>", owned */
    size_t group_len;    /* chars of full that are the group (full[group_len] == '.') */
    enum stat_kind kind; /* same for every member */
    bool instanced;      /* members have instance >= 0 (true) or one member with -1 */
    uint32_t n_bins;     /* histograms: bins of every member */
    uint64_t bin_width;  /* histograms: value units per bin of every member */
    char *doc;           /* one-line description from the first registration, owned */
    size_t *members;     /* indices into stats.entries, sorted by instance */
    size_t n_members;    /* members held */
    size_t cap_members;  /* slots allocated in members */
};

/* One registered statistic of one instance. */
struct stat_entry {
    struct stat_family *fam; /* family it belongs to */
    int instance;            /* -1 = singleton */
    const void *ptr;         /* uint64_t, struct stat_avg or struct stat_hist, owned by the unit */
};

/* A copy of one statistic's value (live, at kernel begin, or a kernel delta). */
struct stat_snap {
    uint64_t value;    /* counter, max: the value; average, histogram: sum of samples */
    uint64_t count;    /* average, histogram: samples */
    uint64_t overflow; /* histogram: samples past the last bin */
    uint64_t max;      /* histogram: largest sample (never differenced) */
    uint64_t *bins;    /* histogram: n_bins counters, owned; NULL otherwise */
};

/* Values of entries [0, n) in registration order. */
struct stat_snapset {
    struct stat_snap *v; /* n values, owned */
    size_t n;            /* entries covered (entries registered later are absent) */
};

/* One finished kernel. */
struct stat_kernel {
    char *name;               /* kernel name, owned */
    struct stat_snapset vals; /* deltas over the kernel (STAT_MAX and hist max: value at end) */
};

/* An object hung on the registry by a layer above it (stats_attach). */
struct stat_attachment {
    char *tag;                   /* owned */
    void *obj;                   /* the object */
    void (*destroy)(void *obj);  /* called by stats_destroy, or NULL */
};

struct stats {
    struct stat_entry *entries;  /* every registration, in registration order */
    size_t n_entries;            /* entries held */
    size_t cap_entries;          /* slots allocated */
    struct stat_family **fams;   /* families sorted by strcmp(full) */
    size_t n_fams;               /* families held */
    size_t cap_fams;             /* slots allocated */
    struct stat_kernel *kernels; /* finished kernels, in order */
    size_t n_kernels;            /* kernels held */
    size_t cap_kernels;          /* slots allocated */
    bool in_kernel;              /* between stats_kernel_begin and stats_kernel_end */
    char *open_name;             /* name of the open kernel, owned */
    struct stat_snapset open_base; /* values at stats_kernel_begin */
    struct stat_attachment *att; /* attachments (stats_attach) */
    size_t n_att;                /* attachments held */
    size_t cap_att;              /* slots allocated */
};

/* ------------------------------------------------------------ allocation */

/* Out of memory while registering or snapshotting leaves no sane way on. */

/* Make room for `need` elements of `elem` bytes in *arr (capacity *cap). */
static void *grow(void *arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return arr;
    size_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    arr = xrealloc(arr, c * elem);
    *cap = c;
    return arr;
}

/* ------------------------------------------------------------ histograms */

void stat_hist_init(struct stat_hist *h, uint32_t n_bins, uint64_t bin_width)
{
    SIM_ASSERT(n_bins >= 1, "histogram needs at least one bin");
    SIM_ASSERT(bin_width >= 1, "histogram bin width must be >= 1");
    memset(h, 0, sizeof *h);
    h->bins = xcalloc(n_bins, sizeof h->bins[0]);
    h->n_bins = n_bins;
    h->bin_width = bin_width;
}

void stat_hist_fini(struct stat_hist *h)
{
    free(h->bins);
    memset(h, 0, sizeof *h);
}

/* -------------------------------------------------------------- registry */

struct stats *stats_create(void)
{
    return xcalloc(1, sizeof(struct stats));
}

static void snapset_free(struct stat_snapset *set)
{
    for (size_t i = 0; i < set->n; i++)
        free(set->v[i].bins);
    free(set->v);
    set->v = NULL;
    set->n = 0;
}

void stats_destroy(struct stats *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_fams; i++) {
        free(s->fams[i]->full);
        free(s->fams[i]->doc);
        free(s->fams[i]->members);
        free(s->fams[i]);
    }
    for (size_t k = 0; k < s->n_kernels; k++) {
        free(s->kernels[k].name);
        snapset_free(&s->kernels[k].vals);
    }
    snapset_free(&s->open_base);
    for (size_t i = 0; i < s->n_att; i++) {
        if (s->att[i].destroy)
            s->att[i].destroy(s->att[i].obj);
        free(s->att[i].tag);
    }
    free(s->att);
    free(s->open_name);
    free(s->kernels);
    free(s->fams);
    free(s->entries);
    free(s);
}

/* Position of full in s->fams: its index when *found, else where it belongs. */
static size_t fam_find(const struct stats *s, const char *full, bool *found)
{
    size_t lo = 0, hi = s->n_fams;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(s->fams[mid]->full, full);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = false;
    return lo;
}

static const struct stat_family *fam_lookup(const struct stats *s, const char *full)
{
    bool found;
    size_t i = fam_find(s, full, &found);
    return found ? s->fams[i] : NULL;
}

/* Position of instance in f->members: its index when *found, else where it belongs. */
static size_t member_find(const struct stats *s, const struct stat_family *f, int instance,
                          bool *found)
{
    size_t lo = 0, hi = f->n_members;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->entries[f->members[mid]].instance < instance)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < f->n_members && s->entries[f->members[lo]].instance == instance;
    return lo;
}

static void reg(struct stats *s, enum stat_kind kind, const char *group, int instance,
                const char *name, const void *ptr, const char *doc)
{
    SIM_ASSERT(s != NULL, "stats: registration on a NULL registry");
    SIM_ASSERT(group != NULL && name != NULL, "stats: NULL group or name");
    SIM_ASSERT(group[0] != '\0' && name[0] != '\0', "stats: empty group or name ('%s' '%s')",
               group, name);
    SIM_ASSERT(ptr != NULL, "stats: %s.%s instance %d: NULL value pointer", group, name,
               instance);
    SIM_ASSERT(instance >= -1, "stats: %s.%s: instance %d (must be >= 0, or -1 for a singleton)",
               group, name, instance);
    const struct stat_hist *h = kind == STAT_HIST ? ptr : NULL;
    if (h)
        SIM_ASSERT(h->bins != NULL && h->n_bins >= 1 && h->bin_width >= 1,
                   "stats: histogram %s.%s instance %d registered before stat_hist_init", group,
                   name, instance);

    size_t gl = strlen(group), nl = strlen(name);
    char *full = xrealloc(NULL, gl + nl + 2);
    memcpy(full, group, gl);
    full[gl] = '.';
    memcpy(full + gl + 1, name, nl + 1);

    bool found;
    size_t pos = fam_find(s, full, &found);
    struct stat_family *f;
    if (found) {
        f = s->fams[pos];
        free(full);
        if (f->kind != kind)
            sim_panic("stats: %s instance %d registered with kind %s, earlier instances with kind %s",
                      f->full, instance, kind_names[kind], kind_names[f->kind]);
        if (f->instanced != (instance >= 0))
            sim_panic("stats: %s mixes singleton and instanced registrations (instance %d)",
                      f->full, instance);
        if (f->group_len != gl)
            sim_panic("stats: full name %s registered as group '%s' name '%s' and as group "
                      "'%.*s' name '%s'",
                      f->full, group, name, (int)f->group_len, f->full,
                      f->full + f->group_len + 1);
        if (h && (h->n_bins != f->n_bins || h->bin_width != f->bin_width))
            sim_panic("stats: histogram %s instance %d has %u bins of width %llu, earlier "
                      "instances %u bins of width %llu",
                      f->full, instance, (unsigned)h->n_bins, (unsigned long long)h->bin_width,
                      (unsigned)f->n_bins, (unsigned long long)f->bin_width);
    } else {
        f = xcalloc(1, sizeof *f);
        f->full = full;
        f->group_len = gl;
        f->kind = kind;
        f->instanced = instance >= 0;
        if (h) {
            f->n_bins = h->n_bins;
            f->bin_width = h->bin_width;
        }
        f->doc = xstrdup(doc ? doc : "");
        s->fams = grow(s->fams, &s->cap_fams, s->n_fams + 1, sizeof s->fams[0]);
        memmove(&s->fams[pos + 1], &s->fams[pos], (s->n_fams - pos) * sizeof s->fams[0]);
        s->fams[pos] = f;
        s->n_fams++;
    }

    size_t mpos = member_find(s, f, instance, &found);
    if (found) {
        if (instance < 0)
            sim_panic("stats: duplicate registration of singleton %s", f->full);
        sim_panic("stats: duplicate registration of %s instance %d", f->full, instance);
    }

    s->entries = grow(s->entries, &s->cap_entries, s->n_entries + 1, sizeof s->entries[0]);
    s->entries[s->n_entries] = (struct stat_entry){.fam = f, .instance = instance, .ptr = ptr};

    f->members = grow(f->members, &f->cap_members, f->n_members + 1, sizeof f->members[0]);
    memmove(&f->members[mpos + 1], &f->members[mpos],
            (f->n_members - mpos) * sizeof f->members[0]);
    f->members[mpos] = s->n_entries;
    f->n_members++;
    s->n_entries++;
}

void stats_counter(struct stats *s, const char *group, int instance, const char *name,
                   const uint64_t *value, const char *doc)
{
    reg(s, STAT_COUNTER, group, instance, name, value, doc);
}

void stats_max(struct stats *s, const char *group, int instance, const char *name,
               const uint64_t *value, const char *doc)
{
    reg(s, STAT_MAX, group, instance, name, value, doc);
}

void stats_avg(struct stats *s, const char *group, int instance, const char *name,
               const struct stat_avg *value, const char *doc)
{
    reg(s, STAT_AVG, group, instance, name, value, doc);
}

void stats_hist(struct stats *s, const char *group, int instance, const char *name,
                const struct stat_hist *value, const char *doc)
{
    reg(s, STAT_HIST, group, instance, name, value, doc);
}

/* ------------------------------------------------------------- snapshots */

/* Read one live value. Bins are copied only when with_bins. */
static void snap_entry(const struct stat_entry *e, struct stat_snap *out, bool with_bins)
{
    memset(out, 0, sizeof *out);
    switch (e->fam->kind) {
    case STAT_COUNTER:
    case STAT_MAX:
        out->value = *(const uint64_t *)e->ptr;
        break;
    case STAT_AVG: {
        const struct stat_avg *a = e->ptr;
        out->value = a->sum;
        out->count = a->count;
        break;
    }
    case STAT_HIST: {
        const struct stat_hist *h = e->ptr;
        SIM_ASSERT(h->n_bins == e->fam->n_bins && h->bin_width == e->fam->bin_width &&
                       h->bins != NULL,
                   "stats: histogram %s instance %d changed shape after registration",
                   e->fam->full, e->instance);
        out->value = h->sum;
        out->count = h->count;
        out->overflow = h->overflow;
        out->max = h->max;
        if (with_bins) {
            out->bins = xcalloc(h->n_bins, sizeof out->bins[0]);
            memcpy(out->bins, h->bins, h->n_bins * sizeof out->bins[0]);
        }
        break;
    }
    }
}

static void snapset_take(const struct stats *s, struct stat_snapset *set)
{
    set->n = s->n_entries;
    set->v = xcalloc(set->n, sizeof set->v[0]);
    for (size_t i = 0; i < set->n; i++)
        snap_entry(&s->entries[i], &set->v[i], true);
}

/* end - base for a quantity that must not decrease while a kernel runs. */
static uint64_t mono_delta(uint64_t end, uint64_t base, const struct stat_entry *e,
                           const char *what, const char *kernel)
{
    if (end < base)
        sim_panic("stats: %s instance %d: %s went down during kernel '%s' (%llu -> %llu); "
                  "statistics must not be reset while a kernel runs",
                  e->fam->full, e->instance, what, kernel, (unsigned long long)base,
                  (unsigned long long)end);
    return end - base;
}

/* Turn *end into the kernel's record: the difference from *base, except
 * STAT_MAX and histogram max, which keep the value at the end. */
static void snap_delta(const struct stat_entry *e, struct stat_snap *end,
                       const struct stat_snap *base, const char *kernel)
{
    switch (e->fam->kind) {
    case STAT_COUNTER:
        end->value = mono_delta(end->value, base->value, e, "counter", kernel);
        break;
    case STAT_MAX:
        break;
    case STAT_AVG:
        end->value = mono_delta(end->value, base->value, e, "sum", kernel);
        end->count = mono_delta(end->count, base->count, e, "count", kernel);
        break;
    case STAT_HIST:
        end->value = mono_delta(end->value, base->value, e, "sum", kernel);
        end->count = mono_delta(end->count, base->count, e, "count", kernel);
        end->overflow = mono_delta(end->overflow, base->overflow, e, "overflow", kernel);
        for (uint32_t b = 0; b < e->fam->n_bins; b++)
            end->bins[b] = mono_delta(end->bins[b], base->bins[b], e, "a bin", kernel);
        break;
    }
}

void stats_kernel_begin(struct stats *s, const char *kernel_name)
{
    SIM_ASSERT(kernel_name != NULL, "stats: kernel without a name");
    if (s->in_kernel)
        sim_panic("stats: stats_kernel_begin('%s') while kernel '%s' is still open",
                  kernel_name, s->open_name);
    s->open_name = xstrdup(kernel_name);
    snapset_take(s, &s->open_base);
    s->in_kernel = true;
}

void stats_kernel_end(struct stats *s)
{
    if (!s->in_kernel)
        sim_panic("stats: stats_kernel_end without stats_kernel_begin");
    struct stat_kernel k = {.name = s->open_name};
    snapset_take(s, &k.vals);
    /* NOTE(stats-late-registration): entries registered after
     * stats_kernel_begin have no base snapshot; their baseline is zero, which
     * is right for a unit created mid-kernel with zeroed statistics. */
    for (size_t i = 0; i < s->open_base.n; i++)
        snap_delta(&s->entries[i], &k.vals.v[i], &s->open_base.v[i], k.name);
    s->kernels = grow(s->kernels, &s->cap_kernels, s->n_kernels + 1, sizeof s->kernels[0]);
    s->kernels[s->n_kernels++] = k;
    snapset_free(&s->open_base);
    s->open_name = NULL;
    s->in_kernel = false;
}

size_t stats_n_kernels(const struct stats *s)
{
    return s->n_kernels;
}

/* ----------------------------------------------------------- read access */

/* The number stats_get_* report for one value. */
static uint64_t snap_scalar(enum stat_kind kind, const struct stat_snap *v)
{
    return kind == STAT_HIST ? v->count : v->value;
}

bool stats_get_u64(const struct stats *s, const char *full_name, uint64_t *out)
{
    const struct stat_family *f = fam_lookup(s, full_name);
    if (!f)
        return false;
    uint64_t acc = 0;
    for (size_t m = 0; m < f->n_members; m++) {
        struct stat_snap v;
        snap_entry(&s->entries[f->members[m]], &v, false);
        uint64_t x = snap_scalar(f->kind, &v);
        if (f->kind == STAT_MAX)
            acc = MAX(acc, x);
        else
            acc += x;
    }
    *out = acc;
    return true;
}

bool stats_get_mean(const struct stats *s, const char *full_name, double *mean)
{
    const struct stat_family *f = fam_lookup(s, full_name);
    if (!f || (f->kind != STAT_AVG && f->kind != STAT_HIST))
        return false;
    uint64_t sum = 0, count = 0;
    for (size_t m = 0; m < f->n_members; m++) {
        struct stat_snap v;
        snap_entry(&s->entries[f->members[m]], &v, false);
        sum += v.value;
        count += v.count;
    }
    *mean = count ? (double)sum / (double)count : 0.0;
    return true;
}

bool stats_get_instance_u64(const struct stats *s, const char *full_name, int instance,
                            uint64_t *out)
{
    const struct stat_family *f = fam_lookup(s, full_name);
    if (!f)
        return false;
    bool found;
    size_t m = member_find(s, f, instance, &found);
    if (!found)
        return false;
    struct stat_snap v;
    snap_entry(&s->entries[f->members[m]], &v, false);
    *out = snap_scalar(f->kind, &v);
    return true;
}

/* One kernel's value of entry e (false when e was registered after the kernel ended). */
static const struct stat_snap *kernel_val(const struct stats *s, size_t k, size_t e)
{
    const struct stat_snapset *set = &s->kernels[k].vals;
    return e < set->n ? &set->v[e] : NULL;
}

const char *stats_kernel_name(const struct stats *s, size_t k)
{
    return k < s->n_kernels ? s->kernels[k].name : NULL;
}

bool stats_kernel_get_u64(const struct stats *s, size_t k, const char *full_name, uint64_t *out)
{
    const struct stat_family *f = fam_lookup(s, full_name);
    if (!f || k >= s->n_kernels)
        return false;
    uint64_t acc = 0;
    bool any = false;
    for (size_t m = 0; m < f->n_members; m++) {
        const struct stat_snap *v = kernel_val(s, k, f->members[m]);
        if (!v)
            continue;
        uint64_t x = snap_scalar(f->kind, v);
        acc = f->kind == STAT_MAX ? MAX(acc, x) : acc + x;
        any = true;
    }
    if (any)
        *out = acc;
    return any;
}

bool stats_kernel_get_mean(const struct stats *s, size_t k, const char *full_name, double *mean)
{
    const struct stat_family *f = fam_lookup(s, full_name);
    if (!f || k >= s->n_kernels || (f->kind != STAT_AVG && f->kind != STAT_HIST))
        return false;
    uint64_t sum = 0, count = 0;
    bool any = false;
    for (size_t m = 0; m < f->n_members; m++) {
        const struct stat_snap *v = kernel_val(s, k, f->members[m]);
        if (!v)
            continue;
        sum += v->value;
        count += v->count;
        any = true;
    }
    if (any)
        *mean = count ? (double)sum / (double)count : 0.0;
    return any;
}

bool stats_kernel_get_instance_u64(const struct stats *s, size_t k, const char *full_name, int instance,
                                   uint64_t *out)
{
    const struct stat_family *f = fam_lookup(s, full_name);
    if (!f || k >= s->n_kernels)
        return false;
    bool found;
    size_t m = member_find(s, f, instance, &found);
    const struct stat_snap *v = found ? kernel_val(s, k, f->members[m]) : NULL;
    if (!v)
        return false;
    *out = snap_scalar(f->kind, v);
    return true;
}

bool stats_find_value(const struct stats *s, const void *ptr, const char **full_name, int *instance)
{
    for (size_t i = 0; i < s->n_entries; i++) {
        if (s->entries[i].ptr == ptr) {
            *full_name = s->entries[i].fam->full;
            *instance = s->entries[i].instance;
            return true;
        }
    }
    return false;
}

/* ----------------------------------------------------------- attachments */

void stats_attach(struct stats *s, const char *tag, void *obj, void (*destroy)(void *obj))
{
    SIM_ASSERT(tag != NULL && tag[0] != '\0', "stats: attachment without a tag");
    if (stats_attachment(s, tag))
        sim_panic("stats: attachment '%s' attached twice", tag);
    s->att = grow(s->att, &s->cap_att, s->n_att + 1, sizeof s->att[0]);
    s->att[s->n_att++] = (struct stat_attachment){.tag = xstrdup(tag), .obj = obj, .destroy = destroy};
}

void *stats_attachment(const struct stats *s, const char *tag)
{
    for (size_t i = 0; i < s->n_att; i++)
        if (strcmp(s->att[i].tag, tag) == 0)
            return s->att[i].obj;
    return NULL;
}

/* ---------------------------------------------------------------- output */

static double mean_of(uint64_t sum, uint64_t count)
{
    return count ? (double)sum / (double)count : 0.0;
}

/* "instances": [...] of f, one element per instance 0..max, null for an
 * instance that has no value in set (not registered, or registered after the
 * set was taken). */
static void write_instances(struct json_writer *w, const struct stats *s,
                            const struct stat_family *f, const struct stat_snapset *set)
{
    jw_arr_begin(w, "instances");
    int next = 0;
    for (size_t m = 0; m < f->n_members; m++) {
        size_t idx = f->members[m];
        if (idx >= set->n)
            continue;
        int inst = s->entries[idx].instance;
        for (; next < inst; next++)
            jw_null(w, NULL);
        next = inst + 1;
        const struct stat_snap *v = &set->v[idx];
        switch (f->kind) {
        case STAT_COUNTER:
        case STAT_MAX:
            jw_u64(w, NULL, v->value);
            break;
        case STAT_AVG:
            jw_double(w, NULL, mean_of(v->value, v->count));
            break;
        case STAT_HIST:
            jw_obj_begin(w, NULL);
            jw_u64(w, "count", v->count);
            jw_u64(w, "sum", v->value);
            jw_u64(w, "max", v->max);
            jw_double(w, "mean", mean_of(v->value, v->count));
            jw_obj_end(w);
            break;
        }
    }
    jw_arr_end(w);
}

/* One member "<full name>": value of the total "stats" object, aggregated
 * over the instances present in set. Nothing when none is. */
static void write_family(struct json_writer *w, const struct stats *s,
                         const struct stat_family *f, const struct stat_snapset *set)
{
    struct stat_snap agg = {0};
    size_t present = 0;
    if (f->kind == STAT_HIST)
        agg.bins = xcalloc(f->n_bins, sizeof agg.bins[0]);
    for (size_t m = 0; m < f->n_members; m++) {
        size_t idx = f->members[m];
        if (idx >= set->n)
            continue;
        const struct stat_snap *v = &set->v[idx];
        present++;
        if (f->kind == STAT_MAX)
            agg.value = MAX(agg.value, v->value);
        else
            agg.value += v->value;
        agg.count += v->count;
        agg.overflow += v->overflow;
        agg.max = MAX(agg.max, v->max);
        if (f->kind == STAT_HIST)
            for (uint32_t b = 0; b < f->n_bins; b++)
                agg.bins[b] += v->bins[b];
    }
    if (present == 0) {
        free(agg.bins);
        return;
    }

    switch (f->kind) {
    case STAT_COUNTER:
    case STAT_MAX:
        if (!f->instanced) {
            jw_u64(w, f->full, agg.value);
            break;
        }
        jw_obj_begin(w, f->full);
        jw_u64(w, "total", agg.value);
        write_instances(w, s, f, set);
        jw_obj_end(w);
        break;
    case STAT_AVG:
        jw_obj_begin(w, f->full);
        jw_double(w, "mean", mean_of(agg.value, agg.count));
        jw_u64(w, "sum", agg.value);
        jw_u64(w, "count", agg.count);
        if (f->instanced)
            write_instances(w, s, f, set);
        jw_obj_end(w);
        break;
    case STAT_HIST:
        jw_obj_begin(w, f->full);
        jw_u64(w, "bin_width", f->bin_width);
        jw_arr_begin(w, "bins");
        for (uint32_t b = 0; b < f->n_bins; b++)
            jw_u64(w, NULL, agg.bins[b]);
        jw_arr_end(w);
        jw_u64(w, "overflow", agg.overflow);
        jw_u64(w, "count", agg.count);
        jw_u64(w, "sum", agg.value);
        jw_u64(w, "max", agg.max);
        jw_double(w, "mean", mean_of(agg.value, agg.count));
        if (f->instanced)
            write_instances(w, s, f, set);
        jw_obj_end(w);
        break;
    }
    free(agg.bins);
}

/* An object member `key` holding every family present in set, sorted by full name. */
static void write_set(struct json_writer *w, const char *key, const struct stats *s,
                      const struct stat_snapset *set)
{
    jw_obj_begin(w, key);
    for (size_t i = 0; i < s->n_fams; i++)
        write_family(w, s, s->fams[i], set);
    jw_obj_end(w);
}

void stats_write_json(const struct stats *s, struct json_writer *w)
{
    /* NOTE(stats-open-kernel): a kernel still open (a run stopped early) has
     * no record; its progress is in "total" only. */
    struct stat_snapset now;
    snapset_take(s, &now);
    write_set(w, "total", s, &now);
    snapset_free(&now);

    jw_arr_begin(w, "kernels");
    for (size_t k = 0; k < s->n_kernels; k++) {
        jw_obj_begin(w, NULL);
        jw_u64(w, "index", k);
        jw_str(w, "name", s->kernels[k].name);
        write_set(w, "stats", s, &s->kernels[k].vals);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}
