// workloads/srad: speckle-reducing anisotropic diffusion (SRAD, Yu and
// Acton 2002) of an image, mirroring Rodinia's srad (v2) (written for
// gpusim). One diffusion iteration is three kernels:
//   srad_roi_sums:  per-CTA partial sums of J and J^2 over the region of
//       interest (grid-stride accumulation, then a shared-memory tree); the
//       host turns them into the speckle scale q0^2 = var / mean^2;
//   srad_coef:      per pixel the four directional differences to the
//       neighbours (0 across the image border), the instantaneous
//       coefficient of variation q^2 and the diffusion coefficient
//       c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))) clamped to [0, 1];
//   srad_update:    the divergence of c * grad J (c of the pixel for its N
//       and W faces, of the S and E neighbours for theirs) and the explicit
//       step J += lambda / 4 * div.
// 16x16 CTAs with the J tile (plus a one-pixel halo) and the c tile (plus
// its S/E edge) in shared memory; the image is a multiple of 16 each way.
// Multiply-adds are written as explicit fmaf so that the CPU reference can
// reproduce the arithmetic operation for operation.

#define SR_TILE 16
#define SR_RED_BLOCK 256 // srad_roi_sums CTA size (power of two)

extern "C" __global__ void srad_roi_sums(const float *__restrict__ J, int cols, int r0, int c0, int roi_rows,
                                         int roi_cols, float *__restrict__ partial)
{
    __shared__ float s1[SR_RED_BLOCK], s2[SR_RED_BLOCK];
    int t = threadIdx.x;
    int n = roi_rows * roi_cols;
    float a = 0.0f, b = 0.0f;
    for (int i = blockIdx.x * SR_RED_BLOCK + t; i < n; i += gridDim.x * SR_RED_BLOCK) {
        float v = J[(r0 + i / roi_cols) * cols + c0 + i % roi_cols];
        a += v;
        b = fmaf(v, v, b);
    }
    s1[t] = a;
    s2[t] = b;
    __syncthreads();
    for (int s = SR_RED_BLOCK / 2; s > 0; s >>= 1) {
        if (t < s) {
            s1[t] += s1[t + s];
            s2[t] += s2[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        partial[2 * blockIdx.x] = s1[0];
        partial[2 * blockIdx.x + 1] = s2[0];
    }
}

extern "C" __global__ void srad_coef(const float *__restrict__ J, float *__restrict__ dN, float *__restrict__ dS,
                                     float *__restrict__ dW, float *__restrict__ dE, float *__restrict__ c, int rows,
                                     int cols, float q0sqr)
{
    __shared__ float j_s[SR_TILE + 2][SR_TILE + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * SR_TILE + tx, y = blockIdx.y * SR_TILE + ty;
    int k = y * cols + x;

    // Tile plus halo; outside the image the halo repeats the edge pixel, so
    // the difference across the border is 0.
    j_s[ty + 1][tx + 1] = J[k];
    if (ty == 0)
        j_s[0][tx + 1] = J[(y > 0 ? y - 1 : y) * cols + x];
    if (ty == SR_TILE - 1)
        j_s[SR_TILE + 1][tx + 1] = J[(y < rows - 1 ? y + 1 : y) * cols + x];
    if (tx == 0)
        j_s[ty + 1][0] = J[y * cols + (x > 0 ? x - 1 : x)];
    if (tx == SR_TILE - 1)
        j_s[ty + 1][SR_TILE + 1] = J[y * cols + (x < cols - 1 ? x + 1 : x)];
    __syncthreads();

    float jc = j_s[ty + 1][tx + 1];
    float n = j_s[ty][tx + 1] - jc, s = j_s[ty + 2][tx + 1] - jc;
    float w = j_s[ty + 1][tx] - jc, e = j_s[ty + 1][tx + 2] - jc;
    float g2 = fmaf(n, n, fmaf(s, s, fmaf(w, w, e * e))) / (jc * jc); // |grad J|^2 / J^2
    float l = (n + s + w + e) / jc;                                   // laplacian J / J
    float num = fmaf(0.5f, g2, -0.0625f * (l * l));
    float den = fmaf(0.25f, l, 1.0f);
    float qsqr = num / (den * den);
    float cc = 1.0f / (1.0f + (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr)));
    cc = cc < 0.0f ? 0.0f : (cc > 1.0f ? 1.0f : cc);
    dN[k] = n;
    dS[k] = s;
    dW[k] = w;
    dE[k] = e;
    c[k] = cc;
}

extern "C" __global__ void srad_update(float *__restrict__ J, const float *__restrict__ dN,
                                       const float *__restrict__ dS, const float *__restrict__ dW,
                                       const float *__restrict__ dE, const float *__restrict__ c, int rows, int cols,
                                       float lambda)
{
    __shared__ float c_s[SR_TILE + 1][SR_TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * SR_TILE + tx, y = blockIdx.y * SR_TILE + ty;
    int k = y * cols + x;

    // c tile plus the S and E neighbours' coefficients (the pixel's own at
    // the image border).
    c_s[ty][tx] = c[k];
    if (ty == SR_TILE - 1)
        c_s[SR_TILE][tx] = c[(y < rows - 1 ? y + 1 : y) * cols + x];
    if (tx == SR_TILE - 1)
        c_s[ty][SR_TILE] = c[y * cols + (x < cols - 1 ? x + 1 : x)];
    __syncthreads();

    float cn = c_s[ty][tx], cs = c_s[ty + 1][tx], ce = c_s[ty][tx + 1];
    float div = fmaf(cn, dN[k], fmaf(cs, dS[k], fmaf(cn, dW[k], ce * dE[k])));
    J[k] = fmaf(0.25f * lambda, div, J[k]);
}
