/* sim/base/diag.c: error message collection; see diag.h. */
#include "sim/base/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void diag_init(struct diag *d) { memset(d, 0, sizeof *d); }

void diag_clear(struct diag *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->msgs[i]);
    d->n = 0;
    d->n_dropped = 0;
}

void diag_fini(struct diag *d)
{
    diag_clear(d);
    free(d->msgs);
    d->msgs = NULL;
    d->cap = 0;
}

void diag_add(struct diag *d, const char *file, int line, int col, const char *fmt, ...)
{
    char prefix[512] = "";
    char body[2048];
    va_list ap;

    if (d->limit && d->n >= d->limit) {
        d->n_dropped++;
        return;
    }
    if (file && line > 0 && col > 0)
        snprintf(prefix, sizeof prefix, "%s:%d:%d: ", file, line, col);
    else if (file && line > 0)
        snprintf(prefix, sizeof prefix, "%s:%d: ", file, line);
    else if (file)
        snprintf(prefix, sizeof prefix, "%s: ", file);
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);

    if (d->n == d->cap) {
        size_t ncap = d->cap ? d->cap * 2 : 8;
        char **nm = realloc(d->msgs, ncap * sizeof *nm);
        if (!nm)
            sim_panic("out of memory growing diagnostics");
        d->msgs = nm;
        d->cap = ncap;
    }
    size_t len = strlen(prefix) + strlen(body) + 1;
    char *m = malloc(len);
    if (!m)
        sim_panic("out of memory in diag_add");
    snprintf(m, len, "%s%s", prefix, body);
    d->msgs[d->n++] = m;
}

void diag_print(const struct diag *d, FILE *out)
{
    for (size_t i = 0; i < d->n; i++)
        fprintf(out, "gpusim: error: %s\n", d->msgs[i]);
    if (d->n_dropped)
        fprintf(out, "gpusim: error: ... and %zu more errors\n", d->n_dropped);
}

char *diag_join(const struct diag *d)
{
    size_t len = 1;
    for (size_t i = 0; i < d->n; i++)
        len += strlen(d->msgs[i]) + 1;
    char *s = malloc(len + 64);
    if (!s)
        sim_panic("out of memory in diag_join");
    s[0] = 0;
    size_t pos = 0;
    for (size_t i = 0; i < d->n; i++) {
        size_t l = strlen(d->msgs[i]);
        memcpy(s + pos, d->msgs[i], l);
        pos += l;
        if (i + 1 < d->n)
            s[pos++] = '\n';
    }
    s[pos] = 0;
    if (d->n_dropped)
        snprintf(s + pos, 64, "\n... and %zu more errors", d->n_dropped);
    return s;
}

size_t diag_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t *row = malloc((lb + 1) * sizeof *row);
    if (!row)
        sim_panic("out of memory in diag_edit_distance");
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag_prev = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t best = diag_prev + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag_prev = up;
        }
    }
    size_t r = row[lb];
    free(row);
    return r;
}
