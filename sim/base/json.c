/* sim/base/json.c: streaming JSON writer; see json.h. */
#include "sim/base/json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/base/common.h"

void jw_init(struct json_writer *w, FILE *f)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->first[0] = true;
}

static void indent(struct json_writer *w)
{
    fputc('\n', w->f);
    for (int i = 0; i < w->depth; i++)
        fputs("  ", w->f);
}

static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* Separator, indentation and member name before a value. */
static void member(struct json_writer *w, const char *key)
{
    if (w->depth == 0) {
        SIM_ASSERT(w->first[0], "json: second top-level value");
        w->first[0] = false;
        return;
    }
    if (!w->first[w->depth])
        fputc(',', w->f);
    w->first[w->depth] = false;
    indent(w);
    if (!w->in_array[w->depth]) {
        SIM_ASSERT(key != NULL, "json: object member without a name");
        put_string(w->f, key);
        fputs(": ", w->f);
    }
}

static void jw_open(struct json_writer *w, const char *key, char c, bool array)
{
    member(w, key);
    fputc(c, w->f);
    SIM_ASSERT(w->depth + 1 < JSON_MAX_DEPTH, "json: nesting deeper than %d", JSON_MAX_DEPTH);
    w->depth++;
    w->first[w->depth] = true;
    w->in_array[w->depth] = array;
}

static void jw_close(struct json_writer *w, char c)
{
    SIM_ASSERT(w->depth > 0, "json: close without open");
    bool empty = w->first[w->depth];
    w->depth--;
    if (!empty)
        indent(w);
    fputc(c, w->f);
}

void jw_obj_begin(struct json_writer *w, const char *key) { jw_open(w, key, '{', false); }
void jw_obj_end(struct json_writer *w) { jw_close(w, '}'); }
void jw_arr_begin(struct json_writer *w, const char *key) { jw_open(w, key, '[', true); }
void jw_arr_end(struct json_writer *w) { jw_close(w, ']'); }

void jw_u64(struct json_writer *w, const char *key, uint64_t v)
{
    member(w, key);
    fprintf(w->f, "%llu", (unsigned long long)v);
}

void jw_i64(struct json_writer *w, const char *key, int64_t v)
{
    member(w, key);
    fprintf(w->f, "%lld", (long long)v);
}

void jw_double(struct json_writer *w, const char *key, double v)
{
    member(w, key);
    if (isnan(v) || isinf(v))
        fputs("null", w->f);
    else
        fprintf(w->f, "%.17g", v);
}

void jw_bool(struct json_writer *w, const char *key, bool v)
{
    member(w, key);
    fputs(v ? "true" : "false", w->f);
}

void jw_str(struct json_writer *w, const char *key, const char *s)
{
    member(w, key);
    put_string(w->f, s ? s : "");
}

void jw_null(struct json_writer *w, const char *key)
{
    member(w, key);
    fputs("null", w->f);
}

void jw_finish(struct json_writer *w)
{
    SIM_ASSERT(w->depth == 0, "json: %d containers left open", w->depth);
    fputc('\n', w->f);
}

int json_write_atomic(const char *path, json_doc_fn fn, void *arg, char *err, size_t err_len)
{
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, err_len, "cannot create %s: %s", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    struct json_writer w;
    jw_init(&w, f);
    fn(&w, arg);
    jw_finish(&w);
    errno = 0;
    int bad = ferror(f);
    if (fflush(f) != 0 || fsync(fileno(f)) != 0)
        bad = 1;
    int saved = errno;
    if (fclose(f) != 0)
        bad = 1;
    if (bad) {
        snprintf(err, err_len, "cannot write %s: %s", tmp, strerror(saved ? saved : EIO));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        snprintf(err, err_len, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}
