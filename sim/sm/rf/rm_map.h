/* sim/sm/rf/rm_map.h: the compile-time register-mapping pass for a
 * racetrack-memory (RM) register file, after Liang & Wang 2016 (spec
 * rf-racetrack-liang.md 2.3 "Register grouping" and 2.4 "Register
 * arrangement"; paper section 4.3, Algorithms 1 and 2; docs/rf.md
 * "Racetrack mapping pass").
 *
 * What is modelled. One bank at a time: its n mapped slots (warp
 * registers, indexed k = 0..n-1 in the spec's warp-major order) and a
 * directed move matrix C, where C[i*n+j] counts how often the bank served
 * slot j right after slot i. A bank has n_ports ports, each in front of a
 * region of seg_len domains; a slot sits at (port, offset) and is under its
 * port when the bank's shift state equals its offset. The predicted cost of
 * a mapping is eq. 3 of the paper: S = sum_{i,j} C_ij * |offset(i) -
 * offset(j)| (slots at one offset share an alignment and cost nothing).
 *  - rm_group: the corrected Algorithm 1 of spec 2.3. Slots are split into
 *    G = ceil(n / n_ports) groups of at most n_ports; each group is grown
 *    greedily, one slot or one pair of slots at a time, from the undirected
 *    weights W_ij = C_ij + C_ji. Members of a group get ports 0, 1, ... in
 *    the order they joined, and later share one offset.
 *  - rm_arrange: gives each group a distinct offset 0..G-1 minimising
 *    sum_{a<b} Cg_ab * |pos_a - pos_b|. ENUM is the paper's enumeration of
 *    permutations; EXACT_DP (the default, a proposal of the spec) finds the
 *    same optimum with a subset dynamic programme over cut values; LOCAL is
 *    a heuristic for more than RM_DP_MAX_G groups.
 *  - rm_map_bank: the whole pass for one bank, plus the eq. 3 cost of the
 *    DIRECT mapping (offset = k mod seg_len) and of the result, which the
 *    spec reports as S_DIRECT and S_LIANG (spec 2.4, 5).
 *
 * What is not modelled here: collecting C (profiling run or static
 * estimate, spec 2.2 and OQ-2), the bank function, the per-kernel map
 * table and its use at run time (spec 2.5), and the TLP driver (2.6). The
 * cost is a prediction: preshifting, queueing and the write buffer change
 * the shifts a real run needs.
 *
 * Open questions that touch this module:
 *  - OQ-3 (grouping comparison): the printed algorithm takes a pair of
 *    slots when the pair's total gain beats the best single slot's gain
 *    (RM_GROUP_TOTAL). Gains are never negative, so this nearly always
 *    picks the pair. RM_GROUP_PER_NODE, our proposal, compares the gain per
 *    added slot instead (pair total / 2 > single). TOTAL is the default
 *    for fidelity.
 *  - OQ-1 (domains per track) sets seg_len = N_d / N_p and with it the
 *    largest G: 8 for the paper's 64-slot banks, 16 for 128-slot banks.
 *
 * Determinism and purity: no globals and no file-scope mutable state; the
 * result depends only on the arguments. Every tie goes to the lowest index
 * (slot, pair in lexicographic order, group, permutation in lexicographic
 * order). Scratch memory comes from xcalloc/xmalloc and is freed before
 * return. Costs are uint64_t; the caller keeps sum_ij C_ij * seg_len below
 * 2^63 (it is far below for any real trace).
 *
 * Operation mix: runs once per kernel and bank, on one host thread, before
 * the measured run. rm_group is O(n^2) per added slot (O(n^3) per bank).
 * EXACT_DP is O(2^G * G) time and 16 * 2^G bytes; ENUM is O(G! * G).
 * NOTE(rm_map_time): measured on the build host (-O2): a whole 128-slot
 * bank (8 ports, G = 16) takes 1 ms; EXACT_DP alone takes 0.8 ms at G = 16
 * and 16 ms at G = 20; a 1024-slot bank takes 0.34 s with 8 ports (G =
 * 128, LOCAL) and 0.54 s with 4 ports (G = 256, LOCAL).
 */
#ifndef GPUSIM_SIM_SM_RF_RM_MAP_H
#define GPUSIM_SIM_SM_RF_RM_MAP_H

#include <stdint.h>

/* How FIND_MAX_SUBGRAPH chooses between adding the best single slot (gain
 * g1) and the best pair (total gain g2, including the pair's own edge). */
enum rm_group_cmp {
    RM_GROUP_TOTAL,    /* pair when g2 > g1 (paper, spec 2.3; OQ-3) */
    RM_GROUP_PER_NODE, /* pair when g2 / 2 > g1, i.e. g2 > 2 * g1 [proposal] */
};

/* How groups are placed on offsets (spec 2.4). */
enum rm_arrange {
    RM_ARRANGE_EXACT_DP, /* subset DP over prefix cuts; exact; G <= RM_DP_MAX_G, else LOCAL */
    RM_ARRANGE_ENUM,     /* every permutation (paper); exact; G <= RM_ENUM_MAX_G, else EXACT_DP */
    RM_ARRANGE_LOCAL,    /* DP on the RM_DP_MAX_G heaviest groups, greedy insertion of the rest,
                            then pairwise-swap hill climbing; exact when G <= RM_DP_MAX_G */
};

#define RM_ENUM_MAX_G 10 /* largest G that ENUM enumerates (10! = 3.6e6 orders) */
#define RM_DP_MAX_G 20   /* largest G that EXACT_DP solves (2^20 subsets, 16 MiB scratch) */

/* Partition slots 0..n-1 into groups of at most n_ports (spec 2.3).
 * W: n x n symmetric undirected weights, W[i*n+j] = C_ij + C_ji; the
 *    diagonal is ignored.
 * port[v]: index of v inside its group (0..n_ports-1), its join order.
 * grp[v]: group of v (0..G-1), in the order groups were formed.
 * Returns G = ceil(n / n_ports); every group but the last is full.
 * n_ports must be >= 1. About 1 ms at n = 128, 0.3 s at n = 1024. */
uint32_t rm_group(uint32_t n, const uint64_t *W, uint32_t n_ports, enum rm_group_cmp cmp,
                  uint32_t *port, uint32_t *grp);

/* Place G groups on offsets (spec 2.4). Cg: G x G symmetric group weights
 * (diagonal ignored). Writes pos[a] = offset of group a, a bijection onto
 * 0..G-1, and returns its cost rm_arrange_cost(G, Cg, pos).
 * ENUM keeps the first minimum in lexicographic order of the pos vector
 * (orders that are lexicographically above their mirror image are not
 * evaluated: the mirror has the same cost and comes first). For G >
 * RM_ENUM_MAX_G it falls back to EXACT_DP, and EXACT_DP for G > RM_DP_MAX_G
 * falls back to LOCAL: the caller should validate the configuration, but a
 * long run is never lost to an assertion. EXACT_DP and ENUM return the same
 * (optimal) cost, not necessarily the same pos. G = 0 returns 0. */
uint64_t rm_arrange(uint32_t G, const uint64_t *Cg, enum rm_arrange method, uint32_t *pos);

/* sum_{a<b} Cg[a*G+b] * |pos[a] - pos[b]|: the arrangement objective. */
uint64_t rm_arrange_cost(uint32_t G, const uint64_t *Cg, const uint32_t *pos);

/* Eq. 3: sum over all i, j of C[i*n+j] * |offset[i] - offset[j]|, with C
 * directed (n x n). */
uint64_t rm_map_cost(uint32_t n, const uint64_t *C, const uint32_t *offset);

/* The whole pass for one bank: W from C, rm_group, group weights Cg,
 * rm_arrange, then port[k] and offset[k] = pos[grp[k]] for every slot k.
 * Every slot gets a distinct (port, offset) pair with port < n_ports and
 * offset < seg_len. Requires n <= n_ports * seg_len (so G <= seg_len).
 * cost_before_direct (may be NULL): eq. 3 cost of the DIRECT mapping
 * (offset = k mod seg_len, port = k / seg_len). cost_after (may be NULL):
 * eq. 3 cost of the result. The result is not guaranteed to beat DIRECT
 * (grouping is a heuristic); the caller may compare the two. n = 0 is
 * allowed and writes nothing; an all-zero C gives slots in index order. */
void rm_map_bank(uint32_t n, const uint64_t *C, uint32_t n_ports, uint32_t seg_len,
                 enum rm_group_cmp cmp, enum rm_arrange arr, uint32_t *port, uint32_t *offset,
                 uint64_t *cost_before_direct, uint64_t *cost_after);

#endif /* GPUSIM_SIM_SM_RF_RM_MAP_H */
