/* Results of a run and the writers that print them: an aligned table for the terminal, JSON, CSV and
 * markdown. Every format carries the same rows and the same run facts; the JSON also carries each workload's
 * registry entry (dims, options, rungs and their kinds, the book's published figures), so that scripts such as
 * results_tables.py need nothing but the report. */
#ifndef CLIMB_CORE_REPORT_H
#define CLIMB_CORE_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "../device/device.h"
#include "../device/timing.h"
#include "workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The "format" member of every JSON report: 2 since contract v2 (shapes, options, counts, roofline). */
#define CLIMB_REPORT_FORMAT 3

typedef enum climb_row_status {
    CLIMB_ROW_OK = 0,       /* verified and timed */
    CLIMB_ROW_WRONG = 1,    /* ran, result did not match the reference */
    CLIMB_ROW_REFUSED = 2,  /* the rung does not take this case (or this timing mode); note says why */
    CLIMB_ROW_ERROR = 3     /* a CUDA error or allocation failure; note says which */
} climb_row_status;

typedef struct climb_row {
    const climb_workload *w;
    int rung;                 /* index in w's registry table */
    climb_dtype type;
    climb_shape shape;
    climb_opt_value *opts;    /* the case's option values (w->n_options; NULL if none), owned by the report */
    char *input;              /* what the case's inputs are ("" if nothing to say), owned by the report */
    char reference[200];      /* which reference the results were checked against */
    climb_row_status status;
    char note[320];
    climb_timing t;
    climb_counts counts;      /* the workload's counts for this case, or the rung's own (own_counts) */
    int own_counts;           /* 1: the rung declared its own counts (w->rung_counts) */
    int wall;                 /* 1: a rung with a host part, timed by the host's clock */
    int has_setup;            /* 1: setup holds what the rung's prepare built (w->setup said so) */
    climb_setup setup;
    /* Derived by climb_report_derive; NAN where it does not apply. */
    double gbs;               /* (bytes read + written) / median time, 10^9 B/s */
    double gflops;
    double items_rate;        /* 10^9 items per second (w->items_rate names it) */
    double special_rate;      /* 10^9 special-function ops per second */
    double roofline_us;       /* the least time the counts allow on the measured ceilings */
    const char *bound;        /* the term that sets it: "memory", "ffma", "dfma" or "sfu"; "" if none */
    double pct_roofline;      /* 100 x roofline time / median time: 100 is at the roof */
    double step;              /* ladder rungs: the rung before's median over this one's, when it is a ladder rung */
    double cumulative;        /* ladder rungs: the first ladder rung's median over this one's */
    double vs_vendor;         /* the fastest vendor rung's median (of the case's verified vendor rows) over this
                                 one's: > 1 is faster than the vendor at its best */
    double vs_bound;          /* the first bound rung's median over this one's: 1 moves the bytes as fast as it */
} climb_row;

typedef struct climb_report {
    char command[32];         /* "bench", "check", "tune" */
    char version[16];
    char git_commit[48];
    int git_dirty;            /* -1: unknown */
    char date[32];            /* UTC, ISO 8601 */
    uint64_t seed;
    int batch;
    char sweep[64];           /* bench --sweep NAME; "" for none */
    int processes;            /* one process a GPU: how many processes ran (rank 0 writes); 0: one process */
    climb_device_info dev;
    /* The GPUs of a run whose cases span several (climb_report_set_devices; n_set 0: none): each one's facts and
     * every pair's (p2p[i * n_set + j], i != j) */
    int n_set;
    climb_device_info *set;
    climb_p2p *p2p;
    char **notes;             /* run-wide notes, e.g. where each workload's tuned parameters came from */
    int n_notes, cap_notes;
    climb_row *rows;
    int n_rows, cap_rows;
} climb_report;

/* Fills version, commit, date; zero rows. */
void climb_report_init(climb_report *r, const char *command, uint64_t seed, int batch, const climb_device_info *dev);
void climb_report_free(climb_report *r);
/* Appends a row for rung `rung` of w on the case (type, shape, option values opts, input description) and
 * returns it, the rest zeroed; NULL when out of memory. */
climb_row *climb_report_add(climb_report *r, const climb_workload *w, int rung, climb_dtype type,
                            const climb_shape *shape, const climb_opt_value *opts, const char *input);
/* The rows of workload w that another climb process reported (its JSON report's "results" array, as
 * climb_report_json writes them), appended to r as they were measured: rung (by name), type, shape, option values,
 * input, reference, status and note, the timing, the counts and the setup; what climb_report_derive computes is
 * computed again here. *failures grows by the rows that were WRONG or ERROR. The number of rows added, or -1 with
 * err ("results[3]: no rung 'x' in streams"); rows added before an error stay. */
struct climb_json;
int climb_report_add_json_rows(climb_report *r, const climb_workload *w, const struct climb_json *results,
                               int *failures, char *err, size_t errlen);
/* Rates, the roofline, step and cumulative speed-ups and the vendor ratio for every row. */
void climb_report_derive(climb_report *r);
/* The roofline of counts for a case of type t on dev's measured ceilings: microseconds and the binding term
 * (NAN and "" when the ceilings were not measured). */
double climb_roofline_us(const climb_device_info *dev, double link_gbs, const climb_counts *c, climb_dtype t,
                         const char **bound);
/* The link ceiling of a run's GPUs: the slowest ordered pair's measured one-way copy (GB/s); NAN without a set of
 * GPUs or where a pair was not measured. */
double climb_report_link_gbs(const climb_report *r);

/* Records the GPUs a run's spanning cases took: copies of their facts and of the n x n pair facts (row i, column j:
 * from GPU i to GPU j; the diagonal unused). 0, or -1 when out of memory (printed). */
int climb_report_set_devices(climb_report *r, const climb_device_info *devs, const climb_p2p *p2p, int n);
/* Adds a run-wide note. 0, or -1 when out of memory (printed). */
int climb_report_note(climb_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The part every JSON report starts with: '{', tool, format, command, version, commit, date, seed, timing, notes
 * and the device object, followed by ",\n" (the caller writes its own members and the closing brace). */
void climb_report_json_head(const climb_report *r, FILE *f);
/* "  \"workloads\": [...]" with each workload's registry entry, followed by ",\n". */
void climb_report_json_workloads(const climb_workload *const *ws, int n, FILE *f);
/* The lines every markdown or terminal report starts with: GPU, versions, ceilings, notes. */
void climb_report_head_lines(const climb_report *r, FILE *f, const char *prefix);

void climb_report_table(const climb_report *r, FILE *f);
void climb_report_json(const climb_report *r, FILE *f);
void climb_report_csv(const climb_report *r, FILE *f);
void climb_report_md(const climb_report *r, FILE *f);
/* 0 if a report can be written to path ("-" is stdout), checked without changing anything there: an existing file
 * is opened for writing but not truncated, a new one is created and removed again, a directory is refused.
 * -1 with err (strerror's words) otherwise. */
int climb_report_path_ok(const char *path, char *err, size_t errlen);

/* What `climb check` found for one workload, for its JSON report. */
typedef struct climb_check_result {
    const climb_workload *w;
    long cases, runs, refused;
    int failures;
    char **failed;            /* one line per failure, as printed */
    int n_failed, cap_failed;
} climb_check_result;
void climb_check_result_free(climb_check_result *r);
/* The check report: the run's head, the workloads' registry entries, and each workload's counts and failures. */
void climb_check_json(const climb_report *rep, const climb_check_result *res, int n, FILE *f);

/* Writes with `writer` to `path` ("-" is stdout). 0, or -1 after printing why. */
int climb_report_write(const climb_report *r, void (*writer)(const climb_report *, FILE *), const char *path);

const char *climb_row_status_name(climb_row_status s);

/* ---- the main command's ending (summary.c) ---- */

/* One line a workload of the report: its best rung, the geometric mean (and range) over the cases of that rung's
 * ratio to the fastest vendor rung (to the bound rung where there is no vendor), and the median % of the roofline;
 * with a count of the workload's rows that were wrong or failed. */
void climb_report_summary(const climb_report *r, FILE *f);
/* A GPU's name as a folder name: "NVIDIA H100 80GB HBM3" gives "h100-80gb-hbm3" (lower case, "NVIDIA " dropped,
 * every run of other characters one '-'); "gpu" for a name with no letter or digit. */
void climb_gpu_slug(const char *name, char *buf, size_t len);
/* The folder of `results` (results/<gpu>/, one with a devices.json) whose GPU is nearest to dev: the same name,
 * else the nearest compute capability, then theoretical bandwidth and SM count. 0 with the folder in out and why
 * ("NVIDIA H200 (the nearest GPU with committed results)"), or -1 with why (no such folder). */
int climb_results_nearest(const climb_device_info *dev, const char *results, char *out, size_t outlen, char *why,
                          size_t whylen);

#ifdef __cplusplus
}
#endif

#endif
