// workloads/spinlock: concurrent insertion into a bucketed hash table whose
// buckets are protected by per-bucket spin locks (the lock-based concurrent
// data structures of GPU hash tables / histograms with compound records).
//
// Item i = (key[i], val[i]). Its bucket b = hash(key) % n_buckets holds a
// multi-field record (count, sum, sum of squares, min, max of the values)
// and a singly linked list of one node per distinct key (key, count, sum of
// values), nodes taken from a pool with atomicAdd. Neither can be updated
// with a single atomic, so the whole update runs under the bucket's lock.
//
// Lock protocol: acquire with atomicCAS(lock, 0, 1), __threadfence, update
// through volatile pointers, __threadfence, release with atomicExch(lock,
// 0). Lanes of one warp may contend for the same lock; the loop is the
// lane-serialising form that is deadlock-free both with independent thread
// scheduling and under a pre-Volta SIMT stack: every lane tries once per
// iteration and the critical section and the release sit inside the
// successful branch, so a lane never spins while a lane of its own warp
// holds the lock it waits for. The iteration condition is a warp vote
// (__any_sync): with a plain per-lane `while (!done)` flag nvcc rewrites
// the loop into a tight per-lane CAS spin with the critical section after
// it, which deadlocks under a SIMT stack. Blocks must be whole warps.
//
// The table contents do not depend on the interleaving except for the
// order of each list, which the host canonicalises before checking.

#define NIL 0xffffffffu

__device__ static unsigned hash_key(unsigned k)
{
    k ^= k >> 16;
    k *= 0x7feb352du;
    k ^= k >> 15;
    k *= 0x846ca68bu;
    k ^= k >> 16;
    return k;
}

extern "C" __global__ void hash_insert(const unsigned *__restrict__ keys, const unsigned *__restrict__ vals,
                                       int n_items, int n_buckets, unsigned *lock, unsigned *b_count,
                                       unsigned long long *b_sum, unsigned long long *b_sumsq, unsigned *b_min,
                                       unsigned *b_max, unsigned *b_head, unsigned *pool_next,
                                       unsigned *n_key, unsigned *n_count, unsigned long long *n_sum,
                                       unsigned *n_next)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool todo = i < n_items; // lanes past the end join the warp votes only
    unsigned key = todo ? keys[i] : 0, val = todo ? vals[i] : 0;
    unsigned b = hash_key(key) % (unsigned)n_buckets;
    // The protected state, accessed only by the lock holder.
    volatile unsigned *vcount = b_count, *vmin = b_min, *vmax = b_max, *vhead = b_head;
    volatile unsigned long long *vsum = b_sum, *vsumsq = b_sumsq, *vnsum = n_sum;
    volatile unsigned *vnkey = n_key, *vncount = n_count, *vnnext = n_next;
    // Warp-uniform retry loop: the vote keeps the loop's back edge uniform,
    // so the winners' critical sections always run before the losers retry.
    while (__any_sync(0xffffffffu, todo)) {
        if (todo && atomicCAS(&lock[b], 0u, 1u) == 0u) {
            __threadfence(); // acquire: see the previous holder's updates
            vcount[b] = vcount[b] + 1;
            vsum[b] = vsum[b] + val;
            vsumsq[b] = vsumsq[b] + (unsigned long long)val * val;
            if (val < vmin[b])
                vmin[b] = val;
            if (val > vmax[b])
                vmax[b] = val;
            unsigned n = vhead[b];
            while (n != NIL && vnkey[n] != key)
                n = vnnext[n];
            if (n == NIL) { // first occurrence of the key: push a new node
                n = atomicAdd(pool_next, 1u);
                vnkey[n] = key;
                vncount[n] = 0;
                vnsum[n] = 0;
                vnnext[n] = vhead[b];
                vhead[b] = n;
            }
            vncount[n] = vncount[n] + 1;
            vnsum[n] = vnsum[n] + val;
            __threadfence(); // release: updates visible before the lock is free
            atomicExch(&lock[b], 0u);
            todo = false;
        }
    }
}
