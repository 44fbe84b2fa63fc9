/* sim/cfg/registry.c: the list of configuration sections (see sim_cfg.h) and
 * the table of renamed keys.
 *
 * Adjacent entries with the same name are parts of one section (sim/cfg/config.h):
 * sm.n_sched is declared by the warp scheduler (sim/sm/sched/sched_cfg.c), smem.n_banks
 * and the other bank keys by the bank model (sim/sm/lsu/smem_banks.c), icnt.flit and
 * the other network keys by the interconnect (sim/icnt/icnt_cfg.c).
 */
#include "sim/cfg/sim_cfg.h"

#include "sim/cfg/config.h"

const struct cfg_section *const cfg_sections[] = {
    &simmode_cfg_section,    &engine_cfg_section, &clock_cfg_section,    &gpu_cfg_section,
    &sm_cfg_section,         &wsched_sm_cfg_section,                     /* sm.* */
    &smem_cfg_section,       &smem_banks_cfg_section,                    /* smem.* */
    &dispatch_cfg_section,   &wsched_cfg_section, &rf_cfg_section,       &oc_cfg_section,
    &pipes_cfg_section,      &coalesce_cfg_section, &l1d_cfg_section,    &l1c_cfg_section,
    &l1i_cfg_section,        &mem_cfg_section,    &coh_cfg_section,
    &icnt_cfg_section,       &icnt_net_cfg_section,                      /* icnt.* */
    &l2_cfg_section,         &mempart_cfg_section, &dram_cfg_section,    &vm_cfg_section,
    &ptx_cfg_section,        /* ptx.*: kernel-time passes (sim/ptx/passes/kpass_cfg.c) */
    &energy_cfg_section,     /* energy.*: the energy model (sim/energy/energy_cfg.c) */
    &synth_cfg_section,
};

const unsigned cfg_n_sections = ARRAY_LEN(cfg_sections);

/* Keys renamed to the names of spec baseline-gpu.md 4.2 (issue 10). An old name
 * is refused with "(renamed to 'new')"; cfg_init checks that every new name is
 * declared and no old one is. Add a row whenever a key is renamed. */
const struct cfg_renamed_key cfg_renamed_keys[] = {
    {"sched.n_sched", "sm.n_sched"},
    {"smem_banks.n_banks", "smem.n_banks"},
    {"smem_banks.width", "smem.width"},
    {"smem_banks.warp_parts", "smem.warp_parts"},
    {"smem_banks.wide", "smem.wide"},
    {"dispatch.policy", "cta.policy"},
    {"icnt_net.topology", "icnt.topology"},
    {"icnt_net.flit", "icnt.flit"},
    {"icnt_net.header", "icnt.header"},
    {"icnt_net.inj_buf", "icnt.inj_buf"},
    {"icnt_net.rx_fifo_flits", "icnt.rx_fifo_flits"},
    {"icnt_net.mesh_cols", "icnt.mesh_cols"},
    {"icnt_net.mesh_rows", "icnt.mesh_rows"},
    {"icnt_net.hop_latency", "icnt.hop_latency"},
    {"engine.quantum", "sync.quantum"},
    {"engine.relaxed", "sync.relaxed"},
    {"engine.ring_slots", "sync.ring_slots"},
    {"engine.spin", "sync.spin"},
    {"engine.max_time", "sync.max_time"},
};

const unsigned cfg_n_renamed_keys = ARRAY_LEN(cfg_renamed_keys);
