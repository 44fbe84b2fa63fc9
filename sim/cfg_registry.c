/* sim/cfg_registry.c: the list of configuration sections (see sim_cfg.h). */
#include "sim/sim_cfg.h"

#include "sim/config.h"

const struct cfg_section *const cfg_sections[] = {
    &simmode_cfg_section,   &engine_cfg_section,     &clock_cfg_section, &gpu_cfg_section,
    &sm_cfg_section,        &smem_cfg_section,       &dispatch_cfg_section, &wsched_cfg_section,
    &rf_cfg_section,        &oc_cfg_section,         &pipes_cfg_section, &coalesce_cfg_section,
    &smem_banks_cfg_section, &l1d_cfg_section,       &l1c_cfg_section,   &l1i_cfg_section,
    &mem_cfg_section,       &icnt_cfg_section,       &icnt_net_cfg_section, &l2_cfg_section,
    &mempart_cfg_section,   &dram_cfg_section,       &synth_cfg_section,
};

const unsigned cfg_n_sections = ARRAY_LEN(cfg_sections);
