// workloads/workqueue: dynamic load balancing with a global work queue.
// Persistent blocks repeatedly claim the next task with atomicAdd on a
// global counter until the queue is empty (the persistent-threads /
// work-stealing-lite pattern of irregular GPU codes, e.g. ray tracing and
// Mandelbrot work queues).
//
// Task t is a range of task_len[t] consecutive integers starting at
// task_start[t]; its result is the sum and the maximum of their Collatz
// total stopping times (steps of n -> n/2 or 3n+1 until 1, in 64-bit).
// Task costs are very uneven: lengths span two orders of magnitude and the
// step counts vary per number (divergent loops inside each warp).
//
// When the queue is empty, each block counts itself done (after a fence);
// the last block to finish reads every task's result, written by the other
// blocks in this launch (volatile loads after a fence), and reduces the
// grand total and maximum (the "last block" pattern of single-pass
// reductions). No block ever waits for another, so the grid need not be
// resident; the host launches one persistent block per resident slot.

#define BLOCK 256

__device__ static unsigned collatz_steps(unsigned long long n)
{
    unsigned steps = 0;
    while (n != 1) {
        n = (n & 1) ? 3 * n + 1 : n >> 1;
        steps++;
    }
    return steps;
}

// Block-wide sum and maximum of (s, m); the result is valid in thread 0.
__device__ static void block_sum_max(unsigned long long &s, unsigned &m)
{
    __shared__ unsigned long long s_sum[BLOCK / 32];
    __shared__ unsigned s_max[BLOCK / 32];
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_down_sync(0xffffffffu, s, o);
        m = max(m, __shfl_down_sync(0xffffffffu, m, o));
    }
    if ((threadIdx.x & 31) == 0) {
        s_sum[threadIdx.x >> 5] = s;
        s_max[threadIdx.x >> 5] = m;
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int w = 1; w < BLOCK / 32; w++) {
            s += s_sum[w];
            m = max(m, s_max[w]);
        }
    __syncthreads(); // s_sum/s_max may be reused by the next call
}

extern "C" __global__ void __launch_bounds__(BLOCK)
    collatz_queue(const unsigned *__restrict__ task_start, const unsigned *__restrict__ task_len, int n_tasks,
                  unsigned *next_task, unsigned *blocks_done, unsigned *task_sum, unsigned *task_max,
                  unsigned long long *grand)
{
    __shared__ int s_task;
    __shared__ bool s_last;
    for (;;) {
        if (threadIdx.x == 0)
            s_task = (int)atomicAdd(next_task, 1u);
        __syncthreads();
        int t = s_task;
        if (t >= n_tasks)
            break; // uniform: every thread read the same task
        unsigned start = task_start[t], len = task_len[t];
        unsigned long long sum = 0;
        unsigned mx = 0;
        for (unsigned i = threadIdx.x; i < len; i += BLOCK) {
            unsigned st = collatz_steps((unsigned long long)start + i);
            sum += st;
            mx = max(mx, st);
        }
        block_sum_max(sum, mx); // its barriers also protect s_task
        if (threadIdx.x == 0) {
            task_sum[t] = (unsigned)sum;
            task_max[t] = mx;
        }
    }
    // Queue empty: the last block to get here reduces all task results.
    if (threadIdx.x == 0) {
        __threadfence(); // this block's task results before its done count
        s_last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
        if (s_last)
            __threadfence(); // everybody's results are visible to this block
    }
    __syncthreads();
    if (!s_last)
        return;
    const volatile unsigned *vsum = task_sum, *vmax = task_max;
    unsigned long long sum = 0;
    unsigned mx = 0;
#pragma unroll 1 // cold path: keep it compact (unrolling costs registers for the whole kernel)
    for (int t = threadIdx.x; t < n_tasks; t += BLOCK) {
        sum += vsum[t];
        mx = max(mx, vmax[t]);
    }
    block_sum_max(sum, mx);
    if (threadIdx.x == 0) {
        grand[0] = sum;
        grand[1] = mx;
    }
}
