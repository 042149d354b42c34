/* The C API of breadth-first search: climb_bfs (the graph as stored: out-edges, top-down steps) and
 * climb_bfs_symmetric (an undirected graph, both directions stored: direction-optimising), over the rung marked
 * best. */
#include "handle.h"
#include "../workloads/bfs.h"

static climb_status bfs(climb_handle h, int32_t n, const int32_t *d_row_ptr, const int32_t *d_col_idx, int32_t source,
                        int32_t *d_levels, int symmetric)
{
    if (!h || n < 0)
        return CLIMB_STATUS_INVALID_VALUE;
    if (n == 0)
        return CLIMB_STATUS_SUCCESS; /* no vertex: nothing to write; the pointers are not touched */
    if (source < 0 || source >= n || !climb_device_reachable(d_row_ptr, 4) || !climb_device_reachable(d_col_idx, 4) ||
        !climb_device_reachable(d_levels, 4))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE1((size_t)n), CLIMB_I32, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_bfs_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    void *ws = NULL;
    size_t ws_bytes = 0;
    cudaError_t e = climb_call_workspace(&call, climb_bfs_best_workspace(n), 0, &ws, &ws_bytes);
    if (e == cudaSuccess)
        e = climb_bfs_best(n, d_row_ptr, d_col_idx, symmetric ? d_row_ptr : NULL, symmetric ? d_col_idx : NULL, source,
                           d_levels, ws, ws_bytes, call.dev->sms, call.stream);
    return climb_call_end(&call, e);
}

climb_status climb_bfs(climb_handle h, int32_t n_vertices, const int32_t *d_row_ptr, const int32_t *d_col_idx,
                       int32_t source, int32_t *d_levels)
{
    return bfs(h, n_vertices, d_row_ptr, d_col_idx, source, d_levels, 0);
}

climb_status climb_bfs_symmetric(climb_handle h, int32_t n_vertices, const int32_t *d_row_ptr, const int32_t *d_col_idx,
                                 int32_t source, int32_t *d_levels)
{
    return bfs(h, n_vertices, d_row_ptr, d_col_idx, source, d_levels, 1);
}
