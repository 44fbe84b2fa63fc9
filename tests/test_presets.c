/* tests/test_presets.c: every preset in configs/ loads cleanly, is complete,
 * and gives the derived values the spec expects.
 *
 * Presets are found with cfg_list_presets(): $GPUSIM_CONFIG_DIR (ctest sets
 * it to the source tree's configs/), else GPUSIM_SOURCE_DIR "/configs".
 * For each one:
 *  - cfg_load and cfg_finish report no errors;
 *  - every key of every section except sync.* and synth.* (run-time
 *    machinery, not hardware) was set by a file, i.e. its origin is not
 *    "default" (keys set in an included file count as set); this walks
 *    cfg_sections, so keys added later are covered without editing the test;
 *  - the file starts with a header comment naming the preset;
 *  - clock periods and the lookahead L = icnt.min_latency x icnt period are
 *    positive, and for the presets named in the spec (baseline-gpu.md 3.1,
 *    3.4, 4.2, 4.3) they equal the values given there.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cfg/config.h"
#include "sim/base/diag.h"
#include "sim/gpu/gpu_cfg.h"
#include "sim/cfg/sim_cfg.h"
#include "tap.h"

/* Sections a preset does not have to set. */
static bool optional_section(const char *name)
{
    return strcmp(name, "sync") == 0 || strcmp(name, "synth") == 0;
}

/* Spec values for the named presets. */
struct expect {
    const char *name;
    uint64_t n_sm, n_partitions, sub_per_partition;
    ps_t core_ps, icnt_ps, l2_ps, dram_ps; /* clock periods (ps) */
    ps_t lookahead_ps;                     /* icnt.min_latency x icnt period (ps) */
};

static const struct expect expected[] = {
    /* 700/700/700/924 MHz -> 1429/1429/1429/1082 ps; L = 8 x 1429 = 11432 ps */
    {"gtx480", 15, 6, 2, 1429, 1429, 1429, 1082, 11432},
    {"fermi16", 16, 6, 2, 1429, 1429, 1429, 1082, 11432},
    {"fermi24", 24, 8, 2, 1429, 1429, 1429, 1082, 11432},
};

static const struct expect *expected_for(const char *name)
{
    for (size_t i = 0; i < ARRAY_LEN(expected); i++)
        if (strcmp(expected[i].name, name) == 0)
            return &expected[i];
    return NULL;
}

static bool listed(char **list, const char *name)
{
    for (char **p = list; p && *p; p++)
        if (strcmp(*p, name) == 0)
            return true;
    return false;
}

/* The first line of the preset file is "# <name>..." */
static void check_header(const char *name)
{
    char path[4096], line[512] = "", want[128];
    bool found = cfg_find_preset(name, path, sizeof path);
    FILE *f = found ? fopen(path, "r") : NULL;
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
    }
    snprintf(want, sizeof want, "# %s", name);
    TAP_OK(strncmp(line, want, strlen(want)) == 0, "%s: file starts with a header comment '%s'",
           name, want);
}

static void check_preset(const char *name)
{
    struct cfg c;
    struct diag d;
    cfg_init(&c);
    diag_init(&d);
    int n = cfg_load(&c, name, &d);
    TAP_EQ_I64(n, 0, "%s: loads with no errors", name);
    n = cfg_finish(&c, &d);
    TAP_EQ_I64(n, 0, "%s: cfg_finish reports no errors", name);
    for (size_t i = 0; i < d.n; i++)
        tap_diag("%s", d.msgs[i]);

    /* completeness */
    int missing = 0, checked = 0;
    for (unsigned s = 0; s < cfg_n_sections; s++) {
        const struct cfg_section *sec = cfg_sections[s];
        if (optional_section(sec->name))
            continue;
        for (size_t k = 0; k < sec->n_keys; k++) {
            char full[256];
            snprintf(full, sizeof full, "%s.%s", sec->name, sec->keys[k].name);
            const char *origin = cfg_value_origin(&c, full);
            checked++;
            if (!origin || strcmp(origin, "default") == 0) {
                missing++;
                tap_diag("%s: key '%s' is not set in the preset (origin %s)", name, full,
                         origin ? origin : "none");
            }
        }
    }
    TAP_OK(checked > 0 && missing == 0, "%s: sets all %d hardware keys explicitly (%d missing)",
           name, checked, missing);
    check_header(name);

    /* derived values */
    struct clock_periods per;
    clock_periods_compute(&c.values->clock, &per);
    ps_t lookahead = c.values->icnt.min_latency * per.icnt;
    TAP_OK(per.core && per.icnt && per.l2 && per.dram, "%s: all clock periods positive", name);
    TAP_OK(lookahead > 0, "%s: lookahead L = %llu ps is positive", name,
           (unsigned long long)lookahead);

    const struct expect *e = expected_for(name);
    if (e) {
        TAP_EQ_U64(c.values->gpu.n_sm, e->n_sm, "%s: gpu.n_sm", name);
        TAP_EQ_U64(c.values->mem.n_partitions, e->n_partitions, "%s: mem.n_partitions", name);
        TAP_EQ_U64(c.values->mem.sub_per_partition, e->sub_per_partition,
                   "%s: mem.sub_per_partition", name);
        TAP_EQ_U64(per.core, e->core_ps, "%s: core period (ps)", name);
        TAP_EQ_U64(per.icnt, e->icnt_ps, "%s: icnt period (ps)", name);
        TAP_EQ_U64(per.l2, e->l2_ps, "%s: l2 period (ps)", name);
        TAP_EQ_U64(per.dram, e->dram_ps, "%s: dram period (ps)", name);
        TAP_EQ_U64(lookahead, e->lookahead_ps, "%s: lookahead L (ps)", name);
    }
    cfg_fini(&c);
    diag_fini(&d);
}

/* Spec 3.1: with icnt at 1400 MHz = 2 x core 700 MHz, the faster period is
 * rounded first (714 ps) and the slower ones are exactly twice it (1428 ps). */
static void check_aligned_clocks(void)
{
    struct cfg c;
    struct diag d;
    cfg_init(&c);
    diag_init(&d);
    TAP_EQ_I64(cfg_load(&c, "gtx480", &d), 0, "gtx480 loads for the 1400 MHz icnt case");
    TAP_EQ_I64(cfg_set(&c, "clock.icnt=1400MHz", "-o", &d), 0, "icnt set to 1400 MHz");
    struct clock_periods per;
    clock_periods_compute(&c.values->clock, &per);
    TAP_EQ_U64(per.icnt, 714, "icnt 1400 MHz -> 714 ps");
    TAP_EQ_U64(per.core, 1428, "core 700 MHz aligned to 2 x 714 = 1428 ps");
    TAP_EQ_U64(per.l2, 1428, "l2 700 MHz aligned too");
    TAP_EQ_U64(per.dram, 1082, "dram 924 MHz is no multiple: 1082 ps");
    TAP_EQ_U64(c.values->icnt.min_latency * per.icnt, 5712, "lookahead 8 x 714 ps");
    cfg_fini(&c);
    diag_fini(&d);
}

int main(void)
{
    tap_no_plan();
    if (!getenv("GPUSIM_CONFIG_DIR"))
        setenv("GPUSIM_CONFIG_DIR", GPUSIM_SOURCE_DIR "/configs", 1);
    tap_diag("presets from %s", getenv("GPUSIM_CONFIG_DIR"));

    char **list = cfg_list_presets();
    int n = 0;
    for (char **p = list; *p; p++)
        n++;
    TAP_OK(n > 0, "found %d presets", n);
    for (size_t i = 0; i < ARRAY_LEN(expected); i++)
        TAP_OK(listed(list, expected[i].name), "preset '%s' exists", expected[i].name);
    for (char **p = list; *p; p++)
        check_preset(*p);
    cfg_free_list(list);

    check_aligned_clocks();
    return tap_exit();
}
