/* sim/app/report_stat.c: the statistics `gpusim report` can tabulate.
 *
 * Two kinds: a fixed list of friendly names with a definition each (the
 * figures papers plot: IPC, cycles, miss rates, DRAM traffic, energy), and
 * any dotted path into the job document that ends at a number. The friendly
 * definitions read the same members `gpusim run --stats` writes (docs/stats.md,
 * docs/timing.md "Statistics"); where a figure is a ratio of counters it is
 * computed from the counters, so that a zero denominator shows as "n/a"
 * instead of the 0 the timing summary writes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/app/report.h"
#include "sim/base/common.h"
#include "sim/base/diag.h"
#include "sim/base/jsonr.h"

/* ----------------------------------------------------------------- paths */

bool rp_value_num(const struct jr_value *v, double *out)
{
    if (!v)
        return false;
    if (jr_num(v, out))
        return true;
    if (v->type == JR_OBJECT)
        return jr_num(jr_get(v, "total"), out) || jr_num(jr_get(v, "mean"), out);
    return false;
}

static bool all_digits(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

const struct jr_value *rp_path(const struct jr_value *v, const char *path)
{
    if (!v)
        return NULL;
    if (!*path)
        return v;
    if (v->type == JR_ARRAY) {
        size_t n = strcspn(path, ".");
        if (!all_digits(path, n) || n > 9)
            return NULL;
        const struct jr_value *item = jr_at(v, (size_t)strtoul(path, NULL, 10));
        if (!item)
            return NULL;
        return path[n] ? (path[n + 1] ? rp_path(item, path + n + 1) : NULL) : item;
    }
    if (v->type != JR_OBJECT)
        return NULL;
    /* Longest matching member name first; shorter ones if the rest fails. */
    size_t limit = (size_t)-1;
    for (;;) {
        const struct jr_member *best = NULL;
        size_t best_len = 0;
        for (size_t i = 0; i < v->u.obj.n; i++) {
            const struct jr_member *m = &v->u.obj.m[i];
            size_t k = strlen(m->key);
            if (k == 0 || k >= limit || k <= best_len || strncmp(m->key, path, k) != 0)
                continue;
            if (path[k] == '\0' || (path[k] == '.' && path[k + 1] != '\0')) {
                best = m;
                best_len = k;
            }
        }
        if (!best)
            return NULL;
        if (path[best_len] == '\0')
            return best->value;
        const struct jr_value *r = rp_path(best->value, path + best_len + 1);
        if (r)
            return r;
        limit = best_len;
    }
}

/* Why path does not resolve to a number, for the message. */
static void path_why(const struct jr_value *root, const char *path, char *why, size_t n)
{
    const struct jr_value *r = rp_path(root, path);
    if (r) {
        if (r->type == JR_OBJECT) {
            size_t o = (size_t)snprintf(why, n, "'%s' is an object without a numeric \"total\" or \"mean\"", path);
            for (size_t i = 0; i < r->u.obj.n && i < 6 && o < n; i++)
                o += (size_t)snprintf(why + o, n - o, "%s%s", i ? ", " : "; its members: ", r->u.obj.m[i].key);
            if (r->u.obj.n > 6 && o < n)
                snprintf(why + o, n - o, ", ...");
        } else {
            snprintf(why, n, "'%s' is %s %s, not a number", path, r->type == JR_ARRAY || r->type == JR_OBJECT ? "an" : "a",
                     jr_type_name(r->type));
        }
        return;
    }
    /* the longest prefix (ending at a '.') that resolves */
    char *p = xstrdup(path);
    const char *found = NULL;
    for (char *dot = strrchr(p, '.'); dot; dot = strrchr(p, '.')) {
        *dot = 0;
        if (rp_path(root, p)) {
            found = p;
            break;
        }
    }
    if (found)
        snprintf(why, n, "'%s' exists but has nothing named '%s'", found, path + strlen(found) + 1);
    else
        snprintf(why, n, "no top-level member matches '%s'", path);
    free(p);
}

/* ------------------------------------------------------ friendly statistics */

static double num_at(const struct jr_value *job, const char *obj, const char *key, bool *absent)
{
    double v;
    if (rp_value_num(jr_get(jr_get(job, obj), key), &v))
        return v;
    *absent = true;
    return NAN;
}

/* A counter of stats.total ("l1d.loads"). */
static double counter(const struct jr_value *job, const char *name, bool *absent)
{
    double v;
    if (rp_value_num(jr_get(jr_get(jr_get(job, "stats"), "total"), name), &v))
        return v;
    *absent = true;
    return NAN;
}

static double config_num(const struct jr_value *job, const char *key, bool *absent)
{
    const struct jr_value *v = jr_get(jr_get(job, "config"), key);
    double x;
    if (jr_num(v, &x))
        return x;
    const char *s = jr_str(v);
    char *end;
    if (s && (x = strtod(s, &end), end != s && *end == 0))
        return x;
    *absent = true;
    return NAN;
}

static double ratio(double a, double b) { return b != 0 ? a / b : NAN; }

static double ev_ipc(const struct jr_value *j, bool *a) { return num_at(j, "timing", "ipc", a); }
static double ev_warp_ipc(const struct jr_value *j, bool *a) { return num_at(j, "timing", "warp_ipc", a); }
static double ev_cycles(const struct jr_value *j, bool *a) { return num_at(j, "timing", "cycles", a); }
static double ev_tinsts(const struct jr_value *j, bool *a) { return num_at(j, "timing", "thread_insts", a); }
static double ev_winsts(const struct jr_value *j, bool *a) { return num_at(j, "timing", "warp_insts", a); }
static double ev_l1d_hit(const struct jr_value *j, bool *a)
{
    return ratio(counter(j, "l1d.load_hits", a), counter(j, "l1d.loads", a));
}
static double ev_l1d_miss(const struct jr_value *j, bool *a)
{
    double loads = counter(j, "l1d.loads", a);
    return ratio(loads - counter(j, "l1d.load_hits", a), loads);
}
static double ev_l2_hit(const struct jr_value *j, bool *a)
{
    double h = counter(j, "l2.hits", a);
    return ratio(h, h + counter(j, "l2.misses", a));
}
static double ev_l2_miss(const struct jr_value *j, bool *a)
{
    double m = counter(j, "l2.misses", a);
    return ratio(m, m + counter(j, "l2.hits", a));
}
static double ev_dram_traffic(const struct jr_value *j, bool *a)
{
    return (counter(j, "dram.rd_cmds", a) + counter(j, "dram.wr_cmds", a)) * config_num(j, "dram.bus_bytes", a) *
           config_num(j, "dram.burst", a);
}
static double ev_dram_reads(const struct jr_value *j, bool *a) { return counter(j, "dram.reads", a); }
static double ev_dram_writes(const struct jr_value *j, bool *a) { return counter(j, "dram.writes", a); }
static double ev_dram_util(const struct jr_value *j, bool *a)
{
    return ratio(counter(j, "dram.bus_busy_cycles", a), counter(j, "dram.cycles", a));
}
static double ev_dram_row_hit(const struct jr_value *j, bool *a)
{
    double h = counter(j, "dram.row_hits", a);
    return ratio(h, h + counter(j, "dram.row_misses", a) + counter(j, "dram.row_conflicts", a));
}
static double ev_load_lat(const struct jr_value *j, bool *a)
{
    const struct jr_value *v = jr_get(jr_get(jr_get(j, "stats"), "total"), "ldst.load_lat_global");
    double sum, count;
    if (!jr_num(jr_get(v, "sum"), &sum) || !jr_num(jr_get(v, "count"), &count)) {
        *a = true;
        return NAN;
    }
    return ratio(sum, count);
}
static double ev_energy(const struct jr_value *j, bool *a)
{
    double v;
    /* "energy": {"total": nJ, "<structure>": {...}} (docs/energy.md); an
     * object {"total": {..., "total": nJ}} reads the same through rp_value_num */
    if (rp_value_num(rp_path(j, "energy.total"), &v))
        return v;
    *a = true;
    return NAN;
}

static const struct rp_derived rp_stats[] = {
    {"ipc", "thread instructions per cycle (timing.ipc)", "", +1, ev_ipc},
    {"warp_ipc", "warp instructions per cycle (timing.warp_ipc)", "", +1, ev_warp_ipc},
    {"cycles", "simulated core cycles (timing.cycles)", "cycles", -1, ev_cycles},
    {"thread_insts", "thread instructions (timing.thread_insts)", "", 0, ev_tinsts},
    {"warp_insts", "warp instructions (timing.warp_insts)", "", 0, ev_winsts},
    {"l1d_hit_rate", "L1D load hit rate: l1d.load_hits / l1d.loads", "", +1, ev_l1d_hit},
    {"l1d_miss_rate", "L1D load miss rate: (l1d.loads - l1d.load_hits) / l1d.loads (MSHR merges count as misses)", "",
     -1, ev_l1d_miss},
    {"l2_hit_rate", "L2 hit rate: l2.hits / (l2.hits + l2.misses)", "", +1, ev_l2_hit},
    {"l2_miss_rate", "L2 miss rate: l2.misses / (l2.hits + l2.misses)", "", -1, ev_l2_miss},
    {"dram_traffic", "DRAM data moved: (dram.rd_cmds + dram.wr_cmds) x dram.bus_bytes x dram.burst", "bytes", -1,
     ev_dram_traffic},
    {"dram_reads", "DRAM read requests (dram.reads)", "", -1, ev_dram_reads},
    {"dram_writes", "DRAM write requests (dram.writes)", "", -1, ev_dram_writes},
    {"dram_bw_util", "DRAM data-bus utilisation: dram.bus_busy_cycles / dram.cycles", "", 0, ev_dram_util},
    {"dram_row_hit_rate", "DRAM row-buffer hit rate: row_hits / (row_hits + row_misses + row_conflicts)", "", +1,
     ev_dram_row_hit},
    {"load_latency", "mean global load latency: ldst.load_lat_global sum / count", "cycles", -1, ev_load_lat},
    {"energy", "total energy of the run (energy.total, with the energy model of docs/energy.md)", "nJ", -1, ev_energy},
};

const struct rp_derived *rp_stat_list(size_t *n)
{
    *n = ARRAY_LEN(rp_stats);
    return rp_stats;
}

bool rp_stat_parse(struct rp_stat *st, const char *name, char *err, size_t err_len)
{
    memset(st, 0, sizeof *st);
    for (size_t i = 0; i < ARRAY_LEN(rp_stats); i++)
        if (!strcmp(rp_stats[i].name, name)) {
            st->name = xstrdup(name);
            st->der = &rp_stats[i];
            return true;
        }
    size_t n = strlen(name);
    bool plain = true; /* printable, no backquote (the Markdown puts it in a code span) */
    for (const char *p = name; *p; p++)
        plain &= (unsigned char)*p >= 0x20 && *p != '`' && *p != 0x7f;
    if (n && plain && strchr(name, '.') && name[0] != '.' && name[n - 1] != '.' && !strstr(name, "..")) {
        st->name = xstrdup(name);
        return true;
    }
    const char *best = NULL;
    size_t best_d = 4;
    for (size_t i = 0; i < ARRAY_LEN(rp_stats); i++) {
        size_t d = diag_edit_distance(name, rp_stats[i].name);
        if (d < best_d) {
            best_d = d;
            best = rp_stats[i].name;
        }
    }
    if (best)
        snprintf(err, err_len, "unknown statistic '%s'; did you mean '%s'? ('gpusim report --list-stats' lists them)",
                 name, best);
    else
        snprintf(err, err_len,
                 "unknown statistic '%s': neither a name of 'gpusim report --list-stats' nor a dotted path into "
                 "the job JSON (e.g. timing.ipc, stats.total.l1d.loads)",
                 name);
    return false;
}

void rp_stat_fini(struct rp_stat *st)
{
    free(st->name);
    free(st->why_absent);
    memset(st, 0, sizeof *st);
}

double rp_stat_eval(const struct rp_stat *st, const struct jr_value *job, bool *absent, char *why, size_t why_len)
{
    *absent = false;
    if (why_len)
        why[0] = 0;
    if (st->der) {
        double v = st->der->eval(job, absent);
        return *absent ? NAN : v;
    }
    const struct jr_value *r = rp_path(job, st->name);
    double v;
    if (r && r->type == JR_NULL)
        return NAN; /* the writer's NaN: a value, undefined */
    if (rp_value_num(r, &v))
        return v;
    *absent = true;
    if (why_len)
        path_why(job, st->name, why, why_len);
    return NAN;
}

const char *rp_stat_doc(const struct rp_stat *st) { return st->der ? st->der->doc : st->name; }
