// Module-scope variables: __constant__ and __device__ arrays with initialisers,
// struct parameters (.align), local-memory arrays, 2D/3D indices, 64-bit math.
struct Params { int a; double scale; float v[3]; };

__constant__ float coeffs[8] = {1.0f, 0.5f, 0.25f, 0.125f, -1.0f, -2.0f, 3.5f, 0.0f};
__constant__ int table2d[2][3] = {{1, 2, 3}, {4, 5, 6}};
__device__ unsigned long long g_counter = 0x123456789ull;
__device__ int g_array[16];
__device__ short g_short = -7;

extern "C" __global__ void globals(Params p, float *out, int n)
{
    float local[16];
    int tx = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    int bx = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
    for (int k = 0; k < 16; k++)
        local[k] = coeffs[(k + tx) & 7] * (float)p.scale + p.v[k % 3];
    float s = 0;
    for (int k = 0; k < n && k < 16; k++)
        s += local[(k * 7 + tx) & 15];
    out[bx * 64 + tx] = s + (float)table2d[tx & 1][tx % 3] + (float)g_short;
    g_array[tx & 15] = p.a;
    atomicAdd(&g_counter, 1ull);
}
