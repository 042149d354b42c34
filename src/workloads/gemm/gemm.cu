/*
 * gemm.cu - C = alpha A B + beta C on the tensor cores, row-major with leading dimensions, FP32 accumulation and
 * output, in three precision families (the `precision` option): BF16 inputs; FP32 inputs rounded to TF32; FP32
 * inputs as two TF32 terms each (3xTF32, FP32-class accuracy). The ladder starts where SGEMM's ends (its tuned
 * rung on the CUDA cores) and climbs toward cuBLAS on the tensor cores in the same precision.
 *
 * Every rung is checked against an FP64 product of the same inputs (the CPU's, or cuBLAS's DGEMM on the GPU with
 * CPU rows agreeing, for large shapes) within its precision's bound (climb_gemm_bound), and each run's error is
 * reported: the largest and RMS of |error| / (|alpha| sum|a b| + |beta c|).
 *
 * Sources: the SGEMM ladder's texts (Introduction to CUDA 5.0; Hwu, Kirk and El Hajj, Programming Massively
 * Parallel Processors: tiling through shared memory), carried onto the tensor cores as PTX ISA's mma.sync,
 * ldmatrix and cp.async define them. See docs/gemm.md.
 *
 * The folder: bounds.c the roundings, inputs and bounds (host); kernels.cuh the kernels; this file the case,
 * launchers, the registry table and the harness glue.
 */
#include <cublas_v2.h>
#include <cudaTypedefs.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/check.h"
#include "../../base/checked.h"
#include "../../base/rng.h"
#include "../../core/workload.cuh"
#include "../../device/cublas_shared.h"
#include "../sgemm/sgemm.h"
#include "gemm.h"
#include "kernels.cuh"

/* ---------------------------------------------------------------- the case */

struct climb_case {
    climb_case_params p;
    size_t m, n, k, lda, ldb, ldc;
    int prec, spread;
    float alpha, beta;
    size_t esize;                /* bytes an input element: 2 (BF16) or 4 */
    void *h_a, *d_a, *h_b, *d_b; /* the operands as the rungs read them (BF16 bits or FP32) */
    float *h_a32, *d_a32, *h_b32, *d_b32; /* BF16: the same values as FP32 (the CUDA-core rung's); else empty */
    float *h_c0, *d_c0;          /* C's first values */
    float *h_c, *d_c;            /* C, and verify's download */
    double *want, *mag;          /* m x n: alpha A B + beta C0 in FP64, and |alpha| sum|a b| + |beta c0| */
    size_t *rows;                /* the CPU rows a GPU reference was checked on */
    size_t n_rows;
    double bound;                /* climb_gemm_bound(prec, k) */
    double err_max, err_sq;      /* the last verify's error, relative to mag: largest, sum of squares */
    size_t err_n;
    char note[320];
    cublasHandle_t cublas;
    int sms;
    float *d_ws;                 /* the CUDA-core rung's split-K workspace */
    size_t ws_bytes;
    void *d_wg;                  /* the wgmma rungs' workspace (climb_gemm_wg_workspace) */
    size_t wg_bytes;
    climb_gemm_tuning tn;        /* the best rung's tuned values (the built-in ones until the harness sets them) */
};

static const float *a32(const climb_case *c) { return c->prec == CLIMB_GEMM_PREC_BF16 ? c->d_a32 : (const float *)c->d_a; }
static const float *b32(const climb_case *c) { return c->prec == CLIMB_GEMM_PREC_BF16 ? c->d_b32 : (const float *)c->d_b; }

static gemm_args case_args(const climb_case *c)
{
    const size_t ch = 16 / c->esize;
    const int vec = ((uintptr_t)c->d_a | (uintptr_t)c->d_b) % 16 == 0 && c->lda % ch == 0 && c->ldb % ch == 0;
    gemm_args g = {(int)c->m, (int)c->n, (int)c->k, c->lda, c->ldb, c->ldc, c->alpha, c->beta, c->d_a, c->d_b,
                   c->d_c, vec};
    g.group = GEMM_GROUP;
    return g;
}

static size_t tiles_m(const climb_case *c) { return (c->m + GEMM_BM - 1) / GEMM_BM; }
static size_t tiles_n(const climb_case *c) { return (c->n + GEMM_BN - 1) / GEMM_BN; }

/* ---------------------------------------------------------------- launchers */

template <int P> static cudaError_t launch_mma_p(climb_case *c, cudaStream_t s)
{
    const size_t tm = tiles_m(c), tn = tiles_n(c);
    gemm_mma_kernel<P><<<(unsigned)(tm * tn), GEMM_THREADS, 0, s>>>(case_args(c), (int)tm, (int)tn);
    return cudaGetLastError();
}
static cudaError_t launch_mma(climb_case *c, cudaStream_t s)
{
    return c->prec == CLIMB_GEMM_PREC_BF16   ? launch_mma_p<GEMM_BF16>(c, s)
           : c->prec == CLIMB_GEMM_PREC_TF32 ? launch_mma_p<GEMM_TF32>(c, s)
                                        : launch_mma_p<GEMM_3XTF32>(c, s);
}

template <int P> static cudaError_t allow_pipe_smem()
{
    return cudaFuncSetAttribute(gemm_pipe_kernel<P>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                (int)(GEMM_STAGES * gemm_smem<P>::STAGE_BYTES));
}
template <int P> static cudaError_t launch_pipe_p(climb_case *c, cudaStream_t s)
{
    const size_t tm = tiles_m(c), tn = tiles_n(c);
    gemm_pipe_kernel<P><<<(unsigned)(tm * tn), GEMM_THREADS, GEMM_STAGES * gemm_smem<P>::STAGE_BYTES, s>>>(
        case_args(c), (int)tm, (int)tn);
    return cudaGetLastError();
}
static cudaError_t launch_pipe(climb_case *c, cudaStream_t s)
{
    return c->prec == CLIMB_GEMM_PREC_BF16   ? launch_pipe_p<GEMM_BF16>(c, s)
           : c->prec == CLIMB_GEMM_PREC_TF32 ? launch_pipe_p<GEMM_TF32>(c, s)
                                        : launch_pipe_p<GEMM_3XTF32>(c, s);
}

/* The wgmma rungs: the operands made ready in the workspace, then the kernel (climb_gemm_wg_async), every run. */
static cudaError_t launch_wg(climb_case *c, cudaStream_t s, int kind)
{
    return climb_gemm_wg_async(c->prec, kind, c->m, c->n, c->k, c->alpha, c->d_a, c->lda, c->d_b, c->ldb, 0, c->beta,
                               c->d_c, c->ldc, c->d_wg, c->wg_bytes, c->sms, GEMM_GROUP, s);
}
static cudaError_t launch_wgmma(climb_case *c, cudaStream_t s) { return launch_wg(c, s, CLIMB_GEMM_WG_CPASYNC); }
static cudaError_t launch_tma(climb_case *c, cudaStream_t s) { return launch_wg(c, s, CLIMB_GEMM_WG_TMA); }
static cudaError_t launch_ws(climb_case *c, cudaStream_t s) { return launch_wg(c, s, CLIMB_GEMM_WG_WS); }
static cudaError_t launch_persistent(climb_case *c, cudaStream_t s) { return launch_wg(c, s, CLIMB_GEMM_WG_PERSISTENT); }
static cudaError_t launch_clusters(climb_case *c, cudaStream_t s) { return launch_wg(c, s, CLIMB_GEMM_WG_CLUSTERS); }
static cudaError_t launch_overlap(climb_case *c, cudaStream_t s) { return launch_wg(c, s, CLIMB_GEMM_WG_OVERLAP); }
/* gemm_best: the C API's path (climb_gemm_tc_async) on the case's operands, at the case's tuned values. */
static cudaError_t launch_best(climb_case *c, cudaStream_t s)
{
    return climb_gemm_tc_async(c->prec, c->m, c->n, c->k, c->alpha, c->d_a, c->lda, c->d_b, c->ldb, 0, c->beta, c->d_c,
                               c->ldc, c->d_wg, c->wg_bytes, &c->tn, s);
}

/* The SGEMM ladder's best rung on the CUDA cores, on the FP32 values of the inputs. */
static cudaError_t launch_cuda_cores(climb_case *c, cudaStream_t s)
{
    return climb_sgemm_best(NULL, 0, 0, c->m, c->n, c->k, c->alpha, a32(c), c->lda, b32(c), c->ldb, c->beta, c->d_c,
                            c->ldc, c->d_ws, c->ws_bytes, c->sms, s);
}

/* cuBLAS in the case's precision. Row-major C = A B is column-major C^T = B^T A^T: B goes first. */
static cudaError_t launch_cublas(climb_case *c, cudaStream_t s)
{
    cublasStatus_t st = cublasSetStream(c->cublas, s);
    const int n = (int)c->n, m = (int)c->m, k = (int)c->k;
    const int lda = (int)(c->lda ? c->lda : 1), ldb = (int)(c->ldb ? c->ldb : 1), ldc = (int)(c->ldc ? c->ldc : 1);
    if (st == CUBLAS_STATUS_SUCCESS) {
        if (c->prec == CLIMB_GEMM_PREC_BF16)
            st = cublasGemmEx(c->cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &c->alpha, c->d_b, CUDA_R_16BF, ldb, c->d_a,
                              CUDA_R_16BF, lda, &c->beta, c->d_c, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT);
        else if (c->prec == CLIMB_GEMM_PREC_TF32)
            st = cublasGemmEx(c->cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &c->alpha, c->d_b, CUDA_R_32F, ldb, c->d_a,
                              CUDA_R_32F, lda, &c->beta, c->d_c, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F_FAST_TF32,
                              CUBLAS_GEMM_DEFAULT);
        else
            st = cublasSgemm(c->cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &c->alpha, (const float *)c->d_b, ldb,
                             (const float *)c->d_a, lda, &c->beta, c->d_c, ldc);
    }
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "climb: gemm: cuBLAS: %s\n", cublasGetStatusString(st));
        return cudaErrorUnknown;
    }
    return cudaGetLastError();
}

/* ---------------------------------------------------------------- for the C API */

/* What an operand's copy holds: its values (GEMM_AS_IS), rounded to TF32 (GEMM_ROUND), or split into a TF32 big
 * part (the rounding) and a TF32 small part (the rounding of what is left), written to two arrays (GEMM_SPLIT). */
enum { GEMM_AS_IS = 0, GEMM_ROUND = 1, GEMM_SPLIT = 2 };
template <typename T, int MODE> __device__ __forceinline__ T gemm_pass(T x, T *small)
{
    (void)small;
    return x;
}
template <> __device__ __forceinline__ float gemm_pass<float, GEMM_ROUND>(float x, float *)
{
    return __uint_as_float(climb_tf32(x));
}
template <> __device__ __forceinline__ float gemm_pass<float, GEMM_SPLIT>(float x, float *small)
{
    uint32_t big, rest;
    climb_tf32_split(x, &big, &rest);
    *small = __uint_as_float(rest);
    return __uint_as_float(big);
}

/* dst (cols x rows, rows ldd apart) = src^T (rows x cols, rows ld apart), elements of T, as MODE says (GEMM_SPLIT:
 * the small parts into dst2, laid out as dst): 32 x 32
 * tiles through shared memory (a column of 33 so that the transposed reads do not share banks), 32 x 8 threads, 4
 * elements a thread each way. A tile inside the matrix takes them at constant offsets from one pointer a thread (no
 * bounds check or index product an element: the profile of the checked form had its issue slots 75% busy at 42% of
 * DRAM's bandwidth); an edge tile checks each element. */
template <typename T, int MODE>
__global__ void gemm_pack_kernel(const T *__restrict__ src, size_t ld, T *__restrict__ dst, T *__restrict__ dst2,
                                 size_t ldd, size_t rows, size_t cols)
{
    __shared__ T tile[32][33], tile2[MODE == GEMM_SPLIT ? 32 : 1][33];
    const size_t r0 = (size_t)blockIdx.y * 32, c0 = (size_t)blockIdx.x * 32;
    const int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    const bool inside = r0 + 32 <= rows && c0 + 32 <= cols;
    if (inside) {
        const T *p = src + (r0 + ty) * ld + c0 + tx;
#pragma unroll
        for (int i = 0; i < 32; i += 8)
            tile[ty + i][tx] = gemm_pass<T, MODE>(p[(size_t)i * ld], &tile2[MODE == GEMM_SPLIT ? ty + i : 0][tx]);
    } else {
        for (int i = ty; i < 32; i += 8) {
            const size_t r = r0 + i, c = c0 + tx;
            if (r < rows && c < cols)
                tile[i][tx] = gemm_pass<T, MODE>(src[r * ld + c], &tile2[MODE == GEMM_SPLIT ? i : 0][tx]);
        }
    }
    __syncthreads();
    if (inside) {
        T *p = dst + (c0 + ty) * ldd + r0 + tx; /* dst row c0 + ty, column r0 + tx */
#pragma unroll
        for (int i = 0; i < 32; i += 8) {
            p[(size_t)i * ldd] = tile[tx][ty + i];
            if (MODE == GEMM_SPLIT)
                dst2[(c0 + ty + i) * ldd + r0 + tx] = tile2[tx][ty + i];
        }
    } else {
        for (int i = ty; i < 32; i += 8) {
            const size_t c = c0 + i, r = r0 + tx; /* dst row c, column r */
            if (r < rows && c < cols) {
                dst[c * ldd + r] = tile[tx][i];
                if (MODE == GEMM_SPLIT)
                    dst2[c * ldd + r] = tile2[tx][i];
            }
        }
    }
}

/* dst (rows x cols, rows ldd apart) = src (rows ld apart), as MODE says (dst2 as dst); the rest of each row (up to
 * ldd) zeros. A block a row at a time, 256 threads along it. */
template <typename T, int MODE>
__global__ void gemm_copy_kernel(const T *__restrict__ src, size_t ld, T *__restrict__ dst, T *__restrict__ dst2,
                                 size_t ldd, size_t rows, size_t cols)
{
    for (size_t r = blockIdx.x; r < rows; r += gridDim.x)
        for (size_t c = threadIdx.x; c < ldd; c += blockDim.x) {
            T small = (T)0;
            dst[r * ldd + c] = c < cols ? gemm_pass<T, MODE>(src[r * ld + c], &small) : (T)0;
            if (MODE == GEMM_SPLIT)
                dst2[r * ldd + c] = small;
        }
}

/* The transpose of an esize-byte operand, as mode says (esize 4 for GEMM_ROUND and GEMM_SPLIT; dst2 the small
 * parts of a split). */
static cudaError_t gemm_pack(size_t esize, int mode, size_t rows, size_t cols, const void *src, size_t ld, void *dst,
                             void *dst2, size_t ldd, cudaStream_t s)
{
    if (esize != 2 && esize != 4)
        return cudaErrorInvalidValue;
    if (rows == 0 || cols == 0)
        return cudaSuccess; /* nothing to move (and no grid of no blocks to launch) */
    const size_t gx = (cols + 31) / 32, band = (size_t)65535 * 32; /* grid.y's limit: bands of rows */
    if (gx > INT32_MAX)
        return cudaErrorInvalidConfiguration;
    for (size_t r = 0; r < rows; r += band) {
        const size_t h = rows - r < band ? rows - r : band;
        const dim3 grid((unsigned)gx, (unsigned)((h + 31) / 32)), block(32, 8);
        const float *f = (const float *)src + r * ld;
        float *d = (float *)dst + r, *d2 = dst2 ? (float *)dst2 + r : NULL;
        if (esize == 2)
            gemm_pack_kernel<uint16_t, GEMM_AS_IS><<<grid, block, 0, s>>>((const uint16_t *)src + r * ld, ld,
                                                                          (uint16_t *)dst + r, NULL, ldd, h, cols);
        else if (mode == GEMM_SPLIT)
            gemm_pack_kernel<float, GEMM_SPLIT><<<grid, block, 0, s>>>(f, ld, d, d2, ldd, h, cols);
        else if (mode == GEMM_ROUND)
            gemm_pack_kernel<float, GEMM_ROUND><<<grid, block, 0, s>>>(f, ld, d, NULL, ldd, h, cols);
        else
            gemm_pack_kernel<float, GEMM_AS_IS><<<grid, block, 0, s>>>(f, ld, d, NULL, ldd, h, cols);
        const cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

extern "C" cudaError_t climb_gemm_pack_async(size_t esize, size_t rows, size_t cols, const void *src, size_t ld,
                                             void *dst, size_t ldd, cudaStream_t s)
{
    return gemm_pack(esize, GEMM_AS_IS, rows, cols, src, ld, dst, NULL, ldd, s);
}

/* An operand's rows as the wgmma kernels read them: whole 16-byte chunks (one at the least); 0 where that wraps. */
static size_t wg_ld(size_t cols, size_t esize)
{
    const size_t ch = 16 / esize;
    return cols > SIZE_MAX - ch ? 0 : (cols ? (cols + ch - 1) / ch * ch : ch);
}
/* A is copied for the wgmma kernels where its rows are not 16-byte chunks on 16-byte boundaries (cp.async and TMA
 * move such chunks; 3xTF32's copy as it is), and for TF32 on the kernels without a producer warp group (cp.async,
 * tma): wgmma reads an FP32 operand's top 19 bits as they are (a truncation, biased, twice the error of rounding),
 * so A goes in rounded to TF32 as cvt.rna rounds, as B^T does. The warp-specialised kernels take FP32 A through
 * registers instead, rounded there for TF32 and split there for 3xTF32 (gemm_ws_load_a). */
static int wg_copies_a(int precision, int kind, size_t k, const void *a, size_t lda, size_t esize)
{
    const int in_registers = kind == CLIMB_GEMM_WG_WS || kind == CLIMB_GEMM_WG_PERSISTENT ||
                             kind == CLIMB_GEMM_WG_CLUSTERS || kind == CLIMB_GEMM_WG_OVERLAP;
    return k && ((precision == GEMM_TF32 && !in_registers) || (uintptr_t)a % 16 ||
                 lda % (16 / esize)); /* k = 0: A is not read */
}

/* Whether the kernel reads B where it is: BF16 whose rows are 16-byte chunks on 16-byte boundaries (TMA's strides
 * and cp.async's chunks are whole 16 bytes), given as B^T (tb: n x k, K-major, as every wgmma kernel reads it) or
 * as stored (k x n: MN-major, wgmma's transposed form, the TMA kernels alone). Else B^T is made in the workspace
 * first: for TF32 rounded (it has no transposed form, and its inputs go in rounded), for 3xTF32 split. */
static int wg_b_as_given(int precision, int kind, const void *b, size_t ldb, int tb)
{
    return precision == GEMM_BF16 && (tb || kind != CLIMB_GEMM_WG_CPASYNC) && (uintptr_t)b % 16 == 0 &&
           ldb % 8 == 0 && ldb > 0;
}

/* Whether the kernel `kind` makes TF32's B^T itself (CLIMB_GEMM_WG_OVERLAP; gemm_trb_transpose): B given k x n
 * (not as B^T), its rows 16-byte chunks on 16-byte boundaries (the transposing blocks' cp.async), some k. Elsewhere
 * that kind runs as the persistent one, B^T made before it. */
static int wg_overlaps(int precision, int kind, size_t k, const void *b, size_t ldb, int tb)
{
    return precision == GEMM_TF32 && kind == CLIMB_GEMM_WG_OVERLAP && !tb && k && (uintptr_t)b % 16 == 0 &&
           ldb % 4 == 0;
}
/* The flags of the panels of B^T the overlapping kernel makes (a tile column of 256 rows by a stage's 32 values of
 * k each), and the blocks' ticket before them: their count, 0 where it passes INT32_MAX. */
static size_t wg_ready_count(size_t n, size_t k)
{
    const size_t wn = (n + GEMM_WS_BN - 1) / GEMM_WS_BN, kt = (k + 31) / 32;
    size_t c;
    return climb_mul3_fits(wn, kt, 1, &c) && c < INT32_MAX ? c + 1 : 0;
}

extern "C" void climb_gemm_trb_order(size_t m, size_t n, int sms, int *group, int *band)
{
    const size_t tm = (m + GEMM_BM - 1) / GEMM_BM, tiles = tm * ((n + GEMM_WS_BN - 1) / GEMM_WS_BN),
                 room = sms > CLIMB_GEMM_TRB_BLOCKS ? (size_t)(sms - CLIMB_GEMM_TRB_BLOCKS) : 1,
                 mult = tiles < room ? tiles : room, quarter = (mult + 3) / 4, gr = quarter < tm ? quarter : tm;
    *group = gr > 0 ? (int)gr : 1;
    *band = gr > 0 ? (int)((mult + gr - 1) / gr) : 1;
}

extern "C" void climb_gemm_trb_panel(int p, int tn, int kt, int band, int *c, int *kb)
{
    gemm_trb_panel_of(p, tn, kt, band, c, kb);
}

extern "C" int climb_gemm_trb_emulate(const float *b, size_t ldb, int k, int n, float *bt, size_t ldbt,
                                      int *conflicts)
{
    unsigned char *st = (unsigned char *)malloc(GEMM_TRB_PANEL);
    if (!st)
        return -1;
    const int tn = (n + GEMM_WS_BN - 1) / GEMM_WS_BN, kt = (k + 31) / 32;
    *conflicts = 0;
    for (int c = 0; c < tn; c++)
        for (int kb = 0; kb < kt; kb++) {
            memset(st, 0xff, GEMM_TRB_PANEL); /* what zero fill must overwrite */
            for (int q = 0; q < 2048; q++) { /* the cp.async of each chunk, with its zero fill */
                const int row = q >> 6, j = q & 63, kk = kb * 32 + row, nn = c * 256 + 4 * j;
                const int valid = gemm_trb_valid(kk, nn, k, n);
                memset(st + gemm_trb_slot(row, j), 0, 16);
                if (valid)
                    memcpy(st + gemm_trb_slot(row, j), b + (size_t)kk * ldb + nn, (size_t)valid);
            }
            for (int o = 0; o < 2048; o++) {
                const int nn = c * 256 + (o >> 3), kk = kb * 32 + 4 * (o & 7);
                for (int e = 0; e < 4; e++) {
                    float v;
                    memcpy(&v, st + gemm_trb_from(o, e), 4);
                    if (nn < n && kk < k)
                        bt[(size_t)nn * ldbt + kk + e] = climb_tf32_round(v);
                }
                if (o % 32 == 0) /* a warp's four loads: 32 banks each */
                    for (int e = 0; e < 4; e++) {
                        unsigned banks = 0;
                        for (int l = 0; l < 32; l++)
                            banks |= 1u << ((gemm_trb_from(o + l, e) >> 2) & 31);
                        *conflicts += banks != 0xffffffffu;
                    }
            }
        }
    free(st);
    return 0;
}

/* 3xTF32's split of k (gemm_ws3_kernel's slices) for an m x n x k product on `sms` SMs: the most slices a tile (up
 * to CLIMB_GEMM_W3_MAX_SPLIT, each at least 4 stages of 32 values of k) whose units (a tile's slice each) take no
 * more waves of the SMs than the tiles alone; 1 where none does, or where the sizes pass 2^31. So k is split only
 * where the tiles fill at most half the SMs, and each unit then takes a fraction of a tile's time in the same
 * waves. Measured on an H100 (0a3917f against 8a004fc): 1024^3, 64 tiles split in 2, 36.3 us against 43.7; an
 * earlier rule split 1000 x 3000 x 500's 192 tiles (two waves) in 2, three waves of half tiles, which took
 * 70.6 us against 55.0 (the slices' sums, two 64 KiB a tile, and a third wave cost more than half tiles save). */
extern "C" int climb_gemm_w3_ksplit(size_t m, size_t n, size_t k, int sms)
{
    const size_t tiles = ((m + GEMM_BM - 1) / GEMM_BM) * ((n + GEMM_W3_BN - 1) / GEMM_W3_BN), kt = (k + 31) / 32;
    if (sms < 1 || m > INT32_MAX || n > INT32_MAX || k > INT32_MAX || tiles == 0)
        return 1;
    const size_t waves = (tiles + (size_t)sms - 1) / (size_t)sms;
    int best = 1;
    for (size_t ks = 2; ks <= CLIMB_GEMM_W3_MAX_SPLIT && kt >= 4 * ks; ks++)
        if ((tiles * ks + (size_t)sms - 1) / (size_t)sms == waves)
            best = (int)ks;
    return best;
}

/* The workspace's pieces, each 256-byte aligned from a 256-byte aligned start: B^T (n x ld, where made) at 0, its
 * small parts (3xTF32), A's copy (m x ld, where made), the overlapping kernel's flags (where it makes B^T), 3xTF32's
 * split sums and counts (where it splits k: climb_gemm_w3_ksplit). Offsets in bytes; 0 where a size wraps. */
typedef struct wg_layout { size_t bt2, a, ready, part, arrived, end; int ksplit; } wg_layout;
static int wg_layout_of(int precision, int kind, size_t m, size_t n, size_t k, const void *a, size_t lda,
                        const void *b, size_t ldb, int tb, int sms, wg_layout *l)
{
    const size_t es = precision == GEMM_BF16 ? 2 : 4, ld = wg_ld(k, es), parts = precision == GEMM_3XTF32 ? 2 : 1;
    size_t bt = 0, ac = 0;
    memset(l, 0, sizeof *l);
    if (!ld || !climb_mul3_fits(n ? n : 1, ld, es, &bt) || !climb_add_fits(bt, 255, &bt))
        return -1;
    bt = wg_b_as_given(precision, kind, b, ldb, tb) ? 0 : bt / 256 * 256;
    if (wg_copies_a(precision, kind, k, a, lda, es) &&
        (!climb_mul3_fits(m ? m : 1, ld, es, &ac) || !climb_add_fits(ac, 255, &ac)))
        return -1;
    ac = ac / 256 * 256;
    size_t rd = 0;
    if (wg_overlaps(precision, kind, k, b, ldb, tb)) {
        rd = wg_ready_count(n, k);
        if (!rd || !climb_mul3_fits(rd, sizeof(int), 1, &rd) || !climb_add_fits(rd, 255, &rd))
            return -1;
        rd = rd / 256 * 256;
    }
    size_t ps = 0, ar = 0;
    l->ksplit = precision == GEMM_3XTF32 ? climb_gemm_w3_ksplit(m, n, k, sms) : 1;
    if (l->ksplit > 1) { /* a tile's slice: 128 x 128 sums; a tile: two counts */
        const size_t tiles = ((m + GEMM_BM - 1) / GEMM_BM) * ((n + GEMM_W3_BN - 1) / GEMM_W3_BN);
        if (!climb_mul3_fits(tiles, (size_t)l->ksplit, GEMM_BM * GEMM_W3_BN * sizeof(float), &ps) ||
            !climb_mul3_fits(tiles, 2, sizeof(int), &ar) || !climb_add_fits(ar, 255, &ar))
            return -1;
        ar = ar / 256 * 256;
    }
    l->bt2 = bt; /* B^T at 0 */
    return climb_add_fits(l->bt2, (parts - 1) * bt, &l->a) && climb_add_fits(l->a, ac, &l->ready) &&
                   climb_add_fits(l->ready, rd, &l->part) && climb_add_fits(l->part, ps, &l->arrived) &&
                   climb_add_fits(l->arrived, ar, &l->end)
               ? 0
               : -1;
}

extern "C" size_t climb_gemm_wg_workspace(int precision, int kind, size_t m, size_t n, size_t k, const void *a,
                                          size_t lda, const void *b, size_t ldb, int tb, int sms)
{
    wg_layout l;
    size_t sum;
    return wg_layout_of(precision, kind, m, n, k, a, lda, b, ldb, tb, sms, &l) == 0 && climb_add_fits(l.end, 256, &sum)
               ? sum
               : 0;
}

/* A 2-D tensor map of a row-major matrix (rows x cols, rows ld apart) for TMA: boxes of box_rows rows by 128 bytes,
 * in the 128-byte swizzle, zeros past the edges. cuTensorMapEncodeTiled is the driver's, found through the runtime.
 * 0, or -1 (the driver lacks it, or refused the map). */
static int tensor_map(CUtensorMap *map, int prec, const void *ptr, size_t rows, size_t cols, size_t ld,
                      unsigned box_rows)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode = NULL;
    if (!encode) {
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000, cudaEnableDefault,
                                             &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess || !encode) {
            encode = NULL;
            cudaGetLastError();
            return -1;
        }
    }
    const size_t es = prec == GEMM_BF16 ? 2 : 4;
    const cuuint64_t dims[2] = {cols, rows}, strides[1] = {ld * es};
    const cuuint32_t box[2] = {(cuuint32_t)(128 / es), box_rows}, one[2] = {1, 1};
    const CUresult r = encode(map, prec == GEMM_BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                              2, (void *)ptr, dims, strides, box, one, CU_TENSOR_MAP_INTERLEAVE_NONE,
                              CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? 0 : -1;
}

template <int P> static cudaError_t allow_wgmma_smem()
{
    return cudaFuncSetAttribute(gemm_wgmma_kernel<P>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                GEMM_STAGES * GEMM_WG_STAGE_BYTES);
}
template <int P, bool BMN> static cudaError_t allow_tma_smem()
{
    return cudaFuncSetAttribute(gemm_tma_kernel<P, BMN>, cudaFuncAttributeMaxDynamicSharedMemorySize, GEMM_TMA_SMEM);
}
template <int P, int CL, bool BMN> static cudaError_t allow_ws_smem()
{
    return cudaFuncSetAttribute(gemm_ws_kernel<P, CL, BMN>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                GEMM_WS_SMEM);
}

/* The clusters rung's launch: clusters of two blocks, as many as can be resident at once
 * (cudaOccupancyMaxActiveClusters; half the SMs where it cannot say) and no more than the pairs of 128 x 256 tiles;
 * *fit (if not NULL) gets what the query said (0: it could not). */
template <int P, bool BMN>
static cudaError_t clusters_config(size_t m, size_t n, int sms, cudaStream_t s, cudaLaunchConfig_t *cfg,
                                   cudaLaunchAttribute *at, int *fit_out)
{
    const cudaError_t e = allow_ws_smem<P, 2, BMN>();
    if (e != cudaSuccess)
        return e;
    const size_t tm = (m + GEMM_BM - 1) / GEMM_BM, wn = (n + GEMM_WS_BN - 1) / GEMM_WS_BN, pairs = (tm + 1) / 2 * wn;
    *cfg = cudaLaunchConfig_t{};
    at[0] = cudaLaunchAttribute{};
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = 2;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg->blockDim = dim3(GEMM_WS_THREADS);
    cfg->dynamicSmemBytes = GEMM_WS_SMEM;
    cfg->stream = s;
    cfg->attrs = at;
    cfg->numAttrs = 1;
    int fit = 0;
    cfg->gridDim = dim3((unsigned)(2 * (pairs < (size_t)sms / 2 ? pairs : (size_t)sms / 2)));
    if (cudaOccupancyMaxActiveClusters(&fit, gemm_ws_kernel<P, 2, BMN>, cfg) != cudaSuccess || fit < 1) {
        cudaGetLastError();
        fit = 0;
    }
    if (fit_out)
        *fit_out = fit;
    const size_t use = fit > 0 ? (size_t)fit : (size_t)(sms / 2 > 0 ? sms / 2 : 1);
    cfg->gridDim = dim3((unsigned)(2 * (pairs < use ? pairs : use)));
    return cudaSuccess;
}

/* The kernel of a wgmma rung on operands made ready (A's rows whole 16-byte chunks; g.b B as stored (BMN) or B^T,
 * its rows whole 16-byte chunks too). */
template <int P, bool BMN> static cudaError_t wg_launch(int kind, const gemm_args &g, int sms, cudaStream_t s)
{
    const size_t tm = (size_t)(g.m + GEMM_BM - 1) / GEMM_BM, tn = (size_t)(g.n + GEMM_BN - 1) / GEMM_BN;
    cudaError_t e;
    if (kind == CLIMB_GEMM_WG_CPASYNC) {
        if ((e = allow_wgmma_smem<P>()) != cudaSuccess)
            return e;
        gemm_wgmma_kernel<P><<<(unsigned)(tm * tn), GEMM_THREADS, GEMM_STAGES * GEMM_WG_STAGE_BYTES, s>>>(
            g, g.b, g.ldb, (int)tm, (int)tn);
        return cudaGetLastError();
    }
    CUtensorMap ma, mb;
    memset(&ma, 0, sizeof ma);
    memset(&mb, 0, sizeof mb);
    /* B^T's box: the tile's columns (clusters: half of them, each block multicasting its half to both); B's as
     * stored: 64 columns by a stage's 64 rows of k, as many boxes as the columns need */
    const unsigned bn = kind == CLIMB_GEMM_WG_TMA ? GEMM_BN : kind == CLIMB_GEMM_WG_CLUSTERS ? GEMM_WS_BN / 2 : GEMM_WS_BN;
    if (g.k && (tensor_map(&ma, P, g.a, (size_t)g.m, (size_t)g.k, g.lda, GEMM_BM) != 0 ||
                (BMN ? tensor_map(&mb, P, g.b, (size_t)g.k, (size_t)g.n, g.ldb, 64)
                     : tensor_map(&mb, P, g.b, (size_t)g.n, (size_t)g.k, g.ldb, bn)) != 0))
        return cudaErrorInvalidValue;
    if (kind == CLIMB_GEMM_WG_TMA) {
        if ((e = allow_tma_smem<P, BMN>()) != cudaSuccess)
            return e;
        gemm_tma_kernel<P, BMN><<<(unsigned)(tm * tn), GEMM_THREADS, GEMM_TMA_SMEM, s>>>(ma, mb, g, (int)tm,
                                                                                        (int)tn);
        return cudaGetLastError();
    }
    const size_t wn = (size_t)(g.n + GEMM_WS_BN - 1) / GEMM_WS_BN, tiles = tm * wn;
    /* the persistent kernels store C by TMA where beta is 0 and C's rows are 16-byte chunks on 16-byte boundaries
     * (boxes of 32 columns by 64 rows), so that a tile's stores run on under the next tile's products */
    CUtensorMap mc;
    memset(&mc, 0, sizeof mc);
    gemm_args gc = g;
    gc.tma_c = (kind == CLIMB_GEMM_WG_PERSISTENT || kind == CLIMB_GEMM_WG_CLUSTERS || kind == CLIMB_GEMM_WG_OVERLAP) &&
               g.beta == 0.0f &&
               (uintptr_t)g.c % 16 == 0 && g.ldc % 4 == 0 &&
               tensor_map(&mc, GEMM_TF32, g.c, (size_t)g.m, (size_t)g.n, g.ldc, 64) == 0;
    if (kind == CLIMB_GEMM_WG_CLUSTERS) {
        /* clusters of two blocks, persistent: as many clusters as can run at once, each looping over pairs of
         * tiles */
        cudaLaunchConfig_t cfg;
        cudaLaunchAttribute at[1];
        if ((e = clusters_config<P, BMN>(g.m, g.n, sms, s, &cfg, at, NULL)) != cudaSuccess)
            return e;
        return cudaLaunchKernelEx(&cfg, gemm_ws_kernel<P, 2, BMN>, ma, mb, mc, gc, (int)tm, (int)wn);
    }
    if ((e = allow_ws_smem<P, 1, BMN>()) != cudaSuccess)
        return e;
    /* persistent: a block an SM (its shared memory holds one), each looping over the tiles; with B^T made in the
     * kernel, g.trb more blocks (the multiplying ones then sms - trb at the most) */
    const int persistent = kind == CLIMB_GEMM_WG_PERSISTENT || kind == CLIMB_GEMM_WG_OVERLAP;
    const size_t mult = persistent && tiles > (size_t)(sms - g.trb) ? (size_t)(sms - g.trb) : tiles;
    gemm_ws_kernel<P, 1, BMN><<<(unsigned)(mult + (size_t)g.trb), GEMM_WS_THREADS, GEMM_WS_SMEM, s>>>(
        ma, mb, mc, gc, (int)tm, (int)wn);
    return cudaGetLastError();
}

/* 3xTF32's kernel on FP32 A (split in its registers) and B^T split (g.b the big parts, b2 the small ones). */
static cudaError_t wg3_launch(int kind, const gemm_args &g, const void *b2, int sms, cudaStream_t s)
{
    const size_t tm = (size_t)(g.m + GEMM_BM - 1) / GEMM_BM, tn = (size_t)(g.n + GEMM_W3_BN - 1) / GEMM_W3_BN;
    CUtensorMap ma, bb, bs;
    memset(&ma, 0, sizeof ma);
    memset(&bb, 0, sizeof bb);
    memset(&bs, 0, sizeof bs);
    if (g.k && (tensor_map(&ma, GEMM_TF32, g.a, (size_t)g.m, (size_t)g.k, g.lda, GEMM_BM) != 0 ||
                tensor_map(&bb, GEMM_TF32, g.b, (size_t)g.n, (size_t)g.k, g.ldb, GEMM_W3_BN) != 0 ||
                tensor_map(&bs, GEMM_TF32, b2, (size_t)g.n, (size_t)g.k, g.ldb, GEMM_W3_BN) != 0))
        return cudaErrorInvalidValue;
    const cudaError_t e =
        cudaFuncSetAttribute(gemm_ws3_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, GEMM_W3_SMEM);
    if (e != cudaSuccess)
        return e;
    const size_t units = tm * tn * (size_t)(g.ksplit > 1 ? g.ksplit : 1),
                 grid = kind == CLIMB_GEMM_WG_PERSISTENT && units > (size_t)sms ? (size_t)sms : units;
    gemm_ws3_kernel<<<(unsigned)grid, GEMM_WS_THREADS, GEMM_W3_SMEM, s>>>(ma, bb, bs, g, (int)tm, (int)tn);
    return cudaGetLastError();
}

/* dst (rows x cols, rows ldd apart, the rest of each row zeros) = src (rows ld apart), as mode says (dst2: the
 * small parts of a split), esize 2 (as is) or 4. */
static cudaError_t gemm_copy(size_t esize, int mode, size_t rows, size_t cols, const void *src, size_t ld, void *dst,
                             void *dst2, size_t ldd, cudaStream_t s)
{
    if (rows == 0)
        return cudaSuccess;
    const unsigned grid = (unsigned)(rows < 65535 ? rows : 65535);
    const float *f = (const float *)src;
    if (esize == 2)
        gemm_copy_kernel<uint16_t, GEMM_AS_IS><<<grid, 256, 0, s>>>((const uint16_t *)src, ld, (uint16_t *)dst, NULL,
                                                                    ldd, rows, cols);
    else if (mode == GEMM_SPLIT)
        gemm_copy_kernel<float, GEMM_SPLIT><<<grid, 256, 0, s>>>(f, ld, (float *)dst, (float *)dst2, ldd, rows, cols);
    else if (mode == GEMM_ROUND)
        gemm_copy_kernel<float, GEMM_ROUND><<<grid, 256, 0, s>>>(f, ld, (float *)dst, NULL, ldd, rows, cols);
    else
        gemm_copy_kernel<float, GEMM_AS_IS><<<grid, 256, 0, s>>>(f, ld, (float *)dst, NULL, ldd, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t climb_gemm_wg_async(int precision, int kind, size_t m, size_t n, size_t k, float alpha,
                                           const void *a, size_t lda, const void *b, size_t ldb, int tb, float beta,
                                           float *c, size_t ldc, void *ws, size_t ws_bytes, int sms, int group,
                                           cudaStream_t s)
{
    if (precision != GEMM_BF16 && precision != GEMM_TF32 && precision != GEMM_3XTF32)
        return cudaErrorInvalidValue;
    /* the overlapping kernel where it makes TF32's B^T (beside at least as many multiplying blocks as
     * CLIMB_GEMM_TRB_BLOCKS), else the persistent one: BF16 reads B as stored, 3xTF32's split B^T is made before */
    if (kind == CLIMB_GEMM_WG_OVERLAP &&
        !(wg_overlaps(precision, kind, k, b, ldb, tb) && sms >= 2 * CLIMB_GEMM_TRB_BLOCKS))
        kind = CLIMB_GEMM_WG_PERSISTENT;
    if (precision == GEMM_3XTF32 && kind != CLIMB_GEMM_WG_WS && kind != CLIMB_GEMM_WG_PERSISTENT)
        return cudaErrorInvalidValue; /* the split operands are the warp-specialised kernels' alone */
    if (m == 0 || n == 0)
        return cudaSuccess;
    const size_t es = precision == GEMM_BF16 ? 2 : 4, ld = wg_ld(k, es), tm = (m + GEMM_BM - 1) / GEMM_BM;
    wg_layout l;
    size_t need;
    if (wg_layout_of(precision, kind, m, n, k, a, lda, b, ldb, tb, sms, &l) != 0 || !climb_add_fits(l.end, 256, &need) ||
        m > INT32_MAX || n > INT32_MAX || k > INT32_MAX || ld > INT32_MAX ||
        tm * ((n + GEMM_BN - 1) / GEMM_BN) > INT32_MAX ||
        kind < CLIMB_GEMM_WG_CPASYNC || kind > CLIMB_GEMM_WG_OVERLAP || sms < 1 || group < 1 ||
        group > GEMM_MAX_GROUP || !ws || ws_bytes < need)
        return cudaErrorInvalidValue;
    unsigned char *p = (unsigned char *)(((uintptr_t)ws + 255) / 256 * 256);
    gemm_args g = {(int)m, (int)n, (int)k, lda, ld, ldc, alpha, beta, a, p, c, 1};
    g.group = group;
    void *b2 = p + l.bt2;
    const int b_given = wg_b_as_given(precision, kind, b, ldb, tb);
    cudaError_t e = cudaSuccess;
    if (b_given) {
        g.b = b;
        g.ldb = ldb;
    }
    /* B^T made in the kernel: the flags cleared first; the multiplying blocks go down groups of tile rows spanning
     * about four tile columns a wave (so that the first wave waits for few panels), and the transposers' bands are
     * that wave's width */
    const int overlap = kind == CLIMB_GEMM_WG_OVERLAP;
    if (overlap) {
        g.trb = CLIMB_GEMM_TRB_BLOCKS;
        climb_gemm_trb_order(m, n, sms, &g.group, &g.band);
        g.bsrc = (const float *)b;
        g.ldbsrc = ldb;
        g.ready = (int *)(p + l.ready);
        e = cudaMemsetAsync(g.ready, 0, wg_ready_count(n, k) * sizeof(int), s);
    }
    if (k && e == cudaSuccess) {
        /* B^T, K-major, where the kernel does not read B where it is (rounded for TF32, split for 3xTF32): B's
         * transpose, or B^T given copied into 16-byte rows */
        const int mode = precision == GEMM_TF32 ? GEMM_ROUND : precision == GEMM_3XTF32 ? GEMM_SPLIT : GEMM_AS_IS;
        if (!b_given && !overlap)
            e = tb ? gemm_copy(es, mode, n, k, b, ldb, p, b2, ld, s) : gemm_pack(es, mode, k, n, b, ldb, p, b2, ld, s);
        unsigned char *pa = p + l.a;
        if (e == cudaSuccess && wg_copies_a(precision, kind, k, a, lda, es)) { /* 3xTF32's A as it is */
            e = gemm_copy(es, mode == GEMM_SPLIT ? GEMM_AS_IS : mode, m, k, a, lda, pa, NULL, ld, s);
            g.a = pa;
            g.lda = ld;
        }
    }
    if (e != cudaSuccess)
        return e;
    if (precision == GEMM_3XTF32) {
        g.ksplit = l.ksplit;
        if (g.ksplit > 1) {
            g.part = (float *)(p + l.part);
            g.arrived = (int *)(p + l.arrived);
            if ((e = cudaMemsetAsync(g.arrived, 0, l.end - l.arrived, s)) != cudaSuccess)
                return e;
        }
        return wg3_launch(kind, g, b2, sms, s);
    }
    if (precision == GEMM_TF32)
        return wg_launch<GEMM_TF32, false>(kind, g, sms, s);
    return b_given && !tb ? wg_launch<GEMM_BF16, true>(kind, g, sms, s) : wg_launch<GEMM_BF16, false>(kind, g, sms, s);
}

extern "C" int climb_gemm_tc_aligned(int precision, const void *a, size_t lda, const void *b, size_t ldb)
{
    const size_t ch = precision == CLIMB_GEMM_PREC_BF16 ? 8 : 4;
    return ((uintptr_t)a | (uintptr_t)b) % 16 == 0 && lda % ch == 0 && ldb % ch == 0;
}

/* 1 where the 128 x 256 tiles of an m x n C are fewer than half of `sms` SMs (the tuning's shape class "few"). */
static int gemm_few_tiles(size_t m, size_t n, int sms)
{
    return (m + GEMM_BM - 1) / GEMM_BM * ((n + GEMM_WS_BN - 1) / GEMM_WS_BN) < (size_t)sms / 2;
}

extern "C" int climb_gemm_wg_pick(int precision, size_t m, size_t n, int sms, const climb_gemm_tuning *tn)
{
    if (tn && (tn->kernel == CLIMB_GEMM_WG_TMA || tn->kernel == CLIMB_GEMM_WG_WS ||
               tn->kernel == CLIMB_GEMM_WG_PERSISTENT || tn->kernel == CLIMB_GEMM_WG_OVERLAP))
        return precision == GEMM_3XTF32 && tn->kernel == CLIMB_GEMM_WG_TMA ? CLIMB_GEMM_WG_WS
               : precision != GEMM_TF32 && tn->kernel == CLIMB_GEMM_WG_OVERLAP ? CLIMB_GEMM_WG_PERSISTENT
                                                                               : tn->kernel;
    if (precision == GEMM_3XTF32)
        return CLIMB_GEMM_WG_WS;
    return gemm_few_tiles(m, n, sms) ? CLIMB_GEMM_WG_TMA : CLIMB_GEMM_WG_PERSISTENT;
}

extern "C" void climb_gemm_default_tuning(int precision, size_t m, size_t n, int sms, climb_gemm_tuning *t)
{
    t->kernel = climb_gemm_wg_pick(precision, m, n, sms, NULL);
    t->group = GEMM_GROUP;
}

/* The group a tuning gives (GEMM_GROUP without one). */
static int tuned_group(const climb_gemm_tuning *tn) { return tn ? tn->group : GEMM_GROUP; }
static int group_ok(const climb_gemm_tuning *tn) { return !tn || (tn->group >= 1 && tn->group <= GEMM_MAX_GROUP); }

/* *sms: the current device's SM count where it is an sm_90 GPU (the wgmma kernels' path), else 0.
 * The error of a device that cannot be asked (cleared). */
static cudaError_t wg_sms(int *sms)
{
    int dev = 0, major = 0, minor = 0, n = 0;
    cudaError_t e;
    *sms = 0;
    if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess) {
        cudaGetLastError();
        return e;
    }
    *sms = major == 9 && minor == 0 && n > 0 ? n : 0;
    return cudaSuccess;
}

/* Off Hopper, B given as B^T goes back to k x n in the workspace (16-byte rows from a 256-byte boundary) for the
 * kernels that read B as stored: its bytes, 256 of slack included; 0 where that wraps. */
static size_t tc_bt_bytes(int precision, size_t n, size_t k)
{
    const size_t es = precision == GEMM_BF16 ? 2 : 4, ld = wg_ld(n, es);
    size_t b;
    return ld && climb_mul3_fits(k ? k : 1, ld, es, &b) && climb_add_fits(b, 256, &b) ? b : 0;
}

extern "C" cudaError_t climb_gemm_tc_workspace(int precision, size_t m, size_t n, size_t k, const void *a,
                                               size_t lda, const void *b, size_t ldb, int tb,
                                               const climb_gemm_tuning *tn, size_t *bytes)
{
    *bytes = 0;
    int sms;
    const cudaError_t e = wg_sms(&sms);
    if (e != cudaSuccess || m == 0 || n == 0 || (sms == 0 && (!tb || k == 0)))
        return e;
    *bytes = sms ? climb_gemm_wg_workspace(precision, climb_gemm_wg_pick(precision, m, n, sms, tn), m, n, k, a, lda,
                                           b, ldb, tb, sms)
                 : tc_bt_bytes(precision, n, k);
    return *bytes ? cudaSuccess : cudaErrorInvalidValue;
}

extern "C" cudaError_t climb_gemm_tc_async(int precision, size_t m, size_t n, size_t k, float alpha, const void *a,
                                           size_t lda, const void *b, size_t ldb, int tb, float beta, float *c,
                                           size_t ldc, void *ws, size_t ws_bytes, const climb_gemm_tuning *tune,
                                           cudaStream_t s)
{
    if (m == 0 || n == 0)
        return cudaSuccess;
    const size_t tm = (m + GEMM_BM - 1) / GEMM_BM, tn = (n + GEMM_BN - 1) / GEMM_BN;
    if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX || tm * tn > INT32_MAX || precision < 0 ||
        precision >= GEMM_PRECISIONS || !group_ok(tune))
        return cudaErrorInvalidValue;
    int sms;
    const cudaError_t de = wg_sms(&sms);
    if (de != cudaSuccess)
        return de;
    if (sms > 0)
        return climb_gemm_wg_async(precision, climb_gemm_wg_pick(precision, m, n, sms, tune), m, n, k, alpha, a, lda, b,
                                   ldb, tb, beta, c, ldc, ws, ws_bytes, sms, tuned_group(tune), s);
    if (tb && k) { /* these kernels read B as stored: B^T transposed back into the workspace first */
        const size_t es = precision == GEMM_BF16 ? 2 : 4, need = tc_bt_bytes(precision, n, k);
        if (!need || !ws || ws_bytes < need)
            return cudaErrorInvalidValue;
        void *p = (void *)(((uintptr_t)ws + 255) / 256 * 256);
        const cudaError_t pe = gemm_pack(es, GEMM_AS_IS, n, k, b, ldb, p, NULL, wg_ld(n, es), s);
        if (pe != cudaSuccess)
            return pe;
        b = p;
        ldb = wg_ld(n, es);
    }
    const int vec = climb_gemm_tc_aligned(precision, a, lda, b, ldb);
    gemm_args g = {(int)m, (int)n, (int)k, lda, ldb, ldc, alpha, beta, a, b, c, vec};
    g.group = tuned_group(tune);
    const unsigned blocks = (unsigned)(tm * tn);
    cudaError_t e = cudaSuccess;
#define GEMM_TC_LAUNCH(P)                                                                                         \
    if (vec) {                                                                                                    \
        e = allow_pipe_smem<P>();                                                                                 \
        if (e == cudaSuccess)                                                                                     \
            gemm_pipe_kernel<P><<<blocks, GEMM_THREADS, GEMM_STAGES * gemm_smem<P>::STAGE_BYTES, s>>>(g, (int)tm, \
                                                                                                    (int)tn);     \
    } else {                                                                                                      \
        gemm_mma_kernel<P><<<blocks, GEMM_THREADS, 0, s>>>(g, (int)tm, (int)tn);                                  \
    }
    if (precision == GEMM_BF16) {
        GEMM_TC_LAUNCH(GEMM_BF16)
    } else if (precision == GEMM_TF32) {
        GEMM_TC_LAUNCH(GEMM_TF32)
    } else {
        GEMM_TC_LAUNCH(GEMM_3XTF32)
    }
#undef GEMM_TC_LAUNCH
    return e != cudaSuccess ? e : cudaGetLastError();
}

/* ---------------------------------------------------------------- the registry */

template <int P> static int pipe_kernels_p(climb_kernel_desc *o, int max)
{
    allow_pipe_smem<P>();
    return climb_one_kernel(o, max, (const void *)gemm_pipe_kernel<P>, "gemm_pipe_kernel", GEMM_THREADS,
                            GEMM_STAGES * gemm_smem<P>::STAGE_BYTES);
}
/* The CUDA-core rung's are SGEMM's best rung's (its built-in tiles). */
static int k_cuda_cores(climb_dtype t, const climb_device_info *d, const int *, climb_kernel_desc *o, int max)
{
    const climb_workload *s = &climb_sgemm_workload;
    return climb_rung_kernels(s, climb_best_rung(s), t, d, o, max);
}
/* The kernels' resources are the BF16 instance's (the family the ladder is benchmarked in first). */
static int k_mma(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)gemm_mma_kernel<GEMM_BF16>, "gemm_mma_kernel", GEMM_THREADS, 0);
}
static int k_pipe(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return pipe_kernels_p<GEMM_BF16>(o, max);
}

static int k_wgmma(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    allow_wgmma_smem<GEMM_BF16>();
    return climb_one_kernel(o, max, (const void *)gemm_wgmma_kernel<GEMM_BF16>, "gemm_wgmma_kernel", GEMM_THREADS,
                            GEMM_STAGES * GEMM_WG_STAGE_BYTES);
}

/* The TMA kernels' as they run on BF16 with B read as stored. */
static int k_ws(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    allow_ws_smem<GEMM_BF16, 1, true>();
    return climb_one_kernel(o, max, (const void *)gemm_ws_kernel<GEMM_BF16, 1, true>, "gemm_ws_kernel",
                            GEMM_WS_THREADS, GEMM_WS_SMEM);
}
static int k_tma(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    allow_tma_smem<GEMM_BF16, true>();
    return climb_one_kernel(o, max, (const void *)gemm_tma_kernel<GEMM_BF16, true>, "gemm_tma_kernel", GEMM_THREADS,
                            GEMM_TMA_SMEM);
}

/* The overlapped transpose's: the TF32 instance of the warp-specialised kernel (its only precision). */
static int k_overlap(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    allow_ws_smem<GEMM_TF32, 1, false>();
    return climb_one_kernel(o, max, (const void *)gemm_ws_kernel<GEMM_TF32, 1, false>, "gemm_ws_kernel<tf32>",
                            GEMM_WS_THREADS, GEMM_WS_SMEM);
}

/* The best rung's kernels: on an sm_90 GPU the tuning's (tma's for CLIMB_GEMM_WG_TMA, else the warp-specialised
 * kernel's, which the persistent rung launches too), else the pipelined one's. */
static int k_best(climb_dtype t, const climb_device_info *d, const int *tn, climb_kernel_desc *o, int max)
{
    if (!(d && d->cc_major == 9 && d->cc_minor == 0))
        return k_pipe(t, d, tn, o, max);
    return tn && tn[0] == CLIMB_GEMM_WG_TMA       ? k_tma(t, d, tn, o, max)
           : tn && tn[0] == CLIMB_GEMM_WG_OVERLAP ? k_overlap(t, d, tn, o, max)
                                                  : k_ws(t, d, tn, o, max);
}

typedef struct gemm_rung {
    climb_rung_info info;
    int aligned;  /* 1: needs case_args' vec (16-byte rows for cp.async) */
    int cublas;   /* 1: cuBLAS's, on the shared handle */
    int simt;     /* 1: the CUDA-core rung (its split-K workspace made at prepare) */
    int wgmma;    /* Hopper's warp-group MMA (sm_90a), its workspace made at prepare: the CLIMB_GEMM_WG_ kind */
    int best;     /* the C API's path (climb_gemm_tc_async): a wgmma kernel on sm_90 (climb_gemm_wg_pick), pipelined
                     or mma_sync otherwise; its workspace made at prepare */
} gemm_rung;

static const gemm_rung GEMM_RUNGS[] = {
    {.info = {.name = "cublas",
              .idea = "vendor, in the case's precision: cublasGemmEx with BF16 inputs and FP32 compute (bf16), "
                      "with CUBLAS_COMPUTE_32F_FAST_TF32 (tf32); cublasSgemm on the CUDA cores, pedantic FP32 "
                      "(3xtf32: the speed and the accuracy to beat)",
              .needs = "m, n, k and leading dimensions below 2^31", .kind = CLIMB_RUNG_VENDOR, .kernels = NULL,
              .launch = launch_cublas},
     .cublas = 1},
    {.info = {.name = "cuda_cores",
              .idea = "where the FP32 ladder ends: SGEMM's tuned rung on the CUDA cores (FFMA), on the inputs' FP32 "
                      "values",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_cuda_cores, .launch = launch_cuda_cores},
     .simt = 1},
    {.info = {.name = "mma_sync",
              .idea = "the tensor cores: mma.sync (m16n8k16 BF16, m16n8k8 TF32) from registers, a warp 64 x 32 of "
                      "a 128 x 128 tile, the tiles through shared memory (load, barrier, multiply, barrier)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_mma, .launch = launch_mma}},
    {.info = {.name = "pipelined",
              .idea = "four stages in flight by cp.async (one barrier a stage, the loads under the products); BF16 "
                      "fragments by ldmatrix, A as stored and B transposed on the way",
              .needs = "16-byte aligned operands whose rows are whole 16-byte chunks (lda and ldb multiples of 8 "
                       "BF16 or 4 FP32 elements)",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_pipe, .launch = launch_pipe},
     .aligned = 1},
    {.info = {.name = "wgmma",
              .idea = "Hopper's warp-group MMA: two warp groups of 64 x 128 a block, wgmma m64n128 reading both "
                      "operands from shared memory by descriptors (core matrices, no swizzle), four cp.async stages; "
                      "B transposed first in every run, as wgmma reads both operands K-major (for TF32, B and A rounded to TF32 "
                      "on the way: wgmma would truncate)",
              .needs = "an sm_90 GPU (the sm_90a instructions); bf16 or tf32",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_wgmma, .launch = launch_wgmma},
     .wgmma = CLIMB_GEMM_WG_CPASYNC},
    {.info = {.name = "tma",
              .idea = "the tiles brought by the Tensor Memory Accelerator: one thread issues 2-D box copies a stage "
                      "into the 128-byte swizzle (no bank conflicts for wgmma's reads, zeros past the edges), counted "
                      "down on the stage's mbarrier that every thread waits on; BF16's B read as stored, MN-major "
                      "(wgmma's transposed form), so no B^T is made in the run (TF32's still is: it has no "
                      "transposed form, and its inputs go in rounded)",
              .needs = "an sm_90 GPU (the sm_90a instructions); bf16 or tf32",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_tma, .launch = launch_tma},
     .wgmma = CLIMB_GEMM_WG_TMA},
    {.info = {.name = "warp_specialized",
              .idea = "warp specialisation and a 128 x 256 tile: a producer warp group issues the TMA copies as soon "
                      "as a stage is released (its mbarrier) and gives its registers to two consumer warp groups "
                      "(setmaxnreg), which multiply 64 x 256 each (wgmma m64n256) and release each stage when done; "
                      "in TF32 each consumer loads its A from the stage into registers, rounds it there and multiplies "
                      "from registers (wgmma's RS form): no rounded copy of A, no pass of shared memory over it",
              .needs = "an sm_90 GPU (the sm_90a instructions); any precision (3xtf32: a kernel of its own, 128 x "
                       "128 tiles, B^T split in the workspace and A in registers, four stages of three tiles)",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_ws, .launch = launch_ws},
     .wgmma = CLIMB_GEMM_WG_WS},
    {.info = {.name = "persistent",
              .idea = "the same kernel persistent: a block an SM looping over the tiles, its stages and their "
                      "phases running on from tile to tile, so the producer loads the next tile while the consumers "
                      "store this one; the stores go out by TMA (beta 0, C's rows 16-byte chunks): a warp group "
                      "writes its 64 x 256 in chunks of 64 x 32 into two swizzled buffers, one thread's TMA copy "
                      "takes each out, and the group starts the next tile's products while the copies run",
              .needs = "an sm_90 GPU (the sm_90a instructions); any precision (3xtf32: a kernel of its own, 128 x "
                       "128 tiles, B^T split in the workspace and A in registers, four stages of three tiles)",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_ws, .launch = launch_persistent},
     .wgmma = CLIMB_GEMM_WG_PERSISTENT},
    {.info = {.name = "overlapped_transpose",
              .idea = "TF32's B^T made inside the persistent kernel, not in a pass before it: four of its blocks "
                      "transpose and round B (a stage's 256 x 32 panel at a time, five panels in flight a block by "
                      "cp.async through a swizzled ring of shared memory) while the others multiply, each "
                      "multiplying block's producer waiting on a panel's flag before TMA reads it; the multiplying "
                      "blocks go down groups of tile rows a wave of about four tile columns wide, and the panels "
                      "are made in that order",
              .needs = "an sm_90 GPU (the sm_90a instructions); tf32 (bf16 reads B as stored, 3xtf32's split B^T is "
                       "made before its kernel); B's rows 16-byte chunks on 16-byte boundaries",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_overlap, .launch = launch_overlap},
     .wgmma = CLIMB_GEMM_WG_OVERLAP},
    {.info = {.name = "clusters",
              .idea = "thread-block clusters of two: two blocks take the tiles one above the other, which share "
                      "their tile of B^T; each block's producer loads half of it, multicast by TMA into both "
                      "blocks' shared memory, so B crosses from the L2 once for the two (persistent, as above)",
              .needs = "an sm_90 GPU (the sm_90a instructions); bf16 or tf32",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_ws, .launch = launch_clusters},
     .wgmma = CLIMB_GEMM_WG_CLUSTERS},
    {.info = {.name = "gemm_best",
              .idea = "what climb_gemm_ex runs: on an sm_90 GPU for bf16 and tf32 the persistent rung, or tma's 128 x "
                      "128 tiles where the 128 x 256 ones would fill less than half the SMs, for 3xtf32 the "
                      "warp_specialized rung; pipelined on other GPUs (mma_sync where the operands are not 16-byte "
                      "rows)",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_best, .launch = launch_best},
     .best = 1},
};

static const climb_rung_info *gemm_rung_info(int i) { return &GEMM_RUNGS[i].info; }

/* ---------------------------------------------------------------- options */

static const char *const GEMM_PRECISIONS_NAMES[] = {"bf16", "tf32", "3xtf32", NULL};
static const char *const GEMM_INPUTS[] = {"uniform", "spread", NULL};
enum { OPT_PRECISION, OPT_INPUTS, OPT_ALPHA, OPT_BETA, OPT_PAD };
static constexpr climb_option GEMM_OPTIONS[] = {
    {.name = "precision", .kind = CLIMB_OPT_CHOICE,
     .meaning = "bf16: BF16 inputs; tf32: FP32 inputs rounded to TF32; 3xtf32: FP32 inputs as two TF32 terms each, "
                "three products (FP32-class accuracy); FP32 accumulation and output in all three",
     .def = "bf16", .choices = GEMM_PRECISIONS_NAMES, .keys_tuning = 1, .check_def = "all",
     .tune_def = "all"},
    {.name = "inputs", .kind = CLIMB_OPT_CHOICE,
     .meaning = "uniform: A, B and C uniform in [-1, 1]; spread: each times 2^e, e uniform in [-12, 12]",
     .def = "uniform", .choices = GEMM_INPUTS, .generator = 1, .check_def = "all"},
    {.name = "alpha", .kind = CLIMB_OPT_FLOAT, .meaning = "C = alpha A B + beta C", .def = "1", .min = -1000,
     .max = 1000},
    {.name = "beta", .kind = CLIMB_OPT_FLOAT, .meaning = "beta != 0 reads C (restored before every run)",
     .def = "0", .min = -1000, .max = 1000},
    {.name = "pad", .kind = CLIMB_OPT_INT,
     .meaning = "elements of padding after each row of A, B and C (lda = k + pad, ldb = ldc = n + pad)", .def = "0",
     .min = 0, .max = 64},
};
CLIMB_OPTION_AT(GEMM_OPTIONS, OPT_PRECISION, "precision");
CLIMB_OPTION_AT(GEMM_OPTIONS, OPT_INPUTS, "inputs");
CLIMB_OPTION_AT(GEMM_OPTIONS, OPT_ALPHA, "alpha");
CLIMB_OPTION_AT(GEMM_OPTIONS, OPT_BETA, "beta");
CLIMB_OPTION_AT(GEMM_OPTIONS, OPT_PAD, "pad");

/* ---------------------------------------------------------------- harness glue */

static int gemm_init(climb_case *c)
{
    const climb_case_params *p = &c->p;
    c->m = p->shape.d[0];
    c->n = p->shape.d[1];
    c->k = p->shape.d[2];
    const size_t pad = (size_t)p->opts[OPT_PAD].i;
    c->prec = p->opts[OPT_PRECISION].choice;
    c->spread = p->opts[OPT_INPUTS].choice == 1;
    c->esize = c->prec == CLIMB_GEMM_PREC_BF16 ? 2 : 4;
    c->lda = c->k + pad;
    c->ldb = c->n + pad;
    c->ldc = c->n + pad;
    c->alpha = (float)p->opts[OPT_ALPHA].f;
    c->beta = (float)p->opts[OPT_BETA].f;
    c->bound = climb_gemm_bound((climb_gemm_precision)c->prec, c->k);
    c->sms = p->dev ? p->dev->sms : 1;
    climb_gemm_default_tuning(c->prec, c->m, c->n, c->sms, &c->tn);
    if (c->m > INT32_MAX || c->n > INT32_MAX || c->k > INT32_MAX || c->lda > INT32_MAX || c->ldb > INT32_MAX) {
        fprintf(stderr, "climb: gemm %zu x %zu x %zu: sizes and leading dimensions must be below 2^31\n", c->m, c->n,
                c->k);
        return -1;
    }
    return 0;
}

static int gemm_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    const climb_gemm_precision p = (climb_gemm_precision)c->prec;
    const size_t na = c->m * c->lda, nb = c->k * c->ldb;
    if (p == CLIMB_GEMM_PREC_BF16) {
        climb_gemm_fill(&rng, p, c->spread, c->h_a32, (uint16_t *)c->h_a, na);
        climb_gemm_fill(&rng, p, c->spread, c->h_b32, (uint16_t *)c->h_b, nb);
    } else {
        climb_gemm_fill(&rng, p, c->spread, (float *)c->h_a, NULL, na);
        climb_gemm_fill(&rng, p, c->spread, (float *)c->h_b, NULL, nb);
    }
    /* C0 in FP32 (the output's format) */
    climb_gemm_fill(&rng, CLIMB_GEMM_PREC_TF32, c->spread, c->h_c0, NULL, c->m * c->ldc);
    return 0;
}

static void gemm_fini(climb_case *c)
{
    cudaFree(c->d_ws);
    cudaFree(c->d_wg);
    free(c->want);
    free(c->mag);
    free(c->rows);
}

static size_t at_least_1(size_t n) { return n ? n : 1; }
static size_t a_bytes(const climb_case *c) { return at_least_1(c->m * c->lda) * c->esize; }
static size_t b_bytes(const climb_case *c) { return at_least_1(c->k * c->ldb) * c->esize; }
static size_t a32_bytes(const climb_case *c) { return c->prec == CLIMB_GEMM_PREC_BF16 ? at_least_1(c->m * c->lda) * 4 : 0; }
static size_t b32_bytes(const climb_case *c) { return c->prec == CLIMB_GEMM_PREC_BF16 ? at_least_1(c->k * c->ldb) * 4 : 0; }
static size_t c_bytes(const climb_case *c) { return at_least_1(c->m * c->ldc) * 4; }

#define GEMM_IO (CLIMB_BUF_HOST | CLIMB_BUF_DEVICE)
static const climb_buffer GEMM_BUFFERS[] = {
    {.name = "A", .flags = GEMM_IO | CLIMB_BUF_INPUT, .bytes = a_bytes, .host_at = offsetof(climb_case, h_a),
     .device_at = offsetof(climb_case, d_a)},
    {.name = "B", .flags = GEMM_IO | CLIMB_BUF_INPUT, .bytes = b_bytes, .host_at = offsetof(climb_case, h_b),
     .device_at = offsetof(climb_case, d_b)},
    {.name = "A as FP32", .flags = GEMM_IO | CLIMB_BUF_INPUT, .bytes = a32_bytes,
     .host_at = offsetof(climb_case, h_a32), .device_at = offsetof(climb_case, d_a32)},
    {.name = "B as FP32", .flags = GEMM_IO | CLIMB_BUF_INPUT, .bytes = b32_bytes,
     .host_at = offsetof(climb_case, h_b32), .device_at = offsetof(climb_case, d_b32)},
    {.name = "C0", .flags = GEMM_IO | CLIMB_BUF_INPUT, .bytes = c_bytes, .host_at = offsetof(climb_case, h_c0),
     .device_at = offsetof(climb_case, d_c0)},
    {.name = "C", .flags = GEMM_IO | CLIMB_BUF_OUTPUT, .bytes = c_bytes, .host_at = offsetof(climb_case, h_c),
     .device_at = offsetof(climb_case, d_c), .poison = 0xFF},
};
#undef GEMM_IO

static int gemm_empty(const climb_case *c) { return c->m == 0 || c->n == 0; }

static const char *gemm_describe(const climb_case *c)
{
    static const char *const what[GEMM_PRECISIONS][2] = {
        {"BF16 A and B, FP32 C, uniform in [-1, 1] (A and B rounded to BF16)",
         "BF16 A and B, FP32 C, uniform in [-1, 1] times 2^e, e in [-12, 12] (A and B rounded to BF16)"},
        {"FP32 A, B and C uniform in [-1, 1], multiplied in TF32",
         "FP32 A, B and C uniform in [-1, 1] times 2^e, e in [-12, 12], multiplied in TF32"},
        {"FP32 A, B and C uniform in [-1, 1], multiplied as 3xTF32",
         "FP32 A, B and C uniform in [-1, 1] times 2^e, e in [-12, 12], multiplied as 3xTF32"}};
    return what[c->prec][c->spread];
}

/* The FP32 values of A and B on the host. */
static const float *ha(const climb_case *c) { return c->prec == CLIMB_GEMM_PREC_BF16 ? c->h_a32 : (const float *)c->h_a; }
static const float *hb(const climb_case *c) { return c->prec == CLIMB_GEMM_PREC_BF16 ? c->h_b32 : (const float *)c->h_b; }

/* Row i of want and mag on the CPU, in double. */
static void cpu_row(const climb_case *c, size_t i, double *want, double *mag)
{
    climb_sgemm_ref_row(ha(c), c->lda, 0, hb(c), c->ldb, 0, c->h_c0 + i * c->ldc, c->n, c->k, c->alpha, c->beta, i,
                        want, mag);
}

/* x (n floats, rows ld apart) as doubles, |x| where magnitude is set, packed (rows `cols` apart). */
__global__ void gemm_to_f64_kernel(const float *x, size_t rows, size_t cols, size_t ld, int magnitude, double *y)
{
    const size_t n = rows * cols;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const double v = x[i / cols * ld + i % cols];
        y[i] = magnitude ? fabs(v) : v;
    }
}

/* A B and |A| |B| in FP64 on the GPU (cuBLAS's DGEMM), into want and mag (m x n each), then alpha and beta's terms
 * added on the host. 0, or -1 (printed: out of device memory, or cuBLAS failed). */
static int gpu_reference(climb_case *c)
{
    const size_t m = c->m, n = c->n, k = c->k;
    double *d_a = NULL, *d_b = NULL, *d_c = NULL;
    int rc = -1;
    if (climb_cublas_shared(&c->cublas, "gemm") != 0)
        return -1;
    cudaError_t e = cudaMalloc((void **)&d_a, at_least_1(m * k) * 8);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_b, at_least_1(k * n) * 8);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_c, at_least_1(m * n) * 8);
    if (e != cudaSuccess) {
        fprintf(stderr, "climb: out of device memory for gemm's FP64 reference (%zu bytes): %s\n",
                (m * k + k * n + m * n) * 8, cudaGetErrorString(e));
        cudaGetLastError();
        goto done;
    }
    for (int pass = 0; pass < 2; pass++) { /* the product, then the magnitudes' */
        const double one = 1, zero = 0;
        if (k) {
            gemm_to_f64_kernel<<<1024, 256>>>(a32(c), m, k, c->lda, pass, d_a);
            gemm_to_f64_kernel<<<1024, 256>>>(b32(c), k, n, c->ldb, pass, d_b);
        }
        cublasStatus_t st = cublasSetStream(c->cublas, 0);
        if (st == CUBLAS_STATUS_SUCCESS && k)
            st = cublasDgemm(c->cublas, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, d_b, (int)n, d_a, (int)k,
                             &zero, d_c, (int)n);
        if (st != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "climb: gemm's FP64 reference: cublasDgemm: %s\n", cublasGetStatusString(st));
            goto done;
        }
        if (!k)
            e = cudaMemset(d_c, 0, m * n * 8);
        if (e == cudaSuccess)
            e = cudaMemcpy(pass ? c->mag : c->want, d_c, m * n * 8, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) {
            fprintf(stderr, "climb: gemm's FP64 reference: %s\n", cudaGetErrorString(e));
            cudaGetLastError();
            goto done;
        }
    }
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            const double c0 = c->beta != 0 ? (double)c->beta * c->h_c0[i * c->ldc + j] : 0;
            c->want[i * n + j] = (double)c->alpha * c->want[i * n + j] + c0;
            c->mag[i * n + j] = fabs((double)c->alpha) * c->mag[i * n + j] + fabs(c0);
        }
    rc = 0;
done:
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return rc;
}

#define GEMM_CPU_ROWS 8

static int gemm_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    const size_t m = c->m, n = c->n;
    c->want = (double *)malloc(at_least_1(m * n) * sizeof(double));
    c->mag = (double *)malloc(at_least_1(m * n) * sizeof(double));
    if (!c->want || !c->mag)
        return climb_host_oom("gemm's reference (%zu x %zu doubles, twice)", m, n);
    if (mode == CLIMB_REF_CPU) {
        for (size_t i = 0; i < m; i++)
            cpu_row(c, i, c->want + i * n, c->mag + i * n);
        snprintf(desc, desclen, "CPU, FP64; |error| <= %.3g (|alpha| sum|a b| + |beta c|) each (the %s bound)",
                 c->bound, GEMM_PRECISIONS_NAMES[c->prec]);
        return 0;
    }
    /* large: cuBLAS's DGEMM of the same values, checked on CPU rows */
    if (gpu_reference(c) != 0)
        return -1;
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed ^ 0x6e77ULL);
    c->rows = climb_rng_samples(&rng, m, GEMM_CPU_ROWS, &c->n_rows);
    double *w = (double *)malloc(at_least_1(n) * sizeof(double)), *g = (double *)malloc(at_least_1(n) * sizeof(double));
    if (!c->rows || !w || !g) {
        free(w);
        free(g);
        return climb_host_oom("gemm's reference rows");
    }
    int bad = 0;
    for (size_t r = 0; r < c->n_rows && !bad; r++) {
        const size_t i = c->rows[r];
        cpu_row(c, i, w, g);
        for (size_t j = 0; j < n && !bad; j++) /* two FP64 sums of k products: within 2 (k + 2) 2^-53 mag */
            if (!(fabs(c->want[i * n + j] - w[j]) <= 2 * ((double)c->k + 2) * 0x1p-53 * g[j])) {
                snprintf(desc, desclen, "cuBLAS's DGEMM C[%zu][%zu] = %.17g, CPU %.17g", i, j, c->want[i * n + j],
                         w[j]);
                bad = 1;
            }
    }
    free(w);
    free(g);
    if (bad)
        return 1;
    snprintf(desc, desclen, "FP64: cuBLAS's DGEMM of the same values (%zu CPU rows agree); |error| <= %.3g (|alpha| "
                            "sum|a b| + |beta c|) each (the %s bound)",
             c->n_rows, c->bound, GEMM_PRECISIONS_NAMES[c->prec]);
    return 0;
}

/* The CPU's product over ref_cost_limit: cuBLAS's DGEMM then. */
static double gemm_ref_cost(const climb_case *c) { return (double)c->m * c->n * c->k; }

static const char *gemm_refuses(const climb_case *c, int rung)
{
    if (GEMM_RUNGS[rung].wgmma) {
        if (!c->p.dev || c->p.dev->cc_major != 9 || c->p.dev->cc_minor != 0)
            return "wgmma is sm_90a's (Hopper): this GPU has no such instruction";
        if (c->prec == CLIMB_GEMM_PREC_3XTF32 &&
            (GEMM_RUNGS[rung].wgmma < CLIMB_GEMM_WG_WS || GEMM_RUNGS[rung].wgmma == CLIMB_GEMM_WG_CLUSTERS))
            return "3xtf32's split operands (four tiles a stage) are the warp-specialised kernels' alone";
        if (GEMM_RUNGS[rung].wgmma == CLIMB_GEMM_WG_OVERLAP && c->prec != CLIMB_GEMM_PREC_TF32)
            return "B^T made inside the kernel is tf32's: bf16 reads B as stored, 3xtf32's split B^T is made before "
                   "its kernel";
        if (GEMM_RUNGS[rung].wgmma == CLIMB_GEMM_WG_OVERLAP && !wg_overlaps(GEMM_TF32, CLIMB_GEMM_WG_OVERLAP, c->k,
                                                                           c->d_b, c->ldb, 0))
            return "the transposing blocks copy B's rows in 16-byte chunks: ldb must be a multiple of 4 and B 16-byte "
                   "aligned, and k above 0";
        if (GEMM_RUNGS[rung].wgmma == CLIMB_GEMM_WG_OVERLAP && c->sms < 2 * CLIMB_GEMM_TRB_BLOCKS)
            return "fewer SMs than twice the transposing blocks";
        if (tiles_m(c) * tiles_n(c) > INT32_MAX)
            return "more than 2^31 - 1 tiles of 128 x 128";
        return NULL;
    }
    if (GEMM_RUNGS[rung].aligned && !case_args(c).vec)
        return c->prec == CLIMB_GEMM_PREC_BF16 ? "cp.async moves 16-byte chunks: lda and ldb must be multiples of 8 BF16 "
                                            "elements and the operands 16-byte aligned (mma_sync takes any)"
                                          : "cp.async moves 16-byte chunks: lda and ldb must be multiples of 4 FP32 "
                                            "elements and the operands 16-byte aligned (mma_sync takes any)";
    if (!GEMM_RUNGS[rung].cublas && !GEMM_RUNGS[rung].simt && tiles_m(c) * tiles_n(c) > INT32_MAX)
        return "more than 2^31 - 1 tiles of 128 x 128";
    return NULL;
}

static int gemm_prepare(climb_case *c, int rung)
{
    if (GEMM_RUNGS[rung].simt) {
        const size_t need = climb_sgemm_workspace(NULL, 0, 0, c->m, c->n, c->k, c->sms);
        if (need > c->ws_bytes) {
            cudaFree(c->d_ws);
            c->d_ws = NULL;
            c->ws_bytes = 0;
            const cudaError_t e = cudaMalloc((void **)&c->d_ws, need);
            if (e != cudaSuccess) {
                fprintf(stderr, "climb: out of device memory for the CUDA-core rung's split-K workspace (%zu bytes): "
                                "%s\n", need, cudaGetErrorString(e));
                cudaGetLastError();
                return -1;
            }
            c->ws_bytes = need;
        }
        return 0;
    }
    if (GEMM_RUNGS[rung].wgmma || GEMM_RUNGS[rung].best) {
        size_t need = 0;
        if (GEMM_RUNGS[rung].wgmma)
            need = climb_gemm_wg_workspace(c->prec, GEMM_RUNGS[rung].wgmma, c->m, c->n, c->k, c->d_a, c->lda, c->d_b,
                                           c->ldb, 0, c->sms);
        else if (climb_gemm_tc_workspace(c->prec, c->m, c->n, c->k, c->d_a, c->lda, c->d_b, c->ldb, 0, &c->tn, &need) !=
                 cudaSuccess)
            need = 0;
        if (!need && !GEMM_RUNGS[rung].best) {
            fprintf(stderr, "climb: gemm: the wgmma rungs' workspace overflows\n");
            return -1;
        }
        if (need > c->wg_bytes) {
            cudaFree(c->d_wg);
            c->d_wg = NULL;
            c->wg_bytes = 0;
            const cudaError_t e = cudaMalloc(&c->d_wg, need);
            if (e != cudaSuccess) {
                fprintf(stderr, "climb: out of device memory for the wgmma rungs' B^T and A (%zu bytes): %s\n", need,
                        cudaGetErrorString(e));
                cudaGetLastError();
                return -1;
            }
            c->wg_bytes = need;
        }
        /* the workspace poisoned (NaN in either format) for each rung, so that a B^T or A this rung fails to make
         * (or makes after its kernel reads it: the overlapped transpose) is not one an earlier rung left there */
        if (c->wg_bytes) { /* on the legacy stream, which the run's stream does not wait for: so waited for here */
            CLIMB_CHECK(cudaMemset(c->d_wg, 0xff, c->wg_bytes));
            CLIMB_CHECK(cudaDeviceSynchronize());
        }
        return 0;
    }
    if (GEMM_RUNGS[rung].info.launch == launch_pipe) {
        const cudaError_t e = c->prec == CLIMB_GEMM_PREC_BF16   ? allow_pipe_smem<GEMM_BF16>()
                              : c->prec == CLIMB_GEMM_PREC_TF32 ? allow_pipe_smem<GEMM_TF32>()
                                                           : allow_pipe_smem<GEMM_3XTF32>();
        CLIMB_CHECK(e);
        return 0;
    }
    if (!GEMM_RUNGS[rung].cublas)
        return 0;
    if (!c->cublas && climb_cublas_shared(&c->cublas, "gemm") != 0)
        return -1;
    /* the shared handle's math mode, set on every prepare: pedantic FP32 for 3xtf32's SGEMM; the default otherwise
     * (cublasGemmEx's compute type says what runs) */
    const cublasStatus_t st =
        cublasSetMathMode(c->cublas, c->prec == CLIMB_GEMM_PREC_3XTF32 ? CUBLAS_PEDANTIC_MATH : CUBLAS_DEFAULT_MATH);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "climb: gemm: cublasSetMathMode: %s\n", cublasGetStatusString(st));
        return -1;
    }
    return 0;
}

static const char *gemm_modifies(const climb_case *c, int rung)
{
    (void)rung;
    return c->beta != 0 ? "C is read and written when beta != 0 (restored from C0 before every run)" : NULL;
}

static int gemm_reset(climb_case *c, cudaStream_t s)
{
    CLIMB_CHECK(cudaMemcpyAsync(c->d_c, c->d_c0, c->m * c->ldc * 4, cudaMemcpyDeviceToDevice, s));
    return 0;
}

/* Every element against the FP64 reference within the precision's bound; the error relative to mag kept for the
 * note. */
static int gemm_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    const size_t m = c->m, n = c->n;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    double emax = 0, esq = 0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            const double got = c->h_c[i * c->ldc + j], want = c->want[i * n + j], mag = c->mag[i * n + j];
            climb_compare_close(&k, got, want, c->bound * mag, "C[%zu][%zu]", i, j);
            if (mag > 0 && isfinite(got)) {
                const double e = fabs(got - want) / mag;
                emax = e > emax ? e : emax;
                esq += e * e;
            }
        }
    c->err_max = emax;
    c->err_sq = esq;
    c->err_n = m * n;
    return climb_compare_end(&k);
}

/* The clusters rung's grid for an m x n C: the clusters of two it launches and what the occupancy query said (0:
 * it could not say). */
static cudaError_t clusters_grid(int prec, size_t m, size_t n, int sms, unsigned *clusters, int *fit)
{
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute at[1];
    const cudaError_t e = prec == GEMM_BF16 ? clusters_config<GEMM_BF16, true>(m, n, sms, 0, &cfg, at, fit)
                                            : clusters_config<GEMM_TF32, false>(m, n, sms, 0, &cfg, at, fit);
    *clusters = e == cudaSuccess ? cfg.gridDim.x / 2 : 0;
    return e;
}

/* The error of the rung's last run; for the clusters rung also its grid (clusters resident at once against the
 * pairs of tiles), which says whether the cluster launch fills the GPU. */
static const char *gemm_rung_note(climb_case *c, int rung)
{
    if (!c->err_n)
        return NULL;
    int used = snprintf(c->note, sizeof c->note,
                        "error against FP64 over |alpha| sum|a b| + |beta c|: largest %.3g, RMS %.3g (the %s bound "
                        "%.3g)",
                        c->err_max, sqrt(c->err_sq / (double)c->err_n), GEMM_PRECISIONS_NAMES[c->prec], c->bound);
    unsigned clusters = 0;
    int fit = 0;
    if (GEMM_RUNGS[rung].wgmma == CLIMB_GEMM_WG_CLUSTERS && used > 0 && (size_t)used < sizeof c->note &&
        (c->prec == GEMM_BF16 || c->prec == GEMM_TF32) &&
        clusters_grid(c->prec, c->m, c->n, c->sms, &clusters, &fit) == cudaSuccess) {
        const size_t pairs = ((c->m + GEMM_BM - 1) / GEMM_BM + 1) / 2 * ((c->n + GEMM_WS_BN - 1) / GEMM_WS_BN);
        snprintf(c->note + used, sizeof c->note - (size_t)used,
                 "; %u clusters of two launched for %zu pairs of tiles (resident at once: %d, the occupancy query)",
                 clusters, pairs, fit);
    }
    return c->note;
}

/* The case's counts: the product's flops on the tensor cores in its input format (3xTF32's three products each);
 * the roofline takes them against the tensor cores' measured rate, not the FMA's. */
static void gemm_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->bytes_read = (double)c->esize * ((double)c->m * c->k + (double)c->k * c->n) +
                      (c->beta != 0 ? 4.0 * (double)c->m * c->n : 0);
    out->bytes_written = 4.0 * (double)c->m * c->n;
    out->flops = 2.0 * c->m * c->n * c->k;
    out->tensor_flops = (c->prec == CLIMB_GEMM_PREC_3XTF32 ? 3 : 1) * out->flops;
    out->tensor_format = c->prec == CLIMB_GEMM_PREC_BF16 ? CLIMB_TENSOR_BF16 : CLIMB_TENSOR_TF32;
}

/* The rungs on the CUDA cores (SGEMM's, and cuBLAS's FP32 SGEMM for 3xtf32): their flops are FFMA's, on FP32 values
 * (4 bytes an input element). */
static int gemm_rung_counts(const climb_case *c, int rung, climb_counts *out)
{
    if (!GEMM_RUNGS[rung].simt && !(GEMM_RUNGS[rung].cublas && c->prec == CLIMB_GEMM_PREC_3XTF32))
        return 0;
    gemm_counts(c, out);
    out->bytes_read = 4.0 * ((double)c->m * c->k + (double)c->k * c->n) + (c->beta != 0 ? 4.0 * (double)c->m * c->n : 0);
    out->tensor_flops = 0;
    out->tensor_format = CLIMB_TENSOR_NONE;
    return 1;
}

/* ---------------------------------------------------------------- tuning */

/* The best path's parameters (climb_gemm_tuning): which wgmma kernel, and the group of tile rows its blocks go
 * down. The candidates: the first three kernels at every group (3xTF32 runs TMA as WS, so two of its candidates are
 * the same), the overlapping one once (it takes its own order of tiles; BF16 and 3xTF32 run it as persistent). */
static const int GEMM_TUNE_KERNELS[] = {CLIMB_GEMM_WG_TMA, CLIMB_GEMM_WG_WS, CLIMB_GEMM_WG_PERSISTENT,
                                        CLIMB_GEMM_WG_OVERLAP};
static const int GEMM_TUNE_GROUPS[] = {1, 2, 4, 8, 16};
static const climb_tunable GEMM_TUNABLES[] = {
    {.name = "kernel", .meaning = "the wgmma kernel on an sm_90 GPU: 2 tma (128 x 128 tiles), 3 warp_specialized "
                                  "(128 x 256 tiles; 3xtf32 128 x 128), 4 persistent (a block an SM), 6 persistent "
                                  "with tf32's B^T made inside it (its own order of tiles; bf16 and 3xtf32 run it as "
                                  "4); 3xtf32 runs 2 as 3",
     .values = GEMM_TUNE_KERNELS, .n_values = CLIMB_COUNT(GEMM_TUNE_KERNELS)},
    {.name = "group", .meaning = "tile rows a group of the blocks' order spans (a column of B tiles read by as many "
                                 "blocks close in time)",
     .values = GEMM_TUNE_GROUPS, .n_values = CLIMB_COUNT(GEMM_TUNE_GROUPS)},
};
#define GEMM_GROUP_CANDIDATES(kernel) kernel, 1, kernel, 2, kernel, 4, kernel, 8, kernel, 16
static const int GEMM_TUNE_CANDIDATES[] = {GEMM_GROUP_CANDIDATES(CLIMB_GEMM_WG_TMA),
                                           GEMM_GROUP_CANDIDATES(CLIMB_GEMM_WG_WS),
                                           GEMM_GROUP_CANDIDATES(CLIMB_GEMM_WG_PERSISTENT), CLIMB_GEMM_WG_OVERLAP,
                                           GEMM_GROUP};

/* The precision of a tuning key (its option's value as written; the harness and the C API both give it), else
 * BF16. */
static int gemm_key_precision(const climb_tuning_key *k)
{
    const char *t = k && k->opts ? k->opts[OPT_PRECISION].text : NULL;
    for (int p = 0; t && GEMM_PRECISIONS_NAMES[p]; p++)
        if (strcmp(t, GEMM_PRECISIONS_NAMES[p]) == 0)
            return p;
    return CLIMB_GEMM_PREC_BF16;
}

static const char *gemm_tuning_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *v)
{
    const int prec = gemm_key_precision(k);
    climb_gemm_tuning t;
    climb_gemm_default_tuning(prec, k ? k->shape.d[0] : 0, k ? k->shape.d[1] : 0, dev ? dev->sms : 1, &t);
    v[0] = t.kernel;
    v[1] = t.group;
    return prec == CLIMB_GEMM_PREC_3XTF32 ? "built-in: warp_specialized (3xtf32's measured best), groups of 8 rows"
           : t.kernel == CLIMB_GEMM_WG_TMA
               ? "built-in: tma's 128 x 128 tiles (the 128 x 256 ones fewer than half the SMs), groups of 8 rows"
               : "built-in: persistent's 128 x 256 tiles, groups of 8 rows";
}

/* The shape class: "few" where the 128 x 256 tiles are fewer than half the SMs (the built-in rule's two sides), else
 * "many". */
static void gemm_shape_class(const climb_device_info *dev, const climb_tuning_key *k, char *buf, size_t len)
{
    snprintf(buf, len, "%s", gemm_few_tiles(k->shape.d[0], k->shape.d[1], dev ? dev->sms : 1) ? "few" : "many");
}

static const climb_tuning GEMM_TUNING = {
    .params = GEMM_TUNABLES,
    .n_params = CLIMB_COUNT(GEMM_TUNABLES),
    .candidates = GEMM_TUNE_CANDIDATES,
    .n_candidates = CLIMB_COUNT(GEMM_TUNE_CANDIDATES) / CLIMB_COUNT(GEMM_TUNABLES),
    .defaults = gemm_tuning_defaults,
    .shape_class = gemm_shape_class,
    .shape_class_meaning = "few (the 128 x 256 tiles fewer than half the SMs) or many",
};

extern "C" void climb_gemm_set_tuning(climb_gemm_tuning *t, const int *v)
{
    t->kernel = v[0];
    t->group = v[1];
}

static void gemm_set_tuning(climb_case *c, const int *values) { climb_gemm_set_tuning(&c->tn, values); }

/* The shapes of the goals (squares, a rectangle, an odd one), and the ones below a full wave. */
static const climb_shape GEMM_BENCH_SHAPES[] = {
    CLIMB_SHAPE3(1024, 1024, 1024), CLIMB_SHAPE3(2048, 2048, 2048), CLIMB_SHAPE3(4096, 4096, 4096),
    CLIMB_SHAPE3(8192, 8192, 8192), CLIMB_SHAPE3(6144, 3072, 1536), CLIMB_SHAPE3(1000, 3000, 500)};
/* The other two precisions over the bench's shapes (the default bench is BF16's); 3xTF32 on both input
 * distributions, its accuracy against cuBLAS's FP32 being half its point. */
static const climb_sweep GEMM_SWEEPS[] = {
    {.name = "tf32",
     .title = "TF32 (FP32 inputs rounded to TF32): TFLOP/s of every rung against cuBLAS's TF32 GEMM, by shape",
     .args = "--set precision=tf32 --size 1024x1024x1024 --size 2048x2048x2048 --size 4096x4096x4096 "
             "--size 8192x8192x8192 --size 6144x3072x1536 --size 1000x3000x500",
     .x = "m", .log_x = 1, .overview = 1},
    {.name = "tf32x3",
     .title = "3xTF32 (FP32 accuracy on the tensor cores): TFLOP/s and error against cuBLAS's FP32 SGEMM, uniform "
              "and spread inputs",
     .args = "--set precision=3xtf32 --set inputs=uniform,spread --size 1024x1024x1024 --size 4096x4096x4096 "
             "--size 8192x8192x8192 --size 6144x3072x1536 --size 1000x3000x500",
     .x = "m", .log_x = 1, .overview = 1},
};
static const climb_shape GEMM_MAIN_SHAPES[] = {CLIMB_SHAPE3(4096, 4096, 4096), CLIMB_SHAPE3(1000, 3000, 500)};
static const climb_shape GEMM_CHECK_SHAPES[] = {
    CLIMB_SHAPE3(0, 0, 0),      CLIMB_SHAPE3(1, 1, 0),     CLIMB_SHAPE3(1, 1, 1),     CLIMB_SHAPE3(2, 3, 5),
    CLIMB_SHAPE3(16, 8, 16),    CLIMB_SHAPE3(33, 31, 17),  CLIMB_SHAPE3(128, 128, 32), CLIMB_SHAPE3(127, 129, 65),
    CLIMB_SHAPE3(1, 300, 40),   CLIMB_SHAPE3(300, 1, 9),   CLIMB_SHAPE3(257, 255, 300), CLIMB_SHAPE3(70, 65, 1000),
    CLIMB_SHAPE3(259, 264, 24), CLIMB_SHAPE3(512, 384, 256)};
static const climb_shape GEMM_QUICK_SHAPES[] = {CLIMB_SHAPE3(33, 31, 17), CLIMB_SHAPE3(259, 264, 24),
                                                CLIMB_SHAPE3(257, 255, 300)};

/* The host memory a case needs at the least: A and B (and their FP32 copies), C twice, the reference twice. */
static double gemm_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    const double ab = (double)s->d[0] * s->d[2] + (double)s->d[2] * s->d[1], mn = (double)s->d[0] * s->d[1];
    return (opts[OPT_PRECISION].choice == CLIMB_GEMM_PREC_BF16 ? 6.0 : 4.0) * ab + 8.0 * mn + 16.0 * mn;
}

static const char *gemm_case_refuses(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    const double pad = (double)opts[OPT_PAD].i;
    return (double)s->d[0] + pad > INT32_MAX || (double)s->d[1] + pad > INT32_MAX || (double)s->d[2] + pad > INT32_MAX
               ? "sizes and leading dimensions must be below 2^31"
               : NULL;
}

extern "C" const climb_workload climb_gemm_workload = {
    .name = "gemm",
    .title = "GEMM C = alpha A B + beta C on the tensor cores (BF16, TF32, 3xTF32 inputs; FP32 accumulation)",
    .sources = "Introduction to CUDA 5.0 and Hwu, Kirk and El Hajj, Programming Massively Parallel Processors: "
               "matrix multiply through shared-memory tiles, carried onto the tensor cores (PTX ISA: mma.sync, "
               "ldmatrix, cp.async)",
    .command = NULL,
    .dims = {"m", "n", "k"},
    .types = CLIMB_TYPE_BIT(CLIMB_F32),
    .options = GEMM_OPTIONS,
    .n_options = CLIMB_COUNT(GEMM_OPTIONS),
    .bytes_counted = "read: A and B in their input format (and C when beta != 0); written: C (FP32)",
    .items_unit = NULL,
    .items_rate = NULL,
    .extra_ceiling = CLIMB_CEIL_TENSOR,
    .bench_shapes = GEMM_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(GEMM_BENCH_SHAPES),
    .check_shapes = GEMM_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(GEMM_CHECK_SHAPES),
    .quick_shapes = GEMM_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(GEMM_QUICK_SHAPES),
    .main_shapes = GEMM_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(GEMM_MAIN_SHAPES),
    .check_max_offset = 0,
    .n_rungs = CLIMB_COUNT(GEMM_RUNGS),
    .rung = gemm_rung_info,
    .published = NULL,
    .sweeps = GEMM_SWEEPS,
    .n_sweeps = CLIMB_COUNT(GEMM_SWEEPS),
    .load = NULL,
    .unload = NULL,
    .case_size = sizeof(climb_case),
    .buffers = GEMM_BUFFERS,
    .n_buffers = CLIMB_COUNT(GEMM_BUFFERS),
    .init = gemm_init,
    .fill = gemm_fill,
    .fini = gemm_fini,
    .describe = gemm_describe,
    .reference = gemm_reference,
    .ref_cost = gemm_ref_cost,
    .ref_cost_limit = 1 << 27,
    .case_bytes = gemm_case_bytes,
    .case_refuses = gemm_case_refuses,
    .refuses = gemm_refuses,
    .prepare = gemm_prepare,
    .modifies = gemm_modifies,
    .reset = gemm_reset,
    .empty = gemm_empty,
    .verify = gemm_verify,
    .counts = gemm_counts,
    .rung_counts = gemm_rung_counts,
    .rung_note = gemm_rung_note,
    .tuning = &GEMM_TUNING,
    .set_tuning = gemm_set_tuning,
};
