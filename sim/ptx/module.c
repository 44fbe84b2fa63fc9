/* sim/ptx/module.c: module-level finishing and the public entry points.
 *
 * Does: ptx_parse() / ptx_load_file() / ptx_apply_sidecar(); after the text
 * is read, resolves call targets and checks their argument lists, lays out
 * memory (module shared segment, each kernel's static shared memory and
 * dynamic-shared start, per-function .local frames), adds variable and
 * parameter offsets into ADDR/SYM operands, and, when the whole module
 * parsed without errors, builds each function's CFG and runs the pass
 * pipeline. Also frees modules and looks functions up by name.
 * Does not: tokenise, parse or decode (lexer.c, parser.c, insn.c), or
 * assign device addresses to .global/.const variables (the loader does).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/internal.h"
#include "sim/ptx/passes/passes.h"
#include "sim/ptx/ptx.h"

void ptx_func_free_contents(struct ptx_func *fn)
{
    free(fn->name);
    for (uint32_t i = 0; i < fn->n_params; i++)
        free(fn->params[i].name);
    free(fn->params);
    for (uint32_t i = 0; i < fn->n_regs; i++)
        free(fn->regs[i].name);
    free(fn->regs);
    free(fn->insns);
    for (uint32_t i = 0; i < fn->n_labels; i++)
        free(fn->labels[i].name);
    free(fn->labels);
    for (uint32_t i = 0; i < fn->n_vars; i++) {
        free(fn->vars[i].name);
        free(fn->vars[i].init);
    }
    free(fn->vars);
    free(fn->call_args);
    free(fn->xinsns);
    free(fn->xcall_args);
    ptx_cfg_free(&fn->cfg);
    ptx_liveness_free(&fn->live);
    memset(fn, 0, sizeof *fn);
}

void ptx_module_free(struct ptx_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->n_funcs; i++)
        ptx_func_free_contents(&m->funcs[i]);
    free(m->funcs);
    for (uint32_t i = 0; i < m->n_vars; i++) {
        free(m->vars[i].name);
        free(m->vars[i].init);
    }
    free(m->vars);
    for (uint32_t i = 0; i < m->n_src_files; i++)
        free(m->src_files[i].path);
    free(m->src_files);
    free(m->filename);
    free(m);
}

const struct ptx_func *ptx_module_find(const struct ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->n_funcs; i++)
        if (strcmp(m->funcs[i].name, name) == 0)
            return &m->funcs[i];
    return NULL;
}

int ptx_module_find_var(const struct ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->n_vars; i++)
        if (strcmp(m->vars[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* ------------------------------------------------------------- calls */
static void resolve_calls(struct ptx_parser *ps)
{
    struct ptx_module *m = ps->m;
    for (uint32_t i = 0; i < ps->n_crefs && !ps->stop; i++) {
        const struct pcall_ref *r = &ps->crefs[i];
        int32_t si = ptx_sym_lookup(ps, r->name, r->len);
        if (si < 0 || ps->syms[si].kind != PSYM_FUNC) {
            ptx_error(ps, r->line, r->col, "call to undefined function '%.*s'", (int)r->len, r->name);
            continue;
        }
        if (r->func >= m->n_funcs)
            continue; /* inside a rejected duplicate definition */
        const struct ptx_func *callee = &m->funcs[ps->syms[si].idx];
        struct ptx_func *caller = &m->funcs[r->func];
        if (r->insn >= caller->n_insns)
            continue; /* the instruction was dropped after an error */
        struct ptx_insn *in = &caller->insns[r->insn];
        if (in->op != PTX_OP_CALL)
            continue;
        if (callee->is_entry) {
            ptx_error(ps, r->line, r->col, "call to kernel '%s' (only .func may be called)", callee->name);
            continue;
        }
        if (!callee->has_body) {
            ptx_error(ps, r->line, r->col, "unsupported call to external function '%s' (no body)",
                      callee->name);
            continue;
        }
        uint32_t n_in = callee->n_params - callee->n_rets;
        if (in->call_n_ret != callee->n_rets || in->call_n_arg != n_in) {
            ptx_error(ps, r->line, r->col,
                      "call to '%s' with %u return and %u arguments, but it has %u and %u",
                      callee->name, in->call_n_ret, in->call_n_arg, callee->n_rets, n_in);
            continue;
        }
        /* sizes must match: the executor copies param bytes */
        for (uint32_t k = 0; k < (uint32_t)in->call_n_ret + in->call_n_arg; k++) {
            const struct ptx_operand *o = &caller->call_args[in->call_first + k];
            const struct ptx_param *p =
                &callee->params[k < in->call_n_ret ? n_in + k : k - in->call_n_ret];
            uint64_t size = o->space == PTX_SPACE_PARAM ? caller->params[o->sym].size
                                                        : caller->vars[o->sym].size;
            if (size < p->size) {
                ptx_error(ps, r->line, r->col,
                          "argument %u of call to '%s' has %llu bytes, parameter '%s' needs %u", k,
                          callee->name, (unsigned long long)size, p->name, p->size);
                break;
            }
        }
        in->target = callee->index;
    }
}

/* ------------------------------------------------------------- layout */
static uint64_t place(uint64_t *top, const struct ptx_var *v, uint32_t *max_align)
{
    uint32_t al = v->align ? v->align : 1;
    uint64_t off = u64_round_up(*top, al);
    *top = off + v->size;
    if (max_align && al > *max_align)
        *max_align = al;
    return off;
}

static void fix_operand(const struct ptx_module *m, const struct ptx_func *fn, struct ptx_operand *o)
{
    if ((o->kind != PTX_OPND_ADDR && o->kind != PTX_OPND_SYM) || o->base != PTX_BASE_STATIC || o->sym < 0)
        return;
    uint64_t off = 0;
    uint32_t s = (uint32_t)o->sym;
    if (o->space == PTX_SPACE_PARAM && !(o->flags & PTX_OF_MODSYM)) {
        if (ALWAYS(s < fn->n_params))
            off = fn->params[s].offset;
    } else if (o->flags & PTX_OF_MODSYM) {
        if (ALWAYS(s < m->n_vars))
            off = m->vars[s].offset;
    } else if (ALWAYS(s < fn->n_vars)) {
        off = fn->vars[s].offset;
    }
    o->imm += off;
}

static void layout(struct ptx_parser *ps)
{
    struct ptx_module *m = ps->m;
    uint64_t top = 0;
    uint32_t dyn_align = 16;
    /* module segment: module-scope shared, then shared of every .func */
    for (uint32_t i = 0; i < m->n_vars; i++) {
        struct ptx_var *v = &m->vars[i];
        if (v->space != PTX_SPACE_SHARED)
            continue;
        if (v->is_extern_array) {
            if (v->align > dyn_align)
                dyn_align = v->align;
            continue;
        }
        v->offset = place(&top, v, NULL);
    }
    for (uint32_t f = 0; f < m->n_funcs; f++) {
        struct ptx_func *fn = &m->funcs[f];
        if (fn->is_entry)
            continue;
        for (uint32_t i = 0; i < fn->n_vars; i++)
            if (fn->vars[i].space == PTX_SPACE_SHARED)
                fn->vars[i].offset = place(&top, &fn->vars[i], NULL);
    }
    m->shared_module_bytes = top;
    for (uint32_t f = 0; f < m->n_funcs; f++) {
        struct ptx_func *fn = &m->funcs[f];
        uint64_t st = m->shared_module_bytes, lt = 0;
        fn->local_align = 1;
        for (uint32_t i = 0; i < fn->n_vars; i++) {
            struct ptx_var *v = &fn->vars[i];
            if (v->space == PTX_SPACE_SHARED && fn->is_entry)
                v->offset = place(&st, v, NULL);
            else if (v->space == PTX_SPACE_LOCAL)
                v->offset = place(&lt, v, &fn->local_align);
        }
        fn->shared_static_bytes = fn->is_entry ? st : 0;
        fn->dyn_shared_offset = fn->is_entry ? u64_round_up(st, dyn_align) : 0;
        fn->local_bytes = lt;
        for (uint32_t i = 0; i < fn->n_insns; i++)
            for (unsigned k = 0; k < PTX_MAX_OPNDS; k++)
                fix_operand(m, fn, &fn->insns[i].opnd[k]);
        for (uint32_t i = 0; i < fn->n_call_args; i++)
            fix_operand(m, fn, &fn->call_args[i]);
    }
}

void ptx_module_finish(struct ptx_parser *ps)
{
    resolve_calls(ps);
    if (ps->n_errors)
        return; /* the module is discarded: no layout or analysis */
    layout(ps);
    for (uint32_t f = 0; f < ps->m->n_funcs; f++) {
        struct ptx_func *fn = &ps->m->funcs[f];
        if (!fn->has_body)
            continue;
        ptx_cfg_build(fn);
        ptx_passes_run(fn);
    }
}

/* ------------------------------------------------------------- entry points */
int ptx_parse(const char *text, size_t len, const char *filename, struct ptx_module **out,
              struct diag *d)
{
    *out = NULL;
    struct ptx_parser *ps = ptx_xcalloc(1, sizeof *ps);
    struct ptx_module *m = ptx_xcalloc(1, sizeof *m);
    m->filename = ptx_strndup(filename ? filename : "<ptx>", strlen(filename ? filename : "<ptx>"));
    ps->file = m->filename;
    ps->d = d;
    ps->m = m;
    ptx_lex_init(&ps->lx, text ? text : "", text ? len : 0, ps);
    ptx_parse_module(ps);
    if (!ps->stop)
        ptx_module_finish(ps);
    uint32_t nerr = ps->n_errors;
    ptx_parser_fini(ps);
    free(ps);
    if (nerr) {
        ptx_module_free(m);
        return PTX_ERR_PARSE;
    }
    *out = m;
    return PTX_OK;
}

/* Read a whole file; NULL (and *err = errno) on failure. */
static char *read_file(const char *path, size_t *len, int *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *err = errno;
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        sim_panic("ptx: out of memory reading %s", path);
    for (;;) {
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (n < cap) {
            if (ferror(f)) {
                *err = errno ? errno : EIO;
                free(buf);
                fclose(f);
                return NULL;
            }
            break;
        }
        cap *= 2;
        char *nb = realloc(buf, cap);
        if (!nb)
            sim_panic("ptx: out of memory reading %s", path);
        buf = nb;
    }
    fclose(f);
    *len = n;
    return buf;
}

int ptx_load_file(const char *path, struct ptx_module **out, struct diag *d)
{
    size_t len;
    int err = 0;
    *out = NULL;
    char *text = read_file(path, &len, &err);
    if (!text) {
        diag_add(d, path, 0, 0, "cannot read PTX file: %s", strerror(err));
        return PTX_ERR_IO;
    }
    int rc = ptx_parse(text, len, path, out, d);
    free(text);
    if (rc != PTX_OK)
        return rc;
    size_t plen = strlen(path);
    char *side = ptx_xcalloc(plen + 6, 1);
    memcpy(side, path, plen);
    memcpy(side + plen, ".regs", 6);
    text = read_file(side, &len, &err);
    if (text) {
        rc = ptx_apply_sidecar(*out, text, len, side, d);
        free(text);
        if (rc != PTX_OK) {
            ptx_module_free(*out);
            *out = NULL;
        }
    } else if (err != ENOENT) {
        diag_add(d, side, 0, 0, "cannot read register sidecar: %s", strerror(err));
        ptx_module_free(*out);
        *out = NULL;
        rc = PTX_ERR_IO;
    }
    free(side);
    return rc;
}

int ptx_apply_sidecar(struct ptx_module *m, const char *text, size_t len, const char *filename,
                      struct diag *d)
{
    size_t before = diag_count(d);
    const char *p = text, *end = text + len;
    for (uint32_t line = 1; p < end; line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *q = p;
        while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        if (q < eol && *q != '#') {
            const char *ns = q;
            while (q < eol && *q != ' ' && *q != '\t' && *q != '\r' && *q != '#')
                q++;
            size_t nlen = (size_t)(q - ns);
            while (q < eol && (*q == ' ' || *q == '\t'))
                q++;
            const char *vs = q;
            uint64_t v = 0;
            while (q < eol && *q >= '0' && *q <= '9' && v <= 100000)
                v = v * 10 + (uint64_t)(*q++ - '0');
            const char *ve = q;
            while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
                q++;
            int col = (int)(ns - p) + 1;
            if (ve == vs || (q < eol && *q != '#') || v > 65535) {
                diag_add(d, filename, (int)line, (int)(vs - p) + 1,
                         "expected '<function> <registers>' in register sidecar, found '%.*s'",
                         (int)(eol - p), p);
            } else {
                struct ptx_func *fn = NULL;
                for (uint32_t i = 0; i < m->n_funcs; i++)
                    if (strlen(m->funcs[i].name) == nlen && memcmp(m->funcs[i].name, ns, nlen) == 0)
                        fn = &m->funcs[i];
                if (!fn) {
                    diag_add(d, filename, (int)line, col, "unknown function '%.*s' in register sidecar",
                             (int)nlen, ns);
                } else {
                    fn->regs_ptxas = (int32_t)v;
                    fn->regs_per_thread = (uint32_t)v;
                }
            }
        }
        p = eol < end ? eol + 1 : end;
    }
    return diag_count(d) == before ? PTX_OK : PTX_ERR_PARSE;
}
