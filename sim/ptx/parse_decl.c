/* sim/ptx/parse_decl.c: PTX declarations: variables (.align, vectors,
 * array dimensions, (nested) initialisers) at module and function scope,
 * registers (including %r<N> ranges), the .param lists of .entry/.func
 * headers, and the performance directives between a header and its body.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/internal.h"
#include "sim/ptx/ptx.h"

/* ---------------------------------------------------------- declarations */
/* Common prefix of variable and parameter declarations. */
struct decl_attrs {
    uint32_t align;    /* 0 = natural */
    uint8_t vec;       /* 1, 2, 4 */
    enum ptx_type type;
    uint8_t ptr_space; /* params: .ptr .space */
    uint32_t ptr_align;
    bool is_ptr;
};

static bool parse_align(struct ptx_parser *ps, uint32_t *align)
{
    ptx_take(ps); /* .align */
    const struct ptx_tok *t = ptx_peek(ps, 0);
    uint64_t v;
    if (!ptx_expect_uint(ps, "alignment", 1u << 20, &v))
        return false;
    if (!is_pow2_u64(v)) {
        ptx_error(ps, t->line, t->col, "alignment %llu is not a power of two", (unsigned long long)v);
        return false;
    }
    *align = (uint32_t)v;
    return true;
}

/* Parse [.align N] [.vN] .type [.ptr [.space] [.align N]] in any order the
 * PTX ISA allows. Stops at the first non-directive token. */
static bool parse_decl_attrs(struct ptx_parser *ps, struct decl_attrs *a, bool allow_ptr)
{
    memset(a, 0, sizeof *a);
    a->vec = 1;
    for (;;) {
        const struct ptx_tok *t = ptx_peek(ps, 0);
        if (t->kind != TK_DIR)
            break;
        enum ptx_type ty = ptx_type_from_word(t->s, t->len);
        if (ptx_tok_is(t, ".align")) {
            uint32_t al;
            if (!parse_align(ps, &al))
                return false;
            if (a->is_ptr)
                a->ptr_align = al;
            else
                a->align = al;
        } else if (ptx_tok_is(t, ".v2") || ptx_tok_is(t, ".v4") || ptx_tok_is(t, ".v8")) {
            a->vec = (uint8_t)(t->s[2] - '0');
            ptx_take(ps);
        } else if (ty != PTX_T_NONE) {
            if (a->type != PTX_T_NONE) {
                ptx_error(ps, t->line, t->col, "second type '%.*s' in declaration", (int)t->len, t->s);
                return false;
            }
            a->type = ty;
            ptx_take(ps);
        } else if (allow_ptr && ptx_tok_is(t, ".ptr")) {
            a->is_ptr = true;
            ptx_take(ps);
        } else if (allow_ptr && a->is_ptr && ptx_space_from_word(t->s, t->len) != PTX_SPACE_GENERIC) {
            a->ptr_space = (uint8_t)ptx_space_from_word(t->s, t->len);
            ptx_take(ps);
        } else if (ptx_tok_is(t, ".attribute")) {
            ptx_error(ps, t->line, t->col, "unsupported directive '.attribute'");
            return false;
        } else {
            break;
        }
    }
    if (a->type == PTX_T_NONE) {
        const struct ptx_tok *t = ptx_peek(ps, 0);
        ptx_error(ps, t->line, t->col, "expected a type in declaration, found '%.*s'", (int)t->len, t->s);
        return false;
    }
    return true;
}

/* Parse array dimensions after a name. *count = element count (product),
 * *open = first dimension was '[]'. */
static bool parse_dims(struct ptx_parser *ps, uint64_t *count, bool *open)
{
    *count = 1;
    *open = false;
    bool first = true;
    while (ptx_is_punct(ptx_peek(ps, 0), '[')) {
        struct ptx_tok lb = ptx_take(ps);
        if (ptx_is_punct(ptx_peek(ps, 0), ']') && first) {
            ptx_take(ps);
            *open = true;
            first = false;
            continue;
        }
        uint64_t v;
        if (!ptx_expect_uint(ps, "array dimension", 1ull << 32, &v))
            return false;
        if (v == 0 || *count > (1ull << 34) / v) {
            ptx_error(ps, lb.line, lb.col, "bad array dimension");
            return false;
        }
        *count *= v;
        if (!ptx_expect_punct(ps, ']', "after array dimension"))
            return false;
        first = false;
    }
    return true;
}

struct init_buf {
    uint8_t *bytes;
    uint32_t n_elems;   /* scalars stored */
    uint32_t cap_elems; /* allocated scalars */
    unsigned esize;     /* bytes per scalar */
};

static bool parse_init_value(struct ptx_parser *ps, struct init_buf *ib, enum ptx_type type, int depth)
{
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (depth > 16) {
        ptx_error(ps, t->line, t->col, "initialiser nested too deeply");
        return false;
    }
    if (ptx_is_punct(t, '{')) {
        ptx_take(ps);
        if (ptx_is_punct(ptx_peek(ps, 0), '}')) {
            ptx_take(ps);
            return true;
        }
        for (;;) {
            if (!parse_init_value(ps, ib, type, depth + 1))
                return false;
            if (ptx_is_punct(ptx_peek(ps, 0), ',')) {
                ptx_take(ps);
                continue;
            }
            return ptx_expect_punct(ps, '}', "to close initialiser");
        }
    }
    bool neg = false;
    if (ptx_is_punct(t, '-')) {
        ptx_take(ps);
        neg = true;
        t = ptx_peek(ps, 0);
    }
    if (t->kind != TK_INT && t->kind != TK_FLOAT) {
        if (t->kind == TK_IDENT)
            ptx_error(ps, t->line, t->col, "unsupported initialiser '%.*s' (symbol addresses)",
                      (int)t->len, t->s);
        else
            ptx_error(ps, t->line, t->col, "expected an initialiser value, found '%.*s'", (int)t->len,
                      t->s);
        return false;
    }
    struct ptx_tok v = ptx_take(ps);
    uint64_t bits;
    if (!ptx_literal_bits(ps, &v, neg, type, &bits))
        return false;
    if (ib->n_elems >= (1u << 24)) {
        ptx_error(ps, v.line, v.col, "initialiser too long");
        return false;
    }
    ptx_grow((void **)&ib->bytes, ib->esize, &ib->cap_elems, (size_t)ib->n_elems + 1);
    for (unsigned b = 0; b < ib->esize; b++)
        ib->bytes[(size_t)ib->n_elems * ib->esize + b] = (uint8_t)(bits >> (8 * b));
    ib->n_elems++;
    return true;
}

/* A variable declaration after its space word: attrs, then name[dims][=init]
 * {, name...} ';'. Module scope when ps->fn == NULL. */
void ptx_parse_var_decl(struct ptx_parser *ps, enum ptx_space space, enum ptx_linkage link,
                        bool is_extern)
{
    struct decl_attrs a;
    if (!parse_decl_attrs(ps, &a, false)) {
        ptx_sync_stmt(ps);
        return;
    }
    for (;;) {
        const struct ptx_tok *nt = ptx_peek(ps, 0);
        if (nt->kind != TK_IDENT) {
            ptx_error(ps, nt->line, nt->col, "expected a variable name, found '%.*s'", (int)nt->len,
                      nt->s);
            ptx_sync_stmt(ps);
            return;
        }
        struct ptx_tok name = ptx_take(ps);
        uint64_t count;
        bool open;
        if (!parse_dims(ps, &count, &open)) {
            ptx_sync_stmt(ps);
            return;
        }
        unsigned esize = ptx_type_bytes(a.type) * a.vec;
        struct ptx_var v;
        memset(&v, 0, sizeof v);
        v.space = (uint8_t)space;
        v.type = (uint8_t)a.type;
        v.vec = a.vec;
        v.linkage = (uint8_t)link;
        v.align = a.align ? a.align : esize;
        v.line = name.line;
        if (ptx_is_punct(ptx_peek(ps, 0), '=')) {
            struct ptx_tok eq = ptx_take(ps);
            if (space != PTX_SPACE_GLOBAL && space != PTX_SPACE_CONST) {
                ptx_error(ps, eq.line, eq.col, "initialiser not allowed in %s space",
                          ptx_space_name(space));
                ptx_sync_stmt(ps);
                return;
            }
            struct init_buf ib = {NULL, 0, 0, ptx_type_bytes(a.type)};
            if (!parse_init_value(ps, &ib, a.type, 0)) {
                free(ib.bytes);
                ptx_sync_stmt(ps);
                return;
            }
            uint64_t scalars_per_elem = a.vec;
            if (open) {
                uint64_t inner = count * scalars_per_elem;
                count *= (ib.n_elems + inner - 1) / inner;
                open = false;
            }
            if (ib.n_elems > count * scalars_per_elem) {
                ptx_error(ps, name.line, name.col, "too many initialisers for '%.*s'", (int)name.len,
                          name.s);
                free(ib.bytes);
                ptx_sync_stmt(ps);
                return;
            }
            v.size = count * esize;
            v.init = ptx_xcalloc(v.size, 1);
            if (ib.n_elems)
                memcpy(v.init, ib.bytes, (size_t)ib.n_elems * ib.esize);
            free(ib.bytes);
        } else {
            v.size = open ? 0 : count * esize;
        }
        if (open) {
            if (!(is_extern && space == PTX_SPACE_SHARED)) {
                ptx_error(ps, name.line, name.col,
                          "array '%.*s' without size (only .extern .shared arrays may omit it)",
                          (int)name.len, name.s);
                free(v.init);
                ptx_sync_stmt(ps);
                return;
            }
            v.is_extern_array = true;
        }
        if (!ps->fn && space == PTX_SPACE_LOCAL) {
            ptx_error(ps, name.line, name.col, "unsupported module-scope .local variable '%.*s'",
                      (int)name.len, name.s);
            free(v.init);
            ptx_sync_stmt(ps);
            return;
        }
        struct psym *e = ptx_sym_push(ps, name.s, name.len, ps->fn ? PSYM_FVAR : PSYM_MODVAR,
                                  name.line, name.col);
        if (!e) {
            free(v.init);
        } else {
            v.name = ptx_strndup(name.s, name.len);
            if (ps->fn) {
                struct ptx_func *fn = ps->fn;
                if (space == PTX_SPACE_ARGS) { /* call-site scratch: stack allocated */
                    v.offset = u64_round_up(ps->args_top, v.align ? v.align : 1);
                    ps->args_top = v.offset + v.size;
                    if (ps->args_top > fn->args_bytes)
                        fn->args_bytes = ps->args_top;
                }
                *PTX_PUSH(fn->vars, fn->n_vars, ps->vars_cap) = v;
                e->idx = (int32_t)(fn->n_vars - 1);
            } else {
                *PTX_PUSH(ps->m->vars, ps->m->n_vars, ps->mvars_cap) = v;
                e->idx = (int32_t)(ps->m->n_vars - 1);
            }
        }
        const struct ptx_tok *t = ptx_peek(ps, 0);
        if (ptx_is_punct(t, ',')) {
            ptx_take(ps);
            continue;
        }
        if (!ptx_expect_punct(ps, ';', "after declaration"))
            ptx_sync_stmt(ps);
        return;
    }
}

/* .reg .type name[, name...]; with name = %r or %r<N>. */
void ptx_parse_reg_decl(struct ptx_parser *ps)
{
    struct ptx_tok kw = ptx_take(ps); /* .reg */
    struct decl_attrs a;
    if (!parse_decl_attrs(ps, &a, false)) {
        ptx_sync_stmt(ps);
        return;
    }
    if (a.vec != 1) {
        ptx_error(ps, kw.line, kw.col, "unsupported vector register declaration");
        ptx_sync_stmt(ps);
        return;
    }
    for (;;) {
        const struct ptx_tok *nt = ptx_peek(ps, 0);
        if (nt->kind != TK_IDENT) {
            ptx_error(ps, nt->line, nt->col, "expected a register name, found '%.*s'", (int)nt->len,
                      nt->s);
            ptx_sync_stmt(ps);
            return;
        }
        struct ptx_tok name = ptx_take(ps);
        if (ptx_is_punct(ptx_peek(ps, 0), '<')) {
            ptx_take(ps);
            uint64_t n;
            if (!ptx_expect_uint(ps, "register count", 1u << 20, &n) ||
                !ptx_expect_punct(ps, '>', "after register count")) {
                ptx_sync_stmt(ps);
                return;
            }
            struct psym *e = ptx_sym_push(ps, name.s, name.len, PSYM_RANGE, name.line, name.col);
            if (e) {
                e->type = (uint8_t)a.type;
                e->count = (uint32_t)n;
                e->range_vregs = ptx_xcalloc(n ? n : 1, sizeof *e->range_vregs);
                for (uint64_t i = 0; i < n; i++)
                    e->range_vregs[i] = -1;
            }
        } else {
            struct psym *e = ptx_sym_push(ps, name.s, name.len, PSYM_REG, name.line, name.col);
            if (e)
                e->type = (uint8_t)a.type;
        }
        if (ptx_is_punct(ptx_peek(ps, 0), ',')) {
            ptx_take(ps);
            continue;
        }
        if (!ptx_expect_punct(ps, ';', "after register declaration"))
            ptx_sync_stmt(ps);
        return;
    }
}

/* ----------------------------------------------------- function headers */
/* One .param in a function header. */
static bool parse_param(struct ptx_parser *ps, struct ptx_param *p, bool is_ret)
{
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (!ptx_tok_is(t, ".param") && !ptx_tok_is(t, ".reg")) {
        ptx_error(ps, t->line, t->col, "expected '.param', found '%.*s'", (int)t->len, t->s);
        return false;
    }
    if (ptx_tok_is(t, ".reg")) {
        ptx_error(ps, t->line, t->col, "unsupported .reg parameter (only .param is supported)");
        return false;
    }
    ptx_take(ps);
    struct decl_attrs a;
    if (!parse_decl_attrs(ps, &a, true))
        return false;
    const struct ptx_tok *nt = ptx_peek(ps, 0);
    if (nt->kind != TK_IDENT) {
        ptx_error(ps, nt->line, nt->col, "expected a parameter name, found '%.*s'", (int)nt->len, nt->s);
        return false;
    }
    struct ptx_tok name = ptx_take(ps);
    uint64_t count;
    bool open;
    if (!parse_dims(ps, &count, &open))
        return false;
    if (open) {
        ptx_error(ps, name.line, name.col, "parameter '%.*s' needs a size", (int)name.len, name.s);
        return false;
    }
    memset(p, 0, sizeof *p);
    uint64_t size = count * ptx_type_bytes(a.type) * a.vec;
    if (size > (1u << 16)) {
        ptx_error(ps, name.line, name.col, "parameter '%.*s' too large", (int)name.len, name.s);
        return false;
    }
    p->name = ptx_strndup(name.s, name.len);
    p->type = (uint8_t)a.type;
    p->is_ret = is_ret;
    p->ptr_space = a.ptr_space;
    p->ptr_align = a.ptr_align;
    p->size = (uint32_t)size;
    p->align = a.align ? a.align : ptx_type_bytes(a.type) * a.vec;
    return true;
}

bool ptx_parse_param_list(struct ptx_parser *ps, struct ptx_param **arr, uint32_t *n, uint32_t *cap,
                          bool is_ret)
{
    if (!ptx_expect_punct(ps, '(', "to open the parameter list"))
        return false;
    if (ptx_is_punct(ptx_peek(ps, 0), ')')) {
        ptx_take(ps);
        return true;
    }
    for (;;) {
        struct ptx_param p;
        if (!parse_param(ps, &p, is_ret))
            return false;
        *PTX_PUSH(*arr, *n, *cap) = p;
        if (ptx_is_punct(ptx_peek(ps, 0), ',')) {
            ptx_take(ps);
            continue;
        }
        return ptx_expect_punct(ps, ')', "to close the parameter list");
    }
}

void ptx_free_params(struct ptx_param *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        free(p[i].name);
    free(p);
}

/* Performance-tuning directives between the header and the body. */
bool ptx_parse_func_attrs(struct ptx_parser *ps, struct ptx_func *fn)
{
    for (;;) {
        const struct ptx_tok *t = ptx_peek(ps, 0);
        if (t->kind != TK_DIR)
            return true;
        struct ptx_tok d = ptx_take(ps);
        uint32_t *dst3 = NULL, *dst1 = NULL;
        if (ptx_tok_is(&d, ".maxntid"))
            dst3 = fn->maxntid;
        else if (ptx_tok_is(&d, ".reqntid"))
            dst3 = fn->reqntid;
        else if (ptx_tok_is(&d, ".minnctapersm"))
            dst1 = &fn->minnctapersm;
        else if (ptx_tok_is(&d, ".maxnreg"))
            dst1 = &fn->maxnreg;
        else if (ptx_tok_is(&d, ".maxnctapersm") || ptx_tok_is(&d, ".reqnctapercluster") ||
                 ptx_tok_is(&d, ".maxclusterrank")) {
            for (int i = 0; i < 3; i++) { /* accepted and ignored */
                uint64_t v;
                if (!ptx_expect_uint(ps, "directive value", UINT32_MAX, &v))
                    return false;
                if (!ptx_is_punct(ptx_peek(ps, 0), ','))
                    break;
                ptx_take(ps);
            }
            continue;
        } else if (ptx_tok_is(&d, ".noreturn") || ptx_tok_is(&d, ".explicitcluster")) {
            continue;
        } else if (ptx_tok_is(&d, ".pragma")) {
            if (ptx_peek(ps, 0)->kind == TK_STRING)
                ptx_take(ps);
            if (ptx_is_punct(ptx_peek(ps, 0), ';'))
                ptx_take(ps);
            continue;
        } else {
            ptx_error(ps, d.line, d.col, "unknown function directive '%.*s'", (int)d.len, d.s);
            return false;
        }
        int n = dst3 ? 3 : 1;
        for (int i = 0; i < n; i++) {
            uint64_t v;
            if (!ptx_expect_uint(ps, "directive value", UINT32_MAX, &v))
                return false;
            if (dst3)
                dst3[i] = (uint32_t)v;
            else
                *dst1 = (uint32_t)v;
            if (!dst3 || !ptx_is_punct(ptx_peek(ps, 0), ','))
                break;
            ptx_take(ps);
        }
        if (dst3) /* unspecified dimensions default to 1 */
            for (int i = 1; i < 3; i++)
                if (!dst3[i])
                    dst3[i] = 1;
    }
}

