/* sim/gpu/gpu_cfg.c: key tables for sim.*, clock.*, gpu.*, mem.*, icnt.min_latency (the
 * first part of section icnt; the network keys are in sim/icnt/icnt_cfg.c) and the
 * clock-period rule. See gpu_cfg.h. */
#include "sim/gpu/gpu_cfg.h"

#include <stddef.h>

#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"

static const char *const sim_mode_names[] = {"functional", "timing", NULL};

static const struct cfg_key simmode_keys[] = {
    {"mode", CFG_ENUM, offsetof(struct simmode_cfg, mode), 0, 0, "functional", sim_mode_names,
     "functional: execute kernels without timing; timing: cycle-level model"},
    {"watchdog", CFG_UINT, offsetof(struct simmode_cfg, watchdog_cycles), 1000, 1e12, "1000000", NULL,
     "core cycles without a retired instruction before the run is stopped (exit 1)"},
    {"func_watchdog", CFG_UINT, offsetof(struct simmode_cfg, func_watchdog), 0, 1e15, "1000000", NULL,
     "functional mode: warp instructions per resident warp without a memory change, barrier or exit "
     "before the run is stopped (0 = off)"},
    {"seed", CFG_UINT, offsetof(struct simmode_cfg, seed), 0, 1.8e19, "1", NULL,
     "seed for randomised model decisions (never for workload inputs)"},
    {"tick_every_cycle", CFG_BOOL, offsetof(struct simmode_cfg, tick_every_cycle), 0, 1, "false", NULL,
     "timing mode, for checking the model: tick every SM on every core edge instead of skipping idle "
     "cycles (results must not change; only slower)"},
};

const struct cfg_section simmode_cfg_section = {
    "sim", "simulation mode and safety limits", offsetof(struct sim_cfg, sim),
    simmode_keys, ARRAY_LEN(simmode_keys), NULL};

static const struct cfg_key clock_keys[] = {
    {"core", CFG_FREQ, offsetof(struct clock_cfg, core_hz), 1e8, 1e10, "700MHz", NULL,
     "SM core clock (GTX480 warp clock 700 MHz; 1.4 GHz hot-clock presets use sm.pipe_clock_div 2)"},
    {"icnt", CFG_FREQ, offsetof(struct clock_cfg, icnt_hz), 1e8, 1e10, "700MHz", NULL,
     "interconnect clock"},
    {"l2", CFG_FREQ, offsetof(struct clock_cfg, l2_hz), 1e8, 1e10, "700MHz", NULL, "L2 clock"},
    {"dram", CFG_FREQ, offsetof(struct clock_cfg, dram_hz), 1e8, 1e10, "924MHz", NULL,
     "DRAM command clock (GDDR5 924 MHz on GTX480)"},
};

const struct cfg_section clock_cfg_section = {
    "clock", "clock domains (core, interconnect, L2, DRAM)", offsetof(struct sim_cfg, clock),
    clock_keys, ARRAY_LEN(clock_keys), NULL};

static const struct cfg_key gpu_keys[] = {
    {"n_sm", CFG_UINT, offsetof(struct gpu_cfg, n_sm), 1, 256, "15", NULL,
     "number of streaming multiprocessors"},
};

const struct cfg_section gpu_cfg_section = {"gpu", "GPU organisation", offsetof(struct sim_cfg, gpu),
                                            gpu_keys, ARRAY_LEN(gpu_keys), NULL};

static const struct cfg_key mem_keys[] = {
    {"n_partitions", CFG_UINT, offsetof(struct mem_cfg, n_partitions), 1, 64, "6", NULL,
     "memory partitions, one DRAM channel each"},
    {"sub_per_partition", CFG_UINT, offsetof(struct mem_cfg, sub_per_partition), 1, 4, "2", NULL,
     "L2 sub-partitions (slices) per memory partition"},
};

const struct cfg_section mem_cfg_section = {"mem", "memory partitions", offsetof(struct sim_cfg, mem),
                                            mem_keys, ARRAY_LEN(mem_keys), NULL};

static const struct cfg_key icnt_keys[] = {
    {"min_latency", CFG_UINT, offsetof(struct icnt_cfg, min_latency), 1, 1000, "8", NULL,
     "minimum SM<->partition latency in interconnect cycles; the engine lookahead L"},
};

const struct cfg_section icnt_cfg_section = {"icnt", "interconnect (latency and networks)", offsetof(struct sim_cfg, icnt),
                                             icnt_keys, ARRAY_LEN(icnt_keys), NULL};

static ps_t period_of(uint64_t hz) { return cfg_freq_to_period_ps(hz); }

void clock_periods_compute(const struct clock_cfg *c, struct clock_periods *out)
{
    uint64_t hz[4] = {c->core_hz, c->icnt_hz, c->l2_hz, c->dram_hz};
    ps_t per[4];
    for (int i = 0; i < 4; i++)
        per[i] = period_of(hz[i]);
    /* Align integer multiples: for each slower domain, if some faster domain's
     * frequency is an exact integer multiple of it, derive its period from the
     * fastest such domain's rounded period. */
    for (int i = 0; i < 4; i++) {
        uint64_t best_hz = 0;
        int best = -1;
        for (int j = 0; j < 4; j++) {
            if (hz[j] > hz[i] && hz[j] % hz[i] == 0 && hz[j] > best_hz) {
                best_hz = hz[j];
                best = j;
            }
        }
        if (best >= 0)
            per[i] = per[best] * (hz[best] / hz[i]);
    }
    out->core = per[0];
    out->icnt = per[1];
    out->l2 = per[2];
    out->dram = per[3];
}
