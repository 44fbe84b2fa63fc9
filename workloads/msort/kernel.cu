// workloads/msort: merge sort of 32-bit unsigned keys (written for gpusim),
// the two phases of the GPU merge sorts evaluated in seed 003's HIL set
// (Rodinia-era mergesort: sort small blocks on chip, then merge globally):
//   msort_tile:  each CTA (256 threads) loads a tile of 1024 keys into
//                shared memory (a partial last tile is padded with
//                0xffffffff), bitonic-sorts it with barriers between the
//                compare-exchange steps and writes the valid keys back;
//   msort_merge: one launch per pass merges neighbouring sorted runs of
//                `width` keys into runs of 2 * width. One thread per key
//                finds the key's rank in the other run by binary search
//                (lower bound when the key comes from the left run, upper
//                bound from the right run, so equal keys keep their order
//                and every output slot is written exactly once) and stores
//                the key at (own index + rank).
// Inter-core locality: every CTA merging the same pair of runs (thousands of
// threads on all SMs in the late passes) starts its binary searches at the
// same midpoints of the other run, so the first probes of many SMs miss on
// the same L2 lines at about the same time.

#define TILE 1024
#define TILE_THREADS 256

extern "C" __global__ void msort_tile(unsigned *keys, int n)
{
    __shared__ unsigned s[TILE];
    int base = blockIdx.x * TILE;
    for (int i = threadIdx.x; i < TILE; i += TILE_THREADS)
        s[i] = base + i < n ? keys[base + i] : 0xffffffffu;
    __syncthreads();
    // Bitonic sort: for every stage size k and distance j, element i is
    // compared with i ^ j by the thread owning the lower index.
    for (int k = 2; k <= TILE; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int i = threadIdx.x; i < TILE; i += TILE_THREADS) {
                int p = i ^ j;
                if (p > i) {
                    unsigned a = s[i], b = s[p];
                    bool up = (i & k) == 0;
                    if ((a > b) == up) {
                        s[i] = b;
                        s[p] = a;
                    }
                }
            }
            __syncthreads();
        }
    }
    for (int i = threadIdx.x; i < TILE; i += TILE_THREADS)
        if (base + i < n)
            keys[base + i] = s[i];
}

extern "C" __global__ void msort_merge(const unsigned *__restrict__ in, unsigned *__restrict__ out, int n, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int lo = i / (2 * width) * (2 * width); // start of the left run
    int mid = min(lo + width, n);            // start of the right run
    int hi = min(lo + 2 * width, n);         // end of the right run
    unsigned key = in[i];
    int first, last;
    bool left = i < mid;
    if (left) {
        first = mid;
        last = hi;
    } else {
        first = lo;
        last = mid;
    }
    // Rank of key in in[first, last): elements < key (left) or <= key (right).
    int a = first, b = last;
#pragma unroll 1
    while (a < b) {
        int m = (a + b) >> 1;
        unsigned x = in[m];
        if (left ? x < key : x <= key)
            a = m + 1;
        else
            b = m;
    }
    int pos = left ? i + (a - first) : lo + (i - mid) + (a - first);
    out[pos] = key;
}
