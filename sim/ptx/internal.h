/* sim/ptx/internal.h: private interfaces between the PTX front-end files.
 *
 * Not part of the simulator's API (that is sim/ptx/ptx.h + ir.h). Holds the
 * token type and lexer, the parser context shared by parser.c (module
 * structure, declarations, scopes) and insn.c (instruction decoding), the
 * growable-array helper, and the analysis entry points called from
 * ptx_parse(). All state lives in a struct ptx_parser allocated per parse:
 * there is no file-scope mutable state anywhere in sim/ptx/.
 */
#ifndef GPUSIM_SIM_PTX_INTERNAL_H
#define GPUSIM_SIM_PTX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/base/diag.h"
#include "sim/ptx/ir.h"

/* ------------------------------------------------------------- arrays */
/* Make room for `need` elements of size `elem` in *p (capacity *cap);
 * doubles the capacity; panics on out-of-memory (simulator resource
 * failure, not a user error). */
void ptx_grow(void **p, size_t elem, uint32_t *cap, size_t need);
#define PTX_PUSH(arr, n, cap) \
    (ptx_grow((void **)&(arr), sizeof *(arr), &(cap), (size_t)(n) + 1), &(arr)[(n)++])

void *ptx_xcalloc(size_t n, size_t size);
char *ptx_strndup(const char *s, size_t n);

/* ------------------------------------------------------------- lexer */
enum ptx_tok_kind {
    TK_EOF,
    TK_IDENT,  /* name, opcode with modifiers (ld.global.u32), %reg, %tid.x, $label */
    TK_DIR,    /* directive or type word starting with '.': .reg .u32 .entry */
    TK_INT,    /* integer literal; ival (unsigned 64-bit, before any '-') */
    TK_FLOAT,  /* 0fXXXXXXXX (fbits, fwidth 4), 0dXXXX... (fwidth 8), or decimal (fval, fwidth 0) */
    TK_STRING, /* "..." (s/len include the quotes) */
    TK_PUNCT,  /* one of , ; : { } [ ] ( ) < > + - ! | @ = */
    TK_ERROR,  /* lexical error, already reported */
};

struct ptx_tok {
    uint8_t kind;     /* enum ptx_tok_kind */
    char punct;       /* TK_PUNCT: the character */
    uint8_t fwidth;   /* TK_FLOAT: 4, 8 or 0 (decimal) */
    const char *s;    /* start in the source text */
    uint32_t len;     /* bytes */
    uint32_t line;    /* 1-based */
    uint32_t col;     /* 1-based, bytes */
    uint64_t ival;    /* TK_INT value; TK_FLOAT fwidth 4/8 bit pattern */
    double fval;      /* TK_FLOAT decimal value */
};

struct ptx_lexer {
    const char *p;          /* next byte */
    const char *end;        /* one past the text */
    const char *line_start; /* start of the current line (columns) */
    uint32_t line;          /* current line */
    struct ptx_parser *ps;  /* for error reporting */
};

void ptx_lex_init(struct ptx_lexer *lx, const char *text, size_t len, struct ptx_parser *ps);
struct ptx_tok ptx_lex_next(struct ptx_lexer *lx);

/* ------------------------------------------------------- parser state */
/* A name binding (register, register range, variable, param, function). */
enum psym_kind { PSYM_REG, PSYM_RANGE, PSYM_MODVAR, PSYM_FVAR, PSYM_PARAM, PSYM_FUNC };

struct psym {
    const char *name;   /* points into the source text (or a range prefix) */
    uint32_t len;
    uint8_t kind;       /* enum psym_kind */
    uint8_t type;       /* REG/RANGE: declared type */
    uint32_t count;     /* RANGE: names prefix0 .. prefix(count-1) */
    int32_t idx;        /* REG: vreg (-1 until first use); MODVAR/FVAR/PARAM/FUNC: index */
    int32_t *range_vregs; /* RANGE: vreg per suffix, -1 until first use (owned) */
    int32_t prev_same;  /* older binding of the same name (shadowed), -1 none */
    uint32_t depth;     /* scope depth of the declaration (0 = module) */
    uint32_t line, col; /* declaration */
};

/* One open scope ('{' nesting level inside a function, or the module). */
struct pframe {
    uint32_t sym_height; /* n_syms when the scope opened */
    uint64_t args_top;   /* call-site param allocation pointer to restore */
    uint32_t scope_id;   /* label scope id */
};

struct pmap_slot {
    const char *key; /* NULL = empty */
    uint32_t len;
    int32_t head;    /* newest binding index, -1 = none currently */
};

struct pmap {
    struct pmap_slot *slots;
    uint32_t cap;   /* power of two */
    uint32_t used;  /* slots with a key */
};

/* A branch/label reference waiting for the end of the function. */
struct plabel_ref {
    uint32_t insn;       /* instruction index */
    uint32_t scope;      /* scope of the reference */
    const char *name;
    uint32_t len;
    uint32_t line, col;
};

/* A label definition. */
struct plabel {
    const char *name;
    uint32_t len;
    uint32_t scope;
    uint32_t pc;
    int32_t prev_same; /* older label with the same name, -1 none */
};

/* A call target waiting for the end of the module. */
struct pcall_ref {
    uint32_t func;    /* caller index */
    uint32_t insn;
    const char *name;
    uint32_t len;
    uint32_t line, col;
};

#define PTX_LOOKAHEAD 3

struct ptx_parser {
    const char *file;     /* for messages */
    struct diag *d;
    uint32_t n_errors;    /* reported by this parse */
    bool stop;            /* error cap reached: unwind quickly */

    struct ptx_lexer lx;
    struct ptx_tok la[PTX_LOOKAHEAD]; /* lookahead ring */
    uint32_t la_head, la_n;

    struct ptx_module *m;
    uint32_t funcs_cap, mvars_cap;

    /* Scoped symbol table (module, function, nested blocks). */
    struct psym *syms;
    uint32_t n_syms, syms_cap;
    struct pmap names;     /* full names */
    struct pmap ranges;    /* register range prefixes */
    uint32_t depth;        /* 0 = module */
    struct pframe *frames; /* open scopes, frames[depth] */
    uint32_t frames_cap;

    /* Current function body. */
    struct ptx_func *fn;
    uint32_t insns_cap, regs_cap, vars_cap, labels_cap, cargs_cap, params_cap;
    uint32_t *scope_parent; /* scope id -> parent id (scope 0 = function body) */
    uint32_t n_scopes, scopes_cap;
    uint32_t cur_scope;
    struct plabel *plabels;
    uint32_t n_plabels, plabels_cap;
    struct pmap label_map;
    struct plabel_ref *lrefs;
    uint32_t n_lrefs, lrefs_cap;
    uint64_t args_top;      /* call-site param scratch allocation pointer */

    struct pcall_ref *crefs;
    uint32_t n_crefs, crefs_cap;
};

/* Report an error at a token: "file:line:col: msg". Counts toward the cap. */
void ptx_error(struct ptx_parser *ps, uint32_t line, uint32_t col, const char *fmt, ...)
    PRINTF_LIKE(4, 5);

/* Token stream (parser.c). */
const struct ptx_tok *ptx_peek(struct ptx_parser *ps, unsigned k);
struct ptx_tok ptx_take(struct ptx_parser *ps);
bool ptx_is_punct(const struct ptx_tok *t, char c);
bool ptx_tok_is(const struct ptx_tok *t, const char *word);
/* Skip to just after the next ';' (or to a '}' / EOF, not consumed). */
void ptx_sync_stmt(struct ptx_parser *ps);

/* Symbols (parser.c). */
int32_t ptx_sym_lookup(struct ptx_parser *ps, const char *name, uint32_t len);
/* Resolve a register name to a vreg (creating it on first use); -1 and an
 * error if it is not a declared register. */
int32_t ptx_reg_ref(struct ptx_parser *ps, const struct ptx_tok *t);

/* Instructions (insn.c): parse one instruction whose opcode token is next
 * (guard already consumed: guard vreg or -1). Appends to ps->fn on success;
 * on error reports and resynchronises. */
void ptx_parse_insn(struct ptx_parser *ps, int32_t guard, bool guard_neg, uint32_t gline,
                    uint32_t gcol);
/* Parse a type word (".u32"); PTX_T_NONE if it is not one. */
enum ptx_type ptx_type_from_word(const char *s, uint32_t len);
enum ptx_space ptx_space_from_word(const char *s, uint32_t len);
/* Convert a literal (TK_INT/TK_FLOAT, negated when neg) to the 64-bit bit
 * pattern of an operand of type `type`; false (error reported) if the
 * literal cannot be one. */
bool ptx_literal_bits(struct ptx_parser *ps, const struct ptx_tok *t, bool neg,
                      enum ptx_type type, uint64_t *bits);

/* ------------------------------------------ instruction decoding */
/* Shared by opcodes.c (opcode and modifier tables; also ptx_type_from_word
 * and ptx_space_from_word), operand.c (operands, their layout per shape,
 * call lists; also ptx_literal_bits) and insn.c (one instruction). */

/* Operand shapes. */
enum ptx_shape {
    SH_NONE,   /* no operands */
    SH_D,      /* d */
    SH_A,      /* a */
    SH_DA,     /* d, a */
    SH_DAB,    /* d, a, b */
    SH_DABC,   /* d, a, b, c */
    SH_DABCD,  /* d, a, b, c, e */
    SH_MOV,    /* d, a (vectors, sregs, symbols allowed) */
    SH_CVT,    /* d, a [, b] */
    SH_CVTA,   /* d, a (a may be a symbol) */
    SH_LD,     /* d, [a] */
    SH_ST,     /* [a], b */
    SH_ATOM,   /* d, [a], b [, c] */
    SH_RED,    /* [a], b */
    SH_SETP,   /* p[|q], a, b [, c] */
    SH_SET,    /* d, a, b [, c] */
    SH_TESTP,  /* p, a */
    SH_BAR,    /* a [, b] | d, a [, b], c */
    SH_VOTE,   /* d, a [, mask] */
    SH_SHFL,   /* d[|p], a, b, c [, mask] */
    SH_MATCH,  /* d[|p], a, mask */
    SH_REDUX,  /* d, a, mask */
    SH_BRA,    /* label */
    SH_CALL,   /* call lists */
};

/* One row of the opcode table (opcodes.c). */
struct ptx_op_desc {
    const char *name;  /* base mnemonic */
    uint8_t op;        /* enum ptx_op */
    uint8_t shape;     /* enum ptx_shape */
    uint8_t tmin, tmax; /* number of type modifiers */
    uint16_t cats;     /* C_* modifier categories (opcodes.c) */
    uint32_t flags_ok; /* PTX_F_* accepted */
};

/* opcodes.c: the opcode named by the base mnemonic s[0..len), or NULL. */
const struct ptx_op_desc *ptx_op_find(const char *s, uint32_t len);
/* opcodes.c: a valid PTX instruction this front-end does not decode. */
bool ptx_op_is_unsupported(const char *s, uint32_t base_len, uint32_t full_len);
/* opcodes.c: "bar.warp.sync", which is not a modifier form of "bar". */
extern const struct ptx_op_desc ptx_bar_warp_desc;
/* opcodes.c: apply one modifier word to in; false and an error when invalid. */
bool ptx_apply_modifier(struct ptx_parser *ps, struct ptx_insn *in, const struct ptx_op_desc *od,
                        const char *w, uint32_t len, unsigned *ntypes,
                        const struct ptx_tok *optok);

/* operand.c: one operand as written, before it is checked against its slot. */
enum ptx_raw_kind { RAW_REG, RAW_VEC, RAW_IMM, RAW_SREG, RAW_ADDR, RAW_SYM, RAW_NAME, RAW_SINK };

struct ptx_raw_opnd {
    uint8_t kind;     /* enum ptx_raw_kind */
    bool neg;         /* '!' on a register, '-' on an immediate */
    bool piped;       /* second half of 'a|b' */
    uint8_t n;        /* vector elements */
    int32_t reg;      /* RAW_REG / ADDR base, -1 none */
    int32_t vec[4];
    int32_t psym;     /* RAW_SYM / ADDR symbol: index into ps->syms, -1 none */
    uint8_t sreg;
    int64_t off;      /* ADDR offset */
    struct ptx_tok tok; /* first token (position, literal) */
};

/* What one operand position accepts (operand.c). */
struct ptx_slot {
    uint8_t cls;  /* enum slot_cls (operand.c) */
    uint8_t type; /* operand type for immediates and predicate checks */
};

struct ptx_layout {
    struct ptx_slot s[PTX_MAX_OPNDS];
    unsigned n;      /* positions */
    unsigned n_dst;  /* of which destinations (leading) */
};

/* operand.c: parse one operand at the current token. */
bool ptx_parse_operand(struct ptx_parser *ps, struct ptx_raw_opnd *r);
/* operand.c: build the expected layout for nraw raw operands (pipe pairs
 * flattened; piped1 = the second raw operand is the piped half). Returns
 * false with *why set when the count is impossible for the shape. */
bool ptx_build_layout(const struct ptx_insn *in, const struct ptx_op_desc *od, unsigned nraw,
                      bool piped1, struct ptx_layout *l, const char **why);
/* operand.c: convert a raw operand into the IR operand for slot s. */
bool ptx_place_operand(struct ptx_parser *ps, struct ptx_insn *in, const struct ptx_raw_opnd *r,
                       const struct ptx_slot *s, struct ptx_operand *o, const char *opname);
/* operand.c: the operands of a call: optional return list, target, arguments. */
bool ptx_parse_call(struct ptx_parser *ps, struct ptx_insn *in, const char *opname);

/* ------------------------------------------ parser parts */
/* parser.c holds the token stream, errors and the symbol table; the rest
 * of the parser is split into parse_module.c (module directives, .file and
 * .loc, and ptx_parse_module declared below), parse_decl.c (variables,
 * registers, parameter lists, function attributes) and parse_func.c
 * (function definitions and bodies); instructions are decoded by insn.c,
 * opcodes.c and operand.c (above). */

/* parser.c: skip every token on the given line (line-oriented directives
 * such as .loc, .file, .version). */
void ptx_skip_line(struct ptx_parser *ps, uint32_t line);
bool ptx_expect_punct(struct ptx_parser *ps, char c, const char *what);
bool ptx_expect_uint(struct ptx_parser *ps, const char *what, uint64_t max, uint64_t *v);
/* parser.c: open-addressing name maps. */
struct pmap_slot *ptx_pmap_find(struct pmap *m, const char *key, uint32_t len);
struct pmap_slot *ptx_pmap_add(struct pmap *m, const char *key, uint32_t len);
void ptx_pmap_free(struct pmap *m);
/* parser.c: bind name in the current scope; reports a redefinition in the
 * same scope. */
struct psym *ptx_sym_push(struct ptx_parser *ps, const char *name, uint32_t len,
                          enum psym_kind kind, uint32_t line, uint32_t col);
void ptx_push_scope(struct ptx_parser *ps);
void ptx_pop_scope(struct ptx_parser *ps);

/* parse_module.c: `.loc file line [column] [, ...]`: *file and *line receive
 * the .file table slot and the line; both 0 when the directive is malformed
 * (reported) or names line 0 (no source position). */
void ptx_parse_loc(struct ptx_parser *ps, uint16_t *file, uint32_t *line);
/* parse_module.c: `.file index "path" ...`: the name of a file index used by .loc. */
void ptx_parse_file_directive(struct ptx_parser *ps);
/* parse_module.c: give the instructions [from, fn->n_insns) the current .loc position. */
void ptx_stamp_loc(struct ptx_func *fn, uint32_t from, uint16_t file, uint32_t line);

/* parse_decl.c: a variable declaration after its space word: attrs, then
 * name[dims][=init] {, name...} ';'. Module scope when ps->fn == NULL. */
void ptx_parse_var_decl(struct ptx_parser *ps, enum ptx_space space, enum ptx_linkage link,
                        bool is_extern);
/* parse_decl.c: .reg .type name[, name...]; with name = %r or %r<N>. */
void ptx_parse_reg_decl(struct ptx_parser *ps);
/* parse_decl.c: a '(' .param list ')' of a function header. */
bool ptx_parse_param_list(struct ptx_parser *ps, struct ptx_param **arr, uint32_t *n,
                          uint32_t *cap, bool is_ret);
void ptx_free_params(struct ptx_param *p, uint32_t n);
/* parse_decl.c: performance-tuning directives between the header and the body. */
bool ptx_parse_func_attrs(struct ptx_parser *ps, struct ptx_func *fn);

/* parse_func.c: a function definition or declaration after '.entry' / '.func'. */
void ptx_parse_function(struct ptx_parser *ps, bool is_entry, enum ptx_linkage link,
                        const struct ptx_tok *kw);

/* module.c: after the whole text is read: call resolution, memory layout,
 * then CFG and passes per function (only when there were no errors). */
void ptx_module_finish(struct ptx_parser *ps);
/* parser.c: parse the whole token stream into ps->m. */
void ptx_parse_module(struct ptx_parser *ps);
/* parser.c: free the parser's own tables (not the module). */
void ptx_parser_fini(struct ptx_parser *ps);
/* Free one function's arrays (module.c). */
void ptx_func_free_contents(struct ptx_func *fn);

/* ------------------------------------------------------- analyses */
/* cfg.c: build blocks, post-dominators and per-branch reconvergence PCs. */
void ptx_cfg_build(struct ptx_func *fn);
void ptx_cfg_free(struct ptx_cfg *cfg);
/* passes.c: run the pass pipeline (liveness, regalloc, ...) on fn. */
void ptx_passes_run(struct ptx_func *fn);
/* liveness.c */
void ptx_liveness_compute(struct ptx_func *fn);
void ptx_liveness_free(struct ptx_liveness *lv);
/* regalloc.c */
void ptx_regalloc_run(struct ptx_func *fn);
/* slots.c: the executor's register slots and renamed copies (NOTE(reg-slots));
 * ptx_slots_check is declared in passes/passes.h */
void ptx_slots_run(struct ptx_func *fn);

static inline bool ptx_bit_test(const uint64_t *set, uint32_t i)
{
    return (set[i >> 6] >> (i & 63)) & 1u;
}
static inline void ptx_bit_set(uint64_t *set, uint32_t i) { set[i >> 6] |= 1ull << (i & 63); }
/* Colouring order of regalloc.c and slots.c: by first appearance, ties by
 * index (qsort comparator of struct ptx_order_item). */
struct ptx_order_item {
    uint32_t first, idx;
};
static inline int ptx_order_cmp(const void *a, const void *b)
{
    const struct ptx_order_item *x = a, *y = b;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return x->idx < y->idx ? -1 : (x->idx > y->idx);
}

/* Symmetric n x n bit matrix of `words` words per row (the slots pass's
 * interference graph; regalloc's rows and columns differ, its own edge()):
 * the edge a-b, none for a == b. */
static inline void ptx_bit_edge(uint64_t *m, uint32_t words, uint32_t a, uint32_t b)
{
    if (a == b)
        return;
    ptx_bit_set(m + (size_t)a * words, b);
    ptx_bit_set(m + (size_t)b * words, a);
}
static inline void ptx_bit_clear(uint64_t *set, uint32_t i)
{
    set[i >> 6] &= ~(1ull << (i & 63));
}

#endif /* GPUSIM_SIM_PTX_INTERNAL_H */
