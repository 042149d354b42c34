/* Reduce-scatter across GPUs: the parts of src/workloads/reducescatter.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_REDUCESCATTER_H
#define CLIMB_WORKLOADS_REDUCESCATTER_H

#include <stddef.h>

#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_reducescatter_workload;

/* 1 where the best rung moves pieces of `piece_bytes` with a kernel over NVLink, 0 where with the copy engines. */
int climb_reducescatter_best_uses_kernel(size_t piece_bytes);

#ifdef __cplusplus
}
#endif

#endif
