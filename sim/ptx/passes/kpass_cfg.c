/* sim/ptx/passes/kpass_cfg.c: configuration section "ptx" (struct kpass_cfg,
 * sim/ptx/passes/kpass.h): which kernel-time passes run at launch, and profile
 * recording and loading (docs/passes.md).
 *
 * NOTE(profile-paths-as-keys): the profile files are configuration keys so
 * that every front end (CLI flags --profile-out/--profile-in, the API, a
 * .cfg file) reaches them the same way and the statistics JSON records
 * which profile a run used.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/ptx/passes/kpass.h"
#include "sim/cfg/sim_cfg.h"

const char *kpass_cfg_path(const char *value)
{
    return value && value[0] && strcmp(value, "none") ? value : NULL;
}

static const struct cfg_key ptx_cfg_keys[] = {
    {"passes", CFG_STRING, offsetof(struct kpass_cfg, passes), 1, 0, "none", NULL,
     "kernel-time passes run at a kernel's first launch, comma-separated, in order (regstats, renumber_hot); none"},
    {"profile_out", CFG_STRING, offsetof(struct kpass_cfg, profile_out), 1, 0, "none", NULL,
     "record a profile of every launch (functional mode) and rewrite this file after each; none = off"},
    {"profile_in", CFG_STRING, offsetof(struct kpass_cfg, profile_in), 1, 0, "none", NULL,
     "profile file (from profile_out) loaded at start; its records reach the passes; none = no profile"},
    {"profile_page", CFG_SIZE, offsetof(struct kpass_cfg, profile_page), 64, 1ull << 30, "4K", NULL,
     "page size of profiles (pages touched per CTA and page sharing); power of two"},
    {"profile_line", CFG_SIZE, offsetof(struct kpass_cfg, profile_line), 4, 1ull << 20, "128", NULL,
     "line size of profiles (distinct lines per CTA and warp); power of two"},
};

static void ptx_cfg_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    const struct kpass_cfg *c = sec;
    const struct kpass *list[KPASS_MAX_LIST];
    size_t n;
    char why[512];
    if (!kpass_parse_list(c->passes, list, &n, why, sizeof why))
        cfg_check_fail(ck, "ptx.passes", "%s", why);
    if (!is_pow2_u64(c->profile_page))
        cfg_check_fail(ck, "ptx.profile_page", "must be a power of two");
    if (!is_pow2_u64(c->profile_line))
        cfg_check_fail(ck, "ptx.profile_line", "must be a power of two");
    if (kpass_cfg_path(c->profile_out) && all->sim.mode != SIM_MODE_FUNCTIONAL)
        cfg_check_fail(ck, "ptx.profile_out",
                       "profiles are recorded by a functional run: set sim.mode = functional for the profiling "
                       "run and give the file to the timing run as ptx.profile_in");
}

const struct cfg_section ptx_cfg_section = {"ptx", "kernel-time passes and profiles (docs/passes.md)",
                                            offsetof(struct sim_cfg, ptx), ptx_cfg_keys, ARRAY_LEN(ptx_cfg_keys),
                                            ptx_cfg_check};
