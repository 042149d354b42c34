/*
 * stencil.cu - the 7-point 3-D stencil in f32: the ladder of Hwu, Kirk and El Hajj, "Programming Massively Parallel
 * Processors" (PMPP, the stencil chapter), against the copy bound.
 *
 *   out[z][y][x] = c0 in[z][y][x] + c1 in[z][y][x-1] + c2 in[z][y][x+1] + c3 in[z][y-1][x] + c4 in[z][y+1][x]
 *                + c5 in[z-1][y][x] + c6 in[z+1][y][x]
 *
 * at every interior point; a boundary point (an index 0 or n - 1) keeps its value (out = in), so that time steps
 * (option `steps`) ping-pong between two grids with fixed boundaries. The grid is nx x ny x nz, x fastest.
 *
 * The ladder: naive (a thread per point, 7 global loads); shared-memory 3-D tiles with halo (8^3 input tiles,
 * 6^3 outputs); thread coarsening along z (a 32 x 32 input tile marching through z with three planes in shared
 * memory); register tiling (the z neighbours in registers, one plane in shared memory); and the best rung, the
 * register-tiled march with no idle threads (the plane's halo ring loaded by the edge threads), the next plane's
 * loads in flight during this plane's arithmetic, and a tuned tile and march length.
 *
 * Bytes counted: per step, the grid read once and written once (nx ny nz floats each): what the copy bound moves.
 * Flops: 13 per interior point per step (7 multiplies, 6 adds; an FMA counts 2). See docs/stencil.md.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/rng.h"
#include "../core/workload.cuh"
#include "../base/check.h"
#include "../device/device.h"
#include "../device/mma.cuh"
#include "common/stencil7.cuh"
#include "stencil.h"
#include "../base/checked.h"

/* ---------------------------------------------------------------- CPU reference */

extern "C" void climb_stencil_ref_step(const double *in, double *out, size_t nx, size_t ny, size_t nz, const float c[7])
{
    for (size_t z = 0; z < nz; z++)
        for (size_t y = 0; y < ny; y++) {
            const size_t row = (z * ny + y) * nx;
            for (size_t x = 0; x < nx; x++) {
                const size_t p = row + x;
                if (x == 0 || y == 0 || z == 0 || x + 1 == nx || y + 1 == ny || z + 1 == nz) {
                    out[p] = in[p];
                    continue;
                }
                out[p] = c[0] * in[p] + c[1] * in[p - 1] + c[2] * in[p + 1] + c[3] * in[p - nx] + c[4] * in[p + nx] +
                         c[5] * in[p - nx * ny] + c[6] * in[p + nx * ny];
            }
        }
}

extern "C" double climb_stencil_ref_point(const float *in, size_t nx, size_t ny, size_t nz, const float c[7],
                                          int steps, size_t x, size_t y, size_t z)
{
    /* the box of points within `steps` of (x, y, z) in every axis, clipped to the grid: step k needs the box of
     * radius steps - k, so each step computes a box one point narrower on every side */
    const size_t R = (size_t)(steps > 0 ? steps : 0);
    const size_t x0 = x > R ? x - R : 0, y0 = y > R ? y - R : 0, z0 = z > R ? z - R : 0;
    const size_t x1 = x + R + 1 < nx ? x + R + 1 : nx, y1 = y + R + 1 < ny ? y + R + 1 : ny;
    const size_t z1 = z + R + 1 < nz ? z + R + 1 : nz;
    const size_t bx = x1 - x0, by = y1 - y0, bz = z1 - z0, bn = bx * by * bz;
    double *cur = (double *)malloc(bn * sizeof(double)), *nxt = (double *)malloc(bn * sizeof(double));
    if (!cur || !nxt) {
        free(cur);
        free(nxt);
        return NAN;
    }
    for (size_t k = 0; k < bz; k++)
        for (size_t j = 0; j < by; j++)
            for (size_t i = 0; i < bx; i++)
                cur[(k * by + j) * bx + i] = in[((z0 + k) * ny + (y0 + j)) * nx + (x0 + i)];
    memcpy(nxt, cur, bn * sizeof(double));
    for (size_t s = 1; s <= R; s++) {
        const size_t r = R - s; /* the radius this step's values are needed in */
        const size_t gx0 = x > r ? x - r : 0, gy0 = y > r ? y - r : 0, gz0 = z > r ? z - r : 0;
        const size_t gx1 = x + r + 1 < nx ? x + r + 1 : nx, gy1 = y + r + 1 < ny ? y + r + 1 : ny;
        const size_t gz1 = z + r + 1 < nz ? z + r + 1 : nz;
        for (size_t gz = gz0; gz < gz1; gz++)
            for (size_t gy = gy0; gy < gy1; gy++)
                for (size_t gx = gx0; gx < gx1; gx++) {
                    const size_t p = ((gz - z0) * by + (gy - y0)) * bx + (gx - x0);
                    if (gx == 0 || gy == 0 || gz == 0 || gx + 1 == nx || gy + 1 == ny || gz + 1 == nz) {
                        nxt[p] = cur[p];
                        continue;
                    }
                    nxt[p] = c[0] * cur[p] + c[1] * cur[p - 1] + c[2] * cur[p + 1] + c[3] * cur[p - bx] +
                             c[4] * cur[p + bx] + c[5] * cur[p - bx * by] + c[6] * cur[p + bx * by];
                }
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    const double v = cur[((z - z0) * by + (y - y0)) * bx + (x - x0)];
    free(cur);
    free(nxt);
    return v;
}

/* Each step's float result is within 9 2^-24 sum|c||in| of the exact step of its float input (7 products, 6 adds,
 * the rounding of the stored value), and with sum|c| = 1 a step does not grow an earlier error: the errors add up
 * over the steps, each at most 9 2^-24 max|in| (no step grows the values). */
extern "C" double climb_stencil_tolerance(int steps, double max_abs) { return steps * 9.1 * 0x1p-24 * max_abs; }

/* ---------------------------------------------------------------- kernels */

/* 1 when (x, y, z) is on the grid's boundary. */
__device__ __forceinline__ bool st_boundary(int x, int y, int z, int nx, int ny, int nz)
{
    return x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1;
}

/* stencil_naive: a thread per point, its 7 inputs from global memory. */
#define ST_NAIVE_X 32
#define ST_NAIVE_Y 8
__global__ void __launch_bounds__(ST_NAIVE_X *ST_NAIVE_Y)
    stencil_naive_kernel(const float *in, float *out, int nx, int ny, int nz, const stencil_coef k)
{
    const int x = blockIdx.x * ST_NAIVE_X + threadIdx.x, y = blockIdx.y * ST_NAIVE_Y + threadIdx.y, z = blockIdx.z;
    if (x >= nx || y >= ny)
        return;
    const size_t sx = 1, sy = (size_t)nx, sz = (size_t)nx * ny, p = (size_t)z * sz + (size_t)y * sy + x;
    if (st_boundary(x, y, z, nx, ny, nz)) {
        out[p] = in[p];
        return;
    }
    out[p] = st_point(k, in[p], in[p - sx], in[p + sx], in[p - sy], in[p + sy], in[p - sz], in[p + sz]);
}

/* stencil_shared_3d: a block of 8^3 threads loads an 8^3 input tile (halo included) into shared memory; its inner
 * 6^3 threads compute an output each from shared memory, the 296 others only load. */
#define ST_IN3 8
#define ST_OUT3 (ST_IN3 - 2)
__global__ void __launch_bounds__(ST_IN3 *ST_IN3 *ST_IN3)
    stencil_shared_3d_kernel(const float *in, float *out, int nx, int ny, int nz, const stencil_coef k)
{
    __shared__ float t[ST_IN3][ST_IN3][ST_IN3];
    const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    const int x = blockIdx.x * ST_OUT3 + tx - 1, y = blockIdx.y * ST_OUT3 + ty - 1, z = blockIdx.z * ST_OUT3 + tz - 1;
    const bool inside = x >= 0 && y >= 0 && z >= 0 && x < nx && y < ny && z < nz;
    const size_t p = inside ? ((size_t)z * ny + y) * nx + x : 0;
    t[tz][ty][tx] = inside ? in[p] : 0.0f;
    __syncthreads();
    if (!inside || tx < 1 || ty < 1 || tz < 1 || tx > ST_OUT3 || ty > ST_OUT3 || tz > ST_OUT3)
        return;
    if (st_boundary(x, y, z, nx, ny, nz)) {
        out[p] = t[tz][ty][tx];
        return;
    }
    out[p] = st_point(k, t[tz][ty][tx], t[tz][ty][tx - 1], t[tz][ty][tx + 1], t[tz][ty - 1][tx], t[tz][ty + 1][tx],
                      t[tz - 1][ty][tx], t[tz + 1][ty][tx]);
}

/* Thread coarsening along z: a block of 32 x 32 threads holds a 32 x 32 input tile of one plane (30 x 30 outputs)
 * and marches through ST_ZC planes, keeping three planes (below, this, above) in shared memory: each plane is
 * loaded once for the three outputs that use it, and the 3-D tile's z halo is gone. */
#define ST_IN2 32
#define ST_OUT2 (ST_IN2 - 2)
#define ST_ZC 32 /* planes a block marches through (the book's rungs) */
__global__ void __launch_bounds__(ST_IN2 *ST_IN2)
    stencil_coarsened_kernel(const float *in, float *out, int nx, int ny, int nz, const stencil_coef k)
{
    __shared__ float below[ST_IN2][ST_IN2], cur[ST_IN2][ST_IN2], above[ST_IN2][ST_IN2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * ST_OUT2 + tx - 1, y = blockIdx.y * ST_OUT2 + ty - 1, z0 = blockIdx.z * ST_ZC;
    const bool in_xy = x >= 0 && y >= 0 && x < nx && y < ny;
    const size_t sz = (size_t)nx * ny, q = in_xy ? (size_t)y * nx + x : 0;
    below[ty][tx] = in_xy && z0 >= 1 ? in[(size_t)(z0 - 1) * sz + q] : 0.0f;
    cur[ty][tx] = in_xy && z0 < nz ? in[(size_t)z0 * sz + q] : 0.0f;
    const bool computes = in_xy && tx >= 1 && ty >= 1 && tx <= ST_OUT2 && ty <= ST_OUT2;
    for (int z = z0; z < z0 + ST_ZC && z < nz; z++) {
        above[ty][tx] = in_xy && z + 1 < nz ? in[(size_t)(z + 1) * sz + q] : 0.0f;
        __syncthreads();
        if (computes) {
            const size_t p = (size_t)z * sz + q;
            if (st_boundary(x, y, z, nx, ny, nz))
                out[p] = cur[ty][tx];
            else
                out[p] = st_point(k, cur[ty][tx], cur[ty][tx - 1], cur[ty][tx + 1], cur[ty - 1][tx], cur[ty + 1][tx],
                                  below[ty][tx], above[ty][tx]);
        }
        __syncthreads();
        below[ty][tx] = cur[ty][tx];
        cur[ty][tx] = above[ty][tx];
    }
}

/* Register tiling: the same march, the z neighbours of a thread's point only ever read by that thread, so they
 * live in its registers; only the current plane, whose x and y neighbours other threads read, stays in shared
 * memory (a third of the shared memory, one shared store a plane instead of three). */
__global__ void __launch_bounds__(ST_IN2 *ST_IN2)
    stencil_register_kernel(const float *in, float *out, int nx, int ny, int nz, const stencil_coef k)
{
    __shared__ float cur[ST_IN2][ST_IN2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * ST_OUT2 + tx - 1, y = blockIdx.y * ST_OUT2 + ty - 1, z0 = blockIdx.z * ST_ZC;
    const bool in_xy = x >= 0 && y >= 0 && x < nx && y < ny;
    const size_t sz = (size_t)nx * ny, q = in_xy ? (size_t)y * nx + x : 0;
    float below = in_xy && z0 >= 1 ? in[(size_t)(z0 - 1) * sz + q] : 0.0f;
    float here = in_xy && z0 < nz ? in[(size_t)z0 * sz + q] : 0.0f;
    const bool computes = in_xy && tx >= 1 && ty >= 1 && tx <= ST_OUT2 && ty <= ST_OUT2;
    for (int z = z0; z < z0 + ST_ZC && z < nz; z++) {
        const float above = in_xy && z + 1 < nz ? in[(size_t)(z + 1) * sz + q] : 0.0f;
        __syncthreads(); /* the previous plane's readers are done */
        cur[ty][tx] = here;
        __syncthreads();
        if (computes) {
            const size_t p = (size_t)z * sz + q;
            if (st_boundary(x, y, z, nx, ny, nz))
                out[p] = here;
            else
                out[p] = st_point(k, here, cur[ty][tx - 1], cur[ty][tx + 1], cur[ty - 1][tx], cur[ty + 1][tx], below,
                                  above);
        }
        below = here;
        here = above;
    }
}

/* The best rung: the register-tiled march with every thread computing. A block of 32 x BY threads owns a 32 x BY
 * column of points and marches through `planes` z planes. The plane's halo ring (two rows of 32, two columns of
 * BY) is loaded by the edge threads into a (BY + 2) x 34 shared tile beside the block's own points, so no thread
 * only loads. The next plane's point and halo are loaded into registers before this plane's arithmetic, so they are
 * in flight meanwhile; the plane after is the z neighbour, loaded one plane ahead too. */
#define ST_BEST_X 32

/* Block blockIdx.x's place among tiles_xy plane tiles and the z-tiles of `planes` planes over [zlo, zhi): by
 * default a z-tile's plane tiles run together (z slowest); zfast: a column's z-tiles run together (z fastest), so
 * the planes two z-tiles share are read by blocks resident at the same time (the tuning's `order`). */
__device__ __forceinline__ void st_block_place(int tiles_xy, int zlo, int zhi, int planes, int zfast, int *bxy, int *bz)
{
    const unsigned b = blockIdx.x;
    if (zfast) {
        const unsigned tz = (unsigned)((zhi - zlo + planes - 1) / planes);
        *bz = (int)(b % tz);
        *bxy = (int)(b / tz);
    } else {
        *bxy = (int)(b % (unsigned)tiles_xy);
        *bz = (int)(b / (unsigned)tiles_xy);
    }
}
template <int BY>
__global__ void __launch_bounds__(ST_BEST_X *BY)
    stencil_best_kernel(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz, int zlo,
                        int zhi, int tiles_x, int tiles_y, int planes, int zfast, const stencil_coef k)
{
    __shared__ float t[BY + 2][ST_BEST_X + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    int bxy, bz;
    st_block_place(tiles_x * tiles_y, zlo, zhi, planes, zfast, &bxy, &bz);
    const int x = (bxy % tiles_x) * ST_BEST_X + tx, y = (bxy / tiles_x) * BY + ty, z0 = zlo + bz * planes;
    const int z1 = min(z0 + planes, zhi);
    const bool mine = x < nx && y < ny;
    const size_t sz = (size_t)nx * ny;
    /* this thread's halo point of a plane, if it has one: a row above or below the tile, a column left or right */
    int hx = -1, hy = -1, sx = 0, sy = 0;
    if (ty == 0) { hx = x; hy = y - 1; sx = tx + 1; sy = 0; }
    if (ty == BY - 1) { hx = x; hy = y + 1; sx = tx + 1; sy = BY + 1; }
    int gx = -1, gy = -1, ux = 0, uy = 0; /* a second one, for the first and last column */
    if (tx == 0) { gx = x - 1; gy = y; ux = 0; uy = ty + 1; }
    if (tx == ST_BEST_X - 1) { gx = x + 1; gy = y; ux = ST_BEST_X + 1; uy = ty + 1; }
    const bool h_ok = hy >= 0 && hy < ny && hx < nx, g_ok = gx >= 0 && gx < nx && gy < ny;
    const size_t hq = h_ok ? (size_t)hy * nx + hx : 0, gq = g_ok ? (size_t)gy * nx + gx : 0, q = mine ? (size_t)y * nx + x : 0;
    float below = mine && z0 >= 1 ? __ldg(in + (size_t)(z0 - 1) * sz + q) : 0.0f;
    float here = mine && z0 < nz ? __ldg(in + (size_t)z0 * sz + q) : 0.0f;
    float above = mine && z0 + 1 < nz ? __ldg(in + (size_t)(z0 + 1) * sz + q) : 0.0f;
    float h = h_ok && z0 < nz ? __ldg(in + (size_t)z0 * sz + hq) : 0.0f;
    float g = g_ok && z0 < nz ? __ldg(in + (size_t)z0 * sz + gq) : 0.0f;
    for (int z = z0; z < z1; z++) {
        t[ty + 1][tx + 1] = here;
        if (hx >= 0)
            t[sy][sx] = h;
        if (gx >= 0)
            t[uy][ux] = g;
        __syncthreads();
        /* the next plane's loads, in flight during this plane's arithmetic */
        const size_t zn = (size_t)(z + 1) * sz;
        const float next_above = mine && z + 2 < nz ? __ldg(in + zn + sz + q) : 0.0f;
        const float next_h = h_ok && z + 1 < nz ? __ldg(in + zn + hq) : 0.0f;
        const float next_g = g_ok && z + 1 < nz ? __ldg(in + zn + gq) : 0.0f;
        if (mine) {
            const size_t p = (size_t)z * sz + q;
            if (st_boundary(x, y, z, nx, ny, nz))
                out[p] = here;
            else
                out[p] = st_point(k, here, t[ty + 1][tx], t[ty + 1][tx + 2], t[ty][tx + 1], t[ty + 2][tx + 1], below,
                                  above);
        }
        __syncthreads();
        below = here;
        here = above;
        above = next_above;
        h = next_h;
        g = next_g;
    }
}

/* The best rung's wide form, for rows that start aligned to V floats (nx a multiple of V, an aligned grid): each
 * thread owns V consecutive points of a row (V = 4 or 2) and moves them as one vector, so a warp's load is 512 or
 * 256 bytes and a block keeps V times the bytes in flight (a march that waits a plane per load needs them: the
 * latency of one load a plane is otherwise the time). The x neighbours come from the thread's own vector and its
 * lane neighbours' (warp shuffles); the warp's two ends and the y neighbours, from a (BY + 2) x 32-vector tile in
 * shared memory filled by the edge threads. */
template <int V> struct st_vec;
template <> struct st_vec<4> {
    typedef float4 type;
};
template <> struct st_vec<2> {
    typedef float2 type;
};

/* V floats at p, or zeros when !ok. AL: p aligned, one vector load; else V scalar loads, all in flight at once, of
 * the first `valid` (a row's last points: the rest zeros). */
template <int V, bool AL> __device__ __forceinline__ void st_load(const float *p, bool ok, int valid, float (&v)[V])
{
    if constexpr (AL) {
        typedef typename st_vec<V>::type T;
        T t;
        if (ok)
            t = __ldg((const T *)p);
        else
            memset(&t, 0, sizeof t);
        memcpy(v, &t, sizeof t);
    } else {
#pragma unroll
        for (int e = 0; e < V; e++)
            v[e] = ok && e < valid ? __ldg(p + e) : 0.0f;
    }
}

template <int V> __device__ __forceinline__ void st_copy(float (&d)[V], const float (&s)[V])
{
#pragma unroll
    for (int e = 0; e < V; e++)
        d[e] = s[e];
}

/* AL false (the rung register_tiled_any): any nx and alignment; each thread's V points come by V scalar loads and
 * go by V scalar stores, a row's last thread taking the points that are left. */
template <int BY, int V, bool AL = true>
__global__ void __launch_bounds__(ST_BEST_X *BY)
    stencil_best_vec_kernel(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz, int zlo,
                            int zhi, int tiles_x, int tiles_y, int planes, int zfast, const stencil_coef k)
{
    typedef typename st_vec<V>::type T;
    __shared__ T t[BY + 2][ST_BEST_X];
    const int tx = threadIdx.x, ty = threadIdx.y;
    int bxy, bz;
    st_block_place(tiles_x * tiles_y, zlo, zhi, planes, zfast, &bxy, &bz);
    const int x = (bxy % tiles_x) * (V * ST_BEST_X) + V * tx, y = (bxy / tiles_x) * BY + ty, z0 = zlo + bz * planes;
    const int z1 = min(z0 + planes, zhi);
    const bool mine = x < nx && y < ny;
    const int valid = x < nx ? min(V, nx - x) : 0; /* the points of this thread's V inside the row */
    const size_t sz = (size_t)nx * ny;
    /* a halo row (above the tile for ty 0, below for ty BY - 1) and an x end (left of lane 0, right of lane 31) */
    const int hy = ty == 0 ? y - 1 : ty == BY - 1 ? y + 1 : -1, hrow = ty == 0 ? 0 : BY + 1;
    const bool h_ok = (ty == 0 || ty == BY - 1) && hy >= 0 && hy < ny && x < nx;
    const int gx = tx == 0 ? x - 1 : tx == ST_BEST_X - 1 ? x + V : -1;
    const bool g_ok = gx >= 0 && gx < nx && y < ny;
    const size_t q = mine ? (size_t)y * nx + x : 0, hq = h_ok ? (size_t)hy * nx + x : 0, gq = g_ok ? (size_t)y * nx + gx : 0;
    float below[V], here[V], above[V], h[V];
    st_load<V, AL>(in + (size_t)(z0 - 1) * sz + q, mine && z0 >= 1, valid, below);
    st_load<V, AL>(in + (size_t)z0 * sz + q, mine && z0 < nz, valid, here);
    st_load<V, AL>(in + (size_t)(z0 + 1) * sz + q, mine && z0 + 1 < nz, valid, above);
    st_load<V, AL>(in + (size_t)z0 * sz + hq, h_ok && z0 < nz, valid, h);
    float g = g_ok && z0 < nz ? __ldg(in + (size_t)z0 * sz + gq) : 0.0f;
    for (int z = z0; z < z1; z++) {
        memcpy(&t[ty + 1][tx], here, sizeof(T));
        if (ty == 0 || ty == BY - 1)
            memcpy(&t[hrow][tx], h, sizeof(T));
        __syncthreads();
        const size_t zn = (size_t)(z + 1) * sz;
        float next_above[V], next_h[V];
        st_load<V, AL>(in + zn + sz + q, mine && z + 2 < nz, valid, next_above);
        st_load<V, AL>(in + zn + hq, h_ok && z + 1 < nz, valid, next_h);
        const float next_g = g_ok && z + 1 < nz ? __ldg(in + zn + gq) : 0.0f;
        float left = __shfl_up_sync(0xffffffffu, here[V - 1], 1), right = __shfl_down_sync(0xffffffffu, here[0], 1);
        if (tx == 0)
            left = g;
        if (tx == ST_BEST_X - 1)
            right = g;
        if (mine) {
            float nv[V], sv[V], r[V];
            const T nt = t[ty][tx], st = t[ty + 2][tx];
            memcpy(nv, &nt, sizeof nt);
            memcpy(sv, &st, sizeof st);
#pragma unroll
            for (int e = 0; e < V; e++) {
                const float xm = e == 0 ? left : here[e - 1], xp = e == V - 1 ? right : here[e + 1];
                r[e] = st_boundary(x + e, y, z, nx, ny, nz)
                           ? here[e]
                           : st_point(k, here[e], xm, xp, nv[e], sv[e], below[e], above[e]);
            }
            if constexpr (AL) {
                T o;
                memcpy(&o, r, sizeof o);
                *(T *)(out + (size_t)z * sz + q) = o;
            } else {
#pragma unroll
                for (int e = 0; e < V; e++)
                    if (e < valid)
                        out[(size_t)z * sz + q + e] = r[e];
            }
        }
        __syncthreads();
        st_copy<V>(below, here);
        st_copy<V>(here, above);
        st_copy<V>(above, next_above);
        st_copy<V>(h, next_h);
        g = next_g;
    }
}

/* Whole rows a block (the rung rows_async, D = 4): a block of ST_ROWS_T threads computes `rows` whole rows of a
 * plane (at most ST_ROWS_V points a thread: point f of the block's rows is thread f % ST_ROWS_T's), so a row of any
 * width and alignment leaves no thread idle but the block's last few. The rows and the one above and below them are
 * one contiguous stretch of a plane; each plane's stretch is copied by 4-byte cp.async into a ring of ST_ROWS_D stages
 * of shared memory, ST_ROWS_D - 3 planes ahead of the three (below, here, above) the arithmetic reads: the loads
 * wait in no register, and one barrier a plane. A point's neighbours are its stretch's +-1 and +-nx, and the same
 * place in the stages below and above. */
#define ST_ROWS_T 256
#define ST_ROWS_V 8
#define ST_ROWS_SMEM 49152 /* the stages' bytes at most: the default dynamic shared memory of a block */
template <int ST_ROWS_D>
__global__ void __launch_bounds__(ST_ROWS_T)
    stencil_rows_kernel(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz, int zlo,
                        int zhi, int rows, int tiles_y, int planes, int zfast, const stencil_coef k)
{
    extern __shared__ float ring[];
    const int t = threadIdx.x;
    int by, bz;
    st_block_place(tiles_y, zlo, zhi, planes, zfast, &by, &bz);
    const int y0 = by * rows, ry = min(rows, ny - y0), z0 = zlo + bz * planes, z1 = min(z0 + planes, zhi);
    const int stage = (rows + 2) * nx, count = ry * nx;
    const size_t sz = (size_t)nx * ny;
    /* the stretch a plane loads: rows max(y0 - 1, 0) to min(y0 + ry, ny - 1), row y0 - 1 at the stage's start */
    const int ylo = max(y0 - 1, 0), yhi = min(y0 + ry + 1, ny), cnt = (yhi - ylo) * nx, soff = (ylo - (y0 - 1)) * nx;
    const float *src = in + (size_t)ylo * nx;
    /* plane z lives in stage (z - z0 + 1) % D; planes past z1 (the last one read) or outside the grid load nothing,
     * but every call commits a group so that the count of groups in flight is the same for every thread */
    auto load = [&](int z) {
        if (z >= 0 && z < nz && z <= z1) {
            float *d = ring + ((z - z0 + 1) % ST_ROWS_D) * stage + soff;
            const float *g = src + (size_t)z * sz;
            for (int i = t; i < cnt; i += ST_ROWS_T)
                climb_cp_async4(d + i, g + i);
        }
        climb_cp_async_commit();
    };
    unsigned edge = 0; /* bit i: this thread's point i is on the grid's x or y boundary */
#pragma unroll
    for (int i = 0; i < ST_ROWS_V; i++) {
        const int f = t + i * ST_ROWS_T, x = f % nx, y = y0 + f / nx;
        edge |= (unsigned)(f < count && (x == 0 || x == nx - 1 || y == 0 || y == ny - 1)) << i;
    }
    for (int z = z0 - 1; z < z0 + ST_ROWS_D - 2; z++)
        load(z);
    float *o = out + (size_t)y0 * nx;
    for (int z = z0; z < z1; z++) {
        /* planes up to z + D - 3 issued; z + 1 and those before it must have landed */
        climb_cp_async_wait<ST_ROWS_D - 4>();
        __syncthreads();
        load(z + ST_ROWS_D - 2); /* into the stage of plane z - 2, which the barrier freed */
        const float *b = ring + ((z - z0) % ST_ROWS_D) * stage + nx, *h = ring + ((z - z0 + 1) % ST_ROWS_D) * stage + nx;
        const float *a = ring + ((z - z0 + 2) % ST_ROWS_D) * stage + nx;
        const bool zedge = z == 0 || z == nz - 1;
#pragma unroll
        for (int i = 0; i < ST_ROWS_V; i++) {
            const int f = t + i * ST_ROWS_T;
            if (f < count) {
                const float c = h[f];
                o[(size_t)z * sz + f] = zedge || (edge >> i & 1u)
                                            ? c
                                            : st_point(k, c, h[f - 1], h[f + 1], h[f - nx], h[f + nx], b[f], a[f]);
            }
        }
    }
    climb_cp_async_wait<0>(); /* no copy into shared memory outlives the block */
}

/* ---------------------------------------------------------------- launchers */

static const int ST_ROWS[] = {4, 8, 16};
static const int ST_PLANES[] = {0, 8, 16, 32, 64, 128}; /* 0: climb_stencil_wave_planes */
static const int ST_ORDER[] = {0, 1};

extern "C" void climb_stencil_set_tuning(climb_stencil_tuning *t, const int *values)
{
    t->rows = values[0];
    t->planes = values[1];
    t->order = values[2];
}

static size_t cdiv(size_t n, size_t d) { return (n + d - 1) / d; }

static stencil_coef coef_of(const float c[7])
{
    stencil_coef k;
    memcpy(k.c, c, sizeof k.c);
    return k;
}

extern "C" int climb_stencil_fits(size_t nx, size_t ny, size_t nz)
{
    size_t blocks;
    return nx <= INT32_MAX && ny <= INT32_MAX && nz <= INT32_MAX &&
           climb_mul3_fits(cdiv(nx, ST_BEST_X), cdiv(ny, 4), cdiv(nz, 8), &blocks) && blocks <= 0x7fffffffu;
}

extern "C" int climb_stencil_wave_planes(size_t tiles_xy, size_t depth, size_t wave)
{
    int best = ST_WAVE_MIN;
    if (tiles_xy == 0 || depth == 0 || wave == 0)
        return best;
    double best_t = 0;
    for (int p = ST_WAVE_MIN; p <= ST_WAVE_MAX; p++) {
        const size_t waves = cdiv(tiles_xy * cdiv(depth, (size_t)p), wave);
        const double t = (double)waves * (double)((size_t)p < depth ? p + 1 : depth + 1);
        if (p == ST_WAVE_MIN || t < best_t) {
            best_t = t;
            best = p;
        }
    }
    return best;
}

/* The planes a block of kernel fn (threads a block, smem bytes of dynamic shared memory) marches with tuning t over
 * tiles_xy plane tiles and `depth` planes: t's, or where that is 0, climb_stencil_wave_planes with the blocks the
 * current GPU holds at once (its SMs times fn's blocks an SM). cudaSuccess, or the occupancy queries' error. */
static cudaError_t st_planes(const climb_stencil_tuning *t, const void *fn, int threads, size_t smem, size_t tiles_xy,
                             size_t depth, int *planes)
{
    *planes = t->planes;
    if (t->planes > 0)
        return cudaSuccess;
    int dev = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, threads, smem);
    if (e != cudaSuccess)
        return e;
    *planes = climb_stencil_wave_planes(tiles_xy, depth, (size_t)sms * (size_t)(per_sm > 0 ? per_sm : 1));
    return cudaSuccess;
}

/* The march over planes [zlo, zhi) in one of its forms: ST_FORM_ANY (four points a thread on any row, the rung
 * register_tiled_any), or v = 4, 2 or 1 points a thread (the best rung's, for rows aligned to v floats). */
enum { ST_FORM_ANY = 0, ST_FORM_ROWS = -1 };

/* The kernel stencil_march launches in form `form` (v points a thread) with blocks of `rows` rows; NULL for rows it
 * has no kernel for. */
static const void *st_march_fn(int form, int v, int rows)
{
#define ST_FN(by)                                                                                                  \
    (form == ST_FORM_ANY ? (const void *)stencil_best_vec_kernel<by, 4, false>                                     \
     : v == 4            ? (const void *)stencil_best_vec_kernel<by, 4>                                            \
     : v == 2            ? (const void *)stencil_best_vec_kernel<by, 2>                                            \
                         : (const void *)stencil_best_kernel<by>)
    return rows == 4 ? ST_FN(4) : rows == 8 ? ST_FN(8) : rows == 16 ? ST_FN(16) : NULL;
#undef ST_FN
}
static cudaError_t stencil_march(const climb_stencil_tuning *t, int form, size_t nx, size_t ny, size_t nz,
                                 size_t zlo, size_t zhi, const float c[7], const float *in, float *out, cudaStream_t s)
{
    if (nx == 0 || ny == 0 || zlo >= zhi)
        return cudaSuccess;
    if (nx > INT32_MAX || ny > INT32_MAX || nz > INT32_MAX || zhi > nz)
        return cudaErrorInvalidValue;
    const int v = form == ST_FORM_ANY ? 4 : form;
    const void *fn = st_march_fn(form, v, t->rows);
    if (!fn || t->planes < 0)
        return cudaErrorInvalidValue;
    const size_t tiles_x = cdiv(nx, (size_t)ST_BEST_X * v), tiles_y = cdiv(ny, (size_t)t->rows);
    int planes;
    const cudaError_t pe = st_planes(t, fn, ST_BEST_X * t->rows, 0, tiles_x * tiles_y, zhi - zlo, &planes);
    if (pe != cudaSuccess)
        return pe;
    const size_t tiles_z = cdiv(zhi - zlo, (size_t)planes);
    if (tiles_x * tiles_y > INT32_MAX || tiles_x * tiles_y * tiles_z > 0x7fffffffu)
        return cudaErrorInvalidConfiguration;
    const unsigned blocks = (unsigned)(tiles_x * tiles_y * tiles_z);
    const stencil_coef k = coef_of(c);
    const int zl = (int)zlo, zh = (int)zhi;
#define ST_MARCH(by)                                                                                         \
    if (form == ST_FORM_ANY)                                                                                 \
        stencil_best_vec_kernel<by, 4, false><<<blocks, dim3(ST_BEST_X, by), 0, s>>>(                        \
            in, out, (int)nx, (int)ny, (int)nz, zl, zh, (int)tiles_x, (int)tiles_y, planes, t->order, k);    \
    else if (v == 4)                                                                                         \
        stencil_best_vec_kernel<by, 4><<<blocks, dim3(ST_BEST_X, by), 0, s>>>(                               \
            in, out, (int)nx, (int)ny, (int)nz, zl, zh, (int)tiles_x, (int)tiles_y, planes, t->order, k);    \
    else if (v == 2)                                                                                         \
        stencil_best_vec_kernel<by, 2><<<blocks, dim3(ST_BEST_X, by), 0, s>>>(                               \
            in, out, (int)nx, (int)ny, (int)nz, zl, zh, (int)tiles_x, (int)tiles_y, planes, t->order, k);    \
    else                                                                                                     \
        stencil_best_kernel<by><<<blocks, dim3(ST_BEST_X, by), 0, s>>>(                                      \
            in, out, (int)nx, (int)ny, (int)nz, zl, zh, (int)tiles_x, (int)tiles_y, planes, t->order, k)
    switch (t->rows) {
    case 4: ST_MARCH(4); break;
    case 8: ST_MARCH(8); break;
    case 16: ST_MARCH(16); break;
    default: return cudaErrorInvalidValue;
    }
#undef ST_MARCH
    return cudaGetLastError();
}

extern "C" int climb_stencil_rows_fit(size_t nx, size_t ny, int stages)
{
    if (nx == 0 || ny == 0 || stages < 3)
        return 0;
    const size_t by_threads = (size_t)ST_ROWS_T * ST_ROWS_V / nx, by_smem = ST_ROWS_SMEM / ((size_t)stages * 4 * nx);
    size_t rows = by_smem >= 2 ? by_smem - 2 : 0;
    rows = rows < by_threads ? rows : by_threads;
    rows = rows < ny ? rows : ny;
    return (int)rows;
}

/* The march of whole rows over planes [zlo, zhi), `stages` planes in the ring (4: the one kernel built; a ring of 6,
 * three planes ahead, ran 0.90-0.98x of it on an H100 at 09f4060 and is not kept). */
static cudaError_t stencil_rows(const climb_stencil_tuning *t, int stages, size_t nx, size_t ny, size_t nz, size_t zlo,
                                size_t zhi, const float c[7], const float *in, float *out, cudaStream_t s)
{
    if (nx == 0 || ny == 0 || zlo >= zhi)
        return cudaSuccess;
    const int rows = climb_stencil_rows_fit(nx, ny, stages);
    if (rows < 1 || nx > INT32_MAX || ny > INT32_MAX || nz > INT32_MAX || zhi > nz || t->planes < 0 || stages != 4)
        return cudaErrorInvalidValue;
    const size_t smem = (size_t)stages * (rows + 2) * nx * sizeof(float);
    const size_t tiles_y = cdiv(ny, (size_t)rows);
    int planes;
    const cudaError_t pe =
        st_planes(t, (const void *)stencil_rows_kernel<4>, ST_ROWS_T, smem, tiles_y, zhi - zlo, &planes);
    if (pe != cudaSuccess)
        return pe;
    const size_t tiles_z = cdiv(zhi - zlo, (size_t)planes);
    if (tiles_y * tiles_z > 0x7fffffffu)
        return cudaErrorInvalidConfiguration;
    const stencil_coef k = coef_of(c);
    stencil_rows_kernel<4><<<(unsigned)(tiles_y * tiles_z), ST_ROWS_T, smem, s>>>(
        in, out, (int)nx, (int)ny, (int)nz, (int)zlo, (int)zhi, rows, (int)tiles_y, planes, t->order, k);
    return cudaGetLastError();
}

extern "C" int climb_stencil_form(size_t nx, size_t ny, int align)
{
    /* four points a thread where every row starts 16-byte aligned, two where 8-byte aligned; else one. Where rows
     * take two, four scalar points a thread (ST_FORM_ANY) instead wherever that leaves no more idle points in a row:
     * a row's blocks span ST_BEST_X x 4 points then, against x 2, so the four-point form pads a row to a multiple of
     * 128 and the two-point one to 64; at equal padding the four-point form does more a thread (measured on an
     * H100 at f0b2979: 510 x 511 x 257, 1.11x the two-point form; 130 x 250 x 333, padded to 256 against 192,
     * 0.88x). */
    const int v = nx % 4 == 0 && align % 16 == 0 ? 4 : nx % 2 == 0 && align % 8 == 0 ? 2 : 1;
    const size_t span4 = (size_t)ST_BEST_X * 4, span2 = (size_t)ST_BEST_X * 2;
    const int form = v == 2 && cdiv(nx, span4) * span4 <= cdiv(nx, span2) * span2 ? ST_FORM_ANY : v;
    /* Whole rows where the tile leaves over 15% of a row's threads idle: on an H100 at 3b75844 the whole-rows march
     * ran 0.84-0.91x the tiles' speed on full rows (512^3, 256^3, 510 x 511 x 257) but 1.08x on 130 x 250 x 333,
     * whose rows the two-point tiles pad to 192 (68% busy). */
    const size_t span = (size_t)ST_BEST_X * (form == ST_FORM_ANY ? 4 : form);
    if (nx > 0 && (double)nx < 0.85 * (double)(cdiv(nx, span) * span) && climb_stencil_rows_fit(nx, ny, 4) >= 1)
        return ST_FORM_ROWS;
    return form;
}

extern "C" cudaError_t climb_stencil_best_range(const climb_stencil_tuning *t, size_t nx, size_t ny, size_t nz,
                                                size_t zlo, size_t zhi, const float c[7], const float *in, float *out,
                                                cudaStream_t s)
{
    const uintptr_t a = (uintptr_t)in | (uintptr_t)out;
    const int form = climb_stencil_form(nx, ny, (int)(a & 15u ? a & 15u : 16u));
    if (form == ST_FORM_ROWS)
        return stencil_rows(t, 4, nx, ny, nz, zlo, zhi, c, in, out, s);
    return stencil_march(t, form, nx, ny, nz, zlo, zhi, c, in, out, s);
}

extern "C" cudaError_t climb_stencil_best(const climb_stencil_tuning *t, size_t nx, size_t ny, size_t nz,
                                          const float c[7], const float *in, float *out, cudaStream_t s)
{
    return climb_stencil_best_range(t, nx, ny, nz, 0, nz, c, in, out, s);
}

struct climb_case {
    climb_case_params p;
    size_t nx, ny, nz, n;
    int steps;
    float c[7];
    float *h_in, *d_in;      /* the grid */
    float *h_out, *d_out;    /* the last step's grid, and verify's download */
    float *d_tmp;            /* the steps' other grid */
    double *ref;             /* made by the reference (its steps swap two arrays) */
    double max_abs, tol;
    climb_stencil_tuning tn;
};

/* One step of a rung from src to dst. */
typedef cudaError_t (*stencil_step_fn)(climb_case *c, const float *src, float *dst, cudaStream_t s);

static cudaError_t step_naive(climb_case *c, const float *src, float *dst, cudaStream_t s)
{
    const dim3 grid((unsigned)cdiv(c->nx, ST_NAIVE_X), (unsigned)cdiv(c->ny, ST_NAIVE_Y), (unsigned)c->nz);
    stencil_naive_kernel<<<grid, dim3(ST_NAIVE_X, ST_NAIVE_Y), 0, s>>>(src, dst, (int)c->nx, (int)c->ny, (int)c->nz,
                                                                      coef_of(c->c));
    return cudaGetLastError();
}

static cudaError_t step_shared_3d(climb_case *c, const float *src, float *dst, cudaStream_t s)
{
    const dim3 grid((unsigned)cdiv(c->nx, ST_OUT3), (unsigned)cdiv(c->ny, ST_OUT3), (unsigned)cdiv(c->nz, ST_OUT3));
    stencil_shared_3d_kernel<<<grid, dim3(ST_IN3, ST_IN3, ST_IN3), 0, s>>>(src, dst, (int)c->nx, (int)c->ny,
                                                                          (int)c->nz, coef_of(c->c));
    return cudaGetLastError();
}

static cudaError_t step_coarsened(climb_case *c, const float *src, float *dst, cudaStream_t s)
{
    const dim3 grid((unsigned)cdiv(c->nx, ST_OUT2), (unsigned)cdiv(c->ny, ST_OUT2), (unsigned)cdiv(c->nz, ST_ZC));
    stencil_coarsened_kernel<<<grid, dim3(ST_IN2, ST_IN2), 0, s>>>(src, dst, (int)c->nx, (int)c->ny, (int)c->nz,
                                                                  coef_of(c->c));
    return cudaGetLastError();
}

static cudaError_t step_register(climb_case *c, const float *src, float *dst, cudaStream_t s)
{
    const dim3 grid((unsigned)cdiv(c->nx, ST_OUT2), (unsigned)cdiv(c->ny, ST_OUT2), (unsigned)cdiv(c->nz, ST_ZC));
    stencil_register_kernel<<<grid, dim3(ST_IN2, ST_IN2), 0, s>>>(src, dst, (int)c->nx, (int)c->ny, (int)c->nz,
                                                                 coef_of(c->c));
    return cudaGetLastError();
}

static cudaError_t step_best(climb_case *c, const float *src, float *dst, cudaStream_t s)
{
    return climb_stencil_best(&c->tn, c->nx, c->ny, c->nz, c->c, src, dst, s);
}

/* The best rung's march at four points a thread on any row (scalar loads and stores), the best rung's tuning. */
static cudaError_t step_any(climb_case *c, const float *src, float *dst, cudaStream_t s)
{
    return stencil_march(&c->tn, ST_FORM_ANY, c->nx, c->ny, c->nz, 0, c->nz, c->c, src, dst, s);
}

/* Whole rows a block, planes through a ring of 4 in shared memory (one plane ahead). */
static cudaError_t step_rows4(climb_case *c, const float *src, float *dst, cudaStream_t s)
{
    return stencil_rows(&c->tn, 4, c->nx, c->ny, c->nz, 0, c->nz, c->c, src, dst, s);
}

/* The bound: one copy of the grid per step. */
static cudaError_t step_copy(climb_case *c, const float *src, float *dst, cudaStream_t s)
{
    (void)src;
    return cudaMemcpyAsync(dst, c->d_in, c->n * sizeof(float), cudaMemcpyDeviceToDevice, s);
}

/* ---------------------------------------------------------------- the registry */

static int k_naive(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)stencil_naive_kernel, "stencil_naive_kernel", ST_NAIVE_X * ST_NAIVE_Y, 0);
}
static int k_shared_3d(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)stencil_shared_3d_kernel, "stencil_shared_3d_kernel",
                            ST_IN3 * ST_IN3 * ST_IN3, 0);
}
static int k_coarsened(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)stencil_coarsened_kernel, "stencil_coarsened_kernel", ST_IN2 * ST_IN2, 0);
}
static int k_register(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)stencil_register_kernel, "stencil_register_kernel", ST_IN2 * ST_IN2, 0);
}
static int k_best(climb_dtype, const climb_device_info *, const int *tuning, climb_kernel_desc *o, int max)
{
    const int by = tuning[0];
    const void *f4 = by == 4 ? (const void *)stencil_best_vec_kernel<4, 4>
                     : by == 8 ? (const void *)stencil_best_vec_kernel<8, 4>
                               : (const void *)stencil_best_vec_kernel<16, 4>;
    const void *f2 = by == 4 ? (const void *)stencil_best_vec_kernel<4, 2>
                     : by == 8 ? (const void *)stencil_best_vec_kernel<8, 2>
                               : (const void *)stencil_best_vec_kernel<16, 2>;
    const void *f1 = by == 4 ? (const void *)stencil_best_kernel<4>
                     : by == 8 ? (const void *)stencil_best_kernel<8>
                               : (const void *)stencil_best_kernel<16>;
    int n = climb_kernel_at(o, max, 0, f4, ST_BEST_X * by, 0, "stencil_best_vec_kernel<%d, 4>", by);
    n = climb_kernel_at(o, max, n, f2, ST_BEST_X * by, 0, "stencil_best_vec_kernel<%d, 2>", by);
    n = climb_kernel_at(o, max, n, f1, ST_BEST_X * by, 0, "stencil_best_kernel<%d>", by);
    return climb_kernel_at(o, max, n, (const void *)stencil_rows_kernel<4>, ST_ROWS_T, ST_ROWS_SMEM,
                           "stencil_rows_kernel<4>");
}

static const char *st_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *values);

/* The kernel at the tuning's rows (the best rung's, which this rung runs with), the built-in rows where none is
 * given. */
static int k_any(climb_dtype, const climb_device_info *dev, const int *tuning, climb_kernel_desc *o, int max)
{
    int v[CLIMB_MAX_TUNABLES] = {0};
    if (tuning && tuning[0])
        v[0] = tuning[0];
    else
        st_defaults(dev, NULL, v);
    const int by = v[0];
    const void *f = by == 4 ? (const void *)stencil_best_vec_kernel<4, 4, false>
                    : by == 8 ? (const void *)stencil_best_vec_kernel<8, 4, false>
                              : (const void *)stencil_best_vec_kernel<16, 4, false>;
    return climb_kernel_at(o, max, 0, f, ST_BEST_X * by, 0, "stencil_best_vec_kernel<%d, 4, any row>", by);
}

static int k_rows4(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_kernel_at(o, max, 0, (const void *)stencil_rows_kernel<4>, ST_ROWS_T, ST_ROWS_SMEM,
                           "stencil_rows_kernel<4>");
}

/* The rows' own rules: the grid's y and z hold 65535 blocks each, of the rung's own height and depth. */
static const char *refuses_naive(const climb_case *c)
{
    if (c->nz > 65535)
        return "nz above 65535: the grid's z holds 65535 blocks";
    return cdiv(c->ny, ST_NAIVE_Y) > 65535 ? "ny above 524280: the grid's y holds 65535 blocks" : NULL;
}
static const char *refuses_shared_3d(const climb_case *c)
{
    return cdiv(c->ny, ST_OUT3) > 65535 || cdiv(c->nz, ST_OUT3) > 65535
               ? "ny or nz above 393210: the grid's y and z hold 65535 blocks"
               : NULL;
}
static const char *refuses_marching(const climb_case *c)
{
    return cdiv(c->ny, ST_OUT2) > 65535 || cdiv(c->nz, ST_ZC) > 65535
               ? "ny or nz too large for the grid's y and z (65535 blocks)"
               : NULL;
}

static const char *refuses_rows4(const climb_case *c)
{
    return climb_stencil_rows_fit(c->nx, c->ny, 4) < 1 ? "nx above 1024: three rows of 4 stages past 48 KiB" : NULL;
}

typedef struct stencil_rung {
    climb_rung_info info;
    stencil_step_fn step;
} stencil_rung;

static const stencil_rung ST_RUNGS[] = {
    {.info = {.name = "device_copy", .idea = "bound: cudaMemcpyAsync of the grid, once a step (read once, written "
                                             "once)",
              .needs = "", .kind = CLIMB_RUNG_BOUND, .kernels = NULL},
     .step = step_copy},
    {.info = {.name = "naive", .idea = "PMPP's first kernel: a thread per point, 7 loads from global memory",
              .needs = "nz below 65536", .kind = CLIMB_RUNG_LADDER, .kernels = k_naive, .refuses = refuses_naive},
     .step = step_naive},
    {.info = {.name = "shared_3d", .idea = "8^3 input tiles in shared memory, 6^3 outputs: 58% of the threads only "
                                           "load",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_shared_3d, .refuses = refuses_shared_3d},
     .step = step_shared_3d},
    {.info = {.name = "coarsened_z", .idea = "a 32 x 32 tile marching through 32 planes, three planes in shared "
                                             "memory: no z halo",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_coarsened, .refuses = refuses_marching},
     .step = step_coarsened},
    {.info = {.name = "register_tiled", .idea = "the z neighbours in registers, one plane in shared memory",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_register, .refuses = refuses_marching},
     .step = step_register},
    {.info = {.name = "register_tiled_wide", .idea = "four (or two) points a thread as one vector, x neighbours by "
                                                     "shuffles, no idle threads, the next plane in flight, tuned; "
                                                     "rows the tile would leave over 15% idle go whole rows a block "
                                                     "(rows_async's march)",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_best},
     .step = step_best},
    {.info = {.name = "register_tiled_any", .idea = "the same march at four points a thread on every row, whatever its "
                                                    "alignment: four scalar loads in flight a plane instead of one "
                                                    "vector (the best takes two or one point a thread where rows are "
                                                    "not 16-byte aligned)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_any},
     .step = step_any},
    {.info = {.name = "rows_async", .idea = "whole rows a block (up to 8 points a thread, any width or alignment: no "
                                            "idle thread but the last few), each plane's rows by 4-byte cp.async into "
                                            "a ring of 4 planes in shared memory, one plane ahead",
              .needs = "nx at most 1024", .kind = CLIMB_RUNG_LADDER, .kernels = k_rows4, .refuses = refuses_rows4},
     .step = step_rows4},
};

static const climb_rung_info *stencil_rung_info(int i) { return &ST_RUNGS[i].info; }

/* ---------------------------------------------------------------- options and tuning */

enum { OPT_STEPS };
static constexpr climb_option ST_OPTIONS[] = {
    {.name = "steps", .kind = CLIMB_OPT_INT,
     .meaning = "time steps a run takes, ping-ponging between two grids (the input is kept)", .def = "1", .min = 1,
     .max = 1000},
};
CLIMB_OPTION_AT(ST_OPTIONS, OPT_STEPS, "steps");

static const climb_tunable ST_TUNABLES[] = {
    {.name = "rows", .meaning = "rows of 32 threads per block (the plane tile is 32 x rows)", .values = ST_ROWS,
     .n_values = CLIMB_COUNT(ST_ROWS)},
    {.name = "planes", .meaning = "z planes a block marches through (0: as many as make the blocks fill whole waves "
                                  "of the GPU, climb_stencil_wave_planes)",
     .values = ST_PLANES,
     .n_values = CLIMB_COUNT(ST_PLANES)},
    {.name = "order", .meaning = "the blocks' order: 0 a z-tile's plane tiles together, 1 a column's z-tiles together",
     .values = ST_ORDER, .n_values = CLIMB_COUNT(ST_ORDER)},
};

/* Whether the best rung marches whole rows on this shape (on aligned pointers): the tuning class "rows". */
static int st_rows_class(const climb_tuning_key *k)
{
    return climb_stencil_form(k->shape.d[0], k->shape.d[1], 16) == ST_FORM_ROWS;
}

/* The built-in values: 32 x 4 threads, a z-tile's plane tiles together, and 8 planes a block, but where the best rung
 * marches whole rows (the tuning class "rows") the march that fills whole waves (planes 0): `climb tune stencil`
 * chose it for that class on an H200 (1.15x the 8 planes) and an H100 (1.10x), where a grid of rows makes few
 * blocks. */
static const char *st_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *values)
{
    (void)dev;
    const int rows = k && st_rows_class(k);
    values[0] = 4;
    values[1] = rows ? 0 : 8;
    values[2] = 0;
    return rows ? "built-in (whole rows): 32 x 4 threads, the planes that fill whole waves, a z-tile's rows together"
                : "built-in: 32 x 4 threads, 8 planes a block, a z-tile's plane tiles together";
}

/* The tuning classes, each tuned apart (`climb tune stencil` over its bench shapes): "rows" where the best rung
 * marches whole rows (climb_stencil_form on aligned pointers; only `planes` matters there); else by the bytes a step
 * reads and writes against the L2 (as transpose's classes): "small" up to 4 x the L2 (256^3: 134 MB on a 50 MiB
 * L2), "large" above it, and "wide" above it with a plane of L2 / 16 or more (1024 x 1024: 4 MiB), whose z-tile's
 * blocks fill the GPU before the next z-tile's start, so the planes two z-tiles share may have left the L2 between
 * them. The lines are choices; each class's values are measured on the GPU itself. */
static void st_class(const climb_device_info *dev, const climb_tuning_key *k, char *buf, size_t len)
{
    const size_t nx = k->shape.d[0], ny = k->shape.d[1], nz = k->shape.d[2];
    if (dev->l2_bytes <= 0)
        return;
    if (st_rows_class(k)) {
        snprintf(buf, len, "rows");
        return;
    }
    const double plane = 4.0 * (double)nx * (double)ny, bytes = 2.0 * plane * (double)nz, l2 = dev->l2_bytes;
    snprintf(buf, len, "%s", bytes <= 4 * l2 ? "small" : plane >= l2 / 16 ? "wide" : "large");
}

static const climb_tuning ST_TUNING = {.params = ST_TUNABLES, .n_params = CLIMB_COUNT(ST_TUNABLES),
                                       .candidates = NULL, .n_candidates = 0, .defaults = st_defaults, .rejects = NULL,
                                       .shape_class = st_class,
                                       .shape_class_meaning = "rows (the best rung marches whole rows), else small "
                                                              "(read and written up to 4 x the L2), large, or wide "
                                                              "(large, a plane of L2 / 16 or more)"};

/* ---------------------------------------------------------------- harness glue */

static void st_fini(climb_case *c) { free(c->ref); }

static int st_init(climb_case *c)
{
    c->nx = c->p.shape.d[0];
    c->ny = c->p.shape.d[1];
    c->nz = c->p.shape.d[2];
    if (!climb_mul3_fits(c->nx, c->ny, c->nz, &c->n)) {
        fprintf(stderr, "climb: stencil %zu x %zu x %zu: more points than size_t counts\n", c->nx, c->ny, c->nz);
        return -1;
    }
    c->steps = (int)c->p.opts[OPT_STEPS].i;
    c->tn.rows = 4;
    c->tn.planes = 8;
    c->tn.order = 0;
    return 0;
}

extern "C" double climb_stencil_draw(uint64_t seed, float c[7], float *grid, size_t n)
{
    climb_rng rng;
    climb_rng_seed(&rng, seed);
    double sum = 0;
    for (int k = 0; k < 7; k++) {
        c[k] = climb_rng_float(&rng, -1, 1);
        sum += fabs(c[k]);
    }
    for (int k = 0; k < 7; k++)
        c[k] = (float)(c[k] / sum);
    climb_rng_fill_f32(&rng, grid, n, -1.0f, 1.0f);
    double max_abs = 0;
    for (size_t i = 0; i < n; i++)
        max_abs = fmax(max_abs, fabs(grid[i]));
    return max_abs;
}

static int st_fill(climb_case *c)
{
    c->max_abs = climb_stencil_draw(c->p.seed, c->c, c->h_in, c->n);
    c->tol = climb_stencil_tolerance(c->steps, c->max_abs);
    return 0;
}

static size_t grid_bytes(const climb_case *c) { return (c->n ? c->n : 1) * sizeof(float); }

/* The outputs' poison is all ones: a NaN, which no step of finite values makes; the intermediate grid's too, so a
 * step that reads a point the previous step did not write shows. */
static const climb_buffer ST_BUFFERS[] = {
    {.name = "the grid", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT | CLIMB_BUF_OFFSET,
     .bytes = grid_bytes, .host_at = offsetof(climb_case, h_in), .device_at = offsetof(climb_case, d_in)},
    {.name = "the output", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET,
     .bytes = grid_bytes, .host_at = offsetof(climb_case, h_out), .device_at = offsetof(climb_case, d_out),
     .poison = 0xFF},
    {.name = "the intermediate grid", .flags = CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET,
     .bytes = grid_bytes, .device_at = offsetof(climb_case, d_tmp), .poison = 0xFF},
};

static int st_empty(const climb_case *c) { return c->n == 0; }

static const char *st_describe(const climb_case *c)
{
    (void)c;
    return "random values in [-1, 1), random weights scaled to sum |c| = 1";
}

static int st_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)mode; /* 7 multiply-adds a point a step: always computed in full on the CPU */
    c->ref = (double *)malloc((c->n ? c->n : 1) * sizeof(double));
    double *tmp = (double *)malloc((c->n ? c->n : 1) * sizeof(double));
    if (!c->ref || !tmp) {
        free(tmp);
        return climb_host_oom("the stencil reference");
    }
    for (size_t i = 0; i < c->n; i++)
        c->ref[i] = c->h_in[i];
    for (int s = 0; s < c->steps; s++) {
        climb_stencil_ref_step(c->ref, tmp, c->nx, c->ny, c->nz, c->c);
        double *t = c->ref;
        c->ref = tmp;
        tmp = t;
    }
    free(tmp);
    snprintf(desc, desclen, "CPU, double, %d step%s; |error| <= steps 9.1 2^-24 max|in| = %.3g", c->steps,
             c->steps == 1 ? "" : "s", c->tol);
    return 0;
}

static const char *st_refuses(const climb_case *c, int rung)
{
    (void)rung; /* a row's own rules are its refuses */
    if (c->nx > INT32_MAX || c->ny > INT32_MAX || c->nz > INT32_MAX)
        return "nx, ny and nz below 2^31";
    return NULL;
}

/* `steps` steps, ping-ponging so that the last lands in out: the first writes out (odd) or tmp (even). */
static int st_run(climb_case *c, int rung, cudaStream_t s)
{
    const float *src = c->d_in;
    float *dst = (c->steps % 2) ? c->d_out : c->d_tmp;
    for (int k = 0; k < c->steps; k++) {
        CLIMB_CHECK(ST_RUNGS[rung].step(c, src, dst, s));
        src = dst;
        dst = dst == c->d_out ? c->d_tmp : c->d_out;
    }
    return 0;
}

/* The last step's grid (downloaded by the harness) against the reference; the copy bound's against the input. */
static int st_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    const int bound = ST_RUNGS[rung].info.kind == CLIMB_RUNG_BOUND;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    for (size_t z = 0, i = 0; z < c->nz; z++)
        for (size_t y = 0; y < c->ny; y++)
            for (size_t x = 0; x < c->nx; x++, i++)
                climb_compare_close(&k, c->h_out[i], bound ? c->h_in[i] : c->ref[i], bound ? 0 : c->tol,
                                    "out[%zu][%zu][%zu]", z, y, x);
    return climb_compare_end(&k);
}

static void st_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    const double n = (double)c->n, steps = c->steps;
    out->bytes_read = 4 * n * steps;
    out->bytes_written = 4 * n * steps;
    const double inner = (c->nx > 2 && c->ny > 2 && c->nz > 2) ? (double)(c->nx - 2) * (c->ny - 2) * (c->nz - 2) : 0;
    out->flops = 13 * inner * steps;
}

static void st_set_tuning(climb_case *c, const int *values) { climb_stencil_set_tuning(&c->tn, values); }

/* climb's grids: 512^3, 256^3 and an odd 130 x 250 x 333. */
/* The cubes, and the shapes a user's program found slow: x not a multiple of the vector width (130, 510), odd y and z,
 * a thin z (100 planes). */
static const climb_shape ST_BENCH_SHAPES[] = {CLIMB_SHAPE3(512, 512, 512), CLIMB_SHAPE3(256, 256, 256),
                                              CLIMB_SHAPE3(130, 250, 333), CLIMB_SHAPE3(510, 511, 257),
                                              CLIMB_SHAPE3(1024, 1024, 100)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape ST_MAIN_SHAPES[] = {CLIMB_SHAPE3(256, 256, 256)};
/* Empty, a point, a line, a plane, smaller than every tile, tiles' edges and one past them, the odd grid. */
static const climb_shape ST_CHECK_SHAPES[] = {
    CLIMB_SHAPE3(0, 0, 0),    CLIMB_SHAPE3(0, 4, 4),   CLIMB_SHAPE3(4, 4, 0),     CLIMB_SHAPE3(1, 1, 1),
    CLIMB_SHAPE3(2, 2, 2),    CLIMB_SHAPE3(3, 3, 3),   CLIMB_SHAPE3(100, 1, 1),   CLIMB_SHAPE3(1, 1, 100),
    CLIMB_SHAPE3(5, 7, 1),    CLIMB_SHAPE3(7, 9, 11),  CLIMB_SHAPE3(33, 17, 65),  CLIMB_SHAPE3(31, 30, 29),
    CLIMB_SHAPE3(64, 8, 34),  CLIMB_SHAPE3(130, 25, 33), CLIMB_SHAPE3(66, 5, 9),   CLIMB_SHAPE3(254, 3, 5)};
/* (66 and 254: rows of two-point alignment that the best marches four scalar points a thread) */
static const climb_shape ST_QUICK_SHAPES[] = {CLIMB_SHAPE3(3, 3, 3), CLIMB_SHAPE3(33, 17, 65)};

static const climb_sweep ST_SWEEPS[] = {
    {.name = "steps", .title = "7-point stencil f32: GB/s against the time steps a run takes (256^3)",
     .args = "--size 256x256x256 --set steps=1,2,4,8,16", .x = "steps", .log_x = 1},
};

/* The host memory a case needs at the least (the grid and its next step), for the harness's check before anything is allocated. */
static double stencil_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return 8.0 * (double)s->d[0] * (double)s->d[1] * (double)s->d[2];
}

extern "C" const climb_workload climb_stencil_workload = {
    .name = "stencil",
    .title = "7-point 3-D stencil, fixed boundary, time steps (f32)",
    .sources = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors, stencil (naive, shared "
                "tiles, thread coarsening, register tiling)",
    .dims = {"nx", "ny", "nz"},
    .shape_format = "{nx}x{ny}x{nz}",
    .types = CLIMB_TYPE_BIT(CLIMB_F32),
    .options = ST_OPTIONS,
    .n_options = CLIMB_COUNT(ST_OPTIONS),
    .bytes_counted = "per step: read the grid once, write it once (nx ny nz floats each)",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = ST_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(ST_BENCH_SHAPES),
    .check_shapes = ST_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(ST_CHECK_SHAPES),
    .quick_shapes = ST_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(ST_QUICK_SHAPES),
    .main_shapes = ST_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(ST_MAIN_SHAPES),
    .check_max_offset = 3,
    .n_rungs = CLIMB_COUNT(ST_RUNGS),
    .rung = stencil_rung_info,
    .sweeps = ST_SWEEPS,
    .n_sweeps = CLIMB_COUNT(ST_SWEEPS),
    .case_size = sizeof(climb_case),
    .buffers = ST_BUFFERS,
    .n_buffers = CLIMB_COUNT(ST_BUFFERS),
    .init = st_init,
    .fill = st_fill,
    .fini = st_fini,
    .describe = st_describe,
    .reference = st_reference,
    .case_bytes = stencil_case_bytes,
    .refuses = st_refuses,
    .setup = NULL,
    .run = st_run,
    .empty = st_empty,
    .verify = st_verify,
    .counts = st_counts,
    .rung_counts = NULL,
    .release = NULL,
    .save = NULL,
    .tuning = &ST_TUNING,
    .set_tuning = st_set_tuning,
};
