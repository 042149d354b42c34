/* The C API of breadth-first search across GPUs: climb_comm_bfs over a graph whose vertices are split over a
 * communicator's GPUs (climb_comm_bfs_range says which), by the schedule of the rung marked best (direction-optimising
 * levels, the frontier's bitmap all-gathered every level), and climb_comm_bfs_range (src/lib/comm.c for the
 * communicator). */
#include <string.h>

#include "comm.h"
#include "handle.h"
#include "../base/checked.h"
#include "../device/collective.h"
#include "../workloads/bfs_gpus.h"

climb_status climb_comm_bfs_range(climb_comm c, int32_t n_vertices, int rank, int32_t *v0, int32_t *v1)
{
    if (!c || !v0 || !v1 || n_vertices < 0 || rank < 0 || rank >= c->nranks)
        return CLIMB_STATUS_INVALID_VALUE;
    long long a, b;
    climb_vertex_range(n_vertices, c->nranks, rank, &a, &b);
    *v0 = (int32_t)a;
    *v1 = (int32_t)b;
    return CLIMB_STATUS_SUCCESS;
}

/* Rank r's (global rank g's) arrays: its rows' offsets (rows + 1), its columns (edges), and where in is set its
 * in-rows and in-columns alike; its levels (rows); every extent without wrapping, the levels over none of the graph's
 * arrays, each memory rank r's GPU reaches, 4-byte aligned. */
static int rank_arrays_ok(const struct climb_comm_s *c, int r, size_t rows, const int32_t *rp, const int32_t *ci,
                          size_t edges, const int32_t *irp, const int32_t *ici, size_t in_edges, int in,
                          const int32_t *lv)
{
    climb_span s_rp, s_ci = {0, 0}, s_irp = {0, 0}, s_ici = {0, 0}, s_lv = {0, 0};
    if (!climb_span_of(rp, rows + 1, 4, &s_rp) || !climb_comm_reachable(c, r, rp, 4) ||
        (edges && (!climb_span_of(ci, edges, 4, &s_ci) || !climb_comm_reachable(c, r, ci, 4))))
        return 0;
    if (in && (!climb_span_of(irp, rows + 1, 4, &s_irp) || !climb_comm_reachable(c, r, irp, 4) ||
               (in_edges && (!climb_span_of(ici, in_edges, 4, &s_ici) || !climb_comm_reachable(c, r, ici, 4)))))
        return 0;
    if (!rows)
        return 1;
    if (!climb_span_of(lv, rows, 4, &s_lv) || !climb_comm_reachable(c, r, lv, 4))
        return 0;
    return !climb_spans_overlap(s_lv, s_rp) && !(edges && climb_spans_overlap(s_lv, s_ci)) &&
           !(in && (climb_spans_overlap(s_lv, s_irp) || (in_edges && climb_spans_overlap(s_lv, s_ici))));
}

climb_status climb_comm_bfs(climb_comm c, int32_t n_vertices, const int32_t *n_edges, const int32_t *const *d_row_ptr,
                            const int32_t *const *d_col_idx, const int32_t *n_in_edges,
                            const int32_t *const *d_in_row_ptr, const int32_t *const *d_in_col_idx, int32_t source,
                            int32_t *const *d_levels)
{
    if (!c || n_vertices < 0)
        return CLIMB_STATUS_INVALID_VALUE;
    if (n_vertices == 0)
        return CLIMB_STATUS_SUCCESS; /* no vertex: nothing is touched */
    const int in = n_in_edges || d_in_row_ptr || d_in_col_idx; /* the in-edges given: a directed graph */
    if (source < 0 || source >= n_vertices || !n_edges || !d_row_ptr || !d_col_idx || !d_levels ||
        (in && (!n_in_edges || !d_in_row_ptr || !d_in_col_idx)))
        return CLIMB_STATUS_INVALID_VALUE;
    long long m = 0;
    for (int q = 0; q < c->nranks; q++) {
        if (n_edges[q] < 0 || (in && n_in_edges[q] < 0))
            return CLIMB_STATUS_INVALID_VALUE;
        m += n_edges[q];
    }
    for (int r = 0; r < c->P; r++) {
        const int g = c->rank + r;
        long long v0, v1;
        climb_vertex_range(n_vertices, c->nranks, g, &v0, &v1);
        if (!rank_arrays_ok(c, r, (size_t)(v1 - v0), d_row_ptr[r], d_col_idx[r], (size_t)n_edges[g],
                            in ? d_in_row_ptr[r] : NULL, in ? d_in_col_idx[r] : NULL, in ? (size_t)n_in_edges[g] : 0,
                            in, d_levels[r]))
            return CLIMB_STATUS_INVALID_VALUE;
    }
    if (c->nccl)
        return CLIMB_STATUS_NOT_SUPPORTED; /* one process a GPU: not yet */
    if (climb_stream_capturing(c->st[0]))
        return CLIMB_STATUS_CAPTURE_UNSUPPORTED; /* the host chooses each level's direction from its counts */
    /* the workspace on every rank: two frontiers, the visited set and the marks (a bit a vertex each), two counters */
    const long long words = ((long long)n_vertices + 31) / 32;
    const size_t bitmap = ((size_t)words * 4 + 255) & ~(size_t)255;
    cudaError_t err = climb_comm_workspace(c, 4 * bitmap + 256);
    if (err != cudaSuccess) {
        c->last = err;
        return climb_status_of_cuda(err);
    }
    climb_coll_exec x;
    climb_comm_exec(c, &x);
    unsigned long long counts[2];
    climb_bgx e;
    memset(&e, 0, sizeof e);
    e.x = &x;
    e.n = n_vertices;
    e.source = source;
    e.m = m;
    e.words = words;
    e.h_count = counts;
    const int owner = climb_vertex_owner(n_vertices, c->P, source);
    for (int r = 0; r < c->P; r++) {
        unsigned char *p = (unsigned char *)c->ws[r];
        climb_vertex_range(n_vertices, c->P, r, &e.v0[r], &e.v1[r]);
        e.rp[r] = d_row_ptr[r];
        e.ci[r] = d_col_idx[r];
        e.irp[r] = in ? d_in_row_ptr[r] : d_row_ptr[r];
        e.ici[r] = in ? d_in_col_idx[r] : d_col_idx[r];
        e.level[r] = d_levels[r];
        e.front[r][0] = (unsigned *)p;
        e.front[r][1] = (unsigned *)(p + bitmap);
        e.visited[r] = (unsigned *)(p + 2 * bitmap);
        e.marks[r] = (unsigned *)(p + 3 * bitmap);
        e.d_count[r] = (unsigned long long *)(p + 4 * bitmap);
    }
    climb_comm_call call;
    err = climb_comm_begin(c, 0, NULL, 0, &call);
    /* the source's out-edges (Beamer's rule starts from them): its two row offsets, from its owner's GPU */
    int32_t two[2] = {0, 0};
    if (err == cudaSuccess && (err = cudaSetDevice(c->devices[owner])) == cudaSuccess &&
        (err = cudaMemcpyAsync(two, d_row_ptr[owner] + (source - e.v0[owner]), sizeof two, cudaMemcpyDeviceToHost,
                               c->st[owner])) == cudaSuccess)
        err = cudaStreamSynchronize(c->st[owner]);
    e.source_edges = (long long)two[1] - two[0];
    if (err == cudaSuccess && climb_bgx_levels(&e, 0) != 0)
        err = e.err;
    return climb_comm_end(&call, err);
}
