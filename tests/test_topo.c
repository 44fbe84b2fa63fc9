/* tests/test_topo.c: host topology and pinning (sync/topo.c).
 *
 * Checks the host topology's basic facts, the two pinning orders on
 * synthetic hwloc topologies whose answer is known (this CI host has no SMT,
 * so on it both orders coincide), the flat fallback, and that pinning really
 * moves the calling thread: after topo_pin_self the thread runs on the CPU
 * it was given (sched_getcpu) and its affinity mask holds only that CPU.
 */
#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "sync/topo.h"
#include "tap.h"

/* ----------------------------------------------------------- helpers */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Both orders hold the same n_pus distinct CPUs. */
static bool orders_are_permutations(const struct topo *t)
{
    unsigned n = topo_pus(t);
    int *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    bool ok = a && b;
    for (unsigned i = 0; ok && i < n; i++) {
        a[i] = topo_cpu_for(t, ENG_PIN_CORES, i);
        b[i] = topo_cpu_for(t, ENG_PIN_COMPACT, i);
    }
    if (ok) {
        qsort(a, n, sizeof *a, cmp_int);
        qsort(b, n, sizeof *b, cmp_int);
        for (unsigned i = 0; i < n; i++)
            ok = ok && a[i] == b[i] && a[i] >= 0 && (i == 0 || a[i] != a[i - 1]);
    }
    free(a);
    free(b);
    return ok;
}

/* Entry i of each policy equals entry i + k*n_pus, and NONE is -1. */
static bool wraps(const struct topo *t)
{
    unsigned n = topo_pus(t);
    for (unsigned i = 0; i < 3 * n; i++) {
        if (topo_cpu_for(t, ENG_PIN_CORES, i) != topo_cpu_for(t, ENG_PIN_CORES, i % n) ||
            topo_cpu_for(t, ENG_PIN_COMPACT, i) != topo_cpu_for(t, ENG_PIN_COMPACT, i % n) ||
            topo_cpu_for(t, ENG_PIN_NONE, i) != -1)
            return false;
    }
    return true;
}

/* The order of one policy equals want[0..n-1]. */
static bool order_is(const struct topo *t, enum eng_pin p, const int *want, unsigned n)
{
    if (topo_pus(t) != n)
        return false;
    for (unsigned i = 0; i < n; i++)
        if (topo_cpu_for(t, p, i) != want[i])
            return false;
    return true;
}

/* --------------------------------------------------------- the host */

static void test_host(void)
{
    struct topo t;
    int rc = topo_init(&t);
    TAP_EQ_I64(rc, 0, "topo_init loads the host topology with hwloc");
    tap_diag("host: %u physical cores, %u PUs, online CPUs %ld", topo_physical_cores(&t),
             topo_pus(&t), sysconf(_SC_NPROCESSORS_ONLN));
    TAP_OK(topo_physical_cores(&t) >= 1, "at least one physical core");
    TAP_OK(topo_pus(&t) >= topo_physical_cores(&t), "PUs (%u) >= cores (%u)", topo_pus(&t),
           topo_physical_cores(&t));
    TAP_OK(orders_are_permutations(&t), "both orders list the same distinct CPUs");
    TAP_OK(wraps(&t), "cpu_for wraps modulo the PU count; NONE gives -1");

    /* ENG_PIN_CORES: the first n_cores entries sit on n_cores different cores. */
    bool distinct = t.hw != NULL;
    unsigned nc = topo_physical_cores(&t);
    int *core_of = calloc(nc, sizeof *core_of);
    for (unsigned i = 0; distinct && core_of && i < nc; i++) {
        hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t.hw, (unsigned)topo_cpu_for(&t, ENG_PIN_CORES, i));
        hwloc_obj_t core = pu ? hwloc_get_ancestor_obj_by_type(t.hw, HWLOC_OBJ_CORE, pu) : NULL;
        core_of[i] = core ? (int)core->logical_index : -1 - (int)i;
        for (unsigned j = 0; j < i; j++)
            distinct = distinct && core_of[j] != core_of[i];
    }
    free(core_of);
    TAP_OK(distinct, "ENG_PIN_CORES gives one PU per physical core first");
    topo_fini(&t);
}

/* --------------------------------------------------- synthetic hosts */

static void test_synthetic(void)
{
    struct topo t;

    /* Two cores of two PUs, OS indices in logical order. */
    TAP_EQ_I64(topo_init_synthetic(&t, "pack:1 core:2 pu:2"), 0, "synthetic 1x2x2 loads");
    {
        static const int cores[] = {0, 2, 1, 3}, compact[] = {0, 1, 2, 3};
        TAP_EQ_U64(topo_physical_cores(&t), 2, "1x2x2: 2 cores");
        TAP_EQ_U64(topo_pus(&t), 4, "1x2x2: 4 PUs");
        TAP_OK(order_is(&t, ENG_PIN_CORES, cores, 4), "1x2x2: CORES order is 0,2,1,3");
        TAP_OK(order_is(&t, ENG_PIN_COMPACT, compact, 4), "1x2x2: COMPACT order is 0,1,2,3");
        TAP_OK(wraps(&t), "1x2x2: wraps");
        TAP_EQ_I64(topo_cpu_for(&t, ENG_PIN_CORES, 5), 2, "1x2x2: thread 5 wraps to entry 1");
        TAP_EQ_I64(topo_pin_self(&t, ENG_PIN_CORES, 0), -1, "pinning to a synthetic topology is refused");
    }
    topo_fini(&t);

    /* Linux numbering on many Intel hosts: siblings are n/2 apart. */
    TAP_EQ_I64(topo_init_synthetic(&t, "core:2 pu:2(indexes=0,2,1,3)"), 0, "synthetic interleaved loads");
    {
        static const int cores[] = {0, 1, 2, 3}, compact[] = {0, 2, 1, 3};
        TAP_OK(order_is(&t, ENG_PIN_CORES, cores, 4), "interleaved: CORES order is 0,1,2,3");
        TAP_OK(order_is(&t, ENG_PIN_COMPACT, compact, 4), "interleaved: COMPACT order is 0,2,1,3");
    }
    topo_fini(&t);

    /* Two packages of three 2-way cores. */
    TAP_EQ_I64(topo_init_synthetic(&t, "pack:2 core:3 pu:2"), 0, "synthetic 2x3x2 loads");
    {
        static const int cores[] = {0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11};
        TAP_EQ_U64(topo_physical_cores(&t), 6, "2x3x2: 6 cores");
        TAP_OK(order_is(&t, ENG_PIN_CORES, cores, 12), "2x3x2: CORES walks all cores before siblings");
        TAP_OK(orders_are_permutations(&t), "2x3x2: orders are permutations");
    }
    topo_fini(&t);

    /* No SMT: the two orders coincide. */
    TAP_EQ_I64(topo_init_synthetic(&t, "core:4 pu:1"), 0, "synthetic 4x1 loads");
    {
        static const int same[] = {0, 1, 2, 3};
        TAP_OK(order_is(&t, ENG_PIN_CORES, same, 4) && order_is(&t, ENG_PIN_COMPACT, same, 4),
               "4x1: both orders are 0,1,2,3");
        TAP_EQ_U64(topo_physical_cores(&t), 4, "4x1: 4 cores");
    }
    topo_fini(&t);

    /* NOTE(pin-allowed): a binding keeps its PUs only, cores first within it. */
    TAP_EQ_I64(topo_init_synthetic_allowed(&t, "pack:1 core:2 pu:2", "1-3"), 0, "1x2x2 bound to 1-3 loads");
    {
        static const int cores[] = {1, 2, 3}, compact[] = {1, 2, 3};
        TAP_EQ_U64(topo_pus(&t), 3, "1x2x2 bound to 1-3: 3 PUs");
        TAP_EQ_U64(topo_physical_cores(&t), 2, "1x2x2 bound to 1-3: 2 cores");
        TAP_OK(order_is(&t, ENG_PIN_CORES, cores, 3), "1x2x2 bound to 1-3: CORES order is 1,2,3");
        TAP_OK(order_is(&t, ENG_PIN_COMPACT, compact, 3), "1x2x2 bound to 1-3: COMPACT order is 1,2,3");
        TAP_EQ_I64(topo_cpu_for(&t, ENG_PIN_CORES, 3), 1, "1x2x2 bound to 1-3: thread 3 wraps to CPU 1");
    }
    topo_fini(&t);
    TAP_EQ_I64(topo_init_synthetic_allowed(&t, "pack:1 core:2 pu:2", "0,1"), 0, "1x2x2 bound to 0,1 loads");
    {
        static const int both[] = {0, 1};
        TAP_EQ_U64(topo_physical_cores(&t), 1, "1x2x2 bound to one core's PUs: 1 core");
        TAP_OK(order_is(&t, ENG_PIN_CORES, both, 2) && order_is(&t, ENG_PIN_COMPACT, both, 2),
               "1x2x2 bound to 0,1: both orders are 0,1");
    }
    topo_fini(&t);
    TAP_EQ_I64(topo_init_synthetic_allowed(&t, "pack:2 core:3 pu:2", "3-8"), 0, "2x3x2 bound to 3-8 loads");
    {
        /* cores {0,1} {2,3} {4,5} | {6,7} {8,9} {10,11}: allowed PUs 3 | 4 5 | 6 7 | 8 */
        static const int cores[] = {3, 4, 6, 8, 5, 7};
        TAP_EQ_U64(topo_physical_cores(&t), 4, "2x3x2 bound to 3-8: 4 cores");
        TAP_OK(order_is(&t, ENG_PIN_CORES, cores, 6), "2x3x2 bound to 3-8: CORES order is 3,4,6,8,5,7");
        TAP_OK(orders_are_permutations(&t), "2x3x2 bound to 3-8: orders are permutations");
    }
    topo_fini(&t);
    TAP_EQ_I64(topo_init_synthetic_allowed(&t, "core:4 pu:1", "9-12"), 0, "a binding outside the topology loads");
    TAP_EQ_U64(topo_pus(&t), 4, "a binding outside the topology is ignored");
    topo_fini(&t);
    TAP_EQ_I64(topo_init_synthetic_allowed(&t, "core:4 pu:1", "x"), -1, "a bad CPU list is rejected");

    TAP_EQ_I64(topo_init_synthetic(&t, "core:two"), -1, "a bad synthetic string is rejected");
    TAP_OK(t.order_cores == NULL && t.n_pus == 0, "rejected topology is left zeroed");
    topo_fini(&t); /* fini on a zeroed topology is harmless */
}

static void test_flat(void)
{
    struct topo t;
    TAP_EQ_I64(topo_init_flat(&t, 3), 0, "flat fallback of 3 PUs");
    static const int id[] = {0, 1, 2};
    TAP_OK(topo_physical_cores(&t) == 3 && topo_pus(&t) == 3, "flat: cores == PUs");
    TAP_OK(order_is(&t, ENG_PIN_CORES, id, 3) && order_is(&t, ENG_PIN_COMPACT, id, 3),
           "flat: both orders are the identity");
    TAP_OK(wraps(&t), "flat: wraps");
    topo_fini(&t);
}

/* ---------------------------------------------------------- pinning */

/* One pinning attempt, run on a fresh thread so the main thread stays free. */
struct pin_job {
    const struct topo *t; /* topology to pin with (read-only) */
    enum eng_pin policy;  /* policy under test */
    unsigned index;       /* engine thread index */
    int got;              /* topo_pin_self result */
    int on_cpu;           /* sched_getcpu() right after */
    int mask_count;       /* CPUs in the affinity mask afterwards */
    bool mask_has_cpu;    /* the mask contains `got` */
};

static void *pin_thread(void *arg)
{
    struct pin_job *j = arg;
    j->got = topo_pin_self(j->t, j->policy, j->index);
    j->on_cpu = sched_getcpu();
    cpu_set_t set;
    CPU_ZERO(&set);
    if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) == 0) {
        j->mask_count = CPU_COUNT(&set);
        j->mask_has_cpu = j->got >= 0 && j->got < CPU_SETSIZE && CPU_ISSET(j->got, &set);
    }
    return NULL;
}

static struct pin_job run_pin(const struct topo *t, enum eng_pin p, unsigned index)
{
    struct pin_job j = {t, p, index, -2, -2, 0, false};
    pthread_t th;
    if (pthread_create(&th, NULL, pin_thread, &j) != 0)
        tap_bail("pthread_create failed");
    pthread_join(th, NULL);
    return j;
}

static void check_pinning(const struct topo *t, const char *what)
{
    static const enum eng_pin pols[] = {ENG_PIN_CORES, ENG_PIN_COMPACT};
    static const char *const names[] = {"CORES", "COMPACT"};
    unsigned n = topo_pus(t);
    for (unsigned k = 0; k < ARRAY_LEN(pols); k++) {
        bool ok = true;
        for (unsigned i = 0; i < n + 1; i++) { /* n + 1: also the wrapped index */
            struct pin_job j = run_pin(t, pols[k], i);
            int want = topo_cpu_for(t, pols[k], i);
            if (j.got != want || j.got < 0 || j.on_cpu != j.got || j.mask_count != 1 || !j.mask_has_cpu) {
                ok = false;
                tap_diag("%s %s thread %u: pinned %d (want %d), running on %d, mask of %d CPUs",
                         what, names[k], i, j.got, want, j.on_cpu, j.mask_count);
            }
        }
        TAP_OK(ok, "%s %s: pin_self returns cpu_for, and the thread runs there alone", what, names[k]);
    }
    struct pin_job j = run_pin(t, ENG_PIN_NONE, 0);
    TAP_EQ_I64(j.got, -1, "%s NONE: pin_self returns -1", what);
    TAP_OK(j.mask_count >= 1, "%s NONE: the thread's mask is left alone (%d CPUs)", what, j.mask_count);
}

static void test_pinning(void)
{
    struct topo t;
    topo_init(&t);
    check_pinning(&t, "hwloc");
    topo_fini(&t);

    /* Flat fallback path (pthread_setaffinity_np) over the online CPUs. */
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    topo_init_flat(&t, n > 0 ? (unsigned)n : 1u);
    check_pinning(&t, "flat");
    topo_fini(&t);
}

/* NOTE(pin-allowed): a process bound to one CPU (as `taskset -c K` does)
 * gets a host of that CPU alone, and its engine threads are pinned there,
 * never onto CPUs outside the binding. */
static void test_bound_process(void)
{
    cpu_set_t old, one;
    CPU_ZERO(&old);
    if (sched_getaffinity(0, sizeof old, &old) != 0 || CPU_COUNT(&old) < 2) {
        tap_skip(4, "needs a process allowed on 2 or more CPUs");
        return;
    }
    int last = -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &old))
            last = c;
    CPU_ZERO(&one);
    CPU_SET(last, &one);
    TAP_EQ_I64(sched_setaffinity(0, sizeof one, &one), 0, "bind the (single-threaded) test to CPU %d", last);
    struct topo t;
    topo_init(&t);
    TAP_EQ_U64(topo_pus(&t), 1, "bound to one CPU: the host has 1 PU");
    bool within = true;
    for (unsigned i = 0; i < 4; i++) {
        struct pin_job j = run_pin(&t, ENG_PIN_CORES, i);
        within = within && j.got == last && j.on_cpu == last;
        if (j.got != last)
            tap_diag("thread %u pinned to %d, binding is CPU %d", i, j.got, last);
    }
    TAP_OK(within, "engine threads 0-3 are all pinned to CPU %d", last);
    topo_fini(&t);
    TAP_EQ_I64(sched_setaffinity(0, sizeof old, &old), 0, "binding restored");
}

/* ---------------------------------------------------------- registry */

static const struct tap_test tests[] = {
    {"host", test_host},
    {"synthetic", test_synthetic},
    {"flat", test_flat},
    {"pinning", test_pinning},
    {"bound_process", test_bound_process},
};

int main(void) { return tap_run(tests, ARRAY_LEN(tests)); }
