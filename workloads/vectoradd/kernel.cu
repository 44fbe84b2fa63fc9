// workloads/vectoradd: c[i] = a[i] + b[i] over n floats, one element per
// thread with a grid-stride loop (the CUDA SDK vectorAdd idea, written for
// gpusim). Purely bandwidth-bound: 2 loads, 1 store, 1 FADD per element.
extern "C" __global__ void vectoradd(const float *__restrict__ a, const float *__restrict__ b,
                                     float *__restrict__ c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}
