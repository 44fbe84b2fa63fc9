/* sim/mem/repl_fifo.c: first-in first-out replacement.
 *
 * Per-line word rp[line]: the tag array's use stamp when the line was
 * installed; hits change nothing. Victim: the lowest INVALID way, else the
 * non-RESERVED way installed longest ago (the scan LRU uses, on insertion
 * stamps). A common low-cost baseline, and the order of GPU texture caches.
 */
#include "sim/mem/tagarray.h"

static void fifo_hit(struct tagarray *t, uint32_t line)
{
    (void)t;
    (void)line;
}

static void fifo_insert(struct tagarray *t, uint32_t line, enum ta_state prev)
{
    (void)prev;
    t->rp[line] = ++t->stamp;
}

const struct ta_repl_ops ta_repl_fifo = {
    .name = "fifo",
    .on_hit = fifo_hit,
    .on_insert = fifo_insert,
    .victim = ta_victim_oldest,
};
