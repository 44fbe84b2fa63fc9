/* tests/test_rm_map.c: the racetrack register-mapping pass
 * (sim/sm/rf/rm_map.{c,h}; spec rf-racetrack-liang.md 2.3, 2.4, 7 tests 2
 * and 3; docs/rf.md "Racetrack mapping pass").
 *
 * - Spec test 2: 12 slots, 4 ports, three interleaved cliques; grouping
 *   must find the cliques, ENUM and EXACT_DP agree on the hand-computed
 *   cost, and a variant with unequal cross weights fixes the placement.
 * - Spec test 3: ENUM == EXACT_DP on 1000 random matrices with G <= 8, each
 *   placement achieving its reported cost, and both checked for G <= 6
 *   against a brute force written here (every G^G vector, non-bijections
 *   skipped), which also pins ENUM's "first minimum" rule.
 * - TOTAL vs PER_NODE grouping (OQ-3) on a hand case where they differ.
 * - rm_map_bank: distinct (port, offset) for every slot, cost no worse
 *   than DIRECT on trace-shaped random matrices, chains mapped to their
 *   hand-computed costs, n = 0 and all-zero C.
 * - LOCAL on G = 24: a bijection, no worse than the identity, and a local
 *   optimum under every pairwise swap (checked here, independently).
 * - A fault check: the independent cost function must see a swapped
 *   placement as worse, so the comparisons above can fail.
 * Timings of EXACT_DP at G = 16 and 20 are printed as diagnostics.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/base/common.h"
#include "sim/sm/rf/rm_map.h"
#include "tap.h"

/* ------------------------------------------------------------ helpers */

static uint64_t xs(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static uint64_t absdiff(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

/* Arrangement cost from the full symmetric matrix, each pair seen twice. */
static uint64_t ref_cost(uint32_t G, const uint64_t *Cg, const uint32_t *pos)
{
    uint64_t s = 0;
    for (uint32_t a = 0; a < G; a++)
        for (uint32_t b = 0; b < G; b++)
            if (a != b)
                s += Cg[a * G + b] * absdiff(pos[a], pos[b]);
    return s / 2;
}

static int is_bijection(uint32_t G, const uint32_t *pos)
{
    uint32_t seen[64] = {0};
    for (uint32_t a = 0; a < G; a++) {
        if (pos[a] >= G || seen[pos[a]])
            return 0;
        seen[pos[a]] = 1;
    }
    return 1;
}

/* Every pos vector in lexicographic order (base-G counter, pos[0] most
 * significant); returns the least cost and the first vector reaching it. */
static uint64_t brute_force(uint32_t G, const uint64_t *Cg, uint32_t *first)
{
    uint32_t v[8] = {0};
    uint64_t best = UINT64_MAX;
    for (;;) {
        if (is_bijection(G, v)) {
            uint64_t c = ref_cost(G, Cg, v);
            if (c < best) {
                best = c;
                memcpy(first, v, G * sizeof *v);
            }
        }
        int i = (int)G - 1;
        while (i >= 0 && ++v[i] == G)
            v[i--] = 0;
        if (i < 0)
            break;
    }
    return best;
}

static void random_cg(uint64_t *rng, uint32_t G, uint64_t *Cg)
{
    uint32_t mode = (uint32_t)(xs(rng) % 3);
    memset(Cg, 0, (size_t)G * G * sizeof *Cg);
    for (uint32_t a = 0; a < G; a++)
        for (uint32_t b = a + 1; b < G; b++) {
            uint64_t r = xs(rng), w;
            if (mode == 0)
                w = r % 4; /* many ties */
            else if (mode == 1)
                w = r % 1000;
            else
                w = (r % 10) < 7 ? 0 : (r >> 8) % 100; /* sparse */
            Cg[a * G + b] = Cg[b * G + a] = w;
        }
}

/* Every slot has its own (port, offset), inside the bank's geometry. */
static int pairs_distinct(uint32_t n, const uint32_t *port, const uint32_t *offset,
                          uint32_t n_ports, uint32_t seg_len)
{
    uint8_t *used = calloc((size_t)n_ports * seg_len + 1, 1);
    int ok = 1;
    for (uint32_t k = 0; k < n && ok; k++) {
        if (port[k] >= n_ports || offset[k] >= seg_len) {
            ok = 0;
            break;
        }
        size_t cell = (size_t)port[k] * seg_len + offset[k];
        ok = !used[cell];
        used[cell] = 1;
    }
    free(used);
    return ok;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ------------------------------------------- spec 7 test 2: three cliques */

/* Interleaved so that neither contiguous runs nor k mod 3 (the DIRECT
 * offsets with L = 3) line up with a clique. */
static const uint32_t clique_of[12] = {0, 1, 2, 1, 2, 0, 2, 0, 1, 2, 0, 1};
/* A = {0,5,7,10}, B = {1,3,8,11}, C = {2,4,6,9} */

/* Directed C: 5 each way inside a clique (W = 10); across, `cross` for the
 * pair (i < j) and 0 back (W = cross), with cross A-C = ac. */
static void clique_matrix(uint64_t *C, uint64_t ac)
{
    for (uint32_t i = 0; i < 12; i++)
        for (uint32_t j = 0; j < 12; j++) {
            uint32_t ci = clique_of[i], cj = clique_of[j];
            uint64_t w;
            if (i == j)
                w = 7; /* self-moves: must be ignored */
            else if (ci == cj)
                w = 5;
            else if (i > j)
                w = 0;
            else if ((ci == 0 && cj == 2) || (ci == 2 && cj == 0))
                w = ac;
            else
                w = 1;
            C[i * 12 + j] = w;
        }
}

static void undirected(uint32_t n, const uint64_t *C, uint64_t *W)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            W[i * n + j] = i == j ? 0 : C[i * n + j] + C[j * n + i];
}

static void test_cliques(void)
{
    uint64_t C[144], W[144], Cg[9] = {0};
    uint32_t port[12], grp[12], pos_e[3], pos_d[3];

    clique_matrix(C, 1);
    undirected(12, C, W);
    uint32_t G = rm_group(12, W, 4, RM_GROUP_TOTAL, port, grp);
    TAP_EQ_U64(G, 3, "cliques: 12 slots, 4 ports -> 3 groups");
    /* Hand trace: the first maximum edge (W = 10) in (i, j) order is (0,5);
     * slots 7 and 10 then have gain 20, the rest 2, and the pair (7,10)
     * scores 20 + 20 + 10 = 50 > 20. Then (1,3) + (8,11), then (2,4) +
     * (6,9). Ports follow the join order. */
    static const uint32_t want_grp[12] = {0, 1, 2, 1, 2, 0, 2, 0, 1, 2, 0, 1};
    static const uint32_t want_port[12] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
    int same = 1;
    for (uint32_t k = 0; k < 12; k++)
        same &= grp[k] == want_grp[k] && port[k] == want_port[k];
    TAP_OK(same, "cliques: groups are exactly the cliques A, B, C; ports in join order");

    for (uint32_t i = 0; i < 12; i++)
        for (uint32_t j = 0; j < 12; j++)
            if (grp[i] != grp[j])
                Cg[grp[i] * 3 + grp[j]] += W[i * 12 + j];
    TAP_EQ_U64(Cg[0 * 3 + 1], 16, "cliques: Cg(A,B) = 4 x 4 slot pairs x 1");
    /* Every placement of 3 equal-weight groups costs 16 x (1 + 1 + 2) = 64. */
    uint64_t ce = rm_arrange(3, Cg, RM_ARRANGE_ENUM, pos_e);
    uint64_t cd = rm_arrange(3, Cg, RM_ARRANGE_EXACT_DP, pos_d);
    TAP_EQ_U64(ce, 64, "cliques: ENUM cost = 16 x (1 + 1 + 2)");
    TAP_EQ_U64(cd, 64, "cliques: EXACT_DP cost equals ENUM");
    TAP_OK(pos_e[0] == 0 && pos_e[1] == 1 && pos_e[2] == 2,
           "cliques: ENUM keeps the first minimum, the identity (got %u %u %u)", pos_e[0],
           pos_e[1], pos_e[2]);

    /* Whole pass. Eq. 3 over ordered slot pairs = sum over unordered pairs
     * of W x distance = 64 again (inside-clique pairs are at distance 0).
     * DIRECT (offset k mod 3) is worked out below. */
    uint32_t offset[12];
    uint64_t before, after;
    rm_map_bank(12, C, 4, 3, RM_GROUP_TOTAL, RM_ARRANGE_EXACT_DP, port, offset, &before, &after);
    TAP_EQ_U64(after, 64, "cliques: rm_map_bank eq. 3 cost after = 64");
    /* DIRECT: slot k at offset k mod 3. Inside pairs: A (0,5,7,10 -> offsets
     * 0,2,1,1): distances 2,1,1,1,1,0 = 6; B (1,3,8,11 -> 1,0,2,2):
     * 1,1,1,2,2,0 = 7; C (2,4,6,9 -> 2,1,0,0): 1,2,2,1,1,0 = 7; so 20 x 10
     * = 200. Cross pairs: 4 slots sit at each offset, so all 66 slot pairs
     * together have distance sum 16 x 1 + 16 x 1 + 16 x 2 = 64; minus the
     * inside pairs' 20 leaves 44, at W = 1. Total 200 + 44 = 244. */
    TAP_EQ_U64(before, 244, "cliques: DIRECT eq. 3 cost = 200 inside + 44 across");
    TAP_OK(pairs_distinct(12, port, offset, 4, 3), "cliques: distinct (port, offset)");

    /* Variant: A-C cross weight 3, so Cg(A,C) = 48 and A, C must be
     * adjacent. Placements (pos of A, B, C): B in the middle 16 + 96 + 16 =
     * 128; A or C in the middle 16 + 48 + 32 = 96. The first minimum in
     * lexicographic order is (0, 2, 1). */
    clique_matrix(C, 3);
    undirected(12, C, W);
    G = rm_group(12, W, 4, RM_GROUP_TOTAL, port, grp);
    same = G == 3;
    for (uint32_t k = 0; k < 12; k++)
        same &= grp[k] == want_grp[k];
    TAP_OK(same, "cliques variant: groups unchanged by heavier A-C cross weight");
    memset(Cg, 0, sizeof Cg);
    for (uint32_t i = 0; i < 12; i++)
        for (uint32_t j = 0; j < 12; j++)
            if (grp[i] != grp[j])
                Cg[grp[i] * 3 + grp[j]] += W[i * 12 + j];
    ce = rm_arrange(3, Cg, RM_ARRANGE_ENUM, pos_e);
    cd = rm_arrange(3, Cg, RM_ARRANGE_EXACT_DP, pos_d);
    TAP_EQ_U64(ce, 96, "cliques variant: ENUM cost 96");
    TAP_EQ_U64(cd, 96, "cliques variant: EXACT_DP cost 96");
    TAP_OK(pos_e[0] == 0 && pos_e[1] == 2 && pos_e[2] == 1,
           "cliques variant: ENUM pos = (0, 2, 1) (got %u %u %u)", pos_e[0], pos_e[1], pos_e[2]);
    TAP_EQ_U64(ref_cost(3, Cg, pos_d), 96, "cliques variant: EXACT_DP placement costs 96");

    /* Fault check: the independent cost sees B in the middle as worse, so a
     * wrong placement would fail the comparisons in these tests. */
    uint32_t bad[3] = {0, 1, 2};
    TAP_EQ_U64(ref_cost(3, Cg, bad), 128, "fault: B in the middle costs 128, not 96");
}

/* --------------------------------- spec 7 test 3: ENUM == EXACT_DP, random */

static void test_enum_dp_random(void)
{
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    uint64_t Cg[64];
    uint32_t pe[8], pd[8], first[8];
    int n_eq = 0, n_ach = 0, n_bij = 0, n_bf = 0, n_bf_cases = 0, n_first = 0;
    for (int t = 0; t < 1000; t++) {
        uint32_t G = 1 + (uint32_t)(xs(&rng) % 8);
        random_cg(&rng, G, Cg);
        uint64_t ce = rm_arrange(G, Cg, RM_ARRANGE_ENUM, pe);
        uint64_t cd = rm_arrange(G, Cg, RM_ARRANGE_EXACT_DP, pd);
        n_eq += ce == cd;
        n_bij += is_bijection(G, pe) && is_bijection(G, pd);
        n_ach += ref_cost(G, Cg, pe) == ce && ref_cost(G, Cg, pd) == cd;
        if (G <= 6) {
            n_bf_cases++;
            uint64_t cb = brute_force(G, Cg, first);
            n_bf += cb == ce;
            n_first += memcmp(first, pe, G * sizeof *pe) == 0;
        }
    }
    TAP_EQ_U64(n_eq, 1000, "random G<=8: ENUM cost == EXACT_DP cost on all 1000");
    TAP_EQ_U64(n_bij, 1000, "random G<=8: both placements are bijections");
    TAP_EQ_U64(n_ach, 1000, "random G<=8: both placements achieve their reported cost");
    TAP_EQ_U64(n_bf, n_bf_cases, "random G<=6: brute force optimum == ENUM (%d cases)",
               n_bf_cases);
    TAP_EQ_U64(n_first, n_bf_cases,
               "random G<=6: ENUM returns the lexicographically first minimum");

    /* G = 10, the largest ENUM size, and G = 12 (ENUM falls back to DP) */
    int ok10 = 1;
    uint64_t C10[144];
    uint32_t p1[12], p2[12];
    for (int t = 0; t < 2; t++) {
        random_cg(&rng, 10, C10);
        uint64_t a = rm_arrange(10, C10, RM_ARRANGE_ENUM, p1);
        uint64_t b = rm_arrange(10, C10, RM_ARRANGE_EXACT_DP, p2);
        ok10 &= a == b && ref_cost(10, C10, p1) == a && is_bijection(10, p1);
    }
    TAP_OK(ok10, "G = 10: ENUM == EXACT_DP");
    random_cg(&rng, 12, C10);
    uint64_t a = rm_arrange(12, C10, RM_ARRANGE_ENUM, p1);
    uint64_t b = rm_arrange(12, C10, RM_ARRANGE_EXACT_DP, p2);
    TAP_OK(a == b && memcmp(p1, p2, sizeof p1) == 0,
           "G = 12: ENUM falls back to EXACT_DP (same placement)");
}

/* ---------------------------------------------- OQ-3: TOTAL vs PER_NODE */

static void test_group_cmp(void)
{
    /* 8 slots, 4 ports. W(0,1) = 20, W(0,2) = W(1,2) = 5, W(3,4) = 12.
     * Both start with the heaviest edge (0,1). Then slot 2 has gain 10 and
     * the best pair is (3,4) with 0 + 0 + 12 = 12 (pairs with slot 2 score
     * 10 + 0 + 0).
     *  TOTAL: 12 > 10, take (3,4): group 0 = [0,1,3,4] (kept weight 32);
     *         then slots 2,5,6,7 have no edges: singles in index order.
     *  PER_NODE: 12 / 2 = 6 <= 10, take 2; the last seat has all gains 0:
     *         slot 3. Group 0 = [0,1,2,3] (kept 30), group 1 = [4,5,6,7]. */
    uint64_t W[64] = {0};
    W[0 * 8 + 1] = W[1 * 8 + 0] = 20;
    W[0 * 8 + 2] = W[2 * 8 + 0] = 5;
    W[1 * 8 + 2] = W[2 * 8 + 1] = 5;
    W[3 * 8 + 4] = W[4 * 8 + 3] = 12;
    uint32_t port[8], grp[8];
    static const uint32_t tot_grp[8] = {0, 0, 1, 0, 0, 1, 1, 1};
    static const uint32_t tot_port[8] = {0, 1, 0, 2, 3, 1, 2, 3};
    static const uint32_t pn_grp[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    static const uint32_t pn_port[8] = {0, 1, 2, 3, 0, 1, 2, 3};

    uint32_t G = rm_group(8, W, 4, RM_GROUP_TOTAL, port, grp);
    int ok = G == 2;
    for (int k = 0; k < 8; k++)
        ok &= grp[k] == tot_grp[k] && port[k] == tot_port[k];
    TAP_OK(ok, "TOTAL: group 0 = [0,1,3,4], group 1 = [2,5,6,7]");

    G = rm_group(8, W, 4, RM_GROUP_PER_NODE, port, grp);
    ok = G == 2;
    for (int k = 0; k < 8; k++)
        ok &= grp[k] == pn_grp[k] && port[k] == pn_port[k];
    TAP_OK(ok, "PER_NODE: group 0 = [0,1,2,3], group 1 = [4,5,6,7]");

    /* n not a multiple of n_ports: 10 slots, 4 ports -> 4 + 4 + 2 */
    uint64_t W10[100] = {0};
    uint32_t p10[10], g10[10], cnt[3] = {0};
    G = rm_group(10, W10, 4, RM_GROUP_TOTAL, p10, g10);
    ok = G == 3;
    for (int k = 0; k < 10 && ok; k++) {
        ok = g10[k] < 3 && p10[k] == cnt[g10[k]];
        if (ok)
            cnt[g10[k]]++;
    }
    TAP_OK(ok && cnt[0] == 4 && cnt[1] == 4 && cnt[2] == 2,
           "10 slots, 4 ports: groups of 4, 4, 2 with ports 0.. in order");
}

/* ----------------------------------------------------------- rm_map_bank */

/* Trace-shaped moves: each warp owns 8 consecutive slots; the next access
 * stays in the current warp with probability 3/4, else jumps anywhere. */
static void trace_matrix(uint64_t *rng, uint32_t n, uint64_t *C)
{
    memset(C, 0, (size_t)n * n * sizeof *C);
    uint32_t last = (uint32_t)(xs(rng) % n);
    for (int t = 0; t < 4000; t++) {
        uint64_t r = xs(rng);
        uint32_t cur = (r % 4) ? (last / 8 * 8 + (uint32_t)((r >> 8) % 8)) % n
                               : (uint32_t)((r >> 8) % n);
        if (cur != last)
            C[last * n + cur]++;
        last = cur;
    }
}

static void test_bank(void)
{
    enum { N = 64 };
    static uint64_t C[N * N];
    uint32_t port[N], offset[N];
    uint64_t before, after, rng = 12345;

    int ok_dist = 1, ok_le = 1, n_better = 0;
    for (int t = 0; t < 20; t++) {
        trace_matrix(&rng, N, C);
        enum rm_group_cmp cmp = (t & 1) ? RM_GROUP_PER_NODE : RM_GROUP_TOTAL;
        rm_map_bank(N, C, 8, 8, cmp, RM_ARRANGE_EXACT_DP, port, offset, &before, &after);
        ok_dist &= pairs_distinct(N, port, offset, 8, 8);
        ok_le &= after <= before;
        n_better += after < before;
        ok_le &= after == rm_map_cost(N, C, offset);
        if (t == 0)
            tap_diag("trace matrix 0: DIRECT %llu -> mapped %llu", (unsigned long long)before,
                     (unsigned long long)after);
    }
    TAP_OK(ok_dist, "bank, 20 trace matrices: every slot has a distinct (port, offset)");
    TAP_OK(ok_le, "bank, 20 trace matrices: cost after <= DIRECT, and = eq. 3 of the result");
    TAP_EQ_U64(n_better, 20, "bank, 20 trace matrices: strictly better than DIRECT every time");

    /* Dense uniform random C: only validity is promised */
    int ok_u = 1;
    for (int t = 0; t < 5; t++) {
        for (uint32_t i = 0; i < N * N; i++)
            C[i] = xs(&rng) % 50;
        rm_map_bank(N, C, 8, 8, RM_GROUP_TOTAL, RM_ARRANGE_LOCAL, port, offset, &before, &after);
        ok_u &= pairs_distinct(N, port, offset, 8, 8) && after == rm_map_cost(N, C, offset);
        if (t == 0)
            tap_diag("uniform matrix 0: DIRECT %llu -> mapped %llu", (unsigned long long)before,
                     (unsigned long long)after);
    }
    TAP_OK(ok_u, "bank, uniform random C: distinct pairs, cost consistent");

    /* Odd geometry: 13 slots, 4 ports, 4 offsets (G = 4, last group of 1) */
    uint64_t C13[169];
    uint32_t p13[13], o13[13];
    for (int i = 0; i < 169; i++)
        C13[i] = xs(&rng) % 7;
    rm_map_bank(13, C13, 4, 4, RM_GROUP_TOTAL, RM_ARRANGE_ENUM, p13, o13, &before, &after);
    TAP_OK(pairs_distinct(13, p13, o13, 4, 4) && after == rm_map_cost(13, C13, o13),
           "bank, 13 slots on 4 x 4: distinct pairs, cost consistent");

    /* Chain 0 -> 1 -> ... -> 7, 100 moves each, 8 ports: one group, all at
     * offset 0, cost 0. DIRECT with seg_len 8 puts slot k at offset k:
     * 7 steps of distance 1 x 100 = 700. */
    uint64_t Cc[16 * 16] = {0};
    uint32_t pc[16], oc[16];
    for (int i = 0; i + 1 < 8; i++)
        Cc[i * 8 + i + 1] = 100;
    rm_map_bank(8, Cc, 8, 8, RM_GROUP_TOTAL, RM_ARRANGE_EXACT_DP, pc, oc, &before, &after);
    TAP_EQ_U64(after, 0, "chain of 8 on 8 ports: mapped cost 0");
    TAP_EQ_U64(before, 700, "chain of 8 on 8 ports: DIRECT cost 7 x 100");
    TAP_OK(pairs_distinct(8, pc, oc, 8, 8), "chain of 8: distinct (port, offset)");

    /* Chain of 16 on 8 ports x 2 offsets. Grouping takes (0,1), then slot 2
     * has gain 100 and the pair (2,3) scores 100 + 0 + 100 = 200: pairs
     * (2,3), (4,5), (6,7) follow, so groups are 0..7 and 8..15 and only the
     * move 7 -> 8 crosses: cost 100. DIRECT (offset k mod 2) makes all 15
     * moves cross: 1500. */
    memset(Cc, 0, sizeof Cc);
    for (int i = 0; i + 1 < 16; i++)
        Cc[i * 16 + i + 1] = 100;
    rm_map_bank(16, Cc, 8, 2, RM_GROUP_TOTAL, RM_ARRANGE_EXACT_DP, pc, oc, &before, &after);
    TAP_EQ_U64(after, 100, "chain of 16 on 8 x 2: mapped cost 100 (one crossing move)");
    TAP_EQ_U64(before, 1500, "chain of 16 on 8 x 2: DIRECT cost 15 x 100");
    int split = 1;
    for (int k = 0; k < 16; k++)
        split &= oc[k] == oc[k < 8 ? 0 : 8];
    TAP_OK(split && oc[0] != oc[8] && pairs_distinct(16, pc, oc, 8, 2),
           "chain of 16: slots 0..7 share one offset, 8..15 the other");

    /* All-zero C: still a valid placement, cost 0 both ways */
    memset(C, 0, sizeof C);
    rm_map_bank(N, C, 8, 8, RM_GROUP_PER_NODE, RM_ARRANGE_ENUM, port, offset, &before, &after);
    TAP_OK(pairs_distinct(N, port, offset, 8, 8) && before == 0 && after == 0,
           "all-zero C: distinct (port, offset), costs 0");

    /* n = 0: nothing to write, costs 0 */
    before = after = 99;
    rm_map_bank(0, NULL, 8, 8, RM_GROUP_TOTAL, RM_ARRANGE_EXACT_DP, NULL, NULL, &before, &after);
    TAP_OK(before == 0 && after == 0, "n = 0: costs 0");
    TAP_EQ_U64(rm_group(0, NULL, 4, RM_GROUP_TOTAL, NULL, NULL), 0, "n = 0: no groups");
    TAP_EQ_U64(rm_arrange(0, NULL, RM_ARRANGE_ENUM, NULL), 0, "G = 0: cost 0");
}

/* ------------------------------------------------------------- LOCAL */

static void test_local(void)
{
    enum { G = 24 };
    static uint64_t Cg[G * G];
    uint32_t pos[G], ident[G], pos2[G];
    uint64_t rng = 777;
    int ok_bij = 1, ok_le = 1, ok_cost = 1, ok_lopt = 1, ok_fb = 1;
    for (int t = 0; t < 10; t++) {
        random_cg(&rng, G, Cg);
        uint64_t c = rm_arrange(G, Cg, RM_ARRANGE_LOCAL, pos);
        for (uint32_t a = 0; a < G; a++)
            ident[a] = a;
        ok_bij &= is_bijection(G, pos);
        ok_cost &= c == ref_cost(G, Cg, pos);
        ok_le &= c <= ref_cost(G, Cg, ident);
        /* no single swap lowers the cost */
        for (uint32_t a = 0; a < G && ok_lopt; a++)
            for (uint32_t b = a + 1; b < G && ok_lopt; b++) {
                uint32_t s = pos[a];
                pos[a] = pos[b];
                pos[b] = s;
                ok_lopt = ref_cost(G, Cg, pos) >= c;
                pos[b] = pos[a];
                pos[a] = s;
            }
        /* EXACT_DP beyond RM_DP_MAX_G falls back to LOCAL */
        uint64_t c2 = rm_arrange(G, Cg, RM_ARRANGE_EXACT_DP, pos2);
        ok_fb &= c2 == c && memcmp(pos, pos2, sizeof pos) == 0;
        if (t == 0)
            tap_diag("G = 24: identity %llu, LOCAL %llu", (unsigned long long)ref_cost(G, Cg, ident),
                     (unsigned long long)c);
    }
    TAP_OK(ok_bij, "LOCAL G = 24: bijection onto 0..23");
    TAP_OK(ok_cost, "LOCAL G = 24: placement achieves the reported cost");
    TAP_OK(ok_le, "LOCAL G = 24: cost <= identity arrangement");
    TAP_OK(ok_lopt, "LOCAL G = 24: no pairwise swap improves the result");
    TAP_OK(ok_fb, "EXACT_DP at G = 24 falls back to LOCAL");

    /* Up to RM_DP_MAX_G groups LOCAL is the exact DP */
    uint64_t C8[64];
    uint32_t pl[8], pd[8];
    int same = 1;
    for (int t = 0; t < 50; t++) {
        uint32_t g = 1 + (uint32_t)(xs(&rng) % 8);
        random_cg(&rng, g, C8);
        same &= rm_arrange(g, C8, RM_ARRANGE_LOCAL, pl) == rm_arrange(g, C8, RM_ARRANGE_ENUM, pd);
    }
    TAP_OK(same, "LOCAL with G <= 8: optimal (== ENUM) on 50 matrices");
}

/* ------------------------------------------------- EXACT_DP at G = 16, 20 */

static void test_dp_size(void)
{
    static uint64_t Cg[20 * 20];
    uint32_t pos[20], perm[20];
    uint64_t rng = 4242;
    static const uint32_t sizes[2] = {16, 20};
    for (int s = 0; s < 2; s++) {
        uint32_t G = sizes[s];
        random_cg(&rng, G, Cg);
        double t0 = now_ms();
        uint64_t c = rm_arrange(G, Cg, RM_ARRANGE_EXACT_DP, pos);
        double dt = now_ms() - t0;
        tap_diag("EXACT_DP G = %u: %.1f ms, cost %llu", G, dt, (unsigned long long)c);
        /* no random permutation or shuffled placement beats the optimum */
        int ok = is_bijection(G, pos) && ref_cost(G, Cg, pos) == c;
        for (int t = 0; t < 500 && ok; t++) {
            for (uint32_t a = 0; a < G; a++)
                perm[a] = a;
            for (uint32_t a = G - 1; a > 0; a--) {
                uint32_t b = (uint32_t)(xs(&rng) % (a + 1)), x = perm[a];
                perm[a] = perm[b];
                perm[b] = x;
            }
            ok = ref_cost(G, Cg, perm) >= c;
        }
        TAP_OK(ok, "EXACT_DP G = %u: valid, achieves its cost, beats 500 random placements", G);
    }
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"spec 7 test 2: three cliques", test_cliques},
        {"spec 7 test 3: ENUM == EXACT_DP on random matrices", test_enum_dp_random},
        {"grouping comparison TOTAL vs PER_NODE (OQ-3)", test_group_cmp},
        {"rm_map_bank", test_bank},
        {"LOCAL arrangement", test_local},
        {"EXACT_DP at G = 16 and 20", test_dp_size},
    };
    return tap_run(tests, ARRAY_LEN(tests));
}
