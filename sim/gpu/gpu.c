/* sim/gpu/gpu.c: the timing-mode GPU on the parallel engine (model in gpu.h). */
#include "sim/gpu/gpu.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpusim.h"
#include "partitions/addrmap/addrmap.h"
#include "partitions/addrmap/pagetable.h"
#include "sim/func/atomic_ops.h"
#include "partitions/mempart/mempart_unit.h"
#include "sim/base/diag.h"
#include "sim/dispatch/dispatch.h"
#include "sim/mem/devmem.h"
#include "sim/gpu/gpu_cfg.h"
#include "sim/icnt/icnt.h"
#include "sim/icnt/iq_unit.h"
#include "sim/ptx/ir.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/sm/front/fetch.h"
#include "sim/sm/sm.h"
#include "sim/base/stats.h"

struct gpu_stats {
    uint64_t cycles;   /* core cycles of completed kernels (dispatch start to memory drained) */
    uint64_t kernels;  /* kernels completed */
};

struct gpu;
static uint32_t gpu_route_ep(const void *ctx, uint64_t dev);

struct gpu {
    const struct sim_cfg *cfg;
    struct devmem *mem;
    struct stats *stats;
    struct clock_periods per;     /* ps */
    struct addrmap map;
    struct pagetable pt;          /* device page table (vm.*; identity by default) */
    struct icnt_topo topo;
    struct engine *eng;
    struct sm_shared ssh;         /* SM side, shared */
    struct mpu_shared msh;        /* memory side, shared */
    uint32_t n_sm, n_ch;
    uint32_t *sm_unit;            /* [n_sm] engine unit of each SM */
    uint32_t *ep_unit;            /* [n_ep] engine unit hosting each endpoint */
    uint32_t (*mp_units)[MPU_N_DOM];
    struct mpu_part **parts;      /* [n_ch] */
    struct sm **sms;              /* [n_sm], set by the partition inits */
    uint32_t iq_unit;             /* engine unit of the xbar_iq switch (icnt.topology = xbar_iq) */
    struct iq_unit *iq;           /* the switch, set by its partition's init; NULL for other topologies */
    struct dispatcher disp;
    struct gpu_host_opts host;
    bool started;                 /* partitions initialised (first eng_run done) */
    bool broken;                  /* a kernel stopped half-way: the machine state is not reusable */

    /* the kernel of the current gpu_launch */
    struct sm_kernel kern;
    const struct ptx_module *code_mod; /* module whose code the SMs' instruction caches hold (NOTE(l1i-launch)) */
    const struct func_launch *fl;
    struct dispatch_launch dl;
    bool pending;                 /* launch to queue at the next serial step */
    bool kernel_done;             /* completed (kernel_done callback) */
    bool max_time_hit;            /* the last run stopped at sync.max_time */
    bool kstarted;                /* kernel_start callback ran */
    int err;                      /* run error: GS_ERR_* */
    uint64_t t_kernel_start;      /* cycle of the launch */
    struct engine *ser_eng;       /* engine and time of the serial step in progress */
    ps_t ser_now;
    bool wd_due;                  /* NOTE(ahead-gpu): the watchdog fires at the next serial step */
    uint64_t wd_c, wd_last;       /* its cycle and the last issue it saw (core cycles) */
    uint64_t wd_check;            /* NOTE(serial-line): core cycle of the next watchdog check */

    /* progress line */
    struct timespec t0;
    double last_line;
    uint64_t ctas_total, ctas_done;

    double host_seconds;
    struct eng_thread_report thr[GPU_MAX_THREADS]; /* per host thread, summed over all runs (CPU: last run) */
    unsigned last_threads;
    struct eng_adapt_report adapt;  /* cumulative, from the last run */
    struct eng_profile profile;     /* cumulative, from the last run */
    ps_t end_ps;
    struct gpu_stats st;
};

/* The SM side's routing (sim/icnt/route.h): decode with the partitions'
 * address map; MEM_ROUTE_NONE outside the mapped device memory. */
static uint32_t gpu_route_ep(const void *ctx, uint64_t dev)
{
    const struct gpu *g = ctx;
    struct addrmap_loc loc;
    if (!mpu_dev_locate(&g->map, &g->pt, g->map.local_bytes, dev, &loc))
        return MEM_ROUTE_NONE;
    return mpu_ep_of_loc(&g->topo, &loc);
}

static double wall_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline uint64_t cyc_at(const struct gpu *g, ps_t t) { return (t + g->per.core - 1) / g->per.core; }

/* ----------------------------------------------------------- partitions */

static void part_init(void *model, struct eng_ctx *ctx, int p)
{
    struct gpu *g = model;
    if ((uint32_t)p < g->n_sm) {
        struct sm *s = sm_create(&g->ssh, ctx, (uint32_t)p, g->sm_unit[p]);
        g->sms[p] = s;
        if (g->stats)
            sm_stats_register(s, g->stats);
        return;
    }
    if ((uint32_t)p == g->n_sm + g->n_ch) { /* the xbar_iq switch's own partition */
        g->iq = iq_unit_create(ctx, g->iq_unit, &g->topo, &g->cfg->icnt_net, g->ep_unit, g->per.icnt);
        if (g->stats)
            iq_unit_stats_register(g->iq, g->stats);
        return;
    }
    mpu_part_create(&g->msh, ctx, (uint32_t)p - g->n_sm);
}

static void part_fini(void *model, struct eng_ctx *ctx, int p)
{
    struct gpu *g = model;
    (void)ctx;
    if ((uint32_t)p < g->n_sm)
        sm_fini(g->sms[p]);
    else if ((uint32_t)p == g->n_sm + g->n_ch)
        iq_unit_fini(g->iq);
    else if (g->parts[p - (int)g->n_sm])
        mpu_part_fini(g->parts[p - (int)g->n_sm]);
}

/* ----------------------------------------------------------- dispatcher */

static void port_start_cta(void *ctx, uint32_t sm, uint32_t cta, struct dispatch_dim3 xyz)
{
    struct gpu *g = ctx;
    (void)xyz;
    SIM_ASSERT(!g->sms[sm]->ahead, "gpu: CTA %u placed on SM %u, which may be running ahead", cta, sm);
    uint64_t div = g->ssh.pipe_div;
    sm_cta_start(g->sms[sm], cta, (cyc_at(g, g->ser_now) + div - 1) / div);
    eng_wake_serial(g->ser_eng, g->sm_unit[sm], g->ser_now);
}

static bool port_drained(void *ctx)
{
    struct gpu *g = ctx;
    for (uint32_t i = 0; i < g->n_sm; i++)
        if (!sm_mem_idle(g->sms[i]))
            return false;
    for (uint32_t c = 0; c < g->n_ch; c++)
        if (!mpu_part_idle(g->parts[c]))
            return false;
    return !g->iq || iq_unit_idle(g->iq);
}

static void port_kernel_start(void *ctx, const struct dispatch_kernel *k)
{
    struct gpu *g = ctx;
    (void)k;
    /* modules live as long as their context, so the pointer names the code */
    g->kern.new_code = g->fl->mod != g->code_mod;
    g->code_mod = g->fl->mod;
    for (uint32_t i = 0; i < g->n_sm; i++)
        if (!sm_kernel_start(g->sms[i], &g->kern, g->fl) && !g->err) {
            g->err = GS_ERR_OUT_OF_MEMORY;
            snprintf(g->fl->err, g->fl->err_len, "kernel '%s': out of host memory for the SM state",
                     g->fl->fn->name);
        }
    g->kstarted = true;
}

static void port_kernel_done(void *ctx, const struct dispatch_kernel *k)
{
    struct gpu *g = ctx;
    g->st.cycles += k->t_end - k->t_start;
    g->st.kernels++;
    g->kernel_done = true;
}

/* ----------------------------------------------------------- serial step */

static void print_progress(struct gpu *g, ps_t now)
{
    double t = wall_now();
    double e = (double)(t - ((double)g->t0.tv_sec + (double)g->t0.tv_nsec * 1e-9));
    if (e - g->last_line < 0.5)
        return;
    g->last_line = e;
    uint64_t cyc = now / g->per.core - g->t_kernel_start;
    fprintf(stderr, "\r\033[K  %s: %" PRIu64 "/%" PRIu64 " CTAs, %" PRIu64 " cycles, %.0f cycles/s, %.1f s",
            g->fl->fn->name, g->ctas_done, g->ctas_total, cyc, e > 0 ? (double)cyc / e : 0.0, e);
    fflush(stderr);
}

static void watchdog_fire(struct gpu *g, uint64_t c, uint64_t last)
{
    g->err = GS_ERR_WATCHDOG;
    snprintf(g->fl->err, g->fl->err_len,
             "kernel '%s': watchdog: no instruction issued on any SM for %" PRIu64
             " core cycles (cycle %" PRIu64 ", sim.watchdog = %" PRIu64 "); warp states on stderr",
             g->fl->fn->name, c - last, c, g->cfg->sim.watchdog_cycles);
    fprintf(stderr, "gpusim: watchdog at core cycle %" PRIu64 ", kernel '%s'; resident warps:\n", c,
            g->fl->fn->name);
    for (uint32_t i = 0; i < g->n_sm; i++)
        sm_dump(g->sms[i], stderr);
}

/* NOTE(gtsc-reset) (partitions/l2/l2.c): a G-TSC slice whose timestamps
 * neared the top during the quantum just run makes every slice reset at
 * its end, one simulated instant for all, whatever the thread count. */
static void gtsc_reset_step(struct gpu *g)
{
    for (uint32_t c = 0; c < g->n_ch; c++)
        if (mpu_part_gtsc_reset_wanted(g->parts[c])) {
            for (uint32_t k = 0; k < g->n_ch; k++)
                mpu_part_gtsc_reset(g->parts[k]);
            return;
        }
}

/* NOTE(ahead-gpu): the GPU's eng_ahead_fn (NOTE(ahead) in sync/engine.c).
 * SM i may run its next quantum while the serial step ending this one runs
 * when that step cannot touch it:
 *  - it reported no finished CTA and no error since the last serial step,
 *    so the step has nothing of it to collect, and it gets no CTA: the
 *    dispatcher's every step offers a CTA to every SM with room while any
 *    is left (NOTE(step-all-at-once)), so one whose room did not change
 *    gets none, unless the policy declined it (the `serial` policy, when
 *    its own range is used up) or CTAs are left and it has room: then no;
 *  - a CTA is still live on it, so the kernel cannot end (the dispatcher
 *    checks the memory system only once every CTA has been reported), and
 *    no kernel is about to start (that sets up every SM);
 *  - no watchdog dump is due (it reads every SM's warps).
 * The step then reads only `ahead` and `ahead_last_issue` of it (the
 * watchdog's last issue as of this quantum's end). A watchdog that finds
 * no issue for sim.watchdog cycles fires at the next serial step (no SM
 * runs ahead then: its dump reads every SM), reporting the cycle at which
 * it found the stall; always, with sync.ahead on or off, so that a run it
 * stops ends with the same statistics either way (one quantum later than
 * before session 32; the message is unchanged). The answer depends on the
 * model state only, so serial steps see the same at 1 and at N threads,
 * whether or not anything ran ahead. */
static bool part_ahead(void *model, int p, ps_t t_end)
{
    struct gpu *g = model;
    struct sm *s = g->sms[p];
    const struct dispatch_kernel *k = dispatch_running(&g->disp);
    bool ok = g->fl && !g->pending && !g->wd_due && k && s->n_done == 0 && !s->err && s->n_cta > 0 &&
              (k->n_issued == k->n_ctas || dispatch_sm_room(&g->disp, (uint32_t)p) == 0);
    if (s->ahead != ok) /* the serial step reads these lines: write only what changes */
        s->ahead = ok;
    if (ok && cyc_at(g, t_end) >= g->wd_check) /* the serial step ending at t_end checks the watchdog */
        s->ahead_last_issue = s->last_issue;
    return ok;
}

static bool serial(void *model, struct engine *eng, ps_t now)
{
    struct gpu *g = model;
    if (!g->fl)
        return false; /* the initial run: partitions are initialised, nothing to simulate */
    g->ser_eng = eng;
    g->ser_now = now;
    if (g->cfg->coh.protocol == COH_PROTO_GTSC)
        gtsc_reset_step(g);
    uint64_t c = cyc_at(g, now);
    if (g->pending) {
        g->pending = false;
        g->t_kernel_start = c;
        enum dispatch_err de = dispatch_launch(&g->disp, &g->dl, c);
        SIM_ASSERT(de == DISPATCH_OK, "gpu: dispatch_launch: %s", dispatch_err_name(de));
    }
    if (g->wd_due) {
        watchdog_fire(g, g->wd_c, g->wd_last);
        return false;
    }
    for (uint32_t i = 0; i < g->n_sm; i++) {
        struct sm *s = g->sms[i];
        if (s->ahead) /* NOTE(ahead-gpu): nothing to collect, and it may be running */
            continue;
        if (s->err) {
            g->err = s->err;
            snprintf(g->fl->err, g->fl->err_len, "%s", func_sm_error_text(s->fx));
            return false;
        }
        for (uint32_t k = 0; k < s->n_done; k++) {
            dispatch_cta_done(&g->disp, i, s->done[k]);
            g->ctas_done++;
        }
        s->n_done = 0;
    }
    dispatch_step(&g->disp, c);
    if (g->err)
        return false;
    if (g->kernel_done)
        return false;
    /* NOTE(serial-line): the watchdog looks every sim.watchdog / 8 cycles
     * (and the stall it reports can be that much longer), so that serial
     * steps do not read every SM's last issue, which the SM writes on every
     * issue, at every quantum. */
    if (g->kstarted && c >= g->wd_check) {
        uint64_t w = g->cfg->sim.watchdog_cycles;
        g->wd_check = c + (w / 8 ? w / 8 : 1);
        uint64_t last = g->t_kernel_start;
        for (uint32_t i = 0; i < g->n_sm; i++) {
            const struct sm *s = g->sms[i];
            uint64_t li = (s->ahead ? s->ahead_last_issue : s->last_issue) * g->ssh.pipe_div;
            if (li > last)
                last = li;
        }
        if (c > last && c - last > g->cfg->sim.watchdog_cycles) {
            /* NOTE(ahead-gpu): dump at the next step, when no SM is running */
            g->wd_due = true;
            g->wd_c = c;
            g->wd_last = last;
            eng_serial_again(eng); /* even if nothing else is due */
        }
    }
    if (g->host.progress)
        print_progress(g, now);
    return true;
}

/* -------------------------------------------------------------- building */

struct gpu *gpu_create(const struct sim_cfg *cfg, struct devmem *mem, struct stats *stats, char *err,
                       size_t err_len)
{
    struct clock_periods per;
    clock_periods_compute(&cfg->clock, &per);
    if (per.icnt != per.core) {
        snprintf(err, err_len,
                 "sim.mode = timing needs clock.icnt = clock.core (the SM steps its interconnect halves on core "
                 "edges; docs/timing.md)");
        return NULL;
    }
    if (cfg->sm.max_cta > SM_MAX_CTA || cfg->sm.max_warps > LDST_MAX_WARPS) {
        snprintf(err, err_len, "sim.mode = timing supports sm.max_cta <= %u and sm.max_warps <= %u", SM_MAX_CTA,
                 LDST_MAX_WARPS);
        return NULL;
    }
    struct gpu *g = xcalloc(1, sizeof *g);
    g->cfg = cfg;
    g->mem = mem;
    g->stats = stats;
    g->per = per;
    g->n_sm = (uint32_t)cfg->gpu.n_sm;
    g->n_ch = (uint32_t)cfg->mem.n_partitions;
    uint32_t l2_sets = (uint32_t)(cfg->l2.size_per_sub / (cfg->l2.assoc * cfg->l2.line));
    addrmap_init_spec(&g->map, cfg->dram.addr_map, g->n_ch, (uint32_t)cfg->mem.sub_per_partition,
                      (uint32_t)cfg->dram.banks, (uint32_t)cfg->dram.rows, l2_sets);
    pagetable_init(&g->pt, &cfg->vm, &g->map, 0); /* window-relative addresses (NOTE(dev_addr)) */
    icnt_topo_init(&g->topo, &cfg->icnt_net, cfg->icnt.min_latency, g->n_sm, g->n_ch,
                   (uint32_t)cfg->mem.sub_per_partition);
    /* NOTE(relaxed-fifo): in relaxed mode a flit and its credit can each
     * reach the other side up to Q - L late (sync/engine_msg.c,
     * NOTE(relaxed-late)), so the credit loop the receive FIFO is sized for
     * (icnt.rx_fifo_flits, 2 x min_latency + 2 by default) grows by up to
     * 2 (Q - L). Without more FIFO the link's credit-limited bandwidth
     * drops by that factor, an error of the approximation rather than of
     * the modelled hardware; sync.relaxed_comp = fifo or due adds those
     * flits, so the link moves as many flits per cycle as in exact mode.
     * Exact mode (Q <= L) adds nothing. */
    if (cfg->engine.relaxed && cfg->engine.relaxed_comp >= ENG_RELAXED_COMP_FIFO)
        g->topo.fifo_extra = icnt_relaxed_fifo_extra(cfg->icnt.min_latency, per.icnt, cfg->engine.quantum_ps);
    /* NOTE(icnt-burst) in sim/icnt/icnt.h: a packet whose flits all have
     * credits is one engine message; same timing, fewer messages. Exact mode
     * only (relaxed lateness is per flit), and not with icnt.jitter. */
    g->topo.burst = !cfg->engine.relaxed && cfg->icnt_net.jitter == 0;
    g->eng = eng_create(&cfg->engine, g);
    int dom[4];
    dom[0] = eng_domain_add(g->eng, "dram", per.dram);
    dom[1] = eng_domain_add(g->eng, "l2", per.l2);
    dom[2] = eng_domain_add(g->eng, "icnt", per.icnt);
    dom[3] = eng_domain_add(g->eng, "core", per.core);
    for (uint32_t i = 0; i < g->n_sm; i++) {
        char name[32];
        snprintf(name, sizeof name, "sm%u", i);
        eng_partition_add(g->eng, name, ENG_PART_SM, part_init, part_fini);
    }
    for (uint32_t c = 0; c < g->n_ch; c++) {
        char name[32];
        snprintf(name, sizeof name, "mem%u", c);
        eng_partition_add(g->eng, name, ENG_PART_MEM, part_init, part_fini);
    }
    if (g->topo.sw_ep != UINT32_MAX) /* xbar_iq: partition n_sm + n_ch hosts the switch */
        eng_partition_add(g->eng, "icnt_iq", ENG_PART_MEM, part_init, part_fini);
    g->sm_unit = xcalloc(g->n_sm, sizeof *g->sm_unit);
    g->ep_unit = xcalloc(g->topo.n_ep, sizeof *g->ep_unit);
    g->mp_units = xcalloc(g->n_ch, sizeof *g->mp_units);
    g->parts = xcalloc(g->n_ch, sizeof *g->parts);
    g->sms = xcalloc(g->n_sm, sizeof *g->sms);
    for (uint32_t i = 0; i < g->n_sm; i++) {
        g->sm_unit[i] = eng_unit_add(g->eng, (int)i, dom[3], &sm_unit_ops);
        g->ep_unit[i] = g->sm_unit[i];
    }
    if (g->topo.sw_ep != UINT32_MAX) {
        g->iq_unit = eng_unit_add(g->eng, (int)(g->n_sm + g->n_ch), dom[2], &iq_unit_ops);
        g->ep_unit[g->topo.sw_ep] = g->iq_unit;
    }
    int mdom[MPU_N_DOM] = {dom[0], dom[1], dom[2]};
    for (uint32_t c = 0; c < g->n_ch; c++) {
        mpu_units_add(g->eng, (int)(g->n_sm + c), mdom, g->mp_units[c]);
        for (uint32_t k = 0; k < cfg->mem.sub_per_partition; k++)
            g->ep_unit[icnt_ep_of_sub(&g->topo, c * (uint32_t)cfg->mem.sub_per_partition + k)] =
                g->mp_units[c][MPU_DOM_ICNT];
    }
    struct mpu_shared *sh = &g->msh;
    sh->mp_cfg = &cfg->l2_to_dram;
    sh->l2_cfg = &cfg->l2;
    sh->coh_cfg = &cfg->coh;
    sh->dram_cfg = &cfg->dram;
    sh->net_cfg = &cfg->icnt_net;
    sh->seed = cfg->sim.seed;
    sh->relaxed_due = cfg->engine.relaxed && cfg->engine.relaxed_comp == ENG_RELAXED_COMP_DUE;
    sh->atom = &func_atomic_ops;
    sh->map = &g->map;
    sh->pt = &g->pt;
    sh->topo = &g->topo;
    sh->pipe_period_ps = per.core * cfg->sm.pipe_clock_div;
    sh->period_ps[MPU_DOM_DRAM] = per.dram;
    sh->period_ps[MPU_DOM_L2] = per.l2;
    sh->period_ps[MPU_DOM_ICNT] = per.icnt;
    for (int d = 0; d < MPU_N_DOM; d++)
        sh->period_div[d] = divq_make(sh->period_ps[d]);
    sh->store_bytes = g->map.local_bytes;
    sh->ep_unit = g->ep_unit;
    sh->units = g->mp_units;
    sh->parts = g->parts;
    sh->stats = stats;
    sh->dev = mem;
    mpu_links_add(g->eng, sh);
    if (g->topo.sw_ep != UINT32_MAX)
        iq_unit_links_add(g->eng, &g->topo, g->ep_unit, g->iq_unit, per.icnt);

    struct sm_shared *ss = &g->ssh;
    ss->cfg = cfg;
    ldst_params_defaults(&ss->lp);
    ss->lp.l1d = cfg->l1d;
    ss->lp.l1d.coh = cfg->coh;
    ss->lp.l1d.period_ps = per.core * cfg->sm.pipe_clock_div; /* the L1D ticks in SM pipeline cycles */
    ss->lp.l1c = cfg->l1c;
    ss->lp.coal = cfg->coalesce;
    ss->lp.coal.flit = cfg->icnt_net.flit; /* the SM copies the packet geometry (coalesce.h) */
    ss->lp.coal.header = cfg->icnt_net.header;
    ss->lp.smem = cfg->smem_banks;
    ss->lp.n_warps = (uint32_t)cfg->sm.max_warps;
    ss->lp.n_slots = (uint32_t)cfg->sm.ldst_slots;
    ss->topo = &g->topo;
    ss->net = &cfg->icnt_net;
    ss->route = (struct mem_route){gpu_route_ep, g};
    ss->ep_unit = g->ep_unit;
    ss->core_ps = per.core;
    ss->core_div = divq_make(per.core);
    ss->pipe_div = (uint32_t)cfg->sm.pipe_clock_div;
    ss->stats = stats;
    ss->max_warps = (uint32_t)cfg->sm.max_warps;
    ss->max_cta = (uint32_t)cfg->sm.max_cta;

    eng_set_serial(g->eng, serial);
    eng_set_ahead(g->eng, part_ahead);
    struct diag d;
    diag_init(&d);
    if (eng_finalize(g->eng, &d) != 0) {
        char *m = diag_join(&d);
        snprintf(err, err_len, "timing model: %s", m ? m : "engine configuration error");
        free(m);
        diag_fini(&d);
        gpu_destroy(g);
        return NULL;
    }
    diag_fini(&d);
    struct dispatch_port port = {g, port_start_cta, port_drained, port_kernel_start, port_kernel_done};
    dispatch_init(&g->disp, &cfg->dispatch, &cfg->sm, &cfg->smem, g->n_sm, &port);
    if (stats) {
        dispatch_stats_register(&g->disp, stats);
        stats_counter(stats, "gpu", -1, "cycles", &g->st.cycles,
                      "core cycles of completed kernels, from dispatch to memory drained");
        stats_counter(stats, "gpu", -1, "kernels", &g->st.kernels, "kernels completed in timing mode");
    }
    return g;
}

void gpu_destroy(struct gpu *g)
{
    if (!g)
        return;
    if (g->eng)
        eng_destroy(g->eng);
    if (g->disp.sm)
        dispatch_fini(&g->disp);
    icnt_topo_fini(&g->topo);
    pagetable_fini(&g->pt);
    free(g->sm_unit);
    free(g->ep_unit);
    free(g->mp_units);
    free(g->parts);
    free(g->sms);
    free(g);
}

void gpu_set_host(struct gpu *g, const struct gpu_host_opts *o) { g->host = *o; }

static int run(struct gpu *g, char *err, size_t err_len)
{
    struct eng_run_opts o = {g->host.threads, g->host.sm_threads, g->host.mem_threads, g->host.pin,
                             g->host.stop_flag, NULL, NULL};
    struct eng_result res;
    double t0 = wall_now();
    int rc = eng_run(g->eng, &o, &res, err, err_len);
    g->host_seconds += wall_now() - t0;
    if (rc != 0)
        return GS_ERR_INVALID_VALUE;
    g->started = true;
    g->last_threads = res.threads;
    for (unsigned t = 0; t < res.threads && t < GPU_MAX_THREADS; t++)
        eng_thread_report_add(&g->thr[t], &res.per_thread[t]);
    g->end_ps = res.end_time;
    g->adapt = res.adapt;
    g->profile = res.profile;
    g->max_time_hit = res.finish == ENG_FINISH_MAX_TIME;
    if (res.finish == ENG_FINISH_INTERRUPTED)
        return GS_ERR_INTERRUPTED;
    return 0;
}

/* ------------------------------------------------------------- launching */

int gpu_prepare(struct gpu *g, char *err, size_t err_len)
{
    return g->started ? 0 : run(g, err, err_len);
}

/* NOTE(pt-map): the page table maps pages in the serial step only, so the
 * mapping is the same for any host thread count: at each launch every live
 * allocation in address order, then the local-memory and code regions at
 * the top of the window; host copies map what they touch. With the
 * identity policy nothing is recorded (docs/addrmap.md). */
static bool map_pages(struct gpu *g, uint64_t window_end)
{
    for (size_t i = 0; i < g->mem->n; i++) {
        const struct devmem_block *b = &g->mem->blocks[i];
        if (!pagetable_map_range(&g->pt, b->addr - DEVMEM_BASE, b->size ? b->size : 1, PAGETABLE_HINT_NONE))
            return false;
    }
    return pagetable_map_range(&g->pt, g->kern.local_base - DEVMEM_BASE, window_end - g->kern.local_base,
                               PAGETABLE_HINT_NONE);
}

int gpu_launch(struct gpu *g, const struct func_launch *l, uint32_t ctas_per_sm, uint32_t regs_per_thread,
               uint64_t smem_per_cta)
{
    if (g->broken) {
        snprintf(l->err, l->err_len,
                 "kernel '%s': an earlier kernel of this context stopped part-way (fault, deadlock, watchdog or "
                 "interrupt), so the timing model's state is inconsistent; create a new context",
                 l->fn->name);
        return GS_ERR_STATE;
    }
    if (!g->started) {
        int rc = run(g, l->err, l->err_len);
        if (rc)
            return rc;
    }
    /* Local-memory and code regions at the top of the mapped window. */
    uint64_t lpt = u64_round_up(func_local_per_thread(l->mod, l->fn), 16);
    uint32_t wpc = (l->block[0] * l->block[1] * l->block[2] + FUNC_WARP - 1) / FUNC_WARP;
    memset(&g->kern, 0, sizeof g->kern);
    if (!sm_kernel_build(&g->kern, l, l->err, l->err_len)) {
        sm_kernel_free(&g->kern);
        return GS_ERR_UNSUPPORTED;
    }
    uint64_t window_end = DEVMEM_BASE + addrmap_capacity(&g->map);
    uint64_t code_base = fetch_code_seg_base(window_end, fetch_code_bytes(l->mod));
    uint64_t *base = xcalloc(l->mod->n_funcs + 1, sizeof *base);
    uint32_t *nins = xcalloc(l->mod->n_funcs + 1, sizeof *nins);
    fetch_code_layout(l->mod, code_base, base, nins);
    g->kern.code = (struct fetch_code){l->mod->n_funcs, base, nins};
    g->kern.local_per_thread = lpt;
    g->kern.local_region = u64_round_up(lpt * g->ssh.max_warps * 32, 256);
    g->kern.local_base = (code_base - g->kern.local_region * g->n_sm) & ~(uint64_t)255;
    g->kern.ctas_per_sm = ctas_per_sm;
    g->kern.warps_per_cta = wpc;
    if (g->mem->next > g->kern.local_base) {
        snprintf(l->err, l->err_len,
                 "kernel '%s': device allocations (%" PRIu64 " MB) reach the timing model's local-memory and code "
                 "regions at the top of the %" PRIu64 " MB mapped by %u memory partitions",
                 l->fn->name, (uint64_t)((g->mem->next - DEVMEM_BASE) >> 20), (uint64_t)(addrmap_capacity(&g->map) >> 20), g->n_ch);
        sm_kernel_free(&g->kern);
        return GS_ERR_OUT_OF_MEMORY;
    }
    if (!map_pages(g, window_end)) {
        snprintf(l->err, l->err_len, "kernel '%s': the device page table (vm.page_policy) has no free frame left",
                 l->fn->name);
        sm_kernel_free(&g->kern);
        return GS_ERR_OUT_OF_MEMORY;
    }
    g->fl = l;
    g->dl = (struct dispatch_launch){l->fn->name, 0, {l->grid[0], l->grid[1], l->grid[2]},
                                     {l->block[0], l->block[1], l->block[2]}, regs_per_thread, smem_per_cta};
    g->pending = true;
    g->kernel_done = false;
    g->kstarted = false;
    g->err = 0;
    g->wd_due = false;
    g->wd_check = 0;
    g->ctas_total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    g->ctas_done = 0;
    clock_gettime(CLOCK_MONOTONIC, &g->t0);
    g->last_line = 0; /* first line after 0.5 s: short kernels print nothing */
    int rc = run(g, l->err, l->err_len);
    if (g->host.progress && g->last_line > 0)
        fputs("\r\033[K", stderr);
    if (!rc && g->err)
        rc = g->err;
    if (rc == GS_ERR_INTERRUPTED)
        snprintf(l->err, l->err_len, "kernel '%s': interrupted at %.3f us simulated, %" PRIu64 " of %" PRIu64
                 " CTAs finished", l->fn->name, (double)g->end_ps * 1e-6, g->ctas_done, g->ctas_total);
    if (!rc && !g->kernel_done && g->max_time_hit) { /* not a deadlock: the run was cut short */
        rc = GS_ERR_EXEC;
        snprintf(l->err, l->err_len,
                 "kernel '%s': stopped at sync.max_time (%.3f us simulated) with %" PRIu64 " of %" PRIu64
                 " CTAs finished",
                 l->fn->name, (double)g->end_ps * 1e-6, g->ctas_done, g->ctas_total);
    } else if (!rc && !g->kernel_done) {
        rc = GS_ERR_EXEC;
        snprintf(l->err, l->err_len,
                 "kernel '%s': deadlock: the machine went idle with %" PRIu64 " of %" PRIu64
                 " CTAs finished (warps wait for a barrier or an event that cannot come); warp states on stderr",
                 l->fn->name, g->ctas_done, g->ctas_total);
        fprintf(stderr, "gpusim: deadlock in kernel '%s'; resident warps:\n", l->fn->name);
        for (uint32_t i = 0; i < g->n_sm; i++)
            sm_dump(g->sms[i], stderr);
    }
    for (uint32_t i = 0; i < g->n_sm; i++) {
        struct sm *s = g->sms[i];
        struct func_stats *d = l->st, *f = &s->fst;
        /* fold this SM's executor counters into the context's */
        d->warp_insts += f->warp_insts;
        d->thread_insts += f->thread_insts;
        d->int_insts += f->int_insts;
        d->fp32_insts += f->fp32_insts;
        d->fp64_insts += f->fp64_insts;
        d->sfu_insts += f->sfu_insts;
        d->ld_global += f->ld_global;
        d->st_global += f->st_global;
        d->ld_shared += f->ld_shared;
        d->st_shared += f->st_shared;
        d->ld_local += f->ld_local;
        d->st_local += f->st_local;
        d->ld_param += f->ld_param;
        d->st_param += f->st_param;
        d->ld_const += f->ld_const;
        d->atomics += f->atomics;
        d->branches += f->branches;
        d->divergent_branches += f->divergent_branches;
        d->barriers += f->barriers;
        d->calls += f->calls;
        d->ctas += f->ctas;
        d->active_lanes.sum += f->active_lanes.sum;
        d->active_lanes.count += f->active_lanes.count;
        memset(f, 0, sizeof *f);
        sm_kernel_end(s, g->end_ps / g->per.core / g->ssh.pipe_div);
    }
    if (!rc)
        l->st->kernels++;
    if (rc && g->kstarted) {
        /* The machine holds a half-run kernel: later launches on this
         * context would start from an inconsistent state. */
        g->broken = true;
    }
    g->fl = NULL;
    sm_kernel_free(&g->kern);
    return rc;
}

bool gpu_host_write(struct gpu *g, uint64_t dev, const void *buf, uint64_t n)
{
    if (!g->started)
        return true; /* no cached copy can exist yet: device memory is the store */
    if (dev >= DEVMEM_BASE && !pagetable_map_range(&g->pt, dev - DEVMEM_BASE, n, PAGETABLE_HINT_NONE))
        return false;
    return mpu_host_write(&g->msh, dev, buf, n);
}

bool gpu_host_read(struct gpu *g, uint64_t dev, void *buf, uint64_t n)
{
    if (!g->started)
        return false; /* caller reads device memory */
    if (dev >= DEVMEM_BASE && !pagetable_map_range(&g->pt, dev - DEVMEM_BASE, n, PAGETABLE_HINT_NONE))
        return false;
    return mpu_host_read(&g->msh, dev, buf, n);
}

void gpu_summary(const struct gpu *g, struct gpu_summary *out)
{
    memset(out, 0, sizeof *out);
    out->cycles = g->st.cycles;
    out->kernels = g->st.kernels;
    out->host_seconds = g->host_seconds;
    out->threads = g->last_threads;
    out->end_ps = g->end_ps;
    out->adapt = g->adapt;
    out->profile = g->profile;
    for (unsigned t = 0; t < g->last_threads && t < GPU_MAX_THREADS; t++)
        out->per_thread[t] = g->thr[t];
    for (uint32_t i = 0; i < g->n_sm; i++)
        if (g->sms[i])
            out->warp_insts += g->sms[i]->st.insts;
}

ps_t gpu_lookahead(const struct gpu *g) { return eng_lookahead(g->eng); }
ps_t gpu_quantum(const struct gpu *g) { return eng_quantum(g->eng); }
