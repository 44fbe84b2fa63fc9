// workloads/pvr: page view rank, after Mars PageViewRank (a MapReduce job
// over the output of page view counting: map (URL, views) records, group by
// URL, rank the pages by their views), written for gpusim.
//
// The input is a list of fixed 64-byte text records "<url> <views>"
// (NUL-padded): partial view counts of pages from several log shards, so a
// page may occur in many records.
//   pvr_map:    each thread parses `per_thread` consecutive records: the
//               32-bit FNV-1a hash of the URL and the decimal view count;
//               emits keys[i] and views[i]. The host makes the hashes of
//               distinct URLs distinct and non-zero.
//   pvr_reduce: one thread per record adds its views to its page's slot of
//               an open-addressing hash table (linear probing, atomicCAS
//               claims an empty slot, 0 = empty; atomicAdd on the total).
//   pvr_rank:   one thread per slot: rank = 1 + the number of slots whose
//               total is larger (competition ranking: ties share a rank);
//               0 for an empty slot. Every thread walks the whole totals
//               array in the same order (a broadcast load per step, which
//               stays in the L1D).
// Which slot a page gets depends on the order of the atomics; the driver
// checks the table and the ranks per page.
// The map's record walk is uncoalesced (lanes 256 bytes apart, a lane stays
// on a line for 32 loads), as in pvc; the rank step is compute-heavy and
// cache-friendly, so only part of the run depends on the L1D.
// The rank loop is unrolled 4 times (`#pragma unroll 4`; nvcc's default
// unroll needs 40 registers per thread).
// Launch with 1-D blocks; the last block may be partial.

#define PVR_REC_WORDS 16 /* 64-byte records */

extern "C" __global__ void pvr_map(const unsigned *__restrict__ recs, int n_rec, int per_thread,
                                   unsigned *__restrict__ keys, unsigned *__restrict__ views)
{
    int first = (blockIdx.x * blockDim.x + threadIdx.x) * per_thread;
    for (int i = first; i < n_rec && i < first + per_thread; i++) {
        const unsigned *rec = recs + (size_t)i * PVR_REC_WORDS;
        unsigned h = 2166136261u, v = 0;
        int field = 0; // 0: URL, 1: views, 2 and up: done
        for (int wi = 0; wi < PVR_REC_WORDS && field < 2; wi++) {
            unsigned word = rec[wi]; // little-endian: byte b is bits 8b..8b+7
#pragma unroll
            for (int b = 0; b < 4; b++) {
                unsigned c = (word >> (8 * b)) & 0xffu;
                if (c == ' ' || c == 0)
                    field++;
                else if (field == 0)
                    h = (h ^ c) * 16777619u;
                else if (field == 1)
                    v = v * 10 + (c - '0');
            }
        }
        keys[i] = h;
        views[i] = v;
    }
}

extern "C" __global__ void pvr_reduce(const unsigned *__restrict__ keys, const unsigned *__restrict__ views,
                                      int n_rec, unsigned *table_keys, unsigned *table_views, unsigned mask)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n_rec)
        return;
    unsigned k = keys[i];
    unsigned s = (k ^ (k >> 16)) & mask;
    for (;;) {
        unsigned prev = atomicCAS(&table_keys[s], 0u, k);
        if (prev == 0u || prev == k) {
            atomicAdd(&table_views[s], views[i]);
            return;
        }
        s = (s + 1) & mask;
    }
}

extern "C" __global__ void pvr_rank(const unsigned *__restrict__ table_keys, const unsigned *__restrict__ table_views,
                                    int n_slots, unsigned *__restrict__ rank)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= n_slots)
        return;
    unsigned mine = table_views[s], above = 0;
#pragma unroll 4
    for (int j = 0; j < n_slots; j++)
        above += table_views[j] > mine;
    rank[s] = table_keys[s] ? above + 1 : 0u;
}
