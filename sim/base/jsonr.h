/* sim/base/jsonr.h: a small strict JSON reader (RFC 8259) into a tree.
 *
 * The counterpart of sim/base/json.h, for tools that read what gpusim wrote
 * (statistics files, sweep descriptions). It parses a whole document into an
 * immutable tree owned by one struct jr_doc; every node lives in the
 * document's arena and is freed with it.
 *
 * Strict on purpose, so that a damaged or hand-edited file is refused with a
 * message naming line and column instead of being half read: no comments, no
 * trailing commas, no leading zeros, no NaN/Infinity, no raw control
 * characters in strings, only valid UTF-8, surrogate pairs only as pairs, no
 * duplicate member names, nothing but whitespace after the top-level value.
 * Not supported: strings containing U+0000 (the tree holds C strings);
 * numbers are doubles (exact for integers up to 2^53), and a number outside
 * the range of a double is refused.
 *
 * Lookups are linear in the number of members: the documents read here have a
 * few hundred members per object at most.
 */
#ifndef GPUSIM_SIM_BASE_JSONR_H
#define GPUSIM_SIM_BASE_JSONR_H

#include <stdbool.h>
#include <stddef.h>

enum jr_type { JR_NULL, JR_BOOL, JR_NUMBER, JR_STRING, JR_ARRAY, JR_OBJECT };

struct jr_value;

/* One member of an object, in document order. */
struct jr_member {
    const char *key;              /* NUL-terminated member name (UTF-8) */
    const struct jr_value *value; /* its value */
};

struct jr_value {
    enum jr_type type; /* which member of u is valid */
    unsigned line;     /* 1-based line where the value starts, for messages */
    union {
        bool b;        /* JR_BOOL */
        double num;    /* JR_NUMBER */
        struct {
            const char *s; /* NUL-terminated, decoded UTF-8 */
            size_t len;    /* bytes, without the NUL */
        } str;         /* JR_STRING */
        struct {
            const struct jr_value *const *items; /* n items in order */
            size_t n;
        } arr;         /* JR_ARRAY */
        struct {
            const struct jr_member *m; /* n members in document order */
            size_t n;
        } obj;         /* JR_OBJECT */
    } u;
};

struct jr_doc;

/* Parse len bytes of text. Returns NULL on error with "line L, column C:
 * message" in err (columns count bytes from 1). */
struct jr_doc *jr_parse(const char *text, size_t len, char *err, size_t err_len);
/* Read and parse a file; on error the message starts with the path. */
struct jr_doc *jr_parse_file(const char *path, char *err, size_t err_len);
void jr_free(struct jr_doc *d);
const struct jr_value *jr_root(const struct jr_doc *d);

/* Member key of object v, or NULL (v NULL, not an object, or no such key). */
const struct jr_value *jr_get(const struct jr_value *v, const char *key);
/* Item i of array v, or NULL. */
const struct jr_value *jr_at(const struct jr_value *v, size_t i);
/* Items of an array or members of an object; 0 for anything else. */
size_t jr_len(const struct jr_value *v);
/* The string of a JR_STRING, else NULL. */
const char *jr_str(const struct jr_value *v);
/* The value of a JR_NUMBER into *out; false (out untouched) otherwise. */
bool jr_num(const struct jr_value *v, double *out);
/* "null", "boolean", "number", "string", "array" or "object". */
const char *jr_type_name(enum jr_type t);

#endif /* GPUSIM_SIM_BASE_JSONR_H */
