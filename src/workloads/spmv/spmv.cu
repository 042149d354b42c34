/*
 * spmv/spmv.cu - sparse matrix-vector product y = A x as a ladder of storage formats, on generated matrices or a
 * Matrix Market file (--input FILE.mtx), f32 or f64 values with 32-bit indices.
 *
 * From the PMPP SpMV notes): CSR with one thread per row; ELL with padding, stored column-major; COO;
 * the hybrid ELL + COO built on the host; JDS (rows sorted by length, stored by jagged diagonal) and JDS with
 * ELL sections; the point that newer GPUs care about bytes more than about coalescing; and, from Kreutzer et al.'s
 * SELL-C-sigma, JDS sorted only within windows of 256 rows. Beside them the CSR
 * vector kernel (a warp, then a right-sized group of lanes, per row); merge_blocks, row blocks of a fixed budget
 * of rows + nonzeros, each merged by merge path in shared memory (Merrill and Garland's idea, inside a block); and
 * the best rung, an adaptive CSR whose plan builds and times, on the matrix itself, each way of running it that the
 * row lengths admit (lanes a row with long rows a block each, row blocks, COO, a JDS copy) and keeps the fastest
 * (plan.cu). See docs/spmv.md.
 *
 * The folder: formats.cu the generators, statistics and the host formats (built once per matrix, untimed: the
 * report's setup columns), case.h the case, kernels.cuh the shared kernels, plan.cu the best rung's plan; this file
 * the rungs' own kernels, launchers, cuSPARSE, the registry table and the harness glue.
 *
 * Bytes counted (the least a run must move): values and column indices once, row pointers once, x once, y once
 * (written).
 */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <cusparse.h>

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/check.h"
#include "../../device/device.h"
#include "../../device/device_primitives.cuh"
#include "../../io/graph.h"
#include "../../base/rng.h"
#include "../../io/text.h"
#include "../../device/timing.h"
#include "../../core/workload.cuh"
#include "case.h"
#include "kernels.cuh"

/* ---------------------------------------------------------------- kernels */

/* spmv_csr_scalar: the textbook CSR kernel, one thread per row. Neighbouring threads walk rows that lie
 * row-length apart in memory, so each warp load touches up to 32 sectors, and a long row keeps one thread busy
 * while its warp waits. */
template <typename T>
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_csr_scalar_kernel(int rows, const int *__restrict__ rp,
                                                                     const int *__restrict__ ci,
                                                                     const T *__restrict__ val,
                                                                     const T *__restrict__ x, T *__restrict__ y)
{
    const int r = (int)(blockIdx.x * SPMV_BLOCK + threadIdx.x);
    if (r >= rows)
        return;
    T s = 0;
    for (int j = rp[r]; j < rp[r + 1]; j++)
        s += val[j] * x[ci[j]];
    y[r] = s;
}

/* spmv_csr_vector: LANES lanes per row (the book's CSR vector kernel uses a warp): the lanes read a row's
 * nonzeros side by side (coalesced) and add their partial sums with shuffles. A warp per row idles most lanes
 * when rows are short (7 nonzeros of a Poisson row keep 7 of 32 busy); the sized rung picks LANES from the mean
 * row length. */
template <typename T, unsigned LANES>
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_csr_vector_kernel(int rows, const int *__restrict__ rp,
                                                                     const int *__restrict__ ci,
                                                                     const T *__restrict__ val,
                                                                     const T *__restrict__ x, T *__restrict__ y)
{
    const long long row = (long long)blockIdx.x * (SPMV_BLOCK / LANES) + threadIdx.x / LANES;
    const unsigned lane = threadIdx.x % LANES;
    T s = 0;
    if (row < rows)
        for (int j = rp[row] + (int)lane; j < rp[row + 1]; j += LANES)
            s += val[j] * x[ci[j]];
#pragma unroll
    for (unsigned o = LANES / 2; o > 0; o /= 2)
        s += __shfl_down_sync(0xffffffffu, s, o, LANES);
    if (lane == 0 && row < rows)
        y[row] = s;
}

/* spmv_ell: the rows padded to the longest and stored column-major (slot k of row r at k x rows + r): thread r
 * reads its k-th nonzero beside its neighbours' (coalesced, with no row pointers). It pays for the padding: every
 * row is as long as the longest, which on a power-law matrix is thousands of times the mean. */
template <typename T>
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_ell_kernel(int rows, int width, const int *__restrict__ ci,
                                                              const T *__restrict__ val, const T *__restrict__ x,
                                                              T *__restrict__ y)
{
    const int r = (int)(blockIdx.x * SPMV_BLOCK + threadIdx.x);
    if (r >= rows)
        return;
    T s = 0;
    for (int k = 0; k < width; k++) {
        const size_t at = (size_t)k * rows + r;
        const int c = ci[at];
        if (c < 0)
            break; /* padding comes after a row's nonzeros */
        s += val[at] * x[c];
    }
    y[r] = s;
}

/* spmv_coo: spmv_coo_kernel, in kernels.cuh (the best rung's plan runs it too). */

/* spmv_jds_ell: the sorted rows cut into sections of 32 (a warp), each section stored as its own small ELL
 * padded only to its longest row (column-major within the section). The padding of plain ELL shrinks to the
 * length differences inside a section, which sorting made small; each warp reads its section contiguously. */
template <typename T>
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_jds_ell_kernel(int rows, int sections, const int *__restrict__ perm,
                                                                  const long long *__restrict__ sec_ptr,
                                                                  const int *__restrict__ sec_w,
                                                                  const int *__restrict__ ci,
                                                                  const T *__restrict__ val, const T *__restrict__ x,
                                                                  T *__restrict__ y)
{
    const long long sec = ((long long)blockIdx.x * SPMV_BLOCK + threadIdx.x) / SPMV_SECTION;
    const unsigned lane = threadIdx.x % SPMV_SECTION;
    if (sec >= sections)
        return;
    const long long base = sec_ptr[sec];
    const int width = sec_w[sec];
    T s = 0;
    for (int k = 0; k < width; k++) {
        const long long at = base + (long long)k * SPMV_SECTION + lane;
        const int c = ci[at];
        if (c < 0)
            break;
        s += val[at] * x[c];
    }
    const long long i = sec * SPMV_SECTION + lane;
    if (i < rows)
        y[perm[i]] = s;
}

/* ---------------------------------------------------------------- cuSPARSE */

#define SPMV_SPARSE(call)                                                                                      \
    do {                                                                                                       \
        cusparseStatus_t st_ = (call);                                                                         \
        if (st_ != CUSPARSE_STATUS_SUCCESS) {                                                                  \
            fprintf(stderr, "climb: %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cusparseGetErrorString(st_)); \
            return -1;                                                                                         \
        }                                                                                                      \
    } while (0)

static int sparse_prepare(climb_case *c, cusparseSpMVAlg_t alg)
{
    const cudaDataType dt = c->p.type == CLIMB_F64 ? CUDA_R_64F : CUDA_R_32F;
    if (!c->sp) {
        SPMV_SPARSE(cusparseCreate(&c->sp));
        SPMV_SPARSE(cusparseCreateCsr(&c->sp_a, c->m->rows, c->m->cols, c->m->nnz, c->d_rp, c->d_ci, c->d_val,
                                      CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dt));
        SPMV_SPARSE(cusparseCreateDnVec(&c->sp_x, c->m->cols, c->d_x, dt));
        SPMV_SPARSE(cusparseCreateDnVec(&c->sp_y, c->m->rows, c->d_y, dt));
    }
    const double one = 1, zero = 0;
    const float onef = 1, zerof = 0;
    const void *a = c->p.type == CLIMB_F64 ? (const void *)&one : (const void *)&onef;
    const void *b = c->p.type == CLIMB_F64 ? (const void *)&zero : (const void *)&zerof;
    size_t need = 0;
    SPMV_SPARSE(cusparseSpMV_bufferSize(c->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, a, c->sp_a, c->sp_x, b, c->sp_y, dt,
                                        alg, &need));
    if (climb_grow_device_buffer(&c->sp_buf, &c->sp_bytes, need ? need : 16) != 0)
        return -1;
    SPMV_SPARSE(cusparseSpMV_preprocess(c->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, a, c->sp_a, c->sp_x, b, c->sp_y, dt,
                                        alg, c->sp_buf));
    return 0;
}

static int sparse_run(climb_case *c, cusparseSpMVAlg_t alg, cudaStream_t s)
{
    const cudaDataType dt = c->p.type == CLIMB_F64 ? CUDA_R_64F : CUDA_R_32F;
    const double one = 1, zero = 0;
    const float onef = 1, zerof = 0;
    const void *a = c->p.type == CLIMB_F64 ? (const void *)&one : (const void *)&onef;
    const void *b = c->p.type == CLIMB_F64 ? (const void *)&zero : (const void *)&zerof;
    SPMV_SPARSE(cusparseSetStream(c->sp, s));
    SPMV_SPARSE(cusparseSpMV(c->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, a, c->sp_a, c->sp_x, b, c->sp_y, dt, alg,
                             c->sp_buf));
    return 0;
}

/* ---------------------------------------------------------------- launchers */

typedef cudaError_t (*spmv_launch_fn)(climb_case *c, cudaStream_t s);

template <typename T> static cudaError_t launch_csr_scalar(climb_case *c, cudaStream_t s)
{
    if (c->m->rows == 0)
        return cudaSuccess;
    spmv_csr_scalar_kernel<T><<<grid_for(c->m->rows, SPMV_BLOCK), SPMV_BLOCK, 0, s>>>(
        c->m->rows, c->d_rp, c->d_ci, (const T *)c->d_val, (const T *)c->d_x, (T *)c->d_y);
    return cudaGetLastError();
}

template <typename T, unsigned LANES> static cudaError_t launch_vector_lanes(climb_case *c, cudaStream_t s)
{
    if (c->m->rows == 0)
        return cudaSuccess;
    spmv_csr_vector_kernel<T, LANES><<<grid_for(c->m->rows, SPMV_BLOCK / LANES), SPMV_BLOCK, 0, s>>>(
        c->m->rows, c->d_rp, c->d_ci, (const T *)c->d_val, (const T *)c->d_x, (T *)c->d_y);
    return cudaGetLastError();
}

template <typename T> static cudaError_t launch_csr_vector(climb_case *c, cudaStream_t s)
{
    return launch_vector_lanes<T, 32>(c, s);
}

/* Lanes per row for the sized kernel: the power of two at or above the mean row length, 2 to 32 (CUSP's rule). */
static int sized_lanes(double mean) { return mean <= 2 ? 2 : mean <= 4 ? 4 : mean <= 8 ? 8 : mean <= 16 ? 16 : 32; }

template <typename T> static cudaError_t launch_csr_vector_sized(climb_case *c, cudaStream_t s)
{
    switch (c->lanes) {
    case 2: return launch_vector_lanes<T, 2>(c, s);
    case 4: return launch_vector_lanes<T, 4>(c, s);
    case 8: return launch_vector_lanes<T, 8>(c, s);
    case 16: return launch_vector_lanes<T, 16>(c, s);
    default: return launch_vector_lanes<T, 32>(c, s);
    }
}

template <typename T> static cudaError_t launch_ell(climb_case *c, cudaStream_t s)
{
    if (c->m->rows == 0)
        return cudaSuccess;
    spmv_ell_kernel<T><<<grid_for(c->m->rows, SPMV_BLOCK), SPMV_BLOCK, 0, s>>>(
        c->m->rows, c->sz.ell_width, c->d_ell_ci, (const T *)c->d_ell_val, (const T *)c->d_x, (T *)c->d_y);
    return cudaGetLastError();
}

template <typename T> static cudaError_t launch_coo(climb_case *c, cudaStream_t s)
{
    if (c->m->rows == 0)
        return cudaSuccess;
    cudaError_t e = cudaMemsetAsync(c->d_y, 0, (size_t)c->m->rows * sizeof(T), s);
    if (e != cudaSuccess || c->m->nnz == 0)
        return e;
    spmv_coo_kernel<T><<<grid_for(c->m->nnz, SPMV_BLOCK), SPMV_BLOCK, 0, s>>>(
        c->m->nnz, c->d_coo_row, c->d_ci, (const T *)c->d_val, (const T *)c->d_x, (T *)c->d_y, T(1));
    return cudaGetLastError();
}

template <typename T> static cudaError_t launch_hyb(climb_case *c, cudaStream_t s)
{
    if (c->m->rows == 0)
        return cudaSuccess;
    spmv_ell_kernel<T><<<grid_for(c->m->rows, SPMV_BLOCK), SPMV_BLOCK, 0, s>>>(
        c->m->rows, c->sz.hyb_width, c->d_hyb_ci, (const T *)c->d_hyb_val, (const T *)c->d_x, (T *)c->d_y);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || c->sz.hyb_coo == 0)
        return e;
    spmv_coo_kernel<T><<<grid_for(c->sz.hyb_coo, SPMV_BLOCK), SPMV_BLOCK, 0, s>>>(
        c->sz.hyb_coo, c->d_hyb_row, c->d_hyb_cci, (const T *)c->d_hyb_cval, (const T *)c->d_x, (T *)c->d_y, T(1));
    return cudaGetLastError();
}

template <typename T> static cudaError_t launch_jds(climb_case *c, cudaStream_t s)
{
    if (c->m->rows == 0)
        return cudaSuccess;
    spmv_jds_kernel<T><<<grid_for(c->m->rows, SPMV_BLOCK), SPMV_BLOCK, 0, s>>>(
        c->m->rows, c->sorted.len[0], c->d_perm, c->d_jd_ptr, c->d_jds_ci, (const T *)c->d_jds_val,
        (const T *)c->d_x, (T *)c->d_y, T(1), T(0));
    return cudaGetLastError();
}

template <typename T> static cudaError_t launch_jds_ell(climb_case *c, cudaStream_t s)
{
    if (c->m->rows == 0)
        return cudaSuccess;
    spmv_jds_ell_kernel<T><<<grid_for((long long)c->sz.sections * SPMV_SECTION, SPMV_BLOCK), SPMV_BLOCK, 0, s>>>(
        c->m->rows, c->sz.sections, c->d_perm, c->d_sec_ptr, c->d_sec_w, c->d_sell_ci, (const T *)c->d_sell_val,
        (const T *)c->d_x, (T *)c->d_y);
    return cudaGetLastError();
}

template <typename T> static cudaError_t launch_jds_windows(climb_case *c, cudaStream_t s)
{
    if (c->m->rows == 0)
        return cudaSuccess;
    spmv_jds_windows_kernel<T, 1><<<grid_for(c->m->rows, CLIMB_SPMV_WINDOW), CLIMB_SPMV_WINDOW, 0, s>>>(
        c->m->rows, c->d_rp, c->d_win_perm, c->d_win_off, c->d_win_jd, c->d_win_ci, (const T *)c->d_win_val,
        (const T *)c->d_x, (T *)c->d_y, T(1), T(0), NULL, 0);
    return cudaGetLastError();
}

template <typename T> static cudaError_t launch_merge(climb_case *c, cudaStream_t s)
{
    return spmv_merge_run(&c->mplan, &c->plan, sizeof(T) == 8, 1.0, c->d_x, 0.0, c->d_y, s);
}

template <typename T> static cudaError_t launch_adaptive(climb_case *c, cudaStream_t s)
{
    return climb_spmv_plan_run(&c->plan, 1.0, c->d_x, 0.0, c->d_y, s);
}

/* ---------------------------------------------------------------- the registry */

#define SPMV_KERNELS_FN(fname, kernel)                                                                         \
    static int fname(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)   \
    {                                                                                                        \
        return climb_typed<CLIMB_TYPES_F32_F64>(t, 0, [&](auto x) {                                             \
            typedef decltype(x) T;                                                                           \
            return climb_kernel_at(o, max, 0, (const void *)kernel<T>, SPMV_BLOCK, 0, "%s<%s>", #kernel, climb_dtype_name(t)); \
        });                                                                                                  \
    }
SPMV_KERNELS_FN(k_scalar, spmv_csr_scalar_kernel)
SPMV_KERNELS_FN(k_ell, spmv_ell_kernel)
SPMV_KERNELS_FN(k_coo, spmv_coo_kernel)
SPMV_KERNELS_FN(k_jds, spmv_jds_kernel)
SPMV_KERNELS_FN(k_jds_ahead, spmv_jds_ahead_kernel)
SPMV_KERNELS_FN(k_jds_ell, spmv_jds_ell_kernel)

/* The windowed JDS's kernel, with `ahead` diagonals at a time (1 on the ladder, SPMV_JDS_AHEAD in the plan). */
static int windows_kernel_at(climb_dtype t, int ahead, climb_kernel_desc *o, int max, int i)
{
    return climb_typed<CLIMB_TYPES_F32_F64>(t, 0, [&](auto x) {
        typedef decltype(x) T;
        const void *f = ahead == 1 ? (const void *)spmv_jds_windows_kernel<T, 1>
                                   : (const void *)spmv_jds_windows_kernel<T, SPMV_JDS_AHEAD>;
        return climb_kernel_at(o, max, i, f, CLIMB_SPMV_WINDOW, 0, "spmv_jds_windows_kernel<%s, %d>",
                               climb_dtype_name(t), ahead);
    });
}

static int k_jds_windows(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return windows_kernel_at(t, 1, o, max, 0);
}

/* One kernel at index i of o (core's helper with spmv's block); the next index. */
/* Kernel i of o, named with its element type and a parameter ("spmv_csr_vector_kernel<float, 32>"); the next index. */
static int kernel_at(climb_kernel_desc *o, int max, int i, const void *f, const char *name, climb_dtype t, int param,
                     int block)
{
    return param ? climb_kernel_at(o, max, i, f, block, 0, "%s<%s, %d>", name, climb_dtype_name(t), param)
                 : climb_kernel_at(o, max, i, f, block, 0, "%s<%s>", name, climb_dtype_name(t));
}

static int k_vector(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_typed<CLIMB_TYPES_F32_F64>(t, 0, [&](auto x) {
        typedef decltype(x) T;
        return kernel_at(o, max, 0, (const void *)spmv_csr_vector_kernel<T, 32>, "spmv_csr_vector_kernel", t, 32,
                         SPMV_BLOCK);
    });
}

static int k_vector_sized(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_typed<CLIMB_TYPES_F32_F64>(t, 0, [&](auto x) {
        typedef decltype(x) T;
        int i = 0;
#define SPMV_L(L) i = kernel_at(o, max, i, (const void *)spmv_csr_vector_kernel<T, L>, "spmv_csr_vector_kernel", t, L, SPMV_BLOCK);
        SPMV_L(2) SPMV_L(4) SPMV_L(8) SPMV_L(16)
#undef SPMV_L
        return i;
    });
}

static int k_hyb(climb_dtype t, const climb_device_info *d, const int *v, climb_kernel_desc *o, int max)
{
    climb_kernel_desc two[2];
    k_ell(t, d, v, &two[0], 1);
    k_coo(t, d, v, &two[1], 1);
    for (int i = 0; i < 2 && i < max; i++)
        o[i] = two[i];
    return 2;
}

static int k_merge(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_typed<CLIMB_TYPES_F32_F64>(t, 0, [&](auto x) {
        typedef decltype(x) T;
        return climb_kernel_at(o, max, 0, (const void *)spmv_merge_kernel<T, SPMV_MERGE_BLOCK, SPMV_MERGE_ITEMS>,
                               SPMV_MERGE_BLOCK, 0, "spmv_merge_kernel<%s, %u, %u>", climb_dtype_name(t),
                               SPMV_MERGE_BLOCK, SPMV_MERGE_ITEMS);
    });
}

static int k_adaptive(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int i = climb_typed<CLIMB_TYPES_F32_F64>(t, 0, [&](auto x) {
        typedef decltype(x) T;
        int k = 0;
#define SPMV_L(L) k = kernel_at(o, max, k, (const void *)spmv_adaptive_kernel<T, L>, "spmv_adaptive_kernel", t, L, SPMV_BLOCK);
        SPMV_L(1) SPMV_L(2) SPMV_L(4) SPMV_L(8) SPMV_L(16) SPMV_L(32)
#undef SPMV_L
        return kernel_at(o, max, k, (const void *)spmv_long_rows_kernel<T>, "spmv_long_rows_kernel", t, 0, SPMV_BLOCK);
    });
    climb_kernel_desc more[9];
    k_merge(t, NULL, NULL, &more[0], 1);
    k_jds_ahead(t, NULL, NULL, &more[1], 1);
    windows_kernel_at(t, SPMV_JDS_AHEAD, more, 9, 5);
    climb_typed<CLIMB_TYPES_F32_F64>(t, 0, [&](auto x) {
        typedef decltype(x) T;
        /* (the variants launched early, EARLY = 1, use the same resources) */
        const void *coo[] = {(const void *)spmv_coo_stream_kernel<T, 8, 0>,
                             (const void *)spmv_coo_stream_kernel<T, 16, 0>,
                             (const void *)spmv_coo_stream_kernel<T, 32, 0>};
        for (int b = 0; b < 3; b++)
            climb_kernel_at(more, 9, b == 0 ? 3 : 6 + b, coo[b], SPMV_BLOCK, 0, "spmv_coo_stream_kernel<%s, %d, 0>",
                            climb_dtype_name(t), 8 << b);
        climb_kernel_at(more, 9, 4, (const void *)spmv_scale_kernel<T, 0>, SPMV_BLOCK, 0,
                        "spmv_scale_kernel<%s, 0>", climb_dtype_name(t));
        climb_kernel_at(more, 9, 6, (const void *)spmv_warp_rows_kernel<T>, SPMV_BLOCK, 0,
                        "spmv_warp_rows_kernel<%s>", climb_dtype_name(t));
        return climb_kernel_at(more, 3, 2,
                               (const void *)spmv_merge_kernel<T, SPMV_MERGE_BLOCK, SPMV_MERGE_ITEMS_SMALL>,
                               SPMV_MERGE_BLOCK, 0, "spmv_merge_kernel<%s, %u, %u>", climb_dtype_name(t),
                               SPMV_MERGE_BLOCK, SPMV_MERGE_ITEMS_SMALL);
    });
    for (int k = 0; k < 9; k++, i++)
        if (i < max)
            o[i] = more[k];
    return i;
}

typedef struct spmv_rung {
    climb_rung_info info;
    spmv_format format;
    spmv_launch_fn launch[2];   /* f32, f64 */
    cusparseSpMVAlg_t alg;      /* vendor rungs */
} spmv_rung;

#define SPMV_LAUNCH(fn) {fn<float>, fn<double>}

static const spmv_rung SPMV_RUNGS[] = {
    {.info = {.name = "cusparse_csr_alg1", .idea = "vendor: cusparseSpMV on CSR, CUSPARSE_SPMV_CSR_ALG1 (the default)",
              .needs = "rows and cols >= 1", .kind = CLIMB_RUNG_VENDOR, .kernels = NULL},
     .format = FMT_CUSPARSE, .launch = {NULL, NULL}, .alg = CUSPARSE_SPMV_CSR_ALG1},
    {.info = {.name = "cusparse_csr_alg2", .idea = "vendor: cusparseSpMV on CSR, CUSPARSE_SPMV_CSR_ALG2 "
                                                   "(deterministic, for irregular rows)",
              .needs = "rows and cols >= 1", .kind = CLIMB_RUNG_VENDOR, .kernels = NULL},
     .format = FMT_CUSPARSE, .launch = {NULL, NULL}, .alg = CUSPARSE_SPMV_CSR_ALG2},
    {.info = {.name = "csr_scalar", .idea = "CSR, one thread per row", .needs = "", .kind = CLIMB_RUNG_LADDER,
              .kernels = k_scalar},
     .format = FMT_CSR, .launch = SPMV_LAUNCH(launch_csr_scalar)},
    {.info = {.name = "csr_vector", .idea = "CSR, a warp per row: coalesced reads of each row, shuffle sums",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_vector},
     .format = FMT_CSR, .launch = SPMV_LAUNCH(launch_csr_vector)},
    {.info = {.name = "csr_vector_sized", .idea = "CSR, 2 to 32 lanes per row from the mean row length",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_vector_sized},
     .format = FMT_CSR, .launch = SPMV_LAUNCH(launch_csr_vector_sized)},
    {.info = {.name = "ell", .idea = "ELL: rows padded to the longest, column-major; a thread per row",
              .needs = "ELL within format_limit x the CSR bytes", .kind = CLIMB_RUNG_LADDER, .kernels = k_ell},
     .format = FMT_ELL, .launch = SPMV_LAUNCH(launch_ell)},
    {.info = {.name = "coo", .idea = "COO: a thread per nonzero, warp segmented sums, an atomic per row segment",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_coo},
     .format = FMT_COO, .launch = SPMV_LAUNCH(launch_coo)},
    {.info = {.name = "hyb", .idea = "ELL up to the width most rows reach (row-length histogram), the rest COO",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_hyb},
     .format = FMT_HYB, .launch = SPMV_LAUNCH(launch_hyb)},
    {.info = {.name = "jds", .idea = "JDS: rows sorted by length, stored by jagged diagonal; no padding",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_jds},
     .format = FMT_JDS, .launch = SPMV_LAUNCH(launch_jds)},
    {.info = {.name = "jds_ell", .idea = "sorted rows in sections of 32, each an ELL padded to its own longest row",
              .needs = "sections within format_limit x the CSR bytes", .kind = CLIMB_RUNG_LADDER,
              .kernels = k_jds_ell},
     .format = FMT_SELL, .launch = SPMV_LAUNCH(launch_jds_ell)},
    {.info = {.name = "jds_windows", .idea = "JDS sorted within windows of 256 rows, a block each: no padding, and "
                                             "x read as locally as the row order allows",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_jds_windows},
     .format = FMT_WINDOWS, .launch = SPMV_LAUNCH(launch_jds_windows)},
    {.info = {.name = "merge_blocks", .idea = "row blocks of a fixed rows+nonzeros budget, merge path in shared "
                                              "memory: every thread the same work",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_merge},
     .format = FMT_MERGE, .launch = SPMV_LAUNCH(launch_merge)},
    {.info = {.name = "csr_adaptive", .idea = "timed on the matrix: lanes a short row with long rows a warp or a "
                                              "block each, JDS (in windows or whole) built on the device, merge "
                                              "blocks or COO for power laws",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_adaptive},
     .format = FMT_ADAPTIVE, .launch = SPMV_LAUNCH(launch_adaptive)},
};
#define SPMV_N_RUNGS CLIMB_COUNT(SPMV_RUNGS)

static const climb_rung_info *spmv_rung_info(int i) { return &SPMV_RUNGS[i].info; }

/* ---------------------------------------------------------------- options */

static const char *const SPMV_MATRICES[] = {"poisson", "stencil27", "banded", "random", "powerlaw", "elastic27", "fem",
                                            NULL};
enum { OPT_MATRIX, OPT_BAND, OPT_PER_ROW, OPT_MAX_ROW, OPT_LIMIT, OPT_INPUT };
static constexpr climb_option SPMV_OPTIONS[] = {
    {.name = "matrix", .kind = CLIMB_OPT_CHOICE,
     .meaning = "generated matrix: poisson (3-D 7-point), stencil27, banded, random (per_row a row), powerlaw "
                "(Pareto row lengths up to max_row), elastic27 (3-D elasticity: 3 unknowns a node, 27-point, 81 a "
                "row in 3 x 3 blocks), fem (rows of per_row / 2 to 3 per_row / 2 columns within a band of "
                "max(band, per_row)); not used with --input",
     .def = "all", .choices = SPMV_MATRICES, .generator = 1},
    {.name = "band", .kind = CLIMB_OPT_INT, .meaning = "banded: columns r - band .. r + band", .def = "8", .min = 0,
     .max = 100000, .generator = 1},
    {.name = "per_row", .kind = CLIMB_OPT_INT, .meaning = "random: nonzeros per row; fem: their mean", .def = "16", .min = 1,
     .max = 1000000, .generator = 1},
    {.name = "max_row", .kind = CLIMB_OPT_INT, .meaning = "powerlaw: the longest row", .def = "4096", .min = 1,
     .max = 2147483646, .generator = 1},
    {.name = "format_limit", .kind = CLIMB_OPT_FLOAT,
     .meaning = "a padded format (ell, jds_ell) is refused above this multiple of the CSR's bytes", .def = "3",
     .min = 1, .max = 1000},
    {.name = "input", .kind = CLIMB_OPT_FILE,
     .meaning = "a Matrix Market file (coordinate real, integer or pattern); a folder: each .mtx file in it",
     .def = "", .suffixes = ".mtx"},
};
CLIMB_OPTION_AT(SPMV_OPTIONS, OPT_MATRIX, "matrix");
CLIMB_OPTION_AT(SPMV_OPTIONS, OPT_BAND, "band");
CLIMB_OPTION_AT(SPMV_OPTIONS, OPT_PER_ROW, "per_row");
CLIMB_OPTION_AT(SPMV_OPTIONS, OPT_MAX_ROW, "max_row");
CLIMB_OPTION_AT(SPMV_OPTIONS, OPT_LIMIT, "format_limit");
CLIMB_OPTION_AT(SPMV_OPTIONS, OPT_INPUT, "input");

/* ---------------------------------------------------------------- the input file */

static int spmv_load(const char *path, void **data, climb_shape *shape, char *desc, size_t desclen, char *err,
                     size_t errlen)
{
    *data = NULL;
    climb_csr *m = (climb_csr *)calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "%s: out of host memory", path);
        return -1;
    }
    climb_mtx_info info;
    if (climb_mtx_read(path, m, &info, err, errlen) != 0) {
        free(m);
        return -1;
    }
    static const char *const SYM[] = {"general", "symmetric, both triangles stored", "skew-symmetric, both "
                                                                                     "triangles stored"};
    static const char *const FIELD[] = {"real", "integer", "pattern (values 1)"};
    *shape = CLIMB_SHAPE2((size_t)m->rows, (size_t)m->cols);
    snprintf(desc, desclen, "%s: %d x %d, %d nonzeros (%s, %s)", climb_base_name(path), m->rows, m->cols, m->nnz,
             FIELD[info.field], SYM[info.symmetry]);
    *data = m;
    return 0;
}

/* A dry run's look at the file: its banner and size line. */
static int spmv_peek(const char *path, climb_shape *shape, char *desc, size_t desclen, char *err, size_t errlen)
{
    int32_t rows, cols;
    climb_mtx_info info;
    if (climb_mtx_peek(path, &rows, &cols, &info, err, errlen) != 0)
        return -1;
    *shape = CLIMB_SHAPE2((size_t)rows, (size_t)cols);
    snprintf(desc, desclen, "%s: %d x %d, %lld entries (the header only: a dry run)", climb_base_name(path), rows, cols,
             (long long)info.entries);
    return 0;
}

static void spmv_unload(void *data)
{
    climb_csr *m = (climb_csr *)data;
    if (m)
        climb_csr_free(m);
    free(m);
}

/* ---------------------------------------------------------------- harness glue */

static void spmv_release(climb_case *c, int rung);

static void spmv_fini(climb_case *c)
{
    if (c->sp_a)
        cusparseDestroySpMat(c->sp_a);
    if (c->sp_x)
        cusparseDestroyDnVec(c->sp_x);
    if (c->sp_y)
        cusparseDestroyDnVec(c->sp_y);
    if (c->sp)
        cusparseDestroy(c->sp);
    for (int r = 0; r < (int)SPMV_N_RUNGS; r++)
        spmv_release(c, r);
    climb_csr_free(&c->gen);
    spmv_free_sorted(&c->sorted);
}

/* The matrix (the file's, or generated with its values as the case's type holds them, so that the reference sees
 * what the GPU sees), its row statistics and the formats' sizes. */
static int spmv_init(climb_case *c)
{
    const climb_case_params *p = &c->p;
    c->matrix = p->opts[OPT_MATRIX].choice;
    c->limit = p->opts[OPT_LIMIT].f;
    c->tsize = p->type == CLIMB_F64 ? 8 : 4;
    c->plan.f64 = p->type == CLIMB_F64;
    const climb_csr *file = (const climb_csr *)p->opts[OPT_INPUT].data;
    char err[300];
    if (file) {
        c->m = file;
    } else {
        climb_spmv_gen g = {c->matrix, (int64_t)p->shape.d[0], (int64_t)p->shape.d[1],
                            (int)p->opts[OPT_BAND].i, (int)p->opts[OPT_PER_ROW].i, (int)p->opts[OPT_MAX_ROW].i,
                            p->seed};
        if (climb_spmv_generate(&g, &c->gen, c->grid, err, sizeof err) != 0) {
            fprintf(stderr, "climb: spmv: %s\n", err);
            return -1;
        }
        if (p->type == CLIMB_F32)
            for (int32_t j = 0; j < c->gen.nnz; j++)
                c->gen.val[j] = (float)c->gen.val[j];
        c->m = &c->gen;
    }
    const climb_csr *m = c->m;
    climb_spmv_row_stats(m, &c->st);
    if (spmv_sort_rows(m, &c->sorted) != 0 || spmv_compute_sizes(m, &c->sorted, &c->sz) != 0)
        return climb_host_oom("the row statistics");
    for (int32_t j = 0; j < m->nnz && p->type == CLIMB_F32; j++)
        if (!isfinite((float)m->val[j])) {
            snprintf(c->unfit, sizeof c->unfit, "the file's value %g (nonzero %d) does not fit f32", m->val[j], j);
            break;
        }
    return 0;
}

static double val_at(const climb_case *c, const void *v, size_t k)
{
    return c->p.type == CLIMB_F64 ? ((const double *)v)[k] : ((const float *)v)[k];
}

static void set_val(const climb_case *c, void *v, size_t k, double x)
{
    if (c->p.type == CLIMB_F64)
        ((double *)v)[k] = x;
    else
        ((float *)v)[k] = (float)x;
}

/* The values and x in the case's type, the reference from them, the indices' device copies, and the best rung's
 * view of the matrix. */
static int spmv_fill(climb_case *c)
{
    const climb_csr *m = c->m;
    const size_t rows = (size_t)m->rows, cols = (size_t)m->cols;
    for (size_t j = 0; j < (size_t)m->nnz; j++)
        set_val(c, c->h_val, j, m->val[j]);
    climb_rng r;
    climb_rng_seed(&r, c->p.seed ^ 0x5eedf00dULL);
    for (size_t k = 0; k < cols; k++)
        set_val(c, c->h_x, k, climb_rng_double(&r, -1.0, 1.0));
    for (size_t i = 0; i < rows; i++) {
        double s = 0, a = 0;
        for (int32_t j = m->row_ptr[i]; j < m->row_ptr[i + 1]; j++) {
            const double t = val_at(c, c->h_val, (size_t)j) * val_at(c, c->h_x, (size_t)m->col_idx[j]);
            s += t;
            a += fabs(t);
        }
        c->ref[i] = s;
        c->tol[i] = climb_spmv_tolerance(m->row_ptr[i + 1] - m->row_ptr[i], a, c->p.type == CLIMB_F64);
    }
    if (CLIMB_FAILED(cudaMemcpy(c->d_rp, m->row_ptr, (rows + 1) * 4, cudaMemcpyHostToDevice)) ||
        CLIMB_FAILED(cudaMemcpy(c->d_ci, m->col_idx, (size_t)m->nnz * 4, cudaMemcpyHostToDevice)))
        return -1;
    c->lanes = sized_lanes(c->st.mean);
    c->plan.rows = m->rows;
    c->plan.cols = m->cols;
    c->plan.nnz = m->nnz;
    c->plan.row_ptr = c->d_rp;
    c->plan.col_idx = c->d_ci;
    c->plan.val = c->d_val;
    c->plan.sms = c->p.dev ? c->p.dev->sms : 1;
    /* The plan's kernels loaded now, untimed: the best rung's setup figure is then what a plan costs once its
     * kernels are loaded, as in a program that made one before, not the process's one-time loading (docs/spmv.md) */
    const cudaError_t w = climb_spmv_plan_warm(c->p.type == CLIMB_F64, 0);
    if (w != cudaSuccess) {
        fprintf(stderr, "climb: spmv: could not load the plan's kernels: %s\n", cudaGetErrorString(w));
        cudaGetLastError();
        return -1;
    }
    return 0;
}

static size_t at_least_1(size_t n) { return n ? n : 1; }
static size_t rp_bytes(const climb_case *c) { return ((size_t)c->m->rows + 1) * 4; }
static size_t ci_bytes(const climb_case *c) { return ((size_t)c->m->nnz + 1) * 4; }
static size_t val_bytes(const climb_case *c) { return at_least_1((size_t)c->m->nnz) * c->tsize; }
static size_t x_bytes(const climb_case *c) { return at_least_1((size_t)c->m->cols) * c->tsize; }
static size_t y_bytes(const climb_case *c) { return at_least_1((size_t)c->m->rows) * c->tsize; }
static size_t ref_bytes(const climb_case *c) { return at_least_1((size_t)c->m->rows) * sizeof(double); }

#define SPMV_IO (CLIMB_BUF_HOST | CLIMB_BUF_DEVICE)
/* y's poison is all ones: NaN in f32 and f64. */
static const climb_buffer SPMV_BUFFERS[] = {
    {.name = "row pointers", .flags = CLIMB_BUF_DEVICE, .bytes = rp_bytes, .device_at = offsetof(climb_case, d_rp)},
    {.name = "column indices", .flags = CLIMB_BUF_DEVICE, .bytes = ci_bytes, .device_at = offsetof(climb_case, d_ci)},
    {.name = "values", .flags = SPMV_IO | CLIMB_BUF_INPUT, .bytes = val_bytes, .host_at = offsetof(climb_case, h_val),
     .device_at = offsetof(climb_case, d_val)},
    {.name = "x", .flags = SPMV_IO | CLIMB_BUF_INPUT, .bytes = x_bytes, .host_at = offsetof(climb_case, h_x),
     .device_at = offsetof(climb_case, d_x)},
    {.name = "y", .flags = SPMV_IO | CLIMB_BUF_OUTPUT, .bytes = y_bytes, .host_at = offsetof(climb_case, h_y),
     .device_at = offsetof(climb_case, d_y), .poison = 0xFF},
    {.name = "reference", .flags = CLIMB_BUF_HOST, .bytes = ref_bytes, .host_at = offsetof(climb_case, ref)},
    {.name = "tolerances", .flags = CLIMB_BUF_HOST, .bytes = ref_bytes, .host_at = offsetof(climb_case, tol)},
};
#undef SPMV_IO

static const char *spmv_describe(const climb_case *c)
{
    static char buf[400];
    const climb_csr *m = c->m;
    char what[160];
    if (c->p.opts[OPT_INPUT].data)
        snprintf(what, sizeof what, "the named file");
    else if (c->matrix == CLIMB_SPMV_POISSON || c->matrix == CLIMB_SPMV_STENCIL27 || c->matrix == CLIMB_SPMV_ELASTIC27)
        snprintf(what, sizeof what, "%s on a %dx%dx%d grid", SPMV_MATRICES[c->matrix], c->grid[0], c->grid[1],
                 c->grid[2]);
    else if (c->matrix == CLIMB_SPMV_BANDED)
        snprintf(what, sizeof what, "banded, half-width %lld", c->p.opts[OPT_BAND].i);
    else if (c->matrix == CLIMB_SPMV_RANDOM)
        snprintf(what, sizeof what, "random, %lld a row", c->p.opts[OPT_PER_ROW].i);
    else if (c->matrix == CLIMB_SPMV_FEM)
        snprintf(what, sizeof what, "fem, %lld a row on average, band %lld", c->p.opts[OPT_PER_ROW].i,
                 c->p.opts[OPT_BAND].i > c->p.opts[OPT_PER_ROW].i ? c->p.opts[OPT_BAND].i
                                                                   : c->p.opts[OPT_PER_ROW].i);
    else
        snprintf(what, sizeof what, "powerlaw, rows up to %lld", c->p.opts[OPT_MAX_ROW].i);
    snprintf(buf, sizeof buf, "%s: %d x %d, %d nonzeros; row length mean %.2f, max %d, cv %.2f, %d empty rows",
             what, m->rows, m->cols, m->nnz, c->st.mean, c->st.max, c->st.cv, c->st.empty);
    return buf;
}

static int spmv_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode; /* the CPU product is cheap at every size */
    snprintf(desc, desclen, "CPU, double; |error| <= 1.01 (len + 1) u sum|a x| per row");
    return 0;
}

static double csr_bytes(const climb_case *c)
{
    return (double)c->m->nnz * (4 + c->tsize) + ((double)c->m->rows + 1) * 4;
}

static const char *spmv_refuses(const climb_case *c, int rung)
{
    static char why[240];
    if (c->p.opts[OPT_INPUT].data && c->matrix != 0)
        return "the input is the named file: matrix does not apply";
    if (c->unfit[0])
        return c->unfit;
    const spmv_rung *r = &SPMV_RUNGS[rung];
    if (r->format == FMT_CUSPARSE && (c->m->rows == 0 || c->m->cols == 0))
        return "cuSPARSE takes no empty matrix (rows or cols 0)";
    double bytes = 0;
    if (r->format == FMT_ELL)
        bytes = (double)c->sz.ell_elems * (4 + c->tsize);
    else if (r->format == FMT_SELL)
        bytes = (double)c->sz.sell_elems * (4 + c->tsize);
    if (bytes > c->limit * csr_bytes(c) && bytes > 1e6) {
        snprintf(why, sizeof why, "%s would keep %.1f MB, %.1fx the CSR's %.1f MB (format_limit=%g): the padding "
                                  "of rows up to %d long",
                 r->info.name, bytes / 1e6, bytes / csr_bytes(c), csr_bytes(c) / 1e6, c->limit, c->st.max);
        return why;
    }
    return NULL;
}

static int spmv_prepare(climb_case *c, int rung)
{
    const spmv_rung *r = &SPMV_RUNGS[rung];
    if (r->format == FMT_CUSPARSE) {
        if (sparse_prepare(c, r->alg) != 0)
            return -1;
        c->made[FMT_CUSPARSE].bytes = (double)c->sp_bytes;
        return 0;
    }
    if (r->format == FMT_CSR || c->built[r->format])
        return 0;
    if (spmv_build_format(c, r->format) != 0)
        return -1;
    c->built[r->format] = 1;
    return 0;
}

#define SPMV_FREE_DEV(p)                                                                                       \
    do {                                                                                                       \
        if (p)                                                                                                 \
            cudaFree(p);                                                                                       \
        (p) = NULL;                                                                                            \
    } while (0)

/* The format the rung ran on is freed once the harness is done with it: a case holds one format at a time (the
 * setup figures in c->made stay for the report). */
static void spmv_release(climb_case *c, int rung)
{
    if (!c->m)
        return; /* init failed before the matrix */
    const spmv_format f = SPMV_RUNGS[rung].format;
    switch (f) {
    case FMT_ELL: SPMV_FREE_DEV(c->d_ell_ci); SPMV_FREE_DEV(c->d_ell_val); break;
    case FMT_COO: SPMV_FREE_DEV(c->d_coo_row); break;
    case FMT_HYB:
        SPMV_FREE_DEV(c->d_hyb_ci); SPMV_FREE_DEV(c->d_hyb_row); SPMV_FREE_DEV(c->d_hyb_cci);
        SPMV_FREE_DEV(c->d_hyb_val); SPMV_FREE_DEV(c->d_hyb_cval);
        break;
    case FMT_JDS:
        SPMV_FREE_DEV(c->d_perm); SPMV_FREE_DEV(c->d_jd_ptr); SPMV_FREE_DEV(c->d_jds_ci); SPMV_FREE_DEV(c->d_jds_val);
        break;
    case FMT_SELL:
        SPMV_FREE_DEV(c->d_perm); SPMV_FREE_DEV(c->d_sec_ptr); SPMV_FREE_DEV(c->d_sec_w); SPMV_FREE_DEV(c->d_sell_ci);
        SPMV_FREE_DEV(c->d_sell_val);
        break;
    case FMT_WINDOWS:
        SPMV_FREE_DEV(c->d_win_perm); SPMV_FREE_DEV(c->d_win_off); SPMV_FREE_DEV(c->d_win_jd);
        SPMV_FREE_DEV(c->d_win_ci); SPMV_FREE_DEV(c->d_win_val);
        break;
    case FMT_MERGE: spmv_merge_plan_free(&c->mplan); break;
    case FMT_ADAPTIVE: climb_spmv_plan_free(&c->plan); break;
    case FMT_CUSPARSE: SPMV_FREE_DEV(c->sp_buf); c->sp_bytes = 0; break;
    case FMT_CSR: break;
    }
    c->built[f] = 0;
}

static int spmv_setup(const climb_case *c, int rung, climb_setup *out)
{
    const spmv_format f = SPMV_RUNGS[rung].format;
    if (f == FMT_CSR)
        return 0;
    *out = c->made[f];
    return 1;
}

static int spmv_run(climb_case *c, int rung, cudaStream_t s)
{
    const spmv_rung *r = &SPMV_RUNGS[rung];
    if (r->format == FMT_CUSPARSE)
        return sparse_run(c, r->alg, s);
    CLIMB_CHECK(r->launch[c->p.type == CLIMB_F64](c, s));
    return 0;
}

static int spmv_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    for (size_t i = 0; i < (size_t)c->m->rows; i++)
        climb_compare_close(&k, val_at(c, c->h_y, i), c->ref[i], c->tol[i], "y[%zu]", i);
    return climb_compare_end(&k);
}

static void spmv_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->bytes_read = csr_bytes(c) + (double)c->m->cols * c->tsize;
    out->bytes_written = (double)c->m->rows * c->tsize;
    out->flops = 2.0 * c->m->nnz;
}

/* The best rung's plan: what it runs and how it chose (each candidate's time in the trial). */
static const char *spmv_rung_note(climb_case *c, int rung)
{
    if (SPMV_RUNGS[rung].format != FMT_ADAPTIVE || !c->plan.choice[0])
        return NULL;
    return c->plan.choice;
}

/* 160^3 = 4096000 rows: the Poisson matrix of an earlier cuSPARSE measurement, and every generator at that size. */
static const climb_shape SPMV_BENCH_SHAPES[] = {CLIMB_SHAPE2(4096000, 4096000)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape SPMV_MAIN_SHAPES[] = {CLIMB_SHAPE2(1048576, 1048576)};
/* Empty, 1 x 1, a row or a column, rectangular both ways, tiles' edges, a few thousand rows. */
static const climb_shape SPMV_CHECK_SHAPES[] = {
    CLIMB_SHAPE2(0, 0),   CLIMB_SHAPE2(0, 5),     CLIMB_SHAPE2(5, 0),       CLIMB_SHAPE2(1, 1),
    CLIMB_SHAPE2(1, 300), CLIMB_SHAPE2(300, 1),   CLIMB_SHAPE2(2, 3),       CLIMB_SHAPE2(33, 33),
    CLIMB_SHAPE2(100, 37), CLIMB_SHAPE2(37, 100), CLIMB_SHAPE2(1000, 1000), CLIMB_SHAPE2(4097, 4097),
    CLIMB_SHAPE2(65537, 65537), CLIMB_SHAPE2(100003, 50000)};
static const climb_shape SPMV_QUICK_SHAPES[] = {CLIMB_SHAPE2(33, 33), CLIMB_SHAPE2(4097, 4097)};

static const climb_sweep SPMV_SWEEPS[] = {
    {.name = "rows",
     .title = "SpMV f32: GB/s against the rows, Poisson and power-law (2^22 rows: the power-law case cuSPARSE was first compared on)",
     .args = "--type f32 --set matrix=poisson,powerlaw --size 65536x65536 --size 262144x262144 "
             "--size 1048576x1048576 --size 4194304x4194304",
     .x = "rows",
     .log_x = 1},
    {.name = "matrices",
     .title = "SpMV on real matrices (every .mtx file of the data folder's matrices/: structural, circuit, mesh, "
              "social and vote graphs), f32 and f64, against the rows",
     .args = "--input {data}/matrices",
     .x = "rows",
     .log_x = 1},
};

extern "C" const climb_workload climb_spmv_workload = {
    .name = "spmv",
    .title = "Sparse matrix-vector product y = A x (CSR in, a ladder of formats)",
    .sources = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors, SpMV (CSR, ELL, COO, hybrid, JDS, "
                "JDS with ELL sections); Kreutzer, Hager, Wellein, Fehske and Bishop, A unified sparse matrix data "
                "format for efficient general sparse matrix-vector multiplication on modern processors with wide SIMD "
                "units (SELL-C-sigma's sorting window: jds_windows)",
    .command = NULL,
    .dims = {"rows", "cols"},
    .types = CLIMB_TYPE_BIT(CLIMB_F32) | CLIMB_TYPE_BIT(CLIMB_F64),
    .options = SPMV_OPTIONS,
    .n_options = CLIMB_COUNT(SPMV_OPTIONS),
    .bytes_counted = "read: values and column indices (nnz each), row pointers (rows + 1), x (cols); written: y "
                     "(rows)",
    .items_unit = NULL,
    .items_rate = NULL,
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = SPMV_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(SPMV_BENCH_SHAPES),
    .check_shapes = SPMV_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(SPMV_CHECK_SHAPES),
    .quick_shapes = SPMV_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(SPMV_QUICK_SHAPES),
    .main_shapes = SPMV_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(SPMV_MAIN_SHAPES),
    .check_max_offset = 0,
    .n_rungs = SPMV_N_RUNGS,
    .rung = spmv_rung_info,
    .published = NULL,
    .sweeps = SPMV_SWEEPS,
    .n_sweeps = CLIMB_COUNT(SPMV_SWEEPS),
    .load = spmv_load,
    .unload = spmv_unload,
    .peek = spmv_peek,
    .case_size = sizeof(climb_case),
    .buffers = SPMV_BUFFERS,
    .n_buffers = CLIMB_COUNT(SPMV_BUFFERS),
    .init = spmv_init,
    .fill = spmv_fill,
    .fini = spmv_fini,
    .describe = spmv_describe,
    .reference = spmv_reference,
    .ref_cost = NULL,
    .ref_cost_limit = 0,
    .refuses = spmv_refuses,
    .prepare = spmv_prepare,
    .setup = spmv_setup,
    .modifies = NULL,
    .reset = NULL,
    .run = spmv_run,
    .verify = spmv_verify,
    .counts = spmv_counts,
    .rung_note = spmv_rung_note,
    .release = spmv_release,
    .tuning = NULL,
    .set_tuning = NULL,
};
