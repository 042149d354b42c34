/* climb: the command-line face. Every argument is checked before the GPU is touched (options, sizes against
 * each workload's dims, types against its types, its options and its input files); usage errors and bad input
 * files exit 2, failed checks and CUDA errors exit 1. Nothing here knows a workload by name: the commands read
 * the registry. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>

#include "../base/build_info.h"
#include "../device/device.h"
#include "../core/harness.h"
#include "../core/report.h"
#include "../base/rng.h"
#include "../io/text.h"
#include "../core/tune.h"
#include "../core/wisdom.h"
#include "climb.h"
#include "../core/workload.h"

#include "cli.h"
#include "procs_mpi.h"
#include "env_child.h"
#include "run_args.h"

static const char *const MAIN_USAGE =
    "usage: climb <command> [options]\n"
    "\n"
    "climb builds each classic GPU workload as a ladder of kernels, from the textbook version to one at the\n"
    "hardware limit, and verifies and measures every rung on this GPU.\n"
    "\n"
    "commands:\n"
    "  devices               device facts and measured ceilings (copy, read, FFMA, DFMA, SFU, launch latency)\n"
    "  list [workload|all]   workloads; or one workload's shape, types, options, rungs and tunables\n"
    "  bench <workload|all>  verify, then time, every rung; write table, JSON, CSV, markdown\n"
    "  check <workload|all>  correctness only, every rung over an edge-size sweep\n"
    "  tune <workload|all>   experiment mode: time every candidate of the best rung's parameters, save the\n"
    "                        fastest as wisdom that bench and the C API then use\n"
    "  occupancy             the occupancy calculator; physical limits; registry kernels vs the runtime\n"
    "  wisdom show|check     a wisdom file's entries, and whether each is valid (no GPU needed)\n"
    "  compare OLD NEW       two reports row by row: each change and whether it exceeds the noise (no GPU needed)\n"
    "  report [PATH...]      one HTML page (roofline, ladder charts, devices) from folders of reports (no GPU)\n"
    "  plot SPEC.json        an SVG line or bar chart from a JSON description (the results script's plots; no GPU)\n"
    "  version               version, commit and CUDA architectures of this build\n"
    "  help [command]        this text, or a command's\n"
    "  <workload command>    a workload's own command: 'climb bench <workload>' with the same options (below)\n"
    "\n"
    "Run 'climb <command> --help' for a command's options, 'climb bench <workload> --help' for a workload's.\n";

/* One line: the message (fmt with at most one conversion, of arg), and where the command's usage is ("usage: climb
 * bench ..." gives 'climb help bench'). */
int usage_error(const char *usage, const char *fmt, const char *arg)
{
    fprintf(stderr, "climb: ");
    fprintf(stderr, fmt, arg);
    const char *c = strncmp(usage, "usage: climb ", 13) == 0 ? usage + 13 : "";
    const int len = (int)strcspn(c, " \n");
    if (len > 0 && c[0] != '<')
        fprintf(stderr, " (see 'climb help %.*s')\n", len, c);
    else
        fprintf(stderr, " (see 'climb help')\n");
    return EXIT_USAGE;
}

/* A usage error whose message is already formatted (no usage text: the message names the fix). */
int usage_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "climb: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_USAGE;
}

int is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0; }

/* Sizes: a decimal count, or 2^K. */
int parse_size(const char *s, size_t *out)
{
    climb_shape sh;
    char err[200];
    if (climb_shape_parse(s, &sh, err, sizeof err) != 0 || sh.ndims != 1)
        return -1;
    *out = sh.d[0];
    return 0;
}


int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}


/* A case to describe a workload's defaults by: its first bench shape and first type. */
static climb_tuning_key example_case(const climb_workload *w)
{
    climb_tuning_key k = {w->bench_shapes[0], CLIMB_I32, NULL};
    for (int t = 0; t < CLIMB_NTYPES; t++)
        if (w->types & CLIMB_TYPE_BIT(t)) {
            k.type = (climb_dtype)t;
            break;
        }
    return k;
}

/* The tuned values w's best rung runs with for the cases of ex's tuning class: the wisdom file's if it matches this
 * device (*use_values = 1, values set), else the built-in defaults of each case. Says which on stderr (warning for a
 * foreign, stale or corrupt file) and in the report. */
static void resolve_tuning(const climb_workload *w, const run_args *a, const climb_device_info *dev,
                           const climb_tuning_key *ex, int *values, int *use_values, climb_report *rep)
{
    const climb_tuning *tn = w->tuning;
    char msg[700], line[900], cls[128];
    climb_tuning_class(w, ex, dev, cls, sizeof cls);
    climb_wisdom_outcome o = CLIMB_WISDOM_ABSENT;
    if (a->no_wisdom) {
        char desc[200];
        const char *source = climb_tuning_defaults(tn, dev, ex, values);
        climb_tuning_format(tn, values, desc, sizeof desc);
        snprintf(line, sizeof line, "%s (%s); --no-wisdom", source, desc);
    } else {
        o = climb_wisdom_resolve(a->wisdom, w->name, tn, dev, ex, values, msg, sizeof msg, line, sizeof line);
    }
    *use_values = o == CLIMB_WISDOM_USED;
    /* One line, once: where the values come from, and why a file was not used (a warning when the user should
     * know: a named file missing, or a file that is foreign, stale or corrupt). */
    const char *sep = cls[0] ? " " : "";
    const int quiet = a->out || a->out_auto; /* the report's notes keep the line; the progress bar stays one line */
    if (climb_wisdom_warns(o)) {
        climb_progress_break(a->run.meter); /* a line of its own, under the progress bar */
        fprintf(stderr, "climb: warning: %s%s%s: %s\n", w->name, sep, cls, line);
    }
    else if (quiet)
        ;
    else if (o == CLIMB_WISDOM_USED)
        fprintf(stderr, "%s%s%s: tuned parameters from %s\n", w->name, sep, cls, line);
    else
        fprintf(stderr, "%s%s%s: %s\n", w->name, sep, cls, line);
    climb_report_note(rep, "%s %s%s%s: %s", w->name, w->rung(climb_best_rung(w))->name, sep, cls, line);
}

/* The tuning classes (climb_tuning_class on dev) of the cases a run of w with options plan makes over `shapes`
 * (unless run names sizes or a file fixes them), each once, in the cases' order: *out is malloc'd (free it), and
 * first[k] (when first is not NULL; malloc'd too) class k's first case. Returns how many: 1, the class "", for a
 * run without cases (first[0].combo then -1); -1 when out of memory (printed). */
static int plan_classes(const climb_workload *w, const climb_run_opts *run, const climb_opt_plan *plan,
                        const climb_shape *shapes, int n_shapes, const climb_device_info *dev,
                        climb_tuned_class **out, climb_case_key **first)
{
    climb_run_opts o = *run;
    o.options = plan;
    o.only_class = NULL;
    climb_case_key *keys = NULL;
    const int n_keys = climb_cases(w, &o, plan, shapes, n_shapes, &keys);
    if (n_keys < 0)
        return -1;
    climb_tuned_class *c = calloc((size_t)n_keys + 1, sizeof *c);
    climb_case_key *f = calloc((size_t)n_keys + 1, sizeof *f);
    climb_opt_value *vals = calloc((size_t)w->n_options + 1, sizeof *vals);
    if (!c || !f || !vals) {
        climb_host_oom("the tuning classes");
        free(keys);
        free(c);
        free(f);
        free(vals);
        return -1;
    }
    int n = 0;
    for (int i = 0; i < n_keys; i++) {
        climb_opt_plan_combo(plan, keys[i].combo, vals);
        const climb_tuning_key tk = {keys[i].shape, keys[i].type, vals};
        char cls[128];
        climb_tuning_class(w, &tk, dev, cls, sizeof cls);
        int seen = 0;
        for (int k = 0; k < n && !seen; k++)
            seen = strcmp(c[k].cls, cls) == 0;
        if (!seen) {
            f[n] = keys[i];
            snprintf(c[n++].cls, sizeof c->cls, "%s", cls);
        }
    }
    if (n == 0) { /* no case at all: the one class "" */
        f[0].combo = -1;
        n = 1;
    }
    free(keys);
    free(vals);
    *out = c;
    if (first)
        *first = f;
    else
        free(f);
    return n;
}

/* Sets the per-target fields of a->run for target t: its options, and the tuned values of each tuning class of its
 * cases over `shapes` that a wisdom file holds (the others run their cases' defaults). */
static void target_run(run_args *a, int t, const climb_shape *shapes, int n_shapes, const climb_device_info *dev,
                       climb_report *rep)
{
    const climb_workload *w = a->targets[t];
    a->run.options = &a->plans[t];
    a->run.tuning = NULL;
    a->run.n_tuned = 0;
    free(a->tuned);
    a->tuned = NULL;
    if (!w->tuning)
        return;
    climb_case_key *first = NULL;
    int n = plan_classes(w, &a->run, &a->plans[t], shapes, n_shapes, dev, &a->tuned, &first);
    climb_opt_value *vals = calloc((size_t)w->n_options + 1, sizeof *vals);
    for (int k = 0; k < n && vals && first; k++) {
        /* the class's first case describes it; without cases, the workload's first bench shape and type */
        climb_tuning_key ex = example_case(w);
        if (first[k].combo >= 0) {
            climb_opt_plan_combo(&a->plans[t], first[k].combo, vals);
            ex = (climb_tuning_key){first[k].shape, first[k].type, vals};
        }
        int use = 0;
        resolve_tuning(w, a, dev, &ex, a->tuned[k].values, &use, rep);
        if (use)
            a->tuned[a->run.n_tuned++] = a->tuned[k]; /* kept in order: n_tuned <= k */
    }
    free(vals);
    free(first);
    a->run.tuned = a->tuned;
}

/* The most GPUs that one of the targets spanning several takes at the least; 0 where none spans GPUs. */
static int least_gpus(const run_args *a)
{
    int need = 0;
    for (int t = 0; t < a->n_targets; t++)
        if (climb_spans_devices(a->targets[t]) && a->targets[t]->min_devices > need)
            need = a->targets[t]->min_devices;
    return need;
}

/* The GPUs of the targets that span several: --devices as given, else the first --gpus, else the first as many as
 * the most demanding target takes at the least; each one's facts; the run's device the first of them. With 'all',
 * a target that needs more GPUs than there are is left out, said; named alone, it is an error. 0, or -1 after
 * printing why. Nothing to do where no target spans GPUs. */
static int open_device_set(run_args *a)
{
    int need = least_gpus(a);
    if (!need)
        return 0;
    char why[300];
    const int count = climb_device_count(why, sizeof why);
    if (count == 0) {
        fprintf(stderr, "climb: %s\n", why);
        return -1;
    }
    const int asked = a->gpus ? a->gpus : a->devset.n;
    int kept = 0;
    for (int t = 0; t < a->n_targets; t++) {
        const climb_workload *w = a->targets[t];
        if (climb_spans_devices(w) && (w->min_devices > count || (asked && asked < w->min_devices))) {
            fprintf(stderr, "climb: %s spans %d GPUs at the least, and %s %d%s\n", w->name, w->min_devices,
                    asked ? "the run names" : "this machine has", asked ? asked : count,
                    a->n_targets > 1 ? ": left out" : "");
            if (a->n_targets == 1)
                return -1;
            if (a->plans)
                climb_opt_plan_free(&a->plans[t], w->unload);
            continue;
        }
        if (a->plans)
            a->plans[kept] = a->plans[t];
        if (a->set_opts)
            a->set_opts[kept] = a->set_opts[t];
        a->targets[kept++] = w;
    }
    a->n_targets = kept;
    need = least_gpus(a); /* what the targets left need */
    if (!need)
        return 0;
    climb_device_set s;
    const int n = a->gpus ? a->gpus : a->devset.n ? a->devset.n : need;
    char list[400];
    climb_device_set_format(&a->devset, list, sizeof list);
    if (a->devset.n ? climb_device_set_parse(list, count, &s, why, sizeof why)
                    : climb_device_set_first(n, count, &s, why, sizeof why)) {
        fprintf(stderr, "climb: %s %s\n", a->devset.n ? "--devices:" : "--gpus:", why);
        return -1;
    }
    a->devset = s;
    a->devs = calloc((size_t)s.n, sizeof *a->devs);
    if (!a->devs) {
        climb_host_oom("the devices' facts");
        return -1;
    }
    for (int i = 0; i < s.n; i++) {
        if (climb_device_query(s.id[i], &a->devs[i]) != 0)
            return -1;
        climb_device_nvml(&a->devs[i]); /* each GPU's clocks at the start; where there is no NVML the report says so */
    }
    a->device = s.id[0];
    a->run.devices = &a->devset;
    a->run.devs = a->devs;
    return 0;
}

/* One process a GPU (bench under an MPI launcher): this process's, else NULL. */
static const climb_procs *cli_procs;
static int cli_local_rank;

/* The workloads that run as one process a GPU, "allreduce, ..." into buf. */
static void process_workloads(char *buf, size_t len)
{
    int n = 0;
    const climb_workload *const *all = climb_workloads(&n);
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        if (all[i]->processes) {
            const size_t used = strlen(buf);
            snprintf(buf + used, len - used, "%s%s", used ? ", " : "", all[i]->name);
        }
}

/* One process a GPU: every target must run so; this process's GPU is --devices' entry at its rank, else its rank
 * among the node's processes; the set is every process's, in rank order, each one's facts gathered; rank 0's seed
 * for all; reports and progress from rank 0 alone. Every process reaches the same verdict on the arguments. 0, or
 * the exit status (said by rank 0, or by the process that failed). */
static int open_procs(run_args *a, const climb_procs *pr, const char *cmd)
{
    char names[400];
    for (int t = 0; t < a->n_targets; t++)
        if (!a->targets[t]->processes) {
            process_workloads(names, sizeof names);
            if (pr->rank == 0)
                fprintf(stderr, "climb: %s: %s runs in one process (start it without the launcher); one process a "
                                "GPU runs %s\n", cmd, a->targets[t]->name, names[0] ? names : "no workload of this build");
            return EXIT_USAGE;
        }
    if ((a->gpus && a->gpus != pr->size) || (a->devset.n && a->devset.n != pr->size)) {
        if (pr->rank == 0)
            fprintf(stderr, "climb: %s: %s names %d GPUs, and the launcher started %d processes (one a GPU)\n", cmd,
                    a->gpus ? "--gpus" : "--devices", a->gpus ? a->gpus : a->devset.n, pr->size);
        return EXIT_USAGE;
    }
    char why[300];
    const int count = climb_device_count(why, sizeof why);
    const int own = a->devset.n ? a->devset.id[pr->rank] : cli_local_rank;
    int bad = count == 0 || own >= count;
    if (count == 0)
        fprintf(stderr, "climb: rank %d: %s\n", pr->rank, why);
    else if (own >= count)
        fprintf(stderr, "climb: rank %d: no GPU %d on its node (it has %d; one process a GPU takes the GPU of its rank "
                        "on the node, or --devices' entry at its rank)\n", pr->rank, own, count);
    climb_device_set s;
    memset(&s, 0, sizeof s);
    s.n = pr->size;
    if (climb_procs_any(pr, bad) != 0 || pr->allgather(pr->ctx, &own, s.id, sizeof own) != 0)
        return EXIT_FAILED;
    for (int i = 0; i < s.n; i++)
        for (int j = 0; j < i; j++)
            if (s.id[i] == s.id[j] && pr->one_node) {
                if (pr->rank == 0)
                    fprintf(stderr, "climb: %s: ranks %d and %d both drive GPU %d (one process a GPU)\n", cmd, j, i,
                            s.id[i]);
                return EXIT_USAGE;
            }
    a->devset = s;
    a->devs = calloc((size_t)s.n, sizeof *a->devs);
    if (!a->devs) {
        climb_host_oom("the devices' facts");
        return climb_procs_check(pr, -1, "the devices' facts"), EXIT_FAILED;
    }
    climb_device_info mine;
    memset(&mine, 0, sizeof mine);
    climb_procs_check(pr, climb_device_query(own, &mine), "reading its GPU's facts");
    climb_device_nvml(&mine);
    if (pr->allgather(pr->ctx, &mine, a->devs, sizeof mine) != 0 ||
        climb_procs_bcast(pr, &a->run.seed, sizeof a->run.seed, 0) != 0)
        return EXIT_FAILED;
    a->device = own;
    a->run.devices = &a->devset;
    a->run.devs = a->devs;
    a->run.procs = pr;
    a->run.timing.procs = pr;
    if (pr->rank != 0) { /* rank 0 reports */
        a->json = a->csv = a->md = a->out = NULL;
        a->out_auto = 0;
        a->run.progress = 0;
    }
    return 0;
}

/* The GPUs of the run's spanning cases, each pair's facts, into the report. 0, or -1 (said). */
static int record_device_set(const run_args *a, climb_report *rep)
{
    const int n = a->devset.n;
    climb_p2p *p2p = calloc((size_t)n * (size_t)n + 1, sizeof *p2p);
    if (!p2p)
        return climb_host_oom("the GPUs' pairs");
    int rc = climb_device_pairs(a->devset.id, n, a->measure, p2p); /* the copy engines with the ceilings */
    if (!rc && cudaSetDevice(a->device) != cudaSuccess)
        rc = -1;
    if (!rc)
        rc = climb_report_set_devices(rep, a->devs, p2p, n);
    free(p2p);
    return rc;
}

/* The start of every timed command: the device (and its ceilings when asked, with those the workloads name),
 * the seed line, the timer, an empty report. 0, or -1 after printing why. */
static int start_timed(run_args *a, const char *command, climb_device_info *dev, climb_timer *timer,
                       climb_report *rep)
{
    const climb_procs *pr = a->run.procs;
    if (!pr && open_device_set(a) != 0)
        return -1;
    /* One process a GPU: rank 0 measures the ceilings and the pairs while the others wait (their GPUs idle). */
    const int lead = !pr || pr->rank == 0;
    unsigned extra = climb_extra_ceilings(a->targets, a->n_targets);
    if (climb_procs_check(pr, open_device(a->device, dev, a->measure && lead, extra), "opening its GPU") != 0)
        return -1;
    if (lead)
        fprintf(stderr, "seed %" PRIu64 " (rerun with --seed %" PRIu64 ")\n", a->run.seed, a->run.seed);
    if (climb_procs_check(pr, climb_timer_init(timer, (size_t)dev->l2_bytes), "its timer") != 0)
        return -1;
    climb_report_init(rep, command, a->run.seed, a->run.timing.batch, dev);
    if (a->devs && lead && climb_procs_check(pr, record_device_set(a, rep), "the pairs' facts") != 0)
        return -1;
    if (pr)
        rep->processes = pr->size;
    if (pr && (pr->barrier(pr->ctx) != 0 ||
               climb_report_note(rep, "one process a GPU: %d processes started by an MPI launcher, each driving its "
                                      "own GPU; every sample starts after a barrier and is the longest of the "
                                      "processes' times", pr->size) != 0))
        return -1;
    if (a->sweep)
        snprintf(rep->sweep, sizeof rep->sweep, "%s", a->sweep);
    if (strcmp(command, "bench") == 0 && a->run.quick && a->run.timing.budget_s > 0 &&
        climb_report_note(rep, "quick run: each workload's main sizes%s, %d to %d samples and %.2g s of sampling a rung, "
                               "a rung whose one verified run took over %.2g s not timed (--full: the full bench)",
                          a->run.n_shapes ? " (here the sizes given)" : "", a->run.timing.min_samples,
                          a->run.timing.max_samples, a->run.timing.max_wall_s, a->run.timing.budget_s) != 0)
        return -1;
    if (a->run.timing.max_noise_pct > 0 &&
        climb_report_note(rep, "sampling: at least %d samples and %.2g s of GPU time, then on until the noise is at "
                               "most %.2g%% or %.3g s have passed (a row that stopped on the time limit says so)",
                          a->run.timing.min_samples, a->run.timing.min_gpu_s, a->run.timing.max_noise_pct,
                          a->run.timing.max_wall_s) != 0)
        return -1;
    return 0;
}

/* --sweep NAME: the command line again with the sweep's arguments after the user's. *argv2 and *buf are the
 * caller's to free. 0, or a usage error. */
static int expand_sweep(const run_args *a, int argc, char **argv, int *argc2, char ***argv2, char **buf)
{
    if (a->n_targets != 1)
        return usage_msg("--sweep %s: name one workload, not 'all'", a->sweep);
    const climb_workload *w = a->targets[0];
    const climb_sweep *sw = climb_find_sweep(w, a->sweep);
    if (!sw) {
        char names[400] = "";
        size_t used = 0;
        for (int i = 0; i < w->n_sweeps && used < sizeof names; i++)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", w->sweeps[i].name);
        return usage_msg("--sweep %s: %s has %s%s%s", a->sweep, w->name, w->n_sweeps ? "these sweeps: " : "no sweeps",
                         names, "");
    }
    if (!sw->args)
        return usage_msg("--sweep %s: %s's sweep %s is drawn from the default bench (climb bench %s); it has no run "
                         "of its own", a->sweep, w->name, sw->name, w->name);
    /* Real inputs are named {data}/...: the data folder ($CLIMB_DATA, else the one beside the source tree). Where
     * one of them is missing the sweep is skipped, said, and the run succeeds: the data is not part of climb. */
    const char *data = getenv("CLIMB_DATA");
    if (!data || !data[0])
        data = CLIMB_DATA_DIR;
    size_t n_data = 0;
    for (const char *q = strstr(sw->args, "{data}"); q; q = strstr(q + 1, "{data}"))
        n_data++;
    const size_t cap = strlen(sw->args) + n_data * strlen(data) + 1;
    *buf = malloc(cap);
    *argv2 = calloc((size_t)argc + strlen(sw->args) / 2 + 2, sizeof **argv2);
    if (!*buf || !*argv2) {
        climb_host_oom("a sweep's arguments");
        return EXIT_FAILED;
    }
    size_t used = 0;
    for (const char *q = sw->args; *q;) {
        if (strncmp(q, "{data}", 6) == 0) {
            used += (size_t)snprintf(*buf + used, cap - used, "%s", data);
            q += 6;
        } else {
            (*buf)[used++] = *q++;
        }
    }
    (*buf)[used] = '\0';
    for (const char *q = *buf; n_data && *q;) {
        const size_t len = strcspn(q, " ");
        char path[1200];
        snprintf(path, sizeof path, "%.*s", (int)len, q);
        if (strncmp(path, data, strlen(data)) == 0 && access(path, R_OK) != 0) {
            fprintf(stderr, "climb: --sweep %s: skipped: its real inputs are not here (%s: %s; set CLIMB_DATA to the "
                            "data folder)\n", sw->name, path, strerror(errno));
            return -1;
        }
        q += len + (q[len] == ' ');
    }
    int n = 0;
    for (int i = 0; i < argc; i++)
        (*argv2)[n++] = argv[i];
    for (char *save = NULL, *t = strtok_r(*buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
        (*argv2)[n++] = t;
    *argc2 = n;
    return 0;
}

/* --dry-run: what would run, per workload. */
static int dry_run(run_args *a, int mode)
{
    int too_large = 0;
    for (int t = 0; t < a->n_targets; t++) {
        const climb_workload *w = a->targets[t];
        a->run.options = &a->plans[t];
        const int check = mode == MODE_CHECK;
        int n_shapes;
        const climb_shape *shapes = mode == MODE_BENCH  ? climb_bench_shapes(w, &a->run, &n_shapes)
                                    : mode == MODE_TUNE ? climb_tune_shapes(w, &n_shapes)
                                                        : climb_default_shapes(w, check, a->run.quick, &n_shapes);
        climb_run_setup s;
        if (climb_run_setup_open(w, &a->run, shapes, n_shapes, &s) != 0)
            return EXIT_FAILED;
        if (mode == MODE_TUNE && w->tuning)
            printf("%s: %d case%s x %ld candidates of %s\n", w->name, s.n_cases, s.n_cases == 1 ? "" : "s",
                   climb_tuning_count(w->tuning), w->rung(climb_best_rung(w))->name);
        else
            printf("%s: %d case%s x %d rung%s%s%s\n", w->name, s.n_cases, s.n_cases == 1 ? "" : "s", s.n_selected,
                   s.n_selected == 1 ? "" : "s", a->sweep ? ", sweep " : "", a->sweep ? a->sweep : "");
        for (int c = 0; c < s.n_cases; c++) { /* the cases, as a run names them (nvbench's --list) */
            char label[200], opts[400];
            climb_opt_plan_combo(s.plan, s.keys[c].combo, s.vals);
            climb_case_label(w, &s.keys[c].shape, label, sizeof label);
            climb_opt_format(w->options, w->n_options, s.vals, opts, sizeof opts);
            char why[300];
            const char *big = climb_case_too_large(w, &s.keys[c], s.vals, why, sizeof why);
            printf("  %s %s%s%s%s%s%s\n", climb_dtype_name(s.keys[c].type), label, opts[0] ? " [" : "", opts,
                   opts[0] ? "]" : "", big ? " - refused: " : "", big ? big : "");
            too_large += big != NULL;
        }
        climb_run_setup_close(w, &s);
    }
    if (a->out || a->out_auto)
        printf("reports: %s/bench.json, bench.md and index.html (the page beside the committed results of the "
               "nearest GPU), then a line a workload\n", a->out ? a->out : "climb-bench/<gpu>-<UTC time>");
    if (too_large)
        fprintf(stderr, "climb: %d case%s refused by the workload's limits (see above): the run would fail\n",
                too_large, too_large == 1 ? " is" : "s are");
    return too_large ? 1 : 0;
}

static int cmd_bench(int argc, char **argv)
{
    run_args a;
    int rc = parse_run_args(argc, argv, MODE_BENCH, &a);
    char **argv2 = NULL, *buf = NULL;
    if (!rc && a.sweep) {
        int argc2 = 0;
        rc = expand_sweep(&a, argc, argv, &argc2, &argv2, &buf);
        free_run_args(&a);
        if (!rc)
            rc = parse_run_args(argc2, argv2, MODE_BENCH, &a);
    }
    /* Cases whose option needs an environment variable this process does not have: a process of their own each. */
    env_child *kids = NULL;
    int n_kids = 0;
    if (!rc)
        rc = env_children_split(&a, &kids, &n_kids);
    if (!rc && n_kids && cli_procs) {
        fprintf(stderr, "climb: %s=%lld needs %s=%lld from each process's start: under a launcher, set it in the "
                        "launcher's environment (and --set %s=0)\n",
                kids[0].o->name, kids[0].value, kids[0].o->env, kids[0].value, kids[0].o->name);
        rc = EXIT_USAGE;
    }
    if (!rc && a.dry_run) {
        int bad = 0;
        for (int k = 0; k < n_kids; k++)
            bad |= env_child_run(&a, &kids[k], NULL, NULL) != 0;
        bad |= a.n_targets > 0 && dry_run(&a, MODE_BENCH) != 0;
        rc = bad ? EXIT_FAILED : -1;
    }
    if (!rc && cli_procs)
        rc = open_procs(&a, cli_procs, "bench");
    if (rc) {
        free(kids);
        free_run_args(&a);
        free(argv2);
        free(buf);
        return rc < 0 ? 0 : rc;
    }
    climb_device_info dev;
    climb_timer timer;
    climb_report rep;
    if (start_timed(&a, "bench", &dev, &timer, &rep) != 0) {
        free(kids);
        free_run_args(&a);
        return EXIT_FAILED;
    }
    char out_dir[4096] = "", err[300];
    if (a.out)
        snprintf(out_dir, sizeof out_dir, "%s", a.out);
    if (a.out_auto) {
        bench_out_auto_dir(dev.name, out_dir, sizeof out_dir);
        if (bench_out_check(out_dir, 1, err, sizeof err) != 0) {
            fprintf(stderr, "climb: cannot make %s: %s (name a folder with --out DIR)\n", out_dir, err);
            free(kids);
            climb_timer_free(&timer);
            climb_report_free(&rep);
            free_run_args(&a);
            return EXIT_FAILED;
        }
    }
    /* The rung runs planned, for the progress lines' time left on a terminal. */
    climb_progress meter = {0, 0, climb_wall_s(), isatty(2), 0};
    for (int t = 0; t < a.n_targets; t++) {
        const climb_workload *w = a.targets[t];
        a.run.options = &a.plans[t];
        climb_run_setup s;
        int n_shapes;
        const climb_shape *shapes = climb_bench_shapes(w, &a.run, &n_shapes);
        if (climb_run_setup_open(w, &a.run, shapes, n_shapes, &s) == 0) {
            meter.total += (long)s.n_cases * s.n_selected;
            climb_run_setup_close(w, &s);
        }
    }
    a.run.meter = &meter;
    int failures = 0, broken = 0;
    for (int t = 0; t < a.n_targets && !broken; t++) {
        if (!out_dir[0]) /* what target_run says starts a line of its own; with --out it says only warnings */
            climb_progress_break(&meter);
        int n_shapes;
        const climb_shape *shapes = climb_bench_shapes(a.targets[t], &a.run, &n_shapes);
        target_run(&a, t, shapes, n_shapes, &dev, &rep);
        int f = climb_bench(a.targets[t], &a.run, &timer, &rep);
        if (f < 0)
            broken = 1;
        else
            failures += f;
    }
    climb_progress_break(&meter);
    for (int k = 0; k < n_kids && !broken; k++)
        if (env_child_run(&a, &kids[k], &rep, &failures) != 0)
            broken = 1;
    free(kids);
    climb_timer_free(&timer);
    if (cli_procs && cli_procs->rank != 0) { /* rank 0 reports for every process */
        climb_report_free(&rep);
        free_run_args(&a);
        free(argv2);
        free(buf);
        return failures || broken ? EXIT_FAILED : 0;
    }
    climb_report_derive(&rep);
    /* With a report on stdout ('-'), the table goes to stderr so stdout stays machine-readable. */
    int to_stdout = (a.json && !strcmp(a.json, "-")) || (a.csv && !strcmp(a.csv, "-")) || (a.md && !strcmp(a.md, "-"));
    if (out_dir[0]) { /* the folder keeps the tables; the terminal gets a line a workload */
        if (bench_out_finish(&rep, out_dir, stdout) != 0)
            broken = 1;
    } else {
        climb_report_table(&rep, to_stdout ? stderr : stdout);
    }
    /* Every report is attempted, whatever happened to the one before. */
    if (a.json && climb_report_write(&rep, climb_report_json, a.json) != 0)
        broken = 1;
    if (a.csv && climb_report_write(&rep, climb_report_csv, a.csv) != 0)
        broken = 1;
    if (a.md && climb_report_write(&rep, climb_report_md, a.md) != 0)
        broken = 1;
    climb_report_free(&rep);
    free_run_args(&a);
    free(argv2);
    free(buf);
    if (failures || broken) {
        fprintf(stderr, "climb: %d rung run(s) failed%s\n", failures, broken ? ", and the run did not finish" : "");
        return EXIT_FAILED;
    }
    return 0;
}

/* What climb_report_write hands the check's JSON writer. */
static const climb_check_result *check_results;
static int n_check_results;
static void write_check_json(const climb_report *r, FILE *f) { climb_check_json(r, check_results, n_check_results, f); }

static int cmd_check(int argc, char **argv)
{
    run_args a;
    int rc = parse_run_args(argc, argv, MODE_CHECK, &a);
    if (!rc && a.dry_run)
        rc = dry_run(&a, MODE_CHECK) ? EXIT_FAILED : -1;
    if (!rc && cli_procs)
        rc = open_procs(&a, cli_procs, "check");
    if (rc) {
        free_run_args(&a);
        return rc < 0 ? 0 : rc;
    }
    climb_device_info dev;
    if ((!cli_procs && open_device_set(&a) != 0) ||
        climb_procs_check(cli_procs, open_device(a.device, &dev, 0, 0), "opening its GPU") != 0) {
        free_run_args(&a);
        return EXIT_FAILED;
    }
    /* With the JSON on stdout, the human lines go to stderr; one process a GPU: rank 0 speaks and writes. */
    const int lead = !cli_procs || cli_procs->rank == 0;
    FILE *out = a.json && !strcmp(a.json, "-") ? stderr : stdout;
    if (lead)
        fprintf(out, "climb check on %s, seed %" PRIu64 " (rerun with --seed %" PRIu64 ")%s\n", dev.name, a.run.seed,
                a.run.seed, cli_procs ? ", one process a GPU" : "");
    climb_report rep; /* resolve_tuning's notes and the JSON report's head */
    climb_report_init(&rep, "check", a.run.seed, 0, &dev);
    climb_check_result *res = calloc((size_t)a.n_targets + 1, sizeof *res);
    int failures = 0, broken = !res, done = 0;
    for (int t = 0; t < a.n_targets && !broken; t++) {
        int n_shapes;
        const climb_shape *shapes = climb_default_shapes(a.targets[t], 1, a.run.quick, &n_shapes);
        target_run(&a, t, shapes, n_shapes, &dev, &rep);
        fflush(stdout);
        int f = climb_check(a.targets[t], &a.run, &dev, &res[t]);
        done = t + 1;
        if (f < 0)
            broken = 1;
        else
            failures += f;
    }
    if (a.json && res && lead) {
        check_results = res;
        n_check_results = done;
        if (climb_report_write(&rep, write_check_json, a.json) != 0)
            broken = 1;
    }
    for (int t = 0; t < done; t++)
        climb_check_result_free(&res[t]);
    free(res);
    climb_report_free(&rep);
    free_run_args(&a);
    if (broken)
        return EXIT_FAILED;
    if (lead)
        fprintf(out, "%s\n", failures ? "FAILED" : "all runs right");
    return failures ? EXIT_FAILED : 0;
}

/* ---- tune ---- */

static void print_tune_summary(const climb_tune_result *r, FILE *f)
{
    const climb_tuning *tn = r->w->tuning;
    fprintf(f, "\nclimb tune %s%s%s (%s): %d candidates", r->w->name, r->cls[0] ? " " : "", r->cls,
            r->w->rung(r->rung)->name, r->n_cands);
    int skipped = 0;
    for (int k = 0; k < r->n_cands; k++)
        skipped += r->cands[k].skipped != NULL;
    fprintf(f, ", %d not candidates on this GPU; score = geometric mean of time / fastest (1 = fastest)\n", skipped);
    fprintf(f, "  %-44s %7s", "parameters", "score");
    for (int c = 0; c < r->n_cases; c++) {
        char lbl[128], col[160];
        climb_shape_label(&r->cases[c].shape, lbl, sizeof lbl);
        snprintf(col, sizeof col, "%s %s us", climb_dtype_name(r->cases[c].type), lbl);
        fprintf(f, " %14s", col);
    }
    fputc('\n', f);
    /* The five best, then the defaults if they are one candidate and not among them. */
    int shown[6], n_shown = 0;
    for (int rank = 0; rank < 5; rank++) {
        int best = -1;
        for (int k = 0; k < r->n_cands; k++) {
            int seen = 0;
            for (int j = 0; j < n_shown; j++)
                seen |= shown[j] == k;
            if (!seen && isfinite(r->cands[k].score) && (best < 0 || r->cands[k].score < r->cands[best].score))
                best = k;
        }
        if (best >= 0)
            shown[n_shown++] = best;
    }
    int have_defaults = 0;
    for (int j = 0; j < n_shown; j++)
        have_defaults |= shown[j] == r->defaults;
    if (!have_defaults && r->defaults >= 0)
        shown[n_shown++] = r->defaults;
    for (int j = 0; j < n_shown; j++) {
        const climb_tune_cand *cd = &r->cands[shown[j]];
        char desc[200];
        climb_tuning_format(tn, cd->values, desc, sizeof desc);
        fprintf(f, "  %-44s %7.3f", desc, cd->score);
        for (int c = 0; c < r->n_cases; c++)
            fprintf(f, " %14.2f", cd->t[c].median_us);
        fprintf(f, "%s%s%s\n", shown[j] == r->fastest ? "  fastest" : "", shown[j] == r->winner ? "  winner" : "",
                shown[j] == r->defaults ? "  defaults" : "");
    }
    fprintf(f, "  defaults' score %.3f%s; fastest vs defaults: %.3fx; winner vs defaults: %.3fx%s\n", r->defaults_score,
            r->defaults < 0 ? " (they vary by case)" : "", climb_tune_fastest_speedup(r), climb_tune_speedup(r),
            r->winner_is_defaults && r->winner != r->fastest ? " (the defaults stay: within the 1% tie rule)" : "");
    char edges[600];
    if (climb_tune_edges(r, edges, sizeof edges))
        fprintf(f, "  at the edge: %s (a value past it may be faster still: widen the list)\n", edges);
}

/* Writes every tune report the options name. 0, or -1 if one could not be written (printed). */
static int write_tune_reports(const run_args *a, const climb_report *rep, const climb_tune_result *const *done,
                              int n_done)
{
    int rc = 0;
    for (int which = 0; which < 2; which++) {
        const char *dest = which ? a->md : a->json;
        if (!dest)
            continue;
        FILE *jf = strcmp(dest, "-") == 0 ? stdout : fopen(dest, "w");
        if (!jf) {
            fprintf(stderr, "climb: cannot write %s: %s\n", dest, strerror(errno));
            rc = -1;
            continue;
        }
        if (which)
            climb_tune_md(rep, done, n_done, jf);
        else
            climb_tune_json(rep, done, n_done, jf);
        if (jf != stdout && fclose(jf) != 0) {
            fprintf(stderr, "climb: error writing %s\n", dest);
            rc = -1;
        }
    }
    return rc;
}

static int cmd_tune(int argc, char **argv)
{
    run_args a;
    int rc = parse_run_args(argc, argv, MODE_TUNE, &a);
    if (!rc && a.dry_run)
        rc = dry_run(&a, MODE_TUNE) ? EXIT_FAILED : -1;
    if (rc) {
        free_run_args(&a);
        return rc < 0 ? 0 : rc;
    }
    char path[4096];
    const char *file = a.wisdom;
    if (!file && !a.no_wisdom) {
        if (climb_wisdom_default_path(path, sizeof path) != 0) {
            fprintf(stderr, "climb: nowhere to save wisdom (set CLIMB_WISDOM, XDG_CONFIG_HOME or HOME, or use "
                            "--wisdom FILE or --no-save)\n");
            free_run_args(&a);
            return EXIT_USAGE;
        }
        file = path;
    }
    climb_device_info dev;
    climb_timer timer;
    climb_report rep;
    if (start_timed(&a, "tune", &dev, &timer, &rep) != 0) {
        free_run_args(&a);
        return EXIT_FAILED;
    }
    /* One tune per target and tuning class (a workload whose options key its tuning tunes each class apart). */
    climb_tuned_class **classes = calloc((size_t)a.n_targets + 1, sizeof *classes);
    int *n_classes = calloc((size_t)a.n_targets + 1, sizeof *n_classes), total = 0;
    for (int t = 0; t < a.n_targets && classes && n_classes; t++) {
        const climb_workload *w = a.targets[t];
        n_classes[t] = plan_classes(w, &a.run, &a.plans[t], w->bench_shapes, w->n_bench_shapes, &dev, &classes[t],
                                    NULL);
        total += n_classes[t] > 0 ? n_classes[t] : 0;
    }
    climb_tune_result *res = calloc((size_t)total + 1, sizeof *res);
    const climb_tune_result **done = calloc((size_t)total + 1, sizeof *done);
    int n_done = 0, failures = 0, broken = !res || !done || !classes || !n_classes;
    climb_wisdom_key key = {dev.name, dev.cc_major, dev.cc_minor, dev.driver_version, climb_build_version, NULL};
    FILE *out = (a.json && !strcmp(a.json, "-")) || (a.md && !strcmp(a.md, "-")) ? stderr : stdout;
    for (int t = 0, c = 0; t < a.n_targets && !broken; c + 1 < n_classes[t] ? c++ : (c = 0, t++)) {
        if (n_classes[t] < 0) {
            broken = 1;
            break;
        }
        climb_tune_result *r = &res[n_done];
        a.run.options = &a.plans[t];
        a.run.tuning = NULL;
        a.run.only_class = climb_tuning_has_classes(a.targets[t]) ? classes[t][c].cls : NULL;
        a.run.class_dev = &dev;
        key.cls = a.run.only_class;
        int f = climb_tune(a.targets[t], &a.run, &timer, &dev, r);
        if (f < 0) {
            broken = 1;
            climb_tune_free(r);
            break;
        }
        failures += f;
        done[n_done++] = r;
        print_tune_summary(r, out);
        char msg[800];
        if (f > 0 || (r->winner < 0 && !r->winner_is_defaults)) {
            fprintf(stderr, "climb: %s%s%s: %d candidate run(s) failed: nothing saved\n", r->w->name,
                    r->cls[0] ? " " : "", r->cls, f);
        } else if (file && r->winner >= 0) {
            double sp = climb_tune_speedup(r);
            if (climb_wisdom_store(file, r->w->name, r->w->tuning, &key, r->cands[r->winner].values, rep.date, sp, msg,
                                   sizeof msg) != 0) {
                fprintf(stderr, "climb: %s\n", msg);
                broken = 1;
            } else {
                if (msg[0])
                    fprintf(stderr, "climb: warning: %s\n", msg);
                snprintf(r->wisdom_path, sizeof r->wisdom_path, "%s", file);
                fprintf(out, "  saved to %s\n", file);
            }
        } else if (file) {
            /* The defaults won and they differ from case to case: no one set is wisdom; drop a stale entry. */
            if (climb_wisdom_forget(file, r->w->name, &key, msg, sizeof msg) != 0) {
                fprintf(stderr, "climb: %s\n", msg);
                broken = 1;
            } else {
                fprintf(out, "  the built-in defaults of each case won: no wisdom entry for %s%s%s in %s\n", r->w->name,
                        r->cls[0] ? " " : "", r->cls, file);
            }
        }
    }
    climb_timer_free(&timer);
    if ((a.json || a.md) && write_tune_reports(&a, &rep, done, n_done) != 0)
        broken = 1;
    for (int t = 0; t < a.n_targets && classes; t++)
        free(classes[t]);
    free(classes);
    free(n_classes);
    for (int i = 0; i < n_done; i++)
        climb_tune_free(&res[i]);
    free(res);
    free(done);
    climb_report_free(&rep);
    free_run_args(&a);
    if (failures || broken) {
        fprintf(stderr, "climb: %d candidate run(s) failed%s\n", failures, broken ? ", and the run did not finish" : "");
        return EXIT_FAILED;
    }
    return 0;
}

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static int cmd_version(int argc, char **argv)
{
    static const char *const VERSION_USAGE =
        "usage: climb version\n\nThe version, git commit, CUDA architectures, cuDNN and MPI (bench as one process a GPU "
        "under an MPI launcher) this build has.\n";
    if (argc > 1 && is_help(argv[1])) {
        fputs(VERSION_USAGE, stdout);
        return 0;
    }
    if (argc > 1)
        return usage_error(VERSION_USAGE, "version takes no arguments; '%s' is extra", argv[1]);
    printf("climb %s (commit %s%s), CUDA architectures %s, cuDNN %s, MPI %s\n", climb_build_version,
           climb_build_commit, climb_build_dirty > 0 ? ", dirty tree" : "", climb_build_arch,
           climb_build_cudnn[0] ? climb_build_cudnn : "not built in", climb_mpi_built() ? "built in" : "not built in");
    return 0;
}

/* The workload whose own command is `name` (climb_workload.command), or NULL. */
static const climb_workload *workload_command(const char *name)
{
    int n;
    const climb_workload *const *all = climb_workloads(&n);
    for (int i = 0; i < n; i++)
        if (all[i]->command && strcmp(all[i]->command, name) == 0)
            return all[i];
    return NULL;
}

/* climb <command> ARGS for a workload's own command: climb bench <workload> ARGS. */
static int run_workload_command(const climb_workload *w, int argc, char **argv)
{
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args) {
        climb_host_oom("the command line's arguments");
        return EXIT_FAILED;
    }
    args[0] = (char *)"bench";
    args[1] = (char *)w->name;
    for (int i = 1; i < argc; i++)
        args[i + 1] = argv[i];
    int rc = cmd_bench(argc + 1, args);
    free(args);
    return rc;
}

/* The main usage, then the workloads' own commands. */
static void main_usage(FILE *f)
{
    fputs(MAIN_USAGE, f);
    int n, first = 1;
    const climb_workload *const *all = climb_workloads(&n);
    for (int i = 0; i < n; i++)
        if (all[i]->command) {
            fprintf(f, "%s  %-21s %s (climb bench %s)\n", first ? "\nworkload commands:\n" : "", all[i]->command,
                    all[i]->title, all[i]->name);
            first = 0;
        }
}

static const command COMMANDS[] = {
    {"devices", cmd_devices}, {"list", cmd_list},           {"bench", cmd_bench},   {"check", cmd_check},
    {"tune", cmd_tune},       {"occupancy", cmd_occupancy}, {"wisdom", cmd_wisdom}, {"version", cmd_version},
    {"compare", cmd_compare}, {"report", cmd_report},       {"plot", cmd_plot},
};

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (strcmp(COMMANDS[i].name, name) == 0)
            return &COMMANDS[i];
    return NULL;
}

/* Started as one of several processes by an MPI launcher (Open MPI, MPICH's Hydra, MVAPICH): the number of
 * processes and the variable that says it, or 0. */
static int launcher_ranks(const char **var)
{
    static const char *const VARS[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE"};
    for (size_t i = 0; i < sizeof VARS / sizeof VARS[0]; i++) {
        const char *v = getenv(VARS[i]);
        char *end = NULL;
        const long n = v ? strtol(v, &end, 10) : 0;
        if (v && end != v && *end == '\0' && n > 1) {
            *var = VARS[i];
            return n > 1 << 20 ? 1 << 20 : (int)n;
        }
    }
    return 0;
}

/* Under an MPI launcher: `bench` runs as one process a GPU (where climb was built with MPI); the other commands
 * that run on GPUs refuse, as each process would drive every GPU it names, timing the others' work as its own.
 * -1: not under a launcher, or a command that does not run on GPUs (go on as usual); else the exit status. */
static int under_launcher(const char *cmd, int argc, char **argv)
{
    static const char *const GPU_COMMANDS[] = {"bench", "check", "tune", "devices", "occupancy"};
    int gpu = workload_command(cmd) != NULL;
    for (size_t i = 0; i < sizeof GPU_COMMANDS / sizeof GPU_COMMANDS[0]; i++)
        gpu |= strcmp(cmd, GPU_COMMANDS[i]) == 0;
    const char *var = NULL;
    const int n = gpu ? launcher_ranks(&var) : 0;
    if (!n)
        return -1;
    char names[400], why[300];
    process_workloads(names, sizeof names);
    const int check = strcmp(cmd, "check") == 0;
    if (strcmp(cmd, "bench") != 0 && !check) {
        fprintf(stderr,
                "climb: %s: started as one of %d processes by an MPI launcher (%s=%d). climb %s drives every GPU of a "
                "run from one process; start it once, without the launcher: 'climb %s ... --gpus %d'. Under a launcher "
                "climb runs 'bench' and 'check' of %s, one process a GPU (a program of one process a GPU uses the C "
                "API's rank form, climb_comm_init_rank)\n",
                cmd, n, var, n, cmd, cmd, n, names[0] ? names : "the workloads that take it");
        return EXIT_USAGE;
    }
    climb_procs procs;
    if (climb_mpi_start(&argc, &argv, &procs, &cli_local_rank, why, sizeof why) != 0) {
        fprintf(stderr, "climb: %s: started as one of %d processes by an MPI launcher (%s=%d), one process a GPU: "
                        "%s\n", cmd, n, var, n, why);
        return EXIT_USAGE;
    }
    if (procs.size < 2) { /* the launcher's variable said several, MPI found this process alone */
        fprintf(stderr, "climb: %s: %s=%d, and MPI counts 1 process: start it with the launcher (mpirun -np %d "
                        "climb %s ...), or without either\n", cmd, var, n, n, cmd);
        climb_mpi_finish();
        return EXIT_USAGE;
    }
    cli_procs = &procs;
    int rc = check ? cmd_check(argc - 1, argv + 1) : cmd_bench(argc - 1, argv + 1);
    const int any = climb_procs_any(&procs, rc != 0); /* one process's failure is the run's */
    cli_procs = NULL;
    climb_mpi_finish();
    return rc ? rc : any ? EXIT_FAILED : 0;
}

int climb_cli_main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(MAIN_USAGE, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (is_help(cmd) || (strcmp(cmd, "help") == 0 && argc == 2)) {
        main_usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "help") == 0) { /* climb help COMMAND [WORKLOAD...]: that command's --help */
        if (strcmp(argv[2], "help") == 0) {
            main_usage(stdout);
            return 0;
        }
        for (int i = 3; i < argc; i++)
            if (strcmp(argv[i], "all") != 0 && !climb_find_workload(argv[i]))
                return usage_msg("help %s: '%s' is not a workload (run 'climb list')", argv[2], argv[i]);
        const command *c = find_command(argv[2]);
        const climb_workload *w = c ? NULL : workload_command(argv[2]);
        if (!c && !w)
            return usage_error(MAIN_USAGE, "unknown command '%s'", argv[2]);
        /* the command's usage, then each workload named after it in full */
        char **help = calloc((size_t)argc + 1, sizeof *help);
        if (!help) {
            climb_host_oom("the command line's arguments");
            return EXIT_FAILED;
        }
        int n = 0;
        help[n++] = argv[2];
        help[n++] = (char *)"--help";
        for (int i = 3; i < argc; i++)
            help[n++] = argv[i];
        const int rc = c ? c->run(n, help) : run_workload_command(w, n, help);
        free(help);
        return rc;
    }
    if (strcmp(cmd, "--version") == 0)
        return cmd_version(1, argv + 1);
    const int launched = under_launcher(cmd, argc, argv);
    if (launched >= 0)
        return launched;
    const command *c = find_command(cmd);
    if (c)
        return c->run(argc - 1, argv + 1);
    const climb_workload *w = workload_command(cmd); /* the built-in commands come first */
    if (w)
        return run_workload_command(w, argc - 1, argv + 1);
    return usage_error(MAIN_USAGE, "unknown command '%s'", cmd);
}
