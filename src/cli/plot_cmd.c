/* climb plot: a chart from a JSON description, drawn with the plotting module (plot.c). The results script
 * (scripts/results_tables.py) describes each sweep plot and each ratio-to-the-vendor plot this way and has climb
 * draw it, so that every figure climb publishes comes from one module.
 *
 *   {"chart": "lines", "title": T, "subtitle": S, "x_label": X, "y_label": Y, "log_x": bool, "x_bytes": bool,
 *    "series": [{"label": L, "points": [[x, y], ...]}, ...], "ceilings": [{"value": v, "label": L}, ...]}
 *   {"chart": "bars", "title": T, "subtitle": S, "note": N, "level": 1.0,
 *    "bars": [{"label": L, "value": v, "group": g}, ...]}
 *
 * Lines: one coloured line with markers a series, in the order given (colours come round again dashed), a legend
 * below; log_x puts x on a log2 scale with a tick at each x; y goes on a log scale where the rates span more than
 * two decades, else on round linear ticks; the ceilings are grey dashed lines, drawn where within 4x of the data.
 * Bars: horizontal, one a case in the order given, coloured by group, each value written beside it; a dashed line
 * at `level`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/json.h"
#include "../io/text.h"
#include "cli.h"
#include "plot.h"

static const char *const PLOT_USAGE =
    "usage: climb plot SPEC.json|- [-o FILE.svg]\n"
    "\n"
    "Draws a line chart or a bar chart as SVG from a JSON description (read from standard input for -), to FILE\n"
    "or standard output; scripts/results_tables.py draws the sweep plots of docs/img this way. No GPU needed.\n"
    "\n"
    "  {\"chart\": \"lines\", \"title\": T, \"subtitle\": S, \"x_label\": X, \"y_label\": Y, \"log_x\": false,\n"
    "   \"x_bytes\": false, \"series\": [{\"label\": L, \"points\": [[x, y], ...]}, ...],\n"
    "   \"ceilings\": [{\"value\": v, \"label\": L}, ...]}\n"
    "      a line a series, in the order given; log_x: x on a log2 scale; x_bytes: x ticks as KiB, MiB, GiB; y on a\n"
    "      log scale where it spans more than two decades; a ceiling drawn where within 4x of the data\n"
    "  {\"chart\": \"bars\", \"title\": T, \"subtitle\": S, \"note\": N, \"level\": 1.0,\n"
    "   \"bars\": [{\"label\": L, \"value\": v, \"group\": g}, ...]}\n"
    "      a horizontal bar a case, in the order given, coloured by group, with a dashed line at level\n";

typedef struct {
    const char *label;
    int n;
    double *x, *y;
} line_series;

/* ---------------------------------------------------------------- ticks and labels */

/* Round tick values (steps of 1, 2, 2.5 or 5 times a power of ten) covering [lo, hi]; their count. */
static int nice_ticks(double lo, double hi, int n, double *out, int cap)
{
    if (!(hi > lo))
        hi = lo + 1;
    const double raw = (hi - lo) / n, mag = pow(10, floor(log10(raw)));
    static const double m[] = {1, 2, 2.5, 5, 10};
    double step = 10 * mag;
    for (int i = 0; i < 5; i++)
        if (m[i] * mag >= raw * (1 - 1e-9)) {
            step = m[i] * mag;
            break;
        }
    int k = 0;
    for (double t = floor(lo / step) * step; t <= hi + step * 1e-9 && k < cap; t += step)
        if (t >= lo - step * 1e-9)
            out[k++] = round(t * 1e10) / 1e10;
    if (k > 0 && k < cap && out[k - 1] < hi - step * 1e-9) {
        out[k] = round((out[k - 1] + step) * 1e10) / 1e10;
        k++;
    }
    return k;
}

static void fmt_tick(char *out, size_t len, double v)
{
    if (fabs(v - round(v)) < 1e-9)
        snprintf(out, len, "%.0f", v);
    else
        snprintf(out, len, "%g", v);
}

/* A byte count as 1 KiB, 4 MiB, 2 GiB where it is a whole number of them. */
static void fmt_size(char *out, size_t len, double v)
{
    static const struct {
        const char *unit;
        double k;
    } u[] = {{"GiB", 1073741824.0}, {"MiB", 1048576.0}, {"KiB", 1024.0}};
    for (int i = 0; i < 3; i++)
        if (v >= u[i].k && fmod(v, u[i].k) == 0) {
            snprintf(out, len, "%.0f %s", v / u[i].k, u[i].unit);
            return;
        }
    fmt_tick(out, len, v);
}

static void text_at(FILE *f, double x, double y, const char *anchor, const char *extra, const char *s)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y, anchor, extra ? extra : "");
    plot_esc(f, s);
    fputs("</text>\n", f);
}

static void begin(FILE *f, double w, double h, int font, const char *title, const char *subtitle)
{
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
               "font-size=\"%d\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            w, h, font);
    text_at(f, w / 2, 20, "middle", " font-size=\"14\"", title);
    text_at(f, w / 2, 38, "middle", " fill=\"#555\"", subtitle);
}

/* ---------------------------------------------------------------- the line chart */

static double fx_of(double v, int log_x) { return log_x ? log2(v) : v; }

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void draw_lines(FILE *f, const char *title, const char *subtitle, const char *xlabel, const char *ylabel,
                       int log_x, int x_bytes, const line_series *s, int ns, const double *cv, const char *const *cl,
                       int nc)
{
    const double W = 760, left = 70, right = 20, top = 50, ph = 320, pw = W - left - right;
    const double H = top + ph + 50 + 18 * ((ns + 1) / 2) + 10;
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    int npts = 0;
    for (int i = 0; i < ns; i++)
        for (int k = 0; k < s[i].n; k++, npts++) {
            xmin = fmin(xmin, s[i].x[k]);
            xmax = fmax(xmax, s[i].x[k]);
            ymin = fmin(ymin, s[i].y[k]);
            ymax = fmax(ymax, s[i].y[k]);
        }
    double yrange = ymax;
    for (int c = 0; c < nc; c++)
        if (cv[c] > 0 && cv[c] <= 4 * ymax)
            yrange = fmax(yrange, cv[c]);
    double x0 = fx_of(xmin, log_x), x1 = fx_of(xmax, log_x);
    if (x1 == x0)
        x1 = x0 + 1;
    /* rates that span more than two decades (a transfer of 1 KiB beside a device copy) go on a log scale */
    const int log_y = ymin > 0 && ymax / ymin > 100;
    double yt[64];
    int nyt = 0;
    plot_axis xa, ya;
    plot_lin_axis(&xa, x0, x1, left, left + pw);
    if (log_y) {
        const int e0 = (int)floor(log10(ymin)), e1 = (int)ceil(log10(yrange));
        for (int e = e0; e <= e1 && nyt < 64; e++)
            yt[nyt++] = pow(10, e);
        plot_lin_axis(&ya, e0, e1, top + ph, top);
    } else {
        nyt = nice_ticks(0, yrange * 1.05, 5, yt, 64);
        plot_lin_axis(&ya, 0, nyt > 0 && yt[nyt - 1] > 0 ? yt[nyt - 1] : 1, top + ph, top);
    }
#define PX(v) plot_at(&xa, fx_of((v), log_x))
#define PY(v) plot_at(&ya, log_y ? log10(v) : (v))
    begin(f, W, H, 12, title, subtitle);
    char t[64];
    for (int i = 0; i < nyt; i++) {
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left, PY(yt[i]), W - right,
                PY(yt[i]));
        fmt_tick(t, sizeof t, yt[i]);
        text_at(f, left - 6, PY(yt[i]) + 4, "end", NULL, t);
    }
    /* the x ticks: every x (a twelfth of them on a log axis of many), or round ones on a linear axis of many */
    double *xt = malloc(sizeof(double) * (size_t)(npts + 64));
    int nxt = 0;
    for (int i = 0; xt && i < ns; i++)
        for (int k = 0; k < s[i].n; k++)
            xt[nxt++] = s[i].x[k];
    if (xt) {
        qsort(xt, (size_t)nxt, sizeof *xt, cmp_double);
        int u = 0;
        for (int i = 0; i < nxt; i++)
            if (u == 0 || xt[i] != xt[u - 1])
                xt[u++] = xt[i];
        nxt = u;
        if (nxt > 12 && log_x) {
            const int every = (nxt + 11) / 12;
            u = 0;
            for (int i = 0; i < nxt; i += every)
                xt[u++] = xt[i];
            nxt = u;
        } else if (nxt > 12) {
            double r[64];
            const int nr = nice_ticks(xmin, xmax, 8, r, 64);
            u = 0;
            for (int i = 0; i < nr; i++)
                if (r[i] >= xmin && r[i] <= xmax)
                    xt[u++] = r[i];
            nxt = u;
        }
    }
    for (int i = 0; xt && i < nxt; i++) {
        if (x_bytes && xt[i] == floor(xt[i]))
            fmt_size(t, sizeof t, xt[i]);
        else
            fmt_tick(t, sizeof t, xt[i]);
        /* a label that would run past the right edge ends at it (about 7 px a character) */
        const int past = PX(xt[i]) + 3.5 * (double)strlen(t) > W - 2;
        text_at(f, past ? W - 2 : PX(xt[i]), top + ph + 16, past ? "end" : "middle", NULL, t);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>\n", PX(xt[i]), top,
                PX(xt[i]), top + ph);
    }
    free(xt);
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", left, top + ph, W - right,
            top + ph);
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", left, top, left, top + ph);
    char lab[300];
    snprintf(lab, sizeof lab, "%s%s", xlabel, log_x ? " (log scale)" : "");
    text_at(f, left + floor(pw / 2), top + ph + 34, "middle", NULL, lab);
    snprintf(lab, sizeof lab, "%s%s", ylabel, log_y ? " (log scale)" : "");
    fprintf(f, "<text x=\"16\" y=\"%.0f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.0f)\">", top + ph / 2,
            top + ph / 2);
    plot_esc(f, lab);
    fputs("</text>\n", f);
    for (int c = 0; c < nc; c++) {
        if (!(cv[c] > 0 && cv[c] <= 4 * ymax))
            continue;
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#888\" stroke-dasharray=\"2,3\" "
                   "class=\"ceiling\"/>\n",
                left, PY(cv[c]), W - right, PY(cv[c]));
        text_at(f, W - right - 4, PY(cv[c]) - 4, "end", " fill=\"#666\"", cl[c]);
    }
    for (int i = 0; i < ns; i++) {
        const char *c = plot_color(i);
        const char *dash = (i / plot_n_colors()) % 2 ? " stroke-dasharray=\"6,3\"" : ""; /* colours come round */
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s points=\"", c, dash);
        for (int k = 0; k < s[i].n; k++)
            fprintf(f, "%s%.1f,%.1f", k ? " " : "", PX(s[i].x[k]), PY(s[i].y[k]));
        fputs("\"/>\n", f);
        for (int k = 0; k < s[i].n; k++)
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n", PX(s[i].x[k]), PY(s[i].y[k]), c);
        const double lx = left + (i % 2) * floor(pw / 2), ly = top + ph + 52 + 18 * (i / 2);
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"3\"%s/>\n", lx,
                ly - 4, lx + 20, ly - 4, c, dash);
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">", lx + 26, ly);
        plot_esc(f, s[i].label);
        fputs("</text>\n", f);
    }
#undef PX
#undef PY
    plot_end(f);
}

/* ---------------------------------------------------------------- the bar chart */

static void draw_bars(FILE *f, const char *title, const char *subtitle, const char *note, double level,
                      const char *const *label, const double *v, const int *group, int n)
{
    const double W = 760, left = 250, right = 60, top = 50, rowh = 16, pw = W - left - right;
    const double H = top + rowh * n + 60;
    double hi = 1.25;
    for (int i = 0; i < n; i++)
        hi = fmax(hi, v[i] * 1.05);
    plot_axis xa;
    plot_lin_axis(&xa, 0, hi, left, left + pw);
    begin(f, W, H, 11, title, subtitle);
    double ticks[64];
    const int nt = nice_ticks(0, hi, 6, ticks, 64);
    char t[64];
    for (int i = 0; i < nt; i++) {
        if (ticks[i] > hi)
            continue;
        const double x = plot_at(&xa, ticks[i]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>\n", x, top, x, top + rowh * n);
        fmt_tick(t, sizeof t, ticks[i]);
        strcat(t, "\xc3\x97"); /* × */
        text_at(f, x, top + rowh * n + 14, "middle", NULL, t);
    }
    for (int i = 0; i < n; i++) {
        const double y = top + i * rowh;
        text_at(f, left - 6, y + 12, "end", NULL, label[i]);
        fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\" fill=\"%s\" class=\"bar\"/>\n", left,
                y + 3, fmax(1.0, plot_at(&xa, v[i]) - left), rowh - 5, plot_color(group[i]));
        snprintf(t, sizeof t, "%.2f\xc3\x97", v[i]);
        text_at(f, plot_at(&xa, v[i]) + 4, y + 12, "start", NULL, t);
    }
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#c0392b\" stroke-dasharray=\"5,3\" "
               "class=\"level\"/>\n",
            plot_at(&xa, level), top - 4, plot_at(&xa, level), top + rowh * n);
    text_at(f, left - 200, top + rowh * n + 34, "start", NULL, note);
    plot_end(f);
}

/* ---------------------------------------------------------------- the description */

/* "SPEC:LINE: what is wrong" on stderr; returns EXIT_USAGE. */
static int bad(const char *path, const climb_json *at, const char *what)
{
    fprintf(stderr, "climb plot: %s:%d: %s\n", path, at ? at->line : 1, what);
    return EXIT_USAGE;
}

/* The string member key of o (def where absent); NULL where it is there but not a string. */
static const char *str_of(const climb_json *o, const char *key, const char *def)
{
    const climb_json *v = climb_json_get(o, key);
    return !v ? def : v->type == CLIMB_JSON_STRING ? v->string : NULL;
}

static int bool_of(const climb_json *o, const char *key, int *out)
{
    const climb_json *v = climb_json_get(o, key);
    if (!v) {
        *out = 0;
        return 0;
    }
    if (v->type != CLIMB_JSON_BOOL)
        return -1;
    *out = v->number != 0;
    return 0;
}

static int num_ok(const climb_json *v) { return v && v->type == CLIMB_JSON_NUMBER && isfinite(v->number); }

static int plot_lines(FILE *out, const char *path, const climb_json *spec, const char *title, const char *subtitle)
{
    const climb_json *ser = climb_json_get(spec, "series"), *ceil_ = climb_json_get(spec, "ceilings");
    const char *xl = str_of(spec, "x_label", ""), *yl = str_of(spec, "y_label", "");
    int log_x, x_bytes;
    if (!xl || !yl)
        return bad(path, spec, "x_label and y_label are strings");
    if (bool_of(spec, "log_x", &log_x) || bool_of(spec, "x_bytes", &x_bytes))
        return bad(path, spec, "log_x and x_bytes are true or false");
    if (!ser || ser->type != CLIMB_JSON_ARRAY || ser->n < 1)
        return bad(path, ser ? ser : spec, "\"series\": a list of at least one {\"label\", \"points\"}");
    if (ceil_ && ceil_->type != CLIMB_JSON_ARRAY)
        return bad(path, ceil_, "\"ceilings\": a list of {\"value\", \"label\"}");
    const int ns = ser->n, nc = ceil_ ? ceil_->n : 0;
    line_series *s = calloc((size_t)ns, sizeof *s);
    double *cv = calloc((size_t)nc + 1, sizeof *cv);
    const char **cl = calloc((size_t)nc + 1, sizeof *cl);
    int rc = 0;
    if (!s || !cv || !cl) {
        fprintf(stderr, "climb plot: out of host memory\n");
        rc = EXIT_FAILED;
    }
    for (int i = 0; !rc && i < ns; i++) {
        const climb_json *e = &ser->items[i], *pts = climb_json_get(e, "points");
        s[i].label = str_of(e, "label", NULL);
        if (e->type != CLIMB_JSON_OBJECT || !s[i].label || !pts || pts->type != CLIMB_JSON_ARRAY || pts->n < 1) {
            rc = bad(path, e, "a series is {\"label\": text, \"points\": [[x, y], ...]} with at least one point");
            break;
        }
        s[i].n = pts->n;
        s[i].x = malloc(sizeof(double) * (size_t)pts->n);
        s[i].y = malloc(sizeof(double) * (size_t)pts->n);
        if (!s[i].x || !s[i].y) {
            fprintf(stderr, "climb plot: out of host memory\n");
            rc = EXIT_FAILED;
            break;
        }
        for (int k = 0; k < pts->n; k++) {
            const climb_json *p = &pts->items[k];
            if (p->type != CLIMB_JSON_ARRAY || p->n != 2 || !num_ok(&p->items[0]) || !num_ok(&p->items[1])) {
                rc = bad(path, p, "a point is [x, y], two finite numbers");
                break;
            }
            s[i].x[k] = p->items[0].number;
            s[i].y[k] = p->items[1].number;
            if (log_x && !(s[i].x[k] > 0)) {
                rc = bad(path, p, "log_x: every x must be above 0");
                break;
            }
        }
    }
    for (int c = 0; !rc && c < nc; c++) {
        const climb_json *e = &ceil_->items[c];
        cl[c] = str_of(e, "label", NULL);
        if (e->type != CLIMB_JSON_OBJECT || !cl[c] || !num_ok(climb_json_get(e, "value"))) {
            rc = bad(path, e, "a ceiling is {\"value\": a number, \"label\": text}");
            break;
        }
        cv[c] = climb_json_get(e, "value")->number;
    }
    if (!rc)
        draw_lines(out, title, subtitle, xl, yl, log_x, x_bytes, s, ns, cv, cl, nc);
    for (int i = 0; s && i < ns; i++) {
        free(s[i].x);
        free(s[i].y);
    }
    free(s);
    free(cv);
    free(cl);
    return rc;
}

static int plot_bars(FILE *out, const char *path, const climb_json *spec, const char *title, const char *subtitle)
{
    const climb_json *bars = climb_json_get(spec, "bars"), *lv = climb_json_get(spec, "level");
    const char *note = str_of(spec, "note", "");
    if (!note)
        return bad(path, spec, "\"note\" is text");
    if (lv && !num_ok(lv))
        return bad(path, lv, "\"level\" is a number");
    if (!bars || bars->type != CLIMB_JSON_ARRAY || bars->n < 1)
        return bad(path, bars ? bars : spec, "\"bars\": a list of at least one {\"label\", \"value\", \"group\"}");
    const int n = bars->n;
    const char **label = calloc((size_t)n, sizeof *label);
    double *v = calloc((size_t)n, sizeof *v);
    int *group = calloc((size_t)n, sizeof *group), rc = 0;
    if (!label || !v || !group) {
        fprintf(stderr, "climb plot: out of host memory\n");
        rc = EXIT_FAILED;
    }
    for (int i = 0; !rc && i < n; i++) {
        const climb_json *e = &bars->items[i], *val = climb_json_get(e, "value");
        long g = 0;
        label[i] = str_of(e, "label", NULL);
        if (e->type != CLIMB_JSON_OBJECT || !label[i] || !num_ok(val) || !(val->number >= 0) ||
            (climb_json_get(e, "group") && !climb_json_int(climb_json_get(e, "group"), 0, 1000, &g))) {
            rc = bad(path, e, "a bar is {\"label\": text, \"value\": a number >= 0, \"group\": 0 to 1000}");
            break;
        }
        v[i] = val->number;
        group[i] = (int)g;
    }
    if (!rc)
        draw_bars(out, title, subtitle, note, lv ? lv->number : 1.0, label, v, group, n);
    free(label);
    free(v);
    free(group);
    return rc;
}

/* The whole of standard input (at most max bytes); NULL with a message. */
static char *read_stdin(size_t max, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        const size_t got = fread(buf + n, 1, cap - n, stdin);
        n += got;
        if (n < cap)
            break;
        if (cap >= max) {
            fprintf(stderr, "climb plot: standard input: larger than any chart description (%zu bytes)\n", max);
            free(buf);
            return NULL;
        }
        char *more = realloc(buf, cap * 2);
        if (!more)
            free(buf);
        buf = more;
        cap *= 2;
    }
    if (!buf)
        fprintf(stderr, "climb plot: out of host memory\n");
    *len = n;
    return buf;
}

int cmd_plot(int argc, char **argv)
{
    const char *spec_path = NULL, *out_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(PLOT_USAGE, stdout);
            return 0;
        }
        if (strcmp(argv[i], "-o") == 0) {
            if (i + 1 >= argc)
                return usage_error(PLOT_USAGE, "plot: -o needs a file name%s", "");
            out_path = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return usage_error(PLOT_USAGE, "plot: unknown option '%s'", argv[i]);
        } else if (!spec_path) {
            spec_path = argv[i];
        } else {
            return usage_error(PLOT_USAGE, "plot: one description, not '%s' too", argv[i]);
        }
    }
    if (!spec_path)
        return usage_error(PLOT_USAGE, "plot: name a chart description (a JSON file, or - for standard input)%s", "");
    const size_t max = (size_t)64 << 20;
    char *text = NULL;
    size_t len = 0;
    char why[300];
    if (strcmp(spec_path, "-") == 0) {
        text = read_stdin(max, &len);
        if (!text)
            return EXIT_FAILED;
        spec_path = "<stdin>";
    } else if (climb_read_file(spec_path, max, "chart description", (unsigned char **)&text, &len, why, sizeof why) !=
               0) {
        fprintf(stderr, "climb plot: %s\n", why);
        return EXIT_USAGE;
    }
    climb_json *spec = climb_json_parse(text, len, why, sizeof why);
    free(text);
    if (!spec) {
        fprintf(stderr, "climb plot: %s:%s\n", spec_path, strncmp(why, "line ", 5) == 0 ? why + 5 : why);
        return EXIT_USAGE;
    }
    const char *chart = str_of(spec, "chart", NULL), *title = str_of(spec, "title", ""),
               *subtitle = str_of(spec, "subtitle", "");
    int rc;
    if (spec->type != CLIMB_JSON_OBJECT || !chart || (strcmp(chart, "lines") != 0 && strcmp(chart, "bars") != 0))
        rc = bad(spec_path, spec, "\"chart\" is \"lines\" or \"bars\"");
    else if (!title || !subtitle)
        rc = bad(spec_path, spec, "\"title\" and \"subtitle\" are text");
    else {
        FILE *out = out_path ? fopen(out_path, "w") : stdout;
        if (!out) {
            fprintf(stderr, "climb plot: cannot write %s\n", out_path);
            rc = EXIT_FAILED;
        } else {
            rc = strcmp(chart, "lines") == 0 ? plot_lines(out, spec_path, spec, title, subtitle)
                                             : plot_bars(out, spec_path, spec, title, subtitle);
            if (out_path && fclose(out) != 0 && rc == 0) {
                fprintf(stderr, "climb plot: could not finish writing %s\n", out_path);
                rc = EXIT_FAILED;
            }
            if (out_path && rc != 0)
                remove(out_path);
        }
    }
    climb_json_free(spec);
    return rc;
}
