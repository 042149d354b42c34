#include "plot.h"

#include <math.h>
#include <string.h>

void plot_log_axis(plot_axis *a, double lo, double hi, double p0, double p1)
{
    /* a report's figures are whatever its file says: the axis keeps to 10^-30..10^30, 60 decades at most */
    if (!(lo > 1e-30) || !isfinite(lo))
        lo = 1e-30;
    if (!(hi < 1e30))
        hi = 1e30;
    if (!(hi > lo))
        hi = lo * 10;
    a->lo = pow(10, floor(log10(lo) + 1e-9));
    a->hi = pow(10, ceil(log10(hi) - 1e-9));
    if (a->hi <= a->lo)
        a->hi = a->lo * 10;
    a->p0 = p0;
    a->p1 = p1;
    a->linear = 0;
}

void plot_lin_axis(plot_axis *a, double lo, double hi, double p0, double p1)
{
    a->lo = lo;
    a->hi = hi > lo ? hi : lo + 1;
    a->p0 = p0;
    a->p1 = p1;
    a->linear = 1;
}

double plot_at(const plot_axis *a, double v)
{
    if (a->linear)
        return a->p0 + (v - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
    if (!(v > 0))
        v = a->lo;
    return a->p0 + (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) * (a->p1 - a->p0);
}

void plot_begin(FILE *f, double w, double h, const char *title)
{
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
               "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            w, h);
    fprintf(f, "<text x=\"%.0f\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">", w / 2);
    plot_esc(f, title);
    fputs("</text>\n", f);
}

void plot_end(FILE *f) { fputs("</svg>\n", f); }

void plot_log_grid(FILE *f, const plot_axis *x, const plot_axis *y, double top, double bottom, double left,
                   double right)
{
    char t[32];
    const int nx = (int)lround(log10(x->hi / x->lo));
    for (int d = 0; d <= nx; d++) {
        const double v = x->lo * pow(10, d), px = plot_at(x, v);
        plot_tick(t, sizeof t, v);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>", px, top, px, bottom);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%s</text>\n", px, bottom + 14,
                t);
    }
    if (!y)
        return;
    const int ny = (int)lround(log10(y->hi / y->lo));
    for (int d = 0; d <= ny; d++) {
        const double v = y->lo * pow(10, d), py = plot_at(y, v);
        plot_tick(t, sizeof t, v);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>", left, py, right, py);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>\n", left - 4, py + 4,
                t);
    }
}

void plot_lin_grid(FILE *f, const plot_axis *x, int nx, const plot_axis *y, int ny)
{
    for (int k = 0; k <= ny; k++) {
        const double v = y->lo + (y->hi - y->lo) * k / ny;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x->p0, plot_at(y, v),
                x->p1, plot_at(y, v));
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", x->p0 - 6, plot_at(y, v) + 4, v);
    }
    for (int k = 0; k <= nx; k++) {
        const double v = x->lo + (x->hi - x->lo) * k / nx;
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n", plot_at(x, v), y->p0 + 16, v);
    }
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", x->p0, y->p0, x->p1,
            y->p0);
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"black\"/>\n", x->p0, y->p1, x->p0,
            y->p0);
}

void plot_axis_titles(FILE *f, const plot_axis *x, const plot_axis *y, double bottom, const char *xlabel,
                      const char *ylabel, const char *cls)
{
    const double ymid = (y->p0 + y->p1) / 2;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"%s%s%s text-anchor=\"middle\">", (x->p0 + x->p1) / 2, bottom,
            cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    plot_esc(f, xlabel);
    fputs("</text>\n", f);
    fprintf(f, "<text x=\"14\" y=\"%.1f\"%s%s%s text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">", ymid,
            cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "", ymid);
    plot_esc(f, ylabel);
    fputs("</text>\n", f);
}

void plot_polyline(FILE *f, const plot_axis *xa, const plot_axis *ya, const double *x, const double *y, int n,
                   const char *color, double width, int step)
{
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%g\" points=\"", color, width);
    for (int i = 0; i < n; i++) {
        if (step && i > 0)
            fprintf(f, "%.1f,%.1f ", plot_at(xa, x[i]), plot_at(ya, y[i - 1]));
        fprintf(f, "%.1f,%.1f ", plot_at(xa, x[i]), plot_at(ya, y[i]));
    }
    fputs("\"/>", f);
}

static const char *const PALETTE[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                      "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#ad494a",
                                      "#637939", "#843c39", "#7b4173", "#3182bd", "#e6550d", "#31a354"};

int plot_n_colors(void) { return (int)(sizeof PALETTE / sizeof PALETTE[0]); }

const char *plot_color(int i)
{
    const int n = plot_n_colors();
    return PALETTE[((i % n) + n) % n];
}

void plot_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
                fputc(*s, f);
        }
    }
}

void plot_num(char *out, size_t len, double v)
{
    if (isnan(v))
        snprintf(out, len, "-");
    else if (fabs(v) >= 1e4)
        snprintf(out, len, "%.0f", v);
    else if (fabs(v) >= 100)
        snprintf(out, len, "%.1f", v);
    else if (fabs(v) >= 1)
        snprintf(out, len, "%.2f", v);
    else
        snprintf(out, len, "%.3g", v);
}

void plot_tick(char *out, size_t len, double v)
{
    static const char *const SI[] = {"", "k", "M", "G", "T", "P"};
    int k = 0;
    while (v >= 1000 && k < 5) {
        v /= 1000;
        k++;
    }
    snprintf(out, len, "%g%s", v, SI[k]);
}
