/* sim/base/json.h: streaming JSON writer and atomic file output.
 *
 * Deterministic by construction: keys are written in the order the caller
 * gives them, integers exactly, doubles with "%.17g" (NaN and infinities as
 * null), strings escaped per RFC 8259. Output is pretty-printed with two
 * spaces of indent so that files diff well and the "host" object (written
 * last by the stats writer) can be cut off line-wise.
 *
 * json_write_atomic writes to "<path>.tmp.<pid>", flushes, fsyncs and
 * renames over path, so a reader never sees a partial file.
 */
#ifndef GPUSIM_SIM_BASE_JSON_H
#define GPUSIM_SIM_BASE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 64

struct json_writer {
    FILE *f;                          /* destination */
    int depth;                        /* current nesting */
    bool first[JSON_MAX_DEPTH];       /* no member written yet at this depth */
    bool in_array[JSON_MAX_DEPTH];    /* container at this depth is an array */
};

void jw_init(struct json_writer *w, FILE *f);
/* key is the member name inside an object, NULL inside an array or at top level. */
void jw_obj_begin(struct json_writer *w, const char *key);
void jw_obj_end(struct json_writer *w);
void jw_arr_begin(struct json_writer *w, const char *key);
void jw_arr_end(struct json_writer *w);
void jw_u64(struct json_writer *w, const char *key, uint64_t v);
void jw_i64(struct json_writer *w, const char *key, int64_t v);
void jw_double(struct json_writer *w, const char *key, double v);
void jw_bool(struct json_writer *w, const char *key, bool v);
void jw_str(struct json_writer *w, const char *key, const char *s);
void jw_null(struct json_writer *w, const char *key);
/* Ends the document with a newline. */
void jw_finish(struct json_writer *w);

/* Write a file atomically: fn writes the document to w. Returns 0, or -1 with
 * a message in err (the temporary file is removed on failure). */
typedef void (*json_doc_fn)(struct json_writer *w, void *arg);
int json_write_atomic(const char *path, json_doc_fn fn, void *arg, char *err, size_t err_len);

#endif /* GPUSIM_SIM_BASE_JSON_H */
