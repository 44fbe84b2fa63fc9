/* partitions/addrmap/pagetable.h: device (virtual) address -> physical address, with
 * a frame allocator (spec dram-temp-tbas.md §2.2, §3.2-3.4; docs/addrmap.md
 * "Page table").
 *
 * What is modelled: one global page table of fixed-size pages (vm.page_size,
 * a power of two, 4 KB by default) over the device window [va_base, va_base
 * + capacity), where capacity = addrmap_capacity(map): the physical address
 * space is the one the address map decodes (0 .. capacity-1), and a physical
 * address goes straight to addrmap_decode. Policies (vm.page_policy):
 *   identity     paddr = vaddr - va_base; no table, nothing to allocate.
 *   first_touch  frames handed out sequentially (0, 1, 2, ...) in the order
 *                pages are mapped.
 *   colour       page colouring: the frame is the lowest free one whose
 *                colour (channel and bank of its physical address) equals
 *                the colour a policy callback asks for; colours are numbered
 *                channel-fastest, colour = bank * n_ch + channel. Needs a map
 *                in which a page lies in one channel and bank (its offset
 *                bits are S/C bits, as in TEMP's Fig. 30(c) map). The
 *                built-in callback (pagetable_colour_rr) gives the k-th page
 *                mapped colour k mod n_colours: consecutive pages go to
 *                consecutive channels, then banks. TEMP/TBAS install their
 *                own callback with pagetable_set_colour_fn; the hint passed
 *                to the mapping calls (e.g. the owner SM) reaches it.
 * If the requested colour has no free frame, the next colours (c+1, c+2, ...)
 * are tried in order.
 *
 * NOTE(pt-determinism): mapping happens only in serial contexts, never on a
 * simulation thread inside a quantum: pagetable_map_range at gs_mem_alloc
 * time (host API, program order) and at kernel launch for the simulator's
 * own regions, or pagetable_map_page from the engine's serial step with
 * requests sorted by (cycle, SM id, sequence number) for TEMP's dynamic
 * first-touch mode (dram-temp-tbas.md §3.4). The frame chosen therefore
 * depends only on the order of those calls, never on host threads; during a
 * quantum the table is read-only (pagetable_translate) and may be read by
 * every thread. Allocation at gs_mem_alloc was chosen as the default because
 * it needs no stall/replay machinery in the SM and keeps translation a pure
 * lookup; its cost is that first_touch there means "first allocated".
 *
 * Not modelled: TLBs and page walks (ideal translation, which the TEMP
 * document accepts), unmapping and frame reuse (device memory is never
 * reused after gs_mem_free, so neither are frames), a memory id (one kind of
 * memory), page-fault cost.
 *
 * Operation mix: translate once per memory request (an array lookup, or a
 * subtraction for identity); map calls are rare (allocation or first touch).
 */
#ifndef GPUSIM_PARTITIONS_ADDRMAP_PAGETABLE_H
#define GPUSIM_PARTITIONS_ADDRMAP_PAGETABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "partitions/addrmap/addrmap.h"
#include "sim/cfg/config.h"

/* ------------------------------------------------------------ configuration */

enum pagetable_policy { PAGETABLE_IDENTITY = 0, PAGETABLE_FIRST_TOUCH = 1, PAGETABLE_COLOUR = 2 };

/* Section "vm" (keys in partitions/addrmap/pagetable_cfg.c). Field types follow the
 * cfg machinery (uint64_t for CFG_SIZE, int for CFG_ENUM). */
struct cfg_section;

struct vm_cfg {
    uint64_t page_size; /* vm.page_size: bytes per page (power of two, >= 128) */
    int page_policy;    /* vm.page_policy: enum pagetable_policy */
};

#define VM_CFG_N_KEYS 2
extern const struct cfg_key vm_cfg_keys[VM_CFG_N_KEYS];
extern const struct cfg_section vm_cfg_section;
void vm_cfg_defaults(struct vm_cfg *c);
/* Section check (cross-field rules with the dram and mem sections): the
 * `check` member of the "vm" cfg_section; sec points at a struct vm_cfg. */
void vm_cfg_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck);

/* Rules between a vm configuration and a built address map; every violation
 * goes to report (may be NULL) with the key and a message; returns their
 * number. Used by vm_cfg_check and pagetable_init. */
int pagetable_cfg_validate(const struct vm_cfg *c, const struct addrmap *map, addrmap_report_fn report, void *ctx);

/* ------------------------------------------------------------------- state */

#define PAGETABLE_NONE UINT64_MAX     /* translate: not mapped or outside the window */
#define PAGETABLE_HINT_NONE (-1)      /* map calls: no owner hint */
#define PAGETABLE_MAX_PAGES (1u << 28) /* table entries at most (two uint32 arrays of this size) */

struct pagetable;

/* Colour policy: the colour (0 .. pt->n_colours-1; larger values are taken
 * modulo) wanted for virtual page `vpn` (index from va_base), given the
 * caller's hint (e.g. the SM that first touched it, or PAGETABLE_HINT_NONE).
 * Called only from the serial contexts of NOTE(pt-determinism). */
typedef uint32_t (*pagetable_colour_fn)(void *ctx, const struct pagetable *pt, uint64_t vpn, int32_t hint);

struct pagetable {
    int policy;               /* enum pagetable_policy */
    uint64_t va_base;         /* first virtual address of the window (bytes) */
    uint64_t bytes;           /* window size = physical capacity (bytes) */
    uint32_t page_shift;      /* log2(page size) */
    uint64_t n_pages;         /* pages in the window = physical frames */
    uint32_t *frame_of;       /* [n_pages] frame + 1 of each virtual page, 0 = unmapped (NULL: identity) */
    uint32_t *vpn_of;         /* [n_pages] virtual page + 1 in each frame, 0 = free (NULL: identity) */
    uint64_t n_mapped;        /* pages mapped so far */
    uint64_t next_frame;      /* first_touch: next frame to hand out */
    const struct addrmap *map;/* address map (colours); must outlive the table */
    uint32_t n_colours;       /* colour: n_ch * banks */
    uint64_t *cursor;         /* colour: [n_colours] lowest frame of that colour that may be free */
    pagetable_colour_fn colour_fn; /* colour: policy callback (default pagetable_colour_rr) */
    void *colour_ctx;         /* its context */
};

/* ------------------------------------------------------------------- API */

/* Set up the table for the window [va_base, va_base + addrmap_capacity(map))
 * from a validated configuration (panics on one pagetable_cfg_validate
 * rejects). Allocates the tables for first_touch and colour (zeroed, so the
 * host only commits the pages of entries actually used). The partitions
 * decode window-relative addresses (dev - DEVMEM_BASE), so the timing model
 * uses va_base = 0. */
void pagetable_init(struct pagetable *pt, const struct vm_cfg *cfg, const struct addrmap *map, uint64_t va_base);
void pagetable_fini(struct pagetable *pt);

/* Colour policy callback (colour policy only); NULL restores pagetable_colour_rr. */
void pagetable_set_colour_fn(struct pagetable *pt, pagetable_colour_fn fn, void *ctx);

/* The example policy: the k-th page mapped gets colour k mod n_colours. */
uint32_t pagetable_colour_rr(void *ctx, const struct pagetable *pt, uint64_t vpn, int32_t hint);

/* Colour of physical frame f: bank * n_ch + channel of its first byte. */
uint32_t pagetable_frame_colour(const struct pagetable *pt, uint64_t frame);

/* Map the page holding vaddr if it is not mapped yet. Serial contexts only
 * (NOTE(pt-determinism)). False when vaddr is outside the window or no
 * frame is free. Identity: true for any vaddr in the window. */
bool pagetable_map_page(struct pagetable *pt, uint64_t vaddr, int32_t hint);
/* Map every page overlapping [vaddr, vaddr + bytes), lowest page first.
 * False (pages before the failure stay mapped) as for pagetable_map_page. */
bool pagetable_map_range(struct pagetable *pt, uint64_t vaddr, uint64_t bytes, int32_t hint);

/* Physical address of vaddr, or PAGETABLE_NONE when vaddr is outside the
 * window or its page is not mapped. PAGETABLE_NONE is never below
 * addrmap_capacity, so addrmap_decode(map, pagetable_translate(...)) fails
 * cleanly on it. Read-only: safe from any thread during a quantum. */
static inline uint64_t pagetable_translate(const struct pagetable *pt, uint64_t vaddr)
{
    uint64_t off = vaddr - pt->va_base;
    if (vaddr < pt->va_base || off >= pt->bytes)
        return PAGETABLE_NONE;
    if (!pt->frame_of)
        return off;
    uint32_t f = pt->frame_of[off >> pt->page_shift];
    if (!f)
        return PAGETABLE_NONE;
    return ((uint64_t)(f - 1) << pt->page_shift) | (off & ((1ull << pt->page_shift) - 1));
}

/* Virtual address of physical address paddr, or PAGETABLE_NONE when paddr
 * is outside the physical space or its frame is free. */
static inline uint64_t pagetable_untranslate(const struct pagetable *pt, uint64_t paddr)
{
    if (paddr >= pt->bytes)
        return PAGETABLE_NONE;
    if (!pt->vpn_of)
        return pt->va_base + paddr;
    uint32_t v = pt->vpn_of[paddr >> pt->page_shift];
    if (!v)
        return PAGETABLE_NONE;
    return pt->va_base + (((uint64_t)(v - 1) << pt->page_shift) | (paddr & ((1ull << pt->page_shift) - 1)));
}

#endif /* GPUSIM_PARTITIONS_ADDRMAP_PAGETABLE_H */
