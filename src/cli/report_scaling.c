/* climb report's scaling section: for each GPU and workload measured on one GPU and on more, each case's best rung
 * at every count of GPUs, drawn and tabled. The count of a report is the number of GPUs its device_set names (1
 * without one); reports of one process a GPU (`processes` above 0), sweeps and batch timing are left out, and where
 * two reports hold a case at one count the one climb report would draw is taken. A case is a weak-scaling case when
 * its options hold every `--set NAME=VALUE` of the workload's weak_scaling arguments (this build's registry, else
 * the report's): each GPU's share is the case, and the efficiency is one GPU's time over N's; every other case is
 * strong scaling (the same problem at every count): the speed-up is one GPU's time over N's, the efficiency the
 * speed-up over N. Only cases measured on one GPU and on at least one count more are shown. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/workload.h"
#include "plot.h"
#include "report_view.h"

typedef struct {
    char key[700];
    int gpus;
    const climb_json *row;  /* the best rung's row */
    const rp_file *file;
} sc_point;

typedef struct {
    sc_point *pts;
    int n, cap;
} sc_points;

/* The GPUs a report's cases ran on: its device_set's devices, else 1. */
static int gpus_of(const rp_file *f)
{
    const climb_json *set = climb_json_get(f->f.root, "device_set");
    const climb_json *devs = set && set->type == CLIMB_JSON_OBJECT ? climb_json_get(set, "devices") : NULL;
    return devs && devs->type == CLIMB_JSON_ARRAY && devs->n > 0 ? devs->n : 1;
}

/* A report that counts here: a plain cold bench of one process. */
static int counts(const rp_file *f)
{
    const double procs = climb_jnum(f->f.root, "processes");
    return !f->f.sweep && climb_same_text(f->f.timing, "cold") && !(procs > 0);
}

static const climb_json *best_of(const rp_file *f, const char *workload, int i)
{
    const climb_json *row = &f->f.results->items[i];
    const double t = climb_jnum(row, "median_us");
    return climb_same_text(climb_jstr(row, "workload"), workload) && climb_same_text(rp_kind_of(row), "best") &&
                   rp_row_ok(row) && t > 0
               ? row
               : NULL;
}

/* Every (case, count) of one GPU's reports of a workload, the report climb report would draw where two hold one. */
static int collect(const rp_set *s, const char *gpu, const char *workload, sc_points *out)
{
    for (int i = 0; i < s->n; i++) {
        const rp_file *f = &s->files[i];
        if (strcmp(rp_gpu_of(f), gpu) != 0 || !counts(f))
            continue;
        const int n = gpus_of(f);
        for (int r = 0; r < f->f.results->n; r++) {
            const climb_json *row = best_of(f, workload, r);
            if (!row)
                continue;
            char key[700];
            climb_row_key(row, 0, key, sizeof key);
            int at = 0;
            while (at < out->n && !(out->pts[at].gpus == n && strcmp(out->pts[at].key, key) == 0))
                at++;
            if (at < out->n) {
                if (rp_better(f, out->pts[at].file, workload))
                    out->pts[at].row = row, out->pts[at].file = f;
                continue;
            }
            if (out->n == out->cap) {
                const int cap = out->cap ? 2 * out->cap : 16;
                sc_point *p = realloc(out->pts, (size_t)cap * sizeof *p);
                if (!p)
                    return -1;
                out->pts = p;
                out->cap = cap;
            }
            sc_point *p = &out->pts[out->n++];
            snprintf(p->key, sizeof p->key, "%s", key);
            p->gpus = n;
            p->row = row;
            p->file = f;
        }
    }
    return 0;
}

/* 1 when a row's options hold every --set NAME=VALUE of weak (the workload's weak-scaling arguments). */
int rp_weak_case(const char *weak, const climb_json *row)
{
    if (!weak)
        return 0;
    char opts[520] = " ", words[400];
    climb_row_options_text(climb_json_get(row, "options"), opts + 1, sizeof opts - 2);
    strcat(opts, " ");
    snprintf(words, sizeof words, "%s", weak);
    int sets = 0, next_is_set = 0;
    for (char *save = NULL, *t = strtok_r(words, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (strcmp(t, "--set") == 0) {
            next_is_set = 1;
            continue;
        }
        if (!next_is_set)
            continue;
        next_is_set = 0;
        for (char *s2 = NULL, *kv = strtok_r(t, ",", &s2); kv; kv = strtok_r(NULL, ",", &s2)) {
            char want[260];
            snprintf(want, sizeof want, " %s ", kv);
            if (!strstr(opts, want))
                return 0;
            sets++;
        }
    }
    return sets > 0;
}

static int cmp_point(const void *a, const void *b)
{
    const sc_point *p = a, *q = b;
    const int k = strcmp(p->key, q->key);
    return k ? k : (p->gpus > q->gpus) - (p->gpus < q->gpus);
}

/* The one-GPU time of the case of pts[i] (sorted: a case's counts together, 1 first where measured), or NaN. */
static double one_gpu_us(const sc_points *pts, int i)
{
    int j = i;
    while (j > 0 && strcmp(pts->pts[j - 1].key, pts->pts[i].key) == 0)
        j--;
    return pts->pts[j].gpus == 1 ? climb_jnum(pts->pts[j].row, "median_us") : NAN;
}

static int shown(const sc_points *pts, int i)
{
    int n = 0;
    for (int j = 0; j < pts->n; j++)
        n += strcmp(pts->pts[j].key, pts->pts[i].key) == 0;
    return n > 1 && !isnan(one_gpu_us(pts, i));
}

/* One chart: strong (speed-up against GPUs, the ideal y = N dashed) or weak (efficiency in %, 100% dashed); the
 * legend, a line a case, under the axis. */
static void chart(FILE *f, const sc_points *pts, const int *weak, int want_weak, int most, const char *title)
{
    int cases = 0;
    double top = want_weak ? 100 : most;
    for (int i = 0; i < pts->n; i++)
        if (weak[i] == want_weak && shown(pts, i)) {
            const double v = one_gpu_us(pts, i) / climb_jnum(pts->pts[i].row, "median_us");
            top = fmax(top, want_weak ? 100 * v : v);
            cases += i == 0 || strcmp(pts->pts[i - 1].key, pts->pts[i].key) != 0;
        }
    const double W = 560, L = 72, R = 24, T = 20, B = 48 + 15.0 * cases, H = T + 230 + B;
    const double step = want_weak ? 25 : most <= 8 ? 1 : most / 4.0;
    const double ymax = step * ceil(top * 1.04 / step);
    plot_axis x, y;
    plot_lin_axis(&x, 0, log2((double)most), L, W - R);
    plot_lin_axis(&y, 0, ymax, H - B, T);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n<title>",
            W, H, W, H);
    plot_esc(f, title);
    fputs("</title>\n", f);
    for (double v = 0; v <= ymax + step / 2; v += step) { /* the y grid */
        char a[32];
        snprintf(a, sizeof a, "%g", v);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/><text x=\"%.1f\" "
                   "y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s%s</text>\n",
                L, plot_at(&y, v), W - R, plot_at(&y, v), L - 5, plot_at(&y, v) + 4, a, want_weak ? "%" : "×");
    }
    for (int n = 1; n <= most; n *= 2) /* the x ticks: every power of two up to the most GPUs */
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%d</text>\n",
                plot_at(&x, log2((double)n)), H - B + 15, n);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"label\" text-anchor=\"middle\">GPUs</text>\n", (L + W - R) / 2,
            H - B + 32);
    fprintf(f, "<text x=\"14\" y=\"%.1f\" class=\"label\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">"
               "%s</text>\n",
            (T + H - B) / 2, (T + H - B) / 2, want_weak ? "efficiency" : "speed-up over one GPU");
    if (want_weak) /* the ideal */
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ideal\" fill=\"none\" stroke=\"#888\" stroke-dasharray=\"5,4\"><title>ideal: "
                   "100%%</title></line>\n",
                L, plot_at(&y, 100), W - R, plot_at(&y, 100));
    else {
        fputs("<polyline class=\"ideal\" fill=\"none\" stroke=\"#888\" stroke-dasharray=\"5,4\" points=\"", f);
        for (int n = 1; n <= most; n *= 2)
            fprintf(f, "%s%.1f,%.1f", n > 1 ? " " : "", plot_at(&x, log2((double)n)), plot_at(&y, n));
        fputs("\"><title>ideal: N times one GPU</title></polyline>\n", f);
    }
    int series = 0;
    for (int i = 0; i < pts->n;) {
        int j = i;
        while (j < pts->n && strcmp(pts->pts[j].key, pts->pts[i].key) == 0)
            j++;
        if (weak[i] != want_weak || !shown(pts, i)) {
            i = j;
            continue;
        }
        const char *color = plot_color(series++);
        char shape[600];
        rp_shape_text(pts->pts[i].row, shape, sizeof shape);
        fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" points=\"", color);
        for (int k = i; k < j; k++) {
            const double v = one_gpu_us(pts, k) / climb_jnum(pts->pts[k].row, "median_us");
            fprintf(f, "%s%.1f,%.1f", k > i ? " " : "", plot_at(&x, log2((double)pts->pts[k].gpus)),
                    plot_at(&y, want_weak ? 100 * v : v));
        }
        fputs("\"/>\n", f);
        for (int k = i; k < j; k++) {
            const double t = climb_jnum(pts->pts[k].row, "median_us"), v = one_gpu_us(pts, k) / t;
            char a[32], b[32];
            plot_num(a, sizeof a, t);
            plot_num(b, sizeof b, want_weak ? 100 * v : v);
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>",
                    plot_at(&x, log2((double)pts->pts[k].gpus)), plot_at(&y, want_weak ? 100 * v : v), color);
            plot_esc(f, shape);
            fprintf(f, " on %d GPU%s: %s µs, %s%s</title></circle>\n", pts->pts[k].gpus,
                    pts->pts[k].gpus > 1 ? "s" : "", a, b, want_weak ? "% efficiency" : "× one GPU");
        }
        const double ly = H - B + 38 + 15.0 * series;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" class=\"legend\">",
                L, ly - 4, L + 18, ly - 4, color, L + 24, ly);
        plot_esc(f, shape);
        fputs("</text>\n", f);
        i = j;
    }
    fputs("</svg>\n", f);
}

/* The table under the charts, in the page and the markdown. */
static void table(FILE *f, FILE *md, const sc_points *pts, const int *weak)
{
    fputs("<table><tr><th>case</th><th>kind</th><th class=\"n\">GPUs</th><th class=\"n\">µs</th><th class=\"n\">"
          "speed-up</th><th class=\"n\">efficiency</th><th>report</th></tr>\n",
          f);
    fputs("| case | kind | GPUs | µs | speed-up | efficiency | report |\n|---|---|--:|--:|--:|--:|---|\n", md);
    for (int i = 0; i < pts->n; i++) {
        if (!shown(pts, i))
            continue;
        const sc_point *p = &pts->pts[i];
        const double t = climb_jnum(p->row, "median_us"), v = one_gpu_us(pts, i) / t;
        char shape[600], a[32], sp[32] = "-", ef[32];
        rp_shape_text(p->row, shape, sizeof shape);
        plot_num(a, sizeof a, t);
        if (!weak[i])
            snprintf(sp, sizeof sp, "%.2f×", v);
        snprintf(ef, sizeof ef, "%.0f%%", 100 * (weak[i] ? v : v / p->gpus));
        fputs("<tr><td>", f);
        plot_esc(f, shape);
        fprintf(f, "</td><td>%s</td><td class=\"n\">%d</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
                   "<td class=\"n\">%s</td><td>",
                weak[i] ? "weak" : "strong", p->gpus, a, sp, ef);
        plot_esc(f, p->file->path);
        fputs("</td></tr>\n", f);
        fprintf(md, "| %s | %s | %d | %s | %s | %s | %s |\n", shape, weak[i] ? "weak" : "strong", p->gpus, a, sp, ef,
                p->file->path);
    }
    fputs("</table>\n", f);
    fputs("\n", md);
}

int rp_scaling_section(FILE *f, FILE *md, const rp_set *s, const rp_view *v)
{
    int drawn = 0;
    for (int g = 0; g < v->n_gpus; g++)
        for (int w = 0; w < v->n_workloads; w++) {
            sc_points pts = {0};
            if (collect(s, v->gpus[g], v->workloads[w], &pts) != 0) {
                free(pts.pts);
                return -1;
            }
            if (pts.n > 1)
                qsort(pts.pts, (size_t)pts.n, sizeof *pts.pts, cmp_point);
            const climb_workload *now = climb_find_workload(v->workloads[w]);
            const climb_json *reg = v->picks[g * v->n_workloads + w].reg;
            const char *weak_args = now ? now->weak_scaling : reg ? climb_jstr(reg, "weak_scaling") : NULL;
            int *weak = calloc((size_t)pts.n + 1, sizeof *weak);
            if (!weak) {
                free(pts.pts);
                return -1;
            }
            int most = 1, strong_n = 0, weak_n = 0;
            for (int i = 0; i < pts.n; i++) {
                weak[i] = rp_weak_case(weak_args, pts.pts[i].row);
                if (shown(&pts, i)) {
                    most = pts.pts[i].gpus > most ? pts.pts[i].gpus : most;
                    strong_n += !weak[i];
                    weak_n += weak[i];
                }
            }
            if (strong_n + weak_n > 0) {
                int p2 = 1;
                while (p2 < most)
                    p2 *= 2;
                if (!drawn++) {
                    fputs("<h2 id=\"scaling\">Scaling across GPUs</h2>\n<p class=\"muted\">Each workload measured on "
                          "one GPU and on more: each case's best rung at every count. Strong scaling (the same case "
                          "at every count): the speed-up is one GPU's time over N's, the efficiency the speed-up "
                          "over N. Weak scaling (each GPU's share is the case, the problem growing with the GPUs): "
                          "the efficiency is one GPU's time over N's. Dashed: the ideal.</p>\n",
                          f);
                    fputs("## Scaling across GPUs\n\n", md);
                }
                fputs("<h3>", f);
                plot_esc(f, v->workloads[w]);
                fputs(" on ", f);
                plot_esc(f, v->gpus[g]);
                fputs("</h3>\n<div class=\"charts\">\n", f);
                fprintf(md, "### %s on %s\n\n", v->workloads[w], v->gpus[g]);
                char title[300];
                if (strong_n) {
                    snprintf(title, sizeof title, "%s on %s: strong scaling, speed-up over one GPU", v->workloads[w],
                             v->gpus[g]);
                    fputs("<div class=\"case\">", f);
                    chart(f, &pts, weak, 0, p2, title);
                    fputs("</div>\n", f);
                }
                if (weak_n) {
                    snprintf(title, sizeof title, "%s on %s: weak scaling, efficiency", v->workloads[w], v->gpus[g]);
                    fputs("<div class=\"case\">", f);
                    chart(f, &pts, weak, 1, p2, title);
                    fputs("</div>\n", f);
                }
                fputs("</div>\n", f);
                table(f, md, &pts, weak);
            }
            free(weak);
            free(pts.pts);
        }
    return drawn;
}
