// workloads/mriq: the Q matrix of non-Cartesian MRI reconstruction,
// mirroring Parboil "mri-q". For every voxel position x (in field-of-view
// units) and the K k-space samples k (in cycles per field of view) with
// phase data phi:
//   phiMag[k] = phiR[k]^2 + phiI[k]^2
//   Qr(x) = sum_k phiMag[k] * cos(2*pi * k.x),  Qi(x) = sum_k phiMag[k] * sin(2*pi * k.x)
// As in the original, the samples (kx, ky, kz, phiMag) are streamed through
// __constant__ memory in chunks of KCHUNK, one launch per chunk, each launch
// adding its partial sums to Qr/Qi in global memory; every warp reads the
// same sample at the same time (constant-cache broadcast) and spends its time
// in the SFU (__sinf/__cosf) and FMA pipes.
#define KCHUNK 1024
#define PI2 6.2831853071795864769f

struct kvalue {
    float kx, ky, kz, phimag;
};

__constant__ kvalue c_kvals[KCHUNK];

extern "C" __global__ void mriq_phimag(const float *__restrict__ phiR, const float *__restrict__ phiI,
                                       float *__restrict__ phimag, int numK)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < numK)
        phimag[k] = __fmaf_rn(phiR[k], phiR[k], phiI[k] * phiI[k]);
}

// One chunk of numK (<= KCHUNK) samples, already in c_kvals, for numX voxels.
extern "C" __global__ void mriq_computeq(int numK, const float *__restrict__ x, const float *__restrict__ y,
                                         const float *__restrict__ z, float *Qr, float *Qi, int numX)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= numX)
        return;
    float sx = x[t], sy = y[t], sz = z[t];
    float qr = Qr[t], qi = Qi[t];
    for (int k = 0; k < numK; k++) {
        kvalue s = c_kvals[k];
        // Explicit fused multiply-adds fix the rounding so that the host
        // reference can repeat it exactly.
        float arg = PI2 * __fmaf_rn(s.kz, sz, __fmaf_rn(s.ky, sy, s.kx * sx));
        qr = __fmaf_rn(s.phimag, __cosf(arg), qr);
        qi = __fmaf_rn(s.phimag, __sinf(arg), qi);
    }
    Qr[t] = qr;
    Qi[t] = qi;
}
