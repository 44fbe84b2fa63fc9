/* tests/test_func_exec.c: functional executor semantics through the public
 * API: instruction families with edge cases (handwritten PTX run with
 * gs_module_load_data + launch + dtoh), SIMT divergence, device-to-device
 * copies, and bad input. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpusim.h"
#include "tap.h"

#define HDR ".version 7.0\n.target sm_70\n.address_size 64\n"

/* Load text, launch `name` with grid/block and one u64 parameter pointing at
 * an n_out-word output buffer, copy it back into out. Returns the launch code. */
static int run_out(gs_ctx *c, const char *text, const char *name, unsigned grid, unsigned block,
                   uint32_t *out, size_t n_out)
{
    gs_module *m;
    gs_function *f;
    int rc = gs_module_load_data(c, text, &m);
    if (rc) {
        tap_diag("load: %s", gs_last_error(c));
        return rc;
    }
    if ((rc = gs_module_get_function(m, name, &f)))
        return rc;
    uint64_t d;
    if ((rc = gs_mem_alloc(c, &d, n_out * 4)))
        return rc;
    gs_memset_d8(c, d, 0xee, n_out * 4);
    void *args[] = {&d};
    rc = gs_launch_kernel(f, grid, 1, 1, block, 1, 1, 0, args);
    if (rc)
        tap_diag("launch: %s", gs_last_error(c));
    gs_memcpy_dtoh(c, out, d, n_out * 4);
    gs_mem_free(c, d);
    return rc;
}

static const char *int_ptx = HDR
    ".visible .entry ints(.param .u64 out)\n{\n"
    " .reg .b32 %r<40>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.u32 %r1, 2147483647;\n add.s32 %r2, %r1, 1;\n st.global.u32 [%rd1+0], %r2;\n"
    " mov.u32 %r3, 0;\n sub.u32 %r4, %r3, 1;\n st.global.u32 [%rd1+4], %r4;\n"
    " mov.u32 %r5, 1;\n mov.u32 %r6, 32;\n shl.b32 %r7, %r5, %r6;\n st.global.u32 [%rd1+8], %r7;\n"
    " mov.u32 %r8, 0x80000000;\n mov.u32 %r9, 40;\n shr.u32 %r10, %r8, %r9;\n st.global.u32 [%rd1+12], %r10;\n"
    " shr.s32 %r11, %r8, %r9;\n st.global.u32 [%rd1+16], %r11;\n"
    " mov.u32 %r12, 7;\n div.u32 %r13, %r12, %r3;\n st.global.u32 [%rd1+20], %r13;\n"
    " mov.u32 %r14, -7;\n div.s32 %r15, %r14, 2;\n st.global.u32 [%rd1+24], %r15;\n"
    " rem.s32 %r16, %r14, 2;\n st.global.u32 [%rd1+28], %r16;\n"
    " mul.hi.u32 %r17, %r4, %r4;\n st.global.u32 [%rd1+32], %r17;\n"
    " mov.u32 %r18, 65536;\n mul.lo.s32 %r19, %r18, %r18;\n st.global.u32 [%rd1+36], %r19;\n"
    " add.sat.s32 %r20, %r1, 1;\n st.global.u32 [%rd1+40], %r20;\n"
    " mov.u32 %r21, 0xf0f0;\n bfe.u32 %r22, %r21, 4, 8;\n st.global.u32 [%rd1+44], %r22;\n"
    " mov.u32 %r23, 0xf0;\n bfe.s32 %r24, %r23, 4, 4;\n st.global.u32 [%rd1+48], %r24;\n"
    " mov.u32 %r25, 0xff00ff;\n popc.b32 %r26, %r25;\n st.global.u32 [%rd1+52], %r26;\n"
    " clz.b32 %r27, %r5;\n st.global.u32 [%rd1+56], %r27;\n"
    " brev.b32 %r28, %r5;\n st.global.u32 [%rd1+60], %r28;\n"
    " min.s32 %r29, %r4, %r5;\n st.global.u32 [%rd1+64], %r29;\n"
    " min.u32 %r30, %r4, %r5;\n st.global.u32 [%rd1+68], %r30;\n"
    " div.s32 %r31, %r8, %r4;\n st.global.u32 [%rd1+72], %r31;\n"
    " mov.u32 %r32, 256;\n bfind.u32 %r33, %r32;\n st.global.u32 [%rd1+76], %r33;\n"
    " rem.u32 %r34, %r12, %r3;\n st.global.u32 [%rd1+80], %r34;\n"
    " mul.wide.s32 %rd2, %r4, %r18;\n st.global.u64 [%rd1+88], %rd2;\n"
    " ret;\n}\n";

static const char *fp_ptx = HDR
    ".visible .entry fps(.param .u64 out)\n{\n"
    " .reg .b32 %r<40>; .reg .f32 %f<40>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.f32 %f1, 0f3F800000;\n mov.f32 %f2, 0f30800000;\n" /* 1.0, 2^-30 */
    " add.rz.f32 %f3, %f1, %f2;\n st.global.f32 [%rd1+0], %f3;\n"
    " add.rp.f32 %f4, %f1, %f2;\n st.global.f32 [%rd1+4], %f4;\n"
    " mov.f32 %f5, 0f00000000;\n div.rn.f32 %f6, %f1, %f5;\n st.global.f32 [%rd1+8], %f6;\n"
    " mul.f32 %f7, %f6, %f5;\n st.global.f32 [%rd1+12], %f7;\n"
    " mov.f32 %f8, 0f40200000;\n cvt.rni.s32.f32 %r1, %f8;\n st.global.u32 [%rd1+16], %r1;\n" /* 2.5 */
    " mov.f32 %f9, 0f40600000;\n cvt.rni.s32.f32 %r2, %f9;\n st.global.u32 [%rd1+20], %r2;\n" /* 3.5 */
    " mov.f32 %f10, 0fC02CCCCD;\n cvt.rzi.s32.f32 %r3, %f10;\n st.global.u32 [%rd1+24], %r3;\n" /* -2.7 */
    " cvt.rmi.s32.f32 %r4, %f10;\n st.global.u32 [%rd1+28], %r4;\n"
    " mov.f32 %f11, 0f3F400000;\n mov.f32 %f12, 0f3F000000;\n add.sat.f32 %f13, %f11, %f12;\n st.global.f32 [%rd1+32], %f13;\n"
    " min.f32 %f14, %f7, %f1;\n st.global.f32 [%rd1+36], %f14;\n"
    " mov.f32 %f15, 0fBF800000;\n sqrt.rn.f32 %f16, %f15;\n st.global.f32 [%rd1+40], %f16;\n"
    " mov.f32 %f17, 0f4F32D05E;\n cvt.rzi.s32.f32 %r5, %f17;\n st.global.u32 [%rd1+44], %r5;\n" /* 3e9 */
    " cvt.rzi.s32.f32 %r6, %f7;\n st.global.u32 [%rd1+48], %r6;\n" /* NaN -> 0 */
    " mov.f32 %f18, 0f000116C2;\n mul.ftz.f32 %f19, %f18, %f1;\n st.global.f32 [%rd1+52], %f19;\n"
    " mul.f32 %f20, %f18, %f1;\n st.global.f32 [%rd1+56], %f20;\n"
    " setp.ltu.f32 %p1, %f7, %f1;\n selp.u32 %r7, 1, 0, %p1;\n st.global.u32 [%rd1+60], %r7;\n"
    " setp.lt.f32 %p2, %f7, %f1;\n selp.u32 %r8, 1, 0, %p2;\n st.global.u32 [%rd1+64], %r8;\n"
    " cvt.rn.f32.s32 %f21, %r3;\n st.global.f32 [%rd1+68], %f21;\n"
    " mov.u32 %r9, 16777217;\n cvt.rz.f32.u32 %f22, %r9;\n st.global.f32 [%rd1+72], %f22;\n"
    " cvt.rp.f32.u32 %f23, %r9;\n st.global.f32 [%rd1+76], %f23;\n"
    " neg.f32 %f24, %f5;\n st.global.f32 [%rd1+80], %f24;\n"
    " ret;\n}\n";

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void test_ints(gs_ctx *c)
{
    uint32_t o[24];
    int rc = run_out(c, int_ptx, "ints", 1, 1, o, 24);
    TAP_EQ_I64(rc, 0, "integer kernel runs");
    TAP_EQ_U64(o[0], 0x80000000u, "add.s32 overflow wraps");
    TAP_EQ_U64(o[1], 0xffffffffu, "sub.u32 underflow wraps");
    TAP_EQ_U64(o[2], 0, "shl.b32 by 32 gives 0");
    TAP_EQ_U64(o[3], 0, "shr.u32 by 40 gives 0");
    TAP_EQ_U64(o[4], 0xffffffffu, "shr.s32 by 40 fills with the sign");
    TAP_EQ_U64(o[5], 0xffffffffu, "div.u32 by zero gives all ones");
    TAP_EQ_U64(o[6], (uint32_t)-3, "div.s32 truncates toward zero");
    TAP_EQ_U64(o[7], (uint32_t)-1, "rem.s32 takes the dividend's sign");
    TAP_EQ_U64(o[8], 0xfffffffeu, "mul.hi.u32");
    TAP_EQ_U64(o[9], 0, "mul.lo.s32 keeps the low half");
    TAP_EQ_U64(o[10], 0x7fffffffu, "add.sat.s32 saturates");
    TAP_EQ_U64(o[11], 0x0f, "bfe.u32");
    TAP_EQ_U64(o[12], 0xffffffffu, "bfe.s32 sign-extends the field");
    TAP_EQ_U64(o[13], 16, "popc.b32");
    TAP_EQ_U64(o[14], 31, "clz.b32");
    TAP_EQ_U64(o[15], 0x80000000u, "brev.b32");
    TAP_EQ_U64(o[16], 0xffffffffu, "min.s32 is signed");
    TAP_EQ_U64(o[17], 1, "min.u32 is unsigned");
    TAP_EQ_U64(o[18], 0x80000000u, "div.s32 INT_MIN / -1 wraps");
    TAP_EQ_U64(o[19], 8, "bfind.u32");
    TAP_EQ_U64(o[20], 7, "rem.u32 by zero returns the dividend (our choice)");
    uint64_t wide = (uint64_t)o[22] | (uint64_t)o[23] << 32;
    TAP_EQ_U64(wide, (uint64_t)(int64_t)-65536, "mul.wide.s32 sign-extends");
}

static void test_fps(gs_ctx *c)
{
    uint32_t o[21];
    int rc = run_out(c, fp_ptx, "fps", 1, 1, o, 21);
    TAP_EQ_I64(rc, 0, "float kernel runs");
    TAP_EQ_U64(o[0], 0x3f800000u, "add.rz.f32 rounds toward zero");
    TAP_EQ_U64(o[1], 0x3f800001u, "add.rp.f32 rounds up");
    TAP_EQ_U64(o[2], 0x7f800000u, "1/0 = +inf");
    TAP_EQ_U64(o[3], 0x7fffffffu, "inf*0 = canonical NaN");
    TAP_EQ_U64(o[4], 2, "cvt.rni 2.5 -> 2 (ties to even)");
    TAP_EQ_U64(o[5], 4, "cvt.rni 3.5 -> 4");
    TAP_EQ_U64(o[6], (uint32_t)-2, "cvt.rzi -2.7 -> -2");
    TAP_EQ_U64(o[7], (uint32_t)-3, "cvt.rmi -2.7 -> -3");
    TAP_EQ_U64(o[8], 0x3f800000u, "add.sat.f32 clamps to 1.0");
    TAP_EQ_U64(o[9], 0x3f800000u, "min.f32 NaN, 1 -> 1");
    TAP_EQ_U64(o[10], 0x7fffffffu, "sqrt(-1) = NaN");
    TAP_EQ_U64(o[11], 0x7fffffffu, "cvt.rzi.s32 saturates 3e9");
    TAP_EQ_U64(o[12], 0, "cvt NaN -> int gives 0");
    TAP_EQ_U64(o[13], 0, "mul.ftz flushes a subnormal");
    TAP_EQ_U64(o[14], 0x000116c2u, "mul without ftz keeps a subnormal");
    TAP_EQ_U64(o[15], 1, "setp.ltu true on NaN");
    TAP_EQ_U64(o[16], 0, "setp.lt false on NaN");
    TAP_EQ_U64(o[17], fbits(-2.0f), "cvt.rn.f32.s32");
    TAP_EQ_U64(o[18], fbits(16777216.0f), "cvt.rz.f32.u32 of 2^24+1");
    TAP_EQ_U64(o[19], fbits(16777218.0f), "cvt.rp.f32.u32 of 2^24+1");
    TAP_EQ_U64(o[20], 0x80000000u, "neg.f32 0 = -0");
}

static const char *div_ptx = HDR
    ".visible .entry divk(.param .u64 out)\n{\n"
    " .reg .b32 %r<20>; .reg .b64 %rd<8>; .reg .pred %p<8>;\n"
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
    " mov.u32 %r2, 0;\n and.b32 %r3, %r1, 1;\n setp.eq.u32 %p1, %r3, 0;\n @%p1 bra EVEN;\n"
    " and.b32 %r4, %r1, 2;\n setp.eq.u32 %p2, %r4, 0;\n @%p2 bra ODD_A;\n"
    " add.u32 %r2, %r2, 100;\n bra ODD_END;\n"
    "ODD_A:\n add.u32 %r2, %r2, 200;\n"
    "ODD_END:\n bra JOIN;\n"
    "EVEN:\n add.u32 %r2, %r2, 1000;\n"
    "JOIN:\n mov.u32 %r5, 0;\n rem.u32 %r6, %r1, 8;\n add.u32 %r6, %r6, 5;\n"
    " rem.u32 %r7, %r1, 7;\n add.u32 %r7, %r7, 3;\n"
    "LOOP:\n setp.ge.u32 %p3, %r5, %r6;\n @%p3 bra LOOP_END;\n"
    " setp.eq.u32 %p4, %r5, 2;\n @%p4 bra CONT;\n"
    " setp.eq.u32 %p5, %r5, %r7;\n @%p5 bra LOOP_END;\n"
    " add.u32 %r2, %r2, %r5;\n"
    "CONT:\n add.u32 %r5, %r5, 1;\n bra LOOP;\n"
    "LOOP_END:\n bar.sync 0;\n"
    " rem.u32 %r8, %r1, 5;\n setp.eq.u32 %p6, %r8, 0;\n @%p6 bra STORE_EXIT;\n"
    " mul.lo.u32 %r2, %r2, 3;\n st.global.u32 [%rd3], %r2;\n ret;\n"
    "STORE_EXIT:\n st.global.u32 [%rd3], %r2;\n exit;\n}\n";

static uint32_t div_ref(uint32_t t)
{
    uint32_t acc = (t & 1) == 0 ? 1000 : (t & 2) ? 100 : 200;
    uint32_t lim = t % 8 + 5, brk = t % 7 + 3;
    for (uint32_t i = 0; i < lim; i++) {
        if (i == 2)
            continue;
        if (i == brk)
            break;
        acc += i;
    }
    return t % 5 == 0 ? acc : acc * 3;
}

/* Lanes exit before a barrier that the rest of the CTA then reaches. */
static const char *exitbar_ptx = HDR
    ".visible .entry exitbar(.param .u64 out)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n .shared .align 4 .b32 sh[128];\n"
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
    " mov.u64 %rd4, sh;\n add.s64 %rd5, %rd4, %rd2;\n st.shared.u32 [%rd5], %r1;\n"
    " setp.ge.u32 %p1, %r1, 96;\n @%p1 exit;\n"
    " bar.sync 0;\n mov.u32 %r2, 95;\n sub.u32 %r3, %r2, %r1;\n mul.wide.u32 %rd6, %r3, 4;\n"
    " add.s64 %rd7, %rd4, %rd6;\n ld.shared.u32 %r4, [%rd7];\n st.global.u32 [%rd3], %r4;\n ret;\n}\n";

static void test_divergence(gs_ctx *c)
{
    uint32_t o[64];
    int rc = run_out(c, div_ptx, "divk", 2, 64, o, 64);
    TAP_EQ_I64(rc, 0, "divergence kernel runs");
    int bad = 0;
    for (uint32_t t = 0; t < 64; t++)
        if (o[t] != div_ref(t)) {
            if (!bad)
                tap_diag("thread %u: got %u want %u", t, o[t], div_ref(t));
            bad++;
        }
    TAP_EQ_I64(bad, 0, "nested if/else, loop break/continue, early exit match the CPU reference");

    uint32_t e[128];
    rc = run_out(c, exitbar_ptx, "exitbar", 1, 128, e, 128);
    TAP_EQ_I64(rc, 0, "exited warp does not block bar.sync");
    bad = 0;
    for (uint32_t t = 0; t < 96; t++)
        bad += e[t] != 95 - t;
    for (uint32_t t = 96; t < 128; t++)
        bad += e[t] != 0xeeeeeeeeu;
    TAP_EQ_I64(bad, 0, "shared memory exchange across warps through bar.sync");
}

/* Registers read before any write (NOTE(zero-live-in) in
 * sim/func/exec_state.c): CTA 0 writes 77 into %r5 under a guard and every
 * lane 100 into %r7; the other CTAs never write %r5, and their lanes 16-31
 * exit before writing %r7, which lanes 0-15 then read through shfl.down.
 * Every CTA must see zeros there, not what the CTA before it in the same
 * slot left behind. */
static const char *uninit_ptx = HDR
    ".visible .entry uninit(.param .u64 out)\n{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<4>; .reg .pred %p<5>;\n"
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mad.lo.s32 %r3, %r2, 32, %r1;\n"
    " mul.wide.u32 %rd2, %r3, 8;\n add.s64 %rd3, %rd1, %rd2;\n"
    " setp.eq.u32 %p1, %r2, 0;\n @%p1 mov.u32 %r5, 77;\n add.u32 %r6, %r5, 1;\n"
    " st.global.u32 [%rd3], %r6;\n"
    " setp.ge.u32 %p2, %r1, 16;\n setp.ne.u32 %p4, %r2, 0;\n and.pred %p3, %p2, %p4;\n @%p3 bra DONE;\n"
    " mov.u32 %r7, 100;\n shfl.sync.down.b32 %r8, %r7, 16, 31, -1;\n"
    " st.global.u32 [%rd3+4], %r8;\n"
    "DONE:\n ret;\n}\n";

static void check_uninit(gs_ctx *c, const char *what)
{
    enum { NCTA = 24 }; /* more than the 8 CTA slots of one gtx480 SM: slots are reused */
    uint32_t o[NCTA * 64];
    int rc = run_out(c, uninit_ptx, "uninit", NCTA, 32, o, NCTA * 64);
    TAP_EQ_I64(rc, 0, "%s: kernel reading unwritten registers runs", what);
    int bad_r = 0, bad_s = 0;
    for (uint32_t b = 0; b < NCTA; b++)
        for (uint32_t t = 0; t < 32; t++) {
            const uint32_t *e = &o[(b * 32 + t) * 2];
            bad_r += e[0] != (b == 0 ? 78u : 1u);
            uint32_t want = b == 0 ? 100u : t < 16 ? 0u : 0xeeeeeeeeu;
            if (e[1] != want && !bad_s)
                tap_diag("%s: CTA %u lane %u shfl got %u want %u", what, b, t, e[1], want);
            bad_s += e[1] != want;
        }
    TAP_EQ_I64(bad_r, 0, "%s: a register read before any write reads 0 in every CTA", what);
    TAP_EQ_I64(bad_s, 0, "%s: shfl from lanes that never wrote its source reads 0", what);
}

static void test_uninit(gs_ctx *c)
{
    check_uninit(c, "functional");
    const char *ov[] = {"sim.mode=timing", "gpu.n_sm=1", NULL};
    gs_ctx *t = gs_ctx_create("gtx480", ov);
    if (!t) {
        TAP_OK(0, "timing context: %s", gs_last_error(NULL));
        return;
    }
    check_uninit(t, "timing, one SM");
    gs_ctx_destroy(t);
}

static const char *oob_ptx = HDR
    ".visible .entry oob(.param .u64 out)\n{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n"
    " add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r1;\n ret;\n}\n";

static const char *deadlock_ptx = HDR
    ".visible .entry dl(.param .u64 out)\n{\n"
    " .reg .b32 %r<4>; .reg .pred %p<2>;\n"
    " mov.u32 %r1, %tid.x;\n setp.lt.u32 %p1, %r1, 32;\n @%p1 bra SKIP;\n bar.sync 1;\n"
    "SKIP:\n bar.sync 0;\n ret;\n}\n";

static void test_bad_input(void)
{
    gs_ctx *c = gs_ctx_create(NULL, NULL);
    gs_module *m;
    gs_function *f;
    TAP_EQ_I64(gs_module_load(c, "/nonexistent/k.ptx", &m), GS_ERR_IO, "nonexistent file -> GS_ERR_IO");
    TAP_OK(strstr(gs_last_error(c), "nonexistent") != NULL, "message names the file: %s", gs_last_error(c));
    TAP_EQ_I64(gs_module_load_data(c, ".version 7.0\n.target sm_70\nbogus;\n", &m), GS_ERR_PTX,
               "malformed PTX -> GS_ERR_PTX");
    TAP_EQ_I64(gs_module_load_data(c, oob_ptx, &m), 0, "load oob kernel");
    TAP_EQ_I64(gs_module_get_function(m, "nope", &f), GS_ERR_NOT_FOUND, "wrong kernel name");
    TAP_OK(strstr(gs_last_error(NULL), "nope") != NULL, "thread-local message: %s", gs_last_error(NULL));
    TAP_EQ_I64(gs_module_get_function(m, "oob", &f), 0, "right kernel name");
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 32, 1, 1, 0, NULL), GS_ERR_INVALID_VALUE,
               "missing parameters (NULL params) refused");
    uint64_t d;
    gs_mem_alloc(c, &d, 16 * 4);
    void *args[] = {&d};
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 1025, 1, 1, 0, args), GS_ERR_LAUNCH, "1025 threads per CTA");
    TAP_EQ_I64(gs_launch_kernel(f, 0, 1, 1, 32, 1, 1, 0, args), GS_ERR_LAUNCH, "zero grid dimension");
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 32, 1, 1, 0, args), GS_ERR_EXEC, "out-of-bounds store faults");
    const char *e = gs_last_error(c);
    TAP_OK(strstr(e, "'oob'") && strstr(e, "CTA (0,0,0)") && strstr(e, "thread (16,0,0)") &&
               strstr(e, "pc 4") && strstr(e, "0x"),
           "fault names kernel, CTA, thread, PC, address: %s", e);
    TAP_EQ_I64(gs_ctx_synchronize(c), GS_ERR_EXEC, "synchronize reports the fault");
    TAP_EQ_I64(gs_ctx_synchronize(c), 0, "and clears it");
    gs_mem_free(c, d);
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 1, 1, 1, 0, args), GS_ERR_EXEC, "use after free faults");
    uint32_t o[64];
    TAP_EQ_I64(run_out(c, deadlock_ptx, "dl", 1, 64, o, 64), GS_ERR_EXEC, "barrier deadlock detected");
    TAP_OK(strstr(gs_last_error(c), "deadlock") != NULL, "deadlock message: %s", gs_last_error(c));
    gs_ctx_synchronize(c);
    TAP_EQ_I64(gs_mem_free(c, 12345), GS_ERR_INVALID_VALUE, "free of a bad pointer");
    gs_ctx_destroy(c);

    const char *ov[] = {"sim.mode=timing", NULL};
    gs_ctx *tc = gs_ctx_create(NULL, ov);
    TAP_OK(tc != NULL, "a timing-mode context is created (its behaviour: test_timing)");
    gs_ctx_destroy(tc);
    const char *ov2[] = {"gpu.bogus_key=1", NULL};
    TAP_OK(gs_ctx_create(NULL, ov2) == NULL, "unknown config key refused");
}

/* 32-bit shared addresses wrap modulo 2^32 (nvcc's strength-reduced loops
 * keep a register "below" the array and add a positive immediate); a
 * genuinely negative offset still faults. */
static const char *wrap_ptx = HDR
    ".shared .align 4 .b8 sm[64];\n"
    ".visible .entry wrapk(.param .u64 out, .param .u32 off)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n ld.param.u32 %r5, [off];\n"
    " mov.u32 %r1, sm;\n mov.u32 %r6, 77;\n st.shared.u32 [sm+4], %r6;\n"
    " sub.u32 %r2, %r1, 64;\n add.u32 %r2, %r2, %r5;\n"
    " ld.shared.u32 %r3, [%r2+68];\n st.global.u32 [%rd1], %r3;\n ret;\n}\n";

static void test_shared_wrap(gs_ctx *c)
{
    gs_module *m;
    gs_function *f = NULL;
    TAP_OK(gs_module_load_data(c, wrap_ptx, &m) == 0 && gs_module_get_function(m, "wrapk", &f) == 0,
           "wrap kernel loads");
    if (!f)
        return;
    uint64_t d;
    gs_mem_alloc(c, &d, 4);
    uint32_t off = 0, o = 0;
    void *args[] = {&d, &off};
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 1, 1, 1, 0, args), 0, "[%%r2+68] with %%r2 = sm - 64 runs");
    gs_memcpy_dtoh(c, &o, d, 4);
    TAP_EQ_U64(o, 77, "and reads sm[1] (address wraps modulo 2^32)");
    off = (uint32_t)-8; /* sm - 72 + 68 = sm - 4: below the window */
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 1, 1, 1, 0, args), GS_ERR_EXEC, "a negative shared offset faults");
    TAP_OK(strstr(gs_last_error(c), "out-of-bounds shared load") != NULL, "message: %s", gs_last_error(c));
    gs_ctx_synchronize(c);
    gs_mem_free(c, d);
}

/* gs_module_get_global: fill a .const array from the host, read it in a kernel. */
static const char *const_ptx = HDR
    ".const .align 4 .b8 coeffs[16];\n"
    ".global .align 4 .u32 counter = 5;\n"
    ".visible .entry readc(.param .u64 out)\n{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " ld.const.u32 %r1, [coeffs+8];\n ld.global.u32 %r2, [counter];\n add.u32 %r3, %r1, %r2;\n"
    " st.global.u32 [%rd1], %r3;\n ret;\n}\n";

static void test_get_global(gs_ctx *c)
{
    gs_module *m;
    gs_function *f = NULL;
    TAP_OK(gs_module_load_data(c, const_ptx, &m) == 0 && gs_module_get_function(m, "readc", &f) == 0,
           "const kernel loads");
    if (!f)
        return;
    uint64_t dc = 0, dg = 0;
    size_t nc = 0, ng = 0;
    TAP_EQ_I64(gs_module_get_global(m, "coeffs", &dc, &nc), 0, "get_global of a .const array");
    TAP_EQ_U64(nc, 16, "its size");
    TAP_EQ_I64(gs_module_get_global(m, "counter", &dg, &ng), 0, "get_global of a .global scalar");
    TAP_EQ_U64(ng, 4, "its size");
    uint32_t init = 0;
    gs_memcpy_dtoh(c, &init, dg, 4);
    TAP_EQ_U64(init, 5, "the .global initialiser is visible from the host");
    uint32_t vals[4] = {10, 20, 30, 40};
    TAP_EQ_I64(gs_memcpy_htod(c, dc, vals, sizeof vals), 0, "htod into the .const array");
    uint64_t d;
    gs_mem_alloc(c, &d, 4);
    uint32_t o = 0;
    void *args[] = {&d};
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 1, 1, 1, 0, args), 0, "kernel reads it");
    gs_memcpy_dtoh(c, &o, d, 4);
    TAP_EQ_U64(o, 35, "coeffs[2] + counter");
    TAP_EQ_I64(gs_module_get_global(m, "nope", &dc, NULL), GS_ERR_NOT_FOUND, "unknown variable");
    TAP_OK(strstr(gs_last_error(c), "nope") != NULL, "message names it: %s", gs_last_error(c));
    gs_mem_free(c, d);
}

/* Spin-waits: out[1] is a flag. CTA 1 sets it and CTA 0 waits for it (must
 * finish, since both are resident); with wait_only, nobody sets it and the
 * functional watchdog must stop the launch. */
static const char *spin_ptx = HDR
    ".visible .entry spin(.param .u64 out, .param .u32 wait_only)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " ld.param.u32 %r5, [wait_only];\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %tid.x;\n"
    " setp.ne.u32 %p1, %r2, 0;\n @%p1 bra DONE;\n"
    " setp.eq.u32 %p2, %r1, 1;\n setp.eq.u32 %p3, %r5, 0;\n and.pred %p2, %p2, %p3;\n"
    " @%p2 bra SETTER;\n"
    "WAIT:\n ld.volatile.global.u32 %r3, [%rd1+4];\n setp.eq.u32 %p1, %r3, 0;\n @%p1 bra WAIT;\n"
    " st.global.u32 [%rd1], %r3;\n bra DONE;\n"
    "SETTER:\n mov.u32 %r4, 42;\n st.volatile.global.u32 [%rd1+4], %r4;\n"
    "DONE:\n ret;\n}\n";

static void test_watchdog(void)
{
    const char *ov[] = {"sim.func_watchdog=2000", NULL};
    gs_ctx *c = gs_ctx_create(NULL, ov);
    gs_module *m;
    gs_function *f = NULL;
    TAP_OK(c && gs_module_load_data(c, spin_ptx, &m) == 0 && gs_module_get_function(m, "spin", &f) == 0,
           "spin kernel loads");
    if (!f) {
        gs_ctx_destroy(c);
        return;
    }
    uint64_t d;
    gs_mem_alloc(c, &d, 8);
    gs_memset_d8(c, d, 0, 8);
    uint32_t wait_only = 0, o[2] = {0, 0};
    void *args[] = {&d, &wait_only};
    TAP_EQ_I64(gs_launch_kernel(f, 2, 1, 1, 64, 1, 1, 0, args), 0, "spin on a flag another CTA sets: completes");
    gs_memcpy_dtoh(c, o, d, 8);
    TAP_EQ_U64(o[0], 42, "the waiter saw the flag's value");
    gs_memset_d8(c, d, 0, 8);
    wait_only = 1;
    TAP_EQ_I64(gs_launch_kernel(f, 2, 1, 1, 64, 1, 1, 0, args), GS_ERR_WATCHDOG,
               "spin on a flag nobody sets: GS_ERR_WATCHDOG");
    const char *e = gs_last_error(c);
    /* The spin loop is source lines 19-21; CTA 0 and 1's warp 0 spin, warps 1 finished. */
    TAP_OK(strstr(e, "watchdog") && strstr(e, "sim.func_watchdog") && strstr(e, "CTA (0,0,0) warp 0: pc") &&
               strstr(e, "CTA (1,0,0) warp 0: pc") && !strstr(e, "warp 1:") &&
               (strstr(e, "line 19,") || strstr(e, "line 20,") || strstr(e, "line 21,")),
           "message lists the spinning warps with PC and line: %.300s", e);
    gs_ctx_synchronize(c);
    gs_ctx_destroy(c);
}

static void test_two_contexts(void)
{
    gs_ctx *a = gs_ctx_create("gtx480", NULL), *b = gs_ctx_create(NULL, NULL);
    TAP_OK(a && b, "two contexts");
    uint32_t oa[64], ob[64];
    int ra = run_out(a, div_ptx, "divk", 1, 64, oa, 64);
    int rb = run_out(b, int_ptx, "ints", 1, 1, ob, 24);
    TAP_OK(ra == 0 && rb == 0 && oa[1] == div_ref(1) && ob[0] == 0x80000000u,
           "independent kernels in two contexts");
    uint64_t da, db;
    gs_mem_alloc(a, &da, 4);
    gs_mem_alloc(b, &db, 4);
    uint32_t x = 1, y = 2, rx = 0, ry = 0;
    gs_memcpy_htod(a, da, &x, 4);
    gs_memcpy_htod(b, db, &y, 4);
    gs_memcpy_dtoh(a, &rx, da, 4);
    gs_memcpy_dtoh(b, &ry, db, 4);
    TAP_OK(rx == 1 && ry == 2, "device memories are separate");
    TAP_EQ_I64(gs_memcpy_dtoh(a, &rx, da, 8), GS_ERR_INVALID_VALUE, "dtoh past the allocation refused");
    gs_ctx_destroy(a);
    gs_ctx_destroy(b);
}

/* out[i] = in[i] * 2 + 1 for one CTA of 256 threads. */
static const char *twice_ptx = HDR
    ".visible .entry twice(.param .u64 in, .param .u64 out)\n{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [in];\n ld.param.u64 %rd2, [out];\n mov.u32 %r1, %tid.x;\n"
    " mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd1, %rd3;\n add.s64 %rd5, %rd2, %rd3;\n"
    " ld.global.u32 %r2, [%rd4];\n mad.lo.u32 %r3, %r2, 2, 1;\n st.global.u32 [%rd5], %r3;\n ret;\n}\n";

/* gs_memcpy_dtod in functional mode: after a kernel, into a kernel,
 * overlapping ranges (memmove), and refused ranges. */
static void test_dtod(gs_ctx *c)
{
    enum { N = 256 };
    gs_module *m;
    gs_function *f = NULL;
    if (gs_module_load_data(c, twice_ptx, &m) || gs_module_get_function(m, "twice", &f)) {
        TAP_OK(0, "twice kernel loads: %s", gs_last_error(c));
        return;
    }
    uint32_t in[N], got[N], ref[N];
    for (unsigned i = 0; i < N; i++)
        in[i] = i * 11u + 3u;
    uint64_t da, db, dc;
    gs_mem_alloc(c, &da, sizeof in);
    gs_mem_alloc(c, &db, sizeof in);
    gs_mem_alloc(c, &dc, sizeof in);
    gs_memcpy_htod(c, da, in, sizeof in);
    void *args[] = {&da, &db};
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, N, 1, 1, 0, args), 0, "kernel writes b");
    TAP_EQ_I64(gs_memcpy_dtod(c, dc, db, sizeof in), 0, "DtoD b -> c");
    gs_memcpy_dtoh(c, got, dc, sizeof got);
    bool ok = true;
    for (unsigned i = 0; i < N; i++)
        ok = ok && got[i] == in[i] * 2u + 1u;
    TAP_OK(ok, "c holds what the kernel wrote to b");
    /* The copy feeds the next kernel: c -> a. */
    void *args2[] = {&dc, &da};
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, N, 1, 1, 0, args2), 0, "kernel reads c");
    gs_memcpy_dtoh(c, got, da, sizeof got);
    ok = true;
    for (unsigned i = 0; i < N; i++)
        ok = ok && got[i] == (in[i] * 2u + 1u) * 2u + 1u;
    TAP_OK(ok, "the kernel saw the copied bytes");
    /* Overlap inside c: memmove semantics, both directions, odd offsets. */
    gs_memcpy_dtoh(c, ref, dc, sizeof ref);
    memmove((uint8_t *)ref + 5, ref, sizeof ref - 5);
    TAP_EQ_I64(gs_memcpy_dtod(c, dc + 5, dc, sizeof ref - 5), 0, "overlapping DtoD upwards");
    gs_memcpy_dtoh(c, got, dc, sizeof got);
    TAP_OK(memcmp(got, ref, sizeof ref) == 0, "upward overlap copies as memmove");
    memmove(ref, (uint8_t *)ref + 9, sizeof ref - 9);
    TAP_EQ_I64(gs_memcpy_dtod(c, dc, dc + 9, sizeof ref - 9), 0, "overlapping DtoD downwards");
    gs_memcpy_dtoh(c, got, dc, sizeof got);
    TAP_OK(memcmp(got, ref, sizeof ref) == 0, "downward overlap copies as memmove");
    TAP_EQ_I64(gs_memcpy_dtod(c, dc, dc, sizeof ref), 0, "copy onto itself");
    /* Refused: nothing changes. */
    TAP_EQ_I64(gs_memcpy_dtod(c, dc, db, sizeof in + 1), GS_ERR_INVALID_VALUE, "source one byte past its allocation");
    TAP_CONTAINS(gs_last_error(c), "gs_memcpy_dtod (source)", "message: %s", gs_last_error(c));
    TAP_EQ_I64(gs_memcpy_dtod(c, dc + 1, db, sizeof in), GS_ERR_INVALID_VALUE,
               "destination one byte past its allocation");
    TAP_CONTAINS(gs_last_error(c), "gs_memcpy_dtod (destination)", "message: %s", gs_last_error(c));
    TAP_EQ_I64(gs_memcpy_dtod(c, dc, 0x10, 4), GS_ERR_INVALID_VALUE, "source outside device memory");
    uint64_t dfree;
    gs_mem_alloc(c, &dfree, 64);
    gs_mem_free(c, dfree);
    TAP_EQ_I64(gs_memcpy_dtod(c, dfree, db, 4), GS_ERR_INVALID_VALUE, "destination freed");
    gs_memcpy_dtoh(c, got, dc, sizeof got);
    TAP_OK(memcmp(got, ref, sizeof ref) == 0, "refused copies changed nothing");
    TAP_EQ_I64(gs_memcpy_dtod(NULL, dc, db, 4), GS_ERR_INVALID_VALUE, "NULL context");
    TAP_CONTAINS(gs_last_error(NULL), "gs_memcpy_dtod", "NULL context message: %s", gs_last_error(NULL));
    TAP_EQ_I64(gs_memcpy_dtod(c, 0, 0, 0), 0, "zero bytes: nothing to do");
    gs_mem_free(c, da);
    gs_mem_free(c, db);
    gs_mem_free(c, dc);
}

/* Special registers in a 3-D block (5 x 3 x 4 = 60 threads: the second
 * warp is partial and lanes wrap x and y inside a warp), read by lanes
 * of a divergent mask (odd linear ids skip the reads, so the fast path
 * for mov of a special register, NOTE(mov-sreg), sees a sparse mask):
 * out[t*8 + k] = tid.x, tid.y, tid.z, laneid, ntid.y, ctaid.y, warpid,
 * nctaid.x. */
static const char *sreg_ptx = HDR
    ".visible .entry sregs(.param .u64 out)\n{\n"
    " .reg .b32 %r<20>; .reg .b64 %rd<8>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %tid.y;\n mov.u32 %r3, %tid.z;\n"
    " mad.lo.u32 %r4, %r3, 3, %r2;\n mad.lo.u32 %r5, %r4, 5, %r1;\n" /* linear id */
    " mul.wide.u32 %rd2, %r5, 32;\n add.s64 %rd3, %rd1, %rd2;\n"
    " and.b32 %r6, %r5, 1;\n setp.ne.u32 %p1, %r6, 0;\n @%p1 bra SKIP;\n"
    " mov.u32 %r10, %tid.x;\n mov.u32 %r11, %tid.y;\n mov.u32 %r12, %tid.z;\n mov.u32 %r13, %laneid;\n"
    " mov.u32 %r14, %ntid.y;\n mov.u32 %r15, %ctaid.y;\n mov.u32 %r16, %warpid;\n mov.u32 %r17, %nctaid.x;\n"
    " st.global.v4.u32 [%rd3], {%r10, %r11, %r12, %r13};\n"
    " st.global.v4.u32 [%rd3+16], {%r14, %r15, %r16, %r17};\n"
    "SKIP:\n ret;\n}\n";

static void test_sregs(gs_ctx *c)
{
    gs_module *m;
    gs_function *f;
    uint64_t d;
    uint32_t o[60 * 8];
    int rc = gs_module_load_data(c, sreg_ptx, &m);
    rc = rc ? rc : gs_module_get_function(m, "sregs", &f);
    rc = rc ? rc : gs_mem_alloc(c, &d, sizeof o);
    TAP_OK(rc == 0, "sregs: module and buffer");
    if (rc)
        return;
    gs_memset_d8(c, d, 0xee, sizeof o);
    void *args[] = {&d};
    rc = gs_launch_kernel(f, 1, 1, 1, 5, 3, 4, 0, args);
    TAP_OK(rc == 0, "sregs: launch of a 5 x 3 x 4 block");
    gs_memcpy_dtoh(c, o, d, sizeof o);
    gs_mem_free(c, d);
    bool ok = true;
    for (uint32_t t = 0; t < 60 && ok; t++) {
        const uint32_t *e = o + t * 8;
        if (t & 1) {
            ok = e[0] == 0xeeeeeeeeu && e[7] == 0xeeeeeeeeu;
            continue;
        }
        uint32_t want[8] = {t % 5, t / 5 % 3, t / 15, t % 32, 3, 0, t / 32, 1};
        for (int k = 0; k < 8; k++)
            if (e[k] != want[k]) {
                tap_diag("thread %u value %d: %u, want %u", t, k, e[k], want[k]);
                ok = false;
            }
    }
    TAP_OK(ok, "tid.x/y/z, laneid, ntid, ctaid, warpid, nctaid in every even thread of a 3-D block");
}

int main(void)
{
    tap_no_plan();
    gs_ctx *c = gs_ctx_create(NULL, NULL);
    if (!c)
        tap_bail("context: %s", gs_last_error(NULL));
    test_ints(c);
    test_fps(c);
    test_divergence(c);
    test_shared_wrap(c);
    test_get_global(c);
    test_dtod(c);
    test_uninit(c);
    test_sregs(c);
    gs_ctx_destroy(c);
    test_bad_input();
    test_watchdog();
    test_two_contexts();
    return tap_exit();
}
