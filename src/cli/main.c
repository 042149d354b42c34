/* climb: the command-line face. Every argument is checked before the GPU is touched; usage errors
 * exit 2, failed checks and CUDA errors exit 1. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/build_info.h"
#include "../core/device.h"
#include "../core/harness.h"
#include "../core/report.h"
#include "../core/rng.h"
#include "../core/tune.h"
#include "../core/wisdom.h"
#include "climb.h"
#include "../core/workload.h"

#include "cli.h"

static const char *const MAIN_USAGE =
    "usage: climb <command> [options]\n"
    "\n"
    "climb builds each classic GPU workload as a ladder of kernels, from the textbook version to one at the\n"
    "hardware limit, and verifies and measures every rung on this GPU.\n"
    "\n"
    "commands:\n"
    "  devices               device facts and measured ceilings (copy, read, FFMA, launch latency)\n"
    "  list [workload]       workloads and their rungs\n"
    "  bench <workload|all>  verify, then time, every rung; write table, JSON, CSV, markdown\n"
    "  check <workload|all>  correctness only, every rung over an edge-size sweep\n"
    "  tune <workload|all>   experiment mode: time every candidate of the best rung's parameters, save the\n"
    "                        fastest as wisdom that bench and the C API then use\n"
    "  occupancy             the occupancy calculator; physical limits; registry kernels vs the runtime\n"
    "  version               version, commit and CUDA architectures of this build\n"
    "\n"
    "Run 'climb <command> --help' for a command's options.\n";

static const char *const DEVICES_USAGE =
    "usage: climb devices [--device N] [--no-measure] [--json FILE]\n"
    "\n"
    "Prints each device's facts (name, compute capability, SMs, clocks, memory bus, L2, shared memory and\n"
    "registers per SM), its theoretical memory bandwidth and FP32 FFMA peak, and the ceilings measured now:\n"
    "device copy bandwidth (bytes read + written), read-only bandwidth, FFMA throughput, launch latency.\n"
    "\n"
    "  --device N     only device N (default: every device)\n"
    "  --no-measure   facts only, no measurement\n"
    "  --json FILE    also write JSON to FILE ('-' for stdout)\n";

static const char *const LIST_USAGE =
    "usage: climb list [workload]\n"
    "\n"
    "Lists the workloads, or one workload's rungs in ladder order (rung 0 is the vendor library).\n";

static const char *const BENCH_USAGE =
    "usage: climb bench <workload|all> [options]\n"
    "\n"
    "For every type and size: fresh random inputs and a CPU reference; then for each rung: output poisoned,\n"
    "one run verified, then warm-up and timed samples (CUDA events; median, min and noise), and the last\n"
    "timed output verified again. Device ceilings are measured first.\n"
    "\n"
    "  --rung NAME      run only this rung (repeatable; see 'climb list <workload>')\n"
    "  --size N         problem size, e.g. 4194304 or 2^22 (repeatable; default: the workload's sizes)\n"
    "  --type T         i32 or f32 (repeatable; default: every type the workload has)\n"
    "  --seed S         input seed (default: a fresh one, printed)\n"
    "  --batch          time back-to-back launches with a warm L2 instead of one cold launch per sample\n"
    "  --min-samples N  at least N samples per measurement (default 20)\n"
    "  --max-time S     at most S seconds of sampling per measurement (default 1)\n"
    "  --no-ceilings    skip measuring the device ceilings (no % of ceiling column)\n"
    "  --device N       CUDA device (default 0)\n"
    "  --json FILE      write the report as JSON ('-' for stdout); likewise --csv FILE, --md FILE\n"
    "  --wisdom FILE    tuned parameters from FILE (default: $CLIMB_WISDOM, else $XDG_CONFIG_HOME/climb/wisdom.json,\n"
    "                   else ~/.config/climb/wisdom.json); a missing, foreign, stale or corrupt file gives the\n"
    "                   built-in per-architecture defaults (with a warning for the last three)\n"
    "  --no-wisdom      the built-in defaults, whatever wisdom there is\n"
    "  --quiet          no progress on stderr\n"
    "\n"
    "Exit status: 0 all rungs verified, 1 a rung was wrong or a CUDA call failed, 2 bad usage.\n";

static const char *const TUNE_USAGE =
    "usage: climb tune <workload|all> [options]\n"
    "\n"
    "Experiment mode: every candidate combination of the best rung's tunable parameters (see 'climb list\n"
    "<workload>') is run on this GPU, verified against the CPU reference, and timed like 'climb bench' on each\n"
    "type and size. The fastest overall (geometric mean over the cases of time relative to the fastest) wins\n"
    "and is saved to the wisdom file, keyed by GPU name, compute capability, driver and climb version, where\n"
    "'climb bench' and the C API find it. Nothing is saved if any candidate gave a wrong result.\n"
    "\n"
    "  --size N         problem size (repeatable; default: the workload's bench sizes)\n"
    "  --type T         i32 or f32 (repeatable; default: every type)\n"
    "  --seed S         input seed (default: a fresh one, printed)\n"
    "  --batch          time back-to-back launches with a warm L2 (default: cold, L2 flushed per sample)\n"
    "  --min-samples N  at least N samples per measurement (default 20)\n"
    "  --max-time S     at most S seconds of sampling per measurement (default 1)\n"
    "  --wisdom FILE    where to save (default as for bench)\n"
    "  --no-save        report only, save nothing\n"
    "  --device N       CUDA device (default 0)\n"
    "  --json FILE      every candidate's figures as JSON ('-' for stdout); --md FILE as markdown\n"
    "  --quiet          no progress on stderr\n"
    "\n"
    "Exit status: 0 tuned, 1 a candidate was wrong or a CUDA call failed, 2 bad usage.\n";

static const char *const CHECK_USAGE =
    "usage: climb check <workload|all> [options]\n"
    "\n"
    "Correctness only: every rung over the workload's edge-size sweep (0, 1, odd sizes, powers of two and\n"
    "their neighbours, sizes that are not multiples of any tile), with misaligned inputs for small sizes, each\n"
    "run twice from poisoned outputs and compared element by element with a CPU reference.\n"
    "\n"
    "  --rung NAME   only this rung (repeatable)\n"
    "  --size N      only this size (repeatable)\n"
    "  --type T      i32 or f32 (repeatable)\n"
    "  --seed S      input seed (default: a fresh one, printed)\n"
    "  --wisdom FILE, --no-wisdom  the best rung's tuned parameters, as for bench\n"
    "  --device N    CUDA device (default 0)\n"
    "  --quiet       no progress on stderr\n"
    "\n"
    "Exit status: 0 every run right, 1 any failure, 2 bad usage.\n";

int usage_error(const char *usage, const char *fmt, const char *arg)
{
    fprintf(stderr, "climb: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n\n%s", usage);
    return EXIT_USAGE;
}

int is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0; }

/* Sizes: a decimal count, or 2^K. */
int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    if (strncmp(s, "2^", 2) == 0) {
        long k = strtol(s + 2, &end, 10);
        if (errno || *end || end == s + 2 || k < 0 || k > 62)
            return -1;
        *out = (size_t)1 << k;
        return 0;
    }
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = (size_t)v;
    return 0;
}

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

/* ---- list ---- */

static void list_workload(const climb_workload *w)
{
    printf("%s: %s\n  from: %s\n  %s; rate judged against the measured %s ceiling\n  types:", w->name, w->title,
           w->seed_ref, w->bytes_counted, climb_ceiling_name(w->ceiling));
    for (int t = 0; t < CLIMB_NTYPES; t++)
        if (w->types & CLIMB_TYPE_BIT(t))
            printf(" %s", climb_dtype_name((climb_dtype)t));
    printf("\n  default sizes:");
    for (int i = 0; i < w->n_bench_sizes; i++)
        printf(" %zu", w->bench_sizes[i]);
    printf("\n\n  %2s  %-32s %s\n", "#", "rung", "idea");
    for (int i = 0; i < w->n_rungs; i++) {
        const climb_rung_info *r = w->rung(i);
        printf("  %2d  %-32s %s%s%s\n", i, r->name, r->idea, r->needs[0] ? "; needs " : "", r->needs);
    }
    if (w->tuning) {
        const climb_tuning *tn = w->tuning;
        printf("\n  tunable parameters of rung %d (climb tune %s):\n", tn->rung, w->name);
        for (int k = 0; k < tn->n_params; k++) {
            printf("    %-14s %-36s", tn->params[k].name, tn->params[k].meaning);
            for (int j = 0; j < tn->params[k].n_values; j++)
                printf("%s%d", j ? ", " : "", tn->params[k].values[j]);
            putchar('\n');
        }
    }
}

static int cmd_list(int argc, char **argv)
{
    if (argc > 1 && is_help(argv[1])) {
        fputs(LIST_USAGE, stdout);
        return 0;
    }
    if (argc > 2)
        return usage_error(LIST_USAGE, "list takes at most one workload, got '%s'", argv[2]);
    int n;
    const climb_workload *const *all = climb_workloads(&n);
    if (argc == 2) {
        const climb_workload *w = climb_find_workload(argv[1]);
        if (!w)
            return usage_error(LIST_USAGE, "unknown workload '%s' (run 'climb list')", argv[1]);
        list_workload(w);
        return 0;
    }
    for (int i = 0; i < n; i++)
        printf("%-10s %2d rungs  %s\n", all[i]->name, all[i]->n_rungs, all[i]->title);
    return 0;
}

/* ---- devices ---- */

static void print_device(FILE *f, const climb_device_info *d)
{
    fprintf(f, "device %d: %s\n", d->ordinal, d->name);
    char slug[128];
    climb_device_slug(d->name, slug, sizeof slug);
    fprintf(f, "  results folder       results/%s\n", slug);
    fprintf(f, "  compute capability   %d.%d\n", d->cc_major, d->cc_minor);
    fprintf(f, "  SMs                  %d (%d FP32 lanes each)\n", d->sms, d->fp32_lanes_per_sm);
    fprintf(f, "  SM clock (peak)      %d MHz\n", d->sm_clock_khz / 1000);
    fprintf(f, "  memory               %.1f GiB, %d-bit bus, %d MHz\n", d->global_mem_bytes / 1073741824.0,
           d->bus_width_bits, d->mem_clock_khz / 1000);
    fprintf(f, "  L2                   %d KiB\n", d->l2_bytes >> 10);
    fprintf(f, "  shared memory        %zu KiB per SM, %zu KiB per block (opt-in)\n", d->smem_per_sm >> 10,
           d->smem_per_block_optin >> 10);
    fprintf(f, "  registers            %d per SM; %d threads, %d blocks per SM at most\n", d->regs_per_sm,
           d->max_threads_per_sm, d->max_blocks_per_sm);
    fprintf(f, "  driver / runtime     %d.%d / %d.%d\n", d->driver_version / 1000, (d->driver_version % 1000) / 10,
           d->runtime_version / 1000, (d->runtime_version % 1000) / 10);
    fprintf(f, "  theoretical          %.0f GB/s memory, %.0f GFLOP/s FP32 FFMA\n", d->peak_bw_gbs, d->peak_ffma_gflops);
    if (d->measured) {
        fprintf(f, "  measured copy        %.0f GB/s (bytes read + written; %.1f%% of theoretical)\n", d->copy_gbs,
               100 * d->copy_gbs / d->peak_bw_gbs);
        fprintf(f, "  measured read        %.0f GB/s (bytes read; %.1f%% of theoretical)\n", d->read_gbs,
               100 * d->read_gbs / d->peak_bw_gbs);
        fprintf(f, "  measured FFMA        %.0f GFLOP/s (%.1f%% of theoretical)\n", d->ffma_gflops,
               100 * d->ffma_gflops / d->peak_ffma_gflops);
        fprintf(f, "  launch latency       %.2f us (empty kernel, event to event)\n", d->launch_us);
    }
}

int open_device(int ordinal, climb_device_info *d, int measure)
{
    char why[256];
    int n = climb_device_count(why, sizeof why);
    if (n == 0) {
        fprintf(stderr, "climb: %s\n", why);
        return -1;
    }
    if (ordinal >= n) {
        fprintf(stderr, "climb: no device %d (this machine has %d)\n", ordinal, n);
        return -1;
    }
    if (climb_device_query(ordinal, d) != 0)
        return -1;
    if (measure) {
        fprintf(stderr, "[%s] measuring ceilings\n", d->name);
        if (climb_measure_ceilings(d) != 0)
            return -1;
    }
    return 0;
}

static int cmd_devices(int argc, char **argv)
{
    int only = -1, measure = 1;
    const char *json = NULL;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(DEVICES_USAGE, stdout);
            return 0;
        } else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
            if (parse_int(argv[++i], 0, 1023, &only))
                return usage_error(DEVICES_USAGE, "--device: '%s' is not a device ordinal", argv[i]);
        } else if (strcmp(argv[i], "--no-measure") == 0) {
            measure = 0;
        } else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            json = argv[++i];
        } else {
            return usage_error(DEVICES_USAGE, "devices: unknown or incomplete option '%s'", argv[i]);
        }
    }
    char why[256];
    int n = climb_device_count(why, sizeof why);
    if (n == 0) {
        fprintf(stderr, "climb: %s\n", why);
        return EXIT_FAILED;
    }
    if (only >= n) {
        fprintf(stderr, "climb: no device %d (this machine has %d)\n", only, n);
        return EXIT_FAILED;
    }
    FILE *jf = NULL;
    if (json) {
        jf = strcmp(json, "-") == 0 ? stdout : fopen(json, "w");
        if (!jf) {
            fprintf(stderr, "climb: cannot write %s: %s\n", json, strerror(errno));
            return EXIT_FAILED;
        }
        fprintf(jf, "[");
    }
    int rc = 0, first = 1;
    for (int i = 0; i < n; i++) {
        if (only >= 0 && i != only)
            continue;
        climb_device_info d;
        if (open_device(i, &d, measure) != 0) {
            rc = EXIT_FAILED;
            continue;
        }
        print_device(jf == stdout ? stderr : stdout, &d); /* keep stdout pure JSON with --json - */
        if (jf) {
            climb_report r;
            climb_report_init(&r, "devices", 0, 0, &d);
            fprintf(jf, "%s\n", first ? "" : ",");
            climb_report_json(&r, jf);
            climb_report_free(&r);
            first = 0;
        }
    }
    if (jf) {
        fprintf(jf, "]\n");
        if (jf != stdout && fclose(jf) != 0) {
            fprintf(stderr, "climb: error writing %s\n", json);
            rc = EXIT_FAILED;
        }
    }
    return rc;
}

/* ---- bench and check ---- */

enum { MODE_CHECK = 0, MODE_BENCH = 1, MODE_TUNE = 2 };

typedef struct {
    const climb_workload *targets[16];
    int n_targets;
    climb_run_opts run;
    int device;
    int seed_given;
    int measure;
    const char *json, *csv, *md;
    const char *wisdom;   /* --wisdom FILE, else NULL for the default file */
    int no_wisdom;        /* bench/check: --no-wisdom; tune: --no-save */
} run_args;

static int parse_run_args(int argc, char **argv, int mode, run_args *a)
{
    const char *usage = mode == MODE_BENCH ? BENCH_USAGE : mode == MODE_TUNE ? TUNE_USAGE : CHECK_USAGE;
    const int bench = mode == MODE_BENCH, timed = mode != MODE_CHECK;
    memset(a, 0, sizeof *a);
    a->run.timing = climb_timing_defaults();
    a->run.progress = 1;
    a->measure = mode == MODE_BENCH;
    const char *target = NULL;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        int has = i + 1 < argc;
        if (is_help(o)) {
            fputs(usage, stdout);
            exit(0);
        } else if (mode != MODE_TUNE && strcmp(o, "--rung") == 0 && has) {
            if (a->run.n_rungs == CLIMB_MAX_SELECT)
                return usage_error(usage, "too many --rung options (at most 64)%s", "");
            a->run.rungs[a->run.n_rungs++] = argv[++i];
        } else if (strcmp(o, "--size") == 0 && has) {
            if (a->run.n_sizes == CLIMB_MAX_SELECT)
                return usage_error(usage, "too many --size options (at most 64)%s", "");
            if (parse_size(argv[++i], &a->run.sizes[a->run.n_sizes++]))
                return usage_error(usage, "--size: '%s' is not a size (write e.g. 4194304 or 2^22)", argv[i]);
        } else if (strcmp(o, "--type") == 0 && has) {
            climb_dtype t;
            if (climb_dtype_parse(argv[++i], &t))
                return usage_error(usage, "--type: '%s' is not a type (i32 or f32)", argv[i]);
            a->run.types |= CLIMB_TYPE_BIT(t);
        } else if (strcmp(o, "--seed") == 0 && has) {
            if (parse_u64(argv[++i], &a->run.seed))
                return usage_error(usage, "--seed: '%s' is not a non-negative integer", argv[i]);
            a->seed_given = 1;
        } else if (strcmp(o, "--device") == 0 && has) {
            if (parse_int(argv[++i], 0, 1023, &a->device))
                return usage_error(usage, "--device: '%s' is not a device ordinal", argv[i]);
        } else if (strcmp(o, "--quiet") == 0) {
            a->run.progress = 0;
        } else if (strcmp(o, "--wisdom") == 0 && has) {
            a->wisdom = argv[++i];
            if (!a->wisdom[0])
                return usage_error(usage, "--wisdom: an empty file name%s", "");
        } else if ((mode == MODE_TUNE && strcmp(o, "--no-save") == 0) || (mode != MODE_TUNE && strcmp(o, "--no-wisdom") == 0)) {
            a->no_wisdom = 1;
        } else if (timed && strcmp(o, "--batch") == 0) {
            a->run.timing.batch = 1;
        } else if (bench && strcmp(o, "--no-ceilings") == 0) {
            a->measure = 0;
        } else if (timed && strcmp(o, "--min-samples") == 0 && has) {
            if (parse_int(argv[++i], 1, 100000, &a->run.timing.min_samples))
                return usage_error(usage, "--min-samples: '%s' is not a count from 1 to 100000", argv[i]);
            if (a->run.timing.max_samples < a->run.timing.min_samples)
                a->run.timing.max_samples = a->run.timing.min_samples;
        } else if (timed && strcmp(o, "--max-time") == 0 && has) {
            char *end;
            double s = strtod(argv[++i], &end);
            if (*end || end == argv[i] || !(s > 0 && s <= 3600))
                return usage_error(usage, "--max-time: '%s' is not a number of seconds (0 to 3600)", argv[i]);
            a->run.timing.max_wall_s = s;
        } else if (timed && strcmp(o, "--json") == 0 && has) {
            a->json = argv[++i];
        } else if (bench && strcmp(o, "--csv") == 0 && has) {
            a->csv = argv[++i];
        } else if (timed && strcmp(o, "--md") == 0 && has) {
            a->md = argv[++i];
        } else if (o[0] == '-' && o[1] != '\0') {
            return usage_error(usage, "unknown or incomplete option '%s'", o);
        } else if (target) {
            return usage_error(usage, "one workload (or 'all') only; '%s' is extra", o);
        } else {
            target = o;
        }
    }
    if (!target)
        return usage_error(usage, "which workload? name one or 'all' (run 'climb list')%s", "");
    int n;
    const climb_workload *const *all = climb_workloads(&n);
    if (strcmp(target, "all") == 0) {
        for (int i = 0; i < n && i < 16; i++)
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
    if (a->json && a->md && !strcmp(a->json, "-") && !strcmp(a->md, "-"))
        return usage_error(usage, "--json and --md cannot both go to stdout%s", "");
    /* Every --rung must name a rung of some target; every --type must be one some target has. */
    for (int k = 0; k < a->run.n_rungs; k++) {
        int found = 0;
        for (int t = 0; t < a->n_targets; t++)
            found |= climb_find_rung(a->targets[t], a->run.rungs[k]) >= 0;
        if (!found)
            return usage_error(usage, "unknown rung '%s' (run 'climb list <workload>')", a->run.rungs[k]);
    }
    unsigned have = 0;
    for (int t = 0; t < a->n_targets; t++)
        have |= a->targets[t]->types;
    if (a->run.types & ~have)
        return usage_error(usage, "--type: %s has no such type", target);
    if (!a->seed_given)
        a->run.seed = climb_fresh_seed();
    return 0;
}

/* The tuned values w's best rung runs with: the wisdom file's if it matches this device, else the
 * built-in defaults. Says which on stderr (warning for a foreign, stale or corrupt file) and in the report. */
static void resolve_tuning(const climb_workload *w, const run_args *a, const climb_device_info *dev, int *values,
                           climb_report *rep)
{
    const climb_tuning *tn = w->tuning;
    char msg[700], line[900];
    climb_wisdom_outcome o = CLIMB_WISDOM_ABSENT;
    if (a->no_wisdom) {
        char desc[160];
        const char *source = tn->defaults(dev, values);
        climb_tuning_format(tn, values, desc, sizeof desc);
        snprintf(line, sizeof line, "%s (%s); --no-wisdom", source, desc);
    } else {
        o = climb_wisdom_resolve(a->wisdom, w->name, tn, dev, values, msg, sizeof msg, line, sizeof line);
    }
    if (o == CLIMB_WISDOM_USED)
        fprintf(stderr, "%s: tuned parameters from %s\n", w->name, line);
    else if (climb_wisdom_warns(o))
        fprintf(stderr, "climb: warning: %s; using the defaults\n", msg);
    if (o != CLIMB_WISDOM_USED)
        fprintf(stderr, "%s: %s\n", w->name, line);
    climb_report_note(rep, "%s %s: %s", w->name, w->rung(tn->rung)->name, line);
}

/* The start of every timed command: the device (and its ceilings when asked), the seed line, the timer,
 * an empty report. 0, or -1 after printing why. */
static int start_timed(const run_args *a, const char *command, climb_device_info *dev, climb_timer *timer,
                       climb_report *rep)
{
    if (open_device(a->device, dev, a->measure) != 0)
        return -1;
    fprintf(stderr, "seed %" PRIu64 " (rerun with --seed %" PRIu64 ")\n", a->run.seed, a->run.seed);
    if (climb_timer_init(timer, (size_t)dev->l2_bytes) != 0)
        return -1;
    climb_report_init(rep, command, a->run.seed, a->run.timing.batch, dev);
    return 0;
}

static int cmd_bench(int argc, char **argv)
{
    run_args a;
    int rc = parse_run_args(argc, argv, MODE_BENCH, &a);
    if (rc)
        return rc;
    climb_device_info dev;
    climb_timer timer;
    climb_report rep;
    if (start_timed(&a, "bench", &dev, &timer, &rep) != 0)
        return EXIT_FAILED;
    int failures = 0, broken = 0;
    for (int t = 0; t < a.n_targets && !broken; t++) {
        int tuned[CLIMB_MAX_TUNABLES];
        a.run.tuning = NULL;
        if (a.targets[t]->tuning) {
            resolve_tuning(a.targets[t], &a, &dev, tuned, &rep);
            a.run.tuning = tuned;
        }
        int f = climb_bench(a.targets[t], &a.run, &timer, &rep);
        if (f < 0)
            broken = 1;
        else
            failures += f;
    }
    climb_timer_free(&timer);
    climb_report_derive(&rep);
    /* With a report on stdout ('-'), the table goes to stderr so stdout stays machine-readable. */
    int to_stdout = (a.json && !strcmp(a.json, "-")) || (a.csv && !strcmp(a.csv, "-")) || (a.md && !strcmp(a.md, "-"));
    climb_report_table(&rep, to_stdout ? stderr : stdout);
    if ((a.json && climb_report_write(&rep, climb_report_json, a.json)) ||
        (a.csv && climb_report_write(&rep, climb_report_csv, a.csv)) ||
        (a.md && climb_report_write(&rep, climb_report_md, a.md)))
        broken = 1;
    climb_report_free(&rep);
    if (failures || broken) {
        fprintf(stderr, "climb: %d rung run(s) failed%s\n", failures, broken ? ", and the run did not finish" : "");
        return EXIT_FAILED;
    }
    return 0;
}

static int cmd_check(int argc, char **argv)
{
    run_args a;
    int rc = parse_run_args(argc, argv, MODE_CHECK, &a);
    if (rc)
        return rc;
    climb_device_info dev;
    if (open_device(a.device, &dev, 0) != 0)
        return EXIT_FAILED;
    printf("climb check on %s, seed %" PRIu64 " (rerun with --seed %" PRIu64 ")\n", dev.name, a.run.seed, a.run.seed);
    climb_report notes; /* only for resolve_tuning's note */
    climb_report_init(&notes, "check", a.run.seed, 0, &dev);
    int failures = 0;
    for (int t = 0; t < a.n_targets; t++) {
        int tuned[CLIMB_MAX_TUNABLES];
        a.run.tuning = NULL;
        if (a.targets[t]->tuning) {
            resolve_tuning(a.targets[t], &a, &dev, tuned, &notes);
            a.run.tuning = tuned;
        }
        int f = climb_check(a.targets[t], &a.run, &dev);
        if (f < 0)
            return EXIT_FAILED;
        failures += f;
    }
    climb_report_free(&notes);
    printf("%s\n", failures ? "FAILED" : "all runs right");
    return failures ? EXIT_FAILED : 0;
}

/* ---- tune ---- */

static void print_tune_summary(const climb_tune_result *r, FILE *f)
{
    const climb_tuning *tn = r->w->tuning;
    fprintf(f, "\nclimb tune %s (%s): %d candidates", r->w->name, r->w->rung(tn->rung)->name, r->n_cands);
    int skipped = 0;
    for (int k = 0; k < r->n_cands; k++)
        skipped += r->cands[k].skipped != NULL;
    fprintf(f, ", %d not candidates on this GPU; score = geometric mean of time / fastest (1 = fastest)\n", skipped);
    fprintf(f, "  %-44s %7s", "parameters", "score");
    for (int c = 0; c < r->n_cases; c++) {
        char lbl[32], col[48];
        climb_size_label(lbl, sizeof lbl, r->sizes[c]);
        snprintf(col, sizeof col, "%s %s us", climb_dtype_name(r->types[c]), lbl);
        fprintf(f, " %14s", col);
    }
    fputc('\n', f);
    /* The five best, then the defaults if they are not among them. */
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
        char desc[160];
        climb_tuning_format(tn, cd->values, desc, sizeof desc);
        fprintf(f, "  %-44s %7.3f", desc, cd->score);
        for (int c = 0; c < r->n_cases; c++)
            fprintf(f, " %14.2f", cd->t[c].median_us);
        fprintf(f, "%s%s%s\n", shown[j] == r->fastest ? "  fastest" : "", shown[j] == r->winner ? "  winner" : "",
                shown[j] == r->defaults ? "  defaults" : "");
    }
    fprintf(f, "  fastest vs defaults: %.3fx; winner vs defaults: %.3fx%s\n", climb_tune_fastest_speedup(r),
            climb_tune_speedup(r),
            r->winner == r->defaults && r->winner != r->fastest ? " (the defaults stay: within the 1% tie rule)" : "");
}

static int cmd_tune(int argc, char **argv)
{
    run_args a;
    int rc = parse_run_args(argc, argv, MODE_TUNE, &a);
    if (rc)
        return rc;
    char path[4096];
    const char *file = a.wisdom;
    if (!file && !a.no_wisdom) {
        if (climb_wisdom_default_path(path, sizeof path) != 0) {
            fprintf(stderr, "climb: nowhere to save wisdom (set CLIMB_WISDOM, XDG_CONFIG_HOME or HOME, or use "
                            "--wisdom FILE or --no-save)\n");
            return EXIT_USAGE;
        }
        file = path;
    }
    climb_device_info dev;
    climb_timer timer;
    climb_report rep;
    if (start_timed(&a, "tune", &dev, &timer, &rep) != 0)
        return EXIT_FAILED;
    climb_tune_result res[16];
    const climb_tune_result *done[16];
    int n_done = 0, failures = 0, broken = 0;
    climb_wisdom_key key = {dev.name, dev.cc_major, dev.cc_minor, dev.driver_version, climb_build_version};
    FILE *out = (a.json && !strcmp(a.json, "-")) || (a.md && !strcmp(a.md, "-")) ? stderr : stdout;
    for (int t = 0; t < a.n_targets && !broken; t++) {
        climb_tune_result *r = &res[n_done];
        int f = climb_tune(a.targets[t], &a.run, &timer, &dev, r);
        if (f < 0) {
            broken = 1;
            climb_tune_free(r);
            break;
        }
        failures += f;
        done[n_done++] = r;
        print_tune_summary(r, out);
        if (f > 0 || r->winner < 0) {
            fprintf(stderr, "climb: %s: %d candidate run(s) failed: nothing saved\n", r->w->name, f);
        } else if (file) {
            char msg[800];
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
        }
    }
    climb_timer_free(&timer);
    if (a.json || a.md) {
        FILE *jf = NULL;
        for (int which = 0; which < 2; which++) {
            const char *dest = which ? a.md : a.json;
            if (!dest)
                continue;
            jf = strcmp(dest, "-") == 0 ? stdout : fopen(dest, "w");
            if (!jf) {
                fprintf(stderr, "climb: cannot write %s: %s\n", dest, strerror(errno));
                broken = 1;
                continue;
            }
            if (which)
                climb_tune_md(&rep, done, n_done, jf);
            else
                climb_tune_json(&rep, done, n_done, jf);
            if (jf != stdout && fclose(jf) != 0) {
                fprintf(stderr, "climb: error writing %s\n", dest);
                broken = 1;
            }
        }
    }
    for (int i = 0; i < n_done; i++)
        climb_tune_free(&res[i]);
    climb_report_free(&rep);
    if (failures || broken) {
        fprintf(stderr, "climb: %d candidate run(s) failed%s\n", failures, broken ? ", and the run did not finish" : "");
        return EXIT_FAILED;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(MAIN_USAGE, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (is_help(cmd)) {
        fputs(MAIN_USAGE, stdout);
        return 0;
    }
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("climb %s (commit %s%s), CUDA architectures %s\n", climb_build_version, climb_build_commit,
               climb_build_dirty > 0 ? ", dirty tree" : "", climb_build_arch);
        return 0;
    }
    if (strcmp(cmd, "list") == 0)
        return cmd_list(argc - 1, argv + 1);
    if (strcmp(cmd, "devices") == 0)
        return cmd_devices(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0)
        return cmd_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "check") == 0)
        return cmd_check(argc - 1, argv + 1);
    if (strcmp(cmd, "tune") == 0)
        return cmd_tune(argc - 1, argv + 1);
    if (strcmp(cmd, "occupancy") == 0)
        return cmd_occupancy(argc - 1, argv + 1);
    return usage_error(MAIN_USAGE, "unknown command '%s'", cmd);
}
