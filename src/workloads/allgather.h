/* All-gather across GPUs: the parts of src/workloads/allgather.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_ALLGATHER_H
#define CLIMB_WORKLOADS_ALLGATHER_H

#include <stddef.h>

#include "../core/workload.h"
#include "common/coll_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_allgather_workload;

/* 1 where the best rung moves pieces of `piece_bytes` with a kernel over NVLink, 0 where with the copy engines. */
int climb_allgather_best_uses_kernel(size_t piece_bytes);

/* The best rung's schedule on x's streams: out[r] = in[0], in[1], ..., in[P-1] (n 4-byte elements a piece, every
 * array on its rank's GPU, no output over any input): the pull kernel for a small piece where `access` (peer access
 * between every pair), the copy engines otherwise. The caller orders it as climb_allreduce_sum_async says. Leaves
 * another device current. The first error. */
cudaError_t climb_allgather_async(const climb_coll_exec *x, const void *const *in, void *const *out, size_t n,
                                  int access);

#ifdef __cplusplus
}
#endif

#endif
