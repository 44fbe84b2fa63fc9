/* sim/ptx/parse_func.c: PTX function definitions: the .entry/.func header
 * (name, parameter lists, attributes), labels, and the statement loop of
 * the body (declarations, nested '{}' scopes, .loc, guards and
 * instructions). Label references are resolved per function at its closing
 * brace, scope by scope.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/internal.h"
#include "sim/ptx/ptx.h"

static void add_label(struct ptx_parser *ps, const struct ptx_tok *name)
{
    struct pmap_slot *slot = ptx_pmap_add(&ps->label_map, name->s, name->len);
    for (int32_t i = slot->head; i >= 0; i = ps->plabels[i].prev_same) {
        if (ps->plabels[i].scope == ps->cur_scope) {
            ptx_error(ps, name->line, name->col, "duplicate label '%.*s'", (int)name->len, name->s);
            return;
        }
    }
    int32_t prev = slot->head;
    struct plabel *l = PTX_PUSH(ps->plabels, ps->n_plabels, ps->plabels_cap);
    l->name = name->s;
    l->len = name->len;
    l->scope = ps->cur_scope;
    l->pc = ps->fn->n_insns;
    l->prev_same = prev;
    ptx_pmap_find(&ps->label_map, name->s, name->len)->head = (int32_t)(ps->n_plabels - 1);
    struct ptx_label *pl = PTX_PUSH(ps->fn->labels, ps->fn->n_labels, ps->labels_cap);
    pl->name = ptx_strndup(name->s, name->len);
    pl->pc = ps->fn->n_insns;
}

static void resolve_labels(struct ptx_parser *ps)
{
    struct ptx_func *fn = ps->fn;
    for (uint32_t i = 0; i < ps->n_lrefs; i++) {
        const struct plabel_ref *r = &ps->lrefs[i];
        struct pmap_slot *slot = ptx_pmap_find(&ps->label_map, r->name, r->len);
        int32_t found = -1;
        for (uint32_t sc = r->scope;; sc = ps->scope_parent[sc]) {
            for (int32_t l = slot ? slot->head : -1; l >= 0 && found < 0; l = ps->plabels[l].prev_same)
                if (ps->plabels[l].scope == sc)
                    found = l;
            if (found >= 0 || sc == 0)
                break;
        }
        if (found < 0) {
            ptx_error(ps, r->line, r->col, "undefined label '%.*s'", (int)r->len, r->name);
            continue;
        }
        fn->insns[r->insn].target = ps->plabels[found].pc;
    }
}

static void parse_body(struct ptx_parser *ps);

/* After '.entry' / '.func'. */
void ptx_parse_function(struct ptx_parser *ps, bool is_entry, enum ptx_linkage link,
                        const struct ptx_tok *kw)
{
    struct ptx_param *params = NULL, *rets = NULL;
    uint32_t n_params = 0, n_rets = 0, cap_p = 0, cap_r = 0;
    if (!is_entry && ptx_is_punct(ptx_peek(ps, 0), '(')) {
        if (!ptx_parse_param_list(ps, &rets, &n_rets, &cap_r, true))
            goto fail;
    }
    const struct ptx_tok *nt = ptx_peek(ps, 0);
    if (nt->kind != TK_IDENT) {
        ptx_error(ps, nt->line, nt->col, "expected a function name, found '%.*s'", (int)nt->len, nt->s);
        goto fail;
    }
    struct ptx_tok name = ptx_take(ps);
    if (ptx_is_punct(ptx_peek(ps, 0), '(')) {
        if (!ptx_parse_param_list(ps, &params, &n_params, &cap_p, false))
            goto fail;
    }

    /* find or create the function */
    int32_t si = ptx_sym_lookup(ps, name.s, name.len);
    struct ptx_func *fn;
    if (si >= 0 && ps->syms[si].kind == PSYM_FUNC) {
        fn = &ps->m->funcs[ps->syms[si].idx];
        if (fn->is_entry != is_entry) {
            ptx_error(ps, name.line, name.col, "'%.*s' redeclared as a different kind of function",
                      (int)name.len, name.s);
            goto fail;
        }
    } else if (si >= 0) {
        ptx_error(ps, name.line, name.col, "'%.*s' redeclared as a function", (int)name.len, name.s);
        goto fail;
    } else {
        struct psym *e = ptx_sym_push(ps, name.s, name.len, PSYM_FUNC, name.line, name.col);
        if (!e)
            goto fail;
        fn = PTX_PUSH(ps->m->funcs, ps->m->n_funcs, ps->funcs_cap);
        memset(fn, 0, sizeof *fn);
        fn->name = ptx_strndup(name.s, name.len);
        fn->index = ps->m->n_funcs - 1;
        fn->is_entry = is_entry;
        fn->regs_ptxas = -1;
        e->idx = (int32_t)fn->index;
    }
    fn->line = kw->line;
    if (link != PTX_LINK_NONE)
        fn->linkage = (uint8_t)link;

    /* the header's params replace those of an earlier prototype; a
     * function that already has a body keeps its own (its operands index
     * them), and a different parameter list is an error */
    if (fn->has_body) {
        bool same = fn->n_params == n_params + n_rets && fn->n_rets == n_rets;
        for (uint32_t i = 0; same && i < n_params + n_rets; i++) {
            const struct ptx_param *np = i < n_params ? &params[i] : &rets[i - n_params];
            same = np->size == fn->params[i].size;
        }
        if (!same) {
            ptx_error(ps, name.line, name.col, "declaration of '%.*s' conflicts with its definition",
                      (int)name.len, name.s);
            goto fail;
        }
        ptx_free_params(params, n_params);
        ptx_free_params(rets, n_rets);
        params = rets = NULL;
        n_params = n_rets = 0;
    } else {
        ptx_free_params(fn->params, fn->n_params);
        fn->n_params = n_params + n_rets;
        fn->n_rets = n_rets;
        fn->params = ptx_xcalloc(fn->n_params, sizeof *fn->params);
        if (n_params)
            memcpy(fn->params, params, n_params * sizeof *params);
        if (n_rets)
            memcpy(fn->params + n_params, rets, n_rets * sizeof *rets);
        free(params);
        free(rets);
        params = rets = NULL;
        n_params = n_rets = 0;
        uint64_t off = 0;
        for (uint32_t i = 0; i < fn->n_params; i++) {
            struct ptx_param *p = &fn->params[i];
            off = u64_round_up(off, p->align ? p->align : 1);
            p->offset = (uint32_t)off;
            off += p->size;
        }
        fn->param_bytes = (uint32_t)off;
    }

    if (!ptx_parse_func_attrs(ps, fn)) {
        ptx_sync_stmt(ps);
        return;
    }
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (ptx_is_punct(t, ';')) { /* prototype */
        ptx_take(ps);
        return;
    }
    if (!ptx_is_punct(t, '{')) {
        ptx_error(ps, t->line, t->col, "expected '{' or ';' after function header, found '%.*s'",
                  (int)t->len, t->s);
        ptx_sync_stmt(ps);
        return;
    }
    if (fn->has_body) {
        ptx_error(ps, name.line, name.col, "redefinition of function '%.*s'", (int)name.len, name.s);
        /* parse it anyway into a scratch function to find further errors */
    }
    ptx_take(ps); /* '{' */

    struct ptx_func scratch;
    bool dup = fn->has_body;
    if (dup) {
        memset(&scratch, 0, sizeof scratch);
        scratch.index = UINT32_MAX; /* its calls are never resolved */
        scratch.params = fn->params;
        scratch.n_params = fn->n_params;
        fn = &scratch;
    }
    fn->has_body = true;
    ps->fn = fn;
    ps->insns_cap = ps->regs_cap = ps->vars_cap = ps->labels_cap = ps->cargs_cap = 0;
    ps->n_scopes = 0;
    *PTX_PUSH(ps->scope_parent, ps->n_scopes, ps->scopes_cap) = 0;
    ps->cur_scope = 0;
    ps->n_plabels = 0;
    ptx_pmap_free(&ps->label_map);
    ps->n_lrefs = 0;
    ps->args_top = 0;

    ptx_push_scope(ps); /* depth 1: params and the body's top level */
    for (uint32_t i = 0; i < fn->n_params; i++) {
        const char *pn = fn->params[i].name;
        struct psym *e = ptx_sym_push(ps, pn, (uint32_t)strlen(pn), PSYM_PARAM, fn->line, 1);
        if (e)
            e->idx = (int32_t)i;
    }
    parse_body(ps);
    if (!ps->stop)
        resolve_labels(ps);
    while (ps->depth > 0)
        ptx_pop_scope(ps);
    ps->fn = NULL;
    if (dup) {
        scratch.params = NULL;
        scratch.n_params = 0;
        ptx_func_free_contents(&scratch);
    }
    return;
fail:
    ptx_free_params(params, n_params);
    ptx_free_params(rets, n_rets);
    ptx_sync_stmt(ps);
    /* a failed header may leave a body behind: skip it as a block */
    if (ptx_is_punct(ptx_peek(ps, 0), '{')) {
        int level = 0;
        for (;;) {
            struct ptx_tok bt = ptx_take(ps);
            if (bt.kind == TK_EOF)
                break;
            if (ptx_is_punct(&bt, '{'))
                level++;
            else if (ptx_is_punct(&bt, '}') && --level == 0)
                break;
        }
    }
}

/* Statements of a function body until its closing '}'. */
static void parse_body(struct ptx_parser *ps)
{
    uint32_t body_depth = ps->depth;
    uint16_t loc_file = 0; /* .file slot of the last .loc, 0 none */
    uint32_t loc_line = 0; /* its line, 0 none */
    while (!ps->stop) {
        const struct ptx_tok *t = ptx_peek(ps, 0);
        if (t->kind == TK_EOF) {
            ptx_error(ps, t->line, t->col, "unexpected end of file in body of '%s'", ps->fn->name);
            return;
        }
        if (ptx_is_punct(t, '{')) {
            ptx_take(ps);
            ptx_push_scope(ps);
            continue;
        }
        if (ptx_is_punct(t, '}')) {
            ptx_take(ps);
            if (ps->depth == body_depth)
                return;
            ptx_pop_scope(ps);
            continue;
        }
        if (t->kind == TK_DIR) {
            if (ptx_tok_is(t, ".reg")) {
                ptx_parse_reg_decl(ps);
            } else if (ptx_tok_is(t, ".local") || ptx_tok_is(t, ".shared") || ptx_tok_is(t, ".param")) {
                struct ptx_tok kw = ptx_take(ps);
                enum ptx_space sp = ptx_tok_is(&kw, ".param") ? PTX_SPACE_ARGS
                                                              : ptx_space_from_word(kw.s, kw.len);
                ptx_parse_var_decl(ps, sp, PTX_LINK_NONE, false);
            } else if (ptx_tok_is(t, ".loc")) {
                ptx_parse_loc(ps, &loc_file, &loc_line);
            } else if (ptx_tok_is(t, ".file")) {
                ptx_parse_file_directive(ps);
            } else if (ptx_tok_is(t, ".pragma")) {
                ptx_take(ps);
                ptx_sync_stmt(ps);
            } else {
                ptx_error(ps, t->line, t->col, "unexpected directive '%.*s' in function body",
                          (int)t->len, t->s);
                ptx_take(ps);
                ptx_sync_stmt(ps);
            }
            continue;
        }
        if (t->kind == TK_IDENT && ptx_is_punct(ptx_peek(ps, 1), ':')) {
            struct ptx_tok name = ptx_take(ps);
            ptx_take(ps);
            add_label(ps, &name);
            continue;
        }
        if (ptx_is_punct(t, '@')) {
            struct ptx_tok at = ptx_take(ps);
            bool neg = false;
            if (ptx_is_punct(ptx_peek(ps, 0), '!')) {
                ptx_take(ps);
                neg = true;
            }
            const struct ptx_tok *pt = ptx_peek(ps, 0);
            if (pt->kind != TK_IDENT) {
                ptx_error(ps, pt->line, pt->col, "expected a predicate after '@', found '%.*s'",
                          (int)pt->len, pt->s);
                ptx_sync_stmt(ps);
                continue;
            }
            struct ptx_tok ptok = ptx_take(ps);
            int32_t g = ptx_reg_ref(ps, &ptok);
            if (g >= 0 && !ps->fn->regs[g].is_pred) {
                ptx_error(ps, ptok.line, ptok.col, "guard '%.*s' is not a predicate register",
                          (int)ptok.len, ptok.s);
                g = -1;
            }
            if (g < 0) {
                ptx_sync_stmt(ps);
                continue;
            }
            if (ptx_peek(ps, 0)->kind != TK_IDENT) {
                const struct ptx_tok *x = ptx_peek(ps, 0);
                ptx_error(ps, x->line, x->col, "expected an instruction after the guard, found '%.*s'",
                          (int)x->len, x->s);
                ptx_sync_stmt(ps);
                continue;
            }
            uint32_t first = ps->fn->n_insns;
            ptx_parse_insn(ps, g, neg, at.line, at.col);
            ptx_stamp_loc(ps->fn, first, loc_file, loc_line);
            continue;
        }
        if (t->kind == TK_IDENT) {
            uint32_t first = ps->fn->n_insns;
            ptx_parse_insn(ps, -1, false, 0, 0);
            ptx_stamp_loc(ps->fn, first, loc_file, loc_line);
            continue;
        }
        if (t->kind != TK_ERROR)
            ptx_error(ps, t->line, t->col, "expected an instruction, found '%.*s'", (int)t->len, t->s);
        ptx_take(ps);
        ptx_sync_stmt(ps);
    }
}

