/* tests/test_config.c: the configuration system (sim/cfg/config.c).
 *
 * Covers value parsing of every type with units and bad input (through
 * cfg_parse_value with local key rows, because the registered tables do not
 * use every type yet), file loading with exact error texts (file:line and
 * key), collection of all errors, includes (relative, preset name, cycle,
 * depth), -o overrides and their origin, required keys, cross-field checks,
 * the printers and JSON output (read back and re-applied), preset lookup and
 * the independence of two struct cfg instances.
 *
 * Temporary files go under a mkdtemp() directory (or mkstemp() for single
 * files) that is removed at the end.
 */
#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/cfg/config.h"
#include "sim/base/diag.h"
#include "sim/gpu/gpu_cfg.h"
#include "sim/base/json.h"
#include "sim/cfg/sim_cfg.h"
#include "tap.h"

/* ------------------------------------------------------------ helpers */

static char tmp_root[256]; /* mkdtemp() directory of this run */

static void make_tmp_root(void)
{
    snprintf(tmp_root, sizeof tmp_root, "/tmp/gpusim_test_config.XXXXXX");
    if (!mkdtemp(tmp_root))
        tap_bail("mkdtemp: %s", strerror(errno));
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void remove_tmp_root(void) { nftw(tmp_root, rm_one, 16, FTW_DEPTH | FTW_PHYS); }

/* Write `text` to tmp_root/rel, creating directories in rel; returns the
 * full path (caller frees). */
static char *put_file(const char *rel, const char *text)
{
    size_t n = strlen(tmp_root) + strlen(rel) + 2;
    char *path = malloc(n);
    if (!path)
        tap_bail("out of memory");
    snprintf(path, n, "%s/%s", tmp_root, rel);
    /* create the directories on the way, like mkdir -p */
    for (char *sl = strchr(path + strlen(tmp_root) + 1, '/'); sl; sl = strchr(sl + 1, '/')) {
        *sl = '\0';
        mkdir(path, 0755);
        *sl = '/';
    }
    FILE *f = fopen(path, "w");
    if (!f)
        tap_bail("cannot write %s: %s", path, strerror(errno));
    fputs(text, f);
    fclose(f);
    return path;
}

/* A single file from mkstemp(); caller frees and unlinks. */
static char *put_temp_file(const char *text)
{
    size_t n = strlen(tmp_root) + 32;
    char *path = malloc(n);
    if (!path)
        tap_bail("out of memory");
    snprintf(path, n, "%s/single_XXXXXX", tmp_root);
    int fd = mkstemp(path);
    if (fd < 0)
        tap_bail("mkstemp: %s", strerror(errno));
    size_t len = strlen(text);
    if (write(fd, text, len) != (ssize_t)len)
        tap_bail("write: %s", strerror(errno));
    close(fd);
    return path;
}

/* Message i of d, or "" when there are fewer. */
static const char *msg(const struct diag *d, size_t i) { return i < d->n ? d->msgs[i] : ""; }

/* "path:line: rest" built for an exact comparison. */
static char *at(const char *path, int line, const char *rest)
{
    size_t n = strlen(path) + strlen(rest) + 32;
    char *s = malloc(n);
    if (!s)
        tap_bail("out of memory");
    snprintf(s, n, "%s:%d: %s", path, line, rest);
    return s;
}

static void expect_msg(const struct diag *d, size_t i, const char *path, int line,
                       const char *rest, const char *what)
{
    char *want = at(path, line, rest);
    TAP_STREQ(msg(d, i), want, "%s", what);
    free(want);
}

/* Everything cfg_print_resolved / cfg_print_keys / cfg_write_json write. */
struct capture {
    char *buf;
    size_t len;
    FILE *f;
};

static void cap_open(struct capture *c)
{
    c->buf = NULL;
    c->len = 0;
    c->f = open_memstream(&c->buf, &c->len);
    if (!c->f)
        tap_bail("open_memstream: %s", strerror(errno));
}

static void cap_close(struct capture *c) { fclose(c->f); }

/* ------------------------------------------------------------ value parsing */

static const char *const sched_names[] = {"lrr", "gto", "two_level", NULL};

static const struct cfg_key k_size = {"size", CFG_SIZE, 0, 1, 0, "0", NULL, "unbounded size"};
static const struct cfg_key k_size_r = {"size_r", CFG_SIZE, 0, 1024, 65536, "16K", NULL, "1K..64K"};
static const struct cfg_key k_freq = {"freq", CFG_FREQ, 0, 1, 0, "700MHz", NULL, "freq"};
static const struct cfg_key k_time = {"time", CFG_TIME, 0, 1, 0, "0", NULL, "time"};
static const struct cfg_key k_uint = {"uint", CFG_UINT, 0, 1, 0, "0", NULL, "uint"};
static const struct cfg_key k_int = {"int", CFG_INT, 0, 1, 0, "0", NULL, "int"};
static const struct cfg_key k_int_r = {"int_r", CFG_INT, 0, -100, 100, "0", NULL, "-100..100"};
static const struct cfg_key k_dbl = {"dbl", CFG_DOUBLE, 0, 1, 0, "0", NULL, "double"};
static const struct cfg_key k_dbl_r = {"dbl_r", CFG_DOUBLE, 0, 0, 1, "0", NULL, "0..1"};
static const struct cfg_key k_bool = {"bool", CFG_BOOL, 0, 0, 0, "false", NULL, "bool"};
static const struct cfg_key k_enum = {"enum", CFG_ENUM, 0, 0, 0, "gto", sched_names, "enum"};
static const struct cfg_key k_str = {"str", CFG_STRING, 0, 0, 0, "", NULL, "string"};

static void check_u(const struct cfg_key *k, const char *text, uint64_t want, const char *norm)
{
    uint64_t v = 12345;
    char why[256] = "";
    bool ok = cfg_parse_value(k, text, &v, why, sizeof why);
    TAP_OK(ok, "%s '%s' parses%s%s", k->name, text, ok ? "" : ": ", why);
    TAP_EQ_U64(v, want, "%s '%s' value", k->name, text);
    if (norm) {
        char buf[64];
        cfg_format_value(k, &v, buf, sizeof buf);
        TAP_STREQ(buf, norm, "%s '%s' normalised", k->name, text);
    }
}

/* A rejected value: field untouched and the reason contains `why_part`. */
static void check_bad(const struct cfg_key *k, const char *text, const char *why_part)
{
    union {
        uint64_t u;
        int64_t i;
        double d;
        bool b;
        int e;
        char *s;
    } v;
    memset(&v, 0x5a, sizeof v);
    uint64_t before = v.u;
    char why[256] = "";
    bool ok = cfg_parse_value(k, text, &v, why, sizeof why);
    TAP_OK(!ok, "%s '%s' rejected", k->name, text);
    TAP_EQ_U64(v.u, before, "%s '%s' leaves the field alone", k->name, text);
    TAP_CONTAINS(why, why_part, "%s '%s' reason", k->name, text);
}

static void test_parse_sizes(void)
{
    check_u(&k_size, "16K", 16384, "16K");
    check_u(&k_size, "16KB", 16384, "16K");
    check_u(&k_size, "16KiB", 16384, "16K");
    check_u(&k_size, "16kb", 16384, "16K");
    check_u(&k_size, "2M", 2097152, "2M");
    check_u(&k_size, "768K", 786432, "768K");
    check_u(&k_size, "1024K", 1048576, "1M");
    check_u(&k_size, "128", 128, "128");
    check_u(&k_size, "128B", 128, "128");
    check_u(&k_size, "1536", 1536, "1536");
    check_u(&k_size, "1.5K", 1536, "1536");
    check_u(&k_size, "16G", 17179869184ull, "16G");
    check_u(&k_size, "0x1000", 4096, "4K");
    check_u(&k_size, "0", 0, "0");
    check_bad(&k_size, "0.5", "is not a whole number of bytes");
    check_bad(&k_size, "16X", "is not a size (examples: 128, 16K");
    check_bad(&k_size, "-16K", "is not a size");
    check_bad(&k_size, "K", "is not a size");
    check_bad(&k_size, "99999999999G", "is too large");
    check_u(&k_size_r, "64K", 65536, "64K");
    check_bad(&k_size_r, "65537", "is out of range (allowed 1K .. 64K)");
    check_bad(&k_size_r, "1023", "is out of range (allowed 1K .. 64K)");
}

static void test_parse_freqs(void)
{
    check_u(&k_freq, "1.4GHz", 1400000000ull, "1.4GHz");
    check_u(&k_freq, "700MHz", 700000000ull, "700MHz");
    check_u(&k_freq, "700 MHz", 700000000ull, "700MHz");
    check_u(&k_freq, "924", 924000000ull, "924MHz");       /* bare number is MHz */
    check_u(&k_freq, "0.7GHz", 700000000ull, "700MHz");
    check_u(&k_freq, "1400mhz", 1400000000ull, "1.4GHz");
    check_u(&k_freq, "1137MHz", 1137000000ull, "1.137GHz");
    check_u(&k_freq, "1.000000001GHz", 1000000001ull, "1.000000001GHz");
    check_u(&k_freq, "2500kHz", 2500000ull, "2.5MHz");
    check_u(&k_freq, "10Hz", 10, "10Hz");
    check_bad(&k_freq, "fast", "is not a frequency (examples: 700MHz, 1.4GHz)");
    check_bad(&k_freq, "700MHzz", "is not a frequency");
    check_bad(&k_freq, "1.5Hz", "is not a whole number of Hz");
}

static void test_parse_times(void)
{
    check_u(&k_time, "10ns", 10000, "10ns");
    check_u(&k_time, "11432ps", 11432, "11432ps");
    check_u(&k_time, "11432", 11432, "11432ps");     /* bare number is ps */
    check_u(&k_time, "1.5us", 1500000, "1500ns");
    check_u(&k_time, "2us", 2000000, "2us");
    check_u(&k_time, "3ms", 3000000000ull, "3ms");
    check_u(&k_time, "1s", 1000000000000ull, "1s");
    check_u(&k_time, "0", 0, "0ps");
    check_bad(&k_time, "1.5ps", "is not a whole number of ps");
    check_bad(&k_time, "10 parsecs", "is not a time (examples: 10ns, 11432ps, 1.5us)");
    check_bad(&k_time, "-10ns", "is not a time");
}

static void test_parse_ints(void)
{
    check_u(&k_uint, "0x10", 16, "16");
    check_u(&k_uint, "0X1f", 31, "31");
    check_u(&k_uint, "42", 42, "42");
    check_u(&k_uint, "4K", 4096, "4096");
    check_u(&k_uint, "18446744073709551615", UINT64_MAX, "18446744073709551615");
    check_bad(&k_uint, "3.5", "is not a non-negative integer");
    check_bad(&k_uint, "-1", "is not a non-negative integer");
    check_bad(&k_uint, "18446744073709551616", "is too large");
    check_bad(&k_uint, "0x", "is not a non-negative integer");
    check_bad(&k_uint, "12abc", "is not a non-negative integer");

    int64_t i = 7;
    char why[256] = "";
    TAP_OK(cfg_parse_value(&k_int, "-3", &i, why, sizeof why) && i == -3, "int '-3' -> -3");
    TAP_OK(cfg_parse_value(&k_int, "-0x10", &i, why, sizeof why) && i == -16, "int '-0x10'");
    TAP_OK(cfg_parse_value(&k_int, "-9223372036854775808", &i, why, sizeof why) &&
               i == INT64_MIN,
           "int INT64_MIN");
    TAP_OK(cfg_parse_value(&k_int, "2K", &i, why, sizeof why) && i == 2048, "int '2K'");
    char buf[64];
    i = -16;
    cfg_format_value(&k_int, &i, buf, sizeof buf);
    TAP_STREQ(buf, "-16", "int normalised");
    check_bad(&k_int, "9223372036854775808", "does not fit a signed 64-bit integer");
    check_bad(&k_int, "3.5", "is not an integer");
    check_bad(&k_int_r, "101", "is out of range (allowed -100 .. 100)");
    check_bad(&k_int_r, "-101", "is out of range (allowed -100 .. 100)");
}

static void test_parse_other(void)
{
    double d = 0;
    char why[256] = "", buf[64];
    TAP_OK(cfg_parse_value(&k_dbl, "3.5", &d, why, sizeof why) && d == 3.5, "double '3.5'");
    cfg_format_value(&k_dbl, &d, buf, sizeof buf);
    TAP_STREQ(buf, "3.5", "double normalised");
    TAP_OK(cfg_parse_value(&k_dbl, "1e-3", &d, why, sizeof why) && d == 1e-3, "double '1e-3'");
    TAP_OK(cfg_parse_value(&k_dbl, "0.1", &d, why, sizeof why), "double '0.1'");
    cfg_format_value(&k_dbl, &d, buf, sizeof buf);
    TAP_STREQ(buf, "0.1", "double 0.1 keeps its short form");
    check_bad(&k_dbl, "abc", "is not a number");
    check_bad(&k_dbl, "inf", "is not a number");
    check_bad(&k_dbl, "1e999", "is not a number");
    check_bad(&k_dbl_r, "1.5", "is out of range (allowed 0 .. 1)");

    static const char *const yes[] = {"true", "yes", "on", "1", "TRUE"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < ARRAY_LEN(yes); i++) {
        bool b = false;
        TAP_OK(cfg_parse_value(&k_bool, yes[i], &b, why, sizeof why) && b, "bool '%s'", yes[i]);
    }
    for (size_t i = 0; i < ARRAY_LEN(no); i++) {
        bool b = true;
        TAP_OK(cfg_parse_value(&k_bool, no[i], &b, why, sizeof why) && !b, "bool '%s'", no[i]);
    }
    bool b = true;
    cfg_format_value(&k_bool, &b, buf, sizeof buf);
    TAP_STREQ(buf, "true", "bool normalised");
    check_bad(&k_bool, "maybe", "is not a boolean (true/false, yes/no, on/off, 1/0)");

    int e = -1;
    TAP_OK(cfg_parse_value(&k_enum, "two_level", &e, why, sizeof why) && e == 2,
           "enum by name -> index");
    TAP_OK(cfg_parse_value(&k_enum, "GTO", &e, why, sizeof why) && e == 1, "enum ignores case");
    cfg_format_value(&k_enum, &e, buf, sizeof buf);
    TAP_STREQ(buf, "gto", "enum normalised to its declared name");
    check_bad(&k_enum, "gtoo", "is not one of lrr, gto, two_level (did you mean 'gto'?)");
    check_bad(&k_enum, "round_robin", "is not one of lrr, gto, two_level");

    char *s = NULL;
    TAP_OK(cfg_parse_value(&k_str, "hello world", &s, why, sizeof why), "string parses");
    TAP_STREQ(s, "hello world", "string value");
    free(s);
}

/* ------------------------------------------------------------ struct cfg */

static void test_defaults(void)
{
    struct cfg c;
    cfg_init(&c);
    TAP_EQ_U64(c.values->clock.core_hz, 700000000, "default clock.core");
    TAP_EQ_U64(c.values->clock.dram_hz, 924000000, "default clock.dram");
    TAP_EQ_U64(c.values->gpu.n_sm, 15, "default gpu.n_sm");
    TAP_EQ_U64(c.values->synth.latency_spread_ps, 20000, "default synth.latency_spread 20ns");
    TAP_EQ_I64(c.values->sim.mode, SIM_MODE_FUNCTIONAL, "default sim.mode");
    TAP_OK(!c.values->engine.relaxed, "default sync.relaxed");
    TAP_STREQ(cfg_value_text(&c, "clock.core"), "700MHz", "default text normalised");
    TAP_STREQ(cfg_value_text(&c, "synth.latency_spread"), "20ns", "default time text");
    TAP_STREQ(cfg_value_origin(&c, "gpu.n_sm"), "default", "default origin");
    TAP_OK(cfg_value_text(&c, "gpu.nope") == NULL, "unknown key has no text");
    TAP_EQ_I64(cfg_key_index("sim.mode"), 0, "first key has index 0");
    TAP_OK(cfg_key_index("clock.core") > 0, "clock.core has an index");
    TAP_EQ_I64(cfg_key_index("clock"), -1, "section name alone is not a key");
    TAP_EQ_I64(cfg_key_index("clock.core.x"), -1, "longer name is not a key");
    struct diag d;
    diag_init(&d);
    TAP_EQ_I64(cfg_finish(&c, &d), 0, "defaults pass cfg_finish");
    diag_fini(&d);
    cfg_fini(&c);
}

static void test_load_good_file(void)
{
    char *path = put_temp_file("# a comment line\n"
                               "\n"
                               "gpu.n_sm = 16   # trailing comment\n"
                               "  clock.core=1.4GHz\n"
                               "clock.dram = 1400\r\n"
                               "sync.quantum = 10ns\n"
                               "sync.relaxed = yes\n"
                               "sim.mode = timing\n"
                               "mem.n_partitions = 0x8\n");
    struct cfg c;
    struct diag d;
    cfg_init(&c);
    diag_init(&d);
    int n = cfg_load(&c, path, &d);
    TAP_EQ_I64(n, 0, "good file loads without errors");
    if (n)
        tap_diag("first error: %s", msg(&d, 0));
    TAP_EQ_U64(c.values->gpu.n_sm, 16, "gpu.n_sm from file");
    TAP_EQ_U64(c.values->clock.core_hz, 1400000000ull, "clock.core 1.4GHz");
    TAP_EQ_U64(c.values->clock.dram_hz, 1400000000ull, "bare freq is MHz (CRLF line)");
    TAP_EQ_U64(c.values->engine.quantum_ps, 10000, "sync.quantum 10ns = 10000 ps");
    TAP_OK(c.values->engine.relaxed, "sync.relaxed yes");
    TAP_EQ_I64(c.values->sim.mode, SIM_MODE_TIMING, "sim.mode timing");
    TAP_EQ_U64(c.values->mem.n_partitions, 8, "hex value");
    TAP_STREQ(cfg_value_text(&c, "clock.dram"), "1.4GHz", "text is normalised");
    char want[512];
    snprintf(want, sizeof want, "%s:3", path);
    TAP_STREQ(cfg_value_origin(&c, "gpu.n_sm"), want, "origin is file:line");
    TAP_STREQ(cfg_value_origin(&c, "icnt.min_latency"), "default", "unset key stays default");
    TAP_STREQ(c.source, path, "source remembers the path");
    cfg_fini(&c);
    diag_fini(&d);
    unlink(path);
    free(path);
}

static void test_errors(void)
{
    char *path = put_temp_file("gpu.nsm = 16\n"                 /* 1 unknown, hint */
                               "gpu.n_sm = 20\n"                /* 2 ok */
                               "clock.core = fast\n"            /* 3 bad freq */
                               "gpu.n_sm = 21\n"                /* 4 duplicate */
                               "gpu.n_sm 16\n"                  /* 5 malformed */
                               "icnt.min_latency =\n"           /* 6 empty value */
                               "clock.icnt = 20GHz\n"           /* 7 out of range */
                               "gpu.min_latency = 3\n"          /* 8 wrong section */
                               "totally.bogus_key = 1\n"        /* 9 unknown, no hint */
                               "= 5\n"                          /* 10 no key */
                               "[gpu]\n"                        /* 11 section header */
                               "gpu.seed = 3\n"                 /* 12 two candidates */
                               "mem.n_partitions = 3.5\n"       /* 13 not an integer */
                               "sim.mode = timming\n");         /* 14 enum typo */
    struct cfg c;
    struct diag d;
    cfg_init(&c);
    diag_init(&d);
    int n = cfg_load(&c, path, &d);
    TAP_EQ_I64(n, 13, "every bad line is reported (13 of 14 lines are bad)");
    TAP_EQ_U64(diag_count(&d), 13, "diag holds 13 messages");
    expect_msg(&d, 0, path, 1, "unknown key 'gpu.nsm' (did you mean 'gpu.n_sm'?)",
               "unknown key with did-you-mean");
    expect_msg(&d, 1, path, 3,
               "key 'clock.core': value 'fast' is not a frequency (examples: 700MHz, 1.4GHz)",
               "bad frequency names file:line and key");
    expect_msg(&d, 2, path, 4, "key 'gpu.n_sm': set twice, first at line 2", "duplicate key");
    expect_msg(&d, 3, path, 5, "malformed line 'gpu.n_sm 16' (expected 'key = value')",
               "line without '='");
    expect_msg(&d, 4, path, 6, "key 'icnt.min_latency': empty value", "empty value");
    expect_msg(&d, 5, path, 7,
               "key 'clock.icnt': value '20GHz' is out of range (allowed 100MHz .. 10GHz)",
               "range error in the key's units");
    expect_msg(&d, 6, path, 8, "unknown key 'gpu.min_latency' (did you mean 'icnt.min_latency'?)",
               "key in the wrong section gets a hint");
    expect_msg(&d, 7, path, 9, "unknown key 'totally.bogus_key'", "far-off key gets no hint");
    TAP_CONTAINS(msg(&d, 8), ":10: malformed line: no key before '='", "missing key");
    TAP_CONTAINS(msg(&d, 9), ":11: malformed line '[gpu]' (no [section] headers",
                 "section headers are explained");
    expect_msg(&d, 10, path, 12,
               "unknown key 'gpu.seed' (did you mean 'sim.seed' or 'synth.seed'?)",
               "equal candidates are all listed");
    expect_msg(&d, 11, path, 13,
               "key 'mem.n_partitions': value '3.5' is not a non-negative integer (examples: 42, "
               "0x10, 4K)",
               "fraction for an integer key");
    expect_msg(&d, 12, path, 14,
               "key 'sim.mode': value 'timming' is not one of functional, timing (did you mean "
               "'timing'?)",
               "enum typo");
    /* Good lines were applied, bad ones left the old value. */
    TAP_EQ_U64(c.values->gpu.n_sm, 21, "last setting of a duplicate wins");
    TAP_EQ_U64(c.values->clock.core_hz, 700000000, "bad value leaves the default");
    TAP_EQ_U64(c.values->clock.icnt_hz, 700000000, "out-of-range value leaves the default");
    TAP_STREQ(cfg_value_origin(&c, "clock.core"), "default", "bad value leaves the origin");
    cfg_fini(&c);
    diag_fini(&d);
    unlink(path);
    free(path);
}

static void test_three_bad_lines(void)
{
    char *path = put_temp_file("gpu.n_sm = many\n"
                               "clock.l2 = 5\n"        /* 5 MHz: below 100MHz */
                               "icnt.min_latency = 8\n"
                               "sync.spin = -3\n");
    struct cfg c;
    struct diag d;
    cfg_init(&c);
    diag_init(&d);
    TAP_EQ_I64(cfg_load(&c, path, &d), 3, "file with 3 bad lines gives 3 errors");
    TAP_CONTAINS(msg(&d, 0), ":1: key 'gpu.n_sm'", "error 1 located");
    TAP_CONTAINS(msg(&d, 1), ":2: key 'clock.l2': value '5' is out of range (allowed 100MHz",
                 "error 2 located");
    TAP_CONTAINS(msg(&d, 2), ":4: key 'sync.spin'", "error 3 located");
    cfg_fini(&c);
    diag_fini(&d);
    unlink(path);
    free(path);
}

static void test_file_errors(void)
{
    struct cfg c;
    struct diag d;
    cfg_init(&c);
    diag_init(&d);
    char missing[300];
    snprintf(missing, sizeof missing, "%s/does_not_exist.cfg", tmp_root);
    TAP_EQ_I64(cfg_load(&c, missing, &d), 1, "missing file is one error");
    TAP_CONTAINS(msg(&d, 0), "does_not_exist.cfg: cannot open config file: No such file",
                 "missing file message");
    diag_clear(&d);

    TAP_EQ_I64(cfg_load(&c, tmp_root, &d), 1, "a directory is unreadable: one error");
    TAP_CONTAINS(msg(&d, 0), "read error: Is a directory", "directory read error");
    diag_clear(&d);

    char *nul = put_file("nul.cfg", "gpu.n_sm = 3\n");
    FILE *f = fopen(nul, "a");
    fputs("gpu.n_", f);
    fputc('\0', f);
    fputs("sm = 4\n", f);
    fclose(f);
    TAP_EQ_I64(cfg_load(&c, nul, &d), 1, "NUL byte in a line is an error");
    TAP_CONTAINS(msg(&d, 0), ":2: line contains a NUL byte", "NUL byte message");
    diag_clear(&d);
    free(nul);

    if (geteuid() != 0) {
        char *locked = put_file("locked.cfg", "gpu.n_sm = 3\n");
        chmod(locked, 0);
        TAP_EQ_I64(cfg_load(&c, locked, &d), 1, "unreadable file is an error");
        TAP_CONTAINS(msg(&d, 0), "Permission denied", "unreadable file message");
        diag_clear(&d);
        free(locked);
    } else {
        tap_skip(2, "running as root: permissions do not stop reading");
    }

    TAP_EQ_I64(cfg_load(&c, "gtx48", &d), 1, "unknown preset is one error");
    TAP_CONTAINS(msg(&d, 0), "unknown preset 'gtx48' (did you mean 'gtx480'?)",
                 "unknown preset with hint");
    TAP_CONTAINS(msg(&d, 0), "gtx480", "available presets listed");
    cfg_fini(&c);
    diag_fini(&d);
}

static void test_includes(void)
{
    char *leaf = put_file("inc/sub/leaf.cfg", "gpu.n_sm = 20\nclock.l2 = 1.4GHz\n");
    char *mid = put_file("inc/sub/mid.cfg", "include = leaf.cfg\nicnt.min_latency = 4\n");
    char *top = put_file("inc/top.cfg", "include = sub/mid.cfg\ngpu.n_sm = 21\n");
    (void)leaf;
    struct cfg c;
    struct diag d;
    cfg_init(&c);
    diag_init(&d);
    /* Run from another directory so that only the including file's
     * directory can make the relative names work. */
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        tap_bail("getcwd: %s", strerror(errno));
    if (chdir("/") != 0)
        tap_bail("chdir /: %s", strerror(errno));
    TAP_EQ_I64(cfg_load(&c, top, &d), 0, "nested relative includes load");
    if (d.n)
        tap_diag("%s", msg(&d, 0));
    if (chdir(cwd) != 0)
        tap_bail("chdir back: %s", strerror(errno));
    TAP_EQ_U64(c.values->gpu.n_sm, 21, "includer overrides the included file");
    TAP_EQ_U64(c.values->icnt.min_latency, 4, "middle file applied");
    TAP_EQ_U64(c.values->clock.l2_hz, 1400000000ull, "leaf file applied");
    char want[512];
    snprintf(want, sizeof want, "%s:2", top);
    TAP_STREQ(cfg_value_origin(&c, "gpu.n_sm"), want, "origin of the override");
    snprintf(want, sizeof want, "%s:2", mid);
    TAP_STREQ(cfg_value_origin(&c, "icnt.min_latency"), want, "origin inside an include");
    TAP_EQ_I64(c.include_depth, 0, "include depth back to 0");
    cfg_fini(&c);

    /* include by preset name (from GPUSIM_CONFIG_DIR or the source tree) */
    char *bypreset = put_file("inc/bypreset.cfg", "include = gtx480\ngpu.n_sm = 9\n");
    cfg_init(&c);
    TAP_EQ_I64(cfg_load(&c, bypreset, &d), 0, "include of a preset name");
    TAP_EQ_U64(c.values->gpu.n_sm, 9, "value after the preset include wins");
    TAP_CONTAINS(cfg_value_origin(&c, "clock.dram"), "gtx480.cfg:", "preset values' origin");
    cfg_fini(&c);

    /* missing include */
    char *bad = put_file("inc/bad.cfg", "gpu.n_sm = 3\ninclude = nothere.cfg\nclock.core = x\n");
    cfg_init(&c);
    TAP_EQ_I64(cfg_load(&c, bad, &d), 2, "missing include and a later bad line: 2 errors");
    snprintf(want, sizeof want, "%s:2: include 'nothere.cfg': file not found", bad);
    TAP_CONTAINS(msg(&d, 0), want, "missing include located at the include line");
    TAP_CONTAINS(msg(&d, 1), ":3: key 'clock.core'", "loading continued after it");
    diag_clear(&d);
    cfg_fini(&c);

    /* cycle a -> b -> a, and self-include */
    char *a = put_file("cyc/a.cfg", "gpu.n_sm = 2\ninclude = b.cfg\n");
    char *b = put_file("cyc/b.cfg", "include = a.cfg\nicnt.min_latency = 3\n");
    cfg_init(&c);
    TAP_EQ_I64(cfg_load(&c, a, &d), 1, "include cycle is one error");
    snprintf(want, sizeof want, "%s:1: include cycle: %s -> ", b, a);
    TAP_CONTAINS(msg(&d, 0), want, "cycle located at the closing include");
    TAP_CONTAINS(msg(&d, 0), "b.cfg -> ", "cycle chain names b.cfg");
    TAP_EQ_U64(c.values->icnt.min_latency, 3, "loading continued after the cycle");
    diag_clear(&d);
    cfg_fini(&c);
    char *self = put_file("cyc/self.cfg", "include = self.cfg\n");
    cfg_init(&c);
    TAP_EQ_I64(cfg_load(&c, self, &d), 1, "self-include is a cycle");
    TAP_CONTAINS(msg(&d, 0), "include cycle", "self-include message");
    diag_clear(&d);
    cfg_fini(&c);

    /* Depth: d0 -> d1 -> ... -> d17. Loading d1 nests 16 includes (allowed);
     * loading d0 needs 17 (error). */
    char *chain[18];
    for (int i = 0; i < 18; i++) {
        char rel[64], text[128];
        snprintf(rel, sizeof rel, "deep/d%d.cfg", i);
        if (i < 17)
            snprintf(text, sizeof text, "include = d%d.cfg\n", i + 1);
        else
            snprintf(text, sizeof text, "gpu.n_sm = 17\n");
        chain[i] = put_file(rel, text);
    }
    cfg_init(&c);
    TAP_EQ_I64(cfg_load(&c, chain[1], &d), 0, "16 nested includes are allowed");
    TAP_EQ_U64(c.values->gpu.n_sm, 17, "value from 16 levels down");
    cfg_fini(&c);
    cfg_init(&c);
    TAP_EQ_I64(cfg_load(&c, chain[0], &d), 1, "17 nested includes are an error");
    TAP_CONTAINS(msg(&d, 0), "d16.cfg:1: include 'd17.cfg': includes nested deeper than 16",
                 "depth error names the include line");
    diag_clear(&d);
    cfg_fini(&c);
    for (int i = 0; i < 18; i++)
        free(chain[i]);

    free(leaf);
    free(mid);
    free(top);
    free(bypreset);
    free(bad);
    free(a);
    free(b);
    free(self);
    diag_fini(&d);
}

static void test_overrides(void)
{
    char *path = put_temp_file("gpu.n_sm = 16\nclock.core = 700MHz\n");
    struct cfg c;
    struct diag d;
    cfg_init(&c);
    diag_init(&d);
    TAP_EQ_I64(cfg_load(&c, path, &d), 0, "file loads");
    TAP_EQ_I64(cfg_set(&c, "gpu.n_sm=24", "-o", &d), 0, "override applies");
    TAP_EQ_I64(cfg_set(&c, " clock.core = 1.4GHz ", "-o", &d), 0, "override with spaces");
    TAP_EQ_U64(c.values->gpu.n_sm, 24, "-o wins over the file");
    TAP_EQ_U64(c.values->clock.core_hz, 1400000000ull, "-o freq");
    TAP_STREQ(cfg_value_origin(&c, "gpu.n_sm"), "-o", "origin of an override is '-o'");
    TAP_STREQ(cfg_value_text(&c, "clock.core"), "1.4GHz", "override text normalised");

    TAP_EQ_I64(cfg_set(&c, "clock.core=fast", "-o", &d), 1, "bad override: 1 error");
    TAP_STREQ(msg(&d, 0),
              "-o: key 'clock.core': value 'fast' is not a frequency (examples: 700MHz, 1.4GHz)",
              "override error uses the origin as location");
    TAP_EQ_I64(cfg_set(&c, "gpu.nsm=3", "-o", &d), 1, "unknown override key");
    TAP_STREQ(msg(&d, 1), "-o: unknown key 'gpu.nsm' (did you mean 'gpu.n_sm'?)",
              "override did-you-mean");
    TAP_EQ_I64(cfg_set(&c, "n_sm=3", "-o", &d), 1, "key without section");
    TAP_STREQ(msg(&d, 2), "-o: unknown key 'n_sm' (did you mean 'gpu.n_sm'?)",
              "missing section gets a hint");
    TAP_EQ_I64(cfg_set(&c, "gpu.n_sm", "-o", &d), 1, "override without '='");
    TAP_CONTAINS(msg(&d, 3), "-o: malformed override 'gpu.n_sm'", "malformed override");
    TAP_EQ_I64(cfg_set(&c, "clock.core=20GHz", "--set", &d), 1, "out-of-range override");
    TAP_STREQ(msg(&d, 4),
              "--set: key 'clock.core': value '20GHz' is out of range (allowed 100MHz .. 10GHz)",
              "custom origin in the message");
    TAP_EQ_U64(c.values->clock.core_hz, 1400000000ull, "rejected overrides change nothing");
    TAP_EQ_I64(cfg_set(&c, "gpu.n_sm=12", "-o", &d), 0, "same key twice via -o is fine");
    TAP_EQ_U64(c.values->gpu.n_sm, 12, "later override wins");
    cfg_fini(&c);
    diag_fini(&d);
    unlink(path);
    free(path);
}

static void test_finish(void)
{
    struct cfg c;
    struct diag d;
    cfg_init(&c);
    diag_init(&d);
    char *path = put_temp_file("sim.seed = 2\nsync.ring_slots = 1000\n");
    TAP_EQ_I64(cfg_load(&c, path, &d), 0, "ring_slots 1000 is in range");
    TAP_EQ_I64(cfg_finish(&c, &d), 1, "cross-field rule fails in cfg_finish");
    char want[512];
    snprintf(want, sizeof want,
             "%s:2: key 'sync.ring_slots' = 1000: 1000 is not a power of two", path);
    TAP_STREQ(msg(&d, 0), want, "check message prefixed with the key's origin");
    diag_clear(&d);
    TAP_EQ_I64(cfg_set(&c, "sync.ring_slots=512", "-o", &d), 0, "fix via -o");
    TAP_EQ_I64(cfg_finish(&c, &d), 0, "now passes");
    TAP_EQ_I64(cfg_set(&c, "synth.sm_partitions=0", "-o", &d), 0, "zero SM partitions");
    TAP_EQ_I64(cfg_set(&c, "synth.mem_partitions=0", "-o", &d), 0, "zero mem partitions");
    TAP_EQ_I64(cfg_finish(&c, &d), 1, "synth rule fails");
    TAP_CONTAINS(msg(&d, 0), "-o: key 'synth.sm_partitions' = 0:", "prefix '-o'");
    diag_clear(&d);
    cfg_fini(&c);

    /* No registered key is required today (every row has a default), so
     * simulate one that was never set: its origin and text are NULL. */
    cfg_init(&c);
    int i = cfg_key_index("gpu.n_sm");
    free(c.origin[i]);
    free(c.text[i]);
    c.origin[i] = NULL;
    c.text[i] = NULL;
    TAP_EQ_I64(cfg_finish(&c, &d), 1, "required key never set is an error");
    TAP_CONTAINS(msg(&d, 0), "required key 'gpu.n_sm' is not set", "required key message");
    TAP_CONTAINS(msg(&d, 0), "number of streaming multiprocessors", "message carries the doc");
    struct capture cap;
    cap_open(&cap);
    cfg_print_resolved(&c, cap.f);
    cap_close(&cap);
    TAP_CONTAINS(cap.buf, "# gpu.n_sm = (not set)", "unset key printed commented out");
    free(cap.buf);
    diag_clear(&d);
    TAP_EQ_I64(cfg_set(&c, "gpu.n_sm=4", "-o", &d), 0, "set it");
    TAP_EQ_I64(cfg_finish(&c, &d), 0, "then cfg_finish passes");
    cfg_fini(&c);
    diag_fini(&d);
    unlink(path);
    free(path);
}

/* ------------------------------------------------------------ output */

/* Read a flat JSON object of string members {"k": "v", ...} (no escapes in
 * our keys or values) and apply each member with cfg_set. Returns the number
 * of members, or -1 on a syntax error. */
static int apply_json_object(struct cfg *c, const char *p, struct diag *d)
{
    int n = 0;
    while (*p == ' ' || *p == '\n')
        p++;
    if (*p++ != '{')
        return -1;
    for (;;) {
        while (*p == ' ' || *p == '\n' || *p == ',')
            p++;
        if (*p == '}')
            return n;
        char k[256], v[256];
        if (sscanf(p, "\"%255[^\"]\": \"%255[^\"]\"", k, v) != 2)
            return -1;
        char kv[600];
        snprintf(kv, sizeof kv, "%s=%s", k, v);
        cfg_set(c, kv, "json", d);
        n++;
        p = strchr(p, '"');
        for (int q = 0; q < 3 && p; q++) /* key close, value open, value close */
            p = strchr(p + 1, '"');
        if (!p)
            return -1;
        p++;
    }
}

static void test_print_and_json(void)
{
    struct cfg c, back;
    struct diag d;
    cfg_init(&c);
    diag_init(&d);
    cfg_set(&c, "gpu.n_sm=16", "-o", &d);
    cfg_set(&c, "clock.icnt=1.4GHz", "-o", &d);
    cfg_set(&c, "sync.quantum=11432ps", "-o", &d);
    cfg_set(&c, "sim.mode=timing", "-o", &d);
    TAP_EQ_U64(diag_count(&d), 0, "overrides for the output tests apply");

    struct capture cap;
    cap_open(&cap);
    cfg_print_resolved(&c, cap.f);
    cap_close(&cap);
    TAP_CONTAINS(cap.buf, "# [clock] clock domains (core, interconnect, L2, DRAM)\n",
                 "section heading with its doc");
    TAP_CONTAINS(cap.buf, "\ngpu.n_sm = 16 ", "gpu.n_sm line");
    TAP_CONTAINS(cap.buf, "   # -o\n", "override origin shown");
    TAP_CONTAINS(cap.buf, "\nclock.icnt = 1.4GHz ", "frequency normalised");
    TAP_CONTAINS(cap.buf, "\nclock.core = 700MHz ", "default frequency");
    TAP_CONTAINS(cap.buf, "\nsync.quantum = 11432ps ", "time normalised");
    TAP_CONTAINS(cap.buf, "\nsync.relaxed = false ", "bool normalised");
    TAP_CONTAINS(cap.buf, "\nsim.mode = timing ", "enum by name");
    TAP_CONTAINS(cap.buf, "\nsynth.latency_spread = 20ns ", "20ns default");
    TAP_CONTAINS(cap.buf, "   # default\n", "default origin shown");
    /* every key appears, and the '#' column lines up */
    int hash_col = -1, lines = 0, misaligned = 0;
    for (char *line = cap.buf; line && *line;) {
        char *nl = strchr(line, '\n');
        if (line[0] != '#' && line[0] != '\n') {
            char *h = strstr(line, "   # ");
            int col = h ? (int)(h - line) : -1;
            if (hash_col < 0)
                hash_col = col;
            misaligned += col != hash_col;
            lines++;
        }
        line = nl ? nl + 1 : NULL;
    }
    int n_keys = 0;
    for (unsigned s = 0; s < cfg_n_sections; s++)
        n_keys += (int)cfg_sections[s]->n_keys;
    TAP_EQ_I64(lines, n_keys, "one line per key");
    TAP_EQ_I64(misaligned, 0, "origin comments aligned");

    /* The resolved output is itself a config file that gives the same values. */
    char *resolved = put_file("resolved.cfg", cap.buf);
    free(cap.buf);
    cfg_init(&back);
    TAP_EQ_I64(cfg_load(&back, resolved, &d), 0, "resolved output loads back");
    int differ = 0;
    for (int i = 0; i < n_keys; i++)
        differ += strcmp(c.text[i], back.text[i]) != 0;
    TAP_EQ_I64(differ, 0, "resolved output round-trips every value");
    cfg_fini(&back);
    free(resolved);

    /* JSON */
    cap_open(&cap);
    struct json_writer w;
    jw_init(&w, cap.f);
    jw_obj_begin(&w, NULL);
    cfg_write_json(&c, &w, "config");
    jw_obj_end(&w);
    jw_finish(&w);
    cap_close(&cap);
    TAP_CONTAINS(cap.buf, "\"config\": {", "object named by key");
    TAP_CONTAINS(cap.buf, "\"gpu.n_sm\": \"16\"", "uint member");
    TAP_CONTAINS(cap.buf, "\"clock.icnt\": \"1.4GHz\"", "freq member");
    TAP_CONTAINS(cap.buf, "\"sync.quantum\": \"11432ps\"", "time member");
    TAP_CONTAINS(cap.buf, "\"sim.mode\": \"timing\"", "enum member");
    const char *p_sim = strstr(cap.buf, "\"sim.mode\"");
    const char *p_clock = strstr(cap.buf, "\"clock.core\"");
    const char *p_synth = strstr(cap.buf, "\"synth.seed\"");
    TAP_OK(p_sim && p_clock && p_synth && p_sim < p_clock && p_clock < p_synth,
           "members in section/table order");
    const char *obj = strstr(cap.buf, "\"config\": ");
    cfg_init(&back);
    int members = obj ? apply_json_object(&back, obj + strlen("\"config\": "), &d) : -1;
    TAP_EQ_I64(members, n_keys, "JSON has one member per key");
    TAP_EQ_U64(diag_count(&d), 0, "every JSON member feeds back through cfg_set");
    differ = 0;
    for (int i = 0; i < n_keys; i++)
        differ += strcmp(c.text[i], back.text[i]) != 0;
    TAP_EQ_I64(differ, 0, "JSON round-trips every value");
    TAP_EQ_U64(back.values->clock.icnt_hz, 1400000000ull, "JSON value reaches the struct");
    cfg_fini(&back);
    free(cap.buf);

    cfg_fini(&c);
    diag_fini(&d);
}

static void test_print_keys(void)
{
    struct capture cap;
    cap_open(&cap);
    cfg_print_keys(cap.f);
    cap_close(&cap);
    for (unsigned s = 0; s < cfg_n_sections; s++) {
        const struct cfg_section *sec = cfg_sections[s];
        char head[256];
        /* Parts of a section (adjacent entries, same name) share the first part's heading. */
        bool part = s > 0 && strcmp(cfg_sections[s - 1]->name, sec->name) == 0;
        snprintf(head, sizeof head, "\n[%s] ", sec->name);
        const char *first = strstr(cap.buf, head);
        TAP_OK(first && !strstr(first + 1, head), "section '%s' has exactly one heading", sec->name);
        if (!part) {
            snprintf(head, sizeof head, "\n[%s] %s\n", sec->name, sec->doc);
            TAP_CONTAINS(cap.buf, head, "section '%s' heading", sec->name);
        }
        int missing = 0;
        for (size_t k = 0; k < sec->n_keys; k++) {
            char name[160];
            snprintf(name, sizeof name, "  %s.%s ", sec->name, sec->keys[k].name);
            missing += strstr(cap.buf, name) == NULL;
        }
        TAP_EQ_I64(missing, 0, "every key of '%s' listed", sec->name);
    }
    TAP_CONTAINS(cap.buf, "100MHz .. 10GHz", "frequency range in its units");
    TAP_CONTAINS(cap.buf, "functional|timing", "enum choices");
    TAP_CONTAINS(cap.buf, "number of streaming multiprocessors", "doc text");
    /* TYPE column aligned: find it in the header, check every key row. */
    const char *type_at = strstr(cap.buf, "TYPE");
    int col = type_at ? (int)(type_at - cap.buf) : -1;
    int rows = 0, bad = 0;
    for (char *line = strchr(cap.buf, '\n'); line && line[1];) {
        line++;
        char *nl = strchr(line, '\n');
        if (line[0] == ' ' && line[1] == ' ') {
            rows++;
            static const char *const types[] = {"bool", "int", "uint", "size", "freq",
                                                "time", "double", "enum", "string"};
            int ok = 0;
            for (size_t t = 0; t < ARRAY_LEN(types); t++)
                ok |= strncmp(line + col, types[t], strlen(types[t])) == 0 && line[col - 1] == ' ';
            bad += !ok;
        }
        line = nl;
    }
    TAP_OK(rows > 0 && bad == 0, "TYPE column aligned on all %d rows (%d bad)", rows, bad);
    free(cap.buf);
}

/* ------------------------------------------------------------ presets, instances */

static void test_presets_lookup(void)
{
    char out[4096];
    TAP_OK(cfg_find_preset("some/dir/x", out, sizeof out) && strcmp(out, "some/dir/x") == 0,
           "a name with '/' is a path");
    TAP_OK(cfg_find_preset("local.cfg", out, sizeof out) && strcmp(out, "local.cfg") == 0,
           "a name ending in .cfg is a path");
    TAP_OK(!cfg_find_preset("no_such_preset", out, sizeof out) && out[0] == '\0',
           "unknown preset: false and empty");

    /* GPUSIM_CONFIG_DIR comes first and lists only its own directory. */
    const char *old = getenv("GPUSIM_CONFIG_DIR");
    char *saved = old ? strdup(old) : NULL;
    char *p1 = put_file("presets/zeta.cfg", "gpu.n_sm = 9\n");
    char *p2 = put_file("presets/alpha.cfg", "gpu.n_sm = 8\n");
    char *p3 = put_file("presets/.hidden.cfg", "\n");
    char *p4 = put_file("presets/notes.txt", "\n");
    char dir[300];
    snprintf(dir, sizeof dir, "%s/presets", tmp_root);
    setenv("GPUSIM_CONFIG_DIR", dir, 1);
    TAP_OK(cfg_find_preset("zeta", out, sizeof out) && strcmp(out, p1) == 0,
           "preset found in GPUSIM_CONFIG_DIR");
    char **list = cfg_list_presets();
    TAP_OK(list && list[0] && list[1] && !list[2], "two presets listed");
    if (list && list[0] && list[1]) {
        TAP_STREQ(list[0], "alpha", "sorted, without .cfg");
        TAP_STREQ(list[1], "zeta", "second preset");
    } else {
        tap_skip(2, "list too short");
    }
    cfg_free_list(list);
    struct cfg c;
    struct diag d;
    cfg_init(&c);
    diag_init(&d);
    TAP_EQ_I64(cfg_load(&c, "zeta", &d), 0, "load by preset name");
    TAP_EQ_U64(c.values->gpu.n_sm, 9, "preset value");
    TAP_STREQ(c.source, "zeta", "source is the preset name");
    cfg_fini(&c);
    diag_fini(&d);
    if (saved) {
        setenv("GPUSIM_CONFIG_DIR", saved, 1);
        free(saved);
    } else {
        unsetenv("GPUSIM_CONFIG_DIR");
    }
    free(p1);
    free(p2);
    free(p3);
    free(p4);
}

static void test_independent(void)
{
    struct cfg a, b;
    struct diag d;
    diag_init(&d);
    cfg_init(&a);
    cfg_init(&b);
    TAP_OK(a.values != b.values, "separate value structs");
    cfg_set(&a, "gpu.n_sm=3", "-o", &d);
    cfg_set(&b, "gpu.n_sm=200", "b", &d);
    cfg_set(&b, "clock.core=1GHz", "b", &d);
    TAP_EQ_U64(a.values->gpu.n_sm, 3, "a keeps its value");
    TAP_EQ_U64(b.values->gpu.n_sm, 200, "b keeps its value");
    TAP_EQ_U64(a.values->clock.core_hz, 700000000, "a not affected by b");
    TAP_STREQ(cfg_value_origin(&a, "gpu.n_sm"), "-o", "a origin");
    TAP_STREQ(cfg_value_origin(&b, "gpu.n_sm"), "b", "b origin");
    cfg_fini(&a);
    TAP_STREQ(cfg_value_text(&b, "gpu.n_sm"), "200", "b intact after a is finished");
    TAP_STREQ(cfg_value_text(&b, "clock.core"), "1GHz", "b text intact");
    cfg_fini(&b);
    TAP_EQ_U64(diag_count(&d), 0, "no errors");
    diag_fini(&d);
}

/* Keys renamed to the spec's names (sim/cfg/registry.c): the old name is an
 * unknown key with the hint "renamed to 'new'", in a file (file:line) and as
 * -o; the new name is accepted and sets the same value. */
static void test_renamed_keys(void)
{
    static const char *const must[][2] = {
        /* issue 10: spec baseline-gpu.md 4.2 names */
        {"sched.n_sched", "sm.n_sched"},      {"smem_banks.n_banks", "smem.n_banks"},
        {"smem_banks.width", "smem.width"},   {"smem_banks.warp_parts", "smem.warp_parts"},
        {"smem_banks.wide", "smem.wide"},     {"dispatch.policy", "cta.policy"},
        {"icnt_net.topology", "icnt.topology"}, {"icnt_net.flit", "icnt.flit"},
        {"icnt_net.header", "icnt.header"},   {"icnt_net.inj_buf", "icnt.inj_buf"},
        {"icnt_net.rx_fifo_flits", "icnt.rx_fifo_flits"}, {"icnt_net.mesh_cols", "icnt.mesh_cols"},
        {"icnt_net.mesh_rows", "icnt.mesh_rows"}, {"icnt_net.hop_latency", "icnt.hop_latency"},
        {"engine.quantum", "sync.quantum"},   {"engine.relaxed", "sync.relaxed"},
        {"engine.ring_slots", "sync.ring_slots"}, {"engine.spin", "sync.spin"},
        {"engine.max_time", "sync.max_time"},
    };
    /* Every pair above is in the table, and the table has nothing else. */
    TAP_EQ_U64(cfg_n_renamed_keys, ARRAY_LEN(must), "renamed-keys table has %zu rows", ARRAY_LEN(must));
    int absent = 0;
    for (size_t i = 0; i < ARRAY_LEN(must); i++) {
        bool found = false;
        for (unsigned j = 0; j < cfg_n_renamed_keys; j++)
            found |= strcmp(cfg_renamed_keys[j].old_name, must[i][0]) == 0 &&
                     strcmp(cfg_renamed_keys[j].new_name, must[i][1]) == 0;
        absent += !found;
    }
    TAP_EQ_I64(absent, 0, "every issue-10 rename is in cfg_renamed_keys");

    for (unsigned j = 0; j < cfg_n_renamed_keys; j++) {
        const char *old = cfg_renamed_keys[j].old_name, *now = cfg_renamed_keys[j].new_name;
        TAP_EQ_I64(cfg_key_index(old), -1, "'%s' is no longer a key", old);
        TAP_OK(cfg_key_index(now) >= 0, "'%s' is a key", now);
        struct cfg c;
        struct diag d;
        cfg_init(&c);
        diag_init(&d);
        /* The value of the new key's default, so only the name can be wrong. */
        const char *val = cfg_value_text(&c, now);
        char line[256], want[256];
        snprintf(line, sizeof line, "sim.seed = 3\n%s = %s\n", old, val ? val : "1");
        char *path = put_temp_file(line);
        TAP_EQ_I64(cfg_load(&c, path, &d), 1, "file with '%s': 1 error", old);
        snprintf(want, sizeof want, "unknown key '%s' (renamed to '%s')", old, now);
        expect_msg(&d, 0, path, 2, want, "file: old name refused with file:line and the new name");
        diag_clear(&d);
        snprintf(line, sizeof line, "%s=%s", old, val ? val : "1");
        TAP_EQ_I64(cfg_set(&c, line, "-o", &d), 1, "-o %s: 1 error", line);
        snprintf(want, sizeof want, "-o: unknown key '%s' (renamed to '%s')", old, now);
        TAP_STREQ(msg(&d, 0), want, "-o: old name refused with the new name");
        diag_clear(&d);
        snprintf(line, sizeof line, "%s=%s", now, val ? val : "1");
        TAP_EQ_I64(cfg_set(&c, line, "-o", &d), 0, "-o %s accepted", line);
        TAP_STREQ(cfg_value_origin(&c, now), "-o", "'%s' set by -o", now);
        cfg_fini(&c);
        diag_fini(&d);
        unlink(path);
        free(path);
    }

    /* The new names reach the values the C code reads (struct members keep
     * their old names). */
    struct cfg c;
    struct diag d;
    cfg_init(&c);
    diag_init(&d);
    static const char *const sets[] = {"sm.n_sched=4",     "smem.n_banks=16",    "smem.width=8",
                                       "smem.warp_parts=2", "smem.wide=first_word", "icnt.flit=16",
                                       "icnt.inj_buf=17",  "icnt.topology=mesh2d", "sync.quantum=5ns",
                                       "sync.spin=7",      "sync.max_time=1us",  "cta.policy=rr"};
    int bad = 0;
    for (size_t i = 0; i < ARRAY_LEN(sets); i++)
        bad += cfg_set(&c, sets[i], "-o", &d);
    TAP_EQ_I64(bad, 0, "new names set without errors");
    const struct sim_cfg *v = c.values;
    TAP_EQ_U64(v->sched.n_sched, 4, "sm.n_sched -> sched.n_sched");
    TAP_EQ_U64(v->smem_banks.n_banks, 16, "smem.n_banks -> smem_banks.n_banks");
    TAP_EQ_U64(v->smem_banks.width, 8, "smem.width -> smem_banks.width");
    TAP_EQ_U64(v->smem_banks.warp_parts, 2, "smem.warp_parts -> smem_banks.warp_parts");
    TAP_EQ_I64(v->smem_banks.wide, 1, "smem.wide -> smem_banks.wide");
    TAP_EQ_U64(v->icnt_net.flit, 16, "icnt.flit -> icnt_net.flit");
    TAP_EQ_U64(v->icnt_net.inj_buf, 17, "icnt.inj_buf -> icnt_net.inj_buf");
    TAP_EQ_I64(v->icnt_net.topology, 1, "icnt.topology -> icnt_net.topology");
    TAP_EQ_U64(v->engine.quantum_ps, 5000, "sync.quantum -> engine.quantum_ps");
    TAP_EQ_U64(v->engine.spin_limit, 7, "sync.spin -> engine.spin_limit");
    TAP_EQ_U64(v->engine.max_time_ps, 1000000, "sync.max_time -> engine.max_time_ps");
    TAP_EQ_I64(v->dispatch.policy, 0, "cta.policy -> dispatch.policy");
    TAP_EQ_U64(v->icnt.min_latency, 8, "icnt.min_latency untouched by the icnt network part");
    TAP_EQ_U64(v->smem.size, 48 * 1024, "smem.size untouched by the smem bank part");
    /* Cross-field rules of the parts name the new keys. */
    diag_clear(&d);
    TAP_EQ_I64(cfg_set(&c, "smem.width=6", "-o", &d), 0, "smem.width 6 is in range");
    TAP_EQ_I64(cfg_set(&c, "smem.warp_parts=3", "-o", &d), 0, "smem.warp_parts 3 is in range");
    TAP_EQ_I64(cfg_set(&c, "sm.n_sched=3", "-o", &d), 0, "sm.n_sched 3");
    TAP_EQ_I64(cfg_set(&c, "sched.policy=two_level", "-o", &d), 0, "two_level");
    TAP_EQ_I64(cfg_set(&c, "icnt.topology=xbar", "-o", &d), 0, "xbar");
    TAP_EQ_I64(cfg_set(&c, "icnt.inj_buf=1", "-o", &d), 0, "icnt.inj_buf 1 is in range");
    cfg_finish(&c, &d);
    int seen = 0;
    for (size_t i = 0; i < d.n; i++) {
        seen |= strstr(d.msgs[i], "-o: key 'smem.width' = 6:") ? 1 : 0;
        seen |= strstr(d.msgs[i], "-o: key 'smem.warp_parts' = 3:") ? 2 : 0;
        seen |= strstr(d.msgs[i], "key 'sched.two_level.n_active' = 8: 8 is not a positive multiple of "
                                  "sm.n_sched 3") ? 4 : 0;
        seen |= strstr(d.msgs[i], "-o: key 'icnt.inj_buf' = 1:") ? 8 : 0;
        TAP_OK(!strstr(d.msgs[i], "smem_banks.") && !strstr(d.msgs[i], "icnt_net.") &&
                   !strstr(d.msgs[i], "sched.n_sched"),
               "check message %zu uses only new names: %s", i, d.msgs[i]);
    }
    TAP_EQ_I64(seen, 15, "smem.width, smem.warp_parts, sm.n_sched and icnt.inj_buf rules reported");
    diag_clear(&d);

    /* sm.warp_size is the spec's key; only 32 is modelled. */
    TAP_EQ_U64(v->sm.warp_size, 32, "sm.warp_size default 32");
    TAP_EQ_I64(cfg_set(&c, "sm.warp_size=32", "-o", &d), 0, "sm.warp_size = 32 accepted");
    TAP_EQ_I64(cfg_set(&c, "sm.warp_size=64", "-o", &d), 1, "sm.warp_size = 64 refused");
    TAP_STREQ(msg(&d, 0), "-o: key 'sm.warp_size': value '64' is out of range (allowed 32 .. 32)",
              "warp size range error");
    cfg_fini(&c);
    diag_fini(&d);
}

int main(void)
{
    tap_no_plan();
    if (!getenv("GPUSIM_CONFIG_DIR"))
        setenv("GPUSIM_CONFIG_DIR", GPUSIM_SOURCE_DIR "/configs", 1);
    make_tmp_root();
    test_parse_sizes();
    test_parse_freqs();
    test_parse_times();
    test_parse_ints();
    test_parse_other();
    test_defaults();
    test_load_good_file();
    test_errors();
    test_three_bad_lines();
    test_file_errors();
    test_includes();
    test_overrides();
    test_finish();
    test_print_and_json();
    test_print_keys();
    test_presets_lookup();
    test_independent();
    test_renamed_keys();
    remove_tmp_root();
    return tap_exit();
}
