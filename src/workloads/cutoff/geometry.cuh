/* Cutoff summation's geometry, shared by the host (the CPU reference, the host's binning) and the kernels: the lattice
 * and its bins as the device sees them (src/workloads/cutoff/). */
#ifndef CLIMB_WORKLOADS_CUTOFF_GEOMETRY_CUH
#define CLIMB_WORKLOADS_CUTOFF_GEOMETRY_CUH

#include <stddef.h>
#include <stdint.h>

#include "cutoff.h"


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

static inline cut_grid grid_of(const climb_cutoff_lattice *l, const climb_cutoff_bins *b)
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

static inline size_t cdiv(size_t n, size_t d) { return (n + d - 1) / d; }

#endif
