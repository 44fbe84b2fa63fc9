/* sim/sm/sched/sched.c: the warp-scheduler framework (see sched.h, docs/sched.md).
 *
 * Per scheduler and cycle: the policy writes its candidate order, the
 * framework probes the candidates in that order and issues the first READY
 * one. When none is ready it classifies the cycle: the highest
 * enum wsched_why rank over every resident warp of the scheduler, where a
 * READY warp the policy did not offer counts as WSCHED_POLICY.
 *
 * NOTE(stall-rank): "closest to issuing wins" (pipe busy > scoreboard >
 * memory ordering > barrier > I-buffer empty > no warp). This is the spirit
 * of GPGPU-Sim's per-scheduler classification (idle when no warp has a valid
 * instruction, scoreboard stall when none passed the scoreboard, pipe stall
 * otherwise), extended with the spec's barrier and memory-ordering reasons.
 *
 * NOTE(sched-skip): a warp's check() answer has a per-warp part (I-buffer,
 * barrier, memory ordering, scoreboard), which changes only when the SM
 * reports a change for that warp (wsched_touch: writeback, fetch, barrier
 * release, memory completion, launch, exit), and an SM part (pipes,
 * collector units, pools), which the port summarises as res_sig. A
 * scheduler whose last evaluation issued nothing, that saw no touch since,
 * whose policy's order is stable, and that was classified at or below
 * WSCHED_SCOREBOARD (no warp got past its per-warp tests) or as
 * WSCHED_PIPE_BUSY with an unchanged res_sig, would evaluate to the same
 * outcome: the framework charges the cycle to the same reason without
 * probing. GPUSIM_PARANOID builds probe anyway and panic when the outcome
 * differs. Measured on bfs and sgemm: docs/sched.md "Skipped evaluations".
 */
#include "sim/sm/sched/sched.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const why_names[WSCHED_N_WHY] = {
    "stall_no_warp",   "stall_ibuf_empty", "stall_barrier", "stall_mem_order",
    "stall_scoreboard", "stall_pipe_busy", "stall_policy",  "ready",
};

static const char *const why_docs[WSCHED_READY] = {
    "scheduler cycles with no resident warp",
    "scheduler cycles stalled: best warp had no valid I-buffer entry",
    "scheduler cycles stalled: best warp waiting at a barrier",
    "scheduler cycles stalled: best warp waiting for memory ordering (membar, SC limit)",
    "scheduler cycles stalled: best warp blocked by the scoreboard (RAW/WAW)",
    "scheduler cycles stalled: best warp's pipe or collector unit busy",
    "scheduler cycles stalled: a ready warp was held back by the policy (pool, eligible set, load gate)",
};

const char *wsched_why_name(enum wsched_why why)
{
    return (unsigned)why < WSCHED_N_WHY ? why_names[why] : "?";
}

void wsched_init(struct wsched *s, const struct wsched_cfg *cfg, uint32_t max_warps)
{
    memset(s, 0, sizeof *s);
    if (wsched_cfg_validate(cfg, NULL, NULL) != 0)
        sim_panic("wsched_init: invalid sched.* configuration");
    SIM_ASSERT(max_warps >= 1 && max_warps <= WSCHED_MAX_WARPS, "wsched_init: max_warps %u", max_warps);
    s->cfg = *cfg;
    s->n_sched = (uint32_t)cfg->n_sched;
    s->sched_mask = (s->n_sched & (s->n_sched - 1)) == 0 ? s->n_sched - 1 : 0; /* NOTE(sched-of) in sched.h */
    s->max_warps = max_warps;
    s->n_active_per_sched = (uint32_t)(cfg->n_active / cfg->n_sched);
    switch (cfg->policy) {
    case WSCHED_LRR: s->pol = &wsched_policy_lrr; break;
    case WSCHED_GTO: s->pol = &wsched_policy_gto; break;
    case WSCHED_TWO_LEVEL: s->pol = &wsched_policy_2lev; break;
    case WSCHED_CCWS: s->pol = &wsched_policy_ccws; break;
    case WSCHED_IWL: s->pol = &wsched_policy_iwl; break;
    case WSCHED_IWL_INTRACL: s->pol = &wsched_policy_iwl_intracl; break;
    case WSCHED_VWS: s->pol = &wsched_policy_vws; break;
    case WSCHED_RMWS: s->pol = &wsched_policy_rmws; break;
    default: sim_panic("wsched_init: unknown policy %d", cfg->policy);
    }
    s->resident = xcalloc(max_warps, sizeof *s->resident);
    s->rank = xcalloc(max_warps, sizeof *s->rank);
    s->cta_seq = xcalloc(max_warps, sizeof *s->cta_seq);
    s->why = xcalloc(max_warps, sizeof *s->why);
    s->why_turn = xcalloc(max_warps, sizeof *s->why_turn);
    s->cta_id = xcalloc(max_warps, sizeof *s->cta_id);
    s->no_load = xcalloc(max_warps, sizeof *s->no_load);
    s->turn = 1;
    s->last_cycle = CYCLE_NEVER;
    if (s->pol->sm_init)
        s->pol->sm_init(s);
    s->units = xcalloc(s->n_sched, sizeof *s->units);
    for (uint32_t k = 0; k < s->n_sched; k++) {
        struct wsched_unit *u = &s->units[k];
        u->id = k;
        u->n_slots = max_warps > k ? (max_warps - k + s->n_sched - 1) / s->n_sched : 0;
        u->slots = xcalloc(u->n_slots ? u->n_slots : 1, sizeof *u->slots);
        u->age = xcalloc(u->n_slots ? u->n_slots : 1, sizeof *u->age);
        u->order = xcalloc(u->n_slots ? u->n_slots : 1, sizeof *u->order);
        for (uint32_t i = 0; i < u->n_slots; i++)
            u->slots[i] = k + i * s->n_sched;
        u->last = WSCHED_NONE;
        u->issued_now = WSCHED_NONE;
        u->last_why = WSCHED_NO_WARP;
        u->res_seen = UINT64_MAX;
        stat_hist_init(&u->st.by_warp, max_warps, 1);
        s->pol->init(s, u);
    }
}

void wsched_fini(struct wsched *s)
{
    if (!s->units)
        return;
    for (uint32_t k = 0; k < s->n_sched; k++) {
        struct wsched_unit *u = &s->units[k];
        s->pol->fini(s, u);
        stat_hist_fini(&u->st.by_warp);
        free(u->slots);
        free(u->age);
        free(u->order);
    }
    free(s->units);
    if (s->pol->sm_fini)
        s->pol->sm_fini(s);
    free(s->cta_id);
    free(s->no_load);
    free(s->resident);
    free(s->rank);
    free(s->cta_seq);
    free(s->why);
    free(s->why_turn);
    memset(s, 0, sizeof *s);
}

void wsched_warp_launch(struct wsched *s, uint32_t w, uint64_t cta_seq)
{
    SIM_ASSERT(w < s->max_warps, "wsched: launch of warp %u >= max_warps %u", w, s->max_warps);
    SIM_ASSERT(!s->resident[w], "wsched: warp slot %u launched twice", w);
    struct wsched_unit *u = &s->units[wsched_of(s, w)];
    s->resident[w] = true;
    s->cta_seq[w] = cta_seq;
    u->dirty = true;
    /* Insert into the age list (oldest first); launches are almost always
     * youngest, so scan from the back. */
    uint32_t i = u->n_age;
    while (i > 0 && wsched_older(s, w, u->age[i - 1])) {
        u->age[i] = u->age[i - 1];
        i--;
    }
    u->age[i] = w;
    u->n_age++;
    if (s->max_warps <= 64) { /* NOTE(blocked-masks) */
        u->res_bits |= 1ull << w;
        for (uint32_t j = i; j < u->n_age; j++)
            s->rank[u->age[j]] = (uint8_t)j;
    }
    s->why_turn[w] = 0;
    s->no_load[w] = false;
    s->pol->on_launch(s, u, w);
}

void wsched_kernel_start(struct wsched *s, const struct wsched_kernel_info *ki)
{
    if (s->pol->kernel_start)
        s->pol->kernel_start(s, ki);
}

void wsched_warp_exit(struct wsched *s, uint32_t w)
{
    SIM_ASSERT(w < s->max_warps && s->resident[w], "wsched: exit of non-resident warp %u", w);
    struct wsched_unit *u = &s->units[wsched_of(s, w)];
    uint32_t i = 0;
    while (i < u->n_age && u->age[i] != w)
        i++;
    SIM_ASSERT(i < u->n_age, "wsched %u: warp %u missing from age list", u->id, w);
    memmove(&u->age[i], &u->age[i + 1], (u->n_age - i - 1) * sizeof *u->age);
    u->n_age--;
    if (s->max_warps <= 64) { /* NOTE(blocked-masks) */
        u->res_bits &= ~(1ull << w);
        for (uint32_t j = i; j < u->n_age; j++)
            s->rank[u->age[j]] = (uint8_t)j;
    }
    s->resident[w] = false;
    u->dirty = true;
    /* NOTE(gto-exit): the greedy warp is forgotten when it exits; LRR keeps
     * `last` as a position in the slot ring, which stays meaningful. */
    s->pol->on_exit(s, u, w);
}

void wsched_notify(struct wsched *s, uint32_t w, enum wsched_event ev)
{
    SIM_ASSERT(w < s->max_warps, "wsched: event for warp %u", w);
    if (!s->resident[w])
        return;
    struct wsched_unit *u = &s->units[wsched_of(s, w)];
    if (s->pol->on_event)
        s->pol->on_event(s, u, w, ev);
}

void wsched_on_l1(struct wsched *s, uint32_t w, uint32_t ev, uint64_t line_addr)
{
    if (!s->pol->on_l1 || w >= s->max_warps)
        return;
    s->pol->on_l1(s, &s->units[wsched_of(s, w)], w, ev, line_addr);
}

uint32_t wsched_gto_fill(const struct wsched *s, struct wsched_unit *u)
{
    uint32_t n = 0;
    uint32_t g = u->last;
    if (g != WSCHED_NONE && s->resident[g])
        u->order[n++] = g;
    else
        g = WSCHED_NONE;
    for (uint32_t i = 0; i < u->n_age; i++)
        if (u->age[i] != g)
            u->order[n++] = u->age[i];
    return n;
}

enum wsched_why wsched_probe(struct wsched *s, uint32_t w)
{
    if (s->why_turn[w] != s->turn) {
        enum wsched_why r = s->port->check(s->port->ctx, w);
        /* per candidate and cycle: debug builds only (STYLE.md 4) */
        SIM_DEBUG_ASSERT(r >= WSCHED_IBUF_EMPTY && r <= WSCHED_READY && r != WSCHED_POLICY,
                         "wsched: check(warp %u) returned %d, not a warp reason", w, (int)r);
        s->why[w] = (uint8_t)r;
        s->why_turn[w] = s->turn;
    }
    return (enum wsched_why)s->why[w];
}

/* Evaluate scheduler u for one cycle; returns the issued warp or WSCHED_NONE
 * and sets u->last_why. */
#ifdef GPUSIM_PARANOID
/* The classification a full evaluation of u would give (no issue: the skip
 * is only taken when no warp can be READY). */
static void paranoid_skip(struct wsched *s, struct wsched_unit *u)
{
    s->turn++;
    enum wsched_why worst = WSCHED_NO_WARP;
    for (uint32_t i = 0; i < u->n_age; i++) {
        enum wsched_why r = wsched_probe(s, u->age[i]);
        if (r > worst)
            worst = r;
    }
    if (worst != u->last_why)
        sim_panic("wsched %u: skipped evaluation would classify %s, the skip kept %s (a missing wsched_touch)",
                  u->id, wsched_why_name(worst), wsched_why_name(u->last_why));
}
#endif

/* Probe warp w in an evaluation of u: the load gate, then issue when READY
 * (returns true). */
static inline bool try_warp(struct wsched *s, struct wsched_unit *u, uint32_t w, enum wsched_why r,
                            enum wsched_why *worst)
{
    if (r == WSCHED_READY && s->no_load[w] && s->port->is_l1_load && s->port->is_l1_load(s->port->ctx, w)) {
        r = WSCHED_POLICY; /* load gate (CCWS, block_loads) */
        u->st.throttled++;
        s->held = true;
    }
    if (r > *worst)
        *worst = r;
    if (r != WSCHED_READY)
        return false;
    uint32_t flags = s->port->issue(s->port->ctx, w);
    u->last = w;
    u->issued_now = w;
    u->last_why = WSCHED_READY;
    stat_hist_add(&u->st.by_warp, w);
    s->pol->on_issue(s, u, w, flags);
    return true;
}

/* NOTE(greedy-walk): for gto the candidate order is the greedy warp and
 * then the age list without it, which offers every resident warp once. The
 * walk below visits them in that order without building u->order, and asks
 * check() directly: with every warp offered once, no warp is probed twice
 * in an evaluation, so the probe memo (why/why_turn) has nothing to save.
 * The outcome (issued warp, classification, policy calls) is the generic
 * loop's. */
/* NOTE(blocked-memo): a warp the port's memo marks blocked answers with
 * the memo's reason, which is what check() would return; reading the byte
 * saves the call for the warps that wait on the scoreboard, an I-buffer, a
 * barrier or memory order, most of them in memory-bound phases. A blocked
 * answer is never READY, so try_warp only folds it into the worst reason,
 * as before. GPUSIM_PARANOID builds always call check(), which verifies
 * the memo. */
/* NOTE(pass-key): in one evaluation nothing issues until the walk ends, so
 * the SM-wide state check() reads (pools, collector units, the cycle) is
 * fixed, and a warp past its per-warp tests is answered by its memo byte
 * (PW_PASS, memory bit, pipe class) and that state alone when the port
 * says so (pw_keyed). The walk keeps the answers of this evaluation by byte
 * (`key`: seen bits and reasons) and asks check() once per distinct byte:
 * in memory-bound phases many warps wait for the same busy pipe or
 * collector, and each used to cost a call. GPUSIM_PARANOID builds call
 * check() for every warp and panic when a kept answer differs. */
struct pass_key {
    uint64_t seen;   /* bit b: why[b] holds the answer for the bytes with low bits b */
    uint8_t why[64]; /* valid where seen */
};
/* An unblocked, filled memo byte (bit 7 clear) with bit 6 set: its low 6
 * bits identify it. The SM's are PW_PASS (bit 6) | PW_MEM | class (sm.c
 * NOTE(pw-memo), static-asserted there); 0 means not filled. */
static inline bool pass_keyable(uint8_t m) { return (m & 0xC0) == 0x40; }

/* One probe of the gto walk. has_memo and keyed are constants in each
 * instance of the walk (greedy_walk_), so the tests fold away. */
static inline __attribute__((always_inline)) enum wsched_why
probe_memo(enum wsched_why (*check)(void *, uint32_t), void *ctx, const uint8_t *memo, bool has_memo,
           struct pass_key *key, bool keyed, uint32_t w)
{
    if (!has_memo)
        return check(ctx, w);
    uint8_t m = memo[w];
#ifndef GPUSIM_PARANOID
    if (m & WSCHED_PW_BLOCK)
        return (enum wsched_why)(m & ~WSCHED_PW_BLOCK);
    if (keyed && pass_keyable(m)) {
        uint64_t bit = 1ull << (m & 63);
        if (key->seen & bit)
            return (enum wsched_why)key->why[m & 63];
        enum wsched_why r = check(ctx, w);
        key->seen |= bit;
        key->why[m & 63] = (uint8_t)r;
        return r;
    }
    return check(ctx, w);
#else
    enum wsched_why r = check(ctx, w);
    if (keyed && pass_keyable(m)) {
        uint64_t bit = 1ull << (m & 63);
        if ((key->seen & bit) && key->why[m & 63] != (uint8_t)r)
            sim_panic("wsched: warp %u with memo byte 0x%x answers %s, an earlier warp with that byte %s "
                      "(NOTE(pass-key))",
                      w, m, wsched_why_name(r), wsched_why_name((enum wsched_why)key->why[m & 63]));
        key->seen |= bit;
        key->why[m & 63] = (uint8_t)r;
    }
    return r;
#endif
}

/* NOTE(blocked-masks): in memory-bound phases most warps of a scheduler
 * wait on the scoreboard or an I-buffer, and the plain walk still visits
 * each of them to read its memo byte. A port that keeps its blocked warps
 * as masks by reason (pw_blk, exact mirrors of the memo bytes) lets the
 * walk visit only the others: the greedy warp first as before, then the
 * unblocked warps in age order (their age-list positions, `rank`, set as
 * bits of one word and taken lowest first), then the worst blocked reason
 * from the masks. A blocked warp never issues and changes nothing but the
 * classification when probed (its answer is its memo reason), so issue,
 * classification, policy calls and check() calls are the full walk's. The
 * masked walk is taken when at most half the resident warps are
 * unblocked; with more, the full walk usually stops at one of the first
 * warps. Both are exact, so the choice changes no result. GPUSIM_PARANOID
 * builds compare the masks with the memo bytes and call check() for every
 * blocked warp too. */
#ifdef GPUSIM_PARANOID
static void paranoid_masks(struct wsched *s, const struct wsched_unit *u, const uint8_t *memo, const uint64_t *blk)
{
    for (uint32_t i = 0; i < u->n_age; i++) {
        uint32_t w = u->age[i];
        uint8_t m = memo[w];
        for (unsigned r = WSCHED_IBUF_EMPTY; r <= WSCHED_SCOREBOARD; r++) {
            bool want = (m & WSCHED_PW_BLOCK) && (m & ~WSCHED_PW_BLOCK) == r;
            if (((blk[r] >> w) & 1) != want)
                sim_panic("wsched %u: warp %u memo 0x%x, blocked mask %s has bit %d (NOTE(blocked-masks))", u->id,
                          w, m, wsched_why_name((enum wsched_why)r), (int)((blk[r] >> w) & 1));
        }
        if (s->rank[w] != i || !((u->res_bits >> w) & 1))
            sim_panic("wsched %u: warp %u at age index %u has rank %u (NOTE(blocked-masks))", u->id, w, i,
                      s->rank[w]);
        if ((m & WSCHED_PW_BLOCK) && s->port->check(s->port->ctx, w) != (enum wsched_why)(m & ~WSCHED_PW_BLOCK))
            sim_panic("wsched %u: blocked warp %u answers other than its memo 0x%x (NOTE(blocked-masks))", u->id, w,
                      m);
    }
}
#endif

/* One body for every gto walk; has_memo, keyed and masked are constants in
 * each instance (greedy_walk), so the tests they guard fold away. masked:
 * cand holds the unblocked resident warps (NOTE(blocked-masks)). */
static inline __attribute__((always_inline)) uint32_t greedy_walk_(struct wsched *s, struct wsched_unit *u,
                                                                   const uint8_t *memo, bool has_memo, bool keyed,
                                                                   const uint64_t *blk, uint64_t cand, bool masked)
{
    enum wsched_why worst = WSCHED_NO_WARP;
    enum wsched_why (*check)(void *, uint32_t) = s->port->check;
    void *ctx = s->port->ctx;
    struct pass_key key;
    key.seen = 0;
#ifdef GPUSIM_PARANOID
    if (masked)
        paranoid_masks(s, u, memo, blk);
#endif
    uint32_t g = u->last;
    if (g != WSCHED_NONE && s->resident[g]) {
        if (try_warp(s, u, g, probe_memo(check, ctx, memo, has_memo, &key, keyed, g), &worst))
            return g;
        if (masked)
            cand &= ~(1ull << g);
    } else {
        g = WSCHED_NONE;
    }
    if (masked) {
        uint64_t by_age = 0; /* bit i: age-list entry i is an unblocked candidate */
        for (; cand; cand &= cand - 1)
            by_age |= 1ull << s->rank[__builtin_ctzll(cand)];
        for (; by_age; by_age &= by_age - 1) {
            uint32_t w = u->age[__builtin_ctzll(by_age)];
            if (try_warp(s, u, w, probe_memo(check, ctx, memo, has_memo, &key, keyed, w), &worst))
                return w;
        }
        for (unsigned r = WSCHED_SCOREBOARD; r > (unsigned)worst; r--) /* the blocked warps' worst reason */
            if (blk[r] & u->res_bits) {
                worst = (enum wsched_why)r;
                break;
            }
    } else {
        for (uint32_t i = 0; i < u->n_age; i++) {
            uint32_t w = u->age[i];
            if (w != g && try_warp(s, u, w, probe_memo(check, ctx, memo, has_memo, &key, keyed, w), &worst))
                return w;
        }
    }
    u->last_why = worst;
    if (worst == WSCHED_PIPE_BUSY && s->port->res_sig) /* nothing issued: resources as probed */
        u->res_seen = s->port->res_sig(s->port->ctx);
    return WSCHED_NONE;
}

static uint32_t greedy_walk(struct wsched *s, struct wsched_unit *u)
{
    const uint8_t *memo = s->port->pw_memo;
    if (!memo)
        return greedy_walk_(s, u, NULL, false, false, NULL, 0, false);
    const bool keyed = s->port->pw_keyed;
    const uint64_t *blk = s->port->pw_blk;
    if (blk && s->max_warps <= 64) { /* NOTE(blocked-masks) */
        uint64_t cand = u->res_bits &
                        ~(blk[WSCHED_IBUF_EMPTY] | blk[WSCHED_BARRIER] | blk[WSCHED_MEM_ORDER] | blk[WSCHED_SCOREBOARD]);
        if (2u * (uint32_t)__builtin_popcountll(cand) <= u->n_age) {
            u->masked++;
            return keyed ? greedy_walk_(s, u, memo, true, true, blk, cand, true)
                         : greedy_walk_(s, u, memo, true, false, blk, cand, true);
        }
    }
    return keyed ? greedy_walk_(s, u, memo, true, true, NULL, 0, false)
                 : greedy_walk_(s, u, memo, true, false, NULL, 0, false);
}

static uint32_t unit_cycle(struct wsched *s, struct wsched_unit *u)
{
    u->issued_now = WSCHED_NONE;
    /* A port without res_sig does not promise wsched_touch: never skip. */
    if (s->port->res_sig && !u->dirty && s->pol->stable_order &&
        (u->last_why <= WSCHED_SCOREBOARD ||
         (u->last_why == WSCHED_PIPE_BUSY && u->res_seen != UINT64_MAX &&
          s->port->res_sig(s->port->ctx) == u->res_seen))) { /* NOTE(sched-skip) */
        u->skipped++;
#ifdef GPUSIM_PARANOID
        paranoid_skip(s, u);
#endif
        return WSCHED_NONE;
    }
    u->dirty = false;
    s->turn++;
    if (u->n_age == 0) {
        u->last_why = WSCHED_NO_WARP;
        return WSCHED_NONE;
    }
    if (s->pol->greedy_age)
        return greedy_walk(s, u);
    uint32_t n = s->pol->order(s, u);
    SIM_ASSERT(n <= u->n_age, "wsched %u: policy %s ordered %u warps", u->id, s->pol->name, n);
    enum wsched_why worst = WSCHED_NO_WARP;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w = u->order[i];
        /* per candidate and cycle (a division): debug builds only (STYLE.md 4) */
        SIM_DEBUG_ASSERT(s->resident[w] && wsched_of(s, w) == u->id, "wsched %u: policy offered warp %u", u->id,
                         w);
        if (try_warp(s, u, w, wsched_probe(s, w), &worst))
            return w;
    }
    /* Nothing issued: classify over every resident warp of the scheduler.
     * When the policy offered all of them (distinct), the loop above saw
     * every answer; otherwise the rest are probed (offered ones memoised). */
    if (n == u->n_age) {
        u->last_why = worst;
        if (worst == WSCHED_PIPE_BUSY && s->port->res_sig) /* nothing issued: resources as probed */
            u->res_seen = s->port->res_sig(s->port->ctx);
        return WSCHED_NONE;
    }
    worst = WSCHED_NO_WARP;
    for (uint32_t i = 0; i < u->n_age; i++) {
        enum wsched_why r = wsched_probe(s, u->age[i]);
        if (r == WSCHED_READY) {
            r = WSCHED_POLICY; /* ready but not offered (offered ready warps issued above) */
            s->held = true;
        }
        if (r > worst)
            worst = r;
    }
    u->last_why = worst;
    if (worst == WSCHED_PIPE_BUSY && s->port->res_sig)
        u->res_seen = s->port->res_sig(s->port->ctx);
    return WSCHED_NONE;
}

static void account(struct wsched_unit *u, uint64_t cycles)
{
    u->st.cycles += cycles;
    if (u->last_why == WSCHED_READY)
        u->st.issued += cycles;
    else
        u->st.stall[u->last_why] += cycles;
}

cycle_t wsched_tick(struct wsched *s, cycle_t now, const struct wsched_port *port)
{
    SIM_ASSERT(s->last_cycle == CYCLE_NEVER || now > s->last_cycle,
               "wsched: tick at %" PRIu64 " after %" PRIu64, now, s->last_cycle);
    bool any = false;
    /* Cycles skipped since the last tick: no SM event happened in them (it
     * would have ticked us), so each scheduler stayed in its last state. */
    if (s->last_cycle != CYCLE_NEVER && now - s->last_cycle > 1) {
        for (uint32_t k = 0; k < s->n_sched; k++) {
            struct wsched_unit *u = &s->units[k];
            SIM_ASSERT(u->last_why != WSCHED_READY, "wsched %u: skipped cycle %" PRIu64
                       " after an issue at %" PRIu64, k, s->last_cycle + 1, s->last_cycle);
            account(u, now - s->last_cycle - 1);
        }
    }
    s->port = port;
    s->now = now;
    s->held = false;
    /* NOTE(issue-order): the schedulers of an SM are evaluated one after
     * the other, so the first one takes a shared resource (a free pipe, a
     * memory-instruction place) that both want in the same cycle. `fixed`
     * starts with scheduler 0 every cycle, as GPGPU-Sim 3.2.2 does; `rotate`
     * starts with scheduler (now mod n_sched), GPGPU-Sim 4.x's Issue_Prio
     * (commit dcf7e6a8, 2017: "round robin inst issue for warp multiple
     * schedulers"), which advances once per core cycle. Deriving it from the
     * cycle number, not from a count of ticks, keeps idle skipping and
     * sim.tick_every_cycle identical. With fixed order and a contended
     * LD/ST unit the even warps run ahead of the odd ones (docs/sched.md). */
    uint32_t k = 0;
    if (UNLIKELY(s->cfg.issue_order == WSCHED_ORDER_ROTATE))
        k = (uint32_t)(now % s->n_sched);
    for (uint32_t j = 0; j < s->n_sched; j++) {
        struct wsched_unit *u = &s->units[k];
        if (unit_cycle(s, u) != WSCHED_NONE)
            any = true;
        account(u, 1);
        if (++k == s->n_sched)
            k = 0;
    }
    s->port = NULL;
    s->last_cycle = now;
    if (!any && s->held && s->pol->poll_when_held)
        return now + 1;
    /* NOTE(time-varying): a policy whose state moves with time alone must be
     * evaluated every cycle while it does; before the LD/ST unit stopped
     * polling (NOTE(fail-memo) in ldst.c) a stalled SM ticked every cycle
     * anyway and hid this (tests/test_vws.c, ccws with tick_every_cycle). */
    if (!any && s->pol->time_varying && s->pol->time_varying(s))
        return now + 1;
    return any ? now + 1 : CYCLE_NEVER;
}

void wsched_check(const struct wsched *s)
{
    for (uint32_t k = 0; k < s->n_sched; k++) {
        const struct wsched_unit *u = &s->units[k];
        uint64_t sum = u->st.issued;
        for (int r = 0; r < WSCHED_READY; r++)
            sum += u->st.stall[r];
        if (sum != u->st.cycles)
            sim_panic("wsched %u: issued + stalls = %" PRIu64 " != cycles %" PRIu64, k, sum, u->st.cycles);
        uint32_t n_res = 0;
        for (uint32_t i = 0; i < u->n_slots; i++)
            n_res += s->resident[u->slots[i]];
        if (n_res != u->n_age)
            sim_panic("wsched %u: %u resident warps but age list holds %u", k, n_res, u->n_age);
        for (uint32_t i = 1; i < u->n_age; i++)
            if (!wsched_older(s, u->age[i - 1], u->age[i]))
                sim_panic("wsched %u: age list out of order at %u (warps %u, %u)", k, i, u->age[i - 1],
                          u->age[i]);
    }
}

void wsched_stats_register(struct wsched *s, struct stats *reg, const char *group, int first_instance)
{
    for (uint32_t k = 0; k < s->n_sched; k++) {
        struct wsched_unit *u = &s->units[k];
        int i = first_instance + (int)k;
        stats_counter(reg, group, i, "cycles", &u->st.cycles, "scheduler cycles (pipeline cycles)");
        stats_counter(reg, group, i, "issued", &u->st.issued, "warp instructions issued (one per cycle at most)");
        for (int r = 0; r < WSCHED_READY; r++)
            stats_counter(reg, group, i, why_names[r], &u->st.stall[r], why_docs[r]);
        stats_counter(reg, group, i, "demotions", &u->st.demotions, "two_level: warps moved to the pending pool");
        stats_counter(reg, group, i, "promotions", &u->st.promotions, "two_level: warps moved to the active pool");
        stats_hist(reg, group, i, "issue_by_warp", &u->st.by_warp, "instructions issued per warp slot");
        if (s->pol->stats_register) /* only the cache-aware policies: the baseline's output is unchanged */
            stats_counter(reg, group, i, "throttled", &u->st.throttled,
                          "ready warps whose L1D load was gated (ccws, block_loads), per evaluation");
    }
    if (s->pol->stats_register)
        s->pol->stats_register(s, reg, first_instance / (int)s->n_sched);
}
