/* tests/test_ptx_analysis.c: CFG, post-dominators, liveness, register
 * allocation and the pass pipeline.
 *
 * Known shapes (if/else, loop with break and continue, guarded exit,
 * an infinite loop) have hand-computed reconvergence PCs; liveness is
 * checked on a small function and against a naive reference (per-path
 * search) on every committed kernel; every allocation is validated: no
 * two registers live at the same point share a physical register, 64-bit
 * values sit in even-aligned pairs, and the count covers every slot used.
 * The executor's storage slots (pass "slots", NOTE(reg-slots)) are checked
 * the same way, by a validator of this file's own, on the committed
 * kernels and on every workload's kernel.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/passes/passes.h"
#include "sim/ptx/ptx.h"
#include "tap.h"

#ifndef GPUSIM_SOURCE_DIR
#define GPUSIM_SOURCE_DIR "."
#endif
#define PTX_DIR GPUSIM_SOURCE_DIR "/tests/ptx"
#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"

static struct ptx_module *parse_str(const char *text)
{
    struct diag d;
    diag_init(&d);
    struct ptx_module *m = NULL;
    if (ptx_parse(text, strlen(text), "a.ptx", &m, &d) != PTX_OK)
        diag_print(&d, stdout);
    diag_fini(&d);
    return m;
}

static bool live_out(const struct ptx_func *fn, uint32_t pc, int32_t v)
{
    return (fn->live.live_out[(size_t)pc * fn->live.words + (uint32_t)v / 64] >> (v % 64)) & 1;
}
static bool live_in(const struct ptx_func *fn, uint32_t pc, int32_t v)
{
    return (fn->live.live_in[(size_t)pc * fn->live.words + (uint32_t)v / 64] >> (v % 64)) & 1;
}

static int32_t vreg(const struct ptx_func *fn, const char *name)
{
    for (uint32_t i = 0; i < fn->n_regs; i++)
        if (strcmp(fn->regs[i].name, name) == 0)
            return (int32_t)i;
    return -1;
}

static const char *const if_loop_src = HDR
    ".visible .entry k(.param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<5>;\n  .reg .b32 %r<8>;\n"
    "  ld.param.u32 %r1, [n];\n"      /* 0 */
    "  setp.eq.s32 %p1, %r1, 0;\n"    /* 1 */
    "  @%p1 bra ELSE;\n"              /* 2  if/else: reconverge at JOIN (6) */
    "  add.s32 %r2, %r1, 1;\n"        /* 3 */
    "  bra.uni JOIN;\n"               /* 4 */
    "ELSE:\n"
    "  add.s32 %r2, %r1, 2;\n"        /* 5 */
    "JOIN:\n"
    "  mov.u32 %r3, 0;\n"             /* 6 */
    "LOOP:\n"
    "  setp.ge.s32 %p2, %r3, %r2;\n"  /* 7 */
    "  @%p2 bra DONE;\n"              /* 8  loop exit: reconverge at DONE (15) */
    "  setp.eq.s32 %p3, %r3, 5;\n"    /* 9 */
    "  @%p3 bra DONE;\n"              /* 10 break: DONE */
    "  and.b32 %r4, %r3, 1;\n"        /* 11 */
    "  setp.ne.s32 %p4, %r4, 0;\n"    /* 12 */
    "  @%p4 bra NEXT;\n"              /* 13 continue: reconverge at NEXT (14) */
    "NEXT:\n"
    "  add.s32 %r3, %r3, 1;\n"        /* 14 */
    "  bra.uni LOOP;\n"               /* 15 */
    "DONE:\n"
    "  ret;\n"                        /* 16 */
    "}\n";

static void test_ipdom(void)
{
    struct ptx_module *m = parse_str(if_loop_src);
    TAP_OK(m != NULL, "if/else + loop snippet parses");
    if (!m)
        return;
    const struct ptx_func *fn = &m->funcs[0];
    TAP_EQ_U64(fn->n_insns, 17, "17 instructions");
    TAP_EQ_U64(fn->insns[2].target, 5, "bra ELSE -> 5");
    TAP_EQ_U64(fn->insns[2].reconv, 6, "if/else reconverges at JOIN (pc 6)");
    TAP_EQ_U64(fn->insns[8].reconv, 16, "loop exit test reconverges at DONE (pc 16)");
    TAP_EQ_U64(fn->insns[10].reconv, 16, "break reconverges at DONE (pc 16)");
    TAP_EQ_U64(fn->insns[13].reconv, 14, "branch to the next instruction reconverges there");
    TAP_EQ_U64(fn->insns[4].reconv, PTX_PC_NONE, "unconditional bra.uni has no reconvergence PC");
    TAP_EQ_U64(fn->insns[15].reconv, PTX_PC_NONE, "back edge bra.uni has none either");
    const struct ptx_cfg *cfg = &fn->cfg;
    uint32_t b_if = cfg->block_of[2], b_join = cfg->block_of[6], b_done = cfg->block_of[16];
    TAP_EQ_U64(cfg->blocks[b_if].ipdom, b_join, "ipdom(if block) = join block");
    TAP_EQ_U64(cfg->blocks[b_done].ipdom, UINT32_MAX, "ipdom(ret block) = virtual exit");
    TAP_OK(cfg->blocks[b_done].to_exit && cfg->blocks[b_done].n_succ == 0, "ret block flows to exit only");
    TAP_EQ_U64(cfg->blocks[cfg->block_of[7]].n_pred, 2, "loop header has 2 predecessors");

    /* liveness on the same function */
    int32_t r1 = vreg(fn, "%r1"), r2 = vreg(fn, "%r2"), r3 = vreg(fn, "%r3"), r4 = vreg(fn, "%r4");
    TAP_OK(!live_in(fn, 0, r1) && live_out(fn, 0, r1), "%%r1 defined at 0, live after");
    TAP_OK(live_out(fn, 3, r2) && live_out(fn, 5, r2), "%%r2 live out of both if arms");
    TAP_OK(!live_out(fn, 5, r1) && !live_in(fn, 6, r1), "%%r1 dead after its last use");
    TAP_OK(live_in(fn, 7, r2) && live_in(fn, 15, r2), "%%r2 live around the whole loop");
    TAP_OK(live_out(fn, 15, r3) && !live_in(fn, 6, r3), "%%r3 live on the back edge, not before its def");
    TAP_OK(live_out(fn, 11, r4) && !live_out(fn, 12, r4), "%%r4 short-lived");
    TAP_OK(!live_in(fn, 16, r2) && !live_in(fn, 16, r3), "nothing live at ret");
    TAP_EQ_U64(fn->regs_alloc, 3, "3 physical registers suffice (r1/r3 share, r2, r4)");
    TAP_EQ_U64(fn->regs_per_thread, 3, "no sidecar: occupancy uses the allocator's count");
    ptx_module_free(m);
}

static void test_special_cfgs(void)
{
    /* infinite loop and a guarded exit must not hang or crash */
    struct ptx_module *m = parse_str(HDR ".entry k()\n{\n .reg .pred %p1;\n .reg .b32 %r1;\n"
                                         " mov.u32 %r1, %tid.x;\n setp.eq.u32 %p1, %r1, 0;\n"
                                         " @%p1 bra SPIN;\n ret;\nSPIN:\n bra.uni SPIN;\n}\n");
    TAP_OK(m != NULL, "kernel with an infinite loop parses");
    if (m) {
        const struct ptx_func *fn = &m->funcs[0];
        TAP_OK(fn->insns[2].reconv == PTX_PC_EXIT, "branch into an endless loop reconverges at exit");
        ptx_module_free(m);
    }
    /* predicated definition must not kill liveness */
    m = parse_str(HDR ".entry k(.param .u64 p)\n{\n .reg .pred %p1;\n .reg .b32 %r<4>;\n .reg .b64 %rd1;\n"
                      " ld.param.u64 %rd1, [p];\n mov.u32 %r1, 1;\n setp.eq.u32 %p1, %r1, 0;\n"
                      " @%p1 mov.u32 %r1, 2;\n st.global.u32 [%rd1], %r1;\n ret;\n}\n");
    TAP_OK(m != NULL, "predicated def snippet parses");
    if (m) {
        const struct ptx_func *fn = &m->funcs[0];
        int32_t r1 = vreg(fn, "%r1");
        TAP_OK(live_in(fn, 3, r1), "%%r1 stays live into a guarded redefinition");
        TAP_OK(fn->regs[vreg(fn, "%rd1")].phys % 2 == 0, "64-bit register in an even-aligned pair");
        TAP_EQ_U64(fn->regs_alloc, 3, "rd1 (2) + r1 (1) = 3 registers");
        TAP_EQ_U64(fn->preds_alloc, 1, "1 predicate register");
        ptx_module_free(m);
    }
    /* branch to a label at the very end of the body */
    m = parse_str(HDR ".entry k()\n{\n .reg .pred %p1;\n setp.eq.u32 %p1, 1, 0;\n @%p1 bra END;\n ret;\nEND:\n}\n");
    TAP_OK(m && m->funcs[0].insns[1].target == 3 && m->funcs[0].insns[1].reconv == PTX_PC_EXIT,
           "label after the last instruction: branch leaves the function");
    ptx_module_free(m);
    /* empty body */
    m = parse_str(HDR ".entry k()\n{\n}\n");
    TAP_OK(m && m->funcs[0].n_insns == 0 && m->funcs[0].cfg.n_blocks == 0 && m->funcs[0].regs_alloc == 0,
           "empty kernel body");
    ptx_module_free(m);
}

/* Naive liveness reference: v is live-in at pc if some path from pc reads v
 * before an unguarded write. Depth-first search over instruction successors. */
static bool ref_reads_first(const struct ptx_func *fn, uint32_t start, int32_t v, uint8_t *seen);

struct probe {
    int32_t v;
    bool use, def;
};

static void probe_visit(int32_t r, int is_def, void *p)
{
    struct probe *pr = p;
    if (r != pr->v)
        return;
    if (is_def)
        pr->def = true;
    else
        pr->use = true;
}

static bool ref_reads_first(const struct ptx_func *fn, uint32_t start, int32_t v, uint8_t *seen)
{
    uint32_t *stack = malloc(((size_t)fn->n_insns + 1) * 2 * sizeof *stack);
    uint32_t sp = 0;
    bool found = false;
    stack[sp++] = start;
    while (sp && !found) {
        uint32_t pc = stack[--sp];
        if (pc >= fn->n_insns || seen[pc])
            continue;
        seen[pc] = 1;
        const struct ptx_insn *in = &fn->insns[pc];
        struct probe pr = {v, false, false};
        ptx_insn_for_each_reg(in, probe_visit, &pr);
        if (pr.use) {
            found = true;
            break;
        }
        if (pr.def && in->guard < 0)
            continue;
        bool term = in->op == PTX_OP_RET || in->op == PTX_OP_EXIT || in->op == PTX_OP_TRAP || in->op == PTX_OP_BRA;
        if (in->op == PTX_OP_BRA)
            stack[sp++] = in->target;
        if (!term || in->guard >= 0)
            stack[sp++] = pc + 1;
    }
    free(stack);
    return found;
}

/* ---------------------------------------------------- executor slots */

struct refs {
    int32_t defs[32], uses[32];
    uint32_t n_defs, n_uses;
};

static void refs_visit(int32_t v, int is_def, void *p)
{
    struct refs *r = p;
    if (v < 0)
        return;
    if (is_def && r->n_defs < 32)
        r->defs[r->n_defs++] = v;
    else if (!is_def && r->n_uses < 32)
        r->uses[r->n_uses++] = v;
}

/* Put the registers live in `set` (or v alone) into owner[]: false when a
 * slot already holds a different register of the same group. */
static bool own(const struct ptx_func *fn, int32_t *owner, int32_t v)
{
    int32_t k = fn->regs[v].slot;
    if (k < 0 || (uint32_t)k >= fn->n_slots)
        return false;
    if (owner[k] >= 0 && owner[k] != v)
        return false;
    owner[k] = v;
    return true;
}

static bool own_set(const struct ptx_func *fn, int32_t *owner, const uint64_t *set)
{
    for (uint32_t v = 0; v < fn->n_regs; v++)
        if (((set[v / 64] >> (v % 64)) & 1) && !own(fn, owner, (int32_t)v))
            return false;
    return true;
}

static int32_t mapped(const struct ptx_func *fn, int32_t v)
{
    return v >= 0 && (uint32_t)v < fn->n_regs ? fn->regs[v].slot : v;
}

/* The slot assignment is safe for the executor: see NOTE(reg-slots). */
static bool slots_valid(const struct ptx_func *fn, const char **why)
{
    uint32_t w = fn->live.words;
    int32_t *owner = malloc((fn->n_slots + 1) * sizeof *owner);
    uint32_t *sharing = calloc(fn->n_slots + 1, sizeof *sharing);
    bool ok = fn->n_slots <= fn->n_regs && fn->xinsns && fn->xcall_args;
    *why = "slot count or copies";
    for (uint32_t v = 0; ok && v < fn->n_regs; v++)
        if (fn->regs[v].slot >= 0)
            ok = (uint32_t)fn->regs[v].slot < fn->n_slots && ++sharing[fn->regs[v].slot];
    for (uint32_t pc = 0; ok && pc < fn->n_insns; pc++) {
        const struct ptx_insn *in = &fn->insns[pc], *x = &fn->xinsns[pc];
        struct refs r = {.n_defs = 0};
        ptx_insn_for_each_reg(in, refs_visit, &r);
        for (uint32_t k = 0; k <= fn->n_slots; k++)
            owner[k] = -1;
        *why = "a def shares a slot with a register live after it";
        for (uint32_t i = 0; ok && i < r.n_defs; i++)
            ok = own(fn, owner, r.defs[i]);
        ok = ok && own_set(fn, owner, fn->live.live_out + (size_t)pc * w);
        *why = "a use shares a slot with a def of its instruction";
        for (uint32_t i = 0; ok && i < r.n_uses; i++)
            ok = owner[fn->regs[r.uses[i]].slot] < 0 || owner[fn->regs[r.uses[i]].slot] == r.uses[i];
        *why = "two registers live before an instruction share a slot";
        for (uint32_t k = 0; ok && k <= fn->n_slots; k++)
            owner[k] = -1;
        ok = ok && own_set(fn, owner, fn->live.live_in + (size_t)pc * w);
        *why = "a delayed-write destination or a shfl source shares its slot";
        bool deferred = ((in->op == PTX_OP_LD || in->op == PTX_OP_LDU) &&
                         (in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_GENERIC)) ||
                        in->op == PTX_OP_ATOM || in->op == PTX_OP_BAR;
        if (deferred)
            for (uint32_t i = 0; ok && i < r.n_defs; i++)
                ok = sharing[fn->regs[r.defs[i]].slot] == 1;
        if (in->op == PTX_OP_SHFL)
            for (uint32_t i = 0; ok && i < r.n_uses; i++)
                ok = sharing[fn->regs[r.uses[i]].slot] == 1;
        *why = "the executor's copy is not the renamed instruction";
        ok = ok && x->op == in->op && x->guard == mapped(fn, in->guard);
        for (unsigned k = 0; ok && k < (unsigned)in->n_dst + in->n_src && k < PTX_MAX_OPNDS; k++) {
            const struct ptx_operand *a = &in->opnd[k], *b = &x->opnd[k];
            if (a->kind == PTX_OPND_VEC)
                for (unsigned e = 0; e < a->n && e < 4; e++)
                    ok = ok && b->vec[e] == mapped(fn, a->vec[e]);
            else if (a->kind == PTX_OPND_REG || a->kind == PTX_OPND_ADDR || a->kind == PTX_OPND_SYM)
                ok = b->reg == mapped(fn, a->reg);
        }
    }
    for (uint32_t i = 0; ok && i < fn->n_call_args; i++) {
        const struct ptx_operand *a = &fn->call_args[i];
        *why = "a call argument shares its slot or is not renamed";
        if (a->kind == PTX_OPND_REG && a->reg >= 0)
            ok = sharing[fn->regs[a->reg].slot] == 1 && fn->xcall_args[i].reg == fn->regs[a->reg].slot;
    }
    if (ok && fn->n_insns) {
        *why = "two registers live at entry share a slot";
        for (uint32_t k = 0; k <= fn->n_slots; k++)
            owner[k] = -1;
        ok = own_set(fn, owner, fn->live.live_in);
    }
    free(owner);
    free(sharing);
    return ok;
}

static void validate_slots(const struct ptx_module *m, const char *name, uint32_t *regs, uint32_t *slots)
{
    for (uint32_t f = 0; f < m->n_funcs; f++) {
        const struct ptx_func *fn = &m->funcs[f];
        if (!fn->has_body)
            continue;
        const char *why = "";
        bool ok = slots_valid(fn, &why);
        TAP_OK(ok, "%s/%s: executor slots respect liveness (%u registers in %u slots)%s%s", name, fn->name,
               fn->n_regs, fn->n_slots, ok ? "" : ": ", ok ? "" : why);
        TAP_OK(ptx_slots_check(fn), "%s/%s: the pass's own check agrees", name, fn->name);
        *regs += fn->n_regs;
        *slots += fn->n_slots;
    }
}

static void validate_module(const struct ptx_module *m, const char *name)
{
    for (uint32_t f = 0; f < m->n_funcs; f++) {
        const struct ptx_func *fn = &m->funcs[f];
        if (!fn->has_body)
            continue;
        /* (1) allocation: live-out regs of each instruction and its defs use disjoint slots */
        bool ok = true, aligned = true, within = true;
        uint8_t *slot = calloc(2 * fn->n_regs + 8, 1);
        uint8_t *pslot = calloc(fn->n_regs + 8, 1);
        for (uint32_t pc = 0; pc < fn->n_insns && ok; pc++) {
            memset(slot, 0, 2 * fn->n_regs + 8);
            memset(pslot, 0, fn->n_regs + 8);
            for (uint32_t v = 0; v < fn->n_regs && ok; v++) {
                if (!live_out(fn, pc, (int32_t)v))
                    continue;
                const struct ptx_reg *r = &fn->regs[v];
                if (r->phys < 0) {
                    ok = false;
                    break;
                }
                if (r->is_pred) {
                    ok = !pslot[r->phys]++;
                    continue;
                }
                for (unsigned j = 0; j < r->n_phys; j++)
                    ok = ok && !slot[r->phys + j]++;
            }
        }
        for (uint32_t v = 0; v < fn->n_regs; v++) {
            const struct ptx_reg *r = &fn->regs[v];
            if (!r->is_pred && r->n_phys == 2 && r->phys >= 0 && r->phys % 2)
                aligned = false;
            if (!r->is_pred && r->phys >= 0 && (uint32_t)r->phys + r->n_phys > fn->regs_alloc)
                within = false;
        }
        free(slot);
        free(pslot);
        TAP_OK(ok, "%s/%s: no two simultaneously live registers share a physical register", name, fn->name);
        TAP_OK(aligned && within, "%s/%s: pairs aligned, all slots < regs_alloc (%u)", name, fn->name,
               fn->regs_alloc);
        /* (2) liveness against the naive reference, on a sample of pcs */
        bool lv = true;
        uint8_t *seen = calloc(fn->n_insns + 1, 1);
        for (uint32_t pc = 0; pc < fn->n_insns && lv; pc += 1 + fn->n_insns / 40) {
            for (uint32_t v = 0; v < fn->n_regs && lv; v++) {
                memset(seen, 0, fn->n_insns + 1);
                bool want = ref_reads_first(fn, pc, (int32_t)v, seen);
                if (want != live_in(fn, pc, (int32_t)v)) {
                    printf("#   %s pc %u %s: ref %d got %d\n", fn->name, pc, fn->regs[v].name, want,
                           live_in(fn, pc, (int32_t)v));
                    lv = false;
                }
            }
        }
        free(seen);
        TAP_OK(lv, "%s/%s: liveness matches the path-search reference", name, fn->name);
        if (fn->regs_ptxas > 0)
            printf("# %s/%s: allocator %u registers, ptxas %d\n", name, fn->name, fn->regs_alloc, fn->regs_ptxas);
    }
}

static void test_committed(void)
{
    DIR *dir = opendir(PTX_DIR);
    if (!dir) {
        tap_bail("cannot open %s", PTX_DIR);
        return;
    }
    struct dirent *e;
    while ((e = readdir(dir))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".ptx") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", PTX_DIR, e->d_name);
        struct diag d;
        diag_init(&d);
        struct ptx_module *m = NULL;
        if (ptx_load_file(path, &m, &d) == PTX_OK) {
            validate_module(m, e->d_name);
            uint32_t regs = 0, slots = 0;
            validate_slots(m, e->d_name, &regs, &slots);
            /* every conditional branch got a reconvergence PC */
            bool rc = true;
            for (uint32_t f = 0; f < m->n_funcs; f++)
                for (uint32_t i = 0; i < m->funcs[f].n_insns; i++) {
                    const struct ptx_insn *in = &m->funcs[f].insns[i];
                    if (in->op == PTX_OP_BRA && in->guard >= 0 && in->reconv == PTX_PC_NONE)
                        rc = false;
                    if (in->reconv != PTX_PC_NONE && in->reconv != PTX_PC_EXIT && in->reconv > m->funcs[f].n_insns)
                        rc = false;
                }
            TAP_OK(rc, "%s: every conditional branch has a valid reconvergence PC", e->d_name);
        } else {
            TAP_OK(0, "%s parses", e->d_name);
        }
        ptx_module_free(m);
        diag_fini(&d);
    }
    closedir(dir);
}

/* Every workload's kernel: slots valid, and fewer slots than registers in all. */
static void test_slots_workloads(void)
{
    const char *wdir = GPUSIM_SOURCE_DIR "/workloads";
    DIR *dir = opendir(wdir);
    if (!dir) {
        tap_bail("cannot open %s", wdir);
        return;
    }
    struct dirent *e;
    uint32_t regs = 0, slots = 0, n = 0;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s/kernel.ptx", wdir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        fclose(f);
        struct diag d;
        diag_init(&d);
        struct ptx_module *m = NULL;
        if (ptx_load_file(path, &m, &d) == PTX_OK) {
            validate_slots(m, e->d_name, &regs, &slots);
            n++;
        } else {
            TAP_OK(0, "workloads/%s/kernel.ptx parses", e->d_name);
        }
        ptx_module_free(m);
        diag_fini(&d);
    }
    closedir(dir);
    printf("# %u workload modules: %u registers in %u slots\n", n, regs, slots);
    TAP_OK(n >= 40 && slots * 2 < regs, "workload kernels: at least 40 modules, under half as many slots as registers");
}

/* Hand-made cases: sharing where lifetimes do not overlap, a dead load's
 * destination and shfl's sources alone, a guarded redefinition kept apart
 * from what is live across it, and the validators refusing a bad slot. */
static void test_slots_small(void)
{
    struct ptx_module *m = parse_str(
        HDR ".entry k(.param .u64 p)\n{\n .reg .pred %p<3>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<3>;\n"
            " ld.param.u64 %rd1, [p];\n"                /* 0 */
            " ld.global.u32 %r1, [%rd1];\n"             /* 1: dead load */
            " mov.u32 %r2, %tid.x;\n"                   /* 2 */
            " add.s32 %r3, %r2, 1;\n"                   /* 3: r2 dies, r3 may take its slot? no: src/dst apart */
            " add.s32 %r4, %r3, 2;\n"                   /* 4: r3 dies */
            " add.s32 %r5, %r4, 3;\n"                   /* 5: r4 dies; r5 may reuse r2's or r3's slot */
            " shfl.sync.bfly.b32 %r6, %r5, 1, 31, -1;\n" /* 6: r5 shfl source */
            " setp.eq.u32 %p1, %r6, 0;\n"               /* 7 */
            " @%p1 mov.u32 %r7, 9;\n"                    /* 8: guarded def of r7 (live at entry) */
            " add.s32 %r8, %r6, %r7;\n"                 /* 9 */
            " st.global.u32 [%rd1], %r8;\n"             /* 10 */
            " ret;\n}\n");
    TAP_OK(m != NULL, "slots snippet parses");
    if (!m)
        return;
    struct ptx_func *fn = &m->funcs[0];
    const char *why = "";
    TAP_OK(slots_valid(fn, &why) && ptx_slots_check(fn), "snippet: slots valid");
    int32_t r1 = vreg(fn, "%r1"), r2 = vreg(fn, "%r2"), r3 = vreg(fn, "%r3"), r4 = vreg(fn, "%r4"),
            r5 = vreg(fn, "%r5"), r7 = vreg(fn, "%r7"), r8 = vreg(fn, "%r8"), rd1 = vreg(fn, "%rd1");
    uint32_t same_as_r1 = 0, same_as_r5 = 0;
    for (uint32_t v = 0; v < fn->n_regs; v++) {
        same_as_r1 += fn->regs[v].slot == fn->regs[r1].slot;
        same_as_r5 += fn->regs[v].slot == fn->regs[r5].slot;
    }
    TAP_OK(same_as_r1 == 1 && same_as_r5 == 1, "a dead load's destination and a shfl source have slots of their own");
    TAP_OK(fn->regs[r3].slot != fn->regs[r2].slot && fn->regs[r4].slot != fn->regs[r3].slot,
           "an instruction's source and destination never share");
    TAP_OK(fn->regs[r4].slot == fn->regs[r2].slot, "a register whose life starts after another's ends takes its slot");
    TAP_OK(fn->regs[r7].slot != fn->regs[rd1].slot && fn->regs[r7].slot != fn->regs[r8].slot,
           "a register live from entry (guarded def) shares with nothing live meanwhile");
    TAP_OK(fn->n_slots < fn->n_regs, "fewer slots (%u) than registers (%u)", fn->n_slots, fn->n_regs);
    /* a bad assignment: rd1 (live from 0 to 10) onto r2's slot */
    int32_t keep = fn->regs[rd1].slot;
    fn->regs[rd1].slot = fn->regs[r2].slot;
    TAP_OK(!slots_valid(fn, &why) && !ptx_slots_check(fn), "both validators refuse two live registers in one slot");
    fn->regs[rd1].slot = keep;
    ptx_module_free(m);
}

/* A custom pass through the public pipeline API. */
static int count_pass(struct ptx_func *fn, void *ctx)
{
    *(uint32_t *)ctx += fn->n_insns;
    return 0;
}
static int stop_pass(struct ptx_func *fn, void *ctx)
{
    (void)fn;
    (void)ctx;
    return -1;
}

static void test_pipeline(void)
{
    TAP_OK(ptx_n_builtin_passes == 3 && strcmp(ptx_builtin_passes[0].name, "liveness") == 0 &&
               strcmp(ptx_builtin_passes[1].name, "regalloc") == 0 && strcmp(ptx_builtin_passes[2].name, "slots") == 0,
           "built-in pipeline: liveness, regalloc, slots");
    struct ptx_module *m = parse_str(if_loop_src);
    if (!m)
        return;
    uint32_t total = 0;
    const struct ptx_pass extra[] = {{"count", count_pass}};
    TAP_OK(ptx_module_run_passes(m, extra, 1, &total, NULL) == 0 && total == 17, "custom pass sees every instruction");
    const struct ptx_pass stop[] = {{"stop", stop_pass}, {"count", count_pass}};
    const char *failed = NULL;
    total = 0;
    TAP_OK(ptx_module_run_passes(m, stop, 2, &total, &failed) == -1 && total == 0 && failed &&
               strcmp(failed, "stop") == 0,
           "a failing pass stops the pipeline and is named");
    /* re-running the built-in passes is idempotent */
    uint32_t before = m->funcs[0].regs_alloc;
    TAP_OK(ptx_module_run_passes(m, ptx_builtin_passes, ptx_n_builtin_passes, NULL, NULL) == 0 &&
               m->funcs[0].regs_alloc == before,
           "built-in passes can be re-run");
    ptx_module_free(m);
}

int main(void)
{
    tap_no_plan();
    test_ipdom();
    test_special_cfgs();
    test_committed();
    test_slots_workloads();
    test_slots_small();
    test_pipeline();
    return tap_exit();
}
