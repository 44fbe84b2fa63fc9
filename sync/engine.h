/* sync/engine.h: the deterministic parallel discrete-time engine.
 *
 * What it models: a set of clocked units grouped in partitions. A partition
 * is the unit of ownership: all its units run on one host thread, call each
 * other directly, and share no state with other partitions. Units of
 * different partitions talk only through timestamped messages sent with at
 * least the link's minimum latency. The smallest such latency is the
 * lookahead L.
 *
 * Time is in picoseconds. Each unit belongs to a clock domain (a period in
 * ps, edges at multiples of it starting at 0) and is ticked on its domain's
 * edges only. A tick returns the next time the unit needs to run, so idle
 * units are skipped and, when every unit is idle, time jumps to the next
 * event.
 *
 * Quantum loop (per host thread): drain inbound messages, run every owned
 * partition up to t_end = t + Q, meet at the quantum barrier; the last
 * arriver runs the serial step (model hook, termination, time jump).
 *
 * Determinism: within a partition, at each time T the engine first delivers
 * every message with arrival <= T in (arrival, source unit id, source
 * sequence) order, then ticks the units due at T in (domain rank, unit id)
 * order. Partitions never interact inside a quantum, so the result does not
 * depend on how partitions are mapped to threads or on thread timing.
 *  - Exact mode (default, engine.relaxed = false): Q <= L, so a message sent
 *    in a quantum always arrives in a later one; results equal a sequential
 *    run cycle for cycle.
 *  - Relaxed mode (engine.relaxed = true, Q > L allowed): a message that would
 *    arrive before the end of the current quantum is delivered at the start
 *    of the next one (its arrival time is raised to t_end; by how much is
 *    the message's `late`, which a receiver may use to start its own
 *    latencies from the due time). Deterministic for a given Q, whatever
 *    the thread count.
 *
 * Adaptive parallelism (sync.adaptive, default on): because results never
 * depend on the mapping, the serial step may change how many of the run's
 * threads take part and which partitions each owns. From partition run
 * times sampled every few quanta and the measured cost per quantum of each
 * thread count it has run, it predicts the quantum time of every
 * candidate count and moves to the fastest (NOTE(adaptive) in
 * engine_adapt.c); threads left without a partition sleep (parked) until
 * needed. Messages still in flight move to their destination partitions'
 * heaps at such a change. docs/engine.md.
 *
 * Full rings: a producer whose ring to a consumer thread is full appends the
 * message to an overflow list that it owns, double-buffered by quantum
 * parity. The consumer reads ring and overflow list of the previous quantum
 * after the barrier. Nothing is dropped and nobody waits for ring space, so a
 * full ring cannot deadlock a quantum.
 *
 * Not modelled here: anything about GPUs. The GPU model (sim/, partitions/)
 * and the synthetic test model (sim/synth/synth.c) are clients of this API.
 */
#ifndef GPUSIM_SYNC_ENGINE_H
#define GPUSIM_SYNC_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/base/common.h"
#include "sync/atomics.h"

struct cfg_section;
struct diag;
struct engine;
struct eng_ctx;

/* ------------------------------------------------------------- config */

/* Thread pinning (sync/topo.h). ENG_PIN_AUTO (NOTE(pin-auto) in
 * engine.c): ENG_PIN_CORES when the run's threads cover every CPU the
 * process may use, else no pinning. */
enum eng_pin { ENG_PIN_NONE, ENG_PIN_CORES, ENG_PIN_COMPACT, ENG_PIN_AUTO };
/* The values are gs_host_opts.pin's (include/gpusim.h): 0 none, 1 cores,
 * 2 compact, 3 auto; the runtime and the CLI convert by cast. */
_Static_assert(ENG_PIN_NONE == 0 && ENG_PIN_CORES == 1 && ENG_PIN_COMPACT == 2 && ENG_PIN_AUTO == 3,
               "enum eng_pin must match gs_host_opts.pin");

/* What the model does about relaxed mode's late messages (sync.relaxed_comp;
 * ignored in exact mode). */
enum {
    ENG_RELAXED_COMP_NONE = 0, /* deliver at the quantum start, nothing else */
    ENG_RELAXED_COMP_FIFO,     /* deepen the interconnect receive FIFOs by the longer credit loop */
    ENG_RELAXED_COMP_DUE,      /* and start the L2 input (ROP) delay at the request's due time */
};

struct engine_cfg {
    uint64_t quantum_ps;  /* engine.quantum (ps): 0 = equal to the lookahead L */
    bool relaxed;         /* engine.relaxed: allow quantum > L */
    int relaxed_comp;     /* sync.relaxed_comp: ENG_RELAXED_COMP_* (NOTE(relaxed-comp) in docs/engine.md) */
    uint64_t ring_slots;  /* engine.ring_slots (entries): SPSC ring capacity per thread pair */
    uint64_t spin_limit;  /* engine.spin (iterations): barrier spins before futex sleep */
    uint64_t max_time_ps; /* engine.max_time (ps): stop the run at this simulated time, 0 = none */
    /* Adaptive parallelism (docs/engine.md); all zero = off, as in bench/engine. */
    bool adaptive;             /* sync.adaptive: change active threads and mapping at quantum boundaries */
    uint64_t adapt_window_ps;  /* sync.adapt_window (ps of host wall time): one measurement window */
    double adapt_gain;         /* sync.adapt_gain: more threads only when this much faster (0.1 = 10%) */
    uint64_t adapt_hold_max;   /* sync.adapt_hold_max (windows): longest trust in a measured overhead */
    uint64_t sample_period;    /* sync.sample_period (quanta): partitions timed in one quantum of N, 0 = never */
    uint64_t spin_check_ps;    /* sync.spin_check (ps of host time): spin before checking that the awaited thread runs, 0 = never */
    uint64_t debug_seed;       /* sync.debug_repartition_seed: non-zero = re-partition at random (tests) */
    bool adapt_trace;          /* sync.adapt_trace: one stderr line per measurement window */
    bool steal;                /* sync.steal: a thread that has run its partitions runs others' unstarted ones (NOTE(steal)) */
    bool ahead;                /* sync.ahead: a thread waiting at the barrier runs its SMs' next quantum (NOTE(ahead)) */
};

extern const struct cfg_section engine_cfg_section;

/* ------------------------------------------------------------ messages */

#define ENG_MSG_PAYLOAD 224 /* bytes: a 128 B line plus request metadata */

struct eng_msg {
    ps_t arrival;      /* ps: when the receiver sees it */
    uint32_t src;      /* sending unit id */
    uint32_t dst;      /* receiving unit id */
    uint64_t seq;      /* per-source sequence number (engine-assigned) */
    uint16_t type;     /* model-defined (at most 0xFFFF) */
    uint16_t len;      /* payload bytes used */
    uint32_t late;     /* ps the message is delivered after its due time (sent
                        * time + latency): 0 in exact mode; in relaxed mode the
                        * amount raised to t_end (NOTE(relaxed-late)) */
    uint8_t payload[ENG_MSG_PAYLOAD];
};

#define ENG_MSG_HEADER_BYTES offsetof(struct eng_msg, payload)

/* ---------------------------------------------------------------- units */

struct eng_unit_ops {
    const char *kind; /* short name for dumps, e.g. "sm", "l2" */
    /* Run at edge `now` of the unit's domain. Return the earliest time the
     * unit needs to run again, or PS_NEVER when it waits for a message.
     * The engine rounds the answer up to the first edge after `now`. */
    ps_t (*tick)(void *self, struct eng_ctx *ctx, ps_t now);
    /* Message m arrived at now (== m->arrival). Return the time the unit now
     * needs to be ticked (PS_NEVER: no change); the engine rounds it up to an
     * edge >= now and keeps the earlier of it and the unit's current wake. */
    ps_t (*recv)(void *self, struct eng_ctx *ctx, const struct eng_msg *m, ps_t now);
};

enum eng_part_kind { ENG_PART_SM, ENG_PART_MEM };

/* Called on the owning thread before the first quantum: allocate the
 * partition's units with eng_alloc (first touch, thread's own arena) and
 * bind them with eng_unit_bind. */
typedef void (*eng_part_init_fn)(void *model, struct eng_ctx *ctx, int partition);
/* Called when the engine is destroyed, on the destroying thread (the run's
 * threads are gone by then); frees what the init allocated outside eng_alloc. */
typedef void (*eng_part_fini_fn)(void *model, struct eng_ctx *ctx, int partition);

/* Serial step, run by one thread while all others wait at the barrier, at
 * simulated time `now` (the end of the quantum just finished). It may read
 * and write any unit's state and wake units with eng_wake_serial. Return
 * false to stop the run. */
typedef bool (*eng_serial_fn)(void *model, struct engine *eng, ps_t now);

/* NOTE(ahead) in sync/engine.c. Called on the thread that ran `partition`
 * (an SM partition whose inbound links all come from memory partitions),
 * right after each of its quantum runs (ending at t_end, the time of the
 * serial step that follows) and before that quantum's barrier,
 * with sync.ahead on, whatever the thread count. Return true only if the
 * serial step that ends this quantum will neither write the partition's
 * state nor read any of it but what this call saved for it, and will not
 * end the run with the partition having work; the engine may then run the
 * partition's next quantum while that serial step runs. The answer must
 * depend on the model's state only (not on threads or timing). */
typedef bool (*eng_ahead_fn)(void *model, int partition, ps_t t_end);

/* ---------------------------------------------------------- building */

/* Topology is built on one thread before eng_run: */
struct engine *eng_create(const struct engine_cfg *cfg, void *model);
void eng_destroy(struct engine *eng);

/* Domains tie-break in the order added (the GPU adds DRAM, L2, icnt, core). */
int eng_domain_add(struct engine *eng, const char *name, ps_t period_ps);
int eng_partition_add(struct engine *eng, const char *name, enum eng_part_kind kind,
                      eng_part_init_fn init, eng_part_fini_fn fini);
/* Returns the unit id (dense, from 0, in order of addition). */
uint32_t eng_unit_add(struct engine *eng, int partition, int domain, const struct eng_unit_ops *ops);
/* Declare that src sends to dst with at least min_latency_ps. Links between
 * different partitions define the lookahead L (their minimum). A send between
 * units with no declared link is a model bug (panic). */
void eng_link_add(struct engine *eng, uint32_t src, uint32_t dst, ps_t min_latency_ps);
void eng_set_serial(struct engine *eng, eng_serial_fn fn);
void eng_set_ahead(struct engine *eng, eng_ahead_fn fn);

/* Validate: computes L and Q; errors (e.g. Q > L without relaxed mode) are
 * added to d naming the config key. Returns 0 when the engine can run. */
int eng_finalize(struct engine *eng, struct diag *d);

ps_t eng_lookahead(const struct engine *eng);
ps_t eng_quantum(const struct engine *eng);
unsigned eng_n_partitions(const struct engine *eng);
unsigned eng_n_units(const struct engine *eng);

/* --------------------------------------------------------------- running */

struct eng_run_opts {
    unsigned threads;     /* total host threads; 0 = auto (eng_auto_threads) */
    unsigned sm_threads;  /* explicit split (both or neither non-zero; turns sync.adaptive off) */
    unsigned mem_threads;
    enum eng_pin pin;     /* thread pinning policy */
    const atomic_u32 *stop_flag; /* read (acquire) at each quantum boundary: non-zero = stop */
    /* Optional, called from the serial step after each quantum with the
     * simulated time reached; it should rate-limit itself (wall clock). */
    void (*progress)(void *arg, ps_t now);
    void *progress_arg;
};

enum eng_finish {
    ENG_FINISH_IDLE,        /* nothing left to do anywhere */
    ENG_FINISH_SERIAL,      /* the serial hook returned false */
    ENG_FINISH_MAX_TIME,    /* engine.max_time reached */
    ENG_FINISH_INTERRUPTED, /* stop_flag was set */
};

struct eng_thread_report {
    unsigned n_partitions;  /* partitions owned at the end of the run */
    int cpu;                /* OS CPU it was pinned to, -1 if unpinned */
    uint64_t msgs_sent;     /* cross-partition messages sent */
    uint64_t msgs_overflow; /* of which went to the overflow list */
    uint64_t msgs_xthread;  /* of which went to a partition another thread owned (SPSC ring or overflow) */
    uint64_t barrier_sleeps;
    uint64_t spin_aborts;   /* barrier spins cut short: the awaited thread was not running */
    uint64_t quanta;        /* quanta this thread ran (not parked) */
    uint64_t steals;        /* partition runs it took from another thread's list (NOTE(steal)) */
    uint64_t ahead_runs;    /* partition runs of the next quantum done while waiting at the barrier (NOTE(ahead)) */
    double busy_s;          /* wall seconds running quanta: from the release (or the end of a run ahead that
                             * overran it) to the next arrival */
    double wait_s;          /* wall seconds from arrival to that point (running ahead included):
                             * busy_s + wait_s is the thread's time in the run */
    double ahead_s;         /* of which wall seconds running ahead (NOTE(ahead)) */
    double ahead_wait_s;    /* and of which wall seconds before runs ahead, waiting for the other
                             * threads' memory partitions (NOTE(ahead)) */
    double parked_s;        /* wall seconds parked (owning no partition) */
};

/* Adds run r's counters and seconds to acc (a sum over several runs, e.g.
 * the kernels of a program); the partitions owned and the CPU are r's, the
 * last run's. */
void eng_thread_report_add(struct eng_thread_report *acc, const struct eng_thread_report *r);

/* What the adaptive engine did, since eng_create (all runs). */
struct eng_adapt_report {
    uint64_t quanta;          /* quanta run */
    uint64_t thread_quanta;   /* sum over quanta of the threads that ran them */
    uint64_t repartitions;    /* changes of the active threads or of the mapping */
    uint64_t windows;         /* measurement windows closed */
    uint64_t moves;           /* changes of the active thread count */
    uint64_t desched_windows; /* windows in which runnable engine threads lacked CPU */
    unsigned active_end;      /* active threads at the end of the last run */
};

#define ENG_PROJ_MAX 8 /* thread counts projected from a profile */

/* Sampled partition work, for speed-up projections (bench/speed,
 * docs/engine.md "Profile"), since eng_create. Each sampled quantum times
 * every partition run separately (sync.sample_period). */
struct eng_profile {
    uint64_t quanta;          /* quanta run */
    uint64_t samples;         /* of which sampled */
    double serial_s;          /* wall s in the serial step, all quanta */
    double work_s;            /* sampled quanta: sum of all partitions' run time */
    double max_part_s;        /* sampled quanta: sum of the busiest partition's run time */
    uint64_t msgs;            /* cross-partition messages sent, all quanta */
    uint64_t msgs_xthread;    /* of which crossed threads (0 on one thread; NOTE(msgs-xthread)) */
    unsigned n_proj;          /* entries of the two arrays below */
    unsigned proj_threads[ENG_PROJ_MAX];   /* thread counts (capped by the partitions) */
    double proj_makespan_s[ENG_PROJ_MAX];  /* sampled quanta: sum of the busiest thread's work when the
                                            * partitions are split over proj_threads[i] threads by
                                            * measured work (greedy, longest first) */
};

struct eng_result {
    enum eng_finish finish;
    ps_t end_time;          /* simulated ps at the end of the run */
    uint64_t quanta;        /* quanta executed */
    uint64_t quanta_skipped;/* quanta jumped over because everything was idle */
    unsigned threads;       /* host threads started (the most that ran at once) */
    double wall_s;          /* wall seconds of eng_run */
    struct eng_thread_report *per_thread; /* [threads], valid until the next run or destroy */
    struct eng_adapt_report adapt;        /* cumulative */
    struct eng_profile profile;           /* cumulative */
};

/* Host threads for eng_run_opts.threads = 0: the CPUs this process may use
 * that are idle now (NOTE(auto-threads) in engine_threads.c: the online CPUs
 * minus the other tasks that stay runnable over about 1 ms, else minus the
 * 1-minute load average), at least 1, at most the CPUs of the process's
 * binding and at most a cgroup CPU bandwidth limit (NOTE(auto-quota));
 * eng_threads_map then caps it at the physical cores. */
unsigned eng_auto_threads(void);
/* Its parts, for tests: eng_parse_loadavg reads /proc/loadavg's text
 * ("l1 l5 l15 runnable/total pid"): 0 with *load1 set and *runnable the
 * runnable count (-1 when that field is missing or malformed), -1 when not
 * even the load averages parse. eng_auto_count: the count from the online
 * CPUs, the CPUs the process may use, the least runnable count seen (< 1:
 * unknown, use load1), the 1-minute load and a cgroup CPU quota in CPUs
 * (0: none; rounded down, at least 1). */
int eng_parse_loadavg(const char *text, double *load1, long *runnable);
unsigned eng_auto_count(unsigned online, unsigned allowed, long runnable, double load1, double quota);
/* The CPUs a cgroup CPU bandwidth limit allows (NOTE(auto-quota) in
 * engine_threads.c; eng_auto_threads caps its count at it): from cgroup
 * v2's cpu.max text ("QUOTA PERIOD", or "max PERIOD": none) and from v1's
 * cpu.cfs_quota_us (-1: none) and cpu.cfs_period_us texts; 0 = no limit or
 * malformed. */
double eng_parse_cpu_max(const char *text);
double eng_parse_cfs(const char *quota_text, const char *period_text);

/* Run until the serial hook stops, everything is idle, max_time or stop_flag.
 * Can be called again to continue (threads are created per call; partition
 * init runs on the first call only; the number of threads is fixed by the
 * first call: a later call must ask for the same count, or 0 = auto; the
 * mapping of partitions carries over from where the last call left it).
 * Returns 0, or -1 with a message in *err (bad thread options). */
int eng_run(struct engine *eng, const struct eng_run_opts *o, struct eng_result *res, char *err,
            size_t err_len);

/* Current simulated time (start of the next quantum to run). */
ps_t eng_now(const struct engine *eng);

/* ------------------------------------------------- calls from units */

/* Send a message from unit src (owned by the calling thread) to dst, arriving
 * at now + latency. latency must be >= the declared link's minimum and > 0.
 * Copies the payload; the engine assigns seq. */
void eng_send(struct eng_ctx *ctx, uint32_t src, uint32_t dst, ps_t now, ps_t latency, uint32_t type,
              const void *payload, uint32_t len);

/* eng_send with the payload in two pieces (len0 bytes at p0, then len1 at
 * p1; p1 may be NULL when len1 is 0), stored back to back: the message is
 * the same as eng_send of the concatenation, without the sender's packing
 * copy (interconnect flits: flit header + tail payload). */
void eng_send2(struct eng_ctx *ctx, uint32_t src, uint32_t dst, ps_t now, ps_t latency, uint32_t type,
               const void *p0, uint32_t len0, const void *p1, uint32_t len1);

/* Attach a unit's state (called from the partition init). */
void eng_unit_bind(struct eng_ctx *ctx, uint32_t unit, void *self);
void *eng_unit_self(const struct engine *eng, uint32_t unit);
/* Allocate from the calling thread's arena, zeroed, cache-line aligned.
 * The block lives until eng_destroy, wherever its partition runs later (the
 * adaptive engine moves partitions between threads; the model calls this
 * from partition inits only). */
void *eng_alloc(struct eng_ctx *ctx, size_t bytes);
int eng_ctx_thread(const struct eng_ctx *ctx);

/* From the serial hook only: make unit u run at the first edge >= t. */
void eng_wake_serial(struct engine *eng, uint32_t unit, ps_t t);
/* From the serial hook only: run the next quantum and this hook after it,
 * even if no unit has anything due (the run does not end idle). */
void eng_serial_again(struct engine *eng);

#endif /* GPUSIM_SYNC_ENGINE_H */
