// Non-inlined __device__ functions: .func, call.uni with params and return.
__device__ __noinline__ float mix(float a, float b, int k)
{
    return k > 0 ? a * b + (float)k : a - b;
}

__device__ __noinline__ void store_pair(int *p, int a, int b)
{
    p[0] = a;
    p[1] = b;
}

extern "C" __global__ void devfunc(const float *a, const float *b, float *c, int *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = mix(a[i], b[i], i & 7);
        store_pair(d + 2 * i, i, n);
    }
}
