/* The tile machinery of climb's FP32 GEMM kernels, shared by the SGEMM ladder's double-buffered rungs
 * (src/workloads/sgemm/) and the CNN layer's implicit GEMM (src/workloads/cnn/): cp.async helpers, the two
 * operand loaders (k along an operand's rows: float4 loads into registers, stored k-major; k down its columns:
 * cp.async straight into shared memory), the thread layouts of a block's outputs, and the double-buffered main
 * loop. docs/sgemm.md explains the design; the loaders are the only part an operand of another shape replaces
 * (an im2col gather, say): anything with fetch(tile, buffer) and commit(buffer) will do. */
#ifndef CLIMB_DEVICE_GEMM_TILE_CUH
#define CLIMB_DEVICE_GEMM_TILE_CUH

#include <stdint.h>

__device__ __forceinline__ void climb_gemm_cp_async16(float *dst, const float *src)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src));
}

/* 4 bytes, or zeros when bytes is 0 (src is then not read) */
__device__ __forceinline__ void climb_gemm_cp_async4(float *dst, const float *src, int bytes)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(bytes));
}

__device__ __forceinline__ void climb_gemm_cp_async_wait_all() { asm volatile("cp.async.wait_all;\n" ::); }

/* A ROWS x BK tile of an operand whose k runs along its rows (A, or B^T: element (r, p) at src[r ld + p]),
 * loaded as float4s along k into registers, then stored k-major (s[p LDS + r]) in shared memory. */
template <int ROWS, int BK, int NT, int LDS> struct climb_gemm_kmajor_loader {
    static constexpr int TOTAL = ROWS * BK / 4, PER = (TOTAL + NT - 1) / NT;
    float4 v[PER];
    __device__ __forceinline__ void fetch(const float *__restrict__ src, int ld, int r0, int rlim, int p0, int plim,
                                          bool vec_ok, float *)
    {
        const bool full = vec_ok && r0 + ROWS <= rlim && p0 + BK <= plim;
#pragma unroll
        for (int i = 0; i < PER; i++) {
            const int f = (int)threadIdx.x + i * NT;
            if (TOTAL % NT != 0 && f >= TOTAL)
                break;
            const int r = f / (BK / 4), q = (f % (BK / 4)) * 4;
            const float *g = src + (size_t)(r0 + r) * ld + p0 + q;
            if (full) {
                v[i] = *(const float4 *)g;
            } else {
                const bool row_ok = r0 + r < rlim;
                v[i].x = row_ok && p0 + q + 0 < plim ? g[0] : 0.0f;
                v[i].y = row_ok && p0 + q + 1 < plim ? g[1] : 0.0f;
                v[i].z = row_ok && p0 + q + 2 < plim ? g[2] : 0.0f;
                v[i].w = row_ok && p0 + q + 3 < plim ? g[3] : 0.0f;
            }
        }
    }
    __device__ __forceinline__ void commit(float *s)
    {
#pragma unroll
        for (int i = 0; i < PER; i++) {
            const int f = (int)threadIdx.x + i * NT;
            if (TOTAL % NT != 0 && f >= TOTAL)
                break;
            const int r = f / (BK / 4), q = (f % (BK / 4)) * 4;
            s[(q + 0) * LDS + r] = v[i].x;
            s[(q + 1) * LDS + r] = v[i].y;
            s[(q + 2) * LDS + r] = v[i].z;
            s[(q + 3) * LDS + r] = v[i].w;
        }
    }
};

/* A BK x COLS tile of an operand whose k runs down its columns (B, or A^T: element (p, c) at src[p ld + c]),
 * copied by cp.async into s[p LDS + c]: 16 bytes at a time inside the matrix, 4 with zero fill at its edges. */
template <int COLS, int BK, int NT, int LDS> struct climb_gemm_direct_loader {
    static constexpr int TOTAL = BK * COLS / 4, PER = (TOTAL + NT - 1) / NT;
    __device__ __forceinline__ void fetch(const float *__restrict__ src, int ld, int c0, int clim, int p0, int plim,
                                          bool vec_ok, float *s)
    {
        const bool full = vec_ok && c0 + COLS <= clim && p0 + BK <= plim;
#pragma unroll
        for (int i = 0; i < PER; i++) {
            const int f = (int)threadIdx.x + i * NT;
            if (TOTAL % NT != 0 && f >= TOTAL)
                break;
            const int p = f / (COLS / 4), cc = (f % (COLS / 4)) * 4;
            float *d = s + p * LDS + cc;
            const float *g = src + (size_t)(p0 + p) * ld + c0 + cc;
            if (full) {
                climb_gemm_cp_async16(d, g);
            } else {
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    const bool ok = p0 + p < plim && c0 + cc + e < clim;
                    climb_gemm_cp_async4(d + e, ok ? g + e : src, ok ? 4 : 0);
                }
            }
        }
    }
    __device__ __forceinline__ void commit(float *) {}
};

/* The same tile as climb_gemm_kmajor_loader, without registers: cp.async copies it as it lies (k contiguous) into
 * `stage` (ROWS x BK floats of shared memory of its own), and commit transposes it from there into the k-major
 * tile, each thread moving the 16-byte pieces it copied itself (its own cp.async writes are visible to it after
 * cp.async.wait_all, so no barrier is needed between the copy and the transpose). The registers a thread holds
 * for the register loader's next tile are free for the multiply. (Its loops repeat the other two loaders' on
 * purpose: sharing helpers with them moved ptxas's register allocation of the A B kernel, 3134 -> 3512 us at
 * 4096^3; docs/sgemm.md.) */
template <int ROWS, int BK, int NT, int LDS> struct climb_gemm_staged_loader {
    static constexpr int TOTAL = ROWS * BK / 4, PER = (TOTAL + NT - 1) / NT;
    float *stage;
    __device__ __forceinline__ void fetch(const float *__restrict__ src, int ld, int r0, int rlim, int p0, int plim,
                                          bool vec_ok, float *)
    {
        const bool full = vec_ok && r0 + ROWS <= rlim && p0 + BK <= plim;
#pragma unroll
        for (int i = 0; i < PER; i++) {
            const int f = (int)threadIdx.x + i * NT;
            if (TOTAL % NT != 0 && f >= TOTAL)
                break;
            const int r = f / (BK / 4), q = (f % (BK / 4)) * 4;
            const float *g = src + (size_t)(r0 + r) * ld + p0 + q;
            float *d = stage + 4 * f;
            if (full) {
                climb_gemm_cp_async16(d, g);
            } else {
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    const bool ok = r0 + r < rlim && p0 + q + e < plim;
                    climb_gemm_cp_async4(d + e, ok ? g + e : src, ok ? 4 : 0);
                }
            }
        }
    }
    __device__ __forceinline__ void commit(float *s)
    {
        climb_gemm_cp_async_wait_all();
#pragma unroll
        for (int i = 0; i < PER; i++) {
            const int f = (int)threadIdx.x + i * NT;
            if (TOTAL % NT != 0 && f >= TOTAL)
                break;
            const int r = f / (BK / 4), q = (f % (BK / 4)) * 4;
            const float4 v = *(const float4 *)(stage + 4 * f);
            s[(q + 0) * LDS + r] = v.x;
            s[(q + 1) * LDS + r] = v.y;
            s[(q + 2) * LDS + r] = v.z;
            s[(q + 3) * LDS + r] = v.w;
        }
    }
};

template <bool DIRECT, int ROWS, int BK, int NT, int LDS> struct climb_gemm_loader {
    typedef climb_gemm_kmajor_loader<ROWS, BK, NT, LDS> type;
};
template <int ROWS, int BK, int NT, int LDS> struct climb_gemm_loader<true, ROWS, BK, NT, LDS> {
    typedef climb_gemm_direct_loader<ROWS, BK, NT, LDS> type;
};

/* The accumulators of a thread's TM x TN outputs, zeroed before the main loop. */
template <int TM, int TN> __device__ __forceinline__ void climb_gemm_zero(float (&acc)[TM][TN])
{
#pragma unroll
    for (int r = 0; r < TM; r++)
#pragma unroll
        for (int q = 0; q < TN; q++)
            acc[r][q] = 0.0f;
}

__device__ __forceinline__ bool climb_gemm_vec_ok(const void *p, int ld) { return ((uintptr_t)p % 16 == 0) && ld % 4 == 0; }

/* Threads of a block: BM BN outputs, 16 RM RN a thread. */
#define CLIMB_GEMM_NT(BM, BN, RM, RN) ((BM) * (BN) / (16 * (RM) * (RN)))
/* Blocks an SM holds: 16 warps with 8 x 8 a thread (at most 128 registers), 8 with more (up to 255). */
#define CLIMB_GEMM_PER_SM(BM, BN, RM, RN) ((RM) * (RN) > 4 ? 256 / CLIMB_GEMM_NT(BM, BN, RM, RN) : 512 / CLIMB_GEMM_NT(BM, BN, RM, RN))


/* A matrix operand for the main loop: tile t covers k in [kb + t BK, kb + (t + 1) BK) of rows [r0, r0 + ROWS) of
 * src (rows rlim, k ke), through loader L. */
template <class L, int BK> struct climb_gemm_matrix_operand {
    L l;
    const float *src;
    int ld, r0, rlim, kb, ke;
    bool vec;
    __device__ __forceinline__ void fetch(int tile, float *s) { l.fetch(src, ld, r0, rlim, kb + tile * BK, ke, vec, s); }
    __device__ __forceinline__ void commit(float *s) { l.commit(s); }
};

/* Which outputs thread t owns: rows row_base + h row_stride + 0..3, columns col_base + v col_stride + 0..3. WARP:
 * each warp a 32 RM x 16 RN tile, its lanes an 8 x 4 grid (conflict-free float4 reads of both operands); else 4 RM
 * contiguous rows and 4 RN contiguous columns a thread. */
template <int BM, int BN, int RM, int RN, bool WARP>
__device__ __forceinline__ void climb_gemm_thread_layout(int t, int *row_base, int *row_stride, int *col_base,
                                                         int *col_stride)
{
    constexpr int TM = 4 * RM, TN = 4 * RN, WM = 32 * RM, WN = 16 * RN;
    if (WARP) {
        const int w = t / 32, lane = t % 32;
        *row_base = (w / (BN / WN)) * WM + (lane / 4) * 4;
        *col_base = (w % (BN / WN)) * WN + (lane % 4) * 4;
        *row_stride = 32;
        *col_stride = 16;
    } else {
        *row_base = (t / (BN / TN)) * TM;
        *col_base = (t % (BN / TN)) * TN;
        *row_stride = 4;
        *col_stride = 4;
    }
}

/* A thread's fragment of one k-step: R float4 reads, stride floats apart from row[base], into f[4 R]. */
template <int R>
__device__ __forceinline__ void climb_gemm_fragment(const float *row, int base, int stride, float (&f)[4 * R])
{
#pragma unroll
    for (int h = 0; h < R; h++) {
        const float4 x = *(const float4 *)&row[base + h * stride];
        f[h * 4 + 0] = x.x;
        f[h * 4 + 1] = x.y;
        f[h * 4 + 2] = x.z;
        f[h * 4 + 3] = x.w;
    }
}

/* One k-tile's multiply: acc[4 RM][4 RN] += the thread's outputs of the BK steps of the tiles at ac (k-major, rows
 * BM + 4 floats apart) and bc (rows BN + 4 apart), U steps unrolled. */
template <int BM, int BN, int BK, int RM, int RN, int U>
__device__ __forceinline__ void climb_gemm_multiply(const float *ac, const float *bc, int row_base, int row_stride,
                                                    int col_base, int col_stride, float (&acc)[4 * RM][4 * RN])
{
    constexpr int LDA_S = BM + 4, LDB_S = BN + 4, TM = 4 * RM, TN = 4 * RN;
#pragma unroll U
    for (int p = 0; p < BK; p++) {
        float ra[TM], rb[TN];
        climb_gemm_fragment<RM>(ac + p * LDA_S, row_base, row_stride, ra);
        climb_gemm_fragment<RN>(bc + p * LDB_S, col_base, col_stride, rb);
#pragma unroll
        for (int r = 0; r < TM; r++)
#pragma unroll
            for (int q = 0; q < TN; q++)
                acc[r][q] = fmaf(ra[r], rb[q], acc[r][q]);
    }
}

/* The double-buffered main loop over ntiles k-tiles: shared memory holds two tiles of each operand (as: 2 BK (BM +
 * 4) floats, bs: 2 BK (BN + 4)); while the block multiplies one, the next is on its way into the other (cp.async,
 * or registers committed after the multiply). acc[4 RM][4 RN] += the thread's outputs. Every thread calls it. */
template <int BM, int BN, int BK, int RM, int RN, int U, class LA, class LB>
__device__ __forceinline__ void climb_gemm_mainloop(LA &la, LB &lb, int ntiles, float *as, float *bs, int row_base,
                                                    int row_stride, int col_base, int col_stride,
                                                    float (&acc)[4 * RM][4 * RN])
{
    constexpr int A_BUF = BK * (BM + 4), B_BUF = BK * (BN + 4);
    if (ntiles > 0) {
        la.fetch(0, as);
        lb.fetch(0, bs);
        asm volatile("cp.async.commit_group;\n" ::);
        la.commit(as);
        lb.commit(bs);
        climb_gemm_cp_async_wait_all();
        __syncthreads();
    }
    for (int tile = 0; tile < ntiles; tile++) {
        const int cur = tile & 1, nxt = cur ^ 1;
        const bool more = tile + 1 < ntiles;
        if (more) {
            la.fetch(tile + 1, as + nxt * A_BUF);
            lb.fetch(tile + 1, bs + nxt * B_BUF);
            asm volatile("cp.async.commit_group;\n" ::);
        }
        const float *ac = as + cur * A_BUF, *bc = bs + cur * B_BUF;
        climb_gemm_multiply<BM, BN, BK, RM, RN, U>(ac, bc, row_base, row_stride, col_base, col_stride, acc);
        if (more) {
            la.commit(as + nxt * A_BUF);
            lb.commit(bs + nxt * B_BUF);
            climb_gemm_cp_async_wait_all();
        }
        __syncthreads();
    }
}

/* The same loop with S >= 3 buffers a ring: tile t + S - 1 is fetched while tile t is multiplied, so a cp.async
 * operand has S - 1 multiplies to land instead of one (an operand through registers still has one: it is committed
 * after the multiply that hid its loads). Shared memory: S BK (BM + 4) floats for as, S BK (BN + 4) for bs. Every
 * tile's copies are one cp.async group (empty past the last tile), so waiting for all but the newest S - 2 groups
 * is waiting for the next tile. */
template <int S> __device__ __forceinline__ void climb_gemm_cp_async_wait_group()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(S));
}
template <int BM, int BN, int BK, int RM, int RN, int U, int S, class LA, class LB>
__device__ __forceinline__ void climb_gemm_mainloop_ring(LA &la, LB &lb, int ntiles, float *as, float *bs, int row_base,
                                                         int row_stride, int col_base, int col_stride,
                                                         float (&acc)[4 * RM][4 * RN])
{
    static_assert(S >= 3, "climb_gemm_mainloop is the two-buffer loop");
    constexpr int A_BUF = BK * (BM + 4), B_BUF = BK * (BN + 4);
#pragma unroll
    for (int s = 0; s < S - 1; s++) {
        if (s < ntiles) {
            la.fetch(s, as + s * A_BUF);
            lb.fetch(s, bs + s * B_BUF);
            la.commit(as + s * A_BUF);
            lb.commit(bs + s * B_BUF);
        }
        asm volatile("cp.async.commit_group;\n" ::);
    }
    climb_gemm_cp_async_wait_group<S - 2>();
    __syncthreads();
    int cur = 0, nb = S - 1;
    for (int tile = 0; tile < ntiles; tile++) {
        const bool more = tile + S - 1 < ntiles;
        if (more) {
            la.fetch(tile + S - 1, as + nb * A_BUF);
            lb.fetch(tile + S - 1, bs + nb * B_BUF);
        }
        asm volatile("cp.async.commit_group;\n" ::);
        const float *ac = as + cur * A_BUF, *bc = bs + cur * B_BUF;
        climb_gemm_multiply<BM, BN, BK, RM, RN, U>(ac, bc, row_base, row_stride, col_base, col_stride, acc);
        if (more) {
            la.commit(as + nb * A_BUF);
            lb.commit(bs + nb * B_BUF);
        }
        climb_gemm_cp_async_wait_group<S - 2>();
        __syncthreads();
        cur = cur == S - 1 ? 0 : cur + 1;
        nb = nb == S - 1 ? 0 : nb + 1;
    }
}

#endif
