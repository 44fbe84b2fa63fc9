/* sim/ptx/passes/kpass.h: kernel-time passes (issue 10, docs/passes.md).
 *
 * What this is: passes that run when a kernel is launched, after parsing
 * and register allocation (sim/ptx/passes/passes.h runs those at load time), with
 * what only a launch knows: the configuration (register-file geometry,
 * register budget), the occupancy (resident CTAs and warps per SM), the
 * launch geometry and, when one was loaded, the kernel's profile from an
 * earlier functional run (sim/ptx/passes/kprofile.h). The register-file
 * mechanisms of the specs (racetrack remapping and grouping, LTRF
 * intervals and renumbering, TBAS batch strides) are passes of this kind.
 *
 * A pass is a row {name, doc, run} of the registry kpass_registry[]
 * (sim/ptx/passes/kpass.c). The configuration key ptx.passes lists the passes to
 * run, in order, comma-separated. A pass reads its struct kpass_ctx and
 * writes only into ctx->res: a register renumbering (kpass_remap_set) and
 * statistics (kpass_stat). It never changes the IR, so functional results
 * cannot change; the timing model reads the renumbering through
 * struct kpass_regmap (func_launch.regmap).
 *
 * Determinism: passes are pure functions of their context; the runtime
 * (sim/ptx/passes/kpass_rt.c) runs the pipeline once per (module, kernel, launch
 * geometry, profile record) and reuses the result for later launches.
 *
 * Not modelled here: the cost of the passes (they run before the launch,
 * outside simulated time).
 */
#ifndef GPUSIM_SIM_PTX_PASSES_KPASS_H
#define GPUSIM_SIM_PTX_PASSES_KPASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ptx_module;
struct ptx_func;
struct sim_cfg;
struct kprof_kernel;

#define KPASS_MAX_LIST 16     /* passes in one ptx.passes list */
#define KPASS_NAME_MAX 48     /* bytes of a statistic group or name, NUL included */

/* ----------------------------------------------------------------- config */

/* Section "ptx" (sim/ptx/passes/kpass_cfg.c): kernel-time passes and profiles. */
struct kpass_cfg {
    char *passes;          /* ptx.passes: comma-separated pass names, in order ("none" = no pass) */
    char *profile_out;     /* ptx.profile_out: record a profile of every launch into this file ("none" = off) */
    char *profile_in;      /* ptx.profile_in: profile loaded at context creation ("none" = no profile) */
    uint64_t profile_page; /* ptx.profile_page (bytes): page size of profiles (power of two) */
    uint64_t profile_line; /* ptx.profile_line (bytes): line size of profiles (power of two) */
};

struct cfg_section;
extern const struct cfg_section ptx_cfg_section;

/* A profile path key's file, or NULL for "none" / empty. */
const char *kpass_cfg_path(const char *value);

/* ------------------------------------------------------------ renumbering */

/* The physical register renumbering of one function. map[r] is the new
 * number of the allocator's physical register r (0 <= r < n_phys); ops is
 * the same renumbering per operand: for instruction pc, ops[first[pc] ..
 * first[pc] + n_src[pc]) are the physical registers it reads and the
 * following n_dst[pc] those it writes, each one per 32-bit register in the
 * order of sim/sm/exec/pipes.c pipes_op_from_insn (ptx_insn_for_each_reg order,
 * 64-bit registers as phys, phys + 1, predicates and unallocated registers
 * left out). */
struct kpass_fn_map {
    uint32_t n_phys;   /* entries of map; 0 = identity (nothing renumbered) */
    uint16_t *map;     /* old physical register -> new */
    uint32_t n_insns;  /* instructions (entries of n_src, n_dst; first has n_insns + 1) */
    uint32_t *first;   /* per instruction: index of its first entry in ops */
    uint8_t *n_src;    /* per instruction: registers read */
    uint8_t *n_dst;    /* per instruction: registers written */
    uint16_t *ops;     /* renumbered registers, per instruction sources then destinations */
};

/* The renumbering of every function of a module (index = ptx_func.index). */
struct kpass_regmap {
    uint32_t n_funcs;
    struct kpass_fn_map *fn; /* n_funcs entries */
};

/* New number of physical register phys of function f (identity when no
 * pass renumbered it). */
static inline uint16_t kpass_regmap_phys(const struct kpass_regmap *m, uint32_t f, uint16_t phys)
{
    if (!m || f >= m->n_funcs || phys >= m->fn[f].n_phys)
        return phys;
    return m->fn[f].map[phys];
}

/* ---------------------------------------------------------------- results */

/* One statistic a pass publishes for its kernel: group "pass.<pass>",
 * name, instance (-1 singleton, else e.g. the bank). The runtime adds the
 * value to the counter "<group>.<name>" at every launch of the kernel, so a
 * per-kernel statistics record holds the kernel's value and the total is
 * the sum over launches. */
struct kpass_stat_item {
    char group[KPASS_NAME_MAX];
    char name[KPASS_NAME_MAX];
    int32_t instance;
    uint64_t value;
    const char *doc; /* static string */
};

struct kpass_result {
    struct kpass_regmap regmap;    /* fn == NULL until a pass renumbers */
    struct kpass_stat_item *stats; /* in publication order */
    size_t n_stats, cap_stats;
};

/* ---------------------------------------------------------------- context */

/* What a pass knows. Everything is read-only except res. */
struct kpass_ctx {
    const struct ptx_module *mod;   /* the module (register-allocated) */
    const struct ptx_func *fn;      /* the kernel (.entry) */
    const struct sim_cfg *cfg;      /* the whole configuration */
    /* launch geometry */
    uint32_t grid[3];               /* CTAs per dimension */
    uint32_t block[3];              /* threads per dimension */
    uint32_t dyn_shared_bytes;      /* dynamic shared memory per CTA (bytes) */
    uint64_t smem_per_cta;          /* static + dynamic shared memory per CTA (bytes) */
    /* occupancy */
    uint32_t threads_per_cta;       /* threads */
    uint32_t warps_per_cta;         /* warps */
    uint32_t ctas_per_sm;           /* resident CTAs per SM (sm_ctas_per_sm) */
    uint32_t warps_per_sm;          /* resident warps per SM = ctas_per_sm x warps_per_cta */
    uint32_t n_sm;                  /* SMs (gpu.n_sm) */
    /* register budget */
    uint32_t regs_per_thread;       /* count used for occupancy (ptxas sidecar, else allocator) */
    uint32_t regs_alloc;            /* the allocator's physical registers: numbers 0 .. regs_alloc-1 */
    uint64_t sm_n_regs;             /* 32-bit registers per SM (sm.n_regs) */
    uint32_t rf_n_banks;            /* register banks per SM (rf.n_banks) */
    uint32_t rf_entries_per_bank;   /* warp registers per bank (rf.entries_per_bank) */
    /* profile of an earlier functional run (ptx.profile_in), or NULL */
    const struct kprof_kernel *profile;
    /* outputs */
    struct kpass_result *res;       /* where the pass writes */
    const char *pass_name;          /* the running pass (set by kpass_run_list) */
    char *err;                      /* message when a pass fails */
    size_t err_len;                 /* bytes at err */
};

struct kpass {
    const char *name;                   /* as listed in ptx.passes */
    const char *doc;                    /* one line */
    int (*run)(struct kpass_ctx *c);    /* 0, or < 0 with a message in c->err */
};

/* The registry (sim/ptx/passes/kpass.c). */
extern const struct kpass kpass_registry[];
extern const size_t kpass_n_registry;

/* Pass by name, NULL when unknown. */
const struct kpass *kpass_find(const char *name);

/* Parse a ptx.passes value ("a,b", blanks around names ignored, "" or
 * "none" = no pass) into out[0 .. *n). Returns true, or false with a message in why
 * (unknown name with the known ones, a name listed twice, an empty item,
 * more than KPASS_MAX_LIST). */
bool kpass_parse_list(const char *text, const struct kpass **out, size_t *n, char *why, size_t why_len);

/* Run passes[0 .. n) in order on c (c->res must be set). Then build the
 * per-operand tables of the renumbering (kpass_result_finish). Returns 0
 * or the first pass's negative result, with "pass 'x': ..." in c->err. */
int kpass_run_list(struct kpass_ctx *c, const struct kpass *const *passes, size_t n);

void kpass_result_init(struct kpass_result *r);
void kpass_result_free(struct kpass_result *r);
/* Fill kpass_fn_map.first/n_src/n_dst/ops of every renumbered function. */
void kpass_result_finish(struct kpass_result *r, const struct ptx_module *mod);

/* For passes: publish a statistic of the running pass (group "pass.<name>"). */
void kpass_stat(struct kpass_ctx *c, const char *name, int32_t instance, uint64_t value, const char *doc);
/* Value of a statistic published so far (group "pass.<pass>"), or 0. */
uint64_t kpass_stat_value(const struct kpass_result *r, const char *pass, const char *name, int32_t instance);
/* For passes: set function f's renumbering to map[0 .. n_phys) (a
 * permutation of 0 .. n_phys-1, copied). A later pass composes: its map
 * applies to the numbers the previous passes produced. Returns false (and
 * changes nothing) when map is not a permutation. */
bool kpass_remap_set(struct kpass_ctx *c, uint32_t f, const uint16_t *map, uint32_t n_phys);

/* Static register accesses of function fn, after the renumbering so far in
 * r (r may be NULL): reads[p] and writes[p] for p < n (registers beyond n
 * are not counted). One count per instruction operand and 32-bit register,
 * as the operand collector reads them. */
void kpass_count_regs(const struct kpass_result *r, const struct ptx_func *fn, uint64_t *reads, uint64_t *writes,
                      uint32_t n);

/* Calls emit for every 32-bit register operand of instruction in of fn, in
 * pipes_op_from_insn order (is_def 0: read, 1: written), renumbered by rm
 * (NULL: as allocated). */
struct ptx_insn;
void kpass_for_each_phys(const struct ptx_func *fn, const struct ptx_insn *in, const struct kpass_regmap *rm,
                         void (*emit)(void *ctx, uint16_t phys, int is_def), void *ctx);

/* Highest physical register number + 1 that function fn uses (0 if none). */
uint32_t kpass_fn_phys_count(const struct ptx_func *fn);

/* The passes of the registry (one file each). */
int kpass_regstats_run(struct kpass_ctx *c);     /* sim/ptx/passes/kpass_regstats.c */
int kpass_renumber_hot_run(struct kpass_ctx *c); /* sim/ptx/passes/kpass_renumber.c */

#endif /* GPUSIM_SIM_PTX_PASSES_KPASS_H */
