/* sim/sm/sched/scoreboard.c: per-warp pending-write scoreboard (see scoreboard.h).
 *
 * NOTE(sb-bitset): one bitset of SB_N_IDS bits per warp (5 words) plus a
 * long-latency subset. WAW is never allowed to issue, so a register has at
 * most one pending write and a bit (not a counter) is exact. The check is
 * <= SB_MAX_REGS bit tests; a warp with nothing pending (n_pend == 0, the
 * common case) is answered without touching the bitsets.
 */
#include "sim/sm/sched/scoreboard.h"

#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/ptx/ir.h"

void scoreboard_init(struct scoreboard *sb, uint32_t n_warps)
{
    memset(sb, 0, sizeof *sb);
    SIM_ASSERT(n_warps >= 1, "scoreboard_init: no warps");
    sb->n_warps = n_warps;
    sb->pend = xcalloc(n_warps, sizeof *sb->pend);
    sb->lng = xcalloc(n_warps, sizeof *sb->lng);
    sb->n_pend = xcalloc(n_warps, sizeof *sb->n_pend);
    sb->n_long = xcalloc(n_warps, sizeof *sb->n_long);
}

void scoreboard_fini(struct scoreboard *sb)
{
    free(sb->pend);
    free(sb->lng);
    free(sb->n_pend);
    free(sb->n_long);
    memset(sb, 0, sizeof *sb);
}

static inline bool bit(const uint64_t *set, uint16_t id) { return (set[id >> 6] >> (id & 63)) & 1u; }

bool scoreboard_pending(const struct scoreboard *sb, uint32_t warp, uint16_t reg)
{
    SIM_ASSERT(warp < sb->n_warps && reg < SB_N_IDS, "scoreboard: warp %u reg %u out of range", warp, reg);
    return bit(sb->pend[warp], reg);
}

enum sb_hazard scoreboard_check(const struct scoreboard *sb, uint32_t warp, const struct sb_regs *r,
                                bool *on_long)
{
    if (on_long)
        *on_long = false;
    if (sb->n_pend[warp] == 0)
        return SB_CLEAR;
    const uint64_t *p = sb->pend[warp];
    unsigned n = (unsigned)r->n_src + r->n_dst;
    for (unsigned i = 0; i < n; i++) {
        uint16_t id = r->reg[i];
        if (bit(p, id)) {
            if (on_long)
                *on_long = bit(sb->lng[warp], id);
            return i < r->n_src ? SB_RAW : SB_WAW;
        }
    }
    return SB_CLEAR;
}

void scoreboard_reserve(struct scoreboard *sb, uint32_t warp, const struct sb_regs *r, bool long_lat)
{
    SIM_ASSERT(warp < sb->n_warps, "scoreboard: reserve for warp %u", warp);
    for (unsigned i = r->n_src; i < (unsigned)r->n_src + r->n_dst; i++) {
        uint16_t id = r->reg[i];
        SIM_ASSERT(id < SB_N_IDS, "scoreboard: register id %u", id);
        if (bit(sb->pend[warp], id))
            sim_panic("scoreboard: warp %u issued with a WAW hazard on register id %u", warp, id);
        sb->pend[warp][id >> 6] |= 1ull << (id & 63);
        sb->n_pend[warp]++;
        if (long_lat) {
            sb->lng[warp][id >> 6] |= 1ull << (id & 63);
            sb->n_long[warp]++;
        }
        sb->n_reserved++;
    }
}

bool scoreboard_release(struct scoreboard *sb, uint32_t warp, uint16_t reg)
{
    SIM_ASSERT(warp < sb->n_warps && reg < SB_N_IDS, "scoreboard: release warp %u reg %u", warp, reg);
    if (!bit(sb->pend[warp], reg))
        sim_panic("scoreboard: warp %u releases register id %u with no pending write", warp, reg);
    uint64_t m = 1ull << (reg & 63);
    sb->pend[warp][reg >> 6] &= ~m;
    sb->n_pend[warp]--;
    sb->n_released++;
    if (sb->lng[warp][reg >> 6] & m) {
        sb->lng[warp][reg >> 6] &= ~m;
        return --sb->n_long[warp] == 0;
    }
    return false;
}

void scoreboard_warp_reset(struct scoreboard *sb, uint32_t warp)
{
    SIM_ASSERT(warp < sb->n_warps, "scoreboard: reset warp %u", warp);
    if (sb->n_pend[warp] != 0)
        sim_panic("scoreboard: warp slot %u reused with %u pending writes", warp, sb->n_pend[warp]);
    memset(sb->pend[warp], 0, sizeof sb->pend[warp]);
    memset(sb->lng[warp], 0, sizeof sb->lng[warp]);
    sb->n_long[warp] = 0;
}

bool sb_regs_add(struct sb_regs *r, uint16_t id, bool dst)
{
    unsigned lo = dst ? r->n_src : 0, hi = dst ? (unsigned)r->n_src + r->n_dst : r->n_src;
    for (unsigned i = lo; i < hi; i++)
        if (r->reg[i] == id)
            return true;
    if ((unsigned)r->n_src + r->n_dst >= SB_MAX_REGS)
        return false;
    if (dst) {
        r->reg[r->n_src + r->n_dst] = id;
        r->n_dst++;
    } else {
        /* keep sources first: shift the destinations up by one */
        memmove(&r->reg[r->n_src + 1], &r->reg[r->n_src], r->n_dst * sizeof r->reg[0]);
        r->reg[r->n_src] = id;
        r->n_src++;
    }
    return true;
}

struct regs_ctx {
    const struct ptx_func *fn;
    struct sb_regs *out;
    bool ok;
};

static void add_vreg(int32_t vreg, int is_def, void *p)
{
    struct regs_ctx *c = p;
    if (vreg < 0 || (uint32_t)vreg >= c->fn->n_regs)
        return;
    const struct ptx_reg *pr = &c->fn->regs[vreg];
    if (pr->phys < 0)
        return;
    if (pr->is_pred) {
        if (pr->phys >= SB_MAX_PRED || !sb_regs_add(c->out, SB_PRED(pr->phys), is_def != 0))
            c->ok = false;
        return;
    }
    unsigned n = pr->n_phys ? pr->n_phys : 1;
    for (unsigned i = 0; i < n; i++) {
        int32_t phys = pr->phys + (int32_t)i;
        if (phys >= SB_MAX_GPR || !sb_regs_add(c->out, SB_GPR(phys), is_def != 0))
            c->ok = false;
    }
}

bool scoreboard_regs_from_insn(const struct ptx_func *fn, const struct ptx_insn *in, struct sb_regs *out)
{
    memset(out, 0, sizeof *out);
    struct regs_ctx c = {fn, out, true};
    ptx_insn_for_each_reg(in, add_vreg, &c);
    return c.ok;
}
