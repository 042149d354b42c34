/* The CLI's one plotting module: SVG charts with log or linear axes, their grids and tick labels, titles, series as
 * polylines (or steps), the palette and the text helpers. climb report's charts (report_charts.c), the occupancy
 * calculator's series plots (occupancy_cmd.c) and `climb plot` (plot_cmd.c: the sweep plots of docs/img, which
 * scripts/results_tables.py describes) draw with it. */
#ifndef CLIMB_CLI_PLOT_H
#define CLIMB_CLI_PLOT_H

#include <stddef.h>
#include <stdio.h>

/* An axis: values lo..hi onto pixels p0..p1, on a log scale (whole decades) or a linear one. */
typedef struct {
    double lo, hi, p0, p1;
    int linear;
} plot_axis;

/* A log axis over whole decades covering [lo, hi] (kept within 10^-30..10^30), onto [p0, p1]. */
void plot_log_axis(plot_axis *a, double lo, double hi, double p0, double p1);
/* A linear axis over [lo, hi] (hi > lo, else lo + 1), onto [p0, p1]. */
void plot_lin_axis(plot_axis *a, double lo, double hi, double p0, double p1);
/* The pixel of value v (a log axis puts v <= 0 at lo). */
double plot_at(const plot_axis *a, double v);

/* A standalone SVG document's head (white background, sans-serif 12, the title centred on top). */
void plot_begin(FILE *f, double w, double h, const char *title);
void plot_end(FILE *f);
/* A log axis's grid lines and tick labels at every decade (y may be NULL), classed for a page's CSS. */
void plot_log_grid(FILE *f, const plot_axis *x, const plot_axis *y, double top, double bottom, double left,
                   double right);
/* A linear axis's grid: ny + 1 horizontal lines with their values, nx + 1 value labels under the x axis, the two
 * axis lines, in standalone colours. */
void plot_lin_grid(FILE *f, const plot_axis *x, int nx, const plot_axis *y, int ny);
/* The axes' titles: x centred under the plot, y rotated along the left edge. */
void plot_axis_titles(FILE *f, const plot_axis *x, const plot_axis *y, double bottom, const char *xlabel,
                      const char *ylabel, const char *cls);
/* A series through (x[i], y[i]); step: across then up or down between points, as a step plot reads. */
void plot_polyline(FILE *f, const plot_axis *xa, const plot_axis *ya, const double *x, const double *y, int n,
                   const char *color, double width, int step);

/* The series colours, cycled, and how many there are before they come round again. */
const char *plot_color(int i);
int plot_n_colors(void);
/* Text for XML: & < > " escaped, control characters but newline and tab dropped. */
void plot_esc(FILE *f, const char *s);
/* A figure as the charts and tables print it: "-" for NaN, 4 significant digits or so. */
void plot_num(char *out, size_t len, double v);
/* A log axis's tick label: 1, 10, 100, 1k, 10k, 1M, ..., 0.1, 0.01. */
void plot_tick(char *out, size_t len, double v);

#endif
