/* All-gather across GPUs: the parts of src/workloads/allgather.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_ALLGATHER_H
#define CLIMB_WORKLOADS_ALLGATHER_H

#include <stddef.h>

#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_allgather_workload;

/* 1 where the best rung moves pieces of `piece_bytes` with a kernel over NVLink, 0 where with the copy engines. */
int climb_allgather_best_uses_kernel(size_t piece_bytes);

#ifdef __cplusplus
}
#endif

#endif
