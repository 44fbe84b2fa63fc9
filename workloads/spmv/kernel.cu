// workloads/spmv: sparse matrix-vector product y = A x with A in CSR
// (row_ptr, col, val), mirroring Parboil spmv (which uses the same
// irregular row-wise gather), written for gpusim.
//
// spmv_scalar: one thread per row walks its row sequentially. Neighbouring
// threads read from different rows (uncoalesced val/col loads) and a warp
// runs as long as its longest row (divergence on varied row lengths).
//
// spmv_vector: one warp per row; lane l takes nonzeros l, l+32, ... of the
// row (coalesced val/col loads) and the 32 partial sums are combined with a
// warp-shuffle tree. Good for long rows, wasteful for short ones.
//
// Both gather x[col] at random addresses.
extern "C" __global__ void spmv_scalar(const int *__restrict__ row_ptr, const int *__restrict__ col,
                                       const float *__restrict__ val, const float *__restrict__ x,
                                       float *__restrict__ y, int rows)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float sum = 0.0f;
        for (int j = row_ptr[row]; j < row_ptr[row + 1]; j++)
            sum += val[j] * x[col[j]];
        y[row] = sum;
    }
}

extern "C" __global__ void spmv_vector(const int *__restrict__ row_ptr, const int *__restrict__ col,
                                       const float *__restrict__ val, const float *__restrict__ x,
                                       float *__restrict__ y, int rows)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (row < rows) { // uniform per warp, so the full-mask shuffles below are safe
        float sum = 0.0f;
        for (int j = row_ptr[row] + lane; j < row_ptr[row + 1]; j += 32)
            sum += val[j] * x[col[j]];
#pragma unroll
        for (int off = 16; off > 0; off >>= 1)
            sum += __shfl_down_sync(0xffffffffu, sum, off);
        if (lane == 0)
            y[row] = sum;
    }
}
