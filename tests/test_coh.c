/* tests/test_coh.c: the coherence-table machinery (sim/mem/coh.{c,h}) and the
 * non-coherent L1D protocol (sim/mem/coh_noncoh_l1.c) as driven by the L1D
 * (sim/sm/lsu/l1d.c).
 *
 * - machinery: a toy protocol checks validation (with injected faults), the
 *   dense lookup against a naive search of the rows, the action order, the
 *   undefined-pair panic (in a forked child; the message must name the
 *   cache, the address, the state and the event) and the Markdown printer;
 * - the L1D: access sequences under both write policies and both allocation
 *   modes; after every step the line's state (its way's state, or R for an
 *   open MSHR entry without a way) must equal both a hand-written value and
 *   the next state of the table row for (state before, event);
 * - the L2 slice: read miss, fill, write hit, write miss under both
 *   l2.write_miss choices, the byte_mask refetch of a partial line, each
 *   checked the same way.
 *
 * `test_coh --print` writes the L1 and L2 protocol tables as Markdown (the source
 * of docs/coherence.md) and exits.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/base/common.h"
#include "sim/mem/coh.h"
#include "partitions/l2/l2.h"
#include "sim/sm/lsu/l1d.h"
#include "tap.h"

/* ------------------------------------------------------------- toy protocol */

enum { T_A, T_B, T_NS };
enum { T_GO, T_STOP, T_NE };
enum { TA_END, TA_X, TA_Y, TA_NA };

static const struct coh_name toy_states[] = {{"A", "state a"}, {"B", "state b"}};
static const struct coh_name toy_events[] = {{"Go", "go"}, {"Stop", "stop"}};
static const struct coh_name toy_actions[] = {{"end", "end"}, {"x", "append x"}, {"y", "append y"}};
static const struct coh_row toy_rows[] = {
    {T_A, T_GO, {TA_X, TA_Y}, T_B},
    {T_B, T_GO, {TA_Y, TA_X, TA_X}, T_B},
    {T_B, T_STOP, {0}, T_A},
};
static const struct coh_proto toy = {
    .name = "toy", .doc = "a toy", .n_states = T_NS, .n_events = T_NE, .n_actions = TA_NA, .n_rows = 3,
    .states = toy_states, .events = toy_events, .actions = toy_actions, .rows = toy_rows,
};

struct toy_ctx {
    char log[16];
    unsigned n;
};
static void toy_x(void *c) { struct toy_ctx *t = c; t->log[t->n++] = 'x'; }
static void toy_y(void *c) { struct toy_ctx *t = c; t->log[t->n++] = 'y'; }
static const coh_action_fn toy_fns[TA_NA] = {[TA_X] = toy_x, [TA_Y] = toy_y};

/* Naive reference: linear search of the rows. */
static const struct coh_row *naive_row(const struct coh_proto *p, unsigned s, unsigned e)
{
    for (uint32_t i = 0; i < p->n_rows; i++)
        if (p->rows[i].state == s && p->rows[i].event == e)
            return &p->rows[i];
    return NULL;
}

static void test_validate(void)
{
    TAP_OK(coh_proto_invalid(&toy) == NULL, "toy protocol is well formed");
    TAP_OK(coh_proto_invalid(&coh_noncoh_l1_we) == NULL, "noncoh_l1_we is well formed");
    TAP_OK(coh_proto_invalid(&coh_noncoh_l1_wt) == NULL, "noncoh_l1_wt is well formed");
    TAP_OK(coh_proto_invalid(&coh_noncoh_l2_fetch) == NULL, "noncoh_l2_fetch is well formed");
    TAP_OK(coh_proto_invalid(&coh_noncoh_l2_byte_mask) == NULL, "noncoh_l2_byte_mask is well formed");
    TAP_OK(coh_proto_invalid(&coh_noncoh_l2_fetch_write) == NULL, "noncoh_l2_fetch_write is well formed");
    /* injected faults */
    struct coh_row dup[4] = {toy_rows[0], toy_rows[1], toy_rows[2], toy_rows[0]};
    struct coh_proto p = toy;
    p.rows = dup;
    p.n_rows = 4;
    TAP_OK(coh_proto_invalid(&p) != NULL, "fault: a pair defined twice is rejected (%s)", coh_proto_invalid(&p));
    dup[3] = (struct coh_row){T_A, T_STOP, {TA_X}, 7};
    TAP_OK(coh_proto_invalid(&p) != NULL, "fault: a next state out of range is rejected");
    dup[3] = (struct coh_row){T_A, T_STOP, {0, TA_X}, T_A};
    TAP_OK(coh_proto_invalid(&p) != NULL, "fault: an action after the end is rejected");
    dup[3] = (struct coh_row){T_A, T_STOP, {9}, T_A};
    TAP_OK(coh_proto_invalid(&p) != NULL, "fault: an action id out of range is rejected");
    dup[3] = (struct coh_row){T_A, T_STOP, {TA_X}, T_A};
    TAP_OK(coh_proto_invalid(&p) == NULL, "the repaired row is accepted");
}

static void test_dense(void)
{
    const struct coh_proto *ps[] = {&toy, &coh_noncoh_l1_we, &coh_noncoh_l1_wt, &coh_noncoh_l2_fetch,
                                    &coh_noncoh_l2_byte_mask, &coh_noncoh_l2_fetch_write, &coh_gtsc_l1,
                                    &coh_tc_l1};
    const coh_action_fn *fns[] = {toy_fns, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    static coh_action_fn any[COH_MAX_ACTIONS];
    for (unsigned i = 0; i < COH_MAX_ACTIONS; i++)
        any[i] = toy_x;
    for (unsigned k = 0; k < ARRAY_LEN(ps); k++) {
        struct coh_table t;
        coh_table_init(&t, ps[k], fns[k] ? fns[k] : any, "test", (int)k);
        unsigned bad = 0, defined = 0;
        for (unsigned s = 0; s < COH_MAX_STATES; s++)
            for (unsigned e = 0; e < COH_MAX_EVENTS; e++) {
                const struct coh_row *want =
                    s < ps[k]->n_states && e < ps[k]->n_events ? naive_row(ps[k], s, e) : NULL;
                bad += coh_row_of(&t, s, e) != want;
                defined += want != NULL;
            }
        TAP_EQ_U64(bad, 0, "%s: dense lookup agrees with a search of the rows on all pairs", ps[k]->name);
        TAP_EQ_U64(defined, ps[k]->n_rows, "%s: every row is reachable", ps[k]->name);
    }
    struct coh_table t;
    coh_table_init(&t, &toy, toy_fns, "toy", 0);
    struct toy_ctx c = {{0}, 0};
    unsigned s = coh_step(&t, 0x80, T_A, T_GO, &c);
    s = coh_step(&t, 0x80, s, T_GO, &c);
    s = coh_step(&t, 0x80, s, T_STOP, &c);
    TAP_STREQ(c.log, "xyyxx", "actions run in row order");
    TAP_EQ_U64(s, T_A, "A -Go-> B -Go-> B -Stop-> A");
    TAP_OK(coh_row_of(&t, T_A, T_STOP) == NULL, "(A, Stop) is undefined: the would-panic query says so");
}

/* Run fn in a child with stderr captured; returns whether it died of SIGABRT. */
static int dies_with(void (*fn)(void), char *msg, size_t cap)
{
    FILE *tmp = tmpfile();
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fileno(tmp), 2);
        fn();
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    rewind(tmp);
    size_t n = fread(msg, 1, cap - 1, tmp);
    msg[n] = 0;
    fclose(tmp);
    return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static void toy_undefined(void)
{
    struct coh_table t;
    coh_table_init(&t, &toy, toy_fns, "toycache", 5);
    struct toy_ctx c = {{0}, 0};
    coh_step(&t, 0x1280, T_A, T_STOP, &c);
}

static void toy_missing_fn(void)
{
    static const coh_action_fn half[TA_NA] = {[TA_X] = toy_x};
    struct coh_table t;
    coh_table_init(&t, &toy, half, "toycache", 6);
}

static void test_panic(void)
{
    char msg[1024];
    TAP_OK(dies_with(toy_undefined, msg, sizeof msg), "an undefined pair panics");
    TAP_CONTAINS(msg, "toycache[5]", "the panic names the cache");
    TAP_CONTAINS(msg, "0x1280", "the panic names the line address");
    TAP_CONTAINS(msg, "state A", "the panic names the state");
    TAP_CONTAINS(msg, "event Stop", "the panic names the event");
    TAP_OK(dies_with(toy_missing_fn, msg, sizeof msg), "a row action without an implementation panics at init");
    TAP_CONTAINS(msg, "action y", "that panic names the action");
}

static void test_print(void)
{
    FILE *f = tmpfile();
    coh_print_md(&coh_noncoh_l1_we, f);
    long n = ftell(f);
    rewind(f);
    char *buf = xcalloc((size_t)n + 1, 1);
    TAP_EQ_U64(fread(buf, 1, (size_t)n, f), (uint64_t)n, "printer output read back");
    fclose(f);
    TAP_CONTAINS(buf, "### Protocol `noncoh_l1_we`", "printer: heading");
    TAP_CONTAINS(buf, "| `R` | fill outstanding", "printer: state descriptions");
    TAP_CONTAINS(buf, "| `InvClean` |", "printer: event descriptions");
    TAP_CONTAINS(buf, "| `mark_stale` |", "printer: action descriptions");
    TAP_CONTAINS(buf, "| I | Load | `open_mshr`, `reserve_way`, `add_request` | R |", "printer: a transition row");
    TAP_CONTAINS(buf, "| V | Store | `evict`, `send_write` | I |", "printer: the write-evict row");
    TAP_CONTAINS(buf, "| V | InvAll | - | I |", "printer: a row without actions");
    free(buf);
}

/* ------------------------------------------------------------- L1D sequences */

#define LINE 128u

struct rig {
    struct l1d l;
    uint64_t t;
    uint32_t n_wb; /* write-backs seen */
};

static void rig_init(struct rig *r, int wp, int alloc)
{
    struct l1d_cfg c;
    l1d_cfg_defaults(&c);
    c.write_policy = wp;
    c.alloc = alloc;
    memset(r, 0, sizeof *r);
    l1d_init(&r->l, &c, 0);
    r->t = 1;
}

/* One cycle: tick, answer every request at once (reads with a pattern,
 * writes and atomics with an ack), drain completions. */
static void rig_cycle(struct rig *r)
{
    struct l1d *l = &r->l;
    l1d_tick(l, r->t);
    struct mem_req q;
    while (l1d_pop_req(l, &q, r->t)) {
        if (q.op == MEM_OP_WRITEBACK) {
            r->n_wb++;
            continue;
        }
        struct mem_reply rep;
        memset(&rep, 0, sizeof rep);
        rep.addr = q.addr;
        rep.id = q.id;
        rep.op = q.op;
        rep.size = q.size;
        for (uint32_t i = 0; i < LINE; i++)
            rep.data[i] = (uint8_t)(i + (q.addr >> 7));
        SIM_ASSERT(l1d_push_reply(l, &rep, r->t), "rig: reply FIFO full");
    }
    struct l1d_done d;
    while (l1d_pop_done(l, &d, r->t)) {
    }
    r->t++;
}
static void rig_settle(struct rig *r)
{
    for (int i = 0; i < 20; i++)
        rig_cycle(r);
}

static unsigned state_of(const struct rig *r, uint64_t line)
{
    enum ta_state s = l1d_probe_line(&r->l, line, NULL);
    if (s != TA_INVALID)
        return (unsigned)s;
    return mshr_lookup(&r->l.mshr, line) >= 0 ? COH_L1_R : COH_L1_I;
}

static struct l1d_acc acc(uint8_t op, uint64_t line, bool local, uint32_t token)
{
    struct l1d_acc a;
    memset(&a, 0, sizeof a);
    a.txn.line_addr = line;
    mem_mask_set_range(a.txn.bytes, 0, 4);
    a.txn.lanes = 1;
    a.txn.op = op;
    a.txn.l1_bypass = op == COAL_ATOMIC;
    a.txn.seg_size = 32;
    a.token = token;
    a.is_local = local;
    a.warp = MEM_WARP_NONE;
    a.cta = MEM_CTA_NONE;
    if (op == COAL_ATOMIC)
        a.atom.n_lanes = 1;
    return a;
}

static const char *sname(unsigned s) { return coh_noncoh_l1_we.states[s].name; }
static const char *ename(unsigned e) { return coh_noncoh_l1_we.events[e].name; }

/* Check the line's state after a step against the table and a hand value. */
static void expect(struct rig *r, uint64_t line, unsigned before, unsigned ev, unsigned want, const char *what)
{
    unsigned got = state_of(r, line);
    const struct coh_row *row = coh_row_of(&r->l.coh, before, ev);
    unsigned table = row ? row->next : 99;
    TAP_OK(got == want && table == want, "%s %s, %s: %s -%s-> %s (table %s, hand %s)", r->l.coh.p->name,
           r->l.alloc == L1D_ALLOC_ON_MISS ? "on_miss" : "on_fill", what, sname(before), ename(ev),
           got < 4 ? sname(got) : "?", table < 4 ? sname(table) : "undefined", sname(want));
}

/* Do an access; then check its step. */
static void access_step(struct rig *r, uint8_t op, uint64_t line, bool local, unsigned ev, unsigned want,
                        const char *what)
{
    unsigned before = state_of(r, line);
    struct l1d_acc a = acc(op, line, local, 1);
    enum l1d_result res = l1d_access(&r->l, &a, r->t, NULL);
    SIM_ASSERT(res != L1D_FAIL, "rig: access failed");
    expect(r, line, before, ev, want, what);
    rig_cycle(r);
}

/* Let the outstanding fill of line arrive; check the Fill/StaleFill step. */
static void fill_step(struct rig *r, uint64_t line, unsigned ev, unsigned want)
{
    rig_settle(r);
    expect(r, line, COH_L1_R, ev, want, "fill");
}

static void seq(int wp, int alloc)
{
    struct rig r;
    rig_init(&r, wp, alloc);
    bool wt = wp == L1D_WP_GLOBAL_WT_ALLOC_LOCAL_WB;
    uint64_t A = 0x10000, B = 0x20000, C = 0x30000;
    access_step(&r, COAL_LOAD, A, false, COH_L1_LOAD, COH_L1_R, "load miss");
    fill_step(&r, A, COH_L1_FILL, COH_L1_V);
    access_step(&r, COAL_LOAD, A, false, COH_L1_LOAD, COH_L1_V, "load hit");
    access_step(&r, COAL_STORE, A, false, COH_L1_STORE, wt ? COH_L1_V : COH_L1_I, "store hit");
    if (!wt) {
        access_step(&r, COAL_LOAD, A, false, COH_L1_LOAD, COH_L1_R, "load miss again");
        fill_step(&r, A, COH_L1_FILL, COH_L1_V);
    }
    l1d_invalidate_clean(&r.l, r.t);
    expect(&r, A, COH_L1_V, COH_L1_INV_CLEAN, COH_L1_I, "acquire");
    /* global store miss */
    access_step(&r, COAL_STORE, B, false, COH_L1_STORE, wt ? COH_L1_R : COH_L1_I, "store miss");
    if (wt)
        fill_step(&r, B, COH_L1_FILL, COH_L1_V);
    rig_settle(&r);
    /* store to a line with an outstanding miss: the entry goes stale */
    access_step(&r, COAL_LOAD, C, false, COH_L1_LOAD, COH_L1_R, "load miss");
    access_step(&r, COAL_STORE, C, false, COH_L1_STORE, COH_L1_R, "store to R");
    TAP_EQ_U64(r.l.st.stale_marks, 1, "the store marked the entry stale");
    fill_step(&r, C, COH_L1_STALE_FILL, COH_L1_I);
    /* local memory: write-back */
    uint64_t L = 0x40000;
    access_step(&r, COAL_STORE, L, true, COH_L1_LOCAL_STORE, COH_L1_I, "local store miss");
    rig_settle(&r);
    access_step(&r, COAL_LOAD, L, true, COH_L1_LOAD, COH_L1_R, "local load miss");
    fill_step(&r, L, COH_L1_FILL, COH_L1_V);
    access_step(&r, COAL_STORE, L, true, COH_L1_LOCAL_STORE, COH_L1_M, "local store hit");
    access_step(&r, COAL_LOAD, L, true, COH_L1_LOAD, COH_L1_M, "load of a dirty line");
    l1d_invalidate_clean(&r.l, r.t);
    expect(&r, L, COH_L1_M, COH_L1_INV_CLEAN, COH_L1_M, "acquire keeps local data");
    uint32_t wb = r.n_wb;
    l1d_flush_dirty(&r.l);
    rig_settle(&r);
    expect(&r, L, COH_L1_M, COH_L1_FLUSH, COH_L1_V, "kernel-end flush");
    TAP_EQ_U64(r.n_wb, wb + 1, "the flush wrote the line back once");
    /* atomic on a present line evicts it */
    access_step(&r, COAL_ATOMIC, L, false, COH_L1_ATOMIC, COH_L1_I, "atomic");
    rig_settle(&r);
    access_step(&r, COAL_LOAD, A, false, COH_L1_LOAD, COH_L1_R, "load miss");
    fill_step(&r, A, COH_L1_FILL, COH_L1_V);
    TAP_OK(l1d_idle(&r.l), "idle before the kernel launch");
    l1d_invalidate_all(&r.l);
    expect(&r, A, COH_L1_V, COH_L1_INV_ALL, COH_L1_I, "kernel launch");
    l1d_fini(&r.l);
}

static void test_l1_sequences(void)
{
    seq(L1D_WP_GLOBAL_WE_LOCAL_WB, L1D_ALLOC_ON_MISS);
    seq(L1D_WP_GLOBAL_WE_LOCAL_WB, L1D_ALLOC_ON_FILL);
    seq(L1D_WP_GLOBAL_WT_ALLOC_LOCAL_WB, L1D_ALLOC_ON_MISS);
    seq(L1D_WP_GLOBAL_WT_ALLOC_LOCAL_WB, L1D_ALLOC_ON_FILL);
}

/* Replacement of a dirty victim: the Replace row writes it back. */
static void test_l1_replace(void)
{
    for (int alloc = 0; alloc < 2; alloc++) {
        struct rig r;
        rig_init(&r, L1D_WP_GLOBAL_WE_LOCAL_WB, alloc);
        uint32_t set = l1d_set_of(&r.l, 0x40000);
        uint64_t lines[5];
        unsigned n = 0;
        for (uint64_t a = 0x40000; n < 5; a += LINE) /* five lines of one 4-way set */
            if (l1d_set_of(&r.l, a) == set)
                lines[n++] = a;
        for (unsigned k = 0; k < 4; k++) { /* fill the set with dirty local lines */
            access_step(&r, COAL_LOAD, lines[k], true, COH_L1_LOAD, COH_L1_R, "fill the set");
            fill_step(&r, lines[k], COH_L1_FILL, COH_L1_V);
            access_step(&r, COAL_STORE, lines[k], true, COH_L1_LOCAL_STORE, COH_L1_M, "dirty it");
        }
        uint32_t wb = r.n_wb;
        access_step(&r, COAL_LOAD, lines[4], true, COH_L1_LOAD, COH_L1_R, "miss into a full set");
        fill_step(&r, lines[4], COH_L1_FILL, COH_L1_V);
        expect(&r, lines[0], COH_L1_M, COH_L1_REPLACE, COH_L1_I, "LRU victim replaced");
        TAP_EQ_U64(r.n_wb, wb + 1, "%s: the dirty victim was written back once", alloc ? "on_fill" : "on_miss");
        l1d_fini(&r.l);
    }
}

static void launch_with_dirty(void)
{
    struct rig r;
    rig_init(&r, L1D_WP_GLOBAL_WE_LOCAL_WB, L1D_ALLOC_ON_MISS);
    struct l1d_acc a = acc(COAL_LOAD, 0x50000, true, 1);
    l1d_access(&r.l, &a, r.t, NULL);
    rig_settle(&r);
    a = acc(COAL_STORE, 0x50000, true, 2);
    l1d_access(&r.l, &a, r.t, NULL);
    rig_settle(&r);
    l1d_invalidate_all(&r.l); /* M has no InvAll row */
}

static void test_l1_undefined(void)
{
    char msg[1024];
    TAP_OK(dies_with(launch_with_dirty, msg, sizeof msg), "kernel launch over a dirty line panics");
    TAP_CONTAINS(msg, "l1d[0]", "it names the cache");
    TAP_CONTAINS(msg, "0x50000", "it names the line");
    TAP_CONTAINS(msg, "state M", "it names the state");
    TAP_CONTAINS(msg, "event InvAll", "it names the event");
}


/* ------------------------------------------------------------- L2 sequences */

struct l2rig {
    struct l2 l;
    uint64_t c;
    bool hold;             /* keep DRAM reads unanswered */
    uint64_t held[8];      /* held DRAM read line addresses */
    unsigned n_held;
};

static void l2rig_init(struct l2rig *r, int write_miss)
{
    struct l2_cfg cfg;
    l2_cfg_defaults(&cfg);
    cfg.write_miss = write_miss;
    memset(r, 0, sizeof *r);
    struct l2_init_args a = {.instance = 0, .rop_cycles = 1};
    l2_init(&r->l, &cfg, &a);
}

static void l2rig_cycle(struct l2rig *r)
{
    l2_tick(&r->l, r->c);
    struct l2_dram_req d;
    while (l2_pop_dram_req(&r->l, &d, r->c))
        if (!d.is_write) {
            SIM_ASSERT(r->n_held < ARRAY_LEN(r->held), "l2rig: too many reads");
            r->held[r->n_held++] = d.line_addr;
        }
    if (!r->hold)
        for (unsigned k = 0; k < r->n_held; k++) {
            uint8_t data[MEM_LINE_BYTES];
            memset(data, 0x5a, sizeof data);
            SIM_ASSERT(l2_dram_fill(&r->l, r->held[k], data, r->c), "l2rig: fill refused");
        }
    if (!r->hold)
        r->n_held = 0;
    struct mem_reply rep;
    while (l2_pop_reply(&r->l, &rep, r->c)) {
    }
    r->c++;
}

static void l2rig_settle(struct l2rig *r)
{
    for (int i = 0; i < 200; i++)
        l2rig_cycle(r);
}

static unsigned l2_state(struct l2rig *r, uint64_t line) { return (unsigned)l2_probe_line(&r->l, line, NULL, NULL); }

static void l2_expect(struct l2rig *r, uint64_t line, unsigned before, unsigned ev, unsigned want, const char *what)
{
    unsigned got = l2_state(r, line);
    const struct coh_row *row = coh_row_of(&r->l.coh, before, ev);
    unsigned table = row ? row->next : 99;
    const struct coh_proto *p = r->l.coh.p;
    TAP_OK(got == want && table == want, "%s, %s: %s -%s-> %s (table %s, hand %s)", p->name, what,
           p->states[before].name, p->events[ev].name, got < 4 ? p->states[got].name : "?",
           table < 4 ? p->states[table].name : "undefined", p->states[want].name);
}

/* Push one request (op, 4 bytes at addr), hold DRAM reads, run until it is looked up. */
static void l2_req(struct l2rig *r, uint8_t op, uint64_t addr, unsigned ev, unsigned want, const char *what)
{
    uint64_t line = mem_line_of(addr);
    unsigned before = l2_state(r, line);
    struct mem_req q;
    memset(&q, 0, sizeof q);
    q.addr = addr;
    q.op = op;
    q.size = 4;
    q.id = 1;
    q.warp = MEM_WARP_NONE;
    q.cta = MEM_CTA_NONE;
    if (op != MEM_OP_READ) {
        mem_mask_set_range(q.mask, mem_line_off(addr), 4);
        memset(q.data, 0x77, sizeof q.data);
    }
    r->hold = true;
    SIM_ASSERT(l2_push(&r->l, &q, r->c), "l2rig: push refused");
    for (int i = 0; i < 20; i++)
        l2rig_cycle(r);
    l2_expect(r, line, before, ev, want, what);
    r->hold = false;
}

static void test_l2_sequences(void)
{
    for (int wm = 0; wm < 2; wm++) {
        struct l2rig r;
        l2rig_init(&r, wm);
        uint64_t A = 0x1000, B = 0x2000;
        l2_req(&r, MEM_OP_READ, A, COH_L2_READ, COH_L2_R, "read miss");
        l2rig_settle(&r);
        l2_expect(&r, A, COH_L2_R, COH_L2_FILL, COH_L2_V, "fill");
        l2_req(&r, MEM_OP_READ, A, COH_L2_READ, COH_L2_V, "read hit");
        l2_req(&r, MEM_OP_WRITE, A, COH_L2_WRITE, COH_L2_M, "write hit");
        if (wm == L2_WRITE_MISS_FETCH) {
            l2_req(&r, MEM_OP_WRITE, B, COH_L2_WRITE, COH_L2_R, "write miss");
            l2rig_settle(&r);
            l2_expect(&r, B, COH_L2_R, COH_L2_FILL_DIRTY, COH_L2_M, "fill with a queued write");
        } else {
            l2_req(&r, MEM_OP_WRITE, B, COH_L2_WRITE, COH_L2_M, "write miss allocates");
            uint64_t valid[2];
            l2_probe_line(&r.l, B, NULL, valid);
            TAP_OK(valid[0] == 0xf && valid[1] == 0, "only the written bytes are valid");
            l2_req(&r, MEM_OP_READ, B + 64, COH_L2_PARTIAL, COH_L2_R, "read of missing bytes");
            l2rig_settle(&r);
            l2_expect(&r, B, COH_L2_R, COH_L2_FILL_DIRTY, COH_L2_M, "refetch fill keeps it dirty");
        }
        l2_fini(&r.l);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--print") == 0) {
        coh_print_md(&coh_noncoh_l1_we, stdout);
        coh_print_md(&coh_noncoh_l1_wt, stdout);
        coh_print_md(&coh_noncoh_l2_fetch, stdout);
        coh_print_md(&coh_noncoh_l2_byte_mask, stdout);
        coh_print_md(&coh_noncoh_l2_fetch_write, stdout);
        coh_print_md(&coh_gtsc_l1, stdout);
        coh_print_md(&coh_tc_l1, stdout);
        return 0;
    }
    static const struct tap_test tests[] = {
        {"validate", test_validate},       {"dense", test_dense},
        {"panic", test_panic},             {"print", test_print},
        {"l1_sequences", test_l1_sequences}, {"l1_replace", test_l1_replace},
        {"l1_undefined", test_l1_undefined}, {"l2_sequences", test_l2_sequences},
    };
    return tap_run(tests, ARRAY_LEN(tests));
}
