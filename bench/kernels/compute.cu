// bench/kernels/compute.cu: the compute-heavy kernel of bench/func (the
// functional executor's speed). Per thread: `iters` iterations of three
// dependent fp32 FMAs, an fp32 multiply and an integer hash step (xor,
// shift, multiply, add), i.e. a register-only loop with no memory traffic,
// then one store of each result. Regenerate with bench/kernels/regen.sh.
extern "C" __global__ void compute(float *out, unsigned *iout, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = i * 1e-3f, b = 1.0001f, c = 0.5f, d = -0.25f;
    unsigned h = i * 2654435761u;
    for (int k = 0; k < iters; k++) {
        a = fmaf(a, b, c);
        c = fmaf(c, b, d);
        d = fmaf(d, b, a) * 0.999f;
        h = (h ^ (h >> 13)) * 0x5bd1e995u + k;
    }
    out[i] = a + c + d;
    iout[i] = h;
}
