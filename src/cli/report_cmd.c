/* climb report [PATH...] --html FILE [--md FILE]: one self-contained page (inline SVG, no script, no network) from
 * any folders or files of climb's JSON reports: per GPU its device block and a roofline of every workload's ladder,
 * per workload and case a chart of each rung's time with the vendor and the roofline as lines, a side-by-side
 * table of each best rung against its vendor when several GPUs are given, the scaling across GPUs of each workload
 * measured on one GPU and on more (report_scaling.c), and every report read, with its commit,
 * date, timing mode and notes. It reads reports only, never a workload by name. No GPU needed. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/workload.h"
#include "cli.h"
#include "plot.h"
#include "report_read.h"
#include "report_view.h"

static const char *const REPORT_USAGE =
    "usage: climb report [PATH...] [--this-run FILE] [--html FILE] [--md FILE] [--title TEXT]\n"
    "\n"
    "Builds one page from climb's JSON reports (climb bench --json, gpu-run.sh's results/<gpu>/<workload>/*.json):\n"
    "each PATH is a report or a folder searched for *.json (default: results). Other JSON files in a folder\n"
    "(wisdom, device lists, tune reports) are skipped; a file that is not JSON is named with its line and skipped.\n"
    "For each GPU: its device block and a roofline (flops per byte against GFLOP/s, log axes, the measured\n"
    "bandwidth and FFMA/DFMA/SFU ceilings as lines, each workload's ladder joined from its first rung to its best\n"
    "on its largest case). For each workload and case: a bar of each rung's median time (log scale), the vendor\n"
    "and bound rungs as lines, each rung's roofline time as a tick, and the source text's published times beside\n"
    "where it gave them. With several GPUs: each best rung's ratio to its vendor on each. A workload measured on one\n"
    "GPU and on more (reports whose device_set names 2, 4, ... GPUs): its best rung's strong-scaling speed-up and\n"
    "weak-scaling efficiency at every count, drawn and tabled. Where several reports hold\n"
    "one workload on one GPU, the plain bench report is drawn (cold timing first, then the newest); every report\n"
    "read is listed with its commit, date, timing and notes. The page needs no network: inline SVG and CSS only.\n"
    "\n"
    "  --this-run FILE  a report of one's own (climb bench --json, or the main command's bench.json), shown as a\n"
    "                GPU of its own, '<GPU> (this run)', beside the others: a run on an H100 set beside the\n"
    "                committed H100 results, say\n"
    "  --html FILE   write the page (default: results.html)\n"
    "  --md FILE     also write the tables as markdown\n"
    "  --title TEXT  the page's title (default: climb results)\n"
    "\n"
    "Exit status: 0 written; 1 a named file could not be read as a report, or an output could not be written;\n"
    "2 bad usage, or no report found.\n";

/* ---- the reports read ---- */

static int add_file(rp_set *s, const char *path, int named)
{
    char err[700];
    climb_report_file f;
    climb_report_read_status st = climb_report_file_read(path, &f, err, sizeof err);
    if (st != CLIMB_REPORT_OK) {
        if (named) {
            fprintf(stderr, "climb: report: %s\n", err);
            return -1;
        }
        if (st == CLIMB_REPORT_UNREADABLE) {
            fprintf(stderr, "climb: report: %s; skipped\n", err);
            s->skipped_bad++;
        } else {
            s->skipped_other++;
        }
        return 0;
    }
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 32;
        rp_file *grown = realloc(s->files, (size_t)cap * sizeof *grown);
        if (!grown) {
            climb_report_file_free(&f);
            fprintf(stderr, "climb: report: out of host memory\n");
            return -1;
        }
        s->files = grown;
        s->cap = cap;
    }
    s->files[s->n].path = strdup(path);
    s->files[s->n].f = f;
    s->files[s->n].label = NULL;
    if (!s->files[s->n].path) {
        climb_report_file_free(&f);
        fprintf(stderr, "climb: report: out of host memory\n");
        return -1;
    }
    s->n++;
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* A report file, or a folder searched for *.json in name order (hidden entries left out). */
static int collect(rp_set *s, const char *path, int named, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "climb: report: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return named || ends_with(path, ".json") ? add_file(s, path, named) : 0;
    if (depth > 16)
        return 0;
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "climb: report: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char **names = NULL;
    int n = 0, cap = 0, rc = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(names, (size_t)cap * sizeof *grown);
            if (!grown) {
                rc = -1;
                break;
            }
            names = grown;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len))) {
            rc = -1;
            break;
        }
        snprintf(names[n++], len, "%s%s%s", path, ends_with(path, "/") ? "" : "/", e->d_name);
    }
    closedir(d);
    if (rc != 0)
        fprintf(stderr, "climb: report: out of host memory\n");
    if (n > 1)
        qsort(names, (size_t)n, sizeof *names, cmp_str);
    for (int i = 0; i < n; i++) {
        if (rc == 0)
            rc = collect(s, names[i], 0, depth + 1);
        free(names[i]);
    }
    free(names);
    return rc;
}

/* ---- what is drawn: per GPU and workload, one report ---- */

static int str_index(const char **list, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], s) == 0)
            return i;
    return -1;
}

static const climb_json *registry_of(const climb_report_file *f, const char *workload)
{
    for (int i = 0; f->workloads && i < f->workloads->n; i++)
        if (climb_same_text(climb_jstr(&f->workloads->items[i], "name"), workload))
            return &f->workloads->items[i];
    return NULL;
}

static int rows_of(const rp_file *f, const char *workload)
{
    int n = 0;
    for (int r = 0; r < f->f.results->n; r++)
        n += climb_same_text(climb_jstr(&f->f.results->items[r], "workload"), workload);
    return n;
}

/* 1 when a is the better report of workload to draw than b: a plain bench over a sweep, cold over batch, the
 * fuller (more rows of the workload: a full bench over a quick one), then the newer. */
int rp_better(const rp_file *a, const rp_file *b, const char *workload)
{
    const int pa = !a->f.sweep, pb = !b->f.sweep;
    if (pa != pb)
        return pa > pb;
    const int ca = climb_same_text(a->f.timing, "cold"), cb = climb_same_text(b->f.timing, "cold");
    if (ca != cb)
        return ca > cb;
    const int na = rows_of(a, workload), nb = rows_of(b, workload);
    if (na != nb)
        return na > nb;
    const int d = strcmp(a->f.date ? a->f.date : "", b->f.date ? b->f.date : "");
    return d != 0 ? d > 0 : strcmp(a->path, b->path) > 0;
}

const char *rp_gpu_of(const rp_file *f) { return f->label ? f->label : f->f.gpu ? f->f.gpu : "unknown GPU"; }

static int build_view(const rp_set *s, rp_view *v)
{
    memset(v, 0, sizeof *v);
    size_t rows = 0;
    for (int i = 0; i < s->n; i++)
        rows += (size_t)s->files[i].f.results->n;
    v->gpus = calloc((size_t)(s->n > 0 ? s->n : 0) + 1, sizeof *v->gpus);
    v->workloads = calloc(rows + 1, sizeof *v->workloads);
    if (!v->gpus || !v->workloads)
        return -1;
    for (int i = 0; i < s->n; i++) {
        const rp_file *f = &s->files[i];
        if (str_index(v->gpus, v->n_gpus, rp_gpu_of(f)) < 0)
            v->gpus[v->n_gpus++] = rp_gpu_of(f);
        for (int r = 0; r < f->f.results->n; r++) {
            const char *w = climb_jstr(&f->f.results->items[r], "workload");
            if (str_index(v->workloads, v->n_workloads, w) < 0)
                v->workloads[v->n_workloads++] = w;
        }
    }
    if (v->n_workloads > 1)
        qsort(v->workloads, (size_t)v->n_workloads, sizeof *v->workloads, cmp_str);
    v->picks = calloc((size_t)v->n_gpus * (size_t)v->n_workloads + 1, sizeof *v->picks);
    if (!v->picks)
        return -1;
    for (int i = 0; i < s->n; i++) {
        const rp_file *f = &s->files[i];
        const int g = str_index(v->gpus, v->n_gpus, rp_gpu_of(f));
        for (int r = 0; r < f->f.results->n; r++) {
            const char *w = climb_jstr(&f->f.results->items[r], "workload");
            rp_pick *p = &v->picks[g * v->n_workloads + str_index(v->workloads, v->n_workloads, w)];
            if (p->file == f)
                continue;
            if (!p->file || rp_better(f, p->file, w)) {
                p->gpu = v->gpus[g];
                p->workload = w;
                p->file = f;
                p->reg = registry_of(&f->f, w);
            }
        }
    }
    return 0;
}

static void free_view(rp_view *v)
{
    free(v->gpus);
    free(v->workloads);
    free(v->picks);
}

/* ---- a case: the rows of one workload, type, shape and option values in one report ---- */

int rp_cases_of(const rp_pick *p, rp_cases *out)
{
    memset(out, 0, sizeof *out);
    const climb_json *res = p->file->f.results;
    out->cases = calloc((size_t)res->n + 1, sizeof *out->cases);
    out->pool = calloc((size_t)res->n + 1, sizeof *out->pool);
    if (!out->cases || !out->pool)
        return -1;
    /* rows grouped by case in the order first met; each case's rows kept contiguous in the pool */
    int *case_of = calloc((size_t)res->n + 1, sizeof *case_of);
    if (!case_of)
        return -1;
    for (int i = 0; i < res->n; i++) {
        const climb_json *row = &res->items[i];
        case_of[i] = -1;
        if (!climb_same_text(climb_jstr(row, "workload"), p->workload))
            continue;
        char key[700];
        climb_row_key(row, 0, key, sizeof key);
        int c = 0;
        while (c < out->n && strcmp(out->cases[c].key, key) != 0)
            c++;
        if (c == out->n)
            snprintf(out->cases[out->n++].key, sizeof out->cases[0].key, "%s", key);
        out->cases[c].n++;
        case_of[i] = c;
    }
    int at = 0;
    for (int c = 0; c < out->n; c++) {
        out->cases[c].rows = out->pool + at;
        at += out->cases[c].n;
        out->cases[c].n = 0;
    }
    for (int i = 0; i < res->n; i++)
        if (case_of[i] >= 0) {
            rp_case *c = &out->cases[case_of[i]];
            c->rows[c->n++] = &res->items[i];
        }
    free(case_of);
    return 0;
}

void rp_free_cases(rp_cases *c)
{
    free(c->cases);
    free(c->pool);
}

int rp_row_ok(const climb_json *row) { return climb_same_text(climb_jstr(row, "status"), "ok"); }

double rp_row_bytes(const climb_json *row)
{
    const double r = climb_jnum(row, "bytes_read"), w = climb_jnum(row, "bytes_written");
    return (isnan(r) ? 0 : r) + (isnan(w) ? 0 : w);
}

const char *rp_kind_of(const climb_json *row)
{
    const char *k = climb_jstr(row, "kind");
    return k ? k : "ladder";
}

/* ---- output helpers ---- */

/* Markdown: a table cell's text with its bars escaped. */
static void md_cell(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s != '\n')
            fputc(*s, f);
    }
}

void rp_shape_text(const climb_json *row, char *out, size_t len)
{
    const char *type = climb_jstr(row, "type"), *shape = climb_jstr(row, "shape_label");
    char opts[500];
    climb_row_options_text(climb_json_get(row, "options"), opts, sizeof opts);
    snprintf(out, len, "%s %s%s%s", type ? type : "", shape ? shape : "", opts[0] ? " " : "", opts);
}

/* ---- the page ---- */

static const char *const CSS =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:1600px;padding:0 16px;"
    "color:#222;background:#fff}\n"
    "h1{margin:16px 0 4px}h2{border-bottom:1px solid #ccc;padding-bottom:2px;margin-top:32px}h3{margin:20px 0 6px}\n"
    "table{border-collapse:collapse;font-size:13px;margin:6px 0}td,th{border:1px solid #ccc;padding:2px 6px;"
    "text-align:left;vertical-align:top}td.n,th.n{text-align:right}\n"
    "code{font-family:ui-monospace,monospace;font-size:12px}.muted{color:#666;font-size:13px}\n"
    ".charts{display:flex;flex-wrap:wrap;gap:8px 24px}.case{flex:0 0 auto}.case h4{margin:8px 0 2px;font-size:13px;"
    "font-weight:600}\n"
    "svg.chart{background:#fff;max-width:100%;height:auto;font-family:system-ui,sans-serif}\n"
    "svg .grid{stroke:#e4e4e4;stroke-width:1}svg .frame{fill:none;stroke:#888}svg .tick{font-size:10px;fill:#555}\n"
    "svg .label{font-size:12px;fill:#333}svg .ceiling{stroke:#222;stroke-width:1.6;fill:none}"
    "svg .clabel{font-size:11px;fill:#222}\n"
    "svg .rung{font-size:11px;font-family:ui-monospace,monospace;fill:#222}svg .rung.best{font-weight:700}\n"
    "svg .ladderbar{fill:#6a9fd4}svg .bestbar{fill:#e07b27}svg .pubbar{fill:#aaa}svg .val{font-size:11px;fill:#222}"
    "svg .pub{font-size:9px;fill:#777}svg .status{font-size:11px;fill:#a33}\n"
    "svg .rooftick{stroke:#2a8a2a;stroke-width:2}svg .vendorline{stroke:#c0392b;stroke-width:1.5;"
    "stroke-dasharray:5,3}svg .boundline{stroke:#555;stroke-width:1.2;stroke-dasharray:2,3}\n"
    "svg .vendorlabel{font-size:10px;fill:#c0392b}svg .boundlabel{font-size:10px;fill:#555}\n"
    "ul.legend{columns:2;font-size:13px;list-style:none;padding-left:0}.swatch{display:inline-block;width:10px;"
    "height:10px;margin-right:6px;border-radius:5px}\n"
    "details{margin:4px 0 8px}summary{cursor:pointer;font-size:13px}.notes{font-size:12px}\n"
    "svg .ideal{stroke:#888;stroke-width:1.2;stroke-dasharray:5,4;fill:none}svg .series{stroke-width:2;fill:none}"
    "svg .legend{font-size:11px}\n";

static void device_block(FILE *f, FILE *md, const climb_json *d, const rp_file *from)
{
    const char *name = climb_jstr(d, "name"), *cc = climb_jstr(d, "compute_capability");
    const climb_json *th = climb_json_get(d, "theoretical"), *m = climb_json_get(d, "measured"),
                     *nv = climb_json_get(d, "nvml");
    const double drv = climb_jnum(d, "driver_version"), rt = climb_jnum(d, "runtime_version");
    char facts[600];
    snprintf(facts, sizeof facts,
             "%s, compute capability %s, %.0f SMs, SM clock %.0f MHz, memory clock %.0f MHz, %.0f-bit bus, "
             "L2 %.0f MiB, %.0f GiB; driver %.0f.%.0f, runtime %.0f.%.0f",
             name ? name : "?", cc ? cc : "?", climb_jnum(d, "sms"), climb_jnum(d, "sm_clock_mhz"),
             climb_jnum(d, "mem_clock_mhz"), climb_jnum(d, "bus_width_bits"), climb_jnum(d, "l2_bytes") / 1048576.0,
             climb_jnum(d, "global_mem_bytes") / 1073741824.0, floor(drv / 1000), fmod(drv, 1000) / 10,
             floor(rt / 1000), fmod(rt, 1000) / 10);
    fputs("<table><tr><th>device</th><td>", f);
    plot_esc(f, facts);
    fputs("</td></tr>\n", f);
    fprintf(md, "- device: %s\n", facts);
    if (th && th->type == CLIMB_JSON_OBJECT) {
        fprintf(f, "<tr><th>theoretical</th><td>%.0f GB/s memory, %.0f GFLOP/s FP32 FFMA</td></tr>\n",
                climb_jnum(th, "bandwidth_gbs"), climb_jnum(th, "ffma_gflops"));
        fprintf(md, "- theoretical: %.0f GB/s memory, %.0f GFLOP/s FP32 FFMA\n", climb_jnum(th, "bandwidth_gbs"),
                climb_jnum(th, "ffma_gflops"));
    }
    if (m && m->type == CLIMB_JSON_OBJECT) {
        char line[480], v[9][32];
        const char *keys[] = {"copy_gbs", "read_gbs", "write_gbs", "ffma_gflops", "dfma_gflops", "sfu_gops",
                              "tensor_bf16_gflops", "tensor_tf32_gflops", "launch_us"};
        for (int i = 0; i < 9; i++)
            plot_num(v[i], sizeof v[i], climb_jnum(m, keys[i]));
        char tensor[120] = ""; /* where the run measured the tensor cores */
        if (climb_jnum(m, keys[6]) > 0)
            snprintf(tensor, sizeof tensor, ", tensor cores BF16 %s GFLOP/s and TF32 %s GFLOP/s", v[6], v[7]);
        snprintf(line, sizeof line,
                 "copy %s GB/s (read + written), read %s GB/s, write %s GB/s, FFMA %s GFLOP/s, DFMA %s GFLOP/s, "
                 "SFU %s G/s%s, launch %s µs",
                 v[0], v[1], v[2], v[3], v[4], v[5], tensor, v[8]);
        fprintf(f, "<tr><th>measured</th><td>%s<br><span class=\"muted\">at the start of ", line);
        plot_esc(f, from->path);
        fputs(" (each report carries its own; a row's % of roofline uses its report's)</span></td></tr>\n", f);
        fprintf(md, "- measured (%s): %s\n", from->path, line);
    }
    if (nv && nv->type == CLIMB_JSON_OBJECT) {
        fputs("<tr><th>NVML</th><td>", f);
        for (int i = 0; i < nv->n; i++) {
            const climb_json *x = &nv->items[i];
            fprintf(f, "%s", i ? ", " : "");
            plot_esc(f, nv->keys[i]);
            if (x->type == CLIMB_JSON_NUMBER)
                fprintf(f, " %g", x->number);
            else if (x->type == CLIMB_JSON_STRING) {
                fputs(" ", f);
                plot_esc(f, x->string);
            }
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* One of a device_set's n x n matrices as a table, its cells shaded by their share of the largest (the pair matrix
 * as a picture); null cells blank. */
static void pair_matrix(FILE *f, FILE *md, const climb_json *set, const char *key, const char *title)
{
    const climb_json *devs = climb_json_get(set, "devices"), *m = climb_json_get(set, key);
    if (!devs || devs->type != CLIMB_JSON_ARRAY || !m || m->type != CLIMB_JSON_ARRAY || m->n != devs->n)
        return;
    double hi = 0;
    for (int i = 0; i < m->n; i++)
        for (int j = 0; m->items[i].type == CLIMB_JSON_ARRAY && j < m->items[i].n; j++)
            if (m->items[i].items[j].type == CLIMB_JSON_NUMBER && m->items[i].items[j].number > hi)
                hi = m->items[i].items[j].number;
    if (!(hi > 0))
        return;
    fprintf(f, "<p>%s (row: from, column: to)</p>\n<table class=\"pairs\"><tr><th></th>", title);
    fprintf(md, "\n%s (row: from, column: to)\n\n|  |", title);
    for (int j = 0; j < devs->n; j++) {
        fprintf(f, "<th>GPU %.0f</th>", climb_jnum(&devs->items[j], "ordinal"));
        fprintf(md, " GPU %.0f |", climb_jnum(&devs->items[j], "ordinal"));
    }
    fputs("</tr>\n", f);
    fputs("\n|---|", md);
    for (int j = 0; j < devs->n; j++)
        fputs("--:|", md);
    fputc('\n', md);
    for (int i = 0; i < m->n; i++) {
        fprintf(f, "<tr><th>GPU %.0f</th>", climb_jnum(&devs->items[i], "ordinal"));
        fprintf(md, "| GPU %.0f |", climb_jnum(&devs->items[i], "ordinal"));
        for (int j = 0; j < devs->n; j++) {
            const climb_json *x = m->items[i].type == CLIMB_JSON_ARRAY && j < m->items[i].n ? &m->items[i].items[j] : NULL;
            if (!x || x->type != CLIMB_JSON_NUMBER) {
                fputs("<td></td>", f);
                fputs(" |", md);
                continue;
            }
            char v[32];
            plot_num(v, sizeof v, x->number);
            /* white to the palette's first blue by the share of the largest */
            const double t = x->number / hi;
            fprintf(f, "<td style=\"background:rgb(%d,%d,%d)\" title=\"%s GB/s\">%s</td>", (int)(255 - t * (255 - 31)),
                    (int)(255 - t * (255 - 119)), (int)(255 - t * (255 - 180)), v, v);
            fprintf(md, " %s |", v);
        }
        fputs("</tr>\n", f);
        fputc('\n', md);
    }
    fputs("</table>\n", f);
}

/* The GPUs a report's spanning cases took, and the copy engines between every pair (where measured). */
static void device_set_block(FILE *f, FILE *md, const climb_json *set, const rp_file *from)
{
    const climb_json *devs = climb_json_get(set, "devices");
    if (!devs || devs->type != CLIMB_JSON_ARRAY || devs->n < 2)
        return;
    fprintf(f, "<h3>%d GPUs together</h3>\n<p class=\"muted\">From ", devs->n);
    plot_esc(f, from->path);
    fputs(": the GPUs of the cases that span several;", f);
    fprintf(md, "### %d GPUs together\n\nFrom %s:", devs->n, from->path);
    for (int i = 0; i < devs->n; i++) {
        const char *name = climb_jstr(&devs->items[i], "name");
        fprintf(f, "%s GPU %.0f (", i ? "," : "", climb_jnum(&devs->items[i], "ordinal"));
        plot_esc(f, name ? name : "?");
        fputc(')', f);
        fprintf(md, "%s GPU %.0f (%s)", i ? "," : "", climb_jnum(&devs->items[i], "ordinal"), name ? name : "?");
    }
    fputs(". The copy engines between them, measured at the start of the run (cudaMemcpyPeerAsync of 256 MiB, the best "
          "of five).</p>\n",
          f);
    fputs(". The copy engines between them, measured at the start of the run.\n", md);
    pair_matrix(f, md, set, "p2p_one_way_gbs", "GB/s one way");
    pair_matrix(f, md, set, "p2p_both_ways_gbs", "GB/s both ways at once");
    pair_matrix(f, md, set, "p2p_latency_us", "µs a 4-byte copy (one of 100 back to back)");
    pair_matrix(f, md, set, "nvlinks", "NVLinks between them (NVML; through NVSwitches where nvlink_switch)");
    fputc('\n', md);
}

/* The best rung's row of a case (status ok), or NULL. */
static const climb_json *best_row(const rp_case *cs)
{
    for (int i = 0; i < cs->n; i++)
        if (climb_same_text(rp_kind_of(cs->rows[i]), "best") && rp_row_ok(cs->rows[i]))
            return cs->rows[i];
    return NULL;
}

static void range_text(char *out, size_t len, double lo, double hi, const char *suffix)
{
    if (!(hi >= lo))
        snprintf(out, len, "-");
    else if (fabs(hi - lo) < 0.005 * fabs(hi))
        snprintf(out, len, "%.2f%s", lo, suffix);
    else
        snprintf(out, len, "%.2f–%.2f%s", lo, hi, suffix);
}

/* One GPU's table: each workload's best rung over its cases against the vendor and the roofline. */
static void gpu_table(FILE *f, FILE *md, const rp_view *v, int g)
{
    fputs("<table><tr><th>workload</th><th>best rung</th><th class=\"n\">cases</th><th class=\"n\">vendor's time / "
          "best's</th><th class=\"n\">% of roofline</th><th>report</th></tr>\n",
          f);
    fputs("| workload | best rung | cases | vendor's time / best's | % of roofline | report |\n|---|---|--:|--:|--:|---|\n",
          md);
    for (int w = 0; w < v->n_workloads; w++) {
        const rp_pick *p = &v->picks[g * v->n_workloads + w];
        rp_cases cases;
        if (!p->file || rp_cases_of(p, &cases) != 0)
            continue;
        double vlo = INFINITY, vhi = -INFINITY, rlo = INFINITY, rhi = -INFINITY;
        const char *best = NULL;
        int n = 0;
        for (int c = 0; c < cases.n; c++) {
            const climb_json *b = best_row(&cases.cases[c]);
            if (!b)
                continue;
            n++;
            best = climb_jstr(b, "rung");
            const double vv = climb_jnum(b, "vs_vendor"), pr = climb_jnum(b, "pct_roofline");
            if (!isnan(vv)) {
                vlo = fmin(vlo, vv);
                vhi = fmax(vhi, vv);
            }
            if (!isnan(pr)) {
                rlo = fmin(rlo, pr);
                rhi = fmax(rhi, pr);
            }
        }
        char vend[64], roof[64];
        range_text(vend, sizeof vend, vlo, vhi, "×");
        if (rhi >= rlo && lround(rlo) == lround(rhi))
            snprintf(roof, sizeof roof, "%.0f%%", rlo);
        else if (rhi >= rlo)
            snprintf(roof, sizeof roof, "%.0f–%.0f%%", rlo, rhi);
        else
            snprintf(roof, sizeof roof, "-");
        fputs("<tr><td><a href=\"#wl-", f);
        plot_esc(f, p->workload);
        fputs("\">", f);
        plot_esc(f, p->workload);
        fputs("</a></td><td><code>", f);
        plot_esc(f, best ? best : "-");
        fprintf(f, "</code></td><td class=\"n\">%d</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td>", n, vend,
                roof);
        plot_esc(f, p->file->path);
        fputs("</td></tr>\n", f);
        fprintf(md, "| %s | `%s` | %d | %s | %s | ", p->workload, best ? best : "-", n, vend, roof);
        md_cell(md, p->file->path);
        fputs(" |\n", md);
        rp_free_cases(&cases);
    }
    fputs("</table>\n", f);
    fputs("\n", md);
}

/* Several GPUs: each case that two or more of them ran, its best rung's time and ratio to the vendor on each. */
static void gpus_table(FILE *f, FILE *md, const rp_view *v)
{
    fputs("<h2 id=\"gpus\">Side by side</h2>\n<p class=\"muted\">Each case that more than one GPU ran: the best rung's "
          "median and, in brackets, the vendor's time over it (above 1: the best rung is faster).</p>\n<table><tr>"
          "<th>workload</th><th>case</th>",
          f);
    fputs("## Side by side\n\n| workload | case |", md);
    for (int g = 0; g < v->n_gpus; g++) {
        fputs("<th class=\"n\">", f);
        plot_esc(f, v->gpus[g]);
        fputs("</th>", f);
        fprintf(md, " %s |", v->gpus[g]);
    }
    fputs("</tr>\n", f);
    fputs("\n|---|---|", md);
    for (int g = 0; g < v->n_gpus; g++)
        fputs("--:|", md);
    fputs("\n", md);
    for (int w = 0; w < v->n_workloads; w++) {
        const int ng = v->n_gpus;
        rp_cases *cs = calloc((size_t)ng, sizeof *cs);
        int *have = calloc((size_t)ng, sizeof *have);
        const climb_json **rows = calloc((size_t)ng, sizeof *rows);
        if (!cs || !have || !rows) {
            free(cs);
            free(have);
            free(rows);
            continue;
        }
        for (int g = 0; g < ng; g++) {
            const rp_pick *p = &v->picks[g * v->n_workloads + w];
            have[g] = p->file && rp_cases_of(p, &cs[g]) == 0;
        }
        for (int g0 = 0; g0 < ng; g0++) {
            if (!have[g0])
                continue;
            for (int c = 0; c < cs[g0].n; c++) {
                const char *key = cs[g0].cases[c].key;
                int first = 1, count = 0;
                memset(rows, 0, (size_t)ng * sizeof *rows);
                for (int g = 0; g < ng; g++) {
                    if (!have[g])
                        continue;
                    for (int k = 0; k < cs[g].n; k++)
                        if (strcmp(cs[g].cases[k].key, key) == 0) {
                            rows[g] = best_row(&cs[g].cases[k]);
                            first &= !(g < g0);
                            count++;
                        }
                }
                if (count < 2 || !first) /* shown once, from the first GPU that has it */
                    continue;
                char shape[600];
                rp_shape_text(cs[g0].cases[c].rows[0], shape, sizeof shape);
                fputs("<tr><td>", f);
                plot_esc(f, v->workloads[w]);
                fputs("</td><td>", f);
                plot_esc(f, shape);
                fputs("</td>", f);
                fprintf(md, "| %s | ", v->workloads[w]);
                md_cell(md, shape);
                fputs(" |", md);
                for (int g = 0; g < v->n_gpus; g++) {
                    char cell[96] = "-", a[32];
                    if (rows[g]) {
                        plot_num(a, sizeof a, climb_jnum(rows[g], "median_us"));
                        const double vv = climb_jnum(rows[g], "vs_vendor");
                        if (isnan(vv))
                            snprintf(cell, sizeof cell, "%s µs", a);
                        else
                            snprintf(cell, sizeof cell, "%s µs (%.2f×)", a, vv);
                    }
                    fprintf(f, "<td class=\"n\">%s</td>", cell);
                    fprintf(md, " %s |", cell);
                }
                fputs("</tr>\n", f);
                fputs("\n", md);
            }
        }
        for (int g = 0; g < ng; g++)
            if (have[g])
                rp_free_cases(&cs[g]);
        free(cs);
        free(have);
        free(rows);
    }
    fputs("</table>\n", f);
    fputs("\n", md);
}

static void reports_table(FILE *f, FILE *md, const rp_set *s)
{
    fputs("<h2 id=\"reports\">Reports read</h2>\n<table><tr><th>report</th><th>command</th><th>GPU</th><th>timing</th>"
          "<th>sweep</th><th>commit</th><th>date</th><th class=\"n\">rows</th><th>notes</th></tr>\n",
          f);
    fputs("## Reports read\n\n| report | command | GPU | timing | sweep | commit | date | rows |\n"
          "|---|---|---|---|---|---|---|--:|\n",
          md);
    for (int i = 0; i < s->n; i++) {
        const rp_file *r = &s->files[i];
        const climb_json *dirty = climb_json_get(r->f.root, "git_dirty");
        const int is_dirty = dirty && dirty->type == CLIMB_JSON_BOOL && dirty->number != 0;
        const climb_json *notes = climb_json_get(r->f.root, "notes");
        const int n_notes = notes && notes->type == CLIMB_JSON_ARRAY ? notes->n : 0;
        const char *cells[] = {r->path, r->f.command, rp_gpu_of(r), r->f.timing, r->f.sweep ? r->f.sweep : "-",
                               r->f.commit, r->f.date};
        fputs("<tr>", f);
        fputs("|", md);
        for (int c = 0; c < 7; c++) {
            fputs(c == 5 ? "<td><code>" : "<td>", f);
            char cut[16];
            const char *txt = cells[c] ? cells[c] : "?";
            if (c == 5) { /* a commit by its first 7 characters */
                snprintf(cut, sizeof cut, "%.7s%s", txt, is_dirty ? "+" : "");
                txt = cut;
            }
            plot_esc(f, txt);
            fputs(c == 5 ? "</code></td>" : "</td>", f);
            fputs(" ", md);
            md_cell(md, txt);
            fputs(" |", md);
        }
        fprintf(f, "<td class=\"n\">%d</td><td>", r->f.results->n);
        fprintf(md, " %d |\n", r->f.results->n);
        if (n_notes > 0) {
            fprintf(f, "<details><summary>%d note%s</summary><ul class=\"notes\">", n_notes, n_notes > 1 ? "s" : "");
            for (int k = 0; k < n_notes; k++)
                if (notes->items[k].type == CLIMB_JSON_STRING) {
                    fputs("<li>", f);
                    plot_esc(f, notes->items[k].string);
                    fputs("</li>", f);
                }
            fputs("</ul></details>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    fputs("\n", md);
    if (s->skipped_other || s->skipped_bad) {
        fprintf(f, "<p class=\"muted\">Skipped: %d JSON file%s that %s not bench reports (wisdom, device lists, tune "
                   "reports)%s",
                s->skipped_other, s->skipped_other == 1 ? "" : "s", s->skipped_other == 1 ? "is" : "are",
                s->skipped_bad ? "; " : ".</p>\n");
        if (s->skipped_bad)
            fprintf(f, "%d that could not be read (named on stderr).</p>\n", s->skipped_bad);
    }
}

static void workload_section(FILE *f, const rp_view *v, int w)
{
    const char *name = v->workloads[w];
    const climb_json *reg = NULL;
    for (int g = 0; g < v->n_gpus && !reg; g++)
        reg = v->picks[g * v->n_workloads + w].reg;
    fputs("<h2 id=\"wl-", f);
    plot_esc(f, name);
    fputs("\">", f);
    plot_esc(f, name);
    /* The words of this build's table where it has the workload (an older report keeps the words of its day), else
     * the report's. */
    const climb_workload *now = climb_find_workload(name);
    const char *title = now ? now->title : reg ? climb_jstr(reg, "title") : NULL;
    const char *src = now ? now->sources : reg ? climb_report_sources(reg) : NULL;
    if (title) {
        fputs(": ", f);
        plot_esc(f, title);
    }
    fputs("</h2>\n", f);
    if (src) {
        fputs("<p class=\"muted\">From: ", f);
        plot_esc(f, src);
        fputs("</p>\n", f);
    }
    const climb_json *pub = reg ? climb_json_get(reg, "published") : NULL;
    if (pub && pub->type == CLIMB_JSON_OBJECT) {
        fputs("<p class=\"muted\">Published figures (grey bars): ", f);
        plot_esc(f, now && now->published ? now->published->source : climb_jstr(pub, "source"));
        fputs(", on ", f);
        plot_esc(f, now && now->published ? now->published->gpu : climb_jstr(pub, "gpu"));
        fputs(".</p>\n", f);
    }
    for (int g = 0; g < v->n_gpus; g++) {
        const rp_pick *p = &v->picks[g * v->n_workloads + w];
        rp_cases cases;
        if (!p->file || rp_cases_of(p, &cases) != 0)
            continue;
        fputs("<h3>", f);
        plot_esc(f, p->gpu);
        fputs("</h3>\n<p class=\"muted\">", f);
        plot_esc(f, p->file->path);
        fputs(": commit <code>", f);
        char c7[8];
        snprintf(c7, sizeof c7, "%.7s", p->file->f.commit ? p->file->f.commit : "?");
        plot_esc(f, c7);
        fputs("</code>, ", f);
        plot_esc(f, p->file->f.date ? p->file->f.date : "?");
        fputs(", ", f);
        plot_esc(f, p->file->f.timing ? p->file->f.timing : "?");
        fprintf(f, " timing. %d case%s. Bars: each rung's median (orange: the best rung); red dashed line: the "
                   "vendor; grey dotted: the bound rung; green tick: the least time the measured ceilings allow "
                   "(the roofline).</p>\n<div class=\"charts\">\n",
                cases.n, cases.n == 1 ? "" : "s");
        for (int c = 0; c < cases.n; c++) {
            const rp_case *cs = &cases.cases[c];
            char shape[600];
            rp_shape_text(cs->rows[0], shape, sizeof shape);
            fputs("<div class=\"case\"><h4>", f);
            plot_esc(f, shape);
            const char *input = climb_jstr(cs->rows[0], "input");
            if (input && input[0]) {
                fputs(" <span class=\"muted\">(", f);
                plot_esc(f, input);
                fputs(")</span>", f);
            }
            fputs("</h4>\n", f);
            rp_ladder_svg(f, p, cs);
            fputs("</div>\n", f);
        }
        fputs("</div>\n", f);
        rp_free_cases(&cases);
    }
}

static int write_page(FILE *f, FILE *md, const rp_set *s, const rp_view *v, const char *title, const char *const *paths,
                      int n_paths)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta name=\"viewport\" "
          "content=\"width=device-width, initial-scale=1\">\n<title>",
          f);
    plot_esc(f, title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head><body>\n<h1>", CSS);
    plot_esc(f, title);
    fputs("</h1>\n<p class=\"muted\">Built by <code>climb report", f);
    fprintf(md, "# %s\n\nBuilt by `climb report", title);
    for (int i = 0; i < n_paths; i++) { /* the inputs only: the page does not name where it was written */
        fputs(" ", f);
        plot_esc(f, paths[i]);
        fprintf(md, " %s", paths[i]);
    }
    fprintf(f, "</code> from %d report%s. Every figure is from the reports (docs/report-format.md says what each "
               "field means); hover a point or bar for its numbers.</p>\n<ul>",
            s->n, s->n == 1 ? "" : "s");
    fprintf(md, "` from %d report%s.\n\n", s->n, s->n == 1 ? "" : "s");
    for (int g = 0; g < v->n_gpus; g++) {
        fprintf(f, "<li><a href=\"#gpu-%d\">", g);
        plot_esc(f, v->gpus[g]);
        fputs("</a></li>", f);
    }
    if (v->n_gpus > 1)
        fputs("<li><a href=\"#gpus\">side by side</a></li>", f);
    fputs("<li>workloads:", f);
    for (int w = 0; w < v->n_workloads; w++) {
        fputs(" <a href=\"#wl-", f);
        plot_esc(f, v->workloads[w]);
        fputs("\">", f);
        plot_esc(f, v->workloads[w]);
        fputs("</a>", f);
    }
    fputs("</li><li><a href=\"#reports\">reports read</a></li></ul>\n", f);
    for (int g = 0; g < v->n_gpus; g++) {
        /* the device block of the newest report drawn for this GPU */
        const rp_file *newest = NULL;
        for (int w = 0; w < v->n_workloads; w++) {
            const rp_file *p = v->picks[g * v->n_workloads + w].file;
            if (p && p->f.device &&
                (!newest || strcmp(p->f.date ? p->f.date : "", newest->f.date ? newest->f.date : "") > 0))
                newest = p;
        }
        fprintf(f, "<h2 id=\"gpu-%d\">", g);
        plot_esc(f, v->gpus[g]);
        fputs("</h2>\n", f);
        fprintf(md, "## %s\n\n", v->gpus[g]);
        if (newest)
            device_block(f, md, newest->f.device, newest);
        fputs("\n", md);
        fputs("<h3>Roofline</h3>\n", f);
        char *legend_text = NULL;
        size_t legend_len = 0;
        FILE *legend = open_memstream(&legend_text, &legend_len);
        const int drawn = legend ? rp_roofline_svg(f, v, g, legend) : 0;
        if (legend)
            fclose(legend);
        if (drawn > 0) {
            fputs("<p class=\"muted\">Each workload with floating-point work, on its largest case (below): its ladder "
                  "joined from the first rung to the best (large circle); squares: vendor rungs (filled) and bound "
                  "rungs (open). Lines: the measured ceilings, each from the newest report drawn that measured it (the "
                  "SFU rate only where a workload needs it). Workloads that count no flops (data movement, sorting, "
                  "graphs) are in their ladder charts only.</p>\n<ul class=\"legend\">",
                  f);
            fputs(legend_text ? legend_text : "", f);
            fputs("</ul>\n", f);
        } else {
            fputs("<p class=\"muted\">No report of this GPU counts flops: no roofline.</p>\n", f);
        }
        free(legend_text);
        /* the newest report of this GPU whose cases spanned several GPUs: how they are joined */
        const rp_file *spanning = NULL;
        for (int w = 0; w < v->n_workloads; w++) {
            const rp_file *p = v->picks[g * v->n_workloads + w].file;
            if (p && climb_json_get(p->f.root, "device_set") &&
                (!spanning || strcmp(p->f.date ? p->f.date : "", spanning->f.date ? spanning->f.date : "") > 0))
                spanning = p;
        }
        if (spanning)
            device_set_block(f, md, climb_json_get(spanning->f.root, "device_set"), spanning);
        fputs("<h3>Best rungs</h3>\n", f);
        gpu_table(f, md, v, g);
    }
    if (v->n_gpus > 1)
        gpus_table(f, md, v);
    if (rp_scaling_section(f, md, s, v) < 0)
        return -1;
    for (int w = 0; w < v->n_workloads; w++)
        workload_section(f, v, w);
    reports_table(f, md, s);
    fputs("</body></html>\n", f);
    return ferror(f) || ferror(md) ? -1 : 0;
}

int cmd_report(int argc, char **argv)
{
    const char *html = NULL, *mdpath = NULL, *title = NULL, *this_run = NULL;
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    int n_paths = 0;
    if (!paths) {
        fprintf(stderr, "climb: report: out of host memory\n");
        return EXIT_FAILED;
    }
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(REPORT_USAGE, stdout);
            free(paths);
            return 0;
        }
        const char **slot = strcmp(argv[i], "--html") == 0 ? &html
                            : strcmp(argv[i], "--md") == 0 ? &mdpath
                            : strcmp(argv[i], "--title") == 0 ? &title
                            : strcmp(argv[i], "--this-run") == 0 ? &this_run
                                                                  : NULL;
        if (slot) {
            if (i + 1 >= argc || !argv[i + 1][0]) {
                free(paths);
                return usage_error(REPORT_USAGE, "report: %s needs a value", argv[i]);
            }
            if (*slot) {
                free(paths);
                return usage_error(REPORT_USAGE, "report: %s given twice", argv[i]);
            }
            *slot = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            free(paths);
            return usage_error(REPORT_USAGE, "report: unknown option '%s'", argv[i]);
        } else {
            paths[n_paths++] = argv[i];
        }
    }
    if (!html)
        html = "results.html";
    if (!title)
        title = "climb results";
    if (n_paths == 0 && !this_run)
        paths[n_paths++] = "results";
    if (mdpath && strcmp(mdpath, html) == 0) {
        free(paths);
        return usage_error(REPORT_USAGE, "report: --html and --md name the same file '%s'", html);
    }
    /* the outputs are checked before any report is read */
    FILE *f = strcmp(html, "-") == 0 ? stdout : fopen(html, "w");
    if (!f) {
        fprintf(stderr, "climb: report: cannot write %s: %s\n", html, strerror(errno));
        free(paths);
        return EXIT_FAILED;
    }
    FILE *md = mdpath ? (strcmp(mdpath, "-") == 0 ? stdout : fopen(mdpath, "w")) : fopen("/dev/null", "w");
    if (!md) {
        fprintf(stderr, "climb: report: cannot write %s: %s\n", mdpath ? mdpath : "/dev/null", strerror(errno));
        if (f != stdout)
            fclose(f);
        free(paths);
        return EXIT_FAILED;
    }
    rp_set s;
    memset(&s, 0, sizeof s);
    int rc = 0;
    for (int i = 0; i < n_paths && rc == 0; i++)
        rc = collect(&s, paths[i], 1, 0);
    if (rc == 0 && this_run) {
        const int at = s.n;
        rc = collect(&s, this_run, 1, 0);
        for (int i = at; i < s.n && rc == 0; i++) {
            const char *g = s.files[i].f.gpu ? s.files[i].f.gpu : "unknown GPU";
            const size_t len = strlen(g) + 16;
            if (!(s.files[i].label = malloc(len)))
                rc = -1;
            else
                snprintf(s.files[i].label, len, "%s (this run)", g);
        }
    }
    rp_view v;
    memset(&v, 0, sizeof v);
    if (rc == 0 && s.n == 0) {
        fprintf(stderr, "climb: report: no climb bench report found in %s%s\n", n_paths ? paths[0] : this_run,
                n_paths > 1 ? " and the rest" : "");
        rc = EXIT_USAGE;
    } else if (rc == 0 && build_view(&s, &v) != 0) {
        fprintf(stderr, "climb: report: out of host memory\n");
        rc = EXIT_FAILED;
    } else if (rc == 0 && write_page(f, md, &s, &v, title, paths, n_paths) != 0) {
        fprintf(stderr, "climb: report: writing %s failed\n", html);
        rc = EXIT_FAILED;
    } else if (rc != 0) {
        rc = EXIT_FAILED;
    }
    if (f != stdout && fclose(f) != 0 && rc == 0) {
        fprintf(stderr, "climb: report: writing %s failed: %s\n", html, strerror(errno));
        rc = EXIT_FAILED;
    }
    if (md != stdout && fclose(md) != 0 && rc == 0) {
        fprintf(stderr, "climb: report: writing %s failed: %s\n", mdpath, strerror(errno));
        rc = EXIT_FAILED;
    }
    if (rc != 0) { /* no half-written page left behind */
        if (strcmp(html, "-") != 0)
            remove(html);
        if (mdpath && strcmp(mdpath, "-") != 0)
            remove(mdpath);
    }
    if (rc == 0 && strcmp(html, "-") != 0)
        fprintf(stderr, "climb report: %d report%s, %d GPU%s, %d workload%s: %s%s%s\n", s.n, s.n == 1 ? "" : "s",
                v.n_gpus, v.n_gpus == 1 ? "" : "s", v.n_workloads, v.n_workloads == 1 ? "" : "s", html,
                mdpath ? " and " : "", mdpath ? mdpath : "");
    free_view(&v);
    for (int i = 0; i < s.n; i++) {
        free(s.files[i].path);
        free(s.files[i].label);
        climb_report_file_free(&s.files[i].f);
    }
    free(s.files);
    free(paths);
    return rc;
}
