/* The tensor-core GEMM kernels: C = alpha A B + beta C with A (m x k) and B (k x n) row-major in BF16 or FP32 and C
 * FP32, accumulated in FP32 on the tensor cores, one template a rung over the precision family:
 *
 *   GEMM_BF16    BF16 inputs, mma.sync m16n8k16;
 *   GEMM_TF32    FP32 inputs rounded to TF32 as they enter the multiply (cvt.rna), mma.sync m16n8k8;
 *   GEMM_3XTF32  FP32 inputs, each split into a TF32 part and a TF32 remainder, three products summed: a_small
 *                b_big + a_big b_small + a_big b_big (the fourth, a_small b_small, is below FP32's rounding), a
 *                stage's products apart, then added into the accumulators by the CUDA cores (rounded adds).
 *
 * Every kernel: a block of 256 threads computes a 128 x 128 tile of C, eight warps of 64 x 32 (each 4 x 4 tiles of
 * the mma's 16 x 8); BK columns of A and rows of B a stage (32 BF16 or 16 FP32: 64 bytes of a row either way).
 * Blocks are numbered down groups of g.group tile rows, GEMM_GROUP on the rungs (each group's B tiles stay in the
 * L2 while its rows go by). Any
 * m, n, k: the loaders zero the parts of a tile past the matrix, the epilogue writes the part inside it. */
#ifndef CLIMB_WORKLOADS_GEMM_KERNELS_CUH
#define CLIMB_WORKLOADS_GEMM_KERNELS_CUH

#include <stdint.h>

#include <cuda.h>

#include "../../device/mma.cuh"

enum { GEMM_BF16 = 0, GEMM_TF32 = 1, GEMM_3XTF32 = 2, GEMM_PRECISIONS = 3 };

typedef struct gemm_args {
    int m, n, k;
    size_t lda, ldb, ldc;   /* elements */
    float alpha, beta;
    const void *a, *b;      /* uint16_t (BF16 bits) or float */
    float *c;
    int vec;                /* 1: a, b 16-byte aligned and lda, ldb whole 16-byte chunks (the 16-byte loads) */
    int tma_c;              /* 1: the warp-specialised kernels store C by TMA (beta 0, C's rows whole 16-byte chunks
                               on 16-byte boundaries) */
    int group;              /* the tile rows a group of the blocks' order spans (gemm_tile_of), 1 or more */
    /* B^T made inside the persistent TF32 kernel (the rung overlapped_transpose; trb 0: made before the kernel) */
    int trb;                /* the blocks that transpose B (the first trb to take a ticket); the rest multiply */
    int band;               /* the columns of B^T tiles (256 rows) a band of the transposers' order spans */
    const float *bsrc;      /* B as stored (k x n, rows ldbsrc apart, 16-byte rows on 16-byte boundaries) */
    size_t ldbsrc;
    int *ready;             /* [0] the blocks' ticket; [1 + c kt + kb]: B^T's panel (tile column c, stage kb) written */
} gemm_args;

template <int P> struct gemm_prec {
    typedef float T;        /* TF32 and 3xTF32 read FP32 */
    static constexpr int BK = 16, CH = 4, PADA = 4, PADB = 8, KSTEP = 8;
};
template <> struct gemm_prec<GEMM_BF16> {
    typedef uint16_t T;     /* BF16 bits */
    static constexpr int BK = 32, CH = 8, PADA = 8, PADB = 8, KSTEP = 16;
};

#define GEMM_BM 128
#define GEMM_BN 128
#define GEMM_THREADS 256
#define GEMM_WM 64
#define GEMM_WN 32
#define GEMM_MT (GEMM_WM / 16)
#define GEMM_NT (GEMM_WN / 8)
#define GEMM_MAX_GROUP 16
#define GEMM_GROUP 8 /* the rungs' group of tile rows (gemm_tile_of); the best path takes a tuned one */
#define GEMM_STAGES 4

/* Shared rows: A's tile BM x BK with rows BK + PADA apart, B's BK x BN with rows BN + PADB apart. The padding puts
 * the eight 16-byte rows an ldmatrix (or the eight lanes of a fragment load) reads in eight different bank groups. */
template <int P> struct gemm_smem {
    static constexpr int LDA = gemm_prec<P>::BK + gemm_prec<P>::PADA, LDB = GEMM_BN + gemm_prec<P>::PADB;
    static constexpr int A_ELEMS = GEMM_BM * LDA, B_ELEMS = gemm_prec<P>::BK * LDB;
    static constexpr size_t STAGE_BYTES = (size_t)(A_ELEMS + B_ELEMS) * sizeof(typename gemm_prec<P>::T);
};

/* The tile (row, column) of block `t` of tm x tn tiles, numbered down groups of `gr` tile rows (the rungs run
 * GEMM_GROUP; the best path its tuned value): a group's blocks go down its rows column by column, so the B tiles
 * of a column are read by gr blocks close in time. */
__device__ __forceinline__ void gemm_tile_of(int t, int tm, int tn, int gr, int *tile_m, int *tile_n)
{
    const int per_group = gr * tn, group = t / per_group, first = group * gr;
    const int rows = tm - first < gr ? tm - first : gr, in = t % per_group;
    *tile_m = first + in % rows;
    *tile_n = in / rows;
}

/* One 16-byte chunk of an operand into shared memory: `valid` of its CH elements from src (0 to CH; the rest
 * zeros). ASYNC: cp.async with zero fill (the caller guarantees 16-byte alignment); else through registers, a
 * 16-byte load where the chunk is whole and vec says it is aligned, element by element otherwise. */
template <typename T, int CH, bool ASYNC>
__device__ __forceinline__ void gemm_chunk(T *dst, const T *src, const T *base, int valid, int vec)
{
    if (ASYNC) {
        climb_cp_async16_zfill(dst, valid ? src : base, valid * (int)sizeof(T));
    } else if (vec && valid == CH) {
        *(uint4 *)dst = *(const uint4 *)src;
    } else {
#pragma unroll
        for (int e = 0; e < CH; e++)
            dst[e] = e < valid ? src[e] : (T)0;
    }
}

/* Stage k0's tiles of A and B into As and Bs: 512 chunks of each, two a thread. */
template <int P, bool ASYNC>
__device__ __forceinline__ void gemm_load_tiles(typename gemm_prec<P>::T *As, typename gemm_prec<P>::T *Bs,
                                                const gemm_args &g, int bm0, int bn0, int k0)
{
    typedef typename gemm_prec<P>::T T;
    constexpr int BK = gemm_prec<P>::BK, CH = gemm_prec<P>::CH;
    constexpr int LDA = gemm_smem<P>::LDA, LDB = gemm_smem<P>::LDB;
    const T *A = (const T *)g.a, *B = (const T *)g.b;
    constexpr int A_ROW = BK / CH, A_CHUNKS = GEMM_BM * A_ROW, B_ROW = GEMM_BN / CH, B_CHUNKS = BK * B_ROW;
#pragma unroll
    for (int i = 0; i < A_CHUNKS / GEMM_THREADS; i++) {
        const int c = (int)threadIdx.x + i * GEMM_THREADS, r = c / A_ROW, cc = c % A_ROW * CH;
        const int row = bm0 + r, col = k0 + cc;
        const int left = g.k - col, valid = row < g.m && left > 0 ? (left < CH ? left : CH) : 0;
        gemm_chunk<T, CH, ASYNC>(As + r * LDA + cc, A + (size_t)row * g.lda + col, A, valid, g.vec);
    }
#pragma unroll
    for (int i = 0; i < B_CHUNKS / GEMM_THREADS; i++) {
        const int c = (int)threadIdx.x + i * GEMM_THREADS, r = c / B_ROW, cc = c % B_ROW * CH;
        const int row = k0 + r, col = bn0 + cc;
        const int left = g.n - col, valid = row < g.k && left > 0 ? (left < CH ? left : CH) : 0;
        gemm_chunk<T, CH, ASYNC>(Bs + r * LDB + cc, B + (size_t)row * g.ldb + col, B, valid, g.vec);
    }
}

/* The warp's products of one stage: acc[mt][nt] += A's rows (wm 64 + mt 16, 16 of them) times B's columns (wn 32 +
 * nt 8, 8 of them) over the stage's BK. LDM: BF16 fragments by ldmatrix (A as is, B transposed); else each
 * thread reads its own elements (32 bits at a time for A's BF16 pairs). */
template <int P, bool LDM>
__device__ __forceinline__ void gemm_stage(float (&acc)[GEMM_MT][GEMM_NT][4], const typename gemm_prec<P>::T *As,
                                           const typename gemm_prec<P>::T *Bs, int wm, int wn)
{
    constexpr int BK = gemm_prec<P>::BK, KSTEP = gemm_prec<P>::KSTEP;
    constexpr int LDA = gemm_smem<P>::LDA, LDB = gemm_smem<P>::LDB;
    const int lane = (int)threadIdx.x % 32, g = lane / 4, t = lane % 4;
    const int r0 = wm * GEMM_WM, c0 = wn * GEMM_WN;
    /* 3xTF32 sums the stage's products apart and adds them into acc with the CUDA cores' rounded adds: the tensor
     * core's adds truncate, and over a long k their bias toward zero would cost 3xTF32 the accuracy it is for */
    float part[GEMM_MT][GEMM_NT][4];
    if constexpr (P == GEMM_3XTF32) {
#pragma unroll
        for (int mt = 0; mt < GEMM_MT; mt++)
#pragma unroll
            for (int nt = 0; nt < GEMM_NT; nt++)
#pragma unroll
                for (int e = 0; e < 4; e++)
                    part[mt][nt][e] = 0.0f;
    }
#pragma unroll
    for (int kk = 0; kk < BK; kk += KSTEP) {
        if constexpr (P == GEMM_BF16) {
            uint32_t a[GEMM_MT][4], b[GEMM_NT][2];
            if constexpr (LDM) {
#pragma unroll
                for (int mt = 0; mt < GEMM_MT; mt++)
                    climb_ldmatrix_x4(a[mt], As + (r0 + mt * 16 + lane % 16) * LDA + kk + lane / 16 * 8);
#pragma unroll
                for (int np = 0; np < GEMM_NT / 2; np++) {
                    uint32_t r[4];
                    climb_ldmatrix_x4_trans(r, Bs + (kk + lane % 8 + lane / 8 % 2 * 8) * LDB + c0 + np * 16 +
                                                   lane / 16 * 8);
                    b[2 * np][0] = r[0];
                    b[2 * np][1] = r[1];
                    b[2 * np + 1][0] = r[2];
                    b[2 * np + 1][1] = r[3];
                }
            } else {
#pragma unroll
                for (int mt = 0; mt < GEMM_MT; mt++) {
                    const uint16_t *p = As + (r0 + mt * 16 + g) * LDA + kk + 2 * t;
                    a[mt][0] = *(const uint32_t *)p;
                    a[mt][1] = *(const uint32_t *)(p + 8 * LDA);
                    a[mt][2] = *(const uint32_t *)(p + 8);
                    a[mt][3] = *(const uint32_t *)(p + 8 * LDA + 8);
                }
#pragma unroll
                for (int nt = 0; nt < GEMM_NT; nt++) {
                    const uint16_t *p = Bs + (kk + 2 * t) * LDB + c0 + nt * 8 + g;
                    b[nt][0] = (uint32_t)p[0] | (uint32_t)p[LDB] << 16;
                    b[nt][1] = (uint32_t)p[8 * LDB] | (uint32_t)p[9 * LDB] << 16;
                }
            }
#pragma unroll
            for (int mt = 0; mt < GEMM_MT; mt++)
#pragma unroll
                for (int nt = 0; nt < GEMM_NT; nt++)
                    climb_mma_bf16_16816(acc[mt][nt], a[mt], b[nt]);
        } else {
            float av[GEMM_MT][4], bv[GEMM_NT][2];
#pragma unroll
            for (int mt = 0; mt < GEMM_MT; mt++) {
                const float *p = As + (r0 + mt * 16 + g) * LDA + kk + t;
                av[mt][0] = p[0];
                av[mt][1] = p[8 * LDA];
                av[mt][2] = p[4];
                av[mt][3] = p[8 * LDA + 4];
            }
#pragma unroll
            for (int nt = 0; nt < GEMM_NT; nt++) {
                const float *p = Bs + (kk + t) * LDB + c0 + nt * 8 + g;
                bv[nt][0] = p[0];
                bv[nt][1] = p[4 * LDB];
            }
            if constexpr (P == GEMM_TF32) {
                uint32_t a[GEMM_MT][4], b[GEMM_NT][2];
#pragma unroll
                for (int mt = 0; mt < GEMM_MT; mt++)
#pragma unroll
                    for (int e = 0; e < 4; e++)
                        a[mt][e] = climb_tf32(av[mt][e]);
#pragma unroll
                for (int nt = 0; nt < GEMM_NT; nt++)
#pragma unroll
                    for (int e = 0; e < 2; e++)
                        b[nt][e] = climb_tf32(bv[nt][e]);
#pragma unroll
                for (int mt = 0; mt < GEMM_MT; mt++)
#pragma unroll
                    for (int nt = 0; nt < GEMM_NT; nt++)
                        climb_mma_tf32_1688(acc[mt][nt], a[mt], b[nt]);
            } else {
                uint32_t ab[GEMM_MT][4], as[GEMM_MT][4], bb[GEMM_NT][2], bs[GEMM_NT][2];
#pragma unroll
                for (int mt = 0; mt < GEMM_MT; mt++)
#pragma unroll
                    for (int e = 0; e < 4; e++)
                        climb_tf32_split(av[mt][e], &ab[mt][e], &as[mt][e]);
#pragma unroll
                for (int nt = 0; nt < GEMM_NT; nt++)
#pragma unroll
                    for (int e = 0; e < 2; e++)
                        climb_tf32_split(bv[nt][e], &bb[nt][e], &bs[nt][e]);
#pragma unroll
                for (int mt = 0; mt < GEMM_MT; mt++)
#pragma unroll
                    for (int nt = 0; nt < GEMM_NT; nt++) {
                        climb_mma_tf32_1688(part[mt][nt], as[mt], bb[nt]);
                        climb_mma_tf32_1688(part[mt][nt], ab[mt], bs[nt]);
                        climb_mma_tf32_1688(part[mt][nt], ab[mt], bb[nt]);
                    }
            }
        }
    }
    if constexpr (P == GEMM_3XTF32) {
#pragma unroll
        for (int mt = 0; mt < GEMM_MT; mt++)
#pragma unroll
            for (int nt = 0; nt < GEMM_NT; nt++)
#pragma unroll
                for (int e = 0; e < 4; e++)
                    acc[mt][nt][e] += part[mt][nt][e];
    }
}

/* C = alpha acc + beta C for the warp's part of the tile inside the matrix (C is read only where beta != 0). */
__device__ __forceinline__ void gemm_epilogue(const float (&acc)[GEMM_MT][GEMM_NT][4], const gemm_args &g, int bm0,
                                              int bn0, int wm, int wn)
{
    const int lane = (int)threadIdx.x % 32, gr = lane / 4, t = lane % 4;
#pragma unroll
    for (int mt = 0; mt < GEMM_MT; mt++)
#pragma unroll
        for (int nt = 0; nt < GEMM_NT; nt++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int row = bm0 + wm * GEMM_WM + mt * 16 + gr + 8 * h, col = bn0 + wn * GEMM_WN + nt * 8 + 2 * t;
                if (row >= g.m)
                    continue;
                float *out = g.c + (size_t)row * g.ldc + col;
#pragma unroll
                for (int e = 0; e < 2; e++)
                    if (col + e < g.n)
                        out[e] = g.beta != 0.0f ? g.alpha * acc[mt][nt][2 * h + e] + g.beta * out[e]
                                                : g.alpha * acc[mt][nt][2 * h + e];
            }
}

/* mma_sync: the tensor cores fed from registers, the tiles through shared memory as the FP32 ladder's first tiled
 * rung does it: load a stage, barrier, multiply, barrier. */
template <int P> __global__ void __launch_bounds__(GEMM_THREADS) gemm_mma_kernel(const gemm_args g, int tm, int tn)
{
    typedef typename gemm_prec<P>::T T;
    __shared__ __align__(16) T As[gemm_smem<P>::A_ELEMS];
    __shared__ __align__(16) T Bs[gemm_smem<P>::B_ELEMS];
    int tile_m, tile_n;
    gemm_tile_of((int)blockIdx.x, tm, tn, g.group, &tile_m, &tile_n);
    const int bm0 = tile_m * GEMM_BM, bn0 = tile_n * GEMM_BN, warp = (int)threadIdx.x / 32;
    const int wm = warp / (GEMM_BN / GEMM_WN), wn = warp % (GEMM_BN / GEMM_WN);
    float acc[GEMM_MT][GEMM_NT][4] = {};
    for (int k0 = 0; k0 < g.k; k0 += gemm_prec<P>::BK) {
        gemm_load_tiles<P, false>(As, Bs, g, bm0, bn0, k0);
        __syncthreads();
        gemm_stage<P, false>(acc, As, Bs, wm, wn);
        __syncthreads();
    }
    gemm_epilogue(acc, g, bm0, bn0, wm, wn);
}

/* pipelined: GEMM_STAGES stages in flight by cp.async (the loads of stage s + 3 issued before stage s is
 * multiplied, one barrier a stage), and for BF16 the fragments by ldmatrix. Dynamic shared memory:
 * GEMM_STAGES gemm_smem<P>::STAGE_BYTES; needs the 16-byte alignment of vec. */
template <int P> __global__ void __launch_bounds__(GEMM_THREADS) gemm_pipe_kernel(const gemm_args g, int tm, int tn)
{
    typedef typename gemm_prec<P>::T T;
    constexpr int BK = gemm_prec<P>::BK, AE = gemm_smem<P>::A_ELEMS, SE = AE + gemm_smem<P>::B_ELEMS;
    extern __shared__ __align__(16) unsigned char gemm_dyn[];
    T *sm = (T *)gemm_dyn;
    int tile_m, tile_n;
    gemm_tile_of((int)blockIdx.x, tm, tn, g.group, &tile_m, &tile_n);
    const int bm0 = tile_m * GEMM_BM, bn0 = tile_n * GEMM_BN, warp = (int)threadIdx.x / 32;
    const int wm = warp / (GEMM_BN / GEMM_WN), wn = warp % (GEMM_BN / GEMM_WN);
    const int kt = (g.k + BK - 1) / BK;
    float acc[GEMM_MT][GEMM_NT][4] = {};
#pragma unroll
    for (int s = 0; s < GEMM_STAGES - 1; s++) {
        if (s < kt)
            gemm_load_tiles<P, true>(sm + s * SE, sm + s * SE + AE, g, bm0, bn0, s * BK);
        climb_cp_async_commit();
    }
    for (int i = 0; i < kt; i++) {
        climb_cp_async_wait<GEMM_STAGES - 2>();
        __syncthreads(); /* stage i is in; every warp is done with stage i - 1, which the next load overwrites */
        const int next = i + GEMM_STAGES - 1;
        if (next < kt) {
            T *s = sm + next % GEMM_STAGES * SE;
            gemm_load_tiles<P, true>(s, s + AE, g, bm0, bn0, next * BK);
        }
        climb_cp_async_commit();
        const T *s = sm + i % GEMM_STAGES * SE;
        gemm_stage<P, P == GEMM_BF16>(acc, s, s + AE, wm, wn);
    }
    climb_cp_async_wait<0>();
    gemm_epilogue(acc, g, bm0, bn0, wm, wn);
}

/* wgmma: Hopper's warp-group MMA (sm_90a). Two warp groups a block, each 64 rows of the 128 x 128 tile by all
 * 128 columns (wgmma m64n128, k16 BF16 or k8 TF32, 64 FP32 accumulators a thread), both operands read by the
 * tensor cores straight from shared memory through descriptors. Both must be K-major there: A is, and B is given
 * transposed (B^T, n x k, rows ldbt apart: the launcher transposes it first). A stage holds 128 bytes of k of
 * each operand's 128 rows (64 BF16, 32 TF32), laid out as wgmma's core matrices without swizzling (8 rows of 16
 * bytes, 128 bytes each; along k 128 bytes apart, along the rows 1024): each 16-byte chunk of a row is one core
 * matrix row, so cp.async fills it chunk by chunk. GEMM_STAGES stages: a stage's products are issued while the
 * next stages load; one batch of products kept in flight behind the next. */
#define GEMM_WG_STAGE_BYTES 32768

/* The byte offset of 16-byte chunk c of row r in a core-matrix tile of rows 128 bytes of k. */
__device__ __forceinline__ int gemm_core_offset(int r, int c) { return ((r >> 3) * 8 + c) * 128 + (r & 7) * 16; }

/* C = alpha d + beta C for a warp group's 64 x (8 NJ) part of the tile inside the matrix, its rows from r0, its
 * columns from c0: accumulator 4 j + 2 h + e is row 16 (warp in the group) + lane / 4 + 8 h, column 8 j + 2 (lane %
 * 4) + e (wgmma's layout for m64nN). A thread's two columns go out in one 8-byte store where C's rows keep them
 * 8-byte aligned (a warp's store then fills whole 32-byte sectors: half the store instructions of two 4-byte ones,
 * each of which filled half of every sector it touched). */
template <int NJ>
__device__ __forceinline__ void gemm_wg_epilogue(const float (&d)[4 * NJ], const gemm_args &g, int r0, int c0)
{
    const int lane = (int)threadIdx.x % 32, w = (int)threadIdx.x / 32 % 4;
    const bool pairs = (uintptr_t)g.c % 8 == 0 && g.ldc % 2 == 0;
#pragma unroll
    for (int j = 0; j < NJ; j++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int row = r0 + w * 16 + lane / 4 + 8 * h, col = c0 + 8 * j + 2 * (lane % 4);
            if (row >= g.m)
                continue;
            float *out = g.c + (size_t)row * g.ldc + col;
            const float v0 = d[4 * j + 2 * h], v1 = d[4 * j + 2 * h + 1];
            if (pairs && col + 1 < g.n) {
                float2 r = make_float2(g.alpha * v0, g.alpha * v1);
                if (g.beta != 0.0f) {
                    const float2 o = *(const float2 *)out;
                    r.x += g.beta * o.x;
                    r.y += g.beta * o.y;
                }
                *(float2 *)out = r;
                continue;
            }
#pragma unroll
            for (int e = 0; e < 2; e++)
                if (col + e < g.n)
                    out[e] = g.beta != 0.0f ? g.alpha * (e ? v1 : v0) + g.beta * out[e] : g.alpha * (e ? v1 : v0);
        }
}

template <int P>
__device__ __forceinline__ void gemm_wg_load(unsigned char *stage, const gemm_args &g, const void *bt, size_t ldbt,
                                             int bm0, int bn0, int k0)
{
    typedef typename gemm_prec<P>::T T;
    constexpr int CH = 16 / (int)sizeof(T);
    const T *A = (const T *)g.a, *B = (const T *)bt;
#pragma unroll
    for (int i = 0; i < 4; i++) { /* A: 128 rows x 8 chunks */
        const int ch = (int)threadIdx.x + i * GEMM_THREADS, r = ch / 8, c = ch % 8;
        const int row = bm0 + r, col = k0 + c * CH, left = g.k - col;
        const int valid = row < g.m && left > 0 ? (left < CH ? left : CH) : 0;
        climb_cp_async16_zfill(stage + gemm_core_offset(r, c), valid ? A + (size_t)row * g.lda + col : A,
                               valid * (int)sizeof(T));
    }
#pragma unroll
    for (int i = 0; i < 4; i++) { /* B^T: 128 rows (columns of C) x 8 chunks */
        const int ch = (int)threadIdx.x + i * GEMM_THREADS, r = ch / 8, c = ch % 8;
        const int row = bn0 + r, col = k0 + c * CH, left = g.k - col;
        const int valid = row < g.n && left > 0 ? (left < CH ? left : CH) : 0;
        climb_cp_async16_zfill(stage + 16384 + gemm_core_offset(r, c), valid ? B + (size_t)row * ldbt + col : B,
                               valid * (int)sizeof(T));
    }
}

template <int P>
__global__ void __launch_bounds__(GEMM_THREADS) gemm_wgmma_kernel(const gemm_args g, const void *bt, size_t ldbt,
                                                                  int tm, int tn)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    typedef typename gemm_prec<P>::T T;
    constexpr int KT = 128 / (int)sizeof(T); /* k a stage */
    extern __shared__ __align__(1024) unsigned char gemm_wg_dyn[];
    int tile_m, tile_n;
    gemm_tile_of((int)blockIdx.x, tm, tn, g.group, &tile_m, &tile_n);
    const int bm0 = tile_m * GEMM_BM, bn0 = tile_n * GEMM_BN, wg = (int)threadIdx.x / 128;
    const int kt = (g.k + KT - 1) / KT;
    float d[64];
#pragma unroll
    for (int i = 0; i < 64; i++)
        d[i] = 0.0f;
#pragma unroll
    for (int s = 0; s < GEMM_STAGES - 1; s++) {
        if (s < kt)
            gemm_wg_load<P>(gemm_wg_dyn + s * GEMM_WG_STAGE_BYTES, g, bt, ldbt, bm0, bn0, s * KT);
        climb_cp_async_commit();
    }
    for (int i = 0; i < kt; i++) {
        climb_cp_async_wait<GEMM_STAGES - 2>();
        __syncthreads();
        climb_fence_proxy_async_shared(); /* the copies' bytes visible to the tensor cores' reads */
        const unsigned char *st = gemm_wg_dyn + i % GEMM_STAGES * GEMM_WG_STAGE_BYTES;
        climb_wgmma_fence();
#pragma unroll
        for (int s = 0; s < 4; s++) { /* 4 k-steps of 32 bytes (2 core matrices along k) */
            const uint64_t da = climb_wgmma_desc(st + wg * 8192 + s * 256, 128, 1024);
            const uint64_t db = climb_wgmma_desc(st + 16384 + s * 256, 128, 1024);
            if (P == GEMM_BF16)
                climb_wgmma_m64n128k16_bf16(d, da, db);
            else
                climb_wgmma_m64n128k8_tf32(d, da, db);
        }
        climb_wgmma_commit();
        climb_wgmma_wait<1>(); /* the batch before this one is done in this warp group */
        __syncthreads();       /* ... and in the other: its stage is free */
        const int next = i + GEMM_STAGES - 1;
        if (next < kt)
            gemm_wg_load<P>(gemm_wg_dyn + next % GEMM_STAGES * GEMM_WG_STAGE_BYTES, g, bt, ldbt, bm0, bn0, next * KT);
        climb_cp_async_commit();
    }
    climb_wgmma_wait<0>();
    climb_cp_async_wait<0>();
    gemm_wg_epilogue<16>(d, g, bm0 + wg * 64, bn0);
#else
    __trap(); /* built without sm_90a: the launcher refuses first */
#endif
}

/* The first 1024-byte boundary of a shared array at or after p (the 128-byte swizzle's pattern repeats every 1024
 * bytes of shared memory, so TMA's and wgmma's tiles start on one; the kernels ask for 1024 bytes more). */
__device__ __forceinline__ unsigned char *gemm_align1024(unsigned char *p)
{
    const unsigned misalign = (unsigned)__cvta_generic_to_shared(p) & 1023u;
    return p + ((1024u - misalign) & 1023u);
}

/* tma: the same warp groups and wgmma, each stage's tiles brought by the Tensor Memory Accelerator: one thread
 * issues the 2-D box copies (A's 128 rows by 128 bytes of k, and B's) that land in the 128-byte swizzle wgmma
 * reads without bank conflicts, zeros where a box passes the matrix's edge, and count their bytes down on the
 * stage's mbarrier, which every thread waits on. No thread spends instructions on addresses or copies.
 * BF16's B is read as stored (BMN: k rows by n, MN-major, boxes of 64 columns by the stage's 64 rows of k), wgmma
 * taking it in its transposed form: no B^T is made. TF32 has no transposed form, so its B^T (rounded to TF32, as
 * the copy must round anyway) is made first and read K-major (a box of the tile's columns by 128 bytes of k). */
#define GEMM_MN_BOX 8192 /* an MN-major box: 64 columns (128 bytes) by 64 rows of k */

/* The copies of B's part of a stage (`cols` columns of the tile from column n0, k from k0) into dst: one box of
 * B^T, or cols / 64 boxes of B as stored (BMN); with MC into both blocks of a cluster of two (multicast). */
template <bool BMN, bool MC = false>
__device__ __forceinline__ void gemm_load_b(unsigned char *dst, const CUtensorMap *map, int k0, int n0, int cols,
                                            uint64_t *bar)
{
    const int boxes = BMN ? cols / 64 : 1;
    for (int j = 0; j < boxes; j++) {
        const int c0 = BMN ? n0 + j * 64 : k0, c1 = BMN ? k0 : n0; /* the box's inner and outer coordinates */
        if (MC)
            climb_tma_load_2d_multicast(dst + j * GEMM_MN_BOX, map, c0, c1, bar, (unsigned short)0x3);
        else
            climb_tma_load_2d(dst + j * GEMM_MN_BOX, map, c0, c1, bar);
    }
}
/* The descriptor of k-step q (16 BF16 or 8 TF32 of k) of a stage's B part at b. */
template <bool BMN> __device__ __forceinline__ uint64_t gemm_desc_b(const unsigned char *b, int q)
{
    return BMN ? climb_wgmma_desc_sw128_mn(b + q * 2048, GEMM_MN_BOX) : climb_wgmma_desc_sw128(b + q * 32);
}
#define GEMM_TMA_STAGE_BYTES 32768
#define GEMM_TMA_SMEM (GEMM_STAGES * GEMM_TMA_STAGE_BYTES + 1024 + 64)

template <int P, bool BMN>
__global__ void __launch_bounds__(GEMM_THREADS)
    gemm_tma_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                    const gemm_args g, int tm, int tn)
{
    static_assert(!BMN || P == GEMM_BF16, "only 16-bit inputs have wgmma's transposed form");
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    typedef typename gemm_prec<P>::T T;
    constexpr int KT = 128 / (int)sizeof(T); /* k a stage */
    extern __shared__ __align__(1024) unsigned char gemm_tma_dyn[];
    unsigned char *base = gemm_align1024(gemm_tma_dyn);
    uint64_t *full = (uint64_t *)(base + GEMM_STAGES * GEMM_TMA_STAGE_BYTES);
    int tile_m, tile_n;
    gemm_tile_of((int)blockIdx.x, tm, tn, g.group, &tile_m, &tile_n);
    const int bm0 = tile_m * GEMM_BM, bn0 = tile_n * GEMM_BN, wg = (int)threadIdx.x / 128;
    const int kt = (g.k + KT - 1) / KT;
    if (threadIdx.x == 0) {
        for (int s = 0; s < GEMM_STAGES; s++)
            climb_mbar_init(&full[s], 1);
        climb_fence_mbar_init();
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int s = 0; s < GEMM_STAGES - 1 && s < kt; s++) {
            unsigned char *st = base + s * GEMM_TMA_STAGE_BYTES;
            climb_mbar_expect_tx(&full[s], GEMM_TMA_STAGE_BYTES);
            climb_tma_load_2d(st, &map_a, s * KT, bm0, &full[s]);
            gemm_load_b<BMN>(st + 16384, &map_b, s * KT, bn0, GEMM_BN, &full[s]);
        }
    float d[64];
#pragma unroll
    for (int i = 0; i < 64; i++)
        d[i] = 0.0f;
    for (int i = 0; i < kt; i++) {
        climb_mbar_wait(&full[i % GEMM_STAGES], (unsigned)(i / GEMM_STAGES) & 1u);
        const unsigned char *st = base + i % GEMM_STAGES * GEMM_TMA_STAGE_BYTES;
        climb_wgmma_fence();
#pragma unroll
        for (int q = 0; q < 4; q++) { /* 4 k-steps of 32 bytes inside the swizzled rows */
            const uint64_t da = climb_wgmma_desc_sw128(st + wg * 8192 + q * 32);
            const uint64_t db = gemm_desc_b<BMN>(st + 16384, q);
            if (P == GEMM_BF16)
                climb_wgmma_m64n128k16_bf16<BMN>(d, da, db);
            else
                climb_wgmma_m64n128k8_tf32(d, da, db);
        }
        climb_wgmma_commit();
        climb_wgmma_wait<1>(); /* the batch before this one is done in this warp group */
        __syncthreads();       /* ... and in the other: its stage is free for the next load */
        const int next = i + GEMM_STAGES - 1;
        if (threadIdx.x == 0 && next < kt) {
            uint64_t *bar = &full[next % GEMM_STAGES];
            unsigned char *dst = base + next % GEMM_STAGES * GEMM_TMA_STAGE_BYTES;
            climb_mbar_expect_tx(bar, GEMM_TMA_STAGE_BYTES);
            climb_tma_load_2d(dst, &map_a, next * KT, bm0, bar);
            gemm_load_b<BMN>(dst + 16384, &map_b, next * KT, bn0, GEMM_BN, bar);
        }
    }
    climb_wgmma_wait<0>();
    gemm_wg_epilogue<16>(d, g, bm0 + wg * 64, bn0);
#else
    __trap(); /* built without sm_90a: the launcher refuses first */
#endif
}

/* warp_specialized: a block of three warp groups and a 128 x 256 tile. Warp group 0 is the producer: one of its
 * threads issues each stage's TMA copies (A 128 rows, B^T 256 rows, 128 bytes of k each) as soon as the consumers
 * have released the stage (its `empty` mbarrier), and the group hands most of its registers to the consumers
 * (setmaxnreg). Warp groups 1 and 2 consume: each waits for a stage's `full` mbarrier, multiplies its 64 rows by
 * all 256 columns (wgmma m64n256: 128 accumulators a thread), and, once the batch before is done, releases that
 * batch's stage. Loads and products no longer take turns: the producer runs GEMM_STAGES stages ahead.
 *
 * persistent: the same kernel on a grid of one block an SM, each block taking tiles t = blockIdx.x, + gridDim.x, ...
 * The stages and their phases run on across the tiles, so while the consumers store a tile's C the producer is
 * already loading the next tile's first stages: the epilogue and the pipeline's fill overlap, and no block waits
 * for another's launch. With a grid of a block a tile, it is warp_specialized. */
#define GEMM_WS_BN 256
#define GEMM_WS_THREADS 384
#define GEMM_WS_A_BYTES 16384
#define GEMM_WS_STAGE_BYTES (GEMM_WS_A_BYTES + 32768)
#define GEMM_WS_C_BYTES 32768 /* the consumers' C buffers: two of 64 x 32 floats each */
#define GEMM_WS_SMEM (GEMM_STAGES * GEMM_WS_STAGE_BYTES + GEMM_WS_C_BYTES + 1024 + 128)

/* clusters (CL = 2): the same kernel in clusters of two blocks that take two tiles one above the other (the same
 * columns of C, so the same tiles of B^T). Each block's producer loads its own A tile and half of the B^T tile,
 * multicast by TMA into both blocks' shared memory: B is read from the L2 once for the two. A stage's `full`
 * barrier in each block counts its A bytes and both halves of B; its `empty` barrier counts a release from every
 * consumer warp of both blocks (each warp's first lane arrives on its own block's barrier and, over the cluster,
 * on the other's), since the other block's producer writes into this block's stage too. The cluster meets before
 * its first copy (the barriers initialised in both) and after its last product (no block leaves while the other
 * may still arrive on its barriers). */
/* A consumer's release of a stage: every thread's arrival on its block's barrier (CL = 1); a warp's, by its first
 * lane, on the barrier of each block of the cluster (CL = 2). */
template <int CL> __device__ __forceinline__ void gemm_ws_release(uint64_t *bar)
{
    if (CL == 2) {
        if (threadIdx.x % 32 == 0) {
            climb_mbar_arrive_cluster(bar, 0);
            climb_mbar_arrive_cluster(bar, 1);
        }
    } else {
        climb_mbar_arrive(bar);
    }
}

/* The warp-specialised kernels' pipeline of S stages of shared memory, each with a `full` barrier (one arrival: the
 * producer's announcement of the stage's bytes, which TMA counts down) and an `empty` one (`releases` arrivals: the
 * consumers' releases). Made by thread 0, then the block (CL = 2: the cluster) meets. */
template <int S, int CL>
__device__ __forceinline__ void gemm_ws_barriers(uint64_t *full, uint64_t *empty, unsigned releases, unsigned fulls = 1)
{
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; s++) {
            climb_mbar_init(&full[s], fulls);
            climb_mbar_init(&empty[s], releases);
        }
        climb_fence_mbar_init();
    }
    if (CL == 2)
        climb_cluster_sync();
    else
        __syncthreads();
}

/* The producer's thread: for each unit of work the block takes (t = first, + stride, ... below units; a unit is a
 * tile, or for CL = 2 a pair of tiles, numbered down groups of gr unit rows of `rows`, tn columns) and each
 * of its kt stages (stage_bytes apart), in one count `it` over them all: the stage's last use released (by the
 * consumers of every block of the cluster), its bytes announced, and LOAD's copies issued into it (load(stage,
 * full barrier, i, unit row, unit column)). */
template <int S, int CL, typename LOAD>
__device__ __forceinline__ void gemm_ws_produce(uint64_t *full, uint64_t *empty, unsigned char *base, unsigned stage_bytes,
                                                int first, int stride, int units, int rows, int tn,
                                                int gr, int kt, const LOAD &load)
{
    int it = 0;
    for (int t = first; t < units; t += stride) {
        int um, un;
        gemm_tile_of(t, rows, tn, gr, &um, &un);
        for (int i = 0; i < kt; i++, it++) {
            const int s = it % S;
            if (it >= S) {
                if (CL == 2)
                    climb_mbar_wait_cluster(&empty[s], (unsigned)(it / S - 1) & 1u);
                else
                    climb_mbar_wait(&empty[s], (unsigned)(it / S - 1) & 1u);
            }
            climb_mbar_expect_tx(&full[s], stage_bytes);
            load(base + s * stage_bytes, &full[s], i, um, un);
        }
    }
}

/* The warp_specialized / persistent / clusters stage: A's 128 rows of the block's tile, and B's 256 columns (CL =
 * 2: this block's half, multicast into both blocks of the cluster), as B^T or as stored (BMN). */
template <int P, int CL, bool BMN> struct gemm_ws_loads {
    const CUtensorMap *a, *b;
    unsigned rank;
    const int *ready; /* B^T made in the kernel (gemm_trb_transpose): its panels' flags, else NULL */
    int kt;
    __device__ __forceinline__ void operator()(unsigned char *st, uint64_t *bar, int i, int um, int un) const
    {
        constexpr int KT = 128 / (int)sizeof(typename gemm_prec<P>::T);
        if (ready) { /* this stage of B^T written (and, by the proxy fence, visible to TMA's reads) */
            const int *f = ready + 1 + un * kt + i;
            while (climb_ld_acquire_gpu(f) == 0)
                __nanosleep(64);
            climb_fence_proxy_async_global();
        }
        climb_tma_load_2d(st, a, i * KT, (um * CL + (int)rank) * GEMM_BM, bar);
        if (CL == 2)
            gemm_load_b<BMN, true>(st + GEMM_WS_A_BYTES + rank * (GEMM_WS_STAGE_BYTES - GEMM_WS_A_BYTES) / 2, b,
                                       i * KT, un * GEMM_WS_BN + (int)rank * GEMM_WS_BN / 2, GEMM_WS_BN / 2, bar);
        else
            gemm_load_b<BMN>(st + GEMM_WS_A_BYTES, b, i * KT, un * GEMM_WS_BN, GEMM_WS_BN, bar);
    }
};

/* A consumer's epilogue through shared memory and TMA (g.tma_c): its 64 x 256 part of the tile, C = alpha d, in 8
 * chunks of 64 rows by 32 columns, each written by the warp group's threads into one of its two 8 KiB buffers (in
 * the 128-byte swizzle: a row's 16-byte pieces XORed with the row's place in its 8, so that a warp's stores fall
 * on every bank alike) and stored by one thread's TMA copy (the parts past C's edges not written). The copy runs on
 * while the threads fill the other buffer and, after the last chunk, while the warp group starts its next tile:
 * the tile's writes to memory no longer hold the tensor cores. The buffer a chunk takes was last read by the copy
 * two chunks before, which that thread waits for (at most one of its copies still reading) before the group's
 * barrier. c: the consumer (its named barrier 1 + c), r0 and c0: its part's first row and column. */
__device__ __forceinline__ void gemm_ws_epilogue_tma(const float (&d)[128], const CUtensorMap *map, float alpha,
                                                     unsigned char *buf, int c, int r0, int c0)
{
    const int t = (int)threadIdx.x % 128, lane = t % 32, w = t / 32;
#pragma unroll
    for (int q = 0; q < 8; q++) {
        unsigned char *b = buf + (q % 2) * 8192;
        if (t == 0)
            climb_bulk_wait_read<1>();
        climb_named_barrier(1 + (unsigned)c, 128);
#pragma unroll
        for (int jj = 0; jj < 4; jj++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int j = 4 * q + jj, row = w * 16 + lane / 4 + 8 * h, col = 8 * jj + 2 * (lane % 4);
                const int piece = (col / 4) ^ (row % 8);
                *(float2 *)(b + row * 128 + piece * 16 + (col % 4) * 4) =
                    make_float2(alpha * d[4 * j + 2 * h], alpha * d[4 * j + 2 * h + 1]);
            }
        climb_fence_proxy_async_shared(); /* the threads' writes made visible to TMA's reads */
        climb_named_barrier(1 + (unsigned)c, 128);
        if (t == 0)
            climb_tma_store_2d(map, c0 + 32 * q, r0, b);
    }
}

/* FP32 A through registers on the warp-specialised kernels (wgmma's RS form): a consumer's A fragments of a stage
 * loaded from the stage's swizzled A tile (FP32, 128 rows of 128 bytes) into registers, where the caller rounds
 * them to TF32 (cvt.rna, as a copy before the kernel would round them: wgmma reading FP32 from shared memory would
 * truncate) or splits them (3xTF32). A thread's 16 values a stage (four k-steps of 8; v[4q..4q+3] step q's
 * fragment): rows r = its consumer's 64 + its warp's 16 + lane / 4 and r + 8, columns lane % 4 and + 4 of each
 * k-step; the 128-byte swizzle puts a row's 16-byte chunk j at j ^ (r % 8), and r % 8 is lane / 4 here, so a
 * warp's 32 loads of one instruction fall on 32 banks. No pass of shared memory over A besides this read, which
 * takes the place of wgmma's own read of it. */
__device__ __forceinline__ void gemm_ws_load_a(float (&v)[16], const unsigned char *tile, int c)
{
    const int lane = (int)threadIdx.x & 31, w = ((int)threadIdx.x >> 5) & 3, g = lane >> 2, t = lane & 3;
    const unsigned char *r0 = tile + (c * 64 + w * 16 + g) * 128, *r1 = r0 + 8 * 128;
#pragma unroll
    for (int q = 0; q < 4; q++) {
        const int lo = ((2 * q) ^ g) * 16 + t * 4, hi = ((2 * q + 1) ^ g) * 16 + t * 4;
        v[4 * q + 0] = *(const float *)(r0 + lo);
        v[4 * q + 1] = *(const float *)(r1 + lo);
        v[4 * q + 2] = *(const float *)(r0 + hi);
        v[4 * q + 3] = *(const float *)(r1 + hi);
    }
}

/* One TF32 stage of a consumer, as the BF16 stage's order goes: its A into registers (a, the pair's one the batch
 * in flight does not read), the batch before done (its stage released), then this stage's four products issued. */
template <int CL>
__device__ __forceinline__ void gemm_ws_stage_tf32(float (&d)[128], uint32_t (&a)[16], const unsigned char *st, int c,
                                                   uint64_t *full, uint64_t *empty, int it, bool first)
{
    const int s = it % GEMM_STAGES;
    climb_mbar_wait(&full[s], (unsigned)(it / GEMM_STAGES) & 1u);
    float v[16];
    gemm_ws_load_a(v, st, c);
#pragma unroll
    for (int j = 0; j < 16; j++)
        a[j] = climb_tf32(v[j]);
    climb_wgmma_wait<0>(); /* the batch before is done: its stage goes back to the producer */
    if (!first)
        gemm_ws_release<CL>(&empty[(it - 1) % GEMM_STAGES]);
    climb_wgmma_fence();
#pragma unroll
    for (int q = 0; q < 4; q++)
        climb_wgmma_m64n256k8_tf32_rs(d, &a[4 * q], climb_wgmma_desc_sw128(st + GEMM_WS_A_BYTES + q * 32));
    climb_wgmma_commit();
}

/* B^T made inside the persistent TF32 kernel by g.trb of its blocks while the others multiply (the rung
 * overlapped_transpose), in place of the pass before it. A panel is one stage's part of a tile of B^T: 256 rows
 * (columns c 256 .. + 255 of B) by 32 values of k (kb 32 .. + 31), read from B as 32 rows of 1 KiB, rounded to TF32
 * (cvt.rna, as the pass before rounds) and written as 256 rows of 128 bytes; then its flag set (g.ready), which the
 * multiplying blocks' producers wait for before they ask TMA for that stage of B^T. The panels go in bands of
 * g.band tile columns, stage by stage across a band's columns, band after band: the order in which the multiplying
 * blocks, going down groups of tile rows one column at a time (a wave of them spans about g.band columns), first
 * need them. Transposing block r takes panels r, r + trb, ...; each comes by 16-byte cp.async into a ring of six
 * 32 KiB stages of shared memory (five panels in flight a block), its rows' 16-byte chunks placed at j ^ (k / 4 mod
 * 8) so that a warp reading four rows of B^T (eight threads a row, four values of k each) falls on 32 banks. Zeros
 * come in past B's edges; nothing is written past n rows or the row's k (rounded up to 4: the workspace's rows). */
#define GEMM_TRB_STAGES 6
#define GEMM_TRB_PANEL 32768
__host__ __device__ __forceinline__ void gemm_trb_panel_of(int p, int tn, int kt, int band, int *c, int *kb)
{
    const int bi = p / (band * kt), rem = p - bi * band * kt, w = band < tn - bi * band ? band : tn - bi * band;
    *kb = rem / w;
    *c = bi * band + rem % w;
}
/* A panel's place in its stage of the ring (bytes): chunk j (0 to 63: B's columns 4j to 4j + 3 of the panel) of
 * B's row `row` (0 to 31: k 32 kb + row) goes to row * 1024 + (j ^ (row / 4 mod 8)) * 16; value e (0 to 3) of
 * the panel's output o (0 to 2047: B^T's row o / 8 of the panel, k 4 (o mod 8) + e) comes from where B's row
 * 4 (o mod 8) + e put column o / 8. The bytes of chunk j at (k, n) that B has (zeros for the rest). */
__host__ __device__ __forceinline__ int gemm_trb_slot(int row, int j) { return row * 1024 + ((j ^ ((row >> 2) & 7)) << 4); }
__host__ __device__ __forceinline__ int gemm_trb_from(int o, int e)
{
    const int nl = o >> 3, qk = o & 7;
    return (4 * qk + e) * 1024 + (((nl >> 2) ^ qk) << 4) + ((nl & 3) << 2);
}
__host__ __device__ __forceinline__ int gemm_trb_valid(int k, int n, int kmax, int nmax)
{
    return k < kmax && n < nmax ? 4 * (nmax - n < 4 ? nmax - n : 4) : 0;
}

__device__ void gemm_trb_transpose(const gemm_args &g, int r, unsigned char *ring, int tn, int kt)
{
    const int t = (int)threadIdx.x, total = tn * kt, mine = r < total ? (total - r + g.trb - 1) / g.trb : 0;
    const float *b = g.bsrc;
    float *bt = (float *)g.b;
    auto load = [&](int i) { /* my i-th panel into stage i mod S */
        if (i < mine) {
            int c, kb;
            gemm_trb_panel_of(r + i * g.trb, tn, kt, g.band, &c, &kb);
            unsigned char *st = ring + (i % GEMM_TRB_STAGES) * GEMM_TRB_PANEL;
            for (int q = t; q < 2048; q += GEMM_WS_THREADS) {
                const int row = q >> 6, j = q & 63, k = kb * 32 + row, n = c * 256 + 4 * j;
                const int valid = gemm_trb_valid(k, n, g.k, g.n);
                climb_cp_async16_zfill(st + gemm_trb_slot(row, j), valid ? b + (size_t)k * g.ldbsrc + n : b, valid);
            }
        }
        climb_cp_async_commit();
    };
    for (int i = 0; i < GEMM_TRB_STAGES - 1; i++)
        load(i);
    for (int i = 0; i < mine; i++) {
        climb_cp_async_wait<GEMM_TRB_STAGES - 2>();
        __syncthreads(); /* panel i landed for every thread; panel i - 1's stage read by all */
        load(i + GEMM_TRB_STAGES - 1);
        int c, kb;
        gemm_trb_panel_of(r + i * g.trb, tn, kt, g.band, &c, &kb);
        const unsigned char *st = ring + (i % GEMM_TRB_STAGES) * GEMM_TRB_PANEL;
        for (int o = t; o < 2048; o += GEMM_WS_THREADS) {
            const int n = c * 256 + (o >> 3), k = kb * 32 + 4 * (o & 7);
            uint4 v;
            v.x = climb_tf32(*(const float *)(st + gemm_trb_from(o, 0)));
            v.y = climb_tf32(*(const float *)(st + gemm_trb_from(o, 1)));
            v.z = climb_tf32(*(const float *)(st + gemm_trb_from(o, 2)));
            v.w = climb_tf32(*(const float *)(st + gemm_trb_from(o, 3)));
            if (n < g.n && k < g.k)
                *(uint4 *)(bt + (size_t)n * g.ldb + k) = v;
        }
        __threadfence(); /* this thread's stores, before the flag */
        __syncthreads();
        if (t == 0)
            climb_st_release_gpu(g.ready + 1 + c * kt + kb, 1);
    }
    climb_cp_async_wait<0>(); /* no copy into shared memory outlives the block */
}

/* B^T made by the persistent TF32 kernel's producer warps on its way into shared memory (experiment): warp w of
 * the producer group fills stage w (a warp a stage), A by TMA (its lane 0), B^T's 256 rows by 32 values of k from B
 * as stored through registers: 16-byte loads of four rows of k at four columns, rounded to TF32, written as four
 * 16-byte chunks of four rows of B^T in TMA's 128-byte swizzle (chunk j of row n at j ^ (n mod 8)). Lane l takes k
 * group l mod 8 and column groups l / 8 + 4 r (r = 0 .. 15), four in flight; a warp's stores fall on every bank
 * once a row. The stage's `full` barrier counts lane 0's announcement of A's bytes and its arrival once the warp's
 * stores are fenced for the tensor cores' reads. */
/* A producer lane's k group (four rows of k) and column group (four columns) of a stage (M 0: kg = lane mod 8, ng =
 * lane / 8; M 1: a 16-byte store's quarter warps, lanes 8q .. 8q + 7, take four k groups by two column groups of
 * either parity, so that their eight chunks fall on eight places of the swizzle), unit u's offsets from them (dn
 * columns, dk rows of k: M 0, column groups ng + 4u; M 1, k groups kg + 4 (u / 8) by column groups ng + 8 (u mod
 * 8), so that a load's 32 lanes read four rows of 128 bytes) and where B^T's chunk kg of row n (0 .. 255) goes. */
__host__ __device__ __forceinline__ void gemm_trp_lane(int lane, int m1, int *kg, int *ng)
{
    *kg = m1 ? (lane >> 1) & 3 : lane & 7;
    *ng = m1 ? (lane & 1) | ((lane >> 3) << 1) : lane >> 3;
}
__host__ __device__ __forceinline__ void gemm_trp_unit(int m1, int u, int *dn, int *dk)
{
    *dk = m1 ? 16 * (u / 8) : 0;
    *dn = m1 ? 32 * (u % 8) : 16 * u;
}
__host__ __device__ __forceinline__ int gemm_trp_slot(int n, int kg) { return n * 128 + ((kg ^ (n & 7)) << 4); }

template <bool EDGE>
__device__ __forceinline__ void gemm_trp_load(const gemm_args &g, const float *p, int k, int n, float4 (&x)[4])
{
#pragma unroll
    for (int q = 0; q < 4; q++) {
        const float *row = p + (size_t)q * g.ldbsrc;
        if (!EDGE || (k + q < g.k && n + 3 < g.n)) {
            x[q] = __ldcg((const float4 *)row);
        } else {
            x[q] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (k + q < g.k) {
                if (n < g.n)
                    x[q].x = __ldcg(row);
                if (n + 1 < g.n)
                    x[q].y = __ldcg(row + 1);
                if (n + 2 < g.n)
                    x[q].z = __ldcg(row + 2);
            }
        }
    }
}
__device__ __forceinline__ void gemm_trp_store(unsigned char *bt, int nl, int kg, const float4 (&x)[4])
{
    const uint4 o[4] = {make_uint4(climb_tf32(x[0].x), climb_tf32(x[1].x), climb_tf32(x[2].x), climb_tf32(x[3].x)),
                        make_uint4(climb_tf32(x[0].y), climb_tf32(x[1].y), climb_tf32(x[2].y), climb_tf32(x[3].y)),
                        make_uint4(climb_tf32(x[0].z), climb_tf32(x[1].z), climb_tf32(x[2].z), climb_tf32(x[3].z)),
                        make_uint4(climb_tf32(x[0].w), climb_tf32(x[1].w), climb_tf32(x[2].w), climb_tf32(x[3].w))};
#pragma unroll
    for (int e = 0; e < 4; e++) {
        const int n = nl + e;
        *(uint4 *)(bt + gemm_trp_slot(n, kg)) = o[e];
    }
}
/* One stage's B^T by one producer warp (gemm_trp_produce): 16 groups of four columns a lane, four in flight. */
template <bool EDGE, int D, int M>
__device__ __forceinline__ void gemm_trp_stage(const gemm_args &g, unsigned char *bt, int k, int n, int kg, int ng,
                                               uint64_t *empty, int wait, unsigned parity, uint64_t *full,
                                               const CUtensorMap *map_a, unsigned char *st, int ka, int ma)
{
    const float *p = g.bsrc + (size_t)k * g.ldbsrc + n;
    float4 v[D][4];
#pragma unroll
    for (int r = 0; r < D; r++) {
        int dn, dk;
        gemm_trp_unit(M, r, &dn, &dk);
        gemm_trp_load<EDGE>(g, p + (size_t)dk * g.ldbsrc + dn, k + dk, n + dn, v[r]);
    }
    if (wait)
        climb_mbar_wait(empty, parity);
    if ((threadIdx.x & 31) == 0) {
        climb_mbar_expect_tx(full, GEMM_WS_A_BYTES);
        climb_tma_load_2d(st, map_a, ka, ma, full);
    }
#pragma unroll 1
    for (int rr = 0; rr < 16; rr += D) {
#pragma unroll
        for (int j = 0; j < D; j++) {
            int dn, dk;
            gemm_trp_unit(M, rr + j, &dn, &dk);
            gemm_trp_store(bt, ng * 4 + dn, kg + dk / 4, v[j]);
            if (rr + D < 16) {
                gemm_trp_unit(M, rr + D + j, &dn, &dk);
                gemm_trp_load<EDGE>(g, p + (size_t)dk * g.ldbsrc + dn, k + dk, n + dn, v[j]);
            }
        }
    }
}
__device__ __forceinline__ void gemm_trp_produce(const gemm_args &g, const CUtensorMap *map_a, uint64_t *full,
                                                 uint64_t *empty, unsigned char *base, int first, int stride,
                                                 int units, int rows, int tn, int gr, int kt)
{
    static_assert(GEMM_STAGES == 4, "a producer warp a stage");
    const int w = ((int)threadIdx.x >> 5) & 3, lane = (int)threadIdx.x & 31, m1 = g.band >= 8;
    int kg, ng;
    gemm_trp_lane(lane, m1, &kg, &ng);
    unsigned char *st = base + w * GEMM_WS_STAGE_BYTES, *bt = st + GEMM_WS_A_BYTES;
    int it = 0;
    for (int t = first; t < units; t += stride) {
        int um, un;
        gemm_tile_of(t, rows, tn, gr, &um, &un);
        for (int i = 0; i < kt; i++, it++) {
            if (it % GEMM_STAGES != w)
                continue;
            const int k = i * 32 + 4 * kg, n0 = un * GEMM_WS_BN, n = n0 + 4 * ng;
            const unsigned parity = (unsigned)(it / GEMM_STAGES - 1) & 1u;
            const bool edge = i * 32 + 32 > g.k || n0 + GEMM_WS_BN > g.n;
            if (g.band == 9 && i + 4 < kt && (i + 5) * 32 <= g.k && n0 + GEMM_WS_BN <= g.n) {
                /* XTRP=9: the warp's next stage of this tile asked of L2 now, a row of 1 KiB a lane */
                const float *row = g.bsrc + (size_t)((i + 4) * 32 + lane) * g.ldbsrc + n0;
                asm volatile("cp.async.bulk.prefetch.L2.global [%0], 1024;\n" ::"l"(row) : "memory");
            }
            if (m1) {
                if (edge)
                    gemm_trp_stage<true, 2, 1>(g, bt, k, n, kg, ng, &empty[w], it >= GEMM_STAGES, parity, &full[w],
                                               map_a, st, i * 32, um * GEMM_BM);
                else
                    gemm_trp_stage<false, 4, 1>(g, bt, k, n, kg, ng, &empty[w], it >= GEMM_STAGES, parity, &full[w],
                                                map_a, st, i * 32, um * GEMM_BM);
            } else if (edge)
                gemm_trp_stage<true, 2, 0>(g, bt, k, n, kg, ng, &empty[w], it >= GEMM_STAGES, parity, &full[w], map_a,
                                           st, i * 32, um * GEMM_BM);
            else if (g.band == 4)
                gemm_trp_stage<false, 4, 0>(g, bt, k, n, kg, ng, &empty[w], it >= GEMM_STAGES, parity, &full[w],
                                            map_a, st, i * 32, um * GEMM_BM);
            else
                gemm_trp_stage<false, 2, 0>(g, bt, k, n, kg, ng, &empty[w], it >= GEMM_STAGES, parity, &full[w],
                                            map_a, st, i * 32, um * GEMM_BM);
            climb_fence_proxy_async_shared(); /* the warp's stores, for wgmma's reads */
            __syncwarp();
            if (lane == 0)
                climb_mbar_arrive(&full[w]);
        }
    }
}

template <int P, int CL, bool BMN>
__global__ void __launch_bounds__(GEMM_WS_THREADS, 1)
    gemm_ws_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                   const __grid_constant__ CUtensorMap map_c, const gemm_args g, int tm, int tn)
{
    static_assert(!BMN || P == GEMM_BF16, "only 16-bit inputs have wgmma's transposed form");
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    typedef typename gemm_prec<P>::T T;
    constexpr int KT = 128 / (int)sizeof(T); /* k a stage */
    extern __shared__ __align__(1024) unsigned char gemm_ws_dyn[];
    unsigned char *base = gemm_align1024(gemm_ws_dyn), *cbuf = base + GEMM_STAGES * GEMM_WS_STAGE_BYTES;
    uint64_t *full = (uint64_t *)(cbuf + GEMM_WS_C_BYTES), *empty = full + GEMM_STAGES;
    const int wg = (int)threadIdx.x / 128;
    /* the tiles a block (CL = 1) or a cluster (CL = 2: pairs of tile rows) takes in turn */
    const unsigned rank = CL == 2 ? climb_cluster_rank() : 0;
    const int units = ((tm + CL - 1) / CL) * tn, kt = (g.k + KT - 1) / KT;
    int first = (int)blockIdx.x / CL, stride = (int)gridDim.x / CL;
    if constexpr (P == GEMM_TF32 && CL == 1 && !BMN) {
        if (g.trb > 0) { /* B^T made here: the first g.trb blocks to start transpose, whatever the order blocks
                            start in (so a multiplying block never waits for a block not yet running) */
            int *role = (int *)(empty + GEMM_STAGES); /* past the barriers, in the 128 bytes kept for them */
            if (threadIdx.x == 0)
                *role = atomicAdd(g.ready, 1);
            __syncthreads();
            const int r = *role;
            if (r < g.trb) {
                gemm_trb_transpose(g, r, base, tn, kt);
                return;
            }
            first = r - g.trb;
            stride = (int)gridDim.x - g.trb;
        }
    }
    /* releases: the consumer warps of both blocks; every consumer thread */
    const bool trp = P == GEMM_TF32 && CL == 1 && !BMN && g.bsrc != NULL && g.trb == 0;
    gemm_ws_barriers<GEMM_STAGES, CL>(full, empty, CL == 2 ? 2 * 8 : 256, trp ? 2 : 1);
    if (trp) {
        if (wg == 0) {
            climb_setmaxnreg_dec<104>();
            gemm_trp_produce(g, &map_a, full, empty, base, first, stride, units, tm, tn, g.group, kt);
            return;
        }
        climb_setmaxnreg_inc<200>();
    } else if (wg == 0) { /* the producer */
        climb_setmaxnreg_dec<40>();
        if (threadIdx.x == 0) {
            const gemm_ws_loads<P, CL, BMN> load = {&map_a, &map_b, rank, g.trb > 0 ? g.ready : NULL, kt};
            gemm_ws_produce<GEMM_STAGES, CL>(full, empty, base, GEMM_WS_STAGE_BYTES, first,
                                             stride, units, (tm + CL - 1) / CL, tn, g.group, kt, load);
        }
        if (CL == 2)
            climb_cluster_sync();
        return;
    } else {
        climb_setmaxnreg_inc<232>();
    }
    const int c = wg - 1; /* the consumer's 64 rows */
    int it = 0;           /* stages consumed so far, as the producer counts them */
    for (int t = first; t < units; t += stride) {
        int tile_m, tile_n;
        gemm_tile_of(t, (tm + CL - 1) / CL, tn, g.group, &tile_m, &tile_n);
        tile_m = tile_m * CL + (int)rank;
        float d[128];
#pragma unroll
        for (int i = 0; i < 128; i++)
            d[i] = 0.0f;
        if constexpr (P == GEMM_TF32) { /* A through registers, two sets alternating (gemm_ws_stage_tf32) */
            uint32_t a0[16], a1[16];
            int i = 0;
            for (; i + 1 < kt; i += 2, it += 2) {
                gemm_ws_stage_tf32<CL>(d, a0, base + (it % GEMM_STAGES) * GEMM_WS_STAGE_BYTES, c, full, empty, it,
                                       i == 0);
                gemm_ws_stage_tf32<CL>(d, a1, base + ((it + 1) % GEMM_STAGES) * GEMM_WS_STAGE_BYTES, c, full, empty,
                                       it + 1, false);
            }
            if (i < kt) {
                gemm_ws_stage_tf32<CL>(d, a0, base + (it % GEMM_STAGES) * GEMM_WS_STAGE_BYTES, c, full, empty, it,
                                       i == 0);
                it++;
            }
        } else {
            for (int i = 0; i < kt; i++, it++) {
                const int s = it % GEMM_STAGES;
                climb_mbar_wait(&full[s], (unsigned)(it / GEMM_STAGES) & 1u);
                const unsigned char *st = base + s * GEMM_WS_STAGE_BYTES;
                climb_wgmma_fence();
#pragma unroll
                for (int q = 0; q < 4; q++)
                    climb_wgmma_m64n256k16_bf16<BMN>(d, climb_wgmma_desc_sw128(st + c * 8192 + q * 32),
                                                     gemm_desc_b<BMN>(st + GEMM_WS_A_BYTES, q));
                climb_wgmma_commit();
                climb_wgmma_wait<1>(); /* the batch before is done: its stage goes back to the producer */
                if (i > 0)
                    gemm_ws_release<CL>(&empty[(it - 1) % GEMM_STAGES]);
            }
        }
        climb_wgmma_wait<0>();
        if (kt > 0) /* the tile's last stage, now read */
            gemm_ws_release<CL>(&empty[(it - 1) % GEMM_STAGES]);
        if (g.tma_c)
            gemm_ws_epilogue_tma(d, &map_c, g.alpha, cbuf + c * 16384, c, tile_m * GEMM_BM + c * 64,
                                 tile_n * GEMM_WS_BN);
        else
            gemm_wg_epilogue<32>(d, g, tile_m * GEMM_BM + c * 64, tile_n * GEMM_WS_BN);
    }
    if (g.tma_c && threadIdx.x % 128 == 0)
        climb_bulk_wait_read<0>(); /* the last copies have read their buffers before the block's memory goes */
    if (CL == 2)
        climb_cluster_sync();
#else
    __trap(); /* built without sm_90a: the launcher refuses first */
#endif
}

/* 3xTF32 on the warp-specialised kernel: each FP32 input as two TF32 terms, big (the value rounded to TF32) and
 * small (the rounding of what is left). B^T comes split, as two TF32 arrays made in the workspace before the
 * kernel; A comes as FP32 and each consumer splits its own A fragments in registers (gemm_ws_load_a), then
 * multiplies them from there (wgmma's RS form). A stage holds three tiles (A, 128 rows; B^T big and small, 128 rows;
 * 128 bytes of k each: 48 KiB), four stages. Each consumer warp group multiplies its 64 rows by the 128 columns
 * (wgmma m64n128k8), each k-step's three products a_small b_big + a_big b_small + a_big b_big into a stage sum of
 * its own, zeroed for the stage; once that batch is done its sum is added into the accumulators by the CUDA cores'
 * rounded adds (the tensor core's adds truncate, and over a long k their bias would cost 3xTF32 the accuracy it is
 * for). A warp group waits for its stage's batch before adding (two stage sums alternating, one in flight while the
 * other is added, made ptxas serialise every wgmma: it will not let other instructions touch a warp group's
 * accumulators while any of its wgmma is in flight); the other consumer's batch keeps the tensor cores busy
 * meanwhile. Persistent or not, as the grid says (a block a tile, or a block an SM looping over tiles).
 * What shared memory moves a stage, by our estimate: with A split before the kernel, four tiles by TMA (64 KiB)
 * and wgmma's reads (each consumer its 8 KiB of A big twice and of A small once, B big twice and B small once:
 * 72 KiB), 208 KiB against the 213 KiB its 128 bytes a clock move in the 1,664 clocks a stage takes at the TF32
 * peak; with A through registers, 48 + 2 x 56 = 160 KiB, and no split copy of A before the kernel. Splitting both
 * operands in shared memory by the producer's idle warps instead (fc87add) measured 1.8x slower at 8192^3 on an
 * H100 (17.29 ms against 9.41): 96 threads could not split a stage as fast as the consumers multiply. */
#define GEMM_W3_BN 128
#define GEMM_W3_STAGES 4
#define GEMM_W3_TILE 16384
#define GEMM_W3_STAGE_BYTES (3 * GEMM_W3_TILE)
#define GEMM_W3_SMEM (GEMM_W3_STAGES * GEMM_W3_STAGE_BYTES + 1024 + 128)

/* The compiler may not move reads or writes of r across this point (the wgmma waits are volatile asm, which plain
 * register code may otherwise cross). */
template <int N> __device__ __forceinline__ void gemm_pin(float (&r)[N])
{
#pragma unroll
    for (int i = 0; i < N; i++)
        asm volatile("" : "+f"(r[i])::"memory");
}

/* A stage's three products into part (zeroed first), in the order small-big, big-small, big-big a k-step: A's
 * fragments loaded and split in registers (big: ab, small: as), B^T's big and small tiles by descriptor. */
__device__ __forceinline__ void gemm_w3_issue(float (&part)[64], const unsigned char *st, int c)
{
    float v[16];
    uint32_t ab[16], as[16];
    gemm_ws_load_a(v, st, c);
#pragma unroll
    for (int j = 0; j < 16; j++)
        climb_tf32_split(v[j], &ab[j], &as[j]);
#pragma unroll
    for (int i = 0; i < 64; i++)
        part[i] = 0.0f;
    climb_wgmma_fence();
#pragma unroll
    for (int q = 0; q < 4; q++) {
        const uint64_t bb = climb_wgmma_desc_sw128(st + GEMM_W3_TILE + q * 32);
        const uint64_t bs = climb_wgmma_desc_sw128(st + 2 * GEMM_W3_TILE + q * 32);
        climb_wgmma_m64n128k8_tf32_rs(part, &as[4 * q], bb);
        climb_wgmma_m64n128k8_tf32_rs(part, &ab[4 * q], bs);
        climb_wgmma_m64n128k8_tf32_rs(part, &ab[4 * q], bb);
    }
    climb_wgmma_commit();
}

__device__ __forceinline__ void gemm_w3_add(float (&acc)[64], float (&part)[64])
{
    gemm_pin(part);
#pragma unroll
    for (int i = 0; i < 64; i++)
        acc[i] = __fadd_rn(acc[i], part[i]);
}

/* 3xTF32's stage: A's 128 rows (FP32), and the big and small parts of B^T's 128 rows. */
struct gemm_ws3_loads {
    const CUtensorMap *a, *bb, *bs;
    __device__ __forceinline__ void operator()(unsigned char *st, uint64_t *bar, int i, int um, int un) const
    {
        climb_tma_load_2d(st, a, i * 32, um * GEMM_BM, bar);
        climb_tma_load_2d(st + GEMM_W3_TILE, bb, i * 32, un * GEMM_W3_BN, bar);
        climb_tma_load_2d(st + 2 * GEMM_W3_TILE, bs, i * 32, un * GEMM_W3_BN, bar);
    }
};

__global__ void __launch_bounds__(GEMM_WS_THREADS, 1)
    gemm_ws3_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_bb,
                    const __grid_constant__ CUtensorMap map_bs, const gemm_args g, int tm, int tn)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    constexpr int KT = 32, S = GEMM_W3_STAGES; /* k a stage: 128 bytes of FP32 */
    extern __shared__ __align__(1024) unsigned char gemm_w3_dyn[];
    unsigned char *base = gemm_align1024(gemm_w3_dyn);
    uint64_t *full = (uint64_t *)(base + S * GEMM_W3_STAGE_BYTES), *empty = full + S;
    const int wg = (int)threadIdx.x / 128, tiles = tm * tn;
    const int kt = (g.k + KT - 1) / KT;
    gemm_ws_barriers<S, 1>(full, empty, 256);
    if (wg == 0) { /* the producer: one thread's loads */
        climb_setmaxnreg_dec<40>();
        if (threadIdx.x == 0) {
            const gemm_ws3_loads load = {&map_a, &map_bb, &map_bs};
            gemm_ws_produce<S, 1>(full, empty, base, GEMM_W3_STAGE_BYTES, (int)blockIdx.x,
                                  (int)gridDim.x, tiles, tm, tn, g.group, kt, load);
        }
        return;
    }
    climb_setmaxnreg_inc<232>();
    const int c = wg - 1;
    int it = 0;
    for (int t = (int)blockIdx.x; t < tiles; t += (int)gridDim.x) {
        int tile_m, tile_n;
        gemm_tile_of(t, tm, tn, g.group, &tile_m, &tile_n);
        float acc[64], part[64];
#pragma unroll
        for (int i = 0; i < 64; i++)
            acc[i] = 0.0f;
        for (int i = 0; i < kt; i++, it++) {
            const int s = it % S;
            climb_mbar_wait(&full[s], (unsigned)(it / S) & 1u);
            gemm_w3_issue(part, base + s * GEMM_W3_STAGE_BYTES, c);
            climb_wgmma_wait<0>(); /* the stage's sum is done: it goes in, the tiles back to the producer */
            climb_mbar_arrive(&empty[s]);
            gemm_w3_add(acc, part);
        }
        gemm_wg_epilogue<16>(acc, g, tile_m * GEMM_BM + c * 64, tile_n * GEMM_W3_BN);
    }
#else
    __trap(); /* built without sm_90a: the launcher refuses first */
#endif
}

#endif
