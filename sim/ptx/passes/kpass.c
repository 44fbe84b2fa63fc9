/* sim/ptx/passes/kpass.c: the kernel-time pass registry and pipeline (kpass.h).
 *
 * Does: hold the registry, parse ptx.passes lists, run a list of passes on
 * one context, and keep what passes produce (renumbering, statistics).
 * Does not: know when passes run or cache results (kpass_rt.c), or
 * implement a pass (kpass_regstats.c, kpass_renumber.c).
 */
#include "sim/ptx/passes/kpass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/ptx/ir.h"

const struct kpass kpass_registry[] = {
    {"regstats", "static reads/writes per physical register and per register bank (bank = reg mod rf.n_banks)",
     kpass_regstats_run},
    {"renumber_hot", "renumber physical registers so that the most-accessed ones sit in distinct banks",
     kpass_renumber_hot_run},
};
const size_t kpass_n_registry = ARRAY_LEN(kpass_registry);

const struct kpass *kpass_find(const char *name)
{
    for (size_t i = 0; i < kpass_n_registry; i++)
        if (!strcmp(kpass_registry[i].name, name))
            return &kpass_registry[i];
    return NULL;
}

bool kpass_parse_list(const char *text, const struct kpass **out, size_t *n, char *why, size_t why_len)
{
    *n = 0;
    const char *p = text ? text : "";
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p || !strcmp(p, "none"))
        return true;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char name[64];
        size_t a = 0, b = len;
        while (a < b && (p[a] == ' ' || p[a] == '\t'))
            a++;
        while (b > a && (p[b - 1] == ' ' || p[b - 1] == '\t'))
            b--;
        if (b == a) {
            snprintf(why, why_len, "empty pass name in the list (write names separated by commas)");
            return false;
        }
        snprintf(name, sizeof name, "%.*s", (int)(b - a), p + a);
        const struct kpass *k = kpass_find(name);
        if (!k) {
            char known[256] = "";
            size_t off = 0;
            for (size_t i = 0; i < kpass_n_registry && off < sizeof known; i++)
                off += (size_t)snprintf(known + off, sizeof known - off, "%s%s", i ? ", " : "",
                                        kpass_registry[i].name);
            snprintf(why, why_len, "unknown pass '%s' (known passes: %s)", name, known);
            return false;
        }
        for (size_t i = 0; i < *n; i++)
            if (out[i] == k) {
                snprintf(why, why_len, "pass '%s' is listed twice", name);
                return false;
            }
        if (*n == KPASS_MAX_LIST) {
            snprintf(why, why_len, "more than %d passes", KPASS_MAX_LIST);
            return false;
        }
        out[(*n)++] = k;
        if (!e)
            return true;
        p = e + 1;
    }
}

void kpass_result_init(struct kpass_result *r) { memset(r, 0, sizeof *r); }

void kpass_result_free(struct kpass_result *r)
{
    if (!r)
        return;
    for (uint32_t f = 0; r->regmap.fn && f < r->regmap.n_funcs; f++) {
        struct kpass_fn_map *m = &r->regmap.fn[f];
        free(m->map);
        free(m->first);
        free(m->n_src);
        free(m->n_dst);
        free(m->ops);
    }
    free(r->regmap.fn);
    free(r->stats);
    memset(r, 0, sizeof *r);
}

void kpass_stat(struct kpass_ctx *c, const char *name, int32_t instance, uint64_t value, const char *doc)
{
    struct kpass_result *r = c->res;
    if (r->n_stats == r->cap_stats) {
        r->cap_stats = r->cap_stats ? 2 * r->cap_stats : 32;
        r->stats = xrealloc(r->stats, r->cap_stats * sizeof *r->stats);
    }
    struct kpass_stat_item *it = &r->stats[r->n_stats++];
    memset(it, 0, sizeof *it);
    snprintf(it->group, sizeof it->group, "pass.%s", c->pass_name ? c->pass_name : "test");
    snprintf(it->name, sizeof it->name, "%s", name);
    it->instance = instance;
    it->value = value;
    it->doc = doc;
}

uint64_t kpass_stat_value(const struct kpass_result *r, const char *pass, const char *name, int32_t instance)
{
    char g[KPASS_NAME_MAX];
    snprintf(g, sizeof g, "pass.%s", pass);
    for (size_t i = 0; i < r->n_stats; i++)
        if (r->stats[i].instance == instance && !strcmp(r->stats[i].group, g) && !strcmp(r->stats[i].name, name))
            return r->stats[i].value;
    return 0;
}

bool kpass_remap_set(struct kpass_ctx *c, uint32_t f, const uint16_t *map, uint32_t n_phys)
{
    struct kpass_result *r = c->res;
    if (f >= c->mod->n_funcs)
        return false;
    uint8_t *seen = xcalloc(n_phys ? n_phys : 1, 1);
    bool ok = true;
    for (uint32_t i = 0; i < n_phys && ok; i++) {
        if (map[i] >= n_phys || seen[map[i]])
            ok = false;
        else
            seen[map[i]] = 1;
    }
    free(seen);
    if (!ok)
        return false;
    if (!r->regmap.fn) {
        r->regmap.n_funcs = c->mod->n_funcs;
        r->regmap.fn = xcalloc(c->mod->n_funcs, sizeof *r->regmap.fn);
    }
    struct kpass_fn_map *m = &r->regmap.fn[f];
    uint32_t n = MAX(m->n_phys, n_phys);
    uint16_t *comp = xcalloc(n ? n : 1, sizeof *comp);
    for (uint32_t o = 0; o < n; o++) {
        uint16_t cur = o < m->n_phys ? m->map[o] : (uint16_t)o;
        comp[o] = cur < n_phys ? map[cur] : cur;
    }
    free(m->map);
    m->map = comp;
    m->n_phys = n;
    return true;
}

/* ------------------------------------------------- operand enumeration */

struct opwalk {
    const struct ptx_func *fn;
    const struct kpass_regmap *rm;
    void (*emit)(void *ctx, uint16_t phys, int is_def);
    void *ctx;
};

static void opwalk_reg(int32_t vreg, int is_def, void *arg)
{
    struct opwalk *w = arg;
    if (vreg < 0 || (uint32_t)vreg >= w->fn->n_regs)
        return;
    const struct ptx_reg *r = &w->fn->regs[vreg];
    if (r->is_pred || r->phys < 0)
        return;
    for (uint32_t i = 0; i < r->n_phys; i++)
        w->emit(w->ctx, kpass_regmap_phys(w->rm, w->fn->index, (uint16_t)(r->phys + (int32_t)i)), is_def);
}

void kpass_for_each_phys(const struct ptx_func *fn, const struct ptx_insn *in, const struct kpass_regmap *rm,
                          void (*emit)(void *ctx, uint16_t phys, int is_def), void *ctx)
{
    struct opwalk w = {fn, rm, emit, ctx};
    ptx_insn_for_each_reg(in, opwalk_reg, &w);
}

struct counts {
    uint64_t *reads, *writes;
    uint32_t n;
};

static void count_emit(void *arg, uint16_t phys, int is_def)
{
    struct counts *c = arg;
    if (phys < c->n)
        (is_def ? c->writes : c->reads)[phys]++;
}

void kpass_count_regs(const struct kpass_result *r, const struct ptx_func *fn, uint64_t *reads, uint64_t *writes,
                      uint32_t n)
{
    memset(reads, 0, n * sizeof *reads);
    memset(writes, 0, n * sizeof *writes);
    struct counts c = {reads, writes, n};
    for (uint32_t pc = 0; fn->has_body && pc < fn->n_insns; pc++)
        kpass_for_each_phys(fn, &fn->insns[pc], r ? &r->regmap : NULL, count_emit, &c);
}

uint32_t kpass_fn_phys_count(const struct ptx_func *fn)
{
    uint32_t n = 0;
    for (uint32_t v = 0; v < fn->n_regs; v++) {
        const struct ptx_reg *r = &fn->regs[v];
        if (!r->is_pred && r->phys >= 0 && (uint32_t)r->phys + r->n_phys > n)
            n = (uint32_t)r->phys + r->n_phys;
    }
    return n;
}

/* ------------------------------------------------- per-operand tables */

struct opfill {
    uint16_t src[64], dst[64];
    uint32_t ns, nd;
};

static void fill_emit(void *arg, uint16_t phys, int is_def)
{
    struct opfill *o = arg;
    if (is_def) {
        if (o->nd < ARRAY_LEN(o->dst))
            o->dst[o->nd++] = phys;
    } else if (o->ns < ARRAY_LEN(o->src))
        o->src[o->ns++] = phys;
}

void kpass_result_finish(struct kpass_result *r, const struct ptx_module *mod)
{
    if (!r->regmap.fn)
        return;
    for (uint32_t f = 0; f < r->regmap.n_funcs && f < mod->n_funcs; f++) {
        struct kpass_fn_map *m = &r->regmap.fn[f];
        const struct ptx_func *fn = &mod->funcs[f];
        if (!m->n_phys || !fn->has_body || m->ops)
            continue;
        m->n_insns = fn->n_insns;
        m->first = xcalloc(fn->n_insns + 1, sizeof *m->first);
        m->n_src = xcalloc(fn->n_insns + 1, 1);
        m->n_dst = xcalloc(fn->n_insns + 1, 1);
        size_t cap = 64, used = 0;
        m->ops = xcalloc(cap, sizeof *m->ops);
        for (uint32_t pc = 0; pc < fn->n_insns; pc++) {
            struct opfill o;
            o.ns = o.nd = 0;
            kpass_for_each_phys(fn, &fn->insns[pc], &r->regmap, fill_emit, &o);
            if (used + o.ns + o.nd > cap) {
                while (used + o.ns + o.nd > cap)
                    cap *= 2;
                m->ops = xrealloc(m->ops, cap * sizeof *m->ops);
            }
            m->first[pc] = (uint32_t)used;
            m->n_src[pc] = (uint8_t)o.ns;
            m->n_dst[pc] = (uint8_t)o.nd;
            memcpy(m->ops + used, o.src, o.ns * sizeof *o.src);
            memcpy(m->ops + used + o.ns, o.dst, o.nd * sizeof *o.dst);
            used += o.ns + o.nd;
        }
        m->first[fn->n_insns] = (uint32_t)used;
    }
}

int kpass_run_list(struct kpass_ctx *c, const struct kpass *const *passes, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        c->pass_name = passes[i]->name;
        char msg[512] = "";
        char *user_err = c->err;
        size_t user_len = c->err_len;
        c->err = msg;
        c->err_len = sizeof msg;
        int rc = passes[i]->run(c);
        c->err = user_err;
        c->err_len = user_len;
        if (rc < 0) {
            if (c->err && c->err_len)
                snprintf(c->err, c->err_len, "pass '%s' on kernel '%s': %s", passes[i]->name, c->fn->name,
                         msg[0] ? msg : "failed");
            c->pass_name = NULL;
            return rc;
        }
    }
    c->pass_name = NULL;
    kpass_result_finish(c->res, c->mod);
    return 0;
}
