/* tests/test_l2.c: the L2 slice (partitions/l2/l2.c), its tag array
 * (sim/mem/tagarray.c) and MSHR table (sim/mem/mshr.c).
 *
 * Every timing number is in simulated L2 cycles and is derived by hand from
 * the rules in partitions/l2/l2.h (R = ROP delay, n = ceil(size / 32), F = 4):
 *   push at t -> lookup a = t + max(R, 1); hit reply at a + 1 + n;
 *   miss -> DRAM read popped at a + 1; fill given at f0 -> processed at
 *   f0 + 1 -> replies at f0 + 5, f0 + 6, ...
 * The harness ticks the slice at cycle c, then does the cycle's I/O: it pops
 * DRAM requests (write-backs are applied to a flat backing store, reads take
 * its bytes at that moment), delivers fills D cycles later, and pops one
 * reply per cycle, logging the cycle.
 *
 * The randomized test checks every reply against a naive flat-memory model
 * applied in push order (per line that is L2 order), in fetch and byte_mask
 * modes, with every-cycle and skip-idle ticking giving identical logs, and
 * shows with injected faults that the checker does catch wrong values. The
 * tag array is checked against a naive per-set recency list, also with an
 * injected fault.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/func/atomic_ops.h"
#include "partitions/l2/l2.h"
#include "sim/cfg/config.h"
#include "sim/func/fpu.h"
#include "sim/icnt/icnt.h"
#include "sim/mem/mshr.h"
#include "sim/mem/tagarray.h"
#include "sim/ptx/ir.h"
#include "sim/base/stats.h"
#include "tap.h"

/* ------------------------------------------------------------- harness */

#define MEMSZ (64u * 1024u) /* bytes of backing store the tests use */
#define MAXLOG 40000

struct pfill {
    uint64_t line, due;
    uint8_t data[MEM_LINE_BYTES];
};

struct h {
    struct l2 l;
    uint8_t *dram;          /* flat backing store */
    uint64_t now;           /* last cycle ticked */
    uint64_t dram_lat;      /* cycles from DRAM read pop to fill */
    uint64_t rng;           /* for random DRAM latencies (0 = fixed) */
    int dram_block;         /* 1: do not pop DRAM requests */
    int skip;               /* 1: tick only when l2_tick asked (or after I/O) */
    uint64_t next;          /* l2's requested next tick */
    struct pfill *pf;       /* pending fills */
    int npf;
    struct l2_dram_req *dlog; /* popped DRAM requests */
    uint64_t *dcyc;
    int nd;
    struct mem_reply *rlog; /* popped replies */
    uint64_t *rcyc;
    int nr;
};

static uint64_t xs(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static void pattern_fill(uint8_t *m)
{
    for (uint32_t i = 0; i < MEMSZ; i++)
        m[i] = (uint8_t)(i * 7 + (i >> 7) * 13 + 1);
}

static void h_io(struct h *h, uint64_t c)
{
    bool io = false;
    struct l2_dram_req r;
    while (!h->dram_block && l2_pop_dram_req(&h->l, &r, c)) {
        io = true;
        SIM_ASSERT(r.line_addr + MEM_LINE_BYTES <= MEMSZ, "test address out of range");
        if (h->nd < MAXLOG) {
            h->dlog[h->nd] = r;
            h->dcyc[h->nd++] = c;
        }
        if (r.is_write) {
            for (uint32_t i = 0; i < MEM_LINE_BYTES; i++)
                if (mem_mask_test(r.mask, i))
                    h->dram[r.line_addr + i] = r.data[i];
        } else {
            uint64_t lat = h->rng ? 5 + xs(&h->rng) % 56 : h->dram_lat;
            struct pfill f = {r.line_addr, c + lat, {0}};
            memcpy(f.data, h->dram + r.line_addr, MEM_LINE_BYTES); /* value taken at pop, L2 order */
            int k = h->npf++;
            while (k > 0 && h->pf[k - 1].due > f.due) { /* stable insert by due */
                h->pf[k] = h->pf[k - 1];
                k--;
            }
            h->pf[k] = f;
        }
    }
    while (h->npf && h->pf[0].due <= c && l2_can_fill(&h->l)) {
        io = true;
        SIM_ASSERT(l2_dram_fill(&h->l, h->pf[0].line, h->pf[0].data, c), "fill refused");
        memmove(h->pf, h->pf + 1, (size_t)(h->npf - 1) * sizeof *h->pf);
        h->npf--;
    }
    struct mem_reply rep;
    if (l2_pop_reply(&h->l, &rep, c)) {
        io = true;
        SIM_ASSERT(h->nr < MAXLOG, "reply log full");
        h->rlog[h->nr] = rep;
        h->rcyc[h->nr++] = c;
    }
    if (io && h->next > c + 1)
        h->next = c + 1;
}

/* Advance to cycle c+1: tick if due (always when !skip), then I/O. */
static void h_step(struct h *h)
{
    uint64_t c = ++h->now;
    if (!h->skip || h->next <= c)
        h->next = l2_tick(&h->l, c);
    h_io(h, c);
}

static void h_run_to(struct h *h, uint64_t c)
{
    while (h->now < c)
        h_step(h);
}

static void h_init(struct h *h, const struct l2_cfg *cfg, uint64_t rop, uint64_t dram_lat)
{
    memset(h, 0, sizeof *h);
    struct l2_init_args a = {0, rop, NULL, NULL, &func_atomic_ops, NULL, 0, 0};
    l2_init(&h->l, cfg, &a);
    h->dram = malloc(MEMSZ);
    pattern_fill(h->dram);
    h->dram_lat = dram_lat;
    h->pf = calloc(4096, sizeof *h->pf);
    h->dlog = calloc(MAXLOG, sizeof *h->dlog);
    h->dcyc = calloc(MAXLOG, sizeof *h->dcyc);
    h->rlog = calloc(MAXLOG, sizeof *h->rlog);
    h->rcyc = calloc(MAXLOG, sizeof *h->rcyc);
    h->now = 0;
    h->next = l2_tick(&h->l, 0);
    h_io(h, 0);
}

static void h_fini(struct h *h)
{
    l2_fini(&h->l);
    free(h->dram);
    free(h->pf);
    free(h->dlog);
    free(h->dcyc);
    free(h->rlog);
    free(h->rcyc);
}

static void h_push(struct h *h, const struct mem_req *r)
{
    SIM_ASSERT(l2_push(&h->l, r, h->now), "push refused at cycle %llu", (unsigned long long)h->now);
    if (h->next > h->now + 1)
        h->next = h->now + 1;
}

static int h_find(const struct h *h, uint32_t id)
{
    for (int i = 0; i < h->nr; i++)
        if (h->rlog[i].id == id)
            return i;
    return -1;
}

static uint64_t h_reply_cycle(const struct h *h, uint32_t id)
{
    int i = h_find(h, id);
    return i < 0 ? UINT64_MAX : h->rcyc[i];
}

static struct mem_req rd(uint32_t id, uint64_t addr, uint8_t size)
{
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.op = MEM_OP_READ;
    r.id = id;
    r.addr = addr;
    r.size = size;
    return r;
}

/* Write of n bytes at addr (within one line) with value bytes v, v+1, ... */
static struct mem_req wr(uint32_t id, uint64_t addr, uint32_t n, uint8_t v, uint8_t size)
{
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.op = MEM_OP_WRITE;
    r.id = id;
    r.addr = addr;
    r.size = size;
    uint32_t off = mem_line_off(addr);
    mem_mask_set_range(r.mask, off, n);
    for (uint32_t i = 0; i < n; i++)
        r.data[off + i] = (uint8_t)(v + i);
    return r;
}

static uint32_t ld32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void st32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* atom.add.u32 on `line`: lane k at offset offs[k] adds b[k]. */
static struct mem_req atom_add(uint32_t id, uint64_t line, uint32_t n, const uint8_t *offs, const uint32_t *b)
{
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.op = MEM_OP_ATOMIC;
    r.id = id;
    r.addr = line;
    r.size = 128;
    r.atom.aop = PTX_AOP_ADD;
    r.atom.type = PTX_T_U32;
    r.atom.n_lanes = (uint8_t)n;
    for (uint32_t k = 0; k < n; k++) {
        r.atom.off[k] = offs[k];
        st32(r.data + 4 * k, b[k]);
    }
    return r;
}

/* The hand-computed cases were written for l2.write_miss = fetch (the
 * write stays in L2 until its line is evicted). */
static void small_cfg(struct l2_cfg *c, uint64_t size, uint64_t assoc)
{
    l2_cfg_defaults(c);
    c->write_miss = L2_WRITE_MISS_FETCH;
    c->size_per_sub = size;
    c->assoc = assoc;
}

/* ------------------------------------------------------------- config */

/* l2.repl, l2.victim_tags, l2.victim_tags_assoc (docs/cache.md). */
static void test_config_cache_keys(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    TAP_OK(c.repl == TA_REPL_LRU && c.victim_tags == 0 && c.victim_tags_assoc == 0,
           "l2.repl default lru, l2.victim_tags default 0 (off), l2.victim_tags_assoc default 0");
    const struct cfg_key *rk = NULL;
    for (size_t i = 0; i < l2_cfg_section.n_keys; i++)
        if (!strcmp(l2_cfg_section.keys[i].name, "repl"))
            rk = &l2_cfg_section.keys[i];
    char why[256];
    int v = 0;
    TAP_OK(rk && cfg_parse_value(rk, "srrip", &v, why, sizeof why) && v == TA_REPL_SRRIP &&
               cfg_parse_value(rk, "fifo", &v, why, sizeof why) && v == TA_REPL_FIFO,
           "l2.repl parses srrip and fifo");
    TAP_OK(rk && !cfg_parse_value(rk, "plru", &v, why, sizeof why), "l2.repl rejects an unknown policy");
    const char *key;
    c.victim_tags = 64;
    c.victim_tags_assoc = 8;
    TAP_OK(!l2_cfg_invalid(&c, &key), "64 victim tags in 8-way sets are fine");
    c.victim_tags_assoc = 7;
    TAP_OK(l2_cfg_invalid(&c, &key) && !strcmp(key, "l2.victim_tags_assoc"),
           "victim_tags_assoc not dividing victim_tags is rejected, naming l2.victim_tags_assoc");
}

static void test_config(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    /* spec 4.2 gtx480 values */
    TAP_EQ_U64(c.size_per_sub, 65536, "l2.size_per_sub default 64 KB");
    TAP_EQ_U64(c.assoc, 8, "l2.assoc default 8");
    TAP_EQ_U64(c.line, 128, "l2.line default 128");
    TAP_EQ_U64(c.mshr, 32, "l2.mshr default 32");
    TAP_EQ_U64(c.mshr_merge, 4, "l2.mshr_merge default 4");
    TAP_EQ_U64(c.miss_queue, 4, "l2.miss_queue default 4");
    TAP_EQ_U64(c.rop_latency, 120, "l2.rop_latency default 120 pipeline cycles");
    TAP_EQ_U64(c.queue, 8, "l2.queue default 8");
    TAP_EQ_U64(c.data_port, 32, "l2.data_port default 32 B");
    TAP_EQ_I64(c.write_miss, L2_WRITE_MISS_FETCH_WRITE, "l2.write_miss default fetch_write (GPGPU-Sim 3.2.2)");
    /* 120 pipeline cycles of 1429 ps at a 1429 ps L2 clock = 120; at a 714 ps
     * hot-clock pipeline (700 MHz L2): 120 * 714 / 1429 = 59.96 -> 60. */
    TAP_EQ_U64(l2_rop_cycles(&c, 1429, 1429), 120, "ROP 120 pipeline cycles = 120 L2 cycles at 700 MHz");
    TAP_EQ_U64(l2_rop_cycles(&c, 714, 1429), 60, "ROP converted to the L2 clock rounds to nearest");
    /* the section's keys parse with the cfg machinery */
    const struct cfg_key *wm = NULL;
    for (size_t i = 0; i < l2_cfg_section.n_keys; i++)
        if (!strcmp(l2_cfg_section.keys[i].name, "write_miss"))
            wm = &l2_cfg_section.keys[i];
    char why[256];
    int v = 0;
    TAP_OK(wm && cfg_parse_value(wm, "byte_mask", &v, why, sizeof why) && v == L2_WRITE_MISS_BYTE_MASK,
           "l2.write_miss parses byte_mask");
    TAP_OK(wm && !cfg_parse_value(wm, "bytemask", &v, why, sizeof why), "l2.write_miss rejects a misspelt choice");
    const char *key;
    c.size_per_sub = 1000;
    TAP_OK(l2_cfg_invalid(&c, &key) && !strcmp(key, "l2.size_per_sub"),
           "size not a multiple of assoc x line is rejected, naming l2.size_per_sub");
    test_config_cache_keys();
}

/* ------------------------------------------------------------- tag array */

/* Naive model: per set an array of line addresses, most recent first. */
struct naive_ta {
    uint32_t sets, assoc;
    uint64_t *l; /* [sets][assoc] */
    uint32_t *n; /* [sets] */
};

/* Access line in the naive model; returns evicted address or UINT64_MAX, *hit set.
 * fault: evict the second least recent instead of the least recent. */
static uint64_t naive_access(struct naive_ta *m, uint32_t set, uint64_t a, bool *hit, int fault)
{
    uint64_t *s = m->l + (size_t)set * m->assoc;
    uint32_t *n = &m->n[set];
    uint64_t ev = UINT64_MAX;
    uint32_t i;
    for (i = 0; i < *n && s[i] != a; i++)
        ;
    *hit = i < *n;
    if (!*hit) {
        if (*n == m->assoc) {
            i = (fault && m->assoc > 1) ? m->assoc - 2 : m->assoc - 1;
            ev = s[i];
        } else {
            i = (*n)++;
        }
    }
    memmove(s + 1, s, i * sizeof *s);
    s[0] = a;
    return ev;
}

static uint32_t hash_set(void *ctx, uint64_t line)
{
    (void)ctx;
    /* Fermi-like XOR hash over 16 sets */
    return (uint32_t)(((line >> 7) ^ (line >> 11) ^ (line >> 13)) & 15);
}

/* Mismatches between tagarray and the naive model over a random access stream. */
static int ta_vs_naive(int fault, uint64_t seed)
{
    struct tagarray t;
    ta_init(&t, 16, 4, 128, hash_set, NULL);
    struct naive_ta m = {16, 4, calloc(64, sizeof(uint64_t)), calloc(16, sizeof(uint32_t))};
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t a = (xs(&seed) % 300) * 128;
        uint32_t set = ta_set_of(&t, a);
        bool nhit;
        uint64_t nev = naive_access(&m, set, a, &nhit, fault);
        int32_t li = ta_probe(&t, a);
        uint64_t tev = UINT64_MAX;
        if (li >= 0) {
            ta_touch(&t, (uint32_t)li);
        } else {
            int32_t v = ta_victim(&t, set);
            if (v < 0)
                return -1;
            if (ta_state_of(&t, (uint32_t)v) != TA_INVALID)
                tev = ta_tag_of(&t, (uint32_t)v);
            ta_install(&t, (uint32_t)v, a, TA_VALID);
        }
        if ((li >= 0) != nhit || tev != nev)
            bad++;
    }
    ta_fini(&t);
    free(m.l);
    free(m.n);
    return bad;
}

static void test_tagarray(void)
{
    TAP_EQ_I64(ta_vs_naive(0, 12345), 0, "tag array matches the naive LRU model on 20000 accesses (XOR set hash)");
    TAP_OK(ta_vs_naive(1, 12345) > 0, "injected fault (naive model evicts 2nd-LRU) is detected");

    struct tagarray t;
    ta_init(&t, 1, 2, 128, NULL, NULL);
    ta_install(&t, 0, 0, TA_RESERVED);
    ta_install(&t, 1, 128, TA_RESERVED);
    TAP_EQ_I64(ta_victim(&t, 0), -1, "a set whose ways are all RESERVED has no victim");
    ta_set_state(&t, 1, TA_VALID);
    TAP_EQ_I64(ta_victim(&t, 0), 1, "the only non-RESERVED way is the victim even if more recent");
    ta_fini(&t);
}

static void test_mshr(void)
{
    struct mshr m;
    mshr_init(&m, 2, 3, 8);
    int32_t a = mshr_alloc(&m, 0x100), b = mshr_alloc(&m, 0x200);
    TAP_OK(a == 0 && b == 1 && mshr_full(&m) && mshr_alloc(&m, 0x300) == -1, "2 entries allocate, the 3rd fails");
    TAP_EQ_I64(mshr_lookup(&m, 0x200), 1, "lookup finds the open entry");
    bool lim = mshr_add(&m, 0) && mshr_add(&m, 0) && mshr_add(&m, 0) && !mshr_add(&m, 0);
    TAP_OK(lim && mshr_count(&m, 0) == 3, "merge limit 3: the 4th add fails");
    mshr_close(&m, 0);
    TAP_EQ_I64(mshr_lookup(&m, 0x100), -1, "a closed entry no longer matches");
    TAP_EQ_U64(mshr_count(&m, 0), 3, "a closed entry keeps its requests");
    mshr_release(&m, 0);
    TAP_OK(!mshr_full(&m) && mshr_alloc(&m, 0x100) == 0, "a released entry is reused");
    mshr_fini(&m);
}

/* NOTE(mshr-hash): the index against a plain model, with random allocs,
 * closes, releases and lookups (a run with every key on one home place,
 * where deletions must shift the others back, and a random one). */
static void test_mshr_index(void)
{
    for (int pass = 0; pass < 2; pass++) {
        struct mshr m;
        uint32_t n = pass == 0 ? 6 : 48;
        mshr_init(&m, n, 2, 8);
        uint64_t pool[64];
        uint32_t np = 0;
        uint64_t rng = 0x2545F4914F6CDD1Dull;
        if (pass == 0) { /* lines whose home is the last place: collisions and runs that wrap */
            for (uint64_t a = 128; np < 12; a += 128)
                if (mshr_home(&m, a) == m.index_mask)
                    pool[np++] = a;
        } else {
            for (; np < 64; np++) {
                rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                pool[np] = (rng & 0xFFFFFF) << 7;
            }
        }
        uint8_t st[64] = {0};  /* model: per entry 0 free, 1 open, 2 closed */
        uint64_t ln[64] = {0}; /* model: line of an open or closed entry */
        bool ok = true;
        for (int step = 0; step < 20000 && ok; step++) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            uint32_t op = (uint32_t)(rng % 3), e = (uint32_t)((rng >> 8) % n);
            uint64_t a = pool[(rng >> 20) % np];
            if (op == 0) {
                int32_t want = -1, got;
                for (uint32_t i = 0; i < n; i++)
                    if (st[i] == 1 && ln[i] == a)
                        want = (int32_t)i;
                if (want < 0 && (got = mshr_alloc(&m, a)) >= 0) {
                    ok &= st[got] == 0;
                    st[got] = 1;
                    ln[got] = a;
                }
            } else if (op == 1 && st[e] == 1) {
                mshr_close(&m, e);
                st[e] = 2;
            } else if (op == 2 && st[e] != 0) {
                mshr_release(&m, e);
                st[e] = 0;
            }
            for (uint32_t k = 0; k < np && ok; k++) {
                int32_t want = -1;
                for (uint32_t i = 0; i < n; i++)
                    if (st[i] == 1 && ln[i] == pool[k])
                        want = (int32_t)i;
                ok &= mshr_lookup(&m, pool[k]) == want;
            }
        }
        TAP_OK(ok, "%s: 20000 random operations, every lookup finds the model's open entry",
               pass == 0 ? "12 lines on one home place, 6 entries" : "64 random lines, 48 entries");
        mshr_fini(&m);
    }
}

/* ------------------------------------------------------------- timing tests */

static void test_read_miss_hit_timing(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    struct h h;
    h_init(&h, &c, l2_rop_cycles(&c, 1429, 1429), 10); /* gtx480: R = 120, DRAM answers after 10 */
    struct mem_req r = rd(1, 0x1000, 128);
    h_push(&h, &r); /* t = 0 */
    h_run_to(&h, 400);
    /* lookup a = 0 + 120 = 120; DRAM read popped at a + 1 = 121;
     * fill given at 121 + 10 = 131, processed at 132; reply at 132 + 4 = 136. */
    TAP_EQ_U64(h.nd, 1, "read miss: one DRAM request");
    TAP_EQ_U64(h.dcyc[0], 121, "read miss: DRAM line read leaves at 120 + 1 = 121");
    TAP_OK(!h.dlog[0].is_write && h.dlog[0].line_addr == 0x1000, "it is a read of line 0x1000");
    TAP_EQ_U64(h_reply_cycle(&h, 1), 136, "read miss reply at 131 + 1 + 4 = 136");
    int i = h_find(&h, 1);
    TAP_OK(i >= 0 && !memcmp(h.rlog[i].data, h.dram + 0x1000, 128), "miss reply carries the backing-store line");

    /* Two hits pushed at 400: lookups at 520 and (ROP moves one per cycle,
     * port busy 521..524) 524; replies at 520+1+4 = 525 and 524+1+4 = 529. */
    r = rd(2, 0x1000, 128);
    h_push(&h, &r);
    r = rd(3, 0x1000 + 32, 32); /* a 32 B sector: 1 port cycle */
    h_push(&h, &r);
    h_run_to(&h, 700);
    TAP_EQ_U64(h_reply_cycle(&h, 2), 525, "128 B read hit: 400 + 120 + 1 tag + 4 data-port = 525");
    TAP_EQ_U64(h_reply_cycle(&h, 3), 526,
               "32 B hit behind it: lookup at 524 (port free at 525), reply 524 + 1 + 1 = 526");
    i = h_find(&h, 3);
    TAP_OK(i >= 0 && !memcmp(h.rlog[i].data + 32, h.dram + 0x1020, 32), "sector hit returns its bytes");
    TAP_EQ_U64(h.l.st.hits, 2, "2 hits");
    TAP_EQ_U64(h.l.st.misses, 1, "1 miss");
    TAP_EQ_U64(h.l.st.hit_lat.sum, 125 + 126, "hit latency sum = (525-400) + (526-400)");
    TAP_EQ_U64(h.l.st.miss_lat.sum, 136, "miss latency = 136 - 0");
    TAP_OK(l2_idle(&h.l), "slice idle at the end");
    h_fini(&h);
}

/* l2_push_late (relaxed mode, NOTE(relaxed-due) in mempart_unit.c): the ROP
 * delay counts from the due cycle; a lateness at or above it leaves only the
 * one-cycle minimum, and order is kept. */
static void test_push_late(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    struct h h;
    h_init(&h, &c, l2_rop_cycles(&c, 1429, 1429), 10); /* R = 120 */
    struct mem_req r = rd(1, 0x1000, 128);
    h_push(&h, &r);
    h_run_to(&h, 400); /* the line is now in the L2 (miss reply at 136, test above) */
    r = rd(2, 0x1000, 128);
    SIM_ASSERT(l2_push_late(&h.l, &r, h.now, 50), "late push refused");
    h.next = h.now + 1;
    h_run_to(&h, 700);
    TAP_EQ_U64(h_reply_cycle(&h, 2), 475, "hit 50 cycles late: lookup at 400 - 50 + 120 = 470, reply 470 + 5 = 475");
    r = rd(3, 0x1000, 128);
    SIM_ASSERT(l2_push_late(&h.l, &r, h.now, 500), "late push refused");
    h.next = h.now + 1;
    h_run_to(&h, 900);
    TAP_EQ_U64(h_reply_cycle(&h, 3), 706, "lateness beyond the ROP delay: lookup at 700 + 1, reply 701 + 5 = 706");
    /* in order: a late request behind an on-time one waits for it */
    r = rd(4, 0x1000, 128);
    h_push(&h, &r); /* at 900: lookup 1020 */
    r = rd(5, 0x1000 + 32, 32);
    SIM_ASSERT(l2_push_late(&h.l, &r, h.now, 100), "late push refused");
    h_run_to(&h, 1200);
    TAP_EQ_U64(h_reply_cycle(&h, 4), 1025, "on-time hit at 900: 900 + 120 + 5 = 1025");
    TAP_EQ_U64(h_reply_cycle(&h, 5), 1026,
               "late hit queued behind it (its own ready cycle 920 has passed): lookup 1024, reply 1026");
    h_fini(&h);
}

static void test_merge_limit(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    struct h h;
    h_init(&h, &c, 0, 50); /* R = 0: push at t -> lookup t + 1 */
    for (uint32_t k = 0; k < 6; k++) {
        struct mem_req r = rd(10 + k, 0x2000, 128);
        h_push(&h, &r); /* all at cycle 0; they reach the input queue one per cycle */
    }
    h_run_to(&h, 200);
    /* lookups: #0 at 1 (miss), #1..#3 at 2..4 (merges: 4 = l2.mshr_merge);
     * #4 from 5 on: merge limit reached, retried every cycle; DRAM pop at 2,
     * fill given at 52, processed at 53 (line VALID): #4 hits at 53 ->
     * reply 58; #5 at 57 (port free at 58) -> reply 62.
     * Merge-limit fails: attempts at 5..52 = 48.
     * Fill replies (one per cycle from 53 + 4 = 57): #0 57, #1 58, #2 59, #3 60,
     * popped one per cycle in reply-queue order: tick 58 queues #4 (data port)
     * before #1 (drain), so pops are #0 57, #4 58, #1 59, #2 60, #3 61, #5 62. */
    TAP_EQ_U64(h.l.st.merges, 3, "3 merges (MSHR hits)");
    TAP_EQ_U64(h.l.st.rf[L2_RF_MERGE_LIMIT], 48, "merge-limit reservation fails at cycles 5..52 = 48");
    TAP_EQ_U64(h.nd, 1, "one DRAM read for 4 merged requests");
    uint64_t want[6] = {57, 59, 60, 61, 58, 62};
    bool ok = true;
    for (uint32_t k = 0; k < 6; k++)
        ok &= h_reply_cycle(&h, 10 + k) == want[k];
    TAP_OK(ok, "reply cycles #0..#5 = 57 59 60 61 58 62");
    TAP_EQ_U64(h.l.st.miss_lat.sum, 57 + 58 + 59 + 60, "miss latency counts queue entry at 57..60");
    TAP_EQ_U64(h.l.st.hits, 2, "the two requests after the fill hit");
    ok = h.nr == 6;
    for (int i = 0; i < h.nr; i++)
        ok &= !memcmp(h.rlog[i].data, h.dram + 0x2000, 128);
    TAP_OK(ok, "all 6 replies carry the line, none lost");
    h_fini(&h);
}

static void test_write_hit_merge(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    struct h h;
    h_init(&h, &c, 0, 10);
    struct mem_req r = rd(1, 0x3000, 128);
    h_push(&h, &r);
    h_run_to(&h, 100); /* line now VALID */
    r = wr(2, 0x3004, 8, 0xA0, 32); /* bytes 4..11 = A0..A7, 32 B segment: 1 port cycle */
    h_push(&h, &r);
    r = rd(3, 0x3000, 128);
    h_push(&h, &r);
    h_run_to(&h, 200);
    /* write lookup at 101, port 102, ack at 103; read lookup at 102 (port free
     * at 103 <= 102 + 1), port 103..106, reply at 107 */
    TAP_EQ_U64(h_reply_cycle(&h, 2), 103, "write hit ack at 100 + 1 + 1 + 1 = 103");
    TAP_EQ_U64(h_reply_cycle(&h, 3), 107, "read behind it: lookup 102, reply 107");
    int i = h_find(&h, 3), j = h_find(&h, 2);
    uint8_t want[128];
    memcpy(want, h.dram + 0x3000, 128);
    for (int k = 0; k < 8; k++)
        want[4 + k] = (uint8_t)(0xA0 + k);
    TAP_OK(i >= 0 && !memcmp(h.rlog[i].data, want, 128), "read returns the line with bytes 4..11 merged");
    TAP_OK(j >= 0 && h.rlog[j].op == MEM_OP_WRITE && h.rlog[j].size == 0, "the ack is a 0-byte write reply");
    TAP_EQ_I64(l2_probe_line(&h.l, 0x3000, NULL, NULL), TA_MODIFIED, "line is MODIFIED");
    TAP_EQ_U64(h.nd, 1, "no DRAM traffic for the write hit");
    h_fini(&h);
}

static void test_write_miss_fetch(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    c.write_miss = L2_WRITE_MISS_FETCH;
    struct h h;
    h_init(&h, &c, 0, 20);
    struct mem_req r = wr(1, 0x4010, 4, 0x55, 32);
    h_push(&h, &r);
    h_run_to(&h, 100);
    /* lookup 1, DRAM read at 2, fill given 22, processed 23, ack at 27 */
    TAP_EQ_U64(h.nd, 1, "fetch mode: write miss fetches the line");
    TAP_EQ_U64(h_reply_cycle(&h, 1), 27, "write-miss ack after the fill: 2 + 20 + 1 + 4 = 27");
    uint8_t line[128], want[128];
    memcpy(want, h.dram + 0x4000, 128);
    for (int k = 0; k < 4; k++)
        want[16 + k] = (uint8_t)(0x55 + k);
    enum ta_state st = l2_probe_line(&h.l, 0x4000, line, NULL);
    TAP_OK(st == TA_MODIFIED && !memcmp(line, want, 128), "fetched line with the write merged, MODIFIED");
    h_fini(&h);
}

/* fetch_write (GPGPU-Sim 3.2.2 wr_miss_wa): the write goes to DRAM ahead of
 * the line read, the line fills clean; a second write while the line is
 * reserved is forwarded too and joins the read; evicting the line later
 * writes nothing back. */
static void test_write_miss_fetch_write(void)
{
    struct l2_cfg c;
    small_cfg(&c, 2048, 2); /* 8 sets of 2 ways; set 0: lines 0, 1024, 2048 */
    c.write_miss = L2_WRITE_MISS_FETCH_WRITE;
    struct h h;
    h_init(&h, &c, 0, 20);
    struct mem_req r = wr(1, 0x0010, 4, 0x55, 32);
    h_push(&h, &r);
    h_run_to(&h, 2);
    struct mem_req r2 = wr(2, 0x0040, 8, 0x70, 32);
    h_push(&h, &r2);
    h_run_to(&h, 100);
    /* write 1: lookup 1, miss queue: the write then the read, popped at 2 and
     * 3; write 2: lookup 3, merged, forwarded, popped at 4; the fill (read
     * popped at 3 + 20 = 23) is processed at 24, replies from 24 + 4 = 28. */
    TAP_EQ_U64(h.nd, 3, "fetch_write: two forwarded writes and one line read");
    TAP_OK(h.nd == 3 && h.dlog[0].is_write && !h.dlog[1].is_write && h.dlog[2].is_write,
           "the write leaves before the read, the merged write after it");
    TAP_OK(h.nd == 3 && h.dcyc[0] == 2 && h.dcyc[1] == 3 && h.dcyc[2] == 4, "DRAM requests popped at 2, 3, 4");
    TAP_OK(h.nd == 3 && h.dlog[0].mask[0] == 0xFull << 16 && h.dlog[0].mask[1] == 0 && h.dlog[0].data[16] == 0x55 &&
               h.dlog[2].mask[0] == 0 && h.dlog[2].mask[1] == 0xFFull && h.dlog[2].data[0x40] == 0x70,
           "the forwarded write carries only its bytes");
    TAP_EQ_U64(h_reply_cycle(&h, 1), 28, "write-miss ack after the fill: 3 + 20 + 1 + 4 = 28");
    TAP_EQ_U64(h_reply_cycle(&h, 2), 29, "merged write acked next: 29");
    TAP_EQ_U64(h.l.st.write_forwards, 2, "2 writes forwarded");
    uint8_t line[128];
    enum ta_state st = l2_probe_line(&h.l, 0x0000, line, NULL);
    TAP_OK(st == TA_VALID && line[16] == 0x55 && line[19] == 0x58 && line[0x40] == 0x70 && line[0x47] == 0x77 &&
               !memcmp(line, h.dram, 128),
           "line filled VALID (clean) with both writes, equal to DRAM");
    /* evict line 0 with two reads to its set: nothing is written back */
    r = rd(3, 1024, 128);
    h_push(&h, &r);
    h_run_to(&h, 150);
    r = rd(4, 2048, 128);
    h_push(&h, &r);
    h_run_to(&h, 250);
    TAP_EQ_U64(h.nd, 5, "two more line reads, no write-back of the clean line");
    TAP_EQ_U64(h.l.st.writebacks, 0, "0 write-backs");
    TAP_EQ_I64(l2_probe_line(&h.l, 0x0000, NULL, NULL), TA_INVALID, "line 0 was evicted");
    h_fini(&h);
}

static void test_write_miss_byte_mask(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    c.write_miss = L2_WRITE_MISS_BYTE_MASK;
    struct h h;
    h_init(&h, &c, 0, 20);
    struct mem_req r = wr(1, 0x5010, 4, 0x55, 32);
    h_push(&h, &r);
    h_run_to(&h, 50);
    /* no fetch: lookup 1, port 2, ack 3 */
    TAP_EQ_U64(h.nd, 0, "byte_mask: write miss sends no DRAM read");
    TAP_EQ_U64(h_reply_cycle(&h, 1), 3, "byte_mask write-miss ack at 0 + 1 + 1 + 1 = 3");
    uint64_t vm[2];
    TAP_OK(l2_probe_line(&h.l, 0x5000, NULL, vm) == TA_MODIFIED && vm[0] == 0xFull << 16 && vm[1] == 0,
           "line MODIFIED with valid mask = bytes 16..19");
    r = rd(2, 0x5010, 4); /* only valid bytes: hit */
    h_push(&h, &r);       /* at 50: lookup 51, 1 port cycle, reply 53 */
    h_run_to(&h, 60);
    TAP_EQ_U64(h_reply_cycle(&h, 2), 53, "read of valid bytes hits: 50 + 1 + 1 + 1 = 53");
    r = rd(3, 0x5000, 128); /* needs invalid bytes: fetch now */
    h_push(&h, &r);         /* at 60: lookup 61, DRAM pop 62, fill 82, processed 83, reply 87 */
    h_run_to(&h, 150);
    TAP_EQ_U64(h.nd, 1, "read needing invalid bytes fetches the line");
    TAP_EQ_U64(h_reply_cycle(&h, 3), 87, "its reply at 62 + 20 + 1 + 4 = 87");
    uint8_t want[128];
    memcpy(want, h.dram + 0x5000, 128);
    for (int k = 0; k < 4; k++)
        want[16 + k] = (uint8_t)(0x55 + k);
    int i = h_find(&h, 3);
    TAP_OK(i >= 0 && !memcmp(h.rlog[i].data, want, 128), "fill kept the written bytes, filled the rest");
    TAP_OK(l2_probe_line(&h.l, 0x5000, NULL, vm) == TA_MODIFIED && vm[0] == UINT64_MAX && vm[1] == UINT64_MAX,
           "after the fill: all bytes valid, still MODIFIED");
    h_fini(&h);
}

static void test_atomics(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    struct h h;
    h_init(&h, &c, 0, 30);
    /* hit: bring line A in */
    struct mem_req r = rd(1, 0x6000, 128);
    h_push(&h, &r);
    h_run_to(&h, 100);
    uint32_t w0 = ld32(h.dram + 0x6000), w1 = ld32(h.dram + 0x6004);
    uint8_t offs[3] = {0, 0, 4};
    uint32_t b[3] = {5, 7, 1};
    r = atom_add(2, 0x6000, 3, offs, b); /* lanes: +5 @0, +7 @0, +1 @4, in lane order */
    h_push(&h, &r);
    h_run_to(&h, 120);
    int i = h_find(&h, 2);
    /* lookup 101, size 128 -> 4 port cycles, reply 106 */
    TAP_EQ_U64(h_reply_cycle(&h, 2), 106, "atomic hit reply at 100 + 1 + 1 + 4 = 106");
    TAP_OK(i >= 0 && h.rlog[i].n_lanes == 3 && ld32(h.rlog[i].data) == w0 && ld32(h.rlog[i].data + 4) == w0 + 5 &&
               ld32(h.rlog[i].data + 8) == w1,
           "old values in lane order: w0, w0+5, w1");
    uint8_t line[128];
    l2_probe_line(&h.l, 0x6000, line, NULL);
    TAP_OK(ld32(line) == w0 + 12 && ld32(line + 4) == w1 + 1, "line words now w0+12 and w1+1");

    /* miss: A1 (first), R (merge), W (merge), A2 (merge) on line B, applied at fill in arrival order */
    uint32_t d8 = ld32(h.dram + 0x7008);
    uint8_t o8[1] = {8};
    uint32_t b100[1] = {100}, b1[1] = {1};
    struct mem_req a1 = atom_add(11, 0x7000, 1, o8, b100);
    struct mem_req rr = rd(12, 0x7000, 128);
    struct mem_req ww = wr(13, 0x7008, 4, 0, 32);
    st32(ww.data + 8, 0x11223344u);
    struct mem_req a2 = atom_add(14, 0x7000, 1, o8, b1);
    h_push(&h, &a1);
    h_push(&h, &rr);
    h_push(&h, &ww);
    h_push(&h, &a2); /* pushed at 120: lookups 121..124; DRAM pop 122, fill 152, processed 153 */
    h_run_to(&h, 300);
    int ia = h_find(&h, 11), ir = h_find(&h, 12), iw = h_find(&h, 13), ib = h_find(&h, 14);
    TAP_OK(ia >= 0 && ld32(h.rlog[ia].data) == d8, "A1 (first) old value = DRAM word");
    TAP_OK(ir >= 0 && ld32(h.rlog[ir].data + 8) == d8 + 100, "queued read sees A1's result d8+100");
    TAP_OK(iw >= 0 && h.rlog[iw].op == MEM_OP_WRITE, "queued write acknowledged at fill");
    TAP_OK(ib >= 0 && ld32(h.rlog[ib].data) == 0x11223344u, "A2 old value = the queued write's value");
    l2_probe_line(&h.l, 0x7000, line, NULL);
    TAP_EQ_U64(ld32(line + 8), 0x11223345u, "final word = write + 1");
    /* replies one per cycle from 153 + 4 = 157, in arrival order */
    TAP_OK(h_reply_cycle(&h, 11) == 157 && h_reply_cycle(&h, 12) == 158 && h_reply_cycle(&h, 13) == 159 &&
               h_reply_cycle(&h, 14) == 160,
           "fill replies at 157, 158, 159, 160 in arrival order");
    TAP_EQ_U64(h.l.st.merges, 3, "R, W and A2 merged into the MSHR entry");
    h_fini(&h);
}

/* NOTE(sector-fetch): the sectors a line read's MSHR entry needs travel
 * with it (l2_dram_req.sectors): an atomic's lanes, a read's bytes. */
static void test_dram_req_sectors(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    struct h h;
    h_init(&h, &c, 0, 30);
    uint8_t offs[2] = {0, 100};
    uint32_t b[2] = {1, 2};
    struct mem_req a = atom_add(1, 0x9000, 2, offs, b);
    struct mem_req r = rd(2, 0xA000 + 70, 4);
    struct mem_req f = rd(3, 0xB000, 128);
    h_push(&h, &a);
    h_push(&h, &r);
    h_push(&h, &f);
    h_run_to(&h, 300);
    uint8_t got[3] = {0, 0, 0};
    for (int i = 0; i < h.nd; i++)
        if (!h.dlog[i].is_write)
            for (int k = 0; k < 3; k++)
                if (h.dlog[i].line_addr == 0x9000u + 0x1000u * (unsigned)k)
                    got[k] = h.dlog[i].sectors;
    TAP_EQ_U64(got[0], 0x9, "atomic lanes at bytes 0 and 100: sectors 0 and 3");
    TAP_EQ_U64(got[1], 0x4, "4-byte read at byte 70: sector 2");
    TAP_EQ_U64(got[2], 0xF, "whole-line read: all four sectors");
    h_fini(&h);
}

/* NOTE(sector-replies): with l2.sector_replies a 128-byte read miss leaves
 * as four sector packets, lowest sector first, one per L2 cycle from the
 * cycle the whole reply leaves without the key; a 64-byte read at byte 32
 * as two (sectors 1 and 2); a 4-byte read and an atomic whole. Each packet
 * carries its sector's bytes and is 2 flits (8 + 32 bytes) instead of 5. */
static void sector_run(bool on, struct h *h)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    c.sector_replies = on;
    h_init(h, &c, 0, 10);
    struct mem_req r = rd(1, 0x1000, 128);
    h_push(h, &r);
    h_run_to(h, 100);
    r = rd(2, 0x2000 + 32, 64);
    h_push(h, &r);
    h_run_to(h, 200);
    r = rd(3, 0x3000 + 8, 4);
    h_push(h, &r);
    h_run_to(h, 300);
    uint8_t offs[1] = {4};
    uint32_t b[1] = {7};
    r = atom_add(4, 0x4000, 1, offs, b);
    h_push(h, &r);
    h_run_to(h, 400);
}

static void test_sector_replies(void)
{
    struct h off, on;
    sector_run(false, &off);
    sector_run(true, &on);
    struct icnt_net_cfg net;
    icnt_net_cfg_defaults(&net);
    TAP_EQ_U64(off.nr, 4, "key off: four replies");
    TAP_OK(mem_reply_part(&off.rlog[0]) == 0 && off.rlog[0].sect == 0 && icnt_reply_flits(&net, &off.rlog[0]) == 5,
           "key off: the line read is one 5-flit reply");
    TAP_EQ_U64(on.nr, 8, "key on: 4 + 2 + 1 + 1 packets");
    int good = 1;
    for (int k = 0; k < 4; k++)
        good &= on.rlog[k].id == 1 && mem_reply_part(&on.rlog[k]) == 1u << k && mem_reply_parts(&on.rlog[k]) == 0xF &&
                on.rcyc[k] == off.rcyc[0] + (uint64_t)k && icnt_flits(&net, 32) == 2 &&
                !memcmp(on.rlog[k].data + 32 * k, on.dram + 0x1000 + 32 * k, 32);
    TAP_OK(good, "line read: sectors 0..3 at %llu..%llu, one per cycle, 2 flits each, each with its bytes",
           (unsigned long long)off.rcyc[0], (unsigned long long)off.rcyc[0] + 3);
    TAP_OK(on.rlog[4].id == 2 && mem_reply_part(&on.rlog[4]) == 2 && mem_reply_part(&on.rlog[5]) == 4 &&
               mem_reply_parts(&on.rlog[5]) == 6 &&
               on.rcyc[4] == off.rcyc[1] && on.rcyc[5] == off.rcyc[1] + 1,
           "64-byte read at byte 32: sectors 1 and 2 at %llu and %llu", (unsigned long long)on.rcyc[4],
           (unsigned long long)on.rcyc[5]);
    TAP_OK(on.rlog[6].id == 3 && on.rlog[6].sect == 0 && on.rcyc[6] == off.rcyc[2], "4-byte read: one whole reply");
    TAP_OK(on.rlog[7].id == 4 && mem_reply_part(&on.rlog[7]) == 0 && on.rlog[7].n_lanes == 1 &&
               on.rcyc[7] == off.rcyc[3] &&
               !memcmp(&on.rlog[7].data, &off.rlog[3].data, sizeof on.rlog[7].data),
           "atomic: one whole reply, the same old value");
    TAP_OK(l2_idle(&on.l), "slice idle after the last sector");
    h_fini(&off);
    h_fini(&on);
}

static void test_dirty_eviction_and_lru(void)
{
    struct l2_cfg c;
    small_cfg(&c, 2048, 2); /* 2 KB, 2 ways -> 8 sets; set 0 holds lines 0, 1024, 2048, ... */
    struct h h;
    h_init(&h, &c, 0, 10);
    struct mem_req r = wr(1, 0x0000 + 64, 16, 0xC0, 32);
    h_push(&h, &r);
    h_run_to(&h, 50); /* line 0 MODIFIED (fetched + written) */
    r = rd(2, 1024, 128);
    h_push(&h, &r);
    h_run_to(&h, 100); /* line 1024 VALID; set 0 full, LRU = line 0 */
    int nd0 = h.nd;
    r = rd(3, 2048, 128);
    h_push(&h, &r); /* at 100: lookup 101, evicts line 0 (dirty): port busy 102..105 */
    r = rd(4, 1024, 128);
    h_push(&h, &r); /* lookup at 105 (port free 106), reply 110 */
    h_run_to(&h, 200);
    TAP_EQ_U64(h.nd - nd0, 2, "miss with a dirty victim sends 2 DRAM requests");
    TAP_OK(!h.dlog[nd0].is_write && h.dlog[nd0].line_addr == 2048, "first the read of line 2048");
    TAP_OK(h.dlog[nd0 + 1].is_write && h.dlog[nd0 + 1].line_addr == 0, "then the write-back of line 0");
    TAP_EQ_U64(h.dcyc[nd0 + 1], 103, "write-back leaves the miss queue one cycle after the read (102, 103)");
    uint8_t *orig = malloc(MEMSZ), want[128];
    pattern_fill(orig); /* original DRAM bytes of line 0 (before the write-back was applied) */
    memcpy(want, orig, 128);
    free(orig);
    for (int k = 0; k < 16; k++)
        want[64 + k] = (uint8_t)(0xC0 + k);
    TAP_OK(!memcmp(h.dlog[nd0 + 1].data, want, 128) && h.dlog[nd0 + 1].mask[0] == UINT64_MAX &&
               h.dlog[nd0 + 1].mask[1] == UINT64_MAX,
           "write-back carries the whole line with the written bytes");
    TAP_EQ_U64(h_reply_cycle(&h, 4), 110, "hit behind the dirty eviction waits for the data port: 105+1+4 = 110");
    TAP_EQ_U64(h.l.st.writebacks, 1, "1 write-back counted");
    h_fini(&h);

    /* LRU in a full 4-way set: A B C D, touch A and C, then E evicts B, F evicts D */
    small_cfg(&c, 4096, 4); /* 8 sets, set 0 = multiples of 1024 */
    h_init(&h, &c, 0, 5);
    uint64_t L[6] = {0, 1024, 2048, 3072, 4096, 5120};
    uint32_t id = 1;
    for (int k = 0; k < 4; k++) {
        r = rd(id++, L[k], 128);
        h_push(&h, &r);
        h_run_to(&h, h.now + 30);
    }
    r = rd(id++, L[0], 128);
    h_push(&h, &r);
    h_run_to(&h, h.now + 30);
    r = rd(id++, L[2], 128);
    h_push(&h, &r);
    h_run_to(&h, h.now + 30);
    r = rd(id++, L[4], 128);
    h_push(&h, &r);
    h_run_to(&h, h.now + 30);
    bool ok = l2_probe_line(&h.l, L[1], NULL, NULL) == TA_INVALID && l2_probe_line(&h.l, L[0], NULL, NULL) == TA_VALID;
    r = rd(id++, L[5], 128);
    h_push(&h, &r);
    h_run_to(&h, h.now + 30);
    ok &= l2_probe_line(&h.l, L[3], NULL, NULL) == TA_INVALID && l2_probe_line(&h.l, L[2], NULL, NULL) == TA_VALID &&
          l2_probe_line(&h.l, L[4], NULL, NULL) == TA_VALID && l2_probe_line(&h.l, L[5], NULL, NULL) == TA_VALID;
    TAP_OK(ok, "LRU: after touching A and C, E evicts B and F evicts D");
    TAP_EQ_U64(h.l.st.writebacks, 0, "clean victims are not written back");
    h_fini(&h);
}

static void test_mshr_full_hol(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    c.mshr = 2;
    struct h h;
    h_init(&h, &c, 0, 100);
    struct mem_req r = rd(1, 0x8000, 128);
    h_push(&h, &r);
    h_run_to(&h, 200); /* 0x8000 present */
    uint64_t t0 = h.now;
    uint64_t a[3] = {0x9000, 0xA000, 0xB000};
    for (int k = 0; k < 3; k++) {
        r = rd(10 + (uint32_t)k, a[k], 128);
        h_push(&h, &r);
    }
    r = rd(20, 0x8000, 128); /* a hit, stuck behind the third miss */
    h_push(&h, &r);
    h_run_to(&h, t0 + 400);
    /* lookups: X at t0+1, Y at t0+2, Z from t0+3: MSHR full until X's entry is
     * freed: X DRAM pop t0+2, fill t0+102, processed t0+103, reply t0+107
     * (entry released at t0+107 when its only reply leaves). Z retries at
     * t0+3 .. t0+107 (tick order: the drain releases before the lookup, so
     * t0+107 succeeds): fails at t0+3 .. t0+106 = 104. The hit then looks up at
     * t0+108 and replies at t0+113. */
    TAP_EQ_U64(h.l.st.rf[L2_RF_MSHR_FULL], 104, "MSHR-full reservation fails at t0+3 .. t0+106 = 104");
    TAP_EQ_U64(h_reply_cycle(&h, 20) - t0, 113, "hit behind the blocked miss (head-of-line): reply t0 + 113");
    bool ok = true;
    for (int k = 0; k < 3; k++) {
        int i = h_find(&h, 10 + (uint32_t)k);
        ok &= i >= 0 && !memcmp(h.rlog[i].data, h.dram + a[k], 128);
    }
    TAP_OK(ok && h.nr == 5 && l2_idle(&h.l), "all replies arrive with the right data, nothing lost");
    h_fini(&h);
}

static void test_miss_queue_full(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    struct h h;
    h_init(&h, &c, 0, 10);
    h.dram_block = 1; /* DRAM side takes nothing until cycle 50 */
    uint32_t pushed = 0, n = 24;
    bool refused = false;
    while (h.now < 50) {
        while (pushed < n && l2_can_accept(&h.l)) {
            struct mem_req r = rd(100 + pushed, 0xC000 + (uint64_t)pushed * 128, 128);
            h_push(&h, &r);
            pushed++;
        }
        if (h.now == 40)
            refused = !l2_can_accept(&h.l);
        h_step(&h);
    }
    /* miss k (k = 0..) is looked up at k + 1; the miss queue moves one per
     * cycle into the 8-entry L2->DRAM queue: full after miss 7 moves at 9.
     * Misses 8, 9, 10 fill the miss queue to 3 (each needs 2 free of 4);
     * miss 11 fails at every tick from 12 on. */
    TAP_EQ_U64(h.l.st.rf[L2_RF_MISS_QUEUE], 39, "miss-queue reservation fails at ticks 12..50 = 39 while DRAM is blocked");
    TAP_OK(refused, "input queue full behind the blocked head: l2_can_accept is false");
    TAP_OK(h.l.st.stall_dram_full > 0 && h.l.st.stall_input_full > 0, "stalls counted (L2->DRAM full, input full)");
    h.dram_block = 0;
    for (int guard = 0; guard < 5000 && (pushed < n || !l2_idle(&h.l) || h.npf); guard++) {
        while (pushed < n && l2_can_accept(&h.l)) {
            struct mem_req r = rd(100 + pushed, 0xC000 + (uint64_t)pushed * 128, 128);
            h_push(&h, &r);
            pushed++;
        }
        h_step(&h);
    }
    bool ok = h.nr == (int)n;
    for (uint32_t k = 0; k < n; k++) {
        int i = h_find(&h, 100 + k);
        ok &= i >= 0 && !memcmp(h.rlog[i].data, h.dram + 0xC000 + k * 128, 128);
    }
    TAP_OK(ok, "all 24 reads answered with the right data after DRAM unblocks");
    /* DRAM pops resume after tick 51, so tick 51 still fails; tick 52 moves
     * miss 8 on and miss 11 finds 2 free slots: fails at 12..51 = 40. */
    TAP_EQ_U64(h.l.st.rf[L2_RF_MISS_QUEUE], 40, "total miss-queue fails = ticks 12..51 = 40");
    h_fini(&h);
}

/* ------------------------------------------------------------- randomized vs reference */

struct expect {
    uint8_t op, size, n_lanes, es;
    uint32_t off;
    uint8_t data[MEM_LINE_BYTES];
};

struct rres {
    int mismatches;   /* replies or final bytes that differ from the reference */
    int replies;      /* replies received */
    int expected;     /* replies expected */
    uint64_t hash;    /* FNV-1a of (cycle, reply) log */
    uint64_t cycles;  /* last cycle */
    struct l2_stats st;
    uint64_t vt_hits;   /* victim-tag hits (run_random_repl) */
    uint64_t evictions; /* valid lines replaced */
};

static void fnv(uint64_t *hsh, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        *hsh ^= b[i];
        *hsh *= 1099511628211ull;
    }
}

static void ref_atomic(uint8_t *line, const struct mem_req *r, uint8_t *old, int reverse)
{
    const struct mem_atom *a = &r->atom;
    unsigned es = ptx_type_bytes((enum ptx_type)a->type);
    bool cas = a->aop == PTX_AOP_CAS;
    unsigned stride = es * (cas ? 2 : 1);
    for (uint32_t j = 0; j < a->n_lanes; j++) {
        uint32_t k = reverse ? a->n_lanes - 1 - j : j;
        uint64_t o = 0, b = 0, c = 0;
        memcpy(&o, line + a->off[k], es); /* little-endian host */
        memcpy(&b, r->data + k * stride, es);
        if (cas)
            memcpy(&c, r->data + k * stride + es, es);
        bool bad = false;
        uint64_t nv = fpu_atomic((enum ptx_aop)a->aop, (enum ptx_type)a->type, o, b, c, a->flags & MEM_ATOM_FTZ, &bad);
        SIM_ASSERT(!bad, "test generated an unsupported atomic");
        memcpy(line + a->off[k], &nv, es);
        memcpy(old + k * es, &o, es);
    }
}

static struct mem_req gen_req(uint64_t *rng, uint32_t id, uint32_t n_lines)
{
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.id = id;
    uint64_t line = (xs(rng) % 2 ? xs(rng) % 8 : xs(rng) % n_lines) * 128;
    uint32_t pick = (uint32_t)(xs(rng) % 100);
    if (pick < 42) {
        static const uint8_t sz[5] = {4, 8, 32, 64, 128};
        uint8_t size = sz[xs(rng) % 5];
        r.op = MEM_OP_READ;
        r.size = size;
        r.addr = line + (xs(rng) % (128 / size)) * size;
    } else if (pick < 75) {
        static const uint8_t sz[3] = {32, 64, 128};
        uint8_t size = sz[xs(rng) % 3];
        uint32_t seg = (uint32_t)(xs(rng) % (128 / size)) * size;
        r.op = (pick < 72) ? MEM_OP_WRITE : MEM_OP_WRITEBACK;
        r.size = size;
        r.addr = line + seg;
        for (uint32_t i = seg; i < seg + size; i++)
            if (r.op == MEM_OP_WRITEBACK || xs(rng) % 2) {
                mem_mask_set(r.mask, i);
                r.data[i] = (uint8_t)xs(rng);
            }
    } else {
        static const struct {
            uint8_t aop, type;
        } kinds[] = {
            {PTX_AOP_ADD, PTX_T_U32}, {PTX_AOP_ADD, PTX_T_S32}, {PTX_AOP_ADD, PTX_T_U64}, {PTX_AOP_ADD, PTX_T_F32},
            {PTX_AOP_MIN, PTX_T_S32}, {PTX_AOP_MAX, PTX_T_U32}, {PTX_AOP_INC, PTX_T_U32}, {PTX_AOP_DEC, PTX_T_U32},
            {PTX_AOP_CAS, PTX_T_B32}, {PTX_AOP_CAS, PTX_T_B64}, {PTX_AOP_EXCH, PTX_T_B32}, {PTX_AOP_AND, PTX_T_B32},
            {PTX_AOP_OR, PTX_T_B64},  {PTX_AOP_XOR, PTX_T_B32},
        };
        uint32_t kk = (uint32_t)(xs(rng) % ARRAY_LEN(kinds));
        r.op = MEM_OP_ATOMIC;
        r.addr = line;
        r.size = 128;
        r.atom.aop = kinds[kk].aop;
        r.atom.type = kinds[kk].type;
        if (r.atom.type == PTX_T_F32 && xs(rng) % 2)
            r.atom.flags = MEM_ATOM_FTZ;
        unsigned es = ptx_type_bytes((enum ptx_type)r.atom.type);
        bool cas = r.atom.aop == PTX_AOP_CAS;
        uint32_t maxl = mem_atom_max_lanes(es, cas);
        uint32_t n = 1 + (uint32_t)(xs(rng) % maxl);
        r.atom.n_lanes = (uint8_t)n;
        bool dup = xs(rng) % 3 == 0;
        for (uint32_t k = 0; k < n; k++) {
            r.atom.off[k] = (uint8_t)((dup ? xs(rng) % 3 : xs(rng) % (128 / es)) * es);
            for (unsigned i = 0; i < es * (cas ? 2 : 1); i++)
                r.data[k * es * (cas ? 2 : 1) + i] = (uint8_t)(xs(rng) % 4 == 0 ? xs(rng) : xs(rng) % 4);
        }
    }
    return r;
}

/* fault 0: correct reference; 1: one expected byte flipped; 2: reference
 * applies atomic lanes in reverse order (a plausible wrong implementation). */
static struct rres run_random_repl(int write_miss, int skip, int fault, uint64_t seed, uint32_t n_req, int repl,
                                   uint64_t victim_tags);
static struct rres run_random(int write_miss, int skip, int fault, uint64_t seed, uint32_t n_req)
{
    return run_random_repl(write_miss, skip, fault, seed, n_req, TA_REPL_LRU, 0);
}

/* As run_random with replacement policy `repl` and victim_tags entries. */
static struct rres run_random_repl(int write_miss, int skip, int fault, uint64_t seed, uint32_t n_req, int repl,
                                   uint64_t victim_tags)
{
    struct l2_cfg c;
    small_cfg(&c, 4096, 4); /* 32 lines: heavy eviction over 96 lines */
    c.mshr = 6;
    c.write_miss = write_miss;
    c.repl = repl;
    c.victim_tags = victim_tags;
    struct h h;
    h_init(&h, &c, 3, 0);
    h.rng = seed ^ 0x9e3779b97f4a7c15ull;
    h.skip = skip;
    uint8_t *ref = malloc(MEMSZ);
    pattern_fill(ref);
    struct expect *ex = calloc(n_req, sizeof *ex);
    uint64_t rng = seed;
    struct rres res;
    memset(&res, 0, sizeof res);
    uint32_t pushed = 0;
    uint32_t n_lines = 96;
    bool flipped = false;
    for (int guard = 0; guard < 2000000 && (pushed < n_req || !l2_idle(&h.l) || h.npf); guard++) {
        uint32_t burst = (uint32_t)(xs(&rng) % 3);
        while (burst-- && pushed < n_req && l2_can_accept(&h.l)) {
            struct mem_req r = gen_req(&rng, pushed, n_lines);
            struct expect *e = &ex[pushed];
            e->op = r.op;
            uint8_t *line = ref + mem_line_of(r.addr);
            if (r.op == MEM_OP_READ) {
                e->off = mem_line_off(r.addr);
                e->size = r.size;
                memcpy(e->data, line + e->off, r.size);
                res.expected++;
            } else if (r.op == MEM_OP_ATOMIC) {
                e->n_lanes = r.atom.n_lanes;
                e->es = (uint8_t)ptx_type_bytes((enum ptx_type)r.atom.type);
                ref_atomic(line, &r, e->data, fault == 2);
                res.expected++;
            } else {
                for (uint32_t i = 0; i < 128; i++)
                    if (mem_mask_test(r.mask, i))
                        line[i] = r.data[i];
                if (r.op == MEM_OP_WRITE)
                    res.expected++;
            }
            if (fault == 1 && !flipped && pushed >= 1000 && r.op == MEM_OP_READ) {
                e->data[0] ^= 1; /* the first read at or after #1000 */
                flipped = true;
            }
            h_push(&h, &r);
            pushed++;
        }
        h_step(&h);
    }
    res.cycles = h.now;
    res.replies = h.nr;
    res.hash = 1469598103934665603ull;
    for (int i = 0; i < h.nr; i++) {
        const struct mem_reply *rp = &h.rlog[i];
        fnv(&res.hash, &h.rcyc[i], sizeof h.rcyc[i]);
        fnv(&res.hash, rp, sizeof *rp);
        SIM_ASSERT(rp->id < n_req, "reply with unknown id");
        const struct expect *e = &ex[rp->id];
        bool ok = rp->op == e->op;
        if (ok && e->op == MEM_OP_READ)
            ok = !memcmp(rp->data + e->off, e->data, e->size);
        else if (ok && e->op == MEM_OP_ATOMIC)
            ok = rp->n_lanes == e->n_lanes && !memcmp(rp->data, e->data, (size_t)e->n_lanes * e->es);
        else if (ok)
            ok = rp->size == 0;
        res.mismatches += !ok;
    }
    /* final memory: backing store overlaid with the L2's lines */
    for (uint32_t ln = 0; ln < n_lines; ln++) {
        uint8_t d[128];
        uint64_t vm[2];
        enum ta_state st = l2_probe_line(&h.l, ln * 128, d, vm);
        for (uint32_t i = 0; i < 128; i++) {
            uint8_t v = h.dram[ln * 128 + i];
            if (st == TA_VALID && d[i] != v)
                res.mismatches++; /* a clean line must equal DRAM */
            if (st == TA_MODIFIED && mem_mask_test(vm, i))
                v = d[i];
            res.mismatches += v != ref[ln * 128 + i];
        }
    }
    res.st = h.l.st;
    res.vt_hits = h.l.tags.vt.hits;
    res.evictions = h.l.tags.n_evict[TA_EV_REPLACE];
    free(ref);
    free(ex);
    h_fini(&h);
    return res;
}

static const char *l2_wm_name(int wm)
{
    return wm == L2_WRITE_MISS_FETCH ? "fetch" : wm == L2_WRITE_MISS_BYTE_MASK ? "byte_mask" : "fetch_write";
}

static void test_random(void)
{
    for (int wm = 0; wm < 3; wm++) {
        const char *mode = l2_wm_name(wm);
        struct rres a = run_random(wm, 0, 0, 42 + (uint64_t)wm, 6000);
        TAP_EQ_I64(a.mismatches, 0, "random %s: 6000 requests, every reply and final byte equal the reference", mode);
        TAP_EQ_I64(a.replies, a.expected, "random %s: every reply arrives exactly once (%d)", mode, a.expected);
        TAP_OK(wm != L2_WRITE_MISS_FETCH_WRITE || a.st.write_forwards > 100,
               "random %s: writes forwarded (%llu)", mode, (unsigned long long)a.st.write_forwards);
        TAP_OK(a.st.merges > 100 && a.st.writebacks > 100 && a.st.rf[L2_RF_MSHR_FULL] > 0 &&
                   a.st.rf[L2_RF_MERGE_LIMIT] > 0 && a.st.hits > 100,
               "random %s exercises merges (%llu), write-backs (%llu), MSHR-full and merge-limit fails", mode,
               (unsigned long long)a.st.merges, (unsigned long long)a.st.writebacks);
        struct rres b = run_random(wm, 1, 0, 42 + (uint64_t)wm, 6000);
        if (b.hash != a.hash || b.cycles != a.cycles)
            tap_diag("every-cycle: hash %llx cycles %llu; skip: hash %llx cycles %llu", (unsigned long long)a.hash,
                     (unsigned long long)a.cycles, (unsigned long long)b.hash, (unsigned long long)b.cycles);
        for (size_t k = 0; k < sizeof a.st / 8; k++)
            if (((uint64_t *)&a.st)[k] != ((uint64_t *)&b.st)[k])
                tap_diag("stats word %zu: %llu vs %llu", k, (unsigned long long)((uint64_t *)&a.st)[k],
                         (unsigned long long)((uint64_t *)&b.st)[k]);
        TAP_OK(b.hash == a.hash && b.cycles == a.cycles && !memcmp(&a.st, &b.st, sizeof a.st),
               "random %s: skip-idle ticking gives the identical reply log, cycles and statistics", mode);
        struct rres c2 = run_random(wm, 1, 0, 42 + (uint64_t)wm, 6000);
        TAP_OK(c2.hash == b.hash, "random %s: a second run is identical (deterministic)", mode);
        struct rres f1 = run_random(wm, 0, 1, 42 + (uint64_t)wm, 6000);
        TAP_EQ_I64(f1.mismatches, 1, "random %s fault: one flipped expected byte is reported exactly once", mode);
        struct rres f2 = run_random(wm, 0, 2, 42 + (uint64_t)wm, 6000);
        TAP_OK(f2.mismatches > 0, "random %s fault: a reverse-lane-order reference is caught (%d mismatches)", mode,
               f2.mismatches);
    }
}

/* Data correctness does not depend on the replacement policy: the random
 * run against the flat reference with each policy and victim tags on. */
static void test_random_policies(void)
{
    for (int k = 0; k < TA_REPL_COUNT; k++) {
        for (int wm = 0; wm < 3; wm++) {
            struct rres a = run_random_repl(wm, 0, 0, 77 + (uint64_t)wm, 4000, k, 16);
            TAP_OK(a.mismatches == 0 && a.replies == a.expected && a.st.writebacks > 50,
                   "random %s, l2.repl = %s, 16 victim tags: 4000 requests match the reference (%d mismatches, "
                   "%llu write-backs)",
                   l2_wm_name(wm), ta_repl_names[k], a.mismatches, (unsigned long long)a.st.writebacks);
            TAP_OK(a.vt_hits > 0 && a.vt_hits <= a.st.misses && a.evictions > 0,
                   "... %llu of %llu misses would have hit (victim tags), %llu evictions",
                   (unsigned long long)a.vt_hits, (unsigned long long)a.st.misses, (unsigned long long)a.evictions);
        }
    }
}

/* FIFO through the slice, and the victim-tag statistics through the registry. */
static void test_repl_and_victim_tags(void)
{
    struct l2_cfg c;
    small_cfg(&c, 4096, 4); /* 8 sets, set 0 = multiples of 1024 */
    c.repl = TA_REPL_FIFO;
    c.victim_tags = 8;
    struct h h;
    h_init(&h, &c, 0, 5);
    struct stats *s = stats_create();
    l2_stats_register(&h.l, s);
    uint64_t L[7] = {0, 1024, 2048, 3072, 4096, 5120, 0};
    uint32_t id = 1;
    /* A B C D, hits on A and C, then E and F: FIFO replaces A then B; then A misses again */
    static const int order[] = {0, 1, 2, 3, 0, 2, 4, 5};
    for (size_t k = 0; k < ARRAY_LEN(order); k++) {
        struct mem_req r = rd(id++, L[order[k]], 128);
        h_push(&h, &r);
        h_run_to(&h, h.now + 30);
    }
    bool ok = l2_probe_line(&h.l, L[0], NULL, NULL) == TA_INVALID && l2_probe_line(&h.l, L[1], NULL, NULL) == TA_INVALID &&
              l2_probe_line(&h.l, L[2], NULL, NULL) == TA_VALID && l2_probe_line(&h.l, L[3], NULL, NULL) == TA_VALID;
    TAP_OK(ok, "l2.repl = fifo: after hits on A and C, E evicts A and F evicts B");
    struct mem_req r = rd(id++, L[0], 128);
    h_push(&h, &r);
    h_run_to(&h, h.now + 30);
    uint64_t vh = 0, vp = 0, ev = 0;
    bool got = stats_get_u64(s, "l2.vt_hits", &vh) && stats_get_u64(s, "l2.vt_probes", &vp) &&
               stats_get_u64(s, "l2.evict_replace", &ev);
    TAP_OK(got && vh == 1 && vp == 7 && ev == 3,
           "A misses again: l2.vt_hits 1 of 7 l2.vt_probes, l2.evict_replace 3 (got %llu, %llu, %llu)",
           (unsigned long long)vh, (unsigned long long)vp, (unsigned long long)ev);
    stats_destroy(s);
    h_fini(&h);

    l2_cfg_defaults(&c);
    h_init(&h, &c, 0, 5);
    s = stats_create();
    l2_stats_register(&h.l, s);
    TAP_OK(!stats_get_u64(s, "l2.vt_hits", &vh) && !stats_get_u64(s, "l2.evict_replace", &ev),
           "with the defaults the tag-array statistics are not registered (output unchanged)");
    stats_destroy(s);
    h_fini(&h);
}

static void test_stats(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    struct h h;
    h_init(&h, &c, 0, 10);
    h.l.instance = 3;
    struct stats *s = stats_create();
    l2_stats_register(&h.l, s);
    struct mem_req r = rd(1, 0x100, 128);
    h_push(&h, &r);
    r = rd(2, 0x100, 128);
    h_push(&h, &r);
    h_run_to(&h, 100);
    uint64_t v = 0, m = 0, occ = 0;
    TAP_OK(stats_get_instance_u64(s, "l2.misses", 3, &v) && v == 1 && stats_get_u64(s, "l2.merges", &m) && m == 1,
           "l2.misses = 1 and l2.merges = 1 through the registry");
    /* MSHR occupancy: entry allocated at tick 1, released at tick 18 (fill given
     * 2 + 10 = 12, processed 13, replies 17 and 18): in use over cycles 1..17 = 17
     * entry-cycles over 100 cycles (ticks 0..100). */
    TAP_OK(stats_get_u64(s, "l2.mshr_occupancy", &occ) && occ == 17 && h.l.st.mshr_occ.count == 100,
           "MSHR occupancy = 17 entry-cycles over 100 cycles");
    stats_destroy(s);
    h_fini(&h);
}

int main(void)
{
    tap_no_plan();
    test_config();
    test_tagarray();
    test_mshr();
    test_mshr_index();
    test_read_miss_hit_timing();
    test_push_late();
    test_merge_limit();
    test_write_hit_merge();
    test_write_miss_fetch();
    test_write_miss_fetch_write();
    test_write_miss_byte_mask();
    test_atomics();
    test_dram_req_sectors();
    test_sector_replies();
    test_dirty_eviction_and_lru();
    test_mshr_full_hol();
    test_miss_queue_full();
    test_random();
    test_random_policies();
    test_repl_and_victim_tags();
    test_stats();
    return tap_exit();
}
