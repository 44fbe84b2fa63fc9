/* sim/mem/coh_noncoh_l2.c: the non-coherent L2 slice as (state x event)
 * tables (docs/coherence.md, docs/l2.md). Three protocols share every row but
 * the writes to a missing or reserved line: noncoh_l2_fetch (allocate, fetch the line, merge the
 * write at fill), noncoh_l2_byte_mask (allocate without fetching, with a
 * per-byte valid mask) and noncoh_l2_fetch_write (GPGPU-Sim 3.x: forward the
 * write to DRAM and fetch the line). The L2 (partitions/l2/l2.c) binds the
 * actions and checks its resources before each step. */
#include "sim/mem/coh.h"

static const struct coh_name l2_states[COH_L2_N_STATES] = {
    [COH_L2_I] = {"I", "not present"},
    [COH_L2_R] = {"R", "RESERVED: a DRAM read outstanding, requests queue in its MSHR entry"},
    [COH_L2_V] = {"V", "present, same as DRAM"},
    [COH_L2_M] = {"M", "present, dirty (with byte_mask possibly partial: a per-byte valid mask)"},
};

static const struct coh_name l2_events[COH_L2_N_EVENTS] = {
    [COH_L2_READ] = {"Read", "read request (an L1 miss or a bypassing read)"},
    [COH_L2_WRITE] = {"Write", "write request (bytes under a mask)"},
    [COH_L2_ATOMIC] = {"Atomic", "atomic request, performed here"},
    [COH_L2_WRITEBACK] = {"Writeback", "an L1's write-back of a dirty local line (no reply)"},
    [COH_L2_PARTIAL] = {"Partial", "a read or atomic needing bytes a partial line lacks (byte_mask)"},
    [COH_L2_FILL] = {"Fill", "DRAM fill; nothing was written while the line was reserved"},
    [COH_L2_FILL_DIRTY] = {"FillDirty", "DRAM fill of a line holding written bytes or with writes or atomics queued"},
    [COH_L2_REPLACE] = {"Replace", "the way is the victim of a new line (the install that follows overwrites it)"},
};

static const struct coh_name l2_actions[COH_L2A_N_ACTIONS] = {
    [COH_L2A_END] = {"end", "end of a row's action list"},
    [COH_L2A_HIT] = {"hit", "apply the request to the line; its reply leaves after the data-port cycles"},
    [COH_L2A_ADD_REQUEST] = {"add_request", "queue the request in the line's MSHR entry"},
    [COH_L2A_OPEN_MISS] = {"open_miss", "open an MSHR entry (victim-tag probe), queue the DRAM read"},
    [COH_L2A_RESERVE] = {"reserve", "run Replace on the victim way, install the line RESERVED there"},
    [COH_L2A_REFETCH] = {"refetch", "open an MSHR entry on the line's own way (remember its dirty bytes), "
                                    "queue the DRAM read"},
    [COH_L2A_ALLOC_WRITE] = {"alloc_write", "run Replace on the victim way, install the line MODIFIED with no "
                                            "valid byte, apply the write"},
    [COH_L2A_FILL_LINE] = {"fill_line", "fill the bytes not written, apply the queued requests in arrival order, "
                                        "start draining their replies"},
    [COH_L2A_WRITEBACK] = {"writeback", "queue the line's write-back to DRAM (valid bytes under the mask)"},
    [COH_L2A_FORWARD] = {"forward", "queue the request's written bytes to DRAM ahead of the line read; the queued "
                                    "request is applied again at fill without dirtying the line"},
};

#define A(x) COH_L2A_##x
#define S(x) COH_L2_##x

/* Rows every protocol has except the write rows on a missing (I) or
 * reserved (R) line. */
#define L2_SHARED_ROWS                                                                  \
    {S(I), S(READ), {A(OPEN_MISS), A(RESERVE), A(ADD_REQUEST)}, S(R)},                \
    {S(R), S(READ), {A(ADD_REQUEST)}, S(R)},                                           \
    {S(V), S(READ), {A(HIT)}, S(V)},                                                   \
    {S(M), S(READ), {A(HIT)}, S(M)},                                                   \
    {S(I), S(ATOMIC), {A(OPEN_MISS), A(RESERVE), A(ADD_REQUEST)}, S(R)},              \
    {S(R), S(ATOMIC), {A(ADD_REQUEST)}, S(R)},                                         \
    {S(V), S(ATOMIC), {A(HIT)}, S(M)},                                                 \
    {S(M), S(ATOMIC), {A(HIT)}, S(M)},                                                 \
    {S(V), S(WRITE), {A(HIT)}, S(M)},                                                  \
    {S(M), S(WRITE), {A(HIT)}, S(M)},                                                  \
    {S(V), S(WRITEBACK), {A(HIT)}, S(M)},                                              \
    {S(M), S(WRITEBACK), {A(HIT)}, S(M)},                                              \
    {S(M), S(PARTIAL), {A(REFETCH), A(ADD_REQUEST)}, S(R)},                            \
    {S(R), S(FILL), {A(FILL_LINE)}, S(V)},                                             \
    {S(R), S(FILL_DIRTY), {A(FILL_LINE)}, S(M)},                                       \
    {S(I), S(REPLACE), {0}, S(I)},                                                     \
    {S(V), S(REPLACE), {0}, S(I)},                                                     \
    {S(M), S(REPLACE), {A(WRITEBACK)}, S(I)}

/* A write to a reserved line queues in its MSHR entry (fetch, byte_mask). */
#define L2_QUEUE_WRITE_ROWS                                                             \
    {S(R), S(WRITE), {A(ADD_REQUEST)}, S(R)},                                          \
    {S(R), S(WRITEBACK), {A(ADD_REQUEST)}, S(R)}

static const struct coh_row l2_fetch_rows[] = {
    L2_SHARED_ROWS,
    L2_QUEUE_WRITE_ROWS,
    {S(I), S(WRITE), {A(OPEN_MISS), A(RESERVE), A(ADD_REQUEST)}, S(R)},
    {S(I), S(WRITEBACK), {A(OPEN_MISS), A(RESERVE), A(ADD_REQUEST)}, S(R)},
};

static const struct coh_row l2_byte_mask_rows[] = {
    L2_SHARED_ROWS,
    L2_QUEUE_WRITE_ROWS,
    {S(I), S(WRITE), {A(ALLOC_WRITE)}, S(M)},
    {S(I), S(WRITEBACK), {A(ALLOC_WRITE)}, S(M)},
};

/* GPGPU-Sim 3.x's write-allocate (data_cache::wr_miss_wa): a write that
 * misses, or finds its line reserved, is sent on to DRAM and the line is
 * read (or the read already outstanding is joined). The write is also
 * queued, so the fill carries it whichever order DRAM served the two in;
 * a forwarded write does not dirty the line (DRAM has it). */
static const struct coh_row l2_fetch_write_rows[] = {
    L2_SHARED_ROWS,
    {S(R), S(WRITE), {A(FORWARD), A(ADD_REQUEST)}, S(R)},
    {S(R), S(WRITEBACK), {A(FORWARD), A(ADD_REQUEST)}, S(R)},
    {S(I), S(WRITE), {A(FORWARD), A(OPEN_MISS), A(RESERVE), A(ADD_REQUEST)}, S(R)},
    {S(I), S(WRITEBACK), {A(FORWARD), A(OPEN_MISS), A(RESERVE), A(ADD_REQUEST)}, S(R)},
};

#undef L2_SHARED_ROWS
#undef L2_QUEUE_WRITE_ROWS
#undef A
#undef S

const struct coh_proto coh_noncoh_l2_fetch = {
    .name = "noncoh_l2_fetch",
    .doc = "Non-coherent L2 slice, `l2.write_miss = fetch`: the point of coherence for its addresses; "
           "write-back, write-allocate; a write miss reserves the line and fetches it, the write is merged at "
           "fill. No L1 is ever recalled or invalidated.",
    .n_states = COH_L2_N_STATES,
    .n_events = COH_L2_N_EVENTS,
    .n_actions = COH_L2A_N_ACTIONS,
    .n_rows = sizeof l2_fetch_rows / sizeof l2_fetch_rows[0],
    .states = l2_states,
    .events = l2_events,
    .actions = l2_actions,
    .rows = l2_fetch_rows,
};

const struct coh_proto coh_noncoh_l2_fetch_write = {
    .name = "noncoh_l2_fetch_write",
    .doc = "Non-coherent L2 slice, `l2.write_miss = fetch_write` (GPGPU-Sim 3.2.2's write-allocate): a write "
           "to a missing or reserved line goes on to DRAM with its byte mask and the line is fetched; the "
           "queued write is applied again at fill and leaves the line clean. Every other row is the same as "
           "`noncoh_l2_fetch`.",
    .n_states = COH_L2_N_STATES,
    .n_events = COH_L2_N_EVENTS,
    .n_actions = COH_L2A_N_ACTIONS,
    .n_rows = sizeof l2_fetch_write_rows / sizeof l2_fetch_write_rows[0],
    .states = l2_states,
    .events = l2_events,
    .actions = l2_actions,
    .rows = l2_fetch_write_rows,
};

const struct coh_proto coh_noncoh_l2_byte_mask = {
    .name = "noncoh_l2_byte_mask",
    .doc = "Non-coherent L2 slice, `l2.write_miss = byte_mask`: a write miss allocates the line MODIFIED "
           "without a DRAM read, with only the written bytes valid; a later read or atomic that needs missing "
           "bytes refetches the line (`Partial`). Every other row is the same as `noncoh_l2_fetch`.",
    .n_states = COH_L2_N_STATES,
    .n_events = COH_L2_N_EVENTS,
    .n_actions = COH_L2A_N_ACTIONS,
    .n_rows = sizeof l2_byte_mask_rows / sizeof l2_byte_mask_rows[0],
    .states = l2_states,
    .events = l2_events,
    .actions = l2_actions,
    .rows = l2_byte_mask_rows,
};
