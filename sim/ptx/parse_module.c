/* sim/ptx/parse_module.c: the module level of a PTX file: the directives
 * .version, .target and .address_size (.section is skipped), source line
 * information (.file, and .loc: each instruction records the CUDA file and
 * line of the last .loc before it; docs/ptx.md), and the top-level loop
 * that dispatches module-scope variables and functions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/internal.h"
#include "sim/ptx/ptx.h"

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
void ptx_parse_loc(struct ptx_parser *ps, uint16_t *file, uint32_t *line)
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
    ptx_skip_line(ps, kw.line);
}

/* `.file index "path" [, timestamp, size]` (PTX ISA), or `.file index "dir"
 * "name"` (DWARF 5 style): the name of a file index used by .loc. */
void ptx_parse_file_directive(struct ptx_parser *ps)
{
    struct ptx_tok kw = ptx_take(ps);
    uint64_t f = 0;
    if (!dir_uint(ps, &kw, "file index", 1, UINT16_MAX, &f)) {
        ptx_skip_line(ps, kw.line);
        return;
    }
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (t->line != kw.line || t->kind != TK_STRING) {
        ptx_error(ps, t->line == kw.line ? t->line : kw.line, t->line == kw.line ? t->col : kw.col,
                  ".file: expected a quoted file name after the index");
        ptx_skip_line(ps, kw.line);
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
        ptx_skip_line(ps, kw.line);
        return;
    }
    ptx_skip_line(ps, kw.line);
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
void ptx_stamp_loc(struct ptx_func *fn, uint32_t from, uint16_t file, uint32_t line)
{
    for (uint32_t i = from; i < fn->n_insns; i++) {
        fn->insns[i].src_file = file;
        fn->insns[i].src_line = line;
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
    ptx_skip_line(ps, kw.line);
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
            if (ptx_expect_uint(ps, "address size", 64, &v) && v != 64)
                ptx_error(ps, vl, vc, "unsupported .address_size %llu (only 64)", (unsigned long long)v);
            ps->m->address_size = (uint32_t)v;
            seen_addr = true;
            ptx_skip_line(ps, kw.line);
        } else if (ptx_tok_is(t, ".file")) {
            ptx_parse_file_directive(ps);
        } else if (ptx_tok_is(t, ".loc")) {
            uint16_t f;
            uint32_t l;
            ptx_parse_loc(ps, &f, &l); /* checked; no instruction follows at module scope */
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
                ptx_parse_function(ps, ptx_tok_is(&kw, ".entry"), link, &kw);
            } else if (sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_CONST || sp == PTX_SPACE_SHARED ||
                       sp == PTX_SPACE_LOCAL) {
                ptx_parse_var_decl(ps, sp, link, link == PTX_LINK_EXTERN);
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

