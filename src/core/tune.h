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

/* The defaults stay unless a candidate's score beats theirs by more than this factor: differences of a few
 * tenths of a percent are within the timing noise, and wisdom should not flip between runs on them. */
#define CLIMB_TUNE_TIE 1.01

typedef struct climb_tune_cand {
    int values[CLIMB_MAX_TUNABLES];
    const char *skipped;                       /* why this set is not a candidate here; NULL if it ran */
    char skip_buf[200];                        /* holds a generated reason */
    climb_row_status status;                   /* worst over the cases */
    char note[520];                            /* the first failure */
    climb_timing *t;                           /* one per case */
    double score;                              /* geometric mean over cases of median / fastest median; NAN if not ok */
} climb_tune_cand;

typedef struct climb_tune_result {
    const climb_workload *w;
    int rung;                                  /* the best rung, which the parameters shape */
    int n_cases;
    climb_case_key *cases;
    climb_opt_value **case_opts;               /* each case's option values (owned copies) */
    climb_counts *counts;                      /* each case's counts */
    climb_tune_cand *cands;
    int n_cands;
    int fastest;                               /* the lowest score, -1 if none ran right */
    int *defaults_per_case;                    /* the candidate equal to each case's built-in defaults, -1 if none */
    int defaults;                              /* that candidate when it is the same for every case, else -1 */
    double defaults_score;                     /* the score of running each case with its defaults; NAN if not */
    const char *defaults_source;               /* where the defaults of the first case come from */
    int winner;                                /* what is saved: the fastest, or the defaults' candidate when they are
                                                  within CLIMB_TUNE_TIE of it; -1 when nothing is */
    int winner_is_defaults;                    /* 1: the built-in defaults won (winner is -1 if they vary by case) */
    char wisdom_path[4096];                    /* where the winner was saved ("" if not) */
    char cls[128];                             /* the tuning class tuned (o->only_class), "" for every case */
} climb_tune_result;

/* Tunes w on the current device: cases are the selected types x (o->shapes or w's bench shapes) x option
 * combinations, with fresh inputs from o->seed. Returns the number of candidate runs that were wrong or
 * failed (0 is a clean tune), or -1 when the run could not go on. res is filled either way; free it with
 * climb_tune_free. */
int climb_tune(const climb_workload *w, const climb_run_opts *o, climb_timer *t, const climb_device_info *dev,
               climb_tune_result *res);
void climb_tune_free(climb_tune_result *res);

/* The winner's (or the fastest's) speed-up over the defaults as a score ratio; NAN when either did not run. */
double climb_tune_speedup(const climb_tune_result *res);
double climb_tune_fastest_speedup(const climb_tune_result *res);

/* Where the fastest candidate stands at an end of a parameter's list of three values or more (the list offered
 * no value beyond it, which might be faster still): "kernel_below=16777216, the largest offered" for each such
 * parameter, "; " between, in buf. Returns how many; 0 (buf "") when none or nothing ran. */
int climb_tune_edges(const climb_tune_result *res, char *buf, size_t len);

/* Report writers: `rep` gives the device, commit, date and seed. */
void climb_tune_json(const climb_report *rep, const climb_tune_result *const *res, int n, FILE *f);
void climb_tune_md(const climb_report *rep, const climb_tune_result *const *res, int n, FILE *f);

#ifdef __cplusplus
}
#endif

#endif
