// workloads/transpose: out = in^T for a rows x cols float matrix (row-major),
// mirroring the CUDA SDK "transpose" sample's two ends: a naive kernel
// (coalesced reads, stride-`rows` writes) and a shared-memory tiled kernel
// (32x32 tiles, 32x8 threads, 4 elements per thread, tile rows padded to 33
// words so the column-wise shared reads hit 32 different banks); both reads
// and writes of the tiled kernel are coalesced. Any rows/cols are handled:
// edge tiles test their bounds.
#define TILE 32
#define BLOCK_ROWS 8

// One thread per element: thread (x, y) reads in[y][x] and writes out[x][y].
// Launch: grid (ceil(cols/32), ceil(rows/8)), block (32, 8).
extern "C" __global__ void transpose_naive(const float *__restrict__ in, float *__restrict__ out, int rows,
                                           int cols)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * BLOCK_ROWS + threadIdx.y;
    if (x < cols && y < rows)
        out[(size_t)x * rows + y] = in[(size_t)y * cols + x];
}

// One CTA per 32x32 tile: load the tile row-wise into shared memory, then
// write it out row-wise from the transposed position, reading shared memory
// column-wise. Launch: grid (ceil(cols/32), ceil(rows/32)), block (32, 8).
extern "C" __global__ void transpose_tiled(const float *__restrict__ in, float *__restrict__ out, int rows,
                                           int cols)
{
    __shared__ float tile[TILE][TILE + 1]; // +1: column reads are bank-conflict free

    // Load: thread (tx, ty) reads column x of input rows y0 + 8k, k = 0..3.
    int x = blockIdx.x * TILE + threadIdx.x;
    int y0 = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (x < cols && y0 + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y0 + j) * cols + x];
    __syncthreads();

    // Store: the tile lands at output rows blockIdx.x * 32 + ... (input
    // columns) and output columns blockIdx.y * 32 + ... (input rows).
    int ox = blockIdx.y * TILE + threadIdx.x;
    int oy0 = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (ox < rows && oy0 + j < cols)
            out[(size_t)(oy0 + j) * rows + ox] = tile[threadIdx.x][threadIdx.y + j];
}
