/* sim/ptx/cfg.c: control-flow graph, post-dominators, reconvergence PCs.
 *
 * Does: split a function into basic blocks (leaders: the first
 * instruction, branch targets, and the instruction after a bra, exit, ret,
 * trap or call), link successors (a guarded bra has its target and the
 * fall-through; a guarded exit/ret has the virtual exit and the
 * fall-through), and compute immediate post-dominators over the reverse
 * CFG with the Cooper-Harvey-Kennedy iterative algorithm, with one virtual
 * exit node. Blocks that cannot reach the exit (infinite loops) get an
 * artificial edge to the exit for this computation only. Every branch that
 * may diverge (a guarded bra, exit or ret) gets insn.reconv = first PC of
 * the ipdom block, or PTX_PC_EXIT.
 * Does not: model the SIMT stack (the executor's job), follow calls
 * (a callee has its own CFG), or handle indirect branches (brx.idx is
 * rejected by the parser).
 */
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/internal.h"

void ptx_cfg_free(struct ptx_cfg *cfg)
{
    for (uint32_t b = 0; b < cfg->n_blocks; b++)
        free(cfg->blocks[b].pred);
    free(cfg->blocks);
    free(cfg->block_of);
    memset(cfg, 0, sizeof *cfg);
}

static bool ends_block(const struct ptx_insn *in)
{
    return ptx_insn_is_terminator(in) || in->op == PTX_OP_CALL;
}

static void add_succ(struct ptx_block *b, uint32_t s)
{
    for (uint32_t i = 0; i < b->n_succ; i++)
        if (b->succ[i] == s)
            return;
    if (ALWAYS(b->n_succ < 2))
        b->succ[b->n_succ++] = s;
}

/* Post-order of the reverse CFG from the virtual exit (node nb). */
struct rdfs {
    uint32_t nb;        /* number of real blocks; node nb is the exit */
    uint32_t *po;       /* node -> post-order number, UINT32_MAX = unvisited */
    uint32_t *order;    /* post-order number -> node */
    uint32_t n_order;
    const bool *exit_edge; /* block flows to exit (real or artificial) */
};

static void reverse_dfs(const struct ptx_cfg *cfg, struct rdfs *r, uint32_t root)
{
    /* explicit stack of (node, next child index) */
    uint32_t *stk = ptx_xcalloc(2 * ((size_t)r->nb + 2), sizeof *stk);
    uint32_t sp = 0;
    r->po[root] = UINT32_MAX - 1; /* visiting */
    stk[sp++] = root;
    stk[sp++] = 0;
    while (sp) {
        uint32_t node = stk[sp - 2], next = stk[sp - 1];
        uint32_t child = UINT32_MAX;
        if (node == r->nb) {
            while (next < r->nb && child == UINT32_MAX) {
                if (r->exit_edge[next] && r->po[next] == UINT32_MAX)
                    child = next;
                next++;
            }
        } else {
            const struct ptx_block *b = &cfg->blocks[node];
            while (next < b->n_pred && child == UINT32_MAX) {
                if (r->po[b->pred[next]] == UINT32_MAX)
                    child = b->pred[next];
                next++;
            }
        }
        stk[sp - 1] = next;
        if (child != UINT32_MAX) {
            r->po[child] = UINT32_MAX - 1;
            stk[sp++] = child;
            stk[sp++] = 0;
        } else {
            r->po[node] = r->n_order;
            r->order[r->n_order++] = node;
            sp -= 2;
        }
    }
    free(stk);
}

static uint32_t intersect(const uint32_t *idom, const uint32_t *po, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (po[a] < po[b])
            a = idom[a];
        while (po[b] < po[a])
            b = idom[b];
    }
    return a;
}

static void compute_ipdom(struct ptx_cfg *cfg)
{
    uint32_t nb = cfg->n_blocks, n = nb + 1;
    bool *exit_edge = ptx_xcalloc(n, sizeof *exit_edge);
    struct rdfs r = {nb, ptx_xcalloc(n, sizeof(uint32_t)), ptx_xcalloc(n, sizeof(uint32_t)), 0, exit_edge};
    for (uint32_t b = 0; b < nb; b++)
        exit_edge[b] = cfg->blocks[b].to_exit;
    for (uint32_t i = 0; i < n; i++)
        r.po[i] = UINT32_MAX;
    reverse_dfs(cfg, &r, nb);
    /* blocks that cannot reach the exit: give the last unvisited block an
     * artificial exit edge and extend the search, until all are reached */
    while (r.n_order < n) {
        uint32_t pick = UINT32_MAX;
        for (uint32_t b = nb; b-- > 0;)
            if (r.po[b] == UINT32_MAX) {
                pick = b;
                break;
            }
        if (!ALWAYS(pick != UINT32_MAX))
            break;
        exit_edge[pick] = true;
        /* redo from scratch so post-order numbers stay consistent */
        for (uint32_t i = 0; i < n; i++)
            r.po[i] = UINT32_MAX;
        r.n_order = 0;
        reverse_dfs(cfg, &r, nb);
    }
    uint32_t *idom = ptx_xcalloc(n, sizeof *idom);
    for (uint32_t i = 0; i < n; i++)
        idom[i] = UINT32_MAX;
    idom[nb] = nb;
    bool changed = true;
    while (changed) {
        changed = false;
        /* reverse post-order, skipping the root (last in post-order) */
        for (uint32_t k = r.n_order - 1; k-- > 0;) {
            uint32_t node = r.order[k];
            const struct ptx_block *b = &cfg->blocks[node];
            uint32_t nid = UINT32_MAX;
            /* predecessors in the reverse graph = successors + exit */
            for (uint32_t s = 0; s <= b->n_succ; s++) {
                uint32_t p;
                if (s < b->n_succ)
                    p = b->succ[s];
                else if (exit_edge[node])
                    p = nb;
                else
                    continue;
                if (idom[p] == UINT32_MAX)
                    continue;
                nid = nid == UINT32_MAX ? p : intersect(idom, r.po, p, nid);
            }
            if (nid != UINT32_MAX && idom[node] != nid) {
                idom[node] = nid;
                changed = true;
            }
        }
    }
    for (uint32_t b = 0; b < nb; b++)
        cfg->blocks[b].ipdom = (idom[b] == nb || idom[b] == UINT32_MAX) ? UINT32_MAX : idom[b];
    free(idom);
    free(r.po);
    free(r.order);
    free(exit_edge);
}

void ptx_cfg_build(struct ptx_func *fn)
{
    struct ptx_cfg *cfg = &fn->cfg;
    ptx_cfg_free(cfg);
    uint32_t n = fn->n_insns;
    if (n == 0)
        return;
    bool *leader = ptx_xcalloc(n + 1, sizeof *leader);
    leader[0] = true;
    for (uint32_t i = 0; i < n; i++) {
        const struct ptx_insn *in = &fn->insns[i];
        if (in->op == PTX_OP_BRA && in->target < n)
            leader[in->target] = true;
        if (ends_block(in))
            leader[i + 1] = true;
    }
    cfg->block_of = ptx_xcalloc(n, sizeof *cfg->block_of);
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++)
        nb += leader[i];
    cfg->blocks = ptx_xcalloc(nb, sizeof *cfg->blocks);
    cfg->n_blocks = nb;
    uint32_t b = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i]) {
            b = b == UINT32_MAX ? 0 : b + 1;
            cfg->blocks[b].first = i;
        }
        cfg->blocks[b].last = i;
        cfg->block_of[i] = b;
    }
    free(leader);

    /* successors */
    for (b = 0; b < nb; b++) {
        struct ptx_block *bl = &cfg->blocks[b];
        const struct ptx_insn *in = &fn->insns[bl->last];
        bool guarded = in->guard >= 0;
        bool falls = true;
        if (in->op == PTX_OP_BRA) {
            if (in->target < n)
                add_succ(bl, cfg->block_of[in->target]);
            else
                bl->to_exit = true; /* label at the very end: falls off */
            falls = guarded;
        } else if (in->op == PTX_OP_EXIT || in->op == PTX_OP_RET || in->op == PTX_OP_TRAP) {
            bl->to_exit = true;
            falls = guarded;
        }
        if (falls) {
            if (bl->last + 1 < n)
                add_succ(bl, cfg->block_of[bl->last + 1]);
            else
                bl->to_exit = true;
        }
    }
    /* predecessors */
    uint32_t *npred = ptx_xcalloc(nb, sizeof *npred);
    for (b = 0; b < nb; b++)
        for (uint32_t s = 0; s < cfg->blocks[b].n_succ; s++)
            npred[cfg->blocks[b].succ[s]]++;
    for (b = 0; b < nb; b++)
        cfg->blocks[b].pred = ptx_xcalloc(npred[b], sizeof(uint32_t));
    for (b = 0; b < nb; b++)
        for (uint32_t s = 0; s < cfg->blocks[b].n_succ; s++) {
            struct ptx_block *t = &cfg->blocks[cfg->blocks[b].succ[s]];
            t->pred[t->n_pred++] = b;
        }
    free(npred);

    compute_ipdom(cfg);

    /* reconvergence PCs of instructions that may diverge */
    for (b = 0; b < nb; b++) {
        const struct ptx_block *bl = &cfg->blocks[b];
        struct ptx_insn *in = &fn->insns[bl->last];
        bool divergent = in->guard >= 0 && (in->op == PTX_OP_BRA || in->op == PTX_OP_EXIT ||
                                            in->op == PTX_OP_RET || in->op == PTX_OP_TRAP);
        if (!divergent)
            continue;
        in->reconv = bl->ipdom == UINT32_MAX ? PTX_PC_EXIT : cfg->blocks[bl->ipdom].first;
    }
}
