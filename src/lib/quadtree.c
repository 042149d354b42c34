/* The C API of quadtree construction: climb_quadtree_build over the rung marked best, the tree's accessors. */
#include <stdlib.h>
#include <string.h>

#include "handle.h"
#include "../workloads/quadtree/quadtree.h"

_Static_assert(sizeof(climb_quadtree_node) == sizeof(climb_qt_node), "the public node is the workload's");

struct climb_quadtree_s {
    int device;
    climb_quadtree_node *nodes; /* device */
    int32_t n_nodes;
    int32_t *order;             /* device */
    size_t n_points;
};

climb_status climb_quadtree_build(climb_handle h, size_t n, const float *d_x, const float *d_y,
                                  const climb_quadtree_params *params, climb_quadtree *tree)
{
    if (tree)
        *tree = NULL;
    if (!h || !tree || !params || n > 0x7fffffffu)
        return CLIMB_STATUS_INVALID_VALUE;
    const climb_qt_params p = {params->max_depth, params->leaf_points};
    if (climb_qt_params_refuse(&p) || climb_qt_node_bound((int64_t)n, &p) == 0)
        return CLIMB_STATUS_INVALID_VALUE;
    if (n > 0 && (!climb_device_reachable(d_x, 4) || !climb_device_reachable(d_y, 4)))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE1(n), CLIMB_F32, NULL};
    climb_call call;
    /* the build reads each level's size back (it waits for the stream): never inside a capture */
    climb_status st = climb_call_begin_waiting(h, &climb_quadtree_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    struct climb_quadtree_s *t = calloc(1, sizeof *t);
    if (!t)
        return climb_call_end(&call, cudaErrorMemoryAllocation);
    t->device = call.dev->ordinal;
    t->n_points = n;
    void *ws = NULL;
    size_t ws_bytes = 0;
    cudaError_t e = climb_call_workspace(&call, climb_qt_best_workspace((int32_t)n, &p), 0, &ws, &ws_bytes);
    /* the tree's own memory must not invalidate a capture another stream or thread has in progress */
    const enum cudaStreamCaptureMode mode = climb_relaxed_begin();
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&t->order, (n ? n : 1) * sizeof(int32_t));
    const climb_qt_node *built = NULL;
    int32_t n_nodes = 0;
    if (e == cudaSuccess)
        e = climb_qt_best((int32_t)n, d_x, d_y, &p, t->order, ws, ws_bytes, call.dev->sms, call.stream, &built,
                          &n_nodes);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&t->nodes, (size_t)n_nodes * sizeof(climb_quadtree_node));
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(t->nodes, built, (size_t)n_nodes * sizeof(climb_quadtree_node), cudaMemcpyDeviceToDevice,
                            call.stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(call.stream); /* the tree complete on return, and the workspace free again */
    t->n_nodes = n_nodes;
    if (e != cudaSuccess) {
        cudaFree(t->order);
        cudaFree(t->nodes);
        free(t);
        climb_relaxed_end(mode);
        return climb_call_end(&call, e);
    }
    climb_relaxed_end(mode);
    *tree = t;
    return climb_call_end(&call, cudaSuccess);
}

climb_status climb_quadtree_nodes(climb_quadtree t, const climb_quadtree_node **d_nodes, int32_t *n_nodes)
{
    if (!t || !d_nodes || !n_nodes)
        return CLIMB_STATUS_INVALID_VALUE;
    *d_nodes = t->nodes;
    *n_nodes = t->n_nodes;
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_quadtree_order(climb_quadtree t, const int32_t **d_order, size_t *n_points)
{
    if (!t || !d_order || !n_points)
        return CLIMB_STATUS_INVALID_VALUE;
    *d_order = t->order;
    *n_points = t->n_points;
    return CLIMB_STATUS_SUCCESS;
}

static void tree_release(void *p)
{
    struct climb_quadtree_s *t = p;
    cudaFree(t->nodes);
    cudaFree(t->order);
}

climb_status climb_quadtree_free(climb_quadtree t)
{
    if (!t)
        return CLIMB_STATUS_SUCCESS;
    climb_release_on_device(t->device, tree_release, t); /* freed on its own device, whichever is current */
    free(t);
    return CLIMB_STATUS_SUCCESS;
}
