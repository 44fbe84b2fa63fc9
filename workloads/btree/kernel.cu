// workloads/btree: point and range queries on a B+ tree stored in flat
// arrays, mirroring Rodinia b+tree (findK, findRangeK), written for gpusim.
//
// Tree layout (built on the host): node v has nkeys[v] <= ORDER sorted keys
// keys[v*ORDER + c] and pointers ptrs[v*ORDER + c]. In an inner node key c
// is the smallest key under child ptrs[...+c] (a node index); in a leaf
// ptrs[...+c] is the record's position in the key-sorted record array, so
// a leaf's positions are consecutive. Node 0 is the root; every leaf is at
// depth height-1.
//
// Both kernels run one CTA of ORDER threads per query: at every level
// thread c tests whether the query falls into child c's key interval
// [key c, key c+1) (child 0 also takes keys below key 0); the one thread
// that matches publishes the child through shared memory.
//
// bt_find_k: exact-match lookup; writes the record's value or -1.
// bt_find_range_k: walks to the leaves of lo and hi side by side and counts
//   with __syncthreads_count the leaf keys < lo and <= hi, giving the
//   position of the first record >= lo and the number of records in
//   [lo, hi].
#define ORDER 256

// Child of inner node `node` whose key interval contains q (all threads of
// the CTA call this; the result is written to *slot by one thread).
__device__ __forceinline__ void pick_child(const int *__restrict__ keys, const int *__restrict__ ptrs, int nk,
                                           int node, int q, int *slot)
{
    const int c = threadIdx.x;
    if (c < nk) {
        const int *k = keys + (size_t)node * ORDER;
        bool lo_ok = c == 0 || k[c] <= q;
        bool hi_ok = c + 1 == nk || q < k[c + 1];
        if (lo_ok && hi_ok)
            *slot = ptrs[(size_t)node * ORDER + c];
    }
}

extern "C" __global__ void __launch_bounds__(ORDER)
bt_find_k(const int *__restrict__ keys, const int *__restrict__ ptrs, const int *__restrict__ nkeys, int height,
          const int *__restrict__ records, const int *__restrict__ query, int *__restrict__ result)
{
    __shared__ int s_node, s_res;
    const int q = query[blockIdx.x];
    int node = 0;
    if (threadIdx.x == 0)
        s_res = -1;
    for (int level = 0; level < height - 1; level++) {
        pick_child(keys, ptrs, nkeys[node], node, q, &s_node);
        __syncthreads();
        node = s_node;
        __syncthreads(); // everyone has read s_node before the next level rewrites it
    }
    const int c = threadIdx.x;
    if (c < nkeys[node] && keys[(size_t)node * ORDER + c] == q)
        s_res = records[ptrs[(size_t)node * ORDER + c]];
    __syncthreads();
    if (c == 0)
        result[blockIdx.x] = s_res;
}

extern "C" __global__ void __launch_bounds__(ORDER)
bt_find_range_k(const int *__restrict__ keys, const int *__restrict__ ptrs, const int *__restrict__ nkeys,
                int height, const int *__restrict__ lo, const int *__restrict__ hi, int *__restrict__ start,
                int *__restrict__ count)
{
    __shared__ int s_lo, s_hi;
    const int qlo = lo[blockIdx.x], qhi = hi[blockIdx.x];
    int nlo = 0, nhi = 0;
    for (int level = 0; level < height - 1; level++) {
        pick_child(keys, ptrs, nkeys[nlo], nlo, qlo, &s_lo);
        pick_child(keys, ptrs, nkeys[nhi], nhi, qhi, &s_hi);
        __syncthreads();
        nlo = s_lo;
        nhi = s_hi;
        __syncthreads();
    }
    const int c = threadIdx.x;
    int below = __syncthreads_count(c < nkeys[nlo] && keys[(size_t)nlo * ORDER + c] < qlo);
    int upto = __syncthreads_count(c < nkeys[nhi] && keys[(size_t)nhi * ORDER + c] <= qhi);
    if (c == 0) {
        int first = ptrs[(size_t)nlo * ORDER] + below; // position of the first record >= lo
        int end = ptrs[(size_t)nhi * ORDER] + upto;    // one past the last record <= hi
        start[blockIdx.x] = first;
        count[blockIdx.x] = end > first ? end - first : 0;
    }
}
