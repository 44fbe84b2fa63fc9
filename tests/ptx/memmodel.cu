// tests/ptx/memmodel.cu: kernels for tests/test_memmodel.c, the ordering
// guarantees of the CUDA/PTX memory model that timing mode must keep
// (docs/memmodel.md).

#define ORDER 256
struct knode {
    int location;
    int indices[ORDER + 1];
    int keys[ORDER + 1];
    bool is_leaf;
    int num_keys;
};

// Rodinia b+tree findK, with its global-memory hand-off between threads of
// one CTA: one thread writes offsetD[bid], __syncthreads(), thread 0 copies
// it to currKnodeD[bid], __syncthreads(), every thread reads currKnodeD.
extern "C" __global__ void findk(long height, knode *knodesD, long knodes_elem, const int *recordsD,
                                 long *currKnodeD, long *offsetD, const int *keysD, int *ansD)
{
    int thid = threadIdx.x;
    int bid = blockIdx.x;
    for (int i = 0; i < height; i++) {
        if (knodesD[currKnodeD[bid]].keys[thid] <= keysD[bid] && knodesD[currKnodeD[bid]].keys[thid + 1] > keysD[bid]) {
            if (knodesD[offsetD[bid]].indices[thid] < knodes_elem)
                offsetD[bid] = knodesD[offsetD[bid]].indices[thid];
        }
        __syncthreads();
        if (thid == 0)
            currKnodeD[bid] = offsetD[bid];
        __syncthreads();
    }
    if (knodesD[currKnodeD[bid]].keys[thid] == keysD[bid])
        ansD[bid] = recordsD[knodesD[currKnodeD[bid]].indices[thid]];
}

// One thread of a rotating warp stores a per-CTA word, __syncthreads(),
// every thread reads it back; bad[] counts reads that missed the store.
extern "C" __global__ void bar_handoff(int *slot, int *bad, int iters)
{
    int bid = blockIdx.x;
    int nbad = 0;
    for (int i = 0; i < iters; i++) {
        if (threadIdx.x == (unsigned)((i * 37) % blockDim.x))
            slot[bid] = i * 1000 + bid;
        __syncthreads();
        if (slot[bid] != i * 1000 + bid)
            nbad++;
        __syncthreads();
    }
    atomicAdd(bad, nbad);
}

// Program order within a thread: a store and a load of the same word right
// after it (the store needs more operands than the load).
extern "C" __global__ void st_ld_same(unsigned *a, const unsigned *b, unsigned *bad, int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned nbad = 0;
    unsigned v = b[t];
    for (int i = 0; i < iters; i++) {
        v = v * 1664525u + 1013904223u;
        a[t] = v;
        if (a[t] != v)
            nbad++;
    }
    atomicAdd(bad, nbad);
}

// Message passing between CTAs on different SMs with __threadfence() on
// both sides; the reader first pulls the data's line into its L1.
// CTA 2i writes data[i] then flag[i]; CTA 2i+1 warms, spins on the
// volatile flag, fences, reads data[i].
extern "C" __global__ void mp_fence(int *data, volatile int *flag, int *seen, int spin)
{
    int i = blockIdx.x / 2;
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x % 2 == 0) {
        for (volatile int k = 0; k < spin; k++)
            ;
        data[i * 32] = i + 1;
        __threadfence();
        flag[i * 32] = 1;
    } else {
        int warm = data[i * 32];
        while (flag[i * 32] == 0)
            ;
        __threadfence();
        seen[i] = data[i * 32] | (warm << 16); // low half: the data after the fence
    }
}
