// workloads/ss: similarity score, the cosine similarity of every pair of
// documents' term-frequency vectors (n documents x d features, row-major
// float), after Mars SimilarityScore (a MapReduce job whose map task scores
// one document pair), written for gpusim.
//   ss_norm: norm[i] = sqrt(sum_f v[i][f]^2), one thread per document.
//   ss_sim:  sim[i][j] = dot(v[i], v[j]) / (norm[i] * norm[j]) (0 when a
//            norm is 0), one thread per pair: i = blockIdx.y for the whole
//            CTA (row i is a broadcast), j = the thread's x index.
// Each thread walks its own document's row j: the lanes of a warp read
// addresses d floats apart (uncoalesced, one line per lane per load), and a
// lane re-reads its current line on the next 31 iterations, so a warp
// keeps about 32 lines live and the kernel depends on those lines surviving
// in the L1D until the warp comes back (intra-warp locality). CTAs with the
// same blockIdx.x (different i) read the same rows j (inter-CTA locality).
// The loops are unrolled twice only (`#pragma unroll 2`): nvcc's default
// 4x unroll needs 49 registers per thread, which would cap residency at
// about 20 warps per SM; at 25 registers many more warps compete for the
// L1D, which is the behaviour this workload is for.
// Launch with 1-D blocks; the last block in x may be partial.

extern "C" __global__ void ss_norm(const float *__restrict__ v, float *__restrict__ norm, int n, int d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float *row = v + (size_t)i * d;
    float acc = 0.0f;
#pragma unroll 2
    for (int f = 0; f < d; f++)
        acc += row[f] * row[f];
    norm[i] = sqrtf(acc);
}

extern "C" __global__ void ss_sim(const float *__restrict__ v, const float *__restrict__ norm,
                                  float *__restrict__ sim, int n, int d)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (j >= n)
        return;
    const float *a = v + (size_t)i * d;
    const float *b = v + (size_t)j * d;
    float dot = 0.0f;
#pragma unroll 2
    for (int f = 0; f < d; f++)
        dot += a[f] * b[f];
    float den = norm[i] * norm[j];
    sim[(size_t)i * n + j] = den > 0.0f ? dot / den : 0.0f;
}
