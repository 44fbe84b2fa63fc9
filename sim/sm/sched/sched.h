/* sim/sm/sched/sched.h: the warp schedulers of one SM (issue stage), cycle-driven in
 * the SM pipeline clock (spec baseline-gpu.md 1.2, 2.3, 4.2, 5; docs/sched.md).
 *
 * What is modelled:
 *  - `n_sched` schedulers per SM; warp slot w belongs to scheduler w mod n_sched.
 *  - Each scheduler issues at most one instruction per cycle, from at most one
 *    warp ([GPGPU-Sim] max_insn_issue_per_warp = 1, no dual issue).
 *  - A policy orders the scheduler's warps (lrr, gto, two_level; one file per
 *    policy, chosen by sched.policy through struct wsched_policy); the
 *    framework issues the first eligible warp of that order.
 *  - The stall reason of every scheduler cycle that issues nothing (spec 5):
 *    no warp, I-buffer empty, barrier, memory ordering, scoreboard, pipe busy,
 *    and "policy" (a ready warp exists but the policy did not offer it, e.g.
 *    outside the two-level active pool). Every cycle is counted exactly once:
 *    cycles = issued + sum of the stall counters.
 *
 * What is not modelled here (the SM owns it and answers through the port):
 * the I-buffer, the scoreboard (sim/sm/sched/scoreboard.h), pipe and collector
 * occupancy, barriers, membar / SC ordering. The scheduler has no timers.
 *
 * The SM <-> scheduler interface (struct wsched_port):
 *   check(ctx, w)  -> why warp w's next instruction cannot issue *now*
 *                     (WSCHED_READY when it can). Must be side-effect free;
 *                     the answer must reflect issues made earlier in the same
 *                     cycle by lower-numbered schedulers (shared pipes).
 *                     It is evaluated in this order (first failing test wins):
 *                     I-buffer head valid, barrier, memory ordering (membar,
 *                     sched.max_outstanding_mem_per_warp), scoreboard RAW/WAW,
 *                     target pipe and collector unit free.
 *   issue(ctx, w)  -> the SM issues w's next instruction now (reserves the
 *                     scoreboard and pipe, pops the I-buffer); returns
 *                     WSCHED_ISSUE_* flags (LONG: a long-latency operation,
 *                     i.e. a global/local load, [proposal] spec 2.3).
 * and notifications from the SM: wsched_warp_launch / wsched_warp_exit and
 * wsched_notify(WSCHED_EV_LONG_DONE) when a warp's last outstanding
 * long-latency write has been released (scoreboard_release returns that).
 *
 * Calling convention, per pipeline cycle t: the SM runs its later stages
 * first (writeback, execute, operand collection; STYLE.md 2), then calls
 * wsched_tick(s, t, port), which evaluates the schedulers in index order
 * 0 .. n_sched-1 (fixed order: deterministic, and a pipe taken by scheduler 0
 * is busy for scheduler 1 in the same cycle). wsched_tick returns t + 1 when
 * some scheduler issued, else CYCLE_NEVER: it has no work of its own until
 * the SM's state changes (writeback, fetch, barrier release, pipe free,
 * launch), and the SM then ticks it again. Cycles skipped between two ticks
 * are charged to each scheduler's last stall reason (nothing could change
 * without an SM event, which would have ticked it).
 *
 * Hooks for future policies (warp-sched-vws.md 2.1, 3): per-warp CTA launch
 * sequence and age order, launch/exit/issue/event callbacks, a per-scheduler
 * policy state, and the candidate order (a policy may omit warps: VWS's
 * eligible set E), L1D events per warp (on_l1), SM-wide policy state
 * (sm_init, kernel_start) and a load gate per warp (no_load, block_loads).
 *
 * Hot path: no allocation, no strings; O(warps per scheduler) per cycle.
 */
#ifndef GPUSIM_SIM_SM_SCHED_SCHED_H
#define GPUSIM_SIM_SM_SCHED_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/base/stats.h"

#define WSCHED_NONE UINT32_MAX /* no warp */
#define WSCHED_MAX_SCHED 16    /* largest sched.n_sched */
#define WSCHED_MAX_WARPS 256   /* largest warp-slot count per SM */

/* ------------------------------------------------------------- config */

enum wsched_policy_kind {
    WSCHED_LRR = 0,
    WSCHED_GTO = 1,
    WSCHED_TWO_LEVEL = 2,
    WSCHED_CCWS = 3,        /* cache-conscious wavefront scheduling (sched_ccws.c) */
    WSCHED_IWL = 4,         /* IWL throttling, CTA-interleaved eligible set (sched_iwl.c) */
    WSCHED_IWL_INTRACL = 5, /* IWL + IntraCL, CTA-major eligible set (sched_iwl_intracl.c) */
    WSCHED_VWS = 6,         /* IWL + IntraCL + InterCL two-level (sched_vws.c) */
    WSCHED_RMWS = 7,        /* racetrack-aware: lowest RF shift score first, GTO ties (sched_rmws.c) */
};

/* sched.throttle_mode: what a warp outside the eligible set may issue. */
enum wsched_throttle_mode { WSCHED_BLOCK_ALL = 0, WSCHED_BLOCK_LOADS = 1 };
/* sched.vws.formula: Eq. 4.3 (basic) or Eq. 4.6 (rrdegr) of 000 ch. 4. */
enum wsched_iwl_formula { WSCHED_IWL_BASIC = 0, WSCHED_IWL_RRDEGR = 1 };
/* sched.issue_order: which scheduler of an SM goes first in a cycle
 * (NOTE(issue-order) in sched.c). */
enum wsched_issue_order { WSCHED_ORDER_FIXED = 0, WSCHED_ORDER_ROTATE = 1 };

/* Section "sched" (declared in sched_cfg.c). */
struct wsched_cfg {
    uint64_t n_sched;      /* sched.n_sched: schedulers per SM (spec key sm.n_sched) */
    int policy;            /* sched.policy: enum wsched_policy_kind */
    uint64_t n_active;     /* sched.two_level.n_active: active-pool warps per SM (warps) */
    int issue_order;       /* sched.issue_order: enum wsched_issue_order */
    uint64_t max_outstanding_mem_per_warp; /* sched.max_outstanding_mem_per_warp:
                              memory instructions in flight per warp (0 = unlimited);
                              applied by the SM's check (reason MEM_ORDER) */
    /* cache-aware schedulers (warp-sched-vws.md; docs/vws.md) */
    int throttle_mode;     /* sched.throttle_mode: enum wsched_throttle_mode (iwl family) */
    double vws_alpha;      /* sched.vws.alpha: sampling fraction of Eq. 4.2 (0..1) */
    double vws_beta;       /* sched.vws.beta: aggressiveness of Eq. 4.6 (> 0) */
    uint64_t vws_amt_entries; /* sched.vws.amt_entries: address-miss-table bits (entries) */
    uint64_t vws_counter_bits; /* sched.vws.counter_bits: width of miss_cnt/acc_cnt (bits) */
    uint64_t vws_l1_cap;   /* sched.vws.l1_cap: InterCL level-1 capacity per SM (warps) */
    uint64_t vws_progress_guard; /* sched.vws.progress_guard: NOTE(vws-progress) factor (0 = off) */
    int vws_formula;       /* sched.vws.formula: enum wsched_iwl_formula */
    uint64_t vws_spin_guard; /* sched.vws.spin_guard: NOTE(vws-spin) window (instructions; 0 = off) */
    uint64_t vws_static_nact; /* sched.vws.static_nact: fixed N_act (warps; 0 = the estimator's) */
    uint64_t ccws_vta_entries; /* sched.ccws.vta_entries: victim tags per warp (entries) */
    uint64_t ccws_vta_assoc;   /* sched.ccws.vta_assoc: ways per victim-tag set (entries) */
    uint64_t ccws_base;    /* sched.ccws.base_score: BASE, the floor of every score (points) */
    double ccws_k_throttle; /* sched.ccws.k_throttle: K_THROTTLE of the LLDS formula */
    uint64_t ccws_decay;   /* sched.ccws.decay: score decay (points per pipeline cycle) */
};

extern const struct cfg_key wsched_cfg_keys[];
extern const size_t wsched_cfg_n_keys;
/* The "sched" section (registered in sim/cfg/registry.c). */
extern const struct cfg_section wsched_cfg_section;

/* Built-in gtx480 defaults (the same values as the key table). */
void wsched_cfg_defaults(struct wsched_cfg *c);
/* Cross-field rules; each violation is passed to report (may be NULL) with
 * the full key name and a message. Returns the number of violations. */
typedef void (*wsched_cfg_report_fn)(void *ctx, const char *key, const char *msg);
int wsched_cfg_validate(const struct wsched_cfg *c, wsched_cfg_report_fn report, void *ctx);
/* The section's check: wsched_cfg_validate plus sched.n_sched <= sm.max_warps. */
struct sim_cfg;
struct cfg_checker;
void wsched_cfg_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck);

/* ------------------------------------------------------------- the port */

/* Why a warp cannot issue. The numeric order is the classification rank: a
 * stalled cycle is charged to the highest reason among the scheduler's warps
 * (the warp that came closest to issuing). */
enum wsched_why {
    WSCHED_NO_WARP = 0,   /* (cycle only) no resident warp in this scheduler */
    WSCHED_IBUF_EMPTY,    /* I-buffer head not valid (fetch / I-cache miss) */
    WSCHED_BARRIER,       /* waiting at bar.sync for the rest of its CTA */
    WSCHED_MEM_ORDER,     /* membar waiting for loads/acks, or SC outstanding limit */
    WSCHED_SCOREBOARD,    /* RAW or WAW hazard on a pending write */
    WSCHED_PIPE_BUSY,     /* target pipe or collector unit not free */
    WSCHED_POLICY,        /* (cycle only) a ready warp was not offered by the policy, or its
                             global/local load was gated (wsched.no_load) */
    WSCHED_READY,         /* (warp only) can issue now */
    WSCHED_N_WHY
};

enum { WSCHED_ISSUE_LONG = 1u << 0 }; /* issue flags: long-latency op (global/local load) */

enum wsched_event { WSCHED_EV_LONG_DONE = 0 }; /* last outstanding long write released */

struct wsched_port {
    void *ctx;                                           /* the SM */
    enum wsched_why (*check)(void *ctx, uint32_t warp);  /* pure readiness query */
    uint32_t (*issue)(void *ctx, uint32_t warp);         /* issue now; WSCHED_ISSUE_* */
    /* Optional (may be NULL): a signature of everything check() reads that
     * is not per-warp (pipes, collector units, pools), or UINT64_MAX when
     * that cannot be summarised (e.g. a cycle-dependent gate). Equal
     * signatures mean check() gives every untouched warp the same answer.
     * A port that sets res_sig promises wsched_touch(w) for every change of
     * the per-warp part of check(w); the framework then skips evaluations
     * whose outcome cannot have changed (NOTE(sched-skip) in sched.c). NULL:
     * every scheduler is evaluated every tick. */
    uint64_t (*res_sig)(void *ctx);
    /* Optional (may be NULL: nothing is a load): warp w's next instruction
     * is a load through the L1D (ld/ldu of global or local memory). Asked
     * only for READY warps whose policy set wsched.no_load[w]. */
    bool (*is_l1_load)(void *ctx, uint32_t warp);
    /* Optional (may be NULL: 0): the register file's score of warp w's next
     * instruction, lower first (racetrack RMWS: worst operand shift
     * distance). Pure. */
    uint32_t (*score)(void *ctx, uint32_t warp);
    /* Optional (may be NULL): the port's per-warp memo of check(), indexed
     * by warp: a byte with WSCHED_PW_BLOCK set holds, in its low bits, the
     * answer check() gives now (a per-warp block that no resource can
     * lift); any other byte means "ask check()". Kept exact by the port
     * (the SM's NOTE(pw-memo)); the gto walk reads it instead of calling
     * check() for blocked warps (NOTE(blocked-memo) in sched.c). */
    const uint8_t *pw_memo;
    /* With pw_memo: a byte with bit 6 set and bit 7 (WSCHED_PW_BLOCK) clear
     * (the SM's PW_PASS bytes) decides check()'s answer together with state
     * that stays fixed while no warp issues (the SM's pools and collector
     * units in this cycle): two such warps with the same byte get the same
     * answer in one evaluation. The gto walk
     * then asks check() once per distinct byte (NOTE(pass-key) in
     * sched.c). False when check() also reads per-warp state outside the
     * memo (the SM's register-file gate). */
    bool pw_keyed;
    /* Optional (may be NULL), with pw_memo and at most 64 warp slots: the
     * port's blocked warps by reason, pw_blk[r] bit w set exactly when
     * pw_memo[w] == (WSCHED_PW_BLOCK | r) (r = IBUF_EMPTY .. SCOREBOARD;
     * [WSCHED_N_WHY] words). The gto walk then visits only the warps
     * outside these masks (NOTE(blocked-masks) in sched.c). */
    const uint64_t *pw_blk;
};

#define WSCHED_PW_BLOCK 0x80u /* wsched_port.pw_memo: blocked, reason in the low bits */

/* What the SM tells the scheduler at kernel start (wsched_kernel_start). */
struct wsched_kernel_info {
    uint32_t warps_per_cta;  /* warps of one CTA (warps); CTA slot c holds warp slots
                                c * warps_per_cta .. + warps_per_cta - 1 */
    uint32_t ctas_per_sm;    /* occupancy (CTAs) */
    uint64_t grid_ctas;      /* CTAs of the whole grid (CTAs) */
    uint32_t n_sm;           /* SMs of the GPU */
    uint32_t sm_id;          /* this SM */
    uint32_t l1d_lines;      /* L1D capacity (lines) */
    uint32_t line_bytes;     /* L1D line (bytes) */
};

/* ------------------------------------------------------------- state */

struct wsched_stats {
    uint64_t cycles;              /* scheduler cycles accounted (pipeline cycles) */
    uint64_t issued;              /* cycles that issued an instruction (= instructions) */
    uint64_t stall[WSCHED_READY]; /* cycles without issue, by enum wsched_why (< READY) */
    uint64_t demotions;           /* two_level: warps moved active -> pending */
    uint64_t promotions;          /* two_level: warps moved pending -> active */
    uint64_t throttled;           /* ready warps held by a load gate (no_load), per probe (warps) */
    struct stat_hist by_warp;     /* issues by warp slot (bin width 1, max_warps bins) */
};

struct wsched;
struct wsched_unit;

/* A policy: one file per policy (sched_lrr.c, sched_gto.c, sched_2lev.c). */
struct wsched_policy {
    const char *name;
    /* Allocate u->pstate (init time only). */
    void (*init)(struct wsched *s, struct wsched_unit *u);
    void (*fini)(struct wsched *s, struct wsched_unit *u);
    /* Write the candidate warps (distinct, resident) in priority order into
     * u->order; return the count. May call wsched_probe (memoised) and move warps between its
     * own structures. Called once per scheduler cycle. */
    uint32_t (*order)(struct wsched *s, struct wsched_unit *u);
    /* After the framework issued warp w (u->last is already w). */
    void (*on_issue)(struct wsched *s, struct wsched_unit *u, uint32_t w, uint32_t flags);
    /* Warp w became resident (already in u->age) / left (already removed). */
    void (*on_launch)(struct wsched *s, struct wsched_unit *u, uint32_t w);
    void (*on_exit)(struct wsched *s, struct wsched_unit *u, uint32_t w);
    /* An SM event about warp w (enum wsched_event). May be NULL. */
    void (*on_event)(struct wsched *s, struct wsched_unit *u, uint32_t w, enum wsched_event ev);
    /* Optional (NULL for lrr, gto, two_level): an L1D access outcome of warp
     * w, or the eviction of a line w inserted. ev is an enum l1d_event
     * (sim/sm/lsu/l1d.h: hit, miss, merge, store, other, evict); line_addr the
     * line. u is w's scheduler. When set, the SM turns on the L1D's per-warp
     * events (its tag array then keeps the inserting warp per line);
     * docs/sched.md "L1 events". The warp may not be resident (an eviction
     * of a line inserted by a warp that has exited). */
    void (*on_l1)(struct wsched *s, struct wsched_unit *u, uint32_t w, uint32_t ev, uint64_t line_addr);
    /* True when order() has no side effects and depends only on state that
     * changes at issue, launch, exit or wsched_touch: the framework may then
     * skip a scheduler whose warps were all blocked on per-warp conditions
     * and saw no event since (NOTE(sched-skip) in sched.c). */
    bool stable_order;
    /* True when order() is u->last (when resident) followed by the age list
     * without it, and has no side effect the framework needs: the framework
     * then walks the two directly instead of asking for the order
     * (NOTE(greedy-walk) in sched.c). gto only. */
    bool greedy_age;
    /* Optional SM-wide state (NULL for lrr, gto, two_level): state shared by
     * all schedulers of the SM (IWL estimator, CCWS scores), in s->spstate.
     * sm_init runs before the units' init, sm_fini after their fini. */
    void (*sm_init)(struct wsched *s);
    void (*sm_fini)(struct wsched *s);
    /* Optional: a kernel starts on this SM (no warp resident yet). */
    void (*kernel_start)(struct wsched *s, const struct wsched_kernel_info *ki);
    /* Optional: register the policy's SM-wide statistics for SM sm_id. */
    void (*stats_register)(struct wsched *s, struct stats *reg, int sm_id);
    /* Tick again in the next cycle when a ready warp was held back by the
     * policy (WSCHED_POLICY) although no SM event follows: for policies
     * whose decisions change with time alone (CCWS score decay). Ticking
     * more often never changes a result (sim.tick_every_cycle). */
    bool poll_when_held;
    /* Optional: true while the policy's decisions or its per-cycle
     * statistics change with time alone (CCWS: a score above BASE decays
     * every cycle, and the gate and its counters follow it). The framework
     * then asks for the next cycle even when nothing issued, so that idle
     * skipping evaluates the same cycles as sim.tick_every_cycle
     * (NOTE(time-varying) in sched.c). */
    bool (*time_varying)(const struct wsched *s);
};

extern const struct wsched_policy wsched_policy_lrr;
extern const struct wsched_policy wsched_policy_gto;
extern const struct wsched_policy wsched_policy_2lev;
extern const struct wsched_policy wsched_policy_ccws;
extern const struct wsched_policy wsched_policy_iwl;
extern const struct wsched_policy wsched_policy_iwl_intracl;
extern const struct wsched_policy wsched_policy_vws;
extern const struct wsched_policy wsched_policy_rmws;

/* One scheduler. */
struct wsched_unit {
    uint32_t id;          /* scheduler index k (warps w with w mod n_sched == k) */
    uint32_t n_slots;     /* warp slots of this scheduler (warps) */
    uint32_t *slots;      /* [n_slots] its warp ids, ascending */
    uint32_t n_age;       /* resident warps (warps) */
    uint32_t *age;        /* [n_slots] resident warps, oldest first: (CTA seq, warp id) */
    uint32_t *order;      /* [n_slots] candidate order of the current cycle (scratch) */
    uint32_t last;        /* last issued warp, WSCHED_NONE before the first issue */
    uint32_t issued_now;  /* warp issued in the last ticked cycle, or WSCHED_NONE */
    enum wsched_why last_why; /* classification of the last ticked cycle (READY = issued) */
    bool dirty;           /* a warp of this scheduler changed since its last evaluation (wsched_touch) */
    uint64_t skipped;     /* evaluations skipped (NOTE(sched-skip); host-side, not a model statistic) */
    uint64_t masked;      /* evaluations by the masked walk (NOTE(blocked-masks); host-side, not a statistic) */
    uint64_t res_seen;    /* port res_sig at the last evaluation (UINT64_MAX: none) */
    uint64_t res_bits;    /* resident warps as bits by warp id (max_warps <= 64 only; NOTE(blocked-masks)) */
    void *pstate;         /* policy state (owned by the policy) */
    struct wsched_stats st;
};

struct wsched {
    const struct wsched_policy *pol; /* chosen by cfg.policy */
    struct wsched_cfg cfg;            /* copy of the configuration */
    uint32_t n_sched;                 /* schedulers */
    uint32_t sched_mask;              /* n_sched - 1 when n_sched is a power of two, else 0 (NOTE(sched-of)) */
    uint32_t max_warps;               /* warp slots of the SM (warps) */
    uint32_t n_active_per_sched;      /* two_level pool size per scheduler (warps) */
    struct wsched_unit *units;        /* [n_sched] */
    bool *resident;                   /* [max_warps] warp slot holds a live warp */
    uint8_t *rank;                    /* [max_warps] a resident warp's index in its unit's age list
                                         (max_warps <= 64 only; NOTE(blocked-masks)) */
    uint64_t *cta_seq;                /* [max_warps] launch sequence number of the warp's CTA */
    uint8_t *why;                     /* [max_warps] memoised check() result (enum wsched_why) */
    uint64_t *why_turn;               /* [max_warps] turn at which why[] was computed */
    uint64_t turn;                    /* scheduler evaluations so far (memo key), starts at 1 */
    const struct wsched_port *port;   /* port of the tick in progress (NULL outside a tick) */
    cycle_t last_cycle;               /* last ticked cycle, CYCLE_NEVER before the first */
    cycle_t now;                      /* cycle of the tick in progress, or of the last L1 event
                                         (wsched_set_now); policies read it (pipeline cycles) */
    uint32_t *cta_id;                 /* [max_warps] linear CTA id of the warp (wsched_warp_cta) */
    bool *no_load;                    /* [max_warps] policy gate: the warp may not issue an L1D
                                         load now (charged as WSCHED_POLICY) */
    bool held;                        /* this tick held back a ready warp (poll_when_held) */
    void *spstate;                    /* SM-wide policy state (sm_init), NULL for most policies */
};

/* ------------------------------------------------------------- API */

/* max_warps: the SM's warp slots (sm.max_warps), <= WSCHED_MAX_WARPS. The
 * configuration must pass wsched_cfg_validate (else sim_panic). */
void wsched_init(struct wsched *s, const struct wsched_cfg *cfg, uint32_t max_warps);
void wsched_fini(struct wsched *s);

/* Warp slot w now holds a warp of the CTA with launch sequence number cta_seq
 * (the SM's count of CTAs launched so far; GTO age = (cta_seq, w)). */
void wsched_warp_launch(struct wsched *s, uint32_t w, uint64_t cta_seq);
/* Linear CTA id of warp w (call before wsched_warp_launch; default 0). */
static inline void wsched_warp_cta(struct wsched *s, uint32_t w, uint32_t cta_lin) { s->cta_id[w] = cta_lin; }
/* A kernel starts on the SM (before its first warp launch). */
void wsched_kernel_start(struct wsched *s, const struct wsched_kernel_info *ki);
/* The current pipeline cycle, for events outside a tick (L1D events). */
static inline void wsched_set_now(struct wsched *s, cycle_t now) { s->now = now; }
/* Warp w finished (exit with an empty SIMT stack); its slot is free. */
void wsched_warp_exit(struct wsched *s, uint32_t w);
/* Something warp w's check() reads below the pipe/collector tests changed
 * (its I-buffer, scoreboard, barrier or exit state, memory-ordering
 * counters): its scheduler must evaluate again (NOTE(sched-skip)). The SM
 * calls this at every such change; launch, exit and issue imply it. */
static inline void wsched_touch(struct wsched *s, uint32_t w);
/* SM event about warp w (WSCHED_EV_LONG_DONE). */
void wsched_notify(struct wsched *s, uint32_t w, enum wsched_event ev);
/* The policy wants L1D events (its on_l1 is set). */
static inline bool wsched_wants_l1(const struct wsched *s) { return s->pol->on_l1 != NULL; }
/* Forward an L1D event (enum l1d_event) of warp w to the policy's on_l1;
 * warps outside the SM's slots (MEM_WARP_NONE) are dropped. */
void wsched_on_l1(struct wsched *s, uint32_t w, uint32_t ev, uint64_t line_addr);

/* One pipeline cycle `now` (strictly increasing across calls). Issues at most
 * one warp per scheduler through port->issue. Returns now + 1 when something
 * issued, else CYCLE_NEVER. */
cycle_t wsched_tick(struct wsched *s, cycle_t now, const struct wsched_port *port);

/* Warp issued by scheduler k in the last ticked cycle, or WSCHED_NONE. */
static inline uint32_t wsched_issued(const struct wsched *s, uint32_t k) { return s->units[k].issued_now; }
/* Scheduler owning warp slot w: w mod n_sched. NOTE(sched-of): by mask
 * when n_sched is a power of two (every preset), because wsched_touch runs
 * at every scoreboard, I-buffer and memory-counter change of a warp and a
 * 32-bit division takes 15-25 cycles on the hosts measured; 1 and 2
 * schedulers give mask 0 and 1, so sched_mask == 0 means "divide" only
 * when n_sched > 1. */
static inline uint32_t wsched_of(const struct wsched *s, uint32_t w)
{
    return s->sched_mask || s->n_sched == 1 ? w & s->sched_mask : w % s->n_sched;
}
static inline void wsched_touch(struct wsched *s, uint32_t w) { s->units[wsched_of(s, w)].dirty = true; }

/* For policies: check(w) through the port, memoised within one scheduler
 * evaluation. Only valid inside wsched_tick. */
enum wsched_why wsched_probe(struct wsched *s, uint32_t w);
/* For policies: write GTO's order into u->order (the last issued warp if
 * still resident, then every resident warp oldest first); returns the
 * count. */
uint32_t wsched_gto_fill(const struct wsched *s, struct wsched_unit *u);
/* For policies: true when warp a is older than warp b ((CTA seq, warp id)). */
static inline bool wsched_older(const struct wsched *s, uint32_t a, uint32_t b)
{
    return s->cta_seq[a] != s->cta_seq[b] ? s->cta_seq[a] < s->cta_seq[b] : a < b;
}

/* ccws only (tests, dumps): warp w's lost-locality score at s->now (points). */
double wsched_ccws_score(const struct wsched *s, uint32_t w);

/* Statistics under group `group` (e.g. "sm.sched"), instance
 * first_instance + k for scheduler k. */
void wsched_stats_register(struct wsched *s, struct stats *reg, const char *group, int first_instance);
/* Statistic name of a stall reason ("stall_scoreboard"...), for tests and dumps. */
const char *wsched_why_name(enum wsched_why why);
/* Check invariants (pool sizes, age order, stats sum); panics naming the
 * scheduler. Cheap enough for every cycle in debug builds and tests. */
void wsched_check(const struct wsched *s);

#endif /* GPUSIM_SIM_SM_SCHED_SCHED_H */
