/* sync/topo.h: host CPU topology and thread pinning (hwloc).
 *
 * What it models: the host machine the simulator runs on, reduced to what
 * the engine needs to place its threads: the number of physical cores, the
 * number of processing units (PUs, hardware threads), and two orders in
 * which to hand out PUs to engine threads:
 *
 *  - ENG_PIN_CORES: the first PU of every physical core, in core order, then
 *    the second PU of every core, and so on. Engine threads are compute-bound
 *    and share little, so one per core first avoids two of them competing for
 *    one core's pipelines while another core idles.
 *  - ENG_PIN_COMPACT: PUs in hwloc logical order, so SMT siblings are
 *    adjacent (threads 0 and 1 share a core when it has two PUs).
 *
 * Thread index i gets entry i modulo the number of PUs, so more threads than
 * PUs wrap around (oversubscription is legal; the barrier sleeps in futex).
 * Entries are OS CPU indices (what sched_getcpu() and cpu_set_t use), which
 * on many machines are interleaved differently from hwloc logical indices.
 *
 * Not modelled: NUMA placement of memory (first touch by the owning thread,
 * see sync/arena.h, gives it implicitly), caches, and CPU hot-plug after
 * topo_init.
 *
 * Only the PUs this process may run on count (NOTE(pin-allowed) in
 * topo.c): under `taskset -c 2,3` the host is two PUs, 2 and 3, and the
 * cores are those holding an allowed PU.
 *
 * When hwloc cannot load the topology, topo_init falls back to a flat
 * machine of the allowed CPUs (sched_getaffinity), each its own core, and
 * returns -1; the struct is usable either way.
 *
 * Thread safety: init and fini on one thread; every other call only reads
 * the struct (hwloc allows concurrent readers of one topology), so all
 * engine threads may call topo_pin_self at the same time.
 */
#ifndef GPUSIM_SYNC_TOPO_H
#define GPUSIM_SYNC_TOPO_H

#include <stdbool.h>

#include "sync/engine.h" /* enum eng_pin */

struct hwloc_topology; /* hwloc_topology_t without pulling in <hwloc.h> */

struct topo {
    struct hwloc_topology *hw; /* loaded hwloc topology; NULL in the flat fallback */
    bool this_system;          /* describes this machine, so pinning is allowed
                                  (false for synthetic topologies) */
    unsigned n_cores;          /* physical cores with an allowed PU (>= 1) */
    unsigned n_pus;            /* allowed processing units = hardware threads (>= n_cores) */
    int *order_cores;          /* [n_pus] OS CPU indices in ENG_PIN_CORES order */
    int *order_compact;        /* [n_pus] OS CPU indices in ENG_PIN_COMPACT order */
};

/* Discover the host. Returns 0, or -1 when hwloc failed and the flat
 * fallback was used (t is valid in both cases; call topo_fini). */
int topo_init(struct topo *t);

/* A synthetic hwloc topology, e.g. "pack:1 core:2 pu:2(indexes=0,2,1,3)", for
 * tests of the orders on machines this host is not. Pinning is disabled
 * (topo_pin_self returns -1). Returns 0, or -1 (t zeroed) on a bad string. */
int topo_init_synthetic(struct topo *t, const char *description);

/* The same, keeping only the PUs whose OS indices are in `allowed`, a
 * list such as "1,3-5" (NULL: all), as topo_init keeps those of the
 * process's CPU binding. A list that holds none of the topology's PUs is
 * ignored. Returns 0, or -1 (t zeroed) on a bad string or list. */
int topo_init_synthetic_allowed(struct topo *t, const char *description, const char *allowed);

/* The fallback: n_pus single-PU cores with OS indices 0..n_pus-1. Also used
 * by topo_init. Returns 0, or -1 (t zeroed) when out of memory. */
int topo_init_flat(struct topo *t, unsigned n_pus);

void topo_fini(struct topo *t);

unsigned topo_physical_cores(const struct topo *t);
unsigned topo_pus(const struct topo *t);

/* OS CPU index for engine thread `thread_index` under `policy`, wrapping
 * modulo topo_pus(t); -1 for ENG_PIN_NONE. */
int topo_cpu_for(const struct topo *t, enum eng_pin policy, unsigned thread_index);

/* Bind the calling thread to topo_cpu_for(t, policy, thread_index). Returns
 * that CPU, or -1 when policy is ENG_PIN_NONE, the topology is synthetic, or
 * the OS refused (the thread then stays unbound; pinning is an optimisation,
 * never needed for correctness). */
int topo_pin_self(const struct topo *t, enum eng_pin policy, unsigned thread_index);

#endif /* GPUSIM_SYNC_TOPO_H */
