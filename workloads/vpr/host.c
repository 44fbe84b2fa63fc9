/* workloads/vpr/host.c: driver for vpr (simulated-annealing placement by
 * synchronous parallel swap rounds in one launch, grid barrier between the
 * propose and commit phases).
 *
 * Input from --seed: a G x G slot grid holding n_cells = 3/4 of G^2 cells
 * at a random initial placement; nets of 2-4 pins, each a random driver
 * cell plus cells within +-16 of it in index order (netlist locality that
 * the random placement hides, so annealing has structure to find).
 * Launch: 64-thread blocks, one thread per slot where possible, at most the
 * resident CTA count (blocks wait at the barrier).
 * Checks (all exact, integers): the final placement (cell -> slot and
 * slot -> cell), every net's cost, and the accepted / committed swap counts
 * against a CPU replay of the same rounds (the algorithm is
 * schedule-independent by construction); the device's net costs must sum
 * to the HPWL recomputed from scratch from the final placement, and the
 * placement must be a bijection of cells onto slots. */
#include <stdlib.h>
#include <string.h>

#include "wl.h"

#define BLOCK 64

struct netlist {
    int lg, n_slots, n_cells, n_nets;
    int32_t *net_start, *net_cells, *cell_net_start, *cell_nets;
};

static uint32_t mix(uint32_t a, uint32_t b, uint32_t c) /* as in kernel.cu */
{
    uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u ^ (c + 0x165667B1u) * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}

static int net_hpwl(const struct netlist *nl, const int32_t *cell_slot, int net, int ca, int sa, int cb, int sb)
{
    int mask = (1 << nl->lg) - 1;
    int xlo = 1 << 30, xhi = -1, ylo = 1 << 30, yhi = -1;
    for (int k = nl->net_start[net]; k < nl->net_start[net + 1]; k++) {
        int c = nl->net_cells[k];
        int s = c == ca ? sb : c == cb ? sa : cell_slot[c];
        int x = s & mask, y = s >> nl->lg;
        xlo = x < xlo ? x : xlo, xhi = x > xhi ? x : xhi;
        ylo = y < ylo ? y : ylo, yhi = y > yhi ? y : yhi;
    }
    return (xhi - xlo) + (yhi - ylo);
}

static bool cell_has_net(const struct netlist *nl, int c, int net)
{
    for (int k = nl->cell_net_start[c]; k < nl->cell_net_start[c + 1]; k++)
        if (nl->cell_nets[k] == net)
            return true;
    return false;
}

/* The rounds of kernel.cu, sequentially. counts[0]/[1]: accepted/committed. */
static void replay(const struct netlist *nl, int32_t *cell_slot, int32_t *slot_cell, int32_t *net_cost,
                   uint32_t *best, uint8_t *prop, int rounds, uint32_t seed, int t0, uint32_t counts[2])
{
    int lg = nl->lg, mask = (1 << lg) - 1;
    for (int p = 0; p < rounds; p++) {
        int rl_bits = lg - (int)((int64_t)p * (lg - 1) / rounds);
        uint32_t hp = mix(seed, (uint32_t)p, 0xFFFFFFFFu);
        int mr = (int)(hp & ((1u << rl_bits) - 1)), mc = (int)((hp >> 16) & ((1u << rl_bits) - 1));
        if (mr == 0 && mc == 0)
            mc = 1;
        int temp = (int)((int64_t)t0 * (rounds - p) / rounds);
        temp = temp < 1 ? 1 : temp;
        for (int net = 0; net < nl->n_nets; net++)
            best[net] = UINT32_MAX; /* lowest accepted slot touching the net */
        for (int sa = 0; sa < nl->n_slots; sa++) {
            prop[sa] = 0;
            int sb = (((sa >> lg) ^ mr) << lg) | ((sa & mask) ^ mc);
            if (sb <= sa)
                continue;
            int ca = slot_cell[sa], cb = slot_cell[sb];
            if (ca < 0 && cb < 0)
                continue;
            int delta = 0;
            if (ca >= 0)
                for (int k = nl->cell_net_start[ca]; k < nl->cell_net_start[ca + 1]; k++) {
                    int net = nl->cell_nets[k];
                    delta += net_hpwl(nl, cell_slot, net, ca, sa, cb, sb) - net_cost[net];
                }
            if (cb >= 0)
                for (int k = nl->cell_net_start[cb]; k < nl->cell_net_start[cb + 1]; k++) {
                    int net = nl->cell_nets[k];
                    if (ca >= 0 && cell_has_net(nl, ca, net))
                        continue;
                    delta += net_hpwl(nl, cell_slot, net, ca, sa, cb, sb) - net_cost[net];
                }
            uint32_t hr = mix(seed, (uint32_t)p, (uint32_t)sa);
            int shift = delta > 0 ? delta * 8 / temp : 0;
            if (delta > 0 && (shift >= 10 || (int)(hr & 1023u) >= (1024 >> shift)))
                continue;
            counts[0]++;
            prop[sa] = 1;
            int cells[2] = {ca, cb};
            for (int i = 0; i < 2; i++)
                if (cells[i] >= 0)
                    for (int k = nl->cell_net_start[cells[i]]; k < nl->cell_net_start[cells[i] + 1]; k++) {
                        int net = nl->cell_nets[k];
                        if ((uint32_t)sa < best[net])
                            best[net] = (uint32_t)sa;
                    }
        }
        for (int sa = 0; sa < nl->n_slots; sa++) {
            if (!prop[sa])
                continue;
            int sb = (((sa >> lg) ^ mr) << lg) | ((sa & mask) ^ mc);
            int ca = slot_cell[sa], cb = slot_cell[sb];
            int cells[2] = {ca, cb};
            bool won = true;
            for (int i = 0; i < 2; i++)
                if (cells[i] >= 0)
                    for (int k = nl->cell_net_start[cells[i]]; k < nl->cell_net_start[cells[i] + 1]; k++)
                        won = won && best[nl->cell_nets[k]] == (uint32_t)sa;
            if (!won)
                continue;
            counts[1]++;
            slot_cell[sa] = cb;
            slot_cell[sb] = ca;
            if (ca >= 0)
                cell_slot[ca] = sb;
            if (cb >= 0)
                cell_slot[cb] = sa;
            for (int i = 0; i < 2; i++)
                if (cells[i] >= 0)
                    for (int k = nl->cell_net_start[cells[i]]; k < nl->cell_net_start[cells[i] + 1]; k++)
                        net_cost[nl->cell_nets[k]] = net_hpwl(nl, cell_slot, nl->cell_nets[k], -1, 0, -1, 0);
        }
    }
}

static int run(struct wl *w)
{
    struct netlist nl;
    nl.lg = (int)wl_pick(w, 4, 5, 7, 8);
    int rounds = (int)wl_pick(w, 30, 32, 100, 150);
    int t0 = 32; /* initial temperature: an uphill move of delta is taken with probability 2^-(8 delta / T) */
    nl.n_slots = 1 << (2 * nl.lg);
    nl.n_cells = nl.n_slots * 3 / 4;
    nl.n_nets = nl.n_cells * 11 / 10;
    uint32_t seed = (uint32_t)w->seed * 0x9E3779B9u + 1u;
    size_t sb = (size_t)nl.n_slots * sizeof(int32_t), cb = (size_t)nl.n_cells * sizeof(int32_t),
           nb = (size_t)nl.n_nets * sizeof(int32_t);
    nl.net_start = wl_host_alloc(w, nb + sizeof(int32_t));
    nl.net_cells = wl_host_alloc(w, 4 * nb);
    nl.cell_net_start = wl_host_alloc(w, cb + sizeof(int32_t));
    nl.cell_nets = wl_host_alloc(w, 4 * nb);
    int32_t *cell_slot = wl_host_alloc(w, cb), *slot_cell = wl_host_alloc(w, sb), *net_cost = wl_host_alloc(w, nb);
    int32_t *r_cell_slot = wl_host_alloc(w, cb), *r_slot_cell = wl_host_alloc(w, sb),
            *r_net_cost = wl_host_alloc(w, nb);
    int32_t *got_cell_slot = wl_host_alloc(w, cb), *got_slot_cell = wl_host_alloc(w, sb),
            *got_net_cost = wl_host_alloc(w, nb);
    uint32_t *best = wl_host_alloc(w, nb);
    uint8_t *prop = wl_host_alloc(w, (size_t)nl.n_slots);
    int32_t *fill = wl_host_alloc(w, cb);
    if (!wl_ok(w))
        goto out;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    /* Nets (distinct pins), then the cell -> nets lists. */
    int np = 0;
    for (int net = 0; net < nl.n_nets; net++) {
        nl.net_start[net] = np;
        int pins = 2 + (int)wl_rng_below(&r, 3);
        int drv = (int)wl_rng_below(&r, (uint32_t)nl.n_cells);
        nl.net_cells[np++] = drv;
        while (np - nl.net_start[net] < pins) {
            int c = (drv + (int)wl_rng_below(&r, 33) - 16 + nl.n_cells) % nl.n_cells;
            bool dup = false;
            for (int k = nl.net_start[net]; k < np; k++)
                dup = dup || nl.net_cells[k] == c;
            if (!dup)
                nl.net_cells[np++] = c;
        }
    }
    nl.net_start[nl.n_nets] = np;
    for (int k = 0; k < np; k++)
        nl.cell_net_start[nl.net_cells[k] + 1]++;
    for (int c = 0; c < nl.n_cells; c++)
        nl.cell_net_start[c + 1] += nl.cell_net_start[c];
    for (int net = 0; net < nl.n_nets; net++)
        for (int k = nl.net_start[net]; k < nl.net_start[net + 1]; k++) {
            int c = nl.net_cells[k];
            nl.cell_nets[nl.cell_net_start[c] + fill[c]++] = net;
        }
    /* Random initial placement: a shuffled slot order, the first n_cells used. */
    for (int s = 0; s < nl.n_slots; s++)
        slot_cell[s] = s;
    for (int s = nl.n_slots - 1; s > 0; s--) {
        int j = (int)wl_rng_below(&r, (uint32_t)s + 1);
        int32_t t = slot_cell[s];
        slot_cell[s] = slot_cell[j];
        slot_cell[j] = t;
    }
    for (int s = 0; s < nl.n_slots; s++) {
        int32_t order = slot_cell[s];
        slot_cell[s] = order < nl.n_cells ? order : -1;
        if (order < nl.n_cells)
            cell_slot[order] = s;
    }
    int64_t cost0 = 0;
    for (int net = 0; net < nl.n_nets; net++) {
        net_cost[net] = net_hpwl(&nl, cell_slot, net, -1, 0, -1, 0);
        cost0 += net_cost[net];
    }
    memcpy(r_cell_slot, cell_slot, cb);
    memcpy(r_slot_cell, slot_cell, sb);
    memcpy(r_net_cost, net_cost, nb);
    uint32_t want_counts[2] = {0, 0};
    replay(&nl, r_cell_slot, r_slot_cell, r_net_cost, best, prop, rounds, seed, t0, want_counts);

    gs_function *k = wl_kernel(w, "vpr_anneal");
    unsigned grid = wl_max_resident_ctas(w, k, BLOCK, 0);
    unsigned by_size = (unsigned)(nl.n_slots / BLOCK);
    if (grid > by_size)
        grid = by_size;
    uint64_t dns = wl_alloc_copy(w, nl.net_start, nb + sizeof(int32_t)), dnc = wl_alloc_copy(w, nl.net_cells, 4 * nb);
    uint64_t dcns = wl_alloc_copy(w, nl.cell_net_start, cb + sizeof(int32_t)),
             dcn = wl_alloc_copy(w, nl.cell_nets, 4 * nb);
    uint64_t dcs = wl_alloc_copy(w, cell_slot, cb), dsc = wl_alloc_copy(w, slot_cell, sb),
             dcost = wl_alloc_copy(w, net_cost, nb);
    uint64_t dclaim = wl_alloc(w, (size_t)nl.n_nets * sizeof(uint64_t)), dprop = wl_alloc(w, (size_t)nl.n_slots);
    uint64_t darrive = wl_alloc(w, sizeof(uint32_t)), dcounts = wl_alloc(w, 2 * sizeof(uint32_t));
    if (wl_ok(w))
        wl_note(w, "%u CTAs, %d cells on %dx%d slots, %d nets, %d rounds", grid, nl.n_cells, 1 << nl.lg, 1 << nl.lg,
                nl.n_nets, rounds);
    void *params[] = {&nl.lg, &dns, &dnc, &dcns, &dcn, &dcs, &dsc, &dcost, &dclaim, &dprop,
                      &rounds, &seed, &t0, &darrive, &dcounts};
    wl_launch(w, k, grid, 1, 1, BLOCK, 1, 1, 0, params);
    uint32_t counts[2] = {0, 0};
    wl_dtoh(w, got_cell_slot, dcs, cb);
    wl_dtoh(w, got_slot_cell, dsc, sb);
    wl_dtoh(w, got_net_cost, dcost, nb);
    wl_dtoh(w, counts, dcounts, sizeof counts);
    if (wl_ok(w)) {
        wl_check_i32(w, "cell_slot", got_cell_slot, r_cell_slot, (size_t)nl.n_cells);
        wl_check_i32(w, "slot_cell", got_slot_cell, r_slot_cell, (size_t)nl.n_slots);
        wl_check_i32(w, "net_cost", got_net_cost, r_net_cost, (size_t)nl.n_nets);
        wl_check(w, counts[0] == want_counts[0] && counts[1] == want_counts[1],
                 "accepted / committed swaps: got %u / %u, expected %u / %u", counts[0], counts[1], want_counts[0],
                 want_counts[1]);
        /* From the device state alone: a bijection, and costs = HPWL. */
        int64_t sum = 0, hpwl = 0;
        unsigned bad = 0;
        for (int c = 0; c < nl.n_cells; c++) {
            int s = got_cell_slot[c];
            bad += s < 0 || s >= nl.n_slots || got_slot_cell[s] != c;
        }
        for (int net = 0; net < nl.n_nets; net++) {
            sum += got_net_cost[net];
            hpwl += bad ? 0 : net_hpwl(&nl, got_cell_slot, net, -1, 0, -1, 0);
        }
        wl_check(w, bad == 0, "placement is not a bijection (%u cells)", bad);
        wl_check(w, bad != 0 || sum == hpwl, "net costs sum to %lld, placement HPWL is %lld", (long long)sum,
                 (long long)hpwl);
        wl_note(w, "HPWL %lld -> %lld; %u swaps accepted, %u committed", (long long)cost0, (long long)sum, counts[0],
                counts[1]);
    }
out:
    free(nl.net_start);
    free(nl.net_cells);
    free(nl.cell_net_start);
    free(nl.cell_nets);
    free(cell_slot);
    free(slot_cell);
    free(net_cost);
    free(r_cell_slot);
    free(r_slot_cell);
    free(r_net_cost);
    free(got_cell_slot);
    free(got_slot_cell);
    free(got_net_cost);
    free(best);
    free(prop);
    free(fill);
    return wl_finish(w);
}

WL_REGISTER(vpr) = {
    .name = "vpr",
    .summary = "simulated-annealing placement (HPWL) by synchronous parallel swap rounds in one launch",
    .mirrors = "VPR placer (SPEC CPU 175.vpr / VPR of the GPU coherence papers), parallel-moves annealing",
    .stresses = "grid barriers, reads of positions and net costs written by other blocks, 64-bit atomicMax claims",
    .flags = WL_SHARING | WL_REG_HEAVY | WL_CACHE_SENS, /* 44 registers (kernel.ptx.regs) */
    .sizes = {"16x16 slots, 30 rounds", "32x32 slots, 32 rounds", "128x128 slots, 100 rounds",
              "256x256 slots, 150 rounds"},
    .run = run,
};
