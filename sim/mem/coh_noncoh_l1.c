/* sim/mem/coh_noncoh_l1.c: the non-coherent L1D as (state x event) tables,
 * the first protocol of the coherence layer (docs/coherence.md). Two
 * protocols share every row but the global store's: noncoh_l1_we (global
 * write-evict, no write-allocate) and noncoh_l1_wt (global write-through
 * with write-allocate). Local memory is write-back in both. The L1D
 * (sim/sm/lsu/l1d.c) binds the actions and picks the protocol from
 * l1d.write_policy; it checks resources before each step, so a reservation
 * fail changes nothing.
 *
 * This describes the model of docs/l1.md exactly: no statistic changed when
 * the L1D moved onto the table (docs/coherence.md has the check).
 */
#include "sim/mem/coh.h"

static const struct coh_name l1_states[COH_L1_N_STATES] = {
    [COH_L1_I] = {"I", "not present: no way and no open MSHR entry"},
    [COH_L1_R] = {"R", "fill outstanding: an open MSHR entry (with allocate-on-miss also a RESERVED way)"},
    [COH_L1_V] = {"V", "present and clean"},
    [COH_L1_M] = {"M", "present and dirty: local-memory data written by this SM, not yet in L2"},
};

static const struct coh_name l1_events[COH_L1_N_EVENTS] = {
    [COH_L1_LOAD] = {"Load", "cached load (a .cg/.cv/volatile load bypasses the L1 and is no event)"},
    [COH_L1_STORE] = {"Store", "global store"},
    [COH_L1_LOCAL_STORE] = {"LocalStore", "local-memory store (write-back)"},
    [COH_L1_ATOMIC] = {"Atomic", "atomic; always performed at L2"},
    [COH_L1_FILL] = {"Fill", "read reply for an open MSHR entry"},
    [COH_L1_STALE_FILL] = {"StaleFill", "read reply for an MSHR entry a store, atomic or acquire marked stale"},
    [COH_L1_REPLACE] = {"Replace", "the way is the victim of a new line (the install that follows overwrites it)"},
    [COH_L1_INV_CLEAN] = {"InvClean", "gpu-scope acquire or fence: drop clean data (docs/memmodel.md)"},
    [COH_L1_INV_ALL] = {"InvAll", "kernel launch: every line dropped by one bulk invalidation after the per-line steps"},
    [COH_L1_FLUSH] = {"Flush", "kernel end: dirty lines written back, one per cycle"},
};

static const struct coh_name l1_actions[COH_L1A_N_ACTIONS] = {
    [COH_L1A_END] = {"end", "end of a row's action list"},
    [COH_L1A_TOUCH] = {"touch", "a use of the line for the replacement policy"},
    [COH_L1A_HIT_DONE] = {"hit_done", "queue the completion at t + l1d.hit_latency (a load gets the line's bytes)"},
    [COH_L1A_OPEN_MSHR] = {"open_mshr", "open an MSHR entry (victim-tag probe) and queue the read of the line to L2"},
    [COH_L1A_RESERVE_WAY] = {"reserve_way",
                             "allocate-on-miss: run Replace on the victim way, install the line RESERVED there; "
                             "allocate-on-fill: nothing (the open MSHR entry is the R state)"},
    [COH_L1A_ADD_REQUEST] = {"add_request", "add the load to the line's MSHR entry"},
    [COH_L1A_SEND_WRITE] = {"send_write", "queue the write (bytes under the mask) to L2"},
    [COH_L1A_SEND_ATOMIC] = {"send_atomic", "queue the atomic to L2"},
    [COH_L1A_WRITE_DATA] = {"write_data", "write the store's bytes into the line"},
    [COH_L1A_EVICT] = {"evict", "drop the line (write-evict by a global store or an atomic; counts evictions)"},
    [COH_L1A_WRITEBACK] = {"writeback", "queue a write-back of the whole line to L2"},
    [COH_L1A_MARK_STALE] = {"mark_stale", "mark the line's open MSHR entry stale: its fill answers the loads "
                                          "merged so far but is not installed"},
    [COH_L1A_FILL_LINE] = {"fill_line", "install the fill's bytes (allocate-on-miss: into the RESERVED way; "
                                        "allocate-on-fill: Replace on a victim way, install the line there)"},
    [COH_L1A_COMPLETE] = {"complete", "complete every load merged in the MSHR entry with the fill's bytes"},
    [COH_L1A_RELEASE_MSHR] = {"release_mshr", "free the MSHR entry"},
    [COH_L1A_DROP_RESERVED] = {"drop_reserved", "free the RESERVED way, if any (counts stale fills)"},
    [COH_L1A_DROP_CLEAN] = {"drop_clean", "drop the clean line (counts inval_lines)"},
};

#define A(x) COH_L1A_##x
#define S(x) COH_L1_##x

/* Rows common to both write policies (everything but the global store). */
#define L1_LOAD_ROWS                                                                                    \
    {S(I), S(LOAD), {A(OPEN_MSHR), A(RESERVE_WAY), A(ADD_REQUEST)}, S(R)},                            \
    {S(R), S(LOAD), {A(ADD_REQUEST)}, S(R)},                                                           \
    {S(V), S(LOAD), {A(TOUCH), A(HIT_DONE)}, S(V)},                                                    \
    {S(M), S(LOAD), {A(TOUCH), A(HIT_DONE)}, S(M)}

#define L1_COMMON_ROWS                                                                                  \
    {S(I), S(LOCAL_STORE), {A(SEND_WRITE)}, S(I)},                                                     \
    {S(R), S(LOCAL_STORE), {A(MARK_STALE), A(SEND_WRITE)}, S(R)},                                      \
    {S(V), S(LOCAL_STORE), {A(WRITE_DATA), A(TOUCH), A(HIT_DONE)}, S(M)},                              \
    {S(M), S(LOCAL_STORE), {A(WRITE_DATA), A(TOUCH), A(HIT_DONE)}, S(M)},                              \
    {S(I), S(ATOMIC), {A(SEND_ATOMIC)}, S(I)},                                                         \
    {S(R), S(ATOMIC), {A(MARK_STALE), A(SEND_ATOMIC)}, S(R)},                                          \
    {S(V), S(ATOMIC), {A(EVICT), A(SEND_ATOMIC)}, S(I)},                                               \
    {S(M), S(ATOMIC), {A(WRITEBACK), A(EVICT), A(SEND_ATOMIC)}, S(I)},                                 \
    {S(R), S(FILL), {A(FILL_LINE), A(COMPLETE), A(RELEASE_MSHR)}, S(V)},                               \
    {S(R), S(STALE_FILL), {A(DROP_RESERVED), A(COMPLETE), A(RELEASE_MSHR)}, S(I)},                     \
    {S(I), S(REPLACE), {0}, S(I)},                                                                     \
    {S(V), S(REPLACE), {0}, S(I)},                                                                     \
    {S(M), S(REPLACE), {A(WRITEBACK)}, S(I)},                                                          \
    {S(R), S(INV_CLEAN), {A(MARK_STALE)}, S(R)},                                                       \
    {S(V), S(INV_CLEAN), {A(DROP_CLEAN)}, S(I)},                                                       \
    {S(M), S(INV_CLEAN), {0}, S(M)},                                                                   \
    {S(I), S(INV_ALL), {0}, S(I)},                                                                     \
    {S(V), S(INV_ALL), {0}, S(I)},                                                                     \
    {S(M), S(FLUSH), {A(WRITEBACK)}, S(V)}

static const struct coh_row l1_we_rows[] = {
    L1_LOAD_ROWS,
    {S(I), S(STORE), {A(SEND_WRITE)}, S(I)},
    {S(R), S(STORE), {A(MARK_STALE), A(SEND_WRITE)}, S(R)},
    {S(V), S(STORE), {A(EVICT), A(SEND_WRITE)}, S(I)},
    {S(M), S(STORE), {A(WRITEBACK), A(EVICT), A(SEND_WRITE)}, S(I)},
    L1_COMMON_ROWS,
};

static const struct coh_row l1_wt_rows[] = {
    L1_LOAD_ROWS,
    {S(I), S(STORE), {A(SEND_WRITE), A(OPEN_MSHR), A(RESERVE_WAY)}, S(R)},
    {S(R), S(STORE), {A(MARK_STALE), A(SEND_WRITE)}, S(R)},
    {S(V), S(STORE), {A(WRITE_DATA), A(TOUCH), A(SEND_WRITE)}, S(V)},
    {S(M), S(STORE), {A(WRITE_DATA), A(TOUCH), A(SEND_WRITE)}, S(M)},
    L1_COMMON_ROWS,
};

#undef L1_LOAD_ROWS
#undef L1_COMMON_ROWS
#undef A
#undef S

const struct coh_proto coh_noncoh_l1_we = {
    .name = "noncoh_l1_we",
    .doc = "Non-coherent L1D, `l1d.write_policy = global_we_local_wb` (also used with `l1d.enable = false`, "
           "where no line is ever installed): a global store evicts the line and goes to L2 without allocating; "
           "local stores are write-back. Another SM's store is seen only once the line has left this L1.",
    .n_states = COH_L1_N_STATES,
    .n_events = COH_L1_N_EVENTS,
    .n_actions = COH_L1A_N_ACTIONS,
    .n_rows = sizeof l1_we_rows / sizeof l1_we_rows[0],
    .states = l1_states,
    .events = l1_events,
    .actions = l1_actions,
    .rows = l1_we_rows,
};

const struct coh_proto coh_noncoh_l1_wt = {
    .name = "noncoh_l1_wt",
    .doc = "Non-coherent L1D, `l1d.write_policy = global_wt_alloc_local_wb`: a global store hit updates the line "
           "and writes through; a global store miss writes through and allocates the line with a read "
           "(the fill only installs it). Every other row is the same as `noncoh_l1_we`.",
    .n_states = COH_L1_N_STATES,
    .n_events = COH_L1_N_EVENTS,
    .n_actions = COH_L1A_N_ACTIONS,
    .n_rows = sizeof l1_wt_rows / sizeof l1_wt_rows[0],
    .states = l1_states,
    .events = l1_events,
    .actions = l1_actions,
    .rows = l1_wt_rows,
};
