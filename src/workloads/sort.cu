/*
 * sort.cu - merge sort of u32 keys, and of u32 key-value pairs, stable, as a ladder.
 *
 * From Kirk and Hwu, Programming Massively Parallel Processors, chapter 11 (and the UIUC ECE 508 lecture on merge
 * sort): the co-rank function, which finds where an output position of a merge splits its two inputs, so that every
 * thread can merge its own part; the basic merge kernel (a thread per output); the tiled merge (co-rank at block
 * boundaries, tiles staged in shared memory); and the circular-buffer refinement of the tiled merge. Sorting is the
 * merge repeated over doubling run lengths. The best rung is the design of Green, McColl and Bader's "GPU Merge Path"
 * and of CUB's block merge sort: many keys a thread in registers, sorted there, block-wide merges in shared memory,
 * then one global pass per doubling with the partitions found by a separate search. See docs/sort.md.
 *
 * Order of this file: the CPU reference and inputs, the kernels (one group per rung), the pass drivers, the
 * registry, the harness glue.
 *
 * Bytes counted: the keys (and values) read once and written once: the least a sort moves; each rung's passes move
 * that many bytes again each (its own counts say how many passes).
 */
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/check.h"
#include "../device/device.h"
#include "../device/device_primitives.cuh"
#include "../base/rng.h"
#include "../core/workload.cuh"
#include "sort.h"

typedef uint32_t u32;

enum { OPT_WHAT, OPT_DIST }; /* the options, in their table's order (below) */

/* ---------------------------------------------------------------- the reference and the inputs */

extern "C" int climb_sort_co_rank(int k, const uint32_t *a, int m, const uint32_t *b, int n)
{
    return climb_co_rank(k, a, m, b, n);
}

/* LSD radix sort, 11 bits a pass (three passes): stable at every pass, so stable overall. */
extern "C" void climb_sort_ref(uint32_t *keys, uint32_t *vals, size_t n, uint32_t *tmp)
{
    u32 *src_k = keys, *src_v = vals, *dst_k = tmp, *dst_v = vals ? tmp + n : NULL;
    for (int shift = 0; shift < 32; shift += 11) {
        size_t count[2049] = {0};
        for (size_t i = 0; i < n; i++)
            count[((src_k[i] >> shift) & 2047u) + 1]++;
        for (int d = 0; d < 2048; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++) {
            const size_t at = count[(src_k[i] >> shift) & 2047u]++;
            dst_k[at] = src_k[i];
            if (vals)
                dst_v[at] = src_v[i];
        }
        u32 *t = src_k;
        src_k = dst_k;
        dst_k = t;
        t = src_v;
        src_v = dst_v;
        dst_v = t;
    }
    /* three passes: the result is in tmp */
    memcpy(keys, src_k, n * sizeof *keys);
    if (vals)
        memcpy(vals, src_v, n * sizeof *vals);
}

extern "C" void climb_sort_generate(uint64_t seed, int dist, uint32_t *keys, uint32_t *vals, size_t n)
{
    climb_rng r;
    climb_rng_seed(&r, seed);
    const double stratum = n ? 4294967296.0 / (double)n : 0;
    u32 few[16];
    for (int i = 0; i < 16; i++)
        few[i] = (u32)climb_rng_next(&r);
    for (size_t i = 0; i < n; i++) {
        const uint64_t x = climb_rng_next(&r);
        switch (dist) {
        case CLIMB_SORT_SORTED:
        case CLIMB_SORT_NEARLY:
        case CLIMB_SORT_REVERSE: {
            const size_t at = dist == CLIMB_SORT_REVERSE ? n - 1 - i : i;
            const double lo = (double)i * stratum;
            double v = lo + (double)(x >> 11) * 0x1p-53 * stratum;
            if (v > 4294967295.0)
                v = 4294967295.0;
            keys[at] = (u32)v;
            break;
        }
        case CLIMB_SORT_FEW: keys[i] = few[x & 15]; break;
        default: keys[i] = (u32)(x >> 32); break;
        }
    }
    if (dist == CLIMB_SORT_NEARLY)
        for (size_t s = 0; s < n / 100; s++) {
            const size_t a = (size_t)climb_rng_range(&r, 0, (int64_t)n - 1), b = (size_t)climb_rng_range(&r, 0, (int64_t)n - 1);
            const u32 t = keys[a];
            keys[a] = keys[b];
            keys[b] = t;
        }
    if (vals)
        for (size_t i = 0; i < n; i++)
            vals[i] = (u32)climb_rng_next(&r);
}

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

/* ---------------------------------------------------------------- pass drivers */

typedef struct sort_args {
    const u32 *in_k, *in_v;  /* in_v NULL: keys only */
    u32 *out_k, *out_v;      /* may equal in_k, in_v (in place) for the best rung */
    u32 *tmp_k, *tmp_v;      /* n words each (tmp_v when pairs) */
    int *part;               /* the best rung's partitions: tiles + 1 ints */
    long long n;
    void *vendor_ws;         /* CUB's temporary storage */
    size_t vendor_ws_bytes;
    climb_sort_tuning tn;
    int pdl;                 /* the best rung's passes as programmatic dependent launches (sm_90 and later) */
    cudaStream_t s;
} sort_args;

/* How many merge passes take runs of w0 to one run of n: the passes alternate between out and tmp so that the last
 * writes out (sort_pass_dst), and the step before them writes where that parity wants. */
static int sort_pass_count(long long n, long long w0)
{
    int passes = 0;
    for (long long w = w0; w < n; w *= 2)
        passes++;
    return passes;
}

typedef cudaError_t (*sort_pass_fn)(const sort_args *a, const u32 *ki, const u32 *vi, u32 *ko, u32 *vo, long long w);

/* The buffers pass p of `passes` writes: the last one writes out. */
static void sort_pass_dst(const sort_args *a, int p, int passes, u32 **k, u32 **v)
{
    const int to_out = (passes - 1 - p) % 2 == 0;
    *k = to_out ? a->out_k : a->tmp_k;
    *v = to_out ? a->out_v : a->tmp_v;
}

/* The passes after a first step that left runs of w0 in (k, v). */
static cudaError_t sort_run_passes(const sort_args *a, const u32 *k, const u32 *v, long long w0, sort_pass_fn pass)
{
    const int passes = sort_pass_count(a->n, w0);
    long long w = w0;
    for (int p = 0; p < passes; p++, w *= 2) {
        u32 *dk, *dv;
        sort_pass_dst(a, p, passes, &dk, &dv);
        const cudaError_t e = pass(a, k, v, dk, dv, w);
        if (e != cudaSuccess)
            return e;
        k = dk;
        v = dv;
    }
    return cudaSuccess;
}

/* n <= 1: a copy (in to out), nothing when in place. */
static cudaError_t sort_trivial(const sort_args *a)
{
    if (a->n == 0 || a->in_k == a->out_k)
        return cudaSuccess;
    cudaError_t e = cudaMemcpyAsync(a->out_k, a->in_k, 4, cudaMemcpyDeviceToDevice, a->s);
    if (e == cudaSuccess && a->in_v)
        e = cudaMemcpyAsync(a->out_v, a->in_v, 4, cudaMemcpyDeviceToDevice, a->s);
    return e;
}

static unsigned sort_grid(long long n, int per_block) { return (unsigned)((n + per_block - 1) / per_block); }

static cudaError_t pass_naive(const sort_args *a, const u32 *ki, const u32 *vi, u32 *ko, u32 *vo, long long w)
{
    const unsigned grid = sort_grid(a->n, 256);
    if (a->in_v)
        sort_merge_naive_kernel<true><<<grid, 256, 0, a->s>>>(ki, vi, ko, vo, a->n, w);
    else
        sort_merge_naive_kernel<false><<<grid, 256, 0, a->s>>>(ki, vi, ko, vo, a->n, w);
    return cudaGetLastError();
}

static cudaError_t launch_naive(const sort_args *a)
{
    if (a->n <= 1)
        return sort_trivial(a);
    /* the first pass merges runs of 1 straight from the input */
    const int passes = sort_pass_count(a->n, 1);
    u32 *dk, *dv;
    sort_pass_dst(a, 0, passes, &dk, &dv);
    cudaError_t e = pass_naive(a, a->in_k, a->in_v, dk, dv, 1);
    if (e != cudaSuccess || passes == 1)
        return e;
    /* the rest as if the first step had left runs of 2 in (dk, dv): the parity is the same */
    return sort_run_passes(a, dk, dv, 2, pass_naive);
}

/* The smem block sort into the first destination of the passes that follow from SORT_SMEM_TILE. */
static cudaError_t sort_smem_tiles(const sort_args *a, u32 **k, u32 **v)
{
    const int passes = sort_pass_count(a->n, SORT_SMEM_TILE);
    if (passes == 0) {
        *k = a->out_k;
        *v = a->out_v;
    } else {
        const int to_out = passes % 2 == 0;
        *k = to_out ? a->out_k : a->tmp_k;
        *v = to_out ? a->out_v : a->tmp_v;
    }
    const unsigned grid = sort_grid(a->n, SORT_SMEM_TILE);
    if (a->in_v)
        sort_block_smem_kernel<true><<<grid, SORT_SMEM_BLOCK, 0, a->s>>>(a->in_k, a->in_v, *k, *v, a->n);
    else
        sort_block_smem_kernel<false><<<grid, SORT_SMEM_BLOCK, 0, a->s>>>(a->in_k, a->in_v, *k, *v, a->n);
    return cudaGetLastError();
}

static cudaError_t launch_block_sort(const sort_args *a)
{
    if (a->n <= 1)
        return sort_trivial(a);
    u32 *k, *v;
    const cudaError_t e = sort_smem_tiles(a, &k, &v);
    return e != cudaSuccess ? e : sort_run_passes(a, k, v, SORT_SMEM_TILE, pass_naive);
}

template <bool CIRCULAR>
static cudaError_t pass_tiled(const sort_args *a, const u32 *ki, const u32 *vi, u32 *ko, u32 *vo, long long w)
{
    const unsigned grid = sort_grid(a->n, SORT_TILED_CHUNK);
    if (a->in_v)
        sort_merge_tiled_kernel<true, CIRCULAR><<<grid, SORT_TILED_BLOCK, 0, a->s>>>(ki, vi, ko, vo, a->n, w);
    else
        sort_merge_tiled_kernel<false, CIRCULAR><<<grid, SORT_TILED_BLOCK, 0, a->s>>>(ki, vi, ko, vo, a->n, w);
    return cudaGetLastError();
}

template <bool CIRCULAR> static cudaError_t launch_tiled(const sort_args *a)
{
    if (a->n <= 1)
        return sort_trivial(a);
    u32 *k, *v;
    const cudaError_t e = sort_smem_tiles(a, &k, &v);
    return e != cudaSuccess ? e : sort_run_passes(a, k, v, SORT_SMEM_TILE, pass_tiled<CIRCULAR>);
}

/* The best rung's instances: (block, items) pairs `climb tune sort` tries, each listed once. */
#define SORT_BEST_CANDIDATES(X)                                                                                 \
    X(128, 15) X(256, 11) X(256, 15) X(256, 17) X(256, 19) X(256, 23) X(512, 15) X(512, 19)
static const int SORT_TUNE_BLOCKS[] = {128, 256, 512};
static const int SORT_TUNE_ITEMS[] = {11, 15, 17, 19, 23};
#define SORT_CANDIDATE_VALUES(b, i) b, i,
static const int SORT_TUNE_CANDIDATES[] = {SORT_BEST_CANDIDATES(SORT_CANDIDATE_VALUES)};

/* Built-in values, per tuning class (keys alone, or pairs), used where no wisdom file matches the device: what
 * `climb tune sort` chose on an H100 at 87cc628 (2^24 and 2^26 uniform keys, cold L2). Keys: 512 x 19, a tile of
 * 9728 (one global pass fewer than 256 x 19 from 2^24 up). Pairs: 256 x 19 (512 x 19 holds 76 KB of shared memory a
 * block with the values: two blocks an SM, 12% slower). */
typedef struct sort_class_policy {
    int block, items;
    const char *source;
} sort_class_policy;
static const sort_class_policy SORT_POLICY[2] = {
    {512, 19, "built-in (measured on an H100: keys alone, 512 threads x 19 keys, a tile of 9728)"},
    {256, 19, "built-in (measured on an H100: pairs, 256 threads x 19 keys, a tile of 4864)"},
};

typedef struct sort_best_instance {
    int block, items;
    const void *block_fn[2], *merge_fn[2]; /* [pairs] */
} sort_best_instance;

#define SORT_INSTANCE(b, i)                                                                                            \
    {b, i, {(const void *)sort_best_block_kernel<b, i, false>, (const void *)sort_best_block_kernel<b, i, true>},       \
     {(const void *)sort_best_merge_kernel<b, i, false>, (const void *)sort_best_merge_kernel<b, i, true>}},
static const sort_best_instance SORT_INSTANCES[] = {SORT_BEST_CANDIDATES(SORT_INSTANCE)};

static const sort_best_instance *sort_instance(const climb_sort_tuning *t)
{
    for (int i = 0; i < CLIMB_COUNT(SORT_INSTANCES); i++)
        if (SORT_INSTANCES[i].block == t->block && SORT_INSTANCES[i].items == t->items)
            return &SORT_INSTANCES[i];
    return NULL;
}

static size_t sort_best_smem(const sort_best_instance *in, int pairs)
{
    return (size_t)in->block * in->items * 4 * (pairs ? 2 : 1);
}

/* A launch with `smem` bytes of dynamic shared memory, the opt-in raised where it is over 48 KB; with `pdl`, a
 * programmatic dependent launch (it may start while the kernel before it finishes: it waits in
 * climb_grid_dependency_wait before reading what that kernel wrote). */
static cudaError_t sort_launch(const void *fn, unsigned grid, int block, size_t smem, cudaStream_t s, void **args,
                               int pdl)
{
    if (smem > 48 * 1024) {
        const cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (e != cudaSuccess)
            return e;
    }
    return climb_launch_ex(fn, grid, (unsigned)block, smem, s, args, pdl);
}

static cudaError_t launch_best(const sort_args *a)
{
    if (a->n <= 1)
        return sort_trivial(a);
    const sort_best_instance *in = sort_instance(&a->tn);
    if (!in)
        return cudaErrorInvalidValue;
    const int pairs = a->in_v != NULL;
    const long long tile = (long long)in->block * in->items, n = a->n;
    const size_t smem = sort_best_smem(in, pairs);
    const int passes = sort_pass_count(n, tile);
    /* the block sort writes where the passes' parity wants it: in place is safe, a block reads its tile whole
     * before it writes */
    u32 *k = passes % 2 == 0 ? a->out_k : a->tmp_k, *v = passes % 2 == 0 ? a->out_v : a->tmp_v;
    const u32 *ik = a->in_k, *iv = a->in_v;
    long long nn = n;
    void *bargs[] = {(void *)&ik, (void *)&iv, (void *)&k, (void *)&v, (void *)&nn};
    /* the block sort waits for whatever ran before (a plain launch); each kernel after it is a programmatic
     * dependent launch on sm_90 and later, its launch hidden behind the end of the one before */
    cudaError_t e = sort_launch(in->block_fn[pairs], sort_grid(n, (int)tile), in->block, smem, a->s, bargs, 0);
    const int tiles = (int)sort_grid(n, (int)tile), pdl = a->pdl;
    long long w = tile;
    for (int p = 0; p < passes && e == cudaSuccess; p++, w *= 2) {
        u32 *dk, *dv;
        sort_pass_dst(a, p, passes, &dk, &dv);
        const u32 *sk = k, *sv = v;
        int *part = a->part, tl = (int)tile, tn = tiles;
        void *pargs[] = {(void *)&sk, (void *)&part, (void *)&nn, (void *)&w, (void *)&tl, (void *)&tn};
        e = sort_launch((const void *)sort_partition_kernel, sort_grid((long long)tiles + 1, SORT_PARTITION_BLOCK),
                        SORT_PARTITION_BLOCK, 0, a->s, pargs, pdl);
        if (e != cudaSuccess)
            break;
        void *margs[] = {(void *)&sk, (void *)&sv, (void *)&dk, (void *)&dv, (void *)&part, (void *)&nn, (void *)&w};
        e = sort_launch(in->merge_fn[pairs], (unsigned)tiles, in->block, smem, a->s, margs, pdl);
        k = dk;
        v = dv;
    }
    return e;
}

/* The vendor rungs. CUB's merge sort, copying from the input to the output: SortKeysCopy and SortPairsCopy. CUB
 * documents the copying forms as not guaranteed stable, but StableSortKeysCopy is SortKeysCopy, and both pairs forms
 * run the one merge-sort dispatch; the verification checks the order of equal keys on every run, so a form that
 * were not stable would fail there. CUB's radix sort (stable, out of place): the reference of another algorithm,
 * beside the bar. */
struct sort_less {
    __device__ __forceinline__ bool operator()(const u32 &x, const u32 &y) const { return x < y; }
};

static cudaError_t cub_merge(const sort_args *a, void *tmp, size_t *bytes)
{
    if (a->in_v)
        return cub::DeviceMergeSort::SortPairsCopy(tmp, *bytes, a->in_k, a->in_v, a->out_k, a->out_v, a->n, sort_less(),
                                                   a->s);
    return cub::DeviceMergeSort::StableSortKeysCopy(tmp, *bytes, a->in_k, a->out_k, a->n, sort_less(), a->s);
}

static cudaError_t cub_radix(const sort_args *a, void *tmp, size_t *bytes)
{
    if (a->in_v)
        return cub::DeviceRadixSort::SortPairs(tmp, *bytes, a->in_k, a->out_k, a->in_v, a->out_v, a->n, 0, 32, a->s);
    return cub::DeviceRadixSort::SortKeys(tmp, *bytes, a->in_k, a->out_k, a->n, 0, 32, a->s);
}

static cudaError_t launch_cub_merge(const sort_args *a)
{
    if (a->n == 0)
        return cudaSuccess;
    size_t bytes = a->vendor_ws_bytes;
    return cub_merge(a, a->vendor_ws, &bytes);
}

static cudaError_t launch_cub_radix(const sort_args *a)
{
    if (a->n == 0)
        return cudaSuccess;
    size_t bytes = a->vendor_ws_bytes;
    return cub_radix(a, a->vendor_ws, &bytes);
}

/* ---------------------------------------------------------------- the registry */

typedef cudaError_t (*sort_launch_fn)(const sort_args *a);

static int k_naive(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)sort_merge_naive_kernel<false>, 256, 0, "sort_merge_naive_kernel<keys>");
    return climb_kernel_at(o, max, n, (const void *)sort_merge_naive_kernel<true>, 256, 0, "sort_merge_naive_kernel<pairs>");
}

static int k_block(climb_dtype t, const climb_device_info *d, const int *v, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)sort_block_smem_kernel<false>, SORT_SMEM_BLOCK, 0,
                            "sort_block_smem_kernel<keys>");
    n = climb_kernel_at(o, max, n, (const void *)sort_block_smem_kernel<true>, SORT_SMEM_BLOCK, 0,
                        "sort_block_smem_kernel<pairs>");
    climb_kernel_desc rest[2];
    const int m = k_naive(t, d, v, rest, 2);
    for (int i = 0; i < m; i++)
        n = climb_kernel_at(o, max, n, rest[i].func, rest[i].block_threads, 0, "%s", rest[i].name);
    return n;
}

template <bool CIRCULAR> static int k_tiled(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)sort_block_smem_kernel<false>, SORT_SMEM_BLOCK, 0,
                            "sort_block_smem_kernel<keys>");
    n = climb_kernel_at(o, max, n, (const void *)sort_block_smem_kernel<true>, SORT_SMEM_BLOCK, 0,
                        "sort_block_smem_kernel<pairs>");
    n = climb_kernel_at(o, max, n, (const void *)sort_merge_tiled_kernel<false, CIRCULAR>, SORT_TILED_BLOCK, 0,
                        "sort_merge_tiled_kernel<keys, %s>", CIRCULAR ? "circular" : "tiled");
    return climb_kernel_at(o, max, n, (const void *)sort_merge_tiled_kernel<true, CIRCULAR>, SORT_TILED_BLOCK, 0,
                           "sort_merge_tiled_kernel<pairs, %s>", CIRCULAR ? "circular" : "tiled");
}

/* The best rung's kernels for values v, each allowed its shared memory past 48 KB first (the runtime's occupancy
 * counts it, as a launch does). */
static int k_best(climb_dtype, const climb_device_info *, const int *v, climb_kernel_desc *o, int max)
{
    const climb_sort_tuning t = {v ? v[0] : SORT_POLICY[0].block, v ? v[1] : SORT_POLICY[0].items};
    const sort_best_instance *in = sort_instance(&t);
    if (!in)
        return 0;
    int n = 0;
    for (int pairs = 0; pairs < 2; pairs++) {
        const size_t smem = sort_best_smem(in, pairs);
        if (smem > 48 * 1024 && (cudaFuncSetAttribute(in->block_fn[pairs], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                      (int)smem) != cudaSuccess ||
                                 cudaFuncSetAttribute(in->merge_fn[pairs], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                      (int)smem) != cudaSuccess))
            cudaGetLastError(); /* no device (listing only): the runtime is not asked then */
        n = climb_kernel_at(o, max, n, in->block_fn[pairs], in->block, smem, "sort_best_block_kernel<%d, %d, %s>",
                            in->block, in->items, pairs ? "pairs" : "keys");
        n = climb_kernel_at(o, max, n, in->merge_fn[pairs], in->block, smem, "sort_best_merge_kernel<%d, %d, %s>",
                            in->block, in->items, pairs ? "pairs" : "keys");
    }
    return climb_kernel_at(o, max, n, (const void *)sort_partition_kernel, SORT_PARTITION_BLOCK, 0,
                           "sort_partition_kernel");
}

typedef struct sort_rung {
    climb_rung_info info;
    sort_launch_fn launch;
} sort_rung;

enum { RUNG_CUB_MERGE = 0, RUNG_CUB_RADIX = 1 };

static const sort_rung SORT_RUNGS[] = {
    {.info = {.name = "cub_merge_sort", .idea = "vendor: cub::DeviceMergeSort (SortKeysCopy, SortPairsCopy: its stable "
                                                "merge sort): the bar",
              .needs = "", .kind = CLIMB_RUNG_VENDOR, .kernels = NULL},
     .launch = launch_cub_merge},
    {.info = {.name = "cub_radix_sort", .idea = "vendor: cub::DeviceRadixSort (SortKeys, SortPairs): another "
                                                "algorithm, for reference, not the bar",
              .needs = "", .kind = CLIMB_RUNG_VENDOR, .kernels = NULL, .beside = 1},
     .launch = launch_cub_radix},
    {.info = {.name = "corank_naive", .idea = "a thread per output finds its element by the co-rank; log2(n) merge "
                                              "passes over doubling runs from 1",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_naive},
     .launch = launch_naive},
    {.info = {.name = "block_sort", .idea = "tiles of 1024 keys sorted by one block in shared memory first: 10 fewer "
                                            "global passes",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_block},
     .launch = launch_block_sort},
    {.info = {.name = "tiled_merge", .idea = "co-rank at block boundaries, a and b staged through shared memory a "
                                             "tile at a time, a thread merging several outputs serially",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_tiled<false>},
     .launch = launch_tiled<false>},
    {.info = {.name = "circular_buffer", .idea = "the tiles as circular buffers: only what a step consumed is loaded "
                                                 "again",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_tiled<true>},
     .launch = launch_tiled<true>},
    {.info = {.name = "register_merge_path", .idea = "many keys a thread in registers: sorted there, merged by merge "
                                                     "path in shared memory; tiles of thousands, one pass a doubling",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_best},
     .launch = launch_best},
};
#define SORT_N_RUNGS CLIMB_COUNT(SORT_RUNGS)
static const climb_rung_info *sort_rung_info(int i) { return &SORT_RUNGS[i].info; }

/* ---------------------------------------------------------------- tuning */

static const climb_tunable SORT_TUNABLES[] = {
    {.name = "block", .meaning = "threads per block", .values = SORT_TUNE_BLOCKS, .n_values = CLIMB_COUNT(SORT_TUNE_BLOCKS)},
    {.name = "items", .meaning = "keys per thread (odd: conflict-free shared memory)", .values = SORT_TUNE_ITEMS,
     .n_values = CLIMB_COUNT(SORT_TUNE_ITEMS)},
};

static const char *sort_tuning_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *v)
{
    (void)dev;
    const int pairs = k && k->opts && k->opts[OPT_WHAT].choice == 1;
    const sort_class_policy *p = &SORT_POLICY[pairs];
    v[0] = p->block;
    v[1] = p->items;
    return p->source;
}

/* The tile with values must fit the device's shared memory for a block. */
static const char *sort_tuning_rejects(const climb_device_info *dev, const int *v)
{
    return (size_t)v[0] * v[1] * 8 > dev->smem_per_block_optin ? "a tile of pairs over the shared memory a block may "
                                                                 "have"
                                                               : NULL;
}

static const climb_tuning SORT_TUNING = {
    .params = SORT_TUNABLES,
    .n_params = CLIMB_COUNT(SORT_TUNABLES),
    .candidates = SORT_TUNE_CANDIDATES,
    .n_candidates = CLIMB_COUNT(SORT_TUNE_CANDIDATES) / 2,
    .defaults = sort_tuning_defaults,
    .rejects = sort_tuning_rejects,
};

extern "C" void climb_sort_set_tuning(climb_sort_tuning *t, const int *v)
{
    t->block = v[0];
    t->items = v[1];
}

/* ---------------------------------------------------------------- the library face */

static size_t sort_align(size_t x) { return (x + 255) / 256 * 256; }

extern "C" size_t climb_sort_best_workspace(const climb_sort_tuning *t, size_t n, int pairs)
{
    const sort_best_instance *in = sort_instance(t);
    const size_t tile = in ? (size_t)in->block * in->items : 1;
    return sort_align(n * 4) * (pairs ? 2 : 1) + sort_align((n / tile + 2) * sizeof(int));
}

extern "C" cudaError_t climb_sort_best(const climb_sort_tuning *t, const uint32_t *in_keys, const uint32_t *in_vals,
                                       uint32_t *out_keys, uint32_t *out_vals, size_t n, void *ws, size_t ws_bytes,
                                       int cc_major, cudaStream_t s)
{
    const int pairs = in_vals != NULL;
    if (n > CLIMB_SORT_MAX_N || (pairs && !out_vals) || !sort_instance(t) ||
        ws_bytes < climb_sort_best_workspace(t, n, pairs))
        return cudaErrorInvalidValue;
    char *w = (char *)ws;
    sort_args a;
    memset(&a, 0, sizeof a);
    a.in_k = in_keys;
    a.in_v = in_vals;
    a.out_k = out_keys;
    a.out_v = pairs ? out_vals : NULL;
    a.tmp_k = (u32 *)w;
    a.tmp_v = pairs ? (u32 *)(w + sort_align(n * 4)) : NULL;
    a.part = (int *)(w + sort_align(n * 4) * (pairs ? 2 : 1));
    a.n = (long long)n;
    a.tn = *t;
    a.pdl = cc_major >= 9;
    a.s = s;
    return launch_best(&a);
}

/* ---------------------------------------------------------------- options */

static const char *const SORT_DISTS[] = {"uniform", "sorted", "reverse", "few", "nearly", NULL};
static const char *const SORT_WHAT[] = {"keys", "pairs", NULL};
static constexpr climb_option SORT_OPTIONS[] = {
    {.name = "what", .kind = CLIMB_OPT_CHOICE,
     .meaning = "keys (u32 keys alone) or pairs (u32 keys, each with a u32 value carried along; stability checked)",
     .def = "keys,pairs", .choices = SORT_WHAT, .keys_tuning = 1},
    {.name = "dist", .kind = CLIMB_OPT_CHOICE,
     .meaning = "keys: uniform 32-bit, sorted, reverse (sorted backwards), few (16 distinct values: long runs of "
                "ties), nearly (sorted, 1% of positions swapped)",
     .def = "uniform", .choices = SORT_DISTS, .generator = 1},
};
CLIMB_OPTION_AT(SORT_OPTIONS, OPT_WHAT, "what");
CLIMB_OPTION_AT(SORT_OPTIONS, OPT_DIST, "dist");

/* ---------------------------------------------------------------- harness glue */

struct climb_case {
    climb_case_params p;
    size_t n;
    int pairs, dist;
    u32 *h_k, *h_v;          /* the input */
    u32 *ref_k, *ref_v;      /* the input sorted on the CPU */
    u32 *got;                /* a run's output, read back */
    u32 *d_alloc, *d_in_k, *d_in_v, *d_out_k, *d_out_v, *d_tmp_k, *d_tmp_v;
    int *d_part;
    void *d_vendor;
    size_t vendor_bytes;
    climb_sort_tuning tn;
};

static void sort_destroy(climb_case *c)
{
    if (!c)
        return;
    free(c->h_k);
    free(c->h_v);
    free(c->ref_k);
    free(c->ref_v);
    free(c->got);
    if (c->d_alloc)
        cudaFree(c->d_alloc);
    if (c->d_part)
        cudaFree(c->d_part);
    if (c->d_vendor)
        cudaFree(c->d_vendor);
    free(c);
}

static sort_args sort_case_args(const climb_case *c, cudaStream_t s)
{
    sort_args a;
    memset(&a, 0, sizeof a);
    a.in_k = c->d_in_k;
    a.in_v = c->pairs ? c->d_in_v : NULL;
    a.out_k = c->d_out_k;
    a.out_v = c->pairs ? c->d_out_v : NULL;
    a.tmp_k = c->d_tmp_k;
    a.tmp_v = c->pairs ? c->d_tmp_v : NULL;
    a.part = c->d_part;
    a.n = (long long)c->n;
    a.vendor_ws = c->d_vendor;
    a.vendor_ws_bytes = c->vendor_bytes;
    a.tn = c->tn;
    a.pdl = c->p.dev && c->p.dev->cc_major >= 9;
    a.s = s;
    return a;
}

static int sort_create(const climb_case_params *p, climb_case **out)
{
    *out = NULL;
    climb_case *c = (climb_case *)calloc(1, sizeof *c);
    if (!c)
        return climb_host_oom("the case");
    c->p = *p;
    c->n = p->shape.d[0];
    c->pairs = p->opts[OPT_WHAT].choice == 1;
    c->dist = p->opts[OPT_DIST].choice;
    c->tn.block = SORT_POLICY[c->pairs].block;
    c->tn.items = SORT_POLICY[c->pairs].items;
    if (c->n > CLIMB_SORT_MAX_N) {
        fprintf(stderr, "climb: sort n = %zu: indices are 32-bit, so n must be below 2^31\n", c->n);
        free(c);
        return -1;
    }
    const size_t n1 = c->n ? c->n : 1, words = c->pairs ? 2 : 1;
    c->h_k = (u32 *)malloc(n1 * 4);
    c->ref_k = (u32 *)malloc(n1 * 4);
    c->got = (u32 *)malloc(n1 * 4 * 2); /* also the reference's scratch */
    if (c->pairs) {
        c->h_v = (u32 *)malloc(n1 * 4);
        c->ref_v = (u32 *)malloc(n1 * 4);
    }
    if (!c->h_k || !c->ref_k || !c->got || (c->pairs && (!c->h_v || !c->ref_v))) {
        const size_t n = c->n;
        const int pairs = c->pairs;
        sort_destroy(c); /* frees c */
        return climb_host_oom("%zu keys%s", n, pairs ? " and values" : "");
    }
    climb_sort_generate(p->seed, c->dist, c->h_k, c->h_v, c->n);
    memcpy(c->ref_k, c->h_k, c->n * 4);
    if (c->pairs)
        memcpy(c->ref_v, c->h_v, c->n * 4);
    climb_sort_ref(c->ref_k, c->pairs ? c->ref_v : NULL, c->n, c->got);
    /* input, output and the passes' second buffer, keys and values, in one allocation (the input misaligned by
     * `offset` elements); the best rung's partitions apart */
    const size_t span = sort_align((n1 + p->offset) * 4 + 16);
    char *base = NULL;
    if (CLIMB_FAILED(cudaMalloc((void **)&base, span * 3 * words)) ||
        CLIMB_FAILED(cudaMalloc((void **)&c->d_part, (n1 / 64 + 2) * sizeof(int)))) {
        cudaGetLastError();
        fprintf(stderr, "climb: out of device memory for sort n = %zu (%zu bytes)\n", c->n, span * 3 * words);
        if (base)
            cudaFree(base);
        sort_destroy(c);
        return -1;
    }
    c->d_alloc = (u32 *)base;
    c->d_in_k = (u32 *)base + p->offset;
    c->d_out_k = (u32 *)(base + span);
    c->d_tmp_k = (u32 *)(base + 2 * span);
    if (c->pairs) {
        c->d_in_v = (u32 *)(base + 3 * span);
        c->d_out_v = (u32 *)(base + 4 * span);
        c->d_tmp_v = (u32 *)(base + 5 * span);
    }
    if (CLIMB_FAILED(cudaMemcpy(c->d_in_k, c->h_k, c->n * 4, cudaMemcpyHostToDevice)) ||
        (c->pairs && CLIMB_FAILED(cudaMemcpy(c->d_in_v, c->h_v, c->n * 4, cudaMemcpyHostToDevice)))) {
        sort_destroy(c);
        return -1;
    }
    *out = c;
    return 0;
}

static const char *sort_describe(const climb_case *c)
{
    static char buf[200];
    snprintf(buf, sizeof buf, "%s %s keys%s; input starts %u elements past alignment", c->pairs ? "pairs of" : "",
             SORT_DISTS[c->dist], c->pairs ? " and uniform values" : "", c->p.offset);
    return buf;
}

static int sort_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode; /* the CPU radix sort is cheap at every size */
    snprintf(desc, desclen, "CPU stable LSD radix sort, every element (keys%s), exact", c->pairs ? " and values" : "");
    return 0;
}

static const char *sort_refuses(const climb_case *c, int rung)
{
    (void)c;
    (void)rung;
    return NULL;
}

/* CUB's temporary storage, and the partitions for the best rung's tile. */
static int sort_prepare(climb_case *c, int rung)
{
    sort_args a = sort_case_args(c, 0);
    if (rung == RUNG_CUB_MERGE || rung == RUNG_CUB_RADIX) {
        size_t bytes = 0;
        const cudaError_t e = rung == RUNG_CUB_MERGE ? cub_merge(&a, NULL, &bytes) : cub_radix(&a, NULL, &bytes);
        if (CLIMB_FAILED(e))
            return -1;
        return climb_grow_device_buffer(&c->d_vendor, &c->vendor_bytes, bytes ? bytes : 1);
    }
    return 0;
}

static void sort_release(climb_case *c, int rung)
{
    (void)rung;
    if (c->d_vendor)
        cudaFree(c->d_vendor);
    c->d_vendor = NULL;
    c->vendor_bytes = 0;
}

static int sort_run(climb_case *c, int rung, cudaStream_t s)
{
    const sort_args a = sort_case_args(c, s);
    CLIMB_CHECK(SORT_RUNGS[rung].launch(&a));
    return 0;
}

/* All ones in keys and values: a uniform input has no run of n largest keys, and the first wrong element says so. */
static int sort_poison(climb_case *c)
{
    const size_t n1 = c->n ? c->n : 1;
    CLIMB_CHECK(cudaMemset(c->d_out_k, 0xA5, n1 * 4));
    if (c->pairs)
        CLIMB_CHECK(cudaMemset(c->d_out_v, 0xA5, n1 * 4));
    return 0;
}

static int sort_compare(const u32 *got, const u32 *want, size_t n, const char *what, char *msg, size_t msglen)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            if (!bad)
                first = i;
            bad++;
        }
    if (bad)
        snprintf(msg, msglen, "%s[%zu] = %u, expected %u (%zu of %zu wrong)", what, first, got[first], want[first], bad,
                 n);
    return bad != 0;
}

static int sort_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    msg[0] = '\0';
    if (c->n == 0)
        return 0;
    CLIMB_CHECK(cudaMemcpy(c->got, c->d_out_k, c->n * 4, cudaMemcpyDeviceToHost));
    if (sort_compare(c->got, c->ref_k, c->n, "key", msg, msglen))
        return 1;
    if (!c->pairs)
        return 0;
    CLIMB_CHECK(cudaMemcpy(c->got, c->d_out_v, c->n * 4, cudaMemcpyDeviceToHost));
    if (sort_compare(c->got, c->ref_v, c->n, "value", msg, msglen)) {
        const size_t used = strlen(msg);
        snprintf(msg + used, msglen - used, ": the keys are right, the order of equal keys is not (unstable)");
        return 1;
    }
    return 0;
}

static void sort_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    const double bytes = (double)c->n * 4 * (c->pairs ? 2 : 1);
    out->bytes_read = bytes;
    out->bytes_written = bytes;
    out->items = (double)c->n;
}

/* A rung's own counts: its passes over the data (the block sort's counted as one), each a read and a write of every
 * key and value; the vendors' are CUB's own business (the case's counts). */
static int sort_rung_counts(const climb_case *c, int rung, climb_counts *out)
{
    if (rung == RUNG_CUB_MERGE || rung == RUNG_CUB_RADIX || c->n <= 1)
        return 0;
    const sort_rung *r = &SORT_RUNGS[rung];
    long long first = 1;
    int extra = 0;
    if (r->launch == launch_naive)
        first = 1;
    else if (r->launch == launch_best) {
        const sort_best_instance *in = sort_instance(&c->tn);
        first = in ? (long long)in->block * in->items : 1;
        extra = 1;
    } else {
        first = SORT_SMEM_TILE;
        extra = 1;
    }
    const int passes = sort_pass_count((long long)c->n, first) + extra;
    sort_counts(c, out);
    out->bytes_read *= passes;
    out->bytes_written *= passes;
    return 1;
}

static void sort_set_tuning(climb_case *c, const int *values) { climb_sort_set_tuning(&c->tn, values); }

static const climb_shape SORT_BENCH_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 20), CLIMB_SHAPE1((size_t)1 << 24),
                                                CLIMB_SHAPE1((size_t)1 << 26), CLIMB_SHAPE1(10000019)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape SORT_MAIN_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 24)};
/* 0, 1, 2, odd sizes, every tile's edges (1024, 2048, the best rung's 11 to 19 x 128 to 512), several passes. */
static const climb_shape SORT_CHECK_SHAPES[] = {
    CLIMB_SHAPE1(0),     CLIMB_SHAPE1(1),     CLIMB_SHAPE1(2),     CLIMB_SHAPE1(3),      CLIMB_SHAPE1(17),
    CLIMB_SHAPE1(255),   CLIMB_SHAPE1(1023),  CLIMB_SHAPE1(1024),  CLIMB_SHAPE1(1025),   CLIMB_SHAPE1(2047),
    CLIMB_SHAPE1(2049),  CLIMB_SHAPE1(3839),  CLIMB_SHAPE1(3840),  CLIMB_SHAPE1(3841),   CLIMB_SHAPE1(7681),
    CLIMB_SHAPE1(9728),  CLIMB_SHAPE1(65535), CLIMB_SHAPE1(65537), CLIMB_SHAPE1(1000003), CLIMB_SHAPE1(4194304)};
static const climb_shape SORT_QUICK_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(3841), CLIMB_SHAPE1(65537)};

static const climb_sweep SORT_SWEEPS[] = {
    {.name = "dist",
     .title = "merge sort of u32 keys, CUB's and the best rung: Gkeys/s against n for each key distribution",
     .args = "--rung cub_merge_sort --rung register_merge_path --set what=keys --size 2^20 --size 2^22 --size 2^24 "
             "--size 2^26 --set dist=uniform,sorted,reverse,few,nearly",
     .x = "n",
     .log_x = 1},
    {.name = "sizes",
     .title = "merge sort of uniform u32 keys and pairs: Gkeys/s against n",
     .args = "--size 2^16 --size 2^18 --size 2^20 --size 2^22 --size 2^24 --size 2^26",
     .x = "n",
     .log_x = 1},
};

static const char *sort_case_refuses(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return s->d[0] > CLIMB_SORT_MAX_N ? "indices are 32-bit, so n must be below 2^31" : NULL;
}

/* Host memory: the input, the reference and the read-back (twice n words for the reference's scratch). */
static double sort_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    const double words = opts && opts[OPT_WHAT].choice == 1 ? 2 : 1;
    return (double)s->d[0] * 4 * (2 * words + 2);
}

extern "C" const climb_workload climb_sort_workload = {
    .name = "sort",
    .title = "Merge sort of u32 keys and key-value pairs (stable)",
    .seed_ref = "Kirk and Hwu, Programming Massively Parallel Processors, chapter 11 (co-rank, basic and "
                "tiled merge, circular buffer); Green, McColl and Bader, GPU Merge Path",
    .command = NULL,
    .dims = {"n"},
    .shape_format = NULL,
    .types = CLIMB_TYPE_BIT(CLIMB_U32),
    .options = SORT_OPTIONS,
    .n_options = CLIMB_COUNT(SORT_OPTIONS),
    .bytes_counted = "the keys (and values) read once and written once, the least a sort moves; a rung's own counts "
                     "add a read and a write of them for each of its passes",
    .items_unit = "keys",
    .items_rate = "Gkeys/s",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = SORT_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(SORT_BENCH_SHAPES),
    .check_shapes = SORT_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(SORT_CHECK_SHAPES),
    .quick_shapes = SORT_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(SORT_QUICK_SHAPES),
    .main_shapes = SORT_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(SORT_MAIN_SHAPES),
    .check_max_offset = 3,
    .n_rungs = SORT_N_RUNGS,
    .rung = sort_rung_info,
    .published = NULL,
    .sweeps = SORT_SWEEPS,
    .n_sweeps = CLIMB_COUNT(SORT_SWEEPS),
    .load = NULL,
    .unload = NULL,
    .peek = NULL,
    .create = sort_create,
    .describe = sort_describe,
    .reference = sort_reference,
    .ref_cost = NULL,
    .ref_cost_limit = 0,
    .case_bytes = sort_case_bytes,
    .case_refuses = sort_case_refuses,
    .refuses = sort_refuses,
    .prepare = sort_prepare,
    .setup = NULL,
    .modifies = NULL,
    .reset = NULL,
    .run = sort_run,
    .poison = sort_poison,
    .verify = sort_verify,
    .counts = sort_counts,
    .rung_counts = sort_rung_counts,
    .rung_note = NULL,
    .release = sort_release,
    .save = NULL,
    .destroy = sort_destroy,
    .tuning = &SORT_TUNING,
    .set_tuning = sort_set_tuning,
};
