/*
 * sgemm.cu - C = alpha A B + beta C in FP32, row-major with leading dimensions, as a ladder toward cuBLAS.
 *
 * From Introduction to CUDA 5.0 (matrix multiply from global memory, then with shared-memory tiles), 004 (naive GEMM's bytes per
 * flop, tiling with boundary handling, joint register and shared-memory tiling after Volkov and Demmel, thread
 * coarsening, double buffering, transposed tiles). See docs/sgemm.md.
 *
 * Layout: A is m x k (rows lda >= k apart), B is k x n (ldb >= n), C is m x n (ldc >= n); the `pad` option adds
 * the same padding to each. Every rung uses FP32 FFMA; the vendor rung is cuBLAS with pedantic FP32 math (no TF32).
 *
 * The folder: reference.cu the CPU reference, kernels.cuh the kernels (one per rung, each with what it changes),
 * plan.cuh the tuned instances and split-K plans (the bench rungs' and the C API's), this file the launchers, the
 * registry table and the harness glue.
 */
#include <cublas_v2.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/check.h"
#include "../../base/rng.h"
#include "../../core/workload.cuh"
#include "../../device/cublas_shared.h"
#include "../../device/device.h"
#include "../../device/timing.h"
#include "plan.cuh"

/* ---------------------------------------------------------------- the case and launchers */

struct climb_case {
    climb_case_params p;
    size_t m, n, k, lda, ldb, ldc;
    int ta, tb, form;             /* op(A) = A^T, op(B) = B^T; form = ta + 2 tb */
    float alpha, beta;
    float *h_a, *d_a, *h_b, *d_b;  /* the operands */
    float *h_c0, *d_c0;            /* C's first values (beta != 0 reads them: reset copies them into C) */
    float *h_c, *d_c;              /* C (ldc apart), and verify's download */
    /* the reference: every element (CPU or the vendor's) with its tolerance, and full CPU rows */
    climb_ref_mode mode;
    double *ref, *tol;            /* m x n (NULL in SAMPLES mode) */
    size_t *rows;                 /* CPU rows checked in VENDOR mode */
    double *row_ref, *row_tol;    /* n_rows x n */
    size_t n_rows;
    cublasHandle_t cublas;
    int sms;
    int tune[5];                  /* the tuned rung's bm, bn, bk, tn, unroll */
    sgemm_plan plan;              /* the tuned rung's, made at prepare */
    float *d_ws;                  /* its split-K workspace */
};

static unsigned ceil_div(size_t n, size_t d) { return (unsigned)((n + d - 1) / d); }

#define SGEMM_ARGS                                                                                             \
    (int)c->m, (int)c->n, (int)c->k, c->alpha, c->d_a, (int)c->lda, c->d_b, (int)c->ldb, c->beta, c->d_c,      \
        (int)c->ldc

static cudaError_t launch_naive(climb_case *c, cudaStream_t s)
{
    sgemm_naive_kernel<<<dim3(ceil_div(c->m, 16), ceil_div(c->n, 16)), 256, 0, s>>>(SGEMM_ARGS);
    return cudaGetLastError();
}

static cudaError_t launch_naive_coalesced(climb_case *c, cudaStream_t s)
{
    sgemm_naive_coalesced_kernel<<<dim3(ceil_div(c->n, 32), ceil_div(c->m, 8)), 256, 0, s>>>(SGEMM_ARGS);
    return cudaGetLastError();
}

template <int T, bool CHECKED> static cudaError_t launch_tiled(climb_case *c, cudaStream_t s)
{
    sgemm_tiled_kernel<T, CHECKED><<<dim3(ceil_div(c->n, T), ceil_div(c->m, T)), T * T, 0, s>>>(SGEMM_ARGS);
    return cudaGetLastError();
}

static cudaError_t launch_reg_1d(climb_case *c, cudaStream_t s)
{
    sgemm_reg_1d_kernel<<<dim3(ceil_div(c->n, R1_BN), ceil_div(c->m, R1_BM)), 512, 0, s>>>(SGEMM_ARGS);
    return cudaGetLastError();
}

static cudaError_t launch_reg_2d(climb_case *c, cudaStream_t s)
{
    sgemm_reg_2d_kernel<<<dim3(ceil_div(c->n, R2_BN), ceil_div(c->m, R2_BM)), 256, 0, s>>>(SGEMM_ARGS);
    return cudaGetLastError();
}

static cudaError_t launch_vec(climb_case *c, cudaStream_t s)
{
    sgemm_vec_kernel<<<dim3(ceil_div(c->n, R2_BN), ceil_div(c->m, R2_BM)), 256, 0, s>>>(SGEMM_ARGS);
    return cudaGetLastError();
}

static sgemm_args case_args(const climb_case *c)
{
    sgemm_args g = {(int)c->m, (int)c->n, (int)c->k, (int)c->lda, (int)c->ldb, (int)c->ldc, c->alpha, c->beta,
                    c->d_a, c->d_b, c->d_c, NULL, 0, 0, 0};
    return g;
}

static cudaError_t launch_double_buffer(climb_case *c, cudaStream_t s)
{
    const sgemm_plan pl = sgemm_plain_plan(&SGEMM_DOUBLE_BUFFER, c->m, c->n, c->k);
    return sgemm_launch_plan(&pl, case_args(c), NULL, c->sms, s);
}

static cudaError_t launch_warp_tiled(climb_case *c, cudaStream_t s)
{
    const sgemm_plan pl = sgemm_plain_plan(SGEMM_WARP_TILED, c->m, c->n, c->k);
    return sgemm_launch_plan(&pl, case_args(c), NULL, c->sms, s);
}

static cudaError_t launch_tuned(climb_case *c, cudaStream_t s)
{
    return sgemm_launch_plan(&c->plan, case_args(c), c->d_ws, c->sms, s);
}

/* Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: cuBLAS gets B as its first operand, each
 * transposed where ours is (a row-major k x n B is a column-major n x k B^T, as cuBLAS wants it untransposed). */
static cudaError_t launch_cublas(climb_case *c, cudaStream_t s)
{
    cublasStatus_t st = cublasSetStream(c->cublas, s);
    if (st == CUBLAS_STATUS_SUCCESS)
        /* cuBLAS wants every leading dimension >= 1, even for an empty operand (k = 0: lda = 0 here) */
        st = cublasSgemm(c->cublas, c->tb ? CUBLAS_OP_T : CUBLAS_OP_N, c->ta ? CUBLAS_OP_T : CUBLAS_OP_N, (int)c->n, (int)c->m, (int)c->k, &c->alpha, c->d_b,
                         (int)(c->ldb ? c->ldb : 1), c->d_a, (int)(c->lda ? c->lda : 1), &c->beta, c->d_c,
                         (int)(c->ldc ? c->ldc : 1));
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "climb: sgemm cublasSgemm: %s\n", cublasGetStatusString(st));
        return cudaErrorUnknown;
    }
    return cudaGetLastError();
}

/* ---------------------------------------------------------------- the registry */

#define SGEMM_KERNEL_FN(fname, kernel, threads)                                                                \
    static int fname(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)     \
    {                                                                                                        \
        return climb_one_kernel(o, max, (const void *)kernel, #kernel, threads, 0);                          \
    }
SGEMM_KERNEL_FN(k_naive, sgemm_naive_kernel, 256)
SGEMM_KERNEL_FN(k_naive_coalesced, sgemm_naive_coalesced_kernel, 256)
SGEMM_KERNEL_FN(k_tiled16, (sgemm_tiled_kernel<16, false>), 256)
SGEMM_KERNEL_FN(k_tiled32, (sgemm_tiled_kernel<32, false>), 1024)
SGEMM_KERNEL_FN(k_tiled_checked, (sgemm_tiled_kernel<32, true>), 1024)
SGEMM_KERNEL_FN(k_reg_1d, sgemm_reg_1d_kernel, 512)
SGEMM_KERNEL_FN(k_reg_2d, sgemm_reg_2d_kernel, 256)
SGEMM_KERNEL_FN(k_vec, sgemm_vec_kernel, 256)

static int instance_kernel(climb_kernel_desc *o, int max, const sgemm_instance *in)
{
    sgemm_allow_smem(in); /* the occupancy the runtime reports counts it */
    return climb_one_kernel(o, max, (const void *)in->fn, in->name, sgemm_threads(in), sgemm_smem_bytes(in));
}
static int k_double_buffer(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return instance_kernel(o, max, &SGEMM_DOUBLE_BUFFER);
}
static int k_warp_tiled(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return instance_kernel(o, max, SGEMM_WARP_TILED);
}
/* tuned: its tile shape, the 64 x 64 instance small outputs take, and split-K's second pass, in A B (the other
 * forms' instances of a tile shape differ in registers by a few, and A B^T's in its stages' shared memory) */
static int k_tuned(climb_dtype, const climb_device_info *, const int *tuning, climb_kernel_desc *o, int max)
{
    const sgemm_instance *in = tuning ? sgemm_tuned_instance(tuning, 0) : NULL;
    if (!in)
        in = SGEMM_WARP_TILED;
    int n = 0;
    n += instance_kernel(n < max ? o + n : o, n < max ? max - n : 0, in);
    if (in != SGEMM_SMALL(0))
        n += instance_kernel(n < max ? o + n : o, n < max ? max - n : 0, SGEMM_SMALL(0));
    n += climb_one_kernel(n < max ? o + n : o, n < max ? max - n : 0, (const void *)sgemm_split_reduce_kernel,
                          "sgemm_split_reduce_kernel", SGEMM_REDUCE_THREADS, 0);
    return n;
}

typedef struct sgemm_rung {
    climb_rung_info info;
    int tile;                   /* shapes must be multiples of this (0: any shape) */
    int any_form;               /* 1: it takes A and B transposed too (else form nn only) */
    int planned;                /* 1: the tuned rung: its plan (and split-K workspace) made at prepare */
    int cublas;                 /* 1: cuBLAS's, on the shared handle (prepare sets its math mode) */
} sgemm_rung;

static const sgemm_rung SGEMM_RUNGS[] = {
    {.info = {.name = "cublas_sgemm", .idea = "vendor: cublasSgemm, CUBLAS_PEDANTIC_MATH (FP32 FFMA, no TF32)",
              .needs = "m, n, k and leading dimensions below 2^31", .kind = CLIMB_RUNG_VENDOR, .kernels = NULL,
              .launch = launch_cublas},
     .any_form = 1, .cublas = 1},
    {.info = {.name = "naive", .idea = "a thread per output, all from global memory; x down the rows of C",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_naive, .launch = launch_naive}},
    {.info = {.name = "naive_coalesced", .idea = "x along the rows of C: B and C read and written coalesced",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_naive_coalesced, .launch = launch_naive_coalesced}},
    {.info = {.name = "tiled16",
              .idea = "16 x 16 shared-memory tiles (Introduction to CUDA 5.0's): global traffic / 16",
              .needs = "m, n and k multiples of 16", .kind = CLIMB_RUNG_LADDER, .kernels = k_tiled16,
              .launch = launch_tiled<16, false>},
     .tile = 16},
    {.info = {.name = "tiled32", .idea = "32 x 32 tiles: global traffic / 32", .needs = "m, n and k multiples of 32",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_tiled32, .launch = launch_tiled<32, false>},
     .tile = 32},
    {.info = {.name = "tiled_any", .idea = "32 x 32 tiles with boundary handling: any m, n, k", .needs = "",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_tiled_checked, .launch = launch_tiled<32, true>}},
    {.info = {.name = "reg_1d", .idea = "registers + shared (Volkov): a thread 8 outputs down a column, one B value "
                                        "reused 8 times",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_reg_1d, .launch = launch_reg_1d}},
    {.info = {.name = "reg_2d", .idea = "2-D coarsening: 128 x 128 a block, 8 x 8 a thread, A's tile transposed",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_reg_2d, .launch = launch_reg_2d}},
    {.info = {.name = "vec", .idea = "16-byte global loads and stores, float4 reads of the transposed A tile and of B",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_vec, .launch = launch_vec}},
    {.info = {.name = "double_buffer", .idea = "two shared tiles: the next one loads (registers for A, cp.async for B) "
                                               "while this one multiplies; one barrier a tile",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_double_buffer, .launch = launch_double_buffer}},
    {.info = {.name = "warp_tiled", .idea = "warp tiles: a warp 64 x 32 of C, a lane 2 x 2 blocks of 4 x 4 spread "
                                            "over it; float4 shared reads without bank conflicts",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_warp_tiled, .launch = launch_warp_tiled}},
    {.info = {.name = "tuned", .idea = "the tile shape `climb tune` picks, in every operand form; the tiles past the "
                                       "last full wave split along k (split-K for few tiles), or 64 x 64 tiles, as "
                                       "a model of the GPU's time chooses",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_tuned, .launch = launch_tuned},
     .any_form = 1, .planned = 1},
};

static const climb_rung_info *sgemm_rung_info(int i) { return &SGEMM_RUNGS[i].info; }

/* ---------------------------------------------------------------- options */

enum { OPT_ALPHA, OPT_BETA, OPT_PAD, OPT_FORM };
static constexpr climb_option SGEMM_OPTIONS[] = {
    {.name = "alpha", .kind = CLIMB_OPT_FLOAT, .meaning = "C = alpha A B + beta C", .def = "1", .min = -1000,
     .max = 1000},
    {.name = "beta", .kind = CLIMB_OPT_FLOAT, .meaning = "beta != 0 reads C (restored before every run)",
     .def = "0", .min = -1000, .max = 1000},
    {.name = "pad", .kind = CLIMB_OPT_INT,
     .meaning = "elements of padding after each row of A, B and C (lda = k + pad, ldb = ldc = n + pad; m + pad and "
                "k + pad for a transposed A and B)",
     .def = "0", .min = 0, .max = 64},
    {.name = "form", .kind = CLIMB_OPT_CHOICE,
     .meaning = "op(A) op(B): nn = A B, tn = A^T B (A stored k x m), nt = A B^T (B stored n x k), tt = A^T B^T; the "
                "ladder's kernels before tuned take nn only",
     .def = "nn", .choices = SGEMM_FORM_NAMES, .keys_tuning = 1, .check_def = "all"},
};
CLIMB_OPTION_AT(SGEMM_OPTIONS, OPT_ALPHA, "alpha");
CLIMB_OPTION_AT(SGEMM_OPTIONS, OPT_BETA, "beta");
CLIMB_OPTION_AT(SGEMM_OPTIONS, OPT_PAD, "pad");
CLIMB_OPTION_AT(SGEMM_OPTIONS, OPT_FORM, "form");

/* ---------------------------------------------------------------- tuning (experiment mode) */

static const int SGEMM_TUNE_BM[] = {64, 128, 256}, SGEMM_TUNE_BN[] = {64, 128, 256}, SGEMM_TUNE_BK[] = {8, 16},
                 SGEMM_TUNE_TN[] = {8, 16}, SGEMM_TUNE_UNROLL[] = {8, 16};
static const climb_tunable SGEMM_TUNABLES[] = {
    {.name = "bm", .meaning = "rows of C a block computes", .values = SGEMM_TUNE_BM,
     .n_values = CLIMB_COUNT(SGEMM_TUNE_BM)},
    {.name = "bn", .meaning = "columns of C a block computes", .values = SGEMM_TUNE_BN,
     .n_values = CLIMB_COUNT(SGEMM_TUNE_BN)},
    {.name = "bk", .meaning = "k a shared-memory tile holds", .values = SGEMM_TUNE_BK,
     .n_values = CLIMB_COUNT(SGEMM_TUNE_BK)},
    {.name = "tn", .meaning = "columns of C a thread computes (8 rows each)", .values = SGEMM_TUNE_TN,
     .n_values = CLIMB_COUNT(SGEMM_TUNE_TN)},
    {.name = "unroll", .meaning = "k steps unrolled in the multiply loop", .values = SGEMM_TUNE_UNROLL,
     .n_values = CLIMB_COUNT(SGEMM_TUNE_UNROLL)},
};

/* (the built-in tiles: sgemm_form_defaults, with the forms) */

/* The form of a tuning key: its form option's value as written (the harness and the C API both give it), else nn. */
static int sgemm_key_form(const climb_tuning_key *k)
{
    const char *t = k && k->opts ? k->opts[OPT_FORM].text : NULL;
    for (int f = 0; t && f < SGEMM_FORMS; f++)
        if (strcmp(t, SGEMM_FORM_NAMES[f]) == 0)
            return f;
    return 0;
}

static const char *sgemm_tuning_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *v)
{
    (void)dev;
    const int form = sgemm_key_form(k);
    sgemm_form_defaults(form, v);
    return form == 2 ? "built-in for A B^T: 128 x 128 x 16, 8 x 8 a thread, unroll 16"
                     : "built-in 128 x 128 x 16, 8 x 16 a thread, unroll 8";
}

static const climb_tuning SGEMM_TUNING = {
    .params = SGEMM_TUNABLES,
    .n_params = CLIMB_COUNT(SGEMM_TUNABLES),
    .candidates = SGEMM_TUNE_CANDIDATES,
    .n_candidates = CLIMB_COUNT(SGEMM_TUNE_CANDIDATES) / 5,
    .defaults = sgemm_tuning_defaults,
    .rejects = NULL,
};

extern "C" const climb_tuning *climb_sgemm_tuning(void) { return &SGEMM_TUNING; }

static void sgemm_set_tuning(climb_case *c, const int *v) { memcpy(c->tune, v, sizeof c->tune); }

/* ---------------------------------------------------------------- harness glue */

static void sgemm_fini(climb_case *c)
{
    cudaFree(c->d_ws);
    free(c->ref);
    free(c->tol);
    free(c->rows);
    free(c->row_ref);
    free(c->row_tol);
}

static int sgemm_init(climb_case *c)
{
    const climb_case_params *p = &c->p;
    c->m = p->shape.d[0];
    c->n = p->shape.d[1];
    c->k = p->shape.d[2];
    const size_t pad = (size_t)p->opts[OPT_PAD].i;
    c->form = p->opts[OPT_FORM].choice;
    c->ta = c->form & 1;
    c->tb = c->form >> 1 & 1;
    c->lda = (c->ta ? c->m : c->k) + pad;
    c->ldb = (c->tb ? c->k : c->n) + pad;
    c->ldc = c->n + pad;
    c->alpha = (float)p->opts[OPT_ALPHA].f;
    c->beta = (float)p->opts[OPT_BETA].f;
    int dflt[5];
    sgemm_form_defaults(c->form, dflt);
    sgemm_set_tuning(c, dflt);
    c->sms = p->dev ? p->dev->sms : 1; /* the device facts already hold it */
    if (c->m > INT32_MAX || c->n > INT32_MAX || c->k > INT32_MAX || c->lda > INT32_MAX || c->ldb > INT32_MAX ||
        c->ldc > INT32_MAX) {
        fprintf(stderr, "climb: sgemm %zu x %zu x %zu: sizes and leading dimensions must be below 2^31\n", c->m, c->n,
                c->k);
        return -1;
    }
    return 0;
}

static int sgemm_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    climb_rng_fill_f32(&rng, c->h_a, (c->ta ? c->k : c->m) * c->lda, -1, 1);
    climb_rng_fill_f32(&rng, c->h_b, (c->tb ? c->n : c->k) * c->ldb, -1, 1);
    climb_rng_fill_f32(&rng, c->h_c0, c->m * c->ldc, -1, 1);
    return 0;
}

static size_t at_least_1(size_t n) { return n ? n : 1; }
static size_t a_bytes(const climb_case *c) { return at_least_1((c->ta ? c->k : c->m) * c->lda) * 4; }
static size_t b_bytes(const climb_case *c) { return at_least_1((c->tb ? c->n : c->k) * c->ldb) * 4; }
static size_t c_bytes(const climb_case *c) { return at_least_1(c->m * c->ldc) * 4; }

#define SGEMM_IO (CLIMB_BUF_HOST | CLIMB_BUF_DEVICE)
/* C's poison is all ones: a NaN, which no sum of finite products becomes. */
static const climb_buffer SGEMM_BUFFERS[] = {
    {.name = "A", .flags = SGEMM_IO | CLIMB_BUF_INPUT, .bytes = a_bytes, .host_at = offsetof(climb_case, h_a),
     .device_at = offsetof(climb_case, d_a)},
    {.name = "B", .flags = SGEMM_IO | CLIMB_BUF_INPUT, .bytes = b_bytes, .host_at = offsetof(climb_case, h_b),
     .device_at = offsetof(climb_case, d_b)},
    {.name = "C0", .flags = SGEMM_IO | CLIMB_BUF_INPUT, .bytes = c_bytes, .host_at = offsetof(climb_case, h_c0),
     .device_at = offsetof(climb_case, d_c0)},
    {.name = "C", .flags = SGEMM_IO | CLIMB_BUF_OUTPUT, .bytes = c_bytes, .host_at = offsetof(climb_case, h_c),
     .device_at = offsetof(climb_case, d_c), .poison = 0xFF},
};
#undef SGEMM_IO

static int sgemm_empty(const climb_case *c) { return c->m == 0 || c->n == 0; }

static const char *sgemm_describe(const climb_case *c)
{
    static const char *const what[2][SGEMM_FORMS] = {
        {"A, B (and C for beta != 0) uniform random in [-1, 1)",
         "A^T B: A stored k x m; A, B (and C for beta != 0) uniform random in [-1, 1)",
         "A B^T: B stored n x k; A, B (and C for beta != 0) uniform random in [-1, 1)",
         "A^T B^T: A stored k x m, B n x k; A, B (and C for beta != 0) uniform random in [-1, 1)"},
        {"A, B (and C for beta != 0) uniform random in [-1, 1), rows padded",
         "A^T B: A stored k x m; A, B (and C for beta != 0) uniform random in [-1, 1), rows padded",
         "A B^T: B stored n x k; A, B (and C for beta != 0) uniform random in [-1, 1), rows padded",
         "A^T B^T: A stored k x m, B n x k; A, B (and C for beta != 0) uniform random in [-1, 1), rows padded"}};
    return what[c->ldc != c->n][c->form];
}

/* CPU rows checked against every rung when the reference is the vendor's output. */
#define SGEMM_CPU_ROWS 8

/* The reference of row i into out and tol (n each). */
static void cpu_row(const climb_case *c, size_t i, double *out, double *tol)
{
    climb_sgemm_ref_row(c->h_a, c->lda, c->ta, c->h_b, c->ldb, c->tb, c->h_c0 + i * c->ldc, c->n, c->k, c->alpha,
                        c->beta, i, out, tol);
    for (size_t j = 0; j < c->n; j++)
        tol[j] = climb_sgemm_tolerance(c->k, tol[j]);
}

static int sgemm_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    c->mode = mode;
    const size_t m = c->m, n = c->n;
    if (mode == CLIMB_REF_CPU) {
        c->ref = (double *)malloc((m * n > 0 ? m * n : 1) * sizeof(double));
        c->tol = (double *)malloc((m * n > 0 ? m * n : 1) * sizeof(double));
        if (!c->ref || !c->tol) {
            climb_host_oom("the sgemm reference");
            return -1;
        }
        for (size_t i = 0; i < m; i++)
            cpu_row(c, i, c->ref + i * n, c->tol + i * n);
        snprintf(desc, desclen, "CPU, double; |error| <= 1.01 (k + 2) 2^-24 (|alpha| sum|a b| + |beta c|) each");
        return 0;
    }
    /* VENDOR (its output is in C) or SAMPLES: CPU rows, and in VENDOR mode the vendor's output for the rest. */
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed ^ 0x5167e3ULL);
    c->rows = climb_rng_samples(&rng, m, SGEMM_CPU_ROWS, &c->n_rows);
    c->row_ref = (double *)malloc((c->n_rows * n > 0 ? c->n_rows * n : 1) * sizeof(double));
    c->row_tol = (double *)malloc((c->n_rows * n > 0 ? c->n_rows * n : 1) * sizeof(double));
    if (!c->rows || !c->row_ref || !c->row_tol) {
        climb_host_oom("the sgemm reference");
        return -1;
    }
    for (size_t r = 0; r < c->n_rows; r++)
        cpu_row(c, c->rows[r], c->row_ref + r * n, c->row_tol + r * n);
    if (mode == CLIMB_REF_SAMPLES) {
        snprintf(desc, desclen, "CPU, %zu random rows of C in double", c->n_rows);
        return 0;
    }
    for (size_t r = 0; r < c->n_rows; r++)
        for (size_t j = 0; j < n; j++) {
            const double got = c->h_c[c->rows[r] * c->ldc + j], want = c->row_ref[r * n + j];
            if (!(fabs(got - want) <= c->row_tol[r * n + j])) {
                snprintf(desc, desclen, "the vendor's C[%zu][%zu] = %.9g, CPU %.9g", c->rows[r], j, got, want);
                return 1;
            }
        }
    /* The vendor's output stands for the rest. Two results within the bound of the exact one differ by at most
     * twice it; |a_i||b_j| <= ||a_i|| ||b_j|| (Cauchy-Schwarz) bounds sum |a b| without a product per element. */
    c->ref = (double *)malloc((m * n > 0 ? m * n : 1) * sizeof(double));
    c->tol = (double *)malloc((m * n > 0 ? m * n : 1) * sizeof(double));
    double *an = (double *)calloc(m ? m : 1, sizeof(double)), *bn = (double *)calloc(n ? n : 1, sizeof(double));
    if (!c->ref || !c->tol || !an || !bn) {
        free(an);
        free(bn);
        climb_host_oom("the sgemm reference");
        return -1;
    }
    for (size_t i = 0; i < m; i++)
        for (size_t p = 0; p < c->k; p++) {
            const double x = c->ta ? c->h_a[p * c->lda + i] : c->h_a[i * c->lda + p];
            an[i] += x * x;
        }
    for (size_t i = 0; i < m; i++)
        an[i] = sqrt(an[i]);
    for (size_t p = 0; p < c->k; p++)
        for (size_t j = 0; j < n; j++) {
            const double x = c->tb ? c->h_b[j * c->ldb + p] : c->h_b[p * c->ldb + j];
            bn[j] += x * x;
        }
    for (size_t j = 0; j < n; j++)
        bn[j] = sqrt(bn[j]);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            c->ref[i * n + j] = c->h_c[i * c->ldc + j];
            const double cb = c->beta != 0 ? fabs((double)c->beta * c->h_c0[i * c->ldc + j]) : 0;
            c->tol[i * n + j] = 2 * climb_sgemm_tolerance(c->k, fabs((double)c->alpha) * an[i] * bn[j] + cb);
        }
    free(an);
    free(bn);
    snprintf(desc, desclen, "cuBLAS's output (%zu CPU rows agree in double), within 2 x 1.01 (k + 2) 2^-24 (|alpha| "
                            "||a_i|| ||b_j|| + |beta c|); the %zu CPU rows checked too",
             c->n_rows, c->n_rows);
    return 0;
}

static double sgemm_ref_cost(const climb_case *c) { return (double)c->m * c->n * c->k; }

static const char *sgemm_refuses(const climb_case *c, int rung)
{
    static char why[120];
    if (c->form != 0 && !SGEMM_RUNGS[rung].any_form)
        return "form nn only: the ladder's kernels before tuned read A and B untransposed";
    const int t = SGEMM_RUNGS[rung].tile;
    if (t && (c->m % t || c->n % t || c->k % t)) {
        snprintf(why, sizeof why, "m, n and k must be multiples of %d (Introduction to CUDA 5.0's assumption; "
                                  "tiled_any takes any)", t);
        return why;
    }
    return NULL;
}

static int sgemm_prepare(climb_case *c, int rung)
{
    if (SGEMM_RUNGS[rung].planned) {
        const sgemm_instance *in = sgemm_tuned_instance(c->tune, c->form);
        if (!in) {
            fprintf(stderr, "climb: sgemm: no tuned instance %d x %d x %d, %d a thread, unroll %d\n", c->tune[0],
                    c->tune[1], c->tune[2], c->tune[3], c->tune[4]);
            return -1;
        }
        c->plan = sgemm_make_plan(in, SGEMM_SMALL(c->form), c->m, c->n, c->k, c->sms);
        if (c->d_ws) {
            cudaFree(c->d_ws);
            c->d_ws = NULL;
        }
        if (c->plan.ws_bytes) {
            const cudaError_t e = cudaMalloc((void **)&c->d_ws, c->plan.ws_bytes);
            if (e != cudaSuccess) {
                fprintf(stderr, "climb: out of device memory for sgemm's split-K workspace (%zu bytes): %s\n",
                        c->plan.ws_bytes, cudaGetErrorString(e));
                cudaGetLastError();
                return -1;
            }
        }
        return 0;
    }
    if (!SGEMM_RUNGS[rung].cublas)
        return 0;
    if (!c->cublas && climb_cublas_shared(&c->cublas, "sgemm") != 0)
        return -1;
    /* FP32 FFMA like our rungs (no TF32 tensor cores); set on every prepare, as the handle is shared */
    const cublasStatus_t st = cublasSetMathMode(c->cublas, CUBLAS_PEDANTIC_MATH);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "climb: sgemm: cublasSetMathMode: %s\n", cublasGetStatusString(st));
        return -1;
    }
    return 0;
}

/* The tuned rung's split-K workspace, when its plan splits k. */
static int sgemm_setup(const climb_case *c, int rung, climb_setup *out)
{
    if (!SGEMM_RUNGS[rung].planned || !c->plan.ws_bytes)
        return 0;
    out->bytes = (double)c->plan.ws_bytes;
    out->ms = 0; /* the harness times prepare */
    return 1;
}

static const char *sgemm_modifies(const climb_case *c, int rung)
{
    (void)rung;
    return c->beta != 0 ? "C is read and written when beta != 0 (restored from C0 before every run)" : NULL;
}

static int sgemm_reset(climb_case *c, cudaStream_t s)
{
    CLIMB_CHECK(cudaMemcpyAsync(c->d_c, c->d_c0, c->m * c->ldc * 4, cudaMemcpyDeviceToDevice, s));
    return 0;
}

static int sgemm_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    const size_t m = c->m, n = c->n;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    if (c->ref)
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++)
                climb_compare_close(&k, c->h_c[i * c->ldc + j], c->ref[i * n + j], c->tol[i * n + j], "C[%zu][%zu]",
                                    i, j);
    for (size_t r = 0; r < c->n_rows; r++)
        for (size_t j = 0; j < n; j++)
            climb_compare_close(&k, c->h_c[c->rows[r] * c->ldc + j], c->row_ref[r * n + j], c->row_tol[r * n + j],
                                "C[%zu][%zu]", c->rows[r], j);
    return climb_compare_end(&k);
}

static void sgemm_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->bytes_read = 4.0 * ((double)c->m * c->k + (double)c->k * c->n + (c->beta != 0 ? (double)c->m * c->n : 0));
    out->bytes_written = 4.0 * (double)c->m * c->n;
    out->flops = 2.0 * c->m * c->n * c->k;
}

/* Squares, the odd 4097 (a fifth wave of 33 tiles), rectangles, and the skinny shapes that leave most of the GPU
 * idle without split tiles: tall, wide, long k, short k. */
static const climb_shape SGEMM_BENCH_SHAPES[] = {
    CLIMB_SHAPE3(512, 512, 512),       CLIMB_SHAPE3(1024, 1024, 1024),    CLIMB_SHAPE3(2048, 2048, 2048),
    CLIMB_SHAPE3(4096, 4096, 4096),    CLIMB_SHAPE3(8192, 8192, 8192),    CLIMB_SHAPE3(4097, 4097, 4097),
    CLIMB_SHAPE3(6144, 3072, 1536),    CLIMB_SHAPE3(1000, 3000, 500),     CLIMB_SHAPE3(16384, 128, 16384),
    CLIMB_SHAPE3(128, 16384, 16384),   CLIMB_SHAPE3(512, 512, 32768),     CLIMB_SHAPE3(16384, 16384, 64),
    CLIMB_SHAPE3(64, 64, 65536)};
/* Every form on every bench shape, the vendor and the best rung only (the ladder before tuned takes A B only). */
static const climb_sweep SGEMM_SWEEPS[] = {
    {.name = "forms",
     .title = "SGEMM in its four operand forms (nn = A B, tn = A^T B, nt = A B^T, tt = A^T B^T): GFLOP/s against m",
     .args = "--set form=all --rung cublas_sgemm --rung tuned",
     .x = "m",
     .log_x = 1},
};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape SGEMM_MAIN_SHAPES[] = {CLIMB_SHAPE3(4096, 4096, 4096), CLIMB_SHAPE3(1000, 3000, 500)};
static const climb_shape SGEMM_CHECK_SHAPES[] = {
    CLIMB_SHAPE3(0, 0, 0),    CLIMB_SHAPE3(1, 1, 0),   CLIMB_SHAPE3(1, 1, 1),   CLIMB_SHAPE3(2, 3, 5),
    CLIMB_SHAPE3(32, 32, 32), CLIMB_SHAPE3(33, 31, 17), CLIMB_SHAPE3(64, 64, 64), CLIMB_SHAPE3(127, 129, 65),
    CLIMB_SHAPE3(128, 128, 8), CLIMB_SHAPE3(1, 300, 7), CLIMB_SHAPE3(300, 1, 9), CLIMB_SHAPE3(257, 255, 300),
    CLIMB_SHAPE3(70, 65, 1000), CLIMB_SHAPE3(259, 261, 23)};
static const climb_shape SGEMM_QUICK_SHAPES[] = {CLIMB_SHAPE3(33, 31, 17), CLIMB_SHAPE3(128, 128, 8),
                                                 CLIMB_SHAPE3(257, 255, 300)};

/* The host memory a case needs at the least (A, B and C), for the harness's check before anything is allocated. */
static double sgemm_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return 4.0 * ((double)s->d[0] * s->d[2] + (double)s->d[2] * s->d[1] + (double)s->d[0] * s->d[1]);
}

/* create's size rule, for the dry run too: every size and leading dimension is a 32-bit int in the kernels. */
static const char *sgemm_case_refuses(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    const double pad = (double)opts[OPT_PAD].i;
    return (double)s->d[0] + pad > INT32_MAX || (double)s->d[1] + pad > INT32_MAX || (double)s->d[2] + pad > INT32_MAX
               ? "sizes and leading dimensions must be below 2^31"
               : NULL;
}

extern "C" const climb_workload climb_sgemm_workload = {
    .name = "sgemm",
    .title = "SGEMM C = alpha A B + beta C (FP32, row-major)",
    .sources = "Introduction to CUDA 5.0 and Hwu, Kirk and El Hajj, Programming Massively Parallel Processors: "
                "matrix multiply (global memory, shared tiles, register tiling, coarsening)",
    .command = NULL,
    .dims = {"m", "n", "k"},
    .types = CLIMB_TYPE_BIT(CLIMB_F32),
    .options = SGEMM_OPTIONS,
    .n_options = CLIMB_COUNT(SGEMM_OPTIONS),
    .bytes_counted = "read: A and B (and C when beta != 0); written: C",
    .items_unit = NULL,
    .items_rate = NULL,
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = SGEMM_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(SGEMM_BENCH_SHAPES),
    .check_shapes = SGEMM_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(SGEMM_CHECK_SHAPES),
    .quick_shapes = SGEMM_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(SGEMM_QUICK_SHAPES),
    .main_shapes = SGEMM_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(SGEMM_MAIN_SHAPES),
    .check_max_offset = 0,
    .n_rungs = CLIMB_COUNT(SGEMM_RUNGS),
    .rung = sgemm_rung_info,
    .published = NULL,
    .sweeps = SGEMM_SWEEPS,
    .n_sweeps = CLIMB_COUNT(SGEMM_SWEEPS),
    .load = NULL,
    .unload = NULL,
    .case_size = sizeof(climb_case),
    .buffers = SGEMM_BUFFERS,
    .n_buffers = CLIMB_COUNT(SGEMM_BUFFERS),
    .init = sgemm_init,
    .fill = sgemm_fill,
    .fini = sgemm_fini,
    .describe = sgemm_describe,
    .reference = sgemm_reference,
    .ref_cost = sgemm_ref_cost,
    .ref_cost_limit = 1 << 28,
    .case_bytes = sgemm_case_bytes,
    .case_refuses = sgemm_case_refuses,
    .refuses = sgemm_refuses,
    .prepare = sgemm_prepare,
    .setup = sgemm_setup,
    .modifies = sgemm_modifies,
    .reset = sgemm_reset,
    .empty = sgemm_empty,
    .verify = sgemm_verify,
    .counts = sgemm_counts,
    .tuning = &SGEMM_TUNING,
    .set_tuning = sgemm_set_tuning,
};
