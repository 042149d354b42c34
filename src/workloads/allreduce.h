/* All-reduce across GPUs: the parts of src/workloads/allreduce.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_ALLREDUCE_H
#define CLIMB_WORKLOADS_ALLREDUCE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "../core/workload.h"
#include "common/coll_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_allreduce_workload;

/* 1 where the best rung sums arrays of `bytes` bytes in one shot (every GPU reads every array), 0 where in two. */
int climb_allreduce_best_one_shot(size_t bytes);

/* The best rung's schedule on x's streams: out[r] = the sum of in[0..P) (n elements of t, CLIMB_I32 or CLIMB_F32,
 * each on rank r's GPU, every pair with peer access on), the same bits on every rank. One shot below the best
 * rung's size, else two shots; in place (in[r] == out[r] for every r) always two. The caller orders it: every
 * stream must have waited for every input to be written (climb_coll_barrier) and must wait for every rank's
 * stream before an input is written again. Leaves another device current. The first error. */
cudaError_t climb_allreduce_sum_async(const climb_coll_exec *x, climb_dtype t, void *const *in, void *const *out,
                                      size_t n);

#ifdef __cplusplus
}
#endif

#endif
