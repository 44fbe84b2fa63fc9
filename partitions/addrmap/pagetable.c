/* partitions/addrmap/pagetable.c: page table and frame allocator. See pagetable.h
 * for the policies and NOTE(pt-determinism).
 *
 * Colour allocation: each colour keeps a cursor, the lowest frame that may
 * still be free and of that colour; a request scans upward from it. Every
 * cursor passes each frame at most once over a run, so the total work is
 * bounded by n_colours x n_frames colour computations (one addrmap_decode
 * each), all in serial contexts.
 */
#include "partitions/addrmap/pagetable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"

static void pt_init_report(void *ctx, const char *key, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "gpusim: pagetable: %s: %s\n", key ? key : "", msg);
}

void pagetable_init(struct pagetable *pt, const struct vm_cfg *cfg, const struct addrmap *map, uint64_t va_base)
{
    if (pagetable_cfg_validate(cfg, map, pt_init_report, NULL) != 0)
        sim_panic("pagetable: invalid configuration reached pagetable_init (the config check must refuse it)");
    memset(pt, 0, sizeof *pt);
    pt->policy = cfg->page_policy;
    pt->va_base = va_base;
    pt->bytes = addrmap_capacity(map);
    pt->page_shift = (uint32_t)__builtin_ctzll(cfg->page_size);
    pt->n_pages = pt->bytes >> pt->page_shift;
    pt->map = map;
    pt->n_colours = map->n_ch * map->banks;
    pt->colour_fn = pagetable_colour_rr;
    if (pt->policy == PAGETABLE_IDENTITY)
        return;
    pt->frame_of = xcalloc(pt->n_pages, sizeof *pt->frame_of);
    pt->vpn_of = xcalloc(pt->n_pages, sizeof *pt->vpn_of);
    if (pt->policy == PAGETABLE_COLOUR)
        pt->cursor = xcalloc(pt->n_colours, sizeof *pt->cursor);
}

void pagetable_fini(struct pagetable *pt)
{
    free(pt->frame_of);
    free(pt->vpn_of);
    free(pt->cursor);
    memset(pt, 0, sizeof *pt);
}

void pagetable_set_colour_fn(struct pagetable *pt, pagetable_colour_fn fn, void *ctx)
{
    pt->colour_fn = fn ? fn : pagetable_colour_rr;
    pt->colour_ctx = fn ? ctx : NULL;
}

uint32_t pagetable_colour_rr(void *ctx, const struct pagetable *pt, uint64_t vpn, int32_t hint)
{
    (void)ctx;
    (void)vpn;
    (void)hint;
    return (uint32_t)(pt->n_mapped % pt->n_colours);
}

uint32_t pagetable_frame_colour(const struct pagetable *pt, uint64_t frame)
{
    struct addrmap_loc loc;
    bool ok = addrmap_decode(pt->map, frame << pt->page_shift, &loc);
    SIM_ASSERT(ok, "pagetable: frame %llu outside the address map", (unsigned long long)frame);
    return loc.bank * pt->map->n_ch + loc.channel;
}

/* A free frame for virtual page vpn, or UINT64_MAX when none is left. */
static uint64_t pt_pick_frame(struct pagetable *pt, uint64_t vpn, int32_t hint)
{
    if (pt->policy == PAGETABLE_FIRST_TOUCH)
        return pt->next_frame < pt->n_pages ? pt->next_frame++ : UINT64_MAX;
    uint32_t want = pt->colour_fn(pt->colour_ctx, pt, vpn, hint) % pt->n_colours;
    for (uint32_t t = 0; t < pt->n_colours; t++) {
        uint32_t c = (want + t) % pt->n_colours;
        uint64_t f = pt->cursor[c];
        while (f < pt->n_pages && (pt->vpn_of[f] || pagetable_frame_colour(pt, f) != c))
            f++;
        pt->cursor[c] = f;
        if (f < pt->n_pages)
            return f;
    }
    return UINT64_MAX;
}

bool pagetable_map_page(struct pagetable *pt, uint64_t vaddr, int32_t hint)
{
    uint64_t off = vaddr - pt->va_base;
    if (vaddr < pt->va_base || off >= pt->bytes)
        return false;
    if (pt->policy == PAGETABLE_IDENTITY)
        return true;
    uint64_t vpn = off >> pt->page_shift;
    if (pt->frame_of[vpn])
        return true;
    uint64_t f = pt_pick_frame(pt, vpn, hint);
    if (f == UINT64_MAX)
        return false;
    pt->frame_of[vpn] = (uint32_t)(f + 1);
    pt->vpn_of[f] = (uint32_t)(vpn + 1);
    pt->n_mapped++;
    return true;
}

bool pagetable_map_range(struct pagetable *pt, uint64_t vaddr, uint64_t bytes, int32_t hint)
{
    if (bytes == 0)
        return true;
    uint64_t page = 1ull << pt->page_shift;
    uint64_t first = vaddr & ~(page - 1);
    uint64_t last = (vaddr + bytes - 1) & ~(page - 1);
    if (vaddr + bytes - 1 < vaddr)
        return false;
    for (uint64_t p = first;; p += page) {
        if (!pagetable_map_page(pt, p, hint))
            return false;
        if (p == last)
            return true;
    }
}
