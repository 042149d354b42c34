/* climb bench, check and tune: their arguments. The flags are one declared table (name, value, the commands that
 * take it, its repeat rule, its help, what it does), parsed by one function; each command's usage is generated from
 * it. Every argument is checked here, before the GPU is touched: options, sizes against each workload's dims, types
 * against its types, its options and its input files, and every report path. */
#include "run_args.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/checked.h"
#include "../base/rng.h"
#include "../core/report.h"
#include "../io/text.h"
#include "cli.h"

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

/* 1 when two output paths name one file: both '-', or the same name in the same folder once the folders are
 * resolved (the folders need not exist: then the paths as written are compared). */
static int same_output(const char *a, const char *b)
{
    if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return strcmp(a, b) == 0;
    char ra[PATH_MAX + 4096], rb[PATH_MAX + 4096];
    const char *p[2] = {a, b};
    char *r[2] = {ra, rb};
    for (int k = 0; k < 2; k++) {
        const char *slash = strrchr(p[k], '/');
        char dir[4096];
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - p[k]) : 1, slash ? p[k] : ".");
        if (slash == p[k])
            snprintf(dir, sizeof dir, "/");
        char real[PATH_MAX];
        if (!realpath(dir, real))
            return strcmp(a, b) == 0;
        snprintf(r[k], sizeof ra, "%s/%s", real, slash ? slash + 1 : p[k]);
    }
    return strcmp(ra, rb) == 0;
}

void free_run_args(run_args *a)
{
    for (int t = 0; t < a->n_targets + a->n_hidden && a->plans; t++)
        climb_opt_plan_free(&a->plans[t], a->targets[t]->unload);
    free(a->targets);
    free(a->plans);
    free(a->rungs);
    free(a->shapes);
    free(a->sets);
    free(a->inputs);
    free(a->tuned);
    free(a->set_opts);
    free(a->devs);
    for (int k = 0; k < a->n_owned; k++)
        free(a->owned[k]);
    free(a->owned);
    free(a->split_argv);
    memset(a, 0, sizeof *a);
}

/* ---- the flags ---- */

enum { REPEAT_ANY, REPEAT_ONCE, REPEAT_LIST };
#define ALL_MODES (1u << MODE_CHECK | 1u << MODE_BENCH | 1u << MODE_TUNE)
#define BENCH_ONLY (1u << MODE_BENCH)
#define TIMED (1u << MODE_BENCH | 1u << MODE_TUNE)
#define NOT_TUNE (1u << MODE_CHECK | 1u << MODE_BENCH)

typedef struct run_flag {
    const char *name; /* "--size" */
    const char *arg;  /* the value's name in the usage ("S"), NULL for a flag without a value */
    unsigned modes;   /* the commands that take it: bit MODE_* (a name may have a row per command, each its help) */
    int repeat;       /* REPEAT_ONCE: a second time is an error; REPEAT_LIST: each adds a value (apply refuses the
                         same value twice); REPEAT_ANY: saying it again changes nothing */
    const char *help; /* the usage's text ('\n' starts a line under the first) */
    int (*apply)(run_args *a, const char *v, const char *usage);
} run_flag;

static int f_rung(run_args *a, const char *v, const char *usage)
{
    (void)usage;
    for (int q = 0; q < a->run.n_rungs; q++)
        if (strcmp(a->rungs[q], v) == 0)
            return usage_msg("--rung %s given twice", v);
    a->rungs[a->run.n_rungs++] = v;
    return 0;
}

static int f_size(run_args *a, const char *v, const char *usage)
{
    char err[200];
    if (climb_shape_parse(v, &a->shapes[a->run.n_shapes++], err, sizeof err) != 0)
        return usage_error(usage, "--size: %s", err);
    for (int q = 0; q + 1 < a->run.n_shapes; q++)
        if (climb_shape_equal(&a->shapes[q], &a->shapes[a->run.n_shapes - 1]))
            return usage_msg("--size %s given twice", v);
    return 0;
}

static int f_type(run_args *a, const char *v, const char *usage)
{
    (void)usage;
    climb_dtype t;
    if (climb_dtype_parse(v, &t)) {
        char all[128];
        climb_dtype_list((1u << CLIMB_NTYPES) - 1, all, sizeof all);
        return usage_msg("--type: '%s' is not a type (%s)", v, all);
    }
    if (a->run.types & CLIMB_TYPE_BIT(t))
        return usage_msg("--type %s given twice", v);
    a->run.types |= CLIMB_TYPE_BIT(t);
    return 0;
}

static int f_set(run_args *a, const char *v, const char *usage)
{
    (void)usage;
    a->sets[a->n_sets++] = v;
    return 0;
}

static int f_input(run_args *a, const char *v, const char *usage)
{
    for (int q = 0; q < a->n_inputs; q++)
        if (strcmp(a->inputs[q], v) == 0)
            return usage_msg("--input %s given twice", v);
    a->inputs[a->n_inputs++] = v;
    return v[0] ? 0 : usage_error(usage, "--input: an empty file name%s", "");
}

static int parse_ref_mode(const char *s, climb_ref_mode *m);

static int f_reference(run_args *a, const char *v, const char *usage)
{
    if (parse_ref_mode(v, &a->run.reference))
        return usage_error(usage, "--reference: '%s' is not one of auto, cpu, vendor, samples", v);
    return 0;
}

static int parse_u64(const char *s, uint64_t *out);

static int f_seed(run_args *a, const char *v, const char *usage)
{
    if (parse_u64(v, &a->run.seed))
        return usage_error(usage, "--seed: '%s' is not a non-negative integer", v);
    a->seed_given = 1;
    return 0;
}

static int f_device(run_args *a, const char *v, const char *usage)
{
    a->device_given = 1;
    return parse_int(v, 0, 1023, &a->device) ? usage_error(usage, "--device: '%s' is not a device ordinal", v) : 0;
}

static int f_gpus(run_args *a, const char *v, const char *usage)
{
    return parse_int(v, 1, CLIMB_MAX_DEVICES, &a->gpus)
               ? usage_error(usage, "--gpus: '%s' is not a number of GPUs from 1 to 64", v)
               : 0;
}

static int f_devices(run_args *a, const char *v, const char *usage)
{
    (void)usage;
    char why[300];
    return climb_device_set_parse(v, -1, &a->devset, why, sizeof why) ? usage_msg("--devices: %s", why) : 0;
}

static int f_quiet(run_args *a, const char *v, const char *usage)
{
    (void)v, (void)usage;
    a->run.progress = 0;
    return 0;
}

static int f_quick(run_args *a, const char *v, const char *usage)
{
    (void)v, (void)usage;
    a->run.quick = 1;
    return 0;
}

static int f_wisdom(run_args *a, const char *v, const char *usage)
{
    a->wisdom = v;
    return v[0] ? 0 : usage_error(usage, "--wisdom: an empty file name%s", "");
}

static int f_no_wisdom(run_args *a, const char *v, const char *usage)
{
    (void)v, (void)usage;
    a->no_wisdom = 1;
    return 0;
}

static int f_batch(run_args *a, const char *v, const char *usage)
{
    (void)v, (void)usage;
    a->run.timing.batch = 1;
    a->sampling_set = 1;
    return 0;
}

static int f_sweep(run_args *a, const char *v, const char *usage)
{
    (void)usage;
    a->sweep = v;
    return 0;
}

static int f_dry_run(run_args *a, const char *v, const char *usage)
{
    (void)v, (void)usage;
    a->dry_run = 1;
    return 0;
}

static int f_full(run_args *a, const char *v, const char *usage)
{
    (void)v, (void)usage;
    a->full = 1;
    return 0;
}

static int f_profile(run_args *a, const char *v, const char *usage)
{
    (void)v, (void)usage;
    a->profile = 1;
    return 0;
}

static int f_size_class(run_args *a, const char *v, const char *usage)
{
    if (!((v[0] == 'S' || v[0] == 'M' || v[0] == 'L') && v[1] == '\0'))
        return usage_error(usage, "--size-class: '%s' is not S, M or L", v);
    a->run.size_class = v[0];
    return 0;
}

static int f_no_ceilings(run_args *a, const char *v, const char *usage)
{
    (void)v, (void)usage;
    a->measure = 0;
    return 0;
}

static int f_min_samples(run_args *a, const char *v, const char *usage)
{
    if (parse_int(v, 1, 100000, &a->run.timing.min_samples))
        return usage_error(usage, "--min-samples: '%s' is not a count from 1 to 100000", v);
    if (a->run.timing.max_samples < a->run.timing.min_samples)
        a->run.timing.max_samples = a->run.timing.min_samples;
    a->sampling_set = 1;
    return 0;
}

static int f_max_time(run_args *a, const char *v, const char *usage)
{
    double s;
    if (climb_parse_double(v, &s) != 0 || !(s >= 0.001 && s <= 3600))
        return usage_error(usage, "--max-time: '%s' is not a number of seconds (0.001 to 3600)", v);
    a->run.timing.max_wall_s = s;
    a->sampling_set = a->max_time_set = 1;
    return 0;
}

static int f_max_noise(run_args *a, const char *v, const char *usage)
{
    double pct;
    if (climb_parse_double(v, &pct) != 0 || !(pct >= 0.01 && pct <= 100))
        return usage_error(usage, "--max-noise: '%s' is not a percentage from 0.01 to 100", v);
    a->run.timing.max_noise_pct = pct;
    a->sampling_set = 1;
    return 0;
}

static int f_json(run_args *a, const char *v, const char *usage)
{
    (void)usage;
    a->json = v;
    return 0;
}

static int f_csv(run_args *a, const char *v, const char *usage)
{
    (void)usage;
    a->csv = v;
    return 0;
}

static int f_md(run_args *a, const char *v, const char *usage)
{
    (void)usage;
    a->md = v;
    return 0;
}

static int f_output(run_args *a, const char *v, const char *usage)
{
    a->run.output = v;
    if (!v[0] || strcmp(v, "-") == 0)
        return usage_error(usage, "--output: an empty file name or '-' (it names a file)%s", "");
    return 0;
}

static int f_out(run_args *a, const char *v, const char *usage)
{
    a->out = v;
    if (!v[0] || strcmp(v, "-") == 0)
        return usage_error(usage, "--out: an empty folder name or '-' (it names a folder)%s", "");
    return 0;
}

/* In the order the usage lists them. */
static const run_flag RUN_FLAGS[] = {
    {"--rung", "NAME", BENCH_ONLY, REPEAT_LIST, "run only this rung (repeatable; see 'climb list <workload>')",
     f_rung},
    {"--rung", "NAME", 1u << MODE_CHECK, REPEAT_LIST, "only this rung (repeatable)", f_rung},
    {"--size", "S", ALL_MODES, REPEAT_LIST,
     "a shape against the workload's dims: 4194304, 2^22, 4096x4096, 4097x4097x4097\n"
     "(repeatable; default: the workload's sizes)",
     f_size},
    {"--type", "T", ALL_MODES, REPEAT_LIST,
     "an element type the workload has (repeatable; default: all it has; see 'climb list W')", f_type},
    {"--set", "NAME=V", ALL_MODES, REPEAT_LIST,
     "a workload option: one value, or a comma list to run each (dist=uniform,constant;\n"
     "a choice also takes 'all'); W.NAME=V for one workload of several (repeatable)",
     f_set},
    {"--input", "FILE", ALL_MODES, REPEAT_LIST,
     "the case from a file, for a workload that reads one (repeatable: one case each)", f_input},
    {"--reference", "R", ALL_MODES, REPEAT_ONCE,
     "auto (default), cpu, vendor or samples: what results are checked against; auto takes\n"
     "the CPU unless the workload says a case is too costly for it",
     f_reference},
    {"--seed", "S", ALL_MODES, REPEAT_ONCE, "input seed (default: a fresh one, printed)", f_seed},
    {"--device", "N", ALL_MODES, REPEAT_ONCE, "CUDA device (default 0)", f_device},
    {"--gpus", "N", ALL_MODES, REPEAT_ONCE,
     "a workload that spans GPUs: the first N (default: as many as it takes at the least)", f_gpus},
    {"--devices", "LIST", ALL_MODES, REPEAT_ONCE, "a workload that spans GPUs: these, in order (\"0,2\", \"0-3\")",
     f_devices},
    {"--quiet", NULL, ALL_MODES, REPEAT_ANY, "no progress on stderr", f_quiet},
    {"--batch", NULL, BENCH_ONLY, REPEAT_ANY,
     "time back-to-back launches with a warm L2 instead of one cold launch per sample\n"
     "(refused for rungs that change their operands: the reset would be timed)",
     f_batch},
    {"--batch", NULL, 1u << MODE_TUNE, REPEAT_ANY,
     "time back-to-back launches with a warm L2 (default: cold, L2 flushed per sample)", f_batch},
    {"--min-samples", "N", TIMED, REPEAT_ONCE, "at least N samples per measurement (default 20)", f_min_samples},
    {"--max-time", "S", TIMED, REPEAT_ONCE,
     "at most S seconds of sampling per measurement (default 1; 10 with --max-noise)", f_max_time},
    {"--max-noise", "PCT", BENCH_ONLY, REPEAT_ONCE,
     "sample on until the samples' noise (relative standard deviation) is at most PCT %, its\n"
     "estimate holds steady above it, or --max-time has passed, as nvbench does; a row that\n"
     "misses the target says why in its note, and every row gives the noise reached",
     f_max_noise},
    {"--max-noise", "PCT", 1u << MODE_TUNE, REPEAT_ONCE,
     "sample each candidate until its noise is at most PCT % or --max-time has passed", f_max_noise},
    {"--size-class", "C", BENCH_ONLY, REPEAT_ONCE,
     "S, M or L: the workload's smallest bench size, its main sizes, or its largest (see\n"
     "'climb list W'); a preset per workload, as SHOC's and Parboil's sizes are",
     f_size_class},
    {"--quick", NULL, BENCH_ONLY, REPEAT_ONCE,
     "the quick run (the default for 'all'): the workload's main sizes (see 'climb list W'),\n"
     "5 to 20 samples and 0.05 s a rung, and a rung whose one run takes over 0.25 s not timed",
     f_quick},
    {"--quick", NULL, 1u << MODE_CHECK, REPEAT_ONCE,
     "the workload's few quick shapes (every code path, fewest cases: for slow tools)", f_quick},
    {"--full", NULL, BENCH_ONLY, REPEAT_ONCE, "with 'all': every workload's full bench, sizes and sampling (make "
                                              "bench-full)", f_full},
    {"--profile", NULL, BENCH_ONLY, REPEAT_ONCE,
     "for nsys and ncu: one warm-up and one timed run a rung, no sampling, no ceilings; each\n"
     "rung's timed runs are in an NVTX range named workload/rung/case (ranges are always there)",
     f_profile},
    {"--no-ceilings", NULL, BENCH_ONLY, REPEAT_ANY, "skip measuring the device ceilings (no roofline column)",
     f_no_ceilings},
    {"--sweep", "NAME", BENCH_ONLY, REPEAT_ONCE,
     "one of the workload's sweeps (see 'climb list <workload>'): adds its arguments, and the\n"
     "report records the sweep (scripts/results_tables.py draws docs/img/<workload>-NAME-<gpu>.svg);\n"
     "a sweep over real inputs reads them from $CLIMB_DATA (default: ../shared/data beside the\n"
     "source tree) and is skipped, with a note, where they are not there",
     f_sweep},
    {"--dry-run", NULL, BENCH_ONLY, REPEAT_ANY,
     "check the arguments and list the cases and rungs that would run; no GPU work", f_dry_run},
    {"--dry-run", NULL, 1u << MODE_CHECK, REPEAT_ANY,
     "check the arguments and list the cases that would be checked; no GPU work", f_dry_run},
    {"--dry-run", NULL, 1u << MODE_TUNE, REPEAT_ANY,
     "check the arguments and list the cases that would be tuned; no GPU work", f_dry_run},
    {"--json", "FILE", BENCH_ONLY, REPEAT_ONCE, "write the report as JSON ('-' for stdout)", f_json},
    {"--json", "FILE", 1u << MODE_TUNE, REPEAT_ONCE, "every candidate's figures as JSON ('-' for stdout)", f_json},
    {"--json", "FILE", 1u << MODE_CHECK, REPEAT_ONCE,
     "write what was checked and every failure as JSON ('-' for stdout)", f_json},
    {"--csv", "FILE", BENCH_ONLY, REPEAT_ONCE, "the report as CSV ('-' for stdout)", f_csv},
    {"--md", "FILE", TIMED, REPEAT_ONCE, "the report as markdown ('-' for stdout)", f_md},
    {"--out", "DIR", BENCH_ONLY, REPEAT_ONCE,
     "write the report to DIR as bench.json and bench.md, the results page of this run beside the\n"
     "committed results of the nearest GPU as DIR/index.html, and end with a line a workload\n"
     "instead of the tables. 'climb bench all' with no report option (the main command, make\n"
     "bench) does so into climb-bench/<gpu>-<UTC time>/",
     f_out},
    {"--output", "FILE", BENCH_ONLY, REPEAT_ONCE,
     "write the output of a run of one case to FILE, in the form of the workload's input files\n"
     "(conv: the filtered image as a PGM): the best rung's, else the last rung selected",
     f_output},
    {"--wisdom", "FILE", NOT_TUNE, REPEAT_ONCE,
     "tuned parameters from FILE (default: $CLIMB_WISDOM, else $XDG_CONFIG_HOME/climb/wisdom.json,\n"
     "else ~/.config/climb/wisdom.json); a missing, foreign, stale or corrupt file gives the\n"
     "built-in per-architecture defaults, with a warning (none when the default file is absent)",
     f_wisdom},
    {"--wisdom", "FILE", 1u << MODE_TUNE, REPEAT_ONCE, "where to save (default as for bench)", f_wisdom},
    {"--no-wisdom", NULL, NOT_TUNE, REPEAT_ANY, "the built-in defaults, whatever wisdom there is", f_no_wisdom},
    {"--no-save", NULL, 1u << MODE_TUNE, REPEAT_ANY, "report only, save nothing", f_no_wisdom},
};

/* The row of flag `name` for command `mode`, or NULL. */
static const run_flag *find_flag(const char *name, int mode)
{
    for (size_t k = 0; k < CLIMB_COUNT(RUN_FLAGS); k++)
        if (RUN_FLAGS[k].modes >> mode & 1u && strcmp(RUN_FLAGS[k].name, name) == 0)
            return &RUN_FLAGS[k];
    return NULL;
}

/* The flags that take a value (for any command): each may also be written --name=value (GNU style). */
static int takes_value(const char *name, size_t len)
{
    for (size_t k = 0; k < CLIMB_COUNT(RUN_FLAGS); k++)
        if (RUN_FLAGS[k].arg && strlen(RUN_FLAGS[k].name) == len && strncmp(RUN_FLAGS[k].name, name, len) == 0)
            return 1;
    return 0;
}

/* ---- the usage, from the table ---- */

static const char *const USAGE_HEAD[3] = {
    [MODE_BENCH] =
        "usage: climb bench <workload|all> [options]\n"
        "\n"
        "For every type, shape and option combination: fresh random inputs (or the named file) and a reference;\n"
        "then for each rung: output poisoned, one run verified, then warm-up and timed samples (CUDA events; median,\n"
        "min and noise), and the last timed output verified again. Operands a rung changes are reset, untimed,\n"
        "before every run. Device ceilings are measured first, for the roofline.\n",
    [MODE_TUNE] =
        "usage: climb tune <workload|all> [options]\n"
        "\n"
        "Experiment mode: every candidate of the best rung's tunable parameters (see 'climb list <workload>') is run\n"
        "on this GPU, verified against the reference, and timed like 'climb bench' on each case. The fastest overall\n"
        "(geometric mean over the cases of time relative to the fastest) wins and is saved to the wisdom file, keyed\n"
        "by GPU name, compute capability, driver and climb version, where 'climb bench' and the C API find it.\n"
        "Nothing is saved if any candidate gave a wrong result.\n",
    [MODE_CHECK] =
        "usage: climb check <workload|all> [options]\n"
        "\n"
        "Correctness only: every rung over the workload's edge-size sweep (0, 1, odd sizes, powers of two and\n"
        "their neighbours, sizes that are not multiples of any tile), with misaligned inputs for small sizes, each\n"
        "run twice from poisoned outputs and compared element by element with the reference.\n",
};

static const char *const USAGE_TAIL[3] = {
    [MODE_BENCH] =
        "Repeats: --rung, --size, --type, --input and --set of another option add values; the same value twice, or\n"
        "an option that takes one value (--json, --seed, ...) twice, is an error.\n"
        "Report paths are checked before any GPU work (a path that cannot be written is refused, exit 2); every\n"
        "report named is written even if another cannot be.\n"
        "\n"
        "Exit status: 0 all rungs verified, 1 a rung was wrong or a CUDA call failed, 2 bad usage or a bad input "
        "file.\n",
    [MODE_TUNE] = "Exit status: 0 tuned, 1 a candidate was wrong or a CUDA call failed, 2 bad usage or a bad input file.\n",
    [MODE_CHECK] = "Exit status: 0 every run right, 1 any failure, 2 bad usage or a bad input file.\n",
};

const char *run_usage(int mode)
{
    static char text[3][12000];
    char *buf = text[mode];
    if (buf[0])
        return buf;
    size_t used = (size_t)snprintf(buf, sizeof text[0], "%s\n", USAGE_HEAD[mode]);
    for (size_t k = 0; k < CLIMB_COUNT(RUN_FLAGS) && used < sizeof text[0]; k++) {
        const run_flag *f = &RUN_FLAGS[k];
        if (!(f->modes >> mode & 1u))
            continue;
        char head[40];
        snprintf(head, sizeof head, "%s%s%s", f->name, f->arg ? " " : "", f->arg ? f->arg : "");
        used += (size_t)snprintf(buf + used, sizeof text[0] - used, "  %-16s ", head);
        for (const char *p = f->help; *p && used + 24 < sizeof text[0]; p++) {
            buf[used++] = *p;
            if (*p == '\n')
                used += (size_t)snprintf(buf + used, sizeof text[0] - used, "%19s", "");
        }
        buf[used++] = '\n';
        buf[used] = '\0';
    }
    if (used < sizeof text[0])
        snprintf(buf + used, sizeof text[0] - used, "\n%s", USAGE_TAIL[mode]);
    return buf;
}

/* argv with every --name=value of a valued option split into --name and value (the value points into the
 * argument). 0, or -1 out of memory. */
static int split_gnu(run_args *a, int argc, char **argv, int *argc2, char ***argv2)
{
    a->split_argv = calloc(2 * (size_t)argc + 1, sizeof *a->split_argv);
    a->owned = calloc((size_t)argc + 1, sizeof *a->owned);
    if (!a->split_argv || !a->owned)
        return -1;
    int n = 0;
    for (int i = 0; i < argc; i++) {
        const char *eq = strncmp(argv[i], "--", 2) == 0 ? strchr(argv[i], '=') : NULL;
        if (i > 0 && eq && takes_value(argv[i], (size_t)(eq - argv[i]))) {
            char *name = strndup(argv[i], (size_t)(eq - argv[i]));
            if (!name)
                return -1;
            a->owned[a->n_owned++] = name;
            a->split_argv[n++] = name;
            a->split_argv[n++] = (char *)eq + 1;
        } else {
            a->split_argv[n++] = argv[i];
        }
    }
    *argc2 = n;
    *argv2 = a->split_argv;
    return 0;
}

/* "--help" anywhere: the command's usage, then each workload named beside it in full. */
static int print_help(const char *usage, int argc, char **argv)
{
    fputs(usage, stdout);
    for (int i = 1; i < argc; i++) {
        const climb_workload *w = argv[i][0] != '-' ? climb_find_workload(argv[i]) : NULL;
        if (w) {
            printf("\n");
            print_workload(w, stdout);
        }
    }
    return 0;
}

/* Applies "NAME=V" or "W.NAME=V" to the plans of the targets it names. 0, or a usage error. */
static int apply_set(run_args *a, const char *text)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text)
        return usage_msg("--set '%s': write NAME=VALUE (see the options in 'climb list <workload>')", text);
    char name[128];
    size_t n = (size_t)(eq - text);
    if (n >= sizeof name)
        return usage_msg("--set: the name in '%.40s...' is too long", text);
    memcpy(name, text, n);
    name[n] = '\0';
    const char *opt = name, *only = NULL;
    char *dot = strchr(name, '.');
    if (dot) {
        *dot = '\0';
        only = name;
        opt = dot + 1;
    }
    int applied = 0;
    for (int t = 0; t < a->n_targets; t++) {
        const climb_workload *w = a->targets[t];
        if (only && strcmp(only, w->name) != 0)
            continue;
        int k = climb_opt_find(w->options, w->n_options, opt);
        if (k < 0)
            continue;
        char err[600];
        if (k < 32 && (a->set_opts[t] >> k & 1u))
            return usage_msg("--set %s given twice (for %s): list its values in one, %s=a,b", opt, w->name, opt);
        if (climb_opt_plan_set(&a->plans[t], k, eq + 1, 0, err, sizeof err) != 0)
            return usage_msg("--set %s: %s", w->name, err);
        if (k < 32)
            a->set_opts[t] |= 1u << k;
        applied++;
    }
    if (applied)
        return 0;
    if (only) {
        const climb_workload *w = NULL;
        for (int t = 0; t < a->n_targets; t++)
            if (strcmp(a->targets[t]->name, only) == 0)
                w = a->targets[t];
        if (!w)
            return usage_msg("--set %s: no workload '%s' in this run", text, only);
    }
    if (a->n_targets == 1 || only) {
        const climb_workload *w = a->targets[0];
        for (int t = 0; only && t < a->n_targets; t++)
            if (strcmp(a->targets[t]->name, only) == 0)
                w = a->targets[t];
        if (w->n_options == 0)
            return usage_msg("--set %s: %s has no options", text, w->name);
        char list[400];
        size_t used = 0;
        list[0] = '\0';
        for (int k = 0; k < w->n_options && used < sizeof list; k++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", w->options[k].name);
        return usage_msg("--set %s: %s has no option '%s' (its options: %s)", text, w->name, opt, list);
    }
    return usage_msg("--set %s: no workload in this run has an option '%s'", text, opt);
}

/* --input FILE: one more file for the one target's FILE option. 0, or a usage error. */
static int by_name(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* 1 when name ends in one of the space-separated endings. */
static int has_suffix(const char *name, const char *suffixes)
{
    const size_t n = strlen(name);
    for (const char *q = suffixes; *q;) {
        const size_t len = strcspn(q, " ");
        if (len > 0 && len < n && strncmp(name + n - len, q, len) == 0)
            return 1;
        q += len + (q[len] == ' ');
    }
    return 0;
}

/* --input FOLDER: each regular file in it whose name ends in one of the option's suffixes, in name order, a case
 * each. A folder with none is an error, as is a workload whose files cannot be told apart by name. */
static int apply_input_folder(run_args *a, int k, const char *path)
{
    const climb_workload *w = a->targets[0];
    const char *suffixes = w->options[k].suffixes;
    if (!suffixes)
        return usage_msg("--input %s: a folder; %s reads one file a case: name the files", path, w->name);
    DIR *d = opendir(path);
    if (!d)
        return usage_msg("--input %s: %s", path, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.' || !has_suffix(e->d_name, suffixes))
            continue;
        char full[4096];
        struct stat st;
        if (snprintf(full, sizeof full, "%s/%s", path, e->d_name) >= (int)sizeof full || stat(full, &st) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                climb_host_oom("a folder's file names");
                rc = EXIT_FAILED;
                break;
            }
            names = nn;
        }
        if (!(names[n] = strdup(full))) {
            climb_host_oom("a folder's file names");
            rc = EXIT_FAILED;
            break;
        }
        n++;
    }
    closedir(d);
    if (rc == 0 && n == 0)
        rc = usage_msg("--input %s: no file ending in %s in this folder", path, suffixes);
    if (rc == 0)
        qsort(names, n, sizeof *names, by_name);
    char err[600];
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (climb_opt_plan_set(&a->plans[0], k, names[i], 1, err, sizeof err) != 0)
            rc = usage_msg("--input: %s", err);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

static int apply_input(run_args *a, const char *path)
{
    if (a->n_targets != 1)
        return usage_msg("--input %s: name one workload, not 'all' (each reads its own kind of file)", path);
    const climb_workload *w = a->targets[0];
    int k = -1, files = 0;
    for (int i = 0; i < w->n_options; i++)
        if (w->options[i].kind == CLIMB_OPT_FILE) {
            k = i;
            files++;
        }
    if (files == 0)
        return usage_msg("--input %s: %s reads no input file (it makes its own inputs)", path, w->name);
    if (files > 1)
        return usage_msg("--input %s: %s reads several files: use --set NAME=FILE", path, w->name);
    char err[600];
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return apply_input_folder(a, k, path);
    if (climb_opt_plan_set(&a->plans[0], k, path, 1, err, sizeof err) != 0)
        return usage_msg("--input: %s", err);
    return 0;
}

/* Reads every file the plans name (before any GPU work): a bad file is "file:line: what is wrong", exit 2. */
static int load_inputs(run_args *a)
{
    for (int t = 0; t < a->n_targets; t++) {
        const climb_workload *w = a->targets[t];
        climb_opt_plan *p = &a->plans[t];
        for (int k = 0; k < p->n; k++) {
            if (w->options[k].kind != CLIMB_OPT_FILE)
                continue;
            for (int j = 0; j < p->count[k]; j++) {
                climb_opt_value *v = &p->values[k][j];
                if (!v->text[0] || v->data)
                    continue;
                char desc[400] = "", err[800] = "";
                climb_shape shape = {0, {0, 0, 0, 0}};
                const int peek = a->dry_run && w->peek; /* a dry run reads only what the listing needs */
                if (peek ? w->peek(v->text, &shape, desc, sizeof desc, err, sizeof err) != 0
                         : w->load(v->text, &v->data, &shape, desc, sizeof desc, err, sizeof err) != 0) {
                    fprintf(stderr, "climb: %s\n", err[0] ? err : "the input file could not be read");
                    return EXIT_USAGE;
                }
                v->shape = shape;
                v->desc = strdup(desc);
                if (shape.ndims > 0 && shape.ndims != climb_workload_ndims(w)) {
                    fprintf(stderr, "climb: %s: the loader gave a shape of %d sizes for %s\n", v->text, shape.ndims,
                            w->name);
                    return EXIT_FAILED;
                }
                if (shape.ndims > 0 && a->run.size_class)
                    return usage_msg("--size-class cannot go with %s: the file gives the shape", v->text);
                if (shape.ndims > 0 && a->run.n_shapes > 0)
                    return a->sweep ? usage_msg("--sweep %s runs its own sizes, which cannot go with %s: the file "
                                                "gives the shape", a->sweep, v->text)
                                    : usage_msg("--size cannot go with %s: the file gives the shape", v->text);
            }
        }
    }
    return 0;
}

static int parse_ref_mode(const char *s, climb_ref_mode *m)
{
    for (int i = CLIMB_REF_AUTO; i <= CLIMB_REF_SAMPLES; i++)
        if (strcmp(s, climb_ref_mode_name((climb_ref_mode)i)) == 0) {
            *m = (climb_ref_mode)i;
            return 0;
        }
    return -1;
}

int run_args_child_argv(const run_args *a, const char *argv0, const climb_workload *w, const char *opt,
                        const char *const *extra, int n_extra, char ***out)
{
    static const char *const dropped[] = {"--json", "--csv", "--md", "--out", "--output", "--sweep", "--seed"};
    int n = 0;
    while (a->split_argv && a->split_argv[n])
        n++;
    char **v = calloc((size_t)(n + n_extra + 4), sizeof *v);
    if (!v)
        return -1;
    int m = 0;
    v[m++] = (char *)argv0;
    v[m++] = (char *)"bench";
    v[m++] = (char *)w->name;
    const size_t olen = strlen(opt), wlen = strlen(w->name);
    for (int i = 1; i < n; i++) { /* [0] is the command */
        const char *x = a->split_argv[i];
        const run_flag *f = find_flag(x, MODE_BENCH);
        if (!f) {
            if (x[0] != '-') /* the workload named (or 'all'): the child's is named above */
                continue;
            v[m++] = (char *)x;
            continue;
        }
        const char *val = f->arg && i + 1 < n ? a->split_argv[i + 1] : NULL;
        int drop = 0;
        for (size_t k = 0; k < sizeof dropped / sizeof dropped[0]; k++)
            drop |= strcmp(f->name, dropped[k]) == 0;
        if (!drop && val && strcmp(f->name, "--set") == 0) {
            const char *eq = strchr(val, '='), *dot = strchr(val, '.');
            const char *name = val;
            if (dot && eq && dot < eq) { /* W.NAME=V: another workload's is not the child's */
                drop = (size_t)(dot - val) != wlen || strncmp(val, w->name, wlen) != 0;
                name = dot + 1;
            }
            drop |= eq && (size_t)(eq - name) == olen && strncmp(name, opt, olen) == 0;
        }
        if (!drop) {
            v[m++] = (char *)x;
            if (val)
                v[m++] = (char *)val;
        }
        i += val ? 1 : 0;
    }
    for (int k = 0; k < n_extra; k++)
        v[m++] = (char *)extra[k];
    v[m] = NULL;
    *out = v;
    return 0;
}

int parse_run_args(int argc, char **argv, int mode, run_args *a)
{
    const char *usage = run_usage(mode);
    const int bench = mode == MODE_BENCH;
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++)
        if (is_help(argv[i]))
            exit(print_help(usage, argc, argv));
    if (split_gnu(a, argc, argv, &argc, &argv) != 0) {
        climb_host_oom("the command line's arguments");
        return EXIT_FAILED;
    }
    /* argc bounds every list: no caps. */
    a->rungs = calloc((size_t)argc, sizeof *a->rungs);
    a->shapes = calloc((size_t)argc, sizeof *a->shapes);
    a->sets = calloc((size_t)argc, sizeof *a->sets);
    a->inputs = calloc((size_t)argc, sizeof *a->inputs);
    if (!a->rungs || !a->shapes || !a->sets || !a->inputs) {
        climb_host_oom("the command line's arguments");
        return EXIT_FAILED;
    }
    a->run.timing = climb_timing_defaults();
    a->run.progress = 1;
    a->measure = mode == MODE_BENCH;
    a->run.bench_types = mode == MODE_BENCH || mode == MODE_TUNE;
    const char *target = NULL;
    /* One rule for repeats, the table's: a list option adds values (its apply refuses the same value twice), a
     * one-value option given twice is an error. */
    int seen[CLIMB_COUNT(RUN_FLAGS)] = {0};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const run_flag *f = find_flag(o, mode);
        if (f && (!f->arg || i + 1 < argc)) {
            if (f->repeat == REPEAT_ONCE && seen[f - RUN_FLAGS]++)
                return usage_msg("%s given twice%s", f->name, f->arg ? ": it takes one value" : "");
            const int rc = f->apply(a, f->arg ? argv[++i] : NULL, usage);
            if (rc)
                return rc;
        } else if (o[0] == '-' && o[1] != '\0') {
            return usage_error(usage, "unknown or incomplete option '%s'", o);
        } else if (target) {
            return usage_error(usage, "one workload (or 'all') only; '%s' is extra", o);
        } else {
            target = o;
        }
    }
    a->run.rungs = a->rungs;
    a->run.shapes = a->shapes;
    if (a->full && a->profile)
        return usage_msg("--full and --profile: one or the other (--profile runs each rung once)");
    if (a->profile && a->sampling_set)
        return usage_msg("--profile runs each rung once: not with --batch, --min-samples, --max-time or --max-noise");
    if (a->run.timing.max_noise_pct > 0 && !a->max_time_set)
        a->run.timing.max_wall_s = 10; /* the noise target's time limit: nvbench's is 15 s */
    if (a->run.timing.max_noise_pct > 0 && a->run.timing.max_samples < 1000000)
        a->run.timing.max_samples = 1000000; /* with a target, the noise and the time limit end sampling, not a count */
    if (a->profile) { /* one warm-up, one run: what a profiler wants to see, and nothing else */
        a->run.timing.warmup = 1;
        a->run.timing.min_samples = a->run.timing.max_samples = 1;
        a->run.timing.min_gpu_s = 0;
        a->measure = 0;
    }
    if (!target)
        return usage_error(usage, "which workload? name one or 'all' (run 'climb list')%s", "");
    int n;
    const climb_workload *const *all = climb_workloads(&n);
    a->targets = calloc((size_t)n + 1, sizeof *a->targets);
    a->plans = calloc((size_t)n + 1, sizeof *a->plans);
    a->set_opts = calloc((size_t)n + 1, sizeof *a->set_opts);
    if (!a->targets || !a->plans || !a->set_opts) {
        climb_host_oom("the list of workloads");
        return EXIT_FAILED;
    }
    if (bench && a->full && a->run.quick)
        return usage_msg("--full and --quick: one or the other");
    if (a->run.size_class && a->run.n_shapes > 0)
        return usage_msg("--size-class and --size: one or the other (a class is a set of sizes)");
    if (a->run.size_class && a->run.quick)
        return usage_msg("--size-class and --quick: one or the other (--quick runs the main sizes, class M)");
    if (a->run.size_class && a->sweep)
        return usage_msg("--size-class and --sweep: one or the other (a sweep runs its own sizes)");
    if (bench && strcmp(target, "all") == 0 && !a->full && !a->profile && !a->sampling_set)
        a->run.quick = 1; /* bench all, the main command: a quick run */
    if (a->out && (a->json || a->csv || a->md))
        return usage_msg("--out writes bench.json and bench.md in its folder: not with --json, --csv or --md");
    if (a->out && a->profile)
        return usage_msg("--out and --profile: one or the other (--profile runs each rung once, for a profiler)");
    /* the main command keeps what it measured: its reports, a page and a summary in a folder of its own */
    if (bench && strcmp(target, "all") == 0 && a->run.quick && !a->out && !a->json && !a->csv && !a->md &&
        !a->profile && !a->sweep)
        a->out_auto = 1;
    if (bench && a->run.quick && !a->profile && !a->sampling_set) {
        /* the quick run: each workload's main size class, fewer samples, and rungs too slow to sample said so */
        a->run.timing.min_samples = 5;
        a->run.timing.max_samples = 20;
        a->run.timing.min_gpu_s = 0.01;
        a->run.timing.max_wall_s = 0.05;
        a->run.timing.budget_s = 0.25;
    }
    if (strcmp(target, "all") == 0) {
        for (int i = 0; i < n; i++)
            if (mode != MODE_TUNE || all[i]->tuning)
                a->targets[a->n_targets++] = all[i];
    } else {
        const climb_workload *w = climb_find_workload(target);
        if (!w)
            return usage_error(usage, "unknown workload '%s' (run 'climb list')", target);
        if (mode == MODE_TUNE && !w->tuning)
            return usage_error(usage, "%s has no tunable parameters", target);
        a->targets[a->n_targets++] = w;
    }
    if (a->gpus && a->devset.n)
        return usage_msg("--gpus and --devices: one or the other");
    if (a->device_given && (a->gpus || a->devset.n))
        return usage_msg("--device names a one-GPU run's GPU, --gpus and --devices the GPUs of a workload that spans "
                         "several: not together");
    const int asked = a->gpus ? a->gpus : a->devset.n;
    if (a->n_targets == 1 && asked > 1 && !climb_spans_devices(a->targets[0]))
        return usage_msg("%s runs on one GPU: --gpus and --devices choose the GPUs of a workload that spans several "
                         "('climb list' says which)", a->targets[0]->name);
    if (a->n_targets == 1 && asked && climb_spans_devices(a->targets[0]) &&
        (asked < a->targets[0]->min_devices || asked > a->targets[0]->max_devices))
        return usage_msg("%s spans %d to %d GPUs, not %d", a->targets[0]->name, a->targets[0]->min_devices,
                         a->targets[0]->max_devices, asked);
    if (a->devset.n)
        a->device = a->devset.id[0]; /* the run's device: the first of the set */
    for (int t = 0; t < a->n_targets; t++) {
        char err[400];
        const climb_workload *w = a->targets[t];
        if (climb_opt_plan_init(&a->plans[t], w->options, w->n_options, err, sizeof err) != 0) {
            fprintf(stderr, "climb: %s: a default does not parse: %s\n", w->name, err);
            return EXIT_FAILED;
        }
        for (int k = 0; k < w->n_options; k++) { /* --set, later, replaces these */
            const char *d = mode == MODE_CHECK ? w->options[k].check_def
                            : mode == MODE_TUNE ? w->options[k].tune_def
                                                : NULL;
            if (d && w->options[k].kind != CLIMB_OPT_FILE &&
                climb_opt_plan_set(&a->plans[t], k, d, 0, err, sizeof err) != 0) {
                fprintf(stderr, "climb: %s: a %s default does not parse: %s\n", w->name,
                        mode == MODE_CHECK ? "check" : "tune", err);
                return EXIT_FAILED;
            }
        }
    }
    /* no two reports to one file, stdout included ('-'): o/x, ./o/x and o/../o/x are one file */
    {
        const char *outs[4] = {a->json, a->csv, a->md, a->run.output};
        const char *flags[4] = {"--json", "--csv", "--md", "--output"};
        for (int i = 0; i < 4; i++)
            for (int j = i + 1; j < 4; j++)
                if (outs[i] && outs[j] && same_output(outs[i], outs[j]))
                    return usage_msg("%s and %s cannot both go to %s: one report a file", flags[i], flags[j],
                                     strcmp(outs[i], "-") == 0 ? "stdout" : outs[i]);
    }
    /* --output: a workload whose outputs are written as a file (its save hook), one of them */
    for (int t = 0; a->run.output && t < a->n_targets; t++)
        if (!a->targets[t]->save || a->n_targets > 1)
            return usage_msg("--output %s: %s", a->run.output,
                             a->n_targets > 1 ? "one workload's output is written; name one, not 'all'"
                                              : "this workload writes no output file (conv and dcs do)");
    /* Every --rung must name a rung of some target; every --type one some target has; every --size must have as
     * many sizes as each target has dims. */
    for (int k = 0; k < a->run.n_rungs; k++) {
        int found = 0;
        for (int t = 0; t < a->n_targets; t++)
            found |= climb_find_rung(a->targets[t], a->rungs[k]) >= 0;
        if (!found)
            return usage_error(usage, "unknown rung '%s' (run 'climb list <workload>')", a->rungs[k]);
    }
    for (int ti = 0; ti < CLIMB_NTYPES; ti++) {
        if (!(a->run.types & CLIMB_TYPE_BIT(ti)))
            continue;
        int found = 0;
        for (int t = 0; t < a->n_targets; t++)
            found |= (a->targets[t]->types & CLIMB_TYPE_BIT(ti)) != 0;
        if (!found) {
            char have[128];
            climb_dtype_list(a->targets[0]->types, have, sizeof have);
            if (a->n_targets == 1)
                return usage_msg("--type %s: %s has no %s (its types: %s)", climb_dtype_name((climb_dtype)ti),
                                 a->targets[0]->name, climb_dtype_name((climb_dtype)ti), have);
            return usage_msg("--type %s: no workload in this run has it", climb_dtype_name((climb_dtype)ti));
        }
    }
    for (int s = 0; s < a->run.n_shapes; s++)
        for (int t = 0; t < a->n_targets; t++) {
            const climb_workload *w = a->targets[t];
            int nd = climb_workload_ndims(w);
            if (a->shapes[s].ndims != nd) {
                char dims[128], label[128];
                climb_workload_dims(w, dims, sizeof dims);
                climb_shape_label(&a->shapes[s], label, sizeof label);
                return usage_msg("--size %s: %s takes %d size%s (%s), this has %d%s", label, w->name, nd,
                                 nd == 1 ? "" : "s", dims, a->shapes[s].ndims,
                                 a->n_targets > 1 ? " (with 'all', every size must fit every workload)" : "");
            }
        }
    for (int k = 0; k < a->n_sets; k++) {
        int rc = apply_set(a, a->sets[k]);
        if (rc)
            return rc;
    }
    for (int k = 0; k < a->n_inputs; k++) {
        int rc = apply_input(a, a->inputs[k]);
        if (rc)
            return rc;
    }
    /* An option that shapes generated inputs does nothing to a file's case: setting it with --input is an error,
     * not a silent no-op. */
    for (int t = 0; t < a->n_targets; t++) {
        const climb_workload *w = a->targets[t];
        int file = 0;
        for (int k = 0; k < w->n_options; k++)
            if (w->options[k].kind == CLIMB_OPT_FILE && a->plans[t].count[k] > 0 && a->plans[t].values[k][0].text &&
                a->plans[t].values[k][0].text[0])
                file = 1;
        for (int k = 0; file && k < w->n_options && k < 32; k++)
            if (w->options[k].generator && (a->set_opts[t] >> k & 1u)) {
                if (a->sweep)
                    return usage_msg("--sweep %s sets %s, an option of generated inputs: it cannot go with --input",
                                     a->sweep, w->options[k].name);
                return usage_msg("--set %s: %s's option %s shapes generated inputs; with --input it has no effect",
                                 w->options[k].name, w->name, w->options[k].name);
            }
    }
    int rc = load_inputs(a);
    if (rc)
        return rc;
    /* Every report path before any GPU work: each one that cannot be written is said, with why. */
    /* tune writes its winner to --wisdom FILE unless --no-save: that path too */
    const char *saved = mode == MODE_TUNE && !a->no_wisdom ? a->wisdom : NULL;
    const char *outs[5] = {a->json, a->csv, a->md, a->run.output, saved};
    for (int k = 0; k < 5; k++) {
        char err[200];
        if (outs[k] && climb_report_path_ok(outs[k], err, sizeof err) != 0) {
            fprintf(stderr, "climb: cannot write %s: %s\n", outs[k], err);
            rc = EXIT_USAGE;
        }
    }
    /* --out DIR is made now (a dry run only checks it); the main command's own folder is named once the GPU is */
    char err[300];
    if (a->out && bench_out_check(a->out, !a->dry_run, err, sizeof err) != 0) {
        fprintf(stderr, "climb: --out %s: cannot write there: %s\n", a->out, err);
        rc = EXIT_USAGE;
    }
    if (a->out_auto && bench_out_check("climb-bench", 0, err, sizeof err) != 0) {
        fprintf(stderr, "climb: cannot write the main command's reports under climb-bench/: %s (name a folder with "
                        "--out DIR)\n", err);
        rc = EXIT_USAGE;
    }
    if (rc)
        return rc;
    if (!a->seed_given)
        a->run.seed = climb_fresh_seed();
    return 0;
}
