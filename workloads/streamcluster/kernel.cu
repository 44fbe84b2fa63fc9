// workloads/streamcluster: the gain evaluation of the online facility-
// location local search (pgain) at the heart of Rodinia streamcluster,
// written for gpusim.
//
// Points are weighted vectors in `dim` dimensions stored dimension-major
// (coord[k * n + i], so a warp reads 32 consecutive floats per dimension).
// Every point i is assigned to a center (assign[i], a point index) at cost
// cost[i] = weight[i] * |p_i - p_assign[i]|^2. Open centers are numbered by
// slot (slot_of[c] for a center point c).
//
// sc_pgain: for candidate point x, every point computes its cost if served
//   by x, x_cost = weight * |p_i - p_x|^2 (x's coordinates staged in shared
//   memory). A point that is cheaper at x would switch (switch_flag = 1) and
//   contributes x_cost - cost (< 0) to slot nslots, the saving of opening x;
//   any other point contributes cost - x_cost (<= 0) to its center's slot,
//   what closing that center would cost if the point moved to x. Each CTA
//   sums its contributions per slot in point order (the first warp scans
//   the CTA's contributions, one slot per lane), so the partial sums are
//   deterministic: partial[blockIdx.x * (nslots + 1) + slot].
// sc_apply: once the host has decided to open x and close some centers
//   (close_slot[slot] = 1), every point that switches or whose center closes
//   moves to x.
#define PG_THREADS 256

extern "C" __global__ void __launch_bounds__(PG_THREADS)
sc_pgain(const float *__restrict__ coord, const float *__restrict__ weight, const float *__restrict__ cost,
         const int *__restrict__ assign, const int *__restrict__ slot_of, int x, int n, int dim, int nslots,
         float *__restrict__ x_cost, int *__restrict__ switch_flag, float *__restrict__ partial)
{
    extern __shared__ float s_x[]; // dim floats: the candidate's coordinates
    __shared__ float s_contrib[PG_THREADS];
    __shared__ int s_slot[PG_THREADS];
    const int t = threadIdx.x, i = blockIdx.x * PG_THREADS + t;
    for (int k = t; k < dim; k += PG_THREADS)
        s_x[k] = coord[(size_t)k * n + x];
    __syncthreads();
    int slot = -1; // threads past n contribute nowhere
    float contrib = 0.0f;
    if (i < n) {
        float d2 = 0.0f;
        for (int k = 0; k < dim; k++) {
            float diff = coord[(size_t)k * n + i] - s_x[k];
            d2 += diff * diff;
        }
        float xc = d2 * weight[i], cur = cost[i];
        bool sw = xc < cur;
        x_cost[i] = xc;
        switch_flag[i] = sw;
        if (sw) {
            slot = nslots;
            contrib = xc - cur;
        } else {
            slot = slot_of[assign[i]];
            contrib = cur - xc;
        }
    }
    s_contrib[t] = contrib;
    s_slot[t] = slot;
    __syncthreads();
    if (t < 32) {
        for (int s = t; s <= nslots; s += 32) {
            float acc = 0.0f;
            for (int j = 0; j < PG_THREADS; j++)
                if (s_slot[j] == s)
                    acc += s_contrib[j];
            partial[(size_t)blockIdx.x * (nslots + 1) + s] = acc;
        }
    }
}

extern "C" __global__ void sc_apply(const float *__restrict__ x_cost, const int *__restrict__ switch_flag,
                                    const int *__restrict__ slot_of, const int *__restrict__ close_slot, int x,
                                    int n, int *__restrict__ assign, float *__restrict__ cost)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (switch_flag[i] || close_slot[slot_of[assign[i]]])) {
        assign[i] = x;
        cost[i] = x_cost[i];
    }
}
