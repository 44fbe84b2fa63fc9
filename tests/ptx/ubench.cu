// Microbenchmark kernels for validating the timing model (docs/ubench.md).
// Each kernel reads %clock64 around its measured region; in functional mode
// %clock64 counts the warp's executed instructions, in timing mode it will
// count core cycles. The host drivers are in tests/test_ubench.c, the
// expected values in tests/support/ubench_expect.c.
//
// chase_ca / chase_cg: one thread follows a chain of 64-bit device pointers
//   (each element holds the address of the next), so every hop is one
//   dependent ld.global (.ca: cached in L1; .cg: L1 bypassed, L2 only) and
//   no address arithmetic. pre_hops hops run untimed (warm-up or opening a
//   DRAM row), then hops timed hops between two %clock64 reads.
//   times[0] = clock before, times[1] = clock after, *out = final pointer.
// smem_stride: one warp; lane l reads word l*stride of a shared array reps
//   times (volatile, so every iteration is a real ld.shared); the bank
//   conflict degree of one access is the largest number of distinct words
//   per bank. times[0..1] = clock around the loop (lane 0), out[l] = sum.
// stream: grid-stride over n uint4 elements; mode 0 reads (sum per thread
//   written to out[tid]), mode 1 copies src to dst. Each CTA's thread 0
//   writes its start/end %clock64 to times[2*cta], times[2*cta+1]. The read
//   mode uses ld.global.cg: through the L1, its 32 MSHRs x 128 B x 15 SMs =
//   60 KB in flight would stay below the bandwidth-latency product (about
//   254 B/cycle x 270 cycles = 68 KB for gtx480), so the L1 would cap it.

#define LD_CHAIN(op, p) asm volatile(op " %0, [%1];" : "=l"(p) : "l"(p) : "memory")

static __device__ __forceinline__ unsigned long long clk(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

extern "C" __global__ void chase_ca(unsigned long long start, unsigned pre_hops, unsigned hops,
                                    unsigned long long *times, unsigned long long *out)
{
    unsigned long long p = start;
    for (unsigned i = 0; i < pre_hops; i++)
        LD_CHAIN("ld.global.ca.u64", p);
    unsigned long long t0 = clk();
    for (unsigned i = 0; i < hops; i++)
        LD_CHAIN("ld.global.ca.u64", p);
    unsigned long long t1 = clk();
    times[0] = t0;
    times[1] = t1;
    *out = p;
}

extern "C" __global__ void chase_cg(unsigned long long start, unsigned pre_hops, unsigned hops,
                                    unsigned long long *times, unsigned long long *out)
{
    unsigned long long p = start;
    for (unsigned i = 0; i < pre_hops; i++)
        LD_CHAIN("ld.global.cg.u64", p);
    unsigned long long t0 = clk();
    for (unsigned i = 0; i < hops; i++)
        LD_CHAIN("ld.global.cg.u64", p);
    unsigned long long t1 = clk();
    times[0] = t0;
    times[1] = t1;
    *out = p;
}

#define SMEM_WORDS 2048 // 8 KB: strides up to 64 words for 32 lanes

extern "C" __global__ void smem_stride(unsigned stride, unsigned reps, unsigned long long *times, unsigned *out)
{
    __shared__ unsigned s[SMEM_WORDS];
    unsigned lane = threadIdx.x;
    for (unsigned i = lane; i < SMEM_WORDS; i += blockDim.x)
        s[i] = 3u * i + 1u;
    __syncthreads();
    volatile unsigned *vs = s;
    unsigned idx = (lane * stride) % SMEM_WORDS;
    unsigned acc = 0;
    unsigned long long t0 = clk();
    for (unsigned r = 0; r < reps; r++)
        acc += vs[idx];
    unsigned long long t1 = clk();
    if (lane == 0) {
        times[0] = t0;
        times[1] = t1;
    }
    out[lane] = acc;
}

extern "C" __global__ void stream(const uint4 *src, uint4 *dst, unsigned n, unsigned mode,
                                  unsigned long long *times, unsigned *out)
{
    unsigned long long t0 = clk();
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned nthreads = gridDim.x * blockDim.x;
    if (mode == 0) {
        unsigned acc = 0;
        for (unsigned i = tid; i < n; i += nthreads) {
            uint4 v = __ldcg(&src[i]); // ld.global.cg: see below
            acc += v.x + v.y + v.z + v.w;
        }
        out[tid] = acc;
    } else {
        for (unsigned i = tid; i < n; i += nthreads)
            dst[i] = src[i];
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        times[2 * blockIdx.x] = t0;
        times[2 * blockIdx.x + 1] = clk();
    }
}
