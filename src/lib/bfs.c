/* The C API of breadth-first search: climb_bfs (the graph as stored: out-edges, top-down steps),
 * climb_bfs_symmetric (an undirected graph, both directions stored: direction-optimising) and climb_bfs_csr (either,
 * with the edge count, and the graph checked first on request), over the rung marked best. */
#include "handle.h"
#include "../base/checked.h"
#include "../device/csr_check.h"
#include "../workloads/bfs/bfs.h"

/* n_edges < 0: not given (climb_bfs, climb_bfs_symmetric), so the column array's extent is unknown. */
static climb_status bfs(climb_handle h, int32_t n, int64_t n_edges, const int32_t *d_row_ptr,
                        const int32_t *d_col_idx, int32_t source, int32_t *d_levels, unsigned flags)
{
    if (!h || n < 0 || (flags & ~(CLIMB_BFS_SYMMETRIC | CLIMB_BFS_VALIDATE)) != 0 ||
        ((flags & CLIMB_BFS_VALIDATE) && n_edges < 0))
        return CLIMB_STATUS_INVALID_VALUE;
    if (n == 0)
        return CLIMB_STATUS_SUCCESS; /* no vertex: nothing to write; source and the pointers are not looked at */
    if (source < 0 || source >= n)
        return CLIMB_STATUS_INVALID_VALUE;
    /* the levels are written: not over the graph */
    climb_span rp, ci, lv;
    if (!climb_span_of(d_row_ptr, (size_t)n + 1, 4, &rp) || !climb_span_of(d_levels, (size_t)n, 4, &lv) ||
        !climb_span_of(d_col_idx, n_edges > 0 ? (size_t)n_edges : 0, 4, &ci) || climb_spans_overlap(lv, rp) ||
        climb_spans_overlap(lv, ci))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_row_ptr, 4) || (n_edges != 0 && !climb_device_reachable(d_col_idx, 4)) ||
        !climb_device_reachable(d_levels, 4))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE1((size_t)n), CLIMB_I32, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_bfs_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    cudaError_t e = cudaSuccess;
    if (flags & CLIMB_BFS_VALIDATE) {
        /* the check reads its verdict back (it waits for the stream): never inside a capture */
        if (climb_call_capturing(&call)) {
            climb_call_end(&call, cudaSuccess);
            return CLIMB_STATUS_CAPTURE_UNSUPPORTED;
        }
        unsigned bad = 0;
        const enum cudaStreamCaptureMode mode = climb_relaxed_begin(); /* its word of memory */
        e = climb_csr_check_device(n, n, (int)n_edges, d_row_ptr, d_col_idx, &bad, call.stream);
        climb_relaxed_end(mode);
        if (e == cudaSuccess && bad) {
            climb_call_end(&call, cudaSuccess);
            return CLIMB_STATUS_INVALID_MATRIX;
        }
    }
    void *ws = NULL;
    size_t ws_bytes = 0;
    if (e == cudaSuccess)
        e = climb_call_workspace(&call, climb_bfs_best_workspace(n), 0, &ws, &ws_bytes);
    const int symmetric = (flags & CLIMB_BFS_SYMMETRIC) != 0;
    if (e == cudaSuccess)
        e = climb_bfs_best(n, d_row_ptr, d_col_idx, symmetric ? d_row_ptr : NULL, symmetric ? d_col_idx : NULL, source,
                           d_levels, ws, ws_bytes, call.dev->sms, call.stream);
    return climb_call_end(&call, e);
}

climb_status climb_bfs(climb_handle h, int32_t n_vertices, const int32_t *d_row_ptr, const int32_t *d_col_idx,
                       int32_t source, int32_t *d_levels)
{
    return bfs(h, n_vertices, -1, d_row_ptr, d_col_idx, source, d_levels, 0);
}

climb_status climb_bfs_symmetric(climb_handle h, int32_t n_vertices, const int32_t *d_row_ptr, const int32_t *d_col_idx,
                                 int32_t source, int32_t *d_levels)
{
    return bfs(h, n_vertices, -1, d_row_ptr, d_col_idx, source, d_levels, CLIMB_BFS_SYMMETRIC);
}

climb_status climb_bfs_csr(climb_handle h, int32_t n_vertices, int32_t n_edges, const int32_t *d_row_ptr,
                           const int32_t *d_col_idx, int32_t source, unsigned flags, int32_t *d_levels)
{
    if (n_edges < 0)
        return CLIMB_STATUS_INVALID_VALUE;
    return bfs(h, n_vertices, n_edges, d_row_ptr, d_col_idx, source, d_levels, flags);
}
