/* sim/icnt/route.h: where a memory request goes, as the SM side sees it.
 *
 * The SM needs one answer about a device address: the interconnect
 * endpoint of the memory sub-partition that homes it. How addresses are
 * decoded (address-map string, page table, partition-local capacity) is the
 * memory side's business (partitions/), so the SM gets this small interface
 * instead of the partitions' headers; the GPU assembly (sim/gpu/gpu.c)
 * provides the function. Pure, read-only, callable from any thread.
 */
#ifndef GPUSIM_SIM_ICNT_ROUTE_H
#define GPUSIM_SIM_ICNT_ROUTE_H

#include <stdint.h>

#define MEM_ROUTE_NONE UINT32_MAX /* address not mapped to any partition */

struct mem_route {
    /* Request-network endpoint of the sub-partition homing device address
     * dev_addr, or MEM_ROUTE_NONE. */
    uint32_t (*ep_of)(const void *ctx, uint64_t dev_addr);
    const void *ctx; /* argument of ep_of (the GPU model) */
};

#endif /* GPUSIM_SIM_ICNT_ROUTE_H */
