// workloads/nw: Needleman-Wunsch global alignment score matrix, mirroring
// Rodinia's nw (written for gpusim). For sequences a (rows) and b (columns)
// of length n, the (n+1) x (n+1) matrix holds
//   S[i][j] = max(S[i-1][j-1] + sub(a_i, b_j), S[i-1][j] - gap, S[i][j-1] - gap)
// with S[i][0] = -i*gap and S[0][j] = -j*gap (set by the host) and
// sub(a_i, b_j) precomputed by the host in ref[i][j] (BLOSUM62 scores).
//
// The n x n interior is cut into 16x16 tiles. A tile depends on its upper,
// left and upper-left neighbours, so the tiles of one anti-diagonal are
// independent: the host launches one kernel per tile diagonal, first
// nw_upper_left for the diagonals that start in the first tile column
// (growing from 1 tile to n/16), then nw_lower_right for the shrinking ones.
// One CTA of 16 threads (half a warp) computes one tile: it stages the 16x16
// substitution scores and the tile's top row and left column of S in shared
// memory and sweeps the tile's 31 inner anti-diagonals with a barrier
// between them (thread t owns column t; idle while its cell is off the
// current diagonal).

#define NW_TILE 16

__device__ void nw_tile(int *__restrict__ score, const int *__restrict__ ref, int width, int ti, int tj, int gap)
{
    __shared__ int s[NW_TILE + 1][NW_TILE + 1]; // S over the tile plus its top row and left column
    __shared__ int sub[NW_TILE][NW_TILE];
    int t = threadIdx.x;
    int row0 = ti * NW_TILE, col0 = tj * NW_TILE; // S index of the tile's top-left halo corner

    for (int r = 0; r < NW_TILE; r++)
        sub[r][t] = ref[(row0 + 1 + r) * width + col0 + 1 + t];
    s[0][t + 1] = score[row0 * width + col0 + 1 + t];
    s[t + 1][0] = score[(row0 + 1 + t) * width + col0];
    if (t == 0)
        s[0][0] = score[row0 * width + col0];
    __syncthreads();

    for (int d = 0; d < 2 * NW_TILE - 1; d++) {
        int r = d - t; // this thread's row on diagonal d
        if (r >= 0 && r < NW_TILE) {
            int diag = s[r][t] + sub[r][t];
            int up = s[r][t + 1] - gap, left = s[r + 1][t] - gap;
            s[r + 1][t + 1] = max(diag, max(up, left));
        }
        __syncthreads();
    }

    for (int r = 0; r < NW_TILE; r++)
        score[(row0 + 1 + r) * width + col0 + 1 + t] = s[r + 1][t + 1];
}

// Tile diagonal diag (0 .. n/16 - 1): tiles (diag - b, b) for b = blockIdx.x.
extern "C" __global__ void nw_upper_left(int *score, const int *ref, int width, int diag, int gap)
{
    int b = blockIdx.x;
    nw_tile(score, ref, width, diag - b, b, gap);
}

// Tile diagonal diag (n/16 .. 2 n/16 - 2): tiles (n/16 - 1 - b, diag - n/16 + 1 + b).
extern "C" __global__ void nw_lower_right(int *score, const int *ref, int width, int diag, int gap)
{
    int tiles = (width - 1) / NW_TILE, b = blockIdx.x;
    nw_tile(score, ref, width, tiles - 1 - b, diag - tiles + 1 + b, gap);
}
