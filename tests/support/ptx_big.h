/* tests/support/ptx_big.h: a synthetic large PTX kernel, shared by the
 * front-end test (tests/test_ptx_parse.c: it parses and its analyses are
 * valid) and the front-end speed benchmark (bench/func.c, section (c): how
 * long parsing and each built-in pass take; timing is never asserted in a
 * test).
 *
 * The kernel "big" has `lines` straight-line `add.s32` instructions over
 * 1,999 32-bit registers, with a compare and a backward branch every 50
 * lines (so liveness iterates over loops), about 10,200 instructions for
 * 10,000 lines. Nearly every register is live nearly everywhere: the worst
 * case for the per-instruction live sets (2,000 bits each) and for the
 * interference matrices of regalloc and slots. Returns a malloc'd buffer
 * the caller frees; *len is its length.
 */
#ifndef GPUSIM_TESTS_PTX_BIG_H
#define GPUSIM_TESTS_PTX_BIG_H

#include <stdio.h>
#include <stdlib.h>

static inline char *ptx_big_kernel(int lines, size_t *len_out)
{
    size_t cap = 1 << 20, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        abort();
    len += (size_t)snprintf(buf + len, cap - len,
                            ".version 8.0\n.target sm_80\n.address_size 64\n"
                            ".entry big(.param .u64 p)\n{\n .reg .pred %%p<2>;\n"
                            " .reg .b32 %%r<2000>;\n .reg .b64 %%rd<3>;\n"
                            " ld.param.u64 %%rd1, [p];\n");
    for (int i = 1; i < lines; i++) {
        if (len + 200 > cap) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb)
                abort();
            buf = nb;
        }
        int r = i % 1999 + 1, q = (i * 7) % 1999 + 1;
        if (i % 50 == 0)
            len += (size_t)snprintf(buf + len, cap - len, "L%d:\n setp.lt.s32 %%p1, %%r%d, %d;\n @%%p1 bra L%d;\n",
                                    i, r, i, i - 50 > 0 ? i - 50 : i);
        else
            len += (size_t)snprintf(buf + len, cap - len, " add.s32 %%r%d, %%r%d, %d;\n", r, q, i);
    }
    if (len + 200 > cap) {
        char *nb = realloc(buf, cap + 200);
        if (!nb)
            abort();
        buf = nb;
        cap += 200;
    }
    len += (size_t)snprintf(buf + len, cap - len, " st.global.u32 [%%rd1], %%r5;\n ret;\n}\n");
    *len_out = len;
    return buf;
}

#endif
