/* tests/fuzz/ptx_fuzz.c: libFuzzer target for the PTX front-end.
 *
 * Feeds arbitrary bytes to ptx_parse() (lexer, parser, decoder, layout,
 * CFG, liveness, register allocation) and, when the input parses, to the
 * sidecar reader and the disassembler, so every stage sees fuzzed modules.
 * Any crash, sanitizer report, leak or timeout is a bug: bad input must
 * only ever produce diagnostics.
 *
 * Build (the lead wires this into CMake under GPUSIM_FUZZ):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. \
 *       tests/fuzz/ptx_fuzz.c sim/ptx/[a-z]*.c sim/base/diag.c sim/base/common.c -lm -o ptx_fuzz
 *   ./ptx_fuzz -max_total_time=60 -max_len=65536 tests/ptx   (seed corpus)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct diag d;
    diag_init(&d);
    struct ptx_module *m = NULL;
    int rc = ptx_parse((const char *)data, size, "fuzz.ptx", &m, &d);
    if ((rc == PTX_OK) != (m != NULL) || (rc == PTX_OK) != (diag_count(&d) == 0))
        abort(); /* status, module and diagnostics must agree */
    if (m) {
        char buf[512];
        for (uint32_t f = 0; f < m->n_funcs; f++) {
            const struct ptx_func *fn = &m->funcs[f];
            for (uint32_t i = 0; i < fn->n_insns; i++)
                ptx_insn_format(fn, &fn->insns[i], buf, sizeof buf);
        }
        /* reuse the input as a register sidecar too */
        ptx_apply_sidecar(m, (const char *)data, size, "fuzz.ptx.regs", &d);
    }
    ptx_module_free(m);
    diag_fini(&d);
    return 0;
}
