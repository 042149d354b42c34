/* BFS's kernels (src/workloads/bfs/), one group per rung: the vertex-centric level, the global and block queues,
 * the warp and edge-balanced expansions, the visited bitmap, the bound's one pass and the best rung's cooperative
 * direction-optimising kernel. */
#ifndef CLIMB_WORKLOADS_BFS_KERNELS_CUH
#define CLIMB_WORKLOADS_BFS_KERNELS_CUH

#include <cooperative_groups.h>

#include "../../device/device_primitives.cuh"
#include "bfs.h"

namespace cg = cooperative_groups;

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

/* The last of the n entries whose offset (off, rising, off[0] <= k) is at or below edge k: the entry that owns it. */
template <typename T> __device__ __forceinline__ int bfs_owner(const T *off, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) >> 1;
        if (off[mid] <= k)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
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
            const int at = bfs_owner(sm->u.t.off, w, k);
            u[it] = ci[sm->u.t.beg[at] + k - sm->u.t.off[at]];
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

/* --- the rungs direction_optimizing, block_levels and cluster_levels (the best): a cooperative kernel, a grid-wide
 * barrier between levels (block_levels: between the levels the grid runs; see bfs_small_levels). Each level every
 * thread reads the same counter and takes the same decision (Beamer's): go bottom-up when the frontier's edges pass
 * 1/14 of the unvisited vertices' edges and the frontier grew, back top-down when it holds fewer than n/24 vertices and
 * shrank. Top-down: edge-balanced tiles as visited_bitmap's, over the grid. Bottom-up: a thread per unvisited vertex
 * looks through its in-edges, BFS_ITEMS at a time, for a parent in the frontier (a bitmap of the level's vertices) and
 * stops at the first; the vertices found go to the queue too, for a later top-down step. The counters and frontier
 * bitmaps rotate over three slots so that one barrier a level is enough: level L reads slot L mod 3, fills L + 1 and
 * clears L + 2. */
#define BFS_TIMED 64 /* levels whose start time the best rung records */

/* Where block 0 left its levels for the grid (bfs_small_levels): the level to go on with, the queue arrays its
 * frontier is in (0: qa and qoa, 1: qb and qob), and the search's counters then; done: the search ended there. */
struct bfs_resume {
    long long unvisited;
    int cur, depth, last_nf, parity, done;
};

struct bfs_state {
    unsigned long long count[3]; /* bfs_out's packed counters */
    unsigned long long t[BFS_TIMED + 1]; /* the global timer (ns) at each level's start, and at the end */
    int depth;                   /* levels expanded */
    int bottom_up_levels;
    unsigned long long bottom_up_mask; /* levels 0 to 63 taken bottom-up */
    int block_levels;                  /* levels run by one block (bfs_small_levels) */
    bfs_resume resume;
};

struct bfs_best_args {
    int n;
    const int *rp, *ci, *in_rp, *in_ci; /* in_rp NULL: top-down only */
    int source;
    int *level, *qa, *qb, *qoa, *qob;
    unsigned *vis, *front; /* front: 3 bitmaps of `words` words */
    int words;
    bfs_state *st;
    int *qv; /* n: the vertex of each queue entry the cluster's levels write (their last level's frontier, from which
                the grid's hand-over builds the frontier bitmap of a bottom-up level) */
    int l2_bytes; /* cluster_levels: the L2's size; a graph whose row pointers and column indices fit in half of it
                     is prefetched into it at the start */
    int phase;    /* bfs_phase: the whole search, or one kernel of cluster_levels' three */
};

/* cluster_levels runs a search as three kernels in a row, so that its heavy levels (bottom-up, or top-down over more
 * edges than vertices) get the grid kernel's occupancy and L1: the cluster kernel's shared memory (the frontier, in
 * every block of the cluster) costs L1 on every SM, and its registers a block an SM; a bottom-up level reads a bitmap
 * of the frontier through L1 at random (1.25-1.5x slower in the cluster kernel on R-MAT at 2^22, measured). FIRST (the
 * cluster kernel) starts the search and leaves at the first heavy level; MIDDLE (the grid's kernel,
 * direction_optimizing's) goes on from there and leaves where the frontier has been small for more than BFS_TAIL_LEVELS
 * levels; LAST (the cluster kernel) ends it, whatever comes. A kernel that finds the search ended does nothing. Each
 * leaves at the top of a level, where the counters, queues and bitmaps are as the grid's loop keeps them, its place in
 * st->resume. */
enum bfs_phase { BFS_PHASE_ALONE = 0, BFS_PHASE_FIRST = 1, BFS_PHASE_MIDDLE = 2, BFS_PHASE_LAST = 3 };
/* The small levels in a row MIDDLE runs itself before it leaves the rest to LAST: a change of kernel costs about 7 us
 * (measured on an H100, R-MAT at 2^22), a small level 3-4 us more in MIDDLE than in the cluster, so a tail of one or
 * two levels (R-MAT's, a random graph's) is cheaper where it is. */
#define BFS_TAIL_LEVELS 2
/* The graphs (vertices) FIRST runs alone, its heavy levels too: their visited and frontier bitmaps (n/8 bytes each,
 * 64 KB together at 2^18) stay in the cluster kernel's L1 as in the grid kernel's, and the two changes of kernel
 * (about 7 us each) cost more than the levels they would speed up (measured on an H100 at 72c6722: wiki-Vote, 8,297
 * vertices, 0.87x direction_optimizing alone, email-Enron, 36,692, 0.94x). */
#define BFS_FIRST_ALONE_N (1 << 18)

/* Small levels by one block. A level's grid barrier and its chain of dependent reads cost some microseconds however
 * little the level holds, and a deep graph (a road network, a mesh: thousands of levels of a few hundred vertices)
 * pays them every level. While the frontier holds at most BFS_SMALL_NF queue entries and BFS_SMALL_E edges, block 0
 * runs the levels alone, a __syncthreads between them, the rest of the grid waiting at one barrier: the frontier's
 * entries in shared memory (each level's read back from the queue it wrote, still in L2), its edges BFS_SMALL_ITEMS
 * a thread in flight, each found by a search of the entries' offsets in shared memory, claimed by one atomicOr on
 * the visited bitmap, and queued as the grid queues them, places counted in shared memory. The queue in global
 * memory stays whole, so the grid takes over where the frontier grows past the limits or Beamer's rule turns to
 * bottom-up steps. Top-down only; the frontier bitmaps are left alone (the grid rebuilds the current one). */
#define BFS_SMALL_NF 4096
#define BFS_SMALL_E 8192
#define BFS_SMALL_ITEMS 8

struct bfs_small_smem {
    int beg[BFS_SMALL_NF], off[BFS_SMALL_NF];
    unsigned long long count; /* the next frontier's packed counter (bfs_out) */
};
/* Small levels by a cluster of BFS_CL blocks (the rung cluster_levels). block_levels measured the cost of one block:
 * a level of a few thousand edges takes it several rounds of dependent loads. A thread-block cluster (sm_90) gives
 * BFS_CL blocks a hardware barrier of their own (barrier.cluster: no trip through L2, no spinning) and each other's
 * shared memory (distributed shared memory), so its BFS_CL * BFS_BLOCK threads take a level of up to BFS_CL_E edges
 * in one or two rounds and pay a cluster barrier, not the grid's. Each block holds the whole frontier in its own
 * shared memory (two buffers: the level's and the next's), so that the edges' owner searches stay local; a
 * discovery's entry is written into every block's next buffer (remote stores that need no answer) at a place taken by
 * one 64-bit atomic a warp on block 0's packed counter (bfs_out's packing, in shared memory: a DSMEM atomic), and into
 * the global queue too, so that the grid can take over where the frontier grows past the limits. The claim (an
 * atomicOr on the visited bitmap) and the new vertex's row pointers are read together, not one after the other: a
 * level's chain is one search in shared memory, the column index, then the claim and the row pointers at once, the
 * atomic and the stores, and the barrier. Where the graph's row pointers and column indices fit in half the L2, they
 * are prefetched into it at the start (the small levels' loads then hit L2, not DRAM); where they do not, each new
 * vertex's list (its first 128 edges) is asked of L2 when the vertex is queued, a level before its edges are read. */
#define BFS_CL 8          /* the cluster's blocks (the portable largest) */
/* The cluster rung's blocks an SM: at four (64 registers a thread) the kernel, with the cluster's levels inlined into it,
 * spilled in the grid's top-down and bottom-up loops (216 bytes, by ptxas); at three it has 80 and spills only at the
 * levels' edges. */
#define BFS_CL_PER_SM 3
#define BFS_CL_NF 2048    /* frontier entries each block holds */
#define BFS_CL_ITEMS 4    /* edges a thread a round */
#define BFS_CL_E (2 * BFS_CL * BFS_BLOCK * BFS_CL_ITEMS) /* edges a small level: two rounds */

struct bfs_cl_smem {
    int beg[2][BFS_CL_NF];
    unsigned short off[2][BFS_CL_NF]; /* a level the cluster reads has at most BFS_CL_E edges */
    unsigned long long count[3];      /* block 0's: the cluster's packed counters, rotating as the grid's */
    int wbeg[BFS_BLOCK / 32][32 * BFS_CL_ITEMS]; /* a warp's new entries of a round, in their order */
    unsigned short woff[BFS_BLOCK / 32][32 * BFS_CL_ITEMS];
};
static_assert(BFS_CL_E <= 65536, "the cluster's entry offsets are 16-bit");

enum bfs_small_mode { BFS_GRID_LEVELS = 0, BFS_BLOCK_LEVELS = 1, BFS_CLUSTER_LEVELS = 2 };
/* A block's shared memory: the grid's levels' room (sm) and the small levels' (ss). Block 0's small levels use both;
 * the cluster's overlays the grid's (a block in cluster 0 uses one or the other, a barrier between: shared memory
 * taken from L1 is L1 the grid's levels lose). */
template <int MODE> struct bfs_rooms {
    bfs_smem sm;
    int ss; /* the grid's levels only: no small levels */
};
template <> struct bfs_rooms<BFS_BLOCK_LEVELS> {
    bfs_smem sm;
    bfs_small_smem ss;
};
template <> struct bfs_rooms<BFS_CLUSTER_LEVELS> {
    union {
        bfs_smem sm;
        bfs_cl_smem ss;
    };
};

/* Beamer's rule, top-down to bottom-up: the frontier's edges past 1/14 of the unvisited vertices' edges, and the
 * frontier grown (nf vertices against last_nf). */
__device__ __forceinline__ bool bfs_turns_bottom_up(int nf, int E, long long unvisited, int last_nf)
{
    return E > unvisited / 14 && nf > last_nf;
}

/* Whether the levels from here go to block 0: a top-down level within the limits. */
__device__ __forceinline__ bool bfs_small(bool bottom, int nf, int E)
{
    return !bottom && nf <= BFS_SMALL_NF && E <= BFS_SMALL_E;
}

/* One thread of the block (or cluster) that ran the small levels, as it leaves them at level cur, whose frontier (packed
 * counter cnt) is in queue arrays `parity`: the frontier's counter where the grid expects it (slot cur % 3, the next
 * slot zeroed), the levels it ran counted, and where the grid goes on (st->resume; done: the search ended). */
__device__ __forceinline__ void bfs_small_leave(bfs_state *st, unsigned long long cnt, int cur, int depth, int last_nf,
                                                int parity, long long unvisited, int levels)
{
    st->count[cur % 3] = cnt;
    st->count[(cur + 1) % 3] = 0;
    st->block_levels += levels;
    const bfs_resume r = {unvisited, cur, depth, last_nf, parity, bfs_count_vertices(cnt) == 0};
    st->resume = r;
}

/* Block 0, every thread: levels cur, cur + 1, ... while bfs_small holds and Beamer's rule stays top-down (the first
 * level is the grid's to decide, and has decided so). The frontier of level cur is in queue arrays `parity` (0: qa
 * and qoa, 1: qb and qob), its counter in st->count[cur % 3]. Leaves st->resume, and the frontier where
 * it stopped as the grid expects it: its counter in slot cur % 3, the next slot zeroed. */
__device__ void bfs_small_levels(const bfs_best_args &a, bfs_state *st, int cur, long long unvisited, int last_nf,
                                 int parity, bfs_smem *sm, bfs_small_smem *ss)
{
    unsigned long long cnt = ((volatile unsigned long long *)st->count)[cur % 3];
    int depth = cur, levels = 0;
    for (bool first = true;; first = false) {
        const int nf = bfs_count_vertices(cnt), E = bfs_count_edges(cnt);
        const bool leave = nf == 0 || (!first && (!bfs_small(false, nf, E) ||
                                                  (a.in_rp && bfs_turns_bottom_up(nf, E, unvisited, last_nf))));
        if (leave) {
            if (threadIdx.x == 0)
                bfs_small_leave(st, cnt, cur, depth, last_nf, parity, unvisited, levels);
            return;
        }
        depth = cur + 1;
        last_nf = nf;
        const int *q = parity ? a.qb : a.qa, *qo = parity ? a.qob : a.qoa;
        for (int i = threadIdx.x; i < nf; i += BFS_BLOCK) {
            ss->beg[i] = q[i];
            ss->off[i] = qo[i];
        }
        if (threadIdx.x == 0)
            ss->count = 0;
        __syncthreads();
        const bfs_out o = {parity ? a.qa : a.qb, parity ? a.qoa : a.qob, &ss->count, a.rp};
        bfs_wbuf wb = bfs_wbuf_of(sm);
        for (int k0 = 0; k0 < E; k0 += BFS_BLOCK * BFS_SMALL_ITEMS) {
            int u[BFS_SMALL_ITEMS];
#pragma unroll
            for (int it = 0; it < BFS_SMALL_ITEMS; it++) {
                const int k = k0 + it * BFS_BLOCK + (int)threadIdx.x;
                u[it] = -1;
                if (k < E) {
                    const int at = bfs_owner(ss->off, nf, k);
                    u[it] = a.ci[ss->beg[at] + k - ss->off[at]];
                }
            }
            unsigned old[BFS_SMALL_ITEMS]; /* the atomics all in flight before any result is used */
#pragma unroll
            for (int it = 0; it < BFS_SMALL_ITEMS; it++)
                old[it] = u[it] >= 0 ? atomicOr(&a.vis[u[it] >> 5], 1u << (u[it] & 31)) : ~0u;
#pragma unroll
            for (int it = 0; it < BFS_SMALL_ITEMS; it++) {
                const bool c = !(old[it] >> (u[it] & 31) & 1);
                if (c)
                    a.level[u[it]] = cur + 1;
                bfs_push(c, u[it], wb, o);
            }
        }
        bfs_wbuf_done(wb, o);
        __syncthreads();
        cnt = ss->count;
        if (threadIdx.x == 0 && cur < BFS_TIMED)
            st->t[cur + 1] = climb_globaltimer();
        unvisited -= bfs_count_edges(cnt);
        parity ^= 1;
        cur++;
        levels++;
        __syncthreads(); /* every thread has read the counter and the entries before the next level resets them */
    }
}

/* Whether the levels from here go to cluster 0: a top-down level within its limits. */
__device__ __forceinline__ bool bfs_cl_small(bool bottom, int nf, int E)
{
    return !bottom && nf <= BFS_CL_NF && E <= BFS_CL_E;
}

/* A cluster round's writes to global memory: each claimed vertex's level (u >= 0), and each queued one's entry (rb >= 0)
 * at the places from slot0 and offsets from o0 that the round's atomic gave this thread, for the grid to take over;
 * ahead: its list's first lines (4: 128 edges) asked of L2, a level before they are read. */
__device__ __forceinline__ void bfs_cl_global(const bfs_best_args &a, const int (&u)[BFS_CL_ITEMS],
                                              const int (&rb)[BFS_CL_ITEMS], const int (&re)[BFS_CL_ITEMS], int slot,
                                              int o, int *qout, int *qoout, int next, bool ahead)
{
#pragma unroll
    for (int it = 0; it < BFS_CL_ITEMS; it++) {
        if (u[it] < 0)
            continue;
        a.level[u[it]] = next;
        if (rb[it] < 0)
            continue;
        qout[slot] = rb[it];
        a.qv[slot] = u[it];
        qoout[slot] = o;
        slot++;
        o += re[it] - rb[it];
        if (ahead)
            for (int e = rb[it] & ~31; e < re[it] && e < (rb[it] & ~31) + 128; e += 32)
                asm volatile("prefetch.global.L2 [%0];" ::"l"(a.ci + e));
    }
}

/* Cluster 0's blocks, every thread: levels cur, cur + 1, ... while bfs_cl_small holds and Beamer's rule stays
 * top-down, as bfs_small_levels (the same entry and the same st->resume on leaving). Level j of the cluster's run
 * reads buffer j % 2 and its packed counter (block 0's count[j % 3]), fills buffer (j + 1) % 2 and count[(j + 1) % 3],
 * and block 0 clears count[(j + 2) % 3]: one cluster barrier a level. */
__device__ void bfs_cluster_levels(const bfs_best_args &a, bfs_state *st, int cur, long long unvisited, int last_nf,
                                   int parity, bfs_cl_smem *ss, bool ahead)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cg::cluster_group cl = cg::this_cluster();
    const int rank = (int)cl.block_rank(), lane = threadIdx.x & 31;
    bfs_cl_smem *c0 = cl.map_shared_rank(ss, 0);
    unsigned long long cnt = ((volatile unsigned long long *)st->count)[cur % 3];
    { /* the entry frontier (within the limits: the grid checked) into this block's buffer 0 */
        const int nf = bfs_count_vertices(cnt);
        const int *q = parity ? a.qb : a.qa, *qo = parity ? a.qob : a.qoa;
        for (int i = threadIdx.x; i < nf; i += BFS_BLOCK) {
            ss->beg[0][i] = q[i];
            ss->off[0][i] = (unsigned short)qo[i];
        }
        if (threadIdx.x == 0)
            ss->count[0] = ss->count[1] = ss->count[2] = 0;
    }
    cl.sync(); /* every buffer filled, every counter zero */
    int depth = cur, levels = 0;
    for (int j = 0;; j++) {
        if (j > 0) {
            cnt = c0->count[j % 3];
            unvisited -= bfs_count_edges(cnt);
            if (rank == 0 && threadIdx.x == 0 && cur <= BFS_TIMED) /* level cur's start: t has BFS_TIMED + 1 */
                st->t[cur] = climb_globaltimer();
        }
        const int nf = bfs_count_vertices(cnt), E = bfs_count_edges(cnt);
        const bool leave = nf == 0 || (j > 0 && (!bfs_cl_small(false, nf, E) ||
                                                 (a.in_rp && bfs_turns_bottom_up(nf, E, unvisited, last_nf))));
        if (leave) {
            if (rank == 0 && threadIdx.x == 0)
                bfs_small_leave(st, cnt, cur, depth, last_nf, parity, unvisited, levels);
            cl.sync(); /* no block leaves while another may still read its shared memory */
            return;
        }
        depth = cur + 1;
        last_nf = nf;
        if (rank == 0 && threadIdx.x == 0)
            ss->count[(j + 2) % 3] = 0;
        const int *beg = ss->beg[j & 1];
        const unsigned short *off = ss->off[j & 1];
        int *qout = parity ? a.qa : a.qb, *qoout = parity ? a.qoa : a.qob;
        unsigned long long *nc = &c0->count[(j + 1) % 3];
        const int nb = (j + 1) & 1;
        const int T = BFS_CL * BFS_BLOCK, g = rank * BFS_BLOCK + (int)threadIdx.x;
        int u[BFS_CL_ITEMS], rb[BFS_CL_ITEMS], re[BFS_CL_ITEMS], slot0 = 0, o0 = 0;
        for (int k0 = 0; k0 < E; k0 += T * BFS_CL_ITEMS) {
            if (k0 > 0) /* an earlier round's writes to global memory, at once (the last round's wait, below) */
                bfs_cl_global(a, u, rb, re, slot0, o0, qout, qoout, cur + 1, ahead);
#pragma unroll
            for (int it = 0; it < BFS_CL_ITEMS; it++) {
                const int k = k0 + it * T + g;
                u[it] = -1;
                if (k < E) {
                    const int at = bfs_owner(off, nf, k);
                    u[it] = a.ci[beg[at] + k - off[at]];
                }
            }
            unsigned old[BFS_CL_ITEMS]; /* the claims, and the row pointers read with them, not after them */
#pragma unroll
            for (int it = 0; it < BFS_CL_ITEMS; it++) {
                old[it] = ~0u;
                rb[it] = re[it] = 0;
                if (u[it] >= 0) {
                    old[it] = atomicOr(&a.vis[u[it] >> 5], 1u << (u[it] & 31));
                    rb[it] = __ldg(&a.rp[u[it]]);
                    re[it] = __ldg(&a.rp[u[it] + 1]);
                }
            }
            int mine = 0, medges = 0; /* this thread's new entries (vertices with out-edges) and their edges */
#pragma unroll
            for (int it = 0; it < BFS_CL_ITEMS; it++) {
                if (u[it] >= 0 && (old[it] >> (u[it] & 31) & 1))
                    u[it] = -1; /* not ours: someone claimed it first */
                if (u[it] < 0 || re[it] == rb[it])
                    rb[it] = -1; /* nothing to queue */
                else {
                    mine++;
                    medges += re[it] - rb[it];
                }
            }
            const unsigned long long pk = (unsigned long long)mine << 32 | (unsigned)medges;
            const unsigned long long before = climb_warp_exclusive_scan<climb_op_sum>(pk);
            const unsigned long long total = __shfl_sync(BFS_FULL, before + pk, 31);
            unsigned long long base = 0;
            if (lane == 0 && total)
                base = atomicAdd(nc, total);
            base = __shfl_sync(BFS_FULL, base, 0) + before;
            slot0 = bfs_count_vertices(base);
            o0 = bfs_count_edges(base);
            /* the warp's entries are slots wb .. wb + wn - 1: staged here in their order, then written into every
               block's next buffer by the warp's lanes together (32 consecutive entries a store), not one entry a
               thread at a time: each block takes in the whole frontier, and scattered remote stores made a level's
               cost grow with its width */
            const int warp = (int)threadIdx.x >> 5, wb = __shfl_sync(BFS_FULL, slot0, 0), wn = (int)(total >> 32);
            int slot = slot0, o = o0;
#pragma unroll
            for (int it = 0; it < BFS_CL_ITEMS; it++) {
                if (rb[it] < 0)
                    continue;
                ss->wbeg[warp][slot - wb] = rb[it];
                ss->woff[warp][slot - wb] = (unsigned short)o; /* wraps only in a level too large to read */
                slot++;
                o += re[it] - rb[it];
            }
            __syncwarp();
            const int wfit = wn < BFS_CL_NF - wb ? wn : BFS_CL_NF - wb; /* past BFS_CL_NF: the level leaves */
            for (int r = 0; r < BFS_CL; r++) {
                bfs_cl_smem *p = cl.map_shared_rank(ss, r);
                for (int i = lane; i < wfit; i += 32) {
                    p->beg[nb][wb + i] = ss->wbeg[warp][i];
                    p->off[nb][wb + i] = ss->woff[warp][i];
                }
            }
            __syncwarp(); /* the staging read before the next round writes it */
        }
        /* the barrier split: arrive (releasing the shared-memory writes and the counters the next level reads), then
           the last round's writes to global memory, which no block of the cluster reads (the levels are the output;
           the queue is the grid's, after its own barrier), so the arrival does not wait for them */
        cg::cluster_group::arrival_token token = cl.barrier_arrive();
        bfs_cl_global(a, u, rb, re, slot0, o0, qout, qoout, cur + 1, ahead);
        cl.barrier_wait(std::move(token));
        parity ^= 1;
        cur++;
        levels++;
    }
#else
    __trap(); /* the rung refuses GPUs without clusters (bfs_refuses) */
#endif
}

/* The queue arrays a level reads (qin, its offsets qoin) and fills (qout, qoout) when its frontier is in side
 * `parity` (0: qa and qoa, 1: qb and qob). */
__device__ __forceinline__ void bfs_queues_of(const bfs_best_args &a, int parity, int *&qin, int *&qout, int *&qoin,
                                              int *&qoout)
{
    qin = parity ? a.qb : a.qa;
    qout = parity ? a.qa : a.qb;
    qoin = parity ? a.qob : a.qoa;
    qoout = parity ? a.qoa : a.qob;
}

template <int MODE>
__global__ void __launch_bounds__(BFS_BLOCK, MODE == BFS_CLUSTER_LEVELS ? BFS_CL_PER_SM : BFS_BEST_PER_SM)
    bfs_best_kernel(bfs_best_args a)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ bfs_rooms<MODE> rooms;
    bfs_smem &sm = rooms.sm;
    auto &ss = rooms.ss;
    const long long gt = (long long)blockIdx.x * BFS_BLOCK + threadIdx.x, gsize = (long long)gridDim.x * BFS_BLOCK;
    const int n = a.n, lane = threadIdx.x & 31;
    bfs_state *st = a.st;
    const long long m = a.rp[n];
    const bool whole = MODE == BFS_CLUSTER_LEVELS && ((long long)n + 1 + m) * (long long)sizeof(int) <= a.l2_bytes / 2;
    bool bottom = false;
    int *qin = a.qa, *qout = a.qb, *qoin = a.qoa, *qoout = a.qob, depth = 0, last_nf = 0, cur0 = 0, small_run = 0;
    long long unvisited;
    if (a.phase == BFS_PHASE_MIDDLE || a.phase == BFS_PHASE_LAST) { /* go on where the kernel before left */
        const bfs_resume r = st->resume;
        if (r.done)
            return;
        unvisited = r.unvisited;
        cur0 = r.cur;
        depth = r.depth;
        last_nf = r.last_nf;
        bfs_queues_of(a, r.parity, qin, qout, qoin, qoout);
    } else { /* the search's start */
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
        if (whole) { /* a line of 128 bytes a prefetch */
            for (long long i = gt * 32; i <= n; i += gsize * 32)
                asm volatile("prefetch.global.L2 [%0];" ::"l"(a.rp + i));
            for (long long i = gt * 32; i < m; i += gsize * 32)
                asm volatile("prefetch.global.L2 [%0];" ::"l"(a.ci + i));
        }
        unvisited = m - sdeg;
        if (gt == 0) {
            a.qa[0] = a.rp[a.source];
            a.qoa[0] = 0;
            st->count[0] = sdeg > 0 ? 1ull << 32 | (unsigned)sdeg : 0ull;
            st->count[1] = st->count[2] = 0;
            st->bottom_up_levels = 0;
            st->bottom_up_mask = 0;
            st->block_levels = 0;
        }
        grid.sync();
        if (gt == 0)
            st->t[0] = climb_globaltimer();
    }
    for (int cur = cur0;; cur++) {
        const int now = cur % 3, nxt = (cur + 1) % 3, clr = (cur + 2) % 3;
        const unsigned long long cnt = ((volatile unsigned long long *)st->count)[now];
        const int nf = bfs_count_vertices(cnt), E = bfs_count_edges(cnt);
        if (nf == 0)
            break;
        depth = cur + 1;
        if (a.in_rp) {
            if (!bottom && bfs_turns_bottom_up(nf, E, unvisited, last_nf)) /* large and growing */
                bottom = true;
            else if (bottom && nf < n / 24 && nf < last_nf) /* small and shrinking */
                bottom = false;
        }
        small_run = bfs_cl_small(bottom, nf, E) ? small_run + 1 : 0;
        if ((a.phase == BFS_PHASE_FIRST && n > BFS_FIRST_ALONE_N &&
             (bottom || ((long long)E >= n && !bfs_cl_small(false, nf, E)))) ||
            (a.phase == BFS_PHASE_MIDDLE && small_run > BFS_TAIL_LEVELS)) { /* the next kernel's level */
            if (gt == 0) {
                const bfs_resume r = {unvisited, cur, depth, last_nf, qin == a.qa ? 0 : 1, 0};
                st->resume = r;
            }
            return;
        }
        if constexpr (MODE != BFS_GRID_LEVELS) {
            const bool small = MODE == BFS_BLOCK_LEVELS ? bfs_small(bottom, nf, E) : bfs_cl_small(bottom, nf, E);
            if (small) { /* block 0 (cluster 0) takes the levels; the grid waits, then goes on where it left */
                const int nsmall = MODE == BFS_BLOCK_LEVELS ? 1 : BFS_CL; /* the blocks that run them */
                if (blockIdx.x < nsmall) {
                    if constexpr (MODE == BFS_BLOCK_LEVELS)
                        bfs_small_levels(a, st, cur, unvisited, last_nf, qin == a.qa ? 0 : 1, &sm, &ss);
                    else
                        bfs_cluster_levels(a, st, cur, unvisited, last_nf, qin == a.qa ? 0 : 1, &ss, !whole);
                } else if (a.in_rp) {
                    /* the other blocks, idle meanwhile, clear the two frontier bitmaps the small levels leave stale
                       (this level's and the one after next; the next is clear): the grid takes over with all three
                       clear */
                    const long long t = (long long)(blockIdx.x - nsmall) * BFS_BLOCK + threadIdx.x,
                                    ts = (long long)(gridDim.x - nsmall) * BFS_BLOCK;
                    for (long long w = t; w < a.words; w += ts) {
                        a.front[(size_t)now * a.words + w] = 0;
                        a.front[(size_t)clr * a.words + w] = 0;
                    }
                }
                grid.sync();
                const bfs_resume r = st->resume; /* written before the barrier */
                depth = r.depth;
                if (r.done)
                    break;
                unvisited = r.unvisited;
                last_nf = r.last_nf;
                bfs_queues_of(a, r.parity, qin, qout, qoin, qoout);
                if (a.in_rp) {
                    /* The frontier bitmaps the small levels did not keep. A top-down level r.cur needs only its next
                       slot clear (it writes the bits of level r.cur + 1 there; the slot after is cleared in the
                       level, as always); a bottom-up one reads level r.cur's bits, rebuilt from the cluster's list
                       of them (block_levels: from the levels, a pass over every vertex), the other slots clear. The
                       rule is the loop's, on the same counts. All three are clear already where other blocks than
                       the small levels' ran (above). */
                    const bool clear = (int)gridDim.x > nsmall;
                    const unsigned long long rc = ((volatile unsigned long long *)st->count)[r.cur % 3];
                    if (bfs_turns_bottom_up(bfs_count_vertices(rc), bfs_count_edges(rc), r.unvisited, r.last_nf)) {
                        if (!clear) {
                            for (long long w = gt; w < 3ll * a.words; w += gsize)
                                a.front[w] = 0;
                            grid.sync();
                        }
                        unsigned *f = a.front + (size_t)(r.cur % 3) * a.words;
                        if constexpr (MODE == BFS_CLUSTER_LEVELS) {
                            /* the cluster's last level listed its vertices (those with out-edges: no other can be
                               a parent) */
                            for (long long i = gt; i < bfs_count_vertices(rc); i += gsize) {
                                const int v = a.qv[i];
                                atomicOr(&f[v >> 5], 1u << (v & 31));
                            }
                        } else {
                            for (long long v = gt; v < n; v += gsize)
                                if (a.level[v] == r.cur)
                                    atomicOr(&f[v >> 5], 1u << (v & 31));
                        }
                        grid.sync();
                    } else if (!clear) {
                        for (long long w = gt; w < a.words; w += gsize)
                            a.front[(size_t)((r.cur + 1) % 3) * a.words + w] = 0;
                        grid.sync();
                    }
                }
                cur = r.cur - 1; /* the loop's step brings it to r.cur */
                continue;
            }
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
    if (gt == 0) {
        st->depth = depth;
        st->resume.done = 1; /* the kernels after this one have nothing to do */
    }
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

#endif
