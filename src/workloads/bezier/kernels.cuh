/* The Bezier ladder's shared kernels and arguments (src/workloads/bezier/): included by bezier.cu (the table, the
 * rungs without device launches) and launch.rdc.cu (the dynamic-parallelism rung, relocatable device code). */
#ifndef CLIMB_WORKLOADS_BEZIER_KERNELS_CUH
#define CLIMB_WORKLOADS_BEZIER_KERNELS_CUH

#include <cuda_runtime.h>

#include "reference.h"
#include "../../core/workload.h"
#include "../../device/device_primitives.cuh"

/* ---------------------------------------------------------------- policy */

#define BEZ_WARP 32    /* the book's blocks, and the child grids' */
#define BEZ_BLOCK 256  /* the scan's and the flat launch's blocks */
#define BEZ_ITEMS 4    /* points a thread in a flat tile */
#define BEZ_TILE (BEZ_BLOCK * BEZ_ITEMS)
#define BEZ_WINDOW (BEZ_TILE / CLIMB_BEZIER_MIN_POINTS + 1) /* the most curves a tile's points belong to */
#define BEZ_FLAT_PER_SM 8

/* ---------------------------------------------------------------- kernels */

/* A curve's point count, in float, by the rule of climb_bezier_count (a float may round across a whole number
 * where the double does not: the check accepts either neighbour there). */
__device__ __forceinline__ int bez_count(const climb_bezier &b, int maxp)
{
    const float cx = 0.5f * (b.x[0] + b.x[2]), cy = 0.5f * (b.y[0] + b.y[2]);
    const float off = hypotf(b.x[1] - cx, b.y[1] - cy), chord = hypotf(b.x[2] - b.x[0], b.y[2] - b.y[0]);
    if (chord == 0.0f)
        return off == 0.0f ? CLIMB_BEZIER_MIN_POINTS : maxp;
    const float k = 16.0f * (off / chord);
    if (!(k < (float)maxp))
        return maxp;
    const int c = (int)floorf(k);
    return c < CLIMB_BEZIER_MIN_POINTS ? CLIMB_BEZIER_MIN_POINTS : c;
}

/* Point i of count (count >= 2): B(t), t = i / (count - 1). */
__device__ __forceinline__ float2 bez_point(const climb_bezier &b, int i, int count)
{
    const float t = (float)i / (float)(count - 1), s = 1.0f - t;
    const float a = s * s, m = 2.0f * s * t, c = t * t;
    return make_float2(a * b.x[0] + m * b.x[1] + c * b.x[2], a * b.y[0] + m * b.y[1] + c * b.y[2]);
}

/* --- rungs max_points and block_per_curve: a block of 32 threads a curve, max_points slots a curve. MAX: every
 * curve at max_points points (no curvature); else its own count, and the block's other slots left alone. */
template <bool MAX>
__global__ void __launch_bounds__(BEZ_WARP)
    bez_block_kernel(const climb_bezier *__restrict__ curves, int maxp, int *counts, int *offsets, float2 *pts)
{
    const int i = blockIdx.x;
    const climb_bezier b = curves[i];
    const int count = MAX ? maxp : bez_count(b, maxp);
    float2 *out = pts + (size_t)i * maxp;
    for (int j = threadIdx.x; j < count; j += BEZ_WARP)
        out[j] = bez_point(b, j, count);
    if (threadIdx.x == 0) {
        counts[i] = count;
        offsets[i] = i * maxp;
    }
}

/* --- the counts and their exclusive scan, a thread a curve, in one pass (the decoupled look-back of
 * device_primitives.cuh): counts, offsets and the total. LAUNCH (rung dynamic_parallelism, instantiated in
 * launch.rdc.cu alone): each thread then launches its curve's child grid, 32 threads a block, into the
 * fire-and-forget stream (launches from one block would serialise in the block's default stream); a failed launch
 * sets *failed. */
__global__ void bez_child_kernel(const climb_bezier *curve, int count, float2 *out); /* launch.rdc.cu */

template <bool LAUNCH>
__global__ void __launch_bounds__(BEZ_BLOCK)
    bez_scan_kernel(const climb_bezier *__restrict__ curves, int n, int maxp, int *counts, int *offsets, int *total,
                    float2 *pts, char *ws, unsigned capacity, int *failed)
{
    __shared__ unsigned s_tile, s_epoch;
    __shared__ int s_scan[BEZ_BLOCK / 32 + 1], s_prefix;
    climb_lookback_hdr *h = (climb_lookback_hdr *)ws;
    unsigned long long *status = (unsigned long long *)(ws + CLIMB_LOOKBACK_HDR);
    if (!LAUNCH)
        climb_grid_dependents_launch(); /* the flat launch may take its place; it waits for this grid's end */
    if (threadIdx.x == 0)
        climb_lookback_ticket(h, gridDim.x, &s_tile, &s_epoch);
    __syncthreads();
    const unsigned tile = s_tile, marker = s_epoch + 1;
    const int i = (int)(tile * BEZ_BLOCK + threadIdx.x);
    const int count = i < n ? bez_count(curves[i], maxp) : 0;
    int aggregate;
    const int local = climb_block_exclusive_scan<climb_op_sum, BEZ_BLOCK>(count, s_scan, &aggregate);
    if (threadIdx.x < 32) {
        const int prefix = climb_lookback_prefix<int>(status, tile, marker, aggregate);
        if (threadIdx.x == 0) {
            s_prefix = prefix;
            if (tile == gridDim.x - 1)
                *total = prefix + aggregate;
        }
    }
    __syncthreads();
    const int off = s_prefix + local;
    if (i < n) {
        counts[i] = count;
        offsets[i] = off;
        if constexpr (LAUNCH) {
            bez_child_kernel<<<(count + BEZ_WARP - 1) / BEZ_WARP, BEZ_WARP, 0, cudaStreamFireAndForget>>>(
                curves + i, count, pts + off);
            if (cudaGetLastError() != cudaSuccess)
                atomicOr(failed, 1);
        }
    }
    climb_lookback_finish<BEZ_BLOCK>(h, status, capacity, s_epoch, gridDim.x);
}

typedef struct bez_args {
    int n, maxp;
    const climb_bezier *curves;
    int *counts, *offsets, *total, *failed;
    float2 *pts;
    char *ws;            /* the look-back's header and a status word a tile, zeroed once */
    unsigned capacity;   /* status words */
    int sms, cc_major;
    cudaStream_t s;
} bez_args;

static inline unsigned bez_tiles(int n) { return (unsigned)((n + BEZ_BLOCK - 1) / BEZ_BLOCK); }

/* launch.rdc.cu: the dynamic-parallelism rung's launcher and its kernels' list. */
cudaError_t bez_launch_dp(const bez_args *a);
int bez_dp_kernels(climb_kernel_desc *o, int max);

#endif
