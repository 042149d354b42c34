/*
 * winograd_fused.cuh - Winograd's F(2 x 2, 3 x 3) with the transforms around the products in one kernel (after
 * Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks"): the transformed input tiles and the
 * products never reach memory. Included by cnn.cu only (it uses its layer and constant matrices).
 *
 * Two launches a layer. The filters' transform writes U[e][c][k] (e the 16 positions of a 4 x 4 tile; c padded
 * with zeros to a multiple of WGF_CB, k to a multiple of WGF_BK), so that a block's slice of U is whole 16-byte
 * rows. The main kernel: a block computes WGF_BK filters times WGF_BT output tiles (2 x 2 outputs each) for all 16
 * positions, a warp a position (16 warps). Step by step over the channels, WGF_CB at a time, double-buffered:
 * cp.async brings the next slice of U into shared memory while each thread loads the 4 x 4 input window of one
 * (channel, tile) into registers; the block multiplies the current stage (each thread 8 filters x 8 tiles of its
 * warp's position, 64 FFMAs per 4 shared loads of 16 bytes); then each thread transforms its window (B^T d B,
 * additions only) into the other stage. At the end the 16 products of each (filter, tile) meet in shared memory
 * and the output transform A^T M A writes the 2 x 2 outputs inside y.
 */
#ifndef CLIMB_CNN_WINOGRAD_FUSED_CUH
#define CLIMB_CNN_WINOGRAD_FUSED_CUH

#define WGF_BK 64      /* filters a block */
#define WGF_BT 32      /* output tiles a block */
#define WGF_CB 16      /* channels a step */
#define WGF_THREADS 512 /* a warp a position */
#define WGF_MP 36      /* pitch of the staged products' rows: 32 tiles + 4 (float4 stores without bank conflicts) */
#define WGF_STAGE (16 * WGF_CB * (WGF_BK + WGF_BT))
#define WGF_SMEM (2 * WGF_STAGE * sizeof(float)) /* 192 KB; the staged products (16 x 64 x 36) fit in it */

static_assert(16 * WGF_BK * WGF_MP <= 2 * WGF_STAGE, "the staged products fit in the stages");

/* U's padded sizes: filters to a multiple of WGF_BK, channels to a multiple of WGF_CB. */
static inline int wgf_kp(int k) { return (k + WGF_BK - 1) / WGF_BK * WGF_BK; }
static inline int wgf_cp(int c) { return (c + WGF_CB - 1) / WGF_CB * WGF_CB; }
/* U's bytes: 16 Cp Kp floats (sizes below 2^30 each: no wrap in size_t). */
static inline size_t wgf_u_bytes(const climb_cnn_layer *l) { return 16 * (size_t)wgf_cp(l->c) * wgf_kp(l->k) * sizeof(float); }

/* The filters' transform of F(M x M, R x R), a thread a (c, k) of the padded sizes (k fastest): U[e][c][k] =
 * (G g G^T)[e] over the (M + R - 1)^2 positions e, 0 in the padding. */
template <int M, int R = 3>
__global__ void __launch_bounds__(256) cnn_wgf_filter_kernel(const float *w, int K, int C, int Kp, int Cp, float *U)
{
    constexpr int A = M + R - 1;
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; /* i = c Kp + k */
    const size_t plane = (size_t)Kp * Cp;
    if (i >= plane)
        return;
    const int k = (int)(i % Kp), c = (int)(i / Kp);
    float u[A][A];
    if (k < K && c < C) {
        float g[R][R];
#pragma unroll
        for (int j = 0; j < R * R; j++)
            g[j / R][j % R] = w[((size_t)k * C + c) * (R * R) + j];
        wg_sandwich<A, R, R>(wg_g<M, R>(), g, u);
    } else {
#pragma unroll
        for (int e = 0; e < A * A; e++)
            u[e / A][e % A] = 0;
    }
#pragma unroll
    for (int e = 0; e < A * A; e++)
        U[(size_t)e * plane + i] = u[e / A][e % A];
}

/* B^T d B of F(2 x 2, 3 x 3) in place (B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]): rows, then columns. */
__device__ __forceinline__ void wgf_input_transform(float (&d)[4][4])
{
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const float d0 = d[0][j], d1 = d[1][j], d2 = d[2][j], d3 = d[3][j];
        d[0][j] = d0 - d2;
        d[1][j] = d1 + d2;
        d[2][j] = d2 - d1;
        d[3][j] = d1 - d3;
    }
#pragma unroll
    for (int i = 0; i < 4; i++) {
        const float t0 = d[i][0], t1 = d[i][1], t2 = d[i][2], t3 = d[i][3];
        d[i][0] = t0 - t2;
        d[i][1] = t1 + t2;
        d[i][2] = t2 - t1;
        d[i][3] = t1 - t3;
    }
}

/* The block's tiles t0 .. t0 + WGF_BT (T in all, th x tw a map) and filters k0 .. k0 + WGF_BK; grid x over the
 * tiles, y over the filters. */
__global__ void __launch_bounds__(WGF_THREADS, 1)
    cnn_wgf2_kernel(const float *__restrict__ x, const float *__restrict__ U, climb_cnn_layer l, int th, int tw,
                    int Kp, int Cp, float *__restrict__ y)
{
    extern __shared__ float4 wgf_smem4[];
    float *const sm = (float *)wgf_smem4;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int tiles_map = th * tw, T = l.n * tiles_map;
    const int t0 = blockIdx.x * WGF_BT, k0 = blockIdx.y * WGF_BK;

    /* Loading role: channel `warp` of each step, tile `lane`; its window's offset in x (channel 0) and which of the
     * window's rows and columns lie inside the image. */
    long long xoff = 0;
    unsigned rows = 0, cols = 0;
    {
        const int t = t0 + lane;
        if (t < T) {
            const int n = t / tiles_map, r = t - n * tiles_map, ty = r / tw, tx = r - ty * tw;
            const int y0 = 2 * ty - l.pad_h, x0 = 2 * tx - l.pad_w;
#pragma unroll
            for (int a = 0; a < 4; a++) {
                rows |= (unsigned)(y0 + a >= 0 && y0 + a < l.h) << a;
                cols |= (unsigned)(x0 + a >= 0 && x0 + a < l.w) << a;
            }
            xoff = (long long)n * l.c * l.h * l.w + (long long)y0 * l.w + x0;
        }
    }
    const long long hw = (long long)l.h * l.w;
    /* this block's steps: a split of the channels where the grid's z splits them (its outputs then added) */
    const int all_steps = Cp / WGF_CB, per = (all_steps + gridDim.z - 1) / gridDim.z;
    const int first = blockIdx.z * per, steps = min(per, all_steps - first);
    const int split = gridDim.z > 1;

    float d[4][4];
    auto load_window = [&](int s) {
        const int c = (first + s) * WGF_CB + warp;
        const unsigned rr = c < l.c ? rows : 0u;
        const long long base = xoff + c * hw;
#pragma unroll
        for (int a = 0; a < 4; a++)
#pragma unroll
            for (int b = 0; b < 4; b++)
                d[a][b] = (rr >> a) & (cols >> b) & 1u ? __ldg(x + base + (long long)a * l.w + b) : 0.0f;
    };
    auto store_window = [&](float *stage) {
        wgf_input_transform(d);
        float *vs = stage + 16 * WGF_CB * WGF_BK + warp * WGF_BT + lane; /* V[e][c][t] */
#pragma unroll
        for (int e = 0; e < 16; e++)
            vs[e * WGF_CB * WGF_BT] = d[e / 4][e % 4];
    };
    /* Copying role: 16-byte pieces of U[e][c][k0 ..]; thread tid copies column (tid % 16) 4 of rows tid / 16 + 32 i
     * (row = e WGF_CB + c), i.e. position tid / 256 + 2 i, channel tid / 16 % 16. */
    static_assert(WGF_CB == 16 && WGF_BK == 64 && WGF_THREADS == 512, "the copying role's arithmetic");
    const float *const u_src = U + ((size_t)(tid >> 8) * Cp + ((tid >> 4) & 15)) * Kp + k0 + (tid & 15) * 4;
    const size_t u_step = 2 * (size_t)Cp * Kp; /* two positions */
    const int u_dst = (tid >> 4) * WGF_BK + (tid & 15) * 4;
    auto copy_u = [&](int s, float *stage) {
        const float *src = u_src + (size_t)(first + s) * WGF_CB * Kp;
#pragma unroll
        for (int i = 0; i < 8; i++)
            climb_gemm_cp_async16(stage + u_dst + i * 32 * WGF_BK, src + i * u_step);
        asm volatile("cp.async.commit_group;\n" ::);
    };

    /* Product role: position `warp`, filters kg 4 + {0..3} and 32 + kg 4 + {0..3}, tiles tg 4 + {0..3} and
     * 16 + tg 4 + {0..3}. */
    const int kg = lane >> 2, tg = lane & 3;
    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++)
            acc[i][j] = 0;

    if (steps > 0) { /* a split past the channels (more splits than steps) adds zeros */
        copy_u(0, sm);
        load_window(0);
        store_window(sm);
    }
    climb_gemm_cp_async_wait_all();
    __syncthreads();
    for (int s = 0; s < steps; s++) {
        float *const cur = sm + (s & 1) * WGF_STAGE, *const nxt = sm + ((s + 1) & 1) * WGF_STAGE;
        const int more = s + 1 < steps;
        if (more) {
            copy_u(s + 1, nxt);
            load_window(s + 1);
        }
        const float *us = cur + warp * WGF_CB * WGF_BK + kg * 4;
        const float *vs = cur + 16 * WGF_CB * WGF_BK + warp * WGF_CB * WGF_BT + tg * 4;
#pragma unroll
        for (int c = 0; c < WGF_CB; c++) {
            const float4 a0 = *(const float4 *)(us + c * WGF_BK), a1 = *(const float4 *)(us + c * WGF_BK + 32);
            const float4 b0 = *(const float4 *)(vs + c * WGF_BT), b1 = *(const float4 *)(vs + c * WGF_BT + 16);
            const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        if (more)
            store_window(nxt);
        climb_gemm_cp_async_wait_all();
        __syncthreads();
    }

    /* The products M[e][k][t] meet in shared memory (the stages are free: the loop ended on a barrier). */
#pragma unroll
    for (int i = 0; i < 8; i++) {
        float *m = sm + (warp * WGF_BK + (i < 4 ? kg * 4 + i : 32 + kg * 4 + i - 4)) * WGF_MP + tg * 4;
        *(float4 *)m = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        *(float4 *)(m + 16) = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
    }
    __syncthreads();
    /* A^T M A (A^T = [1 1 1 0; 0 1 -1 -1]) for WGF_BK x WGF_BT (filter, tile) pairs, a thread 4 of them. */
#pragma unroll
    for (int j = 0; j < WGF_BK * WGF_BT / WGF_THREADS; j++) {
        const int p = tid + j * WGF_THREADS, kk = p / WGF_BT, tt = p % WGF_BT;
        const int k = k0 + kk, t = t0 + tt;
        if (k >= l.k || t >= T)
            continue;
        float m[4][4];
#pragma unroll
        for (int e = 0; e < 16; e++)
            m[e / 4][e % 4] = sm[(e * WGF_BK + kk) * WGF_MP + tt];
        float r[2][4];
#pragma unroll
        for (int b = 0; b < 4; b++) {
            r[0][b] = m[0][b] + m[1][b] + m[2][b];
            r[1][b] = m[1][b] - m[2][b] - m[3][b];
        }
        const int n = t / tiles_map, rest = t - n * tiles_map, ty = rest / tw, tx = rest - ty * tw;
        float *yk = y + ((size_t)n * l.k + k) * l.p * l.q;
#pragma unroll
        for (int a = 0; a < 2; a++) {
            const int pp = 2 * ty + a, qq = 2 * tx;
            if (pp >= l.p)
                continue;
            const float o0 = r[a][0] + r[a][1] + r[a][2], o1 = r[a][1] - r[a][2] - r[a][3];
            float *const yo = yk + (size_t)pp * l.q + qq;
            if (split) { /* the output transform is linear: each split adds its part */
                atomicAdd(yo, o0);
                if (qq + 1 < l.q)
                    atomicAdd(yo + 1, o1);
            } else {
                yo[0] = o0;
                if (qq + 1 < l.q)
                    yo[1] = o1;
            }
        }
    }
}

/* How many parts the channels split into for a grid of `blocks` blocks (one a SM at a time) on `sms` SMs, with
 * `steps` steps of channels: the count of 1 to 8 (at most `steps`) that fills the last wave best, each split
 * beyond the first weighed 2% down (the zeroing of y and the atomic additions it adds). On the 14 x 14 layer of
 * ResNet (196 blocks on 132 SMs) that is 2: 392 blocks, 99% of three waves, where one part leaves 74% of two. */
static int wgf_splits(size_t blocks, int steps, int sms)
{
    int best = 1;
    double best_score = 0;
    for (int s = 1; s <= 8 && s <= steps; s++) {
        const double b = (double)blocks * s, waves = ceil(b / sms);
        const double score = b / (waves * sms) - 0.02 * (s - 1);
        if (score > best_score + 1e-9) {
            best_score = score;
            best = s;
        }
    }
    return best;
}

/* F(2 x 2, 3 x 3)'s filters transformed into u (wgf_u_bytes): the first launch of launch_wgf2, alone for a plan. */
static cudaError_t wgf2_filters(const climb_cnn_layer *l, const float *w, float *u, cudaStream_t s)
{
    const int Kp = wgf_kp(l->k), Cp = wgf_cp(l->c);
    const size_t plane = (size_t)Kp * Cp;
    if (plane == 0)
        return cudaSuccess;
    cnn_wgf_filter_kernel<2><<<(unsigned)((plane + 255) / 256), 256, 0, s>>>(w, l->k, l->c, Kp, Cp, u);
    return cudaGetLastError();
}

/* The fused kernel from filters already transformed into u (a zeroing of y before it where the channels split),
 * on a device of `sms` SMs. A layer of 3 x 3 filters of stride 1 with outputs and channels, K below 4194241 (the
 * grid's y). */
static cudaError_t wgf2_main(const climb_cnn_layer *l, const float *x, const float *u, float *y, int sms,
                             cudaStream_t s)
{
    const int Kp = wgf_kp(l->k), Cp = wgf_cp(l->c);
    const int th = (l->p + 1) / 2, tw = (l->q + 1) / 2;
    const size_t T = (size_t)l->n * th * tw;
    const dim3 grid((unsigned)((T + WGF_BT - 1) / WGF_BT), (unsigned)(Kp / WGF_BK));
    const int splits = wgf_splits((size_t)grid.x * grid.y, Cp / WGF_CB, sms > 0 ? sms : 1);
    cudaError_t e;
    if (splits > 1 &&
        (e = cudaMemsetAsync(y, 0, (size_t)l->n * l->k * l->p * l->q * sizeof(float), s)) != cudaSuccess)
        return e;
    if ((e = cudaFuncSetAttribute(cnn_wgf2_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)WGF_SMEM)) !=
        cudaSuccess)
        return e;
    cnn_wgf2_kernel<<<dim3(grid.x, grid.y, (unsigned)splits), WGF_THREADS, WGF_SMEM, s>>>(x, u, *l, th, tw, Kp, Cp,
                                                                                          y);
    return cudaGetLastError();
}

/* Both launches of F(2 x 2, 3 x 3) fused, U in `u_ws` (wgf_u_bytes). */
static cudaError_t launch_wgf2(const climb_cnn_layer *l, const float *x, const float *w, float *u_ws, float *y,
                               int sms, cudaStream_t s)
{
    const cudaError_t e = wgf2_filters(l, w, u_ws, s);
    return e != cudaSuccess ? e : wgf2_main(l, x, u_ws, y, sms, s);
}

/* ---------------------------------------------------------------- F(4 x 4, 3 x 3) and F(2 x 2, 5 x 5) */

/* The same with 4 x 4 output tiles from 6 x 6 windows, 36 positions (M = 4; or M = 2, F(2 x 2, 5 x 5): 2 x 2 tiles
 * from the same 6 x 6 windows, whose points give the same input transform, so only the window's place, the filters'
 * and the outputs' transforms differ): a block computes WGF4_BK filters times
 * WGF4_BT tiles, 18 warps of two positions each (a thread 4 filters x 8 tiles of each). A window is 36 values, too
 * many to prefetch in registers beside the products, so cp.async brings the raw windows of the next step into
 * shared memory (4 bytes each, zeros outside the image) along with U; each step then has two barriers: the windows
 * of the step are transformed in shared memory (B^T d B, by columns in place, then by rows into V, a thread a
 * (channel, tile)), and the block multiplies. */
#define WGF4_BK 32
#define WGF4_BT 32
#define WGF4_CB 8
#define WGF4_THREADS 576
#define WGF4_RP 37 /* pitch of a raw window: 36 + 1, so that a warp reading one value of each of 32 windows hits 32 banks */
#define WGF4_MP 36
#define WGF4_USTAGE (36 * WGF4_CB * WGF4_BK)
#define WGF4_RSTAGE (WGF4_CB * WGF4_BT * WGF4_RP)
#define WGF4_VSIZE (36 * WGF4_CB * WGF4_BT)
#define WGF4_SMEM ((2 * WGF4_USTAGE + 2 * WGF4_RSTAGE + WGF4_VSIZE) * sizeof(float)) /* 182 KB */

static_assert(36 * WGF4_BK * WGF4_MP <= 2 * WGF4_USTAGE + 2 * WGF4_RSTAGE + WGF4_VSIZE, "the staged products fit");

static inline int wgf4_kp(int k) { return (k + WGF4_BK - 1) / WGF4_BK * WGF4_BK; }
static inline int wgf4_cp(int c) { return (c + WGF4_CB - 1) / WGF4_CB * WGF4_CB; }
static inline size_t wgf4_u_bytes(const climb_cnn_layer *l)
{
    return 36 * (size_t)wgf4_cp(l->c) * wgf4_kp(l->k) * sizeof(float);
}

/* B^T v of F(4 x 4, 3 x 3) for six values (B^T's rows: 4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0; 0 -2 -1 2 1 0;
 * 0 2 -1 -2 1 0; 0 4 0 -5 0 1): v[i] at p[i * stride]. */
__device__ __forceinline__ void wgf4_bt(float *p, int stride, float (&v)[6])
{
    const float d0 = p[0], d1 = p[stride], d2 = p[2 * stride], d3 = p[3 * stride], d4 = p[4 * stride],
                d5 = p[5 * stride];
    v[0] = 4.0f * d0 - 5.0f * d2 + d4;
    v[1] = -4.0f * d1 - 4.0f * d2 + d3 + d4;
    v[2] = 4.0f * d1 - 4.0f * d2 - d3 + d4;
    v[3] = -2.0f * d1 - d2 + 2.0f * d3 + d4;
    v[4] = 2.0f * d1 - d2 - 2.0f * d3 + d4;
    v[5] = 4.0f * d1 - 5.0f * d3 + d5;
}

/* A^T m of F(4 x 4, 3 x 3) (rows: 1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1), or of F(2 x 2, 5 x 5)
 * (its first row, and 0 1 -1 2 -2 1). */
template <int M> __device__ __forceinline__ void wgf6_at(const float (&m)[6], float (&o)[M])
{
    o[0] = m[0] + m[1] + m[2] + m[3] + m[4];
    if constexpr (M == 4) {
        o[1] = m[1] - m[2] + 2.0f * m[3] - 2.0f * m[4];
        o[2] = m[1] + m[2] + 4.0f * m[3] + 4.0f * m[4];
        o[3] = m[1] - m[2] + 8.0f * m[3] - 8.0f * m[4] + m[5];
    } else {
        o[1] = m[1] - m[2] + 2.0f * m[3] - 2.0f * m[4] + m[5];
    }
}

template <int M>
__global__ void __launch_bounds__(WGF4_THREADS, 1)
    cnn_wgf6_kernel(const float *__restrict__ x, const float *__restrict__ U, climb_cnn_layer l, int th, int tw,
                    int Kp, int Cp, float *__restrict__ y)
{
    static_assert(M == 4 || M == 2, "F(4 x 4, 3 x 3) or F(2 x 2, 5 x 5): 6 x 6 windows");
    extern __shared__ float4 wgf_smem4[];
    float *const sm = (float *)wgf_smem4;
    float *const raw = sm + 2 * WGF4_USTAGE, *const vs = raw + 2 * WGF4_RSTAGE;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int tiles_map = th * tw, T = l.n * tiles_map;
    const int t0 = blockIdx.x * WGF4_BT, k0 = blockIdx.y * WGF4_BK;
    const long long hw = (long long)l.h * l.w;
    const int steps = Cp / WGF4_CB;

    /* Raw copying role: the (tile, window place) pairs tid and tid + 576 of the block's 32 x 36, every channel of a
     * step; where each lies in x (channel 0) and whether it is inside the image. */
    static_assert(2 * WGF4_THREADS == WGF4_BT * 36, "two window places a thread");
    long long roff[2];
    int rdst[2];
    unsigned rok = 0;
#pragma unroll
    for (int r = 0; r < 2; r++) {
        const int j = tid + r * WGF4_THREADS, t = j / 36, ab = j - t * 36, a = ab / 6, b = ab - a * 6;
        const int tg = t0 + t;
        roff[r] = 0;
        rdst[r] = t * WGF4_RP + ab;
        if (tg < T) {
            const int n = tg / tiles_map, rest = tg - n * tiles_map, ty = rest / tw, tx = rest - ty * tw;
            const int yy = M * ty - l.pad_h + a, xx = M * tx - l.pad_w + b;
            if (yy >= 0 && yy < l.h && xx >= 0 && xx < l.w) {
                rok |= 1u << r;
                roff[r] = (long long)n * l.c * hw + (long long)yy * l.w + xx;
            }
        }
    }
    /* U's copying role: 16-byte pieces, column tid % 8, rows tid / 8 + 72 i (position tid / 64 + 9 i, channel
     * tid / 8 % 8). */
    static_assert(WGF4_CB == 8 && WGF4_BK == 32 && WGF4_THREADS == 576, "the copying roles' arithmetic");
    const float *const u_src = U + ((size_t)(tid >> 6) * Cp + ((tid >> 3) & 7)) * Kp + k0 + (tid & 7) * 4;
    const size_t u_step = 9 * (size_t)Cp * Kp;
    const int u_dst = (tid >> 3) * WGF4_BK + (tid & 7) * 4;
    auto copy = [&](int s) {
        float *const us = sm + (s & 1) * WGF4_USTAGE, *const rs = raw + (s & 1) * WGF4_RSTAGE;
        const float *src = u_src + (size_t)s * WGF4_CB * Kp;
#pragma unroll
        for (int i = 0; i < 4; i++)
            climb_gemm_cp_async16(us + u_dst + i * 72 * WGF4_BK, src + i * u_step);
#pragma unroll
        for (int c = 0; c < WGF4_CB; c++) {
            const int cg = s * WGF4_CB + c;
#pragma unroll
            for (int r = 0; r < 2; r++) {
                const int ok = (rok >> r) & (cg < l.c);
                climb_gemm_cp_async4(rs + c * WGF4_BT * WGF4_RP + rdst[r], ok ? x + roff[r] + cg * hw : x, ok ? 4 : 0);
            }
        }
        asm volatile("cp.async.commit_group;\n" ::);
    };

    /* Product role: positions 2 warp and 2 warp + 1; filters kg 4 + {0..3}, tiles tg 4 + {0..3} and 16 + tg 4 +
     * {0..3}. */
    const int kg = lane >> 2, tg = lane & 3;
    float acc[2][4][8];
#pragma unroll
    for (int p = 0; p < 2; p++)
#pragma unroll
        for (int i = 0; i < 4; i++)
#pragma unroll
            for (int j = 0; j < 8; j++)
                acc[p][i][j] = 0;

    copy(0);
    for (int s = 0; s < steps; s++) {
        climb_gemm_cp_async_wait_all();
        __syncthreads(); /* this step's windows and U are in; the last step's products are done with V */
        if (tid < WGF4_CB * WGF4_BT) { /* channel tid / 32, tile lane: B^T d B */
            float *const win = raw + (s & 1) * WGF4_RSTAGE + tid * WGF4_RP;
            float v[6];
#pragma unroll
            for (int b = 0; b < 6; b++) { /* columns, in place */
                wgf4_bt(win + b, 6, v);
#pragma unroll
                for (int a = 0; a < 6; a++)
                    win[a * 6 + b] = v[a];
            }
            float *const vo = vs + tid; /* V[e][c][t]: c WGF4_BT + t = tid */
#pragma unroll
            for (int a = 0; a < 6; a++) { /* rows, into V */
                wgf4_bt(win + a * 6, 1, v);
#pragma unroll
                for (int b = 0; b < 6; b++)
                    vo[(a * 6 + b) * WGF4_CB * WGF4_BT] = v[b];
            }
        }
        if (s + 1 < steps)
            copy(s + 1);
        __syncthreads(); /* V is whole */
        const float *const us = sm + (s & 1) * WGF4_USTAGE;
#pragma unroll
        for (int c = 0; c < WGF4_CB; c++)
#pragma unroll
            for (int p = 0; p < 2; p++) {
                const int e = 2 * warp + p;
                const float4 a4 = *(const float4 *)(us + (e * WGF4_CB + c) * WGF4_BK + kg * 4);
                const float *vb = vs + (e * WGF4_CB + c) * WGF4_BT + tg * 4;
                const float4 b0 = *(const float4 *)vb, b1 = *(const float4 *)(vb + 16);
                const float a[4] = {a4.x, a4.y, a4.z, a4.w};
                const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
                for (int i = 0; i < 4; i++)
#pragma unroll
                    for (int j = 0; j < 8; j++)
                        acc[p][i][j] = fmaf(a[i], b[j], acc[p][i][j]);
            }
    }
    __syncthreads(); /* every product done: the shared memory takes the staged products */
#pragma unroll
    for (int p = 0; p < 2; p++)
#pragma unroll
        for (int i = 0; i < 4; i++) {
            float *m = sm + ((2 * warp + p) * WGF4_BK + kg * 4 + i) * WGF4_MP + tg * 4;
            *(float4 *)m = make_float4(acc[p][i][0], acc[p][i][1], acc[p][i][2], acc[p][i][3]);
            *(float4 *)(m + 16) = make_float4(acc[p][i][4], acc[p][i][5], acc[p][i][6], acc[p][i][7]);
        }
    __syncthreads();
    /* A^T M A for the WGF4_BK x WGF4_BT (filter, tile) pairs: by columns, then rows. */
    for (int q = tid; q < WGF4_BK * WGF4_BT; q += WGF4_THREADS) {
        const int kk = q / WGF4_BT, tt = q % WGF4_BT, k = k0 + kk, t = t0 + tt;
        if (k >= l.k || t >= T)
            continue;
        float r[M][6];
#pragma unroll
        for (int b = 0; b < 6; b++) {
            float m[6], o[M];
#pragma unroll
            for (int a = 0; a < 6; a++)
                m[a] = sm[((a * 6 + b) * WGF4_BK + kk) * WGF4_MP + tt];
            wgf6_at<M>(m, o);
#pragma unroll
            for (int a = 0; a < M; a++)
                r[a][b] = o[a];
        }
        const int n = t / tiles_map, rest = t - n * tiles_map, ty = rest / tw, tx = rest - ty * tw;
        float *yk = y + ((size_t)n * l.k + k) * l.p * l.q;
#pragma unroll
        for (int a = 0; a < M; a++) {
            const int pp = M * ty + a;
            if (pp >= l.p)
                continue;
            float o[M];
            wgf6_at<M>(r[a], o);
#pragma unroll
            for (int b = 0; b < M; b++)
                if (M * tx + b < l.q)
                    yk[(size_t)pp * l.q + M * tx + b] = o[b];
        }
    }
}

/* F(4 x 4, 3 x 3)'s (M = 4) or F(2 x 2, 5 x 5)'s (M = 2) filters transformed into u (wgf4_u_bytes): the first
 * launch of launch_wgf6, alone for a plan. */
template <int M>
static cudaError_t wgf6_filters(const climb_cnn_layer *l, const float *w, float *u, cudaStream_t s)
{
    const int Kp = wgf4_kp(l->k), Cp = wgf4_cp(l->c);
    const size_t plane = (size_t)Kp * Cp;
    if (plane == 0)
        return cudaSuccess;
    cnn_wgf_filter_kernel<M, 7 - M><<<(unsigned)((plane + 255) / 256), 256, 0, s>>>(w, l->k, l->c, Kp, Cp, u);
    return cudaGetLastError();
}

/* The fused kernel from filters already transformed into u; the layer as launch_wgf2 takes (with 5 x 5 filters for
 * M = 2), K below 2097121 (the grid's y). */
template <int M>
static cudaError_t wgf6_main(const climb_cnn_layer *l, const float *x, const float *u, float *y, cudaStream_t s)
{
    const int Kp = wgf4_kp(l->k), Cp = wgf4_cp(l->c);
    const int th = (l->p + M - 1) / M, tw = (l->q + M - 1) / M;
    const size_t T = (size_t)l->n * th * tw;
    cudaError_t e;
    if ((e = cudaFuncSetAttribute(cnn_wgf6_kernel<M>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)WGF4_SMEM)) !=
        cudaSuccess)
        return e;
    const dim3 grid((unsigned)((T + WGF4_BT - 1) / WGF4_BT), (unsigned)(Kp / WGF4_BK));
    cnn_wgf6_kernel<M><<<grid, WGF4_THREADS, WGF4_SMEM, s>>>(x, u, *l, th, tw, Kp, Cp, y);
    return cudaGetLastError();
}

/* Both launches of F(4 x 4, 3 x 3) (M = 4) or F(2 x 2, 5 x 5) (M = 2) fused, U in u_ws (wgf4_u_bytes). */
template <int M>
static cudaError_t launch_wgf6(const climb_cnn_layer *l, const float *x, const float *w, float *u_ws, float *y,
                               cudaStream_t s)
{
    const cudaError_t e = wgf6_filters<M>(l, w, u_ws, s);
    return e != cudaSuccess ? e : wgf6_main<M>(l, x, u_ws, y, s);
}

#endif
