/* The drivers behind `climb bench` and `climb check`: for each type and size, fresh random inputs and a
 * reference, then every selected rung poisoned, run, verified and (bench) timed. */
#ifndef CLIMB_CORE_HARNESS_H
#define CLIMB_CORE_HARNESS_H

#include <stdint.h>

#include "report.h"
#include "timing.h"
#include "workload.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CLIMB_MAX_SELECT 64
/* `climb check` runs misaligned offsets only up to this size (larger inputs just repeat the same code). */
#define CLIMB_CHECK_OFFSET_MAX_SIZE ((size_t)1 << 21)

typedef struct climb_run_opts {
    const char *rungs[CLIMB_MAX_SELECT];  /* rung names to run; none: all */
    int n_rungs;
    size_t sizes[CLIMB_MAX_SELECT];       /* none: the workload's own list */
    int n_sizes;
    unsigned types;                       /* CLIMB_TYPE_BIT mask; 0: every type the workload has */
    uint64_t seed;
    climb_timing_opts timing;
    int progress;                         /* progress lines on stderr */
    const int *tuning;                    /* the best rung's tuned values for the workload being run; NULL: defaults */
} climb_run_opts;

/* Marks in sel[0..w->n_rungs) the rungs the options select. Returns how many are selected (0 when the
 * names match none of this workload's rungs). */
int climb_select_rungs(const climb_workload *w, const climb_run_opts *o, int *sel);

/* The types to run for w: o->types restricted to what w supports. */
unsigned climb_select_types(const climb_workload *w, const climb_run_opts *o);

/* A per-case seed derived from the run's seed, so every case has its own inputs and all reproduce. */
uint64_t climb_case_seed(uint64_t seed, climb_dtype t, size_t size, unsigned offset);

/* Prepares `rung` on case c, runs it once from poisoned outputs and verifies, then times it and verifies
 * what the last timed run left. 0 right (out filled), 1 wrong, -1 CUDA error; msg says what went wrong. */
int climb_measure_rung(const climb_workload *w, climb_case *c, int rung, climb_timer *t, const climb_timing_opts *o,
                       climb_timing *out, char *msg, size_t len);

/* After a failed run: 1 if the CUDA context can no longer be used (a sticky error such as a fault). */
int climb_context_broken(void);

/* Verifies then times each selected rung, adding one row per rung and case to rep. Returns the number of
 * rows that are wrong or errors, or -1 when the run could not go on. */
int climb_bench(const climb_workload *w, const climb_run_opts *o, climb_timer *t, climb_report *rep);

/* Correctness only over the check sweep (or o->sizes), misaligned offsets included, each rung run twice
 * per case. Prints every failure and a summary line; returns the number of failures, or -1. */
int climb_check(const climb_workload *w, const climb_run_opts *o, const climb_device_info *dev);

#ifdef __cplusplus
}
#endif

#endif
