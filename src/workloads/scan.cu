/*
 * scan.cu - prefix sum (inclusive and exclusive, i32 and f32), as a ladder.
 *
 * Seed 004 (the ECE 408 / PMPP scan notes): Kogge-Stone, its double-buffered form, Brent-Kung, the three-phase
 * (coarsened) block scan, the hierarchical scheme that extends each to any n (scan sections, scan the section
 * sums, add them back), and the single-pass scan that chains adjacent blocks through flags, with dynamic block
 * indices so that it cannot deadlock. Above the seed: a warp-shuffle block scan, and the best rung, a single pass
 * with decoupled look-back (Merrill & Garland) and 16-byte loads. See docs/scan.md.
 *
 * Order of this file: CPU reference and tolerance, policy, the chained tiles' flags, kernels (one per rung, each
 * with what it changes), launchers, the registry table, the harness glue.
 *
 * Bytes counted: n elements read, n written. Every kernel is a template over the element type (i32 and f32 share
 * each body: the i32 runs check the index logic exactly, the f32 runs the rounding).
 */
#include <cub/device/device_scan.cuh>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>

#include "../base/check.h"
#include "../device/device.h"
#include "../device/device_primitives.cuh"
#include "../base/rng.h"
#include "../core/workload.cuh"
#include "scan.h"

/* ---------------------------------------------------------------- CPU reference and tolerance */

extern "C" void climb_scan_ref_i32(const int32_t *x, size_t n, int exclusive, int32_t *out)
{
    uint32_t s = 0; /* unsigned: wrap-around is defined, the bits are a signed sum's */
    for (size_t i = 0; i < n; i++) {
        const uint32_t v = (uint32_t)x[i];
        if (exclusive) {
            out[i] = (int32_t)s;
            s += v;
        } else {
            s += v;
            out[i] = (int32_t)s;
        }
    }
}

extern "C" void climb_scan_ref_f32(const float *x, size_t n, int exclusive, double *out, float *abs_prefix)
{
    double s = 0, a = 0;
    for (size_t i = 0; i < n; i++) {
        if (exclusive) {
            out[i] = s;
            if (abs_prefix)
                abs_prefix[i] = (float)a;
        }
        s += x[i];
        a += fabs((double)x[i]);
        if (!exclusive) {
            out[i] = s;
            if (abs_prefix)
                abs_prefix[i] = (float)a;
        }
    }
}

/* Every rung computes out[i] as a sum of the inputs it covers, in some order: a tree whose height H bounds the
 * roundings any input goes through. Higham's bound for such a sum is |err| <= gamma(H) sum |x_j|, gamma(H) =
 * H u / (1 - H u), u = 2^-24; the output's own rounding to float adds u |out| <= u sum |x_j|; abs_prefix was
 * rounded to float (a relative 2^-24 more). */
extern "C" double climb_scan_tol_f32(double abs_prefix, double depth)
{
    const double u = 1.0 / 16777216.0;
    const double hu = (depth + 1) * u;
    const double gamma = hu < 0.5 ? hu / (1 - hu) : 1.0;
    return gamma * abs_prefix * (1 + 2 * u) + 1e-30;
}

/* Within a section (any rung): at most 16 sequential adds per thread, 2 log2(1024) = 20 in a block's tree, a few
 * to combine them: 48. The hierarchy has at most 6 levels for any n a GPU holds, each a section's adds and one
 * add back: 6 x 49 < 300. A chained rung adds, per tile before i, at most 8 (its look-back's window sum of 5
 * levels, the running prefix, the publication): chain_tile is the rung's tile / 8 (see SCAN_RUNGS). */
extern "C" double climb_scan_depth(size_t i, size_t chain_tile)
{
    return 300.0 + (chain_tile ? (double)(i / chain_tile) + 1.0 : 0.0);
}

/* ---------------------------------------------------------------- policy */

/* The shared-memory block scans (Kogge-Stone, Brent-Kung): 512 threads, the seed's SECTION_SIZE = blockDim
 * (Brent-Kung: 2 x blockDim). The three-phase, warp-shuffle and chained rungs: 512 threads x 8 elements each,
 * a section of 4096 (16 KB of shared memory for f32). */
#define SCAN_BLOCK 512u
#define SCAN_COARSE 8u
/* The best rung's look-back sleeps (climb_lookback_prefix) and its register budget, measured on an H100
 * (2026-11-24, f32 and i32, cold L2, block 128 x 32 items; docs/scan.md has the table). Reading the window at once
 * and backing off from 32 ns ran 2^28 at 0.90x CUB: each tile waited twice as long for its prefix as for its data
 * (clock64 in the kernel: 8.6 us against 3.8), and polled 3.8 times. Sleeping 1.5 us before the first read and
 * 0.7 us between polls (CUB's sm_90 scan sleeps 1.14 us and 0.69 us) cut the polls to 2.1 a tile; the 16-byte
 * kernel held to 1024 threads an SM (64 registers: 8 blocks of 128, not 7) keeps more tiles' loads in flight
 * while some wait. Together, in the committed reports (e83cff3 -> 6cad1ed, f32 inclusive): 2^28 964 -> 850 us
 * (0.90x -> 1.02x CUB), 2^24 0.96x -> 1.02x, 10^7 0.99x -> 1.06x; at 2^20 (256 tiles, all resident at once, so
 * the first sleep is latency) 9.38 -> 9.54 us, 1.23x -> 1.21x. */
#define SCAN_LOOKBACK_FIRST_NS 1500u
#define SCAN_LOOKBACK_POLL_NS 700u
#define SCAN_LOOKBACK_MIN_THREADS 1024u
/* The best rung's tile: `block` threads x `items` elements each (16-byte vectors, items / 4 of them a thread).
 * The candidates `climb tune scan` tries, each listed once: the instance table and the tuning lists come from it.
 * Larger tiles mean fewer look-backs per byte and more bytes in flight per block, and more registers (fewer blocks
 * per SM). */
#define SCAN_BEST_CANDIDATES(X) X(128, 16) X(256, 8) X(256, 16) X(512, 16) X(128, 32) X(256, 32)
static const int SCAN_TUNE_BLOCKS[] = {128, 256, 512};
static const int SCAN_TUNE_ITEMS[] = {8, 16, 32};
#define SCAN_CANDIDATE_VALUES(b, i) b, i,
static const int SCAN_TUNE_CANDIDATES[] = {SCAN_BEST_CANDIDATES(SCAN_CANDIDATE_VALUES)};
/* Built-in values per architecture, used where no wisdom file matches the device.
 * CC 9.x: `climb tune scan` on an H100 (2026-11-22, f32 inclusive, cold L2, 2^24 and 2^28): 128 x 32 scored best
 * (59.5 us and 964 us), 256 x 32 and 512 x 16 within 2%, 256 x 16 3% slower, 256 x 8 26% slower: the tile
 * must hold 16 KB or more. */
typedef struct scan_arch_policy {
    int cc_major; /* 0: any other architecture */
    int block, items;
    const char *source;
} scan_arch_policy;
static const scan_arch_policy SCAN_ARCH_POLICY[] = {
    {9, 128, 32, "built-in CC 9.x policy (measured on an H100)"},
    {0, 256, 16, "built-in default (not measured on this architecture)"},
};
/* The smallest tile of any candidate: the status words a workspace needs are counted in these. */
#define SCAN_MIN_TILE 2048u

/* ---------------------------------------------------------------- the chained tiles' flags */

/* The single-pass rungs share the look-back primitives' workspace layout (src/device/device_primitives.cuh): a
 * ticket word, then a 64-bit status word per tile whose flag and epoch let a workspace serve launch after launch
 * with no reset; the wrapping launch clears it. */
#define SCAN_EPOCHS CLIMB_LOOKBACK_EPOCHS
#define SCAN_HDR CLIMB_LOOKBACK_HDR
typedef climb_lookback_hdr scan_hdr;

/* ---------------------------------------------------------------- kernels */

/* The section kernels of the hierarchical rungs share one signature: scan the section of `blockIdx.x`, write it,
 * and its total to sums[blockIdx.x]. They read the whole section before writing any of it, so out may be in (the
 * hierarchy scans the section sums in place). An exclusive scan of a section is the inclusive scan of its
 * inputs shifted right by one (the seed's way): slot t holds x[t - 1], slot 0 the identity. */

/* scan_kogge_stone: one section of BLOCK elements, one per thread, in shared memory. At step d every thread
 * adds the value d slots to its left: log2(BLOCK) steps, n log n adds (not work-efficient), each step two
 * barriers (every read of the step before any write). */
template <typename T, unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK) scan_kogge_stone_kernel(const T *in, T *out, size_t n, int exclusive, T *sums)
{
    __shared__ T s[BLOCK];
    const unsigned t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * BLOCK, i = base + t;
    const size_t src = exclusive ? i - 1 : i;
    s[t] = (exclusive && t == 0) || src >= n ? T(0) : in[src];
    T last = T(0);
    if (exclusive && t == BLOCK - 1 && i < n)
        last = in[i];
    for (unsigned d = 1; d < BLOCK; d <<= 1) {
        __syncthreads();
        const T v = t >= d ? s[t - d] : T(0);
        __syncthreads();
        if (t >= d)
            s[t] += v;
    }
    if (i < n)
        out[i] = s[t];
    if (t == BLOCK - 1)
        sums[blockIdx.x] = s[t] + last;
}

/* scan_kogge_stone_double_buffer: the same steps between two shared arrays, reading one and writing the other,
 * so a step needs one barrier instead of two. */
template <typename T, unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK) scan_kogge_stone_db_kernel(const T *in, T *out, size_t n, int exclusive,
                                                                    T *sums)
{
    __shared__ T s[2][BLOCK];
    const unsigned t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * BLOCK, i = base + t;
    const size_t src = exclusive ? i - 1 : i;
    s[0][t] = (exclusive && t == 0) || src >= n ? T(0) : in[src];
    T last = T(0);
    if (exclusive && t == BLOCK - 1 && i < n)
        last = in[i];
    unsigned cur = 0;
    for (unsigned d = 1; d < BLOCK; d <<= 1) {
        __syncthreads();
        s[cur ^ 1][t] = t >= d ? s[cur][t - d] + s[cur][t] : s[cur][t];
        cur ^= 1;
    }
    if (i < n)
        out[i] = s[cur][t];
    if (t == BLOCK - 1)
        sums[blockIdx.x] = s[cur][t] + last;
}

/* scan_brent_kung: a section of 2 x BLOCK elements, two per thread. An up-sweep reduction tree leaves partial
 * sums at power-of-two strides, a down-sweep distributes them: about 2 x 2 BLOCK adds in all (work-efficient),
 * twice the steps of Kogge-Stone, and many threads idle in each step. */
template <typename T, unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK) scan_brent_kung_kernel(const T *in, T *out, size_t n, int exclusive, T *sums)
{
    __shared__ T s[2 * BLOCK];
    const unsigned t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * (2 * BLOCK);
    for (unsigned k = t; k < 2 * BLOCK; k += BLOCK) {
        const size_t src = exclusive ? base + k - 1 : base + k;
        s[k] = (exclusive && k == 0) || src >= n ? T(0) : in[src];
    }
    T last = T(0);
    if (exclusive && t == BLOCK - 1 && base + 2 * BLOCK - 1 < n)
        last = in[base + 2 * BLOCK - 1];
    for (unsigned stride = 1; stride <= BLOCK; stride <<= 1) {
        __syncthreads();
        const unsigned k = (t + 1) * 2 * stride - 1;
        if (k < 2 * BLOCK)
            s[k] += s[k - stride];
    }
    for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        const unsigned k = (t + 1) * 2 * stride - 1;
        if (k + stride < 2 * BLOCK)
            s[k + stride] += s[k];
    }
    __syncthreads();
    for (unsigned k = t; k < 2 * BLOCK; k += BLOCK)
        if (base + k < n)
            out[base + k] = s[k];
    if (t == BLOCK - 1)
        sums[blockIdx.x] = s[2 * BLOCK - 1] + last;
}

/* The three-phase section of BLOCK x COARSE elements, with the block-wide step chosen by SHUFFLE:
 *   phase 1: the section is loaded coalesced into shared memory; each thread takes its COARSE consecutive
 *            elements and sums them sequentially (no barrier, no idle thread);
 *   phase 2: an exclusive scan of the BLOCK thread totals: Kogge-Stone in shared memory (scan_three_phase), or
 *            warp shuffles (scan_warp_shuffle: five register steps a warp, one warp over the warp totals);
 *   phase 3: each thread runs through its elements again from its prefix, back into shared memory, and the
 *            block stores the section coalesced.
 * With CHAIN the tile's prefix comes from the tile before it (scan_chained): the block draws its tile in start
 * order, waits for its predecessor's inclusive prefix and publishes its own; without, the section's total goes
 * to sums[] for the hierarchy. */
template <typename T, unsigned BLOCK, unsigned COARSE, bool SHUFFLE, bool CHAIN>
__device__ __forceinline__ void scan_staged_tile(const T *in, T *out, size_t n, int exclusive, T *sums, scan_hdr *h,
                                                 unsigned long long *status, unsigned capacity)
{
    constexpr unsigned TILE = BLOCK * COARSE;
    __shared__ T s[TILE];
    __shared__ T ks[SHUFFLE ? BLOCK / 32 + 1 : BLOCK];
    __shared__ T s_prefix;
    __shared__ unsigned s_tile, s_epoch;
    const unsigned t = threadIdx.x;
    unsigned tile = blockIdx.x, epoch = 0;
    if (CHAIN) {
        if (t == 0)
            climb_lookback_ticket(h, gridDim.x, &s_tile, &s_epoch);
        __syncthreads();
        tile = s_tile;
        epoch = s_epoch;
    }
    const size_t base = (size_t)tile * TILE;
    for (unsigned j = t; j < TILE; j += BLOCK)
        s[j] = base + j < n ? in[base + j] : T(0);
    __syncthreads();
    T x[COARSE];
    T total = T(0);
#pragma unroll
    for (unsigned c = 0; c < COARSE; c++) {
        x[c] = s[t * COARSE + c];
        total += x[c];
    }
    T pre, block_total;
    if (SHUFFLE) {
        pre = climb_block_exclusive_scan<climb_op_sum, BLOCK>(total, ks, &block_total);
    } else {
        ks[t] = total;
        for (unsigned d = 1; d < BLOCK; d <<= 1) {
            __syncthreads();
            const T v = t >= d ? ks[t - d] : T(0);
            __syncthreads();
            if (t >= d)
                ks[t] += v;
        }
        __syncthreads();
        pre = t > 0 ? ks[t - 1] : T(0);
        block_total = ks[BLOCK - 1];
    }
    if (CHAIN) {
        if (t == 0) {
            const unsigned marker = epoch + 1;
            T prefix = T(0);
            if (tile > 0) {
                unsigned long long w;
                do
                    w = climb_lookback_load(&status[tile - 1]);
                while ((unsigned)(w >> 33) != marker);
                prefix = climb_lookback_from_bits<T>((unsigned)w);
            }
            climb_lookback_publish(&status[tile], marker, 1, prefix + block_total);
            s_prefix = prefix;
        }
        __syncthreads();
        pre = s_prefix + pre;
    } else if (t == 0) {
        sums[blockIdx.x] = block_total;
    }
    __syncthreads(); /* every thread has read s */
    T run = pre;
#pragma unroll
    for (unsigned c = 0; c < COARSE; c++) {
        if (exclusive) {
            s[t * COARSE + c] = run;
            run += x[c];
        } else {
            run += x[c];
            s[t * COARSE + c] = run;
        }
    }
    __syncthreads();
    for (unsigned j = t; j < TILE; j += BLOCK)
        if (base + j < n)
            out[base + j] = s[j];
    if (CHAIN)
        climb_lookback_finish<BLOCK>(h, status, capacity, epoch, gridDim.x);
}

template <typename T, unsigned BLOCK, unsigned COARSE>
__global__ void __launch_bounds__(BLOCK) scan_three_phase_kernel(const T *in, T *out, size_t n, int exclusive, T *sums)
{
    scan_staged_tile<T, BLOCK, COARSE, false, false>(in, out, n, exclusive, sums, NULL, NULL, 0);
}

template <typename T, unsigned BLOCK, unsigned COARSE>
__global__ void __launch_bounds__(BLOCK) scan_warp_shuffle_kernel(const T *in, T *out, size_t n, int exclusive, T *sums)
{
    scan_staged_tile<T, BLOCK, COARSE, true, false>(in, out, n, exclusive, sums, NULL, NULL, 0);
}

/* scan_chained: one pass. The warp-shuffle tile, whose prefix is its predecessor's inclusive prefix, passed
 * along the chain of tiles through flags in global memory (L2): no second read and write of the data, but each
 * tile waits for the one before it, a chain of latencies across the whole array. Blocks take tiles in the order
 * they start (a ticket), so a block only waits on a tile whose block is already running. */
template <typename T, unsigned BLOCK, unsigned COARSE>
__global__ void __launch_bounds__(BLOCK) scan_chained_kernel(const T *in, T *out, size_t n, int exclusive, char *ws,
                                                             unsigned capacity)
{
    scan_staged_tile<T, BLOCK, COARSE, true, true>(in, out, n, exclusive, NULL, (scan_hdr *)ws,
                                                   (unsigned long long *)(ws + SCAN_HDR), capacity);
}

/* The hierarchy's last step: section b + 1 adds the inclusive scan of the section sums up to section b. */
template <typename T>
__global__ void scan_add_kernel(T *out, size_t n, const T *sums, unsigned section)
{
    const T a = sums[blockIdx.x];
    const size_t base = (size_t)(blockIdx.x + 1) * section;
    for (unsigned j = threadIdx.x; j < section && base + j < n; j += blockDim.x)
        out[base + j] = a + out[base + j];
}

/* scan_decoupled_lookback, the best rung: one pass, each tile's prefix found by looking back.
 * - Wide loads straight into registers: warp w of the block owns a contiguous stretch of the tile; in round k its
 *   lane l holds the W-element vector k x 32 + l of that stretch (16-byte loads and stores, 512 bytes a warp an
 *   instruction, no shared-memory staging). W = 1 when the arrays are not 16-byte aligned.
 * - Each round: the lane sums its vector, the warp scans the 32 sums with shuffles, a running carry joins the
 *   rounds; the warps' totals meet once in shared memory.
 * - Decoupled look-back: the tile publishes its aggregate at once (flag A), then warp 0 reads the 32 tiles before
 *   it in one go, adds aggregates back to the nearest tile that has published its inclusive prefix (flag P), and
 *   steps back 32 tiles more while none has; then it publishes its own inclusive prefix. No tile waits for a chain
 *   of its predecessors' look-backs, only for their aggregates, which they publish as soon as they have read their
 *   data. On a large input the wait is still the cost: the sleeps and the register budget above. */
template <typename T, unsigned BLOCK, unsigned ITEMS, unsigned W>
__global__ void __launch_bounds__(BLOCK, W == 4 ? SCAN_LOOKBACK_MIN_THREADS / BLOCK : 1)
    scan_lookback_kernel(const T *in, T *out, size_t n, int exclusive, char *ws, unsigned capacity)
{
    typedef typename std::conditional<W == 4, typename climb_vec16<T>::type, T>::type V;
    constexpr unsigned VECS = ITEMS / W, WARPS = BLOCK / 32, TILE = BLOCK * ITEMS;
    static_assert(ITEMS % W == 0 && (W == 1 || W == 4), "ITEMS whole vectors of 1 or 4 elements");
    __shared__ unsigned s_tile, s_epoch;
    __shared__ T s_warp[WARPS];
    scan_hdr *h = (scan_hdr *)ws;
    unsigned long long *status = (unsigned long long *)(ws + SCAN_HDR);
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (threadIdx.x == 0)
        climb_lookback_ticket(h, gridDim.x, &s_tile, &s_epoch);
    __syncthreads();
    const unsigned tile = s_tile, epoch = s_epoch, marker = epoch + 1;
    const size_t wbase = (size_t)tile * TILE + (size_t)warp * (VECS * 32 * W);
    const bool full = (size_t)tile * TILE + TILE <= n;

    T x[VECS][W];
    if (full) {
        const V *src = reinterpret_cast<const V *>(in + wbase);
#pragma unroll
        for (unsigned k = 0; k < VECS; k++) {
            const V v = __ldcs(&src[k * 32 + lane]); /* streamed: read once, kept out of the way in L2 */
            memcpy(x[k], &v, sizeof v);
        }
    } else {
#pragma unroll
        for (unsigned k = 0; k < VECS; k++)
#pragma unroll
            for (unsigned e = 0; e < W; e++) {
                const size_t i = wbase + (size_t)(k * 32 + lane) * W + e;
                x[k][e] = i < n ? in[i] : T(0);
            }
    }

    T pre[VECS], carry = T(0);
#pragma unroll
    for (unsigned k = 0; k < VECS; k++) {
        T sum = x[k][0];
#pragma unroll
        for (unsigned e = 1; e < W; e++)
            sum += x[k][e];
        const T inc = climb_warp_inclusive_scan<climb_op_sum>(sum);
        const T exc = __shfl_up_sync(0xffffffffu, inc, 1);
        pre[k] = carry + (lane == 0 ? T(0) : exc);
        carry = carry + __shfl_sync(0xffffffffu, inc, 31);
    }
    if (lane == 0)
        s_warp[warp] = carry;
    __syncthreads();

    if (warp == 0) {
        const T a = lane < WARPS ? s_warp[lane] : T(0);
        const T inc = climb_warp_inclusive_scan<climb_op_sum>(a);
        const T aggregate = __shfl_sync(0xffffffffu, inc, 31);
        const T up = __shfl_up_sync(0xffffffffu, inc, 1); /* every lane: the mask names all 32 */
        const T wexc = lane == 0 ? T(0) : up;
        const T prefix =
            climb_lookback_prefix<T>(status, tile, marker, aggregate, SCAN_LOOKBACK_FIRST_NS, SCAN_LOOKBACK_POLL_NS);
        if (lane < WARPS)
            s_warp[lane] = prefix + wexc;
    }
    __syncthreads();
    const T wp = s_warp[warp];

#pragma unroll
    for (unsigned k = 0; k < VECS; k++) {
        T run = wp + pre[k];
#pragma unroll
        for (unsigned e = 0; e < W; e++) {
            const T v = x[k][e];
            if (exclusive) {
                x[k][e] = run;
                run += v;
            } else {
                run += v;
                x[k][e] = run;
            }
        }
    }
    if (full) {
        V *dst = reinterpret_cast<V *>(out + wbase);
#pragma unroll
        for (unsigned k = 0; k < VECS; k++) {
            V v;
            memcpy(&v, x[k], sizeof v);
            __stcs(&dst[k * 32 + lane], v);
        }
    } else {
#pragma unroll
        for (unsigned k = 0; k < VECS; k++)
#pragma unroll
            for (unsigned e = 0; e < W; e++) {
                const size_t i = wbase + (size_t)(k * 32 + lane) * W + e;
                if (i < n)
                    out[i] = x[k][e];
            }
    }
    climb_lookback_finish<BLOCK>(h, status, capacity, epoch, gridDim.x);
}

/* ---------------------------------------------------------------- launchers */

typedef cudaError_t (*scan_launch_fn)(const climb_scan_tuning *tn, climb_dtype t, int exclusive, const void *in,
                                      void *out, size_t n, void *ws, size_t ws_bytes, cudaStream_t s);

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

/* The hierarchy: the section sums of each level, one after another, each rounded up to 16 bytes. */
static size_t hier_workspace(size_t n, size_t section)
{
    size_t bytes = 16;
    for (size_t m = ceil_div(n, section); m > 1; m = ceil_div(m, section))
        bytes += ceil_div(m, 4) * 16;
    return bytes;
}

template <typename T> struct section_kernel { typedef void (*fn)(const T *, T *, size_t, int, T *); };

/* Scan n elements section by section; if there is more than one, scan the section sums (in place, inclusive)
 * by the same rung, and add them back. */
template <typename T>
static cudaError_t hier_scan(typename section_kernel<T>::fn k, unsigned threads, unsigned section, const T *in, T *out,
                             size_t n, int exclusive, char *ws, cudaStream_t s)
{
    if (n == 0)
        return cudaSuccess;
    const size_t nb = ceil_div(n, section);
    if (nb > INT_MAX)
        return cudaErrorInvalidValue;
    T *sums = (T *)ws;
    k<<<(unsigned)nb, threads, 0, s>>>(in, out, n, exclusive, sums);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || nb == 1)
        return e;
    e = hier_scan<T>(k, threads, section, sums, sums, nb, 0, ws + ceil_div(nb, 4) * 16, s);
    if (e != cudaSuccess)
        return e;
    scan_add_kernel<T><<<(unsigned)(nb - 1), 256, 0, s>>>(out, n, sums, section);
    return cudaGetLastError();
}

/* One launcher per hierarchical rung: its section kernel, threads and section size. */
#define SCAN_HIER_RUNG(name, kernel, threads, section)                                                           \
    template <typename T>                                                                                      \
    static cudaError_t name##_typed(int ex, const void *in, void *out, size_t n, void *ws, cudaStream_t s)     \
    {                                                                                                          \
        return hier_scan<T>(kernel, threads, section, (const T *)in, (T *)out, n, ex, (char *)ws, s);          \
    }                                                                                                          \
    static cudaError_t name(const climb_scan_tuning *, climb_dtype t, int ex, const void *in, void *out,       \
                            size_t n, void *ws, size_t wsb, cudaStream_t s)                                    \
    {                                                                                                          \
        if (wsb < hier_workspace(n, section))                                                                  \
            return cudaErrorInvalidValue;                                                                      \
        return climb_typed<CLIMB_TYPES_I32_F32>(t, cudaErrorInvalidValue, [&](auto x) {                        \
            return name##_typed<decltype(x)>(ex, in, out, n, ws, s);                                           \
        });                                                                                                    \
    }                                                                                                          \
    static size_t name##_ws(const climb_scan_tuning *, size_t n) { return hier_workspace(n, section); }

SCAN_HIER_RUNG(launch_kogge_stone, (scan_kogge_stone_kernel<T, SCAN_BLOCK>), SCAN_BLOCK, SCAN_BLOCK)
SCAN_HIER_RUNG(launch_kogge_stone_db, (scan_kogge_stone_db_kernel<T, SCAN_BLOCK>), SCAN_BLOCK, SCAN_BLOCK)
SCAN_HIER_RUNG(launch_brent_kung, (scan_brent_kung_kernel<T, SCAN_BLOCK>), SCAN_BLOCK, 2 * SCAN_BLOCK)
SCAN_HIER_RUNG(launch_three_phase, (scan_three_phase_kernel<T, SCAN_BLOCK, SCAN_COARSE>), SCAN_BLOCK,
               SCAN_BLOCK * SCAN_COARSE)
SCAN_HIER_RUNG(launch_warp_shuffle, (scan_warp_shuffle_kernel<T, SCAN_BLOCK, SCAN_COARSE>), SCAN_BLOCK,
               SCAN_BLOCK * SCAN_COARSE)

/* The single-pass rungs' workspace: the header and one status word per tile. */
static size_t chain_workspace(size_t n, size_t tile) { return SCAN_HDR + 8 * (ceil_div(n, tile) + 1); }

static size_t launch_chained_ws(const climb_scan_tuning *, size_t n)
{
    return chain_workspace(n, SCAN_BLOCK * SCAN_COARSE);
}

static cudaError_t launch_chained(const climb_scan_tuning *, climb_dtype t, int ex, const void *in, void *out, size_t n,
                              void *ws, size_t wsb,
                                  cudaStream_t s)
{
    const size_t tiles = ceil_div(n, SCAN_BLOCK * SCAN_COARSE);
    if (n == 0)
        return cudaSuccess;
    if (wsb < chain_workspace(n, SCAN_BLOCK * SCAN_COARSE) || tiles > INT_MAX)
        return cudaErrorInvalidValue;
    const unsigned cap = (unsigned)((wsb - SCAN_HDR) / 8 < UINT_MAX ? (wsb - SCAN_HDR) / 8 : UINT_MAX);
    return climb_typed<CLIMB_TYPES_I32_F32>(t, cudaErrorInvalidValue, [&](auto x) {
        typedef decltype(x) T;
        scan_chained_kernel<T, SCAN_BLOCK, SCAN_COARSE>
            <<<(unsigned)tiles, SCAN_BLOCK, 0, s>>>((const T *)in, (T *)out, n, ex, (char *)ws, cap);
        return cudaGetLastError();
    });
}

extern "C" size_t climb_scan_best_workspace(const climb_scan_tuning *tn, size_t n)
{
    return chain_workspace(n, (size_t)tn->block * tn->items);
}

template <typename T> struct lookback_kernel {
    typedef void (*fn)(const T *, T *, size_t, int, char *, unsigned);
};
/* The instances of the candidates: 16-byte and scalar, per type. */
struct lookback_instance {
    int block, items;
    lookback_kernel<int>::fn i_vec, i_scalar;
    lookback_kernel<float>::fn f_vec, f_scalar;
};
#define SCAN_INSTANCE_ROW(b, i)                                                                                  \
    {b, i, scan_lookback_kernel<int, b, i, 4>, scan_lookback_kernel<int, b, i, 1>,                               \
     scan_lookback_kernel<float, b, i, 4>, scan_lookback_kernel<float, b, i, 1>},
static const lookback_instance SCAN_INSTANCES[] = {SCAN_BEST_CANDIDATES(SCAN_INSTANCE_ROW)};

static const lookback_instance *find_instance(const climb_scan_tuning *tn)
{
    for (int k = 0; k < CLIMB_COUNT(SCAN_INSTANCES); k++)
        if (SCAN_INSTANCES[k].block == tn->block && SCAN_INSTANCES[k].items == tn->items)
            return &SCAN_INSTANCES[k];
    return NULL;
}

/* An instance's 16-byte and scalar kernels of one type. */
static void kernels_of(const lookback_instance *k, lookback_kernel<int>::fn *vec, lookback_kernel<int>::fn *scalar)
{
    *vec = k->i_vec;
    *scalar = k->i_scalar;
}
static void kernels_of(const lookback_instance *k, lookback_kernel<float>::fn *vec, lookback_kernel<float>::fn *scalar)
{
    *vec = k->f_vec;
    *scalar = k->f_scalar;
}

/* The 16-byte instance where both arrays are 16-byte aligned, else the scalar one. */
template <typename T>
static cudaError_t launch_lookback(typename lookback_kernel<T>::fn vec, typename lookback_kernel<T>::fn scalar,
                                   unsigned block, int ex, const void *in, void *out, size_t n, char *ws,
                                   unsigned tiles, unsigned cap, cudaStream_t s)
{
    const bool aligned = (((uintptr_t)in | (uintptr_t)out) & 15) == 0;
    (aligned ? vec : scalar)<<<tiles, block, 0, s>>>((const T *)in, (T *)out, n, ex, ws, cap);
    return cudaGetLastError();
}

extern "C" cudaError_t climb_scan_best(const climb_scan_tuning *tn, climb_dtype t, int exclusive, const void *in,
                                       void *out, size_t n, void *ws, size_t ws_bytes, cudaStream_t s)
{
    const lookback_instance *k = find_instance(tn);
    if (!k || (t != CLIMB_I32 && t != CLIMB_F32))
        return cudaErrorInvalidValue;
    if (n == 0)
        return cudaSuccess;
    const size_t tiles = ceil_div(n, (size_t)k->block * k->items);
    if (ws_bytes < climb_scan_best_workspace(tn, n) || tiles > INT_MAX)
        return cudaErrorInvalidValue;
    const unsigned cap = (unsigned)((ws_bytes - SCAN_HDR) / 8 < UINT_MAX ? (ws_bytes - SCAN_HDR) / 8 : UINT_MAX);
    return climb_typed<CLIMB_TYPES_I32_F32>(t, cudaErrorInvalidValue, [&](auto x) {
        typedef decltype(x) T;
        typename lookback_kernel<T>::fn vec, scalar;
        kernels_of(k, &vec, &scalar);
        return launch_lookback<T>(vec, scalar, k->block, exclusive, in, out, n, (char *)ws, (unsigned)tiles, cap, s);
    });
}

extern "C" cudaError_t climb_scan_best_set_epoch(void *ws, uint32_t epoch)
{
    const unsigned long long word = (unsigned long long)epoch << 32;
    return cudaMemcpy(ws, &word, sizeof word, cudaMemcpyHostToDevice);
}

extern "C" uint32_t climb_scan_epochs(void) { return SCAN_EPOCHS; }

static cudaError_t launch_best(const climb_scan_tuning *tn, climb_dtype t, int ex, const void *in, void *out,
                               size_t n, void *ws, size_t wsb, cudaStream_t s)
{
    return climb_scan_best(tn, t, ex, in, out, n, ws, wsb, s);
}

/* The vendor rung, CUB's DeviceScan (decoupled look-back too), 32-bit offsets where n fits. The workspace size
 * comes from CUB's own query, made once before timing. */
template <typename T, typename Offset>
static cudaError_t cub_scan(void *ws, size_t *bytes, int ex, const T *in, T *out, size_t n, cudaStream_t s)
{
    return ex ? cub::DeviceScan::ExclusiveSum(ws, *bytes, in, out, (Offset)n, s)
              : cub::DeviceScan::InclusiveSum(ws, *bytes, in, out, (Offset)n, s);
}

template <typename T>
static cudaError_t cub_scan_any(void *ws, size_t *bytes, int ex, const T *in, T *out, size_t n, cudaStream_t s)
{
    return n <= (size_t)INT_MAX ? cub_scan<T, int>(ws, bytes, ex, in, out, n, s)
                                : cub_scan<T, int64_t>(ws, bytes, ex, in, out, n, s);
}

static size_t launch_cub_ws(const climb_scan_tuning *, size_t n)
{
    size_t most = 0;
    for (int ex = 0; ex < 2; ex++) {
        size_t a = 0, b = 0;
        if (cub_scan_any<int>(NULL, &a, ex, NULL, NULL, n, 0) != cudaSuccess ||
            cub_scan_any<float>(NULL, &b, ex, NULL, NULL, n, 0) != cudaSuccess)
            return 0;
        most = a > most ? a : most;
        most = b > most ? b : most;
    }
    return most + 16;
}

static cudaError_t launch_cub(const climb_scan_tuning *, climb_dtype t, int ex, const void *in, void *out, size_t n,
                              void *ws, size_t wsb,
                              cudaStream_t s)
{
    if (n == 0)
        return cudaSuccess;
    return climb_typed<CLIMB_TYPES_I32_F32>(t, cudaErrorInvalidValue, [&](auto x) {
        typedef decltype(x) T;
        return cub_scan_any<T>(ws, &wsb, ex, (const T *)in, (T *)out, n, s);
    });
}

/* The bound: the same bytes moved by the copy engine's device-to-device copy. */
static cudaError_t launch_copy(const climb_scan_tuning *, climb_dtype t, int ex, const void *in, void *out, size_t n,
                              void *ws, size_t wsb,
                               cudaStream_t s)
{
    (void)ex;
    (void)ws;
    (void)wsb;
    return cudaMemcpyAsync(out, in, n * climb_dtype_size(t), cudaMemcpyDeviceToDevice, s);
}

static size_t no_workspace(const climb_scan_tuning *, size_t) { return 16; }

/* ---------------------------------------------------------------- the registry */

/* The kernels each rung launches, per type, for `climb occupancy --kernel` and the occupancy test. */
template <typename T> static const void *k_ks_f() { return (const void *)scan_kogge_stone_kernel<T, SCAN_BLOCK>; }
template <typename T> static const void *k_ksdb_f() { return (const void *)scan_kogge_stone_db_kernel<T, SCAN_BLOCK>; }
template <typename T> static const void *k_bk_f() { return (const void *)scan_brent_kung_kernel<T, SCAN_BLOCK>; }
template <typename T> static const void *k_tp_f()
{
    return (const void *)scan_three_phase_kernel<T, SCAN_BLOCK, SCAN_COARSE>;
}
template <typename T> static const void *k_ws_f()
{
    return (const void *)scan_warp_shuffle_kernel<T, SCAN_BLOCK, SCAN_COARSE>;
}

/* A hierarchical rung lists its section kernel and the add-back kernel. */
static int hier_kernels(climb_dtype t, const void *fi, const void *ff, const char *kname, unsigned threads,
                        climb_kernel_desc *o, int max)
{
    const bool i = t == CLIMB_I32;
    char name[96];
    snprintf(name, sizeof name, "%s<%s>", kname, i ? "int" : "float");
    climb_one_kernel(o, max, i ? fi : ff, name, (int)threads, 0);
    if (max > 1) {
        snprintf(name, sizeof name, "scan_add_kernel<%s>", i ? "int" : "float");
        climb_one_kernel(o + 1, max - 1, i ? (const void *)scan_add_kernel<int> : (const void *)scan_add_kernel<float>,
                         name, 256, 0);
    }
    return 2;
}

#define SCAN_HIER_KERNELS(fname, getter, kname)                                                                  \
    static int fname(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)     \
    {                                                                                                          \
        return hier_kernels(t, getter<int>(), getter<float>(), kname, SCAN_BLOCK, o, max);                     \
    }
SCAN_HIER_KERNELS(k_kogge_stone, k_ks_f, "scan_kogge_stone_kernel")
SCAN_HIER_KERNELS(k_kogge_stone_db, k_ksdb_f, "scan_kogge_stone_db_kernel")
SCAN_HIER_KERNELS(k_brent_kung, k_bk_f, "scan_brent_kung_kernel")
SCAN_HIER_KERNELS(k_three_phase, k_tp_f, "scan_three_phase_kernel")
SCAN_HIER_KERNELS(k_warp_shuffle, k_ws_f, "scan_warp_shuffle_kernel")

static int k_chained(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    const bool i = t == CLIMB_I32;
    return climb_one_kernel(o, max,
                            i ? (const void *)scan_chained_kernel<int, SCAN_BLOCK, SCAN_COARSE>
                              : (const void *)scan_chained_kernel<float, SCAN_BLOCK, SCAN_COARSE>,
                            i ? "scan_chained_kernel<int>" : "scan_chained_kernel<float>", SCAN_BLOCK, 0);
}

/* The best rung: the 16-byte instance and the scalar one (arrays not 16-byte aligned) of the tuned tile. */
static int k_lookback(climb_dtype t, const climb_device_info *, const int *tuning, climb_kernel_desc *o, int max)
{
    climb_scan_tuning tn;
    climb_scan_set_tuning(&tn, tuning);
    const lookback_instance *k = find_instance(&tn);
    if (!k)
        return 0;
    const bool i = t == CLIMB_I32;
    const void *f[2] = {i ? (const void *)k->i_vec : (const void *)k->f_vec,
                        i ? (const void *)k->i_scalar : (const void *)k->f_scalar};
    for (int v = 0; v < 2 && v < max; v++) {
        char name[96];
        snprintf(name, sizeof name, "scan_lookback_kernel<%s, %d, %d, %s>", i ? "int" : "float", k->block, k->items,
                 v ? "scalar" : "16-byte");
        climb_one_kernel(o + v, max - v, f[v], name, k->block, 0);
    }
    return 2;
}

typedef struct scan_rung {
    climb_rung_info info;
    scan_launch_fn launch;
    size_t (*workspace)(const climb_scan_tuning *tn, size_t n);
    size_t chain_tile;   /* f32 tolerance: elements per add on a chain of tiles (0: no chain; see climb_scan_depth);
                            the best rung's follows its tuned tile, in scan_verify */
} scan_rung;

static const scan_rung SCAN_RUNGS[] = {
    {.info = {.name = "cub_device_scan", .idea = "vendor: cub::DeviceScan::InclusiveSum / ExclusiveSum", .needs = "",
              .kind = CLIMB_RUNG_VENDOR, .kernels = NULL},
     .launch = launch_cub, .workspace = launch_cub_ws, .chain_tile = 16},
    {.info = {.name = "device_copy", .idea = "bound: cudaMemcpyAsync of the same n elements, device to device",
              .needs = "", .kind = CLIMB_RUNG_BOUND, .kernels = NULL},
     .launch = launch_copy, .workspace = no_workspace, .chain_tile = 0},
    {.info = {.name = "kogge_stone", .idea = "PMPP's block scan: log2(B) steps in shared memory, two barriers a "
                                             "step; hierarchical for any n",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_kogge_stone},
     .launch = launch_kogge_stone, .workspace = launch_kogge_stone_ws, .chain_tile = 0},
    {.info = {.name = "kogge_stone_double_buffer", .idea = "two shared arrays, read one and write the other: one "
                                                           "barrier a step",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_kogge_stone_db},
     .launch = launch_kogge_stone_db, .workspace = launch_kogge_stone_db_ws, .chain_tile = 0},
    {.info = {.name = "brent_kung", .idea = "work-efficient up-sweep and down-sweep trees, two elements a thread",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_brent_kung},
     .launch = launch_brent_kung, .workspace = launch_brent_kung_ws, .chain_tile = 0},
    {.info = {.name = "three_phase", .idea = "coarsening: 8 elements a thread scanned sequentially, Kogge-Stone over "
                                             "the thread totals",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_three_phase},
     .launch = launch_three_phase, .workspace = launch_three_phase_ws, .chain_tile = 0},
    {.info = {.name = "warp_shuffle", .idea = "the thread totals scanned with warp shuffles instead of shared "
                                              "memory",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_warp_shuffle},
     .launch = launch_warp_shuffle, .workspace = launch_warp_shuffle_ws, .chain_tile = 0},
    {.info = {.name = "chained", .idea = "one pass: each tile waits for its predecessor's prefix through a flag; "
                                         "tiles taken in start order",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_chained},
     .launch = launch_chained, .workspace = launch_chained_ws, .chain_tile = SCAN_BLOCK * SCAN_COARSE / 8},
    {.info = {.name = "decoupled_lookback", .idea = "tiles publish aggregates at once and look back 32 at a time; "
                                                    "16-byte loads into registers",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_lookback},
     .launch = launch_best, .workspace = climb_scan_best_workspace, .chain_tile = 0},
};
#define SCAN_N_RUNGS CLIMB_COUNT(SCAN_RUNGS)

static const climb_rung_info *scan_rung_info(int i) { return &SCAN_RUNGS[i].info; }

/* ---------------------------------------------------------------- tuning (experiment mode) */

static const climb_tunable SCAN_TUNABLES[] = {
    {.name = "block", .meaning = "threads per block", .values = SCAN_TUNE_BLOCKS,
     .n_values = CLIMB_COUNT(SCAN_TUNE_BLOCKS)},
    {.name = "items", .meaning = "elements per thread", .values = SCAN_TUNE_ITEMS,
     .n_values = CLIMB_COUNT(SCAN_TUNE_ITEMS)},
};

static const char *scan_tuning_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *v)
{
    (void)k; /* the same tile for every n and type */
    const int n = CLIMB_COUNT(SCAN_ARCH_POLICY);
    const scan_arch_policy *p = &SCAN_ARCH_POLICY[n - 1];
    for (int i = 0; i < n - 1; i++)
        if (SCAN_ARCH_POLICY[i].cc_major == dev->cc_major)
            p = &SCAN_ARCH_POLICY[i];
    v[0] = p->block;
    v[1] = p->items;
    return p->source;
}

static const climb_tuning SCAN_TUNING = {
    .params = SCAN_TUNABLES,
    .n_params = CLIMB_COUNT(SCAN_TUNABLES),
    .candidates = SCAN_TUNE_CANDIDATES,
    .n_candidates = CLIMB_COUNT(SCAN_TUNE_CANDIDATES) / 2,
    .defaults = scan_tuning_defaults,
    .rejects = NULL,
};

extern "C" void climb_scan_set_tuning(climb_scan_tuning *t, const int *v)
{
    t->block = v[0];
    t->items = v[1];
}

/* ---------------------------------------------------------------- options */

static const char *const SCAN_KINDS[] = {"inclusive", "exclusive", NULL};
enum { OPT_KIND };
static constexpr climb_option SCAN_OPTIONS[] = {
    {.name = "kind", .kind = CLIMB_OPT_CHOICE,
     .meaning = "inclusive (out[i] = x[0] + ... + x[i]) or exclusive (out[i] = x[0] + ... + x[i-1], out[0] = 0)",
     .def = "all", .choices = SCAN_KINDS},
};
CLIMB_OPTION_AT(SCAN_OPTIONS, OPT_KIND, "kind");

/* ---------------------------------------------------------------- harness glue */

struct climb_case {
    climb_case_params p;
    size_t n;
    int exclusive;
    void *h_in, *d_in;    /* n elements (the device's the offset's elements past its allocation) */
    void *h_out, *d_out;
    int32_t *ref_i32;     /* i32: the exact scan */
    double *ref_f32;      /* f32: the scan in double */
    float *abs_f32;       /* f32: sum of |x_j| over each output's inputs */
    void *d_ws;
    size_t ws_bytes;
    climb_scan_tuning tune;  /* the best rung's tile */
};

static void scan_fini(climb_case *c) { cudaFree(c->d_ws); }

static int scan_init(climb_case *c)
{
    c->n = c->p.shape.d[0];
    c->exclusive = c->p.opts[OPT_KIND].choice == 1;
    return 0;
}

/* i32: the full 32-bit range, so every partial sum wraps and a lost or doubled element shows at every later output.
 * f32: uniform in [-1, 1), signs mixed so that partial sums cancel. */
static int scan_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    if (c->p.type == CLIMB_I32) {
        double lo, hi;
        climb_dtype_full_range(CLIMB_I32, &lo, &hi);
        climb_rng_fill(&rng, CLIMB_I32, c->h_in, c->n, lo, hi);
        climb_scan_ref_i32((const int32_t *)c->h_in, c->n, c->exclusive, c->ref_i32);
    } else {
        climb_rng_fill_f32(&rng, (float *)c->h_in, c->n, -1.0f, 1.0f);
        climb_scan_ref_f32((const float *)c->h_in, c->n, c->exclusive, c->ref_f32, c->abs_f32);
    }
    return 0;
}

static size_t array_bytes(const climb_case *c) { return c->n * 4; }
static size_t i32_ref_bytes(const climb_case *c) { return c->p.type == CLIMB_I32 ? c->n * 4 : 0; }
static size_t f32_ref_bytes(const climb_case *c) { return c->p.type == CLIMB_F32 ? c->n * 8 : 0; }
static size_t f32_abs_bytes(const climb_case *c) { return c->p.type == CLIMB_F32 ? c->n * 4 : 0; }

static const climb_buffer SCAN_BUFFERS[] = {
    {.name = "in", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT | CLIMB_BUF_OFFSET,
     .bytes = array_bytes, .host_at = offsetof(climb_case, h_in), .device_at = offsetof(climb_case, d_in)},
    {.name = "out", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET,
     .bytes = array_bytes, .host_at = offsetof(climb_case, h_out), .device_at = offsetof(climb_case, d_out)},
    {.name = "the i32 reference", .flags = CLIMB_BUF_HOST, .bytes = i32_ref_bytes,
     .host_at = offsetof(climb_case, ref_i32)},
    {.name = "the f32 reference", .flags = CLIMB_BUF_HOST, .bytes = f32_ref_bytes,
     .host_at = offsetof(climb_case, ref_f32)},
    {.name = "the f32 magnitudes", .flags = CLIMB_BUF_HOST, .bytes = f32_abs_bytes,
     .host_at = offsetof(climb_case, abs_f32)},
};

static const char *scan_describe(const climb_case *c)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "%s scan; %s; arrays start %u elements past 256-byte alignment",
             c->exclusive ? "exclusive" : "inclusive",
             c->p.type == CLIMB_I32 ? "x uniform over all of i32" : "x uniform in [-1, 1)", c->p.offset);
    return buf;
}


static int scan_verify(climb_case *c, int rung, char *msg, size_t msglen);

static int scan_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    const char *what = c->p.type == CLIMB_I32
                           ? "CPU scan, exact (wrapped modulo 2^32), every element"
                           : "CPU scan in double, every element; |got - ref| <= gamma(H) sum|x_j| (H: the "
                             "rung's summation height, docs/scan.md)";
    if (mode == CLIMB_REF_VENDOR) { /* its output downloaded by the harness */
        char msg[300];
        const int v = scan_verify(c, climb_vendor_rung(&climb_scan_workload), msg, sizeof msg);
        if (v != 0) {
            snprintf(desc, desclen, "cub_device_scan disagrees with the %s: %s", what, msg);
            return v < 0 ? -1 : 1;
        }
        snprintf(desc, desclen, "%s (cub_device_scan agrees)", what);
        return 0;
    }
    snprintf(desc, desclen, "%s", what);
    return 0;
}

static const char *scan_refuses(const climb_case *c, int rung)
{
    const size_t tile = SCAN_RUNGS[rung].launch == launch_best ? SCAN_MIN_TILE : SCAN_BLOCK;
    if (ceil_div(c->n, tile) > INT_MAX)
        return "more tiles than a 1-D grid holds";
    return NULL;
}

static int scan_prepare(climb_case *c, int rung)
{
    const size_t need = SCAN_RUNGS[rung].workspace(&c->tune, c->n);
    if (need == 0) {
        fprintf(stderr, "climb: %s could not size its workspace for n = %zu\n", SCAN_RUNGS[rung].info.name, c->n);
        return -1;
    }
    if (climb_grow_device_buffer(&c->d_ws, &c->ws_bytes, need) != 0)
        return -1;
    CLIMB_CHECK(cudaMemset(c->d_ws, 0, c->ws_bytes)); /* the single-pass rungs' flags start at epoch 0 */
    return 0;
}

static int scan_run(climb_case *c, int rung, cudaStream_t s)
{
    CLIMB_CHECK(
        SCAN_RUNGS[rung].launch(&c->tune, c->p.type, c->exclusive, c->d_in, c->d_out, c->n, c->d_ws, c->ws_bytes, s));
    return 0;
}

/* i32: the bitwise complement of the right answer at every element; f32: NaN. */
static int scan_poison(climb_case *c)
{
    if (c->p.type == CLIMB_I32) {
        int32_t *h = (int32_t *)c->h_out;
        for (size_t i = 0; i < c->n; i++)
            h[i] = ~c->ref_i32[i];
        CLIMB_CHECK(cudaMemcpy(c->d_out, h, c->n * 4, cudaMemcpyHostToDevice));
    } else {
        CLIMB_CHECK(cudaMemset(c->d_out, 0xFF, c->n * 4));
    }
    return 0;
}

/* out (downloaded by the harness): the bound's copy bit for bit; i32 exactly; f32 within each element's bound. */
static int scan_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    const bool f32 = c->p.type == CLIMB_F32;
    if (SCAN_RUNGS[rung].info.kind == CLIMB_RUNG_BOUND) { /* the copy: out == in, bit for bit */
        for (size_t i = 0; i < c->n; i++) {
            const double got = f32 ? ((float *)c->h_out)[i] : ((int32_t *)c->h_out)[i];
            const double want = f32 ? ((float *)c->h_in)[i] : ((int32_t *)c->h_in)[i];
            climb_compare_check(&k, memcmp((char *)c->h_out + 4 * i, (char *)c->h_in + 4 * i, 4) == 0,
                                "out[%zu] = %.9g, expected %.9g", i, got, want);
        }
    } else if (!f32) {
        const int32_t *g = (const int32_t *)c->h_out;
        for (size_t i = 0; i < c->n; i++)
            climb_compare_exact(&k, g[i], c->ref_i32[i], "out[%zu]", i);
    } else {
        const float *g = (const float *)c->h_out;
        const size_t chain = SCAN_RUNGS[rung].launch == launch_best ? (size_t)c->tune.block * c->tune.items / 8
                                                                    : SCAN_RUNGS[rung].chain_tile;
        for (size_t i = 0; i < c->n; i++)
            climb_compare_close(&k, g[i], c->ref_f32[i], climb_scan_tol_f32(c->abs_f32[i], climb_scan_depth(i, chain)),
                                "out[%zu]", i);
    }
    return climb_compare_end(&k);
}

static void scan_set_tuning(climb_case *c, const int *values) { climb_scan_set_tuning(&c->tune, values); }

static void scan_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->bytes_read = (double)c->n * 4;
    out->bytes_written = (double)c->n * 4;
    out->flops = c->p.type == CLIMB_F32 && c->n > 0 ? (double)(c->n - 1) : 0.0;
}

static const climb_shape SCAN_BENCH_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 20), CLIMB_SHAPE1((size_t)1 << 24),
                                                CLIMB_SHAPE1((size_t)1 << 28), CLIMB_SHAPE1(10000019)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape SCAN_MAIN_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 24)};
/* 0, 1, a warp and a block either side, every section size (512, 1024, 4096) either side, the hierarchy's second
 * and third levels (512^2 and past), and odd sizes. */
static const climb_shape SCAN_CHECK_SHAPES[] = {
    CLIMB_SHAPE1(0),      CLIMB_SHAPE1(1),      CLIMB_SHAPE1(2),       CLIMB_SHAPE1(3),       CLIMB_SHAPE1(5),
    CLIMB_SHAPE1(31),     CLIMB_SHAPE1(32),     CLIMB_SHAPE1(33),      CLIMB_SHAPE1(255),     CLIMB_SHAPE1(256),
    CLIMB_SHAPE1(257),    CLIMB_SHAPE1(511),    CLIMB_SHAPE1(512),     CLIMB_SHAPE1(513),     CLIMB_SHAPE1(1023),
    CLIMB_SHAPE1(1024),   CLIMB_SHAPE1(1025),   CLIMB_SHAPE1(4095),    CLIMB_SHAPE1(4096),    CLIMB_SHAPE1(4097),
    CLIMB_SHAPE1(8191),   CLIMB_SHAPE1(131071), CLIMB_SHAPE1(131073),  CLIMB_SHAPE1(262143),  CLIMB_SHAPE1(262145),
    CLIMB_SHAPE1(524289), CLIMB_SHAPE1(1000003), CLIMB_SHAPE1((size_t)1 << 20), CLIMB_SHAPE1(((size_t)1 << 22) + 1),
    CLIMB_SHAPE1(((size_t)1 << 24) + 7)};
static const climb_shape SCAN_QUICK_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(4097), CLIMB_SHAPE1(262145)};

/* The ladder against n: f32 inclusive, 2^12 (one tile of the best rung) to 2^28. */
static const climb_sweep SCAN_SWEEPS[] = {
    {.name = "sizes",
     .title = "inclusive prefix sum of f32: GB/s (read + written) against n",
     .args = "--type f32 --set kind=inclusive --size 2^12 --size 2^14 --size 2^16 --size 2^18 --size 2^20 "
             "--size 2^22 --size 2^24 --size 2^26 --size 2^28",
     .x = "n",
     .log_x = 1},
};

/* The host memory a case needs at the least (input and output), for the harness's check before anything is allocated. */
static double scan_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return 2.0 * (double)s->d[0] * (double)climb_dtype_size(t);
}

extern "C" const climb_workload climb_scan_workload = {
    .name = "scan",
    .title = "Prefix sum (inclusive and exclusive scan)",
    .seed_ref = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors, scan (Kogge-Stone, Brent-Kung, "
                "three-phase, hierarchical, single-pass with dynamic block "
                "indices)",
    .dims = {"n"},
    .types = CLIMB_TYPE_BIT(CLIMB_I32) | CLIMB_TYPE_BIT(CLIMB_F32),
    .options = SCAN_OPTIONS,
    .n_options = CLIMB_COUNT(SCAN_OPTIONS),
    .bytes_counted = "read: n x 4 bytes; written: n x 4 bytes",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = SCAN_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(SCAN_BENCH_SHAPES),
    .check_shapes = SCAN_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(SCAN_CHECK_SHAPES),
    .quick_shapes = SCAN_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(SCAN_QUICK_SHAPES),
    .main_shapes = SCAN_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(SCAN_MAIN_SHAPES),
    .check_max_offset = 3,
    .n_rungs = SCAN_N_RUNGS,
    .rung = scan_rung_info,
    .published = NULL,
    .sweeps = SCAN_SWEEPS,
    .n_sweeps = CLIMB_COUNT(SCAN_SWEEPS),
    .case_size = sizeof(climb_case),
    .buffers = SCAN_BUFFERS,
    .n_buffers = CLIMB_COUNT(SCAN_BUFFERS),
    .init = scan_init,
    .fill = scan_fill,
    .fini = scan_fini,
    .describe = scan_describe,
    .reference = scan_reference,
    .case_bytes = scan_case_bytes,
    .refuses = scan_refuses,
    .prepare = scan_prepare,
    .run = scan_run,
    .poison = scan_poison,
    .verify = scan_verify,
    .counts = scan_counts,
    .tuning = &SCAN_TUNING,
    .set_tuning = scan_set_tuning,
};
