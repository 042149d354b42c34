/*
 * sgemm.cu - C = alpha A B + beta C in FP32, row-major with leading dimensions, as a ladder toward cuBLAS.
 *
 * Seeds: 001 (matrix multiply from global memory, then with shared-memory tiles), 004 (naive GEMM's bytes per
 * flop, tiling with boundary handling, joint register and shared-memory tiling after Volkov and Demmel, thread
 * coarsening, double buffering, transposed tiles). See docs/sgemm.md.
 *
 * Layout: A is m x k (rows lda >= k apart), B is k x n (ldb >= n), C is m x n (ldc >= n); the `pad` option adds
 * the same padding to each. Every rung uses FP32 FFMA; the vendor rung is cuBLAS with pedantic FP32 math (no TF32).
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

#include "../device/check.h"
#include "../device/cublas_shared.h"
#include "../device/gemm_tile.cuh"
#include "../device/device.h"
#include "../core/rng.h"
#include "../device/timing.h"
#include "../core/workload.cuh"
#include "sgemm.h"

/* ---------------------------------------------------------------- CPU reference */

extern "C" void climb_sgemm_ref_row(const float *a, size_t lda, const float *b, size_t ldb, const float *c0_row,
                                    size_t n, size_t k, float alpha, float beta, size_t row, double *out,
                                    double *mag)
{
    for (size_t j = 0; j < n; j++) {
        out[j] = 0;
        mag[j] = 0;
    }
    for (size_t p = 0; p < k; p++) {
        const double av = a[row * lda + p];
        const float *brow = b + p * ldb;
        for (size_t j = 0; j < n; j++) {
            out[j] += av * brow[j];
            mag[j] += fabs(av * brow[j]);
        }
    }
    for (size_t j = 0; j < n; j++) {
        const double c = beta != 0 ? (double)beta * c0_row[j] : 0;
        out[j] = (double)alpha * out[j] + c;
        mag[j] = fabs((double)alpha) * mag[j] + fabs(c);
    }
}

extern "C" double climb_sgemm_tolerance(size_t k, double mag)
{
    return 1.01 * ((double)k + 2) * ldexp(1.0, -24) * mag;
}

/* ---------------------------------------------------------------- kernels */

/* sgemm_naive: one thread per output, everything from global memory: 2 loads a FFMA. Thread x walks down the rows
 * of C, so a warp reads 32 different rows of A (32 sectors a load) and writes C 32 rows apart. */
__global__ void __launch_bounds__(256) sgemm_naive_kernel(int m, int n, int k, float alpha, const float *__restrict__ a,
                                                          int lda, const float *__restrict__ b, int ldb, float beta,
                                                          float *__restrict__ c, int ldc)
{
    const int i = (int)(blockIdx.x * 16 + threadIdx.x % 16), j = (int)(blockIdx.y * 16 + threadIdx.x / 16);
    if (i >= m || j >= n)
        return;
    float s = 0;
    for (int p = 0; p < k; p++)
        s = fmaf(a[(size_t)i * lda + p], b[(size_t)p * ldb + j], s);
    float *out = &c[(size_t)i * ldc + j];
    *out = beta != 0.0f ? alpha * s + beta * *out : alpha * s;
}

/* sgemm_naive_coalesced: the same with x along the columns of C: a warp reads one element of A (broadcast) and 32
 * neighbours of a row of B, and writes 32 neighbours of C. Still 2 loads a FFMA, now mostly from L1. */
__global__ void __launch_bounds__(256) sgemm_naive_coalesced_kernel(int m, int n, int k, float alpha,
                                                                    const float *__restrict__ a, int lda,
                                                                    const float *__restrict__ b, int ldb, float beta,
                                                                    float *__restrict__ c, int ldc)
{
    const int j = (int)(blockIdx.x * 32 + threadIdx.x % 32), i = (int)(blockIdx.y * 8 + threadIdx.x / 32);
    if (i >= m || j >= n)
        return;
    float s = 0;
    for (int p = 0; p < k; p++)
        s = fmaf(a[(size_t)i * lda + p], b[(size_t)p * ldb + j], s);
    float *out = &c[(size_t)i * ldc + j];
    *out = beta != 0.0f ? alpha * s + beta * *out : alpha * s;
}

/* sgemm_tiled<T, CHECKED>: the seed's shared-memory tiles. A block computes a T x T tile of C; it walks k in steps
 * of T, each thread loading one element of A's and B's T x T tiles into shared memory, then T FFMAs from shared
 * memory: global traffic falls by T. Without CHECKED the shapes must be multiples of T (the seed's assumption);
 * with it, loads past the edges read zeros and stores past them are skipped (any m, n, k). */
template <int T, bool CHECKED>
__global__ void __launch_bounds__(T *T) sgemm_tiled_kernel(int m, int n, int k, float alpha,
                                                           const float *__restrict__ a, int lda,
                                                           const float *__restrict__ b, int ldb, float beta,
                                                           float *__restrict__ c, int ldc)
{
    __shared__ float as[T][T], bs[T][T];
    const int tx = (int)threadIdx.x % T, ty = (int)threadIdx.x / T;
    const int i = (int)blockIdx.y * T + ty, j = (int)blockIdx.x * T + tx;
    float s = 0;
    for (int p0 = 0; p0 < k; p0 += T) {
        if (CHECKED) {
            as[ty][tx] = i < m && p0 + tx < k ? a[(size_t)i * lda + p0 + tx] : 0.0f;
            bs[ty][tx] = p0 + ty < k && j < n ? b[(size_t)(p0 + ty) * ldb + j] : 0.0f;
        } else {
            as[ty][tx] = a[(size_t)i * lda + p0 + tx];
            bs[ty][tx] = b[(size_t)(p0 + ty) * ldb + j];
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < T; p++)
            s = fmaf(as[ty][p], bs[p][tx], s);
        __syncthreads();
    }
    if (!CHECKED || (i < m && j < n)) {
        float *out = &c[(size_t)i * ldc + j];
        *out = beta != 0.0f ? alpha * s + beta * *out : alpha * s;
    }
}

/* sgemm_reg_1d: joint register and shared-memory tiling (Volkov and Demmel; the seed's U/T/S): a block computes a
 * 64 x 64 tile of C with 512 threads, each thread a column strip of 8 outputs. A's 64 x 8 tile and B's 8 x 64
 * tile go to shared memory; for each p the thread holds one B value in a register and reuses it for its 8 rows:
 * 9 shared loads for 8 FFMAs instead of 2 for 1. Any shape (edges zero-filled). */
#define R1_BM 64
#define R1_BN 64
#define R1_BK 8
#define R1_TM 8
__global__ void __launch_bounds__(512) sgemm_reg_1d_kernel(int m, int n, int k, float alpha,
                                                           const float *__restrict__ a, int lda,
                                                           const float *__restrict__ b, int ldb, float beta,
                                                           float *__restrict__ c, int ldc)
{
    __shared__ float as[R1_BM][R1_BK], bs[R1_BK][R1_BN];
    const int t = (int)threadIdx.x;
    const int row0 = (int)blockIdx.y * R1_BM, col0 = (int)blockIdx.x * R1_BN;
    const int tcol = t % R1_BN, trow = (t / R1_BN) * R1_TM;
    /* loaders: A tile 64 x 8 = 512 (one each), B tile 8 x 64 = 512 (one each) */
    const int ar = t / R1_BK, ac = t % R1_BK, br = t / R1_BN, bc = t % R1_BN;
    float acc[R1_TM] = {0};
    for (int p0 = 0; p0 < k; p0 += R1_BK) {
        as[ar][ac] = row0 + ar < m && p0 + ac < k ? a[(size_t)(row0 + ar) * lda + p0 + ac] : 0.0f;
        bs[br][bc] = p0 + br < k && col0 + bc < n ? b[(size_t)(p0 + br) * ldb + col0 + bc] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < R1_BK; p++) {
            const float bv = bs[p][tcol];
#pragma unroll
            for (int r = 0; r < R1_TM; r++)
                acc[r] = fmaf(as[trow + r][p], bv, acc[r]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < R1_TM; r++) {
        const int i = row0 + trow + r, j = col0 + tcol;
        if (i < m && j < n) {
            float *out = &c[(size_t)i * ldc + j];
            *out = beta != 0.0f ? alpha * acc[r] + beta * *out : alpha * acc[r];
        }
    }
}

/* sgemm_reg_2d: 2-D thread coarsening: a block computes 128 x 128 of C with 256 threads, each an 8 x 8 block of
 * outputs. Per step of p a thread loads 8 values of A's column and 8 of B's row from shared memory into
 * registers and does 64 FFMAs with them (16 shared loads for 64 FFMAs). A's tile is stored transposed (k-major),
 * so the 8 values a thread needs are contiguous. Any shape (edges zero-filled). */
#define R2_BM 128
#define R2_BN 128
#define R2_BK 8
#define R2_TM 8
#define R2_TN 8
__global__ void __launch_bounds__(256) sgemm_reg_2d_kernel(int m, int n, int k, float alpha,
                                                           const float *__restrict__ a, int lda,
                                                           const float *__restrict__ b, int ldb, float beta,
                                                           float *__restrict__ c, int ldc)
{
    __shared__ float ast[R2_BK][R2_BM], bs[R2_BK][R2_BN];
    const int t = (int)threadIdx.x;
    const int row0 = (int)blockIdx.y * R2_BM, col0 = (int)blockIdx.x * R2_BN;
    const int trow = (t / (R2_BN / R2_TN)) * R2_TM, tcol = (t % (R2_BN / R2_TN)) * R2_TN;
    float acc[R2_TM][R2_TN] = {{0}};
    float ra[R2_TM], rb[R2_TN];
    for (int p0 = 0; p0 < k; p0 += R2_BK) {
        /* A tile 128 x 8 = 1024 elements, B tile 8 x 128: 4 each a thread, coalesced along the rows */
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const int e = q * 256 + t;
            const int ar = e / R2_BK, ac = e % R2_BK;
            ast[ac][ar] = row0 + ar < m && p0 + ac < k ? a[(size_t)(row0 + ar) * lda + p0 + ac] : 0.0f;
            const int br = e / R2_BN, bc = e % R2_BN;
            bs[br][bc] = p0 + br < k && col0 + bc < n ? b[(size_t)(p0 + br) * ldb + col0 + bc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < R2_BK; p++) {
#pragma unroll
            for (int r = 0; r < R2_TM; r++)
                ra[r] = ast[p][trow + r];
#pragma unroll
            for (int q = 0; q < R2_TN; q++)
                rb[q] = bs[p][tcol + q];
#pragma unroll
            for (int r = 0; r < R2_TM; r++)
#pragma unroll
                for (int q = 0; q < R2_TN; q++)
                    acc[r][q] = fmaf(ra[r], rb[q], acc[r][q]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < R2_TM; r++)
#pragma unroll
        for (int q = 0; q < R2_TN; q++) {
            const int i = row0 + trow + r, j = col0 + tcol + q;
            if (i < m && j < n) {
                float *out = &c[(size_t)i * ldc + j];
                *out = beta != 0.0f ? alpha * acc[r][q] + beta * *out : alpha * acc[r][q];
            }
        }
}

/* sgemm_vec: reg_2d's tiles with 16-byte accesses. A thread loads a float4 of A (along k) and a float4 of B (along
 * n) per tile instead of 4 scalars each, stores A's transposed into shared memory, reads its 8 A and 8 B values per
 * step as two float4 each (4 shared loads for 64 FFMAs instead of 16), and writes C as float4. Interior tiles
 * whose rows start 16-byte aligned take the vector path; edge tiles and unaligned leading dimensions take
 * reg_2d's guarded scalar path, so any shape and ld work. */
__device__ __forceinline__ bool sgemm_aligned(const void *p, int ld) { return ((uintptr_t)p % 16 == 0) && ld % 4 == 0; }

__global__ void __launch_bounds__(256) sgemm_vec_kernel(int m, int n, int k, float alpha, const float *__restrict__ a,
                                                        int lda, const float *__restrict__ b, int ldb, float beta,
                                                        float *__restrict__ c, int ldc)
{
    __shared__ __align__(16) float ast[R2_BK][R2_BM];
    __shared__ __align__(16) float bs[R2_BK][R2_BN];
    const int t = (int)threadIdx.x;
    const int row0 = (int)blockIdx.y * R2_BM, col0 = (int)blockIdx.x * R2_BN;
    const int trow = (t / (R2_BN / R2_TN)) * R2_TM, tcol = (t % (R2_BN / R2_TN)) * R2_TN;
    const bool rows_in = row0 + R2_BM <= m, cols_in = col0 + R2_BN <= n;
    const bool a_vec = rows_in && sgemm_aligned(a, lda), b_vec = cols_in && sgemm_aligned(b, ldb);
    float acc[R2_TM][R2_TN] = {{0}};
    /* the float4 each thread loads: A row t / 2, k offset (t % 2) x 4; B row t / 32, column (t % 32) x 4 */
    const int ar = t / 2, ak = (t % 2) * 4, br = t / 32, bc = (t % 32) * 4;
    for (int p0 = 0; p0 < k; p0 += R2_BK) {
        const bool k_in = p0 + R2_BK <= k;
        if (a_vec && k_in) {
            const float4 v = *(const float4 *)(a + (size_t)(row0 + ar) * lda + p0 + ak);
            ast[ak + 0][ar] = v.x;
            ast[ak + 1][ar] = v.y;
            ast[ak + 2][ar] = v.z;
            ast[ak + 3][ar] = v.w;
        } else {
#pragma unroll
            for (int e = 0; e < 4; e++)
                ast[ak + e][ar] = row0 + ar < m && p0 + ak + e < k ? a[(size_t)(row0 + ar) * lda + p0 + ak + e] : 0.0f;
        }
        if (b_vec && k_in) {
            *(float4 *)&bs[br][bc] = *(const float4 *)(b + (size_t)(p0 + br) * ldb + col0 + bc);
        } else {
#pragma unroll
            for (int e = 0; e < 4; e++)
                bs[br][bc + e] = p0 + br < k && col0 + bc + e < n ? b[(size_t)(p0 + br) * ldb + col0 + bc + e] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < R2_BK; p++) {
            const float4 a0 = *(const float4 *)&ast[p][trow], a1 = *(const float4 *)&ast[p][trow + 4];
            const float4 b0 = *(const float4 *)&bs[p][tcol], b1 = *(const float4 *)&bs[p][tcol + 4];
            const float ra[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float rb[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int r = 0; r < R2_TM; r++)
#pragma unroll
                for (int q = 0; q < R2_TN; q++)
                    acc[r][q] = fmaf(ra[r], rb[q], acc[r][q]);
        }
        __syncthreads();
    }
    const bool c_vec = rows_in && cols_in && sgemm_aligned(c, ldc);
#pragma unroll
    for (int r = 0; r < R2_TM; r++) {
        const int i = row0 + trow + r;
        float *out = c + (size_t)i * ldc + col0 + tcol;
        if (c_vec) {
#pragma unroll
            for (int q = 0; q < R2_TN; q += 4) {
                float4 v = make_float4(alpha * acc[r][q], alpha * acc[r][q + 1], alpha * acc[r][q + 2],
                                       alpha * acc[r][q + 3]);
                if (beta != 0.0f) {
                    const float4 o = *(const float4 *)(out + q);
                    v.x += beta * o.x;
                    v.y += beta * o.y;
                    v.z += beta * o.z;
                    v.w += beta * o.w;
                }
                *(float4 *)(out + q) = v;
            }
        } else {
#pragma unroll
            for (int q = 0; q < R2_TN; q++)
                if (i < m && col0 + tcol + q < n)
                    out[q] = beta != 0.0f ? alpha * acc[r][q] + beta * out[q] : alpha * acc[r][q];
        }
    }
}

/* ---- the double-buffered kernel family: double_buffer, warp_tiled and tuned (and the C API) share it ----
 *
 * Its loaders, thread layouts and main loop live in src/device/gemm_tile.cuh, which the CNN layer's implicit GEMM
 * shares (with an im2col gather as its B loader); this file keeps the kernel, its epilogue and split-K.
 *
 * One template, sgemm_db_kernel<BM, BN, BK, RM, RN, U, WARP, TA, TB>. A block computes a BM x BN tile of C, each
 * thread a 4 RM x 4 RN block of outputs held as RM x RN sub-blocks of 4 x 4 (so every shared read is a float4):
 * 8 x 8 (RN = 2) or 8 x 16 (RN = 4; 6 shared loads for 128 FFMAs instead of 4 for 64, at about 230 registers
 * and 8 warps an SM instead of 16). U is how many of the BK steps of a tile the compiler unrolls: fully
 * unrolled, 16 steps of 8 x 16 are about 2300 instructions, more than the instruction cache holds comfortably.
 *
 * Double buffering: shared memory holds two k-tiles of A and B. While the block multiplies tile t from one
 * buffer, the next tile is on its way into the other: the operand stored with k contiguous (A, or B^T) is loaded
 * into registers (16-byte loads) before the multiply and written transposed into shared memory after it; the
 * operand stored with k as its rows (B, or A^T) is copied straight into shared memory by cp.async, which needs
 * no registers. One __syncthreads a tile instead of two, and the loads' latency hides behind 8 BK FFMAs.
 *
 * WARP selects which outputs a thread owns. Without it (double_buffer), thread t owns 8 contiguous rows and 8
 * contiguous columns, as in vec: the float4 reads of a k-row of B by the 16 threads along n land 32 bytes apart,
 * two reads per bank (2-way conflicts). With it (warp tiling), each warp owns a 32 RM x 16 RN tile of C (64 x 32
 * or 64 x 64), its lanes an 8 x 4 grid; a thread's 4 x 4 sub-blocks sit 32 rows and 16 columns apart, so a warp's
 * float4 reads of A cover 8 consecutive float4s and of B 4: no conflicts, and a warp touches a compact piece of
 * each tile.
 *
 * TA / TB: the operand is stored transposed (A as k x m, B as n x k): the loaders swap roles, so a transposed
 * operand needs no pass of its own (the C API's transposed forms; not benchmarked). Shared tiles are padded by 4 floats a row, which makes the transposed
 * stores conflict-free for BK = 8 and keeps rows 16-byte aligned.
 *
 * Split-K: blockIdx.z takes k range [z kchunk, (z + 1) kchunk); with more than one, each writes its raw sums to
 * ws (splits x m x n) and sgemm_split_reduce_kernel adds them with alpha and beta. */

typedef struct sgemm_args {
    int m, n, k, lda, ldb, ldc;
    float alpha, beta;
    const float *a, *b;
    float *c;
    float *ws;      /* split-K partial sums, gridDim.z x m x n (unused with one split) */
    int kchunk;     /* k per split, a multiple of BK */
} sgemm_args;

template <int BM, int BN, int BK, int RM, int RN, int U, bool WARP, bool TA, bool TB>
__global__ void __launch_bounds__(CLIMB_GEMM_NT(BM, BN, RM, RN), CLIMB_GEMM_PER_SM(BM, BN, RM, RN))
    sgemm_db_kernel(sgemm_args g)
{
    constexpr int NT = CLIMB_GEMM_NT(BM, BN, RM, RN), LDA_S = BM + 4, LDB_S = BN + 4;
    constexpr int A_BUF = BK * LDA_S, TM = 4 * RM, TN = 4 * RN, WM = 32 * RM, WN = 16 * RN;
    static_assert(BM % WM == 0 && BN % WN == 0 && BK % 4 == 0 && NT % 32 == 0 && BK % U == 0, "tile shape");
    extern __shared__ __align__(16) float smem[]; /* 2 (A_BUF + B_BUF) floats: sgemm_smem_bytes */
    float *const as = smem, *const bs = smem + 2 * A_BUF;

    int row_base, row_stride, col_base, col_stride;
    climb_gemm_thread_layout<BM, BN, RM, RN, WARP>((int)threadIdx.x, &row_base, &row_stride, &col_base, &col_stride);
    /* tiles numbered along n first, in x (y and z are limited to 65535) */
    const int tiles_n = (g.n + BN - 1) / BN;
    const int row0 = (int)(blockIdx.x / tiles_n) * BM, col0 = (int)(blockIdx.x % tiles_n) * BN;
    const int kb = (int)blockIdx.z * g.kchunk, ke = min(g.k, kb + g.kchunk);
    const int ntiles = ke > kb ? (ke - kb + BK - 1) / BK : 0;

    climb_gemm_matrix_operand<typename climb_gemm_loader<TA, BM, BK, NT, LDA_S>::type, BK> la;
    climb_gemm_matrix_operand<typename climb_gemm_loader<!TB, BN, BK, NT, LDB_S>::type, BK> lb;
    la.src = g.a, la.ld = g.lda, la.r0 = row0, la.rlim = g.m, la.kb = kb, la.ke = ke, la.vec = climb_gemm_vec_ok(g.a, g.lda);
    lb.src = g.b, lb.ld = g.ldb, lb.r0 = col0, lb.rlim = g.n, lb.kb = kb, lb.ke = ke, lb.vec = climb_gemm_vec_ok(g.b, g.ldb);

    float acc[TM][TN];
#pragma unroll
    for (int r = 0; r < TM; r++)
#pragma unroll
        for (int q = 0; q < TN; q++)
            acc[r][q] = 0.0f;
    climb_gemm_mainloop<BM, BN, BK, RM, RN, U>(la, lb, ntiles, as, bs, row_base, row_stride, col_base, col_stride, acc);

    /* the epilogue: alpha acc + beta C into C, or the raw sums into this split's slice of ws */
    const bool partial = gridDim.z > 1;
    float *const out = partial ? g.ws + (size_t)blockIdx.z * g.m * g.n : g.c;
    const int ldo = partial ? g.n : g.ldc;
    const bool out_vec = climb_gemm_vec_ok(out, ldo);
#pragma unroll
    for (int h = 0; h < RM; h++)
#pragma unroll
        for (int rr = 0; rr < 4; rr++) {
            const int i = row0 + row_base + h * row_stride + rr;
            if (i >= g.m)
                continue;
#pragma unroll
            for (int v = 0; v < RN; v++) {
                const int j = col0 + col_base + v * col_stride;
                float *o = out + (size_t)i * ldo + j;
                float x[4];
#pragma unroll
                for (int e = 0; e < 4; e++)
                    x[e] = partial ? acc[h * 4 + rr][v * 4 + e] : g.alpha * acc[h * 4 + rr][v * 4 + e];
                if (out_vec && j + 4 <= g.n) {
                    if (!partial && g.beta != 0.0f) {
                        const float4 old = *(const float4 *)o;
                        x[0] += g.beta * old.x;
                        x[1] += g.beta * old.y;
                        x[2] += g.beta * old.z;
                        x[3] += g.beta * old.w;
                    }
                    *(float4 *)o = make_float4(x[0], x[1], x[2], x[3]);
                } else {
#pragma unroll
                    for (int e = 0; e < 4; e++)
                        if (j + e < g.n)
                            o[e] = !partial && g.beta != 0.0f ? x[e] + g.beta * o[e] : x[e];
                }
            }
        }
}

/* Split-K's second pass: C = alpha (sum of the splits' partial sums) + beta C, the splits added in order. */
__global__ void __launch_bounds__(256) sgemm_split_reduce_kernel(int m, int n, int splits, const float *__restrict__ ws,
                                                                 float alpha, float beta, float *__restrict__ c,
                                                                 int ldc)
{
    const size_t mn = (size_t)m * n;
    for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < mn; e += (size_t)gridDim.x * blockDim.x) {
        float s = 0.0f;
        for (int z = 0; z < splits; z++)
            s += ws[(size_t)z * mn + e];
        float *o = c + (e / n) * ldc + e % n;
        *o = beta != 0.0f ? alpha * s + beta * *o : alpha * s;
    }
}

/* ---- instances, split-K plans and their launch (the bench rungs and the C API) ---- */

typedef void (*sgemm_db_fn)(sgemm_args g);
typedef struct sgemm_instance {
    int bm, bn, bk, tn;   /* tile of C and of k a block works on; columns of C a thread computes (8 rows each) */
    int unroll;           /* steps of k the compiler unrolls in the multiply loop */
    sgemm_db_fn fn;
    const char *name;
} sgemm_instance;

/* The tile shapes `climb tune sgemm` tries for the tuned rung, each listed once: the instance table and the
 * candidate list come from it. A thread computes 8 x tn outputs: 8 x 8 keeps 16 warps an SM (128 registers),
 * 8 x 16 needs about 200 registers and runs 8 warps an SM, with 6 shared loads for 128 FFMAs instead of 4 for
 * 64. All fit the 48 KB of static shared memory double-buffered. */
#define SGEMM_TUNE_LIST(X) X(64, 64, 8, 8, 8) X(128, 128, 8, 8, 8) X(128, 128, 16, 8, 16) X(128, 128, 16, 16, 8) \
    X(128, 256, 8, 16, 8) X(128, 256, 16, 16, 16) X(256, 128, 16, 16, 16)
#define SGEMM_INSTANCE(bm, bn, bk, tn, u)                                                                      \
    {bm, bn, bk, tn, u, sgemm_db_kernel<bm, bn, bk, 2, tn / 4, u, true, false, false>,                         \
     "sgemm_db_kernel<" #bm ", " #bn ", " #bk ", 8 x " #tn ", unroll " #u ", warp>"},
static const sgemm_instance SGEMM_TUNED[] = {SGEMM_TUNE_LIST(SGEMM_INSTANCE)};
#define SGEMM_CANDIDATE(bm, bn, bk, tn, u) bm, bn, bk, tn, u,
static const int SGEMM_TUNE_CANDIDATES[] = {SGEMM_TUNE_LIST(SGEMM_CANDIDATE)};

/* the instance for small outputs: the first (64 x 64) */
#define SGEMM_SMALL (&SGEMM_TUNED[0])

static const sgemm_instance SGEMM_DOUBLE_BUFFER = {128, 128, 8, 8, 8,
                                                   sgemm_db_kernel<128, 128, 8, 2, 2, 8, false, false, false>,
                                                   "sgemm_db_kernel<128, 128, 8, 8 x 8, thread>"};
static const sgemm_instance SGEMM_WARP_TILED = {128, 128, 8, 8, 8,
                                                sgemm_db_kernel<128, 128, 8, 2, 2, 8, true, false, false>,
                                                "sgemm_db_kernel<128, 128, 8, 8 x 8, warp>"};
/* The C API's transposed operands: one tile shape, the loaders swapped. [transa][transb] */
#define SGEMM_TRANSPOSED_INSTANCE(ta, tb, label)                                                               \
    {128, 128, 8, 8, 8, sgemm_db_kernel<128, 128, 8, 2, 2, 8, true, ta, tb>,                                  \
     "sgemm_db_kernel<128, 128, 8, 8 x 8, warp, " label ">"}
static const sgemm_instance SGEMM_TRANSPOSED[2][2] = {
    {SGEMM_WARP_TILED, SGEMM_TRANSPOSED_INSTANCE(false, true, "B^T")},
    {SGEMM_TRANSPOSED_INSTANCE(true, false, "A^T"), SGEMM_TRANSPOSED_INSTANCE(true, true, "A^T, B^T")}};

static const sgemm_instance *sgemm_tuned_instance(const int *v)
{
    for (int i = 0; i < CLIMB_COUNT(SGEMM_TUNED); i++)
        if (SGEMM_TUNED[i].bm == v[0] && SGEMM_TUNED[i].bn == v[1] && SGEMM_TUNED[i].bk == v[2] &&
            SGEMM_TUNED[i].tn == v[3] && SGEMM_TUNED[i].unroll == v[4])
            return &SGEMM_TUNED[i];
    return NULL;
}

static int sgemm_threads(const sgemm_instance *in) { return CLIMB_GEMM_NT(in->bm, in->bn, 2, in->tn / 4); }
/* Two k-tiles of A and of B, rows padded by 4 floats: the kernel's dynamic shared memory. */
static size_t sgemm_smem_bytes(const sgemm_instance *in)
{
    return 2 * (size_t)in->bk * (in->bm + 4 + in->bn + 4) * sizeof(float);
}
/* Lets an instance use more than 48 KB of dynamic shared memory (idempotent; needed before a launch and before
 * the runtime is asked for its occupancy). */
static cudaError_t sgemm_allow_smem(const sgemm_instance *in)
{
    const size_t b = sgemm_smem_bytes(in);
    return b <= 48 * 1024 ? cudaSuccess
                          : cudaFuncSetAttribute((const void *)in->fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)b);
}
static int sgemm_per_sm(const sgemm_instance *in) { return CLIMB_GEMM_PER_SM(in->bm, in->bn, 2, in->tn / 4); }

/* Each split covers at least this much of k: below it the second pass costs more than the split buys. */
#define SGEMM_SPLIT_MIN_K 128

typedef struct sgemm_plan {
    const sgemm_instance *in;
    size_t tiles;        /* output tiles */
    int splits, kchunk;
    size_t ws_bytes;     /* split-K partial sums */
} sgemm_plan;

/* How to run m x n x k on `sms` SMs with instance `in`: when its tiles would fill less than 3/4 of one wave
 * (sgemm_per_sm blocks an SM), `small` (if any) takes the case instead; when the tiles still fill less than a wave, k is split so that tiles x splits fill it, each split at least SGEMM_SPLIT_MIN_K long. */
static sgemm_plan sgemm_make_plan(const sgemm_instance *in, const sgemm_instance *small, size_t m, size_t n, size_t k,
                                  int sms)
{
    sgemm_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.in = in;
    pl.tiles = ((m + in->bm - 1) / in->bm) * ((n + in->bn - 1) / in->bn);
    if (small && 4 * pl.tiles < 3 * (size_t)sms * sgemm_per_sm(in)) {
        pl.in = small;
        pl.tiles = ((m + small->bm - 1) / small->bm) * ((n + small->bn - 1) / small->bn);
    }
    const size_t wave = (size_t)sms * sgemm_per_sm(pl.in);
    size_t splits = 1;
    if (pl.tiles > 0 && pl.tiles < wave) {
        splits = wave / pl.tiles;
        if (splits > k / SGEMM_SPLIT_MIN_K)
            splits = k / SGEMM_SPLIT_MIN_K;
        if (splits < 1)
            splits = 1;
    }
    const size_t bk = (size_t)pl.in->bk;
    size_t chunk = (k + splits - 1) / splits;
    chunk = chunk ? (chunk + bk - 1) / bk * bk : bk;
    if (chunk > (size_t)INT32_MAX)
        chunk = (size_t)INT32_MAX / bk * bk; /* k itself is below 2^31: one split */
    pl.kchunk = (int)chunk;
    pl.splits = k ? (int)((k + chunk - 1) / chunk) : 1;
    pl.ws_bytes = pl.splits > 1 ? (size_t)pl.splits * m * n * sizeof(float) : 0;
    return pl;
}

/* One split, every tile: the ladder rungs before tuned. */
static sgemm_plan sgemm_plain_plan(const sgemm_instance *in, size_t m, size_t n, size_t k)
{
    sgemm_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.in = in;
    pl.tiles = ((m + in->bm - 1) / in->bm) * ((n + in->bn - 1) / in->bn);
    pl.splits = 1;
    pl.kchunk = (int)(k > 0 ? k : 1);
    return pl;
}

/* Runs plan pl: the tiles (x), the splits (z), then the splits' sum. ws holds pl->ws_bytes. */
static cudaError_t sgemm_launch_plan(const sgemm_plan *pl, sgemm_args g, float *ws, int sms, cudaStream_t s)
{
    if (g.m == 0 || g.n == 0)
        return cudaSuccess;
    g.kchunk = pl->kchunk;
    g.ws = ws;
    cudaError_t e = sgemm_allow_smem(pl->in);
    if (e != cudaSuccess)
        return e;
    pl->in->fn<<<dim3((unsigned)pl->tiles, 1, (unsigned)pl->splits), sgemm_threads(pl->in), sgemm_smem_bytes(pl->in),
                 s>>>(g);
    e = cudaGetLastError();
    if (e != cudaSuccess || pl->splits == 1)
        return e;
    const size_t mn = (size_t)g.m * g.n;
    size_t blocks = (mn + 255) / 256;
    if (blocks > (size_t)sms * 8)
        blocks = (size_t)sms * 8;
    sgemm_split_reduce_kernel<<<(unsigned)blocks, 256, 0, s>>>(g.m, g.n, pl->splits, ws, g.alpha, g.beta, g.c, g.ldc);
    return cudaGetLastError();
}

/* The C API's plan: the tuned tile shape for A B, the transposed instances otherwise. */
static sgemm_plan sgemm_api_plan(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k, int sms)
{
    if (!transa && !transb) {
        const sgemm_instance *in = sgemm_tuned_instance(tuning);
        return sgemm_make_plan(in ? in : &SGEMM_WARP_TILED, SGEMM_SMALL, m, n, k, sms);
    }
    return sgemm_make_plan(&SGEMM_TRANSPOSED[transa != 0][transb != 0], NULL, m, n, k, sms);
}

extern "C" size_t climb_sgemm_workspace(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k,
                                        int sms)
{
    return sgemm_api_plan(tuning, transa, transb, m, n, k, sms).ws_bytes;
}

extern "C" cudaError_t climb_sgemm_best(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k,
                                        float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                                        float beta, float *c, size_t ldc, void *ws, size_t ws_bytes, int sms,
                                        cudaStream_t s)
{
    const sgemm_plan pl = sgemm_api_plan(tuning, transa, transb, m, n, k, sms);
    if (pl.ws_bytes > ws_bytes)
        return cudaErrorInvalidValue;
    sgemm_args g = {(int)m, (int)n, (int)k, (int)lda, (int)ldb, (int)ldc, alpha, beta, a, b, c, NULL, 0};
    return sgemm_launch_plan(&pl, g, (float *)ws, sms, s);
}

/* ---------------------------------------------------------------- the case and launchers */

struct climb_case {
    climb_case_params p;
    size_t m, n, k, lda, ldb, ldc;
    float alpha, beta;
    float *h_a, *h_b, *h_c0, *h_c;
    float *d_a, *d_b, *d_c, *d_c0;
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

typedef cudaError_t (*sgemm_launch_fn)(climb_case *c, cudaStream_t s);

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
                    c->d_a, c->d_b, c->d_c, NULL, 0};
    return g;
}

static cudaError_t launch_double_buffer(climb_case *c, cudaStream_t s)
{
    const sgemm_plan pl = sgemm_plain_plan(&SGEMM_DOUBLE_BUFFER, c->m, c->n, c->k);
    return sgemm_launch_plan(&pl, case_args(c), NULL, c->sms, s);
}

static cudaError_t launch_warp_tiled(climb_case *c, cudaStream_t s)
{
    const sgemm_plan pl = sgemm_plain_plan(&SGEMM_WARP_TILED, c->m, c->n, c->k);
    return sgemm_launch_plan(&pl, case_args(c), NULL, c->sms, s);
}

static cudaError_t launch_tuned(climb_case *c, cudaStream_t s)
{
    return sgemm_launch_plan(&c->plan, case_args(c), c->d_ws, c->sms, s);
}

/* Row-major C = A B is column-major C^T = B^T A^T: cuBLAS gets B as its first operand. */
static cudaError_t launch_cublas(climb_case *c, cudaStream_t s)
{
    cublasStatus_t st = cublasSetStream(c->cublas, s);
    if (st == CUBLAS_STATUS_SUCCESS)
        /* cuBLAS wants every leading dimension >= 1, even for an empty operand (k = 0: lda = 0 here) */
        st = cublasSgemm(c->cublas, CUBLAS_OP_N, CUBLAS_OP_N, (int)c->n, (int)c->m, (int)c->k, &c->alpha, c->d_b,
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
    return instance_kernel(o, max, &SGEMM_WARP_TILED);
}
/* tuned: its tile shape, the 64 x 64 instance small outputs take, and split-K's second pass */
static int k_tuned(climb_dtype, const climb_device_info *, const int *tuning, climb_kernel_desc *o, int max)
{
    const sgemm_instance *in = tuning ? sgemm_tuned_instance(tuning) : NULL;
    if (!in)
        in = &SGEMM_WARP_TILED;
    int n = 0;
    n += instance_kernel(n < max ? o + n : o, n < max ? max - n : 0, in);
    if (in != SGEMM_SMALL)
        n += instance_kernel(n < max ? o + n : o, n < max ? max - n : 0, SGEMM_SMALL);
    n += climb_one_kernel(n < max ? o + n : o, n < max ? max - n : 0, (const void *)sgemm_split_reduce_kernel,
                          "sgemm_split_reduce_kernel", 256, 0);
    return n;
}

typedef struct sgemm_rung {
    climb_rung_info info;
    sgemm_launch_fn launch;
    int tile;                   /* shapes must be multiples of this (0: any shape) */
} sgemm_rung;

static const sgemm_rung SGEMM_RUNGS[] = {
    {.info = {.name = "cublas_sgemm", .idea = "vendor: cublasSgemm, CUBLAS_PEDANTIC_MATH (FP32 FFMA, no TF32)",
              .needs = "m, n, k and leading dimensions below 2^31", .kind = CLIMB_RUNG_VENDOR, .kernels = NULL},
     .launch = launch_cublas},
    {.info = {.name = "naive", .idea = "a thread per output, all from global memory; x down the rows of C",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_naive},
     .launch = launch_naive},
    {.info = {.name = "naive_coalesced", .idea = "x along the rows of C: B and C read and written coalesced",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_naive_coalesced},
     .launch = launch_naive_coalesced},
    {.info = {.name = "tiled16", .idea = "16 x 16 shared-memory tiles (the seed's): global traffic / 16",
              .needs = "m, n and k multiples of 16", .kind = CLIMB_RUNG_LADDER, .kernels = k_tiled16},
     .launch = launch_tiled<16, false>, .tile = 16},
    {.info = {.name = "tiled32", .idea = "32 x 32 tiles: global traffic / 32", .needs = "m, n and k multiples of 32",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_tiled32},
     .launch = launch_tiled<32, false>, .tile = 32},
    {.info = {.name = "tiled_any", .idea = "32 x 32 tiles with boundary handling: any m, n, k", .needs = "",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_tiled_checked},
     .launch = launch_tiled<32, true>},
    {.info = {.name = "reg_1d", .idea = "registers + shared (Volkov): a thread 8 outputs down a column, one B value "
                                        "reused 8 times",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_reg_1d},
     .launch = launch_reg_1d},
    {.info = {.name = "reg_2d", .idea = "2-D coarsening: 128 x 128 a block, 8 x 8 a thread, A's tile transposed",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_reg_2d},
     .launch = launch_reg_2d},
    {.info = {.name = "vec", .idea = "16-byte global loads and stores, float4 reads of the transposed A tile and of B",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_vec},
     .launch = launch_vec},
    {.info = {.name = "double_buffer", .idea = "two shared tiles: the next one loads (registers for A, cp.async for B) "
                                               "while this one multiplies; one barrier a tile",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_double_buffer},
     .launch = launch_double_buffer},
    {.info = {.name = "warp_tiled", .idea = "warp tiles: a warp 64 x 32 of C, a lane 2 x 2 blocks of 4 x 4 spread "
                                            "over it; float4 shared reads without bank conflicts",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_warp_tiled},
     .launch = launch_warp_tiled},
    {.info = {.name = "tuned", .idea = "the tile shape `climb tune` picks; 64 x 64 tiles and split-K when the output "
                                       "has too few tiles to fill the GPU",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_tuned},
     .launch = launch_tuned},
};

static const climb_rung_info *sgemm_rung_info(int i) { return &SGEMM_RUNGS[i].info; }

/* ---------------------------------------------------------------- options */

enum { OPT_ALPHA, OPT_BETA, OPT_PAD };
static constexpr climb_option SGEMM_OPTIONS[] = {
    {.name = "alpha", .kind = CLIMB_OPT_FLOAT, .meaning = "C = alpha A B + beta C", .def = "1", .min = -1000,
     .max = 1000},
    {.name = "beta", .kind = CLIMB_OPT_FLOAT, .meaning = "beta != 0 reads C (restored before every run)",
     .def = "0", .min = -1000, .max = 1000},
    {.name = "pad", .kind = CLIMB_OPT_INT,
     .meaning = "elements of padding after each row of A, B and C (lda = k + pad, ldb = ldc = n + pad)", .def = "0",
     .min = 0, .max = 64},
};
CLIMB_OPTION_AT(SGEMM_OPTIONS, OPT_ALPHA, "alpha");
CLIMB_OPTION_AT(SGEMM_OPTIONS, OPT_BETA, "beta");
CLIMB_OPTION_AT(SGEMM_OPTIONS, OPT_PAD, "pad");

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

/* The built-in tile: 128 x 128 x 16 with 8 x 16 a thread and 8 steps unrolled, the fastest on an H100
 * (docs/sgemm.md), for every shape; small outputs take the 64 x 64 instance and split-K whatever the tile. */
static const char *sgemm_tuning_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *v)
{
    (void)dev;
    (void)k;
    v[0] = 128;
    v[1] = 128;
    v[2] = 16;
    v[3] = 16;
    v[4] = 8;
    return "built-in 128 x 128 x 16, 8 x 16 a thread, unroll 8";
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

static void sgemm_destroy(climb_case *c)
{
    if (!c)
        return;
    float *dev[] = {c->d_a, c->d_b, c->d_c, c->d_c0, c->d_ws};
    for (size_t q = 0; q < sizeof dev / sizeof dev[0]; q++)
        if (dev[q])
            cudaFree(dev[q]);
    free(c->h_a);
    free(c->h_b);
    free(c->h_c0);
    free(c->h_c);
    free(c->ref);
    free(c->tol);
    free(c->rows);
    free(c->row_ref);
    free(c->row_tol);
    free(c);
}

static int sgemm_create(const climb_case_params *p, climb_case **out)
{
    *out = NULL;
    climb_case *c = (climb_case *)calloc(1, sizeof *c);
    if (!c) {
        climb_host_oom("the case");
        return -1;
    }
    c->p = *p;
    c->m = p->shape.d[0];
    c->n = p->shape.d[1];
    c->k = p->shape.d[2];
    const size_t pad = (size_t)p->opts[OPT_PAD].i;
    c->lda = c->k + pad;
    c->ldb = c->n + pad;
    c->ldc = c->n + pad;
    c->alpha = (float)p->opts[OPT_ALPHA].f;
    c->beta = (float)p->opts[OPT_BETA].f;
    const int dflt[5] = {128, 128, 16, 16, 8};
    sgemm_set_tuning(c, dflt);
    c->sms = p->dev ? p->dev->sms : 1; /* the device facts already hold it */
    if (c->m > INT32_MAX || c->n > INT32_MAX || c->k > INT32_MAX || c->lda > INT32_MAX || c->ldb > INT32_MAX) {
        fprintf(stderr, "climb: sgemm %zu x %zu x %zu: sizes and leading dimensions must be below 2^31\n", c->m, c->n,
                c->k);
        sgemm_destroy(c);
        return -1;
    }
    const size_t na = c->m * c->lda, nb = c->k * c->ldb, nc = c->m * c->ldc;
    cudaError_t e = cudaMalloc((void **)&c->d_a, (na ? na : 1) * 4);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&c->d_b, (nb ? nb : 1) * 4);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&c->d_c, (nc ? nc : 1) * 4);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&c->d_c0, (nc ? nc : 1) * 4);
    if (e != cudaSuccess) {
        fprintf(stderr, "climb: out of device memory for sgemm %zu x %zu x %zu: %s\n", c->m, c->n, c->k,
                cudaGetErrorString(e));
        cudaGetLastError();
        sgemm_destroy(c);
        return -1;
    }
    if (climb_host_memory_refuses((na + nb + 2 * nc) * 4, "sgemm operands")) {
        sgemm_destroy(c);
        return -1;
    }
    c->h_a = (float *)malloc((na ? na : 1) * 4);
    c->h_b = (float *)malloc((nb ? nb : 1) * 4);
    c->h_c0 = (float *)malloc((nc ? nc : 1) * 4);
    c->h_c = (float *)malloc((nc ? nc : 1) * 4);
    if (!c->h_a || !c->h_b || !c->h_c0 || !c->h_c) {
        climb_host_oom("sgemm %zu x %zu x %zu", c->m, c->n, c->k);
        sgemm_destroy(c);
        return -1;
    }
    climb_rng rng;
    climb_rng_seed(&rng, p->seed);
    climb_rng_fill_f32(&rng, c->h_a, na, -1, 1);
    climb_rng_fill_f32(&rng, c->h_b, nb, -1, 1);
    climb_rng_fill_f32(&rng, c->h_c0, nc, -1, 1);
    if (CLIMB_FAILED(cudaMemcpy(c->d_a, c->h_a, na * 4, cudaMemcpyHostToDevice)) ||
        CLIMB_FAILED(cudaMemcpy(c->d_b, c->h_b, nb * 4, cudaMemcpyHostToDevice)) ||
        CLIMB_FAILED(cudaMemcpy(c->d_c0, c->h_c0, nc * 4, cudaMemcpyHostToDevice))) {
        sgemm_destroy(c);
        return -1;
    }
    *out = c;
    return 0;
}

static const char *sgemm_describe(const climb_case *c)
{
    return c->lda == c->k ? "A, B (and C for beta != 0) uniform random in [-1, 1)"
                          : "A, B (and C for beta != 0) uniform random in [-1, 1), rows padded";
}

/* CPU rows checked against every rung when the reference is the vendor's output. */
#define SGEMM_CPU_ROWS 8

/* The reference of row i into out and tol (n each). */
static void cpu_row(const climb_case *c, size_t i, double *out, double *tol)
{
    climb_sgemm_ref_row(c->h_a, c->lda, c->h_b, c->ldb, c->h_c0 + i * c->ldc, c->n, c->k, c->alpha, c->beta, i, out,
                        tol);
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
    CLIMB_CHECK(cudaMemcpy2D(c->h_c, n * 4, c->d_c, c->ldc * 4, n * 4, m, cudaMemcpyDeviceToHost));
    for (size_t r = 0; r < c->n_rows; r++)
        for (size_t j = 0; j < n; j++) {
            const double got = c->h_c[c->rows[r] * n + j], want = c->row_ref[r * n + j];
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
    for (size_t i = 0; i < m; i++) {
        for (size_t p = 0; p < c->k; p++)
            an[i] += (double)c->h_a[i * c->lda + p] * c->h_a[i * c->lda + p];
        an[i] = sqrt(an[i]);
    }
    for (size_t p = 0; p < c->k; p++)
        for (size_t j = 0; j < n; j++)
            bn[j] += (double)c->h_b[p * c->ldb + j] * c->h_b[p * c->ldb + j];
    for (size_t j = 0; j < n; j++)
        bn[j] = sqrt(bn[j]);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            c->ref[i * n + j] = c->h_c[i * n + j];
            const double cb = c->beta != 0 ? fabs((double)c->beta * c->h_c0[i * c->ldc + j]) : 0;
            c->tol[i * n + j] = 2 * climb_sgemm_tolerance(c->k, fabs((double)c->alpha) * an[i] * bn[j] + cb);
        }
    free(an);
    free(bn);
    snprintf(desc, desclen, "%s's output (%zu CPU rows agree in double), within 2 x 1.01 (k + 2) 2^-24 (|alpha| "
                            "||a_i|| ||b_j|| + |beta c|); the %zu CPU rows checked too",
             SGEMM_RUNGS[0].info.name, c->n_rows, c->n_rows);
    return 0;
}

static double sgemm_ref_cost(const climb_case *c) { return (double)c->m * c->n * c->k; }

static const char *sgemm_refuses(const climb_case *c, int rung)
{
    static char why[120];
    const int t = SGEMM_RUNGS[rung].tile;
    if (t && (c->m % t || c->n % t || c->k % t)) {
        snprintf(why, sizeof why, "m, n and k must be multiples of %d (the seed's assumption; tiled_any takes any)", t);
        return why;
    }
    return NULL;
}

static int sgemm_prepare(climb_case *c, int rung)
{
    if (SGEMM_RUNGS[rung].launch == launch_tuned) {
        const sgemm_instance *in = sgemm_tuned_instance(c->tune);
        if (!in) {
            fprintf(stderr, "climb: sgemm: no tuned instance %d x %d x %d, %d a thread, unroll %d\n", c->tune[0],
                    c->tune[1], c->tune[2], c->tune[3], c->tune[4]);
            return -1;
        }
        c->plan = sgemm_make_plan(in, SGEMM_SMALL, c->m, c->n, c->k, c->sms);
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
    if (SGEMM_RUNGS[rung].launch != launch_cublas)
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
    if (SGEMM_RUNGS[rung].launch != launch_tuned || c->plan.splits <= 1)
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

static int sgemm_run(climb_case *c, int rung, cudaStream_t s)
{
    if (c->m == 0 || c->n == 0)
        return 0;
    CLIMB_CHECK(SGEMM_RUNGS[rung].launch(c, s));
    return 0;
}

static int sgemm_poison(climb_case *c)
{
    CLIMB_CHECK(cudaMemset(c->d_c, 0xFF, c->m * c->ldc * 4));
    return 0;
}

/* Compares C[i][j] of the downloaded output with want; counts a mismatch and describes the first few. */
static void check_one(const climb_case *c, size_t i, size_t j, double want, double tol, size_t *bad, char *msg,
                      size_t msglen)
{
    const double got = c->h_c[i * c->n + j];
    if (fabs(got - want) <= tol)
        return;
    if (*bad < 4) {
        const size_t used = strlen(msg);
        snprintf(msg + used, msglen - used, "%sC[%zu][%zu] = %.9g, expected %.9g (tolerance %.3g)", used ? "; " : "",
                 i, j, got, want, tol);
    }
    (*bad)++;
}

static int sgemm_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    const size_t m = c->m, n = c->n;
    if (m == 0 || n == 0)
        return 0;
    CLIMB_CHECK(cudaMemcpy2D(c->h_c, n * 4, c->d_c, c->ldc * 4, n * 4, m, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    msg[0] = '\0';
    if (c->ref)
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++)
                check_one(c, i, j, c->ref[i * n + j], c->tol[i * n + j], &bad, msg, msglen);
    for (size_t r = 0; r < c->n_rows; r++)
        for (size_t j = 0; j < n; j++)
            check_one(c, c->rows[r], j, c->row_ref[r * n + j], c->row_tol[r * n + j], &bad, msg, msglen);
    if (bad) {
        const size_t used = strlen(msg);
        snprintf(msg + used, msglen - used, " (%zu wrong)", bad);
        return 1;
    }
    return 0;
}

static void sgemm_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->bytes_read = 4.0 * ((double)c->m * c->k + (double)c->k * c->n + (c->beta != 0 ? (double)c->m * c->n : 0));
    out->bytes_written = 4.0 * (double)c->m * c->n;
    out->flops = 2.0 * c->m * c->n * c->k;
}

/* The issue's shapes: squares, the odd 4097, a rectangle and two skinny ones. */
static const climb_shape SGEMM_BENCH_SHAPES[] = {
    CLIMB_SHAPE3(512, 512, 512),    CLIMB_SHAPE3(1024, 1024, 1024), CLIMB_SHAPE3(2048, 2048, 2048),
    CLIMB_SHAPE3(4096, 4096, 4096), CLIMB_SHAPE3(8192, 8192, 8192), CLIMB_SHAPE3(4097, 4097, 4097),
    CLIMB_SHAPE3(1000, 3000, 500),  CLIMB_SHAPE3(16384, 16384, 64), CLIMB_SHAPE3(64, 64, 65536)};
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
    return (double)s->d[0] > INT32_MAX || (double)s->d[1] + pad > INT32_MAX || (double)s->d[2] + pad > INT32_MAX
               ? "sizes and leading dimensions must be below 2^31"
               : NULL;
}

extern "C" const climb_workload climb_sgemm_workload = {
    .name = "sgemm",
    .title = "SGEMM C = alpha A B + beta C (FP32, row-major)",
    .seed_ref = "seeds 001 and 004 matrix multiply (global memory, shared tiles, register tiling, coarsening)",
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
    .sweeps = NULL,
    .n_sweeps = 0,
    .load = NULL,
    .unload = NULL,
    .create = sgemm_create,
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
    .run = sgemm_run,
    .poison = sgemm_poison,
    .verify = sgemm_verify,
    .counts = sgemm_counts,
    .destroy = sgemm_destroy,
    .tuning = &SGEMM_TUNING,
    .set_tuning = sgemm_set_tuning,
};
