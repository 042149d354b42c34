/* The contract between the harness and a workload. A workload file (src/workloads/<name>.cu) holds its
 * CPU reference, kernels, launchers and ONE registry table of rungs; it fills a climb_workload so the
 * CLI, tests, docs and reports can all iterate that table. The harness does timing, validation flow
 * and reports; the workload supplies sizes, set-up, reference, and the bytes and flops formulas. */
#ifndef CLIMB_CORE_WORKLOAD_H
#define CLIMB_CORE_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum climb_dtype { CLIMB_I32 = 0, CLIMB_F32 = 1, CLIMB_NTYPES = 2 } climb_dtype;
#define CLIMB_TYPE_BIT(t) (1u << (t))

const char *climb_dtype_name(climb_dtype t);
size_t climb_dtype_size(climb_dtype t);
/* "i32" or "f32" -> 0; anything else -> -1. */
int climb_dtype_parse(const char *s, climb_dtype *out);

/* A problem size as people write it: "2^22" for powers of two (from 2), else the decimal count. */
void climb_size_label(char *buf, size_t len, size_t n);

/* Which measured ceiling a workload's rate is judged against. */
typedef enum climb_ceiling_kind { CLIMB_CEIL_READ = 0, CLIMB_CEIL_COPY = 1, CLIMB_CEIL_FFMA = 2 } climb_ceiling_kind;
const char *climb_ceiling_name(climb_ceiling_kind k);

typedef struct climb_rung_info {
    const char *name;      /* what it does: reduce_seq_addressing */
    const char *idea;      /* one line: the optimization this rung adds */
    const char *needs;     /* "" when it handles every size; otherwise what it refuses */
    int vendor;            /* 1 for rung 0, the vendor library */
} climb_rung_info;

typedef struct climb_case_params {
    size_t size;                   /* problem size (elements for reduce) */
    climb_dtype type;
    uint64_t seed;
    unsigned offset;               /* inputs start this many elements past an aligned allocation */
    const climb_device_info *dev;
} climb_case_params;

typedef struct climb_case climb_case;  /* a workload's own inputs, outputs, reference and workspaces */

/* One kernel a rung launches, with the launch shape it is launched with: what `climb occupancy --kernel`
 * and the occupancy test feed to the calculator and to the CUDA runtime. */
typedef struct climb_kernel_desc {
    char name[96];
    const void *func;          /* the __global__ function */
    int block_threads;
    size_t dynamic_smem;
} climb_kernel_desc;

/* A tunable parameter of a workload's best rung and its candidate values (experiment mode, climb tune). */
#define CLIMB_MAX_TUNABLES 6
typedef struct climb_tunable {
    const char *name;          /* "block" */
    const char *meaning;       /* "threads per block" */
    const int *values;         /* the candidates, ascending */
    int n_values;
} climb_tunable;

typedef struct climb_tuning {
    int rung;                  /* the rung the parameters shape (the best) */
    int n_params;
    const climb_tunable *params;
    /* The built-in values for this device: the per-architecture policy. Returns where they come from. */
    const char *(*defaults)(const climb_device_info *dev, int *values);
    /* NULL if `values` is a candidate on dev, else why not: tuning skips it, wisdom naming it is refused. */
    const char *(*rejects)(const climb_device_info *dev, const int *values);
} climb_tuning;

typedef struct climb_workload {
    const char *name;
    const char *title;
    const char *seed_ref;          /* where the ladder comes from */
    const char *bytes_counted;     /* which bytes the GB/s figure counts */
    climb_ceiling_kind ceiling;
    unsigned types;                /* CLIMB_TYPE_BIT of each supported type */
    const size_t *bench_sizes;
    int n_bench_sizes;
    const size_t *check_sizes;     /* the edge-size sweep of `climb check` */
    int n_check_sizes;
    unsigned check_max_offset;     /* check also runs offsets 1..this on the sweep (misaligned inputs) */
    int n_rungs;
    const climb_rung_info *(*rung)(int i);

    /* Allocates and fills fresh random inputs from p->seed and computes the reference. 0, or -1 (printed). */
    int (*create)(const climb_case_params *p, climb_case **out);
    /* NULL if `rung` runs this case, else a one-line reason it refuses. */
    const char *(*refuses)(const climb_case *c, int rung);
    /* Untimed per-rung set-up (workspace). 0 or -1 (printed). */
    int (*prepare)(climb_case *c, int rung);
    /* One complete run of the rung on `s` (every launch it needs). 0 or -1 (printed). */
    int (*run)(climb_case *c, int rung, cudaStream_t s);
    /* Fills the outputs with a value that no correct run leaves there. 0 or -1 (printed). */
    int (*poison)(climb_case *c);
    /* Copies outputs back and compares every element: 0 right, 1 wrong (msg says how), -1 error (printed). */
    int (*verify)(climb_case *c, char *msg, size_t msglen);
    double (*bytes)(const climb_case *c);
    double (*flops)(const climb_case *c);
    void (*destroy)(climb_case *c);

    /* The kernels `rung` launches for type t on dev, the best rung shaped by `tuning` (NULL: the defaults).
     * Fills up to `max` and returns how many there are; 0 for the vendor rung, whose kernels are not ours. */
    int (*kernels)(int rung, climb_dtype t, const climb_device_info *dev, const int *tuning, climb_kernel_desc *out,
                   int max);
    const climb_tuning *tuning;    /* NULL: nothing to tune */
    /* The tuned values the best rung runs with on this case from now on (create sets the defaults). */
    void (*set_tuning)(climb_case *c, const int *values);
} climb_workload;

/* Every combination of the candidate values: how many, and the i-th (first parameter slowest). */
long climb_tuning_count(const climb_tuning *tn);
void climb_tuning_values(const climb_tuning *tn, long i, int *values);

/* "block=512 blocks_per_sm=4 vecs=4" */
void climb_tuning_format(const climb_tuning *tn, const int *values, char *buf, size_t len);

/* All workloads, in the order `climb bench all` runs them. */
const climb_workload *const *climb_workloads(int *count);
const climb_workload *climb_find_workload(const char *name);
/* Index of the rung called `name` in w's table, or -1. */
int climb_find_rung(const climb_workload *w, const char *name);

#ifdef __cplusplus
}
#endif

#endif
