/*
 * spmv/plan.cu - the best rung's plan of the SpMV ladder, shared with the C API (src/lib/spmv.c): the checks of a
 * device CSR matrix, the candidates (lanes per row with the long rows listed, merge_blocks' row blocks, COO, a JDS
 * copy built on the device, of the whole matrix or in windows of rows), the trial that times them on the matrix and
 * keeps the fastest (or the rules, without it) and the run (the kernels that build a plan: plan_kernels.cuh). See
 * spmv.cu for the ladder and docs/spmv.md for the measurements behind each choice.
 */
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../device/device.h"
#include "../../device/device_primitives.cuh"
#include "../../device/timing.h"
#include "kernels.cuh"
#include "plan_internal.h"
#include "plan_kernels.cuh"

/* ---------------------------------------------------------------- merge_blocks' partition (host and device) */

extern "C" int climb_spmv_merge_search(const int32_t *e, int rows, int nnz, int d)
{
    return merge_search(e, rows, nnz, d);
}

extern "C" void climb_spmv_block_flags(const int32_t *row_ptr, int rows, int budget, uint8_t *flags)
{
    for (int r = 0; r < rows; r++)
        flags[r] = (uint8_t)block_flag(row_ptr, r, budget);
}

/* ---------------------------------------------------------------- the best rung's plan (shared with the C API) */


template <typename T>
static cudaError_t merge_launch(const spmv_merge_plan *p, const climb_spmv_plan_dev *m, T alpha, const T *x, T beta, T *y, cudaStream_t s)
{
    if (p->n_blocks == 0)
        return cudaSuccess;
    if (p->items == SPMV_MERGE_ITEMS_SMALL)
        spmv_merge_kernel<T, SPMV_MERGE_BLOCK, SPMV_MERGE_ITEMS_SMALL><<<(unsigned)p->n_blocks, SPMV_MERGE_BLOCK, 0,
                                                                        s>>>(p->blocks, m->row_ptr, m->col_idx,
                                                                             (const T *)m->val, x, y, alpha, beta);
    else
        spmv_merge_kernel<T, SPMV_MERGE_BLOCK, SPMV_MERGE_ITEMS><<<(unsigned)p->n_blocks, SPMV_MERGE_BLOCK, 0, s>>>(
            p->blocks, m->row_ptr, m->col_idx, (const T *)m->val, x, y, alpha, beta);
    return cudaGetLastError();
}

cudaError_t spmv_merge_run(const spmv_merge_plan *p, const climb_spmv_plan_dev *m, int f64, double alpha,
                           const void *x, double beta, void *y, cudaStream_t s)
{
    if (f64)
        return merge_launch<double>(p, m, alpha, (const double *)x, beta, (double *)y, s);
    return merge_launch<float>(p, m, (float)alpha, (const float *)x, (float)beta, (float *)y, s);
}

/* ---- the adaptive plan: the lanes, and the list of long rows */

/* Measured on an H100 over the bench matrices at 4096000 rows, f32, 1, 2, 4, 8, 16 and 32 lanes each (docs/spmv.md):
 * a thread per row on Poisson (mean 7; 99 us against 110 with 2 lanes, 130 with 4); on the 27-point (mean 27),
 * banded (17) and random (16) matrices 8 lanes did best of the lanes (1 lane 1.3 to 3x slower) but JDS better
 * still, so the plan builds a JDS there and uses 8 lanes only beside listed long rows. */
extern "C" int climb_spmv_lanes(double mean)
{
    return mean <= 8 ? 1 : mean <= 64 ? 8 : mean <= 128 ? 16 : 32;
}

extern "C" int climb_spmv_long_min(int lanes) { return lanes * 16 > 32 ? lanes * 16 : 32; }

/* 12 runs of the fastest so far, so that a large matrix's plan costs about 20 runs (climb's goal, for matrices of
 * more than 1M nonzeros), with a floor for the fixed costs of a trial (its builds' allocations and synchronisations,
 * the gates and second samples of short candidates: 0.5 to 2.5 ms for the first candidate alone on an H100):
 *   - at most 1M nonzeros: 4 ms. Their runs are short enough that the plan's fixed costs are hundreds of runs
 *     anyway; at 2 ms (8182110) the trial on the graphs wiki-Vote and email-Enron stopped after three candidates,
 *     before COO, their fastest path (docs/spmv.md).
 *   - past 1M: 2 ms less 12 runs, so that the budget, max(12 runs, the floor), falls from 2 ms for short runs to
 *     1 ms where 12 runs take 1 ms, and is 12 runs past that. Where 12 runs are well under 1 ms, 20 runs cannot
 *     cover even the first candidate, the goal cannot be met, and the trial keeps its 2 ms for trying the others
 *     (at 1155891, with a flat 1 ms floor, the power law of 262144 rows and the Poisson matrix of 1048576 tried one
 *     candidate); near 1 ms the floor gives way to the goal (at 9afeb52, with a flat 2 ms, the Poisson matrix of
 *     4096000 rows, 96 us a run, took 27 runs to plan). */
extern "C" double climb_spmv_trial_budget_us(long long nnz, double best_us)
{
    const double runs = 12.0 * best_us;
    const double floor_us = nnz > 1000000 ? 2000.0 - runs : 4000.0;
    return runs > floor_us ? runs : floor_us;
}

/* cudaFree of each of n pointers that is not NULL. */
static void free_each(void *const *ptrs, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (ptrs[k])
            cudaFree(ptrs[k]);
}

extern "C" void climb_spmv_plan_free(climb_spmv_plan_dev *p)
{
    if (p->merge) {
        spmv_merge_plan_free((spmv_merge_plan *)p->merge);
        free(p->merge);
        p->merge = NULL;
    }
    if (p->long_rows)
        cudaFree(p->long_rows);
    if (p->warp_rows)
        cudaFree(p->warp_rows);
    p->warp_rows = NULL;
    p->n_warp = 0;
    void *coo[] = {p->coo_rows, p->coo_base};
    free_each(coo, sizeof coo / sizeof coo[0]);
    p->coo_rows = NULL;
    p->coo_base = NULL;
    p->coo_bits = 0;
    void *jds[] = {p->jds_perm, p->jds_ptr, p->jds_col, p->jds_val, p->jds_woff, p->jds_wpad};
    free_each(jds, sizeof jds / sizeof jds[0]);
    p->jds_perm = p->jds_ptr = p->jds_col = NULL;
    p->jds_val = NULL;
    p->jds_woff = NULL;
    p->jds_wpad = NULL;
    p->jds_wstride = 0;
    p->diagonals = 0;
    p->jds_plain = 0;
    p->long_rows = NULL;
    p->n_long = 0;
    p->bytes = 0;
}

/* The plan's JDS (see spmv_jds_kernel): perm, jd_ptr, columns and values by diagonal. */
static cudaError_t jds_build(climb_spmv_plan_dev *p, cudaStream_t s)
{
    const size_t rows = (size_t)p->rows, nnz = (size_t)p->nnz, each = p->f64 ? 8 : 4;
    int *len = NULL, *ids = NULL, *slen = NULL, *perm = NULL, *count = NULL, *jd = NULL, *jci = NULL;
    void *jval = NULL, *tmp = NULL;
    size_t tmp_bytes = 0, scan_bytes = 0;
    int maxlen = 0;
    const unsigned grid = (unsigned)((rows + SPMV_BLOCK - 1) / SPMV_BLOCK);
    cudaError_t e = cub::DeviceRadixSort::SortPairsDescending(NULL, tmp_bytes, len, slen, ids, perm, p->rows, 0, 32, s);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&len, rows * 4);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&ids, rows * 4);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&slen, rows * 4);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&perm, rows * 4);
    if (e == cudaSuccess) {
        spmv_lengths_kernel<<<grid, SPMV_BLOCK, 0, s>>>(p->rows, p->row_ptr, len, ids);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMalloc(&tmp, tmp_bytes);
    if (e == cudaSuccess)
        e = cub::DeviceRadixSort::SortPairsDescending(tmp, tmp_bytes, len, slen, ids, perm, p->rows, 0, 32, s);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&maxlen, slen, sizeof maxlen, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&count, ((size_t)maxlen + 1) * 4);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&jd, ((size_t)maxlen + 1) * 4);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(count, 0, ((size_t)maxlen + 1) * 4, s);
    if (e == cudaSuccess) {
        spmv_diagonal_counts_kernel<<<grid, SPMV_BLOCK, 0, s>>>(p->rows, slen, count);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cub::DeviceScan::ExclusiveSum(NULL, scan_bytes, count, jd, maxlen + 1, s);
    if (e == cudaSuccess && scan_bytes > tmp_bytes) {
        cudaFree(tmp);
        tmp = NULL;
        e = cudaMalloc(&tmp, scan_bytes);
    }
    if (e == cudaSuccess)
        e = cub::DeviceScan::ExclusiveSum(tmp, scan_bytes, count, jd, maxlen + 1, s);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&jci, (nnz ? nnz : 1) * 4);
    if (e == cudaSuccess)
        e = cudaMalloc(&jval, (nnz ? nnz : 1) * each);
    if (e == cudaSuccess) {
        if (p->f64)
            spmv_jds_scatter_kernel<double><<<grid, SPMV_BLOCK, 0, s>>>(p->rows, perm, slen, jd, p->row_ptr,
                                                                       p->col_idx, (const double *)p->val, jci,
                                                                       (double *)jval);
        else
            spmv_jds_scatter_kernel<float><<<grid, SPMV_BLOCK, 0, s>>>(p->rows, perm, slen, jd, p->row_ptr,
                                                                      p->col_idx, (const float *)p->val, jci,
                                                                      (float *)jval);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    void *scratch[] = {len, ids, slen, count, tmp};
    free_each(scratch, sizeof scratch / sizeof scratch[0]);
    if (e != cudaSuccess) {
        void *kept[] = {perm, jd, jci, jval};
        free_each(kept, sizeof kept / sizeof kept[0]);
        return e;
    }
    p->jds_perm = perm;
    p->jds_ptr = jd;
    p->jds_col = jci;
    p->jds_val = jval;
    p->diagonals = maxlen;
    p->bytes = rows * 4 + ((size_t)maxlen + 1) * 4 + nnz * (4 + each);
    return cudaSuccess;
}

/* The plan's windowed JDS (spmv_jds_windows_kernel): perm, woff and the windows' diagonal starts, then the
 * columns and values in the windows' order. A sort within each window and one scan over the windows, where the JDS
 * of the whole matrix sorts every row. */
static cudaError_t windows_build(climb_spmv_plan_dev *p, cudaStream_t s)
{
    const size_t rows = (size_t)p->rows, nnz = (size_t)p->nnz, each = p->f64 ? 8 : 4;
    const size_t windows = (rows + CLIMB_SPMV_WINDOW - 1) / CLIMB_SPMV_WINDOW;
    int *perm = NULL, *slen = NULL, *wjd = NULL, *jci = NULL, *wpad = NULL;
    long long *count = NULL, *woff = NULL, total = 0;
    unsigned *d_longest = NULL, longest = 0;
    void *jval = NULL, *tmp = NULL;
    size_t tmp_bytes = 0;
    cudaError_t e = cub::DeviceScan::ExclusiveSum(NULL, tmp_bytes, count, woff, (int)windows + 1, s);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&perm, rows * 4);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&slen, rows * 4);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&count, (windows + 1) * 8);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&woff, (windows + 1) * 8);
    if (e == cudaSuccess)
        e = cudaMalloc(&tmp, tmp_bytes);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_longest, sizeof *d_longest);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(d_longest, 0, sizeof *d_longest, s);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(count + windows, 0, 8, s);
    if (e == cudaSuccess) {
        spmv_windows_sort_kernel<<<(unsigned)windows, CLIMB_SPMV_WINDOW, 0, s>>>(p->rows, p->row_ptr, perm, slen,
                                                                                 count, d_longest);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, count, woff, (int)windows + 1, s);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&total, woff + windows, sizeof total, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&longest, d_longest, sizeof longest, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&wjd, (size_t)total * 4);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&jci, (nnz ? nnz : 1) * 4);
    if (e == cudaSuccess)
        e = cudaMalloc(&jval, (nnz ? nnz : 1) * each);
    if (e == cudaSuccess) {
        if (p->f64)
            spmv_windows_scatter_kernel<double><<<(unsigned)windows, CLIMB_SPMV_WINDOW, 0, s>>>(
                p->rows, p->row_ptr, p->col_idx, (const double *)p->val, perm, slen, woff, wjd, jci, (double *)jval);
        else
            spmv_windows_scatter_kernel<float><<<(unsigned)windows, CLIMB_SPMV_WINDOW, 0, s>>>(
                p->rows, p->row_ptr, p->col_idx, (const float *)p->val, perm, slen, woff, wjd, jci, (float *)jval);
        e = cudaGetLastError();
    }
    /* The starts again at a stride of the longest row + 1, where that pads them to at most 4 times their number
     * (always where no row is long, the trial's case: rows of at most 512 then) */
    const long long stride = (long long)longest + 1;
    const int padded = windows > 0 && (long long)windows * stride <= 4 * total + 1024;
    if (e == cudaSuccess && padded)
        e = cudaMalloc((void **)&wpad, (size_t)windows * (size_t)stride * 4);
    if (e == cudaSuccess && padded) {
        spmv_windows_pad_kernel<<<grid_for((long long)windows * stride, SPMV_BLOCK), SPMV_BLOCK, 0, s>>>(
            (long long)windows, (int)stride, woff, wjd, wpad);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    void *scratch[] = {slen, count, tmp, d_longest};
    free_each(scratch, sizeof scratch / sizeof scratch[0]);
    if (e != cudaSuccess) {
        void *kept[] = {perm, woff, wjd, jci, jval, wpad};
        free_each(kept, sizeof kept / sizeof kept[0]);
        return e;
    }
    p->jds_wpad = wpad;
    p->jds_wstride = padded ? (int)stride : 0;
    p->jds_perm = perm;
    p->jds_woff = woff;
    p->jds_ptr = wjd;
    p->jds_col = jci;
    p->jds_val = jval;
    p->diagonals = 0;
    p->bytes = rows * 4 + (windows + 1) * 8 + (size_t)total * 4 + nnz * (4 + each) +
               (padded ? (size_t)windows * (size_t)stride * 4 : 0);
    return cudaSuccess;
}

/* The rows of more than lo and at most hi nonzeros, listed in row order (*list NULL where there are none). */
static cudaError_t rows_between(const climb_spmv_plan_dev *p, int lo, int hi, int **list, int *n, cudaStream_t s)
{
    unsigned char *flags = NULL;
    cudaError_t e = cudaMalloc((void **)&flags, (size_t)p->rows);
    if (e == cudaSuccess) {
        spmv_long_flags_kernel<<<grid_for(p->rows, SPMV_BLOCK), SPMV_BLOCK, 0, s>>>(p->rows, p->row_ptr, lo, hi,
                                                                                  flags);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = spmv_flagged_rows(p->rows, flags, list, n, s);
    if (flags)
        cudaFree(flags);
    return e;
}

/* The lanes path: `lanes` lanes a row, and the rows longer than long_min listed: a block each, or with warps a warp
 * each up to SPMV_WARP_ROW_MAX nonzeros and a block each past it. */
static cudaError_t build_lanes(climb_spmv_plan_dev *p, int lanes, int warps, cudaStream_t s)
{
    p->lanes = lanes;
    p->long_min = climb_spmv_long_min(lanes);
    const int block_min = warps && p->long_min < SPMV_WARP_ROW_MAX ? SPMV_WARP_ROW_MAX : p->long_min;
    cudaError_t e = rows_between(p, block_min, INT_MAX, &p->long_rows, &p->n_long, s);
    if (e == cudaSuccess && block_min > p->long_min)
        e = rows_between(p, p->long_min, block_min, &p->warp_rows, &p->n_warp, s);
    if (e != cudaSuccess)
        return e;
    p->bytes = ((size_t)p->n_long + (size_t)p->n_warp) * sizeof(int);
    return cudaSuccess;
}

/* The merge path: merge_blocks' row blocks of `items` merge items a thread (SPMV_MERGE_ITEMS, or _SMALL). */
static cudaError_t build_merge(climb_spmv_plan_dev *p, unsigned items, cudaStream_t s)
{
    spmv_merge_plan *mp = (spmv_merge_plan *)calloc(1, sizeof *mp);
    if (!mp)
        return cudaErrorMemoryAllocation;
    const cudaError_t e = spmv_merge_plan_build(mp, p, SPMV_MERGE_BLOCK, (int)items, s);
    if (e != cudaSuccess) {
        free(mp);
        return e;
    }
    p->merge = mp;
    p->bytes = mp->bytes;
    return cudaSuccess;
}

/* The row of nonzero j: the last row whose start is at or before it (rows before it may be empty). */
__device__ __forceinline__ int coo_row_of(const int *__restrict__ rp, int rows, long long j)
{
    int lo = 0, hi = rows;
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        if (rp[mid] <= j)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The COO path's rows in `bits` bits (spmv_coo_stream_kernel says how each is kept): out and base; *wide set where
 * they do not fit (a step past 255 with 8, a block spanning 65536 rows or more with 16; out is then incomplete). A
 * warp of this kernel is a warp of the COO kernel's 32 nonzeros, a block its block. */
static_assert(SPMV_BLOCK == CLIMB_SPMV_COO_BLOCK, "16-bit COO: a kernel block is a base's block");
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_coo_rows_kernel(long long nnz, int rows,
                                                                 const int *__restrict__ rp, int bits, void *out,
                                                                 int *base, unsigned *wide)
{
    __shared__ int first;
    const long long j = (long long)blockIdx.x * SPMV_BLOCK + threadIdx.x;
    const unsigned lane = threadIdx.x & 31;
    const int r = j < nnz ? coo_row_of(rp, rows, j) : 0;
    const int before = __shfl_up_sync(0xffffffffu, r, 1);
    if (threadIdx.x == 0) /* j < nnz: a block is launched only for nonzeros */
        first = r;
    __syncthreads();
    if (j >= nnz)
        return;
    if (bits == 8) {
        const int step = lane == 0 ? 0 : r - before;
        if (lane == 0)
            base[j / 32] = r;
        if (step > 255)
            atomicOr(wide, 1u);
        else
            ((unsigned char *)out)[j] = (unsigned char)step;
    } else if (bits == 16) {
        if (threadIdx.x == 0)
            base[blockIdx.x] = r;
        if (r - first > 65535)
            atomicOr(wide, 1u);
        else
            ((unsigned short *)out)[j] = (unsigned short)(r - first);
    } else {
        ((int *)out)[j] = r;
    }
}

/* The COO path: each nonzero's row, for a thread a nonzero and atomics (power laws: every thread the same work), in
 * the fewest bits of 8, 16 and 32 that hold them (spmv_coo_stream_kernel). */
static cudaError_t build_coo(climb_spmv_plan_dev *p, cudaStream_t s)
{
    if (p->nnz == 0)
        return cudaSuccess;
    const unsigned blocks = grid_for(p->nnz, SPMV_BLOCK);
    unsigned *d_wide = NULL;
    cudaError_t e = cudaMalloc((void **)&d_wide, sizeof *d_wide);
    for (int bits = 8; bits <= 32 && e == cudaSuccess; bits *= 2) {
        const size_t n_base = bits == 8 ? ((size_t)p->nnz + 31) / 32 : bits == 16 ? blocks : 0;
        unsigned wide = 0;
        void *rows = NULL;
        int *base = NULL;
        e = cudaMalloc(&rows, (size_t)p->nnz * (size_t)(bits / 8));
        if (e == cudaSuccess && n_base)
            e = cudaMalloc((void **)&base, n_base * sizeof(int));
        if (e == cudaSuccess)
            e = cudaMemsetAsync(d_wide, 0, sizeof *d_wide, s);
        if (e == cudaSuccess) {
            spmv_coo_rows_kernel<<<blocks, SPMV_BLOCK, 0, s>>>(p->nnz, p->rows, p->row_ptr, bits, rows, base,
                                                                d_wide);
            e = cudaGetLastError();
        }
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(&wide, d_wide, sizeof wide, cudaMemcpyDeviceToHost, s);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(s);
        if (e == cudaSuccess && !wide) {
            p->coo_rows = rows;
            p->coo_base = base;
            p->coo_bits = bits;
            p->bytes = (size_t)p->nnz * (size_t)(bits / 8) + n_base * sizeof(int);
            break;
        }
        void *tried[] = {rows, base};
        free_each(tried, 2);
    }
    if (d_wide)
        cudaFree(d_wide);
    return e;
}

/* The rules, fitted on the generated matrices (docs/spmv.md): lanes from the mean row length; a JDS copy when rows
 * are longer than 8 on average and none is long; merge_blocks' row blocks when more than one row in 1024 is long. */
static cudaError_t plan_rules(climb_spmv_plan_dev *p, cudaStream_t s, int *wants_jds)
{
    /* wants_jds given: where the rules take JDS, the lanes are built and *wants_jds set, the JDS left to the caller */
    cudaError_t e = build_lanes(p, climb_spmv_lanes(p->rows ? (double)p->nnz / p->rows : 0), 0, s);
    if (e != cudaSuccess)
        return e;
    if (p->n_long == 0 && p->lanes > 1) {
        if (!wants_jds)
            return jds_build(p, s);
        *wants_jds = 1;
        return cudaSuccess;
    }
    if ((long long)p->n_long * 1024 > p->rows) {
        /* Many long rows: the row blocks of merge_blocks (0.92x cuSPARSE on the power-law bench matrix, against
         * 0.71 to 0.78x for lanes and listed rows). */
        cudaFree(p->long_rows);
        p->long_rows = NULL;
        p->n_long = 0;
        return build_merge(p, SPMV_MERGE_ITEMS, s);
    }
    return cudaSuccess;
}

/* What a plan runs, in a few words. */
static void path_name(const climb_spmv_plan_dev *p, char *buf, size_t n)
{
    if (p->coo_rows)
        snprintf(buf, n, "COO, %d-bit rows%s", p->coo_bits, p->pdl ? ", launched early" : "");
    else if (p->merge)
        snprintf(buf, n, "merge blocks of %u", SPMV_MERGE_BLOCK * (unsigned)((const spmv_merge_plan *)p->merge)->items);
    else if (p->jds_woff)
        snprintf(buf, n, "JDS in windows of %d rows%s", CLIMB_SPMV_WINDOW,
                 p->jds_plain ? ", a diagonal at a time" : "");
    else if (p->jds_perm)
        snprintf(buf, n, p->jds_plain ? "JDS, a diagonal at a time" : "JDS");
    else if (p->n_warp)
        snprintf(buf, n, "%d lanes + %d rows a warp + %d long rows", p->lanes, p->n_warp, p->n_long);
    else if (p->n_long)
        snprintf(buf, n, "%d lanes + %d long rows", p->lanes, p->n_long);
    else
        snprintf(buf, n, "%d lanes", p->lanes);
}

/* The plan's JDS kernel: one diagonal at a time, or SPMV_JDS_AHEAD (the same arguments). */
template <typename T>
static void (*jds_kernel_of(const climb_spmv_plan_dev *p))(int, int, const int *, const int *, const int *, const T *,
                                                           const T *, T *, T, T)
{
    return p->jds_plain ? spmv_jds_kernel<T> : spmv_jds_ahead_kernel<T>;
}

/* The plan's windowed JDS kernel: one diagonal at a time, or SPMV_JDS_AHEAD. */
template <typename T>
static void (*windows_kernel_of(const climb_spmv_plan_dev *p))(int, const int *, const int *, const long long *,
                                                               const int *, const int *, const T *, const T *, T *, T,
                                                               T, const int *, int)
{
    return p->jds_plain ? spmv_jds_windows_kernel<T, 1> : spmv_jds_windows_kernel<T, SPMV_JDS_AHEAD>;
}

/* `reps` runs of plan q back to back between two events: the time of one in microseconds, or < 0 (*e says why).
 * A gate of 20 us a run (at most 200) holds the stream while the host enqueues them: without it a short run's time
 * was the host's launch rate (COO, two launches a run, took 14.1 us a run in one trial and 7.4 in another on the
 * same matrix, where the bench's samples give 7.9). */
static double time_runs(const climb_spmv_plan_dev *q, int reps, const void *x, void *y, cudaEvent_t ev[2],
                        cudaStream_t s, cudaError_t *e)
{
    float ms = 0;
    *e = climb_launch_gate(reps < 10 ? 20000u * (unsigned)reps : 200000u, s);
    if (*e == cudaSuccess)
        *e = cudaEventRecord(ev[0], s);
    for (int r = 0; r < reps && *e == cudaSuccess; r++)
        *e = climb_spmv_plan_run(q, 1.0, x, 0.0, y, s);
    if (*e == cudaSuccess)
        *e = cudaEventRecord(ev[1], s);
    if (*e == cudaSuccess)
        *e = cudaEventSynchronize(ev[1]);
    if (*e == cudaSuccess)
        *e = cudaEventElapsedTime(&ms, ev[0], ev[1]);
    return *e == cudaSuccess ? 1000.0 * ms / reps : -1;
}

/* A candidate's time. A first run; where it took 100 us or more, it is the sample (a launch's overhead is small
 * beside it), else runs back to back fill about 100 us (up to 16) and their mean is the sample, as a solver's loop
 * runs them. A second sample, the lesser kept, where the first is within 15% of the best so far or a sample is that
 * short (about 100 us: a sample disturbed once does not decide), none for the first candidate (the others are held
 * to it). */
static double time_candidate(const climb_spmv_plan_dev *q, double best, const void *x, void *y, cudaEvent_t ev[2],
                             cudaStream_t s, cudaError_t *e)
{
    double t = time_runs(q, 1, x, y, ev, s, e); /* its kernels loaded before the trial (warm_kernels) */
    int reps = 1;
    if (*e == cudaSuccess && t < 100.0) {
        reps = t > 100.0 / 16 ? (int)(100.0 / t) + 1 : 16;
        t = time_runs(q, reps, x, y, ev, s, e);
    }
    if (*e == cudaSuccess && best < 1e300 && (t < 1.15 * best || reps > 1)) {
        const double t2 = time_runs(q, reps, x, y, ev, s, e);
        t = t2 < t ? t2 : t;
    }
    return t;
}

/* The inspector-executor plan: the rules' choice and the other paths the row lengths admit, each built and timed on
 * the matrix itself (y = A x on scratch vectors), the fastest kept. A candidate replaces the one kept only when 3%
 * faster (timing noise does not flip a choice). A candidate that does not fit in memory is left out. */
static double plan_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Every kernel a trial may launch, loaded once per device and element type before the trial's clock starts. CUDA
 * loads a kernel at its first launch (lazy loading, the default since CUDA 12.2); in a process's first plan that took
 * 5 ms of the trial's 2 ms budget on an H100 (the rules' build alone: 5.0 to 5.7 ms, against 0.2 once loaded), so the
 * trial stopped after its first candidate and kept 8 lanes (390 us) on the 27-point matrix, where the windowed JDS
 * runs 336 us. The loading still counts in the plan's setup time (the first plan of a process pays it), but no
 * longer decides which candidates are tried. CUB's device-wide algorithms are loaded by running them on a few items
 * (the radix sort on enough for its many-tile kernels). */
template <typename T> static cudaError_t warm_kernels(cudaStream_t s)
{
    static int warmed[2][64]; /* [f64][device], atomic: two threads at once only load twice; past device 63, every
                                 plan asks again (a no-op once loaded) */
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    const int f64 = sizeof(T) == 8;
    const int flagged = dev >= 0 && dev < 64;
    if (e != cudaSuccess || (flagged && __atomic_load_n(&warmed[f64][dev], __ATOMIC_ACQUIRE)))
        return e;
    cudaFuncAttributes at;
    const void *const kernels[] = {
        (const void *)spmv_lengths_kernel,
        (const void *)spmv_diagonal_counts_kernel,
        (const void *)spmv_jds_scatter_kernel<T>, (const void *)spmv_windows_sort_kernel,
        (const void *)spmv_windows_scatter_kernel<T>, (const void *)spmv_windows_pad_kernel,
        (const void *)spmv_long_flags_kernel,
        (const void *)spmv_flags_kernel, (const void *)spmv_pair_blocks_kernel, (const void *)spmv_coo_rows_kernel,
        (const void *)spmv_jds_kernel<T>, (const void *)spmv_jds_ahead_kernel<T>,
        (const void *)spmv_jds_windows_kernel<T, 1>, (const void *)spmv_jds_windows_kernel<T, SPMV_JDS_AHEAD>,
        (const void *)spmv_merge_kernel<T, SPMV_MERGE_BLOCK, SPMV_MERGE_ITEMS>,
        (const void *)spmv_merge_kernel<T, SPMV_MERGE_BLOCK, SPMV_MERGE_ITEMS_SMALL>,
        (const void *)spmv_adaptive_kernel<T, 1>, (const void *)spmv_adaptive_kernel<T, 2>,
        (const void *)spmv_adaptive_kernel<T, 4>, (const void *)spmv_adaptive_kernel<T, 8>,
        (const void *)spmv_adaptive_kernel<T, 16>, (const void *)spmv_adaptive_kernel<T, 32>,
        (const void *)spmv_long_rows_kernel<T>, (const void *)spmv_warp_rows_kernel<T>,
        (const void *)spmv_coo_stream_kernel<T, 8, 0>, (const void *)spmv_coo_stream_kernel<T, 16, 0>,
        (const void *)spmv_coo_stream_kernel<T, 32, 0>, (const void *)spmv_coo_stream_kernel<T, 8, 1>,
        (const void *)spmv_coo_stream_kernel<T, 16, 1>, (const void *)spmv_coo_stream_kernel<T, 32, 1>,
        (const void *)spmv_scale_kernel<T, 0>, (const void *)spmv_scale_kernel<T, 1>};
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0] && e == cudaSuccess; k++)
        e = cudaFuncGetAttributes(&at, kernels[k]);
    /* and the gate the trial's samples start with (core's; also loaded at its first launch). At 8e49499, without
       it, the bench's first plan spent 2.44 ms on its first candidate (1.03 ms in the run at bf0d80d). */
    if (e == cudaSuccess)
        e = climb_launch_gate(1000u, s);
    /* CUB's: a select of flagged rows, scans of int and long long counts, a descending sort of pairs, with the types
     * the builds call them with (another type is another kernel) */
    const int n = 1 << 16;
    unsigned char *buf = NULL;
    size_t sel_bytes = 0, scan_bytes = 0, sort_bytes = 0;
    thrust::counting_iterator<int> rows_it(0);
    int *ip = NULL;
    long long *lp = NULL;
    if (e == cudaSuccess)
        e = cub::DeviceSelect::Flagged(NULL, sel_bytes, rows_it, (const unsigned char *)NULL, ip, ip, n, s);
    if (e == cudaSuccess)
        e = cub::DeviceScan::ExclusiveSum(NULL, scan_bytes, lp, lp, n, s);
    size_t int_scan_bytes = 0;
    if (e == cudaSuccess)
        e = cub::DeviceScan::ExclusiveSum(NULL, int_scan_bytes, ip, ip, n, s);
    scan_bytes = scan_bytes > int_scan_bytes ? scan_bytes : int_scan_bytes;
    if (e == cudaSuccess)
        e = cub::DeviceRadixSort::SortPairsDescending(NULL, sort_bytes, ip, ip, ip, ip, n, 0, 32, s);
    size_t tmp = sel_bytes > scan_bytes ? sel_bytes : scan_bytes;
    tmp = tmp > sort_bytes ? tmp : sort_bytes;
    const size_t arrays = (size_t)n * (4 * 4 + 2 * 8 + 1) + 64;
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&buf, arrays + tmp);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(buf, 0, arrays, s);
    if (e == cudaSuccess) {
        int *a = (int *)buf, *b = a + n, *c = b + n, *d = c + n;
        long long *la = (long long *)(d + n), *lb = la + n;
        unsigned char *flags = (unsigned char *)(lb + n), *t = buf + arrays;
        e = cub::DeviceSelect::Flagged(t, sel_bytes, rows_it, (const unsigned char *)flags, a, b, n, s);
        if (e == cudaSuccess)
            e = cub::DeviceScan::ExclusiveSum(t, scan_bytes, la, lb, n, s);
        if (e == cudaSuccess)
            e = cub::DeviceScan::ExclusiveSum(t, int_scan_bytes, a, b, n, s);
        if (e == cudaSuccess)
            e = cub::DeviceRadixSort::SortPairsDescending(t, sort_bytes, a, b, c, d, n, 0, 32, s);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(s);
    }
    if (buf)
        cudaFree(buf);
    if (e == cudaSuccess && flagged)
        __atomic_store_n(&warmed[f64][dev], 1, __ATOMIC_RELEASE);
    return e;
}

extern "C" cudaError_t climb_spmv_plan_warm(int f64, cudaStream_t s)
{
    return f64 ? warm_kernels<double>(s) : warm_kernels<float>(s);
}

static cudaError_t plan_trial(climb_spmv_plan_dev *p, cudaStream_t s)
{
    const cudaError_t warm = climb_spmv_plan_warm(p->f64, s);
    if (warm != cudaSuccess)
        return warm;
    const double t0 = plan_clock();
    const double mean = (double)p->nnz / p->rows;
    const size_t each = p->f64 ? 8 : 4;
    void *x = NULL, *y = NULL;
    cudaEvent_t ev[2] = {NULL, NULL};
    cudaError_t e = cudaMalloc(&x, (p->cols ? (size_t)p->cols : 1) * each);
    if (e == cudaSuccess)
        e = cudaMalloc(&y, (size_t)p->rows * each);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(x, 0, (p->cols ? (size_t)p->cols : 1) * each, s);
    if (e == cudaSuccess)
        e = cudaEventCreate(&ev[0]);
    if (e == cudaSuccess)
        e = cudaEventCreate(&ev[1]);
    climb_spmv_plan_dev best = *p;
    double best_t = 1e300;
    char line[sizeof p->choice] = "", name[64];
    size_t used = 0;
    /* The first candidate: the rules' lanes, or their row blocks where many rows are long. Where the rules take JDS
     * (no long row, rows longer than 8 on average) the JDS, the costliest to build, comes last. */
    const int rules_lanes = climb_spmv_lanes(mean);
    int rules_jds = 0;
    if (e == cudaSuccess)
        e = plan_rules(&best, s, &rules_jds);
    if (e == cudaSuccess)
        best_t = time_candidate(&best, 1e300, x, y, ev, s, &e);
    if (e == cudaSuccess) {
        path_name(&best, name, sizeof name);
        used += (size_t)snprintf(line + used, sizeof line - used, "%s %.1f us%s [%.2f ms]", name, best_t,
                                 rules_jds ? "" : " (the rules' choice)", 1e3 * (plan_clock() - t0));
    }
    /* the others the row lengths admit: where no row is long and rows average more than 8, the JDS in windows of
     * rows; lanes at the mean rounded up to a power of two, the row blocks, COO where some rows are long, smaller row
     * blocks where the usual ones would not give every multiprocessor 4; and where the JDS in windows was tried, the
     * JDS of the whole matrix (the rules' JDS, which sorts every row). The trial stops trying once it has spent
     * climb_spmv_trial_budget_us (12 runs' time of the fastest so far, with a floor). */
    const int sized = mean <= 2 ? 2 : mean <= 4 ? 4 : mean <= 8 ? 8 : mean <= 16 ? 16 : 32;
    const int rules_path = best.merge ? 2 : 0;
    const int no_long = rules_path == 0 && best.n_long == 0;
    const long long items = (long long)p->rows + p->nnz;
    const int small_merge = items < 4LL * (p->sms > 0 ? p->sms : 1) * SPMV_MERGE_BLOCK * SPMV_MERGE_ITEMS;
    const int some_long = !no_long;
    const int jds_family = no_long && mean > 8;
    /* The order. Where the rules take JDS (no long row, a mean past 8), the JDS in windows first: a JDS won the
     * trial on 8 of the 10 such generated cases at 8182110, and the windowed one keeps the row order's locality
     * where the whole sort loses it (the FEM-like rows). A fast candidate early brings the budget, 12 of its runs,
     * down before the slower ones are built and timed; a slow one leaves the budget high and the rest are tried.
     * Where some rows are long, COO first: it won the trial on both graphs of the data folder and on the power law
     * of 65536 and 262144 rows (8182110), and is cheap to build; at 9afeb52 and 1155891, with the lanes with rows a
     * warp tried first, the trial on the 262144-row power law ran out before COO and kept the row blocks (0.90x
     * cuSPARSE, against 1.13x with COO). The lanes with rows a warp last: they won no case measured (the power law
     * at every size, the graphs; 7 to 260% slower than the fastest). Then the others, cheapest to build first, and
     * the JDS of the whole matrix last. */
    enum { C_RULES_LANES, C_LANES_WARPS, C_SIZED_LANES, C_MERGE, C_COO, C_MERGE_SMALL, C_WINDOWS, C_JDS };
    int order[8], n_order = 0;
    if (jds_family)
        order[n_order++] = C_WINDOWS;
    if (some_long)
        order[n_order++] = C_COO;
    if (rules_path != 0)
        order[n_order++] = C_RULES_LANES;
    if (sized != rules_lanes)
        order[n_order++] = C_SIZED_LANES;
    if (rules_path != 2)
        order[n_order++] = C_MERGE;
    if (small_merge)
        order[n_order++] = C_MERGE_SMALL;
    if (some_long)
        order[n_order++] = C_LANES_WARPS;
    if (jds_family)
        order[n_order++] = C_JDS;
    for (int o = 0; e == cudaSuccess && o < n_order; o++) {
        if (1e6 * (plan_clock() - t0) > climb_spmv_trial_budget_us(p->nnz, best_t))
            break;
        const int c = order[o];
        const double tc = plan_clock();
        climb_spmv_plan_dev q = *p;
        switch (c) {
        case C_RULES_LANES: e = build_lanes(&q, rules_lanes, 0, s); break;
        case C_LANES_WARPS: e = build_lanes(&q, rules_lanes, 1, s); break;
        case C_SIZED_LANES: e = build_lanes(&q, sized, 0, s); break;
        case C_MERGE: e = build_merge(&q, SPMV_MERGE_ITEMS, s); break;
        case C_COO: e = build_coo(&q, s); break;
        case C_MERGE_SMALL: e = build_merge(&q, SPMV_MERGE_ITEMS_SMALL, s); break;
        case C_WINDOWS: e = windows_build(&q, s); break;
        default: e = jds_build(&q, s); break;
        }
        double t = 1e300;
        if (e == cudaSuccess)
            t = time_candidate(&q, best_t, x, y, ev, s, &e);
        /* Two ways to run one build, the second timed at the cost of a few runs and no build; the faster (by 3%)
           is the candidate, the other's time goes in the line:
           - a JDS (in windows or whole): several diagonals' loads in flight a thread (the default), or one
             diagonal at a time, which ran faster on the f64 random matrix (docs/spmv.md);
           - COO on sm_90+: its kernel launched as a programmatic dependent of y's scaling (the default), or after
             it. On an H100 (a70f5b7) the early launch took 1.0 to 1.4 us off the two graphs (5 to 7 us a run) and
             1.3 to 1.4 off the f32 power laws of 65536 to 1048576 rows; at 261c167 the 4096000-row one ran 183.4
             against 185.7 us f32, and the two within 0.3% f64 (286.0 and 285.3). */
        if (((c == C_WINDOWS || c == C_JDS) || (c == C_COO && q.pdl && q.coo_rows)) && e == cudaSuccess) {
            climb_spmv_plan_dev r = q;
            if (c == C_COO)
                r.pdl = 0;
            else
                r.jds_plain = 1;
            const double t2 = time_candidate(&r, t < best_t ? t : best_t, x, y, ev, s, &e);
            const int second = e == cudaSuccess && t2 < 0.97 * t;
            if (e == cudaSuccess && used < sizeof line) { /* the one not kept; the kept one's entry follows */
                path_name(second ? &q : &r, name, sizeof name);
                used += (size_t)snprintf(line + used, sizeof line - used, ", %s %.1f", name, second ? t : t2);
            }
            if (second) {
                q.jds_plain = r.jds_plain;
                q.pdl = r.pdl;
                t = t2;
            }
        }
        if (e == cudaErrorMemoryAllocation) { /* this candidate does not fit: the others may */
            cudaGetLastError();
            climb_spmv_plan_free(&q);
            e = cudaSuccess;
            continue;
        }
        if (e == cudaSuccess) {
            path_name(&q, name, sizeof name);
            if (used < sizeof line)
                used += (size_t)snprintf(line + used, sizeof line - used, ", %s %.1f%s [%.2f ms]", name, t,
                                         c == C_JDS && rules_jds ? " (the rules' choice)" : "",
                                         1e3 * (plan_clock() - tc));
        }
        if (e == cudaSuccess && t < 0.97 * best_t) {
            climb_spmv_plan_free(&best);
            best = q;
            best_t = t;
        } else {
            climb_spmv_plan_free(&q);
        }
    }
    for (int k = 0; k < 2; k++)
        if (ev[k])
            cudaEventDestroy(ev[k]);
    if (x)
        cudaFree(x);
    if (y)
        cudaFree(y);
    if (e != cudaSuccess) {
        climb_spmv_plan_free(&best);
        return e;
    }
    *p = best;
    path_name(p, name, sizeof name);
    snprintf(p->choice, sizeof p->choice, "%s, by trial (us a run [ms to build and time]): %s", name, line);
    return cudaSuccess;
}

/* A plan built without a trial (built with result e): its choice says what it runs and `how`; freed if e failed. */
static cudaError_t untimed_choice(climb_spmv_plan_dev *p, cudaError_t e, const char *how)
{
    if (e != cudaSuccess) {
        climb_spmv_plan_free(p);
        return e;
    }
    char name[64];
    path_name(p, name, sizeof name);
    snprintf(p->choice, sizeof p->choice, "%s, %s", name, how);
    return cudaSuccess;
}

extern "C" cudaError_t climb_spmv_plan_build(climb_spmv_plan_dev *p, cudaStream_t s)
{
    climb_spmv_plan_free(p);
    p->choice[0] = '\0';
    p->lanes = climb_spmv_lanes(p->rows ? (double)p->nnz / p->rows : 0);
    p->long_min = climb_spmv_long_min(p->lanes);
    if (p->rows == 0)
        return cudaSuccess;
    cudaError_t e = climb_current_device_pdl(&p->pdl);
    if (e != cudaSuccess)
        return e;
    if (p->only) /* the tests' way to a path whatever the trial would measure */
        return untimed_choice(p, p->only == CLIMB_SPMV_ONLY_WINDOWS ? windows_build(p, s)
                                 : p->only == CLIMB_SPMV_ONLY_COO   ? build_coo(p, s)
                                                                    : build_lanes(p, p->lanes, 1, s),
                              "built alone (only)");
    const char *env = getenv("CLIMB_SPMV_NO_TRIAL");
    if (p->no_trial || (env && env[0] && strcmp(env, "0") != 0))
        return untimed_choice(p, plan_rules(p, s, NULL), "by the rules (no trial)");
    return plan_trial(p, s);
}

template <typename T, unsigned LANES>
static cudaError_t adaptive_lanes(const climb_spmv_plan_dev *p, T alpha, const T *x, T beta, T *y, cudaStream_t s)
{
    const long long groups = (long long)p->rows, per_block = SPMV_BLOCK / LANES;
    long long grid = (groups + per_block - 1) / per_block;
    /* Groups of lanes walk the rows, 16 blocks of 256 a multiprocessor; a thread per row does not walk (one row
     * each: 96 us against 100 on the f32 Poisson matrix). */
    const long long cap = (long long)(p->sms > 0 ? p->sms : 1) * 16;
    if (LANES > 1 && grid > cap)
        grid = cap;
    spmv_adaptive_kernel<T, LANES><<<(unsigned)grid, SPMV_BLOCK, 0, s>>>(p->rows, p->row_ptr, p->col_idx,
                                                                       (const T *)p->val, x, y, alpha, beta,
                                                                       p->long_min);
    return cudaGetLastError();
}

template <typename T>
static cudaError_t adaptive_launch(const climb_spmv_plan_dev *p, T alpha, const T *x, T beta, T *y, cudaStream_t s)
{
    if (p->rows == 0)
        return cudaSuccess;
    if (p->coo_rows) {
        /* the scaling's grid: a full wave of 8 blocks an SM at most (spmv_scale_kernel says why) */
        const unsigned need = grid_for(p->rows, SPMV_BLOCK), cap = (unsigned)(p->sms > 0 ? p->sms : 1) * 8u;
        const unsigned sgrid = need < cap ? need : cap;
        if (p->pdl)
            spmv_scale_kernel<T, 1><<<sgrid, SPMV_BLOCK, 0, s>>>(p->rows, y, beta);
        else
            spmv_scale_kernel<T, 0><<<sgrid, SPMV_BLOCK, 0, s>>>(p->rows, y, beta);
        cudaError_t e = cudaGetLastError();
        if (e == cudaSuccess && p->nnz > 0) {
            const void *const fns[2][3] = {
                {(const void *)spmv_coo_stream_kernel<T, 8, 0>, (const void *)spmv_coo_stream_kernel<T, 16, 0>,
                 (const void *)spmv_coo_stream_kernel<T, 32, 0>},
                {(const void *)spmv_coo_stream_kernel<T, 8, 1>, (const void *)spmv_coo_stream_kernel<T, 16, 1>,
                 (const void *)spmv_coo_stream_kernel<T, 32, 1>}};
            const void *fn = fns[p->pdl != 0][p->coo_bits == 8 ? 0 : p->coo_bits == 16 ? 1 : 2];
            long long nnz = p->nnz;
            const void *rows = p->coo_rows;
            const int *base = p->coo_base, *ci = p->col_idx;
            const T *val = (const T *)p->val;
            void *args[] = {(void *)&nnz, (void *)&rows, (void *)&base, (void *)&ci, (void *)&val, (void *)&x,
                            (void *)&y, (void *)&alpha};
            e = climb_launch_ex(fn, grid_for(p->nnz, SPMV_BLOCK), SPMV_BLOCK, 0, s, args, p->pdl);
        }
        return e;
    }
    if (p->merge)
        return merge_launch<T>((const spmv_merge_plan *)p->merge, p, alpha, x, beta, y, s);
    if (p->jds_woff) {
        windows_kernel_of<T>(p)<<<grid_for(p->rows, CLIMB_SPMV_WINDOW), CLIMB_SPMV_WINDOW, 0, s>>>(
                p->rows, p->row_ptr, p->jds_perm, p->jds_woff, p->jds_ptr, p->jds_col, (const T *)p->jds_val, x, y,
                alpha, beta, p->jds_wpad, p->jds_wstride);
        return cudaGetLastError();
    }
    if (p->jds_perm) {
        jds_kernel_of<T>(p)<<<grid_for(p->rows, SPMV_BLOCK), SPMV_BLOCK, 0, s>>>(
            p->rows, p->diagonals, p->jds_perm, p->jds_ptr, p->jds_col, (const T *)p->jds_val, x, y, alpha, beta);
        return cudaGetLastError();
    }
    cudaError_t e;
    switch (p->lanes) {
    case 1: e = adaptive_lanes<T, 1>(p, alpha, x, beta, y, s); break;
    case 2: e = adaptive_lanes<T, 2>(p, alpha, x, beta, y, s); break;
    case 4: e = adaptive_lanes<T, 4>(p, alpha, x, beta, y, s); break;
    case 8: e = adaptive_lanes<T, 8>(p, alpha, x, beta, y, s); break;
    case 16: e = adaptive_lanes<T, 16>(p, alpha, x, beta, y, s); break;
    default: e = adaptive_lanes<T, 32>(p, alpha, x, beta, y, s); break;
    }
    if (e == cudaSuccess && p->n_warp > 0) {
        spmv_warp_rows_kernel<T><<<grid_for((long long)p->n_warp * 32, SPMV_BLOCK), SPMV_BLOCK, 0, s>>>(
            p->warp_rows, p->n_warp, p->row_ptr, p->col_idx, (const T *)p->val, x, y, alpha, beta);
        e = cudaGetLastError();
    }
    if (e != cudaSuccess || p->n_long == 0)
        return e;
    spmv_long_rows_kernel<T><<<(unsigned)p->n_long, SPMV_BLOCK, 0, s>>>(p->long_rows, p->row_ptr, p->col_idx,
                                                                        (const T *)p->val, x, y, alpha, beta);
    return cudaGetLastError();
}

extern "C" cudaError_t climb_spmv_plan_run(const climb_spmv_plan_dev *p, double alpha, const void *x, double beta,
                                           void *y, cudaStream_t s)
{
    if (p->f64)
        return adaptive_launch<double>(p, alpha, (const double *)x, beta, (double *)y, s);
    return adaptive_launch<float>(p, (float)alpha, (const float *)x, (float)beta, (float *)y, s);
}

