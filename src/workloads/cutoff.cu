/*
 * cutoff.cu - cutoff Coulomb summation: the electrostatic potential of N atoms on a 3-D lattice with a cutoff radius
 * and a smoothing function, f32, the cutoff ladder of the Coulomb chapter of Hwu, Kirk and El Hajj, "Programming
 * Massively Parallel Processors" (seed 004), in Parboil cutcp's form:
 *
 *   V(p) = sum over atoms a with r = |p - a| < c of q_a / r (1 - r^2 / c^2)^2,   and V(p) = 0 where an atom of
 *   nonzero charge is nearer to p than the exclusion distance (Parboil zeroes those points).
 *
 * Only the atoms within c of a point count: a few hundred to a few thousand, against all N for direct summation.
 * The ladder is about finding them:
 *   direct          every atom for every point with the cutoff test: the O(N M) baseline (dcs's best loop);
 *   cpu_bins        the book's scheme: the host sorts the atoms into bins of a fixed capacity (dummy atoms fill the
 *                   rest) and keeps the atoms that do not fit in an overflow list it sums itself while the GPU runs;
 *                   a thread block per bin-sized region of the lattice reads the neighbouring bins, listed once in
 *                   constant memory as offsets, through shared memory;
 *   gpu_bins        the same bins built on the GPU with atomics (a bin's count read before the atomic, so a full
 *                   bin costs no atomic), the overflow list read back for the host;
 *   scan_bins       binning by a scan: counts, offsets by a prefix sum, scatter: every atom in its bin, no capacity,
 *                   no dummy atoms, no overflow, nothing on the host; a bin row of neighbours (a pencil along x) is
 *                   one contiguous range of atoms;
 *   pencils_cylinder (best) the pencils concatenated in tiles of a block's width, the cylinder test (dx^2 + dy^2,
 *                   shared by a thread's points along z, checked before any of them), tuned points a thread.
 * Bins are cubes of 8 lattice points a side, one thread block's region. The share of the atoms a rung examines that
 * are within the cutoff (the book's 34%) is in each report's notes.
 *
 * Counted per case: the items are N x points atom-point pairs (the pairs direct summation evaluates, so the items
 * rate compares with dcs's); each rung's special-function work (one rsqrt) and 14 flops are per pair it examines
 * (the pairs within the cutoff for the case's least). See docs/cutoff.md.
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
#include "../io/parboil.h"
#include "../io/text.h"
#include "cutoff.h"

/* ---------------------------------------------------------------- geometry, shared by host and device */

typedef struct cut_grid {
    int nx, ny, nz;
    float h, ox, oy, oz;
    float c2, inv_c2, e2;
    int bx, by, bz, margin;
    float side, inv_side;
} cut_grid;

/* The bin of an atom, in float arithmetic (the host's count of examined atoms and the kernels agree), or -1. */
__host__ __device__ __forceinline__ int64_t cut_bin(const cut_grid &g, float x, float y, float z, float q)
{
    if (q == 0.0f)
        return -1;
    const float fx = (x - g.ox) * g.inv_side, fy = (y - g.oy) * g.inv_side, fz = (z - g.oz) * g.inv_side;
    const float m = (float)g.margin;
    if (!(fx >= -m && fx < (float)(g.bx - g.margin) && fy >= -m && fy < (float)(g.by - g.margin) && fz >= -m &&
          fz < (float)(g.bz - g.margin)))
        return -1;
    const int ix = (int)floorf(fx) + g.margin, iy = (int)floorf(fy) + g.margin, iz = (int)floorf(fz) + g.margin;
    return ((int64_t)iz * g.by + iy) * g.bx + ix;
}

/* The bins of pencil p (0 .. (2 margin + 1)^2) of region (rx, ry, rz): the bins along x in [lo, hi] of row
 * (dy, dz) = (p % w - margin, p / w - margin) that may hold an atom within the cutoff of a point of the region (the
 * region's points to a bin d bins away are at least (|d| - 1) side apart on that axis). 0 when the row is too far. */
__host__ __device__ __forceinline__ int cut_pencil(const cut_grid &g, int rx, int ry, int rz, int p, int64_t *lo,
                                                   int64_t *hi)
{
    const int w = 2 * g.margin + 1, dy = p % w - g.margin, dz = p / w - g.margin;
    const float gy = (float)max(0, abs(dy) - 1) * g.side, gz = (float)max(0, abs(dz) - 1) * g.side;
    const float rem = g.c2 - gy * gy - gz * gz;
    if (!(rem > 0.0f))
        return 0;
    const int dmax = min(g.margin, 1 + (int)(sqrtf(rem) * g.inv_side));
    const int64_t b = ((int64_t)(rz + g.margin + dz) * g.by + (ry + g.margin + dy)) * g.bx + rx + g.margin;
    *lo = b - dmax;
    *hi = b + dmax;
    return 1;
}

static cut_grid grid_of(const climb_cutoff_lattice *l, const climb_cutoff_bins *b)
{
    cut_grid g;
    g.nx = (int)l->nx;
    g.ny = (int)l->ny;
    g.nz = (int)l->nz;
    g.h = l->h;
    g.ox = l->origin[0];
    g.oy = l->origin[1];
    g.oz = l->origin[2];
    g.c2 = l->cutoff * l->cutoff;
    g.inv_c2 = 1.0f / g.c2;
    g.e2 = l->exclusion * l->exclusion;
    g.bx = b->bx;
    g.by = b->by;
    g.bz = b->bz;
    g.margin = b->margin;
    g.side = b->side;
    g.inv_side = b->inv_side;
    return g;
}

static size_t cdiv(size_t n, size_t d) { return (n + d - 1) / d; }

extern "C" int climb_cutoff_bins_of(const climb_cutoff_lattice *l, climb_cutoff_bins *b, char *err, size_t errlen)
{
    b->side = (float)CLIMB_CUTOFF_BIN * l->h;
    b->inv_side = 1.0f / b->side;
    const double m = ceil((double)l->cutoff / b->side);
    const double nb[3] = {(double)cdiv(l->nx, CLIMB_CUTOFF_BIN) + 2 * m, (double)cdiv(l->ny, CLIMB_CUTOFF_BIN) + 2 * m,
                          (double)cdiv(l->nz, CLIMB_CUTOFF_BIN) + 2 * m};
    if (m > 4096 || nb[0] * nb[1] * nb[2] > (double)(1 << 28)) {
        snprintf(err, errlen, "the bins around the lattice would be %.3g (cutoff %g Å over bins of %g Å, %.0f of them "
                              "beyond each side): at most 2^28; raise the spacing or lower the cutoff",
                 nb[0] * nb[1] * nb[2], l->cutoff, b->side, m);
        return -1;
    }
    b->margin = (int)m;
    b->bx = (int)nb[0];
    b->by = (int)nb[1];
    b->bz = (int)nb[2];
    b->count = (size_t)b->bx * b->by * b->bz;
    return 0;
}

extern "C" int64_t climb_cutoff_bin_of(const climb_cutoff_lattice *l, const climb_cutoff_bins *b, const float *xyzq)
{
    const cut_grid g = grid_of(l, b);
    return cut_bin(g, xyzq[0], xyzq[1], xyzq[2], xyzq[3]);
}

/* ---------------------------------------------------------------- CPU reference */

extern "C" int climb_cutoff_cells_build(climb_cutoff_cells *cc, const climb_cutoff_lattice *l, const float *xyzq,
                                        size_t n)
{
    memset(cc, 0, sizeof *cc);
    cc->side = l->cutoff;
    const double ext[3] = {l->h * (double)(l->nx ? l->nx - 1 : 0), l->h * (double)(l->ny ? l->ny - 1 : 0),
                           l->h * (double)(l->nz ? l->nz - 1 : 0)};
    size_t cells = 1;
    for (int d = 0; d < 3; d++) {
        cc->lo[d] = l->origin[d] - l->cutoff;
        cc->n[d] = (size_t)floor((ext[d] + 2.0 * l->cutoff) / cc->side) + 1;
        cells *= cc->n[d];
    }
    size_t *cell_of = (size_t *)malloc((n ? n : 1) * sizeof(size_t));
    cc->start = (size_t *)calloc(cells + 1, sizeof(size_t));
    if (!cell_of || !cc->start) {
        free(cell_of);
        climb_cutoff_cells_free(cc);
        return climb_host_oom("the cutoff reference's cells");
    }
    size_t kept = 0;
    for (size_t a = 0; a < n; a++) {
        const float *p = xyzq + 4 * a;
        cell_of[a] = SIZE_MAX;
        if (p[3] == 0)
            continue;
        size_t idx[3];
        int inside = 1;
        for (int d = 0; d < 3; d++) {
            const double f = floor((p[d] - cc->lo[d]) / cc->side);
            inside &= f >= 0 && f < (double)cc->n[d];
            idx[d] = inside ? (size_t)f : 0;
        }
        if (!inside)
            continue;
        cell_of[a] = (idx[2] * cc->n[1] + idx[1]) * cc->n[0] + idx[0];
        cc->start[cell_of[a] + 1]++;
        kept++;
    }
    for (size_t i = 0; i < cells; i++)
        cc->start[i + 1] += cc->start[i];
    cc->xyzq = (float *)malloc((kept ? kept : 1) * 4 * sizeof(float));
    size_t *fill = (size_t *)malloc((cells ? cells : 1) * sizeof(size_t));
    if (!cc->xyzq || !fill) {
        free(cell_of);
        free(fill);
        climb_cutoff_cells_free(cc);
        return climb_host_oom("the cutoff reference's cells");
    }
    memcpy(fill, cc->start, cells * sizeof(size_t));
    for (size_t a = 0; a < n; a++)
        if (cell_of[a] != SIZE_MAX)
            memcpy(cc->xyzq + 4 * fill[cell_of[a]]++, xyzq + 4 * a, 4 * sizeof(float));
    free(fill);
    free(cell_of);
    return 0;
}

extern "C" void climb_cutoff_cells_free(climb_cutoff_cells *cc)
{
    free(cc->start);
    free(cc->xyzq);
    memset(cc, 0, sizeof *cc);
}

extern "C" void climb_cutoff_ref_at(const climb_cutoff_cells *cc, const climb_cutoff_lattice *l, size_t i, size_t j,
                                    size_t k, climb_cutoff_ref *out)
{
    memset(out, 0, sizeof *out);
    const double p[3] = {l->origin[0] + (double)l->h * (double)i, l->origin[1] + (double)l->h * (double)j,
                         l->origin[2] + (double)l->h * (double)k};
    const double c2 = (double)l->cutoff * l->cutoff, e2 = (double)l->exclusion * l->exclusion;
    const double coord = 4 * 0x1p-24 * (fabs(p[0]) + fabs(p[1]) + fabs(p[2]) + 1e-30);
    size_t lo[3], hi[3];
    for (int d = 0; d < 3; d++) {
        const double f = floor((p[d] - cc->lo[d]) / cc->side);
        lo[d] = f < 1 ? 0 : (size_t)f - 1;
        hi[d] = f + 1 >= (double)cc->n[d] - 1 ? cc->n[d] - 1 : (size_t)f + 1;
    }
    double sum = 0, mag = 0, rel = 0, deriv = 0, slack = 0;
    for (size_t z = lo[2]; z <= hi[2]; z++)
        for (size_t y = lo[1]; y <= hi[1]; y++) {
            const size_t row = (z * cc->n[1] + y) * cc->n[0];
            for (size_t a = cc->start[row + lo[0]]; a < cc->start[row + hi[0] + 1]; a++) {
                const float *at = cc->xyzq + 4 * a;
                const double dx = p[0] - at[0], dy = p[1] - at[1], dz = p[2] - at[2];
                const double r2 = dx * dx + dy * dy + dz * dz, q = at[3];
                if (fabs(r2 - e2) <= 1e-5 * e2)
                    out->maybe_zero = 1;
                else if (r2 < e2)
                    out->zero = 1;
                if (r2 >= c2 * (1 + 1e-5))
                    continue;
                const double r = sqrt(r2), s = 1 - r2 / c2, t = q / r * s * s;
                if (r2 > c2 * (1 - 1e-5)) { /* on the cutoff: counted or not by a float computation */
                    slack += fabs(q) / r * 4e-10;
                    continue;
                }
                out->within++;
                if (r2 < e2 * (1 - 1e-5))
                    continue;
                sum += t;
                mag += fabs(t);
                rel += fabs(q) * s / r;
                deriv += fabs(q) * (1 / r2 + 4 / c2);
            }
        }
    out->v = sum;
    out->tol = 1.01 * ((double)out->within + 8) * 0x1p-24 * mag + 16 * 0x1p-24 * rel + coord * deriv + slack;
}

extern "C" int climb_cutoff_ref_ok(const climb_cutoff_ref *r, float v)
{
    if (r->zero)
        return v == 0.0f;
    return (r->maybe_zero && v == 0.0f) || fabs((double)v - r->v) <= r->tol;
}

/* ---------------------------------------------------------------- kernels */

/* One atom at squared distance r2 from a point: its smoothed term added when exclusion <= r < cutoff (one MUFU.RSQ,
 * computed for every pair examined), and the point marked when a charged atom is inside the exclusion distance. */
__device__ __forceinline__ void cut_eval(float r2, float q, const cut_grid &g, float &acc, bool &ex)
{
    const float s = fmaf(-r2, g.inv_c2, 1.0f);
    const float t = q * climb_rsqrt_ftz(r2) * (s * s); /* r2 >= e2 >= 10^-6 where used: never subnormal */
    acc += (r2 < g.c2 && r2 >= g.e2) ? t : 0.0f;
    ex = ex || (r2 < g.e2 && q != 0.0f);
}

/* direct: dcs's best loop with the cutoff test (2 points a thread 32 apart along x, 4 rows a block, the atoms
 * staged through shared memory): every atom for every point. */
#define CUT_DIRECT_P 2
#define CUT_DIRECT_ROWS 4
__global__ void __launch_bounds__(32 * CUT_DIRECT_ROWS) cut_direct_kernel(const float4 *__restrict__ atoms, int n,
                                                                          float *out, cut_grid g)
{
    constexpr int T = 32 * CUT_DIRECT_ROWS, P = CUT_DIRECT_P;
    __shared__ float4 tile[T];
    const int t = threadIdx.y * 32 + threadIdx.x;
    const int i0 = blockIdx.x * 32 * P + threadIdx.x, j = blockIdx.y * CUT_DIRECT_ROWS + threadIdx.y, k = blockIdx.z;
    const float py = g.oy + g.h * j, pz = g.oz + g.h * k;
    float px[P], acc[P];
    bool ex[P];
#pragma unroll
    for (int p = 0; p < P; p++) {
        px[p] = g.ox + g.h * (i0 + p * 32);
        acc[p] = 0.0f;
        ex[p] = false;
    }
    for (int a0 = 0; a0 < n; a0 += T) {
        const int m = min(T, n - a0);
        __syncthreads();
        if (t < m)
            tile[t] = atoms[a0 + t];
        __syncthreads();
        for (int a = 0; a < m; a++) {
            const float4 at = tile[a];
            const float dy = py - at.y, dz = pz - at.z, dyz = dy * dy + dz * dz;
#pragma unroll
            for (int p = 0; p < P; p++) {
                const float dx = px[p] - at.x;
                cut_eval(fmaf(dx, dx, dyz), at.w, g, acc[p], ex[p]);
            }
        }
    }
    if (j >= g.ny)
        return;
    float *o = out + ((size_t)k * g.ny + j) * g.nx;
#pragma unroll
    for (int p = 0; p < P; p++)
        if (i0 + p * 32 < g.nx)
            o[i0 + p * 32] = ex[p] ? 0.0f : acc[p];
}

/* A block's region: 8 x 8 x 8 points, the block 8 x 8 x (8 / P) threads (x fastest), each P points along z. */
template <int P> struct cut_region {
    int i, j, k0;
    float px, py, pz[P];
    __device__ __forceinline__ cut_region(const cut_grid &g, int t)
    {
        i = blockIdx.x * CLIMB_CUTOFF_BIN + (t & 7);
        j = blockIdx.y * CLIMB_CUTOFF_BIN + ((t >> 3) & 7);
        k0 = blockIdx.z * CLIMB_CUTOFF_BIN + (t >> 6) * P;
        px = g.ox + g.h * i;
        py = g.oy + g.h * j;
#pragma unroll
        for (int p = 0; p < P; p++)
            pz[p] = g.oz + g.h * (k0 + p);
    }
    /* the region's points that are on the lattice: excluded ones 0, or NaN (nan_excluded: a later pass adds the
     * CPU's part and turns NaN into 0) */
    __device__ __forceinline__ void store(const cut_grid &g, float *out, const float *acc, const bool *ex,
                                          bool nan_excluded) const
    {
        if (i >= g.nx || j >= g.ny)
            return;
#pragma unroll
        for (int p = 0; p < P; p++)
            if (k0 + p < g.nz)
                out[((size_t)(k0 + p) * g.ny + j) * g.nx + i] = ex[p] ? (nan_excluded ? __int_as_float(0x7fc00000) : 0.0f)
                                                                      : acc[p];
    }
};

/* The neighbour bins of a region, as offsets from its own bin (the book keeps them in constant memory). */
#define CUT_MAX_NBR 8192
__constant__ int cut_nbr[CUT_MAX_NBR];
#define CUT_CAP_THREADS 128
#define CUT_CAP_P 4

/* cpu_bins and gpu_bins: a block per region reads its n_nbr neighbour bins of cap atoms each (dummy atoms of charge
 * 0 far away fill the bins), 128 slots at a time through shared memory. Excluded points are left NaN. */
__global__ void __launch_bounds__(CUT_CAP_THREADS) cut_capacity_kernel(const float4 *__restrict__ bins, int cap,
                                                                       int n_nbr, float *out, cut_grid g)
{
    __shared__ float4 tile[CUT_CAP_THREADS];
    const int t = threadIdx.x;
    const cut_region<CUT_CAP_P> r(g, t);
    const int64_t home = ((int64_t)(blockIdx.z + g.margin) * g.by + blockIdx.y + g.margin) * g.bx + blockIdx.x + g.margin;
    float acc[CUT_CAP_P];
    bool ex[CUT_CAP_P];
#pragma unroll
    for (int p = 0; p < CUT_CAP_P; p++) {
        acc[p] = 0.0f;
        ex[p] = false;
    }
    const int total = n_nbr * cap;
    for (int s0 = 0; s0 < total; s0 += CUT_CAP_THREADS) {
        const int s = s0 + t;
        __syncthreads();
        if (s < total) {
            const int nb = s / cap;
            tile[t] = bins[(size_t)(home + cut_nbr[nb]) * cap + (s - nb * cap)];
        }
        __syncthreads();
        const int m = min(CUT_CAP_THREADS, total - s0);
        for (int a = 0; a < m; a++) {
            const float4 at = tile[a];
            const float dx = r.px - at.x, dy = r.py - at.y, dxy = fmaf(dx, dx, dy * dy);
#pragma unroll
            for (int p = 0; p < CUT_CAP_P; p++) {
                const float dz = r.pz[p] - at.z;
                cut_eval(fmaf(dz, dz, dxy), at.w, g, acc[p], ex[p]);
            }
        }
    }
    r.store(g, out, acc, ex, true);
}

/* scan_bins and the best rung: the region's pencils (rows of neighbour bins along x, each one contiguous range of
 * the sorted atoms), a block's width of them at a time: their lengths scanned into offsets, the concatenated atoms
 * read in tiles of a block's width (a thread's atom found by a binary search over the offsets). CYL: the cylinder
 * test, dx^2 + dy^2 against the cutoff once for the thread's P points along z. */
template <int P, bool CYL>
__global__ void __launch_bounds__(64 * (8 / P)) cut_pencil_kernel(const float4 *__restrict__ sorted,
                                                                  const int *__restrict__ start, float *out, cut_grid g)
{
    constexpr int NT = 64 * (8 / P);
    __shared__ float4 tile[NT];
    __shared__ int pbeg[NT], poff[NT], scratch[NT / 32 + 1];
    const int t = threadIdx.x;
    const cut_region<P> r(g, t);
    float acc[P];
    bool ex[P];
#pragma unroll
    for (int p = 0; p < P; p++) {
        acc[p] = 0.0f;
        ex[p] = false;
    }
    const int w = 2 * g.margin + 1, n_pencils = w * w;
    for (int g0 = 0; g0 < n_pencils; g0 += NT) {
        int beg = 0, len = 0;
        int64_t lo, hi;
        if (g0 + t < n_pencils && cut_pencil(g, blockIdx.x, blockIdx.y, blockIdx.z, g0 + t, &lo, &hi)) {
            beg = start[lo];
            len = start[hi + 1] - beg;
        }
        int total;
        const int off = climb_block_exclusive_scan<climb_op_sum, NT>(len, scratch, &total);
        __syncthreads(); /* the last group's offsets are read no more */
        pbeg[t] = beg;
        poff[t] = off;
        for (int a0 = 0; a0 < total; a0 += NT) {
            __syncthreads();
            const int j = a0 + t;
            if (j < total) {
                int lo2 = 0, hi2 = NT - 1;
                while (lo2 < hi2) {
                    const int mid = (lo2 + hi2 + 1) >> 1;
                    if (poff[mid] <= j)
                        lo2 = mid;
                    else
                        hi2 = mid - 1;
                }
                tile[t] = sorted[pbeg[lo2] + (j - poff[lo2])];
            }
            __syncthreads();
            const int m = min(NT, total - a0);
            for (int a = 0; a < m; a++) {
                const float4 at = tile[a];
                const float dx = r.px - at.x, dy = r.py - at.y, dxy = fmaf(dx, dx, dy * dy);
                if (CYL && !(dxy < g.c2))
                    continue;
#pragma unroll
                for (int p = 0; p < P; p++) {
                    const float dz = r.pz[p] - at.z;
                    cut_eval(fmaf(dz, dz, dxy), at.w, g, acc[p], ex[p]);
                }
            }
        }
    }
    r.store(g, out, acc, ex, false);
}

/* Binning by a scan, step 1: each atom's bin counted, its rank among its bin's atoms kept (NULL: counts only). */
__global__ void __launch_bounds__(256) cut_count_kernel(const float4 *__restrict__ atoms, int n, int *counts, int *rank,
                                                        cut_grid g)
{
    const int a = blockIdx.x * 256 + threadIdx.x;
    if (a >= n)
        return;
    const float4 at = atoms[a];
    const int64_t b = cut_bin(g, at.x, at.y, at.z, at.w);
    const int k = b >= 0 ? atomicAdd(counts + b, 1) : -1;
    if (rank)
        rank[a] = k;
}

/* Step 2: the counts' exclusive prefix sum, start[nb] the total, in one block. */
#define CUT_SCAN_THREADS 1024
__global__ void __launch_bounds__(CUT_SCAN_THREADS) cut_scan_kernel(const int *counts, int nb, int *start)
{
    __shared__ int scratch[CUT_SCAN_THREADS / 32 + 1];
    int carry = 0;
    for (int base = 0; base < nb; base += CUT_SCAN_THREADS) {
        const int i = base + threadIdx.x;
        int total;
        const int ex = climb_block_exclusive_scan<climb_op_sum, CUT_SCAN_THREADS>(i < nb ? counts[i] : 0, scratch, &total);
        if (i < nb)
            start[i] = carry + ex;
        carry += total;
    }
    if (threadIdx.x == 0)
        start[nb] = carry;
}

/* Step 3: each atom to its bin's range at its rank. */
__global__ void __launch_bounds__(256) cut_scatter_kernel(const float4 *__restrict__ atoms, int n, const int *rank,
                                                          const int *start, float4 *sorted, cut_grid g)
{
    const int a = blockIdx.x * 256 + threadIdx.x;
    if (a >= n)
        return;
    const float4 at = atoms[a];
    const int64_t b = cut_bin(g, at.x, at.y, at.z, at.w);
    if (b >= 0)
        sorted[start[b] + rank[a]] = at;
}

/* gpu_bins: every slot a dummy atom (charge 0, 10^18 Å away), then each atom into its bin if there is room (the
 * count read first: a full bin costs no atomic), else onto the overflow list. */
__global__ void __launch_bounds__(256) cut_dummy_kernel(float4 *bins, size_t slots)
{
    const size_t i = (size_t)blockIdx.x * 256 + threadIdx.x;
    if (i < slots)
        bins[i] = make_float4(1e18f, 1e18f, 1e18f, 0.0f);
}

__global__ void __launch_bounds__(256) cut_bin_capacity_kernel(const float4 *__restrict__ atoms, int n, int *fill,
                                                               float4 *bins, int cap, float4 *ovf, int *n_ovf, cut_grid g)
{
    const int a = blockIdx.x * 256 + threadIdx.x;
    if (a >= n)
        return;
    const float4 at = atoms[a];
    const int64_t b = cut_bin(g, at.x, at.y, at.z, at.w);
    if (b < 0)
        return;
    if (*(volatile int *)(fill + b) < cap) {
        const int s = atomicAdd(fill + b, 1);
        if (s < cap) {
            bins[(size_t)b * cap + s] = at;
            return;
        }
    }
    ovf[atomicAdd(n_ovf, 1)] = at;
}

/* The capacity rungs' last pass: the CPU's sums of the overflow atoms added (cpu NULL: none), and the excluded
 * points (NaN from either side) set to 0. */
__global__ void __launch_bounds__(256) cut_combine_kernel(float *out, const float *cpu, size_t n)
{
    const size_t i = (size_t)blockIdx.x * 256 + threadIdx.x;
    if (i >= n)
        return;
    const float v = out[i] + (cpu ? cpu[i] : 0.0f);
    out[i] = isnan(v) ? 0.0f : v;
}

/* ---------------------------------------------------------------- the best rung, for the library face */

static const int CUT_POINTS[] = {2, 4, 8};

extern "C" void climb_cutoff_set_tuning(climb_cutoff_tuning *t, const int *values) { t->points = values[0]; }

static size_t align256(size_t b) { return (b + 255) & ~(size_t)255; }

/* The scan-binning workspace: counts (nb), start (nb + 1), rank (n), sorted atoms (n float4). */
typedef struct cut_ws {
    int *counts, *start, *rank;
    float4 *sorted;
} cut_ws;

static size_t ws_layout(size_t nb, size_t n, void *base, cut_ws *w)
{
    const size_t sizes[4] = {align256(nb * 4), align256((nb + 1) * 4), align256((n ? n : 1) * 4),
                             align256((n ? n : 1) * 16)};
    if (base) {
        char *p = (char *)base;
        w->counts = (int *)p;
        w->start = (int *)(p + sizes[0]);
        w->rank = (int *)(p + sizes[0] + sizes[1]);
        w->sorted = (float4 *)(p + sizes[0] + sizes[1] + sizes[2]);
    }
    return sizes[0] + sizes[1] + sizes[2] + sizes[3];
}

extern "C" size_t climb_cutoff_best_workspace(const climb_cutoff_lattice *l, size_t n)
{
    climb_cutoff_bins b;
    char err[200];
    if (climb_cutoff_bins_of(l, &b, err, sizeof err) != 0)
        return 0;
    return ws_layout(b.count, n, NULL, NULL);
}

/* Bins by a scan on s: counts, offsets, scatter. */
static cudaError_t scan_binning(const cut_grid &g, size_t nb, const float4 *atoms, size_t n, const cut_ws &w,
                                cudaStream_t s)
{
    cudaError_t e = cudaMemsetAsync(w.counts, 0, nb * sizeof(int), s);
    if (e != cudaSuccess)
        return e;
    if (n)
        cut_count_kernel<<<(unsigned)cdiv(n, 256), 256, 0, s>>>(atoms, (int)n, w.counts, w.rank, g);
    cut_scan_kernel<<<1, CUT_SCAN_THREADS, 0, s>>>(w.counts, (int)nb, w.start);
    if (n)
        cut_scatter_kernel<<<(unsigned)cdiv(n, 256), 256, 0, s>>>(atoms, (int)n, w.rank, w.start, w.sorted, g);
    return cudaGetLastError();
}

static dim3 regions_of(const climb_cutoff_lattice *l)
{
    return dim3((unsigned)cdiv(l->nx, CLIMB_CUTOFF_BIN), (unsigned)cdiv(l->ny, CLIMB_CUTOFF_BIN),
                (unsigned)cdiv(l->nz, CLIMB_CUTOFF_BIN));
}

static cudaError_t launch_pencils(int points, bool cyl, const cut_grid &g, const climb_cutoff_lattice *l,
                                  const cut_ws &w, float *out, cudaStream_t s)
{
    const dim3 grid = regions_of(l);
#define CUT_PENCIL(P_)                                                                                       \
    if (points == P_) {                                                                                      \
        if (cyl)                                                                                             \
            cut_pencil_kernel<P_, true><<<grid, 64 * (8 / P_), 0, s>>>(w.sorted, w.start, out, g);           \
        else                                                                                                 \
            cut_pencil_kernel<P_, false><<<grid, 64 * (8 / P_), 0, s>>>(w.sorted, w.start, out, g);          \
        return cudaGetLastError();                                                                           \
    }
    CUT_PENCIL(2) CUT_PENCIL(4) CUT_PENCIL(8)
#undef CUT_PENCIL
    return cudaErrorInvalidValue;
}

static int lattice_fits(const climb_cutoff_lattice *l, size_t n)
{
    return l->nx <= INT32_MAX && cdiv(l->ny, CLIMB_CUTOFF_BIN) <= 65535 && cdiv(l->nz, CLIMB_CUTOFF_BIN) <= 65535 &&
           n <= INT32_MAX;
}

extern "C" cudaError_t climb_cutoff_best(const climb_cutoff_tuning *t, const climb_cutoff_lattice *l,
                                         const float *d_atoms, size_t n, float *out, void *ws, cudaStream_t s)
{
    if (l->nx == 0 || l->ny == 0 || l->nz == 0)
        return cudaSuccess;
    climb_cutoff_bins b;
    char err[200];
    if (!lattice_fits(l, n) || climb_cutoff_bins_of(l, &b, err, sizeof err) != 0)
        return cudaErrorInvalidValue;
    const cut_grid g = grid_of(l, &b);
    cut_ws w = {NULL, NULL, NULL, NULL};
    ws_layout(b.count, n, ws, &w);
    cudaError_t e = scan_binning(g, b.count, (const float4 *)d_atoms, n, w, s);
    return e != cudaSuccess ? e : launch_pencils(t->points, true, g, l, w, out, s);
}

/* ---------------------------------------------------------------- the case */

struct climb_case {
    climb_case_params p;
    climb_cutoff_lattice l;
    climb_cutoff_bins b;
    int bins_ok;
    char bins_err[200];
    cut_grid g;
    size_t points, n;
    float *h_atoms;                 /* 4 n */
    float *d_atoms, *d_out;
    char *d_alloc;
    float *h_out;
    double lo[3], hi[3];            /* the atoms' box */
    /* the reference */
    climb_ref_mode mode;
    climb_cutoff_ref *ref;
    size_t *samples, n_samples;
    double within;                  /* pairs within the cutoff, over every point (estimated from the samples) */
    /* the host's binning: every atom's bin (-1 dropped), counts and offsets */
    int64_t *h_bin;
    int *h_counts, *h_start;
    double pencil_examined;         /* pairs the pencil rungs examine */
    int n_nbr, *h_nbr;              /* the neighbour offsets of the capacity rungs */
    long n_nbr_all;                 /* how many there are (more than CUT_MAX_NBR: a capacity rung refuses) */
    /* the capacity rungs */
    int cap;
    float4 *h_bins, *h_ovf_atoms;   /* page-locked */
    float *h_ovf;                   /* page-locked: the CPU's sums over the overflow atoms, every point */
    int *h_novf, *h_fill;           /* page-locked */
    float4 *d_bins, *d_ovf_atoms;
    float *d_ovf;
    int *d_fill, *d_novf;
    cudaStream_t aux;
    cudaEvent_t binned;
    double cpu_examined[8];        /* per rung: the pairs the host examined in its last run */
    size_t n_ovf[8];
    int ran_cap[8];
    /* the scan-binning rungs */
    void *d_ws;
    cut_ws ws;
    climb_cutoff_tuning tn;
};

typedef cudaError_t (*cut_launch_fn)(climb_case *c, cudaStream_t s);

/* The host's binning of the case's atoms, once: each atom's bin, the bins' counts and offsets. */
static int host_bins(climb_case *c)
{
    if (c->h_bin)
        return 0;
    c->h_bin = (int64_t *)malloc((c->n ? c->n : 1) * sizeof(int64_t));
    c->h_counts = (int *)calloc(c->b.count, sizeof(int));
    c->h_start = (int *)calloc(c->b.count + 1, sizeof(int));
    if (!c->h_bin || !c->h_counts || !c->h_start)
        return climb_host_oom("the cutoff bins");
    for (size_t a = 0; a < c->n; a++) {
        const float *p = c->h_atoms + 4 * a;
        c->h_bin[a] = cut_bin(c->g, p[0], p[1], p[2], p[3]);
        if (c->h_bin[a] >= 0)
            c->h_counts[c->h_bin[a]]++;
    }
    for (size_t i = 0; i < c->b.count; i++)
        c->h_start[i + 1] = c->h_start[i] + c->h_counts[i];
    return 0;
}

/* The smallest capacity that holds 95% of the binned atoms in their bins (the book's rule), at most 128 (a tile). */
static int capacity_rule(const int *counts, size_t nb)
{
    int most = 0;
    double total = 0;
    for (size_t i = 0; i < nb; i++) {
        most = counts[i] > most ? counts[i] : most;
        total += counts[i];
    }
    for (int cap = 1; cap < 128 && cap < most; cap++) {
        double held = 0;
        for (size_t i = 0; i < nb; i++)
            held += counts[i] < cap ? counts[i] : cap;
        if (held >= 0.95 * total)
            return cap;
    }
    return most < 1 ? 1 : most > 128 ? 128 : most;
}

/* Lattice points of region (rx, ry, rz) that are on the lattice. */
static double region_points(const climb_case *c, size_t rx, size_t ry, size_t rz)
{
    const size_t B = CLIMB_CUTOFF_BIN;
    return (double)(c->l.nx - rx * B < B ? c->l.nx - rx * B : B) * (double)(c->l.ny - ry * B < B ? c->l.ny - ry * B : B) *
           (double)(c->l.nz - rz * B < B ? c->l.nz - rz * B : B);
}

/* The neighbour bins of a region (offsets from its own bin, into out when not NULL, at most max): those whose
 * nearest point is within the cutoff of the region's. How many there are; past max, counting stops there + 1. */
static long neighbours(const climb_cutoff_bins *b, float c2, int *out, long max)
{
    const int m = b->margin;
    if (m > 16) /* a ball of radius m - 1 bins holds more than 8192 of them: no list of such length is used */
        return max + 1;
    long n = 0;
    for (int dz = -m; dz <= m; dz++)
        for (int dy = -m; dy <= m; dy++)
            for (int dx = -m; dx <= m; dx++) {
                const double gx = (abs(dx) > 1 ? abs(dx) - 1 : 0) * (double)b->side;
                const double gy = (abs(dy) > 1 ? abs(dy) - 1 : 0) * (double)b->side;
                const double gz = (abs(dz) > 1 ? abs(dz) - 1 : 0) * (double)b->side;
                if (gx * gx + gy * gy + gz * gz < (double)c2) {
                    if (n == max)
                        return max + 1;
                    if (out)
                        out[n] = (dz * b->by + dy) * b->bx + dx;
                    n++;
                }
            }
    return n;
}

/* The neighbour list of the capacity rungs. */
static int neighbour_list(climb_case *c)
{
    if (c->h_nbr)
        return 0;
    c->h_nbr = (int *)malloc(CUT_MAX_NBR * sizeof(int));
    if (!c->h_nbr)
        return climb_host_oom("the neighbour list");
    c->n_nbr = (int)neighbours(&c->b, c->g.c2, c->h_nbr, CUT_MAX_NBR);
    return 0;
}

/* The CPU's part of the capacity rungs: the overflow atoms' terms at every point within the cutoff (their cube of
 * points, then the test), NaN where one is inside the exclusion distance. The pairs it examined. */
static double cpu_overflow(climb_case *c, const float4 *atoms, size_t n)
{
    const climb_cutoff_lattice *l = &c->l;
    memset(c->h_ovf, 0, c->points * sizeof(float));
    double examined = 0;
    const float h = l->h, cut = l->cutoff;
    for (size_t a = 0; a < n; a++) {
        const float4 at = atoms[a];
        long lo[3], hi[3];
        const float pos[3] = {at.x, at.y, at.z};
        const size_t dim[3] = {l->nx, l->ny, l->nz};
        int empty = 0;
        for (int d = 0; d < 3; d++) {
            lo[d] = (long)ceilf((pos[d] - cut - l->origin[d]) / h);
            hi[d] = (long)floorf((pos[d] + cut - l->origin[d]) / h);
            lo[d] = lo[d] < 0 ? 0 : lo[d];
            hi[d] = hi[d] > (long)dim[d] - 1 ? (long)dim[d] - 1 : hi[d];
            empty |= lo[d] > hi[d];
        }
        if (empty)
            continue;
        examined += (double)(hi[0] - lo[0] + 1) * (double)(hi[1] - lo[1] + 1) * (double)(hi[2] - lo[2] + 1);
        for (long k = lo[2]; k <= hi[2]; k++) {
            const float dz = l->origin[2] + h * (float)k - at.z;
            for (long j = lo[1]; j <= hi[1]; j++) {
                const float dy = l->origin[1] + h * (float)j - at.y, dyz = dy * dy + dz * dz;
                if (dyz >= c->g.c2)
                    continue;
                float *row = c->h_ovf + ((size_t)k * l->ny + (size_t)j) * l->nx;
                for (long i = lo[0]; i <= hi[0]; i++) {
                    const float dx = l->origin[0] + h * (float)i - at.x, r2 = dx * dx + dyz;
                    if (r2 < c->g.e2)
                        row[i] = NAN;
                    else if (r2 < c->g.c2) {
                        const float s = 1.0f - r2 * c->g.inv_c2;
                        row[i] += at.w / sqrtf(r2) * s * s;
                    }
                }
            }
        }
    }
    return examined;
}

/* The capacity rungs' end: the CPU's overflow sums (if any) copied in and added, excluded points set to 0. */
static cudaError_t finish_capacity(climb_case *c, size_t n_ovf, cudaStream_t s)
{
    cudaError_t e = cudaSuccess;
    if (n_ovf)
        e = cudaMemcpyAsync(c->d_ovf, c->h_ovf, c->points * sizeof(float), cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess)
        return e;
    cut_combine_kernel<<<(unsigned)cdiv(c->points, 256), 256, 0, s>>>(c->d_out, n_ovf ? c->d_ovf : NULL, c->points);
    return cudaGetLastError();
}

static cudaError_t launch_direct(climb_case *c, cudaStream_t s)
{
    cut_direct_kernel<<<dim3((unsigned)cdiv(c->l.nx, 32 * CUT_DIRECT_P), (unsigned)cdiv(c->l.ny, CUT_DIRECT_ROWS),
                             (unsigned)c->l.nz),
                        dim3(32, CUT_DIRECT_ROWS), 0, s>>>((const float4 *)c->d_atoms, (int)c->n, c->d_out, c->g);
    return cudaGetLastError();
}

static int rung_index(cut_launch_fn f);

/* cpu_bins: the host bins the atoms (capacity by the 95% rule, dummy atoms in the free slots, the rest on the
 * overflow list), copies the bins and the neighbour list over, launches, and sums the overflow list while the
 * GPU runs. */
static cudaError_t launch_cpu_bins(climb_case *c, cudaStream_t s)
{
    const size_t nb = c->b.count;
    int *count = c->h_fill;
    memset(count, 0, nb * sizeof(int));
    for (size_t a = 0; a < c->n; a++) {
        const float *p = c->h_atoms + 4 * a;
        const int64_t b = cut_bin(c->g, p[0], p[1], p[2], p[3]);
        c->h_bin[a] = b;
        if (b >= 0)
            count[b]++;
    }
    const int cap = capacity_rule(count, nb);
    if (cap != c->cap)
        return cudaErrorInvalidValue; /* prepare sized the bins for this case's capacity */
    memset(count, 0, nb * sizeof(int));
    const float4 dummy = make_float4(1e18f, 1e18f, 1e18f, 0.0f);
    for (size_t i = 0; i < nb * (size_t)cap; i++)
        c->h_bins[i] = dummy;
    size_t n_ovf = 0;
    for (size_t a = 0; a < c->n; a++) {
        const int64_t b = c->h_bin[a];
        if (b < 0)
            continue;
        const float *p = c->h_atoms + 4 * a;
        const float4 at = make_float4(p[0], p[1], p[2], p[3]);
        if (count[b] < cap)
            c->h_bins[(size_t)b * cap + count[b]++] = at;
        else
            c->h_ovf_atoms[n_ovf++] = at;
    }
    cudaError_t e = cudaMemcpyAsync(c->d_bins, c->h_bins, nb * cap * sizeof(float4), cudaMemcpyHostToDevice, s);
    if (e == cudaSuccess)
        e = cudaMemcpyToSymbolAsync(cut_nbr, c->h_nbr, c->n_nbr * sizeof(int), 0, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess)
        return e;
    cut_capacity_kernel<<<regions_of(&c->l), CUT_CAP_THREADS, 0, s>>>(c->d_bins, cap, c->n_nbr, c->d_out, c->g);
    if ((e = cudaGetLastError()) != cudaSuccess)
        return e;
    const int r = rung_index(launch_cpu_bins);
    c->cpu_examined[r] = cpu_overflow(c, c->h_ovf_atoms, n_ovf);
    c->n_ovf[r] = n_ovf;
    c->ran_cap[r] = cap;
    return finish_capacity(c, n_ovf, s);
}

/* gpu_bins: counts on the GPU and read back for the capacity (the 95% rule), the bins filled by atomics, the
 * overflow list read back (on a second stream, while the potential kernel runs) and summed by the host. */
static cudaError_t launch_gpu_bins(climb_case *c, cudaStream_t s)
{
    const size_t nb = c->b.count;
    const float4 *atoms = (const float4 *)c->d_atoms;
    cudaError_t e = cudaMemsetAsync(c->d_fill, 0, nb * sizeof(int), s);
    if (e != cudaSuccess)
        return e;
    if (c->n)
        cut_count_kernel<<<(unsigned)cdiv(c->n, 256), 256, 0, s>>>(atoms, (int)c->n, c->d_fill, NULL, c->g);
    if ((e = cudaGetLastError()) != cudaSuccess ||
        (e = cudaMemcpyAsync(c->h_fill, c->d_fill, nb * sizeof(int), cudaMemcpyDeviceToHost, s)) != cudaSuccess ||
        (e = cudaStreamSynchronize(s)) != cudaSuccess)
        return e;
    const int cap = capacity_rule(c->h_fill, nb);
    if (cap != c->cap)
        return cudaErrorInvalidValue;
    const size_t slots = nb * (size_t)cap;
    cut_dummy_kernel<<<(unsigned)cdiv(slots, 256), 256, 0, s>>>(c->d_bins, slots);
    if ((e = cudaMemsetAsync(c->d_fill, 0, nb * sizeof(int), s)) != cudaSuccess ||
        (e = cudaMemsetAsync(c->d_novf, 0, sizeof(int), s)) != cudaSuccess)
        return e;
    if (c->n)
        cut_bin_capacity_kernel<<<(unsigned)cdiv(c->n, 256), 256, 0, s>>>(atoms, (int)c->n, c->d_fill, c->d_bins, cap,
                                                                         c->d_ovf_atoms, c->d_novf, c->g);
    if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaEventRecord(c->binned, s)) != cudaSuccess ||
        (e = cudaMemcpyToSymbolAsync(cut_nbr, c->h_nbr, c->n_nbr * sizeof(int), 0, cudaMemcpyHostToDevice, s)) !=
            cudaSuccess)
        return e;
    cut_capacity_kernel<<<regions_of(&c->l), CUT_CAP_THREADS, 0, s>>>(c->d_bins, cap, c->n_nbr, c->d_out, c->g);
    if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaStreamWaitEvent(c->aux, c->binned, 0)) != cudaSuccess ||
        (e = cudaMemcpyAsync(c->h_novf, c->d_novf, sizeof(int), cudaMemcpyDeviceToHost, c->aux)) != cudaSuccess ||
        (e = cudaStreamSynchronize(c->aux)) != cudaSuccess)
        return e;
    const size_t n_ovf = (size_t)*c->h_novf;
    if (n_ovf > c->n)
        return cudaErrorUnknown;
    if (n_ovf && ((e = cudaMemcpyAsync(c->h_ovf_atoms, c->d_ovf_atoms, n_ovf * sizeof(float4), cudaMemcpyDeviceToHost,
                                       c->aux)) != cudaSuccess ||
                  (e = cudaStreamSynchronize(c->aux)) != cudaSuccess))
        return e;
    const int r = rung_index(launch_gpu_bins);
    c->cpu_examined[r] = cpu_overflow(c, c->h_ovf_atoms, n_ovf);
    c->n_ovf[r] = n_ovf;
    c->ran_cap[r] = cap;
    return finish_capacity(c, n_ovf, s);
}

static cudaError_t launch_scan_bins(climb_case *c, cudaStream_t s)
{
    cudaError_t e = scan_binning(c->g, c->b.count, (const float4 *)c->d_atoms, c->n, c->ws, s);
    return e != cudaSuccess ? e : launch_pencils(4, false, c->g, &c->l, c->ws, c->d_out, s);
}

static cudaError_t launch_best(climb_case *c, cudaStream_t s)
{
    return climb_cutoff_best(&c->tn, &c->l, c->d_atoms, c->n, c->d_out, c->d_ws, s);
}

/* ---------------------------------------------------------------- the registry */

static int k_direct(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)cut_direct_kernel, "cut_direct_kernel", 32 * CUT_DIRECT_ROWS, 0);
}
static int k_cpu_bins(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)cut_capacity_kernel, CUT_CAP_THREADS, 0, "cut_capacity_kernel");
    return climb_kernel_at(o, max, n, (const void *)cut_combine_kernel, 256, 0, "cut_combine_kernel");
}
static int k_gpu_bins(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)cut_count_kernel, 256, 0, "cut_count_kernel");
    n = climb_kernel_at(o, max, n, (const void *)cut_dummy_kernel, 256, 0, "cut_dummy_kernel");
    n = climb_kernel_at(o, max, n, (const void *)cut_bin_capacity_kernel, 256, 0, "cut_bin_capacity_kernel");
    n = climb_kernel_at(o, max, n, (const void *)cut_capacity_kernel, CUT_CAP_THREADS, 0, "cut_capacity_kernel");
    return climb_kernel_at(o, max, n, (const void *)cut_combine_kernel, 256, 0, "cut_combine_kernel");
}
static int k_binning(climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)cut_count_kernel, 256, 0, "cut_count_kernel");
    n = climb_kernel_at(o, max, n, (const void *)cut_scan_kernel, CUT_SCAN_THREADS, 0, "cut_scan_kernel");
    return climb_kernel_at(o, max, n, (const void *)cut_scatter_kernel, 256, 0, "cut_scatter_kernel");
}
static int k_scan_bins(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    const int n = k_binning(o, max);
    return climb_kernel_at(o, max, n, (const void *)cut_pencil_kernel<4, false>, 128, 0, "cut_pencil_kernel<4, false>");
}
static int k_best(climb_dtype, const climb_device_info *, const int *tuning, climb_kernel_desc *o, int max)
{
    climb_cutoff_tuning t;
    climb_cutoff_set_tuning(&t, tuning);
    const int n = k_binning(o, max);
    const void *f = t.points == 2 ? (const void *)cut_pencil_kernel<2, true>
                    : t.points == 4 ? (const void *)cut_pencil_kernel<4, true>
                    : t.points == 8 ? (const void *)cut_pencil_kernel<8, true>
                                    : NULL;
    return climb_kernel_at(o, max, n, f, 64 * (8 / (t.points ? t.points : 1)), 0, "cut_pencil_kernel<%d, true>",
                           t.points);
}

typedef struct cut_rung {
    climb_rung_info info;
    cut_launch_fn launch;
} cut_rung;

static const cut_rung CUT_RUNGS[] = {
    {.info = {.name = "direct", .idea = "every atom for every point with the cutoff test (dcs's best loop): the "
                                        "O(N M) baseline",
              .needs = "nx below 2^31, ny and nz below 65536", .kind = CLIMB_RUNG_LADDER, .kernels = k_direct},
     .launch = launch_direct},
    {.info = {.name = "cpu_bins", .idea = "the book's scheme: bins of a fixed capacity built on the host, neighbour "
                                          "offsets in constant memory, the overflow list summed by the host",
              .needs = "at most 8192 neighbour bins (cutoff up to about 12 bin sides)", .kind = CLIMB_RUNG_LADDER,
              .kernels = k_cpu_bins, .host_part = 1},
     .launch = launch_cpu_bins},
    {.info = {.name = "gpu_bins", .idea = "the same bins built on the GPU with atomics; the overflow list read back "
                                          "for the host",
              .needs = "at most 8192 neighbour bins (cutoff up to about 12 bin sides)", .kind = CLIMB_RUNG_LADDER,
              .kernels = k_gpu_bins, .host_part = 1},
     .launch = launch_gpu_bins},
    {.info = {.name = "scan_bins", .idea = "binning by a scan (counts, offsets, scatter): no capacity, no dummy "
                                           "atoms, no overflow; a row of neighbour bins is one range of atoms",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_scan_bins},
     .launch = launch_scan_bins},
    {.info = {.name = "pencils_cylinder", .idea = "the rows of neighbour bins read as one list in tiles, the cylinder "
                                                  "test shared by a thread's points along z, tuned points a thread",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_best},
     .launch = launch_best},
};

static_assert(sizeof CUT_RUNGS / sizeof CUT_RUNGS[0] <= 8, "the case keeps 8 rungs' overflow figures");

static const climb_rung_info *cut_rung_info(int i) { return &CUT_RUNGS[i].info; }

static int rung_index(cut_launch_fn f)
{
    for (int r = 0; r < CLIMB_COUNT(CUT_RUNGS); r++)
        if (CUT_RUNGS[r].launch == f)
            return r;
    return 0;
}

static int is_capacity(int rung)
{
    return CUT_RUNGS[rung].launch == launch_cpu_bins || CUT_RUNGS[rung].launch == launch_gpu_bins;
}
static int is_scan(int rung)
{
    return CUT_RUNGS[rung].launch == launch_scan_bins || CUT_RUNGS[rung].launch == launch_best;
}

/* ---------------------------------------------------------------- options and tuning */

enum { OPT_SPACING, OPT_CUTOFF, OPT_EXCLUSION, OPT_ATOMS, OPT_INPUT };
static const char *const CUT_ATOMS[] = {"water", "random", "on_points", NULL};
static constexpr climb_option CUT_OPTIONS[] = {
    {.name = "spacing", .kind = CLIMB_OPT_FLOAT, .meaning = "the lattice spacing h, in Å (bins are 8 h a side)",
     .def = "0.5", .min = 0.01, .max = 100},
    {.name = "cutoff", .kind = CLIMB_OPT_FLOAT, .meaning = "the cutoff radius, in Å (Parboil's 12)", .def = "12",
     .min = 0.01, .max = 1000},
    {.name = "exclusion", .kind = CLIMB_OPT_FLOAT,
     .meaning = "a point any charged atom is nearer to than this (Å) is set to 0 (Parboil's 1 Å; at least 0.001, and "
                "below the cutoff)",
     .def = "1", .min = 0.001, .max = 100},
    {.name = "atoms", .kind = CLIMB_OPT_CHOICE,
     .meaning = "generated atoms: a water box (TIP3P-like molecules 3.1 Å apart, centred on the lattice, as far as "
                "the atoms go); random in the lattice's box and 20% beyond it, charges in [-1, 1); or random atoms "
                "moved onto lattice points",
     .def = "water", .choices = CUT_ATOMS, .generator = 1},
    {.name = "input", .kind = CLIMB_OPT_FILE,
     .meaning = "a PQR molecule; the lattice is Parboil cutcp's (0.5 Å points from 0.5 Å below its atoms' box to "
                "0.5 Å above) and the atom count comes from it",
     .def = ""},
};
CLIMB_OPTION_AT(CUT_OPTIONS, OPT_SPACING, "spacing");
CLIMB_OPTION_AT(CUT_OPTIONS, OPT_CUTOFF, "cutoff");
CLIMB_OPTION_AT(CUT_OPTIONS, OPT_EXCLUSION, "exclusion");
CLIMB_OPTION_AT(CUT_OPTIONS, OPT_ATOMS, "atoms");
CLIMB_OPTION_AT(CUT_OPTIONS, OPT_INPUT, "input");

static const climb_tunable CUT_TUNABLES[] = {
    {.name = "points", .meaning = "lattice points a thread computes along z (a block: 8 x 8 x 8 / points threads)",
     .values = CUT_POINTS, .n_values = CLIMB_COUNT(CUT_POINTS)},
};

static const char *cut_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *values)
{
    (void)dev;
    (void)k;
    values[0] = 4;
    return "built-in: 4 points a thread along z, 128 threads a block (the book's choice)";
}

static const climb_tuning CUT_TUNING = {.params = CUT_TUNABLES, .n_params = CLIMB_COUNT(CUT_TUNABLES),
                                        .candidates = NULL, .n_candidates = 0, .defaults = cut_defaults,
                                        .rejects = NULL};

/* ---------------------------------------------------------------- harness glue */

#define CUT_FILE_SPACING 0.5
#define CUT_FILE_PADDING 0.5

static int cut_load(const char *path, void **data, climb_shape *shape, char *desc, size_t desclen, char *err,
                    size_t errlen)
{
    climb_atoms *a = climb_pqr_load(path, err, errlen);
    if (!a)
        return -1;
    double origin[3];
    size_t n[3];
    climb_cutcp_lattice(a->lo, a->hi, CUT_FILE_SPACING, CUT_FILE_PADDING, origin, n);
    *data = a;
    *shape = (climb_shape)CLIMB_SHAPE4(n[0], n[1], n[2], a->n);
    snprintf(desc, desclen, "%s: %zu atoms, box %.1f x %.1f x %.1f Å", climb_base_name(path), a->n, a->hi[0] - a->lo[0],
             a->hi[1] - a->lo[1], a->hi[2] - a->lo[2]);
    return 0;
}

static void cut_release_all(climb_case *c)
{
    cudaFreeHost(c->h_bins);
    cudaFreeHost(c->h_ovf_atoms);
    cudaFreeHost(c->h_ovf);
    cudaFreeHost(c->h_novf);
    cudaFreeHost(c->h_fill);
    cudaFree(c->d_bins);
    cudaFree(c->d_ovf_atoms);
    cudaFree(c->d_ovf);
    cudaFree(c->d_fill);
    cudaFree(c->d_novf);
    cudaFree(c->d_ws);
    if (c->aux)
        cudaStreamDestroy(c->aux);
    if (c->binned)
        cudaEventDestroy(c->binned);
    c->h_bins = c->h_ovf_atoms = NULL;
    c->h_ovf = NULL;
    c->h_novf = c->h_fill = NULL;
    c->d_bins = c->d_ovf_atoms = NULL;
    c->d_ovf = NULL;
    c->d_fill = c->d_novf = NULL;
    c->d_ws = NULL;
    c->aux = NULL;
    c->binned = NULL;
}

static void cut_destroy(climb_case *c)
{
    if (!c)
        return;
    cut_release_all(c);
    cudaFree(c->d_atoms);
    cudaFree(c->d_alloc);
    free(c->h_atoms);
    free(c->h_out);
    free(c->ref);
    free(c->samples);
    free(c->h_bin);
    free(c->h_counts);
    free(c->h_start);
    free(c->h_nbr);
    free(c);
}

static int cut_create(const climb_case_params *p, climb_case **out)
{
    *out = NULL;
    climb_case *c = (climb_case *)calloc(1, sizeof *c);
    if (!c)
        return climb_host_oom("the case");
    c->p = *p;
    const climb_atoms *file = (const climb_atoms *)p->opts[OPT_INPUT].data;
    c->l.nx = p->shape.d[0];
    c->l.ny = p->shape.d[1];
    c->l.nz = p->shape.d[2];
    c->n = file ? file->n : p->shape.d[3];
    c->l.h = (float)p->opts[OPT_SPACING].f;
    c->l.cutoff = (float)p->opts[OPT_CUTOFF].f;
    c->l.exclusion = (float)p->opts[OPT_EXCLUSION].f;
    c->points = c->l.nx * c->l.ny * c->l.nz;
    c->tn.points = 4;
    if (c->n > INT32_MAX || c->l.nx > INT32_MAX) {
        fprintf(stderr, "climb: cutoff: more than 2^31 atoms or points along x\n");
        free(c);
        return -1;
    }
    for (int d = 0; d < 3; d++)
        c->l.origin[d] = file ? (float)(file->lo[d] - CUT_FILE_PADDING) : 0.0f;
    c->bins_ok = climb_cutoff_bins_of(&c->l, &c->b, c->bins_err, sizeof c->bins_err) == 0;
    if (c->bins_ok) {
        c->g = grid_of(&c->l, &c->b);
        c->n_nbr_all = neighbours(&c->b, c->g.c2, NULL, CUT_MAX_NBR);
    }
    const size_t off = p->offset * sizeof(float);
    if (climb_device_alloc_offset((c->points ? c->points : 1) * sizeof(float), off, (void **)&c->d_alloc,
                                  (void **)&c->d_out, "the cutoff lattice") != 0 ||
        CLIMB_FAILED(cudaMalloc((void **)&c->d_atoms, (c->n ? c->n : 1) * 4 * sizeof(float)))) {
        cut_destroy(c);
        return -1;
    }
    c->h_atoms = (float *)malloc((c->n ? c->n : 1) * 4 * sizeof(float));
    c->h_out = (float *)malloc((c->points ? c->points : 1) * sizeof(float));
    if (!c->h_atoms || !c->h_out) {
        climb_host_oom("the cutoff case");
        cut_destroy(c);
        return -1;
    }
    if (file) {
        memcpy(c->h_atoms, file->xyzq, c->n * 4 * sizeof(float));
    } else {
        climb_rng rng;
        climb_rng_seed(&rng, p->seed);
        const double lo[3] = {0, 0, 0};
        const double ext[3] = {c->l.h * (double)(c->l.nx ? c->l.nx - 1 : 0), c->l.h * (double)(c->l.ny ? c->l.ny - 1 : 0),
                               c->l.h * (double)(c->l.nz ? c->l.nz - 1 : 0)};
        climb_atoms_generate(p->opts[OPT_ATOMS].choice == 0   ? CLIMB_ATOMS_WATER
                             : p->opts[OPT_ATOMS].choice == 1 ? CLIMB_ATOMS_RANDOM
                                                              : CLIMB_ATOMS_ON_POINTS,
                             c->n, lo, ext, c->l.h, &rng, c->h_atoms);
    }
    for (int d = 0; d < 3; d++) {
        c->lo[d] = c->n ? INFINITY : 0;
        c->hi[d] = c->n ? -INFINITY : 0;
    }
    for (size_t a = 0; a < c->n; a++)
        for (int d = 0; d < 3; d++) {
            c->lo[d] = fmin(c->lo[d], c->h_atoms[4 * a + d]);
            c->hi[d] = fmax(c->hi[d], c->h_atoms[4 * a + d]);
        }
    if (CLIMB_FAILED(cudaMemcpy(c->d_atoms, c->h_atoms, c->n * 4 * sizeof(float), cudaMemcpyHostToDevice))) {
        cut_destroy(c);
        return -1;
    }
    *out = c;
    return 0;
}

static const char *cut_describe(const climb_case *c)
{
    static char buf[300];
    snprintf(buf, sizeof buf,
             "%zu atoms (box %.1f x %.1f x %.1f Å) on a %zu x %zu x %zu lattice of %g Å from (%.2f, %.2f, %.2f), "
             "cutoff %g Å, exclusion %g Å",
             c->n, c->hi[0] - c->lo[0], c->hi[1] - c->lo[1], c->hi[2] - c->lo[2], c->l.nx, c->l.ny, c->l.nz, c->l.h,
             c->l.origin[0], c->l.origin[1], c->l.origin[2], c->l.cutoff, c->l.exclusion);
    return buf;
}

#define CUT_SAMPLES 4096

static void point_of(const climb_case *c, size_t idx, size_t *i, size_t *j, size_t *k)
{
    *i = idx % c->l.nx;
    *j = (idx / c->l.nx) % c->l.ny;
    *k = idx / (c->l.nx * c->l.ny);
}

static int cut_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    c->mode = mode;
    if (mode == CLIMB_REF_SAMPLES || mode == CLIMB_REF_VENDOR) {
        climb_rng rng;
        climb_rng_seed(&rng, c->p.seed ^ 0xc07ULL);
        c->samples = climb_rng_samples(&rng, c->points, CUT_SAMPLES, &c->n_samples);
        if (!c->samples)
            return -1;
    } else {
        c->n_samples = c->points;
    }
    c->ref = (climb_cutoff_ref *)malloc((c->n_samples ? c->n_samples : 1) * sizeof *c->ref);
    if (!c->ref)
        return climb_host_oom("the cutoff reference");
    climb_cutoff_cells cc;
    if (c->points && climb_cutoff_cells_build(&cc, &c->l, c->h_atoms, c->n) != 0)
        return -1;
    double within = 0;
    for (size_t s = 0; s < c->n_samples; s++) {
        size_t i, j, k;
        point_of(c, c->samples ? c->samples[s] : s, &i, &j, &k);
        climb_cutoff_ref_at(&cc, &c->l, i, j, k, &c->ref[s]);
        within += (double)c->ref[s].within;
    }
    if (c->points)
        climb_cutoff_cells_free(&cc);
    c->within = c->n_samples ? within * (double)c->points / (double)c->n_samples : 0;
    snprintf(desc, desclen, "CPU, %s in double from cells of the cutoff's side; each within 1.01 (within + 8) 2^-24 "
                            "sum |term| + 16 2^-24 sum |q| s / r and the coordinates' rounding; 0 exactly where a "
                            "charged atom is inside the exclusion distance",
             c->samples ? "4096 random points" : "every point");
    return 0;
}

/* The CPU reference visits the atoms in 27 cells of the cutoff's side around each point. */
static double cut_ref_cost(const climb_case *c)
{
    const double c3 = 27.0 * (double)c->l.cutoff * c->l.cutoff * c->l.cutoff;
    double vol = 1;
    for (int d = 0; d < 3; d++)
        vol *= fmax(c->hi[d] - c->lo[d], (double)c->l.cutoff);
    return (double)c->points * fmin((double)c->n, (double)c->n * c3 / fmax(vol, c3) + 1);
}

static const char *cut_refuses(const climb_case *c, int rung)
{
    static char buf[300];
    if (!(c->l.exclusion < c->l.cutoff))
        return "the exclusion distance must be below the cutoff";
    if (!c->bins_ok) {
        snprintf(buf, sizeof buf, "%s", c->bins_err);
        return buf;
    }
    const size_t rows = CUT_RUNGS[rung].launch == launch_direct ? CUT_DIRECT_ROWS : CLIMB_CUTOFF_BIN;
    if (c->l.nz > 65535 || c->l.ny > 65535 * rows)
        return "ny and nz below 65536 (the grid's y and z)";
    if (is_capacity(rung) && c->n_nbr_all > CUT_MAX_NBR) {
        snprintf(buf, sizeof buf, "more than %d neighbour bins (cutoff %g Å over bins of %g Å): constant memory holds "
                                  "%d offsets",
                 CUT_MAX_NBR, c->l.cutoff, c->b.side, CUT_MAX_NBR);
        return buf;
    }
    return NULL;
}

static int cut_prepare(climb_case *c, int rung)
{
    if (is_capacity(rung)) {
        if (host_bins(c) != 0 || neighbour_list(c) != 0)
            return -1;
        if (c->n_nbr > CUT_MAX_NBR) {
            fprintf(stderr, "climb: cutoff: %d neighbour bins, more than constant memory's %d\n", c->n_nbr, CUT_MAX_NBR);
            return -1;
        }
        if (!c->d_bins) {
            c->cap = capacity_rule(c->h_counts, c->b.count);
            const size_t slots = c->b.count * (size_t)c->cap, pts = c->points ? c->points : 1;
            CLIMB_CHECK(cudaMallocHost((void **)&c->h_bins, slots * sizeof(float4)));
            CLIMB_CHECK(cudaMallocHost((void **)&c->h_ovf_atoms, (c->n ? c->n : 1) * sizeof(float4)));
            CLIMB_CHECK(cudaMallocHost((void **)&c->h_ovf, pts * sizeof(float)));
            CLIMB_CHECK(cudaMallocHost((void **)&c->h_novf, sizeof(int)));
            CLIMB_CHECK(cudaMallocHost((void **)&c->h_fill, c->b.count * sizeof(int)));
            CLIMB_CHECK(cudaMalloc((void **)&c->d_bins, slots * sizeof(float4)));
            CLIMB_CHECK(cudaMalloc((void **)&c->d_ovf_atoms, (c->n ? c->n : 1) * sizeof(float4)));
            CLIMB_CHECK(cudaMalloc((void **)&c->d_ovf, pts * sizeof(float)));
            CLIMB_CHECK(cudaMalloc((void **)&c->d_fill, c->b.count * sizeof(int)));
            CLIMB_CHECK(cudaMalloc((void **)&c->d_novf, sizeof(int)));
            CLIMB_CHECK(cudaStreamCreateWithFlags(&c->aux, cudaStreamNonBlocking));
            CLIMB_CHECK(cudaEventCreateWithFlags(&c->binned, cudaEventDisableTiming));
        }
    }
    if (is_scan(rung) && !c->d_ws) {
        CLIMB_CHECK(cudaMalloc(&c->d_ws, ws_layout(c->b.count, c->n, NULL, NULL)));
        ws_layout(c->b.count, c->n, c->d_ws, &c->ws);
    }
    return 0;
}

static int cut_setup(const climb_case *c, int rung, climb_setup *out)
{
    if (is_capacity(rung)) {
        out->bytes = (double)c->b.count * c->cap * sizeof(float4) + (double)c->n * sizeof(float4) +
                     (double)c->points * sizeof(float) + (double)c->b.count * sizeof(int);
        return 1;
    }
    if (is_scan(rung)) {
        out->bytes = (double)ws_layout(c->b.count, c->n, NULL, NULL);
        return 1;
    }
    return 0;
}

static void cut_release(climb_case *c, int rung)
{
    (void)rung;
    cut_release_all(c);
}

static int cut_run(climb_case *c, int rung, cudaStream_t s)
{
    if (c->points == 0)
        return 0;
    CLIMB_CHECK(CUT_RUNGS[rung].launch(c, s));
    return 0;
}

static int cut_poison(climb_case *c)
{
    CLIMB_CHECK(cudaMemset(c->d_out, 0xFF, (c->points ? c->points : 1) * sizeof(float)));
    return 0;
}

static int cut_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    msg[0] = '\0';
    if (c->points == 0)
        return 0;
    CLIMB_CHECK(cudaMemcpy(c->h_out, c->d_out, c->points * sizeof(float), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t s = 0; s < c->n_samples; s++) {
        const size_t idx = c->samples ? c->samples[s] : s;
        if (!climb_cutoff_ref_ok(&c->ref[s], c->h_out[idx])) {
            if (bad < 3) {
                size_t i, j, k;
                point_of(c, idx, &i, &j, &k);
                const size_t used = strlen(msg);
                snprintf(msg + used, msglen - used, "%sV(%zu, %zu, %zu) = %.9g, expected %.9g", used ? "; " : "", i, j,
                         k, c->h_out[idx], c->ref[s].zero ? 0.0 : c->ref[s].v);
            }
            bad++;
        }
    }
    if (bad) {
        const size_t used = strlen(msg);
        snprintf(msg + used, msglen - used, " (%zu wrong)", bad);
        return 1;
    }
    return 0;
}

#define CUT_FLOPS 14.0

static void cut_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->items = (double)c->points * (double)c->n;
    out->special_ops = c->within;
    out->flops = CUT_FLOPS * c->within;
    out->bytes_read = 16.0 * (double)c->n;
    out->bytes_written = 4.0 * (double)c->points;
}

/* The pairs the pencil rungs examine: every region's points times the atoms of its pencils. */
static double pencil_pairs(climb_case *c)
{
    if (c->pencil_examined > 0 || host_bins(c) != 0)
        return c->pencil_examined;
    const size_t B = CLIMB_CUTOFF_BIN, w = 2 * (size_t)c->b.margin + 1;
    double pairs = 0;
    for (size_t rz = 0; rz < cdiv(c->l.nz, B); rz++)
        for (size_t ry = 0; ry < cdiv(c->l.ny, B); ry++)
            for (size_t rx = 0; rx < cdiv(c->l.nx, B); rx++) {
                double atoms = 0;
                for (size_t p = 0; p < w * w; p++) {
                    int64_t lo, hi;
                    if (cut_pencil(c->g, (int)rx, (int)ry, (int)rz, (int)p, &lo, &hi))
                        atoms += c->h_start[hi + 1] - c->h_start[lo];
                }
                pairs += atoms * region_points(c, rx, ry, rz);
            }
    c->pencil_examined = pairs;
    return pairs;
}

/* What each rung examines: direct every pair; the capacity rungs every slot of the neighbour bins (dummy atoms
 * too) for each point plus the host's pairs of the last run; the pencil rungs their pencils' atoms. */
static int cut_rung_counts(const climb_case *c, int rung, climb_counts *out)
{
    climb_case *m = (climb_case *)c;
    cut_counts(c, out);
    double examined;
    if (CUT_RUNGS[rung].launch == launch_direct)
        examined = (double)c->points * (double)c->n;
    else if (is_capacity(rung))
        examined = (double)c->points * c->n_nbr * c->ran_cap[rung] + c->cpu_examined[rung];
    else if (c->bins_ok)
        examined = pencil_pairs(m);
    else
        return 0;
    out->special_ops = examined;
    out->flops = CUT_FLOPS * examined;
    return 1;
}

static const char *cut_rung_note(climb_case *c, int rung)
{
    static char buf[300];
    climb_counts k;
    if (cut_rung_counts(c, rung, &k) != 1 || k.special_ops <= 0)
        return NULL;
    int n = snprintf(buf, sizeof buf, "%.3g atom-point pairs examined, %.1f%% of them within the cutoff%s",
                     k.special_ops, 100.0 * c->within / k.special_ops,
                     c->samples ? " (that share from the reference's 4096 sampled points)" : "");
    if (is_capacity(rung) && n > 0 && (size_t)n < sizeof buf) {
        double binned = 0;
        for (size_t i = 0; i < c->b.count; i++)
            binned += c->h_counts[i];
        snprintf(buf + n, sizeof buf - n, "; bins of %d atoms, %zu of the %.0f binned atoms (%.1f%%) on the host's "
                                          "overflow list",
                 c->ran_cap[rung], c->n_ovf[rung], binned, binned > 0 ? 100.0 * (double)c->n_ovf[rung] / binned : 0.0);
    }
    return buf;
}

/* The potential map as an OpenDX file. */
static int cut_save(climb_case *c, int rung, const char *path, char *err, size_t errlen)
{
    if (c->points == 0) {
        snprintf(err, errlen, "%s: an empty lattice", path);
        return -1;
    }
    if (CLIMB_FAILED(cudaMemcpy(c->h_out, c->d_out, c->points * sizeof(float), cudaMemcpyDeviceToHost))) {
        snprintf(err, errlen, "%s: could not read the lattice back", path);
        return -1;
    }
    const climb_dx_grid g = {{c->l.nx, c->l.ny, c->l.nz},
                             {c->l.origin[0], c->l.origin[1], c->l.origin[2]},
                             {c->l.h, c->l.h, c->l.h}};
    char comment[300];
    snprintf(comment, sizeof comment,
             "climb cutoff %s: Coulomb potential sum q / r (1 - r^2 / c^2)^2 (e/A), %zu atoms, cutoff %g A, "
             "exclusion %g A",
             CUT_RUNGS[rung].info.name, c->n, c->l.cutoff, c->l.exclusion);
    return climb_dx_write(path, &g, c->h_out, comment, err, errlen);
}

static void cut_set_tuning(climb_case *c, const int *values) { climb_cutoff_set_tuning(&c->tn, values); }

/* nx ny nz atoms. The goal's case: 1M atoms of a water box (217 Å a side) and a 64 Å cube of the lattice inside it;
 * a lattice over a whole 100k-atom box; a small box with a lattice that is no multiple of a region. */
static const climb_shape CUT_BENCH_SHAPES[] = {CLIMB_SHAPE4(128, 128, 128, 1000000),
                                               CLIMB_SHAPE4(200, 200, 200, 100000),
                                               CLIMB_SHAPE4(101, 77, 45, 20000)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape CUT_MAIN_SHAPES[] = {CLIMB_SHAPE4(128, 128, 128, 100000)};
/* Empty lattices and atom lists, one point, a lattice smaller than the cutoff, lines, planes, odd sizes. */
static const climb_shape CUT_CHECK_SHAPES[] = {
    CLIMB_SHAPE4(0, 0, 0, 5),   CLIMB_SHAPE4(5, 5, 5, 0),     CLIMB_SHAPE4(1, 1, 1, 1),    CLIMB_SHAPE4(1, 1, 1, 37),
    CLIMB_SHAPE4(7, 3, 2, 11),  CLIMB_SHAPE4(300, 1, 1, 500), CLIMB_SHAPE4(1, 40, 30, 900), CLIMB_SHAPE4(33, 17, 9, 2570),
    CLIMB_SHAPE4(70, 9, 20, 9001), CLIMB_SHAPE4(65, 66, 17, 30000)};
static const climb_shape CUT_QUICK_SHAPES[] = {CLIMB_SHAPE4(7, 3, 2, 11), CLIMB_SHAPE4(33, 17, 9, 2570)};

static const climb_sweep CUT_SWEEPS[] = {
    {.name = "molecules", .title = "Cutoff potential of the data folder's molecules (Parboil's lattice, 12 Å): atom-point "
                                   "pairs/s against the atoms",
     .args = "--input {data}/pqr/1d7h-min.pqr --input {data}/pqr/mache.pqr --input {data}/parboil/cutcp/watbox.sl40.pqr",
     .x = "atoms", .log_x = 1},
    {.name = "cutoff", .title = "The 1M-atom water box on a 128^3 lattice: pairs/s against the cutoff radius",
     .args = "--size 128x128x128x1000000 --set cutoff=4,8,12,16", .x = "cutoff", .log_x = 0},
};

/* The host memory a case needs at the least (the lattice and the atoms), for the harness's check before anything is allocated. */
static double cutoff_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return 4.0 * (double)s->d[0] * (double)s->d[1] * (double)s->d[2] + 16.0 * (double)s->d[3];
}

extern "C" const climb_workload climb_cutoff_workload = {
    .name = "cutoff",
    .title = "Cutoff Coulomb summation on a 3-D lattice, Parboil cutcp's potential (f32)",
    .seed_ref = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors, cutoff summation (bins, "
                "neighbour lists in constant memory, a CPU overflow list, parallel and scan binning, the cylinder "
                "test)",
    .command = NULL,
    .dims = {"nx", "ny", "nz", "atoms"},
    .shape_format = "{nx}x{ny}x{nz}, {atoms} atoms",
    .types = CLIMB_TYPE_BIT(CLIMB_F32),
    .options = CUT_OPTIONS,
    .n_options = CLIMB_COUNT(CUT_OPTIONS),
    .bytes_counted = "read: the atoms (16 bytes each) once; written: the lattice (4 bytes a point)",
    .items_unit = "atom-point pairs",
    .items_rate = "Gpair/s",
    .extra_ceiling = CLIMB_CEIL_SFU,
    .bench_shapes = CUT_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(CUT_BENCH_SHAPES),
    .check_shapes = CUT_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(CUT_CHECK_SHAPES),
    .quick_shapes = CUT_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(CUT_QUICK_SHAPES),
    .main_shapes = CUT_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(CUT_MAIN_SHAPES),
    .check_max_offset = 3,
    .n_rungs = CLIMB_COUNT(CUT_RUNGS),
    .rung = cut_rung_info,
    .published = NULL,
    .sweeps = CUT_SWEEPS,
    .n_sweeps = CLIMB_COUNT(CUT_SWEEPS),
    .load = cut_load,
    .unload = climb_pqr_unload,
    .create = cut_create,
    .describe = cut_describe,
    .reference = cut_reference,
    .ref_cost = cut_ref_cost,
    .ref_cost_limit = 2e8,
    .case_bytes = cutoff_case_bytes,
    .refuses = cut_refuses,
    .prepare = cut_prepare,
    .setup = cut_setup,
    .modifies = NULL,
    .reset = NULL,
    .run = cut_run,
    .poison = cut_poison,
    .verify = cut_verify,
    .counts = cut_counts,
    .rung_counts = cut_rung_counts,
    .rung_note = cut_rung_note,
    .release = cut_release,
    .save = cut_save,
    .destroy = cut_destroy,
    .tuning = &CUT_TUNING,
    .set_tuning = cut_set_tuning,
};
