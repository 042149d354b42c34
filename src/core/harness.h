/* The drivers behind `climb bench`, `climb check` and `climb tune`: the cases a run covers (every type x shape
 * x option combination), each case opened once (fresh random inputs or a user's file, then its reference),
 * then every selected rung poisoned, reset where it changes its operands, run, verified and (bench) timed. */
#ifndef CLIMB_CORE_HARNESS_H
#define CLIMB_CORE_HARNESS_H

#include <stdint.h>

#include "report.h"
#include "../device/timing.h"
#include "workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* `climb check` runs misaligned offsets only up to this many elements (larger inputs repeat the same code). */
#define CLIMB_CHECK_OFFSET_MAX_ELEMS ((size_t)1 << 21)

/* Tuned values for the cases of one tuning class ("" for a workload whose options do not key its tuning). */
typedef struct climb_tuned_class {
    char cls[128];
    int values[CLIMB_MAX_TUNABLES];
} climb_tuned_class;

/* A run's progress over several workloads: rung runs planned and done, and when it began. */
typedef struct climb_progress {
    long total, done;
    double t0;
    int tty;                              /* stderr is a terminal: a bar redrawn in place, with the time left */
    int shown;                            /* the bar is on the terminal's last line */
} climb_progress;

/* The next step of m begins: on a terminal, the bar ("[#####.....]  45%  12/27  0:32 elapsed, about 1:05 left
 * what") redrawn in place; elsewhere a plain line "[12/27] what". Then m->done counts it. */
void climb_progress_step(climb_progress *m, const char *what);
/* Ends the bar's line, so that the next message starts a line of its own (no-op when none is shown). */
void climb_progress_break(climb_progress *m);

typedef struct climb_run_opts {
    const char *const *rungs;             /* rung names to run; none: all */
    int n_rungs;
    const climb_shape *shapes;            /* none: the workload's own list */
    int n_shapes;
    unsigned types;                       /* CLIMB_TYPE_BIT mask; 0: every type the workload has, or its
                                             bench_types where bench_types below is set */
    int bench_types;                      /* 1 (bench, tune): no types given means the workload's bench_types */
    uint64_t seed;
    climb_timing_opts timing;
    int progress;                         /* progress lines on stderr */
    struct climb_progress *meter;         /* NULL, or rungs done of all planned, for the time left (bench) */
    char size_class;                      /* bench: 'S', 'M' or 'L' (climb_size_class_shapes) instead of the bench
                                             list; 0: none */
    int quick;                            /* check: the workload's quick shapes instead of its check sweep; bench: its
                                             main size class instead of its bench list (climb_default_shapes) */
    climb_ref_mode reference;             /* AUTO: the CPU unless the case is costly (see climb_workload) */
    const climb_opt_plan *options;        /* the workload's option values, files loaded; NULL: its defaults */
    const int *tuning;                    /* the best rung's values for every case; NULL: by tuning class, below */
    const climb_tuned_class *tuned;       /* the wisdom's values per tuning class (climb_tuning_class); a case whose
                                             class is not listed runs its own defaults */
    int n_tuned;
    const char *only_class;               /* tune: only the cases of this tuning class; NULL: every case */
    const climb_device_info *class_dev;   /* with only_class: the device the classes are for (a shape_class may
                                             depend on it); NULL: classes from the options alone (climb_tune
                                             takes its own device) */
    const climb_device_set *devices;      /* the GPUs a case of a workload that spans several takes (--gpus,
                                             --devices); NULL or none: such a case is refused. A one-GPU workload
                                             runs on the run's device whatever this says */
    const climb_device_info *devs;        /* each one's facts, devices->n of them */
    const struct climb_procs *procs;      /* NULL: one process; else one process a GPU (devices: every process's,
                                             in rank order), every process running the same cases and rungs, their
                                             verdicts, budgets and samples combined (timing.procs the same) */
    const char *output;                   /* bench: where the one case's output goes (w->save), written from the
                                             best rung's last run, or the last selected rung's when the best is not
                                             selected; NULL: none. A run of more than one case is refused */
} climb_run_opts;

/* One case: a type, a shape and one combination of the option values. */
typedef struct climb_case_key {
    climb_dtype type;
    climb_shape shape;
    long combo;                           /* index into the option plan's combinations */
} climb_case_key;

/* Marks in sel[0..w->n_rungs) the rungs the options select. Returns how many are selected. */
int climb_select_rungs(const climb_workload *w, const climb_run_opts *o, int *sel);
/* The types to run for w: o->types restricted to what w supports; none given, w's bench_types where o->bench_types
 * and w has them, else every type of w. */
unsigned climb_select_types(const climb_workload *w, const climb_run_opts *o);
/* A per-case seed derived from the run's seed, so every case has its own inputs and all reproduce. The harness
 * passes the key with its seed combination (climb_opt_plan_seed_combo), so that cases differing only in options
 * marked same_seed share one. */
uint64_t climb_case_seed(uint64_t seed, const climb_case_key *k, unsigned offset);

/* The cases of a run of w: every selected type x shape x combination of plan (the last varies fastest within a
 * shape). The shapes: a combination's file fixes its own; else o->shapes; else defaults. *out is malloc'd (free
 * it). Returns how many, or -1 after printing why. */
int climb_cases(const climb_workload *w, const climb_run_opts *o, const climb_opt_plan *plan,
                const climb_shape *defaults, int n_defaults, climb_case_key **out);

/* What a run of w needs before its first case: the rungs selected, the option plan (the caller's or the
 * workload's defaults), the cases over `defaults` shapes (unless o->shapes or a file says otherwise), and room
 * for one combination's values. */
typedef struct climb_run_setup {
    int *sel;                             /* w->n_rungs flags */
    int n_selected;
    const climb_opt_plan *plan;
    climb_opt_plan own;                   /* the defaults' plan, when the caller gave none */
    climb_case_key *keys;
    int n_cases;
    climb_opt_value *vals;                /* w->n_options values */
} climb_run_setup;

/* 0, or -1 after printing why (out of memory). */
int climb_run_setup_open(const climb_workload *w, const climb_run_opts *o, const climb_shape *defaults,
                         int n_defaults, climb_run_setup *s);
void climb_run_setup_close(const climb_workload *w, climb_run_setup *s);

/* After a run that returned v: 1 (said on stderr) if it was an error that left the CUDA context unusable, so the
 * run must stop rather than report nonsense. */
int climb_context_lost(int v);

/* An opened case: inputs made, tuned values set, reference computed (once, for every rung). */
typedef struct climb_open_case {
    climb_case *c;
    climb_opt_value *opts;                /* the combination's values (w->n_options), owned */
    char input[400];                      /* what the inputs are: the file's description and/or describe() */
    char reference[200];                  /* which reference results are checked against */
    int ref_failed;                       /* 1: the vendor's output failed the spot checks (reference says how) */
} climb_open_case;

/* Creates case k (offset elements misaligned) of w, sets the best rung's tuned values (o->tuning, else the
 * defaults for the case) and computes its reference in o->reference's mode on stream s. 0, or -1 (printed). */
int climb_case_open(const climb_workload *w, const climb_run_opts *o, const climb_opt_plan *plan,
                    const climb_case_key *k, unsigned offset, const climb_device_info *dev, cudaStream_t s,
                    climb_open_case *oc);
void climb_case_close(const climb_workload *w, climb_open_case *oc);

/* A case's hooks, whichever way the workload makes its cases (kit.c): create (the kit's, or w->create), destroy,
 * poison (w->poison, or the declared outputs' bytes), run (w->run, or the rung's own launch, its error checked),
 * verify (the kit's outputs downloaded first), the reference (the outputs downloaded first for VENDOR), and the
 * refusal (the rung's own, then w->refuses), and prepare, release and reset (0 or nothing where the workload has
 * none). Tests reach a case through these too, never through the hooks themselves. */
int climb_case_create(const climb_workload *w, const climb_case_params *p, climb_case **out);
void climb_case_destroy(const climb_workload *w, climb_case *c);
int climb_case_poison(const climb_workload *w, climb_case *c);
int climb_case_run(const climb_workload *w, climb_case *c, int rung, cudaStream_t s);
/* reps runs back to back (w->run_batch, else reps calls of climb_case_run). */
int climb_case_run_batch(const climb_workload *w, climb_case *c, int rung, cudaStream_t s, int reps);
int climb_case_verify(const climb_workload *w, climb_case *c, int rung, char *msg, size_t len);
int climb_case_reference(const climb_workload *w, climb_case *c, climb_ref_mode mode, char *desc, size_t len);
const char *climb_case_refuses(const climb_workload *w, const climb_case *c, int rung);
int climb_case_prepare(const climb_workload *w, climb_case *c, int rung);
void climb_case_release(const climb_workload *w, climb_case *c, int rung);
int climb_case_reset(const climb_workload *w, climb_case *c, cudaStream_t s);
/* w->save, the kit's outputs downloaded first. */
int climb_case_save(const climb_workload *w, climb_case *c, int rung, const char *path, char *err, size_t len);

/* Whether this process can run a case whose option o (one that stands for an environment variable, o->env) has
 * value v: 1 when v is 0 or the variable holds v here (as a whole number), else 0. */
int climb_env_value_here(const climb_option *o, long long v);
/* NULL when every option of w that stands for an environment variable can run here with its value in opts
 * (climb_env_value_here); else why not, in buf ("connections=8 needs CUDA_DEVICE_MAX_CONNECTIONS=8 from the
 * process's start (here it is unset)"). */
const char *climb_case_env_refuses(const climb_workload *w, const climb_opt_value *opts, char *buf, size_t len);

/* NULL when a case of key k with option values opts can run in this process (climb_case_env_refuses), passes
 * w->case_refuses and fits the host memory by w->case_bytes (or w has neither);
 * else why not, in buf ("n=2^62: ... need 36.9 EB of host memory; this machine has 25.3 GB (at most half is used)").
 * Used before creating a case and by --dry-run. */
const char *climb_case_too_large(const climb_workload *w, const climb_case_key *k, const climb_opt_value *opts,
                                 char *buf, size_t len);

/* Prepares `rung` on case c, runs it once from poisoned outputs (operands reset where it changes them) and
 * verifies, then times it and verifies what the last timed run left, then releases what prepare built
 * (w->release). 0 right (out filled), 1 wrong, -1 error, 2 right but its first run took longer than o->budget_s
 * (not timed); msg says what went wrong. A rung that changes its
 * operands is timed with an untimed reset before each run; a rung with a host part by the host's clock. */
int climb_measure_rung(const climb_workload *w, climb_case *c, int rung, climb_timer *t, const climb_timing_opts *o,
                       climb_timing *out, char *msg, size_t len);


/* The shapes a bench of w runs when no --size is given: its size class (o->size_class), else its quick run's
 * main sizes (o->quick), else its bench list. */
const climb_shape *climb_bench_shapes(const climb_workload *w, const climb_run_opts *o, int *n);

/* Verifies then times each selected rung, adding one row per rung and case to rep. Returns the number of
 * rows that are wrong or errors, or -1 when the run could not go on. */
int climb_bench(const climb_workload *w, const climb_run_opts *o, climb_timer *t, climb_report *rep);

/* Correctness only over the check sweep (or o->sizes, or the quick shapes), misaligned offsets included, each
 * rung run twice per case. Prints every failure and a summary line; returns the number of failures, or -1.
 * res (may be NULL) gets the counts and every failure's line; free it with climb_check_result_free. */
int climb_check(const climb_workload *w, const climb_run_opts *o, const climb_device_info *dev,
                climb_check_result *res);

/* The extra ceilings (CLIMB_MEASURE_* bits) runs of these workloads need measured. */
unsigned climb_extra_ceilings(const climb_workload *const *ws, int n);

#ifdef __cplusplus
}
#endif

#endif
