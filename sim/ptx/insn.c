/* sim/ptx/insn.c: decoding of one PTX instruction into a struct ptx_insn.
 *
 * Does: split the opcode word into base mnemonic and modifiers, apply every
 * modifier (tables in opcodes.c), check the modifiers each opcode needs,
 * parse the operands (operand.c), check the operand count and kind for the
 * instruction's shape, and record label and call references for module.c.
 * Does not: check every modifier combination the ISA forbids, lay out
 * variables (module.c adds their offsets afterwards) or resolve call
 * targets (module.c).
 */
#include <stdio.h>
#include <string.h>

#include "sim/ptx/internal.h"

void ptx_parse_insn(struct ptx_parser *ps, int32_t guard, bool guard_neg, uint32_t gline, uint32_t gcol)
{
    struct ptx_tok optok = ptx_take(ps);
    const char *w = optok.s, *wend = optok.s + optok.len;
    const char *dot = memchr(w, '.', optok.len);
    uint32_t base_len = dot ? (uint32_t)(dot - w) : optok.len;
    const struct ptx_op_desc *od = ptx_op_find(w, base_len);
    const char *mods = w + base_len;
    char opname[48];
    snprintf(opname, sizeof opname, "%.*s", (int)MIN(optok.len, 47u), w);

    if (od && od->op == PTX_OP_BAR && optok.len >= 13 && memcmp(w, "bar.warp.sync", 13) == 0 &&
        optok.len == 13) {
        od = &ptx_bar_warp_desc;
        mods = wend;
    }
    if (!od || (od->op == PTX_OP_CVT && optok.len >= 8 && memcmp(w, "cvt.pack", 8) == 0)) {
        if (ptx_op_is_unsupported(w, base_len, optok.len) || od)
            ptx_error(ps, optok.line, optok.col, "unsupported instruction '%.*s'", (int)optok.len, w);
        else
            ptx_error(ps, optok.line, optok.col, "unknown instruction '%.*s'", (int)optok.len, w);
        ptx_sync_stmt(ps);
        return;
    }

    struct ptx_insn in;
    memset(&in, 0, sizeof in);
    in.op = od->op;
    in.vec = 1;
    in.guard = guard;
    in.guard_neg = guard_neg;
    in.target = PTX_PC_NONE;
    in.reconv = PTX_PC_NONE;
    in.line = gline ? gline : optok.line;
    in.col = gline ? gcol : optok.col;

    /* modifiers */
    unsigned ntypes = 0;
    bool ok = true;
    while (mods < wend && ok) {
        const char *m = mods; /* at '.' */
        const char *q = m + 1;
        while (q < wend && *q != '.') {
            if (*q == ':' && q + 1 < wend && q[1] == ':')
                q++;
            q++;
        }
        ok = ptx_apply_modifier(ps, &in, od, m, (uint32_t)(q - m), &ntypes, &optok);
        mods = q;
    }
    if (!ok) {
        ptx_sync_stmt(ps);
        return;
    }
    if (od->op == PTX_OP_MEMBAR) {
        bool is_membar = optok.s[0] == 'm';
        if (is_membar) {
            if (in.sem || !in.scope) {
                ptx_error(ps, optok.line, optok.col, "'%s' needs exactly one of .cta/.gl/.sys", opname);
                ok = false;
            }
            in.sem = PTX_SEM_SC;
        } else if (in.sem != PTX_SEM_SC && in.sem != PTX_SEM_ACQ_REL) {
            ptx_error(ps, optok.line, optok.col, "unsupported fence '%s' (fence.sc or fence.acq_rel)",
                      opname);
            ok = false;
        } else if (!in.scope) {
            ptx_error(ps, optok.line, optok.col, "'%s' needs a scope", opname);
            ok = false;
        }
    }
    if (ok && ntypes < od->tmin) {
        ptx_error(ps, optok.line, optok.col, "'%s' needs %u type modifier%s", opname, od->tmin,
                  od->tmin > 1 ? "s" : "");
        ok = false;
    }
    if (ok) {
        const char *need = NULL;
        switch (od->op) {
        case PTX_OP_SETP: case PTX_OP_SET:
            if (!in.cmp) need = "a comparison (.eq, .lt, ...)";
            break;
        case PTX_OP_ATOM: case PTX_OP_RED: case PTX_OP_REDUX:
            if (!in.aop || in.aop == PTX_AOP_POPC) need = "an operation (.add, .cas, ...)";
            break;
        case PTX_OP_VOTE:
            if (!in.mode) need = "a mode (.all, .any, .uni, .ballot)";
            break;
        case PTX_OP_SHFL:
            if (!in.mode) need = "a mode (.up, .down, .bfly, .idx)";
            break;
        case PTX_OP_MATCH:
            if (!in.mode) need = "a mode (.any, .all)";
            break;
        case PTX_OP_BAR:
            if (!in.mode) need = "a mode (.sync, .arrive, .red)";
            else if (in.mode == PTX_MODE_RED && (!in.aop || !ntypes)) need = "an operation and a type";
            else if (in.mode != PTX_MODE_RED && (in.aop || ntypes)) need = "no operation or type";
            break;
        case PTX_OP_TESTP:
            if (!in.mode) need = "a class (.finite, .nan, ...)";
            break;
        case PTX_OP_SHF:
            if (!in.mode) need = ".l or .r";
            break;
        case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24:
            if (!in.mode && !ptx_type_is_float((enum ptx_type)in.type))
                need = ".lo, .hi or .wide";
            break;
        case PTX_OP_CVTA: case PTX_OP_ISSPACEP:
            if (!in.space) need = "a state space";
            break;
        default:
            break;
        }
        if (need) {
            ptx_error(ps, optok.line, optok.col, "'%s' needs %s", opname, need);
            ok = false;
        }
    }
    if (!ok) {
        ptx_sync_stmt(ps);
        return;
    }
    if (od->op == PTX_OP_VOTE && in.mode == PTX_MODE_BALLOT && in.type == PTX_T_PRED)
        in.type = PTX_T_B32;

    /* operands */
    if (od->shape == SH_CALL) {
        if (!ptx_parse_call(ps, &in, opname)) {
            ptx_sync_stmt(ps);
            return;
        }
    } else {
        struct ptx_raw_opnd raw[PTX_MAX_OPNDS + 1];
        unsigned nraw = 0;
        bool piped1 = false, err = false;
        const struct ptx_tok *t = ptx_peek(ps, 0);
        if (!ptx_is_punct(t, ';')) {
            for (;;) {
                if (nraw >= PTX_MAX_OPNDS + 1) {
                    t = ptx_peek(ps, 0);
                    ptx_error(ps, t->line, t->col, "too many operands for '%s'", opname);
                    err = true;
                    break;
                }
                if (od->shape == SH_BRA && ptx_peek(ps, 0)->kind == TK_IDENT) {
                    memset(&raw[nraw], 0, sizeof raw[nraw]);
                    raw[nraw].tok = ptx_take(ps);
                    raw[nraw].kind = RAW_NAME;
                    nraw++;
                } else if (!ptx_parse_operand(ps, &raw[nraw++])) {
                    err = true;
                    break;
                }
                t = ptx_peek(ps, 0);
                if (ptx_is_punct(t, '|')) {
                    ptx_take(ps);
                    if (nraw != 1) {
                        ptx_error(ps, t->line, t->col, "'|' only joins the first two destinations");
                        err = true;
                        break;
                    }
                    piped1 = true;
                    if (!ptx_parse_operand(ps, &raw[nraw++])) {
                        err = true;
                        break;
                    }
                    raw[nraw - 1].piped = true;
                    t = ptx_peek(ps, 0);
                }
                if (ptx_is_punct(t, ',')) {
                    ptx_take(ps);
                    continue;
                }
                break;
            }
        }
        if (err) {
            ptx_sync_stmt(ps);
            return;
        }
        struct ptx_layout l;
        const char *why;
        if (!ptx_build_layout(&in, od, nraw, piped1, &l, &why) || l.n != nraw) {
            if (piped1 && od->shape != SH_SETP && od->shape != SH_SHFL && od->shape != SH_MATCH)
                ptx_error(ps, optok.line, optok.col, "'%s' does not take a 'd|p' destination pair", opname);
            else
                ptx_error(ps, optok.line, optok.col,
                          "wrong number of operands for '%s': expected %u, found %u", opname, l.n, nraw);
            ptx_sync_stmt(ps);
            return;
        }
        for (unsigned i = 0; i < nraw; i++) {
            if (!ptx_place_operand(ps, &in, &raw[i], &l.s[i], &in.opnd[i], opname)) {
                ptx_sync_stmt(ps);
                return;
            }
        }
        in.n_dst = (uint8_t)l.n_dst;
        in.n_src = (uint8_t)(nraw - l.n_dst);
        if (od->shape == SH_SHFL && piped1)
            in.flags |= PTX_F_PRED_OUT;
        if (od->shape == SH_MATCH && piped1)
            in.flags |= PTX_F_PRED_OUT;
        if (od->shape == SH_BAR && ((in.mode == PTX_MODE_RED && nraw == 4) ||
                                    (in.mode != PTX_MODE_RED && nraw == 2)))
            in.flags |= PTX_F_BAR_COUNT;
        if (od->shape == SH_BRA) {
            struct plabel_ref *lr = PTX_PUSH(ps->lrefs, ps->n_lrefs, ps->lrefs_cap);
            lr->insn = ps->fn->n_insns;
            lr->scope = ps->cur_scope;
            lr->name = raw[0].tok.s;
            lr->len = raw[0].tok.len;
            lr->line = raw[0].tok.line;
            lr->col = raw[0].tok.col;
        }
    }
    const struct ptx_tok *t = ptx_peek(ps, 0);
    if (!ptx_is_punct(t, ';')) {
        if (t->kind == TK_EOF)
            ptx_error(ps, t->line, t->col, "expected ';' after '%s', found end of file", opname);
        else
            ptx_error(ps, t->line, t->col, "expected ';' after '%s' operands, found '%.*s'", opname,
                      (int)t->len, t->s);
        /* drop references recorded for this instruction */
        if (od->shape == SH_BRA && ps->n_lrefs && ps->lrefs[ps->n_lrefs - 1].insn == ps->fn->n_insns)
            ps->n_lrefs--;
        if (od->shape == SH_CALL && ps->n_crefs && ps->crefs[ps->n_crefs - 1].insn == ps->fn->n_insns &&
            ps->crefs[ps->n_crefs - 1].func == ps->fn->index)
            ps->n_crefs--;
        ptx_sync_stmt(ps);
        return;
    }
    ptx_take(ps);
    *PTX_PUSH(ps->fn->insns, ps->fn->n_insns, ps->insns_cap) = in;
}
