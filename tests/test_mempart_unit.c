/* tests/test_mempart_unit.c: the memory partition on the real parallel
 * engine (partitions/mempart/mempart_unit.c), with fake SM partitions whose units
 * inject requests through an icnt_tx (request network) and take replies
 * through an icnt_rx (reply network), all over engine messages.
 *
 * gtx480 clocks: core = icnt = L2 = 700 MHz -> 1429 ps, DRAM 924 MHz ->
 * 1082 ps; icnt.min_latency 8 -> L = 8 x 1429 = 11432 ps = exact-mode Q.
 * Every expected time is simulated, computed by hand next to the value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/func/atomic_ops.h"
#include "partitions/mempart/mempart_unit.h"
#include "sim/cfg/config.h"
#include "sim/base/diag.h"
#include "sim/mem/devmem.h"
#include "sim/gpu/gpu_cfg.h"
#include "sim/base/json.h"
#include "sim/ptx/ir.h"
#include "sim/cfg/sim_cfg.h"
#include "tap.h"

#define N_CH 6u

/* ------------------------------------------------------------ fake SM */

struct fsm_in {
    ps_t t_ps;          /* earliest injection time */
    struct mem_req req; /* device address */
};

struct fsm_got {
    ps_t t_ps;           /* delivery time of the tail */
    struct mem_reply rep;
};

struct tmodel;

struct fsm {
    struct tmodel *m;
    uint32_t ep, unit;         /* endpoint = SM id; engine unit */
    struct icnt_tx tx;         /* request sender half */
    struct icnt_rx rx;         /* reply receiver half */
    const struct fsm_in *in;   /* script */
    size_t n_in, next_in;
    struct fsm_got *got;       /* [n_in] replies in arrival order */
    size_t n_got;
    struct eng_ctx *ctx;
    ps_t now;
    uint64_t lat_sum;          /* sum of (delivery - injection) ps, statistic */
    uint64_t replies;          /* statistic */
    ps_t *t_inj;               /* [n_in] injection time of each request (by script index) */
};

struct tmodel {
    struct mempart_cfg mc;
    struct l2_cfg lc;
    struct dram_cfg dc;
    struct icnt_net_cfg nc;
    struct engine_cfg ec;
    struct addrmap map;
    struct icnt_topo topo;
    struct clock_periods per;
    struct mpu_shared sh;
    uint32_t units[N_CH][MPU_N_DOM];
    struct mpu_part *parts[N_CH];
    uint32_t *ep_unit;
    struct engine *eng;
    struct stats *stats;
    unsigned n_sm, n_smp;          /* fake SMs, SM partitions (n_sm / n_smp each) */
    struct fsm *sm[16];
    struct fsm_in **scripts;       /* [n_sm] */
    size_t *n_script;
    const uint8_t *image;          /* host image written by the first serial step (NULL = none) */
    uint64_t image_dev, image_len;
    int serial_calls;
};

static ps_t Pi_of(const struct tmodel *m) { return m->per.icnt; }

static void fsm_send_flit(void *ctx, const struct icnt_flit *f, const void *payload, uint64_t arrive)
{
    struct fsm *s = ctx;
    uint8_t buf[ENG_MSG_PAYLOAD];
    uint32_t len = icnt_msg_pack_flit(buf, f, payload, sizeof(struct mem_req));
    eng_send(s->ctx, s->unit, s->m->ep_unit[f->dst], s->now, arrive * Pi_of(s->m) - s->now, ICNT_MSG_FLIT, buf,
             len);
}

static bool fsm_can_accept(void *ctx, uint32_t src, uint32_t n, uint64_t c)
{
    (void)ctx, (void)src, (void)n, (void)c;
    return true; /* an unbounded ejection buffer */
}

static bool fsm_deliver(void *ctx, uint32_t src, const void *payload, const struct icnt_flit *tail, uint64_t c)
{
    struct fsm *s = ctx;
    (void)src, (void)tail, (void)c;
    SIM_ASSERT(s->n_got < s->n_in, "fake SM %u: more replies than requests", s->ep);
    struct fsm_got *g = &s->got[s->n_got++];
    memcpy(&g->rep, payload, sizeof g->rep);
    g->t_ps = s->now;
    s->replies++;
    uint32_t idx = g->rep.id & 0xFFFFF; /* script index (random test ids); other ids count no latency */
    if (idx < s->n_in)
        s->lat_sum += s->now - s->t_inj[idx];
    return true;
}

static void fsm_send_credit(void *ctx, uint32_t to_src, uint32_t from_dst, uint64_t arrive)
{
    struct fsm *s = ctx;
    struct icnt_msg_credit cr = {to_src, from_dst, 1};
    eng_send(s->ctx, s->unit, s->m->ep_unit[to_src], s->now, arrive * Pi_of(s->m) - s->now, ICNT_MSG_CREDIT, &cr,
             sizeof cr);
}

static uint32_t dst_ep(const struct tmodel *m, uint64_t dev)
{
    struct addrmap_loc loc;
    SIM_ASSERT(mpu_dev_locate(&m->map, NULL, m->sh.store_bytes, dev, &loc), "test: address 0x%llx",
               (unsigned long long)dev);
    return mpu_ep_of_loc(&m->topo, &loc);
}

static ps_t fsm_tick(void *self, struct eng_ctx *ctx, ps_t now)
{
    struct fsm *s = self;
    struct tmodel *m = s->m;
    s->ctx = ctx;
    s->now = now;
    uint64_t c = now / Pi_of(m);
    ps_t want = PS_NEVER;
    if (s->next_in < s->n_in) {
        const struct fsm_in *x = &s->in[s->next_in];
        uint32_t nf = icnt_req_flits(&m->nc, &x->req);
        if (x->t_ps <= now && icnt_tx_can_push(&s->tx, nf)) {
            icnt_tx_push(&s->tx, dst_ep(m, x->req.addr), nf, &x->req, c);
            s->t_inj[s->next_in] = now;
            s->next_in++;
            if (s->next_in < s->n_in)
                want = s->in[s->next_in].t_ps > now ? s->in[s->next_in].t_ps : now + 1;
        } else if (x->t_ps > now) {
            want = x->t_ps;
        } /* else the buffer is full: the sender half wakes us */
    }
    uint64_t a = icnt_tx_tick(&s->tx, c), b = icnt_rx_tick(&s->rx, c);
    uint64_t n = a < b ? a : b;
    if (n != CYCLE_NEVER && n * Pi_of(m) < want)
        want = n * Pi_of(m);
    return want;
}

static ps_t fsm_recv(void *self, struct eng_ctx *ctx, const struct eng_msg *msg, ps_t now)
{
    struct fsm *s = self;
    (void)ctx;
    uint64_t c = now / Pi_of(s->m);
    if (msg->type == ICNT_MSG_FLIT) {
        struct icnt_flit f;
        const void *p = icnt_msg_unpack_flit(msg, &f, sizeof(struct mem_reply), Pi_of(s->m));
        icnt_rx_flit_arrive(&s->rx, &f, p, c);
    } else {
        struct icnt_msg_credit cr;
        icnt_msg_unpack_credit(msg, &cr);
        icnt_tx_credits(&s->tx, cr.from_dst, cr.n, c); /* the partition's request receiver sends runs */
    }
    return now;
}

static const struct eng_unit_ops fsm_ops = {"fake_sm", fsm_tick, fsm_recv};

/* ------------------------------------------------------------ model */

static void part_init(void *model, struct eng_ctx *ctx, int partition)
{
    struct tmodel *m = model;
    if ((unsigned)partition >= m->n_smp) {
        mpu_part_create(&m->sh, ctx, (unsigned)partition - m->n_smp);
        return;
    }
    unsigned per = m->n_sm / m->n_smp;
    for (unsigned k = 0; k < per; k++) {
        unsigned id = (unsigned)partition * per + k;
        struct fsm *s = eng_alloc(ctx, sizeof *s);
        s->m = m;
        s->ep = id;
        s->unit = m->ep_unit[id];
        s->in = m->scripts[id];
        s->n_in = m->n_script[id];
        s->got = xcalloc(s->n_in + 1, sizeof *s->got);
        s->t_inj = xcalloc(s->n_in + 1, sizeof *s->t_inj);
        struct icnt_tx_args ta = {id, &m->topo, &m->nc, sizeof(struct mem_req), fsm_send_flit, s, 0};
        icnt_tx_init(&s->tx, &ta);
        struct icnt_rx_args ra = {id, &m->topo, &m->nc, sizeof(struct mem_reply),
                                  {fsm_can_accept, fsm_deliver, fsm_send_credit, NULL, NULL, false}, s};
        icnt_rx_init(&s->rx, &ra);
        eng_unit_bind(ctx, s->unit, s);
        m->sm[id] = s;
        if (m->stats) {
            icnt_tx_stats_register(&s->tx, m->stats, "icnt.req");
            icnt_rx_stats_register(&s->rx, m->stats, "icnt.reply");
            stats_counter(m->stats, "fake_sm", (int)id, "replies", &s->replies, "replies received");
            stats_counter(m->stats, "fake_sm", (int)id, "lat_sum", &s->lat_sum, "sum of latencies (ps)");
        }
    }
}

static void part_fini(void *model, struct eng_ctx *ctx, int partition)
{
    struct tmodel *m = model;
    (void)ctx;
    if ((unsigned)partition >= m->n_smp) {
        mpu_part_fini(m->parts[partition - m->n_smp]);
        return;
    }
    unsigned per = m->n_sm / m->n_smp;
    for (unsigned k = 0; k < per; k++) {
        struct fsm *s = m->sm[partition * per + k];
        if (!s)
            continue;
        icnt_tx_fini(&s->tx);
        icnt_rx_fini(&s->rx);
        free(s->got);
        free(s->t_inj);
    }
}

static bool serial(void *model, struct engine *eng, ps_t now)
{
    struct tmodel *m = model;
    (void)eng, (void)now;
    if (m->serial_calls++ == 0 && m->image)
        SIM_ASSERT(mpu_host_write(&m->sh, m->image_dev, m->image, m->image_len), "test: host write");
    return true;
}

static void model_create(struct tmodel *m, unsigned n_sm, unsigned n_smp, uint64_t store_bytes, bool small_l2,
                         struct fsm_in **scripts, size_t *n_script, bool with_stats)
{
    struct cfg c;
    cfg_init(&c);
    m->mc = c.values->l2_to_dram;
    m->lc = c.values->l2;
    m->dc = c.values->dram;
    m->nc = c.values->icnt_net;
    m->ec = c.values->engine;
    struct clock_cfg ck = c.values->clock;
    uint64_t min_lat = c.values->icnt.min_latency;
    cfg_fini(&c);
    if (small_l2) {
        m->lc.size_per_sub = 16384; /* 16 KB / (2 ways x 128 B) = 64 sets: many evictions */
        m->lc.assoc = 2;
    }
    clock_periods_compute(&ck, &m->per);
    addrmap_init(&m->map, N_CH, 2, 16, 4096, 64);
    icnt_topo_init(&m->topo, &m->nc, min_lat, n_sm, N_CH, 2);
    m->n_sm = n_sm;
    m->n_smp = n_smp;
    m->scripts = scripts;
    m->n_script = n_script;
    m->stats = with_stats ? stats_create() : NULL;
    m->eng = eng_create(&m->ec, m);
    int dom[4];
    dom[0] = eng_domain_add(m->eng, "dram", m->per.dram);
    dom[1] = eng_domain_add(m->eng, "l2", m->per.l2);
    dom[2] = eng_domain_add(m->eng, "icnt", m->per.icnt);
    dom[3] = eng_domain_add(m->eng, "core", m->per.core);
    m->ep_unit = xcalloc(m->topo.n_ep, sizeof *m->ep_unit);
    for (unsigned p = 0; p < n_smp; p++) {
        char name[32];
        snprintf(name, sizeof name, "sm%u", p);
        eng_partition_add(m->eng, name, ENG_PART_SM, part_init, part_fini);
    }
    for (unsigned ch = 0; ch < N_CH; ch++) {
        char name[32];
        snprintf(name, sizeof name, "mem%u", ch);
        eng_partition_add(m->eng, name, ENG_PART_MEM, part_init, part_fini);
    }
    for (unsigned s = 0; s < n_sm; s++)
        m->ep_unit[s] = eng_unit_add(m->eng, (int)(s / (n_sm / n_smp)), dom[2], &fsm_ops);
    for (unsigned ch = 0; ch < N_CH; ch++) {
        mpu_units_add(m->eng, (int)(n_smp + ch), dom, m->units[ch]);
        for (unsigned k = 0; k < 2; k++)
            m->ep_unit[icnt_ep_of_sub(&m->topo, ch * 2 + k)] = m->units[ch][MPU_DOM_ICNT];
    }
    struct mpu_shared *sh = &m->sh;
    sh->mp_cfg = &m->mc;
    sh->l2_cfg = &m->lc;
    sh->dram_cfg = &m->dc;
    sh->net_cfg = &m->nc;
    sh->atom = &func_atomic_ops;
    sh->map = &m->map;
    sh->topo = &m->topo;
    sh->pipe_period_ps = m->per.core;
    sh->period_ps[MPU_DOM_DRAM] = m->per.dram;
    sh->period_ps[MPU_DOM_L2] = m->per.l2;
    sh->period_ps[MPU_DOM_ICNT] = m->per.icnt;
    for (int d = 0; d < MPU_N_DOM; d++)
        sh->period_div[d] = divq_make(sh->period_ps[d]);
    sh->store_bytes = store_bytes;
    sh->ep_unit = m->ep_unit;
    sh->units = m->units;
    sh->parts = m->parts;
    sh->stats = m->stats;
    mpu_links_add(m->eng, sh);
    eng_set_serial(m->eng, serial);
    struct diag d;
    diag_init(&d);
    if (eng_finalize(m->eng, &d) != 0) {
        diag_print(&d, stdout);
        tap_bail("engine finalize failed");
    }
    diag_fini(&d);
}

static int model_run(struct tmodel *m, unsigned thr, unsigned smt, unsigned memt, struct eng_result *res)
{
    struct eng_run_opts o = {thr, smt, memt, ENG_PIN_NONE, NULL, NULL, NULL};
    char err[256];
    int rc = eng_run(m->eng, &o, res, err, sizeof err);
    if (rc != 0)
        tap_diag("eng_run: %s", err);
    return rc;
}

static void model_destroy(struct tmodel *m)
{
    eng_destroy(m->eng);
    icnt_topo_fini(&m->topo);
    if (m->stats)
        stats_destroy(m->stats);
    free(m->ep_unit);
}

static char *stats_json(const struct stats *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct json_writer w;
    jw_init(&w, f);
    jw_obj_begin(&w, NULL);
    stats_write_json(s, &w);
    jw_obj_end(&w);
    jw_finish(&w);
    fclose(f);
    return buf;
}

/* ------------------------------------------------------------ requests */

static struct mem_req mk_read(uint64_t dev, uint32_t id, uint16_t src)
{
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = mem_line_of(dev);
    r.id = id;
    r.src = src;
    r.op = MEM_OP_READ;
    r.size = MEM_LINE_BYTES;
    return r;
}

/* ------------------------------------------------------------ test 1: isolated read */

static void test_isolated_read(void)
{
    struct tmodel m;
    memset(&m, 0, sizeof m);
    struct fsm_in in = {0, mk_read(DEVMEM_BASE + 0, 7, 0)}; /* channel 0, sub 0, local 0, bank 0 */
    struct fsm_in *scr[1] = {&in};
    size_t n[1] = {1};
    model_create(&m, 1, 1, 64 * 1024, false, scr, n, true);
    TAP_EQ_U64(eng_lookahead(m.eng), 11432, "lookahead L = 8 icnt cycles x 1429 ps = 11432 ps");
    struct eng_result res;
    int rc = model_run(&m, 1, 0, 0, &res);
    struct fsm *s = m.sm[0];
    TAP_OK(rc == 0 && res.finish == ENG_FINISH_IDLE && s->n_got == 1, "isolated read: one reply, run ends idle");
    /* Request: pushed at icnt 0, head = tail leaves at 0, arrives at 0 + 8 = 8;
     * the receiver delivers it at icnt 8 -> mempart_push at L2 cycle 8
     * (icnt and L2 both 1429 ps). Partition (docs/mempart.md, shifted by 8 L2
     * cycles, DRAM edges recomputed): lookup 8 + 120 = 128, L2->DRAM queue at
     * 129 (184341 ps), admitted at the first DRAM edge after it:
     * ceil(184341 / 1082) = 171 (185022 ps); ready 171 + 132 = 303, ACT 304,
     * RD 304 + tRCD 12 = 316 and 316 + tCCDL 3 = 319, data 319 + tCL 12 =
     * 331 (358142 ps); fill at the first L2 edge >= 358142: 251 (358679 ps);
     * fill port 4 cycles -> reply poppable at 255 (364395 ps). Reply: 128 B ->
     * ceil((8 + 128) / 32) = 5 flits pushed at icnt 255, leave 255..259,
     * tail arrives 259 + 8 = 267 -> delivered at 267 x 1429 = 381543 ps. */
    TAP_EQ_U64(s->n_got ? s->got[0].t_ps : 0, 381543, "isolated read: reply delivered at 381543 ps (icnt 267)");
    TAP_OK(s->n_got && s->got[0].rep.id == 7 && s->got[0].rep.addr == DEVMEM_BASE && s->got[0].rep.op == MEM_OP_READ,
           "isolated read: reply id, device address and op");
    uint64_t v = 0;
    TAP_OK(stats_get_u64(m.stats, "mempart_unit.req_delivered", &v) && v == 1, "stat req_delivered = 1");
    TAP_OK(stats_get_u64(m.stats, "mempart_unit.replies_injected", &v) && v == 1, "stat replies_injected = 1");
    TAP_OK(stats_get_u64(m.stats, "icnt.reply.tx_flits", &v) && v == 5, "reply network carried 5 flits (%llu)",
           (unsigned long long)v);
    TAP_OK(stats_get_u64(m.stats, "icnt.req.rx_packets", &v) && v == 1, "request receiver delivered 1 packet");
    bool idle = true;
    for (unsigned ch = 0; ch < N_CH; ch++)
        idle = idle && mpu_part_idle(m.parts[ch]);
    TAP_OK(idle, "every partition idle at the end");
    /* Host path: 1000 bytes at an odd offset span 9 lines over 4 channels
     * (256 B chunks rotate: channel = (A >> 8) mod 6); read back; the line of
     * the read above is now in L2 and the host write patches it. */
    uint8_t wbuf[1000], rbuf[1000];
    for (unsigned i = 0; i < sizeof wbuf; i++)
        wbuf[i] = (uint8_t)(i * 13 + 1);
    TAP_OK(mpu_host_write(&m.sh, DEVMEM_BASE + 77, wbuf, sizeof wbuf), "host write of 1000 bytes at +77");
    memset(rbuf, 0, sizeof rbuf);
    TAP_OK(mpu_host_read(&m.sh, DEVMEM_BASE + 77, rbuf, sizeof rbuf) && memcmp(rbuf, wbuf, sizeof rbuf) == 0,
           "host read returns the bytes written (through L2 copies)");
    TAP_OK(!mpu_host_read(&m.sh, DEVMEM_BASE - 1, rbuf, 2), "host read below DEVMEM_BASE is refused");
    /* store 64 KB per channel -> 6 x 64 KB = 393216 device bytes */
    TAP_OK(!mpu_host_write(&m.sh, DEVMEM_BASE + 393216 - 4, wbuf, 8), "host write past the store is refused");
    TAP_OK(mpu_host_read(&m.sh, DEVMEM_BASE + 393216 - 4, rbuf, 4), "the last 4 bytes are in range");
    struct addrmap_loc loc;
    memset(&loc, 0, sizeof loc);
    /* located before the check: the message's arguments read loc too */
    bool located = mpu_dev_locate(&m.map, NULL, 65536, DEVMEM_BASE + 0x1234, &loc);
    TAP_OK(located && loc.channel == (0x1234 >> 8) % 6 &&
               mpu_dev_of(&m.map, NULL, loc.channel, loc.local) == DEVMEM_BASE + 0x1234,
           "device address <-> (channel %u, local 0x%llx) round trip", loc.channel, (unsigned long long)loc.local);
    /* Injected fault: a checker expecting one icnt cycle less must fail. */
    TAP_OK(s->n_got && s->got[0].t_ps != 381543 - 1429, "fault: a wrong expected time (icnt 266) is rejected");
    model_destroy(&m);
}

/* ------------------------------------------------------------ randomized stream */

#define R_SM 4u
#define R_STORE (64u * 1024u)          /* local bytes per partition -> 384 KB of device memory */
#define R_DEV_BYTES (N_CH * R_STORE)   /* device bytes covered */
#define R_LINES (R_DEV_BYTES / MEM_LINE_BYTES)
#define R_COUNTERS 4u                  /* shared atomic counters */

struct rng { uint64_t s; };
static uint64_t rnd(struct rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}

/* Address of a shared counter: the first word of line k * 40 + 3 (spread over channels). */
static uint64_t counter_dev(unsigned k) { return DEVMEM_BASE + (uint64_t)(k * 40 + 3) * MEM_LINE_BYTES; }
static bool is_counter_line(uint64_t line)
{
    for (unsigned k = 0; k < R_COUNTERS; k++)
        if (line == (counter_dev(k) - DEVMEM_BASE) / MEM_LINE_BYTES)
            return true;
    return false;
}

struct scen {
    struct fsm_in *scr[R_SM];
    size_t n[R_SM];
    uint8_t *image;          /* initial device image [R_DEV_BYTES] */
    uint64_t n_counter_adds; /* atomic adds on the shared counters */
};

static void scen_build(struct scen *sc, unsigned per_sm, uint64_t seed)
{
    struct rng r = {seed};
    sc->image = xmalloc(R_DEV_BYTES);
    for (uint32_t i = 0; i < R_DEV_BYTES; i++)
        sc->image[i] = (uint8_t)(i * 31 + (i >> 9) + 5);
    for (unsigned k = 0; k < R_COUNTERS; k++)
        memset(sc->image + (counter_dev(k) - DEVMEM_BASE), 0, 4);
    sc->n_counter_adds = 0;
    ps_t start = 2 * 11432; /* after the first serial step wrote the image */
    for (unsigned s = 0; s < R_SM; s++) {
        sc->scr[s] = xcalloc(per_sm, sizeof *sc->scr[s]);
        sc->n[s] = per_sm;
        ps_t t = start;
        for (unsigned i = 0; i < per_sm; i++) {
            struct fsm_in *x = &sc->scr[s][i];
            t += (rnd(&r) % 4) * 1429;
            x->t_ps = t;
            uint32_t id = (s << 20) | i;
            unsigned kind = (unsigned)(rnd(&r) % 100);
            if (kind < 8) { /* shared counter: atomic add 1 (u32) */
                unsigned k = (unsigned)(rnd(&r) % R_COUNTERS);
                struct mem_req *q = &x->req;
                memset(q, 0, sizeof *q);
                q->addr = counter_dev(k);
                q->id = id;
                q->src = (uint16_t)s;
                q->op = MEM_OP_ATOMIC;
                q->size = 32;
                q->atom.aop = PTX_AOP_ADD;
                q->atom.type = PTX_T_U32;
                q->atom.n_lanes = 1;
                q->atom.off[0] = 0;
                q->data[0] = 1;
                sc->n_counter_adds++;
                continue;
            }
            /* private line of SM s: line index = s (mod R_SM), not a counter line */
            uint64_t line;
            do
                line = (rnd(&r) % (R_LINES / R_SM)) * R_SM + s;
            while (is_counter_line(line));
            uint64_t dev = DEVMEM_BASE + line * MEM_LINE_BYTES;
            if (kind < 45) {
                x->req = mk_read(dev, id, (uint16_t)s);
            } else if (kind < 85) { /* write 32 B segment, random byte mask */
                struct mem_req *q = &x->req;
                memset(q, 0, sizeof *q);
                uint32_t seg = (uint32_t)(rnd(&r) % 4) * 32;
                q->addr = dev + seg;
                q->id = id;
                q->src = (uint16_t)s;
                q->op = MEM_OP_WRITE;
                q->size = 32;
                uint64_t bits = rnd(&r) | 1;
                for (uint32_t b = 0; b < 32; b++)
                    if ((bits >> b) & 1) {
                        mem_mask_set(q->mask, seg + b);
                        q->data[seg + b] = (uint8_t)rnd(&r);
                    }
            } else { /* private atomic: 1-4 lanes of add/exch/cas on u32 words of one 32 B segment */
                struct mem_req *q = &x->req;
                memset(q, 0, sizeof *q);
                uint32_t seg = (uint32_t)(rnd(&r) % 4) * 32;
                q->addr = dev + seg;
                q->id = id;
                q->src = (uint16_t)s;
                q->op = MEM_OP_ATOMIC;
                q->size = 32;
                unsigned which = (unsigned)(rnd(&r) % 3);
                q->atom.aop = which == 0 ? PTX_AOP_ADD : which == 1 ? PTX_AOP_EXCH : PTX_AOP_CAS;
                q->atom.type = PTX_T_U32;
                unsigned lanes = 1 + (unsigned)(rnd(&r) % 4);
                q->atom.n_lanes = (uint8_t)lanes;
                unsigned stride = which == 2 ? 8 : 4;
                for (unsigned k = 0; k < lanes; k++) {
                    q->atom.off[k] = (uint8_t)(seg + (rnd(&r) % 8) * 4);
                    uint32_t b = (uint32_t)rnd(&r), cc = (uint32_t)rnd(&r);
                    memcpy(q->data + k * stride, &b, 4);
                    if (which == 2) {
                        if (rnd(&r) & 1) /* make half of the CAS compare against the current value */
                            b = 0xFFFFFFFFu;
                        memcpy(q->data + k * stride, &b, 4);
                        memcpy(q->data + k * stride + 4, &cc, 4);
                    }
                }
            }
        }
    }
}

static void scen_free(struct scen *sc)
{
    for (unsigned s = 0; s < R_SM; s++)
        free(sc->scr[s]);
    free(sc->image);
}

/* Reference: apply each SM's requests in its program order on a flat copy
 * (SMs own disjoint lines; per-pair FIFO order and L2 order per slice keep
 * program order). Fills want[s][i] (expected reply) for private requests.
 * fault: 1 = the reference drops SM 0's 5th write (injected fault). */
static void reference(const struct scen *sc, uint8_t *mem, struct mem_reply **want, int fault)
{
    memcpy(mem, sc->image, R_DEV_BYTES);
    for (unsigned s = 0; s < R_SM; s++) {
        unsigned writes = 0;
        for (size_t i = 0; i < sc->n[s]; i++) {
            const struct mem_req *q = &sc->scr[s][i].req;
            struct mem_reply *w = &want[s][i];
            memset(w, 0, sizeof *w);
            uint64_t a = q->addr - DEVMEM_BASE;
            uint8_t *line = mem + mem_line_of(a);
            w->id = q->id;
            w->op = q->op;
            if (q->op == MEM_OP_READ) {
                memcpy(w->data, line, MEM_LINE_BYTES);
            } else if (q->op == MEM_OP_WRITE) {
                if (fault == 1 && s == 0 && ++writes == 5)
                    continue;
                for (uint32_t b = 0; b < MEM_LINE_BYTES; b++)
                    if (mem_mask_test(q->mask, b))
                        line[b] = q->data[b];
            } else if (!is_counter_line(mem_line_of(a) / MEM_LINE_BYTES)) {
                bool cas = q->atom.aop == PTX_AOP_CAS;
                for (unsigned k = 0; k < q->atom.n_lanes; k++) {
                    uint32_t old, b, c;
                    memcpy(&old, line + q->atom.off[k], 4);
                    memcpy(&b, q->data + k * (cas ? 8 : 4), 4);
                    memcpy(&c, q->data + k * 8 + 4, 4);
                    uint32_t nv = q->atom.aop == PTX_AOP_ADD ? old + b : q->atom.aop == PTX_AOP_EXCH ? b
                                                                                                  : (old == b ? c : old);
                    memcpy(line + q->atom.off[k], &nv, 4);
                    memcpy(w->data + k * 4, &old, 4);
                }
                w->n_lanes = q->atom.n_lanes;
            }
        }
    }
}

/* Compare the replies of one run with the reference; returns mismatches. */
static unsigned check_replies(const struct tmodel *m, const struct scen *sc, struct mem_reply **want)
{
    unsigned bad = 0;
    for (unsigned s = 0; s < R_SM; s++) {
        const struct fsm *f = m->sm[s];
        if (f->n_got != sc->n[s]) {
            bad++;
            continue;
        }
        for (size_t g = 0; g < f->n_got; g++) {
            const struct mem_reply *r = &f->got[g].rep;
            uint32_t i = r->id & 0xFFFFF;
            const struct mem_req *q = &sc->scr[s][i].req;
            const struct mem_reply *w = &want[s][i];
            if (r->src != s || r->op != q->op || r->addr != q->addr) {
                bad++;
                continue;
            }
            if (q->op == MEM_OP_READ && memcmp(r->data, w->data, MEM_LINE_BYTES) != 0)
                bad++;
            if (q->op == MEM_OP_ATOMIC && !is_counter_line((q->addr - DEVMEM_BASE) / MEM_LINE_BYTES) &&
                (r->n_lanes != w->n_lanes || memcmp(r->data, w->data, 4u * w->n_lanes) != 0))
                bad++;
        }
    }
    return bad;
}

struct run_out {
    char *json;           /* statistics */
    uint64_t digest;      /* hash of every reply (SM, order, time, bytes) */
    unsigned bad_replies; /* against the reference */
    unsigned bad_final;   /* final memory bytes differing (host read) */
    bool counters_ok;     /* shared counters: old values a permutation of 0..n-1, final = n */
    ps_t end;
    uint64_t writebacks;  /* l2.writebacks */
    uint64_t eject_full;  /* icnt.req.rx_eject_full_cycles (both ends' receivers) */
    int rc;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void run_scen(const struct scen *sc, unsigned thr, unsigned smt, unsigned memt, struct run_out *o,
                     const uint8_t *ref_mem, struct mem_reply **want)
{
    struct tmodel m;
    memset(&m, 0, sizeof m);
    struct fsm_in *scr[R_SM];
    size_t n[R_SM];
    for (unsigned s = 0; s < R_SM; s++) {
        scr[s] = sc->scr[s];
        n[s] = sc->n[s];
    }
    model_create(&m, R_SM, 2, R_STORE, true, scr, n, true);
    m.image = sc->image;
    m.image_dev = DEVMEM_BASE;
    m.image_len = R_DEV_BYTES;
    struct eng_result res;
    o->rc = model_run(&m, thr, smt, memt, &res);
    o->end = res.end_time;
    o->json = stats_json(m.stats);
    o->writebacks = 0;
    stats_get_u64(m.stats, "l2.writebacks", &o->writebacks);
    o->eject_full = 0;
    stats_get_u64(m.stats, "icnt.req.rx_eject_full_cycles", &o->eject_full);
    o->digest = 0xcbf29ce484222325ull;
    for (unsigned s = 0; s < R_SM; s++)
        for (size_t g = 0; g < m.sm[s]->n_got; g++)
            o->digest = fnv(o->digest, &m.sm[s]->got[g], sizeof m.sm[s]->got[g]);
    o->bad_replies = check_replies(&m, sc, want);
    /* final memory through the host path (dirty L2 lines included) */
    uint8_t *fin = xmalloc(R_DEV_BYTES);
    bool ok = mpu_host_read(&m.sh, DEVMEM_BASE, fin, R_DEV_BYTES);
    o->bad_final = ok ? 0 : 1;
    uint32_t cnt_final[R_COUNTERS];
    for (unsigned k = 0; k < R_COUNTERS; k++)
        memcpy(&cnt_final[k], fin + (counter_dev(k) - DEVMEM_BASE), 4);
    for (uint32_t i = 0; i < R_DEV_BYTES; i++)
        if (!is_counter_line(i / MEM_LINE_BYTES) && fin[i] != ref_mem[i])
            o->bad_final++;
    /* shared counters: per counter, the old values seen are exactly 0..n_k-1 */
    o->counters_ok = true;
    uint64_t total = 0;
    for (unsigned k = 0; k < R_COUNTERS; k++) {
        uint32_t nk = 0;
        uint8_t *seen = xcalloc(sc->n_counter_adds + 1, 1);
        for (unsigned s = 0; s < R_SM; s++)
            for (size_t g = 0; g < m.sm[s]->n_got; g++) {
                const struct mem_reply *r = &m.sm[s]->got[g].rep;
                if (r->op != MEM_OP_ATOMIC || r->addr != counter_dev(k))
                    continue;
                uint32_t old;
                memcpy(&old, r->data, 4);
                if (old > sc->n_counter_adds || seen[old]++)
                    o->counters_ok = false;
                nk++;
            }
        for (uint32_t v = 0; v < nk; v++)
            if (!seen[v])
                o->counters_ok = false;
        if (cnt_final[k] != nk)
            o->counters_ok = false;
        total += nk;
        free(seen);
    }
    if (total != sc->n_counter_adds)
        o->counters_ok = false;
    free(fin);
    model_destroy(&m);
}

static void test_random(void)
{
    struct scen sc;
    scen_build(&sc, 700, 0x5eed1234abcdull);
    uint8_t *ref_mem = xmalloc(R_DEV_BYTES);
    struct mem_reply *want[R_SM];
    for (unsigned s = 0; s < R_SM; s++)
        want[s] = xcalloc(sc.n[s], sizeof *want[s]);
    reference(&sc, ref_mem, want, 0);

    struct run_out one;
    run_scen(&sc, 1, 0, 0, &one, ref_mem, want);
    TAP_OK(one.rc == 0, "random: runs on 1 thread (end %llu ps)", (unsigned long long)one.end);
    TAP_EQ_U64(one.bad_replies, 0, "random: every read/atomic reply matches the flat reference (4 SMs x 700)");
    TAP_EQ_U64(one.bad_final, 0, "random: final memory (host read through L2) matches the reference");
    TAP_OK(one.counters_ok, "random: %llu shared atomic adds return each old value once, finals = counts",
           (unsigned long long)sc.n_counter_adds);
    TAP_OK(one.writebacks > 100, "random: dirty L2 evictions wrote back to DRAM (%llu)",
           (unsigned long long)one.writebacks);

    uint64_t full = 0;
    TAP_OK(strstr(one.json, "rx_eject_full_cycles") != NULL && one.eject_full > 0,
           "random: request receivers waited for full L2 inputs (%llu cycles) and no request was lost",
           (unsigned long long)one.eject_full);
    (void)full;
    const struct { unsigned t, smt, memt; } cfgs[] = {{2, 0, 0}, {3, 0, 0}, {0, 1, 2}, {0, 2, 1}};
    for (size_t i = 0; i < ARRAY_LEN(cfgs); i++) {
        struct run_out o;
        run_scen(&sc, cfgs[i].t, cfgs[i].smt, cfgs[i].memt, &o, ref_mem, want);
        TAP_OK(o.rc == 0 && o.digest == one.digest && o.end == one.end && o.bad_replies == 0 && o.bad_final == 0,
               "random: threads %u (sm %u / mem %u): same replies, times and values as 1 thread", cfgs[i].t,
               cfgs[i].smt, cfgs[i].memt);
        TAP_OK(o.json && one.json && strcmp(o.json, one.json) == 0,
               "random: threads %u (sm %u / mem %u): statistics JSON byte-identical", cfgs[i].t, cfgs[i].smt,
               cfgs[i].memt);
        free(o.json);
    }

    /* Injected faults: the checkers must see a wrong reference. */
    uint8_t *bad_mem = xmalloc(R_DEV_BYTES);
    struct mem_reply *bad_want[R_SM];
    for (unsigned s = 0; s < R_SM; s++)
        bad_want[s] = xcalloc(sc.n[s], sizeof *bad_want[s]);
    reference(&sc, bad_mem, bad_want, 1);
    struct run_out f;
    run_scen(&sc, 2, 0, 0, &f, bad_mem, bad_want);
    TAP_OK(f.bad_replies + f.bad_final > 0,
           "fault: a reference that drops one write is caught (%u reply + %u byte mismatches)", f.bad_replies,
           f.bad_final);
    free(f.json);
    for (unsigned s = 0; s < R_SM; s++)
        free(bad_want[s]);
    free(bad_mem);
    free(one.json);
    for (unsigned s = 0; s < R_SM; s++)
        free(want[s]);
    free(ref_mem);
    scen_free(&sc);
}

int main(void)
{
    tap_no_plan();
    test_isolated_read();
    test_random();
    return tap_exit();
}
