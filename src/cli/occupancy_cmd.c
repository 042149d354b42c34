/* climb occupancy: the occupancy calculator (Harris's G80 sheet, Introduction to CUDA 5.0's CC 3.5 sheet) on the command
 * line, its three "impact of varying" series as tables and SVG plots, the physical-limits table of every
 * compute capability, and the registry's real kernels set beside the CUDA runtime's own answer. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"
#include "../device/device.h"
#include "cli.h"
#include "plot.h"
#include "../lib/occupancy_check.h"
#include "../core/report.h"
#include "../core/workload.h"

static const char *const OCC_USAGE =
    "usage: climb occupancy --cc X.Y --threads T [--regs R] [--smem BYTES] [--smem-config BYTES]\n"
    "                       [--series] [--svg PREFIX]\n"
    "       climb occupancy --limits\n"
    "       climb occupancy --kernel <workload[:rung]|all> [--device N]\n"
    "\n"
    "The occupancy calculator: how many blocks of a kernel one SM holds at once and which limit binds (warps,\n"
    "blocks per SM, registers, shared memory), with each architecture's allocation rules: register unit and\n"
    "per-block or per-warp allocation, warp allocation granularity, shared-memory unit, and the 1 KB the\n"
    "driver reserves per block from CC 8.0 on. No GPU is needed except for --kernel.\n"
    "\n"
    "  --cc X.Y            compute capability (see --limits for the known ones)\n"
    "  --threads T         threads per block\n"
    "  --regs R            registers per thread (default 0: not limiting)\n"
    "  --smem BYTES        shared memory per block, static + dynamic (default 0)\n"
    "  --smem-config BYTES shared memory per SM to assume, one of the CC's configurations (default: largest)\n"
    "  --series            also the three 'impact of varying' series: block size, registers, shared memory\n"
    "  --svg PREFIX        write the series as PREFIX-block-size.svg, PREFIX-registers.svg, PREFIX-shared-memory.svg\n"
    "  --limits            the physical limits of every compute capability from 1.0 on\n"
    "  --kernel W[:R]|all  for the registry's kernels (workload W, rung R by number or name): registers and shared\n"
    "                      memory of the compiled code, the launch shape, the calculator's prediction and the CUDA\n"
    "                      runtime's answer side by side; exit 1 if any differ\n"
    "  --device N          the GPU for --kernel (default 0)\n"
    "\n"
    "Exit status: 0 the block fits (or the table was printed); 1 the block cannot launch (the reason is printed),\n"
    "or --kernel found the calculator and the runtime differ; 2 bad usage.\n";

/* "9.0": one or two digits, a point, one digit; nothing else (no sign, no space). */
static int parse_cc(const char *s, int *major, int *minor)
{
    int a = 0, n = 0;
    while (*s >= '0' && *s <= '9' && n < 2)
        a = a * 10 + (*s++ - '0'), n++;
    if (n == 0 || a < 1 || *s != '.' || s[1] < '0' || s[1] > '9' || s[2] != '\0')
        return -1;
    *major = a;
    *minor = s[1] - '0';
    return 0;
}

/* Compute capabilities that CUDA renamed: what the calculator knows them as. */
static const struct { int major, minor, now_major, now_minor; const char *since; } RENAMED[] = {
    {10, 1, 11, 0, "CUDA 13"},
};

/* "1 warp", "2 warps". */
static const char *plural(int n) { return n == 1 ? "" : "s"; }

static void limit_list(unsigned bits, char *buf, size_t len)
{
    static const char *const names[] = {"warps per SM", "blocks per SM", "registers", "shared memory"};
    buf[0] = '\0';
    size_t used = 0;
    for (int i = 0; i < 4; i++)
        if (bits & (1u << i)) {
            int k = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", names[i]);
            if (k > 0 && (size_t)k < len - used)
                used += (size_t)k;
        }
}

static void fmt_blocks(char *buf, size_t len, int b)
{
    if (b == INT_MAX)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%d", b);
}

static void print_configs(const climb_occ_arch *a, FILE *f)
{
    for (int i = 0; i < a->n_smem_configs; i++)
        fprintf(f, "%s%d", i ? "/" : "", a->smem_configs[i] / 1024);
    fputs(" KB", f);
}

static void print_limits_of(const climb_occ_arch *a)
{
    printf("Physical limits for CC %d.%d (%s):\n", a->cc_major, a->cc_minor, a->family);
    printf("  threads per warp %d; warps per SM %d; threads per SM %d; blocks per SM %d; threads per block %d\n",
           a->threads_per_warp, a->max_warps_per_sm, a->max_threads_per_sm, a->max_blocks_per_sm, a->max_threads_per_block);
    printf("  registers per SM %d; per block %d; per thread %d; allocated in units of %d per %s; warp allocation "
           "granularity %d\n",
           a->regs_per_sm, a->max_regs_per_block, a->max_regs_per_thread, a->reg_alloc_unit,
           a->reg_alloc_per_warp ? "warp" : "block", a->warp_alloc_granularity);
    printf("  shared memory per SM %d B (configurations ", a->smem_per_sm);
    print_configs(a, stdout);
    printf("); per block %d B, %d B with opt-in; allocation unit %d B; reserved per block %d B\n", a->smem_per_block,
           a->smem_per_block_optin, a->smem_alloc_unit, a->smem_reserved_per_block);
    if (a->note[0])
        printf("  note: %s\n", a->note);
}

static void print_result(const climb_occ_arch *a, const climb_occ_input *in, const climb_occ_result *r)
{
    if (r->refusal != CLIMB_OCC_FITS) {
        /* Nothing is allocated for a block that cannot launch: the reason alone. */
        printf("Cannot launch: %s\n", climb_occ_refusal_string(r->refusal));
        return;
    }
    printf("Allocation per block: %d warp%s, %d registers, %zu B shared memory%s\n", r->warps_per_block,
           plural(r->warps_per_block), r->regs_per_block, r->smem_per_block,
           a->smem_reserved_per_block ? " (1 KB reserved included)" : "");
    char bw[16], bb[16], br[16], bs[16];
    fmt_blocks(bw, sizeof bw, r->blocks_by_warps);
    fmt_blocks(bb, sizeof bb, r->blocks_by_block_limit);
    fmt_blocks(br, sizeof br, r->blocks_by_regs);
    fmt_blocks(bs, sizeof bs, r->blocks_by_smem);
    printf("Blocks per SM allowed by: warps %s, blocks-per-SM limit %s, registers %s, shared memory %s "
           "(with %zu B of shared memory per SM)\n", bw, bb, br, bs, r->smem_per_sm);
    char lim[96];
    limit_list(r->limited_by, lim, sizeof lim);
    printf("Active per SM: %d threads, %d warp%s, %d block%s\n", r->active_threads, r->active_warps,
           plural(r->active_warps), r->active_blocks, plural(r->active_blocks));
    printf("Occupancy: %.0f%% (%d of %d warps), limited by %s\n", 100.0 * r->occupancy, r->active_warps,
           a->max_warps_per_sm, lim);
    if (in->smem_per_block > (size_t)a->smem_per_block && a->smem_per_block_optin > a->smem_per_block)
        printf("Note: %zu B is more than the %d KB a block gets without opting in: the kernel needs "
               "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)\n",
               in->smem_per_block, a->smem_per_block / 1024);
}

/* ---- the three series ---- */

typedef struct { int x, warps; } point;

/* which: 0 block size, 1 registers, 2 shared memory. Returns the number of points (malloc'd into *out). */
static int series(const climb_occ_arch *a, const climb_occ_input *base, int which, point **out)
{
    int step = which == 0 ? a->threads_per_warp : which == 1 ? 1 : a->smem_alloc_unit;
    int lo = which == 0 ? a->threads_per_warp : which == 1 ? 1 : 0;
    int hi = which == 0 ? a->max_threads_per_block : which == 1 ? a->max_regs_per_thread : a->smem_per_block_optin;
    int n = (hi - lo) / step + 1;
    point *p = malloc(sizeof *p * (size_t)n);
    if (!p)
        return 0;
    for (int i = 0; i < n; i++) {
        climb_occ_input in = *base;
        int x = lo + i * step;
        if (which == 0)
            in.threads_per_block = x;
        else if (which == 1)
            in.regs_per_thread = x;
        else
            in.smem_per_block = (size_t)x;
        climb_occ_result r;
        p[i].x = x;
        p[i].warps = climb_occupancy(&in, &r) == CLIMB_STATUS_SUCCESS ? r.active_warps : 0;
    }
    *out = p;
    return n;
}

static const char *const SERIES_TITLE[] = {"Impact of varying block size", "Impact of varying register count per thread",
                                           "Impact of varying shared memory usage per block"};
static const char *const SERIES_X[] = {"threads per block", "registers per thread", "shared memory per block (bytes)"};
static const char *const SERIES_FILE[] = {"block-size", "registers", "shared-memory"};

static void print_series(const climb_occ_arch *a, const climb_occ_input *in)
{
    for (int w = 0; w < 3; w++) {
        point *p;
        int n = series(a, in, w, &p);
        printf("\n%s (active warps per SM; %s):\n", SERIES_TITLE[w], SERIES_X[w]);
        /* Runs of equal warps as ranges, as the sheet's step plots read. */
        for (int i = 0; i < n;) {
            int j = i;
            while (j + 1 < n && p[j + 1].warps == p[i].warps)
                j++;
            if (i == j)
                printf("  %8d %10s: %2d warp%s (%3.0f%%)\n", p[i].x, "", p[i].warps, plural(p[i].warps),
                       100.0 * p[i].warps / a->max_warps_per_sm);
            else
                printf("  %8d - %-8d: %2d warp%s (%3.0f%%)\n", p[i].x, p[j].x, p[i].warps, plural(p[i].warps),
                       100.0 * p[i].warps / a->max_warps_per_sm);
            i = j + 1;
        }
        free(p);
    }
}

static int write_svg(const char *path, const climb_occ_arch *a, const climb_occ_input *in, int which)
{
    point *p;
    int n = series(a, in, which, &p);
    if (n == 0)
        return -1;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "climb: cannot write %s: %s\n", path, strerror(errno));
        free(p);
        return -1;
    }
    const double W = 640, H = 360, L = 60, R = 20, T = 40, B = 50;
    plot_axis xa, ya;
    plot_lin_axis(&xa, 0, p[n - 1].x, L, W - R);
    plot_lin_axis(&ya, 0, a->max_warps_per_sm, H - B, T);
    char title[160];
    snprintf(title, sizeof title, "%s (CC %d.%d)", SERIES_TITLE[which], a->cc_major, a->cc_minor);
    plot_begin(f, W, H, title);
    plot_lin_grid(f, &xa, 8, &ya, 4); /* y: 0, 1/4 ... of the max warps */
    plot_axis_titles(f, &xa, &ya, H - 12, SERIES_X[which], "active warps per SM", NULL);
    double *xs = malloc((size_t)n * sizeof *xs), *ys = malloc((size_t)n * sizeof *ys);
    if (!xs || !ys) {
        fprintf(stderr, "climb: out of host memory for %s\n", path);
        free(xs);
        free(ys);
        free(p);
        fclose(f);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        xs[i] = p[i].x;
        ys[i] = p[i].warps;
    }
    plot_polyline(f, &xa, &ya, xs, ys, n, "#1f5fa8", 2, 1);
    fputs("\n", f);
    free(xs);
    free(ys);
    /* The chosen value: a red triangle, as on the sheet. */
    double cx = which == 0 ? in->threads_per_block : which == 1 ? in->regs_per_thread : (double)in->smem_per_block;
    climb_occ_result r;
    if (cx <= xa.hi && climb_occupancy(in, &r) == CLIMB_STATUS_SUCCESS) {
        double x = plot_at(&xa, cx), y = plot_at(&ya, r.active_warps);
        fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"#d62728\"><title>yours: %.0f, %d warps"
                   "</title></polygon>\n", x, y - 2, x - 6, y - 12, x + 6, y - 12, cx, r.active_warps);
    }
    plot_end(f);
    free(p);
    if (fclose(f) != 0) {
        fprintf(stderr, "climb: error writing %s\n", path);
        return -1;
    }
    printf("wrote %s\n", path);
    return 0;
}

static void print_limits_table(void)
{
    printf("%-5s %-16s %5s %7s %6s %6s %7s %7s %4s %4s %5s %2s %7s %5s %7s %7s %5s  %s\n", "CC", "family", "warps",
           "threads", "blocks", "block", "regs", "regs/bl", "r/th", "unit", "per", "wg", "smem/SM", "unit", "smem/bl",
           "opt-in", "resv", "configs");
    for (int i = 0; i < climb_occ_arch_count(); i++) {
        const climb_occ_arch *a = climb_occ_arch_at(i);
        printf("%2d.%-2d %-16s %5d %7d %6d %6d %7d %7d %4d %4d %5s %2d %7d %5d %7d %7d %5d  ", a->cc_major, a->cc_minor,
               a->family, a->max_warps_per_sm, a->max_threads_per_sm, a->max_blocks_per_sm, a->max_threads_per_block,
               a->regs_per_sm, a->max_regs_per_block, a->max_regs_per_thread, a->reg_alloc_unit,
               a->reg_alloc_per_warp ? "warp" : "block", a->warp_alloc_granularity, a->smem_per_sm, a->smem_alloc_unit,
               a->smem_per_block, a->smem_per_block_optin, a->smem_reserved_per_block);
        print_configs(a, stdout);
        if (a->note[0])
            printf("  (%s)", a->note);
        putchar('\n');
    }
    printf("\nwarps, threads, blocks: per SM; block: threads per block; regs: 32-bit registers per SM; regs/bl: per "
           "block;\nr/th: per thread; unit/per: register allocation unit and granularity; wg: warp allocation "
           "granularity;\nsmem: bytes; resv: reserved per block; configs: shared-memory sizes per SM that can be chosen.\n");
}

/* ---- registry kernels against the runtime ---- */

static int kernel_mode(const char *spec, int device)
{
    int n_w;
    const climb_workload *const *all = climb_workloads(&n_w);
    const climb_workload *only = NULL;
    int only_rung = -1;
    if (strcmp(spec, "all") != 0) {
        char name[64];
        snprintf(name, sizeof name, "%s", spec);
        char *colon = strchr(name, ':');
        if (colon)
            *colon = '\0';
        only = climb_find_workload(name);
        if (!only)
            return usage_error(OCC_USAGE, "--kernel: unknown workload in '%s' (run 'climb list')", spec);
        if (colon) {
            const char *r = colon + 1;
            only_rung = climb_find_rung(only, r);
            if (only_rung < 0 && parse_int(r, 0, only->n_rungs - 1, &only_rung) != 0)
                return usage_error(OCC_USAGE, "--kernel: no such rung in '%s' (run 'climb list <workload>')", spec);
        }
    }
    climb_device_info dev;
    if (open_device(device, &dev, 0, 0) != 0)
        return EXIT_FAILED;
    char msg[1024];
    int d = climb_occupancy_check_device(&dev, msg, sizeof msg);
    printf("%s, CC %d.%d: calculator's limits %s%s\n\n", dev.name, dev.cc_major, dev.cc_minor,
           d == 0 ? "agree with the device's" : "DIFFER from the device's: ", d == 0 ? "" : msg);
    printf("%-4s %-58s %6s %5s %6s %6s | %-20s %-28s | %7s %s\n", "rung", "kernel", "block", "regs", "smem", "spill",
           "calculator", "limited by", "runtime", "");
    int mismatches = d != 0;
    for (int wi = 0; wi < n_w; wi++) {
        const climb_workload *w = all[wi];
        if (only && w != only)
            continue;
        for (int r = 0; r < w->n_rungs; r++) {
            if (only_rung >= 0 && r != only_rung)
                continue;
            const climb_rung_info *ri = w->rung(r);
            if (!ri->kernels) {
                printf("%-4d %-58s (%s: its kernels are not in the registry)\n", r, ri->name,
                       ri->kind == CLIMB_RUNG_VENDOR ? "vendor library" : "a runtime copy");
                continue;
            }
            for (int t = 0; t < CLIMB_NTYPES; t++) {
                if (!(w->types & CLIMB_TYPE_BIT(t)))
                    continue;
                /* the best rung at the defaults of the workload's first bench case of this type */
                int nk = climb_rung_kernels(w, r, (climb_dtype)t, &dev, NULL, 0);
                climb_kernel_desc *ks = calloc((size_t)(nk > 0 ? nk : 1), sizeof *ks);
                if (!ks) {
                    climb_host_oom("the kernel list");
                    return EXIT_FAILED;
                }
                nk = climb_rung_kernels(w, r, (climb_dtype)t, &dev, ks, nk);
                for (int k = 0; k < nk; k++) {
                    climb_occ_check c;
                    if (climb_occupancy_check_kernel(&dev, &ks[k], &c) != 0) {
                        free(ks);
                        return EXIT_FAILED;
                    }
                    char lim[96], calc[48];
                    limit_list(c.predicted.limited_by, lim, sizeof lim);
                    snprintf(calc, sizeof calc, "%d blocks, %.0f%%", c.predicted.active_blocks, 100 * c.predicted.occupancy);
                    int same = c.predicted.active_blocks == c.runtime_blocks;
                    mismatches += !same;
                    printf("%-4d %-58s %6d %5d %6zu %6zu | %-20s %-28s | %7d %s\n", r, ks[k].name, ks[k].block_threads,
                           c.regs, c.static_smem + ks[k].dynamic_smem, c.local_bytes, calc, lim, c.runtime_blocks,
                           same ? "same" : "MISMATCH");
                }
                free(ks);
            }
        }
    }
    printf("\n%s\n", mismatches ? "the calculator and the runtime DIFFER" : "the calculator matches the runtime for every kernel");
    return mismatches ? EXIT_FAILED : 0;
}

int cmd_occupancy(int argc, char **argv)
{
    climb_occ_input in = {0, 0, 0, 0, 0, 0};
    int have_cc = 0, have_threads = 0, want_series = 0, limits = 0, device = 0;
    const char *svg = NULL, *kernel = NULL;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        int has = i + 1 < argc;
        size_t sz;
        if (is_help(o)) {
            fputs(OCC_USAGE, stdout);
            return 0;
        } else if (strcmp(o, "--cc") == 0 && has) {
            if (parse_cc(argv[++i], &in.cc_major, &in.cc_minor) != 0)
                return usage_error(OCC_USAGE, "--cc: '%s' is not a compute capability such as 9.0", argv[i]);
            have_cc = 1;
        } else if (strcmp(o, "--threads") == 0 && has) {
            if (parse_int(argv[++i], 1, 1 << 20, &in.threads_per_block) != 0)
                return usage_error(OCC_USAGE, "--threads: '%s' is not a thread count", argv[i]);
            have_threads = 1;
        } else if (strcmp(o, "--regs") == 0 && has) {
            if (parse_int(argv[++i], 0, 1 << 16, &in.regs_per_thread) != 0)
                return usage_error(OCC_USAGE, "--regs: '%s' is not a register count", argv[i]);
        } else if (strcmp(o, "--smem") == 0 && has) {
            if (parse_size(argv[++i], &sz) != 0 || sz > (1u << 30))
                return usage_error(OCC_USAGE, "--smem: '%s' is not a byte count", argv[i]);
            in.smem_per_block = sz;
        } else if (strcmp(o, "--smem-config") == 0 && has) {
            if (parse_size(argv[++i], &sz) != 0 || sz == 0 || sz > (1u << 30))
                return usage_error(OCC_USAGE, "--smem-config: '%s' is not a byte count", argv[i]);
            in.smem_config = sz;
        } else if (strcmp(o, "--series") == 0) {
            want_series = 1;
        } else if (strcmp(o, "--svg") == 0 && has) {
            svg = argv[++i];
            if (!svg[0])
                return usage_error(OCC_USAGE, "--svg: an empty prefix (write e.g. --svg plots/occupancy)%s", "");
            if (svg[strlen(svg) - 1] == '/')
                return usage_error(OCC_USAGE, "--svg %s: a prefix of file names, not a folder (write e.g. plots/cc35)",
                                   svg);
        } else if (strcmp(o, "--limits") == 0) {
            limits = 1;
        } else if (strcmp(o, "--kernel") == 0 && has) {
            kernel = argv[++i];
        } else if (strcmp(o, "--device") == 0 && has) {
            if (parse_int(argv[++i], 0, 1023, &device) != 0)
                return usage_error(OCC_USAGE, "--device: '%s' is not a device ordinal", argv[i]);
        } else {
            return usage_error(OCC_USAGE, "unknown or incomplete option '%s'", o);
        }
    }
    if (limits + (kernel != NULL) + (have_cc || have_threads) > 1)
        return usage_error(OCC_USAGE, "choose one of --limits, --kernel, or a calculation (--cc ...)%s", "");
    if (limits) {
        print_limits_table();
        return 0;
    }
    if (kernel)
        return kernel_mode(kernel, device);
    if (!have_cc || !have_threads)
        return usage_error(OCC_USAGE, "a calculation needs --cc and --threads%s", "");
    const climb_occ_arch *a = climb_occ_arch_find(in.cc_major, in.cc_minor);
    char cc[32];
    snprintf(cc, sizeof cc, "%d.%d", in.cc_major, in.cc_minor);
    if (!a) {
        for (size_t i = 0; i < sizeof RENAMED / sizeof RENAMED[0]; i++)
            if (RENAMED[i].major == in.cc_major && RENAMED[i].minor == in.cc_minor) {
                char hint[160];
                snprintf(hint, sizeof hint, "--cc: CC %s is called %d.%d from %s: use --cc %d.%d", cc,
                         RENAMED[i].now_major, RENAMED[i].now_minor, RENAMED[i].since, RENAMED[i].now_major,
                         RENAMED[i].now_minor);
                return usage_error(OCC_USAGE, "%s", hint);
            }
        return usage_error(OCC_USAGE, "--cc: the calculator does not know CC %s (see climb occupancy --limits)", cc);
    }
    climb_occ_result r;
    for (int w = 0; svg && w < 3; w++) { /* the plots' paths before any work */
        char path[1024], why[200];
        snprintf(path, sizeof path, "%s-%s.svg", svg, SERIES_FILE[w]);
        if (climb_report_path_ok(path, why, sizeof why) != 0) {
            fprintf(stderr, "climb: cannot write %s: %s\n", path, why);
            return EXIT_USAGE;
        }
    }
    if (climb_occupancy(&in, &r) != CLIMB_STATUS_SUCCESS) {
        char msg[200];
        size_t used = (size_t)snprintf(msg, sizeof msg, "--smem-config: CC %s offers ", cc);
        for (int i = 0; i < a->n_smem_configs && used < sizeof msg; i++)
            used += (size_t)snprintf(msg + used, sizeof msg - used, "%s%d", i ? ", " : "", a->smem_configs[i]);
        snprintf(msg + used, used < sizeof msg ? sizeof msg - used : 0, " bytes per SM%s", "");
        return usage_error(OCC_USAGE, "%s", msg);
    }
    printf("CC %s, %d threads per block, %d registers per thread, %zu B shared memory per block\n\n", cc,
           in.threads_per_block, in.regs_per_thread, in.smem_per_block);
    print_limits_of(a);
    putchar('\n');
    print_result(a, &in, &r);
    if (want_series)
        print_series(a, &in);
    if (svg) {
        putchar('\n');
        for (int w = 0; w < 3; w++) {
            char path[1024];
            snprintf(path, sizeof path, "%s-%s.svg", svg, SERIES_FILE[w]);
            if (write_svg(path, a, &in, w) != 0)
                return EXIT_FAILED;
        }
    }
    return r.refusal == CLIMB_OCC_FITS ? 0 : EXIT_FAILED; /* scripts can tell a block that cannot launch */
}
