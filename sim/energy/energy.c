/* sim/energy/energy.c: the event-based energy model; see energy.h for what it
 * models and docs/energy.md for the keys, their sources and the JSON.
 *
 * Operation mix: a few dozen statistic look-ups and multiplications per
 * report (whole run, each kernel), after the run. The only state is the list
 * of unit events, attached to the statistics registry by the first
 * energy_event_register and freed with it.
 */
#include "sim/energy/energy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/base/json.h"
#include "sim/base/stats.h"
#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"

static const char *const structure_names[ENERGY_N_STRUCTURES] = {
    [ENERGY_RF] = "rf",     [ENERGY_L1D] = "l1d",   [ENERGY_SMEM] = "smem", [ENERGY_L2] = "l2",
    [ENERGY_ICNT] = "icnt", [ENERGY_DRAM] = "dram", [ENERGY_CORE] = "core",
};

const char *energy_structure_name(enum energy_structure s)
{
    return (unsigned)s < ENERGY_N_STRUCTURES ? structure_names[s] : "?";
}

int energy_structure_of(const char *name)
{
    for (int i = 0; i < ENERGY_N_STRUCTURES; i++)
        if (name && strcmp(structure_names[i], name) == 0)
            return i;
    return -1;
}

/* ------------------------------------------------------------ built-in events */

/* A built-in event: count = stat (- minus), energy = count x key. */
struct energy_builtin {
    enum energy_structure st; /* structure charged */
    const char *event;        /* event name in the report */
    const char *stat;         /* statistic counting it (full name; absent = 0) */
    const char *minus;        /* statistic subtracted from it, or NULL */
    const char *key;          /* pJ per event (full key name) */
};

/* NOTE(energy-events): one row per counted event; docs/energy-events.md says
 * where each counter comes from and docs/energy.md why it is charged so. */
static const struct energy_builtin builtin_events[] = {
    {ENERGY_RF, "read", "sm.oc.reads", NULL, "energy.rf.read_pj"},
    {ENERGY_RF, "write", "sm.oc.writes", NULL, "energy.rf.write_pj"},
    {ENERGY_L1D, "read", "l1d.loads", "l1d.bypass_loads", "energy.l1d.read_pj"},
    {ENERGY_L1D, "write", "l1d.stores", NULL, "energy.l1d.write_pj"},
    {ENERGY_L1D, "fill", "l1d.fills", NULL, "energy.l1d.fill_pj"},
    {ENERGY_SMEM, "access", "ldst.smem_cycles", NULL, "energy.smem.access_pj"},
    {ENERGY_L2, "read", "l2.acc_read", NULL, "energy.l2.read_pj"},
    {ENERGY_L2, "write", "l2.acc_write", NULL, "energy.l2.write_pj"},
    {ENERGY_L2, "l1_writeback", "l2.acc_writeback", NULL, "energy.l2.write_pj"},
    {ENERGY_L2, "atomic", "l2.acc_atomic", NULL, "energy.l2.atomic_pj"},
    {ENERGY_L2, "fill", "l2.fills", NULL, "energy.l2.write_pj"},
    {ENERGY_L2, "dram_writeback", "l2.writebacks", NULL, "energy.l2.read_pj"},
    {ENERGY_ICNT, "req_flit", "icnt.req.tx_flits", NULL, "energy.icnt.flit_pj"},
    {ENERGY_ICNT, "reply_flit", "icnt.reply.tx_flits", NULL, "energy.icnt.flit_pj"},
    {ENERGY_DRAM, "activate", "dram.activates", NULL, "energy.dram.activate_pj"},
    {ENERGY_DRAM, "precharge", "dram.precharges", NULL, "energy.dram.precharge_pj"},
    {ENERGY_DRAM, "read", "dram.rd_cmds", NULL, "energy.dram.read_pj"},
    {ENERGY_DRAM, "write", "dram.wr_cmds", NULL, "energy.dram.write_pj"},
    {ENERGY_DRAM, "refresh", "dram.refreshes", NULL, "energy.dram.refresh_pj"},
    {ENERGY_CORE, "inst", "func.warp_insts", NULL, "energy.core.inst_pj"},
    {ENERGY_CORE, "lane", "func.thread_insts", NULL, "energy.core.lane_pj"},
};

/* ------------------------------------------------------------ unit events */

#define ENERGY_ATTACH_TAG "energy.events"

/* One registered instance of a unit event. */
struct unit_ev_inst {
    const char *stat; /* full name (owned by the registry) */
    int instance;     /* its instance */
};

/* One unit event: every instance registered under (structure, event). */
struct unit_ev {
    enum energy_structure st; /* structure charged */
    char *event;              /* owned */
    char *key;                /* owned: full name of the pJ key */
    struct unit_ev_inst *inst; /* registered counters */
    size_t n_inst, cap_inst;
};

/* The list attached to a registry. */
struct unit_evs {
    struct unit_ev *ev; /* events in registration order */
    size_t n, cap;
};

static void unit_evs_destroy(void *p)
{
    struct unit_evs *u = p;
    for (size_t i = 0; i < u->n; i++) {
        free(u->ev[i].event);
        free(u->ev[i].key);
        free(u->ev[i].inst);
    }
    free(u->ev);
    free(u);
}

void energy_event_register(struct stats *reg, const char *structure, const char *event, const uint64_t *count,
                           const char *key)
{
    SIM_ASSERT(reg && event && event[0] && count && key && key[0], "energy: incomplete event registration");
    int st = energy_structure_of(structure);
    if (st < 0)
        sim_panic("energy: event '%s' names unknown structure '%s'", event, structure ? structure : "(null)");
    for (size_t i = 0; i < ARRAY_LEN(builtin_events); i++)
        if (builtin_events[i].st == (enum energy_structure)st && strcmp(builtin_events[i].event, event) == 0)
            sim_panic("energy: unit event %s.%s clashes with the built-in event of that name", structure, event);
    const char *stat;
    int instance;
    if (!stats_find_value(reg, count, &stat, &instance))
        sim_panic("energy: event %s.%s: its counter is not a registered statistic (register it first)", structure,
                  event);
    struct unit_evs *u = stats_attachment(reg, ENERGY_ATTACH_TAG);
    if (!u) {
        u = xcalloc(1, sizeof *u);
        stats_attach(reg, ENERGY_ATTACH_TAG, u, unit_evs_destroy);
    }
    struct unit_ev *e = NULL;
    for (size_t i = 0; i < u->n; i++)
        if (u->ev[i].st == (enum energy_structure)st && strcmp(u->ev[i].event, event) == 0)
            e = &u->ev[i];
    if (e && strcmp(e->key, key) != 0)
        sim_panic("energy: event %s.%s registered with keys '%s' and '%s'", structure, event, e->key, key);
    if (!e) {
        if (u->n == u->cap) {
            u->cap = u->cap ? 2 * u->cap : 4;
            u->ev = xrealloc(u->ev, u->cap * sizeof *u->ev);
        }
        e = &u->ev[u->n++];
        *e = (struct unit_ev){.st = (enum energy_structure)st, .event = xstrdup(event), .key = xstrdup(key)};
    }
    for (size_t i = 0; i < e->n_inst; i++)
        if (e->inst[i].instance == instance && strcmp(e->inst[i].stat, stat) == 0)
            sim_panic("energy: event %s.%s: counter %s instance %d registered twice", structure, event, stat,
                      instance);
    if (e->n_inst == e->cap_inst) {
        e->cap_inst = e->cap_inst ? 2 * e->cap_inst : 16;
        e->inst = xrealloc(e->inst, e->cap_inst * sizeof *e->inst);
    }
    e->inst[e->n_inst++] = (struct unit_ev_inst){stat, instance};
}

/* ------------------------------------------------------------ compute */

/* A statistic of the whole run or of kernel k; 0 when absent. */
static uint64_t stat_of(const struct stats *s, size_t k, const char *name)
{
    uint64_t v = 0;
    if (k == ENERGY_WHOLE_RUN)
        stats_get_u64(s, name, &v);
    else
        stats_kernel_get_u64(s, k, name, &v);
    return v;
}

static uint64_t stat_inst_of(const struct stats *s, size_t k, const char *name, int instance)
{
    uint64_t v = 0;
    if (k == ENERGY_WHOLE_RUN)
        stats_get_instance_u64(s, name, instance, &v);
    else
        stats_kernel_get_instance_u64(s, k, name, instance, &v);
    return v;
}

/* The value of a double key (pJ or mW) by full name. */
static double key_value(const struct cfg *c, const char *key, const char *what)
{
    const char *text = cfg_value_text(c, key);
    if (!text)
        sim_panic("energy: %s uses key '%s', which is not declared", what, key);
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end)
        sim_panic("energy: %s uses key '%s' = '%s', which is not a number of pJ", what, key, text);
    return v;
}

static void add_event(struct energy_report *r, const struct cfg *c, enum energy_structure st, const char *event,
                      const char *key, uint64_t count)
{
    if (r->n_events == ENERGY_MAX_EVENTS)
        sim_panic("energy: more than %d events", ENERGY_MAX_EVENTS);
    char what[96];
    snprintf(what, sizeof what, "event %s.%s", structure_names[st], event);
    struct energy_event_val *e = &r->ev[r->n_events++];
    e->structure = st;
    e->event = event;
    e->key = key;
    e->pj = key_value(c, key, what);
    e->count = count;
    e->nj = (double)count * e->pj * 1e-3;
    r->dynamic_nj[st] += e->nj;
}

void energy_compute(const struct stats *s, const struct cfg *c, size_t kernel, struct energy_report *out)
{
    memset(out, 0, sizeof *out);
    uint64_t cycles;
    bool have = kernel == ENERGY_WHOLE_RUN ? stats_get_u64(s, "gpu.cycles", &cycles)
                                           : stats_kernel_get_u64(s, kernel, "gpu.cycles", &cycles);
    if (!have)
        return;
    out->valid = true;
    const struct sim_cfg *v = c->values;
    const struct energy_cfg *e = &v->energy;
    double core_ps = (double)cfg_freq_to_period_ps(v->clock.core_hz);
    double dram_ps = (double)cfg_freq_to_period_ps(v->clock.dram_hz);
    double time_ps = (double)cycles * core_ps;
    out->time_ns = time_ps * 1e-3;

    for (size_t i = 0; i < ARRAY_LEN(builtin_events); i++) {
        const struct energy_builtin *b = &builtin_events[i];
        uint64_t n = stat_of(s, kernel, b->stat);
        if (b->minus) {
            uint64_t m = stat_of(s, kernel, b->minus);
            n = n > m ? n - m : 0;
        }
        add_event(out, c, b->st, b->event, b->key, n);
    }
    const struct unit_evs *u = stats_attachment(s, ENERGY_ATTACH_TAG);
    for (size_t i = 0; u && i < u->n; i++) {
        uint64_t n = 0;
        for (size_t j = 0; j < u->ev[i].n_inst; j++)
            n += stat_inst_of(s, kernel, u->ev[i].inst[j].stat, u->ev[i].inst[j].instance);
        add_event(out, c, u->ev[i].st, u->ev[i].event, u->ev[i].key, n);
    }

    /* static: mW x instances x ps x 1e-6 = nJ */
    double n_sm = (double)v->gpu.n_sm, slices = (double)(v->mem.n_partitions * v->mem.sub_per_partition);
    out->static_nj[ENERGY_RF] = e->rf_static_mw * n_sm * time_ps * 1e-6;
    out->static_nj[ENERGY_L1D] = e->l1d_static_mw * n_sm * time_ps * 1e-6;
    out->static_nj[ENERGY_SMEM] = e->smem_static_mw * n_sm * time_ps * 1e-6;
    out->static_nj[ENERGY_CORE] = e->core_static_mw * n_sm * time_ps * 1e-6;
    out->static_nj[ENERGY_L2] = e->l2_static_mw * slices * time_ps * 1e-6;
    out->static_nj[ENERGY_ICNT] = e->icnt_static_mw * 2.0 * (n_sm + slices) * time_ps * 1e-6;
    /* DRAM background: per channel-cycle counted (dram.cycles sums the channels) */
    out->static_nj[ENERGY_DRAM] = e->dram_background_mw * (double)stat_of(s, kernel, "dram.cycles") * dram_ps * 1e-6;

    for (int st = 0; st < ENERGY_N_STRUCTURES; st++)
        out->total_nj += out->dynamic_nj[st] + out->static_nj[st];
}

/* ------------------------------------------------------------ JSON */

static void write_parts(struct json_writer *w, const struct energy_report *r, bool events)
{
    jw_double(w, "time_ns", r->time_ns);
    jw_double(w, "total", r->total_nj);
    for (int st = 0; st < ENERGY_N_STRUCTURES; st++) {
        jw_obj_begin(w, structure_names[st]);
        jw_double(w, "dynamic", r->dynamic_nj[st]);
        jw_double(w, "static", r->static_nj[st]);
        jw_double(w, "total", r->dynamic_nj[st] + r->static_nj[st]);
        if (events) {
            jw_obj_begin(w, "events");
            for (size_t i = 0; i < r->n_events; i++) {
                const struct energy_event_val *ev = &r->ev[i];
                if (ev->structure != (enum energy_structure)st)
                    continue;
                jw_obj_begin(w, ev->event);
                jw_u64(w, "count", ev->count);
                jw_double(w, "pj", ev->pj);
                jw_double(w, "nj", ev->nj);
                jw_obj_end(w);
            }
            jw_obj_end(w);
        }
        jw_obj_end(w);
    }
}

void energy_write_json(const struct stats *s, const struct cfg *c, struct json_writer *w)
{
    struct energy_report r;
    energy_compute(s, c, ENERGY_WHOLE_RUN, &r);
    if (!r.valid)
        return;
    jw_obj_begin(w, "energy");
    write_parts(w, &r, true);
    jw_arr_begin(w, "kernels");
    for (size_t k = 0; k < stats_n_kernels(s); k++) {
        energy_compute(s, c, k, &r);
        jw_obj_begin(w, NULL);
        jw_u64(w, "index", k);
        jw_str(w, "name", stats_kernel_name(s, k));
        if (r.valid)
            write_parts(w, &r, false);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}
