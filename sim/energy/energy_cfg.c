/* sim/energy/energy_cfg.c: the energy.* configuration keys (owned by
 * sim/energy/energy.c; docs/energy.md). Defaults are the gtx480 values; each
 * doc line names its source:
 *
 *  [000 T3]  seed 000 (Mao 2016) Table 3, SRAM register file (NVSim, 32 nm):
 *            R/W 103.88/102.37 pJ per warp-register access, leakage 14.41 mW
 *            (applied per SM RF, spec rf-racetrack-mao.md Q5); 4P racetrack
 *            "shift energy/bit" 1.8 pJ, taken per shift step of a bank (Q4).
 *  [CACTI]   CACTI 7.0 (github HewlettPackard/cacti 1ffd8df, cache.cfg with
 *            only these changed): 40 nm itrs-hp, 380 K (the technology node
 *            and temperature of GPGPU-Sim's GPUWattch GTX480 config,
 *            configs/tested-cfgs/SM2_GTX480/gpuwattch_gtx480.xml), ED^2
 *            optimisation, 1 read-write port, 1 bank; static = subthreshold +
 *            gate leakage. L1D: 16 KB, 128 B lines, 4-way, 1024-bit port.
 *            L2 slice: 64 KB, 128 B, 8-way, 1024-bit port (one 128 B line
 *            per access). Shared memory: 32 banks, each a 1536 B "ram" with
 *            4 B words, energy x 32 per bank cycle. Wires: the global wire of
 *            the same run with repeaters for 20 % delay overhead, 0.240863 pJ
 *            and 0.0123992 uW (subthreshold + gate) per bit and mm.
 *  [DRAMsim3] DRAMsim3 configs/GDDR5_1Gb_x32.ini (github umd-memsys/DRAMsim3,
 *            a 1 Gb x32 GDDR5 part as in the GTX480: VDD 1.5 V, IDD0 490,
 *            IDD2N 250, IDD3N 450, IDD4R 1080, IDD4W 1160, IDD5AB 450 mA,
 *            tCK 0.667 ns, tRAS 42, tRP 18, BL8 = 2 tCK) with DRAMsim3's
 *            Micron-style formulas, 2 devices per channel (dram.bus_bytes 8).
 *            I/O and termination power are not in these IDD figures.
 *  [none]    no traceable per-event figure for GF100: 0 (not charged).
 */
#include <stddef.h>

#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/energy/energy.h"

#define PJ(field) CFG_DOUBLE, offsetof(struct energy_cfg, field), 0, 1e9
#define MW(field) CFG_DOUBLE, offsetof(struct energy_cfg, field), 0, 1e9

static const struct cfg_key energy_keys[] = {
    /* register file (per SM) */
    {"rf.read_pj", PJ(rf_read_pj), "103.88", NULL,
     "pJ per warp-register read, sm.oc.reads [000 T3: SRAM RF read 103.88 pJ]"},
    {"rf.write_pj", PJ(rf_write_pj), "102.37", NULL,
     "pJ per warp-register write, sm.oc.writes [000 T3: SRAM RF write 102.37 pJ]"},
    {"rf.shift_pj", PJ(rf_shift_pj), "1.8", NULL,
     "pJ per racetrack shift step of a bank, charged by an RF policy's shift event [000 T3: 4P RM 1.8 pJ/bit]"},
    {"rf.static_mw", MW(rf_static_mw), "14.41", NULL, "RF leakage, mW per SM [000 T3: SRAM RF 14.41 mW]"},
    {"rf.wb_read_pj", PJ(rf_wb_read_pj), "8.34", NULL,
     "pJ per racetrack write-buffer read (operand or drain), charged by the rm policy [000 T3: 8.34 pJ]"},
    {"rf.wb_write_pj", PJ(rf_wb_write_pj), "8.09", NULL,
     "pJ per racetrack write-buffer store, charged by the rm policy [000 T3: 8.09 pJ]"},
    /* L1D (per SM) */
    {"l1d.read_pj", PJ(l1d_read_pj), "300.075", NULL,
     "pJ per load transaction looked up in the L1D (l1d.loads - l1d.bypass_loads) [CACTI 16 KB read 0.300075 nJ]"},
    {"l1d.write_pj", PJ(l1d_write_pj), "287.815", NULL,
     "pJ per store transaction, l1d.stores [CACTI 16 KB write 0.287815 nJ]"},
    {"l1d.fill_pj", PJ(l1d_fill_pj), "287.815", NULL,
     "pJ per line fill, l1d.fills [CACTI 16 KB write 0.287815 nJ]"},
    {"l1d.static_mw", MW(l1d_static_mw), "40.856524", NULL,
     "L1D leakage, mW per SM [CACTI 16 KB: 39.8674 + 0.989124 mW]"},
    /* shared memory (per SM) */
    {"smem.access_pj", PJ(smem_access_pj), "38.09152", NULL,
     "pJ per shared-memory bank cycle, ldst.smem_cycles [CACTI 32 x 1536 B bank read 1.19036 pJ]"},
    {"smem.static_mw", MW(smem_static_mw), "95.4883392", NULL,
     "shared-memory leakage, mW per SM [CACTI 32 x (2.90128 + 0.0827306) mW]"},
    /* L2 (per slice) */
    {"l2.read_pj", PJ(l2_read_pj), "955.427", NULL,
     "pJ per line read: l2.acc_read and l2.writebacks (dirty line to DRAM) [CACTI 64 KB read 0.955427 nJ]"},
    {"l2.write_pj", PJ(l2_write_pj), "963.217", NULL,
     "pJ per line write: l2.acc_write, l2.acc_writeback, l2.fills [CACTI 64 KB write 0.963217 nJ]"},
    {"l2.atomic_pj", PJ(l2_atomic_pj), "1918.644", NULL,
     "pJ per atomic access, l2.acc_atomic (a read and a write) [CACTI 64 KB read + write]"},
    {"l2.static_mw", MW(l2_static_mw), "130.11257", NULL,
     "L2 leakage, mW per slice [CACTI 64 KB: 127.439 + 2.67357 mW]"},
    /* interconnect */
    {"icnt.flit_pj", PJ(icnt_flit_pj), "709.100672", NULL,
     "pJ per flit sent, icnt.req/reply.tx_flits [CACTI wire 0.240863 pJ/bit/mm x 256 bits x 11.5 mm, half "
     "the side of the 529 mm^2 GF100 die]"},
    {"icnt.static_mw", MW(icnt_static_mw), "36.50313", NULL,
     "interconnect leakage, mW per endpoint and network [CACTI wire 0.0123992 uW/bit/mm x 256 x 11.5 mm]"},
    /* DRAM (per channel) */
    {"dram.activate_pj", PJ(dram_activate_pj), "12006", NULL,
     "pJ per ACT with its PRE, dram.activates [DRAMsim3: 1.5 V x (490x60 - 450x42 - 250x18) mA x 0.667 ns x 2]"},
    {"dram.precharge_pj", PJ(dram_precharge_pj), "0", NULL,
     "pJ per PRE, dram.precharges: 0, the ACT-PRE pair is charged to activate [DRAMsim3]"},
    {"dram.read_pj", PJ(dram_read_pj), "2521.26", NULL,
     "pJ per RD burst, dram.rd_cmds [DRAMsim3: 1.5 V x (1080 - 450) mA x 2 x 0.667 ns x 2]"},
    {"dram.write_pj", PJ(dram_write_pj), "2841.42", NULL,
     "pJ per WR burst, dram.wr_cmds [DRAMsim3: 1.5 V x (1160 - 450) mA x 2 x 0.667 ns x 2]"},
    {"dram.refresh_pj", PJ(dram_refresh_pj), "0", NULL,
     "pJ per REF, dram.refreshes (refresh is not modelled) [DRAMsim3: IDD5AB = IDD3N gives 0]"},
    {"dram.background_mw", MW(dram_background_mw), "1350", NULL,
     "background mW per channel, charged per DRAM cycle (dram.cycles) [DRAMsim3: 1.5 V x IDD3N 450 mA x 2]"},
    /* core: per-instruction term (per SM) */
    {"core.inst_pj", PJ(core_inst_pj), "0", NULL,
     "pJ per warp instruction (fetch, decode, issue), func.warp_insts [none: set from your power model]"},
    {"core.lane_pj", PJ(core_lane_pj), "0", NULL,
     "pJ per thread instruction (execution per active lane), func.thread_insts [none: set from your power model]"},
    {"core.static_mw", MW(core_static_mw), "0", NULL,
     "leakage of the rest of the SM, mW per SM [none: set from your power model]"},
};

#undef PJ
#undef MW

const struct cfg_section energy_cfg_section = {
    "energy", "energy model: pJ per event and static mW per structure (docs/energy.md)",
    offsetof(struct sim_cfg, energy), energy_keys, ARRAY_LEN(energy_keys), NULL};
