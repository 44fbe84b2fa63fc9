/* sim/synth/synth.c: the synthetic engine-validation model on the parallel engine.
 * The model is described in synth.h; its independent sequential twin is
 * tests/support/synth_ref.c. Both must draw random numbers in exactly the
 * same order per unit:
 *   at service completion (if the job has hops left): r_dst, r_lat
 *   at service start: r_service
 */
#include "sim/synth/synth.h"

#include <stdlib.h>
#include <string.h>

#include "sim/base/diag.h"
#include "sim/gpu/gpu_cfg.h"
#include "sim/base/stats.h"
#include "sync/engine.h"

struct synth_job {
    uint64_t id;        /* unique job id */
    uint64_t hops_left; /* services still to receive */
    ps_t arrival;       /* ps: when it reached the current unit */
};

struct synth_unit {
    uint32_t id;              /* engine unit id */
    uint32_t partition;       /* partition index */
    ps_t period;              /* ps per cycle of its domain */
    uint64_t rng;             /* generator state */
    struct synth_job *q;      /* FIFO ring of waiting jobs */
    size_t q_head, q_n, q_cap;/* entries */
    bool busy;                /* serving cur */
    struct synth_job cur;     /* job in service */
    ps_t busy_until;          /* ps: service end */
    struct synth_unit_stats st;
    const struct synth_model *m; /* shared read-only model description */
};

struct synth_model {
    struct synth_cfg cfg;
    struct synth_shape shape;
    struct engine *eng;
    struct stats *stats;       /* registry to register unit stats in, or NULL */
    struct synth_unit **units; /* [n_units], filled by partition inits */
};

static const char *const domain_names[4] = {"dram", "l2", "icnt", "core"};

int synth_unit_domain(const struct synth_cfg *c, uint32_t unit)
{
    uint64_t part = unit / c->units_per_partition;
    uint64_t local = unit % c->units_per_partition;
    bool sm = part < c->sm_partitions;
    if (sm)
        return (local & 1) ? 2 : 3; /* icnt : core */
    return (local & 1) ? 0 : 1;     /* dram : l2 */
}

void synth_shape_compute(const struct synth_cfg *c, const struct clock_cfg *clk, uint64_t icnt_min_latency,
                         struct synth_shape *out)
{
    struct clock_periods p;
    clock_periods_compute(clk, &p);
    out->n_parts = (unsigned)(c->sm_partitions + c->mem_partitions);
    out->n_units = (unsigned)(out->n_parts * c->units_per_partition);
    out->period[0] = p.dram;
    out->period[1] = p.l2;
    out->period[2] = p.icnt;
    out->period[3] = p.core;
    out->lookahead = icnt_min_latency * p.icnt;
}

static void q_push(struct synth_unit *u, const struct synth_job *j)
{
    if (u->q_n == u->q_cap) {
        size_t ncap = u->q_cap ? 2 * u->q_cap : 16;
        struct synth_job *nq = malloc(ncap * sizeof *nq);
        if (!nq)
            sim_panic("synth: out of memory");
        for (size_t i = 0; i < u->q_n; i++)
            nq[i] = u->q[(u->q_head + i) % u->q_cap];
        free(u->q);
        u->q = nq;
        u->q_head = 0;
        u->q_cap = ncap;
    }
    u->q[(u->q_head + u->q_n) % u->q_cap] = *j;
    u->q_n++;
}

static struct synth_job q_pop(struct synth_unit *u)
{
    struct synth_job j = u->q[u->q_head];
    u->q_head = (u->q_head + 1) % u->q_cap;
    u->q_n--;
    return j;
}

static ps_t synth_tick(void *self, struct eng_ctx *ctx, ps_t now)
{
    struct synth_unit *u = self;
    const struct synth_model *m = u->m;
    const struct synth_cfg *c = &m->cfg;

    if (u->busy && u->busy_until <= now) {
        u->st.served++;
        u->st.checksum = synth_hash(u->st.checksum, u->cur.id, now);
        u->st.last_ps = now;
        u->busy = false;
        if (--u->cur.hops_left == 0) {
            u->st.retired++;
        } else {
            uint32_t dst = (uint32_t)(synth_rand(&u->rng) % m->shape.n_units);
            uint64_t extra = synth_rand(&u->rng) % (c->latency_spread_ps + 1);
            bool local = dst / c->units_per_partition == u->partition;
            ps_t lat = (local ? 1 : m->shape.lookahead) + extra;
            struct synth_job j = u->cur;
            eng_send(ctx, u->id, dst, now, lat, 1, &j, sizeof j);
            u->st.sent++;
        }
    }
    if (!u->busy && u->q_n) {
        u->cur = q_pop(u);
        u->st.queue_ps += now - u->cur.arrival;
        uint64_t service = 1 + synth_rand(&u->rng) % c->max_service;
        u->busy_until = now + service * u->period;
        u->busy = true;
    }
    return u->busy ? u->busy_until : PS_NEVER;
}

static ps_t synth_recv(void *self, struct eng_ctx *ctx, const struct eng_msg *msg, ps_t now)
{
    struct synth_unit *u = self;
    struct synth_job j;
    (void)ctx;
    SIM_ASSERT(msg->len == sizeof j, "synth: bad message length %u", msg->len);
    memcpy(&j, msg->payload, sizeof j);
    j.arrival = now;
    q_push(u, &j);
    return now;
}

static const struct eng_unit_ops synth_ops = {"synth", synth_tick, synth_recv};

static void synth_part_init(void *model, struct eng_ctx *ctx, int partition)
{
    struct synth_model *m = model;
    const struct synth_cfg *c = &m->cfg;
    for (uint64_t i = 0; i < c->units_per_partition; i++) {
        uint32_t id = (uint32_t)(partition * c->units_per_partition + i);
        struct synth_unit *u = eng_alloc(ctx, sizeof *u);
        u->id = id;
        u->partition = (uint32_t)partition;
        u->period = m->shape.period[synth_unit_domain(c, id)];
        u->rng = synth_mix(c->seed ^ synth_mix(id + 1));
        u->m = m;
        for (uint64_t j = 0; j < c->jobs; j++) {
            struct synth_job job = {id * c->jobs + j, c->hops, 0};
            q_push(u, &job);
        }
        eng_unit_bind(ctx, id, u);
        m->units[id] = u;
        if (m->stats) {
            stats_counter(m->stats, "synth.unit", (int)id, "served", &u->st.served, "jobs served");
            stats_counter(m->stats, "synth.unit", (int)id, "retired", &u->st.retired, "jobs retired here");
            stats_counter(m->stats, "synth.unit", (int)id, "sent", &u->st.sent, "messages sent");
            stats_counter(m->stats, "synth.unit", (int)id, "queue_ps", &u->st.queue_ps,
                          "sum of queueing delays (ps)");
            stats_counter(m->stats, "synth.unit", (int)id, "checksum", &u->st.checksum,
                          "order-sensitive hash of service completions");
            stats_max(m->stats, "synth.unit", (int)id, "last_ps", &u->st.last_ps,
                      "time of the last service completion (ps)");
        }
    }
}

static void synth_part_fini(void *model, struct eng_ctx *ctx, int partition)
{
    struct synth_model *m = model;
    (void)ctx;
    for (uint64_t i = 0; i < m->cfg.units_per_partition; i++) {
        struct synth_unit *u = m->units[partition * m->cfg.units_per_partition + i];
        if (u)
            free(u->q);
    }
}

struct synth_model *synth_create(const struct synth_cfg *c, const struct engine_cfg *ec,
                                 const struct clock_cfg *clk, uint64_t icnt_min_latency, struct diag *d)
{
    struct synth_model *m = calloc(1, sizeof *m);
    if (!m)
        sim_panic("synth: out of memory");
    m->cfg = *c;
    synth_shape_compute(c, clk, icnt_min_latency, &m->shape);
    m->units = calloc(m->shape.n_units ? m->shape.n_units : 1, sizeof *m->units);
    if (!m->units)
        sim_panic("synth: out of memory");
    m->eng = eng_create(ec, m);
    int dom[4];
    for (int i = 0; i < 4; i++)
        dom[i] = eng_domain_add(m->eng, domain_names[i], m->shape.period[i]);
    for (unsigned p = 0; p < m->shape.n_parts; p++) {
        char name[32];
        bool sm = p < c->sm_partitions;
        snprintf(name, sizeof name, "%s%u", sm ? "sm" : "mem", sm ? p : (unsigned)(p - c->sm_partitions));
        eng_partition_add(m->eng, name, sm ? ENG_PART_SM : ENG_PART_MEM, synth_part_init, synth_part_fini);
    }
    for (uint32_t u = 0; u < m->shape.n_units; u++)
        eng_unit_add(m->eng, (int)(u / c->units_per_partition), dom[synth_unit_domain(c, u)], &synth_ops);
    /* Every unit may send to every unit: 1 ps inside a partition, L across. */
    for (uint32_t a = 0; a < m->shape.n_units; a++)
        for (uint32_t b = 0; b < m->shape.n_units; b++)
            eng_link_add(m->eng, a, b,
                         a / c->units_per_partition == b / c->units_per_partition ? 1 : m->shape.lookahead);
    if (eng_finalize(m->eng, d) != 0) {
        synth_destroy(m);
        return NULL;
    }
    return m;
}

struct engine *synth_engine(struct synth_model *m) { return m->eng; }
unsigned synth_n_units(const struct synth_model *m) { return m->shape.n_units; }
void synth_register_stats(struct synth_model *m, struct stats *s) { m->stats = s; }

void synth_collect(const struct synth_model *m, struct synth_unit_stats *out)
{
    for (unsigned u = 0; u < m->shape.n_units; u++) {
        if (m->units[u])
            out[u] = m->units[u]->st;
        else
            memset(&out[u], 0, sizeof out[u]);
    }
}

void synth_destroy(struct synth_model *m)
{
    if (!m)
        return;
    eng_destroy(m->eng);
    free(m->units);
    free(m);
}
