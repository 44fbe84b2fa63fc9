/* sim/ptx/passes/kpass_rt.c: kernel-time passes and profiles at launch
 * (kpass_rt.h).
 *
 * Does: parse ptx.passes once, keep a cache of pass results keyed by
 * (module, kernel, grid, block, dynamic shared bytes, profile record),
 * publish their statistics at every launch, record and save profiles, load
 * ptx.profile_in. Does not: run kernels (runtime.c) or implement passes.
 * Results and profiles live until the context is destroyed (modules are
 * only freed then, so the cache's module and function pointers stay valid).
 */
#include "sim/ptx/passes/kpass_rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpusim.h"
#include "sim/base/common.h"
#include "sim/func/func.h"
#include "sim/ptx/ir.h"
#include "sim/ptx/passes/kpass.h"
#include "sim/ptx/passes/kprofile.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/base/stats.h"

struct cache_ent {
    const struct ptx_module *mod;
    const struct ptx_func *fn;
    uint32_t grid[3], block[3], dyn;
    const struct kprof_kernel *prof;
    uint32_t prof_gen;  /* kpass_state.prof_gen when prof was looked up */
    struct kpass_result res;
    uint64_t **sink; /* per res.stats item: the counter it adds to */
};

struct sink {
    char group[KPASS_NAME_MAX];
    char name[KPASS_NAME_MAX];
    int32_t instance;
    uint64_t *val; /* registered with the stats registry (stable address) */
};

struct name_count {
    const struct ptx_func *fn; /* kernel (names are per module; matched by name) */
    uint32_t n;                /* launches so far */
};

struct kpass_state {
    const struct sim_cfg *cfg;
    struct stats *st;
    const struct kpass *list[KPASS_MAX_LIST];
    size_t n_list;
    struct cache_ent **cache;
    size_t n_cache, cap_cache;
    struct sink *sinks;
    size_t n_sinks, cap_sinks;
    uint64_t runs, cache_hits; /* pass.runs, pass.cache_hits */
    struct cache_ent *cur;     /* entry of the launch prepared last */
    /* profiles */
    struct kprof *loaded;      /* ptx.profile_in / gs_profile_load, or NULL */
    uint32_t prof_gen;         /* loads so far (a reloaded profile invalidates cached results) */
    struct kprof *recorded;    /* recording target, or NULL when not recording */
    struct kprof_rec *rec;     /* the launch being recorded */
    const char *profile_out;   /* rewritten after each launch, or NULL */
    uint32_t n_launches;       /* launches prepared */
    struct name_count *names;  /* launches per kernel name (profile matching) */
    size_t n_names;
};

struct kpass_state *kpass_state_create(const struct sim_cfg *cfg, struct stats *st, int *code, char *err,
                                       size_t err_len)
{
    struct kpass_state *s = xcalloc(1, sizeof *s);
    s->cfg = cfg;
    s->st = st;
    char why[512];
    if (!kpass_parse_list(cfg->ptx.passes, s->list, &s->n_list, why, sizeof why)) { /* cfg_finish checked it */
        snprintf(err, err_len, "ptx.passes: %s", why);
        *code = GS_ERR_CONFIG;
        free(s);
        return NULL;
    }
    if (s->n_list) {
        stats_counter(st, "pass", -1, "runs", &s->runs, "kernel-time pass pipeline runs (ptx.passes)");
        stats_counter(st, "pass", -1, "cache_hits", &s->cache_hits,
                      "launches that reused the passes' result of an earlier launch");
    }
    if (kpass_cfg_path(cfg->ptx.profile_in)) {
        char e[768];
        if (kpass_state_profile_load(s, cfg->ptx.profile_in, e, sizeof e) != 0) {
            snprintf(err, err_len, "ptx.profile_in: %s", e);
            *code = GS_ERR_CONFIG;
            kpass_state_destroy(s);
            return NULL;
        }
    }
    if (kpass_cfg_path(cfg->ptx.profile_out)) {
        s->profile_out = cfg->ptx.profile_out;
        if (kpass_state_profile_record(s, err, err_len) != 0) {
            *code = GS_ERR_CONFIG;
            kpass_state_destroy(s);
            return NULL;
        }
    }
    return s;
}

void kpass_state_destroy(struct kpass_state *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_cache; i++) {
        kpass_result_free(&s->cache[i]->res);
        free(s->cache[i]->sink);
        free(s->cache[i]);
    }
    free(s->cache);
    for (size_t i = 0; i < s->n_sinks; i++)
        free(s->sinks[i].val); /* the caller destroys the stats registry first */
    free(s->sinks);
    kprof_rec_abort(s->rec);
    kprof_free(s->loaded);
    kprof_free(s->recorded);
    free(s->names);
    free(s);
}

static uint64_t *sink_get(struct kpass_state *s, const struct kpass_stat_item *it)
{
    for (size_t i = 0; i < s->n_sinks; i++)
        if (s->sinks[i].instance == it->instance && !strcmp(s->sinks[i].group, it->group) &&
            !strcmp(s->sinks[i].name, it->name))
            return s->sinks[i].val;
    if (s->n_sinks == s->cap_sinks) {
        s->cap_sinks = s->cap_sinks ? 2 * s->cap_sinks : 64;
        s->sinks = xrealloc(s->sinks, s->cap_sinks * sizeof *s->sinks);
    }
    struct sink *k = &s->sinks[s->n_sinks++];
    memcpy(k->group, it->group, sizeof k->group);
    memcpy(k->name, it->name, sizeof k->name);
    k->instance = it->instance;
    k->val = xcalloc(1, sizeof *k->val);
    stats_counter(s->st, k->group, k->instance, k->name, k->val, it->doc ? it->doc : "");
    return k->val;
}

static uint32_t occurrence(struct kpass_state *s, const struct ptx_func *fn)
{
    for (size_t i = 0; i < s->n_names; i++)
        if (s->names[i].fn == fn || !strcmp(s->names[i].fn->name, fn->name))
            return s->names[i].n++;
    s->names = xrealloc(s->names, (s->n_names + 1) * sizeof *s->names);
    s->names[s->n_names++] = (struct name_count){fn, 1};
    return 0;
}

int kpass_state_prepare(struct kpass_state *s, struct func_launch *fl, uint32_t ctas_per_sm, uint64_t smem_per_cta,
                        char *err, size_t err_len)
{
    const struct ptx_func *fn = fl->fn;
    uint32_t launch = s->n_launches++;
    uint32_t occ = occurrence(s, fn);
    const struct kprof_kernel *prof = s->loaded ? kprof_find(s->loaded, fn->name, occ) : NULL;
    s->cur = NULL;
    fl->regmap = NULL;
    fl->observer = NULL;
    if (s->n_list) {
        struct cache_ent *e = NULL;
        for (size_t i = 0; i < s->n_cache && !e; i++) {
            struct cache_ent *c = s->cache[i];
            if (c->mod == fl->mod && c->fn == fn && !memcmp(c->grid, fl->grid, sizeof c->grid) &&
                !memcmp(c->block, fl->block, sizeof c->block) && c->dyn == fl->dyn_shared_bytes && c->prof == prof &&
                c->prof_gen == s->prof_gen)
                e = c;
        }
        if (e) {
            s->cache_hits++;
        } else {
            e = xcalloc(1, sizeof *e);
            e->mod = fl->mod;
            e->fn = fn;
            memcpy(e->grid, fl->grid, sizeof e->grid);
            memcpy(e->block, fl->block, sizeof e->block);
            e->dyn = fl->dyn_shared_bytes;
            e->prof = prof;
            e->prof_gen = s->prof_gen;
            kpass_result_init(&e->res);
            const struct sim_cfg *cv = s->cfg;
            uint32_t threads = fl->block[0] * fl->block[1] * fl->block[2];
            struct kpass_ctx c = {
                .mod = fl->mod,
                .fn = fn,
                .cfg = cv,
                .grid = {fl->grid[0], fl->grid[1], fl->grid[2]},
                .block = {fl->block[0], fl->block[1], fl->block[2]},
                .dyn_shared_bytes = fl->dyn_shared_bytes,
                .smem_per_cta = smem_per_cta,
                .threads_per_cta = threads,
                .warps_per_cta = (threads + 31) / 32,
                .ctas_per_sm = ctas_per_sm,
                .warps_per_sm = ctas_per_sm * ((threads + 31) / 32),
                .n_sm = (uint32_t)cv->gpu.n_sm,
                .regs_per_thread = fn->regs_per_thread,
                .regs_alloc = fn->regs_alloc,
                .sm_n_regs = cv->sm.n_regs,
                .rf_n_banks = (uint32_t)cv->rf.n_banks,
                .rf_entries_per_bank = (uint32_t)cv->rf.entries_per_bank,
                .profile = prof,
                .res = &e->res,
                .err = err,
                .err_len = err_len,
            };
            int rc = kpass_run_list(&c, s->list, s->n_list);
            if (rc < 0) {
                kpass_result_free(&e->res);
                free(e);
                return GS_ERR_LAUNCH;
            }
            s->runs++;
            e->sink = xcalloc(e->res.n_stats + 1, sizeof *e->sink);
            for (size_t i = 0; i < e->res.n_stats; i++)
                e->sink[i] = sink_get(s, &e->res.stats[i]);
            if (s->n_cache == s->cap_cache) {
                s->cap_cache = s->cap_cache ? 2 * s->cap_cache : 8;
                s->cache = xrealloc(s->cache, s->cap_cache * sizeof *s->cache);
            }
            s->cache[s->n_cache++] = e;
        }
        s->cur = e;
        fl->regmap = e->res.regmap.fn ? &e->res.regmap : NULL;
    }
    if (s->recorded) {
        kprof_rec_abort(s->rec);
        s->rec = kprof_rec_begin(s->recorded, fl->mod, fn, fl->grid, fl->block, launch);
        fl->observer = kprof_rec_observer(s->rec);
    }
    return 0;
}

void kpass_state_publish(struct kpass_state *s)
{
    struct cache_ent *e = s->cur;
    if (!e)
        return;
    for (size_t i = 0; i < e->res.n_stats; i++)
        *e->sink[i] += e->res.stats[i].value;
}

int kpass_state_finish(struct kpass_state *s, int rc, char *err, size_t err_len)
{
    if (!s->rec)
        return 0;
    if (rc != 0) {
        kprof_rec_abort(s->rec);
        s->rec = NULL;
        return 0;
    }
    kprof_rec_end(s->rec, s->recorded);
    s->rec = NULL;
    if (s->profile_out && kprof_save(s->recorded, s->profile_out, err, err_len) != 0)
        return GS_ERR_IO;
    return 0;
}

const struct kpass_result *kpass_state_last_result(const struct kpass_state *s)
{
    return s->cur ? &s->cur->res : NULL;
}

int kpass_state_profile_record(struct kpass_state *s, char *err, size_t err_len)
{
    if (s->cfg->sim.mode != SIM_MODE_FUNCTIONAL) {
        snprintf(err, err_len, "profiles are recorded in functional mode (sim.mode = functional)");
        return GS_ERR_UNSUPPORTED;
    }
    if (!s->recorded)
        s->recorded = kprof_create(s->cfg->ptx.profile_page, s->cfg->ptx.profile_line, (uint32_t)s->cfg->rf.n_banks);
    return 0;
}

int kpass_state_profile_save(struct kpass_state *s, const char *path, char *err, size_t err_len)
{
    if (!s->recorded) {
        snprintf(err, err_len, "no profile was recorded (call gs_profile_record before the launches)");
        return GS_ERR_STATE;
    }
    return kprof_save(s->recorded, path, err, err_len) ? GS_ERR_IO : 0;
}

int kpass_state_profile_load(struct kpass_state *s, const char *path, char *err, size_t err_len)
{
    struct kprof *p = NULL;
    if (kprof_load(path, &p, err, err_len) != 0)
        return GS_ERR_INVALID_VALUE;
    kprof_free(s->loaded);
    s->loaded = p;
    s->prof_gen++;
    return 0;
}

const struct kprof *kpass_state_profile_recorded(const struct kpass_state *s) { return s->recorded; }
const struct kprof *kpass_state_profile_loaded(const struct kpass_state *s) { return s->loaded; }
