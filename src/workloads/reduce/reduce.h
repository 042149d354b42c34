/* Parallel reduction (sum): the parts of src/workloads/reduce/ that the library face and the tests use. */
#ifndef CLIMB_WORKLOADS_REDUCE_H
#define CLIMB_WORKLOADS_REDUCE_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "../../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_reduce_workload;

/* The best rung's tunable parameters (see the policy in kernels.cuh and `climb tune`). */
typedef struct climb_reduce_tuning {
    int block;          /* threads per block */
    int blocks_per_sm;  /* blocks launched per SM */
    int vecs;           /* 16-byte loads in flight per thread */
} climb_reduce_tuning;

/* What a launcher needs to know about where it runs. */
typedef struct climb_reduce_exec {
    cudaStream_t stream;
    int sms;
    climb_reduce_tuning tune;
} climb_reduce_exec;

/* values[] in the order of climb_reduce_workload.tuning->params: block, blocks_per_sm, vecs. */
void climb_reduce_set_tuning(climb_reduce_exec *x, const int *values);

/* CPU references. i32: exact, accumulated in 64 bits, wrapped modulo 2^32 as the GPU's 32-bit adds are.
 * f32: accumulated in double; *abs_sum (if not NULL) gets sum |x_i|, the scale of the tolerance. */
int32_t climb_reduce_ref_i32(const int32_t *x, size_t n);
double climb_reduce_ref_f32(const float *x, size_t n, double *abs_sum);
/* The f32 tolerance: |got - ref| <= this. */
double climb_reduce_tol_f32(size_t n, double abs_sum);

/* The rung marked best in the registry table, for the library face (src/lib/reduce.c). Its workspace depends on
 * x's tuning but not on n; it must be zeroed once when allocated, and each call leaves it zeroed again. */
size_t climb_reduce_best_workspace(const climb_reduce_exec *x);
cudaError_t climb_reduce_best_i32(const climb_reduce_exec *x, const int32_t *in, size_t n, int32_t *out, void *ws,
                                  size_t ws_bytes);
cudaError_t climb_reduce_best_f32(const climb_reduce_exec *x, const float *in, size_t n, float *out, void *ws,
                                  size_t ws_bytes);

#ifdef __cplusplus
}
#endif

#endif
