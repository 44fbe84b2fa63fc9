// workloads/halo: an integer 9-point stencil iterated `steps` times inside
// ONE launch, with the tiles' border cells exchanged through global memory
// and point-to-point flags between neighbouring blocks (no grid barrier:
// each block waits only for its up to 8 neighbours). The pattern of
// persistent-kernel halo exchange in GPU stencil codes, and of the STN
// benchmark of the GPU coherence papers (seed 001 ch. 3).
//
// Cell rule (all arithmetic mod 2^16): a cell not on the grid's outer edge
// becomes
//     (5*C + 3*(N + S + E + W) + (NE + NW + SE + SW) + step) & 0xFFFF
// where step = 0, 1, ... counts the updates; edge cells keep their value.
// The rule is not smoothing, so one stale neighbour value changes the
// final grid (a missed update never washes out).
//
// Decomposition: a 2-D grid of blocks (32x8 threads), block (bx, by) owns
// the th x tw tile at rows by*th.., columns bx*tw.. (partial tiles at the
// far edges). The tile lives in shared memory (two 16-bit buffers with a
// one-cell ghost ring), so the ONLY global-memory traffic during the
// iteration is the halo exchange:
//   - after computing state k, a block writes the four borders of its tile
//     (top and bottom rows, left and right columns; corners are part of
//     them) to its slot of parity k & 1 in `halo`, makes them visible
//     (__threadfence, __syncthreads) and then sets ready[block] = k + 1
//     (atomicExch: the release flag);
//   - to compute state k + 1 a block waits until every neighbour's ready is
//     >= k + 1 (threads 0..7, one neighbour each, spin on a volatile load),
//     fences (acquire), and loads the neighbours' borders of parity k & 1
//     with PLAIN loads into its ghost ring. These loads and the flag loads
//     are the inter-block communication; on the non-coherent L1 the fence's
//     L1 invalidation is what keeps them from hitting a stale line (the
//     halo slot of the same parity was read two steps earlier).
// Two parities suffice: a block overwrites parity p (state k + 1) only
// after all neighbours announced state k, i.e. after they finished reading
// its state k - 1 (same parity).
// Blocks wait for each other, so all must be resident: the host sizes the
// tiles so that the grid fits (occupancy x SM count).

#define BX 32
#define BY 8

// Ghost-ring buffer index of tile cell (r, c), r in [-1, th], c in [-1, tw].
#define SIDX(r, c) (((r) + 1) * (tw + 2) + (c) + 1)

extern "C" __global__ void __maxnreg__(32) // (not 64: more tiles resident at once)
    halo_stencil(const unsigned *init, unsigned *out, unsigned *halo, unsigned *ready, int h, int w, int th, int tw,
                 int steps)
{
    extern __shared__ unsigned short s_buf[]; // two (th + 2) x (tw + 2) buffers
    int gx = gridDim.x, gy = gridDim.y;
    int bx = blockIdx.x, by = blockIdx.y;
    int me = by * gx + bx;
    int r0 = by * th, c0 = bx * tw;
    int rh = min(th, h - r0), cw = min(tw, w - c0); // this tile's extent
    int tid = threadIdx.y * BX + threadIdx.x;
    int slot = 2 * tw + 2 * th; // words per block and parity: top, bottom, left, right
    unsigned short *cur = s_buf, *nxt = s_buf + (th + 2) * (tw + 2);

    for (int r = threadIdx.y; r < rh; r += BY)
        for (int c = threadIdx.x; c < cw; c += BX)
            cur[SIDX(r, c)] = (unsigned short)init[(size_t)(r0 + r) * w + c0 + c];
    __syncthreads();

    for (int k = 0;; k++) {
        // Publish the borders of state k (parity k & 1) and announce it.
        unsigned *mine = halo + ((size_t)me * 2 + (k & 1)) * slot;
        for (int c = tid; c < cw; c += BX * BY) {
            mine[c] = cur[SIDX(0, c)];               // top row
            mine[tw + c] = cur[SIDX(rh - 1, c)];     // bottom row
        }
        for (int r = tid; r < rh; r += BX * BY) {
            mine[2 * tw + r] = cur[SIDX(r, 0)];      // left column
            mine[2 * tw + th + r] = cur[SIDX(r, cw - 1)]; // right column
        }
        __threadfence(); // borders visible before the flag
        __syncthreads();
        if (tid == 0)
            atomicExch(&ready[me], (unsigned)(k + 1));
        if (k == steps)
            break;

        // Wait for the neighbours' state k: thread d watches direction d.
        if (tid < 8) {
            int d = tid < 4 ? tid : tid + 1; // 3x3 neighbourhood without its centre
            int nx = bx + d % 3 - 1, ny = by + d / 3 - 1;
            if (nx >= 0 && nx < gx && ny >= 0 && ny < gy) {
                volatile unsigned *flag = ready + ny * gx + nx;
                while (*flag < (unsigned)(k + 1))
                    ;
            }
            __threadfence(); // acquire: the border loads below see the neighbours' stores
        }
        __syncthreads();

        // Ghost ring of state k from the neighbours' borders (parity k & 1).
        // A neighbour exists wherever a ghost cell is needed: cells on the
        // grid's outer edge are not updated, so their outside ghosts are not
        // read.
        const unsigned *nb;
        size_t par = (size_t)(k & 1);
        if (by > 0) { // north neighbour's bottom row -> ghost row -1
            nb = halo + ((size_t)(me - gx) * 2 + par) * slot;
            for (int c = tid; c < cw; c += BX * BY)
                cur[SIDX(-1, c)] = (unsigned short)nb[tw + c];
        }
        if (by < gy - 1) { // south neighbour's top row -> ghost row rh
            nb = halo + ((size_t)(me + gx) * 2 + par) * slot;
            for (int c = tid; c < cw; c += BX * BY)
                cur[SIDX(rh, c)] = (unsigned short)nb[c];
        }
        if (bx > 0) { // west neighbour's right column -> ghost column -1
            nb = halo + ((size_t)(me - 1) * 2 + par) * slot;
            for (int r = tid; r < rh; r += BX * BY)
                cur[SIDX(r, -1)] = (unsigned short)nb[2 * tw + th + r];
        }
        if (bx < gx - 1) { // east neighbour's left column -> ghost column cw
            nb = halo + ((size_t)(me + 1) * 2 + par) * slot;
            for (int r = tid; r < rh; r += BX * BY)
                cur[SIDX(r, cw)] = (unsigned short)nb[2 * tw + r];
        }
        // Corners: one cell each from the diagonal neighbours' bottom/top
        // rows (a west or north neighbour is never a partial tile).
        if (tid == 0 && by > 0 && bx > 0) // NW: bottom row, last cell
            cur[SIDX(-1, -1)] = (unsigned short)halo[((size_t)(me - gx - 1) * 2 + par) * slot + tw + tw - 1];
        if (tid == 1 && by > 0 && bx < gx - 1) // NE: bottom row, first cell
            cur[SIDX(-1, cw)] = (unsigned short)halo[((size_t)(me - gx + 1) * 2 + par) * slot + tw];
        if (tid == 2 && by < gy - 1 && bx > 0) // SW: top row, last cell
            cur[SIDX(rh, -1)] = (unsigned short)halo[((size_t)(me + gx - 1) * 2 + par) * slot + tw - 1];
        if (tid == 3 && by < gy - 1 && bx < gx - 1) // SE: top row, first cell
            cur[SIDX(rh, cw)] = (unsigned short)halo[((size_t)(me + gx + 1) * 2 + par) * slot];
        __syncthreads();

        // State k + 1 from state k.
        for (int r = threadIdx.y; r < rh; r += BY)
            for (int c = threadIdx.x; c < cw; c += BX) {
                int gr = r0 + r, gc = c0 + c;
                unsigned v = cur[SIDX(r, c)];
                if (gr > 0 && gr < h - 1 && gc > 0 && gc < w - 1) {
                    unsigned edge = (unsigned)cur[SIDX(r - 1, c)] + cur[SIDX(r + 1, c)] + cur[SIDX(r, c - 1)] +
                                    cur[SIDX(r, c + 1)];
                    unsigned diag = (unsigned)cur[SIDX(r - 1, c - 1)] + cur[SIDX(r - 1, c + 1)] +
                                    cur[SIDX(r + 1, c - 1)] + cur[SIDX(r + 1, c + 1)];
                    v = (5u * v + 3u * edge + diag + (unsigned)k) & 0xFFFFu;
                }
                nxt[SIDX(r, c)] = (unsigned short)v;
            }
        __syncthreads();
        unsigned short *t = cur;
        cur = nxt;
        nxt = t;
    }

    for (int r = threadIdx.y; r < rh; r += BY)
        for (int c = threadIdx.x; c < cw; c += BX)
            out[(size_t)(r0 + r) * w + c0 + c] = cur[SIDX(r, c)];
}
