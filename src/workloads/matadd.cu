/*
 * matadd.cu - matrix addition C = A + B, f32 and f64, row-major with a leading dimension: the simplest
 * bandwidth-bound ladder (the dense ladders' first half; SGEMM is their second).
 *
 * From Introduction to CUDA 5.0 (the "Matrix Addition Example"): a 2-D grid of 16 x 16 blocks, one thread per
 * element, column from x and row from y, a bounds check. The ladder adds the mapping the other way round (threads of a warp down a
 * column: each load a sector of its own), 16-byte loads walked grid-stride, and a best rung with the same loads
 * over a full grid. See docs/matadd.md.
 *
 * Layout: A, B and C are rows x cols, rows ld = cols + pad elements apart; C's padding is never written.
 * Bytes counted: A and B read, C written (rows x cols elements each).
 *
 * Order of this file: CPU reference, kernels (one per rung, each with what it changes), launchers, the registry
 * table, the harness glue.
 */
#include <cublas_v2.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/check.h"
#include "../device/cublas_shared.h"
#include "../device/device.h"
#include "../base/rng.h"
#include "../core/workload.cuh"
#include "matadd.h"

/* ---------------------------------------------------------------- CPU reference */

/* In the element type itself: one IEEE addition, which the GPU rounds the same way, so results match exactly. */
extern "C" void climb_matadd_ref(climb_dtype t, const void *a, const void *b, void *c, size_t rows, size_t cols,
                                 size_t ld)
{
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++) {
            const size_t k = i * ld + j;
            if (t == CLIMB_F64)
                ((double *)c)[k] = ((const double *)a)[k] + ((const double *)b)[k];
            else
                ((float *)c)[k] = ((const float *)a)[k] + ((const float *)b)[k];
        }
}

/* ---------------------------------------------------------------- kernels */

#define MATADD_TILE 16u     /* the article's 16 x 16 blocks */
#define MATADD_BLOCK 256u   /* the best rung's threads per block */
#define MATADD_BLOCKS_PER_SM 8u

/* matadd_seed_2d: the article's kernel. Thread (x, y) of the 2-D grid adds element (row y, column x): the 16 threads
 * of a half-warp read 16 neighbours of one row (64 or 128 contiguous bytes), so loads coalesce. The article checks
 * index < n^2, right only for square unpadded matrices; this checks row and column. */
template <typename T>
__global__ void __launch_bounds__(MATADD_TILE *MATADD_TILE)
    matadd_seed_2d_kernel(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ c, size_t rows,
                          size_t cols, size_t ld)
{
    const size_t col = (size_t)blockIdx.x * MATADD_TILE + threadIdx.x;
    const size_t row = (size_t)blockIdx.y * MATADD_TILE + threadIdx.y;
    if (row < rows && col < cols)
        c[row * ld + col] = a[row * ld + col] + b[row * ld + col];
}

/* matadd_transposed_2d: the same grid with x and y swapped: the threads of a half-warp walk down a column, 16
 * elements ld apart, so each load touches 16 sectors for 16 elements. What the article's mapping buys. */
template <typename T>
__global__ void __launch_bounds__(MATADD_TILE *MATADD_TILE)
    matadd_transposed_2d_kernel(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ c, size_t rows,
                                size_t cols, size_t ld)
{
    const size_t row = (size_t)blockIdx.x * MATADD_TILE + threadIdx.x;
    const size_t col = (size_t)blockIdx.y * MATADD_TILE + threadIdx.y;
    if (row < rows && col < cols)
        c[row * ld + col] = a[row * ld + col] + b[row * ld + col];
}

/* 16 bytes of T. */
template <typename T> struct matadd_vec;
template <> struct matadd_vec<float> {
    typedef float4 type;
    static constexpr unsigned n = 4;
    __device__ static float4 add(float4 x, float4 y) { return make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w); }
};
template <> struct matadd_vec<double> {
    typedef double2 type;
    static constexpr unsigned n = 2;
    __device__ static double2 add(double2 x, double2 y) { return make_double2(x.x + y.x, x.y + y.y); }
};

/* matadd_wide (best): 16-byte loads and stores (4 floats or 2 doubles a thread per step), a grid of a few blocks
 * per SM walking the matrix grid-stride, each thread two vectors in flight. A row is `vecs` vectors plus a scalar
 * tail; with no padding the matrix is one long row. Needs every row to start 16-byte aligned (the launcher
 * falls back to VEC = false, one element a step, when the base or ld does not allow it). */
template <typename T, bool VEC>
__global__ void __launch_bounds__(MATADD_BLOCK)
    matadd_wide_kernel(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ c, size_t rows, size_t cols,
                       size_t ld)
{
    typedef matadd_vec<T> V;
    constexpr unsigned W = VEC ? V::n : 1;
    const size_t per_row = (cols + W - 1) / W; /* steps a row: vectors, the last one maybe partial */
    const size_t total = rows * per_row, stride = (size_t)gridDim.x * MATADD_BLOCK;
    size_t k = (size_t)blockIdx.x * MATADD_BLOCK + threadIdx.x;
    for (; k < total; k += 2 * stride) {
#pragma unroll
        for (int u = 0; u < 2; u++) {
            const size_t kk = k + (size_t)u * stride;
            if (kk >= total)
                break;
            const size_t row = rows == 1 ? 0 : kk / per_row, j = (kk - row * per_row) * W, at = row * ld + j;
            if (VEC && j + W <= cols) {
                const typename V::type x = *(const typename V::type *)(a + at), y = *(const typename V::type *)(b + at);
                *(typename V::type *)(c + at) = V::add(x, y);
            } else {
                for (unsigned e = 0; e < W && j + e < cols; e++)
                    c[at + e] = a[at + e] + b[at + e];
            }
        }
    }
}

/* ---------------------------------------------------------------- launchers */

struct climb_case {
    climb_case_params p;
    size_t rows, cols, ld, es;
    void *h_a, *d_a, *h_b, *d_b;  /* the inputs, rows x ld each, padding marked */
    void *h_c, *d_c;              /* the output, rows x ld (its padding never written) */
    void *ref;                    /* rows x ld: the CPU's sums */
    cublasHandle_t cublas;
    int sms;
};


static unsigned ceil_div(size_t n, size_t d) { return (unsigned)((n + d - 1) / d); }

template <typename T> static cudaError_t launch_seed_2d(climb_case *c, cudaStream_t s)
{
    const dim3 block(MATADD_TILE, MATADD_TILE), grid(ceil_div(c->cols, MATADD_TILE), ceil_div(c->rows, MATADD_TILE));
    matadd_seed_2d_kernel<T><<<grid, block, 0, s>>>((const T *)c->d_a, (const T *)c->d_b, (T *)c->d_c, c->rows,
                                                    c->cols, c->ld);
    return cudaGetLastError();
}

template <typename T> static cudaError_t launch_transposed_2d(climb_case *c, cudaStream_t s)
{
    const dim3 block(MATADD_TILE, MATADD_TILE), grid(ceil_div(c->rows, MATADD_TILE), ceil_div(c->cols, MATADD_TILE));
    matadd_transposed_2d_kernel<T><<<grid, block, 0, s>>>((const T *)c->d_a, (const T *)c->d_b, (T *)c->d_c,
                                                          c->rows, c->cols, c->ld);
    return cudaGetLastError();
}

/* 1 when every row of a, b and c starts 16-byte aligned. */
static int rows_aligned(const climb_case *c)
{
    const uintptr_t any = (uintptr_t)c->d_a | (uintptr_t)c->d_b | (uintptr_t)c->d_c;
    return any % 16 == 0 && (c->ld * c->es) % 16 == 0;
}

/* FULL = false (wide_grid_stride): MATADD_BLOCKS_PER_SM blocks an SM walk the matrix. FULL (wide_full_grid, best):
 * a block for every 2 x MATADD_BLOCK steps, so each thread takes its two and the loop runs once (the grid-stride
 * loop stays for grids past 2^31 - 1 blocks). */
template <typename T, bool FULL> static cudaError_t launch_wide(climb_case *c, cudaStream_t s)
{
    /* With no padding the matrix is one row of rows x cols elements: no tail per row. */
    const size_t rows = c->ld == c->cols ? 1 : c->rows, cols = c->ld == c->cols ? c->rows * c->cols : c->cols;
    const int vec = rows_aligned(c);
    const size_t w = vec ? matadd_vec<T>::n : 1, steps = rows * ((cols + w - 1) / w);
    size_t grid = (steps + 2 * MATADD_BLOCK - 1) / (2 * MATADD_BLOCK);
    const size_t cap = FULL ? (size_t)INT32_MAX : (size_t)(c->sms > 0 ? c->sms : 1) * MATADD_BLOCKS_PER_SM;
    if (grid > cap)
        grid = cap;
    if (vec)
        matadd_wide_kernel<T, true><<<(unsigned)grid, MATADD_BLOCK, 0, s>>>((const T *)c->d_a, (const T *)c->d_b,
                                                                            (T *)c->d_c, rows, cols, c->ld);
    else
        matadd_wide_kernel<T, false><<<(unsigned)grid, MATADD_BLOCK, 0, s>>>((const T *)c->d_a, (const T *)c->d_b,
                                                                             (T *)c->d_c, rows, cols, c->ld);
    return cudaGetLastError();
}

/* cuBLAS is column-major: the row-major rows x cols matrices are its cols x rows ones with the same ld. */
template <typename T> static cudaError_t launch_cublas(climb_case *c, cudaStream_t s)
{
    const T one = 1;
    cublasStatus_t st = cublasSetStream(c->cublas, s);
    const int m = (int)c->cols, n = (int)c->rows, ld = (int)c->ld;
    if (st == CUBLAS_STATUS_SUCCESS) {
        if (sizeof(T) == 8)
            st = cublasDgeam(c->cublas, CUBLAS_OP_N, CUBLAS_OP_N, m, n, (const double *)&one, (const double *)c->d_a,
                             ld, (const double *)&one, (const double *)c->d_b, ld, (double *)c->d_c, ld);
        else
            st = cublasSgeam(c->cublas, CUBLAS_OP_N, CUBLAS_OP_N, m, n, (const float *)&one, (const float *)c->d_a, ld,
                             (const float *)&one, (const float *)c->d_b, ld, (float *)c->d_c, ld);
    }
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "climb: matadd cuBLAS geam: %s\n", cublasGetStatusString(st));
        return cudaErrorUnknown;
    }
    return cudaGetLastError();
}

/* ---------------------------------------------------------------- the registry */

#define MATADD_KERNELS_FN(fname, kernel, threads)                                                              \
    static int fname(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)   \
    {                                                                                                        \
        return climb_typed<CLIMB_TYPES_F32_F64>(t, 0, [&](auto x) {                                             \
            typedef decltype(x) T;                                                                           \
            return climb_kernel_at(o, max, 0, (const void *)kernel<T>, threads, 0, "%s<%s>", #kernel, climb_dtype_name(t)); \
        });                                                                                                  \
    }
MATADD_KERNELS_FN(k_seed, matadd_seed_2d_kernel, MATADD_TILE *MATADD_TILE)
MATADD_KERNELS_FN(k_transposed, matadd_transposed_2d_kernel, MATADD_TILE *MATADD_TILE)

static int k_wide(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_typed<CLIMB_TYPES_F32_F64>(t, 0, [&](auto x) {
        typedef decltype(x) T;
        const char *tn = climb_dtype_name(t);
        int n = climb_kernel_at(o, max, 0, (const void *)matadd_wide_kernel<T, true>, MATADD_BLOCK, 0,
                                "matadd_wide_kernel<%s, true>", tn);
        return climb_kernel_at(o, max, n, (const void *)matadd_wide_kernel<T, false>, MATADD_BLOCK, 0,
                               "matadd_wide_kernel<%s, false>", tn);
    });
}

/* A row's launch: its typed launcher for the case's type. */
#define MATADD_TYPED(name, ...)                                                                                \
    static cudaError_t name(climb_case *c, cudaStream_t s)                                                     \
    {                                                                                                          \
        return climb_typed<CLIMB_TYPES_F32_F64>(c->p.type, cudaErrorInvalidValue, [&](auto x) {                 \
            typedef decltype(x) T;                                                                             \
            return __VA_ARGS__(c, s);                                                                          \
        });                                                                                                    \
    }
MATADD_TYPED(run_cublas, launch_cublas<T>)
MATADD_TYPED(run_seed_2d, launch_seed_2d<T>)
MATADD_TYPED(run_transposed_2d, launch_transposed_2d<T>)
MATADD_TYPED(run_wide_grid_stride, launch_wide<T, false>)
MATADD_TYPED(run_wide_full_grid, launch_wide<T, true>)
#undef MATADD_TYPED

/* The rows' own rules: cuBLAS's int sizes; the 2-D rungs' grid y (65535 blocks of 16 rows, or of 16 columns). */
static const char *refuses_cublas(const climb_case *c)
{
    return c->rows > (size_t)INT32_MAX || c->cols > (size_t)INT32_MAX || c->ld > (size_t)INT32_MAX
               ? "cuBLAS takes sizes and leading dimensions below 2^31"
               : NULL;
}
static const char *refuses_rows_on_y(const climb_case *c)
{
    return ceil_div(c->rows, MATADD_TILE) > 65535u ? "more than 65535 x 16 rows: the grid's y holds 65535 blocks" : NULL;
}
static const char *refuses_cols_on_y(const climb_case *c)
{
    return ceil_div(c->cols, MATADD_TILE) > 65535u ? "more than 65535 x 16 columns: the grid's y holds 65535 blocks"
                                                    : NULL;
}

static const climb_rung_info MATADD_RUNGS[] = {
    {.name = "cublas_geam", .idea = "vendor: cublasSgeam / cublasDgeam, C = 1 A + 1 B",
     .needs = "rows, cols and ld below 2^31", .kind = CLIMB_RUNG_VENDOR, .kernels = NULL, .launch = run_cublas,
     .refuses = refuses_cublas},
    {.name = "textbook_2d", .idea = "Introduction to CUDA 5.0's kernel: 16 x 16 blocks, a thread per element, x along "
                                    "the row",
     .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_seed, .launch = run_seed_2d, .refuses = refuses_rows_on_y,
     .formerly = "seed_2d"},
    {.name = "transposed_2d", .idea = "x down the column instead: a warp's loads 16 rows apart (uncoalesced)",
     .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_transposed, .launch = run_transposed_2d,
     .refuses = refuses_cols_on_y},
    {.name = "wide_grid_stride", .idea = "16-byte loads and stores, a few blocks per SM walking the matrix, two vectors "
                                         "in flight",
     .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_wide, .launch = run_wide_grid_stride},
    {.name = "wide_full_grid", .idea = "the same steps, a block for every 512 vectors instead of a walk (the grid shape "
                                       "of cuBLAS's geam)",
     .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_wide, .launch = run_wide_full_grid},
};

static const climb_rung_info *matadd_rung_info(int i) { return &MATADD_RUNGS[i]; }

/* ---------------------------------------------------------------- options */

enum { OPT_PAD };
static constexpr climb_option MATADD_OPTIONS[] = {
    {.name = "pad", .kind = CLIMB_OPT_INT,
     .meaning = "elements of padding after each row of A, B and C (ld = cols + pad); C's padding is never written",
     .def = "0", .min = 0, .max = 64},
};
CLIMB_OPTION_AT(MATADD_OPTIONS, OPT_PAD, "pad");

/* ---------------------------------------------------------------- harness glue */

/* A padding element's value: a sum never produces it from the inputs' range. */
#define MATADD_PAD_MARK 7777.0

static int matadd_init(climb_case *c)
{
    c->rows = c->p.shape.d[0];
    c->cols = c->p.shape.d[1];
    c->ld = c->cols + (size_t)c->p.opts[OPT_PAD].i;
    c->es = climb_dtype_size(c->p.type);
    c->sms = c->p.dev ? c->p.dev->sms : 1;
    return 0;
}

/* Values in [-1000, 1000); the padding marked, so a kernel that reads it instead of an element shows. */
static int matadd_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    void *h[2] = {c->h_a, c->h_b};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < c->rows; i++) {
            char *row = (char *)h[k] + i * c->ld * c->es;
            climb_rng_fill(&rng, c->p.type, row, c->cols, -1000, 1000);
            for (size_t j = c->cols; j < c->ld; j++) {
                if (c->p.type == CLIMB_F64)
                    ((double *)row)[j] = MATADD_PAD_MARK;
                else
                    ((float *)row)[j] = (float)MATADD_PAD_MARK;
            }
        }
    climb_matadd_ref(c->p.type, c->h_a, c->h_b, c->ref, c->rows, c->cols, c->ld);
    return 0;
}

static size_t matrix_bytes(const climb_case *c) { return c->rows * c->ld * c->es; }

/* C's poison is all ones: a NaN in f32 and f64, which no sum of finite inputs becomes; the padding keeps it. */
static const climb_buffer MATADD_BUFFERS[] = {
    {.name = "A", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT | CLIMB_BUF_OFFSET, .bytes = matrix_bytes,
     .host_at = offsetof(climb_case, h_a), .device_at = offsetof(climb_case, d_a)},
    {.name = "B", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT | CLIMB_BUF_OFFSET, .bytes = matrix_bytes,
     .host_at = offsetof(climb_case, h_b), .device_at = offsetof(climb_case, d_b)},
    {.name = "C", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET, .bytes = matrix_bytes,
     .host_at = offsetof(climb_case, h_c), .device_at = offsetof(climb_case, d_c), .poison = 0xFF},
    {.name = "the reference", .flags = CLIMB_BUF_HOST, .bytes = matrix_bytes, .host_at = offsetof(climb_case, ref)},
};

static int matadd_empty(const climb_case *c) { return c->rows == 0 || c->cols == 0; }

static const char *matadd_describe(const climb_case *c)
{
    return c->ld == c->cols ? "A and B uniform random in [-1000, 1000)"
                            : "A and B uniform random in [-1000, 1000), rows padded (ld = cols + pad)";
}

static int matadd_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode; /* one addition an element: always cheap on the CPU */
    snprintf(desc, desclen, "CPU, the same IEEE addition: exact");
    return 0;
}

static int matadd_prepare(climb_case *c, int rung)
{
    if (MATADD_RUNGS[rung].launch == run_cublas && !c->cublas)
        return climb_cublas_shared(&c->cublas, "matadd");
    return 0;
}

static double value_at(const climb_case *c, const void *base, size_t k)
{
    return c->p.type == CLIMB_F64 ? ((const double *)base)[k] : ((const float *)base)[k];
}

/* C (downloaded by the harness) against the CPU's sums, exactly (the same IEEE addition), its padding untouched. */
static int matadd_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    unsigned char ones[8];
    memset(ones, 0xFF, sizeof ones);
    for (size_t i = 0; i < c->rows; i++) {
        const char *got = (const char *)c->h_c + i * c->ld * c->es, *want = (const char *)c->ref + i * c->ld * c->es;
        for (size_t j = 0; j < c->cols; j++) {
            const int same = memcmp(got + j * c->es, want + j * c->es, c->es) == 0;
            if (same)
                climb_compare_check(&k, 1, "C");
            else
                climb_compare_close(&k, value_at(c, got, j), value_at(c, want, j), 0, "C[%zu][%zu]", i, j);
        }
        for (size_t j = c->cols; j < c->ld; j++)
            climb_compare_check(&k, memcmp(got + j * c->es, ones, c->es) == 0, "the padding C[%zu][%zu] was written", i,
                                j);
    }
    return climb_compare_end(&k);
}

static void matadd_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    const double n = (double)c->rows * (double)c->cols * (double)c->es;
    out->bytes_read = 2 * n;
    out->bytes_written = n;
    out->flops = (double)c->rows * (double)c->cols;
}

/* climb's sizes: 512^2, 4096^2, 16384^2, and an odd 1001 x 3001. */
static const climb_shape MATADD_BENCH_SHAPES[] = {CLIMB_SHAPE2(512, 512), CLIMB_SHAPE2(4096, 4096),
                                                  CLIMB_SHAPE2(16384, 16384), CLIMB_SHAPE2(1001, 3001)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape MATADD_MAIN_SHAPES[] = {CLIMB_SHAPE2(4096, 4096)};
static const climb_shape MATADD_CHECK_SHAPES[] = {
    CLIMB_SHAPE2(0, 0),   CLIMB_SHAPE2(0, 7),    CLIMB_SHAPE2(7, 0),   CLIMB_SHAPE2(1, 1),    CLIMB_SHAPE2(1, 1000),
    CLIMB_SHAPE2(1000, 1), CLIMB_SHAPE2(3, 5),   CLIMB_SHAPE2(15, 17), CLIMB_SHAPE2(33, 31),  CLIMB_SHAPE2(64, 64),
    CLIMB_SHAPE2(129, 257), CLIMB_SHAPE2(1001, 3001)};
static const climb_shape MATADD_QUICK_SHAPES[] = {CLIMB_SHAPE2(1, 1), CLIMB_SHAPE2(15, 17), CLIMB_SHAPE2(129, 257)};

/* The host memory a case needs at the least (A, B and C), for the harness's check before anything is allocated. */
static double matadd_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return 3.0 * (double)s->d[0] * (double)s->d[1] * (double)climb_dtype_size(t);
}

extern "C" const climb_workload climb_matadd_workload = {
    .name = "matadd",
    .title = "Matrix addition C = A + B (row-major, pitched)",
    .sources = "Introduction to CUDA 5.0: matrix addition (2-D grid, a thread per element, bounds check)",
    .dims = {"rows", "cols"},
    .types = CLIMB_TYPE_BIT(CLIMB_F32) | CLIMB_TYPE_BIT(CLIMB_F64),
    .options = MATADD_OPTIONS,
    .n_options = CLIMB_COUNT(MATADD_OPTIONS),
    .bytes_counted = "read: A and B (rows x cols each); written: C (rows x cols)",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = MATADD_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(MATADD_BENCH_SHAPES),
    .check_shapes = MATADD_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(MATADD_CHECK_SHAPES),
    .quick_shapes = MATADD_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(MATADD_QUICK_SHAPES),
    .main_shapes = MATADD_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(MATADD_MAIN_SHAPES),
    .check_max_offset = 3,
    .n_rungs = CLIMB_COUNT(MATADD_RUNGS),
    .rung = matadd_rung_info,
    .case_size = sizeof(climb_case),
    .buffers = MATADD_BUFFERS,
    .n_buffers = CLIMB_COUNT(MATADD_BUFFERS),
    .init = matadd_init,
    .fill = matadd_fill,
    .describe = matadd_describe,
    .reference = matadd_reference,
    .case_bytes = matadd_case_bytes,
    .prepare = matadd_prepare,
    .empty = matadd_empty,
    .verify = matadd_verify,
    .counts = matadd_counts,
};
