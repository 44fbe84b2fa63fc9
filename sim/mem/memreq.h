/* sim/mem/memreq.h: memory requests and replies exchanged between the SMs'
 * memory pipelines, the interconnect and the L2 slices.
 *
 * The structs are fixed size, hold no pointers and fit in one engine message
 * payload (ENG_MSG_PAYLOAD = 224 bytes, sync/engine.h), so they can be copied
 * byte for byte into a message and out again on another host thread.
 *
 * Addresses are device byte addresses. Every request touches exactly one
 * MEM_LINE_BYTES line; byte offsets, masks and data are relative to the
 * start of that line.
 *
 * Atomics: one request carries up to 32 lanes of one warp atomic that fall
 * into one line, in lane order. Each lane k has an element offset off[k]
 * inside the line (aligned to the element size) and its operands packed in
 * data[]: b at data[k * stride], and for CAS c at data[k * stride + es],
 * where es = element bytes and stride = es (2 * es for CAS). The operands of
 * n lanes must fit in 128 bytes, so a warp CAS on 32-bit words or any 64-bit
 * atomic is split by the sender into requests of at most
 * mem_atom_max_lanes() lanes, sent in lane order. The reply carries the old
 * value of lane k at data[k * es] (raw little-endian bytes; the SM
 * sign/zero-extends them).
 */
#ifndef GPUSIM_SIM_MEM_MEMREQ_H
#define GPUSIM_SIM_MEM_MEMREQ_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define MEM_LINE_BYTES 128u /* bytes per L2 line and per DRAM transfer */
#define MEM_MAX_LANES 32u   /* lanes per warp */

/* Request kinds (the message registry, docs/messages.md). The first four
 * are the baseline memory operations; a new mechanism (coherence renewals,
 * race checks, DRAM update messages) appends its kinds here and a row in
 * mem_kind_table (memreq.c), which gives each kind its name, its packet
 * size on the network and which side handles it. The value travels in
 * mem_req.op / mem_reply.op. */
enum mem_op {
    MEM_OP_READ,      /* read `size` bytes at addr; reply carries the line */
    MEM_OP_WRITE,     /* write the bytes under mask; reply is a 1-flit ack */
    MEM_OP_ATOMIC,    /* per-lane read-modify-write; reply carries old values */
    MEM_OP_WRITEBACK, /* L1 write-back of local data: a write with no ack */
    MEM_OP_COUNT,     /* baseline memory operations (the L2 handles exactly these) */
    MEM_OP_PING = MEM_OP_COUNT, /* test / example kind: a header-only message to a central node, echoed back */
    MEM_KIND_COUNT
};

/* Which endpoint handles a kind's requests (replies go back to src). */
enum mem_kind_side {
    MEM_SIDE_L2,      /* the L2 slice of the destination sub-partition */
    MEM_SIDE_CENTRAL, /* a central node added with icnt_topo_add_node */
    MEM_SIDE_DRAM,    /* the DRAM controller of the destination partition */
};

/* Memory space of a request (requester identity). */
enum mem_space {
    MEM_SPACE_GLOBAL, /* global (and generic addresses that resolve there) */
    MEM_SPACE_LOCAL,  /* local: thread-private lines, L1 write-backs */
    MEM_SPACE_CONST,  /* constant cache misses */
    MEM_SPACE_INST,   /* instruction cache misses */
    MEM_SPACE_OTHER,  /* not a memory access (control messages) */
    MEM_SPACE_COUNT
};

#define MEM_WARP_NONE 0xFFFFu      /* mem_req.warp when no warp asked (kernel-end flush) */
#define MEM_CTA_NONE 0xFFFFFFFFu   /* mem_req.cta when unknown */

/* mem_req.flags */
#define MEM_F_NO_ROP 0x01u /* texture request: skips the ROP delay line (spec 2.8 point 1) */
/* G-TSC (coh.protocol = gtsc): bits 2-7 carry the low 6 bits of the sender's
 * timestamp generation (NOTE(gtsc-reset) in partitions/l2/l2.c), so an L2
 * slice can tell a request stamped before its last reset. */
#define MEM_F_GEN_SHIFT 2u
#define MEM_F_GEN_MASK 0x3Fu

/* mem_reply.cflags (coherence) */
#define MEM_RF_RENEW 0x01u /* G-TSC BusRnw: the lease was extended, no data (size 0) */
#define MEM_RF_INVAL 0x02u /* G-TSC BusWrAck: the writer's L1 copy may hold stale bytes, drop it (OQ-5) */

/* mem_atom.flags */
#define MEM_ATOM_FTZ 0x01u /* flush f32 subnormals (atom.global.add.f32), as fpu_atomic's ftz */

struct mem_atom {
    uint8_t aop;     /* enum ptx_aop (sim/ptx/ir.h) */
    uint8_t type;    /* enum ptx_type of the element */
    uint8_t n_lanes; /* lanes carried: slots 0 .. n_lanes-1, in lane order */
    uint8_t flags;   /* MEM_ATOM_* */
    uint8_t off[MEM_MAX_LANES]; /* bytes: element offset of slot k inside the line */
    uint32_t warp_ts; /* G-TSC: the requesting warp's logical time (coh.protocol = gtsc; else 0) */
};

/* NOTE(memreq-layout): a request is a 32-byte header (what every kind has:
 * address, kind, tag, requester identity) and an op-specific body: the byte
 * mask of a write, the lane table of an atomic, or a kind's own fields
 * (struct mem_body_ts for timestamped kinds), then the 128-byte data area.
 * The body is a union, so the struct stays 200 bytes and one request tail
 * flit (24 + 200) still fits an engine message. Requester identity: src (SM),
 * warp, cta, t_create and space are filled where the request is created
 * (L1D, constant and instruction caches; docs/messages.md). */
struct mem_body_ts {
    uint64_t ts;    /* a timestamp (logical time of a coherence or race-check message) */
    uint32_t lease; /* a lease length */
    uint32_t aux;   /* kind-specific */
};

/* G-TSC fields of a read or write (spec coherence-gtsc.md 1.5, BusRd /
 * BusWr): the mask stays where a plain write has it (union member `mask`
 * aliases coh.mask), the timestamps follow it. An atomic carries its
 * warp_ts in mem_atom.warp_ts. Unused (and not set) without coherence. */
struct mem_body_coh {
    uint64_t mask[2]; /* write: the byte mask (same bytes as mem_req.mask) */
    uint32_t warp_ts; /* the requesting warp's logical time */
    uint32_t l1_wts;  /* read: wts of the L1's copy (0 = none: a fill is needed);
                         write: wts of the writer's L1 copy (0 = none), spec OQ-5 */
};

struct mem_req {
    /* header */
    uint64_t addr;     /* device byte address; the line is addr & ~(MEM_LINE_BYTES-1) */
    uint64_t t_create; /* SM pipeline cycle the request was created (its cache queued it) */
    uint32_t id;       /* requester's tag, copied into the reply */
    uint32_t cta;      /* linear CTA id of the requesting warp (MEM_CTA_NONE when none) */
    uint16_t src;      /* requesting unit (SM id), copied into the reply */
    uint16_t warp;     /* warp slot in the SM (MEM_WARP_NONE when none) */
    uint8_t op;        /* enum mem_op (kind) */
    uint8_t flags;     /* MEM_F_* */
    uint8_t size;      /* bytes: read size starting at addr's line offset; for writes and
                          atomics the payload segment size (32/64/128); sets data-port cycles */
    uint8_t space;     /* enum mem_space */
    /* body */
    union {
        uint64_t mask[2];     /* write/writeback: bit i = line byte i is written (bits 0-63 in [0]) */
        struct mem_atom atom; /* MEM_OP_ATOMIC only */
        struct mem_body_ts ts;/* timestamped kinds */
        struct mem_body_coh coh; /* reads and writes under a timestamp protocol */
    };
    uint8_t data[MEM_LINE_BYTES]; /* write: bytes at line offsets; atomic: packed operands */
};

struct mem_reply {
    uint64_t addr;  /* the request's addr */
    uint32_t id;    /* the request's id */
    uint16_t src;   /* the request's src (destination of the reply) */
    uint8_t op;     /* the request's op */
    uint8_t size;   /* bytes of payload (read: request size; atomic: request size; write ack: 0) */
    union {
        uint8_t n_lanes;/* atomic: old values carried */
        uint8_t sect;   /* read, l2.sector_replies: bits 0-3 every sector of the reply, bits 4-7 this
                           packet's sector; 0 = the whole reply (NOTE(sector-replies) in l2.c) */
    };
    uint8_t cflags; /* MEM_RF_* (coherence) */
    uint16_t warp;  /* the request's warp (coherence: whose warp_ts the reply raises) */
    uint32_t wts;   /* G-TSC: the line's write timestamp (read, write ack, atomic) */
    uint32_t rts;   /* G-TSC: the end of the lease handed out */
    uint32_t gen;   /* G-TSC: the slice's timestamp generation (resets it has taken, NOTE(gtsc-reset)) */
    uint8_t data[MEM_LINE_BYTES]; /* read: the whole line at line offsets; atomic: old value of
                                     slot k at data[k * es]; timestamped kinds: struct mem_body_ts
                                     at data[0] */
};

/* l2.sector_replies (NOTE(sector-replies) in partitions/l2/l2.c): the
 * 32-byte sector a read's packet carries (bit k = bytes 32k..32k+31; 0 =
 * the whole reply), every sector of that read, and the packet's payload on
 * the wire (32 bytes for a sector). */
static inline uint8_t mem_reply_part(const struct mem_reply *r)
{
    return r->op == MEM_OP_READ ? (uint8_t)(r->sect >> 4) : 0;
}
static inline uint8_t mem_reply_parts(const struct mem_reply *r)
{
    return r->op == MEM_OP_READ ? (uint8_t)(r->sect & 0xFu) : 0;
}

/* ------------------------------------------------------------- kind registry */

/* One row per kind. Packet size is header + payload_bytes(message) rounded
 * up to flits by the network (icnt_flits); a NULL function means "no
 * payload" (1 flit with the default 8 B header / 32 B flits). */
struct mem_kind {
    const char *name;
    uint32_t (*req_payload)(const struct mem_req *r);   /* bytes of request payload on the wire */
    uint32_t (*rep_payload)(const struct mem_reply *r); /* bytes of reply payload on the wire */
    uint8_t side;                                       /* enum mem_kind_side: who handles the request */
    uint8_t has_reply;                                  /* 1 = the handler answers */
};

extern const struct mem_kind mem_kind_table[MEM_KIND_COUNT];

static inline const struct mem_kind *mem_kind_of(uint32_t op)
{
    return op < MEM_KIND_COUNT ? &mem_kind_table[op] : (const struct mem_kind *)0;
}
static inline const char *mem_space_name(uint32_t sp)
{
    static const char *const n[MEM_SPACE_COUNT] = {"global", "local", "const", "inst", "other"};
    return sp < MEM_SPACE_COUNT ? n[sp] : "?";
}

_Static_assert(sizeof(struct mem_req) <= 224, "mem_req must fit an engine message payload");
_Static_assert(sizeof(struct mem_reply) <= 224, "mem_reply must fit an engine message payload");
_Static_assert(sizeof(struct mem_req) == 200, "mem_req: header 32 + body 40 + data 128 (NOTE(memreq-layout))");

/* G-TSC generation bits of a request (NOTE(gtsc-reset)). */
static inline void mem_req_set_gen(struct mem_req *r, uint32_t gen)
{
    r->flags = (uint8_t)((r->flags & ~(MEM_F_GEN_MASK << MEM_F_GEN_SHIFT)) | (gen & MEM_F_GEN_MASK) << MEM_F_GEN_SHIFT);
}
static inline uint32_t mem_req_gen(const struct mem_req *r) { return (uint32_t)r->flags >> MEM_F_GEN_SHIFT & MEM_F_GEN_MASK; }

static inline uint64_t mem_line_of(uint64_t addr) { return addr & ~(uint64_t)(MEM_LINE_BYTES - 1); }
static inline uint32_t mem_line_off(uint64_t addr) { return (uint32_t)(addr & (MEM_LINE_BYTES - 1)); }

static inline bool mem_mask_test(const uint64_t m[2], uint32_t i) { return (m[i >> 6] >> (i & 63)) & 1u; }
static inline void mem_mask_set(uint64_t m[2], uint32_t i) { m[i >> 6] |= 1ull << (i & 63); }
/* The bits [off, min(off + n, MEM_LINE_BYTES)) as a mask. */
static inline void mem_mask_range(uint64_t r[2], uint32_t off, uint32_t n)
{
    uint32_t end = off + n < MEM_LINE_BYTES ? off + n : MEM_LINE_BYTES;
    for (uint32_t w = 0; w < 2; w++) {
        uint32_t lo = w * 64, a = off > lo ? off - lo : 0, b = end > lo ? end - lo : 0;
        if (a > 64)
            a = 64;
        if (b > 64)
            b = 64;
        uint64_t up = b == 64 ? ~0ull : (1ull << b) - 1, below = a == 64 ? ~0ull : (1ull << a) - 1;
        r[w] = b > a ? up & ~below : 0;
    }
}
/* Set bits [off, off+n). */
static inline void mem_mask_set_range(uint64_t m[2], uint32_t off, uint32_t n)
{
    uint64_t r[2];
    mem_mask_range(r, off, n);
    m[0] |= r[0];
    m[1] |= r[1];
}
/* True when every bit of [off, off+n) is set. */
static inline bool mem_mask_all(const uint64_t m[2], uint32_t off, uint32_t n)
{
    uint64_t r[2];
    mem_mask_range(r, off, n);
    return (m[0] & r[0]) == r[0] && (m[1] & r[1]) == r[1];
}

/* True when any bit of [off, off+n) is set. */
static inline bool mem_mask_any_range(const uint64_t m[2], uint32_t off, uint32_t n)
{
    uint64_t r[2];
    mem_mask_range(r, off, n);
    return ((m[0] & r[0]) | (m[1] & r[1])) != 0;
}

/* dst[i] = src[i] for every line offset i < n whose bit is set in m (byte
 * i of a line is bit i). Whole 64- and 8-byte groups are copied at once
 * where their bits are all set and skipped where none is; the result is
 * that of the byte-by-byte loop. */
static inline void mem_mask_copy(uint8_t *dst, const uint8_t *src, const uint64_t m[2], uint32_t n)
{
    uint64_t r[2];
    mem_mask_range(r, 0, n);
    for (uint32_t w = 0; w < 2; w++) {
        uint64_t mw = m[w] & r[w];
        uint32_t base = w * 64;
        if (mw == ~0ull) {
            memcpy(dst + base, src + base, 64);
            continue;
        }
        for (; mw; mw &= ~(0xffull << (__builtin_ctzll(mw) & ~7u))) {
            uint32_t g = (uint32_t)__builtin_ctzll(mw) & ~7u; /* first group with a bit set */
            uint32_t bits = (uint32_t)(mw >> g) & 0xffu;
            if (bits == 0xffu) {
                memcpy(dst + base + g, src + base + g, 8);
                continue;
            }
            for (; bits; bits &= bits - 1) {
                uint32_t j = g + (uint32_t)__builtin_ctz(bits);
                dst[base + j] = src[base + j];
            }
        }
    }
}

/* TC replies carry one 64-bit physical time (ps) in the wts / rts fields: a
 * read's lease expiry, a write's or atomic's GWCT (spec coherence-gtsc.md 3.3). */
static inline uint64_t mem_rep_time(const struct mem_reply *r) { return (uint64_t)r->rts << 32 | r->wts; }
static inline void mem_rep_set_time(struct mem_reply *r, uint64_t t)
{
    r->wts = (uint32_t)t;
    r->rts = (uint32_t)(t >> 32);
}

/* Lanes of one atomic request whose operands fit data[]: 128 / (es * (cas ? 2 : 1)), at most 32. */
static inline uint32_t mem_atom_max_lanes(uint32_t elem_bytes, bool cas)
{
    uint32_t n = MEM_LINE_BYTES / (elem_bytes * (cas ? 2u : 1u));
    return n > MEM_MAX_LANES ? MEM_MAX_LANES : n;
}

#endif /* GPUSIM_SIM_MEM_MEMREQ_H */
