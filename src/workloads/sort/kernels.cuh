/* Merge sort's kernels (src/workloads/sort/), one group per rung: the co-rank merge a thread per output, the block
 * sort in shared memory, the tiled and circular-buffer merges, and the best rung's register sort and merge path. */
#ifndef CLIMB_WORKLOADS_SORT_KERNELS_CUH
#define CLIMB_WORKLOADS_SORT_KERNELS_CUH

#include "../../device/device_primitives.cuh"
#include "sort.h"

typedef uint32_t u32;

/* ---------------------------------------------------------------- kernels */

/* What every pass of every rung reads and writes: keys, and values when PAIRS. A run of `w` sorted keys starts at
 * every multiple of w; a merge pass makes runs of 2 w. The pair of runs output position k belongs to starts at
 * (k / 2w) 2w; its first run (a) has min(w, n - start) keys, its second (b) the rest up to 2 w. */
struct sort_pair_of_runs {
    long long start;
    int m, nb;
};

__host__ __device__ __forceinline__ sort_pair_of_runs sort_runs_at(long long k, long long w, long long n)
{
    sort_pair_of_runs p;
    p.start = (k / (2 * w)) * (2 * w);
    const long long left = n - p.start;
    p.m = (int)(left < w ? (left > 0 ? left : 0) : w);
    const long long rest = left - p.m;
    p.nb = (int)(rest < w ? (rest > 0 ? rest : 0) : w);
    return p;
}

/* --- rung corank_naive: a thread per output, its element found by the co-rank (the book's basic merge, one output
 * a thread), over doubling run lengths from 1. log2(n) passes over the whole array. */
template <bool PAIRS>
__global__ void sort_merge_naive_kernel(const u32 *__restrict__ ki, const u32 *__restrict__ vi, u32 *__restrict__ ko,
                                        u32 *__restrict__ vo, long long n, long long w)
{
    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n)
        return;
    const sort_pair_of_runs p = sort_runs_at(k, w, n);
    const u32 *a = ki + p.start, *b = a + p.m;
    const int kk = (int)(k - p.start);
    const int i = climb_co_rank(kk, a, p.m, b, p.nb), j = kk - i;
    const bool from_a = i < p.m && (j >= p.nb || a[i] <= b[j]);
    ko[k] = from_a ? a[i] : b[j];
    if (PAIRS)
        vo[k] = from_a ? vi[p.start + i] : vi[p.start + p.m + j];
}

/* --- rung block_sort: tiles of SORT_SMEM_TILE keys sorted by one block in shared memory (the same co-rank merge,
 * log2(tile) rounds without leaving the SM), then the naive passes from that run length. */
#define SORT_SMEM_BLOCK 256
#define SORT_SMEM_TILE 1024

template <bool PAIRS>
__global__ void __launch_bounds__(SORT_SMEM_BLOCK)
    sort_block_smem_kernel(const u32 *__restrict__ ki, const u32 *__restrict__ vi, u32 *ko, u32 *vo, long long n)
{
    __shared__ u32 sk[2][SORT_SMEM_TILE];
    __shared__ u32 sv[PAIRS ? 2 : 1][PAIRS ? SORT_SMEM_TILE : 1];
    const long long base = (long long)blockIdx.x * SORT_SMEM_TILE;
    const int len = (int)(n - base < SORT_SMEM_TILE ? n - base : SORT_SMEM_TILE);
    for (int x = threadIdx.x; x < len; x += SORT_SMEM_BLOCK) {
        sk[0][x] = ki[base + x];
        if (PAIRS)
            sv[0][x] = vi[base + x];
    }
    __syncthreads();
    int cur = 0;
    for (int w = 1; w < len; w *= 2) {
        for (int k = threadIdx.x; k < len; k += SORT_SMEM_BLOCK) {
            const sort_pair_of_runs p = sort_runs_at(k, w, len);
            const u32 *a = sk[cur] + p.start, *b = a + p.m;
            const int kk = k - (int)p.start;
            const int i = climb_co_rank(kk, a, p.m, b, p.nb), j = kk - i;
            const bool from_a = i < p.m && (j >= p.nb || a[i] <= b[j]);
            sk[cur ^ 1][k] = from_a ? a[i] : b[j];
            if (PAIRS)
                sv[cur ^ 1][k] = from_a ? sv[cur][p.start + i] : sv[cur][p.start + p.m + j];
        }
        __syncthreads();
        cur ^= 1;
    }
    for (int x = threadIdx.x; x < len; x += SORT_SMEM_BLOCK) {
        ko[base + x] = sk[cur][x];
        if (PAIRS)
            vo[base + x] = sv[cur][x];
    }
}

/* --- rungs tiled_merge and circular_buffer: a block merges SORT_TILED_CHUNK outputs of a pair of runs. Its two ends'
 * co-ranks give the ranges of a and b it consumes; it walks them SORT_TILED_TS keys of each at a time through shared
 * memory, each thread merging SORT_TILED_TS / block outputs of every step after a co-rank within the tiles. The
 * tiled merge loads both tiles whole each step (what the last step left unconsumed is loaded again); the circular
 * buffer keeps the unconsumed keys and loads only as many as the step used (the book's refinement). */
#define SORT_TILED_BLOCK 256
#define SORT_TILED_TS 1024
#define SORT_TILED_CHUNK 2048 /* divides 2 w for every pass: the passes start at w = SORT_SMEM_TILE */

/* A circular buffer's view: element x of the logical sequence is buf[(head + x) % size]; size a power of two. */
struct sort_ring {
    const u32 *buf;
    int head;
    __device__ __forceinline__ u32 operator[](int x) const { return buf[(head + x) & (SORT_TILED_TS - 1)]; }
};

template <bool PAIRS, bool CIRCULAR>
__global__ void __launch_bounds__(SORT_TILED_BLOCK)
    sort_merge_tiled_kernel(const u32 *__restrict__ ki, const u32 *__restrict__ vi, u32 *__restrict__ ko,
                            u32 *__restrict__ vo, long long n, long long w)
{
    __shared__ u32 sa[SORT_TILED_TS], sb[SORT_TILED_TS];
    __shared__ u32 sva[PAIRS ? SORT_TILED_TS : 1], svb[PAIRS ? SORT_TILED_TS : 1];
    __shared__ int ends[2];
    const long long k0 = (long long)blockIdx.x * SORT_TILED_CHUNK;
    const long long k1 = k0 + SORT_TILED_CHUNK < n ? k0 + SORT_TILED_CHUNK : n;
    const sort_pair_of_runs p = sort_runs_at(k0, w, n);
    const u32 *a = ki + p.start, *b = a + p.m;
    if (threadIdx.x < 2) {
        const int kk = (int)((threadIdx.x ? k1 : k0) - p.start);
        ends[threadIdx.x] = climb_co_rank(kk, a, p.m, b, p.nb);
    }
    __syncthreads();
    const int a0 = ends[0], a1 = ends[1];
    const int b0 = (int)(k0 - p.start) - a0, b1 = (int)(k1 - p.start) - a1;
    const int total = (int)(k1 - k0);
    int used_a = 0, used_b = 0;       /* consumed of a's range and b's */
    int head_a = 0, head_b = 0;       /* circular: where the unconsumed keys start in the buffers */
    int have_a = 0, have_b = 0;       /* circular: unconsumed keys in the buffers; loaded so far: used + have */
    for (int done = 0; done < total;) {
        /* stage: the tiled merge loads both tiles whole; the circular buffer tops them up */
        const int left_a = a1 - a0 - used_a, left_b = b1 - b0 - used_b;
        const int len_a = left_a < SORT_TILED_TS ? left_a : SORT_TILED_TS;
        const int len_b = left_b < SORT_TILED_TS ? left_b : SORT_TILED_TS;
        if (CIRCULAR) {
            for (int x = have_a + (int)threadIdx.x; x < len_a; x += SORT_TILED_BLOCK) {
                const int at = (head_a + x) & (SORT_TILED_TS - 1);
                sa[at] = a[a0 + used_a + x];
                if (PAIRS)
                    sva[at] = vi[p.start + a0 + used_a + x];
            }
            for (int x = have_b + (int)threadIdx.x; x < len_b; x += SORT_TILED_BLOCK) {
                const int at = (head_b + x) & (SORT_TILED_TS - 1);
                sb[at] = b[b0 + used_b + x];
                if (PAIRS)
                    svb[at] = vi[p.start + p.m + b0 + used_b + x];
            }
        } else {
            for (int x = threadIdx.x; x < len_a; x += SORT_TILED_BLOCK) {
                sa[x] = a[a0 + used_a + x];
                if (PAIRS)
                    sva[x] = vi[p.start + a0 + used_a + x];
            }
            for (int x = threadIdx.x; x < len_b; x += SORT_TILED_BLOCK) {
                sb[x] = b[b0 + used_b + x];
                if (PAIRS)
                    svb[x] = vi[p.start + p.m + b0 + used_b + x];
            }
        }
        __syncthreads();
        const sort_ring ra = {sa, CIRCULAR ? head_a : 0}, rb = {sb, CIRCULAR ? head_b : 0};
        /* this step's outputs: as many as one tile holds, or what is left */
        const int step = total - done < SORT_TILED_TS ? total - done : SORT_TILED_TS;
        const int per = step / SORT_TILED_BLOCK + (step % SORT_TILED_BLOCK != 0);
        const int d0 = min((int)threadIdx.x * per, step), d1 = min(d0 + per, step);
        int i = climb_co_rank(d0, ra, len_a, rb, len_b), j = d0 - i;
        for (int d = d0; d < d1; d++) {
            const bool from_a = i < len_a && (j >= len_b || ra[i] <= rb[j]);
            const long long out = k0 + done + d;
            ko[out] = from_a ? ra[i] : rb[j];
            if (PAIRS)
                vo[out] = from_a ? sva[(ra.head + i) & (SORT_TILED_TS - 1)] : svb[(rb.head + j) & (SORT_TILED_TS - 1)];
            if (from_a)
                i++;
            else
                j++;
        }
        const int took_a = climb_co_rank(step, ra, len_a, rb, len_b), took_b = step - took_a;
        __syncthreads(); /* every thread done with the tiles before they change */
        used_a += took_a;
        used_b += took_b;
        if (CIRCULAR) {
            head_a = (head_a + took_a) & (SORT_TILED_TS - 1);
            head_b = (head_b + took_b) & (SORT_TILED_TS - 1);
            have_a = len_a - took_a;
            have_b = len_b - took_b;
        }
        done += step;
    }
}

/* --- the best rung, register_merge_path: BLOCK threads x ITEMS keys a tile (ITEMS odd: a thread's keys in shared
 * memory sit ITEMS words apart, which spreads a warp's reads over every bank).
 *
 * Block sort: the tile is loaded striped (coalesced) and padded past n with the largest key (stable: the padding
 * stays behind any real largest key), each thread sorts its ITEMS keys in registers by an odd-even transposition
 * network (a swap only on a strict >: stable), then log2(BLOCK) rounds merge pairs of runs in shared memory, each
 * thread finding its ITEMS outputs' start by the co-rank (the merge path) and merging them serially into registers.
 * The first five rounds stay within a warp and synchronise the warp alone.
 *
 * Merge passes: a search kernel finds the co-rank of every tile's first output (one thread a tile); each block then
 * loads exactly its tile's keys of a and b into shared memory (coalesced, its range known), merges ITEMS outputs a
 * thread in registers (a co-rank and a serial merge), and writes them back striped. One read and one write of every
 * key a pass; log2(n / tile) passes. */

/* The serial merge of ITEMS outputs from s[a .. a_end) and s[b .. b_end) into k (and v, the values at the same
 * positions of sv): at the ends, what is read is never used. */
template <int ITEMS, bool PAIRS>
__device__ __forceinline__ void sort_serial_merge(const u32 *s, const u32 *sv, int a, int a_end, int b, int b_end,
                                                  u32 *k, u32 *v)
{
    u32 ka = a < a_end ? s[a] : 0u, kb = b < b_end ? s[b] : 0u;
#pragma unroll
    for (int r = 0; r < ITEMS; r++) {
        const bool from_a = b >= b_end || (a < a_end && ka <= kb);
        k[r] = from_a ? ka : kb;
        if (PAIRS) {
            const int at = from_a ? a : b;
            v[r] = (from_a ? a < a_end : b < b_end) ? sv[at] : 0u;
        }
        if (from_a) {
            a++;
            ka = a < a_end ? s[a] : 0u;
        } else {
            b++;
            kb = b < b_end ? s[b] : 0u;
        }
    }
}

/* A thread's ITEMS keys (and values) to its blocked place in shared memory: thread t's at t x ITEMS. */
template <int ITEMS, bool PAIRS>
__device__ __forceinline__ void sort_regs_to_smem(u32 *sk, u32 *sv, const u32 *k, const u32 *v)
{
#pragma unroll
    for (int r = 0; r < ITEMS; r++) {
        sk[threadIdx.x * ITEMS + r] = k[r];
        if (PAIRS)
            sv[threadIdx.x * ITEMS + r] = v[r];
    }
}

template <int BLOCK, int ITEMS, bool PAIRS>
__global__ void __launch_bounds__(BLOCK)
    sort_best_block_kernel(const u32 *ki, const u32 *vi, u32 *ko, u32 *vo, long long n)
{
    constexpr int TILE = BLOCK * ITEMS;
    extern __shared__ u32 smem[];
    u32 *sk = smem, *sv = smem + TILE;
    const long long base = (long long)blockIdx.x * TILE;
    const int len = (int)(n - base < TILE ? n - base : TILE);
    u32 k[ITEMS], v[ITEMS];
    /* striped loads into registers first (ITEMS of them in flight a thread), then to shared memory */
#pragma unroll
    for (int r = 0; r < ITEMS; r++) {
        const int x = r * BLOCK + (int)threadIdx.x;
        k[r] = x < len ? ki[base + x] : 0xffffffffu;
        if (PAIRS)
            v[r] = x < len ? vi[base + x] : 0u;
    }
#pragma unroll
    for (int r = 0; r < ITEMS; r++) {
        sk[r * BLOCK + threadIdx.x] = k[r];
        if (PAIRS)
            sv[r * BLOCK + threadIdx.x] = v[r];
    }
    __syncthreads();
    climb_grid_dependents_launch(); /* the input read: the first pass's partition kernel may start launching */
#pragma unroll
    for (int r = 0; r < ITEMS; r++) {
        k[r] = sk[threadIdx.x * ITEMS + r];
        if (PAIRS)
            v[r] = sv[threadIdx.x * ITEMS + r];
    }
    /* odd-even transposition: ITEMS rounds of compare-exchanges of neighbours, stable */
#pragma unroll
    for (int round = 0; round < ITEMS; round++)
#pragma unroll
        for (int j = round & 1; j + 1 < ITEMS; j += 2)
            if (k[j + 1] < k[j]) {
                const u32 t = k[j];
                k[j] = k[j + 1];
                k[j + 1] = t;
                if (PAIRS) {
                    const u32 tv = v[j];
                    v[j] = v[j + 1];
                    v[j + 1] = tv;
                }
            }
    for (int w = ITEMS; w < TILE; w *= 2) {
        /* while a pair of runs lies within one warp's 32 x ITEMS keys (the first five rounds), the warp merges it
         * alone: a warp barrier, not the block's */
        const bool in_warp = 2 * w <= 32 * ITEMS;
        if (in_warp)
            __syncwarp();
        else
            __syncthreads();
        sort_regs_to_smem<ITEMS, PAIRS>(sk, sv, k, v);
        if (in_warp)
            __syncwarp();
        else
            __syncthreads();
        const int d = threadIdx.x * ITEMS, start = d / (2 * w) * (2 * w), diag = d - start;
        const int i = climb_co_rank(diag, sk + start, w, sk + start + w, w);
        sort_serial_merge<ITEMS, PAIRS>(sk, sv, start + i, start + w, start + w + diag - i, start + 2 * w, k, v);
    }
    __syncthreads();
    sort_regs_to_smem<ITEMS, PAIRS>(sk, sv, k, v);
    __syncthreads();
    for (int x = threadIdx.x; x < len; x += BLOCK) {
        ko[base + x] = sk[x];
        if (PAIRS)
            vo[base + x] = sv[x];
    }
}

/* The co-rank of every tile's first output in its pair of runs (tiles + 1 of them: the last is n's), a thread each.
 * (A warp-cooperative search, 32 probes a step, took 3 rounds of reads instead of 14 but read 10 times the sectors:
 * slower on an H100 at 2^26 keys.) */
#define SORT_PARTITION_BLOCK 256
__global__ void __launch_bounds__(SORT_PARTITION_BLOCK)
    sort_partition_kernel(const u32 *__restrict__ ki, int *__restrict__ part, long long n, long long w, int tile,
                          int tiles)
{
    climb_grid_dependency_wait(); /* the keys are the last pass's output */
    const int t = (int)(blockIdx.x * (long long)blockDim.x + threadIdx.x);
    if (t <= tiles) {
        const long long k = (long long)t * tile < n ? (long long)t * tile : n;
        const sort_pair_of_runs p = sort_runs_at(k, w, n);
        const u32 *a = ki + p.start;
        part[t] = climb_co_rank((int)(k - p.start), a, p.m, a + p.m, p.nb);
    }
    climb_grid_dependents_launch();
}

template <int BLOCK, int ITEMS, bool PAIRS>
__global__ void __launch_bounds__(BLOCK)
    sort_best_merge_kernel(const u32 *__restrict__ ki, const u32 *__restrict__ vi, u32 *__restrict__ ko,
                           u32 *__restrict__ vo, const int *__restrict__ part, long long n, long long w)
{
    constexpr int TILE = BLOCK * ITEMS;
    extern __shared__ u32 smem[];
    u32 *sk = smem, *sv = smem + TILE;
    climb_grid_dependency_wait(); /* the partitions, and through them the last pass's keys */
    const long long k0 = (long long)blockIdx.x * TILE, k1 = k0 + TILE < n ? k0 + TILE : n;
    const sort_pair_of_runs p = sort_runs_at(k0, w, n);
    const int a0 = part[blockIdx.x];
    /* the tile's last output: the next tile's first, unless the pair of runs ends with this tile */
    const int a1 = k1 - p.start == (long long)p.m + p.nb ? p.m : part[blockIdx.x + 1];
    const int b0 = (int)(k0 - p.start) - a0, b1 = (int)(k1 - p.start) - a1;
    const int la = a1 - a0, total = (int)(k1 - k0);
    const u32 *a = ki + p.start + a0, *b = ki + p.start + p.m + b0;
    u32 k[ITEMS], v[ITEMS];
    /* striped loads into registers first (ITEMS of them in flight a thread), then to shared memory */
    const u32 *va = vi + p.start + a0, *vb = vi + p.start + p.m + b0;
#pragma unroll
    for (int r = 0; r < ITEMS; r++) {
        const int x = r * BLOCK + (int)threadIdx.x;
        if (x < total) {
            k[r] = x < la ? a[x] : b[x - la];
            if (PAIRS)
                v[r] = x < la ? va[x] : vb[x - la];
        }
    }
#pragma unroll
    for (int r = 0; r < ITEMS; r++) {
        const int x = r * BLOCK + (int)threadIdx.x;
        if (x < total) {
            sk[x] = k[r];
            if (PAIRS)
                sv[x] = v[r];
        }
    }
    (void)b1;
    __syncthreads();
    climb_grid_dependents_launch(); /* everything read: the next kernel may start launching */
    const int d = (int)threadIdx.x * ITEMS < total ? (int)threadIdx.x * ITEMS : total;
    const int i = climb_co_rank(d, sk, la, sk + la, total - la);
    sort_serial_merge<ITEMS, PAIRS>(sk, sv, i, la, la + d - i, total, k, v);
    __syncthreads();
    sort_regs_to_smem<ITEMS, PAIRS>(sk, sv, k, v);
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ITEMS; r++) {
        const int x = r * BLOCK + (int)threadIdx.x;
        if (x < total) {
            ko[k0 + x] = sk[x];
            if (PAIRS)
                vo[k0 + x] = sv[x];
        }
    }
}

#endif
