/* tests/support/synth_ref.c: the synthetic model of sim/synth/synth.h written as a
 * plain sequential event-driven program, sharing no code with the engine.
 *
 * One global loop: T = the earliest pending message arrival or unit wake-up;
 * deliver every message due at T in (arrival, source, sequence) order, then
 * tick every unit due at T in (domain rank, unit id) order. This is the
 * semantics the engine promises in exact mode; tests compare the two.
 */
#include "support/synth_ref.h"

#include <stdlib.h>
#include <string.h>

struct ref_job {
    uint64_t id, hops_left;
    ps_t arrival;
};

struct ref_msg {
    ps_t arrival;
    uint32_t src;
    uint64_t seq;
    uint32_t dst;
    struct ref_job job;
};

struct ref_unit {
    uint64_t rng;
    struct ref_job *q;
    size_t head, n, cap;
    int busy;
    struct ref_job cur;
    ps_t busy_until, next;
    ps_t period;
    int domain;
    uint64_t seq;
};

static int msg_less(const struct ref_msg *a, const struct ref_msg *b)
{
    if (a->arrival != b->arrival)
        return a->arrival < b->arrival;
    if (a->src != b->src)
        return a->src < b->src;
    return a->seq < b->seq;
}

struct ref_heap {
    struct ref_msg *v;
    size_t n, cap;
};

static void rh_push(struct ref_heap *h, struct ref_msg m)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 64;
        h->v = realloc(h->v, h->cap * sizeof *h->v);
    }
    size_t i = h->n++;
    while (i && msg_less(&m, &h->v[(i - 1) / 2])) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = m;
}

static struct ref_msg rh_pop(struct ref_heap *h)
{
    struct ref_msg top = h->v[0], last = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && msg_less(&h->v[c + 1], &h->v[c]))
            c++;
        if (!msg_less(&h->v[c], &last))
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n)
        h->v[i] = last;
    return top;
}

static void uq_push(struct ref_unit *u, struct ref_job j)
{
    if (u->n == u->cap) {
        size_t nc = u->cap ? u->cap * 2 : 16;
        struct ref_job *nq = malloc(nc * sizeof *nq);
        for (size_t i = 0; i < u->n; i++)
            nq[i] = u->q[(u->head + i) % u->cap];
        free(u->q);
        u->q = nq;
        u->head = 0;
        u->cap = nc;
    }
    u->q[(u->head + u->n++) % u->cap] = j;
}

static ps_t edge_ge(ps_t t, ps_t p) { return (t + p - 1) / p * p; }

ps_t synth_ref_run(const struct synth_cfg *c, const struct clock_cfg *clk, uint64_t icnt_min_latency,
                   struct synth_unit_stats *out)
{
    struct synth_shape sh;
    synth_shape_compute(c, clk, icnt_min_latency, &sh);
    unsigned n = sh.n_units;
    struct ref_unit *u = calloc(n, sizeof *u);
    unsigned *order = calloc(n, sizeof *order);
    struct ref_heap h = {0};
    memset(out, 0, n * sizeof *out);

    for (unsigned i = 0; i < n; i++) {
        u[i].domain = synth_unit_domain(c, i);
        u[i].period = sh.period[u[i].domain];
        u[i].rng = synth_mix(c->seed ^ synth_mix((uint64_t)i + 1));
        u[i].next = 0;
        for (uint64_t j = 0; j < c->jobs; j++)
            uq_push(&u[i], (struct ref_job){i * c->jobs + j, c->hops, 0});
    }
    /* tick order: domain rank, then id (insertion sort, n is small) */
    for (unsigned i = 0; i < n; i++) {
        unsigned k = i;
        while (k > 0 && (u[order[k - 1]].domain > u[i].domain))
            order[k] = order[k - 1], k--;
        order[k] = i;
    }

    ps_t last = 0;
    for (;;) {
        ps_t T = h.n ? h.v[0].arrival : PS_NEVER;
        for (unsigned i = 0; i < n; i++)
            if (u[i].next < T)
                T = u[i].next;
        if (T == PS_NEVER)
            break;
        last = T;
        while (h.n && h.v[0].arrival == T) {
            struct ref_msg m = rh_pop(&h);
            struct ref_unit *d = &u[m.dst];
            m.job.arrival = T;
            uq_push(d, m.job);
            ps_t e = edge_ge(T, d->period);
            if (e < d->next)
                d->next = e;
        }
        for (unsigned k = 0; k < n; k++) {
            unsigned i = order[k];
            struct ref_unit *x = &u[i];
            if (x->next != T)
                continue;
            if (x->busy && x->busy_until <= T) {
                out[i].served++;
                out[i].checksum = synth_hash(out[i].checksum, x->cur.id, T);
                out[i].last_ps = T;
                x->busy = 0;
                x->cur.hops_left--;
                if (x->cur.hops_left == 0) {
                    out[i].retired++;
                } else {
                    uint32_t dst = (uint32_t)(synth_rand(&x->rng) % n);
                    uint64_t extra = synth_rand(&x->rng) % (c->latency_spread_ps + 1);
                    int same = dst / c->units_per_partition == i / c->units_per_partition;
                    struct ref_msg m = {T + (same ? 1 : sh.lookahead) + extra, i, x->seq++, dst, x->cur};
                    rh_push(&h, m);
                    out[i].sent++;
                }
            }
            if (!x->busy && x->n) {
                x->cur = x->q[x->head];
                x->head = (x->head + 1) % x->cap;
                x->n--;
                out[i].queue_ps += T - x->cur.arrival;
                x->busy_until = T + (1 + synth_rand(&x->rng) % c->max_service) * x->period;
                x->busy = 1;
            }
            x->next = x->busy ? x->busy_until : PS_NEVER;
        }
    }
    for (unsigned i = 0; i < n; i++)
        free(u[i].q);
    free(u);
    free(order);
    free(h.v);
    return last;
}
