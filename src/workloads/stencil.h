/* The 7-point 3-D stencil: the parts of src/workloads/stencil.cu that the library face and the tests use. */
#ifndef CLIMB_WORKLOADS_STENCIL_H
#define CLIMB_WORKLOADS_STENCIL_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_stencil_workload;

/* The best rung's tunable parameters, in the order of climb_stencil_workload.tuning->params. */
typedef struct climb_stencil_tuning {
    int rows;       /* rows of 32 threads in a block: a block's plane tile is 32 x rows points */
    int planes;     /* z planes a block marches through */
    int order;      /* 0: a z-tile's plane tiles launched together (z slowest); 1: a column's z-tiles (z fastest) */
} climb_stencil_tuning;

void climb_stencil_set_tuning(climb_stencil_tuning *t, const int *values);

/* One step on the CPU in double: out = the stencil of in (nx x ny x nz, x fastest) at every interior point,
 * out = in on the boundary (any index 0 or n - 1). c: centre, x - 1, x + 1, y - 1, y + 1, z - 1, z + 1. */
void climb_stencil_ref_step(const double *in, double *out, size_t nx, size_t ny, size_t nz, const float c[7]);
/* The value at (x, y, z) after `steps` steps of the float grid `in`, on the CPU in double, from the points within
 * `steps` of it alone (a box one point narrower each step): the same sums, in the same order, as climb_stencil_ref_step
 * over the whole grid, for a spot check where the whole grid's steps would take too long. NAN without memory. */
double climb_stencil_ref_point(const float *in, size_t nx, size_t ny, size_t nz, const float c[7], int steps, size_t x,
                               size_t y, size_t z);
/* A case's inputs from `seed`: random weights scaled to sum |c| = 1 (steps neither grow nor blow up the values) and
 * the grid's n values uniform in [-1, 1). Returns max |grid|. */
double climb_stencil_draw(uint64_t seed, float c[7], float *grid, size_t n);
/* The bound on |GPU - exact| after `steps` float steps with sum |c| <= 1 and |in| <= max_abs. */
double climb_stencil_tolerance(int steps, double max_abs);

/* 1 when an nx x ny x nz grid is within what the best rung launches: each size below 2^31, and ceil(nx / 32) x
 * ceil(ny / 4) x ceil(nz / 8) blocks (its smallest block tile, in every candidate) below 2^31, a grid's limit. */
int climb_stencil_fits(size_t nx, size_t ny, size_t nz);

/* The rows a block of the whole-rows march (the rung rows_async, and the best rung's rows form) takes with `stages`
 * planes in its ring: as many as fill 256 threads x 8 points (2048 / nx), held to what the ring's (rows + 2) nx
 * floats a stage fit in 48 KiB (12288 / stages / nx - 2) and to ny; 0 where not one row fits (nx above 1024 at 4
 * stages, 682 at 6) or the grid is empty. */
int climb_stencil_rows_fit(size_t nx, size_t ny, int stages);

/* The planes a block marches where the tuning says 0: of ST_WAVE_MIN to ST_WAVE_MAX, the one that minimises the
 * waves of blocks times the planes a block reads (its planes and one for its z halo, the rest of which the L2
 * mostly serves), for tiles_xy plane tiles over `depth` planes on a GPU that holds `wave` blocks at once; the
 * smallest of equals. So a grid of few blocks fills whole waves (17 row tiles over 333 planes, 528 blocks a wave:
 * 11 planes, 527 blocks), and one of many waves takes long marches. ST_WAVE_MIN for an empty grid or wave. */
#define ST_WAVE_MIN 8
#define ST_WAVE_MAX 64
int climb_stencil_wave_planes(size_t tiles_xy, size_t depth, size_t wave);

/* The best rung's form for rows of nx points whose pointers are `align`-byte aligned (16 or more: 16): 4 or 2 points
 * a thread as one vector (rows that start 16- or 8-byte aligned), 0 four scalar points a thread (8-byte rows where
 * a 128-point span pads a row no more than a 64-point one), 1 one point a thread; -1 the whole-rows march (rows_async)
 * where that form's span leaves over 15% of a row's points idle (nx below 0.85 cdiv(nx, span) span) and a row fits
 * its ring (climb_stencil_rows_fit(nx, ny, 4) >= 1). */
int climb_stencil_form(size_t nx, size_t ny, int align);

/* The rung marked best, for the library face: one step out = stencil(in) on stream s (any sizes climb_stencil_fits
 * takes; 0 does nothing; in and out must not overlap). */
cudaError_t climb_stencil_best(const climb_stencil_tuning *t, size_t nx, size_t ny, size_t nz, const float c[7],
                               const float *in, float *out, cudaStream_t s);
/* The same step on planes [zlo, zhi) of the grid alone (zhi <= nz): it reads planes zlo - 1 to zhi where they exist
 * and writes no other plane, so that kernels on disjoint ranges of one grid may run at once (a slab's edge planes
 * beside its interior). A plane 0 or nz - 1 in the range keeps its value, as in a whole step. */
cudaError_t climb_stencil_best_range(const climb_stencil_tuning *t, size_t nx, size_t ny, size_t nz, size_t zlo,
                                     size_t zhi, const float c[7], const float *in, float *out, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
