/* tests/test_tagarray.c: the tag array (sim/mem/tagarray) and its
 * replacement policies, metadata, eviction hook and victim tags, each
 * checked against a naive reference model.
 *
 * - Random access streams (hits, misses, RESERVED lines, fills, dirty lines,
 *   invalidations) drive the tag array and a naive model side by side; every
 *   probe, every victim and every eviction must agree. The naive models keep
 *   the policies in their textbook form: LRU and FIFO as ordered lists of
 *   ways, SRRIP with the paper's "age until some RRPV is 3" loop (the tag
 *   array ages at install instead). Each model has an injected fault (a
 *   flipped victim choice) that the comparison must catch, as SQLite's
 *   bitvec test does.
 * - Metadata: zero after install, kept across hits, seen by the hook.
 * - Eviction hook: called exactly for VALID/MODIFIED lines that leave, with
 *   their address, state and cause, never for INVALID or RESERVED lines.
 * - Victim tags: against a naive insertion-history model, fully associative
 *   and set-associative, with a fault variant; and through the tag array.
 * - A worked example: an MRU policy of a few lines defined here and plugged
 *   in through the public table (docs/cache.md walks through it).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/mem/tagarray.h"
#include "sim/mem/victags.h"
#include "tap.h"

static uint64_t xs(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static uint32_t hash_set(void *ctx, uint64_t line)
{
    (void)ctx;
    return (uint32_t)(((line >> 7) ^ (line >> 11) ^ (line >> 13)) & 15); /* 16 sets, Fermi-like XOR */
}

/* ------------------------------------------------------------- naive model */

enum ref_pol { REF_LRU, REF_FIFO, REF_SRRIP };

struct ref {
    uint32_t sets, assoc;
    enum ref_pol pol;
    int fault;      /* 1: choose the wrong victim when there is a choice */
    uint64_t *tag;  /* [sets*assoc] */
    uint8_t *st;    /* [sets*assoc] enum ta_state */
    uint32_t *ord;  /* [sets][assoc] LRU / FIFO: ways, most recent (inserted) first */
    uint8_t *rrpv;  /* [sets*assoc] SRRIP */
};

static void ref_init(struct ref *m, uint32_t sets, uint32_t assoc, enum ref_pol pol, int fault)
{
    m->sets = sets;
    m->assoc = assoc;
    m->pol = pol;
    m->fault = fault;
    size_t n = (size_t)sets * assoc;
    m->tag = malloc(n * sizeof *m->tag);
    m->st = calloc(n, 1);
    m->ord = malloc(n * sizeof *m->ord);
    m->rrpv = calloc(n, 1);
    for (size_t i = 0; i < n; i++) {
        m->tag[i] = TA_NO_TAG;
        m->ord[i] = (uint32_t)(i % assoc);
    }
}

static void ref_fini(struct ref *m)
{
    free(m->tag);
    free(m->st);
    free(m->ord);
    free(m->rrpv);
}

static int32_t ref_find(const struct ref *m, uint32_t set, uint64_t a)
{
    for (uint32_t w = 0; w < m->assoc; w++)
        if (m->tag[set * m->assoc + w] == a)
            return (int32_t)(set * m->assoc + w);
    return -1;
}

static void ref_front(struct ref *m, uint32_t line)
{
    uint32_t set = line / m->assoc, way = line % m->assoc, *o = m->ord + (size_t)set * m->assoc, i = 0;
    while (o[i] != way)
        i++;
    memmove(o + 1, o, i * sizeof *o);
    o[0] = way;
}

static void ref_hit(struct ref *m, uint32_t line)
{
    if (m->pol == REF_LRU)
        ref_front(m, line);
    else if (m->pol == REF_SRRIP)
        m->rrpv[line] = 0;
}

/* Victim as the textbook describes it (SRRIP ages here, as in the paper). */
static int32_t ref_victim(struct ref *m, uint32_t set)
{
    uint32_t b = set * m->assoc;
    for (uint32_t w = 0; w < m->assoc; w++)
        if (m->st[b + w] == TA_INVALID)
            return (int32_t)(b + w);
    if (m->pol == REF_SRRIP) {
        bool any = false;
        for (uint32_t w = 0; w < m->assoc; w++)
            any |= m->st[b + w] != TA_RESERVED;
        if (!any)
            return -1;
        for (;;) {
            int32_t first = -1, last = -1;
            for (uint32_t w = 0; w < m->assoc; w++)
                if (m->st[b + w] != TA_RESERVED && m->rrpv[b + w] == 3) {
                    if (first < 0)
                        first = (int32_t)(b + w);
                    last = (int32_t)(b + w);
                }
            if (first >= 0)
                return m->fault ? last : first; /* fault: the last distant way */
            for (uint32_t w = 0; w < m->assoc; w++)
                if (m->st[b + w] != TA_RESERVED)
                    m->rrpv[b + w]++;
        }
    }
    /* LRU / FIFO: from the back of the order, the first non-RESERVED way */
    const uint32_t *o = m->ord + (size_t)set * m->assoc;
    int32_t pick = -1;
    for (uint32_t i = m->assoc; i-- > 0;)
        if (m->st[b + o[i]] != TA_RESERVED) {
            if (pick >= 0 || !m->fault)
                return (int32_t)(b + o[i]);
            pick = (int32_t)(b + o[i]); /* fault: skip the oldest once (second oldest) */
        }
    return pick;
}

static void ref_install(struct ref *m, uint32_t line, uint64_t a, enum ta_state st)
{
    m->tag[line] = a;
    m->st[line] = (uint8_t)st;
    if (m->pol == REF_SRRIP)
        m->rrpv[line] = 2;
    else
        ref_front(m, line);
}

static void ref_invalidate(struct ref *m, uint32_t line)
{
    m->tag[line] = TA_NO_TAG;
    m->st[line] = TA_INVALID;
}

/* ------------------------------------------------------------- random streams */

#define META_BYTES 12

/* What the hook saw. */
struct hook_log {
    uint32_t calls;                  /* callbacks */
    uint64_t addr;                   /* last one's line address */
    uint32_t line;                   /* its line index */
    uint8_t state, cause;            /* its state and cause */
    uint8_t meta[META_BYTES];        /* its metadata at the call */
    bool meta_null;                  /* meta pointer was NULL */
};

static void hook(void *ctx, const struct ta_evict *ev)
{
    struct hook_log *h = ctx;
    h->calls++;
    h->addr = ev->line_addr;
    h->line = ev->line;
    h->state = ev->state;
    h->cause = ev->cause;
    h->meta_null = ev->meta == NULL;
    if (ev->meta)
        memcpy(h->meta, ev->meta, META_BYTES);
}

/* Metadata signature of a line address. */
static void sig(uint8_t out[META_BYTES], uint64_t a)
{
    for (int i = 0; i < META_BYTES; i++)
        out[i] = (uint8_t)(a >> (i % 8 * 8)) ^ (uint8_t)(0x5a + i);
}

struct rnd_res {
    int mismatches;     /* probes, victims, evictions or metadata that disagreed */
    int hook_errors;    /* hook calls that were missing, extra or wrong */
    uint32_t evictions; /* evictions of valid lines seen by the model */
    uint32_t misses;    /* misses that installed */
    uint32_t reserved;  /* installs as RESERVED */
    uint32_t no_victim; /* misses that found every way RESERVED */
};

/* One stream of n steps over `lines` distinct lines in 16 sets x 4 ways. */
static struct rnd_res run_stream(const struct ta_repl_ops *ops, enum ref_pol pol, int fault, uint64_t seed,
                                 uint32_t n, uint32_t lines)
{
    struct rnd_res r;
    memset(&r, 0, sizeof r);
    struct hook_log hl;
    memset(&hl, 0, sizeof hl);
    struct tagarray t;
    struct ta_opts o = {.repl = ops, .meta_bytes = META_BYTES, .evict_fn = hook, .evict_ctx = &hl};
    ta_init_opts(&t, 16, 4, 128, hash_set, NULL, &o);
    struct ref m;
    ref_init(&m, 16, 4, pol, fault);
    for (uint32_t step = 0; step < n; step++) {
        uint32_t kind = (uint32_t)(xs(&seed) % 100);
        uint64_t a = (xs(&seed) % lines) * 128;
        uint32_t set = ta_set_of(&t, a);
        uint32_t any = set * 4 + (uint32_t)(xs(&seed) % 4);
        uint32_t calls0 = hl.calls;
        if (kind < 6) { /* invalidate a line (write-evict, coherence) */
            uint8_t st = m.st[any];
            uint64_t old = m.tag[any];
            ta_invalidate(&t, any);
            ref_invalidate(&m, any);
            bool want = st >= TA_VALID;
            if (hl.calls - calls0 != (want ? 1u : 0u) ||
                (want && (hl.addr != old || hl.state != st || hl.cause != TA_EV_INVALIDATE || hl.line != any)))
                r.hook_errors++;
            continue;
        }
        if (kind < 16) { /* the fill of a RESERVED line arrives */
            if (m.st[any] == TA_RESERVED && ta_state_of(&t, any) == TA_RESERVED) {
                ta_set_state(&t, any, TA_VALID);
                m.st[any] = TA_VALID;
            }
            continue;
        }
        int32_t li = ta_probe(&t, a), ri = ref_find(&m, set, a);
        if (li != ri) {
            r.mismatches++;
            continue;
        }
        if (li >= 0) {
            if (m.st[li] == TA_RESERVED)
                continue; /* a merge: no replacement event */
            uint8_t want[META_BYTES];
            sig(want, a);
            if (memcmp(ta_meta(&t, (uint32_t)li), want, META_BYTES) != 0)
                r.mismatches++; /* metadata lost across hits */
            ta_touch(&t, (uint32_t)li);
            ref_hit(&m, (uint32_t)li);
            if (kind < 24) { /* a write hit */
                ta_set_state(&t, (uint32_t)li, TA_MODIFIED);
                m.st[li] = TA_MODIFIED;
            }
            continue;
        }
        int32_t v = ta_victim(&t, set);
        if (ta_victim(&t, set) != v)
            r.mismatches++; /* victim must be pure: asking twice gives the same answer */
        int32_t rv = ref_victim(&m, set);
        if (v != rv)
            r.mismatches++;
        if (v < 0 || rv < 0) {
            r.no_victim += v < 0;
            continue;
        }
        enum ta_state st = kind < 40 ? TA_RESERVED : TA_VALID;
        uint64_t old_tag = m.tag[rv];
        uint8_t old_st = m.st[rv];
        uint8_t old_sig[META_BYTES];
        sig(old_sig, old_tag);
        ta_install(&t, (uint32_t)v, a, st);
        ref_install(&m, (uint32_t)rv, a, st);
        r.misses++;
        r.reserved += st == TA_RESERVED;
        bool want = old_st >= TA_VALID && v == rv;
        r.evictions += old_st >= TA_VALID;
        if (v == rv && (hl.calls - calls0 != (want ? 1u : 0u) ||
                        (want && (hl.addr != old_tag || hl.state != old_st || hl.cause != TA_EV_REPLACE ||
                                  hl.line != (uint32_t)v || hl.meta_null ||
                                  memcmp(hl.meta, old_sig, META_BYTES) != 0))))
            r.hook_errors++;
        static const uint8_t zero[META_BYTES];
        if (memcmp(ta_meta(&t, (uint32_t)v), zero, META_BYTES) != 0)
            r.mismatches++; /* metadata not zeroed at install */
        sig(ta_meta(&t, (uint32_t)v), a);
        if (v != rv) { /* keep both in step after a disagreement: drop the model's line where the array put it */
            ref_invalidate(&m, (uint32_t)v);
            ref_install(&m, (uint32_t)v, a, st);
            ref_invalidate(&m, (uint32_t)rv);
            m.tag[rv] = old_tag;
            m.st[rv] = old_st;
        }
    }
    /* the end: every line agrees */
    for (uint32_t i = 0; i < ta_n_lines(&t); i++)
        r.mismatches += ta_tag_of(&t, i) != m.tag[i] || ta_state_of(&t, i) != m.st[i];
    ref_fini(&m);
    ta_fini(&t);
    return r;
}

static void test_policies_vs_reference(void)
{
    static const struct {
        const struct ta_repl_ops *ops;
        enum ref_pol pol;
        const char *fault_doc;
    } P[] = {
        {&ta_repl_lru, REF_LRU, "evicts the second least recent"},
        {&ta_repl_fifo, REF_FIFO, "evicts the second oldest"},
        {&ta_repl_srrip, REF_SRRIP, "takes the last distant way, not the first"},
    };
    for (size_t k = 0; k < ARRAY_LEN(P); k++) {
        const char *nm = P[k].ops->name;
        for (uint64_t seed = 1; seed <= 4; seed++) {
            struct rnd_res r = run_stream(P[k].ops, P[k].pol, 0, seed * 7919, 20000, seed & 1 ? 150 : 600);
            TAP_OK(r.mismatches == 0 && r.hook_errors == 0,
                   "%s matches its naive reference, seed %llu: 20000 steps, %u misses (%u reserved), %u evictions, "
                   "%u all-RESERVED sets (mismatches %d, hook errors %d)",
                   nm, (unsigned long long)seed, r.misses, r.reserved, r.evictions, r.no_victim, r.mismatches,
                   r.hook_errors);
            if (seed == 1)
                TAP_OK(r.no_victim > 0 && r.reserved > 1000 && r.evictions > 1000,
                       "%s stream exercises RESERVED ways, full-RESERVED sets and evictions", nm);
        }
        struct rnd_res f = run_stream(P[k].ops, P[k].pol, 1, 7919, 20000, 150);
        TAP_OK(f.mismatches > 0, "%s injected fault (reference %s) is detected: %d mismatches", nm, P[k].fault_doc,
               f.mismatches);
    }
}

/* ------------------------------------------------------------- fixed cases */

static void test_registry(void)
{
    for (int k = 0; k < TA_REPL_COUNT; k++)
        TAP_STREQ(ta_repl_of(k)->name, ta_repl_names[k], "policy %d's table is named as its config choice", k);
    TAP_OK(ta_repl_names[TA_REPL_COUNT] == NULL, "the choice list is NULL-terminated");
    struct tagarray t;
    ta_init(&t, 4, 2, 64, NULL, NULL);
    TAP_OK(t.repl == &ta_repl_lru && t.lru_inline && t.meta == NULL && !t.has_vt && t.evict_fn == NULL,
           "ta_init: LRU, no metadata, no hook, no victim tags");
    ta_fini(&t);
}

static void test_lru_reserved(void)
{
    static const struct ta_repl_ops *const all[] = {&ta_repl_lru, &ta_repl_fifo, &ta_repl_srrip};
    for (size_t k = 0; k < ARRAY_LEN(all); k++) {
        struct tagarray t;
        struct ta_opts o = {.repl = all[k]};
        ta_init_opts(&t, 1, 3, 128, NULL, NULL, &o);
        TAP_EQ_I64(ta_victim(&t, 0), 0, "%s: an empty set gives way 0", all[k]->name);
        ta_install(&t, 0, 0, TA_RESERVED);
        TAP_EQ_I64(ta_victim(&t, 0), 1, "%s: the lowest INVALID way comes first", all[k]->name);
        ta_install(&t, 1, 128, TA_RESERVED);
        ta_install(&t, 2, 256, TA_RESERVED);
        TAP_EQ_I64(ta_victim(&t, 0), -1, "%s: a set whose ways are all RESERVED has no victim", all[k]->name);
        ta_set_state(&t, 2, TA_VALID);
        TAP_EQ_I64(ta_victim(&t, 0), 2, "%s: the only non-RESERVED way is the victim", all[k]->name);
        ta_fini(&t);
    }
}

static void test_policy_orders(void)
{
    /* A B C D in a 4-way set, hits on A and C, then E and F miss. */
    static const struct {
        const struct ta_repl_ops *ops;
        uint64_t first, second; /* lines E and F replace */
    } C[] = {
        {&ta_repl_lru, 1 * 128, 3 * 128},  /* B, then D */
        {&ta_repl_fifo, 0 * 128, 1 * 128}, /* A, then B: hits do not matter */
        /* SRRIP: A C at 0, B D at 2; E takes B (first max), ageing D to 3, A C to 1; F takes D */
        {&ta_repl_srrip, 1 * 128, 3 * 128},
    };
    for (size_t k = 0; k < ARRAY_LEN(C); k++) {
        struct tagarray t;
        struct ta_opts o = {.repl = C[k].ops};
        ta_init_opts(&t, 1, 4, 128, NULL, NULL, &o);
        for (uint32_t w = 0; w < 4; w++)
            ta_install(&t, ta_victim(&t, 0), w * 128, TA_VALID);
        ta_touch(&t, 0);
        ta_touch(&t, 2);
        int32_t v = ta_victim(&t, 0);
        uint64_t e1 = ta_tag_of(&t, v);
        ta_install(&t, v, 4 * 128, TA_VALID);
        v = ta_victim(&t, 0);
        uint64_t e2 = ta_tag_of(&t, v);
        ta_install(&t, v, 5 * 128, TA_VALID);
        TAP_OK(e1 == C[k].first && e2 == C[k].second, "%s: after hits on A and C, E replaces line %llu and F line %llu",
               C[k].ops->name, (unsigned long long)e1 / 128, (unsigned long long)e2 / 128);
        ta_fini(&t);
    }
    /* SRRIP is scan resistant: lines hit once survive a one-pass scan that LRU lets flush them. */
    for (int srrip = 0; srrip < 2; srrip++) {
        struct tagarray t;
        struct ta_opts o = {.repl = srrip ? &ta_repl_srrip : &ta_repl_lru};
        ta_init_opts(&t, 1, 4, 128, NULL, NULL, &o);
        for (uint32_t w = 0; w < 2; w++) { /* a hot pair, installed and hit */
            ta_install(&t, ta_victim(&t, 0), w * 128, TA_VALID);
            ta_touch(&t, ta_probe(&t, w * 128));
        }
        for (uint64_t s = 10; s < 14; s++) /* a scan of 4 lines, each used once */
            if (ta_probe(&t, s * 128) < 0)
                ta_install(&t, ta_victim(&t, 0), s * 128, TA_VALID);
        bool kept = ta_probe(&t, 0) >= 0 && ta_probe(&t, 128) >= 0;
        TAP_OK(srrip ? kept : !kept, "%s: a 4-line scan %s the hot lines", srrip ? "srrip" : "lru",
               srrip ? "keeps" : "flushes");
        ta_fini(&t);
    }
}

static void test_meta_and_hook(void)
{
    struct hook_log hl;
    memset(&hl, 0, sizeof hl);
    struct tagarray t;
    struct ta_opts o = {.meta_bytes = META_BYTES, .evict_fn = hook, .evict_ctx = &hl};
    ta_init_opts(&t, 1, 2, 128, NULL, NULL, &o);
    static const uint8_t zero[META_BYTES];
    TAP_OK(memcmp(ta_meta(&t, 0), zero, META_BYTES) == 0 && memcmp(ta_meta(&t, 1), zero, META_BYTES) == 0,
           "metadata is zero after init");
    ta_install(&t, 0, 0x1000, TA_RESERVED);
    memset(ta_meta(&t, 0), 0xab, META_BYTES);
    ta_set_state(&t, 0, TA_VALID);
    ta_touch(&t, 0);
    uint8_t ab[META_BYTES];
    memset(ab, 0xab, sizeof ab);
    TAP_OK(memcmp(ta_meta(&t, 0), ab, META_BYTES) == 0, "metadata persists across a fill (state change) and a hit");
    ta_install(&t, 1, 0x2000, TA_MODIFIED);
    TAP_OK(memcmp(ta_meta(&t, 0), ab, META_BYTES) == 0 && memcmp(ta_meta(&t, 1), zero, META_BYTES) == 0,
           "installing another line leaves this one's metadata alone and zeroes its own");
    TAP_EQ_U64(hl.calls, 0, "no hook call for installs into INVALID ways");
    memset(ta_meta(&t, 1), 0xcd, META_BYTES);
    ta_touch(&t, 1);
    ta_install(&t, (uint32_t)ta_victim(&t, 0), 0x3000, TA_VALID); /* LRU: line 0x1000 */
    TAP_OK(hl.calls == 1 && hl.addr == 0x1000 && hl.state == TA_VALID && hl.cause == TA_EV_REPLACE && hl.line == 0 &&
               memcmp(hl.meta, ab, META_BYTES) == 0,
           "replacement: one hook call with the old address, state, cause and metadata");
    TAP_OK(memcmp(ta_meta(&t, 0), zero, META_BYTES) == 0, "the new line's metadata is zero");
    ta_invalidate(&t, 1);
    uint8_t cd[META_BYTES];
    memset(cd, 0xcd, sizeof cd);
    TAP_OK(hl.calls == 2 && hl.addr == 0x2000 && hl.state == TA_MODIFIED && hl.cause == TA_EV_INVALIDATE &&
               memcmp(hl.meta, cd, META_BYTES) == 0,
           "invalidation of a MODIFIED line: hook with TA_EV_INVALIDATE and the dirty state");
    ta_invalidate(&t, 1);
    TAP_EQ_U64(hl.calls, 2, "invalidating an INVALID line calls nothing");
    ta_install(&t, 1, 0x4000, TA_RESERVED);
    ta_invalidate(&t, 1);
    TAP_EQ_U64(hl.calls, 2, "invalidating a RESERVED line (no data yet) calls nothing");
    ta_install(&t, 1, 0x5000, TA_RESERVED);
    ta_invalidate_all(&t);
    TAP_OK(hl.calls == 3 && hl.addr == 0x3000 && hl.cause == TA_EV_FLUSH,
           "invalidate-all: one TA_EV_FLUSH call per valid line, none for the RESERVED one");
    TAP_OK(t.n_evict[TA_EV_REPLACE] == 1 && t.n_evict[TA_EV_INVALIDATE] == 1 && t.n_evict[TA_EV_FLUSH] == 1,
           "evictions counted by cause: 1 replace, 1 invalidate, 1 flush");
    ta_set_evict_hook(&t, NULL, NULL);
    ta_install(&t, 0, 0x6000, TA_VALID);
    ta_install(&t, 0, 0x7000, TA_VALID);
    TAP_OK(hl.calls == 3 && t.n_evict[TA_EV_REPLACE] == 2, "a detached hook is not called; counting goes on");
    ta_fini(&t);

    /* without metadata the hook gets meta == NULL */
    memset(&hl, 0, sizeof hl);
    struct ta_opts o2 = {.evict_fn = hook, .evict_ctx = &hl};
    ta_init_opts(&t, 1, 1, 128, NULL, NULL, &o2);
    ta_install(&t, 0, 0, TA_VALID);
    ta_install(&t, 0, 128, TA_VALID);
    TAP_OK(hl.calls == 1 && hl.meta_null && hl.addr == 0, "meta_bytes 0: the hook's meta is NULL");
    ta_fini(&t);
}

/* ------------------------------------------------------------- victim tags */

/* Naive model: per set the history of inserts; an insert is present while
 * fewer than `ways` later inserts went to its set and no probe took it (a
 * hit takes every live copy of the address). */
struct vref {
    uint32_t sets, ways, n;
    int fault;       /* 1: remembers one insert too many */
    uint64_t *addr;  /* [n] */
    uint32_t *set;   /* [n] */
    uint32_t *seq;   /* [n] per-set sequence number */
    bool *gone;      /* [n] taken by a probe */
    uint32_t *count; /* [sets] inserts so far */
};

/* The documented set index: (line number x 0x9e3779b97f4a7c15) >> 32, mod sets. */
static uint32_t vref_set(uint32_t sets, uint64_t a)
{
    return sets == 1 ? 0 : (uint32_t)((((a / 128) * 0x9e3779b97f4a7c15ull) >> 32) % sets);
}

static bool vref_probe(struct vref *m, uint64_t a)
{
    uint32_t s = vref_set(m->sets, a);
    uint32_t keep = m->ways + (m->fault ? 1u : 0u);
    bool hit = false;
    for (uint32_t i = 0; i < m->n; i++)
        if (m->addr[i] == a && !m->gone[i] && m->set[i] == s && m->count[s] - m->seq[i] <= keep) {
            m->gone[i] = true; /* every live copy */
            hit = true;
        }
    return hit;
}

static int vt_vs_naive(uint32_t entries, uint32_t ways, int fault, uint64_t seed, uint32_t n, uint32_t *hits)
{
    struct victags v;
    vt_init(&v, entries, ways, 128);
    struct vref m = {v.n_sets, v.ways, 0, fault, malloc(n * 8), malloc(n * 4), malloc(n * 4), calloc(n, 1),
                     calloc(v.n_sets, 4)};
    int bad = 0;
    *hits = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t a = (xs(&seed) % 97) * 128;
        if (xs(&seed) % 2) {
            vt_insert(&v, a);
            uint32_t s = vref_set(m.sets, a);
            m.addr[m.n] = a;
            m.set[m.n] = s;
            m.seq[m.n] = m.count[s]++;
            m.n++;
        } else {
            bool h = vt_probe(&v, a);
            bad += h != vref_probe(&m, a);
            *hits += h;
        }
    }
    bad += v.hits != *hits;
    free(m.addr);
    free(m.set);
    free(m.seq);
    free(m.gone);
    free(m.count);
    vt_fini(&v);
    return bad;
}

static void test_victim_tags(void)
{
    uint32_t hits;
    TAP_EQ_I64(vt_vs_naive(32, 0, 0, 99, 20000, &hits), 0, "victim tags, 32 entries fully associative, match the "
               "naive model (%u hits)", hits);
    TAP_OK(hits > 1000, "the stream hits often enough to test something (%u)", hits);
    TAP_EQ_I64(vt_vs_naive(32, 4, 0, 99, 20000, &hits), 0, "victim tags, 8 sets x 4 ways, match the naive model (%u hits)",
               hits);
    TAP_OK(vt_vs_naive(32, 4, 1, 99, 20000, &hits) > 0, "injected fault (the model keeps one insert too many) is caught");
    TAP_OK(vt_vs_naive(32, 0, 1, 99, 20000, &hits) > 0, "the fault is caught fully associative too");

    /* through the tag array: replaced lines are remembered, invalidated ones are not */
    struct tagarray t;
    struct ta_opts o = {.vt_entries = 4};
    ta_init_opts(&t, 1, 2, 128, NULL, NULL, &o);
    TAP_OK(!ta_victim_probe(&t, 0), "an empty victim-tag array misses");
    ta_install(&t, 0, 0, TA_VALID);
    ta_install(&t, 1, 128, TA_VALID);
    ta_install(&t, (uint32_t)ta_victim(&t, 0), 256, TA_VALID); /* replaces line 0 */
    ta_invalidate(&t, (uint32_t)ta_probe(&t, 128));           /* invalidates line 128 */
    TAP_OK(!ta_victim_probe(&t, 128), "an invalidated line is not in the victim tags");
    TAP_OK(ta_victim_probe(&t, 0), "a replaced line hits (would have hit)");
    TAP_OK(!ta_victim_probe(&t, 0), "a hit takes the entry out");
    TAP_OK(t.vt.probes == 4 && t.vt.hits == 1 && t.vt.inserts == 1, "probes 4, hits 1, inserts 1");
    for (uint64_t a = 1; a <= 6; a++) /* 6 more replacements through a 4-entry FIFO */
        ta_install(&t, 0, (a + 10) * 128, TA_VALID);
    bool old_gone = !ta_victim_probe(&t, 256) && !ta_victim_probe(&t, 11 * 128);
    TAP_OK(old_gone && ta_victim_probe(&t, 12 * 128) && ta_victim_probe(&t, 15 * 128),
           "a 4-entry FIFO keeps the last 4 replaced lines only");
    ta_fini(&t);
    struct tagarray u;
    ta_init(&u, 1, 1, 128, NULL, NULL);
    ta_install(&u, 0, 0, TA_VALID);
    ta_install(&u, 0, 128, TA_VALID);
    TAP_OK(!ta_victim_probe(&u, 0) && u.n_evict[TA_EV_REPLACE] == 1, "without victim tags a probe is false");
    ta_fini(&u);
}

/* ------------------------------------------------------------- worked example */

/* Most-recently-used replacement: evict the line used last. Useful against
 * cyclic patterns one line larger than the cache, where LRU always misses.
 * The whole policy is this table and three functions; tagarray.c does not
 * know about it. */
static void mru_use(struct tagarray *t, uint32_t line) { t->rp[line] = ++t->stamp; }
static void mru_insert(struct tagarray *t, uint32_t line, enum ta_state prev)
{
    (void)prev;
    mru_use(t, line);
}
static int32_t mru_victim(const struct tagarray *t, uint32_t set)
{
    int32_t best = -1;
    for (uint32_t i = set * t->assoc; i < (set + 1) * t->assoc; i++) {
        if (t->state[i] == TA_INVALID)
            return (int32_t)i;
        if (t->state[i] != TA_RESERVED && (best < 0 || t->rp[i] > t->rp[best]))
            best = (int32_t)i;
    }
    return best;
}
static const struct ta_repl_ops repl_mru = {.name = "mru", .on_hit = mru_use, .on_insert = mru_insert,
                                            .victim = mru_victim};

static uint32_t cyclic_hits(const struct ta_repl_ops *ops)
{
    struct tagarray t;
    struct ta_opts o = {.repl = ops};
    ta_init_opts(&t, 1, 4, 128, NULL, NULL, &o);
    uint32_t hits = 0;
    for (int i = 0; i < 500; i++) {
        uint64_t a = (uint64_t)(i % 5) * 128; /* 5 lines cycling through 4 ways */
        int32_t li = ta_probe(&t, a);
        if (li >= 0) {
            ta_touch(&t, (uint32_t)li);
            hits++;
        } else {
            ta_install(&t, (uint32_t)ta_victim(&t, 0), a, TA_VALID);
        }
    }
    ta_fini(&t);
    return hits;
}

static void test_worked_example(void)
{
    uint32_t lru = cyclic_hits(&ta_repl_lru), mru = cyclic_hits(&repl_mru);
    TAP_EQ_U64(lru, 0, "cyclic 5 lines in 4 ways: LRU never hits");
    TAP_OK(mru >= 350, "the MRU example policy plugged in through ta_opts hits %u of 500", mru);
}

int main(void)
{
    tap_no_plan();
    test_registry();
    test_lru_reserved();
    test_policy_orders();
    test_policies_vs_reference();
    test_meta_and_hook();
    test_victim_tags();
    test_worked_example();
    return tap_exit();
}
