/* Convolution's masks in constant memory and kernels (src/workloads/conv/), one per rung.
 * Included by conv.cu where it stands in the file (after the CPU reference and before the launchers); not a header
 * of its own. */
/* ---------------------------------------------------------------- masks */

enum { MASK_RANDOM, MASK_GAUSS, MASK_EDGES };

/* The (2ry + 1) x (2rx + 1) mask of kind k: random weights in [-1, 1); a Gaussian blur (sigma = max(r / 2, 1/2),
 * weights adding to 1); or an edge detector (-1 everywhere, the centre taps - 1: flat regions go to 0). */
static void make_mask(int kind, int rx, int ry, climb_rng *rng, float *m)
{
    const int mw = 2 * rx + 1, mh = 2 * ry + 1, taps = mw * mh;
    double sum = 0;
    for (int a = 0; a < mh; a++)
        for (int b = 0; b < mw; b++) {
            float v;
            if (kind == MASK_RANDOM) {
                v = climb_rng_float(rng, -1, 1);
            } else if (kind == MASK_GAUSS) {
                const double s = rx / 2.0 > 0.5 ? rx / 2.0 : 0.5, dy = a - ry, dx = b - rx;
                v = (float)exp(-(dx * dx + dy * dy) / (2 * s * s));
            } else {
                v = (a == ry && b == rx) ? (float)(taps - 1) : -1.0f;
            }
            m[a * mw + b] = v;
            sum += v;
        }
    if (kind == MASK_GAUSS)
        for (int k = 0; k < taps; k++)
            m[k] = (float)(m[k] / sum);
}

/* ---------------------------------------------------------------- kernels */

/* The mask by value: kernel parameters live in a constant bank, read at the FMA. */
typedef struct conv_taps {
    float w[CLIMB_CONV_MAX_TAPS];
} conv_taps;

/* The book's constant-memory mask (rungs const_mask to tile_cached_halo). One symbol for the process: the harness's
 * runs are one at a time; the C API's best rung passes its mask by value instead. */
__constant__ float conv_const_mask[CLIMB_CONV_MAX_TAPS];

/* The input at (y, x), 0 outside the image (a ghost cell). */
__device__ __forceinline__ float conv_in(const float *in, size_t ld, int rows, int cols, int y, int x)
{
    return ((unsigned)y < (unsigned)rows && (unsigned)x < (unsigned)cols) ? in[(size_t)y * ld + x] : 0.0f;
}

/* Every kernel's grid is 1-D over tiles, tiles_x across: tile (blockIdx.x % tiles_x, blockIdx.x / tiles_x). */
#define CONV_SMALL_X 16 /* basic and const_mask: 16 x 16 threads, one output each */
#define CONV_SMALL_Y 16

/* conv_basic: one thread per output, the mask and the input read from global memory ((2rx+1)(2ry+1) loads of each
 * for one output), the ghost cells skipped by a bounds check per tap. */
template <int RX, int RY>
__global__ void __launch_bounds__(CONV_SMALL_X *CONV_SMALL_Y)
    conv_basic_kernel(const float *in, size_t ld_in, float *out, size_t ld_out, int rows, int cols, int tiles_x,
                      const float *mask)
{
    const int x = (int)(blockIdx.x % tiles_x) * CONV_SMALL_X + threadIdx.x;
    const int y = (int)(blockIdx.x / tiles_x) * CONV_SMALL_Y + threadIdx.y;
    if (x >= cols || y >= rows)
        return;
    float acc = 0.0f;
    for (int a = 0; a <= 2 * RY; a++)
        for (int b = 0; b <= 2 * RX; b++) {
            const int yy = y + a - RY, xx = x + b - RX;
            if (yy >= 0 && yy < rows && xx >= 0 && xx < cols)
                acc += mask[a * (2 * RX + 1) + b] * in[(size_t)yy * ld_in + xx];
        }
    out[(size_t)y * ld_out + x] = acc;
}

/* conv_const_mask: the same, the mask from constant memory: every thread of a warp reads the same weight at the
 * same time, which the constant cache broadcasts, and the global loads are the input's alone. */
template <int RX, int RY>
__global__ void __launch_bounds__(CONV_SMALL_X *CONV_SMALL_Y)
    conv_const_kernel(const float *in, size_t ld_in, float *out, size_t ld_out, int rows, int cols, int tiles_x)
{
    const int x = (int)(blockIdx.x % tiles_x) * CONV_SMALL_X + threadIdx.x;
    const int y = (int)(blockIdx.x / tiles_x) * CONV_SMALL_Y + threadIdx.y;
    if (x >= cols || y >= rows)
        return;
    float acc = 0.0f;
    for (int a = 0; a <= 2 * RY; a++)
        for (int b = 0; b <= 2 * RX; b++) {
            const int yy = y + a - RY, xx = x + b - RX;
            if (yy >= 0 && yy < rows && xx >= 0 && xx < cols)
                acc += conv_const_mask[a * (2 * RX + 1) + b] * in[(size_t)yy * ld_in + xx];
        }
    out[(size_t)y * ld_out + x] = acc;
}

/* Tiling strategy 1: a block of 32 x 32 threads is an INPUT tile: each thread loads one input element (ghost cells
 * as 0) into shared memory; the (32 - 2rx) x (32 - 2ry) threads inside the halo then compute one output each
 * from shared memory, the others idle. */
#define CONV_IN_TILE 32
template <int RX, int RY>
__global__ void __launch_bounds__(CONV_IN_TILE *CONV_IN_TILE)
    conv_tile_in_kernel(const float *in, size_t ld_in, float *out, size_t ld_out, int rows, int cols, int tiles_x)
{
    constexpr int OX = CONV_IN_TILE - 2 * RX, OY = CONV_IN_TILE - 2 * RY;
    __shared__ float tile[CONV_IN_TILE][CONV_IN_TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = (int)(blockIdx.x % tiles_x) * OX + tx - RX, y = (int)(blockIdx.x / tiles_x) * OY + ty - RY;
    tile[ty][tx] = conv_in(in, ld_in, rows, cols, y, x);
    __syncthreads();
    if (tx < RX || tx >= CONV_IN_TILE - RX || ty < RY || ty >= CONV_IN_TILE - RY || x >= cols || y >= rows)
        return;
    float acc = 0.0f;
#pragma unroll
    for (int a = 0; a <= 2 * RY; a++)
#pragma unroll
        for (int b = 0; b <= 2 * RX; b++)
            acc += conv_const_mask[a * (2 * RX + 1) + b] * tile[ty + a - RY][tx + b - RX];
    out[(size_t)y * ld_out + x] = acc;
}

/* Tiling strategy 2: a block of 32 x 16 threads is an OUTPUT tile, every thread computes; the (32 + 2rx) x
 * (16 + 2ry) input tile is loaded in several passes of the block over it. */
#define CONV_OUT_X 32
#define CONV_OUT_Y 16
template <int RX, int RY>
__global__ void __launch_bounds__(CONV_OUT_X *CONV_OUT_Y)
    conv_tile_out_kernel(const float *in, size_t ld_in, float *out, size_t ld_out, int rows, int cols, int tiles_x)
{
    constexpr int TW = CONV_OUT_X + 2 * RX, TH = CONV_OUT_Y + 2 * RY;
    __shared__ float tile[TH][TW];
    const int bx = (int)(blockIdx.x % tiles_x) * CONV_OUT_X, by = (int)(blockIdx.x / tiles_x) * CONV_OUT_Y;
    for (int i = threadIdx.y * CONV_OUT_X + threadIdx.x; i < TW * TH; i += CONV_OUT_X * CONV_OUT_Y) {
        const int sy = i / TW, sx = i - sy * TW;
        tile[sy][sx] = conv_in(in, ld_in, rows, cols, by - RY + sy, bx - RX + sx);
    }
    __syncthreads();
    const int tx = threadIdx.x, ty = threadIdx.y, x = bx + tx, y = by + ty;
    if (x >= cols || y >= rows)
        return;
    float acc = 0.0f;
#pragma unroll
    for (int a = 0; a <= 2 * RY; a++)
#pragma unroll
        for (int b = 0; b <= 2 * RX; b++)
            acc += conv_const_mask[a * (2 * RX + 1) + b] * tile[ty + a][tx + b];
    out[(size_t)y * ld_out + x] = acc;
}

/* Tiling strategy 3: a block of 32 x 16 threads, an output tile; only the tile's own inputs go to shared memory
 * (one load a thread, no halo pass), and a tap that falls outside the tile reads global memory, which the
 * neighbouring blocks have just brought into L1 and L2. */
template <int RX, int RY>
__global__ void __launch_bounds__(CONV_OUT_X *CONV_OUT_Y)
    conv_cached_halo_kernel(const float *in, size_t ld_in, float *out, size_t ld_out, int rows, int cols, int tiles_x)
{
    __shared__ float tile[CONV_OUT_Y][CONV_OUT_X];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = (int)(blockIdx.x % tiles_x) * CONV_OUT_X + tx, y = (int)(blockIdx.x / tiles_x) * CONV_OUT_Y + ty;
    tile[ty][tx] = conv_in(in, ld_in, rows, cols, y, x);
    __syncthreads();
    if (x >= cols || y >= rows)
        return;
    float acc = 0.0f;
#pragma unroll
    for (int a = 0; a <= 2 * RY; a++)
#pragma unroll
        for (int b = 0; b <= 2 * RX; b++) {
            const int sy = ty + a - RY, sx = tx + b - RX;
            const float v = (sy >= 0 && sy < CONV_OUT_Y && sx >= 0 && sx < CONV_OUT_X)
                                ? tile[sy][sx]
                                : conv_in(in, ld_in, rows, cols, y + a - RY, x + b - RX);
            acc += conv_const_mask[a * (2 * RX + 1) + b] * v;
        }
    out[(size_t)y * ld_out + x] = acc;
}

/* The best rung: register blocking, software-pipelined, aligned wide loads. A block of 32 x BY threads owns a
 * column of output tiles, each 32 wide and BY x OY tall, and walks down it:
 *   - the input tile in shared memory is 40 floats wide, columns x0 - 4 .. x0 + 35, so every row starts 16-byte
 *     aligned and is loaded as ten float4 (five whole 32-byte sectors) whatever the radius (r <= 4);
 *   - the rows a tile shares with the next (2ry of them, the vertical halo) are kept: moved to the top of the tile
 *     instead of loaded again, so each tile loads only its BY x OY new rows;
 *   - the next tile's rows are loaded into registers right after this tile's are stored, and stay in flight while
 *     this tile is computed (without that, a block's loads and FMAs take turns and the time is their sum);
 *   - each thread computes OY outputs down one column: it walks the OY + 2ry input rows of its window once, reading
 *     the 2rx + 1 values of each row from shared memory into registers and adding them, weighted, into every output
 *     whose mask covers that row: shared-memory reads per output fall from (2rx+1)(2ry+1) to (OY + 2ry)(2rx+1) / OY;
 *   - each weight is an FMA operand straight from the parameter bank.
 * `vec` is 0 when rows are not 16-byte aligned (the base or ld): the same tiles then load four floats one by one. */
#define CONV_BEST_X 32
#define CONV_BEST_PAD 4                              /* columns each side of the tile: the largest radius */
#define CONV_BEST_W (CONV_BEST_X + 2 * CONV_BEST_PAD) /* 40 floats: ten float4 a row */
#define CONV_BEST_Q (CONV_BEST_W / 4)

/* Rows [y, y + NR) of the image's columns x0 - 4 .. x0 + 35 (zero outside the image) into v: item k of the block's
 * NR x 10 float4 is thread t's v[(k - t) / T]. */
template <int NR, int T, int NP>
__device__ __forceinline__ void conv_load_rows(const float *__restrict__ in, size_t ld_in, int rows, int cols, int x0,
                                               int y, int t, bool vec, float4 (&v)[NP])
{
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int k = t + p * T, r = k / CONV_BEST_Q, q = k - r * CONV_BEST_Q;
        const int yy = y + r, xx = x0 - CONV_BEST_PAD + 4 * q;
        float4 a = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (k < NR * CONV_BEST_Q && (unsigned)yy < (unsigned)rows) {
            const float *src = in + (size_t)yy * ld_in + xx;
            if (vec && xx >= 0 && xx + 4 <= cols) {
                a = __ldg((const float4 *)src);
            } else {
                a.x = (unsigned)xx < (unsigned)cols ? __ldg(src) : 0.0f;
                a.y = (unsigned)(xx + 1) < (unsigned)cols ? __ldg(src + 1) : 0.0f;
                a.z = (unsigned)(xx + 2) < (unsigned)cols ? __ldg(src + 2) : 0.0f;
                a.w = (unsigned)(xx + 3) < (unsigned)cols ? __ldg(src + 3) : 0.0f;
            }
        }
        v[p] = a;
    }
}

/* v (as conv_load_rows filled it) into the tile's rows [row0, row0 + NR). */
template <int NR, int T, int NP>
__device__ __forceinline__ void conv_store_rows(float *tile, int row0, int t, const float4 (&v)[NP])
{
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int k = t + p * T;
        if (k < NR * CONV_BEST_Q)
            *(float4 *)(tile + row0 * CONV_BEST_W + 4 * k) = v[p]; /* row0 * 40 + 4 k: 16-byte aligned */
    }
}

template <int RX, int RY, int OY, int BY>
__global__ void __launch_bounds__(CONV_BEST_X *BY)
    conv_register_kernel(const float *__restrict__ in, size_t ld_in, float *__restrict__ out, size_t ld_out, int rows,
                         int cols, int tiles_x, int tiles_y, int per_block, int vec, const conv_taps m)
{
    constexpr int MW = 2 * RX + 1, H = BY * OY, TH = H + 2 * RY, T = CONV_BEST_X * BY;
    constexpr int NP = (H * CONV_BEST_Q + T - 1) / T;             /* float4 a thread loads per tile */
    constexpr int HALO = 2 * RY * CONV_BEST_W, HP = (HALO + T - 1) / T; /* floats a thread moves up per tile */
    static_assert(H >= 2 * RY, "a tile is at least as tall as its vertical halo");
    __shared__ __align__(16) float tile[TH * CONV_BEST_W];
    const int x0 = (int)(blockIdx.x % tiles_x) * CONV_BEST_X, first = (int)(blockIdx.x / tiles_x) * per_block;
    const int last = min(first + per_block, tiles_y);
    const int t = threadIdx.y * CONV_BEST_X + threadIdx.x, tx = threadIdx.x, r0 = threadIdx.y * OY;
    if constexpr (RY > 0) { /* the first tile's top halo, straight to shared memory */
        constexpr int NPH = (2 * RY * CONV_BEST_Q + T - 1) / T;
        float4 h[NPH];
        conv_load_rows<2 * RY, T, NPH>(in, ld_in, rows, cols, x0, first * H - RY, t, vec != 0, h);
        conv_store_rows<2 * RY, T, NPH>(tile, 0, t, h);
    }
    float4 v[NP];
    conv_load_rows<H, T, NP>(in, ld_in, rows, cols, x0, first * H + RY, t, vec != 0, v);
    for (int ty = first; ty < last; ty++) {
        const int y0 = ty * H;
        conv_store_rows<H, T, NP>(tile, 2 * RY, t, v);
        __syncthreads();
        if (ty + 1 < last) /* the next tile's new rows, in flight during this tile's FMAs */
            conv_load_rows<H, T, NP>(in, ld_in, rows, cols, x0, y0 + H + RY, t, vec != 0, v);
        float acc[OY];
#pragma unroll
        for (int o = 0; o < OY; o++)
            acc[o] = 0.0f;
#pragma unroll
        for (int i = 0; i < OY + 2 * RY; i++) {
            float row[MW];
#pragma unroll
            for (int b = 0; b < MW; b++)
                row[b] = tile[(r0 + i) * CONV_BEST_W + CONV_BEST_PAD - RX + tx + b];
#pragma unroll
            for (int o = 0; o < OY; o++) {
                const int a = i - o; /* the mask row that input row i meets for output o */
                if (a >= 0 && a <= 2 * RY) {
#pragma unroll
                    for (int b = 0; b < MW; b++)
                        acc[o] = fmaf(m.w[a * MW + b], row[b], acc[o]);
                }
            }
        }
        const int x = x0 + tx;
        if (x < cols)
#pragma unroll
            for (int o = 0; o < OY; o++) {
                const int y = y0 + r0 + o;
                if (y < rows)
                    out[(size_t)y * ld_out + x] = acc[o];
            }
        /* the bottom 2ry rows become the next tile's top: read now, written after every thread is done reading */
        float hv[HP > 0 ? HP : 1];
#pragma unroll
        for (int p = 0; p < HP; p++)
            if (t + p * T < HALO)
                hv[p] = tile[H * CONV_BEST_W + t + p * T];
        __syncthreads();
#pragma unroll
        for (int p = 0; p < HP; p++)
            if (t + p * T < HALO)
                tile[t + p * T] = hv[p];
    }
}
