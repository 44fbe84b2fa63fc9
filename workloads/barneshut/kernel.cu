// workloads/barneshut: 2-D Barnes-Hut gravitational accelerations in ONE
// launch: a device summarisation of a quadtree (mass and centre of mass of
// every cell, bottom-up, one level per grid-barrier phase) followed by the
// force traversal, in which every thread walks the tree summaries that
// other blocks wrote (the BH benchmark of the GPU coherence papers, seed
// 001 ch. 3, after Burtscher and Pingali's GPU Barnes-Hut; the tree itself
// is built on the host here).
//
// Tree (host-built, breadth-first numbering, so level l is the node range
// [level_start[l], level_start[l+1])): a leaf holds bodies [bfirst,
// bfirst + bcount) (bcount > 0; the bodies are stored in tree order), an
// inner node has bcount = 0 and up to 4 children (child[4*i + q], -1 when
// the quadrant is empty); width[i] is the cell's edge length.
//
// Phase 1, for l = deepest .. 0: every node of level l gets its mass and
// centre of mass from its bodies (leaf) or from its children (computed in
// the previous phase, by any block); then the grid barrier.
// Phase 2: each thread takes bodies and walks the tree from the root with
// an explicit stack: a leaf's bodies interact directly (not the body
// itself), an inner cell with width^2 < theta^2 * d^2 (d = distance to its
// centre of mass) interacts as one point mass, otherwise its children are
// pushed (quadrant 3 first, so quadrant 0 is visited first). Softened
// gravity, G = 1: a += m * (q - p) / (|q - p|^2 + eps^2)^(3/2).
//
// Floating point: every operation is an explicitly rounded intrinsic
// (__fadd_rn, __fmul_rn, __fsqrt_rn, __fdiv_rn: no fused multiply-add), in
// a fixed order, so the host replays the same arithmetic.
//
// Inter-block communication: the node summaries nm/ncx/ncy, written in
// phase 1 and read with plain loads after the barrier (read-mostly shared
// data: what a coherent L1 may keep), and the barrier counter (atomics,
// volatile loads). Blocks wait at the barrier, so all must be resident.

#define BLOCK 256
#define STACK 96 // > 3 * maximum depth + 1 (the host limits the depth to 24)

__device__ static void grid_barrier(unsigned *arrive, unsigned *epoch)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned target = (++*epoch) * gridDim.x;
        __threadfence();
        atomicAdd(arrive, 1u);
        while (*(volatile unsigned *)arrive < target)
            ;
        __threadfence();
    }
    __syncthreads();
}

struct acc2 {
    float x, y;
};

__device__ static void interact(acc2 &a, float px, float py, float qx, float qy, float qm, float eps2)
{
    float dx = __fadd_rn(qx, -px), dy = __fadd_rn(qy, -py);
    float r2 = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), eps2);
    float r3 = __fmul_rn(r2, __fsqrt_rn(r2));
    float f = __fdiv_rn(qm, r3);
    a.x = __fadd_rn(a.x, __fmul_rn(dx, f));
    a.y = __fadd_rn(a.y, __fmul_rn(dy, f));
}

extern "C" __global__ void __launch_bounds__(BLOCK)
    bh_forces(const int *child, const int *bfirst, const int *bcount, const float *width, const int *level_start,
              int n_levels, const float *px, const float *py, const float *pm, int n_bodies, float *nm, float *ncx,
              float *ncy, float theta2, float eps2, float *ax, float *ay, unsigned *arrive)
{
    unsigned epoch = 0;
    int gtid = blockIdx.x * BLOCK + threadIdx.x, gthreads = gridDim.x * BLOCK;

    // Phase 1: summaries, deepest level first.
    for (int l = n_levels - 1; l >= 0; l--) {
        for (int i = level_start[l] + gtid; i < level_start[l + 1]; i += gthreads) {
            float m = 0.0f, mx = 0.0f, my = 0.0f;
            if (bcount[i] > 0) {
                for (int j = bfirst[i]; j < bfirst[i] + bcount[i]; j++) {
                    m = __fadd_rn(m, pm[j]);
                    mx = __fadd_rn(mx, __fmul_rn(pm[j], px[j]));
                    my = __fadd_rn(my, __fmul_rn(pm[j], py[j]));
                }
            } else {
                for (int q = 0; q < 4; q++) {
                    int c = child[4 * i + q];
                    if (c < 0)
                        continue;
                    float cm = nm[c]; // written by another block one phase ago
                    m = __fadd_rn(m, cm);
                    mx = __fadd_rn(mx, __fmul_rn(cm, ncx[c]));
                    my = __fadd_rn(my, __fmul_rn(cm, ncy[c]));
                }
            }
            nm[i] = m;
            ncx[i] = __fdiv_rn(mx, m);
            ncy[i] = __fdiv_rn(my, m);
        }
        grid_barrier(arrive, &epoch);
    }

    // Phase 2: traversal.
    for (int b = gtid; b < n_bodies; b += gthreads) {
        float x = px[b], y = py[b];
        acc2 a = {0.0f, 0.0f};
        int stack[STACK];
        int sp = 0;
        stack[sp++] = 0;
        while (sp > 0) {
            int i = stack[--sp];
            int cnt = bcount[i];
            if (cnt > 0) {
                for (int j = bfirst[i]; j < bfirst[i] + cnt; j++)
                    if (j != b)
                        interact(a, x, y, px[j], py[j], pm[j], eps2);
                continue;
            }
            float cx = ncx[i], cy = ncy[i];
            float dx = __fadd_rn(cx, -x), dy = __fadd_rn(cy, -y);
            float d2 = __fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy));
            float wd = width[i];
            if (__fmul_rn(wd, wd) < __fmul_rn(theta2, d2)) {
                interact(a, x, y, cx, cy, nm[i], eps2);
            } else {
                for (int q = 3; q >= 0; q--) {
                    int c = child[4 * i + q];
                    if (c >= 0)
                        stack[sp++] = c;
                }
            }
        }
        ax[b] = a.x;
        ay[b] = a.y;
    }
}
