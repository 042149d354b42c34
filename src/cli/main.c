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
    "  version               version, commit and CUDA architectures of this build\n"
    "  help [command]        this text, or a command's\n"
    "  <workload command>    a workload's own command: 'climb bench <workload>' with the same options (below)\n"
    "\n"
    "Run 'climb <command> --help' for a command's options, 'climb bench <workload> --help' for a workload's.\n";

static const char *const DEVICES_USAGE =
    "usage: climb devices [--device N] [--no-measure] [--json FILE]\n"
    "\n"
    "Prints each device's facts (name, compute capability, SMs, clocks, memory bus, L2, shared memory and\n"
    "registers per SM), its theoretical memory bandwidth and FP32 FFMA peak, and the ceilings measured now:\n"
    "device copy bandwidth (bytes read + written), read-only bandwidth, the write rate they imply, FP32 FFMA and\n"
    "FP64 DFMA throughput, special-function (MUFU) throughput, launch latency.\n"
    "\n"
    "  --device N     only device N (default: every device)\n"
    "  --no-measure   facts only, no measurement\n"
    "  --json FILE    also write JSON to FILE ('-' for stdout)\n";

static const char *const LIST_USAGE =
    "usage: climb list [workload|all] [--names | --sweeps]\n"
    "\n"
    "Lists the workloads, or one workload (or all) in full: its shape's dims, types, options with their\n"
    "defaults, what its counts count, its rungs in ladder order with their kind (vendor, bound, ladder, best),\n"
    "the best rung's tunable parameters and its sweeps. --names prints only the workloads' names, one per line;\n"
    "--sweeps the names of the sweeps that have a run of their own (with 'all' or none: 'workload sweep' per\n"
    "line), for scripts.\n";

/* The options bench, check and tune share, with the workload's own after them. */
#define CASE_OPTIONS                                                                                           \
    "  --size S         a shape against the workload's dims: 4194304, 2^22, 4096x4096, 4097x4097x4097\n"        \
    "                   (repeatable; default: the workload's sizes)\n"                                          \
    "  --type T         an element type the workload has (repeatable; default: all it has; see 'climb list W')\n" \
    "  --set NAME=V     a workload option: one value, or a comma list to run each (dist=uniform,constant;\n"    \
    "                   a choice also takes 'all'); W.NAME=V for one workload of several (repeatable)\n"        \
    "  --input FILE     the case from a file, for a workload that reads one (repeatable: one case each)\n"      \
    "  --reference R    auto (default), cpu, vendor or samples: what results are checked against; auto takes\n"  \
    "                   the CPU unless the workload says a case is too costly for it\n"                          \
    "  --seed S         input seed (default: a fresh one, printed)\n"                                           \
    "  --device N       CUDA device (default 0)\n"                                                              \
    "  --quiet          no progress on stderr\n"

static const char *const BENCH_USAGE =
    "usage: climb bench <workload|all> [options]\n"
    "\n"
    "For every type, shape and option combination: fresh random inputs (or the named file) and a reference;\n"
    "then for each rung: output poisoned, one run verified, then warm-up and timed samples (CUDA events; median,\n"
    "min and noise), and the last timed output verified again. Operands a rung changes are reset, untimed,\n"
    "before every run. Device ceilings are measured first, for the roofline.\n"
    "\n"
    "  --rung NAME      run only this rung (repeatable; see 'climb list <workload>')\n"
    CASE_OPTIONS
    "  --batch          time back-to-back launches with a warm L2 instead of one cold launch per sample\n"
    "                   (refused for rungs that change their operands: the reset would be timed)\n"
    "  --min-samples N  at least N samples per measurement (default 20)\n"
    "  --max-time S     at most S seconds of sampling per measurement (default 1; 10 with --max-noise)\n"
    "  --max-noise PCT  sample on until the samples' noise (relative standard deviation) is at most PCT %, its\n"
    "                   estimate holds steady above it, or --max-time has passed, as nvbench does; a row that\n"
    "                   misses the target says why in its note, and every row gives the noise reached\n"
    "  --size-class C   S, M or L: the workload's smallest bench size, its main sizes, or its largest (see\n"
    "                   'climb list W'); a preset per workload, as SHOC's and Parboil's sizes are\n"
    "  --quick          the quick run (the default for 'all'): the workload's main sizes (see 'climb list W'),\n"
    "                   5 to 20 samples and 0.05 s a rung, and a rung whose one run takes over 0.25 s not timed\n"
    "  --full           with 'all': every workload's full bench, sizes and sampling (make bench-full)\n"
    "  --profile        for nsys and ncu: one warm-up and one timed run a rung, no sampling, no ceilings; each\n"
    "                   rung's timed runs are in an NVTX range named workload/rung/case (ranges are always there)\n"
    "  --no-ceilings    skip measuring the device ceilings (no roofline column)\n"
    "  --sweep NAME     one of the workload's sweeps (see 'climb list <workload>'): adds its arguments, and the\n"
    "                   report records the sweep (scripts/results_tables.py draws docs/img/<workload>-NAME-<gpu>.svg);\n"
    "                   a sweep over real inputs reads them from $CLIMB_DATA (default: ../shared/data beside the\n"
    "                   source tree) and is skipped, with a note, where they are not there\n"
    "  --dry-run        check the arguments and list the cases and rungs that would run; no GPU work\n"
    "  --json FILE      write the report as JSON ('-' for stdout); likewise --csv FILE, --md FILE\n"
    "  --out DIR        write the report to DIR as bench.json and bench.md, the results page of this run beside the\n"
    "                   committed results of the nearest GPU as DIR/index.html, and end with a line a workload\n"
    "                   instead of the tables. 'climb bench all' with no report option (the main command, make\n"
    "                   bench) does so into climb-bench/<gpu>-<UTC time>/\n"
    "  --output FILE    write the output of a run of one case to FILE, in the form of the workload's input files\n"
    "                   (conv: the filtered image as a PGM): the best rung's, else the last rung selected\n"
    "  --wisdom FILE    tuned parameters from FILE (default: $CLIMB_WISDOM, else $XDG_CONFIG_HOME/climb/wisdom.json,\n"
    "                   else ~/.config/climb/wisdom.json); a missing, foreign, stale or corrupt file gives the\n"
    "                   built-in per-architecture defaults, with a warning (none when the default file is absent)\n"
    "  --no-wisdom      the built-in defaults, whatever wisdom there is\n"
    "\n"
    "Repeats: --rung, --size, --type, --input and --set of another option add values; the same value twice, or an\n"
    "option that takes one value (--json, --seed, ...) twice, is an error.\n"
    "Report paths are checked before any GPU work (a path that cannot be written is refused, exit 2); every\n"
    "report named is written even if another cannot be.\n"
    "\n"
    "Exit status: 0 all rungs verified, 1 a rung was wrong or a CUDA call failed, 2 bad usage or a bad input file.\n";

static const char *const TUNE_USAGE =
    "usage: climb tune <workload|all> [options]\n"
    "\n"
    "Experiment mode: every candidate of the best rung's tunable parameters (see 'climb list <workload>') is run\n"
    "on this GPU, verified against the reference, and timed like 'climb bench' on each case. The fastest overall\n"
    "(geometric mean over the cases of time relative to the fastest) wins and is saved to the wisdom file, keyed\n"
    "by GPU name, compute capability, driver and climb version, where 'climb bench' and the C API find it.\n"
    "Nothing is saved if any candidate gave a wrong result.\n"
    "\n"
    CASE_OPTIONS
    "  --batch          time back-to-back launches with a warm L2 (default: cold, L2 flushed per sample)\n"
    "  --min-samples N  at least N samples per measurement (default 20)\n"
    "  --max-time S     at most S seconds of sampling per measurement (default 1; 10 with --max-noise)\n"
    "  --max-noise PCT  sample each candidate until its noise is at most PCT % or --max-time has passed\n"
    "  --wisdom FILE    where to save (default as for bench)\n"
    "  --no-save        report only, save nothing\n"
    "  --dry-run        check the arguments and list the cases that would be tuned; no GPU work\n"
    "  --json FILE      every candidate's figures as JSON ('-' for stdout); --md FILE as markdown\n"
    "\n"
    "Exit status: 0 tuned, 1 a candidate was wrong or a CUDA call failed, 2 bad usage or a bad input file.\n";

static const char *const CHECK_USAGE =
    "usage: climb check <workload|all> [options]\n"
    "\n"
    "Correctness only: every rung over the workload's edge-size sweep (0, 1, odd sizes, powers of two and\n"
    "their neighbours, sizes that are not multiples of any tile), with misaligned inputs for small sizes, each\n"
    "run twice from poisoned outputs and compared element by element with the reference.\n"
    "\n"
    "  --rung NAME      only this rung (repeatable)\n"
    CASE_OPTIONS
    "  --quick          the workload's few quick shapes (every code path, fewest cases: for slow tools)\n"
    "  --dry-run        check the arguments and list the cases that would be checked; no GPU work\n"
    "  --json FILE      write what was checked and every failure as JSON ('-' for stdout)\n"
    "  --wisdom FILE, --no-wisdom  the best rung's tuned parameters, as for bench\n"
    "\n"
    "Exit status: 0 every run right, 1 any failure, 2 bad usage or a bad input file.\n";

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
static int usage_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_msg(const char *fmt, ...)
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

/* ---- list ---- */

static void print_workload(const climb_workload *w, FILE *f)
{
    char dims[128], types[128];
    climb_workload_dims(w, dims, sizeof dims);
    climb_dtype_list(w->types, types, sizeof types);
    fprintf(f, "%s: %s\n", w->name, w->title);
    if (w->command)
        fprintf(f, "  command: climb %s (the same as climb bench %s)\n", w->command, w->name);
    fprintf(f, "  from: %s\n  shape: %s (--size", w->sources, dims);
    for (int i = 0; i < climb_workload_ndims(w); i++)
        fprintf(f, "%s%s", i ? "x" : " ", w->dims[i]);
    fprintf(f, ")\n  types: %s (--type)\n", types);
    if (w->n_options == 0) {
        fprintf(f, "  options: none\n");
    } else {
        fprintf(f, "  options (--set NAME=VALUE):\n");
        for (int k = 0; k < w->n_options; k++) {
            const climb_option *o = &w->options[k];
            char range[256] = "";
            if (o->kind == CLIMB_OPT_INT)
                snprintf(range, sizeof range, "; %.0f..%.0f", o->min, o->max);
            else if (o->kind == CLIMB_OPT_FLOAT)
                snprintf(range, sizeof range, "; %g..%g", o->min, o->max);
            else if (o->kind == CLIMB_OPT_CHOICE) {
                size_t used = (size_t)snprintf(range, sizeof range, "; one of");
                for (int j = 0; o->choices[j] && used < sizeof range; j++)
                    used += (size_t)snprintf(range + used, sizeof range - used, " %s", o->choices[j]);
            } else {
                snprintf(range, sizeof range, "; also --input FILE");
            }
            fprintf(f, "    %-12s %-7s default %-12s %s%s%s\n", o->name, climb_opt_kind_name(o->kind),
                    o->def && o->def[0] ? o->def : "(none)", o->meaning, range,
                    o->keys_tuning ? "; keys the tuning (tuned per value)" : "");
            if (o->check_def)
                fprintf(f, "    %-12s %-7s climb check runs %s\n", "", "", o->check_def);
        }
    }
    fprintf(f, "  counts: %s", w->bytes_counted);
    if (w->items_unit)
        fprintf(f, "; items: %s (rate %s)", w->items_unit, w->items_rate);
    fprintf(f, "\n  roofline: memory, %s%s%s\n  default sizes:", "FMA",
            w->extra_ceiling != CLIMB_CEIL_NONE ? ", " : "",
            w->extra_ceiling != CLIMB_CEIL_NONE ? climb_ceiling_name(w->extra_ceiling) : "");
    for (int i = 0; i < w->n_bench_shapes; i++) {
        char l[128];
        climb_shape_label(&w->bench_shapes[i], l, sizeof l);
        fprintf(f, " %s", l);
    }
    if (w->main_shapes) {
        fprintf(f, "\n  quick run's sizes (bench all, bench --quick):");
        for (int i = 0; i < w->n_main_shapes; i++) {
            char l[128];
            climb_shape_label(&w->main_shapes[i], l, sizeof l);
            fprintf(f, " %s", l);
        }
    }
    fprintf(f, "\n  size classes (bench --size-class):");
    for (const char *c = "SML"; *c; c++) {
        int n = 0;
        const climb_shape *s = climb_size_class_shapes(w, *c, &n);
        fprintf(f, "%s %c", *c == 'S' ? "" : ";", *c);
        for (int i = 0; i < n; i++) {
            char l[128];
            climb_shape_label(&s[i], l, sizeof l);
            fprintf(f, " %s", l);
        }
    }
    fprintf(f, "\n\n  %2s  %-36s %-7s %s\n", "#", "rung", "kind", "idea");
    for (int i = 0; i < w->n_rungs; i++) {
        const climb_rung_info *r = w->rung(i);
        fprintf(f, "  %2d  %-36s %-7s %s%s%s%s%s\n", i, r->name, climb_rung_kind_name(r->kind), r->idea,
                r->needs[0] ? "; needs " : "", r->needs, r->host_part ? "; host part: timed by the wall clock" : "",
                r->device_launches ? "; device launches (dynamic parallelism)" : "");
    }
    if (w->tuning) {
        const climb_tuning *tn = w->tuning;
        int best = climb_best_rung(w);
        fprintf(f, "\n  tunable parameters of %s (climb tune %s):\n", best >= 0 ? w->rung(best)->name : "?", w->name);
        int mw = 40; /* the meanings' column: as wide as the longest, so the values stay apart */
        for (int k = 0; k < tn->n_params; k++)
            if ((int)strlen(tn->params[k].meaning) + 1 > mw)
                mw = (int)strlen(tn->params[k].meaning) + 1;
        for (int k = 0; k < tn->n_params; k++) {
            fprintf(f, "    %-14s %-*s", tn->params[k].name, mw, tn->params[k].meaning);
            for (int j = 0; j < tn->params[k].n_values; j++)
                fprintf(f, "%s%d", j ? ", " : "", tn->params[k].values[j]);
            fputc('\n', f);
        }
        if (tn->candidates)
            fprintf(f, "    candidates: the %d sets listed in the workload, not every combination\n", tn->n_candidates);
        if (tn->shape_class)
            fprintf(f, "    tuned per class of type and shape: %s (each class apart; one wisdom entry a class)\n",
                    tn->shape_class_meaning);
    }
    if (w->n_sweeps > 0) {
        fprintf(f, "\n  sweeps (climb bench %s --sweep NAME):\n", w->name);
        for (int k = 0; k < w->n_sweeps; k++) {
            const climb_sweep *sw = &w->sweeps[k];
            fprintf(f, "    %-12s %s; across: %s%s\n      %s\n", sw->name, sw->title, sw->x, sw->log_x ? " (log)" : "",
                    sw->args ? sw->args : "(drawn from the default bench)");
        }
    }
}

static int cmd_list(int argc, char **argv)
{
    int names = 0;
    const char *which = NULL;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(LIST_USAGE, stdout);
            return 0;
        } else if (strcmp(argv[i], "--names") == 0) {
            names = 1;
        } else if (strcmp(argv[i], "--sweeps") == 0) {
            names = 2;
        } else if (argv[i][0] == '-') {
            return usage_error(LIST_USAGE, "list: unknown option '%s'", argv[i]);
        } else if (which) {
            return usage_error(LIST_USAGE, "list takes at most one workload, got '%s'", argv[i]);
        } else {
            which = argv[i];
        }
    }
    int n;
    const climb_workload *const *all = climb_workloads(&n);
    if (which && strcmp(which, "all") != 0) {
        const climb_workload *w = climb_find_workload(which);
        if (!w)
            return usage_error(LIST_USAGE, "unknown workload '%s' (run 'climb list')", which);
        if (names == 2) {
            for (int k = 0; k < w->n_sweeps; k++)
                if (w->sweeps[k].args)
                    printf("%s\n", w->sweeps[k].name);
        } else if (names) {
            printf("%s\n", w->name);
        } else
            print_workload(w, stdout);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        if (names == 2) {
            for (int k = 0; k < all[i]->n_sweeps; k++)
                if (all[i]->sweeps[k].args)
                    printf("%s %s\n", all[i]->name, all[i]->sweeps[k].name);
        } else if (names) {
            printf("%s\n", all[i]->name);
        } else if (which) {
            if (i)
                putchar('\n');
            print_workload(all[i], stdout);
        } else {
            char dims[128];
            climb_workload_dims(all[i], dims, sizeof dims);
            printf("%-12s %2d rungs  %-16s %s\n", all[i]->name, all[i]->n_rungs, dims, all[i]->title);
        }
    }
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
    char nvml[600];
    climb_nvml_line(&d->nvml, nvml, sizeof nvml);
    fprintf(f, "  clocks and power     %s\n", nvml);
    if (d->measured) {
        fprintf(f, "  measured copy        %.0f GB/s (bytes read + written; %.1f%% of theoretical)\n", d->copy_gbs,
               100 * d->copy_gbs / d->peak_bw_gbs);
        fprintf(f, "  measured read        %.0f GB/s (bytes read; %.1f%% of theoretical)\n", d->read_gbs,
               100 * d->read_gbs / d->peak_bw_gbs);
        fprintf(f, "  measured write       %.0f GB/s (derived: 1/write = 2/copy - 1/read)\n", d->write_gbs);
        fprintf(f, "  measured FFMA        %.0f GFLOP/s (%.1f%% of theoretical)\n", d->ffma_gflops,
               100 * d->ffma_gflops / d->peak_ffma_gflops);
        fprintf(f, "  measured DFMA        %.0f GFLOP/s (FP64)\n", d->dfma_gflops);
        if (d->sfu_gops > 0)
            fprintf(f, "  measured SFU         %.0f Gop/s (MUFU rsqrt)\n", d->sfu_gops);
        fprintf(f, "  launch latency       %.2f us (empty kernel, event to event)\n", d->launch_us);
    }
}

int open_device(int ordinal, climb_device_info *d, int measure, unsigned extra)
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
    char nocode[400];
    if (climb_device_code_check(d, nocode, sizeof nocode) != 0) {
        fprintf(stderr, "climb: %s\n", nocode);
        return -1;
    }
    if (measure) {
        fprintf(stderr, "[%s] measuring ceilings\n", d->name);
        if (climb_measure_ceilings(d, extra) != 0)
            return -1;
    }
    climb_device_nvml(d); /* right after the ceilings, the GPU warm; where there is no NVML the reports say so */
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
    if (json && strcmp(json, "-") != 0 && climb_report_path_ok(json, why, sizeof why) != 0) {
        fprintf(stderr, "climb: cannot write %s: %s\n", json, why); /* before any device work */
        return EXIT_USAGE;
    }
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
        if (open_device(i, &d, measure, CLIMB_MEASURE_SFU) != 0) {
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

/* ---- bench, check and tune: their arguments ---- */

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
    char **split_argv;    /* the arguments with --name=value split in two (GNU style) */
    char **owned;         /* the split names, freed with the arguments */
    int n_owned;
} run_args;

static void free_run_args(run_args *a)
{
    for (int t = 0; t < a->n_targets && a->plans; t++)
        climb_opt_plan_free(&a->plans[t], a->targets[t]->unload);
    free(a->targets);
    free(a->plans);
    free(a->rungs);
    free(a->shapes);
    free(a->sets);
    free(a->inputs);
    free(a->tuned);
    free(a->set_opts);
    for (int k = 0; k < a->n_owned; k++)
        free(a->owned[k]);
    free(a->owned);
    free(a->split_argv);
    memset(a, 0, sizeof *a);
}

/* The options that take a value: each may also be written --name=value (GNU style). */
static int takes_value(const char *name, size_t len)
{
    static const char *const VALUED[] = {"--rung", "--size", "--type", "--set", "--input", "--reference", "--seed",
                                         "--device", "--wisdom", "--sweep", "--min-samples", "--max-time", "--json",
                                         "--size-class", "--max-noise",
                                         "--csv", "--md", "--output", "--out", NULL};
    for (int k = 0; VALUED[k]; k++)
        if (strlen(VALUED[k]) == len && strncmp(VALUED[k], name, len) == 0)
            return 1;
    return 0;
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

static int parse_run_args(int argc, char **argv, int mode, run_args *a)
{
    const char *usage = mode == MODE_BENCH ? BENCH_USAGE : mode == MODE_TUNE ? TUNE_USAGE : CHECK_USAGE;
    const int bench = mode == MODE_BENCH, timed = mode != MODE_CHECK;
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
    const char *target = NULL;
    /* One rule for repeats: the list options (--rung, --size, --type, --input, --set of another
     * option) add values; a value given twice, or a one-value option given twice, is an error. */
    static const char *const ONE_VALUE[] = {"--json", "--csv", "--md", "--output", "--seed", "--device", "--wisdom",
                                            "--reference", "--sweep", "--min-samples", "--max-time", "--size-class",
                                            "--max-noise", "--out", NULL};
    const char *seen[sizeof ONE_VALUE / sizeof ONE_VALUE[0]] = {0};
    int n_seen = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        int has = i + 1 < argc;
        for (int k = 0; ONE_VALUE[k] && has; k++)
            if (strcmp(o, ONE_VALUE[k]) == 0) {
                for (int q = 0; q < n_seen; q++)
                    if (seen[q] == ONE_VALUE[k])
                        return usage_msg("%s given twice: it takes one value", o);
                seen[n_seen++] = ONE_VALUE[k];
            }
        if (mode != MODE_TUNE && strcmp(o, "--rung") == 0 && has) {
            for (int q = 0; q < a->run.n_rungs; q++)
                if (strcmp(a->rungs[q], argv[i + 1]) == 0)
                    return usage_msg("--rung %s given twice", argv[i + 1]);
            a->rungs[a->run.n_rungs++] = argv[++i];
        } else if (strcmp(o, "--size") == 0 && has) {
            char err[200];
            if (climb_shape_parse(argv[++i], &a->shapes[a->run.n_shapes++], err, sizeof err) != 0)
                return usage_error(usage, "--size: %s", err);
            for (int q = 0; q + 1 < a->run.n_shapes; q++)
                if (climb_shape_equal(&a->shapes[q], &a->shapes[a->run.n_shapes - 1]))
                    return usage_msg("--size %s given twice", argv[i]);
        } else if (strcmp(o, "--type") == 0 && has) {
            climb_dtype t;
            if (climb_dtype_parse(argv[++i], &t)) {
                char all[128];
                climb_dtype_list((1u << CLIMB_NTYPES) - 1, all, sizeof all);
                return usage_msg("--type: '%s' is not a type (%s)", argv[i], all);
            }
            if (a->run.types & CLIMB_TYPE_BIT(t))
                return usage_msg("--type %s given twice", argv[i]);
            a->run.types |= CLIMB_TYPE_BIT(t);
        } else if (strcmp(o, "--set") == 0 && has) {
            a->sets[a->n_sets++] = argv[++i];
        } else if (strcmp(o, "--input") == 0 && has) {
            for (int q = 0; q < a->n_inputs; q++)
                if (strcmp(a->inputs[q], argv[i + 1]) == 0)
                    return usage_msg("--input %s given twice", argv[i + 1]);
            a->inputs[a->n_inputs++] = argv[++i];
            if (!argv[i][0])
                return usage_error(usage, "--input: an empty file name%s", "");
        } else if (strcmp(o, "--reference") == 0 && has) {
            if (parse_ref_mode(argv[++i], &a->run.reference))
                return usage_error(usage, "--reference: '%s' is not one of auto, cpu, vendor, samples", argv[i]);
        } else if (strcmp(o, "--seed") == 0 && has) {
            if (parse_u64(argv[++i], &a->run.seed))
                return usage_error(usage, "--seed: '%s' is not a non-negative integer", argv[i]);
            a->seed_given = 1;
        } else if (strcmp(o, "--device") == 0 && has) {
            if (parse_int(argv[++i], 0, 1023, &a->device))
                return usage_error(usage, "--device: '%s' is not a device ordinal", argv[i]);
        } else if (strcmp(o, "--quiet") == 0) {
            a->run.progress = 0;
        } else if (mode != MODE_TUNE && strcmp(o, "--quick") == 0) {
            if (a->run.quick)
                return usage_msg("--quick given twice");
            a->run.quick = 1;
        } else if (strcmp(o, "--wisdom") == 0 && has) {
            a->wisdom = argv[++i];
            if (!a->wisdom[0])
                return usage_error(usage, "--wisdom: an empty file name%s", "");
        } else if ((mode == MODE_TUNE && strcmp(o, "--no-save") == 0) || (mode != MODE_TUNE && strcmp(o, "--no-wisdom") == 0)) {
            a->no_wisdom = 1;
        } else if (timed && strcmp(o, "--batch") == 0) {
            a->run.timing.batch = 1;
            a->sampling_set = 1;
        } else if (bench && strcmp(o, "--sweep") == 0 && has) {
            a->sweep = argv[++i];
        } else if (strcmp(o, "--dry-run") == 0) {
            a->dry_run = 1;
        } else if (bench && strcmp(o, "--full") == 0) {
            if (a->full)
                return usage_msg("--full given twice");
            a->full = 1;
        } else if (bench && strcmp(o, "--profile") == 0) {
            if (a->profile)
                return usage_msg("--profile given twice");
            a->profile = 1;
        } else if (bench && strcmp(o, "--size-class") == 0 && has) {
            const char *c = argv[++i];
            if (a->run.size_class)
                return usage_msg("--size-class given twice");
            if (!((c[0] == 'S' || c[0] == 'M' || c[0] == 'L') && c[1] == '\0'))
                return usage_error(usage, "--size-class: '%s' is not S, M or L", c);
            a->run.size_class = c[0];
        } else if (bench && strcmp(o, "--no-ceilings") == 0) {
            a->measure = 0;
        } else if (timed && strcmp(o, "--min-samples") == 0 && has) {
            if (parse_int(argv[++i], 1, 100000, &a->run.timing.min_samples))
                return usage_error(usage, "--min-samples: '%s' is not a count from 1 to 100000", argv[i]);
            if (a->run.timing.max_samples < a->run.timing.min_samples)
                a->run.timing.max_samples = a->run.timing.min_samples;
            a->sampling_set = 1;
        } else if (timed && strcmp(o, "--max-time") == 0 && has) {
            double s;
            if (climb_parse_double(argv[++i], &s) != 0 || !(s >= 0.001 && s <= 3600))
                return usage_error(usage, "--max-time: '%s' is not a number of seconds (0.001 to 3600)", argv[i]);
            a->run.timing.max_wall_s = s;
            a->sampling_set = a->max_time_set = 1;
        } else if (timed && strcmp(o, "--max-noise") == 0 && has) {
            double pct;
            if (climb_parse_double(argv[++i], &pct) != 0 || !(pct >= 0.01 && pct <= 100))
                return usage_error(usage, "--max-noise: '%s' is not a percentage from 0.01 to 100", argv[i]);
            if (a->run.timing.max_noise_pct > 0)
                return usage_msg("--max-noise given twice");
            a->run.timing.max_noise_pct = pct;
            a->sampling_set = 1;
        } else if (strcmp(o, "--json") == 0 && has) {
            a->json = argv[++i];
        } else if (bench && strcmp(o, "--output") == 0 && has) {
            a->run.output = argv[++i];
            if (!argv[i][0] || strcmp(argv[i], "-") == 0)
                return usage_error(usage, "--output: an empty file name or '-' (it names a file)%s", "");
        } else if (bench && strcmp(o, "--out") == 0 && has) {
            a->out = argv[++i];
            if (!a->out[0] || strcmp(a->out, "-") == 0)
                return usage_error(usage, "--out: an empty folder name or '-' (it names a folder)%s", "");
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
    for (int t = 0; t < a->n_targets; t++) {
        char err[400];
        const climb_workload *w = a->targets[t];
        if (climb_opt_plan_init(&a->plans[t], w->options, w->n_options, err, sizeof err) != 0) {
            fprintf(stderr, "climb: %s: a default does not parse: %s\n", w->name, err);
            return EXIT_FAILED;
        }
        for (int k = 0; mode == MODE_CHECK && k < w->n_options; k++) /* --set, later, replaces these */
            if (w->options[k].check_def && w->options[k].kind != CLIMB_OPT_FILE &&
                climb_opt_plan_set(&a->plans[t], k, w->options[k].check_def, 0, err, sizeof err) != 0) {
                fprintf(stderr, "climb: %s: a check default does not parse: %s\n", w->name, err);
                return EXIT_FAILED;
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
        const char *source = tn->defaults(dev, ex, values);
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

/* The start of every timed command: the device (and its ceilings when asked, with those the workloads name),
 * the seed line, the timer, an empty report. 0, or -1 after printing why. */
static int start_timed(const run_args *a, const char *command, climb_device_info *dev, climb_timer *timer,
                       climb_report *rep)
{
    unsigned extra = climb_extra_ceilings(a->targets, a->n_targets);
    if (open_device(a->device, dev, a->measure, extra) != 0)
        return -1;
    fprintf(stderr, "seed %" PRIu64 " (rerun with --seed %" PRIu64 ")\n", a->run.seed, a->run.seed);
    if (climb_timer_init(timer, (size_t)dev->l2_bytes) != 0)
        return -1;
    climb_report_init(rep, command, a->run.seed, a->run.timing.batch, dev);
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
        const climb_shape *shapes = mode == MODE_BENCH ? climb_bench_shapes(w, &a->run, &n_shapes)
                                                       : climb_default_shapes(w, check, a->run.quick && mode != MODE_TUNE,
                                                                              &n_shapes);
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
    if (!rc && a.dry_run)
        rc = dry_run(&a, MODE_BENCH) ? EXIT_FAILED : -1;
    if (rc) {
        free_run_args(&a);
        free(argv2);
        free(buf);
        return rc < 0 ? 0 : rc;
    }
    climb_device_info dev;
    climb_timer timer;
    climb_report rep;
    if (start_timed(&a, "bench", &dev, &timer, &rep) != 0) {
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
    climb_timer_free(&timer);
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
    if (rc) {
        free_run_args(&a);
        return rc < 0 ? 0 : rc;
    }
    climb_device_info dev;
    if (open_device(a.device, &dev, 0, 0) != 0) {
        free_run_args(&a);
        return EXIT_FAILED;
    }
    /* With the JSON on stdout, the human lines go to stderr. */
    FILE *out = a.json && !strcmp(a.json, "-") ? stderr : stdout;
    fprintf(out, "climb check on %s, seed %" PRIu64 " (rerun with --seed %" PRIu64 ")\n", dev.name, a.run.seed,
            a.run.seed);
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
    if (a.json && res) {
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
        "usage: climb version\n\nThe version, git commit, CUDA architectures and cuDNN this build has.\n";
    if (argc > 1 && is_help(argv[1])) {
        fputs(VERSION_USAGE, stdout);
        return 0;
    }
    if (argc > 1)
        return usage_error(VERSION_USAGE, "version takes no arguments; '%s' is extra", argv[1]);
    printf("climb %s (commit %s%s), CUDA architectures %s, cuDNN %s\n", climb_build_version, climb_build_commit,
           climb_build_dirty > 0 ? ", dirty tree" : "", climb_build_arch,
           climb_build_cudnn[0] ? climb_build_cudnn : "not built in");
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
    {"compare", cmd_compare}, {"report", cmd_report},
};

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (strcmp(COMMANDS[i].name, name) == 0)
            return &COMMANDS[i];
    return NULL;
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
    const command *c = find_command(cmd);
    if (c)
        return c->run(argc - 1, argv + 1);
    const climb_workload *w = workload_command(cmd); /* the built-in commands come first */
    if (w)
        return run_workload_command(w, argc - 1, argv + 1);
    return usage_error(MAIN_USAGE, "unknown command '%s'", cmd);
}
