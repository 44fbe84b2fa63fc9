/* tests/test_autothreads.c: the default thread count (--threads auto,
 * NOTE(auto-threads) in sync/engine_threads.c).
 *
 *  - /proc/loadavg's text is parsed into the 1-minute load and the
 *    runnable count, with a missing or malformed "runnable/total" field
 *    reported as unknown and unparsable text refused;
 *  - the count is the online CPUs minus the other runnable tasks (the
 *    caller is one of them), else minus the 1-minute load, rounded, at
 *    least 1, at most the CPUs of the process's binding (hand-computed
 *    cases);
 *  - a cgroup CPU bandwidth limit is read from cgroup v2's cpu.max and
 *    v1's cpu.cfs_quota_us / cpu.cfs_period_us texts (NOTE(auto-quota));
 *    "max", -1 and malformed texts mean no limit;
 *  - on this machine, with one CPU-bound child per online CPU running,
 *    eng_auto_threads answers 1 (each child is runnable at every read), and
 *    the answer is always within [1, allowed CPUs].
 */
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sync/engine.h"
#include "tap.h"

static void test_parse(void)
{
    double l = -1;
    long r = 0;
    TAP_EQ_I64(eng_parse_loadavg("0.52 0.58 0.59 3/145 12345\n", &l, &r), 0, "parse: a full line");
    TAP_NEAR(l, 0.52, 1e-9, "parse: 1-minute load");
    TAP_EQ_I64(r, 3, "parse: runnable count");
    TAP_EQ_I64(eng_parse_loadavg("12.00 8.5 4 1/1 7", &l, &r), 0, "parse: one task");
    TAP_EQ_I64(r, 1, "parse: runnable 1 of 1");
    TAP_EQ_I64(eng_parse_loadavg("1.50 1.00 0.50", &l, &r), 0, "parse: load averages only");
    TAP_NEAR(l, 1.5, 1e-9, "parse: load averages only, 1-minute load");
    TAP_EQ_I64(r, -1, "parse: no runnable field is unknown");
    TAP_EQ_I64(eng_parse_loadavg("1.50 1.00 0.50 0/12 9", &l, &r), 0, "parse: runnable 0");
    TAP_EQ_I64(r, -1, "parse: runnable 0 (the reader itself runs) is unknown");
    TAP_EQ_I64(eng_parse_loadavg("1.50 1.00 0.50 9/4 9", &l, &r), 0, "parse: runnable above total");
    TAP_EQ_I64(r, -1, "parse: runnable above total is unknown");
    TAP_EQ_I64(eng_parse_loadavg("load high", &l, &r), -1, "parse: no numbers is an error");
    TAP_EQ_I64(eng_parse_loadavg("", &l, &r), -1, "parse: empty text is an error");
    TAP_EQ_I64(eng_parse_loadavg("-1 0 0 1/2 3", &l, &r), -1, "parse: a negative load is an error");
}

static void test_count(void)
{
    /* runnable known: online - (runnable - 1) */
    TAP_EQ_U64(eng_auto_count(16, 16, 1, 9.0, 0), 16, "count: alone on 16 CPUs: 16 (the load average is not used)");
    TAP_EQ_U64(eng_auto_count(16, 16, 5, 0.0, 0), 12, "count: 4 other tasks on 16 CPUs: 12");
    TAP_EQ_U64(eng_auto_count(2, 2, 3, 0.0, 0), 1, "count: 2 other tasks on 2 CPUs: 1");
    TAP_EQ_U64(eng_auto_count(2, 2, 40, 0.0, 0), 1, "count: more tasks than CPUs: at least 1");
    TAP_EQ_U64(eng_auto_count(16, 4, 1, 0.0, 0), 4, "count: at most the binding (4 of 16)");
    TAP_EQ_U64(eng_auto_count(16, 4, 14, 0.0, 0), 3, "count: 13 other tasks on 16 CPUs, binding 4: 3");
    TAP_EQ_U64(eng_auto_count(16, 1, 1, 0.0, 0), 1, "count: a 1-CPU binding: 1");
    TAP_EQ_U64(eng_auto_count(4, 8, 1, 0.0, 0), 4, "count: a binding larger than the online CPUs is capped");
    /* runnable unknown: online - load1, rounded */
    TAP_EQ_U64(eng_auto_count(8, 8, -1, 2.4, 0), 6, "count: load 2.4 on 8 CPUs: 6 (5.6 rounded)");
    TAP_EQ_U64(eng_auto_count(8, 8, -1, 2.6, 0), 5, "count: load 2.6 on 8 CPUs: 5 (5.4 rounded)");
    TAP_EQ_U64(eng_auto_count(8, 8, 0, 0.0, 0), 8, "count: runnable 0 is unknown: the load (0) is used");
    TAP_EQ_U64(eng_auto_count(8, 8, -1, 30.0, 0), 1, "count: load above the CPUs: 1");
    /* a cgroup CPU quota (NOTE(auto-quota)): at most the quota, rounded down, at least 1 */
    TAP_EQ_U64(eng_auto_count(16, 16, 1, 0.0, 4.0), 4, "count: a 4-CPU quota on 16 idle CPUs: 4");
    TAP_EQ_U64(eng_auto_count(16, 16, 1, 0.0, 2.5), 2, "count: a 2.5-CPU quota: 2");
    TAP_EQ_U64(eng_auto_count(16, 16, 1, 0.0, 0.5), 1, "count: half a CPU of quota: 1");
    TAP_EQ_U64(eng_auto_count(16, 16, 14, 0.0, 4.0), 3, "count: the load below the quota wins (13 others: 3)");
    TAP_EQ_U64(eng_auto_count(4, 4, 1, 0.0, 8.0), 4, "count: a quota above the CPUs changes nothing");
}

static void test_quota(void)
{
    TAP_NEAR(eng_parse_cpu_max("200000 100000\n"), 2.0, 1e-12, "cpu.max: 200000 100000 is 2 CPUs");
    TAP_NEAR(eng_parse_cpu_max("150000 100000"), 1.5, 1e-12, "cpu.max: 150000 100000 is 1.5 CPUs");
    TAP_NEAR(eng_parse_cpu_max("max 100000\n"), 0.0, 0, "cpu.max: max is no limit");
    TAP_NEAR(eng_parse_cpu_max("50000"), 0.0, 0, "cpu.max: no period is malformed (no limit)");
    TAP_NEAR(eng_parse_cpu_max("abc 100000"), 0.0, 0, "cpu.max: a word is malformed (no limit)");
    TAP_NEAR(eng_parse_cpu_max("100000 0"), 0.0, 0, "cpu.max: a zero period is malformed (no limit)");
    TAP_NEAR(eng_parse_cpu_max(""), 0.0, 0, "cpu.max: empty text is no limit");
    TAP_NEAR(eng_parse_cpu_max("inf 100000"), 0.0, 0, "cpu.max: an infinite quota is no limit");
    TAP_NEAR(eng_parse_cfs("nan", "100000"), 0.0, 0, "cfs: not a number is no limit");
    TAP_NEAR(eng_parse_cfs("300000\n", "100000\n"), 3.0, 1e-12, "cfs: 300000 / 100000 is 3 CPUs");
    TAP_NEAR(eng_parse_cfs("50000", "100000"), 0.5, 1e-12, "cfs: half a CPU");
    TAP_NEAR(eng_parse_cfs("-1\n", "100000\n"), 0.0, 0, "cfs: -1 is no limit");
    TAP_NEAR(eng_parse_cfs("100000", "x"), 0.0, 0, "cfs: a malformed period is no limit");
}

static pid_t spin_child(void)
{
    pid_t p = fork();
    if (p == 0) {
        for (volatile unsigned long x = 0;; x++) /* CPU-bound until killed */
            ;
    }
    return p;
}

static void test_machine(void)
{
    long onl = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned online = onl > 0 ? (unsigned)onl : 1u;
    cpu_set_t set;
    CPU_ZERO(&set);
    unsigned allowed = online;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        allowed = (unsigned)CPU_COUNT(&set);
    unsigned n = eng_auto_threads();
    TAP_OK(n >= 1 && n <= allowed, "machine: auto count %u within [1, %u]", n, allowed);
    if (online > 64) {
        tap_skip(1, "more than 64 online CPUs: not starting one busy child per CPU");
        return;
    }
    /* One CPU-bound child per online CPU: the other runnable tasks are at
     * least the online CPUs whenever they are read, so the count is 1 (the
     * children need not be on a CPU to be runnable). */
    pid_t kids[64];
    for (unsigned i = 0; i < online; i++)
        kids[i] = spin_child();
    nanosleep(&(struct timespec){0, 50 * 1000000L}, NULL); /* all forked and runnable */
    unsigned busy = eng_auto_threads();
    for (unsigned i = 0; i < online; i++)
        if (kids[i] > 0) {
            kill(kids[i], SIGKILL);
            waitpid(kids[i], NULL, 0);
        }
    TAP_EQ_U64(busy, 1, "machine: with %u CPU-bound children the count is 1", online);
}

int main(void)
{
    tap_no_plan();
    test_parse();
    test_count();
    test_quota();
    test_machine();
    return tap_exit();
}
