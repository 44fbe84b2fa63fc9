/* tests/test_ptx_parse.c: PTX front-end decoding tests.
 *
 * Parses every committed .ptx file in tests/ptx (nvcc 13 output, with ptxas
 * register sidecars) and checks decoded facts: parameter layout, register
 * classes, opcodes/types/modifiers, immediates (0f/0d, negative, hex),
 * address expressions, variables with initialisers, kernel attributes,
 * calls, special registers, nested scopes; plus handwritten snippets for
 * edge cases and a 10k-line kernel (valid analyses; its speed is bench/func (c)).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/ptx/passes/passes.h"
#include "sim/ptx/ptx.h"
#include "support/ptx_big.h"
#include "tap.h"

#ifndef GPUSIM_SOURCE_DIR
#define GPUSIM_SOURCE_DIR "."
#endif
#define PTX_DIR GPUSIM_SOURCE_DIR "/tests/ptx"

static struct ptx_module *load(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", PTX_DIR, name);
    struct diag d;
    diag_init(&d);
    struct ptx_module *m = NULL;
    if (ptx_load_file(path, &m, &d) != PTX_OK) {
        diag_print(&d, stdout);
        m = NULL;
    }
    diag_fini(&d);
    return m;
}

static struct ptx_module *parse_str(const char *text, struct diag *d)
{
    struct ptx_module *m = NULL;
    ptx_parse(text, strlen(text), "snippet.ptx", &m, d);
    return m;
}

/* n-th (0-based) instruction with opcode op, or NULL. */
static const struct ptx_insn *find_insn(const struct ptx_func *fn, enum ptx_op op, unsigned nth)
{
    for (uint32_t i = 0; i < fn->n_insns; i++)
        if (fn->insns[i].op == op && nth-- == 0)
            return &fn->insns[i];
    return NULL;
}

static uint32_t pc_of(const struct ptx_func *fn, const struct ptx_insn *in)
{
    return (uint32_t)(in - fn->insns);
}

static uint64_t read_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* ------------------------------------------------------------------ */
static void test_all_files(void)
{
    DIR *dir = opendir(PTX_DIR);
    if (!dir) {
        tap_bail("cannot open %s", PTX_DIR);
        return;
    }
    unsigned n = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".ptx") != 0)
            continue;
        struct ptx_module *m = load(e->d_name);
        TAP_OK(m != NULL, "%s parses with zero errors", e->d_name);
        if (!m)
            continue;
        n++;
        /* every entry got its ptxas count from the sidecar */
        bool all = true;
        for (uint32_t f = 0; f < m->n_funcs; f++) {
            const struct ptx_func *fn = &m->funcs[f];
            if (fn->is_entry && (fn->regs_ptxas <= 0 || fn->regs_per_thread != (uint32_t)fn->regs_ptxas))
                all = false;
            if (!fn->is_entry && fn->regs_per_thread != fn->regs_alloc)
                all = false;
            if (fn->has_body && fn->cfg.n_blocks == 0)
                all = false;
        }
        TAP_OK(all, "%s: sidecar applied to every kernel, CFG built", e->d_name);
        ptx_module_free(m);
    }
    closedir(dir);
    TAP_OK(n >= 9, "parsed %u committed PTX files", n);
}

static void test_vecadd(void)
{
    struct ptx_module *m = load("vecadd.ptx");
    if (!m) {
        tap_bail("vecadd.ptx");
        return;
    }
    TAP_EQ_U64(m->version_major, 9, ".version major");
    TAP_EQ_U64(m->target_sm, 75, ".target sm_75");
    TAP_EQ_U64(m->address_size, 64, ".address_size");
    const struct ptx_func *fn = ptx_module_find(m, "vecadd");
    TAP_OK(fn && fn->is_entry && fn->linkage == PTX_LINK_VISIBLE, "vecadd is a visible entry");
    if (!fn)
        return;
    TAP_EQ_U64(fn->n_params, 4, "4 params");
    TAP_EQ_U64(fn->params[0].offset, 0, "param 0 offset");
    TAP_EQ_U64(fn->params[2].offset, 16, "param 2 offset");
    TAP_EQ_U64(fn->params[3].offset, 24, "param 3 offset");
    TAP_EQ_U64(fn->params[3].size, 4, "param 3 size (u32)");
    TAP_EQ_U64(fn->params[1].size, 8, "param 1 size (u64)");
    TAP_EQ_U64(fn->param_bytes, 28, "param buffer bytes");
    TAP_EQ_U64(fn->n_insns, 22, "22 instructions");
    TAP_EQ_U64(fn->n_pred_regs, 1, "1 predicate used (%%p1)");
    TAP_EQ_U64(fn->n_regs_by_bytes[4], 8, "8 32-bit vregs (%%r1-5, %%f1-3)");
    TAP_EQ_U64(fn->n_regs_by_bytes[8], 10, "10 64-bit vregs (%%rd1-10)");
    TAP_EQ_U64(fn->regs_ptxas, 12, "sidecar: ptxas used 12 registers");
    TAP_EQ_U64(fn->regs_per_thread, 12, "occupancy count = sidecar");

    const struct ptx_insn *ld3 = &fn->insns[3];
    TAP_OK(ld3->op == PTX_OP_LD && ld3->space == PTX_SPACE_PARAM && ld3->type == PTX_T_U32,
           "insn 3 is ld.param.u32");
    TAP_OK(ld3->opnd[1].kind == PTX_OPND_ADDR && ld3->opnd[1].base == PTX_BASE_STATIC &&
               ld3->opnd[1].reg == -1,
           "ld.param operand is a static param address");
    TAP_EQ_U64(ld3->opnd[1].imm, 24, "ld.param [vecadd_param_3] -> offset 24");
    TAP_STREQ(fn->regs[ld3->opnd[0].reg].name, "%r2", "destination register is %%r2");
    const struct ptx_insn *mov = &fn->insns[4];
    TAP_OK(mov->op == PTX_OP_MOV && mov->opnd[1].kind == PTX_OPND_SREG &&
               mov->opnd[1].sreg == PTX_SREG_CTAID_X,
           "mov.u32 %%r3, %%ctaid.x");
    const struct ptx_insn *mad = find_insn(fn, PTX_OP_MAD, 0);
    TAP_OK(mad && mad->mode == PTX_MODE_LO && mad->type == PTX_T_S32 && mad->n_dst == 1 && mad->n_src == 3,
           "mad.lo.s32 decoded");
    const struct ptx_insn *setp = find_insn(fn, PTX_OP_SETP, 0);
    TAP_OK(setp && setp->cmp == PTX_CMP_GE && setp->type == PTX_T_S32 && setp->bop == PTX_BOOL_NONE,
           "setp.ge.s32 decoded");
    const struct ptx_insn *bra = find_insn(fn, PTX_OP_BRA, 0);
    const struct ptx_insn *ret = find_insn(fn, PTX_OP_RET, 0);
    TAP_OK(bra && ret && bra->guard >= 0 && !bra->guard_neg && fn->regs[bra->guard].is_pred,
           "@%%p1 bra is guarded");
    TAP_EQ_U64(bra->target, pc_of(fn, ret), "label $L__BB0_2 resolves to the ret");
    TAP_EQ_U64(bra->reconv, pc_of(fn, ret), "if-without-else reconverges at the join (ret)");
    const struct ptx_insn *mw = find_insn(fn, PTX_OP_MUL, 0);
    TAP_OK(mw && mw->mode == PTX_MODE_WIDE && mw->opnd[2].kind == PTX_OPND_IMM && mw->opnd[2].imm == 4,
           "mul.wide.s32 %%rd5, %%r1, 4");
    const struct ptx_insn *cvta = find_insn(fn, PTX_OP_CVTA, 0);
    TAP_OK(cvta && (cvta->flags & PTX_F_CVTA_TO) && cvta->space == PTX_SPACE_GLOBAL && cvta->type == PTX_T_U64,
           "cvta.to.global.u64");
    const struct ptx_insn *st = find_insn(fn, PTX_OP_ST, 0);
    TAP_OK(st && st->space == PTX_SPACE_GLOBAL && st->type == PTX_T_F32 && st->n_dst == 0 && st->n_src == 2 &&
               st->opnd[0].kind == PTX_OPND_ADDR && st->opnd[0].reg >= 0 && st->opnd[0].imm == 0,
           "st.global.f32 [%%rd10], %%f3");
    TAP_EQ_U64(ptx_op_unit(PTX_OP_LD), PTX_UNIT_MEM, "ld is a MEM-unit op");
    ptx_module_free(m);
}

static void test_globals_and_attrs(void)
{
    struct ptx_module *m = load("globals.ptx");
    if (!m) {
        tap_bail("globals.ptx");
        return;
    }
    int ci = ptx_module_find_var(m, "coeffs");
    TAP_OK(ci >= 0, "const array coeffs present");
    const struct ptx_var *c = &m->vars[ci];
    TAP_OK(c->space == PTX_SPACE_CONST && c->size == 32 && c->align == 4 && c->init,
           ".const .align 4 .b8 coeffs[32] = {...}");
    TAP_EQ_U64(read_le(c->init, 4), 0x3f800000, "coeffs[0] = 1.0f");
    TAP_EQ_U64(read_le(c->init + 16, 4), 0xbf800000, "coeffs[4] = -1.0f");
    TAP_EQ_U64(read_le(c->init + 28, 4), 0, "coeffs[7] = 0 (zero-filled tail)");
    int gi = ptx_module_find_var(m, "g_counter");
    TAP_OK(gi >= 0 && m->vars[gi].size == 8 && m->vars[gi].init &&
               read_le(m->vars[gi].init, 8) == 0x123456789ull,
           ".global .u64 g_counter = 4886718345");
    int si = ptx_module_find_var(m, "g_short");
    TAP_OK(si >= 0 && m->vars[si].size == 2 && read_le(m->vars[si].init, 2) == 0xfff9,
           ".global .u16 g_short = -7");
    int ai = ptx_module_find_var(m, "g_array");
    TAP_OK(ai >= 0 && m->vars[ai].size == 64 && m->vars[ai].init == NULL, "g_array[64] zero-initialised");
    const struct ptx_func *fn = ptx_module_find(m, "globals");
    TAP_OK(fn != NULL, "globals kernel");
    if (!fn)
        return;
    TAP_OK(fn->params[0].size == 32 && fn->params[0].align == 8 && fn->params[1].offset == 32,
           ".param .align 8 .b8 p[32]; next param at 32");
    TAP_EQ_U64(fn->local_bytes, 64, ".local depot frame 64 bytes");
    TAP_EQ_U64(fn->local_align, 16, ".local frame aligned 16");
    /* ld.param.v2.f32 {%f21, %f22}, [globals_param_0+16] */
    const struct ptx_insn *ldv = NULL;
    for (uint32_t i = 0; i < fn->n_insns && !ldv; i++)
        if (fn->insns[i].op == PTX_OP_LD && fn->insns[i].vec == 2)
            ldv = &fn->insns[i];
    TAP_OK(ldv && ldv->opnd[0].kind == PTX_OPND_VEC && ldv->opnd[0].n == 2 && ldv->opnd[1].imm == 16,
           "ld.param.v2.f32 {..}, [p+16]");
    const struct ptx_insn *stv = NULL;
    for (uint32_t i = 0; i < fn->n_insns && !stv; i++)
        if (fn->insns[i].op == PTX_OP_ST && fn->insns[i].vec == 4 && fn->insns[i].opnd[0].imm == 48)
            stv = &fn->insns[i];
    TAP_OK(stv && stv->space == PTX_SPACE_LOCAL && stv->opnd[1].kind == PTX_OPND_VEC && stv->opnd[1].n == 4,
           "st.local.v4.f32 [%%rd1+48], {...}");
    /* mov.u64 %SPL, __local_depot0 */
    const struct ptx_insn *mv = NULL;
    for (uint32_t i = 0; i < fn->n_insns && !mv; i++)
        if (fn->insns[i].op == PTX_OP_MOV && fn->insns[i].opnd[1].kind == PTX_OPND_SYM)
            mv = &fn->insns[i];
    TAP_OK(mv && mv->opnd[1].space == PTX_SPACE_LOCAL && mv->opnd[1].base == PTX_BASE_STATIC,
           "mov %%SPL, __local_depot0 is a static local symbol");
    /* mov.u64 %rdN, coeffs: module variable */
    const struct ptx_insn *mc = NULL;
    for (uint32_t i = 0; i < fn->n_insns && !mc; i++)
        if (fn->insns[i].op == PTX_OP_MOV && fn->insns[i].opnd[1].kind == PTX_OPND_SYM &&
            fn->insns[i].opnd[1].base == PTX_BASE_MODVAR)
            mc = &fn->insns[i];
    TAP_OK(mc && mc->opnd[1].space == PTX_SPACE_CONST && (mc->opnd[1].flags & PTX_OF_MODSYM) &&
               strcmp(m->vars[mc->opnd[1].sym].name, "coeffs") == 0,
           "mov %%rd, coeffs refers to module var 'coeffs'");
    ptx_module_free(m);

    m = load("reduce.ptx");
    fn = m ? ptx_module_find(m, "reduce_sum") : NULL;
    TAP_OK(fn && fn->maxntid[0] == 256 && fn->maxntid[1] == 1 && fn->maxntid[2] == 1 && fn->minnctapersm == 2,
           ".maxntid 256, 1, 1 / .minnctapersm 2");
    TAP_OK(fn && fn->shared_static_bytes == 32 && !fn->uses_dyn_shared, "32 bytes of static shared memory");
    const struct ptx_insn *sh = fn ? find_insn(fn, PTX_OP_SHFL, 0) : NULL;
    TAP_OK(sh && sh->mode == PTX_MODE_DOWN && (sh->flags & PTX_F_SYNC) && sh->type == PTX_T_B32 &&
               sh->n_dst == 2 && sh->n_src == 4 && (sh->flags & PTX_F_PRED_OUT),
           "shfl.sync.down.b32 d|p, a, b, c, mask");
    const struct ptx_insn *bar = fn ? find_insn(fn, PTX_OP_BAR, 0) : NULL;
    TAP_OK(bar && bar->mode == PTX_MODE_SYNC && bar->n_src == 1 && bar->opnd[0].kind == PTX_OPND_IMM,
           "bar.sync 0");
    const struct ptx_insn *at = fn ? find_insn(fn, PTX_OP_ATOM, 0) : NULL;
    TAP_OK(at && at->aop == PTX_AOP_ADD && at->type == PTX_T_F32 && at->space == PTX_SPACE_GLOBAL,
           "atom.global.add.f32");
    ptx_module_free(m);

    m = load("sync_misc.ptx");
    fn = m ? ptx_module_find(m, "sync_misc") : NULL;
    TAP_OK(fn && fn->uses_dyn_shared && fn->shared_static_bytes == 0 && fn->dyn_shared_offset == 0,
           "extern .shared smem[]: dynamic shared, starts at 0");
    const struct ptx_insn *ms = NULL;
    for (uint32_t i = 0; fn && i < fn->n_insns && !ms; i++)
        if (fn->insns[i].op == PTX_OP_MOV && fn->insns[i].opnd[1].kind == PTX_OPND_SYM)
            ms = &fn->insns[i];
    TAP_OK(ms && ms->opnd[1].base == PTX_BASE_DYNSHARED && ms->opnd[1].space == PTX_SPACE_SHARED,
           "mov %%r, smem -> dynamic shared base");
    const struct ptx_insn *cas = NULL;
    for (uint32_t i = 0; fn && i < fn->n_insns && !cas; i++)
        if (fn->insns[i].op == PTX_OP_ATOM && fn->insns[i].aop == PTX_AOP_CAS)
            cas = &fn->insns[i];
    TAP_OK(cas && cas->n_src == 3 && cas->type == PTX_T_B32, "atom.global.cas.b32 d, [a], b, c");
    const struct ptx_insn *vb = NULL;
    for (uint32_t i = 0; fn && i < fn->n_insns && !vb; i++)
        if (fn->insns[i].op == PTX_OP_VOTE && fn->insns[i].mode == PTX_MODE_BALLOT)
            vb = &fn->insns[i];
    TAP_OK(vb && (vb->flags & PTX_F_SYNC) && vb->type == PTX_T_B32 && vb->n_src == 2, "vote.sync.ballot.b32");
    const struct ptx_insn *vol = NULL;
    for (uint32_t i = 0; fn && i < fn->n_insns && !vol; i++)
        if (fn->insns[i].op == PTX_OP_LD && (fn->insns[i].flags & PTX_F_VOLATILE))
            vol = &fn->insns[i];
    TAP_OK(vol && vol->space == PTX_SPACE_GLOBAL, "ld.volatile.global");
    const struct ptx_insn *mb = fn ? find_insn(fn, PTX_OP_MEMBAR, 0) : NULL;
    TAP_OK(mb && mb->sem == PTX_SEM_SC && mb->scope == PTX_SCOPE_GPU, "membar.gl = fence.sc.gpu");
    ptx_module_free(m);
}

static void test_calls(void)
{
    struct ptx_module *m = load("devfunc.ptx");
    if (!m) {
        tap_bail("devfunc.ptx");
        return;
    }
    const struct ptx_func *mix = ptx_module_find(m, "_Z3mixffi");
    const struct ptx_func *sp = ptx_module_find(m, "_Z10store_pairPiii");
    const struct ptx_func *k = ptx_module_find(m, "devfunc");
    TAP_OK(mix && sp && k && !mix->is_entry, "two .func and one .entry");
    if (!mix || !sp || !k)
        return;
    TAP_OK(mix->n_params == 4 && mix->n_rets == 1 && mix->params[3].is_ret && mix->params[3].offset == 12,
           ".func (.param .b32 retval) f(3 params): return param after inputs at 12");
    const struct ptx_insn *c0 = find_insn(k, PTX_OP_CALL, 0);
    const struct ptx_insn *c1 = find_insn(k, PTX_OP_CALL, 1);
    TAP_OK(c0 && c0->target == mix->index && c0->call_n_ret == 1 && c0->call_n_arg == 3 && (c0->flags & PTX_F_UNI),
           "call.uni (retval0), _Z3mixffi, (param0, param1, param2)");
    TAP_OK(c1 && c1->target == sp->index && c1->call_n_ret == 0 && c1->call_n_arg == 3,
           "call.uni _Z10store_pairPiii, (3 params)");
    if (c0) {
        const struct ptx_operand *a = &k->call_args[c0->call_first];
        TAP_OK(a[0].space == PTX_SPACE_ARGS && a[1].space == PTX_SPACE_ARGS, "call arguments are call-site params");
        TAP_OK(a[1].imm != a[2].imm && a[2].imm != a[3].imm, "call-site params have distinct offsets");
    }
    TAP_OK(k->args_bytes >= 16, "call-site scratch sized (%llu bytes)", (unsigned long long)k->args_bytes);
    const struct ptx_insn *stp = find_insn(mix, PTX_OP_ST, 0);
    TAP_OK(stp && stp->space == PTX_SPACE_PARAM && stp->opnd[0].imm == 12, "st.param [func_retval0+0] -> offset 12");
    ptx_module_free(m);
}

static void test_asm_misc(void)
{
    struct ptx_module *m = load("asm_misc.ptx");
    const struct ptx_func *fn = m ? ptx_module_find(m, "asm_misc") : NULL;
    TAP_OK(fn != NULL, "asm_misc parses");
    if (!fn)
        return;
    bool seen_sreg[PTX_SREG_COUNT] = {0};
    for (uint32_t i = 0; i < fn->n_insns; i++)
        if (fn->insns[i].op == PTX_OP_MOV && fn->insns[i].opnd[1].kind == PTX_OPND_SREG)
            seen_sreg[fn->insns[i].opnd[1].sreg] = true;
    TAP_OK(seen_sreg[PTX_SREG_LANEID] && seen_sreg[PTX_SREG_WARPID] && seen_sreg[PTX_SREG_NSMID] &&
               seen_sreg[PTX_SREG_GRIDID] && seen_sreg[PTX_SREG_LANEMASK_GT] && seen_sreg[PTX_SREG_CLOCK64] &&
               seen_sreg[PTX_SREG_GLOBALTIMER] && seen_sreg[PTX_SREG_DYNAMIC_SMEM_SIZE],
           "special registers decoded");
    const struct ptx_insn *setp2 = NULL, *shp = NULL, *mat = NULL, *bred = NULL, *tp = NULL, *lop = NULL;
    const struct ptx_insn *ldacq = NULL, *stclr = NULL, *red = NULL, *xch = NULL, *fsc = NULL, *barc = NULL;
    const struct ptx_insn *minf = NULL, *maxs = NULL, *negbra = NULL;
    for (uint32_t i = 0; i < fn->n_insns; i++) {
        const struct ptx_insn *in = &fn->insns[i];
        if (in->op == PTX_OP_SETP && in->n_dst == 2) setp2 = in;
        if (in->op == PTX_OP_SHFL && (in->flags & PTX_F_PRED_OUT)) shp = in;
        if (in->op == PTX_OP_MATCH && in->mode == PTX_MODE_ALL) mat = in;
        if (in->op == PTX_OP_BAR && in->mode == PTX_MODE_RED && in->aop == PTX_AOP_POPC) bred = in;
        if (in->op == PTX_OP_TESTP && in->mode == PTX_MODE_FINITE) tp = in;
        if (in->op == PTX_OP_LOP3) lop = in;
        if (in->op == PTX_OP_LD && in->sem == PTX_SEM_ACQUIRE) ldacq = in;
        if (in->op == PTX_OP_ST && in->sem == PTX_SEM_RELEASE) stclr = in;
        if (in->op == PTX_OP_RED && in->sem == PTX_SEM_RELAXED) red = in;
        if (in->op == PTX_OP_ATOM && in->aop == PTX_AOP_EXCH && in->type == PTX_T_B64) xch = in;
        if (in->op == PTX_OP_MEMBAR && in->sem == PTX_SEM_SC && in->scope == PTX_SCOPE_GPU) fsc = in;
        if (in->op == PTX_OP_BAR && (in->flags & PTX_F_BAR_COUNT) && in->mode == PTX_MODE_SYNC) barc = in;
        if (in->op == PTX_OP_MIN && in->type == PTX_T_F64) minf = in;
        if (in->op == PTX_OP_MAX && in->type == PTX_T_S64) maxs = in;
        if (in->op == PTX_OP_BRA && in->guard_neg) negbra = in;
    }
    TAP_OK(setp2 && setp2->bop == PTX_BOOL_AND && setp2->cmp == PTX_CMP_LTU && setp2->n_src == 3 &&
               setp2->opnd[3].kind == PTX_OPND_IMM && setp2->opnd[3].imm == 0x3f800000,
           "setp.ltu.and.f32 p|q, a, 0f3F800000, 1 (two predicate destinations)");
    TAP_OK(shp && shp->n_dst == 2 && fn->regs[shp->opnd[1].reg].is_pred && shp->mode == PTX_MODE_UP,
           "shfl.sync.up.b32 d|p");
    TAP_OK(mat && mat->n_dst == 2, "match.all.sync.b32 d|p");
    TAP_OK(bred && bred->type == PTX_T_U32 && bred->n_src == 2 && fn->regs[bred->opnd[2].reg].is_pred,
           "bar.red.popc.u32 d, 0, p");
    TAP_OK(tp && fn->regs[tp->opnd[0].reg].is_pred, "testp.finite.f32");
    TAP_OK(lop && lop->opnd[4].kind == PTX_OPND_IMM && lop->opnd[4].imm == 0x96, "lop3.b32 ..., 0x96");
    TAP_OK(ldacq && ldacq->scope == PTX_SCOPE_GPU && ldacq->space == PTX_SPACE_GLOBAL, "ld.acquire.gpu.global");
    TAP_OK(stclr && stclr->scope == PTX_SCOPE_CTA, "st.release.cta.global");
    TAP_OK(red && red->aop == PTX_AOP_MAX && red->type == PTX_T_S32 && red->n_dst == 0, "red.relaxed.gpu.global.max.s32");
    TAP_OK(xch && xch->sem == PTX_SEM_ACQ_REL && xch->scope == PTX_SCOPE_SYS, "atom.acq_rel.sys.global.exch.b64");
    TAP_OK(fsc != NULL, "fence.sc.gpu");
    TAP_OK(barc && barc->n_src == 2, "barrier.sync 3, 32 (with thread count)");
    TAP_OK(minf && minf->opnd[2].kind == PTX_OPND_IMM && minf->opnd[2].imm == 0x3ff8000000000000ull,
           "min.f64 with 0d3FF8000000000000 = 1.5");
    TAP_OK(maxs && maxs->opnd[2].imm == (uint64_t)-9, "max.s64 d, a, -9 (negative immediate)");
    TAP_OK(negbra && negbra->target < fn->n_insns, "@!p bra.uni $Lskip inside an inline-asm scope");
    ptx_module_free(m);
}

/* ------------------------------------------------------------ snippets */
#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"

static void test_snippets(void)
{
    struct diag d;
    diag_init(&d);
    const char *src = HDR
        "// comment\n/* block\n comment */\n"
        ".global .align 4 .b32 tab[2][2] = {{1, 2}, {3, -4}};\n"
        ".global .f32 one = 0f3F800000;\n"
        ".global .f64 half = 0.5;\n"
        ".shared .align 8 .b8 modsh[24];\n"
        ".const .u8 bytes[] = {1, 2, 3};\n"
        ".visible .entry k(.param .u64 .ptr .global .align 16 p, .param .u32 n)\n"
        ".reqntid 64\n.maxnreg 32\n"
        "{\n"
        "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n  .reg .f32 %f<4>;\n"
        "  .shared .align 4 .b8 sh[16];\n"
        "  .loc 1 2 3\n"
        "  ld.param.u64 %rd1, [p];\n"
        "  mov.f32 %f1, 0f3F800000;\n"
        "  mov.f32 %f2, 0fBF800000;\n"
        "  mov.b32 %r1, 0xFFFFFFFF;\n"
        "  mov.u32 %r2, -1;\n"
        "  add.s32 %r3, %r2, 017;\n"
        "  ld.global.u32 %r4, [%rd1+-4];\n"
        "  ld.shared.u32 %r5, [sh+8];\n"
        "  ld.shared.u32 %r6, [modsh+4];\n"
        "  st.global.v2.u32 [%rd1+16], {%r4, %r5};\n"
        "  ld.global.v4.u32 {%r1, _, %r3, %r4}, [%rd1];\n"
        "  mov.b64 %rd2, {%r1, %r2};\n"
        "  mov.b64 {%r7, %r8}, %rd2;\n"
        "  mul.f32 %f3, %f1, 1.5;\n"
        "  cvt.rn.f64.f32 %rd3, %f3;\n"   /* wide register for f64: allowed */
        "  setp.lt.and.f32 %p1|%p2, %f1, %f2, !%p1;\n"
        "  @!%p2 exit;\n"
        "  ld.global.u32 %r9, [tab+12];\n"
        "  ret;\n"
        "}\n";
    struct ptx_module *m = parse_str(src, &d);
    diag_print(&d, stdout);
    TAP_OK(m != NULL, "handwritten snippet parses");
    if (!m) {
        diag_fini(&d);
        return;
    }
    const struct ptx_func *fn = &m->funcs[0];
    int ti = ptx_module_find_var(m, "tab");
    TAP_OK(ti >= 0 && m->vars[ti].size == 16 && read_le(m->vars[ti].init + 12, 4) == 0xfffffffcu,
           "nested initialiser {{1,2},{3,-4}}");
    int oi = ptx_module_find_var(m, "one"), hi = ptx_module_find_var(m, "half");
    TAP_OK(oi >= 0 && read_le(m->vars[oi].init, 4) == 0x3f800000, ".f32 one = 0f3F800000");
    TAP_OK(hi >= 0 && read_le(m->vars[hi].init, 8) == 0x3fe0000000000000ull, ".f64 half = 0.5");
    int bi = ptx_module_find_var(m, "bytes");
    TAP_OK(bi >= 0 && m->vars[bi].size == 3, "'[]' array sized by its initialiser");
    TAP_OK(fn->params[0].ptr_space == PTX_SPACE_GLOBAL && fn->params[0].ptr_align == 16 && fn->params[0].size == 8,
           ".param .u64 .ptr .global .align 16");
    TAP_OK(fn->reqntid[0] == 64 && fn->reqntid[1] == 1 && fn->maxnreg == 32, ".reqntid 64 / .maxnreg 32");
    TAP_EQ_U64(m->shared_module_bytes, 24, "module shared segment 24 bytes");
    TAP_EQ_U64(fn->shared_static_bytes, 40, "kernel static shared = 24 module + 16 own");
    TAP_EQ_U64(fn->insns[1].opnd[1].imm, 0x3f800000, "0f3F800000 -> 1.0f bits");
    TAP_EQ_U64(fn->insns[2].opnd[1].imm, 0xbf800000, "0fBF800000 -> -1.0f bits");
    TAP_EQ_U64(fn->insns[3].opnd[1].imm, 0xffffffffull, "hex immediate");
    TAP_EQ_U64(fn->insns[4].opnd[1].imm, UINT64_MAX, "-1 sign-extended to 64 bits");
    TAP_EQ_U64(fn->insns[5].opnd[2].imm, 15, "octal 017");
    TAP_EQ_I64((int64_t)fn->insns[6].opnd[1].imm, -4, "[%%rd1+-4] offset -4");
    TAP_EQ_U64(fn->insns[7].opnd[1].imm, 24 + 8, "[sh+8]: own shared after module segment");
    TAP_EQ_U64(fn->insns[8].opnd[1].imm, 4, "[modsh+4]: module shared at 0");
    TAP_OK(fn->insns[9].vec == 2 && fn->insns[9].opnd[1].n == 2, "st.global.v2");
    TAP_OK(fn->insns[10].opnd[0].vec[1] == -1, "'_' sink inside a destination vector");
    TAP_OK(fn->insns[11].opnd[1].kind == PTX_OPND_VEC && fn->insns[12].opnd[0].kind == PTX_OPND_VEC,
           "mov.b64 pack and unpack");
    TAP_EQ_U64(fn->insns[13].opnd[2].imm, 0x3fc00000, "decimal 1.5 as f32 bits");
    const struct ptx_insn *sp = &fn->insns[15];
    TAP_OK(sp->op == PTX_OP_SETP && sp->n_dst == 2 && (sp->opnd[4].flags & PTX_OF_NOT), "setp p|q with !c");
    const struct ptx_insn *ex = &fn->insns[16];
    TAP_OK(ex->op == PTX_OP_EXIT && ex->guard_neg && ex->reconv == PTX_PC_EXIT,
           "@!p exit: paths meet only at the virtual exit");
    TAP_OK(fn->insns[17].opnd[1].base == PTX_BASE_MODVAR && fn->insns[17].opnd[1].imm == 12, "[tab+12] module variable");
    char buf[256];
    ptx_insn_format(fn, &fn->insns[15], buf, sizeof buf);
    TAP_CONTAINS(buf, "setp.lt.and.f32", "disassembly names the modifiers");
    ptx_module_free(m);

    /* scoped registers: the same name in sibling blocks, shadowing */
    const char *sc = HDR
        ".entry s()\n{\n .reg .b32 %r<3>;\n"
        " { .reg .pred p; setp.eq.u32 p, %r1, 0; @p bra L; L: }\n"
        " { .reg .pred p; setp.ne.u32 p, %r1, 0; @p bra L; L: }\n"
        " { .reg .b32 %r1; mov.u32 %r1, 5; }\n"
        " mov.u32 %r1, 6;\n ret;\n}\n";
    diag_clear(&d);
    m = parse_str(sc, &d);
    diag_print(&d, stdout);
    TAP_OK(m != NULL, "nested scopes with repeated names parse");
    if (m) {
        fn = &m->funcs[0];
        TAP_OK(fn->insns[0].opnd[0].reg != fn->insns[2].opnd[0].reg, "sibling '.reg .pred p' are distinct vregs");
        TAP_EQ_U64(fn->insns[1].target, 2, "first L resolves in its own scope");
        TAP_EQ_U64(fn->insns[3].target, 4, "second L resolves in its own scope");
        TAP_OK(fn->insns[4].opnd[0].reg != fn->insns[5].opnd[0].reg, "inner %%r1 shadows outer %%r1");
        ptx_module_free(m);
    }
    diag_fini(&d);
}

/* The rarer forms docs/ptx.md claims to decode. */
static void test_more_forms(void)
{
    struct diag d;
    diag_init(&d);
    const char *src = HDR
        ".entry k(.param .u64 p)\n{\n"
        " .reg .pred %p<3>;\n .reg .b32 %r<10>;\n .reg .b64 %rd<4>;\n .reg .f32 %f<3>;\n .reg .b16 %rs<2>;\n"
        " ld.param.u64 %rd1, [p];\n"                              /* 0 */
        " ld.global.L2::128B.u32 %r1, [%rd1-8];\n"                 /* 1 */
        " cvt.rn.f16x2.f32 %r2, %f1, %f2;\n"                       /* 2 */
        " redux.sync.add.u32 %r3, %r1, 0xffffffff;\n"              /* 3 */
        " dp4a.u32.s32 %r4, %r1, %r2, %r3;\n"                      /* 4 */
        " shf.l.wrap.b32 %r5, %r1, %r2, %r3;\n"                    /* 5 */
        " isspacep.global %p1, %rd1;\n"                            /* 6 */
        " nanosleep.u32 100;\n"                                    /* 7 */
        " bar.warp.sync -1;\n"                                     /* 8 */
        " add.cc.u32 %r6, %r1, %r2;\n"                             /* 9 */
        " addc.u32 %r7, %r1, 0;\n"                                 /* 10 */
        " madc.hi.u32 %r8, %r1, %r2, %r3;\n"                       /* 11 */
        " cvt.rn.f16.f32 %rs1, %f1;\n"                             /* 12 */
        " mov.b16 %rs1, 0x3C00;\n"                                 /* 13 */
        " atom.shared.inc.u32 %r9, [%r1], 10;\n"                   /* 14 */
        " ld.global.nc.v4.f32 {%f1, %f2, _, _}, [%rd1];\n"         /* 15 */
        " st.global.u32 [%rd1], 7;\n"                              /* 16 */
        " bar.sync 1, 64;\n"                                       /* 17 */
        " fence.acq_rel.cta;\n"                                    /* 18 */
        " vote.any.pred %p2, !%p1;\n"                              /* 19 (pre-sm_70 form) */
        " ret.uni;\n"                                              /* 20 */
        "}\n";
    struct ptx_module *m = parse_str(src, &d);
    diag_print(&d, stdout);
    TAP_OK(m != NULL, "rarer instruction forms parse");
    if (m) {
        const struct ptx_insn *in = m->funcs[0].insns;
        TAP_OK((in[1].flags & PTX_F_HINT) && (int64_t)in[1].opnd[1].imm == -8, ".L2::128B hint and [reg-8]");
        TAP_OK(in[2].op == PTX_OP_CVT && in[2].n_src == 2 && in[2].type == PTX_T_F16X2, "cvt.rn.f16x2.f32 d, a, b");
        TAP_OK(in[3].op == PTX_OP_REDUX && in[3].aop == PTX_AOP_ADD && in[3].n_src == 2, "redux.sync.add.u32");
        TAP_OK(in[4].op == PTX_OP_DP4A && in[4].type2 == PTX_T_S32, "dp4a.u32.s32");
        TAP_OK(in[5].mode == PTX_MODE_SHF_L && (in[5].flags & PTX_F_WRAP), "shf.l.wrap.b32");
        TAP_OK(in[6].op == PTX_OP_ISSPACEP && in[6].space == PTX_SPACE_GLOBAL, "isspacep.global");
        TAP_OK(in[7].op == PTX_OP_NANOSLEEP && in[7].opnd[0].imm == 100, "nanosleep.u32 100");
        TAP_OK(in[8].op == PTX_OP_BAR_WARP && in[8].opnd[0].imm == UINT64_MAX, "bar.warp.sync -1");
        TAP_OK((in[9].flags & PTX_F_CC) && in[10].op == PTX_OP_ADDC && in[11].op == PTX_OP_MADC &&
                   in[11].mode == PTX_MODE_HI,
               "add.cc / addc / madc.hi");
        TAP_OK(in[12].type == PTX_T_F16 && in[12].type2 == PTX_T_F32 && in[13].opnd[1].imm == 0x3c00, "f16 conversions");
        TAP_OK(in[14].aop == PTX_AOP_INC && in[14].space == PTX_SPACE_SHARED && in[14].opnd[2].imm == 10,
               "atom.shared.inc.u32");
        TAP_OK((in[15].flags & PTX_F_NC) && in[15].vec == 4 && in[15].opnd[0].vec[3] == -1, "ld.global.nc.v4 with sinks");
        TAP_OK(in[16].opnd[1].kind == PTX_OPND_IMM && in[16].opnd[1].imm == 7, "st of an immediate");
        TAP_OK((in[17].flags & PTX_F_BAR_COUNT) && in[17].n_src == 2, "bar.sync 1, 64");
        TAP_OK(in[18].sem == PTX_SEM_ACQ_REL && in[18].scope == PTX_SCOPE_CTA, "fence.acq_rel.cta");
        TAP_OK(in[19].mode == PTX_MODE_ANY && !(in[19].flags & PTX_F_SYNC) && (in[19].opnd[1].flags & PTX_OF_NOT),
               "vote.any.pred d, !a");
        TAP_OK(in[20].op == PTX_OP_RET && (in[20].flags & PTX_F_UNI), "ret.uni");
        ptx_module_free(m);
    }
    diag_fini(&d);
}

/* A 10k-line kernel with ~2,000 registers live nearly everywhere parses,
 * and the built-in passes give valid results on it (the worst case for
 * their bit sets and matrices). How long that takes is measured by
 * bench/func (section (c)), not asserted here: timing belongs in benchmarks. */
static void test_big(void)
{
    size_t len = 0;
    char *buf = ptx_big_kernel(10000, &len);
    struct diag d;
    diag_init(&d);
    struct ptx_module *m = NULL;
    clock_t t0 = clock();
    int rc = ptx_parse(buf, len, "big.ptx", &m, &d);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    diag_print(&d, stdout);
    const struct ptx_func *fn = m && m->n_funcs ? &m->funcs[0] : NULL;
    TAP_OK(rc == PTX_OK && fn && fn->n_insns > 10000, "10k-line kernel parses (%u insns)", fn ? fn->n_insns : 0);
    tap_diag("parse + CFG + liveness + regalloc + slots: %.3f s (not asserted; bench/func (c))", secs);
    if (fn) {
        /* 1,999 b32 registers, nearly all live together: regalloc needs
         * about one physical register each, and slots share almost none */
        TAP_OK(fn->regs_alloc >= 1900 && fn->regs_alloc <= 2010, "regalloc: %u physical registers", fn->regs_alloc);
        TAP_OK(ptx_slots_check(fn) && fn->n_slots >= 1900 && fn->n_slots <= fn->n_regs,
               "slots valid against liveness: %u slots for %u registers", fn->n_slots, fn->n_regs);
    }
    ptx_module_free(m);
    diag_fini(&d);
    free(buf);
}

int main(void)
{
    tap_no_plan();
    test_all_files();
    test_vecadd();
    test_globals_and_attrs();
    test_calls();
    test_asm_misc();
    test_snippets();
    test_more_forms();
    test_big();
    return tap_exit();
}
