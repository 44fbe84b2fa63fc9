// workloads/kmeans: k-means clustering (Lloyd's algorithm), mirroring
// Rodinia's kmeans (written for gpusim). The device does the data-parallel
// part, the host the cluster update, as in the original:
//   kmeans_transpose: converts the points from point-major (feat[p][f], how
//       they are read in) to feature-major (feat_t[f][p]) once, so that in
//       kmeans_assign consecutive threads read consecutive addresses;
//   kmeans_assign: one thread per point finds the nearest centroid by
//       squared Euclidean distance (first minimum on ties) and writes the
//       point's membership. The CTA stages the k x n_feat centroids in shared
//       memory (the original keeps them in constant memory).
// Distances accumulate feature by feature with fmaf, in feature order, so a
// CPU reference using the same fmaf sequence reproduces them bit for bit.

#define KM_MAX_CENTROID_FLOATS 1024 // k * n_feat limit of the shared centroid table

extern "C" __global__ void kmeans_transpose(const float *__restrict__ feat, float *__restrict__ feat_t, int n,
                                            int n_feat)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n)
        return;
    for (int f = 0; f < n_feat; f++)
        feat_t[f * n + p] = feat[p * n_feat + f];
}

extern "C" __global__ void kmeans_assign(const float *__restrict__ feat_t, const float *__restrict__ centroids,
                                         int *__restrict__ membership, int n, int n_feat, int k)
{
    __shared__ float c_s[KM_MAX_CENTROID_FLOATS];
    for (int i = threadIdx.x; i < k * n_feat; i += blockDim.x)
        c_s[i] = centroids[i];
    __syncthreads();

    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n)
        return;
    int best = 0;
    float best_d = 0.0f;
    for (int c = 0; c < k; c++) {
        float d = 0.0f;
        for (int f = 0; f < n_feat; f++) {
            float diff = feat_t[f * n + p] - c_s[c * n_feat + f];
            d = fmaf(diff, diff, d);
        }
        if (c == 0 || d < best_d) {
            best_d = d;
            best = c;
        }
    }
    membership[p] = best;
}
