// Fences, volatile loads, vote/ballot, match, activemask, spin lock with atomicCAS,
// extern dynamic shared memory, clock, atomics of many kinds.
extern "C" __global__ void sync_misc(volatile int *flag, int *lock, unsigned *out, int *counter,
                                     unsigned long long *c64, float *fsum, double *dsum)
{
    extern __shared__ __align__(16) unsigned char smem[];
    unsigned *s = (unsigned *)smem;
    int t = threadIdx.x;
    s[t] = t * 2;
    __syncthreads();
    unsigned active = __activemask();
    unsigned ballot = __ballot_sync(0xffffffffu, s[t] & 2);
    int all = __all_sync(0xffffffffu, t < 64);
    int any = __any_sync(0xffffffffu, t == 3);
    unsigned m = __match_any_sync(0xffffffffu, t & 3);
    out[t] = active ^ ballot ^ all ^ any ^ m;
    if (t == 0) {
        while (atomicCAS(lock, 0, 1) != 0)
            ;
        __threadfence();
        *counter += 1;
        __threadfence();
        atomicExch(lock, 0);
    }
    __threadfence_block();
    __threadfence_system();
    while (flag[0] == 0 && t == 1)
        ;
    atomicMin(counter + 1, t);
    atomicMax(counter + 2, t);
    atomicInc((unsigned *)counter + 3, 100u);
    atomicDec((unsigned *)counter + 4, 100u);
    atomicAnd(counter + 5, t);
    atomicOr(counter + 6, t);
    atomicXor(counter + 7, t);
    atomicAdd(c64, 1ull);
    atomicAdd(fsum, 1.0f);
    atomicAdd(dsum, 1.0);
    atomicSub(counter + 8, 1);
    out[64 + t] = (unsigned)clock() + (unsigned)clock64();
    __syncwarp();
}
