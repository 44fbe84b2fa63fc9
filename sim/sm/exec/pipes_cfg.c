/* sim/sm/exec/pipes_cfg.c: configuration section pipes.* (owned by
 * sim/sm/exec/pipes.c), gtx480 defaults from spec baseline-gpu.md 1.2 and
 * 3.2; the rf.* and oc.* sections are in sim/sm/rf/rf_cfg.c.
 *
 * NOTE(static-latency-table): the spec lists the latency / II table (3.2)
 * but no keys for it, so it is the static table PIPE_CLASS_LIST in pipes.h.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/sm/exec/pipes.h"
#include "sim/sm/rf/opcoll.h"

void pipes_cfg_defaults(struct pipes_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->n_sp = 2;
    c->n_sfu = 1;
    c->n_mem = 1;
    c->wb_width = 2;
    c->ldst_wb_width = 1;
    c->dispatch_delay = 2;
    c->mem_dispatch_delay = -1;
    c->wb_reserve = true;
}


int pipes_cfg_validate(const struct pipes_cfg *c, pipes_cfg_report_fn report, void *ctx)
{
    int n = 0;
    CFG_RULE(c->n_sp >= 1 && c->n_sfu >= 1 && c->n_sp + c->n_sfu <= PIPES_MAX_UNITS, "pipes.n_sp",
         "pipes.n_sp %llu + pipes.n_sfu %llu must be 2..%d with at least one of each",
         (unsigned long long)c->n_sp, (unsigned long long)c->n_sfu, PIPES_MAX_UNITS);
    CFG_RULE(c->n_mem >= 1 && c->n_mem <= PIPES_MAX_MEM, "pipes.n_mem", "%llu out of range 1..%d",
         (unsigned long long)c->n_mem, PIPES_MAX_MEM);
    CFG_RULE(c->wb_width >= 1, "pipes.wb_width", "must be >= 1");
    CFG_RULE(c->ldst_wb_width >= 1, "pipes.ldst_wb_width", "must be >= 1");
    CFG_RULE(!c->wb_reserve || c->wb_width <= 255, "pipes.wb_reserve", "needs pipes.wb_width <= 255");
    return n;
}

const struct cfg_key pipes_cfg_keys[] = {
    {"n_sp", CFG_UINT, offsetof(struct pipes_cfg, n_sp), 1, PIPES_MAX_UNITS - 1, "2", NULL,
     "SP pipes (one 32-wide warp instruction per pipe per pipeline cycle at II 1; [GPGPU-Sim] 2)"},
    {"n_sfu", CFG_UINT, offsetof(struct pipes_cfg, n_sfu), 1, PIPES_MAX_UNITS - 1, "1", NULL,
     "SFU pipes ([GPGPU-Sim] 1)"},
    {"n_mem", CFG_UINT, offsetof(struct pipes_cfg, n_mem), 1, PIPES_MAX_MEM, "1", NULL,
     "MEM input latches of the LD/ST unit ([GPGPU-Sim] 1 LD/ST pipe)"},
    {"wb_width", CFG_UINT, offsetof(struct pipes_cfg, wb_width), 1, 64, "2", NULL,
     "SP/SFU results written back per pipeline cycle (spec 3.2: 2)"},
    {"ldst_wb_width", CFG_UINT, offsetof(struct pipes_cfg, ldst_wb_width), 1, 64, "1", NULL,
     "LD/ST results written back per pipeline cycle ([GPGPU-Sim] ldst_unit::writeback: 1)"},
    {"dispatch_delay", CFG_UINT, offsetof(struct pipes_cfg, dispatch_delay), 0, 8, "2", NULL,
     "cycles from a collector's dispatch to the unit's first stage ([GPGPU-Sim] OC_EX + dispatch registers: 2)"},
    {"mem_dispatch_delay", CFG_INT, offsetof(struct pipes_cfg, mem_dispatch_delay), -1, 8, "-1", NULL,
     "cycles from a MEM collector's dispatch to the LD/ST latch; -1 = pipes.dispatch_delay (NOTE(mem-dispatch-delay))"},
    {"wb_reserve", CFG_BOOL, offsetof(struct pipes_cfg, wb_reserve), 0, 0, "true", NULL,
     "an SP/SFU dispatch reserves a writeback slot for its result cycle and waits without one ([GPGPU-Sim])"},
};

const size_t pipes_cfg_n_keys = ARRAY_LEN(pipes_cfg_keys);

static void pipes_check_report(void *ctx, const char *key, const char *msg) { cfg_check_fail(ctx, key, "%s", msg); }

static void pipes_cfg_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    (void)all;
    pipes_cfg_validate(sec, pipes_check_report, ck);
}

const struct cfg_section pipes_cfg_section = {"pipes", "execution pipes and writeback", offsetof(struct sim_cfg, pipes),
                                              pipes_cfg_keys, ARRAY_LEN(pipes_cfg_keys), pipes_cfg_check};
