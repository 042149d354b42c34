/* The quadtree's kernels of the rungs driven from the host and of the sorted-code rungs (src/workloads/quadtree/):
 * the codes, a level's splits, counts and moves, the children found in a sorted range, and the best rung's tally,
 * scan and emit. The device-launching rung's are in kernels.cuh. */
#ifndef CLIMB_WORKLOADS_QUADTREE_LEVELS_CUH
#define CLIMB_WORKLOADS_QUADTREE_LEVELS_CUH

#include "../../device/device_primitives.cuh"
#include "kernels.cuh"

/* Every point's code, its index (the sort's values, and the level-by-level build's first order) and its node (the
 * root). */
__global__ void qt_code_kernel(const float *__restrict__ x, const float *__restrict__ y, int n, uint32_t *code,
                               int *idx, int *pnode)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        code[i] = climb_qt_spread(qt_cell(x[i])) | climb_qt_spread(qt_cell(y[i])) << 1;
        idx[i] = i;
        if (pnode)
            pnode[i] = 0;
    }
}

__global__ void qt_root_kernel(climb_qt_node *nodes, int n)
{
    const climb_qt_node r = {0u, 0, -1, 0, n};
    nodes[0] = r;
}

/* A level's nodes lo .. lo + count - 1: 1 for each that splits (more than leaf_points points, above max_depth). */
__global__ void qt_split_kernel(const climb_qt_node *nodes, int lo, int count, int leaf, int max_depth, int *flag)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < count) {
        const climb_qt_node nd = nodes[lo + j];
        flag[j] = nd.end - nd.begin > leaf && nd.level < max_depth;
    }
}

/* level_by_level: each point of a splitting node of the level counted into its child's quadrant. The child's slot:
 * 4 rank + quadrant, rank the node's among the level's splitting nodes (the scan of the flags). */
__global__ void qt_count_kernel(const uint32_t *__restrict__ code, const int *__restrict__ pnode, int n, int lo,
                                int count, int level, const int *flag, const int *rank, int *qcount)
{
    for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += gridDim.x * blockDim.x) {
        const int j = pnode[p] - lo;
        if (j >= 0 && j < count && flag[j])
            atomicAdd(&qcount[4 * rank[j] + (int)(code[p] >> (2 * (CLIMB_QT_BITS - 1 - level)) & 3u)], 1);
    }
}

/* Each splitting node of the level writes its four children (after hi, in the order of the splitting nodes: Z order
 * within the level) and links to them. level_by_level: the bounds from the quadrants' counts, which become the
 * children's cursors for the points' move. morton_sort (sc given): the bounds by a binary search of the node's range
 * of sorted codes. */
__global__ void qt_children_kernel(climb_qt_node *nodes, int lo, int count, int hi, const int *flag, const int *rank,
                                   int *qcount, const uint32_t *__restrict__ sc)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= count || !flag[j])
        return;
    climb_qt_node nd = nodes[lo + j];
    const int c0 = hi + 4 * rank[j];
    nodes[lo + j].first_child = c0;
    int at = nd.begin;
    for (int q = 0; q < 4; q++) {
        const uint32_t cc = nd.code << 2 | (uint32_t)q;
        int stop;
        if (sc) {
            stop = nd.end;
            if (q < 3) /* the first sorted code at or past the next quadrant's prefix */
                stop = climb_qt_lower(sc, at, nd.end, nd.level + 1, cc + 1);
        } else {
            stop = at + qcount[4 * rank[j] + q];
            qcount[4 * rank[j] + q] = at; /* the cursor where the child's points go */
        }
        const climb_qt_node ch = {cc, nd.level + 1, -1, at, stop};
        nodes[c0 + q] = ch;
        at = stop;
    }
}

/* level_by_level: each point of a splitting node moves into its child's range (a slot from the child's cursor),
 * and now belongs to the child. The ranges partition the parent's, so no other point's slot is touched. */
__global__ void qt_move_kernel(const uint32_t *__restrict__ code, int *pnode, int n, int lo, int count, int hi,
                               int level, const int *flag, const int *rank, int *cursor, int *order)
{
    for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += gridDim.x * blockDim.x) {
        const int j = pnode[p] - lo;
        if (j >= 0 && j < count && flag[j]) {
            const int q = (int)(code[p] >> (2 * (CLIMB_QT_BITS - 1 - level)) & 3u);
            order[atomicAdd(&cursor[4 * rank[j] + q], 1)] = p;
            pnode[p] = hi + 4 * rank[j] + q;
        }
    }
}


/* split_scan: every level's splitting nodes from one pass over the sorted codes, with no host round trip.
 *
 * In the sorted order a node is a range, and it is named by its first point. Point i is the first of its level-L
 * node where L exceeds t, the levels it shares with point i - 1 (t = -1 for point 0). That node holds more than
 * leaf_points points when point i + leaf_points shares level L with it, so it splits at the levels L with
 * t < L <= min(u, max_depth - 1), u the levels point i shares with point i + leaf_points. A node whose parent splits
 * exists, and a node that splits has a splitting parent (its parent holds its points and more), so these levels
 * name every splitting node, each once. Canonically the children of the k-th splitting node (by level, then Z
 * order) are nodes 1 + 4k .. 1 + 4k + 3: the nodes of level L + 1 are four a splitting node of level L, in order.
 * Three kernels rank the splitting nodes by (level, first point): a tally of each tile's per level, a scan of the
 * tallies, and the emission; a fourth writes every splitting node's four children. */
#define QT_TILE_ITEMS 16
#define QT_TILE (QT_BLOCK * QT_TILE_ITEMS)
#define QT_LEVELS CLIMB_QT_BITS /* the levels a node can split at: 0 .. 15 */

/* The levels two codes share: their prefixes are equal at every level up to this (16: the same cell). */
__device__ __forceinline__ int qt_common_levels(uint32_t a, uint32_t b) { return __clz((int)(a ^ b)) >> 1; }

/* The levels at which point i (of n sorted codes) is the first point of a splitting node, as a bit mask. */
__device__ __forceinline__ unsigned qt_split_levels(const uint32_t *__restrict__ sc, int n, long long i, int leaf,
                                                    int max_depth)
{
    if (i >= n || i + leaf >= n)
        return 0u;
    const uint32_t c = sc[i];
    const int t = i > 0 ? qt_common_levels(sc[i - 1], c) : -1;
    const int s = qt_common_levels(c, sc[i + leaf]);
    const int u = s < max_depth - 1 ? s : max_depth - 1;
    if (u <= t)
        return 0u;
    return ((2u << u) - 1u) & (t >= 0 ? ~((2u << t) - 1u) : ~0u);
}

/* Each tile's splitting nodes a level: tally[L * tiles + tile]. */
__global__ void __launch_bounds__(QT_BLOCK) qt_tally_kernel(const uint32_t *__restrict__ sc, int n, int leaf,
                                                            int max_depth, int tiles, int *tally)
{
    __shared__ int count[QT_LEVELS];
    const int lane = threadIdx.x & 31;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        if (threadIdx.x < QT_LEVELS)
            count[threadIdx.x] = 0;
        __syncthreads();
        const long long base = (long long)tile * QT_TILE + threadIdx.x;
        for (int it = 0; it < QT_TILE_ITEMS; it++) {
            const unsigned m = qt_split_levels(sc, n, base + it * QT_BLOCK, leaf, max_depth);
            for (unsigned any = __reduce_or_sync(~0u, m); any; any &= any - 1) {
                const int L = __ffs((int)any) - 1;
                const unsigned b = __ballot_sync(~0u, m >> L & 1u);
                if (lane == 0)
                    atomicAdd(&count[L], __popc(b));
            }
        }
        __syncthreads();
        if (threadIdx.x < QT_LEVELS)
            tally[threadIdx.x * tiles + tile] = count[threadIdx.x];
    }
}

/* One block, a warp a level: each level's tallies scanned into the tiles' offsets within the level, and the levels'
 * starts: start[L] the splitting nodes above level L, start[QT_LEVELS] all of them. */
__global__ void __launch_bounds__(QT_LEVELS * 32) qt_tally_scan_kernel(int *tally, int tiles, int *start)
{
    __shared__ int total[QT_LEVELS];
    const int L = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int *row = tally + (size_t)L * tiles, run = 0;
    for (int b = 0; b < tiles; b += 32) {
        const int j = b + lane, v = j < tiles ? row[j] : 0;
        const int x = climb_warp_inclusive_scan<climb_op_sum>(v);
        if (j < tiles)
            row[j] = run + x - v;
        run += __shfl_sync(~0u, x, 31);
    }
    if (lane == 0)
        total[L] = run;
    __syncthreads();
    if (threadIdx.x == 0) {
        int sum = 0;
        for (int l = 0; l < QT_LEVELS; l++) {
            start[l] = sum;
            sum += total[l];
        }
        start[QT_LEVELS] = sum;
    }
}

/* Each splitting node's first point at its rank: split[start[L] + its rank within level L]; the ranks follow the
 * points' order (Z order within the level). */
__global__ void __launch_bounds__(QT_BLOCK) qt_emit_kernel(const uint32_t *__restrict__ sc, int n, int leaf,
                                                           int max_depth, int tiles, const int *__restrict__ tally,
                                                           const int *__restrict__ start, int *split)
{
    constexpr int WARPS = QT_BLOCK / 32;
    __shared__ int wcount[WARPS][QT_LEVELS];
    __shared__ int run[QT_LEVELS];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned below = (1u << lane) - 1u;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        if (threadIdx.x < QT_LEVELS)
            run[threadIdx.x] = start[threadIdx.x] + tally[threadIdx.x * tiles + tile];
        const long long base = (long long)tile * QT_TILE + threadIdx.x;
        for (int it = 0; it < QT_TILE_ITEMS; it++) {
            const long long i = base + it * QT_BLOCK;
            const unsigned m = qt_split_levels(sc, n, i, leaf, max_depth);
            const unsigned any = __reduce_or_sync(~0u, m);
            if (lane < QT_LEVELS)
                wcount[warp][lane] = 0;
            __syncwarp();
            for (unsigned a = any; a; a &= a - 1) {
                const int L = __ffs((int)a) - 1;
                const unsigned b = __ballot_sync(~0u, m >> L & 1u);
                if (lane == 0)
                    wcount[warp][L] = __popc(b);
            }
            __syncthreads();
            for (unsigned a = any; a; a &= a - 1) {
                const int L = __ffs((int)a) - 1;
                const unsigned b = __ballot_sync(~0u, m >> L & 1u);
                if (m >> L & 1u) {
                    int at = run[L] + __popc(b & below);
                    for (int w = 0; w < warp; w++)
                        at += wcount[w][L];
                    split[at] = (int)i;
                }
            }
            __syncthreads();
            if (threadIdx.x < QT_LEVELS) {
                int sum = 0;
                for (int w = 0; w < WARPS; w++)
                    sum += wcount[w][threadIdx.x];
                run[threadIdx.x] += sum;
            }
            __syncthreads();
        }
    }
}


/* The root, and each splitting node's four children: their codes, ranges (searches of the parent's range) and, for a
 * child that splits in turn, its first child (its rank among the next level's splitting nodes, by a search). */
__global__ void __launch_bounds__(QT_BLOCK) qt_nodes_kernel(const uint32_t *__restrict__ sc, int n, int leaf,
                                                            int max_depth, const int *__restrict__ start,
                                                            const int *__restrict__ split, climb_qt_node *nodes)
{
    __shared__ int st[QT_LEVELS + 1];
    if (threadIdx.x <= QT_LEVELS)
        st[threadIdx.x] = start[threadIdx.x];
    __syncthreads();
    const int K = st[QT_LEVELS];
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        const climb_qt_node root = {0u, 0, K > 0 ? 1 : -1, 0, n};
        nodes[0] = root;
    }
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < K; k += gridDim.x * blockDim.x) {
        int L = 0;
        while (L + 1 < QT_LEVELS && st[L + 1] <= k)
            L++;
        const int i = split[k];
        const uint32_t pfx = qt_prefix(sc[i], L);
        const int end = climb_qt_lower(sc, i + leaf + 1, n, L, pfx + 1);
        int b = i;
        for (int q = 0; q < 4; q++) {
            const uint32_t cc = pfx << 2 | (uint32_t)q;
            const int e = q < 3 ? climb_qt_lower(sc, b, end, L + 1, cc + 1) : end;
            int fc = -1;
            if (e - b > leaf && L + 1 < max_depth) { /* it splits: its rank among level L + 1's splitting nodes */
                int lo = st[L + 1], hi = st[L + 2];
                while (lo < hi) {
                    const int mid = lo + (hi - lo) / 2;
                    if (split[mid] < b)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                fc = 1 + 4 * lo;
            }
            const climb_qt_node ch = {cc, L + 1, fc, b, e};
            nodes[1 + 4 * k + q] = ch;
            b = e;
        }
    }
}

#endif
