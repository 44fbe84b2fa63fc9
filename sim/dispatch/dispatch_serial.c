/* sim/dispatch/dispatch_serial.c: the `serial` CTA placement policy, the
 * dispatch half of InterCL (warp-sched-vws.md 3.1; 000 ch. 4.4; also TEMP's
 * dispatch queue in 000 ch. 5).
 *
 * Rule: at kernel start the linear CTA ids [0, N) are split into n_sm
 * contiguous ranges of nearly equal size; SM i gets
 * [floor(i*N/n_sm), floor((i+1)*N/n_sm)). Each SM is a dispatch queue of two
 * registers, head and tail: whenever it has a free CTA slot it takes head++,
 * until head == tail. There is no work stealing (the document mentions
 * none), so an SM whose range is done stays idle while others still work.
 *
 * Determinism: each SM's sequence of CTAs is fixed at kernel start, and
 * which SM a CTA runs on never depends on timing (unlike rr, where the SM
 * that frees a slot first gets the next CTA). Within one serial step the
 * SMs are visited in id order.
 *
 * State: head and tail per SM (the two registers of spec 2.1), plus the
 * first SM that may still have room in the current step. O(n_sm) per step.
 */
#include "sim/dispatch/dispatch.h"

#include <stdlib.h>

struct serial_state {
    uint32_t *head; /* [n_sm] next CTA id of the SM's range (CTA id) */
    uint32_t *tail; /* [n_sm] one past the last CTA id of the range (CTA id) */
};

static void serial_init(struct dispatcher *d)
{
    struct serial_state *r = xcalloc(1, sizeof *r);
    r->head = xcalloc(d->n_sm, sizeof *r->head);
    r->tail = xcalloc(d->n_sm, sizeof *r->tail);
    d->pstate = r;
}

static void serial_fini(struct dispatcher *d)
{
    struct serial_state *r = d->pstate;
    if (r) {
        free(r->head);
        free(r->tail);
        free(r);
    }
    d->pstate = NULL;
}

static void serial_kernel_start(struct dispatcher *d)
{
    struct serial_state *r = d->pstate;
    const struct dispatch_kernel *k = dispatch_running(d);
    uint64_t n = k ? k->n_ctas : 0;
    for (uint32_t i = 0; i < d->n_sm; i++) {
        r->head[i] = (uint32_t)(i * n / d->n_sm);
        r->tail[i] = (uint32_t)((i + 1) * n / d->n_sm);
    }
}

static bool serial_pick(struct dispatcher *d, uint32_t *sm, uint32_t *cta)
{
    struct serial_state *r = d->pstate;
    if (!dispatch_running(d))
        return false;
    for (uint32_t s = 0; s < d->n_sm; s++) {
        if (r->head[s] < r->tail[s] && dispatch_sm_room(d, s) > 0) {
            *sm = s;
            *cta = r->head[s]++;
            return true;
        }
    }
    return false;
}

const struct dispatch_policy dispatch_policy_serial = {
    .name = "serial",
    .init = serial_init,
    .fini = serial_fini,
    .kernel_start = serial_kernel_start,
    .pick = serial_pick,
    .cta_done = NULL,
};
