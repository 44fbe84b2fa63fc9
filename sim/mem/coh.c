/* sim/mem/coh.c: the protocol-table machinery of coh.h: validation, the
 * dense lookup, the undefined-pair panic and the Markdown printer. */
#include "sim/mem/coh.h"

#include <string.h>

const char *coh_proto_invalid(const struct coh_proto *p)
{
    if (!p || !p->name || !p->states || !p->events || !p->actions || !p->rows)
        return "missing name, states, events, actions or rows";
    if (p->n_states == 0 || p->n_states > COH_MAX_STATES)
        return "state count outside 1..COH_MAX_STATES";
    if (p->n_events == 0 || p->n_events > COH_MAX_EVENTS)
        return "event count outside 1..COH_MAX_EVENTS";
    if (p->n_actions == 0 || p->n_actions > COH_MAX_ACTIONS)
        return "action count outside 1..COH_MAX_ACTIONS";
    if (p->n_rows >= COH_NO_ROW)
        return "too many rows";
    for (uint32_t i = 0; i < p->n_states; i++)
        if (!p->states[i].name || !p->states[i].doc)
            return "a state without a name or description";
    for (uint32_t i = 0; i < p->n_events; i++)
        if (!p->events[i].name || !p->events[i].doc)
            return "an event without a name or description";
    for (uint32_t i = 0; i < p->n_actions; i++)
        if (!p->actions[i].name || !p->actions[i].doc)
            return "an action without a name or description";
    uint8_t seen[COH_MAX_STATES][COH_MAX_EVENTS];
    memset(seen, 0, sizeof seen);
    for (uint32_t i = 0; i < p->n_rows; i++) {
        const struct coh_row *r = &p->rows[i];
        if (r->state >= p->n_states || r->next >= p->n_states)
            return "a row with a state out of range";
        if (r->event >= p->n_events)
            return "a row with an event out of range";
        if (seen[r->state][r->event]++)
            return "a (state, event) pair defined twice";
        bool ended = false;
        for (unsigned k = 0; k < COH_ROW_ACTIONS; k++) {
            if (r->act[k] >= p->n_actions)
                return "a row with an action out of range";
            if (r->act[k] == COH_END)
                ended = true;
            else if (ended)
                return "a row with an action after COH_END";
        }
    }
    return NULL;
}

void coh_table_init(struct coh_table *t, const struct coh_proto *p, const coh_action_fn *fn, const char *unit,
                    int inst)
{
    const char *why = coh_proto_invalid(p);
    SIM_ASSERT(!why, "%s[%d]: protocol %s: %s", unit, inst, p && p->name ? p->name : "?", why);
    memset(t, 0, sizeof *t);
    t->p = p;
    t->fn = fn;
    t->unit = unit;
    t->inst = inst;
    memset(t->cell, COH_NO_ROW, sizeof t->cell);
    for (uint32_t i = 0; i < p->n_rows; i++) {
        const struct coh_row *r = &p->rows[i];
        for (unsigned k = 0; k < COH_ROW_ACTIONS && r->act[k] != COH_END; k++)
            SIM_ASSERT(fn && fn[r->act[k]], "%s[%d]: protocol %s: action %s has no implementation", unit, inst,
                       p->name, p->actions[r->act[k]].name);
        t->cell[r->state][r->event] = (uint8_t)i;
    }
}

static const char *name_or(const struct coh_name *v, uint32_t n, unsigned i)
{
    return i < n ? v[i].name : "?";
}

void coh_undefined(const struct coh_table *t, uint64_t addr, unsigned state, unsigned event)
{
    const struct coh_proto *p = t->p;
    sim_panic("%s[%d]: protocol %s: no transition for line 0x%llx in state %s (%u) on event %s (%u)", t->unit,
              t->inst, p->name, (unsigned long long)addr, name_or(p->states, p->n_states, state), state,
              name_or(p->events, p->n_events, event), event);
}

static void print_names(FILE *out, const char *what, const struct coh_name *v, uint32_t from, uint32_t n)
{
    fprintf(out, "| %s | Meaning |\n|---|---|\n", what);
    for (uint32_t i = from; i < n; i++)
        fprintf(out, "| `%s` | %s |\n", v[i].name, v[i].doc);
    fprintf(out, "\n");
}

void coh_print_md(const struct coh_proto *p, FILE *out)
{
    fprintf(out, "### Protocol `%s`\n\n", p->name);
    if (p->doc)
        fprintf(out, "%s\n\n", p->doc);
    print_names(out, "State", p->states, 0, p->n_states);
    print_names(out, "Event", p->events, 0, p->n_events);
    print_names(out, "Action", p->actions, 1, p->n_actions);
    fprintf(out, "| State | Event | Actions | Next |\n|---|---|---|---|\n");
    for (uint32_t i = 0; i < p->n_rows; i++) {
        const struct coh_row *r = &p->rows[i];
        fprintf(out, "| %s | %s | ", p->states[r->state].name, p->events[r->event].name);
        if (r->act[0] == COH_END)
            fprintf(out, "-");
        for (unsigned k = 0; k < COH_ROW_ACTIONS && r->act[k] != COH_END; k++)
            fprintf(out, "%s`%s`", k ? ", " : "", p->actions[r->act[k]].name);
        fprintf(out, " | %s |\n", p->states[r->next].name);
    }
    fprintf(out, "\nEvery (state, event) pair not listed is undefined: reaching one panics, naming the cache, "
                 "the line address, the state and the event.\n\n");
}
