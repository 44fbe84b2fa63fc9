/* sim/ptx/ptx.h: public API of the PTX front-end.
 *
 * Turns PTX text (nvcc output, PTX ISA 7.x-9.x, sm_50+, 64-bit addressing)
 * into the pre-decoded module of sim/ptx/ir.h, then runs the analyses the
 * executor and timing model need: CFG + immediate post-dominators
 * (reconvergence PCs), liveness and register allocation (pass pipeline of
 * sim/ptx/passes/passes.c).
 *
 * Errors are user errors (error channel (a)): every problem found is added
 * to the caller's struct diag as "file:line:col: message" naming the
 * offending token, the parser recovers at the next ';' or line, and the
 * call returns PTX_ERR_PARSE with *out = NULL. The front-end never aborts
 * on bad input. Modules are independent (no shared mutable state), so
 * several may be parsed concurrently on different threads.
 */
#ifndef GPUSIM_SIM_PTX_PTX_H
#define GPUSIM_SIM_PTX_PTX_H

#include <stddef.h>
#include <stdio.h>

#include "sim/base/diag.h"
#include "sim/ptx/ir.h"

enum ptx_status {
    PTX_OK = 0,
    PTX_ERR_PARSE = -1, /* malformed or unsupported PTX; details in the diag */
    PTX_ERR_IO = -2,    /* file could not be read; details in the diag */
};

/* Upper bound on errors one parse reports before it stops (the diag may
 * also have its own limit). */
#define PTX_MAX_ERRORS 100

/* Parse text[0..len) (need not be NUL-terminated). filename is used in
 * messages and copied. On success *out is a new module (free it with
 * ptx_module_free) with CFG, liveness and register allocation done. */
int ptx_parse(const char *text, size_t len, const char *filename, struct ptx_module **out,
              struct diag *d);

/* Read path and parse it; then, if "<path>.regs" exists, apply it as the
 * register-count sidecar (ptx_apply_sidecar). */
int ptx_load_file(const char *path, struct ptx_module **out, struct diag *d);

/* Apply a register-count sidecar: one "<function-name> <registers>" pair per
 * line, '#' starts a comment, blank lines ignored (format written by
 * tests/ptx/regen.sh from `ptxas -v`). Sets regs_ptxas and regs_per_thread
 * of each named function. Unknown function names and malformed lines are
 * errors (file:line:col); returns PTX_OK or PTX_ERR_PARSE. */
int ptx_apply_sidecar(struct ptx_module *m, const char *text, size_t len, const char *filename,
                      struct diag *d);

void ptx_module_free(struct ptx_module *m);

/* Function (entry or .func) by name, NULL if absent. Linear in n_funcs. */
const struct ptx_func *ptx_module_find(const struct ptx_module *m, const char *name);
/* Index of a module variable by name, -1 if absent. */
int ptx_module_find_var(const struct ptx_module *m, const char *name);

/* Print a human-readable listing of a function (instructions with PCs,
 * blocks, reconvergence points, physical registers) for debugging. */
void ptx_func_dump(const struct ptx_func *fn, FILE *out);

#endif /* GPUSIM_SIM_PTX_PTX_H */
