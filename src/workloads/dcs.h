/* Direct Coulomb summation: the parts of src/workloads/dcs.cu that the library face and the tests use. */
#ifndef CLIMB_WORKLOADS_DCS_H
#define CLIMB_WORKLOADS_DCS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_dcs_workload;

/* A lattice: nx x ny x nz points, point (i, j, k) at origin + h (i, j, k); the potential stored x fastest. Atoms
 * nearer to a point than `exclusion` add nothing there (an atom on a point would add infinity). */
typedef struct climb_dcs_lattice {
    size_t nx, ny, nz;
    float h;
    float origin[3];
    float exclusion;
} climb_dcs_lattice;

/* The potential at point (i, j, k) in double: sum over the atoms (x, y, z, q: 4 floats each) of q / r, r >=
 * exclusion. tol (may be NULL) gets the error a float computation may make there: 1.01 (N + 8) 2^-24 sum |q / r|
 * (each term's rsqrt within 2^-22 relative, N float additions), plus the point's coordinates' rounding (up to 4
 * 2^-24 of their magnitude, times sum |q| / r^2), plus every term of an atom within 10^-5 of the exclusion distance
 * (which a float computation may count or not). */
double climb_dcs_ref_at(const climb_dcs_lattice *l, const float *xyzq, size_t n, size_t i, size_t j, size_t k,
                        double *tol);

/* The best rung's tunable parameters, in the order of climb_dcs_workload.tuning->params. */
typedef struct climb_dcs_tuning {
    int points;     /* lattice points a thread computes along x, a warp's width (32) apart */
    int block;      /* rows of 32 threads a block */
} climb_dcs_tuning;

void climb_dcs_set_tuning(climb_dcs_tuning *t, const int *values);

/* The points a thread, `tuned` or fewer (2, 4, 8), that fit a lattice row of nx points best: the least of the points
 * computed, cdiv(nx, 32 P) 32 P, times the instructions an evaluation, about 7 + 4 / P (the loop's per-point work
 * and, spread over P points, an atom's load and its dy^2 + dz^2); `tuned` where it ties. Tuned 4: nx 165 gives 2 (192
 * computed at 9 against 256 at 8), nx 97 or a multiple of 128 keeps 4. More points than tuned are not tried: the
 * tuner measured those on whole rows. The rung fitted_points runs it. */
int climb_dcs_fit_points(size_t nx, int tuned);

/* The atom slices of the rung spread_rows, for `blocks` blocks of `block_threads` threads over the lattice and
 * `tiles` shared tiles of atoms (one block_threads each): at least enough that the blocks hold the SMs' 2048 threads
 * each (where the atoms give a tile a slice), then up to 4 times that many where it evens the SMs' work better:
 * the least of cdiv(blocks s, sms) (the blocks of the busiest SM) times cdiv(tiles, s) (the tiles a block sums), a
 * count taken only where it is 2% less than the fewer slices' (each slice costs a memset share and atomics). At most
 * the tiles and 65535; 1 where there is nothing to split. */
size_t climb_dcs_slices(size_t blocks, size_t tiles, int sms, int block_threads);

/* The rung spread_rows: as climb_dcs_best, a thread's t->points points cdiv(nx, points) apart along a row and the
 * threads over every row in turn, the atoms in climb_dcs_slices' slices. The library face runs it. */
cudaError_t climb_dcs_spread(const climb_dcs_tuning *t, const climb_dcs_lattice *l, const float *d_atoms, size_t n,
                             float *out, cudaStream_t s);

/* The rungs shared_tiles and fitted_points: out (nx ny nz floats, x fastest) = the potential of the n atoms
 * (d_atoms: x, y, z, q per atom, device memory, 16-byte aligned) on stream s. */
cudaError_t climb_dcs_best(const climb_dcs_tuning *t, const climb_dcs_lattice *l, const float *d_atoms, size_t n,
                           float *out, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
