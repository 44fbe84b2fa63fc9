/* partitions/dram/dram_cfg.c: the dram.* configuration keys (owned by
 * partitions/dram/dram.c), with gtx480 defaults from spec baseline-gpu.md §3.3 and
 * §4.2 (Hynix H5GQ1H24AFR GDDR5 timing, = [GPGPU-Sim] GTX480), and the
 * separate read/write queue option of dram-intercore-locality.md §2.2.
 *
 * NOTE(timing-keys): the spec's single `dram.timing` knob is split into one
 * key per parameter (dram.tRCD ...), so a preset can change one value and
 * `config --list` documents each. Derived values (tRCDWR, tRTW, tWTR, tWTP,
 * RD->PRE) are computed in dram.c, never configured.
 *
 * dram.addr_map (the address-map string, partitions/addrmap/addrmap.h) is declared
 * here because it describes the channel's geometry; the section check builds
 * the map against dram.banks, dram.rows, dram.bus_bytes x dram.burst,
 * mem.n_partitions, mem.sub_per_partition and the L2 set count, and reports
 * every violation (docs/addrmap.md lists the rules).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "partitions/addrmap/addrmap.h"
#include "partitions/dram/dram.h"
#include "partitions/mempart/mempart.h"
#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"

static const char *const dram_sched_choices[] = {"frfcfs", "fcfs", "mshr_m", "mshr_s", "mshr_sa", NULL};
static const char *const dram_model_choices[] = {"normal", "perfect", NULL};
static const char *const dram_icl_age_choices[] = {"delta", "total", NULL};
static const char *const dram_bg_index_choices[] = {"high", "low", NULL};

#define T(key, def, doc)                                                                           \
    {#key, CFG_UINT, offsetof(struct dram_cfg, key), 0, 1000, def, NULL, doc " (DRAM cycles)"}

const struct cfg_key dram_cfg_keys[] = {
    {"queue", CFG_UINT, offsetof(struct dram_cfg, queue), 1, 4096, "16", NULL,
     "scheduler (FR-FCFS) queue entries, unified reads and writes ([GPGPU-Sim] 16)"},
    {"return_queue", CFG_UINT, offsetof(struct dram_cfg, return_queue), 1, 4096, "116", NULL,
     "completed reads waiting for the DRAM->L2 path (entries, [GPGPU-Sim] 116)"},
    {"separate_rw", CFG_BOOL, offsetof(struct dram_cfg, separate_rw), 0, 0, "false", NULL,
     "separate read and write queues with write-drain watermarks (003) instead of dram.queue"},
    {"rdq", CFG_UINT, offsetof(struct dram_cfg, rdq), 1, 4096, "64", NULL,
     "read queue entries when separate_rw (003: 64)"},
    {"wrq", CFG_UINT, offsetof(struct dram_cfg, wrq), 1, 4096, "128", NULL,
     "write queue entries when separate_rw (003: 128)"},
    {"wm_hi", CFG_UINT, offsetof(struct dram_cfg, wm_hi), 1, 4096, "96", NULL,
     "separate_rw: enter write drain when the write queue holds this many (003: 96)"},
    {"wm_lo", CFG_UINT, offsetof(struct dram_cfg, wm_lo), 0, 4096, "80", NULL,
     "separate_rw: leave write drain at or below this many writes if reads wait (003: 80)"},
    {"banks", CFG_UINT, offsetof(struct dram_cfg, banks), 1, 256, "16", NULL,
     "banks per channel (003 = [GPGPU-Sim] 16)"},
    {"bank_groups", CFG_UINT, offsetof(struct dram_cfg, bank_groups), 1, 256, "4", NULL,
     "bank groups per channel; group of bank b = b div (banks / bank_groups), or b mod bank_groups (below)"},
    {"bank_group_index", CFG_ENUM, offsetof(struct dram_cfg, bank_group_index), 0, 0, "high", dram_bg_index_choices,
     "which bank bits name the group: high (b div banks per group; GPGPU-Sim 3.x) or low (b mod bank_groups; "
     "GPGPU-Sim 4.x -dram_bnkgrp_indexing_policy 1)"},
    {"rows", CFG_UINT, offsetof(struct dram_cfg, rows), 1, 1048576, "4096", NULL,
     "rows per bank (003: 4096)"},
    T(tRCD, "12", "ACT to RD in one bank"),
    T(tRAS, "28", "ACT to PRE in one bank"),
    T(tRP, "12", "PRE to ACT in one bank"),
    T(tRC, "40", "ACT to ACT in one bank"),
    T(tCCDS, "2", "column to column command, any banks of the channel"),
    T(tCCDL, "3", "column to column command in one bank group"),
    T(tRRD, "6", "ACT to ACT, any banks of the channel"),
    T(tCL, "12", "RD to its read data"),
    T(tWL, "4", "WR to its write data"),
    T(tCDLR, "5", "end of write data to RD"),
    T(tWR, "12", "end of write data to PRE"),
    T(tRTPL, "2", "RD to PRE in one bank group"),
    {"bus_bytes", CFG_UINT, offsetof(struct dram_cfg, bus_bytes), 1, 256, "8", NULL,
     "channel data width per beat (bytes; two x32 GDDR5 chips = 8)"},
    {"burst", CFG_UINT, offsetof(struct dram_cfg, burst), 1, 64, "8", NULL,
     "burst length in beats per column command (BL8)"},
    {"data_cmd_ratio", CFG_UINT, offsetof(struct dram_cfg, data_cmd_ratio), 1, 16, "4", NULL,
     "data beats per command cycle (GDDR5 QDR = 4)"},
    {"sched", CFG_ENUM, offsetof(struct dram_cfg, sched), 0, 0, "frfcfs", dram_sched_choices,
     "request scheduler: frfcfs (row hits first, per bank), fcfs (strict arrival order), mshr_m / mshr_s "
     "(003: largest L2 MSHR merge count first; row score max / sum), mshr_sa (summed request ages; docs/dram.md)"},
    {"model", CFG_ENUM, offsetof(struct dram_cfg, model), 0, 0, "normal", dram_model_choices,
     "normal (GDDR5 timing) or perfect (zero DRAM latency, 003's classification)"},
    /* NOTE(icl-keys): the spec's icl.exact_hw, icl.dummy_after_original and
     * icl.age_mode (dram-intercore-locality.md §4) are dram.icl_* keys: they
     * only act with an MSHR policy in dram.sched. The link latency is the
     * existing l2_to_dram.latency; the field widths (icl.merge_bits 4,
     * icl.age_bits 15) and the MIB sizes (= read queue) are fixed. */
    {"icl_exact_hw", CFG_BOOL, offsetof(struct dram_cfg, icl_exact_hw), 0, 0, "true", NULL,
     "MSHR policies: schedule from the DRAM-side merge buffer fed by dummy messages over the L2->DRAM link "
     "(15-bit ages, stale counts; 003's hardware) instead of the live L2 MSHR (false = oracle)"},
    {"icl_dummy_after_original", CFG_BOOL, offsetof(struct dram_cfg, icl_dummy_after_original), 0, 0, "true",
     NULL, "exact hw: a dummy is sent only after its line's original miss left the L2 (false: it may overtake "
     "it and is then dropped as late)"},
    {"icl_age_mode", CFG_ENUM, offsetof(struct dram_cfg, icl_age_mode), 0, 0, "delta", dram_icl_age_choices,
     "exact hw, mshr_sa: a dummy carries the ages of the requests merged since the last one, added at the "
     "controller (delta), or the entry's whole age sum, which replaces the controller's (total)"},
    {"addr_map", CFG_STRING, offsetof(struct dram_cfg, addr_map), 1, 0, ADDRMAP_GTX480, NULL,
     "address map, GPGPU-Sim syntax: [dramid@N;] then one letter per bit, high to low: D channel, "
     "B bank, R row, C column, S burst, 0 unused (docs/addrmap.md)"},
};
#undef T

const size_t dram_cfg_n_keys = ARRAY_LEN(dram_cfg_keys);

void dram_cfg_defaults(struct dram_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->queue = 16;
    c->return_queue = 116;
    c->separate_rw = false;
    c->rdq = 64;
    c->wrq = 128;
    c->wm_hi = 96;
    c->wm_lo = 80;
    c->banks = 16;
    c->bank_groups = 4;
    c->bank_group_index = DRAM_BG_HIGH;
    c->rows = 4096;
    c->tRCD = 12;
    c->tRAS = 28;
    c->tRP = 12;
    c->tRC = 40;
    c->tCCDS = 2;
    c->tCCDL = 3;
    c->tRRD = 6;
    c->tCL = 12;
    c->tWL = 4;
    c->tCDLR = 5;
    c->tWR = 12;
    c->tRTPL = 2;
    c->bus_bytes = 8;
    c->burst = 8;
    c->data_cmd_ratio = 4;
    c->sched = DRAM_SCHED_FRFCFS;
    c->model = DRAM_MODEL_NORMAL;
    c->icl_exact_hw = true;
    c->icl_dummy_after_original = true;
    c->icl_age_mode = DRAM_ICL_AGE_DELTA;
}

int dram_cfg_validate(const struct dram_cfg *c, dram_cfg_report_fn report, void *ctx)
{
    int n = 0;
    char msg[256];
#define RULE(ok, key, ...)                                                                         \
    do {                                                                                           \
        if (!(ok)) {                                                                               \
            n++;                                                                                   \
            if (report) {                                                                          \
                snprintf(msg, sizeof msg, __VA_ARGS__);                                            \
                report(ctx, key, msg);                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)
    uint64_t ratio = c->data_cmd_ratio ? c->data_cmd_ratio : 1;
    RULE(c->banks >= 1 && c->bank_groups >= 1 && c->banks % c->bank_groups == 0, "dram.bank_groups",
         "%llu does not divide dram.banks %llu (rule: banks %% bank_groups == 0)",
         (unsigned long long)c->bank_groups, (unsigned long long)c->banks);
    RULE(c->burst % ratio == 0 && c->burst >= ratio, "dram.burst",
         "%llu is not a positive multiple of dram.data_cmd_ratio %llu "
         "(rule: a burst occupies whole command cycles)",
         (unsigned long long)c->burst, (unsigned long long)c->data_cmd_ratio);
    RULE(c->tRCD >= c->tWL + 1, "dram.tRCD",
         "%llu < dram.tWL + 1 = %llu (rule: ACT->WR = tRCD - (tWL + 1) must be >= 0)",
         (unsigned long long)c->tRCD, (unsigned long long)(c->tWL + 1));
    RULE(c->tCL + c->burst / ratio + 2 >= c->tWL, "dram.tWL",
         "%llu too large for dram.tCL %llu (rule: tRTW = tCL + BL/ratio + 2 - tWL must be >= 0)",
         (unsigned long long)c->tWL, (unsigned long long)c->tCL);
    RULE(c->tRC >= c->tRAS, "dram.tRC", "%llu < dram.tRAS %llu (rule: tRC >= tRAS)",
         (unsigned long long)c->tRC, (unsigned long long)c->tRAS);
    RULE(c->rows >= 1 && c->rows <= 0xFFFFFFFEull, "dram.rows", "%llu out of range",
         (unsigned long long)c->rows);
    RULE(c->queue >= 1 && c->return_queue >= 1, "dram.queue",
         "queue %llu / return_queue %llu must be >= 1", (unsigned long long)c->queue,
         (unsigned long long)c->return_queue);
    if (c->separate_rw) {
        RULE(c->wm_lo < c->wm_hi && c->wm_hi <= c->wrq, "dram.wm_hi",
             "watermarks wm_lo %llu / wm_hi %llu invalid for dram.wrq %llu "
             "(rule: wm_lo < wm_hi <= wrq)",
             (unsigned long long)c->wm_lo, (unsigned long long)c->wm_hi, (unsigned long long)c->wrq);
    }
#undef RULE
    return n;
}

static void dram_check_report(void *ctx, const char *key, const char *msg)
{
    cfg_check_fail(ctx, key, "%s", msg);
}

struct dram_map_report {
    struct cfg_checker *ck; /* where errors go */
    bool map_default;       /* dram.addr_map was not set explicitly */
};

/* A map violation is reported at dram.addr_map, unless the string is the
 * default and another key (dram.banks, mem.n_partitions, ...) is involved:
 * then at that key, whose file:line is the one the user wrote. */
static void dram_map_report(void *ctx, const char *key, const char *msg)
{
    struct dram_map_report *r = ctx;
    const char *at = key && r->map_default ? key : "dram.addr_map";
    cfg_check_fail(r->ck, at, "address map: %s", msg);
}

/* The geometry dram.addr_map is checked against. */
static void dram_map_geom(const struct dram_cfg *c, const struct sim_cfg *all, struct addrmap_geom *g)
{
    memset(g, 0, sizeof *g);
    g->n_ch = (uint32_t)all->mem.n_partitions;
    g->n_sub_per_ch = (uint32_t)all->mem.sub_per_partition;
    g->banks = (uint32_t)c->banks;
    g->rows = (uint32_t)c->rows;
    g->burst_bytes = (uint32_t)(c->bus_bytes * c->burst);
    uint64_t way = all->l2.assoc * all->l2.line;
    uint64_t sets = way ? all->l2.size_per_sub / way : 0;
    /* a bad L2 geometry is the l2 section's error, not the map's */
    g->l2_sets = way && all->l2.size_per_sub % way == 0 && is_pow2_u64(sets) && sets <= (1u << 24) ? (uint32_t)sets : 0;
}

static void dram_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    const struct dram_cfg *c = sec;
    dram_cfg_validate(c, dram_check_report, ck);
    /* The memory partition (partitions/mempart/mempart.h) has exactly MEMPART_SUBS
     * L2 slices per channel; the address map itself takes any power of two. */
    if (all->mem.sub_per_partition != MEMPART_SUBS)
        cfg_check_fail(ck, "mem.sub_per_partition",
                       "the memory partition model has exactly %u L2 sub-partitions per channel", MEMPART_SUBS);
    struct addrmap_geom g;
    dram_map_geom(c, all, &g);
    const char *origin = cfg_value_origin(ck->cfg, "dram.addr_map");
    struct dram_map_report r = {ck, !origin || strcmp(origin, "default") == 0};
    struct addrmap m;
    addrmap_build(&m, c->addr_map, &g, dram_map_report, &r);
}

const struct cfg_section dram_cfg_section = {"dram", "DRAM controller and GDDR5 channel",
                                             offsetof(struct sim_cfg, dram), dram_cfg_keys,
                                             ARRAY_LEN(dram_cfg_keys), dram_check};
