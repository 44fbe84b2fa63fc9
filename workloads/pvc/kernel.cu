// workloads/pvc: page view count over a web log, after Mars PageViewCount
// (a MapReduce job: map each log entry to (URL, 1), group by URL, reduce
// by summing), written for gpusim.
//
// The log is an array of fixed 64-byte text records, NUL-padded:
//   "<url> <status> <client ip>"      e.g. "/news/kqzvx.html 200 10.3.7.41"
//   pvc_map:    each thread parses `per_thread` consecutive records: the
//               32-bit FNV-1a hash of the URL characters and the decimal
//               status; emits keys[i] = hash for status 200 and 0 (no
//               view) otherwise. The host makes the hashes of distinct URLs
//               distinct and non-zero.
//   pvc_reduce: one thread per record inserts its key into an
//               open-addressing hash table (linear probing; atomicCAS
//               claims an empty slot, 0 = empty) and adds 1 to the slot's
//               count with atomicAdd.
// Which slot a key ends up in depends on the order of the CAS operations
// (collisions), so the driver checks the table as a set of (key, count).
// The map reads each record word by word: the lanes of a warp are 256 bytes
// apart (uncoalesced, one line per lane) and a lane stays on a line for 32
// loads (two records), so the parse depends on those lines staying in the
// L1D between the warp's visits.
// Launch both with 1-D blocks; the last block may be partial.

#define PVC_REC_WORDS 16 /* 64-byte records */

extern "C" __global__ void pvc_map(const unsigned *__restrict__ log, int n_rec, int per_thread,
                                   unsigned *__restrict__ keys)
{
    int first = (blockIdx.x * blockDim.x + threadIdx.x) * per_thread;
    for (int i = first; i < n_rec && i < first + per_thread; i++) {
        const unsigned *rec = log + (size_t)i * PVC_REC_WORDS;
        unsigned h = 2166136261u, status = 0;
        int field = 0; // 0: URL, 1: status, 2 and up: the rest (ignored)
        for (int wi = 0; wi < PVC_REC_WORDS && field < 2; wi++) {
            unsigned word = rec[wi]; // little-endian: byte b is bits 8b..8b+7
#pragma unroll
            for (int b = 0; b < 4; b++) {
                unsigned c = (word >> (8 * b)) & 0xffu;
                if (c == ' ' || c == 0)
                    field++;
                else if (field == 0)
                    h = (h ^ c) * 16777619u;
                else if (field == 1)
                    status = status * 10 + (c - '0');
            }
        }
        keys[i] = status == 200 ? h : 0u;
    }
}

extern "C" __global__ void pvc_reduce(const unsigned *__restrict__ keys, int n_rec, unsigned *table_keys,
                                      unsigned *table_counts, unsigned mask)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n_rec)
        return;
    unsigned k = keys[i];
    if (k == 0)
        return;
    unsigned s = (k ^ (k >> 16)) & mask;
    for (;;) {
        unsigned prev = atomicCAS(&table_keys[s], 0u, k);
        if (prev == 0u || prev == k) {
            atomicAdd(&table_counts[s], 1u);
            return;
        }
        s = (s + 1) & mask;
    }
}
