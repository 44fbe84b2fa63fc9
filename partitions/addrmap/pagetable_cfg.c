/* partitions/addrmap/pagetable_cfg.c: the vm.* configuration keys (owned by
 * partitions/addrmap/pagetable.c) and their cross-field rules with the address map.
 * Defaults give the identity mapping, which changes no statistic.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "partitions/addrmap/pagetable.h"
#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"

static const char *const vm_policy_choices[] = {"identity", "first_touch", "colour", NULL};

const struct cfg_key vm_cfg_keys[VM_CFG_N_KEYS] = {
    {"page_size", CFG_SIZE, offsetof(struct vm_cfg, page_size), 128, 1073741824.0, "4K", NULL,
     "page size (bytes, power of two) of the device page table (dram-temp-tbas.md: 4 KB)"},
    {"page_policy", CFG_ENUM, offsetof(struct vm_cfg, page_policy), 0, 0, "identity", vm_policy_choices,
     "frame allocation: identity (physical = device address), first_touch (sequential frames in mapping "
     "order) or colour (frame whose channel/bank matches a colour policy; docs/addrmap.md)"},
};

void vm_cfg_defaults(struct vm_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->page_size = 4096;
    c->page_policy = PAGETABLE_IDENTITY;
}

int pagetable_cfg_validate(const struct vm_cfg *c, const struct addrmap *map, addrmap_report_fn report, void *ctx)
{
    int n = 0;
    char msg[320];
#define RULE(ok, key, ...)                                                                         \
    do {                                                                                           \
        if (!(ok)) {                                                                               \
            n++;                                                                                   \
            if (report) {                                                                          \
                snprintf(msg, sizeof msg, __VA_ARGS__);                                            \
                report(ctx, key, msg);                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)
    bool pow2 = c->page_size >= ADDRMAP_LINE_BYTES && (c->page_size & (c->page_size - 1)) == 0;
    RULE(pow2, "vm.page_size", "%llu is not a power of two >= %u (rule: whole L2 lines per page)",
         (unsigned long long)c->page_size, ADDRMAP_LINE_BYTES);
    RULE(c->page_policy >= PAGETABLE_IDENTITY && c->page_policy <= PAGETABLE_COLOUR, "vm.page_policy",
         "unknown policy %d", c->page_policy);
    if (!pow2 || !map)
        return n;
    uint64_t cap = addrmap_capacity(map);
    RULE(c->page_size <= cap, "vm.page_size", "%llu is larger than the %llu bytes the address map covers",
         (unsigned long long)c->page_size, (unsigned long long)cap);
    if (c->page_policy != PAGETABLE_IDENTITY)
        RULE(cap / c->page_size <= PAGETABLE_MAX_PAGES, "vm.page_size",
             "%llu gives %llu pages over the %llu MB the address map covers; at most %u (raise vm.page_size)",
             (unsigned long long)c->page_size, (unsigned long long)(cap / c->page_size),
             (unsigned long long)(cap >> 20), PAGETABLE_MAX_PAGES);
    if (c->page_policy == PAGETABLE_COLOUR) {
        uint64_t off = c->page_size - 1; /* page-offset bits */
        bool ch_ok = map->n_ch == 1 || (map->chunked ? (1ull << map->chunk_shift) > off : (map->ch_mask_a & off) == 0);
        RULE(ch_ok, "vm.page_policy",
             "colour needs a page to lie in one channel, but dram.addr_map selects the channel with bits "
             "inside the %llu-byte page offset (use dramid@N with N >= log2(vm.page_size), or D bits above it)",
             (unsigned long long)c->page_size);
        RULE(((map->bank_mask_r | map->row_mask_r) & off) == 0, "vm.page_policy",
             "colour needs a page to lie in one bank and row, but dram.addr_map has B or R bits inside the "
             "%llu-byte page offset (the offset must be S and C bits, as in TEMP's map)",
             (unsigned long long)c->page_size);
    }
#undef RULE
    return n;
}

static void vm_report(void *ctx, const char *key, const char *msg) { cfg_check_fail(ctx, key, "%s", msg); }

void vm_cfg_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    const struct vm_cfg *c = sec;
    struct addrmap_geom g = {(uint32_t)all->mem.n_partitions, (uint32_t)all->mem.sub_per_partition,
                             (uint32_t)all->dram.banks, (uint32_t)all->dram.rows, 0, 0};
    struct addrmap m;
    /* An invalid map is the dram section's error; then only the map-free rules run here. */
    bool map_ok = g.n_ch >= 1 && g.n_sub_per_ch >= 1 && addrmap_build(&m, all->dram.addr_map, &g, NULL, NULL) == 0;
    pagetable_cfg_validate(c, map_ok ? &m : NULL, vm_report, ck);
}

const struct cfg_section vm_cfg_section = {"vm", "device page table and frame allocator (docs/addrmap.md)",
                                           offsetof(struct sim_cfg, vm), vm_cfg_keys, VM_CFG_N_KEYS, vm_cfg_check};
