/* BFS across GPUs: the parts of src/workloads/bfs_gpus.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_BFS_GPUS_H
#define CLIMB_WORKLOADS_BFS_GPUS_H
#include "../core/workload.h"
#ifdef __cplusplus
extern "C" {
#endif
extern const climb_workload climb_bfs_gpus_workload;
#ifdef __cplusplus
}
#endif
#endif
