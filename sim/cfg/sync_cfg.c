/* sim/cfg/sync_cfg.c: the sync.* configuration keys (owned by sync/engine.c;
 * spec baseline-gpu.md 4.2 names sync.quantum; the section was engine.*). */
#include <stddef.h>

#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"
#include "sync/engine.h"

static const char *const relaxed_comp_names[] = {"none", "fifo", "due", NULL};

static const struct cfg_key engine_keys[] = {
    {"quantum", CFG_TIME, offsetof(struct engine_cfg, quantum_ps), 0, 1e12, "0", NULL,
     "quantum Q in ps; 0 = the lookahead L (exact mode); Q > L needs sync.relaxed"},
    {"relaxed", CFG_BOOL, offsetof(struct engine_cfg, relaxed), 0, 0, "false", NULL,
     "allow Q > L: messages due inside a quantum are delivered at the next quantum start"},
    {"relaxed_comp", CFG_ENUM, offsetof(struct engine_cfg, relaxed_comp), 0, 0, "due", relaxed_comp_names,
     "relaxed mode only: none = late messages just wait; fifo = interconnect receive FIFOs deepened by the "
     "longer credit loop; due = fifo, and the L2's input delay starts at a request's due time"},
    {"ring_slots", CFG_UINT, offsetof(struct engine_cfg, ring_slots), 16, 1048576, "1024", NULL,
     "messages per inter-thread ring (power of two); a full ring spills to an overflow list"},
    {"spin", CFG_UINT, offsetof(struct engine_cfg, spin_limit), 0, 1e9, "20000", NULL,
     "barrier spin iterations before sleeping in futex wait"},
    {"max_time", CFG_TIME, offsetof(struct engine_cfg, max_time_ps), 0, 1.8e19, "0", NULL,
     "stop at this simulated time (ps, ns, us, ms); 0 = no limit"},
    {"adaptive", CFG_BOOL, offsetof(struct engine_cfg, adaptive), 0, 0, "true", NULL,
     "run quanta on fewer host threads (down to one) when that is faster, and balance partitions by "
     "measured work; results are the same either way (docs/engine.md)"},
    {"adapt_window", CFG_TIME, offsetof(struct engine_cfg, adapt_window_ps), 1e8, 1e13, "4ms", NULL,
     "host wall time of one measurement window of the adaptive engine"},
    {"adapt_gain", CFG_DOUBLE, offsetof(struct engine_cfg, adapt_gain), 0, 0.9, "0.1", NULL,
     "move to more threads only when the model says a quantum gets this much faster (0.1 = 10%)"},
    {"adapt_hold_max", CFG_UINT, offsetof(struct engine_cfg, adapt_hold_max), 4, 1e6, "256", NULL,
     "most windows a measured thread count's overhead is trusted before it is tried again (from 4, "
     "doubling after each failed move)"},
    {"sample_period", CFG_UINT, offsetof(struct engine_cfg, sample_period), 0, 1e9, "8", NULL,
     "time each partition's run in one quantum of N on average (work model, balance, profile); 0 = never "
     "(the adaptive engine then keeps the thread count)"},
    {"spin_check", CFG_TIME, offsetof(struct engine_cfg, spin_check_ps), 0, 1e12, "20us", NULL,
     "host time a barrier waiter spins before checking that the thread it waits for is on a CPU "
     "(if not, it sleeps at once); 0 = never check"},
    {"adapt_trace", CFG_BOOL, offsetof(struct engine_cfg, adapt_trace), 0, 0, "false", NULL,
     "print one line per measurement window of the adaptive engine on stderr (thread count, rate, decision)"},
    {"steal", CFG_BOOL, offsetof(struct engine_cfg, steal), 0, 0, "true", NULL,
     "a thread that has run its partitions of a quantum runs other threads' unstarted ones (balances work that "
     "changes from quantum to quantum); results are the same either way (docs/engine.md)"},
    {"ahead", CFG_BOOL, offsetof(struct engine_cfg, ahead), 0, 0, "true", NULL,
     "a thread that arrives at the quantum barrier runs the next quantum of its SMs that the serial step will "
     "not touch, once every memory partition has run this one; replaces sync.steal when on; results are the "
     "same either way (docs/engine.md)"},
    {"debug_repartition_seed", CFG_UINT, offsetof(struct engine_cfg, debug_seed), 0, 1.8e19, "0", NULL,
     "testing: non-zero = re-partition at random quanta to random thread counts and mappings, "
     "from this seed (results must not change)"},
};

static void engine_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    const struct engine_cfg *e = sec;
    (void)all;
    if (!is_pow2_u64(e->ring_slots))
        cfg_check_fail(ck, "sync.ring_slots", "%llu is not a power of two",
                       (unsigned long long)e->ring_slots);
}

const struct cfg_section engine_cfg_section = {
    "sync", "parallel engine: quantum, relaxed mode, rings, barrier, adaptive threads",
    offsetof(struct sim_cfg, engine), engine_keys, ARRAY_LEN(engine_keys), engine_check};
