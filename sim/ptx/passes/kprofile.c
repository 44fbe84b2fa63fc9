/* sim/ptx/passes/kprofile.c: profile recorder, writer and reader (kprofile.h;
 * the file format is in docs/passes.md).
 *
 * Recorder: counters per CTA and warp are arrays indexed by linear id;
 * "distinct lines/pages" use one open-addressing hash set of (owner, line)
 * or (owner, page) pairs each, and pages a hash map page -> record. Cost
 * per observed access: three or four hash probes. Only profile runs pay it.
 */
#include "sim/ptx/passes/kprofile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/base/common.h"
#include "sim/func/func.h"
#include "sim/ptx/ir.h"
#include "sim/ptx/passes/kpass.h"

/* ---------------------------------------------------------- hash of pairs */

struct pairset {
    uint64_t *a, *b, *v; /* keys and values, cap entries */
    uint8_t *used;       /* 1 = slot holds a key */
    size_t cap, n;       /* slots (power of two), keys */
};

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return h;
}

static void ps_init(struct pairset *s)
{
    s->cap = 1024;
    s->n = 0;
    s->a = xcalloc(s->cap, sizeof *s->a);
    s->b = xcalloc(s->cap, sizeof *s->b);
    s->v = xcalloc(s->cap, sizeof *s->v);
    s->used = xcalloc(s->cap, 1);
}

static void ps_free(struct pairset *s)
{
    free(s->a);
    free(s->b);
    free(s->v);
    free(s->used);
    memset(s, 0, sizeof *s);
}

/* Slot of (a, b); *isnew when it was just inserted (value 0). */
static size_t ps_put(struct pairset *s, uint64_t a, uint64_t b, bool *isnew);

static void ps_grow(struct pairset *s)
{
    struct pairset o = *s;
    s->cap *= 2;
    s->n = 0;
    s->a = xcalloc(s->cap, sizeof *s->a);
    s->b = xcalloc(s->cap, sizeof *s->b);
    s->v = xcalloc(s->cap, sizeof *s->v);
    s->used = xcalloc(s->cap, 1);
    for (size_t i = 0; i < o.cap; i++)
        if (o.used[i]) {
            bool nw;
            size_t j = ps_put(s, o.a[i], o.b[i], &nw);
            s->v[j] = o.v[i];
        }
    ps_free(&o);
}

static size_t ps_put(struct pairset *s, uint64_t a, uint64_t b, bool *isnew)
{
    if (2 * (s->n + 1) > s->cap)
        ps_grow(s);
    size_t m = s->cap - 1, i = (size_t)mix(a, b) & m;
    while (s->used[i]) {
        if (s->a[i] == a && s->b[i] == b) {
            *isnew = false;
            return i;
        }
        i = (i + 1) & m;
    }
    s->used[i] = 1;
    s->a[i] = a;
    s->b[i] = b;
    s->v[i] = 0;
    s->n++;
    *isnew = true;
    return i;
}

/* -------------------------------------------------------------- recorder */

struct kprof_rec {
    struct func_observer obs;  /* ctx = this */
    struct kprof_kernel k;     /* being filled */
    const struct ptx_module *mod;
    const struct ptx_func *kfn;
    uint32_t page_shift, line_shift;
    struct pairset warp_line;  /* (cta * wpc + wid, line) */
    struct pairset cta_line;   /* (cta, line) */
    struct pairset cta_page;   /* (cta, page) */
    struct pairset page_idx;   /* (page, 0) -> index in pages + 1 */
    uint64_t cap_pages;        /* allocated entries of k.pages */
    struct kpass_result ops;   /* identity renumbering: per-instruction register lists */
};

static uint32_t log2_u64(uint64_t v)
{
    uint32_t s = 0;
    while ((1ull << s) < v)
        s++;
    return s;
}

static void rec_access(void *ctx, uint64_t cta, uint32_t warp, uint32_t lane, uint64_t addr, uint32_t bytes, int kind)
{
    (void)lane;
    (void)bytes;
    struct kprof_rec *r = ctx;
    struct kprof_kernel *k = &r->k;
    if (cta >= k->n_ctas || warp >= k->warps_per_cta)
        return;
    struct kprof_cta *c = &k->ctas[cta];
    struct kprof_warp *w = &k->warps[cta * k->warps_per_cta + warp];
    switch (kind) {
    case FUNC_OBS_LOAD: c->loads++; w->loads++; break;
    case FUNC_OBS_STORE: c->stores++; w->stores++; break;
    default: c->atomics++; w->atomics++; break;
    }
    uint64_t line = addr >> r->line_shift, page = addr >> r->page_shift;
    bool nw;
    ps_put(&r->warp_line, cta * k->warps_per_cta + warp, line, &nw);
    w->lines += nw;
    ps_put(&r->cta_line, cta, line, &nw);
    c->lines += nw;
    size_t pi = ps_put(&r->page_idx, page, 0, &nw);
    if (nw) {
        if (k->n_pages == r->cap_pages) {
            r->cap_pages = r->cap_pages ? 2 * r->cap_pages : 256;
            k->pages = xrealloc(k->pages, r->cap_pages * sizeof *k->pages);
        }
        k->pages[k->n_pages] = (struct kprof_page){page, 0, 0, cta, cta};
        r->page_idx.v[pi] = ++k->n_pages;
    }
    struct kprof_page *pg = &k->pages[r->page_idx.v[pi] - 1];
    pg->accesses++;
    ps_put(&r->cta_page, cta, page, &nw);
    if (nw) {
        c->pages++;
        pg->n_ctas++;
        pg->first_cta = MIN(pg->first_cta, cta);
        pg->last_cta = MAX(pg->last_cta, cta);
    }
}

static void rec_insn(void *ctx, uint64_t cta, uint32_t warp, const struct ptx_func *fn, uint32_t pc, uint32_t active,
                     uint32_t exec)
{
    (void)exec;
    struct kprof_rec *r = ctx;
    struct kprof_kernel *k = &r->k;
    if (cta >= k->n_ctas || warp >= k->warps_per_cta || !active)
        return;
    k->ctas[cta].insts++;
    k->warps[cta * k->warps_per_cta + warp].insts++;
    if (!r->ops.regmap.fn || fn->index >= r->ops.regmap.n_funcs)
        return;
    const struct kpass_fn_map *m = &r->ops.regmap.fn[fn->index];
    if (!m->ops || pc >= m->n_insns)
        return;
    const uint16_t *o = m->ops + m->first[pc];
    bool own = fn == r->kfn;
    for (uint32_t i = 0; i < (uint32_t)m->n_src[pc] + m->n_dst[pc]; i++) {
        bool wr = i >= m->n_src[pc];
        uint32_t b = (o[i] + warp) % k->n_banks;
        (wr ? k->bank_writes : k->bank_reads)[b]++;
        int64_t e = (int64_t)(((uint64_t)warp * k->n_regs + o[i]) / k->n_banks);
        if (k->bank_last[b] >= 0) {
            uint64_t d = (uint64_t)(e > k->bank_last[b] ? e - k->bank_last[b] : k->bank_last[b] - e);
            k->bank_dist[(uint64_t)b * KPROF_DIST_BINS + (d < KPROF_DIST_BINS - 1 ? d : KPROF_DIST_BINS - 1)]++;
        }
        k->bank_last[b] = e;
        if (own && o[i] < k->n_regs)
            (wr ? k->reg_writes : k->reg_reads)[o[i]]++;
    }
}

struct kprof_rec *kprof_rec_begin(const struct kprof *p, const struct ptx_module *mod, const struct ptx_func *fn,
                                  const uint32_t grid[3], const uint32_t block[3], uint32_t launch)
{
    struct kprof_rec *r = xcalloc(1, sizeof *r);
    r->mod = mod;
    r->kfn = fn;
    r->page_shift = log2_u64(p->page_bytes);
    r->line_shift = log2_u64(p->line_bytes);
    struct kprof_kernel *k = &r->k;
    k->name = xstrdup(fn->name);
    k->launch = launch;
    memcpy(k->grid, grid, sizeof k->grid);
    memcpy(k->block, block, sizeof k->block);
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    k->warps_per_cta = (uint32_t)((threads + 31) / 32);
    k->n_ctas = (uint64_t)grid[0] * grid[1] * grid[2];
    k->ctas = xcalloc(k->n_ctas, sizeof *k->ctas);
    k->warps = xcalloc(k->n_ctas * k->warps_per_cta, sizeof *k->warps);
    k->n_banks = p->n_banks;
    k->bank_reads = xcalloc(k->n_banks, sizeof *k->bank_reads);
    k->bank_writes = xcalloc(k->n_banks, sizeof *k->bank_writes);
    k->bank_dist = xcalloc((size_t)k->n_banks * KPROF_DIST_BINS, sizeof *k->bank_dist);
    k->bank_last = xcalloc(k->n_banks, sizeof *k->bank_last);
    for (uint32_t b = 0; b < k->n_banks; b++)
        k->bank_last[b] = -1;
    k->n_regs = kpass_fn_phys_count(fn);
    k->reg_reads = xcalloc(k->n_regs + 1, sizeof *k->reg_reads);
    k->reg_writes = xcalloc(k->n_regs + 1, sizeof *k->reg_writes);
    ps_init(&r->warp_line);
    ps_init(&r->cta_line);
    ps_init(&r->cta_page);
    ps_init(&r->page_idx);
    /* Per-instruction register lists: an identity renumbering of every function. */
    kpass_result_init(&r->ops);
    r->ops.regmap.n_funcs = mod->n_funcs;
    r->ops.regmap.fn = xcalloc(mod->n_funcs ? mod->n_funcs : 1, sizeof *r->ops.regmap.fn);
    for (uint32_t f = 0; f < mod->n_funcs; f++) {
        uint32_t n = kpass_fn_phys_count(&mod->funcs[f]);
        struct kpass_fn_map *m = &r->ops.regmap.fn[f];
        m->n_phys = n;
        m->map = xcalloc(n ? n : 1, sizeof *m->map);
        for (uint32_t i = 0; i < n; i++)
            m->map[i] = (uint16_t)i;
    }
    kpass_result_finish(&r->ops, mod);
    r->obs = (struct func_observer){r, rec_access, rec_insn};
    return r;
}

const struct func_observer *kprof_rec_observer(struct kprof_rec *r) { return &r->obs; }

static void kernel_free(struct kprof_kernel *k)
{
    free(k->name);
    free(k->ctas);
    free(k->warps);
    free(k->pages);
    free(k->bank_reads);
    free(k->bank_writes);
    free(k->bank_dist);
    free(k->bank_last);
    free(k->reg_reads);
    free(k->reg_writes);
    memset(k, 0, sizeof *k);
}

static void rec_free(struct kprof_rec *r)
{
    ps_free(&r->warp_line);
    ps_free(&r->cta_line);
    ps_free(&r->cta_page);
    ps_free(&r->page_idx);
    kpass_result_free(&r->ops);
    free(r);
}

static int page_cmp(const void *a, const void *b)
{
    const struct kprof_page *x = a, *y = b;
    return x->page < y->page ? -1 : x->page > y->page;
}

static struct kprof_kernel *kprof_push(struct kprof *p)
{
    if (p->n_k == p->cap_k) {
        p->cap_k = p->cap_k ? 2 * p->cap_k : 8;
        p->k = xrealloc(p->k, p->cap_k * sizeof *p->k);
    }
    struct kprof_kernel *k = &p->k[p->n_k++];
    memset(k, 0, sizeof *k);
    return k;
}

void kprof_rec_end(struct kprof_rec *r, struct kprof *p)
{
    qsort(r->k.pages, r->k.n_pages, sizeof *r->k.pages, page_cmp);
    *kprof_push(p) = r->k;
    rec_free(r);
}

void kprof_rec_abort(struct kprof_rec *r)
{
    if (!r)
        return;
    kernel_free(&r->k);
    rec_free(r);
}

/* ---------------------------------------------------------------- profile */

struct kprof *kprof_create(uint64_t page_bytes, uint64_t line_bytes, uint32_t n_banks)
{
    struct kprof *p = xcalloc(1, sizeof *p);
    p->page_bytes = page_bytes;
    p->line_bytes = line_bytes;
    p->n_banks = n_banks ? n_banks : 1;
    return p;
}

void kprof_free(struct kprof *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; i < p->n_k; i++)
        kernel_free(&p->k[i]);
    free(p->k);
    free(p);
}

const struct kprof_kernel *kprof_find(const struct kprof *p, const char *name, uint32_t occurrence)
{
    const struct kprof_kernel *last = NULL;
    uint32_t seen = 0;
    for (uint32_t i = 0; p && i < p->n_k; i++) {
        if (strcmp(p->k[i].name, name))
            continue;
        if (seen++ == occurrence)
            return &p->k[i];
        last = &p->k[i];
    }
    return last;
}

/* ----------------------------------------------------------------- writer */

static void write_profile(FILE *f, const struct kprof *p)
{
    fprintf(f, "%s %d\n", KPROF_FORMAT, KPROF_VERSION);
    fprintf(f, "# format: docs/passes.md; counts are thread accesses (global memory) or warp-level register "
               "accesses\n");
    fprintf(f, "# kernel <launch> <name> <grid x y z> <block x y z> <warps_per_cta> <n_regs>\n");
    fprintf(f, "# cta <id> <loads> <stores> <atomics> <lines> <pages> <insts>\n");
    fprintf(f, "# warp <cta> <warp> <loads> <stores> <atomics> <lines> <insts>\n");
    fprintf(f, "# page <page> <accesses> <n_ctas> <first_cta> <last_cta>\n");
    fprintf(f, "# bank <bank> <reads> <writes>\n");
    fprintf(f, "# reg <reg> <reads> <writes>\n");
    fprintf(f, "page_bytes %" PRIu64 "\nline_bytes %" PRIu64 "\nn_banks %u\n", p->page_bytes, p->line_bytes,
            p->n_banks);
    for (uint32_t i = 0; i < p->n_k; i++) {
        const struct kprof_kernel *k = &p->k[i];
        fprintf(f, "kernel %u %s %u %u %u %u %u %u %u %u\n", k->launch, k->name, k->grid[0], k->grid[1], k->grid[2],
                k->block[0], k->block[1], k->block[2], k->warps_per_cta, k->n_regs);
        for (uint64_t c = 0; c < k->n_ctas; c++) {
            const struct kprof_cta *x = &k->ctas[c];
            fprintf(f, "cta %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                    c, x->loads, x->stores, x->atomics, x->lines, x->pages, x->insts);
        }
        for (uint64_t c = 0; c < k->n_ctas; c++)
            for (uint32_t w = 0; w < k->warps_per_cta; w++) {
                const struct kprof_warp *x = &k->warps[c * k->warps_per_cta + w];
                fprintf(f, "warp %" PRIu64 " %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", c, w,
                        x->loads, x->stores, x->atomics, x->lines, x->insts);
            }
        for (uint64_t j = 0; j < k->n_pages; j++) {
            const struct kprof_page *x = &k->pages[j];
            fprintf(f, "page %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", x->page, x->accesses,
                    x->n_ctas, x->first_cta, x->last_cta);
        }
        for (uint32_t b = 0; b < k->n_banks; b++)
            fprintf(f, "bank %u %" PRIu64 " %" PRIu64 "\n", b, k->bank_reads[b], k->bank_writes[b]);
        for (uint32_t b = 0; b < k->n_banks; b++) {
            fprintf(f, "bankorder %u", b);
            for (uint32_t j = 0; j < KPROF_DIST_BINS; j++)
                fprintf(f, " %" PRIu64, k->bank_dist[(uint64_t)b * KPROF_DIST_BINS + j]);
            fprintf(f, "\n");
        }
        for (uint32_t r = 0; r < k->n_regs; r++)
            fprintf(f, "reg %u %" PRIu64 " %" PRIu64 "\n", r, k->reg_reads[r], k->reg_writes[r]);
        fprintf(f, "end\n");
    }
}

int kprof_save(const struct kprof *p, const char *path, char *err, size_t err_len)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, err_len, "cannot write profile %s: %s", tmp, strerror(errno));
        return -1;
    }
    write_profile(f, p);
    bool bad = fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0;
    int e = errno;
    if (fclose(f) != 0 && !bad) {
        bad = true;
        e = errno;
    }
    if (!bad && rename(tmp, path) != 0) {
        bad = true;
        e = errno;
    }
    if (bad) {
        remove(tmp);
        snprintf(err, err_len, "cannot write profile %s: %s", path, strerror(e));
        return -1;
    }
    return 0;
}

/* ----------------------------------------------------------------- reader */

#define MAX_TOK 24

struct reader {
    const char *name; /* for messages */
    int line;         /* current line (1-based) */
    char *err;
    size_t err_len;
    bool failed;
};

static void rfail(struct reader *r, const char *fmt, ...) PRINTF_LIKE(2, 3);

static void rfail(struct reader *r, const char *fmt, ...)
{
    if (r->failed)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(r->err, r->err_len, "%s:%d: %s", r->name, r->line, msg);
    r->failed = true;
}

static bool num(struct reader *r, const char *tok, const char *what, uint64_t *out)
{
    char *end;
    errno = 0;
    if (tok[0] == '-' || tok[0] == '+') {
        rfail(r, "%s '%s' is not a non-negative integer", what, tok);
        return false;
    }
    unsigned long long v = strtoull(tok, &end, 10);
    if (errno || end == tok || *end) {
        rfail(r, "%s '%s' is not a non-negative integer", what, tok);
        return false;
    }
    *out = v;
    return true;
}

static bool nums(struct reader *r, char **tok, int n, const char *const *what, uint64_t *out)
{
    for (int i = 0; i < n; i++)
        if (!num(r, tok[i], what[i], &out[i]))
            return false;
    return true;
}

static bool want(struct reader *r, const char *rec, int have, int need)
{
    if (have != need) {
        rfail(r, "'%s' record has %d fields, expected %d", rec, have - 1, need - 1);
        return false;
    }
    return true;
}

int kprof_parse(const char *text, size_t len, const char *name, struct kprof **out, char *err, size_t err_len)
{
    *out = NULL;
    struct reader rd = {name, 0, err, err_len, false};
    struct reader *r = &rd;
    struct kprof *p = kprof_create(0, 0, 0);
    p->n_banks = 0;
    struct kprof_kernel *k = NULL; /* open kernel record */
    int k_line = 0;
    uint64_t last_page = 0;
    bool any_page = false, header = false;
    char *buf = xmalloc(len + 1);
    memcpy(buf, text, len);
    buf[len] = 0;
    char *save = NULL;
    char *s = buf;
    while (!r->failed && s && *s) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = 0;
        char *lnp = s;
        s = nl ? nl + 1 : NULL;
        r->line++;
        char *hash = strchr(lnp, '#');
        if (hash)
            *hash = 0;
        char *tok[MAX_TOK + 1];
        int nt = 0;
        for (char *t = strtok_r(lnp, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
            if (nt == MAX_TOK) {
                rfail(r, "too many fields");
                break;
            }
            tok[nt++] = t;
        }
        if (r->failed)
            break;
        if (nt == 0)
            continue;
        const char *rec = tok[0];
        uint64_t v[12];
        if (!header) {
            if (strcmp(rec, KPROF_FORMAT) || nt != 2 || strcmp(tok[1], "1")) {
                rfail(r, "not a gpusim profile: the first line must be '%s %d'", KPROF_FORMAT, KPROF_VERSION);
                break;
            }
            header = true;
            continue;
        }
        if (!strcmp(rec, "page_bytes") || !strcmp(rec, "line_bytes") || !strcmp(rec, "n_banks")) {
            if (!want(r, rec, nt, 2) || !num(r, tok[1], rec, &v[0]))
                break;
            if (k || p->n_k) {
                rfail(r, "'%s' must come before the first kernel record", rec);
                break;
            }
            if (rec[0] == 'n') {
                if (v[0] < 1 || v[0] > 1024) {
                    rfail(r, "n_banks %" PRIu64 " is out of range (1 .. 1024)", v[0]);
                    break;
                }
                p->n_banks = (uint32_t)v[0];
            } else {
                if (!is_pow2_u64(v[0])) {
                    rfail(r, "%s %" PRIu64 " is not a power of two", rec, v[0]);
                    break;
                }
                *(rec[0] == 'p' ? &p->page_bytes : &p->line_bytes) = v[0];
            }
            continue;
        }
        if (!strcmp(rec, "kernel")) {
            if (k) {
                rfail(r, "kernel record inside the kernel of line %d (missing 'end')", k_line);
                break;
            }
            if (!p->page_bytes || !p->line_bytes || !p->n_banks) {
                rfail(r, "kernel record before page_bytes, line_bytes and n_banks");
                break;
            }
            if (!want(r, rec, nt, 11))
                break;
            static const char *const what[] = {"launch", "grid x", "grid y", "grid z", "block x", "block y",
                                               "block z", "warps_per_cta", "n_regs"};
            char *nt_[9] = {tok[1], tok[3], tok[4], tok[5], tok[6], tok[7], tok[8], tok[9], tok[10]};
            if (!nums(r, nt_, 9, what, v))
                break;
            for (int i = 0; i < 8; i++)
                if (v[i] > UINT32_MAX || (i >= 1 && i <= 6 && v[i] == 0)) {
                    rfail(r, "kernel %s %" PRIu64 " is out of range", what[i], v[i]);
                    break;
                }
            if (r->failed)
                break;
            uint64_t threads = v[4] * v[5] * v[6], n_ctas = v[1] * v[2] * v[3];
            if (v[7] != (threads + 31) / 32) {
                rfail(r, "warps_per_cta %" PRIu64 " does not match the block (%" PRIu64 " threads)", v[7], threads);
                break;
            }
            if (n_ctas > (1ull << 26) || n_ctas * v[7] > (1ull << 28) || v[8] > 65536) {
                rfail(r, "kernel is too large for a profile (%" PRIu64 " CTAs, %" PRIu64 " registers)", n_ctas,
                      v[8]);
                break;
            }
            k = kprof_push(p);
            k_line = r->line;
            k->name = xstrdup(tok[2]);
            k->launch = (uint32_t)v[0];
            for (int i = 0; i < 3; i++) {
                k->grid[i] = (uint32_t)v[1 + i];
                k->block[i] = (uint32_t)v[4 + i];
            }
            k->warps_per_cta = (uint32_t)v[7];
            k->n_ctas = n_ctas;
            k->ctas = xcalloc(n_ctas, sizeof *k->ctas);
            k->warps = xcalloc(n_ctas * k->warps_per_cta, sizeof *k->warps);
            k->n_banks = p->n_banks;
            k->bank_reads = xcalloc(k->n_banks, sizeof *k->bank_reads);
            k->bank_writes = xcalloc(k->n_banks, sizeof *k->bank_writes);
            k->bank_dist = xcalloc((size_t)k->n_banks * KPROF_DIST_BINS, sizeof *k->bank_dist);
            k->n_regs = (uint32_t)v[8];
            k->reg_reads = xcalloc(k->n_regs + 1, sizeof *k->reg_reads);
            k->reg_writes = xcalloc(k->n_regs + 1, sizeof *k->reg_writes);
            any_page = false;
            continue;
        }
        if (!k) {
            rfail(r, strcmp(rec, "cta") && strcmp(rec, "warp") && strcmp(rec, "page") && strcmp(rec, "bank") && strcmp(rec, "bankorder") &&
                             strcmp(rec, "reg") && strcmp(rec, "end")
                         ? "unknown record '%s'"
                         : "'%s' record outside a kernel record",
                  rec);
            break;
        }
        if (!strcmp(rec, "end")) {
            if (!want(r, rec, nt, 1))
                break;
            k = NULL;
        } else if (!strcmp(rec, "cta")) {
            static const char *const what[] = {"cta id", "loads", "stores", "atomics", "lines", "pages", "insts"};
            if (!want(r, rec, nt, 8) || !nums(r, tok + 1, 7, what, v))
                break;
            if (v[0] >= k->n_ctas) {
                rfail(r, "cta id %" PRIu64 " is out of range (the kernel has %" PRIu64 " CTAs)", v[0], k->n_ctas);
                break;
            }
            k->ctas[v[0]] = (struct kprof_cta){v[1], v[2], v[3], v[4], v[5], v[6]};
        } else if (!strcmp(rec, "warp")) {
            static const char *const what[] = {"cta id", "warp", "loads", "stores", "atomics", "lines", "insts"};
            if (!want(r, rec, nt, 8) || !nums(r, tok + 1, 7, what, v))
                break;
            if (v[0] >= k->n_ctas || v[1] >= k->warps_per_cta) {
                rfail(r, "warp %" PRIu64 " of cta %" PRIu64 " is out of range (%" PRIu64 " CTAs of %u warps)", v[1],
                      v[0], k->n_ctas, k->warps_per_cta);
                break;
            }
            k->warps[v[0] * k->warps_per_cta + v[1]] = (struct kprof_warp){v[2], v[3], v[4], v[5], v[6]};
        } else if (!strcmp(rec, "page")) {
            static const char *const what[] = {"page", "accesses", "n_ctas", "first_cta", "last_cta"};
            if (!want(r, rec, nt, 6) || !nums(r, tok + 1, 5, what, v))
                break;
            if (any_page && v[0] <= last_page) {
                rfail(r, "page %" PRIu64 " is not above the previous page %" PRIu64 " (pages are listed in "
                         "ascending order, once each)", v[0], last_page);
                break;
            }
            if (v[2] < 1 || v[3] > v[4] || v[4] >= k->n_ctas || v[2] > v[4] - v[3] + 1) {
                rfail(r, "page %" PRIu64 ": n_ctas %" PRIu64 ", first_cta %" PRIu64 " and last_cta %" PRIu64
                         " are inconsistent (%" PRIu64 " CTAs)", v[0], v[2], v[3], v[4], k->n_ctas);
                break;
            }
            any_page = true;
            last_page = v[0];
            k->pages = xrealloc(k->pages, (k->n_pages + 1) * sizeof *k->pages);
            k->pages[k->n_pages++] = (struct kprof_page){v[0], v[1], v[2], v[3], v[4]};
        } else if (!strcmp(rec, "bankorder")) {
            static const char *const what[] = {"bank", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8",
                                               "d9", "d10", "d11", "d12", "d13", "d14", "d15", "d16+"};
            uint64_t h[KPROF_DIST_BINS + 1];
            if (!want(r, rec, nt, KPROF_DIST_BINS + 2) || !nums(r, tok + 1, KPROF_DIST_BINS + 1, what, h))
                break;
            if (h[0] >= k->n_banks) {
                rfail(r, "bankorder %" PRIu64 " is out of range (%u banks)", h[0], k->n_banks);
                break;
            }
            memcpy(k->bank_dist + h[0] * KPROF_DIST_BINS, h + 1, KPROF_DIST_BINS * sizeof *h);
        } else if (!strcmp(rec, "bank") || !strcmp(rec, "reg")) {
            static const char *const what[] = {"index", "reads", "writes"};
            if (!want(r, rec, nt, 4) || !nums(r, tok + 1, 3, what, v))
                break;
            bool bank = rec[0] == 'b';
            uint64_t lim = bank ? k->n_banks : k->n_regs;
            if (v[0] >= lim) {
                rfail(r, "%s %" PRIu64 " is out of range (%" PRIu64 " %s)", rec, v[0], lim, bank ? "banks" : "registers");
                break;
            }
            (bank ? k->bank_reads : k->reg_reads)[v[0]] = v[1];
            (bank ? k->bank_writes : k->reg_writes)[v[0]] = v[2];
        } else {
            rfail(r, "unknown record '%s'", rec);
            break;
        }
    }
    if (!r->failed && !header) {
        r->line = 1;
        rfail(r, "empty file: not a gpusim profile");
    }
    if (!r->failed && k)
        rfail(r, "end of file inside the kernel record of line %d (missing 'end')", k_line);
    free(buf);
    if (r->failed) {
        kprof_free(p);
        return -1;
    }
    if (!p->page_bytes || !p->line_bytes || !p->n_banks) {
        snprintf(err, err_len, "%s:%d: page_bytes, line_bytes or n_banks is missing", name, r->line);
        kprof_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

int kprof_load(const char *path, struct kprof **out, char *err, size_t err_len)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_len, "cannot read profile %s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 65536, len = 0;
    char *buf = xmalloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap)
            buf = xrealloc(buf, cap *= 2);
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        snprintf(err, err_len, "cannot read profile %s", path);
        return -1;
    }
    int rc = kprof_parse(buf, len, path, out, err, err_len);
    free(buf);
    return rc;
}
