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
 * frontier's size (a host part, timed by the wall clock). The best rung is one cooperative kernel with a grid-wide
 * barrier between levels: no host round trip a level, and capturable in a CUDA graph.
 *
 * Order of this file: the reference and inputs, the kernels (one group per rung), the launchers, the registry, the
 * harness glue.
 *
 * Bytes counted: the row pointers and column indices read once, and the level array read and written once (the
 * one-pass bound); items: the edges of the traversed part (Graph500's TEPS: undirected edges counted once).
 */
#include <cooperative_groups.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/check.h"
#include "../device/device.h"
#include "../device/device_primitives.cuh"
#include "../io/graph.h"
#include "../io/mtx.h"
#include "../io/text.h"
#include "../base/rng.h"
#include "../core/workload.cuh"
#include "bfs.h"

namespace cg = cooperative_groups;

enum { OPT_GRAPH, OPT_EDGE_FACTOR, OPT_SOURCE, OPT_INPUT };

/* ---------------------------------------------------------------- the reference and the inputs */

extern "C" int32_t climb_bfs_ref(int32_t n, const int32_t *rp, const int32_t *ci, int32_t source, int32_t *level,
                                 int32_t *frontier, int32_t *depth)
{
    for (int32_t v = 0; v < n; v++)
        level[v] = -1;
    if (depth)
        *depth = 0;
    if (source < 0 || source >= n)
        return 0;
    int32_t *q = frontier ? frontier : (int32_t *)malloc((size_t)n * sizeof *q);
    if (!q)
        return -1;
    int32_t head = 0, tail = 0, levels = 0;
    q[tail++] = source;
    level[source] = 0;
    while (head < tail) {
        const int32_t v = q[head++];
        if (level[v] + 1 > levels)
            levels = level[v] + 1;
        for (int32_t e = rp[v]; e < rp[v + 1]; e++)
            if (level[ci[e]] < 0) {
                level[ci[e]] = level[v] + 1;
                q[tail++] = ci[e];
            }
    }
    if (depth)
        *depth = levels;
    if (!frontier)
        free(q);
    return tail;
}

static int32_t find_root(int32_t *parent, int32_t v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

extern "C" int32_t climb_bfs_default_source(int32_t n, const int32_t *rp, const int32_t *ci, uint64_t seed)
{
    if (n <= 0)
        return -1;
    int32_t *parent = (int32_t *)malloc((size_t)n * sizeof *parent), *size = (int32_t *)calloc((size_t)n, sizeof *size);
    if (!parent || !size) {
        free(parent);
        free(size);
        return 0;
    }
    for (int32_t v = 0; v < n; v++)
        parent[v] = v;
    for (int32_t v = 0; v < n; v++)
        for (int32_t e = rp[v]; e < rp[v + 1]; e++) {
            const int32_t a = find_root(parent, v), b = find_root(parent, ci[e]);
            if (a != b)
                parent[a < b ? b : a] = a < b ? a : b; /* the smaller id is the root */
        }
    int32_t best = 0;
    for (int32_t v = 0; v < n; v++)
        size[find_root(parent, v)]++;
    for (int32_t v = 1; v < n; v++)
        if (size[v] > size[best])
            best = v;
    const int64_t pick = (int64_t)(seed % (uint64_t)size[best]);
    int32_t source = best;
    for (int32_t v = 0, k = 0; v < n; v++)
        if (find_root(parent, v) == best && k++ == pick) {
            source = v;
            break;
        }
    free(parent);
    free(size);
    return source;
}

static int has_edge(const int32_t *rp, const int32_t *ci, int32_t u, int32_t v)
{
    int32_t lo = rp[u], hi = rp[u + 1];
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        if (ci[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < rp[u + 1] && ci[lo] == v;
}

extern "C" int climb_bfs_is_symmetric(int32_t n, const int32_t *rp, const int32_t *ci)
{
    for (int32_t u = 0; u < n; u++)
        for (int32_t e = rp[u]; e < rp[u + 1]; e++)
            if (!has_edge(rp, ci, ci[e], u))
                return 0;
    return 1;
}

/* ---------------------------------------------------------------- kernels */

#define BFS_BLOCK 256
#define BFS_BEST_PER_SM 4 /* the best rung's blocks a SM: a barrier's cost grows with the blocks that arrive at it */
#define BFS_FULL 0xffffffffu

/* Where a level's discoveries go: the next frontier's queue, each entry the start of a vertex's adjacency list (what
 * a top-down step reads; the vertex itself is not needed) with the list's offset in the concatenation of the
 * frontier's lists (what an edge-balanced step partitions; the next offset gives the length), and one 64-bit counter
 * that holds
 * both sizes: the vertices in the high half, the edges in the low (a level's edges are fewer than 2^31, the column
 * indices being 32-bit). One atomic on it gives a group of vertices their places and their lists' offsets at once,
 * so the offsets rise along the queue. A vertex without out-edges is levelled but not queued: it has nothing to
 * expand. */
struct bfs_out {
    int *q, *qo;
    unsigned long long *count;
    const int *rp;
};

__host__ __device__ __forceinline__ int bfs_count_vertices(unsigned long long c) { return (int)(c >> 32); }
__host__ __device__ __forceinline__ int bfs_count_edges(unsigned long long c) { return (int)(c & 0xffffffffu); }

/* Makes u a vertex of level `next` if nobody did: 1 for the thread that did. The read first spares an atomic on the
 * many edges to vertices already visited. */
__device__ __forceinline__ bool bfs_claim(int *level, int u, int next)
{
    return level[u] == -1 && atomicCAS(&level[u], -1, next) == -1;
}

#define BFS_ITEMS 4                      /* edges a thread in an edge-balanced tile */
#define BFS_TILE (BFS_BLOCK * BFS_ITEMS) /* edges a tile */

struct bfs_smem {
    union {
        struct { /* warp_expand's gathers */
            int scan[BFS_BLOCK / 32 + 1];
            int bbeg[BFS_BLOCK], boff[BFS_BLOCK];
            int wbeg[BFS_BLOCK / 32][32], woff[BFS_BLOCK / 32][32];
        } g;
        struct { /* an edge-balanced tile: the queue entries its edges belong to */
            int off[BFS_TILE], beg[BFS_TILE];
            int first, last;
        } t;
    } u;
    int wq[BFS_BLOCK / 32][64], wd[BFS_BLOCK / 32][64]; /* each warp's discoveries and their degrees */
};

/* A warp's staging of its discoveries (their lists' starts and lengths): the queue takes them 32 at a time (one atomic for 32 vertices, not one for
 * every round of 32 edges that finds any). n is the same in every lane. */
struct bfs_wbuf {
    int *q, *d;
    int n;
};

__device__ __forceinline__ void bfs_wbuf_flush(bfs_wbuf &b, int count, const bfs_out &o)
{
    const int lane = threadIdx.x & 31;
    const int d = lane < count ? b.d[lane] : 0;
    const int off = climb_warp_exclusive_scan<climb_op_sum>(d);
    const int total = __shfl_sync(BFS_FULL, off + d, 31);
    unsigned long long base = 0;
    if (lane == 0)
        base = atomicAdd(o.count, (unsigned long long)count << 32 | (unsigned)total);
    base = __shfl_sync(BFS_FULL, base, 0);
    if (lane < count) {
        o.q[bfs_count_vertices(base) + lane] = b.q[lane];
        o.qo[bfs_count_vertices(base) + lane] = bfs_count_edges(base) + off;
    }
    __syncwarp();
    const int rest = b.n - count; /* what is left moves to the front */
    const int keep = lane < rest ? b.q[count + lane] : 0, keepd = lane < rest ? b.d[count + lane] : 0;
    __syncwarp();
    if (lane < rest) {
        b.q[lane] = keep;
        b.d[lane] = keepd;
    }
    __syncwarp();
    b.n = rest;
}

/* Every lane of a full warp calls it. */
__device__ __forceinline__ void bfs_push(bool claimed, int u, bfs_wbuf &b, const bfs_out &o)
{
    int beg = 0, d = 0;
    if (claimed) {
        beg = o.rp[u];
        d = o.rp[u + 1] - beg;
    }
    const unsigned m = __ballot_sync(BFS_FULL, d > 0);
    if (!m)
        return;
    const int lane = threadIdx.x & 31;
    if (d > 0) {
        const int at = b.n + __popc(m & ((1u << lane) - 1));
        b.q[at] = beg;
        b.d[at] = d;
    }
    b.n += __popc(m);
    __syncwarp();
    if (b.n >= 32)
        bfs_wbuf_flush(b, 32, o);
}

/* The rest of the staging at the end of a warp's work. */
__device__ __forceinline__ void bfs_wbuf_done(bfs_wbuf &b, const bfs_out &o)
{
    if (b.n > 0)
        bfs_wbuf_flush(b, b.n, o);
}

__device__ __forceinline__ bfs_wbuf bfs_wbuf_of(bfs_smem *sm)
{
    const bfs_wbuf b = {sm->wq[threadIdx.x >> 5], sm->wd[threadIdx.x >> 5], 0};
    return b;
}

/* A block expands BFS_BLOCK frontier vertices' lists (each thread's: ci[beg] to ci[end - 1]), every thread calling: the lists of a block's worth of
 * edges or more by a block-wide gather (a block scan of their lengths, then BFS_BLOCK edges of their concatenation a
 * step); those of a warp's worth or more by their warp, one at a time; the rest by a warp-wide gather (each warp
 * scans its small lists' lengths and takes 32 edges of their concatenation a step). */
__device__ void bfs_expand_chunk(const int *__restrict__ ci, int *level, int next, int beg, int end, const bfs_out &o,
                                 bfs_smem *sm, bfs_wbuf &wb)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int d = end - beg;
    /* block-wide: the lists of a block's worth of edges or more, gathered together: one block scan of their lengths,
     * then BFS_BLOCK edges of their concatenation a step, each edge's list found by a binary search over the
     * offsets (the last list that starts at or before it) */
    int btotal;
    const int boff = climb_block_exclusive_scan<climb_op_sum, BFS_BLOCK>(d >= BFS_BLOCK ? d : 0, sm->u.g.scan, &btotal);
    if (btotal > 0) { /* the same in every thread */
        sm->u.g.bbeg[threadIdx.x] = beg;
        sm->u.g.boff[threadIdx.x] = boff;
        __syncthreads();
        for (int k = (int)threadIdx.x; k - (int)threadIdx.x < btotal; k += BFS_BLOCK) {
            bool c = false;
            int u = 0;
            if (k < btotal) {
                int lo = 0, hi = BFS_BLOCK - 1;
                while (lo < hi) {
                    const int mid = (lo + hi + 1) >> 1;
                    if (sm->u.g.boff[mid] <= k)
                        lo = mid;
                    else
                        hi = mid - 1;
                }
                u = ci[sm->u.g.bbeg[lo] + k - sm->u.g.boff[lo]];
                c = bfs_claim(level, u, next);
            }
            bfs_push(c, u, wb, o);
        }
        __syncthreads(); /* the offsets are read until here */
        if (d >= BFS_BLOCK)
            d = 0;
    }
    for (;;) { /* warp-wide */
        const unsigned big = __ballot_sync(BFS_FULL, d >= 32);
        if (!big)
            break;
        const int leader = __ffs(big) - 1;
        const int b0 = __shfl_sync(BFS_FULL, beg, leader), e0 = __shfl_sync(BFS_FULL, end, leader);
        if (lane == leader)
            d = 0;
        for (int e = b0 + lane; e - lane < e0; e += 32) {
            bool c = false;
            int u = 0;
            if (e < e0) {
                u = ci[e];
                c = bfs_claim(level, u, next);
            }
            bfs_push(c, u, wb, o);
        }
    }
    /* the warp-wide gather of the small lists */
    const int off = climb_warp_exclusive_scan<climb_op_sum>(d);
    const int total = __shfl_sync(BFS_FULL, off + d, 31);
    sm->u.g.wbeg[warp][lane] = beg;
    sm->u.g.woff[warp][lane] = off;
    __syncwarp();
    for (int k = lane; k - lane < total; k += 32) {
        bool c = false;
        int u = 0;
        if (k < total) {
            int lo = 0, hi = 31; /* the last lane whose list starts at or before k owns edge k */
            while (lo < hi) {
                const int mid = (lo + hi + 1) >> 1;
                if (sm->u.g.woff[warp][mid] <= k)
                    lo = mid;
                else
                    hi = mid - 1;
            }
            u = ci[sm->u.g.wbeg[warp][lo] + k - sm->u.g.woff[warp][lo]];
            c = bfs_claim(level, u, next);
        }
        bfs_push(c, u, wb, o);
    }
    __syncwarp();
}

/* Levels -1 but the source's 0; the source alone in the first queue (count: the plain counter of the first rungs;
 * packed: the 64-bit one of bfs_out, the source queued only if it has out-edges); the visited bitmap, where given,
 * holds the source alone. */
__global__ void bfs_init_kernel(const int *rp, int *level, int n, int source, int *q, int *qo, int *count,
                                unsigned long long *packed, unsigned *vis)
{
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
        level[v] = v == source ? 0 : -1;
    if (vis)
        for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < (n + 31) / 32; w += gridDim.x * blockDim.x)
            vis[w] = w == source / 32 ? 1u << (source & 31) : 0u;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        q[0] = packed ? rp[source] : source;
        if (qo)
            qo[0] = 0;
        if (count)
            *count = 1;
        if (packed) {
            const int d = rp[source + 1] - rp[source];
            packed[0] = d > 0 ? 1ull << 32 | (unsigned)d : 0ull;
        }
    }
}

/* --- rung vertex_top_down: a thread per vertex each level; the vertices of the level expand, the rest idle. */
__global__ void bfs_vertex_kernel(const int *__restrict__ rp, const int *__restrict__ ci, int *level, int n, int cur,
                                  int *changed)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != cur)
        return;
    for (int e = rp[v]; e < rp[v + 1]; e++) {
        const int u = ci[e];
        if (level[u] == -1) {
            level[u] = cur + 1; /* every writer writes the same */
            *changed = 1;
        }
    }
}

/* --- rung frontier_queue: a thread per frontier vertex; a neighbour claimed by an atomic goes to the next queue by
 * another. */
__global__ void bfs_queue_kernel(const int *__restrict__ rp, const int *__restrict__ ci, int *level,
                                 const int *__restrict__ qin, int nin, int *qout, int *nout, int next)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nin)
        return;
    const int v = qin[i];
    for (int e = rp[v]; e < rp[v + 1]; e++) {
        const int u = ci[e];
        if (atomicCAS(&level[u], -1, next) == -1)
            qout[atomicAdd(nout, 1)] = u;
    }
}

/* --- rung block_queue: the block's discoveries gathered in shared memory (overflow to the global queue), then one
 * atomic for the block and a coalesced copy. */
#define BFS_BQ_CAP 2048
__global__ void __launch_bounds__(BFS_BLOCK)
    bfs_block_queue_kernel(const int *__restrict__ rp, const int *__restrict__ ci, int *level,
                           const int *__restrict__ qin, int nin, int *qout, int *nout, int next)
{
    __shared__ int sq[BFS_BQ_CAP];
    __shared__ int sn, sbase;
    if (threadIdx.x == 0)
        sn = 0;
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nin) {
        const int v = qin[i];
        for (int e = rp[v]; e < rp[v + 1]; e++) {
            const int u = ci[e];
            if (bfs_claim(level, u, next)) {
                const int p = atomicAdd(&sn, 1);
                if (p < BFS_BQ_CAP)
                    sq[p] = u;
                else
                    qout[atomicAdd(nout, 1)] = u;
            }
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        sn = sn < BFS_BQ_CAP ? sn : BFS_BQ_CAP;
        sbase = atomicAdd(nout, sn);
    }
    __syncthreads();
    for (int j = threadIdx.x; j < sn; j += BFS_BLOCK)
        qout[sbase + j] = sq[j];
}

/* --- rung warp_expand: a launch a level of the cooperative expansion above. */
__global__ void __launch_bounds__(BFS_BLOCK)
    bfs_expand_kernel(const int *__restrict__ rp, const int *__restrict__ ci, int *level, const int *__restrict__ qin,
                      const int *__restrict__ qoin, int nin, int E, int *qout, int *qoout, unsigned long long *nout,
                      int next)
{
    __shared__ bfs_smem sm;
    const int i = blockIdx.x * BFS_BLOCK + threadIdx.x;
    const bfs_out o = {qout, qoout, nout, rp};
    bfs_wbuf wb = bfs_wbuf_of(&sm);
    int beg = 0, end = 0;
    if (i < nin) {
        beg = qin[i];
        end = beg + (i + 1 < nin ? qoin[i + 1] : E) - qoin[i];
    }
    bfs_expand_chunk(ci, level, next, beg, end, o, &sm, wb);
    bfs_wbuf_done(wb, o);
}

/* --- rungs edge_balanced and visited_bitmap: the work a level divided by edges, not by vertices. The queue's
 * offsets (bfs_out) number the frontier's edges 0 to E - 1; a tile of BFS_TILE consecutive edges goes to a block,
 * whose first two warps find the queue entries that own its first and last edge (a 32-way search of the offsets),
 * so every block does the same work whether the frontier holds one vertex of a million edges or a million vertices
 * of one. Each thread then loads its BFS_ITEMS edges' ends before it checks any (the loads overlap). */

/* Claims for a thread's edges' ends u (u < 0: none). BITS: a bitmap of visited vertices filters (its word read
 * through L1: a stale word can only say "not visited", and the atomicOr that follows tells the truth), the claim is
 * an atomicOr on it, and the claimer writes the level; the frontier bitmap `front`, where given, gets the claimed
 * vertices too (the bottom-up steps read it). Otherwise the level array itself, read then claimed by atomicCAS. */
template <bool BITS>
__device__ __forceinline__ void bfs_claim_items(const int (&u)[BFS_ITEMS], bool (&c)[BFS_ITEMS], int *level,
                                                unsigned *vis, unsigned *front, int next)
{
    if (BITS) {
        unsigned w[BFS_ITEMS];
#pragma unroll
        for (int it = 0; it < BFS_ITEMS; it++)
            w[it] = u[it] >= 0 ? __ldca(&vis[u[it] >> 5]) : ~0u;
#pragma unroll
        for (int it = 0; it < BFS_ITEMS; it++) {
            const unsigned bit = 1u << (u[it] & 31);
            c[it] = !(w[it] & bit) && !(atomicOr(&vis[u[it] >> 5], bit) & bit);
            if (c[it]) {
                level[u[it]] = next;
                if (front)
                    atomicOr(&front[u[it] >> 5], bit);
            }
        }
    } else {
        int l[BFS_ITEMS];
#pragma unroll
        for (int it = 0; it < BFS_ITEMS; it++)
            l[it] = u[it] >= 0 ? level[u[it]] : 0;
#pragma unroll
        for (int it = 0; it < BFS_ITEMS; it++)
            c[it] = l[it] == -1 && atomicCAS(&level[u[it]], -1, next) == -1;
    }
}

/* One tile: edges k0 to k0 + BFS_TILE - 1 (and below E) of the frontier q/qo of nf entries. Every thread calls it. */
template <bool BITS>
__device__ void bfs_tile(const int *__restrict__ rp, const int *__restrict__ ci, int *level, unsigned *vis,
                         unsigned *front, const int *q, const int *qo, int nf, int E, int k0, int next,
                         const bfs_out &o, bfs_smem *sm, bfs_wbuf &wb)
{
    const int warp = threadIdx.x >> 5;
    const int k1 = (int)min((long long)k0 + BFS_TILE, (long long)E);
    if (warp < 2) {
        const int at = climb_warp_search_le(qo, nf, warp == 0 ? k0 : k1 - 1); /* the owners */
        if ((threadIdx.x & 31) == 0)
            (warp == 0 ? sm->u.t.first : sm->u.t.last) = at;
    }
    __syncthreads();
    const int i0 = sm->u.t.first, w = sm->u.t.last - i0 + 1; /* at most BFS_TILE: every entry has an edge */
    for (int j = threadIdx.x; j < w; j += BFS_BLOCK) {
        sm->u.t.off[j] = qo[i0 + j];
        sm->u.t.beg[j] = q[i0 + j];
    }
    __syncthreads();
    int u[BFS_ITEMS];
    bool c[BFS_ITEMS];
#pragma unroll
    for (int it = 0; it < BFS_ITEMS; it++) {
        const int k = k0 + it * BFS_BLOCK + (int)threadIdx.x;
        u[it] = -1;
        if (k < k1) {
            int lo = 0, hi = w - 1; /* the last entry whose offset is at or below k */
            while (lo < hi) {
                const int mid = (lo + hi + 1) >> 1;
                if (sm->u.t.off[mid] <= k)
                    lo = mid;
                else
                    hi = mid - 1;
            }
            u[it] = ci[sm->u.t.beg[lo] + k - sm->u.t.off[lo]];
        }
    }
    bfs_claim_items<BITS>(u, c, level, vis, front, next);
#pragma unroll
    for (int it = 0; it < BFS_ITEMS; it++)
        bfs_push(c[it], u[it], wb, o);
    __syncthreads(); /* the tile's entries are read until here */
}

template <bool BITS>
__global__ void __launch_bounds__(BFS_BLOCK)
    bfs_balanced_kernel(const int *__restrict__ rp, const int *__restrict__ ci, int *level, unsigned *vis,
                        const int *__restrict__ qin, const int *__restrict__ qoin, int nin, int E, int *qout,
                        int *qoout, unsigned long long *nout, int next)
{
    __shared__ bfs_smem sm;
    const bfs_out o = {qout, qoout, nout, rp};
    bfs_wbuf wb = bfs_wbuf_of(&sm);
    bfs_tile<BITS>(rp, ci, level, vis, NULL, qin, qoin, nin, E, (int)blockIdx.x * BFS_TILE, next, o, &sm, wb);
    bfs_wbuf_done(wb, o);
}

/* --- the best rung, direction_optimizing: one cooperative kernel, a grid-wide barrier between levels. Each level
 * every thread reads the same counter and takes the same decision (Beamer's): go bottom-up when the frontier's
 * edges pass 1/14 of the unvisited vertices' edges and the frontier grew, back top-down when it holds fewer than
 * n/24 vertices and shrank. Top-down: edge-balanced tiles as visited_bitmap's, over the grid. Bottom-up: a thread per
 * unvisited vertex looks through its in-edges, BFS_ITEMS at a time, for a parent in the frontier (a bitmap of the
 * level's vertices) and stops at the first; the vertices found go to the queue too, for a later top-down step. The counters and frontier
 * bitmaps rotate over three slots so that one barrier a level is enough: level L reads slot L mod 3, fills L + 1 and
 * clears L + 2. */
#define BFS_TIMED 64 /* levels whose start time the best rung records */
struct bfs_state {
    unsigned long long count[3]; /* bfs_out's packed counters */
    unsigned long long t[BFS_TIMED + 1]; /* the global timer (ns) at each level's start, and at the end */
    int depth;                   /* levels expanded */
    int bottom_up_levels;
    unsigned long long bottom_up_mask; /* levels 0 to 63 taken bottom-up */
};

struct bfs_best_args {
    int n;
    const int *rp, *ci, *in_rp, *in_ci; /* in_rp NULL: top-down only */
    int source;
    int *level, *qa, *qb, *qoa, *qob;
    unsigned *vis, *front; /* front: 3 bitmaps of `words` words */
    int words;
    bfs_state *st;
};

__global__ void __launch_bounds__(BFS_BLOCK) bfs_best_kernel(bfs_best_args a)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ bfs_smem sm;
    const long long gt = (long long)blockIdx.x * BFS_BLOCK + threadIdx.x, gsize = (long long)gridDim.x * BFS_BLOCK;
    const int n = a.n, lane = threadIdx.x & 31;
    bfs_state *st = a.st;
    const int sdeg = a.rp[a.source + 1] - a.rp[a.source];
    for (long long v = gt; v < n; v += gsize)
        a.level[v] = v == a.source ? 0 : -1;
    for (long long w = gt; w < a.words; w += gsize) {
        const unsigned s = w == a.source / 32 ? 1u << (a.source & 31) : 0u;
        a.vis[w] = s;
        a.front[w] = s;
        a.front[a.words + w] = 0;
        a.front[2 * a.words + w] = 0;
    }
    const long long m = a.rp[n];
    long long unvisited = m - sdeg;
    if (gt == 0) {
        a.qa[0] = a.rp[a.source];
        a.qoa[0] = 0;
        st->count[0] = sdeg > 0 ? 1ull << 32 | (unsigned)sdeg : 0ull;
        st->count[1] = st->count[2] = 0;
        st->bottom_up_levels = 0;
        st->bottom_up_mask = 0;
    }
    grid.sync();
    if (gt == 0)
        st->t[0] = climb_globaltimer();
    bool bottom = false;
    int *qin = a.qa, *qout = a.qb, *qoin = a.qoa, *qoout = a.qob, depth = 0, last_nf = 0;
    for (int cur = 0;; cur++) {
        const int now = cur % 3, nxt = (cur + 1) % 3, clr = (cur + 2) % 3;
        const unsigned long long cnt = ((volatile unsigned long long *)st->count)[now];
        const int nf = bfs_count_vertices(cnt), E = bfs_count_edges(cnt);
        if (nf == 0)
            break;
        depth = cur + 1;
        if (a.in_rp) {
            if (!bottom && E > unvisited / 14 && nf > last_nf) /* large and growing */
                bottom = true;
            else if (bottom && nf < n / 24 && nf < last_nf) /* small and shrinking */
                bottom = false;
        }
        last_nf = nf;
        unsigned *fcur = a.front + (size_t)now * a.words, *fnext = a.front + (size_t)nxt * a.words;
        for (long long w = gt; w < a.words; w += gsize)
            a.front[(size_t)clr * a.words + w] = 0;
        if (gt == 0) {
            st->count[clr] = 0;
            if (bottom) {
                st->bottom_up_levels++;
                if (cur < 64)
                    st->bottom_up_mask |= 1ull << cur;
            }
        }
        const bfs_out o = {qout, qoout, &st->count[nxt], a.rp};
        bfs_wbuf wb = bfs_wbuf_of(&sm);
        if (!bottom) {
            for (long long k0 = (long long)blockIdx.x * BFS_TILE; k0 < E; k0 += (long long)gridDim.x * BFS_TILE)
                bfs_tile<true>(a.rp, a.ci, a.level, a.vis, fnext, qin, qoin, nf, E, (int)k0, cur + 1, o, &sm, wb);
        } else {
            for (long long base = gt - lane; base < n; base += gsize) { /* a warp: 32 vertices, a bitmap word */
                const long long v = base + lane;
                const unsigned seen = a.vis[base >> 5];
                bool found = false;
                if (v < n && !(seen >> lane & 1)) {
                    const int end = a.in_rp[v + 1];
                    for (int e = a.in_rp[v]; e < end && !found; e += BFS_ITEMS) { /* BFS_ITEMS loads in flight */
                        int p[BFS_ITEMS];
                        unsigned f[BFS_ITEMS];
#pragma unroll
                        for (int j = 0; j < BFS_ITEMS; j++)
                            p[j] = e + j < end ? a.in_ci[e + j] : -1;
#pragma unroll
                        for (int j = 0; j < BFS_ITEMS; j++)
                            f[j] = p[j] >= 0 ? fcur[p[j] >> 5] >> (p[j] & 31) & 1 : 0;
#pragma unroll
                        for (int j = 0; j < BFS_ITEMS; j++)
                            found |= f[j] != 0;
                    }
                    if (found)
                        a.level[v] = cur + 1;
                }
                const unsigned got = __ballot_sync(BFS_FULL, found);
                if (lane == 0 && got) { /* the word is this warp's alone in a bottom-up step */
                    a.vis[base >> 5] = seen | got;
                    fnext[base >> 5] = got;
                }
                bfs_push(found, (int)v, wb, o);
            }
        }
        bfs_wbuf_done(wb, o);
        grid.sync();
        if (gt == 0 && cur < BFS_TIMED)
            st->t[cur + 1] = climb_globaltimer();
        unvisited -= bfs_count_edges(((volatile unsigned long long *)st->count)[nxt]);
        int *t = qin;
        qin = qout;
        qout = t;
        t = qoin;
        qoin = qoout;
        qoout = t;
    }
    if (gt == 0)
        st->depth = depth;
}

/* --- the bound: the least a BFS must read (the row pointers and every column index) and write (a value a
 * vertex), by the fastest kernel that does it: each vertex's degree written, the column indices XORed (16-byte
 * loads). Verified by its own rule (the degrees and the XOR). */
__global__ void bfs_bound_kernel(const int *__restrict__ rp, const int4 *__restrict__ ci4, const int *__restrict__ ci,
                                 long long m, int n, int *out, unsigned *x)
{
    const long long gt = (long long)blockIdx.x * blockDim.x + threadIdx.x, gsize = (long long)gridDim.x * blockDim.x;
    for (long long v = gt; v < n; v += gsize)
        out[v] = rp[v + 1] - rp[v];
    unsigned acc = 0;
    for (long long i = gt; i < m / 4; i += gsize) {
        const int4 q = ci4[i];
        acc ^= (unsigned)q.x ^ (unsigned)q.y ^ (unsigned)q.z ^ (unsigned)q.w;
    }
    for (long long i = m / 4 * 4 + gt; i < m; i += gsize)
        acc ^= (unsigned)ci[i];
    for (int s = 16; s > 0; s >>= 1)
        acc ^= __shfl_xor_sync(BFS_FULL, acc, s);
    if ((threadIdx.x & 31) == 0 && acc)
        atomicXor(x, acc);
}

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
 * resident). */
static cudaError_t best_launch(const bfs_best_args *b, int sms, cudaStream_t s)
{
    int per_sm = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bfs_best_kernel, BFS_BLOCK, 0);
    if (e != cudaSuccess)
        return e;
    if (per_sm < 1)
        return cudaErrorCooperativeLaunchTooLarge;
    if (per_sm > BFS_BEST_PER_SM)
        per_sm = BFS_BEST_PER_SM;
    long long blocks = (long long)per_sm * sms, need = b->n > 0 ? bfs_grid(b->n) : 1;
    if (blocks > need)
        blocks = need;
    cudaLaunchAttribute attr = {};
    attr.id = cudaLaunchAttributeCooperative;
    attr.val.cooperative = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)blocks);
    cfg.blockDim = dim3(BFS_BLOCK);
    cfg.stream = s;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    bfs_best_args copy = *b;
    void *args[] = {(void *)&copy};
    return cudaLaunchKernelExC(&cfg, (const void *)bfs_best_kernel, args);
}

/* The best rung's workspace: two queues and their offsets, the visited bitmap, three frontier bitmaps, the state. */
static size_t bfs_align(size_t x) { return (x + 255) / 256 * 256; }

static bfs_best_args bfs_best_layout(int32_t n, const int32_t *rp, const int32_t *ci, const int32_t *in_rp,
                                     const int32_t *in_ci, int32_t source, int32_t *level, void *ws)
{
    const size_t n1 = n > 0 ? (size_t)n : 1, q = bfs_align(n1 * sizeof(int)), words = (n1 + 31) / 32,
                 wb = bfs_align(words * sizeof(unsigned));
    char *w = (char *)ws;
    bfs_best_args b = {n, rp, ci, in_rp, in_ci, source, level, (int *)w, (int *)(w + q), (int *)(w + 2 * q),
                       (int *)(w + 3 * q), (unsigned *)(w + 4 * q), (unsigned *)(w + 4 * q + wb), (int)words,
                       (bfs_state *)(w + 4 * q + 4 * wb)};
    return b;
}

extern "C" size_t climb_bfs_best_workspace(int32_t n)
{
    const size_t n1 = n > 0 ? (size_t)n : 1;
    return 4 * bfs_align(n1 * sizeof(int)) + 4 * bfs_align((n1 + 31) / 32 * sizeof(unsigned)) +
           bfs_align(sizeof(bfs_state));
}

static cudaError_t launch_best(bfs_args *a)
{
    if (a->n == 0 || a->source < 0)
        return cudaSuccess;
    return best_launch(&a->best, a->sms, a->s);
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
    return best_launch(&b, sms, s);
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
static int k_best(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)bfs_best_kernel, "bfs_best_kernel", BFS_BLOCK, 0);
}

typedef struct bfs_rung {
    climb_rung_info info;
    bfs_launch_fn launch;
} bfs_rung;

enum { RUNG_BOUND = 0, RUNG_BEST = 7 };

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
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_best},
     .launch = launch_best},
};
#define BFS_N_RUNGS CLIMB_COUNT(BFS_RUNGS)
static const climb_rung_info *bfs_rung_info(int i) { return &BFS_RUNGS[i].info; }

/* ---------------------------------------------------------------- options */

static const char *const BFS_GRAPHS[] = {"rmat", "grid2d", "random", NULL};
static constexpr climb_option BFS_OPTIONS[] = {
    {.name = "graph", .kind = CLIMB_OPT_CHOICE,
     .meaning = "generated graph: rmat (R-MAT / Kronecker with Graph500's parameters, undirected), grid2d (a 2-D grid, "
                "4 neighbours: depth about 2 sqrt(n)), random (edge_factor uniform out-edges a vertex, directed)",
     .def = "all", .choices = BFS_GRAPHS, .generator = 1},
    {.name = "edge_factor", .kind = CLIMB_OPT_INT,
     .meaning = "edges drawn a vertex (rmat: Graph500's 16; random: out-edges a vertex)", .def = "16", .min = 1,
     .max = 1024, .generator = 1},
    {.name = "source", .kind = CLIMB_OPT_INT,
     .meaning = "the source vertex; -1: a vertex of the largest connected component, chosen from the seed",
     .def = "-1", .min = -1, .max = 2147483646},
    {.name = "input", .kind = CLIMB_OPT_FILE,
     .meaning = "a graph file: Matrix Market (pattern or valued, symmetric or general: rows are out-edges), a SNAP edge "
                "list ('# ' comments, 'u v' a line) or DIMACS shortest paths ('p sp N M', 'a u v w')",
     .def = ""},
};
CLIMB_OPTION_AT(BFS_OPTIONS, OPT_GRAPH, "graph");
CLIMB_OPTION_AT(BFS_OPTIONS, OPT_EDGE_FACTOR, "edge_factor");
CLIMB_OPTION_AT(BFS_OPTIONS, OPT_SOURCE, "source");
CLIMB_OPTION_AT(BFS_OPTIONS, OPT_INPUT, "input");

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
    int32_t *ref, *got, *frontier;
    int *d_rp, *d_ci, *d_in_rp, *d_in_ci, *d_level, *d_count;
    unsigned long long *d_packed;
    void *d_ws; /* the best rung's workspace: the queues, their offsets and the bitmaps of every rung */
    unsigned *d_x, ref_x;
    unsigned long long *h_count;
    int sms, last_levels;
    double in_bytes;
    char desc[400], note[700];
};

static void bfs_free_in_edges(climb_case *c)
{
    if (c->d_in_rp && c->d_in_rp != c->d_rp)
        cudaFree(c->d_in_rp);
    if (c->d_in_ci && c->d_in_ci != c->d_ci)
        cudaFree(c->d_in_ci);
    c->d_in_rp = c->d_in_ci = NULL;
    c->in_bytes = 0;
}

static void bfs_destroy(climb_case *c)
{
    if (!c)
        return;
    bfs_free_in_edges(c);
    climb_csr_free(&c->own);
    free(c->ref);
    free(c->got);
    free(c->frontier);
    void *dev[] = {c->d_rp, c->d_ci, c->d_level, c->d_count, c->d_packed, c->d_ws, c->d_x};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++)
        if (dev[i])
            cudaFree(dev[i]);
    if (c->h_count)
        cudaFreeHost(c->h_count);
    free(c);
}

static int bfs_upload(const void *h, size_t bytes, int **d)
{
    if (CLIMB_FAILED(cudaMalloc((void **)d, bytes ? bytes : 4)))
        return -1;
    return bytes && CLIMB_FAILED(cudaMemcpy(*d, h, bytes, cudaMemcpyHostToDevice)) ? -1 : 0;
}

static const char *const BFS_GRAPH_NAMES[] = {"R-MAT (Graph500's A, B, C, D = 0.57, 0.19, 0.19, 0.05; undirected)",
                                              "2-D grid, 4 neighbours", "uniform random out-edges (directed)"};

static int bfs_create(const climb_case_params *p, climb_case **out)
{
    *out = NULL;
    climb_case *c = (climb_case *)calloc(1, sizeof *c);
    if (!c)
        return climb_host_oom("the case");
    c->p = *p;
    c->sms = p->dev ? p->dev->sms : 1;
    c->graph = p->opts[OPT_GRAPH].choice;
    const bfs_file *f = (const bfs_file *)p->opts[OPT_INPUT].data;
    char err[400];
    if (f) {
        c->g = &f->g;
        c->directed_file = f->directed;
    } else {
        const size_t nv = p->shape.d[0];
        if (nv > 0x7fffffffu) {
            fprintf(stderr, "climb: bfs: more than 2^31 - 1 vertices\n");
            bfs_destroy(c);
            return -1;
        }
        static const int KIND[] = {CLIMB_GEN_RMAT, CLIMB_GEN_GRID2D, CLIMB_GEN_RANDOM};
        const climb_sparse_gen sg = {KIND[c->graph], (int64_t)nv, (int64_t)nv, 0, (int)p->opts[OPT_EDGE_FACTOR].i, 0,
                                     p->seed};
        if (nv > 0 && climb_sparse_generate(&sg, &c->own, NULL, err, sizeof err) != 0) {
            fprintf(stderr, "climb: bfs: %s\n", err);
            bfs_destroy(c);
            return -1;
        }
        if (nv == 0) { /* an empty graph: no vertex, no edge */
            c->own.row_ptr = (int32_t *)calloc(1, sizeof(int32_t));
            if (!c->own.row_ptr) {
                bfs_destroy(c);
                return climb_host_oom("the graph");
            }
        }
        c->g = &c->own;
    }
    const climb_csr *g = c->g;
    c->n = g->rows;
    c->m = g->row_ptr[c->n];
    c->symmetric = f ? !f->directed || climb_bfs_is_symmetric(c->n, g->row_ptr, g->col_idx)
                     : c->graph != 2 || climb_bfs_is_symmetric(c->n, g->row_ptr, g->col_idx);
    const int64_t want = p->opts[OPT_SOURCE].i;
    if (want >= c->n) {
        fprintf(stderr, "climb: bfs: source %lld is not a vertex: the graph has %d\n", (long long)want, c->n);
        bfs_destroy(c);
        return -1;
    }
    c->source = want >= 0 ? (int32_t)want : climb_bfs_default_source(c->n, g->row_ptr, g->col_idx, p->seed);
    const size_t n1 = c->n ? (size_t)c->n : 1;
    c->ref = (int32_t *)malloc(n1 * 4);
    c->got = (int32_t *)malloc(n1 * 4);
    c->frontier = (int32_t *)malloc((n1 + 1) * 4);
    if (!c->ref || !c->got || !c->frontier) {
        bfs_destroy(c);
        return climb_host_oom("%d vertices", c->n);
    }
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
    /* the device copies */
    if (bfs_upload(g->row_ptr, (n1 + 1) * 4, &c->d_rp) || bfs_upload(g->col_idx, (size_t)c->m * 4, &c->d_ci) ||
        CLIMB_FAILED(cudaMalloc((void **)&c->d_level, n1 * 4)) || CLIMB_FAILED(cudaMalloc((void **)&c->d_count, 8)) ||
        CLIMB_FAILED(cudaMalloc((void **)&c->d_packed, 16)) ||
        CLIMB_FAILED(cudaMalloc(&c->d_ws, climb_bfs_best_workspace(c->n))) ||
        CLIMB_FAILED(cudaMalloc((void **)&c->d_x, 4)) || CLIMB_FAILED(cudaMallocHost((void **)&c->h_count, 8))) {
        cudaGetLastError();
        fprintf(stderr, "climb: out of device memory for a graph of %d vertices and %lld edges\n", c->n, c->m);
        bfs_destroy(c);
        return -1;
    }
    *out = c;
    return 0;
}

static const char *bfs_describe(const climb_case *c) { return c->desc; }

static int bfs_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode;
    snprintf(desc, desclen, "CPU BFS (a queue), every vertex's level, exact");
    return 0;
}

static const char *bfs_refuses(const climb_case *c, int rung)
{
    (void)c;
    (void)rung;
    return NULL;
}

/* The best rung's bottom-up steps need the in-edges: a directed graph's transpose, built here (untimed, reported as
 * set-up); a symmetric graph's are its out-edges. */
static int bfs_prepare(climb_case *c, int rung)
{
    if (rung != RUNG_BEST || c->d_in_rp)
        return 0;
    if (c->symmetric) {
        c->d_in_rp = c->d_rp;
        c->d_in_ci = c->d_ci;
        return 0;
    }
    const climb_csr *g = c->g;
    int32_t *src = (int32_t *)malloc((size_t)(c->m ? c->m : 1) * 4), *dst = (int32_t *)malloc((size_t)(c->m ? c->m : 1) * 4);
    if (!src || !dst) {
        free(src);
        free(dst);
        return climb_host_oom("the transpose");
    }
    for (int32_t v = 0; v < c->n; v++)
        for (int32_t e = g->row_ptr[v]; e < g->row_ptr[v + 1]; e++) {
            src[e] = g->col_idx[e];
            dst[e] = v;
        }
    climb_csr t;
    memset(&t, 0, sizeof t);
    char err[300];
    const int rc = climb_csr_from_edges(c->n, c->n, c->m, src, dst, NULL, 0, 1, &t, NULL, err, sizeof err);
    free(src);
    free(dst);
    if (rc != 0) {
        fprintf(stderr, "climb: bfs: the transpose: %s\n", err);
        return -1;
    }
    const int ok = bfs_upload(t.row_ptr, ((size_t)c->n + 1) * 4, &c->d_in_rp) == 0 &&
                   bfs_upload(t.col_idx, (size_t)t.nnz * 4, &c->d_in_ci) == 0;
    c->in_bytes = ((double)c->n + 1 + t.nnz) * 4;
    climb_csr_free(&t);
    return ok ? 0 : -1;
}

static int bfs_setup(const climb_case *c, int rung, climb_setup *out)
{
    if (rung != RUNG_BEST || c->symmetric)
        return 0;
    out->bytes = c->in_bytes;
    out->ms = 0;
    return 1;
}

static void bfs_release(climb_case *c, int rung)
{
    if (rung == RUNG_BEST)
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

/* 0x7f7f7f7f: a level no graph of fewer than 2^31 vertices has. */
static int bfs_poison(climb_case *c)
{
    CLIMB_CHECK(cudaMemset(c->d_level, 0x7f, (c->n ? (size_t)c->n : 1) * 4));
    CLIMB_CHECK(cudaMemset(c->d_x, 0x7f, 4));
    return 0;
}

static int bfs_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    msg[0] = '\0';
    if (c->n == 0)
        return 0;
    CLIMB_CHECK(cudaMemcpy(c->got, c->d_level, (size_t)c->n * 4, cudaMemcpyDeviceToHost));
    const climb_csr *g = c->g;
    size_t bad = 0, first = 0;
    int32_t want_first = 0;
    for (int32_t v = 0; v < c->n; v++) {
        const int32_t want = rung == RUNG_BOUND ? g->row_ptr[v + 1] - g->row_ptr[v] : c->ref[v];
        if (c->got[v] != want) {
            if (!bad) {
                first = (size_t)v;
                want_first = want;
            }
            bad++;
        }
    }
    if (bad) {
        snprintf(msg, msglen, "%s of vertex %zu = %d, expected %d (%zu of %d wrong)",
                 rung == RUNG_BOUND ? "degree" : "level", first, c->got[first], want_first, bad, c->n);
        return 1;
    }
    if (rung == RUNG_BOUND) {
        unsigned x;
        CLIMB_CHECK(cudaMemcpy(&x, c->d_x, 4, cudaMemcpyDeviceToHost));
        if (x != c->ref_x) {
            snprintf(msg, msglen, "the column indices' XOR is %08x, expected %08x", x, c->ref_x);
            return 1;
        }
    }
    return 0;
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
    if (rung == RUNG_BEST && c->n > 0) {
        bfs_state st;
        const bfs_best_args b = bfs_best_layout(c->n, c->d_rp, c->d_ci, c->d_in_rp, c->d_in_ci, c->source, c->d_level,
                                                c->d_ws);
        if (cudaMemcpy(&st, b.st, sizeof st, cudaMemcpyDeviceToHost) != cudaSuccess) {
            cudaGetLastError();
            return NULL;
        }
        int used = snprintf(c->note, sizeof c->note, "%d levels expanded, %d of them bottom-up", st.depth,
                            st.bottom_up_levels);
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
    if (rung != RUNG_BOUND && rung != RUNG_BEST && c->n > 0) {
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
    .seed_ref = "Kirk and Hwu, Programming Massively Parallel Processors, chapter 12 (frontiers, "
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
    .create = bfs_create,
    .describe = bfs_describe,
    .reference = bfs_reference,
    .ref_cost = NULL,
    .ref_cost_limit = 0,
    .case_bytes = bfs_case_bytes,
    .case_refuses = bfs_case_refuses,
    .refuses = bfs_refuses,
    .prepare = bfs_prepare,
    .setup = bfs_setup,
    .modifies = NULL,
    .reset = NULL,
    .run = bfs_run,
    .poison = bfs_poison,
    .verify = bfs_verify,
    .counts = bfs_counts,
    .rung_counts = NULL,
    .rung_note = bfs_rung_note,
    .release = bfs_release,
    .save = NULL,
    .destroy = bfs_destroy,
    .tuning = NULL,
    .set_tuning = NULL,
};
