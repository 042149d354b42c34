/* The C API of breadth-first search across GPUs: climb_comm_bfs over a graph whose vertices are split over a
 * communicator's GPUs (climb_comm_bfs_range says which), by the schedule of the rung marked best (direction-optimising
 * levels, the frontier's bitmap all-gathered every level), and climb_comm_bfs_range (src/lib/comm.c for the
 * communicator). */
#include <stdlib.h>
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

/* The rank form: what crosses between the ranks, by NCCL (climb_bgx_ops). bufs: a copy of every other rank's marks
 * on this rank's words (span words each); d_all: every rank's counters side by side; h_all their host copy. */
typedef struct bfs_ranks {
    struct climb_comm_s *c;
    int me;
    unsigned *bufs;
    long long span;
    unsigned long long *d_all, *h_all;
    climb_status st; /* a failed NCCL call's status */
} bfs_ranks;

static long long w_first(const climb_bgx *e, int r) { return e->v0[r] / 32; }
static long long w_count(const climb_bgx *e, int r) { return (e->v1[r] + 31) / 32 - e->v0[r] / 32; }

/* A failed exchange: its status kept for the call, the search told. */
static int ranks_failed(bfs_ranks *k, climb_bgx *e, climb_status st, const char *what)
{
    k->st = st;
    e->err = cudaErrorUnknown;
    e->why = what;
    return -1;
}

/* Every other rank's marks on this rank's words, into bufs; the owner ORs them with its own. */
static int ranks_marks(void *ctx, climb_bgx *e, int r, climb_bgx_marks *out)
{
    bfs_ranks *k = (bfs_ranks *)ctx;
    const int P = e->x->P, me = k->me;
    climb_comm_xfer ops[2 * CLIMB_MAX_DEVICES];
    int n = 0;
    out->n = 0;
    out->marks[out->n] = e->marks[me];
    out->off[out->n++] = 0;
    for (int q = 0; q < P; q++) {
        if (q == me)
            continue;
        ops[n++] = (climb_comm_xfer){q, e->marks[me] + w_first(e, q), NULL, (size_t)w_count(e, q)};
        ops[n++] = (climb_comm_xfer){q, NULL, k->bufs + q * k->span, (size_t)w_count(e, me)};
        out->marks[out->n] = k->bufs + q * k->span;
        out->off[out->n++] = w_first(e, me);
    }
    (void)r;
    const climb_status st = climb_comm_nccl_group(k->c, ops, n);
    return st == CLIMB_STATUS_SUCCESS ? 0 : ranks_failed(k, e, st, "the marks' exchange");
}

/* This rank's words of the next frontier to every other rank, theirs into place here. */
static int ranks_frontier(void *ctx, climb_bgx *e, int nx)
{
    bfs_ranks *k = (bfs_ranks *)ctx;
    const int P = e->x->P, me = k->me;
    unsigned *f = e->front[me][nx];
    climb_comm_xfer ops[2 * CLIMB_MAX_DEVICES];
    int n = 0;
    for (int q = 0; q < P; q++) {
        if (q == me)
            continue;
        ops[n++] = (climb_comm_xfer){q, f + w_first(e, me), NULL, (size_t)w_count(e, me)};
        ops[n++] = (climb_comm_xfer){q, NULL, f + w_first(e, q), (size_t)w_count(e, q)};
    }
    const climb_status st = climb_comm_nccl_group(k->c, ops, n);
    return st == CLIMB_STATUS_SUCCESS ? 0 : ranks_failed(k, e, st, "the frontier's all-gather");
}

/* Every rank's two counters all-gathered, brought to the host and summed. */
static int ranks_counts(void *ctx, climb_bgx *e, unsigned long long sum[2])
{
    bfs_ranks *k = (bfs_ranks *)ctx;
    const int P = e->x->P;
    const climb_status st = climb_comm_nccl_call(k->c, 1, CLIMB_I32, e->d_count[k->me], k->d_all, 4);
    if (st != CLIMB_STATUS_SUCCESS)
        return ranks_failed(k, e, st, "the counts' all-gather");
    cudaError_t err;
    if ((err = cudaSetDevice(k->c->devices[0])) != cudaSuccess ||
        (err = cudaMemcpyAsync(k->h_all, k->d_all, 2 * (size_t)P * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                               k->c->st[0])) != cudaSuccess ||
        (err = cudaStreamSynchronize(k->c->st[0])) != cudaSuccess) {
        e->err = err;
        e->why = "the counts to the host";
        return -1;
    }
    sum[0] = sum[1] = 0;
    for (int q = 0; q < P; q++) {
        sum[0] += k->h_all[2 * q];
        sum[1] += k->h_all[2 * q + 1];
    }
    return 0;
}

/* A search's state over x: the graph's size, its edges in all, the source; every rank's vertex range. */
static void search_init(climb_bgx *e, const climb_coll_exec *x, int32_t n_vertices, long long m, int32_t source)
{
    memset(e, 0, sizeof *e);
    e->x = x;
    e->n = n_vertices;
    e->source = source;
    e->m = m;
    e->words = ((long long)n_vertices + 31) / 32;
    for (int q = 0; q < x->P; q++)
        climb_vertex_range(n_vertices, x->P, q, &e->v0[q], &e->v1[q]);
}

/* The rank form: this process's rank of the graph (its rows rp, ci, in-rows irp, ici, levels lv), the search's steps
 * on its GPU, what crosses between ranks by NCCL. */
static climb_status bfs_ranks_search(climb_comm c, int32_t n_vertices, long long m, const int32_t *rp,
                                     const int32_t *ci, const int32_t *irp, const int32_t *ici, int32_t source,
                                     int32_t *lv)
{
    const int P = c->nranks, me = c->rank;
    if (P > CLIMB_MAX_DEVICES)
        return CLIMB_STATUS_NOT_SUPPORTED;
    climb_coll_exec x;
    climb_comm_exec_rank(c, &x);
    climb_bgx e;
    search_init(&e, &x, n_vertices, m, source);
    long long span = 1;
    for (int q = 0; q < P; q++)
        span = w_count(&e, q) > span ? w_count(&e, q) : span;
    /* the workspace: four bitmaps, the counters, every rank's counters, the other ranks' marks on this rank's words */
    const size_t bitmap = ((size_t)e.words * 4 + 255) & ~(size_t)255, bufs = ((size_t)span * 4 * P + 255) & ~(size_t)255;
    cudaError_t err = climb_comm_workspace(c, 4 * bitmap + 256 + (((size_t)P * 16 + 255) & ~(size_t)255) + bufs);
    if (err != cudaSuccess) {
        c->last = err;
        return climb_status_of_cuda(err);
    }
    unsigned char *p = (unsigned char *)c->ws[0];
    e.rp[me] = rp;
    e.ci[me] = ci;
    e.irp[me] = irp;
    e.ici[me] = ici;
    e.level[me] = lv;
    e.front[me][0] = (unsigned *)p;
    e.front[me][1] = (unsigned *)(p + bitmap);
    e.visited[me] = (unsigned *)(p + 2 * bitmap);
    e.marks[me] = (unsigned *)(p + 3 * bitmap);
    e.d_count[me] = (unsigned long long *)(p + 4 * bitmap);
    bfs_ranks k = {c, me, NULL, span, (unsigned long long *)(p + 4 * bitmap + 256), NULL, CLIMB_STATUS_SUCCESS};
    k.bufs = (unsigned *)(p + 4 * bitmap + 256 + (((size_t)P * 16 + 255) & ~(size_t)255));
    unsigned long long h_count[2];
    e.h_count = h_count;
    k.h_all = (unsigned long long *)malloc(2 * (size_t)P * sizeof(unsigned long long));
    if (!k.h_all)
        return CLIMB_STATUS_ALLOC_FAILED;
    const climb_bgx_ops ops = {&k, ranks_marks, ranks_frontier, ranks_counts};
    int prev = 0;
    cudaGetDevice(&prev);
    cudaGetLastError();
    /* the source's out-edges, which Beamer's rule starts from: its owner's two row offsets, summed over the ranks */
    int32_t two[2] = {0, 0};
    unsigned long long start[2] = {0, 0}, sum[2] = {0, 0};
    const int owner = climb_vertex_owner(n_vertices, P, source);
    if ((err = cudaSetDevice(c->devices[0])) == cudaSuccess && me == owner &&
        (err = cudaMemcpyAsync(two, rp + (source - e.v0[me]), sizeof two, cudaMemcpyDeviceToHost, c->st[0])) ==
            cudaSuccess)
        err = cudaStreamSynchronize(c->st[0]);
    start[1] = me == owner ? (unsigned long long)(two[1] - two[0]) : 0;
    if (err == cudaSuccess &&
        (err = cudaMemcpyAsync(e.d_count[me], start, sizeof start, cudaMemcpyHostToDevice, c->st[0])) == cudaSuccess &&
        (err = cudaStreamSynchronize(c->st[0])) == cudaSuccess && ranks_counts(&k, &e, sum) != 0)
        err = e.err;
    e.source_edges = (long long)sum[1];
    if (err == cudaSuccess && climb_bgx_search(&e, 0, &ops) != 0)
        err = e.err;
    free(k.h_all);
    cudaSetDevice(prev);
    cudaGetLastError();
    if (k.st != CLIMB_STATUS_SUCCESS)
        return k.st;
    if (err != cudaSuccess) {
        c->last = err;
        return climb_status_of_cuda(err);
    }
    return CLIMB_STATUS_SUCCESS;
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
    if (climb_stream_capturing(c->st[0]))
        return CLIMB_STATUS_CAPTURE_UNSUPPORTED; /* the host chooses each level's direction from its counts */
    if (c->nccl)
        return bfs_ranks_search(c, n_vertices, m, d_row_ptr[0], d_col_idx[0], in ? d_in_row_ptr[0] : d_row_ptr[0],
                                in ? d_in_col_idx[0] : d_col_idx[0], source, d_levels[0]);
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
    search_init(&e, &x, n_vertices, m, source);
    e.h_count = counts;
    const int owner = climb_vertex_owner(n_vertices, c->P, source);
    for (int r = 0; r < c->P; r++) {
        unsigned char *p = (unsigned char *)c->ws[r];
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
