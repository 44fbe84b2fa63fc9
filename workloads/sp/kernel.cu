// workloads/sp: survey propagation message passing on a random 3-SAT factor
// graph (written for gpusim; a simplified version of LonestarGPU's sp, which
// also decimates variables between rounds: here only the message passing,
// for a fixed number of iterations).
//
// Clause a has K = 3 literals; edge e = 3a + p joins it to variable var[e]
// with sign neg[e] (1: the literal is negated). The survey eta[e] in [0, 1]
// is the message from clause a to that variable. One iteration is two
// launches; every thread writes only its own outputs (no atomics, no races)
// and the host ping-pongs eta_in / eta_out:
//   sp_vars (one thread per variable j): over j's occurrence list (CSR
//     occ[vstart[j] .. vstart[j + 1]), in list order) multiply the factors
//     q_f = 1 - eta_in[f] of the positive and of the negated occurrences
//     separately, leaving out factors that are 0 and counting them instead:
//     vprod[j] = {product+, product-, zeros+, zeros-};
//   sp_clauses (one thread per clause a): for each literal position p,
//     variable j, the products over j's other occurrences follow from
//     vprod[j] without walking the list: the same-sign product ps divides
//     out the clause's own factor q_self (or, when q_self is 0, drops one
//     zero), the opposite-sign product pu is product or 0 when it has
//     zeros. Then with
//       Pu = (1 - pu) ps, Ps = (1 - ps) pu, P0 = ps pu,
//       r_p = Pu / (Pu + Ps + P0), or 0 when that sum is 0,
//     eta_out[3a + i] = product of r_p over the two positions p != i (the
//     standard SP update).
// Every operation is an explicitly rounded intrinsic (__fmul_rn etc.), so
// nvcc contracts nothing into an FMA and the host reference repeats the
// computation bit for bit.
// Inter-core locality: a few "hot" variables occur in many clauses spread
// over the whole grid, so sp_clauses threads on every SM read the same
// vprod entries (and sp_vars gathers surveys of clauses all over the array).

#define K 3

extern "C" __global__ void sp_vars(const unsigned char *__restrict__ neg, const int *__restrict__ vstart,
                                   const int *__restrict__ occ, const float *__restrict__ eta_in,
                                   float4 *__restrict__ vprod, int n_vars)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n_vars)
        return;
    float pp = 1.0f, pn = 1.0f;
    int zp = 0, zn = 0;
#pragma unroll 1
    for (int o = vstart[j]; o < vstart[j + 1]; o++) {
        int f = occ[o];
        float q = __fsub_rn(1.0f, eta_in[f]);
        bool n = neg[f] != 0;
        if (q == 0.0f) {
            zp += !n;
            zn += n;
        } else if (n) {
            pn = __fmul_rn(pn, q);
        } else {
            pp = __fmul_rn(pp, q);
        }
    }
    vprod[j] = make_float4(pp, pn, (float)zp, (float)zn);
}

extern "C" __global__ void sp_clauses(const int *__restrict__ var, const unsigned char *__restrict__ neg,
                                      const float4 *__restrict__ vprod, const float *__restrict__ eta_in,
                                      float *__restrict__ eta_out, int n_clauses)
{
    int a = blockIdx.x * blockDim.x + threadIdx.x;
    if (a >= n_clauses)
        return;
    float r[K];
#pragma unroll
    for (int p = 0; p < K; p++) {
        int self = K * a + p;
        float4 v = vprod[var[self]];
        bool n = neg[self] != 0;
        float same = n ? v.y : v.x, other = n ? v.x : v.y;
        float zsame = n ? v.w : v.z, zother = n ? v.z : v.w;
        float q = __fsub_rn(1.0f, eta_in[self]);
        float ps;
        if (q == 0.0f)
            ps = zsame > 1.0f ? 0.0f : same; // drop the own zero
        else
            ps = zsame > 0.0f ? 0.0f : fminf(__fdiv_rn(same, q), 1.0f); // rounding may leave it above 1
        float pu = zother > 0.0f ? 0.0f : other;
        float pU = __fmul_rn(__fsub_rn(1.0f, pu), ps);
        float pS = __fmul_rn(__fsub_rn(1.0f, ps), pu);
        float p0 = __fmul_rn(ps, pu);
        float sum = __fadd_rn(__fadd_rn(pU, pS), p0);
        r[p] = sum > 0.0f ? __fdiv_rn(pU, sum) : 0.0f;
    }
    eta_out[K * a + 0] = __fmul_rn(r[1], r[2]);
    eta_out[K * a + 1] = __fmul_rn(r[0], r[2]);
    eta_out[K * a + 2] = __fmul_rn(r[0], r[1]);
}
