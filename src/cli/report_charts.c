/* climb report's charts (inline SVG): the roofline of one GPU and the ladder chart of one case, drawn with the
 * plotting module (plot.c) from the view of the reports read (report_view.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "report_view.h"

/* ---- the roofline of one GPU ---- */

typedef struct {
    const rp_pick *pick;
    const rp_case *cs;          /* its largest case with flops */
} rl_series;

/* The case of a workload the roofline shows: of the first type met, the one with the most work (flops + bytes
 * of its rows), where any of its rows counts flops. NULL: no case counts flops. */
static const rp_case *roofline_case(const rp_cases *cases)
{
    const rp_case *best = NULL;
    const char *type = NULL;
    double most = -1;
    for (int c = 0; c < cases->n; c++) {
        const rp_case *cs = &cases->cases[c];
        double work = -1;
        for (int i = 0; i < cs->n; i++) {
            const double fl = climb_jnum(cs->rows[i], "flops");
            if (rp_row_ok(cs->rows[i]) && fl > 0 && rp_row_bytes(cs->rows[i]) > 0)
                work = fmax(work, fl + rp_row_bytes(cs->rows[i]));
        }
        if (work < 0)
            continue;
        const char *t = climb_jstr(cs->rows[0], "type");
        if (!type)
            type = t;
        if (climb_same_text(t, type) && work > most) {
            most = work;
            best = cs;
        }
    }
    return best;
}

typedef struct {
    const char *name;
    const char *label;
    double rate;                /* GB/s for memory, G/s for compute */
    int memory;
    const char *dash;
} rl_ceiling;

/* The measured ceilings of GPU g: each from the newest report drawn that measured it (a report measures the SFU
 * rate only for the workloads that need it). *from: the newest report drawn. */
static int ceilings_of(const rp_view *v, int g, rl_ceiling *out, const rp_file **from)
{
    int n = 0;
    *from = NULL;
    const struct {
        const char *key, *label, *dash;
        int memory;
    } K[] = {{"read_gbs", "read", "", 1},        {"copy_gbs", "copy", "6,3", 1},
             {"ffma_gflops", "FP32 FFMA", "", 0}, {"dfma_gflops", "FP64 DFMA", "6,3", 0},
             {"sfu_gops", "SFU (MUFU)", "2,3", 0},         {"tensor_bf16_gflops", "tensor BF16", "8,2", 0},
             {"tensor_tf32_gflops", "tensor TF32", "8,2,2,2", 0}};
    for (size_t k = 0; k < sizeof K / sizeof K[0]; k++) {
        const rp_file *newest = NULL;
        double rate = NAN;
        for (int w = 0; w < v->n_workloads; w++) {
            const rp_file *p = v->picks[g * v->n_workloads + w].file;
            const climb_json *m = p && p->f.device ? climb_json_get(p->f.device, "measured") : NULL;
            const double x = m && m->type == CLIMB_JSON_OBJECT ? climb_jnum(m, K[k].key) : NAN;
            if (p && p->f.device && (!*from || strcmp(p->f.date ? p->f.date : "", (*from)->f.date ? (*from)->f.date : "") > 0))
                *from = p;
            if (x > 0 && (!newest || strcmp(p->f.date ? p->f.date : "", newest->f.date ? newest->f.date : "") > 0)) {
                newest = p;
                rate = x;
            }
        }
        if (rate > 0)
            out[n++] = (rl_ceiling){K[k].key, K[k].label, rate, K[k].memory, K[k].dash};
    }
    return n;
}

/* One GPU's roofline: returns the number of workloads drawn. */
int rp_roofline_svg(FILE *f, const rp_view *v, int g, FILE *legend)
{
    rl_ceiling ceil[8];
    const rp_file *newest;
    const int n_ceil = ceilings_of(v, g, ceil, &newest);
    rl_series *series = calloc((size_t)v->n_workloads + 1, sizeof *series);
    rp_cases *all = calloc((size_t)v->n_workloads + 1, sizeof *all);
    int n = 0;
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
    for (int w = 0; series && all && w < v->n_workloads; w++) {
        const rp_pick *p = &v->picks[g * v->n_workloads + w];
        if (!p->file || rp_cases_of(p, &all[n]) != 0)
            continue;
        const rp_case *cs = roofline_case(&all[n]);
        if (!cs) {
            rp_free_cases(&all[n]);
            continue;
        }
        series[n].pick = p;
        series[n].cs = cs;
        for (int i = 0; i < cs->n; i++) {
            const double fl = climb_jnum(cs->rows[i], "flops"), b = rp_row_bytes(cs->rows[i]),
                         r = climb_jnum(cs->rows[i], "gflops");
            if (!rp_row_ok(cs->rows[i]) || !(fl > 0) || !(b > 0) || !(r > 0))
                continue;
            xlo = fmin(xlo, fl / b);
            xhi = fmax(xhi, fl / b);
            ylo = fmin(ylo, r);
            yhi = fmax(yhi, r);
        }
        n++;
    }
    if (n == 0) {
        free(series);
        free(all);
        return 0;
    }
    double peak = 0, bw_lo = INFINITY;
    for (int c = 0; c < n_ceil; c++) {
        if (ceil[c].memory)
            bw_lo = fmin(bw_lo, ceil[c].rate);
        else
            peak = fmax(peak, ceil[c].rate);
    }
    yhi = fmax(yhi, peak);
    if (bw_lo < INFINITY && peak > 0)
        xhi = fmax(xhi, 2 * peak / bw_lo); /* past the ridge */
    const double W = 760, H = 470, L = 70, R = 130, T = 20, B = 50;
    plot_axis x, y;
    plot_log_axis(&x, xlo / 2, xhi * 2, L, W - R);
    plot_log_axis(&y, ylo / 2, yhi * 1.5, H - B, T);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n<title>Roofline</title>\n",
            W, H, W, H);
    fprintf(f, "<defs><clipPath id=\"plot%d\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/></clipPath>"
               "</defs>\n",
            g, L, T, W - R - L, H - B - T);
    plot_log_grid(f, &x, &y, T, H - B, L, W - R);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"frame\"/>\n", L, T, W - R - L,
            H - B - T);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"label\" text-anchor=\"middle\">arithmetic intensity (flops per "
               "byte moved)</text>\n",
            (L + W - R) / 2, H - 12);
    fprintf(f, "<text x=\"14\" y=\"%.1f\" class=\"label\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">"
               "GFLOP/s</text>\n",
            (T + H - B) / 2, (T + H - B) / 2);
    /* ceilings: a memory line rises with intensity until the highest compute ceiling; a compute line is flat from
       where the fastest memory line meets it */
    double bw_hi = 0;
    for (int c = 0; c < n_ceil; c++)
        if (ceil[c].memory)
            bw_hi = fmax(bw_hi, ceil[c].rate);
    fprintf(f, "<g clip-path=\"url(#plot%d)\">\n", g);
    for (int c = 0; c < n_ceil; c++) {
        const rl_ceiling *k = &ceil[c];
        double x0, x1, y0, y1;
        if (k->memory) {
            x0 = x.lo;
            x1 = peak > 0 ? peak / k->rate : x.hi;
            y0 = k->rate * x0;
            y1 = k->rate * x1;
        } else {
            x0 = bw_hi > 0 ? k->rate / bw_hi : x.lo;
            x1 = x.hi;
            y0 = y1 = k->rate;
        }
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ceiling\"%s%s%s><title>%s: "
                   "%.0f %s (measured)</title></line>\n",
                plot_at(&x, x0), plot_at(&y, y0), plot_at(&x, x1), plot_at(&y, y1), k->dash[0] ? " stroke-dasharray=\"" : "",
                k->dash, k->dash[0] ? "\"" : "", k->label, k->rate, k->memory ? "GB/s" : "G/s");
    }
    fputs("</g>\n", f);
    for (int c = 0; c < n_ceil; c++) { /* labels outside the clip, at the right edge or the top */
        const rl_ceiling *k = &ceil[c];
        if (k->memory) {
            const double xe = peak > 0 ? fmin(peak / k->rate, x.hi) : x.hi;
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"clabel\" text-anchor=\"end\">%s %.0f GB/s</text>\n",
                    plot_at(&x, xe) - 4, plot_at(&y, k->rate * xe) + (c == 0 ? -6 : 14), k->label, k->rate);
        } else {
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"clabel\">%s %.0f G/s</text>\n", W - R + 4,
                    plot_at(&y, k->rate) + 4, k->label, k->rate);
        }
    }
    for (int s = 0; s < n; s++) {
        const rp_case *cs = series[s].cs;
        const char *color = plot_color(s);
        /* the ladder, in rung order, joined up to the best rung */
        fputs("<g><title>", f);
        plot_esc(f, series[s].pick->workload);
        fprintf(f, "</title><polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", color);
        double best_ord = INFINITY;
        for (int i = 0; i < cs->n; i++)
            if (climb_same_text(rp_kind_of(cs->rows[i]), "best"))
                best_ord = climb_jnum(cs->rows[i], "ordinal");
        const climb_json **line = calloc((size_t)cs->n + 1, sizeof *line);
        int n_line = 0;
        for (int i = 0; line && i < cs->n; i++) {
            const climb_json *row = cs->rows[i];
            const char *k = rp_kind_of(row);
            const double fl = climb_jnum(row, "flops"), b = rp_row_bytes(row), r = climb_jnum(row, "gflops"),
                         ord = climb_jnum(row, "ordinal");
            if (!rp_row_ok(row) || !(fl > 0) || !(b > 0) || !(r > 0) || !(climb_same_text(k, "ladder") || climb_same_text(k, "best")) ||
                ord > best_ord)
                continue;
            int at = n_line++; /* insertion by ordinal */
            while (at > 0 && climb_jnum(line[at - 1], "ordinal") > ord) {
                line[at] = line[at - 1];
                at--;
            }
            line[at] = row;
        }
        for (int i = 0; i < n_line; i++)
            fprintf(f, "%.1f,%.1f ", plot_at(&x, climb_jnum(line[i], "flops") / rp_row_bytes(line[i])),
                    plot_at(&y, climb_jnum(line[i], "gflops")));
        free(line);
        fputs("\"/></g>\n", f);
        for (int i = 0; i < cs->n; i++) {
            const climb_json *row = cs->rows[i];
            const char *k = rp_kind_of(row), *rung = climb_jstr(row, "rung");
            const double fl = climb_jnum(row, "flops"), b = rp_row_bytes(row), r = climb_jnum(row, "gflops");
            if (!rp_row_ok(row) || !(fl > 0) || !(b > 0) || !(r > 0))
                continue;
            const double px = plot_at(&x, fl / b), py = plot_at(&y, r);
            fputs("<g>", f);
            if (climb_same_text(k, "vendor") || climb_same_text(k, "bound"))
                fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"%s\" stroke=\"#000\" "
                           "stroke-width=\"%s\"/>",
                        px - 4.5, py - 4.5, climb_same_text(k, "vendor") ? color : "#fff", climb_same_text(k, "vendor") ? "1.5" : "1");
            else
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\"%s/>", px, py,
                        climb_same_text(k, "best") ? "6" : "3.5", color, climb_same_text(k, "best") ? " stroke=\"#000\" stroke-width=\"1.5\"" : "");
            char shape[600], pct[32];
            rp_shape_text(row, shape, sizeof shape);
            plot_num(pct, sizeof pct, climb_jnum(row, "pct_roofline"));
                fputs("<title>", f);
            plot_esc(f, series[s].pick->workload);
            fputs(" ", f);
            plot_esc(f, rung);
            fprintf(f, " (%s), ", k);
            plot_esc(f, shape);
            fprintf(f, ": %.3g flops/byte, %.4g GFLOP/s, %s%% of roofline</title></g>\n", fl / b, r, pct);
        }
        if (legend) {
            fprintf(legend, "<li><span class=\"swatch\" style=\"background:%s\"></span><a href=\"#wl-", color);
            plot_esc(legend, series[s].pick->workload);
            fputs("\">", legend);
            plot_esc(legend, series[s].pick->workload);
            fputs("</a>: ", legend);
            char shape[600];
            rp_shape_text(cs->rows[0], shape, sizeof shape);
            plot_esc(legend, shape);
            fputs("</li>\n", legend);
        }
    }
    fputs("</svg>\n", f);
    for (int s = 0; s < n; s++)
        rp_free_cases(&all[s]);
    free(series);
    free(all);
    return n;
}

/* ---- the ladder chart of one case ---- */

/* The published figure of a rung on this case: the registry's published case must be this row's type and shape. */
static double published_us(const climb_json *reg, const climb_json *row)
{
    const climb_json *pub = reg ? climb_json_get(reg, "published") : NULL;
    if (!pub || pub->type != CLIMB_JSON_OBJECT || !climb_same_text(climb_jstr(pub, "type"), climb_jstr(row, "type")))
        return NAN;
    const climb_json *a = climb_json_get(pub, "shape"), *b = climb_json_get(row, "shape");
    if (!a || !b || a->type != CLIMB_JSON_ARRAY || b->type != CLIMB_JSON_ARRAY || a->n != b->n)
        return NAN;
    for (int i = 0; i < a->n; i++)
        if (a->items[i].number != b->items[i].number)
            return NAN;
    const climb_json *rungs = climb_json_get(reg, "rungs");
    for (int i = 0; rungs && rungs->type == CLIMB_JSON_ARRAY && i < rungs->n; i++)
        if (climb_same_text(climb_jstr(&rungs->items[i], "name"), climb_jstr(row, "rung")))
            return climb_jnum(&rungs->items[i], "published_us");
    return NAN;
}

void rp_ladder_svg(FILE *f, const rp_pick *p, const rp_case *cs)
{
    const climb_json *pub = p->reg ? climb_json_get(p->reg, "published") : NULL;
    const char *pub_gpu = pub && pub->type == CLIMB_JSON_OBJECT ? climb_jstr(pub, "gpu") : NULL;
    double lo = INFINITY, hi = 0;
    int bars = 0, has_pub = 0;
    for (int i = 0; i < cs->n; i++) {
        const climb_json *row = cs->rows[i];
        const char *k = rp_kind_of(row);
        const double t = climb_jnum(row, "median_us"), roof = climb_jnum(row, "roofline_us"),
                     pu = published_us(p->reg, row);
        if (!climb_same_text(k, "vendor") && !climb_same_text(k, "bound"))
            bars++;
        if (pu > 0)
            has_pub = 1;
        const double vals[] = {rp_row_ok(row) ? t : NAN, rp_row_ok(row) ? roof : NAN, pu};
        for (int j = 0; j < 3; j++)
            if (vals[j] > 0) {
                lo = fmin(lo, vals[j]);
                hi = fmax(hi, vals[j]);
            }
    }
    if (!(hi > 0)) {
        fputs("<p class=\"none\">No rung ran on this case.</p>\n", f);
        return;
    }
    const double W = 760, L = 250, R = 170, T = 30, rowh = has_pub ? 30 : 22, B = 30;
    const double H = T + bars * rowh + B;
    plot_axis x;
    plot_log_axis(&x, lo / 1.2, hi * 1.2, L, W - R);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n<title>",
            W, H, W, H);
    plot_esc(f, p->workload);
    fputs(" ", f);
    char shape[600];
    rp_shape_text(cs->rows[0], shape, sizeof shape);
    plot_esc(f, shape);
    fputs(": median time per rung (log scale)</title>\n", f);
    plot_log_grid(f, &x, NULL, T - 6, H - B, L, W - R);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"label\" text-anchor=\"middle\">median µs (log scale)</text>\n",
            (L + W - R) / 2, H - 2);
    int at = 0;
    for (int i = 0; i < cs->n; i++) {
        const climb_json *row = cs->rows[i];
        const char *k = rp_kind_of(row), *rung = climb_jstr(row, "rung"), *status = climb_jstr(row, "status");
        if (climb_same_text(k, "vendor") || climb_same_text(k, "bound"))
            continue;
        const double y0 = T + at * rowh, t = climb_jnum(row, "median_us"), roof = climb_jnum(row, "roofline_us");
        at++;
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"rung%s\" text-anchor=\"end\">", L - 6, y0 + 13,
                climb_same_text(k, "best") ? " best" : "");
        plot_esc(f, rung);
        fputs("</text>", f);
        if (rp_row_ok(row) && t > 0) {
            char a[32], pct[32];
            plot_num(a, sizeof a, t);
            plot_num(pct, sizeof pct, climb_jnum(row, "pct_roofline"));
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" class=\"bar %s\"><title>", L,
                    y0 + 3, fmax(1, plot_at(&x, t) - L), climb_same_text(k, "best") ? "bestbar" : "ladderbar");
            plot_esc(f, rung);
            fprintf(f, ": %s µs median, noise %.1f%%, %s%% of roofline</title></rect>", a,
                    climb_jnum(row, "noise_pct"), pct);
            if (roof > 0)
                fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"rooftick\"/>",
                        plot_at(&x, roof), y0 + 1, plot_at(&x, roof), y0 + 19);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"val\">%s µs%s%s%s</text>", W - R + 6, y0 + 13, a,
                    isnan(climb_jnum(row, "pct_roofline")) ? "" : ", ", isnan(climb_jnum(row, "pct_roofline")) ? "" : pct,
                    isnan(climb_jnum(row, "pct_roofline")) ? "" : "% roof");
        } else {
            const char *note = climb_jstr(row, "note");
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"status\"><title>", L + 4, y0 + 13);
            plot_esc(f, note);
            fputs("</title>", f);
            plot_esc(f, status ? status : "not run");
            if (note && note[0]) {
                char cut[72];
                snprintf(cut, sizeof cut, "%s", note);
                fputs(": ", f);
                plot_esc(f, cut);
                if (strlen(note) >= sizeof cut - 1)
                    fputs("…", f);
            }
            fputs("</text>", f);
        }
        const double pu = published_us(p->reg, row);
        if (pu > 0) {
            char a[32];
            plot_num(a, sizeof a, pu);
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"6\" class=\"bar pubbar\"><title>published "
                       "(%s): %s µs</title></rect>",
                    L, y0 + 19, fmax(1, plot_at(&x, pu) - L), pub_gpu ? pub_gpu : "?", a);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"pub\">published (", W - R + 6, y0 + 26);
            plot_esc(f, pub_gpu ? pub_gpu : "?");
            fprintf(f, ") %s µs</text>", a);
        }
        fputs("\n", f);
    }
    /* vendor and bound rungs: lines across the bars, labelled on top */
    int labels = 0;
    for (int i = 0; i < cs->n; i++) {
        const climb_json *row = cs->rows[i];
        const char *k = rp_kind_of(row);
        const double t = climb_jnum(row, "median_us");
        if (!(climb_same_text(k, "vendor") || climb_same_text(k, "bound")) || !rp_row_ok(row) || !(t > 0))
            continue;
        char a[32];
        plot_num(a, sizeof a, t);
        const double px = plot_at(&x, t);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"%s\"><title>", px, T - 4, px,
                H - B, climb_same_text(k, "vendor") ? "vendorline" : "boundline");
        plot_esc(f, climb_jstr(row, "rung"));
        fprintf(f, " (%s): %s µs</title></line>", k, a);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\" text-anchor=\"%s\">", px, T - 8 - 10.0 * (labels % 2),
                climb_same_text(k, "vendor") ? "vendorlabel" : "boundlabel", px > (L + W - R) / 2 ? "end" : "start");
        plot_esc(f, climb_jstr(row, "rung"));
        fprintf(f, " %s µs</text>\n", a);
        labels++;
    }
    fputs("</svg>\n", f);
}
