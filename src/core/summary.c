/* What the main command ends with: a line a workload, the GPU's folder name, and the committed results nearest to
 * this GPU (report.h). */
#include "report.h"
#include "../io/json.h"
#include "../io/text.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0 .. n) (sorted in place); NAN for none. */
static double median_of(double *v, int n)
{
    if (n == 0)
        return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The geometric mean of v[0 .. n); NAN for none. */
static double geomean_of(const double *v, int n)
{
    if (n == 0)
        return NAN;
    double s = 0;
    for (int i = 0; i < n; i++)
        s += log(v[i]);
    return exp(s / n);
}

void climb_report_summary(const climb_report *r, FILE *f)
{
    double *ratio = malloc(sizeof *ratio * (size_t)(r->n_rows + 1)),
           *roof = malloc(sizeof *roof * (size_t)(r->n_rows + 1));
    if (!ratio || !roof) {
        free(ratio);
        free(roof);
        fprintf(f, "(no summary: out of host memory)\n");
        return;
    }
    fprintf(f, "%-12s %-30s %-48s %s\n", "workload", "best rung", "against", "% of roofline (median)");
    for (int i = 0; i < r->n_rows; i++) {
        const climb_workload *w = r->rows[i].w;
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = r->rows[j].w != w;
        if (!first)
            continue;
        const int best = climb_best_rung(w), vendor = climb_vendor_rung(w), bound = climb_bound_rung(w);
        int n_ratio = 0, n_roof = 0, n_best = 0, bad = 0;
        for (int j = i; j < r->n_rows; j++) {
            const climb_row *row = &r->rows[j];
            if (row->w != w)
                continue;
            bad += row->status == CLIMB_ROW_WRONG || row->status == CLIMB_ROW_ERROR;
            if (row->rung != best || row->status != CLIMB_ROW_OK)
                continue;
            n_best++;
            const double x = vendor >= 0 ? row->vs_vendor : row->vs_bound;
            if (isfinite(x) && x > 0)
                ratio[n_ratio++] = x;
            if (isfinite(row->pct_roofline))
                roof[n_roof++] = row->pct_roofline;
        }
        char against[160] = "";
        if (n_ratio > 0) {
            const double g = geomean_of(ratio, n_ratio);
            double lo = ratio[0], hi = ratio[0];
            for (int k = 1; k < n_ratio; k++) {
                lo = fmin(lo, ratio[k]);
                hi = fmax(hi, ratio[k]);
            }
            const char *who = vendor >= 0 ? w->rung(vendor)->name : bound >= 0 ? w->rung(bound)->name : "?";
            if (n_ratio > 1)
                snprintf(against, sizeof against, "%.2fx %s (%.2f-%.2f, %d cases)", g, who, lo, hi, n_ratio);
            else
                snprintf(against, sizeof against, "%.2fx %s", g, who);
        } else {
            snprintf(against, sizeof against, "%s", n_best ? "no vendor or bound rung to compare" : "not timed");
        }
        char roofline[64] = "-";
        const double m = median_of(roof, n_roof);
        if (isfinite(m))
            snprintf(roofline, sizeof roofline, "%.0f%%", m);
        fprintf(f, "%-12s %-30s %-48s %s%s", w->name, best >= 0 ? w->rung(best)->name : "-", against, roofline,
                bad ? "" : "\n");
        if (bad)
            fprintf(f, "   (%d row%s wrong or failed)\n", bad, bad == 1 ? "" : "s");
    }
    free(ratio);
    free(roof);
}

void climb_gpu_slug(const char *name, char *buf, size_t len)
{
    if (len == 0)
        return;
    if (strncasecmp(name, "NVIDIA ", 7) == 0)
        name += 7;
    size_t n = 0;
    int dash = 0;
    for (const char *p = name; *p && n + 1 < len; p++) {
        if (isalnum((unsigned char)*p)) {
            if (dash && n > 0 && n + 2 < len)
                buf[n++] = '-';
            buf[n++] = (char)tolower((unsigned char)*p);
            dash = 0;
        } else {
            dash = 1;
        }
    }
    buf[n] = '\0';
    if (n == 0)
        snprintf(buf, len, "gpu");
}

/* The device block of results/<gpu>/devices.json: name, compute capability, SMs, theoretical bandwidth. 0 or -1. */
static int folder_device(const char *dir, char *name, size_t namelen, int *cc, double *sms, double *bw)
{
    char path[4400], err[300];
    snprintf(path, sizeof path, "%s/devices.json", dir);
    unsigned char *data = NULL;
    size_t n = 0;
    if (climb_read_file(path, (size_t)16 << 20, "device list", &data, &n, err, sizeof err) != 0)
        return -1;
    climb_json *root = climb_json_parse((const char *)data, n, err, sizeof err);
    free(data);
    if (!root)
        return -1;
    const climb_json *rep = root->type == CLIMB_JSON_ARRAY && root->n > 0 ? &root->items[0] : root;
    const climb_json *dev = climb_json_get(rep, "device"), *nm = climb_json_get(dev, "name"),
                     *ccj = climb_json_get(dev, "compute_capability"), *smj = climb_json_get(dev, "sms"),
                     *th = climb_json_get(dev, "theoretical"), *bwj = climb_json_get(th, "bandwidth_gbs");
    int rc = -1;
    if (nm && nm->type == CLIMB_JSON_STRING && ccj && ccj->type == CLIMB_JSON_STRING && smj &&
        smj->type == CLIMB_JSON_NUMBER && bwj && bwj->type == CLIMB_JSON_NUMBER) {
        int major = 0, minor = 0;
        if (sscanf(ccj->string, "%d.%d", &major, &minor) == 2) {
            snprintf(name, namelen, "%s", nm->string);
            *cc = 10 * major + minor;
            *sms = smj->number;
            *bw = bwj->number;
            rc = 0;
        }
    }
    climb_json_free(root);
    return rc;
}

int climb_results_nearest(const climb_device_info *dev, const char *results, char *out, size_t outlen, char *why,
                          size_t whylen)
{
    DIR *d = opendir(results);
    if (!d) {
        snprintf(why, whylen, "no results folder at %s", results);
        return -1;
    }
    const int cc = 10 * dev->cc_major + dev->cc_minor;
    double best = INFINITY;
    char best_name[256] = "";
    out[0] = '\0';
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char dir[4200], name[256];
        int fcc = 0;
        double sms = 0, bw = 0;
        snprintf(dir, sizeof dir, "%s/%s", results, e->d_name);
        if (folder_device(dir, name, sizeof name, &fcc, &sms, &bw) != 0)
            continue;
        /* the same GPU; else the nearest compute capability, then bandwidth and SM count on log scales */
        double score = 0;
        if (strcmp(name, dev->name) != 0) {
            score = 1 + 100.0 * abs(fcc - cc);
            if (bw > 0 && dev->peak_bw_gbs > 0)
                score += 10 * fabs(log(bw / dev->peak_bw_gbs));
            if (sms > 0 && dev->sms > 0)
                score += fabs(log(sms / dev->sms));
        }
        if (score < best || (score == best && strcmp(dir, out) < 0)) {
            best = score;
            snprintf(out, outlen, "%s", dir);
            snprintf(best_name, sizeof best_name, "%s", name);
        }
    }
    closedir(d);
    if (!out[0]) {
        snprintf(why, whylen, "no GPU's results in %s (a folder with a devices.json)", results);
        return -1;
    }
    snprintf(why, whylen, "%s (%s)", best_name, best == 0 ? "this GPU" : "the nearest GPU with committed results");
    return 0;
}
