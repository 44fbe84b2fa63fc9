/* sim/sm/lsu/l1ro.c: read-only L1 (constant and instruction caches). See
 * l1ro.h for the model and docs/l1.md for parameters and choices.
 *
 * NOTE(l1ro-alloc-on-fill): spec 1.2 gives GPGPU-Sim's "allocate on fill"
 * for both caches: the victim is chosen when the fill is processed, so a
 * miss never fails for lack of a way, and a line evicted by the fill stays
 * readable until then. Victims are never dirty (read-only), so a fill needs
 * no miss-queue room and only 1 free slot is needed per new miss.
 */
#include "sim/sm/lsu/l1ro.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void l1ro_init(struct l1ro *c, const struct l1ro_cfg *cfg, const char *name, int sm_id)
{
    const char *key;
    const char *why = l1ro_cfg_invalid(cfg, &key);
    SIM_ASSERT(!why, "%s[%d]: %s %s", name, sm_id, key, why);
    memset(c, 0, sizeof *c);
    c->name = name;
    c->sm_id = sm_id;
    c->line = (uint32_t)cfg->line;
    c->n_sets = (uint32_t)(cfg->size / (cfg->assoc * cfg->line));
    c->hit_lat = (uint32_t)cfg->hit_latency;
    c->token_is_warp = strcmp(name, "l1i") == 0;
    c->space = c->token_is_warp ? MEM_SPACE_INST : MEM_SPACE_CONST;
    struct ta_opts to = {.repl = ta_repl_of(cfg->repl),
                         .vt_entries = (uint32_t)cfg->victim_tags,
                         .vt_assoc = (uint32_t)cfg->victim_tags_assoc};
    ta_init_opts(&c->tags, c->n_sets, (uint32_t)cfg->assoc, c->line, NULL, NULL, &to);
    c->cache_stats = cfg->repl != TA_REPL_LRU || cfg->victim_tags != 0;
    c->data = xcalloc(ta_n_lines(&c->tags), c->line);
    mshr_init(&c->mshr, (uint32_t)cfg->mshr, (uint32_t)cfg->mshr_merge, sizeof(struct l1ro_pend));
    reqq_init(&c->mq, (uint32_t)cfg->miss_queue);
    c->rx_r.cap = (uint32_t)cfg->mshr;
    c->rx = xcalloc(c->rx_r.cap, sizeof *c->rx);
    c->hq_r.cap = c->hit_lat + 2; /* as NOTE(l1d-done-cap) */
    c->hq = xcalloc(c->hq_r.cap, sizeof *c->hq);
    c->fq_r.cap = (uint32_t)cfg->mshr_merge * 2;
    c->fq = xcalloc(c->fq_r.cap, sizeof *c->fq);
}

void l1ro_fini(struct l1ro *c)
{
    ta_fini(&c->tags);
    mshr_fini(&c->mshr);
    free(c->data);
    reqq_fini(&c->mq);
    free(c->rx);
    free(c->hq);
    free(c->fq);
    memset(c, 0, sizeof *c);
}

static enum l1ro_result rfail(struct l1ro *c, enum l1ro_rf_cause k, enum l1ro_rf_cause *out)
{
    c->st.rf[k]++;
    if (out)
        *out = k;
    return L1RO_FAIL;
}

enum l1ro_result l1ro_access(struct l1ro *c, uint64_t addr, uint32_t token, cycle_t cycle,
                             enum l1ro_rf_cause *cause)
{
    uint16_t warp = c->token_is_warp && token < MEM_WARP_NONE ? (uint16_t)token : MEM_WARP_NONE;
    return l1ro_access_id(c, addr, token, warp, MEM_CTA_NONE, cycle, cause);
}

enum l1ro_result l1ro_access_id(struct l1ro *c, uint64_t addr, uint32_t token, uint16_t warp, uint32_t cta,
                                cycle_t cycle, enum l1ro_rf_cause *cause)
{
    if (c->last_acc == cycle + 1)
        return rfail(c, L1RO_RF_PORT, cause);
    uint64_t line = addr & ~(uint64_t)(c->line - 1);
    int32_t li = ta_probe(&c->tags, line);
    if (li >= 0) {
        if (idx_ring_full(&c->hq_r))
            return rfail(c, L1RO_RF_DONE_FULL, cause);
        ta_touch(&c->tags, (uint32_t)li);
        struct l1ro_q *q = &c->hq[idx_ring_push(&c->hq_r)];
        q->d.line_addr = line;
        q->d.token = token;
        q->d.latency = c->hit_lat;
        q->d.hit = 1;
        if (!c->no_data) /* NOTE(l1ro-no-data) */
            memcpy(q->d.data, c->data + (uint64_t)li * c->line, c->line);
        q->ready = cycle + c->hit_lat;
        c->st.accesses++;
        c->st.hits++;
        c->last_acc = cycle + 1;
        return L1RO_HIT;
    }
    int32_t e = mshr_lookup(&c->mshr, line);
    if (e >= 0) {
        struct l1ro_pend *p = mshr_add(&c->mshr, (uint32_t)e);
        if (!p)
            return rfail(c, L1RO_RF_MERGE_LIMIT, cause);
        p->token = token;
        p->t_acc = cycle;
        c->st.accesses++;
        c->st.mshr_merges++;
        c->last_acc = cycle + 1;
        return L1RO_MERGED;
    }
    if (mshr_full(&c->mshr))
        return rfail(c, L1RO_RF_MSHR_FULL, cause);
    if (reqq_full(&c->mq))
        return rfail(c, L1RO_RF_MISS_QUEUE, cause);
    e = mshr_alloc(&c->mshr, line);
    ta_victim_probe(&c->tags, line);
    struct l1ro_pend *p = mshr_add(&c->mshr, (uint32_t)e);
    p->token = token;
    p->t_acc = cycle;
    struct mem_req *r = reqq_push(&c->mq, cycle + 1);
    r->addr = line;
    r->id = (uint32_t)e;
    r->src = (uint16_t)c->sm_id;
    r->op = MEM_OP_READ;
    r->size = (uint8_t)c->line;
    r->warp = warp;
    r->cta = cta;
    r->space = c->space;
    r->t_create = cycle;
    c->st.accesses++;
    c->st.misses++;
    c->last_acc = cycle + 1;
    return L1RO_MISS;
}

bool l1ro_pop_req(struct l1ro *c, struct mem_req *out, cycle_t cycle)
{
    if (!reqq_pop(&c->mq, out, cycle))
        return false;
    c->st.req_sent++;
    return true;
}

/* NOTE(l1ro-no-data): the SM's instruction cache serves the fetch unit,
 * which reads only a completion's token (it decodes from the pre-decoded
 * kernel), so its hits, fills and pops skip the line's bytes: a hit had
 * cleared and filled a 160-byte record and the pop copied it again, on
 * every instruction fetch. Tags, MSHRs, timing and statistics are the
 * same; the bytes of its records and lines are left unspecified. */
void l1ro_no_data(struct l1ro *c) { c->no_data = true; }

bool l1ro_push_reply(struct l1ro *c, const struct mem_reply *rep, cycle_t cycle)
{
    if (idx_ring_full(&c->rx_r))
        return false;
    SIM_ASSERT(rep->op == MEM_OP_READ && rep->id < c->mshr.n_entries && c->mshr.state[rep->id] == MSHR_OPEN &&
                   mshr_line(&c->mshr, rep->id) == (rep->addr & ~(uint64_t)(c->line - 1)),
               "%s[%d]: unexpected reply 0x%llx id %u", c->name, c->sm_id, (unsigned long long)rep->addr, rep->id);
    struct l1ro_rx *x = &c->rx[idx_ring_push(&c->rx_r)];
    x->line_addr = mshr_line(&c->mshr, rep->id);
    x->entry = rep->id;
    x->ready = cycle + 1;
    if (!c->no_data)
        memcpy(x->data, rep->data + mem_line_off(x->line_addr), c->line);
    return true;
}

bool l1ro_pop_done_work(struct l1ro *c, struct l1ro_done *out, cycle_t cycle)
{
    struct l1ro_q *h = c->hq_r.n ? &c->hq[c->hq_r.head] : NULL;
    struct l1ro_q *f = c->fq_r.n ? &c->fq[c->fq_r.head] : NULL;
    if (h && h->ready > cycle)
        h = NULL;
    if (f && f->ready > cycle)
        f = NULL;
    if (!h && !f)
        return false;
    const struct l1ro_q *q = h && (!f || h->ready <= f->ready) ? h : f;
    if (c->no_data) /* NOTE(l1ro-no-data): the record without the line's bytes */
        memcpy(out, &q->d, offsetof(struct l1ro_done, data));
    else
        *out = q->d;
    idx_ring_pop(q == h ? &c->hq_r : &c->fq_r);
    return true;
}

uint64_t l1ro_tick_work(struct l1ro *c, cycle_t cycle)
{
    SIM_DEBUG_ASSERT(c->mq.r.n <= c->mq.r.cap && c->rx_r.n <= c->rx_r.cap && c->hq_r.n <= c->hq_r.cap &&
                         c->fq_r.n <= c->fq_r.cap,
                     "%s[%d]: ring count above capacity", c->name, c->sm_id);
    if (c->rx_r.n && c->rx[c->rx_r.head].ready <= cycle) {
        const struct l1ro_rx *x = &c->rx[c->rx_r.head];
        uint32_t e = x->entry;
        uint32_t n = mshr_count(&c->mshr, e);
        if (c->fq_r.cap - c->fq_r.n >= n) {
            int32_t v = ta_victim(&c->tags, ta_set_of(&c->tags, x->line_addr));
            SIM_ASSERT(v >= 0, "%s[%d]: no victim", c->name, c->sm_id);
            ta_install(&c->tags, (uint32_t)v, x->line_addr, TA_VALID);
            if (!c->no_data)
                memcpy(c->data + (uint64_t)v * c->line, x->data, c->line);
            for (uint32_t k = 0; k < n; k++) {
                const struct l1ro_pend *p = mshr_slot(&c->mshr, e, k);
                struct l1ro_q *q = &c->fq[idx_ring_push(&c->fq_r)];
                q->d.line_addr = x->line_addr;
                q->d.token = p->token;
                q->d.latency = (uint32_t)(cycle - p->t_acc);
                q->d.hit = 0;
                if (!c->no_data)
                    memcpy(q->d.data, x->data, c->line);
                q->ready = cycle;
                stat_avg_add(&c->st.miss_lat, cycle - p->t_acc);
            }
            mshr_close(&c->mshr, e);
            mshr_release(&c->mshr, e);
            idx_ring_pop(&c->rx_r);
            c->st.fills++;
        } else {
            c->st.stall_resp++;
        }
    }
    uint64_t next = CYCLE_NEVER;
    if (c->rx_r.n || c->fq_r.n)
        next = cycle + 1;
    next = MIN(next, reqq_next(&c->mq, cycle));
    if (c->hq_r.n)
        next = MIN(next, MAX(c->hq[c->hq_r.head].ready, cycle + 1));
    return next;
}

bool l1ro_idle(const struct l1ro *c)
{
    return reqq_empty(&c->mq) && c->rx_r.n == 0 && c->hq_r.n == 0 && c->fq_r.n == 0 && mshr_in_use(&c->mshr) == 0;
}

void l1ro_invalidate_all(struct l1ro *c)
{
    SIM_ASSERT(l1ro_idle(c), "%s[%d]: invalidate with misses outstanding", c->name, c->sm_id);
    ta_invalidate_all(&c->tags);
}

enum ta_state l1ro_probe_line(const struct l1ro *c, uint64_t addr, uint8_t out[MEM_LINE_BYTES])
{
    int32_t li = ta_probe(&c->tags, addr & ~(uint64_t)(c->line - 1));
    if (li < 0)
        return TA_INVALID;
    SIM_ASSERT(!out || !c->no_data, "%s[%d]: line bytes asked of a cache that keeps none", c->name, c->sm_id);
    if (out)
        memcpy(out, c->data + (uint64_t)li * c->line, c->line);
    return ta_state_of(&c->tags, (uint32_t)li);
}

static const char *const l1ro_rf_names[L1RO_RF_COUNT] = {"rf_mshr_full", "rf_merge_limit", "rf_miss_queue",
                                                         "rf_done_full", "rf_port"};

void l1ro_stats_register(struct l1ro *c, struct stats *s)
{
    int i = c->sm_id;
    const char *g = c->name;
    stats_counter(s, g, i, "accesses", &c->st.accesses, "accesses accepted");
    stats_counter(s, g, i, "hits", &c->st.hits, "accesses served from a valid line");
    stats_counter(s, g, i, "misses", &c->st.misses, "accesses that opened an MSHR entry");
    stats_counter(s, g, i, "mshr_merges", &c->st.mshr_merges, "accesses merged into an open MSHR entry");
    for (int k = 0; k < L1RO_RF_COUNT; k++)
        stats_counter(s, g, i, l1ro_rf_names[k], &c->st.rf[k], "reservation fails by cause (per attempt)");
    stats_counter(s, g, i, "fills", &c->st.fills, "lines installed");
    stats_counter(s, g, i, "req_sent", &c->st.req_sent, "requests sent toward L2");
    stats_counter(s, g, i, "stall_resp", &c->st.stall_resp, "core cycles a fill waited for completion room");
    stats_avg(s, g, i, "miss_latency", &c->st.miss_lat, "core cycles from access to completion, misses and merges");
    /* Only with a non-default policy or victim tags, so the default output is unchanged. */
    if (c->cache_stats)
        ta_stats_register(&c->tags, s, g, i);
}

void l1ro_stats_dump(const struct l1ro *c, FILE *out)
{
    fprintf(out, "%s[%d]: accesses %llu hits %llu misses %llu merges %llu fills %llu\n", c->name, c->sm_id,
            (unsigned long long)c->st.accesses, (unsigned long long)c->st.hits, (unsigned long long)c->st.misses,
            (unsigned long long)c->st.mshr_merges, (unsigned long long)c->st.fills);
    for (int k = 0; k < L1RO_RF_COUNT; k++)
        fprintf(out, "  %s %llu\n", l1ro_rf_names[k], (unsigned long long)c->st.rf[k]);
}
