/* sim/ptx/parser.c: PTX module structure, declarations and scopes.
 *
 * Does: the token stream with lookahead; error reporting with a cap and
 * statement-level recovery; the scoped symbol table (module, function,
 * nested '{}' blocks as emitted around call sequences and inline asm);
 * module directives (.version/.target/.address_size; .section skipped),
 * source line information (.file and .loc: each instruction records the
 * CUDA file and line of the last .loc before it; docs/ptx.md), variable
 * declarations with .align, vectors, array dimensions
 * and (nested) initialisers, .entry/.func headers with parameter lists and
 * performance directives, register declarations (including %r<N> ranges,
 * whose registers get a dense index only when first used), labels, and
 * the statement loop of function bodies. Label references are resolved
 * per function at its closing brace, scope by scope.
 * Does not: decode instructions (insn.c), lay out memory or resolve calls
 * (module.c), or analyse code (cfg.c, passes.c).
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
static void skip_line(struct ptx_parser *ps, uint32_t line)
{
    while (ptx_peek(ps, 0)->kind != TK_EOF && ptx_peek(ps, 0)->line == line)
        ptx_take(ps);
}

static bool expect_punct(struct ptx_parser *ps, char c, const char *what)
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

static bool expect_uint(struct ptx_parser *ps, const char *what, uint64_t max, uint64_t *v)
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

/* ---------------------------------------------- source line information */
/* 1-based slot of PTX file index `index` in the module's .file table; an
 * index not seen before gets an undeclared entry (a .loc may come before
 * its .file: nvcc puts the .file directives at the end of the module). */
static uint16_t src_file_slot(struct ptx_parser *ps, uint32_t index)
{
    struct ptx_module *m = ps->m;
    for (uint32_t i = 0; i < m->n_src_files; i++)
        if (m->src_files[i].index == index)
            return (uint16_t)(i + 1);
    uint32_t cap = m->n_src_files;
    ptx_grow((void **)&m->src_files, sizeof *m->src_files, &cap, (size_t)m->n_src_files + 1);
    m->src_files[m->n_src_files] = (struct ptx_srcfile){NULL, NULL, index, 0};
    return (uint16_t)++m->n_src_files; /* at most 65535 distinct indices */
}

/* An unsigned operand of a line-oriented directive (kw), on kw's line. */
static bool dir_uint(struct ptx_parser *ps, const struct ptx_tok *kw, const char *what, uint64_t min,
                     uint64_t max, uint64_t *v)
{
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (t->line != kw->line || t->kind == TK_EOF) {
        ptx_error(ps, kw->line, kw->col, "%.*s: missing %s", (int)kw->len, kw->s, what);
        return false;
    }
    if (t->kind != TK_INT) {
        ptx_error(ps, t->line, t->col, "%.*s: expected %s, found '%.*s'", (int)kw->len, kw->s, what,
                  (int)t->len, t->s);
        return false;
    }
    if (t->ival < min || t->ival > max) {
        ptx_error(ps, t->line, t->col, "%.*s: %s %llu is out of range (%llu to %llu)", (int)kw->len, kw->s,
                  what, (unsigned long long)t->ival, (unsigned long long)min, (unsigned long long)max);
        return false;
    }
    *v = t->ival;
    ptx_take(ps);
    return true;
}

/* The rest of a directive's line may only be a ','-led extension that we
 * ignore (.loc: function_name/inlined_at; .file: timestamp and size). */
static bool dir_tail(struct ptx_parser *ps, const struct ptx_tok *kw)
{
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (t->line == kw->line && t->kind != TK_EOF && !ptx_is_punct(t, ',')) {
        ptx_error(ps, t->line, t->col, "%.*s: unexpected '%.*s'", (int)kw->len, kw->s, (int)t->len, t->s);
        return false;
    }
    return true;
}

/* `.loc file line [column] [, function_name ... , inlined_at ...]`: the
 * CUDA source position of the instructions that follow. *file and *line
 * receive the .file table slot and the line; both 0 when the directive is
 * malformed (reported) or names line 0 (no source position). */
static void parse_loc(struct ptx_parser *ps, uint16_t *file, uint32_t *line)
{
    struct ptx_tok kw = ptx_take(ps);
    uint64_t f = 0, l = 0, c = 0;
    *file = 0;
    *line = 0;
    if (dir_uint(ps, &kw, "file index", 1, UINT16_MAX, &f) && dir_uint(ps, &kw, "line", 0, UINT32_MAX, &l)) {
        const struct ptx_tok *t = ptx_peek(ps, 0);
        bool ok = t->line != kw.line || t->kind != TK_INT || dir_uint(ps, &kw, "column", 0, UINT32_MAX, &c);
        if (ok && dir_tail(ps, &kw)) {
            uint16_t slot = src_file_slot(ps, (uint32_t)f);
            if (l) {
                *file = slot;
                *line = (uint32_t)l;
            }
        }
    }
    skip_line(ps, kw.line);
}

/* `.file index "path" [, timestamp, size]` (PTX ISA), or `.file index "dir"
 * "name"` (DWARF 5 style): the name of a file index used by .loc. */
static void parse_file(struct ptx_parser *ps)
{
    struct ptx_tok kw = ptx_take(ps);
    uint64_t f = 0;
    if (!dir_uint(ps, &kw, "file index", 1, UINT16_MAX, &f)) {
        skip_line(ps, kw.line);
        return;
    }
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (t->line != kw.line || t->kind != TK_STRING) {
        ptx_error(ps, t->line == kw.line ? t->line : kw.line, t->line == kw.line ? t->col : kw.col,
                  ".file: expected a quoted file name after the index");
        skip_line(ps, kw.line);
        return;
    }
    struct ptx_tok name = ptx_take(ps);
    char *path = ptx_strndup(name.s + 1, name.len - 2);
    t = ptx_peek(ps, 0);
    if (t->line == kw.line && t->kind == TK_STRING) { /* directory, then name */
        struct ptx_tok leaf = ptx_take(ps);
        size_t dl = strlen(path), ll = leaf.len - 2;
        char *joined;
        if (ll && leaf.s[1] == '/') {
            joined = ptx_strndup(leaf.s + 1, ll);
        } else {
            joined = ptx_xcalloc(dl + ll + 2, 1);
            memcpy(joined, path, dl);
            if (dl && path[dl - 1] != '/')
                joined[dl++] = '/';
            memcpy(joined + dl, leaf.s + 1, ll);
        }
        free(path);
        path = joined;
    }
    if (!dir_tail(ps, &kw)) {
        free(path);
        skip_line(ps, kw.line);
        return;
    }
    skip_line(ps, kw.line);
    uint16_t slot = src_file_slot(ps, (uint32_t)f); /* may move the table */
    struct ptx_srcfile *sf = &ps->m->src_files[slot - 1];
    if (sf->line) {
        if (strcmp(sf->path, path) != 0)
            ptx_error(ps, kw.line, kw.col, ".file %llu is \"%s\" here but \"%s\" at line %u",
                      (unsigned long long)f, path, sf->path, sf->line);
        free(path);
        return;
    }
    sf->path = path;
    sf->line = kw.line;
}

/* After the module: name the file indices no .file declared ("<file N>",
 * messages only) and point each entry's base at its last path component. */
static void finish_src_files(struct ptx_module *m)
{
    for (uint32_t i = 0; i < m->n_src_files; i++) {
        struct ptx_srcfile *sf = &m->src_files[i];
        if (!sf->path) {
            char buf[32];
            snprintf(buf, sizeof buf, "<file %u>", sf->index);
            sf->path = ptx_strndup(buf, strlen(buf));
            sf->base = sf->path;
            continue;
        }
        /* '/' or '\\' (nvcc on Windows writes C:\\dir\\kernel.cu) */
        sf->base = sf->path;
        for (const char *q = sf->path; *q; q++)
            if ((*q == '/' || *q == '\\') && q[1])
                sf->base = q + 1;
    }
}

/* Give the instructions [from, fn->n_insns) the current .loc position. */
static void stamp_loc(struct ptx_func *fn, uint32_t from, uint16_t file, uint32_t line)
{
    for (uint32_t i = from; i < fn->n_insns; i++) {
        fn->insns[i].src_file = file;
        fn->insns[i].src_line = line;
    }
}

/* --------------------------------------------------------- symbol table */
static uint32_t hash_name(const char *s, uint32_t len)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

static struct pmap_slot *pmap_find(struct pmap *m, const char *key, uint32_t len)
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

static struct pmap_slot *pmap_add(struct pmap *m, const char *key, uint32_t len)
{
    struct pmap_slot *s = pmap_find(m, key, len);
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

static void pmap_free(struct pmap *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

/* Bind name in the current scope; reports a redefinition in the same scope. */
static struct psym *sym_push(struct ptx_parser *ps, const char *name, uint32_t len,
                             enum psym_kind kind, uint32_t line, uint32_t col)
{
    struct pmap *m = kind == PSYM_RANGE ? &ps->ranges : &ps->names;
    struct pmap_slot *slot = pmap_add(m, name, len);
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
    /* pmap_add may have rehashed before the push; look the slot up again */
    pmap_find(m, name, len)->head = (int32_t)(ps->n_syms - 1);
    return e;
}

static void sym_pop_to(struct ptx_parser *ps, uint32_t height)
{
    while (ps->n_syms > height) {
        struct psym *e = &ps->syms[ps->n_syms - 1];
        struct pmap *m = e->kind == PSYM_RANGE ? &ps->ranges : &ps->names;
        struct pmap_slot *slot = pmap_find(m, e->name, e->len);
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
    struct pmap_slot *s = pmap_find(&ps->names, name, len);
    return s ? s->head : -1;
}

static void push_scope(struct ptx_parser *ps)
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

static void pop_scope(struct ptx_parser *ps)
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
    struct pmap_slot *s = pmap_find(&ps->names, t->s, t->len);
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
        struct pmap_slot *r = pmap_find(&ps->ranges, t->s, t->len - nd);
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
    if (!expect_uint(ps, "alignment", 1u << 20, &v))
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
        if (!expect_uint(ps, "array dimension", 1ull << 32, &v))
            return false;
        if (v == 0 || *count > (1ull << 34) / v) {
            ptx_error(ps, lb.line, lb.col, "bad array dimension");
            return false;
        }
        *count *= v;
        if (!expect_punct(ps, ']', "after array dimension"))
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
            return expect_punct(ps, '}', "to close initialiser");
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
static void parse_var_decl(struct ptx_parser *ps, enum ptx_space space, enum ptx_linkage link,
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
        struct psym *e = sym_push(ps, name.s, name.len, ps->fn ? PSYM_FVAR : PSYM_MODVAR,
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
        if (!expect_punct(ps, ';', "after declaration"))
            ptx_sync_stmt(ps);
        return;
    }
}

/* .reg .type name[, name...]; with name = %r or %r<N>. */
static void parse_reg_decl(struct ptx_parser *ps)
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
            if (!expect_uint(ps, "register count", 1u << 20, &n) ||
                !expect_punct(ps, '>', "after register count")) {
                ptx_sync_stmt(ps);
                return;
            }
            struct psym *e = sym_push(ps, name.s, name.len, PSYM_RANGE, name.line, name.col);
            if (e) {
                e->type = (uint8_t)a.type;
                e->count = (uint32_t)n;
                e->range_vregs = ptx_xcalloc(n ? n : 1, sizeof *e->range_vregs);
                for (uint64_t i = 0; i < n; i++)
                    e->range_vregs[i] = -1;
            }
        } else {
            struct psym *e = sym_push(ps, name.s, name.len, PSYM_REG, name.line, name.col);
            if (e)
                e->type = (uint8_t)a.type;
        }
        if (ptx_is_punct(ptx_peek(ps, 0), ',')) {
            ptx_take(ps);
            continue;
        }
        if (!expect_punct(ps, ';', "after register declaration"))
            ptx_sync_stmt(ps);
        return;
    }
}

/* ------------------------------------------------------------ functions */
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

static bool parse_param_list(struct ptx_parser *ps, struct ptx_param **arr, uint32_t *n, uint32_t *cap,
                             bool is_ret)
{
    if (!expect_punct(ps, '(', "to open the parameter list"))
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
        return expect_punct(ps, ')', "to close the parameter list");
    }
}

static void free_params(struct ptx_param *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        free(p[i].name);
    free(p);
}

/* Performance-tuning directives between the header and the body. */
static bool parse_func_attrs(struct ptx_parser *ps, struct ptx_func *fn)
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
                if (!expect_uint(ps, "directive value", UINT32_MAX, &v))
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
            if (!expect_uint(ps, "directive value", UINT32_MAX, &v))
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

static void add_label(struct ptx_parser *ps, const struct ptx_tok *name)
{
    struct pmap_slot *slot = pmap_add(&ps->label_map, name->s, name->len);
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
    pmap_find(&ps->label_map, name->s, name->len)->head = (int32_t)(ps->n_plabels - 1);
    struct ptx_label *pl = PTX_PUSH(ps->fn->labels, ps->fn->n_labels, ps->labels_cap);
    pl->name = ptx_strndup(name->s, name->len);
    pl->pc = ps->fn->n_insns;
}

static void resolve_labels(struct ptx_parser *ps)
{
    struct ptx_func *fn = ps->fn;
    for (uint32_t i = 0; i < ps->n_lrefs; i++) {
        const struct plabel_ref *r = &ps->lrefs[i];
        struct pmap_slot *slot = pmap_find(&ps->label_map, r->name, r->len);
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
static void parse_function(struct ptx_parser *ps, bool is_entry, enum ptx_linkage link,
                           const struct ptx_tok *kw)
{
    struct ptx_param *params = NULL, *rets = NULL;
    uint32_t n_params = 0, n_rets = 0, cap_p = 0, cap_r = 0;
    if (!is_entry && ptx_is_punct(ptx_peek(ps, 0), '(')) {
        if (!parse_param_list(ps, &rets, &n_rets, &cap_r, true))
            goto fail;
    }
    const struct ptx_tok *nt = ptx_peek(ps, 0);
    if (nt->kind != TK_IDENT) {
        ptx_error(ps, nt->line, nt->col, "expected a function name, found '%.*s'", (int)nt->len, nt->s);
        goto fail;
    }
    struct ptx_tok name = ptx_take(ps);
    if (ptx_is_punct(ptx_peek(ps, 0), '(')) {
        if (!parse_param_list(ps, &params, &n_params, &cap_p, false))
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
        struct psym *e = sym_push(ps, name.s, name.len, PSYM_FUNC, name.line, name.col);
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
        free_params(params, n_params);
        free_params(rets, n_rets);
        params = rets = NULL;
        n_params = n_rets = 0;
    } else {
        free_params(fn->params, fn->n_params);
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

    if (!parse_func_attrs(ps, fn)) {
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
    pmap_free(&ps->label_map);
    ps->n_lrefs = 0;
    ps->args_top = 0;

    push_scope(ps); /* depth 1: params and the body's top level */
    for (uint32_t i = 0; i < fn->n_params; i++) {
        const char *pn = fn->params[i].name;
        struct psym *e = sym_push(ps, pn, (uint32_t)strlen(pn), PSYM_PARAM, fn->line, 1);
        if (e)
            e->idx = (int32_t)i;
    }
    parse_body(ps);
    if (!ps->stop)
        resolve_labels(ps);
    while (ps->depth > 0)
        pop_scope(ps);
    ps->fn = NULL;
    if (dup) {
        scratch.params = NULL;
        scratch.n_params = 0;
        ptx_func_free_contents(&scratch);
    }
    return;
fail:
    free_params(params, n_params);
    free_params(rets, n_rets);
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
            push_scope(ps);
            continue;
        }
        if (ptx_is_punct(t, '}')) {
            ptx_take(ps);
            if (ps->depth == body_depth)
                return;
            pop_scope(ps);
            continue;
        }
        if (t->kind == TK_DIR) {
            if (ptx_tok_is(t, ".reg")) {
                parse_reg_decl(ps);
            } else if (ptx_tok_is(t, ".local") || ptx_tok_is(t, ".shared") || ptx_tok_is(t, ".param")) {
                struct ptx_tok kw = ptx_take(ps);
                enum ptx_space sp = ptx_tok_is(&kw, ".param") ? PTX_SPACE_ARGS
                                                              : ptx_space_from_word(kw.s, kw.len);
                parse_var_decl(ps, sp, PTX_LINK_NONE, false);
            } else if (ptx_tok_is(t, ".loc")) {
                parse_loc(ps, &loc_file, &loc_line);
            } else if (ptx_tok_is(t, ".file")) {
                parse_file(ps);
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
            stamp_loc(ps->fn, first, loc_file, loc_line);
            continue;
        }
        if (t->kind == TK_IDENT) {
            uint32_t first = ps->fn->n_insns;
            ptx_parse_insn(ps, -1, false, 0, 0);
            stamp_loc(ps->fn, first, loc_file, loc_line);
            continue;
        }
        if (t->kind != TK_ERROR)
            ptx_error(ps, t->line, t->col, "expected an instruction, found '%.*s'", (int)t->len, t->s);
        ptx_take(ps);
        ptx_sync_stmt(ps);
    }
}

/* ---------------------------------------------------------------- module */
static void parse_version(struct ptx_parser *ps)
{
    struct ptx_tok kw = ptx_take(ps);
    const struct ptx_tok *t = ptx_peek(ps, 0);
    unsigned maj = 0, min = 0;
    char buf[32];
    if ((t->kind == TK_FLOAT && t->fwidth == 0) || t->kind == TK_INT) {
        size_t n = MIN((size_t)t->len, sizeof buf - 1);
        memcpy(buf, t->s, n);
        buf[n] = 0;
        if (sscanf(buf, "%u.%u", &maj, &min) < 1)
            maj = 0;
    }
    if (maj == 0) {
        ptx_error(ps, t->line, t->col, "expected a version number after .version, found '%.*s'",
                  (int)t->len, t->s);
    } else if (maj < 7 || maj > 9) {
        ptx_error(ps, t->line, t->col, "unsupported PTX version %u.%u (7.0 to 9.x are supported)", maj,
                  min);
    }
    ps->m->version_major = maj;
    ps->m->version_minor = min;
    skip_line(ps, kw.line);
}

static void parse_target(struct ptx_parser *ps)
{
    struct ptx_tok kw = ptx_take(ps);
    bool any = false;
    while (ptx_peek(ps, 0)->kind != TK_EOF && ptx_peek(ps, 0)->line == kw.line) {
        struct ptx_tok t = ptx_take(ps);
        if (ptx_is_punct(&t, ',') || ptx_is_punct(&t, ';'))
            continue;
        if (t.kind != TK_IDENT) {
            ptx_error(ps, t.line, t.col, "unexpected '%.*s' in .target", (int)t.len, t.s);
            continue;
        }
        any = true;
        if ((t.len > 3 && memcmp(t.s, "sm_", 3) == 0) || (t.len > 8 && memcmp(t.s, "compute_", 8) == 0)) {
            const char *q = memchr(t.s, '_', t.len) + 1;
            unsigned v = 0;
            while (q < t.s + t.len && *q >= '0' && *q <= '9' && v < 10000)
                v = v * 10 + (unsigned)(*q++ - '0');
            if (v < 50)
                ptx_error(ps, t.line, t.col, "unsupported target '%.*s' (sm_50 or newer required)",
                          (int)t.len, t.s);
            ps->m->target_sm = v;
        } else if (!ptx_tok_is(&t, "texmode_independent") && !ptx_tok_is(&t, "texmode_unified") &&
                   !ptx_tok_is(&t, "debug") && !ptx_tok_is(&t, "map_f64_to_f32")) {
            ptx_error(ps, t.line, t.col, "unknown target '%.*s'", (int)t.len, t.s);
        }
    }
    if (!any)
        ptx_error(ps, kw.line, kw.col, "missing target after .target");
}

static void skip_section(struct ptx_parser *ps)
{
    struct ptx_tok kw = ptx_take(ps);
    while (ptx_peek(ps, 0)->kind != TK_EOF && !ptx_is_punct(ptx_peek(ps, 0), '{') &&
           ptx_peek(ps, 0)->line == kw.line)
        ptx_take(ps);
    if (!ptx_is_punct(ptx_peek(ps, 0), '{'))
        return;
    int level = 0;
    for (;;) {
        struct ptx_tok t = ptx_take(ps);
        if (t.kind == TK_EOF) {
            ptx_error(ps, kw.line, kw.col, "unterminated .section");
            return;
        }
        if (ptx_is_punct(&t, '{'))
            level++;
        else if (ptx_is_punct(&t, '}') && --level == 0)
            return;
    }
}

void ptx_parse_module(struct ptx_parser *ps)
{
    ptx_grow((void **)&ps->frames, sizeof *ps->frames, &ps->frames_cap, 1);
    ps->depth = 0;
    bool seen_addr = false;
    while (!ps->stop) {
        const struct ptx_tok *t = ptx_peek(ps, 0);
        if (t->kind == TK_EOF)
            break;
        if (t->kind == TK_ERROR) {
            ptx_take(ps);
            continue;
        }
        if (t->kind != TK_DIR) {
            ptx_error(ps, t->line, t->col, "expected a directive at module scope, found '%.*s'",
                      (int)t->len, t->s);
            ptx_take(ps);
            ptx_sync_stmt(ps);
            continue;
        }
        if (ptx_tok_is(t, ".version")) {
            parse_version(ps);
        } else if (ptx_tok_is(t, ".target")) {
            parse_target(ps);
        } else if (ptx_tok_is(t, ".address_size")) {
            struct ptx_tok kw = ptx_take(ps);
            uint64_t v = 0;
            const struct ptx_tok *vt = ptx_peek(ps, 0);
            uint32_t vl = vt->line, vc = vt->col;
            if (expect_uint(ps, "address size", 64, &v) && v != 64)
                ptx_error(ps, vl, vc, "unsupported .address_size %llu (only 64)", (unsigned long long)v);
            ps->m->address_size = (uint32_t)v;
            seen_addr = true;
            skip_line(ps, kw.line);
        } else if (ptx_tok_is(t, ".file")) {
            parse_file(ps);
        } else if (ptx_tok_is(t, ".loc")) {
            uint16_t f;
            uint32_t l;
            parse_loc(ps, &f, &l); /* checked; no instruction follows at module scope */
        } else if (ptx_tok_is(t, ".section")) {
            skip_section(ps);
        } else if (ptx_tok_is(t, ".pragma")) {
            ptx_take(ps);
            ptx_sync_stmt(ps);
        } else {
            /* [linkage] (.entry | .func | .global | .const | .shared | .local) */
            enum ptx_linkage link = PTX_LINK_NONE;
            struct ptx_tok kw = ptx_take(ps);
            for (;;) {
                if (ptx_tok_is(&kw, ".visible"))
                    link = PTX_LINK_VISIBLE;
                else if (ptx_tok_is(&kw, ".extern"))
                    link = PTX_LINK_EXTERN;
                else if (ptx_tok_is(&kw, ".weak"))
                    link = PTX_LINK_WEAK;
                else if (ptx_tok_is(&kw, ".common"))
                    link = PTX_LINK_COMMON;
                else
                    break;
                if (ptx_peek(ps, 0)->kind != TK_DIR)
                    break;
                kw = ptx_take(ps);
            }
            enum ptx_space sp = ptx_space_from_word(kw.s, kw.len);
            if (ptx_tok_is(&kw, ".entry") || ptx_tok_is(&kw, ".func")) {
                parse_function(ps, ptx_tok_is(&kw, ".entry"), link, &kw);
            } else if (sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_CONST || sp == PTX_SPACE_SHARED ||
                       sp == PTX_SPACE_LOCAL) {
                parse_var_decl(ps, sp, link, link == PTX_LINK_EXTERN);
            } else if (ptx_tok_is(&kw, ".alias") || ptx_tok_is(&kw, ".tex") ||
                       ptx_tok_is(&kw, ".surfref") || ptx_tok_is(&kw, ".texref") ||
                       ptx_tok_is(&kw, ".samplerref")) {
                ptx_error(ps, kw.line, kw.col, "unsupported directive '%.*s'", (int)kw.len, kw.s);
                ptx_sync_stmt(ps);
            } else {
                ptx_error(ps, kw.line, kw.col, "unknown directive '%.*s'", (int)kw.len, kw.s);
                ptx_sync_stmt(ps);
            }
        }
    }
    if (!ps->stop && !ps->n_errors) {
        if (!ps->m->version_major)
            ptx_error(ps, 1, 1, "missing .version directive");
        if (!ps->m->target_sm)
            ptx_error(ps, 1, 1, "missing .target directive");
        if (!seen_addr)
            ps->m->address_size = 64; /* PTX default is 32; nvcc always states 64 */
    }
    finish_src_files(ps->m);
}

void ptx_parser_fini(struct ptx_parser *ps)
{
    sym_pop_to(ps, 0);
    free(ps->syms);
    pmap_free(&ps->names);
    pmap_free(&ps->ranges);
    pmap_free(&ps->label_map);
    free(ps->frames);
    free(ps->scope_parent);
    free(ps->plabels);
    free(ps->lrefs);
    free(ps->crefs);
}
