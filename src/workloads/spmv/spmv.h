/* Sparse matrix-vector product: the parts of src/workloads/spmv.cu that the library face and the tests use. */
#ifndef CLIMB_WORKLOADS_SPMV_H
#define CLIMB_WORKLOADS_SPMV_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "../../io/graph.h"
#include "../../io/mtx.h"
#include "../../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_spmv_workload;

/* The generated matrices (the `matrix` option): io's generators (src/io/graph.h says what each draws). */
enum { CLIMB_SPMV_POISSON = CLIMB_GEN_POISSON, CLIMB_SPMV_STENCIL27 = CLIMB_GEN_STENCIL27,
       CLIMB_SPMV_BANDED = CLIMB_GEN_BANDED, CLIMB_SPMV_RANDOM = CLIMB_GEN_RANDOM,
       CLIMB_SPMV_POWERLAW = CLIMB_GEN_POWERLAW, CLIMB_SPMV_ELASTIC27 = 5, CLIMB_SPMV_FEM = 6 };

typedef struct climb_spmv_gen {
    int matrix;
    int64_t rows, cols;
    int band, per_row, max_row;
    uint64_t seed;
} climb_spmv_gen;

/* Builds the generated matrix into *m (values as drawn, in double). 0, or -1 with err (a matrix over 32-bit
 * indices, out of host memory). *grid gets the stencils' grid (g, g, gz) when grid is not NULL. */
int climb_spmv_generate(const climb_spmv_gen *g, climb_csr *m, int grid[3], char *err, size_t errlen);

/* The tolerance of a row: |y - exact| <= 1.01 (len + 1) u sum_abs, u = 2^-24 (f32) or 2^-53 (f64), where len is
 * the number of terms added and sum_abs the sum of their magnitudes. Any order of adding n terms errs by at most
 * (n - 1) u sum |term| (Higham, Accuracy and Stability of Numerical Algorithms, 3.1), each product by
 * u |product|: so the bound holds for every rung, whatever order its threads add in. */
double climb_spmv_tolerance(int32_t len, double sum_abs, int f64);

/* Row-length statistics, as the reports record them. */
typedef struct climb_spmv_stats {
    double mean, cv;        /* nonzeros per row: mean, and standard deviation over mean (0 for an empty matrix) */
    int32_t max, empty;     /* the longest row; rows without a nonzero */
} climb_spmv_stats;
void climb_spmv_row_stats(const climb_csr *m, climb_spmv_stats *s);

/* The merge-path search of merge_blocks (a row block's rows and nonzeros merged: row r's end comes after its
 * nonzeros): how many rows end within the first d items, given row ends e[0 .. rows) (each row's end offset,
 * non-decreasing) and nnz nonzeros. The nonzeros taken are d minus the result. */
int climb_spmv_merge_search(const int32_t *e, int rows, int nnz, int d);

/* merge_blocks' row blocks (the best rung's too, on a power law): which rows start a block for a budget of `budget` merge items (rows + nonzeros)
 * per block. A block holds the rows whose merge position (row_ptr[r] + r) falls in one budget-wide window; a
 * row longer than the budget is a block alone. So a block's span is at most 2 x budget items, or it is one long
 * row. CPU twin of the device build, for the tests: flags[r] = 1 where row r starts a block. */
void climb_spmv_block_flags(const int32_t *row_ptr, int rows, int budget, uint8_t *flags);

/* The windowed JDS (spmv_jds_windows_kernel in kernels.cuh): rows in windows of CLIMB_SPMV_WINDOW consecutive rows
 * (a block of the kernel each); within a window the rows sorted by length, longest first, ties in row order, and
 * stored by jagged diagonal in the window's own span of the CSR's nonzeros. The nonzero k of the row at rank i of
 * window w goes to row_ptr[w x WINDOW] + jd[woff[w] + k] + i, where jd[woff[w] + d] = the sum over the window's
 * rows of min(length, d), d = 0 .. the window's longest row (so woff[w + 1] - woff[w] is that length + 1). */
#define CLIMB_SPMV_WINDOW 256
/* Its layout on the host (the ladder's jds_windows rung builds with it; the tests hold the plan's device build to
 * it): perm[rows] (window by window, its rows in rank order), woff[windows + 1] (windows = rows / WINDOW rounded
 * up), *jd (allocated here, woff[windows] entries; free() it). 0, or -1 out of host memory (nothing allocated). */
int climb_spmv_windows_layout(const int32_t *row_ptr, int rows, int32_t *perm, int64_t *woff, int32_t **jd);

/* The nonzeros a block of the plan's COO kernel takes: each such block's rows share one base in 16-bit COO. */
#define CLIMB_SPMV_COO_BLOCK 256

/* The most rows or columns a matrix of the C API has: its rows + 1 row pointers are counted in an int. */
#define CLIMB_SPMV_MAX_DIM 2147483646

/* The best rung's plan on a device CSR matrix (the library face, src/lib/spmv.c, and the workload share it). It
 * runs one of: lanes (rows of at most long_min nonzeros taken by groups of `lanes` lanes, in row order; the longer
 * ones, listed, by a block each); merge_blocks' row blocks (merge path in shared memory); COO (a thread a nonzero,
 * atomics); or a JDS copy of the matrix built on the device (rows sorted by length, stored by diagonal: of the whole
 * matrix, or within windows of CLIMB_SPMV_WINDOW rows). It chooses
 * by trial, each candidate the row lengths admit built and timed on the matrix (plan.cu says which and how), or with
 * no_trial by the rules: lanes for a mean row length up to 8, JDS for longer rows with none long, row blocks where
 * more than one row in 1024 is long. */
typedef struct climb_spmv_plan_dev {
    int rows, cols, nnz;
    const int *row_ptr, *col_idx;
    const void *val;
    int f64;                  /* values are double */
    int sms;                  /* the device's multiprocessors (the grid) */
    int lanes;                /* lanes per short row */
    int long_min;             /* a row with more nonzeros than this is long */
    int *long_rows;           /* the long rows, n_long of them: a block each */
    int n_long;
    int *warp_rows;           /* where the plan takes them a warp each: the long rows of at most SPMV_WARP_ROW_MAX
                                 (1024) nonzeros, n_warp of them (then long_rows holds the longer ones alone) */
    int n_warp;
    void *merge;              /* the row blocks when the plan merges (NULL when it does not) */
    int *jds_perm, *jds_ptr, *jds_col; /* the JDS when the plan keeps one (NULL when it does not) */
    long long *jds_woff;      /* a windowed JDS (climb_spmv_windows_layout): its woff, and jds_ptr its jd; NULL for a
                                 JDS of the whole matrix (jds_ptr its diagonals' starts) */
    int *jds_wpad;            /* a windowed JDS's diagonal starts again, window w's at w x jds_wstride, padded past
                                 its longest row with its end (the kernel reads them without woff); NULL, and
                                 jds_wstride 0, where the padding would be more than 4 times the starts */
    int jds_wstride;
    void *coo_rows;           /* when the plan runs COO: each nonzero's row in coo_bits bits (NULL when it does not):
                                 8, the step from the row of the nonzero before it in its warp's 32 (0 for the first),
                                 and coo_base[w] the row of warp w's first nonzero (nonzeros 32w .. 32w + 31); 16,
                                 the offset from coo_base[b], the row of the first nonzero of block b of
                                 CLIMB_SPMV_COO_BLOCK; 32, the row (coo_base NULL) */
    int *coo_base;
    int coo_bits;
    int pdl;                  /* COO's kernel launched as a programmatic dependent of y's scaling: set by the build
                                 where the device takes it (sm_90 and later); the trial keeps it where faster */
    void *jds_val;
    int diagonals;
    int jds_plain;            /* 1: the JDS one diagonal at a time (spmv_jds_kernel); 0: SPMV_JDS_AHEAD at a time */
    size_t bytes;             /* device bytes the plan keeps */
    int no_trial;             /* in: 1 takes the rules' choice untimed (also CLIMB_SPMV_NO_TRIAL in the environment) */
    int only;                 /* in, for the tests: a path built alone, untimed (CLIMB_SPMV_ONLY_*); 0 chooses */
    char choice[512];         /* out: what the plan runs, and how it was chosen (each candidate's time) */
} climb_spmv_plan_dev;

/* The paths a test may ask the plan to build alone (climb_spmv_plan_dev.only). */
enum { CLIMB_SPMV_ONLY_WINDOWS = 1, CLIMB_SPMV_ONLY_WARP_ROWS = 2, CLIMB_SPMV_ONLY_COO = 3 };

/* Lanes per row for a mean row length (the power of two at or above it, at most 32; 1 for short rows), and
 * the long-row threshold for those lanes. */
int climb_spmv_lanes(double mean);
int climb_spmv_long_min(int lanes);
/* How long the plan's trial may go on trying candidates (microseconds since it began), with the fastest at best_us:
 * 12 of its runs, and at least 4 ms for a matrix of at most 1M nonzeros, 2 ms less 12 runs for a larger one (plan.cu
 * says why). */
double climb_spmv_trial_budget_us(long long nnz, double best_us);

/* Loads every kernel the plan's trial may launch for f32 (f64 = 0) or f64 on the current device, once per process
 * (CUDA loads a kernel at its first launch); climb_spmv_plan_build calls it before its trial's clock starts, and the
 * bench before it times a plan, so that a plan's setup figure is what every plan after a process's first costs.
 * Synchronises s the first time. */
cudaError_t climb_spmv_plan_warm(int f64, cudaStream_t s);
/* Chooses the lanes and lists the long rows, on s (allocates p->long_rows; synchronises s). */
cudaError_t climb_spmv_plan_build(climb_spmv_plan_dev *p, cudaStream_t s);
void climb_spmv_plan_free(climb_spmv_plan_dev *p);
/* y = alpha A x + beta y (y is not read when beta is 0). */
cudaError_t climb_spmv_plan_run(const climb_spmv_plan_dev *p, double alpha, const void *x, double beta, void *y,
                                cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
