/*
 * dcs.cu - direct Coulomb summation: the electrostatic potential of N atoms on a 3-D lattice, f32, the ladder of
 * the Coulomb chapter of Hwu, Kirk and El Hajj, "Programming Massively Parallel Processors" (PMPP).
 *
 *   V(i, j, k) = sum over atoms a of q_a / |p(i, j, k) - a|,   p(i, j, k) = origin + h (i, j, k)
 *
 * in e/Å (no Coulomb constant, as the book). An atom nearer to a point than the exclusion distance (1 Å by default,
 * Parboil's) adds nothing there: an atom on a lattice point would add infinity.
 *
 * The ladder: scatter (a thread per atom and slice, atomicAdd into every point of the slice); gather (a thread per
 * point, the atoms from global memory); the atoms in constant memory, in chunks of 4000 (a launch each); thread
 * coarsening along x (4 points a thread, dy^2 + dz^2 computed once per atom for all of them); coalesced coarsening
 * (a thread's points a block's width apart, so each store is coalesced); the lattice padded to whole blocks (no
 * bounds checks in the loop); and the best rung, the coalesced coarsening with the atoms staged through shared
 * memory (no constant symbol, so calls on several streams cannot race on it, and one launch for all atoms), more
 * points a thread, tuned.
 *
 * Counted per case: N x points atom-evaluations (the items), one rsqrt each (MUFU, the special-function ceiling),
 * and 5 flops each (the x difference, the squared distance, the charge times 1/r added). See docs/dcs.md.
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
#include "../device/device_primitives.cuh"
#include "../io/molecule.h"
#include "../io/text.h"
#include "dcs.h"
#include "common/lattice.h"
#include "../base/checked.h"

/* ---------------------------------------------------------------- CPU reference */

extern "C" double climb_dcs_ref_at(const climb_dcs_lattice *l, const float *xyzq, size_t n, size_t i, size_t j,
                                   size_t k, double *tol)
{
    const double px = l->origin[0] + (double)l->h * i, py = l->origin[1] + (double)l->h * j;
    const double pz = l->origin[2] + (double)l->h * k, e2 = (double)l->exclusion * l->exclusion;
    const double coord = 4 * 0x1p-24 * (fabs(px) + fabs(py) + fabs(pz) + 1e-30);
    double sum = 0, mag = 0, mag2 = 0, slack = 0;
    for (size_t a = 0; a < n; a++) {
        const double dx = px - xyzq[4 * a], dy = py - xyzq[4 * a + 1], dz = pz - xyzq[4 * a + 2];
        const double r2 = dx * dx + dy * dy + dz * dz;
        const double q = xyzq[4 * a + 3];
        if (fabs(r2 - e2) <= 1e-5 * e2 && r2 > 0) {
            slack += fabs(q) / sqrt(r2); /* counted or not by a float computation */
            continue;
        }
        if (r2 < e2 || r2 == 0)
            continue;
        const double t = q / sqrt(r2);
        sum += t;
        mag += fabs(t);
        mag2 += fabs(t) / sqrt(r2);
    }
    if (tol)
        *tol = 1.01 * ((double)n + 8) * 0x1p-24 * mag + coord * mag2 + slack;
    return sum;
}

/* ---------------------------------------------------------------- kernels */

typedef struct dcs_grid {
    int nx, ny, nz;
    float h, ox, oy, oz, e2;     /* spacing, origin, exclusion distance squared */
} dcs_grid;

/* q / r, or 0 inside the exclusion distance: the one evaluation every rung does (one MUFU.RSQ; r2 is at least the
 * exclusion distance squared, 10^-6 or more, where the result is used: never subnormal). */
__device__ __forceinline__ float dcs_term(float r2, float q, float e2)
{
    const float rinv = climb_rsqrt_ftz(r2);
    return r2 >= e2 ? q * rinv : 0.0f;
}

/* scatter: a thread per (atom, slice) adds the atom's term to every point of slice z with atomicAdd: N nz threads,
 * nx ny atomics each. The output is zeroed first. */
__global__ void __launch_bounds__(256) dcs_scatter_kernel(const float4 *atoms, int n, float *out, dcs_grid g)
{
    const int a = blockIdx.x * 256 + threadIdx.x, k = blockIdx.y;
    if (a >= n)
        return;
    const float4 at = atoms[a];
    const float dz = g.oz + g.h * k - at.z;
    for (int j = 0; j < g.ny; j++) {
        const float dy = g.oy + g.h * j - at.y, dyz = dy * dy + dz * dz;
        for (int i = 0; i < g.nx; i++) {
            const float dx = g.ox + g.h * i - at.x;
            atomicAdd(out + ((size_t)k * g.ny + j) * g.nx + i, dcs_term(dx * dx + dyz, at.w, g.e2));
        }
    }
}

/* gather: a thread per point sums over every atom, read from global memory (every thread of a warp reads the same
 * atom: one broadcast load). Loop fission and interchange turn the scatter inside out: no atomics. */
__global__ void __launch_bounds__(256) dcs_gather_kernel(const float4 *atoms, int n, float *out, dcs_grid g)
{
    const int i = blockIdx.x * 256 + threadIdx.x, j = blockIdx.y, k = blockIdx.z;
    if (i >= g.nx)
        return;
    const float px = g.ox + g.h * i, py = g.oy + g.h * j, pz = g.oz + g.h * k;
    float acc = 0.0f;
    for (int a = 0; a < n; a++) {
        const float4 at = atoms[a];
        const float dx = px - at.x, dy = py - at.y, dz = pz - at.z;
        acc += dcs_term(dx * dx + dy * dy + dz * dz, at.w, g.e2);
    }
    out[((size_t)k * g.ny + j) * g.nx + i] = acc;
}

/* The book's constant-memory atoms: 4000 at a time (64 KB holds 4096 float4), one launch a chunk, each adding its
 * sums to the output (the first chunk writes). */
#define DCS_CHUNK 4000
__constant__ float4 dcs_const_atoms[DCS_CHUNK];

__global__ void __launch_bounds__(256) dcs_const_kernel(int n, float *out, dcs_grid g, int first)
{
    const int i = blockIdx.x * 256 + threadIdx.x, j = blockIdx.y, k = blockIdx.z;
    if (i >= g.nx)
        return;
    const float px = g.ox + g.h * i, py = g.oy + g.h * j, pz = g.oz + g.h * k;
    float acc = 0.0f;
    for (int a = 0; a < n; a++) {
        const float4 at = dcs_const_atoms[a];
        const float dx = px - at.x, dy = py - at.y, dz = pz - at.z;
        acc += dcs_term(dx * dx + dy * dy + dz * dz, at.w, g.e2);
    }
    float *o = out + ((size_t)k * g.ny + j) * g.nx + i;
    *o = first ? acc : *o + acc;
}

/* Thread coarsening along x: a thread computes DCS_COARSE consecutive points of a row; per atom, dy^2 + dz^2 once
 * for all of them. Adjacent threads' stores are DCS_COARSE floats apart (uncoalesced). */
#define DCS_COARSE 4
__global__ void __launch_bounds__(256) dcs_coarse_kernel(int n, float *out, dcs_grid g, int first)
{
    const int i0 = (blockIdx.x * 256 + threadIdx.x) * DCS_COARSE, j = blockIdx.y, k = blockIdx.z;
    if (i0 >= g.nx)
        return;
    const float py = g.oy + g.h * j, pz = g.oz + g.h * k;
    float acc[DCS_COARSE] = {0};
    for (int a = 0; a < n; a++) {
        const float4 at = dcs_const_atoms[a];
        const float dy = py - at.y, dz = pz - at.z, dyz = dy * dy + dz * dz;
#pragma unroll
        for (int p = 0; p < DCS_COARSE; p++) {
            const float dx = g.ox + g.h * (i0 + p) - at.x;
            acc[p] += dcs_term(dx * dx + dyz, at.w, g.e2);
        }
    }
    float *o = out + ((size_t)k * g.ny + j) * g.nx;
#pragma unroll
    for (int p = 0; p < DCS_COARSE; p++)
        if (i0 + p < g.nx)
            o[i0 + p] = first ? acc[p] : o[i0 + p] + acc[p];
}

/* Coalesced coarsening: a warp's 32 threads cover 32 consecutive points of a row, and a thread's DCS_COARSE points
 * are a warp's width apart (x0 + lane + 32 p), so each of the warp's stores is 32 consecutive floats; a block is 8
 * such rows. PADDED: the rows are a whole number of spans (the lattice padded in x), so no point needs a check on
 * x. */
#define DCS_ROWS 8
template <bool PADDED>
__global__ void __launch_bounds__(32 * DCS_ROWS) dcs_coalesced_kernel(int n, float *out, int ld, dcs_grid g, int first)
{
    const int i0 = blockIdx.x * 32 * DCS_COARSE + threadIdx.x, j = blockIdx.y * DCS_ROWS + threadIdx.y, k = blockIdx.z;
    if (j >= g.ny)
        return;
    const float py = g.oy + g.h * j, pz = g.oz + g.h * k;
    float acc[DCS_COARSE] = {0};
    for (int a = 0; a < n; a++) {
        const float4 at = dcs_const_atoms[a];
        const float dy = py - at.y, dz = pz - at.z, dyz = dy * dy + dz * dz;
#pragma unroll
        for (int p = 0; p < DCS_COARSE; p++) {
            const float dx = g.ox + g.h * (i0 + p * 32) - at.x;
            acc[p] += dcs_term(dx * dx + dyz, at.w, g.e2);
        }
    }
    float *o = out + ((size_t)k * g.ny + j) * ld;
#pragma unroll
    for (int p = 0; p < DCS_COARSE; p++) {
        const int i = i0 + p * 32;
        if (PADDED || i < g.nx)
            o[i] = first ? acc[p] : o[i] + acc[p];
    }
}

/* The best rung: coalesced coarsening (P points a thread, 32 apart; BY rows a block) with the atoms staged through
 * shared memory a tile of 32 BY at a time: one launch for every atom, no constant symbol (calls on several streams
 * cannot race on it), each atom a broadcast float4 read shared by the thread's P points, their x coordinates computed
 * once. */
template <int P, int BY>
__global__ void __launch_bounds__(32 * BY) dcs_best_kernel(const float4 *__restrict__ atoms, int n, int per, float *out,
                                                           dcs_grid g)
{
    constexpr int T = 32 * BY;
    __shared__ float4 tile[T];
    const int t = threadIdx.y * 32 + threadIdx.x;
    /* grid z: the slices' z planes, then (where the lattice is too small to fill the GPU) slices of `per` atoms */
    const int k = blockIdx.z % g.nz, slice = blockIdx.z / g.nz, split = gridDim.z > (unsigned)g.nz;
    const int i0 = blockIdx.x * 32 * P + threadIdx.x, j = blockIdx.y * BY + threadIdx.y;
    const float py = g.oy + g.h * j, pz = g.oz + g.h * k;
    float px[P], acc[P];
#pragma unroll
    for (int p = 0; p < P; p++) {
        px[p] = g.ox + g.h * (i0 + p * 32);
        acc[p] = 0.0f;
    }
    climb_block_tiles<T>(atoms, slice * per, min(n, (slice + 1) * per), tile, t, [&](const float4 at) {
        const float dy = py - at.y, dz = pz - at.z, dyz = dy * dy + dz * dz;
#pragma unroll
        for (int p = 0; p < P; p++) {
            const float dx = px[p] - at.x;
            acc[p] += dcs_term(fmaf(dx, dx, dyz), at.w, g.e2);
        }
    });
    if (j >= g.ny)
        return;
    float *o = out + ((size_t)k * g.ny + j) * g.nx;
#pragma unroll
    for (int p = 0; p < P; p++)
        if (i0 + p * 32 < g.nx) {
            if (split)
                atomicAdd(o + i0 + p * 32, acc[p]);
            else
                o[i0 + p * 32] = acc[p];
        }
}

/* The best rung's kernel, spread over whole rows: a thread's P points are a row's P-th part apart (x = i0 + span p,
 * span = cdiv(nx, P)), and the threads run over every row of the lattice in turn (thread g: row g / span, i0 = g %
 * span), so a row computes span P points, at most P - 1 past its end, however wide it is, and only the lattice's
 * last block has idle threads. A thread's points still share its row's dy^2 + dz^2 an atom; the stores of a warp's
 * consecutive i0 are consecutive floats. Each term is one FFMA after a select (q times 1/r, or times 0 inside the
 * exclusion distance): six instructions an evaluation with the MUFU, against seven for acc += q r^-1 selected. */
template <int P, int BY>
__global__ void __launch_bounds__(32 * BY) dcs_spread_kernel(const float4 *__restrict__ atoms, int n, int per,
                                                             float *out, dcs_grid g, int span, long long threads)
{
    constexpr int T = 32 * BY;
    __shared__ float4 tile[T];
    const int t = threadIdx.x;
    const long long gi = (long long)blockIdx.x * T + t;
    const bool live = gi < threads;
    const long long row = live ? gi / span : 0;
    const int i0 = (int)(gi - row * span), j = (int)(row % g.ny), k = (int)(row / g.ny);
    const int split = gridDim.y > 1u, slice = (int)blockIdx.y;
    const float py = g.oy + g.h * j, pz = g.oz + g.h * k;
    float px[P], acc[P];
#pragma unroll
    for (int p = 0; p < P; p++) {
        px[p] = g.ox + g.h * (float)((long long)i0 + (long long)span * p);
        acc[p] = 0.0f;
    }
    const long long lo = (long long)slice * per, hi = min((long long)n, lo + per);
    climb_block_tiles<T>(atoms, (int)lo, (int)hi, tile, t, [&](const float4 at) {
        const float dy = py - at.y, dz = pz - at.z, dyz = dy * dy + dz * dz;
#pragma unroll
        for (int p = 0; p < P; p++) {
            const float dx = px[p] - at.x, r2 = fmaf(dx, dx, dyz);
            const float rinv = climb_rsqrt_ftz(r2);
            acc[p] = fmaf(at.w, r2 >= g.e2 ? rinv : 0.0f, acc[p]);
        }
    });
    if (!live)
        return;
    float *o = out + ((size_t)k * g.ny + j) * g.nx;
#pragma unroll
    for (int p = 0; p < P; p++) {
        const long long x = (long long)i0 + (long long)span * p;
        if (x < g.nx) {
            if (split)
                atomicAdd(o + x, acc[p]);
            else
                o[x] = acc[p];
        }
    }
}

/* ---------------------------------------------------------------- launchers */

static const int DCS_POINTS[] = {2, 4, 8};
static const int DCS_BLOCK[] = {2, 4, 8};
/* X(points, block) for every pair of the two lists above: the kernels' instances. */
#define DCS_EACH_TUNING(X) X(2, 2) X(2, 4) X(2, 8) X(4, 2) X(4, 4) X(4, 8) X(8, 2) X(8, 4) X(8, 8)

extern "C" void climb_dcs_set_tuning(climb_dcs_tuning *t, const int *values)
{
    t->points = values[0];
    t->block = values[1];
}

static size_t cdiv(size_t n, size_t d) { return (n + d - 1) / d; }

static dcs_grid grid_of(const climb_dcs_lattice *l)
{
    dcs_grid g = {(int)l->nx, (int)l->ny, (int)l->nz, l->h, l->origin[0], l->origin[1], l->origin[2],
                  l->exclusion * l->exclusion};
    return g;
}

extern "C" cudaError_t climb_dcs_best(const climb_dcs_tuning *t, const climb_dcs_lattice *l, const float *d_atoms,
                                      size_t n, float *out, cudaStream_t s)
{
    if (l->nx == 0 || l->ny == 0 || l->nz == 0)
        return cudaSuccess;
    if (l->ny > 65535 || l->nz > 65535 || l->nx > INT32_MAX || n > INT32_MAX)
        return cudaErrorInvalidValue;
    const dcs_grid g = grid_of(l);
    const float4 *a = (const float4 *)d_atoms;
    if (t->points < 1 || t->block < 1)
        return cudaErrorInvalidValue;
    /* Slices of the atoms while the lattice's blocks hold fewer threads than the SMs (2048 each), at least a tile of
     * atoms a slice; the slices add into the zeroed lattice with atomics. */
    int sms = 1;
    cudaError_t e = climb_current_sms(&sms);
    if (e != cudaSuccess)
        return e;
    const size_t tile = (size_t)32 * t->block, bx = cdiv(l->nx, (size_t)32 * t->points), by = cdiv(l->ny, t->block);
    const size_t blocks = bx * by * l->nz, want = (size_t)sms * 2048 / tile, tiles = cdiv(n, tile);
    size_t slices = blocks < want ? cdiv(want, blocks) : 1;
    slices = slices > tiles ? tiles : slices;
    slices = slices < 1 ? 1 : slices > 65535 / l->nz ? 65535 / l->nz : slices;
    const int per = (int)(cdiv(tiles, slices ? slices : 1) * tile);
    slices = per > 0 ? cdiv(n, (size_t)per) : 1;
    slices = slices < 1 ? 1 : slices;
    if (slices > 1 && (e = cudaMemsetAsync(out, 0, l->nx * l->ny * l->nz * sizeof(float), s)) != cudaSuccess)
        return e;
    const dim3 grid((unsigned)bx, (unsigned)by, (unsigned)(l->nz * slices));
#define DCS_BEST(P_, B_)                                                                                     \
    if (t->points == P_ && t->block == B_) {                                                                 \
        dcs_best_kernel<P_, B_><<<grid, dim3(32, B_), 0, s>>>(a, (int)n, per > 0 ? per : 1, out, g);         \
        return cudaGetLastError();                                                                           \
    }
    DCS_EACH_TUNING(DCS_BEST)
#undef DCS_BEST
    return cudaErrorInvalidValue;
}

extern "C" size_t climb_dcs_slices(size_t blocks, size_t tiles, int sms, int block_threads)
{
    if (blocks == 0 || tiles <= 1 || sms < 1 || block_threads < 1)
        return 1;
    const size_t cap = tiles < 65535 ? tiles : 65535, want = (size_t)sms * 2048;
    size_t lo = blocks * (size_t)block_threads >= want ? 1 : cdiv(want, blocks * (size_t)block_threads);
    lo = lo > cap ? cap : lo;
    size_t best = lo;
    double best_cost = (double)cdiv(blocks * lo, (size_t)sms) * (double)cdiv(tiles, lo);
    for (size_t s = lo + 1; s <= 4 * lo && s <= cap; s++) {
        const double cost = (double)cdiv(blocks * s, (size_t)sms) * (double)cdiv(tiles, s);
        if (cost < 0.98 * best_cost) {
            best = s;
            best_cost = cost;
        }
    }
    return best;
}

extern "C" cudaError_t climb_dcs_spread(const climb_dcs_tuning *t, const climb_dcs_lattice *l, const float *d_atoms,
                                        size_t n, float *out, cudaStream_t s)
{
    if (l->nx == 0 || l->ny == 0 || l->nz == 0)
        return cudaSuccess;
    if (l->ny > 65535 || l->nz > 65535 || l->nx > INT32_MAX || n > INT32_MAX || t->points < 1 || t->block < 1)
        return cudaErrorInvalidValue;
    const size_t span = cdiv(l->nx, (size_t)t->points), bt = (size_t)32 * t->block;
    size_t threads;
    if (!climb_mul3_fits(span, l->ny, l->nz, &threads) || cdiv(threads, bt) > INT32_MAX)
        return cudaErrorInvalidValue;
    int sms = 1;
    cudaError_t e = climb_current_sms(&sms);
    if (e != cudaSuccess)
        return e;
    const size_t blocks = cdiv(threads, bt), tiles = cdiv(n, bt);
    const size_t want = climb_dcs_slices(blocks, tiles, sms, (int)bt);
    const size_t per = (tiles ? cdiv(tiles, want) : 1) * bt, slices = n ? cdiv(n, per) : 1;
    if (slices > 1 && (e = cudaMemsetAsync(out, 0, l->nx * l->ny * l->nz * sizeof(float), s)) != cudaSuccess)
        return e;
    const dcs_grid g = grid_of(l);
    const float4 *a = (const float4 *)d_atoms;
    const dim3 grid((unsigned)blocks, (unsigned)slices);
#define DCS_SPREAD(P_, B_)                                                                                   \
    if (t->points == P_ && t->block == B_) {                                                                 \
        dcs_spread_kernel<P_, B_><<<grid, 32 * B_, 0, s>>>(a, (int)n, slices > 1 ? (int)per : (int)n, out, g,  \
                                                           (int)span, (long long)threads);                   \
        return cudaGetLastError();                                                                           \
    }
    DCS_EACH_TUNING(DCS_SPREAD)
#undef DCS_SPREAD
    return cudaErrorInvalidValue;
}

struct climb_case {
    climb_case_params p;
    climb_dcs_lattice l;
    size_t points, n;
    float *h_atoms, *d_atoms;    /* 4 n: x, y, z, q (16-byte aligned, whatever the offset: float4 loads) */
    float *h_out, *d_out;        /* the lattice, the offset's elements past its allocation */
    float *d_pad;                /* padded's lattice of whole blocks (its prepare) */
    size_t pad_ld;
    climb_ref_mode mode;
    double *ref, *tol;           /* CPU: every point; SAMPLES: the sampled points */
    size_t *samples, n_samples;
    climb_dcs_tuning tn;
};

static cudaError_t launch_scatter(climb_case *c, cudaStream_t s)
{
    cudaError_t e = cudaMemsetAsync(c->d_out, 0, c->points * sizeof(float), s);
    if (e != cudaSuccess || c->n == 0)
        return e;
    dcs_scatter_kernel<<<dim3((unsigned)cdiv(c->n, 256), (unsigned)c->l.nz), 256, 0, s>>>(
        (const float4 *)c->d_atoms, (int)c->n, c->d_out, grid_of(&c->l));
    return cudaGetLastError();
}

static cudaError_t launch_gather(climb_case *c, cudaStream_t s)
{
    dcs_gather_kernel<<<dim3((unsigned)cdiv(c->l.nx, 256), (unsigned)c->l.ny, (unsigned)c->l.nz), 256, 0, s>>>(
        (const float4 *)c->d_atoms, (int)c->n, c->d_out, grid_of(&c->l));
    return cudaGetLastError();
}

/* The constant-memory rungs: each chunk of atoms copied into the symbol on the stream, then a launch over the
 * lattice; no atoms: one launch of none, which writes zeros. */
static cudaError_t const_chunks(climb_case *c, cudaStream_t s, int kind)
{
    const dcs_grid g = grid_of(&c->l);
    for (size_t a0 = 0; a0 == 0 || a0 < c->n; a0 += DCS_CHUNK) {
        const size_t m = c->n - a0 < DCS_CHUNK ? c->n - a0 : DCS_CHUNK;
        cudaError_t e = m ? cudaMemcpyToSymbolAsync(dcs_const_atoms, c->d_atoms + 4 * a0, m * sizeof(float4), 0,
                                                    cudaMemcpyDeviceToDevice, s)
                          : cudaSuccess;
        if (e != cudaSuccess)
            return e;
        const int first = a0 == 0;
        if (kind == 0)
            dcs_const_kernel<<<dim3((unsigned)cdiv(c->l.nx, 256), (unsigned)c->l.ny, (unsigned)c->l.nz), 256, 0, s>>>(
                (int)m, c->d_out, g, first);
        else if (kind == 1)
            dcs_coarse_kernel<<<dim3((unsigned)cdiv(c->l.nx, 256 * DCS_COARSE), (unsigned)c->l.ny, (unsigned)c->l.nz),
                                256, 0, s>>>((int)m, c->d_out, g, first);
        else if (kind == 2)
            dcs_coalesced_kernel<false><<<dim3((unsigned)cdiv(c->l.nx, 32 * DCS_COARSE),
                                               (unsigned)cdiv(c->l.ny, DCS_ROWS), (unsigned)c->l.nz),
                                          dim3(32, DCS_ROWS), 0, s>>>((int)m, c->d_out, (int)c->l.nx, g, first);
        else
            dcs_coalesced_kernel<true><<<dim3((unsigned)(c->pad_ld / (32 * DCS_COARSE)),
                                              (unsigned)cdiv(c->l.ny, DCS_ROWS), (unsigned)c->l.nz),
                                         dim3(32, DCS_ROWS), 0, s>>>((int)m, c->d_pad, (int)c->pad_ld, g, first);
        if ((e = cudaGetLastError()) != cudaSuccess)
            return e;
        if (c->n == 0)
            break;
    }
    if (kind == 3) /* the padded lattice's points, back into the output */
        return cudaMemcpy2DAsync(c->d_out, c->l.nx * sizeof(float), c->d_pad, c->pad_ld * sizeof(float),
                                 c->l.nx * sizeof(float), c->l.ny * c->l.nz, cudaMemcpyDeviceToDevice, s);
    return cudaSuccess;
}

static cudaError_t launch_const(climb_case *c, cudaStream_t s) { return const_chunks(c, s, 0); }
static cudaError_t launch_coarse(climb_case *c, cudaStream_t s) { return const_chunks(c, s, 1); }
static cudaError_t launch_coalesced(climb_case *c, cudaStream_t s) { return const_chunks(c, s, 2); }
static cudaError_t launch_padded(climb_case *c, cudaStream_t s) { return const_chunks(c, s, 3); }

static cudaError_t launch_best(climb_case *c, cudaStream_t s)
{
    return climb_dcs_best(&c->tn, &c->l, c->d_atoms, c->n, c->d_out, s);
}

static double dcs_row_cost(size_t nx, int p) { return (double)(cdiv(nx, (size_t)32 * p) * 32 * p) * (7.0 + 4.0 / p); }

extern "C" int climb_dcs_fit_points(size_t nx, int tuned)
{
    if (tuned < 1)
        return tuned;
    int best = tuned; /* it keeps a tie; fewer points a thread only: more is the tuner's call, measured on whole rows */
    for (int i = 0; i < CLIMB_COUNT(DCS_POINTS); i++)
        if (DCS_POINTS[i] < tuned && dcs_row_cost(nx, DCS_POINTS[i]) < dcs_row_cost(nx, best))
            best = DCS_POINTS[i];
    return best;
}

/* The best rung with the points a thread fitted to the lattice's width (its rows as tuned). */
static cudaError_t launch_fitted(climb_case *c, cudaStream_t s)
{
    climb_dcs_tuning t = c->tn;
    t.points = climb_dcs_fit_points(c->l.nx, t.points);
    return climb_dcs_best(&t, &c->l, c->d_atoms, c->n, c->d_out, s);
}

static cudaError_t launch_spread(climb_case *c, cudaStream_t s)
{
    return climb_dcs_spread(&c->tn, &c->l, c->d_atoms, c->n, c->d_out, s);
}

/* ---------------------------------------------------------------- the registry */

static int k_scatter(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)dcs_scatter_kernel, "dcs_scatter_kernel", 256, 0);
}
static int k_gather(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)dcs_gather_kernel, "dcs_gather_kernel", 256, 0);
}
static int k_const(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)dcs_const_kernel, "dcs_const_kernel", 256, 0);
}
static int k_coarse(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)dcs_coarse_kernel, "dcs_coarse_kernel", 256, 0);
}
static int k_coalesced(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)dcs_coalesced_kernel<false>, "dcs_coalesced_kernel<false>",
                            32 * DCS_ROWS, 0);
}
static int k_padded(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)dcs_coalesced_kernel<true>, "dcs_coalesced_kernel<true>",
                            32 * DCS_ROWS, 0);
}
static const char *dcs_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *values);

/* The kernel at the tuning's points and rows (fitted_points: at the tuned points; its own depend on the lattice), the
 * built-in defaults where none is given: the shared tiles' kernel, or (spread) spread_rows's. */
static int dcs_kernels(const climb_device_info *dev, const int *tuning, climb_kernel_desc *o, int max, bool spread)
{
    int v[CLIMB_MAX_TUNABLES] = {0};
    if (tuning && tuning[0] && tuning[1])
        memcpy(v, tuning, 2 * sizeof *v);
    else
        dcs_defaults(dev, NULL, v);
    climb_dcs_tuning t;
    climb_dcs_set_tuning(&t, v);
#define DCS_K(P_, B_)                                                                                        \
    if (t.points == P_ && t.block == B_)                                                                     \
        return spread ? climb_kernel_at(o, max, 0, (const void *)dcs_spread_kernel<P_, B_>, 32 * B_, 0,       \
                                        "dcs_spread_kernel<%d, %d>", P_, B_)                                 \
                      : climb_kernel_at(o, max, 0, (const void *)dcs_best_kernel<P_, B_>, 32 * B_, 0,         \
                                        "dcs_best_kernel<%d, %d>", P_, B_);
    DCS_EACH_TUNING(DCS_K)
#undef DCS_K
    return 0;
}
static int k_best(climb_dtype, const climb_device_info *dev, const int *tuning, climb_kernel_desc *o, int max)
{
    return dcs_kernels(dev, tuning, o, max, false);
}
static int k_spread(climb_dtype, const climb_device_info *dev, const int *tuning, climb_kernel_desc *o, int max)
{
    return dcs_kernels(dev, tuning, o, max, true);
}

/* The rows' own rules: the scatter rung's grid is atoms x slices (z on the grid's y); the others put y and z on the
 * grid's y and z. */
static const char *refuses_z(const climb_case *c)
{
    return c->l.nz > 65535 ? "nz below 65536 (the grid's y)" : NULL;
}
static const char *refuses_yz(const climb_case *c)
{
    return c->l.ny > 65535 || c->l.nz > 65535 ? "ny and nz below 65536 (the grid's y and z)" : NULL;
}

static const climb_rung_info DCS_RUNGS[] = {
    {.name = "scatter", .idea = "PMPP's first kernel: a thread per atom and slice, atomicAdd into every point of the "
                                "slice",
     .needs = "nz below 65536", .kind = CLIMB_RUNG_LADDER, .kernels = k_scatter, .launch = launch_scatter,
     .refuses = refuses_z},
    {.name = "gather", .idea = "loop fission and interchange: a thread per point sums every atom, no atomics",
     .needs = "ny and nz below 65536", .kind = CLIMB_RUNG_LADDER, .kernels = k_gather, .launch = launch_gather,
     .refuses = refuses_yz},
    {.name = "const_atoms", .idea = "the atoms in constant memory, 4000 a launch: one broadcast read an atom",
     .needs = "ny and nz below 65536", .kind = CLIMB_RUNG_LADDER, .kernels = k_const, .launch = launch_const,
     .refuses = refuses_yz},
    {.name = "coarsened", .idea = "4 consecutive points a thread: dy^2 + dz^2 once an atom for all of them",
     .needs = "ny and nz below 65536", .kind = CLIMB_RUNG_LADDER, .kernels = k_coarse, .launch = launch_coarse,
     .refuses = refuses_yz},
    {.name = "coalesced", .idea = "a thread's 4 points a warp's width apart: coalesced stores",
     .needs = "ny and nz below 65536", .kind = CLIMB_RUNG_LADDER, .kernels = k_coalesced, .launch = launch_coalesced,
     .refuses = refuses_yz},
    {.name = "padded", .idea = "the lattice padded to whole blocks: no bounds check on a point",
     .needs = "ny and nz below 65536", .kind = CLIMB_RUNG_LADDER, .kernels = k_padded, .launch = launch_padded,
     .refuses = refuses_yz},
    {.name = "shared_tiles", .idea = "atoms staged through shared memory (one launch, no constant symbol), coalesced "
                                     "coarsening, tuned points and rows; the atoms split in slices where the lattice "
                                     "cannot fill the GPU",
     .needs = "ny and nz below 65536", .kind = CLIMB_RUNG_LADDER, .kernels = k_best, .launch = launch_best,
     .refuses = refuses_yz},
    {.name = "fitted_points", .idea = "the same, with the points a thread chosen for the lattice's width: fewer "
                                      "points computed past a row's end (a row of 165 points: 192 at 2 a thread, "
                                      "256 at 4) at an instruction more an evaluation",
     .needs = "ny and nz below 65536", .kind = CLIMB_RUNG_LADDER, .kernels = k_best, .launch = launch_fitted,
     .refuses = refuses_yz},
    {.name = "spread_rows", .idea = "a thread's points a row's P-th part apart and the threads laid over every row in "
                                    "turn: at most P - 1 points a row past its end at any width, no idle rows; the "
                                    "atoms sliced so the blocks even out over the SMs; each term one FFMA after a "
                                    "select",
     .needs = "ny and nz below 65536", .kind = CLIMB_RUNG_BEST, .kernels = k_spread, .launch = launch_spread,
     .refuses = refuses_yz},
};

static const climb_rung_info *dcs_rung_info(int i) { return &DCS_RUNGS[i]; }

/* ---------------------------------------------------------------- options and tuning */

enum { OPT_SPACING, OPT_EXCLUSION, OPT_ATOMS, OPT_INPUT };
static const char *const DCS_ATOMS[] = {"random", "water", "on_points", NULL};
static constexpr climb_option DCS_OPTIONS[] = {
    {.name = "spacing", .kind = CLIMB_OPT_FLOAT, .meaning = "the lattice spacing h, in Å", .def = "0.5", .min = 0.01,
     .max = 100},
    {.name = "exclusion", .kind = CLIMB_OPT_FLOAT,
     .meaning = "atoms nearer to a point than this (Å) add nothing there (Parboil's 1 Å; at least 0.001: an atom on a "
                "point)",
     .def = "1", .min = 0.001, .max = 100},
    {.name = "atoms", .kind = CLIMB_OPT_CHOICE,
     .meaning = "generated atoms: random in the lattice's box and 20% beyond it, charges in [-1, 1); a water box "
                "(TIP3P-like molecules 3.1 Å apart); or random atoms moved onto lattice points",
     .def = "random", .choices = DCS_ATOMS, .generator = 1},
    {.name = "input", .kind = CLIMB_OPT_FILE,
     .meaning = "a PQR molecule; the lattice (0.5 Å, 4 Å beyond its atoms) and the atom count come from it", .def = ""},
};
CLIMB_OPTION_AT(DCS_OPTIONS, OPT_SPACING, "spacing");
CLIMB_OPTION_AT(DCS_OPTIONS, OPT_EXCLUSION, "exclusion");
CLIMB_OPTION_AT(DCS_OPTIONS, OPT_ATOMS, "atoms");
CLIMB_OPTION_AT(DCS_OPTIONS, OPT_INPUT, "input");

static const climb_tunable DCS_TUNABLES[] = {
    {.name = "points", .meaning = "lattice points a thread computes, a warp's width apart", .values = DCS_POINTS,
     .n_values = CLIMB_COUNT(DCS_POINTS)},
    {.name = "block", .meaning = "rows of 32 threads a block (atoms a shared tile: 32 x rows)", .values = DCS_BLOCK,
     .n_values = CLIMB_COUNT(DCS_BLOCK)},
};

static const char *dcs_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *values)
{
    (void)dev;
    (void)k;
    values[0] = 2;
    values[1] = 4;
    return "built-in: 2 points a thread (32 apart), 4 rows of 32 threads a block (climb tune's pick on an H100)";
}

static const climb_tuning DCS_TUNING = {.params = DCS_TUNABLES, .n_params = CLIMB_COUNT(DCS_TUNABLES),
                                        .candidates = NULL, .n_candidates = 0, .defaults = dcs_defaults,
                                        .rejects = NULL};

/* ---------------------------------------------------------------- harness glue */

/* A file's lattice: its atoms' box and 4 Å beyond, at 0.5 Å. */
#define DCS_FILE_SPACING 0.5
#define DCS_FILE_MARGIN 4.0

static int dcs_load(const char *path, void **data, climb_shape *shape, char *desc, size_t desclen, char *err,
                    size_t errlen)
{
    climb_atoms *a = climb_pqr_load(path, err, errlen);
    if (!a)
        return -1;
    size_t n[3];
    for (int d = 0; d < 3; d++)
        n[d] = (size_t)ceil((a->hi[d] - a->lo[d] + 2 * DCS_FILE_MARGIN) / DCS_FILE_SPACING) + 1;
    *data = a;
    *shape = (climb_shape)CLIMB_SHAPE4(n[0], n[1], n[2], a->n);
    snprintf(desc, desclen, "%s: %zu atoms, box %.1f x %.1f x %.1f Å", climb_base_name(path), a->n, a->hi[0] - a->lo[0],
             a->hi[1] - a->lo[1], a->hi[2] - a->lo[2]);
    return 0;
}

static void dcs_fini(climb_case *c)
{
    cudaFree(c->d_pad);
    free(c->ref);
    free(c->tol);
    free(c->samples);
}

/* Generated atoms (see the `atoms` option): the lattice's box from its origin. */
static void make_atoms(climb_case *c, int kind, climb_rng *r)
{
    const climb_dcs_lattice *l = &c->l;
    const double lo[3] = {l->origin[0], l->origin[1], l->origin[2]};
    const double ext[3] = {l->h * (double)(l->nx ? l->nx - 1 : 0), l->h * (double)(l->ny ? l->ny - 1 : 0),
                           l->h * (double)(l->nz ? l->nz - 1 : 0)};
    climb_atoms_generate(kind, c->n, lo, ext, l->h, r, c->h_atoms);
}

static int dcs_init(climb_case *c)
{
    const climb_case_params *p = &c->p;
    const climb_atoms *file = (const climb_atoms *)p->opts[OPT_INPUT].data;
    size_t n[3];
    if (climb_lattice_sizes(p, file, "dcs", n, &c->n, &c->points) != 0)
        return -1;
    c->l.nx = n[0];
    c->l.ny = n[1];
    c->l.nz = n[2];
    c->l.h = (float)p->opts[OPT_SPACING].f;
    c->l.exclusion = (float)p->opts[OPT_EXCLUSION].f;
    /* a file's lattice is centred on its atoms; generated atoms fill the lattice's box from the origin 0 */
    for (int d = 0; d < 3; d++) {
        const size_t nd = d == 0 ? c->l.nx : d == 1 ? c->l.ny : c->l.nz;
        c->l.origin[d] = file ? (float)((file->lo[d] + file->hi[d]) / 2 - c->l.h * (double)(nd ? nd - 1 : 0) / 2) : 0.0f;
    }
    return 0;
}

static int dcs_fill(climb_case *c)
{
    const climb_atoms *file = (const climb_atoms *)c->p.opts[OPT_INPUT].data;
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    if (file)
        memcpy(c->h_atoms, file->xyzq, c->n * 4 * sizeof(float));
    else
        make_atoms(c, c->p.opts[OPT_ATOMS].choice, &rng);
    return 0;
}

/* At least one element each, so that a kernel's pointer is never NULL. */
static size_t atom_bytes(const climb_case *c) { return (c->n ? c->n : 1) * 4 * sizeof(float); }
static size_t lattice_bytes(const climb_case *c) { return (c->points ? c->points : 1) * sizeof(float); }

static const climb_buffer DCS_BUFFERS[] = {
    {.name = "atoms", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT, .bytes = atom_bytes,
     .host_at = offsetof(climb_case, h_atoms), .device_at = offsetof(climb_case, d_atoms)},
    {.name = "lattice", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET,
     .bytes = lattice_bytes, .host_at = offsetof(climb_case, h_out), .device_at = offsetof(climb_case, d_out),
     .poison = 0xFF},
};

static int dcs_empty(const climb_case *c) { return c->points == 0; }

static const char *dcs_describe(const climb_case *c)
{
    static char buf[200];
    snprintf(buf, sizeof buf, "%zu atoms on a %zu x %zu x %zu lattice of %g Å from (%.2f, %.2f, %.2f), exclusion %g Å",
             c->n, c->l.nx, c->l.ny, c->l.nz, c->l.h, c->l.origin[0], c->l.origin[1], c->l.origin[2], c->l.exclusion);
    return buf;
}

#define DCS_SAMPLES 4096

static void point_of(const climb_case *c, size_t idx, size_t *i, size_t *j, size_t *k)
{
    climb_grid_point(idx, c->l.nx, c->l.ny, i, j, k);
}

static int dcs_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    c->mode = mode;
    if (climb_ref_points(mode, c->p.seed ^ 0xdc5ULL, c->points, DCS_SAMPLES, &c->samples, &c->n_samples) != 0)
        return -1;
    c->ref = (double *)malloc((c->n_samples ? c->n_samples : 1) * sizeof(double));
    c->tol = (double *)malloc((c->n_samples ? c->n_samples : 1) * sizeof(double));
    if (!c->ref || !c->tol)
        return climb_host_oom("the dcs reference");
    for (size_t s = 0; s < c->n_samples; s++) {
        size_t i, j, k;
        point_of(c, c->samples ? c->samples[s] : s, &i, &j, &k);
        c->ref[s] = climb_dcs_ref_at(&c->l, c->h_atoms, c->n, i, j, k, &c->tol[s]);
    }
    if (c->samples)
        snprintf(desc, desclen, "CPU, %zu random points in double, each within 1.01 (N + 8) 2^-24 sum |q / r| and the "
                                "coordinates' rounding", c->n_samples);
    else
        snprintf(desc, desclen, "CPU, double; each point within 1.01 (N + 8) 2^-24 sum |q / r| and the coordinates' "
                                "rounding");
    return 0;
}

static double dcs_ref_cost(const climb_case *c) { return (double)c->points * (double)c->n; }

static int dcs_prepare(climb_case *c, int rung)
{
    if (DCS_RUNGS[rung].launch == launch_padded && !c->d_pad) {
        c->pad_ld = cdiv(c->l.nx ? c->l.nx : 1, 32 * DCS_COARSE) * 32 * DCS_COARSE;
        const size_t rows = c->l.ny * c->l.nz;
        CLIMB_CHECK(cudaMalloc((void **)&c->d_pad, c->pad_ld * (rows > 0 ? rows : 1) * sizeof(float)));
    }
    return 0;
}

static int dcs_setup(const climb_case *c, int rung, climb_setup *out)
{
    if (DCS_RUNGS[rung].launch != launch_padded)
        return 0;
    out->bytes = (double)c->pad_ld * c->l.ny * c->l.nz * sizeof(float);
    return 1;
}

static void dcs_release(climb_case *c, int rung)
{
    if (DCS_RUNGS[rung].launch == launch_padded) {
        cudaFree(c->d_pad);
        c->d_pad = NULL;
    }
}

/* The lattice (downloaded by the harness) at every point, or the samples, within each one's tolerance. */
static int dcs_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    return climb_lattice_verify(c->h_out, c->samples, c->points ? c->n_samples : 0, c->l.nx, c->l.ny,
                                [&](size_t s, float v, double *want) {
                                    *want = c->ref[s];
                                    return fabs(v - c->ref[s]) <= c->tol[s];
                                },
                                msg, msglen);
}

static void dcs_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    const double evals = (double)c->points * (double)c->n;
    out->items = evals;
    out->special_ops = evals;
    out->flops = 5 * evals;
    out->bytes_read = 16.0 * (double)c->n;
    out->bytes_written = 4.0 * (double)c->points;
}

/* The potential map as an OpenDX file (what VMD, PyMOL and APBS open). */
static int dcs_save(climb_case *c, int rung, const char *path, char *err, size_t errlen)
{
    char comment[300];
    snprintf(comment, sizeof comment, "climb dcs %s: Coulomb potential sum q / r (e/A), %zu atoms, exclusion %g A",
             DCS_RUNGS[rung].name, c->n, c->l.exclusion);
    const size_t n[3] = {c->l.nx, c->l.ny, c->l.nz};
    return climb_lattice_save(path, n, c->l.origin, c->l.h, c->h_out, comment, err, errlen);
}

static void dcs_set_tuning(climb_case *c, const int *values) { climb_dcs_set_tuning(&c->tn, values); }

/* nx ny nz atoms: the book's 2-D slice in 3-D, Parboil-like sizes. */
static const climb_shape DCS_BENCH_SHAPES[] = {CLIMB_SHAPE4(256, 256, 16, 4000), CLIMB_SHAPE4(128, 128, 128, 1000),
                                               CLIMB_SHAPE4(100, 99, 7, 10007)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape DCS_MAIN_SHAPES[] = {CLIMB_SHAPE4(256, 256, 16, 4000)};
/* Empty lattices and atom lists, one point, lines, planes, rows that are no multiple of a block span. */
static const climb_shape DCS_CHECK_SHAPES[] = {
    CLIMB_SHAPE4(0, 0, 0, 5),   CLIMB_SHAPE4(5, 5, 5, 0),    CLIMB_SHAPE4(1, 1, 1, 1),    CLIMB_SHAPE4(1, 1, 1, 37),
    CLIMB_SHAPE4(7, 3, 2, 11),  CLIMB_SHAPE4(300, 1, 1, 50), CLIMB_SHAPE4(1, 40, 30, 9),  CLIMB_SHAPE4(33, 17, 5, 257),
    CLIMB_SHAPE4(1030, 3, 2, 4001), CLIMB_SHAPE4(129, 65, 3, 8100)};
static const climb_shape DCS_QUICK_SHAPES[] = {CLIMB_SHAPE4(7, 3, 2, 11), CLIMB_SHAPE4(33, 17, 5, 257)};

static const climb_sweep DCS_SWEEPS[] = {
    {.name = "molecules", .title = "Coulomb potential of the data folder's molecules: evaluations/s against the atoms",
     .args = "--input {data}/pqr/1d7h-min.pqr --input {data}/pqr/mache.pqr --input {data}/parboil/cutcp/watbox.sl40.pqr",
     .x = "atoms", .log_x = 1},
};

/* The host memory a case needs at the least (the lattice and the atoms), for the harness's check before anything is allocated. */
static double dcs_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return 4.0 * (double)s->d[0] * (double)s->d[1] * (double)s->d[2] + 16.0 * (double)s->d[3];
}

extern "C" const climb_workload climb_dcs_workload = {
    .name = "dcs",
    .title = "Direct Coulomb summation on a 3-D lattice (f32)",
    .sources = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors, direct Coulomb summation "
                "(scatter, gather, constant memory, coarsening, coalescing, padding)",
    .dims = {"nx", "ny", "nz", "atoms"},
    .shape_format = "{nx}x{ny}x{nz}, {atoms} atoms",
    .types = CLIMB_TYPE_BIT(CLIMB_F32),
    .options = DCS_OPTIONS,
    .n_options = CLIMB_COUNT(DCS_OPTIONS),
    .bytes_counted = "read: the atoms (16 bytes each) once; written: the lattice (4 bytes a point)",
    .items_unit = "atom-evaluations",
    .items_rate = "Geval/s",
    .extra_ceiling = CLIMB_CEIL_SFU,
    .bench_shapes = DCS_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(DCS_BENCH_SHAPES),
    .check_shapes = DCS_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(DCS_CHECK_SHAPES),
    .quick_shapes = DCS_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(DCS_QUICK_SHAPES),
    .main_shapes = DCS_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(DCS_MAIN_SHAPES),
    .check_max_offset = 3,
    .n_rungs = CLIMB_COUNT(DCS_RUNGS),
    .rung = dcs_rung_info,
    .sweeps = DCS_SWEEPS,
    .n_sweeps = CLIMB_COUNT(DCS_SWEEPS),
    .load = dcs_load,
    .unload = climb_pqr_unload,
    .case_size = sizeof(climb_case),
    .buffers = DCS_BUFFERS,
    .n_buffers = CLIMB_COUNT(DCS_BUFFERS),
    .init = dcs_init,
    .fill = dcs_fill,
    .fini = dcs_fini,
    .describe = dcs_describe,
    .reference = dcs_reference,
    .ref_cost = dcs_ref_cost,
    .ref_cost_limit = 2e8,
    .case_bytes = dcs_case_bytes,
    .prepare = dcs_prepare,
    .setup = dcs_setup,
    .empty = dcs_empty,
    .verify = dcs_verify,
    .counts = dcs_counts,
    .release = dcs_release,
    .save = dcs_save,
    .tuning = &DCS_TUNING,
    .set_tuning = dcs_set_tuning,
};
