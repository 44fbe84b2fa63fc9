// workloads/kmeansnc: the k-means assignment step with the points left in
// point-major layout (written for gpusim). This is the uncoalesced variant
// that cache-conscious warp scheduling studies use (CCWS's KMN): unlike
// workloads/kmeans, which first transposes the points so that neighbouring
// threads read neighbouring words, here
//   kmeansnc_assign: one thread per point p walks its own feature row
//       feat[p * n_feat .. p * n_feat + n_feat) (row-major, stride
//       n_feat * 4 bytes between the threads of a warp: with 34 features
//       one warp load touches 32 distinct lines and the warp's rows span
//       35 lines) once per centroid: the k passes re-read the same lines
//       (intra-warp locality whose reuse distance is one point's features
//       times 32 threads). The centroids stay in global memory (k x n_feat
//       floats, every thread of a warp reads the same word: one broadcast
//       line per load) and are shared by all CTAs.
// The centroid update (mean of each cluster's members) runs on the host
// between launches, as in Rodinia's kmeans: on the device it would be one
// small serial reduction that says nothing about the cache.
// Distances accumulate with fmaf in feature order (first minimum wins), so
// a CPU reference using the same sequence reproduces them bit for bit.

extern "C" __global__ void kmeansnc_assign(const float *__restrict__ feat, const float *__restrict__ centroids,
                                           int *__restrict__ membership, int n, int n_feat, int k)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n)
        return;
    const float *pt = feat + (size_t)p * n_feat;
    int best = 0;
    float best_d = 0.0f;
    for (int c = 0; c < k; c++) {
        float d = 0.0f;
        // NOTE: not unrolled: nvcc's default unrolling takes 54 registers
        // (2 CTAs of 256 threads per SM on a 32K-register Fermi); at 19 the
        // SM holds 6 CTAs = 48 warps, like the layouts CCWS measured.
#pragma unroll 1
        for (int f = 0; f < n_feat; f++) {
            float diff = pt[f] - centroids[c * n_feat + f];
            d = fmaf(diff, diff, d);
        }
        if (c == 0 || d < best_d) {
            best_d = d;
            best = c;
        }
    }
    membership[p] = best;
}
