/* tests/test_svg.c: the SVG writer (sim/app/svg.c) and the report charts
 * (sim/app/report_fig.c).
 *
 * Checks the escaping of data text (XML specials, control characters,
 * invalid UTF-8, non-characters), the number format, and that both charts
 * are well-formed XML with the expected elements, using a small
 * well-formedness checker (balanced tags, quoted attributes, known entities,
 * one root). The CLI test (tests/cli/report.sh) parses the same charts with
 * python3's XML parser and renders one with rsvg-convert.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/app/report.h"
#include "sim/app/svg.h"
#include "sim/base/common.h"
#include "tap.h"

/* ----------------------------------------------------- well-formedness */

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == ':' || c == '.';
}

/* An entity reference at p ('&'), or 0 if unknown. */
static size_t entity(const char *p)
{
    static const char *const known[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    for (size_t i = 0; i < ARRAY_LEN(known); i++)
        if (!strncmp(p, known[i], strlen(known[i])))
            return strlen(known[i]);
    return 0;
}

/* Returns NULL if well-formed, else a static description of the problem. */
static const char *xml_check(const char *doc, char *why, size_t n)
{
    const char *stack[64];
    size_t depth_len[64];
    int depth = 0, roots = 0;
    const char *p = doc;
    if (!strncmp(p, "<?xml ", 6)) {
        p = strstr(p, "?>");
        if (!p)
            return "unterminated XML declaration";
        p += 2;
    }
    while (*p) {
        if (*p == '&') {
            size_t k = entity(p);
            if (!k) {
                snprintf(why, n, "bad entity at offset %ld", (long)(p - doc));
                return why;
            }
            p += k;
            continue;
        }
        if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t' && *p != '\r') {
            snprintf(why, n, "control character at offset %ld", (long)(p - doc));
            return why;
        }
        if (*p == '>') {
            snprintf(why, n, "stray '>' at offset %ld", (long)(p - doc));
            return why;
        }
        if (*p != '<') {
            if (depth == 0 && *p != '\n' && *p != ' ') {
                snprintf(why, n, "text outside the root at offset %ld", (long)(p - doc));
                return why;
            }
            p++;
            continue;
        }
        bool closing = p[1] == '/';
        const char *name = p + 1 + closing;
        size_t len = 0;
        while (name_char(name[len]))
            len++;
        if (!len) {
            snprintf(why, n, "tag without a name at offset %ld", (long)(p - doc));
            return why;
        }
        p = name + len;
        if (closing) {
            while (*p == ' ')
                p++;
            if (*p != '>' || depth == 0 || depth_len[depth - 1] != len || strncmp(stack[depth - 1], name, len)) {
                snprintf(why, n, "mismatched closing tag </%.*s> at offset %ld", (int)len, name, (long)(name - doc));
                return why;
            }
            depth--;
            p++;
            continue;
        }
        /* attributes: name="value" */
        for (;;) {
            while (*p == ' ' || *p == '\n')
                p++;
            if (*p == '>' || (p[0] == '/' && p[1] == '>'))
                break;
            size_t al = 0;
            while (name_char(p[al]))
                al++;
            if (!al || p[al] != '=' || p[al + 1] != '"') {
                snprintf(why, n, "bad attribute at offset %ld", (long)(p - doc));
                return why;
            }
            p += al + 2;
            while (*p && *p != '"') {
                if (*p == '<') {
                    snprintf(why, n, "'<' in an attribute at offset %ld", (long)(p - doc));
                    return why;
                }
                if (*p == '&') {
                    size_t k = entity(p);
                    if (!k) {
                        snprintf(why, n, "bad entity in an attribute at offset %ld", (long)(p - doc));
                        return why;
                    }
                    p += k;
                    continue;
                }
                p++;
            }
            if (!*p)
                return "unterminated attribute";
            p++;
        }
        if (depth == 0 && roots++)
            return "two root elements";
        if (*p == '/') {
            p += 2;
            continue;
        }
        if (depth == 64)
            return "too deep";
        stack[depth] = name;
        depth_len[depth++] = len;
        p++;
    }
    return depth ? "unclosed element" : roots == 1 ? NULL : "no root element";
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* -------------------------------------------------------------- writer */

/* An in-memory FILE. Its buffer pointer lives on the heap: GCC's
 * -Wdangling-pointer otherwise takes the text for a pointer into the local
 * variable open_memstream was given. */
struct mem {
    char *buf;  /* the text once closed (caller frees) */
    size_t len; /* its length */
};

static FILE *mem_open(struct mem **m)
{
    *m = xcalloc(1, sizeof **m);
    return open_memstream(&(*m)->buf, &(*m)->len);
}

static char *mem_close(FILE *f, struct mem *m)
{
    fclose(f);
    char *r = m->buf;
    free(m);
    return r;
}

static char *escaped(const char *text)
{
    struct mem *m;
    FILE *f = mem_open(&m);
    svg_put_text(f, text);
    return mem_close(f, m);
}

static void test_escape(void)
{
    char *e = escaped("<a & 'b'> \"c\"");
    TAP_STREQ(e, "&lt;a &amp; &apos;b&apos;&gt; &quot;c&quot;", "the five XML specials");
    free(e);
    e = escaped("x\x01y\x1f\tz");
    TAP_STREQ(e, "x?y??z", "control characters (and tab) become '?'");
    free(e);
    e = escaped("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    TAP_STREQ(e, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "valid UTF-8 is kept");
    free(e);
    e = escaped("a\xff" "b\xc3" "c\xed\xa0\x80" "d\xef\xbf\xbe");
    TAP_STREQ(e, "a?b?c???d???", "invalid UTF-8, surrogates and U+FFFE become '?'");
    free(e);
    e = escaped(NULL);
    TAP_STREQ(e, "", "NULL is empty");
    free(e);
    TAP_NEAR(svg_text_width("abcd", 10), 24, 1e-9, "text width estimate: 0.6 em per glyph");
    TAP_NEAR(svg_text_width("\xc3\xa9\xc3\xa9", 10), 12, 1e-9, "a UTF-8 sequence is one glyph");
}

static void test_writer(void)
{
    struct mem *m;
    FILE *f = mem_open(&m);
    struct svg s;
    svg_begin(&s, f, 200, 100.5, "t<1>");
    const struct svg_stroke st = {"#123456", 1.5, "4,2"};
    svg_line(&s, 0.004, -0.001, 12.5, 3.456, &st);
    svg_rect(&s, 1, 2, -3, 4, "red", NULL);
    const double xs[] = {0, 1.25}, ys[] = {2, -3.5};
    svg_polyline(&s, xs, ys, 2, &st);
    svg_circle(&s, 5, 5, 2, "blue", NULL);
    const struct svg_font font = {11, SVG_END, "#333", 1, -45};
    svg_text(&s, 10, 20, &font, "a&b");
    svg_group_begin(&s, "tip \"x\"");
    svg_group_end(&s);
    svg_end(&s);
    char *buf = mem_close(f, m);
    char why[128];
    const char *bad = xml_check(buf, why, sizeof why);
    TAP_OK(bad == NULL, "writer output is well-formed (%s)", bad ? bad : "ok");
    TAP_CONTAINS(buf, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"200\" height=\"100.5\" "
                      "viewBox=\"0 0 200 100.5\"",
                 "svg root with namespace, version, size and viewBox");
    TAP_CONTAINS(buf, "<title>t&lt;1&gt;</title>", "escaped title");
    TAP_CONTAINS(buf, "<line x1=\"0\" y1=\"0\" x2=\"12.5\" y2=\"3.46\" stroke=\"#123456\" stroke-width=\"1.5\" "
                      "stroke-dasharray=\"4,2\"/>",
                 "two decimals, no -0, trailing zeros trimmed");
    TAP_CONTAINS(buf, "width=\"0\" height=\"4\" fill=\"red\" stroke=\"none\"", "a negative width is clamped to 0");
    TAP_CONTAINS(buf, "points=\"0,2 1.25,-3.5\"", "polyline points");
    TAP_CONTAINS(buf, "font-weight=\"bold\" transform=\"rotate(-45 10 20)\">a&amp;b</text>", "rotated bold text");
    TAP_CONTAINS(buf, "<g><title>tip &quot;x&quot;</title>", "group tooltip");
    TAP_OK(!strstr(buf, "-0\"") && !strstr(buf, "-0,") && !strstr(buf, "nan") && !strstr(buf, "inf"),
           "no -0, nan or inf");
    free(buf);
    TAP_OK(xml_check("<a><b></a></b>", why, sizeof why) != NULL, "the checker catches mismatched tags");
    TAP_OK(xml_check("<a x=\"1 & 2\"/>", why, sizeof why) != NULL, "the checker catches a raw '&'");
    TAP_OK(xml_check("<a/><b/>", why, sizeof why) != NULL, "the checker catches two roots");
}

/* --------------------------------------------------------------- charts */

/* A sweep and table built in memory: 3 variants with awkward names, 4 rows,
 * one missing cell. */
struct chart_fx {
    struct rp_sweep s;
    struct rp_variant vars[3];
    struct rp_row rows[4];
    struct rp_stat stat;
    struct rp_table t;
    struct rp_cell cells[12];
    struct rp_mean all[3];
};

static void chart_fx_init(struct chart_fx *c)
{
    memset(c, 0, sizeof *c);
    static const char *const names[] = {"base", "x<y", "a&b \"q\""};
    static const char *const labels[] = {"bfs", "hot'spot", "a-workload-with-a-rather-long-name", "w\x01z"};
    for (int v = 0; v < 3; v++)
        c->vars[v].name = (char *)names[v]; /* read only by the chart writers */
    for (int r = 0; r < 4; r++) {
        c->rows[r].label = (char *)labels[r];
        c->rows[r].workload = (char *)labels[r];
        c->rows[r].size = (char *)"small";
        c->rows[r].cls = -1;
    }
    c->s.vars = c->vars;
    c->s.n_vars = 3;
    c->s.rows = c->rows;
    c->s.n_rows = 4;
    c->s.base_var = 0;
    c->stat.name = (char *)"ipc";
    c->t.stat = &c->stat;
    c->t.n_rows = 4;
    c->t.n_vars = 3;
    c->t.cells = c->cells;
    c->t.all = c->all;
    const double norm[4][3] = {{1, 1.2, 0.8}, {1, NAN, 2.5}, {1, 0.5, 1.1}, {1, 1.05, 0.95}};
    for (int r = 0; r < 4; r++)
        for (int v = 0; v < 3; v++) {
            struct rp_cell *cl = &c->cells[r * 3 + v];
            cl->norm = norm[r][v];
            cl->value = norm[r][v] * 10;
            cl->n_seeds = cl->n_ok = isnan(norm[r][v]) ? 0 : 1;
            cl->n_jobs = 1;
        }
    double col[4];
    for (int v = 0; v < 3; v++) {
        for (int r = 0; r < 4; r++)
            col[r] = norm[r][v];
        c->all[v].geo = rp_geomean(col, 4);
        c->all[v].harm = rp_hmean(col, 4);
        c->all[v].n = isnan(norm[1][v]) ? 3 : 4;
        c->all[v].n_rows = 4;
    }
}

static char *chart(const struct chart_fx *c, bool line, char *const *xs)
{
    struct mem *m;
    FILE *f = mem_open(&m);
    if (line)
        rp_write_line_svg(f, &c->s, &c->t, "l1d.size", xs);
    else
        rp_write_bar_svg(f, &c->s, &c->t);
    return mem_close(f, m);
}

static void test_bar_chart(void)
{
    struct chart_fx c;
    chart_fx_init(&c);
    char *svg = chart(&c, false, NULL);
    char why[128];
    const char *bad = xml_check(svg, why, sizeof why);
    TAP_OK(bad == NULL, "bar chart is well-formed (%s)", bad ? bad : "ok");
    TAP_CONTAINS(svg, "<title>ipc per workload, normalised to base</title>", "title");
    TAP_CONTAINS(svg, ">x&lt;y</text>", "a variant name is escaped in the legend");
    TAP_CONTAINS(svg, ">a&amp;b &quot;q&quot;</text>", "another one");
    TAP_CONTAINS(svg, ">hot&apos;spot</text>", "a workload label is escaped");
    TAP_CONTAINS(svg, ">w?z</text>", "a control character is replaced");
    TAP_CONTAINS(svg, ">geomean</text>", "the mean group");
    TAP_CONTAINS(svg, ">n/a</text>", "the missing bar is marked n/a");
    TAP_CONTAINS(svg, "rotate(-45", "long labels are turned");
    TAP_CONTAINS(svg, ">workload</text>", "x axis label");
    TAP_CONTAINS(svg, ">ipc, normalised to base</text>", "y axis label");
    TAP_CONTAINS(svg, "stroke-dasharray=\"6,3\"", "the line at 1.0");
    /* rects: background + 3 legend swatches + 11 workload bars + 3 geomean bars */
    TAP_EQ_U64(count(svg, "<rect"), 1 + 3 + 11 + 3, "one bar per defined cell and mean");
    TAP_EQ_U64(count(svg, "<g><title>"), 12 + 3, "a tooltip per bar slot");
    TAP_CONTAINS(svg, ">3</text>", "the y axis reaches above the largest bar (2.5), to 3");
    char *again = chart(&c, false, NULL);
    TAP_OK(!strcmp(svg, again), "the same chart gives the same bytes");
    free(again);
    free(svg);
}

static void test_line_chart(void)
{
    struct chart_fx c;
    chart_fx_init(&c);
    char *xs[3] = {(char *)"32K", (char *)"16K", (char *)"48K"};
    char *svg = chart(&c, true, xs);
    char why[128];
    const char *bad = xml_check(svg, why, sizeof why);
    TAP_OK(bad == NULL, "line chart is well-formed (%s)", bad ? bad : "ok");
    TAP_CONTAINS(svg, "<title>ipc over l1d.size, normalised to base</title>", "title");
    const char *p16 = strstr(svg, ">16K</text>"), *p32 = strstr(svg, ">32K</text>"), *p48 = strstr(svg, ">48K</text>");
    TAP_OK(p16 && p32 && p48 && p16 < p32 && p32 < p48, "x values in numeric order 16K, 32K, 48K");
    /* hot'spot has no value at 16K (variant x<y): its line runs 32K-48K */
    TAP_EQ_U64(count(svg, "<polyline"), 4 + 1, "a line per workload and the geomean line");
    TAP_EQ_U64(count(svg, "<circle"), 11 + 3, "a marker per defined point");
    TAP_CONTAINS(svg, "stroke=\"#000000\" stroke-width=\"3\"", "the geomean line is thick and black");
    TAP_CONTAINS(svg, ">l1d.size</text>", "x axis label is the key");
    free(svg);

    xs[0] = NULL; /* the baseline left out: two points */
    xs[1] = (char *)"fast";
    xs[2] = (char *)"slow";
    svg = chart(&c, true, xs);
    bad = xml_check(svg, why, sizeof why);
    TAP_OK(bad == NULL, "line chart over words is well-formed (%s)", bad ? bad : "ok");
    p16 = strstr(svg, ">fast</text>");
    p32 = strstr(svg, ">slow</text>");
    TAP_OK(p16 && p32 && p16 < p32, "words keep the variant order");
    TAP_EQ_U64(count(svg, "<circle"), 7 + 2, "points of two variants only");
    free(svg);
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"escape", test_escape},
        {"writer", test_writer},
        {"bar_chart", test_bar_chart},
        {"line_chart", test_line_chart},
    };
    return tap_run(tests, ARRAY_LEN(tests));
}
