// workloads/wsteal: dynamic load balancing by work stealing between the
// persistent blocks of one launch (per-block double-ended task queues in
// global memory; the DLB benchmark class of the GPU coherence papers, seed
// 001 ch. 3, and the task-parallel runtimes it stands for).
//
// The work: the escape-time image of the Mandelbrot set in 64-bit fixed
// point (28 fraction bits, integer arithmetic, so the CPU reference is
// exact). A task is a range [lo, hi) of pixels in row-major order; a task
// longer than `leaf` pixels is split in two. Costs are very uneven (pixels
// inside the set run the full `maxit` iterations, outside ones escape
// early) and the host puts all root tasks in the deques of the first
// quarter of the blocks, so the others start with nothing and must steal.
//
// Deque of block b: slots[b * cap + i] holds task i (lo << 32 | hi) and
// word[b] packs (head << 32 | tail); tasks [head, tail) are queued. Every
// deque operation is one 64-bit atomicCAS on the word, so owner and thieves
// are linearised by it:
//   - owner pop (bottom, LIFO): tail - 1; the slot is the owner's own;
//   - owner push: write slot[tail], __threadfence, CAS tail + 1 (only the
//     owner moves tail, so a failed CAS only means a thief moved head);
//   - thief steal (top, FIFO): CAS head + 1, __threadfence, then read the
//     slot (a plain load: written by the owner before its push CAS).
// Indices never wrap (cap = the most tasks ever pushed), and head only
// grows, so a slot a thief has claimed is never written again.
//
// Splitting is work-first: the block keeps the lower half and pushes the
// upper half, until the range is a leaf; then all threads compute its
// pixels. `remaining` counts tasks that exist (queued or being split or
// computed): +1 before each push, -1 after a leaf's results are fenced;
// blocks quit when it reads 0. Results go to task-indexed pixels, so the
// image does not depend on who ran what; each leaf also adds its sum to
// a 64-bit total and counts itself (exactly-once check on the host).
//
// Inter-block communication: the deque words (atomics, volatile loads), the
// stolen slots (plain loads after the thief's fence) and `remaining`
// (atomics, volatile loads while idle). Only thread 0 of a block touches
// the deques; the others wait at __syncthreads. Idle blocks spin, so all
// blocks must be resident (the host sizes the grid).

#define BLOCK 256
#define FRAC 28 // fixed-point fraction bits

typedef unsigned long long u64;

__device__ static unsigned escape_time(long long cx, long long cy, int maxit)
{
    long long zx = 0, zy = 0;
    int it = 0;
    while (it < maxit) {
        long long x2 = (zx * zx) >> FRAC, y2 = (zy * zy) >> FRAC;
        if (x2 + y2 > (4LL << FRAC))
            break;
        long long xy = (zx * zy) >> (FRAC - 1); // 2 zx zy
        zx = x2 - y2 + cx;
        zy = xy + cy;
        it++;
    }
    return (unsigned)it;
}

// Owner: take the newest task; false when the deque is empty.
__device__ static bool pop_bottom(u64 *word, const u64 *slots, u64 *task)
{
    volatile u64 *vword = word;
    for (;;) {
        u64 w = *vword;
        unsigned head = (unsigned)(w >> 32), tail = (unsigned)w;
        if (head == tail)
            return false;
        if (atomicCAS(word, w, w - 1) == w) { // tail - 1 (tail > head >= 0: no borrow)
            *task = ((const volatile u64 *)slots)[tail - 1];
            return true;
        }
    }
}

// Owner: append a task.
__device__ static void push_bottom(u64 *word, u64 *slots, u64 task)
{
    volatile u64 *vword = word;
    u64 w = *vword;
    unsigned tail = (unsigned)w;
    ((volatile u64 *)slots)[tail] = task;
    __threadfence(); // the slot before the tail that publishes it
    while (atomicCAS(word, w, w + 1) != w)
        w = *vword; // a thief moved head; tail is still ours
}

// Thief: take the oldest task of another block's deque.
__device__ static bool steal_top(u64 *word, const u64 *slots, u64 *task)
{
    u64 w = *(volatile u64 *)word;
    unsigned head = (unsigned)(w >> 32), tail = (unsigned)w;
    if (head == tail)
        return false;
    if (atomicCAS(word, w, w + (1ULL << 32)) != w)
        return false; // lost a race: try elsewhere
    __threadfence(); // acquire: the owner's slot store is visible
    *task = slots[head];
    return true;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
    wsteal_mandel(u64 *word, u64 *slots, unsigned cap, unsigned *remaining, unsigned *out, int width, long long x0,
                  long long y0, long long step, int maxit, unsigned leaf, u64 *total, unsigned *leaves,
                  unsigned *steals)
{
    __shared__ unsigned s_lo, s_hi;
    __shared__ unsigned s_part[BLOCK / 32];
    unsigned me = blockIdx.x, g = gridDim.x, tid = threadIdx.x;
    u64 *my_word = word + me, *my_slots = slots + (size_t)me * cap;
    unsigned victim = me; // round-robin steal cursor
    unsigned n_leaves = 0, n_steals = 0;
    for (;;) {
        if (tid == 0) {
            u64 t = 0;
            bool got = pop_bottom(my_word, my_slots, &t);
            while (!got) {
                for (unsigned k = 1; k < g && !got; k++) {
                    victim = victim + 1 == g ? 0 : victim + 1;
                    if (victim != me)
                        got = steal_top(word + victim, slots + (size_t)victim * cap, &t);
                }
                if (got)
                    n_steals++;
                else if (*(volatile unsigned *)remaining == 0)
                    break; // nothing queued anywhere and nothing being split
            }
            unsigned lo = (unsigned)(t >> 32), hi = (unsigned)t;
            if (got)
                while (hi - lo > leaf) { // work-first split: keep the lower half
                    unsigned mid = lo + (hi - lo) / 2;
                    atomicAdd(remaining, 1u); // counted before it can be stolen
                    push_bottom(my_word, my_slots, ((u64)mid << 32) | hi);
                    hi = mid;
                }
            s_lo = got ? lo : 1u;
            s_hi = got ? hi : 0u; // lo > hi: quit
        }
        __syncthreads();
        unsigned lo = s_lo, hi = s_hi;
        if (lo > hi)
            break; // uniform
        unsigned sum = 0;
        for (unsigned p = lo + tid; p < hi; p += BLOCK) {
            int px = (int)(p % (unsigned)width), py = (int)(p / (unsigned)width);
            unsigned it = escape_time(x0 + px * step, y0 - py * step, maxit);
            out[p] = it;
            sum += it;
        }
        for (int o = 16; o > 0; o >>= 1)
            sum += __shfl_down_sync(0xffffffffu, sum, o);
        if ((tid & 31) == 0)
            s_part[tid >> 5] = sum;
        __syncthreads(); // also: every pixel of the leaf is stored
        if (tid == 0) {
            for (int i = 1; i < BLOCK / 32; i++)
                sum += s_part[i];
            atomicAdd(total, (u64)sum);
            n_leaves++;
            __threadfence(); // the leaf's pixels before it stops counting
            atomicSub(remaining, 1u);
        }
        // s_lo/s_hi and s_part are rewritten only after the next barrier
    }
    if (tid == 0) {
        atomicAdd(leaves, n_leaves);
        steals[me] = n_steals;
    }
}
