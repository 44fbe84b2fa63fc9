/* workloads/sp/host.c: driver for sp (survey propagation message passing on
 * a random 3-SAT instance, a fixed number of iterations).
 *
 * Input from --seed: n variables and m = 4.2 n clauses (near the random
 * 3-SAT threshold, where SP's surveys are non-trivial) of 3 distinct
 * variables each, every literal negated with probability 1/2. A variable is
 * drawn from the n/32 "hot" variables with probability 1/4 and uniformly
 * otherwise: hot variables occur in about 100 clauses, the others in about
 * 9.5, so clauses all over the grid (on every SM) read the same vprod entries
 * of the hot variables. The hot variables fill whole warps (ids 32 w ..
 * 32 w + 31 for every w that is a multiple of 32, i.e. the first warp of
 * every fourth CTA), so sp_vars's long occurrence walks neither stretch
 * every warp (divergence) nor pile up on one SM (a tail of a few CTAs).
 * The initial surveys are uniform in [0, 1).
 *
 * Launches per iteration: sp_vars over n threads, then sp_clauses over m
 * threads (256 per CTA), ping-ponging eta between two device arrays.
 *
 * Check: every final survey against a CPU reference that does the same
 * computation in the same order (occurrence lists in the same order, the
 * same products, zero counts, divisions and sums, each correctly rounded
 * fp32 because the kernels use __fmul_rn/__fadd_rn/__fsub_rn/__fdiv_rn and
 * the reference plain float arithmetic). That is bit-exact unless the host
 * compiler contracts a product and a sum into an FMA; the tolerance
 * (relative 1e-5, absolute 1e-6) leaves room for that over the few
 * iterations run, while a wrong survey (a skipped or extra occurrence, a
 * swapped sign, a sign flip in 1 - eta) is off by far more. The surveys do
 * not converge on these instances in so few iterations (the note's "last
 * change" is the largest change of the last iteration); the workload is the
 * message passing, not a SAT solver.
 */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

#define SP_K 3
#define SP_BLOCK 256
#define SP_HOT_EVERY 32 /* one hot variable per this many variables */

/* One iteration on the host, the kernels' computation in the same order:
 * sp_vars for every variable, then sp_clauses for every clause. */
static void sp_iter_cpu(const int *var, const unsigned char *neg, const int *vstart, const int *occ, int n, int m,
                        const float *eta_in, float *eta_out, float *vprod)
{
    for (int j = 0; j < n; j++) {
        float pp = 1.0f, pn = 1.0f;
        int zp = 0, zn = 0;
        for (int o = vstart[j]; o < vstart[j + 1]; o++) {
            int f = occ[o];
            float q = 1.0f - eta_in[f];
            if (q == 0.0f) {
                zp += !neg[f];
                zn += neg[f] != 0;
            } else if (neg[f]) {
                pn = pn * q;
            } else {
                pp = pp * q;
            }
        }
        vprod[4 * j + 0] = pp;
        vprod[4 * j + 1] = pn;
        vprod[4 * j + 2] = (float)zp;
        vprod[4 * j + 3] = (float)zn;
    }
    for (int a = 0; a < m; a++) {
        float r[SP_K];
        for (int p = 0; p < SP_K; p++) {
            int self = SP_K * a + p;
            const float *v = vprod + 4 * (size_t)var[self];
            int ng = neg[self] != 0;
            float same = v[ng], other = v[1 - ng], zsame = v[2 + ng], zother = v[3 - ng];
            float q = 1.0f - eta_in[self];
            float ps;
            if (q == 0.0f)
                ps = zsame > 1.0f ? 0.0f : same;
            else
                ps = zsame > 0.0f ? 0.0f : fminf(same / q, 1.0f);
            float pu = zother > 0.0f ? 0.0f : other;
            float pU = (1.0f - pu) * ps;
            float pS = (1.0f - ps) * pu;
            float p0 = ps * pu;
            float sum = (pU + pS) + p0;
            r[p] = sum > 0.0f ? pU / sum : 0.0f;
        }
        eta_out[SP_K * a + 0] = r[1] * r[2];
        eta_out[SP_K * a + 1] = r[0] * r[2];
        eta_out[SP_K * a + 2] = r[0] * r[1];
    }
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 400, 32768, 262144, 2097152);
    int iters = (int)wl_pick(w, 3, 3, 8, 8);
    int m = (int)((int64_t)n * 42 / 10);
    int n_edges = SP_K * m;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);

    int n_hot = n / SP_HOT_EVERY > 0 ? n / SP_HOT_EVERY : 1;
    int *var = wl_host_alloc(w, (size_t)n_edges * sizeof(int));
    unsigned char *neg = wl_host_alloc(w, (size_t)n_edges);
    for (int a = 0; a < m; a++)
        for (int p = 0; p < SP_K; p++) {
            int j, dup;
            do { /* three distinct variables per clause */
                if (wl_rng_below(&r, 4) == 0) {
                    uint32_t k = wl_rng_below(&r, (uint32_t)n_hot);
                    j = (int)((k / 32) * 32 * SP_HOT_EVERY + k % 32);
                } else {
                    j = (int)wl_rng_below(&r, (uint32_t)n);
                }
                dup = 0;
                for (int q = 0; q < p; q++)
                    dup |= var[SP_K * a + q] == j;
            } while (dup);
            var[SP_K * a + p] = j;
            neg[SP_K * a + p] = (unsigned char)wl_rng_below(&r, 2);
        }
    /* Occurrence lists (CSR by variable), edges in increasing order. */
    int *vstart = wl_host_alloc(w, (size_t)(n + 1) * sizeof(int));
    int *occ = wl_host_alloc(w, (size_t)n_edges * sizeof(int));
    int *fill = wl_host_alloc(w, (size_t)n * sizeof(int));
    for (int e = 0; e < n_edges; e++)
        vstart[var[e] + 1]++;
    for (int j = 0; j < n; j++)
        vstart[j + 1] += vstart[j];
    for (int e = 0; e < n_edges; e++)
        occ[vstart[var[e]] + fill[var[e]]++] = e;
    float *eta = wl_host_alloc(w, (size_t)n_edges * sizeof(float));
    for (int e = 0; e < n_edges; e++)
        eta[e] = wl_rng_float(&r, 0.0f, 1.0f);

    uint64_t d_var = wl_alloc_copy(w, var, (size_t)n_edges * sizeof(int));
    uint64_t d_neg = wl_alloc_copy(w, neg, (size_t)n_edges);
    uint64_t d_vstart = wl_alloc_copy(w, vstart, (size_t)(n + 1) * sizeof(int));
    uint64_t d_occ = wl_alloc_copy(w, occ, (size_t)n_edges * sizeof(int));
    uint64_t d_in = wl_alloc_copy(w, eta, (size_t)n_edges * sizeof(float));
    uint64_t d_out = wl_alloc(w, (size_t)n_edges * sizeof(float));
    uint64_t d_vprod = wl_alloc(w, (size_t)n * 4 * sizeof(float));
    gs_function *k_vars = wl_kernel(w, "sp_vars");
    gs_function *k_clauses = wl_kernel(w, "sp_clauses");
    for (int it = 0; it < iters && wl_ok(w); it++) {
        void *p_vars[] = {&d_neg, &d_vstart, &d_occ, &d_in, &d_vprod, &n};
        void *p_clauses[] = {&d_var, &d_neg, &d_vprod, &d_in, &d_out, &m};
        wl_launch(w, k_vars, (unsigned)((n + SP_BLOCK - 1) / SP_BLOCK), 1, 1, SP_BLOCK, 1, 1, 0, p_vars);
        wl_launch(w, k_clauses, (unsigned)((m + SP_BLOCK - 1) / SP_BLOCK), 1, 1, SP_BLOCK, 1, 1, 0, p_clauses);
        uint64_t t = d_in;
        d_in = d_out;
        d_out = t;
    }
    float *got = wl_host_alloc(w, (size_t)n_edges * sizeof(float));
    wl_dtoh(w, got, d_in, (size_t)n_edges * sizeof(float));

    if (wl_ok(w)) {
        float *tmp = wl_host_alloc(w, (size_t)n_edges * sizeof(float));
        float *cur = eta, *nxt = tmp;
        double change = 0.0, mean = 0.0;
        int max_deg = 0;
        float *vp = wl_host_alloc(w, (size_t)n * 4 * sizeof(float));
        for (int it = 0; it < iters && wl_ok(w); it++) {
            sp_iter_cpu(var, neg, vstart, occ, n, m, cur, nxt, vp);
            float *t = cur;
            cur = nxt;
            nxt = t;
        }
        for (int e = 0; e < n_edges; e++) {
            change = fmax(change, fabs((double)cur[e] - (double)nxt[e]));
            mean += cur[e];
        }
        for (int j = 0; j < n; j++)
            max_deg = vstart[j + 1] - vstart[j] > max_deg ? vstart[j + 1] - vstart[j] : max_deg;
        wl_note(w, "%d variables (%d hot, max occurrences %d), %d clauses, %d iterations: mean survey %.4f, last change %.4f",
                n, n_hot, max_deg, m, iters, mean / n_edges, change);
        wl_check_f32(w, "eta", got, cur, (size_t)n_edges, 1e-5, 1e-6);
        free(tmp);
        free(vp);
    }
    wl_free(w, d_var);
    wl_free(w, d_neg);
    wl_free(w, d_vstart);
    wl_free(w, d_occ);
    wl_free(w, d_in);
    wl_free(w, d_out);
    wl_free(w, d_vprod);
    free(var);
    free(neg);
    free(vstart);
    free(occ);
    free(fill);
    free(eta);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(sp) = {
    .name = "sp",
    .summary = "survey propagation message passing on a random 3-SAT factor graph (fixed iterations)",
    .mirrors = "LonestarGPU sp (seed 003 HIL set; message passing only, no decimation)",
    .stresses = "uncoalesced survey gathers over occurrence lists (LD/ST pipe, DRAM), hot variables read from every SM (inter-core locality)",
    .flags = WL_CACHE_SENS,
    .sizes = {"400 variables, 3 iterations", "32K variables, 3 iterations", "256K variables, 8 iterations",
              "2M variables, 8 iterations"},
    .run = run,
};
