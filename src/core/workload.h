/* The contract between the harness and a workload (v3).
 *
 * A workload file (src/workloads/<name>.cu) holds its CPU reference, kernels, launchers and ONE registry table
 * of rungs, and fills one climb_workload with designated initializers. The CLI, the harness (bench, check,
 * tune), the reports, the occupancy check, the library face and the scripts read only this struct: a new
 * workload needs no special case anywhere else. docs/architecture.md walks through the fields with reduce and
 * the test workload (tests/workloads/affine.cu) as examples; climb_workload_validate() checks a table.
 *
 * What the workload supplies, per case (shape x type x option values): inputs, a reference, each rung's run,
 * poison and verify, and the counts (bytes read and written, flops, items) the roofline is computed from.
 * What the harness does: choosing cases, timing, the reference mode, resetting operands a run changes,
 * verifying every run, and every report. */
#ifndef CLIMB_CORE_WORKLOAD_H
#define CLIMB_CORE_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "../device/device.h"
#include "../device/device_set.h"
#include "options.h"
#include "../base/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CLIMB_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

typedef struct climb_case climb_case;  /* a workload's own inputs, outputs, reference and workspaces */

/* ---- rungs ---- */

typedef enum climb_rung_kind {
    CLIMB_RUNG_VENDOR = 1,   /* NVIDIA's library (CUB, cuBLAS, cuSPARSE, cuDNN): a second reference and the bar */
    CLIMB_RUNG_LADDER = 2,   /* a step of the ladder: the textbook kernel, then one named optimization each */
    CLIMB_RUNG_BEST = 3,     /* the top: tuned by `climb tune`, behind the C API; exactly one per workload */
    CLIMB_RUNG_BOUND = 4     /* not a solution: the cheapest way to move the case's bytes (a copy of them), to show
                                what the hardware allows. Timed and verified like the others, by the workload's own
                                rule for that rung (verify is told which rung ran); outside the step and cumulative
                                columns; every row gets its ratio to the first bound rung (vs_bound) */
} climb_rung_kind;

const char *climb_rung_kind_name(climb_rung_kind k);

/* One kernel a rung launches, with its launch shape: what `climb occupancy --kernel` and the occupancy test
 * give to the calculator and to the CUDA runtime. */
typedef struct climb_kernel_desc {
    char name[96];
    const void *func;          /* the __global__ function */
    int block_threads;
    size_t dynamic_smem;
} climb_kernel_desc;

/* Fills out[0 .. min(n, max)) with the kernels a rung launches for type t on dev and returns n, how many there
 * are (more than max: call again with room for n). `tuning` is the best rung's values (other rungs ignore it). */
typedef int (*climb_kernels_fn)(climb_dtype t, const climb_device_info *dev, const int *tuning,
                                climb_kernel_desc *out, int max);

/* The one kernel-descriptor helper: fills out[i] when i < max (func, block, dynamic shared memory, the name from
 * fmt), and returns i + 1, how many are listed so far; a NULL func lists nothing (returns i). A kernels function
 * chains it: n = climb_kernel_at(o, max, 0, ...); n = climb_kernel_at(o, max, n, ...); return n. */
int climb_kernel_at(climb_kernel_desc *out, int max, int i, const void *func, int block_threads, size_t dynamic_smem,
                    const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* For a kernels function that lists one kernel: fills out[0] when max >= 1; returns 1. */
int climb_one_kernel(climb_kernel_desc *out, int max, const void *func, const char *name, int block_threads,
                     size_t dynamic_smem);
/* The kernels function of a ladder rung that launches none of its own (its work is the copy engines'): lists 0. */
int climb_no_kernels(climb_dtype t, const climb_device_info *dev, const int *tuning, climb_kernel_desc *out, int max);

typedef struct climb_rung_info {
    const char *name;          /* what it does: reduce_seq_addressing. The identity: ordinals are table positions */
    const char *idea;          /* one line: the optimization this rung adds */
    const char *needs;         /* "" when it takes every case; else what it refuses (refuses() says why) */
    climb_rung_kind kind;
    climb_kernels_fn kernels;  /* the kernels it launches; NULL only for a vendor or bound rung (its kernels are not
                                  ours); climb_no_kernels for a ladder rung that launches none */
    double published_us;       /* the book's time for the workload's published case (w->published); 0: none */
    double published_rate;     /* the book's rate in w->published->rate_unit; 0: none */
    int host_part;             /* 1: a run waits for the host inside itself (a level-synchronous loop driven from
                                  the host, a CPU build, a CPU overflow list): timed by the wall clock around the
                                  run and a wait for its stream, the host's work included, and refused under
                                  --batch (back-to-back launches cannot hold a run that waits for the host). The
                                  reports mark its rows ("timing": "wall") */
    int beside;                /* vendor rungs only: 1 for a library rung shown beside the bar, not part of it (CUB's
                                  radix sort beside its merge sort: another algorithm). The vendor ratio of every row
                                  is to the fastest vendor rung without it; the reports mark its rows */
    int device_launches;       /* 1: its kernels launch kernels (dynamic parallelism). compute-sanitizer's racecheck
                                  and synccheck do not support that, so scripts/gpu-run.sh gives it memcheck alone;
                                  `climb list` and the reports say so */
    /* The row's own run, for a workload without a run hook (the default run): every launch of one run of this
     * rung on s; the harness checks the error it returns. NULL where the workload's run hook runs the rungs. */
    cudaError_t (*launch)(climb_case *c, cudaStream_t s);
    /* The row's own refusal, asked before the workload's refuses hook: NULL if this rung takes the case, else why
     * not. NULL: the rung refuses nothing of its own. */
    const char *(*refuses)(const climb_case *c);
    /* The rung's earlier name, where it was renamed (NULL: none): reports made before carry it, and climb compare
     * and climb report read it as this rung's. */
    const char *formerly;
} climb_rung_info;

/* The case a source text published figures for, shown beside the measured ladder in docs/<workload>.md. */
typedef struct climb_published {
    const char *source;        /* the text and its table: "Harris, ..., 'Performance for 4M element reduction'" */
    const char *gpu;           /* "G80" */
    climb_dtype type;
    climb_shape shape;
    const char *rate_unit;     /* "GB/s" */
} climb_published;

/* ---- what a run costs: the roofline ---- */

/* Measured ceilings a workload may name beside memory bandwidth and FMA throughput (always on the roofline). */
typedef enum climb_ceiling {
    CLIMB_CEIL_NONE = 0,
    CLIMB_CEIL_SFU = 1,        /* special-function unit: rsqrt, sin, cos, exp2, log2 (MUFU), ops per second */
    CLIMB_CEIL_TENSOR = 2      /* the tensor cores: dense matrix products with FP32 accumulation, BF16 and TF32
                                  inputs, flop/s (counts.tensor_flops in counts.tensor_format) */
} climb_ceiling;

/* The input format of the flops a run does on the tensor cores. */
typedef enum climb_tensor_format {
    CLIMB_TENSOR_NONE = 0,
    CLIMB_TENSOR_BF16 = 1,
    CLIMB_TENSOR_TF32 = 2
} climb_tensor_format;

const char *climb_ceiling_name(climb_ceiling c);
/* "bf16", "tf32" or "none"; and back ("none" for anything else). */
const char *climb_tensor_format_name(climb_tensor_format f);
climb_tensor_format climb_tensor_format_parse(const char *s);

/* Counted per run of one case: the least a correct run must do, the same for every rung, unless a rung declares
 * its own (w->rung_counts: a cutoff rung that examines fewer atoms, an accurate sinf's special-function work). */
typedef struct climb_counts {
    double bytes_read;         /* device-memory bytes read (w->bytes_counted says which) */
    double bytes_written;
    double flops;              /* floating-point operations at the case's precision, an FMA counted as 2 */
    double items;              /* in w->items_unit (edges, keys, atom-evaluations); 0 when there is no unit */
    double special_ops;        /* operations on w->extra_ceiling */
    double link_bytes;         /* a case across GPUs: the bytes one GPU sends to the others, the busiest GPU's (one
                                * direction of its links; nccl-tests' bus bytes for a collective) */
    double tensor_flops;       /* the flops a run does on the tensor cores (an FMA as 2), in tensor_format: for a
                                * product of three tensor-core terms, three times its own flops. Where it is > 0
                                * the FMA ceiling does not apply (flops still counts the useful work, for GFLOP/s) */
    climb_tensor_format tensor_format;
} climb_counts;

/* ---- references ---- */

typedef enum climb_ref_mode {
    CLIMB_REF_AUTO = 0,        /* the harness chooses: cpu unless the case's ref_cost is over ref_cost_limit */
    CLIMB_REF_CPU = 1,         /* the whole output computed on the CPU (in higher precision for floats) */
    CLIMB_REF_VENDOR = 2,      /* the vendor rung's output (run once, on the GPU), spot-checked on the CPU */
    CLIMB_REF_SAMPLES = 3      /* CPU values of random samples of the output only */
} climb_ref_mode;

const char *climb_ref_mode_name(climb_ref_mode m);

/* The elements a reference of mode computes, for an output of n elements: every one (CPU: *samples NULL, *count n),
 * or at most max drawn from seed (SAMPLES, and a VENDOR reference's spot checks: *samples malloc'd, free it). 0, or
 * -1 when out of host memory (said). */
int climb_ref_points(climb_ref_mode mode, uint64_t seed, size_t n, size_t max, size_t **samples, size_t *count);

/* ---- cases ---- */

typedef struct climb_case_params {
    climb_shape shape;
    climb_dtype type;
    uint64_t seed;                  /* inputs are drawn from this */
    unsigned offset;                /* inputs start this many elements past an aligned allocation (misalignment) */
    const climb_opt_value *opts;    /* one value per option, in the table's order; FILE values carry the loaded
                                       data (opts[k].data) */
    const climb_device_info *dev;
    int n_devices;                  /* the GPUs the case spans: 1, or the set's size for a workload that spans
                                       several (min_devices..max_devices) */
    const int *devices;             /* their ordinals, n_devices of them; devices[0] is dev's */
    const climb_device_info *devs;  /* each one's facts (devs[0] is *dev's) */
    const struct climb_procs *procs; /* NULL: this process drives every GPU of the case; else one process a GPU
                                       (a workload whose `processes` is 1): this one drives devices[procs->rank] */
} climb_case_params;


/* What a rung's prepare built for a case beside the case's own inputs (a converted sparse format, an analysis),
 * done once and untimed, so reported apart from the run: the device bytes it keeps and the wall time it took. */
typedef struct climb_setup {
    double bytes;                   /* device bytes the rung keeps for its runs (its format, its workspace) */
    double ms;                      /* milliseconds the build took (host work, copies, device kernels) */
} climb_setup;

/* ---- the case kit: what the harness does for every workload alike ---- */

/* A buffer the workload declares in its table (w->buffers). The harness allocates it once the case's sizes are known
 * (after init: a host copy and/or a device array, the host memory checked first, one out-of-memory message), uploads
 * it after fill when it is an input, fills it with its poison before every run when it is an output, downloads it to
 * its host copy before verify (and before a vendor reference) when it is an output with one, and frees it with the
 * case. The pointers land in the case's own fields: host_at and device_at are offsetof(climb_case, field) of a
 * pointer field (0: none; the case starts with its params, so 0 is never a pointer's). */
enum {
    CLIMB_BUF_HOST = 1,        /* a host copy */
    CLIMB_BUF_DEVICE = 2,      /* a device array (16 spare bytes after it, for vector loads that round up) */
    CLIMB_BUF_INPUT = 4,       /* fill writes the host copy; uploaded to the device array before the reference */
    CLIMB_BUF_OUTPUT = 8,      /* poisoned before every run; its host copy (if any) downloaded before verify */
    CLIMB_BUF_OFFSET = 16,     /* the device array starts p.offset elements (of the case's type) past its allocation */
    CLIMB_BUF_ZERO = 32        /* zeroed when allocated (host and device) */
};
typedef struct climb_buffer {
    const char *name;              /* for messages: "x", "the levels" */
    unsigned flags;                /* CLIMB_BUF_* */
    size_t (*bytes)(const climb_case *c); /* its size, from the case as init left it; 0: an empty buffer (no pointer) */
    size_t host_at, device_at;     /* offsetof(climb_case, field), 0 for none */
    unsigned char poison;          /* outputs: the byte every byte is set to before a run (0xFF: NaN, -1) */
    /* With CLIMB_BUF_OFFSET: the bytes the device array starts past its allocation, where the workload moves it
     * further than the case's offset (a pattern of its own); NULL: p.offset elements of the case's type. */
    size_t (*shift)(const climb_case *c);
} climb_buffer;

/* ---- tuning (experiment mode, `climb tune`) ---- */

/* A limit that remains: more parameters than this are refused by climb_workload_validate and climb tune. */
#define CLIMB_MAX_TUNABLES 16

typedef struct climb_tunable {
    const char *name;              /* "block" */
    const char *meaning;           /* "threads per block" */
    const int *values;             /* every value the parameter may take, ascending */
    int n_values;
} climb_tunable;

/* What the default values may depend on: the case's shape and type, and its option values (NULL where the caller
 * has none to give: then the options' defaults hold; only the keys_tuning options' values are ever needed). */
typedef struct climb_tuning_key {
    climb_shape shape;
    climb_dtype type;
    const climb_opt_value *opts;    /* in the table's order */
} climb_tuning_key;

typedef struct climb_tuning {
    const climb_tunable *params;
    int n_params;
    /* The candidates: every combination of the parameters' values, or, where that product is wrong, an
     * explicit list of n_candidates sets of n_params values each. */
    const int *candidates;
    int n_candidates;
    /* The built-in values for a case on dev (the per-architecture policy); returns where they come from. NULL where
     * they are the same on every device for every case: then builtin (n_params values) and builtin_why say them. */
    const char *(*defaults)(const climb_device_info *dev, const climb_tuning_key *k, int *values);
    const int *builtin;
    const char *builtin_why;
    /* Device rules beyond the lists (NULL: none): NULL if `values` can run on dev, else why not. */
    const char *(*rejects)(const climb_device_info *dev, const int *values);
    /* The part of a case's tuning class that its type and shape give on dev (NULL: none): writes a short name,
     * "f32,large", that climb_tuning_class appends to the keys_tuning options'. Cases of one class share tuned
     * values; `climb tune` tunes each class of its cases apart, and the wisdom keeps an entry per class. */
    void (*shape_class)(const climb_device_info *dev, const climb_tuning_key *k, char *buf, size_t len);
    /* What shape_class's classes are, for `climb list` (required with it): "the element type, and large or small". */
    const char *shape_class_meaning;
} climb_tuning;

/* ---- sweeps: the figures the docs draw ---- */

/* A rate drawn against one of the case's sizes or option values (an SVG in docs/img, one line per rung and per
 * value of anything else that varies), from a bench run with extra arguments: `climb bench W --sweep NAME` adds
 * `args` to the command line; scripts/gpu-run.sh runs every sweep into results/<gpu>/W/sweep-NAME.json and
 * scripts/results_tables.py draws docs/img/W-NAME-<gpu>.svg from it. */
typedef struct climb_sweep {
    const char *name;              /* "offset" */
    const char *title;             /* "read, add one, write: GB/s against the misaligned start" */
    const char *args;              /* bench arguments, space-separated ("--set pattern=misaligned --set offset=0,1,2");
                                      NULL: no run of its own, the figure is drawn from the default bench (bench.json).
                                      Real inputs are named {data}/kind/file: the data folder ($CLIMB_DATA, else
                                      ../shared/data beside the source tree); where one is missing the sweep is
                                      skipped with a note (exit 0) */
    const char *x;                 /* across: a dim's name ("rows") or an int or float option's ("offset") */
    int log_x;                     /* 1: x on a log scale (a size swept by factors) */
    int overview;                  /* 1: the README's results overview gives this sweep's best rung a row of its
                                      own beside the bench's (a figure the workload's bench does not hold, as
                                      gemm's 3xTF32 against cuBLAS's FP32 SGEMM); needs args */
} climb_sweep;

/* ---- the workload ---- */

typedef struct climb_workload {
    const char *name;              /* "reduce": the CLI name, the results folder, the docs page */
    const char *title;
    const char *sources;           /* where the ladder comes from */
    const char *command;           /* NULL, or a CLI command of its own: `climb <command> ARGS` is `climb bench <name>
                                      ARGS` ("bandwidth", the bandwidthTest the CUDA samples dropped) */
    const char *dims[CLIMB_MAX_DIMS]; /* names of the shape's sizes: {"n"}, {"rows", "cols"}, {"m", "n", "k"} */
    const char *shape_format;      /* how a shape reads in labels, each {dim} replaced by its size in decimal:
                                      "N{N} C{C} {H}x{W} K{K} {R}x{S}" gives "N64 C64 56x56 K64 3x3". Every dim
                                      appears. NULL: "dims=sizes" ("rows,cols=4096x4096", "n=2^22") */
    unsigned types;                /* CLIMB_TYPE_BIT of each supported type */
    unsigned bench_types;          /* 0: climb bench and tune run every type; else the types they run when no --type
                                      is given (a subset of types: a ladder whose rows are alike across types, its
                                      other types checked and tested, benched on demand) */
    /* The GPUs a case spans: 0 and 0 for one GPU (most workloads); else 1 <= min_devices <= max_devices <=
     * CLIMB_MAX_DEVICES, the set given by --gpus or --devices (by default the first min_devices GPUs), each case's
     * in its params (devices, devs). */
    int min_devices, max_devices;
    /* 1: a case may also run as one process a GPU, each process driving its own (climb under an MPI launcher,
     * params.procs): the case makes its calls in the same order on every process, issues work only on its own GPU,
     * reaches the others' arrays through CUDA's interprocess handles, and checks its own GPU's output. */
    int processes;
    const climb_option *options;   /* NULL when there are none */
    int n_options;

    const char *bytes_counted;     /* which bytes counts.bytes_read/written count */
    const char *items_unit;        /* NULL, or the natural unit of counts.items: "edges" */
    const char *items_rate;        /* its rate's unit: "GTEPS" */
    double items_rate_scale;       /* items a second in one unit of items_rate ("M kernels/s": 1e6); 0: 10^9 */
    climb_ceiling extra_ceiling;   /* a ceiling beside memory and FMA the harness measures for this workload */
    int cold_no_flush;             /* 1: cold samples start from an idle GPU with no L2 flush before them. For work
                                      whose cost is launching, not memory: a flush kernel running ahead lets the
                                      host issue the run behind it, hiding part of the cost being measured */

    const climb_shape *bench_shapes;  /* what `climb bench` and `climb tune` run by default */
    int n_bench_shapes;
    const climb_shape *check_shapes;  /* the edge sweep of `climb check`: 0, 1, odd, non-multiples of tiles */
    int n_check_shapes;
    const climb_shape *quick_shapes;  /* a few shapes that reach every code path, for slow tools (the sanitizer) */
    int n_quick_shapes;
    const climb_shape *main_shapes;   /* the size class of the quick bench (`climb bench all`, the main command, and
                                         `bench W --quick`): one or two shapes of bench_shapes' kind that show the
                                         ladder's steps (past the L2 for memory-bound work, a full wave for compute)
                                         at a small cost in inputs and CPU references. NULL: bench_shapes */
    int n_main_shapes;
    const climb_shape *tune_shapes;   /* the sizes `climb tune` times the candidates over, where they differ (a best
                                         rung's crossover between two ways: the sizes around it). NULL: bench_shapes */
    int n_tune_shapes;
    unsigned check_max_offset;     /* check also runs offsets 1..this on small shapes (misaligned inputs) */

    int n_rungs;
    const climb_rung_info *(*rung)(int i);
    const climb_published *published; /* NULL: the texts published no figures for this ladder */
    const climb_sweep *sweeps;     /* NULL when there are none */
    int n_sweeps;
    /* A workload whose cases span GPUs from one (min_devices 1) is measured at several GPU counts: its default bench
     * is strong scaling (the same grid on 1, 2, 4, ... GPUs). weak_scaling is the bench arguments of its weak-scaling
     * run, where the problem grows with the GPUs ("--set split=weak --size 512x512x512": each GPU's share);
     * scripts/gpu-run.sh runs both at every count (bench.json and bench-weak.json in results/<gpu>x<N>/) and
     * scripts/results_tables.py draws the scaling tables from them. NULL: strong scaling alone. */
    const char *weak_scaling;

    /* Reads a user's file for a FILE option, before any GPU work: 0, or -1 with err "file:line: what is wrong".
     * *data is freed with unload; *shape (ndims 0 to leave it open) fixes the case's shape; desc describes the
     * input in reports. NULL when the workload has no FILE option. */
    int (*load)(const char *path, void **data, climb_shape *shape, char *desc, size_t desclen, char *err,
                size_t errlen);
    void (*unload)(void *data);
    /* What --dry-run needs of a user's file: the shape and the description from its header alone (a Matrix Market
     * size line, a file's size), without reading the rest; the same errors as load for what it reads. NULL: the
     * dry run loads the file whole. */
    int (*peek)(const char *path, climb_shape *shape, char *desc, size_t desclen, char *err, size_t errlen);

    /* The case, one of two ways. The kit (case_size set): the harness allocates case_size zeroed bytes, whose first
     * member must be `climb_case_params p` (it is set); calls init (sizes and derived fields; may be NULL), allocates
     * the declared buffers, calls fill (inputs on the host, the reference's own data; may be NULL) and uploads the
     * inputs; fini (may be NULL) frees what init, fill and prepare made beyond the buffers; the harness frees the
     * buffers and the case. Or by hand: create allocates the case and its inputs, destroy frees it all. 0, or -1
     * (printed). */
    size_t case_size;
    const climb_buffer *buffers;
    int n_buffers;
    int (*init)(climb_case *c);
    int (*fill)(climb_case *c);
    void (*fini)(climb_case *c);
    int (*create)(const climb_case_params *p, climb_case **out);
    /* One line describing the case's inputs (a generator's parameters); NULL for none. May be NULL. */
    const char *(*describe)(const climb_case *c);
    /* The reference, computed once per case before any rung runs. mode is CPU or SAMPLES, or VENDOR with the
     * vendor rung's output in the outputs (to be spot-checked and adopted). desc names it ("CPU, double
     * accumulation"). 0; 1 when the vendor's output fails the spot checks (desc says how); -1 error (printed). */
    int (*reference)(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen);
    /* What a full CPU reference of this case costs, in the workload's own unit; over ref_cost_limit the harness
     * picks VENDOR (or SAMPLES without a vendor rung that takes the case). NULL: always cheap. */
    double (*ref_cost)(const climb_case *c);
    double ref_cost_limit;

    /* The host memory a case of this shape, type and options needs at the least (its inputs and outputs' host
     * copies), known before anything is allocated. The harness refuses a case over half the host memory before
     * creating it, and `--dry-run` says so too (exit 1, as the run would fail). NULL: no estimate (create decides). */
    double (*case_bytes)(const climb_shape *s, climb_dtype t, const climb_opt_value *opts);
    /* A size rule of the workload's own, checked as case_bytes is (before create, and in a dry run): NULL if the
     * case can be made, else why not ("the counts are 32-bit: n must be below 2^32 - 1"). NULL: none. */
    const char *(*case_refuses)(const climb_shape *s, climb_dtype t, const climb_opt_value *opts);
    /* NULL if rung takes this case, else a one-line reason. */
    const char *(*refuses)(const climb_case *c, int rung);
    /* Untimed per-rung set-up (workspace). 0 or -1 (printed). May be NULL. */
    int (*prepare)(climb_case *c, int rung);
    /* After prepare: what it built for the rung (the device bytes it keeps), for the report's setup columns; the
     * time it took is the harness's measurement of prepare (out->ms is overwritten): of a second prepare where the
     * workload has release, the first (untimed, released) having paid what a process pays once, as loading the
     * kernels' modules. 1 with *out filled; 0 when the
     * rung builds nothing worth reporting. NULL: no rung builds anything. Read after release too: keep the figure. */
    int (*setup)(const climb_case *c, int rung, climb_setup *out);
    /* NULL if a run of `rung` leaves every operand it reads as it was; else what it changes ("C is read and
     * written when beta != 0"). The harness then calls reset before every run, untimed, and refuses --batch
     * for the rung. May be NULL (nothing is ever changed). */
    const char *(*modifies)(const climb_case *c, int rung);
    /* Restores the operands a run changes, on stream s. 0 or -1 (printed). Needed when modifies can say so. */
    int (*reset)(climb_case *c, cudaStream_t s);
    /* One complete run of the rung on s (every launch it needs). 0 or -1 (printed). NULL: each rung's own launch. */
    int (*run)(climb_case *c, int rung, cudaStream_t s);
    /* Batch timing's `reps` runs of the rung back to back on s, as one: for a case whose runs can follow each other
     * without the timed stream between them (a workload across GPUs forks its GPUs' streams from s once, runs reps
     * times on them, each run ordered after the last as the rung needs, and joins once, as nccl-tests times
     * collectives). 0 or -1 (printed). NULL: reps calls of run. */
    int (*run_batch)(climb_case *c, int rung, cudaStream_t s, int reps);
    /* 1 when the case has nothing to compute (an empty lattice or matrix): no rung launches anything for it, and
     * verify still runs. NULL: every case runs. */
    int (*empty)(const climb_case *c);
    /* Fills the outputs with values no correct run leaves there. 0 or -1 (printed). NULL: the declared outputs'
     * poison bytes. The harness waits for the current GPU after it; a case spanning GPUs waits for the others'
     * writes itself (its streams need not follow their legacy streams). */
    int (*poison)(climb_case *c);
    /* Copies the outputs of the last run, a run of `rung`, back and compares every element (or the samples) with
     * the reference (a bound rung's with what it must produce): 0 right, 1 wrong (msg says how), -1 error
     * (printed). */
    int (*verify)(climb_case *c, int rung, char *msg, size_t msglen);
    void (*counts)(const climb_case *c, climb_counts *out);
    /* A rung's own counts, where its work differs from the case's (it examines fewer elements, does other special-
     * function work): 1 with *out filled, and its roofline is its own; 0: the case's counts. The reports say which
     * counts a row used ("counts": "rung" or "case"). NULL: every rung uses the case's. */
    int (*rung_counts)(const climb_case *c, int rung, climb_counts *out);
    /* The CUDA device whose stream times this case's runs, or < 0 for the run's device (where the harness's stream
     * is). A transfer from one GPU to another times on its sender's: the timer's start and stop then wait for no
     * other GPU (a wait across GPUs costs microseconds, more than a 4-byte transfer takes). Cold samples flush that
     * device's L2. One process only (with several, each times on its own). NULL: the run's device, always. */
    int (*timer_device)(const climb_case *c);
    /* One line about the last run of `rung` on this case that the row's figures do not say (the share of the atoms
     * a cutoff rung examined that were within the cutoff, the overflow a fixed-capacity bin sent to the CPU), or
     * NULL for none. The harness asks after every measured run and adds it to the report's notes as "case, rung:
     * line". rung_counts is asked again after the run too, so a rung's counts may depend on what its run found.
     * Both are asked after release: keep what they need in the case. NULL: no rung has anything to add. */
    const char *(*rung_note)(climb_case *c, int rung);
    /* Frees what prepare built for `rung` (a converted format, a workspace, a library's descriptors) once the
     * harness is done with that rung on this case, so that a case holds one rung's large buffers at a time;
     * prepare builds them again if the rung runs again. NULL: they stay until destroy. */
    void (*release)(climb_case *c, int rung);
    /* Writes what the last run of `rung` left in the outputs (the kit's downloaded first) to path, in the form of the workload's input files (a
     * filtered image as a PGM), for `climb bench W --output FILE`: a user sees what the ladder computes. 0, or -1
     * with err ("path: why"). NULL: the workload's outputs are not something to look at as a file. */
    int (*save)(climb_case *c, int rung, const char *path, char *err, size_t errlen);
    void (*destroy)(climb_case *c);  /* with create */

    /* The best rung's tunable parameters; NULL: nothing to tune. */
    const climb_tuning *tuning;
    /* The tuned values the best rung runs with on this case from now on (the harness calls it after create). */
    void (*set_tuning)(climb_case *c, const int *values);
} climb_workload;

/* 1 if a case of w spans several GPUs (w->max_devices > 1 or w->min_devices > 1). */
int climb_spans_devices(const climb_workload *w);

/* ---- the registry ---- */

/* Every workload: the built-in ones (the registry CMake generates from CLIMB_ALL_WORKLOADS), then any registered at run time, in order. */
const climb_workload *const *climb_workloads(int *count);
/* Adds a workload to the list (the tests add their test workload). 0, or -1 if the name is taken. */
int climb_register_workload(const climb_workload *w);
const climb_workload *climb_find_workload(const char *name);
/* Index of the rung called `name`, or numbered so (the ordinal `climb list` prints: "3"), or -1. */
int climb_find_rung(const climb_workload *w, const char *name);
/* The shapes a run takes when the user names none: check's edge sweep (or its quick shapes), bench's list (or, for a
 * quick bench, its main size class, falling back to the bench list). */
const climb_shape *climb_default_shapes(const climb_workload *w, int check, int quick, int *n);
/* The shapes `climb tune` runs: the workload's tune_shapes, else its bench list. */
const climb_shape *climb_tune_shapes(const climb_workload *w, int *n);
/* A size class of the bench (`climb bench --size-class`, SHOC's and Parboil's presets): 'S' the smallest shape
 * of the bench list (by elements), 'M' the quick run's main sizes (the bench list where there are none), 'L' the
 * largest of the bench list. NULL for another letter. */
const climb_shape *climb_size_class_shapes(const climb_workload *w, char cls, int *n);
/* Index of the rung marked CLIMB_RUNG_BEST, or -1. */
int climb_best_rung(const climb_workload *w);
/* The kernels rung r of workload w launches for type t on dev, as climb_kernels_fn lists them, at w's own tuning
 * values: the defaults of w's first bench shape where r is w's tuned best rung, else none. For a rung that borrows
 * another workload's kernels (its values are not w's: passing them on lists the wrong, even empty, blocks), and for
 * climb occupancy. */
int climb_rung_kernels(const climb_workload *w, int r, climb_dtype t, const climb_device_info *dev,
                       climb_kernel_desc *out, int max);
/* Index of the first vendor rung, or -1. */
int climb_vendor_rung(const climb_workload *w);
/* Index of the first bound rung, or -1. */
int climb_bound_rung(const climb_workload *w);
/* Index of the first ladder (or best) rung: where the ladder's cumulative column starts. */
int climb_first_ladder_rung(const climb_workload *w);
/* 1 for the rungs on the ladder proper (ladder and best), which have step and cumulative figures. */
int climb_rung_on_ladder(const climb_workload *w, int rung);
/* The sweep called `name`, or NULL. */
const climb_sweep *climb_find_sweep(const climb_workload *w, const char *name);
/* How many dims the workload declares. */
int climb_workload_ndims(const climb_workload *w);
/* "n" or "rows, cols". */
void climb_workload_dims(const climb_workload *w, char *buf, size_t len);
/* "n=2^22" or "rows,cols=4096x4096", or the workload's shape_format filled in. */
void climb_case_label(const climb_workload *w, const climb_shape *s, char *buf, size_t len);

/* Checks a table is complete and consistent (names, dims, types, options and their defaults, shapes, rung kinds
 * and order, kernels, hooks, tuning lists, published figures). Returns the number of problems, each described
 * in msg (semicolon-separated). */
int climb_workload_validate(const climb_workload *w, char *msg, size_t len);

/* ---- tuning helpers ---- */

/* How many candidates, and the i-th (explicit list row, or the combination with the first parameter slowest). */
long climb_tuning_count(const climb_tuning *tn);
void climb_tuning_values(const climb_tuning *tn, long i, int *values);
/* The built-in values of case k on dev (the tuning's defaults, or its fixed builtin); returns where they come from. */
const char *climb_tuning_defaults(const climb_tuning *tn, const climb_device_info *dev, const climb_tuning_key *k,
                                  int *values);
/* NULL if values is a candidate that can run on dev; else why not ("block is not one of 128, 256, 512, 1024",
 * "not one of the 6 listed candidate sets", or the workload's rejects). buf holds a generated message. */
const char *climb_tuning_check(const climb_tuning *tn, const climb_device_info *dev, const int *values, char *buf,
                               size_t len);
/* The tuning class of case k on dev: its keys_tuning options as "name=value" (the value as written; k NULL or
 * k->opts NULL: the options' defaults), comma-separated in the table's order, then the tuning's shape_class of
 * k on dev where it has one (and k and dev are given): "radius=2", "bins=256,dims=2", "f32,large"; "" when
 * nothing keys the tuning. Cases of one class share tuned values; the wisdom keeps one entry per class. */
void climb_tuning_class(const climb_workload *w, const climb_tuning_key *k, const climb_device_info *dev, char *buf,
                        size_t len);
/* 1 when an option of w keys its tuning, or its tuning has a shape_class. */
int climb_tuning_has_classes(const climb_workload *w);
/* "block=512 blocks_per_sm=4 vecs=4" */
void climb_tuning_format(const climb_tuning *tn, const int *values, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
