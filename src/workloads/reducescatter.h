/* Reduce-scatter across GPUs: the parts of src/workloads/reducescatter.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_REDUCESCATTER_H
#define CLIMB_WORKLOADS_REDUCESCATTER_H

#include <stddef.h>

#include "../core/workload.h"
#include "common/coll_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_reducescatter_workload;

/* 1 where the best rung moves pieces of `piece_bytes` with a kernel over NVLink, 0 where with the copy engines. */
int climb_reducescatter_best_uses_kernel(size_t piece_bytes);

/* The best rung's schedule on x's streams: out[r] = the sum over ranks q of in[q]'s r-th piece (n elements of t,
 * CLIMB_I32 or CLIMB_F32; in[q] P x n elements on rank q's GPU, out[r] n on rank r's; no output over any input):
 * the pull kernel for a small piece where `access` (peer access between every pair), else the copy engines into
 * work[r] (climb_reducescatter_work_bytes on rank r's GPU) and a local sum. The caller orders it as
 * climb_allreduce_sum_async says. Leaves another device current. The first error. */
size_t climb_reducescatter_work_bytes(size_t n, int P, int access);
cudaError_t climb_reducescatter_sum_async(const climb_coll_exec *x, climb_dtype t, const void *const *in,
                                          void *const *out, size_t n, int access, void *const *work);

#ifdef __cplusplus
}
#endif

#endif
