/* climb list and climb devices: the registry's workloads in full, and each device's facts and measured ceilings. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/build_info.h"
#include "../core/report.h"
#include "../core/tune.h"
#include "../core/workload.h"
#include "../device/device.h"
#include "cli.h"

static const char *const DEVICES_USAGE =
    "usage: climb devices [--device N] [--no-measure] [--json FILE]\n"
    "\n"
    "Prints each device's facts (name, compute capability, SMs, clocks, memory bus, L2, shared memory and\n"
    "registers per SM), its theoretical memory bandwidth and FP32 FFMA peak, and the ceilings measured now:\n"
    "device copy bandwidth (bytes read + written), read-only bandwidth, the write rate they imply, FP32 FFMA and\n"
    "FP64 DFMA throughput, special-function (MUFU) throughput, launch latency. With several devices, how each\n"
    "pair is joined (peer access, the driver's performance rank) and the copy engines between them, measured\n"
    "(cudaMemcpyPeerAsync of 256 MiB, one way and both ways at once; in the first device's JSON as device_set).\n"
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

/* ---- list ---- */

void print_workload(const climb_workload *w, FILE *f)
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
    fprintf(f, ")\n  types: %s (--type)", types);
    if (w->bench_types && w->bench_types != w->types) {
        climb_dtype_list(w->bench_types, types, sizeof types);
        fprintf(f, "; bench and tune run %s unless --type names others", types);
    }
    fputc('\n', f);
    if (climb_spans_devices(w))
        fprintf(f, "  GPUs: %d to %d a case (--gpus N, --devices LIST; default the first %d)%s\n", w->min_devices,
                w->max_devices, w->min_devices,
                w->processes ? "; or one process a GPU under an MPI launcher (mpirun -np N climb bench ...)" : "");
    if (climb_spans_devices(w) && w->min_devices == 1) {
        fprintf(f, "  strong scaling: the default cases on 1, 2, 4, ... GPUs (climb bench %s --gpus N)\n", w->name);
        if (w->weak_scaling)
            fprintf(f, "  weak scaling: climb bench %s --gpus N %s\n", w->name, w->weak_scaling);
    }
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
            if (o->same_seed)
                fprintf(f, "    %-12s %-7s its values' cases draw from one seed (the same inputs where they can)\n",
                        "", "");
            if (o->check_def)
                fprintf(f, "    %-12s %-7s climb check runs %s\n", "", "", o->check_def);
            if (o->tune_def)
                fprintf(f, "    %-12s %-7s climb tune runs %s\n", "", "", o->tune_def);
        }
    }
    fprintf(f, "  counts: %s", w->bytes_counted);
    if (w->items_unit)
        fprintf(f, "; items: %s (rate %s)", w->items_unit, w->items_rate);
    fprintf(f, "\n  roofline: memory, %s%s%s%s\n  default sizes:", "FMA",
            w->extra_ceiling != CLIMB_CEIL_NONE ? ", " : "",
            w->extra_ceiling != CLIMB_CEIL_NONE ? climb_ceiling_name(w->extra_ceiling) : "",
            climb_spans_devices(w) ? ", the links between GPUs (the slowest pair's copy measured one way)" : "");
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
        fprintf(f, "\n  tunable parameters of %s (climb tune %s", best >= 0 ? w->rung(best)->name : "?", w->name);
        if (w->tune_shapes && w->n_tune_shapes > 0) {
            fputs(", over", f);
            for (int i = 0; i < w->n_tune_shapes; i++) {
                char l[128];
                climb_shape_label(&w->tune_shapes[i], l, sizeof l);
                fprintf(f, " %s", l);
            }
        }
        fputs("):\n", f);
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

int cmd_list(int argc, char **argv)
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
        if (d->tensor_bf16_gflops > 0)
            fprintf(f, "  measured tensor      %.0f GFLOP/s BF16, %.0f GFLOP/s TF32 (dense, FP32 accumulation)\n",
                    d->tensor_bf16_gflops, d->tensor_tf32_gflops);
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

/* The pairs as four small matrices (row: from, column: to). */
static void print_pairs(FILE *f, const climb_device_info *d, int n, const climb_p2p *p2p)
{
    static const char *const what[] = {"peer access", "P2P rank", "copy GB/s, one way", "copy GB/s, both ways",
                                       "copy µs, 4 bytes", "NVLinks (NVML)"};
    fprintf(f, "\nGPUs together (row: from, column: to):\n");
    for (int k = 0; k < 6; k++) {
        fprintf(f, "  %-22s", what[k]);
        for (int j = 0; j < n; j++)
            fprintf(f, " %7s%-2d", "GPU ", d[j].ordinal);
        fputc('\n', f);
        for (int i = 0; i < n; i++) {
            fprintf(f, "  %18s %-3d", "GPU", d[i].ordinal);
            for (int j = 0; j < n; j++) {
                const climb_p2p *p = &p2p[i * n + j];
                char cell[32] = "-";
                if (i != j && k == 0 && p->access >= 0)
                    snprintf(cell, sizeof cell, "%s", p->access ? "yes" : "no");
                else if (i != j && k == 1 && p->rank >= 0)
                    snprintf(cell, sizeof cell, "%d", p->rank);
                else if (i != j && (k == 2 || k == 3) && (k == 2 ? p->one_way_gbs : p->both_ways_gbs) > 0)
                    snprintf(cell, sizeof cell, "%.0f", k == 2 ? p->one_way_gbs : p->both_ways_gbs);
                else if (i != j && k == 4 && p->latency_us > 0)
                    snprintf(cell, sizeof cell, "%.1f", p->latency_us);
                else if (i != j && k == 5 && p->nvlinks >= 0)
                    snprintf(cell, sizeof cell, "%s%d", p->nvswitch == 1 ? "sw " : "", p->nvlinks);
                fprintf(f, " %9s", cell);
            }
            fputc('\n', f);
        }
    }
}

int cmd_devices(int argc, char **argv)
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
    int rc = 0, n_ok = 0;
    climb_device_info *devs = calloc((size_t)n, sizeof *devs);
    if (!devs) {
        climb_host_oom("the devices' facts");
        rc = EXIT_FAILED;
    }
    for (int i = 0; devs && i < n; i++) {
        if (only >= 0 && i != only)
            continue;
        if (open_device(i, &devs[n_ok], measure, CLIMB_MEASURE_SFU) != 0) {
            rc = EXIT_FAILED;
            continue;
        }
        print_device(jf == stdout ? stderr : stdout, &devs[n_ok]); /* keep stdout pure JSON with --json - */
        n_ok++;
    }
    /* Several GPUs: how each pair is joined, and the copies between them. */
    climb_p2p *p2p = n_ok >= 2 && n_ok <= CLIMB_MAX_DEVICES ? calloc((size_t)n_ok * (size_t)n_ok, sizeof *p2p) : NULL;
    if (n_ok > CLIMB_MAX_DEVICES)
        fprintf(stderr, "climb: %d GPUs: how they are joined is shown for up to %d\n", n_ok, CLIMB_MAX_DEVICES);
    else if (n_ok >= 2 && !p2p) {
        climb_host_oom("the GPUs' pairs");
        rc = EXIT_FAILED;
    }
    int ids[CLIMB_MAX_DEVICES];
    for (int i = 0; p2p && i < n_ok; i++)
        ids[i] = devs[i].ordinal;
    const int pairs = p2p && climb_device_pairs(ids, n_ok, measure, p2p) == 0;
    if (pairs)
        print_pairs(jf == stdout ? stderr : stdout, devs, n_ok, p2p);
    else if (p2p)
        rc = EXIT_FAILED;
    for (int i = 0; jf && i < n_ok; i++) {
        climb_report r;
        climb_report_init(&r, "devices", 0, 0, &devs[i]);
        if (i == 0 && pairs && climb_report_set_devices(&r, devs, p2p, n_ok) != 0)
            rc = EXIT_FAILED;
        fprintf(jf, "%s\n", i ? "," : "");
        climb_report_json(&r, jf);
        climb_report_free(&r);
    }
    free(p2p);
    free(devs);
    if (jf) {
        fprintf(jf, "]\n");
        if (jf != stdout && fclose(jf) != 0) {
            fprintf(stderr, "climb: error writing %s\n", json);
            rc = EXIT_FAILED;
        }
    }
    return rc;
}
