#include "report.h"

#include "json.h"
#include "build_info.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *climb_row_status_name(climb_row_status s)
{
    switch (s) {
    case CLIMB_ROW_OK: return "ok";
    case CLIMB_ROW_WRONG: return "WRONG";
    case CLIMB_ROW_REFUSED: return "refused";
    case CLIMB_ROW_ERROR: return "ERROR";
    default: return "?";
    }
}

void climb_report_init(climb_report *r, const char *command, uint64_t seed, int batch, const climb_device_info *dev)
{
    memset(r, 0, sizeof *r);
    snprintf(r->command, sizeof r->command, "%s", command);
    snprintf(r->version, sizeof r->version, "%s", climb_build_version);
    snprintf(r->git_commit, sizeof r->git_commit, "%s", climb_build_commit);
    r->git_dirty = climb_build_dirty;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    r->seed = seed;
    r->batch = batch;
    if (dev)
        r->dev = *dev;
}

void climb_report_free(climb_report *r)
{
    free(r->rows);
    r->rows = NULL;
    r->n_rows = r->cap_rows = 0;
}

climb_row *climb_report_add(climb_report *r)
{
    if (r->n_rows == r->cap_rows) {
        int cap = r->cap_rows ? 2 * r->cap_rows : 32;
        climb_row *p = realloc(r->rows, (size_t)cap * sizeof *p);
        if (!p)
            return NULL;
        r->rows = p;
        r->cap_rows = cap;
    }
    climb_row *row = &r->rows[r->n_rows++];
    memset(row, 0, sizeof *row);
    return row;
}

static int same_case(const climb_row *a, const climb_row *b)
{
    return a->w == b->w && a->type == b->type && a->size == b->size;
}

static const climb_row *find_rung(const climb_report *r, const climb_row *like, int ordinal)
{
    for (int i = 0; i < r->n_rows; i++)
        if (same_case(&r->rows[i], like) && r->rows[i].ordinal == ordinal && r->rows[i].status == CLIMB_ROW_OK)
            return &r->rows[i];
    return NULL;
}

static double ratio(const climb_row *base, const climb_row *row)
{
    if (!base || !(base->t.median_us > 0) || !(row->t.median_us > 0))
        return NAN;
    return base->t.median_us / row->t.median_us;
}

void climb_report_derive(climb_report *r)
{
    for (int i = 0; i < r->n_rows; i++) {
        climb_row *row = &r->rows[i];
        row->gbs = row->gflops = row->pct_ceiling = row->pct_peak = NAN;
        row->step = row->cumulative = row->vs_vendor = NAN;
        if (row->status != CLIMB_ROW_OK || !(row->t.median_us > 0))
            continue;
        double s = row->t.median_us * 1e-6;
        row->gbs = row->bytes > 0 ? row->bytes / s / 1e9 : NAN;
        row->gflops = row->flops > 0 ? row->flops / s / 1e9 : NAN;
        double ceiling = NAN, peak = NAN, rate = NAN;
        switch (row->w->ceiling) {
        case CLIMB_CEIL_READ: ceiling = r->dev.read_gbs; peak = r->dev.peak_bw_gbs; rate = row->gbs; break;
        case CLIMB_CEIL_COPY: ceiling = r->dev.copy_gbs; peak = r->dev.peak_bw_gbs; rate = row->gbs; break;
        case CLIMB_CEIL_FFMA: ceiling = r->dev.ffma_gflops; peak = r->dev.peak_ffma_gflops; rate = row->gflops; break;
        }
        if (r->dev.measured && ceiling > 0)
            row->pct_ceiling = 100.0 * rate / ceiling;
        if (peak > 0)
            row->pct_peak = 100.0 * rate / peak;
        const climb_rung_info *info = row->w->rung(row->ordinal);
        if (!info->vendor) {
            /* The ladder proper starts at the first non-vendor rung; step compares with the rung before. */
            const climb_rung_info *prev = row->ordinal > 0 ? row->w->rung(row->ordinal - 1) : NULL;
            if (prev && !prev->vendor)
                row->step = ratio(find_rung(r, row, row->ordinal - 1), row);
            int first = 0;
            while (first < row->w->n_rungs && row->w->rung(first)->vendor)
                first++;
            row->cumulative = ratio(find_rung(r, row, first), row);
        }
        for (int v = 0; v < row->w->n_rungs; v++)
            if (row->w->rung(v)->vendor) {
                row->vs_vendor = ratio(find_rung(r, row, v), row);
                break;
            }
    }
}

/* ---- shared formatting ---- */

static void fmt_num(char *buf, size_t len, double x, int decimals)
{
    if (isnan(x))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.*f", decimals, x);
}

static void fmt_ratio(char *buf, size_t len, double x)
{
    if (isnan(x))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2fx", x);
}

static void fmt_size(char *buf, size_t len, size_t n)
{
    char label[32];
    climb_size_label(label, sizeof label, n);
    if (strchr(label, '^'))
        snprintf(buf, len, "%zu (%s)", n, label);
    else
        snprintf(buf, len, "%zu", n);
}

/* The figures of an ok row as text, shared by the terminal table and the markdown writer. */
typedef struct {
    char median[32], min[32], rate[32], pct_ceiling[32], pct_peak[32], step[32], cumulative[32], vs_vendor[32];
} row_cells;

static void format_cells(const climb_row *row, row_cells *c)
{
    fmt_num(c->median, sizeof c->median, row->t.median_us, 2);
    fmt_num(c->min, sizeof c->min, row->t.min_us, 2);
    fmt_num(c->rate, sizeof c->rate, row->w->ceiling == CLIMB_CEIL_FFMA ? row->gflops : row->gbs, 1);
    fmt_num(c->pct_ceiling, sizeof c->pct_ceiling, row->pct_ceiling, 1);
    fmt_num(c->pct_peak, sizeof c->pct_peak, row->pct_peak, 1);
    fmt_ratio(c->step, sizeof c->step, row->step);
    fmt_ratio(c->cumulative, sizeof c->cumulative, row->cumulative);
    fmt_ratio(c->vs_vendor, sizeof c->vs_vendor, row->vs_vendor);
}

static const char *vendor_name(const climb_workload *w)
{
    for (int v = 0; v < w->n_rungs; v++)
        if (w->rung(v)->vendor)
            return w->rung(v)->name;
    return "vendor";
}

static double ceiling_value(const climb_report *r, climb_ceiling_kind k)
{
    switch (k) {
    case CLIMB_CEIL_READ: return r->dev.read_gbs;
    case CLIMB_CEIL_COPY: return r->dev.copy_gbs;
    case CLIMB_CEIL_FFMA: return r->dev.ffma_gflops;
    }
    return NAN;
}

void climb_report_note(climb_report *r, const char *fmt, ...)
{
    if (r->n_notes >= 8)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->notes[r->n_notes++], sizeof r->notes[0], fmt, ap);
    va_end(ap);
}

void climb_report_head_lines(const climb_report *r, FILE *f, const char *prefix)
{
    const climb_device_info *d = &r->dev;
    fprintf(f, "%sGPU: %s (CC %d.%d, %d SMs, SM clock %d MHz, memory clock %d MHz, %d-bit bus, L2 %d MiB)\n",
            prefix, d->name, d->cc_major, d->cc_minor, d->sms, d->sm_clock_khz / 1000, d->mem_clock_khz / 1000,
            d->bus_width_bits, d->l2_bytes >> 20);
    fprintf(f, "%sDriver %d.%d, CUDA runtime %d.%d; climb %s, commit %.12s%s; %s; seed %llu; %s timing\n", prefix,
            d->driver_version / 1000, (d->driver_version % 1000) / 10, d->runtime_version / 1000,
            (d->runtime_version % 1000) / 10, r->version, r->git_commit,
            r->git_dirty > 0 ? " (dirty tree)" : (r->git_dirty < 0 ? " (tree state unknown)" : ""), r->date,
            (unsigned long long)r->seed, r->batch ? "batch (back-to-back launches, warm L2)" : "cold (L2 flushed before each sample)");
    if (d->measured)
        fprintf(f,
                "%sMeasured ceilings: copy %.0f GB/s (read+write), read %.0f GB/s, FFMA %.0f GFLOP/s, launch %.2f us; "
                "theoretical: %.0f GB/s, %.0f GFLOP/s\n",
                prefix, d->copy_gbs, d->read_gbs, d->ffma_gflops, d->launch_us, d->peak_bw_gbs, d->peak_ffma_gflops);
    else
        fprintf(f, "%sCeilings not measured; theoretical: %.0f GB/s, %.0f GFLOP/s\n", prefix, d->peak_bw_gbs,
                d->peak_ffma_gflops);
    for (int i = 0; i < r->n_notes; i++)
        fprintf(f, "%sNote: %s\n", prefix, r->notes[i]);
}

/* ---- terminal table ---- */

void climb_report_table(const climb_report *r, FILE *f)
{
    climb_report_head_lines(r, f, "");
    for (int i = 0; i < r->n_rows; i++) {
        const climb_row *row = &r->rows[i];
        if (i == 0 || !same_case(row, &r->rows[i - 1])) {
            char sz[48];
            fmt_size(sz, sizeof sz, row->size);
            fprintf(f, "\n%s %s, n = %s: %.4g MB per run (%s); ceiling: %s\n", row->w->name,
                    climb_dtype_name(row->type), sz, row->bytes / 1e6, row->w->bytes_counted,
                    climb_ceiling_name(row->w->ceiling));
            fprintf(f, "%2s  %-32s %11s %11s %7s %9s %7s %7s %7s %8s %8s\n", "#", "rung", "median us", "min us",
                    "noise", row->w->ceiling == CLIMB_CEIL_FFMA ? "GFLOP/s" : "GB/s", "%ceil", "%peak", "step",
                    "cumul", "x vendor");
        }
        if (row->status != CLIMB_ROW_OK) {
            fprintf(f, "%2d  %-32s %s: %s\n", row->ordinal, row->w->rung(row->ordinal)->name,
                    climb_row_status_name(row->status), row->note);
            continue;
        }
        row_cells c;
        char noise[32];
        format_cells(row, &c);
        snprintf(noise, sizeof noise, "%.1f%%", row->t.noise_pct);
        fprintf(f, "%2d  %-32s %11s %11s %7s %9s %7s %7s %7s %8s %8s\n", row->ordinal,
                row->w->rung(row->ordinal)->name, c.median, c.min, noise, c.rate, c.pct_ceiling, c.pct_peak, c.step,
                c.cumulative, c.vs_vendor);
    }
}

/* ---- JSON ---- */

static void json_str(FILE *f, const char *s) { climb_json_write_string(f, s); }

static void json_num(FILE *f, double x)
{
    if (isnan(x) || isinf(x))
        fputs("null", f);
    else
        fprintf(f, "%.10g", x);
}

void climb_report_json_head(const climb_report *r, FILE *f)
{
    const climb_device_info *d = &r->dev;
    fprintf(f, "{\n  \"tool\": \"climb\",\n  \"command\": ");
    json_str(f, r->command);
    fprintf(f, ",\n  \"version\": ");
    json_str(f, r->version);
    fprintf(f, ",\n  \"git_commit\": ");
    json_str(f, r->git_commit);
    fprintf(f, ",\n  \"git_dirty\": %s", r->git_dirty > 0 ? "true" : (r->git_dirty == 0 ? "false" : "null"));
    fprintf(f, ",\n  \"date\": ");
    json_str(f, r->date);
    fprintf(f, ",\n  \"seed\": %llu,\n  \"timing\": \"%s\",\n  \"notes\": [", (unsigned long long)r->seed,
            r->batch ? "batch" : "cold");
    for (int i = 0; i < r->n_notes; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, r->notes[i]);
    }
    fputs("],\n", f);
    fprintf(f, "  \"device\": {\n    \"name\": ");
    json_str(f, d->name);
    fprintf(f,
            ",\n    \"compute_capability\": \"%d.%d\",\n    \"sms\": %d,\n    \"sm_clock_mhz\": %d,\n"
            "    \"mem_clock_mhz\": %d,\n    \"bus_width_bits\": %d,\n    \"l2_bytes\": %d,\n"
            "    \"smem_per_sm_bytes\": %zu,\n    \"regs_per_sm\": %d,\n    \"global_mem_bytes\": %zu,\n"
            "    \"driver_version\": %d,\n    \"runtime_version\": %d,\n",
            d->cc_major, d->cc_minor, d->sms, d->sm_clock_khz / 1000, d->mem_clock_khz / 1000, d->bus_width_bits,
            d->l2_bytes, d->smem_per_sm, d->regs_per_sm, d->global_mem_bytes, d->driver_version, d->runtime_version);
    fprintf(f, "    \"theoretical\": {\"bandwidth_gbs\": ");
    json_num(f, d->peak_bw_gbs);
    fprintf(f, ", \"ffma_gflops\": ");
    json_num(f, d->peak_ffma_gflops);
    fprintf(f, "},\n    \"measured\": ");
    if (d->measured) {
        fprintf(f, "{\"copy_gbs\": ");
        json_num(f, d->copy_gbs);
        fprintf(f, ", \"read_gbs\": ");
        json_num(f, d->read_gbs);
        fprintf(f, ", \"ffma_gflops\": ");
        json_num(f, d->ffma_gflops);
        fprintf(f, ", \"launch_us\": ");
        json_num(f, d->launch_us);
        fprintf(f, "}\n  },\n");
    } else {
        fprintf(f, "null\n  },\n");
    }
}

void climb_report_json(const climb_report *r, FILE *f)
{
    climb_report_json_head(r, f);
    fprintf(f, "  \"results\": [");
    for (int i = 0; i < r->n_rows; i++) {
        const climb_row *row = &r->rows[i];
        const climb_rung_info *info = row->w->rung(row->ordinal);
        fprintf(f, "%s\n    {\"workload\": ", i ? "," : "");
        json_str(f, row->w->name);
        fprintf(f, ", \"rung\": ");
        json_str(f, info->name);
        fprintf(f, ", \"ordinal\": %d, \"vendor\": %s, \"type\": \"%s\", \"size\": %zu, \"status\": \"%s\", \"note\": ",
                row->ordinal, info->vendor ? "true" : "false", climb_dtype_name(row->type), row->size,
                climb_row_status_name(row->status));
        json_str(f, row->note);
        fprintf(f, ",\n     \"median_us\": ");
        json_num(f, row->status == CLIMB_ROW_OK ? row->t.median_us : NAN);
        fprintf(f, ", \"min_us\": ");
        json_num(f, row->status == CLIMB_ROW_OK ? row->t.min_us : NAN);
        fprintf(f, ", \"noise_pct\": ");
        json_num(f, row->status == CLIMB_ROW_OK ? row->t.noise_pct : NAN);
        fprintf(f, ", \"samples\": %d, \"launches_per_sample\": %d,\n     \"bytes\": ", row->t.samples, row->t.batch);
        json_num(f, row->bytes);
        fprintf(f, ", \"bytes_counted\": ");
        json_str(f, row->w->bytes_counted);
        fprintf(f, ", \"flops\": ");
        json_num(f, row->flops);
        fprintf(f, ", \"gbs\": ");
        json_num(f, row->gbs);
        fprintf(f, ", \"gflops\": ");
        json_num(f, row->gflops);
        fprintf(f, ",\n     \"ceiling\": \"%s\", \"pct_ceiling\": ", climb_ceiling_name(row->w->ceiling));
        json_num(f, row->pct_ceiling);
        fprintf(f, ", \"pct_peak\": ");
        json_num(f, row->pct_peak);
        fprintf(f, ", \"step_speedup\": ");
        json_num(f, row->step);
        fprintf(f, ", \"cumulative_speedup\": ");
        json_num(f, row->cumulative);
        fprintf(f, ", \"vs_vendor\": ");
        json_num(f, row->vs_vendor);
        fputc('}', f);
    }
    fprintf(f, "\n  ]\n}\n");
}

/* ---- CSV ---- */

static void csv_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_num(FILE *f, double x)
{
    if (!isnan(x) && !isinf(x))
        fprintf(f, "%.10g", x);
}

void climb_report_csv(const climb_report *r, FILE *f)
{
    fprintf(f, "workload,ordinal,rung,vendor,type,size,status,median_us,min_us,noise_pct,samples,bytes,flops,gbs,"
               "gflops,ceiling,pct_ceiling,pct_peak,step_speedup,cumulative_speedup,vs_vendor,gpu,cc,git_commit,"
               "git_dirty,date,seed,timing,note\n");
    for (int i = 0; i < r->n_rows; i++) {
        const climb_row *row = &r->rows[i];
        const climb_rung_info *info = row->w->rung(row->ordinal);
        int ok = row->status == CLIMB_ROW_OK;
        fprintf(f, "%s,%d,%s,%d,%s,%zu,%s,", row->w->name, row->ordinal, info->name, info->vendor,
                climb_dtype_name(row->type), row->size, climb_row_status_name(row->status));
        csv_num(f, ok ? row->t.median_us : NAN);
        fputc(',', f);
        csv_num(f, ok ? row->t.min_us : NAN);
        fputc(',', f);
        csv_num(f, ok ? row->t.noise_pct : NAN);
        fprintf(f, ",%d,", row->t.samples);
        const double v[] = {row->bytes, row->flops, row->gbs, row->gflops};
        for (int k = 0; k < 4; k++) {
            csv_num(f, v[k]);
            fputc(',', f);
        }
        fprintf(f, "%s,", climb_ceiling_name(row->w->ceiling));
        const double w[] = {row->pct_ceiling, row->pct_peak, row->step, row->cumulative, row->vs_vendor};
        for (int k = 0; k < 5; k++) {
            csv_num(f, w[k]);
            fputc(',', f);
        }
        csv_str(f, r->dev.name);
        fprintf(f, ",%d.%d,%s,%d,%s,%llu,%s,", r->dev.cc_major, r->dev.cc_minor, r->git_commit, r->git_dirty, r->date,
                (unsigned long long)r->seed, r->batch ? "batch" : "cold");
        csv_str(f, row->note);
        fputc('\n', f);
    }
}

/* ---- markdown ---- */

void climb_report_md(const climb_report *r, FILE *f)
{
    climb_report_head_lines(r, f, "");
    fputc('\n', f);
    for (int i = 0; i < r->n_rows; i++) {
        const climb_row *row = &r->rows[i];
        if (i == 0 || !same_case(row, &r->rows[i - 1])) {
            char sz[48];
            fmt_size(sz, sizeof sz, row->size);
            int flops = row->w->ceiling == CLIMB_CEIL_FFMA;
            fprintf(f, "\n**%s %s, n = %s** (%.4g MB per run; %s; ceiling: measured %s, %.0f %s)\n\n", row->w->name,
                    climb_dtype_name(row->type), sz, row->bytes / 1e6, row->w->bytes_counted,
                    climb_ceiling_name(row->w->ceiling), ceiling_value(r, row->w->ceiling), flops ? "GFLOP/s" : "GB/s");
            fprintf(f, "| # | rung | median µs | min µs | noise | %s | %% of ceiling | %% of peak | step | cumulative | × %s |\n",
                    flops ? "GFLOP/s" : "GB/s", vendor_name(row->w));
            fprintf(f, "|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
        }
        const char *name = row->w->rung(row->ordinal)->name;
        if (row->status != CLIMB_ROW_OK) {
            fprintf(f, "| %d | `%s` | %s: %s | | | | | | | | |\n", row->ordinal, name, climb_row_status_name(row->status),
                    row->note);
            continue;
        }
        row_cells c;
        format_cells(row, &c);
        fprintf(f, "| %d | `%s` | %s | %s | %.1f%% | %s | %s | %s | %s | %s | %s |\n", row->ordinal, name, c.median,
                c.min, row->t.noise_pct, c.rate, c.pct_ceiling, c.pct_peak, c.step, c.cumulative, c.vs_vendor);
    }
}

int climb_report_write(const climb_report *r, void (*writer)(const climb_report *, FILE *), const char *path)
{
    if (strcmp(path, "-") == 0) {
        writer(r, stdout);
        fflush(stdout);
        return 0;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "climb: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    writer(r, f);
    if (fclose(f) != 0) {
        fprintf(stderr, "climb: error writing %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}
