// workloads/2dconv: 3x3 convolution of an ni x nj fp32 image (row-major)
// with nine fixed coefficients, one thread per output pixel on 2-D blocks
// (mirrors Polybench/GPU 2DCONV). Border pixels (first/last row and column)
// have no full neighbourhood and are left untouched (the output buffer
// keeps its initial zeros there).
//
// The sum is written as an explicit left-to-right chain of fp32 fused
// multiply-adds (one product, then eight fmaf) so that the host reference
// can evaluate exactly the same correctly rounded operations.

#define C11 0.2f
#define C21 0.5f
#define C31 -0.8f
#define C12 -0.3f
#define C22 0.6f
#define C32 -0.9f
#define C13 0.4f
#define C23 0.7f
#define C33 0.10f

extern "C" __global__ void conv2d(const float *__restrict__ a, float *__restrict__ b, int ni, int nj)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x; // column
    int i = blockIdx.y * blockDim.y + threadIdx.y; // row
    if (i < 1 || i >= ni - 1 || j < 1 || j >= nj - 1)
        return;
    const float *up = a + (size_t)(i - 1) * nj;
    const float *mid = up + nj;
    const float *dn = mid + nj;
    float s = C11 * up[j - 1];
    s = fmaf(C12, mid[j - 1], s);
    s = fmaf(C13, dn[j - 1], s);
    s = fmaf(C21, up[j], s);
    s = fmaf(C22, mid[j], s);
    s = fmaf(C23, dn[j], s);
    s = fmaf(C31, up[j + 1], s);
    s = fmaf(C32, mid[j + 1], s);
    s = fmaf(C33, dn[j + 1], s);
    b[(size_t)i * nj + j] = s;
}
