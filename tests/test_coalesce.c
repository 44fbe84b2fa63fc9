/* tests/test_coalesce.c: the LD/ST coalescer (sim/sm/lsu/coalesce.c) and the
 * shared-memory bank-conflict model (sim/sm/lsu/smem_banks.c).
 *
 * Every expected value is computed by hand from the gtx480 defaults
 * (coalesce.line 128 B, coalesce.sector 32 B, flit 32 B and header 8 B
 * as icnt_net.flit/header; smem_banks.n_banks 32, width 4 B, warp_parts 1,
 * wide = phases) and the spec's rules (baseline-gpu.md 2.6, 2.7, 3.3); the
 * arithmetic is in the comment next to each value. Packet sizes: flits =
 * ceil((8 + payload) / 32): 0 B -> 1, 32 B -> 2, 64 B -> 3, 128 B -> 5.
 *
 * Both units are also compared with naive reference models written here
 * (byte-by-byte for the coalescer, bank-by-bank for shared memory) on
 * thousands of random warps, and the comparison is shown to catch a wrong
 * model (injected faults). There are no queues in these pure functions, so
 * "backpressure" reduces to the bounded output array: 32 scattered lanes fill
 * exactly COAL_MAX_TXN entries without writing past them, and every active
 * lane and byte is accounted for exactly once (nothing lost).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/sm/lsu/coalesce.h"
#include "sim/sm/lsu/smem_banks.h"
#include "sim/base/stats.h"
#include "tap.h"

#define ALL 0xFFFFFFFFu
#define ONES ~0ull

/* ------------------------------------------------------------ random */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* ------------------------------------------------------ coalescer helpers */

static unsigned run(const struct coalescer *c, uint32_t active, const uint64_t *addr, unsigned size, unsigned op,
                    unsigned cop, struct coal_txn *out)
{
    struct coal_req r = {addr, active, (uint8_t)size, (uint8_t)op, (uint8_t)cop};
    return coalescer_run(c, &r, out);
}

/* Compare one transaction with expected fields; one TAP line. */
static void check_txn(const struct coal_txn *t, uint64_t line, uint32_t lanes, uint64_t b0, uint64_t b1,
                      uint32_t sectors, unsigned seg_off, unsigned seg_size, unsigned req, unsigned reply,
                      int bypass, const char *name)
{
    int ok = t->line_addr == line && t->lanes == lanes && t->bytes[0] == b0 && t->bytes[1] == b1 &&
             t->sectors == sectors && t->seg_offset == seg_off && t->seg_size == seg_size &&
             t->req_flits == req && t->reply_flits == reply && t->l1_bypass == (bool)bypass;
    if (!TAP_OK(ok, "%s", name)) {
        tap_diag("got  line 0x%llx lanes 0x%08x bytes %016llx:%016llx sectors 0x%x seg %u/%u flits %u/%u bypass %d",
                 (unsigned long long)t->line_addr, t->lanes, (unsigned long long)t->bytes[1],
                 (unsigned long long)t->bytes[0], t->sectors, t->seg_offset, t->seg_size, t->req_flits,
                 t->reply_flits, t->l1_bypass);
        tap_diag("want line 0x%llx lanes 0x%08x bytes %016llx:%016llx sectors 0x%x seg %u/%u flits %u/%u bypass %d",
                 (unsigned long long)line, lanes, (unsigned long long)b1, (unsigned long long)b0, sectors,
                 seg_off, seg_size, req, reply, bypass);
    }
}

/* Naive reference coalescer: works byte by byte with plain arrays and loops,
 * independently of the bit tricks and sorting in coalesce.c. */
struct ref_geom {
    unsigned line, sector, flit, header;
};

static unsigned ref_flits(const struct ref_geom *g, unsigned payload)
{
    unsigned flits = 0;
    int rem = (int)(g->header + payload);
    do { /* a packet is at least one flit */
        flits++;
        rem -= (int)g->flit;
    } while (rem > 0);
    return flits;
}

/* bug: 0 = correct; 1 = injected fault (segment = 32 B x number of touched
 * sectors, a plausible but wrong reading of "smallest segment"). */
static unsigned ref_coalesce_split(const struct ref_geom *g, uint32_t active, const uint64_t *addr, unsigned size,
                                   unsigned op, unsigned cop, struct coal_txn *out, int bug, int split)
{
    /* groups: (line, round); round > 0 only for split atomics, where a lane
     * joins the lowest round of its line that has none of its bytes */
    uint64_t lines[32];
    unsigned rounds[32], nl = 0, lane_round[32] = {0};
    unsigned char gbytes[32][128];
    for (unsigned lane = 0; lane < 32; lane++) {
        if (!(active >> lane & 1))
            continue;
        uint64_t l = addr[lane] / g->line * g->line;
        unsigned off = (unsigned)(addr[lane] - l), r = 0;
        for (;;) {
            int k_found = -1, clash = 0;
            for (unsigned k = 0; k < nl; k++)
                if (lines[k] == l && rounds[k] == r) {
                    k_found = (int)k;
                    for (unsigned b = 0; b < size; b++)
                        clash |= gbytes[k][off + b];
                }
            if (k_found < 0) {
                lines[nl] = l;
                rounds[nl] = r;
                memset(gbytes[nl], 0, sizeof gbytes[nl]);
                k_found = (int)nl++;
            } else if (split && op == COAL_ATOMIC && clash) {
                r++;
                continue;
            }
            for (unsigned b = 0; b < size; b++)
                gbytes[k_found][off + b] = 1;
            lane_round[lane] = r;
            break;
        }
    }
    /* selection order: repeatedly take the smallest (line, round) not yet output */
    for (unsigned i = 0; i < nl; i++)
        for (unsigned j = i + 1; j < nl; j++)
            if (lines[j] < lines[i] || (lines[j] == lines[i] && rounds[j] < rounds[i])) {
                uint64_t x = lines[i];
                lines[i] = lines[j];
                lines[j] = x;
                unsigned y = rounds[i];
                rounds[i] = rounds[j];
                rounds[j] = y;
            }
    int bypass = op == COAL_ATOMIC || cop == MEMOP_CO_CG || cop == MEMOP_CO_CV || cop == MEMOP_CO_VOLATILE;
    for (unsigned i = 0; i < nl; i++) {
        struct coal_txn *t = &out[i];
        unsigned char touched[128] = {0};
        memset(t, 0, sizeof *t);
        t->line_addr = lines[i];
        for (unsigned lane = 0; lane < 32; lane++) {
            if (!(active >> lane & 1) || addr[lane] / g->line * g->line != lines[i] || lane_round[lane] != rounds[i])
                continue;
            t->lanes |= 1u << lane;
            for (unsigned b = 0; b < size; b++)
                touched[addr[lane] + b - lines[i]] = 1;
        }
        for (unsigned b = 0; b < g->line; b++)
            if (touched[b])
                t->bytes[b / 64] |= 1ull << (b % 64);
        unsigned nsec = 0;
        for (unsigned s = 0; s < g->line / g->sector; s++)
            for (unsigned b = s * g->sector; b < (s + 1) * g->sector; b++)
                if (touched[b]) {
                    t->sectors |= 1u << s;
                    nsec++;
                    break;
                }
        unsigned seg;
        for (seg = g->sector; seg <= g->line; seg *= 2) {
            /* does one aligned piece of size seg hold every touched byte? */
            int found = 0;
            for (unsigned off = 0; off < g->line && !found; off += seg) {
                int all_in = 1;
                for (unsigned b = 0; b < g->line; b++)
                    if (touched[b] && (b < off || b >= off + seg))
                        all_in = 0;
                if (all_in) {
                    t->seg_offset = (uint16_t)off;
                    found = 1;
                }
            }
            if (found)
                break;
        }
        if (bug) {
            seg = nsec * g->sector;
            if (seg > g->line)
                seg = g->line;
        }
        t->seg_size = (uint16_t)seg;
        t->op = (uint8_t)op;
        t->l1_bypass = bypass;
        unsigned sf = ref_flits(g, seg);
        if (op == COAL_LOAD) {
            t->req_flits = (uint8_t)ref_flits(g, 0);
            t->reply_flits = (uint8_t)(bypass ? sf : ref_flits(g, g->line));
        } else if (op == COAL_STORE) {
            t->req_flits = (uint8_t)sf;
            t->reply_flits = (uint8_t)ref_flits(g, 0);
        } else {
            t->req_flits = t->reply_flits = (uint8_t)sf;
        }
    }
    return nl;
}

static unsigned ref_coalesce(const struct ref_geom *g, uint32_t active, const uint64_t *addr, unsigned size,
                             unsigned op, unsigned cop, struct coal_txn *out, int bug)
{
    return ref_coalesce_split(g, active, addr, size, op, cop, out, bug, 0);
}

/* The checker: number of differing fields between two transaction lists. */
static unsigned txn_diff(const struct coal_txn *a, unsigned na, const struct coal_txn *b, unsigned nb)
{
    if (na != nb)
        return 1000;
    unsigned d = 0;
    for (unsigned i = 0; i < na; i++) {
        d += a[i].line_addr != b[i].line_addr;
        d += a[i].lanes != b[i].lanes;
        d += a[i].bytes[0] != b[i].bytes[0];
        d += a[i].bytes[1] != b[i].bytes[1];
        d += a[i].sectors != b[i].sectors;
        d += a[i].seg_offset != b[i].seg_offset;
        d += a[i].seg_size != b[i].seg_size;
        d += a[i].req_flits != b[i].req_flits;
        d += a[i].reply_flits != b[i].reply_flits;
        d += a[i].op != b[i].op;
        d += a[i].l1_bypass != b[i].l1_bypass;
    }
    return d;
}

/* A random warp instruction: mask, size, aligned addresses, op. */
struct rwarp {
    uint64_t addr[32];
    uint32_t active;
    unsigned size, op, cop;
};

static void random_warp(uint64_t *s, struct rwarp *w, uint64_t window_max)
{
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    w->size = sizes[rng_next(s) % 5];
    w->op = (unsigned)(rng_next(s) % 3);
    w->cop = (unsigned)(rng_next(s) % MEMOP_N_CACHE_OPS);
    unsigned mk = (unsigned)(rng_next(s) % 4);
    w->active = mk == 0 ? ALL : mk == 1 ? (uint32_t)rng_next(s) : mk == 2 ? (uint32_t)(rng_next(s) & rng_next(s))
                                                                         : (ALL >> (rng_next(s) % 32));
    uint64_t base = rng_next(s) % (1u << 24);
    unsigned pat = (unsigned)(rng_next(s) % 5);
    uint64_t stride = (rng_next(s) % 40 + 1) * w->size;
    uint64_t window = rng_next(s) % window_max + 1;
    for (unsigned i = 0; i < 32; i++) {
        uint64_t a;
        switch (pat) {
        case 0: a = base + i * w->size; break;                   /* unit stride */
        case 1: a = base + i * stride; break;                    /* strided */
        case 2: a = base + rng_next(s) % window; break;          /* random in a window */
        case 3: a = base + (i * 7 % 32) * w->size; break;        /* permutation */
        default: a = base; break;                                /* all lanes the same */
        }
        w->addr[i] = a & ~(uint64_t)(w->size - 1);
    }
}

/* ---------------------------------------------------------------- shared memory reference */

/* Naive bank model: per phase, per bank, the list of distinct words
 * (or of all word accesses for atomics); the degree is the longest list.
 * bug 1 = injected fault: no broadcast (same-word reads also counted). */
static unsigned ref_smem(unsigned n_banks, unsigned width, unsigned lanes_per_part, int first_word, uint32_t active,
                         const uint64_t *addr, unsigned size, int atomic, int bug)
{
    unsigned lp = lanes_per_part, wpl = 1;
    if (!first_word && size > width) {
        wpl = size / width;
        lp = n_banks * width / size;
        if (lp == 0)
            lp = 1;
        if (lp > lanes_per_part)
            lp = lanes_per_part;
    }
    unsigned total = 0;
    unsigned n_phases = (32 + lp - 1) / lp;
    for (unsigned ph = 0; ph < n_phases; ph++) {
        unsigned deg = 0;
        for (unsigned bank = 0; bank < n_banks; bank++) {
            uint64_t list[128];
            unsigned n = 0;
            for (unsigned lane = 0; lane < 32; lane++) {
                if (!(active >> lane & 1) || lane / lp != ph)
                    continue;
                for (unsigned k = 0; k < wpl; k++) {
                    uint64_t word = addr[lane] / width + k;
                    if (word % n_banks != bank)
                        continue;
                    int dup = 0;
                    for (unsigned j = 0; j < n; j++)
                        dup |= list[j] == word;
                    if (!dup || atomic || bug)
                        list[n++] = word;
                }
            }
            if (n > deg)
                deg = n;
        }
        total += deg;
    }
    return total;
}

/* --------------------------------------------------------------- panics */

/* Run fn in a child; true when it died of SIGABRT (sim_panic). */
static int dies_with_abort(void (*fn)(void))
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr))
            _exit(3);
        fn();
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static void misaligned_coalesce(void)
{
    struct coalesce_cfg cfg;
    struct coalescer c;
    struct coal_txn out[COAL_MAX_TXN];
    uint64_t a[32];
    coalesce_cfg_defaults(&cfg);
    coalescer_init(&c, &cfg);
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x1000 + 8 * i;
    a[5] = 0x1004 + 8 * 5; /* 8 B access at an address that is 4 mod 8: would straddle */
    run(&c, ALL, a, 8, COAL_LOAD, MEMOP_CO_CA, out);
}

static void misaligned_smem(void)
{
    struct smem_banks_cfg cfg;
    struct smem_banks b;
    uint64_t a[32] = {0};
    smem_banks_cfg_defaults(&cfg);
    smem_banks_init(&b, &cfg);
    a[3] = 2; /* 4 B access at byte 2 */
    smem_banks_cycles(&b, ALL, a, 4, false);
}

/* ================================================================ tests */

static void test_config(void)
{
    struct coalesce_cfg d, p;
    coalesce_cfg_defaults(&d);
    memset(&p, 0xAB, sizeof p);
    int ok = coalesce_cfg_n_keys == 4;
    for (unsigned k = 0; k < coalesce_cfg_n_keys; k++) {
        char why[128];
        const struct cfg_key *key = &coalesce_cfg_keys[k];
        ok &= cfg_parse_value(key, key->def, (char *)&p + key->offset, why, sizeof why);
    }
    TAP_OK(ok && d.line == p.line && d.sector == p.sector && d.atomic_split == p.atomic_split &&
               d.atomic_split == COAL_ATOM_SPLIT_OVERLAP && d.volatile_l1 == p.volatile_l1 &&
               d.volatile_l1 == COAL_VOLATILE_BYPASS,
           "coalesce key table defaults parse and equal coalesce_cfg_defaults");

    struct smem_banks_cfg sd, sp;
    smem_banks_cfg_defaults(&sd);
    memset(&sp, 0, sizeof sp);
    ok = smem_banks_cfg_n_keys == 5;
    for (unsigned k = 0; k < smem_banks_cfg_n_keys; k++) {
        char why[128];
        const struct cfg_key *key = &smem_banks_cfg_keys[k];
        ok &= cfg_parse_value(key, key->def, (char *)&sp + key->offset, why, sizeof why);
    }
    TAP_OK(ok && sd.n_banks == sp.n_banks && sd.width == sp.width && sd.warp_parts == sp.warp_parts &&
               sd.wide == sp.wide && sd.latency == sp.latency && sd.latency == 1,
           "smem_banks key table defaults parse and equal the defaults");

    char why[128];
    uint64_t v = 0;
    TAP_OK(!cfg_parse_value(&coalesce_cfg_keys[0], "256", &v, why, sizeof why),
           "coalesce.line 256 is rejected by the key range (byte mask holds 128 B)");
}

static void test_coalesce_hand(const struct coalescer *c)
{
    struct coal_txn o[COAL_MAX_TXN];
    uint64_t a[32];
    unsigned n;

    /* 1. Fully coalesced 4 B loads: lanes cover 0x1000..0x107F = one line,
     * all 128 bytes, 4 sectors; read request 1 flit, reply a line = ceil(136/32) = 5. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x1000 + 4 * i;
    n = run(c, ALL, a, 4, COAL_LOAD, MEMOP_CO_CA, o);
    TAP_EQ_U64(n, 1, "unit-stride 4 B loads: 1 transaction");
    check_txn(&o[0], 0x1000, ALL, ONES, ONES, 0xF, 0, 128, 1, 5, 0, "unit-stride 4 B: line 0x1000, 4 sectors, 1/5 flits");

    /* 2. Stride 2 words (8 B apart): bytes 0x2000..0x20FF = 2 lines; lanes
     * 0-15 in the first, 16-31 in the second; first 4 of every 8 bytes = 0x0F per byte pair. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x2000 + 8 * i;
    n = run(c, ALL, a, 4, COAL_LOAD, MEMOP_CO_CA, o);
    TAP_EQ_U64(n, 2, "stride-2 4 B loads: 2 transactions");
    check_txn(&o[0], 0x2000, 0x0000FFFF, 0x0F0F0F0F0F0F0F0Full, 0x0F0F0F0F0F0F0F0Full, 0xF, 0, 128, 1, 5, 0,
              "stride-2: first line, lanes 0-15, byte mask 0x0F.. ");
    check_txn(&o[1], 0x2080, 0xFFFF0000, 0x0F0F0F0F0F0F0F0Full, 0x0F0F0F0F0F0F0F0Full, 0xF, 0, 128, 1, 5, 0,
              "stride-2: second line, lanes 16-31");

    /* 3. Stride 32 words (128 B): one line per lane = 32 transactions, each 4
     * bytes in sector 0; as a .cg load the reply is the 32 B segment = ceil(40/32) = 2 flits. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x10000 + 128 * i;
    n = run(c, ALL, a, 4, COAL_LOAD, MEMOP_CO_CG, o);
    TAP_EQ_U64(n, 32, "stride-32-word loads: 32 transactions");
    int ok = 1;
    for (unsigned i = 0; i < n; i++)
        ok &= o[i].line_addr == 0x10000 + 128 * i && o[i].lanes == 1u << i && o[i].bytes[0] == 0xF &&
              o[i].bytes[1] == 0 && o[i].sectors == 1 && o[i].seg_offset == 0 && o[i].seg_size == 32 &&
              o[i].req_flits == 1 && o[i].reply_flits == 2 && o[i].l1_bypass;
    TAP_OK(ok, "stride-32-word .cg: txn i = line 0x10000+128i, lane i, sector 0, seg 32, flits 1/2, bypass");

    /* 4. Random permutation of the 32 words of one line: 1 transaction, same as case 1. */
    uint64_t s = 12345;
    unsigned perm[32];
    for (unsigned i = 0; i < 32; i++)
        perm[i] = i;
    for (unsigned i = 31; i > 0; i--) {
        unsigned j = (unsigned)(rng_next(&s) % (i + 1)), x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x1000 + 4 * perm[i];
    n = run(c, ALL, a, 4, COAL_LOAD, MEMOP_CO_CA, o);
    TAP_EQ_U64(n, 1, "permutation within a line: 1 transaction");
    check_txn(&o[0], 0x1000, ALL, ONES, ONES, 0xF, 0, 128, 1, 5, 0, "permutation: all bytes, 4 sectors");

    /* 5. Partially active: lanes 0-15 of case 1 as a store: bytes 0..63,
     * sectors 0,1 -> segment 0/64 B -> ceil((8+64)/32) = 3 flits, ack 1 flit. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x3000 + 4 * i;
    n = run(c, 0x0000FFFF, a, 4, COAL_STORE, MEMOP_CO_CA, o);
    TAP_EQ_U64(n, 1, "half-warp store: 1 transaction");
    check_txn(&o[0], 0x3000, 0x0000FFFF, ONES, 0, 0x3, 0, 64, 3, 1, 0, "half-warp store: seg 64 B, 3 flits, ack 1");
    /* odd lanes only: lane i covers bytes 4i..4i+3, odd i -> 0xF0 in every 8 bytes; span 4..127 -> 128 B, 5 flits */
    n = run(c, 0xAAAAAAAA, a, 4, COAL_STORE, MEMOP_CO_CA, o);
    check_txn(&o[0], 0x3000, 0xAAAAAAAA, 0xF0F0F0F0F0F0F0F0ull, 0xF0F0F0F0F0F0F0F0ull, 0xF, 0, 128, 5, 1, 0,
              "odd lanes store: byte mask 0xF0.., seg 128, 5 flits");
    /* lanes 8..11 only: bytes 32..47 -> sector 1 -> seg 32/32 -> 2 flits */
    n = run(c, 0x00000F00, a, 4, COAL_STORE, MEMOP_CO_CA, o);
    check_txn(&o[0], 0x3000, 0x00000F00, 0x0000FFFF00000000ull, 0, 0x2, 32, 32, 2, 1, 0,
              "lanes 8-11 store: sector 1, seg 32 B at offset 32, 2 flits");
    /* no active lane: nothing */
    TAP_EQ_U64(run(c, 0, a, 4, COAL_LOAD, MEMOP_CO_CA, o), 0, "no active lane: 0 transactions");

    /* 6. 8 B vectors, unit stride: 32 x 8 = 256 B = 2 lines of 16 lanes. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x4000 + 8 * i;
    n = run(c, ALL, a, 8, COAL_LOAD, MEMOP_CO_CA, o);
    TAP_EQ_U64(n, 2, "8 B unit stride: 2 transactions (256 B)");
    check_txn(&o[0], 0x4000, 0x0000FFFF, ONES, ONES, 0xF, 0, 128, 1, 5, 0, "8 B: line 0x4000 lanes 0-15");
    check_txn(&o[1], 0x4080, 0xFFFF0000, ONES, ONES, 0xF, 0, 128, 1, 5, 0, "8 B: line 0x4080 lanes 16-31");
    /* 16 B vectors: 32 x 16 = 512 B = 4 lines of 8 lanes */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x8000 + 16 * i;
    n = run(c, ALL, a, 16, COAL_LOAD, MEMOP_CO_CA, o);
    TAP_EQ_U64(n, 4, "16 B unit stride: 4 transactions (512 B)");
    ok = 1;
    for (unsigned i = 0; i < 4; i++)
        ok &= o[i].line_addr == 0x8000 + 128 * i && o[i].lanes == 0xFFu << (8 * i) && o[i].bytes[0] == ONES &&
              o[i].bytes[1] == ONES && o[i].sectors == 0xF;
    TAP_OK(ok, "16 B: line 0x8000+128k holds lanes 8k..8k+7, all bytes");
    /* 16 B, 2 lanes in one sector-pair: lane 0 at +0x20, lane 1 at +0x30 -> bytes 32..63 -> seg 32/32 */
    a[0] = 0x8020;
    a[1] = 0x8030;
    n = run(c, 0x3, a, 16, COAL_STORE, MEMOP_CO_CA, o);
    check_txn(&o[0], 0x8000, 0x3, 0xFFFFFFFF00000000ull, 0, 0x2, 32, 32, 2, 1, 0, "two 16 B stores in sector 1: seg 32");

    /* 7. Unaligned base crossing into the next line: 4 B lanes from 0x5040:
     * bytes 0x5040..0x50BF. Line 0x5000: lanes 0-15, bytes 64..127, sectors
     * 2,3, seg 64/64; line 0x5080: lanes 16-31, bytes 0..63, sectors 0,1, seg
     * 0/64. Store: 3 flits each. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x5040 + 4 * i;
    n = run(c, ALL, a, 4, COAL_STORE, MEMOP_CO_CA, o);
    TAP_EQ_U64(n, 2, "base 0x5040: 2 transactions");
    check_txn(&o[0], 0x5000, 0x0000FFFF, 0, ONES, 0xC, 64, 64, 3, 1, 0, "base 0x5040: upper half of 0x5000, seg 64@64");
    check_txn(&o[1], 0x5080, 0xFFFF0000, ONES, 0, 0x3, 0, 64, 3, 1, 0, "base 0x5040: lower half of 0x5080, seg 64@0");

    /* 8. Byte and half-word stores. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x6000 + i; /* 32 bytes 0..31 */
    n = run(c, ALL, a, 1, COAL_STORE, MEMOP_CO_CA, o);
    check_txn(&o[0], 0x6000, ALL, 0xFFFFFFFFull, 0, 0x1, 0, 32, 2, 1, 0,
              "32 byte stores 0..31: byte mask 32 bits, seg 32, ceil(40/32) = 2 flits");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x6100 + 2 * i; /* 64 bytes 0..63 */
    n = run(c, ALL, a, 2, COAL_STORE, MEMOP_CO_CA, o);
    check_txn(&o[0], 0x6100, ALL, ONES, 0, 0x3, 0, 64, 3, 1, 0,
              "32 half-word stores 0..63: seg 64, ceil(72/32) = 3 flits");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x6220 + 2 * i; /* bytes 32..95: crosses the 64 B boundary */
    n = run(c, ALL, a, 2, COAL_STORE, MEMOP_CO_CA, o);
    check_txn(&o[0], 0x6200, ALL, 0xFFFFFFFF00000000ull, 0x00000000FFFFFFFFull, 0x6, 0, 128, 5, 1, 0,
              "half-words at bytes 32..95: 2 sectors but no aligned 64 B piece holds them -> seg 128, 5 flits");
    a[0] = 0x6347; /* one byte at offset 71 */
    n = run(c, 0x1, a, 1, COAL_STORE, MEMOP_CO_CA, o);
    check_txn(&o[0], 0x6300, 0x1, 0, 1ull << 7, 0x4, 64, 32, 2, 1, 0, "one byte at offset 71: sector 2, seg 32@64, 2 flits");
    a[0] = 0x6400;
    a[1] = 0x643F; /* bytes 0 and 63 */
    n = run(c, 0x3, a, 1, COAL_STORE, MEMOP_CO_CA, o);
    check_txn(&o[0], 0x6400, 0x3, 1ull | 1ull << 63, 0, 0x3, 0, 64, 3, 1, 0, "bytes 0 and 63: seg 64@0, 3 flits");

    /* 9. Atomics: always bypass; both directions sized like a store. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x7004; /* every lane on one word */
    n = run(c, ALL, a, 4, COAL_ATOMIC, MEMOP_CO_CA, o);
    TAP_EQ_U64(n, 1, "32 atomics on one word: 1 transaction (lanes applied in lane order at L2)");
    check_txn(&o[0], 0x7000, ALL, 0xF0, 0, 0x1, 0, 32, 2, 2, 1, "same-word atomics: bytes 4..7, seg 32, 2/2 flits, bypass");
    for (unsigned i = 0; i < 4; i++)
        a[i] = 0x7000 + 64 * i; /* offsets 0, 64 | 0, 64 of the next line */
    n = run(c, 0xF, a, 4, COAL_ATOMIC, MEMOP_CO_CA, o);
    TAP_EQ_U64(n, 2, "atomics over 2 lines: 2 transactions");
    check_txn(&o[0], 0x7000, 0x3, 0xF, 0xF, 0x5, 0, 128, 5, 5, 1, "atomics line 0x7000: lanes 0,1, sectors 0,2, seg 128, 5/5");
    check_txn(&o[1], 0x7080, 0xC, 0xF, 0xF, 0x5, 0, 128, 5, 5, 1, "atomics line 0x7080: lanes 2,3");

    /* 10. Cache operators: bypass for .cg .cv .volatile loads only. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x1000 + 4 * i;
    static const unsigned cops[] = {MEMOP_CO_CA, MEMOP_CO_CG, MEMOP_CO_CS, MEMOP_CO_LU, MEMOP_CO_CV, MEMOP_CO_VOLATILE};
    static const int want_bypass[] = {0, 1, 0, 0, 1, 1};
    ok = 1;
    for (unsigned k = 0; k < ARRAY_LEN(cops); k++) {
        run(c, ALL, a, 4, COAL_LOAD, cops[k], o);
        /* full-line read: reply 5 flits either way (segment 128 B = line) */
        ok &= o[0].l1_bypass == want_bypass[k] && o[0].reply_flits == 5;
    }
    TAP_OK(ok, "ca/cs/lu loads use L1, cg/cv/volatile bypass");

    /* 11. Order: lanes touch lines in descending order -> output ascending. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x9000 + 128 * (31 - i);
    n = run(c, ALL, a, 4, COAL_LOAD, MEMOP_CO_CA, o);
    ok = n == 32;
    for (unsigned k = 0; k < n; k++)
        ok &= o[k].line_addr == 0x9000 + 128 * k && o[k].lanes == 1u << (31 - k);
    TAP_OK(ok, "transactions come out in ascending line address");
}

static void test_coalesce_bounds(const struct coalescer *c)
{
    /* Output bound (the "backpressure" of a pure function): 32 scattered lanes
     * fill exactly 32 entries; a canary just past the caller's array stays. */
    struct coal_txn buf[COAL_MAX_TXN + 1];
    memset(&buf[COAL_MAX_TXN], 0x5A, sizeof buf[0]);
    struct coal_txn canary = buf[COAL_MAX_TXN];
    uint64_t a[32];
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x100000 + 4096 * i;
    unsigned n = run(c, ALL, a, 16, COAL_STORE, MEMOP_CO_CA, buf);
    TAP_OK(n == COAL_MAX_TXN && memcmp(&buf[COAL_MAX_TXN], &canary, sizeof canary) == 0,
           "32 lines fill exactly COAL_MAX_TXN entries, nothing written past them");

    /* Nothing lost: on random warps, transaction lane masks partition the
     * active mask, and byte masks equal the union of lane bytes. */
    uint64_t s = 777;
    int ok = 1;
    for (int it = 0; it < 3000 && ok; it++) {
        struct rwarp w;
        random_warp(&s, &w, 8192);
        struct coal_txn o[COAL_MAX_TXN];
        n = run(c, w.active, w.addr, w.size, w.op, w.cop, o);
        uint32_t seen = 0;
        for (unsigned k = 0; k < n; k++) {
            ok &= (seen & o[k].lanes) == 0 && o[k].lanes != 0;
            seen |= o[k].lanes;
            ok &= k == 0 || o[k - 1].line_addr < o[k].line_addr;
        }
        ok &= seen == w.active;
    }
    TAP_OK(ok, "3000 random warps: every active lane in exactly one transaction, lines strictly ascending");
}

static void test_coalesce_random(const struct coalescer *c)
{
    const struct ref_geom g = {128, 32, 32, 8};
    uint64_t s = 0x9E3779B97F4A7C15ull;
    unsigned bad = 0, warps = 20000, txns = 0;
    for (unsigned it = 0; it < warps; it++) {
        struct rwarp w;
        random_warp(&s, &w, it % 2 ? 512 : 65536);
        struct coal_txn got[COAL_MAX_TXN], want[COAL_MAX_TXN];
        unsigned ng = run(c, w.active, w.addr, w.size, w.op, w.cop, got);
        unsigned nw = ref_coalesce(&g, w.active, w.addr, w.size, w.op, w.cop, want, 0);
        txns += ng;
        if (txn_diff(got, ng, want, nw)) {
            if (bad++ < 3)
                tap_diag("mismatch at warp %u (size %u, mask 0x%08x)", it, w.size, w.active);
        }
    }
    TAP_EQ_U64(bad, 0, "20000 random warps: coalescer equals the naive byte-level reference (%u txns)", txns);

    /* Determinism: the same seed gives the same transactions, call after call. */
    uint64_t s1 = 42, s2 = 42;
    unsigned diff = 0;
    for (int it = 0; it < 2000; it++) {
        struct rwarp w1, w2;
        random_warp(&s1, &w1, 4096);
        random_warp(&s2, &w2, 4096);
        struct coal_txn o1[COAL_MAX_TXN], o2[COAL_MAX_TXN];
        unsigned n1 = run(c, w1.active, w1.addr, w1.size, w1.op, w1.cop, o1);
        unsigned n2 = run(c, w2.active, w2.addr, w2.size, w2.op, w2.cop, o2);
        diff += txn_diff(o1, n1, o2, n2);
    }
    TAP_EQ_U64(diff, 0, "determinism: identical inputs give identical transaction lists");

    /* Injected faults. (a) The checker reports a deliberately wrong expected
     * set: the right answer for unit-stride 4 B loads with one byte-mask bit
     * flipped, and with the segment halved. */
    uint64_t a[32];
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x1000 + 4 * i;
    struct coal_txn got[COAL_MAX_TXN], want[COAL_MAX_TXN];
    unsigned ng = run(c, ALL, a, 4, COAL_LOAD, MEMOP_CO_CA, got);
    unsigned nw = ref_coalesce(&g, ALL, a, 4, COAL_LOAD, MEMOP_CO_CA, want, 0);
    TAP_EQ_U64(txn_diff(got, ng, want, nw), 0, "fault check baseline: correct expected set matches");
    want[0].bytes[1] ^= 1ull << 17;
    TAP_OK(txn_diff(got, ng, want, nw) == 1, "fault: one flipped byte-mask bit in the expected set is reported");
    want[0].bytes[1] ^= 1ull << 17;
    want[0].seg_size = 64;
    TAP_OK(txn_diff(got, ng, want, nw) >= 1, "fault: a wrong expected segment size is reported");
    TAP_OK(txn_diff(got, ng, want, nw - 1) > 0, "fault: a missing expected transaction is reported");

    /* (b) A plausible wrong model (segment = 32 B x touched sectors) is caught
     * by the random comparison. */
    s = 0x9E3779B97F4A7C15ull;
    bad = 0;
    for (unsigned it = 0; it < warps; it++) {
        struct rwarp w;
        random_warp(&s, &w, it % 2 ? 512 : 65536);
        ng = run(c, w.active, w.addr, w.size, w.op, w.cop, got);
        nw = ref_coalesce(&g, w.active, w.addr, w.size, w.op, w.cop, want, 1);
        bad += txn_diff(got, ng, want, nw) != 0;
    }
    TAP_OK(bad > 0, "fault: the random comparison catches a wrong segment rule (%u of %u warps differ)", bad, warps);
}

/* coalesce.atomic_split = sector: the overlap rule within one 32-byte sector
 * (GPGPU-Sim 4.x's Fermi atomics). */
static void test_atomic_sector(const struct coalescer *c)
{
    uint64_t a[32];
    struct coal_txn o[COAL_MAX_TXN];
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x7000 + 4 * i; /* 32 words of one line: 4 sectors */
    unsigned n = run(c, ALL, a, 4, COAL_ATOMIC, MEMOP_CO_CA, o);
    int ok = n == 4;
    for (unsigned i = 0; i < n && ok; i++)
        ok &= o[i].line_addr == 0x7000 && o[i].lanes == 0xFFu << (8 * i) && o[i].seg_size == 32 &&
              o[i].req_flits == 2 && o[i].reply_flits == 2;
    TAP_OK(ok, "sector: 32 atomics on 32 words of a line: 4 transactions of 8 lanes, one per sector");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x7000 + 4 * (i % 2) + 32 * ((i / 2) % 2); /* lanes alternate between two words in each of two sectors */
    n = run(c, ALL, a, 4, COAL_ATOMIC, MEMOP_CO_CA, o);
    TAP_OK(n == 16 && o[0].lanes == 0x3u && o[1].lanes == 0xCu && o[0].bytes[0] == 0xFFull &&
               o[1].bytes[0] == 0xFFull << 32,
           "sector: 8 lanes on each of 2 words in each of 2 sectors: 8 rounds per sector, 16 transactions (got %u)", n);
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x7004;
    n = run(c, ALL, a, 4, COAL_ATOMIC, MEMOP_CO_CA, o);
    TAP_OK(n == 32, "sector: 32 atomics on one word: still 32 transactions");
    n = run(c, ALL, a, 4, COAL_LOAD, MEMOP_CO_CA, o);
    TAP_OK(n == 1, "sector: loads are not affected");
}

/* coalesce.volatile_l1 (NOTE(volatile-l1)): both modes keep ld.volatile a
 * bypassing, segment-sized read; mshr only marks it for the L1D (vol_mshr).
 * Other operators and st.volatile do not change. */
static void test_volatile_l1(const struct coalesce_cfg *base)
{
    struct coalesce_cfg cfg = *base;
    struct coalescer byp, vm;
    cfg.atomic_split = COAL_ATOM_SPLIT_OVERLAP;
    cfg.volatile_l1 = COAL_VOLATILE_BYPASS;
    coalescer_init(&byp, &cfg);
    cfg.volatile_l1 = COAL_VOLATILE_MSHR;
    coalescer_init(&vm, &cfg);
    uint64_t a[32];
    struct coal_txn o[COAL_MAX_TXN], p[COAL_MAX_TXN];
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x9040 + 4 * (i % 8); /* 8 words = sector 2 of one line */
    unsigned n = run(&byp, ALL, a, 4, COAL_LOAD, MEMOP_CO_VOLATILE, o);
    TAP_OK(n == 1 && o[0].l1_bypass && !o[0].vol_mshr && o[0].seg_offset == 0x40 && o[0].seg_size == 32 &&
               o[0].reply_flits == 2 && o[0].req_flits == 1,
           "volatile_l1 = bypass: ld.volatile reads its 32 B segment at 0x40, reply 8 B header + 32 B = 2 flits");
    n = run(&vm, ALL, a, 4, COAL_LOAD, MEMOP_CO_VOLATILE, o);
    TAP_OK(n == 1 && o[0].l1_bypass && o[0].vol_mshr && o[0].seg_offset == 0x40 && o[0].seg_size == 32 &&
               o[0].lanes == ALL && o[0].sectors == 0x4,
           "volatile_l1 = mshr: the same bypassing transaction, marked vol_mshr for the L1D");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0xA000 + 128 * (i % 3) + 4 * i; /* 3 lines */
    n = run(&vm, ALL, a, 4, COAL_LOAD, MEMOP_CO_VOLATILE, o);
    unsigned m = run(&byp, ALL, a, 4, COAL_LOAD, MEMOP_CO_VOLATILE, p);
    int ok = n == 3 && m == 3;
    for (unsigned i = 0; i < n && ok; i++) {
        ok &= o[i].vol_mshr && !p[i].vol_mshr && o[i].line_addr == p[i].line_addr && o[i].lanes == p[i].lanes &&
              o[i].bytes[0] == p[i].bytes[0] && o[i].bytes[1] == p[i].bytes[1] && o[i].sectors == p[i].sectors &&
              o[i].seg_offset == p[i].seg_offset && o[i].seg_size == p[i].seg_size &&
              o[i].req_flits == p[i].req_flits && o[i].reply_flits == p[i].reply_flits && o[i].l1_bypass &&
              p[i].l1_bypass;
    }
    TAP_OK(ok, "volatile_l1 = mshr: 3 lines, each transaction equal to bypass's but for vol_mshr");
    n = run(&vm, ALL, a, 4, COAL_LOAD, MEMOP_CO_CG, o);
    ok = n == 3 && o[0].l1_bypass && !o[0].vol_mshr;
    n = run(&vm, ALL, a, 4, COAL_LOAD, MEMOP_CO_CV, o);
    ok &= n == 3 && o[0].l1_bypass && !o[0].vol_mshr;
    n = run(&vm, ALL, a, 4, COAL_LOAD, MEMOP_CO_CA, o);
    ok &= n == 3 && !o[0].l1_bypass && !o[0].vol_mshr;
    n = run(&vm, 1, a, 4, COAL_ATOMIC, MEMOP_CO_VOLATILE, o);
    ok &= n == 1 && o[0].l1_bypass && !o[0].vol_mshr;
    n = run(&vm, ALL, a, 4, COAL_STORE, MEMOP_CO_VOLATILE, o);
    ok &= n == 3 && o[0].l1_bypass && !o[0].vol_mshr;
    TAP_OK(ok, "volatile_l1 = mshr: .cg/.cv/.ca loads, atomics and st.volatile unchanged");
}

/* coalesce.atomic_split = overlap (NOTE(atomic-grouping)): hand cases and
 * the byte-level reference with GPGPU-Sim's first-fit rule. */
static void test_atomic_split(const struct coalescer *c)
{
    uint64_t a[32];
    struct coal_txn o[COAL_MAX_TXN];
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x7004; /* every lane on one word */
    unsigned n = run(c, ALL, a, 4, COAL_ATOMIC, MEMOP_CO_CA, o);
    int ok = n == 32;
    for (unsigned i = 0; i < n; i++)
        ok &= o[i].line_addr == 0x7000 && o[i].lanes == 1u << i && o[i].bytes[0] == 0xF0 && o[i].seg_size == 32 &&
              o[i].req_flits == 2 && o[i].reply_flits == 2;
    TAP_OK(ok, "split: 32 atomics on one word: 32 transactions, lane i in the i-th, each 4 B in a 32 B segment");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x7000 + 4 * (i % 16); /* lanes i and i + 16 share a word */
    n = run(c, ALL, a, 4, COAL_ATOMIC, MEMOP_CO_CA, o);
    TAP_OK(n == 2 && o[0].lanes == 0x0000FFFFu && o[1].lanes == 0xFFFF0000u && o[0].bytes[0] == ~0ull &&
               o[1].bytes[0] == ~0ull,
           "split: two lanes per word: lanes 0-15 first, then 16-31 (lane order kept per word)");
    for (unsigned i = 0; i < 4; i++)
        a[i] = i < 2 ? 0x7080 : 0x7000; /* lanes 0,1 on one word of line 0x7080; 2,3 on one of 0x7000 */
    n = run(c, 0xF, a, 4, COAL_ATOMIC, MEMOP_CO_CA, o);
    TAP_OK(n == 4 && o[0].line_addr == 0x7000 && o[0].lanes == 0x4 && o[1].line_addr == 0x7000 && o[1].lanes == 0x8 &&
               o[2].line_addr == 0x7080 && o[2].lanes == 0x1 && o[3].line_addr == 0x7080 && o[3].lanes == 0x2,
           "split: lines ascending, each line's rounds in lane order");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x7004;
    n = run(c, ALL, a, 4, COAL_LOAD, MEMOP_CO_CG, o);
    TAP_OK(n == 1 && o[0].lanes == ALL, "split: loads of one word stay one transaction");
    n = run(c, ALL, a, 4, COAL_STORE, MEMOP_CO_CA, o);
    TAP_OK(n == 1 && o[0].lanes == ALL, "split: stores of one word stay one transaction");

    const struct ref_geom g = {128, 32, 32, 8};
    uint64_t s = 0xA70Bull;
    unsigned bad = 0, txns = 0, warps = 20000, split_warps = 0;
    for (unsigned it = 0; it < warps; it++) {
        struct rwarp w;
        random_warp(&s, &w, it % 2 ? 256 : 65536); /* small ranges: many shared words */
        struct coal_txn got[COAL_MAX_TXN], want[COAL_MAX_TXN];
        unsigned ng = run(c, w.active, w.addr, w.size, w.op, w.cop, got);
        unsigned nw = ref_coalesce_split(&g, w.active, w.addr, w.size, w.op, w.cop, want, 0, 1);
        txns += ng;
        if (txn_diff(got, ng, want, nw) && bad++ < 3)
            tap_diag("split mismatch at warp %u (size %u, op %u, mask 0x%08x)", it, w.size, w.op, w.active);
        nw = ref_coalesce_split(&g, w.active, w.addr, w.size, w.op, w.cop, want, 0, 0);
        split_warps += txn_diff(got, ng, want, nw) != 0;
    }
    TAP_EQ_U64(bad, 0, "split: 20000 random warps equal the byte-level first-fit reference (%u txns)", txns);
    TAP_OK(split_warps > 1000, "split: the check can fail: %u of them differ from one transaction per line",
           split_warps);
}

static void test_coalesce_geometry(void)
{
    /* Packet sizing with the newer 40 B flit (tested-cfgs): ceil((8+0)/40) = 1,
     * ceil((8+32)/40) = 1, ceil((8+64)/40) = 2, ceil((8+128)/40) = 4. */
    struct coalesce_cfg cfg;
    struct coalescer c;
    coalesce_cfg_defaults(&cfg);
    cfg.flit = 40;
    coalescer_init(&c, &cfg);
    TAP_OK(coalescer_flits(&c, 0) == 1 && coalescer_flits(&c, 32) == 1 && coalescer_flits(&c, 64) == 2 &&
               coalescer_flits(&c, 128) == 4,
           "40 B flits: 0/32/64/128 B payloads take 1/1/2/4 flits");

    /* 64 B lines with 16 B sectors: 4 B lanes at 0..127 -> 2 lines of 16
     * lanes, 4 sectors each; reference agrees on random warps too. */
    cfg.line = 64;
    cfg.sector = 16;
    cfg.atomic_split = COAL_ATOM_SPLIT_LINE; /* the reference below groups atomics by line */
    cfg.flit = 32;
    coalescer_init(&c, &cfg);
    uint64_t a[32];
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x2000 + 4 * i;
    struct coal_txn o[COAL_MAX_TXN];
    unsigned n = run(&c, ALL, a, 4, COAL_LOAD, MEMOP_CO_CA, o);
    /* line packet ceil((8+64)/32) = 3 flits */
    TAP_OK(n == 2 && o[0].line_addr == 0x2000 && o[1].line_addr == 0x2040 && o[0].sectors == 0xF &&
               o[0].bytes[0] == ONES && o[0].bytes[1] == 0 && o[0].reply_flits == 3 && o[0].lanes == 0xFFFF,
           "64 B lines, 16 B sectors: 2 transactions of 4 sectors, reply 3 flits");
    const struct ref_geom g = {64, 16, 32, 8};
    uint64_t s = 99;
    unsigned bad = 0;
    for (int it = 0; it < 3000; it++) {
        struct rwarp w;
        random_warp(&s, &w, 1024);
        struct coal_txn got[COAL_MAX_TXN], want[COAL_MAX_TXN];
        unsigned ng = run(&c, w.active, w.addr, w.size, w.op, w.cop, got);
        unsigned nw = ref_coalesce(&g, w.active, w.addr, w.size, w.op, w.cop, want, 0);
        bad += txn_diff(got, ng, want, nw) != 0;
    }
    TAP_EQ_U64(bad, 0, "64 B / 16 B geometry: 3000 random warps equal the reference");
}

static void test_coalesce_stats(const struct coalescer *c)
{
    struct coal_stats st;
    coal_stats_init(&st);
    struct stats *reg = stats_create();
    coal_stats_register(&st, reg, "ldst.coalesce", 0);
    struct coal_txn o[COAL_MAX_TXN];
    uint64_t a[32];
    unsigned n;
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x1000 + 4 * i;
    n = run(c, ALL, a, 4, COAL_LOAD, MEMOP_CO_CA, o); /* 1 txn, 4 sectors, flits 1/5 */
    coal_stats_add(&st, o, n);
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x10000 + 128 * i;
    n = run(c, ALL, a, 4, COAL_STORE, MEMOP_CO_CA, o); /* 32 txns x 1 sector, flits 2/1 each */
    coal_stats_add(&st, o, n);
    n = run(c, 0, a, 4, COAL_LOAD, MEMOP_CO_CA, o); /* nothing: not counted */
    coal_stats_add(&st, o, n);
    uint64_t v = 0;
    int ok = stats_get_u64(reg, "ldst.coalesce.insts", &v) && v == 2;               /* 2 instructions */
    ok &= stats_get_u64(reg, "ldst.coalesce.txns", &v) && v == 33;                  /* 1 + 32 */
    ok &= stats_get_u64(reg, "ldst.coalesce.sectors", &v) && v == 36;               /* 4 + 32 x 1 */
    ok &= stats_get_u64(reg, "ldst.coalesce.req_flits", &v) && v == 65;             /* 1 + 32 x 2 */
    ok &= stats_get_u64(reg, "ldst.coalesce.reply_flits", &v) && v == 37;           /* 5 + 32 x 1 */
    ok &= stats_get_u64(reg, "ldst.coalesce.bypass_txns", &v) && v == 0;
    ok &= st.txns_per_inst.bins[1] == 1 && st.txns_per_inst.bins[32] == 1 && st.txns_per_inst.count == 2;
    TAP_OK(ok, "coalescer statistics: 2 insts, 33 txns, 36 sectors, 65/37 flits, histogram bins 1 and 32");
    stats_destroy(reg);
    coal_stats_fini(&st);
}

/* ------------------------------------------------------------ shared memory */

static unsigned smem(const struct smem_banks *b, uint32_t active, const uint64_t *a, unsigned size, bool atomic)
{
    return smem_banks_cycles(b, active, a, size, atomic);
}

static void test_smem_hand(const struct smem_banks *b, const struct smem_banks *fw, const struct smem_banks *p2)
{
    uint64_t a[32];
    /* bank = (addr / 4) mod 32 */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 4 * i; /* words 0..31 -> banks 0..31, one word each */
    TAP_EQ_U64(smem(b, ALL, a, 4, false), 1, "stride 1: degree 1");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 8 * i; /* words 0,2,..,62 -> even banks, 2 distinct words each */
    TAP_EQ_U64(smem(b, ALL, a, 4, false), 2, "stride 2: degree 2");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 12 * i; /* words 3i: gcd(3,32) = 1 -> all banks distinct */
    TAP_EQ_U64(smem(b, ALL, a, 4, false), 1, "stride 3: degree 1");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 128 * i; /* words 32i -> bank 0, 32 distinct words */
    TAP_EQ_U64(smem(b, ALL, a, 4, false), 32, "stride 32: degree 32");
    TAP_EQ_U64(smem(b, 0x11111111, a, 4, false), 8, "stride 32 with 8 active lanes: degree 8");
    TAP_EQ_U64(smem(b, 0, a, 4, false), 0, "no active lane: 0 cycles");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x40; /* one word for everybody */
    TAP_EQ_U64(smem(b, ALL, a, 4, false), 1, "broadcast (all lanes one word): degree 1");
    /* mixed: lanes 0-15 words 0..15 (banks 0-15); lanes 16-23 word 32
     * (bank 0, broadcast); lanes 24,25,26 words 64, 96, 128 (bank 0);
     * lanes 27-31 word 0 (broadcast with lane 0). Bank 0 distinct words
     * {0, 32, 64, 96, 128} = 5; every other bank 1 -> degree 5. */
    for (unsigned i = 0; i < 16; i++)
        a[i] = 4 * i;
    for (unsigned i = 16; i < 24; i++)
        a[i] = 4 * 32;
    a[24] = 4 * 64;
    a[25] = 4 * 96;
    a[26] = 4 * 128;
    for (unsigned i = 27; i < 32; i++)
        a[i] = 0;
    TAP_EQ_U64(smem(b, ALL, a, 4, false), 5, "mixed broadcast and conflicts: degree 5");
    /* bytes: lane i reads byte i -> words 0..7, 4 lanes per word -> 1 */
    for (unsigned i = 0; i < 32; i++)
        a[i] = i;
    TAP_EQ_U64(smem(b, ALL, a, 1, false), 1, "byte loads 0..31: 8 words, degree 1");
    /* half-words at stride 64 B: words 16i -> banks 0 and 16, 16 words each */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 64 * i;
    TAP_EQ_U64(smem(b, ALL, a, 2, false), 16, "half-words at stride 64 B: banks 0/16 with 16 words each");

    /* 64-bit: unit-stride doubles: half-warp phases of 16 lanes x 2 words =
     * words 0..31 / 32..63 -> 1 cycle each -> 2. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 8 * i;
    TAP_EQ_U64(smem(b, ALL, a, 8, false), 2, "8 B unit stride: 2 half-warp phases x 1 = 2");
    TAP_EQ_U64(smem_banks_min_cycles(b, ALL, 8), 2, "8 B full warp: conflict-free minimum 2");
    TAP_EQ_U64(smem(b, 0x0000FFFF, a, 8, false), 1, "8 B, lanes 0-15 only: 1 phase, 1 cycle");
    /* stride-2 doubles (16 B apart): half-warp words 4i, 4i+1 (i<16) ->
     * banks 0,1,4,5,..: lanes i and i+8 share them -> 2 per phase -> 4. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 16 * i;
    TAP_EQ_U64(smem(b, ALL, a, 8, false), 4, "8 B stride 16 B: 2 phases x degree 2 = 4");
    /* doubles all on one address: 2 phases x broadcast 1 = 2; GPGPU-Sim's
     * first-word rule: one word broadcast = 1. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x100;
    TAP_EQ_U64(smem(b, ALL, a, 8, false), 2, "8 B broadcast: phases mode 2");
    TAP_EQ_U64(smem(fw, ALL, a, 8, false), 1, "8 B broadcast: first_word mode 1");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 8 * i; /* first words 2i: even banks, 2 each */
    TAP_EQ_U64(smem(fw, ALL, a, 8, false), 2, "8 B unit stride: first_word mode 2 (words 2i, 2 per even bank)");
    /* 128-bit: unit-stride float4: quarter-warps of 8 lanes x 4 words = 32
     * consecutive words -> 1 each -> 4. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 16 * i;
    TAP_EQ_U64(smem(b, ALL, a, 16, false), 4, "16 B unit stride: 4 quarter-warp phases x 1 = 4");
    TAP_EQ_U64(smem(fw, ALL, a, 16, false), 4, "16 B unit stride: first_word words 4i -> 8 banks x 4 = 4");

    /* atomics: no broadcast */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 0x40;
    TAP_EQ_U64(smem(b, ALL, a, 4, true), 32, "32 atomics on one word: serialised, 32 cycles");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 4 * (i % 2); /* 16 lanes on word 0 (bank 0), 16 on word 1 (bank 1) */
    TAP_EQ_U64(smem(b, ALL, a, 4, true), 16, "atomics on 2 words, 16 lanes each: 16");
    TAP_EQ_U64(smem(b, ALL, a, 4, false), 1, "the same addresses as loads: broadcast, 1");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 4 * i;
    TAP_EQ_U64(smem(b, ALL, a, 4, true), 1, "atomics at stride 1: 1");

    /* warp_parts 2: each half-warp counted separately. */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 128 * i;
    TAP_EQ_U64(smem(p2, ALL, a, 4, false), 32, "warp_parts 2, stride 32: 16 + 16 = 32");
    for (unsigned i = 0; i < 32; i++)
        a[i] = 4 * i;
    TAP_EQ_U64(smem(p2, ALL, a, 4, false), 2, "warp_parts 2, stride 1: 1 + 1 = 2");
}

static void test_smem_random(const struct smem_banks *b, const struct smem_banks *fw, const struct smem_banks *p2)
{
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    uint64_t s = 2024;
    unsigned bad = 0, bug_caught = 0, n = 20000;
    for (unsigned it = 0; it < n; it++) {
        uint64_t a[32];
        unsigned size = sizes[rng_next(&s) % 5];
        bool atomic = (rng_next(&s) % 4) == 0;
        uint32_t active = (rng_next(&s) % 3) ? ALL : (uint32_t)rng_next(&s);
        uint64_t window = 4u << (rng_next(&s) % 12); /* 4 B .. 8 KB: from heavy broadcast to scattered */
        unsigned pat = (unsigned)(rng_next(&s) % 3);
        uint64_t stride = (rng_next(&s) % 33) * size;
        for (unsigned i = 0; i < 32; i++) {
            uint64_t x = pat == 0 ? rng_next(&s) % window : pat == 1 ? i * stride : (i % 4) * stride;
            a[i] = x & ~(uint64_t)(size - 1);
        }
        const struct smem_banks *m = it % 3 == 0 ? b : it % 3 == 1 ? fw : p2;
        unsigned got = smem_banks_cycles(m, active, a, size, atomic);
        unsigned want = ref_smem(m->n_banks, m->width, m->lanes_per_part, m->wide == SMEM_WIDE_FIRST_WORD, active,
                                 a, size, atomic, 0);
        if (got != want && bad++ < 3)
            tap_diag("smem mismatch at %u: size %u atomic %d got %u want %u", it, size, atomic, got, want);
        unsigned wrong = ref_smem(m->n_banks, m->width, m->lanes_per_part, m->wide == SMEM_WIDE_FIRST_WORD, active,
                                  a, size, atomic, 1);
        bug_caught += got != wrong;
    }
    TAP_EQ_U64(bad, 0, "20000 random warps (3 configs): bank model equals the naive per-bank reference");
    TAP_OK(bug_caught > 0, "fault: a reference without broadcast differs on %u of %u warps", bug_caught, n);
    /* Checker against a deliberately wrong expected value. */
    uint64_t a[32];
    for (unsigned i = 0; i < 32; i++)
        a[i] = 8 * i;
    unsigned got = smem_banks_cycles(b, ALL, a, 4, false);
    TAP_OK(got != 1 && got == 2, "fault: stride-2 result (2) does not match a wrong expected degree 1");
}

static void test_smem_stats(const struct smem_banks *b)
{
    struct smem_stats st;
    smem_stats_init(&st);
    struct stats *reg = stats_create();
    smem_stats_register(&st, reg, "ldst.smem", 3);
    uint64_t a[32];
    for (unsigned i = 0; i < 32; i++)
        a[i] = 4 * i;
    smem_stats_add(&st, smem_banks_cycles(b, ALL, a, 4, false), smem_banks_min_cycles(b, ALL, 4)); /* 1 vs 1 */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 128 * i;
    smem_stats_add(&st, smem_banks_cycles(b, ALL, a, 4, false), smem_banks_min_cycles(b, ALL, 4)); /* 32 vs 1 */
    for (unsigned i = 0; i < 32; i++)
        a[i] = 8 * i;
    smem_stats_add(&st, smem_banks_cycles(b, ALL, a, 8, false), smem_banks_min_cycles(b, ALL, 8)); /* 2 vs 2 */
    uint64_t v = 0;
    int ok = stats_get_instance_u64(reg, "ldst.smem.accesses", 3, &v) && v == 3;
    ok &= stats_get_u64(reg, "ldst.smem.cycles", &v) && v == 35;       /* 1 + 32 + 2 */
    ok &= stats_get_u64(reg, "ldst.smem.conflict_insts", &v) && v == 1; /* only the stride-32 one */
    ok &= st.degree.bins[1] == 1 && st.degree.bins[2] == 1 && st.degree.bins[32] == 1 && st.degree.max == 32;
    TAP_OK(ok, "smem statistics: 3 accesses, 35 cycles, 1 conflicting, degree histogram 1/2/32");
    stats_destroy(reg);
    smem_stats_fini(&st);
}

int main(void)
{
    tap_no_plan();
    struct coalesce_cfg cc;
    struct coalescer c;
    coalesce_cfg_defaults(&cc);
    coalescer_init(&c, &cc); /* atomic_split = overlap */
    struct coalescer cs;     /* atomic_split = sector */
    cc.atomic_split = COAL_ATOM_SPLIT_SECTOR;
    coalescer_init(&cs, &cc);
    struct coalescer cl;     /* one atomic transaction per line: the hand and random tests below */
    cc.atomic_split = COAL_ATOM_SPLIT_LINE;
    coalescer_init(&cl, &cc);

    struct smem_banks_cfg sc;
    struct smem_banks b, fw, p2;
    smem_banks_cfg_defaults(&sc);
    smem_banks_init(&b, &sc);
    sc.wide = SMEM_WIDE_FIRST_WORD;
    smem_banks_init(&fw, &sc);
    sc.wide = SMEM_WIDE_PHASES;
    sc.warp_parts = 2;
    smem_banks_init(&p2, &sc);

    test_config();
    test_coalesce_hand(&cl);
    test_coalesce_bounds(&cl);
    test_coalesce_random(&cl);
    test_atomic_split(&c);
    test_atomic_sector(&cs);
    coalesce_cfg_defaults(&cc);
    test_volatile_l1(&cc);
    test_coalesce_geometry();
    test_coalesce_stats(&cl);
    test_smem_hand(&b, &fw, &p2);
    test_smem_random(&b, &fw, &p2);
    test_smem_stats(&b);
    TAP_OK(dies_with_abort(misaligned_coalesce), "misaligned 8 B global access panics (functional mode faults first)");
    TAP_OK(dies_with_abort(misaligned_smem), "misaligned 4 B shared access panics");
    return tap_exit();
}
