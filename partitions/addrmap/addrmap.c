/* partitions/addrmap/addrmap.c: the configurable address map (dram.addr_map). See
 * addrmap.h for the string syntax and the derived fields, docs/addrmap.md
 * for the validation rules and examples.
 *
 * Build: the string becomes one letter per bit (A layout), then the R layout
 * (the partition-local address: the same letters in the chunk form, the
 * non-D letters squeezed together in the D form); each field is turned into
 * runs of consecutive bits (struct addrmap_gather) so that decode is a few
 * shifts and masks per field.
 */
#include "partitions/addrmap/addrmap.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim/base/common.h"

/* ------------------------------------------------------------------ build */

struct am_build {
    addrmap_report_fn report; /* where violations go (may be NULL) */
    void *ctx;
    int n_err;                /* violations so far */
};

static void PRINTF_LIKE(3, 4) am_fail(struct am_build *b, const char *key, const char *fmt, ...)
{
    b->n_err++;
    if (!b->report)
        return;
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    b->report(b->ctx, key, msg);
}

static unsigned log2_u64(uint64_t v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

/* Append "destination bit dst = source bit src", merging with the last run
 * when both continue it. */
static void gather_add(struct addrmap_gather *g, unsigned src, unsigned dst)
{
    if (g->n_runs) {
        struct addrmap_run *r = &g->run[g->n_runs - 1];
        if (r->src + r->width == src && r->dst + r->width == dst) {
            r->width++;
            return;
        }
    }
    SIM_ASSERT(g->n_runs < ADDRMAP_MAX_RUNS, "addrmap: more than %u runs in one field", ADDRMAP_MAX_RUNS);
    g->run[g->n_runs].src = (uint8_t)src;
    g->run[g->n_runs].width = 1;
    g->run[g->n_runs].dst = (uint8_t)dst;
    g->n_runs++;
}

/* Fill the fast-path slots (NOTE(gather-fast)) when the field qualifies. */
static void gather_finish(struct addrmap_gather *g)
{
    bool down = g->n_runs >= 1 && g->n_runs <= ADDRMAP_FAST_RUNS;
    for (unsigned i = 0; i < g->n_runs; i++)
        down &= g->run[i].dst <= g->run[i].src;
    g->n_fast = down ? g->n_runs : 0;
    for (unsigned i = 0; i < g->n_fast; i++) {
        g->fmask[i] = ((1ull << g->run[i].width) - 1) << g->run[i].src;
        g->fshift[i] = (uint8_t)(g->run[i].src - g->run[i].dst);
    }
}

/* Gather the bits of `lay` (one letter per bit, n bits) whose letter is in
 * `letters`, in increasing bit order. */
static void gather_letters(struct addrmap_gather *g, const char *lay, unsigned n, const char *letters)
{
    memset(g, 0, sizeof *g);
    unsigned dst = 0;
    for (unsigned i = 0; i < n; i++)
        if (strchr(letters, lay[i]))
            gather_add(g, i, dst++);
}

static const char *am_letter_name(char c)
{
    switch (c) {
    case 'D': return "D (channel)";
    case 'B': return "B (bank)";
    case 'R': return "R (row)";
    case 'C': return "C (column)";
    case 'S': return "S (burst)";
    default: return "?";
    }
}

/* Check a field's bit count against a configured count (0 = unchecked).
 * `key` is reported, `label` names the configured quantity in the message. */
static void check_count(struct am_build *b, char letter, unsigned have, uint64_t want, const char *key,
                        const char *label, const char *what)
{
    if (!want)
        return;
    if (!is_pow2_u64(want)) {
        am_fail(b, key, "%s = %llu is not a power of two: the map selects %s with %s bits", label,
                (unsigned long long)want, what, am_letter_name(letter));
        return;
    }
    unsigned need = log2_u64(want);
    if (have == need)
        return;
    if (have == 0)
        am_fail(b, key, "missing %s field: %s = %llu needs %u %c bits", am_letter_name(letter), label,
                (unsigned long long)want, need, letter);
    else
        am_fail(b, key, "the map has %u %c bits (%llu %s) but %s = %llu (needs %u)", have, letter, 1ull << have,
                what, label, (unsigned long long)want, need);
}

int addrmap_build(struct addrmap *m, const char *spec, const struct addrmap_geom *g, addrmap_report_fn report,
                  void *ctx)
{
    struct am_build b = {report, ctx, 0};
    memset(m, 0, sizeof *m);
    if (!spec || !*spec)
        spec = ADDRMAP_GTX480;
    const char *s = spec;
    while (isspace((unsigned char)*s))
        s++;

    /* --- syntax: optional "dramid@N;" then letters */
    bool chunked = false;
    unsigned chunk_shift = 0;
    if (strncmp(s, "dramid@", 7) == 0) {
        s += 7;
        if (!isdigit((unsigned char)*s)) {
            am_fail(&b, NULL, "'dramid@' must be followed by a bit number and ';' (e.g. dramid@8;)");
            return b.n_err;
        }
        unsigned long v = 0;
        while (isdigit((unsigned char)*s) && v < 1000)
            v = v * 10 + (unsigned long)(*s++ - '0');
        if (*s != ';') {
            am_fail(&b, NULL, "'dramid@%lu' must end with ';' before the bit string", v);
            return b.n_err;
        }
        s++;
        chunked = true;
        chunk_shift = (unsigned)v;
    }
    char raw[65];     /* letters as written, highest bit first */
    unsigned nraw = 0;
    for (const char *p = s; *p; p++) {
        char c = *p;
        if (c == '.')
            continue;
        if (isspace((unsigned char)c)) {
            const char *q = p;
            while (isspace((unsigned char)*q))
                q++;
            if (!*q)
                break; /* trailing blanks */
        }
        if (!strchr("DBRCS0", c)) {
            am_fail(&b, NULL, "unknown letter '%c' at character %u of the bit string (allowed: D B R C S 0, "
                    "'.' separators)", isprint((unsigned char)c) ? c : '?', (unsigned)(p - s) + 1);
            return b.n_err;
        }
        if (nraw == 64) {
            am_fail(&b, NULL, "more than 64 bits in the bit string");
            return b.n_err;
        }
        raw[nraw++] = c;
    }
    if (nraw == 0) {
        am_fail(&b, NULL, "empty bit string (example: " ADDRMAP_GTX480 ")");
        return b.n_err;
    }

    /* lay[i] = letter of bit i of A (chunk form: of R) */
    char lay[64];
    unsigned cnt[128] = {0};
    int top = -1;
    for (unsigned i = 0; i < nraw; i++) {
        lay[i] = raw[nraw - 1 - i];
        cnt[(unsigned char)lay[i]]++;
        if (lay[i] != '0')
            top = (int)i;
    }
    unsigned nD = cnt['D'], nB = cnt['B'], nR = cnt['R'], nC = cnt['C'], nS = cnt['S'];
    for (int i = 0; i < top; i++)
        if (lay[i] == '0') {
            am_fail(&b, NULL, "bit %d is unused ('0') below the highest used bit %d: addresses that differ "
                    "only there would alias (missing field bits?)", i, top);
            break;
        }

    /* --- channel selection */
    uint32_t n_ch = g->n_ch ? g->n_ch : 1;
    if (chunked && nD) {
        am_fail(&b, NULL, "D letters and the dramid@%u prefix both select the channel (overlapping channel "
                "fields): use one of them", chunk_shift);
    } else if (chunked) {
        if (chunk_shift < ADDRMAP_LINE_SHIFT)
            am_fail(&b, NULL, "dramid@%u starts the channel chunk inside a %u B L2 line (needs N >= %u)",
                    chunk_shift, ADDRMAP_LINE_BYTES, ADDRMAP_LINE_SHIFT);
        else if ((int)chunk_shift > top + 1)
            am_fail(&b, NULL, "dramid@%u is above the %d bits the string describes", chunk_shift, top + 1);
    } else if (nD == 0) {
        if (n_ch > 1)
            am_fail(&b, "mem.n_partitions", "missing channel field (no D letters and no dramid@N prefix) but "
                    "mem.n_partitions = %u", n_ch);
    } else {
        if (nD > 16 || n_ch != (1u << nD))
            am_fail(&b, "mem.n_partitions", "the map has %u D bits (%llu channels) but mem.n_partitions = %u "
                    "(a channel count that is not a power of two needs the dramid@N form)", nD,
                    nD > 16 ? 0ull : 1ull << nD, n_ch);
        for (unsigned i = 0; i < ADDRMAP_LINE_SHIFT && i < nraw; i++)
            if (lay[i] == 'D') {
                am_fail(&b, NULL, "D bit %u lies inside a %u B L2 line (bits 0-%u): a line would span channels",
                        i, ADDRMAP_LINE_BYTES, ADDRMAP_LINE_SHIFT - 1);
                break;
            }
    }

    /* --- R layout */
    char rl[64];
    unsigned nr = 0;
    for (int i = 0; i <= top; i++)
        if (lay[i] != 'D')
            rl[nr++] = lay[i];
    unsigned local_bits = nr;

    /* --- field sizes */
    check_count(&b, 'B', nB, g->banks, "dram.banks", "dram.banks", "banks");
    check_count(&b, 'R', nR, g->rows, "dram.rows", "dram.rows", "rows");
    check_count(&b, 'S', nS, g->burst_bytes, "dram.burst", "dram.bus_bytes x dram.burst",
                "bytes per column command");
    for (unsigned i = 0; i < nS && i < nr; i++)
        if (rl[i] != 'S') {
            am_fail(&b, NULL, "the S (burst) bits must be the lowest bits of the local address (local bit %u is "
                    "'%c')", i, rl[i]);
            break;
        }
    for (unsigned i = 0; i < ADDRMAP_LINE_SHIFT && i < nr; i++)
        if (rl[i] == 'B' || rl[i] == 'R') {
            am_fail(&b, NULL, "%s bit at local bit %u lies inside a %u B L2 line (bits 0-%u): a line would "
                    "span %s", am_letter_name(rl[i]), i, ADDRMAP_LINE_BYTES, ADDRMAP_LINE_SHIFT - 1,
                    rl[i] == 'B' ? "banks" : "rows");
            break;
        }
    if (local_bits > ADDRMAP_MAX_LOCAL_BITS)
        am_fail(&b, NULL, "the map uses %u partition-local bits; at most %u (1 TB per channel)", local_bits,
                ADDRMAP_MAX_LOCAL_BITS);
    if (nC + nS > 31)
        am_fail(&b, NULL, "a row of 2^%u bytes (C + S bits) is too large (at most 2^31)", nC + nS);
    if (nB > 16 || nR > 31)
        am_fail(&b, NULL, "%u B bits / %u R bits: at most 16 / 31", nB, nR);

    /* --- sub-partition and L2 set */
    uint32_t n_sub = g->n_sub_per_ch ? g->n_sub_per_ch : 1;
    unsigned sub_bits = 0;
    if (!is_pow2_u64(n_sub)) {
        am_fail(&b, "mem.sub_per_partition", "mem.sub_per_partition = %u is not a power of two: the "
                "sub-partition is selected by the lowest bank bits", n_sub);
    } else {
        sub_bits = log2_u64(n_sub);
        if (sub_bits > nB)
            am_fail(&b, "mem.sub_per_partition", "mem.sub_per_partition = %u needs %u bank bits to select the "
                    "sub-partition (the lowest B bits) but the map has %u B bits", n_sub, sub_bits, nB);
    }
    unsigned set_bits = 0;
    if (g->l2_sets) {
        if (!is_pow2_u64(g->l2_sets))
            am_fail(&b, "l2.size_per_sub", "%u L2 sets is not a power of two", g->l2_sets);
        else {
            set_bits = log2_u64(g->l2_sets);
            if (local_bits < sub_bits + ADDRMAP_LINE_SHIFT + set_bits)
                am_fail(&b, "l2.size_per_sub", "%u L2 sets need local bits %u-%u without the %u sub-partition "
                        "bit(s); the map has %u local bits", g->l2_sets, ADDRMAP_LINE_SHIFT,
                        ADDRMAP_LINE_SHIFT + set_bits - 1, sub_bits, local_bits);
        }
    }
    if (b.n_err)
        return b.n_err;

    /* --- compile */
    m->n_ch = n_ch;
    m->n_sub_per_ch = n_sub;
    m->l2_sets = g->l2_sets ? g->l2_sets : 1;
    m->local_bits = local_bits;
    m->local_bytes = 1ull << local_bits;
    m->banks = 1u << nB;
    m->rows = 1u << nR;
    m->row_bytes = 1u << (nC + nS);
    m->burst_bytes = 1u << nS;
    m->chunked = chunked || nD == 0;
    m->chunk_shift = chunked ? chunk_shift : local_bits; /* no channel field: one channel, any shift */
    m->ch_pow2 = is_pow2_u64(n_ch);
    m->ch_shift = log2_u64(n_ch);
    if (!m->chunked) {
        unsigned d = 0, r = 0;
        for (int i = 0; i <= top; i++) {
            if (lay[i] == 'D') {
                gather_add(&m->ch_of_a, (unsigned)i, d);
                gather_add(&m->a_of_ch, d, (unsigned)i);
                m->ch_mask_a |= 1ull << i;
                d++;
            } else {
                gather_add(&m->r_of_a, (unsigned)i, r);
                gather_add(&m->a_of_r, r, (unsigned)i);
                r++;
            }
        }
    }
    gather_letters(&m->bank, rl, nr, "B");
    gather_letters(&m->row, rl, nr, "R");
    gather_letters(&m->col, rl, nr, "SC");
    /* L2 set: local bits without the sub-partition bits (the lowest sub_bits
     * B bits), then bits LINE_SHIFT .. LINE_SHIFT + set_bits - 1 of that. */
    unsigned nn = 0, skipped = 0;
    uint8_t pos[64];
    for (unsigned i = 0; i < nr; i++) {
        if (rl[i] == 'B' && skipped < sub_bits) {
            skipped++;
            continue;
        }
        pos[nn++] = (uint8_t)i;
    }
    memset(&m->l2_set, 0, sizeof m->l2_set);
    for (unsigned k = 0; k < set_bits; k++)
        gather_add(&m->l2_set, pos[ADDRMAP_LINE_SHIFT + k], k);
    struct addrmap_gather *all[] = {&m->ch_of_a, &m->r_of_a, &m->a_of_r, &m->a_of_ch,
                                    &m->bank,    &m->row,    &m->col,    &m->l2_set};
    for (size_t i = 0; i < ARRAY_LEN(all); i++)
        gather_finish(all[i]);
    for (unsigned i = 0; i < nr; i++) {
        if (rl[i] == 'B')
            m->bank_mask_r |= 1ull << i;
        if (rl[i] == 'R')
            m->row_mask_r |= 1ull << i;
    }
    return 0;
}

struct am_panic_ctx {
    const char *spec; /* string being built */
    int n;            /* messages printed */
};

static void am_panic_report(void *ctx, const char *key, const char *msg)
{
    struct am_panic_ctx *p = ctx;
    p->n++;
    fprintf(stderr, "gpusim: addrmap '%s': %s%s%s\n", p->spec, key ? key : "", key ? ": " : "", msg);
}

void addrmap_init_spec(struct addrmap *m, const char *spec, uint32_t n_ch, uint32_t n_sub_per_ch, uint32_t banks,
                       uint32_t rows, uint32_t l2_sets)
{
    struct addrmap_geom g = {n_ch, n_sub_per_ch, banks, rows, 0, l2_sets};
    struct am_panic_ctx p = {spec && *spec ? spec : ADDRMAP_GTX480, 0};
    if (n_ch < 1 || n_sub_per_ch < 1 || addrmap_build(m, spec, &g, am_panic_report, &p) != 0)
        sim_panic("addrmap: invalid map for n_ch %u, sub/ch %u, banks %u, rows %u, l2 sets %u (the config "
                  "check must refuse it first)", n_ch, n_sub_per_ch, banks, rows, l2_sets);
}

void addrmap_init(struct addrmap *m, uint32_t n_ch, uint32_t n_sub_per_ch, uint32_t banks, uint32_t rows,
                  uint32_t l2_sets)
{
    addrmap_init_spec(m, ADDRMAP_GTX480, n_ch, n_sub_per_ch, banks, rows, l2_sets);
}

/* ----------------------------------------------------------------- decode */

uint64_t addrmap_capacity(const struct addrmap *m) { return m->local_bytes * m->n_ch; }

uint32_t addrmap_local_bank(const struct addrmap *m, uint64_t r) { return (uint32_t)addrmap_gather_bits(&m->bank, r); }

uint32_t addrmap_local_row(const struct addrmap *m, uint64_t r) { return (uint32_t)addrmap_gather_bits(&m->row, r); }

uint32_t addrmap_local_col(const struct addrmap *m, uint64_t r) { return (uint32_t)addrmap_gather_bits(&m->col, r); }

uint32_t addrmap_local_l2_set(const struct addrmap *m, uint64_t r)
{
    return (uint32_t)addrmap_gather_bits(&m->l2_set, r);
}

bool addrmap_decode(const struct addrmap *m, uint64_t a, struct addrmap_loc *out)
{
    if (a >= m->local_bytes * m->n_ch)
        return false;
    uint32_t ch;
    uint64_t r;
    if (m->chunked) {
        uint64_t chunk = a >> m->chunk_shift, q;
        if (m->ch_pow2) {
            ch = (uint32_t)(chunk & (m->n_ch - 1));
            q = chunk >> m->ch_shift;
        } else {
            ch = (uint32_t)(chunk % m->n_ch);
            q = chunk / m->n_ch;
        }
        r = (q << m->chunk_shift) | (a & ((1ull << m->chunk_shift) - 1));
    } else {
        ch = (uint32_t)addrmap_gather_bits(&m->ch_of_a, a);
        r = addrmap_gather_bits(&m->r_of_a, a);
    }
    uint32_t bank = (uint32_t)addrmap_gather_bits(&m->bank, r);
    out->channel = ch;
    out->local = r;
    out->bank = bank;
    out->row = (uint32_t)addrmap_gather_bits(&m->row, r);
    out->col = (uint32_t)addrmap_gather_bits(&m->col, r);
    out->sub = ch * m->n_sub_per_ch + (bank & (m->n_sub_per_ch - 1));
    out->l2_set = (uint32_t)addrmap_gather_bits(&m->l2_set, r);
    return true;
}

uint64_t addrmap_encode(const struct addrmap *m, uint32_t channel, uint64_t local)
{
    SIM_ASSERT(channel < m->n_ch && local < m->local_bytes, "addrmap: channel %u / local 0x%llx out of range",
               channel, (unsigned long long)local);
    if (m->chunked) {
        uint64_t low = local & ((1ull << m->chunk_shift) - 1);
        return ((((local >> m->chunk_shift) * m->n_ch) + channel) << m->chunk_shift) | low;
    }
    return addrmap_gather_bits(&m->a_of_r, local) | addrmap_gather_bits(&m->a_of_ch, channel);
}
