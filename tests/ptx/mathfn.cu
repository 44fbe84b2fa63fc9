// Doubles and math library: sinf/expf/sqrt, fp64 arithmetic, conversions.
extern "C" __global__ void mathfn(const float *x, float *y, const double *dx, double *dy, long long *l, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    y[i] = sinf(v) + expf(v) * 0.5f + sqrtf(fabsf(v)) + __sinf(v) + __expf(v) + rsqrtf(v + 2.0f) + __fdividef(v, 3.0f) + cosf(v) + tanhf(v) + logf(v + 1.0f);
    double d = dx[i];
    dy[i] = sqrt(d) + d * 1.5 + (double)v / d + fma(d, d, -1.0) + fmin(d, 2.0) + rint(d);
    l[i] = (long long)d + __float2int_rz(v) + (long long)(unsigned)i * 7 + __double2ll_rn(d * 3.0) + __popc(i) + __clz(i) + __brev(i) + __ffs(i) + __byte_perm(i, n, 0x5410);
}
