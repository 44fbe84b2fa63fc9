/* sim/mem/memreq.c: the message-kind registry (memreq.h, docs/messages.md).
 *
 * One row per enum mem_op value. The payload functions give the bytes a
 * packet carries after its header; the network turns them into flits
 * (icnt_flits: ceil((icnt.header + payload) / icnt.flit)). The rows of the
 * four baseline operations reproduce spec 2.7 exactly (icnt_req_flits /
 * icnt_reply_flits in sim/icnt/icnt_cfg.c give the same counts; test_icnt checks
 * it), so registering a kind never changes the timing of the others.
 */
#include "sim/mem/memreq.h"

/* Reads carry no payload; writes, write-backs and atomics their segment. */
static uint32_t req_segment(const struct mem_req *r) { return r->size; }
static uint32_t req_none(const struct mem_req *r)
{
    (void)r;
    return 0;
}
/* Reads and atomics return rep->size bytes; write acks nothing. */
static uint32_t rep_size(const struct mem_reply *r) { return r->size; }
static uint32_t rep_none(const struct mem_reply *r)
{
    (void)r;
    return 0;
}

const struct mem_kind mem_kind_table[MEM_KIND_COUNT] = {
    [MEM_OP_READ] = {"read", req_none, rep_size, MEM_SIDE_L2, 1},
    [MEM_OP_WRITE] = {"write", req_segment, rep_none, MEM_SIDE_L2, 1},
    [MEM_OP_ATOMIC] = {"atomic", req_segment, rep_size, MEM_SIDE_L2, 1},
    [MEM_OP_WRITEBACK] = {"writeback", req_segment, rep_none, MEM_SIDE_L2, 0},
    /* The example kind of docs/messages.md: a header-only request to a
     * central node; its reply carries `size` bytes (a timestamp, say). */
    [MEM_OP_PING] = {"ping", req_none, rep_size, MEM_SIDE_CENTRAL, 1},
};
