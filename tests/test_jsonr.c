/* tests/test_jsonr.c: the strict JSON reader (sim/base/jsonr.c).
 *
 * Valid documents parse into the expected tree (every value type, escapes,
 * surrogate pairs, raw UTF-8, line numbers); what the writer
 * (sim/base/json.c) writes reads back to the same values; and every kind of
 * malformed input is refused with a message naming line and column.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/base/common.h"
#include "sim/base/json.h"
#include "sim/base/jsonr.h"
#include "tap.h"

static struct jr_doc *parse(const char *text, char *err, size_t n) { return jr_parse(text, strlen(text), err, n); }

static void test_values(void)
{
    const char *text = "{\n"
                       "  \"int\": 42, \"neg\": -7, \"frac\": 0.25, \"exp\": 1.5e3, \"big\": 9007199254740992,\n"
                       "  \"t\": true, \"f\": false, \"n\": null,\n"
                       "  \"s\": \"a\\\"b\\\\c\\/d\\n\\t\\u00e9\\ud83d\\ude00\",\n"
                       "  \"raw\": \"\xc3\xa9\xe2\x82\xac\",\n"
                       "  \"arr\": [1, [], {}, \"x\"],\n"
                       "  \"l1d.loads\": {\"total\": 3}\n"
                       "}";
    char err[256] = "";
    struct jr_doc *d = parse(text, err, sizeof err);
    TAP_OK(d != NULL, "a document with every value type parses (%s)", err);
    if (!d)
        return;
    const struct jr_value *r = jr_root(d);
    double v = 0;
    TAP_OK(r->type == JR_OBJECT && jr_len(r) == 12, "root is an object of 12 members");
    TAP_OK(jr_num(jr_get(r, "int"), &v) && v == 42, "integer");
    TAP_OK(jr_num(jr_get(r, "neg"), &v) && v == -7, "negative");
    TAP_OK(jr_num(jr_get(r, "frac"), &v) && v == 0.25, "fraction");
    TAP_OK(jr_num(jr_get(r, "exp"), &v) && v == 1500, "exponent");
    TAP_OK(jr_num(jr_get(r, "big"), &v) && v == 9007199254740992.0, "2^53 exactly");
    TAP_OK(jr_get(r, "t")->type == JR_BOOL && jr_get(r, "t")->u.b, "true");
    TAP_OK(jr_get(r, "f")->type == JR_BOOL && !jr_get(r, "f")->u.b, "false");
    TAP_OK(jr_get(r, "n")->type == JR_NULL, "null");
    TAP_STREQ(jr_str(jr_get(r, "s")), "a\"b\\c/d\n\t\xc3\xa9\xf0\x9f\x98\x80", "escapes and a surrogate pair decode to UTF-8");
    TAP_EQ_U64(jr_get(r, "s")->u.str.len, 15, "decoded string length");
    TAP_STREQ(jr_str(jr_get(r, "raw")), "\xc3\xa9\xe2\x82\xac", "raw UTF-8 is kept");
    const struct jr_value *arr = jr_get(r, "arr");
    TAP_OK(arr->type == JR_ARRAY && jr_len(arr) == 4, "array of 4");
    TAP_OK(jr_at(arr, 1)->type == JR_ARRAY && jr_len(jr_at(arr, 1)) == 0, "empty array");
    TAP_OK(jr_at(arr, 2)->type == JR_OBJECT && jr_len(jr_at(arr, 2)) == 0, "empty object");
    TAP_OK(jr_at(arr, 4) == NULL, "jr_at past the end is NULL");
    TAP_OK(jr_num(jr_get(jr_get(r, "l1d.loads"), "total"), &v) && v == 3, "member names with dots");
    TAP_OK(jr_get(r, "nope") == NULL && jr_get(arr, "x") == NULL && jr_get(NULL, "x") == NULL,
           "jr_get of an absent member, of an array, of NULL");
    TAP_OK(jr_str(jr_get(r, "int")) == NULL && !jr_num(jr_get(r, "s"), &v), "typed accessors refuse other types");
    TAP_EQ_U64(r->line, 1, "the root starts on line 1");
    TAP_EQ_U64(jr_get(r, "t")->line, 3, "line of a value on line 3");
    TAP_EQ_U64(jr_get(r, "l1d.loads")->line, 7, "line of an object on line 7");
    TAP_STREQ(jr_type_name(JR_OBJECT), "object", "type names");
    jr_free(d);

    d = parse("  -0.5e-2 \n", err, sizeof err);
    TAP_OK(d && jr_root(d)->type == JR_NUMBER && jr_root(d)->u.num == -0.005, "a bare number is a document");
    jr_free(d);
    d = parse("\"\"", err, sizeof err);
    TAP_OK(d && jr_str(jr_root(d)) && jr_root(d)->u.str.len == 0, "an empty string");
    jr_free(d);
    d = parse("1e-400", err, sizeof err);
    TAP_OK(d && jr_root(d)->u.num == 0, "underflow reads as 0");
    jr_free(d);
}

struct bad_case {
    const char *text;
    const char *msg; /* a substring of the message, with the position */
};

static void test_refusals(void)
{
    static const struct bad_case cases[] = {
        {"", "line 1, column 1: expected a value, found end of input"},
        {"[1, 2,]", "column 7: trailing comma in an array"},
        {"{\"a\": 1,}", "column 9: trailing comma in an object"},
        {"[01]", "column 2: leading zero"},
        {"[1.]", "column 4: a digit must follow the decimal point"},
        {"[.5]", "column 2: expected a value, found '.'"},
        {"[+1]", "expected a value, found '+'"},
        {"[-]", "a number needs a digit"},
        {"[1e]", "an exponent needs a digit"},
        {"[NaN]", "expected a value, found 'N'"},
        {"[Infinity]", "expected a value, found 'I'"},
        {"[1e400]", "number out of the range of a double"},
        {"// c\n1", "expected a value, found '/'"},
        {"['a']", "found '''"},
        {"[tru]", "expected a value, found 't'"},
        {"\"abc", "column 1: unterminated string"},
        {"\"a\tb\"", "control character 0x09"},
        {"\"\\x\"", "invalid escape '\\x'"},
        {"\"\\u12\"", "\\u needs four hex digits"},
        {"\"\\ud800\"", "high surrogate \\ud800 not followed by a low surrogate"},
        {"\"\\ud800\\u0041\"", "not followed by a low surrogate"},
        {"\"\\udc00\"", "lone low surrogate"},
        {"\"\\u0000\"", "\\u0000 is not supported"},
        {"\"\xff\"", "invalid UTF-8"},
        {"\"\xc0\xaf\"", "invalid UTF-8"},          /* overlong '/' */
        {"\"\xed\xa0\x80\"", "invalid UTF-8"},      /* an encoded surrogate */
        {"\"\xe2\x82\"", "invalid UTF-8"},          /* truncated */
        {"{\"a\": 1, \"a\": 2}", "column 10: duplicate member name \"a\""},
        {"{\"a\" 1}", "expected ':' after member name \"a\""},
        {"{1: 2}", "expected a member name in double quotes"},
        {"[1 2]", "expected ',' or ']'"},
        {"{\"a\": 1 \"b\": 2}", "expected ',' or '}'"},
        {"{} x", "column 4: unexpected 'x' after the top-level value"},
        {"\xef\xbb\xbf{}", "byte order mark"},
        {"{\n  \"a\": [\n    1,\n    x\n  ]\n}", "line 4, column 5: expected a value, found 'x'"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        char err[256] = "";
        struct jr_doc *d = parse(cases[i].text, err, sizeof err);
        TAP_OK(d == NULL, "refused: case %zu", i);
        TAP_CONTAINS(err, cases[i].msg, "message of case %zu", i);
        jr_free(d);
    }
    /* nesting limit */
    char deep[600];
    memset(deep, '[', 300);
    memset(deep + 300, ']', 300);
    char err[256] = "";
    struct jr_doc *d = jr_parse(deep, 600, err, sizeof err);
    TAP_OK(d == NULL, "300 levels of nesting are refused");
    TAP_CONTAINS(err, "nesting deeper than 256", "message names the limit");
    jr_free(d);
    d = jr_parse(deep + 50, 500, err, sizeof err);
    TAP_OK(d != NULL, "250 levels parse");
    jr_free(d);
    /* text with a NUL inside the given length */
    d = jr_parse("[1]\0", 4, err, sizeof err);
    TAP_OK(d == NULL, "a NUL byte after the value is refused");
    jr_free(d);
    TAP_OK(jr_parse("[", 1, NULL, 0) == NULL, "a NULL error buffer is accepted");
}

static void test_file(void)
{
    char err[512] = "";
    struct jr_doc *d = jr_parse_file("/nonexistent/dir/x.json", err, sizeof err);
    TAP_OK(d == NULL, "a missing file is refused");
    TAP_CONTAINS(err, "/nonexistent/dir/x.json: ", "message starts with the path");
    char path[] = "/tmp/test_jsonr_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("{\"a\":\n  [1, 2,\n]}", f);
    fclose(f);
    d = jr_parse_file(path, err, sizeof err);
    TAP_OK(d == NULL, "a bad file is refused");
    char want[128];
    snprintf(want, sizeof want, "%s: line 3, column 1: trailing comma in an array", path);
    TAP_CONTAINS(err, want, "message has path, line and column");
    remove(path);
}

/* What the writer writes, the reader reads back. */
static void round_doc(struct json_writer *w, void *arg)
{
    (void)arg;
    jw_obj_begin(w, NULL);
    jw_str(w, "format", "gpusim-stats-1");
    jw_bool(w, "complete", false);
    jw_u64(w, "u", UINT64_C(1234567890123));
    jw_i64(w, "i", -5);
    jw_double(w, "d", 0.1);
    jw_double(w, "third", 1.0 / 3.0);
    jw_double(w, "nan", NAN);
    jw_str(w, "esc", "q\"b\\s\n\x01\x1f\xc3\xa9");
    jw_arr_begin(w, "arr");
    jw_u64(w, NULL, 1);
    jw_obj_begin(w, NULL);
    jw_null(w, "z");
    jw_obj_end(w);
    jw_arr_end(w);
    jw_obj_end(w);
}

static void test_round_trip(void)
{
    char path[] = "/tmp/test_jsonr_rt_XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    char err[512] = "";
    TAP_OK(json_write_atomic(path, round_doc, NULL, err, sizeof err) == 0, "writer wrote the document (%s)", err);
    struct jr_doc *d = jr_parse_file(path, err, sizeof err);
    TAP_OK(d != NULL, "reader reads the writer's output (%s)", err);
    if (d) {
        const struct jr_value *r = jr_root(d);
        double v = 0;
        TAP_STREQ(jr_str(jr_get(r, "format")), "gpusim-stats-1", "string");
        TAP_OK(jr_get(r, "complete")->type == JR_BOOL && !jr_get(r, "complete")->u.b, "bool");
        TAP_OK(jr_num(jr_get(r, "u"), &v) && v == 1234567890123.0, "u64");
        TAP_OK(jr_num(jr_get(r, "i"), &v) && v == -5, "i64");
        TAP_OK(jr_num(jr_get(r, "d"), &v) && v == 0.1, "0.1 round-trips exactly");
        TAP_OK(jr_num(jr_get(r, "third"), &v) && v == 1.0 / 3.0, "1/3 round-trips exactly");
        TAP_OK(jr_get(r, "nan")->type == JR_NULL, "NaN was written as null");
        TAP_STREQ(jr_str(jr_get(r, "esc")), "q\"b\\s\n\x01\x1f\xc3\xa9", "escaped string round-trips");
        TAP_OK(jr_get(jr_at(jr_get(r, "arr"), 1), "z")->type == JR_NULL, "nested null");
    }
    jr_free(d);
    remove(path);
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"values", test_values},
        {"refusals", test_refusals},
        {"file", test_file},
        {"round_trip", test_round_trip},
    };
    return tap_run(tests, ARRAY_LEN(tests));
}
