/* sim/mem/coh_tc_l1.c: the Temporal Coherence L1D as a (state x event)
 * table (spec coherence-gtsc.md 3.3; docs/coherence.md "TC").
 *
 * A copy carries the physical time its lease expires; a load hits only
 * before then, and a load that finds the copy expired drops it
 * (self-invalidation) and misses. Global stores write through without
 * allocating and drop the writer's own copy (the spec's proposal: 001 does
 * not say). The L2 holds a line's stores back (TC-Strong) or acknowledges
 * them with the time the last lease on the line expires (TC-Weak, whose
 * fences wait for it); neither needs an L1 row. Local memory is write-back
 * and private. The L1D (sim/sm/lsu/l1d_tc.c) refuses a store, local store or
 * atomic to a line with a read outstanding until the fill, so the fill can
 * never install data older than the SM's own store.
 */
#include "sim/mem/coh.h"

static const struct coh_name t1_states[COH_T1_N_STATES] = {
    [COH_T1_I] = {"I", "not present, no MSHR entry"},
    [COH_T1_IP] = {"IP", "not present, its read outstanding (an open MSHR entry)"},
    [COH_T1_V] = {"V", "present with an expiry time (readable until then)"},
    [COH_T1_M] = {"M", "present, dirty local-memory data (private: no lease)"},
};

static const struct coh_name t1_events[COH_T1_N_EVENTS] = {
    [COH_T1_LOAD] = {"Load", "cached load of an absent line"},
    [COH_T1_LOAD_HIT] = {"LoadHit", "cached load before the copy expires, or a local load of a present line"},
    [COH_T1_EXPIRE] = {"Expire", "a load finds the copy expired: it is dropped, the load then misses"},
    [COH_T1_STORE] = {"Store", "global store: write-through, no allocation"},
    [COH_T1_LOCAL_STORE] = {"LocalStore", "local-memory store (write-back)"},
    [COH_T1_ATOMIC] = {"Atomic", "atomic, performed at L2"},
    [COH_T1_FILL] = {"Fill", "data and expiry time for the open read"},
    [COH_T1_REPLACE] = {"Replace", "the way is the victim of a new line"},
    [COH_T1_INV_ALL] = {"InvAll", "kernel launch: every line dropped"},
    [COH_T1_FLUSH] = {"Flush", "kernel end: dirty local lines written back"},
};

static const struct coh_name t1_actions[COH_T1A_N_ACTIONS] = {
    [COH_T1A_END] = {"end", "end of a row's action list"},
    [COH_T1A_TOUCH] = {"touch", "a use of the line for the replacement policy"},
    [COH_T1A_HIT_DONE] = {"hit_done", "queue the completion at t + l1d.hit_latency"},
    [COH_T1A_OPEN_READ] = {"open_read", "open an MSHR entry and queue the read of the line"},
    [COH_T1A_ADD_WAITER] = {"add_waiter", "add the load to the line's MSHR entry"},
    [COH_T1A_WRITE_DATA] = {"write_data", "write the store's bytes into the line"},
    [COH_T1A_SEND_WRITE] = {"send_write", "queue the write (bytes under the mask)"},
    [COH_T1A_SEND_ATOMIC] = {"send_atomic", "queue the atomic"},
    [COH_T1A_EVICT] = {"evict", "drop the line"},
    [COH_T1A_WRITEBACK] = {"writeback", "queue a write-back of the dirty local line"},
    [COH_T1A_FILL_LINE] = {"fill_line", "Replace a victim way, install the line with its expiry time"},
    [COH_T1A_COMPLETE] = {"complete", "complete every load of the entry with the fill's bytes"},
    [COH_T1A_RELEASE_MSHR] = {"release_mshr", "free the MSHR entry"},
};

#define A(x) COH_T1A_##x
#define S(x) COH_T1_##x

static const struct coh_row t1_rows[] = {
    {S(I), S(LOAD), {A(OPEN_READ), A(ADD_WAITER)}, S(IP)},
    {S(IP), S(LOAD), {A(ADD_WAITER)}, S(IP)},
    {S(V), S(LOAD_HIT), {A(TOUCH), A(HIT_DONE)}, S(V)},
    {S(M), S(LOAD_HIT), {A(TOUCH), A(HIT_DONE)}, S(M)},
    {S(V), S(EXPIRE), {A(EVICT)}, S(I)},
    {S(I), S(STORE), {A(SEND_WRITE)}, S(I)},
    {S(V), S(STORE), {A(EVICT), A(SEND_WRITE)}, S(I)},
    {S(I), S(LOCAL_STORE), {A(SEND_WRITE)}, S(I)},
    {S(V), S(LOCAL_STORE), {A(WRITE_DATA), A(TOUCH), A(HIT_DONE)}, S(M)},
    {S(M), S(LOCAL_STORE), {A(WRITE_DATA), A(TOUCH), A(HIT_DONE)}, S(M)},
    {S(I), S(ATOMIC), {A(SEND_ATOMIC)}, S(I)},
    {S(V), S(ATOMIC), {A(EVICT), A(SEND_ATOMIC)}, S(I)},
    {S(M), S(ATOMIC), {A(WRITEBACK), A(EVICT), A(SEND_ATOMIC)}, S(I)},
    {S(IP), S(FILL), {A(FILL_LINE), A(COMPLETE), A(RELEASE_MSHR)}, S(V)},
    {S(I), S(REPLACE), {0}, S(I)},
    {S(V), S(REPLACE), {0}, S(I)},
    {S(M), S(REPLACE), {A(WRITEBACK)}, S(I)},
    {S(I), S(INV_ALL), {0}, S(I)},
    {S(V), S(INV_ALL), {0}, S(I)},
    {S(M), S(FLUSH), {A(WRITEBACK)}, S(V)},
};

#undef A
#undef S

const struct coh_proto coh_tc_l1 = {
    .name = "tc_l1",
    .doc = "Temporal Coherence L1D (`coh.protocol = tc`, spec coherence-gtsc.md 3.3): a copy is readable until its "
           "lease expires in physical time; a load that finds it expired drops it and misses (self-invalidation). "
           "Stores write through without allocating and drop the writer's copy; the L2 delays them (TC-Strong) or "
           "acknowledges them with the time the line's last lease expires, which fences wait for (TC-Weak). Local "
           "memory is write-back and needs no lease.",
    .n_states = COH_T1_N_STATES,
    .n_events = COH_T1_N_EVENTS,
    .n_actions = COH_T1A_N_ACTIONS,
    .n_rows = sizeof t1_rows / sizeof t1_rows[0],
    .states = t1_states,
    .events = t1_events,
    .actions = t1_actions,
    .rows = t1_rows,
};
