/* All-reduce across GPUs: the parts of src/workloads/allreduce.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_ALLREDUCE_H
#define CLIMB_WORKLOADS_ALLREDUCE_H

#include <stddef.h>

#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_allreduce_workload;

/* 1 where the best rung sums arrays of `bytes` bytes in one shot (every GPU reads every array), 0 where in two. */
int climb_allreduce_best_one_shot(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
