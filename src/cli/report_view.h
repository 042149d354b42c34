/* climb report's view of the reports read (report_cmd.c), shared with its charts (report_charts.c): the files, what
 * is drawn per GPU and workload, and a workload's cases. */
#ifndef CLIMB_CLI_REPORT_VIEW_H
#define CLIMB_CLI_REPORT_VIEW_H

#include <stdio.h>

#include "report_read.h"

/* ---- the reports read ---- */

typedef struct {
    char *path;
    climb_report_file f;
    char *label;                /* the GPU column's name where it is not the device's ("... (this run)"), or NULL */
} rp_file;

typedef struct {
    rp_file *files;
    int n, cap;
    int skipped_other, skipped_bad;
} rp_set;

/* ---- what is drawn: per GPU and workload, one report ---- */

typedef struct {
    const char *gpu;
    const char *workload;
    const rp_file *file;        /* the report drawn */
    const climb_json *reg;      /* its registry entry for the workload, or NULL */
} rp_pick;

typedef struct {
    const char **gpus;          /* distinct device names, in the order first met */
    int n_gpus;
    const char **workloads;     /* distinct workload names, sorted */
    int n_workloads;
    rp_pick *picks;             /* n_gpus x n_workloads; file NULL where none */
} rp_view;

/* ---- a case: the rows of one workload, type, shape and option values in one report ---- */

typedef struct {
    char key[700];
    const climb_json **rows;
    int n;
} rp_case;

typedef struct {
    rp_case *cases;
    int n;
    const climb_json **pool;
} rp_cases;

/* The cases of a pick's report (0, or -1 out of memory); freed by rp_free_cases. */
int rp_cases_of(const rp_pick *p, rp_cases *out);
void rp_free_cases(rp_cases *c);
int rp_row_ok(const climb_json *row);
/* bytes_read + bytes_written of a row. */
double rp_row_bytes(const climb_json *row);
const char *rp_kind_of(const climb_json *row);
/* "f32 4096x4096 dist=uniform" */
void rp_shape_text(const climb_json *row, char *out, size_t len);

/* The GPU a report is drawn under: its label ("... (this run)") or its device's name. */
const char *rp_gpu_of(const rp_file *f);
/* 1 when a is the better report of workload to draw than b: a plain bench over a sweep, cold over batch, the fuller,
 * then the newer. */
int rp_better(const rp_file *a, const rp_file *b, const char *workload);

/* The scaling section (report_scaling.c): each GPU and workload measured on one GPU and on more, a chart of strong
 * and of weak scaling and their table. The number of workloads shown, or -1 out of memory. */
int rp_scaling_section(FILE *f, FILE *md, const rp_set *s, const rp_view *v);
/* 1 when a row's options hold every --set NAME=VALUE of a workload's weak-scaling arguments. */
int rp_weak_case(const char *weak, const climb_json *row);

/* One GPU's roofline (report_charts.c): the number of workloads drawn, each listed in legend. */
int rp_roofline_svg(FILE *f, const rp_view *v, int g, FILE *legend);
/* The ladder chart of one case: each rung's median time, the vendor and bound rungs as lines. */
void rp_ladder_svg(FILE *f, const rp_pick *p, const rp_case *cs);

#endif
