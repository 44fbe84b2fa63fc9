/* sim/cfg/sim_cfg.h: the whole resolved configuration, one member per section.
 *
 * Each member's struct is defined by the unit that owns the section; the
 * list of sections (name, offset, key table) is in sim/cfg/registry.c. A new
 * unit with keys adds its member here and its section to the registry.
 * Member names need not equal section names: `engine` holds sync.*,
 * `dispatch` holds cta.*, `smem_banks` the bank keys of smem.*, `icnt_net` the
 * network keys of icnt.*, and `sched` also holds sm.n_sched.
 */
#ifndef GPUSIM_SIM_CFG_SIM_CFG_H
#define GPUSIM_SIM_CFG_SIM_CFG_H

#include "partitions/dram/dram.h"
#include "partitions/l2/l2.h"
#include "partitions/mempart/mempart.h"
#include "partitions/addrmap/pagetable.h"
#include "sim/icnt/icnt.h"
#include "sim/gpu/gpu_cfg.h"
#include "sim/dispatch/dispatch.h"
#include "sim/energy/energy.h"
#include "sim/sm/lsu/coalesce.h"
#include "sim/sm/lsu/l1d.h"
#include "sim/mem/coh.h"
#include "sim/sm/lsu/l1ro.h"
#include "sim/sm/rf/opcoll.h"
#include "sim/sm/exec/pipes.h"
#include "sim/sm/sched/sched.h"
#include "sim/sm/lsu/smem_banks.h"
#include "sim/ptx/passes/kpass.h"
#include "sim/sm/sm_cfg.h"
#include "sim/synth/synth.h"
#include "sync/engine.h"

struct sim_cfg {
    struct simmode_cfg sim;
    struct engine_cfg engine;
    struct clock_cfg clock;
    struct gpu_cfg gpu;
    struct sm_cfg sm;
    struct smem_cfg smem;
    struct mem_cfg mem;
    struct icnt_cfg icnt;
    struct icnt_net_cfg icnt_net;
    struct dispatch_cfg dispatch;
    struct wsched_cfg sched;
    struct rf_cfg rf;
    struct oc_cfg oc;
    struct pipes_cfg pipes;
    struct coalesce_cfg coalesce;
    struct smem_banks_cfg smem_banks;
    struct l1d_cfg l1d;
    struct l1ro_cfg l1c;
    struct l1ro_cfg l1i;
    struct coh_cfg coh; /* coh.*: coherence protocol (sim/mem/coh_cfg.c) */
    struct l2_cfg l2;
    struct mempart_cfg l2_to_dram;
    struct dram_cfg dram;
    struct vm_cfg vm;
    struct kpass_cfg ptx; /* ptx.*: kernel-time passes and profiles (sim/ptx/passes/kpass_cfg.c) */
    struct energy_cfg energy; /* energy.*: pJ per event, static mW (sim/energy/energy_cfg.c) */
    struct synth_cfg synth;
};

/* All sections, in the order they are listed and printed; adjacent entries
 * with the same name are parts of one section (sim/cfg/config.h). */
extern const struct cfg_section *const cfg_sections[];
extern const unsigned cfg_n_sections;

/* Old key names and their current names; an old name is refused with a
 * "renamed to" hint. */
extern const struct cfg_renamed_key cfg_renamed_keys[];
extern const unsigned cfg_n_renamed_keys;

/* The sm.* part declared by the warp scheduler (sm.n_sched, sim/sm/sched/sched_cfg.c);
 * its struct is struct wsched_cfg (member `sched`). */
extern const struct cfg_section wsched_sm_cfg_section;

#endif /* GPUSIM_SIM_CFG_SIM_CFG_H */
