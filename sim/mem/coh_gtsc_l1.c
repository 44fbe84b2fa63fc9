/* sim/mem/coh_gtsc_l1.c: the G-TSC L1D as a (state x event) table
 * (spec coherence-gtsc.md 1.3, 2.1, 2.2, 2.7-2.9; docs/coherence.md).
 *
 * Reading a line needs a tag match and a lease that covers the warp's
 * logical time (warp_ts <= rts); an expired copy is a miss that asks L2 to
 * renew the lease (BusRd carrying the copy's wts: L2 answers BusRnw without
 * data when that version is still current, else BusFill). Global stores are
 * write-through without allocation; a store to a present line updates it
 * and locks it until L2's ack gives the store its timestamp (update
 * visibility, option 1 of spec 2.8): loads to a locked line wait in its
 * MSHR entry. Loads to a line with a read outstanding are combined in its
 * MSHR entry; at the reply the loads the lease covers complete and one
 * renewal asks for the rest (spec 2.9 `combine`). Local memory keeps the
 * non-coherent write-back rows: it is private, so it needs no lease.
 *
 * The L1D (sim/sm/lsu/l1d_gtsc.c) derives the state, checks resources, and
 * refuses before any step the accesses this table does not take: a store,
 * local store or atomic to a line with an open MSHR entry, and an atomic to
 * a locked line (NOTE(l1d-gtsc) there). A store ack for a line that is not
 * locked (the store missed) only raises the warp's timestamp: no line
 * event. SERVE / SERVE_PART follow FILL, FILL_NOWAY, RENEW, WR_ACK_LAST and
 * WR_ACK_DROP when the line's MSHR entry holds loads. RESET is stepped on
 * every line when a reply brings a newer timestamp generation (spec 2.11);
 * OLD_REPLY replaces FILL / RENEW for a reply of an older one.
 */
#include "sim/mem/coh.h"

static const struct coh_name g1_states[COH_G1_N_STATES] = {
    [COH_G1_I] = {"I", "not present, no MSHR entry"},
    [COH_G1_IP] = {"IP", "not present, its read outstanding (an open MSHR entry)"},
    [COH_G1_VP] = {"VP", "present (lease possibly expired), a read or renewal outstanding"},
    [COH_G1_V] = {"V", "present, nothing outstanding; hits while warp_ts <= rts"},
    [COH_G1_L] = {"L", "present and locked: own stores await their BusWrAck, loads wait (spec 2.8)"},
    [COH_G1_M] = {"M", "present, dirty local-memory data (private: no lease)"},
};

static const struct coh_name g1_events[COH_G1_N_EVENTS] = {
    [COH_G1_LOAD] = {"Load", "cached load the line cannot serve now: absent, lease expired (warp_ts > rts) or locked"},
    [COH_G1_LOAD_HIT] = {"LoadHit", "cached load within the lease, or a local load of a present line"},
    [COH_G1_STORE] = {"Store", "global store: write-through, no allocation"},
    [COH_G1_LOCAL_STORE] = {"LocalStore", "local-memory store (write-back)"},
    [COH_G1_ATOMIC] = {"Atomic", "atomic, performed and timestamped at L2"},
    [COH_G1_FILL] = {"Fill", "BusFill: data and lease for the line's read"},
    [COH_G1_FILL_NOWAY] = {"FillNoWay", "BusFill when every way of the set is locked: it serves loads, not installed"},
    [COH_G1_RENEW] = {"Renew", "BusRnw: lease extended, no data"},
    [COH_G1_WR_ACK] = {"WrAck", "BusWrAck of a store to the locked line, more of its stores pending"},
    [COH_G1_WR_ACK_LAST] = {"WrAckLast", "BusWrAck of the line's last pending store"},
    [COH_G1_WR_ACK_DROP] = {"WrAckDrop", "last BusWrAck, and an ack flagged the copy as possibly stale (OQ-5)"},
    [COH_G1_SERVE] = {"Serve", "the line's lease (or the fill) covers every load waiting in its MSHR entry"},
    [COH_G1_SERVE_PART] = {"ServePart", "it covers only some waiting loads (or none): the rest need a renewal"},
    [COH_G1_REPLACE] = {"Replace", "the way is the victim of a new line"},
    [COH_G1_INV_ALL] = {"InvAll", "kernel launch: every line dropped, every warp_ts back to 1"},
    [COH_G1_FLUSH] = {"Flush", "kernel end: dirty local lines written back"},
    [COH_G1_RESET] = {"Reset", "a reply of a newer timestamp generation: L2 reset its timestamps (spec 2.11); every "
                               "lease dropped, every warp_ts back to 1"},
    [COH_G1_OLD_REPLY] = {"OldReply", "BusFill or BusRnw of an older generation than the L1's (processed before a "
                                      "reset the L1 has since heard of): not used, the line is read again"},
};

static const struct coh_name g1_actions[COH_G1A_N_ACTIONS] = {
    [COH_G1A_END] = {"end", "end of a row's action list"},
    [COH_G1A_TOUCH] = {"touch", "a use of the line for the replacement policy"},
    [COH_G1A_HIT_DONE] = {"hit_done", "queue the completion at t + l1d.hit_latency; warp_ts = max(warp_ts, wts)"},
    [COH_G1A_OPEN_READ] = {"open_read", "open an MSHR entry for the line"},
    [COH_G1A_SEND_READ] = {"send_read", "queue BusRd{wts of the present copy or 0, warp_ts} (a renewal when wts != 0)"},
    [COH_G1A_ADD_WAITER] = {"add_waiter", "add the load with its warp_ts to the line's MSHR entry"},
    [COH_G1A_WAIT_UNLOCK] = {"wait_unlock", "add the load to the locked line's MSHR entry (opened, blocked, if none)"},
    [COH_G1A_WRITE_DATA] = {"write_data", "write the store's bytes into the line"},
    [COH_G1A_LOCK] = {"lock", "count one more own store pending on the line"},
    [COH_G1A_SEND_WRITE] = {"send_write", "queue BusWr{warp_ts, l1_wts = the copy's wts or 0, bytes under the mask}"},
    [COH_G1A_SEND_ATOMIC] = {"send_atomic", "queue the atomic with the warp's warp_ts"},
    [COH_G1A_EVICT] = {"evict", "drop the line"},
    [COH_G1A_WRITEBACK] = {"writeback", "queue a write-back of the dirty local line"},
    [COH_G1A_FILL_LINE] = {"fill_line", "Replace a victim way (not locked), install the line with the fill's [wts, rts]"},
    [COH_G1A_UPDATE_LINE] = {"update_line", "overwrite the present copy with the fill's bytes and [wts, rts]"},
    [COH_G1A_EXTEND_LEASE] = {"extend_lease", "rts = max(rts, the renewal's rts)"},
    [COH_G1A_ACK_LEASE] = {"ack_lease", "one store acked: keep the newer of the copy's and the ack's lease; "
                                        "remember an invalidate flag"},
    [COH_G1A_UNLOCK] = {"unlock", "the last pending store is acked: the line may be read again"},
    [COH_G1A_SERVE] = {"serve", "complete each waiting load whose warp_ts <= rts, in arrival order; "
                                "warp_ts = max(warp_ts, wts)"},
    [COH_G1A_RELEASE_MSHR] = {"release_mshr", "free the MSHR entry"},
    [COH_G1A_DROP_LEASE] = {"drop_lease", "wts = rts = 0: the copy stays, no load hits it, its next read is a fill"},
};

#define A(x) COH_G1A_##x
#define S(x) COH_G1_##x

static const struct coh_row g1_rows[] = {
    /* loads */
    {S(I), S(LOAD), {A(OPEN_READ), A(ADD_WAITER), A(SEND_READ)}, S(IP)},
    {S(IP), S(LOAD), {A(ADD_WAITER)}, S(IP)},
    {S(VP), S(LOAD), {A(ADD_WAITER)}, S(VP)},
    {S(V), S(LOAD), {A(OPEN_READ), A(ADD_WAITER), A(SEND_READ)}, S(VP)},
    {S(L), S(LOAD), {A(WAIT_UNLOCK)}, S(L)},
    {S(VP), S(LOAD_HIT), {A(TOUCH), A(HIT_DONE)}, S(VP)},
    {S(V), S(LOAD_HIT), {A(TOUCH), A(HIT_DONE)}, S(V)},
    {S(M), S(LOAD_HIT), {A(TOUCH), A(HIT_DONE)}, S(M)},
    /* stores and atomics */
    {S(I), S(STORE), {A(SEND_WRITE)}, S(I)},
    {S(V), S(STORE), {A(WRITE_DATA), A(TOUCH), A(LOCK), A(SEND_WRITE)}, S(L)},
    {S(L), S(STORE), {A(WRITE_DATA), A(TOUCH), A(LOCK), A(SEND_WRITE)}, S(L)},
    {S(I), S(LOCAL_STORE), {A(SEND_WRITE)}, S(I)},
    {S(V), S(LOCAL_STORE), {A(WRITE_DATA), A(TOUCH), A(HIT_DONE)}, S(M)},
    {S(M), S(LOCAL_STORE), {A(WRITE_DATA), A(TOUCH), A(HIT_DONE)}, S(M)},
    {S(I), S(ATOMIC), {A(SEND_ATOMIC)}, S(I)},
    {S(V), S(ATOMIC), {A(EVICT), A(SEND_ATOMIC)}, S(I)},
    {S(M), S(ATOMIC), {A(WRITEBACK), A(EVICT), A(SEND_ATOMIC)}, S(I)},
    /* replies */
    {S(IP), S(FILL), {A(FILL_LINE)}, S(V)},
    {S(VP), S(FILL), {A(UPDATE_LINE)}, S(V)},
    {S(IP), S(FILL_NOWAY), {0}, S(I)},
    {S(VP), S(RENEW), {A(EXTEND_LEASE)}, S(V)},
    {S(IP), S(RENEW), {A(SEND_READ)}, S(IP)},
    {S(L), S(WR_ACK), {A(ACK_LEASE)}, S(L)},
    {S(L), S(WR_ACK_LAST), {A(ACK_LEASE), A(UNLOCK)}, S(V)},
    {S(L), S(WR_ACK_DROP), {A(ACK_LEASE), A(UNLOCK), A(EVICT)}, S(I)},
    /* waiting loads after a reply */
    {S(V), S(SERVE), {A(SERVE), A(RELEASE_MSHR)}, S(V)},
    {S(I), S(SERVE), {A(SERVE), A(RELEASE_MSHR)}, S(I)},
    {S(V), S(SERVE_PART), {A(SERVE), A(SEND_READ)}, S(VP)},
    {S(I), S(SERVE_PART), {A(SERVE), A(SEND_READ)}, S(IP)},
    /* replacement, kernel boundaries */
    {S(I), S(REPLACE), {0}, S(I)},
    {S(V), S(REPLACE), {0}, S(I)},
    {S(VP), S(REPLACE), {0}, S(IP)},
    {S(M), S(REPLACE), {A(WRITEBACK)}, S(I)},
    {S(I), S(INV_ALL), {0}, S(I)},
    {S(V), S(INV_ALL), {0}, S(I)},
    {S(M), S(FLUSH), {A(WRITEBACK)}, S(V)},
    /* timestamp reset (spec 2.11, NOTE(l1d-gtsc-reset)) */
    {S(I), S(RESET), {0}, S(I)},
    {S(IP), S(RESET), {0}, S(IP)},
    {S(VP), S(RESET), {A(DROP_LEASE)}, S(VP)},
    {S(V), S(RESET), {A(DROP_LEASE)}, S(V)},
    {S(L), S(RESET), {A(DROP_LEASE)}, S(L)},
    {S(M), S(RESET), {0}, S(M)},
    {S(IP), S(OLD_REPLY), {A(SEND_READ)}, S(IP)},
    {S(VP), S(OLD_REPLY), {A(SEND_READ)}, S(VP)},
};

#undef A
#undef S

const struct coh_proto coh_gtsc_l1 = {
    .name = "gtsc_l1",
    .doc = "G-TSC L1D (`coh.protocol = gtsc`, spec coherence-gtsc.md): leases in logical time; a load hits while "
           "its warp's warp_ts <= the copy's rts, else it asks L2 for a renewal (BusRd with the copy's wts; "
           "BusRnw carries no data). Stores write through without allocating and lock a present copy until L2's "
           "ack timestamps them; loads to a locked copy wait. Loads to a line with a read outstanding are "
           "combined; the reply serves those its lease covers and renews for the rest. Local memory is "
           "write-back and needs no lease.",
    .n_states = COH_G1_N_STATES,
    .n_events = COH_G1_N_EVENTS,
    .n_actions = COH_G1A_N_ACTIONS,
    .n_rows = sizeof g1_rows / sizeof g1_rows[0],
    .states = g1_states,
    .events = g1_events,
    .actions = g1_actions,
    .rows = g1_rows,
};
