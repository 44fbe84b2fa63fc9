/* tests/test_stats.c: the statistics registry (sim/base/stats.c).
 *
 * Covers aggregation of every kind over instances, the JSON shapes of
 * singletons and instanced statistics, per-kernel deltas, deterministic
 * ordering independent of registration order, read access, and the panics
 * for registry misuse (each run in a forked child that must die of SIGABRT
 * with a message naming the statistic).
 *
 * JSON is checked either byte for byte against an expected document, or in
 * "squashed" form (whitespace outside strings removed) so that a check reads
 * like the value it expects and does not depend on indentation.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/base/common.h"
#include "sim/base/json.h"
#include "sim/base/stats.h"
#include "tap.h"

/* ----------------------------------------------------------------- helpers */

/* The registry's members written into one top-level object, as text (caller frees). */
static char *to_json(const struct stats *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        tap_bail("open_memstream failed");
    struct json_writer w;
    jw_init(&w, f);
    jw_obj_begin(&w, NULL);
    stats_write_json(s, &w);
    jw_obj_end(&w);
    jw_finish(&w);
    fclose(f);
    return buf;
}

/* JSON text without whitespace outside strings (caller frees). */
static char *squash(const char *json)
{
    char *out = malloc(strlen(json) + 1);
    char *o = out;
    int in_str = 0;
    for (const char *p = json; *p; p++) {
        if (in_str) {
            *o++ = *p;
            if (*p == '\\' && p[1])
                *o++ = *++p;
            else if (*p == '"')
                in_str = 0;
        } else if (*p == '"') {
            in_str = 1;
            *o++ = *p;
        } else if (*p != ' ' && *p != '\n' && *p != '\t' && *p != '\r') {
            *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}

/* Squashed JSON of s (caller frees). */
static char *squashed(const struct stats *s)
{
    char *j = to_json(s);
    char *q = squash(j);
    free(j);
    return q;
}

static uint64_t get(const struct stats *s, const char *full)
{
    uint64_t v = 0xdeadbeef;
    if (!stats_get_u64(s, full, &v))
        tap_diag("stats_get_u64(%s) returned false", full);
    return v;
}

static uint64_t get_inst(const struct stats *s, const char *full, int inst)
{
    uint64_t v = 0xdeadbeef;
    if (!stats_get_instance_u64(s, full, inst, &v))
        tap_diag("stats_get_instance_u64(%s, %d) returned false", full, inst);
    return v;
}

/* Run fn in a child; it must die of SIGABRT (exit_ok: exit normally) with
 * stderr containing want. */
static void run_child(void (*fn)(void), int expect_abort, const char *want, const char *what)
{
    int fds[2];
    if (pipe(fds) != 0)
        tap_bail("pipe failed");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        tap_bail("fork failed");
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        close(fds[1]);
        fn();
        _exit(0);
    }
    close(fds[1]);
    char buf[4096];
    size_t n = 0;
    ssize_t r;
    while (n < sizeof buf - 1 && (r = read(fds[0], buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)r;
    buf[n] = '\0';
    close(fds[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    if (expect_abort) {
        if (!TAP_OK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "%s: child died of SIGABRT",
                    what))
            tap_diag("wait status 0x%x, stderr: %s", st, buf);
        TAP_CONTAINS(buf, want, "%s: panic message names it", what);
    } else {
        TAP_OK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: child exited normally", what);
    }
}

static void expect_panic(void (*fn)(void), const char *want, const char *what)
{
    run_child(fn, 1, want, what);
}

/* ------------------------------------------------------------------ tests */

static void test_counters(void)
{
    struct stats *s = stats_create();
    uint64_t insts[3] = {10, 20, 30}, cycles = 99;
    for (int i = 0; i < 3; i++)
        stats_counter(s, "sm", i, "insts", &insts[i], "instructions retired");
    stats_counter(s, "gpu", -1, "cycles", &cycles, "core cycles");

    TAP_EQ_U64(get(s, "sm.insts"), 60, "counter aggregate is the sum over instances");
    insts[1] += 5;
    TAP_EQ_U64(get(s, "sm.insts"), 65, "aggregate reads live values");
    TAP_EQ_U64(get_inst(s, "sm.insts", 1), 25, "instance value");
    TAP_EQ_U64(get(s, "gpu.cycles"), 99, "singleton value");
    TAP_EQ_U64(get_inst(s, "gpu.cycles", -1), 99, "singleton via instance -1");

    uint64_t v = 7;
    TAP_OK(!stats_get_u64(s, "sm.nope", &v) && v == 7, "unknown name: false, out untouched");
    TAP_OK(!stats_get_u64(s, "sm", &v), "group alone is not a statistic");
    TAP_OK(!stats_get_instance_u64(s, "sm.insts", 3, &v), "unknown instance: false");
    TAP_OK(!stats_get_instance_u64(s, "sm.insts", -1, &v), "instanced stat has no instance -1");
    TAP_OK(!stats_get_instance_u64(s, "gpu.cycles", 0, &v), "singleton has no instance 0");

    char *j = squashed(s);
    TAP_CONTAINS(j, "\"gpu.cycles\":99,", "singleton counter is a bare number");
    TAP_CONTAINS(j, "\"sm.insts\":{\"total\":65,\"instances\":[10,25,30]}",
                 "instanced counter is {total, instances}");
    free(j);
    stats_destroy(s);
}

static void test_max(void)
{
    struct stats *s = stats_create();
    uint64_t peak[3] = {4, 17, 9}, single = 3;
    for (int i = 0; i < 3; i++)
        stats_max(s, "l1", i, "mshr_peak", &peak[i], "peak MSHRs in use");
    stats_max(s, "noc", -1, "peak_flits", &single, "");
    TAP_EQ_U64(get(s, "l1.mshr_peak"), 17, "STAT_MAX aggregate is the max, not the sum");
    TAP_EQ_U64(get_inst(s, "l1.mshr_peak", 2), 9, "STAT_MAX instance");
    char *j = squashed(s);
    TAP_CONTAINS(j, "\"l1.mshr_peak\":{\"total\":17,\"instances\":[4,17,9]}", "max JSON");
    TAP_CONTAINS(j, "\"noc.peak_flits\":3}", "singleton max JSON");
    free(j);
    stats_destroy(s);
}

static void test_avg(void)
{
    struct stats *s = stats_create();
    struct stat_avg lat[3] = {{0, 0}, {0, 0}, {0, 0}}, one = {0, 0};
    stat_avg_add(&lat[0], 1);
    stat_avg_add(&lat[0], 2);
    stat_avg_add(&lat[2], 10);
    for (int i = 0; i < 3; i++)
        stats_avg(s, "l2", i, "lat", &lat[i], "hit latency (cycles)");
    stats_avg(s, "dram", -1, "empty", &one, "never sampled");
    TAP_EQ_U64(lat[0].sum, 3, "stat_avg_add sums");
    TAP_EQ_U64(lat[0].count, 2, "stat_avg_add counts");
    TAP_EQ_U64(get(s, "l2.lat"), 13, "average: stats_get_u64 gives the summed sum");
    TAP_EQ_U64(get_inst(s, "l2.lat", 0), 3, "average instance: its sum");
    char *j = squashed(s);
    /* mean of the aggregate = 13/3, not the mean of the instance means */
    char want[256];
    snprintf(want, sizeof want,
             "\"l2.lat\":{\"mean\":%.17g,\"sum\":13,\"count\":3,\"instances\":[1.5,0,10]}",
             13.0 / 3.0);
    TAP_CONTAINS(j, want, "instanced average: mean/sum/count plus instance means");
    TAP_CONTAINS(j, "\"dram.empty\":{\"mean\":0,\"sum\":0,\"count\":0}",
                 "empty singleton average: mean 0, no instances member");
    free(j);
    stats_destroy(s);
}

static void test_hist(void)
{
    struct stat_hist h;
    stat_hist_init(&h, 4, 10);
    TAP_OK(h.bins && h.n_bins == 4 && h.bin_width == 10 && h.count == 0 && h.max == 0 &&
               h.overflow == 0 && h.sum == 0 && h.bins[3] == 0,
           "stat_hist_init: shape set, everything zero");
    stat_hist_add(&h, 0);
    stat_hist_add(&h, 9);
    stat_hist_add(&h, 10);
    stat_hist_add(&h, 39);
    stat_hist_add(&h, 40);
    stat_hist_add(&h, 1000);
    TAP_OK(h.bins[0] == 2 && h.bins[1] == 1 && h.bins[2] == 0 && h.bins[3] == 1,
           "bin edges: [0,10) [10,20) ... [30,40)");
    TAP_EQ_U64(h.overflow, 2, ">= n_bins*bin_width overflows");
    TAP_EQ_U64(h.max, 1000, "max");
    TAP_EQ_U64(h.count, 6, "count");
    TAP_EQ_U64(h.sum, 1098, "sum");

    struct stat_hist g;
    stat_hist_init(&g, 4, 10);
    stat_hist_add(&g, 25);
    stat_hist_add(&g, 5);

    struct stats *s = stats_create();
    stats_hist(s, "dram", 1, "qdepth", &g, "queue depth at arrival");
    stats_hist(s, "dram", 0, "qdepth", &h, "queue depth at arrival");
    TAP_EQ_U64(get(s, "dram.qdepth"), 8, "histogram: stats_get_u64 gives the count");
    TAP_EQ_U64(get_inst(s, "dram.qdepth", 1), 2, "histogram instance: its count");
    char *j = squashed(s);
    static const char want[] =
        "\"dram.qdepth\":{\"bin_width\":10,\"bins\":[3,1,1,1],\"overflow\":2,\"count\":8,"
        "\"sum\":1128,\"max\":1000,\"mean\":141,\"instances\":["
        "{\"count\":6,\"sum\":1098,\"max\":1000,\"mean\":183},"
        "{\"count\":2,\"sum\":30,\"max\":25,\"mean\":15}]}";
    TAP_CONTAINS(j, want, "histogram: bin-wise sum, overflow, count, sum, max, mean, instances");
    free(j);
    stats_destroy(s);
    stat_hist_fini(&h);
    stat_hist_fini(&g);
    TAP_OK(h.bins == NULL && h.n_bins == 0, "stat_hist_fini frees and clears");
}

/* A small registry written byte for byte: the documented layout. */
static void test_exact_json(void)
{
    struct stats *s = stats_create();
    uint64_t insts[2] = {5, 7}, peak[2] = {3, 8}, cycles = 100, k = 0;
    struct stat_avg lat = {0, 0};
    struct stat_hist q;
    stat_hist_init(&q, 2, 4);
    /* deliberately not in name order */
    stats_max(s, "sm", 1, "peak", &peak[1], "peak");
    stats_counter(s, "sm", 1, "insts", &insts[1], "instructions");
    stats_hist(s, "dram", -1, "q", &q, "queue");
    stats_counter(s, "gpu", -1, "cycles", &cycles, "cycles");
    stats_avg(s, "l2", -1, "lat", &lat, "latency");
    stats_counter(s, "sm", 0, "insts", &insts[0], "instructions");
    stats_max(s, "sm", 0, "peak", &peak[0], "peak");
    stats_counter(s, "k", -1, "n", &k, "per-kernel");
    stat_avg_add(&lat, 1);
    stat_avg_add(&lat, 2);
    stat_hist_add(&q, 1);
    stat_hist_add(&q, 5);
    stat_hist_add(&q, 9);
    stats_kernel_begin(s, "vec\"add");
    k += 4;
    stats_kernel_end(s);

    static const char want[] =
        "{\n"
        "  \"total\": {\n"
        "    \"dram.q\": {\n"
        "      \"bin_width\": 4,\n"
        "      \"bins\": [\n"
        "        1,\n"
        "        1\n"
        "      ],\n"
        "      \"overflow\": 1,\n"
        "      \"count\": 3,\n"
        "      \"sum\": 15,\n"
        "      \"max\": 9,\n"
        "      \"mean\": 5\n"
        "    },\n"
        "    \"gpu.cycles\": 100,\n"
        "    \"k.n\": 4,\n"
        "    \"l2.lat\": {\n"
        "      \"mean\": 1.5,\n"
        "      \"sum\": 3,\n"
        "      \"count\": 2\n"
        "    },\n"
        "    \"sm.insts\": {\n"
        "      \"total\": 12,\n"
        "      \"instances\": [\n"
        "        5,\n"
        "        7\n"
        "      ]\n"
        "    },\n"
        "    \"sm.peak\": {\n"
        "      \"total\": 8,\n"
        "      \"instances\": [\n"
        "        3,\n"
        "        8\n"
        "      ]\n"
        "    }\n"
        "  },\n"
        "  \"kernels\": [\n"
        "    {\n"
        "      \"index\": 0,\n"
        "      \"name\": \"vec\\\"add\",\n"
        "      \"stats\": {\n"
        "        \"dram.q\": {\n"
        "          \"bin_width\": 4,\n"
        "          \"bins\": [\n"
        "            0,\n"
        "            0\n"
        "          ],\n"
        "          \"overflow\": 0,\n"
        "          \"count\": 0,\n"
        "          \"sum\": 0,\n"
        "          \"max\": 9,\n"
        "          \"mean\": 0\n"
        "        },\n"
        "        \"gpu.cycles\": 0,\n"
        "        \"k.n\": 4,\n"
        "        \"l2.lat\": {\n"
        "          \"mean\": 0,\n"
        "          \"sum\": 0,\n"
        "          \"count\": 0\n"
        "        },\n"
        "        \"sm.insts\": {\n"
        "          \"total\": 0,\n"
        "          \"instances\": [\n"
        "            0,\n"
        "            0\n"
        "          ]\n"
        "        },\n"
        "        \"sm.peak\": {\n"
        "          \"total\": 8,\n"
        "          \"instances\": [\n"
        "            3,\n"
        "            8\n"
        "          ]\n"
        "        }\n"
        "      }\n"
        "    }\n"
        "  ]\n"
        "}\n";
    char *j = to_json(s);
    TAP_STREQ(j, want, "small registry: exact JSON text");
    free(j);
    stats_destroy(s);
    stat_hist_fini(&q);

    struct stats *e = stats_create();
    j = to_json(e);
    TAP_STREQ(j, "{\n  \"total\": {},\n  \"kernels\": []\n}\n", "empty registry: exact JSON text");
    free(j);
    stats_destroy(e);
}

static void test_kernels(void)
{
    struct stats *s = stats_create();
    uint64_t c[2] = {0, 0}, m = 0;
    struct stat_avg a = {0, 0};
    struct stat_hist h;
    stat_hist_init(&h, 2, 10);
    stats_counter(s, "u", 0, "c", &c[0], "");
    stats_counter(s, "u", 1, "c", &c[1], "");
    stats_max(s, "u", -1, "m", &m, "");
    stats_avg(s, "u", -1, "a", &a, "");
    stats_hist(s, "u", -1, "h", &h, "");
    TAP_EQ_U64(stats_n_kernels(s), 0, "no kernels yet");

    /* work before the first kernel */
    c[0] = 100;
    stat_avg_add(&a, 50);
    stat_hist_add(&h, 5);

    stats_kernel_begin(s, "k0");
    c[0] += 3;
    c[1] += 4;
    m = 9;
    stat_avg_add(&a, 10);
    stat_avg_add(&a, 20);
    stat_hist_add(&h, 1);
    stat_hist_add(&h, 15);
    stat_hist_add(&h, 25);
    stats_kernel_end(s);
    TAP_EQ_U64(stats_n_kernels(s), 1, "one kernel");

    /* work between kernels belongs to no kernel */
    c[0] += 1000;
    stat_avg_add(&a, 7);
    stat_hist_add(&h, 3);
    m = 11;

    stats_kernel_begin(s, "k1");
    c[1] += 2;
    stat_hist_add(&h, 12);
    uint64_t late = 5;
    stats_counter(s, "late", -1, "x", &late, "registered inside k1");
    late += 1;
    /* a dump while k1 is open shows only k0 */
    char *open = squashed(s);
    TAP_OK(strstr(open, "\"name\":\"k0\"") && !strstr(open, "\"name\":\"k1\""),
           "open kernel has no record yet");
    TAP_CONTAINS(open, "\"late.x\":6,", "late registration appears in total");
    free(open);
    stats_kernel_end(s);
    TAP_EQ_U64(stats_n_kernels(s), 2, "two kernels");

    char *j = squashed(s);
    char want[1024];
    snprintf(want, sizeof want,
             "\"kernels\":["
             "{\"index\":0,\"name\":\"k0\",\"stats\":{"
             "\"u.a\":{\"mean\":15,\"sum\":30,\"count\":2},"
             "\"u.c\":{\"total\":7,\"instances\":[3,4]},"
             "\"u.h\":{\"bin_width\":10,\"bins\":[1,1],\"overflow\":1,\"count\":3,\"sum\":41,"
             "\"max\":25,\"mean\":%.17g},"
             "\"u.m\":9}},"
             "{\"index\":1,\"name\":\"k1\",\"stats\":{"
             "\"late.x\":6,"
             "\"u.a\":{\"mean\":0,\"sum\":0,\"count\":0},"
             "\"u.c\":{\"total\":2,\"instances\":[0,2]},"
             "\"u.h\":{\"bin_width\":10,\"bins\":[0,1],\"overflow\":0,\"count\":1,\"sum\":12,"
             "\"max\":25,\"mean\":12},"
             "\"u.m\":11}}]}",
             41.0 / 3.0);
    TAP_CONTAINS(j, want, "per-kernel deltas (max: value at end; late entry: baseline 0)");
    snprintf(want, sizeof want,
             "{\"total\":{\"late.x\":6,"
             "\"u.a\":{\"mean\":%.17g,\"sum\":87,\"count\":4},"
             "\"u.c\":{\"total\":1109,\"instances\":[1103,6]},"
             "\"u.h\":{\"bin_width\":10,\"bins\":[3,2],\"overflow\":1,\"count\":6,\"sum\":61,"
             "\"max\":25,\"mean\":%.17g},"
             "\"u.m\":11},",
             87.0 / 4.0, 61.0 / 6.0);
    TAP_CONTAINS(j, want, "total is the whole run, including work outside kernels");
    free(j);
    TAP_EQ_U64(get(s, "u.c"), 1109, "stats_get_u64 is the whole run after kernels");
    stats_destroy(s);
    stat_hist_fini(&h);
}

/* Register the same statistics in two orders (families and instances); the
 * documents must be identical and sorted by strcmp of the full name. */
struct det_vals {
    uint64_t c[4];
    uint64_t hits, hit_lat_max, x, upper;
    struct stat_avg lat[2];
    struct stat_hist h[2];
};

static void det_register(struct stats *s, struct det_vals *v, int reverse)
{
    for (int k = 0; k < 8; k++) {
        int step = reverse ? 7 - k : k;
        switch (step) {
        case 0:
            for (int i = 0; i < 4; i++) {
                int inst = reverse ? 3 - i : i;
                stats_counter(s, "sm", inst, "insts", &v->c[inst], "");
            }
            break;
        case 1: stats_counter(s, "l1", -1, "hits", &v->hits, ""); break;
        case 2: stats_max(s, "l1", -1, "hit_lat", &v->hit_lat_max, ""); break;
        case 3: stats_counter(s, "l10", -1, "x", &v->x, ""); break;
        case 4: stats_counter(s, "l1", -1, "A", &v->upper, ""); break;
        case 5:
            stats_avg(s, "synth.unit", reverse ? 1 : 0, "lat", &v->lat[reverse ? 1 : 0], "");
            stats_avg(s, "synth.unit", reverse ? 0 : 1, "lat", &v->lat[reverse ? 0 : 1], "");
            break;
        case 6:
            stats_hist(s, "dram", reverse ? 1 : 0, "q", &v->h[reverse ? 1 : 0], "");
            stats_hist(s, "dram", reverse ? 0 : 1, "q", &v->h[reverse ? 0 : 1], "");
            break;
        default: break;
        }
    }
}

static void det_init(struct det_vals *v)
{
    memset(v, 0, sizeof *v);
    for (int i = 0; i < 4; i++)
        v->c[i] = 10u * (unsigned)i + 1;
    v->hits = 2;
    v->hit_lat_max = 3;
    v->x = 4;
    v->upper = 5;
    stat_avg_add(&v->lat[0], 3);
    stat_avg_add(&v->lat[1], 8);
    stat_avg_add(&v->lat[1], 9);
    for (int i = 0; i < 2; i++) {
        stat_hist_init(&v->h[i], 3, 2);
        stat_hist_add(&v->h[i], (uint64_t)i * 3);
    }
}

static void det_work(struct det_vals *v)
{
    v->c[2] += 7;
    stat_avg_add(&v->lat[0], 1);
    stat_hist_add(&v->h[1], 4);
}

static void test_determinism(void)
{
    struct det_vals va, vb;
    det_init(&va);
    det_init(&vb);
    struct stats *a = stats_create(), *b = stats_create();
    det_register(a, &va, 0);
    det_register(b, &vb, 1);
    stats_kernel_begin(a, "k");
    stats_kernel_begin(b, "k");
    det_work(&va);
    det_work(&vb);
    stats_kernel_end(a);
    stats_kernel_end(b);
    char *ja = to_json(a), *jb = to_json(b);
    TAP_OK(strlen(ja) == strlen(jb) && memcmp(ja, jb, strlen(ja)) == 0,
           "two registration orders give byte-identical JSON");
    if (strcmp(ja, jb) != 0)
        tap_diag("first:\n%s\nsecond:\n%s", ja, jb);
    static const char *const order[] = {"\"dram.q\"", "\"l1.A\"", "\"l1.hit_lat\"",
                                        "\"l1.hits\"", "\"l10.x\"", "\"sm.insts\"",
                                        "\"synth.unit.lat\""};
    const char *prev = ja;
    int sorted = 1;
    for (size_t i = 0; i < ARRAY_LEN(order); i++) {
        const char *p = strstr(ja, order[i]);
        if (!p || p < prev) {
            sorted = 0;
            tap_diag("%s missing or out of order", order[i]);
        }
        if (p)
            prev = p;
    }
    TAP_OK(sorted, "total is sorted by strcmp of the full name");
    char *q = squash(ja);
    TAP_CONTAINS(q, "\"sm.insts\":{\"total\":71,\"instances\":[1,11,28,31]}",
                 "instances ordered by instance number");
    free(q);
    free(ja);
    free(jb);
    stats_destroy(a);
    stats_destroy(b);
    for (int i = 0; i < 2; i++) {
        stat_hist_fini(&va.h[i]);
        stat_hist_fini(&vb.h[i]);
    }
}

static void test_gaps_and_independence(void)
{
    struct stats *s = stats_create(), *t = stats_create();
    uint64_t x0 = 1, x2 = 3, y = 10;
    stats_counter(s, "g", 2, "x", &x2, "");
    stats_counter(s, "g", 0, "x", &x0, "");
    char *j = squashed(s);
    TAP_CONTAINS(j, "\"g.x\":{\"total\":4,\"instances\":[1,null,3]}",
                 "missing instance is null in instances");
    free(j);
    TAP_OK(!stats_get_instance_u64(s, "g.x", 1, &y), "missing instance: false");

    /* the same names in a second registry are independent */
    y = 10;
    stats_counter(t, "g", 0, "x", &y, "");
    stats_counter(t, "g", 2, "x", &y, "");
    TAP_EQ_U64(get(t, "g.x"), 20, "second registry sees its own values");
    stats_kernel_begin(t, "only-t");
    stats_kernel_end(t);
    TAP_EQ_U64(stats_n_kernels(s), 0, "kernels of one registry do not show in the other");
    stats_destroy(t);
    TAP_EQ_U64(get(s, "g.x"), 4, "first registry intact after destroying the second");
    stats_destroy(s);
    stats_destroy(NULL);
    TAP_OK(1, "stats_destroy(NULL) is a no-op");
}

/* ------------------------------------------------------------------ panics */

static uint64_t pv[4];
static struct stat_avg pa;

static void child_ok(void)
{
    struct stats *s = stats_create();
    stats_counter(s, "sm", 0, "insts", &pv[0], "");
    stats_counter(s, "sm", 1, "insts", &pv[1], "");
    stats_destroy(s);
}

static void child_dup_instance(void)
{
    struct stats *s = stats_create();
    stats_counter(s, "sm", 3, "insts", &pv[0], "");
    stats_counter(s, "sm", 3, "insts", &pv[1], "");
}

static void child_dup_singleton(void)
{
    struct stats *s = stats_create();
    stats_counter(s, "gpu", -1, "cycles", &pv[0], "");
    stats_counter(s, "gpu", -1, "cycles", &pv[0], "");
}

static void child_kind_mismatch(void)
{
    struct stats *s = stats_create();
    stats_counter(s, "l2", 0, "hits", &pv[0], "");
    stats_avg(s, "l2", 1, "hits", &pa, "");
}

static void child_mixed(void)
{
    struct stats *s = stats_create();
    stats_counter(s, "l2", 0, "misses", &pv[0], "");
    stats_counter(s, "l2", -1, "misses", &pv[1], "");
}

static void child_hist_shape(void)
{
    static struct stat_hist a, b;
    stat_hist_init(&a, 4, 8);
    stat_hist_init(&b, 4, 16);
    struct stats *s = stats_create();
    stats_hist(s, "dram", 0, "qdepth", &a, "");
    stats_hist(s, "dram", 1, "qdepth", &b, "");
}

static void child_split(void)
{
    struct stats *s = stats_create();
    stats_counter(s, "synth.unit", 0, "ops", &pv[0], "");
    stats_counter(s, "synth", 1, "unit.ops", &pv[1], "");
}

static void child_end_without_begin(void)
{
    struct stats *s = stats_create();
    stats_kernel_end(s);
}

static void child_nested_begin(void)
{
    struct stats *s = stats_create();
    stats_kernel_begin(s, "outer");
    stats_kernel_begin(s, "inner");
}

static void child_counter_reset(void)
{
    struct stats *s = stats_create();
    pv[2] = 50;
    stats_counter(s, "sm", 5, "stalls", &pv[2], "");
    stats_kernel_begin(s, "k");
    pv[2] = 0;
    stats_kernel_end(s);
}

static void test_panics(void)
{
    run_child(child_ok, 0, "", "harness: a child that does not panic");
    expect_panic(child_dup_instance, "duplicate registration of sm.insts instance 3",
                 "duplicate instance");
    expect_panic(child_dup_singleton, "duplicate registration of singleton gpu.cycles",
                 "duplicate singleton");
    expect_panic(child_kind_mismatch, "l2.hits instance 1 registered with kind average, earlier instances with kind counter",
                 "kind mismatch");
    expect_panic(child_mixed, "l2.misses mixes singleton and instanced", "singleton+instanced");
    expect_panic(child_hist_shape, "histogram dram.qdepth instance 1 has 4 bins of width 16",
                 "histogram shape mismatch");
    expect_panic(child_split, "full name synth.unit.ops registered as group 'synth'",
                 "same full name, different group split");
    expect_panic(child_end_without_begin, "stats_kernel_end without stats_kernel_begin",
                 "kernel end without begin");
    expect_panic(child_nested_begin, "stats_kernel_begin('inner') while kernel 'outer'",
                 "nested kernel begin");
    expect_panic(child_counter_reset, "sm.stalls instance 5: counter went down during kernel 'k'",
                 "counter reset inside a kernel");
}

int main(void)
{
    tap_no_plan();
    test_counters();
    test_max();
    test_avg();
    test_hist();
    test_exact_json();
    test_kernels();
    test_determinism();
    test_gaps_and_independence();
    test_panics();
    return tap_exit();
}
