// bench/correlate/ubench/ukern.cu: micro-kernels that isolate one timing
// property, each compiled on its own (nvcc -DKIND=.. -DHOPS=..) into a PTX
// whose only entry has vectoradd's name and signature, so that gpusim
// (`--ptx`) and GPGPU-Sim (the stand-in cuobjdump) both run it under the
// unmodified vectoradd host driver. The driver's CPU check then reports a
// mismatch; only the cycles count (ubench.sh).
//
// Latency kernels are dependent chains run by warp 0 of each CTA (the other
// warps exit at once): HOPS steps, each one access whose address depends on
// the previous access's value. The dependence goes through an inline-asm
// `and.b32 z, v, 0` that the compiler cannot fold, so the address pattern
// is fixed while no memory needs initialising. ubench.sh runs HOPS = 256
// and 1280 and divides the cycle difference by 1024: the cost of one step,
// with launch, start-up and drain cancelled out. Sizes: tiny (4 CTAs of 8
// warps, 1000-float arrays) except the DRAM chase (small: 1 MB arrays, CTA 0
// only).
#ifndef KIND
#define KIND 0
#endif
#ifndef HOPS
#define HOPS 256
#endif
#ifndef STRIDE
#define STRIDE 1
#endif

__device__ __forceinline__ unsigned dep0(unsigned v)
{
    unsigned z;
    asm volatile("and.b32 %0, %1, 0;" : "=r"(z) : "r"(v));
    return z;
}
__device__ __forceinline__ unsigned ld_ca(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}
__device__ __forceinline__ unsigned ld_cg(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

extern "C" __global__ void vectoradd(const float *__restrict__ a, const float *__restrict__ b,
                                     float *__restrict__ c, int n)
{
    const unsigned lane = threadIdx.x;
    const unsigned *ga = (const unsigned *)a; (void)ga;
    unsigned acc = 0;
#if KIND == 1
    // smem: dependent ld.shared; lane l reads word (l * STRIDE + 32 k) mod 2048
    // (STRIDE 1: conflict-free; 2: two-way; 32: 32-way conflicts)
    __shared__ unsigned s[2048];
    if (lane >= 32) return;
    unsigned k = 0;
#pragma unroll 16
    for (int i = 0; i < HOPS; i++) {
        unsigned v = s[(lane * STRIDE + 32 * k) & 2047];
        k = (k + 1 + dep0(v)) & 63;
        acc += v;
    }
#elif KIND == 2
    // L1D hit: dependent ld.global.ca over 16 lines (2 KB of a; after the first lap every step hits)
    if (lane >= 32) return;
    unsigned k = 0;
#pragma unroll 16
    for (int i = 0; i < HOPS; i++) {
        unsigned v = ld_ca(ga + 32 * k + lane);
        k = (k + 5 + dep0(v)) & 15;
        acc += v;
    }
#elif KIND == 3
    // L2 hit: dependent ld.global.cg (L1 bypassed) over 16 lines (2 KB of a; hits after the first lap)
    if (lane >= 32) return;
    unsigned k = 0;
#pragma unroll 16
    for (int i = 0; i < HOPS; i++) {
        unsigned v = ld_cg(ga + 32 * k + lane);
        k = (k + 5 + dep0(v)) & 15;
        acc += v;
    }
#elif KIND == 4
    // DRAM: dependent ld.global.cg over 8192 lines (1 MB, size small), each line once:
    // every step is an L2 miss to a new line, rows mostly closed. CTA 0 only.
    if (lane >= 32 || blockIdx.x != 0) return;
    unsigned k = 0;
#pragma unroll 16
    for (int i = 0; i < HOPS; i++) {
        unsigned v = ld_cg(ga + 32 * k + lane);
        k = (k + 1999 + dep0(v)) & 8191;
        acc += v;
    }
#elif KIND == 5
    // FP32 pipeline: dependent fma chain (latency of one SP instruction)
    if (lane >= 32) return;
    float x = a[lane], y = 1.0001f;
#pragma unroll 16
    for (int i = 0; i < HOPS; i++)
        x = fmaf(x, y, 0.5f);
    acc = __float_as_uint(x);
#elif KIND == 6
    // issue rate: every warp of the CTA runs 4 independent fma chains
    float x0 = a[lane & 31], x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, y = 1.0001f;
#pragma unroll 16
    for (int i = 0; i < HOPS; i++) {
        x0 = fmaf(x0, y, 0.5f);
        x1 = fmaf(x1, y, 0.5f);
        x2 = fmaf(x2, y, 0.5f);
        x3 = fmaf(x3, y, 0.5f);
    }
    acc = __float_as_uint(x0 + x1 + x2 + x3);
#elif KIND == 7
    // shared-memory throughput: every warp of the CTA issues independent ld.shared
    __shared__ unsigned s[2048];
#pragma unroll 16
    for (int i = 0; i < HOPS; i++)
        acc += s[((lane & 31) * STRIDE + 32 * (i & 63) + (lane >> 5)) & 2047];
#elif KIND == 8
    // shared-memory atomics: every warp of the CTA adds 1 to word (lane * STRIDE + warp) mod 2048
    // (STRIDE 1: 32 distinct banks; STRIDE 0: all lanes of a warp on one word)
    __shared__ unsigned s[2048];
#pragma unroll 16
    for (int i = 0; i < HOPS; i++)
        atomicAdd(&s[((lane & 31) * STRIDE + (lane >> 5)) & 2047], 1u);
    __syncthreads();
    acc = s[lane & 2047];
#elif KIND == 9
    // global atomic latency: warp 0 runs a dependent atom.global.add chain over 16 lines of c
    // (the returned value feeds the next address); every step is one L2 atomic round trip
    unsigned *gc = (unsigned *)c;
    if (lane >= 32) return;
    unsigned k = 0;
#pragma unroll 16
    for (int i = 0; i < HOPS; i++) {
        unsigned v = atomicAdd(gc + 32 * k + lane, 1u);
        k = (k + 5 + dep0(v)) & 15;
        acc += v;
    }
#elif KIND == 10
    // global atomic throughput: CTA 0 only; each of its 8 warps adds 1 to word
    // (32 warp + lane * STRIDE) mod 256 of c, independent of the previous step
    // (STRIDE 1: one line per warp, 32 distinct words; STRIDE 0: all lanes of a warp on one word)
    unsigned *gc = (unsigned *)c;
    if (blockIdx.x != 0) return;
#pragma unroll 16
    for (int i = 0; i < HOPS; i++)
        atomicAdd(gc + ((32 * (lane >> 5) + (lane & 31) * STRIDE) & 255), 1u);
#elif KIND == 11
    // SFU latency: warp 0 runs a dependent ex2.approx chain
    if (lane >= 32) return;
    float x = a[lane];
#pragma unroll 16
    for (int i = 0; i < HOPS; i++)
        asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x));
    acc = __float_as_uint(x);
#elif KIND == 12
    // SFU throughput: every warp of the CTA runs 4 independent ex2.approx chains
    float x0 = a[lane & 31], x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;
#pragma unroll 16
    for (int i = 0; i < HOPS; i++) {
        asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x0));
        asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x1));
        asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x2));
        asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x3));
    }
    acc = __float_as_uint(x0 + x1 + x2 + x3);
#elif KIND == 13
    // L2-hit throughput: every warp of the CTA issues independent ld.global.cg of its own line of a
    // 16-line (2 KB) window of a (all hits after the first lap); STRIDE lines apart per step
    if (lane >= 32 * 8) return;
#pragma unroll 16
    for (int i = 0; i < HOPS; i++)
        acc += ld_cg(ga + 32 * (((lane >> 5) + STRIDE * i) & 15) + (lane & 31));
#elif KIND == 14
    // L1D-hit throughput: the same with ld.global.ca (hits in the L1D after the first lap)
    if (lane >= 32 * 8) return;
#pragma unroll 16
    for (int i = 0; i < HOPS; i++)
        acc += ld_ca(ga + 32 * (((lane >> 5) + STRIDE * i) & 15) + (lane & 31));
#elif KIND == 15 || KIND == 16
    // L2-hit bandwidth of the whole GPU: CTAs 0-119 (8 per SM on 15 SMs, size small), each of their
    // warps issues independent loads of its own line of a 256 KB window of a (2048 lines, spread over
    // every L2 slice; hits after the first lap). 15: ld.global.cg (L1D bypassed); 16: ld.global.ca
    // (the 16 KB L1D cannot hold the window: every access an L1D miss and an L2 hit, line fills)
    if (blockIdx.x >= 120) return;
    const unsigned wid = blockIdx.x * 8 + (lane >> 5);
#pragma unroll 16
    for (int i = 0; i < HOPS; i++) {
        const unsigned *p = ga + 32 * ((wid + 960 * STRIDE * i) & 2047) + (lane & 31);
        acc += KIND == 15 ? ld_cg(p) : ld_ca(p);
    }
#elif KIND == 17
    // Uncoalesced loads at one SM (a column walk, as gaussian's gauss_fan1 and nw do): CTA 0's 8 warps
    // (size small), every lane its own line of a 128 KB window of a (1024 lines: each warp load is 32
    // L1D misses, L2 hits after the first lap); independent loads, ld.global.ca
    if (blockIdx.x != 0) return;
#pragma unroll 16
    for (int i = 0; i < HOPS; i++)
        acc += ld_ca(ga + 32 * ((lane + 256 * STRIDE * i) & 1023));
#elif KIND == 18
    // Uncoalesced stores at one SM (gauss_fan1 writes a column of m): CTA 0's 8 warps, every lane a
    // word of its own line of a 128 KB window of c (32 write requests per warp store), independent
    if (blockIdx.x != 0) return;
    unsigned *gc = (unsigned *)c;
#pragma unroll 16
    for (int i = 0; i < HOPS; i++)
        asm volatile("st.global.u32 [%0], %1;" ::"l"(gc + 32 * ((lane + 256 * STRIDE * i) & 1023)), "r"(lane + i));
#endif
    if (blockIdx.x * blockDim.x + lane < n)
        c[blockIdx.x * blockDim.x + lane] = __uint_as_float(acc);
}
