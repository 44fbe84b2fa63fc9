/* sync/topo.c: see topo.h.
 *
 * Both orders are computed once at init from the hwloc object tree, so the
 * per-thread calls are array lookups. Called a handful of times per run
 * (once per engine thread), never on a hot path.
 */
#include "sync/topo.h"

#include <errno.h>
#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int topo_alloc_orders(struct topo *t, unsigned n_pus)
{
    t->order_cores = calloc(n_pus, sizeof *t->order_cores);
    t->order_compact = calloc(n_pus, sizeof *t->order_compact);
    if (!t->order_cores || !t->order_compact) {
        free(t->order_cores);
        free(t->order_compact);
        t->order_cores = t->order_compact = NULL;
        return -1;
    }
    t->n_pus = n_pus;
    return 0;
}

int topo_init_flat(struct topo *t, unsigned n_pus)
{
    memset(t, 0, sizeof *t);
    if (n_pus == 0)
        n_pus = 1;
    if (topo_alloc_orders(t, n_pus) != 0)
        return -1;
    for (unsigned i = 0; i < n_pus; i++)
        t->order_cores[i] = t->order_compact[i] = (int)i;
    t->n_cores = n_pus;
    t->this_system = true;
    return 0;
}

/* Fill both orders from a loaded hwloc topology, with only the PUs in
 * `allowed` (NULL: all of them). Returns 0 or -1.
 *
 * NOTE(pin-allowed): the orders hold only the PUs this process may run on
 * (the CPU binding of the thread calling topo_init: taskset, numactl, a
 * batch system's task affinity). Before, they held every PU of the
 * machine, so two jobs started side by side under `taskset -c 2,3` and
 * `taskset -c 10,11` both pinned their engine threads to CPUs 0 and 1: on
 * the lent 16-core host (session 12) sgemm and bfs at medium then ran at 2
 * threads 1.7-1.9x slower than at one. Cores are counted among those with
 * an allowed PU, so "one thread per core first" is taken within the
 * binding. */
static int topo_from_hwloc(struct topo *t, hwloc_topology_t hw, hwloc_const_bitmap_t allowed)
{
    int npu_all = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_PU);
    int ncore = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_CORE);
    if (npu_all <= 0 || ncore < 0)
        return -1;
    hwloc_bitmap_t keep = hwloc_bitmap_alloc();
    if (!keep)
        return -1;
    hwloc_bitmap_copy(keep, hwloc_topology_get_topology_cpuset(hw));
    if (allowed && hwloc_bitmap_intersects(keep, allowed))
        hwloc_bitmap_and(keep, keep, allowed); /* a binding outside the topology: ignored */
    int npu = hwloc_bitmap_weight(keep); /* the topology's cpuset holds only PUs */
    hwloc_bitmap_t in_core = hwloc_bitmap_alloc();
    bool *placed = calloc((size_t)npu_all, sizeof *placed);
    if (npu <= 0 || !in_core || !placed || topo_alloc_orders(t, (unsigned)npu) != 0) {
        hwloc_bitmap_free(keep);
        hwloc_bitmap_free(in_core);
        free(placed);
        return -1;
    }

    /* Compact: logical order keeps the PUs of one core adjacent. */
    unsigned n = 0;
    for (int i = 0; i < npu_all; i++) {
        hwloc_obj_t pu = hwloc_get_obj_by_type(hw, HWLOC_OBJ_PU, (unsigned)i);
        if (hwloc_bitmap_isset(keep, pu->os_index))
            t->order_compact[n++] = (int)pu->os_index;
    }

    /* Cores first: round r takes the r-th allowed PU of every core that has
     * one. placed[] (by PU logical index) catches PUs outside any core
     * object, which some virtual machines and architectures report; they go
     * last. */
    n = 0;
    unsigned cores_seen = 0;
    for (unsigned r = 0;; r++) {
        unsigned added = 0;
        for (int c = 0; c < ncore; c++) {
            hwloc_obj_t core = hwloc_get_obj_by_type(hw, HWLOC_OBJ_CORE, (unsigned)c);
            hwloc_bitmap_and(in_core, core->cpuset, keep);
            hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(hw, in_core, HWLOC_OBJ_PU, r);
            if (!pu || placed[pu->logical_index])
                continue;
            placed[pu->logical_index] = true;
            t->order_cores[n++] = (int)pu->os_index;
            added++;
        }
        if (r == 0)
            cores_seen = added;
        if (added == 0)
            break;
    }
    for (int i = 0; i < npu_all; i++) {
        hwloc_obj_t pu = hwloc_get_obj_by_type(hw, HWLOC_OBJ_PU, (unsigned)i);
        if (!placed[i] && hwloc_bitmap_isset(keep, pu->os_index)) {
            t->order_cores[n++] = (int)pu->os_index;
            cores_seen++; /* a PU without a core object counts as a core */
        }
    }
    free(placed);
    hwloc_bitmap_free(in_core);
    hwloc_bitmap_free(keep);
    SIM_ASSERT(n == (unsigned)npu, "topology: placed %u of %d PUs", n, npu);
    t->n_cores = cores_seen;
    return 0;
}

/* The flat fallback over the CPUs this process may run on
 * (NOTE(pin-allowed)); 0..n-1 when the binding cannot be read. */
static void topo_init_flat_allowed(struct topo *t)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    int cnt = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    long onl = sysconf(_SC_NPROCESSORS_ONLN);
    if (topo_init_flat(t, cnt > 0 ? (unsigned)cnt : onl > 0 ? (unsigned)onl : 1u) != 0)
        sim_panic("topology: out of memory in the fallback");
    if (cnt <= 0)
        return;
    unsigned n = 0;
    for (int c = 0; c < CPU_SETSIZE && n < t->n_pus; c++)
        if (CPU_ISSET(c, &set)) {
            t->order_cores[n] = t->order_compact[n] = c;
            n++;
        }
}

int topo_init(struct topo *t)
{
    hwloc_topology_t hw = NULL;
    memset(t, 0, sizeof *t);
    if (hwloc_topology_init(&hw) == 0) {
        hwloc_bitmap_t bind = hwloc_bitmap_alloc();
        int rc = -1;
        if (bind && hwloc_topology_load(hw) == 0) {
            /* The calling thread's binding, not the process's: the latter
             * is the union over all threads, and runtime helper threads
             * (ThreadSanitizer's, a profiler's) keep the whole machine.
             * taskset and batch systems bind every thread alike. */
            bool have = hwloc_get_cpubind(hw, bind, HWLOC_CPUBIND_THREAD) == 0 && !hwloc_bitmap_iszero(bind);
            rc = topo_from_hwloc(t, hw, have ? bind : NULL);
        }
        hwloc_bitmap_free(bind);
        if (rc == 0) {
            t->hw = hw;
            t->this_system = hwloc_topology_is_thissystem(hw) != 0;
            return 0;
        }
        hwloc_topology_destroy(hw);
        free(t->order_cores);
        free(t->order_compact);
    }
    topo_init_flat_allowed(t);
    return -1;
}

int topo_init_synthetic_allowed(struct topo *t, const char *description, const char *allowed)
{
    hwloc_topology_t hw = NULL;
    memset(t, 0, sizeof *t);
    if (hwloc_topology_init(&hw) != 0)
        return -1;
    hwloc_bitmap_t set = NULL;
    if (allowed) {
        set = hwloc_bitmap_alloc();
        if (!set || hwloc_bitmap_list_sscanf(set, allowed) != 0)
            goto bad;
    }
    if (hwloc_topology_set_synthetic(hw, description) == 0 && hwloc_topology_load(hw) == 0 &&
        topo_from_hwloc(t, hw, set) == 0) {
        hwloc_bitmap_free(set);
        t->hw = hw;
        t->this_system = false;
        return 0;
    }
bad:
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(hw);
    free(t->order_cores);
    free(t->order_compact);
    memset(t, 0, sizeof *t);
    return -1;
}

int topo_init_synthetic(struct topo *t, const char *description)
{
    return topo_init_synthetic_allowed(t, description, NULL);
}

void topo_fini(struct topo *t)
{
    if (t->hw)
        hwloc_topology_destroy(t->hw);
    free(t->order_cores);
    free(t->order_compact);
    memset(t, 0, sizeof *t);
}

unsigned topo_physical_cores(const struct topo *t) { return t->n_cores; }

unsigned topo_pus(const struct topo *t) { return t->n_pus; }

int topo_cpu_for(const struct topo *t, enum eng_pin policy, unsigned thread_index)
{
    switch (policy) {
    case ENG_PIN_CORES:
        return t->order_cores[thread_index % t->n_pus];
    case ENG_PIN_COMPACT:
        return t->order_compact[thread_index % t->n_pus];
    case ENG_PIN_NONE:
    case ENG_PIN_AUTO: /* resolved by eng_run before threads start (NOTE(pin-auto)) */
        return -1;
    }
    return -1;
}

/* Bind with the plain pthread call (flat fallback, or when hwloc refuses). */
static int pin_pthread(int cpu)
{
    size_t sz = CPU_ALLOC_SIZE(cpu + 1);
    cpu_set_t *set = CPU_ALLOC(cpu + 1);
    if (!set)
        return -1;
    CPU_ZERO_S(sz, set);
    CPU_SET_S((size_t)cpu, sz, set);
    int rc = pthread_setaffinity_np(pthread_self(), sz, set);
    CPU_FREE(set);
    return rc == 0 ? 0 : -1;
}

int topo_pin_self(const struct topo *t, enum eng_pin policy, unsigned thread_index)
{
    int cpu = topo_cpu_for(t, policy, thread_index);
    if (cpu < 0 || !t->this_system)
        return -1;
    int rc = -1;
    if (t->hw) {
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        if (set) {
            hwloc_bitmap_only(set, (unsigned)cpu);
            rc = hwloc_set_cpubind(t->hw, set, HWLOC_CPUBIND_THREAD);
            hwloc_bitmap_free(set);
        }
    }
    if (rc != 0)
        rc = pin_pthread(cpu);
    return rc == 0 ? cpu : -1;
}
