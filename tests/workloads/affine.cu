/*
 * affine.cu - the test workload (tests only): y = alpha x + beta over a rows x cols row-major matrix whose rows
 * are `pad` elements longer than `cols` (leading dimension cols + pad). With op=rsqrt, y = alpha rsqrt(|x| + 1)
 * + beta (float types): one special-function op per element. Integer types compute alpha's integer part times x
 * plus beta, wrapping modulo 2^bits on both the GPU and the CPU, so they compare exactly.
 *
 * Order: CPU reference, input file, kernels, launchers, the registry table, the harness glue. Its purpose is in
 * affine.h; how it uses each field of the contract is in docs/architecture.md.
 */
#include <cub/device/device_transform.cuh>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if CLIMB_HAVE_CUDNN
#include <cudnn.h>
#endif

#include "base/check.h"
#include "device/device.h"
#include "base/rng.h"
#include "io/text.h"
#include "core/validate.h"
#include "core/workload.cuh"
#include "affine.h"

/* ---------------------------------------------------------------- options */

enum { OPT_ALPHA, OPT_BETA, OPT_PAD, OPT_OP, OPT_DIST, OPT_INPUT };
enum { OP_AXPB = 0, OP_RSQRT = 1 };
enum { DIST_UNIFORM = 0, DIST_CONSTANT = 1, DIST_RAMP = 2 };
static const char *const AFFINE_OPS[] = {"axpb", "rsqrt", NULL};
static const char *const AFFINE_DISTS[] = {"uniform", "constant", "ramp", NULL};
static constexpr climb_option AFFINE_OPTIONS[] = {
    {.name = "alpha", .kind = CLIMB_OPT_FLOAT, .meaning = "the scale (integer types take its integer part)",
     .def = "1.5", .min = -1000, .max = 1000},
    {.name = "beta", .kind = CLIMB_OPT_INT, .meaning = "the offset", .def = "7", .min = -1000000, .max = 1000000},
    {.name = "pad", .kind = CLIMB_OPT_INT, .meaning = "elements of padding after each row (leading dimension cols + pad)",
     .def = "0,3", .min = 0, .max = 64},
    {.name = "op", .kind = CLIMB_OPT_CHOICE, .meaning = "axpb: alpha x + beta; rsqrt: alpha rsqrt(|x| + 1) + beta (floats)",
     .def = "axpb", .choices = AFFINE_OPS, .keys_tuning = 1},
    {.name = "dist", .kind = CLIMB_OPT_CHOICE, .meaning = "the values of x", .def = "uniform", .choices = AFFINE_DISTS},
    {.name = "input", .kind = CLIMB_OPT_FILE,
     .meaning = "a text matrix: a line 'rows cols', then rows lines of cols numbers ('#' starts a comment line)",
     .def = ""},
};
CLIMB_OPTION_AT(AFFINE_OPTIONS, OPT_ALPHA, "alpha");
CLIMB_OPTION_AT(AFFINE_OPTIONS, OPT_BETA, "beta");
CLIMB_OPTION_AT(AFFINE_OPTIONS, OPT_PAD, "pad");
CLIMB_OPTION_AT(AFFINE_OPTIONS, OPT_OP, "op");
CLIMB_OPTION_AT(AFFINE_OPTIONS, OPT_DIST, "dist");
CLIMB_OPTION_AT(AFFINE_OPTIONS, OPT_INPUT, "input");

/* ---------------------------------------------------------------- the operation, CPU and GPU */

/* The coefficients as the kernels take them: for floats T(alpha), T(beta); for integers alpha's integer part and
 * beta, both modulo 2^bits. */
template <typename T> struct affine_coef {
    T a, b;
};

template <typename T> static affine_coef<T> coef_of(double alpha, long long beta)
{
    affine_coef<T> k;
    if (T(0.5) != T(0)) { /* a float type */
        k.a = (T)alpha;
        k.b = (T)beta;
    } else {
        k.a = (T)(unsigned long long)(long long)alpha;
        k.b = (T)(unsigned long long)beta;
    }
    return k;
}

template <typename T> __device__ __forceinline__ T rsqrt_of(T x);
template <> __device__ __forceinline__ float rsqrt_of(float x) { return rsqrtf(fabsf(x) + 1.0f); }
template <> __device__ __forceinline__ double rsqrt_of(double x) { return rsqrt(fabs(x) + 1.0); }
template <> __device__ __forceinline__ uint8_t rsqrt_of(uint8_t x) { return x; }
template <> __device__ __forceinline__ uint32_t rsqrt_of(uint32_t x) { return x; }

template <typename T, int OP> __device__ __forceinline__ T affine_apply(T x, affine_coef<T> k)
{
    if (OP == OP_RSQRT)
        return k.a * rsqrt_of(x) + k.b;
    return (T)(k.a * x + k.b); /* integers: promoted, then wrapped to T */
}

/* The CPU's value for one element: exact for integers, in double for floats (the float add before the rsqrt as
 * the GPU rounds it). */
static double ref_float(climb_dtype t, int op, double x, double alpha, long long beta)
{
    if (t == CLIMB_F32) {
        double a = (float)alpha, b = (float)beta;
        if (op == OP_RSQRT)
            return a * (1.0 / sqrt((double)(fabsf((float)x) + 1.0f))) + b;
        return a * x + b;
    }
    if (op == OP_RSQRT)
        return alpha * (1.0 / sqrt(fabs(x) + 1.0)) + (double)beta;
    return alpha * x + (double)beta;
}

static uint64_t ref_int(size_t bytes, uint64_t x, double alpha, long long beta)
{
    uint64_t v = (uint64_t)(long long)alpha * x + (uint64_t)beta;
    return bytes == 1 ? (uint8_t)v : (uint32_t)v;
}

/* |got - ref| <= this: rounding in the GPU's order of the same operations. rsqrtf is within 2 ulp, so rsqrt gets
 * more room than one FMA needs; 8 eps of the terms' magnitudes covers both with margin. */
static double tol_float(climb_dtype t, int op, double x, double alpha, long long beta)
{
    double eps = t == CLIMB_F32 ? 1.1920929e-7 : 2.220446049250313e-16;
    double ax = op == OP_RSQRT ? fabs(alpha) : fabs(alpha * x);
    return 8 * eps * (ax + fabs((double)beta)) + 1e-300;
}

/* ---------------------------------------------------------------- input file */

typedef struct affine_input {
    size_t rows, cols;
    double *v;           /* rows x cols, dense */
    char name[256];
} affine_input;

#define AFFINE_MAX_FILE_BYTES ((uint64_t)256 << 20)
#define AFFINE_MAX_LINE ((size_t)1 << 20)
#define AFFINE_MAX_ELEMS ((size_t)1 << 28)

static void affine_unload(void *data)
{
    affine_input *in = (affine_input *)data;
    if (in)
        free(in->v);
    free(in);
}

/* The next line that is not blank or a comment: 1, 0 at the end, -1 (err set). */
static int next_content(climb_lines *r, char **line, char *err, size_t errlen)
{
    size_t len;
    int k;
    while ((k = climb_lines_next(r, line, &len, err, errlen)) == 1) {
        const char *s = climb_skip_blanks(*line);
        if (*s && *s != '#')
            return 1;
    }
    return k;
}

static int affine_load(const char *path, void **data, climb_shape *shape, char *desc, size_t desclen, char *err,
                       size_t errlen)
{
    *data = NULL;
    climb_lines r;
    if (climb_lines_open(&r, path, AFFINE_MAX_LINE, AFFINE_MAX_FILE_BYTES, err, errlen) != 0)
        return -1;
    affine_input *in = (affine_input *)calloc(1, sizeof *in);
    char *line = NULL, shown[64];
    int rc = -1;
    if (!in) {
        climb_lines_fail(&r, err, errlen, "out of host memory");
        goto done;
    }
    snprintf(in->name, sizeof in->name, "%s", climb_base_name(path));
    {
        int k = next_content(&r, &line, err, errlen);
        if (k == 0)
            climb_lines_fail(&r, err, errlen, "the file is empty (expected a line 'rows cols')");
        if (k != 1)
            goto done;
        const char *s = climb_skip_blanks(line);
        long long rows, cols;
        if (climb_scan_int(&s, 0, (long long)AFFINE_MAX_ELEMS, &rows) != 0 || (s = climb_skip_blanks(s), 0) ||
            climb_scan_int(&s, 0, (long long)AFFINE_MAX_ELEMS, &cols) != 0 || *climb_skip_blanks(s) != '\0') {
            climb_printable(line, strlen(line), shown, sizeof shown);
            climb_lines_fail(&r, err, errlen, "expected 'rows cols' (two whole numbers up to 2^28), found '%s'", shown);
            goto done;
        }
        if (rows > 0 && cols > (long long)AFFINE_MAX_ELEMS / rows) {
            climb_lines_fail(&r, err, errlen, "%lld x %lld is more than 2^28 elements", rows, cols);
            goto done;
        }
        in->rows = (size_t)rows;
        in->cols = (size_t)cols;
    }
    in->v = (double *)malloc(sizeof(double) * (in->rows * in->cols > 0 ? in->rows * in->cols : 1));
    if (!in->v) {
        climb_lines_fail(&r, err, errlen, "out of host memory for %zu x %zu values", in->rows, in->cols);
        goto done;
    }
    for (size_t i = 0; i < in->rows; i++) {
        int k = next_content(&r, &line, err, errlen);
        if (k == 0)
            climb_lines_fail(&r, err, errlen, "the file ends after %zu of %zu rows", i, in->rows);
        if (k != 1)
            goto done;
        const char *s = climb_skip_blanks(line);
        for (size_t j = 0; j < in->cols; j++) {
            const char *start = s;
            if (!*s) {
                climb_lines_fail(&r, err, errlen, "row %zu has %zu numbers, expected %zu", i + 1, j, in->cols);
                goto done;
            }
            if (climb_scan_double(&s, &in->v[i * in->cols + j]) != 0 || (*s && *s != ' ' && *s != '\t')) {
                size_t n = 0;
                while (start[n] && start[n] != ' ' && start[n] != '\t')
                    n++;
                climb_printable(start, n, shown, sizeof shown);
                climb_lines_fail(&r, err, errlen, "'%s' is not a finite number", shown);
                goto done;
            }
            s = climb_skip_blanks(s);
        }
        if (*s) {
            climb_lines_fail(&r, err, errlen, "row %zu has more than %zu numbers", i + 1, in->cols);
            goto done;
        }
    }
    {
        int k = next_content(&r, &line, err, errlen);
        if (k == 1)
            climb_lines_fail(&r, err, errlen, "more rows than the %zu declared", in->rows);
        if (k != 0)
            goto done;
    }
    *shape = (climb_shape)CLIMB_SHAPE2(in->rows, in->cols);
    snprintf(desc, desclen, "%s: %zu x %zu text matrix", in->name, in->rows, in->cols);
    *data = in;
    in = NULL;
    rc = 0;
done:
    climb_lines_close(&r);
    affine_unload(in);
    return rc;
}

/* ---------------------------------------------------------------- kernels */

/* affine_naive: one thread per element on a 2-D grid of 16 x 16 blocks, the book's matrix-add mapping. */
template <typename T, int OP>
__global__ void affine_naive_kernel(const T *x, T *y, size_t rows, size_t cols, size_t ld, affine_coef<T> k)
{
    size_t r = (size_t)blockIdx.y * blockDim.y + threadIdx.y, c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols)
        y[r * ld + c] = affine_apply<T, OP>(x[r * ld + c], k);
}

/* affine_in_place: y = alpha y + beta, reading and writing the same matrix (which must hold x before each run). */
template <typename T, int OP> __global__ void affine_in_place_kernel(T *y, size_t rows, size_t cols, size_t ld, affine_coef<T> k)
{
    size_t r = (size_t)blockIdx.y * blockDim.y + threadIdx.y, c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols)
        y[r * ld + c] = affine_apply<T, OP>(y[r * ld + c], k);
}

/* affine_dynamic_parallelism: each thread of a small parent grid launches a child grid for 32 rows (dynamic
 * parallelism; this file is relocatable device code). The parent grid completes when its children have. */
#define AFFINE_CDP_ROWS 32
template <typename T, int OP>
__global__ void affine_cdp_child_kernel(const T *x, T *y, size_t r0, size_t cols, size_t ld, affine_coef<T> k)
{
    size_t r = r0 + blockIdx.y, c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (c < cols)
        y[r * ld + c] = affine_apply<T, OP>(x[r * ld + c], k);
}

template <typename T, int OP>
__global__ void affine_cdp_parent_kernel(const T *x, T *y, size_t rows, size_t cols, size_t ld, affine_coef<T> k)
{
    size_t chunk = (size_t)blockIdx.x * blockDim.x + threadIdx.x, r0 = chunk * AFFINE_CDP_ROWS;
    if (r0 >= rows)
        return;
    unsigned n = (unsigned)(rows - r0 < AFFINE_CDP_ROWS ? rows - r0 : AFFINE_CDP_ROWS);
    affine_cdp_child_kernel<T, OP><<<dim3((unsigned)((cols + 255) / 256), n), 256>>>(x, y, r0, cols, ld, k);
}

/* affine_tuned, the best: a 2-D block of block_x x block_y threads, each doing rows_per_thread x cols_per_thread
 * elements (columns strided by the block width, so a warp's loads stay coalesced), on a grid capped at
 * grid_x x grid_y blocks that strides over the rest; ldg reads x through the read-only path. */
template <typename T, int OP>
__global__ void affine_tuned_kernel(const T *__restrict__ x, T *__restrict__ y, size_t rows, size_t cols, size_t ld,
                                    affine_coef<T> k, int rpt, int cpt, int ldg)
{
    const size_t row_step = (size_t)gridDim.y * blockDim.y * rpt, col_step = (size_t)gridDim.x * blockDim.x * cpt;
    for (size_t r0 = (size_t)blockIdx.y * blockDim.y * rpt + threadIdx.y; r0 < rows; r0 += row_step)
        for (int i = 0; i < rpt; i++) {
            size_t r = r0 + (size_t)i * blockDim.y;
            if (r >= rows)
                break;
            for (size_t c0 = (size_t)blockIdx.x * blockDim.x * cpt + threadIdx.x; c0 < cols; c0 += col_step)
                for (int j = 0; j < cpt; j++) {
                    size_t c = c0 + (size_t)j * blockDim.x;
                    if (c >= cols)
                        break;
                    T v = ldg ? __ldg(&x[r * ld + c]) : x[r * ld + c];
                    y[r * ld + c] = affine_apply<T, OP>(v, k);
                }
        }
}

/* The vendor's version: CUB's DeviceTransform over the padded storage (the padding is transformed too). */
template <typename T, int OP> struct affine_functor {
    affine_coef<T> k;
    __device__ T operator()(T v) const { return affine_apply<T, OP>(v, k); }
};

/* ---------------------------------------------------------------- the case, tuning, launchers */

enum { T_BLOCK_X, T_BLOCK_Y, T_ROWS, T_COLS, T_GRID_X, T_GRID_Y, T_LDG, AFFINE_N_TUNABLES };

struct climb_case {
    climb_case_params p;
    size_t rows, cols, ld, es;
    double alpha;
    long long beta;
    int op, dist;
    const affine_input *in;
    const char *refusal;      /* why no rung takes this case (a file value that does not fit the type), or NULL */
    char refusal_buf[400];
    void *h_x, *d_x;          /* rows x ld: the input, as uploaded (the kit's buffer "x") */
    void *h_y, *d_y;          /* rows x ld: the output and verify's download (the kit's "y") */
    /* The reference, dense rows x cols: the exact values (integers) or doubles (floats). */
    climb_ref_mode ref_mode;
    void *ref_exact;
    double *ref_f, *tol_f;
    size_t *samples;          /* SAMPLES: the dense indices checked */
    size_t n_samples;
    void *h_poison;           /* rows x ld: what poison() uploads (the kit's "poison") */
    int tune[AFFINE_N_TUNABLES];
    int held;                 /* the rung whose prepared buffers the case holds, or -1 (release frees them) */
    unsigned *d_done;         /* affine_host_blocks: rows done, as the device reports them */
    unsigned *h_done;         /* ... read back into page-locked memory */
    unsigned last_done;       /* what the last run's device reported (kept past release, for its note) */
    int prepared_once;        /* affine_host_blocks: its first prepare of the case took AFFINE_FIRST_PREPARE_MS */
#if CLIMB_HAVE_CUDNN
    cudnnHandle_t cudnn;      /* the process's one handle (creating one costs far more than a run) */
    cudnnTensorDescriptor_t desc;
#endif
};

/* Runs the statements with T the C type of t (core's typed dispatch over affine's types); an error they return is
 * returned, else the function goes on. */
#define AFFINE_TYPES                                                                                          \
    (CLIMB_TYPE_BIT(CLIMB_U8) | CLIMB_TYPE_BIT(CLIMB_U32) | CLIMB_TYPE_BIT(CLIMB_F32) | CLIMB_TYPE_BIT(CLIMB_F64))
#define AFFINE_TYPED(t, ...)                                                                                  \
    do {                                                                                                      \
        const cudaError_t affine_e = climb_typed<AFFINE_TYPES>(t, cudaErrorInvalidValue, [&](auto affine_x) {  \
            typedef decltype(affine_x) T;                                                                     \
            __VA_ARGS__;                                                                                      \
            return cudaSuccess;                                                                               \
        });                                                                                                   \
        if (affine_e != cudaSuccess)                                                                          \
            return affine_e;                                                                                  \
    } while (0)

static dim3 grid_2d(size_t rows, size_t cols, dim3 block)
{
    return dim3((unsigned)((cols + block.x - 1) / block.x), (unsigned)((rows + block.y - 1) / block.y));
}

template <typename T> static cudaError_t launch_naive_t(climb_case *c, int in_place, cudaStream_t s)
{
    if (c->rows == 0 || c->cols == 0)
        return cudaSuccess; /* the empty matrix: nothing to launch */
    affine_coef<T> k = coef_of<T>(c->alpha, c->beta);
    dim3 b(16, 16), g = grid_2d(c->rows, c->cols, b);
    T *x = (T *)c->d_x, *y = (T *)c->d_y;
    if (in_place)
        c->op == OP_RSQRT ? affine_in_place_kernel<T, OP_RSQRT><<<g, b, 0, s>>>(y, c->rows, c->cols, c->ld, k)
                          : affine_in_place_kernel<T, OP_AXPB><<<g, b, 0, s>>>(y, c->rows, c->cols, c->ld, k);
    else
        c->op == OP_RSQRT ? affine_naive_kernel<T, OP_RSQRT><<<g, b, 0, s>>>(x, y, c->rows, c->cols, c->ld, k)
                          : affine_naive_kernel<T, OP_AXPB><<<g, b, 0, s>>>(x, y, c->rows, c->cols, c->ld, k);
    return cudaGetLastError();
}

static cudaError_t launch_naive(climb_case *c, cudaStream_t s)
{
    AFFINE_TYPED(c->p.type, return launch_naive_t<T>(c, 0, s));
    return cudaSuccess;
}

static cudaError_t launch_in_place(climb_case *c, cudaStream_t s)
{
    AFFINE_TYPED(c->p.type, return launch_naive_t<T>(c, 1, s));
    return cudaSuccess;
}

/* Marks `rows` rows done, for the host to read. */
__global__ void affine_mark_kernel(unsigned *done, unsigned rows) { *done = rows; }

#define AFFINE_HOST_BLOCK_ROWS 256

/* A level-synchronous loop driven from the host: the rows in blocks of AFFINE_HOST_BLOCK_ROWS, each block's
 * kernel, then the device's count of rows done read back and waited for before the host launches the next (the
 * shape of a BFS level loop or a CPU-side overflow pass). */
template <typename T> static cudaError_t launch_host_blocks_t(climb_case *c, cudaStream_t s)
{
    affine_coef<T> k = coef_of<T>(c->alpha, c->beta);
    if (c->cols == 0)
        return cudaSuccess; /* the empty matrix: nothing to launch */
    for (size_t r0 = 0; r0 < c->rows; r0 += AFFINE_HOST_BLOCK_ROWS) {
        const size_t n = c->rows - r0 < AFFINE_HOST_BLOCK_ROWS ? c->rows - r0 : AFFINE_HOST_BLOCK_ROWS;
        dim3 b(16, 16), g = grid_2d(n, c->cols, b);
        const T *x = (const T *)c->d_x + r0 * c->ld;
        T *y = (T *)c->d_y + r0 * c->ld;
        c->op == OP_RSQRT ? affine_naive_kernel<T, OP_RSQRT><<<g, b, 0, s>>>(x, y, n, c->cols, c->ld, k)
                          : affine_naive_kernel<T, OP_AXPB><<<g, b, 0, s>>>(x, y, n, c->cols, c->ld, k);
        affine_mark_kernel<<<1, 1, 0, s>>>(c->d_done, (unsigned)(r0 + n));
        cudaError_t e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(c->h_done, c->d_done, sizeof *c->h_done, cudaMemcpyDeviceToHost, s);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(s);
        if (e != cudaSuccess)
            return e;
        c->last_done = *c->h_done;
        if (*c->h_done != r0 + n) {
            fprintf(stderr, "climb: affine_host_blocks: the device reports %u rows done, expected %zu\n", *c->h_done,
                    r0 + n);
            return cudaErrorUnknown;
        }
    }
    return cudaSuccess;
}

static cudaError_t launch_host_blocks(climb_case *c, cudaStream_t s)
{
    AFFINE_TYPED(c->p.type, return launch_host_blocks_t<T>(c, s));
    return cudaSuccess;
}

static cudaError_t launch_cdp(climb_case *c, cudaStream_t s)
{
    if (c->rows == 0 || c->cols == 0)
        return cudaSuccess;
    size_t chunks = (c->rows + AFFINE_CDP_ROWS - 1) / AFFINE_CDP_ROWS;
    unsigned blocks = (unsigned)((chunks + 63) / 64);
    AFFINE_TYPED(c->p.type, {
        affine_coef<T> k = coef_of<T>(c->alpha, c->beta);
        if (c->op == OP_RSQRT)
            affine_cdp_parent_kernel<T, OP_RSQRT><<<blocks, 64, 0, s>>>((const T *)c->d_x, (T *)c->d_y, c->rows, c->cols, c->ld, k);
        else
            affine_cdp_parent_kernel<T, OP_AXPB><<<blocks, 64, 0, s>>>((const T *)c->d_x, (T *)c->d_y, c->rows, c->cols, c->ld, k);
    });
    return cudaGetLastError();
}

static cudaError_t launch_tuned(climb_case *c, cudaStream_t s)
{
    if (c->rows == 0 || c->cols == 0)
        return cudaSuccess;
    const int *v = c->tune;
    dim3 b((unsigned)v[T_BLOCK_X], (unsigned)v[T_BLOCK_Y]);
    size_t gx = (c->cols + (size_t)v[T_BLOCK_X] * v[T_COLS] - 1) / ((size_t)v[T_BLOCK_X] * v[T_COLS]);
    size_t gy = (c->rows + (size_t)v[T_BLOCK_Y] * v[T_ROWS] - 1) / ((size_t)v[T_BLOCK_Y] * v[T_ROWS]);
    dim3 g((unsigned)(gx < (size_t)v[T_GRID_X] ? gx : (size_t)v[T_GRID_X]),
           (unsigned)(gy < (size_t)v[T_GRID_Y] ? gy : (size_t)v[T_GRID_Y]));
    AFFINE_TYPED(c->p.type, {
        affine_coef<T> k = coef_of<T>(c->alpha, c->beta);
        if (c->op == OP_RSQRT)
            affine_tuned_kernel<T, OP_RSQRT><<<g, b, 0, s>>>((const T *)c->d_x, (T *)c->d_y, c->rows, c->cols, c->ld, k,
                                                             v[T_ROWS], v[T_COLS], v[T_LDG]);
        else
            affine_tuned_kernel<T, OP_AXPB><<<g, b, 0, s>>>((const T *)c->d_x, (T *)c->d_y, c->rows, c->cols, c->ld, k,
                                                            v[T_ROWS], v[T_COLS], v[T_LDG]);
    });
    return cudaGetLastError();
}

static cudaError_t launch_cub(climb_case *c, cudaStream_t s)
{
    const size_t n = c->rows * c->ld;
    AFFINE_TYPED(c->p.type, {
        affine_coef<T> k = coef_of<T>(c->alpha, c->beta);
        if (c->op == OP_RSQRT)
            return cub::DeviceTransform::Transform((const T *)c->d_x, (T *)c->d_y, (int64_t)n,
                                                   affine_functor<T, OP_RSQRT>{k}, s);
        return cub::DeviceTransform::Transform((const T *)c->d_x, (T *)c->d_y, (int64_t)n, affine_functor<T, OP_AXPB>{k}, s);
    });
    return cudaSuccess;
}

#if CLIMB_HAVE_CUDNN
/* cuDNN: y set to beta (cudnnSetTensor), then y += alpha x (cudnnAddTensor), with the rows' stride as the tensor's
 * H stride. */
static cudaError_t launch_cudnn(climb_case *c, cudaStream_t s)
{
    if (cudnnSetStream(c->cudnn, s) != CUDNN_STATUS_SUCCESS)
        return cudaErrorUnknown;
    cudnnStatus_t st;
    if (c->p.type == CLIMB_F32) {
        float a = (float)c->alpha, b = (float)c->beta, one = 1.0f;
        st = cudnnSetTensor(c->cudnn, c->desc, c->d_y, &b);
        if (st == CUDNN_STATUS_SUCCESS)
            st = cudnnAddTensor(c->cudnn, &a, c->desc, c->d_x, &one, c->desc, c->d_y);
    } else {
        double a = c->alpha, b = (double)c->beta, one = 1.0;
        st = cudnnSetTensor(c->cudnn, c->desc, c->d_y, &b);
        if (st == CUDNN_STATUS_SUCCESS)
            st = cudnnAddTensor(c->cudnn, &a, c->desc, c->d_x, &one, c->desc, c->d_y);
    }
    if (st != CUDNN_STATUS_SUCCESS) {
        fprintf(stderr, "climb: affine cudnn: %s\n", cudnnGetErrorString(st));
        return cudaErrorUnknown;
    }
    return cudaGetLastError();
}
#endif

/* ---------------------------------------------------------------- the registry */

static int desc_kernel(climb_kernel_desc *out, int max, int i, const char *name, climb_dtype t, int op, const void *f,
                       int threads)
{
    return climb_kernel_at(out, max, i, f, threads, 0, "%s<%s, %s>", name, climb_dtype_name(t), AFFINE_OPS[op]);
}

/* Integer types launch the axpb instances only; float types both ops'. */
#define AFFINE_KERNELS(fname, kname, threads, KERNEL)                                                           \
    static int fname(climb_dtype t, const climb_device_info *, const int *tuning, climb_kernel_desc *out, int max) \
    {                                                                                                           \
        int n = 0;                                                                                              \
        switch (t) {                                                                                            \
        case CLIMB_U8: { typedef uint8_t T; n = desc_kernel(out, max, n, kname, t, OP_AXPB, (const void *)KERNEL(OP_AXPB), threads); } break; \
        case CLIMB_U32: { typedef uint32_t T; n = desc_kernel(out, max, n, kname, t, OP_AXPB, (const void *)KERNEL(OP_AXPB), threads); } break; \
        case CLIMB_F32: { typedef float T; n = desc_kernel(out, max, n, kname, t, OP_AXPB, (const void *)KERNEL(OP_AXPB), threads); \
                          n = desc_kernel(out, max, n, kname, t, OP_RSQRT, (const void *)KERNEL(OP_RSQRT), threads); } break; \
        case CLIMB_F64: { typedef double T; n = desc_kernel(out, max, n, kname, t, OP_AXPB, (const void *)KERNEL(OP_AXPB), threads); \
                          n = desc_kernel(out, max, n, kname, t, OP_RSQRT, (const void *)KERNEL(OP_RSQRT), threads); } break; \
        default: break;                                                                                         \
        }                                                                                                       \
        (void)tuning;                                                                                           \
        return n;                                                                                               \
    }
#define NAIVE_OF(OP) affine_naive_kernel<T, OP>
#define IN_PLACE_OF(OP) affine_in_place_kernel<T, OP>
#define CDP_PARENT_OF(OP) affine_cdp_parent_kernel<T, OP>
#define CDP_CHILD_OF(OP) affine_cdp_child_kernel<T, OP>
#define TUNED_OF(OP) affine_tuned_kernel<T, OP>
AFFINE_KERNELS(k_naive, "affine_naive_kernel", 256, NAIVE_OF)
AFFINE_KERNELS(k_in_place, "affine_in_place_kernel", 256, IN_PLACE_OF)
AFFINE_KERNELS(k_cdp_parent, "affine_cdp_parent_kernel", 64, CDP_PARENT_OF)
AFFINE_KERNELS(k_cdp_child, "affine_cdp_child_kernel", 256, CDP_CHILD_OF)
AFFINE_KERNELS(k_tuned_shape, "affine_tuned_kernel", 0, TUNED_OF)

/* The dynamic-parallelism rung launches a parent and its children. */
static int k_cdp(climb_dtype t, const climb_device_info *dev, const int *tuning, climb_kernel_desc *out, int max)
{
    int n = k_cdp_parent(t, dev, tuning, out, max);
    return n + k_cdp_child(t, dev, tuning, out + (n < max ? n : max), max > n ? max - n : 0);
}

/* The best rung's block is block_x x block_y threads. */
static int k_host_blocks(climb_dtype t, const climb_device_info *dev, const int *tuning, climb_kernel_desc *out,
                         int max)
{
    int n = k_naive(t, dev, tuning, out, max);
    if (n < max)
        climb_one_kernel(out + n, max - n, (const void *)affine_mark_kernel, "affine_mark_kernel", 1, 0);
    return n + 1;
}

static int k_tuned(climb_dtype t, const climb_device_info *dev, const int *tuning, climb_kernel_desc *out, int max)
{
    int n = k_tuned_shape(t, dev, tuning, out, max);
    for (int i = 0; i < n && i < max && tuning; i++)
        out[i].block_threads = tuning[T_BLOCK_X] * tuning[T_BLOCK_Y];
    return n;
}

/* The rows' own refusal: cuDNN's rung takes f32 and f64, op=axpb, no empty matrix and int strides. */
static const char *refuses_cudnn(const climb_case *c)
{
    if (climb_dtype_kind_of(c->p.type) != CLIMB_KIND_FLOAT)
        return "f32 or f64 only";
    if (c->op != OP_AXPB)
        return "op=axpb only";
    if (c->rows == 0 || c->cols == 0)
        return "cuDNN takes no empty tensor";
    if (c->rows * c->ld > (size_t)INT32_MAX)
        return "more elements than cuDNN's int strides";
    return NULL;
}

typedef struct affine_rung {
    climb_rung_info info;
    int in_place;             /* reads and writes y, which must hold x */
} affine_rung;

static const affine_rung AFFINE_RUNGS[] = {
    {.info = {.name = "affine_cub_transform", .idea = "vendor: cub::DeviceTransform::Transform over the padded storage",
              .needs = "", .kind = CLIMB_RUNG_VENDOR, .launch = launch_cub}},
#if CLIMB_HAVE_CUDNN
    {.info = {.name = "affine_cudnn", .idea = "vendor: cudnnSetTensor(beta) then cudnnAddTensor(alpha x)",
              .needs = "f32 or f64, op=axpb, no empty matrix", .kind = CLIMB_RUNG_VENDOR, .launch = launch_cudnn,
              .refuses = refuses_cudnn}},
#endif
    {.info = {.name = "affine_naive", .idea = "one thread per element, 16 x 16 blocks on a 2-D grid", .needs = "",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_naive, .launch = launch_naive}},
    {.info = {.name = "affine_in_place", .idea = "y = alpha y + beta in place: the operand changes, reset before runs",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_in_place, .launch = launch_in_place},
     .in_place = 1},
    {.info = {.name = "affine_host_blocks", .idea = "blocks of 256 rows, the host waiting for each block's count",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_host_blocks, .host_part = 1,
              .launch = launch_host_blocks}},
    {.info = {.name = "affine_dynamic_parallelism", .idea = "a parent grid launches one child grid per 32 rows (CDP)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_cdp, .device_launches = 1, .launch = launch_cdp}},
    {.info = {.name = "affine_tuned", .idea = "2-D blocks, several rows and columns per thread, capped grid-stride grid",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_tuned, .launch = launch_tuned}},
};

static const climb_rung_info *affine_rung_info(int i) { return &AFFINE_RUNGS[i].info; }

/* ---------------------------------------------------------------- tuning: seven parameters, a listed set */

static const int BLOCK_X[] = {32, 64, 128, 256}, BLOCK_Y[] = {1, 2, 4, 8}, PER_THREAD[] = {1, 2, 4},
                 GRID[] = {16, 64, 1024, 65535}, LDG[] = {0, 1};
static const climb_tunable AFFINE_TUNABLES[] = {
    {.name = "block_x", .meaning = "threads per block along a row", .values = BLOCK_X, .n_values = CLIMB_COUNT(BLOCK_X)},
    {.name = "block_y", .meaning = "rows of threads per block", .values = BLOCK_Y, .n_values = CLIMB_COUNT(BLOCK_Y)},
    {.name = "rows_per_thread", .meaning = "rows each thread does", .values = PER_THREAD, .n_values = CLIMB_COUNT(PER_THREAD)},
    {.name = "cols_per_thread", .meaning = "columns each thread does", .values = PER_THREAD,
     .n_values = CLIMB_COUNT(PER_THREAD)},
    {.name = "grid_x", .meaning = "blocks along a row at most", .values = GRID, .n_values = CLIMB_COUNT(GRID)},
    {.name = "grid_y", .meaning = "blocks down the rows at most", .values = GRID, .n_values = CLIMB_COUNT(GRID)},
    {.name = "ldg", .meaning = "read x through the read-only path", .values = LDG, .n_values = CLIMB_COUNT(LDG)},
};

/* Not every combination: a handful of shapes that make sense (the product would be 4*4*3*3*4*4*2 = 4608). */
static const int AFFINE_CANDIDATES[][AFFINE_N_TUNABLES] = {
    {32, 8, 1, 1, 1024, 1024, 1},   /* narrow matrices */
    {128, 2, 1, 1, 1024, 1024, 1},  /* wide, 4- and 8-byte elements */
    {128, 2, 1, 4, 1024, 1024, 1},  /* wide, u8: four columns each */
    {256, 1, 2, 1, 64, 1024, 0},
    {64, 4, 2, 2, 16, 64, 1},       /* a small grid: grid-stride both ways */
    {32, 1, 4, 4, 16, 16, 0},
    {256, 4, 1, 2, 65535, 65535, 1},
    {64, 8, 4, 1, 64, 16, 0},
};

/* The defaults see the case: narrow matrices get narrow blocks, u8 four columns a thread. Measured nowhere: the
 * test workload's policy exists to exercise the contract. */
static const char *affine_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *v)
{
    (void)dev;
    /* op keys the tuning (contract v3): the defaults see it where the caller gives the case's options */
    const int rsqrt = k->opts && k->opts[OPT_OP].choice == OP_RSQRT;
    int pick = k->shape.d[1] < 64 ? 0 : k->type == CLIMB_U8 ? 2 : rsqrt ? 3 : 1;
    memcpy(v, AFFINE_CANDIDATES[pick], sizeof AFFINE_CANDIDATES[pick]);
    return "the test workload's rule (narrow: 32x8; u8: 4 columns a thread; op=rsqrt: 256x1, 2 rows; else 128x2)";
}

static const char *affine_rejects(const climb_device_info *dev, const int *v)
{
    (void)dev;
    return v[T_BLOCK_X] * v[T_BLOCK_Y] > 1024 ? "more than 1024 threads per block" : NULL;
}

static const climb_tuning AFFINE_TUNING = {
    .params = AFFINE_TUNABLES,
    .n_params = AFFINE_N_TUNABLES,
    .candidates = &AFFINE_CANDIDATES[0][0],
    .n_candidates = CLIMB_COUNT(AFFINE_CANDIDATES),
    .defaults = affine_defaults,
    .rejects = affine_rejects,
};

/* ---------------------------------------------------------------- harness glue */

static void affine_release(climb_case *c, int rung);

/* What the case holds beyond its buffers: the reference (made by reference()) and a rung's prepared state. */
static void affine_fini(climb_case *c)
{
    free(c->ref_exact);
    free(c->ref_f);
    free(c->tol_f);
    free(c->samples);
    affine_release(c, c->held);
}

/* Element i (dense index) of x, from the uploaded matrix. */
static double x_at(const climb_case *c, size_t r, size_t col)
{
    const char *p = (const char *)c->h_x + (r * c->ld + col) * c->es;
    switch (c->p.type) {
    case CLIMB_U8: return *(const uint8_t *)p;
    case CLIMB_U32: return *(const uint32_t *)p;
    case CLIMB_F32: return *(const float *)p;
    default: return *(const double *)p;
    }
}

static void store(climb_dtype t, void *base, size_t i, double v)
{
    switch (t) {
    case CLIMB_U8: ((uint8_t *)base)[i] = (uint8_t)v; break;
    case CLIMB_U32: ((uint32_t *)base)[i] = (uint32_t)v; break;
    case CLIMB_F32: ((float *)base)[i] = (float)v; break;
    default: ((double *)base)[i] = v; break;
    }
}

/* Integers wrap modulo 2^bits (a double out of a type's range must not be converted directly). */
static void store_uint(climb_dtype t, void *base, size_t i, uint64_t v)
{
    if (t == CLIMB_U8)
        ((uint8_t *)base)[i] = (uint8_t)v;
    else
        ((uint32_t *)base)[i] = (uint32_t)v;
}

static uint64_t exact_at(const climb_case *c, const void *base, size_t i)
{
    return c->es == 1 ? ((const uint8_t *)base)[i] : ((const uint32_t *)base)[i];
}

/* Fills x (rows x ld) from the file or the distribution; pads get a marker. */
static void fill_inputs(climb_case *c)
{
    const climb_dtype t = c->p.type;
    const int is_float = climb_dtype_kind_of(t) == CLIMB_KIND_FLOAT;
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    double lo, hi;
    climb_dtype_full_range(t, &lo, &hi);
    if (is_float)
        lo = -1000, hi = 1000;
    double constant = is_float ? climb_rng_double(&rng, lo, hi) : (double)climb_rng_range(&rng, (int64_t)lo, (int64_t)hi);
    for (size_t r = 0; r < c->rows; r++) {
        if (c->in) {
            for (size_t j = 0; j < c->cols; j++) /* a value that does not fit refuses the case: store 0 then */
                store(t, c->h_x, r * c->ld + j, c->refusal ? 0.0 : c->in->v[r * c->cols + j]);
        } else if (c->dist == DIST_UNIFORM) {
            climb_rng_fill(&rng, t, (char *)c->h_x + r * c->ld * c->es, c->cols, lo, hi);
        } else {
            for (size_t j = 0; j < c->cols; j++) {
                double i = (double)(r * c->cols + j);
                double v = c->dist == DIST_CONSTANT ? constant : is_float ? 0.5 * i - 1000 : fmod(i, hi + 1);
                store(t, c->h_x, r * c->ld + j, v);
            }
        }
        for (size_t j = c->cols; j < c->ld; j++)
            store(t, c->h_x, r * c->ld + j, 1); /* padding: never part of a result */
    }
}

/* A file's values must fit an integer type exactly; else no rung takes the case. */
static const char *file_fits(climb_case *c)
{
    if (!c->in || climb_dtype_kind_of(c->p.type) == CLIMB_KIND_FLOAT)
        return NULL;
    double lo, hi;
    climb_dtype_full_range(c->p.type, &lo, &hi);
    for (size_t i = 0; i < c->rows * c->cols; i++) {
        double v = c->in->v[i];
        if (v != floor(v) || v < lo || v > hi) {
            snprintf(c->refusal_buf, sizeof c->refusal_buf, "%s holds %.17g (row %zu), which is not a %s value",
                     c->in->name, v, i / c->cols + 1, climb_dtype_name(c->p.type));
            return c->refusal_buf;
        }
    }
    return NULL;
}

static int affine_init(climb_case *c)
{
    const climb_case_params *p = &c->p;
    c->held = -1;
    c->rows = p->shape.d[0];
    c->cols = p->shape.d[1];
    c->ld = c->cols + (size_t)p->opts[OPT_PAD].i;
    c->es = climb_dtype_size(p->type);
    c->alpha = p->opts[OPT_ALPHA].f;
    c->beta = p->opts[OPT_BETA].i;
    c->op = p->opts[OPT_OP].choice;
    c->dist = p->opts[OPT_DIST].choice;
    c->in = (const affine_input *)p->opts[OPT_INPUT].data;
    return 0;
}

static int affine_fill(climb_case *c)
{
    c->refusal = file_fits(c);
    fill_inputs(c);
    memset(c->h_poison, 0xA5, c->rows * c->ld * c->es); /* until the reference is known (see affine_reference) */
    return 0;
}

/* x, y and the poison uploaded before each run: rows x ld elements each. */
static size_t matrix_bytes(const climb_case *c) { return c->rows * c->ld * c->es; }

static const climb_buffer AFFINE_BUFFERS[] = {
    {.name = "x", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT | CLIMB_BUF_OFFSET, .bytes = matrix_bytes,
     .host_at = offsetof(climb_case, h_x), .device_at = offsetof(climb_case, d_x)},
    {.name = "y", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET, .bytes = matrix_bytes,
     .host_at = offsetof(climb_case, h_y), .device_at = offsetof(climb_case, d_y)},
    {.name = "poison", .flags = CLIMB_BUF_HOST, .bytes = matrix_bytes, .host_at = offsetof(climb_case, h_poison)},
};

static const char *affine_describe(const climb_case *c)
{
    if (c->in)
        return NULL; /* the file's own description says it */
    return c->dist == DIST_UNIFORM ? "x uniform random" : c->dist == DIST_CONSTANT ? "x one constant" : "x a ramp";
}

static double affine_ref_cost(const climb_case *c) { return (double)c->rows * (double)c->cols; }

/* The reference of element (r, col) into slot i of the dense arrays. */
static void ref_one(climb_case *c, size_t r, size_t col, size_t i)
{
    double x = x_at(c, r, col);
    if (climb_dtype_kind_of(c->p.type) == CLIMB_KIND_FLOAT) {
        c->ref_f[i] = ref_float(c->p.type, c->op, x, c->alpha, c->beta);
        c->tol_f[i] = tol_float(c->p.type, c->op, x, c->alpha, c->beta);
    } else {
        store_uint(c->p.type, c->ref_exact, i, ref_int(c->es, (uint64_t)x, c->alpha, c->beta));
    }
}

/* got (r, col) as a double, from the last download. */
static double got_at(const climb_case *c, size_t r, size_t col)
{
    const char *p = (const char *)c->h_y + (r * c->ld + col) * c->es;
    switch (c->p.type) {
    case CLIMB_U8: return *(const uint8_t *)p;
    case CLIMB_U32: return *(const uint32_t *)p;
    case CLIMB_F32: return *(const float *)p;
    default: return *(const double *)p;
    }
}

/* The output as the input's kind of file: a text matrix, "rows cols" then one row a line (%.17g), the rung named in
 * a comment. */
static int affine_save(climb_case *c, int rung, const char *path, char *err, size_t errlen)
{
    if (CLIMB_FAILED(cudaMemcpy(c->h_y, c->d_y, matrix_bytes(c), cudaMemcpyDeviceToHost))) {
        snprintf(err, errlen, "%s: could not read the output back", path);
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# affine %s\n%zu %zu\n", AFFINE_RUNGS[rung].info.name, c->rows, c->cols);
    for (size_t r = 0; r < c->rows; r++)
        for (size_t col = 0; col < c->cols; col++)
            fprintf(f, "%.17g%c", got_at(c, r, col), col + 1 == c->cols ? '\n' : ' ');
    if (fclose(f) != 0) {
        snprintf(err, errlen, "%s: write error", path);
        return -1;
    }
    return 0;
}

#define AFFINE_SPOT_CHECKS 64
#define AFFINE_SAMPLES 4096

static int affine_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    const size_t n = c->rows * c->cols;
    const int is_float = climb_dtype_kind_of(c->p.type) == CLIMB_KIND_FLOAT;
    c->ref_mode = mode;
    if (is_float) {
        c->ref_f = (double *)calloc(n + 1, sizeof *c->ref_f);
        c->tol_f = (double *)calloc(n + 1, sizeof *c->tol_f);
    } else {
        c->ref_exact = calloc(n + 1, c->es);
    }
    if ((is_float && (!c->ref_f || !c->tol_f)) || (!is_float && !c->ref_exact)) {
        climb_host_oom("the affine reference");
        return -1;
    }
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed ^ 0x5bd1e995u);
    const char *what = is_float ? "in double, 8 eps of the terms" : "exact, wrapping";
    if (mode == CLIMB_REF_CPU) {
        for (size_t r = 0; r < c->rows; r++)
            for (size_t col = 0; col < c->cols; col++)
                ref_one(c, r, col, r * c->cols + col);
        snprintf(desc, desclen, "CPU, every element (%s)", what);
    } else if (mode == CLIMB_REF_SAMPLES) {
        c->samples = climb_rng_samples(&rng, n, AFFINE_SAMPLES, &c->n_samples);
        if (!c->samples)
            return -1;
        for (size_t k = 0; k < c->n_samples; k++)
            ref_one(c, c->samples[k] / c->cols, c->samples[k] % c->cols, c->samples[k]);
        snprintf(desc, desclen, "CPU, %zu random elements (%s)", c->n_samples, what);
    } else {
        /* The vendor's output is in y (downloaded by the harness): check spot samples against the CPU, then adopt
         * all of it. */
        for (int k = 0; k < AFFINE_SPOT_CHECKS && n > 0; k++) {
            size_t i = (size_t)climb_rng_range(&rng, 0, (int64_t)n - 1), r = i / c->cols, col = i % c->cols;
            ref_one(c, r, col, i);
            double g = got_at(c, r, col), w = is_float ? c->ref_f[i] : (double)exact_at(c, c->ref_exact, i);
            int ok = is_float ? fabs(g - w) <= c->tol_f[i] : g == w;
            if (!ok) {
                snprintf(desc, desclen, "the vendor's y[%zu][%zu] = %.17g, the CPU says %.17g", r, col, g, w);
                return 1;
            }
        }
        for (size_t r = 0; r < c->rows; r++)
            for (size_t col = 0; col < c->cols; col++) {
                size_t i = r * c->cols + col;
                if (is_float) {
                    c->ref_f[i] = got_at(c, r, col);
                    c->tol_f[i] = tol_float(c->p.type, c->op, x_at(c, r, col), c->alpha, c->beta);
                } else {
                    memcpy((char *)c->ref_exact + i * c->es, (const char *)c->h_y + (r * c->ld + col) * c->es, c->es);
                }
            }
        snprintf(desc, desclen, "%s's output, %d elements spot-checked on the CPU (%s)",
                 AFFINE_RUNGS[climb_vendor_rung(&climb_affine_workload)].info.name, AFFINE_SPOT_CHECKS, what);
    }
    /* Now the poison can be a value no correct run leaves: NaN for floats, the reference plus one for integers
     * (where the reference is known; elsewhere 0xA5 bytes). */
    for (size_t r = 0; r < c->rows; r++)
        for (size_t col = 0; col < c->cols; col++) {
            size_t i = r * c->cols + col, at = r * c->ld + col;
            if (is_float)
                store(c->p.type, c->h_poison, at, NAN);
            else if (mode != CLIMB_REF_SAMPLES)
                store_uint(c->p.type, c->h_poison, at, exact_at(c, c->ref_exact, i) + 1);
        }
    for (size_t k = 0; !is_float && k < c->n_samples; k++) {
        size_t i = c->samples[k], at = (i / c->cols) * c->ld + i % c->cols;
        store_uint(c->p.type, c->h_poison, at, exact_at(c, c->ref_exact, i) + 1);
    }
    return 0;
}

static const char *affine_refuses(const climb_case *c, int rung)
{
    (void)rung; /* a row's own rules are its refuses */
    if (c->refusal)
        return c->refusal;
    if (c->op == OP_RSQRT && climb_dtype_kind_of(c->p.type) != CLIMB_KIND_FLOAT)
        return "op=rsqrt takes float types only";
    return NULL;
}

/* Each rung's prepared buffers are freed by release before the next rung is prepared (contract v3): a prepare
 * that finds another rung's buffers still held fails, so a harness that forgot release fails the tests. */
static int affine_prepare(climb_case *c, int rung)
{
    if (c->held >= 0 && c->held != rung) {
        fprintf(stderr, "climb: affine: %s is prepared while %s still holds its buffers (no release in between)\n",
                AFFINE_RUNGS[rung].info.name, AFFINE_RUNGS[c->held].info.name);
        return -1;
    }
    if (AFFINE_RUNGS[rung].info.launch == launch_host_blocks && !c->prepared_once) {
        /* a cost paid by the first set-up alone (as a module's load is), which the reported set-up leaves out */
        usleep(AFFINE_FIRST_PREPARE_MS * 1000);
        c->prepared_once = 1;
    }
    if (AFFINE_RUNGS[rung].info.launch == launch_host_blocks && !c->d_done) {
        if (CLIMB_FAILED(cudaMalloc((void **)&c->d_done, sizeof *c->d_done)) ||
            CLIMB_FAILED(cudaMallocHost((void **)&c->h_done, sizeof *c->h_done)))
            return -1;
        c->held = rung;
    }
#if CLIMB_HAVE_CUDNN
    static cudnnHandle_t shared = NULL;
    if (AFFINE_RUNGS[rung].info.launch == launch_cudnn && !c->desc) {
        cudnnDataType_t dt = c->p.type == CLIMB_F32 ? CUDNN_DATA_FLOAT : CUDNN_DATA_DOUBLE;
        if ((!shared && cudnnCreate(&shared) != CUDNN_STATUS_SUCCESS) ||
            cudnnCreateTensorDescriptor(&c->desc) != CUDNN_STATUS_SUCCESS ||
            cudnnSetTensor4dDescriptorEx(c->desc, dt, 1, 1, (int)c->rows, (int)c->cols, (int)(c->rows * c->ld),
                                         (int)(c->rows * c->ld), (int)c->ld, 1) != CUDNN_STATUS_SUCCESS) {
            fprintf(stderr, "climb: affine: cuDNN could not be set up\n");
            return -1;
        }
        c->cudnn = shared;
        c->held = rung;
    }
#endif
    return 0;
}

/* affine_host_blocks reports its set-up (the page-locked and device words it allocates). */
static int affine_setup(const climb_case *c, int rung, climb_setup *out)
{
    (void)c;
    if (AFFINE_RUNGS[rung].info.launch != launch_host_blocks)
        return 0;
    out->bytes = sizeof(unsigned);
    out->ms = 0;
    return 1;
}

static void affine_release(climb_case *c, int rung)
{
    (void)rung;
    if (c->d_done)
        cudaFree(c->d_done);
    if (c->h_done)
        cudaFreeHost(c->h_done);
    c->d_done = NULL;
    c->h_done = NULL;
#if CLIMB_HAVE_CUDNN
    if (c->desc)
        cudnnDestroyTensorDescriptor(c->desc);
    c->desc = NULL;
#endif
    c->held = -1;
}

static void affine_counts(const climb_case *c, climb_counts *out);

/* The vendor's transform goes over the padded storage, the padding included: its own bytes. */
static int affine_rung_counts(const climb_case *c, int rung, climb_counts *out)
{
    if (AFFINE_RUNGS[rung].info.launch != launch_cub || c->ld == c->cols)
        return 0;
    affine_counts(c, out);
    const double stored = (double)c->rows * (double)c->ld;
    out->bytes_read = out->bytes_written = stored * (double)c->es;
    return 1;
}

/* contract v3: a note about a run the row's figures do not hold (what the host saw from the device) */
static const char *affine_rung_note(climb_case *c, int rung)
{
    static char buf[80];
    if (AFFINE_RUNGS[rung].info.launch != launch_host_blocks)
        return NULL;
    snprintf(buf, sizeof buf, "the device reported %u rows done", c->last_done);
    return buf;
}

static const char *affine_modifies(const climb_case *c, int rung)
{
    (void)c;
    return AFFINE_RUNGS[rung].in_place ? "y is read and written in place and must hold x before each run" : NULL;
}

static int affine_reset(climb_case *c, cudaStream_t s)
{
    CLIMB_CHECK(cudaMemcpyAsync(c->d_y, c->d_x, c->rows * c->ld * c->es, cudaMemcpyDeviceToDevice, s));
    return 0;
}

static int affine_poison(climb_case *c)
{
    CLIMB_CHECK(cudaMemcpy(c->d_y, c->h_poison, c->rows * c->ld * c->es, cudaMemcpyHostToDevice));
    return 0;
}

/* y (downloaded by the harness) against the reference: every element, or the samples. */
static int affine_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung; /* every rung makes y */
    const int is_float = climb_dtype_kind_of(c->p.type) == CLIMB_KIND_FLOAT;
    const size_t m = c->ref_mode == CLIMB_REF_SAMPLES ? c->n_samples : c->rows * c->cols;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    for (size_t j = 0; j < m; j++) {
        const size_t i = c->ref_mode == CLIMB_REF_SAMPLES ? c->samples[j] : j, r = i / c->cols, col = i % c->cols;
        if (is_float)
            climb_compare_close(&k, got_at(c, r, col), c->ref_f[i], c->tol_f[i], "y[%zu][%zu]", r, col);
        else
            climb_compare_exact(&k, (long long)got_at(c, r, col), (long long)exact_at(c, c->ref_exact, i),
                                "y[%zu][%zu]", r, col);
    }
    return climb_compare_end(&k);
}

static void affine_counts(const climb_case *c, climb_counts *out)
{
    const double n = (double)c->rows * (double)c->cols;
    const int is_float = climb_dtype_kind_of(c->p.type) == CLIMB_KIND_FLOAT;
    memset(out, 0, sizeof *out);
    out->bytes_read = n * (double)c->es;
    out->bytes_written = n * (double)c->es;
    out->items = n;
    if (is_float)
        out->flops = (c->op == OP_RSQRT ? 4.0 : 2.0) * n; /* |x| + 1, rsqrt's FMA-equivalent, alpha r + beta */
    if (c->op == OP_RSQRT && c->p.type == CLIMB_F32)
        out->special_ops = n; /* one MUFU.RSQ each */
}

static void affine_set_tuning(climb_case *c, const int *values) { memcpy(c->tune, values, sizeof c->tune); }

static const climb_shape AFFINE_BENCH_SHAPES[] = {CLIMB_SHAPE2(1024, 1024), CLIMB_SHAPE2(1001, 3001)};
static const climb_shape AFFINE_CHECK_SHAPES[] = {CLIMB_SHAPE2(0, 0),    CLIMB_SHAPE2(0, 5),     CLIMB_SHAPE2(5, 0),
                                                  CLIMB_SHAPE2(1, 1),    CLIMB_SHAPE2(1, 33),    CLIMB_SHAPE2(33, 1),
                                                  CLIMB_SHAPE2(7, 1000), CLIMB_SHAPE2(1000, 7),  CLIMB_SHAPE2(129, 257),
                                                  CLIMB_SHAPE2(513, 513)};
static const climb_shape AFFINE_QUICK_SHAPES[] = {CLIMB_SHAPE2(1, 1), CLIMB_SHAPE2(33, 65), CLIMB_SHAPE2(129, 257)};

extern "C" const climb_workload climb_affine_workload = {
    .name = "affine",
    .title = "y = alpha x + beta on a padded matrix (the contract's test workload)",
    .sources = "tests only; the matrix addition mapping of NVIDIA's Introduction to CUDA 5.0",
    .dims = {"rows", "cols"},
    .types = CLIMB_TYPE_BIT(CLIMB_U8) | CLIMB_TYPE_BIT(CLIMB_U32) | CLIMB_TYPE_BIT(CLIMB_F32) | CLIMB_TYPE_BIT(CLIMB_F64),
    .options = AFFINE_OPTIONS,
    .n_options = CLIMB_COUNT(AFFINE_OPTIONS),
    .bytes_counted = "x read and y written once: rows x cols x element size each (not the padding)",
    .items_unit = "elements",
    .items_rate = "Gelem/s",
    .extra_ceiling = CLIMB_CEIL_SFU,
    .bench_shapes = AFFINE_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(AFFINE_BENCH_SHAPES),
    .check_shapes = AFFINE_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(AFFINE_CHECK_SHAPES),
    .quick_shapes = AFFINE_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(AFFINE_QUICK_SHAPES),
    .check_max_offset = 1,
    .n_rungs = CLIMB_COUNT(AFFINE_RUNGS),
    .rung = affine_rung_info,
    .published = NULL,
    .load = affine_load,
    .unload = affine_unload,
    .case_size = sizeof(climb_case),
    .buffers = AFFINE_BUFFERS,
    .n_buffers = CLIMB_COUNT(AFFINE_BUFFERS),
    .init = affine_init,
    .fill = affine_fill,
    .fini = affine_fini,
    .describe = affine_describe,
    .reference = affine_reference,
    .ref_cost = affine_ref_cost,
    .ref_cost_limit = AFFINE_REF_LIMIT,
    .refuses = affine_refuses,
    .prepare = affine_prepare,
    .setup = affine_setup,
    .modifies = affine_modifies,
    .reset = affine_reset,
    .poison = affine_poison,
    .verify = affine_verify,
    .counts = affine_counts,
    .rung_counts = affine_rung_counts,
    .rung_note = affine_rung_note,
    .release = affine_release,
    .save = affine_save,
    .tuning = &AFFINE_TUNING,
    .set_tuning = affine_set_tuning,
};
