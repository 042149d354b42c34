/* Point quadtree construction: the parts of src/workloads/quadtree.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_QUADTREE_H
#define CLIMB_WORKLOADS_QUADTREE_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "reference.h"
#include "../../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_quadtree_workload;

/* The most nodes a build of n points under p can make: a split takes more than leaf_points points, and the nodes
 * of a level are disjoint, so a level splits at most n / (leaf_points + 1) nodes, and at most 4^level; each split
 * makes 4 nodes. Where the bound passes 2^31 - 1, 0 (refused). */
int64_t climb_qt_node_bound(int64_t n, const climb_qt_params *p);

/* The best rung for the library face (src/lib/quadtree.c): the tree of n points (x, y on the device) built into
 * the workspace (climb_qt_best_workspace bytes; 0: the bound is refused) with the order written to `order` (n);
 * *nodes points at the *built nodes in the workspace. It waits for s once, for the node count (not capturable). */
size_t climb_qt_best_workspace(int32_t n, const climb_qt_params *p);
cudaError_t climb_qt_best(int32_t n, const float *x, const float *y, const climb_qt_params *p, int32_t *order,
                          void *ws, size_t ws_bytes, int sms, cudaStream_t s, const climb_qt_node **nodes,
                          int32_t *built);

#ifdef __cplusplus
}
#endif

#endif
