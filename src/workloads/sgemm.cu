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

#include "../base/check.h"
#include "../device/cublas_shared.h"
#include "../device/gemm_tile.cuh"
#include "../device/device.h"
#include "../device/device_primitives.cuh"
#include "../base/rng.h"
#include "../device/timing.h"
#include "../core/workload.cuh"
#include "sgemm.h"

/* ---------------------------------------------------------------- CPU reference */

extern "C" void climb_sgemm_ref_row(const float *a, size_t lda, int ta, const float *b, size_t ldb, int tb,
                                    const float *c0_row, size_t n, size_t k, float alpha, float beta, size_t row,
                                    double *out, double *mag)
{
    for (size_t j = 0; j < n; j++) {
        out[j] = 0;
        mag[j] = 0;
    }
    for (size_t p = 0; p < k; p++) {
        const double av = ta ? a[p * lda + row] : a[row * lda + p];
        if (tb) {
            for (size_t j = 0; j < n; j++) {
                const double t = av * b[j * ldb + p];
                out[j] += t;
                mag[j] += fabs(t);
            }
        } else {
            const float *brow = b + p * ldb;
            for (size_t j = 0; j < n; j++) {
                out[j] += av * brow[j];
                mag[j] += fabs(av * brow[j]);
            }
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
 * One template, sgemm_db_kernel<BM, BN, BK, RM, RN, U, WARP, TA, TB, STAGED>. A block computes a BM x BN tile of C, each
 * thread a 4 RM x 4 RN block of outputs held as RM x RN sub-blocks of 4 x 4 (so every shared read is a float4):
 * 8 x 8 (RN = 2) or 8 x 16 (RN = 4; 6 shared loads for 128 FFMAs instead of 4 for 64, at about 230 registers
 * and 8 warps an SM instead of 16). U is how many of the BK steps of a tile the compiler unrolls: fully
 * unrolled, 16 steps of 8 x 16 are about 2300 instructions, more than the instruction cache holds comfortably.
 *
 * Double buffering: shared memory holds two k-tiles of A and B. While the block multiplies tile t from one
 * buffer, the next tile is on its way into the other: the operand stored with k contiguous (A, or B^T) is loaded
 * into registers (16-byte loads) before the multiply and written transposed into shared memory after it; the
 * operand stored with k as its rows (B, or A^T) is copied straight into shared memory by cp.async, which needs
 * no registers. One __syncthreads a tile instead of two, and the loads' latency hides behind 8 BK FFMAs. A^T B,
 * where both operands come by cp.async, keeps a ring of 4 k-tiles instead (S = 4: climb_gemm_mainloop_ring), so
 * its copies have three multiplies to land.
 *
 * WARP selects which outputs a thread owns. Without it (double_buffer), thread t owns 8 contiguous rows and 8
 * contiguous columns, as in vec: the float4 reads of a k-row of B by the 16 threads along n land 32 bytes apart,
 * two reads per bank (2-way conflicts). With it (warp tiling), each warp owns a 32 RM x 16 RN tile of C (64 x 32
 * or 64 x 64), its lanes an 8 x 4 grid; a thread's 4 x 4 sub-blocks sit 32 rows and 16 columns apart, so a warp's
 * float4 reads of A cover 8 consecutive float4s and of B 4: no conflicts, and a warp touches a compact piece of
 * each tile.
 *
 * TA / TB: the operand is stored transposed (A as k x m, B as n x k): the loaders swap roles, so a transposed
 * operand needs no pass of its own. STAGED: an operand with k along its rows (A, B^T) is copied by cp.async as it
 * lies into a stage of its own and transposed from there into its tile, instead of through registers (used in
 * A B^T, where both operands are transposed: docs/sgemm.md). Shared tiles are padded by 4 floats a row, which
 * keeps rows 16-byte aligned.
 *
 * Blocks: the first dp_tiles run a tile each over the whole of k; the rest each run one chunk of k of one of the
 * sk_tiles tiles after them, write its raw sums to that split's slot of ws, and sgemm_split_reduce_kernel adds
 * them with alpha and beta (the plan, below, says which tiles split). */

typedef struct sgemm_args {
    int m, n, k, lda, ldb, ldc;
    float alpha, beta;
    const float *a, *b;
    float *c;
    float *ws;      /* the split tiles' partial sums: splits x sk_tiles x BM x BN (unused without them) */
    int kchunk;     /* k per split, a multiple of BK */
    int dp_tiles;   /* blocks [0, dp_tiles) run tiles 0.. whole; the rest, sk_tiles tiles x splits, a chunk of k each */
    int sk_tiles;
} sgemm_args;

/* The loader of an operand: cp.async straight into the tile (k down its columns); through registers, or staged by
 * cp.async and transposed in shared memory (STAGED), when k runs along its rows. */
template <bool STAGED, bool DIRECT, int ROWS, int BK, int NT, int LDS> struct sgemm_loader {
    typedef typename climb_gemm_loader<DIRECT, ROWS, BK, NT, LDS>::type type;
};
template <int ROWS, int BK, int NT, int LDS> struct sgemm_loader<true, false, ROWS, BK, NT, LDS> {
    typedef climb_gemm_staged_loader<ROWS, BK, NT, LDS> type;
};
template <class L> __device__ __forceinline__ void sgemm_set_stage(L &, float *) {}
template <int ROWS, int BK, int NT, int LDS>
__device__ __forceinline__ void sgemm_set_stage(climb_gemm_staged_loader<ROWS, BK, NT, LDS> &l, float *p)
{
    l.stage = p;
}

template <int BM, int BN, int BK, int RM, int RN, int U, bool WARP, bool TA, bool TB, bool STAGED, int S = 2>
__global__ void __launch_bounds__(CLIMB_GEMM_NT(BM, BN, RM, RN), CLIMB_GEMM_PER_SM(BM, BN, RM, RN))
    sgemm_db_kernel(sgemm_args g)
{
    constexpr int NT = CLIMB_GEMM_NT(BM, BN, RM, RN), LDA_S = BM + 4, LDB_S = BN + 4;
    constexpr int A_BUF = BK * LDA_S, B_BUF = BK * LDB_S, TM = 4 * RM, TN = 4 * RN, WM = 32 * RM, WN = 16 * RN;
    static_assert(BM % WM == 0 && BN % WN == 0 && BK % 4 == 0 && NT % 32 == 0 && BK % U == 0, "tile shape");
    extern __shared__ __align__(16) float smem[]; /* S (A_BUF + B_BUF) floats and the stages: sgemm_smem_bytes */
    float *const as = smem, *const bs = smem + S * A_BUF;

    int row_base, row_stride, col_base, col_stride;
    climb_gemm_thread_layout<BM, BN, RM, RN, WARP>((int)threadIdx.x, &row_base, &row_stride, &col_base, &col_stride);
    /* blocks below dp_tiles: tile blockIdx.x whole; above: split z of tile dp_tiles + r, the splits of all the split
     * tiles one after another (z-major: blocks running together share a chunk of k of A's and B's rows). Tiles are
     * numbered along n first. */
    const int tiles_n = (g.n + BN - 1) / BN, b = (int)blockIdx.x, split = b >= g.dp_tiles;
    const int q = b - g.dp_tiles, z = split ? q / g.sk_tiles : 0, tile = split ? g.dp_tiles + q % g.sk_tiles : b;
    const int kb = z * g.kchunk, ke = split ? min(g.k, kb + g.kchunk) : g.k;
    const int row0 = (tile / tiles_n) * BM, col0 = (tile % tiles_n) * BN;
    const int ntiles = ke > kb ? (ke - kb + BK - 1) / BK : 0;

    climb_gemm_matrix_operand<typename sgemm_loader<STAGED, TA, BM, BK, NT, LDA_S>::type, BK> la;
    climb_gemm_matrix_operand<typename sgemm_loader<STAGED, !TB, BN, BK, NT, LDB_S>::type, BK> lb;
    sgemm_set_stage(la.l, bs + S * B_BUF);
    sgemm_set_stage(lb.l, bs + S * B_BUF + (TA ? 0 : BM * BK));
    la.src = g.a, la.ld = g.lda, la.r0 = row0, la.rlim = g.m, la.kb = kb, la.ke = ke, la.vec = climb_gemm_vec_ok(g.a, g.lda);
    lb.src = g.b, lb.ld = g.ldb, lb.r0 = col0, lb.rlim = g.n, lb.kb = kb, lb.ke = ke, lb.vec = climb_gemm_vec_ok(g.b, g.ldb);

    float acc[TM][TN];
    climb_gemm_zero(acc);
    if constexpr (S == 2)
        climb_gemm_mainloop<BM, BN, BK, RM, RN, U>(la, lb, ntiles, as, bs, row_base, row_stride, col_base, col_stride,
                                                   acc);
    else
        climb_gemm_mainloop_ring<BM, BN, BK, RM, RN, U, S>(la, lb, ntiles, as, bs, row_base, row_stride, col_base,
                                                           col_stride, acc);

    /* the epilogue: alpha acc + beta C into C; or, for a split, the raw sums into its BM x BN slot of ws (block
     * dp_tiles + z sk_tiles + r writes slot z sk_tiles + r; the parts of the tile outside C are left unwritten, and
     * unread by the second pass) */
    /* 8 x 8 a thread, unstaged: blockIdx.x read again, so that nothing of the split numbering stays live through
     * the main loop (it spilled under their 128-register cap; docs/sgemm.md, "Registers of the 8 x 8 kernels") */
    int b_out = b;
    if (RN == 2 && !STAGED) {
        unsigned r;
        asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(r));
        b_out = (int)r;
    }
    const bool partial = b_out >= g.dp_tiles;
    float *const out = partial ? g.ws + (size_t)(b_out - g.dp_tiles) * (BM * BN) : g.c;
    const int ldo = partial ? BN : g.ldc, ri0 = partial ? row0 : 0, cj0 = partial ? col0 : 0;
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
                float *o = out + (size_t)(i - ri0) * ldo + (j - cj0);
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

/* Split-K's second pass: for each element of the split tiles (dp_tiles + r, r < sk_tiles; bm x bn each),
 * C = alpha (the splits' partial sums) + beta C. The block's `slices` groups of threads (256 / slices consecutive
 * elements each, so every read is coalesced) take the splits z = s, s + slices, ...: each thread adds its element's
 * sums of one slice in split order, and the threads of slice 0 add the slices' sums in slice order from shared
 * memory. The order depends only on the split count, so the result is the same run to run. One slice (a thread an
 * element, all its splits) keeps the most reads in flight while the chains are short; with one tile split 512 ways
 * (64 x 64 x 65536) its chains of 512 reads took 44.3 us, 8 slices of 64 reads 32.4 us. At 1024^3 (4 splits) 4
 * slices took 76.7 us against 69.8 for one (docs/sgemm.md). */
#define SGEMM_REDUCE_THREADS 256
#define SGEMM_REDUCE_CHAIN 32 /* splits a thread adds before the pass takes another slice (up to 8) */
static int sgemm_reduce_slices(int splits)
{
    int s = 1;
    while (s < 8 && splits > SGEMM_REDUCE_CHAIN * s)
        s *= 2;
    return s;
}
__global__ void __launch_bounds__(SGEMM_REDUCE_THREADS) sgemm_split_reduce_kernel(sgemm_args g, int splits, int bm,
                                                                                  int bn, int slices)
{
    __shared__ float part[SGEMM_REDUCE_THREADS];
    climb_grid_dependency_wait(); /* launched early (sgemm_launch_plan): the splits' sums are complete from here */
    const int per = SGEMM_REDUCE_THREADS / slices, sl = (int)threadIdx.x / per, t = (int)threadIdx.x % per;
    const int tiles_n = (g.n + bn - 1) / bn;
    const unsigned tile_elems = (unsigned)(bm * bn), elems = (unsigned)g.sk_tiles * tile_elems;
    for (unsigned e0 = blockIdx.x * (unsigned)per; e0 < elems; e0 += gridDim.x * (unsigned)per) {
        const unsigned e = e0 + (unsigned)t;
        float s = 0.0f;
        if (e < elems) {
#pragma unroll 8
            for (int z = sl; z < splits; z += slices)
                s += g.ws[(size_t)z * elems + e];
        }
        if (slices > 1) {
            part[threadIdx.x] = s;
            __syncthreads();
        }
        if (sl == 0 && e < elems) {
            for (int q = 1; q < slices; q++)
                s += part[q * per + t];
            const unsigned r = e / tile_elems, loc = e % tile_elems;
            const int tile = g.dp_tiles + (int)r;
            const int i = (tile / tiles_n) * bm + (int)(loc / (unsigned)bn);
            const int j = (tile % tiles_n) * bn + (int)(loc % (unsigned)bn);
            if (i < g.m && j < g.n) {
                float *o = g.c + (size_t)i * g.ldc + j;
                *o = g.beta != 0.0f ? g.alpha * s + g.beta * *o : g.alpha * s;
            }
        }
        if (slices > 1)
            __syncthreads();
    }
}

/* ---- instances, split-K plans and their launch (the bench rungs and the C API) ---- */

typedef void (*sgemm_db_fn)(sgemm_args g);
typedef struct sgemm_instance {
    int bm, bn, bk, tn;   /* tile of C and of k a block works on; columns of C a thread computes (8 rows each) */
    int unroll;           /* steps of k the compiler unrolls in the multiply loop */
    sgemm_db_fn fn;
    const char *name;
    int staged_rows;      /* rows of the operands staged in shared memory (STAGED: A and B^T) */
    int stages;           /* k-tiles of each operand in shared memory (S) */
} sgemm_instance;

/* The tile shapes `climb tune sgemm` tries for the tuned rung, each listed once: the instance tables and the
 * candidate list come from it. A thread computes 8 x tn outputs: 8 x 8 keeps 16 warps an SM (128 registers),
 * 8 x 16 needs about 200 registers and runs 8 warps an SM, with 6 shared loads for 128 FFMAs instead of 4 for
 * 64. All fit 48 KB of shared memory double-buffered; A B^T's stages add (BM + BN) BK floats, which the launch asks
 * for (sgemm_allow_smem). */
#define SGEMM_TUNE_LIST(X) X(64, 64, 8, 8, 8) X(128, 128, 8, 8, 8) X(128, 128, 16, 8, 16) X(128, 128, 16, 16, 8) \
    X(128, 256, 8, 16, 8) X(128, 256, 16, 16, 16) X(256, 128, 16, 16, 16)
#define SGEMM_CANDIDATE(bm, bn, bk, tn, u) bm, bn, bk, tn, u,
static const int SGEMM_TUNE_CANDIDATES[] = {SGEMM_TUNE_LIST(SGEMM_CANDIDATE)};
#define SGEMM_N_TILES ((int)(sizeof SGEMM_TUNE_CANDIDATES / sizeof SGEMM_TUNE_CANDIDATES[0] / 5))

/* The operand forms, numbered transa + 2 transb: A B, A^T B, A B^T, A^T B^T. Every tile shape has an instance for
 * each: the loaders swap roles (an operand with k along its rows goes through registers and is stored k-major,
 * one with k down its columns is copied by cp.async), so each form fills the same shared tiles and runs the same
 * multiply loop. */
#define SGEMM_FORMS 4
static const char *const SGEMM_FORM_NAMES[] = {"nn", "tn", "nt", "tt", NULL};

/* The built-in tiles: 128 x 128 x 16 with 8 x 16 a thread and 8 steps unrolled, the fastest on an H100 in A B, A^T
 * B and A^T B^T; in A B^T, where both operands are transposed into shared memory, 8 x 8 a thread and 16 steps
 * unrolled (3200 us at 4096^3 against 3460 with 8 x 16; docs/sgemm.md). Whatever the tile, the plan splits the
 * tiles past the last full wave, or takes 64 x 64 tiles, where its model says so. */
static void sgemm_form_defaults(int form, int *v)
{
    const int nt = form == 2;
    v[0] = 128;
    v[1] = 128;
    v[2] = 16;
    v[3] = nt ? 8 : 16;
    v[4] = nt ? 16 : 8;
}

#define SGEMM_INSTANCE(ta, tb, label, st, bm, bn, bk, tn, u)                                                     \
    {bm, bn, bk, tn, u, sgemm_db_kernel<bm, bn, bk, 2, tn / 4, u, true, ta, tb, !(ta) && (tb), st>,                \
     "sgemm_db_kernel<" #bm ", " #bn ", " #bk ", 8 x " #tn ", unroll " #u ", warp" label ">",                      \
     !(ta) && (tb) ? (bm) + (bn) : 0, st},
/* A^T B, where both operands come by cp.async, keeps a ring of 4 k-tiles (climb_gemm_mainloop_ring); the forms
 * with an operand through registers keep 2 (a ring spilled there and lost 5%; docs/sgemm.md) */
#define SGEMM_INSTANCE_NN(bm, bn, bk, tn, u) SGEMM_INSTANCE(false, false, "", 2, bm, bn, bk, tn, u)
#define SGEMM_INSTANCE_TN(bm, bn, bk, tn, u) SGEMM_INSTANCE(true, false, ", A^T, ring of 4", 4, bm, bn, bk, tn, u)
#define SGEMM_INSTANCE_NT(bm, bn, bk, tn, u) SGEMM_INSTANCE(false, true, ", B^T, staged", 2, bm, bn, bk, tn, u)
#define SGEMM_INSTANCE_TT(bm, bn, bk, tn, u) SGEMM_INSTANCE(true, true, ", A^T, B^T", 2, bm, bn, bk, tn, u)
static const sgemm_instance SGEMM_TUNED[SGEMM_FORMS][SGEMM_N_TILES] = {
    {SGEMM_TUNE_LIST(SGEMM_INSTANCE_NN)}, {SGEMM_TUNE_LIST(SGEMM_INSTANCE_TN)},
    {SGEMM_TUNE_LIST(SGEMM_INSTANCE_NT)}, {SGEMM_TUNE_LIST(SGEMM_INSTANCE_TT)}};

/* the instance small outputs may take: the first (64 x 64) of the form */
#define SGEMM_SMALL(form) (&SGEMM_TUNED[form][0])

static const sgemm_instance SGEMM_DOUBLE_BUFFER = {128, 128, 8, 8, 8,
                                                   sgemm_db_kernel<128, 128, 8, 2, 2, 8, false, false, false, false>,
                                                   "sgemm_db_kernel<128, 128, 8, 8 x 8, thread>", 0, 2};
/* warp_tiled is the built-in list's 128 x 128 x 8 instance */
#define SGEMM_WARP_TILED (&SGEMM_TUNED[0][1])

static const sgemm_instance *sgemm_tuned_instance(const int *v, int form)
{
    for (int i = 0; i < SGEMM_N_TILES; i++) {
        const sgemm_instance *in = &SGEMM_TUNED[form][i];
        if (in->bm == v[0] && in->bn == v[1] && in->bk == v[2] && in->tn == v[3] && in->unroll == v[4])
            return in;
    }
    return NULL;
}

static int sgemm_threads(const sgemm_instance *in) { return CLIMB_GEMM_NT(in->bm, in->bn, 2, in->tn / 4); }
/* `stages` k-tiles of A and of B, rows padded by 4 floats, and the stages of staged operands: the kernel's dynamic
 * shared memory. */
static size_t sgemm_smem_bytes(const sgemm_instance *in)
{
    return ((size_t)in->stages * in->bk * (in->bm + 4 + in->bn + 4) + (size_t)in->staged_rows * in->bk) * sizeof(float);
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

/* ---- plans: which tiles run whole and which are split along k, chosen by a model of the GPU's time ----
 *
 * A grid of whole tiles loses to wave quantisation: 1089 tiles of 4097^2 on 264 block slots (132 SMs x 2) run as
 * 4 full waves and a fifth with one tile in eight slots; 128 tiles of a tall 16384 x 128 output leave half the
 * slots empty. The plan runs the tiles of the full waves whole (data-parallel) and splits each remaining tile into
 * `splits` chunks of k, the splits of all of them one block each, in the same grid; a second pass adds each split
 * tile's partial sums in order (deterministic) into C, launched early (programmatic dependent launch, sm_90 on) so
 * that its launch overlaps the first kernel's last blocks. With no full wave that is split-K; with no remainder,
 * the plain grid. (Stream-K (Osama, Merrill, Cecka, Garland and Kalra, "Stream-K: Work-centric Parallel Decomposition
 * for Dense Matrix-Matrix Multiplication on the GPU", 2023) divides the remainder's k-iterations evenly over the
 * slots instead and fixes up partial tiles; this is its "data-parallel + split-K" hybrid.)
 *
 * The model: the busiest SM's share, in multiply-adds. Blocks are spread evenly, per_sm resident at a time; an SM
 * reaches its FFMA rate with SGEMM_SAT_OUTPUTS accumulators a thread times its warps resident (8 warps of the
 * 8 x 16 tile, 16 of 8 x 8, but 8 for the 2-warp blocks of the 64 x 64 tile, whose barriers the other blocks of
 * the SM hide), and a fraction of it with fewer (a last round of one 4-warp block per SM of the 8 x 16 tile runs
 * at about half speed). A block costs its tile times its k plus SGEMM_BLOCK_K (the first
 * tile's unhidden load and the epilogue); the split tiles' partial sums cost their bytes twice (written, read) at
 * SGEMM_MACS_PER_BYTE, and the second pass a launch. The 64 x 64 instance of small outputs runs at SGEMM_SMALL_EFF
 * of the tuned tile's rate. A split plan is taken only when it saves SGEMM_SPLIT_GAIN of the whole-tile plan's
 * estimate. docs/sgemm.md gives the numbers the constants come from. */
#define SGEMM_SAT_OUTPUTS 1024     /* 8 warps of 128 outputs a thread: the 8 x 16 tile's FFMAs hide its shared loads */
#define SGEMM_SAT_SMALL_BLOCKS 8   /* warps, for blocks of 2 warps (64 x 64): measured, docs/sgemm.md */
#define SGEMM_BLOCK_K 32           /* a block's fixed cost, in k steps (an estimate) */
#define SGEMM_MACS_PER_BYTE 0.0625 /* an H100 SM's FFMA rate over the GPU's copy bandwidth: ~170 G/s / ~2.8 TB/s */
#define SGEMM_LAUNCH_MACS 4.0e5    /* a launch, ~2.5 us, at ~170 G multiply-adds a second an SM */
#define SGEMM_SMALL_EFF 0.85       /* 64 x 64 over 128 x 128 x 16 at 4096^3 in tune.md at f334924: 3132 / 3687 us */
#define SGEMM_SPLIT_GAIN 0.97      /* a split plan must save 3% of the estimate: the model is no better than that */
/* Each split covers at least this much of k: below it the second pass costs more than the split buys. (128 before
 * the second pass was launched early; at 64, 512^3 splits 8 ways instead of 4: 23.8 -> 21.0 us, and 19.5 with the
 * early launch; docs/sgemm.md.) */
#define SGEMM_SPLIT_MIN_K 64
/* At most this many splits a tile (the second pass adds them one after another). */
#define SGEMM_MAX_SPLITS 512

typedef struct sgemm_plan {
    const sgemm_instance *in;
    size_t tiles;        /* output tiles */
    size_t dp_tiles;     /* tiles 0 .. dp_tiles - 1 run whole */
    size_t sk_tiles;     /* the rest, each split into `splits` chunks of kchunk (a multiple of bk) */
    int splits, kchunk;
    size_t blocks;       /* dp_tiles + sk_tiles x splits */
    size_t ws_bytes;     /* the split tiles' partial sums */
    double cost;         /* the model's estimate: the busiest SM's multiply-adds */
} sgemm_plan;

/* The busiest SM's time for `blocks` blocks of `macs` multiply-adds each, in multiply-adds at the SM's full rate;
 * `sat` warps resident reach that rate. */
static double sgemm_sm_time(size_t blocks, int sms, int per_sm, int warps, int sat, double macs)
{
    if (!blocks)
        return 0;
    const size_t mine = (blocks + sms - 1) / sms, rounds = mine / per_sm, rest = mine % per_sm;
    const double full_rate = per_sm * warps >= sat ? 1.0 : (double)per_sm * warps / sat;
    const double rest_rate = (double)rest * warps >= sat ? 1.0 : (double)rest * warps / sat;
    return (double)rounds * per_sm * macs / full_rate + (rest ? (double)rest * macs / rest_rate : 0.0);
}

/* Fills pl's grid for sk of the tiles split `splits` ways (0: none) and returns the model's estimate. */
static double sgemm_plan_cost(sgemm_plan *pl, size_t sk, int splits, size_t k, int sms, double eff)
{
    const sgemm_instance *in = pl->in;
    const size_t bk = (size_t)in->bk, tile = (size_t)in->bm * in->bn;
    const int per_sm = sgemm_per_sm(in), warps = sgemm_threads(in) / 32;
    const int sat = warps <= 2 ? SGEMM_SAT_SMALL_BLOCKS : SGEMM_SAT_OUTPUTS / (8 * in->tn);
    pl->dp_tiles = pl->tiles - sk;
    pl->sk_tiles = sk;
    pl->splits = 1;
    pl->kchunk = (int)(k > 0 ? (k + bk - 1) / bk * bk : bk);
    if (sk && splits > 1) {
        const size_t chunk = ((k + splits - 1) / splits + bk - 1) / bk * bk;
        pl->kchunk = (int)chunk;
        pl->splits = (int)((k + chunk - 1) / chunk);
    }
    if (pl->splits == 1) { /* nothing split after all: every tile whole */
        pl->dp_tiles = pl->tiles;
        pl->sk_tiles = 0;
    }
    pl->blocks = pl->dp_tiles + pl->sk_tiles * pl->splits;
    pl->ws_bytes = pl->sk_tiles * pl->splits * tile * sizeof(float);
    double t = (sgemm_sm_time(pl->dp_tiles, sms, per_sm, warps, sat, (double)tile * (k + SGEMM_BLOCK_K)) +
                sgemm_sm_time(pl->sk_tiles * pl->splits, sms, per_sm, warps, sat,
                              (double)tile * (pl->kchunk + SGEMM_BLOCK_K))) / eff;
    if (pl->sk_tiles)
        t += (2.0 * pl->ws_bytes + 8.0 * pl->sk_tiles * tile) * SGEMM_MACS_PER_BYTE + SGEMM_LAUNCH_MACS;
    return t;
}

/* Instance in's best plan for m x n x k on `sms` SMs: every tile whole, or the tiles past the last full wave split
 * into the number of chunks the model likes best. */
static sgemm_plan sgemm_plan_for(const sgemm_instance *in, size_t m, size_t n, size_t k, int sms, double eff)
{
    sgemm_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.in = in;
    pl.tiles = ((m + in->bm - 1) / in->bm) * ((n + in->bn - 1) / in->bn);
    pl.cost = sgemm_plan_cost(&pl, 0, 1, k, sms, eff);
    const size_t wave = (size_t)sms * sgemm_per_sm(in), rest = pl.tiles % wave;
    size_t most = k / SGEMM_SPLIT_MIN_K;
    if (most > SGEMM_MAX_SPLITS)
        most = SGEMM_MAX_SPLITS;
    sgemm_plan best = pl;
    for (size_t s = 2; rest && s <= most; s++) {
        sgemm_plan q = pl;
        q.cost = sgemm_plan_cost(&q, rest, (int)s, k, sms, eff);
        if (q.splits > 1 && q.cost < best.cost)
            best = q;
    }
    return best.cost < SGEMM_SPLIT_GAIN * pl.cost ? best : pl;
}

/* The tuned rung's plan: instance `in`'s, or that of `small` (the 64 x 64 instance, when in is another) where the
 * model says it is faster. */
static sgemm_plan sgemm_make_plan(const sgemm_instance *in, const sgemm_instance *small, size_t m, size_t n, size_t k,
                                  int sms)
{
    sgemm_plan pl = sgemm_plan_for(in, m, n, k, sms, 1.0);
    if (small && small != in) {
        const sgemm_plan q = sgemm_plan_for(small, m, n, k, sms, SGEMM_SMALL_EFF);
        if (q.cost < pl.cost)
            pl = q;
    }
    return pl;
}

/* One block a tile, each whole: the ladder rungs before tuned. */
static sgemm_plan sgemm_plain_plan(const sgemm_instance *in, size_t m, size_t n, size_t k)
{
    sgemm_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.in = in;
    pl.tiles = ((m + in->bm - 1) / in->bm) * ((n + in->bn - 1) / in->bn);
    pl.dp_tiles = pl.blocks = pl.tiles;
    pl.splits = 1;
    pl.kchunk = (int)(k > 0 ? k : 1);
    return pl;
}

/* Runs plan pl: every block, then the split tiles' sums. ws holds pl->ws_bytes. */
static cudaError_t sgemm_launch_plan(const sgemm_plan *pl, sgemm_args g, float *ws, int sms, cudaStream_t s)
{
    if (g.m == 0 || g.n == 0)
        return cudaSuccess;
    g.kchunk = pl->kchunk;
    g.ws = ws;
    g.dp_tiles = (int)pl->dp_tiles;
    g.sk_tiles = (int)pl->sk_tiles;
    cudaError_t e = sgemm_allow_smem(pl->in);
    if (e != cudaSuccess)
        return e;
    pl->in->fn<<<(unsigned)pl->blocks, sgemm_threads(pl->in), sgemm_smem_bytes(pl->in), s>>>(g);
    e = cudaGetLastError();
    if (e != cudaSuccess || !pl->sk_tiles)
        return e;
    const int slices = sgemm_reduce_slices(pl->splits), per = SGEMM_REDUCE_THREADS / slices;
    const size_t elems = pl->sk_tiles * pl->in->bm * pl->in->bn;
    size_t blocks = (elems + per - 1) / per;
    if (blocks > (size_t)sms * 8)
        blocks = (size_t)sms * 8;
    /* launched early on sm_90 and later (programmatic dependent launch): its launch overlaps the split kernel's
     * last blocks, and each of its blocks waits for that kernel's sums before reading them */
    int pdl = 0;
    e = climb_current_device_pdl(&pdl);
    if (e != cudaSuccess)
        return e;
    int splits = pl->splits, bm = pl->in->bm, bn = pl->in->bn, sl = slices;
    void *args[] = {&g, &splits, &bm, &bn, &sl};
    return climb_launch_ex((const void *)sgemm_split_reduce_kernel, (unsigned)blocks, SGEMM_REDUCE_THREADS, 0, s, args,
                           pdl);
}

/* The C API's plan: the tuned tile shape (the built-in one where the values name none) in the operands' form. */
static sgemm_plan sgemm_api_plan(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k, int sms)
{
    const int form = (transa != 0) + 2 * (transb != 0);
    const sgemm_instance *in = tuning ? sgemm_tuned_instance(tuning, form) : NULL;
    if (!in) {
        int dflt[5];
        sgemm_form_defaults(form, dflt);
        in = sgemm_tuned_instance(dflt, form);
    }
    return sgemm_make_plan(in, SGEMM_SMALL(form), m, n, k, sms);
}

extern "C" size_t climb_sgemm_workspace(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k,
                                        int sms)
{
    return sgemm_api_plan(tuning, transa, transb, m, n, k, sms).ws_bytes;
}

extern "C" int climb_sgemm_plan_describe(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k,
                                         int sms, climb_sgemm_plan_info *out)
{
    const sgemm_plan pl = sgemm_api_plan(tuning, transa, transb, m, n, k, sms);
    out->bm = pl.in->bm;
    out->bn = pl.in->bn;
    out->tiles = pl.tiles;
    out->dp_tiles = pl.dp_tiles;
    out->sk_tiles = pl.sk_tiles;
    out->splits = pl.splits;
    out->kchunk = pl.kchunk;
    out->ws_bytes = pl.ws_bytes;
    return 0;
}

extern "C" cudaError_t climb_sgemm_best(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k,
                                        float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                                        float beta, float *c, size_t ldc, void *ws, size_t ws_bytes, int sms,
                                        cudaStream_t s)
{
    const sgemm_plan pl = sgemm_api_plan(tuning, transa, transb, m, n, k, sms);
    if (pl.ws_bytes > ws_bytes)
        return cudaErrorInvalidValue;
    sgemm_args g = {(int)m, (int)n, (int)k, (int)lda, (int)ldb, (int)ldc, alpha, beta, a, b, c, NULL, 0, 0, 0};
    return sgemm_launch_plan(&pl, g, (float *)ws, sms, s);
}

/* ---------------------------------------------------------------- the case and launchers */

struct climb_case {
    climb_case_params p;
    size_t m, n, k, lda, ldb, ldc;
    int ta, tb, form;             /* op(A) = A^T, op(B) = B^T; form = ta + 2 tb */
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
    {.info = {.name = "tiled16",
              .idea = "16 x 16 shared-memory tiles (Introduction to CUDA 5.0's): global traffic / 16",
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
    {.info = {.name = "tuned", .idea = "the tile shape `climb tune` picks, in every operand form; the tiles past the "
                                       "last full wave split along k (split-K for few tiles), or 64 x 64 tiles, as "
                                       "a model of the GPU's time chooses",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_tuned},
     .launch = launch_tuned},
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
        sgemm_destroy(c);
        return -1;
    }
    const size_t na = (c->ta ? c->k : c->m) * c->lda, nb = (c->tb ? c->n : c->k) * c->ldb, nc = c->m * c->ldc;
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
    if (c->form != 0 && SGEMM_RUNGS[rung].launch != launch_cublas && SGEMM_RUNGS[rung].launch != launch_tuned)
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
    if (SGEMM_RUNGS[rung].launch == launch_tuned) {
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
    if (SGEMM_RUNGS[rung].launch != launch_tuned || !c->plan.ws_bytes)
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
    .seed_ref = "Introduction to CUDA 5.0 and Hwu, Kirk and El Hajj, Programming Massively Parallel Processors: "
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
