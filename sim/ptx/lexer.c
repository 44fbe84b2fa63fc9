/* sim/ptx/lexer.c: PTX tokenizer.
 *
 * Does: split PTX text into tokens with 1-based line/column, skip
 * whitespace and comments (line and block), read integer literals (decimal,
 * 0x hex, 0b binary, leading-0 octal, optional U suffix), float literals
 * (0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX, decimal with '.' or exponent), strings,
 * identifiers (which keep their dotted modifiers: "ld.global.v4.f32",
 * "%tid.x", and "::" inside a modifier: ".L2::128B"), directives (".reg").
 * Does not: know any PTX keyword, or build numbers with a leading '-'
 * (the parser applies unary minus). Lexical errors are reported once and
 * returned as TK_ERROR; the lexer always advances, so it cannot loop.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/internal.h"

void ptx_lex_init(struct ptx_lexer *lx, const char *text, size_t len, struct ptx_parser *ps)
{
    lx->p = text;
    lx->end = text + len;
    lx->line_start = text;
    lx->line = 1;
    lx->ps = ps;
}

static bool is_id_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%'; }
static bool is_id_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Skip spaces and comments; report an unterminated block comment. */
static void skip_space(struct ptx_lexer *lx)
{
    while (lx->p < lx->end) {
        char c = *lx->p;
        if (c == '\n') {
            lx->p++;
            lx->line++;
            lx->line_start = lx->p;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->p++;
        } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
            while (lx->p < lx->end && *lx->p != '\n')
                lx->p++;
        } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
            uint32_t line = lx->line, col = (uint32_t)(lx->p - lx->line_start) + 1;
            lx->p += 2;
            bool closed = false;
            while (lx->p < lx->end) {
                if (*lx->p == '*' && lx->p + 1 < lx->end && lx->p[1] == '/') {
                    lx->p += 2;
                    closed = true;
                    break;
                }
                if (*lx->p == '\n') {
                    lx->line++;
                    lx->line_start = lx->p + 1;
                }
                lx->p++;
            }
            if (!closed)
                ptx_error(lx->ps, line, col, "unterminated comment '/*'");
        } else {
            break;
        }
    }
}

/* Identifier tail: id chars, and '.' or "::" followed by an id char. */
static const char *scan_ident(const char *p, const char *end)
{
    while (p < end) {
        if (is_id_char((unsigned char)*p)) {
            p++;
        } else if (*p == '.' && p + 1 < end && is_id_char((unsigned char)p[1])) {
            p++;
        } else if (*p == ':' && p + 2 < end && p[1] == ':' && is_id_char((unsigned char)p[2])) {
            p += 2;
        } else {
            break;
        }
    }
    return p;
}

static void lex_number(struct ptx_lexer *lx, struct ptx_tok *t)
{
    const char *p = lx->p, *end = lx->end;
    /* 0f / 0d hexadecimal float bit patterns */
    if (p + 1 < end && p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
        unsigned want = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
        const char *q = p + 2;
        uint64_t bits = 0;
        unsigned n = 0;
        while (q < end && hexval((unsigned char)*q) >= 0) {
            bits = (bits << 4) | (uint64_t)hexval((unsigned char)*q);
            q++;
            n++;
        }
        while (q < end && is_id_char((unsigned char)*q))
            q++;
        t->s = p;
        t->len = (uint32_t)(q - p);
        lx->p = q;
        if (n != want) {
            ptx_error(lx->ps, t->line, t->col, "malformed float literal '%.*s' (want %u hex digits)",
                      (int)t->len, t->s, want);
            t->kind = TK_ERROR;
            return;
        }
        t->kind = TK_FLOAT;
        t->fwidth = (uint8_t)(want / 2);
        t->ival = bits;
        return;
    }
    /* decimal float? digits followed by '.' digit or exponent */
    const char *q = p;
    while (q < end && isdigit((unsigned char)*q))
        q++;
    bool is_float = false;
    if (q < end && *q == '.' && q + 1 < end && isdigit((unsigned char)q[1]))
        is_float = true;
    else if (q < end && (*q == 'e' || *q == 'E') && q + 1 < end &&
             (isdigit((unsigned char)q[1]) || q[1] == '-' || q[1] == '+') && !(p[0] == '0' && q - p > 1))
        is_float = true;
    if (is_float) {
        char buf[128];
        const char *r = q;
        if (*r == '.') {
            r++;
            while (r < end && isdigit((unsigned char)*r))
                r++;
        }
        if (r < end && (*r == 'e' || *r == 'E')) {
            const char *s = r + 1;
            if (s < end && (*s == '-' || *s == '+'))
                s++;
            if (s < end && isdigit((unsigned char)*s)) {
                r = s;
                while (r < end && isdigit((unsigned char)*r))
                    r++;
            }
        }
        size_t n = (size_t)(r - p);
        t->s = p;
        t->len = (uint32_t)n;
        lx->p = r;
        if (n >= sizeof buf) {
            ptx_error(lx->ps, t->line, t->col, "float literal too long");
            t->kind = TK_ERROR;
            return;
        }
        memcpy(buf, p, n);
        buf[n] = 0;
        t->kind = TK_FLOAT;
        t->fwidth = 0;
        t->fval = strtod(buf, NULL);
        return;
    }
    /* integers */
    uint64_t v = 0;
    bool overflow = false, bad = false;
    q = p;
    if (q + 1 < end && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
        q += 2;
        const char *ds = q;
        while (q < end && hexval((unsigned char)*q) >= 0) {
            if (v >> 60)
                overflow = true;
            v = (v << 4) | (uint64_t)hexval((unsigned char)*q);
            q++;
        }
        bad = q == ds;
    } else if (q + 1 < end && q[0] == '0' && (q[1] == 'b' || q[1] == 'B')) {
        q += 2;
        const char *ds = q;
        while (q < end && (*q == '0' || *q == '1')) {
            if (v >> 63)
                overflow = true;
            v = (v << 1) | (uint64_t)(*q - '0');
            q++;
        }
        bad = q == ds;
    } else if (q[0] == '0') {
        q++;
        while (q < end && *q >= '0' && *q <= '7') {
            if (v >> 61)
                overflow = true;
            v = (v << 3) | (uint64_t)(*q - '0');
            q++;
        }
    } else {
        while (q < end && isdigit((unsigned char)*q)) {
            uint64_t d = (uint64_t)(*q - '0');
            if (v > (UINT64_MAX - d) / 10)
                overflow = true;
            v = v * 10 + d;
            q++;
        }
    }
    if (q < end && (*q == 'U' || *q == 'u'))
        q++;
    if (q < end && is_id_char((unsigned char)*q)) {
        bad = true;
        while (q < end && is_id_char((unsigned char)*q))
            q++;
    }
    t->s = p;
    t->len = (uint32_t)(q - p);
    lx->p = q;
    if (bad || overflow) {
        ptx_error(lx->ps, t->line, t->col, "%s integer literal '%.*s'",
                  overflow ? "out-of-range" : "malformed", (int)t->len, t->s);
        t->kind = TK_ERROR;
        return;
    }
    t->kind = TK_INT;
    t->ival = v;
}

struct ptx_tok ptx_lex_next(struct ptx_lexer *lx)
{
    struct ptx_tok t;
    memset(&t, 0, sizeof t);
    skip_space(lx);
    t.line = lx->line;
    t.col = (uint32_t)(lx->p - lx->line_start) + 1;
    t.s = lx->p;
    if (lx->p >= lx->end) {
        t.kind = TK_EOF;
        return t;
    }
    unsigned char c = (unsigned char)*lx->p;
    const char *end = lx->end;
    if (is_id_start(c)) {
        const char *q = scan_ident(lx->p + 1, end);
        t.kind = TK_IDENT;
        t.len = (uint32_t)(q - lx->p);
        lx->p = q;
        if (t.len == 1 && (c == '%' || c == '$')) {
            ptx_error(lx->ps, t.line, t.col, "stray '%c'", c);
            t.kind = TK_ERROR;
        }
        return t;
    }
    if (c == '.' && lx->p + 1 < end && (isalpha((unsigned char)lx->p[1]) || lx->p[1] == '_')) {
        const char *q = scan_ident(lx->p + 1, end);
        t.kind = TK_DIR;
        t.len = (uint32_t)(q - lx->p);
        lx->p = q;
        return t;
    }
    if (isdigit(c)) {
        lex_number(lx, &t);
        return t;
    }
    if (c == '"') {
        const char *q = lx->p + 1;
        while (q < end && *q != '"' && *q != '\n')
            q++;
        if (q >= end || *q != '"') {
            ptx_error(lx->ps, t.line, t.col, "unterminated string");
            t.kind = TK_ERROR;
            t.len = (uint32_t)(q - lx->p);
            lx->p = q;
            return t;
        }
        t.kind = TK_STRING;
        t.len = (uint32_t)(q + 1 - lx->p);
        lx->p = q + 1;
        return t;
    }
    if (strchr(",;:{}[]()<>+-!|@=", c) && c != 0) {
        t.kind = TK_PUNCT;
        t.punct = (char)c;
        t.len = 1;
        lx->p++;
        return t;
    }
    if (isprint(c))
        ptx_error(lx->ps, t.line, t.col, "unexpected character '%c'", c);
    else
        ptx_error(lx->ps, t.line, t.col, "unexpected byte 0x%02x", c);
    t.kind = TK_ERROR;
    t.len = 1;
    lx->p++;
    return t;
}
