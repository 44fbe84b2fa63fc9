/* sim/sm/lsu/l1_cfg.c: key tables of the l1d.*, l1c.* and l1i.* sections (spec
 * baseline-gpu.md 1.2 and 4.2; defaults are the gtx480 values), their
 * cross-field rules and default helpers. See l1d.h, l1ro.h, docs/l1.md.
 */
#include <stddef.h>
#include <string.h>

#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/sm/lsu/l1d.h"
#include "sim/sm/lsu/l1ro.h"

/* ------------------------------------------------------------- l1d */

static const char *const l1d_wp_names[] = {"global_we_local_wb", "global_wt_alloc_local_wb", NULL};
static const char *const l1d_alloc_names[] = {"on_miss", "on_fill", NULL};
static const char *const l1d_set_names[] = {"fermi", "linear", NULL};

static const struct cfg_key l1d_keys[] = {
    {"size", CFG_SIZE, offsetof(struct l1d_cfg, size), 512, 1048576, "16KB", NULL,
     "L1D capacity (bytes); gtx480 16 KB = 32 sets x 4 ways x 128 B (GPGPU-Sim dl1 32:128:4); 32/48 KB give 64 sets"},
    {"assoc", CFG_UINT, offsetof(struct l1d_cfg, assoc), 1, 64, "4", NULL, "L1D ways per set"},
    {"line", CFG_SIZE, offsetof(struct l1d_cfg, line), 128, 128, "128", NULL,
     "L1D line (bytes); fills are whole 128 B L2 lines, so only 128 is supported"},
    {"mshr", CFG_UINT, offsetof(struct l1d_cfg, mshr), 1, 1024, "32", NULL, "L1D MSHR entries (GPGPU-Sim A:32:8)"},
    {"mshr_merge", CFG_UINT, offsetof(struct l1d_cfg, mshr_merge), 1, 64, "8", NULL,
     "loads one L1D MSHR entry holds, the first miss included (GPGPU-Sim A:32:8)"},
    {"miss_queue", CFG_UINT, offsetof(struct l1d_cfg, miss_queue), 3, 1024, "8", NULL,
     "L1D miss-queue entries toward L2 (GPGPU-Sim dl1 miss queue 8; a new read miss needs 2 free)"},
    {"hit_latency", CFG_UINT, offsetof(struct l1d_cfg, hit_latency), 1, 1000, "1", NULL,
     "core cycles from the L1D access to a hit's completion (spec 3.3 proposal: 1)"},
    {"access_latency", CFG_UINT, offsetof(struct l1d_cfg, access_latency), 0, 1000, "0", NULL,
     "core cycles an L1D access waits in an in-order queue of as many entries between the LD/ST stage and the "
     "tag check, hits, misses and stores alike (GPGPU-Sim 4.x -gpgpu_l1_latency L is L - 1 here; 0 = 3.x)"},
    {"resp_fifo", CFG_UINT, offsetof(struct l1d_cfg, resp_fifo), 1, 1024, "2", NULL,
     "reply packets buffered between the ejection port and the L1D (GPGPU-Sim LD/ST response FIFO 2)"},
    {"write_policy", CFG_ENUM, offsetof(struct l1d_cfg, write_policy), 0, 0, "global_we_local_wb", l1d_wp_names,
     "global_we_local_wb: global write-evict no-allocate, local write-back; global_wt_alloc_local_wb: "
     "global write-through with write-allocate (001)"},
    {"alloc", CFG_ENUM, offsetof(struct l1d_cfg, alloc), 0, 0, "on_miss", l1d_alloc_names,
     "on_miss: reserve the victim line at the miss (GPGPU-Sim 3.x); on_fill: choose it at fill (001)"},
    {"set_index", CFG_ENUM, offsetof(struct l1d_cfg, set_index), 0, 0, "fermi", l1d_set_names,
     "fermi: GPGPU-Sim Fermi hash (32 or 64 sets, spec 1.2); linear: (addr / line) mod sets"},
    {"enable", CFG_BOOL, offsetof(struct l1d_cfg, enable), 0, 0, "true", NULL,
     "false: no L1D: every global and local access goes to L2 (no tag check, no MSHR; the coherence "
     "papers' normalisation, docs/memmodel.md)"},
    {"repl", CFG_ENUM, offsetof(struct l1d_cfg, repl), 0, 0, "lru", ta_repl_names,
     "L1D replacement policy: lru (true LRU), fifo, srrip (2-bit RRIP); docs/cache.md"},
    {"victim_tags", CFG_UINT, offsetof(struct l1d_cfg, victim_tags), 0, 65536, "0", NULL,
     "L1D victim-tag entries recording replaced lines, counting misses that would have hit (0 = off)"},
    {"victim_tags_assoc", CFG_UINT, offsetof(struct l1d_cfg, victim_tags_assoc), 0, 65536, "0", NULL,
     "L1D ways per victim-tag set, FIFO within a set (0 = one fully associative FIFO)"},
    {"perfect", CFG_BOOL, offsetof(struct l1d_cfg, perfect), 0, 0, "false", NULL,
     "true: contention-free L1D (ideal point, 002): no capacity, conflict or store-evict misses, only first "
     "touches miss; values stay exact (docs/knobs.md)"},
    {"locality_stats", CFG_BOOL, offsetof(struct l1d_cfg, locality_stats), 0, 0, "false", NULL,
     "classify every L1D load (hit, miss) by the last accessor of its line in this SM since kernel launch: "
     "intra-warp, intra-CTA, inter-CTA, cold (simulation-only shadow map; docs/vws.md)"},
};

const struct cfg_key *const l1d_cfg_keys = l1d_keys;
const unsigned l1d_cfg_n_keys = ARRAY_LEN(l1d_keys);

const char *l1d_cfg_invalid(const struct l1d_cfg *c, const char **key)
{
    uint64_t way_bytes = c->assoc * c->line;
    *key = "l1d.line";
    if (c->line != MEM_LINE_BYTES)
        return "must be 128 (an L1D fill is one 128 B L2 line)";
    *key = "l1d.size";
    if (way_bytes == 0 || c->size % way_bytes != 0 || c->size / way_bytes == 0)
        return "must be a non-zero multiple of l1d.assoc x l1d.line";
    uint64_t sets = c->size / way_bytes;
    *key = "l1d.set_index";
    if (c->set_index == L1D_SET_FERMI && sets != 32 && sets != 64)
        return "fermi needs 32 or 64 sets (l1d.size / (l1d.assoc x l1d.line)); use linear otherwise";
    *key = "l1d.miss_queue";
    if (c->miss_queue < 3)
        return "must be at least 3 (a write-through write miss queues a write and a read miss)";
    *key = "l1d.victim_tags_assoc";
    if (c->victim_tags && c->victim_tags_assoc && c->victim_tags % c->victim_tags_assoc != 0)
        return "must divide l1d.victim_tags (or be 0 for fully associative)";
    *key = "l1d.perfect";
    if (c->perfect && !c->enable)
        return "needs l1d.enable = true (a perfect L1D that every access bypasses idealises nothing)";
    return NULL;
}

static void cfg_fill_defaults(const struct cfg_key *keys, size_t n, void *c, const char *sec)
{
    for (size_t i = 0; i < n; i++) {
        char why[256];
        bool ok = cfg_parse_value(&keys[i], keys[i].def, (char *)c + keys[i].offset, why, sizeof why);
        SIM_ASSERT(ok, "%s.%s default '%s': %s", sec, keys[i].name, keys[i].def, why);
    }
}

void l1d_cfg_defaults(struct l1d_cfg *c)
{
    /* Every field defined: the fields no l1d key sets (coh, period_ps) are
     * the GPU model's to copy in; a unit test that uses the defaults alone
     * gets a non-coherent L1D and no clock (TC is off). */
    memset(c, 0, sizeof *c);
    coh_cfg_defaults(&c->coh);
    cfg_fill_defaults(l1d_keys, ARRAY_LEN(l1d_keys), c, "l1d");
    const char *key;
    const char *why = l1d_cfg_invalid(c, &key);
    SIM_ASSERT(!why, "l1d defaults: %s %s", key, why);
}

/* ------------------------------------------------------------- l1c, l1i */

#define L1RO_KEYS(SEC, SIZE, SIZE_DOC, ASSOC, LINE)                                                               \
    {"size", CFG_SIZE, offsetof(struct l1ro_cfg, size), 64, 1048576, SIZE, NULL, SIZE_DOC},                     \
        {"assoc", CFG_UINT, offsetof(struct l1ro_cfg, assoc), 1, 64, ASSOC, NULL, SEC " ways per set"},         \
        {"line", CFG_SIZE, offsetof(struct l1ro_cfg, line), 32, 128, LINE, NULL, SEC " line (bytes): 32, 64 or 128"}, \
        {"mshr", CFG_UINT, offsetof(struct l1ro_cfg, mshr), 1, 1024, "2", NULL,                                  \
         SEC " MSHR entries (GPGPU-Sim A:2:32)"},                                                                \
        {"mshr_merge", CFG_UINT, offsetof(struct l1ro_cfg, mshr_merge), 1, 64, "32", NULL,                       \
         "requests one " SEC " MSHR entry holds, the first miss included (GPGPU-Sim A:2:32)"},                  \
        {"miss_queue", CFG_UINT, offsetof(struct l1ro_cfg, miss_queue), 1, 1024, "4", NULL,                      \
         SEC " miss-queue entries (GPGPU-Sim 4)"},                                                               \
        {"hit_latency", CFG_UINT, offsetof(struct l1ro_cfg, hit_latency), 1, 1000, "1", NULL,                    \
         "core cycles from the " SEC " access to a hit's completion [proposal, as l1d.hit_latency]"},           \
        {"repl", CFG_ENUM, offsetof(struct l1ro_cfg, repl), 0, 0, "lru", ta_repl_names,                          \
         SEC " replacement policy: lru (true LRU), fifo, srrip (2-bit RRIP); docs/cache.md"},                   \
        {"victim_tags", CFG_UINT, offsetof(struct l1ro_cfg, victim_tags), 0, 65536, "0", NULL,                   \
         SEC " victim-tag entries recording replaced lines, counting misses that would have hit (0 = off)"},    \
    {                                                                                                            \
        "victim_tags_assoc", CFG_UINT, offsetof(struct l1ro_cfg, victim_tags_assoc), 0, 65536, "0", NULL,        \
            SEC " ways per victim-tag set, FIFO within a set (0 = one fully associative FIFO)"                   \
    }

static const struct cfg_key l1c_keys[] = {
    L1RO_KEYS("constant cache", "8KB", "constant cache capacity (bytes); gtx480 8 KB = 64 sets x 2 x 64 B (001 ch. 2, GPGPU-Sim 64:64:2)", "2", "64"),
};
static const char *const l1i_inval_names[L1I_INVAL_COUNT + 1] = {"new_code", "always", NULL};
static const struct cfg_key l1i_keys[] = {
    L1RO_KEYS("instruction cache", "2KB", "instruction cache capacity (bytes); gtx480 2 KB = 4 sets x 4 x 128 B (001 ch. 2, 004, GPGPU-Sim 4:128:4)", "4", "128"),
    {"launch_invalidate", CFG_ENUM, offsetof(struct l1ro_cfg, launch_invalidate), 0, 0, "new_code", l1i_inval_names,
     "when a launch empties the instruction cache: new_code (only when it runs another module's code; GPGPU-Sim "
     "keeps it always) or always (docs/correlation.md, session 13)"},
};

const struct cfg_key *const l1c_cfg_keys = l1c_keys;
const unsigned l1c_cfg_n_keys = ARRAY_LEN(l1c_keys);
const struct cfg_key *const l1i_cfg_keys = l1i_keys;
const unsigned l1i_cfg_n_keys = ARRAY_LEN(l1i_keys);

const char *l1ro_cfg_invalid(const struct l1ro_cfg *c, const char **key)
{
    *key = "line";
    if (c->line != 32 && c->line != 64 && c->line != 128)
        return "must be 32, 64 or 128";
    uint64_t way_bytes = c->assoc * c->line;
    *key = "size";
    if (way_bytes == 0 || c->size % way_bytes != 0 || c->size / way_bytes == 0)
        return "must be a non-zero multiple of assoc x line";
    *key = "victim_tags_assoc";
    if (c->victim_tags && c->victim_tags_assoc && c->victim_tags % c->victim_tags_assoc != 0)
        return "must divide victim_tags (or be 0 for fully associative)";
    return NULL;
}

static void l1ro_defaults(struct l1ro_cfg *c, const struct cfg_key *keys, size_t n, const char *sec)
{
    memset(c, 0, sizeof *c);
    cfg_fill_defaults(keys, n, c, sec);
    const char *key;
    const char *why = l1ro_cfg_invalid(c, &key);
    SIM_ASSERT(!why, "%s defaults: %s %s", sec, key, why);
}

void l1c_cfg_defaults(struct l1ro_cfg *c) { l1ro_defaults(c, l1c_keys, ARRAY_LEN(l1c_keys), "l1c"); }
void l1i_cfg_defaults(struct l1ro_cfg *c) { l1ro_defaults(c, l1i_keys, ARRAY_LEN(l1i_keys), "l1i"); }

/* ------------------------------------------------------------- sections */

static void l1d_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    const struct l1d_cfg *c = sec;
    const char *key;
    (void)all;
    const char *why = l1d_cfg_invalid(c, &key);
    if (why && !strcmp(key, "l1d.perfect"))
        cfg_check_fail(ck, key, "%s", why);
    else if (why)
        cfg_check_fail(ck, key, "%s (l1d.size %llu, l1d.assoc %llu, l1d.line %llu, l1d.miss_queue %llu)", why,
                       (unsigned long long)c->size, (unsigned long long)c->assoc, (unsigned long long)c->line,
                       (unsigned long long)c->miss_queue);
}

static void l1ro_check(const char *sec_name, const struct l1ro_cfg *c, struct cfg_checker *ck)
{
    const char *key;
    const char *why = l1ro_cfg_invalid(c, &key);
    if (why) {
        char full[32];
        snprintf(full, sizeof full, "%s.%s", sec_name, key);
        cfg_check_fail(ck, full, "%s (size %llu, assoc %llu, line %llu, victim_tags %llu, victim_tags_assoc %llu)",
                       why, (unsigned long long)c->size, (unsigned long long)c->assoc, (unsigned long long)c->line,
                       (unsigned long long)c->victim_tags, (unsigned long long)c->victim_tags_assoc);
    }
}
static void l1c_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    (void)all;
    l1ro_check("l1c", sec, ck);
}
static void l1i_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    (void)all;
    l1ro_check("l1i", sec, ck);
}

const struct cfg_section l1d_cfg_section = {"l1d", "L1 data cache of an SM", offsetof(struct sim_cfg, l1d), l1d_keys,
                                            ARRAY_LEN(l1d_keys), l1d_check};
const struct cfg_section l1c_cfg_section = {"l1c", "constant cache of an SM", offsetof(struct sim_cfg, l1c), l1c_keys,
                                            ARRAY_LEN(l1c_keys), l1c_check};
const struct cfg_section l1i_cfg_section = {"l1i", "instruction cache of an SM", offsetof(struct sim_cfg, l1i),
                                            l1i_keys, ARRAY_LEN(l1i_keys), l1i_check};
