/* sim/base/diag.h: collection of user-facing error messages (error channel (a)).
 *
 * Config loading and PTX parsing do not stop at the first problem: every
 * error is appended here with its location and the caller reports all of
 * them at once (exit 2 from the CLI, an error code plus gs_last_error() from
 * the API). Messages have the form "file:line[:col]: text"; the text names
 * the key or token involved. Not on any hot path: allocation is fine here.
 */
#ifndef GPUSIM_SIM_BASE_DIAG_H
#define GPUSIM_SIM_BASE_DIAG_H

#include <stddef.h>
#include <stdio.h>

#include "sim/base/common.h"

struct diag {
    char **msgs;   /* owned messages, in the order reported */
    size_t n;      /* messages held */
    size_t cap;    /* allocated slots */
    size_t limit;  /* stop storing after this many (0 = no limit); n_dropped counts the rest */
    size_t n_dropped;
};

void diag_init(struct diag *d);
void diag_fini(struct diag *d);
/* file may be NULL (no location); line <= 0 omits the line, col <= 0 the column. */
void diag_add(struct diag *d, const char *file, int line, int col, const char *fmt, ...)
    PRINTF_LIKE(5, 6);
static inline size_t diag_count(const struct diag *d) { return d->n + d->n_dropped; }
/* Print every message, one per line, prefixed with "gpusim: error: ". */
void diag_print(const struct diag *d, FILE *out);
/* All messages joined with '\n' (caller frees); "" when empty. */
char *diag_join(const struct diag *d);
void diag_clear(struct diag *d);

/* Damerau-free Levenshtein distance, for "did you mean" hints. */
size_t diag_edit_distance(const char *a, const char *b);

#endif /* GPUSIM_SIM_BASE_DIAG_H */
