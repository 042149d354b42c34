#include "report.h"
#include "../device/device.h"

#include "../io/json.h"
#include "../base/build_info.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <limits.h>
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
    for (int i = 0; i < r->n_rows; i++) {
        climb_opt_values_free(r->rows[i].w->n_options, r->rows[i].opts);
        free(r->rows[i].input);
    }
    free(r->rows);
    free(r->set);
    free(r->p2p);
    r->set = NULL;
    r->p2p = NULL;
    r->n_set = 0;
    for (int i = 0; i < r->n_notes; i++)
        free(r->notes[i]);
    free(r->notes);
    r->rows = NULL;
    r->notes = NULL;
    r->n_rows = r->cap_rows = r->n_notes = r->cap_notes = 0;
}

climb_row *climb_report_add(climb_report *r, const climb_workload *w, int rung, climb_dtype type,
                            const climb_shape *shape, const climb_opt_value *opts, const char *input)
{
    if (r->n_rows == r->cap_rows) {
        int cap = r->cap_rows ? 2 * r->cap_rows : 32;
        climb_row *p = realloc(r->rows, (size_t)cap * sizeof *p);
        if (!p)
            return NULL;
        r->rows = p;
        r->cap_rows = cap;
    }
    climb_opt_value *o = NULL;
    if (w->n_options > 0 && !(o = climb_opt_values_dup(w->n_options, opts)))
        return NULL;
    size_t n = strlen(input ? input : "") + 1;
    char *in = malloc(n);
    if (!in) {
        climb_opt_values_free(w->n_options, o);
        return NULL;
    }
    memcpy(in, input ? input : "", n);
    climb_row *row = &r->rows[r->n_rows++];
    memset(row, 0, sizeof *row);
    row->w = w;
    row->rung = rung;
    row->type = type;
    row->shape = *shape;
    row->opts = o;
    row->input = in;
    row->bound = "";
    return row;
}

static int same_case(const climb_row *a, const climb_row *b)
{
    return a->w == b->w && a->type == b->type && climb_shape_equal(&a->shape, &b->shape) &&
           climb_opt_values_equal(a->w->options, a->w->n_options, a->opts, b->opts) && strcmp(a->input, b->input) == 0;
}

static const climb_row *find_rung(const climb_report *r, const climb_row *like, int rung)
{
    for (int i = 0; i < r->n_rows; i++)
        if (r->rows[i].rung == rung && r->rows[i].status == CLIMB_ROW_OK && same_case(&r->rows[i], like))
            return &r->rows[i];
    return NULL;
}

/* The case's verified vendor row with the least median (a workload may list several: cuSPARSE's algorithms). */
static const climb_row *fastest_vendor(const climb_report *r, const climb_row *like)
{
    const climb_row *best = NULL;
    for (int i = 0; i < r->n_rows; i++) {
        const climb_row *x = &r->rows[i];
        if (x->w->rung(x->rung)->kind == CLIMB_RUNG_VENDOR && !x->w->rung(x->rung)->beside &&
            x->status == CLIMB_ROW_OK && x->t.median_us > 0 &&
            same_case(x, like) && (!best || x->t.median_us < best->t.median_us))
            best = x;
    }
    return best;
}

static double ratio(const climb_row *base, const climb_row *row)
{
    if (!base || !(base->t.median_us > 0) || !(row->t.median_us > 0))
        return NAN;
    return base->t.median_us / row->t.median_us;
}

double climb_report_link_gbs(const climb_report *r)
{
    double least = NAN;
    for (int i = 0; i < r->n_set; i++)
        for (int j = 0; j < r->n_set; j++) {
            if (i == j)
                continue;
            const double v = r->p2p[i * r->n_set + j].one_way_gbs;
            if (!(v > 0))
                return NAN;
            if (isnan(least) || v < least)
                least = v;
        }
    return least;
}

/* The least time the ceilings allow: the slowest of device memory, FMA, the extra ceiling and (a case across GPUs)
 * the links, each taken alone. */
double climb_roofline_us(const climb_device_info *d, double link_gbs, const climb_counts *c, climb_dtype t,
                         const char **bound)
{
    *bound = "";
    if (!d->measured || !(d->read_gbs > 0) || !(d->write_gbs > 0))
        return NAN;
    const int f64 = t == CLIMB_F64;
    /* flops on the tensor cores run against their ceiling in their input format, and not against the FMA's */
    const double tc = c->tensor_format == CLIMB_TENSOR_BF16   ? d->tensor_bf16_gflops
                      : c->tensor_format == CLIMB_TENSOR_TF32 ? d->tensor_tf32_gflops
                                                              : 0;
    const int on_tensor = c->tensor_flops > 0;
    struct { const char *name; double s; } terms[] = {
        {"memory", c->bytes_read / (d->read_gbs * 1e9) + c->bytes_written / (d->write_gbs * 1e9)},
        {f64 ? "dfma" : "ffma",
         c->flops > 0 && !on_tensor ? c->flops / ((f64 ? d->dfma_gflops : d->ffma_gflops) * 1e9) : 0},
        {c->tensor_format == CLIMB_TENSOR_TF32 ? "tensor tf32" : "tensor bf16",
         on_tensor ? (tc > 0 ? c->tensor_flops / (tc * 1e9) : NAN) : 0},
        {"sfu", c->special_ops > 0 ? (d->sfu_gops > 0 ? c->special_ops / (d->sfu_gops * 1e9) : NAN) : 0},
        {"link", c->link_bytes > 0 ? (link_gbs > 0 ? c->link_bytes / (link_gbs * 1e9) : NAN) : 0},
    };
    double best = 0;
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++) {
        if (isnan(terms[i].s))
            return NAN; /* a ceiling the counts need was not measured */
        if (terms[i].s > best) {
            best = terms[i].s;
            *bound = terms[i].name;
        }
    }
    return best > 0 ? best * 1e6 : NAN;
}

void climb_report_derive(climb_report *r)
{
    for (int i = 0; i < r->n_rows; i++) {
        climb_row *row = &r->rows[i];
        row->gbs = row->gflops = row->items_rate = row->special_rate = NAN;
        row->roofline_us = row->pct_roofline = row->step = row->cumulative = row->vs_vendor = row->vs_bound = NAN;
        row->bound = "";
        if (row->status != CLIMB_ROW_OK || !(row->t.median_us > 0))
            continue;
        const climb_counts *c = &row->counts;
        const double s = row->t.median_us * 1e-6, bytes = c->bytes_read + c->bytes_written;
        row->gbs = bytes > 0 ? bytes / s / 1e9 : NAN;
        row->gflops = c->flops > 0 ? c->flops / s / 1e9 : NAN;
        const double per = row->w->items_rate_scale > 0 ? row->w->items_rate_scale : 1e9;
        row->items_rate = c->items > 0 ? c->items / s / per : NAN;
        row->special_rate = c->special_ops > 0 ? c->special_ops / s / 1e9 : NAN;
        row->roofline_us = climb_roofline_us(&r->dev, climb_report_link_gbs(r), c, row->type, &row->bound);
        row->pct_roofline = 100.0 * row->roofline_us / row->t.median_us;

        const climb_workload *w = row->w;
        if (climb_rung_on_ladder(w, row->rung)) {
            /* The ladder proper (after the vendor and bound rungs): step compares with the rung before it. */
            if (row->rung > 0 && climb_rung_on_ladder(w, row->rung - 1))
                row->step = ratio(find_rung(r, row, row->rung - 1), row);
            row->cumulative = ratio(find_rung(r, row, climb_first_ladder_rung(w)), row);
        }
        int b = climb_bound_rung(w);
        row->vs_vendor = ratio(fastest_vendor(r, row), row);
        if (b >= 0)
            row->vs_bound = ratio(find_rung(r, row, b), row);
    }
}

int climb_report_note(climb_report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    if (r->n_notes == r->cap_notes) {
        int cap = r->cap_notes ? 2 * r->cap_notes : 8;
        char **p = realloc(r->notes, sizeof *p * (size_t)cap);
        if (!p) {
            climb_host_oom("report notes");
            return -1;
        }
        r->notes = p;
        r->cap_notes = cap;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        climb_host_oom("report notes");
        return -1;
    }
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    r->notes[r->n_notes++] = s;
    return 0;
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

/* Bytes as people read them: "16.78 MB", "4 B". */
static void fmt_bytes(char *buf, size_t len, double b)
{
    if (b >= 1e9)
        snprintf(buf, len, "%.3g GB", b / 1e9);
    else if (b >= 1e6)
        snprintf(buf, len, "%.4g MB", b / 1e6);
    else if (b >= 1e3)
        snprintf(buf, len, "%.4g kB", b / 1e3);
    else
        snprintf(buf, len, "%.0f B", b);
}

/* Which rate columns a case shows: those its counts make meaningful. */
typedef struct {
    int bytes, flops, items, special;
} case_columns;

static case_columns columns_of(const climb_row *row)
{
    case_columns c = {row->counts.bytes_read + row->counts.bytes_written > 0, row->counts.flops > 0,
                      row->counts.items > 0 && row->w->items_unit, row->counts.special_ops > 0};
    return c;
}

/* The row whose counts are the case's: the first of its case (rows[i] starts it) that has no counts of its own; the
 * first row where every rung has its own. */
static const climb_row *case_head(const climb_report *r, int i)
{
    for (int k = i; k < r->n_rows && same_case(&r->rows[k], &r->rows[i]); k++)
        if (!r->rows[k].own_counts)
            return &r->rows[k];
    return &r->rows[i];
}

/* One line on the case: its label, options, input, counts, roofline and reference. */
static void case_line(const climb_report *r, const climb_row *row, FILE *f, const char *bold)
{
    const climb_workload *w = row->w;
    char label[160], opts[512], rb[32], wb[32];
    climb_case_label(w, &row->shape, label, sizeof label);
    climb_opt_format(w->options, w->n_options, row->opts, opts, sizeof opts);
    fmt_bytes(rb, sizeof rb, row->counts.bytes_read);
    fmt_bytes(wb, sizeof wb, row->counts.bytes_written);
    fprintf(f, "%s%s %s, %s%s%s%s", bold, w->name, climb_dtype_name(row->type), label, opts[0] ? ", " : "", opts, bold);
    if (row->input[0])
        fprintf(f, " (%s)", row->input);
    fprintf(f, ": %s read, %s written (%s)", rb, wb, w->bytes_counted);
    if (row->counts.flops > 0)
        fprintf(f, ", %.4g Mflop", row->counts.flops / 1e6);
    if (row->counts.items > 0 && w->items_unit)
        fprintf(f, ", %.4g M %s", row->counts.items / 1e6, w->items_unit);
    if (row->counts.special_ops > 0)
        fprintf(f, ", %.4g M %s ops", row->counts.special_ops / 1e6, climb_ceiling_name(w->extra_ceiling));
    if (row->counts.tensor_flops > 0)
        fprintf(f, ", %.4g Mflop on the tensor cores (%s)", row->counts.tensor_flops / 1e6,
                climb_tensor_format_name(row->counts.tensor_format));
    const char *bound;
    if (row->counts.link_bytes > 0)
        fprintf(f, ", %.4g MB over the links", row->counts.link_bytes / 1e6);
    double roof = climb_roofline_us(&r->dev, climb_report_link_gbs(r), &row->counts, row->type, &bound);
    if (!isnan(roof))
        fprintf(f, "; roofline %.3g us (%s)", roof, bound);
    if (row->reference[0])
        fprintf(f, "; reference: %s", row->reference);
    fputc('\n', f);
}

/* "reduce_naive", "cub_reduce [vendor]", "bfs_levels [host part: wall clock]", "cutoff [best; own counts]". */
static void rung_name(const climb_row *row, char *buf, size_t len)
{
    const climb_rung_info *info = row->w->rung(row->rung);
    char tags[96] = "";
    snprintf(tags, sizeof tags, "%s%s%s%s%s", info->kind == CLIMB_RUNG_LADDER ? "" : climb_rung_kind_name(info->kind),
             info->beside ? ", beside the bar" : "",
             row->wall ? (info->kind == CLIMB_RUNG_LADDER ? "host part: wall clock" : "; host part: wall clock") : "",
             row->own_counts && (info->kind != CLIMB_RUNG_LADDER || row->wall) ? "; " : "",
             row->own_counts ? "own counts" : "");
    if (tags[0])
        snprintf(buf, len, "%s [%s]", info->name, tags);
    else
        snprintf(buf, len, "%s", info->name);
}

/* The vendor column's name: the vendor rung's, or "vendor's best" where several are listed. */
static const char *vendor_name(const climb_workload *w)
{
    int v = climb_vendor_rung(w), n = 0;
    for (int i = 0; i < w->n_rungs; i++)
        n += w->rung(i)->kind == CLIMB_RUNG_VENDOR && !w->rung(i)->beside;
    return n == 1 ? w->rung(v)->name : n > 1 ? "vendor's best" : "vendor";
}

/* The setup cells: milliseconds and megabytes (10^6) of what the rung's prepare built; "-" where it built none. */
static void setup_cells(const climb_row *row, char *ms, char *mb, size_t len)
{
    if (!row->has_setup) {
        snprintf(ms, len, "-");
        snprintf(mb, len, "-");
        return;
    }
    snprintf(ms, len, "%.2f", row->setup.ms);
    snprintf(mb, len, "%.1f", row->setup.bytes / 1e6);
}

/* The report's timing: batch, or cold with the L2 flushed, naming the workloads whose cold samples are not
 * flushed (climb_workload.cold_no_flush). */
static void timing_words(const climb_report *r, char *buf, size_t len)
{
    if (r->batch) {
        snprintf(buf, len, "batch (back-to-back launches, warm L2)");
        return;
    }
    size_t at = (size_t)snprintf(buf, len, "cold (L2 flushed before each sample");
    for (int i = 0; i < r->n_rows && at < len; i++) {
        const climb_workload *w = r->rows[i].w;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = r->rows[j].w == w;
        if (w && w->cold_no_flush && !seen)
            at += (size_t)snprintf(buf + at, len - at, "; %s: no flush, each sample from an idle GPU", w->name);
    }
    if (at < len)
        snprintf(buf + at, len - at, ")");
}

void climb_report_head_lines(const climb_report *r, FILE *f, const char *prefix)
{
    char timing[300];
    timing_words(r, timing, sizeof timing);
    const climb_device_info *d = &r->dev;
    fprintf(f, "%sGPU: %s (CC %d.%d, %d SMs, SM clock %d MHz, memory clock %d MHz, %d-bit bus, L2 %d MiB)\n",
            prefix, d->name, d->cc_major, d->cc_minor, d->sms, d->sm_clock_khz / 1000, d->mem_clock_khz / 1000,
            d->bus_width_bits, d->l2_bytes >> 20);
    fprintf(f, "%sDriver %d.%d, CUDA runtime %d.%d; climb %s, commit %.12s%s, CUDA architectures %s; %s; seed %llu; "
               "%s timing\n", prefix,
            d->driver_version / 1000, (d->driver_version % 1000) / 10, d->runtime_version / 1000,
            (d->runtime_version % 1000) / 10, r->version, r->git_commit,
            r->git_dirty > 0 ? " (dirty tree)" : (r->git_dirty < 0 ? " (tree state unknown)" : ""), climb_build_arch,
            r->date,
            (unsigned long long)r->seed, timing);
    char nvml[600];
    climb_nvml_line(&d->nvml, nvml, sizeof nvml);
    fprintf(f, "%s%s\n", prefix, nvml);
    if (d->measured) {
        fprintf(f,
                "%sMeasured ceilings: copy %.0f GB/s (read+write), read %.0f GB/s, write %.0f GB/s (derived), FFMA %.0f "
                "GFLOP/s, DFMA %.0f GFLOP/s",
                prefix, d->copy_gbs, d->read_gbs, d->write_gbs, d->ffma_gflops, d->dfma_gflops);
        if (d->sfu_gops > 0)
            fprintf(f, ", SFU %.0f Gop/s", d->sfu_gops);
        if (d->tensor_bf16_gflops > 0)
            fprintf(f, ", tensor cores BF16 %.0f GFLOP/s, TF32 %.0f GFLOP/s", d->tensor_bf16_gflops,
                    d->tensor_tf32_gflops);
        fprintf(f, ", launch %.2f us; theoretical: %.0f GB/s, %.0f GFLOP/s FP32\n", d->launch_us, d->peak_bw_gbs,
                d->peak_ffma_gflops);
    } else {
        fprintf(f, "%sCeilings not measured (no roofline); theoretical: %.0f GB/s, %.0f GFLOP/s FP32\n", prefix,
                d->peak_bw_gbs, d->peak_ffma_gflops);
    }
    if (r->n_set) { /* the GPUs of the spanning cases, and which pairs reach each other's memory */
        fprintf(f, "%sGPUs of the cases that span several:", prefix);
        for (int i = 0; i < r->n_set; i++)
            fprintf(f, "%s %d (%s)", i ? "," : "", r->set[i].ordinal, r->set[i].name);
        int pairs = 0, reach = 0;
        for (int i = 0; i < r->n_set; i++)
            for (int j = 0; j < r->n_set; j++)
                if (i != j) {
                    pairs++;
                    reach += r->p2p[i * r->n_set + j].access == 1;
                }
        fprintf(f, "; peer access between %d of %d ordered pairs", reach, pairs);
        double lo = 0, hi = 0, blo = 0, bhi = 0;
        for (int i = 0; i < r->n_set * r->n_set; i++) {
            const double v = r->p2p[i].one_way_gbs, b = r->p2p[i].both_ways_gbs;
            if (v > 0) {
                lo = lo > 0 && lo < v ? lo : v;
                hi = hi > v ? hi : v;
            }
            if (b > 0) {
                blo = blo > 0 && blo < b ? blo : b;
                bhi = bhi > b ? bhi : b;
            }
        }
        if (hi > 0)
            fprintf(f, "; measured copy engines between them: %.0f to %.0f GB/s one way, %.0f to %.0f GB/s both ways",
                    lo, hi, blo, bhi);
        fputc('\n', f);
    }
    for (int i = 0; i < r->n_notes; i++)
        fprintf(f, "%sNote: %s\n", prefix, r->notes[i]);
}

/* The figures of an ok row as text, shared by the terminal table and the markdown writer. */
typedef struct {
    char median[32], min[32], noise[32], gbs[32], gflops[32], items[32], special[32], roof[32], step[32],
        cumulative[32], vs_vendor[32], vs_bound[32];
} row_cells;

static void format_cells(const climb_row *row, row_cells *c)
{
    fmt_num(c->median, sizeof c->median, row->t.median_us, 2);
    fmt_num(c->min, sizeof c->min, row->t.min_us, 2);
    snprintf(c->noise, sizeof c->noise, "%.1f%%", row->t.noise_pct);
    fmt_num(c->gbs, sizeof c->gbs, row->gbs, 1);
    fmt_num(c->gflops, sizeof c->gflops, row->gflops, 1);
    fmt_num(c->items, sizeof c->items, row->items_rate, 3);
    fmt_num(c->special, sizeof c->special, row->special_rate, 1);
    fmt_num(c->roof, sizeof c->roof, row->pct_roofline, 1);
    fmt_ratio(c->step, sizeof c->step, row->step);
    fmt_ratio(c->cumulative, sizeof c->cumulative, row->cumulative);
    fmt_ratio(c->vs_vendor, sizeof c->vs_vendor, row->vs_vendor);
    fmt_ratio(c->vs_bound, sizeof c->vs_bound, row->vs_bound);
}

/* The rate cells a case shows, each printed with fmt (the table's aligned column or the markdown's cell). */
static void rate_cells(FILE *f, case_columns cols, const char *const *cells, const char *fmt)
{
    const int show[4] = {cols.bytes, cols.flops, cols.items, cols.special};
    for (int k = 0; k < 4; k++)
        if (show[k])
            fprintf(f, fmt, cells[k]);
}

/* ---- terminal table ---- */

void climb_report_table(const climb_report *r, FILE *f)
{
    climb_report_head_lines(r, f, "");
    case_columns cols = {0, 0, 0, 0};
    for (int i = 0; i < r->n_rows; i++) {
        const climb_row *row = &r->rows[i];
        if (i == 0 || !same_case(row, &r->rows[i - 1])) {
            cols = columns_of(row);
            fputc('\n', f);
            case_line(r, case_head(r, i), f, "");
            const char *heads[4] = {"GB/s", "GFLOP/s", row->w->items_rate, "Gsfu/s"};
            fprintf(f, "%2s  %-40s %11s %11s %7s", "#", "rung", "median us", "min us", "noise");
            rate_cells(f, cols, heads, " %9s");
            fprintf(f, " %7s %7s %7s %8s", "%roof", "step", "cumul", "x vendor");
            if (climb_bound_rung(row->w) >= 0)
                fputs("  x bound", f);
            fputs(row->w->setup ? "  setup ms  setup MB\n" : "\n", f);
        }
        char name[160];
        rung_name(row, name, sizeof name);
        if (row->status != CLIMB_ROW_OK) {
            fprintf(f, "%2d  %-40s %s: %s\n", row->rung, name, climb_row_status_name(row->status), row->note);
            continue;
        }
        row_cells c;
        format_cells(row, &c);
        const char *rates[4] = {c.gbs, c.gflops, c.items, c.special};
        fprintf(f, "%2d  %-40s %11s %11s %7s", row->rung, name, c.median, c.min, c.noise);
        rate_cells(f, cols, rates, " %9s");
        fprintf(f, " %7s %7s %7s %8s", c.roof, c.step, c.cumulative, c.vs_vendor);
        if (climb_bound_rung(row->w) >= 0)
            fprintf(f, " %8s", c.vs_bound);
        if (row->w->setup) {
            char ms[32], mb[32];
            setup_cells(row, ms, mb, sizeof ms);
            fprintf(f, " %9s %9s", ms, mb);
        }
        fputc('\n', f);
    }
}

/* ---- JSON ---- */

static void json_str(FILE *f, const char *s) { climb_json_write_string(f, s ? s : ""); }

static void json_str_or_null(FILE *f, const char *s)
{
    if (s)
        climb_json_write_string(f, s);
    else
        fputs("null", f);
}

static void json_num(FILE *f, double x)
{
    if (isnan(x) || isinf(x))
        fputs("null", f);
    else
        fprintf(f, "%.10g", x);
}

static void json_shape(FILE *f, const climb_shape *s)
{
    fputc('[', f);
    for (int i = 0; i < s->ndims; i++)
        fprintf(f, "%s%zu", i ? ", " : "", s->d[i]);
    fputc(']', f);
}

static void json_opts(FILE *f, const climb_workload *w, const climb_opt_value *v)
{
    fputc('{', f);
    for (int k = 0; k < w->n_options && v; k++) {
        const climb_option *o = &w->options[k];
        fprintf(f, "%s\"%s\": ", k ? ", " : "", o->name);
        switch (o->kind) {
        case CLIMB_OPT_INT: fprintf(f, "%lld", v[k].i); break;
        case CLIMB_OPT_FLOAT: json_num(f, v[k].f); break;
        case CLIMB_OPT_CHOICE: json_str(f, v[k].text); break;
        case CLIMB_OPT_FILE: json_str_or_null(f, v[k].text && v[k].text[0] ? v[k].text : NULL); break;
        }
    }
    fputc('}', f);
}

int climb_report_set_devices(climb_report *r, const climb_device_info *devs, const climb_p2p *p2p, int n)
{
    free(r->set);
    free(r->p2p);
    r->n_set = 0;
    r->set = (climb_device_info *)malloc(sizeof *r->set * (size_t)(n > 0 ? n : 1));
    r->p2p = (climb_p2p *)malloc(sizeof *r->p2p * (size_t)(n > 0 ? n * n : 1));
    if (!r->set || !r->p2p)
        return climb_host_oom("the report's GPUs");
    memcpy(r->set, devs, sizeof *r->set * (size_t)n);
    memcpy(r->p2p, p2p, sizeof *r->p2p * (size_t)(n * n));
    r->n_set = n;
    return 0;
}

/* "device_set": the GPUs of the spanning cases and what joins each pair (after "device", where the run has one). */
static void json_device_set(const climb_report *r, FILE *f)
{
    if (!r->n_set)
        return;
    fputs("  \"device_set\": {\n    \"devices\": [", f);
    for (int i = 0; i < r->n_set; i++) {
        const climb_device_info *d = &r->set[i];
        fprintf(f, "%s{\"ordinal\": %d, \"name\": ", i ? ", " : "", d->ordinal);
        json_str(f, d->name);
        fprintf(f, ", \"sm_clock_mhz\": %d, \"mem_clock_mhz\": %d, \"nvml_sm_clock_mhz\": ", d->sm_clock_khz / 1000,
                d->mem_clock_khz / 1000);
        json_num(f, d->nvml.read && d->nvml.sm_mhz >= 0 ? d->nvml.sm_mhz : NAN);
        fputc('}', f);
    }
    static const char *const keys[] = {"peer_access", "p2p_rank", "native_atomics", "nvlinks", "nvlink_switch"};
    for (int k = 0; k < 5; k++) {
        fprintf(f, "],\n    \"%s\": [", keys[k]);
        for (int i = 0; i < r->n_set; i++) {
            fputs(i ? ", [" : "[", f);
            for (int j = 0; j < r->n_set; j++) {
                const climb_p2p *p = &r->p2p[i * r->n_set + j];
                const int v = k == 0 ? p->access : k == 1 ? p->rank : k == 2 ? p->atomics : k == 3 ? p->nvlinks
                                                                                                   : p->nvswitch;
                fprintf(f, "%s", j ? ", " : "");
                if (i == j || v < 0)
                    fputs("null", f);
                else if (k == 1 || k == 3)
                    fprintf(f, "%d", v);
                else
                    fputs(v ? "true" : "false", f);
            }
            fputc(']', f);
        }
    }
    static const char *const rates[] = {"p2p_one_way_gbs", "p2p_both_ways_gbs", "p2p_latency_us"};
    for (int k = 0; k < 3; k++) {
        fprintf(f, "],\n    \"%s\": [", rates[k]);
        for (int i = 0; i < r->n_set; i++) {
            fputs(i ? ", [" : "[", f);
            for (int j = 0; j < r->n_set; j++) {
                const climb_p2p *p = &r->p2p[i * r->n_set + j];
                const double v = k == 0 ? p->one_way_gbs : k == 1 ? p->both_ways_gbs : p->latency_us;
                fputs(j ? ", " : "", f);
                json_num(f, i != j && v > 0 ? v : NAN);
            }
            fputc(']', f);
        }
    }
    fputs("]\n  },\n", f);
}

void climb_report_json_head(const climb_report *r, FILE *f)
{
    const climb_device_info *d = &r->dev;
    fprintf(f, "{\n  \"tool\": \"climb\",\n  \"format\": %d,\n  \"command\": ", CLIMB_REPORT_FORMAT);
    json_str(f, r->command);
    fprintf(f, ",\n  \"version\": ");
    json_str(f, r->version);
    fprintf(f, ",\n  \"git_commit\": ");
    json_str(f, r->git_commit);
    fprintf(f, ",\n  \"git_dirty\": %s", r->git_dirty > 0 ? "true" : (r->git_dirty == 0 ? "false" : "null"));
    fputs(",\n  \"cuda_archs\": ", f); /* the CUDA architectures this build holds code for */
    json_str(f, climb_build_arch);
    fprintf(f, ",\n  \"date\": ");
    json_str(f, r->date);
    fprintf(f, ",\n  \"seed\": %llu,\n  \"timing\": \"%s\",\n  \"sweep\": ", (unsigned long long)r->seed,
            r->batch ? "batch" : "cold");
    json_str_or_null(f, r->sweep[0] ? r->sweep : NULL);
    fprintf(f, ",\n  \"processes\": %d", r->processes);
    fputs(",\n  \"notes\": [", f);
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
    fprintf(f, "},\n    \"nvml\": ");
    const climb_nvml *nv = &d->nvml;
    if (nv->read) {
        const struct { const char *k; double v; } m[] = {
            {"sm_clock_mhz", nv->sm_mhz},           {"sm_clock_max_mhz", nv->sm_max_mhz},
            {"mem_clock_mhz", nv->mem_mhz},         {"mem_clock_max_mhz", nv->mem_max_mhz},
            {"app_sm_clock_mhz", nv->app_sm_mhz},   {"app_sm_clock_default_mhz", nv->app_sm_default_mhz},
            {"power_limit_w", nv->power_limit_w},   {"power_default_limit_w", nv->power_default_w},
            {"power_w", nv->power_w},               {"temperature_c", nv->temp_c},
        };
        fputc('{', f);
        for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
            fprintf(f, "%s\"%s\": ", i ? ", " : "", m[i].k);
            json_num(f, m[i].v < 0 ? NAN : m[i].v);
        }
        char reasons[300];
        climb_nvml_reasons(nv->reasons, reasons, sizeof reasons);
        fprintf(f, ", \"clock_event_reasons\": ");
        if (nv->reasons_known) {
            fprintf(f, "%llu, \"clock_event_reasons_named\": ", nv->reasons);
            json_str(f, reasons);
        } else {
            fprintf(f, "null, \"clock_event_reasons_named\": null");
        }
        fputs("}", f);
    } else {
        fputs("null", f);
    }
    fprintf(f, ",\n    \"measured\": ");
    if (d->measured) {
        const struct { const char *k; double v; } m[] = {
            {"copy_gbs", d->copy_gbs},       {"read_gbs", d->read_gbs},       {"write_gbs", d->write_gbs},
            {"ffma_gflops", d->ffma_gflops}, {"dfma_gflops", d->dfma_gflops}, {"sfu_gops", d->sfu_gops > 0 ? d->sfu_gops : NAN},
            {"tensor_bf16_gflops", d->tensor_bf16_gflops > 0 ? d->tensor_bf16_gflops : NAN},
            {"tensor_tf32_gflops", d->tensor_tf32_gflops > 0 ? d->tensor_tf32_gflops : NAN},
            {"launch_us", d->launch_us},
        };
        fputc('{', f);
        for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
            fprintf(f, "%s\"%s\": ", i ? ", " : "", m[i].k);
            json_num(f, m[i].v);
        }
        fprintf(f, "}\n  },\n");
    } else {
        fprintf(f, "null\n  },\n");
    }
    json_device_set(r, f);
}

void climb_report_json_workloads(const climb_workload *const *ws, int n, FILE *f)
{
    fputs("  \"workloads\": [", f);
    for (int i = 0; i < n; i++) {
        const climb_workload *w = ws[i];
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_str(f, w->name);
        fputs(", \"title\": ", f);
        json_str(f, w->title);
        fputs(", \"sources\": ", f);
        json_str(f, w->sources);
        fputs(",\n     \"dims\": [", f);
        for (int k = 0; k < climb_workload_ndims(w); k++) {
            fputs(k ? ", " : "", f);
            json_str(f, w->dims[k]);
        }
        fputs("], \"shape_format\": ", f);
        if (w->shape_format)
            json_str(f, w->shape_format);
        else
            fputs("null", f);
        fputs(", \"types\": [", f);
        int first = 1;
        for (int t = 0; t < CLIMB_NTYPES; t++)
            if (w->types & CLIMB_TYPE_BIT(t)) {
                fputs(first ? "" : ", ", f);
                json_str(f, climb_dtype_name((climb_dtype)t));
                first = 0;
            }
        fputs("],\n     \"options\": [", f);
        for (int k = 0; k < w->n_options; k++) {
            const climb_option *o = &w->options[k];
            fprintf(f, "%s{\"name\": ", k ? ", " : "");
            json_str(f, o->name);
            fprintf(f, ", \"kind\": \"%s\", \"meaning\": ", climb_opt_kind_name(o->kind));
            json_str(f, o->meaning);
            fputs(", \"default\": ", f);
            json_str(f, o->def);
            if (o->kind == CLIMB_OPT_INT || o->kind == CLIMB_OPT_FLOAT) {
                fputs(", \"min\": ", f);
                json_num(f, o->min);
                fputs(", \"max\": ", f);
                json_num(f, o->max);
            }
            if (o->kind == CLIMB_OPT_CHOICE) {
                fputs(", \"choices\": [", f);
                for (int j = 0; o->choices && o->choices[j]; j++) {
                    fputs(j ? ", " : "", f);
                    json_str(f, o->choices[j]);
                }
                fputc(']', f);
            }
            if (o->same_seed)
                fputs(", \"same_seed\": true", f);
            fputc('}', f);
        }
        fputs("],\n     \"bytes_counted\": ", f);
        json_str(f, w->bytes_counted);
        fputs(", \"items_unit\": ", f);
        json_str_or_null(f, w->items_unit);
        fputs(", \"items_rate\": ", f);
        json_str_or_null(f, w->items_rate);
        fprintf(f, ", \"extra_ceiling\": \"%s\", \"cold_flush\": %s,\n     \"published\": ",
                climb_ceiling_name(w->extra_ceiling), w->cold_no_flush ? "false" : "true");
        if (w->published) {
            const climb_published *p = w->published;
            fputs("{\"source\": ", f);
            json_str(f, p->source);
            fputs(", \"gpu\": ", f);
            json_str(f, p->gpu);
            fprintf(f, ", \"type\": \"%s\", \"shape\": ", climb_dtype_name(p->type));
            json_shape(f, &p->shape);
            fputs(", \"rate_unit\": ", f);
            json_str(f, p->rate_unit);
            fputc('}', f);
        } else {
            fputs("null", f);
        }
        fputs(",\n     \"weak_scaling\": ", f);
        json_str_or_null(f, w->weak_scaling);
        fputs(",\n     \"sweeps\": [", f);
        for (int k = 0; k < w->n_sweeps; k++) {
            const climb_sweep *sw = &w->sweeps[k];
            fprintf(f, "%s{\"name\": ", k ? ", " : "");
            json_str(f, sw->name);
            fputs(", \"title\": ", f);
            json_str(f, sw->title);
            fputs(", \"args\": ", f);
            json_str_or_null(f, sw->args);
            fputs(", \"x\": ", f);
            json_str(f, sw->x);
            fprintf(f, ", \"log_x\": %s, \"overview\": %s}", sw->log_x ? "true" : "false",
                    sw->overview ? "true" : "false");
        }
        fputs("],\n     \"rungs\": [", f);
        for (int k = 0; k < w->n_rungs; k++) {
            const climb_rung_info *ri = w->rung(k);
            fprintf(f, "%s\n       {\"name\": ", k ? "," : "");
            json_str(f, ri->name);
            fprintf(f, ", \"kind\": \"%s\", \"idea\": ", climb_rung_kind_name(ri->kind));
            json_str(f, ri->idea);
            fputs(", \"needs\": ", f);
            json_str(f, ri->needs);
            fprintf(f, ", \"host_part\": %s", ri->host_part ? "true" : "false");
            fprintf(f, ", \"beside\": %s", ri->beside ? "true" : "false");
            fprintf(f, ", \"device_launches\": %s", ri->device_launches ? "true" : "false");
            fputs(", \"published_us\": ", f);
            json_num(f, ri->published_us > 0 ? ri->published_us : NAN);
            fputs(", \"published_rate\": ", f);
            json_num(f, ri->published_rate > 0 ? ri->published_rate : NAN);
            fputc('}', f);
        }
        fputs("]}", f);
    }
    fputs("\n  ],\n", f);
}

/* The distinct workloads of the rows, in order of first appearance. */
static int row_workloads(const climb_report *r, const climb_workload ***out)
{
    const climb_workload **ws = malloc(sizeof *ws * (size_t)(r->n_rows ? r->n_rows : 1));
    int n = 0;
    for (int i = 0; ws && i < r->n_rows; i++) {
        int seen = 0;
        for (int j = 0; j < n; j++)
            seen |= ws[j] == r->rows[i].w;
        if (!seen)
            ws[n++] = r->rows[i].w;
    }
    *out = ws;
    return ws ? n : 0;
}

void climb_report_json(const climb_report *r, FILE *f)
{
    climb_report_json_head(r, f);
    const climb_workload **ws;
    int nw = row_workloads(r, &ws);
    climb_report_json_workloads(ws, nw, f);
    free(ws);
    fprintf(f, "  \"results\": [");
    for (int i = 0; i < r->n_rows; i++) {
        const climb_row *row = &r->rows[i];
        const climb_rung_info *info = row->w->rung(row->rung);
        const int ok = row->status == CLIMB_ROW_OK;
        char label[128];
        climb_shape_label(&row->shape, label, sizeof label);
        fprintf(f, "%s\n    {\"workload\": ", i ? "," : "");
        json_str(f, row->w->name);
        fputs(", \"rung\": ", f);
        json_str(f, info->name);
        fprintf(f, ", \"ordinal\": %d, \"kind\": \"%s\", \"vendor\": %s, \"type\": \"%s\", \"shape\": ", row->rung,
                climb_rung_kind_name(info->kind), info->kind == CLIMB_RUNG_VENDOR ? "true" : "false",
                climb_dtype_name(row->type));
        json_shape(f, &row->shape);
        fputs(", \"shape_label\": ", f);
        json_str(f, label);
        fputs(",\n     \"options\": ", f);
        json_opts(f, row->w, row->opts);
        fputs(", \"input\": ", f);
        json_str(f, row->input);
        fputs(", \"reference\": ", f);
        json_str(f, row->reference);
        fprintf(f, ",\n     \"status\": \"%s\", \"note\": ", climb_row_status_name(row->status));
        json_str(f, row->note);
        fprintf(f, ",\n     \"median_us\": ");
        json_num(f, ok ? row->t.median_us : NAN);
        fprintf(f, ", \"min_us\": ");
        json_num(f, ok ? row->t.min_us : NAN);
        fprintf(f, ", \"noise_pct\": ");
        json_num(f, ok ? row->t.noise_pct : NAN);
        fprintf(f, ", \"samples\": %d, \"launches_per_sample\": %d, \"clock\": \"%s\", \"counts\": \"%s\",\n     \"bytes_read\": ",
                row->t.samples, row->t.batch, row->wall ? "wall" : "events", row->own_counts ? "rung" : "case");
        const climb_counts *c = &row->counts;
        json_num(f, c->bytes_read);
        fputs(", \"bytes_written\": ", f);
        json_num(f, c->bytes_written);
        fputs(", \"flops\": ", f);
        json_num(f, c->flops);
        fputs(", \"items\": ", f);
        json_num(f, c->items);
        fputs(", \"special_ops\": ", f);
        json_num(f, c->special_ops);
        fputs(", \"link_bytes\": ", f);
        json_num(f, c->link_bytes);
        fputs(", \"tensor_flops\": ", f);
        json_num(f, c->tensor_flops);
        fprintf(f, ", \"tensor_format\": \"%s\"", climb_tensor_format_name(c->tensor_format));
        fputs(",\n     \"gbs\": ", f);
        json_num(f, row->gbs);
        fputs(", \"gflops\": ", f);
        json_num(f, row->gflops);
        fputs(", \"items_rate\": ", f);
        json_num(f, row->items_rate);
        fputs(", \"special_rate\": ", f);
        json_num(f, row->special_rate);
        fputs(", \"roofline_us\": ", f);
        json_num(f, row->roofline_us);
        fputs(", \"bound\": ", f);
        json_str(f, row->bound);
        fputs(", \"pct_roofline\": ", f);
        json_num(f, row->pct_roofline);
        fputs(",\n     \"step_speedup\": ", f);
        json_num(f, row->step);
        fputs(", \"cumulative_speedup\": ", f);
        json_num(f, row->cumulative);
        fputs(", \"vs_vendor\": ", f);
        json_num(f, row->vs_vendor);
        fputs(", \"vs_bound\": ", f);
        json_num(f, row->vs_bound);
        fputs(", \"setup_ms\": ", f);
        json_num(f, row->has_setup ? row->setup.ms : NAN);
        fputs(", \"setup_bytes\": ", f);
        json_num(f, row->has_setup ? row->setup.bytes : NAN);
        fputc('}', f);
    }
    fprintf(f, "\n  ]\n}\n");
}

/* ---- rows read back ---- */

static double jnum_or_nan(const climb_json *o, const char *key)
{
    const climb_json *v = climb_json_get(o, key);
    return v && v->type == CLIMB_JSON_NUMBER ? v->number : NAN;
}

static const char *jstr_or(const climb_json *o, const char *key, const char *dflt)
{
    const climb_json *v = climb_json_get(o, key);
    return v && v->type == CLIMB_JSON_STRING ? v->string : dflt;
}

/* Row i's case: its option values parsed back from their JSON form (vals, w->n_options of them). 0 or -1 (err). */
static int json_row_opts(const climb_workload *w, const climb_json *row, int i, climb_opt_value *vals, char *err,
                         size_t errlen)
{
    const climb_json *opts = climb_json_get(row, "options");
    for (int k = 0; k < w->n_options; k++) {
        const climb_option *o = &w->options[k];
        const climb_json *v = opts ? climb_json_get(opts, o->name) : NULL;
        char text[64], why[200];
        const char *t = text;
        if (v && v->type == CLIMB_JSON_NUMBER && o->kind == CLIMB_OPT_INT)
            snprintf(text, sizeof text, "%.0f", v->number);
        else if (v && v->type == CLIMB_JSON_NUMBER && o->kind == CLIMB_OPT_FLOAT)
            snprintf(text, sizeof text, "%.17g", v->number);
        else if (v && v->type == CLIMB_JSON_STRING)
            t = v->string;
        else if (o->kind == CLIMB_OPT_FILE && (!v || v->type == CLIMB_JSON_NULL))
            t = "";
        else {
            snprintf(err, errlen, "results[%d]: option %s missing or not of its kind", i, o->name);
            return -1;
        }
        if (climb_opt_parse(o, t, &vals[k], why, sizeof why) != 0) {
            snprintf(err, errlen, "results[%d]: %s", i, why);
            return -1;
        }
    }
    return 0;
}

int climb_report_add_json_rows(climb_report *r, const climb_workload *w, const climb_json *results, int *failures,
                               char *err, size_t errlen)
{
    if (!results || results->type != CLIMB_JSON_ARRAY) {
        snprintf(err, errlen, "no results array");
        return -1;
    }
    int added = 0;
    for (int i = 0; i < results->n; i++) {
        const climb_json *row = &results->items[i];
        const char *wname = jstr_or(row, "workload", ""), *rname = jstr_or(row, "rung", "");
        const int rung = strcmp(wname, w->name) == 0 ? climb_find_rung(w, rname) : -1;
        climb_dtype type;
        const climb_json *sh = climb_json_get(row, "shape");
        climb_shape shape;
        memset(&shape, 0, sizeof shape);
        if (rung < 0 || climb_dtype_parse(jstr_or(row, "type", ""), &type) != 0 || !(w->types & CLIMB_TYPE_BIT(type)) ||
            !sh || sh->type != CLIMB_JSON_ARRAY || sh->n > CLIMB_MAX_DIMS) {
            snprintf(err, errlen, "results[%d]: not a row of %s (workload '%s', rung '%s', its type or shape)", i,
                     w->name, wname, rname);
            return -1;
        }
        shape.ndims = sh->n;
        for (int d = 0; d < sh->n; d++) {
            long v;
            if (!climb_json_int(&sh->items[d], 0, LONG_MAX, &v)) {
                snprintf(err, errlen, "results[%d]: shape[%d] is not a size", i, d);
                return -1;
            }
            shape.d[d] = (size_t)v;
        }
        climb_opt_value *vals = w->n_options ? calloc((size_t)w->n_options, sizeof *vals) : NULL;
        if (w->n_options && !vals) {
            snprintf(err, errlen, "out of host memory");
            return -1;
        }
        climb_row *x = NULL;
        if (json_row_opts(w, row, i, vals, err, errlen) == 0 &&
            !(x = climb_report_add(r, w, rung, type, &shape, vals, jstr_or(row, "input", ""))))
            snprintf(err, errlen, "out of host memory");
        climb_opt_values_free(w->n_options, vals);
        if (!x)
            return -1;
        snprintf(x->reference, sizeof x->reference, "%s", jstr_or(row, "reference", ""));
        snprintf(x->note, sizeof x->note, "%s", jstr_or(row, "note", ""));
        const char *st = jstr_or(row, "status", "");
        x->status = CLIMB_ROW_ERROR;
        for (int k = CLIMB_ROW_OK; k <= CLIMB_ROW_ERROR; k++)
            if (strcmp(st, climb_row_status_name((climb_row_status)k)) == 0)
                x->status = (climb_row_status)k;
        x->t.median_us = x->t.mean_us = jnum_or_nan(row, "median_us");
        x->t.min_us = jnum_or_nan(row, "min_us");
        x->t.max_us = NAN;
        x->t.noise_pct = jnum_or_nan(row, "noise_pct");
        const double samples = jnum_or_nan(row, "samples"), launches = jnum_or_nan(row, "launches_per_sample");
        x->t.samples = isnan(samples) ? 0 : (int)samples;
        x->t.batch = isnan(launches) ? 1 : (int)launches;
        x->wall = x->t.wall = strcmp(jstr_or(row, "clock", ""), "wall") == 0;
        x->own_counts = strcmp(jstr_or(row, "counts", ""), "rung") == 0;
        x->counts.bytes_read = jnum_or_nan(row, "bytes_read");
        x->counts.bytes_written = jnum_or_nan(row, "bytes_written");
        x->counts.flops = jnum_or_nan(row, "flops");
        x->counts.items = jnum_or_nan(row, "items");
        x->counts.special_ops = jnum_or_nan(row, "special_ops");
        x->counts.link_bytes = jnum_or_nan(row, "link_bytes");
        const double tf = jnum_or_nan(row, "tensor_flops"); /* absent in reports before the tensor ceiling */
        x->counts.tensor_flops = isnan(tf) ? 0 : tf;
        x->counts.tensor_format = climb_tensor_format_parse(jstr_or(row, "tensor_format", ""));
        x->setup.ms = jnum_or_nan(row, "setup_ms");
        x->setup.bytes = jnum_or_nan(row, "setup_bytes");
        x->has_setup = !isnan(x->setup.ms);
        if (failures && (x->status == CLIMB_ROW_WRONG || x->status == CLIMB_ROW_ERROR))
            (*failures)++;
        added++;
    }
    return added;
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
    fprintf(f, "workload,ordinal,rung,kind,type,shape,options,input,reference,status,median_us,min_us,noise_pct,"
               "samples,bytes_read,bytes_written,flops,items,special_ops,link_bytes,gbs,gflops,items_rate,special_rate,"
               "roofline_us,bound,pct_roofline,step_speedup,cumulative_speedup,vs_vendor,vs_bound,setup_ms,setup_bytes,gpu,cc,git_commit,git_dirty,"
               "date,seed,timing,note\n");
    for (int i = 0; i < r->n_rows; i++) {
        const climb_row *row = &r->rows[i];
        const climb_rung_info *info = row->w->rung(row->rung);
        const int ok = row->status == CLIMB_ROW_OK;
        char label[128], opts[512];
        climb_shape_label(&row->shape, label, sizeof label);
        climb_opt_format(row->w->options, row->w->n_options, row->opts, opts, sizeof opts);
        fprintf(f, "%s,%d,%s,%s,%s,%s,", row->w->name, row->rung, info->name, climb_rung_kind_name(info->kind),
                climb_dtype_name(row->type), label);
        csv_str(f, opts);
        fputc(',', f);
        csv_str(f, row->input);
        fputc(',', f);
        csv_str(f, row->reference);
        fprintf(f, ",%s,", climb_row_status_name(row->status));
        const double t[] = {ok ? row->t.median_us : NAN, ok ? row->t.min_us : NAN, ok ? row->t.noise_pct : NAN};
        for (int k = 0; k < 3; k++) {
            csv_num(f, t[k]);
            fputc(',', f);
        }
        fprintf(f, "%d,", row->t.samples);
        const double v[] = {row->counts.bytes_read, row->counts.bytes_written, row->counts.flops, row->counts.items,
                            row->counts.special_ops, row->counts.link_bytes, row->gbs, row->gflops, row->items_rate, row->special_rate,
                            row->roofline_us};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
            csv_num(f, v[k]);
            fputc(',', f);
        }
        fprintf(f, "%s,", row->bound);
        const double w[] = {row->pct_roofline, row->step,      row->cumulative,
                            row->vs_vendor,    row->vs_bound, row->has_setup ? row->setup.ms : NAN,
                            row->has_setup ? row->setup.bytes : NAN};
        for (size_t k = 0; k < sizeof w / sizeof w[0]; k++) {
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
    case_columns cols = {0, 0, 0, 0};
    for (int i = 0; i < r->n_rows; i++) {
        const climb_row *row = &r->rows[i];
        const int has_bound = climb_bound_rung(row->w) >= 0, has_setup = row->w->setup != NULL;
        if (i == 0 || !same_case(row, &r->rows[i - 1])) {
            cols = columns_of(row);
            fputc('\n', f);
            case_line(r, case_head(r, i), f, "**");
            const char *heads[4] = {"GB/s", "GFLOP/s", row->w->items_rate, "Gsfu/s"};
            fputs("\n| # | rung | median µs | min µs | noise |", f);
            rate_cells(f, cols, heads, " %s |");
            fprintf(f, " %% of roofline | step | cumulative | × %s |", vendor_name(row->w));
            if (has_bound)
                fprintf(f, " × %s |", row->w->rung(climb_bound_rung(row->w))->name);
            if (has_setup)
                fputs(" setup ms | setup MB |", f);
            fprintf(f, "\n|--:|---|--:|--:|--:|%s%s%s%s--:|--:|--:|--:|%s%s\n", cols.bytes ? "--:|" : "",
                    cols.flops ? "--:|" : "", cols.items ? "--:|" : "", cols.special ? "--:|" : "",
                    has_bound ? "--:|" : "", has_setup ? "--:|--:|" : "");
        }
        char name[160];
        rung_name(row, name, sizeof name);
        if (row->status != CLIMB_ROW_OK) {
            fprintf(f, "| %d | `%s` | %s: %s |", row->rung, name, climb_row_status_name(row->status), row->note);
            int blanks = 7 + cols.bytes + cols.flops + cols.items + cols.special + has_bound + 2 * has_setup;
            for (int k = 0; k < blanks; k++)
                fputs(" |", f);
            fputc('\n', f);
            continue;
        }
        row_cells c;
        format_cells(row, &c);
        const char *rates[4] = {c.gbs, c.gflops, c.items, c.special};
        fprintf(f, "| %d | `%s` | %s | %s | %s |", row->rung, name, c.median, c.min, c.noise);
        rate_cells(f, cols, rates, " %s |");
        fprintf(f, " %s | %s | %s | %s |", c.roof, c.step, c.cumulative, c.vs_vendor);
        if (has_bound)
            fprintf(f, " %s |", c.vs_bound);
        if (has_setup) {
            char ms[32], mb[32];
            setup_cells(row, ms, mb, sizeof ms);
            fprintf(f, " %s | %s |", ms, mb);
        }
        fputc('\n', f);
    }
}

int climb_report_path_ok(const char *path, char *err, size_t errlen)
{
    if (strcmp(path, "-") == 0)
        return 0;
    struct stat st;
    int existed = stat(path, &st) == 0;
    if (existed && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s", strerror(EISDIR));
        return -1;
    }
    if (existed && !S_ISREG(st.st_mode))
        return 0; /* /dev/stdout, a pipe: written when the time comes */
    int fd = open(path, O_WRONLY | O_CREAT, 0644); /* no O_TRUNC: the file stays as it is */
    if (fd < 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        return -1;
    }
    close(fd);
    if (!existed)
        unlink(path);
    return 0;
}

void climb_check_result_free(climb_check_result *r)
{
    for (int i = 0; i < r->n_failed; i++)
        free(r->failed[i]);
    free(r->failed);
    r->failed = NULL;
    r->n_failed = r->cap_failed = 0;
}

void climb_check_json(const climb_report *rep, const climb_check_result *res, int n, FILE *f)
{
    climb_report_json_head(rep, f);
    const climb_workload **ws = calloc((size_t)(n ? n : 1), sizeof *ws);
    for (int i = 0; ws && i < n; i++)
        ws[i] = res[i].w;
    climb_report_json_workloads(ws, ws ? n : 0, f);
    free(ws);
    fputs("  \"checks\": [", f);
    for (int i = 0; i < n; i++) {
        const climb_check_result *c = &res[i];
        fprintf(f, "%s\n    {\"workload\": ", i ? "," : "");
        json_str(f, c->w->name);
        fprintf(f, ", \"cases\": %ld, \"runs\": %ld, \"refused\": %ld, \"failures\": %d, \"failed\": [", c->cases,
                c->runs, c->refused, c->failures);
        for (int k = 0; k < c->n_failed; k++) {
            fputs(k ? ", " : "", f);
            json_str(f, c->failed[k]);
        }
        fputs("]}", f);
    }
    fputs("\n  ]\n}\n", f);
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
