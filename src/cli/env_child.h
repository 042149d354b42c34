/* climb bench's cases whose option stands for an environment variable the CUDA runtime reads when a process's
 * context is made (climb_option.env: streams' connections, CUDA_DEVICE_MAX_CONNECTIONS). A value this process
 * cannot give runs in a climb process of its own, started with the variable set, and its rows join this process's
 * report. */
#ifndef CLIMB_CLI_ENV_CHILD_H
#define CLIMB_CLI_ENV_CHILD_H

#include "run_args.h"
#include "../core/report.h"

typedef struct env_child {
    const climb_workload *w;
    const climb_option *o;
    long long value;
} env_child;

/* Takes out of a's plans every value of an environment option that this process cannot give, as a child each (in
 * *out, *n of them; free *out); a target left with no value of it moves past n_targets (a->n_hidden), to run in its
 * children alone. 0, or the exit status to return (said): a workload with two such options, or out of memory. */
int env_children_split(run_args *a, env_child **out, int *n);

/* Runs child c: the run's arguments for its workload alone, its option at its value, the variable set in its
 * environment, its report into a temporary file (its table kept off stdout); a dry run lists its cases instead.
 * Then its rows join rep (not for a dry run), *failures growing by its wrong or failed rows. 0, or -1 when it left
 * no report or its report could not be read (said). */
int env_child_run(const run_args *a, const env_child *c, climb_report *rep, int *failures);

#endif
