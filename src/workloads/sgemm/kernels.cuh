/* SGEMM's kernels (src/workloads/sgemm/), one per rung, each with what it changes. */
#ifndef CLIMB_WORKLOADS_SGEMM_KERNELS_CUH
#define CLIMB_WORKLOADS_SGEMM_KERNELS_CUH

#include "../../device/device_primitives.cuh"
#include "../../device/gemm_tile.cuh"
#include "sgemm.h"

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

/* sgemm_tiled<T, CHECKED>: the article's shared-memory tiles. A block computes a T x T tile of C; it walks k in steps
 * of T, each thread loading one element of A's and B's T x T tiles into shared memory, then T FFMAs from shared
 * memory: global traffic falls by T. Without CHECKED the shapes must be multiples of T (the article's assumption);
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

/* sgemm_reg_1d: joint register and shared-memory tiling (Volkov and Demmel; the article's U/T/S): a block computes a
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

#endif
