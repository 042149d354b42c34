/* Inside the SpMV workload: merge_blocks' row blocks, built and run by plan.cu (the best rung uses them for a
 * power law) and run by spmv.cu's merge_blocks rung. */
#ifndef CLIMB_WORKLOADS_SPMV_PLAN_INTERNAL_H
#define CLIMB_WORKLOADS_SPMV_PLAN_INTERNAL_H

#include <cuda_runtime_api.h>
#include <vector_types.h>

#include "spmv.h"

/* The merge_blocks rung's row blocks. */
typedef struct spmv_merge_plan {
    int2 *blocks;             /* n_blocks + 1 pairs (first row, its first nonzero); the last (rows, nnz) */
    int n_blocks, block, items;
    size_t bytes;
} spmv_merge_plan;

/* The rows whose flag is set, in order, as a new device list of exactly *n entries (NULL when none). Synchronises s. */
cudaError_t spmv_flagged_rows(int rows, const unsigned char *flags, int **list, int *n, cudaStream_t s);
void spmv_merge_plan_free(spmv_merge_plan *p);
/* The row blocks of matrix m for `block` threads x `items` merge items (synchronises s). */
cudaError_t spmv_merge_plan_build(spmv_merge_plan *p, const climb_spmv_plan_dev *m, int block, int items,
                                  cudaStream_t s);
/* y = alpha A x + beta y by the row blocks (f64: double values, else float). */
cudaError_t spmv_merge_run(const spmv_merge_plan *p, const climb_spmv_plan_dev *m, int f64, double alpha,
                           const void *x, double beta, void *y, cudaStream_t s);

#endif
