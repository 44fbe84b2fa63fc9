// Divergent control flow: if/else, loops with break and continue, switch.
extern "C" __global__ void divergent(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = in[i];
    int acc = 0;
    if (x & 1)
        acc = x * 3 + 1;
    else
        acc = x / 2;
    for (int k = 0; k < x; k++) {
        if ((k ^ x) & 4)
            continue;
        if (acc > 1000)
            break;
        acc += k * k;
    }
    while (acc > 17) {
        acc -= 17;
        if (acc == 42)
            break;
    }
    out[i] = acc;
}
