// workloads/vpr: simulated-annealing placement of a netlist on a G x G grid
// of slots (VPR's placer, the VPR benchmark of the GPU coherence papers,
// seed 001 ch. 3), as synchronous parallel swap rounds in ONE launch, so
// the result is the same for every schedule.
//
// Cost: the sum over nets of the half-perimeter of the net's bounding box
// (HPWL), kept per net in net_cost[].
// Round p (each phase ended by the grid barrier):
//   propose: slots are paired by XOR of their coordinates with masks
//            (mr, mc) drawn from hash(seed, p) below a range limit that
//            shrinks over the rounds (pairs are disjoint: XOR is an
//            involution); the thread of the lower slot evaluates swapping
//            the two slots' cells (either may be empty): the new HPWL of
//            every net of the two cells, from the current positions of all
//            their pins (cells owned by other blocks), minus net_cost. It
//            accepts downhill moves and uphill moves with a probability
//            that falls with delta / temperature (integer test on
//            hash(seed, p, pair)), and then claims every net it touches
//            with a 64-bit atomicMax of (p << 32 | ~pair): the lowest pair
//            of the round wins each net.
//   commit:  an accepted swap that won all its nets moves its cells and
//            rewrites those nets' costs. Committed swaps share no net, so
//            no pin of their nets moves otherwise and every delta is exact.
// The claim keys carry the round, so they never need clearing.
//
// Inter-block communication: cell positions (cell_slot) and net costs read
// in the propose phase (plain loads after the barrier's fence; written by
// the committing blocks of the last round), the net claims (atomics, read
// back after the barrier), the barrier counter. Blocks wait at the
// barrier, so all must be resident.

#define BLOCK 64

typedef unsigned long long u64;

__device__ static unsigned mix(unsigned a, unsigned b, unsigned c)
{
    unsigned h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u ^ (c + 0x165667B1u) * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}

__device__ static void grid_barrier(unsigned *arrive, unsigned *epoch)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned target = (++*epoch) * gridDim.x;
        __threadfence();
        atomicAdd(arrive, 1u);
        while (*(volatile unsigned *)arrive < target)
            ;
        __threadfence();
    }
    __syncthreads();
}

// HPWL of net `net` with cell ca at slot sb and cell cb at slot sa (a
// swap; pass ca = cb = -1 for the current placement).
__device__ static int net_hpwl(const int *net_start, const int *net_cells, const int *cell_slot, int net, int lg,
                               int ca, int sa, int cb, int sb)
{
    int mask = (1 << lg) - 1;
    int xlo = 1 << 30, xhi = -1, ylo = 1 << 30, yhi = -1;
    for (int k = net_start[net]; k < net_start[net + 1]; k++) {
        int c = net_cells[k];
        int s = c == ca ? sb : c == cb ? sa : cell_slot[c];
        int x = s & mask, y = s >> lg;
        xlo = min(xlo, x), xhi = max(xhi, x), ylo = min(ylo, y), yhi = max(yhi, y);
    }
    return (xhi - xlo) + (yhi - ylo);
}

__device__ static bool in_list(const int *list, int lo, int hi, int v)
{
    for (int k = lo; k < hi; k++)
        if (list[k] == v)
            return true;
    return false;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
    vpr_anneal(int lg, const int *net_start, const int *net_cells, const int *cell_net_start, const int *cell_nets,
               int *cell_slot, int *slot_cell, int *net_cost, u64 *claim, unsigned char *prop, int rounds,
               unsigned seed, int t0, unsigned *arrive, unsigned *counts)
{
    int n_slots = 1 << (2 * lg), mask = (1 << lg) - 1;
    int gtid = blockIdx.x * BLOCK + threadIdx.x, gthreads = gridDim.x * BLOCK;
    unsigned epoch = 0, n_acc = 0, n_com = 0;
    for (int p = 0; p < rounds; p++) {
        // Round parameters (the same in every thread): XOR masks below the
        // range limit (a power of two from G down to 2) and temperature.
        int rl_bits = lg - (int)((long long)p * (lg - 1) / rounds);
        unsigned hp = mix(seed, (unsigned)p, 0xFFFFFFFFu);
        int mr = (int)(hp & ((1u << rl_bits) - 1)), mc = (int)((hp >> 16) & ((1u << rl_bits) - 1));
        if (mr == 0 && mc == 0)
            mc = 1;
        int temp = max(1, (int)((long long)t0 * (rounds - p) / rounds));
        u64 round_key = (u64)p << 32;

        // Propose: evaluate against the placement and costs of the last
        // round; prop[sa] (this thread's own flag) remembers acceptance.
        for (int sa = gtid; sa < n_slots; sa += gthreads) {
            prop[sa] = 0;
            int sb = (((sa >> lg) ^ mr) << lg) | ((sa & mask) ^ mc);
            if (sb <= sa)
                continue; // the lower slot of the pair evaluates it
            int ca = slot_cell[sa], cb = slot_cell[sb];
            if (ca < 0 && cb < 0)
                continue;
            int delta = 0;
            if (ca >= 0)
                for (int k = cell_net_start[ca]; k < cell_net_start[ca + 1]; k++) {
                    int net = cell_nets[k];
                    delta += net_hpwl(net_start, net_cells, cell_slot, net, lg, ca, sa, cb, sb) - net_cost[net];
                }
            if (cb >= 0)
                for (int k = cell_net_start[cb]; k < cell_net_start[cb + 1]; k++) {
                    int net = cell_nets[k];
                    if (ca >= 0 && in_list(cell_nets, cell_net_start[ca], cell_net_start[ca + 1], net))
                        continue; // shared net: counted once
                    delta += net_hpwl(net_start, net_cells, cell_slot, net, lg, ca, sa, cb, sb) - net_cost[net];
                }
            unsigned hr = mix(seed, (unsigned)p, (unsigned)sa);
            int shift = delta > 0 ? delta * 8 / temp : 0;
            if (delta > 0 && (shift >= 10 || (int)(hr & 1023u) >= (1024 >> shift)))
                continue; // rejected
            n_acc++;
            prop[sa] = 1;
            u64 key = round_key | (u64)(0xFFFFFFFFu - (unsigned)sa); // lowest pair wins
            if (ca >= 0)
                for (int k = cell_net_start[ca]; k < cell_net_start[ca + 1]; k++)
                    atomicMax(&claim[cell_nets[k]], key);
            if (cb >= 0)
                for (int k = cell_net_start[cb]; k < cell_net_start[cb + 1]; k++)
                    atomicMax(&claim[cell_nets[k]], key);
        }
        grid_barrier(arrive, &epoch);

        // Commit the accepted swaps that won every net they touch.
        for (int sa = gtid; sa < n_slots; sa += gthreads) {
            if (!prop[sa])
                continue;
            int sb = (((sa >> lg) ^ mr) << lg) | ((sa & mask) ^ mc);
            int ca = slot_cell[sa], cb = slot_cell[sb]; // only this pair writes these two slots
            u64 key = round_key | (u64)(0xFFFFFFFFu - (unsigned)sa);
            bool won = true;
            if (ca >= 0)
                for (int k = cell_net_start[ca]; k < cell_net_start[ca + 1] && won; k++)
                    won = claim[cell_nets[k]] == key;
            if (cb >= 0)
                for (int k = cell_net_start[cb]; k < cell_net_start[cb + 1] && won; k++)
                    won = claim[cell_nets[k]] == key;
            if (!won)
                continue;
            n_com++;
            slot_cell[sa] = cb;
            slot_cell[sb] = ca;
            if (ca >= 0)
                cell_slot[ca] = sb;
            if (cb >= 0)
                cell_slot[cb] = sa;
            // No other pin of these nets moves in this round.
            if (ca >= 0)
                for (int k = cell_net_start[ca]; k < cell_net_start[ca + 1]; k++)
                    net_cost[cell_nets[k]] = net_hpwl(net_start, net_cells, cell_slot, cell_nets[k], lg, -1, 0, -1, 0);
            if (cb >= 0)
                for (int k = cell_net_start[cb]; k < cell_net_start[cb + 1]; k++)
                    net_cost[cell_nets[k]] = net_hpwl(net_start, net_cells, cell_slot, cell_nets[k], lg, -1, 0, -1, 0);
        }
        grid_barrier(arrive, &epoch);
    }
    if (n_acc)
        atomicAdd(&counts[0], n_acc);
    if (n_com)
        atomicAdd(&counts[1], n_com);
}
