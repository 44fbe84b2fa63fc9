/* sim/sm/rf/rm_map.c: register grouping and group arrangement for a
 * racetrack register file (Liang & Wang 2016; spec rf-racetrack-liang.md
 * 2.3, 2.4). See rm_map.h for what is and is not modelled.
 *
 * Layout of this file: small helpers, grouping (FIND_MAX_SUBGRAPH with a
 * gain array), the three arrangement methods (ENUM, EXACT_DP, LOCAL), the
 * eq. 3 cost and the per-bank driver.
 */
#include "sim/sm/rf/rm_map.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"

/* ------------------------------------------------------------ helpers */

static inline uint64_t dist_u32(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

static inline uint32_t lowest_bit(uint64_t x)
{
#if defined(__GNUC__)
    return (uint32_t)__builtin_ctzll(x);
#else
    uint32_t i = 0;
    while (!(x & 1)) {
        x >>= 1;
        i++;
    }
    return i;
#endif
}

/* Symmetric G x G copy of Cg built from its upper triangle (a < b), with a
 * zero diagonal: every method reads group weights through it, so all of
 * them optimise exactly rm_arrange_cost. Caller frees. */
static uint64_t *sym_copy(uint32_t G, const uint64_t *Cg)
{
    uint64_t *s = xcalloc((size_t)G * G, sizeof *s);
    for (uint32_t a = 0; a < G; a++)
        for (uint32_t b = a + 1; b < G; b++)
            s[(size_t)a * G + b] = s[(size_t)b * G + a] = Cg[(size_t)a * G + b];
    return s;
}

/* ----------------------------------------------------------- grouping */

/* Move cand[i] out of the candidate list (order kept) and add its weights
 * to the gains of the candidates that remain. */
static void group_take(uint32_t n, const uint64_t *W, uint32_t *cand, uint32_t *n_cand,
                       uint32_t i, uint64_t *gain)
{
    uint32_t x = cand[i];
    memmove(&cand[i], &cand[i + 1], (size_t)(*n_cand - i - 1) * sizeof *cand);
    (*n_cand)--;
    const uint64_t *row = &W[(size_t)x * n];
    for (uint32_t c = 0; c < *n_cand; c++)
        gain[cand[c]] += row[cand[c]];
}

uint32_t rm_group(uint32_t n, const uint64_t *W, uint32_t n_ports, enum rm_group_cmp cmp,
                  uint32_t *port, uint32_t *grp)
{
    SIM_ASSERT(n_ports >= 1, "rm_group: n_ports is 0");
    SIM_ASSERT(cmp == RM_GROUP_TOTAL || cmp == RM_GROUP_PER_NODE, "rm_group: bad cmp %d", (int)cmp);
    if (n == 0)
        return 0;

    /* cand: slots not yet grouped, ascending, so a strict ">" scan keeps the
     * lowest index on ties. While a group grows, its members leave cand at
     * once, so cand is always V \ S of spec 2.3. */
    uint32_t *cand = xmalloc((size_t)n * sizeof *cand);
    uint64_t *gain = xcalloc(n, sizeof *gain); /* gain[v] = sum_{u in S} W(u,v) */
    uint32_t n_cand = n;
    for (uint32_t v = 0; v < n; v++)
        cand[v] = v;

    uint32_t g = 0;
    while (n_cand > 0) {
        uint32_t k = MIN(n_ports, n_cand), size = 0;
        for (uint32_t c = 0; c < n_cand; c++)
            gain[cand[c]] = 0;
        while (size < k) {
            /* best single slot */
            uint32_t d = 0;
            for (uint32_t c = 1; c < n_cand; c++)
                if (gain[cand[c]] > gain[cand[d]])
                    d = c;
            uint64_t wd = gain[cand[d]];

            /* best pair, first in lexicographic (m, n) order on ties */
            int take_pair = 0;
            uint32_t pm = 0, pn = 0;
            if (k - size >= 2) {
                uint64_t we = 0;
                int have = 0;
                for (uint32_t a = 0; a + 1 < n_cand; a++) {
                    const uint64_t *row = &W[(size_t)cand[a] * n];
                    uint64_t ga = gain[cand[a]];
                    for (uint32_t b = a + 1; b < n_cand; b++) {
                        uint64_t w = ga + gain[cand[b]] + row[cand[b]];
                        if (!have || w > we) {
                            we = w;
                            pm = a;
                            pn = b;
                            have = 1;
                        }
                    }
                }
                /* OQ-3: TOTAL compares totals (paper); PER_NODE compares the
                 * gain per added slot, we / 2 > wd, done without division. */
                take_pair = cmp == RM_GROUP_TOTAL ? we > wd : we > 2 * wd;
            }

            if (take_pair) {
                uint32_t vm = cand[pm], vn = cand[pn];
                port[vm] = size++;
                port[vn] = size++;
                grp[vm] = grp[vn] = g;
                group_take(n, W, cand, &n_cand, pn, gain); /* higher index first: pm stays put */
                group_take(n, W, cand, &n_cand, pm, gain);
            } else {
                uint32_t vd = cand[d];
                port[vd] = size++;
                grp[vd] = g;
                group_take(n, W, cand, &n_cand, d, gain);
            }
        }
        g++;
    }
    free(cand);
    free(gain);
    return g;
}

/* -------------------------------------------------------- arrangement */

uint64_t rm_arrange_cost(uint32_t G, const uint64_t *Cg, const uint32_t *pos)
{
    uint64_t s = 0;
    for (uint32_t a = 0; a < G; a++)
        for (uint32_t b = a + 1; b < G; b++)
            s += Cg[(size_t)a * G + b] * dist_u32(pos[a], pos[b]);
    return s;
}

/* ENUM: depth-first over pos[0], pos[1], ... with values tried in rising
 * order, which visits pos vectors in lexicographic order; the cost of the
 * pairs fixed so far is carried down. */
struct enum_ctx {
    uint32_t G;
    const uint64_t *S;                /* symmetric group weights (G x G) */
    uint32_t pos[RM_ENUM_MAX_G];      /* current partial permutation */
    uint32_t best[RM_ENUM_MAX_G];     /* first minimum found */
    uint64_t best_cost;               /* its cost; UINT64_MAX before any */
};

static void enum_rec(struct enum_ctx *e, uint32_t a, uint32_t used, uint64_t partial)
{
    uint32_t G = e->G;
    if (a == G) {
        if (partial < e->best_cost) { /* strict: the first minimum stays */
            e->best_cost = partial;
            memcpy(e->best, e->pos, G * sizeof e->pos[0]);
        }
        return;
    }
    for (uint32_t v = 0; v < G; v++) {
        if (used & (1u << v))
            continue;
        /* A vector whose first entry exceeds its mirror's (G-1-v) is
         * lexicographically above its mirror image, which costs the same
         * and is visited earlier, so it can never be the first minimum. */
        if (a == 0 && v > G - 1 - v)
            continue;
        uint64_t add = 0;
        for (uint32_t b = 0; b < a; b++)
            add += e->S[(size_t)a * G + b] * dist_u32(v, e->pos[b]);
        e->pos[a] = v;
        enum_rec(e, a + 1, used | (1u << v), partial + add);
    }
}

static uint64_t arrange_enum(uint32_t G, const uint64_t *S, uint32_t *pos)
{
    struct enum_ctx e;
    memset(&e, 0, sizeof e);
    e.G = G;
    e.S = S;
    e.best_cost = UINT64_MAX;
    enum_rec(&e, 0, 0, 0);
    SIM_ASSERT(e.best_cost != UINT64_MAX, "rm_arrange ENUM: no permutation of %u groups", G);
    memcpy(pos, e.best, G * sizeof *pos);
    return e.best_cost;
}

/* EXACT_DP (spec 2.4). For a set X of groups placed in the first |X|
 * positions, f(X) is the least cost of the edges inside X plus those
 * leaving X, each counted by the cut boundaries it crosses so far; then
 * f(all) = sum_k cut(P_k) = S(sigma) at the optimum.
 *   f(0) = 0,  f(X) = cut(X) + min_{a in X} f(X \ {a})   (a goes last in X)
 * cut(X) is built from X minus its lowest group l:
 *   cut(X) = cut(X \ {l}) + deg(l) - 2 * w(l, X \ {l}).
 * Ties go to the lowest a, both in the DP and in the walk back. */
static uint64_t arrange_dp(uint32_t G, const uint64_t *S, uint32_t *pos)
{
    SIM_ASSERT(G >= 1 && G <= RM_DP_MAX_G, "rm_arrange EXACT_DP: G = %u outside 1..%d", G,
               RM_DP_MAX_G);
    size_t N = (size_t)1 << G;
    uint64_t *f = xmalloc(N * sizeof *f);
    uint64_t *cut = xmalloc(N * sizeof *cut);
    uint64_t deg[RM_DP_MAX_G];
    for (uint32_t a = 0; a < G; a++) {
        deg[a] = 0;
        for (uint32_t b = 0; b < G; b++)
            deg[a] += S[(size_t)a * G + b];
    }
    f[0] = cut[0] = 0;
    for (size_t X = 1; X < N; X++) {
        uint32_t l = lowest_bit(X);
        size_t rest = X & (X - 1);
        const uint64_t *row = &S[(size_t)l * G];
        uint64_t w = 0;
        for (size_t m = rest; m; m &= m - 1)
            w += row[lowest_bit(m)];
        cut[X] = cut[rest] + deg[l] - 2 * w;
        uint64_t best = UINT64_MAX;
        for (size_t m = X; m; m &= m - 1) {
            uint64_t v = f[X ^ ((size_t)1 << lowest_bit(m))];
            if (v < best)
                best = v;
        }
        f[X] = cut[X] + best;
    }
    /* Walk back from the full set: the lowest a that attains the minimum
     * takes the last free position. */
    size_t X = N - 1;
    for (uint32_t k = G; k-- > 0;) {
        uint64_t want = f[X] - cut[X];
        uint32_t pick = G;
        for (size_t m = X; m; m &= m - 1) {
            uint32_t a = lowest_bit(m);
            if (f[X ^ ((size_t)1 << a)] == want) {
                pick = a;
                break;
            }
        }
        SIM_ASSERT(pick < G, "rm_arrange EXACT_DP: walk back found no group at position %u", k);
        pos[pick] = k;
        X ^= (size_t)1 << pick;
    }
    uint64_t cost = f[N - 1];
    free(f);
    free(cut);
    return cost;
}

/* LOCAL (spec 2.4, for G > RM_DP_MAX_G). Seed: the exact DP on the
 * RM_DP_MAX_G heaviest groups (weight = row sum of S, ties to the lower
 * index); then the other groups, heaviest first, each inserted at the
 * position of the current sequence that adds the least cost (ties to the
 * front). Then steepest-descent pairwise swaps until no swap lowers the
 * cost. Groups outside the seed never reorder the seed, so the seed's
 * relative order survives insertion. */
static uint64_t arrange_local(uint32_t G, const uint64_t *S, uint32_t *pos)
{
    if (G <= RM_DP_MAX_G)
        return arrange_dp(G, S, pos);

    uint64_t *deg = xcalloc(G, sizeof *deg);
    uint32_t *order = xmalloc((size_t)G * sizeof *order); /* groups, heaviest first */
    for (uint32_t a = 0; a < G; a++) {
        for (uint32_t b = 0; b < G; b++)
            deg[a] += S[(size_t)a * G + b];
        /* insertion sort, stable: equal weights keep index order */
        uint32_t i = a;
        while (i > 0 && deg[order[i - 1]] < deg[a]) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = a;
    }

    /* seed: DP on the heaviest RM_DP_MAX_G groups */
    const uint32_t T = RM_DP_MAX_G;
    uint64_t *sub = xmalloc((size_t)T * T * sizeof *sub);
    uint32_t subpos[RM_DP_MAX_G];
    for (uint32_t i = 0; i < T; i++)
        for (uint32_t j = 0; j < T; j++)
            sub[(size_t)i * T + j] = S[(size_t)order[i] * G + order[j]];
    arrange_dp(T, sub, subpos);
    free(sub);

    uint32_t *seq = xmalloc((size_t)G * sizeof *seq); /* seq[t] = group at position t */
    for (uint32_t i = 0; i < T; i++)
        seq[subpos[i]] = order[i];

    /* greedy insertion. Inserting x before position t lengthens by one every
     * edge that spans the boundary between t-1 and t (the prefix cut pc)
     * and adds x's own edges at their new distances. */
    uint64_t *pc = xmalloc(((size_t)G + 1) * sizeof *pc);
    for (uint32_t len = T; len < G; len++) {
        uint32_t x = order[len];
        pc[0] = 0;
        for (uint32_t t = 0; t < len; t++) {
            /* cut(first t+1) = cut(first t) + w(y, after) - w(y, before) */
            uint32_t y = seq[t];
            const uint64_t *row = &S[(size_t)y * G];
            uint64_t before = 0, after = 0;
            for (uint32_t i = 0; i < t; i++)
                before += row[seq[i]];
            for (uint32_t i = t + 1; i < len; i++)
                after += row[seq[i]];
            pc[t + 1] = pc[t] + after - before;
        }
        const uint64_t *rx = &S[(size_t)x * G];
        uint64_t best = UINT64_MAX;
        uint32_t best_t = 0;
        for (uint32_t t = 0; t <= len; t++) {
            uint64_t add = pc[t];
            for (uint32_t i = 0; i < len; i++)
                add += rx[seq[i]] * (i < t ? (uint64_t)(t - i) : (uint64_t)(i + 1 - t));
            if (add < best) {
                best = add;
                best_t = t;
            }
        }
        memmove(&seq[best_t + 1], &seq[best_t], (size_t)(len - best_t) * sizeof *seq);
        seq[best_t] = x;
    }
    free(pc);
    for (uint32_t t = 0; t < G; t++)
        pos[seq[t]] = t;
    free(seq);

    /* hill climbing: per sweep take the swap with the largest saving (the
     * first such pair in (a, b) order); the edge between a and b keeps its
     * length, so only edges to third groups change. */
    for (;;) {
        uint64_t best_save = 0;
        uint32_t ba = 0, bb = 0;
        for (uint32_t a = 0; a < G; a++) {
            for (uint32_t b = a + 1; b < G; b++) {
                uint64_t before = 0, after = 0;
                for (uint32_t c = 0; c < G; c++) {
                    if (c == a || c == b)
                        continue;
                    uint64_t wa = S[(size_t)a * G + c], wb = S[(size_t)b * G + c];
                    uint64_t da = dist_u32(pos[a], pos[c]), db = dist_u32(pos[b], pos[c]);
                    before += wa * da + wb * db;
                    after += wa * db + wb * da;
                }
                if (after < before && before - after > best_save) {
                    best_save = before - after;
                    ba = a;
                    bb = b;
                }
            }
        }
        if (best_save == 0)
            break;
        uint32_t t = pos[ba];
        pos[ba] = pos[bb];
        pos[bb] = t;
    }
    free(deg);
    free(order);
    return rm_arrange_cost(G, S, pos);
}

uint64_t rm_arrange(uint32_t G, const uint64_t *Cg, enum rm_arrange method, uint32_t *pos)
{
    if (G == 0)
        return 0;
    if (G == 1) {
        pos[0] = 0;
        return 0;
    }
    /* Fallbacks (rm_map.h): ENUM beyond its size becomes EXACT_DP, which
     * has the same optimum; EXACT_DP beyond its size becomes LOCAL. */
    if (method == RM_ARRANGE_ENUM && G > RM_ENUM_MAX_G)
        method = RM_ARRANGE_EXACT_DP;
    if (method == RM_ARRANGE_EXACT_DP && G > RM_DP_MAX_G)
        method = RM_ARRANGE_LOCAL;

    uint64_t *S = sym_copy(G, Cg);
    uint64_t cost;
    switch (method) {
    case RM_ARRANGE_ENUM:
        cost = arrange_enum(G, S, pos);
        break;
    case RM_ARRANGE_EXACT_DP:
        cost = arrange_dp(G, S, pos);
        break;
    case RM_ARRANGE_LOCAL:
        cost = arrange_local(G, S, pos);
        break;
    default:
        sim_panic("rm_arrange: bad method %d", (int)method);
    }
    free(S);
    SIM_DEBUG_ASSERT(cost == rm_arrange_cost(G, Cg, pos),
                     "rm_arrange: method %d reports cost %llu for a placement costing %llu",
                     (int)method, (unsigned long long)cost,
                     (unsigned long long)rm_arrange_cost(G, Cg, pos));
    return cost;
}

/* ------------------------------------------------------ cost and bank */

uint64_t rm_map_cost(uint32_t n, const uint64_t *C, const uint32_t *offset)
{
    uint64_t s = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t *row = &C[(size_t)i * n];
        for (uint32_t j = 0; j < n; j++)
            s += row[j] * dist_u32(offset[i], offset[j]);
    }
    return s;
}

void rm_map_bank(uint32_t n, const uint64_t *C, uint32_t n_ports, uint32_t seg_len,
                 enum rm_group_cmp cmp, enum rm_arrange arr, uint32_t *port, uint32_t *offset,
                 uint64_t *cost_before_direct, uint64_t *cost_after)
{
    SIM_ASSERT(n_ports >= 1 && seg_len >= 1, "rm_map_bank: n_ports %u, seg_len %u", n_ports,
               seg_len);
    SIM_ASSERT((uint64_t)n <= (uint64_t)n_ports * seg_len,
               "rm_map_bank: %u slots do not fit %u ports x %u offsets", n, n_ports, seg_len);
    if (n == 0) {
        if (cost_before_direct)
            *cost_before_direct = 0;
        if (cost_after)
            *cost_after = 0;
        return;
    }

    /* undirected slot weights, W_ij = C_ij + C_ji, zero diagonal */
    uint64_t *W = xcalloc((size_t)n * n, sizeof *W);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            W[(size_t)i * n + j] = W[(size_t)j * n + i] =
                C[(size_t)i * n + j] + C[(size_t)j * n + i];

    uint32_t *grp = xmalloc((size_t)n * sizeof *grp);
    uint32_t G = rm_group(n, W, n_ports, cmp, port, grp);
    SIM_ASSERT(G <= seg_len, "rm_map_bank: %u groups for %u offsets", G, seg_len);

    /* group weights: every slot pair split across two groups */
    uint64_t *Cg = xcalloc((size_t)G * G, sizeof *Cg);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            if (grp[i] != grp[j]) {
                Cg[(size_t)grp[i] * G + grp[j]] += W[(size_t)i * n + j];
                Cg[(size_t)grp[j] * G + grp[i]] += W[(size_t)i * n + j];
            }
    uint32_t *pos = xmalloc((size_t)G * sizeof *pos);
    uint64_t s_arr = rm_arrange(G, Cg, arr, pos);
    for (uint32_t k = 0; k < n; k++)
        offset[k] = pos[grp[k]];

    uint64_t s_after = rm_map_cost(n, C, offset);
    /* eq. 3 over ordered slot pairs equals the group objective over group
     * pairs: pairs inside a group cost 0, the rest are summed into Cg */
    SIM_ASSERT(s_after == s_arr, "rm_map_bank: eq. 3 cost %llu != arrangement cost %llu",
               (unsigned long long)s_after, (unsigned long long)s_arr);
    if (cost_after)
        *cost_after = s_after;
    if (cost_before_direct) {
        uint32_t *direct = xmalloc((size_t)n * sizeof *direct);
        for (uint32_t k = 0; k < n; k++)
            direct[k] = k % seg_len;
        *cost_before_direct = rm_map_cost(n, C, direct);
        free(direct);
    }
    free(W);
    free(grp);
    free(Cg);
    free(pos);
}
