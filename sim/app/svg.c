/* sim/app/svg.c: minimal SVG 1.1 writer; see svg.h. */
#include "sim/app/svg.h"

#include <math.h>
#include <string.h>

#define SVG_FONTS "DejaVu Sans, Liberation Sans, Helvetica, Arial, sans-serif"

/* A coordinate with two decimals, without "-0.00". */
static void put_num(FILE *f, double v)
{
    if (!isfinite(v))
        v = 0;
    double r = round(v * 100.0) / 100.0;
    if (r == 0)
        r = 0; /* turns -0 into 0 */
    char buf[64];
    snprintf(buf, sizeof buf, "%.2f", r);
    /* trim trailing zeros: "12.50" -> "12.5", "3.00" -> "3" */
    char *dot = strchr(buf, '.');
    if (dot) {
        char *e = buf + strlen(buf) - 1;
        while (e > dot && *e == '0')
            *e-- = 0;
        if (e == dot)
            *e = 0;
    }
    fputs(buf, f);
}

static void attr_num(FILE *f, const char *name, double v)
{
    fprintf(f, " %s=\"", name);
    put_num(f, v);
    fputc('"', f);
}

static void attr_str(FILE *f, const char *name, const char *v)
{
    fprintf(f, " %s=\"", name);
    svg_put_text(f, v);
    fputc('"', f);
}

static void put_stroke(FILE *f, const struct svg_stroke *st)
{
    if (!st || !st->color) {
        fputs(" stroke=\"none\"", f);
        return;
    }
    attr_str(f, "stroke", st->color);
    attr_num(f, "stroke-width", st->width);
    if (st->dash)
        attr_str(f, "stroke-dasharray", st->dash);
}

/* Length of the valid UTF-8 sequence at p, or 0 (same rules as RFC 3629). */
static size_t utf8_len(const unsigned char *p)
{
    unsigned char c = p[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        lo = c == 0xe0 ? 0xa0 : 0x80;
        hi = c == 0xed ? 0x9f : 0xbf;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        lo = c == 0xf0 ? 0x90 : 0x80;
        hi = c == 0xf4 ? 0x8f : 0xbf;
    } else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    /* U+FFFE and U+FFFF are not XML characters */
    if (n == 3 && c == 0xef && p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf))
        return 0;
    return n;
}

void svg_put_text(FILE *f, const char *text)
{
    const unsigned char *p = (const unsigned char *)(text ? text : "");
    while (*p) {
        unsigned char c = *p;
        if (c >= 0x80) {
            size_t n = utf8_len(p);
            if (n) {
                fwrite(p, 1, n, f);
                p += n;
            } else {
                fputc('?', f);
                p++;
            }
            continue;
        }
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(c < 0x20 ? '?' : c, f); break;
        }
        p++;
    }
}

double svg_text_width(const char *text, double size)
{
    size_t glyphs = 0;
    for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++)
        if ((*p & 0xc0) != 0x80)
            glyphs++;
    return (double)glyphs * 0.6 * size;
}

void svg_begin(struct svg *s, FILE *f, double width, double height, const char *title)
{
    s->f = f;
    s->width = width;
    s->height = height;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", f);
    fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"", f);
    attr_num(f, "width", width);
    attr_num(f, "height", height);
    fputs(" viewBox=\"0 0 ", f);
    put_num(f, width);
    fputc(' ', f);
    put_num(f, height);
    fputs("\" font-family=\"" SVG_FONTS "\">\n", f);
    if (title) {
        fputs("<title>", f);
        svg_put_text(f, title);
        fputs("</title>\n", f);
    }
    /* an opaque background, so that a viewer's dark theme or a PNG export
     * does not show transparent bars on black */
    svg_rect(s, 0, 0, width, height, "#ffffff", NULL);
}

void svg_end(struct svg *s) { fputs("</svg>\n", s->f); }

void svg_rect(struct svg *s, double x, double y, double w, double h, const char *fill,
              const struct svg_stroke *stroke)
{
    fputs("<rect", s->f);
    attr_num(s->f, "x", x);
    attr_num(s->f, "y", y);
    attr_num(s->f, "width", w < 0 ? 0 : w);
    attr_num(s->f, "height", h < 0 ? 0 : h);
    attr_str(s->f, "fill", fill ? fill : "none");
    put_stroke(s->f, stroke);
    fputs("/>\n", s->f);
}

void svg_line(struct svg *s, double x1, double y1, double x2, double y2, const struct svg_stroke *stroke)
{
    fputs("<line", s->f);
    attr_num(s->f, "x1", x1);
    attr_num(s->f, "y1", y1);
    attr_num(s->f, "x2", x2);
    attr_num(s->f, "y2", y2);
    put_stroke(s->f, stroke);
    fputs("/>\n", s->f);
}

void svg_polyline(struct svg *s, const double *xs, const double *ys, size_t n, const struct svg_stroke *stroke)
{
    if (n == 0)
        return;
    fputs("<polyline points=\"", s->f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(' ', s->f);
        put_num(s->f, xs[i]);
        fputc(',', s->f);
        put_num(s->f, ys[i]);
    }
    fputs("\" fill=\"none\"", s->f);
    put_stroke(s->f, stroke);
    fputs(" stroke-linejoin=\"round\"/>\n", s->f);
}

void svg_circle(struct svg *s, double cx, double cy, double r, const char *fill, const struct svg_stroke *stroke)
{
    fputs("<circle", s->f);
    attr_num(s->f, "cx", cx);
    attr_num(s->f, "cy", cy);
    attr_num(s->f, "r", r);
    attr_str(s->f, "fill", fill ? fill : "none");
    put_stroke(s->f, stroke);
    fputs("/>\n", s->f);
}

void svg_text(struct svg *s, double x, double y, const struct svg_font *font, const char *text)
{
    static const char *const anchors[] = {"start", "middle", "end"};
    fputs("<text", s->f);
    attr_num(s->f, "x", x);
    attr_num(s->f, "y", y);
    attr_num(s->f, "font-size", font->size);
    fprintf(s->f, " text-anchor=\"%s\"", anchors[font->anchor]);
    if (font->color)
        attr_str(s->f, "fill", font->color);
    if (font->bold)
        fputs(" font-weight=\"bold\"", s->f);
    if (font->rotate_deg != 0) {
        fputs(" transform=\"rotate(", s->f);
        put_num(s->f, font->rotate_deg);
        fputc(' ', s->f);
        put_num(s->f, x);
        fputc(' ', s->f);
        put_num(s->f, y);
        fputs(")\"", s->f);
    }
    fputc('>', s->f);
    svg_put_text(s->f, text);
    fputs("</text>\n", s->f);
}

void svg_group_begin(struct svg *s, const char *title)
{
    fputs("<g>", s->f);
    if (title) {
        fputs("<title>", s->f);
        svg_put_text(s->f, title);
        fputs("</title>", s->f);
    }
    fputc('\n', s->f);
}

void svg_group_end(struct svg *s) { fputs("</g>\n", s->f); }
