/* Results of a run and the writers that print them: an aligned table for the terminal, JSON, CSV and
 * markdown. Every format carries the same rows and the same run facts. */
#ifndef CLIMB_CORE_REPORT_H
#define CLIMB_CORE_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "device.h"
#include "timing.h"
#include "workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum climb_row_status {
    CLIMB_ROW_OK = 0,       /* verified and timed */
    CLIMB_ROW_WRONG = 1,    /* ran, result did not match the reference */
    CLIMB_ROW_REFUSED = 2,  /* the rung does not take this size; note says why */
    CLIMB_ROW_ERROR = 3     /* a CUDA error or allocation failure; note says which */
} climb_row_status;

typedef struct climb_row {
    const climb_workload *w;
    int ordinal;              /* index in w's registry table; 0 is the vendor */
    climb_dtype type;
    size_t size;
    climb_row_status status;
    char note[320];
    climb_timing t;
    double bytes, flops;      /* counted per run, from the workload's formulas */
    /* Derived by climb_report_derive; NAN where it does not apply. */
    double gbs, gflops;
    double pct_ceiling;       /* of the measured ceiling the workload names */
    double pct_peak;          /* of the theoretical peak (memory bandwidth or FFMA rate) */
    double step;              /* previous rung's median over this one's */
    double cumulative;        /* rung 1's median over this one's */
    double vs_vendor;         /* vendor's median over this one's: > 1 is faster than the vendor */
} climb_row;

typedef struct climb_report {
    char command[32];         /* "bench" or "check" */
    char version[16];
    char git_commit[48];
    int git_dirty;            /* -1: unknown */
    char date[32];            /* UTC, ISO 8601 */
    uint64_t seed;
    int batch;
    climb_device_info dev;
    char notes[8][480];       /* run-wide notes, e.g. where each workload's tuned parameters came from */
    int n_notes;
    climb_row *rows;
    int n_rows, cap_rows;
} climb_report;

/* Fills version, commit, date; zero rows. */
void climb_report_init(climb_report *r, const char *command, uint64_t seed, int batch, const climb_device_info *dev);
void climb_report_free(climb_report *r);
/* Appends a zeroed row and returns it (NULL when out of memory). */
climb_row *climb_report_add(climb_report *r);
/* Rates, ceiling percentages, step and cumulative speedups and the vendor ratio for every row. */
void climb_report_derive(climb_report *r);

/* Adds a run-wide note (at most 8; later ones are dropped). */
void climb_report_note(climb_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The part every JSON report starts with: '{', tool, command, version, commit, date, seed, timing, notes and
 * the device object, followed by ",\n" (the caller writes its own members and the closing brace). */
void climb_report_json_head(const climb_report *r, FILE *f);
/* The lines every markdown or terminal report starts with: GPU, versions, ceilings, notes. */
void climb_report_head_lines(const climb_report *r, FILE *f, const char *prefix);

void climb_report_table(const climb_report *r, FILE *f);
void climb_report_json(const climb_report *r, FILE *f);
void climb_report_csv(const climb_report *r, FILE *f);
void climb_report_md(const climb_report *r, FILE *f);
/* Writes with `writer` to `path` ("-" is stdout). 0, or -1 after printing why. */
int climb_report_write(const climb_report *r, void (*writer)(const climb_report *, FILE *), const char *path);

const char *climb_row_status_name(climb_row_status s);

#ifdef __cplusplus
}
#endif

#endif
