// workloads/nqu: count the solutions of the N-queens problem, mirroring the
// ISPASS-2009 NQU benchmark. The host places queens on the first rows in
// every consistent way (the "prefixes"); each thread counts the completions
// of one prefix by iterative bitmask backtracking with its stack in shared
// memory, and each block sums its threads' counts with a shared-memory tree.
//
// Board state of a partial placement, one bit per column of the next row:
//   cols  columns already taken
//   ld    squares attacked along down-left diagonals (shifted left per row)
//   rd    squares attacked along down-right diagonals (shifted right per row)
// Free squares of the next row: ~(cols | ld | rd) & ((1 << n) - 1).
// Integer-only, heavily divergent (subtree sizes differ per thread).
#define BLOCK 64     // threads per block (the launch must use exactly this)
#define MAX_LEVELS 11 // stacked levels: supports rows_left <= MAX_LEVELS + 1

// Launch: grid (ceil(nprefix / BLOCK)), block (BLOCK). Prefix p is
// (cols[p], ld[p], rd[p]) after the first n - rows_left rows; the block's
// total number of completions goes to block_counts[blockIdx.x].
extern "C" __global__ void nqueens(const unsigned *__restrict__ cols, const unsigned *__restrict__ ld,
                                   const unsigned *__restrict__ rd, unsigned *__restrict__ block_counts,
                                   int nprefix, int n, int rows_left)
{
    // Per level: the candidates still to try and the state they apply to.
    // Indexed [level][thread] so a warp's accesses hit 32 different banks.
    __shared__ unsigned s_avail[MAX_LEVELS][BLOCK], s_cols[MAX_LEVELS][BLOCK];
    __shared__ unsigned s_ld[MAX_LEVELS][BLOCK], s_rd[MAX_LEVELS][BLOCK];
    __shared__ unsigned s_count[BLOCK];

    unsigned tid = threadIdx.x;
    int p = blockIdx.x * BLOCK + tid;
    unsigned count = 0;
    if (p < nprefix) {
        unsigned all = (1u << n) - 1;
        unsigned c = cols[p], l = ld[p], r = rd[p];
        unsigned avail = all & ~(c | l | r);
        int d = 0, last = rows_left - 1; // d: row being filled, relative to the prefix
        for (;;) {
            if (d == last) { // last row: every free square completes a solution
                count += __popc(avail);
                avail = 0;
            }
            if (avail == 0) { // row exhausted: back to the previous row
                if (d == 0)
                    break;
                d--;
                avail = s_avail[d][tid];
                c = s_cols[d][tid];
                l = s_ld[d][tid];
                r = s_rd[d][tid];
                continue;
            }
            // Place a queen on the lowest free square; push the rest of this
            // row's candidates and descend.
            unsigned bit = avail & (0u - avail);
            s_avail[d][tid] = avail ^ bit;
            s_cols[d][tid] = c;
            s_ld[d][tid] = l;
            s_rd[d][tid] = r;
            c |= bit;
            l = (l | bit) << 1;
            r = (r | bit) >> 1;
            avail = all & ~(c | l | r);
            d++;
        }
    }

    // Block sum of the per-thread counts.
    s_count[tid] = count;
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        __syncthreads();
        if (tid < s)
            s_count[tid] += s_count[tid + s];
    }
    if (tid == 0)
        block_counts[blockIdx.x] = s_count[0];
}
