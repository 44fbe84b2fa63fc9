/* tests/test_addrmap.c: the configurable address map (partitions/addrmap/addrmap.c)
 * and the page table (partitions/addrmap/pagetable.c).
 *
 *  - the default string decodes bit-identically to the hard-coded GTX480
 *    formulas the simulator used before dram.addr_map (a naive copy of them
 *    is kept here), for 1..16 channels and random addresses;
 *  - a naive bit-by-bit interpreter of the map string agrees with the
 *    compiled decoder for several strings (GTX480, DDR3 8 banks, 16 channels
 *    with D bits, 12 channels with 32 banks, TEMP page colouring), and
 *    encode(decode(A)) == A for all of them; an injected fault (a wrong
 *    string in the reference) is detected;
 *  - every validation rule produces its message and names its key;
 *  - the page table: identity, first_touch order and determinism, colour
 *    placement (round robin and a custom policy, exhaustion fallback),
 *    translation outside the window, and the vm.* rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partitions/addrmap/addrmap.h"
#include "partitions/addrmap/pagetable.h"
#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "tap.h"

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

static uint64_t rnd64(uint64_t *s) { return (lcg(s) << 31) ^ lcg(s); }

/* ------------------------------------------- naive copy of the old decoder */

/* The GTX480 formulas hard-coded in partitions/addrmap/addrmap.c before the map
 * became a string (spec baseline-gpu.md §2.9), written out literally. */
static bool old_decode(uint64_t a, uint32_t n_ch, uint32_t l2_sets, struct addrmap_loc *out)
{
    if (a >= (uint64_t)n_ch << 28)
        return false;
    uint64_t chunk = a >> 8;
    uint64_t r = ((chunk / n_ch) << 8) | (a & 0xFF);
    out->channel = (uint32_t)(chunk % n_ch);
    out->local = r;
    out->bank = (uint32_t)(((r >> 8) & 1) | (((r >> 13) & 7) << 1));
    out->row = (uint32_t)((r >> 16) & 0xFFF);
    out->col = (uint32_t)((r & 0xFF) | (((r >> 9) & 0xF) << 8));
    out->sub = out->channel * 2 + (uint32_t)((r >> 8) & 1);
    uint64_t r2 = (r & 0xFF) | ((r >> 9) << 8);
    out->l2_set = (uint32_t)((r2 >> 7) & (l2_sets - 1));
    return true;
}

static uint64_t old_encode(uint32_t n_ch, uint32_t channel, uint64_t local)
{
    return ((((local >> 8) * n_ch) + channel) << 8) | (local & 0xFF);
}

static bool loc_eq(const struct addrmap_loc *x, const struct addrmap_loc *y)
{
    return x->channel == y->channel && x->sub == y->sub && x->local == y->local && x->bank == y->bank &&
           x->row == y->row && x->col == y->col && x->l2_set == y->l2_set;
}

static void test_gtx480_identical(void)
{
    static const uint32_t chans[] = {1, 2, 3, 5, 6, 7, 8, 12, 16};
    static const uint32_t sets[] = {64, 128, 32};
    uint64_t s = 1234;
    int n = 0, mism = 0, rt = 0, cap_bad = 0;
    for (size_t ci = 0; ci < ARRAY_LEN(chans); ci++)
        for (size_t si = 0; si < ARRAY_LEN(sets); si++) {
            struct addrmap d, e;
            addrmap_init(&d, chans[ci], 2, 16, 4096, sets[si]);                  /* legacy wrapper */
            addrmap_init_spec(&e, NULL, chans[ci], 2, 16, 4096, sets[si]);       /* default string */
            cap_bad += addrmap_capacity(&d) != (uint64_t)chans[ci] << 28 || addrmap_capacity(&e) != addrmap_capacity(&d);
            uint64_t cap = addrmap_capacity(&d);
            for (int i = 0; i < 20000; i++) {
                uint64_t a = i < 4 ? (uint64_t[]){0, 255, 256, cap - 1}[i] : rnd64(&s) % cap;
                struct addrmap_loc x = {0}, y = {0}, z = {0};
                bool ok1 = addrmap_decode(&d, a, &x), ok2 = old_decode(a, chans[ci], sets[si], &y),
                     ok3 = addrmap_decode(&e, a, &z);
                mism += !ok1 || !ok2 || !ok3 || !loc_eq(&x, &y) || !loc_eq(&z, &y);
                rt += addrmap_encode(&d, x.channel, x.local) != a || old_encode(chans[ci], y.channel, y.local) != a;
                n++;
            }
            struct addrmap_loc x;
            cap_bad += addrmap_decode(&d, cap, &x) || addrmap_decode(&d, cap + 12345, &x);
        }
    TAP_EQ_U64(mism, 0, "gtx480: %d random addresses (1-16 channels, 32/64/128 sets) decode bit-identically "
               "to the old hard-coded formulas", n);
    TAP_EQ_U64(rt, 0, "gtx480: encode(decode(A)) == A for all of them");
    TAP_EQ_U64(cap_bad, 0, "gtx480: capacity n_ch x 256 MB, addresses at or above it refused");
    struct addrmap d;
    addrmap_init(&d, 6, 2, 16, 4096, 64);
    TAP_OK(d.banks == 16 && d.rows == 4096 && d.row_bytes == 4096 && d.burst_bytes == 64 && d.local_bits == 28 &&
               d.chunked && d.chunk_shift == 8,
           "gtx480: derived geometry 16 banks, 4096 rows of 4 KB, 64 B bursts, 28 local bits, dramid@8");
    struct addrmap_loc l;
    addrmap_decode(&d, 0x12345678, &l);
    TAP_OK(l.channel == 0 && l.local == 0x308B978 && l.row == 776 && l.bank == 11 && l.col == 0xC78 && l.sub == 1 &&
               l.l2_set == 56,
           "gtx480: 0x12345678 on 6 channels -> ch 0, R 0x308B978, row 776, bank 11, col 0xC78, sub 1, set 56");
}

/* ------------------------------------- naive interpreter of a map string */

struct ref_map {
    char lay[64];       /* letter of each bit (A layout; chunk form: R layout) */
    int nbits;          /* bits described */
    int chunk;          /* dramid@N, or -1 */
    uint32_t n_ch, n_sub, sets;
};

static void ref_parse(struct ref_map *r, const char *spec, uint32_t n_ch, uint32_t n_sub, uint32_t sets)
{
    memset(r, 0, sizeof *r);
    r->chunk = -1;
    r->n_ch = n_ch;
    r->n_sub = n_sub;
    r->sets = sets;
    const char *semi = strchr(spec, ';');
    if (semi) {
        r->chunk = atoi(spec + 7);
        spec = semi + 1;
    }
    char tmp[80];
    int n = 0;
    for (const char *p = spec; *p; p++)
        if (*p != '.')
            tmp[n++] = *p;
    for (int i = 0; i < n; i++)
        r->lay[i] = tmp[n - 1 - i];
    r->nbits = n;
}

/* Decode one address the slow way: one bit at a time. */
static void ref_decode(const struct ref_map *m, uint64_t a, struct addrmap_loc *o)
{
    uint64_t rr = 0;
    char rl[64];
    int nr = 0;
    uint32_t ch = 0;
    if (m->chunk >= 0) {
        uint64_t chunk = a >> m->chunk;
        ch = (uint32_t)(chunk % m->n_ch);
        rr = ((chunk / m->n_ch) << m->chunk) | (a & ((1ull << m->chunk) - 1));
        for (int i = 0; i < m->nbits; i++)
            rl[nr++] = m->lay[i];
    } else {
        int d = 0;
        for (int i = 0; i < m->nbits; i++) {
            uint64_t bit = (a >> i) & 1;
            if (m->lay[i] == 'D') {
                ch |= (uint32_t)bit << d++;
            } else {
                rr |= bit << nr;
                rl[nr++] = m->lay[i];
            }
        }
    }
    uint32_t bank = 0, row = 0, col = 0, set = 0;
    int nb = 0, nrow = 0, nc = 0, subb = 0, k = 0, sub_bits = 0;
    while ((1u << sub_bits) < m->n_sub)
        sub_bits++;
    for (int i = 0; i < nr; i++) {
        uint32_t bit = (uint32_t)((rr >> i) & 1);
        if (rl[i] == 'B')
            bank |= bit << nb++;
        if (rl[i] == 'R')
            row |= bit << nrow++;
        if (rl[i] == 'S' || rl[i] == 'C')
            col |= bit << nc++;
        /* R' = R without the lowest sub_bits bank bits; set = R'[7 ..] */
        if (rl[i] == 'B' && subb < sub_bits) {
            subb++;
            continue;
        }
        if (k >= 7 && k - 7 < 32 && (1ull << (k - 7)) < m->sets)
            set |= bit << (k - 7);
        k++;
    }
    o->channel = ch;
    o->local = rr;
    o->bank = bank;
    o->row = row;
    o->col = col;
    o->sub = ch * m->n_sub + bank % m->n_sub;
    o->l2_set = set;
}

struct map_case {
    const char *name;
    const char *spec;
    uint32_t n_ch, banks, rows, burst, sets;
};

static const struct map_case map_cases[] = {
    {"gtx480 6ch", ADDRMAP_GTX480, 6, 16, 4096, 64, 64},
    {"ddr3 8 banks", "dramid@8;RRRRRRRRRRRRRRR.BBCCCB.CCSSSSSS", 4, 8, 32768, 64, 64},
    {"16ch D bits", "RRRRRRRRRRRR.BBBCCCCB.DDDD.CCSSSSSS", 16, 16, 4096, 64, 64},
    {"12ch 32 banks", "dramid@8;RRRRRRRRRRR.BBBBCCCCB.CCSSSSSS", 12, 32, 2048, 64, 64},
    {"3ch 2KB chunks", "dramid@11;00000000.RRRRRRRRRRRRR.BBBB.CCCCCC.SSSSSS", 3, 16, 8192, 64, 128},
    {"temp colour 6ch", "dramid@12;RRRRRRRRRRRR.BBBB.CCCCCC.SSSSSS", 6, 16, 4096, 64, 64},
    {"1ch no channel", "RRRRRRRRRRRR.BBBCCCCB.CCSSSSSS", 1, 16, 4096, 64, 64},
    {"ddr3 32B bursts", "dramid@7;RRRRRRRRRRRRRRRR.BBB.CCCCCCC.SSSSS", 2, 8, 65536, 32, 64},
};

static void test_strings(void)
{
    uint64_t s = 99;
    for (size_t ci = 0; ci < ARRAY_LEN(map_cases); ci++) {
        const struct map_case *c = &map_cases[ci];
        struct addrmap m;
        struct addrmap_geom g = {c->n_ch, 2, c->banks, c->rows, c->burst, c->sets};
        int err = addrmap_build(&m, c->spec, &g, NULL, NULL);
        TAP_EQ_U64(err, 0, "%s: '%s' is valid", c->name, c->spec);
        if (err)
            continue;
        struct ref_map r;
        ref_parse(&r, c->spec, c->n_ch, 2, c->sets);
        uint64_t cap = addrmap_capacity(&m);
        int mism = 0, rt = 0, range = 0, inv = 0;
        for (int i = 0; i < 20000; i++) {
            uint64_t a = i == 0 ? cap - 1 : rnd64(&s) % cap;
            struct addrmap_loc x, y;
            addrmap_decode(&m, a, &x);
            ref_decode(&r, a, &y);
            mism += !loc_eq(&x, &y);
            if (mism == 1 && !loc_eq(&x, &y))
                tap_diag("%s: A 0x%llx: ch %u/%u R 0x%llx/0x%llx bank %u/%u row %u/%u col %u/%u set %u/%u", c->name,
                         (unsigned long long)a, x.channel, y.channel, (unsigned long long)x.local,
                         (unsigned long long)y.local, x.bank, y.bank, x.row, y.row, x.col, y.col, x.l2_set, y.l2_set);
            rt += addrmap_encode(&m, x.channel, x.local) != a;
            range += x.channel >= c->n_ch || x.bank >= c->banks || x.row >= c->rows || x.col >= m.row_bytes ||
                     x.l2_set >= c->sets || x.local >= m.local_bytes;
            /* the other way: (channel, local) -> A -> the same (channel, local) */
            uint32_t ch = (uint32_t)(lcg(&s) % c->n_ch);
            uint64_t loc = rnd64(&s) % m.local_bytes;
            struct addrmap_loc z;
            inv += !addrmap_decode(&m, addrmap_encode(&m, ch, loc), &z) || z.channel != ch || z.local != loc;
        }
        TAP_EQ_U64(mism, 0, "%s: 20000 random addresses match the bit-by-bit reference", c->name);
        TAP_EQ_U64(rt, 0, "%s: encode(decode(A)) == A", c->name);
        TAP_EQ_U64(inv, 0, "%s: decode(encode(channel, R)) == (channel, R)", c->name);
        TAP_EQ_U64(range, 0, "%s: every field within its geometry", c->name);
        struct addrmap_loc x;
        TAP_OK(!addrmap_decode(&m, cap, &x), "%s: capacity %llu MB, first address beyond refused", c->name,
               (unsigned long long)(cap >> 20));
        /* a 128 B line never straddles channel, bank, row or sub-partition */
        int split = 0;
        for (int i = 0; i < 2000; i++) {
            uint64_t a = (rnd64(&s) % cap) & ~127ull;
            struct addrmap_loc p, q;
            addrmap_decode(&m, a, &p);
            addrmap_decode(&m, a + 127, &q);
            split += p.channel != q.channel || p.bank != q.bank || p.row != q.row || p.sub != q.sub ||
                     p.l2_set != q.l2_set || q.local != p.local + 127;
        }
        TAP_EQ_U64(split, 0, "%s: every 128 B line lies in one channel, bank, row, sub-partition and set", c->name);
    }
    /* Injected fault: a reference reading a different string must disagree. */
    struct addrmap m;
    struct addrmap_geom g = {6, 2, 16, 4096, 64, 64};
    addrmap_build(&m, ADDRMAP_GTX480, &g, NULL, NULL);
    struct ref_map r;
    ref_parse(&r, "dramid@8;0000RRRR.RRRRRRRR.BBCBCCCB.CCSSSSSS", 6, 2, 64);
    int fault = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t a = rnd64(&s) % addrmap_capacity(&m);
        struct addrmap_loc x, y;
        addrmap_decode(&m, a, &x);
        ref_decode(&r, a, &y);
        fault += !loc_eq(&x, &y);
    }
    TAP_OK(fault > 0, "addrmap_fault: a reference with two bits swapped disagrees (%d of 1000)", fault);

    /* specific decodes of the D form: 16 channels at bits 8-11 */
    struct addrmap d;
    struct addrmap_geom g16 = {16, 2, 16, 4096, 64, 64};
    addrmap_build(&d, "RRRRRRRRRRRR.BBBCCCCB.DDDD.CCSSSSSS", &g16, NULL, NULL);
    struct addrmap_loc l;
    addrmap_decode(&d, 0x5A00, &l); /* D = 0xA, bits 12-15 = 0x5 -> R bit 8 = 1 (bank 1), R bits 9-11 = 2 */
    TAP_OK(l.channel == 0xA && l.local == 0x500 && l.bank == 1 && l.sub == 21 && l.col == 0x200,
           "16ch D form: 0x5A00 -> channel 10, R 0x500, bank 1, sub 21, col 0x200 (ch %u R 0x%llx bank %u sub %u col 0x%x)",
           l.channel, (unsigned long long)l.local, l.bank, l.sub, l.col);
}

/* ------------------------------------------------------- validation rules */

struct msgs {
    int n;             /* reports received */
    char text[2048];   /* "key: msg\n" lines */
};

static void collect(void *ctx, const char *key, const char *msg)
{
    struct msgs *m = ctx;
    m->n++;
    size_t len = strlen(m->text);
    snprintf(m->text + len, sizeof m->text - len, "%s: %s\n", key ? key : "-", msg);
}

struct bad_case {
    const char *spec;
    uint32_t n_ch, n_sub, banks, rows, burst, sets;
    int n_err;          /* violations expected */
    const char *key;    /* key named by the first report ("-" = the string itself) */
    const char *needle; /* part of the message */
};

static const struct bad_case bad_cases[] = {
    {"dramid@8;0000RRRR.RRRRRRRR.BBBCCXCB.CCSSSSSS", 6, 2, 16, 4096, 64, 64, 1, "-", "unknown letter 'X'"},
    {"dramid@8;0000RRRR.RRRRRRRR.BBBCCbCB.CCSSSSSS", 6, 2, 16, 4096, 64, 64, 1, "-", "unknown letter 'b'"},
    {"dramid@;RRRRRRRRRRRR.BBBCCCCB.CCSSSSSS", 6, 2, 16, 4096, 64, 64, 1, "-", "followed by a bit number"},
    {"dramid@8RRRRRRRRRRRR.BBBCCCCB.CCSSSSSS", 6, 2, 16, 4096, 64, 64, 1, "-", "must end with ';'"},
    {"dramid@8;", 6, 2, 16, 4096, 64, 64, 1, "-", "empty bit string"},
    {"dramid@8;RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.R", 6, 2, 16, 4096, 64, 64,
     1, "-", "more than 64 bits"},
    {"dramid@8;RRRR0RRRRRRRR.BBBCCCCB.CCSSSSSS", 6, 2, 16, 4096, 64, 64, 1, "-", "bit 24 is unused"},
    {ADDRMAP_GTX480, 6, 2, 8, 4096, 64, 64, 1, "dram.banks", "4 B bits (16 banks) but dram.banks = 8"},
    {ADDRMAP_GTX480, 6, 2, 12, 4096, 64, 64, 1, "dram.banks", "dram.banks = 12 is not a power of two"},
    {ADDRMAP_GTX480, 6, 2, 16, 8192, 64, 64, 1, "dram.rows", "12 R bits (4096 rows) but dram.rows = 8192"},
    {"dramid@8;BBBCCCCB.CCSSSSSS", 6, 2, 16, 4096, 64, 64, 1, "dram.rows", "missing R (row) field"},
    {ADDRMAP_GTX480, 6, 2, 16, 4096, 32, 64, 1, "dram.burst", "6 S bits (64 bytes per column command) but dram.bus_bytes x dram.burst = 32 (needs 5)"},
    {"dramid@8;0000RRRR.RRRRRRRR.BBBCCCCB.CSSSSSSC", 6, 2, 16, 4096, 64, 64, 1, "-",
     "S (burst) bits must be the lowest bits"},
    {"dramid@8;0000RRRR.RRRRRRRR.BBBCCCCC.CBSSSSSS", 6, 2, 16, 4096, 64, 64, 1, "-",
     "B (bank) bit at local bit 6 lies inside a 128 B L2 line"},
    {"dramid@6;0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", 6, 2, 16, 4096, 64, 64, 1, "-",
     "dramid@6 starts the channel chunk inside a 128 B L2 line"},
    {"dramid@30;0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", 6, 2, 16, 4096, 64, 64, 1, "-",
     "dramid@30 is above the 28 bits"},
    {"dramid@8;RRRRRRRRRRRR.BBBCCCCB.DDD.CCSSSSSS", 8, 2, 16, 4096, 64, 64, 1, "-",
     "both select the channel (overlapping channel fields)"},
    {"RRRRRRRRRRRR.BBBCCCCB.CCSSSSSS", 6, 2, 16, 4096, 64, 64, 1, "mem.n_partitions",
     "missing channel field (no D letters and no dramid@N prefix) but mem.n_partitions = 6"},
    {"RRRRRRRRRRRR.BBBCCCCB.DDD.CCSSSSSS", 6, 2, 16, 4096, 64, 64, 1, "mem.n_partitions",
     "3 D bits (8 channels) but mem.n_partitions = 6 (a channel count that is not a power of two needs the dramid@N"},
    {"RRRRRRRRRRRR.BBBCCCCB.CC.DDD.SSSSSS", 8, 2, 16, 4096, 64, 64, 1, "-", "D bit 6 lies inside a 128 B L2 line"},
    {"dramid@8;RRRRRRRRRRRR.CCCCCCC.CCSSSSSS", 6, 2, 1, 4096, 64, 64, 1, "mem.sub_per_partition",
     "mem.sub_per_partition = 2 needs 1 bank bits to select the sub-partition"},
    {ADDRMAP_GTX480, 6, 3, 16, 4096, 64, 64, 1, "mem.sub_per_partition", "= 3 is not a power of two"},
    {ADDRMAP_GTX480, 6, 2, 16, 4096, 64, 1u << 21, 1, "l2.size_per_sub", "2097152 L2 sets need local bits 7-27"},
    {"dramid@8;RRRRRRRRRRRRRRRRRRRRR.BBBBCCCCCCCCCCCCC.CCSSSSSS", 6, 2, 16, 2097152, 64, 64, 1, "-",
     "uses 46 partition-local bits; at most 40"},
    {ADDRMAP_GTX480, 6, 2, 8, 8192, 32, 64, 3, "dram.banks", "dram.banks = 8"}, /* all three reported */
};

static void test_validation(void)
{
    for (size_t i = 0; i < ARRAY_LEN(bad_cases); i++) {
        const struct bad_case *c = &bad_cases[i];
        struct addrmap m;
        struct addrmap_geom g = {c->n_ch, c->n_sub, c->banks, c->rows, c->burst, c->sets};
        struct msgs got = {0, ""};
        int n = addrmap_build(&m, c->spec, &g, collect, &got);
        char want_key[64];
        snprintf(want_key, sizeof want_key, "%s: ", c->key);
        bool ok = n == c->n_err && got.n == n && strncmp(got.text, want_key, strlen(want_key)) == 0 &&
                  strstr(got.text, c->needle) != NULL;
        TAP_OK(ok, "invalid map %zu: %d error(s), key %s, '%s'", i, c->n_err, c->key, c->needle);
        if (!ok)
            tap_diag("got %d: %s", n, got.text);
    }
    /* and the good ones of test_strings pass with no report; NULL and "" mean the default */
    struct addrmap a, b;
    struct addrmap_geom g = {6, 2, 16, 4096, 64, 64};
    TAP_OK(addrmap_build(&a, NULL, &g, NULL, NULL) == 0 && addrmap_build(&b, "", &g, NULL, NULL) == 0 &&
               memcmp(&a, &b, sizeof a) == 0,
           "NULL and empty string both give the GTX480 map");
    TAP_OK(addrmap_build(&a, "  " ADDRMAP_GTX480 "  ", &g, NULL, NULL) == 0, "leading and trailing blanks ignored");
}

/* ------------------------------------------------------------- page table */

#define VA_BASE 0x100000000ull

static void test_pt_identity(void)
{
    struct addrmap m;
    addrmap_init(&m, 6, 2, 16, 4096, 64);
    struct vm_cfg vc;
    vm_cfg_defaults(&vc);
    struct pagetable pt;
    pagetable_init(&pt, &vc, &m, VA_BASE);
    uint64_t s = 5;
    int bad = 0;
    for (int i = 0; i < 10000; i++) {
        uint64_t off = rnd64(&s) % addrmap_capacity(&m);
        bad += pagetable_translate(&pt, VA_BASE + off) != off || pagetable_untranslate(&pt, off) != VA_BASE + off;
    }
    TAP_EQ_U64(bad, 0, "identity: translate(v) = v - base and back, 10000 addresses");
    TAP_OK(pagetable_map_range(&pt, VA_BASE, 1 << 20, PAGETABLE_HINT_NONE) && pt.frame_of == NULL && pt.n_mapped == 0,
           "identity: mapping is a no-op with no table");
    TAP_OK(pagetable_translate(&pt, VA_BASE - 1) == PAGETABLE_NONE &&
               pagetable_translate(&pt, VA_BASE + addrmap_capacity(&m)) == PAGETABLE_NONE &&
               pagetable_translate(&pt, 0) == PAGETABLE_NONE && pagetable_untranslate(&pt, addrmap_capacity(&m)) == PAGETABLE_NONE,
           "identity: addresses outside the window translate to PAGETABLE_NONE");
    struct addrmap_loc l;
    TAP_OK(!addrmap_decode(&m, pagetable_translate(&pt, 7), &l), "identity: decode of PAGETABLE_NONE fails cleanly");
    TAP_OK(!pagetable_map_page(&pt, VA_BASE - 4096, 0), "identity: mapping outside the window refused");
    pagetable_fini(&pt);
}

static uint64_t pt_hash(const struct pagetable *pt)
{
    uint64_t h = 1469598103934665603ull;
    for (uint64_t i = 0; i < pt->n_pages; i++)
        h = (h ^ pt->frame_of[i]) * 1099511628211ull;
    return h;
}

static void test_pt_first_touch(void)
{
    struct addrmap m;
    addrmap_init(&m, 6, 2, 16, 4096, 64);
    struct vm_cfg vc = {4096, PAGETABLE_FIRST_TOUCH};
    struct pagetable a, b;
    pagetable_init(&a, &vc, &m, VA_BASE);
    pagetable_init(&b, &vc, &m, VA_BASE);
    /* touch pages in a scrambled order; frames must follow that order */
    static const uint64_t order[] = {7, 3, 100, 3, 0, 99999, 8, 7};
    static const uint64_t want[] = {0, 1, 2, 1, 3, 4, 5, 0};
    int bad = 0;
    for (size_t i = 0; i < ARRAY_LEN(order); i++) {
        uint64_t v = VA_BASE + order[i] * 4096 + 0x123;
        bad += !pagetable_map_page(&a, v, PAGETABLE_HINT_NONE) || !pagetable_map_page(&b, v, 3);
        bad += pagetable_translate(&a, v) != want[i] * 4096 + 0x123;
        bad += pagetable_untranslate(&a, want[i] * 4096 + 0x123) != v;
    }
    TAP_EQ_U64(bad, 0, "first_touch: frames 0,1,2,... in touch order, offsets kept, untranslate inverts");
    TAP_EQ_U64(a.n_mapped, 6, "first_touch: 6 distinct pages mapped");
    TAP_OK(pagetable_translate(&a, VA_BASE + 5 * 4096) == PAGETABLE_NONE, "first_touch: an untouched page is unmapped");
    TAP_OK(pagetable_untranslate(&a, 6 * 4096) == PAGETABLE_NONE, "first_touch: a free frame has no virtual page");
    /* a range spanning a partly mapped region */
    TAP_OK(pagetable_map_range(&a, VA_BASE + 6 * 4096 + 4000, 3 * 4096, 0) &&
               pagetable_map_range(&b, VA_BASE + 6 * 4096 + 4000, 3 * 4096, 0),
           "first_touch: map_range over 4 pages");
    TAP_OK(pagetable_translate(&a, VA_BASE + 6 * 4096) == 6 * 4096 && pagetable_translate(&a, VA_BASE + 9 * 4096) == 7 * 4096 &&
               pagetable_translate(&a, VA_BASE + 10 * 4096) == PAGETABLE_NONE,
           "first_touch: range pages 6, 9 got the next frames 6, 7 (7, 8 were mapped); page 10 untouched");
    TAP_EQ_U64(pt_hash(&a), pt_hash(&b), "first_touch: the same call sequence gives the same table (hint ignored)");
    TAP_OK(!pagetable_map_page(&a, VA_BASE + addrmap_capacity(&m), 0) &&
               pagetable_translate(&a, VA_BASE + addrmap_capacity(&m)) == PAGETABLE_NONE,
           "first_touch: outside the window refused / PAGETABLE_NONE");
    pagetable_fini(&a);
    pagetable_fini(&b);

    /* every frame used once when the whole (small) space is mapped backwards */
    struct addrmap sm;
    struct addrmap_geom g = {2, 2, 4, 4, 64, 4};
    TAP_EQ_U64(addrmap_build(&sm, "dramid@12;RR.BB.CCCCCC.SSSSSS", &g, NULL, NULL), 0, "small map builds");
    struct pagetable p;
    pagetable_init(&p, &vc, &sm, VA_BASE);
    bool ok = true;
    for (uint64_t i = p.n_pages; i-- > 0;)
        ok &= pagetable_map_page(&p, VA_BASE + i * 4096, 0);
    uint64_t seen = 0;
    for (uint64_t f = 0; f < p.n_pages; f++)
        seen += p.vpn_of[f] != 0;
    TAP_OK(ok && p.n_pages == 32 && seen == 32 && pagetable_translate(&p, VA_BASE) == 31 * 4096,
           "first_touch: 32 pages mapped in reverse take frames 0..31 exactly once");
    pagetable_fini(&p);
}

static uint32_t colour_from_hint(void *ctx, const struct pagetable *pt, uint64_t vpn, int32_t hint)
{
    (void)pt;
    (void)vpn;
    ++*(int *)ctx;
    return (uint32_t)hint;
}

static void test_pt_colour(void)
{
    /* TEMP-style map: 4 KB page offset in the column bits, then channel
     * (2^12-byte chunks over 6 channels), bank, row. */
    struct addrmap m;
    struct addrmap_geom g = {6, 2, 16, 4096, 64, 64};
    TAP_EQ_U64(addrmap_build(&m, "dramid@12;RRRRRRRRRRRR.BBBB.CCCCCC.SSSSSS", &g, NULL, NULL), 0, "TEMP map builds");
    struct vm_cfg vc = {4096, PAGETABLE_COLOUR};
    TAP_EQ_U64(pagetable_cfg_validate(&vc, &m, NULL, NULL), 0, "colour: the TEMP map is accepted");
    struct pagetable pt;
    pagetable_init(&pt, &vc, &m, VA_BASE);
    TAP_EQ_U64(pt.n_colours, 96, "colour: 6 channels x 16 banks = 96 colours");
    int bad = 0, dup = 0;
    for (uint64_t k = 0; k < 500; k++) {
        uint64_t v = VA_BASE + (k * 7919 % 20000) * 4096; /* scattered virtual pages */
        if (!pagetable_map_page(&pt, v, PAGETABLE_HINT_NONE)) {
            bad++;
            continue;
        }
        struct addrmap_loc a, b;
        addrmap_decode(&m, pagetable_translate(&pt, v), &a);
        addrmap_decode(&m, pagetable_translate(&pt, v + 4095), &b);
        bad += a.channel != k % 6 || a.bank != (k / 6) % 16 || b.channel != a.channel || b.bank != a.bank ||
               b.row != a.row;
    }
    for (uint64_t f = 0; f < pt.n_pages; f++)
        if (pt.vpn_of[f])
            dup += pt.frame_of[pt.vpn_of[f] - 1] != f + 1;
    TAP_EQ_U64(bad, 0, "colour rr: page k lands on channel k mod 6, bank (k div 6) mod 16, whole page in one row");
    TAP_EQ_U64(dup, 0, "colour: frame and page tables are inverse");
    TAP_EQ_U64(pt.n_mapped, 500, "colour: 500 pages mapped");
    pagetable_fini(&pt);

    /* custom policy: the hint is the colour (e.g. TEMP's owner SM -> colour) */
    pagetable_init(&pt, &vc, &m, VA_BASE);
    int calls = 0;
    pagetable_set_colour_fn(&pt, colour_from_hint, &calls);
    bad = 0;
    for (int k = 0; k < 40; k++) {
        uint64_t v = VA_BASE + (uint64_t)k * 4096;
        int32_t colour = (int32_t)(k % 4) * 6 + 2; /* channel 2, banks 0..3 */
        pagetable_map_page(&pt, v, colour);
        struct addrmap_loc a;
        addrmap_decode(&m, pagetable_translate(&pt, v), &a);
        bad += a.channel != 2 || a.bank != (uint32_t)(k % 4) || a.row != (uint32_t)(k / 4);
    }
    TAP_EQ_U64(bad, 0, "colour: a custom policy puts pages on its colour (channel 2, banks 0-3), rows filled in order");
    TAP_EQ_U64(calls, 40, "colour: the policy is called once per new page");
    pagetable_map_page(&pt, VA_BASE, 5);
    TAP_EQ_U64(calls, 40, "colour: an already mapped page does not call the policy");
    pagetable_fini(&pt);

    /* exhaustion: 2 channels x 2 banks x 4 rows, one 4 KB page per row */
    struct addrmap sm;
    struct addrmap_geom g2 = {2, 2, 2, 4, 64, 4};
    addrmap_build(&sm, "dramid@12;RR.B.CCCCCC.SSSSSS", &g2, NULL, NULL);
    pagetable_init(&pt, &vc, &sm, VA_BASE);
    pagetable_set_colour_fn(&pt, colour_from_hint, &calls);
    int got[16];
    bool all = true;
    for (uint64_t k = 0; k < pt.n_pages; k++) {
        all &= pagetable_map_page(&pt, VA_BASE + k * 4096, 0);
        got[k] = (int)pagetable_frame_colour(&pt, (pagetable_translate(&pt, VA_BASE + k * 4096)) >> 12);
    }
    TAP_OK(all && pt.n_pages == 16 && got[0] == 0 && got[3] == 0 && got[4] == 1 && got[8] == 2 && got[15] == 3,
           "colour: when colour 0's 4 frames are used, the next colours follow (0,0,0,0,1,...,3)");
    pagetable_fini(&pt);

    /* rules */
    struct addrmap gtx;
    addrmap_init(&gtx, 6, 2, 16, 4096, 64);
    struct msgs msg = {0, ""};
    TAP_EQ_U64(pagetable_cfg_validate(&vc, &gtx, collect, &msg), 2,
               "colour with the GTX480 map: refused (channel and bank bits inside the page)");
    TAP_CONTAINS(msg.text, "vm.page_policy: colour needs a page to lie in one channel", "... message names the channel rule");
    TAP_CONTAINS(msg.text, "one bank and row", "... and the bank rule");
    struct vm_cfg bad_size = {3000, PAGETABLE_IDENTITY};
    memset(&msg, 0, sizeof msg);
    TAP_EQ_U64(pagetable_cfg_validate(&bad_size, &gtx, collect, &msg), 1, "vm.page_size 3000 refused");
    TAP_CONTAINS(msg.text, "vm.page_size: 3000 is not a power of two", "... with its rule");
    struct addrmap big; /* 2^20 rows: 6 x 64 GB */
    struct addrmap_geom gb = {6, 2, 16, 1u << 20, 64, 64};
    addrmap_build(&big, "dramid@8;RRRRRRRRRRRRRRRRRRRR.BBBCCCCB.CCSSSSSS", &gb, NULL, NULL);
    struct vm_cfg tiny = {128, PAGETABLE_FIRST_TOUCH};
    memset(&msg, 0, sizeof msg);
    TAP_EQ_U64(pagetable_cfg_validate(&tiny, &big, collect, &msg), 1, "first_touch with 128 B pages over 384 GB refused");
    TAP_CONTAINS(msg.text, "raise vm.page_size", "... with a hint");
    tiny.page_size = 4096;
    TAP_EQ_U64(pagetable_cfg_validate(&tiny, &big, NULL, NULL), 0, "... 4 KB pages (96 M entries) accepted");
    struct vm_cfg ident_tiny = {128, PAGETABLE_IDENTITY};
    TAP_EQ_U64(pagetable_cfg_validate(&ident_tiny, &big, NULL, NULL), 0, "identity needs no table: 128 B pages fine");
    struct vm_cfg parsed, def;
    vm_cfg_defaults(&def);
    memset(&parsed, 0, sizeof parsed);
    char why[200];
    bool ok = true;
    for (size_t i = 0; i < VM_CFG_N_KEYS; i++)
        ok &= cfg_parse_value(&vm_cfg_keys[i], vm_cfg_keys[i].def, (char *)&parsed + vm_cfg_keys[i].offset, why,
                              sizeof why);
    TAP_OK(ok && memcmp(&parsed, &def, sizeof def) == 0, "vm keys: table defaults parse and equal vm_cfg_defaults (4K, identity)");
    int v = -1;
    TAP_OK(cfg_parse_value(&vm_cfg_keys[1], "colour", &v, why, sizeof why) && v == PAGETABLE_COLOUR &&
               !cfg_parse_value(&vm_cfg_keys[1], "color", &v, why, sizeof why),
           "vm.page_policy: colour parses, a misspelling is refused");
}

int main(void)
{
    tap_no_plan();
    test_gtx480_identical();
    test_strings();
    test_validation();
    test_pt_identity();
    test_pt_first_touch();
    test_pt_colour();
    return tap_exit();
}
