/* sim/app/svg.h: a minimal SVG 1.1 writer for the report figures.
 *
 * Writes a standalone SVG 1.1 document (XML declaration, svg namespace,
 * width/height/viewBox in px) made of the few primitives a chart needs:
 * rectangles, lines, polylines, circles and text. Coordinates are printed
 * with two decimals ("-0.00" never appears), so the same chart gives the same
 * bytes. All text and attribute values that come from data go through
 * svg_put_text, which escapes the five XML specials and replaces bytes that
 * XML 1.0 forbids (control characters, invalid UTF-8) with '?': any
 * workload or variant name gives a well-formed document.
 *
 * Not modelled: paths, gradients, CSS, scripts, fonts beyond a generic
 * family list; text width is estimated by the caller (svg_text_width).
 */
#ifndef GPUSIM_SIM_APP_SVG_H
#define GPUSIM_SIM_APP_SVG_H

#include <stddef.h>
#include <stdio.h>

enum svg_anchor { SVG_START, SVG_MIDDLE, SVG_END };

struct svg {
    FILE *f;         /* destination */
    double width;    /* px */
    double height;   /* px */
};

/* Style of a stroked shape. dash NULL = solid, else an SVG dasharray ("4,3"). */
struct svg_stroke {
    const char *color; /* "#rrggbb" or a named colour; NULL = none */
    double width;      /* px */
    const char *dash;  /* NULL = solid */
};

/* Style of a text element. */
struct svg_font {
    double size;          /* px */
    enum svg_anchor anchor;
    const char *color;    /* NULL = black */
    int bold;             /* non-zero = font-weight bold */
    double rotate_deg;    /* rotation about the anchor point, degrees clockwise */
};

/* Starts the document; title (may be NULL) becomes the <title> element. */
void svg_begin(struct svg *s, FILE *f, double width, double height, const char *title);
void svg_end(struct svg *s);

void svg_rect(struct svg *s, double x, double y, double w, double h, const char *fill,
              const struct svg_stroke *stroke);
void svg_line(struct svg *s, double x1, double y1, double x2, double y2, const struct svg_stroke *stroke);
void svg_polyline(struct svg *s, const double *xs, const double *ys, size_t n, const struct svg_stroke *stroke);
void svg_circle(struct svg *s, double cx, double cy, double r, const char *fill, const struct svg_stroke *stroke);
void svg_text(struct svg *s, double x, double y, const struct svg_font *font, const char *text);
/* Open and close a group with a <title> tooltip (title may be NULL). */
void svg_group_begin(struct svg *s, const char *title);
void svg_group_end(struct svg *s);

/* Writes text escaped for XML character data and attribute values. */
void svg_put_text(FILE *f, const char *text);
/* Estimated rendered width of text in px at the given font size (an average
 * glyph of 0.6 em, counting UTF-8 sequences as one glyph). */
double svg_text_width(const char *text, double size);

#endif /* GPUSIM_SIM_APP_SVG_H */
