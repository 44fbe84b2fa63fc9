/* sim/ptx/passes/kprofile.h: kernel profiles from a functional pre-pass
 * (issue 10, docs/passes.md "Profiles").
 *
 * What this is: a recorder that watches a functional run (through the
 * executor's struct func_observer) and summarises each kernel launch: per
 * CTA and per warp the global loads, stores and atomics (thread accesses),
 * the distinct cache lines they touch and the warp instructions issued;
 * per page (page size a parameter) the accesses, the number of distinct
 * CTAs touching it and the lowest and highest of their linear ids; per
 * register bank the warp-level register reads and writes (bank = (reg +
 * warp-in-CTA) mod n_banks, registers as the allocator numbered them); per
 * physical register of the kernel's own function its warp-level reads and
 * writes. It also saves profiles as a small text file (written atomically)
 * and loads them back, for the kernel-time passes of a later run
 * (kpass_ctx.profile) and for mechanisms that need a profiling run
 * (dram-temp-tbas.md page owners and batch stride, cta-sharing, racetrack
 * mapping).
 *
 * Determinism: a functional run is single-threaded and its interleaving is
 * fixed, so a profile is the same for any host thread count; records are
 * written in a fixed order (CTAs, warps, pages ascending, banks, registers).
 *
 * Bank service order: for each bank, a histogram of the distance between
 * the entries of consecutive accesses to that bank, in the functional
 * run's order (entry of register r of warp w = (w x n_regs + r) div
 * n_banks; distances 0 .. KPROF_DIST_BINS-2, the last bin for larger). It is
 * what a racetrack register file's shift cost depends on (spec
 * rf-racetrack-*.md) without storing a trace.
 *
 * Not recorded: shared, local, param and const accesses; a full access trace.
 */
#ifndef GPUSIM_SIM_PTX_PASSES_KPROFILE_H
#define GPUSIM_SIM_PTX_PASSES_KPROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ptx_module;
struct ptx_func;
struct func_observer;

#define KPROF_FORMAT "gpusim-profile"
#define KPROF_VERSION 1

struct kprof_cta {
    uint64_t loads, stores, atomics; /* thread accesses to global memory */
    uint64_t lines;                  /* distinct lines touched (line_bytes) */
    uint64_t pages;                  /* distinct pages touched (page_bytes) */
    uint64_t insts;                  /* warp instructions issued by its warps */
};

struct kprof_warp {
    uint64_t loads, stores, atomics; /* thread accesses to global memory */
    uint64_t lines;                  /* distinct lines touched */
    uint64_t insts;                  /* warp instructions issued */
};

struct kprof_page {
    uint64_t page;      /* address / page_bytes */
    uint64_t accesses;  /* thread accesses */
    uint64_t n_ctas;    /* distinct CTAs touching it */
    uint64_t first_cta; /* lowest linear CTA id touching it */
    uint64_t last_cta;  /* highest */
};

/* One kernel launch. */
#define KPROF_DIST_BINS 17 /* bank-order histogram bins: distances 0..15, then >= 16 */

struct kprof_kernel {
    char *name;                 /* kernel name */
    uint32_t launch;            /* launch index in the context (0-based) */
    uint32_t grid[3], block[3]; /* geometry */
    uint32_t warps_per_cta;     /* warps */
    uint64_t n_ctas;            /* grid[0] x grid[1] x grid[2] */
    struct kprof_cta *ctas;     /* n_ctas, by linear id */
    struct kprof_warp *warps;   /* n_ctas x warps_per_cta: [cta * warps_per_cta + wid] */
    struct kprof_page *pages;   /* ascending page */
    uint64_t n_pages;
    uint32_t n_banks;           /* = kprof.n_banks */
    uint64_t *bank_reads, *bank_writes; /* n_banks: warp-level register accesses */
    uint64_t *bank_dist;        /* n_banks x KPROF_DIST_BINS: distance between consecutive entries of a bank */
    int64_t *bank_last;         /* n_banks: entry of the bank's last access, -1 = none (recording only) */
    uint32_t n_regs;            /* physical registers of the kernel function */
    uint64_t *reg_reads, *reg_writes;   /* n_regs: warp-level accesses (kernel function only) */
};

struct kprof {
    uint64_t page_bytes; /* power of two */
    uint64_t line_bytes; /* power of two */
    uint32_t n_banks;    /* >= 1 */
    struct kprof_kernel *k;
    uint32_t n_k, cap_k;
};

struct kprof *kprof_create(uint64_t page_bytes, uint64_t line_bytes, uint32_t n_banks);
void kprof_free(struct kprof *p);

/* Write p to path atomically ("<path>.tmp.<pid>", fsync, rename). 0, or -1
 * with a message in err. */
int kprof_save(const struct kprof *p, const char *path, char *err, size_t err_len);
/* Read a profile. 0 and *out, or -1 with "path:line: what is wrong" in err. */
int kprof_load(const char *path, struct kprof **out, char *err, size_t err_len);
/* Parse profile text (name is used in messages). */
int kprof_parse(const char *text, size_t len, const char *name, struct kprof **out, char *err, size_t err_len);

/* The occurrence-th (0-based) record of kernel `name`; when there are
 * fewer, the last one of that name; NULL when none. */
const struct kprof_kernel *kprof_find(const struct kprof *p, const char *name, uint32_t occurrence);

/* ------------------------------------------------------------- recorder */
struct kprof_rec;

/* Start recording one launch of kernel fn of mod. */
struct kprof_rec *kprof_rec_begin(const struct kprof *p, const struct ptx_module *mod, const struct ptx_func *fn,
                                  const uint32_t grid[3], const uint32_t block[3], uint32_t launch);
/* The observer to put into func_launch.observer (valid until end/abort). */
const struct func_observer *kprof_rec_observer(struct kprof_rec *r);
/* Finish: append the launch's record to p and free the recorder. */
void kprof_rec_end(struct kprof_rec *r, struct kprof *p);
/* Drop the recording (failed launch). */
void kprof_rec_abort(struct kprof_rec *r);

#endif /* GPUSIM_SIM_PTX_PASSES_KPROFILE_H */
