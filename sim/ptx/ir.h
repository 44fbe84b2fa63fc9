/* sim/ptx/ir.h: the pre-decoded PTX intermediate representation.
 *
 * What this is: the executable-ready form of one PTX module, produced by
 * ptx_parse() (sim/ptx/ptx.h) and consumed read-only by the functional
 * executor, the timing model and the compile-time register-file passes.
 * Nothing here needs a string at execution time: opcodes, types and
 * modifiers are enums, register operands are dense per-function indices,
 * immediates are 64-bit bit patterns already converted to the operand's
 * type, labels are instruction indices, callees are function indices,
 * variables are byte offsets (shared, local, param) or module variable
 * indices (global, const) whose device address the loader assigns.
 *
 * What this is not: it does not execute anything and holds no per-thread
 * or per-warp state. The SIMT stack, memory, the scoreboard and the
 * register file live in the executor/timing model; this IR supplies the
 * static facts they need (reconvergence PCs, def/use, physical registers).
 *
 * How an executor uses it (see docs/ptx.md for the long form):
 *  - Look the kernel up with ptx_module_find(); fn->insns[0..n_insns) is
 *    the program, the PC is an index into it and starts at 0.
 *  - Per instruction: if guard >= 0, the thread executes only when the
 *    predicate register guard is true (false when guard_neg). Operands
 *    opnd[0 .. n_dst) are destinations, opnd[n_dst .. n_dst+n_src) sources,
 *    in PTX order (for st/red/atom the first source is the address).
 *  - Register values: one 64-bit value per virtual register is enough for
 *    every type here (regs[i].bytes gives the width; predicates are 1 bit).
 *    The functional executor stores them by storage slot and runs xinsns,
 *    the copy renamed to slots (pass "slots", NOTE(reg-slots)).
 *  - Branch: insn.target is the target PC; for a branch that may diverge
 *    insn.reconv is its immediate post-dominator PC (PTX_PC_EXIT when the
 *    paths only meet at the function's exit).
 *  - Addresses: see struct ptx_operand (PTX_OPND_ADDR / PTX_OPND_SYM).
 *  - Calls: see PTX_OP_CALL and struct ptx_func.param_bytes/args_bytes.
 *
 * Stability: enums only grow at the end of their X-macro lists; fields are
 * added, not renamed. Size of a PTX module is small (thousands of
 * instructions), so the structs favour clarity over packing.
 */
#ifndef GPUSIM_SIM_PTX_IR_H
#define GPUSIM_SIM_PTX_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- opcodes
 * X(enum suffix, PTX name, unit class). The unit class is a coarse hint for
 * the timing model (which pipe the GPGPU-Sim-style model would use); the
 * timing model may refine it with the type (e.g. int vs fp MUL).
 */
#define PTX_OP_LIST(X)                                                                          \
    X(MOV, "mov", ALU)                                                                          \
    X(LD, "ld", MEM)                                                                            \
    X(LDU, "ldu", MEM)                                                                          \
    X(ST, "st", MEM)                                                                            \
    X(CVTA, "cvta", ALU)                                                                        \
    X(CVT, "cvt", ALU)                                                                          \
    X(ADD, "add", ALU)                                                                          \
    X(SUB, "sub", ALU)                                                                          \
    X(MUL, "mul", ALU)                                                                          \
    X(MAD, "mad", ALU)                                                                          \
    X(MUL24, "mul24", ALU)                                                                      \
    X(MAD24, "mad24", ALU)                                                                      \
    X(SAD, "sad", ALU)                                                                          \
    X(DIV, "div", SFU)                                                                          \
    X(REM, "rem", SFU)                                                                          \
    X(ABS, "abs", ALU)                                                                          \
    X(NEG, "neg", ALU)                                                                          \
    X(MIN, "min", ALU)                                                                          \
    X(MAX, "max", ALU)                                                                          \
    X(ADDC, "addc", ALU)                                                                        \
    X(SUBC, "subc", ALU)                                                                        \
    X(MADC, "madc", ALU)                                                                        \
    X(AND, "and", ALU)                                                                          \
    X(OR, "or", ALU)                                                                            \
    X(XOR, "xor", ALU)                                                                          \
    X(NOT, "not", ALU)                                                                          \
    X(CNOT, "cnot", ALU)                                                                        \
    X(SHL, "shl", ALU)                                                                          \
    X(SHR, "shr", ALU)                                                                          \
    X(SHF, "shf", ALU)                                                                          \
    X(BFE, "bfe", ALU)                                                                          \
    X(BFI, "bfi", ALU)                                                                          \
    X(BREV, "brev", ALU)                                                                        \
    X(POPC, "popc", ALU)                                                                        \
    X(CLZ, "clz", ALU)                                                                          \
    X(BFIND, "bfind", ALU)                                                                      \
    X(PRMT, "prmt", ALU)                                                                        \
    X(LOP3, "lop3", ALU)                                                                        \
    X(DP4A, "dp4a", ALU)                                                                        \
    X(DP2A, "dp2a", ALU)                                                                        \
    X(SETP, "setp", ALU)                                                                        \
    X(SELP, "selp", ALU)                                                                        \
    X(SET, "set", ALU)                                                                          \
    X(SLCT, "slct", ALU)                                                                        \
    X(FMA, "fma", ALU)                                                                          \
    X(RCP, "rcp", SFU)                                                                          \
    X(SQRT, "sqrt", SFU)                                                                        \
    X(RSQRT, "rsqrt", SFU)                                                                      \
    X(SIN, "sin", SFU)                                                                          \
    X(COS, "cos", SFU)                                                                          \
    X(LG2, "lg2", SFU)                                                                          \
    X(EX2, "ex2", SFU)                                                                          \
    X(TANH, "tanh", SFU)                                                                        \
    X(TESTP, "testp", ALU)                                                                      \
    X(COPYSIGN, "copysign", ALU)                                                                \
    X(BAR, "bar", SYNC)           /* bar.* and barrier.*; mode SYNC/ARRIVE/RED */              \
    X(BAR_WARP, "bar.warp.sync", SYNC) /* __syncwarp: src0 = member mask */                    \
    X(MEMBAR, "membar", MEM)      /* membar.* and fence.*; sem + scope */                      \
    X(ATOM, "atom", MEM)                                                                        \
    X(RED, "red", MEM)                                                                          \
    X(VOTE, "vote", ALU)                                                                        \
    X(SHFL, "shfl", ALU)                                                                        \
    X(ACTIVEMASK, "activemask", ALU)                                                            \
    X(MATCH, "match", ALU)                                                                      \
    X(REDUX, "redux", ALU)                                                                      \
    X(ISSPACEP, "isspacep", ALU)                                                                \
    X(NANOSLEEP, "nanosleep", CTRL)                                                             \
    X(BRA, "bra", CTRL)                                                                         \
    X(CALL, "call", CTRL)                                                                       \
    X(RET, "ret", CTRL)                                                                         \
    X(EXIT, "exit", CTRL)                                                                       \
    X(TRAP, "trap", CTRL)                                                                       \
    X(BRKPT, "brkpt", CTRL)

enum ptx_op {
#define PTX_X_(e, s, u) PTX_OP_##e,
    PTX_OP_LIST(PTX_X_)
#undef PTX_X_
    PTX_OP_COUNT
};

/* Coarse execution-unit class of an opcode (hint for the timing model). */
enum ptx_unit { PTX_UNIT_ALU, PTX_UNIT_SFU, PTX_UNIT_MEM, PTX_UNIT_CTRL, PTX_UNIT_SYNC };

/* ------------------------------------------------------------------ types */
#define PTX_TYPE_LIST(X)                                                                        \
    X(NONE, "", 0)                                                                              \
    X(PRED, ".pred", 1) /* size 1 is storage size; a predicate is one bit */                   \
    X(B8, ".b8", 1)                                                                             \
    X(B16, ".b16", 2)                                                                           \
    X(B32, ".b32", 4)                                                                           \
    X(B64, ".b64", 8)                                                                           \
    X(U8, ".u8", 1)                                                                             \
    X(U16, ".u16", 2)                                                                           \
    X(U32, ".u32", 4)                                                                           \
    X(U64, ".u64", 8)                                                                           \
    X(S8, ".s8", 1)                                                                             \
    X(S16, ".s16", 2)                                                                           \
    X(S32, ".s32", 4)                                                                           \
    X(S64, ".s64", 8)                                                                           \
    X(F16, ".f16", 2)                                                                           \
    X(F16X2, ".f16x2", 4)                                                                       \
    X(BF16, ".bf16", 2)                                                                         \
    X(BF16X2, ".bf16x2", 4)                                                                     \
    X(F32, ".f32", 4)                                                                           \
    X(F64, ".f64", 8)

enum ptx_type {
#define PTX_X_(e, s, n) PTX_T_##e,
    PTX_TYPE_LIST(PTX_X_)
#undef PTX_X_
    PTX_T_COUNT
};

/* ----------------------------------------------------------- state spaces */
#define PTX_SPACE_LIST(X)                                                                       \
    X(GENERIC, "")        /* no space qualifier: generic address */                             \
    X(GLOBAL, ".global")                                                                        \
    X(SHARED, ".shared")                                                                        \
    X(LOCAL, ".local")                                                                          \
    X(PARAM, ".param")    /* the function's own parameters (kernel args, .func in/out) */      \
    X(CONST, ".const")                                                                          \
    X(ARGS, ".param(call)") /* call-site .param scratch declared inside a body */              \
    X(REG, ".reg")

enum ptx_space {
#define PTX_X_(e, s) PTX_SPACE_##e,
    PTX_SPACE_LIST(PTX_X_)
#undef PTX_X_
    PTX_SPACE_COUNT
};

/* Comparison operators of setp/set. The U-suffixed ones are true when
 * either operand is NaN; NUM: both are numbers; NAN: either is NaN. */
#define PTX_CMP_LIST(X)                                                                         \
    X(NONE, "") X(EQ, ".eq") X(NE, ".ne") X(LT, ".lt") X(LE, ".le") X(GT, ".gt") X(GE, ".ge")  \
    X(LO, ".lo") X(LS, ".ls") X(HI, ".hi") X(HS, ".hs") X(EQU, ".equ") X(NEU, ".neu")          \
    X(LTU, ".ltu") X(LEU, ".leu") X(GTU, ".gtu") X(GEU, ".geu") X(NUM, ".num") X(NAN, ".nan")

enum ptx_cmp {
#define PTX_X_(e, s) PTX_CMP_##e,
    PTX_CMP_LIST(PTX_X_)
#undef PTX_X_
    PTX_CMP_COUNT
};

/* Boolean combine of setp/set (.and/.or/.xor with the extra predicate
 * source, which is the last source operand). */
enum ptx_bool { PTX_BOOL_NONE, PTX_BOOL_AND, PTX_BOOL_OR, PTX_BOOL_XOR };

/* Rounding modifiers. RN..RP round floating results; RNI..RPI round to an
 * integral value (cvt to int or float-to-float integer rounding). */
enum ptx_rnd {
    PTX_RND_NONE,
    PTX_RND_RN,
    PTX_RND_RZ,
    PTX_RND_RM,
    PTX_RND_RP,
    PTX_RND_RNI,
    PTX_RND_RZI,
    PTX_RND_RMI,
    PTX_RND_RPI,
    PTX_RND_RNA,
};

/* Atomic / reduction operation of atom, red, bar.red, redux.sync. */
#define PTX_AOP_LIST(X)                                                                         \
    X(NONE, "") X(ADD, ".add") X(MIN, ".min") X(MAX, ".max") X(INC, ".inc") X(DEC, ".dec")     \
    X(CAS, ".cas") X(EXCH, ".exch") X(AND, ".and") X(OR, ".or") X(XOR, ".xor") X(POPC, ".popc")

enum ptx_aop {
#define PTX_X_(e, s) PTX_AOP_##e,
    PTX_AOP_LIST(PTX_X_)
#undef PTX_X_
    PTX_AOP_COUNT
};

/* Memory-ordering semantics (ld/st/atom/red/fence). membar.X decodes as
 * fence.sc.X (PTX ISA: they are equivalent on sm_70+). */
enum ptx_sem {
    PTX_SEM_NONE, /* weak (plain) access */
    PTX_SEM_RELAXED,
    PTX_SEM_ACQUIRE,
    PTX_SEM_RELEASE,
    PTX_SEM_ACQ_REL,
    PTX_SEM_SC,
};

/* Scope of sem/fence. membar.gl is PTX_SCOPE_GPU. */
enum ptx_scope { PTX_SCOPE_NONE, PTX_SCOPE_CTA, PTX_SCOPE_CLUSTER, PTX_SCOPE_GPU, PTX_SCOPE_SYS };

/* Cache operators of ld/st (hints; .ca/.wb are the defaults). */
enum ptx_cache {
    PTX_CACHE_NONE,
    PTX_CACHE_CA,
    PTX_CACHE_CG,
    PTX_CACHE_CS,
    PTX_CACHE_LU,
    PTX_CACHE_CV,
    PTX_CACHE_WB,
    PTX_CACHE_WT,
};

/* Op-specific sub-mode, one field shared by several opcode families; the
 * comment on each group says which opcode uses it. */
enum ptx_mode {
    PTX_MODE_NONE,
    /* mul, mad, mul24, mad24 */
    PTX_MODE_LO,
    PTX_MODE_HI,
    PTX_MODE_WIDE,
    /* vote */
    PTX_MODE_ALL,
    PTX_MODE_ANY,
    PTX_MODE_UNI,
    PTX_MODE_BALLOT,
    /* shfl */
    PTX_MODE_UP,
    PTX_MODE_DOWN,
    PTX_MODE_BFLY,
    PTX_MODE_IDX,
    /* bar / barrier */
    PTX_MODE_SYNC,
    PTX_MODE_ARRIVE,
    PTX_MODE_RED,
    /* testp */
    PTX_MODE_FINITE,
    PTX_MODE_INFINITE,
    PTX_MODE_NUMBER,
    PTX_MODE_NOTANUMBER,
    PTX_MODE_NORMAL,
    PTX_MODE_SUBNORMAL,
    /* prmt (PTX_MODE_NONE = generic byte permute) */
    PTX_MODE_F4E,
    PTX_MODE_B4E,
    PTX_MODE_RC8,
    PTX_MODE_ECL,
    PTX_MODE_ECR,
    PTX_MODE_RC16,
    /* match (ANY/ALL reuse the vote values) */
    /* shf */
    PTX_MODE_SHF_L,
    PTX_MODE_SHF_R,
    PTX_MODE_COUNT
};

/* Instruction flag bits (struct ptx_insn.flags). */
enum {
    PTX_F_FTZ = 1u << 0,      /* .ftz: flush subnormals to zero */
    PTX_F_SAT = 1u << 1,      /* .sat: saturate */
    PTX_F_APPROX = 1u << 2,   /* .approx */
    PTX_F_FULL = 1u << 3,     /* .full (div.full.f32) */
    PTX_F_VOLATILE = 1u << 4, /* ld/st.volatile */
    PTX_F_NC = 1u << 5,       /* ld.global.nc: non-coherent read-only path */
    PTX_F_UNI = 1u << 6,      /* bra.uni / call.uni / ret.uni: non-divergent by promise */
    PTX_F_SYNC = 1u << 7,     /* .sync forms of vote/shfl/match/redux */
    PTX_F_CC = 1u << 8,       /* .cc: write the carry flag (add.cc, sub.cc, mad.cc) */
    PTX_F_ALIGNED = 1u << 9,  /* .aligned (barrier): all threads execute the same barrier */
    PTX_F_SHIFTAMT = 1u << 10, /* bfind.shiftamt */
    PTX_F_WRAP = 1u << 11,    /* shf.wrap (else .clamp) */
    PTX_F_CVTA_TO = 1u << 12, /* cvta.to.space: generic -> space (else space -> generic) */
    PTX_F_HINT = 1u << 13,    /* an ignored cache-eviction hint was present (.L1::, .L2::) */
    PTX_F_NOFTZ = 1u << 14,   /* .noftz */
    PTX_F_RELU = 1u << 15,    /* .relu */
    PTX_F_PRED_OUT = 1u << 16, /* shfl/match: second destination is a predicate */
    PTX_F_BAR_COUNT = 1u << 17, /* bar: thread-count operand present */
    PTX_F_NAN = 1u << 18,     /* min/max.NaN: a NaN operand gives a NaN result */
    PTX_F_XORSIGN = 1u << 19, /* min/max.xorsign.abs: compare |a|, |b|; sign = sign(a) ^ sign(b) */
};

/* --------------------------------------------------------- special registers */
#define PTX_SREG_LIST(X)                                                                        \
    X(TID_X, "%tid.x") X(TID_Y, "%tid.y") X(TID_Z, "%tid.z")                                    \
    X(NTID_X, "%ntid.x") X(NTID_Y, "%ntid.y") X(NTID_Z, "%ntid.z")                              \
    X(CTAID_X, "%ctaid.x") X(CTAID_Y, "%ctaid.y") X(CTAID_Z, "%ctaid.z")                        \
    X(NCTAID_X, "%nctaid.x") X(NCTAID_Y, "%nctaid.y") X(NCTAID_Z, "%nctaid.z")                  \
    X(LANEID, "%laneid") X(WARPID, "%warpid") X(NWARPID, "%nwarpid")                            \
    X(SMID, "%smid") X(NSMID, "%nsmid") X(GRIDID, "%gridid")                                    \
    X(CLOCK, "%clock") X(CLOCK_HI, "%clock_hi") X(CLOCK64, "%clock64")                          \
    X(GLOBALTIMER, "%globaltimer") X(GLOBALTIMER_LO, "%globaltimer_lo")                         \
    X(GLOBALTIMER_HI, "%globaltimer_hi")                                                        \
    X(LANEMASK_EQ, "%lanemask_eq") X(LANEMASK_LE, "%lanemask_le")                               \
    X(LANEMASK_LT, "%lanemask_lt") X(LANEMASK_GE, "%lanemask_ge")                               \
    X(LANEMASK_GT, "%lanemask_gt")                                                              \
    X(DYNAMIC_SMEM_SIZE, "%dynamic_smem_size") X(TOTAL_SMEM_SIZE, "%total_smem_size")

enum ptx_sreg {
#define PTX_X_(e, s) PTX_SREG_##e,
    PTX_SREG_LIST(PTX_X_)
#undef PTX_X_
    PTX_SREG_COUNT
};

/* --------------------------------------------------------------- operands */
enum ptx_opnd_kind {
    PTX_OPND_NONE,
    PTX_OPND_REG,   /* reg = virtual register index */
    PTX_OPND_VEC,   /* n elements in vec[] (vreg index, or -1 for the '_' sink) */
    PTX_OPND_IMM,   /* imm = bit pattern, already converted to the operand's type */
    PTX_OPND_SREG,  /* sreg = enum ptx_sreg */
    PTX_OPND_ADDR,  /* memory address [base + reg + imm], see below */
    PTX_OPND_SYM,   /* the address of a variable as a value (mov r, var): base + imm */
    PTX_OPND_LABEL, /* branch target; the PC is in insn.target */
    PTX_OPND_FUNC,  /* call target; the function index is in insn.target */
    PTX_OPND_SINK,  /* '_' destination: result discarded */
};

/* Base of an ADDR/SYM operand, i.e. which symbol the address starts from. */
enum ptx_base {
    PTX_BASE_NONE,    /* no symbol: address = reg value + imm */
    PTX_BASE_STATIC,  /* shared/local/param/args variable: its offset within
                         that window is already added into imm */
    PTX_BASE_MODVAR,  /* module variable sym (global/const): address assigned
                         by the loader, plus imm */
    PTX_BASE_DYNSHARED, /* extern dynamic shared array: the running kernel's
                           ptx_func.dyn_shared_offset, plus imm */
};

/* Operand flag bits. */
enum {
    PTX_OF_NOT = 1u << 0,    /* predicate source written '!p' (logical negation) */
    PTX_OF_MODSYM = 1u << 1, /* ADDR/SYM: sym indexes module->vars (else fn->vars,
                                or fn->params when space is PTX_SPACE_PARAM) */
};

struct ptx_operand {
    uint8_t kind;  /* enum ptx_opnd_kind */
    uint8_t flags; /* PTX_OF_* */
    uint8_t space; /* ADDR/SYM: enum ptx_space of the symbol (or of the
                      instruction for a register-only ADDR); else 0 */
    uint8_t base;  /* ADDR/SYM: enum ptx_base */
    uint8_t n;     /* VEC: number of elements (2 or 4) */
    uint8_t sreg;  /* SREG: enum ptx_sreg */
    int32_t reg;   /* REG: vreg; ADDR: base vreg or -1 for none */
    int32_t sym;   /* ADDR/SYM: the symbol the address starts from (see
                      PTX_OF_MODSYM for which table), -1 for none. Needed
                      only for PTX_BASE_MODVAR; informational otherwise */
    int32_t vec[4]; /* VEC: element vregs, -1 = '_' sink */
    uint64_t imm;  /* IMM: value bits (integers sign/zero-extended to 64 bits
                      per the operand type, f32 in the low 32 bits);
                      ADDR/SYM: byte offset, two's complement */
};

/* Maximum operands of one instruction (shfl.sync d|p, a, b, c, mask = 6). */
#define PTX_MAX_OPNDS 6

/* Special PC values (both larger than any instruction index):
 * PTX_PC_EXIT: "no reconvergence point inside the function": the divergent
 *   paths only meet at the virtual exit (threads finish or return);
 * PTX_PC_NONE: field not applicable (no target, not a divergent branch). */
#define PTX_PC_EXIT (UINT32_MAX - 1)
#define PTX_PC_NONE UINT32_MAX

/* ------------------------------------------------------------ instruction */
struct ptx_insn {
    uint8_t op;     /* enum ptx_op */
    uint8_t type;   /* enum ptx_type: the instruction type (dst type of cvt,
                       set and slct; data type of ld/st/atom) */
    uint8_t type2;  /* enum ptx_type: second type (cvt/set/slct source,
                       mul.wide/mad.wide: same as type, dp4a b type) */
    uint8_t space;  /* enum ptx_space of ld/st/atom/red/cvta/isspacep */
    uint8_t cmp;    /* enum ptx_cmp (setp, set) */
    uint8_t bop;    /* enum ptx_bool (setp, set) */
    uint8_t aop;    /* enum ptx_aop (atom, red, bar.red, redux) */
    uint8_t mode;   /* enum ptx_mode */
    uint8_t rnd;    /* enum ptx_rnd */
    uint8_t sem;    /* enum ptx_sem */
    uint8_t scope;  /* enum ptx_scope */
    uint8_t cache;  /* enum ptx_cache */
    uint8_t vec;    /* ld/st: 1, 2 or 4 elements */
    uint8_t n_dst;  /* destinations: opnd[0 .. n_dst) */
    uint8_t n_src;  /* sources: opnd[n_dst .. n_dst + n_src) */
    uint8_t guard_neg; /* 1 when the guard is @!p */
    int32_t guard;  /* guard predicate vreg, -1 = always executes */
    uint32_t flags; /* PTX_F_* */
    uint32_t target; /* bra: target PC; call: callee function index; else PTX_PC_NONE */
    uint32_t reconv; /* bra/exit/ret that may diverge (guarded or non-.uni
                        conditional): reconvergence PC = first instruction of
                        the immediate post-dominator block, or PTX_PC_EXIT;
                        PTX_PC_NONE for everything else */
    uint32_t call_first; /* call: index of the first call argument in ptx_func.call_args */
    uint16_t call_n_ret; /* call: return arguments (first in the list) */
    uint16_t call_n_arg; /* call: input arguments (after the returns) */
    uint32_t line;  /* source line (1-based) */
    uint32_t col;   /* source column of the opcode (1-based) */
    uint32_t src_line; /* CUDA source line of the last .loc before it (0 = unknown) */
    uint16_t src_file; /* that .loc's file: ptx_module.src_files[src_file - 1]; 0 = none */
    struct ptx_operand opnd[PTX_MAX_OPNDS];
};

/* ---------------------------------------------------------------- symbols */
enum ptx_linkage { PTX_LINK_NONE, PTX_LINK_VISIBLE, PTX_LINK_EXTERN, PTX_LINK_WEAK, PTX_LINK_COMMON };

/* A variable in .global/.const/.shared/.local (module or function scope) or
 * a call-site .param (PTX_SPACE_ARGS). */
struct ptx_var {
    char *name;       /* PTX name (debug only) */
    uint8_t space;    /* enum ptx_space */
    uint8_t type;     /* element type (enum ptx_type) */
    uint8_t linkage;  /* enum ptx_linkage */
    uint8_t vec;      /* .v2/.v4 element vector width, 1 otherwise */
    bool is_extern_array; /* `.extern .shared ... name[]`: dynamic shared memory */
    uint32_t align;   /* bytes (explicit .align or natural element size) */
    uint64_t size;    /* bytes (0 for a dynamic array) */
    uint64_t offset;  /* shared: offset in the CTA's shared window; local:
                         offset in the per-thread frame of the owning function
                         (module-scope .local: in the module local segment);
                         args: offset in the call-site scratch area;
                         global/const: 0, the loader assigns addresses */
    uint8_t *init;    /* initial bytes (size of them), NULL = zero-filled */
    uint32_t line;    /* declaration line */
};

/* A parameter of an .entry or .func (input or .func return value). */
struct ptx_param {
    char *name;      /* PTX name (debug only) */
    uint8_t type;    /* element type */
    bool is_ret;     /* .func return parameter */
    uint8_t ptr_space; /* .ptr .global/.shared/...: pointee space, else 0 */
    uint32_t ptr_align; /* .ptr .align N, else 0 */
    uint32_t align;  /* bytes */
    uint32_t size;   /* bytes */
    uint32_t offset; /* byte offset in the function's param buffer: inputs
                        first (CUDA kernel argument layout), then returns */
};

/* A virtual register. */
struct ptx_reg {
    char *name;      /* PTX name, e.g. "%r12" (debug only) */
    uint8_t type;    /* declared type */
    uint8_t bytes;   /* width: 1, 2, 4 or 8; predicates 1 */
    bool is_pred;    /* .pred: separate predicate file, not counted */
    uint8_t n_phys;  /* 32-bit physical registers it occupies (0 pred, 2 for 64-bit) */
    int32_t phys;    /* first physical register (64-bit: an even-aligned pair
                        phys, phys+1), or predicate number for predicates;
                        -1 before allocation or when never live */
    int32_t slot;    /* the executor's storage slot (pass "slots", NOTE(reg-slots)
                        in sim/ptx/passes/slots.c); -1 when never referenced */
};

struct ptx_label {
    char *name;     /* debug only */
    uint32_t pc;    /* instruction index it names (n_insns if at the end) */
};

/* ---------------------------------------------------------------- the CFG */
struct ptx_block {
    uint32_t first;     /* first instruction index */
    uint32_t last;      /* last instruction index (inclusive) */
    uint32_t n_succ;    /* successors (0..2); the virtual exit is not listed */
    uint32_t succ[2];   /* block indices (taken target first for branches) */
    bool to_exit;       /* flows to the virtual exit (exit/ret/trap, or falls off the end) */
    uint32_t ipdom;     /* immediate post-dominator block, or UINT32_MAX for the virtual exit */
    uint32_t *pred;     /* predecessor block indices */
    uint32_t n_pred;
};

struct ptx_cfg {
    struct ptx_block *blocks; /* in instruction order; block 0 is the entry */
    uint32_t n_blocks;
    uint32_t *block_of;       /* instruction index -> block index (n_insns entries) */
};

/* Per-instruction liveness (bitsets over virtual registers, predicates
 * included): bit v of live_in[i] is set when vreg v may be read before
 * being written on some path from instruction i. words = (n_regs+63)/64. */
struct ptx_liveness {
    uint32_t words;    /* 64-bit words per set */
    uint64_t *live_in;  /* n_insns * words */
    uint64_t *live_out; /* n_insns * words */
};

/* --------------------------------------------------------------- function */
struct ptx_func {
    char *name;
    uint32_t index;      /* position in module->funcs */
    bool is_entry;       /* .entry (kernel) vs .func */
    bool has_body;       /* false for a prototype / .extern declaration */
    uint8_t linkage;     /* enum ptx_linkage */
    uint32_t line;       /* line of the .entry/.func directive */

    struct ptx_param *params; /* inputs then returns, see ptx_param.offset */
    uint32_t n_params;        /* total (inputs + returns) */
    uint32_t n_rets;          /* .func return parameters */
    uint32_t param_bytes;     /* size of the param buffer (inputs + returns) */

    struct ptx_reg *regs;     /* virtual registers, dense, in declaration order */
    uint32_t n_regs;
    uint32_t n_pred_regs;     /* of which .pred */
    uint32_t n_regs_by_bytes[9]; /* non-pred regs by width in bytes (index 1,2,4,8) */

    struct ptx_insn *insns;
    uint32_t n_insns;
    struct ptx_label *labels;
    uint32_t n_labels;

    struct ptx_var *vars;     /* function-scope .shared/.local and call-site .param */
    uint32_t n_vars;
    struct ptx_operand *call_args; /* argument lists of every call (see PTX_OP_CALL) */
    uint32_t n_call_args;

    /* Memory footprint. */
    uint64_t shared_static_bytes; /* entry: module shared segment + own .shared */
    bool uses_dyn_shared;         /* references an extern dynamic shared array
                                     (directly; callees are not followed) */
    uint64_t dyn_shared_offset;   /* entry: where dynamic shared memory starts in
                                     the CTA window (static size aligned up) */
    uint64_t local_bytes;         /* per-thread .local frame of this function */
    uint32_t local_align;         /* alignment of that frame */
    uint64_t args_bytes;          /* call-site .param scratch size per thread */

    /* Kernel attributes (0 = not given). */
    uint32_t maxntid[3], reqntid[3];
    uint32_t minnctapersm, maxnreg;

    /* Analyses, filled by ptx_parse after a clean parse. */
    struct ptx_cfg cfg;
    struct ptx_liveness live;

    /* Register allocation (pass "regalloc"). */
    uint32_t regs_alloc;      /* 32-bit physical registers our allocator used */
    uint32_t preds_alloc;     /* predicate registers our allocator used */
    int32_t regs_ptxas;       /* `ptxas -v` count from the sidecar, -1 when absent */
    uint32_t regs_per_thread; /* count for occupancy: regs_ptxas if known, else regs_alloc */

    /* The functional executor's view (pass "slots", NOTE(reg-slots) in
     * sim/ptx/passes/slots.c): insns and call_args with every register
     * operand renamed to its storage slot; registers whose values are never
     * needed together share one. Everything but the executor reads the
     * virtual registers of insns. */
    struct ptx_insn *xinsns;        /* n_insns entries */
    struct ptx_operand *xcall_args; /* n_call_args entries */
    uint32_t n_slots;               /* storage slots per thread (<= n_regs) */
};

/* ----------------------------------------------------------------- module */
/* A source file named by `.file N "path"` (or only used by a .loc, docs/ptx.md). */
struct ptx_srcfile {
    char *path;       /* as written in .file; "<file N>" when no .file declares N */
    const char *base; /* last path component of path (points into it), for messages */
    uint32_t index;   /* N, the PTX file index (1 .. 65535) */
    uint32_t line;    /* PTX line of its .file directive, 0 = undeclared */
};

struct ptx_module {
    char *filename;       /* as given to ptx_parse (for messages) */
    uint32_t version_major, version_minor; /* .version */
    uint32_t target_sm;   /* .target sm_NN -> NN (0 if absent) */
    uint32_t address_size; /* 64 */

    struct ptx_var *vars; /* module-scope variables (.global/.const/.shared/.local) */
    uint32_t n_vars;
    uint64_t shared_module_bytes; /* module-scope static .shared segment (offset 0) */
    uint64_t local_module_bytes;  /* module-scope .local segment */

    struct ptx_func *funcs;
    uint32_t n_funcs;

    struct ptx_srcfile *src_files; /* .file table, in order of first mention */
    uint32_t n_src_files;
};

/* ------------------------------------------------------------- helpers */
const char *ptx_op_name(enum ptx_op op);
enum ptx_unit ptx_op_unit(enum ptx_op op);
const char *ptx_type_name(enum ptx_type t);     /* ".u32"; "" for NONE */
const char *ptx_space_name(enum ptx_space s);
const char *ptx_cmp_name(enum ptx_cmp c);
const char *ptx_aop_name(enum ptx_aop a);
const char *ptx_sreg_name(enum ptx_sreg s);

/* Bytes of a type, 0 for NONE. Inline (a table read): the executor asks
 * once per lane on its load and store paths. */
extern const uint8_t ptx_type_sizes[PTX_T_COUNT];
static inline unsigned ptx_type_bytes(enum ptx_type t)
{
    return (size_t)t < PTX_T_COUNT ? ptx_type_sizes[t] : 0;
}

static inline bool ptx_type_is_float(enum ptx_type t)
{
    return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2 ||
           t == PTX_T_F32 || t == PTX_T_F64;
}
static inline bool ptx_type_is_signed(enum ptx_type t)
{
    return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

/* Is the instruction a control transfer that ends a basic block? */
static inline bool ptx_insn_is_terminator(const struct ptx_insn *in)
{
    return in->op == PTX_OP_BRA || in->op == PTX_OP_RET || in->op == PTX_OP_EXIT ||
           in->op == PTX_OP_TRAP;
}

/* May the instruction write its destinations after its issue? Timing mode
 * writes global and generic loads and atomics when the reply returns
 * (func_sm_mem_complete, which asserts this); loads of the SM's own spaces
 * (shared, local, param, const) are performed at issue in every mode. The
 * executor's register slots rely on it (NOTE(reg-slots)). */
static inline bool ptx_insn_completes_late(const struct ptx_insn *in)
{
    if (in->op == PTX_OP_ATOM)
        return true;
    return (in->op == PTX_OP_LD || in->op == PTX_OP_LDU) &&
           (in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_GENERIC);
}

/* Calls fn(vreg, is_def, ctx) for every virtual register the instruction
 * reads (is_def = 0: sources, address bases, the guard) or writes
 * (is_def = 1), in operand order. Vector operands are expanded. */
void ptx_insn_for_each_reg(const struct ptx_insn *in,
                           void (*fn)(int32_t vreg, int is_def, void *ctx), void *ctx);

/* Disassemble one instruction into buf (always NUL-terminated); returns buf.
 * For debug output and tests; not used on any hot path. */
char *ptx_insn_format(const struct ptx_func *fn, const struct ptx_insn *in, char *buf,
                      size_t size);

#endif /* GPUSIM_SIM_PTX_IR_H */
