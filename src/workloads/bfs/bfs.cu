/*
 * bfs.cu - breadth-first search levels from a source vertex, as a ladder.
 *
 * From Kirk and Hwu, Programming Massively Parallel Processors, chapter 12 (graph traversal; the UIUC ECE 508 lecture
 * on BFS follows it): vertex-centric BFS that checks every vertex at every level; frontiers in a global queue with
 * atomic enqueues; block-privatised queues in shared memory with an overflow to the global one (the hierarchical
 * queue); then load balance for power-law graphs by expanding large vertices with a warp or a whole block (Merrill,
 * Garland and Grimshaw, "Scalable GPU Graph Traversal", whose warp-wide gather of small adjacency lists is used too);
 * load balance over the whole grid (the frontier's edges cut into equal tiles, as merge-path and Gunrock's
 * load-balanced advance partition work); a visited bitmap in place of the level array behind every edge's check;
 * and Beamer, Asanović and Patterson's direction-optimising BFS ("Direction-Optimizing Breadth-First Search"), which
 * switches to bottom-up steps (every unvisited vertex looks for a parent in the frontier) while the frontier is
 * large. See docs/bfs.md.
 *
 * The ladder's rungs but the best are level-synchronous from the host: a launch a level and a read of the
 * frontier's size (a host part, timed by the wall clock). The last three are cooperative kernels with a grid-wide
 * barrier between levels: no host round trip a level, and capturable in a CUDA graph. direction_optimizing is one
 * kernel; block_levels runs its small levels by one block (measured slower on every graph); the best,
 * cluster_levels, runs them by a cluster of blocks and its heavy levels by direction_optimizing's kernel, launched
 * after it (bfs_phase in kernels.cuh).
 *
 * The folder: reference.cu the CPU reference and the choice of source, kernels.cuh the kernels (one group per rung),
 * this file the launchers, the registry and the harness glue.
 *
 * Bytes counted: the row pointers and column indices read once, and the level array read and written once (the
 * one-pass bound); items: the edges of the traversed part (Graph500's TEPS: undirected edges counted once).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/check.h"
#include "../../base/rng.h"
#include "../../core/workload.cuh"
#include "../../device/device.h"
#include "../../io/graph.h"
#include "../scan/scan.h"
#include "../sort/sort.h"
#include "../../io/mtx.h"
#include "../../io/text.h"
#include "kernels.cuh"

enum { OPT_GRAPH, OPT_EDGE_FACTOR, OPT_SOURCE, OPT_INPUT, OPT_TRANSPOSE };
enum { BFS_TRANSPOSE_ATOMIC, BFS_TRANSPOSE_SORTED };
/* The generated graphs, in the order of the graph option's choices (BFS_GRAPHS). */
enum { BFS_GRAPH_RMAT, BFS_GRAPH_GRID2D, BFS_GRAPH_RANDOM, BFS_GRAPH_RMAT_DIRECTED };
static int bfs_graph_directed(int graph) { return graph == BFS_GRAPH_RANDOM || graph == BFS_GRAPH_RMAT_DIRECTED; }

/* ---------------------------------------------------------------- launchers */

typedef struct bfs_args {
    int n;
    long long m;
    const int *rp, *ci, *in_rp, *in_ci;
    int source;
    int *level;
    int *qa, *qb, *qoa, *qob; /* n each */
    int *count;               /* 2: the first rungs' plain counters */
    unsigned long long *packed; /* 2: bfs_out's */
    unsigned *vis;            /* the visited bitmap: (n + 31) / 32 words */
    bfs_state *st;            /* the best rung's */
    unsigned *x;              /* the bound's XOR */
    unsigned long long *h_count; /* pinned: a counter read back */
    bfs_best_args best;       /* the best rung's arguments (its workspace holds the queues and bitmaps above) */
    int sms, levels;          /* levels: what the last host-driven run took */
    cudaStream_t s;
} bfs_args;

static unsigned bfs_grid(long long n) { return (unsigned)((n + BFS_BLOCK - 1) / BFS_BLOCK); }

/* The first queue and the levels; the counter of the kind the rung reads, and the bitmap where it has one. */
static cudaError_t bfs_init(const bfs_args *a, int packed, int bits)
{
    bfs_init_kernel<<<a->n ? (bfs_grid(a->n) < 4096 ? bfs_grid(a->n) : 4096) : 1, BFS_BLOCK, 0, a->s>>>(
        a->rp, a->level, a->n, a->source, a->qa, packed ? a->qoa : NULL, packed ? NULL : &a->count[0],
        packed ? &a->packed[0] : NULL, bits ? a->vis : NULL);
    return cudaGetLastError();
}

/* The host reads a counter back and waits for it. */
static cudaError_t bfs_read_back(const bfs_args *a, const void *d, size_t bytes, unsigned long long *out)
{
    *a->h_count = 0;
    cudaError_t e = cudaMemcpyAsync(a->h_count, d, bytes, cudaMemcpyDeviceToHost, a->s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(a->s);
    *out = *a->h_count;
    return e;
}

static cudaError_t launch_vertex(bfs_args *a)
{
    if (a->n == 0 || a->source < 0)
        return cudaSuccess;
    cudaError_t e = bfs_init(a, 0, 0);
    unsigned long long changed = 1;
    int cur = 0;
    for (; e == cudaSuccess && changed; cur++) {
        e = cudaMemsetAsync(&a->count[1], 0, sizeof(int), a->s);
        if (e != cudaSuccess)
            break;
        bfs_vertex_kernel<<<bfs_grid(a->n), BFS_BLOCK, 0, a->s>>>(a->rp, a->ci, a->level, a->n, cur, &a->count[1]);
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = bfs_read_back(a, &a->count[1], sizeof(int), &changed);
    }
    a->levels = cur;
    return e;
}

/* The frontier-queue rungs: a launch a level, the next frontier's size read back to size the next launch. */
typedef void (*bfs_level_fn)(const bfs_args *a, const int *qin, int nin, int *qout, int *nout, int next);

static void level_queue(const bfs_args *a, const int *qin, int nin, int *qout, int *nout, int next)
{
    bfs_queue_kernel<<<bfs_grid(nin), BFS_BLOCK, 0, a->s>>>(a->rp, a->ci, a->level, qin, nin, qout, nout, next);
}

static void level_block_queue(const bfs_args *a, const int *qin, int nin, int *qout, int *nout, int next)
{
    bfs_block_queue_kernel<<<bfs_grid(nin), BFS_BLOCK, 0, a->s>>>(a->rp, a->ci, a->level, qin, nin, qout, nout, next);
}

static cudaError_t run_queue_levels(bfs_args *a, bfs_level_fn level)
{
    if (a->n == 0 || a->source < 0)
        return cudaSuccess;
    cudaError_t e = bfs_init(a, 0, 0);
    unsigned long long nin = 1;
    int cur = 0;
    int *qin = a->qa, *qout = a->qb;
    for (; e == cudaSuccess && nin > 0; cur++) {
        e = cudaMemsetAsync(&a->count[1], 0, sizeof(int), a->s);
        if (e != cudaSuccess)
            break;
        level(a, qin, (int)nin, qout, &a->count[1], cur + 1);
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = bfs_read_back(a, &a->count[1], sizeof(int), &nin);
        int *t = qin;
        qin = qout;
        qout = t;
    }
    a->levels = cur;
    return e;
}

static cudaError_t launch_queue(bfs_args *a) { return run_queue_levels(a, level_queue); }
static cudaError_t launch_block_queue(bfs_args *a) { return run_queue_levels(a, level_block_queue); }

/* The rungs on bfs_out's queue (offsets, the packed counter): a launch a level, sized by the frontier's vertices
 * (warp_expand) or its edges (the edge-balanced ones). */
enum { BFS_BY_VERTEX, BFS_BY_EDGE, BFS_BY_EDGE_BITS };

static cudaError_t run_packed_levels(bfs_args *a, int how)
{
    if (a->n == 0 || a->source < 0)
        return cudaSuccess;
    cudaError_t e = bfs_init(a, 1, how == BFS_BY_EDGE_BITS);
    unsigned long long cnt = 0;
    if (e == cudaSuccess)
        e = bfs_read_back(a, &a->packed[0], sizeof cnt, &cnt);
    int cur = 0;
    int *qin = a->qa, *qout = a->qb, *qoin = a->qoa, *qoout = a->qob;
    for (; e == cudaSuccess && bfs_count_vertices(cnt) > 0; cur++) {
        unsigned long long *next = &a->packed[(cur + 1) & 1];
        e = cudaMemsetAsync(next, 0, sizeof *next, a->s);
        if (e != cudaSuccess)
            break;
        const int nin = bfs_count_vertices(cnt), E = bfs_count_edges(cnt);
        if (how == BFS_BY_VERTEX)
            bfs_expand_kernel<<<bfs_grid(nin), BFS_BLOCK, 0, a->s>>>(a->rp, a->ci, a->level, qin, qoin, nin, E, qout,
                                                                     qoout, next, cur + 1);
        else if (how == BFS_BY_EDGE)
            bfs_balanced_kernel<false><<<(unsigned)((E + BFS_TILE - 1) / BFS_TILE), BFS_BLOCK, 0, a->s>>>(
                a->rp, a->ci, a->level, NULL, qin, qoin, nin, E, qout, qoout, next, cur + 1);
        else
            bfs_balanced_kernel<true><<<(unsigned)((E + BFS_TILE - 1) / BFS_TILE), BFS_BLOCK, 0, a->s>>>(
                a->rp, a->ci, a->level, a->vis, qin, qoin, nin, E, qout, qoout, next, cur + 1);
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = bfs_read_back(a, next, sizeof cnt, &cnt);
        int *t = qin;
        qin = qout;
        qout = t;
        t = qoin;
        qoin = qoout;
        qoout = t;
    }
    a->levels = cur;
    return e;
}

static cudaError_t launch_expand(bfs_args *a) { return run_packed_levels(a, BFS_BY_VERTEX); }
static cudaError_t launch_balanced(bfs_args *a) { return run_packed_levels(a, BFS_BY_EDGE); }
static cudaError_t launch_bitmap(bfs_args *a) { return run_packed_levels(a, BFS_BY_EDGE_BITS); }

/* The cooperative launch: as many blocks as fit on the device at once (the grid barrier needs them all
 * resident). mode: BFS_GRID_LEVELS, every level over the grid (direction_optimizing);
 * BFS_BLOCK_LEVELS, the small levels by one block (bfs_small_levels; block_levels); BFS_CLUSTER_LEVELS, by a cluster
 * of BFS_CL blocks (bfs_cluster_levels; cluster_levels), the grid a whole number of clusters, told the L2's size
 * (the kernel prefetches a graph that fits in half of it). */
static cudaError_t best_launch(const bfs_best_args *b, int sms, cudaStream_t s, int mode)
{
    const void *fn = mode == BFS_CLUSTER_LEVELS ? (const void *)bfs_best_kernel<BFS_CLUSTER_LEVELS>
                     : mode == BFS_BLOCK_LEVELS ? (const void *)bfs_best_kernel<BFS_BLOCK_LEVELS>
                                                : (const void *)bfs_best_kernel<BFS_GRID_LEVELS>;
    int per_sm = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, BFS_BLOCK, 0);
    if (e != cudaSuccess)
        return e;
    if (per_sm < 1)
        return cudaErrorCooperativeLaunchTooLarge;
    if (per_sm > BFS_BEST_PER_SM)
        per_sm = BFS_BEST_PER_SM;
    long long blocks = (long long)per_sm * sms, need = b->n > 0 ? bfs_grid(b->n) : 1;
    cudaLaunchAttribute attr[2] = {};
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.blockDim = dim3(BFS_BLOCK);
    cfg.stream = s;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    bfs_best_args copy = *b;
    if (mode == BFS_CLUSTER_LEVELS) {
        attr[1].id = cudaLaunchAttributeClusterDimension;
        attr[1].val.clusterDim.x = BFS_CL;
        attr[1].val.clusterDim.y = attr[1].val.clusterDim.z = 1;
        cfg.numAttrs = 2;
        cfg.gridDim = dim3(BFS_CL);
        int clusters = 0;
        e = cudaOccupancyMaxActiveClusters(&clusters, fn, &cfg);
        if (e != cudaSuccess)
            return e;
        if (clusters < 1)
            return cudaErrorCooperativeLaunchTooLarge;
        if (blocks > (long long)clusters * BFS_CL)
            blocks = (long long)clusters * BFS_CL;
        blocks = blocks / BFS_CL * BFS_CL;
        need = (need + BFS_CL - 1) / BFS_CL * BFS_CL;
        int dev = 0;
        if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
            (e = cudaDeviceGetAttribute(&copy.l2_bytes, cudaDevAttrL2CacheSize, dev)) != cudaSuccess)
            return e;
    }
    if (blocks > need)
        blocks = need;
    cfg.gridDim = dim3((unsigned)blocks);
    void *args[] = {(void *)&copy};
    return cudaLaunchKernelExC(&cfg, fn, args);
}

/* The best rung's workspace: two queues and their offsets, the visited bitmap, three frontier bitmaps, the state,
 * the cluster's list of its queue's vertices. */
static size_t bfs_align(size_t x) { return (x + 255) / 256 * 256; }

static bfs_best_args bfs_best_layout(int32_t n, const int32_t *rp, const int32_t *ci, const int32_t *in_rp,
                                     const int32_t *in_ci, int32_t source, int32_t *level, void *ws)
{
    const size_t n1 = n > 0 ? (size_t)n : 1, q = bfs_align(n1 * sizeof(int)), words = (n1 + 31) / 32,
                 wb = bfs_align(words * sizeof(unsigned));
    char *w = (char *)ws;
    bfs_best_args b = {n, rp, ci, in_rp, in_ci, source, level, (int *)w, (int *)(w + q), (int *)(w + 2 * q),
                       (int *)(w + 3 * q), (unsigned *)(w + 4 * q), (unsigned *)(w + 4 * q + wb), (int)words,
                       (bfs_state *)(w + 4 * q + 4 * wb),
                       (int *)(w + 4 * q + 4 * wb + bfs_align(sizeof(bfs_state)))};
    return b;
}

extern "C" size_t climb_bfs_best_workspace(int32_t n)
{
    const size_t n1 = n > 0 ? (size_t)n : 1;
    return 5 * bfs_align(n1 * sizeof(int)) + 4 * bfs_align((n1 + 31) / 32 * sizeof(unsigned)) +
           bfs_align(sizeof(bfs_state));
}

static cudaError_t launch_cooperative(bfs_args *a, int mode)
{
    if (a->n == 0 || a->source < 0)
        return cudaSuccess;
    return best_launch(&a->best, a->sms, a->s, mode);
}
static cudaError_t launch_direction(bfs_args *a) { return launch_cooperative(a, BFS_GRID_LEVELS); }
static cudaError_t launch_block_levels(bfs_args *a) { return launch_cooperative(a, BFS_BLOCK_LEVELS); }
/* The best rung (cluster_levels) and the C API: on a GPU with thread-block clusters (sm_90 and later) three kernels
 * (bfs_phase): the cluster's, the grid's from the first heavy level, the cluster's again for a tail; a kernel whose
 * search has ended does nothing. Elsewhere the grid's kernel alone (direction_optimizing). */
static cudaError_t bfs_search(const bfs_best_args *b0, int sms, cudaStream_t s)
{
    int dev = 0, major = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (e != cudaSuccess)
        return e;
    if (major < 9)
        return best_launch(b0, sms, s, BFS_GRID_LEVELS);
    static const int mode[3] = {BFS_CLUSTER_LEVELS, BFS_GRID_LEVELS, BFS_CLUSTER_LEVELS},
                     phase[3] = {BFS_PHASE_FIRST, BFS_PHASE_MIDDLE, BFS_PHASE_LAST};
    bfs_best_args b = *b0;
    for (int k = 0; k < 3 && e == cudaSuccess; k++) {
        b.phase = phase[k];
        e = best_launch(&b, sms, s, mode[k]);
    }
    return e;
}

static cudaError_t launch_cluster_levels(bfs_args *a)
{
    if (a->n == 0 || a->source < 0)
        return cudaSuccess;
    return bfs_search(&a->best, a->sms, a->s);
}

static cudaError_t launch_bound(bfs_args *a)
{
    cudaError_t e = cudaMemsetAsync(a->x, 0, sizeof(unsigned), a->s);
    if (e != cudaSuccess || (a->n == 0 && a->m == 0))
        return e;
    long long blocks = (a->m / 4 > a->n ? a->m / 4 : a->n) / BFS_BLOCK + 1;
    if (blocks > 8L * a->sms)
        blocks = 8L * a->sms;
    bfs_bound_kernel<<<(unsigned)blocks, BFS_BLOCK, 0, a->s>>>(a->rp, (const int4 *)a->ci, a->ci, a->m, a->n,
                                                                a->level, a->x);
    return cudaGetLastError();
}

/* ---------------------------------------------------------------- the library face */

extern "C" cudaError_t climb_bfs_best(int32_t n, const int32_t *rp, const int32_t *ci, const int32_t *in_rp,
                                      const int32_t *in_ci, int32_t source, int32_t *level, void *ws, size_t ws_bytes,
                                      int sms, cudaStream_t s)
{
    if (n < 0 || source < 0 || source >= n || ws_bytes < climb_bfs_best_workspace(n) || (in_rp == NULL) != (in_ci == NULL))
        return cudaErrorInvalidValue;
    const bfs_best_args b = bfs_best_layout(n, rp, ci, in_rp, in_ci, source, level, ws);
    return bfs_search(&b, sms, s);
}

/* The in-edge view of a directed graph, built on the device (the transpose of (rp, ci), the inspector of
 * climb_bfs_plan_create and the best rung's set-up): each vertex's in-degree counted by atomics, their exclusive
 * scan (the project's single-pass scan) the in-row pointers, and each edge u -> v placed in v's in-row at a slot
 * taken by an atomic (the in-rows come out in no particular order: BFS does not care). A thread an edge finds its
 * source u by a binary search of the row pointers, so that a vertex of huge degree is spread over many threads. */
static const climb_scan_tuning BFS_TRANSPOSE_SCAN = {256, 16};

__global__ void bfs_in_degree_kernel(const int32_t *__restrict__ ci, long long m, int32_t *deg)
{
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += step)
        atomicAdd(&deg[ci[e]], 1);
}

/* The row that holds edge e among rows [lo, hi] known to hold it: the last u of [lo, hi] with rp[u] <= e. */
__device__ __forceinline__ int32_t bfs_row_in(const int32_t *__restrict__ rp, int32_t lo, int32_t hi, long long e)
{
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo + 1) / 2;
        if (rp[mid] <= e)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The row that holds edge e: the last u of [0, n) with rp[u] <= e. */
__device__ __forceinline__ int32_t bfs_row_of(const int32_t *__restrict__ rp, int32_t n, long long e)
{
    return bfs_row_in(rp, 0, n - 1, e);
}

__global__ void bfs_in_scatter_kernel(const int32_t *__restrict__ rp, const int32_t *__restrict__ ci, int32_t n,
                                      long long m, const int32_t *__restrict__ in_rp, int32_t *cursor,
                                      int32_t *__restrict__ in_ci)
{
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += step) {
        const int32_t v = ci[e];
        in_ci[in_rp[v] + atomicAdd(&cursor[v], 1)] = bfs_row_of(rp, n, e);
    }
}

/* The sorted transpose's kernels: each edge's source (rows[e] = the row of edge e), and, over the destinations
 * sorted, each vertex's first in-edge (in_rp[w] = the first e with dst[e] >= w, for w in [0, n]).
 * A warp takes BFS_ROWS_CHUNK consecutive edges: two lanes find the rows of its first and last edge by a search of
 * all the row pointers, and each edge's row is then searched between those two only (where degrees are ordinary,
 * a few rows, whose pointers the warp reads through L1), instead of 22 dependent reads an edge at 2^22 vertices. */
#define BFS_ROWS_CHUNK 256
__global__ void bfs_edge_rows_kernel(const int32_t *__restrict__ rp, int32_t n, long long m, uint32_t *rows)
{
    const int lane = threadIdx.x & 31;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    for (long long base = (((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5) * BFS_ROWS_CHUNK; base < m;
         base += warps * BFS_ROWS_CHUNK) {
        const long long last = (base + BFS_ROWS_CHUNK < m ? base + BFS_ROWS_CHUNK : m) - 1;
        int32_t r = lane == 0 ? bfs_row_of(rp, n, base) : lane == 1 ? bfs_row_of(rp, n, last) : 0;
        const int32_t first_row = __shfl_sync(0xffffffffu, r, 0), last_row = __shfl_sync(0xffffffffu, r, 1);
        for (long long e = base + lane; e <= last; e += 32)
            rows[e] = (uint32_t)bfs_row_in(rp, first_row, last_row, e);
    }
}

__global__ void bfs_in_starts_kernel(const uint32_t *__restrict__ dst, long long m, int32_t n, int32_t *in_rp)
{
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long w = (long long)blockIdx.x * blockDim.x + threadIdx.x; w <= n; w += step) {
        long long lo = 0, hi = m; /* the first e in [0, m] with dst[e] >= w (m where none) */
        while (lo < hi) {
            const long long mid = lo + (hi - lo) / 2;
            if ((long long)dst[mid] < w)
                lo = mid + 1;
            else
                hi = mid;
        }
        in_rp[w] = (int32_t)lo;
    }
}

extern "C" size_t climb_bfs_transpose_workspace(int32_t n)
{
    const size_t counts = bfs_align(((size_t)n + 1) * 4);
    return 2 * counts + climb_scan_best_workspace(&BFS_TRANSPOSE_SCAN, (size_t)n + 1);
}

extern "C" cudaError_t climb_bfs_transpose(int32_t n, int32_t m, const int32_t *rp, const int32_t *ci, int32_t *in_rp,
                                           int32_t *in_ci, void *ws, size_t ws_bytes, int sms, cudaStream_t s)
{
    if (n < 0 || m < 0 || ws_bytes < climb_bfs_transpose_workspace(n))
        return cudaErrorInvalidValue;
    if (n == 0)
        return cudaSuccess;
    const size_t counts = bfs_align(((size_t)n + 1) * 4);
    int32_t *deg = (int32_t *)ws, *cursor = (int32_t *)((char *)ws + counts);
    void *scan_ws = (char *)ws + 2 * counts;
    /* the degrees and cursors from zero, and the scan's workspace zeroed as it asks (it is reused from call to call
     * only within one plan) */
    cudaError_t e = cudaMemsetAsync(ws, 0, climb_bfs_transpose_workspace(n), s);
    const long long blocks_max = 8LL * (sms > 0 ? sms : 1);
    const long long blocks = m == 0 ? 1 : ((long long)m + 255) / 256 < blocks_max ? ((long long)m + 255) / 256 : blocks_max;
    if (e == cudaSuccess && m > 0) {
        bfs_in_degree_kernel<<<(unsigned)blocks, 256, 0, s>>>(ci, m, deg);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) /* deg[n] = 0: in_rp[n] = m */
        e = climb_scan_best(&BFS_TRANSPOSE_SCAN, CLIMB_I32, 1, deg, in_rp, (size_t)n + 1, scan_ws,
                            ws_bytes - 2 * counts, s);
    if (e == cudaSuccess && m > 0) {
        bfs_in_scatter_kernel<<<(unsigned)blocks, 256, 0, s>>>(rp, ci, n, m, in_rp, cursor, in_ci);
        e = cudaGetLastError();
    }
    return e;
}


/* The sorted transpose's workspace: each edge's source (the values sorted), the sorted destinations, and the sort's
 * own (a second copy of keys and values, its counts). The keys sorted are the caller's columns as they stand: the
 * sort reads its input without writing it, and with the input apart from the output its passes alternate so that
 * the last lands in the output (no copy of the columns before, none of the result after). */
extern "C" size_t climb_bfs_transpose_sorted_workspace(int32_t m)
{
    return m <= 0 ? 0 : 2 * bfs_align((size_t)m * 4) + climb_sort_radix_workspace(CLIMB_U32, (size_t)m, 1);
}

extern "C" cudaError_t climb_bfs_transpose_sorted(int32_t n, int32_t m, const int32_t *rp, const int32_t *ci,
                                                  int32_t *in_rp, int32_t *in_ci, void *ws, size_t ws_bytes, int sms,
                                                  cudaStream_t s)
{
    if (n < 0 || m < 0 || ws_bytes < climb_bfs_transpose_sorted_workspace(m))
        return cudaErrorInvalidValue;
    if (n == 0)
        return cudaSuccess;
    if (m == 0) /* every in-row empty */
        return cudaMemsetAsync(in_rp, 0, ((size_t)n + 1) * 4, s);
    const size_t words = bfs_align((size_t)m * 4);
    uint32_t *src = (uint32_t *)ws, *dst = (uint32_t *)((char *)ws + words);
    void *sort_ws = (char *)ws + 2 * words;
    const long long blocks_max = 8LL * (sms > 0 ? sms : 1);
    const long long chunks = ((long long)m + BFS_ROWS_CHUNK - 1) / BFS_ROWS_CHUNK; /* a warp each */
    const long long eb = (chunks + 7) / 8 < blocks_max ? (chunks + 7) / 8 : blocks_max;
    const long long vb = ((long long)n + 256) / 256 < blocks_max ? ((long long)n + 256) / 256 : blocks_max;
    bfs_edge_rows_kernel<<<(unsigned)eb, 256, 0, s>>>(rp, n, m, src);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) /* stable: each in-row comes out in the order of its sources */
        e = climb_sort_radix(CLIMB_U32, ci, src, dst, (uint32_t *)in_ci, (size_t)m, sort_ws, ws_bytes - 2 * words, s);
    if (e == cudaSuccess) {
        bfs_in_starts_kernel<<<(unsigned)vb, 256, 0, s>>>(dst, m, n, in_rp);
        e = cudaGetLastError();
    }
    return e;
}

/* ---------------------------------------------------------------- the registry */

typedef cudaError_t (*bfs_launch_fn)(bfs_args *a);

#define BFS_KERNELS_FN(fname, kernel, kname)                                                                       \
    static int fname(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)         \
    {                                                                                                            \
        const int n = climb_kernel_at(o, max, 0, (const void *)bfs_init_kernel, BFS_BLOCK, 0, "bfs_init_kernel"); \
        return climb_kernel_at(o, max, n, (const void *)kernel, BFS_BLOCK, 0, "%s", kname);                      \
    }
BFS_KERNELS_FN(k_vertex, bfs_vertex_kernel, "bfs_vertex_kernel")
BFS_KERNELS_FN(k_queue, bfs_queue_kernel, "bfs_queue_kernel")
BFS_KERNELS_FN(k_block_queue, bfs_block_queue_kernel, "bfs_block_queue_kernel")
BFS_KERNELS_FN(k_expand, bfs_expand_kernel, "bfs_expand_kernel")
BFS_KERNELS_FN(k_balanced, bfs_balanced_kernel<false>, "bfs_balanced_kernel<false>")
BFS_KERNELS_FN(k_bitmap, bfs_balanced_kernel<true>, "bfs_balanced_kernel<true>")
static int k_direction(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)bfs_best_kernel<BFS_GRID_LEVELS>, "bfs_best_kernel<grid levels>",
                            BFS_BLOCK, 0);
}
static int k_block_levels(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)bfs_best_kernel<BFS_BLOCK_LEVELS>,
                            "bfs_best_kernel<small levels by a block>", BFS_BLOCK, 0);
}
static int k_cluster_levels(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    const int n = climb_kernel_at(o, max, 0, (const void *)bfs_best_kernel<BFS_CLUSTER_LEVELS>, BFS_BLOCK, 0,
                                  "bfs_best_kernel<small levels by a cluster>");
    return climb_kernel_at(o, max, n, (const void *)bfs_best_kernel<BFS_GRID_LEVELS>, BFS_BLOCK, 0,
                           "bfs_best_kernel<grid levels>");
}

/* The rows' launches take the launchers' arguments, not the case: the run hook makes those and calls them. */
typedef struct bfs_rung {
    climb_rung_info info;
    bfs_launch_fn launch;
    int bottom_up;            /* 1: it takes bottom-up steps over the in-edges (prepare builds a directed graph's
                                 transpose) and keeps its own state on the device (the note reads it) */
    int cluster;              /* 1: a thread-block cluster (sm_90 and later) */
} bfs_rung;

static const bfs_rung BFS_RUNGS[] = {
    {.info = {.name = "one_pass_read", .idea = "bound: the row pointers and every column index read once (16-byte "
                                               "loads), a value a vertex written: what one pass over the graph costs",
              .needs = "", .kind = CLIMB_RUNG_BOUND, .kernels = NULL},
     .launch = launch_bound},
    {.info = {.name = "vertex_top_down", .idea = "a thread per vertex each level: the level's vertices expand, every "
                                                 "other thread checks and idles",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_vertex, .host_part = 1},
     .launch = launch_vertex},
    {.info = {.name = "frontier_queue", .idea = "the frontier as a queue in global memory: a thread per frontier "
                                                "vertex, neighbours claimed and enqueued by atomics",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_queue, .host_part = 1},
     .launch = launch_queue},
    {.info = {.name = "block_queue", .idea = "each block's discoveries queued in shared memory (overflow to the global "
                                             "queue), one atomic a block; a read before each atomic",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_block_queue, .host_part = 1},
     .launch = launch_block_queue},
    {.info = {.name = "warp_expand", .idea = "load balance: the largest lists gathered block-wide, large ones by "
                                             "their warp, small ones by a warp-wide gather; one atomic a warp to "
                                             "enqueue",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_expand, .host_part = 1},
     .launch = launch_expand},
    {.info = {.name = "edge_balanced", .idea = "load balance over the grid: the frontier's edges cut into equal tiles "
                                               "(the queue carries each list's offset), a tile's owners found by a "
                                               "search; loads overlapped, 4 edges a thread",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_balanced, .host_part = 1},
     .launch = launch_balanced},
    {.info = {.name = "visited_bitmap", .idea = "a bit a vertex for 'visited', read through L1 before the atomicOr "
                                                "that claims: 32 times fewer bytes behind every edge's check",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_bitmap, .host_part = 1},
     .launch = launch_bitmap},
    {.info = {.name = "direction_optimizing", .idea = "one cooperative kernel, a grid barrier a level (no host round "
                                                      "trip); bottom-up steps while the frontier is large, over "
                                                      "a bitmap of the frontier",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_direction},
     .launch = launch_direction, .bottom_up = 1},
    {.info = {.name = "block_levels", .idea = "the same kernel, the small top-down levels run by one block with no "
                                              "grid barrier between them (the grid waits at one): a deep graph's "
                                              "thousands of small levels pay a block's sync, not the grid's (slower "
                                              "than direction_optimizing on every graph measured: a ladder rung)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_block_levels},
     .launch = launch_block_levels, .bottom_up = 1},
    {.info = {.name = "cluster_levels", .idea = "the small top-down levels run by a cluster of 8 blocks (sm_90): a "
                                                "hardware cluster barrier between them, the frontier in each block's "
                                                "shared memory (written remotely), the claim and the new vertex's "
                                                "row read together; a graph that fits prefetched into L2, else each "
                                                "new list a level ahead; the heavy levels (bottom-up, or more edges "
                                                "than vertices) by direction_optimizing's kernel, launched after it "
                                                "(before sm_90, with no clusters: that kernel alone)",
              .needs = "", .kind = CLIMB_RUNG_BEST,
              .kernels = k_cluster_levels},
     .launch = launch_cluster_levels, .bottom_up = 1, .cluster = 1},
};
#define BFS_N_RUNGS CLIMB_COUNT(BFS_RUNGS)
static const climb_rung_info *bfs_rung_info(int i) { return &BFS_RUNGS[i].info; }

/* ---------------------------------------------------------------- options */

static const char *const BFS_GRAPHS[] = {"rmat", "grid2d", "random", "rmat_directed", NULL};
static const char *const BFS_TRANSPOSES[] = {"atomic", "sorted", NULL};
static constexpr climb_option BFS_OPTIONS[] = {
    {.name = "graph", .kind = CLIMB_OPT_CHOICE,
     .meaning = "generated graph: rmat (R-MAT / Kronecker with Graph500's parameters, undirected), grid2d (a 2-D grid, "
                "4 neighbours: depth about 2 sqrt(n)), random (edge_factor uniform out-edges a vertex, directed), "
                "rmat_directed (R-MAT's edges stored one way, as drawn: the undirected rmat graph of the same seed is "
                "its symmetrization; both search from the same source, and the option shares the seed: in one run the "
                "two are a pair)",
     .def = "all", .choices = BFS_GRAPHS, .generator = 1, .same_seed = 1},
    {.name = "edge_factor", .kind = CLIMB_OPT_INT,
     .meaning = "edges drawn a vertex (rmat, rmat_directed: Graph500's 16; random: out-edges a vertex)", .def = "16", .min = 1,
     .max = 1024, .generator = 1},
    {.name = "source", .kind = CLIMB_OPT_INT,
     .meaning = "the source vertex; -1: a vertex with out-edges of the largest connected component, chosen from the "
                "seed (R-MAT's: from the edges as drawn, one source for rmat and rmat_directed)",
     .def = "-1", .min = -1, .max = 2147483646},
    {.name = "input", .kind = CLIMB_OPT_FILE,
     .meaning = "a graph file: Matrix Market (pattern or valued, symmetric or general: rows are out-edges), a SNAP edge "
                "list ('# ' comments, 'u v' a line) or DIMACS shortest paths ('p sp N M', 'a u v w')",
     .def = ""},
    {.name = "transpose", .kind = CLIMB_OPT_CHOICE,
     .meaning = "how a directed graph's in-edges are built for the bottom-up steps (the set-up columns: the plan's "
                "cost): sorted (each edge's (target, source) pair sorted stably by target with the radix sort, in about "
                "16 bytes an edge of its own memory: climb_bfs_plan_create's) or atomic (in-degrees, their scan, each "
                "edge placed by an atomic: the plan's way where that memory is short); the same graph either way",
     .def = "sorted", .choices = BFS_TRANSPOSES, .same_seed = 1},
};
CLIMB_OPTION_AT(BFS_OPTIONS, OPT_GRAPH, "graph");
CLIMB_OPTION_AT(BFS_OPTIONS, OPT_EDGE_FACTOR, "edge_factor");
CLIMB_OPTION_AT(BFS_OPTIONS, OPT_SOURCE, "source");
CLIMB_OPTION_AT(BFS_OPTIONS, OPT_INPUT, "input");
CLIMB_OPTION_AT(BFS_OPTIONS, OPT_TRANSPOSE, "transpose");

/* ---------------------------------------------------------------- the input file */

typedef struct bfs_file {
    climb_csr g;
    int directed;
} bfs_file;

static int bfs_load(const char *path, void **data, climb_shape *shape, char *desc, size_t desclen, char *err,
                    size_t errlen)
{
    *data = NULL;
    bfs_file *f = (bfs_file *)calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "%s: out of host memory", path);
        return -1;
    }
    FILE *in = fopen(path, "rb");
    if (!in) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        free(f);
        return -1;
    }
    char head[16] = "";
    const size_t got = fread(head, 1, sizeof head - 1, in);
    fclose(in);
    head[got] = '\0';
    const char *kind;
    if (strncmp(head, "%%MatrixMarket", 14) == 0) {
        climb_mtx_info info;
        if (climb_mtx_read(path, &f->g, &info, err, errlen) != 0) {
            free(f);
            return -1;
        }
        if (f->g.rows != f->g.cols) {
            snprintf(err, errlen, "%s: a %d x %d matrix: a graph's adjacency is square", path, f->g.rows, f->g.cols);
            climb_csr_free(&f->g);
            free(f);
            return -1;
        }
        f->directed = info.symmetry == 0;
        kind = f->directed ? "Matrix Market, general: directed" : "Matrix Market, symmetric: undirected";
    } else {
        climb_graph_info info;
        if (climb_graph_read(path, 0, &f->g, &info, err, errlen) != 0) {
            free(f);
            return -1;
        }
        if (!info.directed && info.format == CLIMB_GRAPH_SNAP) { /* an undirected edge list: each edge both ways */
            climb_csr_free(&f->g);
            if (climb_graph_read(path, 1, &f->g, &info, err, errlen) != 0) {
                free(f);
                return -1;
            }
        }
        f->directed = info.directed;
        kind = info.format == CLIMB_GRAPH_DIMACS ? "DIMACS, directed arcs"
               : info.directed                   ? "SNAP edge list, directed"
                                                 : "SNAP edge list, undirected";
    }
    *shape = CLIMB_SHAPE1((size_t)f->g.rows);
    snprintf(desc, desclen, "%s: %d vertices, %d edges stored (%s)", climb_base_name(path), f->g.rows, f->g.nnz, kind);
    *data = f;
    return 0;
}

static void bfs_unload(void *data)
{
    bfs_file *f = (bfs_file *)data;
    if (f)
        climb_csr_free(&f->g);
    free(f);
}

/* ---------------------------------------------------------------- harness glue */

struct climb_case {
    climb_case_params p;
    climb_csr own;            /* a generated graph (the file's is the option's) */
    const climb_csr *g;
    int graph, symmetric, directed_file;
    int32_t n, source, depth, reached;
    long long m;
    double traversed;         /* the items: edges of the traversed part */
    int32_t *ref, *frontier;  /* the CPU's levels, and its queue (the vertices in the order reached) */
    int32_t *h_level, *d_level;  /* the levels (the bound: the degrees), and verify's download */
    int *d_rp, *d_ci, *d_in_rp, *d_in_ci, *d_count;
    unsigned long long *d_packed;
    void *d_ws; /* the best rung's workspace: the queues, their offsets and the bitmaps of every rung */
    unsigned *h_x, *d_x, ref_x;  /* the bound's XOR of the column indices */
    unsigned long long *h_count;
    int sms, last_levels;
    double in_bytes;
    char desc[400], note[700];
};

static int is_bound(int rung) { return BFS_RUNGS[rung].info.kind == CLIMB_RUNG_BOUND; }

static void bfs_free_in_edges(climb_case *c)
{
    if (c->d_in_rp && c->d_in_rp != c->d_rp)
        cudaFree(c->d_in_rp);
    if (c->d_in_ci && c->d_in_ci != c->d_ci)
        cudaFree(c->d_in_ci);
    c->d_in_rp = c->d_in_ci = NULL;
    c->in_bytes = 0;
}

static void bfs_fini(climb_case *c)
{
    bfs_free_in_edges(c);
    climb_csr_free(&c->own);
    cudaFreeHost(c->h_count);
}

static const char *const BFS_GRAPH_NAMES[] = {"R-MAT (Graph500's A, B, C, D = 0.57, 0.19, 0.19, 0.05; undirected)",
                                              "2-D grid, 4 neighbours", "uniform random out-edges (directed)",
                                              "R-MAT (Graph500's A, B, C, D = 0.57, 0.19, 0.19, 0.05; directed: each "
                                              "edge as drawn)"};
static_assert(CLIMB_COUNT(BFS_GRAPH_NAMES) == CLIMB_COUNT(BFS_GRAPHS) - 1, "a description a generated graph");

/* The graph (a file's, or generated), its source and whether it is symmetric: what the buffers' sizes need. */
static int bfs_init(climb_case *c)
{
    const climb_case_params *p = &c->p;
    c->sms = p->dev ? p->dev->sms : 1;
    c->graph = p->opts[OPT_GRAPH].choice;
    const bfs_file *f = (const bfs_file *)p->opts[OPT_INPUT].data;
    char err[400];
    static const int KIND[] = {CLIMB_GEN_RMAT, CLIMB_GEN_GRID2D, CLIMB_GEN_RANDOM, CLIMB_GEN_RMAT};
    const climb_sparse_gen sg = {KIND[c->graph], (int64_t)p->shape.d[0], (int64_t)p->shape.d[0], 0,
                                 (int)p->opts[OPT_EDGE_FACTOR].i, 0, p->seed, c->graph == BFS_GRAPH_RMAT_DIRECTED};
    if (f) {
        c->g = &f->g;
        c->directed_file = f->directed;
    } else {
        const size_t nv = p->shape.d[0];
        if (nv > 0x7fffffffu) {
            fprintf(stderr, "climb: bfs: more than 2^31 - 1 vertices\n");
            return -1;
        }
        if (nv > 0 && climb_sparse_generate(&sg, &c->own, NULL, err, sizeof err) != 0) {
            fprintf(stderr, "climb: bfs: %s\n", err);
            return -1;
        }
        if (nv == 0) { /* an empty graph: no vertex, no edge */
            c->own.row_ptr = (int32_t *)calloc(1, sizeof(int32_t));
            if (!c->own.row_ptr)
                return climb_host_oom("the graph");
        }
        c->g = &c->own;
    }
    const climb_csr *g = c->g;
    c->n = g->rows;
    c->m = g->row_ptr[c->n];
    c->symmetric = f ? !f->directed || climb_bfs_is_symmetric(c->n, g->row_ptr, g->col_idx)
                     : !bfs_graph_directed(c->graph) || climb_bfs_is_symmetric(c->n, g->row_ptr, g->col_idx);
    const int64_t want = p->opts[OPT_SOURCE].i;
    if (want >= c->n) {
        fprintf(stderr, "climb: bfs: source %lld is not a vertex: the graph has %d\n", (long long)want, c->n);
        return -1;
    }
    if (want >= 0)
        c->source = (int32_t)want;
    else if (!f && c->n > 0 && c->graph == BFS_GRAPH_RMAT) {
        /* from its edges as drawn: the source rmat_directed of the same seed takes from itself (the graph option
         * shares the seed), so that the two searches are a pair */
        c->source = climb_bfs_drawn_source(&sg, err, sizeof err);
        if (c->source < 0) {
            fprintf(stderr, "climb: bfs: %s\n", err);
            return -1;
        }
    } else {
        c->source = climb_bfs_default_source(c->n, g->row_ptr, g->col_idx, p->seed);
    }
    return 0;
}

/* The reference (the CPU's BFS), the description, and the graph's device copy. */
static int bfs_fill(climb_case *c)
{
    const climb_csr *g = c->g;
    const bfs_file *f = (const bfs_file *)c->p.opts[OPT_INPUT].data;
    c->reached = climb_bfs_ref(c->n, g->row_ptr, g->col_idx, c->source, c->ref, c->frontier, &c->depth);
    double edges = 0;
    for (int32_t v = 0; v < c->n; v++)
        if (c->ref[v] >= 0)
            edges += g->row_ptr[v + 1] - g->row_ptr[v];
    c->traversed = c->symmetric ? edges / 2 : edges;
    c->ref_x = 0;
    for (long long e = 0; e < c->m; e++)
        c->ref_x ^= (unsigned)g->col_idx[e];
    /* the description: the graph, and what the BFS from this source finds (depth, frontier sizes) */
    int used = snprintf(c->desc, sizeof c->desc, "%s: %d vertices, %lld edges stored (%s); source %d reaches %d in %d "
                        "levels; frontier sizes",
                        f ? "the named file" : BFS_GRAPH_NAMES[c->graph], c->n, c->m,
                        c->symmetric ? "symmetric" : "directed", c->source, c->reached, c->depth);
    {
        int32_t lvl = 0, start = 0;
        for (int32_t i = 0; i <= c->reached && used < (int)sizeof c->desc - 40; i++) {
            if (i == c->reached || c->ref[c->frontier[i]] != lvl) {
                if (lvl < 12 || lvl == c->depth - 1)
                    used += snprintf(c->desc + used, sizeof c->desc - used, "%s %d", lvl == 12 ? " ..." : "", i - start);
                else if (lvl == 12)
                    used += snprintf(c->desc + used, sizeof c->desc - used, " ...");
                if (i == c->reached)
                    break;
                lvl++;
                start = i;
            }
        }
    }
    /* the device copies, and the pinned word a host-driven rung reads each level's count into */
    const size_t n1 = c->n ? (size_t)c->n : 1;
    if (CLIMB_FAILED(cudaMemcpy(c->d_rp, g->row_ptr, (n1 + 1) * 4, cudaMemcpyHostToDevice)) ||
        (c->m && CLIMB_FAILED(cudaMemcpy(c->d_ci, g->col_idx, (size_t)c->m * 4, cudaMemcpyHostToDevice))) ||
        CLIMB_FAILED(cudaMallocHost((void **)&c->h_count, 8)))
        return -1;
    return 0;
}

static size_t n_words(const climb_case *c) { return (c->n ? (size_t)c->n : 1) * 4; }
static size_t rp_bytes(const climb_case *c) { return ((size_t)c->n + 1) * 4; }
static size_t ci_bytes(const climb_case *c) { return (c->m ? (size_t)c->m : 1) * 4; }
static size_t ws_bytes(const climb_case *c) { return climb_bfs_best_workspace(c->n); }
static size_t one_word(const climb_case *c) { return (void)c, 4; }
static size_t two_words(const climb_case *c) { return (void)c, 8; }
static size_t two_counters(const climb_case *c) { return (void)c, 16; }

/* The outputs' poison, 0x7f7f7f7f: a level no graph of fewer than 2^31 vertices has, and no XOR of its indices
 * but by chance (the bound's check reads both). */
static const climb_buffer BFS_BUFFERS[] = {
    {.name = "row pointers", .flags = CLIMB_BUF_DEVICE, .bytes = rp_bytes, .device_at = offsetof(climb_case, d_rp)},
    {.name = "column indices", .flags = CLIMB_BUF_DEVICE, .bytes = ci_bytes, .device_at = offsetof(climb_case, d_ci)},
    {.name = "levels", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT, .bytes = n_words,
     .host_at = offsetof(climb_case, h_level), .device_at = offsetof(climb_case, d_level), .poison = 0x7f},
    {.name = "XOR", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT, .bytes = one_word,
     .host_at = offsetof(climb_case, h_x), .device_at = offsetof(climb_case, d_x), .poison = 0x7f},
    {.name = "counters", .flags = CLIMB_BUF_DEVICE, .bytes = two_words, .device_at = offsetof(climb_case, d_count)},
    {.name = "packed counters", .flags = CLIMB_BUF_DEVICE, .bytes = two_counters,
     .device_at = offsetof(climb_case, d_packed)},
    {.name = "queues and bitmaps", .flags = CLIMB_BUF_DEVICE, .bytes = ws_bytes, .device_at = offsetof(climb_case, d_ws)},
    {.name = "CPU levels", .flags = CLIMB_BUF_HOST, .bytes = n_words, .host_at = offsetof(climb_case, ref)},
    {.name = "CPU queue", .flags = CLIMB_BUF_HOST, .bytes = rp_bytes, .host_at = offsetof(climb_case, frontier)},
};

static const char *bfs_describe(const climb_case *c) { return c->desc; }

static int bfs_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode;
    snprintf(desc, desclen, "CPU BFS (a queue), every vertex's level, exact");
    return 0;
}

/* The best rung's bottom-up steps need the in-edges: a directed graph's transpose, built here on the device as
 * climb_bfs_plan_create builds it (climb_bfs_transpose_sorted), or by atomics where the `transpose` option says so
 * (untimed, reported as set-up: the plan's cost); a symmetric graph's are its out-edges. */
static int bfs_prepare(climb_case *c, int rung)
{
    if (!BFS_RUNGS[rung].bottom_up || c->d_in_rp)
        return 0;
    if (c->symmetric) {
        c->d_in_rp = c->d_rp;
        c->d_in_ci = c->d_ci;
        return 0;
    }
    void *ws = NULL, *at;
    const int sorted = c->p.opts[OPT_TRANSPOSE].choice == BFS_TRANSPOSE_SORTED;
    const size_t ws_bytes = sorted ? climb_bfs_transpose_sorted_workspace((int32_t)c->m) : climb_bfs_transpose_workspace(c->n);
    if (climb_device_alloc_offset(((size_t)c->n + 1) * 4, 0, &at, (void **)&c->d_in_rp, "the in-edges' row pointers") ||
        climb_device_alloc_offset((size_t)c->m * 4, 0, &at, (void **)&c->d_in_ci, "the in-edges' columns") ||
        climb_device_alloc_offset(ws_bytes, 0, &at, &ws, "the transpose's workspace"))
        goto fail;
    if (CLIMB_FAILED(sorted ? climb_bfs_transpose_sorted(c->n, (int32_t)c->m, c->d_rp, c->d_ci, c->d_in_rp,
                                                         c->d_in_ci, ws, ws_bytes, c->sms, 0)
                            : climb_bfs_transpose(c->n, (int32_t)c->m, c->d_rp, c->d_ci, c->d_in_rp, c->d_in_ci, ws,
                                                  ws_bytes, c->sms, 0)) ||
        CLIMB_FAILED(cudaStreamSynchronize(0)))
        goto fail;
    cudaFree(ws);
    c->in_bytes = ((double)c->n + 1 + (double)c->m) * 4;
    return 0;
fail:
    cudaFree(ws);
    return -1;
}

static int bfs_setup(const climb_case *c, int rung, climb_setup *out)
{
    if (!BFS_RUNGS[rung].bottom_up || c->symmetric)
        return 0;
    out->bytes = c->in_bytes;
    out->ms = 0;
    return 1;
}

static void bfs_release(climb_case *c, int rung)
{
    if (BFS_RUNGS[rung].bottom_up)
        bfs_free_in_edges(c);
}

static bfs_args bfs_case_args(climb_case *c, cudaStream_t s)
{
    bfs_args a;
    memset(&a, 0, sizeof a);
    a.n = c->n;
    a.m = c->m;
    a.rp = c->d_rp;
    a.ci = c->d_ci;
    a.in_rp = c->d_in_rp;
    a.in_ci = c->d_in_ci;
    a.source = c->source;
    a.level = c->d_level;
    a.best = bfs_best_layout(c->n, c->d_rp, c->d_ci, c->d_in_rp, c->d_in_ci, c->source, c->d_level, c->d_ws);
    a.qa = a.best.qa;
    a.qb = a.best.qb;
    a.qoa = a.best.qoa;
    a.qob = a.best.qob;
    a.vis = a.best.vis;
    a.count = c->d_count;
    a.packed = c->d_packed;
    a.st = a.best.st;
    a.x = c->d_x;
    a.h_count = c->h_count;
    a.sms = c->sms;
    a.s = s;
    return a;
}

static int bfs_run(climb_case *c, int rung, cudaStream_t s)
{
    bfs_args a = bfs_case_args(c, s);
    CLIMB_CHECK(BFS_RUNGS[rung].launch(&a));
    c->last_levels = a.levels;
    return 0;
}

/* Every vertex's level (the bound: its degree); the bound's XOR too. */
static int bfs_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    const climb_csr *g = c->g;
    const int bound = is_bound(rung);
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    for (int32_t v = 0; v < c->n; v++)
        climb_compare_exact(&k, c->h_level[v], bound ? g->row_ptr[v + 1] - g->row_ptr[v] : c->ref[v],
                            "%s of vertex %d", bound ? "degree" : "level", v);
    if (bound && c->n > 0)
        climb_compare_check(&k, *c->h_x == c->ref_x, "the column indices' XOR is %08x, expected %08x", *c->h_x,
                            c->ref_x);
    return climb_compare_end(&k);
}

static void bfs_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->bytes_read = ((double)c->n + 1) * 4 + (double)c->m * 4 + (double)c->n * 4;
    out->bytes_written = (double)c->n * 4;
    out->items = c->traversed;
}

/* The best rung's levels taken bottom-up; the host-driven rungs' launches. */
static const char *bfs_rung_note(climb_case *c, int rung)
{
    if (BFS_RUNGS[rung].bottom_up && c->n > 0) {
        bfs_state st;
        const bfs_best_args b = bfs_best_layout(c->n, c->d_rp, c->d_ci, c->d_in_rp, c->d_in_ci, c->source, c->d_level,
                                                c->d_ws);
        if (cudaMemcpy(&st, b.st, sizeof st, cudaMemcpyDeviceToHost) != cudaSuccess) {
            cudaGetLastError();
            return NULL;
        }
        int used = snprintf(c->note, sizeof c->note, "%d levels expanded, %d of them bottom-up, %d by one %s",
                            st.depth, st.bottom_up_levels, st.block_levels, BFS_RUNGS[rung].cluster ? "cluster" : "block");
        if (st.bottom_up_mask) {
            used += snprintf(c->note + used, sizeof c->note - used, " (levels");
            for (int l = 0; l < 64 && used < (int)sizeof c->note - 8; l++)
                if (st.bottom_up_mask >> l & 1)
                    used += snprintf(c->note + used, sizeof c->note - used, " %d", l);
            used += snprintf(c->note + used, sizeof c->note - used, ")");
        }
        /* each level's time in the last run, from the kernel's own clock (the global timer, read at the barriers) */
        const int timed = st.depth < BFS_TIMED ? st.depth : BFS_TIMED;
        if (timed <= 16) {
            used += snprintf(c->note + used, sizeof c->note - used, "; us a level (b: bottom-up):");
            for (int l = 0; l < timed && used < (int)sizeof c->note - 16; l++)
                used += snprintf(c->note + used, sizeof c->note - used, " %.1f%s", (st.t[l + 1] - st.t[l]) * 1e-3,
                                 l < 64 && st.bottom_up_mask >> l & 1 ? "b" : "");
        } else if (timed > 0) {
            double most = 0;
            for (int l = 0; l < timed; l++)
                most = fmax(most, (st.t[l + 1] - st.t[l]) * 1e-3);
            snprintf(c->note + used, sizeof c->note - used, "; the first %d levels took %.1f us each on average, %.1f at "
                     "most", timed, (st.t[timed] - st.t[0]) * 1e-3 / timed, most);
        }
        return c->note;
    }
    if (BFS_RUNGS[rung].info.host_part && c->n > 0) {
        snprintf(c->note, sizeof c->note, "%d launches and host round trips, one a level", c->last_levels);
        return c->note;
    }
    return NULL;
}

static const climb_shape BFS_BENCH_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 20), CLIMB_SHAPE1((size_t)1 << 22)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape BFS_MAIN_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 20)};
/* Empty, one vertex, a few, odd sizes, past a block and a queue's shared capacity. */
static const climb_shape BFS_CHECK_SHAPES[] = {CLIMB_SHAPE1(0),    CLIMB_SHAPE1(1),    CLIMB_SHAPE1(2),
                                               CLIMB_SHAPE1(3),    CLIMB_SHAPE1(17),   CLIMB_SHAPE1(257),
                                               CLIMB_SHAPE1(3001), CLIMB_SHAPE1(65537), CLIMB_SHAPE1(300007)};
static const climb_shape BFS_QUICK_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(3001), CLIMB_SHAPE1(65537)};

static const climb_sweep BFS_SWEEPS[] = {
    {.name = "graphs",
     .title = "BFS on real graphs (social, vote, e-mail, a Delaunay mesh, FEM, a road network): GTEPS against vertices",
     .args = "--input {data}/matrices/wiki-Vote.mtx --input {data}/matrices/email-Enron.mtx "
             "--input {data}/matrices/delaunay_n16.mtx --input {data}/matrices/bcsstk13.mtx "
             "--input {data}/matrices/1138_bus.mtx --input {data}/graphs/rome99.gr",
     .x = "vertices",
     .log_x = 1},
    {.name = "scale",
     .title = "BFS on R-MAT graphs (edge factor 16): GTEPS against vertices (Graph500 scale 16 to 22)",
     .args = "--set graph=rmat --size 2^16 --size 2^18 --size 2^20 --size 2^22",
     .x = "vertices",
     .log_x = 1},
};

static const char *bfs_case_refuses(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    if (s->d[0] > 0x7fffffffu)
        return "more than 2^31 - 1 vertices";
    if (opts && opts[OPT_SOURCE].i >= 0 && (size_t)opts[OPT_SOURCE].i >= s->d[0])
        return "the source is not a vertex of the graph (it has fewer vertices)";
    return NULL;
}

/* Host memory: the graph (a generated one's edges drawn before the CSR is built) and four values a vertex. */
static double bfs_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    const double ef = opts && !opts[OPT_INPUT].data ? (double)opts[OPT_EDGE_FACTOR].i : 0;
    return (double)s->d[0] * (16 + ef * 2 * 12);
}

extern "C" const climb_workload climb_bfs_workload = {
    .name = "bfs",
    .title = "Breadth-first search: every vertex's level from a source",
    .sources = "Kirk and Hwu, Programming Massively Parallel Processors, chapter 12 (frontiers, "
                "privatised queues); Merrill, Garland and Grimshaw (load balance); Beamer, Asanovic and Patterson "
                "(direction-optimising BFS)",
    .command = NULL,
    .dims = {"vertices"},
    .shape_format = "{vertices} vertices",
    .types = CLIMB_TYPE_BIT(CLIMB_I32),
    .options = BFS_OPTIONS,
    .n_options = CLIMB_COUNT(BFS_OPTIONS),
    .bytes_counted = "read: the row pointers, the column indices and the level array once; written: the level array "
                     "once (the one-pass bound)",
    .items_unit = "traversed edges",
    .items_rate = "GTEPS",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = BFS_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(BFS_BENCH_SHAPES),
    .check_shapes = BFS_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(BFS_CHECK_SHAPES),
    .quick_shapes = BFS_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(BFS_QUICK_SHAPES),
    .main_shapes = BFS_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(BFS_MAIN_SHAPES),
    .check_max_offset = 0,
    .n_rungs = BFS_N_RUNGS,
    .rung = bfs_rung_info,
    .published = NULL,
    .sweeps = BFS_SWEEPS,
    .n_sweeps = CLIMB_COUNT(BFS_SWEEPS),
    .load = bfs_load,
    .unload = bfs_unload,
    .peek = NULL,
    .case_size = sizeof(climb_case),
    .buffers = BFS_BUFFERS,
    .n_buffers = CLIMB_COUNT(BFS_BUFFERS),
    .init = bfs_init,
    .fill = bfs_fill,
    .fini = bfs_fini,
    .create = NULL,
    .describe = bfs_describe,
    .reference = bfs_reference,
    .ref_cost = NULL,
    .ref_cost_limit = 0,
    .case_bytes = bfs_case_bytes,
    .case_refuses = bfs_case_refuses,
    .prepare = bfs_prepare,
    .setup = bfs_setup,
    .modifies = NULL,
    .reset = NULL,
    .run = bfs_run,
    .poison = NULL,
    .verify = bfs_verify,
    .counts = bfs_counts,
    .rung_counts = NULL,
    .rung_note = bfs_rung_note,
    .release = bfs_release,
    .save = NULL,
    .destroy = NULL,
    .tuning = NULL,
    .set_tuning = NULL,
};
