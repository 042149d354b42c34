/* Cutoff Coulomb summation: the parts of src/workloads/cutoff.cu that the library face and the tests use. */
#ifndef CLIMB_WORKLOADS_CUTOFF_H
#define CLIMB_WORKLOADS_CUTOFF_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "../../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_cutoff_workload;

/* A lattice of nx x ny x nz points, point (i, j, k) at origin + h (i, j, k), the potential stored x fastest, and
 * Parboil cutcp's potential on it: the sum over the atoms nearer than the cutoff of q / r (1 - r^2 / cutoff^2)^2,
 * and 0 at a point any atom of nonzero charge is nearer to than the exclusion distance. 0 < exclusion < cutoff. */
typedef struct climb_cutoff_lattice {
    size_t nx, ny, nz;
    float h;
    float origin[3];
    float cutoff, exclusion;
} climb_cutoff_lattice;

/* The bins every binned rung uses: cubes of CLIMB_CUTOFF_BIN points a side (a thread block's region of the
 * lattice), aligned with the lattice, `margin` bins beyond it on every side (ceil(cutoff / side)): an atom outside
 * them is farther than the cutoff from every point and is dropped, as is an atom of charge 0. Bin (x, y, z) is
 * number (z by + y) bx + x. */
#define CLIMB_CUTOFF_BIN 8
/* The most points a lattice of the binned rungs has along y and along z: a block a bin's region, 65535 of them (a
 * grid's y and z limit) of CLIMB_CUTOFF_BIN points. */
#define CLIMB_CUTOFF_MAX_YZ (65535u * CLIMB_CUTOFF_BIN)
typedef struct climb_cutoff_bins {
    int bx, by, bz;          /* bins along each axis */
    int margin;              /* bins beyond the lattice on each side */
    float side, inv_side;    /* Å */
    size_t count;            /* bx by bz */
} climb_cutoff_bins;

/* The bins of lattice l. 0, or -1 when there would be more than 2^28 of them (why in err). */
int climb_cutoff_bins_of(const climb_cutoff_lattice *l, climb_cutoff_bins *b, char *err, size_t errlen);
/* The bin of atom (x, y, z, q) in float arithmetic as every kernel computes it, or -1 (dropped). */
int64_t climb_cutoff_bin_of(const climb_cutoff_lattice *l, const climb_cutoff_bins *b, const float *xyzq);

/* The CPU reference: the atoms sorted into cubes of the cutoff's side, for the potential at a point from the 27
 * cubes around it. */
typedef struct climb_cutoff_cells {
    double lo[3], side;
    size_t n[3];
    size_t *start;           /* n0 n1 n2 + 1 */
    float *xyzq;             /* the kept atoms (charge not 0, near the lattice), cell by cell */
} climb_cutoff_cells;

int climb_cutoff_cells_build(climb_cutoff_cells *cc, const climb_cutoff_lattice *l, const float *xyzq, size_t n);
void climb_cutoff_cells_free(climb_cutoff_cells *cc);

/* The potential at point (i, j, k) in double, and what a float computation may make of it:
 *   zero:       a charged atom is nearer than the exclusion distance by more than 10^-5 of it: exactly 0 is right;
 *   maybe_zero: one is within 10^-5 of that distance (a float computation may zero the point or not): 0 is right,
 *               and so is v within tol;
 *   else v within tol: 1.01 (within + 8) 2^-24 sum |term| (the float sum), 16 2^-24 sum |q| s / r (each term's
 *   rsqrt and smoothing), the point's coordinates' rounding (4 2^-24 of their magnitude times sum |q| (1 / r^2 +
 *   4 / cutoff^2)), and the terms of atoms within 10^-5 of the cutoff.
 * within: the atoms nearer than the cutoff. */
typedef struct climb_cutoff_ref {
    double v, tol;
    int zero, maybe_zero;
    size_t within;
} climb_cutoff_ref;

void climb_cutoff_ref_at(const climb_cutoff_cells *cc, const climb_cutoff_lattice *l, size_t i, size_t j, size_t k,
                         climb_cutoff_ref *out);
/* 1 when a computed value v passes reference r. */
int climb_cutoff_ref_ok(const climb_cutoff_ref *r, float v);

/* The best rung's tunable parameters, in the order of climb_cutoff_workload.tuning->params. */
typedef struct climb_cutoff_tuning {
    int points;      /* lattice points a thread computes along z; a block is 8 x 8 x (8 / points) threads */
} climb_cutoff_tuning;

void climb_cutoff_set_tuning(climb_cutoff_tuning *t, const int *values);

/* The best rung's device workspace for n atoms on lattice l: bytes, or 0 with err when the bins are too many. */
size_t climb_cutoff_best_workspace(const climb_cutoff_lattice *l, size_t n);
/* The rung marked best, for the library face: out (nx ny nz floats, x fastest) = the cutoff potential of the n
 * atoms (d_atoms: x, y, z, q per atom, device memory, 16-byte aligned) on stream s, with ws (at least
 * climb_cutoff_best_workspace bytes, 256-byte aligned) for the bins. Everything on the device: capturable. */
cudaError_t climb_cutoff_best(const climb_cutoff_tuning *t, const climb_cutoff_lattice *l, const float *d_atoms,
                              size_t n, float *out, void *ws, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
