/* sim/cfg/sync_cfg.c: the sync.* configuration keys (owned by sync/engine.c;
 * spec baseline-gpu.md 4.2 names sync.quantum; the section was engine.*). */
#include <stddef.h>

#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"
#include "sync/engine.h"

static const struct cfg_key engine_keys[] = {
    {"quantum", CFG_TIME, offsetof(struct engine_cfg, quantum_ps), 0, 1e12, "0", NULL,
     "quantum Q in ps; 0 = the lookahead L (exact mode); Q > L needs sync.relaxed"},
    {"relaxed", CFG_BOOL, offsetof(struct engine_cfg, relaxed), 0, 0, "false", NULL,
     "allow Q > L: messages due inside a quantum are delivered at the next quantum start"},
    {"ring_slots", CFG_UINT, offsetof(struct engine_cfg, ring_slots), 16, 1048576, "1024", NULL,
     "messages per inter-thread ring (power of two); a full ring spills to an overflow list"},
    {"spin", CFG_UINT, offsetof(struct engine_cfg, spin_limit), 0, 1e9, "20000", NULL,
     "barrier spin iterations before sleeping in futex wait"},
    {"max_time", CFG_TIME, offsetof(struct engine_cfg, max_time_ps), 0, 1.8e19, "0", NULL,
     "stop at this simulated time (ps, ns, us, ms); 0 = no limit"},
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
    "sync", "parallel engine: quantum, relaxed mode, rings, barrier",
    offsetof(struct sim_cfg, engine), engine_keys, ARRAY_LEN(engine_keys), engine_check};
