/* sim/ptx/passes/slots.c: register storage slots for the executor (pass "slots").
 *
 * Does: give every virtual register a storage slot of the functional
 * executor (one 64-bit value per lane, sim/func) so that registers whose
 * values are never needed at the same time share one, and build the
 * executor's copy of the instructions (fn->xinsns, fn->xcall_args) with
 * register operands renamed to slots; fn->n_slots is the slot count per
 * thread and fn->regs[v].slot each register's slot (-1: never referenced).
 * nvcc's PTX names a fresh register for almost every value (bfs_expand: 95
 * registers, of which a few dozen are live at once), and the executor kept
 * 256 bytes per register and warp: 24 KB a warp, 1.1 MB an SM, mostly
 * written once and never read again (now 25 slots). NOTE(reg-slots).
 *
 * Two registers may share a slot unless (interference, from the liveness
 * pass): one is written while the other is live after the instruction;
 * both are written by one instruction; one is written and the other read
 * by one instruction (so no executor path depends on reading every source
 * before writing any destination); both are live at the function's entry
 * (read before written: their slot is zeroed, NOTE(zero-live-in) in
 * sim/func/exec_state.c). Each lane follows a path of the CFG and the
 * executor writes only active lanes with a true guard, so this is the
 * register allocation argument per lane. Registers written or read outside
 * their instruction's issue get a slot of their own (pinned), since the
 * program order the argument relies on does not hold for them:
 *  - destinations of global and generic ld and ldu and of atom (timing
 *    mode writes them when the reply returns, while the warp goes on
 *    issuing: func_sm_mem_complete, which asserts the space) and of bar
 *    (bar.red writes at the barrier's release). Loads of the other spaces
 *    (shared, local, param, const) write their registers at issue in
 *    every mode (the LD/ST unit only times them), so they need nothing;
 *    if one of them is ever deferred, it must be pinned here;
 *  - sources of shfl (read from every lane, including lanes that exited or
 *    are on another path);
 *  - call arguments and return registers (fn->call_args; the return
 *    values are written when the callee returns, and the liveness pass
 *    does not see call arguments).
 * Colouring is greedy in order of first appearance on an exact bit matrix;
 * above SLOTS_MATRIX_MAX registers, or without liveness, every register
 * keeps its own slot (identity). The result is checked against the
 * liveness sets by ptx_slots_check before it is used; a failed check falls
 * back to the identity, so a defect here costs speed, not results.
 * Does not: change the IR that everything else reads (fn->insns keeps the
 * virtual registers; the timing model's register numbers come from
 * regalloc), or split 64-bit registers.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/internal.h"
#include "sim/ptx/passes/passes.h"

/* n^2/8 bytes: 8192 registers = 8 MB, as regalloc's matrix */
#define SLOTS_MATRIX_MAX 8192u

struct sl {
    const struct ptx_func *fn;
    uint32_t n;         /* registers */
    uint32_t words;     /* per matrix row and per liveness set */
    uint64_t *adj;      /* n x n interference bits */
    uint8_t *pinned;    /* per register: a slot of its own */
    uint32_t *first;    /* per register: first instruction referencing it, UINT32_MAX never */
    int32_t defs[PTX_MAX_OPNDS * 4 + 1], uses[PTX_MAX_OPNDS * 4 + 2];
    uint32_t n_defs, n_uses;
};

static void edge(struct sl *s, uint32_t a, uint32_t b) { ptx_bit_edge(s->adj, s->words, a, b); }

struct visit {
    struct sl *s;
    uint32_t pc;
    bool pin_defs, pin_uses;
};

static void ref_visit(int32_t v, int is_def, void *p)
{
    struct visit *c = p;
    struct sl *s = c->s;
    if (v < 0 || (uint32_t)v >= s->n)
        return;
    if (s->first[v] == UINT32_MAX)
        s->first[v] = c->pc;
    if (is_def) {
        if (s->n_defs < ARRAY_LEN(s->defs))
            s->defs[s->n_defs++] = v;
        if (c->pin_defs)
            s->pinned[v] = 1;
    } else {
        if (s->n_uses < ARRAY_LEN(s->uses))
            s->uses[s->n_uses++] = v;
        if (c->pin_uses)
            s->pinned[v] = 1;
    }
}

/* An instruction whose destinations may be written after its issue
 * (bar.red at the barrier's release). */
static bool pins_defs(const struct ptx_insn *in) { return ptx_insn_completes_late(in) || in->op == PTX_OP_BAR; }

static void pin_operand(struct sl *s, const struct ptx_operand *o)
{
    if (o->kind == PTX_OPND_REG || o->kind == PTX_OPND_ADDR || o->kind == PTX_OPND_SYM) {
        if (o->reg >= 0 && (uint32_t)o->reg < s->n) {
            s->pinned[o->reg] = 1;
            if (s->first[o->reg] == UINT32_MAX)
                s->first[o->reg] = 0;
        }
    } else if (o->kind == PTX_OPND_VEC) {
        for (unsigned e = 0; e < o->n && e < 4; e++)
            if (o->vec[e] >= 0 && (uint32_t)o->vec[e] < s->n) {
                s->pinned[o->vec[e]] = 1;
                if (s->first[o->vec[e]] == UINT32_MAX)
                    s->first[o->vec[e]] = 0;
            }
    }
}

/* Row a of the matrix |= bitset `src` (the live set of an instruction or of
 * the entry), without a's own bit. Edges are added one way here, by whole
 * words, and made symmetric once at the end (symmetrize): a def against
 * every register live after it was one bit pair per register and
 * instruction, most of the pass's time on big functions. */
static void row_or(struct sl *s, uint32_t a, const uint64_t *src)
{
    uint64_t *row = s->adj + (size_t)a * s->words;
    for (uint32_t x = 0; x < s->words; x++)
        row[x] |= src[x];
    if (s->n & 63) /* bits past the last register (none expected) */
        row[s->words - 1] &= (1ull << (s->n & 63)) - 1;
    ptx_bit_clear(row, a);
}

/* Every edge a-b in either row becomes an edge in both. */
static void symmetrize(struct sl *s)
{
    for (uint32_t a = 0; a < s->n; a++) {
        const uint64_t *row = s->adj + (size_t)a * s->words;
        for (uint32_t x = 0; x < s->words; x++)
            for (uint64_t bits = row[x]; bits; bits &= bits - 1)
                ptx_bit_set(s->adj + (size_t)(x * 64 + (uint32_t)__builtin_ctzll(bits)) * s->words, a);
    }
}

/* Interference edges, first appearances and pinned registers. */
static void scan(struct sl *s)
{
    const struct ptx_func *fn = s->fn;
    const uint32_t w = fn->live.words; /* >= s->words (ptx_slots_run) */
    for (uint32_t pc = 0; pc < fn->n_insns; pc++) {
        const struct ptx_insn *in = &fn->insns[pc];
        struct visit c = {s, pc, pins_defs(in), in->op == PTX_OP_SHFL};
        s->n_defs = s->n_uses = 0;
        ptx_insn_for_each_reg(in, ref_visit, &c);
        const uint64_t *out = fn->live.live_out + (size_t)pc * w;
        for (uint32_t d = 0; d < s->n_defs; d++) {
            uint32_t a = (uint32_t)s->defs[d];
            row_or(s, a, out);
            for (uint32_t e = d + 1; e < s->n_defs; e++)
                edge(s, a, (uint32_t)s->defs[e]);
            for (uint32_t u = 0; u < s->n_uses; u++)
                edge(s, a, (uint32_t)s->uses[u]);
        }
    }
    /* registers live at entry hold zero together */
    const uint64_t *in0 = fn->live.live_in;
    for (uint32_t x = 0; x < s->words; x++)
        for (uint64_t bits = in0[x]; bits; bits &= bits - 1) {
            uint32_t a = x * 64 + (uint32_t)__builtin_ctzll(bits);
            if (a >= s->n)
                continue;
            row_or(s, a, in0);
            if (s->first[a] == UINT32_MAX)
                s->first[a] = 0;
        }
    symmetrize(s);
    for (uint32_t i = 0; i < fn->n_call_args; i++)
        pin_operand(s, &fn->call_args[i]);
}

/* Slots into fn->regs[].slot; returns the slot count. */
static uint32_t colour(struct sl *s, struct ptx_func *fn)
{
    struct ptx_order_item *ord = ptx_xcalloc(s->n + 1, sizeof *ord);
    uint32_t n_ord = 0;
    for (uint32_t v = 0; v < s->n; v++) {
        fn->regs[v].slot = -1;
        if (s->first[v] != UINT32_MAX && !s->pinned[v])
            ord[n_ord++] = (struct ptx_order_item){s->first[v], v};
    }
    qsort(ord, n_ord, sizeof *ord, ptx_order_cmp);
    uint8_t *busy = ptx_xcalloc(s->n + 1, 1);
    uint32_t used = 0;
    for (uint32_t i = 0; i < n_ord; i++) {
        uint32_t v = ord[i].idx;
        memset(busy, 0, used + 1);
        const uint64_t *row = s->adj + (size_t)v * s->words;
        for (uint32_t x = 0; x < s->words; x++)
            for (uint64_t bits = row[x]; bits; bits &= bits - 1) {
                int32_t o = fn->regs[x * 64 + (uint32_t)__builtin_ctzll(bits)].slot;
                if (o >= 0)
                    busy[o] = 1;
            }
        uint32_t k = 0;
        while (busy[k])
            k++;
        fn->regs[v].slot = (int32_t)k;
        if (k + 1 > used)
            used = k + 1;
    }
    for (uint32_t v = 0; v < s->n; v++)
        if (s->first[v] != UINT32_MAX && s->pinned[v])
            fn->regs[v].slot = (int32_t)used++;
    free(busy);
    free(ord);
    return used;
}

static void identity(struct ptx_func *fn)
{
    for (uint32_t v = 0; v < fn->n_regs; v++)
        fn->regs[v].slot = (int32_t)v;
    fn->n_slots = fn->n_regs;
}

static int32_t slot_of(const struct ptx_func *fn, int32_t v)
{
    return v >= 0 && (uint32_t)v < fn->n_regs ? fn->regs[v].slot : v;
}

static void rename_operand(const struct ptx_func *fn, struct ptx_operand *o)
{
    switch (o->kind) {
    case PTX_OPND_REG:
    case PTX_OPND_ADDR:
    case PTX_OPND_SYM:
        o->reg = slot_of(fn, o->reg);
        break;
    case PTX_OPND_VEC:
        for (unsigned e = 0; e < o->n && e < 4; e++)
            o->vec[e] = slot_of(fn, o->vec[e]);
        break;
    default:
        break;
    }
}

/* fn->xinsns and fn->xcall_args from fn->insns, fn->call_args and the slots. */
static void build_copies(struct ptx_func *fn)
{
    free(fn->xinsns);
    free(fn->xcall_args);
    fn->xinsns = ptx_xcalloc(fn->n_insns + 1, sizeof *fn->xinsns);
    if (fn->n_insns)
        memcpy(fn->xinsns, fn->insns, fn->n_insns * sizeof *fn->xinsns);
    for (uint32_t pc = 0; pc < fn->n_insns; pc++) {
        struct ptx_insn *in = &fn->xinsns[pc];
        in->guard = slot_of(fn, in->guard);
        for (unsigned k = 0; k < (unsigned)in->n_dst + in->n_src && k < PTX_MAX_OPNDS; k++)
            rename_operand(fn, &in->opnd[k]);
    }
    fn->xcall_args = ptx_xcalloc(fn->n_call_args + 1, sizeof *fn->xcall_args);
    if (fn->n_call_args)
        memcpy(fn->xcall_args, fn->call_args, fn->n_call_args * sizeof *fn->xcall_args);
    for (uint32_t i = 0; i < fn->n_call_args; i++)
        rename_operand(fn, &fn->xcall_args[i]);
}

/* ---------------------------------------------------------------- check */

/* The check walks the sets that must map to distinct slots (per
 * instruction: the registers live before it; those live after it plus its
 * defs) in program order and keeps, for the current set, how many of its
 * registers each slot holds (cnt) and how many slots hold two or more
 * (dup). Moving from one set to the next touches only the registers that
 * differ, so the check costs words per set plus the changes, not one step
 * per live register. */
struct chk {
    const struct ptx_func *fn;
    int32_t *owner;   /* per slot: register seen in the current def/use set */
    uint32_t *stamp;  /* per slot: set number of owner */
    uint32_t set;
    uint32_t *cnt;    /* per slot: registers of the current live set in it */
    uint32_t dup;     /* slots with cnt >= 2 */
    uint64_t *cur;    /* the current live set (w words) */
    uint64_t *tmp;    /* the next one, masked to registers (w words) */
    uint32_t w;       /* words per set (fn->live.words) */
    bool ok;
    int32_t defs[PTX_MAX_OPNDS * 4 + 1], uses[PTX_MAX_OPNDS * 4 + 2];
    uint32_t n_defs, n_uses;
};

/* Put register v in the current def/use set: false when its slot already
 * holds another register of the set. */
static bool chk_put(struct chk *c, int32_t v)
{
    int32_t k = c->fn->regs[v].slot;
    if (k < 0 || (uint32_t)k >= c->fn->n_slots)
        return false;
    if (c->stamp[k] == c->set && c->owner[k] != v)
        return false;
    c->stamp[k] = c->set;
    c->owner[k] = v;
    return true;
}

static void chk_visit(int32_t v, int is_def, void *p)
{
    struct chk *c = p;
    if (v < 0 || (uint32_t)v >= c->fn->n_regs)
        return;
    if (is_def && c->n_defs < ARRAY_LEN(c->defs))
        c->defs[c->n_defs++] = v;
    else if (!is_def && c->n_uses < ARRAY_LEN(c->uses))
        c->uses[c->n_uses++] = v;
}

/* Copy live set `src` into c->tmp without bits past the last register. */
static void chk_load(struct chk *c, const uint64_t *src)
{
    const uint32_t n = c->fn->n_regs;
    memcpy(c->tmp, src, c->w * sizeof *c->tmp);
    for (uint32_t x = n / 64; x < c->w; x++)
        c->tmp[x] &= x == n / 64 ? (1ull << (n & 63)) - 1 : 0;
}

/* Make c->tmp the current live set; false when a register of it has no
 * slot in range or two of its registers share a slot. */
static bool chk_move(struct chk *c)
{
    const struct ptx_func *fn = c->fn;
    for (uint32_t x = 0; x < c->w; x++) {
        uint64_t diff = c->cur[x] ^ c->tmp[x];
        if (!diff)
            continue;
        for (uint64_t b = diff & c->cur[x]; b; b &= b - 1)
            if (--c->cnt[fn->regs[x * 64 + (uint32_t)__builtin_ctzll(b)].slot] == 1)
                c->dup--;
        for (uint64_t b = diff & c->tmp[x]; b; b &= b - 1) {
            int32_t k = fn->regs[x * 64 + (uint32_t)__builtin_ctzll(b)].slot;
            if (k < 0 || (uint32_t)k >= fn->n_slots)
                return false; /* the check stops here: cnt need not stay consistent */
            if (++c->cnt[k] == 2)
                c->dup++;
        }
        c->cur[x] = c->tmp[x];
    }
    return c->dup == 0;
}

bool ptx_slots_check(const struct ptx_func *fn)
{
    if (!fn->has_body || !fn->xinsns)
        return true;
    const uint32_t w = fn->live.words;
    struct chk c = {.fn = fn, .ok = true, .w = w};
    c.owner = ptx_xcalloc(fn->n_slots + 1, sizeof *c.owner);
    c.stamp = ptx_xcalloc(fn->n_slots + 1, sizeof *c.stamp);
    c.cnt = ptx_xcalloc(fn->n_slots + 1, sizeof *c.cnt);
    c.cur = ptx_xcalloc(w + 1, sizeof *c.cur);
    c.tmp = ptx_xcalloc(w + 1, sizeof *c.tmp);
    /* every referenced register has a slot in range, and the copies use it */
    for (uint32_t pc = 0; pc < fn->n_insns && c.ok; pc++) {
        c.n_defs = c.n_uses = 0;
        ptx_insn_for_each_reg(&fn->insns[pc], chk_visit, &c);
        c.set++;
        for (uint32_t i = 0; i < c.n_defs && c.ok; i++)
            c.ok = chk_put(&c, c.defs[i]); /* defs pairwise apart */
        for (uint32_t i = 0; i < c.n_uses && c.ok; i++) {
            int32_t k = fn->regs[c.uses[i]].slot; /* a use may share only with itself */
            c.ok = k >= 0 && (uint32_t)k < fn->n_slots && (c.stamp[k] != c.set || c.owner[k] == c.uses[i]);
        }
        if (c.ok && w && fn->live.live_out) {
            /* the registers live before the instruction apart (at pc 0:
             * those zeroed together at entry); those live after it and its
             * defs apart */
            chk_load(&c, fn->live.live_in + (size_t)pc * w);
            c.ok = chk_move(&c);
            chk_load(&c, fn->live.live_out + (size_t)pc * w);
            for (uint32_t i = 0; i < c.n_defs; i++)
                ptx_bit_set(c.tmp, (uint32_t)c.defs[i]);
            c.ok = c.ok && chk_move(&c);
        }
        const struct ptx_insn *a = &fn->insns[pc], *b = &fn->xinsns[pc];
        c.ok = c.ok && a->op == b->op && a->n_dst == b->n_dst && a->n_src == b->n_src &&
               b->guard == slot_of(fn, a->guard);
        for (unsigned k = 0; k < (unsigned)a->n_dst + a->n_src && k < PTX_MAX_OPNDS && c.ok; k++) {
            const struct ptx_operand *x = &a->opnd[k], *y = &b->opnd[k];
            c.ok = x->kind == y->kind &&
                   (x->kind == PTX_OPND_VEC ? 1 : y->reg == (x->kind == PTX_OPND_REG || x->kind == PTX_OPND_ADDR ||
                                                                     x->kind == PTX_OPND_SYM
                                                                 ? slot_of(fn, x->reg)
                                                                 : x->reg));
            for (unsigned e = 0; x->kind == PTX_OPND_VEC && e < x->n && e < 4 && c.ok; e++)
                c.ok = y->vec[e] == slot_of(fn, x->vec[e]);
        }
    }
    /* pinned registers (delayed writes, shfl sources, call arguments) alone */
    if (c.ok) {
        uint32_t *uses = ptx_xcalloc(fn->n_slots + 1, sizeof *uses);
        for (uint32_t v = 0; v < fn->n_regs; v++)
            if (fn->regs[v].slot >= 0)
                uses[fn->regs[v].slot]++;
        for (uint32_t pc = 0; pc < fn->n_insns && c.ok; pc++) {
            const struct ptx_insn *in = &fn->insns[pc];
            c.n_defs = c.n_uses = 0;
            ptx_insn_for_each_reg(in, chk_visit, &c);
            if (pins_defs(in))
                for (uint32_t i = 0; i < c.n_defs && c.ok; i++)
                    c.ok = uses[fn->regs[c.defs[i]].slot] == 1;
            if (in->op == PTX_OP_SHFL)
                for (uint32_t i = 0; i < c.n_uses && c.ok; i++)
                    c.ok = uses[fn->regs[c.uses[i]].slot] == 1;
        }
        for (uint32_t i = 0; i < fn->n_call_args && c.ok; i++) {
            const struct ptx_operand *o = &fn->call_args[i];
            if (o->kind == PTX_OPND_REG && o->reg >= 0 && (uint32_t)o->reg < fn->n_regs)
                c.ok = fn->regs[o->reg].slot >= 0 && uses[fn->regs[o->reg].slot] == 1 &&
                       fn->xcall_args[i].reg == fn->regs[o->reg].slot;
        }
        free(uses);
    }
    free(c.owner);
    free(c.stamp);
    free(c.cnt);
    free(c.cur);
    free(c.tmp);
    return c.ok;
}

void ptx_slots_run(struct ptx_func *fn)
{
    struct sl s;
    memset(&s, 0, sizeof s);
    s.fn = fn;
    s.n = fn->n_regs;
    bool have_live = fn->live.live_in && fn->live.words >= (fn->n_regs + 63) / 64 && fn->n_insns;
    if (!have_live || s.n == 0 || s.n > SLOTS_MATRIX_MAX) {
        identity(fn);
        build_copies(fn);
        return;
    }
    s.words = (s.n + 63) / 64;
    s.adj = ptx_xcalloc((size_t)s.n * s.words, sizeof(uint64_t));
    s.pinned = ptx_xcalloc(s.n, 1);
    s.first = ptx_xcalloc(s.n, sizeof *s.first);
    for (uint32_t v = 0; v < s.n; v++)
        s.first[v] = UINT32_MAX;
    scan(&s);
    fn->n_slots = colour(&s, fn);
    free(s.adj);
    free(s.pinned);
    free(s.first);
    build_copies(fn);
    if (!ptx_slots_check(fn)) { /* never expected: keep one slot per register */
        identity(fn);
        build_copies(fn);
    }
}
