/* The C API of breadth-first search: climb_bfs (the graph as stored: out-edges, top-down steps),
 * climb_bfs_symmetric (an undirected graph, both directions stored: direction-optimising), climb_bfs_csr (either,
 * with the edge count, and the graph checked first on request), and the plan (climb_bfs_plan_*: a directed graph's
 * in-edges built once on the device, then direction-optimising searches from any source), over the rung marked
 * best. */
#include <stdlib.h>

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
    /* a validated call reads the check's verdict back (it waits for the stream): never inside a capture */
    climb_status st = (flags & CLIMB_BFS_VALIDATE) ? climb_call_begin_waiting(h, &climb_bfs_workload, &key, &call)
                                                   : climb_call_begin(h, &climb_bfs_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    cudaError_t e = cudaSuccess;
    if (flags & CLIMB_BFS_VALIDATE) {
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

/* ---- the plan: the in-edges built once (climb_bfs_transpose), direction-optimising searches from any source ---- */

struct climb_bfs_plan_s {
    int device;                  /* the handle's device when the plan was made */
    int32_t n, m;
    const int32_t *rp, *ci;      /* the caller's graph */
    int32_t *in_rp, *in_ci;      /* the transpose (owned), or the graph itself when symmetric */
    int owned;                   /* in_rp and in_ci are the plan's */
    size_t bytes;
    climb_span rp_span, ci_span, in_rp_span, in_ci_span; /* the levels must lie apart from these */
};

static void plan_free_device(struct climb_bfs_plan_s *p)
{
    /* the plan's own arrays: nothing when the graph is symmetric (the in-edges are the caller's) */
    if (p->owned) {
        cudaFree(p->in_rp);
        cudaFree(p->in_ci);
    }
    p->in_rp = p->in_ci = NULL;
    p->owned = 0;
}

climb_status climb_bfs_plan_create(climb_handle h, int32_t n, int32_t n_edges, const int32_t *d_row_ptr,
                                   const int32_t *d_col_idx, unsigned flags, climb_bfs_plan *plan)
{
    if (plan)
        *plan = NULL;
    if (!h || !plan || n < 0 || n_edges < 0 || (flags & ~(CLIMB_BFS_SYMMETRIC | CLIMB_BFS_VALIDATE)) != 0)
        return CLIMB_STATUS_INVALID_VALUE;
    climb_span rp, ci;
    if (n > 0 && (!climb_span_of(d_row_ptr, (size_t)n + 1, 4, &rp) || !climb_span_of(d_col_idx, (size_t)n_edges, 4, &ci)))
        return CLIMB_STATUS_INVALID_VALUE;
    if (n > 0 && (!climb_device_reachable(d_row_ptr, 4) || (n_edges > 0 && !climb_device_reachable(d_col_idx, 4))))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE1((size_t)n), CLIMB_I32, NULL};
    climb_call call;
    /* it allocates and waits for the in-edges it builds: never inside a capture */
    climb_status st = climb_call_begin_waiting(h, &climb_bfs_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    struct climb_bfs_plan_s *pl = calloc(1, sizeof *pl);
    if (!pl)
        return climb_call_end(&call, cudaErrorMemoryAllocation);
    pl->device = call.dev->ordinal;
    pl->n = n;
    pl->m = n_edges;
    pl->rp = d_row_ptr;
    pl->ci = d_col_idx;
    if (n > 0) {
        pl->rp_span = rp;
        pl->ci_span = ci;
    }
    const enum cudaStreamCaptureMode mode = climb_relaxed_begin(); /* a capture elsewhere stays valid */
    cudaError_t e = cudaSuccess;
    if (n > 0 && (flags & CLIMB_BFS_VALIDATE)) {
        unsigned bad = 0;
        e = climb_csr_check_device(n, n, n_edges, d_row_ptr, d_col_idx, &bad, call.stream);
        if (e == cudaSuccess && bad) {
            climb_relaxed_end(mode);
            free(pl);
            climb_call_end(&call, cudaSuccess);
            return CLIMB_STATUS_INVALID_MATRIX;
        }
    }
    if (e == cudaSuccess && n > 0 && (flags & CLIMB_BFS_SYMMETRIC)) {
        pl->in_rp = (int32_t *)d_row_ptr;
        pl->in_ci = (int32_t *)d_col_idx;
    } else if (e == cudaSuccess && n > 0) {
        size_t in_bytes = 0; /* fits: n + 1 + n_edges is below 2^32 */
        if (!climb_add_fits((size_t)n + 1, (size_t)n_edges, &in_bytes) || !climb_mul_fits(in_bytes, 4, &in_bytes))
            e = cudaErrorInvalidValue;
        pl->owned = 1;
        if (e == cudaSuccess)
            e = cudaMalloc((void **)&pl->in_rp, ((size_t)n + 1) * 4);
        if (e == cudaSuccess)
            e = cudaMalloc((void **)&pl->in_ci, n_edges ? (size_t)n_edges * 4 : 4);
        /* By sorting, in memory of its own for the time it takes (about 16 bytes an edge, freed before the plan
         * returns); where the device has not that much free, by atomics in the handle's workspace (8 bytes a
         * vertex), the slower way. */
        void *sort_ws = NULL, *ws = NULL;
        size_t ws_bytes = 0;
        const size_t sort_bytes = climb_bfs_transpose_sorted_workspace(n_edges);
        if (e == cudaSuccess && sort_bytes > 0 && cudaMalloc(&sort_ws, sort_bytes) != cudaSuccess) {
            (void)cudaGetLastError(); /* the allocation's failure is not left behind */
            sort_ws = NULL;
        }
        if (e == cudaSuccess && sort_ws)
            e = climb_bfs_transpose_sorted(n, n_edges, d_row_ptr, d_col_idx, pl->in_rp, pl->in_ci, sort_ws,
                                           sort_bytes, call.dev->sms, call.stream);
        else if (e == cudaSuccess) {
            e = climb_call_workspace(&call, climb_bfs_transpose_workspace(n), 0, &ws, &ws_bytes);
            if (e == cudaSuccess)
                e = climb_bfs_transpose(n, n_edges, d_row_ptr, d_col_idx, pl->in_rp, pl->in_ci, ws, ws_bytes,
                                        call.dev->sms, call.stream);
        }
        if (e == cudaSuccess) /* ready for any handle's stream once made */
            e = cudaStreamSynchronize(call.stream);
        if (sort_ws) { /* cudaFree waits for the device's work on it */
            const cudaError_t f = cudaFree(sort_ws);
            e = e == cudaSuccess ? f : e;
        }
        pl->bytes = in_bytes;
        if (e == cudaSuccess) {
            climb_span_of(pl->in_rp, (size_t)n + 1, 4, &pl->in_rp_span);
            climb_span_of(pl->in_ci, (size_t)n_edges, 4, &pl->in_ci_span);
        }
    }
    if (e != cudaSuccess)
        plan_free_device(pl);
    climb_relaxed_end(mode);
    if (e != cudaSuccess) {
        free(pl);
        return climb_call_end(&call, e);
    }
    *plan = pl;
    return climb_call_end(&call, cudaSuccess);
}

climb_status climb_bfs_plan_bytes(climb_bfs_plan plan, size_t *bytes)
{
    if (!plan || !bytes)
        return CLIMB_STATUS_INVALID_VALUE;
    *bytes = plan->bytes;
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_bfs_plan_run(climb_handle h, climb_bfs_plan plan, int32_t source, int32_t *d_levels)
{
    if (!h || !plan)
        return CLIMB_STATUS_INVALID_VALUE;
    const int32_t n = plan->n;
    if (n == 0)
        return CLIMB_STATUS_SUCCESS; /* no vertex: nothing to write */
    if (source < 0 || source >= n)
        return CLIMB_STATUS_INVALID_VALUE;
    climb_span lv;
    if (!climb_span_of(d_levels, (size_t)n, 4, &lv) || climb_spans_overlap(lv, plan->rp_span) ||
        climb_spans_overlap(lv, plan->ci_span) || (plan->owned && (climb_spans_overlap(lv, plan->in_rp_span) ||
                                                                   climb_spans_overlap(lv, plan->in_ci_span))))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_levels, 4))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE1((size_t)n), CLIMB_I32, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_bfs_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    if (call.dev->ordinal != plan->device) {
        climb_call_end(&call, cudaSuccess);
        return CLIMB_STATUS_INVALID_VALUE; /* the plan's arrays live on another device */
    }
    void *ws = NULL;
    size_t ws_bytes = 0;
    cudaError_t e = climb_call_workspace(&call, climb_bfs_best_workspace(n), 0, &ws, &ws_bytes);
    if (e == cudaSuccess)
        e = climb_bfs_best(n, plan->rp, plan->ci, plan->in_rp, plan->in_ci, source, d_levels, ws, ws_bytes,
                           call.dev->sms, call.stream);
    return climb_call_end(&call, e);
}

static void plan_release(void *p) { plan_free_device((struct climb_bfs_plan_s *)p); }

climb_status climb_bfs_plan_destroy(climb_bfs_plan plan)
{
    if (!plan)
        return CLIMB_STATUS_SUCCESS;
    climb_release_on_device(plan->device, plan_release, plan);
    free(plan);
    return CLIMB_STATUS_SUCCESS;
}
