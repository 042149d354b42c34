/* Experiment mode (`climb tune`): every candidate set of a workload's tunable parameters, run on this GPU,
 * verified and timed on each case; the fastest overall is the winner. */
#ifndef CLIMB_CORE_TUNE_H
#define CLIMB_CORE_TUNE_H

#include <stdio.h>

#include "harness.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CLIMB_TUNE_MAX_CASES 8

typedef struct climb_tune_cand {
    int values[CLIMB_MAX_TUNABLES];
    const char *skipped;                       /* why this set is not a candidate here; NULL if it ran */
    climb_row_status status;                   /* worst over the cases */
    char note[400];                            /* the first failure */
    climb_timing t[CLIMB_TUNE_MAX_CASES];
    double score;                              /* geometric mean over cases of median / fastest median; NAN if not ok */
} climb_tune_cand;

typedef struct climb_tune_result {
    const climb_workload *w;
    int n_cases;
    climb_dtype types[CLIMB_TUNE_MAX_CASES];
    size_t sizes[CLIMB_TUNE_MAX_CASES];
    double bytes[CLIMB_TUNE_MAX_CASES];
    climb_tune_cand *cands;
    int n_cands;
    int winner;                                /* index into cands, -1 if none ran right */
    int defaults;                              /* the candidate equal to the built-in defaults, -1 if skipped */
    const char *defaults_source;
    char wisdom_path[4096];                    /* where the winner was saved ("" if not) */
} climb_tune_result;

/* Tunes w on the current device: cases are the selected types x (o->sizes or w's bench sizes), with fresh
 * inputs from o->seed. Returns the number of candidate runs that were wrong or failed (0 is a clean tune),
 * or -1 when the run could not go on. res is filled either way; free it with climb_tune_free. */
int climb_tune(const climb_workload *w, const climb_run_opts *o, climb_timer *t, const climb_device_info *dev,
               climb_tune_result *res);
void climb_tune_free(climb_tune_result *res);

/* Winner's speed-up over the defaults (score ratio), NAN when either did not run. */
double climb_tune_speedup(const climb_tune_result *res);

/* Report writers: `rep` gives the device, commit, date and seed. */
void climb_tune_json(const climb_report *rep, const climb_tune_result *const *res, int n, FILE *f);
void climb_tune_md(const climb_report *rep, const climb_tune_result *const *res, int n, FILE *f);

#ifdef __cplusplus
}
#endif

#endif
