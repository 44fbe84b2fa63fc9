/* sim/sm/lsu/l1d_internal.h: helpers the L1D's files share (l1d.c, the
 * non-coherent paths; l1d_gtsc.c, the G-TSC paths). Not for other units:
 * they use l1d.h. */
#ifndef GPUSIM_SIM_SM_LSU_L1D_INTERNAL_H
#define GPUSIM_SIM_SM_LSU_L1D_INTERNAL_H

#include <string.h>

#include "sim/sm/lsu/l1d.h"

/* The context of one protocol step (the non-coherent and TC tables; G-TSC
 * extends it with the warp's timestamp in l1d_gtsc.c). */
struct l1d_step {
    struct l1d *l;
    const struct l1d_acc *a;     /* the access (Load, Store, LocalStore, Atomic), else NULL */
    const struct mem_reply *rep; /* the reply (Fill, StaleFill), else NULL */
    uint64_t line;               /* line address */
    cycle_t cycle;               /* core cycle */
    int32_t li;                  /* the line's way, -1 = none */
    int32_t e;                   /* its MSHR entry, -1 = none */
    int32_t victim;              /* way a new line goes to (reserve_way on_miss, fill_line on_fill), -1 = none */
};

/* Protocol actions shared by the L1D's tables (ctx is a struct l1d_step). */
void l1d_act_touch(void *ctx);        /* a use for the replacement policy */
void l1d_act_write_data(void *ctx);   /* the store's bytes into the line */
void l1d_act_send_write(void *ctx);   /* queue the access's write */
void l1d_act_send_atomic(void *ctx);  /* queue the access's atomic */
void l1d_act_writeback(void *ctx);    /* queue the dirty line's write-back */
void l1d_act_complete(void *ctx);     /* complete the entry's loads with the reply's bytes */
void l1d_act_release_mshr(void *ctx); /* free the MSHR entry */

/* Bytes of line index li. */
static inline uint8_t *l1d_line_data(struct l1d *l, uint32_t li) { return l->data + (uint64_t)li * l->line; }

/* Copy src's bytes under mask into dst (line offsets). */
static inline void l1d_write_bytes(uint8_t *dst, const uint8_t *src, const uint64_t mask[2])
{
    mem_mask_copy(dst, src, mask, MEM_LINE_BYTES);
}

/* Per-line metadata when the event hook is on: the inserting warp. */
static inline void l1d_set_inserter(struct l1d *l, uint32_t li, uint16_t warp)
{
    if (l->ev_fn)
        memcpy(ta_meta(&l->tags, li), &warp, sizeof warp);
}

/* Queue a request toward L2 (poppable at cycle + 1), stamped with the
 * requester identity of the access in progress; the caller checked room. */
struct mem_req *l1d_mq_push(struct l1d *l, uint8_t op, uint64_t addr, uint32_t id, uint8_t size, cycle_t cycle);
/* Queue a hit completion ready at cycle + hit latency (data NULL: none). */
void l1d_push_hit_done(struct l1d *l, uint64_t line_addr, uint32_t token, uint8_t kind, const uint8_t *data,
                       cycle_t cycle);
/* Queue a reply completion ready at cycle; the caller fills its data. */
struct l1d_done *l1d_push_fill_done(struct l1d *l, uint64_t line_addr, uint32_t token, uint8_t kind, uint8_t src,
                                    uint64_t t_acc, cycle_t cycle);
/* Queue the write-back of MODIFIED line li (the caller checked room). */
void l1d_writeback_line(struct l1d *l, uint32_t li, cycle_t cycle);
/* Queue the access's write (bytes under its mask) or atomic toward L2; the
 * caller checked room and fills any protocol fields of the request. */
struct mem_req *l1d_queue_write(struct l1d *l, const struct l1d_acc *a, cycle_t cycle);
struct mem_req *l1d_queue_atomic(struct l1d *l, const struct l1d_acc *a, cycle_t cycle);
/* Open an MSHR entry for line (the caller checked room; no request queued):
 * no way, not stale, stamped with the access in progress; probe = count a
 * victim-tag probe (an allocating miss). */
int32_t l1d_open_entry(struct l1d *l, uint64_t line, bool probe, cycle_t cycle);
/* Complete every load of MSHR entry e with the line's bytes `data`. */
void l1d_complete_entry(struct l1d *l, uint32_t e, uint64_t line, const uint8_t *data, cycle_t cycle);
/* Hand a store ack, atomic or bypassing read to the LD/ST unit as a
 * completion (the caller checked completion-queue room). */
void l1d_pass_through(struct l1d *l, const struct mem_reply *rep, cycle_t cycle);
/* Coherence on: classify a read miss of an absent line as cold or evicted. */
static inline void l1d_miss_class(struct l1d *l, uint64_t line)
{
    if (lastacc_swap(l->seen, line, 1) == LASTACC_NONE)
        l->st.miss_cold++;
    else
        l->st.miss_evicted++;
}
/* Count a reservation fail of cause c and return L1D_FAIL. */
enum l1d_result l1d_fail(struct l1d *l, enum l1d_rf_cause c, enum l1d_rf_cause *out);

/* ---- G-TSC (l1d_gtsc.c) */
void l1d_gtsc_init(struct l1d *l, const struct l1d_cfg *cfg);
void l1d_gtsc_fini(struct l1d *l);
enum l1d_result l1d_gtsc_access(struct l1d *l, const struct l1d_acc *a, cycle_t cycle, enum l1d_rf_cause *cause);
/* Process the head reply; false when it must wait (nothing changed). */
bool l1d_gtsc_reply(struct l1d *l, const struct mem_reply *rep, cycle_t cycle);
/* Kernel-end flush step of dirty local line li. */
void l1d_gtsc_flush_line(struct l1d *l, uint32_t li, cycle_t cycle);
/* Kernel launch: per-line InvAll steps, every warp_ts back to 1. */
void l1d_gtsc_invalidate_all(struct l1d *l);
void l1d_gtsc_stats_register(struct l1d *l, struct stats *s);

/* ---- TC (l1d_tc.c) */
void l1d_tc_init(struct l1d *l, const struct l1d_cfg *cfg);
void l1d_tc_fini(struct l1d *l);
enum l1d_result l1d_tc_access(struct l1d *l, const struct l1d_acc *a, cycle_t cycle, enum l1d_rf_cause *cause);
bool l1d_tc_reply(struct l1d *l, const struct mem_reply *rep, cycle_t cycle);
void l1d_tc_flush_line(struct l1d *l, uint32_t li, cycle_t cycle);
void l1d_tc_invalidate_all(struct l1d *l);
void l1d_tc_stats_register(struct l1d *l, struct stats *s);

#endif /* GPUSIM_SIM_SM_LSU_L1D_INTERNAL_H */
