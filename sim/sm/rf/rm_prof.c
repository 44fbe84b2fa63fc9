/* sim/sm/rf/rm_prof.c: racetrack move counts and the profile-guided layout
 * (see rm_prof.h; rf-racetrack-liang.md 2.2-2.4; docs/racetrack.md).
 *
 * File format (text, one file per SM, `<prefix>.sm<id>`):
 *   gpusim-rm-moves 1
 *   kernel <launch> <name> W <warps> R <regs> S <scheds> B <banks>
 *   bank <b> n <slots>
 *   <i> <j> <count>          (non-zero moves, i row-major)
 *   ...
 *   end
 * NOTE(rm-prof-files): the counts are written at teardown by each SM's
 * policy (rf_fini, serial), so no SM touches another's state while the
 * simulation runs; the reader sums the files sm0, sm1, ... in that order.
 */
#include "sim/sm/rf/rm_prof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sm/rf/rm_map.h"

struct rm_prof_rec {
    char name[128];   /* kernel name */
    uint32_t launch;  /* launch index on the SM */
    uint32_t W, R, S; /* geometry of the record */
    uint32_t n[RF_MAX_BANKS];       /* slots per bank */
    uint64_t *c[RF_MAX_BANKS];      /* n x n move counts per bank */
};

struct rm_prof {
    char *prefix;                   /* output prefix */
    uint32_t B, L;
    uint32_t sm_id;
    uint32_t *slot;                 /* [W * R] slot index of (w, r) in its bank (current kernel) */
    uint32_t cap_slot;
    uint32_t last[RF_MAX_BANKS];    /* last slot served per bank (UINT32_MAX: none) */
    struct rm_prof_rec *rec;        /* records, one per kernel start */
    uint32_t n_rec, cap_rec;
};

const char *rm_prof_path(const char *value) { return value && value[0] && strcmp(value, "none") ? value : NULL; }

struct rm_prof *rm_prof_create(const struct rf_cfg *cfg, uint32_t n_banks, uint32_t domains)
{
    const char *path = rm_prof_path(cfg->rm_profile_out);
    if (!path)
        return NULL;
    struct rm_prof *p = xcalloc(1, sizeof *p);
    size_t len = strlen(path) + 1;
    p->prefix = xcalloc(len, 1);
    memcpy(p->prefix, path, len);
    p->B = n_banks;
    p->L = domains;
    return p;
}

static void write_file(const struct rm_prof *p)
{
    if (!p->n_rec)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s.sm%u", p->prefix, p->sm_id);
    FILE *f = fopen(path, "w");
    if (!f)
        sim_panic("rf.rm_profile_out: cannot write %s", path);
    fprintf(f, "%s 1\n", RM_PROF_FORMAT);
    for (uint32_t k = 0; k < p->n_rec; k++) {
        const struct rm_prof_rec *r = &p->rec[k];
        fprintf(f, "kernel %u %s W %u R %u S %u B %u\n", r->launch, r->name, r->W, r->R, r->S, p->B);
        for (uint32_t b = 0; b < p->B; b++) {
            uint32_t n = r->n[b];
            fprintf(f, "bank %u n %u\n", b, n);
            for (uint32_t i = 0; i < n; i++)
                for (uint32_t j = 0; j < n; j++)
                    if (r->c[b][(size_t)i * n + j])
                        fprintf(f, "%u %u %llu\n", i, j, (unsigned long long)r->c[b][(size_t)i * n + j]);
        }
        fprintf(f, "end\n");
    }
    if (fclose(f) != 0)
        sim_panic("rf.rm_profile_out: cannot write %s", path);
}

void rm_prof_destroy(struct rm_prof *p)
{
    write_file(p);
    for (uint32_t k = 0; k < p->n_rec; k++)
        for (uint32_t b = 0; b < p->B; b++)
            free(p->rec[k].c[b]);
    free(p->rec);
    free(p->slot);
    free(p->prefix);
    free(p);
}

void rm_prof_kernel(struct rm_prof *p, const struct rf_kernel_info *ki, uint32_t n_banks, uint32_t S)
{
    SIM_ASSERT(n_banks == p->B, "rm_prof: %u banks, recorder built for %u", n_banks, p->B);
    p->sm_id = ki->sm_id;
    uint32_t W = ki->n_warps, R = ki->regs_alloc > ki->regs_per_thread ? ki->regs_alloc : ki->regs_per_thread;
    if (!R)
        R = 1;
    if (p->n_rec == p->cap_rec) {
        p->cap_rec = p->cap_rec ? 2 * p->cap_rec : 8;
        p->rec = xrealloc(p->rec, p->cap_rec * sizeof *p->rec);
    }
    struct rm_prof_rec *r = &p->rec[p->n_rec];
    memset(r, 0, sizeof *r);
    r->launch = p->n_rec++;
    snprintf(r->name, sizeof r->name, "%s", ki->kernel_name ? ki->kernel_name : "?");
    for (char *c = r->name; *c; c++)
        if (*c == ' ' || *c == '\n' || *c == '\t')
            *c = '_';
    r->W = W;
    r->R = R;
    r->S = S;
    size_t need = (size_t)W * R;
    if (need > p->cap_slot) {
        free(p->slot);
        p->slot = xcalloc(need ? need : 1, sizeof *p->slot);
        p->cap_slot = (uint32_t)need;
    }
    for (uint32_t w = 0; w < W; w++)
        for (uint32_t g = 0; g < R; g++) {
            uint32_t b = rm_bank_fn(p->B, S, w, g);
            p->slot[(size_t)w * R + g] = r->n[b]++;
        }
    for (uint32_t b = 0; b < p->B; b++) {
        r->c[b] = xcalloc((size_t)r->n[b] * r->n[b] + 1, sizeof *r->c[b]);
        p->last[b] = UINT32_MAX;
    }
}

void rm_prof_move(struct rm_prof *p, uint32_t b, uint32_t warp, uint32_t reg)
{
    if (!p->n_rec)
        return;
    struct rm_prof_rec *r = &p->rec[p->n_rec - 1];
    if (warp >= r->W || reg >= r->R)
        return;
    uint32_t s = p->slot[(size_t)warp * r->R + reg];
    uint32_t l = p->last[b];
    if (l != UINT32_MAX && l != s)
        r->c[b][(size_t)l * r->n[b] + s]++;
    p->last[b] = s;
}

/* ------------------------------------------------------------ reader */

/* Adds the record of `launch` in file `path` to c[] (n[] checked). Returns
 * false when the file does not exist. */
static bool read_file(const char *path, uint32_t launch, const char *name, uint32_t W, uint32_t R, uint32_t S,
                      uint32_t B, const uint32_t *n, uint64_t **c)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[512];
    uint32_t ln = 0;
    bool in = false, found = false;
    uint32_t bank = UINT32_MAX;
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (ln == 1) {
            if (strncmp(line, RM_PROF_FORMAT " 1", strlen(RM_PROF_FORMAT) + 2) != 0)
                sim_panic("rf.rm_profile_in: %s:%u: not a %s file", path, ln, RM_PROF_FORMAT);
            continue;
        }
        unsigned a, bb, cc, d, e, g;
        char kn[256];
        unsigned long long cnt;
        if (strncmp(line, "kernel ", 7) == 0) {
            if (sscanf(line, "kernel %u %255s W %u R %u S %u B %u", &a, kn, &bb, &cc, &d, &e) != 6)
                sim_panic("rf.rm_profile_in: %s:%u: malformed kernel line", path, ln);
            in = a == launch;
            if (in) {
                if (strcmp(kn, name) != 0 || bb != W || cc != R || d != S || e != B)
                    sim_panic("rf.rm_profile_in: %s:%u: launch %u is kernel %s with W %u R %u S %u B %u, this run "
                              "launches %s with W %u R %u S %u B %u (profile with the same workload, size and "
                              "occupancy)",
                              path, ln, a, kn, bb, cc, d, e, name, W, R, S, B);
                found = true;
            }
            continue;
        }
        if (!in)
            continue;
        if (strncmp(line, "end", 3) == 0) {
            in = false;
            continue;
        }
        if (strncmp(line, "bank ", 5) == 0) {
            if (sscanf(line, "bank %u n %u", &a, &g) != 2 || a >= B || g != n[a])
                sim_panic("rf.rm_profile_in: %s:%u: malformed or mismatched bank line", path, ln);
            bank = a;
            continue;
        }
        if (sscanf(line, "%u %u %llu", &a, &bb, &cnt) != 3 || bank == UINT32_MAX || a >= n[bank] || bb >= n[bank])
            sim_panic("rf.rm_profile_in: %s:%u: malformed move line", path, ln);
        c[bank][(size_t)a * n[bank] + bb] += cnt;
    }
    fclose(f);
    if (!found)
        sim_panic("rf.rm_profile_in: %s: no record of launch %u (kernel %s)", path, launch, name);
    return true;
}

struct rm_prof_cost rm_prof_map(const struct rf_cfg *cfg, const struct rf_kernel_info *ki, uint32_t launch,
                                uint32_t S, uint32_t *off, uint32_t W, uint32_t R, uint32_t *init_pos)
{
    const char *prefix = rm_prof_path(cfg->rm_profile_in);
    SIM_ASSERT(prefix, "rf.rm_layout = liang needs rf.rm_profile_in");
    uint32_t B = (uint32_t)cfg->n_banks, P = (uint32_t)cfg->rm_ports;
    uint32_t L = (uint32_t)(cfg->rm_domains ? cfg->rm_domains : cfg->entries_per_bank), seg = L / P;
    uint32_t n[RF_MAX_BANKS] = {0};
    uint32_t *slot = xcalloc((size_t)W * R + 1, sizeof *slot);
    for (uint32_t w = 0; w < W; w++)
        for (uint32_t g = 0; g < R; g++) {
            uint32_t b = rm_bank_fn(B, S, w, g);
            slot[(size_t)w * R + g] = n[b]++;
        }
    uint64_t *c[RF_MAX_BANKS];
    for (uint32_t b = 0; b < B; b++)
        c[b] = xcalloc((size_t)n[b] * n[b] + 1, sizeof *c[b]);
    const char *name = ki->kernel_name ? ki->kernel_name : "?";
    char kname[128];
    snprintf(kname, sizeof kname, "%s", name);
    for (char *q = kname; *q; q++)
        if (*q == ' ' || *q == '\n' || *q == '\t')
            *q = '_';
    uint32_t files = 0;
    for (uint32_t sm = 0;; sm++) {
        char path[4096];
        snprintf(path, sizeof path, "%s.sm%u", prefix, sm);
        if (!read_file(path, launch, kname, W, R, S, B, n, c))
            break;
        files++;
    }
    if (!files)
        sim_panic("rf.rm_profile_in: %s.sm0 not found (run the profiling run with rf.rm_profile_out = %s)", prefix,
                  prefix);
    struct rm_prof_cost cost = {0, 0};
    uint32_t nmax = 0;
    for (uint32_t b = 0; b < B; b++)
        nmax = n[b] > nmax ? n[b] : nmax;
    uint32_t *port = xcalloc(nmax + 1, sizeof *port), *ofs = xcalloc(nmax + 1, sizeof *ofs);
    uint32_t *boff[RF_MAX_BANKS];
    for (uint32_t b = 0; b < B; b++) {
        boff[b] = xcalloc(n[b] + 1, sizeof *boff[b]);
        /* NOTE(rm-overfull): more slots than rows (our allocator numbered
         * more registers than ptxas counted for the occupancy): the groups
         * are arranged on ceil(n / P) positions and folded onto the
         * segment, so two groups may share a row (timing only). */
        uint32_t g = (n[b] + P - 1) / P, span = g > seg ? g : seg;
        if (n[b] > (size_t)P * span)
            span = (n[b] + P - 1) / P;
        uint64_t cb = 0, ca = 0;
        if (n[b])
            rm_map_bank(n[b], c[b], P, span, (enum rm_group_cmp)cfg->rm_group_cmp, (enum rm_arrange)cfg->rm_arrange,
                        port, ofs, &cb, &ca);
        for (uint32_t k = 0; k < n[b]; k++)
            ofs[k] %= seg;
        for (uint32_t k = 0; k < n[b]; k++)
            boff[b][k] = ofs[k];
        cost.direct += cb;
        cost.liang += ca;
    }
    for (uint32_t w = 0; w < W; w++)
        for (uint32_t g = 0; g < R; g++) {
            uint32_t b = rm_bank_fn(B, S, w, g);
            off[(size_t)w * R + g] = boff[b][slot[(size_t)w * R + g]];
        }
    for (uint32_t b = 0; b < B; b++) {
        init_pos[b] = 0;
        free(boff[b]);
        free(c[b]);
    }
    free(port);
    free(ofs);
    free(slot);
    return cost;
}
