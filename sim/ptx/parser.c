/* sim/ptx/parser.c: the core of the PTX parser: allocation helpers, error
 * reporting with a cap, the token stream with lookahead and statement-level
 * recovery, and the scoped symbol table (module, function, nested '{}'
 * blocks as emitted around call sequences and inline asm) with register
 * references (%r<N> ranges get a dense index only when first used).
 *
 * The grammar is in the files next to it: parse_module.c (module
 * directives and source line information), parse_decl.c (variables,
 * registers, parameter lists), parse_func.c (function definitions, labels
 * and the statement loop of bodies), insn.c (one instruction).
 * Does not: lay out memory or resolve calls (module.c), or analyse code
 * (cfg.c, passes.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/internal.h"
#include "sim/ptx/ptx.h"

/* ------------------------------------------------------------- helpers */
void ptx_grow(void **p, size_t elem, uint32_t *cap, size_t need)
{
    if (need <= *cap)
        return;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need)
        ncap *= 2;
    if (ncap > UINT32_MAX)
        sim_panic("ptx: array too large (%zu elements)", ncap);
    void *np = realloc(*p, ncap * elem);
    if (!np)
        sim_panic("ptx: out of memory (%zu bytes)", ncap * elem);
    memset((char *)np + (size_t)*cap * elem, 0, (ncap - *cap) * elem);
    *p = np;
    *cap = (uint32_t)ncap;
}

void *ptx_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        sim_panic("ptx: out of memory (%zu x %zu bytes)", n, size);
    return p;
}

char *ptx_strndup(const char *s, size_t n)
{
    char *r = ptx_xcalloc(n + 1, 1);
    memcpy(r, s, n);
    return r;
}

void ptx_error(struct ptx_parser *ps, uint32_t line, uint32_t col, const char *fmt, ...)
{
    char body[1024];
    va_list ap;
    if (ps->stop)
        return;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    diag_add(ps->d, ps->file, (int)line, (int)col, "%s", body);
    if (++ps->n_errors >= PTX_MAX_ERRORS) {
        diag_add(ps->d, ps->file, (int)line, (int)col, "too many errors, stopping");
        ps->stop = true;
    }
}

/* --------------------------------------------------------- token stream */
const struct ptx_tok *ptx_peek(struct ptx_parser *ps, unsigned k)
{
    SIM_ASSERT(k < PTX_LOOKAHEAD, "lookahead %u", k);
    while (ps->la_n <= k) {
        ps->la[(ps->la_head + ps->la_n) % PTX_LOOKAHEAD] = ptx_lex_next(&ps->lx);
        ps->la_n++;
    }
    return &ps->la[(ps->la_head + k) % PTX_LOOKAHEAD];
}

struct ptx_tok ptx_take(struct ptx_parser *ps)
{
    struct ptx_tok t = *ptx_peek(ps, 0);
    if (t.kind != TK_EOF) {
        ps->la_head = (ps->la_head + 1) % PTX_LOOKAHEAD;
        ps->la_n--;
    }
    return t;
}

bool ptx_is_punct(const struct ptx_tok *t, char c) { return t->kind == TK_PUNCT && t->punct == c; }

bool ptx_tok_is(const struct ptx_tok *t, const char *word)
{
    size_t n = strlen(word);
    return t->len == n && memcmp(t->s, word, n) == 0;
}

static bool starts_statement(struct ptx_parser *ps, const struct ptx_tok *t)
{
    if (t->kind == TK_DIR || ptx_is_punct(t, '@'))
        return true;
    return t->kind == TK_IDENT && ptx_is_punct(ptx_peek(ps, 1), ':');
}

void ptx_sync_stmt(struct ptx_parser *ps)
{
    uint32_t line = ptx_peek(ps, 0)->line;
    for (;;) {
        const struct ptx_tok *t = ptx_peek(ps, 0);
        if (t->kind == TK_EOF || ptx_is_punct(t, '{') || ptx_is_punct(t, '}'))
            return;
        if (ptx_is_punct(t, ';')) {
            ptx_take(ps);
            return;
        }
        if (t->line != line && starts_statement(ps, t))
            return;
        ptx_take(ps);
    }
}

/* Skip every token on the given line (line-oriented directives such as
 * .loc, .file, .version). */
void ptx_skip_line(struct ptx_parser *ps, uint32_t line)
{
    while (ptx_peek(ps, 0)->kind != TK_EOF && ptx_peek(ps, 0)->line == line)
        ptx_take(ps);
}

bool ptx_expect_punct(struct ptx_parser *ps, char c, const char *what)
{
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (ptx_is_punct(t, c)) {
        ptx_take(ps);
        return true;
    }
    if (t->kind == TK_EOF)
        ptx_error(ps, t->line, t->col, "expected '%c' %s, found end of file", c, what);
    else
        ptx_error(ps, t->line, t->col, "expected '%c' %s, found '%.*s'", c, what, (int)t->len, t->s);
    return false;
}

bool ptx_expect_uint(struct ptx_parser *ps, const char *what, uint64_t max, uint64_t *v)
{
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (t->kind != TK_INT) {
        ptx_error(ps, t->line, t->col, "expected %s, found '%.*s'", what, (int)t->len, t->s);
        return false;
    }
    if (t->ival > max) {
        ptx_error(ps, t->line, t->col, "%s '%.*s' is too large", what, (int)t->len, t->s);
        ptx_take(ps);
        return false;
    }
    *v = t->ival;
    ptx_take(ps);
    return true;
}

/* --------------------------------------------------------- symbol table */
static uint32_t hash_name(const char *s, uint32_t len)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

struct pmap_slot *ptx_pmap_find(struct pmap *m, const char *key, uint32_t len)
{
    if (!m->cap)
        return NULL;
    uint32_t i = hash_name(key, len) & (m->cap - 1);
    for (;;) {
        struct pmap_slot *s = &m->slots[i];
        if (!s->key)
            return NULL;
        if (s->len == len && memcmp(s->key, key, len) == 0)
            return s;
        i = (i + 1) & (m->cap - 1);
    }
}

struct pmap_slot *ptx_pmap_add(struct pmap *m, const char *key, uint32_t len)
{
    struct pmap_slot *s = ptx_pmap_find(m, key, len);
    if (s)
        return s;
    if ((m->used + 1) * 2 > m->cap) {
        uint32_t ncap = m->cap ? m->cap * 2 : 64;
        struct pmap_slot *ns = ptx_xcalloc(ncap, sizeof *ns);
        for (uint32_t i = 0; i < m->cap; i++) {
            struct pmap_slot *o = &m->slots[i];
            if (!o->key || o->head < 0)
                continue; /* drop names with no live binding */
            uint32_t j = hash_name(o->key, o->len) & (ncap - 1);
            while (ns[j].key)
                j = (j + 1) & (ncap - 1);
            ns[j] = *o;
        }
        m->used = 0;
        for (uint32_t i = 0; i < ncap; i++)
            m->used += ns[i].key != NULL;
        free(m->slots);
        m->slots = ns;
        m->cap = ncap;
    }
    uint32_t i = hash_name(key, len) & (m->cap - 1);
    while (m->slots[i].key)
        i = (i + 1) & (m->cap - 1);
    s = &m->slots[i];
    s->key = key;
    s->len = len;
    s->head = -1;
    m->used++;
    return s;
}

void ptx_pmap_free(struct pmap *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

/* Bind name in the current scope; reports a redefinition in the same scope. */
struct psym *ptx_sym_push(struct ptx_parser *ps, const char *name, uint32_t len,
                          enum psym_kind kind, uint32_t line, uint32_t col)
{
    struct pmap *m = kind == PSYM_RANGE ? &ps->ranges : &ps->names;
    struct pmap_slot *slot = ptx_pmap_add(m, name, len);
    if (slot->head >= 0 && ps->syms[slot->head].depth == ps->depth) {
        const struct psym *old = &ps->syms[slot->head];
        ptx_error(ps, line, col, "redefinition of '%.*s' (first declared at line %u)", (int)len,
                  name, old->line);
        return NULL;
    }
    int32_t prev = slot->head;
    struct psym *e = PTX_PUSH(ps->syms, ps->n_syms, ps->syms_cap);
    memset(e, 0, sizeof *e);
    e->name = name;
    e->len = len;
    e->kind = (uint8_t)kind;
    e->idx = -1;
    e->prev_same = prev;
    e->depth = ps->depth;
    e->line = line;
    e->col = col;
    /* ptx_pmap_add may have rehashed before the push; look the slot up again */
    ptx_pmap_find(m, name, len)->head = (int32_t)(ps->n_syms - 1);
    return e;
}

static void sym_pop_to(struct ptx_parser *ps, uint32_t height)
{
    while (ps->n_syms > height) {
        struct psym *e = &ps->syms[ps->n_syms - 1];
        struct pmap *m = e->kind == PSYM_RANGE ? &ps->ranges : &ps->names;
        struct pmap_slot *slot = ptx_pmap_find(m, e->name, e->len);
        if (ALWAYS(slot != NULL)) {
            slot->head = e->prev_same;
            /* NOTE(pmap): a slot whose last binding is gone keeps its place
             * in the probe chain but drops the key, which may point into
             * memory freed later (parameter names of a redeclared
             * function). Names are never empty, so "" never matches. */
            if (slot->head < 0) {
                slot->key = "";
                slot->len = 0;
            }
        }
        free(e->range_vregs);
        ps->n_syms--;
    }
}

int32_t ptx_sym_lookup(struct ptx_parser *ps, const char *name, uint32_t len)
{
    struct pmap_slot *s = ptx_pmap_find(&ps->names, name, len);
    return s ? s->head : -1;
}

void ptx_push_scope(struct ptx_parser *ps)
{
    ptx_grow((void **)&ps->frames, sizeof *ps->frames, &ps->frames_cap, (size_t)ps->depth + 2);
    ps->depth++;
    struct pframe *f = &ps->frames[ps->depth];
    f->sym_height = ps->n_syms;
    f->args_top = ps->args_top;
    f->scope_id = ps->cur_scope;
    if (ps->depth >= 2) { /* a nested block: new label scope */
        uint32_t *par = PTX_PUSH(ps->scope_parent, ps->n_scopes, ps->scopes_cap);
        *par = ps->cur_scope;
        ps->cur_scope = ps->n_scopes - 1;
    }
}

void ptx_pop_scope(struct ptx_parser *ps)
{
    if (!ALWAYS(ps->depth > 0))
        return;
    struct pframe *f = &ps->frames[ps->depth];
    sym_pop_to(ps, f->sym_height);
    ps->args_top = f->args_top;
    ps->cur_scope = f->scope_id;
    ps->depth--;
}

static int32_t new_vreg(struct ptx_parser *ps, const char *name, uint32_t len, enum ptx_type type)
{
    struct ptx_func *fn = ps->fn;
    struct ptx_reg *r = PTX_PUSH(fn->regs, fn->n_regs, ps->regs_cap);
    memset(r, 0, sizeof *r);
    r->name = ptx_strndup(name, len);
    r->type = (uint8_t)type;
    r->is_pred = type == PTX_T_PRED;
    r->bytes = (uint8_t)ptx_type_bytes(type);
    r->n_phys = r->is_pred ? 0 : (r->bytes == 8 ? 2 : 1);
    r->phys = -1;
    if (r->is_pred)
        fn->n_pred_regs++;
    else
        fn->n_regs_by_bytes[r->bytes]++;
    return (int32_t)(fn->n_regs - 1);
}

int32_t ptx_reg_ref(struct ptx_parser *ps, const struct ptx_tok *t)
{
    int32_t best = -1;
    uint32_t suffix = 0;
    struct pmap_slot *s = ptx_pmap_find(&ps->names, t->s, t->len);
    if (s && s->head >= 0)
        best = s->head;
    /* range match: prefix + decimal suffix without leading zeros */
    uint32_t nd = 0;
    while (nd < t->len && nd < 10 && t->s[t->len - 1 - nd] >= '0' && t->s[t->len - 1 - nd] <= '9')
        nd++;
    if (nd > 0 && nd < t->len && !(nd > 1 && t->s[t->len - nd] == '0')) {
        uint64_t v = 0;
        for (uint32_t i = t->len - nd; i < t->len; i++)
            v = v * 10 + (uint64_t)(t->s[i] - '0');
        struct pmap_slot *r = ptx_pmap_find(&ps->ranges, t->s, t->len - nd);
        if (r && r->head >= 0 && v < ps->syms[r->head].count && r->head > best) {
            best = r->head;
            suffix = (uint32_t)v;
        }
    }
    if (best < 0 || !ps->fn) {
        ptx_error(ps, t->line, t->col, "undefined register '%.*s'", (int)t->len, t->s);
        return -1;
    }
    struct psym *e = &ps->syms[best];
    if (e->kind == PSYM_RANGE) {
        if (e->range_vregs[suffix] < 0)
            e->range_vregs[suffix] = new_vreg(ps, t->s, t->len, (enum ptx_type)e->type);
        return e->range_vregs[suffix];
    }
    if (e->kind != PSYM_REG) {
        ptx_error(ps, t->line, t->col, "'%.*s' is not a register", (int)t->len, t->s);
        return -1;
    }
    if (e->idx < 0)
        e->idx = new_vreg(ps, t->s, t->len, (enum ptx_type)e->type);
    return e->idx;
}

void ptx_parser_fini(struct ptx_parser *ps)
{
    sym_pop_to(ps, 0);
    free(ps->syms);
    ptx_pmap_free(&ps->names);
    ptx_pmap_free(&ps->ranges);
    ptx_pmap_free(&ps->label_map);
    free(ps->frames);
    free(ps->scope_parent);
    free(ps->plabels);
    free(ps->lrefs);
    free(ps->crefs);
}
