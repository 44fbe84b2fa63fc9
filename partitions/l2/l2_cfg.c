/* partitions/l2/l2_cfg.c: key table of the l2.* section (spec baseline-gpu.md
 * 4.2; defaults are the gtx480 values), cross-field rules, and the ROP delay
 * conversion. See l2.h and docs/l2.md. */
#include <stddef.h>
#include <stdio.h>

#include "partitions/l2/l2.h"
#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"


static const char *const l2_write_miss_names[] = {"fetch", "byte_mask", "fetch_write", NULL};

static const struct cfg_key l2_keys[] = {
    {"size_per_sub", CFG_SIZE, offsetof(struct l2_cfg, size_per_sub), 1024, 67108864, "64KB", NULL,
     "L2 capacity of one sub-partition slice (bytes); gtx480: 12 x 64 KB = 768 KB"},
    {"assoc", CFG_UINT, offsetof(struct l2_cfg, assoc), 1, 64, "8", NULL, "L2 ways per set"},
    {"line", CFG_SIZE, offsetof(struct l2_cfg, line), 128, 128, "128", NULL,
     "L2 line size (bytes); DRAM traffic is whole 128 B lines, so only 128 is supported"},
    {"mshr", CFG_UINT, offsetof(struct l2_cfg, mshr), 1, 1024, "32", NULL, "L2 MSHR entries per slice"},
    {"mshr_merge", CFG_UINT, offsetof(struct l2_cfg, mshr_merge), 1, 64, "4", NULL,
     "requests one L2 MSHR entry holds, the first miss included"},
    {"miss_queue", CFG_UINT, offsetof(struct l2_cfg, miss_queue), 2, 1024, "4", NULL,
     "L2 miss-queue entries (a new miss needs 2 free: the line read and a possible write-back)"},
    {"rop_latency", CFG_UINT, offsetof(struct l2_cfg, rop_latency), 0, 100000, "120", NULL,
     "ROP input delay in pipeline cycles (GPGPU-Sim: 120 cycles of the 700 MHz warp clock)"},
    {"queue", CFG_UINT, offsetof(struct l2_cfg, queue), 1, 1024, "8", NULL,
     "entries of each sub-partition FIFO: icnt->L2, L2->DRAM, DRAM->L2, L2->icnt (GPGPU-Sim 8:8:8:8)"},
    {"data_port", CFG_SIZE, offsetof(struct l2_cfg, data_port), 1, 128, "32", NULL,
     "bytes per L2 cycle of the data port and of the fill port"},
    {"write_miss", CFG_ENUM, offsetof(struct l2_cfg, write_miss), 0, 0, "fetch_write", l2_write_miss_names,
     "fetch_write: write-allocate, send the write on to DRAM and fetch the line (GPGPU-Sim 3.2.2); "
     "fetch: fetch only, the write stays in L2; byte_mask: allocate without fetching, per-byte valid mask"},
    {"repl", CFG_ENUM, offsetof(struct l2_cfg, repl), 0, 0, "lru", ta_repl_names,
     "L2 replacement policy: lru (true LRU), fifo, srrip (2-bit RRIP, hit promotion); docs/cache.md"},
    {"victim_tags", CFG_UINT, offsetof(struct l2_cfg, victim_tags), 0, 65536, "0", NULL,
     "victim-tag entries per slice recording replaced lines, counting misses that would have hit (0 = off)"},
    {"victim_tags_assoc", CFG_UINT, offsetof(struct l2_cfg, victim_tags_assoc), 0, 65536, "0", NULL,
     "ways per victim-tag set, FIFO within a set (0 = one fully associative FIFO)"},
    {"sector_fetch", CFG_BOOL, offsetof(struct l2_cfg, sector_fetch), 0, 0, "false", NULL,
     "true: a line read costs DRAM one full column access (dram.bus_bytes x dram.burst) per 32 B sector its "
     "requests touch, as GPGPU-Sim 4.x's sectored L2 with a 64 B DRAM atom (the L2 stays line-granular; "
     "docs/l2.md)"},
    {"sector_replies", CFG_BOOL, offsetof(struct l2_cfg, sector_replies), 0, 0, "false", NULL,
     "true: a read reply covering several 32 B sectors leaves as one packet per sector, one per L2 cycle, "
     "and the SM reassembles them, as GPGPU-Sim 4.x's sectored L2 (NOTE(sector-replies), docs/l2.md)"},
    {"locality_stats", CFG_BOOL, offsetof(struct l2_cfg, locality_stats), 0, 0, "false", NULL,
     "split L2 hits into intra-core (the line's last accessor was the same SM) and inter-core "
     "(simulation-only shadow map per slice; docs/vws.md)"},
};

/* Cross-field rules shared by the config check and l2_init; NULL when fine. */
static const char *l2_cfg_problem(const struct l2_cfg *c, const char **key)
{
    uint64_t way_bytes = c->assoc * c->line;
    *key = "l2.size_per_sub";
    if (way_bytes == 0 || c->size_per_sub % way_bytes != 0)
        return "must be a multiple of l2.assoc x l2.line";
    if (c->size_per_sub / way_bytes == 0)
        return "must hold at least one set of l2.assoc lines";
    *key = "l2.line";
    if (c->line != MEM_LINE_BYTES)
        return "must be 128 (whole-line DRAM transfers and 128-byte request payloads)";
    *key = "l2.miss_queue";
    if (c->write_miss == L2_WRITE_MISS_FETCH_WRITE && c->miss_queue < 3)
        return "must be at least 3 with l2.write_miss = fetch_write (a write miss queues the write, the line "
               "read and a possible write-back)";
    *key = "l2.victim_tags_assoc";
    if (c->victim_tags && c->victim_tags_assoc && c->victim_tags % c->victim_tags_assoc != 0)
        return "must divide l2.victim_tags (or be 0 for fully associative)";
    return NULL;
}

static void l2_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    const struct l2_cfg *c = sec;
    const char *key;
    (void)all;
    const char *why = l2_cfg_problem(c, &key);
    if (why)
        cfg_check_fail(ck, key, "%s (l2.size_per_sub %llu, l2.assoc %llu, l2.line %llu, l2.victim_tags %llu, "
                       "l2.victim_tags_assoc %llu)", why, (unsigned long long)c->size_per_sub,
                       (unsigned long long)c->assoc, (unsigned long long)c->line,
                       (unsigned long long)c->victim_tags, (unsigned long long)c->victim_tags_assoc);
}

const struct cfg_section l2_cfg_section = {"l2", "L2 slice of a memory sub-partition", offsetof(struct sim_cfg, l2), l2_keys,
                                           ARRAY_LEN(l2_keys), l2_check};

void l2_cfg_defaults(struct l2_cfg *c)
{
    for (size_t i = 0; i < ARRAY_LEN(l2_keys); i++) {
        char why[256];
        bool ok = cfg_parse_value(&l2_keys[i], l2_keys[i].def, (char *)c + l2_keys[i].offset, why, sizeof why);
        SIM_ASSERT(ok, "l2.%s default '%s': %s", l2_keys[i].name, l2_keys[i].def, why);
    }
    const char *key;
    const char *why = l2_cfg_problem(c, &key);
    SIM_ASSERT(!why, "l2 defaults: %s %s", key, why);
}

uint64_t l2_rop_cycles(const struct l2_cfg *c, ps_t pipe_period_ps, ps_t l2_period_ps)
{
    SIM_ASSERT(l2_period_ps > 0, "l2: zero L2 clock period");
    return (c->rop_latency * pipe_period_ps + l2_period_ps / 2) / l2_period_ps;
}

const char *l2_cfg_invalid(const struct l2_cfg *c, const char **key) { return l2_cfg_problem(c, key); }
