/* Parboil's binary files (Stratton et al., "Parboil: A Revised Benchmark Suite for Scientific and Commercial
 * Throughput Computing"), the outside references of the electrostatics and MRI workloads. All
 * little-endian:
 *   MRI-Q input:   int32 numK, int32 numX, then float32 kx[K], ky[K], kz[K], x[X], y[X], z[X], phiR[K], phiI[K]
 *   MRI-Q output:  uint32 numX, then float32 Qr[X], Qi[X]
 *   cutcp output:  float32 sum of |potential| over the lattice, uint32 nx ny, then float32 planes z = 0 and z = nz - 1
 * Every malformed file (a count out of range, a file shorter or longer than its counts say, NaN or infinity) gives
 * "file: what is wrong (at byte N)" and -1, never a crash. */
#ifndef CLIMB_IO_PARBOIL_H
#define CLIMB_IO_PARBOIL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most samples or voxels read: 2^28 (Parboil's largest dataset has 2^21 voxels). */
#define CLIMB_PARBOIL_MAX_COUNT ((size_t)1 << 28)

typedef struct climb_mriq_input {
    size_t k, x;                /* k-space samples, voxels */
    float *kx, *ky, *kz;        /* k each */
    float *x_, *y_, *z_;        /* x each: the voxels' coordinates */
    float *phi_r, *phi_i;       /* k each */
} climb_mriq_input;

int climb_mriq_read(const char *path, climb_mriq_input *in, char *err, size_t errlen);
void climb_mriq_free(climb_mriq_input *in);
/* The two counts and the file's length, checked as climb_mriq_read checks them, without reading the values: what a
 * dry run needs. 0 with *k and *x, or -1 with err. */
int climb_mriq_peek(const char *path, size_t *k, size_t *x, char *err, size_t errlen);

/* Parboil's MRI-Q output: n voxels, qr and qi malloc'd (free both). */
int climb_mriq_read_output(const char *path, size_t *n, float **qr, float **qi, char *err, size_t errlen);

/* Parboil's cutcp reference: the sum of |potential|, the plane size nx ny, and the first and last planes
 * (plane_size floats each, malloc'd: free both). */
int climb_cutcp_read_reference(const char *path, double *abs_sum, size_t *plane_size, float **first, float **last,
                               char *err, size_t errlen);

/* Parboil cutcp's potential at point p (in double), what its reference lattice holds: the sum over the atoms (x, y,
 * z, q: 4 floats each) nearer than the cutoff c of q / r (1 - r^2 / c^2)^2, and 0 where any atom of nonzero charge
 * is nearer than the exclusion distance. Atoms of charge 0 are skipped, as Parboil does. */
double climb_cutcp_potential_at(const float *xyzq, size_t n, const double p[3], double cutoff, double exclusion);
/* Parboil cutcp's lattice for atoms in [lo, hi]: points from lo - padding, h apart, floor((hi - lo + 2 padding) / h)
 * + 1 of them along each axis. */
void climb_cutcp_lattice(const double lo[3], const double hi[3], double h, double padding, double origin[3],
                         size_t n[3]);

#ifdef __cplusplus
}
#endif

#endif
