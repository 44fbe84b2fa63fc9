/* sim/ptx/ir.c: IR helpers: enum names, register iteration, disassembly.
 *
 * Does: name tables generated from the X-macro lists of ir.h, the
 * def/use iterator every analysis shares (so liveness, the allocator and
 * later register-file passes agree on what an instruction reads and
 * writes), and a debug listing of a function.
 * Does not: parse or analyse anything.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim/ptx/ptx.h"

static const char *const op_names[] = {
#define PTX_X_(e, s, u) s,
    PTX_OP_LIST(PTX_X_)
#undef PTX_X_
};
static const uint8_t op_units[] = {
#define PTX_X_(e, s, u) PTX_UNIT_##u,
    PTX_OP_LIST(PTX_X_)
#undef PTX_X_
};
static const char *const type_names[] = {
#define PTX_X_(e, s, n) s,
    PTX_TYPE_LIST(PTX_X_)
#undef PTX_X_
};
const uint8_t ptx_type_sizes[PTX_T_COUNT] = {
#define PTX_X_(e, s, n) n,
    PTX_TYPE_LIST(PTX_X_)
#undef PTX_X_
};
static const char *const space_names[] = {
#define PTX_X_(e, s) s,
    PTX_SPACE_LIST(PTX_X_)
#undef PTX_X_
};
static const char *const cmp_names[] = {
#define PTX_X_(e, s) s,
    PTX_CMP_LIST(PTX_X_)
#undef PTX_X_
};
static const char *const aop_names[] = {
#define PTX_X_(e, s) s,
    PTX_AOP_LIST(PTX_X_)
#undef PTX_X_
};
static const char *const sreg_names[] = {
#define PTX_X_(e, s) s,
    PTX_SREG_LIST(PTX_X_)
#undef PTX_X_
};
static const char *const mode_names[PTX_MODE_COUNT] = {
    [PTX_MODE_LO] = ".lo",         [PTX_MODE_HI] = ".hi",         [PTX_MODE_WIDE] = ".wide",
    [PTX_MODE_ALL] = ".all",       [PTX_MODE_ANY] = ".any",       [PTX_MODE_UNI] = ".uni",
    [PTX_MODE_BALLOT] = ".ballot", [PTX_MODE_UP] = ".up",         [PTX_MODE_DOWN] = ".down",
    [PTX_MODE_BFLY] = ".bfly",     [PTX_MODE_IDX] = ".idx",       [PTX_MODE_SYNC] = ".sync",
    [PTX_MODE_ARRIVE] = ".arrive", [PTX_MODE_RED] = ".red",       [PTX_MODE_FINITE] = ".finite",
    [PTX_MODE_INFINITE] = ".infinite", [PTX_MODE_NUMBER] = ".number",
    [PTX_MODE_NOTANUMBER] = ".notanumber", [PTX_MODE_NORMAL] = ".normal",
    [PTX_MODE_SUBNORMAL] = ".subnormal", [PTX_MODE_F4E] = ".f4e", [PTX_MODE_B4E] = ".b4e",
    [PTX_MODE_RC8] = ".rc8",       [PTX_MODE_ECL] = ".ecl",       [PTX_MODE_ECR] = ".ecr",
    [PTX_MODE_RC16] = ".rc16",     [PTX_MODE_SHF_L] = ".l",       [PTX_MODE_SHF_R] = ".r",
};
static const char *const rnd_names[] = {"", ".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi", ".rna"};
static const char *const sem_names[] = {"", ".relaxed", ".acquire", ".release", ".acq_rel", ".sc"};
static const char *const scope_names[] = {"", ".cta", ".cluster", ".gpu", ".sys"};
static const char *const cache_names[] = {"", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt"};
static const char *const bool_names[] = {"", ".and", ".or", ".xor"};
static const char *const flag_names[] = {".ftz", ".sat", ".approx", ".full", ".volatile", ".nc",
                                         ".uni", ".sync", ".cc", ".aligned", ".shiftamt", ".wrap",
                                         ".to", "", ".noftz", ".relu"};

#define NAME_OR(tab, i) ((size_t)(i) < ARRAY_LEN(tab) && (tab)[i] ? (tab)[i] : "?")

const char *ptx_op_name(enum ptx_op op) { return NAME_OR(op_names, op); }
enum ptx_unit ptx_op_unit(enum ptx_op op)
{
    return (size_t)op < ARRAY_LEN(op_units) ? (enum ptx_unit)op_units[op] : PTX_UNIT_ALU;
}
const char *ptx_type_name(enum ptx_type t) { return NAME_OR(type_names, t); }
const char *ptx_space_name(enum ptx_space s) { return NAME_OR(space_names, s); }
const char *ptx_cmp_name(enum ptx_cmp c) { return NAME_OR(cmp_names, c); }
const char *ptx_aop_name(enum ptx_aop a) { return NAME_OR(aop_names, a); }
const char *ptx_sreg_name(enum ptx_sreg s) { return NAME_OR(sreg_names, s); }

void ptx_insn_for_each_reg(const struct ptx_insn *in, void (*fn)(int32_t vreg, int is_def, void *ctx),
                           void *ctx)
{
    if (in->guard >= 0)
        fn(in->guard, 0, ctx);
    unsigned n = (unsigned)in->n_dst + in->n_src;
    for (unsigned k = 0; k < n && k < PTX_MAX_OPNDS; k++) {
        const struct ptx_operand *o = &in->opnd[k];
        int def = k < in->n_dst;
        switch (o->kind) {
        case PTX_OPND_REG:
            fn(o->reg, def, ctx);
            break;
        case PTX_OPND_VEC:
            for (unsigned e = 0; e < o->n && e < 4; e++)
                if (o->vec[e] >= 0)
                    fn(o->vec[e], def, ctx);
            break;
        case PTX_OPND_ADDR:
        case PTX_OPND_SYM:
            if (o->reg >= 0)
                fn(o->reg, 0, ctx);
            break;
        default:
            break;
        }
    }
}

/* ------------------------------------------------------------ formatting */
struct sbuf {
    char *p;
    size_t size, len;
};

static void sb_put(struct sbuf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void sb_put(struct sbuf *b, const char *fmt, ...)
{
    if (b->len + 1 >= b->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->len, b->size - b->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len = MIN(b->len + (size_t)n, b->size - 1);
}

static const char *reg_name(const struct ptx_func *fn, int32_t r)
{
    if (r < 0)
        return "_";
    return fn && (uint32_t)r < fn->n_regs ? fn->regs[r].name : "%?";
}

static void put_operand(struct sbuf *b, const struct ptx_func *fn, const struct ptx_insn *in,
                        const struct ptx_operand *o)
{
    switch (o->kind) {
    case PTX_OPND_REG:
        sb_put(b, "%s%s", (o->flags & PTX_OF_NOT) ? "!" : "", reg_name(fn, o->reg));
        break;
    case PTX_OPND_VEC:
        sb_put(b, "{");
        for (unsigned e = 0; e < o->n && e < 4; e++)
            sb_put(b, "%s%s", e ? ", " : "", reg_name(fn, o->vec[e]));
        sb_put(b, "}");
        break;
    case PTX_OPND_IMM:
        sb_put(b, "0x%" PRIx64, o->imm);
        break;
    case PTX_OPND_SREG:
        sb_put(b, "%s", ptx_sreg_name((enum ptx_sreg)o->sreg));
        break;
    case PTX_OPND_ADDR:
    case PTX_OPND_SYM: {
        static const char *const bases[] = {"", "static", "modvar", "dynshared"};
        if (o->kind == PTX_OPND_ADDR)
            sb_put(b, "[");
        if (o->base != PTX_BASE_NONE)
            sb_put(b, "%s%s#%d+", ptx_space_name((enum ptx_space)o->space), NAME_OR(bases, o->base),
                   o->sym);
        if (o->reg >= 0)
            sb_put(b, "%s+", reg_name(fn, o->reg));
        sb_put(b, "%" PRId64, (int64_t)o->imm);
        if (o->kind == PTX_OPND_ADDR)
            sb_put(b, "]");
        break;
    }
    case PTX_OPND_LABEL:
        sb_put(b, "@%u", in->target);
        break;
    case PTX_OPND_FUNC:
        sb_put(b, "func#%u", in->target);
        break;
    case PTX_OPND_SINK:
        sb_put(b, "_");
        break;
    default:
        sb_put(b, "?");
        break;
    }
}

char *ptx_insn_format(const struct ptx_func *fn, const struct ptx_insn *in, char *buf, size_t size)
{
    struct sbuf b = {buf, size, 0};
    if (!size)
        return buf;
    buf[0] = 0;
    if (in->guard >= 0)
        sb_put(&b, "@%s%s ", in->guard_neg ? "!" : "", reg_name(fn, in->guard));
    sb_put(&b, "%s", ptx_op_name((enum ptx_op)in->op));
    if (in->op == PTX_OP_CVTA && (in->flags & PTX_F_CVTA_TO))
        sb_put(&b, ".to");
    sb_put(&b, "%s%s%s%s%s%s%s%s", in->mode ? NAME_OR(mode_names, in->mode) : "",
           NAME_OR(sem_names, in->sem), NAME_OR(scope_names, in->scope),
           ptx_space_name((enum ptx_space)in->space), NAME_OR(cache_names, in->cache),
           ptx_cmp_name((enum ptx_cmp)in->cmp), NAME_OR(bool_names, in->bop),
           ptx_aop_name((enum ptx_aop)in->aop));
    sb_put(&b, "%s", NAME_OR(rnd_names, in->rnd));
    for (unsigned f = 0; f < ARRAY_LEN(flag_names); f++)
        if ((in->flags & (1u << f)) && f != 12)
            sb_put(&b, "%s", flag_names[f]);
    if (in->vec > 1)
        sb_put(&b, ".v%u", in->vec);
    sb_put(&b, "%s%s", ptx_type_name((enum ptx_type)in->type), ptx_type_name((enum ptx_type)in->type2));
    unsigned n = (unsigned)in->n_dst + in->n_src;
    for (unsigned k = 0; k < n && k < PTX_MAX_OPNDS; k++) {
        sb_put(&b, k ? (k == 1 && in->n_dst == 2 && (in->op == PTX_OP_SETP || (in->flags & PTX_F_PRED_OUT)) ? "|" : ", ") : " ");
        put_operand(&b, fn, in, &in->opnd[k]);
    }
    if (in->op == PTX_OP_CALL && fn) {
        sb_put(&b, " func#%u (", in->target);
        for (unsigned k = 0; k < (unsigned)in->call_n_ret + in->call_n_arg; k++) {
            if (k == in->call_n_ret)
                sb_put(&b, ") <- (");
            else if (k)
                sb_put(&b, ", ");
            if (in->call_first + k < fn->n_call_args)
                put_operand(&b, fn, in, &fn->call_args[in->call_first + k]);
        }
        sb_put(&b, ")");
    }
    return buf;
}

void ptx_func_dump(const struct ptx_func *fn, FILE *out)
{
    char buf[512];
    fprintf(out, "%s %s: %u insns, %u vregs (%u pred), params %u B, shared %" PRIu64
                 " B, local %" PRIu64 " B, regs alloc %u ptxas %d -> %u, executor slots %u\n",
            fn->is_entry ? ".entry" : ".func", fn->name, fn->n_insns, fn->n_regs, fn->n_pred_regs,
            fn->param_bytes, fn->shared_static_bytes, fn->local_bytes, fn->regs_alloc, fn->regs_ptxas,
            fn->regs_per_thread, fn->n_slots);
    for (uint32_t i = 0; i < fn->n_insns; i++) {
        const struct ptx_insn *in = &fn->insns[i];
        if (fn->cfg.block_of && (i == 0 || fn->cfg.block_of[i] != fn->cfg.block_of[i - 1])) {
            const struct ptx_block *bl = &fn->cfg.blocks[fn->cfg.block_of[i]];
            fprintf(out, "  B%u:", fn->cfg.block_of[i]);
            for (uint32_t s = 0; s < bl->n_succ; s++)
                fprintf(out, " ->B%u", bl->succ[s]);
            if (bl->to_exit)
                fprintf(out, " ->exit");
            if (bl->ipdom == UINT32_MAX)
                fprintf(out, " ipdom=exit\n");
            else
                fprintf(out, " ipdom=B%u\n", bl->ipdom);
        }
        fprintf(out, "  %5u  %-60s", i, ptx_insn_format(fn, in, buf, sizeof buf));
        if (in->reconv != PTX_PC_NONE) {
            if (in->reconv == PTX_PC_EXIT)
                fprintf(out, "  ; reconv=exit");
            else
                fprintf(out, "  ; reconv=%u", in->reconv);
        }
        fprintf(out, "  ; line %u\n", in->line);
    }
}
