/* workloads/streamcluster/host.c: driver for streamcluster (the pgain local
 * search step of online facility-location clustering).
 *
 * Inputs: n points in `dim` dimensions around C random blob centers in
 * [0, 1)^dim (offsets (u1 + u2 - 1) * 0.08 per dimension), integer weights
 * 1..4, facility cost z = 0.01 * dim * n / C (opening a center for a new
 * blob pays off, a second center inside a blob does not).
 *
 * The search, as in Rodinia's pFL: start with point 0 as the only center;
 * for each of ncand candidates (random non-center points) evaluate the
 * gain of opening it (sc_pgain on the device, per-CTA partial sums per
 * center slot, summed over CTAs on the host in CTA order). Closing a center
 * pays off when z plus its slot's sum is positive; opening x is accepted
 * when z + (switch savings) - (savings of the closed centers) < 0, and then
 * sc_apply moves the switching points and the closed centers' points to x.
 * Centers are renumbered into slots by point index after every change.
 *
 * Check: a CPU run of the same search, whose pgain computes each distance
 * with the kernel's operation order (an fma chain over the dimensions) and
 * sums each CTA's contributions per slot in point order, like the kernel.
 * Integer decisions (center opened per candidate, number of centers, final
 * assignment of every point) must match exactly. Costs are compared with a
 * small tolerance although they normally agree bit for bit: the final point
 * costs relative 1e-6 (absolute 1e-6 near 0) and each candidate's total
 * change relative 1e-5 (a float sum of up to 256 terms per CTA, summed in
 * double), which is what a differently contracted distance (a few ulp per
 * term) could move them by. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "wl.h"

#define PG_THREADS 256
#define APPLY_THREADS 256

struct problem {
    int n, dim, ncand;
    float *coord;  /* dim-major: coord[k * n + i] */
    float *weight; /* per point */
    double z;      /* facility cost */
    int *cand;     /* ncand candidate points (advanced past centers) */
};

/* Search state: assign/cost per point; slot_of[c] >= 0 numbers the open
 * centers by point index, -1 for other points. */
struct state {
    int *assign, *slot_of, nslots;
    float *cost;
};

/* Outcome of each candidate step. */
struct trace {
    double *change; /* total cost change of opening (applied when < 0) */
    int *opened;    /* 1 when the candidate became a center */
    int *centers;   /* open centers after the step */
};

/* Every step opens at most one center, so there are at most ncand + 1
 * centers: partial sums per CTA never need more than ncand + 2 slots. */
static int max_slots(const struct problem *p) { return p->ncand + 2; }

/* Weighted squared distance of point i to point x, in the kernel's order. */
static float x_cost(const struct problem *p, int i, int x)
{
    float d2 = 0.0f;
    for (int k = 0; k < p->dim; k++) {
        float diff = p->coord[(size_t)k * p->n + i] - p->coord[(size_t)k * p->n + x];
        d2 = fmaf(diff, diff, d2);
    }
    return d2 * p->weight[i];
}

static void renumber(struct state *s, int n)
{
    s->nslots = 0;
    for (int i = 0; i < n; i++)
        if (s->slot_of[i] >= 0)
            s->slot_of[i] = s->nslots++;
}

/* The first non-center point at or after the candidate. */
static int pick(const struct problem *p, const struct state *s, int c)
{
    int x = p->cand[c];
    while (s->slot_of[x] >= 0)
        x = (x + 1) % p->n;
    return x;
}

/* Host part of pgain: sum the CTA partials (CTA order, double), decide which
 * centers close (close[slot]) and return the total change of opening x. */
static double decide(const float *partial, int nblocks, int nslots, double z, int *close)
{
    double change = z;
    for (int b = 0; b < nblocks; b++)
        change += partial[(size_t)b * (nslots + 1) + nslots];
    for (int s = 0; s < nslots; s++) {
        double low = z;
        for (int b = 0; b < nblocks; b++)
            low += partial[(size_t)b * (nslots + 1) + s];
        close[s] = low > 0;
        if (close[s])
            change -= low;
    }
    return change;
}

/* After opening x: drop the closed centers, add x, renumber. */
static void update_centers(struct state *s, int n, const int *close, int x)
{
    for (int i = 0; i < n; i++)
        if (s->slot_of[i] >= 0 && close[s->slot_of[i]])
            s->slot_of[i] = -1;
    s->slot_of[x] = 0;
    renumber(s, n);
}

/* CPU pgain: x_cost, switch flags and per-CTA partial sums as the kernel
 * forms them. */
static void cpu_pgain(const struct problem *p, const struct state *s, int x, float *xc, int *sw, float *partial)
{
    int nb = (p->n + PG_THREADS - 1) / PG_THREADS;
    for (size_t j = 0; j < (size_t)nb * (s->nslots + 1); j++)
        partial[j] = 0.0f;
    for (int i = 0; i < p->n; i++) {
        float *part = partial + (size_t)(i / PG_THREADS) * (s->nslots + 1);
        xc[i] = x_cost(p, i, x);
        sw[i] = xc[i] < s->cost[i];
        if (sw[i])
            part[s->nslots] += xc[i] - s->cost[i];
        else
            part[s->slot_of[s->assign[i]]] += s->cost[i] - xc[i];
    }
}

/* The whole search on the CPU. */
static void cpu_search(struct wl *w, const struct problem *p, struct state *s, struct trace *tr)
{
    int nb = (p->n + PG_THREADS - 1) / PG_THREADS;
    float *xc = wl_host_alloc(w, (size_t)p->n * sizeof(float));
    int *sw = wl_host_alloc(w, (size_t)p->n * sizeof(int));
    float *partial = wl_host_alloc(w, (size_t)nb * max_slots(p) * sizeof(float));
    int *close = wl_host_alloc(w, (size_t)max_slots(p) * sizeof(int));
    for (int c = 0; c < p->ncand; c++) {
        int x = pick(p, s, c);
        cpu_pgain(p, s, x, xc, sw, partial);
        tr->change[c] = decide(partial, nb, s->nslots, p->z, close);
        tr->opened[c] = tr->change[c] < 0;
        if (tr->opened[c]) {
            for (int i = 0; i < p->n; i++)
                if (sw[i] || close[s->slot_of[s->assign[i]]]) {
                    s->assign[i] = x;
                    s->cost[i] = xc[i];
                }
            update_centers(s, p->n, close, x);
        }
        tr->centers[c] = s->nslots;
    }
    free(xc);
    free(sw);
    free(partial);
    free(close);
}

/* The same search with pgain and the update on the device; s->assign and
 * s->cost are read back at the end. */
static void gpu_search(struct wl *w, const struct problem *p, struct state *s, struct trace *tr)
{
    int n = p->n, dim = p->dim;
    unsigned nb = (unsigned)((n + PG_THREADS - 1) / PG_THREADS);
    float *partial = wl_host_alloc(w, (size_t)nb * max_slots(p) * sizeof(float));
    int *close = wl_host_alloc(w, (size_t)max_slots(p) * sizeof(int));
    uint64_t dcoord = wl_alloc_copy(w, p->coord, (size_t)n * dim * sizeof(float));
    uint64_t dweight = wl_alloc_copy(w, p->weight, (size_t)n * sizeof(float));
    uint64_t dcost = wl_alloc_copy(w, s->cost, (size_t)n * sizeof(float));
    uint64_t dassign = wl_alloc_copy(w, s->assign, (size_t)n * sizeof(int));
    uint64_t dslot = wl_alloc_copy(w, s->slot_of, (size_t)n * sizeof(int));
    uint64_t dxc = wl_alloc(w, (size_t)n * sizeof(float));
    uint64_t dsw = wl_alloc(w, (size_t)n * sizeof(int));
    uint64_t dclose = wl_alloc(w, (size_t)max_slots(p) * sizeof(int));
    uint64_t dpartial = wl_alloc(w, (size_t)nb * max_slots(p) * sizeof(float));
    gs_function *fpg = wl_kernel(w, "sc_pgain");
    gs_function *fap = wl_kernel(w, "sc_apply");
    for (int c = 0; c < p->ncand && wl_ok(w); c++) {
        int x = pick(p, s, c), nslots = s->nslots;
        void *pp[] = {&dcoord, &dweight, &dcost, &dassign, &dslot, &x, &n, &dim, &nslots, &dxc, &dsw, &dpartial};
        wl_launch(w, fpg, nb, 1, 1, PG_THREADS, 1, 1, (unsigned)(dim * sizeof(float)), pp);
        wl_dtoh(w, partial, dpartial, (size_t)nb * (nslots + 1) * sizeof(float));
        if (!wl_ok(w))
            break;
        tr->change[c] = decide(partial, (int)nb, nslots, p->z, close);
        tr->opened[c] = tr->change[c] < 0;
        if (tr->opened[c]) {
            wl_htod(w, dclose, close, (size_t)nslots * sizeof(int));
            void *pa[] = {&dxc, &dsw, &dslot, &dclose, &x, &n, &dassign, &dcost};
            wl_launch(w, fap, (unsigned)((n + APPLY_THREADS - 1) / APPLY_THREADS), 1, 1, APPLY_THREADS, 1, 1, 0,
                      pa);
            update_centers(s, n, close, x);
            wl_htod(w, dslot, s->slot_of, (size_t)n * sizeof(int));
        }
        tr->centers[c] = s->nslots;
    }
    wl_dtoh(w, s->assign, dassign, (size_t)n * sizeof(int));
    wl_dtoh(w, s->cost, dcost, (size_t)n * sizeof(float));
    free(partial);
    free(close);
}

/* Point 0 as the only center. */
static void init_state(struct wl *w, const struct problem *p, struct state *s)
{
    s->assign = wl_host_alloc(w, (size_t)p->n * sizeof(int));
    s->slot_of = wl_host_alloc(w, (size_t)p->n * sizeof(int));
    s->cost = wl_host_alloc(w, (size_t)p->n * sizeof(float));
    for (int i = 0; i < p->n; i++) {
        s->assign[i] = 0;
        s->slot_of[i] = i == 0 ? 0 : -1;
        s->cost[i] = x_cost(p, i, 0);
    }
    s->nslots = 1;
}

static void alloc_trace(struct wl *w, struct trace *tr, int ncand)
{
    tr->change = wl_host_alloc(w, (size_t)ncand * sizeof(double));
    tr->opened = wl_host_alloc(w, (size_t)ncand * sizeof(int));
    tr->centers = wl_host_alloc(w, (size_t)ncand * sizeof(int));
}

static void free_run(struct state *s, struct trace *tr)
{
    free(s->assign);
    free(s->slot_of);
    free(s->cost);
    free(tr->change);
    free(tr->opened);
    free(tr->centers);
}

static int run(struct wl *w)
{
    struct problem p;
    p.n = (int)wl_pick(w, 1000, 8192, 32768, 131072);
    p.dim = (int)wl_pick(w, 8, 32, 64, 128);
    p.ncand = (int)wl_pick(w, 12, 80, 120, 100);
    const int nblobs = (int)wl_pick(w, 5, 12, 16, 20);
    p.z = 0.01 * p.dim * p.n / nblobs;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *blob = wl_host_alloc(w, (size_t)nblobs * p.dim * sizeof(float));
    for (int j = 0; j < nblobs * p.dim; j++)
        blob[j] = wl_rng_float(&r, 0.0f, 1.0f);
    p.coord = wl_host_alloc(w, (size_t)p.n * p.dim * sizeof(float));
    p.weight = wl_host_alloc(w, (size_t)p.n * sizeof(float));
    for (int i = 0; i < p.n; i++) {
        int b = (int)wl_rng_below(&r, (uint32_t)nblobs);
        for (int k = 0; k < p.dim; k++) {
            float off = wl_rng_float(&r, 0.0f, 1.0f) + wl_rng_float(&r, 0.0f, 1.0f) - 1.0f;
            p.coord[(size_t)k * p.n + i] = blob[b * p.dim + k] + 0.08f * off;
        }
        p.weight[i] = (float)(1 + wl_rng_below(&r, 4));
    }
    p.cand = wl_host_alloc(w, (size_t)p.ncand * sizeof(int));
    for (int c = 0; c < p.ncand; c++)
        p.cand[c] = (int)wl_rng_below(&r, (uint32_t)p.n);

    struct state gs, rs;
    struct trace gt, rt;
    init_state(w, &p, &gs);
    init_state(w, &p, &rs);
    alloc_trace(w, &gt, p.ncand);
    alloc_trace(w, &rt, p.ncand);
    gpu_search(w, &p, &gs, &gt);
    if (wl_ok(w)) {
        cpu_search(w, &p, &rs, &rt);
        int opened = 0;
        for (int c = 0; c < p.ncand; c++)
            opened += gt.opened[c];
        wl_note(w, "%d points, %d dims, %d candidates: %d opened, %d centers at the end", p.n, p.dim, p.ncand,
                opened, gs.nslots);
        wl_check_i32(w, "opened", gt.opened, rt.opened, (size_t)p.ncand);
        wl_check_i32(w, "centers", gt.centers, rt.centers, (size_t)p.ncand);
        wl_check_f64(w, "change", gt.change, rt.change, (size_t)p.ncand, 1e-5, 0.0);
        wl_check_i32(w, "assign", gs.assign, rs.assign, (size_t)p.n);
        wl_check_f32(w, "cost", gs.cost, rs.cost, (size_t)p.n, 1e-6, 1e-6);
    }
    free_run(&gs, &gt);
    free_run(&rs, &rt);
    free(blob);
    free(p.coord);
    free(p.weight);
    free(p.cand);
    return wl_finish(w);
}

WL_REGISTER(streamcluster) = {
    .name = "streamcluster",
    .summary = "facility-location local search: pgain (cost change of opening a candidate) + apply per step",
    .mirrors = "Rodinia streamcluster",
    .stresses = "memory-bound distance pass per candidate, serial per-CTA reduction, host-device loop",
    .sizes = {"1000 points x 8 dims, 12 candidates", "8192 x 32, 80 candidates", "32768 x 64, 120 candidates",
              "131072 x 128, 100 candidates"},
    .run = run,
};
