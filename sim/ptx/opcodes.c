/* sim/ptx/opcodes.c: the instruction tables of the PTX front-end: type and
 * state-space words, the opcode table (base mnemonic -> op, operand shape,
 * number of type modifiers, modifier categories, accepted flags), the
 * valid PTX instructions this front-end does not decode, and the modifier
 * word tables with the function that applies one modifier word to an
 * instruction (comparison, boolean combine, atomic op, op-specific mode,
 * rounding, memory semantics and scope, cache operator, vector width,
 * flags). Lookups are linear scans: a few hundred per kernel, at load time.
 */
#include <string.h>

#include "sim/ptx/internal.h"

/* --------------------------------------------------------- word tables */
enum ptx_type ptx_type_from_word(const char *s, uint32_t len)
{
    for (int t = PTX_T_PRED; t < PTX_T_COUNT; t++) {
        const char *n = ptx_type_name((enum ptx_type)t);
        if (strlen(n) == len && memcmp(n, s, len) == 0)
            return (enum ptx_type)t;
    }
    return PTX_T_NONE;
}

enum ptx_space ptx_space_from_word(const char *s, uint32_t len)
{
    static const struct {
        const char *w;
        enum ptx_space sp;
    } tab[] = {
        {".global", PTX_SPACE_GLOBAL},         {".shared", PTX_SPACE_SHARED},
        {".shared::cta", PTX_SPACE_SHARED},    {".local", PTX_SPACE_LOCAL},
        {".param", PTX_SPACE_PARAM},           {".param::entry", PTX_SPACE_PARAM},
        {".param::func", PTX_SPACE_PARAM},     {".const", PTX_SPACE_CONST},
    };
    for (size_t i = 0; i < ARRAY_LEN(tab); i++)
        if (strlen(tab[i].w) == len && memcmp(tab[i].w, s, len) == 0)
            return tab[i].sp;
    return PTX_SPACE_GENERIC;
}

/* ------------------------------------------------------ opcode table */
/* Modifier categories an opcode accepts. */
enum {
    C_TYPE = 1u << 0,
    C_SPACE = 1u << 1,
    C_CMP = 1u << 2,
    C_BOOL = 1u << 3,
    C_AOP = 1u << 4,
    C_MODE = 1u << 5,
    C_RND = 1u << 6,
    C_SEM = 1u << 7,
    C_CACHE = 1u << 8,
    C_VEC = 1u << 9,
    C_HINT = 1u << 10,
};

#define FP_FL (PTX_F_FTZ | PTX_F_SAT)
static const struct ptx_op_desc op_table[] = {
    {"mov", PTX_OP_MOV, SH_MOV, 1, 1, C_TYPE, 0},
    {"ld", PTX_OP_LD, SH_LD, 1, 1, C_TYPE | C_SPACE | C_SEM | C_CACHE | C_VEC | C_HINT,
     PTX_F_VOLATILE | PTX_F_NC},
    {"ldu", PTX_OP_LDU, SH_LD, 1, 1, C_TYPE | C_SPACE | C_VEC, 0},
    {"st", PTX_OP_ST, SH_ST, 1, 1, C_TYPE | C_SPACE | C_SEM | C_CACHE | C_VEC | C_HINT,
     PTX_F_VOLATILE},
    {"cvta", PTX_OP_CVTA, SH_CVTA, 1, 1, C_TYPE | C_SPACE, PTX_F_CVTA_TO},
    {"cvt", PTX_OP_CVT, SH_CVT, 2, 2, C_TYPE | C_RND, FP_FL | PTX_F_RELU},
    {"add", PTX_OP_ADD, SH_DAB, 1, 1, C_TYPE | C_RND, FP_FL | PTX_F_CC},
    {"sub", PTX_OP_SUB, SH_DAB, 1, 1, C_TYPE | C_RND, FP_FL | PTX_F_CC},
    {"mul", PTX_OP_MUL, SH_DAB, 1, 1, C_TYPE | C_RND | C_MODE, FP_FL},
    {"mad", PTX_OP_MAD, SH_DABC, 1, 1, C_TYPE | C_RND | C_MODE, FP_FL | PTX_F_CC},
    {"mul24", PTX_OP_MUL24, SH_DAB, 1, 1, C_TYPE | C_MODE, 0},
    {"mad24", PTX_OP_MAD24, SH_DABC, 1, 1, C_TYPE | C_MODE, PTX_F_SAT},
    {"sad", PTX_OP_SAD, SH_DABC, 1, 1, C_TYPE, 0},
    {"div", PTX_OP_DIV, SH_DAB, 1, 1, C_TYPE | C_RND, PTX_F_FTZ | PTX_F_APPROX | PTX_F_FULL},
    {"rem", PTX_OP_REM, SH_DAB, 1, 1, C_TYPE, 0},
    {"abs", PTX_OP_ABS, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ},
    {"neg", PTX_OP_NEG, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ},
    {"min", PTX_OP_MIN, SH_DAB, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_RELU | PTX_F_NAN | PTX_F_XORSIGN},
    {"max", PTX_OP_MAX, SH_DAB, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_RELU | PTX_F_NAN | PTX_F_XORSIGN},
    {"addc", PTX_OP_ADDC, SH_DAB, 1, 1, C_TYPE, PTX_F_CC},
    {"subc", PTX_OP_SUBC, SH_DAB, 1, 1, C_TYPE, PTX_F_CC},
    {"madc", PTX_OP_MADC, SH_DABC, 1, 1, C_TYPE | C_MODE, PTX_F_CC},
    {"and", PTX_OP_AND, SH_DAB, 1, 1, C_TYPE, 0},
    {"or", PTX_OP_OR, SH_DAB, 1, 1, C_TYPE, 0},
    {"xor", PTX_OP_XOR, SH_DAB, 1, 1, C_TYPE, 0},
    {"not", PTX_OP_NOT, SH_DA, 1, 1, C_TYPE, 0},
    {"cnot", PTX_OP_CNOT, SH_DA, 1, 1, C_TYPE, 0},
    {"shl", PTX_OP_SHL, SH_DAB, 1, 1, C_TYPE, 0},
    {"shr", PTX_OP_SHR, SH_DAB, 1, 1, C_TYPE, 0},
    {"shf", PTX_OP_SHF, SH_DABC, 1, 1, C_TYPE | C_MODE, PTX_F_WRAP},
    {"bfe", PTX_OP_BFE, SH_DABC, 1, 1, C_TYPE, 0},
    {"bfi", PTX_OP_BFI, SH_DABCD, 1, 1, C_TYPE, 0},
    {"brev", PTX_OP_BREV, SH_DA, 1, 1, C_TYPE, 0},
    {"popc", PTX_OP_POPC, SH_DA, 1, 1, C_TYPE, 0},
    {"clz", PTX_OP_CLZ, SH_DA, 1, 1, C_TYPE, 0},
    {"bfind", PTX_OP_BFIND, SH_DA, 1, 1, C_TYPE, PTX_F_SHIFTAMT},
    {"prmt", PTX_OP_PRMT, SH_DABC, 1, 1, C_TYPE | C_MODE, 0},
    {"lop3", PTX_OP_LOP3, SH_DABCD, 1, 1, C_TYPE, 0},
    {"dp4a", PTX_OP_DP4A, SH_DABC, 2, 2, C_TYPE, 0},
    {"dp2a", PTX_OP_DP2A, SH_DABC, 2, 2, C_TYPE | C_MODE, 0},
    {"setp", PTX_OP_SETP, SH_SETP, 1, 1, C_TYPE | C_CMP | C_BOOL, PTX_F_FTZ},
    {"selp", PTX_OP_SELP, SH_DABC, 1, 1, C_TYPE, 0},
    {"set", PTX_OP_SET, SH_SET, 2, 2, C_TYPE | C_CMP | C_BOOL, PTX_F_FTZ},
    {"slct", PTX_OP_SLCT, SH_DABC, 2, 2, C_TYPE, PTX_F_FTZ},
    {"fma", PTX_OP_FMA, SH_DABC, 1, 1, C_TYPE | C_RND, FP_FL | PTX_F_RELU},
    {"rcp", PTX_OP_RCP, SH_DA, 1, 1, C_TYPE | C_RND, PTX_F_FTZ | PTX_F_APPROX},
    {"sqrt", PTX_OP_SQRT, SH_DA, 1, 1, C_TYPE | C_RND, PTX_F_FTZ | PTX_F_APPROX},
    {"rsqrt", PTX_OP_RSQRT, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_APPROX},
    {"sin", PTX_OP_SIN, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_APPROX},
    {"cos", PTX_OP_COS, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_APPROX},
    {"lg2", PTX_OP_LG2, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_APPROX},
    {"ex2", PTX_OP_EX2, SH_DA, 1, 1, C_TYPE, PTX_F_FTZ | PTX_F_APPROX},
    {"tanh", PTX_OP_TANH, SH_DA, 1, 1, C_TYPE, PTX_F_APPROX},
    {"testp", PTX_OP_TESTP, SH_TESTP, 1, 1, C_TYPE | C_MODE, 0},
    {"copysign", PTX_OP_COPYSIGN, SH_DAB, 1, 1, C_TYPE, 0},
    {"bar", PTX_OP_BAR, SH_BAR, 0, 1, C_TYPE | C_MODE | C_AOP, PTX_F_ALIGNED},
    {"barrier", PTX_OP_BAR, SH_BAR, 0, 1, C_TYPE | C_MODE | C_AOP, PTX_F_ALIGNED},
    {"membar", PTX_OP_MEMBAR, SH_NONE, 0, 0, C_SEM, 0},
    {"fence", PTX_OP_MEMBAR, SH_NONE, 0, 0, C_SEM, 0},
    {"atom", PTX_OP_ATOM, SH_ATOM, 1, 1, C_TYPE | C_SPACE | C_AOP | C_SEM | C_HINT, PTX_F_NOFTZ},
    {"red", PTX_OP_RED, SH_RED, 1, 1, C_TYPE | C_SPACE | C_AOP | C_SEM | C_HINT, PTX_F_NOFTZ},
    {"vote", PTX_OP_VOTE, SH_VOTE, 1, 1, C_TYPE | C_MODE, PTX_F_SYNC},
    {"shfl", PTX_OP_SHFL, SH_SHFL, 1, 1, C_TYPE | C_MODE, PTX_F_SYNC},
    {"activemask", PTX_OP_ACTIVEMASK, SH_D, 1, 1, C_TYPE, 0},
    {"match", PTX_OP_MATCH, SH_MATCH, 1, 1, C_TYPE | C_MODE, PTX_F_SYNC},
    {"redux", PTX_OP_REDUX, SH_REDUX, 1, 1, C_TYPE | C_AOP, PTX_F_SYNC},
    {"isspacep", PTX_OP_ISSPACEP, SH_TESTP, 0, 0, C_SPACE, 0},
    {"nanosleep", PTX_OP_NANOSLEEP, SH_A, 1, 1, C_TYPE, 0},
    {"bra", PTX_OP_BRA, SH_BRA, 0, 0, 0, PTX_F_UNI},
    {"call", PTX_OP_CALL, SH_CALL, 0, 0, 0, PTX_F_UNI},
    {"ret", PTX_OP_RET, SH_NONE, 0, 0, 0, PTX_F_UNI},
    {"exit", PTX_OP_EXIT, SH_NONE, 0, 0, 0, 0},
    {"trap", PTX_OP_TRAP, SH_NONE, 0, 0, 0, 0},
    {"brkpt", PTX_OP_BRKPT, SH_NONE, 0, 0, 0, 0},
};

/* Valid PTX instructions this front-end does not decode. */
static const char *const unsupported_ops[] = {
    "tex", "tld4", "txq", "suld", "sust", "sured", "suq", "mma", "wmma", "ldmatrix", "stmatrix",
    "cp", "brx", "prefetch", "prefetchu", "applypriority", "discard", "createpolicy", "mbarrier",
    "griddepcontrol", "elect", "setmaxnreg", "multimem", "tensormap", "istypep", "alloca",
    "stacksave", "stackrestore", "getctarank", "mapa", "pmevent", "fns", "szext", "bmsk", "cvt.pack",
    "wgmma", "tcgen05", "clusterlaunchcontrol", "st.async", "red.async", "movmatrix", "ldu.v8",
    "vabsdiff", "vadd", "vsub", "vmad", "vmin", "vmax", "vset", "vshl", "vshr", "vavrg2", "vabsdiff2",
    "vabsdiff4", "vadd2", "vadd4", "vsub2", "vsub4", "vset2", "vset4", "vmin2", "vmax2",
};

/* ------------------------------------------------------ modifiers */
struct word_val {
    const char *w;
    uint8_t v;
};

static int word_lookup(const struct word_val *tab, size_t n, const char *s, uint32_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(tab[i].w) == len && memcmp(tab[i].w, s, len) == 0)
            return tab[i].v;
    return -1;
}
#define LOOKUP(tab, s, len) word_lookup(tab, ARRAY_LEN(tab), s, len)

static const struct word_val cmp_words[] = {
    {".eq", PTX_CMP_EQ},   {".ne", PTX_CMP_NE},   {".lt", PTX_CMP_LT},   {".le", PTX_CMP_LE},
    {".gt", PTX_CMP_GT},   {".ge", PTX_CMP_GE},   {".lo", PTX_CMP_LO},   {".ls", PTX_CMP_LS},
    {".hi", PTX_CMP_HI},   {".hs", PTX_CMP_HS},   {".equ", PTX_CMP_EQU}, {".neu", PTX_CMP_NEU},
    {".ltu", PTX_CMP_LTU}, {".leu", PTX_CMP_LEU}, {".gtu", PTX_CMP_GTU}, {".geu", PTX_CMP_GEU},
    {".num", PTX_CMP_NUM}, {".nan", PTX_CMP_NAN},
};
static const struct word_val bool_words[] = {
    {".and", PTX_BOOL_AND}, {".or", PTX_BOOL_OR}, {".xor", PTX_BOOL_XOR}};
static const struct word_val aop_words[] = {
    {".add", PTX_AOP_ADD}, {".min", PTX_AOP_MIN},   {".max", PTX_AOP_MAX}, {".inc", PTX_AOP_INC},
    {".dec", PTX_AOP_DEC}, {".cas", PTX_AOP_CAS},   {".exch", PTX_AOP_EXCH}, {".and", PTX_AOP_AND},
    {".or", PTX_AOP_OR},   {".xor", PTX_AOP_XOR},   {".popc", PTX_AOP_POPC},
};
static const struct word_val rnd_words[] = {
    {".rn", PTX_RND_RN},   {".rz", PTX_RND_RZ},   {".rm", PTX_RND_RM},   {".rp", PTX_RND_RP},
    {".rni", PTX_RND_RNI}, {".rzi", PTX_RND_RZI}, {".rmi", PTX_RND_RMI}, {".rpi", PTX_RND_RPI},
    {".rna", PTX_RND_RNA},
};
static const struct word_val sem_words[] = {
    {".relaxed", PTX_SEM_RELAXED}, {".acquire", PTX_SEM_ACQUIRE}, {".release", PTX_SEM_RELEASE},
    {".acq_rel", PTX_SEM_ACQ_REL}, {".sc", PTX_SEM_SC},           {".weak", PTX_SEM_NONE},
};
static const struct word_val scope_words[] = {
    {".cta", PTX_SCOPE_CTA}, {".cluster", PTX_SCOPE_CLUSTER}, {".gpu", PTX_SCOPE_GPU},
    {".sys", PTX_SCOPE_SYS}, {".gl", PTX_SCOPE_GPU},
};
static const struct word_val cache_words[] = {
    {".ca", PTX_CACHE_CA}, {".cg", PTX_CACHE_CG}, {".cs", PTX_CACHE_CS}, {".lu", PTX_CACHE_LU},
    {".cv", PTX_CACHE_CV}, {".wb", PTX_CACHE_WB}, {".wt", PTX_CACHE_WT},
};
static const struct word_val mul_modes[] = {
    {".lo", PTX_MODE_LO}, {".hi", PTX_MODE_HI}, {".wide", PTX_MODE_WIDE}};
static const struct word_val vote_modes[] = {
    {".all", PTX_MODE_ALL}, {".any", PTX_MODE_ANY}, {".uni", PTX_MODE_UNI}, {".ballot", PTX_MODE_BALLOT}};
static const struct word_val shfl_modes[] = {
    {".up", PTX_MODE_UP}, {".down", PTX_MODE_DOWN}, {".bfly", PTX_MODE_BFLY}, {".idx", PTX_MODE_IDX}};
static const struct word_val bar_modes[] = {
    {".sync", PTX_MODE_SYNC}, {".arrive", PTX_MODE_ARRIVE}, {".red", PTX_MODE_RED}};
static const struct word_val testp_modes[] = {
    {".finite", PTX_MODE_FINITE},         {".infinite", PTX_MODE_INFINITE},
    {".number", PTX_MODE_NUMBER},         {".notanumber", PTX_MODE_NOTANUMBER},
    {".normal", PTX_MODE_NORMAL},         {".subnormal", PTX_MODE_SUBNORMAL},
};
static const struct word_val prmt_modes[] = {
    {".f4e", PTX_MODE_F4E}, {".b4e", PTX_MODE_B4E}, {".rc8", PTX_MODE_RC8},
    {".ecl", PTX_MODE_ECL}, {".ecr", PTX_MODE_ECR}, {".rc16", PTX_MODE_RC16}};
static const struct word_val match_modes[] = {{".any", PTX_MODE_ANY}, {".all", PTX_MODE_ALL}};
static const struct word_val shf_modes[] = {{".l", PTX_MODE_SHF_L}, {".r", PTX_MODE_SHF_R}};
static const struct word_val flag_words[] = {
    {".ftz", 0}, {".sat", 1}, {".approx", 2}, {".full", 3}, {".volatile", 4}, {".nc", 5},
    {".uni", 6}, {".sync", 7}, {".cc", 8}, {".aligned", 9}, {".shiftamt", 10}, {".wrap", 11},
    {".to", 12}, {".noftz", 14}, {".relu", 15}, {".NaN", 18}, {".xorsign", 19},
};

/* Apply one modifier word to in; false and an error when invalid. */
bool ptx_apply_modifier(struct ptx_parser *ps, struct ptx_insn *in, const struct ptx_op_desc *od,
                        const char *w, uint32_t len, unsigned *ntypes, const struct ptx_tok *optok)
{
    int v;
    enum ptx_type ty = ptx_type_from_word(w, len);
    if (ty != PTX_T_NONE && (od->cats & C_TYPE)) {
        if (*ntypes >= 2 || *ntypes >= od->tmax)
            goto bad;
        if ((*ntypes)++ == 0)
            in->type = (uint8_t)ty;
        else
            in->type2 = (uint8_t)ty;
        return true;
    }
    if (od->cats & C_SPACE) {
        enum ptx_space sp = ptx_space_from_word(w, len);
        if (sp != PTX_SPACE_GENERIC) {
            if (in->space)
                goto bad;
            in->space = (uint8_t)sp;
            return true;
        }
    }
    if ((od->cats & C_CMP) && !in->cmp && (v = LOOKUP(cmp_words, w, len)) >= 0) {
        in->cmp = (uint8_t)v;
        return true;
    }
    if ((od->cats & C_BOOL) && (v = LOOKUP(bool_words, w, len)) >= 0) {
        in->bop = (uint8_t)v;
        return true;
    }
    if ((od->cats & C_AOP) && !in->aop && (v = LOOKUP(aop_words, w, len)) >= 0) {
        in->aop = (uint8_t)v;
        return true;
    }
    if ((od->cats & C_MODE) && !in->mode) {
        v = -1;
        switch (od->op) {
        case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24: case PTX_OP_MADC:
        case PTX_OP_DP2A:
            v = LOOKUP(mul_modes, w, len);
            break;
        case PTX_OP_VOTE: v = LOOKUP(vote_modes, w, len); break;
        case PTX_OP_SHFL: v = LOOKUP(shfl_modes, w, len); break;
        case PTX_OP_BAR: v = LOOKUP(bar_modes, w, len); break;
        case PTX_OP_TESTP: v = LOOKUP(testp_modes, w, len); break;
        case PTX_OP_PRMT: v = LOOKUP(prmt_modes, w, len); break;
        case PTX_OP_MATCH: v = LOOKUP(match_modes, w, len); break;
        case PTX_OP_SHF: v = LOOKUP(shf_modes, w, len); break;
        default: break;
        }
        if (v >= 0) {
            in->mode = (uint8_t)v;
            return true;
        }
    }
    if ((od->cats & C_RND) && !in->rnd && (v = LOOKUP(rnd_words, w, len)) >= 0) {
        in->rnd = (uint8_t)v;
        return true;
    }
    if (od->cats & C_SEM) {
        if (!in->sem && (v = LOOKUP(sem_words, w, len)) >= 0) {
            in->sem = (uint8_t)v;
            return true;
        }
        if (!in->scope && (v = LOOKUP(scope_words, w, len)) >= 0) {
            if (v == PTX_SCOPE_GPU && w[2] == 'l' && od->op != PTX_OP_MEMBAR)
                goto bad; /* .gl is membar-only */
            in->scope = (uint8_t)v;
            return true;
        }
    }
    if ((od->cats & C_CACHE) && !in->cache && (v = LOOKUP(cache_words, w, len)) >= 0) {
        in->cache = (uint8_t)v;
        return true;
    }
    if ((od->cats & C_VEC) && in->vec == 1 && (len == 3 && w[1] == 'v' && (w[2] == '2' || w[2] == '4'))) {
        in->vec = (uint8_t)(w[2] - '0');
        return true;
    }
    if (od->op == PTX_OP_SHF && len == 6 && memcmp(w, ".clamp", 6) == 0)
        return true; /* the default; PTX_F_WRAP clear */
    if (od->op == PTX_OP_BAR && len == 4 && memcmp(w, ".cta", 4) == 0 && !in->scope) {
        in->scope = PTX_SCOPE_CTA; /* bar.cta / barrier.cta (PTX 7.8): the only scope, the default */
        return true;
    }
    if ((in->flags & PTX_F_XORSIGN) && len == 4 && memcmp(w, ".abs", 4) == 0)
        return true; /* .xorsign is only valid as .xorsign.abs */
    if ((v = LOOKUP(flag_words, w, len)) >= 0 && (od->flags_ok & (1u << v))) {
        in->flags |= 1u << v;
        return true;
    }
    if ((od->cats & C_HINT) && memmem(w, len, "::", 2)) {
        in->flags |= PTX_F_HINT;
        return true;
    }
bad:
    ptx_error(ps, optok->line, optok->col + (uint32_t)(w - optok->s),
              "invalid modifier '%.*s' for '%s'", (int)len, w, od->name);
    return false;
}

/* ------------------------------------------------------ opcode lookup */
const struct ptx_op_desc *ptx_op_find(const char *s, uint32_t len)
{
    for (size_t i = 0; i < ARRAY_LEN(op_table); i++)
        if (strlen(op_table[i].name) == len && memcmp(op_table[i].name, s, len) == 0)
            return &op_table[i];
    return NULL;
}

bool ptx_op_is_unsupported(const char *s, uint32_t base_len, uint32_t full_len)
{
    for (size_t i = 0; i < ARRAY_LEN(unsupported_ops); i++) {
        size_t n = strlen(unsupported_ops[i]);
        if ((n == base_len || (n <= full_len && (n == full_len || s[n] == '.'))) &&
            memcmp(unsupported_ops[i], s, n) == 0)
            return true;
    }
    return false;
}

const struct ptx_op_desc ptx_bar_warp_desc = {"bar.warp.sync", PTX_OP_BAR_WARP, SH_A, 0, 0, 0, 0};
