/* tests/test_knobs.c: the knobs the papers use to classify workloads
 * (docs/knobs.md): l1d.perfect, dram.model = perfect, sm.max_cta.
 *
 * (1) The three keys exist with their documented defaults; l1d.perfect with
 *     l1d.enable = false is refused with the key named.
 * (2) l1d.perfect on the L1D alone (sim/sm/lsu/l1d.c) against a fake L2
 *     (flat memory, fixed delay): five lines that map to one 4-way set,
 *     loaded round-robin 10 times. Normal L1D (LRU): every load misses
 *     (50 misses). Perfect: the 5 first touches miss, the other 45 loads
 *     hit at hit latency (1 cycle) with the right bytes: hit rate 1 after
 *     the cold misses. Then a store to a line held only in the side store
 *     (write-through, copy updated: the next load hits with the stored
 *     bytes), an atomic (drops the copy: the next load misses and sees the
 *     atomic's result), and an acquire invalidation (drops every copy).
 *     The fault variant runs the same rounds with l1d.perfect off and
 *     requires the misses the perfect cache removes.
 * (3) The side store (sim/sm/lsu/l1d_perfect.c: open addressing with
 *     backward-shift deletion) against a naive per-line reference over
 *     random puts, finds, removes and clears, with an injected fault.
 * Whole-workload checks (hit rate, cycles, verification) are in
 * tests/cli/knobs.sh.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/base/diag.h"
#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/sm/lsu/l1d.h"
#include "sim/sm/lsu/l1d_perfect.h"
#include "tap.h"

#define MEM_BYTES (1u << 20)
#define LINE 128u

/* ------------------------------------------------------------- fake L2 */

struct fake_l2 {
    uint8_t *mem;             /* backing store */
    struct mem_reply q[64];   /* replies in flight */
    uint64_t ready[64];       /* cycle each may be delivered */
    uint32_t head, n;
    uint32_t delay;           /* cycles from taking a request to its reply */
};

static void fake_take(struct fake_l2 *f, const struct mem_req *r, uint64_t cycle)
{
    uint64_t line = mem_line_of(r->addr);
    struct mem_reply rep;
    memset(&rep, 0, sizeof rep);
    rep.addr = r->addr;
    rep.id = r->id;
    rep.src = r->src;
    rep.op = r->op;
    rep.size = r->size;
    if (r->op == MEM_OP_READ) {
        memcpy(rep.data, f->mem + line, LINE);
    } else if (r->op == MEM_OP_WRITE || r->op == MEM_OP_WRITEBACK) {
        for (uint32_t i = 0; i < LINE; i++)
            if (mem_mask_test(r->mask, i))
                f->mem[line + i] = r->data[i];
        if (r->op == MEM_OP_WRITEBACK)
            return;
    } else { /* atomic: u32 add, lane order */
        for (uint32_t k = 0; k < r->atom.n_lanes; k++) {
            uint32_t old, b;
            memcpy(&old, f->mem + line + r->atom.off[k], 4);
            memcpy(&b, r->data + 4 * k, 4);
            memcpy(rep.data + 4 * k, &old, 4);
            old += b;
            memcpy(f->mem + line + r->atom.off[k], &old, 4);
        }
        rep.n_lanes = r->atom.n_lanes;
    }
    uint32_t i = (f->head + f->n) % 64u;
    f->q[i] = rep;
    f->ready[i] = cycle + f->delay;
    f->n++;
}

static void sys_cycle(struct l1d *l, struct fake_l2 *f, uint64_t t)
{
    l1d_tick(l, t);
    struct mem_req r;
    if (l1d_pop_req(l, &r, t))
        fake_take(f, &r, t);
    while (f->n && f->ready[f->head] <= t && l1d_push_reply(l, &f->q[f->head], t)) {
        f->head = (f->head + 1) % 64u;
        f->n--;
    }
}

static struct l1d_acc mk_acc(uint8_t op, uint64_t addr, uint32_t nbytes, uint32_t token)
{
    struct l1d_acc a;
    memset(&a, 0, sizeof a);
    a.txn.line_addr = mem_line_of(addr);
    uint32_t off = mem_line_off(addr);
    mem_mask_set_range(a.txn.bytes, off, nbytes);
    a.txn.lanes = 1;
    a.txn.op = op;
    a.txn.l1_bypass = op == COAL_ATOMIC;
    a.txn.seg_size = 32;
    a.txn.seg_offset = (uint16_t)(off / 32 * 32);
    a.token = token;
    a.warp = MEM_WARP_NONE;
    a.cta = MEM_CTA_NONE;
    return a;
}

/* Present until accepted, run until the completion pops; returns the result
 * and the latency (cycles from acceptance to completion). */
static enum l1d_result blocking(struct l1d *l, struct fake_l2 *f, uint64_t *t, const struct l1d_acc *a,
                                struct l1d_done *out, uint64_t *lat)
{
    enum l1d_result r;
    for (;;) {
        sys_cycle(l, f, *t);
        r = l1d_access(l, a, *t, NULL);
        if (r != L1D_FAIL)
            break;
        (*t)++;
    }
    uint64_t t0 = *t;
    for (int guard = 0; guard < 10000; guard++) {
        if (l1d_pop_done(l, out, *t)) {
            *lat = *t - t0;
            (*t)++;
            return r;
        }
        (*t)++;
        sys_cycle(l, f, *t);
    }
    sim_panic("access never completed");
}

/* Five lines 4 KB apart: one set of a 32-set linear-index cache. */
static uint64_t line_k(unsigned k) { return 0x10000u + (uint64_t)k * 32u * LINE; }

struct rounds {
    uint64_t hits, misses, bad_bytes, slow_hits;
};

/* 10 round-robin passes over the 5 lines, each load checked against memory. */
static struct rounds run_rounds(struct l1d *l, struct fake_l2 *f, uint64_t *t)
{
    struct rounds o = {0};
    uint32_t tok = 1;
    for (int pass = 0; pass < 10; pass++)
        for (unsigned k = 0; k < 5; k++) {
            struct l1d_acc a = mk_acc(COAL_LOAD, line_k(k), 4, tok++);
            struct l1d_done d;
            uint64_t lat;
            enum l1d_result r = blocking(l, f, t, &a, &d, &lat);
            if (r == L1D_HIT) {
                o.hits++;
                o.slow_hits += lat != 1;
            } else {
                o.misses++;
            }
            o.bad_bytes += memcmp(d.data, f->mem + line_k(k), LINE) != 0;
        }
    return o;
}

static struct l1d_cfg thrash_cfg(bool perfect)
{
    struct l1d_cfg c;
    l1d_cfg_defaults(&c);
    c.set_index = L1D_SET_LINEAR;
    c.perfect = perfect;
    return c;
}

static void fake_init(struct fake_l2 *f)
{
    memset(f, 0, sizeof *f);
    f->mem = xcalloc(MEM_BYTES, 1);
    for (uint32_t i = 0; i < MEM_BYTES; i++)
        f->mem[i] = (uint8_t)(i * 13u + (i >> 7));
    f->delay = 20;
}

static void test_perfect_l1d(void)
{
    struct fake_l2 f;
    fake_init(&f);
    uint64_t t = 1;

    /* fault variant: the normal cache thrashes */
    struct l1d_cfg cn = thrash_cfg(false);
    struct l1d n;
    l1d_init(&n, &cn, 0);
    TAP_OK(n.ps == NULL, "l1d.perfect off: no side store");
    struct rounds rn = run_rounds(&n, &f, &t);
    TAP_OK(rn.misses == 50 && rn.hits == 0, "normal 4-way LRU over 5 lines of a set: 50 misses (got %llu hits %llu)",
           (unsigned long long)rn.misses, (unsigned long long)rn.hits);
    l1d_fini(&n);

    struct l1d_cfg cp = thrash_cfg(true);
    struct l1d p;
    l1d_init(&p, &cp, 0);
    struct rounds rp = run_rounds(&p, &f, &t);
    TAP_OK(rp.misses == 5 && rp.hits == 45, "perfect: only the 5 first touches miss, 45 hits (got %llu / %llu)",
           (unsigned long long)rp.misses, (unsigned long long)rp.hits);
    TAP_EQ_U64(p.st.load_hits, 45, "l1d.load_hits 45");
    /* the cold pass leaves lines 1-4 in the set (line 0 replaced); a side-store
     * hit does not reinstall, so line 0 is served from the side store in each
     * of the 9 later passes and lines 1-4 from the tag array */
    TAP_EQ_U64(p.st.perfect_hits, 9, "9 of them from the side store (line 0 in passes 2-10)");
    TAP_EQ_U64(rp.slow_hits, 0, "every hit completes at l1d.hit_latency (1 cycle)");
    TAP_EQ_U64(rp.bad_bytes, 0, "every load returns the memory's bytes");
    TAP_OK(rn.misses > rp.misses, "fault check: the normal cache has the misses perfect removes");

    /* a store to a line held only in the side store: write-through, copy updated */
    uint64_t l0 = line_k(0);
    TAP_OK(l1d_probe_line(&p, l0, NULL) == TA_INVALID, "line 0 is not in the tag array (replaced)");
    struct l1d_acc s = mk_acc(COAL_STORE, l0 + 8, 4, 900);
    memset(s.data + 8, 0xAB, 4);
    struct l1d_done d;
    uint64_t lat;
    enum l1d_result r = blocking(&p, &f, &t, &s, &d, &lat);
    TAP_OK(r == L1D_SENT && f.mem[l0 + 8] == 0xAB, "store goes to L2 (write-through)");
    struct l1d_acc ld = mk_acc(COAL_LOAD, l0, 4, 901);
    r = blocking(&p, &f, &t, &ld, &d, &lat);
    TAP_OK(r == L1D_HIT && lat == 1 && d.data[8] == 0xAB && !memcmp(d.data, f.mem + l0, LINE),
           "next load hits the updated copy");

    /* an atomic drops the copy: the next load misses and sees the atomic's result */
    uint64_t l1 = line_k(1);
    struct l1d_acc at = mk_acc(COAL_ATOMIC, l1, 4, 902);
    at.atom.n_lanes = 1;
    at.atom.off[0] = 0;
    uint32_t one = 1;
    memcpy(at.data, &one, 4);
    blocking(&p, &f, &t, &at, &d, &lat);
    uint64_t miss0 = p.st.load_misses;
    ld = mk_acc(COAL_LOAD, l1, 4, 903);
    r = blocking(&p, &f, &t, &ld, &d, &lat);
    TAP_OK(r == L1D_MISS && p.st.load_misses == miss0 + 1 && !memcmp(d.data, f.mem + l1, LINE),
           "after an atomic the line misses and returns the atomic's result");

    /* an acquire invalidation drops every copy */
    l1d_invalidate_clean(&p, t++);
    miss0 = p.st.load_misses;
    struct rounds ri = {0};
    for (unsigned k = 0; k < 5; k++) {
        ld = mk_acc(COAL_LOAD, line_k(k), 4, 910 + k);
        r = blocking(&p, &f, &t, &ld, &d, &lat);
        ri.misses += r == L1D_MISS;
        ri.bad_bytes += memcmp(d.data, f.mem + line_k(k), LINE) != 0;
    }
    TAP_OK(ri.misses == 5 && ri.bad_bytes == 0, "after an acquire invalidation all 5 lines miss again, bytes right");

    /* the kernel launch invalidation empties the side store too */
    while (!l1d_idle(&p)) {
        sys_cycle(&p, &f, t);
        while (l1d_pop_done(&p, &d, t))
            ;
        t++;
    }
    l1d_invalidate_all(&p);
    TAP_EQ_U64(p.ps->n, 0, "kernel launch: side store empty");
    l1d_fini(&p);
    free(f.mem);
}

/* ------------------------------------------------------------- side store vs a naive reference */

#define REF_LINES 3000u

/* Random puts, finds, removes and clears on the side store and on a naive
 * reference (one slot per line index, a byte stamp per line); returns the
 * number of disagreements. skip_remove_at > 0 injects a fault: the reference
 * ignores that many-th removal. */
static unsigned pstore_vs_ref(unsigned ops, unsigned skip_remove_at)
{
    struct l1d_pstore p;
    l1d_ps_init(&p, LINE);
    static uint8_t ref_has[REF_LINES], ref_val[REF_LINES];
    memset(ref_has, 0, sizeof ref_has);
    uint64_t x = 88172645463325252ull; /* xorshift64 */
    unsigned bad = 0, removes = 0;
    uint8_t line[LINE];
    for (unsigned i = 0; i < ops; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        unsigned k = (unsigned)(x % REF_LINES), op = (unsigned)((x >> 32) % 100);
        uint64_t addr = 0x100000u + (uint64_t)k * LINE * 7u; /* spread over many table positions */
        if (op < 45) {
            memset(line, (int)(i & 0xFF), LINE);
            l1d_ps_put(&p, addr, line);
            ref_has[k] = 1;
            ref_val[k] = (uint8_t)(i & 0xFF);
        } else if (op < 75) {
            const uint8_t *d = l1d_ps_find(&p, addr);
            bad += (d != NULL) != (ref_has[k] != 0) || (d && (d[0] != ref_val[k] || d[LINE - 1] != ref_val[k]));
        } else if (op < 99) {
            l1d_ps_remove(&p, addr);
            if (++removes != skip_remove_at)
                ref_has[k] = 0;
        } else if ((x >> 40) % 20 == 0) {
            l1d_ps_clear(&p);
            memset(ref_has, 0, sizeof ref_has);
        }
    }
    unsigned n = 0; /* final sweep: every line agrees, and the count matches */
    for (unsigned k = 0; k < REF_LINES; k++) {
        const uint8_t *d = l1d_ps_find(&p, 0x100000u + (uint64_t)k * LINE * 7u);
        bad += (d != NULL) != (ref_has[k] != 0);
        n += ref_has[k];
    }
    bad += p.n != n;
    l1d_ps_fini(&p);
    return bad;
}

static void test_pstore_reference(void)
{
    TAP_EQ_U64(pstore_vs_ref(200000, 0), 0, "side store agrees with a naive reference over 200000 random operations");
    TAP_OK(pstore_vs_ref(200000, 1000) > 0, "fault: a reference that misses one removal disagrees");
}

/* ------------------------------------------------------------- config */

static bool load(struct cfg *c, const char *const *ov, char **msg)
{
    struct diag d;
    diag_init(&d);
    cfg_init(c);
    cfg_load(c, "gtx480", &d);
    for (size_t i = 0; ov && ov[i]; i++)
        cfg_set(c, ov[i], "-o", &d);
    cfg_finish(c, &d);
    bool ok = diag_count(&d) == 0;
    *msg = diag_join(&d);
    diag_fini(&d);
    return ok;
}

static void test_keys(void)
{
    struct cfg c;
    char *msg;
    TAP_OK(load(&c, NULL, &msg), "gtx480 loads");
    TAP_OK(cfg_key_index("l1d.perfect") >= 0 && !strcmp(cfg_value_text(&c, "l1d.perfect"), "false"),
           "l1d.perfect declared, false in gtx480");
    TAP_OK(cfg_key_index("dram.model") >= 0 && !strcmp(cfg_value_text(&c, "dram.model"), "normal"),
           "dram.model declared, normal in gtx480");
    TAP_OK(cfg_key_index("sm.max_cta") >= 0 && !strcmp(cfg_value_text(&c, "sm.max_cta"), "8"),
           "sm.max_cta declared, 8 in gtx480");
    free(msg);
    cfg_fini(&c);
    static const char *const ok_ov[] = {"l1d.perfect=true", "dram.model=perfect", "sm.max_cta=1", NULL};
    TAP_OK(load(&c, ok_ov, &msg) && c.values->l1d.perfect && c.values->sm.max_cta == 1,
           "l1d.perfect=true, dram.model=perfect, sm.max_cta=1 accepted together");
    free(msg);
    cfg_fini(&c);
    static const char *const bad[] = {"l1d.perfect=true", "l1d.enable=false", NULL};
    bool loaded = load(&c, bad, &msg);
    TAP_OK(!loaded && msg && strstr(msg, "l1d.perfect") && strstr(msg, "l1d.enable"),
           "l1d.perfect with l1d.enable=false refused: %s", msg ? msg : "(none)");
    free(msg);
    cfg_fini(&c);
    static const char *const bad2[] = {"l1d.perfect=maybe", NULL};
    loaded = load(&c, bad2, &msg);
    TAP_OK(!loaded && msg && strstr(msg, "l1d.perfect"), "l1d.perfect=maybe refused: %s", msg ? msg : "(none)");
    free(msg);
    cfg_fini(&c);
    /* coalesce.volatile_l1 (NOTE(volatile-l1)): bypass in gtx480; mshr is
     * accepted alone and refused with a coherence protocol. */
    TAP_OK(load(&c, NULL, &msg) && !strcmp(cfg_value_text(&c, "coalesce.volatile_l1"), "bypass"),
           "coalesce.volatile_l1 declared, bypass in gtx480");
    free(msg);
    cfg_fini(&c);
    static const char *const vc[] = {"coalesce.volatile_l1=mshr", NULL};
    TAP_OK(load(&c, vc, &msg) && c.values->coalesce.volatile_l1 == COAL_VOLATILE_MSHR,
           "coalesce.volatile_l1=mshr accepted");
    free(msg);
    cfg_fini(&c);
    static const char *const vbad[] = {"coalesce.volatile_l1=mshr", "coh.protocol=gtsc", NULL};
    loaded = load(&c, vbad, &msg);
    TAP_OK(!loaded && msg && strstr(msg, "coh.protocol") && strstr(msg, "coalesce.volatile_l1"),
           "coalesce.volatile_l1=mshr with coh.protocol=gtsc refused: %s", msg ? msg : "(none)");
    free(msg);
    cfg_fini(&c);
}

int main(void)
{
    tap_no_plan();
    test_keys();
    test_perfect_l1d();
    test_pstore_reference();
    return tap_exit();
}
