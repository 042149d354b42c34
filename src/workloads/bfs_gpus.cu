/*
 * bfs_gpus.cu - breadth-first search levels with the graph's vertices split over the case's GPUs (a 1-D
 * partition): GPU r owns the vertices [v0, v1) (whole 32-vertex words, climb_vertex_range), their out-edges and
 * in-edges and their levels; the frontier and the visited set are bitmaps every GPU holds whole. A level is one step
 * on every GPU, then an exchange over NVLink:
 *   top-down: each GPU scans the out-edges of its frontier vertices and marks the unvisited targets in a bitmap of
 *   its own (every vertex); each owner then ORs every GPU's marks on its words (reading them over NVLink), keeps the
 *   unvisited ones as its part of the next frontier and sets their levels;
 *   bottom-up (Beamer, Asanovic and Patterson's direction-optimising BFS): each GPU looks, for each of its unvisited
 *   vertices, for an in-edge from the frontier, and stops at the first;
 * then each GPU's words of the next frontier are copied to every other GPU (the all-gather of the bitmap) and every
 * GPU adds the frontier to its visited set. The host reads each level's counts (the vertices found, their edges)
 * and chooses the next step's direction: bottom-up once the frontier's edges pass the unexplored edges / 14, back to
 * top-down once the frontier falls below n / 24 vertices (Beamer's alpha and beta). The ladder: the whole graph on
 * one GPU (bfs's best rung: the row the others are sped up from), top-down steps only, direction-optimising steps.
 *
 * Counted: the edges of the traversed part (an undirected edge once), in GTEPS; the busiest GPU's edges read once
 * and its levels written; over the links, the bitmap's words each GPU receives each level.
 *
 * Order of this file: the case, the kernels, the schedules, the registry table, the harness glue.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/check.h"
#include "../base/checked.h"
#include "../base/host.h"
#include "../core/validate.h"
#include "../core/workload.cuh"
#include "../device/collective.h"
#include "../io/graph.h"
#include "bfs/bfs.h"
#include "common/gpuset.cuh"
#include "bfs_gpus.h"

#define BG_MAXD CLIMB_MAX_DEVICES

/* ---------------------------------------------------------------- the case */

struct climb_case {
    climb_case_params p;
    climb_gpuset g;
    climb_csr own;                    /* the generated graph (host) */
    int32_t *in_rp, *in_ci;           /* its in-edges (host; the out-edges' arrays for a symmetric graph) */
    int graph, symmetric;
    int32_t n, source, depth, reached;
    long long m;
    double traversed;
    int32_t *ref, *h_level;           /* the CPU's levels; a rung's, downloaded */
    long long v0[BG_MAXD], v1[BG_MAXD];            /* rank r's vertices */
    int *rp[BG_MAXD], *ci[BG_MAXD], *irp[BG_MAXD], *ici[BG_MAXD]; /* its out- and in-edges (global ids) */
    int32_t *level[BG_MAXD];          /* its vertices' levels */
    unsigned *front[BG_MAXD][2];      /* the frontier, this level's and the next (every vertex) */
    unsigned *visited[BG_MAXD], *marks[BG_MAXD]; /* the visited set; this GPU's top-down marks (every vertex) */
    unsigned long long *d_count[BG_MAXD], *h_count; /* a level's counts: vertices found, their out-edges */
    long long words;                  /* the bitmaps' 32-vertex words */
    climb_bgx bx;                     /* the levels' state, over the arrays above */
    /* one_gpu: the whole graph on the first GPU */
    int *one_rp, *one_ci, *one_irp, *one_ici;
    int32_t *one_level;
    void *one_ws;
    size_t one_ws_bytes;
    int levels_run;                   /* the last run's levels (its note) */
    char desc[300];
};

#define ON(d) CLIMB_CHECK(cudaSetDevice(d))

enum { OPT_GRAPH, OPT_EDGE_FACTOR, OPT_SOURCE };
enum { BG_RMAT, BG_GRID2D, BG_RMAT_DIRECTED };

static int ranks(const climb_case *c) { return c->g.x.P; }

/* ---------------------------------------------------------------- the kernels */

#define BG_THREADS 256
#define BG_ITEMS 4 /* a lane's edges with their loads in flight at once */
#define BG_FULL 0xffffffffu
#define BG_WARPS (BG_THREADS / 32)
#define BG_BIG (32 * BG_ITEMS * 4) /* a top-down list longer than this is the block's */

/* A thread's BG_ITEMS targets (t < 0: none): each unvisited one marked, the visited words' loads in flight together. */
__device__ __forceinline__ void bg_mark(const int (&t)[BG_ITEMS], const unsigned *visited, unsigned *marks)
{
    unsigned seen[BG_ITEMS];
#pragma unroll
    for (int j = 0; j < BG_ITEMS; j++)
        seen[j] = t[j] >= 0 ? visited[t[j] >> 5] : ~0u;
#pragma unroll
    for (int j = 0; j < BG_ITEMS; j++)
        if (t[j] >= 0 && !(seen[j] >> (t[j] & 31) & 1u))
            atomicOr(&marks[t[j] >> 5], 1u << (t[j] & 31));
}

/* Top-down: each round a block takes 8 words of this GPU's frontier, a warp a word. The out-edge lists of the word's
 * frontier vertices are laid end to end and spread over the warp's lanes (climb_warp_run_of: lane l takes items l,
 * l + 32, ...), BG_ITEMS a lane in flight; a list longer than BG_BIG edges (a hub of a power-law graph) is left to
 * the whole block after the warps' lists, BG_THREADS x BG_ITEMS edges a round, so that no warp walks a hub alone.
 * Each unvisited target is marked in this GPU's marks. */
__global__ void __launch_bounds__(BG_THREADS) bg_top_down_kernel(const unsigned *front, const unsigned *visited,
                                                                 const int *rp, const int *ci, long long v0,
                                                                 long long w0, long long w1, unsigned *marks)
{
    __shared__ int big[BG_THREADS]; /* a round's long lists: their rows (8 words of 32 vertices at the most) */
    __shared__ int n_big;
    const int lane = threadIdx.x % 32;
    for (long long wb = w0 + (long long)blockIdx.x * BG_WARPS; wb < w1; wb += (long long)gridDim.x * BG_WARPS) {
        if (threadIdx.x == 0)
            n_big = 0;
        __syncthreads();
        const long long w = wb + threadIdx.x / 32;
        const unsigned bits = w < w1 ? front[w] : 0u; /* the same word in every lane of the warp */
        if (bits) {
            int beg = 0, len = 0;
            if (bits >> lane & 1u) {
                const long long u = w * 32 + lane - v0; /* v0 is a whole word: u is this GPU's row */
                beg = rp[u];
                len = rp[u + 1] - beg;
                if (len > BG_BIG) { /* the block's, below */
                    big[atomicAdd(&n_big, 1)] = (int)u;
                    len = 0;
                }
            }
            const int inc = climb_warp_inclusive_scan<climb_op_sum>(len); /* a rank's edges fit an int */
            const int total = __shfl_sync(BG_FULL, inc, 31);
            for (int k0 = 0; k0 < total; k0 += 32 * BG_ITEMS) { /* total <= 32 BG_BIG: no wrap */
                int t[BG_ITEMS];
#pragma unroll
                for (int j = 0; j < BG_ITEMS; j++) {
                    const int k = k0 + j * 32 + lane, b = climb_warp_run_of(inc, k);
                    const int first = __shfl_sync(BG_FULL, beg, b), before = __shfl_sync(BG_FULL, inc - len, b);
                    t[j] = k < total ? ci[first + (k - before)] : -1;
                }
                bg_mark(t, visited, marks);
            }
        }
        __syncthreads(); /* the round's long lists listed */
        for (int i = 0; i < n_big; i++) {
            const int u = big[i];
            const long long end = rp[u + 1]; /* (long long: past the end near INT_MAX) */
            for (long long e0 = rp[u] + threadIdx.x; e0 < end; e0 += BG_THREADS * BG_ITEMS) {
                int t[BG_ITEMS];
#pragma unroll
                for (int j = 0; j < BG_ITEMS; j++)
                    t[j] = e0 + j * BG_THREADS < end ? ci[e0 + j * BG_THREADS] : -1;
                bg_mark(t, visited, marks);
            }
        }
        __syncthreads(); /* n_big and big read before the next round's */
    }
}

/* A warp's counts of a level (vertices found, their out-edges: a lane's own), added to the level's counters by its
 * first lane. Every lane of the warp calls it. A rank's edges fit 32 bits, so a warp's sum of them does. */
__device__ __forceinline__ void bg_add_counts(unsigned found, unsigned edges, unsigned long long *count)
{
    found = climb_warp_sum(found);
    edges = climb_warp_sum(edges);
    if (threadIdx.x % 32 == 0) {
        if (found)
            atomicAdd(&count[0], (unsigned long long)found);
        if (edges)
            atomicAdd(&count[1], (unsigned long long)edges);
    }
}

/* The marks an owner reads (climb_bgx_marks: every GPU's array by peer access, or copies of their words brought to
 * it). */
typedef climb_bgx_marks bg_peers;

/* Top-down's owner step: a warp a word of this GPU's, the OR of every GPU's marks on it less the visited (the same
 * words in every lane): this GPU's word of the next frontier, written by the first lane; lane l sets vertex l's level
 * if it was found and counts it with its out-edges (the levels and row offsets read and written a warp's 32
 * consecutive vertices at once). */
__global__ void __launch_bounds__(BG_THREADS) bg_owner_kernel(bg_peers peers, const unsigned *visited, const int *rp,
                                                              long long v0, long long w0, long long w1, int depth,
                                                              unsigned *next, int32_t *level,
                                                              unsigned long long *count)
{
    const int lane = threadIdx.x % 32;
    const long long warps = (long long)gridDim.x * BG_WARPS;
    unsigned found = 0, edges = 0;
    for (long long w = w0 + ((long long)blockIdx.x * BG_THREADS + threadIdx.x) / 32; w < w1; w += warps) {
        unsigned x = 0;
        for (int q = 0; q < peers.n; q++)
            x |= peers.marks[q][w - peers.off[q]];
        x &= ~visited[w];
        if (lane == 0)
            next[w] = x;
        if (x >> lane & 1u) {
            const long long v = w * 32 + lane - v0;
            level[v] = depth;
            found++;
            edges += (unsigned)(rp[v + 1] - rp[v]);
        }
    }
    bg_add_counts(found, edges, count);
}

/* Bottom-up: a thread a vertex of this GPU's (a warp a word); each unvisited vertex (below v1) reads its in-edges
 * BG_ITEMS at a time, their loads in flight together, until one comes from the frontier (Beamer's early exit); the
 * word's new frontier bits gathered by a ballot and written by the warp's first lane. */
__global__ void __launch_bounds__(BG_THREADS) bg_bottom_up_kernel(const unsigned *front, const unsigned *visited,
                                                                  const int *irp, const int *ici, const int *rp,
                                                                  long long v0, long long v1, long long w0,
                                                                  long long w1, int depth, unsigned *next,
                                                                  int32_t *level, unsigned long long *count)
{
    const int lane = threadIdx.x % 32;
    const long long warps = (long long)gridDim.x * BG_WARPS;
    unsigned found = 0, edges = 0;
    for (long long w = w0 + ((long long)blockIdx.x * BG_THREADS + threadIdx.x) / 32; w < w1; w += warps) {
        const long long v = w * 32 + lane - v0; /* this lane's vertex, a row of this GPU's if below v1 - v0 */
        bool hit = false;
        if (w * 32 + lane < v1 && !(visited[w] >> lane & 1u)) {
            const int end = irp[v + 1];
            for (int e = irp[v]; e < end && !hit; e += BG_ITEMS) {
                int p[BG_ITEMS];
#pragma unroll
                for (int j = 0; j < BG_ITEMS; j++)
                    p[j] = e + j < end ? ici[e + j] : -1;
                unsigned f[BG_ITEMS];
#pragma unroll
                for (int j = 0; j < BG_ITEMS; j++)
                    f[j] = p[j] >= 0 ? front[p[j] >> 5] >> (p[j] & 31) & 1u : 0u;
#pragma unroll
                for (int j = 0; j < BG_ITEMS; j++)
                    hit |= f[j] != 0;
            }
            if (hit) {
                level[v] = depth;
                found++;
                edges += (unsigned)(rp[v + 1] - rp[v]);
            }
        }
        const unsigned got = __ballot_sync(BG_FULL, hit);
        if (lane == 0)
            next[w] = got;
    }
    bg_add_counts(found, edges, count);
}

/* Every GPU after the all-gather: the frontier joins the visited set; this GPU's marks cleared, and the frontier
 * before this one (old: done with on every GPU) cleared for the level after next. */
__global__ void __launch_bounds__(BG_THREADS) bg_visit_kernel(const unsigned *next, unsigned *visited, unsigned *marks,
                                                              unsigned *old, long long words)
{
    for (long long w = blockIdx.x * (long long)BG_THREADS + threadIdx.x; w < words; w += (long long)gridDim.x * BG_THREADS) {
        visited[w] |= next[w];
        marks[w] = 0;
        old[w] = 0;
    }
}

static unsigned bg_blocks(long long n, int per, int sms)
{
    const long long want = (n + per - 1) / per, most = (long long)sms * 8;
    return (unsigned)(want < 1 ? 1 : want < most ? want : most);
}

/* ---------------------------------------------------------------- the schedules */

#define BGX_TRY(call, what) CLIMB_SCHED_TRY(e, call, what)

static long long word0(const climb_bgx *e, int r) { return e->v0[r] / 32; }
static long long word1(const climb_bgx *e, int r) { return (e->v1[r] + 31) / 32; }

/* A step between the ranks. */
static int bgx_barrier(climb_bgx *e)
{
    BGX_TRY(climb_coll_barrier(e->x), "a step between the GPUs");
    return 0;
}

/* One process driving every rank: the owners read every rank's marks where they are, after a step between the
 * ranks (every rank's marks made). */
static int local_marks(void *, climb_bgx *e, int r, climb_bgx_marks *out)
{
    if (r == e->x->lo && bgx_barrier(e))
        return -1;
    out->n = e->x->P;
    for (int q = 0; q < e->x->P; q++) {
        out->marks[q] = e->marks[q];
        out->off[q] = 0;
    }
    return 0;
}

/* Each rank's words of the next frontier copied to every other rank (a step between the ranks before and after). */
static int local_frontier(void *, climb_bgx *e, int nx)
{
    const int P = e->x->P;
    if (bgx_barrier(e))
        return -1;
    for (int r = 0; r < P; r++) {
        const long long w0 = word0(e, r), nw = word1(e, r) - w0;
        if (nw <= 0)
            continue;
        BGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
        for (int q = 0; q < P; q++)
            if (q != r)
                BGX_TRY(climb_copy_across(e->front[q][nx] + w0, e->front[r][nx] + w0, (size_t)nw * 4, e->x->st[r]),
                        "the frontier's all-gather");
    }
    return bgx_barrier(e);
}

/* Every rank's two counters brought to the host and summed. */
static int local_counts(void *, climb_bgx *e, unsigned long long sum[2])
{
    sum[0] = sum[1] = 0;
    for (int r = 0; r < e->x->P; r++) {
        BGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
        BGX_TRY(cudaMemcpyAsync(e->h_count, e->d_count[r], 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                e->x->st[r]),
                "a level's counts to the host");
        BGX_TRY(cudaStreamSynchronize(e->x->st[r]), "a level's counts to the host");
        sum[0] += e->h_count[0];
        sum[1] += e->h_count[1];
    }
    return 0;
}

static const climb_bgx_ops LOCAL_OPS = {NULL, local_marks, local_frontier, local_counts};

/* The levels from the source, direction-optimising (td_only: top-down every level), for the ranks [x->lo, x->hi)
 * this process drives; ops exchange what crosses between ranks (NULL: one process, every rank, by the copy engines
 * and peer access). */
extern "C" int climb_bgx_search(climb_bgx *e, int td_only, const climb_bgx_ops *ops)
{
    const int lo = e->x->lo, hi = e->x->hi;
    const long long W = e->words;
    if (!ops)
        ops = &LOCAL_OPS;
    e->err = cudaSuccess;
    e->why = NULL;
    e->depth = 0;
    if (e->n == 0)
        return 0;
    /* the start: every level -1 but the source's 0; the frontier and the visited set the source alone (the host's
     * words are waited for: they are on its stack) */
    const unsigned bit = 1u << (e->source & 31);
    const int32_t zero = 0;
    for (int r = lo; r < hi; r++) {
        BGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
        cudaStream_t s = e->x->st[r];
        if (e->v1[r] > e->v0[r])
            BGX_TRY(cudaMemsetAsync(e->level[r], 0xFF, (size_t)(e->v1[r] - e->v0[r]) * 4, s), "the levels' start");
        for (int k = 0; k < 2; k++)
            BGX_TRY(cudaMemsetAsync(e->front[r][k], 0, (size_t)W * 4, s), "the frontier's start");
        BGX_TRY(cudaMemsetAsync(e->visited[r], 0, (size_t)W * 4, s), "the visited set's start");
        BGX_TRY(cudaMemsetAsync(e->marks[r], 0, (size_t)W * 4, s), "the marks' start");
        BGX_TRY(cudaMemcpyAsync(e->front[r][0] + e->source / 32, &bit, 4, cudaMemcpyHostToDevice, s), "the source");
        BGX_TRY(cudaMemcpyAsync(e->visited[r] + e->source / 32, &bit, 4, cudaMemcpyHostToDevice, s), "the source");
        if (e->source >= e->v0[r] && e->source < e->v1[r])
            BGX_TRY(cudaMemcpyAsync(e->level[r] + (e->source - e->v0[r]), &zero, 4, cudaMemcpyHostToDevice, s),
                    "the source");
        BGX_TRY(cudaStreamSynchronize(s), "the search's start");
    }
    long long frontier = 1, frontier_edges = e->source_edges;
    long long unexplored = e->m - frontier_edges;
    int bottom_up = 0, cur = 0, depth = 0;
    while (frontier > 0) {
        /* Beamer's rule: bottom-up once the frontier's edges pass the unexplored ones / 14; top-down again once the
         * frontier is below n / 24 vertices (and still shrinking) */
        if (!td_only) {
            if (!bottom_up && frontier_edges > unexplored / 14)
                bottom_up = 1;
            else if (bottom_up && frontier < e->n / 24)
                bottom_up = 0;
        }
        depth++;
        const int nx = 1 - cur;
        for (int r = lo; r < hi; r++) {
            BGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
            BGX_TRY(cudaMemsetAsync(e->d_count[r], 0, 2 * sizeof(unsigned long long), e->x->st[r]), "a level's counts");
        }
        if (bottom_up) {
            for (int r = lo; r < hi; r++) {
                const long long w0 = word0(e, r), w1 = word1(e, r);
                if (w1 <= w0)
                    continue;
                BGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
                bg_bottom_up_kernel<<<bg_blocks((w1 - w0) * 32, BG_THREADS, e->x->sms[r]), BG_THREADS, 0,
                                      e->x->st[r]>>>(e->front[r][cur], e->visited[r], e->irp[r], e->ici[r], e->rp[r],
                                                     e->v0[r], e->v1[r], w0, w1, depth, e->front[r][nx], e->level[r],
                                                     e->d_count[r]);
                BGX_TRY(cudaGetLastError(), "a bottom-up step");
            }
        } else {
            for (int r = lo; r < hi; r++) {
                const long long w0 = word0(e, r), w1 = word1(e, r);
                if (w1 <= w0)
                    continue;
                BGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
                bg_top_down_kernel<<<bg_blocks((w1 - w0) * 32, BG_THREADS, e->x->sms[r]), BG_THREADS, 0,
                                     e->x->st[r]>>>(e->front[r][cur], e->visited[r], e->rp[r], e->ci[r], e->v0[r], w0,
                                                    w1, e->marks[r]);
                BGX_TRY(cudaGetLastError(), "a top-down step");
            }
            for (int r = lo; r < hi; r++) {
                climb_bgx_marks peers;
                memset(&peers, 0, sizeof peers);
                if (ops->marks(ops->ctx, e, r, &peers)) /* every rank's marks on r's words */
                    return -1;
                const long long w0 = word0(e, r), w1 = word1(e, r);
                if (w1 <= w0)
                    continue;
                BGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
                bg_owner_kernel<<<bg_blocks((w1 - w0) * 32, BG_THREADS, e->x->sms[r]), BG_THREADS, 0, e->x->st[r]>>>(
                    peers, e->visited[r], e->rp[r], e->v0[r], w0, w1, depth, e->front[r][nx], e->level[r],
                    e->d_count[r]);
                BGX_TRY(cudaGetLastError(), "the owners' step");
            }
        }
        if (ops->frontier(ops->ctx, e, nx))
            return -1;
        for (int r = lo; r < hi; r++) {
            BGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
            bg_visit_kernel<<<bg_blocks(W, BG_THREADS, e->x->sms[r]), BG_THREADS, 0, e->x->st[r]>>>(
                e->front[r][nx], e->visited[r], e->marks[r], e->front[r][cur], W);
            BGX_TRY(cudaGetLastError(), "the visited set's update");
        }
        unsigned long long sum[2];
        if (ops->counts(ops->ctx, e, sum))
            return -1;
        frontier = (long long)sum[0];
        frontier_edges = (long long)sum[1];
        unexplored -= frontier_edges;
        cur = nx; /* the next level's frontier is this one's "next" (the old one cleared by the visit kernel) */
    }
    e->depth = depth;
    return 0;
}

extern "C" int climb_bgx_levels(climb_bgx *e, int td_only) { return climb_bgx_search(e, td_only, NULL); }

/* The levels as a rung runs them, a failure reported. */
static int run_levels(climb_case *c, int td_only)
{
    climb_bgx *e = &c->bx;
    if (climb_bgx_levels(e, td_only) != 0) {
        fprintf(stderr, "climb: bfs_gpus: %s: %s\n", e->why, cudaGetErrorString(e->err));
        cudaGetLastError();
        return -1;
    }
    c->levels_run = e->depth;
    return 0;
}

static int run_top_down(climb_case *c) { return run_levels(c, 1); }
static int run_direction(climb_case *c) { return run_levels(c, 0); }

/* one_gpu: bfs's best rung (one cooperative kernel, direction-optimising) on the whole graph on the first GPU. */
static int run_one_gpu(climb_case *c)
{
    ON(c->g.x.devices[0]);
    if (c->n == 0)
        return 0;
    CLIMB_CHECK(climb_bfs_best(c->n, c->one_rp, c->one_ci, c->one_irp, c->one_ici, c->source, c->one_level, c->one_ws,
                               c->one_ws_bytes, c->g.x.sms[0], c->g.x.st[0]));
    return 0;
}

/* ---------------------------------------------------------------- the registry table */

typedef struct {
    climb_rung_info info;
    int (*run)(climb_case *c);
    int one;
} bg_rung;

static int k_one(climb_dtype t, const climb_device_info *d, const int *, climb_kernel_desc *out, int max)
{
    return climb_rung_kernels(&climb_bfs_workload, climb_best_rung(&climb_bfs_workload), t, d, out, max);
}

static int k_td(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)bg_top_down_kernel, BG_THREADS, 0, "bg_top_down_kernel");
    n = climb_kernel_at(o, max, n, (const void *)bg_owner_kernel, BG_THREADS, 0, "bg_owner_kernel");
    return climb_kernel_at(o, max, n, (const void *)bg_visit_kernel, BG_THREADS, 0, "bg_visit_kernel");
}

static int k_do(climb_dtype t, const climb_device_info *d, const int *tuning, climb_kernel_desc *o, int max)
{
    const int n = k_td(t, d, tuning, o, max);
    return climb_kernel_at(o, max, n, (const void *)bg_bottom_up_kernel, BG_THREADS, 0, "bg_bottom_up_kernel");
}

static const bg_rung BG_RUNGS[] = {
    {.info = {.name = "one_gpu", .idea = "the whole graph on one GPU by bfs's best rung (one cooperative kernel, "
                                         "direction-optimising): what the others are sped up from",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_one},
     .run = run_one_gpu, .one = 1},
    {.info = {.name = "top_down", .idea = "a range of vertices a GPU, the frontier and visited set as bitmaps every GPU "
                                          "holds; each level every GPU marks its frontier's unvisited targets, each "
                                          "owner ORs every GPU's marks on its words over NVLink, and the new "
                                          "frontier's words are copied to every GPU",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_td, .host_part = 1},
     .run = run_top_down},
    {.info = {.name = "direction_optimizing", .idea = "the same, with bottom-up levels where the frontier is large "
                                                      "(each GPU's unvisited vertices look for a frontier parent "
                                                      "among their in-edges: no marks to exchange); Beamer's rule "
                                                      "chooses each level's direction",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_do, .host_part = 1},
     .run = run_direction},
    {.info = {.name = "bfs_gpus_best", .idea = "the direction-optimising levels", .needs = "", .kind = CLIMB_RUNG_BEST,
              .kernels = k_do, .host_part = 1},
     .run = run_direction},
};
#define BG_N_RUNGS CLIMB_COUNT(BG_RUNGS)

static const climb_rung_info *bg_rung_info(int i) { return &BG_RUNGS[i].info; }

/* ---------------------------------------------------------------- harness glue */

static void free_one(climb_case *c)
{
    cudaSetDevice(c->g.x.devices[0]);
    if (c->one_irp != c->one_rp)
        cudaFree(c->one_irp);
    if (c->one_ici != c->one_ci)
        cudaFree(c->one_ici);
    cudaFree(c->one_rp);
    cudaFree(c->one_ci);
    cudaFree(c->one_level);
    cudaFree(c->one_ws);
    c->one_rp = c->one_ci = c->one_irp = c->one_ici = NULL;
    c->one_level = NULL;
    c->one_ws = NULL;
}

static void bg_fini(climb_case *c)
{
    for (int r = 0; r < ranks(c); r++) {
        cudaSetDevice(c->g.x.devices[r]);
        if (c->irp[r] != c->rp[r])
            cudaFree(c->irp[r]);
        if (c->ici[r] != c->ci[r])
            cudaFree(c->ici[r]);
        cudaFree(c->rp[r]);
        cudaFree(c->ci[r]);
        cudaFree(c->level[r]);
        cudaFree(c->front[r][0]);
        cudaFree(c->front[r][1]);
        cudaFree(c->visited[r]);
        cudaFree(c->marks[r]);
        cudaFree(c->d_count[r]);
    }
    free_one(c);
    cudaFreeHost(c->h_count);
    climb_gpuset_fini(&c->g);
    if (c->in_rp != c->own.row_ptr)
        free(c->in_rp);
    if (c->in_ci != c->own.col_idx)
        free(c->in_ci);
    climb_csr_free(&c->own);
}

/* The in-edges on the host: the transpose's rows (u -> v stored in v's row as u). */
static int transpose(climb_case *c)
{
    const int32_t n = c->n;
    const int32_t *rp = c->own.row_ptr, *ci = c->own.col_idx;
    c->in_rp = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
    c->in_ci = (int32_t *)malloc(((size_t)c->m + 1) * sizeof(int32_t));
    int32_t *at = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    if (!c->in_rp || !c->in_ci || !at) {
        free(at);
        return climb_host_oom("bfs_gpus's in-edges");
    }
    for (long long e = 0; e < c->m; e++)
        c->in_rp[ci[e] + 1]++;
    for (int32_t v = 0; v < n; v++)
        c->in_rp[v + 1] += c->in_rp[v];
    memcpy(at, c->in_rp, ((size_t)n + 1) * sizeof(int32_t));
    for (int32_t u = 0; u < n; u++)
        for (int32_t e = rp[u]; e < rp[u + 1]; e++)
            c->in_ci[at[ci[e]]++] = u;
    free(at);
    return 0;
}

static const char *const BG_GRAPH_NAMES[] = {"R-MAT (Graph500's A, B, C, D = 0.57, 0.19, 0.19, 0.05; undirected)",
                                             "2-D grid, 4 neighbours",
                                             "R-MAT (Graph500's parameters; directed: each edge as drawn)"};

/* The graph (generated), its in-edges, the source, every rank's vertices and its arrays on its GPU. */
static int bg_init(climb_case *c)
{
    if (climb_gpuset_init(&c->g, &c->p))
        return -1;
    const climb_case_params *p = &c->p;
    const int P = ranks(c);
    c->graph = p->opts[OPT_GRAPH].choice;
    const size_t nv = p->shape.d[0];
    if (nv > 0x7fffffffu) {
        fprintf(stderr, "climb: bfs_gpus: more than 2^31 - 1 vertices\n");
        return -1;
    }
    char err[400];
    static const int KIND[] = {CLIMB_GEN_RMAT, CLIMB_GEN_GRID2D, CLIMB_GEN_RMAT};
    const climb_sparse_gen sg = {KIND[c->graph], (int64_t)nv, (int64_t)nv, 0, (int)p->opts[OPT_EDGE_FACTOR].i, 0,
                                 p->seed, c->graph == BG_RMAT_DIRECTED};
    if (nv > 0 && climb_sparse_generate(&sg, &c->own, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "climb: bfs_gpus: %s\n", err);
        return -1;
    }
    if (nv == 0 && !(c->own.row_ptr = (int32_t *)calloc(1, sizeof(int32_t))))
        return climb_host_oom("the graph");
    c->n = (int32_t)nv;
    c->m = c->own.row_ptr[c->n];
    c->symmetric = c->graph != BG_RMAT_DIRECTED || climb_bfs_is_symmetric(c->n, c->own.row_ptr, c->own.col_idx);
    if (c->symmetric) {
        c->in_rp = c->own.row_ptr;
        c->in_ci = c->own.col_idx;
    } else if (transpose(c)) {
        return -1;
    }
    const int64_t want = p->opts[OPT_SOURCE].i;
    if (want >= c->n && c->n > 0) {
        fprintf(stderr, "climb: bfs_gpus: source %lld is not a vertex: the graph has %d\n", (long long)want, c->n);
        return -1;
    }
    c->source = want >= 0 ? (int32_t)want : climb_bfs_default_source(c->n, c->own.row_ptr, c->own.col_idx, p->seed);
    c->words = ((long long)c->n + 31) / 32;
    CLIMB_CHECK(cudaMallocHost((void **)&c->h_count, 2 * sizeof(unsigned long long)));
    const int32_t *rp = c->own.row_ptr, *irp = c->in_rp;
    for (int r = 0; r < P; r++) {
        climb_vertex_range(c->n, P, r, &c->v0[r], &c->v1[r]);
        const long long v0 = c->v0[r], v1 = c->v1[r], nl = v1 - v0;
        ON(c->g.x.devices[r]);
        /* its rows, offsets from its first edge */
        const long long e0 = rp[v0], e1 = rp[v1], i0 = irp[v0], i1 = irp[v1];
        int *hrp = (int *)malloc(((size_t)nl + 1) * sizeof(int)), *hirp = (int *)malloc(((size_t)nl + 1) * sizeof(int));
        if (!hrp || !hirp) {
            free(hrp);
            free(hirp);
            return climb_host_oom("bfs_gpus's rows");
        }
        for (long long v = 0; v <= nl; v++) {
            hrp[v] = (int)(rp[v0 + v] - e0);
            hirp[v] = (int)(irp[v0 + v] - i0);
        }
        const size_t W = (size_t)(c->words ? c->words : 1) * 4;
        cudaError_t e = cudaMalloc((void **)&c->rp[r], ((size_t)nl + 1) * sizeof(int));
        if (e == cudaSuccess)
            e = cudaMalloc((void **)&c->ci[r], ((size_t)(e1 - e0) + 1) * sizeof(int));
        if (e == cudaSuccess)
            e = cudaMalloc((void **)&c->level[r], ((size_t)nl + 1) * sizeof(int32_t));
        for (int k = 0; k < 2 && e == cudaSuccess; k++)
            e = cudaMalloc((void **)&c->front[r][k], W);
        if (e == cudaSuccess)
            e = cudaMalloc((void **)&c->visited[r], W);
        if (e == cudaSuccess)
            e = cudaMalloc((void **)&c->marks[r], W);
        if (e == cudaSuccess)
            e = cudaMalloc((void **)&c->d_count[r], 2 * sizeof(unsigned long long));
        if (e == cudaSuccess && c->symmetric) {
            c->irp[r] = c->rp[r];
            c->ici[r] = c->ci[r];
        } else if (e == cudaSuccess) {
            e = cudaMalloc((void **)&c->irp[r], ((size_t)nl + 1) * sizeof(int));
            if (e == cudaSuccess)
                e = cudaMalloc((void **)&c->ici[r], ((size_t)(i1 - i0) + 1) * sizeof(int));
        }
        if (e == cudaSuccess)
            e = cudaMemcpy(c->rp[r], hrp, ((size_t)nl + 1) * sizeof(int), cudaMemcpyHostToDevice);
        if (e == cudaSuccess && e1 > e0)
            e = cudaMemcpy(c->ci[r], c->own.col_idx + e0, (size_t)(e1 - e0) * sizeof(int), cudaMemcpyHostToDevice);
        if (e == cudaSuccess && !c->symmetric)
            e = cudaMemcpy(c->irp[r], hirp, ((size_t)nl + 1) * sizeof(int), cudaMemcpyHostToDevice);
        if (e == cudaSuccess && !c->symmetric && i1 > i0)
            e = cudaMemcpy(c->ici[r], c->in_ci + i0, (size_t)(i1 - i0) * sizeof(int), cudaMemcpyHostToDevice);
        free(hrp);
        free(hirp);
        if (e != cudaSuccess) {
            cudaGetLastError();
            cudaSetDevice(c->g.home);
            fprintf(stderr, "climb: bfs_gpus: GPU %d's part of the graph (%lld vertices, %lld edges): %s\n",
                    c->g.x.devices[r], nl, e1 - e0, cudaGetErrorString(e));
            return -1;
        }
    }
    climb_bgx *bx = &c->bx;
    bx->x = &c->g.x;
    bx->n = c->n;
    bx->source = c->source;
    bx->m = c->m;
    bx->source_edges = c->n ? rp[c->source + 1] - rp[c->source] : 0;
    bx->words = c->words;
    bx->h_count = c->h_count;
    for (int r = 0; r < P; r++) {
        bx->v0[r] = c->v0[r];
        bx->v1[r] = c->v1[r];
        bx->rp[r] = c->rp[r];
        bx->ci[r] = c->ci[r];
        bx->irp[r] = c->irp[r];
        bx->ici[r] = c->ici[r];
        bx->level[r] = c->level[r];
        bx->front[r][0] = c->front[r][0];
        bx->front[r][1] = c->front[r][1];
        bx->visited[r] = c->visited[r];
        bx->marks[r] = c->marks[r];
        bx->d_count[r] = c->d_count[r];
    }
    ON(c->g.home);
    return 0;
}

/* The CPU's levels and the description. */
static int bg_fill(climb_case *c)
{
    c->reached = climb_bfs_ref(c->n, c->own.row_ptr, c->own.col_idx, c->source, c->ref, NULL, &c->depth);
    double edges = 0;
    for (int32_t v = 0; v < c->n; v++)
        if (c->ref[v] >= 0)
            edges += c->own.row_ptr[v + 1] - c->own.row_ptr[v];
    c->traversed = c->symmetric ? edges / 2 : edges;
    snprintf(c->desc, sizeof c->desc, "%s: %d vertices, %lld edges stored (%s); source %d reaches %d in %d levels; "
             "a range of vertices on each of %d GPUs", BG_GRAPH_NAMES[c->graph], c->n, c->m,
             c->symmetric ? "symmetric" : "directed", c->source, c->reached, c->depth, ranks(c));
    return 0;
}

static size_t level_bytes(const climb_case *c) { return ((size_t)c->n + 1) * sizeof(int32_t); }

static const climb_buffer BG_BUFFERS[] = {
    {.name = "CPU levels", .flags = CLIMB_BUF_HOST, .bytes = level_bytes, .host_at = offsetof(climb_case, ref)},
    {.name = "levels downloaded", .flags = CLIMB_BUF_HOST, .bytes = level_bytes, .host_at = offsetof(climb_case, h_level)},
};

static int bg_empty(const climb_case *c) { return c->n == 0; }
static const char *bg_describe(const climb_case *c) { return c->desc; }

static int bg_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode;
    snprintf(desc, desclen, "CPU levels (a queue), every vertex exact");
    return 0;
}

/* one_gpu: the whole graph and bfs's best rung's workspace on the first GPU. */
static int bg_prepare(climb_case *c, int rung)
{
    const bg_rung *r = &BG_RUNGS[rung];
    if (bg_empty(c))
        return 0;
    if (r->one && !c->one_rp) {
        ON(c->g.x.devices[0]);
        const size_t n1 = ((size_t)c->n + 1) * sizeof(int), mb = ((size_t)c->m + 1) * sizeof(int);
        c->one_ws_bytes = climb_bfs_best_workspace(c->n);
        if (cudaMalloc((void **)&c->one_rp, n1) != cudaSuccess || cudaMalloc((void **)&c->one_ci, mb) != cudaSuccess ||
            cudaMalloc((void **)&c->one_level, n1) != cudaSuccess ||
            cudaMalloc(&c->one_ws, c->one_ws_bytes) != cudaSuccess)
            goto oom;
        CLIMB_CHECK(cudaMemcpy(c->one_rp, c->own.row_ptr, n1, cudaMemcpyHostToDevice));
        CLIMB_CHECK(cudaMemcpy(c->one_ci, c->own.col_idx, (size_t)c->m * sizeof(int), cudaMemcpyHostToDevice));
        if (c->symmetric) {
            c->one_irp = c->one_rp;
            c->one_ici = c->one_ci;
        } else {
            if (cudaMalloc((void **)&c->one_irp, n1) != cudaSuccess ||
                cudaMalloc((void **)&c->one_ici, mb) != cudaSuccess)
                goto oom;
            CLIMB_CHECK(cudaMemcpy(c->one_irp, c->in_rp, n1, cudaMemcpyHostToDevice));
            CLIMB_CHECK(cudaMemcpy(c->one_ici, c->in_ci, (size_t)c->m * sizeof(int), cudaMemcpyHostToDevice));
        }
    }
    ON(c->g.home);
    return climb_gpuset_prepare(&c->g, !r->one, 0, "bfs_gpus");
oom:
    cudaGetLastError();
    cudaSetDevice(c->g.home);
    fprintf(stderr, "climb: bfs_gpus: out of GPU memory on GPU %d for the whole graph (%d vertices, %lld edges)\n",
            c->g.x.devices[0], c->n, c->m);
    return -1;
}

static void bg_release(climb_case *c, int rung)
{
    if (BG_RUNGS[rung].one)
        free_one(c);
}

static int bg_run(climb_case *c, int rung, cudaStream_t s)
{
    if (climb_gpuset_fork(&c->g, s))
        return -1;
    const int rc = BG_RUNGS[rung].run(c);
    cudaSetDevice(c->g.home);
    return rc ? rc : climb_gpuset_join(&c->g, s, 0);
}

/* Every level, all ones (-1: unreached, which most vertices are not). */
static int bg_poison(climb_case *c)
{
    for (int r = 0; r < ranks(c); r++) {
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaMemset(c->level[r], 0x7F, (size_t)(c->v1[r] - c->v0[r] + 1) * 4));
        CLIMB_CHECK(cudaDeviceSynchronize());
    }
    if (c->one_level) {
        ON(c->g.x.devices[0]);
        CLIMB_CHECK(cudaMemset(c->one_level, 0x7F, level_bytes(c)));
        CLIMB_CHECK(cudaDeviceSynchronize());
    }
    ON(c->g.home);
    return 0;
}

/* Every vertex's level against the CPU's. */
static int bg_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    if (BG_RUNGS[rung].one) {
        ON(c->g.x.devices[0]);
        CLIMB_CHECK(cudaMemcpy(c->h_level, c->one_level, (size_t)c->n * 4, cudaMemcpyDeviceToHost));
    } else {
        for (int r = 0; r < ranks(c); r++) {
            ON(c->g.x.devices[r]);
            CLIMB_CHECK(cudaMemcpy(c->h_level + c->v0[r], c->level[r], (size_t)(c->v1[r] - c->v0[r]) * 4,
                                   cudaMemcpyDeviceToHost));
        }
    }
    ON(c->g.home);
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    for (int32_t v = 0; v < c->n; v++)
        climb_compare_exact(&k, c->h_level[v], c->ref[v], "level[%d]", v);
    return climb_compare_end(&k);
}

/* Items: the traversed part's edges (an undirected edge once). Bytes: the busiest GPU's edges and levels; over the
 * links, a GPU's bitmap words from the others each level (an estimate: the levels of the CPU's search). */
static void bg_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    long long most = 0;
    for (int r = 0; r < ranks(c); r++) {
        const long long e = c->own.row_ptr[c->v1[r]] - c->own.row_ptr[c->v0[r]];
        most = e > most ? e : most;
    }
    out->bytes_read = 4.0 * (double)most * (c->symmetric ? 1 : 2);
    out->bytes_written = 4.0 * (double)(c->v1[0] - c->v0[0]);
    out->items = c->traversed;
    out->link_bytes = ranks(c) > 1 ? 4.0 * (double)c->words * (ranks(c) - 1) / ranks(c) * (c->depth + 1) : 0;
}

static int bg_rung_counts(const climb_case *c, int rung, climb_counts *out)
{
    if (!BG_RUNGS[rung].one)
        return 0;
    memset(out, 0, sizeof *out);
    out->bytes_read = 4.0 * (double)c->m * (c->symmetric ? 1 : 2);
    out->bytes_written = 4.0 * (double)c->n;
    out->items = c->traversed;
    return 1;
}

/* Graph500's R-MAT at 2^22 and 2^24 vertices (scale 26, the goal's, by --size 2^26: about 20 GB of the host's
 * memory to draw). */
static const climb_shape BG_BENCH_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 22), CLIMB_SHAPE1((size_t)1 << 24)};
static const climb_shape BG_MAIN_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 22)};
/* Empty, one vertex, fewer words than GPUs, counts that are not whole words, a grid's deep levels. */
static const climb_shape BG_CHECK_SHAPES[] = {CLIMB_SHAPE1(0),    CLIMB_SHAPE1(1),     CLIMB_SHAPE1(33),
                                              CLIMB_SHAPE1(1000), CLIMB_SHAPE1(4099),  CLIMB_SHAPE1(65536),
                                              CLIMB_SHAPE1(100003)};
static const climb_shape BG_QUICK_SHAPES[] = {CLIMB_SHAPE1(1000), CLIMB_SHAPE1(4099)};

static const char *const BG_GRAPHS[] = {"rmat", "grid2d", "rmat_directed", NULL};
static constexpr climb_option BG_OPTIONS[] = {
    {.name = "graph", .kind = CLIMB_OPT_CHOICE,
     .meaning = "generated graph: rmat (R-MAT with Graph500's parameters, undirected), grid2d (a 2-D grid, 4 "
                "neighbours: deep levels), rmat_directed (R-MAT's edges stored as drawn: bottom-up needs the in-edges)",
     .def = "rmat", .choices = BG_GRAPHS, .check_def = "all"},
    {.name = "edge_factor", .kind = CLIMB_OPT_INT, .meaning = "edges drawn a vertex (R-MAT: Graph500's 16)",
     .def = "16", .min = 1, .max = 64},
    {.name = "source", .kind = CLIMB_OPT_INT,
     .meaning = "the source vertex; -1: a vertex of the largest component, from the seed", .def = "-1", .min = -1,
     .max = 2147483646},
};
CLIMB_OPTION_AT(BG_OPTIONS, OPT_GRAPH, "graph");
CLIMB_OPTION_AT(BG_OPTIONS, OPT_EDGE_FACTOR, "edge_factor");
CLIMB_OPTION_AT(BG_OPTIONS, OPT_SOURCE, "source");

/* The host memory a case needs: R-MAT's drawn edges (both ways) and the CSR, the in-edges, the levels. */
static double bg_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    const double ef = opts ? (double)opts[OPT_EDGE_FACTOR].i : 16;
    return (double)s->d[0] * (ef * 2 * 8 * 2 + 32);
}

static const char *bg_refuses(const climb_case *c, int rung)
{
    (void)rung;
    return c->m > 0x7fffffffLL ? "more than 2^31 - 1 edges stored (the rows' offsets are 32-bit)" : NULL;
}

extern "C" const climb_workload climb_bfs_gpus_workload = {
    .name = "bfs_gpus",
    .title = "BFS across GPUs: a range of vertices a GPU, the frontier as bitmaps every GPU holds, top-down marks "
             "ORed by their owners, bottom-up levels where the frontier is large",
    .sources = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors, graph traversal (the one-GPU BFS); "
               "Beamer, Asanovic and Patterson, Direction-Optimizing Breadth-First Search; van Oosten, Introduction "
               "to CUDA 5.0: GPUDirect (transfers between GPUs without the host)",
    .dims = {"vertices"},
    .shape_format = "{vertices} vertices",
    .types = CLIMB_TYPE_BIT(CLIMB_I32),
    .min_devices = 1,
    .max_devices = CLIMB_MAX_DEVICES,
    .options = BG_OPTIONS,
    .n_options = CLIMB_COUNT(BG_OPTIONS),
    .bytes_counted = "the busiest GPU's edges read once (out- and in-edges for a directed graph) and its levels "
                     "written (one_gpu: the whole graph); over the links, the frontier's bitmap words a GPU receives, "
                     "each level of the search",
    .items_unit = "edges",
    .items_rate = "GTEPS",
    .bench_shapes = BG_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(BG_BENCH_SHAPES),
    .check_shapes = BG_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(BG_CHECK_SHAPES),
    .quick_shapes = BG_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(BG_QUICK_SHAPES),
    .main_shapes = BG_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(BG_MAIN_SHAPES),
    .check_max_offset = 0,
    .n_rungs = BG_N_RUNGS,
    .rung = bg_rung_info,
    .case_size = sizeof(climb_case),
    .buffers = BG_BUFFERS,
    .n_buffers = CLIMB_COUNT(BG_BUFFERS),
    .init = bg_init,
    .fill = bg_fill,
    .fini = bg_fini,
    .describe = bg_describe,
    .reference = bg_reference,
    .case_bytes = bg_case_bytes,
    .refuses = bg_refuses,
    .prepare = bg_prepare,
    .run = bg_run,
    .empty = bg_empty,
    .poison = bg_poison,
    .verify = bg_verify,
    .counts = bg_counts,
    .rung_counts = bg_rung_counts,
    .release = bg_release,
};
