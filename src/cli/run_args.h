/* climb bench, check and tune: their arguments (run_args.c), read by one function from one table of flags. */
#ifndef CLIMB_CLI_RUN_ARGS_H
#define CLIMB_CLI_RUN_ARGS_H

#include <stdint.h>

#include "../core/harness.h"

enum { MODE_CHECK = 0, MODE_BENCH = 1, MODE_TUNE = 2 };

typedef struct {
    const climb_workload **targets;       /* any number */
    int n_targets;
    climb_opt_plan *plans;                /* one per target: its options, files loaded */
    climb_run_opts run;                   /* per-target fields (options, tuning) are set per target */
    const char **rungs;
    climb_shape *shapes;
    const char **sets, **inputs;          /* --set and --input, in order */
    int n_sets, n_inputs;
    int device;
    int device_given;     /* --device given */
    int gpus;             /* --gpus N, 0: not given */
    climb_device_set devset; /* --devices LIST; then (open_device_set) the GPUs a spanning workload's cases take */
    climb_device_info *devs; /* their facts, devset.n of them */
    int seed_given;
    int measure;
    const char *json, *csv, *md;
    const char *out;      /* bench: --out DIR */
    int out_auto;         /* bench: the main command's folder, climb-bench/<gpu>-<time>, named once the GPU is known */
    const char *wisdom;   /* --wisdom FILE, else NULL for the default file */
    int no_wisdom;        /* bench/check: --no-wisdom; tune: --no-save */
    const char *sweep;    /* bench: --sweep NAME */
    int dry_run;          /* bench: --dry-run */
    int profile;          /* bench: --profile (one warm-up, one run) */
    int full;             /* bench: --full (no quick run for 'all') */
    int sampling_set;     /* --batch, --min-samples, --max-time or --max-noise given */
    int max_time_set;     /* --max-time given */
    climb_tuned_class *tuned; /* the current target's tuned values per tuning class (target_run) */
    unsigned *set_opts;   /* per target: bit k when --set named option k */
    char **split_argv;    /* the arguments with --name=value split in two (GNU style), NULL-terminated */
    int n_hidden;         /* targets past n_targets run elsewhere (env_child.c); their plans freed with the rest */
    char **owned;         /* the split names, freed with the arguments */
    int n_owned;
} run_args;

/* Reads bench's, check's or tune's arguments (mode) into *a, checking every one before any GPU work (sizes against
 * each workload's dims, types, options, input files, report paths). 0, or the exit status to return (usage
 * printed). Free *a with free_run_args either way. */
int parse_run_args(int argc, char **argv, int mode, run_args *a);
void free_run_args(run_args *a);
/* The arguments of a climb bench of workload w alone that otherwise runs as a's (its flags as given; the one
 * workload named; every --set of option `opt` of w left out, and every --set of another workload's; no report,
 * folder, output file or sweep, its arguments being there already), then extra[0..n_extra): a NULL-terminated
 * list whose [0] is argv0 and [1] "bench", in *out (free the list, not its strings). 0, or -1 out of memory. */
int run_args_child_argv(const run_args *a, const char *argv0, const climb_workload *w, const char *opt,
                        const char *const *extra, int n_extra, char ***out);
/* The command's usage text, generated from the flag table. */
const char *run_usage(int mode);

#endif
