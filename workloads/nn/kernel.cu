// workloads/nn: k nearest neighbours of a target location among n records
// (latitude, longitude), mirroring Rodinia nn, written for gpusim.
//
// nn_dist: one thread per record computes the Euclidean distance (degrees)
// from its (lat, lng) pair to the target; the records are an array of
// float2, so a warp reads 256 contiguous bytes. Purely streaming.
//
// nn_select: each CTA of SELECT_THREADS threads takes a chunk of
// SELECT_THREADS * SELECT_PER_THREAD consecutive distances and writes its k
// smallest (distance, index) pairs in ascending order, so the host merges
// only gridDim.x * k candidates. Every thread keeps its SELECT_PER_THREAD
// distances in registers; each of the k rounds finds the CTA-wide minimum
// (ties broken by the lower index) with a warp-shuffle reduction and a
// shuffle pass of the first warp over the warp winners, then the owner
// thread retires that element.
#define SELECT_THREADS 256
#define SELECT_PER_THREAD 8
#define SELECT_WARPS (SELECT_THREADS / 32)

extern "C" __global__ void nn_dist(const float2 *__restrict__ rec, float *__restrict__ dist, int n, float lat,
                                   float lng)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 r = rec[i];
        float dlat = r.x - lat, dlng = r.y - lng;
        dist[i] = sqrtf(dlat * dlat + dlng * dlng);
    }
}

// true when (d1, i1) orders before (d2, i2)
__device__ __forceinline__ bool before(float d1, int i1, float d2, int i2)
{
    return d1 < d2 || (d1 == d2 && i1 < i2);
}

// Minimum (distance, index) over the lanes of a warp, landing in lane 0.
__device__ __forceinline__ void warp_min(float &bd, int &bi, int width)
{
    for (int off = width / 2; off > 0; off >>= 1) {
        float od = __shfl_down_sync(0xffffffffu, bd, off);
        int oi = __shfl_down_sync(0xffffffffu, bi, off);
        if (before(od, oi, bd, bi)) {
            bd = od;
            bi = oi;
        }
    }
}

extern "C" __global__ void __launch_bounds__(SELECT_THREADS)
nn_select(const float *__restrict__ dist, int n, int k, float *__restrict__ cand_dist, int *__restrict__ cand_idx)
{
    const float inf = __int_as_float(0x7f800000);
    __shared__ float s_d[SELECT_WARPS];
    __shared__ int s_i[SELECT_WARPS];
    __shared__ int s_win;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int base = blockIdx.x * SELECT_THREADS * SELECT_PER_THREAD + threadIdx.x;
    // Element j of this thread is record base + j * SELECT_THREADS (coalesced
    // loads); records past n are +inf and never win while finite ones remain.
    float d[SELECT_PER_THREAD];
#pragma unroll
    for (int j = 0; j < SELECT_PER_THREAD; j++) {
        int i = base + j * SELECT_THREADS;
        d[j] = i < n ? dist[i] : inf;
    }
    for (int round = 0; round < k; round++) {
        // this thread's best remaining element (strict < keeps the lower index)
        float bd = d[0];
        int bi = base;
#pragma unroll
        for (int j = 1; j < SELECT_PER_THREAD; j++)
            if (d[j] < bd) {
                bd = d[j];
                bi = base + j * SELECT_THREADS;
            }
        warp_min(bd, bi, 32);
        if (lane == 0) {
            s_d[warp] = bd;
            s_i[warp] = bi;
        }
        __syncthreads();
        // CTA minimum over the warp winners, by the first warp
        if (warp == 0) {
            bd = lane < SELECT_WARPS ? s_d[lane] : inf;
            bi = lane < SELECT_WARPS ? s_i[lane] : 0x7fffffff;
            warp_min(bd, bi, SELECT_WARPS);
            if (lane == 0) {
                s_win = bi;
                cand_dist[blockIdx.x * k + round] = bd;
                cand_idx[blockIdx.x * k + round] = bd < inf ? bi : -1;
            }
        }
        __syncthreads();
        // The owner retires the winner. (s_win and s_d/s_i are rewritten in
        // the next round only after its first barrier, which every thread
        // reaches after reading them here, so no third barrier is needed.)
        int win = s_win;
#pragma unroll
        for (int j = 0; j < SELECT_PER_THREAD; j++)
            if (base + j * SELECT_THREADS == win)
                d[j] = inf;
    }
}
