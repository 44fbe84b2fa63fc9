/* sim/base/jsonr.c: strict JSON reader; see jsonr.h.
 *
 * Recursive descent over the text, one function per grammar rule. Nodes,
 * member tables and decoded strings are bump-allocated from an arena of
 * blocks owned by the document; an array or object collects its children in
 * a temporary growable vector and copies it into the arena when it closes.
 * Errors stop the parse at the first problem (a reader cannot resynchronise
 * usefully) and name line and column.
 */
#include "sim/base/jsonr.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"

#define JR_MAX_DEPTH 256        /* nesting refused beyond this (arrays + objects) */
#define JR_BLOCK_BYTES 65536    /* default arena block payload */

struct jr_block {
    struct jr_block *next; /* older block */
    size_t used;           /* bytes handed out */
    size_t cap;            /* payload bytes */
    _Alignas(16) unsigned char data[];
};

struct jr_doc {
    struct jr_block *blocks;     /* newest first */
    const struct jr_value *root; /* top-level value */
};

struct jr_parser {
    const char *p;          /* next byte */
    const char *end;        /* one past the last byte */
    const char *line_start; /* first byte of the current line */
    unsigned line;          /* 1-based */
    unsigned depth;         /* open arrays and objects */
    struct jr_doc *doc;     /* destination */
    char *err;              /* message buffer */
    size_t err_len;
    bool failed;            /* an error was recorded */
};

/* ------------------------------------------------------------------ arena */

static void *arena_alloc(struct jr_doc *d, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    struct jr_block *b = d->blocks;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > JR_BLOCK_BYTES ? n : JR_BLOCK_BYTES;
        b = xmalloc(sizeof *b + cap);
        b->next = d->blocks;
        b->used = 0;
        b->cap = cap;
        d->blocks = b;
    }
    void *r = b->data + b->used;
    b->used += n;
    return r;
}

void jr_free(struct jr_doc *d)
{
    if (!d)
        return;
    for (struct jr_block *b = d->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(d);
}

/* ----------------------------------------------------------------- errors */

PRINTF_LIKE(3, 4) static void fail_at(struct jr_parser *ps, const char *at, const char *fmt, ...)
{
    if (ps->failed)
        return;
    ps->failed = true;
    int n = snprintf(ps->err, ps->err_len, "line %u, column %u: ", ps->line,
                     (unsigned)(at - ps->line_start) + 1);
    if (n < 0 || (size_t)n >= ps->err_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err + n, ps->err_len - (size_t)n, fmt, ap);
    va_end(ap);
}

/* What is at p, for messages. */
static const char *describe(const struct jr_parser *ps, const char *p, char *buf, size_t n)
{
    if (p >= ps->end)
        return "end of input";
    unsigned char c = (unsigned char)*p;
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, n, "'%c'", c);
    else
        snprintf(buf, n, "byte 0x%02x", c);
    return buf;
}

static void skip_ws(struct jr_parser *ps)
{
    while (ps->p < ps->end) {
        char c = *ps->p;
        if (c == '\n') {
            ps->line++;
            ps->line_start = ++ps->p;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            ps->p++;
        } else {
            break;
        }
    }
}

static struct jr_value *new_value(struct jr_parser *ps, enum jr_type t)
{
    struct jr_value *v = arena_alloc(ps->doc, sizeof *v);
    memset(v, 0, sizeof *v);
    v->type = t;
    v->line = ps->line;
    return v;
}

/* ---------------------------------------------------------------- strings */

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Length of the valid UTF-8 sequence at p (lead byte >= 0x80), or 0. */
static size_t utf8_seq(const unsigned char *p, const unsigned char *end)
{
    unsigned char c = p[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f; /* no encoded surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if ((size_t)(end - p) < n)
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    return n;
}

static char *put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) {
        *o++ = (char)cp;
    } else if (cp < 0x800) {
        *o++ = (char)(0xc0 | (cp >> 6));
        *o++ = (char)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        *o++ = (char)(0xe0 | (cp >> 12));
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
        *o++ = (char)(0x80 | (cp & 0x3f));
    } else {
        *o++ = (char)(0xf0 | (cp >> 18));
        *o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
        *o++ = (char)(0x80 | (cp & 0x3f));
    }
    return o;
}

/* ps->p is at the opening quote. Decodes into the arena; sets *len. */
static const char *parse_string(struct jr_parser *ps, size_t *len)
{
    const char *open = ps->p++;
    /* First pass: find the closing quote, to size the buffer (decoding never
     * makes a string longer than its escaped form). */
    const char *q = ps->p;
    while (q < ps->end && *q != '"')
        q += (*q == '\\' && q + 1 < ps->end) ? 2 : 1;
    if (q >= ps->end) {
        fail_at(ps, open, "unterminated string");
        return NULL;
    }
    char *buf = arena_alloc(ps->doc, (size_t)(q - ps->p) + 1);
    char *o = buf;
    while (ps->p < q) {
        const unsigned char c = (unsigned char)*ps->p;
        if (c < 0x20) {
            fail_at(ps, ps->p, "control character 0x%02x in a string (escape it)", c);
            return NULL;
        }
        if (c >= 0x80) {
            size_t n = utf8_seq((const unsigned char *)ps->p, (const unsigned char *)q);
            if (!n) {
                fail_at(ps, ps->p, "invalid UTF-8 in a string");
                return NULL;
            }
            memcpy(o, ps->p, n);
            o += n;
            ps->p += n;
            continue;
        }
        if (c != '\\') {
            *o++ = (char)c;
            ps->p++;
            continue;
        }
        const char *esc = ps->p;
        char e = ps->p[1];
        ps->p += 2;
        switch (e) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            int h = q - ps->p >= 4 ? hex4(ps->p) : -1;
            if (h < 0) {
                fail_at(ps, esc, "\\u needs four hex digits");
                return NULL;
            }
            ps->p += 4;
            uint32_t cp = (uint32_t)h;
            if (cp >= 0xdc00 && cp <= 0xdfff) {
                fail_at(ps, esc, "lone low surrogate \\u%04x", (unsigned)cp);
                return NULL;
            }
            if (cp >= 0xd800 && cp <= 0xdbff) {
                int lo = (q - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u') ? hex4(ps->p + 2) : -1;
                if (lo < 0xdc00 || lo > 0xdfff) {
                    fail_at(ps, esc, "high surrogate \\u%04x not followed by a low surrogate", (unsigned)cp);
                    return NULL;
                }
                ps->p += 6;
                cp = 0x10000 + ((cp - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
            }
            if (cp == 0) {
                fail_at(ps, esc, "\\u0000 is not supported");
                return NULL;
            }
            o = put_utf8(o, cp);
            break;
        }
        default:
            fail_at(ps, esc, "invalid escape '\\%c'", e >= 0x20 && e < 0x7f ? e : '?');
            return NULL;
        }
    }
    *o = 0;
    ps->p = q + 1;
    *len = (size_t)(o - buf);
    return buf;
}

/* ---------------------------------------------------------------- numbers */

static bool is_digit(const char *p, const char *end) { return p < end && *p >= '0' && *p <= '9'; }

static struct jr_value *parse_number(struct jr_parser *ps)
{
    const char *s = ps->p, *p = ps->p;
    if (p < ps->end && *p == '-')
        p++;
    if (!is_digit(p, ps->end)) {
        fail_at(ps, p, "a number needs a digit here");
        return NULL;
    }
    if (*p == '0') {
        p++;
        if (is_digit(p, ps->end)) {
            fail_at(ps, s, "leading zero in a number");
            return NULL;
        }
    } else {
        while (is_digit(p, ps->end))
            p++;
    }
    if (p < ps->end && *p == '.') {
        p++;
        if (!is_digit(p, ps->end)) {
            fail_at(ps, p, "a digit must follow the decimal point");
            return NULL;
        }
        while (is_digit(p, ps->end))
            p++;
    }
    if (p < ps->end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < ps->end && (*p == '+' || *p == '-'))
            p++;
        if (!is_digit(p, ps->end)) {
            fail_at(ps, p, "an exponent needs a digit");
            return NULL;
        }
        while (is_digit(p, ps->end))
            p++;
    }
    size_t n = (size_t)(p - s);
    char small[64];
    char *tmp = n < sizeof small ? small : xmalloc(n + 1);
    memcpy(tmp, s, n);
    tmp[n] = 0;
    double v = strtod(tmp, NULL);
    if (tmp != small)
        free(tmp);
    if (isinf(v)) {
        fail_at(ps, s, "number out of the range of a double");
        return NULL;
    }
    struct jr_value *r = new_value(ps, JR_NUMBER);
    r->u.num = v;
    ps->p = p;
    return r;
}

/* --------------------------------------------------------------- values */

static struct jr_value *parse_value(struct jr_parser *ps);

/* A growable vector of pointers or members, freed by the caller. */
struct jr_vec {
    void *items;  /* elements of esize bytes */
    size_t n;     /* used */
    size_t cap;   /* allocated */
    size_t esize; /* bytes per element */
};

static void *vec_push(struct jr_vec *v)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 16;
        v->items = xrealloc(v->items, v->cap * v->esize);
    }
    return (char *)v->items + v->esize * v->n++;
}

static void *vec_to_arena(struct jr_parser *ps, const struct jr_vec *v)
{
    void *r = arena_alloc(ps->doc, v->n * v->esize + 1);
    if (v->n)
        memcpy(r, v->items, v->n * v->esize);
    return r;
}

static struct jr_value *parse_array(struct jr_parser *ps)
{
    struct jr_value *arr = new_value(ps, JR_ARRAY);
    struct jr_vec v = {NULL, 0, 0, sizeof(struct jr_value *)};
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == ']') {
        ps->p++;
        return arr;
    }
    for (;;) {
        struct jr_value *item = parse_value(ps);
        if (!item)
            break;
        *(struct jr_value **)vec_push(&v) = item;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            skip_ws(ps);
            if (ps->p < ps->end && *ps->p == ']') {
                fail_at(ps, ps->p, "trailing comma in an array");
                break;
            }
            continue;
        }
        if (ps->p < ps->end && *ps->p == ']') {
            ps->p++;
            arr->u.arr.items = vec_to_arena(ps, &v);
            arr->u.arr.n = v.n;
            free(v.items);
            return arr;
        }
        char b[16];
        fail_at(ps, ps->p, "expected ',' or ']' after an array item, found %s", describe(ps, ps->p, b, sizeof b));
        break;
    }
    free(v.items);
    return NULL;
}

static struct jr_value *parse_object(struct jr_parser *ps)
{
    struct jr_value *obj = new_value(ps, JR_OBJECT);
    struct jr_vec v = {NULL, 0, 0, sizeof(struct jr_member)};
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == '}') {
        ps->p++;
        return obj;
    }
    for (;;) {
        char b[16];
        if (ps->p >= ps->end || *ps->p != '"') {
            fail_at(ps, ps->p, "expected a member name in double quotes, found %s", describe(ps, ps->p, b, sizeof b));
            break;
        }
        const char *kat = ps->p;
        size_t klen;
        const char *key = parse_string(ps, &klen);
        if (!key)
            break;
        const struct jr_member *prev = v.items;
        bool dup = false;
        for (size_t i = 0; i < v.n && !dup; i++)
            dup = strcmp(prev[i].key, key) == 0;
        if (dup) {
            fail_at(ps, kat, "duplicate member name \"%s\"", key);
            break;
        }
        skip_ws(ps);
        if (ps->p >= ps->end || *ps->p != ':') {
            fail_at(ps, ps->p, "expected ':' after member name \"%s\", found %s", key, describe(ps, ps->p, b, sizeof b));
            break;
        }
        ps->p++;
        struct jr_value *val = parse_value(ps);
        if (!val)
            break;
        struct jr_member *m = vec_push(&v);
        m->key = key;
        m->value = val;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            skip_ws(ps);
            if (ps->p < ps->end && *ps->p == '}') {
                fail_at(ps, ps->p, "trailing comma in an object");
                break;
            }
            continue;
        }
        if (ps->p < ps->end && *ps->p == '}') {
            ps->p++;
            obj->u.obj.m = vec_to_arena(ps, &v);
            obj->u.obj.n = v.n;
            free(v.items);
            return obj;
        }
        fail_at(ps, ps->p, "expected ',' or '}' after a member, found %s", describe(ps, ps->p, b, sizeof b));
        break;
    }
    free(v.items);
    return NULL;
}

static bool literal(struct jr_parser *ps, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) >= n && !memcmp(ps->p, word, n)) {
        ps->p += n;
        return true;
    }
    return false;
}

static struct jr_value *parse_value(struct jr_parser *ps)
{
    skip_ws(ps);
    char b[16];
    if (ps->p >= ps->end) {
        fail_at(ps, ps->p, "expected a value, found end of input");
        return NULL;
    }
    struct jr_value *v = NULL;
    switch (*ps->p) {
    case '{':
    case '[':
        if (ps->depth == JR_MAX_DEPTH) {
            fail_at(ps, ps->p, "nesting deeper than %d", JR_MAX_DEPTH);
            return NULL;
        }
        ps->depth++;
        v = *ps->p == '{' ? parse_object(ps) : parse_array(ps);
        ps->depth--;
        return v;
    case '"': {
        unsigned line = ps->line;
        size_t len;
        const char *s = parse_string(ps, &len);
        if (!s)
            return NULL;
        v = new_value(ps, JR_STRING);
        v->line = line;
        v->u.str.s = s;
        v->u.str.len = len;
        return v;
    }
    case 't':
    case 'f':
        {
            bool t = literal(ps, "true");
            if (t || literal(ps, "false")) {
                v = new_value(ps, JR_BOOL);
                v->u.b = t;
                return v;
            }
        }
        break;
    case 'n':
        if (literal(ps, "null"))
            return new_value(ps, JR_NULL);
        break;
    default:
        if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
            return parse_number(ps);
        break;
    }
    fail_at(ps, ps->p, "expected a value, found %s", describe(ps, ps->p, b, sizeof b));
    return NULL;
}

/* ------------------------------------------------------------------- API */

struct jr_doc *jr_parse(const char *text, size_t len, char *err, size_t err_len)
{
    char none[1]; /* message sink when the caller passes no buffer */
    struct jr_doc *d = xcalloc(1, sizeof *d);
    struct jr_parser ps = {text, text + len, text, 1, 0, d, err_len ? err : none, err_len ? err_len : 1, false};
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
        fail_at(&ps, text, "byte order mark at the start (not allowed in JSON)");
        jr_free(d);
        return NULL;
    }
    d->root = parse_value(&ps);
    if (d->root) {
        skip_ws(&ps);
        if (ps.p < ps.end) {
            char b[16];
            fail_at(&ps, ps.p, "unexpected %s after the top-level value", describe(&ps, ps.p, b, sizeof b));
        }
    }
    if (ps.failed || !d->root) {
        jr_free(d);
        return NULL;
    }
    return d;
}

struct jr_doc *jr_parse_file(const char *path, char *err, size_t err_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_len, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0, k;
    char *buf = xmalloc(cap);
    while ((k = fread(buf + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap)
            buf = xrealloc(buf, cap *= 2);
    }
    bool rerr = ferror(f) != 0;
    fclose(f);
    if (rerr) {
        snprintf(err, err_len, "%s: read error", path);
        free(buf);
        return NULL;
    }
    char msg[512];
    struct jr_doc *d = jr_parse(buf, len, msg, sizeof msg);
    free(buf);
    if (!d)
        snprintf(err, err_len, "%s: %s", path, msg);
    return d;
}

const struct jr_value *jr_root(const struct jr_doc *d) { return d ? d->root : NULL; }

const struct jr_value *jr_get(const struct jr_value *v, const char *key)
{
    if (!v || v->type != JR_OBJECT)
        return NULL;
    for (size_t i = 0; i < v->u.obj.n; i++)
        if (!strcmp(v->u.obj.m[i].key, key))
            return v->u.obj.m[i].value;
    return NULL;
}

const struct jr_value *jr_at(const struct jr_value *v, size_t i)
{
    if (!v || v->type != JR_ARRAY || i >= v->u.arr.n)
        return NULL;
    return v->u.arr.items[i];
}

size_t jr_len(const struct jr_value *v)
{
    if (!v)
        return 0;
    return v->type == JR_ARRAY ? v->u.arr.n : v->type == JR_OBJECT ? v->u.obj.n : 0;
}

const char *jr_str(const struct jr_value *v) { return v && v->type == JR_STRING ? v->u.str.s : NULL; }

bool jr_num(const struct jr_value *v, double *out)
{
    if (!v || v->type != JR_NUMBER)
        return false;
    *out = v->u.num;
    return true;
}

const char *jr_type_name(enum jr_type t)
{
    switch (t) {
    case JR_NULL: return "null";
    case JR_BOOL: return "boolean";
    case JR_NUMBER: return "number";
    case JR_STRING: return "string";
    case JR_ARRAY: return "array";
    case JR_OBJECT: return "object";
    }
    return "?";
}
