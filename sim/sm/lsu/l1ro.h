/* sim/sm/lsu/l1ro.h: a read-only L1 cache of one SM, used as the constant cache
 * (l1c: 8 KB, 2-way, 64 B lines) and as the instruction cache (l1i: 2 KB,
 * 4-way, 128 B lines); cycle-driven in the core clock domain (spec
 * baseline-gpu.md 1.2 "Fetch / I-cache" and "Constant cache", 2.2, 2.6;
 * docs/l1.md).
 *
 * What is modelled: set-associative tags with a linear set index
 * ((addr / line) mod sets) and a replacement policy (<sec>.repl, true LRU
 * by default), optional victim tags, real bytes per line (constant data;
 * instruction lines carry whatever the backing store holds, the front end
 * supplies the decoded instructions), allocate on fill (no line is reserved
 * while a miss is outstanding, so a set never blocks), MSHR entries with a
 * merge limit, a FIFO miss queue (a new miss needs 1 free slot: a read-only
 * cache has no write-backs), one access per cycle, hit latency, one fill per
 * cycle, invalidate-all at kernel launch, reservation fails by cause.
 * What is not modelled: writes of any kind (the caches are read-only),
 * prefetching, the texture cache's FIFO fill, the per-line serialisation of
 * a warp's constant accesses (the LD/ST unit presents one line per cycle),
 * and the I-buffer / fetch policy (the SM front end).
 *
 * Requests: MEM_OP_READ of `line` bytes at the line address, id = MSHR entry.
 * The reply carries the whole 128 B L2 line at line offsets; the cache keeps
 * the `line` bytes at offset (addr mod 128).
 *
 * Calling convention and timing as for l1d.h: per core cycle t, first
 * l1ro_tick(c, t), then l1ro_access (at most one), l1ro_pop_req,
 * l1ro_push_reply, l1ro_pop_done. Hit at t -> completion at t + hit_latency;
 * miss at t -> request poppable at t + 1; reply pushed at r -> completions of
 * every merged access poppable at r + 1.
 * NOTE(l1ro-rx): each MSHR entry has exactly one request outstanding, so a
 * reply FIFO of `mshr` entries can never overflow; l1ro_push_reply still
 * returns false instead of dropping.
 */
#ifndef GPUSIM_SIM_SM_LSU_L1RO_H
#define GPUSIM_SIM_SM_LSU_L1RO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/base/common.h"
#include "sim/mem/memreq.h"
#include "sim/mem/mshr.h"
#include "sim/mem/reqq.h"
#include "sim/mem/ring.h"
#include "sim/mem/tagarray.h"
#include "sim/base/stats.h"

struct cfg_key;
struct cfg_section;

/* Configuration of one read-only cache (sections l1c and l1i). */
struct l1ro_cfg {
    uint64_t size;        /* <sec>.size (bytes) */
    uint64_t assoc;       /* <sec>.assoc (ways) */
    uint64_t line;        /* <sec>.line (bytes; 32, 64 or 128) */
    uint64_t mshr;        /* <sec>.mshr (entries) */
    uint64_t mshr_merge;  /* <sec>.mshr_merge (requests per entry, the first miss included) */
    uint64_t miss_queue;  /* <sec>.miss_queue (entries) */
    uint64_t hit_latency; /* <sec>.hit_latency (core cycles) */
    int repl;             /* <sec>.repl: enum ta_repl_kind (replacement policy) */
    uint64_t victim_tags; /* <sec>.victim_tags (entries; 0 = off) */
    uint64_t victim_tags_assoc; /* <sec>.victim_tags_assoc (ways per victim-tag set; 0 = fully associative) */
    int launch_invalidate;      /* l1i only: enum l1i_launch_inval (l1i.launch_invalidate); unused by l1c */
};

/* When a kernel launch empties the instruction cache (l1i.launch_invalidate;
 * NOTE(l1i-launch) in sim/sm/sm.c). */
enum l1i_launch_inval {
    L1I_INVAL_NEW_CODE, /* only when the launch runs another module's code (the code segment was rewritten) */
    L1I_INVAL_ALWAYS,   /* at every launch */
    L1I_INVAL_COUNT
};

extern const struct cfg_section l1c_cfg_section;
extern const struct cfg_section l1i_cfg_section;
extern const struct cfg_key *const l1c_cfg_keys;
extern const unsigned l1c_cfg_n_keys;
extern const struct cfg_key *const l1i_cfg_keys;
extern const unsigned l1i_cfg_n_keys;

/* Built-in defaults (gtx480): constant cache and instruction cache. */
void l1c_cfg_defaults(struct l1ro_cfg *c);
void l1i_cfg_defaults(struct l1ro_cfg *c);
/* Cross-field rules: NULL when valid, else what is wrong; *key is the key
 * name inside the section ("size", "line"). */
const char *l1ro_cfg_invalid(const struct l1ro_cfg *c, const char **key);

enum l1ro_result { L1RO_HIT, L1RO_MISS, L1RO_MERGED, L1RO_FAIL };

enum l1ro_rf_cause {
    L1RO_RF_MSHR_FULL,   /* no free MSHR entry */
    L1RO_RF_MERGE_LIMIT, /* the line's entry holds mshr_merge requests */
    L1RO_RF_MISS_QUEUE,  /* miss queue full */
    L1RO_RF_DONE_FULL,   /* hit completion queue full */
    L1RO_RF_PORT,        /* a second access in the same cycle */
    L1RO_RF_COUNT
};

struct l1ro_done {
    uint64_t line_addr;           /* address of the cache line (multiple of line) */
    uint32_t token;               /* the access's token */
    uint32_t latency;             /* core cycles from access to completion */
    uint8_t hit;                  /* 1 = served at access, 0 = by a fill */
    uint8_t pad_[7];
    uint8_t data[MEM_LINE_BYTES]; /* the line's bytes (first `line` bytes valid) */
};

struct l1ro_stats {
    uint64_t accesses;            /* accesses accepted */
    uint64_t hits;                /* served from a valid line */
    uint64_t misses;              /* opened an MSHR entry */
    uint64_t mshr_merges;         /* merged into an open entry (MSHR hits) */
    uint64_t rf[L1RO_RF_COUNT];   /* reservation fails by cause, per attempt */
    uint64_t fills;               /* lines installed */
    uint64_t req_sent;            /* requests popped toward L2 */
    uint64_t stall_resp;          /* cycles a fill waited for completion room */
    struct stat_avg miss_lat;     /* core cycles from access to completion, misses and merges */
};

struct l1ro_q {
    struct l1ro_done d; /* completion */
    uint64_t ready;     /* first cycle it may be popped */
};

struct l1ro_rx {
    uint64_t line_addr;           /* cache line filled */
    uint32_t entry;               /* MSHR entry (the reply id) */
    uint32_t pad_;
    uint64_t ready;               /* first cycle l1ro_tick may process it */
    uint8_t data[MEM_LINE_BYTES]; /* the cache line's bytes */
};

struct l1ro_pend {
    uint32_t token; /* caller's token */
    uint32_t pad_;
    uint64_t t_acc; /* cycle of the access */
};

struct l1ro {
    const char *name;       /* statistics group ("l1c", "l1i"); a string literal */
    int sm_id;              /* SM id: request src and statistics instance */
    uint32_t n_sets;        /* sets */
    uint32_t line;          /* bytes per line */
    uint32_t hit_lat;       /* core cycles */
    bool cache_stats;       /* repl or victim tags not default: register the tag array's statistics */
    bool token_is_warp;     /* "l1i": callers pass the warp slot as the token (fetch.c); requests carry it */
    bool no_data;           /* no line bytes kept or returned (l1ro_no_data, NOTE(l1ro-no-data) in l1ro.c) */
    uint8_t space;          /* enum mem_space of its requests: MEM_SPACE_INST for "l1i", else MEM_SPACE_CONST */
    struct tagarray tags;   /* tags, replacement state, states (never RESERVED: allocate on fill) */
    uint8_t *data;          /* [n_lines * line] bytes */
    struct mshr mshr;       /* outstanding misses; slots are struct l1ro_pend */
    struct reqq mq;         /* miss queue */
    struct l1ro_rx *rx;     /* replies waiting to fill, capacity = MSHR entries */
    struct idx_ring rx_r;
    struct l1ro_q *hq;      /* hit completions */
    struct idx_ring hq_r;
    struct l1ro_q *fq;      /* fill completions */
    struct idx_ring fq_r;
    uint64_t last_acc;      /* cycle + 1 of the last access (0 = none) */
    struct l1ro_stats st;
};

/* name: statistics group, e.g. "l1c" or "l1i" (must outlive the cache). */
void l1ro_init(struct l1ro *c, const struct l1ro_cfg *cfg, const char *name, int sm_id);
void l1ro_fini(struct l1ro *c);

/* Access the line holding byte address `addr` at `cycle`. For "l1i" the
 * token is the warp slot and the miss request carries it as its warp; for
 * other caches the request's warp is MEM_WARP_NONE (use l1ro_access_id). */
enum l1ro_result l1ro_access(struct l1ro *c, uint64_t addr, uint32_t token, cycle_t cycle,
                             enum l1ro_rf_cause *cause);
/* As l1ro_access, naming the requesting warp and CTA: a miss request
 * carries them (requester identity, docs/messages.md). */
enum l1ro_result l1ro_access_id(struct l1ro *c, uint64_t addr, uint32_t token, uint16_t warp, uint32_t cta,
                                cycle_t cycle, enum l1ro_rf_cause *cause);
/* NOTE(idle-inline) (sim/icnt/icnt.h): the peek, and the tick and the
 * completion pop of a cache with nothing in flight, are answered here
 * without a call; the SM asks them every pipeline cycle for both read-only
 * caches. */
static inline const struct mem_req *l1ro_peek_req(const struct l1ro *c, cycle_t cycle)
{
    return reqq_peek(&c->mq, cycle);
}
bool l1ro_pop_req(struct l1ro *c, struct mem_req *out, cycle_t cycle);
bool l1ro_push_reply(struct l1ro *c, const struct mem_reply *rep, cycle_t cycle);
bool l1ro_pop_done_work(struct l1ro *c, struct l1ro_done *out, cycle_t cycle);
static inline bool l1ro_pop_done(struct l1ro *c, struct l1ro_done *out, cycle_t cycle)
{
    if (c->hq_r.n == 0 && c->fq_r.n == 0)
        return false;
    return l1ro_pop_done_work(c, out, cycle);
}
uint64_t l1ro_tick_work(struct l1ro *c, cycle_t cycle);
static inline uint64_t l1ro_tick(struct l1ro *c, cycle_t cycle)
{
    if (c->rx_r.n == 0 && c->fq_r.n == 0 && c->hq_r.n == 0 && reqq_empty(&c->mq))
        return CYCLE_NEVER; /* what l1ro_tick_work answers then */
    return l1ro_tick_work(c, cycle);
}

/* Kernel launch: invalidate every line (the cache must be idle). */
void l1ro_invalidate_all(struct l1ro *c);
/* The owner never reads line bytes: completions and lines keep none from
 * now on (NOTE(l1ro-no-data) in l1ro.c; the SM's instruction cache). */
void l1ro_no_data(struct l1ro *c);
bool l1ro_idle(const struct l1ro *c);
/* TA_VALID or TA_INVALID for the line holding addr; copies its bytes when present. */
enum ta_state l1ro_probe_line(const struct l1ro *c, uint64_t addr, uint8_t out[MEM_LINE_BYTES]);

void l1ro_stats_register(struct l1ro *c, struct stats *s);
void l1ro_stats_dump(const struct l1ro *c, FILE *out);

#endif /* GPUSIM_SIM_SM_LSU_L1RO_H */
